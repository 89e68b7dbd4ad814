/* index_impl.h - the device's advanced-index kernels: gather (a[idx]
 * reads, the "gather" tasks of src/ops/search.c) and put (a.flat[idx] =
 * vals, the "put" tasks of src/ops/convolve.c), with the CPU kernels'
 * results and errors (src/kernels/cpu/index.c).
 *
 * Compiled three ways, as dk.h says: by nvcc (index.cu), as C by the host
 * test (tests/c/test_devkernels.c, "index"), as C into the plugin's host
 * build (tests/cudahost/kernels.c).
 *
 * A walked operand (the gather's source, the put's target: any element may
 * be reached) arrives as a list of pieces, one per tile of the store that
 * the operand's extent touches (its device buffer, its first store offset,
 * its length), passed by value in the launch with the store's tiling
 * (period, seg, per: ndt_tiling_index), so store offset f is at
 * pptr[t] + (f - pstart[t]) * es for t = tiling_index(f) - t0. Tiles are
 * separate device allocations, so no single pointer reaches them all; a
 * list in the parameter needs no device copy of a pointer table (and the
 * host build can check and move each pointer, as it does for every
 * launch). At most NDT_DK_IMAXPIECES tiles: a larger source or target is
 * refused by the plugin's supports and runs on the CPU.
 *
 * gather: one thread per output position (grid-stride). A position whose
 * index is out of bounds writes nothing and folds its key, position * nk +
 * axis, into *report by atomic minimum: the smallest key is the first bad
 * index in the CPU's order (positions in C order, axes in order within
 * one), so the plugin reports the same index and axis (it reads the bad
 * value back from the index operand). The positions written before it are
 * not promised (the task fails; its result is dropped, as on the CPU).
 *
 * put: the CPU loop's result (every index checked first, nothing written
 * when one is bad; then the writes in index order, so a repeated index
 * keeps its last value) in three launches of one thread per index: check
 * (a bad index folds its position into *report by atomic minimum: the
 * first bad one in order, as the CPU reports it), claim (unless *report
 * holds a bad one: each index in [lo, hi) stores its position + 1 into
 * last[o - lo] of the element it reaches, by atomic maximum, so the last
 * index that reaches an element holds it) and write (each index whose claim
 * held copies its value). last: hi - lo words of scratch, zero before.
 * Without it (the plugin could not allocate it) one device thread walks
 * the indices in order (phase 3: the earlier design, a memory latency per
 * index).
 *
 * view copy (put 2): a view's elements to (phase 0) or from (phase 1) the
 * C-order buffer out, one thread per element (grid-stride): element e of
 * the view (shape, element strides ast from offset aoff) is out + e * isz.
 * The view walked as the pieces of its tiles: bind.c's gather of a view
 * across tiles into scratch and its scatter back (cuda.c, cm_view_copy),
 * one launch where a copy per run cost a call and a wait each. A view
 * that leaves whole tiles of its extent out (a block of a transpose, a
 * stepped view) has pieces for the tiles its elements lie in alone, in
 * order (gaps: the binding pinned only those); an element's piece is then
 * found by binary search over their starts. */
#ifndef NDT_KERNELS_CUDA_INDEX_IMPL_H
#define NDT_KERNELS_CUDA_INDEX_IMPL_H

#include <string.h>
#include "ndtile.h"
#include "kernels/cuda/dk.h"
#include "kernels/index_scalar.h"   /* ndt_sc_index_at, the CPU kernel's too */

#define NDT_DK_IMAXPIECES 512
#define NDT_DK_INONE (~0ull)

typedef struct {
  int put;                  /* 0: gather, 1: put, 2: view copy */
  int nd, nk, isz, np;      /* axes of the block (gather) or target view (put);
                               index arrays; element bytes; pieces */
  int gaps;                 /* view copy: the pieces leave tiles of the extent out */
  int it[NDT_MAXDIMS];      /* gather: index k's dtype */
  int64_t n;                /* gather: positions; put: indices */
  int64_t shape[NDT_MAXDIMS], ost[NDT_MAXDIMS];  /* gather: block shape, out byte strides;
                                                    put: target view shape, element strides */
  int64_t ist[NDT_MAXDIMS][NDT_MAXDIMS];         /* gather: index k's byte strides */
  int64_t aoff;             /* gather: source element offset; put: target's */
  int64_t ashape[NDT_MAXDIMS], ast[NDT_MAXDIMS]; /* gather: source bounds, element strides */
  int64_t size, lo, hi, is, vs;   /* put: flat size, store offsets [lo, hi), byte strides */
  int64_t period, seg, per, t0, es;   /* the walked store's tiling, first tile, itemsize */
  char *out, *vals;
  char *idx[NDT_MAXDIMS];
  unsigned long long *report;   /* device word: NDT_DK_INONE, or the first bad key */
  int phase;                    /* put: 0 check, 1 claim, 2 write, 3 all in one thread
                                   (ndt__dk_index sets it) */
  unsigned long long *last;     /* put: hi - lo claims, zero before the first launch */
  int64_t pstart[NDT_DK_IMAXPIECES], plen[NDT_DK_IMAXPIECES];
  char *pptr[NDT_DK_IMAXPIECES];
} ndt_dk_ilaunch;


/* the bytes of index dtype t */
NDT_HD int ndt_dk_index_size(int t) {
  return t == NDT_INT8 || t == NDT_UINT8 ? 1 : t == NDT_INT16 || t == NDT_UINT16 ? 2
         : t == NDT_INT32 || t == NDT_UINT32 ? 4 : 8;
}

/* the bytes of an element of dtype t */
NDT_HD int ndt_dk_dtype_size(int t) {
  switch (t) {
    case NDT_INT16: case NDT_UINT16: return 2;
    case NDT_INT32: case NDT_UINT32: case NDT_FLOAT32: return 4;
    case NDT_INT64: case NDT_UINT64: case NDT_FLOAT64: case NDT_COMPLEX64: return 8;
    case NDT_COMPLEX128: return 16;
    default: return 1;
  }
}

/* the piece of store offset f of the walked operand: its tile's place
 * after t0, or with gaps the last piece that starts at or before f (also
 * the host build's launch check, tests/cudahost) */
NDT_HD int ndt_dk_piece_of(const ndt_dk_ilaunch *L, int64_t f) {
  if (!L->gaps) return (int)((f / L->period) * L->per + (f % L->period) / L->seg - L->t0);
  int lo = 0, hi = L->np - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (L->pstart[mid] <= f) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

#if defined(__CUDA_ARCH__)   /* (nvcc's device pass of these host-device functions) */
#define NDT_DK_REPORT_MIN(p, v) atomicMin((p), (v))
#define NDT_DK_CLAIM_MAX(p, v) atomicMax((p), (v))
#else
#define NDT_DK_REPORT_MIN(p, v) \
  do {                          \
    if ((v) < *(p)) *(p) = (v); \
  } while (0)
#define NDT_DK_CLAIM_MAX(p, v)  \
  do {                          \
    if ((v) > *(p)) *(p) = (v); \
  } while (0)
#endif

/* store offset f of the walked operand */
NDT_HD char *ndt_dk_piece(const ndt_dk_ilaunch *L, int64_t f) {
  int t = ndt_dk_piece_of(L, f);
  return L->pptr[t] + (f - L->pstart[t]) * L->es;
}

NDT_HD void ndt_dk_gather_one(const ndt_dk_ilaunch *L, int64_t e) {
  int64_t pos[NDT_MAXDIMS], r = e;
  for (int j = L->nd - 1; j >= 0; j--) {
    pos[j] = r % L->shape[j];
    r /= L->shape[j];
  }
  int64_t f = L->aoff;
  for (int k = 0; k < L->nk; k++) {
    const char *ip = L->idx[k];
    for (int j = 0; j < L->nd; j++) ip += pos[j] * L->ist[k][j];
    int64_t v = ndt_sc_index_at(L->it[k], ip);
    if (v < 0 || v >= L->ashape[k]) {
      unsigned long long key = (unsigned long long)e * (unsigned long long)L->nk + (unsigned)k;
      NDT_DK_REPORT_MIN(L->report, key);
      return;
    }
    f += v * L->ast[k];
  }
  char *op = L->out;
  for (int j = 0; j < L->nd; j++) op += pos[j] * L->ost[j];
  memcpy(op, ndt_dk_piece(L, f), (size_t)L->isz);
}

/* the CPU kernel's flat_offset */
NDT_HD int64_t ndt_dk_flat_offset(const ndt_dk_ilaunch *L, int64_t i) {
  int64_t off = L->aoff;
  for (int k = L->nd - 1; k >= 0; k--) {
    off += (i % L->shape[k]) * L->ost[k];
    i /= L->shape[k];
  }
  return off;
}

/* a put in one thread, in order (without claims) */
NDT_HD void ndt_dk_put_all(const ndt_dk_ilaunch *L) {
  for (int64_t e = 0; e < L->n; e++) {   /* a bad index writes nothing */
    int64_t f;
    memcpy(&f, L->idx[0] + e * L->is, 8);
    if (f < 0 || f >= L->size) {
      *L->report = (unsigned long long)e;
      return;
    }
  }
  for (int64_t e = 0; e < L->n; e++) {   /* in order: the last value wins */
    int64_t f;
    memcpy(&f, L->idx[0] + e * L->is, 8);
    int64_t o = ndt_dk_flat_offset(L, f);
    if (o >= L->lo && o < L->hi) memcpy(ndt_dk_piece(L, o), L->vals + e * L->vs, (size_t)L->isz);
  }
}

/* index e of a put, in the launch's phase (above) */
NDT_HD void ndt_dk_put_one(const ndt_dk_ilaunch *L, int64_t e) {
  int64_t f;
  memcpy(&f, L->idx[0] + e * L->is, 8);
  if (L->phase == 0) {
    if (f < 0 || f >= L->size) NDT_DK_REPORT_MIN(L->report, (unsigned long long)e);
    return;
  }
  if (*L->report != NDT_DK_INONE) return;   /* a bad index: nothing written */
  int64_t o = ndt_dk_flat_offset(L, f);
  if (o < L->lo || o >= L->hi) return;
  unsigned long long *c = L->last + (o - L->lo), mine = (unsigned long long)e + 1;
  if (L->phase == 1) NDT_DK_CLAIM_MAX(c, mine);
  else if (*c == mine) memcpy(ndt_dk_piece(L, o), L->vals + e * L->vs, (size_t)L->isz);
}

/* element e of a view copy: isz bytes between out + e * isz and the view */
NDT_HD void ndt_dk_view_one(const ndt_dk_ilaunch *L, int64_t e) {
  int64_t f = L->aoff, r = e;
  for (int j = L->nd - 1; j >= 0; j--) {
    f += (r % L->shape[j]) * L->ast[j];
    r /= L->shape[j];
  }
  char *p = ndt_dk_piece(L, f), *o = L->out + e * L->isz;
  char *to = L->phase == 0 ? o : p;
  const char *from = L->phase == 0 ? p : o;
  switch (L->isz) {   /* (elements are aligned to their size: one load each) */
    case 1: *to = *from; break;
    case 2: *(uint16_t *)to = *(const uint16_t *)from; break;
    case 4: *(uint32_t *)to = *(const uint32_t *)from; break;
    case 8: *(uint64_t *)to = *(const uint64_t *)from; break;
    default: memcpy(to, from, (size_t)L->isz);
  }
}

/* thread tx of ntx in block bx of nbx */
NDT_HD void ndt_dk_index_body(const ndt_dk_ilaunch *L, int64_t bx, int64_t nbx, int64_t tx,
                              int64_t ntx) {
  if (L->put && L->phase == 3) {
    if (bx == 0 && tx == 0) ndt_dk_put_all(L);
    return;
  }
  for (int64_t e = bx * ntx + tx; e < L->n; e += nbx * ntx) {
    if (L->put == 2) ndt_dk_view_one(L, e);
    else if (L->put) ndt_dk_put_one(L, e);
    else ndt_dk_gather_one(L, e);
  }
}

#if defined(NDT_DK_HOST)
static void ndt_dk_index_grid(void *p) {
  const ndt_dk_ilaunch *L = (const ndt_dk_ilaunch *)p;
  for (int64_t bx = 0; bx < ndt_dk_emu_blocks; bx++)
    for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++)
      ndt_dk_index_body(L, bx, ndt_dk_emu_blocks, tx, ndt_dk_emu_threads);
}
#if defined(NDT_DK_STREAM)
/* tests/cudahost/cudahost.c: the launch copied, its pointers checked
 * against the live allocations and moved, queued on the emulated stream */
void ndt__cudahost_launch_index(void *stream, const ndt_dk_ilaunch *L, void (*grid)(void *));
static void ndt_dk_index_launch(const ndt_dk_ilaunch *L, void *stream) {
  ndt__cudahost_launch_index(stream, L, ndt_dk_index_grid);
}
#else
static void ndt_dk_index_launch(const ndt_dk_ilaunch *L, void *stream) {
  (void)stream;
  ndt_dk_index_grid((void *)L);
}
#endif
#else
__global__ void ndt_dk_index_k(const __grid_constant__ ndt_dk_ilaunch L) {
  ndt_dk_index_body(&L, blockIdx.x, gridDim.x, threadIdx.x, blockDim.x);
}
static void ndt_dk_index_launch(const ndt_dk_ilaunch *L, void *stream) {
  int one = L->put == 1 && L->phase == 3;
  int64_t b = one ? 1 : (L->n + 4 * NDT_DK_THREADS - 1) / (4 * NDT_DK_THREADS);
  unsigned nb = (unsigned)(b < 1 ? 1 : b > 1024 ? 1024 : b);
  ndt_dk_index_k<<<nb, one ? 1 : NDT_DK_THREADS, 0, (cudaStream_t)stream>>>(*L);
}
#endif

/* ---- the entry point (the plugin's; static in the host test) ----
 * Runs L (a gather, or a put's three launches: L->phase is set here);
 * *L->report must hold NDT_DK_INONE before, and a put's L->last hi - lo
 * zeros, or NULL (one thread). 0, or -1 for a launch the kernel does not
 * take. */
NDT_DK_ENTRY(int) ndt__dk_index(ndt_dk_ilaunch *L, void *stream) {
  if (L->nd < 0 || L->nd > NDT_MAXDIMS || L->np < 1 || L->np > NDT_DK_IMAXPIECES ||
      L->isz < 1 || L->isz > 16 || L->put < 0 || L->put > 2 ||
      (!L->put && (L->nk < 1 || L->nk > NDT_MAXDIMS)) ||
      (L->put == 2 && (L->phase < 0 || L->phase > 1)))
    return -1;
  if (L->n <= 0) return 0;
  if (L->put == 2) {   /* a view copy: one launch, in the caller's direction */
    ndt_dk_index_launch(L, stream);
    return 0;
  }
  if (L->put && !L->last) {
    L->phase = 3;
    ndt_dk_index_launch(L, stream);
    return 0;
  }
  int phases = L->put && L->hi > L->lo ? 3 : 1;   /* (an empty range: the check alone) */
  for (L->phase = 0; L->phase < phases; L->phase++) ndt_dk_index_launch(L, stream);
  return 0;
}

#endif
#endif
