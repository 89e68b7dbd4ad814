/* sort.h - the argument of the line tasks of sort.c ("sort" and
 * "partition", one body), for the bodies that run them: the CPU's in
 * sort.c, and a device plugin's (src/runtime/cuda_sort.h: "sort"), which
 * finds them by the kinds' names. */
#ifndef NDT_OPS_SORT_H
#define NDT_OPS_SORT_H
#include "exec.h"

/* More kth values than this sort the whole line (a valid partition). */
#define NDT_SORT_MAXKTH 32

/* Operands: in (read), out (write): the block's views with the sort axis
 * last; each line along it is sorted (or partitioned) whole. */
typedef struct {
  ndt_array in, out;   /* block views, the sort axis last */
  int want_indices;
  int quiet_nan;       /* NDT_SORT_QUIET_NAN: NaNs written as the quiet NaN */
  int nkth;            /* partition: kth values (ascending, distinct); 0 sorts */
  int64_t kth[NDT_SORT_MAXKTH];
} ndt_sort_arg;

#endif
