/* select.h - the arguments of select.c's "searchsorted" tasks
 * (searchsorted, and the uniform-bin index of a histogram) and
 * "histogram" tasks (a block's counts of uniform bins), for the bodies
 * that run them: the CPU's in select.c and a device plugin's
 * (src/runtime/cuda_search.h), which finds them by the kinds' names. */
#ifndef NDT_OPS_SELECT_H
#define NDT_OPS_SELECT_H
#include "exec.h"

/* Operands: a (read, walked: the whole sorted array or the edges), the
 * block of values (read, walked), the block of the int64 result (write,
 * contiguous: a fresh array's block). */
typedef struct {
  ndt_array a;          /* the sorted array (searchsorted) or the edges (bins), whole */
  ndt_array v, out;     /* this block of the flat values and of the result */
  int bins;             /* bin indices (else searchsorted) */
  int right;
  int single_d, single_f;   /* bins: float32 arithmetic for the offset / the scaling */
  double first, last, denom;
  const ndt_bound *ab;  /* inside the task: a, bound (walked) */
} ndt_find_arg;

/* Operands: the edges (read, walked), the block of values (read, walked),
 * of the weights (read, walked; an empty view without), the block's
 * histogram in parts (write: nbins int64 counts, or float64 sums of the
 * weights in element order, from 0; an index out of the edges counts
 * nowhere). */
typedef struct {
  ndt_find_arg f;       /* edges, the bounds and the block of values (f.v) */
  ndt_array w;          /* this block of the weights (has_w) */
  int has_w;
  ndt_store *parts;     /* one-tile byte store: a histogram per block */
  int64_t poff;
} ndt_hist_arg;

#endif
