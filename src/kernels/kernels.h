/* kernels.h - the contract between the array library (src/ops) and the
 * per-dtype loops (src/kernels/cpu, later src/kernels/cuda).
 *
 * Loops see pointers, one length and byte strides (NumPy's inner-loop
 * convention). They never allocate and never fail: errors that NumPy reports
 * as warnings (division by zero, overflow) give NumPy's values silently.
 */
#ifndef NDT_KERNELS_H
#define NDT_KERNELS_H

#include <stdint.h>
#include "ndtile.h"
#include "core/dtype.h"   /* ndt__traits, ndt_c64/ndt_c128 */

/* ---- casts ------------------------------------------------------------ */
/* dst[i*dstride] = (to)src[i*sstride], i < n, with NumPy's unsafe-cast values
 * (float->int truncates toward zero; complex->real drops the imaginary part;
 * anything->bool is "!= 0"). Strides in bytes. Never NULL for valid types. */
typedef void (*ndt_cast_fn)(const char *src, int64_t sstride, char *dst, int64_t dstride,
                            int64_t n);
ndt_cast_fn ndt__cpu_cast(ndt_dtype from, ndt_dtype to);

/* ---- elementwise loops ------------------------------------------------ */
/* args[0..nin-1] are the inputs, args[nin] the output; steps likewise in bytes. */
typedef void (*ndt_loop_fn)(char **args, const int64_t *steps, int64_t n);

/* The loop for op on the dtypes ndt_ufunc_resolve chose (loop[0..nin-1] the
 * inputs', loop[nin] the output's), or NULL when this backend has none. */
ndt_loop_fn ndt__cpu_loop(ndt_ufunc op, const ndt_dtype *loop);
ndt_loop_fn ndt__cpu_loop_varying(ndt_ufunc op, const ndt_dtype *loop);
/* Both in one: resolves op for input dtypes types (all strong), fills
 * in_types and *out_type (either may be NULL) and returns the loop, or NULL
 * when NumPy has no loop. For tests and C users of the loops. */
ndt_loop_fn ndt__cpu_resolve(ndt_ufunc op, int nin, const ndt_dtype *types,
                            ndt_dtype *in_types, ndt_dtype *out_type);

/* ---- reductions ------------------------------------------------------- */
/* Kernels of one reduction on one accumulator dtype. The driver casts input
 * to that dtype first. The identity starts every accumulator (for MIN/MAX it
 * is the type's largest/smallest value; for NANMIN/NANMAX it is NaN, which
 * the NaN-ignoring combine replaces by the first number). */
typedef struct {
  /* *acc = op(*acc, p[0], ..., p[n-1]) over a strided run */
  void (*run)(char *acc, const char *p, int64_t stride, int64_t n);
  /* acc[i] = op(acc[i], p[i]) for i < n */
  void (*acc)(char *acc, int64_t astride, const char *p, int64_t stride, int64_t n);
  char identity[16];
} ndt_red_kernel;
/* Fills k for op (SUM, PROD, MIN, MAX, ANY, ALL, NANSUM, NANPROD, NANMIN,
 * NANMAX) on dtype t; returns 0, or -1 when there is no such kernel. */
int ndt__cpu_reduce_kernel(ndt_reduce_op op, ndt_dtype t, ndt_red_kernel *k);

/* ARGMIN/ARGMAX over a strided run: updates (*best, *best_idx) when an
 * element is better - strictly, so the first occurrence wins; NaN counts as
 * best and the first NaN wins. *best_idx < 0 means nothing seen yet.
 * Element i has index base + i. */
typedef void (*ndt_arg_fn)(const char *p, int64_t stride, int64_t n, char *best,
                           int64_t *best_idx, int64_t base);
ndt_arg_fn ndt__cpu_arg_kernel(ndt_reduce_op op, ndt_dtype t);

#endif
