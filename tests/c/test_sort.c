/* test_sort.c - sort and argsort against a stable insertion sort computed
 * here with NumPy's ordering: every dtype, many duplicates, NaNs (real and
 * complex), -0.0 next to 0.0, axes 0 / 1 / -1 / flattened, a transposed and
 * a negative-step view, 0-d and empty arrays, the same results with 1 and 4
 * workers. Tiles of 512 bytes make every multi-task path run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"
#include "order_ref.h"

static int same(double x, double y) {
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  return x == y && signbit(x) == signbit(y);
}

/* Sorts the line of n values at v (stride s pairs) stably; writes indices. */
static void ref_line(const double *v, int64_t s, int64_t n, int64_t *ix) {
  for (int64_t j = 0; j < n; j++) {
    int64_t m = j;
    while (m > 0 && lt(v + 2 * s * j, v + 2 * s * ix[m - 1])) {
      ix[m] = ix[m - 1];
      m--;
    }
    ix[m] = j;
  }
}

/* Checks ndt_sort/argsort of `a` (shape r x c, values vals in C order as
 * pairs) along axis (0, 1 or NDT_AXIS_FLAT). */
static void check(ndt_array *a, const double *vals, int64_t r, int64_t c, int axis,
                  const char *what) {
  ndt_dtype t = ndt_dtype_of(a);
  ndt_array *s = NULL, *i = NULL, *s128 = NULL;
  OK(ndt_sort(&s, a, axis, 0));
  OK(ndt_sort(&i, a, axis, 1));
  OK(ndt_astype(&s128, s, NDT_COMPLEX128, NDT_CAST_UNSAFE));
  int64_t n = r * c;
  EXPECT(ndt_dtype_of(s) == t && ndt_dtype_of(i) == NDT_INT64, "%s dtypes", what);
  EXPECT(ndt_size(s) == n && ndt_size(i) == n, "%s sizes", what);
  int64_t *gi = malloc(sizeof(int64_t) * (n ? n : 1)), *ri = malloc(sizeof(int64_t) * (r + c + n + 1));
  double *gs = malloc(sizeof(double) * 2 * (n ? n : 1));
  OK(ndt_to_buffer(i, gi));
  OK(ndt_to_buffer(s128, gs));
  int64_t lines = axis == 0 ? c : axis == 1 ? r : 1;
  int64_t len = axis == 0 ? r : axis == 1 ? c : n;
  int bad = 0;
  for (int64_t l = 0; l < lines && !bad; l++) {
    int64_t base = axis == 0 ? l : axis == 1 ? l * c : 0;   /* first element */
    int64_t st = axis == 0 ? c : 1;                         /* element stride */
    ref_line(vals + 2 * base, st, len, ri);
    for (int64_t j = 0; j < len && !bad; j++) {
      int64_t p = base + j * st;
      const double *e = vals + 2 * (base + ri[j] * st);
      if (gi[p] != ri[j] || !same(gs[2 * p], e[0]) || !same(gs[2 * p + 1], e[1])) {
        bad = 1;
        EXPECT(0, "%s %s axis %d line %lld pos %lld: index %lld want %lld, value %g%+gj "
               "want %g%+gj", what, ndt_dtype_name(t), axis, (long long)l, (long long)j,
               (long long)gi[p], (long long)ri[j], gs[2 * p], gs[2 * p + 1], e[0], e[1]);
      }
    }
  }
  if (!bad) passed++;
  free(gi);
  free(ri);
  free(gs);
  ndt_free(s);
  ndt_free(i);
  ndt_free(s128);
}

static void run_all(void) {
  const int64_t R = 23, C = 61;
  double *vals = malloc(sizeof(double) * 2 * R * C), *tv = malloc(sizeof(double) * 2 * R * C);
  for (int d = 0; d < NALL; d++) {
    ndt_dtype t = ALL[d];
    char k = kind(t);
    for (int64_t j = 0; j < R * C; j++) {
      vals[2 * j] = val(k, 7);
      vals[2 * j + 1] = k == 'c' ? val(k, 7) : 0.0;
    }
    ndt_array *a = from_vals(t, vals, R, C);
    check(a, vals, R, C, 0, "plain");
    check(a, vals, R, C, 1, "plain");
    check(a, vals, R, C, NDT_AXIS_FLAT, "plain");
    /* -1 is the last axis */
    ndt_array *s1 = NULL, *s2 = NULL, *eq = NULL;
    OK(ndt_sort(&s1, a, -1, 1));
    OK(ndt_sort(&s2, a, 1, 1));
    OK(ndt_binary(&eq, NDT_NOT_EQUAL, s1, s2));
    ndt_array *anyne = NULL;
    OK(ndt_reduce(&anyne, NDT_RED_ANY, eq, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
    uint8_t ne = 1;
    OK(ndt_item(anyne, NDT_BOOL, &ne));
    EXPECT(!ne, "axis -1 differs from axis 1");
    ndt_free(s1);
    ndt_free(s2);
    ndt_free(eq);
    ndt_free(anyne);
    /* transposed view: (C, R) */
    int perm[2] = {1, 0};
    ndt_array *at = NULL;
    OK(ndt_transpose(&at, a, perm));
    for (int64_t i = 0; i < C; i++)
      for (int64_t j = 0; j < R; j++) {
        tv[2 * (i * R + j)] = vals[2 * (j * C + i)];
        tv[2 * (i * R + j) + 1] = vals[2 * (j * C + i) + 1];
      }
    check(at, tv, C, R, 0, "transposed");
    check(at, tv, C, R, 1, "transposed");
    check(at, tv, C, R, NDT_AXIS_FLAT, "transposed");
    ndt_free(at);
    /* negative step on both axes */
    ndt_index idx[2] = {{.kind = NDT_IDX_SLICE, .step = -1}, {.kind = NDT_IDX_SLICE, .step = -2}};
    ndt_array *rv = NULL;
    OK(ndt_view_index(&rv, a, 2, idx));
    int64_t c2 = (C + 1) / 2;
    for (int64_t i = 0; i < R; i++)
      for (int64_t j = 0; j < c2; j++) {
        tv[2 * (i * c2 + j)] = vals[2 * ((R - 1 - i) * C + (C - 1 - 2 * j))];
        tv[2 * (i * c2 + j) + 1] = vals[2 * ((R - 1 - i) * C + (C - 1 - 2 * j)) + 1];
      }
    check(rv, tv, R, c2, 0, "reversed");
    check(rv, tv, R, c2, 1, "reversed");
    check(rv, tv, R, c2, NDT_AXIS_FLAT, "reversed");
    ndt_free(rv);
    ndt_free(a);
  }
  free(vals);
  free(tv);
}

static void edge_cases(void) {
  double v = 2.5;
  ndt_array *z = NULL, *r = NULL;
  OK(ndt_scalar(&z, NDT_FLOAT64, &v, 0));
  EXPECT(ndt_sort(&r, z, -1, 0) == NDT_ERR_AXIS, "0-d axis -1 must fail");
  EXPECT(strstr(ndt_last_error(), "axis -1 is out of bounds for array of dimension 0") != NULL,
         "message: %s", ndt_last_error());
  OK(ndt_sort(&r, z, NDT_AXIS_FLAT, 0));
  double got = 0;
  EXPECT(ndt_ndim(r) == 1 && ndt_shape(r)[0] == 1, "0-d flattened is 1-d");
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(got == 2.5, "0-d flattened value");
  ndt_free(r);
  ndt_free(z);
  int64_t shape[3] = {3, 0, 4};
  ndt_array *e = NULL;
  OK(ndt_zeros(&e, 3, shape, NDT_INT32));
  for (int ax = -3; ax < 3; ax++) {
    OK(ndt_sort(&r, e, ax, 1));
    EXPECT(ndt_ndim(r) == 3 && ndt_size(r) == 0 && ndt_dtype_of(r) == NDT_INT64, "empty");
    ndt_free(r);
  }
  EXPECT(ndt_sort(&r, e, 3, 0) == NDT_ERR_AXIS, "axis 3 must fail");
  EXPECT(ndt_sort(&r, e, -4, 0) == NDT_ERR_AXIS, "axis -4 must fail");
  OK(ndt_sort(&r, e, NDT_AXIS_FLAT, 0));
  EXPECT(ndt_ndim(r) == 1 && ndt_size(r) == 0, "empty flattened");
  ndt_free(r);
  ndt_free(e);
}

/* A long line (many tiles, one task) and many short lines: same bits with 1
 * and 4 workers. */
static void workers(void) {
  int64_t shape[2] = {300, 200};
  int64_t n = shape[0] * shape[1];
  double *d = malloc(sizeof(double) * n);
  for (int64_t j = 0; j < n; j++) d[j] = (double)(next() % 1000) - 500;
  int64_t *r1 = malloc(sizeof(int64_t) * n), *r4 = malloc(sizeof(int64_t) * n);
  for (int ax = 0; ax < 3; ax++) {
    for (int pass = 0; pass < 2; pass++) {
      OK(ndt_set_workers(pass ? 4 : 1));
      ndt_array *a = NULL, *i = NULL;
      OK(ndt_from_buffer(&a, NDT_FLOAT64, 2, shape, d, NULL));
      OK(ndt_sort(&i, a, ax == 2 ? NDT_AXIS_FLAT : ax, 1));
      OK(ndt_to_buffer(i, pass ? r4 : r1));
      ndt_free(i);
      ndt_free(a);
    }
    EXPECT(memcmp(r1, r4, sizeof(int64_t) * n) == 0, "1 vs 4 workers axis %d", ax);
  }
  free(d);
  free(r1);
  free(r4);
}

/* NDT_SORT_QUIET_NAN: a value sort writes every NaN as the quiet NaN (sign
 * clear, no payload); without it each NaN keeps its bits; a line of one
 * element is left as it is. */
static void quiet_nan(void) {
  uint64_t bits[5] = {0xFFF8000000000001ull, 0x4000000000000000ull, 0x7FF8000000000005ull,
                      0xBFF0000000000000ull, 0xFFF8000000000000ull};
  double d[5];
  memcpy(d, bits, sizeof d);
  int64_t shape[1] = {5}, one[1] = {1};
  ndt_array *a = NULL, *r = NULL, *q = NULL, *s1 = NULL, *r1 = NULL;
  OK(ndt_from_buffer(&a, NDT_FLOAT64, 1, shape, d, NULL));
  OK(ndt_sort(&r, a, 0, 0));
  OK(ndt_sort(&q, a, 0, NDT_SORT_QUIET_NAN));
  uint64_t gr[5], gq[5], g1;
  OK(ndt_to_buffer(r, gr));
  OK(ndt_to_buffer(q, gq));
  EXPECT(gr[2] == bits[0] && gr[3] == bits[2] && gr[4] == bits[4], "NaNs keep their bits");
  EXPECT(gq[0] == bits[3] && gq[1] == bits[1], "quiet: the numbers");
  EXPECT(gq[2] == 0x7FF8000000000000ull && gq[3] == gq[2] && gq[4] == gq[2], "quiet NaNs");
  OK(ndt_from_buffer(&s1, NDT_FLOAT64, 1, one, d, NULL));
  OK(ndt_sort(&r1, s1, 0, NDT_SORT_QUIET_NAN));
  OK(ndt_to_buffer(r1, &g1));
  EXPECT(g1 == bits[0], "a line of one element is not rewritten");
  float f[3] = {-NAN, 1.0f, NAN};
  int64_t three[1] = {3};
  ndt_array *fa = NULL, *fq = NULL;
  OK(ndt_from_buffer(&fa, NDT_FLOAT32, 1, three, f, NULL));
  OK(ndt_sort(&fq, fa, 0, NDT_SORT_QUIET_NAN | 1));   /* indices: the flag does nothing */
  int64_t ix[3];
  OK(ndt_to_buffer(fq, ix));
  EXPECT(ndt_dtype_of(fq) == NDT_INT64 && ix[0] == 1 && ix[1] == 0 && ix[2] == 2, "argsort");
  ndt_free(fq); ndt_free(fa);
  ndt_free(r1); ndt_free(s1); ndt_free(q); ndt_free(r); ndt_free(a);
}

int main(void) {
  ndt_config cfg = {.workers = 4, .tile_bytes = 512, .inline_elems = -1};
  OK(ndt_init(&cfg));
  run_all();
  edge_cases();
  workers();
  quiet_nan();
  OK(ndt_sync());
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
