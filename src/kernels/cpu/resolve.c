/* resolve.c - the CPU loop for (op, loop dtypes). Which dtypes an op runs in
 * is decided in the core (ndt_ufunc_resolve, src/core/ufunc.c); this file
 * only finds the loop for them. A loop runs in its first input's dtype
 * except for the loops NumPy has with mixed inputs: ldexp (float mantissa,
 * int32 or int64 exponent), the exact comparisons of int64 with uint64
 * ('qQ->?', 'Qq->?') and where (bool condition; by item size). */
#include "loops_common.h"

ndt_loop_fn ndt__cpu_loop(ndt_ufunc op, const ndt_dtype *loop) {
  if ((int)op < 0 || op >= NDT_NUFUNCS || !loop) return 0;
  const ndt_dtype t = loop[0];
  if (op == NDT_WHERE) return ndt__cpu_loop_where(ndt__traits[loop[1]].size);
  if (op == NDT_LDEXP) return ndt__cpu_loop_ldexp(t, loop[1]);
  if (ndt_ufunc_nin(op) == 2 && loop[1] != t) {
    if (t == NDT_INT64 && loop[1] == NDT_UINT64) return ndt__cpu_loop_cmp_mixed(op, 1);
    if (t == NDT_UINT64 && loop[1] == NDT_INT64) return ndt__cpu_loop_cmp_mixed(op, 0);
    return 0;
  }
  ndt_loop_fn f = ndt__cpu_loop_arith(op, t);
  if (!f) f = ndt__cpu_loop_math(op, t);
  if (!f) f = ndt__cpu_loop_complex(op, t);
  if (!f) f = ndt__cpu_loop_extra(op, t);
  return f;
}

/* power's loop without its fast paths, for an exponent that varies over
 * the call (ndt_kernels.loop_varying) */
ndt_loop_fn ndt__cpu_loop_varying(ndt_ufunc op, const ndt_dtype *loop) {
  if (op != NDT_POWER || !loop || loop[1] != loop[0]) return 0;
  return ndt__cpu_loop_pow_varying(loop[0]);
}

ndt_loop_fn ndt__cpu_resolve(ndt_ufunc op, int nin, const ndt_dtype *types,
                            ndt_dtype *in_types, ndt_dtype *out_type) {
  ndt_dtype loop[4];
  if ((int)op < 0 || op >= NDT_NUFUNCS || nin != ndt_ufunc_nin(op) || !types ||
      ndt_ufunc_resolve(op, nin, types, NULL, NDT_DTYPE_DEFAULT, loop, NULL))
    return 0;
  ndt_loop_fn f = ndt__cpu_loop(op, loop);
  if (!f) return 0;
  for (int k = 0; in_types && k < nin; k++) in_types[k] = loop[k];
  if (out_type) *out_type = loop[nin];
  return f;
}
