/* dk.h - what the device kernels share: the grouped launch (a list of
 * 2-d runs, one per tile or piece of a tile, passed by value as the
 * kernel's parameter), the grid a kernel runs on, and a host emulation of
 * that grid.
 *
 * Written once, compiled three times: by nvcc into the CUDA plugin
 * (elementwise.cu, reduce.cu: NDT_DK_HOST undefined); as plain C by the
 * host test of the device kernels (tests/c/test_devkernels.c defines
 * NDT_DK_HOST and NDT_SC_EMULATE), which runs every kernel body over an
 * emulated grid of blocks and threads and compares its bits with the CPU's
 * loops; and as plain C into the host build of the plugin
 * (tests/cudahost/kernels.c adds NDT_DK_STREAM: launches go onto the
 * emulated CUDA streams). So the code that runs on a GPU is the code the
 * CPU tests check, less what nvcc itself does (device code generation).
 *
 * A kernel body sees its place as an ndt_dk_grid: block (bx, by) of a grid
 * nbx wide and nrun high, thread tx of ntx. Block row by is run by; the
 * blocks of a row stride over the run's elements (a grid-stride loop), so
 * any grid covers every element once. */
#ifndef NDT_KERNELS_CUDA_DK_H
#define NDT_KERNELS_CUDA_DK_H

#include <stdint.h>
#include <string.h>
#include "kernels/scalar.h"

/* operands per element: three inputs (clip, where) and the output */
#define NDT_DK_MAXOPS 4
/* runs per launch: 128 runs of 136 bytes fit the 32,764 bytes of kernel
 * parameters CUDA 12.1+ allows (the old limit was 4,096) */
#define NDT_DK_MAXRUNS 128

/* One run: rows x cols elements; operand k's element (i, j) is at
 * p[k] + i * rs[k] + j * cs[k] (byte strides; 0 for a broadcast).
 * A reduction's run (reduce_impl.h, fold_impl.h) folds from the op's
 * identity, or with from 1 from the value whose bits start holds (in the
 * accumulator's dtype), as the CPU's block body starts its partials: a
 * seeded reduction's start (initial=), a float sum's piece's -0.0; a
 * pairwise top's with from 2 from what its result holds. */
typedef struct {
  int64_t rows, cols;
  char *p[NDT_DK_MAXOPS];
  int64_t rs[NDT_DK_MAXOPS], cs[NDT_DK_MAXOPS];
  int64_t from;
  unsigned char start[16];
} ndt_dk_run;

/* aux: a kernel's own parameter (the reduce and scan kernels' operand
 * dtype and op: fold_impl.h, scan_impl.h); 0 for the others */
typedef struct {
  int nrun, aux;
  ndt_dk_run run[NDT_DK_MAXRUNS];
} ndt_dk_launch;

typedef struct {
  int64_t bx, by, nbx, tx, ntx;
} ndt_dk_grid;

typedef void (*ndt_dk_body)(const ndt_dk_launch *L, unsigned *flags, ndt_dk_grid g);
/* a launcher: every run of L, flags ORed into *flags (device memory on a
 * GPU), on the stream (a cudaStream_t; unused by the host emulation) */
typedef void (*ndt_dk_fn)(const ndt_dk_launch *L, unsigned *flags, void *stream);

/* the elements of the largest run */
NDT_HD int64_t ndt_dk_maxlen(const ndt_dk_launch *L) {
  int64_t m = 0;
  for (int r = 0; r < L->nrun; r++) {
    int64_t n = L->run[r].rows * L->run[r].cols;
    if (n > m) m = n;
  }
  return m;
}

/* A range run (ew_impl.h's range kernel: elements [first, first + n) of a
 * range into out, byte stride os; the fields as kernels/table.h's
 * ndt_range_desc): the plugin and the kernels' test fill it here. */
NDT_HD void ndt_dk_range_run(ndt_dk_run *u, char *out, int64_t os, int64_t n, int64_t first,
                             int as_int, int as_f32, int has_v1, double v1, double start,
                             double step, int64_t istart, int64_t istep, double div) {
  for (int k = 0; k < NDT_DK_MAXOPS; k++) u->p[k] = 0, u->rs[k] = u->cs[k] = 0;
  u->rows = 1;
  u->cols = n;
  u->p[0] = out;
  u->cs[0] = os;
  u->from = first;
  memcpy(u->start, &start, 8);
  memcpy(u->start + 8, &step, 8);
  memcpy(&u->rs[1], &v1, 8);
  memcpy(&u->cs[1], &div, 8);
  u->rs[2] = istart;
  u->cs[2] = istep;
  u->rs[3] = (as_int != 0) | (as_f32 != 0) << 1 | (has_v1 != 0) << 2;
}

#define NDT_DK_THREADS 256

/* Below: the kernels' machinery, for nvcc and the host emulation (a plain
 * C file such as the plugin's cuda.c sees the types above only). */
#if defined(NDT_DK_HOST)
/* ---- the host emulation: every block and thread in turn ---- */
#define NDT_DK_BODY NDT_HD
/* the emulated grid's width and block size (a test makes them small, so
 * that the grid-stride loops go round several times) */
static int ndt_dk_emu_blocks = 3, ndt_dk_emu_threads = 5;
static void ndt_dk_host_grid(const ndt_dk_launch *L, unsigned *flags, ndt_dk_body body) {
  for (int64_t by = 0; by < L->nrun; by++)
    for (int64_t bx = 0; bx < ndt_dk_emu_blocks; bx++)
      for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++) {
        ndt_dk_grid g = {bx, by, ndt_dk_emu_blocks, tx, ndt_dk_emu_threads};
        body(L, flags, g);
      }
}
#define NDT_DK_FLAGS(flags, f) \
  do {                         \
    if ((f) && (flags)) *(flags) |= (f); \
  } while (0)
#if defined(NDT_DK_STREAM)
/* the host build of the plugin (tests/cudahost: cuda.c against an emulated
 * CUDA runtime): a launch is queued on the emulated stream, its parameters
 * copied and its pointers checked there, as a <<<...>>> launch would queue
 * it; the stream's thread runs the grid. nop: the operands of each run;
 * always: those a run touches even when empty (a sum's result). */
void ndt__cudahost_launch(void *stream, int nop, unsigned always, const ndt_dk_launch *L,
                          unsigned *flags, void (*grid)(const ndt_dk_launch *, unsigned *));
#define NDT_DK_GLOBAL(NAME, NOP)                                                 \
  static void NAME##_grid(const ndt_dk_launch *L, unsigned *flags) {             \
    ndt_dk_host_grid(L, flags, NAME##_body);                                     \
  }                                                                              \
  static void NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) {      \
    if (L->nrun > 0) ndt__cudahost_launch(stream, NOP, 0, L, flags, NAME##_grid); \
  }
#define NDT_DK_ENTRY(T) T
#else
#define NDT_DK_GLOBAL(NAME, NOP)                                                 \
  static void NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) {      \
    (void)stream;                                                                \
    ndt_dk_host_grid(L, flags, NAME##_body);                                     \
  }
#define NDT_DK_ENTRY(T) static __attribute__((unused)) T
#endif
#elif defined(__CUDACC__)
/* ---- CUDA: one block row per run; enough blocks across for 4 elements a
 * thread on the largest run (at most 1024) ---- */
#include <cuda_runtime.h>
#define NDT_DK_BODY static __device__ __forceinline__
static inline dim3 ndt_dk_dim(const ndt_dk_launch *L) {
  int64_t b = (ndt_dk_maxlen(L) + 4 * NDT_DK_THREADS - 1) / (4 * NDT_DK_THREADS);
  return dim3((unsigned)(b < 1 ? 1 : b > 1024 ? 1024 : b), (unsigned)L->nrun, 1);
}
#define NDT_DK_FLAGS(flags, f) \
  do {                         \
    if ((f) && (flags)) atomicOr(flags, f); \
  } while (0)
/* __grid_constant__: the launch stays in the parameter space (no copy per
 * thread when the body takes its address; sm_70+, CUDA 11.7+) */
#define NDT_DK_GLOBAL(NAME, NOP)                                                     \
  __global__ void NAME##_k(const __grid_constant__ ndt_dk_launch L, unsigned *flags) { \
    ndt_dk_grid g = {blockIdx.x, blockIdx.y, gridDim.x, threadIdx.x, blockDim.x};    \
    NAME##_body(&L, flags, g);                                                       \
  }                                                                                  \
  static void NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) {          \
    if (L->nrun > 0)                                                                 \
      NAME##_k<<<ndt_dk_dim(L), NDT_DK_THREADS, 0, (cudaStream_t)stream>>>(*L, flags); \
  }
#define NDT_DK_ENTRY(T) extern "C" __attribute__((visibility("default"))) T
#endif

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

/* NDT_DK_EW(NAME, NOP, STMT): an elementwise kernel over every element of
 * every run; STMT sees p[0..NOP) (the operands' pointers at the element)
 * and f (the thread's flags). */
#define NDT_DK_EW(NAME, NOP, STMT)                                                   \
  NDT_DK_BODY void NAME##_body(const ndt_dk_launch *L, unsigned *flags, ndt_dk_grid g) {   \
    const ndt_dk_run *r = &L->run[g.by];                                             \
    const int64_t n = r->rows * r->cols, cols = r->cols;                             \
    unsigned f = 0;                                                                  \
    for (int64_t e = g.bx * g.ntx + g.tx; e < n; e += g.nbx * g.ntx) {               \
      const int64_t i = r->rows == 1 ? 0 : e / cols, j = e - i * cols;               \
      char *p[NOP];                                                                  \
      for (int k = 0; k < NOP; k++) p[k] = r->p[k] + i * r->rs[k] + j * r->cs[k];    \
      STMT;                                                                          \
    }                                                                                \
    NDT_DK_FLAGS(flags, f);                                                          \
  }                                                                                  \
  NDT_DK_GLOBAL(NAME, NOP)
#endif

#endif
