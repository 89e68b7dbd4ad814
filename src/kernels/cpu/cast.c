/* cast.c - dtype -> dtype casts with NumPy's unsafe-cast values.
 *
 *   int/bool -> int:   C conversion (wraps modulo 2^bits)
 *   float -> int:      truncation toward zero; NaN, inf and out-of-range
 *                      values give what NumPy gives on x86-64 (see
 *                      ndt_sc_d2i32 & co in src/kernels/scalar.h), without C UB,
 *                      and raise "invalid" by value (below)
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

/* Float (or a complex's real part) -> integer: the hardware's flags
 * depend on which loop ran (a vector conversion flags every out-of-range
 * lane, the guarded scalar one nothing but a NaN compare), so they are
 * dropped and "invalid" is raised by value, as NumPy's contiguous casts
 * (AVX-512) raise it: a NaN, an infinity or a value whose truncation lies
 * outside int32 for the targets of 32 bits or less (NumPy converts through
 * int32; -2.75 -> uint8 is 254, no flag), outside (-2**31 - 1, 2**32) for
 * uint32, outside int64 for int64, and outside [-2**63, 2**64) for uint64.
 * (NumPy's strided and one-element uint32/int64/uint64 casts flag only
 * outside int64: a layout difference of NumPy's own, deviations 11.) */
#define CAST_LOOP_CHECKED(NAME, TI, TO, EXPR, OK)                              \
  static void NAME(const char *src, int64_t ss, char *dst, int64_t ds, int64_t n) { \
    const unsigned saved = ndt_fpstate_save();                                 \
    int bad = 0;                                                               \
    if (ss == (int64_t)sizeof(TI) && ds == (int64_t)sizeof(TO)) {              \
      const TI *a = (const TI *)src;                                           \
      TO *o = (TO *)dst;                                                       \
      for (int64_t i = 0; i < n; i++) {                                        \
        const TI x = a[i];                                                     \
        o[i] = (EXPR);                                                         \
        bad |= !(OK);                                                          \
      }                                                                        \
    } else {                                                                   \
      for (int64_t i = 0; i < n; i++, src += ss, dst += ds) {                  \
        const TI x = *(const TI *)src;                                         \
        *(TO *)dst = (EXPR);                                                   \
        bad |= !(OK);                                                          \
      }                                                                        \
    }                                                                          \
    ndt_fpstate_restore(saved);                                                \
    if (bad) ndt_fpe_raise(NDT_FPE_INVALID);                                   \
  }
/* ndt_sc_cast_ok_<to>(v) (scalar.h): v, a double, converts to the integer
 * target without "invalid" (the device's casts report by the same rule:
 * scalar.h's ndt_sc_cast_fe_<from>_<to>; called from here instead, it cost
 * gcc the vectorisation of the complex64 and float32 sources' loops) */

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
#define GEN_PLAIN(FROM, TO)                                                    \
  CAST_LOOP(CAST_NAME(FROM, TO), ndt_sc_t_##FROM, ndt_sc_t_##TO, ndt_sc_cast_##FROM##_##TO(x))
/* integer and bool sources: plain; float and complex sources: checked when
 * the target is an integer (RE: the value's real part as a double) */
#define GEN(TO, FROM) SRC_##FROM(FROM, TO)
#define SRC_b(F, T) GEN_PLAIN(F, T)
#define SRC_i8(F, T) GEN_PLAIN(F, T)
#define SRC_i16(F, T) GEN_PLAIN(F, T)
#define SRC_i32(F, T) GEN_PLAIN(F, T)
#define SRC_i64(F, T) GEN_PLAIN(F, T)
#define SRC_u8(F, T) GEN_PLAIN(F, T)
#define SRC_u16(F, T) GEN_PLAIN(F, T)
#define SRC_u32(F, T) GEN_PLAIN(F, T)
#define SRC_u64(F, T) GEN_PLAIN(F, T)
#define SRC_f32(F, T) FSRC_##T(F, T, (double)x)
#define SRC_f64(F, T) FSRC_##T(F, T, x)
#define SRC_c64(F, T) FSRC_##T(F, T, (double)x.re)
#define SRC_c128(F, T) FSRC_##T(F, T, x.re)
#define FSRC_CHK(F, T, RE)                                                      \
  CAST_LOOP_CHECKED(CAST_NAME(F, T), ndt_sc_t_##F, ndt_sc_t_##T,                \
                    ndt_sc_cast_##F##_##T(x), ndt_sc_cast_ok_##T(RE))
#define FSRC_b(F, T, RE) GEN_PLAIN(F, T)
#define FSRC_f32(F, T, RE) GEN_PLAIN(F, T)
#define FSRC_f64(F, T, RE) GEN_PLAIN(F, T)
#define FSRC_c64(F, T, RE) GEN_PLAIN(F, T)
#define FSRC_c128(F, T, RE) GEN_PLAIN(F, T)
#define FSRC_i8(F, T, RE) FSRC_CHK(F, T, RE)
#define FSRC_i16(F, T, RE) FSRC_CHK(F, T, RE)
#define FSRC_i32(F, T, RE) FSRC_CHK(F, T, RE)
#define FSRC_i64(F, T, RE) FSRC_CHK(F, T, RE)
#define FSRC_u8(F, T, RE) FSRC_CHK(F, T, RE)
#define FSRC_u16(F, T, RE) FSRC_CHK(F, T, RE)
#define FSRC_u32(F, T, RE) FSRC_CHK(F, T, RE)
#define FSRC_u64(F, T, RE) FSRC_CHK(F, T, RE)
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
