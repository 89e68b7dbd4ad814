/* test_convolve.c - ndt_correlate against a naive sum (every mode's lags,
 * many tiles, strided and reversed views, complex conjugation, workers),
 * the diagonal view and ndt_put (last write wins, errors). */
#include <complex.h>
#undef I
#define IM _Complex_I
#include <math.h>
#include <string.h>
#include "check.h"

static ndt_array *from(ndt_dtype t, int64_t n, const void *data) {
  ndt_array *a;
  OK(ndt_from_buffer(&a, t, 1, &n, data, NULL));
  return a;
}

static void check_f64(int64_t na, int64_t m, int64_t lag0, int64_t n, int step) {
  double *a = malloc(sizeof(double) * (na * step + 1)), *v = malloc(sizeof(double) * (m + 1));
  for (int64_t i = 0; i < na * step; i++) a[i] = sin(0.37 * i) + 0.25;
  for (int64_t j = 0; j < m; j++) v[j] = cos(0.11 * j) - 0.5;
  ndt_array *A = from(NDT_FLOAT64, na * step, a), *V = from(NDT_FLOAT64, m, v), *As = A, *R;
  if (step != 1) {
    ndt_index ix = {.kind = NDT_IDX_SLICE, .start = 0, .stop = na * step, .step = step};
    OK(ndt_view_index(&As, A, 1, &ix));
  }
  OK(ndt_correlate(&R, As, V, lag0, n, 0));
  double *r = malloc(sizeof(double) * (n + 1));
  OK(ndt_to_buffer(R, r));
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    double s = 0;
    for (int64_t j = 0; j < m; j++) {
      int64_t k = lag0 + i + j;
      if (k >= 0 && k < na) s += a[k * step] * v[j];
    }
    if (s != r[i]) bad++;   /* same order: bitwise equal */
  }
  EXPECT(!bad, "f64 na=%lld m=%lld lag0=%lld step=%d: %d mismatches", (long long)na,
         (long long)m, (long long)lag0, step, bad);
  ndt_free(R);
  if (As != A) ndt_free(As);
  ndt_free(A);
  ndt_free(V);
  free(a);
  free(v);
  free(r);
}

static void test_correlate(void) {
  int64_t sizes[][2] = {{1, 1}, {5, 3}, {3, 5}, {1000, 7}, {7, 1000}, {3000, 101}, {2048, 2048}};
  for (int s = 0; s < 7; s++) {
    int64_t na = sizes[s][0], m = sizes[s][1];
    check_f64(na, m, -(m - 1), na + m - 1, 1);            /* full */
    check_f64(na, m, 0, na >= m ? na - m + 1 : 0, 1);     /* part of valid */
    check_f64(na, m, -(m / 2), na, 2);                    /* same-like, strided */
  }
  /* complex conjugation and int64 wrapping */
  double complex a[3] = {1 + 2 * IM, 3 - IM, -2 + 0.5 * IM}, v[2] = {2 - IM, 1 + 3 * IM}, r[4];
  ndt_array *A = from(NDT_COMPLEX128, 3, a), *V = from(NDT_COMPLEX128, 2, v), *R;
  OK(ndt_correlate(&R, A, V, -1, 4, 1));
  OK(ndt_to_buffer(R, r));
  EXPECT(r[0] == a[0] * conj(v[1]) && r[1] == a[0] * conj(v[0]) + a[1] * conj(v[1]) &&
         r[3] == a[2] * conj(v[0]), "complex conj");
  ndt_free(R);
  OK(ndt_correlate(&R, A, V, -1, 4, 0));
  OK(ndt_to_buffer(R, r));
  EXPECT(r[1] == a[0] * v[0] + a[1] * v[1], "complex no conj");
  ndt_free(R);
  ndt_free(A);
  ndt_free(V);
  int64_t ia[2] = {INT64_MAX, 3}, iv[1] = {2}, ir[2];
  A = from(NDT_INT64, 2, ia);
  V = from(NDT_INT64, 1, iv);
  OK(ndt_correlate(&R, A, V, 0, 2, 0));
  OK(ndt_to_buffer(R, ir));
  EXPECT(ir[0] == -2 && ir[1] == 6, "int64 wraps: %lld %lld", (long long)ir[0], (long long)ir[1]);
  ndt_free(R);
  ndt_free(V);
  float fv[1] = {1};
  V = from(NDT_FLOAT32, 1, fv);
  EXPECT(ndt_correlate(&R, A, V, 0, 2, 0) == NDT_ERR_TYPE, "mixed dtypes");
  ndt_free(V);
  ndt_free(A);
  int32_t i32[2] = {1, 2};
  A = from(NDT_INT32, 2, i32);
  EXPECT(ndt_correlate(&R, A, A, 0, 1, 0) == NDT_ERR_TYPE, "int32 unsupported");
  ndt_free(A);
}

static void test_diagonal_put(void) {
  int64_t shape[3] = {4, 5, 6}, n = 120;
  double *d = malloc(sizeof(double) * n);
  for (int64_t i = 0; i < n; i++) d[i] = (double)i;
  ndt_array *A, *D;
  OK(ndt_from_buffer(&A, NDT_FLOAT64, 3, shape, d, NULL));
  OK(ndt_diagonal(&D, A, 1, 0, 2));  /* shape (5, 4): d[i, j, i+1] */
  EXPECT(ndt_ndim(D) == 2 && ndt_shape(D)[0] == 5 && ndt_shape(D)[1] == 4, "diag shape");
  double r[20];
  OK(ndt_to_buffer(D, r));
  int bad = 0;
  for (int j = 0; j < 5; j++)
    for (int i = 0; i < 4; i++)
      if (r[j * 4 + i] != d[i * 30 + j * 6 + i + 1]) bad++;
  EXPECT(!bad, "diag values");
  ndt_free(D);
  OK(ndt_diagonal(&D, A, -7, 1, 2));
  EXPECT(ndt_size(D) == 0, "empty diagonal");
  ndt_free(D);
  EXPECT(ndt_diagonal(&D, A, 0, 1, -2) == NDT_ERR_VALUE, "same axes");
  EXPECT(ndt_diagonal(&D, A, 0, 0, 3) == NDT_ERR_AXIS, "axis range");
  /* put: last write wins, into many tiles */
  int64_t idx[4] = {0, 119, 0, 60};
  double vals[4] = {-1, -2, -3, -4};
  ndt_array *Ix = from(NDT_INT64, 4, idx), *V = from(NDT_FLOAT64, 4, vals);
  OK(ndt_put(A, Ix, V));
  double out[120];
  OK(ndt_to_buffer(A, out));
  EXPECT(out[0] == -3 && out[119] == -2 && out[60] == -4 && out[1] == 1, "put");
  ndt_free(Ix);
  int64_t badi[4] = {0, 1, 120, 2};
  Ix = from(NDT_INT64, 4, badi);
  ndt_status st = ndt_put(A, Ix, V);
  if (st == NDT_OK) st = ndt_sync();
  EXPECT(st == NDT_ERR_INDEX || st == NDT_ERR_DEFERRED, "put out of bounds: %d", st);
  ndt_free(Ix);
  ndt_free(V);
  ndt_free(A);
  free(d);
}

int main(void) {
  OK(ndt_init(&(ndt_config){.workers = 3, .tile_bytes = 512, .inline_elems = -1}));
  test_correlate();
  test_diagonal_put();
  OK(ndt_set_workers(1));
  check_f64(3000, 101, -50, 3000, 1);
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
