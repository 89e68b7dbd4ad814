/* loops_complex.c - complex64/complex128 loops.
 *
 * Arithmetic follows NumPy's loops: division is Smith's algorithm as in
 * NumPy's CFLOAT/CDOUBLE_divide, power is npy_cpow (exact repeated
 * multiplication for small integer exponents, cpow otherwise), comparisons
 * and maximum/minimum are lexicographic with NumPy's NaN rules, sign is
 * z/|z| (NumPy 2). Transcendental functions use <complex.h> (glibc, which
 * NumPy also uses on Linux) and NumPy's own formulas for expm1, log1p,
 * exp2, log2 and log10.
 */
#include <complex.h>
#include "loops_common.h"

/* With FMA enabled at compile time (-march=...), gcc 12's vectoriser fuses
 * the (re, im) pair of "x*y +- z" into vfmaddsub/vfmsubadd even under
 * -ffp-contract=off. Loops whose NumPy counterpart does not fuse are then
 * not vectorised, so that their rounding stays NumPy's on every build. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__FMA__)
#define NDT_NOSLP __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#else
#define NDT_NOSLP
#endif

#define CT_c64 float _Complex
#define CT_c128 double _Complex

#define NPY_LOGE2 0.693147180559945309417232121458176568
#define NPY_LOG10E 0.434294481903251827651128918916605082
#define NPY_LOG2E 1.442695040888963407359924681001892137

#define CPLX_SCALARS(SFX, DT, T, FT, SUF)                                              \
  NDT_INLINE T mk_##SFX(FT re, FT im) { T r; r.re = re; r.im = im; return r; }           \
  /* C11: a complex has the layout of FT[2], as our struct */                          \
  NDT_INLINE CT_##SFX to_##SFX(T x) { CT_##SFX z; memcpy(&z, &x, sizeof z); return z; }  \
  NDT_INLINE T from_##SFX(CT_##SFX z) { T x; memcpy(&x, &z, sizeof x); return x; }       \
  NDT_INLINE int isnanc_##SFX(T x) { return x.re != x.re || x.im != x.im; }              \
  /* arithmetic: scalar.h (shared with the device kernels) */                          \
  NDT_CPU_FE2(add_s_##SFX, T, T, T, ndt_sc_add_##SFX)                                    \
  NDT_CPU_FE2(sub_s_##SFX, T, T, T, ndt_sc_sub_##SFX)                                    \
  NDT_CPU_FE2(mul_s_##SFX, T, T, T, ndt_sc_mul_##SFX)                                    \
  NDT_CPU_FE2(div_s_##SFX, T, T, T, ndt_sc_div_##SFX)                                    \
  NDT_CPU_FE1(recip_s_##SFX, T, T, ndt_sc_recip_##SFX)                                   \
  /* NumPy's nc_pow. Its tests raise nothing but what NumPy raises: 0 ** z    \
   * with z not > 0 is NaN and "invalid", and so is a real exponent that is   \
   * a NaN (NumPy's test for a small integer compares it); the other compares' \
   * flags (of a NaN part) are dropped. */                                      \
  NDT_INLINE T pow_s_##SFX(T a, T b) {                                                   \
    const FT ar = a.re, ai = a.im, br = b.re, bi = b.im;                                 \
    const unsigned saved = ndt_fpstate_save();                                           \
    unsigned raise = 0;                                                                  \
    int n = 0, small_int = 0;                                                            \
    if (br == 0 && bi == 0) {                                                            \
      ndt_fpstate_restore(saved);                                                        \
      return mk_##SFX(1, 0);                                                             \
    }                                                                                    \
    if (ar == 0 && ai == 0) {                                                            \
      const int pos = br > 0;                                                            \
      ndt_fpstate_restore(saved);                                                        \
      if (pos) return mk_##SFX(0, 0);                                                    \
      ndt_fpe_raise(NDT_FPE_INVALID);   /* NumPy: "ill-defined", inf - inf */            \
      return mk_##SFX(NAN, NAN);                                                         \
    }                                                                                    \
    if (bi == 0) {                                                                       \
      if (br != br) raise = NDT_FPE_INVALID;                                             \
      else if (br > -100 && br < 100 && (FT)(int)br == br) {                             \
        small_int = 1;                                                                   \
        n = (int)br;                                                                     \
      }                                                                                  \
    }                                                                                    \
    ndt_fpstate_restore(saved);                                                          \
    if (raise) ndt_fpe_raise(raise);                                                     \
    if (small_int) {                                                                     \
      if (n == 1) return a;                                                              \
      if (n == 2) return mul_s_##SFX(a, a);                                              \
      if (n == 3) return mul_s_##SFX(a, mul_s_##SFX(a, a));                              \
      T p = a, aa = mk_##SFX(1, 0);                                                      \
      int mask = 1;                                                                      \
      if (n < 0) n = -n;                                                                 \
      for (;;) {                                                                         \
        if (n & mask) aa = mul_s_##SFX(aa, p);                                           \
        mask <<= 1;                                                                      \
        if (n < mask || mask <= 0) break;                                                \
        p = mul_s_##SFX(p, p);                                                           \
      }                                                                                  \
      if (br < 0) return div_s_##SFX(mk_##SFX(1, 0), aa);                                \
      return aa;                                                                         \
    }                                                                                    \
    return from_##SFX(cpow##SUF(to_##SFX(a), to_##SFX(b)));                              \
  }                                                                                      \
  NDT_INLINE T sign_s_##SFX(T a) {                                                       \
    const FT ab = hypot##SUF(a.re, a.im);                                                \
    if (ab != ab) return mk_##SFX(NAN, NAN);                                             \
    if (isinf(ab)) {                                                                     \
      if (isinf(a.re)) {                                                                 \
        if (isinf(a.im)) return mk_##SFX(NAN, NAN);                                      \
        return mk_##SFX(a.re > 0 ? 1 : -1, 0);                                           \
      }                                                                                  \
      return mk_##SFX(0, a.im > 0 ? 1 : -1);                                             \
    }                                                                                    \
    if (ab == 0) return mk_##SFX(0, 0);                                                  \
    return mk_##SFX(a.re / ab, a.im / ab);                                               \
  }                                                                                      \
  /* <complex.h> */                                                                      \
  NDT_INLINE T sqrt_s_##SFX(T a) { return from_##SFX(csqrt##SUF(to_##SFX(a))); }         \
  NDT_INLINE T exp_s_##SFX(T a) { return from_##SFX(cexp##SUF(to_##SFX(a))); }           \
  NDT_INLINE T log_s_##SFX(T a) { return from_##SFX(clog##SUF(to_##SFX(a))); }           \
  NDT_INLINE T sin_s_##SFX(T a) { return from_##SFX(csin##SUF(to_##SFX(a))); }           \
  NDT_INLINE T cos_s_##SFX(T a) { return from_##SFX(ccos##SUF(to_##SFX(a))); }           \
  NDT_INLINE T tan_s_##SFX(T a) { return from_##SFX(ctan##SUF(to_##SFX(a))); }           \
  NDT_INLINE T asin_s_##SFX(T a) { return from_##SFX(casin##SUF(to_##SFX(a))); }         \
  NDT_INLINE T acos_s_##SFX(T a) { return from_##SFX(cacos##SUF(to_##SFX(a))); }         \
  NDT_INLINE T atan_s_##SFX(T a) { return from_##SFX(catan##SUF(to_##SFX(a))); }         \
  NDT_INLINE T sinh_s_##SFX(T a) { return from_##SFX(csinh##SUF(to_##SFX(a))); }         \
  NDT_INLINE T cosh_s_##SFX(T a) { return from_##SFX(ccosh##SUF(to_##SFX(a))); }         \
  NDT_INLINE T tanh_s_##SFX(T a) { return from_##SFX(ctanh##SUF(to_##SFX(a))); }         \
  NDT_INLINE T asinh_s_##SFX(T a) { return from_##SFX(casinh##SUF(to_##SFX(a))); }       \
  NDT_INLINE T acosh_s_##SFX(T a) { return from_##SFX(cacosh##SUF(to_##SFX(a))); }       \
  NDT_INLINE T atanh_s_##SFX(T a) { return from_##SFX(catanh##SUF(to_##SFX(a))); }       \
  /* NumPy's nc_* formulas */                                                            \
  NDT_INLINE T exp2_s_##SFX(T a) {                                                       \
    return exp_s_##SFX(mk_##SFX(a.re * (FT)NPY_LOGE2, a.im * (FT)NPY_LOGE2));            \
  }                                                                                      \
  NDT_INLINE T log2_s_##SFX(T a) {                                                       \
    T r = log_s_##SFX(a);                                                                \
    return mk_##SFX(r.re * (FT)NPY_LOG2E, r.im * (FT)NPY_LOG2E);                         \
  }                                                                                      \
  NDT_INLINE T log10_s_##SFX(T a) {                                                      \
    T r = log_s_##SFX(a);                                                                \
    return mk_##SFX(r.re * (FT)NPY_LOG10E, r.im * (FT)NPY_LOG10E);                       \
  }                                                                                      \
  NDT_INLINE T expm1_s_##SFX(T a) {                                                      \
    const FT h = sin##SUF(a.im / 2);                                                     \
    return mk_##SFX(expm1##SUF(a.re) * cos##SUF(a.im) - 2 * h * h,                       \
                    exp##SUF(a.re) * sin##SUF(a.im));                                    \
  }                                                                                      \
  NDT_INLINE T log1p_s_##SFX(T a) {                                                      \
    const FT l = hypot##SUF(a.re + 1, a.im);                                             \
    return mk_##SFX(log##SUF(l), atan2##SUF(a.im, a.re + 1));                            \
  }
NDT_FOREACH_COMPLEX(CPLX_SCALARS)


/* Multiply, square and absolute as NumPy's SIMD loops compute them: on FMA
 * hardware (our level >= 2) NumPy fuses re = ar*br - ai*bi and
 * im = ar*bi + ai*br into one fma each (npyv_muladdsub), and absolute is
 * larger * sqrt(fma(r, r, 1)) with r = smaller/larger after NumPy's inf/NaN
 * fix-ups (loops_unary_complex). Without FMA the same formulas run unfused. */
#define MADD_fma_c64(a, b, c) __builtin_fmaf(a, b, c)
#define MADD_fma_c128(a, b, c) __builtin_fma(a, b, c)
#define MADD_plain_c64(a, b, c) ((a) * (b) + (c))
#define MADD_plain_c128(a, b, c) ((a) * (b) + (c))
/* the products themselves: scalar.h's ndt_sc_mulf_* (fused) and
 * ndt_sc_mul_* (plain), shared with the device kernels */
#define MULSC_fma(SFX) ndt_sc_mulf_##SFX
#define MULSC_plain(SFX) ndt_sc_mul_##SFX
#define CPLX_FUSED(SFX, T, FT, SUF, TAG)                                                 \
  NDT_CPU_FE2(mul_##TAG##_##SFX, T, T, T, MULSC_##TAG(SFX))                              \
  NDT_INLINE T sq_##TAG##_##SFX(T a) { return mul_##TAG##_##SFX(a, a); }                 \
  NDT_INLINE FT abs_##TAG##_##SFX(T a) { /* branch-free: vectorises */                   \
    const FT inf = (FT)INFINITY;                                                         \
    const FT re0 = fabs##SUF(a.re), im0 = fabs##SUF(a.im);                               \
    const FT im1 = re0 == inf ? inf : im0;                                               \
    const FT re1 = im0 == inf ? inf : re0;                                               \
    const FT im2 = re1 != re1 ? (FT)NAN : im1;                                           \
    const FT re2 = im1 != im1 ? (FT)NAN : re1;                                           \
    const FT larger = re2 > im2 ? re2 : im2, smaller = re2 > im2 ? im2 : re2;            \
    const FT q = smaller / larger;                                                       \
    const FT ratio = ((larger == 0) | (smaller == inf)) ? (FT)0 : q;                     \
    return sqrt##SUF(MADD_##TAG##_##SFX(ratio, ratio, (FT)1)) * larger;                  \
  }                                                                                      \
  NDT_DEF_BINARY_A(mul_##TAG##_loop_##SFX, TAG##_ATTR, T, T, T, mul_##TAG##_##SFX)       \
  NDT_DEF_UNARY_A(sq_##TAG##_loop_##SFX, TAG##_ATTR, T, T, sq_##TAG##_##SFX)             \
  NDT_DEF_UNARY_A(abs_##TAG##_loop_##SFX, TAG##_ATTR, T, FT, abs_##TAG##_##SFX)
#define fma_ATTR NDT_FMA_TARGET
/* the unfused products never vectorised: gcc's SLP form computes both
 * ar*br - ai*bi and ar*bi - ai*br (and the sums) and blends, raising
 * "invalid" for inf - inf in a lane it throws away ((1+infj)**2 raised it);
 * one product at a time raises what NumPy's scalar loop raises (and what
 * the device's scalar.h infers) */
#if defined(__GNUC__) && !defined(__clang__)
#define plain_ATTR __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#else
#define plain_ATTR
#endif
CPLX_FUSED(c64, ndt_c64, float, f, fma)
CPLX_FUSED(c64, ndt_c64, float, f, plain)
CPLX_FUSED(c128, ndt_c128, double, , fma)
CPLX_FUSED(c128, ndt_c128, double, , plain)

#define CPLX_PICK(SFX)                                                                   \
  static void mul_##SFX(char **args, const int64_t *steps, int64_t n) {                 \
    if (ndt_cpu_level() >= 2) mul_fma_loop_##SFX(args, steps, n);                   \
    else mul_plain_loop_##SFX(args, steps, n);                                           \
  }                                                                                      \
  static void sq_##SFX(char **args, const int64_t *steps, int64_t n) {                  \
    if (ndt_cpu_level() >= 2) sq_fma_loop_##SFX(args, steps, n);                    \
    else sq_plain_loop_##SFX(args, steps, n);                                            \
  }                                                                                      \
  static void abs_##SFX(char **args, const int64_t *steps, int64_t n) {                 \
    if (ndt_cpu_level() >= 2) abs_fma_loop_##SFX(args, steps, n);                   \
    else abs_plain_loop_##SFX(args, steps, n);                                           \
  }
CPLX_PICK(c64)
CPLX_PICK(c128)

/* The ordered comparisons raise "invalid" as NumPy's, by value
 * (scalar.h's NDT_SC_CMPNAN, which the device's comparisons report from
 * too). The loop's own flags (vectorised, every compare runs) are
 * dropped. */
/* Any NaN among n complex values at p (stride s bytes)? On the bits, over
 * the parts as one flat run when contiguous: integer work vectorises and
 * raises no flag (most data has no NaN: the comparison then raises nothing). */
#define ANY_NAN(NAME, FT, UT, EXPMASK)                                           \
  static int NAME##_1(const UT *u, int64_t k) {                                  \
    unsigned nan = 0;                                                            \
    for (int64_t i = 0; i < k; i++) nan |= (u[i] & ~((UT)1 << (sizeof(UT) * 8 - 1))) > EXPMASK; \
    return nan != 0;                                                             \
  }                                                                              \
  __attribute__((target("avx2"))) static int NAME##_2(const UT *u, int64_t k) {  \
    unsigned nan = 0;                                                            \
    for (int64_t i = 0; i < k; i++) nan |= (u[i] & ~((UT)1 << (sizeof(UT) * 8 - 1))) > EXPMASK; \
    return nan != 0;                                                             \
  }                                                                              \
  static int NAME(const char *p, int64_t s, int64_t n) {                         \
    if (s == 2 * (int64_t)sizeof(FT))                                            \
      return ndt_cpu_level() >= 2 ? NAME##_2((const UT *)p, 2 * n) : NAME##_1((const UT *)p, 2 * n); \
    for (int64_t i = 0; i < n; i++, p += s)                                      \
      if (NAME##_1((const UT *)p, 2)) return 1;                                  \
    return 0;                                                                    \
  }
ANY_NAN(any_nan_c64, float, uint32_t, 0x7f800000u)
ANY_NAN(any_nan_c128, double, uint64_t, 0x7ff0000000000000ull)

#define CMP_FLAGGED(OP, SFX, T)                                                  \
  static void OP##_##SFX(char **args, const int64_t *steps, int64_t n) {         \
    /* chunks whose inputs hold no NaN (most data) raise nothing: compared    \
     * while the look at them left them in cache */                           \
    int64_t c = 0;                                                               \
    for (; c < n; c += 2048) {                                                   \
      const int64_t m = n - c < 2048 ? n - c : 2048;                             \
      char *sub[3] = {args[0] + c * steps[0], args[1] + c * steps[1], args[2] + c * steps[2]}; \
      if (any_nan_##SFX(sub[0], steps[0], m) || any_nan_##SFX(sub[1], steps[1], m)) break; \
      OP##v_##SFX(sub, steps, m);                                                \
    }                                                                            \
    if (c >= n) return;                                                          \
    args = (char *[3]){args[0] + c * steps[0], args[1] + c * steps[1], args[2] + c * steps[2]}; \
    n -= c;                                                                      \
    const unsigned saved = ndt_fpstate_save();                                   \
    const char *p = args[0], *q = args[1];                                       \
    int bad = 0;                                                                 \
    for (int64_t i = 0; i < n; i++, p += steps[0], q += steps[1]) {              \
      T a, b;                                                                    \
      memcpy(&a, p, sizeof a);                                                   \
      memcpy(&b, q, sizeof b);                                                   \
      bad |= NDT_SC_CMPNAN(a, b);                                                \
    }                                                                            \
    OP##v_##SFX(args, steps, n);                                                 \
    ndt_fpstate_restore(saved);                                                  \
    if (bad) ndt_fpe_raise(NDT_FPE_INVALID);                                     \
  }

#define CPLX_LOOPS(SFX, DT, T, FT, SUF)                                 \
  NDT_DEF_BINARY(add_##SFX, T, T, T, add_s_##SFX)                       \
  NDT_DEF_BINARY(sub_##SFX, T, T, T, sub_s_##SFX)                       \
  NDT_DEF_BINARY_A(div_##SFX, NDT_BRANCHY, T, T, T, div_s_##SFX)          \
  NDT_DEF_BINARY_A(pow_##SFX, NDT_BRANCHY, T, T, T, pow_s_##SFX)          \
  NDT_DEF_BINARY(eq_##SFX, T, T, ndt_bool_t, ndt_sc_eq_##SFX)                \
  NDT_DEF_BINARY(ne_##SFX, T, T, ndt_bool_t, ndt_sc_ne_##SFX)                \
  NDT_DEF_BINARY(ltv_##SFX, T, T, ndt_bool_t, ndt_sc_lt_##SFX)                \
  NDT_DEF_BINARY(lev_##SFX, T, T, ndt_bool_t, ndt_sc_le_##SFX)                \
  NDT_DEF_BINARY(gtv_##SFX, T, T, ndt_bool_t, ndt_sc_gt_##SFX)                \
  NDT_DEF_BINARY(gev_##SFX, T, T, ndt_bool_t, ndt_sc_ge_##SFX)                \
  CMP_FLAGGED(lt, SFX, T) CMP_FLAGGED(le, SFX, T)                        \
  CMP_FLAGGED(gt, SFX, T) CMP_FLAGGED(ge, SFX, T)                        \
  NDT_DEF_BINARY(land_##SFX, T, T, ndt_bool_t, ndt_sc_land_##SFX)            \
  NDT_DEF_BINARY(lor_##SFX, T, T, ndt_bool_t, ndt_sc_lor_##SFX)              \
  NDT_DEF_BINARY(lxor_##SFX, T, T, ndt_bool_t, ndt_sc_lxor_##SFX)            \
  NDT_DEF_BINARY(max_##SFX, T, T, T, ndt_sc_max_##SFX)                       \
  NDT_DEF_BINARY(min_##SFX, T, T, T, ndt_sc_min_##SFX)                       \
  NDT_DEF_BINARY(fmax_##SFX, T, T, T, ndt_sc_fmax_##SFX)                     \
  NDT_DEF_BINARY(fmin_##SFX, T, T, T, ndt_sc_fmin_##SFX)                     \
  NDT_DEF_UNARY(neg_##SFX, T, T, ndt_sc_neg_##SFX)                           \
  NDT_DEF_UNARY(pos_##SFX, T, T, ndt_sc_pos_##SFX)                           \
  NDT_DEF_UNARY(conj_##SFX, T, T, ndt_sc_conj_##SFX)                         \
  NDT_DEF_UNARY(sign_##SFX, T, T, sign_s_##SFX)                         \
  NDT_DEF_UNARY(lnot_##SFX, T, ndt_bool_t, ndt_sc_lnot_##SFX)                \
  NDT_DEF_UNARY_A(recip_##SFX, NDT_BRANCHY, T, T, recip_s_##SFX)        \
  NDT_DEF_UNARY(rint_##SFX, T, T, ndt_sc_rint_##SFX)                         \
  NDT_DEF_UNARY(isnan_##SFX, T, ndt_bool_t, ndt_sc_isnan_##SFX)              \
  NDT_DEF_UNARY(isinf_##SFX, T, ndt_bool_t, ndt_sc_isinf_##SFX)              \
  NDT_DEF_UNARY(isfin_##SFX, T, ndt_bool_t, ndt_sc_isfin_##SFX)              \
  NDT_DEF_UNARY(sqrt_##SFX, T, T, sqrt_s_##SFX)                         \
  NDT_DEF_UNARY(exp_##SFX, T, T, exp_s_##SFX)                           \
  NDT_DEF_UNARY(exp2_##SFX, T, T, exp2_s_##SFX)                         \
  NDT_DEF_UNARY(expm1_##SFX, T, T, expm1_s_##SFX)                       \
  NDT_DEF_UNARY(log_##SFX, T, T, log_s_##SFX)                           \
  NDT_DEF_UNARY(log2_##SFX, T, T, log2_s_##SFX)                         \
  NDT_DEF_UNARY(log10_##SFX, T, T, log10_s_##SFX)                       \
  NDT_DEF_UNARY(log1p_##SFX, T, T, log1p_s_##SFX)                       \
  NDT_DEF_UNARY(sin_##SFX, T, T, sin_s_##SFX)                           \
  NDT_DEF_UNARY(cos_##SFX, T, T, cos_s_##SFX)                           \
  NDT_DEF_UNARY(tan_##SFX, T, T, tan_s_##SFX)                           \
  NDT_DEF_UNARY(asin_##SFX, T, T, asin_s_##SFX)                         \
  NDT_DEF_UNARY(acos_##SFX, T, T, acos_s_##SFX)                         \
  NDT_DEF_UNARY(atan_##SFX, T, T, atan_s_##SFX)                         \
  NDT_DEF_UNARY(sinh_##SFX, T, T, sinh_s_##SFX)                         \
  NDT_DEF_UNARY(cosh_##SFX, T, T, cosh_s_##SFX)                         \
  NDT_DEF_UNARY(tanh_##SFX, T, T, tanh_s_##SFX)                         \
  NDT_DEF_UNARY(asinh_##SFX, T, T, asinh_s_##SFX)                       \
  NDT_DEF_UNARY(acosh_##SFX, T, T, acosh_s_##SFX)                       \
  NDT_DEF_UNARY(atanh_##SFX, T, T, atanh_s_##SFX)                       \
  NDT_DEF_TERNARY(clip_##SFX, T, T, T, T, ndt_sc_clip_##SFX)
NDT_FOREACH_COMPLEX(CPLX_LOOPS)

#define CPLX_TAB(SFX, DT, T, FT, SUF)                                                  \
  [NDT_ADD][DT] = add_##SFX, [NDT_SUBTRACT][DT] = sub_##SFX,                           \
  [NDT_MULTIPLY][DT] = mul_##SFX, [NDT_TRUE_DIVIDE][DT] = div_##SFX,                   \
  [NDT_POWER][DT] = pow_##SFX, [NDT_FLOAT_POWER][DT] = pow_##SFX,                     \
  [NDT_EQUAL][DT] = eq_##SFX,                                                          \
  [NDT_NOT_EQUAL][DT] = ne_##SFX, [NDT_LESS][DT] = lt_##SFX,                           \
  [NDT_LESS_EQUAL][DT] = le_##SFX, [NDT_GREATER][DT] = gt_##SFX,                       \
  [NDT_GREATER_EQUAL][DT] = ge_##SFX, [NDT_LOGICAL_AND][DT] = land_##SFX,              \
  [NDT_LOGICAL_OR][DT] = lor_##SFX, [NDT_LOGICAL_XOR][DT] = lxor_##SFX,                \
  [NDT_MAXIMUM][DT] = max_##SFX, [NDT_MINIMUM][DT] = min_##SFX,                        \
  [NDT_FMAX][DT] = fmax_##SFX, [NDT_FMIN][DT] = fmin_##SFX,                            \
  [NDT_NEGATIVE][DT] = neg_##SFX, [NDT_POSITIVE][DT] = pos_##SFX,                      \
  [NDT_ABSOLUTE][DT] = abs_##SFX, [NDT_SIGN][DT] = sign_##SFX,                         \
  [NDT_LOGICAL_NOT][DT] = lnot_##SFX, [NDT_SQUARE][DT] = sq_##SFX,                     \
  [NDT_RECIPROCAL][DT] = recip_##SFX, [NDT_CONJUGATE][DT] = conj_##SFX,                \
  [NDT_RINT][DT] = rint_##SFX, [NDT_ISNAN][DT] = isnan_##SFX,                          \
  [NDT_ISINF][DT] = isinf_##SFX, [NDT_ISFINITE][DT] = isfin_##SFX,                     \
  [NDT_SQRT][DT] = sqrt_##SFX, [NDT_EXP][DT] = exp_##SFX, [NDT_EXP2][DT] = exp2_##SFX, \
  [NDT_EXPM1][DT] = expm1_##SFX, [NDT_LOG][DT] = log_##SFX,                            \
  [NDT_LOG2][DT] = log2_##SFX, [NDT_LOG10][DT] = log10_##SFX,                          \
  [NDT_LOG1P][DT] = log1p_##SFX, [NDT_SIN][DT] = sin_##SFX, [NDT_COS][DT] = cos_##SFX, \
  [NDT_TAN][DT] = tan_##SFX, [NDT_ARCSIN][DT] = asin_##SFX,                            \
  [NDT_ARCCOS][DT] = acos_##SFX, [NDT_ARCTAN][DT] = atan_##SFX,                        \
  [NDT_SINH][DT] = sinh_##SFX, [NDT_COSH][DT] = cosh_##SFX,                            \
  [NDT_TANH][DT] = tanh_##SFX, [NDT_ARCSINH][DT] = asinh_##SFX,                        \
  [NDT_ARCCOSH][DT] = acosh_##SFX, [NDT_ARCTANH][DT] = atanh_##SFX,                    \
  [NDT_CLIP][DT] = clip_##SFX,

static const ndt_loop_fn complex_tab[NDT_NUFUNCS][NDT_NTYPES] = {
  NDT_FOREACH_COMPLEX(CPLX_TAB)
};

ndt_loop_fn ndt__cpu_loop_complex(ndt_ufunc op, ndt_dtype t) {
  if ((int)op < 0 || op >= NDT_NUFUNCS || (int)t < 0 || t >= NDT_NTYPES) return 0;
  return complex_tab[op][t];
}
