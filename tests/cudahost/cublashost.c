/* cublashost.c - a host emulation of the cuBLAS subset the CUDA plugin
 * calls (src/runtime/cuda_matmul.h): cublasCreate_v2, cublasDestroy_v2,
 * cublasSetStream_v2, cublasSetMathMode and S/D/C/Zgemm_v2, and the D and Z
 * getrfBatched, getrsBatched and getriBatched of src/runtime/cuda_linalg.h, as
 * libndtile_cublashost.so, which the plugin's host build
 * (libndtile_cudahost.so) dlopens in place of libcuBLAS, by the same path
 * (next to the plugin, or NDTILE_CUDA_CUBLAS).
 *
 * What it keeps of cuBLAS, so that the plugin's mistakes show here: its
 * arguments are checked as cuBLAS checks them (sizes, leading dimensions:
 * CUBLAS_STATUS_INVALID_VALUE); a gemm is queued on the handle's stream
 * (cudahost_ext.h) and runs later, on the stream's thread, with its three
 * matrices checked as device allocations of the stream's device (a matrix
 * reaching outside them faults the device, as a kernel would); C is not
 * read when beta is 0 (fresh device memory holds NaNs: a read shows);
 * column-major with op N or T. CUBLAS_TF32_TENSOR_OP_MATH rounds the
 * float32 (and complex64) inputs to TF32 (10 bits of mantissa), so a test
 * sees whether the plugin asked for it. The products are plain loops in
 * the type's precision, in k order: their bits are not OpenBLAS's, and the
 * plugin's tests hold them to the stated bound.
 *
 * The batched LU calls take arrays of matrix pointers that must lie in
 * device memory (checked as an operand when the call is queued: a host
 * array faults, as it would on a GPU), and each pointer read from them,
 * when the call runs, is checked as a device allocation of the stream's
 * device (cudahost_ext.h's reach); lda, ldb, ldc >= max(1, n), n, nrhs and
 * batchSize >= 0, else CUBLAS_STATUS_INVALID_VALUE (getrsBatched's info, a
 * host word, -i for the i-th argument). getrfBatched is unblocked LU with
 * partial pivoting (1-based pivots, n per matrix; no pivoting for a NULL
 * pivot array); its info is the first zero pivot (1-based), the
 * factorisation completed; getriBatched writes the inverse out of place
 * (NaNs where A and C overlap: cuBLAS leaves that undefined) with the
 * same info rule. Each counts in NDTILE_CUDAHOST_STATS as a "batched solver
 * launch". NDTILE_CUDAHOST_FAIL=gemm:N: the Nth gemm fails with
 * CUBLAS_STATUS_ALLOC_FAILED. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cudahost_ext.h"

enum { ST_OK = 0, ST_NOT_INITIALIZED = 1, ST_ALLOC_FAILED = 3, ST_INVALID_VALUE = 7,
       ST_EXECUTION_FAILED = 13 };
enum { OP_N = 0, OP_T = 1 };
enum { MATH_TF32 = 3 };

typedef struct {
  cudaStream_t stream;
  int math;
} handle;

#define EXPORT __attribute__((visibility("default")))

EXPORT int cublasCreate_v2(handle **h) {
  if (!h) return ST_INVALID_VALUE;
  *h = calloc(1, sizeof **h);
  return *h ? ST_OK : ST_NOT_INITIALIZED;
}

EXPORT int cublasDestroy_v2(handle *h) {
  free(h);
  return ST_OK;
}

EXPORT int cublasSetStream_v2(handle *h, cudaStream_t s) {
  if (!h) return ST_NOT_INITIALIZED;
  h->stream = s;
  return ST_OK;
}

EXPORT int cublasSetMathMode(handle *h, int mode) {
  if (!h) return ST_NOT_INITIALIZED;
  h->math = mode;
  return ST_OK;
}

/* NDTILE_CUDAHOST_FAIL=gemm:N: the Nth gemm call fails with
 * CUBLAS_STATUS_ALLOC_FAILED (cuBLAS could not get the device memory it
 * wanted), nothing queued */
static int gemm_refused(void) {
  static _Atomic long calls;
  static long at = -1;
  if (at < 0) {
    const char *f = getenv("NDTILE_CUDAHOST_FAIL"), *g = f ? strstr(f, "gemm:") : NULL;
    at = g ? atol(g + 5) : 0;
  }
  return at > 0 && ++calls == at;
}

/* one queued gemm: C = alpha op(A) op(B) + beta C, column-major */
typedef struct {
  int t;   /* 0 S, 1 D, 2 C, 3 Z */
  int opa, opb, m, n, k, lda, ldb, ldc, tf32;
  double alpha[2], beta[2];
  char *a, *b, *c;
} job;

/* float x rounded to TF32 (8 exponent bits, 10 of mantissa), to nearest */
static float tf32(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & ~0x1fffu;
  memcpy(&x, &u, 4);
  return x;
}

/* Each element of C is one sum in k order, acc += op(A)[row, l] op(B)[l, col],
 * in T's precision. op(A)'s rows and NB of op(B)'s columns are first copied
 * (LOAD applied) into contiguous buffers, and NB columns are summed side by
 * side: NB independent sums, each in k order, so the bits are those of one
 * element at a time, at a speed that keeps the emulated tests short (a
 * strided walk per element took minutes in make test). Without memory for
 * the buffers the elements are summed one at a time from the matrices. */
enum { NB = 8 };
#define GEMM_LOOP(T, LOAD)                                                                 \
  do {                                                                                     \
    const T *A = (const T *)j->a, *B = (const T *)j->b;                                    \
    T *Cm = (T *)j->c;                                                                     \
    int64_t K = j->k;                                                                      \
    T *pa = malloc(sizeof(T) * (size_t)(j->m * K + NB * K + 1)), *pb = pa + j->m * K;      \
    if (pa)                                                                                \
      for (int row = 0; row < j->m; row++)                                                 \
        for (int64_t l = 0; l < K; l++)                                                    \
          pa[row * K + l] = LOAD(j->opa == OP_N ? A[row + l * j->lda] : A[l + (int64_t)row * j->lda]); \
    for (int c0 = 0; c0 < j->n; c0 += NB) {                                                \
      int nb = j->n - c0 < NB ? j->n - c0 : NB;                                            \
      if (pa)                                                                              \
        for (int c = 0; c < nb; c++)                                                       \
          for (int64_t l = 0; l < K; l++) {                                                \
            int64_t col = c0 + c;                                                          \
            pb[c * K + l] = LOAD(j->opb == OP_N ? B[l + col * j->ldb] : B[col + l * j->ldb]); \
          }                                                                                \
      if (pa)                                   /* the last group's unused columns */       \
        for (int64_t l = (int64_t)nb * K; l < NB * K; l++) pb[l] = 0;                      \
      for (int row = 0; row < j->m; row++) {                                               \
        T acc[NB] = {0};                                                                   \
        if (pa) {                                                                          \
          const T *ar = pa + row * K;                                                      \
          for (int64_t l = 0; l < K; l++) {                                                \
            T x = ar[l];                                                                   \
            for (int c = 0; c < NB; c++) acc[c] += x * pb[c * K + l];                     \
          }                                                                                \
        } else                                                                             \
          for (int c = 0; c < nb; c++) {                                                   \
            int64_t col = c0 + c;                                                          \
            for (int64_t l = 0; l < K; l++) {                                              \
              T x = j->opa == OP_N ? A[row + l * j->lda] : A[l + (int64_t)row * j->lda];   \
              T y = j->opb == OP_N ? B[l + col * j->ldb] : B[col + l * j->ldb];            \
              acc[c] += LOAD(x) * LOAD(y);                                                 \
            }                                                                              \
          }                                                                                \
        for (int c = 0; c < nb; c++) {                                                     \
          T *cp = &Cm[row + (int64_t)(c0 + c) * j->ldc];                                   \
          T r = alpha * acc[c];                                                            \
          if (bz) *cp = r;                                                                 \
          else *cp = r + beta * *cp;                                                       \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
    free(pa);                                                                              \
  } while (0)

#define AS_IS(x) (x)
#define TF32(x) (j->tf32 ? tf32(x) : (x))
#define CTF32(x) (j->tf32 ? CMPLXF(tf32(crealf(x)), tf32(cimagf(x))) : (x))

static void run_gemm(void *p) {
  const job *j = p;
  int bz = j->beta[0] == 0 && j->beta[1] == 0;   /* C is not read */
  switch (j->t) {
    case 0: {
      float alpha = (float)j->alpha[0], beta = (float)j->beta[0];
      GEMM_LOOP(float, TF32);
      break;
    }
    case 1: {
      double alpha = j->alpha[0], beta = j->beta[0];
      GEMM_LOOP(double, AS_IS);
      break;
    }
    case 2: {
      float complex alpha = CMPLXF((float)j->alpha[0], (float)j->alpha[1]);
      float complex beta = CMPLXF((float)j->beta[0], (float)j->beta[1]);
      GEMM_LOOP(float complex, CTF32);
      break;
    }
    default: {
      double complex alpha = CMPLX(j->alpha[0], j->alpha[1]);
      double complex beta = CMPLX(j->beta[0], j->beta[1]);
      GEMM_LOOP(double complex, AS_IS);
      break;
    }
  }
}

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

static int gemm(handle *h, int t, int esz, int opa, int opb, int m, int n, int k,
                const double *alpha, const double *beta, const void *a, int lda, const void *b,
                int ldb, void *c, int ldc) {
  if (!h) return ST_NOT_INITIALIZED;
  if ((opa != OP_N && opa != OP_T) || (opb != OP_N && opb != OP_T) || m < 0 || n < 0 || k < 0 ||
      lda < max1(opa == OP_N ? m : k) || ldb < max1(opb == OP_N ? k : n) || ldc < max1(m))
    return ST_INVALID_VALUE;
  if (m == 0 || n == 0) return ST_OK;
  if (gemm_refused()) return ST_ALLOC_FAILED;
  const ndt_cudahost_ext *x = ndt_cudahost_ext_of(h->stream);
  if (!x || x->version != NDT_CUDAHOST_EXT_VERSION) return ST_EXECUTION_FAILED;   /* no stream set */
  job *j = malloc(sizeof *j);
  if (!j) return ST_EXECUTION_FAILED;
  *j = (job){.t = t, .opa = opa, .opb = opb, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb,
             .ldc = ldc, .tf32 = h->math == MATH_TF32 && (t == 0 || t == 2),
             .alpha = {alpha[0], alpha[1]}, .beta = {beta[0], beta[1]},
             .a = (char *)a, .b = (char *)b, .c = c};
  /* the bytes each matrix reaches (none of A and B when k is 0) */
  int64_t ar = opa == OP_N ? m : k, ac = opa == OP_N ? k : m;
  int64_t br = opb == OP_N ? k : n, bc = opb == OP_N ? n : k;
  size_t bytes[3] = {k ? (size_t)(((ac - 1) * lda + ar) * esz) : 0,
                     k ? (size_t)(((bc - 1) * ldb + br) * esz) : 0,
                     (size_t)(((int64_t)(n - 1) * ldc + m) * esz)};
  char **ptr[3] = {&j->a, &j->b, &j->c};   /* the job's own fields, moved in place */
  return x->launch(h->stream, 3, ptr, bytes, run_gemm, j, NDT_CUDAHOST_TALLY_GEMM, "gemm") ==
                 cudaSuccess
             ? ST_OK
             : ST_EXECUTION_FAILED;
}

EXPORT int cublasSgemm_v2(handle *h, int opa, int opb, int m, int n, int k, const float *alpha,
                          const float *a, int lda, const float *b, int ldb, const float *beta,
                          float *c, int ldc) {
  double al[2] = {*alpha, 0}, be[2] = {*beta, 0};
  return gemm(h, 0, 4, opa, opb, m, n, k, al, be, a, lda, b, ldb, c, ldc);
}

EXPORT int cublasDgemm_v2(handle *h, int opa, int opb, int m, int n, int k, const double *alpha,
                          const double *a, int lda, const double *b, int ldb,
                          const double *beta, double *c, int ldc) {
  double al[2] = {*alpha, 0}, be[2] = {*beta, 0};
  return gemm(h, 1, 8, opa, opb, m, n, k, al, be, a, lda, b, ldb, c, ldc);
}

EXPORT int cublasCgemm_v2(handle *h, int opa, int opb, int m, int n, int k, const float *alpha,
                          const void *a, int lda, const void *b, int ldb, const float *beta,
                          void *c, int ldc) {
  double al[2] = {alpha[0], alpha[1]}, be[2] = {beta[0], beta[1]};
  return gemm(h, 2, 8, opa, opb, m, n, k, al, be, a, lda, b, ldb, c, ldc);
}

EXPORT int cublasZgemm_v2(handle *h, int opa, int opb, int m, int n, int k, const double *alpha,
                          const void *a, int lda, const void *b, int ldb, const double *beta,
                          void *c, int ldc) {
  double al[2] = {alpha[0], alpha[1]}, be[2] = {beta[0], beta[1]};
  return gemm(h, 3, 16, opa, opb, m, n, k, al, be, a, lda, b, ldb, c, ldc);
}

/* ---- batched LU (getrfBatched, getrsBatched, getriBatched) ---- */

typedef struct {
  int what;   /* 0 getrf, 1 getrs, 2 getri */
  int cx, n, nrhs, lda, ldb, batch;
  cudaStream_t stream;
  const ndt_cudahost_ext *x;
  char *a, *b;        /* the arrays of matrix pointers (A, and B or C) */
  char *piv, *info;   /* n * batch pivots, batch info words (NULL: getrs, a host word) */
} bjob;

#define EL(T, p, i, j, ld) (((T *)(p))[(int64_t)(i) + (int64_t)(j) * (ld)])

#define BATCHED_LU(T, SFX, ABS)                                                              \
  static int lu_##SFX(T *a, int n, int lda, int *piv) {                                      \
    int info = 0;                                                                            \
    for (int c = 0; c < n; c++) {                                                            \
      int p = c;                                                                             \
      if (piv)                                                                               \
        for (int r = c + 1; r < n; r++)                                                      \
          if (ABS(EL(T, a, r, c, lda)) > ABS(EL(T, a, p, c, lda))) p = r;                    \
      if (piv) piv[c] = p + 1;                                                               \
      if (p != c)                                                                            \
        for (int k = 0; k < n; k++) {                                                        \
          T t = EL(T, a, c, k, lda);                                                         \
          EL(T, a, c, k, lda) = EL(T, a, p, k, lda);                                         \
          EL(T, a, p, k, lda) = t;                                                           \
        }                                                                                    \
      T d = EL(T, a, c, c, lda);                                                             \
      if (d == 0) {                                                                          \
        if (!info) info = c + 1;                                                             \
        continue;                                                                            \
      }                                                                                      \
      for (int r = c + 1; r < n; r++) {                                                      \
        T l = EL(T, a, r, c, lda) / d;                                                       \
        EL(T, a, r, c, lda) = l;                                                             \
        for (int k = c + 1; k < n; k++) EL(T, a, r, k, lda) -= l * EL(T, a, c, k, lda);     \
      }                                                                                      \
    }                                                                                        \
    return info;                                                                             \
  }                                                                                          \
  /* x := A^-1 x from the factors (the pivots applied first) */                              \
  static void lus_##SFX(const T *a, int n, int lda, const int *piv, T *x) {                  \
    for (int i = 0; i < n && piv; i++)                                                       \
      if (piv[i] - 1 != i) {                                                                 \
        T t = x[i];                                                                          \
        x[i] = x[piv[i] - 1];                                                                \
        x[piv[i] - 1] = t;                                                                   \
      }                                                                                      \
    for (int i = 0; i < n; i++)                                                              \
      for (int k = 0; k < i; k++) x[i] -= EL(T, a, i, k, lda) * x[k];                       \
    for (int i = n - 1; i >= 0; i--) {                                                       \
      for (int k = i + 1; k < n; k++) x[i] -= EL(T, a, i, k, lda) * x[k];                   \
      x[i] /= EL(T, a, i, i, lda);                                                           \
    }                                                                                        \
  }                                                                                          \
  static void batched_##SFX(bjob *j) {                                                       \
    int64_t esz = sizeof(T), n = j->n;                                                       \
    size_t am = (size_t)(((n - 1) * j->lda + n) * esz);                                      \
    size_t bm = (size_t)(((j->what == 1 ? j->nrhs - 1 : n - 1) * (int64_t)j->ldb + n) * esz); \
    for (int q = 0; q < j->batch; q++) {                                                     \
      char *a = ((char **)j->a)[q], *b = j->what ? ((char **)j->b)[q] : NULL;                \
      char *dev_a = a, *dev_b = b;                                                           \
      if (j->x->reach(j->stream, &a, am, "a batched LU call's matrix A[i]") ||              \
          (j->what && j->x->reach(j->stream, &b, bm, j->what == 1                            \
                                  ? "a batched LU call's matrix B[i]"                        \
                                  : "a batched LU call's matrix C[i]")))                     \
        return;                                                                              \
      int *piv = j->piv ? (int *)j->piv + (int64_t)q * n : NULL;                             \
      int *info = j->info ? (int *)j->info + q : NULL;                                       \
      if (j->what == 0) {                                                                    \
        *info = lu_##SFX((T *)a, j->n, j->lda, piv);                                         \
      } else if (j->what == 1) {                                                             \
        for (int c = 0; c < j->nrhs; c++)                                                    \
          lus_##SFX((const T *)a, j->n, j->lda, piv, &EL(T, b, 0, c, j->ldb));               \
      } else {                                                                               \
        int z = 0;                                                                           \
        for (int i = 0; i < j->n && !z; i++)                                                 \
          if (EL(T, a, i, i, j->lda) == 0) z = i + 1;                                        \
        *info = z;                                                                           \
        int overlap = dev_a < dev_b + bm && dev_b < dev_a + am;                              \
        for (int c = 0; c < j->n; c++) {                                                     \
          T *x = &EL(T, b, 0, c, j->ldb);                                                    \
          for (int i = 0; i < j->n; i++) x[i] = overlap ? NAN : (i == c);                    \
          if (!overlap) lus_##SFX((const T *)a, j->n, j->lda, piv, x);                       \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  }

BATCHED_LU(double, d, fabs)
BATCHED_LU(double complex, z, cabs)

static void run_batched(void *p) {
  bjob *j = p;
  if (j->cx) batched_z(j);
  else batched_d(j);
}

/* getriBatched with A's pivots: C = inv(A); getrs: B := inv(A) B */
static int batched(handle *h, bjob *jp, int *host_info) {
  if (!h) return ST_NOT_INITIALIZED;
  int n = jp->n, mx = n > 1 ? n : 1, bad = 0;
  if (n < 0) bad = jp->what == 1 ? 3 : 2;
  else if (jp->what == 1 && jp->nrhs < 0) bad = 4;
  else if (jp->lda < mx) bad = jp->what == 1 ? 6 : 4;
  else if (jp->what && jp->ldb < mx) bad = jp->what == 1 ? 9 : 7;
  else if (jp->batch < 0) bad = jp->what == 1 ? 11 : jp->what == 2 ? 9 : 7;
  else if (jp->what != 1 && !jp->info) bad = jp->what == 2 ? 8 : 6;   /* a device word each */
  if (host_info) *host_info = -bad;
  if (bad) return ST_INVALID_VALUE;
  if (n == 0 || jp->batch == 0 || (jp->what == 1 && jp->nrhs == 0)) return ST_OK;
  const ndt_cudahost_ext *x = ndt_cudahost_ext_of(h->stream);
  if (!x || x->version != NDT_CUDAHOST_EXT_VERSION) return ST_EXECUTION_FAILED;   /* no stream set */
  bjob *j = malloc(sizeof *j);
  if (!j) return ST_EXECUTION_FAILED;
  *j = *jp;
  j->stream = h->stream;
  j->x = x;
  size_t nb = (size_t)j->batch;
  size_t bytes[4] = {nb * sizeof(void *), j->what ? nb * sizeof(void *) : 0,
                     j->piv ? nb * (size_t)n * sizeof(int) : 0,
                     j->info ? nb * sizeof(int) : 0};
  char **ptr[4] = {&j->a, &j->b, &j->piv, &j->info};
  return x->launch(h->stream, 4, ptr, bytes, run_batched, j, NDT_CUDAHOST_TALLY_BATCHED,
                   j->what == 0 ? "getrfBatched" : j->what == 1 ? "getrsBatched"
                                                                : "getriBatched") == cudaSuccess
             ? ST_OK
             : ST_EXECUTION_FAILED;
}

EXPORT int cublasDgetrfBatched(handle *h, int n, void *const a[], int lda, int *piv, int *info,
                               int batch) {
  bjob j = {.what = 0, .cx = 0, .n = n, .lda = lda, .batch = batch, .a = (char *)a,
            .piv = (char *)piv, .info = (char *)info};
  return batched(h, &j, NULL);
}
EXPORT int cublasZgetrfBatched(handle *h, int n, void *const a[], int lda, int *piv, int *info,
                               int batch) {
  bjob j = {.what = 0, .cx = 1, .n = n, .lda = lda, .batch = batch, .a = (char *)a,
            .piv = (char *)piv, .info = (char *)info};
  return batched(h, &j, NULL);
}

static int getrs_b(handle *h, int cx, int trans, int n, int nrhs, const void *const a[], int lda,
                   const int *piv, void *const b[], int ldb, int *info, int batch) {
  if (trans != OP_N && trans != OP_T && trans != 2) {
    if (info) *info = -2;
    return ST_INVALID_VALUE;
  }
  if (trans != OP_N) return ST_INVALID_VALUE;   /* (the emulation: N only) */
  bjob j = {.what = 1, .cx = cx, .n = n, .nrhs = nrhs, .lda = lda, .ldb = ldb, .batch = batch,
            .a = (char *)a, .b = (char *)b, .piv = (char *)piv};
  return batched(h, &j, info);
}
EXPORT int cublasDgetrsBatched(handle *h, int trans, int n, int nrhs, const void *const a[],
                               int lda, const int *piv, void *const b[], int ldb, int *info,
                               int batch) {
  return getrs_b(h, 0, trans, n, nrhs, a, lda, piv, b, ldb, info, batch);
}
EXPORT int cublasZgetrsBatched(handle *h, int trans, int n, int nrhs, const void *const a[],
                               int lda, const int *piv, void *const b[], int ldb, int *info,
                               int batch) {
  return getrs_b(h, 1, trans, n, nrhs, a, lda, piv, b, ldb, info, batch);
}

EXPORT int cublasDgetriBatched(handle *h, int n, const void *const a[], int lda, const int *piv,
                               void *const c[], int ldc, int *info, int batch) {
  bjob j = {.what = 2, .cx = 0, .n = n, .lda = lda, .ldb = ldc, .batch = batch, .a = (char *)a,
            .b = (char *)c, .piv = (char *)piv, .info = (char *)info};
  return batched(h, &j, NULL);
}
EXPORT int cublasZgetriBatched(handle *h, int n, const void *const a[], int lda, const int *piv,
                               void *const c[], int ldc, int *info, int batch) {
  bjob j = {.what = 2, .cx = 1, .n = n, .lda = lda, .ldb = ldc, .batch = batch, .a = (char *)a,
            .b = (char *)c, .piv = (char *)piv, .info = (char *)info};
  return batched(h, &j, NULL);
}
