/* combine_impl.h - the device's ordered folds into a result: the steps of
 * a reduction that fold values into result elements one after another, in
 * the CPU's order (src/ops/reduce.c): the "reduce combine" of the blocks'
 * partials (in block order, the first block's partial copied), its direct
 * fold (the input's blocks straight into the result: a.max(axis=0) of a C
 * array, whose rows add into the same elements in order), and the float
 * and complex products ("prod chain": the pieces of a line into one
 * result element; "prod fold": a block into the result elements it
 * reaches, continuing from the blocks before). fold_impl.h's ops (the
 * CPU's k.acc and k.run steps, with their flags) plus the float and
 * complex products below, so every result has the CPU's bits and flags.
 *
 * A launch is a list of chains (dk.h's runs): a chain is consecutive runs
 * of one result column set (the head's p[1] + j * cs[1], j < cols; every
 * run of the chain has the same cols), the head's rs[2] the chain's
 * length (0 on the others), its cs[2] where it starts: 0 from the op's
 * identity, 1 from what the result holds (an earlier launch or task left
 * it there). Run k's column j is rows elements p[0] + j * cs[0] + i *
 * rs[0], folded in i order; rs[3] = 1: its first element is copied, not
 * folded (reduce.c's combine copies the first block's partial: for a
 * float sum 0 + -0.0 would be +0.0). One thread per column walks the
 * chain's runs in order: each result element sees the CPU's sequence of
 * steps. Distinct chains of a launch reach disjoint elements (the plugin
 * builds them so: src/runtime/cuda_combine.h), so they run in parallel.
 * Operand 0's dtype is the launch's aux (the accumulator's: no casts).
 * fold.cu compiles this file with nvcc; tests/c/test_devkernels.c
 * (combine) runs it on the CPU against the CPU's k.acc/k.run. Not yet run
 * on a GPU. */
#ifndef NDT_KERNELS_CUDA_COMBINE_IMPL_H
#define NDT_KERNELS_CUDA_COMBINE_IMPL_H

#include "kernels/cuda/fold_impl.h"

/* ---- the float and complex products (reduce.c's prod_run / prod_acc) ----
 * prod: a * v (the run's MUL; complex unfused: NumPy's scalar product);
 * prodf: complex, fused as the CPU's prod_acc at SIMD level >= 2;
 * nanprod: a real NaN is skipped (a * 1.0 is a), a complex one multiplies
 * as 1+0j (not a no-op: inf * (1+0j) makes a NaN part). */
#define NDT_CB_RPROD(SFX, T, ONE)                                                  \
  NDT_HD T ndt_fd_id_prod_##SFX(void) { return ONE; }                              \
  NDT_HD T ndt_fd_prod_##SFX(T a, T v, unsigned *fe) { return ndt_sc_mul_##SFX(a, v, fe); } \
  NDT_HD T ndt_fd_id_nanprod_##SFX(void) { return ONE; }                           \
  NDT_HD T ndt_fd_nanprod_##SFX(T a, T v, unsigned *fe) {                          \
    return v != v ? a : ndt_sc_mul_##SFX(a, v, fe);                                \
  }
NDT_CB_RPROD(f32, float, 1.0f)
NDT_CB_RPROD(f64, double, 1.0)
#define NDT_CB_CPROD(SFX, T, ONE)                                                  \
  NDT_HD T ndt_fd_id_prod_##SFX(void) { return ONE; }                              \
  NDT_HD T ndt_fd_prod_##SFX(T a, T v, unsigned *fe) { return ndt_sc_mul_##SFX(a, v, fe); } \
  NDT_HD T ndt_fd_id_prodf_##SFX(void) { return ONE; }                             \
  NDT_HD T ndt_fd_prodf_##SFX(T a, T v, unsigned *fe) { return ndt_sc_mulf_##SFX(a, v, fe); } \
  NDT_HD T ndt_fd_id_nanprod_##SFX(void) { return ONE; }                           \
  NDT_HD T ndt_fd_nanprod_##SFX(T a, T v, unsigned *fe) {                          \
    return ndt_sc_mul_##SFX(a, NDT_FD_CNAN(v) ? ONE : v, fe);                      \
  }                                                                                \
  NDT_HD T ndt_fd_id_nanprodf_##SFX(void) { return ONE; }                          \
  NDT_HD T ndt_fd_nanprodf_##SFX(T a, T v, unsigned *fe) {                         \
    return ndt_sc_mulf_##SFX(a, NDT_FD_CNAN(v) ? ONE : v, fe);                     \
  }
NDT_CB_CPROD(c64, ndt_c64, ndt_fd_c64(0x3f800000u, 0))
NDT_CB_CPROD(c128, ndt_c128, ndt_fd_c128(0x3ff0000000000000ull, 0))

/* every (op, accumulator) a chain folds with: fold_impl.h's and the products */
#define NDT_CB_ALL(X)                                                             \
  NDT_FD_ALL(X)                                                                   \
  X(prod, f32, 0) X(nanprod, f32, 0) X(prod, f64, 0) X(nanprod, f64, 0)           \
  X(prod, c64, 0) X(prodf, c64, 0) X(nanprod, c64, 0) X(nanprodf, c64, 0)          \
  X(prod, c128, 0) X(prodf, c128, 0) X(nanprod, c128, 0) X(nanprodf, c128, 0)

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

/* the kernel's op name for a reduction op (NDT_RED_*) on accumulator acc;
 * fused: the CPU's complex product is the fused one (its k.acc at SIMD
 * level >= 2) */
NDT_HD const char *ndt_cb_opname(int op, int acc, int fused) {
  int fc = acc >= NDT_FLOAT32 && acc <= NDT_COMPLEX128, cx = acc >= NDT_COMPLEX64 && fused;
  if (fc && op == NDT_RED_PROD) return cx ? "prodf" : "prod";
  if (fc && op == NDT_RED_NANPROD) return cx ? "nanprodf" : "nanprod";
  return ndt_fd_opname(op, acc);
}

#if defined(__CUDACC__)
/* a block row per run (only the heads work), enough blocks across for the
 * widest chain's columns, a thread a column */
#define NDT_CB_GLOBAL(NAME)                                                           \
  __global__ void NAME##_k(const __grid_constant__ ndt_dk_launch L, unsigned *flags) { \
    ndt_dk_grid g = {blockIdx.x, blockIdx.y, gridDim.x, threadIdx.x, blockDim.x};     \
    NAME##_body(&L, flags, g);                                                        \
  }                                                                                   \
  static void NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) {           \
    int64_t m = 1;                                                                    \
    for (int r = 0; r < L->nrun; r++)                                                 \
      if (L->run[r].cols > m) m = L->run[r].cols;                                     \
    int64_t b = (m + NDT_DK_THREADS - 1) / NDT_DK_THREADS;                            \
    if (L->nrun > 0)                                                                  \
      NAME##_k<<<dim3((unsigned)(b > 1024 ? 1024 : b), (unsigned)L->nrun, 1), NDT_DK_THREADS, 0, \
                 (cudaStream_t)stream>>>(*L, flags);                                  \
  }
#elif defined(NDT_DK_STREAM)
/* (the host build: operand 1 checked and mapped for an empty run too: a
 * chain of rows 0 fills its columns with the identity) */
#define NDT_CB_GLOBAL(NAME)                                                       \
  static void NAME##_grid(const ndt_dk_launch *L, unsigned *flags) {             \
    ndt_dk_host_grid(L, flags, NAME##_body);                                     \
  }                                                                              \
  static void NAME(const ndt_dk_launch *L, unsigned *flags, void *stream) {      \
    if (L->nrun > 0) ndt__cudahost_launch(stream, 3, 2u, L, flags, NAME##_grid);  \
  }
#else
#define NDT_CB_GLOBAL(NAME) NDT_DK_GLOBAL(NAME, 3)
#endif

#if defined(NDT_DK_HOST) && defined(NDT_DK_STREAM)
#define NDT_CB_TALLY() ndt__cudahost_tally(2)
#else
#define NDT_CB_TALLY() ((void)0)
#endif

#define NDT_CB_K(OP, SFX, COMMUT)                                                      \
  NDT_DK_BODY void ndt_cb_##OP##_##SFX##_body(const ndt_dk_launch *L, unsigned *flags,  \
                                              ndt_dk_grid g) {                         \
    const ndt_dk_run *h = &L->run[g.by];                                               \
    if (h->rs[2] <= 0) return;                                                         \
    unsigned f = 0;                                                                    \
    for (int64_t j = g.bx * g.ntx + g.tx; j < h->cols; j += g.nbx * g.ntx) {            \
      ndt_sc_t_##SFX *o = (ndt_sc_t_##SFX *)(h->p[1] + j * h->cs[1]);                  \
      ndt_sc_t_##SFX acc = h->cs[2] ? *o : ndt_fd_id_##OP##_##SFX();                   \
      for (int64_t c = 0; c < h->rs[2]; c++) {                                         \
        const ndt_dk_run *r = &L->run[g.by + c];                                       \
        const char *p = r->p[0] + j * r->cs[0];                                        \
        int64_t i = 0;                                                                 \
        if (r->rs[3]) acc = ndt_fd_ld_##SFX(L->aux, p), i = 1;                         \
        for (; i < r->rows; i++)                                                       \
          acc = ndt_fd_##OP##_##SFX(acc, ndt_fd_ld_##SFX(L->aux, p + i * r->rs[0]), &f); \
      }                                                                                \
      *o = acc;                                                                        \
    }                                                                                  \
    NDT_DK_FLAGS(flags, f);                                                            \
  }                                                                                    \
  NDT_CB_GLOBAL(ndt_cb_##OP##_##SFX)                                                   \
  static void ndt_cbl_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0) NDT_CB_TALLY();                                                   \
    ndt_cb_##OP##_##SFX(L, flags, stream);                                             \
  }
NDT_CB_ALL(NDT_CB_K)

typedef struct {
  const char *op;
  int acc;
  ndt_dk_fn fn;
} ndt_cb_entry;
#define NDT_CB_ROW(OP, SFX, COMMUT) {#OP, NDT_FD_DT_##SFX, ndt_cbl_##OP##_##SFX},
static const ndt_cb_entry ndt_cb_table[] = {NDT_CB_ALL(NDT_CB_ROW)};

/* ---- argmin/argmax: the combine of the blocks' (value, index) partials ----
 * reduce.c's combine_body with ARG: a chain's column j folds the pairs of
 * its runs in order with fold_impl.h's step (the CPU's ARG kernel on one
 * element: a pair of index -1 skipped, the first of equals and the first
 * NaN win; complex values lexicographic), from no pair (index -1), and
 * writes the index (int64, p[1] + j * cs[1]). Run k's pair (i, j): its
 * value at p[0] + i * rs[0] + j * cs[0], its index at p[2] + i * rs[2] +
 * j * cs[2]; the head's rs[3] is the chain's length. A chain runs in one
 * launch (the running value is not kept: the plugin refuses a chain that
 * would go on into a second launch). No flags (comparisons only). */
#define NDT_CBA_K(OP, SFX, T)                                                          \
  NDT_DK_BODY void ndt_cba_##OP##_##SFX##_body(const ndt_dk_launch *L, unsigned *flags, \
                                               ndt_dk_grid g) {                        \
    const ndt_dk_run *h = &L->run[g.by];                                               \
    (void)flags;                                                                       \
    if (h->rs[3] <= 0) return;                                                         \
    for (int64_t j = g.bx * g.ntx + g.tx; j < h->cols; j += g.nbx * g.ntx) {            \
      T b;                                                                             \
      int64_t bi = -1;                                                                 \
      memset(&b, 0, sizeof b);                                                         \
      for (int64_t c = 0; c < h->rs[3]; c++) {                                         \
        const ndt_dk_run *r = &L->run[g.by + c];                                       \
        for (int64_t i = 0; i < r->rows; i++)                                          \
          ndt_fa_##OP##_##SFX(&b, &bi, *(const T *)(r->p[0] + i * r->rs[0] + j * r->cs[0]), \
                              *(const int64_t *)(r->p[2] + i * r->rs[2] + j * r->cs[2])); \
      }                                                                                \
      *(int64_t *)(h->p[1] + j * h->cs[1]) = bi;                                       \
    }                                                                                  \
  }                                                                                    \
  NDT_CB_GLOBAL(ndt_cba_##OP##_##SFX)                                                  \
  static void ndt_cbal_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0) NDT_CB_TALLY();                                                   \
    ndt_cba_##OP##_##SFX(L, flags, stream);                                            \
  }
NDT_FA_ALL(NDT_CBA_K)

#define NDT_CBA_ROW(OP, SFX, T) {NDT_RED_##OP, NDT_FD_DT_##SFX, ndt_cbal_##OP##_##SFX},
static const ndt_fa_entry ndt_cba_table[] = {NDT_FA_ALL(NDT_CBA_ROW)};

/* The argmin/argmax combine (op NDT_RED_ARGMIN/ARGMAX) of L's chains over
 * partial values of dtype dt (bool's are uint8's): 0, or -1 when there is
 * no such kernel (L NULL: only the question). */
NDT_DK_ENTRY(int) ndt__dk_cbarg(int op, int dt, const ndt_dk_launch *L, unsigned *flags,
                                void *stream) {
  if (dt == NDT_BOOL) dt = NDT_UINT8;
  for (size_t k = 0; k < sizeof ndt_cba_table / sizeof *ndt_cba_table; k++)
    if (ndt_cba_table[k].op == op && ndt_cba_table[k].dt == dt) {
      if (L) ndt_cba_table[k].fn(L, flags, stream);
      return 0;
    }
  return -1;
}

/* The chains of L (operand 0 of dtype acc, L->aux) folded with reduction
 * op (NDT_RED_*) on accumulator acc (fused: see ndt_cb_opname), flags
 * ORed into *flags: 0, or -1 when there is no such kernel (L NULL: only
 * the question). */
NDT_DK_ENTRY(int) ndt__dk_combine(int op, int acc, int fused, const ndt_dk_launch *L,
                                  unsigned *flags, void *stream) {
  const char *name = ndt_cb_opname(op, acc, fused);
  if (!name) return -1;
  for (size_t k = 0; k < sizeof ndt_cb_table / sizeof *ndt_cb_table; k++)
    if (ndt_cb_table[k].acc == acc && !strcmp(ndt_cb_table[k].op, name)) {
      if (L) ndt_cb_table[k].fn(L, flags, stream);
      return 0;
    }
  return -1;
}

#endif
#endif
