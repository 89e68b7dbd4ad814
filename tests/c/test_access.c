/* test_access.c - a task's access list names only the tiles its operands'
 * elements lie in (task.c, ndt__view_tiles): a block of a transposed view
 * or a stepped view leaves whole tiles of its extent out. Checks the list
 * the runtime hands the flush hook (each tile once, [lo, hi] inside the
 * tile and over the elements there), that the binding gives the body the
 * right elements (in place or gathered), that a task on a tile the other
 * task's extent covers but its elements skip runs while that task is
 * still running (no false dependency), and that what depends on real
 * overlaps is still ordered (the values). The devices are argv[1]'s, else
 * NDTILE_DEVICES's (meson: none, and sim:2 as access-sim2; make test-sim
 * and test-cudahost run it under theirs): the lists are the same with
 * devices, where the tiles a task pins are those its list names (bind.c,
 * exec_tracked) and a simulated device runs the tasks in its memory.
 * It runs under NDTILE_CHECK=error (check.c): every task recorded here is
 * checked, and check_rule() records tasks that break the rule that a task
 * never names the same elements in two written operands (or reads them
 * elsewhere other than in place) and expects the check to refuse them,
 * and tasks that keep it (interleaved steps, .real beside .imag) to run. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ndtile.h"
#include "internal.h"
#include "check.h"

#define R 8       /* rows of A */
#define C 4096    /* columns: 8 tiles of 512 float64 a row */
#define TE 512    /* elements of a 4 KiB tile */

static void nap_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* ---- the accesses of the tasks recorded while the hook is set ---- */
#define MAXACC 4096
static ndt_access seen[MAXACC];
static int nseen, capture;

static ndt_status hook(int all, const ndt_store *s, const ndt_access *acc, int nacc) {
  (void)s;
  if (capture && !all && acc) {
    nseen = 0;
    for (int i = 0; i < nacc && i < MAXACC; i++) seen[nseen++] = acc[i];
  }
  return NDT_OK;
}

/* the accesses of store s in the last captured list: each tile once, in
 * ascending order, its [lo, hi] inside the tile; their tile indices */
static int tiles_of(const ndt_store *s, int64_t *out, int cap) {
  int n = 0;
  for (int i = 0; i < nseen; i++) {
    const ndt_access *a = &seen[i];
    if (a->tile->store != s) continue;
    int64_t t = a->tile - s->tiles;
    EXPECT(a->lo >= a->tile->start && a->hi <= a->tile->start + a->tile->len - 1 && a->lo <= a->hi,
           "access of tile %lld: [%lld, %lld] outside [%lld, +%lld)", (long long)t,
           (long long)a->lo, (long long)a->hi, (long long)a->tile->start, (long long)a->tile->len);
    EXPECT(n == 0 || t > out[n - 1], "tile %lld named twice or out of order", (long long)t);
    if (n < cap) out[n++] = t;
  }
  return n;
}

/* every element of v lies in an access of its store in the captured list */
static void covers(const ndt_array *v) {
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t e = 0; e < v->size; e++) {
    int64_t f = v->offset;
    for (int k = 0; k < v->ndim; k++) f += idx[k] * v->strides[k];
    int in = 0;
    for (int i = 0; i < nseen && !in; i++)
      in = seen[i].tile->store == v->store && seen[i].lo <= f && f <= seen[i].hi;
    if (!in) {
      EXPECT(0, "element at %lld is in no access", (long long)f);
      return;
    }
    for (int k = v->ndim - 1; k >= 0; k--) {
      if (++idx[k] < v->shape[k]) break;
      idx[k] = 0;
    }
  }
}

/* ---- a task: out (C order) = in (any view) + add; in is read ---- */
typedef struct { double add; atomic_int *gate, *done; } copy_arg;

static ndt_status copy_body(ndt_bound *b, void *argp) {
  copy_arg *a = argp;
  if (a->gate)
    while (!atomic_load(a->gate)) nap_ms(1);
  const ndt_bound *in = &b[1], *out = &b[0];
  int64_t idx[NDT_MAXDIMS] = {0}, n = 1;
  for (int k = 0; k < in->ndim; k++) n *= in->shape[k];
  for (int64_t e = 0; e < n; e++) {
    const char *p = in->ptr;
    char *q = out->ptr;
    for (int k = 0; k < in->ndim; k++) {
      p += idx[k] * in->st[k];
      q += idx[k] * out->st[k];
    }
    *(double *)q = *(const double *)p + a->add;
    for (int k = in->ndim - 1; k >= 0; k--) {
      if (++idx[k] < in->shape[k]) break;
      idx[k] = 0;
    }
  }
  if (a->done) atomic_store(a->done, 1);
  return NDT_OK;
}
static const ndt_task_kind copy_kind = {"copy-test", {copy_body}, NULL};

static ndt_status record_copy(ndt_array *out, const ndt_array *in, double add, atomic_int *gate,
                              atomic_int *done, unsigned out_priv) {
  copy_arg a = {add, gate, done};
  ndt_operand op[2] = {{out, out_priv}, {(ndt_array *)in, NDT_READ}};
  return ndt__record(&copy_kind, NULL, op, 2, &a, sizeof a, 0);
}

static ndt_array *slice2(const ndt_array *a, int64_t s0, int64_t e0, int64_t st0, int64_t s1,
                         int64_t e1, int64_t st1) {
  ndt_index ix[2] = {{NDT_IDX_SLICE, s0, e0, st0, 1, 1}, {NDT_IDX_SLICE, s1, e1, st1, 1, 1}};
  ndt_array *v;
  OK(ndt_view_index(&v, a, 2, ix));
  return v;
}


/* ---- NDTILE_CHECK (check.c) ---- */
/* a task writing v[0] = 1 and v[1] = 2 elementwise (both operands of one
 * shape), run only when the check lets it through */
static ndt_status two_body(ndt_bound *b, void *argp) {
  (void)argp;
  int64_t idx[NDT_MAXDIMS] = {0}, n = 1;
  for (int k = 0; k < b[0].ndim; k++) n *= b[0].shape[k];
  for (int64_t e = 0; e < n; e++) {
    for (int o = 0; o < 2; o++) {
      char *q = b[o].ptr;
      for (int k = 0; k < b[o].ndim; k++) q += idx[k] * b[o].st[k];
      *(double *)q = o + 1;
    }
    for (int k = b[0].ndim - 1; k >= 0; k--) {
      if (++idx[k] < b[0].shape[k]) break;
      idx[k] = 0;
    }
  }
  return NDT_OK;
}
static const ndt_task_kind two_kind = {"two-writes", {two_body}, NULL};

static ndt_status record_two(const ndt_array *x, const ndt_array *y) {
  ndt_operand op[2] = {{x, NDT_WRITE}, {y, NDT_WRITE}};
  return ndt__record(&two_kind, NULL, op, 2, NULL, 0, 0);
}

/* a refusal: NDT_ERR_INTERNAL naming the task, its operands and the rule */
static void refused(ndt_status st, const char *task, const char *what, const char *line) {
  EXPECT(st == NDT_ERR_INTERNAL, "%s: status %d (the check let it through)", line, (int)st);
  if (st != NDT_ERR_INTERNAL) return;
  const char *m = ndt_last_error();
  EXPECT(strstr(m, "NDTILE_CHECK") && strstr(m, task) && strstr(m, what) &&
             strstr(m, "operand 0") && strstr(m, "operand 1"),
         "%s: message: %s", line, m);
}

static ndt_array *slice1(const ndt_array *a, int64_t s0, int64_t e0, int64_t st0) {
  ndt_index ix = {NDT_IDX_SLICE, s0, e0, st0, 1, 1};
  ndt_array *v;
  OK(ndt_view_index(&v, a, 1, &ix));
  return v;
}

static int all_equal(const ndt_array *v, double x) {
  int64_t n = ndt_size(v);
  double *b = malloc(sizeof(double) * (size_t)n);
  OK(ndt_to_buffer(v, b));
  int bad = 0;
  for (int64_t i = 0; i < n; i++) bad += b[i] != x;
  free(b);
  return bad;
}

static ndt_array *pool[64];
static int npool;
static ndt_array *K(ndt_array *v) { return pool[npool++] = v; }

static void check_rule(void) {
  /* F: 4 tiles of a 1-d float64 store; Q: a square 2-d one over tiles */
  int64_t fn = 4 * TE, qs[2] = {64, 64};
  ndt_array *F, *Q, *QT;
  OK(ndt_zeros(&F, 1, &fn, NDT_FLOAT64));
  OK(ndt_zeros(&Q, 2, qs, NDT_FLOAT64));
  int perm[2] = {1, 0};
  OK(ndt_transpose(&QT, Q, perm));
  const char *two = "names the same elements in two written operands";
  const char *rw = "reads elements that it writes";

  /* the same view written twice, across tiles (session 31's fused group
   * on ranks) and within one tile */
  ndt_array *mid = K(slice1(F, TE - 10, 3 * TE + 10, 1)), *one = K(slice1(F, 3, 20, 1));
  refused(record_two(mid, mid), "two-writes", two, "a view written twice across tiles");
  refused(record_two(one, one), "two-writes", two, "a view written twice in one tile");
  /* a step beside a block, partial overlap, a step inside another */
  ndt_array *e2 = K(slice1(F, 0, fn, 2)), *o2 = K(slice1(F, 1, fn, 2));
  ndt_array *e2a = K(slice1(F, 0, fn / 2, 1)), *e2b = K(slice1(F, fn / 2 - 1, fn - 1, 1));
  ndt_array *e4h = K(slice1(F, 0, fn / 2, 1));   /* fn / 2 elements: as many as e2 */
  refused(record_two(e2, e4h), "two-writes", two, "every 2nd and the first half");
  refused(record_two(e2a, e2b), "two-writes", two, "halves sharing one element");
  ndt_array *e4x = K(slice1(F, 0, fn, 4)), *e8 = K(slice1(F, 0, 2 * fn / 4, 2));
  refused(record_two(e4x, e8), "two-writes", two, "every 4th and every 2nd of the first half");
  /* interleaved steps share a byte range and no element: allowed */
  OK(record_two(e2, o2));
  EXPECT(!all_equal(e2, 1.0) && !all_equal(o2, 2.0), "interleaved steps written");
  /* 2-d: a transposed view of a square and the square (same elements,
   * other order: refused when written twice or read and written) */
  refused(record_two(Q, QT), "two-writes", two, "a square and its transpose");
  refused(record_copy(Q, QT, 1.0, NULL, NULL, NDT_WRITE), "copy-test", rw,
          "a square written from its transpose");
  /* columns: even ones beside odd ones allowed; even rows beside even
   * columns share Q[0, 0] */
  ndt_array *ce = K(slice2(Q, 0, 64, 1, 0, 64, 2)), *co = K(slice2(Q, 0, 64, 1, 1, 64, 2));
  ndt_array *re = K(slice2(Q, 0, 64, 2, 0, 64, 1)), *rq = K(slice2(Q, 0, 32, 1, 0, 64, 1));
  OK(record_two(ce, co));
  EXPECT(!all_equal(ce, 1.0) && !all_equal(co, 2.0), "even and odd columns written");
  refused(record_two(re, ce), "two-writes", two, "even rows and even columns");
  OK(record_two(re, K(slice2(Q, 1, 64, 2, 0, 64, 1))));
  refused(record_two(rq, K(slice2(Q, 31, 63, 1, 0, 64, 1))), "two-writes", two,
          "row blocks sharing row 31");
  /* in place: the same elements in the same order, read and written */
  OK(record_copy(e2, e2, 1.0, NULL, NULL, NDT_RW));
  EXPECT(!all_equal(e2, 2.0), "in place: F[::2] + 1");
  OK(record_copy(mid, mid, 1.0, NULL, NULL, NDT_WRITE));
  /* a read and a write in part over each other, or reversed */
  ndt_array *sh = K(slice1(F, 1, fn, 1)), *lo = K(slice1(F, 0, fn - 1, 1));
  ndt_array *rev = K(slice1(F, fn - 1, -fn - 1, -1));
  refused(record_copy(sh, lo, 0.0, NULL, NULL, NDT_WRITE), "copy-test", rw,
          "F[1:] written from F[:-1]");
  refused(record_copy(F, rev, 0.0, NULL, NULL, NDT_WRITE), "copy-test", rw,
          "F written from F[::-1]");
  /* as_strided (strides 4, 5: not nested, listed): {0, 4, 5, 8, 9, 13}
   * meets F[1::4] at 5, not F[2::4] */
  int64_t as_shape[2] = {3, 2}, as_st[2] = {4, 5};
  ndt_array *as, *f14 = K(slice1(F, 1, 24, 4)), *f24 = K(slice1(F, 2, 24, 4));
  OK(ndt_as_strided(&as, F, 0, 2, as_shape, as_st));
  K(as);
  /* (3, 2) views of F[1::4] and F[2::4]: the body walks operand 0's shape */
  ndt_array *f14r, *f24r;
  int64_t s32[2] = {3, 2};
  OK(ndt_reshape(&f14r, f14, 2, s32));
  OK(ndt_reshape(&f24r, f24, 2, s32));
  K(f14r);
  K(f24r);
  EXPECT(f14r->store == F->store && f24r->store == F->store, "reshaped steps are views");
  refused(record_two(as, f14r), "two-writes", two, "as_strided (4, 5) and F[1::4]");
  OK(record_two(as, f24r));
  /* complex: .real beside .imag allowed; the whole beside .imag refused */
  int64_t cn = 2 * TE;
  ndt_array *Z, *zr, *zi;
  OK(ndt_zeros(&Z, 1, &cn, NDT_COMPLEX128));
  OK(ndt_real(&zr, Z));
  OK(ndt_imag(&zi, Z));
  K(Z);
  K(zr);
  K(zi);
  OK(record_two(zr, zi));
  ndt_operand zop[2] = {{Z, NDT_WRITE}, {zi, NDT_READ}};
  refused(ndt__record(&copy_kind, NULL, zop, 2, &(copy_arg){0}, sizeof(copy_arg), 0),
          "copy-test", rw, "a complex array written, its .imag read");
  OK(ndt_sync());
  K(F);
  K(Q);
  K(QT);
  while (npool) ndt_free(pool[--npool]);
}

int main(int argc, char **argv) {
  ndt_config cfg = {.workers = 2, .tile_bytes = 4096, .inline_elems = 0,
                    .devices = argc > 1 ? argv[1] : NULL};
  setenv("NDTILE_CHECK", "error", 1);
  OK(ndt_init(&cfg));
  printf("access: %d devices\n", ndt_device_count());
  check_rule();
  if (argc > 1 && strcmp(argv[1], "none"))
    EXPECT(ndt_device_count() > 0, "no device for %s: %s", argv[1], ndt_device_note());
  double *h = malloc(sizeof(double) * R * C), *got = malloc(sizeof(double) * R * C);
  for (int64_t i = 0; i < R * C; i++) h[i] = (double)i;
  int64_t shape[2] = {R, C};
  ndt_array *A, *AT;
  OK(ndt_from_buffer(&A, NDT_FLOAT64, 2, shape, h, NULL));
  int perm[2] = {1, 0};
  OK(ndt_transpose(&AT, A, perm));
  OK(ndt_sync());
  EXPECT(A->store->ntiles == R * C / TE, "tiles of A: %lld", (long long)A->store->ntiles);

  /* 1. a block of A.T (rows 100..199: columns of A): one tile of each row */
  ndt_array *blk = slice2(AT, 100, 200, 1, 0, R, 1);
  int64_t oshape[2] = {100, R};
  ndt_array *O;
  OK(ndt_empty(&O, 2, oshape, NDT_FLOAT64));
  OK(ndt_sync());
  ndt__set_flush_hook(hook);
  int64_t fb0 = ndt_processor_fallbacks();
  capture = 1;
  OK(record_copy(O, blk, 0.5, NULL, NULL, NDT_WRITE));
  capture = 0;
  int64_t t[MAXACC];
  int n = tiles_of(A->store, t, MAXACC);
  EXPECT(n == R, "A.T block: %d tiles named (extent: %lld)", n,
         (long long)(ndt_store_tile_of(A->store, (R - 1) * C + 199) -
                     ndt_store_tile_of(A->store, 100) + 1));
  for (int i = 0; i < n && i < R; i++)
    EXPECT(t[i] == i * (C / TE), "A.T block: tile %d is %lld", i, (long long)t[i]);
  covers(blk);
  double *ob = malloc(sizeof(double) * 100 * R);
  OK(ndt_to_buffer(O, ob));
  int bad = 0;
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < R; j++) bad += ob[i * R + j] != h[j * C + 100 + i] + 0.5;
  EXPECT(!bad, "A.T block copied: %d wrong", bad);
  /* with devices the task pinned those 8 tiles and O's 2 (40 KiB) in a
   * device, not its extent's 57 (228 KiB: more than access-sim2's 64 KiB
   * devices hold, so it would have fallen back to the CPU) */
  EXPECT(ndt_processor_fallbacks() == fb0, "A.T block: %lld fallbacks to the CPU",
         (long long)(ndt_processor_fallbacks() - fb0));

  /* a block across a tile boundary of each row (columns 500..529): two
   * tiles a row, bound by gathering or in place */
  ndt_array *blk2 = slice2(AT, 500, 530, 1, 0, R, 1);
  int64_t o2shape[2] = {30, R};
  ndt_array *O2;
  OK(ndt_empty(&O2, 2, o2shape, NDT_FLOAT64));
  OK(ndt_sync());
  capture = 1;
  OK(record_copy(O2, blk2, 0.0, NULL, NULL, NDT_WRITE));
  capture = 0;
  n = tiles_of(A->store, t, MAXACC);
  EXPECT(n == 2 * R, "A.T block over a boundary: %d tiles", n);
  covers(blk2);
  OK(ndt_to_buffer(O2, ob));
  bad = 0;
  for (int i = 0; i < 30; i++)
    for (int j = 0; j < R; j++) bad += ob[i * R + j] != h[j * C + 500 + i];
  EXPECT(!bad, "A.T block over a boundary: %d wrong", bad);

  /* 2. a stepped write: every 700th element of a flat store (one element
   * a tile, some tiles skipped), then read back whole */
  int64_t fn = 64 * TE;
  ndt_array *F, *Fs, *V;
  OK(ndt_zeros(&F, 1, &fn, NDT_FLOAT64));
  ndt_index fs = {NDT_IDX_SLICE, 3, fn, 700, 1, 1};
  OK(ndt_view_index(&Fs, F, 1, &fs));
  int64_t nv = Fs->size;
  double *vh = malloc(sizeof(double) * nv);
  for (int64_t i = 0; i < nv; i++) vh[i] = 1.0 + (double)i;
  OK(ndt_from_buffer(&V, NDT_FLOAT64, 1, &nv, vh, NULL));
  OK(ndt_sync());
  ndt__set_flush_hook(hook);   /* (zeros may have set fusion's) */
  capture = 1;
  OK(record_copy(Fs, V, 0.0, NULL, NULL, NDT_WRITE));
  capture = 0;
  n = tiles_of(F->store, t, MAXACC);
  EXPECT(n == nv, "F[3::700]: %d tiles named for %lld elements", n, (long long)nv);
  covers(Fs);
  double *fh = malloc(sizeof(double) * fn);
  OK(ndt_to_buffer(F, fh));
  bad = 0;
  for (int64_t i = 0; i < fn; i++)
    bad += fh[i] != ((i - 3) % 700 == 0 && i >= 3 ? 1.0 + (double)((i - 3) / 700) : 0.0);
  EXPECT(!bad, "F[3::700] written: %d wrong", bad);

  /* 3. no false dependency: a task on a block of A.T that waits for a gate
   * holds tiles 0, 8, 16, ... of A; a task on tile 3 (inside its extent,
   * outside its elements) runs meanwhile */
  atomic_int gate = 0, done = 0;
  ndt_array *O3;
  int64_t o3shape[2] = {10, R};
  OK(ndt_empty(&O3, 2, o3shape, NDT_FLOAT64));
  ndt_array *blk3 = slice2(AT, 0, 10, 1, 0, R, 1);
  ndt_array *row0 = slice2(A, 0, 1, 1, 3 * TE, 4 * TE, 1);   /* tile 3 */
  ndt_array *row0b = slice2(A, 1, 2, 1, 3 * TE, 4 * TE, 1);  /* tile 11 */
  /* a wait on another array ends the pending group of device tasks
   * (sched.c: tasks of one op on one device run as one, in order), so that
   * each task below is submitted by itself, as on the CPU */
  ndt_array *K;
  int64_t one = 1;
  double k1;
  OK(ndt_zeros(&K, 1, &one, NDT_FLOAT64));
  OK(ndt_sync());
  ndt__set_flush_hook(NULL);
  /* O3 = A.T[0:10] (waits for the gate; reads tiles 0, 8, ..., 56) */
  OK(record_copy(O3, blk3, 0.0, &gate, NULL, NDT_WRITE));
  OK(ndt_to_buffer(K, &k1));
  /* A[0, 1536:2048] = A[1, 1536:2048] + 0.25 (tiles 3 and 11) */
  OK(record_copy(row0, row0b, 0.25, NULL, &done, NDT_WRITE));
  OK(ndt_to_buffer(K, &k1));
  for (int ms = 0; ms < 20000 && !atomic_load(&done); ms += 5) nap_ms(5);
  EXPECT(atomic_load(&done), "a task on a tile the gated task skips waited for it");
  atomic_store(&gate, 1);
  /* then A.T[0:20] (which now overlaps nothing written) and a write
   * through A.T that the next read of rows of A depends on */
  ndt_array *blk4 = slice2(AT, 1530, 1540, 1, 0, R, 1);   /* reads what row0 wrote */
  ndt_array *O4;
  int64_t o4shape[2] = {10, R};
  OK(ndt_empty(&O4, 2, o4shape, NDT_FLOAT64));
  OK(record_copy(O4, blk4, 0.0, NULL, NULL, NDT_WRITE));
  /* A.T[2000:2010] = O4 + 1 (a strided write), then read A whole */
  ndt_array *blk5 = slice2(AT, 2000, 2010, 1, 0, R, 1);
  OK(record_copy(blk5, O4, 1.0, NULL, NULL, NDT_WRITE));
  OK(ndt_to_buffer(A, got));
  double *ref = malloc(sizeof(double) * R * C);
  memcpy(ref, h, sizeof(double) * R * C);
  for (int j = 3 * TE; j < 4 * TE; j++) ref[j] = h[C + j] + 0.25;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < R; j++) ref[j * C + 2000 + i] = ref[j * C + 1530 + i] + 1.0;
  bad = 0;
  for (int64_t i = 0; i < R * C; i++) bad += got[i] != ref[i];
  EXPECT(!bad, "A after the strided writes: %d wrong", bad);
  OK(ndt_to_buffer(O3, ob));
  bad = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < R; j++) bad += ob[i * R + j] != h[j * C + i];
  EXPECT(!bad, "A.T[0:10] as it was before the writes recorded after it: %d wrong", bad);

  ndt_free(blk);
  ndt_free(blk2);
  ndt_free(blk3);
  ndt_free(blk4);
  ndt_free(blk5);
  ndt_free(row0);
  ndt_free(row0b);
  ndt_free(K);
  ndt_free(O);
  ndt_free(O2);
  ndt_free(O3);
  ndt_free(O4);
  ndt_free(Fs);
  ndt_free(F);
  ndt_free(V);
  ndt_free(AT);
  ndt_free(A);
  free(h);
  free(got);
  free(ob);
  free(vh);
  free(fh);
  free(ref);
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
