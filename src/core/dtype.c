/* dtype.c - the dtype system: per-dtype facts, NumPy 2 casting rules and
 * type promotion (including NEP 50 weak Python scalars).
 *
 * The tables below were generated from NumPy 2.x (np.result_type,
 * np.can_cast) over our 13 dtypes and are checked by tests/c/test_kernels.c.
 * Ufunc names and type resolution are in ufunc.c.
 */
#include <stddef.h>
#include "core/dtype.h"

#define TRAITS(e, ctype, name, kind, ch) [e] = {name, kind, sizeof(ctype), _Alignof(ctype), ch},
const ndt_type_traits ndt__traits[NDT_NTYPES] = {NDT_FOR_EACH_DTYPE(TRAITS)};
#undef TRAITS

static int valid(ndt_dtype t) { return (int)t >= 0 && (int)t < NDT_NTYPES; }

const char *ndt_dtype_name(ndt_dtype t) {
  return valid(t) ? ndt__traits[t].name : "invalid";
}

size_t ndt_dtype_size(ndt_dtype t) {
  return valid(t) ? (size_t)ndt__traits[t].size : 0;
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
  switch (ndt__traits[t].kind) {
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
