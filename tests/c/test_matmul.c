/* test_matmul.c - matmul and dot against a naive triple loop computed here:
 * every dtype (integers wrap, bool is logical), mixed dtypes, 1-d operands,
 * stacked matrices with broadcasting, transposed / negative-step / .real
 * views, empty dimensions, out= (cast, strided, transposed, overlapping),
 * bitwise equality across 1, 2 and 4 workers, and NumPy's errors. A 512-byte
 * tile makes every multi-block path (packing, staging, batch groups, k
 * pieces) run on small data; a few products run with the default tiles, and
 * some on stores mapped in one piece (pieces in place across tiles). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"


static char kind(ndt_dtype t) {
  switch (t) {
    case NDT_BOOL: return 'b';
    case NDT_INT8: case NDT_INT16: case NDT_INT32: case NDT_INT64: return 'i';
    case NDT_UINT8: case NDT_UINT16: case NDT_UINT32: case NDT_UINT64: return 'u';
    case NDT_FLOAT32: case NDT_FLOAT64: return 'f';
    default: return 'c';
  }
}

/* ---- data ------------------------------------------------------------- */
static uint64_t rng = 88172645463325252ull;
static double urand(void) {  /* [0, 1) */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

/* A new array: integers in [-range, range] (range > 0; bool: 0/1) or
 * uniform reals in [-1, 1) (range == 0); complex types get imaginary parts. */
static ndt_array *make(ndt_dtype t, int ndim, const int64_t *shape, int range) {
  int64_t n = 1;
  for (int k = 0; k < ndim; k++) n *= shape[k];
  double *v = malloc(sizeof(double) * 2 * (n ? n : 1));
  for (int64_t i = 0; i < 2 * n; i++) {
    if (t == NDT_BOOL) v[i] = urand() < 0.5;
    else if (range > 0) v[i] = floor(urand() * (2 * range + 1)) - range;
    else v[i] = 2 * urand() - 1;
  }
  ndt_array *c, *r;
  OK(ndt_from_buffer(&c, NDT_COMPLEX128, ndim, shape, v, NULL));
  OK(ndt_astype(&r, c, t, NDT_CAST_UNSAFE));
  ndt_free(c);
  free(v);
  return r;
}

static ndt_array *make2(ndt_dtype t, int64_t r, int64_t c, int range) {
  int64_t s[2] = {r, c};
  return make(t, 2, s, range);
}

/* Raw C-order bytes of a view. */
static char *raw(const ndt_array *a) {
  size_t n = (size_t)ndt_size(a) * ndt_dtype_size(ndt_dtype_of(a));
  char *b = malloc(n ? n : 1);
  OK(ndt_to_buffer(a, b));
  return b;
}

typedef struct {
  double re, im;  /* float value */
  uint64_t u;     /* integer value (sign-extended), bool 0/1 */
} val;

static val get(ndt_dtype t, const char *p) {
  val v = {0, 0, 0};
  switch (t) {
#define I(T_, E_) case E_: { T_ x; memcpy(&x, p, sizeof x); v.u = (uint64_t)(int64_t)x; v.re = (double)x; break; }
#define U(T_, E_) case E_: { T_ x; memcpy(&x, p, sizeof x); v.u = (uint64_t)x; v.re = (double)x; break; }
    U(uint8_t, NDT_BOOL)
    I(int8_t, NDT_INT8) I(int16_t, NDT_INT16) I(int32_t, NDT_INT32) I(int64_t, NDT_INT64)
    U(uint8_t, NDT_UINT8) U(uint16_t, NDT_UINT16) U(uint32_t, NDT_UINT32) U(uint64_t, NDT_UINT64)
#undef I
#undef U
    case NDT_FLOAT32: { float x; memcpy(&x, p, 4); v.re = x; break; }
    case NDT_FLOAT64: memcpy(&v.re, p, 8); break;
    case NDT_COMPLEX64: { float x[2]; memcpy(x, p, 8); v.re = x[0]; v.im = x[1]; break; }
    case NDT_COMPLEX128: memcpy(&v.re, p, 8); memcpy(&v.im, p + 8, 8); break;
    default: break;
  }
  if (t == NDT_BOOL) v.u = v.u != 0;
  return v;
}

/* Integer value u truncated to dtype t, as raw bytes compared to p. */
static int int_matches(ndt_dtype t, uint64_t u, const char *p) {
  size_t sz = ndt_dtype_size(t);
  if (t == NDT_BOOL) return (uint8_t)*p == (u != 0);
  uint64_t got = 0;
  memcpy(&got, p, sz);  /* little endian */
  uint64_t mask = sz == 8 ? ~0ull : ((1ull << (8 * sz)) - 1);
  return (got & mask) == (u & mask);
}

/* The naive product of dense C-order a (an dims) and b with NumPy's matmul
 * semantics, in dtype ct: values and per-element scales (sum |a||b|). */
typedef struct {
  int nd;
  int64_t shape[32];
  int64_t n;
  val *v;
  double *scale;
} ref_t;

static void ref_matmul(ndt_dtype ta, int an, const int64_t *as, const char *ab, ndt_dtype tb,
                       int bn, const int64_t *bs, const char *bb, ndt_dtype ct, ref_t *r) {
  int64_t M = an >= 2 ? as[an - 2] : 1, K = as[an - 1], N = bn >= 2 ? bs[bn - 1] : 1;
  int al = an >= 2 ? an - 2 : 0, bl = bn >= 2 ? bn - 2 : 0, nl = al > bl ? al : bl;
  int64_t ls[32];
  for (int d = 0; d < nl; d++) {
    int ja = d - (nl - al), jb = d - (nl - bl);
    int64_t ea = ja >= 0 ? as[ja] : 1, eb = jb >= 0 ? bs[jb] : 1;
    ls[d] = ea == 1 ? eb : ea;
  }
  r->nd = 0;
  for (int d = 0; d < nl; d++) r->shape[r->nd++] = ls[d];
  if (an >= 2) r->shape[r->nd++] = M;
  if (bn >= 2) r->shape[r->nd++] = N;
  int64_t nb = 1;
  for (int d = 0; d < nl; d++) nb *= ls[d];
  r->n = nb * M * N;
  r->v = calloc((size_t)(r->n ? r->n : 1), sizeof(val));
  r->scale = calloc((size_t)(r->n ? r->n : 1), sizeof(double));
  size_t sa = ndt_dtype_size(ta), sb = ndt_dtype_size(tb);
  char ck = kind(ct);
  for (int64_t bi = 0; bi < nb; bi++) {
    /* offsets (in matrices) of A and B for this batch */
    int64_t rem = bi, qa = 0, qb = 0, ma = 1, mb = 1;
    for (int d = nl - 1; d >= 0; d--) {
      int64_t i = rem % ls[d];
      rem /= ls[d];
      int ja = d - (nl - al), jb = d - (nl - bl);
      if (ja >= 0) {
        if (as[ja] > 1) qa += i * ma;
        ma *= as[ja];
      }
      if (jb >= 0) {
        if (bs[jb] > 1) qb += i * mb;
        mb *= bs[jb];
      }
    }
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) {
        val acc = {0, 0, 0};
        double sc = 0;
        for (int64_t k = 0; k < K; k++) {
          val x = get(ta, ab + ((qa * M + i) * K + k) * sa);
          val y = get(tb, bb + ((qb * K + k) * N + j) * sb);
          if (ck == 'b') acc.u |= (x.u && y.u);
          else if (ck == 'i' || ck == 'u') acc.u += x.u * y.u;
          else {
            acc.re += x.re * y.re - x.im * y.im;
            acc.im += x.re * y.im + x.im * y.re;
            sc += hypot(x.re, x.im) * hypot(y.re, y.im);
          }
        }
        r->v[(bi * M + i) * N + j] = acc;
        r->scale[(bi * M + i) * N + j] = sc;
      }
  }
}

/* Compares res (dtype rt) to the reference computed in ct. */
static int compare(const ref_t *r, ndt_dtype ct, const ndt_array *res, const char *what) {
  ndt_dtype rt = ndt_dtype_of(res);
  int ok = ndt_ndim(res) == r->nd;
  for (int k = 0; ok && k < r->nd; k++) ok = ndt_shape(res)[k] == r->shape[k];
  if (!ok) {
    fprintf(stderr, "  %s: shape mismatch (ndim %d vs %d)\n", what, ndt_ndim(res), r->nd);
    return 0;
  }
  char *got = raw(res);
  size_t sz = ndt_dtype_size(rt);
  double tol = (rt == NDT_FLOAT32 || rt == NDT_COMPLEX64 || ct == NDT_FLOAT32 ||
                ct == NDT_COMPLEX64) ? 2e-6 : 1e-13;
  for (int64_t e = 0; e < r->n && ok; e++) {
    const char *p = got + e * sz;
    char ck = kind(ct);
    if (ck == 'b' || ck == 'i' || ck == 'u') {
      ok = int_matches(rt, r->v[e].u, p);
    } else {
      val g = get(rt, p);
      double lim = tol * (r->scale[e] + 1e-300) + 1e-300;
      ok = fabs(g.re - r->v[e].re) <= lim &&
           (kind(rt) != 'c' || fabs(g.im - r->v[e].im) <= lim);
    }
    if (!ok) fprintf(stderr, "  %s: element %lld differs\n", what, (long long)e);
  }
  free(got);
  return ok;
}

static void free_ref(ref_t *r) {
  free(r->v);
  free(r->scale);
}

/* matmul(a, b) (into *outp when given) against the reference. */
static void check(const char *what, const ndt_array *a, const ndt_array *b, ndt_array *outv) {
  char *ab = raw(a), *bb = raw(b);
  ndt_dtype ct = ndt_promote(ndt_dtype_of(a), 0, ndt_dtype_of(b), 0);
  ref_t r;
  ref_matmul(ndt_dtype_of(a), ndt_ndim(a), ndt_shape(a), ab, ndt_dtype_of(b), ndt_ndim(b),
             ndt_shape(b), bb, ct, &r);
  ndt_array *res = outv;
  ndt_status st = ndt_matmul(&res, a, b);
  if (st != NDT_OK) {
    EXPECT(0, "%s: matmul failed: %s", what, ndt_last_error());
  } else {
    EXPECT(res == outv || outv == NULL, "%s: out handle changed", what);
    if (!outv)
      EXPECT(ndt_dtype_of(res) == ct, "%s: dtype %s, want %s", what,
             ndt_dtype_name(ndt_dtype_of(res)), ndt_dtype_name(ct));
    EXPECT(compare(&r, ct, res, what), "%s: values (%s)", what, ndt_dtype_name(ct));
    if (!outv) ndt_free(res);
  }
  free_ref(&r);
  free(ab);
  free(bb);
}

static ndt_array *T(const ndt_array *a) {
  ndt_array *t;
  OK(ndt_transpose(&t, a, NULL));
  return t;
}

static ndt_index sl(int64_t start, int64_t stop, int64_t step, int hs, int he) {
  ndt_index i = {NDT_IDX_SLICE, start, stop, step, hs, he};
  return i;
}

static ndt_array *view2(const ndt_array *a, ndt_index i0, ndt_index i1) {
  ndt_index idx[2] = {i0, i1};
  ndt_array *v;
  OK(ndt_view_index(&v, a, 2, idx));
  return v;
}

/* ---- tests ------------------------------------------------------------ */
static void test_dtypes(void) {
  for (int t = 0; t < NALL; t++) {
    ndt_dtype dt = ALL[t];
    int range = (dt == NDT_FLOAT32 || dt == NDT_COMPLEX64) ? 20 : 100;
    char what[80];
    ndt_array *a = make2(dt, 9, 13, range), *b = make2(dt, 13, 11, range);
    snprintf(what, sizeof what, "2-d %s", ndt_dtype_name(dt));
    check(what, a, b, NULL);
    /* larger: several row blocks, packed B, k pieces */
    ndt_array *a2 = make2(dt, 37, 45, range), *b2 = make2(dt, 45, 29, range);
    snprintf(what, sizeof what, "multi-block %s", ndt_dtype_name(dt));
    check(what, a2, b2, NULL);
    /* one row block, many column blocks: staging */
    ndt_array *a3 = make2(dt, 3, 40, range), *b3 = make2(dt, 40, 90, range);
    snprintf(what, sizeof what, "wide %s", ndt_dtype_name(dt));
    check(what, a3, b3, NULL);
    /* transposed operands */
    ndt_array *at = T(a2), *bt = T(b2), *att = T(at);
    snprintf(what, sizeof what, "b.T @ a.T %s", ndt_dtype_name(dt));
    check(what, bt, at, NULL);
    /* wide with a column-major A: A packed column-major */
    ndt_array *a4 = make2(dt, 40, 3, range), *a4t = T(a4);
    snprintf(what, sizeof what, "wide a.T %s", ndt_dtype_name(dt));
    check(what, a4t, b3, NULL);
    ndt_free(a4);
    ndt_free(a4t);
    ndt_free(a);
    ndt_free(b);
    ndt_free(a2);
    ndt_free(b2);
    ndt_free(a3);
    ndt_free(b3);
    ndt_free(at);
    ndt_free(bt);
    ndt_free(att);
  }
}

static void test_mixed(void) {
  ndt_dtype pairs[][2] = {{NDT_INT32, NDT_FLOAT32}, {NDT_INT64, NDT_UINT64},
                          {NDT_BOOL, NDT_INT8},     {NDT_FLOAT32, NDT_COMPLEX64},
                          {NDT_UINT8, NDT_INT8},    {NDT_FLOAT32, NDT_FLOAT64},
                          {NDT_BOOL, NDT_FLOAT64},  {NDT_INT16, NDT_COMPLEX128}};
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
    ndt_array *a = make2(pairs[p][0], 21, 17, 9), *b = make2(pairs[p][1], 17, 19, 9);
    char what[80];
    snprintf(what, sizeof what, "mixed %s @ %s", ndt_dtype_name(pairs[p][0]),
             ndt_dtype_name(pairs[p][1]));
    check(what, a, b, NULL);
    ndt_free(a);
    ndt_free(b);
  }
  /* promotion results */
  ndt_array *a = make2(NDT_INT64, 2, 3, 3), *b = make2(NDT_UINT64, 3, 2, 3), *r = NULL;
  OK(ndt_matmul(&r, a, b));
  EXPECT(ndt_dtype_of(r) == NDT_FLOAT64, "int64 @ uint64 -> %s", ndt_dtype_name(ndt_dtype_of(r)));
  ndt_free(r);
  ndt_free(a);
  ndt_free(b);
}

static void test_vectors(void) {
  ndt_dtype dts[] = {NDT_FLOAT64, NDT_INT32, NDT_COMPLEX64, NDT_BOOL};
  for (int t = 0; t < 4; t++) {
    ndt_dtype dt = dts[t];
    int64_t k = 23;
    ndt_array *v = make(dt, 1, &k, 7), *w = make(dt, 1, &k, 7);
    ndt_array *A = make2(dt, 17, 23, 7), *B = make2(dt, 23, 19, 7);
    int64_t s3[3] = {4, 6, 23}, s3b[3] = {3, 23, 5};
    ndt_array *A3 = make(dt, 3, s3, 7), *B3 = make(dt, 3, s3b, 7);
    check("vec @ vec", v, w, NULL);
    check("vec @ mat", v, B, NULL);
    check("mat @ vec", A, w, NULL);
    check("stack @ vec", A3, w, NULL);
    check("vec @ stack", v, B3, NULL);
    ndt_array *r = NULL;
    OK(ndt_matmul(&r, v, w));
    EXPECT(ndt_ndim(r) == 0, "vec @ vec is 0-d (ndim %d)", ndt_ndim(r));
    ndt_free(r);
    r = NULL;
    OK(ndt_matmul(&r, v, B));
    EXPECT(ndt_ndim(r) == 1 && ndt_shape(r)[0] == 19, "vec @ mat shape");
    ndt_free(r);
    ndt_free(v);
    ndt_free(w);
    ndt_free(A);
    ndt_free(B);
    ndt_free(A3);
    ndt_free(B3);
  }
}

static void test_batched(void) {
  ndt_dtype dts[] = {NDT_FLOAT64, NDT_FLOAT32, NDT_INT64, NDT_COMPLEX128, NDT_UINT16};
  for (int t = 0; t < 5; t++) {
    ndt_dtype dt = dts[t];
    int64_t sa[4] = {2, 1, 5, 7}, sb[3] = {3, 7, 6};
    ndt_array *a = make(dt, 4, sa, 5), *b = make(dt, 3, sb, 5);
    check("(2,1,5,7) @ (3,7,6)", a, b, NULL);
    int64_t sc[3] = {4, 9, 8}, sd[2] = {8, 10};
    ndt_array *c = make(dt, 3, sc, 5), *d = make(dt, 2, sd, 5);
    check("(4,9,8) @ (8,10)", c, d, NULL);
    int64_t se[2] = {9, 8}, sf[3] = {3, 8, 10};
    ndt_array *e = make(dt, 2, se, 5), *f = make(dt, 3, sf, 5);
    check("(9,8) @ (3,8,10)", e, f, NULL);
    /* many small matrices: grouped into tasks */
    int64_t sg[3] = {200, 3, 4}, sh[3] = {200, 4, 2};
    ndt_array *g = make(dt, 3, sg, 5), *h = make(dt, 3, sh, 5);
    check("(200,3,4) @ (200,4,2)", g, h, NULL);
    /* large broadcast operand, several row blocks: packed A and B */
    int64_t si[3] = {3, 30, 40}, sj[2] = {40, 33};
    ndt_array *i = make(dt, 3, si, 5), *j = make(dt, 2, sj, 5);
    check("(3,30,40) @ (40,33)", i, j, NULL);
    ndt_array *jt = T(j);
    ndt_array *jtt = T(jt);
    check("(3,30,40) @ (40,33).T.T", i, jtt, NULL);
    ndt_free(a); ndt_free(b); ndt_free(c); ndt_free(d); ndt_free(e); ndt_free(f);
    ndt_free(g); ndt_free(h); ndt_free(i); ndt_free(j); ndt_free(jt); ndt_free(jtt);
  }
}

static void test_views(void) {
  ndt_dtype dts[] = {NDT_FLOAT64, NDT_FLOAT32, NDT_INT32, NDT_COMPLEX64, NDT_COMPLEX128};
  for (int t = 0; t < 5; t++) {
    ndt_dtype dt = dts[t];
    ndt_array *a = make2(dt, 40, 50, 5), *b = make2(dt, 60, 45, 5);
    /* a[::-1, ::2] (40 x 25) @ b[::2, 3:40] (30 x 37)? need K match: 25 */
    ndt_array *av = view2(a, sl(0, 0, -1, 0, 0), sl(0, 0, 2, 0, 0));
    ndt_array *bv = view2(b, sl(1, 51, 2, 1, 1), sl(40, 3, -1, 1, 1));
    check("a[::-1, ::2] @ b[1:51:2, 40:3:-1]", av, bv, NULL);
    ndt_array *bt = T(b);   /* 45 x 60 */
    ndt_array *at = T(a);   /* 50 x 40 */
    ndt_array *btv = view2(bt, sl(0, 0, 1, 0, 0), sl(0, 50, 1, 0, 1));  /* 45 x 50 */
    check("b.T[:, :50] @ a.T", btv, at, NULL);
    check("a.T @ a", at, a, NULL);
    ndt_free(av); ndt_free(bv); ndt_free(bt); ndt_free(at); ndt_free(btv);
    ndt_free(a); ndt_free(b);
  }
  /* .real and .imag of complex arrays (strided float views) */
  ndt_array *z = make2(NDT_COMPLEX128, 30, 30, 5), *re, *im;
  OK(ndt_real(&re, z));
  OK(ndt_imag(&im, z));
  check("z.real @ z.imag", re, im, NULL);
  ndt_array *imt = T(im);
  check("z.real @ z.imag.T", re, imt, NULL);
  ndt_free(imt); ndt_free(re); ndt_free(im); ndt_free(z);
  /* broadcast (zero-stride) operand */
  int64_t k = 12, bs[2] = {7, 12};
  ndt_array *v = make(NDT_FLOAT64, 1, &k, 5), *bv, *m = make2(NDT_FLOAT64, 12, 5, 5);
  OK(ndt_broadcast_to(&bv, v, 2, bs));
  check("broadcast_to(v, (7,12)) @ m", bv, m, NULL);
  ndt_free(v); ndt_free(bv); ndt_free(m);
}

static void test_empty(void) {
  ndt_dtype dts[] = {NDT_FLOAT64, NDT_INT16, NDT_BOOL, NDT_COMPLEX64};
  for (int t = 0; t < 4; t++) {
    ndt_dtype dt = dts[t];
    ndt_array *a = make2(dt, 0, 5, 3), *b = make2(dt, 5, 3, 3);
    check("(0,5) @ (5,3)", a, b, NULL);
    ndt_array *c = make2(dt, 4, 0, 3), *d = make2(dt, 0, 3, 3);
    check("(4,0) @ (0,3) is zeros", c, d, NULL);
    ndt_array *e = make2(dt, 4, 5, 3), *f = make2(dt, 5, 0, 3);
    check("(4,5) @ (5,0)", e, f, NULL);
    int64_t sg[3] = {0, 4, 5};
    ndt_array *g = make(dt, 3, sg, 3);
    check("(0,4,5) @ (5,3)", g, b, NULL);
    int64_t z = 0;
    ndt_array *v = make(dt, 1, &z, 3), *w = make(dt, 1, &z, 3);
    check("(0,) @ (0,)", v, w, NULL);
    /* k = 0 into an existing array of ones gives zeros */
    int64_t s43[2] = {4, 3};
    ndt_array *o;
    OK(ndt_ones(&o, 2, s43, dt));
    check("(4,0) @ (0,3) into ones", c, d, o);
    ndt_free(o);
    ndt_free(a); ndt_free(b); ndt_free(c); ndt_free(d); ndt_free(e); ndt_free(f);
    ndt_free(g); ndt_free(v); ndt_free(w);
  }
}

static void test_out(void) {
  ndt_array *a = make2(NDT_FLOAT64, 31, 27, 5), *b = make2(NDT_FLOAT64, 27, 23, 5);
  int64_t s[2] = {31, 23};
  ndt_array *o;
  OK(ndt_empty(&o, 2, s, NDT_FLOAT64));
  check("out= same dtype", a, b, o);
  ndt_free(o);
  OK(ndt_empty(&o, 2, s, NDT_FLOAT32));
  check("out= float32 (cast)", a, b, o);
  ndt_free(o);
  OK(ndt_empty(&o, 2, s, NDT_COMPLEX128));
  check("out= complex128 (cast)", a, b, o);
  ndt_free(o);
  /* strided view out: big[::2, 1::2] */
  int64_t bs[2] = {62, 47};
  ndt_array *big, *ov;
  OK(ndt_zeros(&big, 2, bs, NDT_FLOAT64));
  ov = view2(big, sl(0, 0, 2, 0, 0), sl(1, 0, 2, 1, 0));
  check("out= strided view", a, b, ov);
  ndt_free(ov);
  ndt_free(big);
  /* transposed out: C^T storage */
  int64_t ts[2] = {23, 31};
  ndt_array *ot, *otT;
  OK(ndt_zeros(&ot, 2, ts, NDT_FLOAT64));
  otT = T(ot);
  check("out= transposed view", a, b, otT);
  ndt_free(otT);
  ndt_free(ot);
  /* extra batch dim in out */
  int64_t s3[3] = {3, 31, 23};
  OK(ndt_empty(&o, 3, s3, NDT_FLOAT64));
  ndt_array *r = o;
  OK(ndt_matmul(&r, a, b));
  ndt_array *ref = NULL;
  OK(ndt_matmul(&ref, a, b));
  {
    char *x = raw(o), *y = raw(ref);
    int same = 1;
    for (int q = 0; q < 3; q++) same &= !memcmp(x + q * 31 * 23 * 8, y, 31 * 23 * 8);
    EXPECT(same, "out with extra batch dim gets the product in every batch");
    free(x);
    free(y);
  }
  ndt_free(ref);
  ndt_free(o);
  /* wide products (column blocks, staged) into cast and transposed outs */
  {
    ndt_array *wa = make2(NDT_FLOAT64, 3, 40, 5), *wb = make2(NDT_FLOAT64, 40, 90, 5);
    int64_t ws[2] = {3, 90}, wts[2] = {90, 3};
    ndt_array *wo, *wt, *wtT;
    OK(ndt_empty(&wo, 2, ws, NDT_FLOAT32));
    check("wide into float32 out", wa, wb, wo);
    ndt_free(wo);
    OK(ndt_zeros(&wt, 2, wts, NDT_FLOAT64));
    wtT = T(wt);
    check("wide into transposed out", wa, wb, wtT);
    ndt_free(wtT);
    ndt_free(wt);
    ndt_array *ia2 = make2(NDT_INT16, 3, 40, 9), *ib2 = make2(NDT_UINT8, 40, 90, 9);
    OK(ndt_empty(&wo, 2, ws, NDT_INT64));
    check("wide int16 @ uint8 into int64 out", ia2, ib2, wo);
    ndt_free(wo);
    ndt_free(ia2);
    ndt_free(ib2);
    ndt_free(wa);
    ndt_free(wb);
  }
  /* int product into a narrower int out (same_kind allows) */
  ndt_array *ia = make2(NDT_INT64, 9, 8, 50), *ib = make2(NDT_INT64, 8, 7, 50);
  int64_t is[2] = {9, 7};
  OK(ndt_empty(&o, 2, is, NDT_INT8));
  check("int64 product into int8 out", ia, ib, o);
  ndt_free(o);
  /* errors (NumPy's order: the output's cast before any dimension) */
  OK(ndt_empty(&o, 2, is, NDT_INT64));
  r = o;
  EXPECT(ndt_matmul(&r, a, b) == NDT_ERR_CAST, "cast before core mismatch: %s", ndt_last_error());
  ndt_free(o);
  OK(ndt_empty(&o, 2, is, NDT_FLOAT64));
  r = o;
  EXPECT(ndt_matmul(&r, a, b) == NDT_ERR_VALUE &&
             !strcmp(ndt_last_error(), "matmul: Output operand 0 has a mismatch in its core "
                     "dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 9 is "
                     "different from 31)"),
         "out core mismatch: %s", ndt_last_error());
  ndt_free(o);
  OK(ndt_empty(&o, 2, s, NDT_INT64));
  r = o;
  EXPECT(ndt_matmul(&r, a, b) == NDT_ERR_CAST &&
             !strcmp(ndt_last_error(), "Cannot cast ufunc 'matmul' output from dtype('float64') "
                     "to dtype('int64') with casting rule 'same_kind'"),
         "out cast: %s", ndt_last_error());
  ndt_free(o);
  int64_t s1[3] = {1, 31, 23};
  int64_t sa3[3] = {2, 31, 27};
  ndt_array *a3 = make(NDT_FLOAT64, 3, sa3, 3);
  OK(ndt_empty(&o, 3, s1, NDT_FLOAT64));
  r = o;
  EXPECT(ndt_matmul(&r, a3, b) == NDT_ERR_SHAPE, "out may not broadcast: %s", ndt_last_error());
  ndt_free(o);
  int64_t one = 23;
  OK(ndt_empty(&o, 1, &one, NDT_FLOAT64));
  r = o;
  EXPECT(ndt_matmul(&r, a, b) == NDT_ERR_VALUE &&
             !strcmp(ndt_last_error(), "matmul: Output operand 0 does not have enough "
                     "dimensions (has 1, gufunc core with signature (n?,k),(k,m?)->(n?,m?) "
                     "requires 2)"),
         "out too few dims: %s", ndt_last_error());
  ndt_free(o);
  /* overlap: a = a @ sq (square), out is an input */
  ndt_array *sq = make2(NDT_FLOAT64, 27, 27, 3), *x = make2(NDT_FLOAT64, 31, 27, 3);
  check("x = x @ sq (out overlaps input)", x, sq, x);
  ndt_array *y = make2(NDT_FLOAT64, 27, 27, 3);
  check("y = sq @ y", sq, y, y);
  ndt_free(sq); ndt_free(x); ndt_free(y);
  ndt_free(a3); ndt_free(ia); ndt_free(ib); ndt_free(a); ndt_free(b);
}

static void test_errors(void) {
  double one = 1;
  ndt_array *s, *v = make2(NDT_FLOAT64, 2, 3, 3), *w = make2(NDT_FLOAT64, 4, 5, 3), *r = NULL;
  OK(ndt_scalar(&s, NDT_FLOAT64, &one, 0));
  EXPECT(ndt_matmul(&r, s, v) == NDT_ERR_VALUE &&
             !strcmp(ndt_last_error(), "matmul: Input operand 0 does not have enough dimensions "
                     "(has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"),
         "0-d a: %s", ndt_last_error());
  EXPECT(ndt_matmul(&r, v, s) == NDT_ERR_VALUE &&
             !strcmp(ndt_last_error(), "matmul: Input operand 1 does not have enough dimensions "
                     "(has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"),
         "0-d b: %s", ndt_last_error());
  EXPECT(ndt_matmul(&r, v, w) == NDT_ERR_VALUE &&
             !strcmp(ndt_last_error(), "matmul: Input operand 1 has a mismatch in its core "
                     "dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is "
                     "different from 3)"),
         "core mismatch: %s", ndt_last_error());
  int64_t k3 = 3, k4 = 4;
  ndt_array *v3 = make(NDT_FLOAT64, 1, &k3, 3), *v4 = make(NDT_FLOAT64, 1, &k4, 3);
  EXPECT(ndt_matmul(&r, v3, v4) == NDT_ERR_VALUE &&
             strstr(ndt_last_error(), "(size 4 is different from 3)"),
         "vector mismatch: %s", ndt_last_error());
  int64_t sa[3] = {2, 2, 3}, sb[3] = {3, 3, 4};
  ndt_array *a3 = make(NDT_FLOAT64, 3, sa, 3), *b3 = make(NDT_FLOAT64, 3, sb, 3);
  EXPECT(ndt_matmul(&r, a3, b3) == NDT_ERR_SHAPE &&
             !strcmp(ndt_last_error(), "operands could not be broadcast together with remapped "
                     "shapes [original->remapped]: (2,2,3)->(2,newaxis,newaxis) "
                     "(3,3,4)->(3,newaxis,newaxis)  and requested shape (2,4)"),
         "batch broadcast: %s", ndt_last_error());
  EXPECT(r == NULL, "no output on error");
  ndt_free(s); ndt_free(v); ndt_free(w); ndt_free(v3); ndt_free(v4); ndt_free(a3); ndt_free(b3);
}

/* The same product with 1, 2 and 4 workers has the same bits. */
static void test_reproducible(void) {
  struct { ndt_dtype t; int an; int64_t as[3]; int bn; int64_t bs[3]; } cases[] = {
      {NDT_FLOAT64, 2, {90, 110}, 2, {110, 70}},
      {NDT_FLOAT32, 2, {64, 300}, 2, {300, 50}},
      {NDT_FLOAT64, 2, {4, 120}, 2, {120, 200}},     /* staging */
      {NDT_COMPLEX128, 3, {3, 20, 40}, 2, {40, 30}},
      {NDT_COMPLEX64, 3, {50, 6, 40}, 3, {50, 40, 5}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    ndt_array *a = make(cases[c].t, cases[c].an, cases[c].as, 0);
    ndt_array *b = make(cases[c].t, cases[c].bn, cases[c].bs, 0);
    ndt_array *bt = T(b), *btt = T(bt);
    char *first = NULL, *first_t = NULL;
    size_t bytes = 0;
    int same = 1, all_ok = 1;
    int ws[3] = {1, 2, 4};
    for (int wi = 0; wi < 3; wi++) {
      OK(ndt_set_workers(ws[wi]));
      ndt_array *r = NULL, *rt = NULL;
      OK(ndt_matmul(&r, a, b));
      OK(ndt_matmul(&rt, a, btt));
      bytes = (size_t)ndt_size(r) * ndt_dtype_size(ndt_dtype_of(r));
      char *x = raw(r), *y = raw(rt);
      if (!first) {
        first = x;
        first_t = y;
        char *ab = raw(a), *bb = raw(b);
        ref_t ref;
        ref_matmul(cases[c].t, cases[c].an, cases[c].as, ab, cases[c].t, cases[c].bn,
                   cases[c].bs, bb, cases[c].t, &ref);
        all_ok = compare(&ref, cases[c].t, r, "reproducible case");
        free_ref(&ref);
        free(ab);
        free(bb);
      } else {
        same &= !memcmp(first, x, bytes) && !memcmp(first_t, y, bytes);
        free(x);
        free(y);
      }
      ndt_free(r);
      ndt_free(rt);
    }
    EXPECT(all_ok, "reproducible case %zu values", c);
    EXPECT(same, "case %zu: same bits for 1, 2 and 4 workers", c);
    free(first);
    free(first_t);
    ndt_free(a); ndt_free(b); ndt_free(bt); ndt_free(btt);
  }
  OK(ndt_set_workers(2));
}

static void test_default_tiles(void) {
  int64_t tb = ndt_tile_bytes();
  OK(ndt_set_tile_bytes(2 << 20));
  ndt_array *a = make2(NDT_FLOAT64, 600, 300, 0), *b = make2(NDT_FLOAT64, 300, 650, 0);
  check("600x300 @ 300x650 (default tiles)", a, b, NULL);
  ndt_array *at = T(a), *att = NULL;
  OK(ndt_copy(&att, at));  /* 300 x 600 C-order; its .T is column-major */
  ndt_array *attT = T(att);
  check("column-major operand (default tiles)", attT, b, NULL);
  ndt_array *f = make2(NDT_FLOAT32, 8, 400, 0), *g = make2(NDT_FLOAT32, 400, 17000, 0);
  check("8x400 @ 400x17000 float32 (wide, default tiles)", f, g, NULL);
  ndt_array *i = make2(NDT_INT32, 150, 160, 100), *j = make2(NDT_INT32, 160, 170, 100);
  check("int32 150x160 @ 160x170 (default tiles)", i, j, NULL);
  ndt_free(a); ndt_free(b); ndt_free(at); ndt_free(att); ndt_free(attT);
  ndt_free(f); ndt_free(g); ndt_free(i); ndt_free(j);
  OK(ndt_set_tile_bytes(tb));
}

/* Stores of 4 MiB or more (ndt__alloc_data_run) are mapped in one piece,
 * and matmul reads and writes pieces that cross their tiles in place: row blocks of A and C across tiles, a column-major A (the
 * transpose of such a store) and a long K of B. Values against the
 * reference, bits alike for 1, 2 and 4 workers. */
static void test_adjacent_tiles(void) {
  if (ndt_nranks() > 1) return;  /* one process only: many ranks allocate tile by tile */
  int64_t tb = ndt_tile_bytes();
  OK(ndt_set_tile_bytes(2 << 20));
  /* 69632 x 64 float64: 4096 rows (2 MiB) a tile, 17 tiles, 34 MiB */
  ndt_array *x = make2(NDT_FLOAT64, 69632, 64, 0), *w = make2(NDT_FLOAT64, 64, 64, 0);
  ndt_array *xt = T(x);
  check("69632x64 @ 64x64 (A and C across adjacent tiles)", x, w, NULL);
  check("x.T @ x (column-major A, K across adjacent tiles)", xt, x, NULL);
  const ndt_array *pa[2] = {x, xt}, *pb[2] = {w, x};
  for (int c = 0; c < 2; c++) {
    char *first = NULL;
    size_t bytes = 0;
    int same = 1, ws[3] = {1, 2, 4};
    for (int wi = 0; wi < 3; wi++) {
      OK(ndt_set_workers(ws[wi]));
      ndt_array *r = NULL;
      OK(ndt_matmul(&r, pa[c], pb[c]));
      bytes = (size_t)ndt_size(r) * 8;
      char *v = raw(r);
      if (!first) first = v;
      else {
        same &= !memcmp(first, v, bytes);
        free(v);
      }
      ndt_free(r);
    }
    EXPECT(same, "adjacent tiles case %d: same bits for 1, 2 and 4 workers", c);
    free(first);
  }
  OK(ndt_set_workers(2));
  ndt_free(x); ndt_free(w); ndt_free(xt);
  OK(ndt_set_tile_bytes(tb));
}

/* dot against matmul-based references. */
static void test_dot(void) {
  ndt_array *a = make2(NDT_FLOAT64, 5, 6, 5), *b = make2(NDT_FLOAT64, 6, 4, 5), *r = NULL, *m = NULL;
  OK(ndt_dot(&r, a, b));
  OK(ndt_matmul(&m, a, b));
  char *x = raw(r), *y = raw(m);
  EXPECT(!memcmp(x, y, 5 * 4 * 8), "dot 2-d = matmul");
  free(x); free(y);
  ndt_free(r); ndt_free(m);
  r = NULL;
  /* N-d: (2,3,6) . (4,6,5) -> (2,3,4,5) */
  int64_t sa[3] = {2, 3, 6}, sb[3] = {4, 6, 5};
  ndt_array *A = make(NDT_INT64, 3, sa, 9), *B = make(NDT_INT64, 3, sb, 9);
  OK(ndt_dot(&r, A, B));
  int ok = ndt_ndim(r) == 4 && ndt_shape(r)[0] == 2 && ndt_shape(r)[1] == 3 &&
           ndt_shape(r)[2] == 4 && ndt_shape(r)[3] == 5;
  EXPECT(ok, "dot N-d shape");
  if (ok) {
    int64_t *av = (int64_t *)raw(A), *bv = (int64_t *)raw(B), *rv = (int64_t *)raw(r);
    int good = 1;
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 4; j++)
        for (int n = 0; n < 5; n++) {
          int64_t s = 0;
          for (int k = 0; k < 6; k++) s += av[i * 6 + k] * bv[(j * 6 + k) * 5 + n];
          good &= rv[(i * 4 + j) * 5 + n] == s;
        }
    EXPECT(good, "dot N-d values");
    free(av); free(bv); free(rv);
  }
  ndt_free(r);
  r = NULL;
  /* 0-d operand multiplies */
  double two = 2;
  ndt_array *s;
  OK(ndt_scalar(&s, NDT_FLOAT64, &two, 0));
  OK(ndt_dot(&r, s, a));
  EXPECT(ndt_ndim(r) == 2 && ndt_shape(r)[0] == 5, "dot with 0-d");
  ndt_free(r);
  r = NULL;
  /* mismatch message */
  ndt_array *w = make2(NDT_FLOAT64, 4, 5, 3);
  EXPECT(ndt_dot(&r, a, w) == NDT_ERR_VALUE &&
             !strcmp(ndt_last_error(), "shapes (5,6) and (4,5) not aligned: 6 (dim 1) != 4 (dim 0)"),
         "dot mismatch: %s", ndt_last_error());
  int64_t s3[3] = {2, 3, 4}, s5[3] = {5, 3, 6};
  ndt_array *p = make(NDT_FLOAT64, 3, s3, 3), *q = make(NDT_FLOAT64, 3, s5, 3);
  EXPECT(ndt_dot(&r, p, q) == NDT_ERR_VALUE &&
             !strcmp(ndt_last_error(), "shapes (2,3,4) and (5,3,6) not aligned: 4 (dim 2) != 3 (dim 1)"),
         "dot N-d mismatch: %s", ndt_last_error());
  /* out must be exact */
  int64_t os[2] = {5, 4};
  ndt_array *o;
  OK(ndt_empty(&o, 2, os, NDT_FLOAT32));
  r = o;
  EXPECT(ndt_dot(&r, a, b) == NDT_ERR_VALUE, "dot out dtype must match");
  ndt_free(o);
  OK(ndt_empty(&o, 2, os, NDT_FLOAT64));
  r = o;
  OK(ndt_dot(&r, a, b));
  check("dot out= (via matmul check)", a, b, NULL);
  ndt_free(o);
  ndt_free(a); ndt_free(b); ndt_free(A); ndt_free(B); ndt_free(s); ndt_free(w);
  ndt_free(p); ndt_free(q);
}

/* Matrix-vector products take the gemv path (row blocks, partials summed in
 * block order): values against a loop, same bits for 1 and 2 workers, for a
 * row-major matrix, its transpose, and vectors on either side. */
static void test_matvec(void) {
  int64_t n = 1003, d = 29, sm[2] = {n, d}, sn[1] = {n}, sd[1] = {d};
  double *X = malloc(sizeof(double) * n * d), *v = malloc(sizeof(double) * n),
         *w = malloc(sizeof(double) * d);
  for (int64_t i = 0; i < n * d; i++) X[i] = sin((double)i);
  for (int64_t i = 0; i < n; i++) v[i] = cos((double)i);
  for (int64_t i = 0; i < d; i++) w[i] = 1.0 / (1 + i);
  double *bits[2][4];
  for (int wk = 0; wk < 2; wk++) {
    OK(ndt_set_workers(wk + 1));
    ndt_array *x, *xt, *vv, *ww, *r[4] = {0};
    OK(ndt_from_buffer(&x, NDT_FLOAT64, 2, sm, X, NULL));
    OK(ndt_from_buffer(&vv, NDT_FLOAT64, 1, sn, v, NULL));
    OK(ndt_from_buffer(&ww, NDT_FLOAT64, 1, sd, w, NULL));
    OK(ndt_transpose(&xt, x, NULL));
    OK(ndt_matmul(&r[0], x, ww));    /* X @ w  */
    OK(ndt_matmul(&r[1], xt, vv));   /* X.T @ v */
    OK(ndt_matmul(&r[2], vv, x));    /* v @ X  */
    OK(ndt_matmul(&r[3], ww, xt));   /* w @ X.T */
    int64_t len[4] = {n, d, d, n};
    for (int k = 0; k < 4; k++) {
      bits[wk][k] = malloc(sizeof(double) * len[k]);
      EXPECT(ndt_ndim(r[k]) == 1 && ndt_shape(r[k])[0] == len[k], "matvec shape %d", k);
      OK(ndt_to_buffer(r[k], bits[wk][k]));
      ndt_free(r[k]);
    }
    ndt_free(x); ndt_free(xt); ndt_free(vv); ndt_free(ww);
  }
  int ok = 1;
  for (int64_t i = 0; i < n; i++) {
    double s = 0;
    for (int64_t j = 0; j < d; j++) s += X[i * d + j] * w[j];
    ok &= fabs(bits[0][0][i] - s) < 1e-9 && fabs(bits[0][3][i] - s) < 1e-9;
  }
  for (int64_t j = 0; j < d; j++) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += X[i * d + j] * v[i];
    ok &= fabs(bits[0][1][j] - s) < 1e-9 && fabs(bits[0][2][j] - s) < 1e-9;
  }
  EXPECT(ok, "matrix-vector products against loops");
  EXPECT(!memcmp(bits[0][0], bits[1][0], sizeof(double) * n) &&
         !memcmp(bits[0][1], bits[1][1], sizeof(double) * d) &&
         !memcmp(bits[0][2], bits[1][2], sizeof(double) * d) &&
         !memcmp(bits[0][3], bits[1][3], sizeof(double) * n),
         "matrix-vector products: same bits for 1 and 2 workers");
  for (int wk = 0; wk < 2; wk++)
    for (int k = 0; k < 4; k++) free(bits[wk][k]);
  free(X); free(v); free(w);
  OK(ndt_set_workers(2));
}

int main(void) {
  ndt_config cfg = {.workers = 2, .tile_bytes = 512, .inline_elems = 64};
  OK(ndt_init(&cfg));
  test_dtypes();
  test_mixed();
  test_vectors();
  test_batched();
  test_views();
  test_empty();
  test_out();
  test_errors();
  test_reproducible();
  test_dot();
  test_default_tiles();
  test_adjacent_tiles();
  test_matvec();
  OK(ndt_sync());
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
