/* gemm_impl.h - the device's integer and bool matrix products (the CUDA
 * plugin's "matmul block" tasks of those dtypes; float and complex ones go
 * to cuBLAS, src/runtime/cuda_matmul.h): c (+)= a @ b per run, any byte
 * strides, one thread per element of c, its sum over k in order.
 * Integers add and multiply in the unsigned type of their width, so they
 * wrap as NumPy's (and the CPU's loop, src/kernels/cpu/gemm.c) do; wrapping
 * sums are exact in any order, so the bits are the CPU's. Bool is the
 * or of ands. Written once, compiled by nvcc (gemm.cu) and as C in the
 * plugin's host build (tests/cudahost/kernels.c). */
#ifndef NDT_KERNELS_CUDA_GEMM_IMPL_H
#define NDT_KERNELS_CUDA_GEMM_IMPL_H
#include "kernels/cuda/dk.h"

/* one block (or one batch of it): c[R x C] (+)= a[R x K] @ b[K x C] */
typedef struct {
  int64_t R, C, K;
  char *a, *b, *c;
  int64_t ars, acs, brs, bcs, crs, ccs;   /* byte strides */
  int acc;                                /* add into c (a K piece after the first) */
  int pad;
} ndt_dk_grun;

#define NDT_DK_GMAXRUNS 64
typedef struct {
  int nrun;
  int t;   /* the element: 0 bool, else its bytes (1, 2, 4, 8) */
  ndt_dk_grun run[NDT_DK_GMAXRUNS];
} ndt_dk_glaunch;

#if defined(NDT_DK_HOST) || defined(__CUDACC__)
#define NDT_DK_GEMM_T(U)                                                               \
  do {                                                                                 \
    U s = 0;                                                                           \
    for (int64_t k = 0; k < r->K; k++)                                                 \
      s += (U)((uint64_t)*(const U *)(pa + k * r->acs) *                               \
               (uint64_t)*(const U *)(pb + k * r->brs));                               \
    *(U *)pc = (U)(r->acc ? *(U *)pc + s : s);                                         \
  } while (0)

NDT_DK_BODY void ndt_dk_gemm_body(const ndt_dk_glaunch *L, ndt_dk_grid g) {
  const ndt_dk_grun *r = &L->run[g.by];
  const int64_t n = r->R * r->C;
  for (int64_t e = g.bx * g.ntx + g.tx; e < n; e += g.nbx * g.ntx) {
    const int64_t i = e / r->C, j = e - i * r->C;
    const char *pa = r->a + i * r->ars, *pb = r->b + j * r->bcs;
    char *pc = r->c + i * r->crs + j * r->ccs;
    switch (L->t) {
      case 0: {
        unsigned char s = 0;
        for (int64_t k = 0; k < r->K && !s; k++)
          s = *(const unsigned char *)(pa + k * r->acs) && *(const unsigned char *)(pb + k * r->brs);
        *(unsigned char *)pc = (unsigned char)((r->acc && *(unsigned char *)pc) || s);
        break;
      }
      case 1: NDT_DK_GEMM_T(uint8_t); break;
      case 2: NDT_DK_GEMM_T(uint16_t); break;
      case 4: NDT_DK_GEMM_T(uint32_t); break;
      default: NDT_DK_GEMM_T(uint64_t); break;
    }
  }
}

#if defined(NDT_DK_HOST)
static void ndt_dk_gemm_grid(void *p) {
  const ndt_dk_glaunch *L = p;
  for (int64_t by = 0; by < L->nrun; by++)
    for (int64_t bx = 0; bx < ndt_dk_emu_blocks; bx++)
      for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++) {
        ndt_dk_grid g = {bx, by, ndt_dk_emu_blocks, tx, ndt_dk_emu_threads};
        ndt_dk_gemm_body(L, g);
      }
}
#if defined(NDT_DK_STREAM)
/* (tests/cudahost/cudahost.c: the launch queued on the emulated stream,
 * its parameters copied and each run's a, b and c checked there) */
void ndt__cudahost_launch_gemm(void *stream, const ndt_dk_glaunch *L, void (*grid)(void *));
#define NDT_DK_GEMM_LAUNCH ndt__cudahost_launch_gemm(stream, L, ndt_dk_gemm_grid)
#else
#define NDT_DK_GEMM_LAUNCH ((void)stream, ndt_dk_gemm_grid((void *)L))
#endif
#elif defined(__CUDACC__)
__global__ void ndt_dk_gemm_k(const __grid_constant__ ndt_dk_glaunch L) {
  ndt_dk_grid g = {blockIdx.x, blockIdx.y, gridDim.x, threadIdx.x, blockDim.x};
  ndt_dk_gemm_body(&L, g);
}
/* a block row per run, enough blocks across for one element a thread on
 * the largest run (at most 1024) */
static void ndt_dk_gemm_cuda(const ndt_dk_glaunch *L, void *stream) {
  int64_t m = 0;
  for (int r = 0; r < L->nrun; r++)
    if (L->run[r].R * L->run[r].C > m) m = L->run[r].R * L->run[r].C;
  int64_t b = (m + NDT_DK_THREADS - 1) / NDT_DK_THREADS;
  dim3 grid((unsigned)(b < 1 ? 1 : b > 1024 ? 1024 : b), (unsigned)L->nrun, 1);
  ndt_dk_gemm_k<<<grid, NDT_DK_THREADS, 0, (cudaStream_t)stream>>>(*L);
}
#define NDT_DK_GEMM_LAUNCH ndt_dk_gemm_cuda(L, stream)
#endif

/* The products of L on the stream: 0, or -1 for an element it lacks. */
NDT_DK_ENTRY(int) ndt__dk_gemm(const ndt_dk_glaunch *L, void *stream) {
  if (L->t != 0 && L->t != 1 && L->t != 2 && L->t != 4 && L->t != 8) return -1;
  if (L->nrun > 0) NDT_DK_GEMM_LAUNCH;
  return 0;
}
#endif
#endif
