/* gemm.c - the CPU's matrix products: c (+)= a @ b on one block, which
 * src/ops/matmul.c chooses. Integer and bool products are plain loops here;
 * float and complex products and the float matrix-vector product call the
 * BLAS that src/blas.h names (set up by ndt__blas_init, src/blas.c), so a
 * backend with its own BLAS (cuBLAS) installs it behind the same entries. */
#include <stddef.h>
#include "blas.h"
#include "cpu.h"

/* Integer products in an unsigned type of at least the width: wraps modulo
 * 2^bits with no undefined behaviour. */
#define INT_KERNEL(NAME, T, U)                                                   \
  static void NAME(int64_t R, int64_t C, int64_t K, ndt_mat a, ndt_mat b, ndt_mat c, int acc) { \
    const T *pa = (const T *)a.p, *pb = (const T *)b.p;                          \
    T *pc = (T *)c.p;                                                            \
    for (int64_t i = 0; i < R; i++) {                                            \
      T *cr = pc + i * c.rs;                                                     \
      if (!acc)                                                                  \
        for (int64_t j = 0; j < C; j++) cr[j * c.cs] = 0;                        \
      for (int64_t k = 0; k < K; k++) {                                          \
        U av = (U)pa[i * a.rs + k * a.cs];                                       \
        if (!av) continue;                                                       \
        const T *br = pb + k * b.rs;                                             \
        if (c.cs == 1 && b.cs == 1)                                              \
          for (int64_t j = 0; j < C; j++) cr[j] = (T)((U)cr[j] + av * (U)br[j]); \
        else                                                                     \
          for (int64_t j = 0; j < C; j++)                                        \
            cr[j * c.cs] = (T)((U)cr[j * c.cs] + av * (U)br[j * b.cs]);          \
      }                                                                          \
    }                                                                            \
  }
INT_KERNEL(mm_i8, int8_t, uint32_t)
INT_KERNEL(mm_i16, int16_t, uint32_t)
INT_KERNEL(mm_i32, int32_t, uint32_t)
INT_KERNEL(mm_i64, int64_t, uint64_t)
INT_KERNEL(mm_u8, uint8_t, uint32_t)
INT_KERNEL(mm_u16, uint16_t, uint32_t)
INT_KERNEL(mm_u32, uint32_t, uint32_t)
INT_KERNEL(mm_u64, uint64_t, uint64_t)

static void mm_bool(int64_t R, int64_t C, int64_t K, ndt_mat a, ndt_mat b, ndt_mat c, int acc) {
  const uint8_t *pa = (const uint8_t *)a.p, *pb = (const uint8_t *)b.p;
  uint8_t *pc = (uint8_t *)c.p;
  for (int64_t i = 0; i < R; i++) {
    uint8_t *cr = pc + i * c.rs;
    if (!acc)
      for (int64_t j = 0; j < C; j++) cr[j * c.cs] = 0;
    for (int64_t k = 0; k < K; k++) {
      if (!pa[i * a.rs + k * a.cs]) continue;
      const uint8_t *br = pb + k * b.rs;
      for (int64_t j = 0; j < C; j++) cr[j * c.cs] |= br[j * b.cs] != 0;
    }
  }
}

/* ---- BLAS ----------------------------------------------------------------- */
/* The product through cblas_?gemm: the layout (row- or column-major, each
 * operand transposed or not) read off the unit strides that
 * ndt_mat_blas_ok made sure of. */
static void blas_gemm(ndt_dtype ct, int64_t R, int64_t C, int64_t K, ndt_mat a, ndt_mat b,
                      ndt_mat c, int acc) {
  ndt_mat_blas_ok(R, K, &a.rs, &a.cs);
  ndt_mat_blas_ok(K, C, &b.rs, &b.cs);
  ndt_mat_blas_ok(R, C, &c.rs, &c.cs);
  int64_t c1 = C > 1 ? C : 1, k1 = K > 1 ? K : 1, r1 = R > 1 ? R : 1;
  int row = c.cs == 1 && c.rs >= c1;
  enum CBLAS_ORDER order = row ? CblasRowMajor : CblasColMajor;
  blasint ldc = (blasint)(row ? c.rs : c.cs);
  enum CBLAS_TRANSPOSE ta, tb;
  blasint lda, ldb;
  if (row) {
    int na = a.cs == 1 && a.rs >= k1, nb = b.cs == 1 && b.rs >= c1;
    ta = na ? CblasNoTrans : CblasTrans;
    lda = (blasint)(na ? a.rs : a.cs);
    tb = nb ? CblasNoTrans : CblasTrans;
    ldb = (blasint)(nb ? b.rs : b.cs);
  } else {
    int na = a.rs == 1 && a.cs >= r1, nb = b.rs == 1 && b.cs >= k1;
    ta = na ? CblasNoTrans : CblasTrans;
    lda = (blasint)(na ? a.cs : a.rs);
    tb = nb ? CblasNoTrans : CblasTrans;
    ldb = (blasint)(nb ? b.cs : b.rs);
  }
  blasint m = (blasint)R, n = (blasint)C, k = (blasint)K;
  switch (ct) {
    case NDT_FLOAT32:
      cblas_sgemm(order, ta, tb, m, n, k, 1.0f, (const float *)a.p, lda, (const float *)b.p, ldb,
                  acc ? 1.0f : 0.0f, (float *)c.p, ldc);
      break;
    case NDT_FLOAT64:
      cblas_dgemm(order, ta, tb, m, n, k, 1.0, (const double *)a.p, lda, (const double *)b.p,
                  ldb, acc ? 1.0 : 0.0, (double *)c.p, ldc);
      break;
    case NDT_COMPLEX64: {
      const float one[2] = {1, 0}, beta[2] = {acc ? 1.0f : 0.0f, 0};
      cblas_cgemm(order, ta, tb, m, n, k, one, a.p, lda, b.p, ldb, beta, c.p, ldc);
      break;
    }
    default: {
      const double one[2] = {1, 0}, beta[2] = {acc ? 1.0 : 0.0, 0};
      cblas_zgemm(order, ta, tb, m, n, k, one, a.p, lda, b.p, ldb, beta, c.p, ldc);
      break;
    }
  }
}

#define BLAS_KERNEL(NAME, T)                                                              \
  static void NAME(int64_t R, int64_t C, int64_t K, ndt_mat a, ndt_mat b, ndt_mat c, int acc) { \
    blas_gemm(T, R, C, K, a, b, c, acc);                                                  \
  }
BLAS_KERNEL(mm_f32, NDT_FLOAT32)
BLAS_KERNEL(mm_f64, NDT_FLOAT64)
BLAS_KERNEL(mm_c64, NDT_COMPLEX64)
BLAS_KERNEL(mm_c128, NDT_COMPLEX128)

static void mv_f64(int trans, int64_t rows, int64_t cols, const char *a, int64_t lda,
                   const char *x, char *y, int64_t incy) {
  cblas_dgemv(CblasRowMajor, trans ? CblasTrans : CblasNoTrans, (blasint)rows, (blasint)cols,
              1.0, (const double *)a, (blasint)lda, (const double *)x, 1, 0.0, (double *)y,
              (blasint)incy);
}

static void mv_f32(int trans, int64_t rows, int64_t cols, const char *a, int64_t lda,
                   const char *x, char *y, int64_t incy) {
  cblas_sgemv(CblasRowMajor, trans ? CblasTrans : CblasNoTrans, (blasint)rows, (blasint)cols,
              1.0f, (const float *)a, (blasint)lda, (const float *)x, 1, 0.0f, (float *)y,
              (blasint)incy);
}

ndt_gemm_fn ndt__cpu_gemm(ndt_dtype t) {
  switch (t) {
    case NDT_BOOL: return mm_bool;
    case NDT_INT8: return mm_i8;
    case NDT_INT16: return mm_i16;
    case NDT_INT32: return mm_i32;
    case NDT_INT64: return mm_i64;
    case NDT_UINT8: return mm_u8;
    case NDT_UINT16: return mm_u16;
    case NDT_UINT32: return mm_u32;
    case NDT_UINT64: return mm_u64;
    case NDT_FLOAT32: return mm_f32;
    case NDT_FLOAT64: return mm_f64;
    case NDT_COMPLEX64: return mm_c64;
    case NDT_COMPLEX128: return mm_c128;
    default: return NULL;
  }
}

ndt_gemv_fn ndt__cpu_gemv(ndt_dtype t) {
  switch (t) {
    case NDT_FLOAT32: return mv_f32;
    case NDT_FLOAT64: return mv_f64;
    default: return NULL;
  }
}
