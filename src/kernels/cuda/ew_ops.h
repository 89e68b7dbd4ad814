/* ew_ops.h - the device's elementwise loops: every exact ufunc loop
 * (integer and bool ops, + - * / and sqrt, comparisons, min/max, rounding;
 * issue 18's class E) on all 13 dtypes, each one scalar function of
 * src/kernels/scalar.h, the function the CPU loop calls too; and the
 * float32/float64 transcendental functions (NDT_DK_MATH_OPS below: the
 * device's math library, within a stated bound of the CPU's SLEEF, with
 * the CPU's flag rule). Float power, logaddexp and complex sqrt/abs/sign
 * are not here: those tasks run on the CPU.
 *
 * An entry is a shape applied to (ufunc, key dtype, suffix, operand types,
 * scalar function):
 *   U(OP, DT, SFX, TI, TO, F)          o = F(x)
 *   UF(OP, DT, SFX, TI, TO, F)         o = F(x, &flags)
 *   B(OP, DT, SFX, T1, T2, TO, F)      o = F(x, y)
 *   BF(OP, DT, SFX, T1, T2, TO, F)     o = F(x, y, &flags)
 *   T3(OP, DT, SFX, T1, T2, T3, TO, F) o = F(x, y, z)
 * ndt_sc_bool is uint8_t where the dtype is bool. The key is the loop's first dtype (where: its second; the mixed
 * int64/uint64 comparisons: NDT_DK_KEY_QQ / NDT_DK_KEY_QQR), and the op
 * NDT_DK_MUL_FUSED / NDT_DK_SQ_FUSED for the fused complex products the
 * CPU takes on FMA hardware (ndt_sc_mulf_*). ew_impl.h stamps a kernel and
 * a table entry per line; the host test (tests/c/test_devkernels.c) runs
 * each against the CPU loop of the same dtypes. */
#ifndef NDT_KERNELS_CUDA_EW_OPS_H
#define NDT_KERNELS_CUDA_EW_OPS_H

#include "ndtile.h"
#include "kernels/scalar.h"

#define NDT_DK_MUL_FUSED (NDT_NUFUNCS + 0)
#define NDT_DK_SQ_FUSED (NDT_NUFUNCS + 1)
#define NDT_DK_NOPS (NDT_NUFUNCS + 2)
#define NDT_DK_KEY_QQ (NDT_NTYPES + 0)    /* int64, uint64 */
#define NDT_DK_KEY_QQR (NDT_NTYPES + 1)   /* uint64, int64 */
#define NDT_DK_NKEYS (NDT_NTYPES + 2)

/* where(c, x, y) of each storage type */
#define NDT_DK_WHERE_FN(SFX, T) \
  NDT_HD T ndt_dk_where_##SFX(uint8_t c, T x, T y) { return c ? x : y; }
NDT_DK_WHERE_FN(b, uint8_t)
NDT_DK_WHERE_FN(i8, int8_t)
NDT_DK_WHERE_FN(i16, int16_t)
NDT_DK_WHERE_FN(i32, int32_t)
NDT_DK_WHERE_FN(i64, int64_t)
NDT_DK_WHERE_FN(u8, uint8_t)
NDT_DK_WHERE_FN(u16, uint16_t)
NDT_DK_WHERE_FN(u32, uint32_t)
NDT_DK_WHERE_FN(u64, uint64_t)
NDT_DK_WHERE_FN(f32, float)
NDT_DK_WHERE_FN(f64, double)
NDT_DK_WHERE_FN(c64, ndt_c64)
NDT_DK_WHERE_FN(c128, ndt_c128)

/* ---- transcendental functions (issue 18 item 6: "within a stated ULP
 * bound of the CPU") ----
 * The device's own math library (CUDA's exp, sin, ...: documented maximum
 * errors of 1-4 ULP from the correctly rounded result; in the host builds,
 * libm's), so not the CPU's bits: the CPU's SLEEF loops are within 1 ULP,
 * the two within 5 ULP of each other (docs/guide/deviations.md 4). The
 * flags are the CPU's rule from the values (scalar.h's ndt_sc_fv_*, with
 * the classes of loops_math.c's table). NDTILE_CUDA_MATH=0 keeps these
 * ops on the CPU (the CPU's bits on every processor). */
#define NDT_DK_MATH1(NAME, FD, FF, CLS)                                     \
  NDT_HD double ndt_dk_##NAME##_f64(double x, unsigned *fe) {               \
    const double v = FD(x);                                                 \
    *fe |= ndt_sc_fv_f64(CLS, x, 0.0, v);                                   \
    return v;                                                               \
  }                                                                         \
  NDT_HD float ndt_dk_##NAME##_f32(float x, unsigned *fe) {                 \
    const float v = FF(x);                                                  \
    *fe |= ndt_sc_fv_f32(CLS, x, 0.0f, v);                                  \
    return v;                                                               \
  }
#define NDT_DK_MATH2(NAME, FD, FF, CLS)                                     \
  NDT_HD double ndt_dk_##NAME##_f64(double x, double y, unsigned *fe) {     \
    const double v = FD(x, y);                                              \
    *fe |= ndt_sc_fv_f64(CLS, x, y, v);                                     \
    return v;                                                               \
  }                                                                         \
  NDT_HD float ndt_dk_##NAME##_f32(float x, float y, unsigned *fe) {        \
    const float v = FF(x, y);                                               \
    *fe |= ndt_sc_fv_f32(CLS, x, y, v);                                     \
    return v;                                                               \
  }
/* The float32 growth functions (exp, exp2, expm1, sinh, cosh) go through
 * double, rounded once: the GPU's own expf & co. (2-3 ULP, not libm's)
 * may round past FLT_MAX just below the overflow threshold, an inf and an
 * overflow warning where NumPy has a finite value (test_ufunc's
 * test_growth_functions_at_the_overflow_edge); double has the range, and
 * its result rounded to float is within 1 ULP of the exact one, inf
 * exactly where that rounds past FLT_MAX. (Elementwise kernels are bound
 * by memory, so the double arithmetic costs no time.) */
#define NDT_DK_VIA_F64(F) \
  NDT_HD float ndt_dk_##F##_via64(float x) { return (float)F((double)x); }
NDT_DK_VIA_F64(exp)
NDT_DK_VIA_F64(exp2)
NDT_DK_VIA_F64(expm1)
NDT_DK_VIA_F64(sinh)
NDT_DK_VIA_F64(cosh)
NDT_DK_MATH1(exp, exp, ndt_dk_exp_via64, NDT_SC_FV_NAN | NDT_SC_FV_GROW | NDT_SC_FV_TINY)
NDT_DK_MATH1(exp2, exp2, ndt_dk_exp2_via64, NDT_SC_FV_NAN | NDT_SC_FV_GROW | NDT_SC_FV_TINY)
NDT_DK_MATH1(expm1, expm1, ndt_dk_expm1_via64, NDT_SC_FV_NAN | NDT_SC_FV_GROW)
NDT_DK_MATH1(log, log, logf, NDT_SC_FV_NAN | NDT_SC_FV_POLE)
NDT_DK_MATH1(log2, log2, log2f, NDT_SC_FV_NAN | NDT_SC_FV_POLE)
NDT_DK_MATH1(log10, log10, log10f, NDT_SC_FV_NAN | NDT_SC_FV_POLE)
NDT_DK_MATH1(log1p, log1p, log1pf, NDT_SC_FV_NAN | NDT_SC_FV_POLE)
NDT_DK_MATH1(sin, sin, sinf, NDT_SC_FV_NAN | NDT_SC_FV_SUB)
NDT_DK_MATH1(cos, cos, cosf, NDT_SC_FV_NAN)
NDT_DK_MATH1(tan, tan, tanf, NDT_SC_FV_NAN)
NDT_DK_MATH1(asin, asin, asinf, NDT_SC_FV_NAN)
NDT_DK_MATH1(acos, acos, acosf, NDT_SC_FV_NAN)
NDT_DK_MATH1(atan, atan, atanf, NDT_SC_FV_NAN)
NDT_DK_MATH1(sinh, sinh, ndt_dk_sinh_via64, NDT_SC_FV_NAN | NDT_SC_FV_GROW)
NDT_DK_MATH1(cosh, cosh, ndt_dk_cosh_via64, NDT_SC_FV_NAN | NDT_SC_FV_GROW)
NDT_DK_MATH1(tanh, tanh, tanhf, NDT_SC_FV_NAN)
NDT_DK_MATH1(asinh, asinh, asinhf, NDT_SC_FV_NAN)
NDT_DK_MATH1(acosh, acosh, acoshf, NDT_SC_FV_NAN)
NDT_DK_MATH1(atanh, atanh, atanhf, NDT_SC_FV_NAN | NDT_SC_FV_POLE)
NDT_DK_MATH1(cbrt, cbrt, cbrtf, NDT_SC_FV_NAN)
NDT_DK_MATH2(atan2, atan2, atan2f, NDT_SC_FV_NAN | NDT_SC_FV_TINYNZ)
NDT_DK_MATH2(hypot, hypot, hypotf, NDT_SC_FV_NAN | NDT_SC_FV_GROW)

#define NDT_DK_MATH_OPS(U, UF, B, BF, T3, SFX, DT, T)                       \
  UF(NDT_EXP, DT, SFX, T, T, ndt_dk_exp_##SFX)                              \
  UF(NDT_EXP2, DT, SFX, T, T, ndt_dk_exp2_##SFX)                            \
  UF(NDT_EXPM1, DT, SFX, T, T, ndt_dk_expm1_##SFX)                          \
  UF(NDT_LOG, DT, SFX, T, T, ndt_dk_log_##SFX)                              \
  UF(NDT_LOG2, DT, SFX, T, T, ndt_dk_log2_##SFX)                            \
  UF(NDT_LOG10, DT, SFX, T, T, ndt_dk_log10_##SFX)                          \
  UF(NDT_LOG1P, DT, SFX, T, T, ndt_dk_log1p_##SFX)                          \
  UF(NDT_SIN, DT, SFX, T, T, ndt_dk_sin_##SFX)                              \
  UF(NDT_COS, DT, SFX, T, T, ndt_dk_cos_##SFX)                              \
  UF(NDT_TAN, DT, SFX, T, T, ndt_dk_tan_##SFX)                              \
  UF(NDT_ARCSIN, DT, SFX, T, T, ndt_dk_asin_##SFX)                          \
  UF(NDT_ARCCOS, DT, SFX, T, T, ndt_dk_acos_##SFX)                          \
  UF(NDT_ARCTAN, DT, SFX, T, T, ndt_dk_atan_##SFX)                          \
  UF(NDT_SINH, DT, SFX, T, T, ndt_dk_sinh_##SFX)                            \
  UF(NDT_COSH, DT, SFX, T, T, ndt_dk_cosh_##SFX)                            \
  UF(NDT_TANH, DT, SFX, T, T, ndt_dk_tanh_##SFX)                            \
  UF(NDT_ARCSINH, DT, SFX, T, T, ndt_dk_asinh_##SFX)                        \
  UF(NDT_ARCCOSH, DT, SFX, T, T, ndt_dk_acosh_##SFX)                        \
  UF(NDT_ARCTANH, DT, SFX, T, T, ndt_dk_atanh_##SFX)                        \
  UF(NDT_CBRT, DT, SFX, T, T, ndt_dk_cbrt_##SFX)                            \
  BF(NDT_ARCTAN2, DT, SFX, T, T, T, ndt_dk_atan2_##SFX)                     \
  BF(NDT_HYPOT, DT, SFX, T, T, T, ndt_dk_hypot_##SFX)

/* 1 for the ops above: results within the stated bound of the CPU's, not
 * its bits (the host test compares them so; NDTILE_CUDA_MATH=0 refuses
 * them) */
NDT_HD int ndt_dk_inexact(int op) {
  switch (op) {
    case NDT_EXP: case NDT_EXP2: case NDT_EXPM1: case NDT_LOG: case NDT_LOG2: case NDT_LOG10:
    case NDT_LOG1P: case NDT_SIN: case NDT_COS: case NDT_TAN: case NDT_ARCSIN: case NDT_ARCCOS:
    case NDT_ARCTAN: case NDT_SINH: case NDT_COSH: case NDT_TANH: case NDT_ARCSINH:
    case NDT_ARCCOSH: case NDT_ARCTANH: case NDT_CBRT: case NDT_ARCTAN2: case NDT_HYPOT:
      return 1;
    default:
      return 0;
  }
}

#define NDT_DK_BOOL_OPS(U, UF, B, BF, T3)                                                \
  B(NDT_ADD, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_or_b)                        \
  B(NDT_MULTIPLY, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_and_b)                  \
  B(NDT_EQUAL, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_eq_b)                      \
  B(NDT_NOT_EQUAL, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_ne_b)                  \
  B(NDT_LESS, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_lt_b)                       \
  B(NDT_LESS_EQUAL, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_le_b)                 \
  B(NDT_GREATER, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_gt_b)                    \
  B(NDT_GREATER_EQUAL, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_ge_b)              \
  B(NDT_LOGICAL_AND, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_and_b)               \
  B(NDT_LOGICAL_OR, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_or_b)                 \
  B(NDT_LOGICAL_XOR, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_xor_b)               \
  B(NDT_BITWISE_AND, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_and_b)               \
  B(NDT_BITWISE_OR, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_or_b)                 \
  B(NDT_BITWISE_XOR, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_xor_b)               \
  B(NDT_MAXIMUM, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_or_b)                    \
  B(NDT_MINIMUM, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_and_b)                   \
  B(NDT_FMAX, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_or_b)                       \
  B(NDT_FMIN, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_and_b)                      \
  U(NDT_ABSOLUTE, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_id_b)                            \
  U(NDT_LOGICAL_NOT, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_not_b)                        \
  U(NDT_INVERT, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_not_b)                             \
  U(NDT_FLOOR, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_id_b)                               \
  U(NDT_CEIL, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_id_b)                                \
  U(NDT_TRUNC, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_id_b)                               \
  U(NDT_ISNAN, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_zero_b)                             \
  U(NDT_ISINF, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_zero_b)                             \
  U(NDT_ISFINITE, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_one_b)                           \
  T3(NDT_CLIP, NDT_BOOL, b, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_bool, ndt_sc_clip_b)

#define NDT_DK_INT_OPS(U, UF, B, BF, T3, SFX, DT, T)                                     \
  B(NDT_ADD, DT, SFX, T, T, T, ndt_sc_add_##SFX)                                         \
  B(NDT_SUBTRACT, DT, SFX, T, T, T, ndt_sc_sub_##SFX)                                    \
  B(NDT_MULTIPLY, DT, SFX, T, T, T, ndt_sc_mul_##SFX)                                    \
  BF(NDT_FLOOR_DIVIDE, DT, SFX, T, T, T, ndt_sc_fdiv_##SFX)                              \
  BF(NDT_REMAINDER, DT, SFX, T, T, T, ndt_sc_rem_##SFX)                                  \
  BF(NDT_FMOD, DT, SFX, T, T, T, ndt_sc_fmod_##SFX)                                      \
  B(NDT_POWER, DT, SFX, T, T, T, ndt_sc_pow_##SFX)                                       \
  B(NDT_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_eq_##SFX)                                  \
  B(NDT_NOT_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_ne_##SFX)                              \
  B(NDT_LESS, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lt_##SFX)                                   \
  B(NDT_LESS_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_le_##SFX)                             \
  B(NDT_GREATER, DT, SFX, T, T, ndt_sc_bool, ndt_sc_gt_##SFX)                                \
  B(NDT_GREATER_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_ge_##SFX)                          \
  B(NDT_LOGICAL_AND, DT, SFX, T, T, ndt_sc_bool, ndt_sc_land_##SFX)                          \
  B(NDT_LOGICAL_OR, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lor_##SFX)                            \
  B(NDT_LOGICAL_XOR, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lxor_##SFX)                          \
  B(NDT_BITWISE_AND, DT, SFX, T, T, T, ndt_sc_and_##SFX)                                 \
  B(NDT_BITWISE_OR, DT, SFX, T, T, T, ndt_sc_or_##SFX)                                   \
  B(NDT_BITWISE_XOR, DT, SFX, T, T, T, ndt_sc_xor_##SFX)                                 \
  B(NDT_LEFT_SHIFT, DT, SFX, T, T, T, ndt_sc_lsh_##SFX)                                  \
  B(NDT_RIGHT_SHIFT, DT, SFX, T, T, T, ndt_sc_rsh_##SFX)                                 \
  B(NDT_MAXIMUM, DT, SFX, T, T, T, ndt_sc_max_##SFX)                                     \
  B(NDT_MINIMUM, DT, SFX, T, T, T, ndt_sc_min_##SFX)                                     \
  B(NDT_FMAX, DT, SFX, T, T, T, ndt_sc_max_##SFX)                                        \
  B(NDT_FMIN, DT, SFX, T, T, T, ndt_sc_min_##SFX)                                        \
  B(NDT_GCD, DT, SFX, T, T, T, ndt_sc_gcd_##SFX)                                         \
  B(NDT_LCM, DT, SFX, T, T, T, ndt_sc_lcm_##SFX)                                         \
  U(NDT_NEGATIVE, DT, SFX, T, T, ndt_sc_neg_##SFX)                                       \
  U(NDT_POSITIVE, DT, SFX, T, T, ndt_sc_pos_##SFX)                                       \
  U(NDT_ABSOLUTE, DT, SFX, T, T, ndt_sc_abs_##SFX)                                       \
  U(NDT_SIGN, DT, SFX, T, T, ndt_sc_sign_##SFX)                                          \
  U(NDT_LOGICAL_NOT, DT, SFX, T, ndt_sc_bool, ndt_sc_lnot_##SFX)                             \
  U(NDT_INVERT, DT, SFX, T, T, ndt_sc_inv_##SFX)                                         \
  U(NDT_SQUARE, DT, SFX, T, T, ndt_sc_sq_##SFX)                                          \
  UF(NDT_RECIPROCAL, DT, SFX, T, T, ndt_sc_recip_##SFX)                                  \
  U(NDT_CONJUGATE, DT, SFX, T, T, ndt_sc_pos_##SFX)                                      \
  U(NDT_FLOOR, DT, SFX, T, T, ndt_sc_pos_##SFX)                                          \
  U(NDT_CEIL, DT, SFX, T, T, ndt_sc_pos_##SFX)                                           \
  U(NDT_TRUNC, DT, SFX, T, T, ndt_sc_pos_##SFX)                                          \
  U(NDT_ISNAN, DT, SFX, T, ndt_sc_bool, ndt_sc_false_##SFX)                                  \
  U(NDT_ISINF, DT, SFX, T, ndt_sc_bool, ndt_sc_false_##SFX)                                  \
  U(NDT_ISFINITE, DT, SFX, T, ndt_sc_bool, ndt_sc_true_##SFX)                                \
  U(NDT_BITWISE_COUNT, DT, SFX, T, uint8_t, ndt_sc_popc_##SFX)                           \
  T3(NDT_CLIP, DT, SFX, T, T, T, T, ndt_sc_clip_##SFX)

#define NDT_DK_FLOAT_OPS(U, UF, B, BF, T3, SFX, DT, T)                                   \
  BF(NDT_ADD, DT, SFX, T, T, T, ndt_sc_add_##SFX)                                        \
  BF(NDT_SUBTRACT, DT, SFX, T, T, T, ndt_sc_sub_##SFX)                                   \
  BF(NDT_MULTIPLY, DT, SFX, T, T, T, ndt_sc_mul_##SFX)                                   \
  BF(NDT_TRUE_DIVIDE, DT, SFX, T, T, T, ndt_sc_div_##SFX)                                \
  BF(NDT_FLOOR_DIVIDE, DT, SFX, T, T, T, ndt_sc_fdiv_##SFX)                              \
  BF(NDT_REMAINDER, DT, SFX, T, T, T, ndt_sc_rem_##SFX)                                  \
  BF(NDT_FMOD, DT, SFX, T, T, T, ndt_sc_fmod_##SFX)                                      \
  B(NDT_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_eq_##SFX)                                  \
  B(NDT_NOT_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_ne_##SFX)                              \
  B(NDT_LESS, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lt_##SFX)                                   \
  B(NDT_LESS_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_le_##SFX)                             \
  B(NDT_GREATER, DT, SFX, T, T, ndt_sc_bool, ndt_sc_gt_##SFX)                                \
  B(NDT_GREATER_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_ge_##SFX)                          \
  B(NDT_LOGICAL_AND, DT, SFX, T, T, ndt_sc_bool, ndt_sc_land_##SFX)                          \
  B(NDT_LOGICAL_OR, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lor_##SFX)                            \
  B(NDT_LOGICAL_XOR, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lxor_##SFX)                          \
  B(NDT_MAXIMUM, DT, SFX, T, T, T, ndt_sc_max_##SFX)                                     \
  B(NDT_MINIMUM, DT, SFX, T, T, T, ndt_sc_min_##SFX)                                     \
  B(NDT_FMAX, DT, SFX, T, T, T, ndt_sc_fmax_##SFX)                                       \
  B(NDT_FMIN, DT, SFX, T, T, T, ndt_sc_fmin_##SFX)                                       \
  B(NDT_COPYSIGN, DT, SFX, T, T, T, ndt_sc_copysign_##SFX)                               \
  B(NDT_HEAVISIDE, DT, SFX, T, T, T, ndt_sc_heaviside_##SFX)                             \
  U(NDT_NEGATIVE, DT, SFX, T, T, ndt_sc_neg_##SFX)                                       \
  U(NDT_POSITIVE, DT, SFX, T, T, ndt_sc_pos_##SFX)                                       \
  U(NDT_ABSOLUTE, DT, SFX, T, T, ndt_sc_abs_##SFX)                                       \
  U(NDT_SIGN, DT, SFX, T, T, ndt_sc_sign_##SFX)                                          \
  U(NDT_LOGICAL_NOT, DT, SFX, T, ndt_sc_bool, ndt_sc_lnot_##SFX)                             \
  UF(NDT_SQUARE, DT, SFX, T, T, ndt_sc_sq_##SFX)                                         \
  UF(NDT_RECIPROCAL, DT, SFX, T, T, ndt_sc_recip_##SFX)                                  \
  U(NDT_CONJUGATE, DT, SFX, T, T, ndt_sc_pos_##SFX)                                      \
  U(NDT_ISNAN, DT, SFX, T, ndt_sc_bool, ndt_sc_isnan_##SFX)                                  \
  U(NDT_ISINF, DT, SFX, T, ndt_sc_bool, ndt_sc_isinf_##SFX)                                  \
  U(NDT_ISFINITE, DT, SFX, T, ndt_sc_bool, ndt_sc_isfin_##SFX)                               \
  U(NDT_SIGNBIT, DT, SFX, T, ndt_sc_bool, ndt_sc_signbit_##SFX)                              \
  UF(NDT_DEG2RAD, DT, SFX, T, T, ndt_sc_deg2rad_##SFX)                                   \
  UF(NDT_RAD2DEG, DT, SFX, T, T, ndt_sc_rad2deg_##SFX)                                   \
  UF(NDT_SQRT, DT, SFX, T, T, ndt_sc_sqrt_##SFX)                                         \
  U(NDT_FLOOR, DT, SFX, T, T, ndt_sc_floor_##SFX)                                        \
  U(NDT_CEIL, DT, SFX, T, T, ndt_sc_ceil_##SFX)                                          \
  U(NDT_TRUNC, DT, SFX, T, T, ndt_sc_trunc_##SFX)                                        \
  U(NDT_RINT, DT, SFX, T, T, ndt_sc_rint_##SFX)                                          \
  T3(NDT_CLIP, DT, SFX, T, T, T, T, ndt_sc_clip_##SFX)

#define NDT_DK_COMPLEX_OPS(U, UF, B, BF, T3, SFX, DT, T)                                 \
  BF(NDT_ADD, DT, SFX, T, T, T, ndt_sc_add_##SFX)                                        \
  BF(NDT_SUBTRACT, DT, SFX, T, T, T, ndt_sc_sub_##SFX)                                   \
  BF(NDT_MULTIPLY, DT, SFX, T, T, T, ndt_sc_mul_##SFX)                                   \
  BF(NDT_DK_MUL_FUSED, DT, SFX, T, T, T, ndt_sc_mulf_##SFX)                              \
  BF(NDT_TRUE_DIVIDE, DT, SFX, T, T, T, ndt_sc_div_##SFX)                                \
  B(NDT_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_eq_##SFX)                                  \
  B(NDT_NOT_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_ne_##SFX)                              \
  BF(NDT_LESS, DT, SFX, T, T, ndt_sc_bool, ndt_sc_ltf_##SFX)                                 \
  BF(NDT_LESS_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lef_##SFX)                           \
  BF(NDT_GREATER, DT, SFX, T, T, ndt_sc_bool, ndt_sc_gtf_##SFX)                              \
  BF(NDT_GREATER_EQUAL, DT, SFX, T, T, ndt_sc_bool, ndt_sc_gef_##SFX)                        \
  B(NDT_LOGICAL_AND, DT, SFX, T, T, ndt_sc_bool, ndt_sc_land_##SFX)                          \
  B(NDT_LOGICAL_OR, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lor_##SFX)                            \
  B(NDT_LOGICAL_XOR, DT, SFX, T, T, ndt_sc_bool, ndt_sc_lxor_##SFX)                          \
  B(NDT_MAXIMUM, DT, SFX, T, T, T, ndt_sc_max_##SFX)                                     \
  B(NDT_MINIMUM, DT, SFX, T, T, T, ndt_sc_min_##SFX)                                     \
  B(NDT_FMAX, DT, SFX, T, T, T, ndt_sc_fmax_##SFX)                                       \
  B(NDT_FMIN, DT, SFX, T, T, T, ndt_sc_fmin_##SFX)                                       \
  U(NDT_NEGATIVE, DT, SFX, T, T, ndt_sc_neg_##SFX)                                       \
  U(NDT_POSITIVE, DT, SFX, T, T, ndt_sc_pos_##SFX)                                       \
  U(NDT_CONJUGATE, DT, SFX, T, T, ndt_sc_conj_##SFX)                                     \
  U(NDT_LOGICAL_NOT, DT, SFX, T, ndt_sc_bool, ndt_sc_lnot_##SFX)                             \
  UF(NDT_SQUARE, DT, SFX, T, T, ndt_sc_sq_##SFX)                                         \
  UF(NDT_DK_SQ_FUSED, DT, SFX, T, T, ndt_sc_sqf_##SFX)                                   \
  UF(NDT_RECIPROCAL, DT, SFX, T, T, ndt_sc_recip_##SFX)                                  \
  U(NDT_RINT, DT, SFX, T, T, ndt_sc_rint_##SFX)                                          \
  U(NDT_ISNAN, DT, SFX, T, ndt_sc_bool, ndt_sc_isnan_##SFX)                                  \
  U(NDT_ISINF, DT, SFX, T, ndt_sc_bool, ndt_sc_isinf_##SFX)                                  \
  U(NDT_ISFINITE, DT, SFX, T, ndt_sc_bool, ndt_sc_isfin_##SFX)                               \
  T3(NDT_CLIP, DT, SFX, T, T, T, T, ndt_sc_clip_##SFX)

#define NDT_DK_WHERE(T3, SFX, DT, T) \
  T3(NDT_WHERE, DT, SFX, ndt_sc_bool, T, T, T, ndt_dk_where_##SFX)

/* every entry: the shapes U, UF, B, BF, T3 (see the top) */
#define NDT_DK_ALL_OPS(U, UF, B, BF, T3)                                                 \
  NDT_DK_BOOL_OPS(U, UF, B, BF, T3)                                                      \
  NDT_DK_INT_OPS(U, UF, B, BF, T3, i8, NDT_INT8, int8_t)                                 \
  NDT_DK_INT_OPS(U, UF, B, BF, T3, i16, NDT_INT16, int16_t)                              \
  NDT_DK_INT_OPS(U, UF, B, BF, T3, i32, NDT_INT32, int32_t)                              \
  NDT_DK_INT_OPS(U, UF, B, BF, T3, i64, NDT_INT64, int64_t)                              \
  NDT_DK_INT_OPS(U, UF, B, BF, T3, u8, NDT_UINT8, uint8_t)                               \
  NDT_DK_INT_OPS(U, UF, B, BF, T3, u16, NDT_UINT16, uint16_t)                            \
  NDT_DK_INT_OPS(U, UF, B, BF, T3, u32, NDT_UINT32, uint32_t)                            \
  NDT_DK_INT_OPS(U, UF, B, BF, T3, u64, NDT_UINT64, uint64_t)                            \
  NDT_DK_FLOAT_OPS(U, UF, B, BF, T3, f32, NDT_FLOAT32, float)                            \
  NDT_DK_FLOAT_OPS(U, UF, B, BF, T3, f64, NDT_FLOAT64, double)                           \
  NDT_DK_MATH_OPS(U, UF, B, BF, T3, f32, NDT_FLOAT32, float)                             \
  NDT_DK_MATH_OPS(U, UF, B, BF, T3, f64, NDT_FLOAT64, double)                            \
  NDT_DK_COMPLEX_OPS(U, UF, B, BF, T3, c64, NDT_COMPLEX64, ndt_c64)                      \
  NDT_DK_COMPLEX_OPS(U, UF, B, BF, T3, c128, NDT_COMPLEX128, ndt_c128)                   \
  B(NDT_EQUAL, NDT_DK_KEY_QQ, qQ, int64_t, uint64_t, ndt_sc_bool, ndt_sc_eq_qQ)              \
  B(NDT_NOT_EQUAL, NDT_DK_KEY_QQ, qQ, int64_t, uint64_t, ndt_sc_bool, ndt_sc_ne_qQ)          \
  B(NDT_LESS, NDT_DK_KEY_QQ, qQ, int64_t, uint64_t, ndt_sc_bool, ndt_sc_lt_qQ)               \
  B(NDT_LESS_EQUAL, NDT_DK_KEY_QQ, qQ, int64_t, uint64_t, ndt_sc_bool, ndt_sc_le_qQ)         \
  B(NDT_GREATER, NDT_DK_KEY_QQ, qQ, int64_t, uint64_t, ndt_sc_bool, ndt_sc_gt_qQ)            \
  B(NDT_GREATER_EQUAL, NDT_DK_KEY_QQ, qQ, int64_t, uint64_t, ndt_sc_bool, ndt_sc_ge_qQ)      \
  B(NDT_EQUAL, NDT_DK_KEY_QQR, Qq, uint64_t, int64_t, ndt_sc_bool, ndt_sc_eq_Qq)             \
  B(NDT_NOT_EQUAL, NDT_DK_KEY_QQR, Qq, uint64_t, int64_t, ndt_sc_bool, ndt_sc_ne_Qq)         \
  B(NDT_LESS, NDT_DK_KEY_QQR, Qq, uint64_t, int64_t, ndt_sc_bool, ndt_sc_lt_Qq)              \
  B(NDT_LESS_EQUAL, NDT_DK_KEY_QQR, Qq, uint64_t, int64_t, ndt_sc_bool, ndt_sc_le_Qq)        \
  B(NDT_GREATER, NDT_DK_KEY_QQR, Qq, uint64_t, int64_t, ndt_sc_bool, ndt_sc_gt_Qq)           \
  B(NDT_GREATER_EQUAL, NDT_DK_KEY_QQR, Qq, uint64_t, int64_t, ndt_sc_bool, ndt_sc_ge_Qq)     \
  NDT_DK_WHERE(T3, b, NDT_BOOL, ndt_sc_bool)                                                 \
  NDT_DK_WHERE(T3, i8, NDT_INT8, int8_t)                                                 \
  NDT_DK_WHERE(T3, i16, NDT_INT16, int16_t)                                              \
  NDT_DK_WHERE(T3, i32, NDT_INT32, int32_t)                                              \
  NDT_DK_WHERE(T3, i64, NDT_INT64, int64_t)                                              \
  NDT_DK_WHERE(T3, u8, NDT_UINT8, uint8_t)                                               \
  NDT_DK_WHERE(T3, u16, NDT_UINT16, uint16_t)                                            \
  NDT_DK_WHERE(T3, u32, NDT_UINT32, uint32_t)                                            \
  NDT_DK_WHERE(T3, u64, NDT_UINT64, uint64_t)                                            \
  NDT_DK_WHERE(T3, f32, NDT_FLOAT32, float)                                              \
  NDT_DK_WHERE(T3, f64, NDT_FLOAT64, double)                                             \
  NDT_DK_WHERE(T3, c64, NDT_COMPLEX64, ndt_c64)                                          \
  NDT_DK_WHERE(T3, c128, NDT_COMPLEX128, ndt_c128)

/* the dtype of each suffix, for the casts */
#define NDT_DK_DT_b NDT_BOOL
#define NDT_DK_DT_i8 NDT_INT8
#define NDT_DK_DT_i16 NDT_INT16
#define NDT_DK_DT_i32 NDT_INT32
#define NDT_DK_DT_i64 NDT_INT64
#define NDT_DK_DT_u8 NDT_UINT8
#define NDT_DK_DT_u16 NDT_UINT16
#define NDT_DK_DT_u32 NDT_UINT32
#define NDT_DK_DT_u64 NDT_UINT64
#define NDT_DK_DT_f32 NDT_FLOAT32
#define NDT_DK_DT_f64 NDT_FLOAT64
#define NDT_DK_DT_c64 NDT_COMPLEX64
#define NDT_DK_DT_c128 NDT_COMPLEX128

#endif
