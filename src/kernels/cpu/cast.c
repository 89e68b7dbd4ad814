/* cast.c - dtype -> dtype casts with NumPy's unsafe-cast values.
 *
 *   int/bool -> int:   C conversion (wraps modulo 2^bits)
 *   float -> int:      truncation toward zero; NaN, inf and out-of-range
 *                      values give what NumPy gives on x86-64 (see
 *                      ndt_sc_d2i32 & co in src/kernels/scalar.h), without C UB
 *   complex -> real:   the imaginary part is dropped
 *   anything -> bool:  != 0 (complex: either part != 0; NaN is true)
 *
 * One function per (from, to) pair, stamped from one template; each has a
 * contiguous path (both strides equal to the item sizes) that gcc
 * vectorises and a strided path.
 */
#include "loops_common.h"

/* The value conversions are src/kernels/scalar.h's
 * ndt_sc_cast_<from>_<to>, shared with the device kernels. */
#define CAST_LOOP(NAME, TI, TO, EXPR)                                          \
  static void NAME(const char *src, int64_t ss, char *dst, int64_t ds, int64_t n) { \
    if (ss == (int64_t)sizeof(TI) && ds == (int64_t)sizeof(TO)) {              \
      const TI *a = (const TI *)src;                                           \
      TO *o = (TO *)dst;                                                       \
      for (int64_t i = 0; i < n; i++) { const TI x = a[i]; o[i] = (EXPR); }    \
      return;                                                                  \
    }                                                                          \
    for (int64_t i = 0; i < n; i++, src += ss, dst += ds) {                    \
      const TI x = *(const TI *)src;                                           \
      *(TO *)dst = (EXPR);                                                     \
    }                                                                          \
  }

/* Same-type copy: memcpy when contiguous. */
#define COPY_LOOP(NAME, T)                                                     \
  static void NAME(const char *src, int64_t ss, char *dst, int64_t ds, int64_t n) { \
    if (ss == (int64_t)sizeof(T) && ds == (int64_t)sizeof(T)) {                \
      if (n > 0 && src != dst) memmove(dst, src, (size_t)n * sizeof(T));       \
      return;                                                                  \
    }                                                                          \
    for (int64_t i = 0; i < n; i++, src += ss, dst += ds) {                    \
      T x; memcpy(&x, src, sizeof(T)); memcpy(dst, &x, sizeof(T));             \
    }                                                                          \
  }

/* ---- stamp the 169 functions ---- */
#define CAST_NAME(FROM, TO) cast_##FROM##_##TO
#define GEN(TO, FROM)                                                           \
  CAST_LOOP(CAST_NAME(FROM, TO), ndt_sc_t_##FROM, ndt_sc_t_##TO, ndt_sc_cast_##FROM##_##TO(x))
#define GEN_FROM(FROM, _) NDT_SC_FOREACH_DTYPE_SFX2(GEN, FROM)
NDT_SC_FOREACH_DTYPE_SFX(GEN_FROM, _)

/* same-type copies (replace the diagonal) */
COPY_LOOP(copy_1, uint8_t)
COPY_LOOP(copy_2, uint16_t)
COPY_LOOP(copy_4, uint32_t)
COPY_LOOP(copy_8, uint64_t)
COPY_LOOP(copy_16, ndt_c128)

/* bool -> bool normalises (a copy would keep non-0/1 bytes) */
#define ROW(FROM)                                                               \
  {CAST_NAME(FROM, b), CAST_NAME(FROM, i8), CAST_NAME(FROM, i16),            \
   CAST_NAME(FROM, i32), CAST_NAME(FROM, i64), CAST_NAME(FROM, u8),             \
   CAST_NAME(FROM, u16), CAST_NAME(FROM, u32), CAST_NAME(FROM, u64),            \
   CAST_NAME(FROM, f32), CAST_NAME(FROM, f64), CAST_NAME(FROM, c64),            \
   CAST_NAME(FROM, c128)}

static const ndt_cast_fn cast_tab[NDT_NTYPES][NDT_NTYPES] = {
  ROW(b), ROW(i8), ROW(i16), ROW(i32), ROW(i64), ROW(u8), ROW(u16), ROW(u32),
  ROW(u64), ROW(f32), ROW(f64), ROW(c64), ROW(c128),
};

ndt_cast_fn ndt__cpu_cast(ndt_dtype from, ndt_dtype to) {
  if ((int)from < 0 || from >= NDT_NTYPES || (int)to < 0 || to >= NDT_NTYPES) return 0;
  if (from == to && from != NDT_BOOL) {
    switch (ndt__traits[from].size) {
    case 1: return copy_1;
    case 2: return copy_2;
    case 4: return copy_4;
    case 8: return copy_8;
    default: return copy_16;
    }
  }
  return cast_tab[from][to];
}
