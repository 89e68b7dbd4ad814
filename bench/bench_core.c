/* bench_core.c - the core's speed against the machine's memory bandwidth.
 *
 * In one run: a STREAM triad in plain C on all cores (the bandwidth ceiling),
 * then ndtile's large elementwise ops and sums with 1 worker and with all
 * workers (GB/s and fraction of the triad), then the per-call cost of ops on
 * 1,000-element arrays. Bytes are counted as STREAM does (reads + writes). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ndtile.h"

#define CHECK(call)                                                                \
  do {                                                                             \
    ndt_status s_ = (call);                                                        \
    if (s_) {                                                                      \
      fprintf(stderr, "%d: %s\n", __LINE__, ndt_last_error());                     \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef struct { double *a, *b, *c; int64_t lo, hi; } triad_part;
static void *triad_run(void *p) {
  triad_part *t = p;
  for (int64_t i = t->lo; i < t->hi; i++) t->a[i] = t->b[i] + 3.0 * t->c[i];
  return NULL;
}
static void *first_touch(void *p) {
  triad_part *t = p;
  for (int64_t i = t->lo; i < t->hi; i++) t->a[i] = t->b[i] = t->c[i] = 1.0;
  return NULL;
}

static double stream_triad(int64_t n, int nthreads, int reps) {
  double *a = aligned_alloc(64, n * 8), *b = aligned_alloc(64, n * 8), *c = aligned_alloc(64, n * 8);
  pthread_t th[64];
  triad_part parts[64];
  for (int t = 0; t < nthreads; t++)
    parts[t] = (triad_part){a, b, c, n * t / nthreads, n * (t + 1) / nthreads};
  for (int t = 0; t < nthreads; t++) pthread_create(&th[t], NULL, first_touch, &parts[t]);
  for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    for (int t = 0; t < nthreads; t++) pthread_create(&th[t], NULL, triad_run, &parts[t]);
    for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
    double dt = now() - t0;
    if (dt < best) best = dt;
  }
  free(a); free(b); free(c);
  return 24.0 * n / best / 1e9;
}

/* Median of reps timings of fn. */
typedef void (*bench_fn)(void *);
static double median_time(bench_fn fn, void *ctx, int reps) {
  double t[64];
  fn(ctx);  /* warm-up */
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    fn(ctx);
    t[r] = now() - t0;
  }
  for (int i = 0; i < reps; i++)
    for (int j = i + 1; j < reps; j++)
      if (t[j] < t[i]) { double x = t[i]; t[i] = t[j]; t[j] = x; }
  return t[reps / 2];
}

typedef struct { ndt_array *a, *b, *c; } ctx3;
static void op_add_new(void *p) {
  ctx3 *x = p;
  ndt_array *c = NULL;
  CHECK(ndt_binary(&c, NDT_ADD, x->a, x->b));
  CHECK(ndt_sync());
  ndt_free(c);
}
static void op_add_out(void *p) {
  ctx3 *x = p;
  CHECK(ndt_binary(&x->c, NDT_ADD, x->a, x->b));
  CHECK(ndt_sync());
}
typedef struct { ndt_array *a, *b, *c, *d, *e; } ctx5;
static void op_chain(void *p) {
  ctx5 *x = p;
  ndt_array *ab = NULL, *cd = NULL, *s = NULL, *r = NULL;
  CHECK(ndt_binary(&ab, NDT_MULTIPLY, x->a, x->b));
  CHECK(ndt_binary(&cd, NDT_MULTIPLY, x->c, x->d));
  CHECK(ndt_binary(&s, NDT_ADD, ab, cd));
  ndt_free(ab);
  ndt_free(cd);
  CHECK(ndt_binary(&r, NDT_SUBTRACT, s, x->e));
  ndt_free(s);
  CHECK(ndt_sync());
  ndt_free(r);
}
static void op_sum(void *p) {
  ctx3 *x = p;
  ndt_array *s;
  double v;
  CHECK(ndt_reduce(&s, NDT_RED_SUM, x->a, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  CHECK(ndt_item(s, NDT_FLOAT64, &v));
  ndt_free(s);
}
static void op_sum_axis0(void *p) {
  ctx3 *x = p;
  ndt_array *s, *v2;
  int64_t sh[2] = {4096, -1};
  CHECK(ndt_reshape(&v2, x->a, 2, sh));
  CHECK(ndt_reduce(&s, NDT_RED_SUM, v2, 1, 0, NDT_DTYPE_DEFAULT, 0));
  CHECK(ndt_sync());
  ndt_free(s);
  ndt_free(v2);
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : (int64_t)1 << 24;
  int reps = argc > 2 ? atoi(argv[2]) : 7;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  double bw = stream_triad(n, (int)ncpu, reps);
  printf("machine: %ld cores; STREAM triad (all cores, %lld doubles): %.2f GB/s\n", ncpu,
         (long long)n, bw);
  printf("%-34s %8s %10s %10s\n", "operation", "workers", "GB/s", "of triad");
  int counts[2] = {1, (int)ncpu};
  for (int w = 0; w < 2; w++) {
    CHECK(ndt_set_workers(counts[w]));
    ctx3 x = {0};
    int64_t shape[1] = {n};
    CHECK(ndt_ones(&x.a, 1, shape, NDT_FLOAT64));
    CHECK(ndt_ones(&x.b, 1, shape, NDT_FLOAT64));
    CHECK(ndt_ones(&x.c, 1, shape, NDT_FLOAT64));
    CHECK(ndt_sync());
    struct { const char *name; bench_fn fn; double bytes; } ops[] = {
        {"c = a + b (new array)", op_add_new, 24.0 * n},
        {"a + b -> out (existing array)", op_add_out, 24.0 * n},
        {"a.sum()", op_sum, 8.0 * n},
        {"a.reshape(4096,-1).sum(axis=0)", op_sum_axis0, 8.0 * n},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
      double t = median_time(ops[i].fn, &x, reps);
      double gbs = ops[i].bytes / t / 1e9;
      printf("%-34s %8d %10.2f %9.0f%%\n", ops[i].name, counts[w], gbs, 100 * gbs / bw);
    }
    ctx5 y = {x.a, x.b, x.c, NULL, NULL};
    CHECK(ndt_ones(&y.d, 1, shape, NDT_FLOAT64));
    CHECK(ndt_ones(&y.e, 1, shape, NDT_FLOAT64));
    double t = median_time(op_chain, &y, reps);
    double gbs = 48.0 * n / t / 1e9;
    printf("%-34s %8d %10.2f %9.0f%%\n", "a*b + c*d - e (fused)", counts[w], gbs, 100 * gbs / bw);
    ndt_free(y.d); ndt_free(y.e);
    ndt_free(x.a); ndt_free(x.b); ndt_free(x.c);
  }

  /* Per-call overhead on small arrays (the inline path). */
  int64_t small[1] = {1000};
  ctx3 s = {0};
  CHECK(ndt_ones(&s.a, 1, small, NDT_FLOAT64));
  CHECK(ndt_ones(&s.b, 1, small, NDT_FLOAT64));
  CHECK(ndt_ones(&s.c, 1, small, NDT_FLOAT64));
  int iters = 200000;
  double t0 = now();
  for (int i = 0; i < iters; i++) CHECK(ndt_binary(&s.c, NDT_ADD, s.a, s.b));
  double t_out = (now() - t0) / iters;
  t0 = now();
  for (int i = 0; i < iters; i++) {
    ndt_array *c = NULL;
    CHECK(ndt_binary(&c, NDT_ADD, s.a, s.b));
    ndt_free(c);
  }
  double t_new = (now() - t0) / iters;
  /* the same loop in plain C, for reference */
  double *pa = malloc(8000), *pb = malloc(8000), *pc = malloc(8000);
  for (int i = 0; i < 1000; i++) pa[i] = pb[i] = 1;
  t0 = now();
  for (int i = 0; i < iters; i++) {
    for (int j = 0; j < 1000; j++) pc[j] = pa[j] + pb[j];
    __asm__ volatile("" ::"r"(pc) : "memory");
  }
  double t_c = (now() - t0) / iters;
  printf("small arrays (1000 float64): add into out %.2f us/call, new result %.2f us/call, "
         "plain C loop %.2f us -> overhead %.2f us/call\n", t_out * 1e6, t_new * 1e6,
         t_c * 1e6, (t_out - t_c) * 1e6);
  free(pa); free(pb); free(pc);
  ndt_free(s.a); ndt_free(s.b); ndt_free(s.c);
  ndt_finalize();
  return 0;
}
