/* gemm.c - the CPU's integer and bool matrix products (float and complex
 * products go to BLAS): c (+)= a @ b on one block, which src/ops/matmul.c
 * chooses. */
#include <stddef.h>
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

ndt_gemm_fn ndt_cpu_gemm(ndt_dtype t) {
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
    default: return NULL;   /* float and complex: BLAS (src/ops/matmul.c) */
  }
}
