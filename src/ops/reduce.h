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
