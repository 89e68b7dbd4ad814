/* reduce_impl.h - the device's float sums in NumPy's pairwise order
 * (pairwise.h), one block of threads per run of a grouped launch: the
 * result of each run is the partial the CPU's reduce kernel leaves in an
 * accumulator started at 0 or at the run's start (dk.h: a pairwise leaf's
 * -0.0, a seeded block's initial= or -0.0), then start + the pairwise sum
 * of each row, row after row, so a device partial has the CPU's bits.
 *
 * A block splits the run's tree the way the recursion does, breadth
 * first, until it has a frontier of about one subtree per thread (thread
 * 0, phase 1); each thread sums its subtrees with ndt_pw_sum (phase 2);
 * thread 0 adds the upper tree back, children before parents (phase 3).
 * Same tree, same bits. The phases are NDT_HD functions; CUDA runs them
 * with barriers between, the host emulation (NDT_DK_HOST) runs each phase
 * for every thread in turn. reduce.cu is this file compiled by nvcc. The
 * plugin's float sums run it (src/runtime/cuda.c, the "sum" and "reduce"
 * tasks); not yet run on a GPU, its speed is unmeasured (phase 2's
 * threads read contiguous stretches: not coalesced). */
#ifndef NDT_KERNELS_CUDA_REDUCE_IMPL_H
#define NDT_KERNELS_CUDA_REDUCE_IMPL_H

#include "ndtile.h"
#include "kernels/cuda/dk.h"
#include "kernels/pairwise.h"

#define NDT_PW_THREADS 128
#define NDT_PW_NODES (4 * NDT_PW_THREADS)

/* a block's upper tree: node i covers [off, off + n) of the row; left < 0
 * for a frontier node (a subtree a thread sums) */
typedef struct {
  int64_t off[NDT_PW_NODES], n[NDT_PW_NODES];
  int left[NDT_PW_NODES], nnodes;
  int front[NDT_PW_NODES], nfront;
} ndt_pw_tree;

/* phase 1 (one thread): the upper tree of a row of n elements (cplx: the
 * complex tree's leaves and splits, pairwise.h) */
NDT_HD void ndt_pw_plan(ndt_pw_tree *t, int64_t n, int want, int cplx) {
  const int64_t leaf = cplx ? NDT_PW_CLEAF : NDT_PW_LEAF;
  t->off[0] = 0;
  t->n[0] = n;
  t->left[0] = -1;
  t->nnodes = 1;
  t->front[0] = 0;
  t->nfront = 1;
  for (;;) {
    int split = 0;
    for (int i = 0; i < t->nfront; i++) split += t->n[t->front[i]] > leaf;
    if (!split || t->nfront + split > want || t->nnodes + 2 * split > NDT_PW_NODES) return;
    /* every splittable frontier node in order; the frontier keeps its order */
    int nf = 0, old[NDT_PW_NODES];
    for (int i = 0; i < t->nfront; i++) old[i] = t->front[i];
    int of = t->nfront;
    for (int i = 0; i < of; i++) {
      int x = old[i];
      if (t->n[x] <= leaf) {
        t->front[nf++] = x;
        continue;
      }
      int64_t h = cplx ? ndt_pw_csplit(t->n[x]) : ndt_pw_split(t->n[x]);
      int l = t->nnodes++, r = t->nnodes++;
      t->off[l] = t->off[x], t->n[l] = h, t->left[l] = -1;
      t->off[r] = t->off[x] + h, t->n[r] = t->n[x] - h, t->left[r] = -1;
      t->left[x] = l;   /* its right child is l + 1 */
      t->front[nf++] = l;
      t->front[nf++] = r;
    }
    t->nfront = nf;
  }
}

#define NDT_PW_KERNEL(NAME, SFX, T)                                                   \
  typedef struct {                                                                    \
    ndt_pw_tree t;                                                                    \
    T val[NDT_PW_NODES];                                                              \
  } ndt_pw_shared_##NAME;                                                             \
  /* phase 2 (thread tx of ntx): the frontier's subtrees */                           \
  NDT_HD void ndt_pw_leaves_##NAME(ndt_pw_shared_##NAME *sh, const char *p, int64_t s,  \
                                  int64_t tx, int64_t ntx, unsigned *fe) {            \
    for (int64_t i = tx; i < sh->t.nfront; i += ntx) {                                \
      int x = sh->t.front[i];                                                         \
      sh->val[x] = ndt_pw_sum_##NAME(p + sh->t.off[x] * s, s, sh->t.n[x], fe);         \
    }                                                                                 \
  }                                                                                   \
  /* phase 3 (one thread): children were made after their parents, so in   \
   * reverse order every node's children are summed before it */           \
  NDT_HD T ndt_pw_combine_##NAME(ndt_pw_shared_##NAME *sh, unsigned *fe) {              \
    for (int i = sh->t.nnodes - 1; i >= 0; i--)                                       \
      if (sh->t.left[i] >= 0)                                                         \
        sh->val[i] = NDT_PW_ADD(SFX, sh->val[sh->t.left[i]], sh->val[sh->t.left[i] + 1], fe); \
    return sh->val[0];                                                                \
  }                                                                                   \
  /* where run r's partial starts: 0, or its start (dk.h) */                          \
  NDT_HD T ndt_pw_start_##NAME(const ndt_dk_run *r) {                                 \
    T v = ndt_pw_zero_##SFX();                                                        \
    if (r->from) memcpy(&v, r->start, sizeof v);                                      \
    return v;                                                                         \
  }

NDT_PW_KERNEL(f32, f32, float)
NDT_PW_KERNEL(f64, f64, double)
NDT_PW_KERNEL(nf32, f32, float)
NDT_PW_KERNEL(nf64, f64, double)
NDT_PW_KERNEL(c64, c64, ndt_c64)
NDT_PW_KERNEL(c128, c128, ndt_c128)
NDT_PW_KERNEL(nc64, c64, ndt_c64)
NDT_PW_KERNEL(nc128, c128, ndt_c128)
#define NDT_PW_CPLX_f32 0
#define NDT_PW_CPLX_f64 0
#define NDT_PW_CPLX_c64 1
#define NDT_PW_CPLX_c128 1

/* run r's partial into *(T *)run.p[1]: operand 0 the rows (rows x cols,
 * strides rs, cs); flags: a device word the kernel ORs the overflow and
 * invalid flags of its additions into. Pass 0 adds plainly; a run whose
 * partial is not finite is summed again with the flags and x86's NaNs
 * (pairwise.h's NDT_PW_ADD), pass 1. */
#if defined(NDT_DK_HOST)
#define NDT_PW_GLOBAL(NAME, SFX, T)                                                         \
  static void ndt_pw_grid_##NAME(const ndt_dk_launch *L, unsigned *flags) {            \
    static _Thread_local ndt_pw_shared_##NAME sh; /* a stream's thread each */        \
    for (int q = 0; q < L->nrun; q++) {                                               \
      const ndt_dk_run *r = &L->run[q];                                               \
      unsigned f = 0;                                                                 \
      T acc = ndt_pw_start_##NAME(r);                                                 \
      for (int pass = 0; pass < 2; pass++) {                                          \
        unsigned *fe = pass ? &f : NULL;                                              \
        acc = ndt_pw_start_##NAME(r);                                                 \
        for (int64_t i = 0; i < r->rows; i++) {                                       \
          const char *p = r->p[0] + i * r->rs[0];                                     \
          ndt_pw_plan(&sh.t, r->cols, ndt_dk_emu_threads, NDT_PW_CPLX_##SFX);         \
          for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++)                         \
            ndt_pw_leaves_##NAME(&sh, p, r->cs[0], tx, ndt_dk_emu_threads, fe);        \
          acc = NDT_PW_ADD(SFX, acc, ndt_pw_combine_##NAME(&sh, fe), fe);              \
        }                                                                             \
        if (ndt_pw_fin_##SFX(acc)) break;                                             \
      }                                                                               \
      NDT_DK_FLAGS(flags, f);                                                         \
      *(T *)r->p[1] = acc;                                                            \
    }                                                                                 \
  }                                                                                   \
  static void ndt_pw_run_##NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    NDT_PW_LAUNCH(NAME)                                                                \
  }
#if defined(NDT_DK_STREAM)
#define NDT_PW_LAUNCH(NAME) \
  if (L->nrun > 0) ndt__cudahost_launch(stream, 2, 2u, L, flags, ndt_pw_grid_##NAME);
#else
#define NDT_PW_LAUNCH(NAME) \
  (void)stream;            \
  ndt_pw_grid_##NAME(L, flags);
#endif
#else
#define NDT_PW_GLOBAL(NAME, SFX, T)                                                         \
  __global__ void ndt_pw_k_##NAME(const __grid_constant__ ndt_dk_launch L, unsigned *flags) { \
    __shared__ ndt_pw_shared_##NAME sh;                                                \
    __shared__ int redo;                                                              \
    const ndt_dk_run *r = &L.run[blockIdx.y];                                         \
    unsigned f = 0;                                                                   \
    T acc = ndt_pw_start_##NAME(r);                                                   \
    for (int pass = 0; pass < 2; pass++) {                                            \
      unsigned *fe = pass ? &f : NULL;                                                \
      acc = ndt_pw_start_##NAME(r);                                                   \
      for (int64_t i = 0; i < r->rows; i++) {                                         \
        const char *p = r->p[0] + i * r->rs[0];                                       \
        if (threadIdx.x == 0) ndt_pw_plan(&sh.t, r->cols, blockDim.x, NDT_PW_CPLX_##SFX); \
        __syncthreads();                                                              \
        ndt_pw_leaves_##NAME(&sh, p, r->cs[0], threadIdx.x, blockDim.x, fe);           \
        __syncthreads();                                                              \
        if (threadIdx.x == 0) acc = NDT_PW_ADD(SFX, acc, ndt_pw_combine_##NAME(&sh, fe), fe); \
        __syncthreads();                                                              \
      }                                                                               \
      if (threadIdx.x == 0) redo = pass == 0 && !ndt_pw_fin_##SFX(acc);               \
      __syncthreads();                                                                \
      if (!redo) break;                                                               \
    }                                                                                 \
    NDT_DK_FLAGS(flags, f);                                                           \
    if (threadIdx.x == 0) *(T *)r->p[1] = acc;                                        \
  }                                                                                   \
  static void ndt_pw_run_##NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0)                                                                  \
      ndt_pw_k_##NAME<<<dim3(1, (unsigned)L->nrun, 1), NDT_PW_THREADS, 0,              \
                       (cudaStream_t)stream>>>(*L, flags);                            \
  }
#endif
NDT_PW_GLOBAL(f32, f32, float)
NDT_PW_GLOBAL(f64, f64, double)
NDT_PW_GLOBAL(nf32, f32, float)
NDT_PW_GLOBAL(nf64, f64, double)
NDT_PW_GLOBAL(c64, c64, ndt_c64)
NDT_PW_GLOBAL(c128, c128, ndt_c128)
NDT_PW_GLOBAL(nc64, c64, ndt_c64)
NDT_PW_GLOBAL(nc128, c128, ndt_c128)

/* The partial sums of the runs of L (float32, float64, complex64 or
 * complex128; operand 0 the
 * values, operand 1 where each run's partial goes), the flags of the
 * additions ORed into *flags: 0, or -1 for another dtype. dtype |
 * NDT_PW_NAN: the NaN-ignoring sums (nansum: NaNs read as 0). */
#define NDT_PW_NAN 256
NDT_DK_ENTRY(int) ndt__dk_pairwise(int dtype, const ndt_dk_launch *L, unsigned *flags,
                                   void *stream) {
  if (dtype == NDT_FLOAT32) ndt_pw_run_f32(L, flags, stream);
  else if (dtype == NDT_FLOAT64) ndt_pw_run_f64(L, flags, stream);
  else if (dtype == (NDT_FLOAT32 | NDT_PW_NAN)) ndt_pw_run_nf32(L, flags, stream);
  else if (dtype == (NDT_FLOAT64 | NDT_PW_NAN)) ndt_pw_run_nf64(L, flags, stream);
  else if (dtype == NDT_COMPLEX64) ndt_pw_run_c64(L, flags, stream);
  else if (dtype == NDT_COMPLEX128) ndt_pw_run_c128(L, flags, stream);
  else if (dtype == (NDT_COMPLEX64 | NDT_PW_NAN)) ndt_pw_run_nc64(L, flags, stream);
  else if (dtype == (NDT_COMPLEX128 | NDT_PW_NAN)) ndt_pw_run_nc128(L, flags, stream);
  else return -1;
  return 0;
}


/* ---- "pairwise top" (reduce.c's pw_top_body) ----
 * The tree above a full sum's leaves: run r's line had rs[0] elements, cut
 * at nodes of at most rs[1] (pairwise.h's splits, NumPy's complex ones for
 * complex dtypes), whose sums are the cols elements at p[0] (stride
 * cs[0]), in order; its result *p[1] = start + root, the start +0.0 or
 * (from 2) what *p[1] holds (a seeded sum's initial=), as the CPU adds
 * them. One thread a run (the tree has a few nodes a tile); plain
 * additions, then again with the flags and x86's NaNs when the result is
 * not finite, as the pairwise kernel. */
/* (the walk's leaf: the k-th partial, at r->p[0] with stride r->cs[0]) */
#define NDT_PW_TOP_LEAF(NAME, k, o, m) ndt_pw_at_##NAME(r->p[0], r->cs[0], k)
#define NDT_PW_TOP(NAME, SFX, T, SPLIT)                                                \
  NDT_HD T ndt_pw_top_##NAME(const ndt_dk_run *r, unsigned *fe) {                      \
    T root;                                                                            \
    NDT_PW_WALK(T, r->rs[0], r->rs[1], SPLIT, NDT_PW_TOP_LEAF, NAME, NDT_PW_ADD_FE, SFX, \
                root);                                                                 \
    T s = ndt_pw_zero_##SFX();                                                         \
    if (r->from == 2) memcpy(&s, r->p[1], sizeof s);                                   \
    return NDT_PW_ADD(SFX, s, root, fe);                                               \
  }                                                                                    \
  NDT_DK_BODY void ndt_pw_topr_##NAME(const ndt_dk_run *r, unsigned *flags) {          \
    unsigned f = 0;                                                                    \
    T acc = ndt_pw_top_##NAME(r, NULL);                                                \
    if (!ndt_pw_fin_##SFX(acc)) acc = ndt_pw_top_##NAME(r, &f);                        \
    NDT_DK_FLAGS(flags, f);                                                            \
    memcpy(r->p[1], &acc, sizeof acc);                                                 \
  }
NDT_PW_TOP(f32, f32, float, ndt_pw_split)
NDT_PW_TOP(f64, f64, double, ndt_pw_split)
NDT_PW_TOP(c64, c64, ndt_c64, ndt_pw_csplit)
NDT_PW_TOP(c128, c128, ndt_c128, ndt_pw_csplit)
#if defined(NDT_DK_HOST)
#define NDT_PW_TOPG(NAME)                                                              \
  static void ndt_pwt_grid_##NAME(const ndt_dk_launch *L, unsigned *flags) {           \
    for (int q = 0; q < L->nrun; q++) ndt_pw_topr_##NAME(&L->run[q], flags);           \
  }                                                                                    \
  static void ndt_pwt_run_##NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    NDT_PWT_LAUNCH(NAME)                                                               \
  }
#if defined(NDT_DK_STREAM)
#define NDT_PWT_LAUNCH(NAME) \
  if (L->nrun > 0) ndt__cudahost_launch(stream, 2, 3u, L, flags, ndt_pwt_grid_##NAME);
#else
#define NDT_PWT_LAUNCH(NAME) \
  (void)stream;              \
  ndt_pwt_grid_##NAME(L, flags);
#endif
#else
#define NDT_PW_TOPG(NAME)                                                              \
  __global__ void ndt_pwt_k_##NAME(const __grid_constant__ ndt_dk_launch L, unsigned *flags) { \
    ndt_pw_topr_##NAME(&L.run[blockIdx.y], flags);                                     \
  }                                                                                    \
  static void ndt_pwt_run_##NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0)                                                                   \
      ndt_pwt_k_##NAME<<<dim3(1, (unsigned)L->nrun, 1), 1, 0, (cudaStream_t)stream>>>(*L, flags); \
  }
#endif
NDT_PW_TOPG(f32)
NDT_PW_TOPG(f64)
NDT_PW_TOPG(c64)
NDT_PW_TOPG(c128)

/* The pairwise tops of L's runs (float32, float64, complex64 or
 * complex128), flags ORed into *flags: 0, or -1 for another dtype (L
 * NULL: only the question). */
NDT_DK_ENTRY(int) ndt__dk_pwtop(int dtype, const ndt_dk_launch *L, unsigned *flags,
                                void *stream) {
  void (*fn)(const ndt_dk_launch *, unsigned *, void *) =
      dtype == NDT_FLOAT32     ? ndt_pwt_run_f32
      : dtype == NDT_FLOAT64   ? ndt_pwt_run_f64
      : dtype == NDT_COMPLEX64 ? ndt_pwt_run_c64
      : dtype == NDT_COMPLEX128 ? ndt_pwt_run_c128
                                : NULL;
  if (!fn) return -1;
  if (L) fn(L, flags, stream);
  return 0;
}

#endif
