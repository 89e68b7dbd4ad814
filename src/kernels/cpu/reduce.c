/* reduce.c - reduction kernels: runs into one accumulator, and elementwise
 * accumulation, per op and dtype. Float sums are pairwise, as NumPy's. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "kernels/kernels.h"
#include "cpu.h"

typedef float _Complex c64;
typedef double _Complex c128;

#define AT(T, p, i, s) (*(const T *)((p) + (i) * (s)))

/* The pairwise sum and the row accumulation have SIMD copies (NDT_COPIES,
 * cpu.h; NDT_PICK takes the installed one): the 8 accumulators become one
 * or two vector registers; the additions and their order stay, so do the
 * bits. */
/* Pairwise summation of a strided run (NumPy's scheme: 8 accumulators in
 * blocks of 128, recursion above; a short run adds from -0.0, as NumPy's,
 * so the sum of -0.0s is -0.0 and an initial=-0.0 keeps its sign). LD maps each loaded element: itself, or
 * 0 for NaN (nansum is NumPy's sum of the array with NaNs replaced by 0, so
 * the same tree over the whole run). */
#define PAIRWISE_C(V, CL, NAME, T, LD)                                           \
  CL static T NAME##_c##V(const T *p, int64_t n) {                              \
    if (n < 8) {                                                                \
      T r = -(T)0;                                                              \
      for (int64_t i = 0; i < n; i++) r += LD(p[i]);                            \
      return r;                                                                 \
    }                                                                           \
    if (n <= 128) {                                                             \
      T r[8];                                                                   \
      for (int j = 0; j < 8; j++) r[j] = LD(p[j]);                              \
      int64_t i;                                                                \
      for (i = 8; i < n - (n % 8); i += 8)                                      \
        for (int j = 0; j < 8; j++) r[j] += LD(p[i + j]);                       \
      T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])); \
      for (; i < n; i++) res += LD(p[i]);                                       \
      return res;                                                               \
    }                                                                           \
    int64_t h = n / 2;                                                          \
    h -= h % 8;                                                                 \
    return NAME##_c##V(p, h) + NAME##_c##V(p + h, n - h);                       \
  }
#define PAIRWISE(NAME, T, LD)                                                    \
  NDT_COPIES(PAIRWISE_C, NAME, T, LD)                                         \
  static T NAME(const char *p, int64_t s, int64_t n) {                          \
    if (s == (int64_t)sizeof(T)) return NDT_PICK(NAME##_c)((const T *)p, n);    \
    if (n < 8) {                                                                \
      T r = -(T)0;                                                              \
      for (int64_t i = 0; i < n; i++) r += LD(AT(T, p, i, s));                  \
      return r;                                                                 \
    }                                                                           \
    if (n <= 128) {                                                             \
      T r[8];                                                                   \
      for (int j = 0; j < 8; j++) r[j] = LD(AT(T, p, j, s));                    \
      int64_t i;                                                                \
      for (i = 8; i < n - (n % 8); i += 8)                                      \
        for (int j = 0; j < 8; j++) r[j] += LD(AT(T, p, i + j, s));             \
      T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])); \
      for (; i < n; i++) res += LD(AT(T, p, i, s));                             \
      return res;                                                               \
    }                                                                           \
    int64_t h = n / 2;                                                          \
    h -= h % 8;                                                                 \
    return NAME(p, s, h) + NAME(p + h * s, s, n - h);                           \
  }
#define LD_SELF(v) (v)
#define LD_NAN0(v) ((v) != (v) ? 0 : (v))
PAIRWISE(pw_f32, float, LD_SELF)
PAIRWISE(pw_f64, double, LD_SELF)
PAIRWISE(pwn_f32, float, LD_NAN0)
PAIRWISE(pwn_f64, double, LD_NAN0)

/* Complex pairwise summation as NumPy does it: its loop runs over the 2n
 * real and imaginary parts with the real scheme's thresholds, so in complex
 * elements: sequential below 4, 4 accumulators in blocks of 64, and the
 * first half of a split has (n - n % 8) / 2 elements. Complex additions are
 * per component, so adding complex values is adding NumPy's parts. */
#define CPAIRWISE_V(V, CL, NAME, T, LD)                                          \
  CL static T NAME##_v##V(const char *p, int64_t s, int64_t n) {                 \
    if (n < 4) {                                                                \
      T r = -(T)0;                                                              \
      for (int64_t i = 0; i < n; i++) r += LD(AT(T, p, i, s));                  \
      return r;                                                                 \
    }                                                                           \
    if (n <= 64) {                                                              \
      T r[4];                                                                   \
      for (int j = 0; j < 4; j++) r[j] = LD(AT(T, p, j, s));                    \
      int64_t i;                                                                \
      for (i = 4; i < n - (n % 4); i += 4)                                      \
        for (int j = 0; j < 4; j++) r[j] += LD(AT(T, p, i + j, s));             \
      T res = (r[0] + r[1]) + (r[2] + r[3]);                                    \
      for (; i < n; i++) res += LD(AT(T, p, i, s));                             \
      return res;                                                               \
    }                                                                           \
    int64_t h = (n - n % 8) / 2;                                                \
    return NAME##_v##V(p, s, h) + NAME##_v##V(p + h * s, s, n - h);             \
  }
#define CPAIRWISE(NAME, T, LD)                                                   \
  NDT_COPIES(CPAIRWISE_V, NAME, T, LD)                                          \
  static T NAME(const char *p, int64_t s, int64_t n) { return NDT_PICK(NAME##_v)(p, s, n); }
#define LD_CNAN0(v) (isnan(creal(v)) || isnan(cimag(v)) ? 0 : (v))
CPAIRWISE(pw_c64, c64, LD_SELF)
CPAIRWISE(pw_c128, c128, LD_SELF)
CPAIRWISE(pwn_c64, c64, LD_CNAN0)
CPAIRWISE(pwn_c128, c128, LD_CNAN0)

/* Sum and product for integers: wraparound in unsigned arithmetic. */
#define INT_SUMPROD(T, U)                                                         \
  static void sum_run_##T(char *acc, const char *p, int64_t s, int64_t n) {      \
    U r = (U) * (T *)acc;                                                        \
    if (s == (int64_t)sizeof(T)) {                                               \
      const U *q = (const U *)p;                                                 \
      for (int64_t i = 0; i < n; i++) r += q[i];                                 \
    } else {                                                                     \
      for (int64_t i = 0; i < n; i++) r += (U)AT(T, p, i, s);                    \
    }                                                                            \
    *(T *)acc = (T)r;                                                            \
  }                                                                              \
  static void sum_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    if (as == (int64_t)sizeof(T) && s == (int64_t)sizeof(T)) {                   \
      U *restrict d = (U *)a;                                                    \
      const U *restrict q = (const U *)p;                                        \
      for (int64_t i = 0; i < n; i++) d[i] += q[i];                              \
      return;                                                                    \
    }                                                                            \
    for (int64_t i = 0; i < n; i++) {                                            \
      T *d = (T *)(a + i * as);                                                  \
      *d = (T)((U)*d + (U)AT(T, p, i, s));                                       \
    }                                                                            \
  }                                                                              \
  static void prod_run_##T(char *acc, const char *p, int64_t s, int64_t n) {     \
    U r = (U) * (T *)acc;                                                        \
    for (int64_t i = 0; i < n; i++) r *= (U)AT(T, p, i, s);                      \
    *(T *)acc = (T)r;                                                            \
  }                                                                              \
  static void prod_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    for (int64_t i = 0; i < n; i++) {                                            \
      T *d = (T *)(a + i * as);                                                  \
      *d = (T)((U)*d * (U)AT(T, p, i, s));                                       \
    }                                                                            \
  }
INT_SUMPROD(int8_t, uint8_t)
INT_SUMPROD(int16_t, uint16_t)
INT_SUMPROD(int32_t, uint32_t)
INT_SUMPROD(int64_t, uint64_t)
INT_SUMPROD(uint8_t, uint8_t)
INT_SUMPROD(uint16_t, uint16_t)
INT_SUMPROD(uint32_t, uint32_t)
INT_SUMPROD(uint64_t, uint64_t)

/* NumPy's scalar complex product (its reduction loop's): C's * on complex
 * types recovers infinities from NaN results (Annex G), NumPy does not. */
static inline c64 cmul_c64(c64 a, c64 b) {
  return CMPLXF(crealf(a) * crealf(b) - cimagf(a) * cimagf(b),
                crealf(a) * cimagf(b) + cimagf(a) * crealf(b));
}
static inline c128 cmul_c128(c128 a, c128 b) {
  return CMPLX(creal(a) * creal(b) - cimag(a) * cimag(b),
               creal(a) * cimag(b) + cimag(a) * creal(b));
}

#define FLT_SUM_ACC(V, CL, T)                                                     \
  CL static void sum_acc_##T##V(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    if (as == (int64_t)sizeof(T) && s == (int64_t)sizeof(T)) {                   \
      T *restrict d = (T *)a;                                                    \
      const T *restrict q = (const T *)p;                                        \
      for (int64_t i = 0; i < n; i++) d[i] += q[i];                              \
      return;                                                                    \
    }                                                                            \
    for (int64_t i = 0; i < n; i++) *(T *)(a + i * as) += AT(T, p, i, s);        \
  }

/* Float and complex sums (pairwise), products; NaN-ignoring variants
 * (products over leading axes below: REAL_PROD_ACC, CPLX_PROD_ACC). */
#define FLT_SUMPROD(T, PW, PWN, ISNAN, MUL, ONE)                                                \
  static void sum_run_##T(char *acc, const char *p, int64_t s, int64_t n) {      \
    *(T *)acc += PW(p, s, n);                                                    \
  }                                                                              \
  NDT_COPIES(FLT_SUM_ACC, T)                                                     \
  static void prod_run_##T(char *acc, const char *p, int64_t s, int64_t n) {     \
    T r = *(T *)acc;                                                             \
    for (int64_t i = 0; i < n; i++) r = MUL(r, AT(T, p, i, s));                  \
    *(T *)acc = r;                                                               \
  }                                                                              \
  static void nansum_run_##T(char *acc, const char *p, int64_t s, int64_t n) {   \
    *(T *)acc += PWN(p, s, n);                                                   \
  }                                                                              \
  /* a NaN adds 0, as NumPy's sum of the NaNs replaced: -0.0 + 0 is +0.0 */    \
  static void nansum_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    for (int64_t i = 0; i < n; i++) {                                            \
      T v = AT(T, p, i, s);                                                      \
      *(T *)(a + i * as) += ISNAN(v) ? 0 : v;                                    \
    }                                                                            \
  }                                                                              \
  /* nanprod is NumPy's prod of the array with NaNs replaced by 1: for     \
   * complex values a product with 1+0j is not always a no-op (inf * 0) */     \
  static void nanprod_run_##T(char *acc, const char *p, int64_t s, int64_t n) {  \
    T r = *(T *)acc;                                                             \
    for (int64_t i = 0; i < n; i++) {                                            \
      T v = AT(T, p, i, s);                                                      \
      r = MUL(r, ISNAN(v) ? ONE : v);                                            \
    }                                                                            \
    *(T *)acc = r;                                                               \
  }
#define RNAN(v) ((v) != (v))
#define CNAN(v) (isnan(crealf(v)) || isnan(cimagf(v)))
#define ZNAN(v) (isnan(creal(v)) || isnan(cimag(v)))
#define RMUL(a, b) ((a) * (b))
FLT_SUMPROD(float, pw_f32, pwn_f32, RNAN, RMUL, 1.0f)
FLT_SUMPROD(double, pw_f64, pwn_f64, RNAN, RMUL, 1.0)
FLT_SUMPROD(c64, pw_c64, pwn_c64, CNAN, cmul_c64, 1.0f)
FLT_SUMPROD(c128, pw_c128, pwn_c128, ZNAN, cmul_c128, 1.0)

/* Row accumulation of products (prod over leading axes): real types
 * multiply in place; complex types as NumPy's elementwise multiply loop
 * (which NumPy's reduction over a leading axis runs, row by row): fused
 * multiply-adds on FMA hardware, as loops_complex.c does. */
#define REAL_PROD_ACC(T)                                                          \
  static void prod_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    for (int64_t i = 0; i < n; i++) *(T *)(a + i * as) *= AT(T, p, i, s);        \
  }                                                                              \
  static void nanprod_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    for (int64_t i = 0; i < n; i++) {                                            \
      T v = AT(T, p, i, s);                                                      \
      if (v == v) *(T *)(a + i * as) *= v;                                       \
    }                                                                            \
  }
REAL_PROD_ACC(float)
REAL_PROD_ACC(double)
#if defined(__x86_64__) && defined(__GNUC__)
#define RED_FMA_TARGET __attribute__((target("avx2,fma")))
#else
#define RED_FMA_TARGET
#endif
#define CPLX_PROD_ACC(T, FT, FMA, MK, RE, IM, ISNAN)                              \
  static inline T cmul_fused_##T(T a, T b) {                                     \
    const FT ii = IM(a) * IM(b), ir = IM(a) * RE(b);                             \
    return MK(FMA(RE(a), RE(b), -ii), FMA(RE(a), IM(b), ir));                    \
  }                                                                              \
  RED_FMA_TARGET static void prod_acc_fma_##T(char *a, int64_t as, const char *p, int64_t s, \
                                              int64_t n, int nan) {              \
    for (int64_t i = 0; i < n; i++) {                                            \
      T v = AT(T, p, i, s), *d = (T *)(a + i * as);                              \
      if (nan && ISNAN(v)) v = 1;                                                \
      *d = cmul_fused_##T(*d, v);                                                \
    }                                                                            \
  }                                                                              \
  static void prod_acc_plain_##T(char *a, int64_t as, const char *p, int64_t s,  \
                                 int64_t n, int nan) {                           \
    for (int64_t i = 0; i < n; i++) {                                            \
      T v = AT(T, p, i, s), *d = (T *)(a + i * as);                              \
      if (nan && ISNAN(v)) v = 1;                                                \
      *d = cmul_##T(*d, v);                                                      \
    }                                                                            \
  }                                                                              \
  static void prod_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    if (ndt_cpu_level() >= 2) prod_acc_fma_##T(a, as, p, s, n, 0);          \
    else prod_acc_plain_##T(a, as, p, s, n, 0);                                  \
  }                                                                              \
  static void nanprod_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    if (ndt_cpu_level() >= 2) prod_acc_fma_##T(a, as, p, s, n, 1);          \
    else prod_acc_plain_##T(a, as, p, s, n, 1);                                  \
  }
CPLX_PROD_ACC(c64, float, __builtin_fmaf, CMPLXF, crealf, cimagf, CNAN)
CPLX_PROD_ACC(c128, double, __builtin_fma, CMPLX, creal, cimag, ZNAN)



/* "a is better than b": for MIN a < b, for MAX a > b. NaN propagates for
 * MIN/MAX (a NaN beats everything); NANMIN/NANMAX skip NaN. */
#define LT(a, b) ((a) < (b))
#define GT(a, b) ((a) > (b))
#define CLT(a, b) (creal(a) < creal(b) || (creal(a) == creal(b) && cimag(a) < cimag(b)))
#define CGT(a, b) (creal(a) > creal(b) || (creal(a) == creal(b) && cimag(a) > cimag(b)))

/* The row accumulation (min/max over leading axes: a result row against
 * each input row) is elementwise, so its contiguous case has SIMD copies
 * (NDT_COPIES): the same comparison per element, written without branches
 * so that gcc vectorises it (the strided loop ran 5-6x NumPy's time on an
 * (8, 4e6) max over axis 0). */
#define MINMAX_ACC_C(V, CL, NAME, T, F)                                           \
  CL static void NAME##_accc_##T##V(T *restrict d, const T *restrict q, int64_t n) { \
    for (int64_t i = 0; i < n; i++) d[i] = F(d[i], q[i]);                        \
  }
#define MINMAX(NAME, T, BETTER, ISNAN)                                           \
  static inline T NAME##_1_##T(T a, T v) {                                           \
    return ((ISNAN(v) | BETTER(v, a)) & !ISNAN(a)) ? v : a;                      \
  }                                                                              \
  static inline T nan##NAME##_1_##T(T a, T v) {                                      \
    return ((!ISNAN(v)) & (ISNAN(a) | BETTER(v, a))) ? v : a;                    \
  }                                                                              \
  NDT_COPIES(MINMAX_ACC_C, NAME, T, NAME##_1_##T)                                \
  NDT_COPIES(MINMAX_ACC_C, nan##NAME, T, nan##NAME##_1_##T)                      \
  static void NAME##_run_##T(char *acc, const char *p, int64_t s, int64_t n) {   \
    T r = *(T *)acc;                                                             \
    for (int64_t i = 0; i < n; i++) r = NAME##_1_##T(r, AT(T, p, i, s));             \
    *(T *)acc = r;                                                               \
  }                                                                              \
  static void NAME##_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    if (as == (int64_t)sizeof(T) && s == (int64_t)sizeof(T)) {                   \
      NDT_PICK(NAME##_accc_##T)((T *)a, (const T *)p, n);                        \
      return;                                                                    \
    }                                                                            \
    for (int64_t i = 0; i < n; i++) {                                            \
      T *d = (T *)(a + i * as);                                                  \
      *d = NAME##_1_##T(*d, AT(T, p, i, s));                                         \
    }                                                                            \
  }                                                                              \
  __attribute__((unused)) static void nan##NAME##_run_##T(char *acc, const char *p, int64_t s, int64_t n) { \
    T r = *(T *)acc;                                                             \
    for (int64_t i = 0; i < n; i++) r = nan##NAME##_1_##T(r, AT(T, p, i, s));        \
    *(T *)acc = r;                                                               \
  }                                                                              \
  __attribute__((unused)) static void nan##NAME##_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    if (as == (int64_t)sizeof(T) && s == (int64_t)sizeof(T)) {                   \
      NDT_PICK(nan##NAME##_accc_##T)((T *)a, (const T *)p, n);                   \
      return;                                                                    \
    }                                                                            \
    for (int64_t i = 0; i < n; i++) {                                            \
      T *d = (T *)(a + i * as);                                                  \
      *d = nan##NAME##_1_##T(*d, AT(T, p, i, s));                                    \
    }                                                                            \
  }
#define NONAN(v) 0
#define MINMAX_ALL(T, ISNAN, L, G) MINMAX(min, T, L, ISNAN) MINMAX(max, T, G, ISNAN)

/* Integers: the minimum and maximum of a run do not depend on the order in
 * which its elements are compared, so a contiguous run is reduced in vector
 * registers (SIMD copies, NDT_COPIES) with the same result; bincount's
 * bounds check reads its whole index array this way. */
#define INT_MINMAX_C(V, CL, NAME, T, BETTER)                                      \
  CL static T NAME##_c_##T##V(T r, const T *restrict p, int64_t n) {             \
    for (int64_t i = 0; i < n; i++) r = BETTER(p[i], r) ? p[i] : r;              \
    return r;                                                                    \
  }
#define INT_MINMAX(NAME, T, BETTER)                                               \
  NDT_COPIES(INT_MINMAX_C, NAME, T, BETTER)                                      \
  static void NAME##_runc_##T(char *acc, const char *p, int64_t s, int64_t n) {  \
    if (s != (int64_t)sizeof(T)) {                                               \
      NAME##_run_##T(acc, p, s, n);                                              \
      return;                                                                    \
    }                                                                            \
    *(T *)acc = NDT_PICK(NAME##_c_##T)(*(T *)acc, (const T *)p, n);              \
  }
#define INT_MINMAX_ALL(T)                                                         \
  MINMAX_ALL(T, NONAN, LT, GT) INT_MINMAX(min, T, LT) INT_MINMAX(max, T, GT)
INT_MINMAX_ALL(uint8_t)   /* also bool */
INT_MINMAX_ALL(int8_t)
INT_MINMAX_ALL(int16_t)
INT_MINMAX_ALL(int32_t)
INT_MINMAX_ALL(int64_t)
INT_MINMAX_ALL(uint16_t)
INT_MINMAX_ALL(uint32_t)
INT_MINMAX_ALL(uint64_t)
MINMAX_ALL(float, RNAN, LT, GT)
MINMAX_ALL(double, RNAN, LT, GT)

/* Float runs: the loop above takes the first NaN, and of equal elements
 * the first (the sign of a zero). A contiguous run is first folded into up
 * to 256 lanes by the row accumulation's SIMD copies (each lane keeps its
 * first NaN); where the lanes' result is no NaN and not zero, the maximum
 * (minimum) is one value whatever the order, so those are the loop's bits;
 * otherwise the loop runs. */
#define FMINMAX_RUN(NAME, T, BETTER)                                              \
  static void NAME##_runc_##T(char *acc, const char *p, int64_t s, int64_t n) {  \
    T r = *(T *)acc;                                                             \
    if (s == (int64_t)sizeof(T) && n >= 32 && r == r) {                          \
      const T *q = (const T *)p;                                                 \
      T m[256];                                                                  \
      int64_t w = n < 256 ? n : 256, i = w;                                      \
      memcpy(m, q, (size_t)w * sizeof(T));                                       \
      for (; i + w <= n; i += w) NDT_PICK(NAME##_accc_##T)(m, q + i, w);        \
      if (i < n) NDT_PICK(NAME##_accc_##T)(m, q + i, n - i);                     \
      T v = m[0];                                                                \
      for (int64_t j = 1; j < w; j++) v = NAME##_1_##T(v, m[j]);                 \
      if (v == v && v != 0) {                                                    \
        *(T *)acc = BETTER(v, r) ? v : r;                                        \
        return;                                                                  \
      }                                                                          \
    }                                                                            \
    NAME##_run_##T(acc, p, s, n);                                                \
  }
FMINMAX_RUN(min, float, LT)
FMINMAX_RUN(max, float, GT)
FMINMAX_RUN(min, double, LT)
FMINMAX_RUN(max, double, GT)
#define min_runc_c64 min_run_c64   /* (complex runs: the loop alone) */
#define max_runc_c64 max_run_c64
#define min_runc_c128 min_run_c128
#define max_runc_c128 max_run_c128
MINMAX_ALL(c64, CNAN, CLT, CGT)
MINMAX_ALL(c128, ZNAN, CLT, CGT)

static void any_run(char *acc, const char *p, int64_t s, int64_t n) {
  uint8_t r = *(uint8_t *)acc;
  for (int64_t i = 0; i < n && !r; i++) r = AT(uint8_t, p, i, s) != 0;
  *(uint8_t *)acc = r;
}
static void any_acc(char *a, int64_t as, const char *p, int64_t s, int64_t n) {
  for (int64_t i = 0; i < n; i++) a[i * as] = a[i * as] || AT(uint8_t, p, i, s);
}
static void all_run(char *acc, const char *p, int64_t s, int64_t n) {
  uint8_t r = *(uint8_t *)acc;
  for (int64_t i = 0; i < n && r; i++) r = AT(uint8_t, p, i, s) != 0;
  *(uint8_t *)acc = r;
}
static void all_acc(char *a, int64_t as, const char *p, int64_t s, int64_t n) {
  for (int64_t i = 0; i < n; i++) a[i * as] = a[i * as] && AT(uint8_t, p, i, s);
}

/* The bitwise reductions (bool's bytes hold 0 or 1, so its are the
 * integers' loops on uint8) and logical_xor's into bool. */
#define BITWISE(NAME, T, OP)                                                      \
  static void NAME##_run_##T(char *acc, const char *p, int64_t s, int64_t n) {   \
    T r = *(T *)acc;                                                             \
    if (s == (int64_t)sizeof(T)) {                                               \
      const T *q = (const T *)p;                                                 \
      for (int64_t i = 0; i < n; i++) r OP q[i];                                 \
    } else {                                                                     \
      for (int64_t i = 0; i < n; i++) r OP AT(T, p, i, s);                       \
    }                                                                            \
    *(T *)acc = r;                                                               \
  }                                                                              \
  static void NAME##_acc_##T(char *a, int64_t as, const char *p, int64_t s, int64_t n) { \
    if (as == (int64_t)sizeof(T) && s == (int64_t)sizeof(T)) {                   \
      T *restrict d = (T *)a;                                                    \
      const T *restrict q = (const T *)p;                                        \
      for (int64_t i = 0; i < n; i++) d[i] OP q[i];                              \
      return;                                                                    \
    }                                                                            \
    for (int64_t i = 0; i < n; i++) *(T *)(a + i * as) OP AT(T, p, i, s);        \
  }
#define BITWISE_ALL(T) BITWISE(band, T, &=) BITWISE(bor, T, |=) BITWISE(bxor, T, ^=)
BITWISE_ALL(uint8_t)
BITWISE_ALL(uint16_t)
BITWISE_ALL(uint32_t)
BITWISE_ALL(uint64_t)
static void lxor_run(char *acc, const char *p, int64_t s, int64_t n) {
  uint8_t r = *(uint8_t *)acc;
  for (int64_t i = 0; i < n; i++) r ^= AT(uint8_t, p, i, s) != 0;
  *(uint8_t *)acc = r;
}
static void lxor_acc(char *a, int64_t as, const char *p, int64_t s, int64_t n) {
  for (int64_t i = 0; i < n; i++) a[i * as] = (a[i * as] != 0) ^ (AT(uint8_t, p, i, s) != 0);
}

#define SETK(R, A, T, V)                                                          \
  do {                                                                           \
    k->run = R;                                                                  \
    k->acc = A;                                                                  \
    T id_ = (V);                                                                 \
    memcpy(k->identity, &id_, sizeof id_);                                       \
  } while (0)

#define CASE_INT(E, T, MINV, MAXV, U)                                            \
  case E:                                                                        \
    switch (op) {                                                                \
      case NDT_RED_BITWISE_AND: SETK(band_run_##U, band_acc_##U, U, (U)~(U)0); return 0; \
      case NDT_RED_BITWISE_OR: SETK(bor_run_##U, bor_acc_##U, U, 0); return 0;   \
      case NDT_RED_BITWISE_XOR: SETK(bxor_run_##U, bxor_acc_##U, U, 0); return 0; \
      case NDT_RED_SUM: case NDT_RED_NANSUM: SETK(sum_run_##T, sum_acc_##T, T, 0); return 0; \
      case NDT_RED_PROD: case NDT_RED_NANPROD: SETK(prod_run_##T, prod_acc_##T, T, 1); return 0; \
      case NDT_RED_MIN: case NDT_RED_NANMIN: SETK(min_runc_##T, min_acc_##T, T, MAXV); return 0; \
      case NDT_RED_MAX: case NDT_RED_NANMAX: SETK(max_runc_##T, max_acc_##T, T, MINV); return 0; \
      default: return -1;                                                        \
    }

#define CASE_FLT(E, T, INF, NANV)                                                 \
  case E:                                                                        \
    switch (op) {                                                                \
      case NDT_RED_SUM: SETK(sum_run_##T, NDT_PICK(sum_acc_##T), T, 0); return 0; \
      case NDT_RED_NANSUM: SETK(nansum_run_##T, nansum_acc_##T, T, 0); return 0; \
      case NDT_RED_PROD: SETK(prod_run_##T, prod_acc_##T, T, 1); return 0;       \
      case NDT_RED_NANPROD: SETK(nanprod_run_##T, nanprod_acc_##T, T, 1); return 0; \
      case NDT_RED_MIN: SETK(min_runc_##T, min_acc_##T, T, INF); return 0;       \
      case NDT_RED_MAX: SETK(max_runc_##T, max_acc_##T, T, -(INF)); return 0;    \
      case NDT_RED_NANMIN: SETK(nanmin_run_##T, nanmin_acc_##T, T, NANV); return 0; \
      case NDT_RED_NANMAX: SETK(nanmax_run_##T, nanmax_acc_##T, T, NANV); return 0; \
      default: return -1;                                                        \
    }

int ndt__cpu_reduce_kernel(ndt_reduce_op op, ndt_dtype t, ndt_red_kernel *k) {
  memset(k, 0, sizeof *k);
  switch (t) {
    case NDT_BOOL:
      switch (op) {
        case NDT_RED_ANY: case NDT_RED_SUM: case NDT_RED_NANSUM: case NDT_RED_MAX:
        case NDT_RED_NANMAX:
          SETK(any_run, any_acc, uint8_t, 0);
          return 0;
        case NDT_RED_ALL: case NDT_RED_PROD: case NDT_RED_NANPROD: case NDT_RED_MIN:
        case NDT_RED_NANMIN:
          SETK(all_run, all_acc, uint8_t, 1);
          return 0;
        case NDT_RED_BITWISE_AND: SETK(band_run_uint8_t, band_acc_uint8_t, uint8_t, 1); return 0;
        case NDT_RED_BITWISE_OR: SETK(bor_run_uint8_t, bor_acc_uint8_t, uint8_t, 0); return 0;
        case NDT_RED_BITWISE_XOR: SETK(bxor_run_uint8_t, bxor_acc_uint8_t, uint8_t, 0); return 0;
        case NDT_RED_LOGICAL_XOR: SETK(lxor_run, lxor_acc, uint8_t, 0); return 0;
        default: return -1;
      }
    CASE_INT(NDT_INT8, int8_t, INT8_MIN, INT8_MAX, uint8_t)
    CASE_INT(NDT_INT16, int16_t, INT16_MIN, INT16_MAX, uint16_t)
    CASE_INT(NDT_INT32, int32_t, INT32_MIN, INT32_MAX, uint32_t)
    CASE_INT(NDT_INT64, int64_t, INT64_MIN, INT64_MAX, uint64_t)
    CASE_INT(NDT_UINT8, uint8_t, 0, UINT8_MAX, uint8_t)
    CASE_INT(NDT_UINT16, uint16_t, 0, UINT16_MAX, uint16_t)
    CASE_INT(NDT_UINT32, uint32_t, 0, UINT32_MAX, uint32_t)
    CASE_INT(NDT_UINT64, uint64_t, 0, UINT64_MAX, uint64_t)
    CASE_FLT(NDT_FLOAT32, float, INFINITY, NAN)
    CASE_FLT(NDT_FLOAT64, double, INFINITY, NAN)
    CASE_FLT(NDT_COMPLEX64, c64, CMPLXF(INFINITY, INFINITY), CMPLXF(NAN, NAN))
    CASE_FLT(NDT_COMPLEX128, c128, CMPLX(INFINITY, INFINITY), CMPLX(NAN, NAN))
    default: return -1;
  }
}

/* ---- argmin / argmax ---- */
#define ARG(NAME, T, BETTER, ISNAN)                                               \
  static void NAME##_##T(const char *p, int64_t s, int64_t n, char *best, int64_t *bi, \
                         int64_t base) {                                         \
    T b = *(T *)best;                                                            \
    int64_t idx = *bi;                                                           \
    int64_t i = 0;                                                               \
    if (idx < 0 && n > 0) {                                                      \
      b = AT(T, p, 0, s);                                                        \
      idx = base;                                                                \
      i = 1;                                                                     \
    }                                                                            \
    if (!ISNAN(b))                                                               \
      for (; i < n; i++) {                                                       \
        T v = AT(T, p, i, s);                                                    \
        if (ISNAN(v)) { b = v; idx = base + i; break; }                          \
        if (BETTER(v, b)) { b = v; idx = base + i; }                             \
      }                                                                          \
    *(T *)best = b;                                                              \
    *bi = idx;                                                                   \
  }
#define ARG_ALL(T, ISNAN, L, G) ARG(argmin, T, L, ISNAN) ARG(argmax, T, G, ISNAN)
ARG_ALL(uint8_t, NONAN, LT, GT)
ARG_ALL(int8_t, NONAN, LT, GT)
ARG_ALL(int16_t, NONAN, LT, GT)
ARG_ALL(int32_t, NONAN, LT, GT)
ARG_ALL(int64_t, NONAN, LT, GT)
ARG_ALL(uint16_t, NONAN, LT, GT)
ARG_ALL(uint32_t, NONAN, LT, GT)
ARG_ALL(uint64_t, NONAN, LT, GT)
ARG_ALL(float, RNAN, LT, GT)
ARG_ALL(double, RNAN, LT, GT)
ARG_ALL(c64, CNAN, CLT, CGT)
ARG_ALL(c128, ZNAN, CLT, CGT)

ndt_arg_fn ndt__cpu_arg_kernel(ndt_reduce_op op, ndt_dtype t) {
  int mx = op == NDT_RED_ARGMAX;
  if (op != NDT_RED_ARGMIN && op != NDT_RED_ARGMAX) return NULL;
#define PICK(T) return mx ? argmax_##T : argmin_##T
  switch (t) {
    case NDT_BOOL: case NDT_UINT8: PICK(uint8_t);
    case NDT_INT8: PICK(int8_t);
    case NDT_INT16: PICK(int16_t);
    case NDT_INT32: PICK(int32_t);
    case NDT_INT64: PICK(int64_t);
    case NDT_UINT16: PICK(uint16_t);
    case NDT_UINT32: PICK(uint32_t);
    case NDT_UINT64: PICK(uint64_t);
    case NDT_FLOAT32: PICK(float);
    case NDT_FLOAT64: PICK(double);
    case NDT_COMPLEX64: PICK(c64);
    case NDT_COMPLEX128: PICK(c128);
    default: return NULL;
  }
#undef PICK
}
