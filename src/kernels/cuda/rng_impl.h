/* rng_impl.h - the device's random fill: the CPU's values for the same
 * key and positions, from the per-element arithmetic both share
 * (kernels/rng_scalar.h), over a grouped launch of fills of one call's
 * parameters (a run per task: its output, its first element's flat index
 * and its call's key, since the tasks of consecutive calls group too).
 *
 * What it implements (ndt__dk_rng_has): random, uniform, normal and
 * exponential (float32, float64; loc and scale finite, so no NaN whose
 * payload the GPU would give differently), and integers of every integer
 * dtype and bool. Gamma, poisson and binomial stay on the CPU: their
 * rejection steps call libm (log, exp, pow, log1p), whose device versions
 * differ in the last bits.
 *
 * A thread makes one Philox block at a time and writes the elements of
 * the run it holds (four 24-bit floats or 32-bit-range integers, else
 * two), so each block is computed once, as on the CPU. An integer whose
 * first product is rejected (probability below range / 2^32, or / 2^64)
 * draws from its own sub-stream in a loop: rare, and its thread alone
 * waits.
 *
 * Compiled three ways, as dk.h says: rng.cu (nvcc, the plugin), the host
 * test of the device kernels (tests/c/test_devkernels.c: an emulated grid,
 * against the CPU's fill bit for bit) and the plugin's host build
 * (tests/cudahost/kernels.c: launches on the emulated streams). */
#ifndef NDT_KERNELS_CUDA_RNG_IMPL_H
#define NDT_KERNELS_CUDA_RNG_IMPL_H

#include "ndtile.h"
#include "kernels/cuda/dk.h"
#include "kernels/rng_scalar.h"

#define NDT_DK_RMAXRUNS 128

/* One fill: elements [first, first + n) of its call, contiguous at p. */
typedef struct {
  int64_t n, first;
  char *p;
  ndt_rng_key key;
  int pad;
} ndt_dk_rrun;

/* A launch: the call's parameters (the same for every run), then the runs
 * (about 5 KB of kernel parameters). */
typedef struct {
  ndt_rng_params q;
  int nrun, pad;
  ndt_dk_rrun run[NDT_DK_RMAXRUNS];
} ndt_dk_rlaunch;

/* 1 when the kernel gives the CPU's values for q. */
NDT_HD int ndt_dk_rng_ok(const ndt_rng_params *q) {
  switch (q->dist) {
    case NDT_RNG_RANDOM:
    case NDT_RNG_UNIFORM:
    case NDT_RNG_NORMAL:
    case NDT_RNG_EXPONENTIAL:
      return (q->t == NDT_FLOAT32 || q->t == NDT_FLOAT64) && isfinite(q->loc) &&
             isfinite(q->scale);
    case NDT_RNG_INTEGERS:
      switch (q->t) {
        case NDT_BOOL: case NDT_INT8: case NDT_UINT8: case NDT_INT16: case NDT_UINT16:
        case NDT_INT32: case NDT_UINT32: case NDT_INT64: case NDT_UINT64:
          return 1;
        default: return 0;
      }
    default: return 0;
  }
}

/* the bytes of an element of a result q may have */
NDT_HD int ndt_dk_rng_isz(ndt_dtype t) {
  switch (t) {
    case NDT_BOOL: case NDT_INT8: case NDT_UINT8: return 1;
    case NDT_INT16: case NDT_UINT16: return 2;
    case NDT_INT32: case NDT_UINT32: case NDT_FLOAT32: return 4;
    default: return 8;
  }
}

/* Below: the kernel, for nvcc and the host emulation (the plugin's cuda.c
 * sees the types above only). */
#if defined(NDT_DK_HOST) || defined(__CUDACC__)

/* element e of a run: a double (float results) or the integer bits */
NDT_HD void ndt_dk_rng_put_d(ndt_dtype t, char *p, int64_t e, double v) {
  if (t == NDT_FLOAT64) ((double *)p)[e] = v;
  else ((float *)p)[e] = (float)v;
}
NDT_HD void ndt_dk_rng_put_u(ndt_dtype t, char *p, int64_t e, uint64_t v) {
  switch (t) {
    case NDT_BOOL: case NDT_INT8: case NDT_UINT8: ((uint8_t *)p)[e] = (uint8_t)v; break;
    case NDT_INT16: case NDT_UINT16: ((uint16_t *)p)[e] = (uint16_t)v; break;
    case NDT_INT32: case NDT_UINT32: ((uint32_t *)p)[e] = (uint32_t)v; break;
    default: ((uint64_t *)p)[e] = v; break;
  }
}

/* Philox blocks a value takes: 4 (sh 2) or 2 (sh 1) elements a block */
NDT_HD int ndt_dk_rng_shift(const ndt_rng_params *q) {
  if (q->dist == NDT_RNG_INTEGERS) return ndt_rng_int_shift(q);
  return q->dist == NDT_RNG_RANDOM && q->t == NDT_FLOAT32 ? 2 : 1;
}

/* Thread (g.bx, g.tx) of run g.by: blocks j0 + g.bx * g.ntx + g.tx, then
 * a grid's width further, each block's elements inside the run. */
NDT_DK_BODY void ndt_dk_rng_body(const ndt_dk_rlaunch *L, ndt_dk_grid g) {
  const ndt_dk_rrun *r = &L->run[g.by];
  const ndt_rng_params *q = &L->q;
  if (r->n <= 0) return;
  const int sh = ndt_dk_rng_shift(q), P = 1 << sh;
  const uint64_t f = (uint64_t)r->first, end = f + (uint64_t)r->n;
  const uint64_t j0 = f >> sh, j1 = (end - 1) >> sh;
  ndt_rng_fixed kind = NDT_RNG_U53;
  double loc = 0.0, scale = 1.0;
  const int is_float = ndt_rng_fixed_of(q, &kind, &loc, &scale);
  for (uint64_t j = j0 + (uint64_t)(g.bx * g.ntx + g.tx); j <= j1;
       j += (uint64_t)(g.nbx * g.ntx)) {
    uint32_t w[4];
    ndt_rng_philox(&r->key, j, 0, w);
    double v[4] = {0, 0, 0, 0};
    if (is_float) {
      if (kind == NDT_RNG_U24)
        for (int l = 0; l < 4; l++) v[l] = ndt_rng_u24(w[l]);
      else if (kind == NDT_RNG_FNORMAL) ndt_rng_normal2(w[0], w[1], w[2], w[3], loc, scale, &v[0], &v[1]);
      else if (kind == NDT_RNG_FEXP) {
        v[0] = ndt_rng_exp(w[0], w[1], scale);
        v[1] = ndt_rng_exp(w[2], w[3], scale);
      } else {
        v[0] = ndt_rng_lin(w[0], w[1], loc, scale);
        v[1] = ndt_rng_lin(w[2], w[3], loc, scale);
      }
    }
    for (int l = 0; l < P; l++) {
      uint64_t gi = (j << sh) + (uint64_t)l;
      if (gi < f || gi >= end) continue;
      int64_t e = (int64_t)(gi - f);
      if (is_float) ndt_dk_rng_put_d(q->t, r->p, e, v[l]);
      else if (q->span == 0) ndt_dk_rng_put_u(q->t, r->p, e, q->base);
      else if (sh == 2) ndt_dk_rng_put_u(q->t, r->p, e, ndt_rng_int32(q, &r->key, gi, w[l]));
      else
        ndt_dk_rng_put_u(q->t, r->p, e,
                         ndt_rng_int64(q, &r->key, gi, w[2 * l] | (uint64_t)w[2 * l + 1] << 32));
    }
  }
}

#if defined(NDT_DK_HOST)
static void ndt_dk_rng_grid(const ndt_dk_rlaunch *L) {
  for (int64_t by = 0; by < L->nrun; by++)
    for (int64_t bx = 0; bx < ndt_dk_emu_blocks; bx++)
      for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++) {
        ndt_dk_grid g = {bx, by, ndt_dk_emu_blocks, tx, ndt_dk_emu_threads};
        ndt_dk_rng_body(L, g);
      }
}
#if defined(NDT_DK_STREAM)
/* (tests/cudahost/cudahost.c: the launch queued on the emulated stream,
 * its parameters copied and its outputs checked there) */
void ndt__cudahost_launch_rng(void *stream, const ndt_dk_rlaunch *L,
                              void (*grid)(const ndt_dk_rlaunch *));
#define NDT_DK_RNG_LAUNCH ndt__cudahost_launch_rng(stream, L, ndt_dk_rng_grid)
#else
#define NDT_DK_RNG_LAUNCH ((void)stream, ndt_dk_rng_grid(L))
#endif
#elif defined(__CUDACC__)
__global__ void ndt_dk_rng_k(const __grid_constant__ ndt_dk_rlaunch L) {
  ndt_dk_grid g = {blockIdx.x, blockIdx.y, gridDim.x, threadIdx.x, blockDim.x};
  ndt_dk_rng_body(&L, g);
}
/* a block row per run, enough blocks across for one Philox block a thread
 * on the largest run (at most 1024) */
static void ndt_dk_rng_cuda(const ndt_dk_rlaunch *L, void *stream) {
  int sh = ndt_dk_rng_shift(&L->q);
  int64_t m = 0;
  for (int r = 0; r < L->nrun; r++) {
    int64_t nb = L->run[r].n > 0 ? (((L->run[r].first + L->run[r].n - 1) >> sh) -
                                    (L->run[r].first >> sh) + 1) : 0;
    if (nb > m) m = nb;
  }
  int64_t b = (m + NDT_DK_THREADS - 1) / NDT_DK_THREADS;
  dim3 grid((unsigned)(b < 1 ? 1 : b > 1024 ? 1024 : b), (unsigned)L->nrun, 1);
  ndt_dk_rng_k<<<grid, NDT_DK_THREADS, 0, (cudaStream_t)stream>>>(*L);
}
#define NDT_DK_RNG_LAUNCH ndt_dk_rng_cuda(L, stream)
#endif

/* 1 when ndt__dk_rng implements q (the plugin's supports asks). */
NDT_DK_ENTRY(int) ndt__dk_rng_has(const ndt_rng_params *q) { return ndt_dk_rng_ok(q); }

/* The fills of L on the stream: 0, or -1 for parameters it does not
 * implement. */
NDT_DK_ENTRY(int) ndt__dk_rng(const ndt_dk_rlaunch *L, void *stream) {
  if (!ndt_dk_rng_ok(&L->q)) return -1;
  if (L->nrun > 0) NDT_DK_RNG_LAUNCH;
  return 0;
}

#endif
#endif
