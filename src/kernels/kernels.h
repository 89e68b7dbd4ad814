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

/* Per-dtype facts, indexed by ndt_dtype. */
typedef struct {
  const char *name;   /* "float64" */
  char kind;          /* 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex */
  int size;           /* bytes */
  int align;
} ndt_type_traits;
extern const ndt_type_traits ndt_traits[NDT_NTYPES];

/* ---- casts ------------------------------------------------------------ */
/* dst[i*dstride] = (to)src[i*sstride], i < n, with NumPy's unsafe-cast values
 * (float->int truncates toward zero; complex->real drops the imaginary part;
 * anything->bool is "!= 0"). Strides in bytes. Never NULL for valid types. */
typedef void (*ndt_cast_fn)(const char *src, int64_t sstride, char *dst, int64_t dstride,
                            int64_t n);
ndt_cast_fn ndt_cpu_cast(ndt_dtype from, ndt_dtype to);

/* ---- elementwise loops ------------------------------------------------ */
/* args[0..nin-1] are the inputs, args[nin] the output; steps likewise in bytes. */
typedef void (*ndt_loop_fn)(char **args, const int64_t *steps, int64_t n);

/* Type resolution for a ufunc, as NumPy's ufunc.types tables and type resolvers
 * decide it. Given the dtypes of the inputs (already promoted among themselves
 * where the ufunc promotes, see ndt_ufunc_common_input), fills:
 *   in_types[k]: the dtype each input is cast to before the loop runs,
 *   *out_type:   the dtype the loop writes,
 * and returns the loop, or NULL when NumPy has no loop for these types (the
 * caller raises TypeError "ufunc 'x' not supported for the input types"). */
ndt_loop_fn ndt_cpu_resolve(ndt_ufunc op, int nin, const ndt_dtype *types,
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
int ndt_cpu_reduce_kernel(ndt_reduce_op op, ndt_dtype t, ndt_red_kernel *k);

/* ARGMIN/ARGMAX over a strided run: updates (*best, *best_idx) when an
 * element is better - strictly, so the first occurrence wins; NaN counts as
 * best and the first NaN wins. *best_idx < 0 means nothing seen yet.
 * Element i has index base + i. */
typedef void (*ndt_arg_fn)(const char *p, int64_t stride, int64_t n, char *best,
                           int64_t *best_idx, int64_t base);
ndt_arg_fn ndt_cpu_arg_kernel(ndt_reduce_op op, ndt_dtype t);

#endif
