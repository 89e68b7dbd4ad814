/* scan.h - the argument of the scan tasks (scan.c), for the bodies that run
 * them: the CPU's in scan.c, and a device plugin's (src/runtime/cuda.c:
 * "scan" and "scan fixup"), which finds them by the kinds' names. */
#ifndef NDT_OPS_SCAN_H
#define NDT_OPS_SCAN_H
#include "exec.h"

/* "scan" operands: the input block (read), the result block (write), the
 * block's slot of line totals in parts (write; empty without parts), the
 * last slice along the axis of the predecessor's result (read; empty
 * unless seq and the block has one). "scan fixup": the result block
 * (read-write), its slot of line carries (read). Lines are the block's
 * lines along the axis in C order of the other axes; slot entries are a
 * line's value each, in that order. */
typedef struct {
  int op;                /* the kernel's op (NDT_SK_*, src/kernels/table.h) */
  int nan, axis;         /* nan: sums and products ignoring NaNs (op <= NDT_SK_MUL) */
  ndt_dtype rt;
  ndt_array in, res;     /* whole input and result views */
  ndt_tiling tl;
  int64_t blk, nblocks;
  int64_t slot;          /* bytes of one block's total (and carry) */
  int64_t chain;         /* > 0: blocks b and b - chain follow each other */
  int seq;               /* float/complex sums and products, subtract: a block starts
                          * from its predecessor's end */
  int64_t carr_off;      /* byte offset of the carries in parts */
  ndt_store *parts;      /* NULL when no block has a predecessor */
} ndt_scan_arg;

#endif
