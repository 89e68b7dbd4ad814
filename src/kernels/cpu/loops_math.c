/* loops_math.c - float32/float64 transcendental and rounding loops.
 *
 * Contiguous data runs through SLEEF's vectorised 1.0-ULP functions
 * (Sleef_*_u10; hypot is u05; sin/cos/tan the deterministic finz_/cinz_
 * versions, whose lanes do not depend on each other), picked at run time:
 * AVX-512F if the CPU has it, else AVX2+FMA, else SSE2; sqrt and
 * floor/ceil/trunc/rint use the hardware instructions (AVX-512F/AVX, libm
 * at SSE2). Strided data is
 * gathered into a small stack buffer and run through the same vector kernel,
 * so strided and contiguous results are bit-identical. Where SLEEF 3.5
 * overflows early (log1p, sinh, cosh, asinh, acosh near the ends of the
 * range) those elements are recomputed with libm. Off x86 (or at level 0)
 * the loops use libm. Results are within 4 ULP of NumPy's (checked over the
 * whole float range against NumPy 2.4; typically <= 1 ULP for float64).
 *
 * logaddexp uses NumPy's formula with libm; power/fmod & co live in
 * loops_arith.c.
 */
#include <stdatomic.h>
#include "loops_common.h"
#include "cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define NDT_X86 1
#include <immintrin.h>
#else
#define NDT_X86 0
#endif

/* ---- run-time dispatch level ------------------------------------------- */
/* 0 scalar libm, 1 SSE2, 2 AVX2+FMA, 3 AVX-512F */
static _Atomic int simd_cap = -1;   /* what the CPU supports */
static _Atomic int simd_max = 3;    /* test hook: upper bound */

static int detect_level(void) {
#if NDT_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 3;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 2;
  return 1;
#else
  return 0;
#endif
}

int ndt__cpu_simd_level(void) {
  int cap = atomic_load_explicit(&simd_cap, memory_order_relaxed);
  if (cap < 0) {
    cap = detect_level();
    atomic_store_explicit(&simd_cap, cap, memory_order_relaxed);
  }
  int mx = atomic_load_explicit(&simd_max, memory_order_relaxed);
  return cap < mx ? cap : mx;
}

int ndt__cpu_simd_cap(void) { return atomic_load_explicit(&simd_max, memory_order_relaxed); }

/* the loops read the level the table installed (table.c) */
#define simd_level ndt_cpu_level

/* The test hook's cap; ndt__cpu_set_simd_level (table.c, above this file)
 * sets it and installs the table again. */
void ndt__cpu_cap_simd(int level) {
  atomic_store_explicit(&simd_max, level > 3 ? 3 : level, memory_order_relaxed);
}

/* AVX2 alone (level 2 also needs FMA) and AVX-512F: what the copies of
 * the plain loops and the correlate copies need. */
int ndt__cpu_has_avx2(void) {
#if NDT_X86
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
#else
  return 0;
#endif
}

int ndt__cpu_has_avx512f(void) {
#if NDT_X86
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0;
#else
  return 0;
#endif
}

typedef void (*kd_fn)(const double *x, double *y, int64_t n);
typedef void (*kf_fn)(const float *x, float *y, int64_t n);
typedef void (*kd2_fn)(const double *x, const double *y, double *o, int64_t n);
typedef void (*kf2_fn)(const float *x, const float *y, float *o, int64_t n);

/* ---- scalar (libm) kernels ---------------------------------------------- */
#define SCALAR_K(NAME, FD, FF)                                                   \
  static void NAME##_d0(const double *x, double *y, int64_t n) {                 \
    for (int64_t i = 0; i < n; i++) y[i] = FD(x[i]);                             \
  }                                                                              \
  static void NAME##_f0(const float *x, float *y, int64_t n) {                   \
    for (int64_t i = 0; i < n; i++) y[i] = FF(x[i]);                             \
  }
#define SCALAR_K2(NAME, FD, FF)                                                  \
  static void NAME##_d0(const double *x, const double *y, double *o, int64_t n) { \
    for (int64_t i = 0; i < n; i++) o[i] = FD(x[i], y[i]);                       \
  }                                                                              \
  static void NAME##_f0(const float *x, const float *y, float *o, int64_t n) {   \
    for (int64_t i = 0; i < n; i++) o[i] = FF(x[i], y[i]);                       \
  }

#if NDT_X86
/* ---- vector kernel templates -------------------------------------------- */
/* AVX-512: masked tail */
#define K512_D(KN, VF)                                                           \
  __attribute__((target("avx512f"))) static void KN(const double *x, double *y, int64_t n) { \
    int64_t i = 0;                                                               \
    for (; i + 8 <= n; i += 8) _mm512_storeu_pd(y + i, VF(_mm512_loadu_pd(x + i))); \
    if (i < n) {                                                                 \
      __mmask8 m = (__mmask8)((1u << (unsigned)(n - i)) - 1u);                   \
      __m512d v = _mm512_mask_loadu_pd(_mm512_set1_pd(1.0), m, x + i);           \
      _mm512_mask_storeu_pd(y + i, m, VF(v));                                    \
    }                                                                            \
  }
#define K512_F(KN, VF)                                                           \
  __attribute__((target("avx512f"))) static void KN(const float *x, float *y, int64_t n) { \
    int64_t i = 0;                                                               \
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, VF(_mm512_loadu_ps(x + i))); \
    if (i < n) {                                                                 \
      __mmask16 m = (__mmask16)((1u << (unsigned)(n - i)) - 1u);                 \
      __m512 v = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, x + i);           \
      _mm512_mask_storeu_ps(y + i, m, VF(v));                                    \
    }                                                                            \
  }
#define K512_D2(KN, VF)                                                          \
  __attribute__((target("avx512f"))) static void KN(const double *x, const double *y, double *o, int64_t n) { \
    int64_t i = 0;                                                               \
    for (; i + 8 <= n; i += 8)                                                   \
      _mm512_storeu_pd(o + i, VF(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i))); \
    if (i < n) {                                                                 \
      __mmask8 m = (__mmask8)((1u << (unsigned)(n - i)) - 1u);                   \
      __m512d a = _mm512_mask_loadu_pd(_mm512_set1_pd(1.0), m, x + i);           \
      __m512d b = _mm512_mask_loadu_pd(_mm512_set1_pd(1.0), m, y + i);           \
      _mm512_mask_storeu_pd(o + i, m, VF(a, b));                                 \
    }                                                                            \
  }
#define K512_F2(KN, VF)                                                          \
  __attribute__((target("avx512f"))) static void KN(const float *x, const float *y, float *o, int64_t n) { \
    int64_t i = 0;                                                               \
    for (; i + 16 <= n; i += 16)                                                 \
      _mm512_storeu_ps(o + i, VF(_mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i))); \
    if (i < n) {                                                                 \
      __mmask16 m = (__mmask16)((1u << (unsigned)(n - i)) - 1u);                 \
      __m512 a = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, x + i);           \
      __m512 b = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, y + i);           \
      _mm512_mask_storeu_ps(o + i, m, VF(a, b));                                 \
    }                                                                            \
  }

/* AVX2 / SSE2: padded copy for the tail */
#define KV_1(KN, TGT, ET, VT, W, LD, ST, VF)                                     \
  TGT static void KN(const ET *x, ET *y, int64_t n) {                            \
    int64_t i = 0;                                                               \
    for (; i + W <= n; i += W) ST(y + i, VF(LD(x + i)));                         \
    if (i < n) {                                                                 \
      ET t[W];                                                                   \
      for (int k = 0; k < W; k++) t[k] = (ET)1;                                  \
      memcpy(t, x + i, (size_t)(n - i) * sizeof(ET));                            \
      VT r = VF(LD(t));                                                          \
      ST(t, r);                                                                  \
      memcpy(y + i, t, (size_t)(n - i) * sizeof(ET));                            \
    }                                                                            \
  }
#define KV_2(KN, TGT, ET, VT, W, LD, ST, VF)                                     \
  TGT static void KN(const ET *x, const ET *y, ET *o, int64_t n) {               \
    int64_t i = 0;                                                               \
    for (; i + W <= n; i += W) ST(o + i, VF(LD(x + i), LD(y + i)));              \
    if (i < n) {                                                                 \
      ET t[W], u[W];                                                             \
      for (int k = 0; k < W; k++) { t[k] = (ET)1; u[k] = (ET)1; }                \
      memcpy(t, x + i, (size_t)(n - i) * sizeof(ET));                            \
      memcpy(u, y + i, (size_t)(n - i) * sizeof(ET));                            \
      VT r = VF(LD(t), LD(u));                                                   \
      ST(t, r);                                                                  \
      memcpy(o + i, t, (size_t)(n - i) * sizeof(ET));                            \
    }                                                                            \
  }
#define T_AVX2 __attribute__((target("avx2,fma")))
#define T_SSE2

#define K256_D(KN, VF) KV_1(KN, T_AVX2, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, VF)
#define K256_F(KN, VF) KV_1(KN, T_AVX2, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, VF)
#define K128_D(KN, VF) KV_1(KN, T_SSE2, double, __m128d, 2, _mm_loadu_pd, _mm_storeu_pd, VF)
#define K128_F(KN, VF) KV_1(KN, T_SSE2, float, __m128, 4, _mm_loadu_ps, _mm_storeu_ps, VF)
#define K256_D2(KN, VF) KV_2(KN, T_AVX2, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, VF)
#define K256_F2(KN, VF) KV_2(KN, T_AVX2, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, VF)
#define K128_D2(KN, VF) KV_2(KN, T_SSE2, double, __m128d, 2, _mm_loadu_pd, _mm_storeu_pd, VF)
#define K128_F2(KN, VF) KV_2(KN, T_SSE2, float, __m128, 4, _mm_loadu_ps, _mm_storeu_ps, VF)

/* ---- SLEEF prototypes (declared here, each with the target it was built
 * for, so that the vector calling convention matches libsleef's) ---- */
#define TA512 __attribute__((target("avx512f")))
#define TA256 __attribute__((target("avx2,fma")))
#define SLEEF_DECL_512(SL, U)                                        \
  extern TA512 __m512d Sleef_##SL##d8_##U##avx512f(__m512d);        \
  extern TA512 __m512 Sleef_##SL##f16_##U##avx512f(__m512);
#define SLEEF_DECL_256(SL, U)                                        \
  extern TA256 __m256d Sleef_##SL##d4_##U##avx2(__m256d);           \
  extern TA256 __m256 Sleef_##SL##f8_##U##avx2(__m256);
#define SLEEF_DECL_128(SL, U)                                        \
  extern __m128d Sleef_##SL##d2_##U##sse2(__m128d);                 \
  extern __m128 Sleef_##SL##f4_##U##sse2(__m128);
#define SLEEF_DECL2_512(SL, U)                                       \
  extern TA512 __m512d Sleef_##SL##d8_##U##avx512f(__m512d, __m512d); \
  extern TA512 __m512 Sleef_##SL##f16_##U##avx512f(__m512, __m512);
#define SLEEF_DECL2_256(SL, U)                                       \
  extern TA256 __m256d Sleef_##SL##d4_##U##avx2(__m256d, __m256d);  \
  extern TA256 __m256 Sleef_##SL##f8_##U##avx2(__m256, __m256);
#define SLEEF_DECL2_128(SL, U)                                       \
  extern __m128d Sleef_##SL##d2_##U##sse2(__m128d, __m128d);        \
  extern __m128 Sleef_##SL##f4_##U##sse2(__m128, __m128);

#define SLEEF_UNARY_LIST(X)                                                      \
  X(exp, exp, u10) X(exp2, exp2, u10) X(expm1, expm1, u10) X(log, log, u10)      \
  X(log2, log2, u10) X(log10, log10, u10) X(log1p, log1p, u10)                   \
  X(asin, asin, u10)                                                             \
  X(acos, acos, u10) X(atan, atan, u10) X(sinh, sinh, u10) X(cosh, cosh, u10)    \
  X(tanh, tanh, u10) X(asinh, asinh, u10) X(acosh, acosh, u10)                   \
  X(atanh, atanh, u10) X(cbrt, cbrt, u10)
#define SLEEF_BINARY_LIST(X) X(atan2, atan2, u10) X(hypot, hypot, u05)

/* sin, cos and tan use SLEEF's deterministic entry points (finz_: FMA
 * targets, cinz_: SSE2), so that each lane's result depends on that lane
 * alone. The plain ones choose the range reduction once per vector: if any
 * lane is out of the fast range (|x| >= 125 for float, >= 15 and >= 1e14 for
 * the two steps for double; inf, NaN) every lane takes the slower one, whose
 * result is 1 ulp off for ordinary lanes, so a large neighbour (or where a
 * tile boundary cuts a row) changed an element's bits. The deterministic
 * ones compute the fast reduction for every lane and the slower ones only
 * when some lane needs them, selecting per lane: bit for bit the plain
 * functions' result on a vector whose lanes all take the same step
 * (checked over every float32 at each level, sampled for float64), at the
 * same speed on ordinary data. */
#define SLEEF_TRIG_LIST(X) X(sin, sin, u10) X(cos, cos, u10) X(tan, tan, u10)

#define DECL_U512(N, SL, U) SLEEF_DECL_512(SL, U)
#define DECL_U256(N, SL, U) SLEEF_DECL_256(SL, U)
#define DECL_U128(N, SL, U) SLEEF_DECL_128(SL, U)
#define DECL_B512(N, SL, U) SLEEF_DECL2_512(SL, U)
#define DECL_B256(N, SL, U) SLEEF_DECL2_256(SL, U)
#define DECL_B128(N, SL, U) SLEEF_DECL2_128(SL, U)

/* clang does not pass vectors in registers to a callee declared with a
 * wider target than the translation unit, so with clang only SLEEF's SSE2
 * entry points are used (the hardware sqrt/rounding paths still are). */
#if defined(__clang__)
#define NDT_SLEEF_WIDE 0
#else
#define NDT_SLEEF_WIDE 1
#endif
#define DECL_T512(N, SL, U) SLEEF_DECL_512(finz_##SL, U)
#define DECL_T256(N, SL, U) SLEEF_DECL_256(finz_##SL, U)
#define DECL_T128(N, SL, U) SLEEF_DECL_128(cinz_##SL, U)

#if NDT_SLEEF_WIDE
SLEEF_UNARY_LIST(DECL_U512)
SLEEF_BINARY_LIST(DECL_B512)
SLEEF_TRIG_LIST(DECL_T512)
SLEEF_UNARY_LIST(DECL_U256)
SLEEF_BINARY_LIST(DECL_B256)
SLEEF_TRIG_LIST(DECL_T256)
#endif
SLEEF_UNARY_LIST(DECL_U128)
SLEEF_BINARY_LIST(DECL_B128)
SLEEF_TRIG_LIST(DECL_T128)

/* ---- SLEEF kernels at each level ---- */
#if NDT_SLEEF_WIDE
#define GEN_SLEEF_U(N, SL, U)                                                    \
  K512_D(N##_d3, Sleef_##SL##d8_##U##avx512f)                                    \
  K512_F(N##_f3, Sleef_##SL##f16_##U##avx512f)                                   \
  K256_D(N##_d2, Sleef_##SL##d4_##U##avx2)                                       \
  K256_F(N##_f2, Sleef_##SL##f8_##U##avx2)                                       \
  K128_D(N##_d1, Sleef_##SL##d2_##U##sse2)                                       \
  K128_F(N##_f1, Sleef_##SL##f4_##U##sse2)
#define GEN_SLEEF_B(N, SL, U)                                                    \
  K512_D2(N##_d3, Sleef_##SL##d8_##U##avx512f)                                   \
  K512_F2(N##_f3, Sleef_##SL##f16_##U##avx512f)                                  \
  K256_D2(N##_d2, Sleef_##SL##d4_##U##avx2)                                      \
  K256_F2(N##_f2, Sleef_##SL##f8_##U##avx2)                                      \
  K128_D2(N##_d1, Sleef_##SL##d2_##U##sse2)                                      \
  K128_F2(N##_f1, Sleef_##SL##f4_##U##sse2)
#define GEN_SLEEF_T(N, SL, U)                                                    \
  K512_D(N##_d3, Sleef_finz_##SL##d8_##U##avx512f)                               \
  K512_F(N##_f3, Sleef_finz_##SL##f16_##U##avx512f)                              \
  K256_D(N##_d2, Sleef_finz_##SL##d4_##U##avx2)                                  \
  K256_F(N##_f2, Sleef_finz_##SL##f8_##U##avx2)                                  \
  K128_D(N##_d1, Sleef_cinz_##SL##d2_##U##sse2)                                  \
  K128_F(N##_f1, Sleef_cinz_##SL##f4_##U##sse2)
#else
#define GEN_SLEEF_U(N, SL, U)                                                    \
  K128_D(N##_d1, Sleef_##SL##d2_##U##sse2)                                       \
  K128_F(N##_f1, Sleef_##SL##f4_##U##sse2)
#define GEN_SLEEF_B(N, SL, U)                                                    \
  K128_D2(N##_d1, Sleef_##SL##d2_##U##sse2)                                      \
  K128_F2(N##_f1, Sleef_##SL##f4_##U##sse2)
#define GEN_SLEEF_T(N, SL, U)                                                    \
  K128_D(N##_d1, Sleef_cinz_##SL##d2_##U##sse2)                                  \
  K128_F(N##_f1, Sleef_cinz_##SL##f4_##U##sse2)
#endif
SLEEF_UNARY_LIST(GEN_SLEEF_U)
SLEEF_BINARY_LIST(GEN_SLEEF_B)
SLEEF_TRIG_LIST(GEN_SLEEF_T)

/* ---- hardware sqrt and rounding ---- */
#define AVX512_FN __attribute__((target("avx512f"))) static inline
#define AVX2_FN __attribute__((target("avx2,fma"))) static inline
#define RND_DN (_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define RND_UP (_MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)
#define RND_TZ (_MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define RND_NE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
AVX512_FN __m512d v8_sqrt(__m512d v) { return _mm512_sqrt_pd(v); }
AVX512_FN __m512 v16_sqrt(__m512 v) { return _mm512_sqrt_ps(v); }
AVX2_FN __m256d v4_sqrt(__m256d v) { return _mm256_sqrt_pd(v); }
AVX2_FN __m256 v8_sqrtf(__m256 v) { return _mm256_sqrt_ps(v); }
static inline __m128d v2_sqrt(__m128d v) { return _mm_sqrt_pd(v); }
static inline __m128 v4_sqrtf(__m128 v) { return _mm_sqrt_ps(v); }
#define ROUND_FNS(NM, MODE)                                                          \
  AVX512_FN __m512d v8_##NM(__m512d v) { return _mm512_roundscale_pd(v, MODE); }     \
  AVX512_FN __m512 v16_##NM(__m512 v) { return _mm512_roundscale_ps(v, MODE); }      \
  AVX2_FN __m256d v4_##NM(__m256d v) { return _mm256_round_pd(v, MODE); }            \
  AVX2_FN __m256 v8_##NM##f(__m256 v) { return _mm256_round_ps(v, MODE); }
ROUND_FNS(floor, RND_DN)
ROUND_FNS(ceil, RND_UP)
ROUND_FNS(trunc, RND_TZ)
ROUND_FNS(rint, RND_NE)

K512_D(sqrt_d3, v8_sqrt) K512_F(sqrt_f3, v16_sqrt)
K256_D(sqrt_d2, v4_sqrt) K256_F(sqrt_f2, v8_sqrtf)
K128_D(sqrt_d1, v2_sqrt) K128_F(sqrt_f1, v4_sqrtf)
#define GEN_ROUND(NM)                                         \
  K512_D(NM##_d3, v8_##NM) K512_F(NM##_f3, v16_##NM)          \
  K256_D(NM##_d2, v4_##NM) K256_F(NM##_f2, v8_##NM##f)
GEN_ROUND(floor)
GEN_ROUND(ceil)
GEN_ROUND(trunc)
GEN_ROUND(rint)

#define KSET_HW(N) {N##_d0, N##_d1, N##_d2, N##_d3}, {N##_f0, N##_f1, N##_f2, N##_f3}
#if NDT_SLEEF_WIDE
#define KSET_SLEEF(N) KSET_HW(N)
#else
#define KSET_SLEEF(N) {N##_d0, N##_d1, N##_d1, N##_d1}, {N##_f0, N##_f1, N##_f1, N##_f1}
#endif
#define KSET_ROUND(N) {N##_d0, N##_d0, N##_d2, N##_d3}, {N##_f0, N##_f0, N##_f2, N##_f3}
#else /* !NDT_X86: libm only */
#define KSET_SLEEF(N) {N##_d0, N##_d0, N##_d0, N##_d0}, {N##_f0, N##_f0, N##_f0, N##_f0}
#define KSET_ROUND(N) KSET_SLEEF(N)
#define KSET_HW(N) KSET_SLEEF(N)
#endif

/* libm kernels (level 0, and the reference off x86) */
SCALAR_K(exp, exp, expf)
SCALAR_K(exp2, exp2, exp2f)
SCALAR_K(expm1, expm1, expm1f)
SCALAR_K(log, log, logf)
SCALAR_K(log2, log2, log2f)
SCALAR_K(log10, log10, log10f)
SCALAR_K(log1p, log1p, log1pf)
SCALAR_K(sin, sin, sinf)
SCALAR_K(cos, cos, cosf)
SCALAR_K(tan, tan, tanf)
SCALAR_K(asin, asin, asinf)
SCALAR_K(acos, acos, acosf)
SCALAR_K(atan, atan, atanf)
SCALAR_K(sinh, sinh, sinhf)
SCALAR_K(cosh, cosh, coshf)
SCALAR_K(tanh, tanh, tanhf)
SCALAR_K(asinh, asinh, asinhf)
SCALAR_K(acosh, acosh, acoshf)
SCALAR_K(atanh, atanh, atanhf)
SCALAR_K(cbrt, cbrt, cbrtf)
SCALAR_K(sqrt, sqrt, sqrtf)
SCALAR_K(floor, floor, floorf)
SCALAR_K(ceil, ceil, ceilf)
SCALAR_K(trunc, trunc, truncf)
SCALAR_K(rint, rint, rintf)
SCALAR_K2(atan2, atan2, atan2f)
SCALAR_K2(hypot, hypot, hypotf)

typedef struct { kd_fn d[4]; kf_fn f[4]; } kset1;
typedef struct { kd2_fn d[4]; kf2_fn f[4]; } kset2;

/* ---- the functions, in one table ---- */
enum {
  K_EXP, K_EXP2, K_EXPM1, K_LOG, K_LOG2, K_LOG10, K_LOG1P, K_SIN, K_COS, K_TAN,
  K_ASIN, K_ACOS, K_ATAN, K_SINH, K_COSH, K_TANH, K_ASINH, K_ACOSH, K_ATANH,
  K_CBRT, K_SQRT, K_FLOOR, K_CEIL, K_TRUNC, K_RINT, K_N1
};
static const kset1 kset_tab[K_N1] = {
  [K_EXP] = {KSET_SLEEF(exp)},     [K_EXP2] = {KSET_SLEEF(exp2)},
  [K_EXPM1] = {KSET_SLEEF(expm1)}, [K_LOG] = {KSET_SLEEF(log)},
  [K_LOG2] = {KSET_SLEEF(log2)},   [K_LOG10] = {KSET_SLEEF(log10)},
  [K_LOG1P] = {KSET_SLEEF(log1p)}, [K_SIN] = {KSET_SLEEF(sin)},
  [K_COS] = {KSET_SLEEF(cos)},     [K_TAN] = {KSET_SLEEF(tan)},
  [K_ASIN] = {KSET_SLEEF(asin)},   [K_ACOS] = {KSET_SLEEF(acos)},
  [K_ATAN] = {KSET_SLEEF(atan)},   [K_SINH] = {KSET_SLEEF(sinh)},
  [K_COSH] = {KSET_SLEEF(cosh)},   [K_TANH] = {KSET_SLEEF(tanh)},
  [K_ASINH] = {KSET_SLEEF(asinh)}, [K_ACOSH] = {KSET_SLEEF(acosh)},
  [K_ATANH] = {KSET_SLEEF(atanh)}, [K_CBRT] = {KSET_SLEEF(cbrt)},
  [K_SQRT] = {KSET_HW(sqrt)},      [K_FLOOR] = {KSET_ROUND(floor)},
  [K_CEIL] = {KSET_ROUND(ceil)},   [K_TRUNC] = {KSET_ROUND(trunc)},
  [K_RINT] = {KSET_ROUND(rint)},
};
enum { K_ATAN2, K_HYPOT, K_N2 };
static const kset2 kset2_tab[K_N2] = {
  [K_ATAN2] = {KSET_SLEEF(atan2)}, [K_HYPOT] = {KSET_SLEEF(hypot)},
};

/* ---- range fix-ups --------------------------------------------------------
 * SLEEF 3.5's vector exp (double), log1p, sinh, cosh, asinh and acosh overflow to inf
 * before the true result does (log1p near DBL_MAX, sinh/cosh within ~0.7 of
 * the overflow threshold, asinh/acosh above ~1e154 (double) / ~1.8e19
 * (float)). Elements in those ranges are recomputed with libm. */
#define FIXUP(NAME, FD, FF, CD, CF)                                              \
  static void NAME##_fixd(const double *x, double *y, int64_t n) {               \
    for (int64_t i = 0; i < n; i++) { const double v = x[i]; if (CD) y[i] = FD(v); } \
  }                                                                              \
  static void NAME##_fixf(const float *x, float *y, int64_t n) {                 \
    for (int64_t i = 0; i < n; i++) { const float v = x[i]; if (CF) y[i] = FF(v); } \
  }
/* ... and its log1p, tan and asinh return 0 for subnormal x and miss by a
 * bit just above, where the result is x itself (x - x*x/2, x + x^3/3 and
 * x - x^3/6 round to x for |x| below about 1e-8) */
#define SUBN_D(v) ((v) != 0 && fabs(v) < 1e-200)
#define SUBN_F(v) ((v) != 0 && fabsf(v) < 1e-30f)
static inline double keep_d(double v) { return v; }
static inline float keep_f(float v) { return v; }
FIXUP(log1p, log1p, log1pf, v > 1e300 || SUBN_D(v), v > 1e37f || SUBN_F(v))
FIXUP(tan, keep_d, keep_f, SUBN_D(v), SUBN_F(v))
/* SLEEF's double exp gives inf for the last ~1e-12 below log(DBL_MAX)
 * (709.782712893384 -> 1.7976931348622732e308); its float exp is exact
 * there. An inf result is odd, so FV_RUN's value check sees that chunk
 * anyway: the fix runs there (exp_oddd), at no cost to other chunks. */
static int exp_oddd(const double *x, double *y, int64_t n) {
  int changed = 0;
  for (int64_t i = 0; i < n; i++)
    if (x[i] > 709.0 && x[i] < 710.0) { y[i] = exp(x[i]); changed = 1; }
  return changed;
}
typedef int (*oddd_fn)(const double *x, double *y, int64_t n);
typedef int (*oddf_fn)(const float *x, float *y, int64_t n);
FIXUP(sinh, sinh, sinhf, fabs(v) > 700.0, fabsf(v) > 85.0f)
FIXUP(cosh, cosh, coshf, fabs(v) > 700.0, fabsf(v) > 85.0f)
FIXUP(asinh, asinh, asinhf, fabs(v) > 1e150 || SUBN_D(v), fabsf(v) > 1e18f || SUBN_F(v))
FIXUP(acosh, acosh, acoshf, v > 1e150, v > 1e18f)

typedef void (*fixd_fn)(const double *x, double *y, int64_t n);
typedef void (*fixf_fn)(const float *x, float *y, int64_t n);

/* ---- drivers: contiguous -> kernel; strided -> gather/kernel/scatter ---- */
/* The kernels run on blocks; with a fix-up the input block is kept in a
 * buffer (the output may overwrite the input in place). */
#define BLK 256
#define DRIVER1(NAME, ET, KT, FT)                                                \
  static void NAME(KT k, FT fix, char **args, const int64_t *steps, int64_t n) { \
    char *ip = args[0], *op = args[1];                                           \
    const int64_t is = steps[0], os = steps[1];                                  \
    const int64_t es = (int64_t)sizeof(ET);                                      \
    if (is == es && os == es && !fix) { k((const ET *)ip, (ET *)op, n); return; } \
    ET bx[BLK], by[BLK];                                                         \
    while (n > 0) {                                                              \
      const int64_t m = n < BLK ? n : BLK;                                       \
      const ET *src = (const ET *)ip;                                            \
      if (is != es || fix) {                                                     \
        if (is == es) memcpy(bx, ip, (size_t)m * sizeof(ET));                    \
        else for (int64_t i = 0; i < m; i++) memcpy(&bx[i], ip + i * is, sizeof(ET)); \
        src = bx;                                                                \
      }                                                                          \
      ET *dst = os == es ? (ET *)op : by;                                        \
      k(src, dst, m);                                                            \
      if (fix) fix(src, dst, m);                                                 \
      if (os != es)                                                              \
        for (int64_t i = 0; i < m; i++) memcpy(op + i * os, &by[i], sizeof(ET)); \
      ip += m * is; op += m * os; n -= m;                                        \
    }                                                                            \
  }
DRIVER1(drive1_d, double, kd_fn, fixd_fn)
DRIVER1(drive1_f, float, kf_fn, fixf_fn)

#define DRIVER2(NAME, ET, KT)                                                    \
  static void NAME(KT k, char **args, const int64_t *steps, int64_t n) {         \
    char *ip1 = args[0], *ip2 = args[1], *op = args[2];                          \
    const int64_t s1 = steps[0], s2 = steps[1], so = steps[2];                   \
    const int64_t es = (int64_t)sizeof(ET);                                      \
    if (s1 == es && s2 == es && so == es) {                                      \
      k((const ET *)ip1, (const ET *)ip2, (ET *)op, n);                          \
      return;                                                                    \
    }                                                                            \
    ET bx[BLK], by[BLK], bo[BLK];                                                \
    while (n > 0) {                                                              \
      const int64_t m = n < BLK ? n : BLK;                                       \
      const ET *a = (const ET *)ip1, *b = (const ET *)ip2;                       \
      if (s1 != es) {                                                            \
        for (int64_t i = 0; i < m; i++) memcpy(&bx[i], ip1 + i * s1, sizeof(ET)); \
        a = bx;                                                                  \
      }                                                                          \
      if (s2 != es) {                                                            \
        for (int64_t i = 0; i < m; i++) memcpy(&by[i], ip2 + i * s2, sizeof(ET)); \
        b = by;                                                                  \
      }                                                                          \
      if (so == es) {                                                            \
        k(a, b, (ET *)op, m);                                                    \
      } else {                                                                   \
        k(a, b, bo, m);                                                          \
        for (int64_t i = 0; i < m; i++) memcpy(op + i * so, &bo[i], sizeof(ET)); \
      }                                                                          \
      ip1 += m * s1; ip2 += m * s2; op += m * so; n -= m;                        \
    }                                                                            \
  }
DRIVER2(drive2_d, double, kd2_fn)
DRIVER2(drive2_f, float, kf2_fn)

/* ---- floating-point errors from the values ------------------------------
 * SLEEF's kernels raise IEEE flags their results do not call for (invalid
 * from compares of NaN lanes, divide by zero and underflow in intermediate
 * steps), where NumPy's loops report what the result means. So these loops
 * put back the flags they found, and raise what the values say: scalar.h's
 * rule (ndt_sc_fv_*, NDT_SC_FV_*: the device's kernels report the same).
 * Each chunk's inputs are copied first: the output may overwrite them. */
/* Which chunks are looked at comes from the results alone (a screen of
 * their bits for NaN, infinity, 0 and subnormals), never from the flags
 * SLEEF's kernel raised: those depend on the instruction set it ran
 * (on AVX-512 its log(0) raised divide by zero, on AVX2 nothing, so
 * log(0) warned on one machine and not on the other), and log1p, exp2 and
 * atanh raise nothing for NaN or infinite results anywhere. */
enum { FV_NAN = NDT_SC_FV_NAN, FV_POLE = NDT_SC_FV_POLE, FV_GROW = NDT_SC_FV_GROW,
       FV_TINY = NDT_SC_FV_TINY, FV_SUB = NDT_SC_FV_SUB,
       FV_TINYNZ = NDT_SC_FV_TINYNZ };

#if NDT_X86
static inline unsigned fv_save(void) { return _mm_getcsr(); }
static inline void fv_restore(unsigned m) { _mm_setcsr(m); }
#else
#include <fenv.h>
static inline unsigned fv_save(void) {
  fexcept_t e;
  fegetexceptflag(&e, FE_ALL_EXCEPT);
  return (unsigned)e;
}
static inline void fv_restore(unsigned m) {
  fexcept_t e = (fexcept_t)m;
  fesetexceptflag(&e, FE_ALL_EXCEPT);
}
#endif

/* The checks on one chunk: plain arrays and no branches, so they
 * vectorise (the flags they raise themselves are dropped with SLEEF's). */
#define FVCHECK(NAME, ET, SFX)                                                   \
  static inline __attribute__((always_inline)) unsigned NAME(                   \
      int cls, int nin, const ET *x0, const ET *x1, const ET *y, int64_t n) {    \
    unsigned f = 0;                                                              \
    for (int64_t i = 0; i < n; i++)                                              \
      f |= ndt_sc_fv_##SFX(cls, x0[i], nin > 1 ? x1[i] : (ET)0, y[i]);           \
    return f;                                                                    \
  }
FVCHECK(fv_check_d, double, f64)
FVCHECK(fv_check_f, float, f32)

/* The cheap look first: is any of the chunk's m results (byte
 * stride s) a NaN, an infinity, 0 or subnormal? Only then are the values
 * checked in full (most data: none). */
#define FVSCREEN_BODY(UT, SHIFT, EMAX)                                             \
  {                                                                              \
    /* on the bits: integer work vectorises, and raises no flag */              \
    unsigned odd = 0;                                                            \
    if (s == (int64_t)sizeof(UT)) {                                              \
      const UT *y = (const UT *)p;                                               \
      for (int64_t i = 0; i < m; i++)                                            \
        odd |= (unsigned)(((y[i] >> SHIFT) & EMAX) - 1) >= EMAX - 1;             \
    } else {                                                                     \
      for (int64_t i = 0; i < m; i++) {                                          \
        UT v;                                                                    \
        memcpy(&v, p + i * s, sizeof v);                                         \
        odd |= (unsigned)(((v >> SHIFT) & EMAX) - 1) >= EMAX - 1;                \
      }                                                                          \
    }                                                                            \
    return odd != 0;                                                             \
  }
/* one copy per instruction set, picked as the kernels are (simd_level) */
#if NDT_X86
#define FVSCREEN(NAME, UT, SHIFT, EMAX)                                           \
  static int NAME##_0(const char *p, int64_t s, int64_t m) FVSCREEN_BODY(UT, SHIFT, EMAX) \
  __attribute__((target("avx2"))) static int NAME##_2(const char *p, int64_t s, int64_t m) \
    FVSCREEN_BODY(UT, SHIFT, EMAX)                                               \
  __attribute__((target("avx512f,avx512bw"))) static int NAME##_3(const char *p, int64_t s, \
                                                                 int64_t m)      \
    FVSCREEN_BODY(UT, SHIFT, EMAX)                                               \
  static inline int NAME(const char *p, int64_t s, int64_t m) {                  \
    const int l = simd_level();                                                  \
    return l >= 3 ? NAME##_3(p, s, m) : l >= 2 ? NAME##_2(p, s, m) : NAME##_0(p, s, m); \
  }
#else
#define FVSCREEN(NAME, UT, SHIFT, EMAX)                                           \
  static int NAME(const char *p, int64_t s, int64_t m) FVSCREEN_BODY(UT, SHIFT, EMAX)
#endif
FVSCREEN(fv_screen_d, uint64_t, 52, 0x7ffu)
FVSCREEN(fv_screen_f, uint32_t, 23, 0xffu)

/* a chunk of m elements at byte stride s into a packed buffer */
#define FV_GATHER(ET, dst, src, s, m)                                            \
  do {                                                                           \
    if ((s) == (int64_t)sizeof(ET)) memcpy(dst, src, (size_t)(m) * sizeof(ET));  \
    else for (int64_t i_ = 0; i_ < (m); i_++) memcpy(&(dst)[i_], (src) + i_ * (s), sizeof(ET)); \
  } while (0)

/* 1 when m elements at p (byte stride s) and at q (stride t) may overlap */
static inline int fv_alias(const char *p, int64_t s, const char *q, int64_t t, int64_t m) {
  const char *p0 = s < 0 ? p + (m - 1) * s : p, *p1 = s < 0 ? p : p + (m - 1) * s;
  const char *q0 = t < 0 ? q + (m - 1) * t : q, *q1 = t < 0 ? q : q + (m - 1) * t;
  return p0 <= q1 + 16 && q0 <= p1 + 16;
}

/* Runs CALL (the loop over args a, m elements) chunk by chunk, with the
 * flags from the values. The values are looked at in full only in chunks
 * with an odd result (SCREEN; most data has none); inputs the output may
 * overwrite are copied before. */
#define FV_RUN(ET, CHECK, NIN, CLS, CALL, SCREEN, ODD)                           \
  do {                                                                           \
    const unsigned saved_ = fv_save();                                           \
    unsigned fl_ = 0;                                                            \
    ET xb_[2][BLK], yb_[BLK];                                                    \
    for (int64_t c_ = 0; c_ < n; c_ += BLK) {                                    \
      const int64_t m = n - c_ < BLK ? n - c_ : BLK;                             \
      char *a[3];                                                                \
      for (int k_ = 0; k_ <= NIN; k_++) a[k_] = args[k_] + c_ * steps[k_];       \
      int alias_ = 0;                                                            \
      for (int k_ = 0; k_ < NIN; k_++)                                           \
        alias_ |= fv_alias(a[k_], steps[k_], a[NIN], steps[NIN], m);             \
      if (alias_)                                                                \
        for (int k_ = 0; k_ < NIN; k_++) FV_GATHER(ET, xb_[k_], a[k_], steps[k_], m); \
      CALL;                                                                      \
      if (SCREEN(a[NIN], steps[NIN], m)) {                                      \
        if (!alias_)                                                             \
          for (int k_ = 0; k_ < NIN; k_++) FV_GATHER(ET, xb_[k_], a[k_], steps[k_], m); \
        FV_GATHER(ET, yb_, a[NIN], steps[NIN], m);                               \
        int (*const odd_)(const ET *, ET *, int64_t) = (ODD);                    \
        if (odd_ && odd_(xb_[0], yb_, m)) /* odd results fixed, written back */  \
          for (int64_t i_ = 0; i_ < m; i_++) memcpy(a[NIN] + i_ * steps[NIN], &yb_[i_], sizeof(ET)); \
        fl_ |= CHECK(CLS, NIN, xb_[0], xb_[1], yb_, m);                          \
      }                                                                          \
    }                                                                            \
    fv_restore(saved_);                                                          \
    if (fl_) ndt_fpe_raise(fl_);                                                 \
  } while (0)

#define LOOP1FO(NAME, KID, FIXD, FIXF, ODDD, CLS)                                \
  static void NAME##_f64(char **args, const int64_t *steps, int64_t n) {         \
    const int l = simd_level();                                                  \
    FV_RUN(double, fv_check_d, 1, CLS, drive1_d(kset_tab[KID].d[l], l ? FIXD : 0, a, steps, m), \
           fv_screen_d, ODDD);                                                   \
  }                                                                              \
  static void NAME##_f32(char **args, const int64_t *steps, int64_t n) {         \
    const int l = simd_level();                                                  \
    FV_RUN(float, fv_check_f, 1, CLS, drive1_f(kset_tab[KID].f[l], l ? FIXF : 0, a, steps, m), \
           fv_screen_f, (oddf_fn)0);                                             \
  }
#define LOOP1F(NAME, KID, FIXD, FIXF, CLS) LOOP1FO(NAME, KID, FIXD, FIXF, (oddd_fn)0, CLS)
#define LOOP1(NAME, KID, CLS) LOOP1F(NAME, KID, (fixd_fn)0, (fixf_fn)0, CLS)
/* sqrt and the roundings: the hardware's flags are NumPy's */
#define LOOP1HW(NAME, KID)                                                       \
  static void NAME##_f64(char **args, const int64_t *steps, int64_t n) {         \
    const int l = simd_level();                                                  \
    drive1_d(kset_tab[KID].d[l], 0, args, steps, n);                             \
  }                                                                              \
  static void NAME##_f32(char **args, const int64_t *steps, int64_t n) {         \
    const int l = simd_level();                                                  \
    drive1_f(kset_tab[KID].f[l], 0, args, steps, n);                             \
  }
#define LOOP2(NAME, KID, CLS)                                                    \
  static void NAME##_f64(char **args, const int64_t *steps, int64_t n) {         \
    FV_RUN(double, fv_check_d, 2, CLS, drive2_d(kset2_tab[KID].d[simd_level()], a, steps, m), \
           fv_screen_d, (oddd_fn)0);                                             \
  }                                                                              \
  static void NAME##_f32(char **args, const int64_t *steps, int64_t n) {         \
    FV_RUN(float, fv_check_f, 2, CLS, drive2_f(kset2_tab[KID].f[simd_level()], a, steps, m), \
           fv_screen_f, (oddf_fn)0);                                             \
  }
LOOP1FO(l_exp, K_EXP, (fixd_fn)0, (fixf_fn)0, exp_oddd, FV_NAN | FV_GROW | FV_TINY)
LOOP1(l_exp2, K_EXP2, FV_NAN | FV_GROW | FV_TINY)
LOOP1(l_expm1, K_EXPM1, FV_NAN | FV_GROW)
LOOP1(l_log, K_LOG, FV_NAN | FV_POLE)
LOOP1(l_log2, K_LOG2, FV_NAN | FV_POLE)
LOOP1(l_log10, K_LOG10, FV_NAN | FV_POLE)
LOOP1F(l_log1p, K_LOG1P, log1p_fixd, log1p_fixf, FV_NAN | FV_POLE)
LOOP1(l_sin, K_SIN, FV_NAN | FV_SUB)
LOOP1(l_cos, K_COS, FV_NAN)
LOOP1F(l_tan, K_TAN, tan_fixd, tan_fixf, FV_NAN)
LOOP1(l_asin, K_ASIN, FV_NAN)
LOOP1(l_acos, K_ACOS, FV_NAN)
LOOP1(l_atan, K_ATAN, FV_NAN)
LOOP1F(l_sinh, K_SINH, sinh_fixd, sinh_fixf, FV_NAN | FV_GROW)
LOOP1F(l_cosh, K_COSH, cosh_fixd, cosh_fixf, FV_NAN | FV_GROW)
LOOP1(l_tanh, K_TANH, FV_NAN)
LOOP1F(l_asinh, K_ASINH, asinh_fixd, asinh_fixf, FV_NAN)
LOOP1F(l_acosh, K_ACOSH, acosh_fixd, acosh_fixf, FV_NAN)
LOOP1(l_atanh, K_ATANH, FV_NAN | FV_POLE)
LOOP1(l_cbrt, K_CBRT, FV_NAN)
LOOP1HW(l_sqrt, K_SQRT)
LOOP1HW(l_floor, K_FLOOR)
LOOP1HW(l_ceil, K_CEIL)
LOOP1HW(l_trunc, K_TRUNC)
LOOP1HW(l_rint, K_RINT)
LOOP2(l_atan2, K_ATAN2, FV_NAN | FV_TINYNZ)
/* no underflow: glibc's hypot (NumPy's) raises it for some subnormal
 * arguments only, by its internal scaling (docs/guide/deviations.md) */
LOOP2(l_hypot, K_HYPOT, FV_NAN | FV_GROW)

/* ---- logaddexp: NumPy's npy_logaddexp ---- */
#define LOGADDEXP(SFX, DT, T, SUF)                                               \
  NDT_INLINE T logaddexp_s_##SFX(T x, T y) {                                     \
    if (x == y) return x + (T)0.693147180559945309417232121458176568;            \
    const T tmp = x - y;                                                         \
    if (tmp > 0) return x + log1p##SUF(exp##SUF(-tmp));                          \
    if (tmp <= 0) return y + log1p##SUF(exp##SUF(tmp));                          \
    return tmp; /* NaN */                                                        \
  }                                                                              \
  NDT_DEF_BINARY(l_logaddexp_##SFX, T, T, T, logaddexp_s_##SFX)
NDT_FOREACH_FLOAT(LOGADDEXP)

#define MATH_TAB(OP, NM) [OP][NDT_FLOAT32] = NM##_f32, [OP][NDT_FLOAT64] = NM##_f64,
static const ndt_loop_fn math_tab[NDT_NUFUNCS][NDT_NTYPES] = {
  MATH_TAB(NDT_EXP, l_exp) MATH_TAB(NDT_EXP2, l_exp2) MATH_TAB(NDT_EXPM1, l_expm1)
  MATH_TAB(NDT_LOG, l_log) MATH_TAB(NDT_LOG2, l_log2) MATH_TAB(NDT_LOG10, l_log10)
  MATH_TAB(NDT_LOG1P, l_log1p) MATH_TAB(NDT_SIN, l_sin) MATH_TAB(NDT_COS, l_cos)
  MATH_TAB(NDT_TAN, l_tan) MATH_TAB(NDT_ARCSIN, l_asin) MATH_TAB(NDT_ARCCOS, l_acos)
  MATH_TAB(NDT_ARCTAN, l_atan) MATH_TAB(NDT_SINH, l_sinh) MATH_TAB(NDT_COSH, l_cosh)
  MATH_TAB(NDT_TANH, l_tanh) MATH_TAB(NDT_ARCSINH, l_asinh)
  MATH_TAB(NDT_ARCCOSH, l_acosh) MATH_TAB(NDT_ARCTANH, l_atanh)
  MATH_TAB(NDT_CBRT, l_cbrt) MATH_TAB(NDT_SQRT, l_sqrt) MATH_TAB(NDT_FLOOR, l_floor)
  MATH_TAB(NDT_CEIL, l_ceil) MATH_TAB(NDT_TRUNC, l_trunc) MATH_TAB(NDT_RINT, l_rint)
  MATH_TAB(NDT_ARCTAN2, l_atan2) MATH_TAB(NDT_HYPOT, l_hypot)
  [NDT_LOGADDEXP][NDT_FLOAT32] = l_logaddexp_f32,
  [NDT_LOGADDEXP][NDT_FLOAT64] = l_logaddexp_f64,
};

ndt_loop_fn ndt__cpu_loop_math(ndt_ufunc op, ndt_dtype t) {
  if ((int)op < 0 || op >= NDT_NUFUNCS || (int)t < 0 || t >= NDT_NTYPES) return 0;
  return math_tab[op][t];
}
