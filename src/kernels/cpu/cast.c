/* cast.c - dtype -> dtype casts with NumPy's unsafe-cast values.
 *
 *   int/bool -> int:   C conversion (wraps modulo 2^bits)
 *   float -> int:      truncation toward zero; NaN, inf and out-of-range
 *                      values give what NumPy gives on x86-64 (see
 *                      ndt_d2i32 & co in loops_common.h), without C UB,
 *                      and raise "invalid" by value (below)
 *   complex -> real:   the imaginary part is dropped
 *   anything -> bool:  != 0 (complex: either part != 0; NaN is true)
 *
 * One function per (from, to) pair, stamped from one template; each has a
 * contiguous path (both strides equal to the item sizes) that gcc
 * vectorises and a strided path.
 */
#include "loops_common.h"

/* Conversion of one value: CV_<from>_<to>(x). Sources are read as the
 * storage type (ndt_bool_t, ndt_c64, ...). */

/* to bool */
#define TOB(x) ((ndt_bool_t)((x) != 0))
#define CTOB(x) ((ndt_bool_t)((x).re != 0 || (x).im != 0))

/* Integer -> integer and int -> float: plain C conversions (defined for
 * unsigned targets; gcc defines signed narrowing as modulo). */
#define PLAIN(T, x) ((T)(x))

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
/* the value v (a double) converts to the target without "invalid" */
#define OK32(v) ((v) > -2147483649.0 && (v) < 2147483648.0)
#define OK_i8(v) OK32(v)
#define OK_i16(v) OK32(v)
#define OK_i32(v) OK32(v)
#define OK_u8(v) OK32(v)
#define OK_u16(v) OK32(v)
#define OK_u32(v) ((v) > -2147483649.0 && (v) < 4294967296.0)
#define OK_i64(v) ((v) >= -9223372036854775808.0 && (v) < 9223372036854775808.0)
#define OK_u64(v) ((v) >= -9223372036854775808.0 && (v) < 18446744073709551616.0)
/* the loop for a float or complex source (RE: the value's real part as
 * read from x): checked when the target is an integer type */
#define FLOAT_SRC(NAME, TI, TO, EXPR, RE) FSRC_##TO(NAME, TI, TO, EXPR, RE)
#define FSRC_PLAIN(NAME, TI, TO, EXPR, RE) CAST_LOOP(NAME, TI, ST_##TO, EXPR)
#define FSRC_CHK(NAME, TI, TO, EXPR, RE) \
  CAST_LOOP_CHECKED(NAME, TI, ST_##TO, EXPR, OK_##TO((double)(RE)))
#define FSRC_bool(...) FSRC_PLAIN(__VA_ARGS__)
#define FSRC_f32(...) FSRC_PLAIN(__VA_ARGS__)
#define FSRC_f64(...) FSRC_PLAIN(__VA_ARGS__)
#define FSRC_c64(...) FSRC_PLAIN(__VA_ARGS__)
#define FSRC_c128(...) FSRC_PLAIN(__VA_ARGS__)
#define FSRC_i8(...) FSRC_CHK(__VA_ARGS__)
#define FSRC_i16(...) FSRC_CHK(__VA_ARGS__)
#define FSRC_i32(...) FSRC_CHK(__VA_ARGS__)
#define FSRC_i64(...) FSRC_CHK(__VA_ARGS__)
#define FSRC_u8(...) FSRC_CHK(__VA_ARGS__)
#define FSRC_u16(...) FSRC_CHK(__VA_ARGS__)
#define FSRC_u32(...) FSRC_CHK(__VA_ARGS__)
#define FSRC_u64(...) FSRC_CHK(__VA_ARGS__)

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

/* Storage types and how a value of each is read as "real" (for the numeric
 * sources) -- complex sources use .re. */
#define ST_bool ndt_bool_t
#define ST_i8 int8_t
#define ST_i16 int16_t
#define ST_i32 int32_t
#define ST_i64 int64_t
#define ST_u8 uint8_t
#define ST_u16 uint16_t
#define ST_u32 uint32_t
#define ST_u64 uint64_t
#define ST_f32 float
#define ST_f64 double
#define ST_c64 ndt_c64
#define ST_c128 ndt_c128

/* ---- value conversions, by source class ---- */
/* integer (incl. bool) source to each target */
#define ICV_bool(x) TOB(x)
#define ICV_i8(x) PLAIN(int8_t, x)
#define ICV_i16(x) PLAIN(int16_t, x)
#define ICV_i32(x) PLAIN(int32_t, x)
#define ICV_i64(x) PLAIN(int64_t, x)
#define ICV_u8(x) PLAIN(uint8_t, x)
#define ICV_u16(x) PLAIN(uint16_t, x)
#define ICV_u32(x) PLAIN(uint32_t, x)
#define ICV_u64(x) PLAIN(uint64_t, x)
#define ICV_f32(x) PLAIN(float, x)
#define ICV_f64(x) PLAIN(double, x)
#define ICV_c64(x) ((ndt_c64){(float)(x), 0.0f})
#define ICV_c128(x) ((ndt_c128){(double)(x), 0.0})

/* double source */
#define DCV_bool(x) TOB(x)
#define DCV_i8(x) ndt_d2i8(x)
#define DCV_i16(x) ndt_d2i16(x)
#define DCV_i32(x) ndt_d2i32(x)
#define DCV_i64(x) ndt_d2i64(x)
#define DCV_u8(x) ndt_d2u8(x)
#define DCV_u16(x) ndt_d2u16(x)
#define DCV_u32(x) ndt_d2u32(x)
#define DCV_u64(x) ndt_d2u64(x)
#define DCV_f32(x) ((float)(x))
#define DCV_f64(x) ((double)(x))
#define DCV_c64(x) ((ndt_c64){(float)(x), 0.0f})
#define DCV_c128(x) ((ndt_c128){(double)(x), 0.0})

/* float source */
#define FCV_bool(x) TOB(x)
#define FCV_i8(x) ndt_f2i8(x)
#define FCV_i16(x) ndt_f2i16(x)
#define FCV_i32(x) ndt_f2i32(x)
#define FCV_i64(x) ndt_f2i64(x)
#define FCV_u8(x) ndt_f2u8(x)
#define FCV_u16(x) ndt_f2u16(x)
#define FCV_u32(x) ndt_f2u32(x)
#define FCV_u64(x) ndt_f2u64(x)
#define FCV_f32(x) ((float)(x))
#define FCV_f64(x) ((double)(x))
#define FCV_c64(x) ((ndt_c64){(float)(x), 0.0f})
#define FCV_c128(x) ((ndt_c128){(double)(x), 0.0})

/* complex64 source: real part as float, except to complex/bool */
#define C64CV_bool(x) CTOB(x)
#define C64CV_c128(x) ((ndt_c128){(double)(x).re, (double)(x).im})
#define C128CV_bool(x) CTOB(x)
#define C128CV_c64(x) ((ndt_c64){(float)(x).re, (float)(x).im})

/* bool source: normalise stored bytes to 0/1 first */
#define BCV(TO_SFX, x) ICV_##TO_SFX((ndt_bool_t)((x) != 0))

/* ---- stamp the 169 functions ---- */
#define FOR_TARGETS(M, FROM)                                                    \
  M(FROM, bool) M(FROM, i8) M(FROM, i16) M(FROM, i32) M(FROM, i64) M(FROM, u8)  \
  M(FROM, u16) M(FROM, u32) M(FROM, u64) M(FROM, f32) M(FROM, f64) M(FROM, c64) \
  M(FROM, c128)

#define CAST_NAME(FROM, TO) cast_##FROM##_##TO

/* integer sources */
#define GEN_I(FROM, TO) CAST_LOOP(CAST_NAME(FROM, TO), ST_##FROM, ST_##TO, ICV_##TO(x))
FOR_TARGETS(GEN_I, i8)
FOR_TARGETS(GEN_I, i16)
FOR_TARGETS(GEN_I, i32)
FOR_TARGETS(GEN_I, i64)
FOR_TARGETS(GEN_I, u8)
FOR_TARGETS(GEN_I, u16)
FOR_TARGETS(GEN_I, u32)
FOR_TARGETS(GEN_I, u64)
/* bool source */
#define GEN_B(FROM, TO) CAST_LOOP(CAST_NAME(FROM, TO), ST_##FROM, ST_##TO, BCV(TO, x))
FOR_TARGETS(GEN_B, bool)
/* float sources */
#define GEN_F(FROM, TO) FLOAT_SRC(CAST_NAME(FROM, TO), ST_##FROM, TO, FCV_##TO(x), x)
FOR_TARGETS(GEN_F, f32)
#define GEN_D(FROM, TO) FLOAT_SRC(CAST_NAME(FROM, TO), ST_##FROM, TO, DCV_##TO(x), x)
FOR_TARGETS(GEN_D, f64)
/* complex64 source: everything but bool/complex goes through the real part */
#define GEN_C64(FROM, TO) FLOAT_SRC(CAST_NAME(FROM, TO), ST_##FROM, TO, C64SEL_##TO(x), x.re)
#define C64SEL_bool(x) C64CV_bool(x)
#define C64SEL_c64(x) (x)
#define C64SEL_c128(x) C64CV_c128(x)
#define C64SEL_i8(x) FCV_i8((x).re)
#define C64SEL_i16(x) FCV_i16((x).re)
#define C64SEL_i32(x) FCV_i32((x).re)
#define C64SEL_i64(x) FCV_i64((x).re)
#define C64SEL_u8(x) FCV_u8((x).re)
#define C64SEL_u16(x) FCV_u16((x).re)
#define C64SEL_u32(x) FCV_u32((x).re)
#define C64SEL_u64(x) FCV_u64((x).re)
#define C64SEL_f32(x) ((x).re)
#define C64SEL_f64(x) ((double)(x).re)
FOR_TARGETS(GEN_C64, c64)
#define GEN_C128(FROM, TO) FLOAT_SRC(CAST_NAME(FROM, TO), ST_##FROM, TO, C128SEL_##TO(x), x.re)
#define C128SEL_bool(x) C128CV_bool(x)
#define C128SEL_c64(x) C128CV_c64(x)
#define C128SEL_c128(x) (x)
#define C128SEL_i8(x) DCV_i8((x).re)
#define C128SEL_i16(x) DCV_i16((x).re)
#define C128SEL_i32(x) DCV_i32((x).re)
#define C128SEL_i64(x) DCV_i64((x).re)
#define C128SEL_u8(x) DCV_u8((x).re)
#define C128SEL_u16(x) DCV_u16((x).re)
#define C128SEL_u32(x) DCV_u32((x).re)
#define C128SEL_u64(x) DCV_u64((x).re)
#define C128SEL_f32(x) ((float)(x).re)
#define C128SEL_f64(x) ((x).re)
FOR_TARGETS(GEN_C128, c128)

/* same-type copies (replace the diagonal) */
COPY_LOOP(copy_1, uint8_t)
COPY_LOOP(copy_2, uint16_t)
COPY_LOOP(copy_4, uint32_t)
COPY_LOOP(copy_8, uint64_t)
COPY_LOOP(copy_16, ndt_c128)

/* bool -> bool normalises (a copy would keep non-0/1 bytes) */
#define ROW(FROM)                                                               \
  {CAST_NAME(FROM, bool), CAST_NAME(FROM, i8), CAST_NAME(FROM, i16),            \
   CAST_NAME(FROM, i32), CAST_NAME(FROM, i64), CAST_NAME(FROM, u8),             \
   CAST_NAME(FROM, u16), CAST_NAME(FROM, u32), CAST_NAME(FROM, u64),            \
   CAST_NAME(FROM, f32), CAST_NAME(FROM, f64), CAST_NAME(FROM, c64),            \
   CAST_NAME(FROM, c128)}

static const ndt_cast_fn cast_tab[NDT_NTYPES][NDT_NTYPES] = {
  ROW(bool), ROW(i8), ROW(i16), ROW(i32), ROW(i64), ROW(u8), ROW(u16), ROW(u32),
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
