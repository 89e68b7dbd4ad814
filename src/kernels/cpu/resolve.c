/* resolve.c - which loop NumPy runs for given input dtypes.
 *
 * Mirrors NumPy 2.x's ufunc.types tables and type resolvers over our 13
 * dtypes (each decision below was checked against NumPy by running the
 * ufunc on arrays of every dtype):
 *
 *   - Inputs of different dtypes are first promoted with ndt_promote (both
 *     strong), except comparisons of a signed integer with uint64, which
 *     NumPy runs exactly in its 'qQ->?'/'Qq->?' loops (inputs cast to
 *     int64/uint64) instead of in float64.
 *   - Comparisons, logical_*, isnan/isinf/isfinite, signbit give bool.
 *     logical_* and logical_not run on the input dtype (NumPy has
 *     'bb->?', 'dd->?', ... loops), which gives the same values as casting
 *     to bool first.
 *   - true_divide on bool/int runs in float64.
 *   - floor_divide, remainder, fmod, power, left/right_shift, square,
 *     reciprocal, conjugate on bool run in int8 (as NumPy: 'bb->b').
 *   - Math functions on bool/ints: NumPy picks the first loop the input can
 *     be cast to safely, which is float16 for bool/int8/uint8, float32 for
 *     int16/uint16 and float64 for 32/64-bit ints.
 *     DEVIATION: we have no float16, so bool/int8/uint8 give float32.
 *   - floor/ceil/trunc keep bool and integer dtypes (NumPy 2); rint of
 *     bool/ints gives float (float16 -> float32 as above).
 *   - subtract, negative, positive and sign of bool are TypeErrors.
 *   - bitwise ops and invert: bool and ints only; shifts: ints only.
 *   - floor_divide/remainder/fmod, cbrt, floor/ceil/trunc, signbit,
 *     deg2rad/rad2deg, arctan2/hypot/copysign/logaddexp/nextafter: no
 *     complex loops.
 *   - absolute of complex gives the real dtype.
 *   - gcd/lcm: ints only (bool too is a TypeError); bitwise_count: bool
 *     (run as int8) and ints, uint8 result; heaviside, logaddexp2, spacing,
 *     frexp, modf: floats as the math functions, frexp's exponent int32;
 *     ldexp: see below (its inputs are not promoted together).
 *   - where: nin = 3, condition cast to bool, x and y promoted; clip: all
 *     three promoted to one dtype.
 */
#include "loops_common.h"

static int valid_t(ndt_dtype t) { return (int)t >= 0 && (int)t < NDT_NTYPES; }
static char kind(ndt_dtype t) { return ndt_traits[t].kind; }
static int is_int(ndt_dtype t) { return kind(t) == 'i' || kind(t) == 'u'; }
static int is_cplx(ndt_dtype t) { return kind(t) == 'c'; }
static int is_float(ndt_dtype t) { return kind(t) == 'f'; }

/* The float loop NumPy's math functions use for an input dtype (float16
 * replaced by float32). */
static ndt_dtype float_for(ndt_dtype t) {
  switch (t) {
  case NDT_BOOL: case NDT_INT8: case NDT_UINT8: case NDT_INT16: case NDT_UINT16:
    return NDT_FLOAT32;
  case NDT_INT32: case NDT_UINT32: case NDT_INT64: case NDT_UINT64:
    return NDT_FLOAT64;
  default:
    return t;
  }
}

static ndt_dtype real_of(ndt_dtype t) {
  if (t == NDT_COMPLEX64) return NDT_FLOAT32;
  if (t == NDT_COMPLEX128) return NDT_FLOAT64;
  return t;
}

static int is_comparison(ndt_ufunc op) {
  return op >= NDT_EQUAL && op <= NDT_GREATER_EQUAL;
}

static ndt_loop_fn find_loop(ndt_ufunc op, ndt_dtype t) {
  ndt_loop_fn f = ndt_cpu_loop_arith(op, t);
  if (!f) f = ndt_cpu_loop_math(op, t);
  if (!f) f = ndt_cpu_loop_complex(op, t);
  if (!f) f = ndt_cpu_loop_extra(op, t);
  return f;
}

ndt_loop_fn ndt_cpu_resolve(ndt_ufunc op, int nin, const ndt_dtype *types,
                            ndt_dtype *in_types, ndt_dtype *out_type) {
  if ((int)op < 0 || op >= NDT_NUFUNCS || nin != ndt_ufunc_nin(op) || !types) return 0;
  for (int k = 0; k < nin; k++)
    if (!valid_t(types[k])) return 0;

  /* where(cond, x, y) */
  if (op == NDT_WHERE) {
    ndt_dtype t = ndt_promote(types[1], 0, types[2], 0);
    ndt_loop_fn f = ndt_cpu_loop_where(ndt_traits[t].size);
    if (!f) return 0;
    if (in_types) { in_types[0] = NDT_BOOL; in_types[1] = t; in_types[2] = t; }
    if (out_type) *out_type = t;
    return f;
  }

  /* ldexp(x1, x2): not promoted together. x1 runs in the float loop of
   * its dtype, x2 in int32 ('fi', 'di': bool, 8/16-bit ints, int32) or
   * int64 ('fl', 'dl': uint32, int64); uint64, float and complex exponents
   * and complex mantissas are TypeErrors. */
  if (op == NDT_LDEXP) {
    if (!(kind(types[0]) == 'b' || is_int(types[0]) || is_float(types[0]))) return 0;
    const ndt_dtype m = float_for(types[0]);
    ndt_dtype e;
    switch (types[1]) {
    case NDT_BOOL: case NDT_INT8: case NDT_UINT8: case NDT_INT16: case NDT_UINT16:
    case NDT_INT32:
      e = NDT_INT32;
      break;
    case NDT_UINT32: case NDT_INT64:
      e = NDT_INT64;
      break;
    default:
      return 0;
    }
    ndt_loop_fn f = ndt_cpu_loop_ldexp(m, e);
    if (f && in_types) { in_types[0] = m; in_types[1] = e; }
    if (f && out_type) *out_type = m;
    return f;
  }

  /* exact signed-int / uint64 comparisons */
  if (nin == 2 && is_comparison(op)) {
    const ndt_dtype a = types[0], b = types[1];
    int mixed = -1;
    if (kind(a) == 'i' && b == NDT_UINT64) mixed = 1;
    else if (a == NDT_UINT64 && kind(b) == 'i') mixed = 0;
    if (mixed >= 0) {
      if (in_types) {
        in_types[0] = mixed ? NDT_INT64 : NDT_UINT64;
        in_types[1] = mixed ? NDT_UINT64 : NDT_INT64;
      }
      if (out_type) *out_type = NDT_BOOL;
      return ndt_cpu_loop_cmp_mixed(op, mixed);
    }
  }

  /* the common dtype of the inputs */
  ndt_dtype t = types[0];
  for (int k = 1; k < nin; k++) t = ndt_promote(t, 0, types[k], 0);

  ndt_dtype loop = t;           /* dtype the loop runs in          */
  ndt_dtype out = t;            /* dtype it writes                 */
  switch (op) {
  case NDT_ADD: case NDT_MULTIPLY:
  case NDT_MAXIMUM: case NDT_MINIMUM: case NDT_FMAX: case NDT_FMIN:
  case NDT_CLIP:
    break;
  case NDT_SUBTRACT: case NDT_NEGATIVE: case NDT_POSITIVE: case NDT_SIGN:
    if (t == NDT_BOOL) return 0;
    break;
  case NDT_TRUE_DIVIDE:
    if (t == NDT_BOOL || is_int(t)) loop = out = NDT_FLOAT64;
    break;
  case NDT_FLOOR_DIVIDE: case NDT_REMAINDER: case NDT_FMOD:
    if (is_cplx(t)) return 0;
    if (t == NDT_BOOL) loop = out = NDT_INT8;
    break;
  case NDT_POWER: case NDT_SQUARE: case NDT_RECIPROCAL: case NDT_CONJUGATE:
    if (t == NDT_BOOL) loop = out = NDT_INT8;
    break;
  case NDT_EQUAL: case NDT_NOT_EQUAL: case NDT_LESS: case NDT_LESS_EQUAL:
  case NDT_GREATER: case NDT_GREATER_EQUAL:
  case NDT_LOGICAL_AND: case NDT_LOGICAL_OR: case NDT_LOGICAL_XOR: case NDT_LOGICAL_NOT:
  case NDT_ISNAN: case NDT_ISINF: case NDT_ISFINITE:
    out = NDT_BOOL;
    break;
  case NDT_BITWISE_AND: case NDT_BITWISE_OR: case NDT_BITWISE_XOR: case NDT_INVERT:
    if (is_float(t) || is_cplx(t)) return 0;
    break;
  case NDT_LEFT_SHIFT: case NDT_RIGHT_SHIFT:
    if (is_float(t) || is_cplx(t)) return 0;
    if (t == NDT_BOOL) loop = out = NDT_INT8;
    break;
  case NDT_ARCTAN2: case NDT_HYPOT: case NDT_COPYSIGN: case NDT_LOGADDEXP:
  case NDT_NEXTAFTER: case NDT_CBRT: case NDT_DEG2RAD: case NDT_RAD2DEG:
  case NDT_HEAVISIDE: case NDT_LOGADDEXP2: case NDT_SPACING: case NDT_FREXP:
  case NDT_MODF: case NDT_MODF_INT:
    if (is_cplx(t)) return 0;
    loop = out = float_for(t);
    break;
  case NDT_FREXP_EXP:
    if (is_cplx(t)) return 0;
    loop = float_for(t);
    out = NDT_INT32;
    break;
  case NDT_GCD: case NDT_LCM:
    if (!is_int(t)) return 0;
    break;
  case NDT_BITWISE_COUNT:
    if (!is_int(t) && t != NDT_BOOL) return 0;
    if (t == NDT_BOOL) loop = NDT_INT8;
    out = NDT_UINT8;
    break;
  case NDT_SIGNBIT:
    if (is_cplx(t)) return 0;
    loop = float_for(t);
    out = NDT_BOOL;
    break;
  case NDT_ABSOLUTE:
    out = real_of(t);
    break;
  case NDT_FLOOR: case NDT_CEIL: case NDT_TRUNC:
    if (is_cplx(t)) return 0;
    break;
  case NDT_SQRT: case NDT_EXP: case NDT_EXP2: case NDT_EXPM1: case NDT_LOG:
  case NDT_LOG2: case NDT_LOG10: case NDT_LOG1P: case NDT_SIN: case NDT_COS:
  case NDT_TAN: case NDT_ARCSIN: case NDT_ARCCOS: case NDT_ARCTAN: case NDT_SINH:
  case NDT_COSH: case NDT_TANH: case NDT_ARCSINH: case NDT_ARCCOSH:
  case NDT_ARCTANH: case NDT_RINT:
    loop = out = float_for(t);
    break;
  default:
    return 0;
  }

  ndt_loop_fn f = find_loop(op, loop);
  if (!f) return 0;
  if (in_types)
    for (int k = 0; k < nin; k++) in_types[k] = loop;
  if (out_type) *out_type = out;
  return f;
}
