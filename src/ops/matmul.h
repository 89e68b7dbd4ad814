/* matmul.h - a matrix product's recorded argument (src/ops/matmul.c), for
 * the bodies that run its tasks: the CPU's in matmul.c and a device's (the
 * CUDA plugin reads it to run "matmul block", "matmul pack", "matmul
 * copyout" and "matvec" tasks with the same blocks and K pieces).
 *
 * C[M,N] = A[M,K] @ B[K,N] for each index of the broadcast batch
 * dimensions; the output is cut into a grid of nI x nJ blocks and K into
 * nK pieces (mm_grid); each block task walks the pieces in order, beta = 0
 * for the first and 1 after. */
#ifndef NDT_OPS_MATMUL_H
#define NDT_OPS_MATMUL_H
#include "exec.h"

typedef struct {
  int64_t M, N, K;
  int64_t mb, nb, kb;      /* piece lengths; piece p covers [p*len, min((p+1)*len, L)) */
  int64_t nI, nJ, nK;
  int64_t gsize, nG;       /* batches per task, task groups */
} mm_grid;

typedef struct {
  ndt_dtype ct;                  /* compute dtype */
  int nbd;                       /* batch dimensions */
  int64_t nbatch;
  int64_t bshape[NDT_MAXDIMS];
  mm_grid g;
  ndt_array op[3];               /* A (..., M, K), B (..., K, N), C (..., M, N); the batch
                                    dims are bshape, stride 0 where broadcast */
  int64_t own[2][NDT_MAXDIMS];   /* A's and B's own batch extents (1 where broadcast) */
  ndt_store *pk[2];              /* packed copies of A, B (or NULL) */
  int pk_cm[2];                  /* the packed copy is column-major */
  int64_t pk_chunk[2];           /* rows (columns if column-major) per pack task */
  ndt_store *stage;              /* nJ > 1: blocks are written here first */
  int which;                     /* pack task: 0 = A, 1 = B */
  int64_t t0, t1, t2;            /* block: group, i, j; pack: matrix, chunk; copy-out: batch, i */
} mm_arg;

/* The task kinds' operands (every one walked, NDT_OPND_WALK):
 *   "matmul block":   A's rows (or its packed copy), B's columns (or its
 *                     packed copy) (read), C's block (or its place in the
 *                     staging buffer) (write), then the three stores kept;
 *   "matmul pack":    the region of operand `which` (read), its place in the
 *                     packed copy (write; a one-tile byte store);
 *   "matmul copyout": the rows in the staging buffer (read; one tile), C's
 *                     rows (write). */

static inline int64_t ndt_mm_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* Element offset of batch bi (C order over bshape) in v. */
static inline int64_t ndt_mm_batch_off(const mm_arg *m, const ndt_array *v, int64_t bi) {
  int64_t off = v->offset;
  for (int d = m->nbd - 1; d >= 0; d--) {
    off += (bi % m->bshape[d]) * v->strides[d];
    bi /= m->bshape[d];
  }
  return off;
}

/* Index of batch bi's matrix among operand w's own matrices. */
static inline int64_t ndt_mm_own_index(const mm_arg *m, int w, int64_t bi) {
  int64_t q = 0, mul = 1;
  for (int d = m->nbd - 1; d >= 0; d--) {
    int64_t i = bi % m->bshape[d];
    bi /= m->bshape[d];
    if (m->own[w][d] > 1) q += i * mul;
    mul *= m->own[w][d];
  }
  return q;
}

/* Element offset in operand w of its own matrix q. */
static inline int64_t ndt_mm_own_off(const mm_arg *m, int w, int64_t q) {
  const ndt_array *v = &m->op[w];
  int64_t off = v->offset;
  for (int d = m->nbd - 1; d >= 0; d--) {
    int64_t e = m->own[w][d];
    off += (q % e) * v->strides[d];
    q /= e;
  }
  return off;
}

/* The lowest and highest element offsets of an R x C region at off. */
static inline void ndt_mm_extent2(int64_t off, int64_t R, int64_t C, int64_t rs, int64_t cs,
                                  int64_t *lo, int64_t *hi) {
  int64_t l = off, h = off, d = (R - 1) * rs;
  if (d < 0) l += d; else h += d;
  d = (C - 1) * cs;
  if (d < 0) l += d; else h += d;
  *lo = l;
  *hi = h;
}

/* A matrix-vector product's block ("matvec"): a row-major matrix R
 * (rows x cols) with a vector: y = R v (NoTrans: each block of rows writes
 * its own rows of y) or y = R^T v (trans: each block of rows writes
 * R_b^T v_b into its partial, and one "matvec combine" task sums the
 * partials in block order). Operands: the block's rows of R, its part of
 * v (read), its part of y or (trans) its partial (write). */
typedef struct {
  ndt_dtype t;
  int trans;
  ndt_array r, v, y;      /* this block's rows of R and of v (trans) or y (notrans) */
  ndt_store *parts;       /* trans: one partial of cols elements per block */
  int64_t poff;           /* byte offset of this block's partial */
  int64_t cols, nblocks;
} mv_arg;
#endif
