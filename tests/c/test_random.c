/* test_random.c - random numbers: Philox known answers, the same bits for any
 * workers and tile size, independence of draws and streams, the distributions
 * checked statistically with fixed seeds (moments within 5 standard errors,
 * chi-square and Kolmogorov-Smirnov tests at p ~ 1e-6), NumPy's errors, and
 * allocation failures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"

/* Test hook of the kernels (src/kernels/cpu/loops_math.c): caps the SIMD
 * level (< 0 queries) and returns the level in effect. */
int ndt__cpu_set_simd_level(int level);


/* ---- helpers ------------------------------------------------------------ */

static void *bytes_of(ndt_array *a, size_t *len) {
  size_t n = (size_t)ndt_size(a) * ndt_dtype_size(ndt_dtype_of(a));
  void *buf = malloc(n ? n : 1);
  OK(ndt_to_buffer(a, buf));
  if (len) *len = n;
  return buf;
}

/* Takes the array (frees it) and returns its values as doubles. */
static double *doubles_of(ndt_array *a) {
  ndt_array *d;
  OK(ndt_astype(&d, a, NDT_FLOAT64, NDT_CAST_UNSAFE));
  double *v = bytes_of(d, NULL);
  ndt_free(d);
  ndt_free(a);
  return v;
}

static int64_t *int64s_of(ndt_array *a) {
  EXPECT(ndt_dtype_of(a) == NDT_INT64, "int64 result");
  int64_t *v = bytes_of(a, NULL);
  ndt_free(a);
  return v;
}

static uint64_t draws_of(const ndt_rng *r) {
  ndt_rng_state s;
  OK(ndt_rng_get_state(r, &s));
  return s.draws;
}

/* Mean and variance (ddof 1) checked within 5 standard errors; exkurt is the
 * distribution's excess kurtosis (the variance's standard error needs it). */
static void check_moments(const char *what, const double *x, int64_t n, double mu,
                          double var, double exkurt) {
  double m = 0;
  for (int64_t i = 0; i < n; i++) m += x[i];
  m /= (double)n;
  double v = 0;
  for (int64_t i = 0; i < n; i++) v += (x[i] - m) * (x[i] - m);
  v /= (double)(n - 1);
  /* (a two-point distribution has 2 + exkurt = 0: allow rounding) */
  double k4 = 2 + exkurt > 1e-3 ? 2 + exkurt : 1e-3;
  double se_m = sqrt(var / (double)n), se_v = var * sqrt(k4 / (double)n);
  EXPECT(fabs(m - mu) <= 5 * se_m, "%s: mean %.6g, expected %.6g (se %.3g)", what, m, mu, se_m);
  EXPECT(fabs(v - var) <= 5 * se_v, "%s: variance %.6g, expected %.6g (se %.3g)", what, v, var,
         se_v);
}

/* The chi-square quantile at p = 1e-6 (Wilson-Hilferty, z = 4.753). */
static double chi2_limit(int df) {
  double z = 4.753, a = 2.0 / (9.0 * df);
  double q = 1 - a + z * sqrt(a);
  return df * q * q * q;
}

/* Chi-square of counts against probabilities (bins with expected count < 5
 * are merged into their neighbours first). */
static void check_chi2(const char *what, const int64_t *obs, const double *prob, int k,
                       int64_t n) {
  double chi = 0, eacc = 0, oacc = 0;
  int df = -1;
  for (int i = 0; i < k; i++) {
    eacc += prob[i] * (double)n;
    oacc += (double)obs[i];
    if (eacc >= 5 || i == k - 1) {
      if (eacc > 0) {
        chi += (oacc - eacc) * (oacc - eacc) / eacc;
        df++;
      } else {
        EXPECT(oacc == 0, "%s: counts where nothing is expected", what);
      }
      eacc = oacc = 0;
    }
  }
  if (df < 1) df = 1;
  EXPECT(chi <= chi2_limit(df), "%s: chi-square %.2f with %d df (limit %.2f)", what, chi, df,
         chi2_limit(df));
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Kolmogorov-Smirnov statistic against cdf (sorts x); P(sqrt(n) D > 2.6) ~ 3e-6. */
static void check_ks(const char *what, double *x, int64_t n, double (*cdf)(double, double),
                     double par) {
  qsort(x, (size_t)n, sizeof(double), cmp_d);
  double d = 0;
  for (int64_t i = 0; i < n; i++) {
    double f = cdf(x[i], par);
    double a = fabs(f - (double)i / n), b = fabs((double)(i + 1) / n - f);
    if (a > d) d = a;
    if (b > d) d = b;
  }
  EXPECT(d * sqrt((double)n) < 2.6, "%s: KS sqrt(n)*D = %.3f", what, d * sqrt((double)n));
}

static double cdf_normal(double x, double unused) {
  (void)unused;
  return 0.5 * erfc(-x / sqrt(2.0));
}
static double cdf_exp(double x, double scale) { return x <= 0 ? 0 : -expm1(-x / scale); }
static double cdf_gamma_half(double x, double unused) {   /* Gamma(1/2, 1) */
  (void)unused;
  return x <= 0 ? 0 : erf(sqrt(x));
}
static double cdf_gamma_3half(double x, double unused) {  /* Gamma(3/2, 1) */
  (void)unused;
  return x <= 0 ? 0 : erf(sqrt(x)) - 2 * sqrt(x / M_PI) * exp(-x);
}

/* ---- Philox -------------------------------------------------------------- */

static void test_kat(void) {
  /* Random123's known-answer vectors for Philox4x32-10 */
  static const uint32_t ctr[3][4] = {{0, 0, 0, 0},
                                     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                                     {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}};
  static const uint32_t key[3][2] = {{0, 0}, {0xffffffff, 0xffffffff},
                                     {0xa4093822, 0x299f31d0}};
  static const uint32_t want[3][4] = {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
                                      {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
                                      {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}};
  for (int i = 0; i < 3; i++) {
    uint32_t out[4];
    ndt_philox4x32_10(ctr[i], key[i], out);
    EXPECT(memcmp(out, want[i], sizeof out) == 0, "Philox4x32-10 known answer %d", i);
  }
}

/* ---- reproducibility ------------------------------------------------------ */

#define NDRAW 20
/* Draws one array of every kind from a fresh generator; returns the bytes. */
static void draw_all(uint64_t seed, void **buf, size_t *len) {
  ndt_rng *r;
  OK(ndt_rng_new(&r, seed));
  int64_t s2[2] = {600, 1001}, s3[3] = {3, 37, 1001}, s1[1] = {70001};
  ndt_array *a[NDRAW];
  int k = 0;
  OK(ndt_rng_random(&a[k++], r, 2, s2, NDT_FLOAT64));
  OK(ndt_rng_random(&a[k++], r, 3, s3, NDT_FLOAT32));
  OK(ndt_rng_uniform(&a[k++], r, 1, s1, -3, 5, NDT_FLOAT64));
  OK(ndt_rng_standard_normal(&a[k++], r, 2, s2, NDT_FLOAT64));
  OK(ndt_rng_standard_normal(&a[k++], r, 3, s3, NDT_FLOAT32));
  OK(ndt_rng_normal(&a[k++], r, 1, s1, 1, 3, NDT_FLOAT64));
  OK(ndt_rng_exponential(&a[k++], r, 1, s1, 2, NDT_FLOAT64));
  OK(ndt_rng_gamma(&a[k++], r, 1, s1, 0.3, 1, NDT_FLOAT64));
  OK(ndt_rng_gamma(&a[k++], r, 3, s3, 4.5, 2, NDT_FLOAT64));
  OK(ndt_rng_poisson(&a[k++], r, 1, s1, 3.5));
  OK(ndt_rng_poisson(&a[k++], r, 1, s1, 250));
  OK(ndt_rng_binomial(&a[k++], r, 1, s1, 12, 0.3));
  OK(ndt_rng_binomial(&a[k++], r, 1, s1, 5000, 0.7));
  OK(ndt_rng_integers(&a[k++], r, 3, s3, NDT_INT8, -7, 100, 0));
  OK(ndt_rng_integers(&a[k++], r, 1, s1, NDT_UINT32, 0, (INT64_C(1) << 31) + 1, 0));
  OK(ndt_rng_integers(&a[k++], r, 1, s1, NDT_INT64, -5, INT64_C(3) << 40, 1));
  OK(ndt_rng_integers_u64(&a[k++], r, 1, s1, NDT_UINT64, 0, UINT64_MAX, 1));
  OK(ndt_rng_integers(&a[k++], r, 2, s2, NDT_BOOL, 0, 2, 0));
  OK(ndt_rng_permutation(&a[k++], r, 100003));
  OK(ndt_rng_permutation(&a[k++], r, 7));
  for (int i = 0; i < NDRAW; i++) {
    buf[i] = bytes_of(a[i], &len[i]);
    ndt_free(a[i]);
  }
  ndt_rng_free(r);
}

static void test_reproducible(void) {
  void *ref[NDRAW], *got[NDRAW];
  size_t rlen[NDRAW], glen[NDRAW];
  int64_t def_tile = ndt_tile_bytes();
  OK(ndt_set_workers(1));
  draw_all(1234, ref, rlen);
  struct { int workers; int64_t tile, inl; } cfg[] = {
      {2, 0, -1}, {4, 0, -1}, {4, 512, -1}, {1, 512, 0}, {2, 4096, 0}, {3, 100000, 0}};
  for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
    OK(ndt_set_workers(cfg[c].workers));
    OK(ndt_set_tile_bytes(cfg[c].tile ? cfg[c].tile : def_tile));
    if (cfg[c].inl >= 0) OK(ndt_set_inline_elems(cfg[c].inl));
    draw_all(1234, got, glen);
    for (int i = 0; i < NDRAW; i++) {
      EXPECT(glen[i] == rlen[i] && memcmp(got[i], ref[i], rlen[i]) == 0,
             "draw %d has the same bits with %d workers, tiles of %lld bytes", i,
             cfg[c].workers, (long long)(cfg[c].tile ? cfg[c].tile : def_tile));
      free(got[i]);
    }
    OK(ndt_set_inline_elems(1 << 15));
  }
  OK(ndt_set_tile_bytes(def_tile));
  OK(ndt_set_workers(2));
  /* the scalar, AVX2 and AVX-512 loops give the same bits */
  int maxlevel = ndt__cpu_set_simd_level(-1);
  for (int level = maxlevel - 1; level >= 1; level--) {
    ndt__cpu_set_simd_level(level);
    draw_all(1234, got, glen);
    for (int i = 0; i < NDRAW; i++) {
      EXPECT(glen[i] == rlen[i] && memcmp(got[i], ref[i], rlen[i]) == 0,
             "draw %d has the same bits at SIMD level %d as at %d", i, level, maxlevel);
      free(got[i]);
    }
  }
  ndt__cpu_set_simd_level(3);
  /* a different seed gives different arrays */
  draw_all(1235, got, glen);
  for (int i = 0; i < NDRAW; i++) {
    if (i != NDRAW - 1)   /* (a permutation of 7 may repeat by chance) */
      EXPECT(memcmp(got[i], ref[i], rlen[i]) != 0, "seed 1235 differs from 1234 in draw %d", i);
    free(got[i]);
    free(ref[i]);
  }
}

/* Elements depend on their flat index only: a longer draw extends a shorter
 * one, and the shape does not matter. */
static void test_position(void) {
  ndt_rng *r;
  OK(ndt_rng_new(&r, 77));
  int64_t n1 = 1001, n2 = 50000, s2[2] = {50, 1000};
  for (int kind = 0; kind < 4; kind++) {
    ndt_array *a, *b, *c;
    ndt_rng_state st0;
    OK(ndt_rng_get_state(r, &st0));
    for (int i = 0; i < 3; i++) {
      OK(ndt_rng_set_state(r, &st0));
      ndt_array **o = i == 0 ? &a : i == 1 ? &b : &c;
      int nd = i == 2 ? 2 : 1;
      const int64_t *sh = i == 0 ? &n1 : i == 1 ? &n2 : s2;
      if (kind == 0) OK(ndt_rng_standard_normal(o, r, nd, sh, NDT_FLOAT64));
      else if (kind == 1) OK(ndt_rng_integers(o, r, nd, sh, NDT_INT64, 0, 1000000007, 0));
      else if (kind == 2) OK(ndt_rng_gamma(o, r, nd, sh, 0.7, 1, NDT_FLOAT64));
      else OK(ndt_rng_random(o, r, nd, sh, NDT_FLOAT32));
    }
    size_t la, lb, lc;
    char *ba = bytes_of(a, &la), *bb = bytes_of(b, &lb), *bc = bytes_of(c, &lc);
    EXPECT(memcmp(ba, bb, la) == 0, "kind %d: a longer draw extends a shorter one", kind);
    EXPECT(lb == lc && memcmp(bb, bc, lb) == 0, "kind %d: shape (50, 1000) = (50000,)", kind);
    free(ba);
    free(bb);
    free(bc);
    ndt_free(a);
    ndt_free(b);
    ndt_free(c);
  }
  ndt_rng_free(r);
}

static void test_draws_and_state(void) {
  ndt_rng *r, *r2;
  OK(ndt_rng_new(&r, 5));
  OK(ndt_rng_new(&r2, 5));
  int64_t n = 1000;
  ndt_array *a, *b, *c;
  EXPECT(draws_of(r) == 0, "a new generator has drawn nothing");
  OK(ndt_rng_random(&a, r, 1, &n, NDT_FLOAT64));
  OK(ndt_rng_random(&b, r, 1, &n, NDT_FLOAT64));
  EXPECT(draws_of(r) == 2, "two draws counted");
  double *va = doubles_of(a), *vb = doubles_of(b);
  int same = 0;
  for (int i = 0; i < n; i++) same += va[i] == vb[i];
  EXPECT(same == 0, "successive draws differ (%d equal)", same);
  /* successive draws are uncorrelated */
  double sab = 0;
  for (int i = 0; i < n; i++) sab += (va[i] - 0.5) * (vb[i] - 0.5);
  EXPECT(fabs(sab / n) * 12 < 5 / sqrt((double)n), "successive draws uncorrelated");
  OK(ndt_rng_random(&c, r2, 1, &n, NDT_FLOAT64));
  double *vc = doubles_of(c);
  EXPECT(memcmp(va, vc, sizeof(double) * n) == 0, "the same seed gives the same first draw");
  /* state round trip: set the state back one draw and redraw */
  ndt_rng_state st;
  OK(ndt_rng_get_state(r, &st));
  EXPECT(st.seed == 5 && st.stream == 0 && st.draws == 2, "state fields");
  st.draws = 1;
  OK(ndt_rng_set_state(r2, &st));
  OK(ndt_rng_random(&c, r2, 1, &n, NDT_FLOAT64));
  double *vd = doubles_of(c);
  EXPECT(memcmp(vb, vd, sizeof(double) * n) == 0, "set_state replays a draw");
  /* another stream of the same seed differs */
  st.draws = 0;
  st.stream = 1;
  OK(ndt_rng_set_state(r2, &st));
  OK(ndt_rng_random(&c, r2, 1, &n, NDT_FLOAT64));
  double *ve = doubles_of(c);
  same = 0;
  for (int i = 0; i < n; i++) same += va[i] == ve[i];
  EXPECT(same == 0, "stream 1 differs from stream 0");
  /* draws beyond 2^32 change the key, and still work */
  st.stream = 0;
  st.draws = (UINT64_C(1) << 32);
  OK(ndt_rng_set_state(r2, &st));
  OK(ndt_rng_random(&c, r2, 1, &n, NDT_FLOAT64));
  double *vf = doubles_of(c);
  same = 0;
  for (int i = 0; i < n; i++) same += va[i] == vf[i];
  EXPECT(same == 0, "draw 2^32 differs from draw 0");
  EXPECT(draws_of(r2) == (UINT64_C(1) << 32) + 1, "draw counter is 64-bit");
  free(va);
  free(vb);
  free(vc);
  free(vd);
  free(ve);
  free(vf);
  ndt_rng_free(r);
  ndt_rng_free(r2);
  ndt_rng_free(NULL);
}

/* ---- distributions -------------------------------------------------------- */

static void test_uniform(ndt_rng *r) {
  int64_t shape[2] = {1000, 1000}, n = 1000000;
  ndt_array *a;
  /* float64: 53-bit values in [0, 1) */
  OK(ndt_rng_random(&a, r, 2, shape, NDT_DTYPE_DEFAULT));
  EXPECT(ndt_dtype_of(a) == NDT_FLOAT64, "random is float64 by default");
  double *x = doubles_of(a);
  int64_t bins[100] = {0}, odd = 0, bad = 0;
  double prob[100];
  for (int i = 0; i < 100; i++) prob[i] = 0.01;
  for (int64_t i = 0; i < n; i++) {
    if (!(x[i] >= 0 && x[i] < 1)) bad++;
    else bins[(int)(x[i] * 100)]++;
    double m = x[i] * 0x1p53;
    odd += m != floor(m) ? 1000000 : (int64_t)fmod(m, 2.0);
  }
  EXPECT(bad == 0, "random in [0, 1) (%lld outside)", (long long)bad);
  check_moments("random", x, n, 0.5, 1.0 / 12, -1.2);
  check_chi2("random bins", bins, prob, 100, n);
  EXPECT(fabs(odd - n / 2.0) < 5 * sqrt(n / 4.0), "random uses all 53 bits (%lld odd)",
         (long long)odd);
  free(x);
  /* float32: 24-bit values */
  OK(ndt_rng_random(&a, r, 2, shape, NDT_FLOAT32));
  EXPECT(ndt_dtype_of(a) == NDT_FLOAT32, "random float32");
  x = doubles_of(a);
  memset(bins, 0, sizeof bins);
  odd = bad = 0;
  for (int64_t i = 0; i < n; i++) {
    if (!(x[i] >= 0 && x[i] < 1)) bad++;
    else bins[(int)(x[i] * 100)]++;
    double m = x[i] * 0x1p24;
    odd += m != floor(m) ? 1000000 : (int64_t)fmod(m, 2.0);
  }
  EXPECT(bad == 0, "random float32 in [0, 1)");
  check_moments("random float32", x, n, 0.5, 1.0 / 12, -1.2);
  check_chi2("random float32 bins", bins, prob, 100, n);
  EXPECT(fabs(odd - n / 2.0) < 5 * sqrt(n / 4.0), "float32 uses 24 bits");
  free(x);
  /* uniform(low, high) */
  OK(ndt_rng_uniform(&a, r, 1, &n, -2, 3, NDT_DTYPE_DEFAULT));
  x = doubles_of(a);
  bad = 0;
  for (int64_t i = 0; i < n; i++) bad += !(x[i] >= -2 && x[i] < 3);
  EXPECT(bad == 0, "uniform(-2, 3) in range");
  check_moments("uniform(-2, 3)", x, n, 0.5, 25.0 / 12, -1.2);
  free(x);
  /* low > high is allowed (NumPy): values in (high, low] */
  OK(ndt_rng_uniform(&a, r, 1, &n, 1, -1, NDT_FLOAT64));
  x = doubles_of(a);
  check_moments("uniform(1, -1)", x, n, 0.0, 4.0 / 12, -1.2);
  free(x);
}

static void test_normal(ndt_rng *r) {
  int64_t n = 1000000;
  ndt_array *a;
  OK(ndt_rng_standard_normal(&a, r, 1, &n, NDT_DTYPE_DEFAULT));
  double *x = doubles_of(a);
  check_moments("standard_normal", x, n, 0, 1, 0);
  /* Box-Muller pairs: neighbours are independent (and so are their squares) */
  double c1 = 0, c2 = 0;
  for (int64_t i = 0; i + 1 < n; i += 2) {
    c1 += x[i] * x[i + 1];
    c2 += (x[i] * x[i] - 1) * (x[i + 1] * x[i + 1] - 1);
  }
  c1 /= n / 2;
  c2 /= n / 2 * 2.0;
  EXPECT(fabs(c1) < 5 / sqrt(n / 2.0), "normal pair correlation %.4g", c1);
  EXPECT(fabs(c2) < 5 / sqrt(n / 2.0), "normal pair correlation of squares %.4g", c2);
  double c3 = 0;   /* across a pair boundary too */
  for (int64_t i = 1; i + 1 < n; i += 2) c3 += x[i] * x[i + 1];
  c3 /= n / 2;
  EXPECT(fabs(c3) < 5 / sqrt(n / 2.0), "normal neighbour correlation %.4g", c3);
  check_ks("standard_normal", x, n, cdf_normal, 0);
  free(x);
  OK(ndt_rng_standard_normal(&a, r, 1, &n, NDT_FLOAT32));
  EXPECT(ndt_dtype_of(a) == NDT_FLOAT32, "standard_normal float32");
  x = doubles_of(a);
  check_moments("standard_normal float32", x, n, 0, 1, 0);
  check_ks("standard_normal float32", x, n, cdf_normal, 0);
  free(x);
  OK(ndt_rng_normal(&a, r, 1, &n, 3, 2, NDT_FLOAT64));
  x = doubles_of(a);
  check_moments("normal(3, 2)", x, n, 3, 4, 0);
  for (int64_t i = 0; i < n; i++) x[i] = (x[i] - 3) / 2;
  check_ks("normal(3, 2)", x, n, cdf_normal, 0);
  free(x);
  int64_t m = 1000;
  OK(ndt_rng_normal(&a, r, 1, &m, 7, 0, NDT_FLOAT64));
  x = doubles_of(a);
  int bad = 0;
  for (int i = 0; i < m; i++) bad += x[i] != 7;
  EXPECT(bad == 0, "normal with scale 0 is loc");
  free(x);
  OK(ndt_rng_normal(&a, r, 1, &m, 0, NAN, NDT_FLOAT64));
  x = doubles_of(a);
  EXPECT(isnan(x[0]) && isnan(x[m - 1]), "normal with a NaN scale is NaN (as NumPy)");
  free(x);
}

static void test_exponential_gamma(ndt_rng *r) {
  int64_t n = 1000000, m = 200000;
  ndt_array *a;
  OK(ndt_rng_exponential(&a, r, 1, &n, 2, NDT_DTYPE_DEFAULT));
  double *x = doubles_of(a);
  int bad = 0;
  for (int64_t i = 0; i < n; i++) bad += !(x[i] >= 0 && isfinite(x[i]));
  EXPECT(bad == 0, "exponential values >= 0");
  check_moments("exponential(2)", x, n, 2, 4, 6);
  check_ks("exponential(2)", x, n, cdf_exp, 2);
  free(x);
  OK(ndt_rng_exponential(&a, r, 1, &n, 1, NDT_FLOAT32));
  x = doubles_of(a);
  check_moments("exponential float32", x, n, 1, 1, 6);
  free(x);
  struct { double k, theta; } g[] = {{0.5, 2}, {1.5, 1}, {1, 1}, {3.7, 0.5}, {100, 1},
                                     {0.01, 1}, {1e6, 1e-6}};
  for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
    char what[64];
    snprintf(what, sizeof what, "gamma(%g, %g)", g[i].k, g[i].theta);
    OK(ndt_rng_gamma(&a, r, 1, &m, g[i].k, g[i].theta, NDT_FLOAT64));
    x = doubles_of(a);
    bad = 0;
    for (int64_t j = 0; j < m; j++) bad += !(x[j] >= 0 && isfinite(x[j]));
    EXPECT(bad == 0, "%s values >= 0", what);
    double k = g[i].k, t = g[i].theta;
    check_moments(what, x, m, k * t, k * t * t, 6 / k);
    for (int64_t j = 0; j < m; j++) x[j] /= t;
    if (k == 0.5) check_ks(what, x, m, cdf_gamma_half, 0);
    if (k == 1.5) check_ks(what, x, m, cdf_gamma_3half, 0);
    if (k == 1) check_ks(what, x, m, cdf_exp, 1);
    free(x);
  }
  /* degenerate parameters, as NumPy */
  int64_t s = 100;
  OK(ndt_rng_gamma(&a, r, 1, &s, 0, 3, NDT_FLOAT64));
  x = doubles_of(a);
  bad = 0;
  for (int i = 0; i < s; i++) bad += x[i] != 0;
  EXPECT(bad == 0, "gamma(0) is 0");
  free(x);
  OK(ndt_rng_gamma(&a, r, 1, &s, NAN, 1, NDT_FLOAT64));
  x = doubles_of(a);
  EXPECT(isnan(x[0]) && isnan(x[s - 1]), "gamma(nan) is nan");
  free(x);
  OK(ndt_rng_exponential(&a, r, 1, &s, 0, NDT_FLOAT64));
  x = doubles_of(a);
  bad = 0;
  for (int i = 0; i < s; i++) bad += x[i] != 0;
  EXPECT(bad == 0, "exponential(0) is 0");
  free(x);
  OK(ndt_rng_gamma(&a, r, 1, &s, 2, 1, NDT_FLOAT32));
  EXPECT(ndt_dtype_of(a) == NDT_FLOAT32, "gamma float32");
  ndt_free(a);
}

/* log of the pmf */
static double log_poisson(double k, double lam) { return k * log(lam) - lam - lgamma(k + 1); }
static double log_binom(double k, double n, double p) {
  return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * log(p) + (n - k) * log1p(-p);
}

static void test_poisson(ndt_rng *r) {
  int64_t m = 200000;
  double lams[] = {0.5, 4, 9.99, 10, 37.5, 1e4, 1e12};
  for (size_t i = 0; i < sizeof lams / sizeof lams[0]; i++) {
    double lam = lams[i];
    char what[64];
    snprintf(what, sizeof what, "poisson(%g)", lam);
    ndt_array *a;
    OK(ndt_rng_poisson(&a, r, 1, &m, lam));
    int64_t *v = int64s_of(a);
    double *x = malloc(sizeof(double) * m);
    int bad = 0;
    for (int64_t j = 0; j < m; j++) {
      bad += v[j] < 0;
      x[j] = (double)v[j];
    }
    EXPECT(bad == 0, "%s values >= 0", what);
    check_moments(what, x, m, lam, lam, 1 / lam);
    if (lam <= 100) {
      int k = (int)(lam + 12 * sqrt(lam) + 12);
      int64_t *cnt = calloc(k + 1, sizeof(int64_t));
      double *prob = malloc(sizeof(double) * (k + 1));
      double tot = 0;
      for (int j = 0; j < k; j++) tot += prob[j] = exp(log_poisson(j, lam));
      prob[k] = 1 - tot > 0 ? 1 - tot : 0;   /* the tail */
      for (int64_t j = 0; j < m; j++) cnt[v[j] < k ? v[j] : k]++;
      check_chi2(what, cnt, prob, k + 1, m);
      free(cnt);
      free(prob);
    }
    free(v);
    free(x);
  }
  ndt_array *a;
  int64_t s = 50;
  OK(ndt_rng_poisson(&a, r, 1, &s, 0));
  int64_t *v = int64s_of(a);
  int bad = 0;
  for (int i = 0; i < s; i++) bad += v[i] != 0;
  EXPECT(bad == 0, "poisson(0) is 0");
  free(v);
}

static void test_binomial(ndt_rng *r) {
  int64_t m = 200000;
  struct { int64_t n; double p; } c[] = {{10, 0.3},  {20, 0.5},     {1000, 0.4},
                                         {1000, 0.995}, {37, 0.9}, {100000, 0.3},
                                         {1, 0.5}, {INT64_C(1000000000000), 0.25},
                                         {INT64_C(4000000000), 1e-9}};
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    double n = (double)c[i].n, p = c[i].p, q = 1 - p;
    char what[64];
    snprintf(what, sizeof what, "binomial(%lld, %g)", (long long)c[i].n, p);
    ndt_array *a;
    OK(ndt_rng_binomial(&a, r, 1, &m, c[i].n, p));
    int64_t *v = int64s_of(a);
    double *x = malloc(sizeof(double) * m);
    int bad = 0;
    for (int64_t j = 0; j < m; j++) {
      bad += v[j] < 0 || v[j] > c[i].n;
      x[j] = (double)v[j];
    }
    EXPECT(bad == 0, "%s values in [0, n]", what);
    check_moments(what, x, m, n * p, n * p * q, (1 - 6 * p * q) / (n * p * q));
    if (n <= 100000) {
      /* chi-square over mean +- 8 sd, tails lumped */
      double sd = sqrt(n * p * q);
      int64_t lo = (int64_t)floor(n * p - 8 * sd - 1), hi = (int64_t)ceil(n * p + 8 * sd + 1);
      if (lo < 0) lo = 0;
      if (hi > c[i].n) hi = c[i].n;
      int k = (int)(hi - lo + 1);
      int64_t *cnt = calloc(k + 2, sizeof(int64_t));
      double *prob = calloc(k + 2, sizeof(double));
      double tot = 0;
      for (int j = 0; j < k; j++) tot += prob[j + 1] = exp(log_binom((double)(lo + j), n, p));
      prob[0] = prob[k + 1] = (1 - tot > 0 ? 1 - tot : 0) / 2;
      for (int64_t j = 0; j < m; j++)
        cnt[v[j] < lo ? 0 : v[j] > hi ? k + 1 : v[j] - lo + 1]++;
      check_chi2(what, cnt, prob, k + 2, m);
      free(cnt);
      free(prob);
    }
    free(v);
    free(x);
  }
  struct { int64_t n; double p; int64_t want; } d[] = {{5, 0, 0}, {5, 1, 5}, {0, 0.5, 0}};
  for (int i = 0; i < 3; i++) {
    ndt_array *a;
    int64_t s = 20;
    OK(ndt_rng_binomial(&a, r, 1, &s, d[i].n, d[i].p));
    int64_t *v = int64s_of(a);
    int bad = 0;
    for (int j = 0; j < s; j++) bad += v[j] != d[i].want;
    EXPECT(bad == 0, "binomial(%lld, %g) is %lld", (long long)d[i].n, d[i].p,
           (long long)d[i].want);
    free(v);
  }
}

/* Reads integers of any dtype as int64 (uint64 as its bits). */
static int64_t *ints_of(ndt_array *a) {
  ndt_dtype t = ndt_dtype_of(a);
  int64_t n = ndt_size(a);
  void *raw = bytes_of(a, NULL);
  int64_t *v = malloc(sizeof(int64_t) * (n ? n : 1));
  for (int64_t i = 0; i < n; i++) {
    switch (t) {
      case NDT_BOOL: v[i] = ((uint8_t *)raw)[i]; break;
      case NDT_INT8: v[i] = ((int8_t *)raw)[i]; break;
      case NDT_UINT8: v[i] = ((uint8_t *)raw)[i]; break;
      case NDT_INT16: v[i] = ((int16_t *)raw)[i]; break;
      case NDT_UINT16: v[i] = ((uint16_t *)raw)[i]; break;
      case NDT_INT32: v[i] = ((int32_t *)raw)[i]; break;
      case NDT_UINT32: v[i] = ((uint32_t *)raw)[i]; break;
      default: v[i] = ((int64_t *)raw)[i]; break;
    }
  }
  free(raw);
  ndt_free(a);
  return v;
}

/* Counts of (v - low) * nb / range over nb bins, expecting equal bins when
 * range is a multiple of nb. Checks low <= v <= high too. */
static void check_ints(const char *what, const int64_t *v, int64_t m, int64_t low,
                       int64_t high_incl, int nb, int hits_ends) {
  int64_t *cnt = calloc(nb, sizeof(int64_t));
  double *prob = malloc(sizeof(double) * nb);
  uint64_t range = (uint64_t)high_incl - (uint64_t)low + 1;   /* 0 means 2^64 */
  int bad = 0, lo_hit = 0, hi_hit = 0;
  for (int64_t j = 0; j < m; j++) {
    if (v[j] < low || v[j] > high_incl) {
      bad++;
      continue;
    }
    lo_hit |= v[j] == low;
    hi_hit |= v[j] == high_incl;
    uint64_t off = (uint64_t)v[j] - (uint64_t)low;
    double rr = range ? (double)range : 18446744073709551616.0;
    int b = range && range <= (UINT64_C(1) << 40) ? (int)(off * (uint64_t)nb / range)
                                                  : (int)((double)off / rr * nb);
    if (b >= nb) b = nb - 1;
    cnt[b]++;
  }
  for (int b = 0; b < nb; b++) prob[b] = 1.0 / nb;
  EXPECT(bad == 0, "%s: %d values out of [%lld, %lld]", what, bad, (long long)low,
         (long long)high_incl);
  if (hits_ends) EXPECT(lo_hit && hi_hit, "%s: both bounds drawn", what);
  check_chi2(what, cnt, prob, nb, m);
  free(cnt);
  free(prob);
}

static void test_integers(ndt_rng *r) {
  int64_t m = 500000, mm[1] = {500000};
  ndt_array *a;
  int64_t *v;
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT8, -5, 100, 0));
  EXPECT(ndt_dtype_of(a) == NDT_INT8, "integers int8");
  v = ints_of(a);
  check_ints("int8 [-5, 100)", v, m, -5, 99, 105, 1);
  free(v);
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_UINT8, 0, 255, 1));
  v = ints_of(a);
  check_ints("uint8 [0, 255]", v, m, 0, 255, 256, 1);
  free(v);
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT8, -128, 127, 1));
  v = ints_of(a);
  check_ints("int8 [-128, 127]", v, m, -128, 127, 256, 1);
  free(v);
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_BOOL, 0, 2, 0));
  EXPECT(ndt_dtype_of(a) == NDT_BOOL, "integers bool");
  v = ints_of(a);
  check_ints("bool", v, m, 0, 1, 2, 1);
  free(v);
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT16, -32768, 32767, 1));
  v = ints_of(a);
  check_ints("int16 full", v, m, -32768, 32767, 64, 0);
  free(v);
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_UINT16, 1, 7, 0));
  v = ints_of(a);
  check_ints("uint16 [1, 7)", v, m, 1, 6, 6, 1);
  free(v);
  /* range 2^31 + 1: about half the first tries are rejected */
  int64_t big = (INT64_C(1) << 31) + 1;
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_UINT32, 0, big, 0));
  v = ints_of(a);
  check_ints("uint32 [0, 2^31+1)", v, m, 0, big - 1, 64, 0);
  free(v);
  OK(ndt_rng_integers_u64(&a, r, 1, mm, NDT_UINT32, 0, UINT32_MAX, 1));
  v = ints_of(a);
  check_ints("uint32 full", v, m, 0, UINT32_MAX, 64, 0);
  free(v);
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT64, 10, 13, 0));
  v = ints_of(a);
  check_ints("int64 [10, 13)", v, m, 10, 12, 3, 1);
  free(v);
  /* 64-bit ranges: 2^33 + 1 (rejection likely per element), 3 * 2^61, full */
  big = (INT64_C(1) << 33) + 1;
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT64, -big, big, 1));
  v = ints_of(a);
  check_ints("int64 [-2^33-1, 2^33+1]", v, m, -big, big, 64, 0);
  free(v);
  big = INT64_C(3) << 61;
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT64, -big, big, 0));
  v = ints_of(a);
  check_ints("int64 [-3*2^61, 3*2^61)", v, m, -big, big - 1, 48, 0);
  free(v);
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT64, INT64_MIN, INT64_MAX, 1));
  v = ints_of(a);
  check_ints("int64 full", v, m, INT64_MIN, INT64_MAX, 64, 0);
  free(v);
  /* uint64 above 2^63: [2^63, 2^63 + 3 * 2^61) */
  uint64_t ulo = UINT64_C(1) << 63, uhi = ulo + (UINT64_C(3) << 61);
  OK(ndt_rng_integers_u64(&a, r, 1, mm, NDT_UINT64, ulo, uhi, 0));
  EXPECT(ndt_dtype_of(a) == NDT_UINT64, "integers uint64");
  uint64_t *u = bytes_of(a, NULL);
  ndt_free(a);
  int64_t cnt[3] = {0};
  int bad = 0;
  for (int64_t j = 0; j < m; j++) {
    if (u[j] < ulo || u[j] >= uhi) bad++;
    else cnt[(u[j] - ulo) >> 61]++;
  }
  EXPECT(bad == 0, "uint64 [2^63, 2^63 + 3*2^61) in range");
  double p3[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
  check_chi2("uint64 high range", cnt, p3, 3, m);
  free(u);
  /* a single value */
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT64, 42, 43, 0));
  v = ints_of(a);
  bad = 0;
  for (int64_t j = 0; j < m; j++) bad += v[j] != 42;
  EXPECT(bad == 0, "integers(42, 43) is 42");
  free(v);
  /* the default dtype is int64; bounds at the dtype's limits */
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_DTYPE_DEFAULT, 0, 5, 0));
  EXPECT(ndt_dtype_of(a) == NDT_INT64, "integers default int64");
  ndt_free(a);
  OK(ndt_rng_integers(&a, r, 1, mm, NDT_INT8, 0, 128, 0));
  ndt_free(a);
}

static void test_permutation(ndt_rng *r) {
  /* all 120 orders of 5 elements equally likely */
  int64_t cnt[120] = {0};
  int ok = 1;
  const int reps = 6000;
  for (int t = 0; t < reps; t++) {
    ndt_array *a;
    OK(ndt_rng_permutation(&a, r, 5));
    int64_t *v = int64s_of(a);
    int seen = 0, code = 0, used[5] = {0};
    for (int i = 0; i < 5; i++) {
      if (v[i] < 0 || v[i] > 4 || (seen >> v[i] & 1)) ok = 0;
      else seen |= 1 << v[i];
    }
    /* Lehmer code of the order */
    for (int i = 0; ok && i < 5; i++) {
      int smaller = 0;
      for (int j = 0; j < v[i]; j++) smaller += !used[j];
      used[v[i]] = 1;
      code = code * (5 - i) + smaller;
    }
    if (ok) cnt[code]++;
    free(v);
  }
  EXPECT(ok, "permutations of 5 are permutations");
  double prob[120];
  for (int i = 0; i < 120; i++) prob[i] = 1.0 / 120;
  check_chi2("permutation orders of 5", cnt, prob, 120, reps);
  /* a large one */
  int64_t n = 1000000;
  ndt_array *a;
  OK(ndt_rng_permutation(&a, r, n));
  int64_t *v = int64s_of(a);
  char *seen = calloc(n, 1);
  int bad = 0;
  double c = 0, mid = (n - 1) / 2.0;
  int64_t fixed = 0;
  for (int64_t i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] >= n || seen[v[i]]) bad++;
    else seen[v[i]] = 1;
    c += (v[i] - mid) * (i - mid);
    fixed += v[i] == i;
  }
  c /= n * ((double)n * n - 1) / 12;   /* Pearson correlation of i and perm[i] */
  EXPECT(bad == 0, "permutation of 1e6 is a permutation");
  EXPECT(fabs(c) < 5 / sqrt((double)n), "permutation uncorrelated with position (%.3g)", c);
  EXPECT(fixed <= 12, "few fixed points (%lld, ~Poisson(1))", (long long)fixed);
  /* where element 0 goes, over the first quarter positions */
  free(seen);
  free(v);
  /* sizes 0, 1 and negative */
  int64_t sizes[3] = {0, 1, -3};
  for (int i = 0; i < 3; i++) {
    OK(ndt_rng_permutation(&a, r, sizes[i]));
    EXPECT(ndt_size(a) == (sizes[i] > 0 ? sizes[i] : 0), "permutation(%lld) size",
           (long long)sizes[i]);
    if (sizes[i] == 1) {
      v = int64s_of(a);
      EXPECT(v[0] == 0, "permutation(1) is [0]");
      free(v);
    } else {
      ndt_free(a);
    }
  }
}

/* ---- errors -------------------------------------------------------------- */

#define ERR(call, code, msg)                                                      \
  do {                                                                            \
    ndt_array *e_ = NULL;                                                         \
    uint64_t d0_ = draws_of(r);                                                   \
    ndt_status s_ = (call);                                                       \
    EXPECT(s_ == (code) && strcmp(ndt_last_error(), msg) == 0,                    \
           "%s -> %d '%s', expected %d '%s'", #call, s_, ndt_last_error(), code, msg); \
    EXPECT(e_ == NULL && draws_of(r) == d0_, "%s: no result, no draw", #call);    \
    if (s_ == NDT_OK) ndt_free(e_);                                               \
  } while (0)

static void test_errors(void) {
  ndt_rng *r;
  OK(ndt_rng_new(&r, 3));
  int64_t n = 10, neg = -1;
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_INT64, 5, 5, 0), NDT_ERR_VALUE, "low >= high");
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_INT64, 5, 4, 1), NDT_ERR_VALUE, "low > high");
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_UINT8, 0, 300, 0), NDT_ERR_VALUE,
      "high is out of bounds for uint8");
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_UINT8, 0, 256, 1), NDT_ERR_VALUE,
      "high is out of bounds for uint8");
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_INT8, 0, 129, 0), NDT_ERR_VALUE,
      "high is out of bounds for int8");
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_UINT8, -1, 3, 0), NDT_ERR_VALUE,
      "low is out of bounds for uint8");
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_INT16, -32769, 3, 0), NDT_ERR_VALUE,
      "low is out of bounds for int16");
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_BOOL, 0, 3, 0), NDT_ERR_VALUE,
      "high is out of bounds for bool");
  ERR(ndt_rng_integers_u64(&e_, r, 1, &n, NDT_INT64, 0, UINT64_C(1) << 63, 1), NDT_ERR_VALUE,
      "high is out of bounds for int64");
  ERR(ndt_rng_integers(&e_, r, 1, &n, NDT_FLOAT64, 0, 3, 0), NDT_ERR_TYPE,
      "Unsupported dtype dtype('float64') for integers");
  ERR(ndt_rng_poisson(&e_, r, 1, &n, -1), NDT_ERR_VALUE, "lam < 0 or lam is NaN");
  ERR(ndt_rng_poisson(&e_, r, 1, &n, NAN), NDT_ERR_VALUE, "lam < 0 or lam is NaN");
  ERR(ndt_rng_poisson(&e_, r, 1, &n, 1e19), NDT_ERR_VALUE, "lam value too large");
  ERR(ndt_rng_poisson(&e_, r, 1, &n, INFINITY), NDT_ERR_VALUE, "lam value too large");
  ERR(ndt_rng_binomial(&e_, r, 1, &n, -1, 0.5), NDT_ERR_VALUE, "n < 0");
  ERR(ndt_rng_binomial(&e_, r, 1, &n, 5, 1.5), NDT_ERR_VALUE, "p < 0, p > 1 or p is NaN");
  ERR(ndt_rng_binomial(&e_, r, 1, &n, 5, -0.1), NDT_ERR_VALUE, "p < 0, p > 1 or p is NaN");
  ERR(ndt_rng_binomial(&e_, r, 1, &n, 5, NAN), NDT_ERR_VALUE, "p < 0, p > 1 or p is NaN");
  ERR(ndt_rng_normal(&e_, r, 1, &n, 0, -1, NDT_FLOAT64), NDT_ERR_VALUE, "scale < 0");
  ERR(ndt_rng_normal(&e_, r, 1, &n, 0, -0.0, NDT_FLOAT64), NDT_ERR_VALUE, "scale < 0");
  ERR(ndt_rng_exponential(&e_, r, 1, &n, -1, NDT_FLOAT64), NDT_ERR_VALUE, "scale < 0");
  ERR(ndt_rng_gamma(&e_, r, 1, &n, -1, 1, NDT_FLOAT64), NDT_ERR_VALUE, "shape < 0");
  ERR(ndt_rng_gamma(&e_, r, 1, &n, 1, -1, NDT_FLOAT64), NDT_ERR_VALUE, "scale < 0");
  ERR(ndt_rng_uniform(&e_, r, 1, &n, -1e308, 1e308, NDT_FLOAT64), NDT_ERR_OVERFLOW,
      "high - low range exceeds valid bounds");
  ERR(ndt_rng_uniform(&e_, r, 1, &n, NAN, 1, NDT_FLOAT64), NDT_ERR_OVERFLOW,
      "high - low range exceeds valid bounds");
  ERR(ndt_rng_random(&e_, r, 1, &n, NDT_INT32), NDT_ERR_TYPE,
      "Unsupported dtype dtype('int32') for random");
  ERR(ndt_rng_standard_normal(&e_, r, 1, &n, NDT_COMPLEX128), NDT_ERR_TYPE,
      "Unsupported dtype dtype('complex128') for standard_normal");
  ERR(ndt_rng_random(&e_, r, 1, &neg, NDT_FLOAT64), NDT_ERR_VALUE,
      "negative dimensions are not allowed");
  ERR(ndt_rng_integers(&e_, r, 1, &neg, NDT_INT64, 0, 5, 0), NDT_ERR_VALUE,
      "negative dimensions are not allowed");
  ndt_array *e = NULL;
  EXPECT(ndt_rng_random(&e, NULL, 1, &n, NDT_FLOAT64) == NDT_ERR_VALUE, "NULL generator");
  EXPECT(ndt_rng_permutation(&e, NULL, 3) == NDT_ERR_VALUE, "NULL generator (permutation)");
  /* a failed allocation leaves no result and no draw */
  for (int k = 1; k <= 3; k++) {
    uint64_t d0 = draws_of(r);
    int64_t big[1] = {300000};
    ndt_debug_fail_alloc_after(k);
    ndt_status s = ndt_rng_standard_normal(&e, r, 1, big, NDT_FLOAT64);
    ndt_debug_fail_alloc_after(0);
    if (s == NDT_OK) {
      /* the failure hit a deferred task, or nothing: sync reports it */
      ndt_status s2 = ndt_sync();
      EXPECT(s2 == NDT_OK || s2 == NDT_ERR_NOMEM || s2 == NDT_ERR_DEFERRED,
             "failure %d reported at sync", k);
      EXPECT(draws_of(r) == d0 + 1, "success counts one draw");
      ndt_free(e);
    } else {
      EXPECT(s == NDT_ERR_NOMEM, "allocation failure %d -> NOMEM (%d)", k, s);
      EXPECT(draws_of(r) == d0, "failed call draws nothing");
    }
    ndt_sync();
  }
  ndt_debug_fail_alloc_after(1);
  ndt_rng *r2 = NULL;
  EXPECT(ndt_rng_new(&r2, 1) == NDT_ERR_NOMEM && r2 == NULL, "ndt_rng_new allocation failure");
  ndt_debug_fail_alloc_after(0);
  ndt_rng_free(r);
}

/* Samplers with a parameter per element: the bits of the scalar-parameter
 * samplers for equal parameters, several parameters in one call, and bad
 * values reported at the next wait. */
static void test_param_arrays(void) {
  enum { N = 3000 };
  int64_t n1[1] = {N};
  ndt_rng *r1, *r2;
  OK(ndt_rng_new(&r1, 77));
  OK(ndt_rng_new(&r2, 77));
  ndt_array *k, *sc, *lam, *nn, *pp, *a, *b;
  const double kv = 0.4, sv = 3.0, lamv = 25.0, pv = 0.35;
  const int64_t nv = 40;
  OK(ndt_full(&k, 1, n1, NDT_FLOAT64, &kv, NDT_FLOAT64));
  OK(ndt_full(&sc, 0, NULL, NDT_FLOAT64, &sv, NDT_FLOAT64));
  OK(ndt_full(&lam, 1, n1, NDT_FLOAT64, &lamv, NDT_FLOAT64));
  OK(ndt_full(&nn, 1, n1, NDT_INT64, &nv, NDT_INT64));
  OK(ndt_full(&pp, 0, NULL, NDT_FLOAT64, &pv, NDT_FLOAT64));
  static double x[N], y[N];
  static int64_t u[N], v[N];
  OK(ndt_rng_gamma_array(&a, r1, k, sc, NDT_FLOAT64));
  OK(ndt_rng_gamma(&b, r2, 1, n1, 0.4, 3.0, NDT_FLOAT64));
  OK(ndt_to_buffer(a, x));
  OK(ndt_to_buffer(b, y));
  EXPECT(memcmp(x, y, sizeof x) == 0, "gamma_array bits differ from gamma");
  ndt_free(a); ndt_free(b);
  OK(ndt_rng_poisson_array(&a, r1, lam));
  OK(ndt_rng_poisson(&b, r2, 1, n1, 25.0));
  OK(ndt_to_buffer(a, u));
  OK(ndt_to_buffer(b, v));
  EXPECT(memcmp(u, v, sizeof u) == 0, "poisson_array bits differ from poisson");
  ndt_free(a); ndt_free(b);
  OK(ndt_rng_binomial_array(&a, r1, nn, pp));
  OK(ndt_rng_binomial(&b, r2, 1, n1, 40, 0.35));
  OK(ndt_to_buffer(a, u));
  OK(ndt_to_buffer(b, v));
  EXPECT(memcmp(u, v, sizeof u) == 0, "binomial_array bits differ from binomial");
  ndt_free(a); ndt_free(b);
  /* lam = i / 10 per element: the mean of each quarter follows its lam */
  double lv[N];
  for (int i = 0; i < N; i++) lv[i] = (double)(i % 4) * 10.0;
  ndt_array *lams;
  OK(ndt_from_buffer(&lams, NDT_FLOAT64, 1, n1, lv, NULL));
  OK(ndt_rng_poisson_array(&a, r1, lams));
  OK(ndt_to_buffer(a, u));
  double mean[4] = {0};
  for (int i = 0; i < N; i++) mean[i % 4] += (double)u[i] / (N / 4);
  for (int q = 0; q < 4; q++)
    EXPECT(fabs(mean[q] - q * 10.0) < 5 * sqrt(q * 10.0 / (N / 4)) + 1e-12,
           "poisson_array mean %g for lam %d", mean[q], q * 10);
  ndt_free(a);
  /* a negative lam: the call records, the wait reports it */
  lv[1234] = -1.0;
  ndt_free(lams);
  OK(ndt_from_buffer(&lams, NDT_FLOAT64, 1, n1, lv, NULL));
  ndt_status st = ndt_rng_poisson_array(&a, r1, lams);
  if (st == NDT_OK) {
    st = ndt_to_buffer(a, u);
    ndt_free(a);
  }
  EXPECT(st == NDT_ERR_VALUE || st == NDT_ERR_DEFERRED, "negative lam gave %d", st);
  EXPECT(strstr(ndt_last_error(), "lam < 0") != NULL, "message: %s", ndt_last_error());
  ndt_sync();
  /* wrong parameter dtypes */
  EXPECT(ndt_rng_gamma_array(&a, r1, nn, sc, NDT_FLOAT64) == NDT_ERR_TYPE, "int64 shape");
  ndt_free(k); ndt_free(sc); ndt_free(lam); ndt_free(nn); ndt_free(pp); ndt_free(lams);
  ndt_rng_free(r1);
  ndt_rng_free(r2);
}

int main(void) {
  OK(ndt_init(NULL));
  test_kat();
  test_reproducible();
  test_position();
  test_draws_and_state();
  ndt_rng *r;
  OK(ndt_rng_new(&r, 20240601));
  test_uniform(r);
  test_normal(r);
  test_exponential_gamma(r);
  test_poisson(r);
  test_binomial(r);
  test_integers(r);
  test_permutation(r);
  ndt_rng_free(r);
  test_errors();
  test_param_arrays();
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
