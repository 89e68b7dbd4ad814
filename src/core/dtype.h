/* dtype.h - the dtype system inside the library: the one list of dtypes, the
 * per-dtype traits table, the one complex storage type, and type resolution
 * for ufuncs (src/core/ufunc.c). Everything here decides dtypes only; which
 * loop runs for them is the backend's business (src/kernels/). */
#ifndef NDT_CORE_DTYPE_H
#define NDT_CORE_DTYPE_H

#include <stdint.h>
#include "ndtile.h"

#include "core/ctypes.h"   /* complex storage: ndt_c64, ndt_c128 */

/* The dtypes in enum order: X(enum, C storage type, NumPy's name, kind,
 * NumPy's type character). Stamp per-dtype code out of this list rather
 * than spelling the 13 dtypes again. */
#define NDT_FOR_EACH_DTYPE(X)                        \
  X(NDT_BOOL, uint8_t, "bool", 'b', '?')             \
  X(NDT_INT8, int8_t, "int8", 'i', 'b')              \
  X(NDT_INT16, int16_t, "int16", 'i', 'h')           \
  X(NDT_INT32, int32_t, "int32", 'i', 'i')           \
  X(NDT_INT64, int64_t, "int64", 'i', 'l')           \
  X(NDT_UINT8, uint8_t, "uint8", 'u', 'B')           \
  X(NDT_UINT16, uint16_t, "uint16", 'u', 'H')        \
  X(NDT_UINT32, uint32_t, "uint32", 'u', 'I')        \
  X(NDT_UINT64, uint64_t, "uint64", 'u', 'L')        \
  X(NDT_FLOAT32, float, "float32", 'f', 'f')         \
  X(NDT_FLOAT64, double, "float64", 'f', 'd')        \
  X(NDT_COMPLEX64, ndt_c64, "complex64", 'c', 'F')   \
  X(NDT_COMPLEX128, ndt_c128, "complex128", 'c', 'D')

/* Per-dtype facts, indexed by ndt_dtype. */
typedef struct {
  const char *name;   /* "float64" */
  char kind;          /* 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex */
  int size;           /* bytes */
  int align;
  char typechar;      /* NumPy's: '?', 'b', ..., 'D' */
} ndt_type_traits;
extern const ndt_type_traits ndt__traits[NDT_NTYPES];

/* ---- ufunc type resolution (src/core/ufunc.c) ---------------------------- */
/* A loop's dtypes as NumPy lists them in ufunc.types: inputs, then outputs
 * (NDT_HALF_LOOP where NumPy's loop is float16, which ndtile lacks). */
#define NDT_HALF_LOOP NDT_NTYPES
typedef unsigned char ndt_loop_types[4];

/* How NumPy picks the loop of a ufunc (its legacy type resolver and
 * promoters, under NEP 50). */
typedef enum {
  NDT_RES_SEARCH = 0, /* the first loop every input casts to safely */
  NDT_RES_UNIFORM,    /* the loop of the inputs' promoted dtype, or none */
  NDT_RES_LOGICAL,    /* an exact loop, else everything cast to bool */
  NDT_RES_DIVIDE,     /* bool/integer inputs run in float64, else SEARCH */
  NDT_RES_WHERE       /* not NumPy's: condition bool, x and y promoted */
} ndt_res_kind;

/* One row per ndt_ufunc, in enum order (static_asserts in ufunc.c keep it
 * so): NumPy's name, nin/nout, the output this op computes (frexp and modf
 * are one op per output), how it resolves and its loops. */
typedef struct {
  const char *name;
  int nin, nout, out_index;
  ndt_res_kind kind;
  int nloops;
  const ndt_loop_types *loops;
} ndt_ufunc_info;
extern const ndt_ufunc_info ndt__ufunc_infos[NDT_NUFUNCS];

#endif
