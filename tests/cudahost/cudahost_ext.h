/* cudahost_ext.h - what the host emulation of the CUDA runtime
 * (cudahost.c) offers the emulations of other CUDA libraries that the
 * plugin loads with dlopen (cublashost.c: cuBLAS), so that their work runs
 * on the emulated streams with its operands checked as a kernel's are.
 * They reach it through the stream they are given: an emulated stream
 * begins with a pointer to this table (no symbol of the plugin needs to be
 * visible to a library it dlopens). */
#ifndef NDT_CUDAHOST_EXT_H
#define NDT_CUDAHOST_EXT_H
#include <stddef.h>
#include "cuda_runtime_api.h"

#define NDT_CUDAHOST_EXT_VERSION 2
/* what a launch counts as in NDTILE_CUDAHOST_STATS's line, besides a kernel */
#define NDT_CUDAHOST_TALLY_GEMM 1
#define NDT_CUDAHOST_TALLY_FFT 2
#define NDT_CUDAHOST_TALLY_SOLVER 3
#define NDT_CUDAHOST_TALLY_BATCHED 4   /* a batched LU or Cholesky call */

typedef struct {
  int version;
  /* Queues fn(ctx) on stream s as a kernel launch: each of the n device
   * ranges [*ptr[i], *ptr[i] + bytes[i]) (bytes 0: none) must lie in live
   * allocations of the stream's device, else the launch faults when it
   * runs (a sticky illegal address, with a line on stderr naming what);
   * each *ptr[i] is then moved to where the stream reaches it (ptr[i]
   * point into ctx). ctx is malloc'd by the caller and freed after fn
   * ran. Counted as a kernel launch (and NDTILE_CUDAHOST_FAIL=kernel:N
   * counts it), and as a gemm, an FFT, a solver call or a batched solver
   * call by tally (NDT_CUDAHOST_TALLY_*; 0: none). */
  cudaError_t (*launch)(cudaStream_t s, int n, char **const *ptr, const size_t *bytes,
                        void (*fn)(void *), void *ctx, int tally, const char *what);
  /* (version 2) Called by fn, on stream s's thread: a device pointer that
   * fn read from device memory (a batched call's array of matrices):
   * [*p, *p + bytes) must lie in live allocations of s's device; then *p
   * is moved to where the stream reaches it and 0 returned; else the
   * device faults (a sticky illegal address, a line on stderr naming
   * what) and -1 is returned (fn stops). */
  int (*reach)(cudaStream_t s, char **p, size_t bytes, const char *what);
} ndt_cudahost_ext;

static inline const ndt_cudahost_ext *ndt_cudahost_ext_of(cudaStream_t s) {
  return s ? *(const ndt_cudahost_ext *const *)(const void *)s : NULL;
}
#endif
