/* loops_extra.c - gcd, lcm, heaviside, ldexp, logaddexp2, spacing,
 * bitwise_count and the two halves of frexp and modf.
 *
 * Each follows NumPy's scalar function (numpy/_core/src/npymath and
 * umath/loops), so results are NumPy's bit for bit:
 *   - gcd/lcm, bitwise_count, heaviside: src/kernels/scalar.h (shared with
 *     the device kernels).
 *   - ldexp: libm's ldexp; an int64 exponent outside int's range becomes
 *     INT_MAX / INT_MIN (NumPy's 'dl->d' loop).
 *   - logaddexp2: x + 1 where x == y, else max + log2(1 + 2^-|x-y|) with
 *     log1p; NaN where either is NaN.
 *   - spacing: nextafter(|x|, inf) - |x|, negated for x < 0 (not for -0);
 *     NaN stays, +-inf gives NaN.
 *   - frexp (mantissa), frexp exponent (int32), modf (fraction) and modf's
 *     integral part: libm's frexp and modf.
 */
#include <limits.h>
#include "loops_common.h"

/* ---- gcd / lcm --------------------------------------------------------- */
/* scalar.h: ndt_sc_gcd_i32 & co. */
#define GCD_LOOPS(SFX, DT, T, UT, UW, SIGNED, BITS)                              \
  NDT_DEF_BINARY(gcd_##SFX, T, T, T, ndt_sc_gcd_##SFX)                           \
  NDT_DEF_BINARY(lcm_##SFX, T, T, T, ndt_sc_lcm_##SFX)                           \
  NDT_DEF_UNARY(popc_##SFX, T, uint8_t, ndt_sc_popc_##SFX)
NDT_FOREACH_INT(GCD_LOOPS)

/* ---- float functions --------------------------------------------------- */
#define MIN_f32 1.17549435e-38f
#define MIN_f64 2.2250738585072014e-308
#define EXTRA_FLOAT(SFX, DT, T, SUF)                                             \
  NDT_INLINE T logaddexp2_s_##SFX(T x, T y) {                                    \
    if (x == y) return x + 1;                                                    \
    const T tmp = x - y;                                                         \
    const T log2e = (T)1.442695040888963407359924681001892137;                   \
    if (tmp > 0) return x + log2e * log1p##SUF(exp2##SUF(-tmp));                 \
    if (tmp <= 0) return y + log2e * log1p##SUF(exp2##SUF(tmp));                 \
    return tmp; /* NaN */                                                        \
  }                                                                              \
  NDT_INLINE T spacing_s_##SFX(T x) {                                            \
    if (x != x) return x;                                                        \
    const T a = fabs##SUF(x);                                                    \
    if (a == (T)INFINITY) return (T)NAN;                                         \
    const T s = nextafter##SUF(a, (T)INFINITY) - a;                              \
    return x < 0 ? -s : s;                                                       \
  }                                                                              \
  NDT_INLINE T frexpm_s_##SFX(T x) { int e; return frexp##SUF(x, &e); }          \
  NDT_INLINE int32_t frexpe_s_##SFX(T x) {                                       \
    int e = 0;                                                                   \
    (void)frexp##SUF(x, &e);                                                     \
    return (x == x && fabs##SUF(x) != (T)INFINITY) ? (int32_t)e : 0;             \
  }                                                                              \
  NDT_INLINE T modff_s_##SFX(T x) { T i; return modf##SUF(x, &i); }              \
  NDT_INLINE T modfi_s_##SFX(T x) { T i; (void)modf##SUF(x, &i); return i; }     \
  NDT_INLINE T ldexpi_s_##SFX(T x, int32_t e) { return ldexp##SUF(x, (int)e); }  \
  NDT_INLINE T ldexpl_s_##SFX(T x, int64_t e) {                                  \
    const int ei = e > INT_MAX ? INT_MAX : (e < INT_MIN ? INT_MIN : (int)e);     \
    return ldexp##SUF(x, ei);                                                    \
  }                                                                              \
  NDT_DEF_BINARY(heaviside_##SFX, T, T, T, ndt_sc_heaviside_##SFX)                    \
  NDT_DEF_BINARY(logaddexp2_##SFX, T, T, T, logaddexp2_s_##SFX)                  \
  NDT_DEF_UNARY(spacingv_##SFX, T, T, spacing_s_##SFX)                           \
  /* NumPy's spacing raises underflow for a subnormal x (its nextafter     \
   * does), nothing else: 0's spacing is subnormal too, and exact */          \
  static void spacing_##SFX(char **args, const int64_t *steps, int64_t n) {       \
    const unsigned saved = ndt_fpstate_save();   /* a NaN compared: dropped */  \
    const char *p = args[0];                                                     \
    int sub = 0;                                                                 \
    for (int64_t i = 0; i < n; i++, p += steps[0]) {                             \
      T x;                                                                       \
      memcpy(&x, p, sizeof x);                                                   \
      sub |= (x != 0) & (fabs##SUF(x) < MIN_##SFX);                              \
    }                                                                            \
    spacingv_##SFX(args, steps, n);                                              \
    ndt_fpstate_restore(saved);                                                  \
    if (sub) ndt_fpe_raise(NDT_FPE_UNDERFLOW);                                   \
  }                                                                              \
  NDT_DEF_UNARY(frexpm_##SFX, T, T, frexpm_s_##SFX)                              \
  NDT_DEF_UNARY(frexpe_##SFX, T, int32_t, frexpe_s_##SFX)                        \
  NDT_DEF_UNARY(modff_##SFX, T, T, modff_s_##SFX)                                \
  NDT_DEF_UNARY(modfi_##SFX, T, T, modfi_s_##SFX)                                \
  NDT_DEF_BINARY(ldexpi_##SFX, T, int32_t, T, ldexpi_s_##SFX)                    \
  NDT_DEF_BINARY(ldexpl_##SFX, T, int64_t, T, ldexpl_s_##SFX)
NDT_FOREACH_FLOAT(EXTRA_FLOAT)

#define INT_TAB(SFX, DT, T, UT, UW, SIGNED, BITS)                                \
  [NDT_GCD][DT] = gcd_##SFX, [NDT_LCM][DT] = lcm_##SFX,                          \
  [NDT_BITWISE_COUNT][DT] = popc_##SFX,
#define FLOAT_TAB(SFX, DT, T, SUF)                                               \
  [NDT_HEAVISIDE][DT] = heaviside_##SFX, [NDT_LOGADDEXP2][DT] = logaddexp2_##SFX, \
  [NDT_SPACING][DT] = spacing_##SFX, [NDT_FREXP][DT] = frexpm_##SFX,             \
  [NDT_FREXP_EXP][DT] = frexpe_##SFX, [NDT_MODF][DT] = modff_##SFX,              \
  [NDT_MODF_INT][DT] = modfi_##SFX,
static const ndt_loop_fn extra_tab[NDT_NUFUNCS][NDT_NTYPES] = {
  NDT_FOREACH_INT(INT_TAB) NDT_FOREACH_FLOAT(FLOAT_TAB)
};

ndt_loop_fn ndt__cpu_loop_extra(ndt_ufunc op, ndt_dtype t) {
  if ((int)op < 0 || op >= NDT_NUFUNCS || (int)t < 0 || t >= NDT_NTYPES) return 0;
  return extra_tab[op][t];
}

ndt_loop_fn ndt__cpu_loop_ldexp(ndt_dtype mant, ndt_dtype expo) {
  if (mant == NDT_FLOAT32) return expo == NDT_INT32 ? ldexpi_f32 : expo == NDT_INT64 ? ldexpl_f32 : 0;
  if (mant == NDT_FLOAT64) return expo == NDT_INT32 ? ldexpi_f64 : expo == NDT_INT64 ? ldexpl_f64 : 0;
  return 0;
}
