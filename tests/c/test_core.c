/* test_core.c - the core against reference values computed here: creation,
 * views, elementwise ops with broadcasting and overlap, casts, reductions,
 * reproducibility across worker counts, errors and allocation failures.
 * A small tile size makes every multi-tile path run on small data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"


/* Reads an array as doubles (real part) in C order. */
static double *to_doubles(const ndt_array *a) {
  ndt_array *d;
  int64_t n = ndt_size(a);
  double *buf = malloc(sizeof(double) * (n ? n : 1));
  if (ndt_dtype_of(a) == NDT_COMPLEX64 || ndt_dtype_of(a) == NDT_COMPLEX128) {
    ndt_array *r;
    OK(ndt_real(&r, a));
    OK(ndt_astype(&d, r, NDT_FLOAT64, NDT_CAST_UNSAFE));
    ndt_free(r);
  } else {
    OK(ndt_astype(&d, a, NDT_FLOAT64, NDT_CAST_UNSAFE));
  }
  OK(ndt_to_buffer(d, buf));
  ndt_free(d);
  return buf;
}

static ndt_array *from_doubles(const double *v, int ndim, const int64_t *shape, ndt_dtype t) {
  ndt_array *d, *r;
  OK(ndt_from_buffer(&d, NDT_FLOAT64, ndim, shape, v, NULL));
  OK(ndt_astype(&r, d, t, NDT_CAST_UNSAFE));
  ndt_free(d);
  return r;
}

static ndt_index sl(int64_t a, int64_t b, int64_t s) {
  ndt_index i = {.kind = NDT_IDX_SLICE, .start = a, .stop = b, .step = s, .has_start = 1,
                 .has_stop = 1};
  return i;
}
static ndt_index all_(void) {
  ndt_index i = {.kind = NDT_IDX_SLICE, .step = 1};
  return i;
}

/* The rank API; on many ranks (tests/mpi) every rank checks its own view. */
static void test_ranks(void) {
  int r = ndt_rank(), n = ndt_nranks();
  EXPECT(n >= 1 && r >= 0 && r < n, "rank %d of %d", r, n);
  EXPECT(ndt_barrier() == NDT_OK, "barrier");
  int64_t v = r == 0 ? 4242 : -1;
  EXPECT(ndt_bcast(&v, sizeof v, 0) == NDT_OK && v == 4242, "bcast from rank 0");
  EXPECT(ndt_bcast(&v, sizeof v, n) == NDT_ERR_VALUE, "bcast from a rank that is not there");
  ndt_comm_stats c;
  ndt_comm_stats_reset();
  ndt_comm_stats_get(&c);
  EXPECT(c.sends == 0 && c.recvs == 0 && c.collectives == 0, "stats reset");
}

static void test_tiling(void) {
  int64_t s1[2] = {1000, 1000}, s2[1] = {7}, s3[3] = {3, 5, 100000};
  int64_t t1 = ndt_tiles_for(2, s1, NDT_FLOAT64);
  EXPECT(t1 > 1, "large array has many tiles (%lld)", (long long)t1);
  EXPECT(ndt_tiles_for(1, s2, NDT_FLOAT64) == 1, "small array is one tile");
  EXPECT(ndt_tiles_for(3, s3, NDT_INT8) >= 15, "rows longer than a tile split");
  OK(ndt_set_workers(3));
  EXPECT(ndt_tiles_for(2, s1, NDT_FLOAT64) == t1, "tiling does not depend on workers");
  OK(ndt_set_workers(2));
}

static void test_creation(void) {
  int64_t shape[2] = {37, 29};
  for (int i = 0; i < NALL; i++) {
    ndt_dtype t = ALL[i];
    ndt_array *z, *o, *f;
    OK(ndt_zeros(&z, 2, shape, t));
    OK(ndt_ones(&o, 2, shape, t));
    double seven = 7;
    OK(ndt_full(&f, 2, shape, t, &seven, NDT_FLOAT64));
    double *vz = to_doubles(z), *vo = to_doubles(o), *vf = to_doubles(f);
    int ok = 1;
    for (int k = 0; k < 37 * 29; k++)
      ok &= vz[k] == 0 && vo[k] == 1 && vf[k] == (t == NDT_BOOL ? 1 : 7);
    EXPECT(ok, "zeros/ones/full %s", ndt_dtype_name(t));
    EXPECT(ndt_dtype_of(z) == t && ndt_size(z) == 37 * 29, "dtype and size");
    free(vz); free(vo); free(vf);
    ndt_free(z); ndt_free(o); ndt_free(f);
  }
  ndt_array *a;
  OK(ndt_arange(&a, 3, 1000, 7, NDT_INT32));
  double *v = to_doubles(a);
  int ok = ndt_size(a) == 143;
  for (int k = 0; k < 143 && ok; k++) ok = v[k] == 3 + 7 * k;
  EXPECT(ok, "arange int32");
  free(v); ndt_free(a);
  OK(ndt_arange(&a, 1.0, 0.0, -0.1, NDT_FLOAT64));
  v = to_doubles(a);
  EXPECT(ndt_size(a) == 10 && fabs(v[9] - 0.1) < 1e-12, "arange negative float step");
  free(v); ndt_free(a);
  OK(ndt_arange(&a, 0, 1, 0.1, NDT_FLOAT32));
  float f9;
  int64_t i9[1] = {9};
  OK(ndt_get_item(a, i9, &f9));
  EXPECT(ndt_size(a) == 10 && f9 == 0.90000004f, "arange float32 computes in float32");
  ndt_free(a);
  OK(ndt_linspace(&a, 0, 1, 11, 1, NDT_FLOAT64));
  v = to_doubles(a);
  EXPECT(ndt_size(a) == 11 && v[10] == 1.0 && fabs(v[3] - 0.3) < 1e-15, "linspace");
  free(v); ndt_free(a);
  OK(ndt_linspace(&a, 0, 10, 4, 1, NDT_INT64));
  v = to_doubles(a);
  EXPECT(v[0] == 0 && v[1] == 3 && v[2] == 6 && v[3] == 10, "linspace int floors");
  free(v); ndt_free(a);
  /* a subnormal distance: the step (d / 9) underflows to zero, and NumPy
   * takes (i / 9) * d instead (np.linspace(0, 5 * 4.9e-324, 10, endpoint=False)) */
  double tiny = 5 * 4.9406564584124654e-324;
  OK(ndt_linspace(&a, 0, tiny, 10, 0, NDT_FLOAT64));
  v = to_doubles(a);
  ok = 1;
  for (int i = 0; i < 10; i++) ok &= v[i] == (double)i / 10 * tiny;
  EXPECT(ok && v[9] > 0, "linspace of a subnormal distance");
  free(v); ndt_free(a);
  OK(ndt_eye(&a, 40, 50, 3, NDT_FLOAT32));
  v = to_doubles(a);
  ok = 1;
  for (int r = 0; r < 40; r++)
    for (int c = 0; c < 50; c++) ok &= v[r * 50 + c] == (c == r + 3);
  EXPECT(ok, "eye with offset");
  free(v); ndt_free(a);
  /* 0-d and empty arrays */
  int64_t e[2] = {0, 5};
  OK(ndt_ones(&a, 2, e, NDT_FLOAT64));
  EXPECT(ndt_size(a) == 0 && ndt_ndim(a) == 2, "empty array");
  ndt_free(a);
  double x = 2.5;
  OK(ndt_scalar(&a, NDT_FLOAT64, &x, 0));
  double y = 0;
  OK(ndt_item(a, NDT_FLOAT64, &y));
  EXPECT(ndt_ndim(a) == 0 && y == 2.5, "0-d array");
  ndt_free(a);
}

static void test_buffers(void) {
  /* strided host source, every dtype round trip */
  for (int i = 0; i < NALL; i++) {
    ndt_dtype t = ALL[i];
    size_t isz = ndt_dtype_size(t);
    int64_t shape[2] = {19, 23};
    char *src = calloc(19 * 23 * 2, isz), *dst = calloc(19 * 23, isz);
    for (int k = 0; k < 19 * 23 * 2 * (int)isz; k++) src[k] = (char)(k * 31 + 7);
    if (t == NDT_BOOL) for (int k = 0; k < 19 * 23 * 2; k++) src[k] &= 1;
    if (t == NDT_FLOAT32 || t == NDT_COMPLEX64)
      for (int k = 0; k < 19 * 23 * 2 * (int)isz / 4; k++) ((float *)src)[k] = k * 0.5f;
    if (t == NDT_FLOAT64 || t == NDT_COMPLEX128)
      for (int k = 0; k < 19 * 23 * 2 * (int)isz / 8; k++) ((double *)src)[k] = k * 0.25;
    int64_t bst[2] = {(int64_t)(23 * 2 * isz), (int64_t)(2 * isz)};
    ndt_array *a;
    OK(ndt_from_buffer(&a, t, 2, shape, src, bst));
    OK(ndt_to_buffer(a, dst));
    int ok = 1;
    for (int k = 0; k < 19 * 23; k++) ok &= memcmp(dst + k * isz, src + 2 * k * isz, isz) == 0;
    EXPECT(ok, "from_buffer strided / to_buffer %s", ndt_dtype_name(t));
    free(src); free(dst); ndt_free(a);
  }
}

static void test_views(void) {
  int64_t shape[2] = {30, 40};
  double ref[30 * 40];
  for (int k = 0; k < 1200; k++) ref[k] = k;
  ndt_array *a = from_doubles(ref, 2, shape, NDT_FLOAT64), *v;
  /* a[25:2:-3, ::-7] */
  ndt_index ix[2] = {sl(25, 2, -3), sl(-1, -100, -7)};
  OK(ndt_view_index(&v, a, 2, ix));
  EXPECT(ndt_shape(v)[0] == 8 && ndt_shape(v)[1] == 6, "negative-step view shape %lldx%lld",
         (long long)ndt_shape(v)[0], (long long)ndt_shape(v)[1]);
  double *vv = to_doubles(v);
  int ok = 1;
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 6; c++) ok &= vv[r * 6 + c] == (25 - 3 * r) * 40 + (39 - 7 * c);
  EXPECT(ok, "negative-step view values");
  free(vv);
  /* write through the view */
  double m1 = -1;
  OK(ndt_fill(v, &m1, NDT_FLOAT64));
  double *av = to_doubles(a);
  ok = av[25 * 40 + 39] == -1 && av[22 * 40 + 32] == -1 && av[24 * 40 + 39] == 24 * 40 + 39;
  EXPECT(ok, "writes through a view land in the base");
  free(av);
  ndt_free(v);
  /* integer index drops a dimension, newaxis adds one, ellipsis */
  ndt_index ix2[3] = {{.kind = NDT_IDX_ELLIPSIS}, {.kind = NDT_IDX_INT, .start = -2},
                      {.kind = NDT_IDX_NEWAXIS}};
  OK(ndt_view_index(&v, a, 3, ix2));
  EXPECT(ndt_ndim(v) == 2 && ndt_shape(v)[0] == 30 && ndt_shape(v)[1] == 1, "a[..., -2, None]");
  vv = to_doubles(v);
  EXPECT(vv[3] == 3 * 40 + 38, "column view value");
  free(vv);
  ndt_free(v);
  /* transpose and reshape */
  ndt_array *t, *r;
  OK(ndt_transpose(&t, a, NULL));
  EXPECT(ndt_shape(t)[0] == 40 && ndt_shape(t)[1] == 30, "transpose shape");
  int64_t flat[1] = {-1};
  OK(ndt_reshape(&r, t, 1, flat));
  EXPECT(!ndt_same_store(r, a), "reshape of a transpose copies");
  vv = to_doubles(r);
  EXPECT(vv[1] == 40 && vv[30] == 1, "transpose then ravel order");
  free(vv);
  ndt_free(r);
  OK(ndt_reshape(&r, a, 1, flat));
  EXPECT(ndt_same_store(r, a), "reshape of a contiguous array is a view");
  ndt_free(r);
  int64_t s3[3] = {30, 4, 10};
  OK(ndt_reshape(&r, a, 3, s3));
  EXPECT(ndt_same_store(r, a) && ndt_strides(r)[1] == 10, "splitting an axis is a view");
  ndt_free(r);
  ndt_free(t);
  /* errors */
  ndt_index bad[1] = {{.kind = NDT_IDX_INT, .start = 30}};
  EXPECT(ndt_view_index(&v, a, 1, bad) == NDT_ERR_INDEX, "out-of-bounds index: %s",
         ndt_last_error());
  ndt_index three[3] = {all_(), all_(), all_()};
  EXPECT(ndt_view_index(&v, a, 3, three) == NDT_ERR_INDEX, "too many indices");
  ndt_index zero[1] = {sl(0, 5, 0)};
  EXPECT(ndt_view_index(&v, a, 1, zero) == NDT_ERR_VALUE, "zero step");
  int64_t bads[2] = {7, 7};
  EXPECT(ndt_reshape(&r, a, 2, bads) == NDT_ERR_VALUE &&
         strstr(ndt_last_error(), "cannot reshape array of size 1200 into shape (7,7)"),
         "reshape error message: %s", ndt_last_error());
  int64_t big[33];
  for (int k = 0; k < 33; k++) big[k] = 1;
  EXPECT(ndt_zeros(&r, 33, big, NDT_FLOAT64) == NDT_ERR_VALUE, "too many dimensions");
  ndt_free(a);
}

/* c = a OP b with broadcasting (30,1,17) x (4,17), all dtypes, vs a loop. */
static double ref_op(ndt_ufunc op, double x, double y) {
  switch (op) {
    case NDT_ADD: return x + y;
    case NDT_SUBTRACT: return x - y;
    case NDT_MULTIPLY: return x * y;
    case NDT_MAXIMUM: return x > y ? x : y;
    case NDT_LESS: return x < y;
    default: return NAN;
  }
}

static void test_elementwise(void) {
  int64_t sa[3] = {30, 1, 17}, sb[2] = {4, 17};
  double va[510], vb[68];
  for (int k = 0; k < 510; k++) va[k] = (k * 7) % 23;
  for (int k = 0; k < 68; k++) vb[k] = (k * 5) % 11;
  ndt_ufunc ops[] = {NDT_ADD, NDT_SUBTRACT, NDT_MULTIPLY, NDT_MAXIMUM, NDT_LESS};
  for (int i = 0; i < NALL; i++) {
    ndt_dtype t = ALL[i];
    if (t == NDT_BOOL) continue;
    ndt_array *a = from_doubles(va, 3, sa, t), *b = from_doubles(vb, 2, sb, t);
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
      if (ops[o] == NDT_SUBTRACT && (t >= NDT_UINT8 && t <= NDT_UINT64)) continue;
      ndt_array *c = NULL;
      OK(ndt_binary(&c, ops[o], a, b));
      EXPECT(ndt_ndim(c) == 3 && ndt_shape(c)[1] == 4 && ndt_size(c) == 30 * 4 * 17,
             "broadcast shape");
      double *vc = to_doubles(c);
      int ok = 1;
      for (int x = 0; x < 30; x++)
        for (int y = 0; y < 4; y++)
          for (int z = 0; z < 17; z++) {
            double want = ref_op(ops[o], va[x * 17 + z], vb[y * 17 + z]);
            if (t == NDT_INT8 && ops[o] == NDT_MULTIPLY) want = (double)(int8_t)(int)want;
            ok &= vc[(x * 4 + y) * 17 + z] == want;
          }
      EXPECT(ok, "%s %s with broadcasting", ndt_ufunc_name(ops[o]), ndt_dtype_name(t));
      EXPECT(ndt_dtype_of(c) == (ops[o] == NDT_LESS ? NDT_BOOL : t), "result dtype");
      free(vc);
      ndt_free(c);
    }
    ndt_free(a);
    ndt_free(b);
  }
  /* promotion: int8 array + weak Python int stays int8; + float64 gives float64 */
  int64_t s1[1] = {5};
  ndt_array *a, *w, *f, *c = NULL;
  OK(ndt_ones(&a, 1, s1, NDT_INT8));
  int64_t three = 3;
  OK(ndt_scalar(&w, NDT_INT64, &three, 1));
  OK(ndt_binary(&c, NDT_ADD, a, w));
  EXPECT(ndt_dtype_of(c) == NDT_INT8, "NEP 50: int8 + python int -> int8");
  ndt_free(c);
  c = NULL;
  OK(ndt_ones(&f, 1, s1, NDT_FLOAT32));
  OK(ndt_binary(&c, NDT_ADD, a, f));
  EXPECT(ndt_dtype_of(c) == NDT_FLOAT32, "int8 + float32 -> float32");
  ndt_free(c);
  c = NULL;
  OK(ndt_binary(&c, NDT_TRUE_DIVIDE, a, w));
  EXPECT(ndt_dtype_of(c) == NDT_FLOAT64, "int8 / int -> float64");
  ndt_free(c);
  /* output cast rule: float result into an int array is refused */
  c = a;
  EXPECT(ndt_binary(&c, NDT_ADD, a, f) == NDT_ERR_CAST, "same_kind output cast: %s",
         ndt_last_error());
  ndt_free(a); ndt_free(w); ndt_free(f);
  /* shape mismatch */
  int64_t s2[1] = {4};
  OK(ndt_ones(&a, 1, s1, NDT_FLOAT64));
  OK(ndt_ones(&f, 1, s2, NDT_FLOAT64));
  c = NULL;
  EXPECT(ndt_binary(&c, NDT_ADD, a, f) == NDT_ERR_SHAPE &&
         strstr(ndt_last_error(), "could not be broadcast together with shapes (5,) (4,)"),
         "broadcast error: %s", ndt_last_error());
  ndt_free(a); ndt_free(f);
  /* unary math and where */
  double xs[6] = {-2, -0.5, 0, 0.5, 2, 9};
  int64_t s6[1] = {6};
  ndt_array *x = from_doubles(xs, 1, s6, NDT_FLOAT64), *r = NULL, *cond = NULL, *z;
  OK(ndt_unary(&r, NDT_ABSOLUTE, x));
  double *vr = to_doubles(r);
  EXPECT(vr[0] == 2 && vr[1] == 0.5 && vr[5] == 9, "absolute");
  free(vr); ndt_free(r); r = NULL;
  OK(ndt_unary(&r, NDT_EXP, x));
  vr = to_doubles(r);
  int ok = 1;
  for (int k = 0; k < 6; k++) ok &= fabs(vr[k] - exp(xs[k])) <= 1e-15 * exp(xs[k]);
  EXPECT(ok, "exp");
  free(vr); ndt_free(r); r = NULL;
  OK(ndt_zeros(&z, 1, s6, NDT_FLOAT64));
  OK(ndt_binary(&cond, NDT_GREATER, x, z));
  OK(ndt_where(&r, cond, x, z));
  vr = to_doubles(r);
  EXPECT(vr[0] == 0 && vr[3] == 0.5 && vr[5] == 9, "where");
  free(vr); ndt_free(r); r = NULL;
  ndt_free(cond); ndt_free(z); ndt_free(x);
}

static void test_overlap(void) {
  /* a[1:] += a[:-1] reads a[:-1] as it was, as NumPy does */
  int n = 1000;
  double *v = malloc(sizeof(double) * n);
  for (int k = 0; k < n; k++) v[k] = k;
  int64_t s[1] = {n};
  ndt_array *a = from_doubles(v, 1, s, NDT_FLOAT64), *hi, *lo;
  ndt_index i1 = sl(1, n, 1), i2 = sl(0, n - 1, 1);
  OK(ndt_view_index(&hi, a, 1, &i1));
  OK(ndt_view_index(&lo, a, 1, &i2));
  OK(ndt_binary(&hi, NDT_ADD, hi, lo));
  double *r = to_doubles(a);
  int ok = r[0] == 0;
  for (int k = 1; k < n; k++) ok &= r[k] == k + (k - 1);
  EXPECT(ok, "overlapping in-place add");
  free(r);
  /* a[::-1] = a reverses (assignment with overlap) */
  ndt_index rev = sl(-1, -n - 1, -1);
  ndt_array *ra;
  OK(ndt_view_index(&ra, a, 1, &rev));
  OK(ndt_assign(ra, a, NDT_CAST_SAME_KIND));
  r = to_doubles(a);
  ok = r[n - 1] == 0;
  for (int k = 1; k < n; k++) ok &= r[n - 1 - k] == k + (k - 1);
  EXPECT(ok, "reversing assignment with overlap");
  free(r);
  ndt_free(ra); ndt_free(hi); ndt_free(lo); ndt_free(a); free(v);
}

static double sum_ref(const double *v, int64_t n) {
  long double s = 0;
  for (int64_t i = 0; i < n; i++) s += v[i];
  return (double)s;
}

static void test_reductions(void) {
  int64_t shape[3] = {13, 21, 17};
  int64_t n = 13 * 21 * 17;
  double *v = malloc(sizeof(double) * n);
  for (int64_t k = 0; k < n; k++) v[k] = (double)((k * 37) % 101) - 50;
  for (int i = 0; i < NALL; i++) {
    ndt_dtype t = ALL[i];
    int is_unsigned = t >= NDT_UINT8 && t <= NDT_UINT64;
    double *vv = malloc(sizeof(double) * n);
    for (int64_t k = 0; k < n; k++) {
      vv[k] = is_unsigned ? fabs(v[k]) : v[k];
      if (t == NDT_BOOL) vv[k] = vv[k] > 0;
    }
    ndt_array *a = from_doubles(vv, 3, shape, t), *r;
    /* sum over all */
    OK(ndt_reduce(&r, NDT_RED_SUM, a, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
    double got;
    OK(ndt_item(r, NDT_FLOAT64, &got));
    EXPECT(got == sum_ref(vv, n), "sum all %s: %g vs %g", ndt_dtype_name(t), got,
           sum_ref(vv, n));
    ndt_dtype want = t == NDT_BOOL || (t >= NDT_INT8 && t <= NDT_INT64) ? NDT_INT64
                     : is_unsigned ? NDT_UINT64 : t;
    EXPECT(ndt_dtype_of(r) == want && ndt_ndim(r) == 0, "sum dtype %s", ndt_dtype_name(t));
    ndt_free(r);
    /* sum, max and argmax over axis 1 with keepdims, and over axes {0,2} */
    OK(ndt_reduce(&r, NDT_RED_SUM, a, 2, 1, NDT_DTYPE_DEFAULT, 0));
    double *rv = to_doubles(r);
    int ok = ndt_ndim(r) == 3 && ndt_shape(r)[1] == 1;
    for (int x = 0; x < 13; x++)
      for (int z = 0; z < 17; z++) {
        double s = 0;
        for (int y = 0; y < 21; y++) s += vv[(x * 21 + y) * 17 + z];
        ok &= rv[x * 17 + z] == s;
      }
    EXPECT(ok, "sum axis 1 keepdims %s", ndt_dtype_name(t));
    free(rv); ndt_free(r);
    OK(ndt_reduce(&r, NDT_RED_MAX, a, 5, 0, NDT_DTYPE_DEFAULT, 0));
    rv = to_doubles(r);
    ok = ndt_ndim(r) == 1 && ndt_shape(r)[0] == 21;
    for (int y = 0; y < 21; y++) {
      double m = -1e300;
      for (int x = 0; x < 13; x++)
        for (int z = 0; z < 17; z++) m = fmax(m, vv[(x * 21 + y) * 17 + z]);
      ok &= rv[y] == m;
    }
    EXPECT(ok, "max over axes (0,2) %s", ndt_dtype_name(t));
    free(rv); ndt_free(r);
    OK(ndt_reduce(&r, NDT_RED_ARGMAX, a, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
    int64_t am;
    OK(ndt_item(r, NDT_INT64, &am));
    int64_t best = 0;
    for (int64_t k = 1; k < n; k++) if (vv[k] > vv[best]) best = k;
    EXPECT(am == best, "argmax first occurrence %s: %lld vs %lld", ndt_dtype_name(t),
           (long long)am, (long long)best);
    ndt_free(r);
    OK(ndt_reduce(&r, NDT_RED_ARGMIN, a, 2, 0, NDT_DTYPE_DEFAULT, 0));
    rv = to_doubles(r);
    ok = 1;
    for (int x = 0; x < 13; x++)
      for (int z = 0; z < 17; z++) {
        int b = 0;
        for (int y = 1; y < 21; y++)
          if (vv[(x * 21 + y) * 17 + z] < vv[(x * 21 + b) * 17 + z]) b = y;
        ok &= rv[x * 17 + z] == b;
      }
    EXPECT(ok, "argmin axis 1 %s", ndt_dtype_name(t));
    free(rv); ndt_free(r);
    ndt_free(a);
    free(vv);
  }
  /* mean, var, std with ddof on a strided view */
  ndt_array *a = from_doubles(v, 3, shape, NDT_FLOAT64), *view, *r;
  ndt_index ix[3] = {sl(-1, -14, -2), all_(), sl(1, 17, 3)};
  OK(ndt_view_index(&view, a, 3, ix));
  int64_t m = ndt_size(view);
  double *vv = to_doubles(view);
  double mean = sum_ref(vv, m) / m, ss = 0;
  for (int64_t k = 0; k < m; k++) ss += (vv[k] - mean) * (vv[k] - mean);
  double got;
  OK(ndt_reduce(&r, NDT_RED_MEAN, view, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(fabs(got - mean) < 1e-12, "mean of a strided view");
  ndt_free(r);
  OK(ndt_reduce(&r, NDT_RED_VAR, view, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 1));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(fabs(got - ss / (m - 1)) < 1e-10, "var ddof=1");
  ndt_free(r);
  OK(ndt_reduce(&r, NDT_RED_STD, view, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(fabs(got - sqrt(ss / m)) < 1e-10, "std");
  ndt_free(r);
  free(vv);
  ndt_free(view);
  /* errors */
  EXPECT(ndt_reduce(&r, NDT_RED_SUM, a, 8, 0, NDT_DTYPE_DEFAULT, 0) == NDT_ERR_AXIS,
         "axis out of range: %s", ndt_last_error());
  int64_t e[2] = {0, 3};
  ndt_array *empty;
  OK(ndt_zeros(&empty, 2, e, NDT_FLOAT64));
  EXPECT(ndt_reduce(&r, NDT_RED_MAX, empty, 1, 0, NDT_DTYPE_DEFAULT, 0) == NDT_ERR_VALUE,
         "max of empty");
  OK(ndt_reduce(&r, NDT_RED_SUM, empty, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(got == 0, "sum of empty is 0");
  ndt_free(r);
  OK(ndt_reduce(&r, NDT_RED_MAX, empty, 2, 0, NDT_DTYPE_DEFAULT, 0));
  EXPECT(ndt_size(r) == 0 && ndt_shape(r)[0] == 0, "max over a non-empty axis of an empty array");
  ndt_free(r);
  ndt_free(empty);
  /* NaN: max propagates, nanmax skips, argmax finds the first NaN */
  double nv[5] = {1, NAN, 7, NAN, 3};
  int64_t s5[1] = {5};
  ndt_array *na = from_doubles(nv, 1, s5, NDT_FLOAT64);
  OK(ndt_reduce(&r, NDT_RED_MAX, na, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(isnan(got), "max with NaN is NaN");
  ndt_free(r);
  OK(ndt_reduce(&r, NDT_RED_NANMAX, na, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(got == 7, "nanmax skips NaN");
  ndt_free(r);
  OK(ndt_reduce(&r, NDT_RED_ARGMAX, na, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  int64_t ai;
  OK(ndt_item(r, NDT_INT64, &ai));
  EXPECT(ai == 1, "argmax picks the first NaN");
  ndt_free(r);
  ndt_free(na);
  /* nansum: input NaNs are skipped, but inf - inf arising in the sum is NaN */
  double iv[3] = {INFINITY, -INFINITY, 1};
  int64_t s3[1] = {3};
  ndt_array *ia = from_doubles(iv, 1, s3, NDT_FLOAT64);
  OK(ndt_reduce(&r, NDT_RED_NANSUM, ia, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(isnan(got), "nansum of inf and -inf is NaN");
  ndt_free(r);
  ndt_free(ia);
  int64_t z1[1] = {0};
  ndt_array *e0;
  OK(ndt_zeros(&e0, 1, z1, NDT_FLOAT64));
  EXPECT(ndt_reduce(&r, NDT_RED_NANMAX, e0, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0) ==
         NDT_ERR_VALUE, "nanmax of empty");
  ndt_free(e0);
  /* initial=: the fold starts from it (-0.0 + a sum of -0.0s is -0.0, not
   * +0.0; a product from 0 stays 0 where inf * 0 after the fold would be
   * NaN), empty gives it, and
   * only sum/prod/nansum/nanprod take one */
  double zv[3] = {-0.0, -0.0, -0.0}, seed = -0.0;
  ndt_array *za = from_doubles(zv, 1, s3, NDT_FLOAT64);
  OK(ndt_reduce_initial(&r, NDT_RED_SUM, za, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, &seed));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(got == 0 && signbit(got), "sum of -0.0s from -0.0 is -0.0");
  ndt_free(r);
  double big[3] = {1e200, 1e200, 2}, zero = 0;
  ndt_array *ba = from_doubles(big, 1, s3, NDT_FLOAT64);
  OK(ndt_reduce_initial(&r, NDT_RED_PROD, ba, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, &zero));
  OK(ndt_item(r, NDT_FLOAT64, &got));
  EXPECT(got == 0 && !signbit(got), "prod from 0 of values that overflow is 0: %g", got);
  ndt_free(r);
  int64_t seed_i = 5;
  OK(ndt_zeros(&e0, 1, z1, NDT_INT32));
  OK(ndt_reduce_initial(&r, NDT_RED_SUM, e0, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, &seed_i));
  int64_t gi;
  OK(ndt_item(r, NDT_INT64, &gi));
  EXPECT(gi == 5 && ndt_dtype_of(r) == NDT_INT64, "sum of empty int32 from 5 is int64 5");
  ndt_free(r);
  EXPECT(ndt_reduce_initial(&r, NDT_RED_MAX, ba, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, &zero) ==
         NDT_ERR_VALUE, "max takes no initial value here");
  ndt_free(e0);
  ndt_free(ba);
  ndt_free(za);
  ndt_free(a);
  free(v);
}

/* The same float computation with 1, 2 and 4 workers gives the same bits. */
static void test_reproducible(void) {
  int64_t n = 100003;
  double *v = malloc(sizeof(double) * n);
  for (int64_t k = 0; k < n; k++) v[k] = sin((double)k) * 1e3 + 1.0 / (k + 1);
  double res[3][3];
  int workers[3] = {1, 2, 4};
  for (int w = 0; w < 3; w++) {
    OK(ndt_set_workers(workers[w]));
    int64_t s[2] = {n, 1};
    ndt_array *a, *a2, *r, *sq = NULL;
    OK(ndt_from_buffer(&a, NDT_FLOAT64, 1, &n, v, NULL));
    OK(ndt_reshape(&a2, a, 2, s));
    OK(ndt_binary(&sq, NDT_MULTIPLY, a2, a2));
    OK(ndt_reduce(&r, NDT_RED_SUM, sq, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
    OK(ndt_item(r, NDT_FLOAT64, &res[w][0]));
    ndt_free(r);
    OK(ndt_reduce(&r, NDT_RED_MEAN, a, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
    OK(ndt_item(r, NDT_FLOAT64, &res[w][1]));
    ndt_free(r);
    OK(ndt_reduce(&r, NDT_RED_STD, a, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
    OK(ndt_item(r, NDT_FLOAT64, &res[w][2]));
    ndt_free(r);
    ndt_free(sq); ndt_free(a2); ndt_free(a);
  }
  EXPECT(memcmp(res[0], res[1], sizeof res[0]) == 0 && memcmp(res[0], res[2], sizeof res[0]) == 0,
         "bitwise identical for 1, 2, 4 workers");
  OK(ndt_set_workers(2));
  free(v);
}

/* Many dependent tasks in flight: a chain of in-place updates over views. */
static void test_runtime_chain(void) {
  int64_t shape[2] = {64, 64};
  ndt_array *u, *one;
  OK(ndt_zeros(&u, 2, shape, NDT_INT64));
  int64_t k1 = 1;
  OK(ndt_scalar(&one, NDT_INT64, &k1, 1));
  for (int step = 0; step < 50; step++) {
    ndt_array *v;
    ndt_index ix[2] = {sl(step % 7, 64, 1 + step % 3), sl(0, 64 - step % 5, 1)};
    OK(ndt_view_index(&v, u, 2, ix));
    OK(ndt_binary(&v, NDT_ADD, v, one));
    ndt_free(v);
  }
  int64_t *got = malloc(sizeof(int64_t) * 64 * 64);
  OK(ndt_to_buffer(u, got));
  int ok = 1;
  for (int r = 0; r < 64; r++)
    for (int c = 0; c < 64; c++) {
      int64_t want = 0;
      for (int step = 0; step < 50; step++)
        want += r >= step % 7 && (r - step % 7) % (1 + step % 3) == 0 && c < 64 - step % 5;
      ok &= got[r * 64 + c] == want;
    }
  EXPECT(ok, "chain of dependent in-place updates");
  free(got);
  ndt_free(u);
  ndt_free(one);
}

/* Chains of elementwise ops are fused; kept intermediates are still written,
 * dropped ones need not be, and views of pending results read right values. */
static void test_fusion(void) {
  int64_t n = 5000, s1[1] = {n};
  double *v = malloc(sizeof(double) * n * 5);
  for (int64_t k = 0; k < 5 * n; k++) v[k] = (double)(k % 97) * 0.5 - 7;
  ndt_array *x[5];
  for (int i = 0; i < 5; i++) x[i] = from_doubles(v + i * n, 1, s1, NDT_FLOAT64);
  ndt_array *ab = NULL, *cd = NULL, *sum = NULL, *r = NULL, *kept = NULL, *view, *r2 = NULL;
  OK(ndt_binary(&ab, NDT_MULTIPLY, x[0], x[1]));
  OK(ndt_binary(&cd, NDT_MULTIPLY, x[2], x[3]));
  OK(ndt_binary(&sum, NDT_ADD, ab, cd));
  ndt_free(cd);                 /* dropped: never written */
  OK(ndt_binary(&r, NDT_SUBTRACT, sum, x[4]));
  ndt_free(sum);
  kept = ab;                    /* kept: must be written */
  ndt_index rev = sl(-1, -n - 1, -1);
  OK(ndt_view_index(&view, r, 1, &rev));
  OK(ndt_binary(&r2, NDT_ADD, view, x[0]));  /* a view of a pending result */
  double *got = to_doubles(r), *gk = to_doubles(kept), *g2 = to_doubles(r2);
  int ok = 1;
  for (int64_t k = 0; k < n; k++) {
    double a = v[k], b = v[n + k], c = v[2 * n + k], d = v[3 * n + k], e = v[4 * n + k];
    ok &= got[k] == a * b + c * d - e && gk[k] == a * b;
    double rk = v[n - 1 - k] * v[2 * n - 1 - k] + v[3 * n - 1 - k] * v[4 * n - 1 - k] -
                v[5 * n - 1 - k];
    ok &= g2[k] == rk + a;
  }
  EXPECT(ok, "fused chain, kept intermediate, view of a pending result");
  free(got); free(gk); free(g2);
  /* mixed dtypes and a comparison inside a chain */
  ndt_array *f32 = NULL, *cmp = NULL, *w = NULL;
  OK(ndt_astype(&f32, x[1], NDT_FLOAT32, NDT_CAST_UNSAFE));
  OK(ndt_binary(&cmp, NDT_GREATER, x[0], f32));
  OK(ndt_where(&w, cmp, x[0], f32));
  ndt_free(cmp);
  double *gw = to_doubles(w);
  ok = ndt_dtype_of(w) == NDT_FLOAT64;
  for (int64_t k = 0; k < n; k++) ok &= gw[k] == fmax(v[k], (double)(float)v[n + k]);
  EXPECT(ok, "fused comparison and where with mixed dtypes");
  free(gw);
  /* ops into existing arrays join the group: a read before the write sees
   * the old values, a read after it the new ones; a reversed view of the
   * written array read earlier is not overwritten under it */
  ndt_array *before = NULL, *after = NULL, *rv = NULL, *old_rev = NULL, *dst = x[0];
  OK(ndt_binary(&before, NDT_MULTIPLY, x[0], x[1]));
  ndt_index rev2 = sl(-1, -n - 1, -1);
  OK(ndt_view_index(&rv, x[0], 1, &rev2));
  OK(ndt_unary(&old_rev, NDT_NEGATIVE, rv));
  OK(ndt_binary(&dst, NDT_ADD, x[0], x[2]));      /* x0 += x2 */
  OK(ndt_binary(&after, NDT_MULTIPLY, x[0], x[3]));
  dst = x[0];
  OK(ndt_binary(&dst, NDT_SUBTRACT, x[0], x[4]));  /* x0 -= x4 */
  double *gb = to_doubles(before), *ga = to_doubles(after), *gr = to_doubles(old_rev);
  double *g0 = to_doubles(x[0]);
  ok = 1;
  for (int64_t k = 0; k < n; k++) {
    double a = v[k], b = v[n + k], c = v[2 * n + k], d = v[3 * n + k], e = v[4 * n + k];
    ok &= gb[k] == a * b && ga[k] == (a + c) * d && g0[k] == a + c - e && gr[k] == -v[n - 1 - k];
  }
  EXPECT(ok, "fused in-place ops keep program order");
  free(gb); free(ga); free(gr); free(g0);
  ndt_free(before); ndt_free(after); ndt_free(rv); ndt_free(old_rev);
  ndt_free(f32); ndt_free(w);
  ndt_free(r); ndt_free(r2); ndt_free(view); ndt_free(kept);
  for (int i = 0; i < 5; i++) ndt_free(x[i]);
  free(v);
}

static void test_gather_bounds_and_errors(void);

static void test_search(void) {
  int64_t n = 3001, s1[1] = {n};
  double *v = malloc(sizeof(double) * n), *w = malloc(sizeof(double) * n);
  for (int64_t k = 0; k < n; k++) {
    v[k] = (double)((k * 7919) % 37);
    w[k] = 0.25 * (double)(k % 5);
  }
  ndt_array *x = from_doubles(v, 1, s1, NDT_INT32), *wx = from_doubles(w, 1, s1, NDT_FLOAT32);
  ndt_array *c, *cw;
  OK(ndt_bincount(&c, x, NULL, 40));
  OK(ndt_bincount(&cw, x, wx, 0));
  double *gc = to_doubles(c), *gw = to_doubles(cw);
  int ok = ndt_size(c) == 40 && ndt_size(cw) == 37 && ndt_dtype_of(c) == NDT_INT64 &&
           ndt_dtype_of(cw) == NDT_FLOAT64;
  for (int b = 0; b < 40 && ok; b++) {
    double cnt = 0, sw = 0;
    for (int64_t k = 0; k < n; k++)
      if (v[k] == b) { cnt++; sw += (double)(float)w[k]; }
    ok &= gc[b] == cnt && (b >= 37 || fabs(gw[b] - sw) < 1e-9);
  }
  EXPECT(ok, "bincount with minlength and weights");
  free(gc); free(gw); ndt_free(c); ndt_free(cw);
  /* negative values are refused */
  double neg[3] = {1, -1, 2};
  int64_t s3[1] = {3};
  ndt_array *xn = from_doubles(neg, 1, s3, NDT_INT64);
  EXPECT(ndt_bincount(&c, xn, NULL, 0) == NDT_ERR_VALUE, "bincount of negatives");
  ndt_free(xn);
  /* argwhere of a 3-d strided view, many tiles */
  int64_t shape[3] = {9, 31, 23};
  int64_t m = 9 * 31 * 23;
  double *u = malloc(sizeof(double) * m);
  for (int64_t k = 0; k < m; k++) u[k] = (k % 13 == 0 || k % 17 == 5) ? 1.5 : 0.0;
  ndt_array *a = from_doubles(u, 3, shape, NDT_FLOAT64), *view, *nz;
  ndt_index ix[3] = {sl(-1, -10, -2), all_(), sl(1, 23, 2)};
  OK(ndt_view_index(&view, a, 3, ix));
  OK(ndt_argwhere(&nz, view));
  int64_t cnt = 0;
  for (int i = 8, q = 0; i >= 0; i -= 2, q++)
    for (int j = 0; j < 31; j++)
      for (int k = 1; k < 23; k += 2) cnt += u[(i * 31 + j) * 23 + k] != 0;
  ok = ndt_ndim(nz) == 2 && ndt_shape(nz)[0] == cnt && ndt_shape(nz)[1] == 3;
  double *gz = to_doubles(nz);
  int64_t r = 0;
  for (int i = 8, q = 0; i >= 0 && ok; i -= 2, q++)
    for (int j = 0; j < 31; j++)
      for (int k = 1, kk = 0; k < 23; k += 2, kk++)
        if (u[(i * 31 + j) * 23 + k] != 0) {
          ok &= gz[r * 3] == q && gz[r * 3 + 1] == j && gz[r * 3 + 2] == kk;
          r++;
        }
  EXPECT(ok, "argwhere of a strided view in C order (%lld found)", (long long)cnt);
  free(gz);
  /* gather the non-zero elements back through the index columns */
  ndt_array *cols[3], *g;
  for (int k = 0; k < 3; k++) {
    ndt_index ck[2] = {all_(), {.kind = NDT_IDX_INT, .start = k}};
    OK(ndt_view_index(&cols[k], nz, 2, ck));
  }
  OK(ndt_gather(&g, view, (const ndt_array *const *)cols));
  double *gg = to_doubles(g);
  ok = ndt_size(g) == cnt;
  for (int64_t q = 0; q < cnt && ok; q++) ok = gg[q] == 1.5;
  EXPECT(ok, "gather by argwhere's columns returns the non-zero elements");
  free(gg);
  ndt_free(g);
  /* an index out of range is an IndexError at the next wait */
  double bad[2] = {0, 99};
  int64_t s2[1] = {2};
  ndt_array *bi = from_doubles(bad, 1, s2, NDT_INT64), *bcol[3] = {bi, bi, bi};
  ndt_status gs = ndt_gather(&g, view, (const ndt_array *const *)bcol);
  if (gs == NDT_OK) {
    gs = ndt_sync();
    ndt_free(g);
  }
  EXPECT(gs == NDT_ERR_INDEX, "gather out of range: %s", ndt_last_error());
  ndt_free(bi);
  /* sliced axes: r[i] = sm[5 - 2i, six[i]] (axis 0 a slice of step -2
   * following the result's axis 0, axis 1 indexed below a bound) */
  double mv[30], ixv[3] = {4, 0, 4};
  for (int q = 0; q < 30; q++) mv[q] = q;
  int64_t ms[2] = {6, 5}, is3[1] = {3};
  ndt_array *sm = from_doubles(mv, 2, ms, NDT_FLOAT64), *six = from_doubles(ixv, 1, is3, NDT_INT64);
  const ndt_array *sidx[2] = {NULL, six};
  int sax[2] = {0, 0};
  int64_t sst[2] = {5, 0}, ssp[2] = {-2, 0}, shi[2] = {6, 5};
  OK(ndt_gather_slices(&g, sm, 1, is3, sidx, sax, sst, ssp, shi));
  double *sg = to_doubles(g);
  EXPECT(ndt_size(g) == 3 && sg[0] == 29 && sg[1] == 15 && sg[2] == 9,
         "gather_slices: a sliced and an indexed axis");
  free(sg);
  ndt_free(g);
  sst[0] = 6;   /* the slice leaves the axis: refused */
  EXPECT(ndt_gather_slices(&g, sm, 1, is3, sidx, sax, sst, ssp, shi) == NDT_ERR_VALUE,
         "gather_slices: a slice out of range");
  sst[0] = 5;
  shi[1] = 4;   /* an index at its bound: out of bounds */
  gs = ndt_gather_slices(&g, sm, 1, is3, sidx, sax, sst, ssp, shi);
  if (gs == NDT_OK) {
    gs = ndt_sync();
    ndt_free(g);
  }
  EXPECT(gs == NDT_ERR_INDEX, "gather_slices: an index at its bound: %s", ndt_last_error());
  ndt_free(sm);
  ndt_free(six);
  test_gather_bounds_and_errors();
  for (int k = 0; k < 3; k++) ndt_free(cols[k]);
  ndt_free(nz); ndt_free(view); ndt_free(a); free(u);
  ndt_free(x); ndt_free(wx); free(v); free(w);
}

/* A gather of many blocks (512-byte tiles): each block's indices bound its
 * reads, the values are the source's; with bad indices in several blocks
 * the error names the first index array holding one and its first bad
 * index in C order, on every run (not whichever task failed first). */
static void test_gather_bounds_and_errors(void) {
  enum { N = 4096, M = 3000 };
  double *av = malloc(sizeof(double) * N), *iv = malloc(sizeof(double) * M);
  for (int q = 0; q < N; q++) av[q] = q * 0.5;
  for (int q = 0; q < M; q++) iv[q] = (q * 7) % 500 + (q / 100) * 100;   /* local indices */
  int64_t an[1] = {N}, im[1] = {M};
  ndt_array *a = from_doubles(av, 1, an, NDT_FLOAT64), *ix = from_doubles(iv, 1, im, NDT_INT64);
  ndt_array *g;
  const ndt_array *one[1] = {ix};
  OK(ndt_gather(&g, a, one));
  double *gv = to_doubles(g);
  int ok = ndt_size(g) == M;
  for (int q = 0; q < M && ok; q++) ok = gv[q] == iv[q] * 0.5;
  EXPECT(ok, "gather of many blocks with bounded indices");
  free(gv);
  ndt_free(g);
  ndt_free(ix);
  /* bad indices in three blocks: 5000 at 2100 comes first in C order */
  iv[2500] = -3;
  iv[2100] = 5000;
  iv[2999] = 9999;
  ix = from_doubles(iv, 1, im, NDT_INT64);
  one[0] = ix;
  for (int run = 0; run < 20; run++) {
    ndt_status gs = ndt_gather(&g, a, one);
    if (gs == NDT_OK) {
      gs = ndt_sync();
      ndt_free(g);
    }
    EXPECT(gs == NDT_ERR_INDEX &&
               strcmp(ndt_last_error(), "index 5000 is out of bounds for axis 0 with size 4096") == 0,
           "gather names the first bad index (run %d): %s", run, ndt_last_error());
  }
  /* two index arrays: the first one's bad index, though the second's
   * comes earlier in C order (NumPy checks them array by array) */
  int64_t ms[2] = {64, 64};
  ndt_array *m = from_doubles(av, 2, ms, NDT_FLOAT64);
  for (int q = 0; q < M; q++) iv[q] = q % 64;
  iv[10] = 64;
  iv[M - 1] = -1;
  ndt_array *i1 = from_doubles(iv, 1, im, NDT_INT64);
  iv[10] = 0;
  iv[M - 1] = 0;
  iv[1500] = 77;
  ndt_array *i0 = from_doubles(iv, 1, im, NDT_INT64);
  const ndt_array *two[2] = {i0, i1};
  for (int run = 0; run < 5; run++) {
    ndt_status gs = ndt_gather(&g, m, two);
    if (gs == NDT_OK) {
      gs = ndt_sync();
      ndt_free(g);
    }
    EXPECT(gs == NDT_ERR_INDEX &&
               strcmp(ndt_last_error(), "index 77 is out of bounds for axis 0 with size 64") == 0,
           "gather names the first index array's bad index (run %d): %s", run, ndt_last_error());
  }
  /* a bound below the axis (ndt_gather_slices' hi) is what the error names */
  int64_t hi1[1] = {3000};
  for (int q = 0; q < M; q++) iv[q] = q;
  iv[M - 1] = 3500;
  ndt_array *i2 = from_doubles(iv, 1, im, NDT_INT64);
  const ndt_array *three[1] = {i2};
  ndt_status gs = ndt_gather_slices(&g, a, 1, im, three, NULL, NULL, NULL, hi1);
  if (gs == NDT_OK) {
    gs = ndt_sync();
    ndt_free(g);
  }
  EXPECT(gs == NDT_ERR_INDEX &&
             strcmp(ndt_last_error(), "index 3500 is out of bounds for axis 0 with size 3000") == 0,
         "gather_slices names the bound: %s", ndt_last_error());
  ndt_free(i0);
  ndt_free(i1);
  ndt_free(i2);
  ndt_free(m);
  ndt_free(ix);
  ndt_free(a);
  free(av);
  free(iv);
}

/* Every allocation may fail: the call reports NOMEM, nothing crashes or leaks,
 * and earlier arrays stay valid. */
static void test_alloc_failures(void) {
  /* keep has the transpose's shape: once no allocation fails, the chain
   * below succeeds (with keep 50 x 40 it ended in a shape error, which only
   * went unseen while every n < 60 failed an allocation first) */
  int64_t shape[2] = {50, 40}, tshape[2] = {40, 50};
  ndt_array *keep;
  OK(ndt_ones(&keep, 2, tshape, NDT_FLOAT64));
  int failures = 0;
  for (int n = 1; n < 60; n++) {
    ndt_array *a = NULL, *b = NULL, *r = NULL, *t = NULL;
    ndt_debug_fail_alloc_after(n);
    ndt_status st = ndt_ones(&a, 2, shape, NDT_FLOAT64);
    if (st == NDT_OK) st = ndt_transpose(&t, a, NULL);
    if (st == NDT_OK) st = ndt_binary(&b, NDT_ADD, keep, t);
    if (st == NDT_OK) st = ndt_reduce(&r, NDT_RED_SUM, b, 1, 0, NDT_DTYPE_DEFAULT, 0);
    if (st == NDT_OK) st = ndt_sync();
    ndt_debug_fail_alloc_after(0);
    ndt_status s2 = ndt_sync();  /* a deferred failure surfaces here at the latest */
    if (st != NDT_OK || s2 != NDT_OK) {
      failures++;
      ndt_status e = st != NDT_OK ? st : s2;
      if (e != NDT_ERR_NOMEM)
        EXPECT(0, "failure %d reported as %s: %s", n, ndt_status_string(e), ndt_last_error());
    }
    ndt_free(a); ndt_free(b); ndt_free(r); ndt_free(t);
  }
  EXPECT(failures > 5, "allocation failures were injected (%d)", failures);
  /* A failure inside a deferred task (a gather of a transposed input) is
   * reported by the next call that waits, naming the operation. */
  int deferred_seen = 0;
  int64_t sq[2] = {64, 64};
  ndt_array *m, *mt;
  OK(ndt_ones(&m, 2, sq, NDT_FLOAT64));
  OK(ndt_transpose(&mt, m, NULL));
  OK(ndt_sync());
  for (int n = 1; n < 1000 && !deferred_seen; n++) {
    ndt_array *c = NULL;
    ndt_debug_fail_alloc_after(n);
    ndt_status st = ndt_binary(&c, NDT_ADD, m, mt);
    ndt_status s2 = ndt_sync();
    ndt_debug_fail_alloc_after(0);
    if (st == NDT_OK && s2 == NDT_ERR_NOMEM) {
      deferred_seen = 1;
      EXPECT(strncmp(ndt_last_error(), "add: ", 5) == 0, "deferred error names the op: %s",
             ndt_last_error());
      EXPECT(ndt_sync() == NDT_OK, "a deferred error is reported once");
    }
    ndt_free(c);
  }
  EXPECT(deferred_seen, "an allocation failed inside a deferred task");
  ndt_free(mt);
  ndt_free(m);
  ndt_array *s;
  double got;
  OK(ndt_reduce(&s, NDT_RED_SUM, keep, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_item(s, NDT_FLOAT64, &got));
  EXPECT(got == 2000, "earlier arrays stay valid after failures");
  ndt_free(s);
  ndt_free(keep);
}

/* The graph's own arrays (a tile's pending readers, a task's successors)
 * grow through ndt__realloc too: a failure there fails the call recording
 * the task with NOMEM, leaves the graph as it was, and the tasks recorded
 * before it still give their results. */
static void test_graph_alloc_failures(void) {
  int64_t n = 4096;   /* 64 tiles of 512 bytes */
  ndt_array *x;
  OK(ndt_ones(&x, 1, &n, NDT_FLOAT64));
  int failures = 0, at_record = 0, bad = 0;
  for (int k = 1; k < 400; k += 2) {
    ndt_array *r[24] = {0};
    OK(ndt_sync());
    ndt_debug_fail_alloc_after(k);
    ndt_status st = NDT_OK;
    /* reductions are not fused: each one records tasks reading every tile of
     * x, so its tiles' lists of pending readers grow while they wait */
    int i = 0;
    for (; i < 24 && st == NDT_OK; i++)
      st = ndt_reduce(&r[i], NDT_RED_SUM, x, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0);
    ndt_debug_fail_alloc_after(0);
    ndt_status s2 = ndt_sync();
    if (st != NDT_OK || s2 != NDT_OK) {
      failures++;
      at_record += st != NDT_OK;
      ndt_status e = st != NDT_OK ? st : s2;
      if (e != NDT_ERR_NOMEM) bad++;
    }
    for (int j = 0; j < 24; j++) {
      if (!r[j]) continue;
      double got = 0;
      if (s2 == NDT_OK && (ndt_item(r[j], NDT_FLOAT64, &got) != NDT_OK || got != 4096)) bad++;
      ndt_free(r[j]);
    }
  }
  EXPECT(bad == 0, "graph allocation failures are NOMEM and earlier results hold (%d bad)", bad);
  EXPECT(failures > 20 && at_record > 10, "allocation failures were injected (%d, %d while "
         "recording)", failures, at_record);
  ndt_free(x);
}

int main(void) {
  ndt_config cfg = {.workers = 2, .tile_bytes = 512, .inline_elems = 64};
  OK(ndt_init(&cfg));
  test_ranks();
  test_tiling();
  test_creation();
  test_buffers();
  test_views();
  test_elementwise();
  test_overlap();
  test_reductions();
  test_reproducible();
  test_runtime_chain();
  test_fusion();
  test_search();
  if (ndt_nranks() == 1) test_alloc_failures();  /* the hook counts this rank's allocations */
  if (ndt_nranks() == 1) test_graph_alloc_failures();
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
