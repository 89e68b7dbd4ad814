/* test_export.c - lending host memory (ndt_host_export): the address and
 * strides, waiting for pending work, the move of separate tiles into one
 * buffer, and ordering with tasks recorded while lent (ndt_host_settle).
 * In the tsan suite: a borrower meeting a task is a reported race. */
#include <string.h>
#include "check.h"

static double *lend(ndt_array *a, int for_write) {
  void *p = NULL;
  OK(ndt_host_export(a, for_write, &p));
  return p;
}

/* a[i] as the runtime reads it */
static double at(const ndt_array *a, int64_t i) {
  double v;
  OK(ndt_get_item(a, &i, &v));
  return v;
}

static void lends_in_place(int64_t n) {
  ndt_array *a = NULL, *b = NULL, *one = NULL, *c = NULL;
  OK(ndt_arange(&a, 0, (double)n, 1, NDT_FLOAT64));
  OK(ndt_full(&one, 0, NULL, NDT_FLOAT64, &(double){1.0}, NDT_FLOAT64));
  /* pending readers of a: the export for writing waits for them */
  OK(ndt_binary(&b, NDT_MULTIPLY, a, a));
  double *p = lend(a, 1);
  EXPECT(p[n - 1] == (double)(n - 1), "n=%lld: a[-1] = %g", (long long)n, p[n - 1]);
  p[n - 1] = -1.0;
  EXPECT(at(b, n - 1) == (double)(n - 1) * (double)(n - 1), "n=%lld: b saw the borrower's write",
         (long long)n);
  /* a task recorded while lent: done once settled */
  ndt_array *dst = a;
  OK(ndt_binary(&dst, NDT_ADD, a, one));
  ndt_host_settle();
  EXPECT(p[n - 1] == 0.0 && p[0] == 1.0 && p[n / 2] == (double)(n / 2 + 1),
         "n=%lld: after a += 1: %g %g %g", (long long)n, p[0], p[n / 2], p[n - 1]);
  /* a copy made while lent reads what the borrower wrote */
  p[3] = 42.0;
  OK(ndt_copy(&c, a));
  EXPECT(at(c, 3) == 42.0, "n=%lld: the copy missed the borrower's write", (long long)n);
  ndt_host_release(a);
  /* a reversed view of the moved store: its first element's address */
  ndt_index rev = {.kind = NDT_IDX_SLICE, .step = -1};
  ndt_array *v = NULL;
  OK(ndt_view_index(&v, a, 1, &rev));
  double *q = lend(v, 0);
  EXPECT(ndt_strides(v)[0] == -1 && q == p + (n - 1) && q[0] == 0.0,
         "n=%lld: reversed view at %p (base %p)", (long long)n, (void *)q, (void *)p);
  ndt_host_release(v);
  ndt_free(v);
  ndt_free(c);
  ndt_free(b);
  ndt_free(one);
  ndt_free(a);
}

static void readonly_refused(void) {
  ndt_array *a;
  OK(ndt_zeros(&a, 1, (int64_t[]){10}, NDT_FLOAT64));
  OK(ndt_set_writeable(a, 0));
  void *p = NULL;
  EXPECT(ndt_host_export(a, 1, &p) == NDT_ERR_VALUE, "a read-only array lent for writing");
  OK(ndt_host_export(a, 0, &p));
  ndt_host_release(a);
  ndt_free(a);
}

/* WRITEABLE on a view of a read-only owner: 1 is refused, 2 (the binding's
 * judgement that a base between them is writeable) sets it; the owner
 * stays read-only. */
static void writeable_view_of_readonly_owner(void) {
  ndt_array *a, *v;
  OK(ndt_zeros(&a, 1, (int64_t[]){10}, NDT_FLOAT64));
  OK(ndt_transpose(&v, a, (int[]){0}));
  OK(ndt_set_writeable(a, 0));
  OK(ndt_set_writeable(v, 0));
  EXPECT(ndt_set_writeable(v, 1) == NDT_ERR_VALUE, "a view of a read-only owner made writeable");
  EXPECT(!ndt_is_writeable(v), "the refused view stays read-only");
  OK(ndt_set_writeable(v, 2));
  EXPECT(ndt_is_writeable(v) && !ndt_is_writeable(a), "writeable 2 sets the view's flag only");
  ndt_free(v);
  ndt_free(a);
}

/* NumPy's WARN_ON_WRITE: views are made with it, ndt_set_writeable (either
 * way) clears it on that handle only, a read-only handle never reports it,
 * and the core still writes into such an array (the write clears the flag
 * on the handle written, see warn_on_write_writes). */
static void warn_on_write_flag(void) {
  ndt_array *a, *v, *w;
  OK(ndt_zeros(&a, 1, (int64_t[]){10}, NDT_FLOAT64));
  EXPECT(!ndt_warn_on_write(a), "a new array has no WARN_ON_WRITE");
  ndt_set_warn_on_write(a, 1);
  EXPECT(ndt_warn_on_write(a), "set");
  OK(ndt_transpose(&v, a, (int[]){0}));
  EXPECT(ndt_warn_on_write(v), "a view inherits WARN_ON_WRITE");
  double one = 1.0;
  OK(ndt_fill(v, &one, NDT_FLOAT64));   /* the core writes, clearing v's flag */
  EXPECT(!ndt_warn_on_write(v) && ndt_warn_on_write(a), "the write cleared the view's flag");
  OK(ndt_set_writeable(v, 1));
  EXPECT(!ndt_warn_on_write(v) && ndt_warn_on_write(a), "cleared on the view only");
  OK(ndt_transpose(&w, a, (int[]){0}));
  OK(ndt_set_writeable(w, 0));
  EXPECT(!ndt_warn_on_write(w), "cleared by WRITEABLE False");
  ndt_set_warn_on_write(w, 1);
  EXPECT(!ndt_warn_on_write(w), "a read-only handle never reports it");
  ndt_set_warn_on_write(a, 0);
  EXPECT(!ndt_warn_on_write(a), "cleared");
  ndt_free(w);
  ndt_free(v);
  ndt_free(a);
}

/* The records ndt_fp_errors_take hands out: how many are the write warning
 * (op "write", NDT_WARN_BROADCAST_WRITE), how many anything else. */
static int write_warnings(int *others) {
  ndt_fp_error e[16];
  int n, w = 0;
  *others = 0;
  while ((n = ndt_fp_errors_take(e, 16)) > 0)
    for (int i = 0; i < n; i++) {
      if (e[i].flags == NDT_WARN_BROADCAST_WRITE && strcmp(e[i].op, "write") == 0) w++;
      else (*others)++;
    }
  return w;
}

/* A handle with WARN_ON_WRITE c, written through the C API, writes
 * through, clears its flag and records NumPy's DeprecationWarning once
 * (PyArray_FailUnlessWriteable); reads and a read-only handle record
 * nothing, the latter failing as before. */
static void warn_on_write_writes(int64_t n) {
  int others = 0;
  write_warnings(&others);   /* what earlier tests left */
  ndt_array *a, *b, *s, *src;
  OK(ndt_zeros(&a, 1, &n, NDT_FLOAT64));
  OK(ndt_ones(&b, 1, &n, NDT_FLOAT64));
  int64_t half = n / 2, two = 2;
  OK(ndt_as_strided(&s, a, 1, 1, &half, &two));   /* a[1::2] */
  OK(ndt_as_strided(&src, b, 0, 1, &half, &two)); /* b[::2] */
  /* elementwise op with out= */
  ndt_set_warn_on_write(a, 1);
  ndt_array *out = a;
  OK(ndt_apply(&out, NDT_ADD, 2, (const ndt_array *const[]){b, b}, NDT_FLOAT64));
  EXPECT(out == a && at(a, n - 1) == 2.0, "n=%lld: out= written", (long long)n);
  EXPECT(!ndt_warn_on_write(a), "n=%lld: out= cleared the flag", (long long)n);
  EXPECT(write_warnings(&others) == 1 && others == 0, "n=%lld: out= warned once", (long long)n);
  out = a;
  OK(ndt_apply(&out, NDT_ADD, 2, (const ndt_array *const[]){b, b}, NDT_FLOAT64));
  EXPECT(write_warnings(&others) == 0, "n=%lld: a second write is not warned", (long long)n);
  /* strided copy into a strided view: the view's flag, not the owner's */
  ndt_set_warn_on_write(s, 1);
  OK(ndt_assign(s, src, NDT_CAST_SAME_KIND));
  EXPECT(at(a, 1) == 1.0 && at(a, 0) == 2.0, "n=%lld: strided copy written", (long long)n);
  EXPECT(!ndt_warn_on_write(s), "n=%lld: the view's flag cleared", (long long)n);
  EXPECT(write_warnings(&others) == 1 && others == 0, "n=%lld: strided copy warned once",
         (long long)n);
  /* exported for writing: warned; for reading: nothing, the flag kept */
  ndt_set_warn_on_write(a, 1);
  double *p = lend(a, 0);
  ndt_host_release(a);
  EXPECT(p && ndt_warn_on_write(a) && write_warnings(&others) == 0,
         "n=%lld: a read export does not warn", (long long)n);
  p = lend(a, 1);
  if (p) p[0] = 7.0;
  ndt_host_release(a);
  EXPECT(at(a, 0) == 7.0 && !ndt_warn_on_write(a), "n=%lld: export for writing", (long long)n);
  EXPECT(write_warnings(&others) == 1 && others == 0, "n=%lld: export warned once", (long long)n);
  ndt_set_warn_on_write(a, 1);
  int64_t k = 0;
  OK(ndt_host_tiles(a, 1, NULL, 0, &k));
  EXPECT(!ndt_warn_on_write(a) && write_warnings(&others) == 1,
         "n=%lld: host tiles for writing warned", (long long)n);
  /* put and fill */
  ndt_set_warn_on_write(a, 1);
  double one = 1.0;
  OK(ndt_fill(a, &one, NDT_FLOAT64));
  EXPECT(!ndt_warn_on_write(a) && write_warnings(&others) == 1, "n=%lld: fill warned",
         (long long)n);
  /* read-only wins: refused, nothing recorded */
  ndt_set_warn_on_write(s, 1);
  OK(ndt_set_writeable(s, 0));
  ndt_set_warn_on_write(s, 1);   /* kept, but never reported on a read-only handle */
  EXPECT(ndt_assign(s, src, NDT_CAST_SAME_KIND) == NDT_ERR_VALUE, "n=%lld: read-only refused",
         (long long)n);
  EXPECT(write_warnings(&others) == 0 && others == 0, "n=%lld: a refused write does not warn",
         (long long)n);
  ndt_free(src);
  ndt_free(s);
  ndt_free(b);
  ndt_free(a);
}

/* ndt_host_tiles: the owned tiles' ranges cover the array once, in order;
 * bytes written there are what the tasks recorded after read; an array with
 * pending readers is waited for; views and read-only arrays are refused. */
static void host_tiles_fill(int64_t n) {
  ndt_array *a = NULL, *b = NULL, *s = NULL;
  OK(ndt_empty(&a, 1, &n, NDT_FLOAT64));
  int64_t k = -1;
  OK(ndt_host_tiles(a, 1, NULL, 0, &k));
  ndt_host_tile t[256];
  EXPECT(k >= 1 && k <= 256, "n=%lld: %lld tiles", (long long)n, (long long)k);
  int64_t k2 = 0;
  OK(ndt_host_tiles(a, 1, t, 256, &k2));
  int64_t next = 0;
  for (int64_t i = 0; i < k2 && i < 256; i++) {
    EXPECT(t[i].start == next && t[i].len > 0, "n=%lld: tile %lld at %lld", (long long)n,
           (long long)i, (long long)t[i].start);
    for (int64_t e = 0; e < t[i].len; e++) ((double *)t[i].data)[e] = (double)(t[i].start + e);
    next = t[i].start + t[i].len;
  }
  EXPECT(next == n, "n=%lld: the tiles cover %lld elements", (long long)n, (long long)next);
  OK(ndt_binary(&b, NDT_MULTIPLY, a, a));   /* pending readers of a */
  /* filling again waits for them: b keeps the first values */
  OK(ndt_host_tiles(a, 1, t, 256, &k2));
  for (int64_t i = 0; i < k2; i++)
    for (int64_t e = 0; e < t[i].len; e++) ((double *)t[i].data)[e] = 1.0;
  EXPECT(at(b, n - 1) == (double)(n - 1) * (double)(n - 1), "n=%lld: b = %g", (long long)n,
         at(b, n - 1));
  OK(ndt_reduce(&s, NDT_RED_SUM, a, NDT_ALL_AXES, 0, NDT_FLOAT64, 0));
  double v = 0;
  OK(ndt_get_item(s, NULL, &v));
  EXPECT(v == (double)n, "n=%lld: sum after the refill = %g", (long long)n, v);
  ndt_index half = {.kind = NDT_IDX_SLICE, .start = 1, .has_start = 1, .step = 1};
  ndt_array *view = NULL;
  OK(ndt_view_index(&view, a, 1, &half));
  EXPECT(ndt_host_tiles(view, 1, t, 256, &k2) == NDT_ERR_VALUE, "n=%lld: a view", (long long)n);
  OK(ndt_set_writeable(a, 0));
  EXPECT(ndt_host_tiles(a, 1, t, 256, &k2) == NDT_ERR_VALUE, "n=%lld: read-only", (long long)n);
  OK(ndt_host_tiles(a, 0, t, 256, &k2));
  ndt_free(view);
  ndt_free(s);
  ndt_free(b);
  ndt_free(a);
}

/* ndt_from_memory: an array over the caller's memory, no copy; tasks
 * (deferred, many tiles) read and write it; every call leaves it settled so
 * the caller's own writes are seen; release runs once, when the last array
 * (a view here) goes, and not on failure. */
static int releases;
static void count_release(void *ctx) { releases += ctx == (void *)&releases; }

static void from_memory(int64_t n) {
  double *mem = malloc((size_t)n * sizeof *mem);
  for (int64_t i = 0; i < n; i++) mem[i] = (double)i;
  ndt_array *a = NULL, *b = NULL, *one = NULL, *s = NULL, *v = NULL;
  releases = 0;
  OK(ndt_from_memory(&a, mem, NDT_FLOAT64, n, 0, count_release, &releases));
  OK(ndt_full(&one, 0, NULL, NDT_FLOAT64, &(double){1.0}, NDT_FLOAT64));
  OK(ndt_binary(&b, NDT_MULTIPLY, a, a));
  ndt_array *dst = a;
  OK(ndt_binary(&dst, NDT_ADD, a, one));    /* a += 1, after b read a */
  ndt_host_settle();
  EXPECT(mem[0] == 1.0 && mem[n - 1] == (double)n, "n=%lld: a += 1 left %g .. %g in memory",
         (long long)n, mem[0], mem[n - 1]);
  EXPECT(at(b, n - 1) == (double)(n - 1) * (double)(n - 1), "n=%lld: b = %g", (long long)n,
         at(b, n - 1));
  mem[n / 2] = -7.0;                       /* the caller writes between calls */
  OK(ndt_reduce(&s, NDT_RED_SUM, a, NDT_ALL_AXES, 0, NDT_FLOAT64, 0));
  double sum = 0, want = (double)n * (double)(n + 1) / 2 - (double)(n / 2 + 1) - 7.0;
  OK(ndt_get_item(s, NULL, &sum));
  EXPECT(sum == want, "n=%lld: sum %g, want %g", (long long)n, sum, want);
  ndt_index rev = {.kind = NDT_IDX_SLICE, .step = -1};
  OK(ndt_view_index(&v, a, 1, &rev));
  ndt_free(a);
  EXPECT(releases == 0, "n=%lld: released while a view is alive", (long long)n);
  EXPECT(at(v, 0) == (double)n, "n=%lld: v[0] = %g", (long long)n, at(v, 0));
  ndt_free(v);
  EXPECT(releases == 1, "n=%lld: %d releases", (long long)n, releases);
  /* refused: memory not aligned to the dtype; nothing kept, no release */
  ndt_array *u = NULL;
  EXPECT(ndt_from_memory(&u, (char *)mem + 1, NDT_FLOAT64, 2, 0, count_release, &releases) ==
             NDT_ERR_UNSUPPORTED && !u && releases == 1,
         "unaligned memory accepted");
  EXPECT(ndt_from_memory(&u, mem, NDT_FLOAT64, -1, 0, NULL, NULL) == NDT_ERR_VALUE,
         "a negative size accepted");
  /* read-only memory: writes refused */
  OK(ndt_from_memory(&u, mem, NDT_FLOAT64, n, 1, NULL, NULL));
  dst = u;
  EXPECT(ndt_binary(&dst, NDT_ADD, u, one) != NDT_OK, "a write into read-only memory");
  ndt_free(u);
  ndt_free(s);
  ndt_free(b);
  ndt_free(one);
  free(mem);
}

int main(void) {
  /* 4 KiB tiles: 512 doubles a tile; 100000 elements are 196 separate tiles */
  ndt_config cfg = {.workers = 4, .tile_bytes = 4096, .inline_elems = 0};
  OK(ndt_init(&cfg));
  lends_in_place(100);
  lends_in_place(100000);
  readonly_refused();
  writeable_view_of_readonly_owner();
  warn_on_write_flag();
  warn_on_write_writes(100);
  warn_on_write_writes(100000);
  host_tiles_fill(100);
  host_tiles_fill(100000);
  from_memory(100);
  from_memory(100000);
  OK(ndt_sync());
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
