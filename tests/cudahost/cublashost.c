/* cublashost.c - a host emulation of the cuBLAS subset the CUDA plugin
 * calls (src/runtime/cuda_matmul.h): cublasCreate_v2, cublasDestroy_v2,
 * cublasSetStream_v2, cublasSetMathMode and S/D/C/Zgemm_v2, as
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
 * plugin's tests hold them to the stated bound. */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cudahost_ext.h"

enum { ST_OK = 0, ST_NOT_INITIALIZED = 1, ST_INVALID_VALUE = 7, ST_EXECUTION_FAILED = 13 };
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

#define GEMM_LOOP(T, LOAD)                                                                 \
  do {                                                                                     \
    const T *A = (const T *)j->a, *B = (const T *)j->b;                                    \
    T *Cm = (T *)j->c;                                                                     \
    for (int col = 0; col < j->n; col++)                                                   \
      for (int row = 0; row < j->m; row++) {                                               \
        T acc = 0;                                                                         \
        for (int l = 0; l < j->k; l++) {                                                   \
          T x = j->opa == OP_N ? A[row + (int64_t)l * j->lda] : A[l + (int64_t)row * j->lda]; \
          T y = j->opb == OP_N ? B[l + (int64_t)col * j->ldb] : B[col + (int64_t)l * j->ldb]; \
          acc += LOAD(x) * LOAD(y);                                                        \
        }                                                                                  \
        T *cp = &Cm[row + (int64_t)col * j->ldc];                                          \
        T r = alpha * acc;                                                                 \
        if (bz) *cp = r;                                                                   \
        else *cp = r + beta * *cp;                                                         \
      }                                                                                    \
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
