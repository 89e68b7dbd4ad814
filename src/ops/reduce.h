/* reduce.h - the arguments of the reduction tasks (reduce.c), for the
 * bodies that run them: the CPU's in reduce.c, and a device plugin's
 * (src/runtime/cuda.c), which finds them by the kinds' names ("reduce
 * block", "pairwise leaf", "reduce combine", "reduce carry", ...). */
#ifndef NDT_OPS_REDUCE_H
#define NDT_OPS_REDUCE_H
#include "exec.h"

/* "reduce block" and "reduce combine": operands of a block task are the
 * input block (read), its value partials and (arg*) index partials in
 * parts (write; the second empty otherwise); the partial of a block has
 * the block's shape with the reduced axes (mask) set to 1, in C order. */
typedef struct {
  ndt_reduce_op op;
  ndt_dtype acc;          /* accumulator dtype (value dtype for ARG*) */
  uint64_t mask;          /* reduced axes of the input */
  int arg;                /* ARGMIN/ARGMAX */
  int arg_all;            /* ARG over all axes: flat index */
  int arg_axis;
  ndt_array in;           /* the whole input view */
  ndt_tiling tl;
  ndt_store *parts;       /* one-tile byte store of partials */
  int64_t blk;            /* this block (block tasks) */
  int64_t arg_base;       /* ARG block tasks: the index of the block's first element
                             (arg_all: flat; else along arg_axis), as the CPU's body
                             computes it (for a device's body, which cannot) */
  int64_t poff;           /* byte offset of this block's partial */
  int64_t pcount;         /* elements in all partials */
  ndt_array out;          /* combine: the result in keepdims shape */
  int64_t clo, chi;       /* combine: this task's out elements (flat) */
  int from_out;           /* a seeded reduction (ndt_reduce_initial): the result
                             holds the start, the combine folds on from it, float
                             sums' partials start from -0.0 (kinds apart: reduce.c) */
  int seed_last;          /* from_out: the partials combined first, the start added
                             last (seed_after_partials) */
  char seed[16];          /* from_out, not seed_last: the start, where the first
                             block of each result element starts its partial */
} ndt_red_arg;

/* ---- the blocks a combine visits (reduce.c's bodies and the device's,
 * src/runtime/cuda_combine.h: the same walk) ---- */

/* [*j0, *j1): the elements j of a run of n result elements oi + j * so
 * (so >= 0) that fall in the result's elements [lo, hi) (flat). */
static inline void ndt_red_in_range(int64_t oi, int64_t n, int64_t so, int64_t lo, int64_t hi,
                                    int64_t *j0, int64_t *j1) {
  *j0 = 0;
  *j1 = n;
  if (so > 0) {
    if (oi < lo) *j0 = (lo - oi + so - 1) / so;
    if (oi + (n - 1) * so >= hi) *j1 = hi > oi ? (hi - oi + so - 1) / so : 0;
  } else if (oi < lo || oi >= hi) {
    *j1 = 0;
  }
}

/* The part of the input a combine reads. A combine of the result's
 * elements [lo, hi) (flat, C order) reads the input only at the kept
 * indices of those elements: their bounding box (b0: its first indices,
 * bn: its extents) in the kept axes, whole along the reduced ones (axes
 * before the first on which lo and hi - 1 differ: one index; that axis: the
 * range between; later axes: whole). Its tasks name that box (walked,
 * NDT_OPND_VIEW: the tiles it touches, a column of rows of a (4, N) array)
 * and visit the blocks that meet it, in block order: a result of many
 * tiles over a short reduced axis is then recorded and combined in time
 * linear in the tiles, not their square. out: the result in keepdims shape
 * (a reduced axis 1). */
static inline void ndt_red_box(const ndt_array *in, uint64_t mask, const ndt_array *out,
                               int64_t lo, int64_t hi, int64_t *b0, int64_t *bn) {
  int nd = in->ndim, split = 0;
  int64_t l = lo, h = hi - 1;
  for (int k = nd - 1; k >= 0; k--) {   /* b0: lo's indices, bn: hi - 1's */
    b0[k] = l % out->shape[k];
    bn[k] = h % out->shape[k];
    l /= out->shape[k];
    h /= out->shape[k];
  }
  for (int k = 0; k < nd; k++) {
    if ((mask >> k & 1) || split) {
      b0[k] = 0;
      bn[k] = in->shape[k];
    } else {
      split = bn[k] != b0[k];
      bn[k] = bn[k] - b0[k] + 1;
    }
  }
}

/* The blocks of a tiling (of in's shape) that meet a box, in block order:
 * block (i_0, ..., i_{ax-1}, q) is (i_0 ... i_{ax-1} flat) * per + q
 * (exec.c's ndt__block_view); its indices before the split axis ax meet
 * the box's, its rows along ax [q * rows, (q + 1) * rows) meet the box's.
 *   ndt_red_blocks w;
 *   for (int64_t b = ndt_red_blk_first(&w, in, tl, b0, bn); b >= 0;
 *        b = ndt_red_blk_next(&w)) ... */
typedef struct {
  const ndt_array *in;
  const ndt_tiling *tl;
  int ax;
  int64_t lo[NDT_MAXDIMS], hi[NDT_MAXDIMS], g[NDT_MAXDIMS];
} ndt_red_blocks;

static inline int64_t ndt_red_blk_number(const ndt_red_blocks *w) {
  int64_t p = 0;
  for (int k = 0; k < w->ax; k++) p = p * w->in->shape[k] + w->g[k];
  return p * w->tl->per + w->g[w->ax];
}

/* The first block that meets box (b0, bn), or -1. */
static inline int64_t ndt_red_blk_first(ndt_red_blocks *w, const ndt_array *in,
                                        const ndt_tiling *tl, const int64_t *b0,
                                        const int64_t *bn) {
  w->in = in;
  w->tl = tl;
  w->ax = tl->axis;
  if (w->ax < 0) return 0;   /* one block */
  int64_t inner = 1;
  for (int k = w->ax + 1; k < in->ndim; k++) inner *= in->shape[k];
  int64_t rows = tl->seg / inner;
  for (int k = 0; k < w->ax; k++) {
    w->lo[k] = w->g[k] = b0[k];
    w->hi[k] = b0[k] + bn[k];
  }
  w->lo[w->ax] = w->g[w->ax] = b0[w->ax] / rows;
  w->hi[w->ax] = (b0[w->ax] + bn[w->ax] - 1) / rows + 1;
  return ndt_red_blk_number(w);
}

/* The next block that meets the box, or -1. */
static inline int64_t ndt_red_blk_next(ndt_red_blocks *w) {
  if (w->ax < 0) return -1;
  for (int k = w->ax; k >= 0; k--) {
    if (++w->g[k] < w->hi[k]) return ndt_red_blk_number(w);
    w->g[k] = w->lo[k];
  }
  return -1;
}

/* The offset (elements) of block b's partial among all blocks' partials
 * (each in the block's shape with the reduced axes 1, in block order): the
 * blocks of the periods before its own, then the pieces before it in its
 * own; each piece is the split axis's rows (1 when reduced) times the kept
 * extents after it. */
static inline int64_t ndt_red_part_offset(const ndt_red_arg *r, int64_t b) {
  const ndt_tiling *tl = &r->tl;
  int ax = tl->axis;
  if (ax < 0) return 0;
  int red = (int)(r->mask >> ax & 1);
  int64_t inner = 1, kept = 1;
  for (int k = ax + 1; k < r->in.ndim; k++) {
    inner *= r->in.shape[k];
    if (!(r->mask >> k & 1)) kept *= r->in.shape[k];
  }
  int64_t p = b / tl->per, q = b % tl->per;
  return kept * (red ? p * tl->per + q : p * r->in.shape[ax] + q * (tl->seg / inner));
}

/* "pairwise leaf" and "pairwise top": a full float sum in NumPy's one-line
 * pairwise order (reduce.c). A leaf task's operands are its piece of the
 * line (read, 1-d) and its slot in parts (write): slot = -0.0 + pw(piece),
 * which is pw(piece), on the CPU and on a device. "buffered sum leaf" and
 * "buffered sum top" (a sum with a cast) take the same argument: a leaf
 * sums each buffer of NDT_NP_BUFSIZE elements of its piece into its slot
 * (from -0.0), the top adds the slots to the start in order. */
#define NDT_NP_BUFSIZE 8192   /* NumPy's NPY_BUFSIZE */
typedef struct {
  ndt_reduce_op op;
  ndt_dtype acc;
  ndt_array line;        /* the leaf's elements (leaf tasks) */
  ndt_store *parts;      /* one value per leaf */
  int64_t slot;          /* this leaf's index */
  ndt_array out;         /* the top task: the 1-element result */
  int64_t n, leaf;
  int cplx;
  int from_out;          /* the top task adds the root to the result's start */
} ndt_pw_arg;

/* "prod chain": a piece of a float or complex product's line folded into
 * its one-element result in order, from the identity (first) or from what
 * the chain's earlier pieces left there. Operands: the result (write for
 * the first piece, else reduce), the piece (read, 1-d). */
typedef struct {
  ndt_reduce_op op;
  ndt_dtype acc;
  ndt_array piece, out;
  int first;
} ndt_chain_arg;

/* "prod fold": a block of a float or complex product over some axes
 * folded into the result elements it reaches (reg), continuing from the
 * blocks before it. Operands: the region (write for a first block, else
 * reduce), the block (read). */
typedef struct {
  ndt_reduce_op op;
  ndt_dtype acc;
  uint64_t mask;        /* the reduced axes */
  ndt_array blk;        /* the block of the input */
  ndt_array reg;        /* the result elements it reaches (keepdims) */
  int first;            /* no earlier block reaches them: start from 1 */
} ndt_prodfold_arg;

/* "reduce carry": a step of the direct fold on many ranks (reduce.c):
 * up to NDT_CARRY_BLOCKS blocks of the input (r.tl's blocks blk[]), in
 * block order, folded into the result elements [r.clo, r.chi) from the
 * identity (from 0), from a copy of the step before's running result
 * (from 1; no blocks: only the copy) or from what operand 0 holds (from
 * 2). Operands: the running result or the result's elements (write, or
 * read-write with from 2; flat, C order), the step before's running
 * result (read) or an empty view, the blocks (read). */
#define NDT_CARRY_BLOCKS 32
typedef struct {
  ndt_red_arg r;
  int from;
  int nblk;
  int64_t blk[NDT_CARRY_BLOCKS];
} ndt_carry_arg;

#endif
