/* linalg.h - a linear-algebra task's recorded argument (src/ops/linalg.c),
 * for the bodies that run its "linalg" tasks: the CPU's in linalg.c
 * (LAPACK) and a device's (the CUDA plugin reads it to run solve, inv and
 * cholesky blocks through cuSOLVER, src/runtime/cuda_linalg.h).
 *
 * A task is a block of the batch axes: every matrix of it whole, inputs
 * (read) then outputs (write), each a view with the batch axes first and
 * its core axes (icore/ocore of them) after. */
#ifndef NDT_OPS_LINALG_H
#define NDT_OPS_LINALG_H
#include "exec.h"

#define LA_NIN 2
#define LA_NOUT 4
typedef struct {
  ndt_linalg_op op;
  int flags;
  double param;
  ndt_dtype ct;               /* compute dtype: float64 or complex128 (LAPACK runs in double) */
  int64_t m, n, k;            /* a is (m, n); b is (m, k) */
  int nin, nout, nbd;         /* operands and batch axes */
  int icore[LA_NIN], ocore[LA_NOUT];
  ndt_dtype okd[LA_NOUT];     /* dtype each kernel writes (double); outputs may be single */
  ndt_array in[LA_NIN], out[LA_NOUT];  /* block views: batch axes, then core axes */
} la_arg;

#endif
