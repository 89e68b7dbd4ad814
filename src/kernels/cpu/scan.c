/* scan.c - the CPU's scan kernels of one run, per accumulator dtype
 * (src/ops/scan.c cuts the work into blocks and carries between them):
 * cumulative sums and products (integers wrap in their unsigned type; NaN
 * variants count NaNs as the identity), and the accumulate loops of
 * maximum, minimum, fmax, fmin, the bitwise (and logical, on bool) and, or,
 * xor, and subtract, each with the bits of NumPy's accumulate (float
 * maximum: (a > b || isnan(a)) ? a : b, fmax: (a > b || isnan(b)) ? a : b;
 * complex: its CGE/CLE, which keep the earlier of equal values). */
#include <math.h>
#include <string.h>
#include "cpu.h"

typedef ndt_scan_fn scan_fn;
typedef ndt_comb_fn comb_fn;

#define DEF_SCAN(NAME, T, ADD, MUL, ISNAN, ZERO, ONE)                                   \
  static void NAME##_scan(const char *xp, int64_t m, void *accp, int *started, char *out, \
                          int64_t os, int prod, int nan) {                              \
    const T *x = (const T *)xp;                                                         \
    T acc = *(T *)accp;                                                                 \
    int64_t i = 0;                                                                      \
    if (!*started && m > 0) {                                                           \
      T v = x[0];                                                                       \
      if (nan && ISNAN(v)) v = prod ? ONE : ZERO;                                       \
      acc = v;                                                                          \
      memcpy(out, &acc, sizeof acc);                                                    \
      *started = 1;                                                                     \
      i = 1;                                                                            \
    }                                                                                   \
    if (prod) {                                                                         \
      for (; i < m; i++) {                                                              \
        T v = x[i];                                                                     \
        if (nan && ISNAN(v)) v = ONE;                                                   \
        acc = MUL(acc, v);                                                              \
        memcpy(out + i * os, &acc, sizeof acc);                                         \
      }                                                                                 \
    } else {                                                                            \
      for (; i < m; i++) {                                                              \
        T v = x[i];                                                                     \
        if (nan && ISNAN(v)) v = ZERO;                                                  \
        acc = ADD(acc, v);                                                              \
        memcpy(out + i * os, &acc, sizeof acc);                                         \
      }                                                                                 \
    }                                                                                   \
    *(T *)accp = acc;                                                                   \
  }                                                                                     \
  static void NAME##_comb(const char *cp, char *r, int64_t rs, int64_t n, int prod) {   \
    T c, v;                                                                             \
    memcpy(&c, cp, sizeof c);                                                           \
    for (int64_t i = 0; i < n; i++) {                                                   \
      memcpy(&v, r + i * rs, sizeof v);                                                 \
      v = prod ? MUL(c, v) : ADD(c, v);                                                 \
      memcpy(r + i * rs, &v, sizeof v);                                                 \
    }                                                                                   \
  }

#define NONAN(v) 0
#define FNAN(v) ((v) != (v))
#define CNAN(v) ((v).re != (v).re || (v).im != (v).im)
#define BADD(a, b) ((uint8_t)((a) | (b)))
#define BMUL(a, b) ((uint8_t)((a) & (b)))
#define UADD(a, b) ((a) + (b))
#define UMUL(a, b) ((a) * (b))
#define WMUL(T) (T)((unsigned long long)(a) * (unsigned long long)(b))
static inline uint8_t mul_u8(uint8_t a, uint8_t b) { return WMUL(uint8_t); }
static inline uint16_t mul_u16(uint16_t a, uint16_t b) { return WMUL(uint16_t); }
static inline uint32_t mul_u32(uint32_t a, uint32_t b) { return WMUL(uint32_t); }
static inline uint64_t mul_u64(uint64_t a, uint64_t b) { return WMUL(uint64_t); }
static inline uint8_t add_u8(uint8_t a, uint8_t b) { return (uint8_t)(a + b); }
static inline uint16_t add_u16(uint16_t a, uint16_t b) { return (uint16_t)(a + b); }
static inline ndt_c64 cadd64(ndt_c64 a, ndt_c64 b) { return (ndt_c64){a.re + b.re, a.im + b.im}; }
static inline ndt_c64 cmul64(ndt_c64 a, ndt_c64 b) {
  return (ndt_c64){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
static inline ndt_c128 cadd128(ndt_c128 a, ndt_c128 b) { return (ndt_c128){a.re + b.re, a.im + b.im}; }
static inline ndt_c128 cmul128(ndt_c128 a, ndt_c128 b) {
  return (ndt_c128){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

DEF_SCAN(b8, uint8_t, BADD, BMUL, NONAN, 0, 1)
DEF_SCAN(u8, uint8_t, add_u8, mul_u8, NONAN, 0, 1)
DEF_SCAN(u16, uint16_t, add_u16, mul_u16, NONAN, 0, 1)
DEF_SCAN(u32, uint32_t, UADD, mul_u32, NONAN, 0, 1)
DEF_SCAN(u64, uint64_t, UADD, mul_u64, NONAN, 0, 1)
DEF_SCAN(f32, float, UADD, UMUL, FNAN, 0.0f, 1.0f)
DEF_SCAN(f64, double, UADD, UMUL, FNAN, 0.0, 1.0)
DEF_SCAN(c64, ndt_c64, cadd64, cmul64, CNAN, ((ndt_c64){0.0f, 0.0f}), ((ndt_c64){1.0f, 0.0f}))
DEF_SCAN(c128, ndt_c128, cadd128, cmul128, CNAN, ((ndt_c128){0.0, 0.0}), ((ndt_c128){1.0, 0.0}))

/* ---- maximum, minimum, fmax, fmin, and, or, xor, subtract ---- */
/* Quiet comparisons (no invalid flag for NaN, as NumPy clears it). */
#define IMAX(a, b) ((a) > (b) ? (a) : (b))
#define IMIN(a, b) ((a) < (b) ? (a) : (b))
/* Floats: NumPy's accumulate (its SIMD max/min, whichever path) keeps
 * the new element of equal ones (+0 after -0 gives +0), so these do; a
 * NaN accumulator sticks (maximum) or is replaced (fmax). */
#define FMAXP(a, b) ((isgreater(a, b) || isnan(a)) ? (a) : (b))
#define FMINP(a, b) ((isless(a, b) || isnan(a)) ? (a) : (b))
#define FMAXI(a, b) ((isgreater(a, b) || isnan(b)) ? (a) : (b))
#define FMINI(a, b) ((isless(a, b) || isnan(b)) ? (a) : (b))
#define ISUB(a, b) ((a) - (b))
#define BAND(a, b) ((a) & (b))
#define BOR(a, b) ((a) | (b))
#define BXOR(a, b) ((a) ^ (b))
#define NOOP(a, b) ((void)(b), (a))
/* numpy's CGE/CLE and its complex maximum/minimum/fmax/fmin */
#define CNAN_(z) (isnan((z).re) || isnan((z).im))
#define CGE(x, y) ((isgreater((x).re, (y).re) && !isnan((x).im) && !isnan((y).im)) || \
                   ((x).re == (y).re && isgreaterequal((x).im, (y).im)))
#define CLE(x, y) ((isless((x).re, (y).re) && !isnan((x).im) && !isnan((y).im)) || \
                   ((x).re == (y).re && islessequal((x).im, (y).im)))
#define CMAXP(a, b) ((CNAN_(a) || CGE(a, b)) ? (a) : (b))
#define CMINP(a, b) ((CNAN_(a) || CLE(a, b)) ? (a) : (b))
#define CMAXI(a, b) ((CNAN_(b) || CGE(a, b)) ? (a) : (b))
#define CMINI(a, b) ((CNAN_(b) || CLE(a, b)) ? (a) : (b))

#define XLOOP(OPF)                                   \
  for (; i < m; i++) {                               \
    elem_t v = x[i];                                 \
    acc = OPF(acc, v);                               \
    memcpy(out + i * os, &acc, sizeof acc);          \
  }
#define XCOMB(OPF)                                   \
  for (int64_t i = 0; i < n; i++) {                  \
    elem_t v;                                        \
    memcpy(&v, r + i * rs, sizeof v);                \
    v = OPF(c, v);                                   \
    memcpy(r + i * rs, &v, sizeof v);                \
  }

#define DEF_XSCAN(NAME, T, MAXF, MINF, FMAXF, FMINF, ANDF, ORF, XORF, SUBF)              \
  static void NAME##_xscan(const char *xp, int64_t m, void *accp, int *started, char *out, \
                           int64_t os, int op) {                                         \
    typedef T elem_t;                                                                    \
    const T *x = (const T *)xp;                                                          \
    T acc;                                                                               \
    memcpy(&acc, accp, sizeof acc);                                                      \
    int64_t i = 0;                                                                       \
    if (!*started && m > 0) {                                                            \
      acc = x[0];                                                                        \
      memcpy(out, &acc, sizeof acc);                                                     \
      *started = 1;                                                                      \
      i = 1;                                                                             \
    }                                                                                    \
    switch (op) {                                                                        \
      case NDT_SK_MAX: XLOOP(MAXF) break;                                                \
      case NDT_SK_MIN: XLOOP(MINF) break;                                                \
      case NDT_SK_FMAX: XLOOP(FMAXF) break;                                              \
      case NDT_SK_FMIN: XLOOP(FMINF) break;                                              \
      case NDT_SK_AND: XLOOP(ANDF) break;                                                \
      case NDT_SK_OR: XLOOP(ORF) break;                                                  \
      case NDT_SK_XOR: XLOOP(XORF) break;                                                \
      default: XLOOP(SUBF) break;                                                        \
    }                                                                                    \
    memcpy(accp, &acc, sizeof acc);                                                      \
  }                                                                                      \
  static void NAME##_xcomb(const char *cp, char *r, int64_t rs, int64_t n, int op) {     \
    typedef T elem_t;                                                                    \
    T c;                                                                                 \
    memcpy(&c, cp, sizeof c);                                                            \
    switch (op) {                                                                        \
      case NDT_SK_MAX: XCOMB(MAXF) break;                                                \
      case NDT_SK_MIN: XCOMB(MINF) break;                                                \
      case NDT_SK_FMAX: XCOMB(FMAXF) break;                                              \
      case NDT_SK_FMIN: XCOMB(FMINF) break;                                              \
      case NDT_SK_AND: XCOMB(ANDF) break;                                                \
      case NDT_SK_OR: XCOMB(ORF) break;                                                  \
      case NDT_SK_XOR: XCOMB(XORF) break;                                                \
      default: break;   /* subtract: sequential blocks, no carries */                    \
    }                                                                                    \
  }

static inline ndt_c64 csub64(ndt_c64 a, ndt_c64 b) { return (ndt_c64){a.re - b.re, a.im - b.im}; }
static inline ndt_c128 csub128(ndt_c128 a, ndt_c128 b) {
  return (ndt_c128){a.re - b.re, a.im - b.im};
}
#define SUB_U(T) static inline T sub_##T(T a, T b) { return (T)(a - b); }
SUB_U(uint8_t)
SUB_U(uint16_t)
SUB_U(uint32_t)
SUB_U(uint64_t)
/* signed subtract wraps through the unsigned type */
#define SSUB(U) (T)(U)((U)(a) - (U)(b))
static inline int8_t sub_i8(int8_t a, int8_t b) { typedef int8_t T; return SSUB(uint8_t); }
static inline int16_t sub_i16(int16_t a, int16_t b) { typedef int16_t T; return SSUB(uint16_t); }
static inline int32_t sub_i32(int32_t a, int32_t b) { typedef int32_t T; return SSUB(uint32_t); }
static inline int64_t sub_i64(int64_t a, int64_t b) { typedef int64_t T; return SSUB(uint64_t); }

DEF_XSCAN(xb8, uint8_t, BOR, BAND, BOR, BAND, BAND, BOR, BXOR, NOOP)
DEF_XSCAN(xi8, int8_t, IMAX, IMIN, IMAX, IMIN, BAND, BOR, BXOR, sub_i8)
DEF_XSCAN(xi16, int16_t, IMAX, IMIN, IMAX, IMIN, BAND, BOR, BXOR, sub_i16)
DEF_XSCAN(xi32, int32_t, IMAX, IMIN, IMAX, IMIN, BAND, BOR, BXOR, sub_i32)
DEF_XSCAN(xi64, int64_t, IMAX, IMIN, IMAX, IMIN, BAND, BOR, BXOR, sub_i64)
DEF_XSCAN(xu8, uint8_t, IMAX, IMIN, IMAX, IMIN, BAND, BOR, BXOR, sub_uint8_t)
DEF_XSCAN(xu16, uint16_t, IMAX, IMIN, IMAX, IMIN, BAND, BOR, BXOR, sub_uint16_t)
DEF_XSCAN(xu32, uint32_t, IMAX, IMIN, IMAX, IMIN, BAND, BOR, BXOR, sub_uint32_t)
DEF_XSCAN(xu64, uint64_t, IMAX, IMIN, IMAX, IMIN, BAND, BOR, BXOR, sub_uint64_t)
DEF_XSCAN(xf32, float, FMAXP, FMINP, FMAXI, FMINI, NOOP, NOOP, NOOP, ISUB)
DEF_XSCAN(xf64, double, FMAXP, FMINP, FMAXI, FMINI, NOOP, NOOP, NOOP, ISUB)
DEF_XSCAN(xc64, ndt_c64, CMAXP, CMINP, CMAXI, CMINI, NOOP, NOOP, NOOP, csub64)
DEF_XSCAN(xc128, ndt_c128, CMAXP, CMINP, CMAXI, CMINI, NOOP, NOOP, NOOP, csub128)

/* One entry per dtype: sums and products (op 0, 1) by the wrapping
 * unsigned kernels, the others by the dtype's own. */
#define DEF_ENTRY(NAME, SUMS, X)                                                         \
  static void NAME##_s(const char *x, int64_t m, void *acc, int *started, char *out,     \
                       int64_t os, int op, int nan) {                                    \
    if (op <= NDT_SK_MUL) SUMS##_scan(x, m, acc, started, out, os, op, nan);             \
    else X##_xscan(x, m, acc, started, out, os, op);                                     \
  }                                                                                      \
  static void NAME##_c(const char *c, char *r, int64_t rs, int64_t n, int op) {          \
    if (op <= NDT_SK_MUL) SUMS##_comb(c, r, rs, n, op);                                  \
    else X##_xcomb(c, r, rs, n, op);                                                     \
  }
DEF_ENTRY(eb8, b8, xb8)
DEF_ENTRY(ei8, u8, xi8)
DEF_ENTRY(ei16, u16, xi16)
DEF_ENTRY(ei32, u32, xi32)
DEF_ENTRY(ei64, u64, xi64)
DEF_ENTRY(eu8, u8, xu8)
DEF_ENTRY(eu16, u16, xu16)
DEF_ENTRY(eu32, u32, xu32)
DEF_ENTRY(eu64, u64, xu64)
DEF_ENTRY(ef32, f32, xf32)
DEF_ENTRY(ef64, f64, xf64)
DEF_ENTRY(ec64, c64, xc64)
DEF_ENTRY(ec128, c128, xc128)

void ndt__cpu_scan(ndt_dtype t, ndt_scan_fn *s, ndt_comb_fn *c) {
  switch (t) {
    case NDT_BOOL: *s = eb8_s; *c = eb8_c; break;
    case NDT_INT8: *s = ei8_s; *c = ei8_c; break;
    case NDT_INT16: *s = ei16_s; *c = ei16_c; break;
    case NDT_INT32: *s = ei32_s; *c = ei32_c; break;
    case NDT_INT64: *s = ei64_s; *c = ei64_c; break;
    case NDT_UINT8: *s = eu8_s; *c = eu8_c; break;
    case NDT_UINT16: *s = eu16_s; *c = eu16_c; break;
    case NDT_UINT32: *s = eu32_s; *c = eu32_c; break;
    case NDT_UINT64: *s = eu64_s; *c = eu64_c; break;
    case NDT_FLOAT32: *s = ef32_s; *c = ef32_c; break;
    case NDT_FLOAT64: *s = ef64_s; *c = ef64_c; break;
    case NDT_COMPLEX64: *s = ec64_s; *c = ec64_c; break;
    default: *s = ec128_s; *c = ec128_c; break;
  }
}
