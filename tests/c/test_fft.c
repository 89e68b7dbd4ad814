/* test_fft.c - ndt_fft against a naive O(n^2) DFT in long double: many
 * lengths (1, primes small and large, powers of 2/3/5, mixed, 2*large
 * prime: both the Cooley-Tukey and the Bluestein paths), forward and
 * backward, real (r2c) and Hermitian (c2r) transforms with padding and
 * truncation, float32 data, lines along axis 0 and -1 of multi-tile 2-d
 * arrays and of a negative-step view, the errors, and bitwise the same
 * results with 1 and 4 workers. Tiles of 512 bytes make every multi-task
 * path run. */
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
  return (double)(rng >> 11) / 9007199254740992.0 - 0.5;
}

/* "quick" on the command line (for valgrind): only the shorter lengths. */
static int quick;

static const long double PI_L = 3.141592653589793238462643383279502884L;

/* y[k] = scale * sum_{j<h} x[j*xs] exp(sign*2 pi i jk/n), k < nout. */
static void dft(const double *x, int64_t xs, int64_t h, int64_t n, int sign, int64_t nout,
                long double *y) {
  for (int64_t k = 0; k < nout; k++) {
    long double sr = 0, si = 0;
    for (int64_t j = 0; j < h; j++) {
      long double a = 2 * PI_L * (long double)((j * k) % n) / n;
      long double c = cosl(a), s = sign * sinl(a);
      long double xr = x[2 * j * xs], xi = x[2 * j * xs + 1];
      sr += xr * c - xi * s;
      si += xr * s + xi * c;
    }
    y[2 * k] = sr;
    y[2 * k + 1] = si;
  }
}

/* max |got - ref| / max(1, rms(ref)) over nout complex values (stride gs). */
static double err(const double *got, int64_t gs, const long double *ref, int64_t nout,
                  int cplx) {
  long double e = 0, nrm = 0;
  for (int64_t k = 0; k < nout; k++) {
    long double dr = got[k * gs * (cplx ? 2 : 1)] - ref[2 * k];
    long double di = cplx ? got[k * gs * 2 + 1] - ref[2 * k + 1] : 0;
    long double d = sqrtl(dr * dr + di * di);
    if (d > e || d != d) e = d;
    nrm += ref[2 * k] * ref[2 * k] + (cplx ? ref[2 * k + 1] * ref[2 * k + 1] : 0);
  }
  nrm = sqrtl(nrm / (nout ? nout : 1));
  return (double)(e / (nrm > 1 ? nrm : 1));
}

static double tol(int64_t n) { return 4e-16 * (log2((double)n) + 2) * 4; }

static const int64_t LENS[] = {1,   2,   3,   4,   5,   6,   7,   8,    9,    11,   12,   13,
                               15,  16,  17,  25,  27,  30,  31,  32,   49,   61,   64,   67,
                               97,  100, 101, 125, 127, 128, 131, 134,  202,  243,  256,  625,
                               729, 1000, 1018, 1021, 1024, 2062, 2310, 3125, 4099};

/* 1-d complex transforms, both directions, with norms. */
static void c2c(void) {
  for (size_t t = 0; t < sizeof LENS / sizeof *LENS; t++) {
    int64_t n = LENS[t];
    if (quick && n > 300) continue;
    double *x = malloc(sizeof(double) * 2 * n), *y = malloc(sizeof(double) * 2 * n);
    long double *ref = malloc(sizeof(long double) * 2 * n);
    for (int64_t j = 0; j < 2 * n; j++) x[j] = urand();
    ndt_array *a = NULL;
    OK(ndt_from_buffer(&a, NDT_COMPLEX128, 1, &n, x, NULL));
    for (int dir = 0; dir < 2; dir++) {
      ndt_array *r = NULL;
      double scale = dir ? 1.0 / (double)n : 1.0;
      OK(ndt_fft(&r, a, 0, n, dir ? NDT_FFT_BACKWARD : NDT_FFT_FORWARD, scale));
      EXPECT(ndt_dtype_of(r) == NDT_COMPLEX128, "dtype");
      OK(ndt_to_buffer(r, y));
      dft(x, 1, n, n, dir ? 1 : -1, n, ref);
      for (int64_t k = 0; k < 2 * n; k++) ref[k] *= scale;
      double e = err(y, 1, ref, n, 1);
      EXPECT(e < tol(n), "c2c n=%lld dir=%d err %g", (long long)n, dir, e);
      ndt_free(r);
    }
    ndt_free(a);
    free(x);
    free(y);
    free(ref);
  }
}

/* r2c and c2r of lengths n with input lengths m (padding / truncation). */
static void real(void) {
  static const int64_t ns[] = {1, 2, 3, 4, 8, 15, 16, 67, 100, 131, 134, 262, 1000, 1021};
  for (size_t t = 0; t < sizeof ns / sizeof *ns; t++) {
    int64_t n = ns[t];
    if (quick && n > 200) continue;
    for (int pad = -1; pad <= 1; pad++) {
      int64_t m = n + pad * (n / 3 + 1);
      if (m < 1) m = 1;
      int64_t h = n / 2 + 1;
      double *x = malloc(sizeof(double) * 2 * (m + n + 2));
      double *xr = malloc(sizeof(double) * (m + 1)), *y = malloc(sizeof(double) * 2 * (n + 2));
      long double *ref = malloc(sizeof(long double) * 2 * (n + 2));
      for (int64_t j = 0; j < m; j++) xr[j] = urand();
      /* r2c */
      for (int64_t j = 0; j < m; j++) x[2 * j] = xr[j], x[2 * j + 1] = 0;
      ndt_array *a = NULL, *r = NULL;
      OK(ndt_from_buffer(&a, NDT_FLOAT64, 1, &m, xr, NULL));
      OK(ndt_fft(&r, a, -1, n, NDT_FFT_R2C, 1.0));
      EXPECT(ndt_size(r) == h && ndt_dtype_of(r) == NDT_COMPLEX128, "r2c shape");
      OK(ndt_to_buffer(r, y));
      dft(x, 1, m < n ? m : n, n, -1, h, ref);
      double e = err(y, 1, ref, h, 1);
      EXPECT(e < tol(n), "r2c n=%lld m=%lld err %g", (long long)n, (long long)m, e);
      ndt_free(r);
      ndt_free(a);
      /* c2r: m complex values, n/2+1 of them used */
      for (int64_t j = 0; j < 2 * m; j++) x[j] = urand();
      OK(ndt_from_buffer(&a, NDT_COMPLEX128, 1, &m, x, NULL));
      OK(ndt_fft(&r, a, 0, n, NDT_FFT_C2R, 0.5));
      EXPECT(ndt_size(r) == n && ndt_dtype_of(r) == NDT_FLOAT64, "c2r shape");
      OK(ndt_to_buffer(r, y));
      /* the reference: the full Hermitian spectrum, NumPy's rules */
      double *full = calloc((size_t)(2 * n), sizeof(double));
      int64_t g = m < h ? m : h;
      for (int64_t k = 0; k < g; k++) {
        full[2 * k] = x[2 * k];
        full[2 * k + 1] = x[2 * k + 1];
        if (k > 0 && 2 * k < n) {
          full[2 * (n - k)] = x[2 * k];
          full[2 * (n - k) + 1] = -x[2 * k + 1];
        }
      }
      full[1] = 0;
      if (n % 2 == 0 && n / 2 < g) full[n + 1] = 0;
      dft(full, 1, n, n, 1, n, ref);
      for (int64_t k = 0; k < 2 * n; k++) ref[k] *= 0.5L;
      for (int64_t k = 0; k < n; k++) ref[2 * k + 1] = 0;
      e = err(y, 1, ref, n, 0);
      EXPECT(e < tol(n), "c2r n=%lld m=%lld err %g", (long long)n, (long long)m, e);
      ndt_free(r);
      ndt_free(a);
      free(full);
      free(x);
      free(xr);
      free(y);
      free(ref);
    }
  }
}

/* Lines along axis 0 and -1 of a multi-tile 2-d array, a negative-step
 * view, float32 data; 1 vs 4 workers bitwise. */
static void lines(void) {
  static const int64_t dims[][2] = {{37, 64}, {64, 37}, {5, 1021}, {300, 12}, {9, 134}};
  for (size_t t = 0; t < sizeof dims / sizeof *dims; t++) {
    int64_t shape[2] = {dims[t][0], dims[t][1]}, sz = shape[0] * shape[1];
    if (quick && sz > 4000) continue;
    double *x = malloc(sizeof(double) * 2 * sz);
    float *xf = malloc(sizeof(float) * 2 * sz);
    for (int64_t j = 0; j < 2 * sz; j++) xf[j] = (float)(x[j] = urand());
    ndt_array *a = NULL;
    OK(ndt_from_buffer(&a, NDT_COMPLEX128, 2, shape, x, NULL));
    for (int ax = 0; ax < 2; ax++) {
      int64_t n = shape[ax], other = shape[1 - ax];
      int64_t xs = ax == 0 ? shape[1] : 1, ls = ax == 0 ? 1 : shape[1];
      double *y1 = malloc(sizeof(double) * 2 * sz), *y4 = malloc(sizeof(double) * 2 * sz);
      long double *ref = malloc(sizeof(long double) * 2 * n);
      for (int pass = 0; pass < 2; pass++) {
        OK(ndt_set_workers(pass ? 4 : 1));
        ndt_array *r = NULL;
        OK(ndt_fft(&r, a, ax - 2 * (ax == 1), n, NDT_FFT_FORWARD, 1.0));
        OK(ndt_to_buffer(r, pass ? y4 : y1));
        ndt_free(r);
      }
      EXPECT(memcmp(y1, y4, sizeof(double) * 2 * sz) == 0, "1 vs 4 workers");
      double e = 0;
      for (int64_t l = 0; l < other; l++) {
        dft(x + 2 * l * ls, xs, n, n, -1, n, ref);
        double el = err(y1 + 2 * l * ls, xs, ref, n, 1);
        if (el > e) e = el;
      }
      EXPECT(e < tol(n), "2-d %lldx%lld axis %d err %g", (long long)shape[0],
             (long long)shape[1], ax, e);
      /* float32 data: complex64 result, near the double one */
      ndt_array *af = NULL, *rf = NULL;
      OK(ndt_from_buffer(&af, NDT_COMPLEX64, 2, shape, xf, NULL));
      OK(ndt_fft(&rf, af, ax, n, NDT_FFT_FORWARD, 1.0));
      EXPECT(ndt_dtype_of(rf) == NDT_COMPLEX64, "complex64 result");
      float *yf = malloc(sizeof(float) * 2 * sz);
      OK(ndt_to_buffer(rf, yf));
      double ef = 0;
      for (int64_t j = 0; j < 2 * sz; j++) {
        double d = fabs((double)yf[j] - y1[j]);
        if (d > ef) ef = d;
      }
      EXPECT(ef < 1e-5 * sqrt((double)n), "complex64 err %g", ef);
      free(yf);
      ndt_free(rf);
      ndt_free(af);
      free(y1);
      free(y4);
      free(ref);
    }
    /* a negative-step view along the axis: a[:, ::-1] */
    ndt_array *v = NULL, *r = NULL;
    ndt_index idx[2] = {{.kind = NDT_IDX_SLICE, .step = 1},
                        {.kind = NDT_IDX_SLICE, .step = -1}};
    OK(ndt_view_index(&v, a, 2, idx));
    int64_t n = shape[1];
    OK(ndt_fft(&r, v, 1, n, NDT_FFT_FORWARD, 1.0));
    double *y = malloc(sizeof(double) * 2 * sz), *rev = malloc(sizeof(double) * 2 * n);
    long double *ref = malloc(sizeof(long double) * 2 * n);
    OK(ndt_to_buffer(r, y));
    double e = 0;
    for (int64_t l = 0; l < shape[0]; l++) {
      for (int64_t j = 0; j < n; j++) {
        rev[2 * j] = x[2 * (l * n + n - 1 - j)];
        rev[2 * j + 1] = x[2 * (l * n + n - 1 - j) + 1];
      }
      dft(rev, 1, n, n, -1, n, ref);
      double el = err(y + 2 * l * n, 1, ref, n, 1);
      if (el > e) e = el;
    }
    EXPECT(e < tol(n), "negative-step view err %g", e);
    free(y);
    free(rev);
    free(ref);
    ndt_free(r);
    ndt_free(v);
    ndt_free(a);
    free(x);
    free(xf);
  }
}

static void edge_cases(void) {
  int64_t shape[2] = {3, 4}, zs[2] = {0, 4}, z1 = 0;
  ndt_array *a = NULL, *r = NULL, *z = NULL, *s = NULL, *e = NULL;
  OK(ndt_zeros(&a, 2, shape, NDT_FLOAT64));
  EXPECT(ndt_fft(&r, a, 2, 4, NDT_FFT_FORWARD, 1) == NDT_ERR_AXIS, "axis 2");
  EXPECT(ndt_fft(&r, a, -3, 4, NDT_FFT_FORWARD, 1) == NDT_ERR_AXIS, "axis -3");
  EXPECT(ndt_fft(&r, a, 0, 0, NDT_FFT_FORWARD, 1) == NDT_ERR_VALUE, "n = 0");
  EXPECT(strstr(ndt_last_error(), "Invalid number of FFT data points (0)") != NULL, "msg %s",
         ndt_last_error());
  EXPECT(ndt_fft(&r, a, 0, 4, 7, 1) == NDT_ERR_VALUE, "bad kind");
  ndt_array *c = NULL;
  OK(ndt_zeros(&c, 2, shape, NDT_COMPLEX64));
  EXPECT(ndt_fft(&r, c, 0, 4, NDT_FFT_R2C, 1) == NDT_ERR_TYPE, "r2c complex");
  /* 0-d: no axis */
  double one = 1.0;
  OK(ndt_full(&s, 0, NULL, NDT_FLOAT64, &one, NDT_FLOAT64));
  EXPECT(ndt_fft(&r, s, -1, 1, NDT_FFT_FORWARD, 1) == NDT_ERR_AXIS, "0-d");
  /* empty other axis: an empty result; empty transform axis padded */
  OK(ndt_zeros(&z, 2, zs, NDT_FLOAT32));
  OK(ndt_fft(&r, z, 1, 6, NDT_FFT_R2C, 1));
  EXPECT(ndt_size(r) == 0 && ndt_dtype_of(r) == NDT_COMPLEX64, "empty");
  ndt_free(r);
  OK(ndt_zeros(&e, 1, &z1, NDT_INT32));
  OK(ndt_fft(&r, e, 0, 5, NDT_FFT_FORWARD, 1));
  double out[10];
  OK(ndt_to_buffer(r, out));
  int zero = 1;
  for (int k = 0; k < 10; k++) zero &= out[k] == 0;
  EXPECT(ndt_size(r) == 5 && zero && ndt_dtype_of(r) == NDT_COMPLEX128, "padded empty");
  ndt_free(r);
  /* failed allocations anywhere (plan, result, tasks) leave nothing behind */
  int64_t n67 = 67;
  ndt_array *p = NULL;
  OK(ndt_zeros(&p, 1, &n67, NDT_COMPLEX128));
  OK(ndt_sync());
  int failures = 0;
  for (int k = 1; k <= 12; k++) {
    ndt_debug_fail_alloc_after(k);
    r = NULL;
    ndt_status st = ndt_fft(&r, p, 0, 67, NDT_FFT_FORWARD, 1);
    if (st == NDT_OK) st = ndt_sync();
    ndt_debug_fail_alloc_after(0);
    failures += st != NDT_OK;
    EXPECT(st == NDT_OK || st == NDT_ERR_NOMEM || st == NDT_ERR_DEFERRED, "alloc %d: %d", k,
           (int)st);
    ndt_free(r);
    ndt_sync();
  }
  EXPECT(failures > 0, "no allocation failed");
  ndt_free(p);
  ndt_free(a);
  ndt_free(c);
  ndt_free(s);
  ndt_free(z);
  ndt_free(e);
}

int main(int argc, char **argv) {
  quick = argc > 1 && strcmp(argv[1], "quick") == 0;
  ndt_config cfg = {.workers = 4, .tile_bytes = 512, .inline_elems = -1};
  OK(ndt_init(&cfg));
  c2c();
  real();
  lines();
  edge_cases();
  OK(ndt_sync());
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
