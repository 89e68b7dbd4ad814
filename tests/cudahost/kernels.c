/* kernels.c - the CUDA plugin's kernels in its host build
 * (libndtile_cudahost.so): src/kernels/cuda/ew_impl.h, reduce_impl.h,
 * fused_impl.h, rng_impl.h, index_impl.h, nz_impl.h, gemm_impl.h, fold_impl.h, scan_impl.h,
 * combine_impl.h, lines_impl.h, sort_impl.h, bincount_impl.h, partition_impl.h and search_impl.h, which the .cu files compile
 * with nvcc, compiled as C
 * (NDT_DK_HOST: the grid emulated, every block and thread in turn;
 * NDT_SC_EMULATE: the device's flag inference and NaN fix-ups, over a
 * GPU's canonical NaNs), their launches queued on the emulated CUDA
 * streams (NDT_DK_STREAM, cudahost.c), with -ffp-contract=off as nvcc's
 * --fmad=false. The entry points are the ones cuda.c calls. */
#define NDT_SC_EMULATE 1
#define NDT_DK_HOST 1
#define NDT_DK_STREAM 1
#include <stdlib.h>
#include "kernels/cuda/ew_impl.h"
#include "kernels/cuda/reduce_impl.h"
#include "kernels/cuda/fused_impl.h"
#include "kernels/cuda/rng_impl.h"
#include "kernels/cuda/index_impl.h"
#include "kernels/cuda/nz_impl.h"
#include "kernels/cuda/gemm_impl.h"
#include "kernels/cuda/fold_impl.h"
#include "kernels/cuda/scan_impl.h"
#include "kernels/cuda/combine_impl.h"
#include "kernels/cuda/lines_impl.h"
#include "kernels/cuda/sort_impl.h"
#include "kernels/cuda/bincount_impl.h"
#include "kernels/cuda/partition_impl.h"
#include "kernels/cuda/search_impl.h"

/* NDTILE_CUDAHOST_GRID=B,T: the emulated grid's width and block size (2
 * blocks of 3 threads by default: small, so that the grid-stride loops go
 * round, and cheap) */
__attribute__((constructor)) static void grid_from_env(void) {
  ndt_dk_emu_blocks = 2;
  ndt_dk_emu_threads = 3;
  const char *g = getenv("NDTILE_CUDAHOST_GRID");
  if (g && *g) {
    int b = atoi(g);
    const char *c = strchr(g, ',');
    int t = c ? atoi(c + 1) : 0;
    if (b > 0) ndt_dk_emu_blocks = b;
    if (t > 0) ndt_dk_emu_threads = t;
  }
}
