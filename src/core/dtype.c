/* dtype.c - the dtype system: per-dtype facts, NumPy 2 casting rules and
 * type promotion (including NEP 50 weak Python scalars), ufunc names.
 *
 * The tables below were generated from NumPy 2.x (np.result_type,
 * np.can_cast) over our 13 dtypes and are checked by tests/c/test_kernels.c.
 */
#include <stddef.h>
#include "kernels/kernels.h"

const ndt_type_traits ndt_traits[NDT_NTYPES] = {
  [NDT_BOOL]       = {"bool",       'b', 1,  1},
  [NDT_INT8]       = {"int8",       'i', 1,  1},
  [NDT_INT16]      = {"int16",      'i', 2,  2},
  [NDT_INT32]      = {"int32",      'i', 4,  4},
  [NDT_INT64]      = {"int64",      'i', 8,  8},
  [NDT_UINT8]      = {"uint8",      'u', 1,  1},
  [NDT_UINT16]     = {"uint16",     'u', 2,  2},
  [NDT_UINT32]     = {"uint32",     'u', 4,  4},
  [NDT_UINT64]     = {"uint64",     'u', 8,  8},
  [NDT_FLOAT32]    = {"float32",    'f', 4,  4},
  [NDT_FLOAT64]    = {"float64",    'f', 8,  8},
  [NDT_COMPLEX64]  = {"complex64",  'c', 8,  4},
  [NDT_COMPLEX128] = {"complex128", 'c', 16, 8},
};

static int valid(ndt_dtype t) { return (int)t >= 0 && (int)t < NDT_NTYPES; }

const char *ndt_dtype_name(ndt_dtype t) {
  return valid(t) ? ndt_traits[t].name : "invalid";
}

size_t ndt_dtype_size(ndt_dtype t) {
  return valid(t) ? (size_t)ndt_traits[t].size : 0;
}

/* Short names for the tables. */
enum {
  B = NDT_BOOL, I8 = NDT_INT8, I16 = NDT_INT16, I32 = NDT_INT32, I64 = NDT_INT64,
  U8 = NDT_UINT8, U16 = NDT_UINT16, U32 = NDT_UINT32, U64 = NDT_UINT64,
  F32 = NDT_FLOAT32, F64 = NDT_FLOAT64, C64 = NDT_COMPLEX64, C128 = NDT_COMPLEX128
};

/* np.can_cast(row, col, 'safe'); columns in enum order
 * b i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 c64 c128 */
static const unsigned char safe_tab[NDT_NTYPES][NDT_NTYPES] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* bool */
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}, /* int8 */
  {0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}, /* int16 */
  {0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1}, /* int32 */
  {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1}, /* int64 */
  {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* uint8 */
  {0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1}, /* uint16 */
  {0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1}, /* uint32 */
  {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1}, /* uint64 */
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, /* float32 */
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}, /* float64 */
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, /* complex64 */
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, /* complex128 */
};

/* np.can_cast(row, col, 'same_kind') */
static const unsigned char same_kind_tab[NDT_NTYPES][NDT_NTYPES] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* bool */
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}, /* int8 */
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}, /* int16 */
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}, /* int32 */
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}, /* int64 */
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* uint8 */
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* uint16 */
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* uint32 */
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, /* uint64 */
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, /* float32 */
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, /* float64 */
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, /* complex64 */
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, /* complex128 */
};

int ndt_can_cast(ndt_dtype from, ndt_dtype to, ndt_casting casting) {
  if (!valid(from) || !valid(to)) return 0;
  switch (casting) {
  case NDT_CAST_NO:
  case NDT_CAST_EQUIV:     return from == to;   /* native byte order only */
  case NDT_CAST_SAFE:      return safe_tab[from][to];
  case NDT_CAST_SAME_KIND: return same_kind_tab[from][to];
  case NDT_CAST_UNSAFE:    return 1;
  }
  return 0;
}

/* np.result_type(row, col) for two strong (array) dtypes. */
static const signed char promo_tab[NDT_NTYPES][NDT_NTYPES] = {
  {B, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, C64, C128},            /* bool */
  {I8, I8, I16, I32, I64, I16, I32, I64, F64, F32, F64, C64, C128},          /* int8 */
  {I16, I16, I16, I32, I64, I16, I32, I64, F64, F32, F64, C64, C128},        /* int16 */
  {I32, I32, I32, I32, I64, I32, I32, I64, F64, F64, F64, C128, C128},       /* int32 */
  {I64, I64, I64, I64, I64, I64, I64, I64, F64, F64, F64, C128, C128},       /* int64 */
  {U8, I16, I16, I32, I64, U8, U16, U32, U64, F32, F64, C64, C128},          /* uint8 */
  {U16, I32, I32, I32, I64, U16, U16, U32, U64, F32, F64, C64, C128},        /* uint16 */
  {U32, I64, I64, I64, I64, U32, U32, U32, U64, F64, F64, C128, C128},       /* uint32 */
  {U64, F64, F64, F64, F64, U64, U64, U64, U64, F64, F64, C128, C128},       /* uint64 */
  {F32, F32, F32, F64, F64, F32, F32, F64, F64, F32, F64, C64, C128},        /* float32 */
  {F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, C128, C128},       /* float64 */
  {C64, C64, C64, C128, C128, C64, C64, C128, C128, C64, C128, C64, C128},   /* complex64 */
  {C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128}, /* complex128 */
};

/* NEP 50: np.result_type(array of dtype row, Python scalar of kind col) with
 * columns bool, int, float, complex. */
static const signed char weak_tab[NDT_NTYPES][4] = {
  {B, I64, F64, C128},   /* bool */
  {I8, I8, F64, C128},   /* int8 */
  {I16, I16, F64, C128}, /* int16 */
  {I32, I32, F64, C128}, /* int32 */
  {I64, I64, F64, C128}, /* int64 */
  {U8, U8, F64, C128},   /* uint8 */
  {U16, U16, F64, C128}, /* uint16 */
  {U32, U32, F64, C128}, /* uint32 */
  {U64, U64, F64, C128}, /* uint64 */
  {F32, F32, F32, C64},  /* float32 */
  {F64, F64, F64, C128}, /* float64 */
  {C64, C64, C64, C64},  /* complex64 */
  {C128, C128, C128, C128}, /* complex128 */
};

static int weak_kind_col(ndt_dtype t) {
  switch (ndt_traits[t].kind) {
  case 'b': return 0;
  case 'i': case 'u': return 1;
  case 'f': return 2;
  default: return 3;
  }
}

ndt_dtype ndt_promote(ndt_dtype a, int a_weak, ndt_dtype b, int b_weak) {
  if (!valid(a) || !valid(b)) return NDT_DTYPE_DEFAULT;
  if (a_weak && !b_weak) return (ndt_dtype)weak_tab[b][weak_kind_col(a)];
  if (b_weak && !a_weak) return (ndt_dtype)weak_tab[a][weak_kind_col(b)];
  /* both strong, or both weak (Python scalars promote among themselves as
   * their default dtypes do: int + float -> float64, bool + int -> int64). */
  return (ndt_dtype)promo_tab[a][b];
}

static const char *const ufunc_names[NDT_NUFUNCS] = {
  [NDT_ADD] = "add", [NDT_SUBTRACT] = "subtract", [NDT_MULTIPLY] = "multiply",
  [NDT_TRUE_DIVIDE] = "divide", [NDT_FLOOR_DIVIDE] = "floor_divide",
  [NDT_REMAINDER] = "remainder", [NDT_POWER] = "power", [NDT_EQUAL] = "equal",
  [NDT_NOT_EQUAL] = "not_equal", [NDT_LESS] = "less", [NDT_LESS_EQUAL] = "less_equal",
  [NDT_GREATER] = "greater", [NDT_GREATER_EQUAL] = "greater_equal",
  [NDT_LOGICAL_AND] = "logical_and", [NDT_LOGICAL_OR] = "logical_or",
  [NDT_LOGICAL_XOR] = "logical_xor", [NDT_BITWISE_AND] = "bitwise_and",
  [NDT_BITWISE_OR] = "bitwise_or", [NDT_BITWISE_XOR] = "bitwise_xor",
  [NDT_LEFT_SHIFT] = "left_shift", [NDT_RIGHT_SHIFT] = "right_shift",
  [NDT_MAXIMUM] = "maximum", [NDT_MINIMUM] = "minimum", [NDT_FMAX] = "fmax",
  [NDT_FMIN] = "fmin", [NDT_ARCTAN2] = "arctan2", [NDT_HYPOT] = "hypot",
  [NDT_COPYSIGN] = "copysign", [NDT_FMOD] = "fmod", [NDT_LOGADDEXP] = "logaddexp",
  [NDT_NEXTAFTER] = "nextafter", [NDT_NEGATIVE] = "negative",
  [NDT_POSITIVE] = "positive", [NDT_ABSOLUTE] = "absolute", [NDT_SIGN] = "sign",
  [NDT_LOGICAL_NOT] = "logical_not", [NDT_INVERT] = "invert", [NDT_SQRT] = "sqrt",
  [NDT_CBRT] = "cbrt", [NDT_SQUARE] = "square", [NDT_RECIPROCAL] = "reciprocal",
  [NDT_EXP] = "exp", [NDT_EXP2] = "exp2", [NDT_EXPM1] = "expm1", [NDT_LOG] = "log",
  [NDT_LOG2] = "log2", [NDT_LOG10] = "log10", [NDT_LOG1P] = "log1p",
  [NDT_SIN] = "sin", [NDT_COS] = "cos", [NDT_TAN] = "tan", [NDT_ARCSIN] = "arcsin",
  [NDT_ARCCOS] = "arccos", [NDT_ARCTAN] = "arctan", [NDT_SINH] = "sinh",
  [NDT_COSH] = "cosh", [NDT_TANH] = "tanh", [NDT_ARCSINH] = "arcsinh",
  [NDT_ARCCOSH] = "arccosh", [NDT_ARCTANH] = "arctanh", [NDT_FLOOR] = "floor",
  [NDT_CEIL] = "ceil", [NDT_TRUNC] = "trunc", [NDT_RINT] = "rint",
  [NDT_ISNAN] = "isnan", [NDT_ISINF] = "isinf", [NDT_ISFINITE] = "isfinite",
  [NDT_SIGNBIT] = "signbit", [NDT_CONJUGATE] = "conjugate",
  [NDT_DEG2RAD] = "deg2rad", [NDT_RAD2DEG] = "rad2deg",
  [NDT_WHERE] = "where", [NDT_CLIP] = "clip",
  [NDT_GCD] = "gcd", [NDT_LCM] = "lcm", [NDT_HEAVISIDE] = "heaviside",
  [NDT_LDEXP] = "ldexp", [NDT_LOGADDEXP2] = "logaddexp2", [NDT_SPACING] = "spacing",
  [NDT_BITWISE_COUNT] = "bitwise_count", [NDT_FREXP] = "frexp",
  [NDT_FREXP_EXP] = "_frexp_exponent", [NDT_MODF] = "modf", [NDT_MODF_INT] = "_modf_integral",
};

const char *ndt_ufunc_name(ndt_ufunc op) {
  if ((int)op < 0 || op >= NDT_NUFUNCS || !ufunc_names[op]) return "invalid";
  return ufunc_names[op];
}

int ndt_ufunc_nin(ndt_ufunc op) {
  if ((int)op < 0 || op >= NDT_NUFUNCS) return 0;
  if (op <= NDT_NEXTAFTER) return 2;
  if (op <= NDT_RAD2DEG) return 1;
  if (op <= NDT_CLIP) return 3;
  return op <= NDT_LOGADDEXP2 ? 2 : 1;
}
