/* exec.h - running per-block work: operands, gathers, and the N-d loop
 * driver shared by elementwise operations, copies and reductions. */
#ifndef NDT_EXEC_H
#define NDT_EXEC_H
#include <string.h>
#include "view.h"

#define NDT_MAXOPS 4

/* An elementwise op over one block: inputs op[0..nin-1], output op[nin], all
 * of the same shape (inputs already broadcast). */
typedef struct {
  const char *name;
  int nin;
  int ufunc;                 /* the ndt_ufunc (a device finds its kernel by it), or -1 */
  ndt_loop_fn loop;          /* NULL: cast op[0] straight into the output */
  ndt_dtype loop_in[NDT_MAXOPS];
  ndt_dtype loop_out;
  ndt_array op[NDT_MAXOPS];
} ndt_ew_arg;

/* Records the op over every block of the output (views[nin] is the output
 * view; inputs are broadcast to its shape by the caller). */
ndt_status ndt__launch_elementwise(ndt_ew_arg *proto, ndt_array *const *views);

/* a broadcast to shape (nd axes), as a view on the stack: the caller's
 * handle keeps the store alive. */
void ndt__bcast_view(const ndt_array *a, int nd, const int64_t *shape, ndt_array *v);

/* Block b of the tiling of v's shape, as a view (same ndim, unit axes before
 * the split axis). */
void ndt__block_view(const ndt_array *v, const ndt_tiling *tl, int64_t b, ndt_array *out);

/* Rows [r0, r0+rn) of block b along the tiling's split axis. */
void ndt__block_rows(const ndt_array *v, const ndt_tiling *tl, int64_t b, int64_t r0, int64_t rn,
                    ndt_array *out);
/* The itemsize to tile an iteration over views[0..n) with: the largest of
 * itemsize and those of the views' stores that are split into tiles, so
 * that one block never spans tiles of the widest operand; tiles of narrower
 * ones hold whole blocks or meet block_cuts' cuts. */
int ndt__split_itemsize(ndt_array *const *views, int n, int itemsize);
/* Splits block b into pieces of whole rows in which each of the n views (all
 * of the iteration shape) stays inside one tile where it can; piece k is rows
 * [cuts[k], cuts[k+1]). Returns the number of pieces (at most cap - 1): one
 * where a view's rows each span tiles or the pieces would average under
 * MIN_PIECE elements (exec.c), the block then reading all its tiles. */
int ndt__block_cuts(ndt_array *const *views, int n, const ndt_tiling *tl, int64_t b,
                   int64_t *cuts, int cap);

/* Line operations (sort, fft): each task takes whole 1-d lines along one
 * axis. ndt__axis_last: v with axis ax moved to the end (a view on the
 * stack). ndt__line_tiling: the blocks of w's other axes (w from
 * ndt__axis_last), a line of w's last axis counting as one item.
 * ndt__line_block: block b of them as a view of w's layout with the line
 * appended, n long. */
void ndt__axis_last(const ndt_array *v, int ax, ndt_array *w);
void ndt__line_tiling(const ndt_array *w, ndt_tiling *tl);
void ndt__line_block(const ndt_array *w, const ndt_tiling *tl, int64_t b, int64_t n,
                    ndt_array *out);

/* Flat C-order index of block b's first element, and its multi-index in v's
 * shape (v of the tiled shape). */
int64_t ndt__block_first(const ndt_tiling *tl, int64_t b);
void ndt__block_start(const ndt_array *v, const ndt_tiling *tl, int64_t b, int64_t *start);

/* A 1-d block operand read in place run by run (NDT_OPND_WALK): elements
 * [i, i + *n) of the view bound in b, or as many of them as lie in one
 * buffer (*n cut). The flat view of an N-d array has tiles that end at
 * other places than the 1-d blocks: walked in element order, such a block
 * is read in place, with the same results, and not gathered into scratch. */
const char *ndt__run_at(const ndt_bound *b, int64_t i, int64_t *n);

/* Runs loop over n elements, casting inputs of dtype in_dt[i] to loop_in[i]
 * and the loop's loop_out result to out_dt through small buffers. A NULL
 * loop casts input 0 straight to the output. */
void ndt__run_loop(ndt_loop_fn loop, int nin, const ndt_dtype *in_dt, const ndt_dtype *loop_in,
                  ndt_dtype out_dt, ndt_dtype loop_out, char **p, const int64_t *s, int64_t n);

/* The end of an operation that recorded tasks writing into its fresh result
 * res: on failure it waits for what was recorded and frees res; otherwise it
 * hands res to *out. Returns st. */
ndt_status ndt__finish(ndt_status st, ndt_array *res, ndt_array **out);

/* Records the task that sums per-block histograms (int64 counts, or float64
 * weighted sums when has_w) held in parts' first tile, nblocks x nbins,
 * into res (1-d, nbins) in block order (search.c; bincount and histogram
 * use it). */
ndt_status ndt__bin_combine(const char *name, ndt_array *res, int has_w, int64_t nblocks,
                           ndt_store *parts, unsigned flags);

/* Scatters by flat index (ndt_put and ufunc.at's ndt_put_op): a task's
 * argument struct starts with this head. ndt__put_record records kind over
 * the head's a (read-write, walked), idx and vals (read; vals without a
 * store: no vals): one task per tile of a's store the view touches, each
 * scanning every index and updating the store offsets [lo, hi) of its
 * tile, or, when those repeated scans would cost much more than a's size,
 * one task for all (convolve.c). */
typedef struct {
  ndt_array a, idx, vals;
  int64_t lo, hi;          /* store offsets this task updates: [lo, hi) */
} ndt_put_head;
ndt_status ndt__put_record(const ndt_task_kind *kind, ndt_put_head *g, size_t arg_size);
/* In the body (op: the bound operands): fills d's operands from g and op
 * and runs the put kernel (d's fn and the fields after it are the
 * caller's: NULL fn puts values); an index outside a's flat range fails
 * before anything is written. */
ndt_status ndt__put_run(const ndt_put_head *g, const ndt_bound *op, ndt_put_desc *d);

/* A "gather" task's argument (search.c's ndt_gather_slices; the CUDA
 * plugin reads it): operands the part of the source the block can reach
 * (reg: read, walked; every element a's indices reach lies in it), the
 * result block (write), the index blocks (read; a sliced axis's: positions
 * relative to the part's first element). */
typedef struct {
  ndt_array a;                     /* the source view from index 0 of each indexed axis to
                                      the block's bound (the kernel's offsets and bounds) */
  ndt_array idx[NDT_MAXDIMS];      /* this block of each index array */
  ndt_array out;                   /* this block of the result */
  ndt_array reg;                   /* the part of a the block reaches (operand 0): a's,
                                      from the block's least index on each indexed axis */
} ndt_gather_arg;

/* The argument of an "arange" task (creation.c; the CUDA plugin reads
 * it): a block of a 1-d array (operand 0, write) filled with elements
 * [first, first + out.size) of the range d (kernels/table.h). */
typedef struct {
  ndt_array out;
  int64_t first;          /* index of the block's first element */
  ndt_range_desc d;
} ndt_range_arg;

/* The argument of argwhere's tasks (search.c; the CUDA plugin reads it):
 * "argwhere count" (operands: the input block, read; its count, an int64
 * of counts, write) and "argwhere fill" (the input block, read; the
 * block's rows of the result, write). */
typedef struct {
  ndt_array in;          /* the whole input */
  ndt_tiling tl;
  int64_t blk;
  int64_t start[NDT_MAXDIMS];   /* the block's first element's index */
  struct ndt_store *counts;   /* int64 per block */
  ndt_array out;         /* fill: rows [first, first+count) of the result */
  int64_t first;
} ndt_nz_arg;

#endif
