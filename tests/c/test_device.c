/* test_device.c - the device runtime on simulated devices (device.c,
 * device_sim.c, proc.c, bind.c). One mode per process (devices are chosen
 * at the first start):
 *   parse      NDTILE_DEVICES forms and their errors
 *   coherence  sim:2: random reads and writes (host, tasks placed on either
 *              device, partial tiles, strided views) against a model;
 *              invalidated and freed copies are poisoned, so a stale read
 *              shows
 *   thrash     sim:2 with room for three tiles: evictions with write-back,
 *              the same bits as the CPU alone, the budget kept at run time
 *              with two workers, copies and evictions named in the trace;
 *              injected allocation failures
 *   tiny       a device smaller than one tile: everything on the CPU
 *   born       results written whole on a device get no copy in
 *   golden F   the log of placements, copies, evictions and fallbacks of a
 *              fixed program equals file F (NDT_UPDATE_GOLDEN=1 writes it):
 *              the same twice with one worker waiting after each op and
 *              with two workers, deferred (the plan is made in program
 *              order on the recording thread)
 *   determinism DEVICES [N]  the plan's log of the program the same with one
 *              worker and two on those devices (tools/gpu_check.sh: cuda)
 *   groups     grouped device tasks: consecutive tasks of one op on a device
 *              recorded as one task (one call of the sim, one launch on a
 *              GPU): the log's groups cover every placed task, hold at most
 *              GROUP_MAX tasks or NDTILE_GPU_GROUP bytes, end at the
 *              next op that reads their results; one task per group in the
 *              trace; NDTILE_GPU_GROUP=0: none; the CPU's bits throughout
 *   nocuda     NDTILE_DEVICES=cuda without a plugin: the CPU runs everything
 *              and ndt_device_note says why
 *   cuda       NDTILE_DEVICES=cuda with the plugin as built: on a machine
 *              without a driver the same; with a GPU, the CPU's bits
 *   cudasum    (the CUDA plugin's host build, tests/cudahost, or a GPU:
 *              NDTILE_CUDA_PLUGIN) float32/float64 sums on the device -
 *              full sums (pairwise leaves), blocks of axis and strided
 *              sums - placed there by the log, with the CPU's bits and
 *              its overflow/invalid flags
 *   cudafault  (the host build with NDTILE_CUDAHOST_FAIL=kernel:N) an
 *              injected kernel fault: the next wait fails with an error
 *              naming the op and the device, the devices are disabled,
 *              and the program goes on on the CPU with the CPU's bits */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "internal.h"
#include "check.h"

static uint64_t rng = 88172645463325252ull;
static int64_t rnd(int64_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (int64_t)(rng % (uint64_t)n);
}

static ndt_array *slice1(ndt_array *a, int64_t lo, int64_t hi, int64_t step) {
  ndt_index ix = {.kind = NDT_IDX_SLICE, .start = lo, .stop = hi, .step = step,
                  .has_start = 1, .has_stop = 1};
  ndt_array *v = NULL;
  OK(ndt_view_index(&v, a, 1, &ix));
  return v;
}

/* ---- parse ---- */
static void test_parse(void) {
  ndt__devspec d;
  EXPECT(ndt__devices_parse("none", &d) == NDT_OK && d.kind == NDT__DEVS_NONE, "none");
  EXPECT(ndt__devices_parse("auto", &d) == NDT_OK && d.kind == NDT__DEVS_AUTO, "auto");
  EXPECT(ndt__devices_parse("cuda", &d) == NDT_OK && d.kind == NDT__DEVS_CUDA && d.n == 0, "cuda");
  EXPECT(ndt__devices_parse("cuda:0,1", &d) == NDT_OK && d.n == 2 && d.index[1] == 1, "cuda:0,1");
  EXPECT(ndt__devices_parse("cuda:0,cuda:0", &d) == NDT_OK && d.n == 2 && d.index[0] == 0 &&
         d.index[1] == 0, "cuda:0,cuda:0");
  EXPECT(ndt__devices_parse("sim:2,mem=4M", &d) == NDT_OK && d.kind == NDT__DEVS_SIM &&
         d.n == 2 && d.mem == 4 << 20, "sim:2,mem=4M");
  EXPECT(ndt__devices_parse("sim", &d) == NDT_OK && d.n == 1 && d.mem == 0, "sim");
  const char *bad[] = {"gpu", "cuda:", "cuda:x", "cuda:0,", "cuda:0,1,2,3", "sim:0", "sim:4",
                       "sim:2,mem=", "sim:2,mem=lots", "sim:2,size=4M", "sim2"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ndt_status st = ndt__devices_parse(bad[i], &d);
    EXPECT(st == NDT_ERR_VALUE && strstr(ndt_last_error(), "NDTILE_DEVICES=") &&
           strstr(ndt_last_error(), "sim:N,mem=SIZE"), "%s is refused, naming the forms: %s",
           bad[i], ndt_last_error());
  }
  setenv("NDTILE_DEVICES", "sim:9", 1);
  ndt_config cfg = {.workers = 1, .inline_elems = -1};
  EXPECT(ndt_init(&cfg) == NDT_ERR_VALUE, "ndt_init refuses a bad NDTILE_DEVICES");
  unsetenv("NDTILE_DEVICES");
}

/* ---- coherence ---- */
#define CN 4096   /* 8 tiles of 512 int64 */
#define NARR 3
static ndt_array *arr[NARR];
static int64_t ref[NARR][CN];

static void check_all(const char *when) {
  static int64_t got[CN];
  for (int k = 0; k < NARR; k++) {
    OK(ndt_to_buffer(arr[k], got));
    int64_t bad = -1;
    for (int64_t i = 0; i < CN && bad < 0; i++)
      if (got[i] != ref[k][i]) bad = i;
    EXPECT(bad < 0, "%s: array %d element %lld is %lld, not %lld", when, k, (long long)bad,
           (long long)(bad >= 0 ? got[bad] : 0), (long long)(bad >= 0 ? ref[k][bad] : 0));
  }
}

/* One random step over the arrays and their model. */
static void step(int i) {
  int k = (int)rnd(NARR), j = (int)rnd(NARR);
  int64_t n = 1 + rnd(CN / 2), step = 1 + rnd(3);
  int64_t cnt = (n + step - 1) / step;
  int64_t lo = rnd(CN - (cnt - 1) * step), lo2 = rnd(CN - (cnt - 1) * step);
  int64_t hi = lo + (cnt - 1) * step + 1, hi2 = lo2 + (cnt - 1) * step + 1;
  switch (rnd(5)) {
    case 0: {   /* arr[k][lo:hi:step] += arr[j][lo2:hi2:step] (a task, partial tiles) */
      ndt_array *x = slice1(arr[k], lo, hi, step), *y = slice1(arr[j], lo2, hi2, step);
      const ndt_array *in[2] = {x, y};
      OK(ndt_apply(&x, NDT_ADD, 2, in, NDT_DTYPE_DEFAULT));
      int64_t tmp[CN];
      for (int64_t e = 0; e < cnt; e++) tmp[e] = ref[j][lo2 + e * step];
      for (int64_t e = 0; e < cnt; e++)
        ref[k][lo + e * step] = (int64_t)((uint64_t)ref[k][lo + e * step] + (uint64_t)tmp[e]);
      ndt_free(x);
      ndt_free(y);
      break;
    }
    case 1: {   /* the host writes through an export */
      int64_t *p;
      OK(ndt_host_export(arr[k], 1, (void **)&p));
      for (int64_t e = lo; e < hi; e += step) p[e] = ref[k][e] = i * 1000 + e;
      ndt_host_release(arr[k]);
      ndt_host_settle();
      break;
    }
    case 2: {   /* a read of a view */
      ndt_array *x = slice1(arr[k], lo, hi, step);
      int64_t got[CN];
      OK(ndt_to_buffer(x, got));
      int64_t bad = -1;
      for (int64_t e = 0; e < cnt && bad < 0; e++)
        if (got[e] != ref[k][lo + e * step]) bad = e;
      EXPECT(bad < 0, "step %d: a read of %d[%lld:%lld:%lld] sees a stale copy", i, k,
             (long long)lo, (long long)hi, (long long)step);
      ndt_free(x);
      break;
    }
    case 3: {   /* a fresh array from a product, assigned into a slice */
      ndt_array *y = slice1(arr[j], lo2, hi2, step), *x = slice1(arr[k], lo, hi, step);
      ndt_array *three = NULL, *t = NULL;
      int64_t v3 = 3;
      OK(ndt_scalar(&three, NDT_INT64, &v3, 0));
      OK(ndt_binary(&t, NDT_MULTIPLY, y, three));
      OK(ndt_assign(x, t, NDT_CAST_SAME_KIND));
      int64_t tmp[CN];   /* the source as it was (they may overlap) */
      for (int64_t e = 0; e < cnt; e++) tmp[e] = (int64_t)((uint64_t)ref[j][lo2 + e * step] * 3u);
      for (int64_t e = 0; e < cnt; e++) ref[k][lo + e * step] = tmp[e];
      ndt_free(x);
      ndt_free(y);
      ndt_free(t);
      ndt_free(three);
      break;
    }
    default: {   /* a sum over a view (exact in int64) */
      ndt_array *x = slice1(arr[k], lo, hi, step), *s = NULL;
      OK(ndt_reduce(&s, NDT_RED_SUM, x, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
      int64_t got, want = 0;
      OK(ndt_item(s, NDT_INT64, &got));
      for (int64_t e = lo; e < hi; e += step) want = (int64_t)((uint64_t)want + (uint64_t)ref[k][e]);
      EXPECT(got == want, "step %d: sum %lld, not %lld", i, (long long)got, (long long)want);
      ndt_free(x);
      ndt_free(s);
    }
  }
}

static void coherence(int steps, uint64_t seed) {
  rng = seed;
  int64_t shape[1] = {CN};
  for (int k = 0; k < NARR; k++) {
    for (int64_t i = 0; i < CN; i++) ref[k][i] = k * 100000 + i;
    OK(ndt_from_buffer(&arr[k], NDT_INT64, 1, shape, ref[k], NULL));
  }
  for (int i = 0; i < steps; i++) step(i);
  check_all("at the end");
  for (int k = 0; k < NARR; k++) ndt_free(arr[k]);
}

static void start(const char *devices, int workers, int64_t inline_elems) {
  ndt_config cfg = {.workers = workers, .tile_bytes = 4096, .inline_elems = inline_elems,
                    .devices = devices};
  OK(ndt_init(&cfg));
}

/* ---- a fixed program for the CPU comparisons and the golden log ---- */
/* golden: a sync after each op, so that one worker runs the tasks in the
 * order they were recorded (the tasks of one op do not wait on one another,
 * except a reduction's last, which comes last anyway) */
static int sync_each;
#define STEP(call) \
  do {             \
    OK(call);      \
    if (sync_each) OK(ndt_sync()); \
  } while (0)
static void program(double *res, int64_t n) {
  ndt_array *a = NULL, *b = NULL, *c = NULL, *s = NULL, *two = NULL;
  double v2 = 2.5;
  STEP(ndt_arange(&a, 0, (double)n, 1, NDT_FLOAT64));
  STEP(ndt_scalar(&two, NDT_FLOAT64, &v2, 0));
  STEP(ndt_binary(&b, NDT_MULTIPLY, a, two));
  STEP(ndt_unary(&c, NDT_SIN, b));
  const ndt_array *in[2] = {c, a};
  STEP(ndt_apply(&c, NDT_ADD, 2, in, NDT_DTYPE_DEFAULT));
  ndt_array *half = slice1(c, 0, n / 2, 1), *rest = slice1(b, n / 2, n, 1);
  STEP(ndt_assign(half, rest, NDT_CAST_SAME_KIND));
  /* tasks of two elements, far apart (a column of c as a (2, n/2)
   * matrix, as apply_along_axis makes them): with devices they run where
   * those tiles are valid rather than pull the tiles onto a full device */
  for (int64_t j = 0; j < 3; j++) {
    ndt_array *col = slice1(c, j, n, n / 2), *neg = NULL;
    STEP(ndt_unary(&neg, NDT_NEGATIVE, col));
    STEP(ndt_assign(col, neg, NDT_CAST_SAME_KIND));
    ndt_free(neg);
    ndt_free(col);
  }
  STEP(ndt_reduce(&s, NDT_RED_SUM, c, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_to_buffer(c, res));
  OK(ndt_item(s, NDT_FLOAT64, res + n));
  ndt_array *all[] = {a, b, c, s, two, half, rest};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) ndt_free(all[i]);
}

static void same_as_cpu(int64_t n, const char *what) {
  double *d = malloc((size_t)(n + 1) * sizeof *d), *h = malloc((size_t)(n + 1) * sizeof *h);
  program(d, n);
  OK(ndt_processor_select("cpu"));
  program(h, n);
  OK(ndt_processor_select(NULL));
  EXPECT(memcmp(d, h, (size_t)(n + 1) * sizeof *d) == 0, "%s: the CPU's bits", what);
  free(d);
  free(h);
}

static int64_t stat(int which) {
  int64_t v[4];
  ndt_device_stats(&v[0], &v[1], &v[2], &v[3]);
  return v[which];
}

#define GROUP_MAX 64   /* NDT_GROUP_MAX (src/runtime/rt.h) */

/* how many times s occurs in t */
static int count_in(const char *t, const char *s) {
  int n = 0;
  for (const char *p = t; (p = strstr(p, s)); p += strlen(s)) n++;
  return n;
}

/* The groups a program over n float64 makes (the log's "group fused
 * elementwise simdev K" lines: b = a * 2.5 and c = b + a fuse into one
 * task per tile): their number, the tasks they hold (every placed task)
 * and the largest; the CPU's bits. */
static void groups_run(int64_t n, int *ngroups, int *members, int *largest, int *placed,
                       const char *trace) {
  ndt_array *a = NULL, *b = NULL, *c = NULL, *two = NULL;
  double v2 = 2.5;
  if (trace) OK(ndt_trace_start(trace));
  ndt_debug_device_log(1);
  OK(ndt_arange(&a, 0, (double)n, 1, NDT_FLOAT64));
  OK(ndt_scalar(&two, NDT_FLOAT64, &v2, 0));
  OK(ndt_binary(&b, NDT_MULTIPLY, a, two));
  OK(ndt_binary(&c, NDT_ADD, b, a));
  double *got = malloc((size_t)n * sizeof *got), *want = malloc((size_t)n * sizeof *want);
  OK(ndt_to_buffer(c, got));
  const char *log = ndt_debug_device_log_text();
  *ngroups = *members = *largest = 0;
  *placed = count_in(log, "place fused elementwise simdev");
  for (const char *p = log; (p = strstr(p, "group fused elementwise simdev ")); p++) {
    int k = atoi(p + strlen("group fused elementwise simdev "));
    (*ngroups)++;
    *members += k;
    if (k > *largest) *largest = k;
  }
  ndt_debug_device_log(0);
  if (trace) {
    OK(ndt_trace_write());
    ndt_trace_stop();
  }
  for (int64_t i = 0; i < n; i++) want[i] = (double)i * v2 + (double)i;
  EXPECT(memcmp(got, want, (size_t)n * sizeof *got) == 0, "grouped: the CPU's bits");
  ndt_array *all[] = {a, b, c, two};
  for (int i = 0; i < 4; i++) ndt_free(all[i]);
  free(got);
  free(want);
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *t = malloc((size_t)n + 1);
  size_t got = fread(t, 1, (size_t)n, f);
  t[got] = 0;
  fclose(f);
  return t;
}

/* ---- the CUDA plugin's sums and faults ---- */
/* the flags the ops recorded since the last call (ndt_fp_errors_take) */
static unsigned fp_taken(void) {
  ndt_fp_error e[16];
  unsigned f = 0;
  for (int k; (k = ndt_fp_errors_take(e, 16)) > 0;)
    for (int i = 0; i < k; i++) f |= e[i].flags;
  return f;
}

/* sum(x) and x.sum(axis) on the devices and on the CPU: the same bits,
 * and the same flags (overflow, invalid: "encountered in reduce") */
static void sum_case(const char *what, ndt_dtype dt, int64_t rows, int64_t cols, int axis,
                     int step, double big, double big2, double big3, unsigned want) {
  int64_t n = rows * cols;
  double *buf = malloc((size_t)n * sizeof *buf);
  for (int64_t i = 0; i < n; i++) {
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    buf[i] = ldexp((double)(x >> 11) / 9007199254740992.0 - 0.5, (int)(x % 30) - 15);
  }
  /* (in one row, both in a strided view: columns 0 and step) */
  if (big != 0) buf[n / 3 / cols * cols] = big, buf[n / 3 / cols * cols + step] = big2, buf[n / 2] = big3;
  ndt_array *res[2] = {NULL, NULL};
  ndt_status got[2];
  unsigned flags[2];
  for (int r = 0; r < 2; r++) {
    OK(ndt_sync());
    fp_taken();
    if (r) OK(ndt_processor_select("cpu"));
    ndt_array *a = NULL, *b = NULL, *v = NULL;
    int64_t shape[2] = {rows, cols};
    OK(ndt_from_buffer(&a, NDT_FLOAT64, 2, shape, buf, NULL));
    OK(ndt_astype(&b, a, dt, NDT_CAST_UNSAFE));
    ndt_index ix[2] = {{.kind = NDT_IDX_SLICE, .step = 1},
                       {.kind = NDT_IDX_SLICE, .step = step}};
    OK(ndt_view_index(&v, b, 2, ix));
    got[r] = ndt_reduce(&res[r], NDT_RED_SUM, v, axis < 0 ? NDT_ALL_AXES : (uint64_t)1 << axis,
                        0, NDT_DTYPE_DEFAULT, 0);
    if (got[r] == NDT_OK) got[r] = ndt_sync();
    flags[r] = fp_taken();
    if (r) OK(ndt_processor_select(NULL));
    ndt_free(a);
    ndt_free(b);
    ndt_free(v);
  }
  EXPECT(got[0] == NDT_OK && got[1] == NDT_OK, "%s: done (%d, %d)", what, got[0], got[1]);
  EXPECT(flags[0] == flags[1], "%s: the CPU's flags (%#x, the CPU %#x)", what, flags[0],
         flags[1]);
  EXPECT((flags[1] & (NDT_FPE_OVERFLOW | NDT_FPE_INVALID)) == want, "%s: the CPU raised %#x",
         what, flags[1]);
  if (res[0] && res[1]) {
    int64_t m = ndt_size(res[0]);
    size_t isz = dt == NDT_FLOAT32 ? 4 : 8;
    char *x = malloc(m * isz), *y = malloc(m * isz);
    OK(ndt_to_buffer(res[0], x));
    OK(ndt_to_buffer(res[1], y));
    EXPECT(ndt_size(res[1]) == m && memcmp(x, y, m * isz) == 0, "%s: the CPU's bits", what);
    free(x);
    free(y);
  }
  ndt_free(res[0]);
  ndt_free(res[1]);
  free(buf);
}

static void cuda_sums(void) {
  ndt_debug_device_log(1);
  for (int t = 0; t < 2; t++) {
    ndt_dtype dt = t ? NDT_FLOAT64 : NDT_FLOAT32;
    sum_case("full sum", dt, 1, 100003, -1, 1, 0, 0, 0, 0);
    sum_case("full sum of a 2-d array", dt, 301, 257, -1, 1, 0, 0, 0, 0);
    sum_case("full sum of a strided view", dt, 301, 257, -1, 3, 0, 0, 0, 0);
    sum_case("sum along the last axis", dt, 301, 257, 1, 1, 0, 0, 0, 0);
    sum_case("sum along the last axis, strided", dt, 301, 257, 1, 2, 0, 0, 0, 0);
    sum_case("sum along the first axis (a row fold: the CPU)", dt, 301, 257, 0, 1, 0, 0, 0, 0);
    /* the flags (and NaN bits) of sums that are not finite */
    double big = t ? 1e308 : 3e38;
    sum_case("a sum that overflows", dt, 1, 50000, -1, 1, big, big, 0, NDT_FPE_OVERFLOW);
    sum_case("a sum that overflows, then meets -inf", dt, 1, 50000, -1, 1, big, big, -INFINITY,
             NDT_FPE_OVERFLOW | NDT_FPE_INVALID);
    sum_case("a sum that overflows, then meets inf", dt, 1, 50000, -1, 1, big, big, INFINITY,
             NDT_FPE_OVERFLOW);
    sum_case("a sum of inf and -inf", dt, 1, 50000, -1, 1, INFINITY, 0, -INFINITY, NDT_FPE_INVALID);
    sum_case("a sum with NaNs", dt, 1, 50000, -1, 1, NAN, 0, -NAN, 0);
    sum_case("rows that overflow", dt, 301, 257, 1, 1, big, big, 0, NDT_FPE_OVERFLOW);
    sum_case("blocks that overflow", dt, 301, 257, -1, 3, big, big, 0, NDT_FPE_OVERFLOW);
  }
  OK(ndt_sync());
  const char *log = ndt_debug_device_log_text();
  EXPECT(strstr(log, "place pairwise leaf cuda") != NULL, "full sums placed on a CUDA device");
  EXPECT(strstr(log, "place reduce block cuda") != NULL, "block sums placed on a CUDA device");
  ndt_debug_device_log(0);
}

/* x / y with one zero in y, on the devices: tasks of one op running at
 * once on one device (grouped tasks on two workers) must each report their
 * own flags: the divide by zero is seen every time. The views are 3-d
 * and strided (m x 3 x 3 of m x 4 x 4), so a task is many runs and a
 * group many launches: two groups' steps on one stream interleave. */
static ndt_array *corner3(ndt_array *flat, int64_t m) {
  ndt_array *r = NULL, *v = NULL;
  int64_t shape[3] = {m, 4, 4};
  OK(ndt_reshape(&r, flat, 3, shape));
  ndt_index ix[3] = {{.kind = NDT_IDX_SLICE, .step = 1},
                     {.kind = NDT_IDX_SLICE, .start = 0, .stop = 3, .step = 1, .has_start = 1, .has_stop = 1},
                     {.kind = NDT_IDX_SLICE, .start = 0, .stop = 3, .step = 1, .has_start = 1, .has_stop = 1}};
  OK(ndt_view_index(&v, r, 3, ix));
  ndt_free(r);
  return v;
}

static void cuda_flags(int reps) {
  int64_t m = 12500, n = m * 16;
  double *y = malloc((size_t)n * sizeof *y);
  for (int64_t i = 0; i < n; i++) y[i] = 1.0 + (double)(i % 7);
  ndt_array *xf = NULL, *yf = NULL;
  OK(ndt_arange(&xf, 1, (double)n + 1, 1, NDT_FLOAT64));
  ndt_array *x = corner3(xf, m);
  int lost = 0;
  ndt_debug_device_log(1);
  for (int r = 0; r < reps; r++) {
    int64_t row = (r * 7919) % (m / 2);   /* in the first device's half */
    y[row * 16 + 5] = 0.0;                /* [row, 1, 1]: in the view */
    /* over the caller's memory (lent: its ops are not fused, so they are
     * elementwise tasks, which the device runs) */
    OK(ndt_from_memory(&yf, y, NDT_FLOAT64, n, 1, NULL, NULL));
    ndt_array *yy = corner3(yf, m);
    OK(ndt_sync());
    fp_taken();
    ndt_array *q = NULL;
    OK(ndt_binary(&q, NDT_TRUE_DIVIDE, x, yy));
    OK(ndt_sync());
    lost += !(fp_taken() & NDT_FPE_DIVIDE);
    ndt_free(q);
    ndt_free(yy);
    ndt_free(yf);
    yf = NULL;
    y[row * 16 + 5] = 1.0;
  }
  EXPECT(lost == 0, "every divide by zero reported (%d of %d lost)", lost, reps);
  EXPECT(strstr(ndt_debug_device_log_text(), "place elementwise cuda") != NULL,
         "the divisions placed on a CUDA device");
  ndt_debug_device_log(0);
  ndt_free(x);
  ndt_free(xf);
  free(y);
}

/* an injected fault in the second kernel (the host build:
 * NDTILE_CUDAHOST_FAIL=kernel:2, set here unless given) */
static void cuda_fault(int virt) {
  int64_t n = 100000;
  ndt_array *a = NULL, *b = NULL, *c = NULL, *s = NULL, *two = NULL;
  double v2 = 2.5;
  /* a from host memory (an arange would run on the device now, and be
   * lost with it) */
  double *init = malloc((size_t)n * sizeof *init);
  for (int64_t i = 0; i < n; i++) init[i] = (double)i;
  OK(ndt_from_buffer(&a, NDT_FLOAT64, 1, &n, init, NULL));
  free(init);
  OK(ndt_scalar(&two, NDT_FLOAT64, &v2, 0));
  OK(ndt_binary(&b, NDT_MULTIPLY, a, two));
  OK(ndt_binary(&c, NDT_ADD, b, a));
  ndt_status st = ndt_reduce(&s, NDT_RED_SUM, c, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0);
  if (st == NDT_OK) st = ndt_sync();
  const ndt_error *ei = ndt_last_error_info();
  printf("the fault: %s\n", ndt_last_error());
  /* which device met it: the Nth launch is the first device's or the
   * second's, as the workers' timing has it (fused groups run on both) */
  const char *which = strstr(ndt_last_error(), "CUDA device ");
  int failed = which ? atoi(which + strlen("CUDA device ")) : 0;
  EXPECT(st == NDT_ERR_INTERNAL && strstr(ei->message, "CUDA device") &&
             strstr(ei->message, "disabled") && ei->deferred && ei->op && ei->op[0],
         "the wait fails with an error naming the op and the device (%d: %s)", st,
         ndt_last_error());
  EXPECT(ndt_sync() == NDT_OK, "reported once: the next wait succeeds");
  /* the values computed before it on the CPU are intact */
  double *got = malloc((size_t)n * sizeof *got);
  OK(ndt_to_buffer(a, got));
  int ok = 1;
  for (int64_t i = 0; i < n && ok; i++) ok = got[i] == (double)i;
  EXPECT(ok, "a (on the host) intact");
  /* values held only on the failed device are lost: a read fails, or (a
   * task that had not run yet went to the CPU) it is right */
  st = ndt_to_buffer(c, got);
  ok = 1;
  for (int64_t i = 0; i < n && ok && st == NDT_OK; i++) ok = got[i] == (double)i * v2 + (double)i;
  EXPECT(st == NDT_OK ? ok : strstr(ndt_last_error(), "lost") != NULL,
         "c: its values or an error saying they are lost (%s)", st ? ndt_last_error() : "ok");
  free(got);
  ndt_array *all[] = {a, b, c, s, two};
  for (int i = 0; i < 5; i++) ndt_free(all[i]);
  /* the program goes on, on the CPU: nothing placed on a CUDA device */
  ndt_debug_device_log(1);
  same_as_cpu(100000, "after a device fault");
  OK(ndt_sync());
  /* the failed device's processor ("cuda" for the first, "cuda1" for the
   * second) takes nothing; on one GPU (cuda:0,cuda:0) neither does the
   * other; a second GPU (cuda:0,1) goes on */
  const char *log = ndt_debug_device_log_text();
  const char *dead = failed ? " cuda1\n" : " cuda\n", *other = failed ? " cuda\n" : " cuda1\n";
  EXPECT(!strstr(log, dead), "nothing placed on the failed device (%d)", failed);
  if (virt) EXPECT(!strstr(log, other), "nor on the other device of its GPU");
  else EXPECT(strstr(log, other) != NULL, "the other GPU goes on");
  ndt_debug_device_log(0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "parse";
  if (!strcmp(mode, "parse")) {
    test_parse();
  } else if (!strcmp(mode, "coherence")) {
    start(argc > 2 ? argv[2] : "sim:2,mem=64M", 2, 0);
    if (argc > 2) {   /* the model itself, on other devices (or none) */
      coherence(150, 7);
      goto done;
    }
    EXPECT(ndt_device_count() == 2, "two devices");
    ndt_device_info di;
    OK(ndt_device_get(1, &di));
    EXPECT(!strcmp(di.name, "simdev1") && !strcmp(di.kind, "sim") && di.capacity == 64 << 20,
           "device 1: %s %s %lld", di.name, di.kind, (long long)di.capacity);
    for (uint64_t seed = 1; seed <= 6; seed++) coherence(150, seed * 0x9E3779B97F4A7C15ull);
    EXPECT(stat(0) > 0, "tiles were copied between memories (%lld)", (long long)stat(0));
  } else if (!strcmp(mode, "thrash")) {
    start("sim:2,mem=12k", 2, 0);   /* three tiles per device */
    const char *trace = "test_device_thrash.trace.json";
    OK(ndt_trace_start(trace));
    /* deferred on two workers: the copies and evictions the plan recorded
     * keep each device within its budget at run time (the evictions of a
     * memory are chained and its allocations follow them), so nothing
     * runs that the plan did not decide: no run-time eviction, copy or
     * fallback under "-- ran:" */
    ndt_debug_device_log(1);
    same_as_cpu(20000, "thrashing");
    OK(ndt_sync());
    const char *log = ndt_debug_device_log_text(), *ran = strstr(log, "-- ran:\n");
    EXPECT(ran && ran[8] == 0, "within the budget at run time, nothing unplanned: %.300s",
           ran ? ran : "(no separator)");
    EXPECT(strstr(log, "evict") && strstr(log, "write-back") && strstr(log, "copy h2d"),
           "the plan evicted, wrote back and copied");
    ndt_debug_device_log(0);
    EXPECT(stat(2) > 0, "tiles were evicted (%lld)", (long long)stat(2));
    /* the copies and evictions are tasks of the graph: the trace names them */
    OK(ndt_trace_write());
    ndt_trace_stop();
    char *tr = read_file(trace);
    EXPECT(tr && strstr(tr, "\"copy h2d\"") && strstr(tr, "\"evict\""),
           "the trace names the copy and eviction tasks");
    free(tr);
    remove(trace);
    coherence(200, 12345);
    /* an injected allocation failure: the plan did not foresee it, so the
     * binding copies, evicts or falls back at run time (logged under
     * "-- ran:"), with the CPU's bits */
    ndt_debug_device_log(1);
    ndt_debug_fail_dev_alloc_after(1);
    same_as_cpu(5000, "an injected device allocation failure");
    ndt_debug_fail_dev_alloc_after(0);
    OK(ndt_sync());
    log = ndt_debug_device_log_text();
    ran = strstr(log, "-- ran:\n");
    EXPECT(ran && ran[8] != 0, "the failure was handled at run time");
    ndt_debug_device_log(0);
  } else if (!strcmp(mode, "born")) {
    /* results written whole on a device are born there: no copy in of
     * their old contents; only the host's read copies back */
    start("sim:1,mem=64M", 2, 0);
    int64_t n = 20000, c0 = stat(0);
    ndt_array *a = NULL, *b = NULL, *c = NULL, *two = NULL;
    double v2 = 2.5;
    OK(ndt_arange(&a, 0, (double)n, 1, NDT_FLOAT64));
    OK(ndt_scalar(&two, NDT_FLOAT64, &v2, 0));
    OK(ndt_binary(&b, NDT_MULTIPLY, a, two));
    OK(ndt_unary(&c, NDT_SIN, b));
    OK(ndt_sync());
    EXPECT(stat(0) - c0 <= 1, "results born on the device: %lld copies (the scalar's one)",
           (long long)(stat(0) - c0));
    double *got = malloc((size_t)n * sizeof *got), *want = malloc((size_t)n * sizeof *want);
    OK(ndt_to_buffer(c, got));
    EXPECT(stat(0) - c0 > 1, "the host's read copies back");
    ndt_array *all[] = {a, b, c};
    for (int i = 0; i < 3; i++) ndt_free(all[i]);
    OK(ndt_processor_select("cpu"));
    a = b = c = NULL;
    OK(ndt_arange(&a, 0, (double)n, 1, NDT_FLOAT64));
    OK(ndt_binary(&b, NDT_MULTIPLY, a, two));
    OK(ndt_unary(&c, NDT_SIN, b));
    OK(ndt_to_buffer(c, want));
    OK(ndt_processor_select(NULL));
    EXPECT(memcmp(got, want, (size_t)n * sizeof *got) == 0, "born on the device: the CPU's bits");
    ndt_array *all2[] = {a, b, c, two};
    for (int i = 0; i < 4; i++) ndt_free(all2[i]);
    free(got);
    free(want);
  } else if (!strcmp(mode, "tiny")) {
    start("sim:1,mem=1000", 2, 0);   /* less than one tile */
    int64_t e0 = stat(2);
    same_as_cpu(20000, "a device below one tile");
    EXPECT(stat(3) > 0 && stat(2) == e0, "everything fell back (%lld), nothing evicted",
           (long long)stat(3));
  } else if (!strcmp(mode, "golden") && argc > 2) {
    /* The plan (placements, copies, evictions, planned fallbacks) is made
     * on the recording thread in program order: the same log with one
     * worker waiting after each op, again, and with two workers running
     * the whole program deferred; and the CPU's bits each time. */
    start("sim:2,mem=16k", 1, -1);
    double res[3][3001], cpu[3001];
    char *logs[3];
    for (int r = 0; r < 3; r++) {
      if (r == 2) OK(ndt_set_workers(2));
      sync_each = r < 2;
      ndt_debug_device_log(1);
      program(res[r], 3000);
      OK(ndt_sync());
      logs[r] = strdup(ndt_debug_device_log_text());
      ndt_debug_device_log(0);
    }
    sync_each = 0;
    OK(ndt_processor_select("cpu"));
    program(cpu, 3000);
    OK(ndt_processor_select(NULL));
    for (int r = 0; r < 3; r++)
      EXPECT(memcmp(res[r], cpu, sizeof cpu) == 0, "run %d: the CPU's bits", r);
    EXPECT(!strcmp(logs[0], logs[1]), "the same log twice");
    if (strcmp(logs[0], logs[1])) fprintf(stderr, "---- first:\n%s---- second:\n%s", logs[0], logs[1]);
    EXPECT(!strcmp(logs[0], logs[2]), "the same log with two workers, no waits");
    if (strcmp(logs[0], logs[2])) fprintf(stderr, "---- first:\n%s---- two workers:\n%s", logs[0], logs[2]);
    EXPECT(strstr(logs[0], "evict") && strstr(logs[0], "write-back") && strstr(logs[0], "copy h2d") &&
           strstr(logs[0], "simdev1"), "the log has evictions, write-backs, copies and both devices");
    /* what ran at run time was all planned: nothing after the separator */
    const char *ran = strstr(logs[0], "-- ran:\n");
    EXPECT(ran && ran[8] == 0, "nothing unplanned ran: %s", ran ? ran : "(no separator)");
    if (getenv("NDT_UPDATE_GOLDEN")) {
      FILE *f = fopen(argv[2], "wb");
      fputs(logs[0], f);
      fclose(f);
    }
    char *want = read_file(argv[2]);
    EXPECT(want && !strcmp(want, logs[0]), "the log equals %s (NDT_UPDATE_GOLDEN=1 rewrites it)",
           argv[2]);
    if (want && strcmp(want, logs[0])) fprintf(stderr, "---- got:\n%s", logs[0]);
    free(want);
    for (int r = 0; r < 3; r++) free(logs[r]);
  } else if (!strcmp(mode, "determinism") && argc > 2) {
    /* on the devices named (sim:..., cuda: tools/gpu_check.sh): the plan's
     * part of the log the same with one worker waiting after each op and
     * two workers deferred, and the CPU's bits. Arrays above the inline
     * threshold are fused (fusion.c), and a wait after each op would
     * change which ops fuse, so the program's tasks: there the one worker
     * runs deferred too (a wait after each op made the logs differ at
     * n = 200000, gpu_check.sh's size, on any device) */
    start(argv[2], 1, -1);
    int64_t n = argc > 3 ? atoll(argv[3]) : 3000;
    double *res = malloc((size_t)(n + 1) * sizeof *res), *cpu = malloc((size_t)(n + 1) * sizeof *cpu);
    char *logs[2];
    for (int r = 0; r < 2; r++) {
      if (r == 1) OK(ndt_set_workers(2));
      sync_each = r == 0 && n <= ndt__rt_inline_elems();
      ndt_debug_device_log(1);
      program(r ? res : cpu, n);
      OK(ndt_sync());
      logs[r] = strdup(ndt_debug_device_log_text());
      ndt_debug_device_log(0);
      char *ran = strstr(logs[r], "-- ran:\n");
      if (ran) printf("run %d: %s", r, ran);
      /* NDT_REQUIRE_PLANNED=1: every copy, eviction and fallback was the
       * plan's (meson's device-determinism* on sim and the CUDA plugin's
       * host build; on many ranks: tests/mpi) */
      if (getenv("NDT_REQUIRE_PLANNED"))
        EXPECT(ran && ran[8] == 0, "run %d: nothing unplanned ran (rank %d): %.300s", r,
               ndt_rank(), ran ? ran : "");
      if (ran) *ran = 0;   /* what the safety net did may differ */
    }
    EXPECT(memcmp(res, cpu, (size_t)(n + 1) * sizeof *res) == 0, "the same bits in both runs");
    if (getenv("NDT_DEBUG_DIFF"))
      for (int64_t i = 0, shown = 0; i <= n && shown < 6; i++)
        if (memcmp(&res[i], &cpu[i], sizeof *res)) {
          fprintf(stderr, "rank %d: [%lld] %.17g vs %.17g\n", ndt_rank(), (long long)i, res[i], cpu[i]);
          shown++;
        }
    OK(ndt_processor_select("cpu"));
    program(cpu, n);
    OK(ndt_processor_select(NULL));
    EXPECT(memcmp(res, cpu, (size_t)(n + 1) * sizeof *res) == 0, "the CPU's bits");
    EXPECT(!strcmp(logs[0], logs[1]), "the plan's log the same with one worker and two");
    if (strcmp(logs[0], logs[1])) fprintf(stderr, "---- one:\n%s---- two:\n%s", logs[0], logs[1]);
    printf("%d devices; the plan's log has %zu bytes\n", ndt_device_count(), strlen(logs[0]));
    free(logs[0]);
    free(logs[1]);
    free(res);
    free(cpu);
  } else if (!strcmp(mode, "groups")) {
    int64_t n = 100000;   /* 196 tiles of 512 float64 */
    int ng, nm, big, placed;
    unsetenv("NDTILE_GPU_GROUP");
    start("sim:1,mem=64M", 2, 0);
    const char *trace = "test_device_groups.trace.json";
    groups_run(n, &ng, &nm, &big, &placed, trace);
    printf("default: %d groups of %d tasks (largest %d), %d placed\n", ng, nm, big, placed);
    EXPECT(placed == 196 && nm == placed, "every placed task is in a group (%d of %d)", nm,
           placed);
    EXPECT(big == GROUP_MAX && ng == (196 + GROUP_MAX - 1) / GROUP_MAX,
           "groups of up to %d tasks (%d groups, largest %d)", GROUP_MAX, ng, big);
    /* one task of the graph per group: the trace has as many of the fused
     * tasks as the log has groups */
    char *tr = read_file(trace);
    int tm = tr ? count_in(tr, "{\"name\": \"fused multiply+add\"") : -1;
    EXPECT(tm == ng, "the trace has one task per group (%d, %d groups)", tm, ng);
    free(tr);
    remove(trace);
    ndt_finalize();
    /* a byte cap: a task takes 4096 bytes each of a, b and c and 8 of the
     * scalar, so 40 KiB hold four */
    setenv("NDTILE_GPU_GROUP", "40k", 1);
    start("sim:1,mem=64M", 2, 0);
    groups_run(n, &ng, &nm, &big, &placed, NULL);
    printf("NDTILE_GPU_GROUP=40k: %d groups of %d tasks (largest %d)\n", ng, nm, big);
    EXPECT(nm == placed && big == 4, "NDTILE_GPU_GROUP caps a group's bytes (largest %d)", big);
    ndt_finalize();
    setenv("NDTILE_GPU_GROUP", "0", 1);
    start("sim:1,mem=64M", 2, 0);
    groups_run(n, &ng, &nm, &big, &placed, NULL);
    EXPECT(ng == 0 && placed == 196, "NDTILE_GPU_GROUP=0: no groups (%d)", ng);
    unsetenv("NDTILE_GPU_GROUP");
  } else if (!strcmp(mode, "nocuda")) {
    setenv("NDTILE_CUDA_PLUGIN", "/nonexistent/libndtile_cuda.so", 1);
    start("cuda", 2, -1);
    EXPECT(ndt_device_count() == 0, "no device");
    EXPECT(strstr(ndt_device_note(), "nonexistent") != NULL, "the note says why: %s",
           ndt_device_note());
    same_as_cpu(5000, "no plugin");
  } else if (!strcmp(mode, "cuda")) {
    /* the plugin as built (device.c finds it in the build directory): on
     * a machine without a driver or a GPU, the CPU runs everything and the
     * note says why; with a GPU, its results are the CPU's */
    start("cuda", 2, -1);
    if (ndt_device_count() == 0)
      EXPECT(ndt_device_note()[0] != 0, "no CUDA device, and the note says why");
    else
      printf("%d CUDA device(s)\n", ndt_device_count());
    printf("note: %s\n", ndt_device_note());
    same_as_cpu(200000, "NDTILE_DEVICES=cuda");
  } else if (!strcmp(mode, "cudasum")) {
    start(argc > 2 ? argv[2] : "cuda:0,1", 2, -1);
    EXPECT(ndt_device_count() > 0, "a CUDA device (%s)", ndt_device_note());
    if (ndt_device_count() > 0) cuda_sums();
  } else if (!strcmp(mode, "cudaflags")) {
    start(argc > 2 ? argv[2] : "cuda:0,1", 2, -1);
    EXPECT(ndt_device_count() > 0, "a CUDA device (%s)", ndt_device_note());
    if (ndt_device_count() > 0) cuda_flags(argc > 3 ? atoi(argv[3]) : 40);
  } else if (!strcmp(mode, "cudafault")) {
    /* (a budget of its own: which kernel is the second must not depend on
     * the caller's NDTILE_CUDA_MEM) */
    setenv("NDTILE_CUDAHOST_FAIL", "kernel:2", 0);
    setenv("NDTILE_CUDA_MEM", "64M", 1);
    start(argc > 2 ? argv[2] : "cuda:0,1", 2, -1);
    EXPECT(ndt_device_count() > 0, "a CUDA device (%s)", ndt_device_note());
    if (ndt_device_count() > 0) cuda_fault(argc > 2 && !strcmp(argv[2], "cuda:0,cuda:0"));
  } else {
    fprintf(stderr, "usage: test_device parse|coherence|thrash|tiny|born|groups|golden FILE|determinism DEVICES [N]|nocuda|cuda|cudasum [DEVICES]|cudafault [DEVICES]\n");
    return 2;
  }
done:
  OK(ndt_sync());
  ndt_finalize();
  printf("%s: %d passed, %d failed\n", mode, passed, failed);
  return failed != 0;
}
