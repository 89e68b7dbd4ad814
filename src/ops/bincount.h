/* bincount.h - the arguments of bincount's tasks (search.c: "bincount
 * count", and "bincount combine", which histogram shares), for the bodies
 * that run them: the CPU's in search.c, and a device plugin's
 * (src/runtime/cuda_bincount.h), which finds them by the kinds' names. */
#ifndef NDT_OPS_BINCOUNT_H
#define NDT_OPS_BINCOUNT_H
#include "exec.h"

/* "bincount count" operands: x, w (read, walked; w empty without
 * weights), the block's histogram in parts (write: nbins int64, or
 * float64 with weights); with bounds, the block's (min, max) index as two
 * int64 (write). The histogram is the block's elements counted (or their
 * weights cast to float64 added, from +0.0) in element order. */
typedef struct {
  ndt_array x, w;      /* block views (w.store NULL without weights) */
  int has_w;
  int64_t nbins;
  int bounds;          /* one pass: indices outside [0, nbins) are skipped, and the
                          block's (min, max) goes to operand 3 */
  ndt_store *parts;    /* one-tile byte store: a histogram per block */
  int64_t poff;        /* byte offset of this block's histogram */
} ndt_bin_arg;

/* "bincount combine" operands: all of parts (read), out (write): out[b]
 * = the blocks' bin b added in block order (float64 with weights, else
 * int64). */
typedef struct {
  ndt_array out;
  int has_w;
  int64_t nbins, nblocks;
  ndt_store *parts;
} ndt_bin_combine_arg;

#endif
