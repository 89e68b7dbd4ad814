/* ufunc.c - the ufunc table and type resolution: which dtypes an op runs in,
 * decided as NumPy 2 decides it, from NumPy's own loop lists.
 *
 * NumPy resolves a legacy ufunc in steps, and so does ndt_ufunc_resolve:
 *   - a loop whose input dtypes are exactly the operands' is taken as it is;
 *   - otherwise, for most ufuncs, the first loop of ufunc.types (in order)
 *     that every input can be cast to safely: arctan2(int8, uint16) runs
 *     'ff->f', not in the float64 of the promoted int32. A Python scalar
 *     (weak, NEP 50) whose kind the arrays' dtype holds casts to any loop
 *     of its kind (ldexp(x, 3) takes the int32 exponent); one that promotes
 *     them (2.0 with int8 arrays) searches as the promoted dtype (float64);
 *   - some ufuncs have their own resolver in NumPy: subtract, negative,
 *     positive, sign, gcd and lcm run in the promoted dtype or not at
 *     all (subtract of bools is a TypeError, not int8), true divide runs
 *     integers in float64, and logical_and/or/xor cast mixed inputs to bool.
 * The loop lists are generated from NumPy (ufunc_loops.h); a float16 loop is
 * noted (NDT_RESOLVE_HALF) and the next loop, float32, is the one returned.
 * tests/python/test_resolve.py compares every (op, dtypes) with NumPy's
 * ufunc.resolve_dtypes.
 */
#include <stdio.h>
#include "internal.h"
#include "core/dtype.h"

/* Short names for the generated tables. */
enum {
  B = NDT_BOOL, I8 = NDT_INT8, I16 = NDT_INT16, I32 = NDT_INT32, I64 = NDT_INT64,
  U8 = NDT_UINT8, U16 = NDT_UINT16, U32 = NDT_UINT32, U64 = NDT_UINT64,
  F32 = NDT_FLOAT32, F64 = NDT_FLOAT64, C64 = NDT_COMPLEX64, C128 = NDT_COMPLEX128,
  HF = NDT_HALF_LOOP
};
#include "core/ufunc_loops.h"

/* where is not a NumPy ufunc: its resolution is its own (NDT_RES_WHERE). */
#define NP_NIN_where 3
#define NP_NOUT_where 1
static const ndt_loop_types loops_where[1];

/* Every op, in enum order: X(op, name, NumPy ufunc, resolution, output). */
#define NDT_FOR_EACH_UFUNC(X)                                           \
  X(NDT_ADD, "add", add, SEARCH, 0)                                     \
  X(NDT_SUBTRACT, "subtract", subtract, UNIFORM, 0)                     \
  X(NDT_MULTIPLY, "multiply", multiply, SEARCH, 0)                      \
  X(NDT_TRUE_DIVIDE, "divide", divide, DIVIDE, 0)                       \
  X(NDT_FLOOR_DIVIDE, "floor_divide", floor_divide, SEARCH, 0)          \
  X(NDT_REMAINDER, "remainder", remainder, SEARCH, 0)                   \
  X(NDT_POWER, "power", power, SEARCH, 0)                               \
  X(NDT_EQUAL, "equal", equal, SEARCH, 0)                               \
  X(NDT_NOT_EQUAL, "not_equal", not_equal, SEARCH, 0)                   \
  X(NDT_LESS, "less", less, SEARCH, 0)                                  \
  X(NDT_LESS_EQUAL, "less_equal", less_equal, SEARCH, 0)                \
  X(NDT_GREATER, "greater", greater, SEARCH, 0)                         \
  X(NDT_GREATER_EQUAL, "greater_equal", greater_equal, SEARCH, 0)       \
  X(NDT_LOGICAL_AND, "logical_and", logical_and, LOGICAL, 0)            \
  X(NDT_LOGICAL_OR, "logical_or", logical_or, LOGICAL, 0)               \
  X(NDT_LOGICAL_XOR, "logical_xor", logical_xor, LOGICAL, 0)            \
  X(NDT_BITWISE_AND, "bitwise_and", bitwise_and, SEARCH, 0)             \
  X(NDT_BITWISE_OR, "bitwise_or", bitwise_or, SEARCH, 0)                \
  X(NDT_BITWISE_XOR, "bitwise_xor", bitwise_xor, SEARCH, 0)             \
  X(NDT_LEFT_SHIFT, "left_shift", left_shift, SEARCH, 0)                \
  X(NDT_RIGHT_SHIFT, "right_shift", right_shift, SEARCH, 0)             \
  X(NDT_MAXIMUM, "maximum", maximum, SEARCH, 0)                         \
  X(NDT_MINIMUM, "minimum", minimum, SEARCH, 0)                         \
  X(NDT_FMAX, "fmax", fmax, SEARCH, 0)                                  \
  X(NDT_FMIN, "fmin", fmin, SEARCH, 0)                                  \
  X(NDT_ARCTAN2, "arctan2", arctan2, SEARCH, 0)                         \
  X(NDT_HYPOT, "hypot", hypot, SEARCH, 0)                               \
  X(NDT_COPYSIGN, "copysign", copysign, SEARCH, 0)                      \
  X(NDT_FMOD, "fmod", fmod, SEARCH, 0)                                  \
  X(NDT_LOGADDEXP, "logaddexp", logaddexp, SEARCH, 0)                   \
  X(NDT_NEXTAFTER, "nextafter", nextafter, SEARCH, 0)                   \
  X(NDT_NEGATIVE, "negative", negative, UNIFORM, 0)                     \
  X(NDT_POSITIVE, "positive", positive, UNIFORM, 0)                     \
  X(NDT_ABSOLUTE, "absolute", absolute, SEARCH, 0)                      \
  X(NDT_SIGN, "sign", sign, UNIFORM, 0)                                 \
  X(NDT_LOGICAL_NOT, "logical_not", logical_not, SEARCH, 0)             \
  X(NDT_INVERT, "invert", invert, SEARCH, 0)                            \
  X(NDT_SQRT, "sqrt", sqrt, SEARCH, 0)                                  \
  X(NDT_CBRT, "cbrt", cbrt, SEARCH, 0)                                  \
  X(NDT_SQUARE, "square", square, SEARCH, 0)                            \
  X(NDT_RECIPROCAL, "reciprocal", reciprocal, SEARCH, 0)                \
  X(NDT_EXP, "exp", exp, SEARCH, 0)                                     \
  X(NDT_EXP2, "exp2", exp2, SEARCH, 0)                                  \
  X(NDT_EXPM1, "expm1", expm1, SEARCH, 0)                               \
  X(NDT_LOG, "log", log, SEARCH, 0)                                     \
  X(NDT_LOG2, "log2", log2, SEARCH, 0)                                  \
  X(NDT_LOG10, "log10", log10, SEARCH, 0)                               \
  X(NDT_LOG1P, "log1p", log1p, SEARCH, 0)                               \
  X(NDT_SIN, "sin", sin, SEARCH, 0)                                     \
  X(NDT_COS, "cos", cos, SEARCH, 0)                                     \
  X(NDT_TAN, "tan", tan, SEARCH, 0)                                     \
  X(NDT_ARCSIN, "arcsin", arcsin, SEARCH, 0)                            \
  X(NDT_ARCCOS, "arccos", arccos, SEARCH, 0)                            \
  X(NDT_ARCTAN, "arctan", arctan, SEARCH, 0)                            \
  X(NDT_SINH, "sinh", sinh, SEARCH, 0)                                  \
  X(NDT_COSH, "cosh", cosh, SEARCH, 0)                                  \
  X(NDT_TANH, "tanh", tanh, SEARCH, 0)                                  \
  X(NDT_ARCSINH, "arcsinh", arcsinh, SEARCH, 0)                         \
  X(NDT_ARCCOSH, "arccosh", arccosh, SEARCH, 0)                         \
  X(NDT_ARCTANH, "arctanh", arctanh, SEARCH, 0)                         \
  X(NDT_FLOOR, "floor", floor, SEARCH, 0)                               \
  X(NDT_CEIL, "ceil", ceil, SEARCH, 0)                                  \
  X(NDT_TRUNC, "trunc", trunc, SEARCH, 0)                               \
  X(NDT_RINT, "rint", rint, SEARCH, 0)                                  \
  X(NDT_ISNAN, "isnan", isnan, SEARCH, 0)                               \
  X(NDT_ISINF, "isinf", isinf, SEARCH, 0)                               \
  X(NDT_ISFINITE, "isfinite", isfinite, SEARCH, 0)                      \
  X(NDT_SIGNBIT, "signbit", signbit, SEARCH, 0)                         \
  X(NDT_CONJUGATE, "conjugate", conjugate, SEARCH, 0)                   \
  X(NDT_DEG2RAD, "deg2rad", deg2rad, SEARCH, 0)                         \
  X(NDT_RAD2DEG, "rad2deg", rad2deg, SEARCH, 0)                         \
  X(NDT_WHERE, "where", where, WHERE, 0)                                \
  X(NDT_CLIP, "clip", clip, SEARCH, 0)                                 \
  X(NDT_GCD, "gcd", gcd, UNIFORM, 0)                                    \
  X(NDT_LCM, "lcm", lcm, UNIFORM, 0)                                    \
  X(NDT_HEAVISIDE, "heaviside", heaviside, SEARCH, 0)                   \
  X(NDT_LDEXP, "ldexp", ldexp, SEARCH, 0)                               \
  X(NDT_LOGADDEXP2, "logaddexp2", logaddexp2, SEARCH, 0)                \
  X(NDT_SPACING, "spacing", spacing, SEARCH, 0)                         \
  X(NDT_BITWISE_COUNT, "bitwise_count", bitwise_count, SEARCH, 0)       \
  X(NDT_FREXP, "frexp", frexp, SEARCH, 0)                               \
  X(NDT_FREXP_EXP, "_frexp_exponent", frexp, SEARCH, 1)                 \
  X(NDT_MODF, "modf", modf, SEARCH, 0)                                  \
  X(NDT_MODF_INT, "_modf_integral", modf, SEARCH, 1)                   \
  X(NDT_FLOAT_POWER, "float_power", float_power, SEARCH, 0)             \
  X(NDT_DEGREES, "degrees", degrees, SEARCH, 0)                         \
  X(NDT_RADIANS, "radians", radians, SEARCH, 0)

/* The list must have one row per op, in enum order: a new op appended to
 * ndt_ufunc without its row here fails to compile, so its nin, nout and
 * loops can never come from a neighbour's. */
#define ROW(op, name, np, kind, out) ROW_##op,
enum { NDT_FOR_EACH_UFUNC(ROW) NROWS };
#undef ROW
_Static_assert((int)NROWS == (int)NDT_NUFUNCS, "every ndt_ufunc needs a row in NDT_FOR_EACH_UFUNC");
#define ROW(op, name, np, kind, out)                                          \
  _Static_assert((int)ROW_##op == (int)op, #op " is out of place in NDT_FOR_EACH_UFUNC"); \
  _Static_assert(out < NP_NOUT_##np, #op ": NumPy's " #np " has no such output");
NDT_FOR_EACH_UFUNC(ROW)
#undef ROW

#define ROW(op, name, np, kind, out)                                              \
  [op] = {name, NP_NIN_##np, 1, out, NDT_RES_##kind,               \
          op == NDT_WHERE ? 0 : (int)(sizeof loops_##np / sizeof loops_##np[0]), \
          loops_##np},
const ndt_ufunc_info ndt__ufunc_infos[NDT_NUFUNCS] = {NDT_FOR_EACH_UFUNC(ROW)};
#undef ROW

static int valid_op(ndt_ufunc op) { return (int)op >= 0 && op < NDT_NUFUNCS; }
static int valid_t(ndt_dtype t) { return (int)t >= 0 && t < NDT_NTYPES; }

const char *ndt_ufunc_name(ndt_ufunc op) {
  return valid_op(op) ? ndt__ufunc_infos[op].name : "invalid";
}

int ndt_ufunc_nin(ndt_ufunc op) { return valid_op(op) ? ndt__ufunc_infos[op].nin : 0; }

/* np.can_cast(operand, loop dtype, 'safe') for an operand of dtype t; weak:
 * a Python scalar, which casts to any dtype of its kind or a wider one
 * (NumPy's can_cast_pyscalar_scalar_to). to may be NDT_HALF_LOOP. */
static int can_cast_to(ndt_dtype t, int weak, int to) {
  const char k = ndt__traits[t].kind;
  const char tk = to == NDT_HALF_LOOP ? 'f' : ndt__traits[to].kind;
  if (weak) {
    if (k == 'i' || k == 'u') return tk != 'b';
    if (k == 'f') return tk == 'f' || tk == 'c';
    return tk == 'c';
  }
  if (to == NDT_HALF_LOOP) return t == NDT_BOOL || t == NDT_INT8 || t == NDT_UINT8;
  return ndt_can_cast(t, (ndt_dtype)to, NDT_CAST_SAFE);
}

/* The loop whose inputs are all t (its index), or -1. */
static int uniform_loop(const ndt_ufunc_info *u, ndt_dtype t) {
  for (int l = 0; l < u->nloops; l++) {
    int k = 0;
    while (k < u->nin && u->loops[l][k] == t) k++;
    if (k == u->nin) return l;
  }
  return -1;
}

/* The first loop every input casts to safely, skipping (and noting) float16
 * loops; -1 when there is none. */
static int search_loop(const ndt_ufunc_info *u, const ndt_dtype *t, const int *w,
                       unsigned *flags) {
  int half = 0;
  for (int l = 0; l < u->nloops; l++) {
    const unsigned char *lt = u->loops[l];
    int k = 0;
    while (k < u->nin && can_cast_to(t[k], w[k], lt[k])) k++;
    if (k < u->nin) continue;
    int has_half = 0;
    for (k = 0; k < u->nin + u->nout; k++) has_half |= lt[k] == NDT_HALF_LOOP;
    if (!has_half) {
      if (half) *flags |= NDT_RESOLVE_HALF;
      return l;
    }
    /* NumPy would stop here, in float16: note it when the output is */
    if (!half) half = lt[u->nin + u->out_index] == NDT_HALF_LOOP;
  }
  return -1;
}

static ndt_status no_loop(ndt_ufunc op, int nin, const ndt_dtype *types) {
  char buf[200];
  int len = 0;
  for (int i = 0; i < nin; i++)
    len += snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                    ndt_dtype_name(types[i]));
  /* NumPy's legacy type resolver: a plain TypeError, not UFuncTypeError */
  return ndt__error_at(NDT_ERR_TYPE, NDT_KIND_TYPE, NULL,
                       "ufunc '%s' not supported for the input types (%s), and the "
                       "inputs could not be safely coerced to any supported types according "
                       "to the casting rule ''safe''", ndt_ufunc_name(op), buf);
}

static ndt_status resolve(ndt_ufunc op, int nin, const ndt_dtype *types, const int *weak,
                          ndt_dtype dtype, ndt_dtype *loop, unsigned *flags) {
  unsigned fl = 0;
  if (flags) *flags = 0;
  if (!valid_op(op)) return ndt__error(NDT_ERR_VALUE, "invalid ufunc %d", (int)op);
  const ndt_ufunc_info *u = &ndt__ufunc_infos[op];
  if (nin != u->nin)
    return ndt__error(NDT_ERR_VALUE, "%s() takes %d inputs, got %d", u->name, u->nin, nin);
  if (dtype != NDT_DTYPE_DEFAULT && !valid_t(dtype))
    return ndt__error(NDT_ERR_TYPE, "invalid dtype %d", (int)dtype);
  ndt_dtype t[4] = {0};
  int w[4] = {0}, nweak = 0;
  for (int k = 0; k < nin; k++) {
    if (!valid_t(types[k])) return ndt__error(NDT_ERR_TYPE, "invalid dtype %d", (int)types[k]);
    t[k] = types[k];
    /* a Python bool is a strong bool in NumPy */
    w[k] = weak && weak[k] && t[k] != NDT_BOOL;
    nweak += w[k];
  }
  if (nweak == nin)   /* Python scalars only: as their default dtypes */
    for (int k = 0; k < nin; k++) w[k] = 0;
  if (dtype != NDT_DTYPE_DEFAULT) {
    /* NumPy's dtype=: the loop of that dtype (ldexp: for the mantissa) */
    for (int k = 0; k < nin; k++) {
      if (op == NDT_LDEXP && k == 1) continue;
      t[k] = dtype;
      w[k] = 0;
    }
    if (op == NDT_WHERE) t[0] = NDT_BOOL;
  }

  int l = -1;
  switch (u->kind) {
  case NDT_RES_WHERE: {
    const ndt_dtype c = ndt_promote(t[1], w[1], t[2], w[2]);
    loop[0] = NDT_BOOL;
    loop[1] = loop[2] = loop[3] = c;
    return NDT_OK;
  }
  case NDT_RES_UNIFORM: {
    ndt_dtype c = t[0];
    int cw = w[0];
    for (int k = 1; k < nin; k++) {
      c = ndt_promote(c, cw, t[k], w[k]);
      cw = cw && w[k];
    }
    l = uniform_loop(u, c);
    break;
  }
  case NDT_RES_LOGICAL: {
    int exact = nweak == 0;
    for (int k = 1; exact && k < nin; k++) exact = t[k] == t[0];
    l = exact ? uniform_loop(u, t[0]) : -1;
    if (l < 0) l = uniform_loop(u, NDT_BOOL);
    break;
  }
  case NDT_RES_DIVIDE: {
    int ints = 1;
    for (int k = 0; k < nin; k++) ints &= ndt__traits[t[k]].kind != 'f' &&
                                          ndt__traits[t[k]].kind != 'c';
    if (ints) {
      l = uniform_loop(u, NDT_FLOAT64);
      break;
    }
  }
  /* fall through */
  case NDT_RES_SEARCH:
    if (nweak > 0 && nweak < nin) {
      /* A Python scalar whose kind the arrays' dtype holds stays weak (it
       * casts to any loop of its kind); one that promotes them (2.0 with
       * int8) searches as the dtype it promotes to, like an array. */
      ndt_dtype s = NDT_DTYPE_DEFAULT;
      for (int k = 0; k < nin; k++)
        if (!w[k]) s = s == NDT_DTYPE_DEFAULT ? t[k] : ndt_promote(s, 0, t[k], 0);
      for (int k = 0; k < nin; k++) {
        const ndt_dtype p = w[k] ? ndt_promote(t[k], 1, s, 0) : t[k];
        if (p != s) {
          t[k] = p;
          w[k] = 0;
        }
      }
    }
    l = search_loop(u, t, w, &fl);
    break;
  }
  if (l < 0) return no_loop(op, nin, types);
  for (int k = 0; k < nin; k++) loop[k] = (ndt_dtype)u->loops[l][k];
  loop[nin] = (ndt_dtype)u->loops[l][nin + u->out_index];
  if (flags) *flags = fl;
  return NDT_OK;
}

/* Resolution is a pure function of (op, dtypes, weak flags, dtype=), and a
 * program calls few of them over and over: the last answers are kept per
 * thread (no locks), so a ufunc on a small array pays a lookup, not a loop
 * search. Failures are not kept (their message is made each time). */
#define RCACHE 64
static _Thread_local struct {
  uint32_t key;
  unsigned char loop[4], flags;
} rcache[RCACHE];

ndt_status ndt_ufunc_resolve(ndt_ufunc op, int nin, const ndt_dtype *types, const int *weak,
                             ndt_dtype dtype, ndt_dtype *loop, unsigned *flags) {
  /* 7 bits op, 4 per dtype, 1 per weak flag, 4 for dtype=; bit 31: in use */
  uint32_t key = 1u << 31 | (uint32_t)op | (uint32_t)(dtype + 1) << 7;
  int cacheable = valid_op(op) && nin == ndt__ufunc_infos[op].nin &&
                  (dtype == NDT_DTYPE_DEFAULT || valid_t(dtype));
  for (int k = 0; cacheable && k < nin; k++) {
    cacheable = valid_t(types[k]);
    key |= (uint32_t)types[k] << (11 + 4 * k) | (uint32_t)(weak && weak[k]) << (23 + k);
  }
  if (!cacheable) return resolve(op, nin, types, weak, dtype, loop, flags);
  const unsigned h = (key * 2654435761u) >> 26;
  if (rcache[h].key == key) {
    for (int k = 0; k <= nin; k++) loop[k] = (ndt_dtype)rcache[h].loop[k];
    if (flags) *flags = rcache[h].flags;
    return NDT_OK;
  }
  unsigned fl;
  ndt_status st = resolve(op, nin, types, weak, dtype, loop, &fl);
  if (flags) *flags = st ? 0 : fl;
  if (st) return st;
  rcache[h].key = key;
  for (int k = 0; k <= nin; k++) rcache[h].loop[k] = (unsigned char)loop[k];
  rcache[h].flags = (unsigned char)fl;
  return NDT_OK;
}
