/* test_scan.c - ndt_scan (cumsum, cumprod, nancumsum, nancumprod, and the
 * accumulates of maximum, minimum, fmax, fmin, logical and bitwise
 * and/or/xor, subtract) against a sequential loop computed here: int64 exactly (wrapping), float64 on
 * integer-valued data exactly, every axis of 1-d..3-d arrays with tiny tiles
 * (many blocks on every split axis), flattened and 0-d input, empty arrays,
 * negative-step views, NaN handling, result dtypes, errors, and the same
 * bits for 1, 2 and 4 workers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"

static uint64_t rng = 88172645463325252ull;
static double urand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

/* Reference scan of C-order data of shape (o, n, i) along n. */
static void ref_scan(const double *x, double *r, int64_t o, int64_t n, int64_t in, int prod,
                     int nan) {
  for (int64_t a = 0; a < o; a++)
    for (int64_t c = 0; c < in; c++) {
      double acc = prod ? 1 : 0;
      for (int64_t j = 0; j < n; j++) {
        double v = x[(a * n + j) * in + c];
        if (nan && v != v) v = prod ? 1 : 0;
        acc = j == 0 ? v : prod ? acc * v : acc + v;
        r[(a * n + j) * in + c] = acc;
      }
    }
}

static void check_case(int ndim, const int64_t *shape, int axis, ndt_scan_op op, int nans) {
  int64_t size = 1;
  for (int k = 0; k < ndim; k++) size *= shape[k];
  double *x = malloc(sizeof(double) * (size ? size : 1));
  double *r = malloc(sizeof(double) * (size ? size : 1));
  double *got = malloc(sizeof(double) * (size ? size : 1));
  int prod = op == NDT_SCAN_CUMPROD || op == NDT_SCAN_NANCUMPROD;
  for (int64_t i = 0; i < size; i++) {
    x[i] = prod ? (urand() < 0.5 ? 1 : (urand() < 0.5 ? -1 : 2)) : floor(urand() * 9) - 4;
    if (nans && urand() < 0.2) x[i] = NAN;
  }
  int64_t o = 1, n = size, in = 1;
  if (axis != NDT_AXIS_FLAT) {
    n = shape[axis];
    for (int k = 0; k < axis; k++) o *= shape[k];
    for (int k = axis + 1; k < ndim; k++) in *= shape[k];
  }
  ref_scan(x, r, o, n, in, prod, op >= NDT_SCAN_NANCUMSUM);
  ndt_array *a, *res;
  OK(ndt_from_buffer(&a, NDT_FLOAT64, ndim, shape, x, NULL));
  OK(ndt_scan(&res, op, a, axis, NDT_DTYPE_DEFAULT));
  OK(ndt_to_buffer(res, got));
  int bad = 0;
  for (int64_t i = 0; i < size; i++)
    if (!(got[i] == r[i] || (got[i] != got[i] && r[i] != r[i]))) bad++;
  EXPECT(bad == 0, "float64 op %d ndim %d axis %d: %d wrong", op, ndim, axis, bad);
  EXPECT(ndt_size(res) == size, "size");
  ndt_free(res);
  if (!nans) {   /* int64, wrapping products */
    ndt_array *ai;
    OK(ndt_astype(&ai, a, NDT_INT64, NDT_CAST_UNSAFE));
    OK(ndt_scan(&res, op, ai, axis, NDT_DTYPE_DEFAULT));
    EXPECT(ndt_dtype_of(res) == NDT_INT64, "int64 dtype");
    int64_t *gi = malloc(sizeof(int64_t) * (size ? size : 1));
    OK(ndt_to_buffer(res, gi));
    bad = 0;
    for (int64_t i = 0; i < size; i++)
      if (gi[i] != (int64_t)r[i] && fabs(r[i]) < 1e15) bad++;
    EXPECT(bad == 0, "int64 op %d ndim %d axis %d: %d wrong", op, ndim, axis, bad);
    free(gi);
    ndt_free(res);
    ndt_free(ai);
  }
  ndt_free(a);
  free(x);
  free(r);
  free(got);
}

static void test_shapes(void) {
  int64_t s1[1] = {3000}, s2[2] = {37, 150}, s3[3] = {5, 40, 33}, s4[2] = {3, 2000};
  for (int op = 0; op < 4; op++) {
    int nans = op >= 2;
    check_case(1, s1, 0, op, nans);
    check_case(1, s1, NDT_AXIS_FLAT, op, nans);
    for (int ax = 0; ax < 2; ax++) check_case(2, s2, ax, op, nans);
    for (int ax = 0; ax < 2; ax++) check_case(2, s4, ax, op, nans);
    check_case(2, s2, NDT_AXIS_FLAT, op, nans);
    for (int ax = 0; ax < 3; ax++) check_case(3, s3, ax, op, nans);
    check_case(3, s3, NDT_AXIS_FLAT, op, nans);
  }
}

static void test_dtypes_and_errors(void) {
  EXPECT(ndt_scan_result_type(NDT_SCAN_CUMSUM, NDT_BOOL, NDT_DTYPE_DEFAULT) == NDT_INT64, "b");
  EXPECT(ndt_scan_result_type(NDT_SCAN_CUMSUM, NDT_INT8, NDT_DTYPE_DEFAULT) == NDT_INT64, "i8");
  EXPECT(ndt_scan_result_type(NDT_SCAN_CUMPROD, NDT_UINT16, NDT_DTYPE_DEFAULT) == NDT_UINT64,
         "u16");
  EXPECT(ndt_scan_result_type(NDT_SCAN_CUMSUM, NDT_FLOAT32, NDT_DTYPE_DEFAULT) == NDT_FLOAT32,
         "f32");
  EXPECT(ndt_scan_result_type(NDT_SCAN_CUMSUM, NDT_INT8, NDT_INT8) == NDT_INT8, "dtype=");
  int64_t s[2] = {2, 3};
  ndt_array *a, *r = NULL, *z;
  OK(ndt_zeros(&a, 2, s, NDT_INT32));
  EXPECT(ndt_scan(&r, NDT_SCAN_CUMSUM, a, 2, NDT_DTYPE_DEFAULT) == NDT_ERR_AXIS, "axis");
  EXPECT(ndt_scan(&r, NDT_SCAN_CUMSUM, a, -3, NDT_DTYPE_DEFAULT) == NDT_ERR_AXIS, "axis");
  /* 0-d */
  double v = 2.5, got[2];
  OK(ndt_scalar(&z, NDT_FLOAT64, &v, 0));
  OK(ndt_scan(&r, NDT_SCAN_CUMSUM, z, NDT_AXIS_FLAT, NDT_DTYPE_DEFAULT));
  EXPECT(ndt_ndim(r) == 1 && ndt_shape(r)[0] == 1, "0-d shape");
  OK(ndt_to_buffer(r, got));
  EXPECT(got[0] == 2.5, "0-d value");
  ndt_free(r);
  EXPECT(ndt_scan(&r, NDT_SCAN_CUMSUM, z, 1, NDT_DTYPE_DEFAULT) == NDT_ERR_AXIS, "0-d axis");
  ndt_free(z);
  ndt_free(a);
  /* empty */
  int64_t e[2] = {0, 5};
  OK(ndt_zeros(&a, 2, e, NDT_INT8));
  OK(ndt_scan(&r, NDT_SCAN_CUMPROD, a, 1, NDT_DTYPE_DEFAULT));
  EXPECT(ndt_size(r) == 0 && ndt_dtype_of(r) == NDT_INT64, "empty");
  ndt_free(r);
  ndt_free(a);
  /* wrapping int8 accumulation, bool logical */
  int8_t b8[4] = {100, 100, 100, -128};
  int64_t n4 = 4;
  OK(ndt_from_buffer(&a, NDT_INT8, 1, &n4, b8, NULL));
  OK(ndt_scan(&r, NDT_SCAN_CUMSUM, a, 0, NDT_INT8));
  int8_t g8[4];
  OK(ndt_to_buffer(r, g8));
  EXPECT(g8[0] == 100 && g8[1] == -56 && g8[2] == 44 && g8[3] == -84, "int8 wrap");
  ndt_free(r);
  ndt_free(a);
  uint8_t bb[4] = {1, 0, 1, 1}, gb[4];
  OK(ndt_from_buffer(&a, NDT_BOOL, 1, &n4, bb, NULL));
  OK(ndt_scan(&r, NDT_SCAN_CUMPROD, a, 0, NDT_BOOL));
  OK(ndt_to_buffer(r, gb));
  EXPECT(gb[0] == 1 && gb[1] == 0 && gb[2] == 0 && gb[3] == 0, "bool and");
  ndt_free(r);
  ndt_free(a);
}

/* NumPy's loop of the other accumulates: float64 (maximum ... subtract) */
static double ref_f(ndt_scan_op op, double acc, double v) {
  switch (op) {
    case NDT_SCAN_MAXIMUM: return (acc > v || acc != acc) ? acc : v;
    case NDT_SCAN_MINIMUM: return (acc < v || acc != acc) ? acc : v;
    case NDT_SCAN_FMAX: return (acc > v || v != v) ? acc : v;
    case NDT_SCAN_FMIN: return (acc < v || v != v) ? acc : v;
    default: return acc - v;
  }
}
static int64_t ref_i(ndt_scan_op op, int64_t acc, int64_t v) {
  switch (op) {
    case NDT_SCAN_MAXIMUM: case NDT_SCAN_FMAX: return acc > v ? acc : v;
    case NDT_SCAN_MINIMUM: case NDT_SCAN_FMIN: return acc < v ? acc : v;
    case NDT_SCAN_BITWISE_AND: return acc & v;
    case NDT_SCAN_BITWISE_OR: return acc | v;
    case NDT_SCAN_BITWISE_XOR: return acc ^ v;
    case NDT_SCAN_LOGICAL_AND: return acc && v;
    case NDT_SCAN_LOGICAL_OR: return acc || v;
    case NDT_SCAN_LOGICAL_XOR: return !acc != !v;
    default: return (int64_t)((uint64_t)acc - (uint64_t)v);
  }
}

/* One accumulate of float64 data with NaNs (the float ops) and of int64
 * data (every op but the float-only ones), against the loops above; every
 * element compared bit for bit (NaN by NaN-ness). */
static void check_acc(int ndim, const int64_t *shape, int axis, ndt_scan_op op) {
  int64_t size = 1;
  for (int k = 0; k < ndim; k++) size *= shape[k];
  int64_t sz = size ? size : 1;
  double *x = malloc(sizeof(double) * sz), *r = malloc(sizeof(double) * sz),
         *got = malloc(sizeof(double) * sz);
  int64_t *xi = malloc(sizeof(int64_t) * sz), *ri = malloc(sizeof(int64_t) * sz),
          *gi = malloc(sizeof(int64_t) * sz);
  uint8_t *gb = malloc((size_t)sz);
  for (int64_t i = 0; i < size; i++) {
    x[i] = floor(urand() * 200) - 100;
    if (urand() < 0.01) x[i] = NAN;
    xi[i] = (int64_t)(urand() * 4e18) - (int64_t)2e18;
    if (urand() < 0.2) xi[i] = 0;
  }
  int64_t o = 1, n = size, in = 1;
  if (axis != NDT_AXIS_FLAT) {
    n = shape[axis];
    for (int k = 0; k < axis; k++) o *= shape[k];
    for (int k = axis + 1; k < ndim; k++) in *= shape[k];
  }
  int logical = op >= NDT_SCAN_LOGICAL_AND && op <= NDT_SCAN_LOGICAL_XOR;
  for (int64_t a = 0; a < o; a++)
    for (int64_t c = 0; c < in; c++)
      for (int64_t j = 0; j < n; j++) {
        int64_t k = (a * n + j) * in + c, p = k - in;
        r[k] = j == 0 ? x[k] : ref_f(op, r[p], x[k]);
        ri[k] = j == 0 ? (logical ? xi[k] != 0 : xi[k]) : ref_i(op, ri[p], xi[k]);
      }
  ndt_array *a, *res;
  int bad = 0;
  if (op <= NDT_SCAN_FMIN || op == NDT_SCAN_SUBTRACT) {
    OK(ndt_from_buffer(&a, NDT_FLOAT64, ndim, shape, x, NULL));
    OK(ndt_scan(&res, op, a, axis, NDT_DTYPE_DEFAULT));
    EXPECT(ndt_dtype_of(res) == NDT_FLOAT64, "float64 keeps its dtype");
    OK(ndt_to_buffer(res, got));
    for (int64_t i = 0; i < size; i++)
      if (!(got[i] == r[i] || (got[i] != got[i] && r[i] != r[i]))) bad++;
    EXPECT(bad == 0, "float64 accumulate %d ndim %d axis %d: %d wrong", op, ndim, axis, bad);
    ndt_free(res);
    ndt_free(a);
  }
  OK(ndt_from_buffer(&a, NDT_INT64, ndim, shape, xi, NULL));
  OK(ndt_scan(&res, op, a, axis, NDT_DTYPE_DEFAULT));
  EXPECT(ndt_dtype_of(res) == (logical ? NDT_BOOL : NDT_INT64), "int64 accumulate dtype");
  bad = 0;
  if (logical) {
    OK(ndt_to_buffer(res, gb));
    for (int64_t i = 0; i < size; i++) bad += gb[i] != (uint8_t)ri[i];
  } else {
    OK(ndt_to_buffer(res, gi));
    for (int64_t i = 0; i < size; i++) bad += gi[i] != ri[i];
  }
  EXPECT(bad == 0, "int64 accumulate %d ndim %d axis %d: %d wrong", op, ndim, axis, bad);
  ndt_free(res);
  ndt_free(a);
  free(x);
  free(r);
  free(got);
  free(xi);
  free(ri);
  free(gi);
  free(gb);
}

static void test_accumulates(void) {
  int64_t s1[1] = {3000}, s2[2] = {37, 150}, s3[3] = {5, 40, 33}, s0[2] = {0, 7};
  for (int op = NDT_SCAN_MAXIMUM; op <= NDT_SCAN_SUBTRACT; op++) {
    check_acc(1, s1, 0, op);
    check_acc(2, s2, NDT_AXIS_FLAT, op);
    for (int ax = 0; ax < 2; ax++) check_acc(2, s2, ax, op);
    for (int ax = 0; ax < 3; ax++) check_acc(3, s3, ax, op);
    check_acc(2, s0, 1, op);
  }
  /* dtypes and NumPy's missing loops */
  EXPECT(ndt_scan_result_type(NDT_SCAN_MAXIMUM, NDT_INT8, NDT_DTYPE_DEFAULT) == NDT_INT8, "max");
  EXPECT(ndt_scan_result_type(NDT_SCAN_LOGICAL_OR, NDT_FLOAT32, NDT_DTYPE_DEFAULT) == NDT_BOOL,
         "logical");
  EXPECT(ndt_scan_result_type(NDT_SCAN_BITWISE_OR, NDT_FLOAT32, NDT_DTYPE_DEFAULT) ==
             NDT_DTYPE_DEFAULT, "bitwise float");
  int64_t n3 = 3;
  double fx[3] = {1, 2, 3};
  ndt_array *a, *r = NULL;
  OK(ndt_from_buffer(&a, NDT_FLOAT64, 1, &n3, fx, NULL));
  EXPECT(ndt_scan(&r, NDT_SCAN_BITWISE_AND, a, 0, NDT_DTYPE_DEFAULT) == NDT_ERR_TYPE, "bitwise f");
  EXPECT(ndt_scan(&r, NDT_SCAN_LOGICAL_AND, a, 0, NDT_INT64) == NDT_ERR_TYPE, "logical int");
  EXPECT(ndt_scan(&r, NDT_SCAN_SUBTRACT, a, 0, NDT_BOOL) == NDT_ERR_TYPE, "subtract bool");
  EXPECT(ndt_scan(&r, (ndt_scan_op)(NDT_SCAN_SUBTRACT + 1), a, 0, NDT_DTYPE_DEFAULT) ==
             NDT_ERR_VALUE, "unknown op");
  /* maximum in a requested dtype: int8 wraps before the comparison */
  OK(ndt_scan(&r, NDT_SCAN_MAXIMUM, a, 0, NDT_INT8));
  int8_t g8[3];
  OK(ndt_to_buffer(r, g8));
  EXPECT(ndt_dtype_of(r) == NDT_INT8 && g8[0] == 1 && g8[2] == 3, "maximum int8");
  ndt_free(r);
  ndt_free(a);
  /* complex maximum: lexicographic, a NaN sticks; fmax skips it */
  double cz[8] = {1, 1, 1, 2, NAN, 0, 3, 0};
  int64_t n4 = 4;
  double gc[8];
  OK(ndt_from_buffer(&a, NDT_COMPLEX128, 1, &n4, cz, NULL));
  OK(ndt_scan(&r, NDT_SCAN_MAXIMUM, a, 0, NDT_DTYPE_DEFAULT));
  OK(ndt_to_buffer(r, gc));
  EXPECT(gc[2] == 1 && gc[3] == 2 && gc[4] != gc[4] && gc[6] != gc[6], "complex maximum");
  ndt_free(r);
  OK(ndt_scan(&r, NDT_SCAN_FMAX, a, 0, NDT_DTYPE_DEFAULT));
  OK(ndt_to_buffer(r, gc));
  EXPECT(gc[4] == 1 && gc[5] == 2 && gc[6] == 3 && gc[7] == 0, "complex fmax");
  ndt_free(r);
  ndt_free(a);
}

static void test_views(void) {
  /* negative-step and transposed view, flattened */
  int64_t s[2] = {60, 70};
  double *x = malloc(sizeof(double) * 4200), *r = malloc(sizeof(double) * 4200),
         *g = malloc(sizeof(double) * 4200);
  for (int i = 0; i < 4200; i++) x[i] = floor(urand() * 9) - 4;
  ndt_array *a, *v, *t, *res;
  OK(ndt_from_buffer(&a, NDT_FLOAT64, 2, s, x, NULL));
  ndt_index idx[2] = {{.kind = NDT_IDX_SLICE, .step = -1}, {.kind = NDT_IDX_SLICE, .step = 2}};
  OK(ndt_view_index(&v, a, 2, idx));
  OK(ndt_transpose(&t, v, NULL));    /* shape (35, 60): t[i][j] = x[59-j][2i] */
  double *tv = malloc(sizeof(double) * 2100);
  for (int i = 0; i < 35; i++)
    for (int j = 0; j < 60; j++) tv[i * 60 + j] = x[(59 - j) * 70 + 2 * i];
  for (int ax = -1; ax < 2; ax++) {
    int axis = ax < 0 ? NDT_AXIS_FLAT : ax;
    if (ax < 0) ref_scan(tv, r, 1, 2100, 1, 0, 0);
    else if (ax == 0) ref_scan(tv, r, 1, 35, 60, 0, 0);
    else ref_scan(tv, r, 35, 60, 1, 0, 0);
    OK(ndt_scan(&res, NDT_SCAN_CUMSUM, t, axis, NDT_DTYPE_DEFAULT));
    OK(ndt_to_buffer(res, g));
    int bad = 0;
    for (int i = 0; i < 2100; i++) bad += g[i] != r[i];
    EXPECT(bad == 0, "view axis %d: %d wrong", ax, bad);
    ndt_free(res);
  }
  ndt_free(t);
  ndt_free(v);
  ndt_free(a);
  free(x);
  free(r);
  free(g);
  free(tv);
}

static void test_workers(void) {
  int64_t s[2] = {50, 400};
  int64_t n = 20000;
  double *x = malloc(sizeof(double) * n), *g[3];
  for (int64_t i = 0; i < n; i++) x[i] = urand() * 2 - 1 + 1e-9 * urand();
  int ws[3] = {1, 2, 4};
  for (int w = 0; w < 3; w++) {
    OK(ndt_set_workers(ws[w]));
    g[w] = malloc(sizeof(double) * 3 * n);
    ndt_array *a, *r;
    OK(ndt_from_buffer(&a, NDT_FLOAT64, 2, s, x, NULL));
    for (int ax = 0; ax < 3; ax++) {
      OK(ndt_scan(&r, NDT_SCAN_CUMSUM, a, ax == 2 ? NDT_AXIS_FLAT : ax, NDT_DTYPE_DEFAULT));
      OK(ndt_to_buffer(r, g[w] + ax * n));
      ndt_free(r);
    }
    ndt_free(a);
  }
  EXPECT(memcmp(g[0], g[1], sizeof(double) * 3 * n) == 0, "1 vs 2 workers");
  EXPECT(memcmp(g[0], g[2], sizeof(double) * 3 * n) == 0, "1 vs 4 workers");
  /* flat sum close to sequential */
  double acc = 0, maxe = 0;
  for (int64_t i = 0; i < n; i++) {
    acc += x[i];
    double e = fabs(g[0][2 * n + i] - acc);
    if (e > maxe) maxe = e;
  }
  EXPECT(maxe < 1e-9, "flat cumsum error %g", maxe);
  for (int w = 0; w < 3; w++) free(g[w]);
  free(x);
}

int main(void) {
  OK(ndt_init(&(ndt_config){.workers = 3, .tile_bytes = 512, .inline_elems = -1}));
  test_shapes();
  test_dtypes_and_errors();
  test_views();
  test_workers();
  test_accumulates();
  OK(ndt_set_tile_bytes(0));
  test_shapes();
  test_accumulates();
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
