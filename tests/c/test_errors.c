/* test_errors.c - a C program gets each error as its parts (ndt_last_error_info):
 * the status, the kind (NumPy's exception class), the argument at fault, the
 * op of a deferred failure and NumPy's message; the rules the Python binding
 * used to apply itself (negative dimensions, integers' bounds, axes, the
 * reduce names) are the C API's. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check.h"

/* The last error is (st, kind, arg, msg), not deferred. */
static void expect_error(ndt_status got, ndt_status st, ndt_error_kind kind, const char *arg,
                         const char *msg, int line) {
  const ndt_error *e = ndt_last_error_info();
  EXPECT(got == st, "line %d: status %d, want %d", line, got, st);
  EXPECT(e->status == st, "line %d: info status %d, want %d", line, e->status, st);
  EXPECT(e->kind == kind, "line %d: kind %d, want %d", line, e->kind, kind);
  EXPECT(!strcmp(e->arg, arg), "line %d: arg '%s', want '%s'", line, e->arg, arg);
  EXPECT(!strcmp(e->message, msg), "line %d: message '%s', want '%s'", line, e->message, msg);
  EXPECT(!strcmp(ndt_last_error(), msg), "line %d: text '%s'", line, ndt_last_error());
  EXPECT(!e->deferred && !*e->op, "line %d: deferred %d op '%s'", line, e->deferred, e->op);
}
#define EXPECT_ERROR(call, st, kind, arg, msg) expect_error((call), st, kind, arg, msg, __LINE__)

static void test_negative_dimensions(void) {
  ndt_array *a = NULL;
  int64_t bad[2] = {3, -1};
  const char *m = "negative dimensions are not allowed";
  EXPECT_ERROR(ndt_zeros(&a, 2, bad, NDT_FLOAT64), NDT_ERR_VALUE, NDT_KIND_VALUE, "shape", m);
  EXPECT_ERROR(ndt_empty(&a, 2, bad, NDT_INT8), NDT_ERR_VALUE, NDT_KIND_VALUE, "shape", m);
  double one = 1;
  EXPECT_ERROR(ndt_full(&a, 2, bad, NDT_FLOAT32, &one, NDT_FLOAT64), NDT_ERR_VALUE,
               NDT_KIND_VALUE, "shape", m);
  /* NumPy's order: a dimension too big before a later negative one */
  int64_t big[3] = {INT64_C(1) << 62, INT64_C(1) << 62, -1};
  EXPECT_ERROR(ndt_zeros(&a, 3, big, NDT_FLOAT64), NDT_ERR_VALUE, NDT_KIND_VALUE, "",
               "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
               "possible size.");
  EXPECT_ERROR(ndt_eye(&a, -1, -1, 0, NDT_FLOAT64), NDT_ERR_VALUE, NDT_KIND_VALUE, "N", m);
  EXPECT_ERROR(ndt_eye(&a, 3, -2, 0, NDT_FLOAT64), NDT_ERR_VALUE, NDT_KIND_VALUE, "M", m);
  EXPECT(a == NULL, "no array made");
  OK(ndt_eye(&a, 3, -1, 0, NDT_FLOAT64));   /* m = -1: square */
  EXPECT(ndt_shape(a)[1] == 3, "eye(3) is 3x3");
  ndt_array *v = NULL;
  int64_t st1[1] = {1}, neg1[1] = {-2};
  EXPECT_ERROR(ndt_as_strided(&v, a, 0, 1, neg1, st1), NDT_ERR_VALUE, NDT_KIND_VALUE, "shape",
               m);
  ndt_free(a);
}

static void test_axes(void) {
  ndt_array *a = NULL, *r = NULL;
  int64_t shape[2] = {2, 3};
  OK(ndt_zeros(&a, 2, shape, NDT_FLOAT64));
  const char *m = "axis 5 is out of bounds for array of dimension 2";
  EXPECT_ERROR(ndt_swapaxes(&r, a, 0, 5), NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", m);
  EXPECT_ERROR(ndt_sort(&r, a, 5, 0), NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", m);
  EXPECT_ERROR(ndt_scan(&r, NDT_SCAN_CUMSUM, a, 5, NDT_DTYPE_DEFAULT), NDT_ERR_AXIS,
               NDT_KIND_AXIS, "axis", m);
  EXPECT_ERROR(ndt_diagonal(&r, a, 0, 0, 4), NDT_ERR_AXIS, NDT_KIND_AXIS, "axis2",
               "axis2: axis 4 is out of bounds for array of dimension 2");
  EXPECT_ERROR(ndt_diagonal(&r, a, 0, -3, 1), NDT_ERR_AXIS, NDT_KIND_AXIS, "axis1",
               "axis1: axis -3 is out of bounds for array of dimension 2");
  EXPECT(r == NULL, "no array made");
  ndt_free(a);
}

static ndt_int128 big(int neg, uint64_t high, uint64_t low) {
  ndt_int128 v = {neg, high, low};
  return v;
}

static void test_integers_bounds(void) {
  ndt_rng *g = NULL;
  OK(ndt_rng_new(&g, 7));
  ndt_array *r = NULL;
  int64_t n = 5;
  EXPECT_ERROR(ndt_rng_integers(&r, g, 1, &n, NDT_INT64, 5, 2, 0), NDT_ERR_VALUE, NDT_KIND_VALUE,
               "low", "low >= high");
  EXPECT_ERROR(ndt_rng_integers(&r, g, 1, &n, NDT_INT64, 5, 2, 1), NDT_ERR_VALUE, NDT_KIND_VALUE,
               "low", "low > high");
  EXPECT_ERROR(ndt_rng_integers(&r, g, 1, &n, NDT_INT64, 0, 0, 0), NDT_ERR_VALUE, NDT_KIND_VALUE,
               "high", "high <= 0");
  EXPECT_ERROR(ndt_rng_integers(&r, g, 1, &n, NDT_INT64, 0, -1, 1), NDT_ERR_VALUE,
               NDT_KIND_VALUE, "high", "high < 0");
  EXPECT_ERROR(ndt_rng_integers(&r, g, 1, &n, NDT_INT8, 0, 200, 0), NDT_ERR_VALUE,
               NDT_KIND_VALUE, "high", "high is out of bounds for int8");
  EXPECT_ERROR(ndt_rng_integers(&r, g, 1, &n, NDT_UINT8, -1, 3, 0), NDT_ERR_VALUE,
               NDT_KIND_VALUE, "low", "low is out of bounds for uint8");
  EXPECT_ERROR(ndt_rng_integers(&r, g, 1, &n, NDT_BOOL, 0, 3, 0), NDT_ERR_VALUE, NDT_KIND_VALUE,
               "high", "high is out of bounds for bool");
  /* bounds beyond 64 bits: exclusive 2**64 is uint64's top, 2**64 + 1 is not */
  OK(ndt_rng_integers_wide(&r, g, 1, &n, NDT_UINT64, big(0, 0, 0), big(0, 1, 0), 0));
  ndt_free(r);
  r = NULL;
  EXPECT_ERROR(ndt_rng_integers_wide(&r, g, 1, &n, NDT_UINT64, big(0, 0, 0), big(0, 1, 1), 0),
               NDT_ERR_VALUE, NDT_KIND_VALUE, "high", "high is out of bounds for uint64");
  EXPECT_ERROR(ndt_rng_integers_wide(&r, g, 1, &n, NDT_INT64, big(0, 0, 0), big(0, 1, 0), 0),
               NDT_ERR_VALUE, NDT_KIND_VALUE, "high", "high is out of bounds for int64");
  EXPECT_ERROR(ndt_rng_integers_wide(&r, g, 1, &n, NDT_INT64, big(1, 64, 0), big(0, 0, 3), 0),
               NDT_ERR_VALUE, NDT_KIND_VALUE, "low", "low is out of bounds for int64");
  /* a saturated magnitude (2**128 or more) still decides every check */
  EXPECT_ERROR(ndt_rng_integers_wide(&r, g, 1, &n, NDT_UINT64, big(0, UINT64_MAX, 0),
                                     big(0, UINT64_MAX, 5), 1),
               NDT_ERR_VALUE, NDT_KIND_VALUE, "high", "high is out of bounds for uint64");
  /* int64's lowest value and an inclusive top of int64 */
  OK(ndt_rng_integers_wide(&r, g, 1, &n, NDT_INT64, big(1, 0, UINT64_C(1) << 63),
                           big(0, 0, INT64_MAX), 1));
  ndt_free(r);
  r = NULL;
  EXPECT_ERROR(ndt_rng_integers_wide(&r, g, 1, &n, NDT_INT64, big(1, 0, (UINT64_C(1) << 63) + 1),
                                     big(0, 0, 3), 0),
               NDT_ERR_VALUE, NDT_KIND_VALUE, "low", "low is out of bounds for int64");
  EXPECT(r == NULL, "no array made");
  ndt_rng_free(g);
}

static void test_type_errors(void) {
  ndt_array *a = NULL, *b = NULL, *r = NULL;
  int64_t n = 4;
  OK(ndt_ones(&a, 1, &n, NDT_FLOAT64));
  OK(ndt_ones(&b, 1, &n, NDT_FLOAT64));
  /* NumPy's legacy type resolver: a plain TypeError */
  ndt_status st = ndt_binary(&r, NDT_BITWISE_AND, a, b);
  const ndt_error *e = ndt_last_error_info();
  EXPECT(st == NDT_ERR_TYPE && e->kind == NDT_KIND_TYPE && strstr(e->message, "not supported"),
         "bitwise_and(float64): %d %d %s", st, e->kind, e->message);
  /* a forbidden cast: numpy's UFuncTypeError */
  st = ndt_astype(&r, a, NDT_INT8, NDT_CAST_SAFE);
  e = ndt_last_error_info();
  EXPECT(st == NDT_ERR_CAST && e->kind == NDT_KIND_UFUNC_TYPE && !*e->arg,
         "astype(int8, safe): %d %d", st, e->kind);
  EXPECT(r == NULL, "no array made");
  ndt_free(a);
  ndt_free(b);
}

/* A failure inside a task is reported by a later wait with its op. */
static void test_deferred(void) {
  ndt_array *a = NULL, *out[NDT_LINALG_NOUT] = {0};
  int64_t shape[2] = {3, 3};
  OK(ndt_zeros(&a, 2, shape, NDT_FLOAT64));   /* singular */
  int64_t inline_elems;
  OK(ndt_setting_value("NDTILE_INLINE_ELEMS", &inline_elems));
  OK(ndt_set_inline_elems(0));                /* a task, not a call on this thread */
  ndt_status st = ndt_linalg(out, NDT_LINALG_INV, a, NULL, NDT_LINALG_DEFAULT, 0);
  if (st == NDT_OK) st = ndt_sync();
  const ndt_error *e = ndt_last_error_info();
  EXPECT(st == NDT_ERR_LINALG && e->status == NDT_ERR_LINALG && e->kind == NDT_KIND_LINALG,
         "inv(zeros): %d %d", st, e->kind);
  EXPECT(e->deferred == 1, "deferred");
  EXPECT(!strcmp(e->op, "linalg.inv"), "op '%s'", e->op);
  EXPECT(!strcmp(e->message, "Singular matrix"), "message '%s'", e->message);
  EXPECT(!strcmp(ndt_last_error(), "linalg.inv: Singular matrix"), "text '%s'",
         ndt_last_error());
  for (int i = 0; i < NDT_LINALG_NOUT; i++) ndt_free(out[i]);
  ndt_free(a);
  OK(ndt_set_inline_elems(inline_elems));
  /* reported once: the next wait is fine */
  EXPECT(ndt_sync() == NDT_OK, "one report");
}

/* 1 when every element of a is v0 + i * dv */
static int values_are(const ndt_array *a, int64_t n, double v0, double dv) {
  double *v = malloc(sizeof(double) * n);
  int ok = v && ndt_to_buffer(a, v) == NDT_OK;
  for (int64_t i = 0; ok && i < n; i++) ok = v[i] == v0 + i * dv;
  free(v);
  return ok;
}

/* 1 when reading a (n doubles) fails as an array an interrupt lost */
static int lost_to_interrupt(const ndt_array *a, int64_t n) {
  double *v = malloc(sizeof(double) * n);
  ndt_status st = v ? ndt_to_buffer(a, v) : NDT_ERR_NOMEM;
  free(v);
  return st == NDT_ERR_DEFERRED && strstr(ndt_last_error(), "interrupt") != NULL;
}

/* n sin ops on a (a is freed; the result returned) */
static ndt_array *sin_chain(ndt_array *a, int n) {
  for (int i = 0; i < n; i++) {
    ndt_array *r = NULL;
    OK(ndt_unary(&r, NDT_SIN, a));
    ndt_free(a);
    a = r;
  }
  return a;
}

/* An interrupt cancels the work of the call in progress (recorded since the
 * last ndt_call_begin) only: an earlier call's work, pending still, runs on
 * and its array reads its values; the interrupted call's array is lost. */
static void test_interrupt_cancels_the_current_call(void) {
  enum { N = 4000000, DEPTH = 12 };
  ndt_array *x = NULL;
  ndt_call_begin();
  OK(ndt_linspace(&x, 0.0, 1.0, N, 1, NDT_FLOAT64));
  ndt_array *a = sin_chain(x, DEPTH), *srt = NULL;
  /* call 1, not waited for: the sort records it (ends its fusion group) and
   * is long; the sin chain is increasing on [0, 1], so srt equals a */
  OK(ndt_sort(&srt, a, 0, 0));
  ndt_call_begin();
  ndt_array *b = NULL;
  OK(ndt_unary(&b, NDT_COS, a));
  b = sin_chain(b, DEPTH);                    /* call 2: interrupted */
  ndt_interrupt();
  ndt_status st = ndt_sync();
  EXPECT(st == NDT_ERR_INTERRUPTED, "sync: %d", st);
  double *va = malloc(sizeof(double) * N), *vb = malloc(sizeof(double) * N);
  OK(ndt_to_buffer(srt, vb));                 /* waits for call 1's work */
  OK(ndt_to_buffer(a, va));
  EXPECT(!memcmp(va, vb, sizeof(double) * N), "sort(a) == a");
  for (int64_t i = 0; i < N; i += 99991) {
    double v = i / (double)(N - 1);
    for (int k = 0; k < DEPTH; k++) v = sin(v);
    EXPECT(fabs(va[i] - v) <= 1e-15 * (1 + fabs(v)), "a[%lld] %.17g want %.17g", (long long)i,
           va[i], v);
  }
  EXPECT(lost_to_interrupt(b, N), "b: %s", ndt_last_error());
  free(va);
  free(vb);
  ndt_free(a);
  ndt_free(b);
  ndt_free(srt);
  ndt_call_begin();
  EXPECT(ndt_sync() == NDT_OK, "later work runs");
}

/* The wait hook (a wait lasts another 20 ms slice) sends the interrupt,
 * once armed: an interrupt that comes while the program waits, with no
 * timing luck (the waits here wait for ndt_debug_hold, which lasts until
 * the test releases it). */
static atomic_int interrupt_armed;
static void interrupt_when_waiting(void) {
  if (atomic_exchange(&interrupt_armed, 0)) ndt_interrupt();
}

/* A watchdog: releases the holds after WATCHDOG_S seconds (a wait that did
 * not stop at the interrupt then ends, and the test fails rather than
 * hangs). */
#define WATCHDOG_S 10
static atomic_int watchdog_stop, watchdog_fired;
static void *watchdog(void *p) {
  (void)p;
  struct timespec ms = {0, 10000000L};
  for (int i = 0; i < WATCHDOG_S * 100 && !atomic_load(&watchdog_stop); i++)
    nanosleep(&ms, NULL);
  if (!atomic_load(&watchdog_stop)) {
    atomic_store(&watchdog_fired, 1);
    ndt_debug_release();
  }
  return NULL;
}

/* Settling lent memory (a call's end, with memory lent: ndt_host_settle)
 * stops at an interrupt: the call's task on the lent memory is dropped
 * (the memory is untouched, the array lost), the earlier call's long work
 * it waited for is not cancelled and keeps its array's values, and the
 * call is left interrupted for its caller (ndt_take_interrupted: the
 * binding's KeyboardInterrupt). Before, the settle cancelled and then
 * waited for the earlier call's work, however long. */
static void test_interrupt_stops_a_settle(void) {
  enum { N = 100000 };
  /* On devices the hold and the assignment are recorded with the device
   * plan's copies around them, and the counts below are the host graph's:
   * the settle's interrupt is a host matter, tested in the run without
   * devices (make test-sim runs the rest of this file with them). */
  if (ndt_device_count() > 0) return;
  ndt_array *x = NULL, *m = NULL;
  double *mem = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) mem[i] = -1.0;
  ndt_call_begin();
  OK(ndt_linspace(&x, 0.0, N - 1.0, N, 1, NDT_FLOAT64));
  OK(ndt_from_memory(&m, mem, NDT_FLOAT64, N, 0, NULL, NULL));   /* lent for its life */
  OK(ndt_sync());
  ndt_call_begin();
  OK(ndt_debug_hold(x));              /* call 1: long work on x */
  EXPECT(ndt_pending_tasks() == 1, "pending %lld", (long long)ndt_pending_tasks());
  ndt_call_begin();
  OK(ndt_assign(m, x, NDT_CAST_SAME_KIND));   /* call 2: waits for it */
  EXPECT(ndt_pending_tasks() == 2, "pending %lld", (long long)ndt_pending_tasks());
  pthread_t dog;
  atomic_store(&watchdog_stop, 0);
  atomic_store(&watchdog_fired, 0);
  EXPECT(pthread_create(&dog, NULL, watchdog, NULL) == 0, "watchdog");
  ndt_set_wait_hook(interrupt_when_waiting);
  atomic_store(&interrupt_armed, 1);
  ndt_host_settle();
  int fired = atomic_load(&watchdog_fired);
  atomic_store(&watchdog_stop, 1);
  pthread_join(dog, NULL);
  ndt_set_wait_hook(NULL);
  EXPECT(!fired, "the settle waited for the earlier call's work after the interrupt");
  EXPECT(ndt_take_interrupted() == 1, "the call is interrupted");
  EXPECT(ndt_take_interrupted() == 0, "taken once");
  ndt_debug_release();
  EXPECT(values_are(x, N, 0.0, 1.0), "x kept its values (the hold was not cancelled)");
  EXPECT(lost_to_interrupt(m, N), "m: %s", ndt_last_error());
  int untouched = 1;
  for (int i = 0; i < N; i++) untouched &= mem[i] == -1.0;
  EXPECT(untouched, "the dropped assignment wrote the lent memory");
  ndt_free(m);
  ndt_free(x);
  ndt_call_begin();
  EXPECT(ndt_sync() == NDT_OK, "later work runs");
  free(mem);
}

/* A fused group begun in an earlier call is kept whole by an interrupt of
 * a later call (NDT_TASK_EARLY). An op of the later call that reads what
 * the later call wrote must not join it: that write is cancelled, and the
 * group, reading its lost values, lost the earlier call's results too. */
static void test_interrupt_keeps_an_earlier_fused_group(void) {
  enum { N = 100000 };
  int64_t inline_elems;
  OK(ndt_setting_value("NDTILE_INLINE_ELEMS", &inline_elems));
  OK(ndt_set_inline_elems(0));        /* fused, whatever the size */
  ndt_array *x = NULL, *s = NULL, *a = NULL, *b = NULL;
  ndt_call_begin();
  OK(ndt_linspace(&x, 0.0, N - 1.0, N, 1, NDT_FLOAT64));
  OK(ndt_linspace(&s, 0.0, N - 1.0, N, 1, NDT_FLOAT64));
  OK(ndt_sync());
  ndt_call_begin();
  OK(ndt_binary(&a, NDT_ADD, x, x));  /* call 1: a fused group, held */
  ndt_call_begin();
  OK(ndt_debug_hold(s));              /* call 2: long work on s, cancelled */
  OK(ndt_binary(&b, NDT_MULTIPLY, a, s));
  ndt_interrupt();
  ndt_status st = ndt_sync();
  EXPECT(st == NDT_ERR_INTERRUPTED, "sync: %d", st);
  ndt_debug_release();
  EXPECT(values_are(a, N, 0.0, 2.0), "a = x + x of call 1: %s", ndt_last_error());
  EXPECT(lost_to_interrupt(b, N), "b: %s", ndt_last_error());
  ndt_free(a);
  ndt_free(b);
  ndt_free(s);
  ndt_free(x);
  OK(ndt_set_inline_elems(inline_elems));
  ndt_call_begin();
  EXPECT(ndt_sync() == NDT_OK, "later work runs");
}

static void test_names(void) {
  EXPECT(!strcmp(ndt_reduce_name(NDT_RED_SUM), "sum"), "sum");
  EXPECT(!strcmp(ndt_reduce_name(NDT_RED_MIN), "min"), "min");
  EXPECT(!strcmp(ndt_reduce_name(NDT_RED_COUNT_NONZERO), "count_nonzero"), "count_nonzero");
  EXPECT(!strcmp(ndt_reduce_name(NDT_RED_NANMAX), "nanmax"), "nanmax");
  EXPECT(ndt_reduce_name(NDT_NREDUCE) == NULL && ndt_reduce_name((ndt_reduce_op)-1) == NULL,
         "no name");
  EXPECT(ndt_status_kind(NDT_ERR_NOMEM) == NDT_KIND_MEMORY, "nomem");
  EXPECT(ndt_status_kind(NDT_ERR_SHAPE) == NDT_KIND_VALUE, "shape");
  EXPECT(ndt_status_kind(NDT_ERR_INDEX) == NDT_KIND_INDEX, "index");
  EXPECT(ndt_status_kind(NDT_ERR_CAST) == NDT_KIND_UFUNC_TYPE, "cast");
  EXPECT(ndt_status_kind(NDT_ERR_OVERFLOW) == NDT_KIND_OVERFLOW, "overflow");
  EXPECT(ndt_status_kind(NDT_ERR_UNSUPPORTED) == NDT_KIND_UNSUPPORTED, "unsupported");
  EXPECT(ndt_status_kind(NDT_ERR_INTERRUPTED) == NDT_KIND_INTERRUPTED, "interrupted");
  EXPECT(ndt_status_kind(NDT_ERR_INTERNAL) == NDT_KIND_INTERNAL, "internal");
  EXPECT(ndt_status_kind(NDT_OK) == NDT_KIND_NONE, "ok");
}

int main(void) {
  OK(ndt_init(NULL));
  test_negative_dimensions();
  test_axes();
  test_integers_bounds();
  test_type_errors();
  test_deferred();
  test_names();
  test_interrupt_cancels_the_current_call();
  test_interrupt_stops_a_settle();
  test_interrupt_keeps_an_earlier_fused_group();
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
