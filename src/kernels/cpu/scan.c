/* scan.c - the CPU's cumulative sum and product kernels of one run, per
 * accumulator dtype (src/ops/scan.c cuts the work into blocks and carries
 * between them). Integers wrap in their unsigned type; NaN variants count
 * NaNs as the identity. */
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

void ndt__cpu_scan(ndt_dtype t, ndt_scan_fn *s, ndt_comb_fn *c) {
  switch (t) {
    case NDT_BOOL: *s = b8_scan; *c = b8_comb; break;
    case NDT_INT8: case NDT_UINT8: *s = u8_scan; *c = u8_comb; break;
    case NDT_INT16: case NDT_UINT16: *s = u16_scan; *c = u16_comb; break;
    case NDT_INT32: case NDT_UINT32: *s = u32_scan; *c = u32_comb; break;
    case NDT_INT64: case NDT_UINT64: *s = u64_scan; *c = u64_comb; break;
    case NDT_FLOAT32: *s = f32_scan; *c = f32_comb; break;
    case NDT_FLOAT64: *s = f64_scan; *c = f64_comb; break;
    case NDT_COMPLEX64: *s = c64_scan; *c = c64_comb; break;
    default: *s = c128_scan; *c = c128_comb; break;
  }
}
