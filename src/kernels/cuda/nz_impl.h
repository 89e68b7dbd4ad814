/* nz_impl.h - the device's non-zero scan: argwhere / nonzero / flatnonzero
 * (the "argwhere count" and "argwhere fill" tasks of src/ops/search.c),
 * with the CPU kernel's results (ndt__cpu_nonzero, src/kernels/cpu/count.c):
 * a block's count of non-zero elements, and their indices (the block's
 * start plus their place in it, nd int64 a row) in C order.
 *
 * Compiled three ways, as dk.h says: by nvcc (index.cu), as C by the host
 * test (tests/c/test_devkernels.c, "nz"), as C into the plugin's host build
 * (tests/cudahost/kernels.c).
 *
 * Non-zero is the CPU's cast to bool: a float NaN is non-zero, -0.0 is
 * zero, a complex number is non-zero when either part is.
 *
 * The block's elements in C order are cut into nb chunks, one per thread
 * block (chunk b: [b n / nb, (b + 1) n / nb)), and each chunk into one
 * piece per thread, in order. Three modes:
 *   count   each thread counts its piece, the block adds its threads'
 *           counts and adds that to *count (atomic: integers, any order);
 *   chunks  the same sums, each block's written to part[b];
 *   fill    (after chunks, with the same nb) block b starts at the sum of
 *           part[0..b), each thread at that plus the counts of the pieces
 *           before its own (its block's counts in shared memory, added up
 *           by thread 0), and writes its piece's rows in order: the rows
 *           of the CPU, in its order, whatever the grid. */
#ifndef NDT_KERNELS_CUDA_NZ_IMPL_H
#define NDT_KERNELS_CUDA_NZ_IMPL_H

#include <string.h>
#include "ndtile.h"
#include "kernels/cuda/dk.h"

enum { NDT_DK_NZ_COUNT, NDT_DK_NZ_CHUNKS, NDT_DK_NZ_FILL };
#define NDT_DK_NZ_MAXCHUNKS 1024

typedef struct {
  int mode, dt, isz, nd;
  int64_t n, nb;     /* the block's elements; chunks (thread blocks), 1..NDT_DK_NZ_MAXCHUNKS */
  int64_t rows;      /* fill: the rows out holds (the block's count) */
  int64_t shape[NDT_MAXDIMS], st[NDT_MAXDIMS], start[NDT_MAXDIMS];   /* st: bytes */
  const char *in;
  unsigned long long *count;   /* count: 0 before the launch */
  int64_t *part;               /* chunks, fill: nb counts */
  int64_t *out;                /* fill: rows x nd */
} ndt_dk_nzlaunch;

/* the chunks (thread blocks) a block of n elements takes: about 16
 * elements a thread, at most NDT_DK_NZ_MAXCHUNKS */
NDT_HD int64_t ndt_dk_nz_chunks(int64_t n) {
  int64_t nb = (n + 16 * NDT_DK_THREADS - 1) / (16 * NDT_DK_THREADS);
  return nb < 1 ? 1 : nb > NDT_DK_NZ_MAXCHUNKS ? NDT_DK_NZ_MAXCHUNKS : nb;
}

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

/* the CPU's cast to bool */
NDT_HD int ndt_dk_nz_at(const char *p, int dt, int isz) {
  switch (dt) {
    case NDT_FLOAT32: {
      float v;
      memcpy(&v, p, 4);
      return v != 0;
    }
    case NDT_FLOAT64: {
      double v;
      memcpy(&v, p, 8);
      return v != 0;
    }
    case NDT_COMPLEX64: {
      float v[2];
      memcpy(v, p, 8);
      return v[0] != 0 || v[1] != 0;
    }
    case NDT_COMPLEX128: {
      double v[2];
      memcpy(v, p, 16);
      return v[0] != 0 || v[1] != 0;
    }
    default:
      for (int i = 0; i < isz; i++)
        if (p[i]) return 1;
      return 0;
  }
}

/* thread t of T's piece [lo, hi) of chunk b */
NDT_HD void ndt_dk_nz_piece(const ndt_dk_nzlaunch *L, int64_t b, int64_t t, int64_t T,
                            int64_t *lo, int64_t *hi) {
  int64_t c0 = L->n * b / L->nb, c1 = L->n * (b + 1) / L->nb;
  *lo = c0 + (c1 - c0) * t / T;
  *hi = c0 + (c1 - c0) * (t + 1) / T;
}

/* The non-zero elements among [lo, hi) of the block in C order: their
 * count; with out, their rows written there. */
NDT_HD int64_t ndt_dk_nz_scan(const ndt_dk_nzlaunch *L, int64_t lo, int64_t hi, int64_t *out) {
  if (lo >= hi) return 0;
  const int nd = L->nd;
  int64_t idx[NDT_MAXDIMS], rem = lo, cnt = 0;
  const char *p = L->in;
  for (int k = nd - 1; k >= 0; k--) {
    idx[k] = rem % L->shape[k];
    rem /= L->shape[k];
    p += idx[k] * L->st[k];
  }
  for (int64_t e = lo; e < hi; e++) {
    if (ndt_dk_nz_at(p, L->dt, L->isz)) {
      if (out)
        for (int k = 0; k < nd; k++) out[cnt * nd + k] = L->start[k] + idx[k];
      cnt++;
    }
    for (int k = nd - 1; k >= 0; k--) {   /* the next element */
      p += L->st[k];
      if (++idx[k] < L->shape[k]) break;
      p -= idx[k] * L->st[k];
      idx[k] = 0;
    }
  }
  return cnt;
}

/* Thread 0's step of block b, between the counts and the writes: cnt[0..T)
 * are its threads' counts. count, chunks: their sum goes out; fill: cnt
 * becomes each thread's first row (the chunk's start plus the pieces
 * before). */
NDT_HD void ndt_dk_nz_block(const ndt_dk_nzlaunch *L, int64_t b, int64_t *cnt, int64_t T) {
  if (L->mode == NDT_DK_NZ_FILL) {
    int64_t at = 0;
    for (int64_t c = 0; c < b; c++) at += L->part[c];
    for (int64_t t = 0; t < T; t++) {
      int64_t c = cnt[t];
      cnt[t] = at;
      at += c;
    }
    return;
  }
  int64_t s = 0;
  for (int64_t t = 0; t < T; t++) s += cnt[t];
  if (L->mode == NDT_DK_NZ_CHUNKS) L->part[b] = s;
#if defined(__CUDA_ARCH__)
  else if (s) atomicAdd(L->count, (unsigned long long)s);
#else
  else *L->count += (unsigned long long)s;
#endif
}

#if defined(NDT_DK_HOST)
/* every block, its threads in turn, phase after phase (the threads of a
 * block are ndt_dk_emu_threads, at most NDT_DK_THREADS) */
static void ndt_dk_nz_grid(void *p) {
  const ndt_dk_nzlaunch *L = (const ndt_dk_nzlaunch *)p;
  int64_t cnt[NDT_DK_THREADS];
  const int64_t T = ndt_dk_emu_threads < NDT_DK_THREADS ? ndt_dk_emu_threads : NDT_DK_THREADS;
  for (int64_t b = 0; b < L->nb; b++) {
    int64_t lo, hi;
    for (int64_t t = 0; t < T; t++) {
      ndt_dk_nz_piece(L, b, t, T, &lo, &hi);
      cnt[t] = ndt_dk_nz_scan(L, lo, hi, NULL);
    }
    ndt_dk_nz_block(L, b, cnt, T);
    if (L->mode != NDT_DK_NZ_FILL) continue;
    for (int64_t t = 0; t < T; t++) {
      ndt_dk_nz_piece(L, b, t, T, &lo, &hi);
      ndt_dk_nz_scan(L, lo, hi, L->out + cnt[t] * L->nd);
    }
  }
}
#if defined(NDT_DK_STREAM)
/* tests/cudahost/cudahost.c: the launch copied, its pointers checked
 * against the live allocations and moved, queued on the emulated stream */
void ndt__cudahost_launch_nz(void *stream, const ndt_dk_nzlaunch *L, void (*grid)(void *));
static void ndt_dk_nz_launch(const ndt_dk_nzlaunch *L, void *stream) {
  ndt__cudahost_launch_nz(stream, L, ndt_dk_nz_grid);
}
#else
static void ndt_dk_nz_launch(const ndt_dk_nzlaunch *L, void *stream) {
  (void)stream;
  ndt_dk_nz_grid((void *)L);
}
#endif
#else
__global__ void ndt_dk_nz_k(const __grid_constant__ ndt_dk_nzlaunch L) {
  __shared__ int64_t cnt[NDT_DK_THREADS];
  const int64_t b = blockIdx.x, t = threadIdx.x, T = blockDim.x;
  int64_t lo, hi;
  ndt_dk_nz_piece(&L, b, t, T, &lo, &hi);
  cnt[t] = ndt_dk_nz_scan(&L, lo, hi, NULL);
  __syncthreads();
  if (t == 0) ndt_dk_nz_block(&L, b, cnt, T);
  __syncthreads();
  if (L.mode == NDT_DK_NZ_FILL) ndt_dk_nz_scan(&L, lo, hi, L.out + cnt[t] * L.nd);
}
static void ndt_dk_nz_launch(const ndt_dk_nzlaunch *L, void *stream) {
  ndt_dk_nz_k<<<(unsigned)L->nb, NDT_DK_THREADS, 0, (cudaStream_t)stream>>>(*L);
}
#endif

/* ---- the entry point (the plugin's; static in the host test) ----
 * Runs L; 0, or -1 for a launch the kernel does not take. */
NDT_DK_ENTRY(int) ndt__dk_nz(const ndt_dk_nzlaunch *L, void *stream) {
  if (L->nd < 1 || L->nd > NDT_MAXDIMS || L->dt < 0 || L->dt >= NDT_NTYPES || L->isz < 1 ||
      L->nb < 1 || L->nb > NDT_DK_NZ_MAXCHUNKS || L->mode < NDT_DK_NZ_COUNT ||
      L->mode > NDT_DK_NZ_FILL)
    return -1;
  if (L->n > 0) ndt_dk_nz_launch(L, stream);
  return 0;
}

#endif
#endif
