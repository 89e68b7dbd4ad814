/* test_linalg.c - ndt_linalg by reconstruction, for float32/64, complex64/128
 * and int64 input, on stacks of matrices that span many 512-byte tiles:
 * A x = b, A inv(A) = I, L L^H = A (and U^H U), Q R = A with Q^H Q = I,
 * U S V^H = A with s descending, A v = w v (eigh and eig), the normal
 * equations of lstsq, det against the product of the pivots of a Gaussian
 * elimination done here; LinAlgError statuses and messages; the same bits
 * with 1 and 4 workers. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"

typedef double complex cx;

static uint64_t rng = 88172645463325252ull;
static double rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng % 2001) / 1000.0 - 1.0;   /* [-1, 1] in steps of 1e-3 */
}

static int is_c(ndt_dtype t) { return t == NDT_COMPLEX64 || t == NDT_COMPLEX128; }
static int single(ndt_dtype t) { return t == NDT_FLOAT32 || t == NDT_COMPLEX64; }
static double tol(ndt_dtype t) { return single(t) ? 2e-4 : 1e-10; }

/* An array of dtype t from cx values (ints round; reals drop imag). */
static ndt_array *mk(ndt_dtype t, int nd, const int64_t *sh, const cx *v) {
  int64_t n = 1;
  for (int k = 0; k < nd; k++) n *= sh[k];
  size_t isz = ndt_dtype_size(t);
  char *buf = malloc((size_t)n * isz + 1);
  for (int64_t i = 0; i < n; i++) {
    double re = creal(v[i]), im = cimag(v[i]);
    switch (t) {
      case NDT_INT64: { int64_t x = (int64_t)llround(re); memcpy(buf + i * 8, &x, 8); break; }
      case NDT_FLOAT32: { float x = (float)re; memcpy(buf + i * 4, &x, 4); break; }
      case NDT_FLOAT64: memcpy(buf + i * 8, &re, 8); break;
      case NDT_COMPLEX64: { float x[2] = {(float)re, (float)im}; memcpy(buf + i * 8, x, 8); break; }
      default: { double x[2] = {re, im}; memcpy(buf + i * 16, x, 16); break; }
    }
  }
  ndt_array *a = NULL;
  OK(ndt_from_buffer(&a, t, nd, sh, buf, NULL));
  free(buf);
  return a;
}

/* The values of a (float/complex/int64) as cx. */
static cx *get(const ndt_array *a) {
  int64_t n = ndt_size(a);
  ndt_dtype t = ndt_dtype_of(a);
  size_t isz = ndt_dtype_size(t);
  char *buf = malloc((size_t)n * isz + 1);
  OK(ndt_to_buffer(a, buf));
  cx *v = malloc(sizeof(cx) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) {
    switch (t) {
      case NDT_INT64: { int64_t x; memcpy(&x, buf + i * 8, 8); v[i] = (double)x; break; }
      case NDT_FLOAT32: { float x; memcpy(&x, buf + i * 4, 4); v[i] = x; break; }
      case NDT_FLOAT64: { double x; memcpy(&x, buf + i * 8, 8); v[i] = x; break; }
      case NDT_COMPLEX64: { float x[2]; memcpy(x, buf + i * 8, 8); v[i] = x[0] + I * x[1]; break; }
      default: { double x[2]; memcpy(x, buf + i * 16, 16); v[i] = x[0] + I * x[1]; break; }
    }
  }
  free(buf);
  return v;
}

/* nb random m x n matrices (C order), complex when cpx; plus d on the diagonal. */
static cx *rand_mats(int64_t nb, int64_t m, int64_t n, int cpx, double d, int ints) {
  cx *v = malloc(sizeof(cx) * (size_t)(nb * m * n));
  for (int64_t q = 0; q < nb; q++)
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double re = rnd() * (ints ? 5 : 1), im = cpx ? rnd() : 0;
        if (ints) re = round(re);
        v[(q * m + i) * n + j] = re + I * im + (i == j ? d : 0);
      }
  return v;
}

/* The values a matrix of dtype t really holds (rounded like mk). */
static void as_dtype(ndt_dtype t, cx *v, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    double re = creal(v[i]), im = cimag(v[i]);
    if (t == NDT_INT64) v[i] = round(re);
    else if (t == NDT_FLOAT32) v[i] = (float)re;
    else if (t == NDT_FLOAT64) v[i] = re;
    else if (t == NDT_COMPLEX64) v[i] = (float)re + I * (float)im;
  }
}

/* max |(X Y)_ij - Z_ij| for X (m x k), Y (k x n), Z (m x n); hx/hy: X/Y conj-transposed
 * (then given as k x m / n x k). */
static double mm_err(const cx *X, int hx, const cx *Y, int hy, const cx *Z, int64_t m,
                     int64_t k, int64_t n) {
  double e = 0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      cx s = 0;
      for (int64_t p = 0; p < k; p++) {
        cx x = hx ? conj(X[p * m + i]) : X[i * k + p];
        cx y = hy ? conj(Y[j * k + p]) : Y[p * n + j];
        s += x * y;
      }
      e = fmax(e, cabs(s - Z[i * n + j]));
    }
  return e;
}

static ndt_dtype TYPES[] = {NDT_FLOAT32, NDT_FLOAT64, NDT_COMPLEX64, NDT_COMPLEX128, NDT_INT64};

static ndt_dtype res_t(ndt_dtype t) { return t == NDT_INT64 ? NDT_FLOAT64 : t; }

static void test_solve_inv(ndt_dtype t) {
  int64_t nb = 9, n = 5, k = 2;
  cx *A = rand_mats(nb, n, n, is_c(t), 8, t == NDT_INT64), *B = rand_mats(nb, n, k, is_c(t), 0, t == NDT_INT64);
  as_dtype(t, A, nb * n * n);
  as_dtype(t, B, nb * n * k);
  int64_t sa[3] = {nb, n, n}, sb[3] = {nb, n, k};
  ndt_array *a = mk(t, 3, sa, A), *b = mk(t, 3, sb, B), *out[4];
  OK(ndt_linalg(out, NDT_LINALG_SOLVE, a, b, 0, 0));
  EXPECT(ndt_dtype_of(out[0]) == res_t(t) && out[1] == NULL, "solve dtype");
  cx *X = get(out[0]);
  double e = 0;
  for (int64_t q = 0; q < nb; q++)
    e = fmax(e, mm_err(A + q * n * n, 0, X + q * n * k, 0, B + q * n * k, n, n, k));
  EXPECT(e < tol(t) * 10 * (t == NDT_INT64 ? 10 : 1), "solve %s: |AX-B| = %g", ndt_dtype_name(t), e);
  ndt_free(out[0]);
  free(X);
  OK(ndt_linalg(out, NDT_LINALG_INV, a, NULL, 0, 0));
  X = get(out[0]);
  cx *Id = calloc((size_t)(n * n), sizeof(cx));
  for (int64_t i = 0; i < n; i++) Id[i * n + i] = 1;
  e = 0;
  for (int64_t q = 0; q < nb; q++) e = fmax(e, mm_err(A + q * n * n, 0, X + q * n * n, 0, Id, n, n, n));
  EXPECT(e < tol(t) * 10, "inv %s: |A inv(A) - I| = %g", ndt_dtype_name(t), e);
  ndt_free(out[0]);
  free(X);
  free(Id);
  ndt_free(a);
  ndt_free(b);
  free(A);
  free(B);
}

static void test_cholesky(ndt_dtype t) {
  if (t == NDT_INT64) return;
  int64_t nb = 6, n = 4;
  cx *G = rand_mats(nb, n, n, is_c(t), 0, 0), *S = malloc(sizeof(cx) * (size_t)(nb * n * n));
  for (int64_t q = 0; q < nb; q++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        cx s = i == j ? n : 0;
        for (int64_t p = 0; p < n; p++) s += G[(q * n + i) * n + p] * conj(G[(q * n + j) * n + p]);
        S[(q * n + i) * n + j] = s;
      }
  as_dtype(t, S, nb * n * n);
  int64_t sh[3] = {nb, n, n};
  ndt_array *a = mk(t, 3, sh, S), *out[4];
  for (int up = 0; up <= 1; up++) {
    OK(ndt_linalg(out, NDT_LINALG_CHOLESKY, a, NULL, up, 0));
    cx *L = get(out[0]);
    double e = 0, z = 0;
    for (int64_t q = 0; q < nb; q++) {
      const cx *Lq = L + q * n * n;
      /* lower: L L^H; upper: U^H U */
      e = fmax(e, up ? mm_err(Lq, 1, Lq, 0, S + q * n * n, n, n, n)
                     : mm_err(Lq, 0, Lq, 1, S + q * n * n, n, n, n));
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
          if (up ? i > j : i < j) z = fmax(z, cabs(Lq[i * n + j]));
    }
    EXPECT(e < tol(t) * 40 && z == 0, "cholesky %s up=%d: err %g, other triangle %g",
           ndt_dtype_name(t), up, e, z);
    ndt_free(out[0]);
    free(L);
  }
  ndt_free(a);
  free(G);
  free(S);
}

/* det by Gaussian elimination with partial pivoting, in cx. */
static cx ref_det(const cx *A, int64_t n) {
  cx *M = malloc(sizeof(cx) * (size_t)(n * n)), d = 1;
  memcpy(M, A, sizeof(cx) * (size_t)(n * n));
  for (int64_t c = 0; c < n; c++) {
    int64_t p = c;
    for (int64_t r = c + 1; r < n; r++)
      if (cabs(M[r * n + c]) > cabs(M[p * n + c])) p = r;
    if (p != c) {
      for (int64_t j = 0; j < n; j++) {
        cx x = M[c * n + j];
        M[c * n + j] = M[p * n + j];
        M[p * n + j] = x;
      }
      d = -d;
    }
    d *= M[c * n + c];
    if (M[c * n + c] == 0) break;
    for (int64_t r = c + 1; r < n; r++) {
      cx f = M[r * n + c] / M[c * n + c];
      for (int64_t j = c; j < n; j++) M[r * n + j] -= f * M[c * n + j];
    }
  }
  free(M);
  return d;
}

static void test_det(ndt_dtype t) {
  int64_t nb = 20, n = 4;
  cx *A = rand_mats(nb, n, n, is_c(t), 0, t == NDT_INT64);
  as_dtype(t, A, nb * n * n);
  for (int64_t j = 0; j < n; j++) A[n * n + n + j] = 0;   /* matrix 1 singular */
  int64_t sh[3] = {nb, n, n};
  ndt_array *a = mk(t, 3, sh, A), *out[4], *o2[4];
  OK(ndt_linalg(out, NDT_LINALG_DET, a, NULL, 0, 0));
  OK(ndt_linalg(o2, NDT_LINALG_SLOGDET, a, NULL, 0, 0));
  EXPECT(ndt_ndim(out[0]) == 1 && ndt_shape(out[0])[0] == nb, "det shape");
  cx *D = get(out[0]), *S = get(o2[0]), *L = get(o2[1]);
  double e = 0, e2 = 0;
  for (int64_t q = 0; q < nb; q++) {
    cx r = ref_det(A + q * n * n, n);
    e = fmax(e, cabs(D[q] - r) / fmax(1, cabs(r)));
    if (q != 1) e2 = fmax(e2, cabs(S[q] * exp(creal(L[q])) - r) / fmax(1, cabs(r)));
  }
  EXPECT(e < tol(t) * 10, "det %s: %g", ndt_dtype_name(t), e);
  EXPECT(e2 < tol(t) * 10, "slogdet %s: %g", ndt_dtype_name(t), e2);
  EXPECT(D[1] == 0 && S[1] == 0 && isinf(creal(L[1])) && creal(L[1]) < 0,
         "singular det %s", ndt_dtype_name(t));
  EXPECT(ndt_dtype_of(o2[1]) == (single(t) ? NDT_FLOAT32 : NDT_FLOAT64), "logdet dtype");
  for (int i = 0; i < 2; i++) ndt_free(o2[i]);
  ndt_free(out[0]);
  ndt_free(a);
  free(A);
  free(D);
  free(S);
  free(L);
}

static void test_qr_svd(ndt_dtype t, int64_t m, int64_t n) {
  int64_t nb = 5, k = m < n ? m : n;
  cx *A = rand_mats(nb, m, n, is_c(t), 0, t == NDT_INT64);
  as_dtype(t, A, nb * m * n);
  int64_t sh[3] = {nb, m, n};
  ndt_array *a = mk(t, 3, sh, A), *out[4];
  /* reduced QR: Q (m,k), R (k,n) */
  OK(ndt_linalg(out, NDT_LINALG_QR, a, NULL, 0, 0));
  cx *Q = get(out[0]), *R = get(out[1]);
  cx *Id = calloc((size_t)(k * k), sizeof(cx));
  for (int64_t i = 0; i < k; i++) Id[i * k + i] = 1;
  double e = 0, eo = 0, tri = 0;
  for (int64_t q = 0; q < nb; q++) {
    e = fmax(e, mm_err(Q + q * m * k, 0, R + q * k * n, 0, A + q * m * n, m, k, n));
    eo = fmax(eo, mm_err(Q + q * m * k, 1, Q + q * m * k, 0, Id, k, m, k));
    for (int64_t i = 0; i < k; i++)
      for (int64_t j = 0; j < i && j < n; j++) tri = fmax(tri, cabs(R[q * k * n + i * n + j]));
  }
  double sc = t == NDT_INT64 ? 5 : 1;
  EXPECT(e < tol(t) * 10 * sc && eo < tol(t) * 10 && tri == 0,
         "qr %s %lldx%lld: |QR-A| %g |Q^HQ-I| %g tri %g", ndt_dtype_name(t), (long long)m,
         (long long)n, e, eo, tri);
  ndt_free(out[0]);
  ndt_free(out[1]);
  free(Q);
  free(R);
  /* full SVD: U (m,m) S (k) Vh (n,n) */
  OK(ndt_linalg(out, NDT_LINALG_SVD, a, NULL, 3, 0));
  EXPECT(ndt_shape(out[0])[1] == m && ndt_shape(out[2])[1] == n, "svd shapes");
  cx *U = get(out[0]), *S = get(out[1]), *V = get(out[2]);
  cx *US = malloc(sizeof(cx) * (size_t)(m * k)), *Vk = malloc(sizeof(cx) * (size_t)(k * n));
  e = 0;
  int desc = 1;
  for (int64_t q = 0; q < nb; q++) {
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < k; j++) US[i * k + j] = U[q * m * m + i * m + j] * S[q * k + j];
    memcpy(Vk, V + q * n * n, sizeof(cx) * (size_t)(k * n));
    e = fmax(e, mm_err(US, 0, Vk, 0, A + q * m * n, m, k, n));
    for (int64_t j = 1; j < k; j++) desc &= creal(S[q * k + j]) <= creal(S[q * k + j - 1]);
  }
  EXPECT(e < tol(t) * 10 * sc && desc, "svd %s: |USV^H - A| %g desc %d", ndt_dtype_name(t), e,
         desc);
  for (int i = 0; i < 3; i++) ndt_free(out[i]);
  free(U);
  free(S);
  free(V);
  free(US);
  free(Vk);
  free(Id);
  ndt_free(a);
  free(A);
}

static void test_eig(ndt_dtype t) {
  int64_t nb = 8, n = 5;
  cx *A = rand_mats(nb, n, n, is_c(t), 0, t == NDT_INT64), *H = malloc(sizeof(cx) * (size_t)(nb * n * n));
  as_dtype(t, A, nb * n * n);
  for (int64_t q = 0; q < nb; q++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++)
        H[(q * n + i) * n + j] = i >= j ? A[(q * n + i) * n + j] : conj(A[(q * n + j) * n + i]);
  for (int64_t i = 0; i < nb * n; i++) H[i * n + i % n] = creal(H[i * n + i % n]);
  int64_t sh[3] = {nb, n, n};
  ndt_array *a = mk(t, 3, sh, A), *out[4];
  /* eigh reads the lower triangle: A's lower triangle is H's */
  OK(ndt_linalg(out, NDT_LINALG_EIGH, a, NULL, 1, 0));
  cx *W = get(out[0]), *V = get(out[1]);
  double e = 0;
  int asc = 1;
  for (int64_t q = 0; q < nb; q++) {
    cx *VW = malloc(sizeof(cx) * (size_t)(n * n));
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) VW[i * n + j] = V[q * n * n + i * n + j] * W[q * n + j];
    e = fmax(e, mm_err(H + q * n * n, 0, V + q * n * n, 0, VW, n, n, n));
    for (int64_t j = 1; j < n; j++) asc &= creal(W[q * n + j]) >= creal(W[q * n + j - 1]);
    free(VW);
  }
  double sc = t == NDT_INT64 ? 5 : 1;
  EXPECT(e < tol(t) * 10 * sc && asc, "eigh %s: |Hv - wv| %g", ndt_dtype_name(t), e);
  ndt_free(out[0]);
  ndt_free(out[1]);
  free(W);
  free(V);
  OK(ndt_linalg(out, NDT_LINALG_EIG, a, NULL, 1, 0));
  EXPECT(is_c(ndt_dtype_of(out[0])), "eig is complex");
  W = get(out[0]);
  V = get(out[1]);
  e = 0;
  for (int64_t q = 0; q < nb; q++) {
    cx *VW = malloc(sizeof(cx) * (size_t)(n * n));
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) VW[i * n + j] = V[q * n * n + i * n + j] * W[q * n + j];
    e = fmax(e, mm_err(A + q * n * n, 0, V + q * n * n, 0, VW, n, n, n));
    free(VW);
  }
  EXPECT(e < tol(t) * 20 * sc, "eig %s: |Av - wv| %g", ndt_dtype_name(t), e);
  ndt_free(out[0]);
  ndt_free(out[1]);
  free(W);
  free(V);
  ndt_free(a);
  free(A);
  free(H);
}

static void test_lstsq(ndt_dtype t) {
  int64_t m = 9, n = 4, k = 2;
  cx *A = rand_mats(1, m, n, is_c(t), 0, t == NDT_INT64), *B = rand_mats(1, m, k, is_c(t), 0, t == NDT_INT64);
  as_dtype(t, A, m * n);
  as_dtype(t, B, m * k);
  int64_t sa[2] = {m, n}, sb[2] = {m, k};
  ndt_array *a = mk(t, 2, sa, A), *b = mk(t, 2, sb, B), *out[4];
  OK(ndt_linalg(out, NDT_LINALG_LSTSQ, a, b, 0, 1e-12));
  cx *X = get(out[0]), *Rs = get(out[1]), *Rk = get(out[2]);
  /* residual r = B - A X; A^H r = 0 and |r|^2 = residuals */
  cx *AX = calloc((size_t)(m * k), sizeof(cx)), *Z = calloc((size_t)(n * k), sizeof(cx));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < k; j++) {
      for (int64_t p = 0; p < n; p++) AX[i * k + j] += A[i * n + p] * X[p * k + j];
      AX[i * k + j] = B[i * k + j] - AX[i * k + j];
    }
  double e = mm_err(A, 1, AX, 0, Z, n, m, k), er = 0;
  for (int64_t j = 0; j < k; j++) {
    double s = 0;
    for (int64_t i = 0; i < m; i++) s += creal(AX[i * k + j] * conj(AX[i * k + j]));
    er = fmax(er, fabs(s - creal(Rs[j])) / fmax(1, s));
  }
  double sc = t == NDT_INT64 ? 20 : 1;
  EXPECT(e < tol(t) * 10 * sc && er < tol(t) * 10 && creal(Rk[0]) == n,
         "lstsq %s: normal eq %g, residuals %g, rank %g", ndt_dtype_name(t), e, er, creal(Rk[0]));
  for (int i = 0; i < 4; i++) ndt_free(out[i]);
  ndt_free(a);
  ndt_free(b);
  free(A);
  free(B);
  free(X);
  free(Rs);
  free(Rk);
  free(AX);
  free(Z);
}

static void test_errors(void) {
  ndt_array *out[4];
  int64_t s1[1] = {3}, s2[2] = {2, 3}, s3[3] = {30, 2, 2};
  cx v[120] = {0};
  ndt_array *a1 = mk(NDT_FLOAT64, 1, s1, v), *a2 = mk(NDT_FLOAT64, 2, s2, v);
  EXPECT(ndt_linalg(out, NDT_LINALG_INV, a1, NULL, 0, 0) == NDT_ERR_LINALG &&
             strstr(ndt_last_error(), "1-dimensional array given. Array must be at least "
                                      "two-dimensional"),
         "1-d: %s", ndt_last_error());
  EXPECT(ndt_linalg(out, NDT_LINALG_DET, a2, NULL, 0, 0) == NDT_ERR_LINALG &&
             !strcmp(ndt_last_error(), "Last 2 dimensions of the array must be square"),
         "square: %s", ndt_last_error());
  EXPECT(ndt_linalg(out, NDT_LINALG_SOLVE, a2, NULL, 0, 0) == NDT_ERR_VALUE, "missing b");
  /* a stack where matrix 13 is singular: deferred to the next wait */
  for (int q = 0; q < 30; q++)
    if (q != 13) v[q * 4] = v[q * 4 + 3] = 1;
  ndt_array *a3 = mk(NDT_FLOAT64, 3, s3, v);
  ndt_status st = ndt_linalg(out, NDT_LINALG_INV, a3, NULL, 0, 0);
  if (st == NDT_OK) {
    st = ndt_sync();
    ndt_free(out[0]);
  }
  EXPECT(st == NDT_ERR_LINALG && strstr(ndt_last_error(), "Singular matrix"), "singular: %d %s",
         st, ndt_last_error());
  cx neg[4] = {-1, 0, 0, -1};
  int64_t s22[2] = {2, 2};
  ndt_array *an = mk(NDT_FLOAT64, 2, s22, neg);
  st = ndt_linalg(out, NDT_LINALG_CHOLESKY, an, NULL, 0, 0);
  if (st == NDT_OK) {
    st = ndt_sync();
    ndt_free(out[0]);
  }
  EXPECT(st == NDT_ERR_LINALG && strstr(ndt_last_error(), "Matrix is not positive definite"),
         "not PD: %s", ndt_last_error());
  OK(ndt_sync());
  ndt_free(a1);
  ndt_free(a2);
  ndt_free(a3);
  ndt_free(an);
}

/* Results have the same bits for 1 and 4 workers. */
static void test_workers(void) {
  int64_t nb = 40, n = 6, sh[3] = {nb, n, n};
  cx *A = rand_mats(nb, n, n, 0, 3, 0);
  cx *r[2][3];
  for (int w = 0; w < 2; w++) {
    OK(ndt_set_workers(w ? 4 : 1));
    ndt_array *a = mk(NDT_FLOAT64, 3, sh, A), *o1[4], *o2[4], *o3[4];
    OK(ndt_linalg(o1, NDT_LINALG_INV, a, NULL, 0, 0));
    OK(ndt_linalg(o2, NDT_LINALG_SVD, a, NULL, 1, 0));
    OK(ndt_linalg(o3, NDT_LINALG_EIG, a, NULL, 0, 0));
    r[w][0] = get(o1[0]);
    r[w][1] = get(o2[1]);
    r[w][2] = get(o3[0]);
    ndt_free(o1[0]);
    for (int i = 0; i < 3; i++) ndt_free(o2[i]);
    ndt_free(o3[0]);
    ndt_free(a);
  }
  int64_t len[3] = {nb * n * n, nb * n, nb * n};
  for (int i = 0; i < 3; i++) {
    EXPECT(!memcmp(r[0][i], r[1][i], sizeof(cx) * (size_t)len[i]), "bits differ (%d)", i);
    free(r[0][i]);
    free(r[1][i]);
  }
  free(A);
}

int main(void) {
  ndt_config cfg = {.workers = 4, .tile_bytes = 512, .inline_elems = -1};
  OK(ndt_init(&cfg));
  for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++) {
    ndt_dtype t = TYPES[i];
    test_solve_inv(t);
    test_cholesky(t);
    test_det(t);
    test_qr_svd(t, 6, 4);
    test_qr_svd(t, 4, 6);
    test_eig(t);
    test_lstsq(t);
  }
  test_errors();
  test_workers();
  OK(ndt_sync());
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
