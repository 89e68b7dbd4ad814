/* fused_gen.h - what a generated fused kernel includes (its source is
 * written by src/runtime/fused_gen.c for one program of fused_impl.h):
 * the scalar functions the interpreter calls (ew_ops.h, scalar.h), the
 * launch's type (fused_types.h), and the kernel's frame.
 *
 * Compiled two ways: by NVRTC at run time (src/runtime/cuda_jit.c; the
 * headers go with the source, and <stdint.h>, <string.h>, <math.h> are
 * small stand-ins there, fused_gen.c), where a kernel is a __global__
 * function of the launch (by value, as the interpreter's) and the flags
 * words; and as C by the host build's emulated NVRTC (tests/cudahost),
 * where it is a function of one emulated thread, exported from a shared
 * object that the emulated cudaLibraryLoadData loads. */
#ifndef NDT_KERNELS_CUDA_FUSED_GEN_H
#define NDT_KERNELS_CUDA_FUSED_GEN_H

#include "kernels/cuda/ew_ops.h"
#include "kernels/cuda/fused_types.h"

#if defined(__CUDACC__)
#define NDT_FG_KERNEL(NAME)                                                              \
  extern "C" __global__ void NAME(const __grid_constant__ ndt_dk_flaunch L_, unsigned *flags) { \
    const ndt_dk_flaunch *L = &L_;                                                       \
    const int64_t bx = blockIdx.x, by = blockIdx.y, nbx = gridDim.x, tx = threadIdx.x,  \
                  ntx = blockDim.x;
#define NDT_FG_FLAGS(W, F)                 \
  do {                                     \
    if ((F) && flags) atomicOr(flags + (W), F); \
  } while (0)
#else
#define NDT_FG_KERNEL(NAME)                                                          \
  __attribute__((visibility("default"))) void NAME(const ndt_dk_flaunch *L, unsigned *flags, \
                                                   int64_t bx, int64_t by, int64_t nbx,   \
                                                   int64_t tx, int64_t ntx) {
#define NDT_FG_FLAGS(W, F)               \
  do {                                   \
    if ((F) && flags) flags[W] |= (F);   \
  } while (0)
#endif
#define NDT_FG_END }

/* operand K's element (i, j) of run r */
#define NDT_FG_AT(K) (r->p[K] + i * r->rs[K] + j * r->cs[K])

#endif
