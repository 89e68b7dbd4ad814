/* loops_arith.c - bool, integer and real-float loops that need no
 * transcendental functions: arithmetic, comparisons, logical, bitwise,
 * shifts, maximum/minimum, sign/abs family, where and clip.
 *
 * NumPy semantics (checked against NumPy 2.x):
 *   - integer overflow wraps (done in unsigned arithmetic: no UB);
 *   - integer x // 0, x % 0, fmod(x, 0) give 0; INT_MIN // -1 = INT_MIN;
 *     // floors and % takes the divisor's sign (Python), fmod is C's;
 *   - float // and % use NumPy's npy_divmod formulas;
 *   - shifts by >= the bit width (or negative) give 0, or -1 for a right
 *     shift of a negative number;
 *   - integer power by repeated squaring, wrapping; negative exponents (a
 *     ValueError in NumPy, checked by the front end) give 1 for base 1,
 *     +-1 for base -1 and 0 otherwise;
 *   - integer reciprocal is the int conversion of 1.0/x (x86 NumPy values:
 *     reciprocal(0) = INT_MIN for int32/int64, 0 for the others);
 *   - maximum/minimum propagate NaN, fmax/fmin ignore it (ties return the
 *     second operand as NumPy's SIMD loops do);
 *   - comparisons with NaN are false (!= is true); sign(nan) = nan.
 */
#include "loops_common.h"

/* ======================================================================
 * bool
 * ====================================================================== */
/* scalar.h: ndt_sc_or_b & co. */
NDT_DEF_BINARY(add_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_or_b)
NDT_DEF_BINARY(mul_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_and_b)
NDT_DEF_BINARY(xor_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_xor_b)
NDT_DEF_BINARY(eq_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_eq_b)
NDT_DEF_BINARY(ne_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_ne_b)
NDT_DEF_BINARY(lt_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_lt_b)
NDT_DEF_BINARY(le_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_le_b)
NDT_DEF_BINARY(gt_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_gt_b)
NDT_DEF_BINARY(ge_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_ge_b)
NDT_DEF_UNARY(id_bool, ndt_bool_t, ndt_bool_t, ndt_sc_id_b)
NDT_DEF_UNARY(not_bool, ndt_bool_t, ndt_bool_t, ndt_sc_not_b)
NDT_DEF_UNARY(zero_bool, ndt_bool_t, ndt_bool_t, ndt_sc_zero_b)
NDT_DEF_UNARY(one_bool, ndt_bool_t, ndt_bool_t, ndt_sc_one_b)
NDT_DEF_TERNARY(clip_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_sc_clip_b)

/* ======================================================================
 * integers
 * ====================================================================== */
/* scalar.h: ndt_sc_add_i32 & co.; the CPU forms of those that report
 * flags (integer division by zero and INT_MIN // -1 raise here). */
#define INT_SCALARS(SFX, DT, T, UT, UW, S, BITS)                        \
  NDT_CPU_FE2(fdiv_s_##SFX, T, T, T, ndt_sc_fdiv_##SFX)                  \
  NDT_CPU_FE2(rem_s_##SFX, T, T, T, ndt_sc_rem_##SFX)                    \
  NDT_CPU_FE2(fmod_s_##SFX, T, T, T, ndt_sc_fmod_##SFX)                  \
  NDT_CPU_FE1(recip_s_##SFX, T, T, ndt_sc_recip_##SFX)
NDT_FOREACH_INT(INT_SCALARS)

/* The six comparisons of two T, for the integer and the float loops. */
#define CMP_LOOPS(V, CL, SFX, T)                                           \
  NDT_DEF_BINARY_A(eq_##SFX##V, CL, T, T, ndt_bool_t, ndt_sc_eq_##SFX)     \
  NDT_DEF_BINARY_A(ne_##SFX##V, CL, T, T, ndt_bool_t, ndt_sc_ne_##SFX)     \
  NDT_DEF_BINARY_A(lt_##SFX##V, CL, T, T, ndt_bool_t, ndt_sc_lt_##SFX)     \
  NDT_DEF_BINARY_A(le_##SFX##V, CL, T, T, ndt_bool_t, ndt_sc_le_##SFX)     \
  NDT_DEF_BINARY_A(gt_##SFX##V, CL, T, T, ndt_bool_t, ndt_sc_gt_##SFX)     \
  NDT_DEF_BINARY_A(ge_##SFX##V, CL, T, T, ndt_bool_t, ndt_sc_ge_##SFX)

/* The plainest integer loops, in one copy per instruction set (NDT_COPIES,
 * cpu.h): 2-4x faster on data in cache, the small-array path's case. */
#define INT_COPIED(V, CL, SFX, T)                                          \
  NDT_DEF_BINARY_A(add_##SFX##V, CL, T, T, T, ndt_sc_add_##SFX)                 \
  NDT_DEF_BINARY_A(sub_##SFX##V, CL, T, T, T, ndt_sc_sub_##SFX)                 \
  NDT_DEF_BINARY_A(mul_##SFX##V, CL, T, T, T, ndt_sc_mul_##SFX)                 \
  CMP_LOOPS(V, CL, SFX, T)                                                 \
  NDT_DEF_BINARY_A(and_##SFX##V, CL, T, T, T, ndt_sc_and_##SFX)                 \
  NDT_DEF_BINARY_A(or_##SFX##V, CL, T, T, T, ndt_sc_or_##SFX)                   \
  NDT_DEF_BINARY_A(xor_##SFX##V, CL, T, T, T, ndt_sc_xor_##SFX)                 \
  NDT_DEF_BINARY_A(max_##SFX##V, CL, T, T, T, ndt_sc_max_##SFX)                 \
  NDT_DEF_BINARY_A(min_##SFX##V, CL, T, T, T, ndt_sc_min_##SFX)                 \
  NDT_DEF_UNARY_A(neg_##SFX##V, CL, T, T, ndt_sc_neg_##SFX)                     \
  NDT_DEF_UNARY_A(abs_##SFX##V, CL, T, T, ndt_sc_abs_##SFX)

/* Integer reciprocal: NumPy's loop is (T)(1.0 / x), so x == 0 raises
 * "divide by zero" (1.0 / 0.0) and "invalid" (inf converted to an integer).
 * The guarded conversion (ndt_d2*) raises "invalid" only where the compiler
 * happens to vectorise it (contiguous int8/16/32), so the loop looks for a
 * zero among the inputs (before the output may overwrite them) and raises
 * "invalid" itself, for every layout and integer type. */
#define RECIP_LOOP(SFX, T)                                                      \
  static void recip_##SFX(char **args, const int64_t *steps, int64_t n) {       \
    const char *ip = args[0];                                                   \
    const int64_t is = steps[0];                                                \
    int zero = 0;                                                               \
    if (is == (int64_t)sizeof(T)) {                                             \
      const T *a = (const T *)ip;                                               \
      for (int64_t i = 0; i < n; i++) zero |= a[i] == 0;                        \
    } else {                                                                    \
      for (int64_t i = 0; i < n; i++) zero |= *(const T *)(ip + i * is) == 0;   \
    }                                                                           \
    recip_v_##SFX(args, steps, n);                                              \
    if (zero) ndt_fpe_raise(NDT_FPE_INVALID);                                   \
  }

/* Loops for every integer type. */
#define INT_LOOPS(SFX, DT, T, UT, UW, S, BITS)                          \
  NDT_COPIES(INT_COPIED, SFX, T)                                        \
  NDT_DEF_BINARY(fdiv_##SFX, T, T, T, fdiv_s_##SFX)                     \
  NDT_DEF_BINARY(rem_##SFX, T, T, T, rem_s_##SFX)                       \
  NDT_DEF_BINARY(fmod_##SFX, T, T, T, fmod_s_##SFX)                     \
  NDT_DEF_BINARY(pow_##SFX, T, T, T, ndt_sc_pow_##SFX)                       \
  NDT_DEF_BINARY(land_##SFX, T, T, ndt_bool_t, ndt_sc_land_##SFX)            \
  NDT_DEF_BINARY(lor_##SFX, T, T, ndt_bool_t, ndt_sc_lor_##SFX)              \
  NDT_DEF_BINARY(lxor_##SFX, T, T, ndt_bool_t, ndt_sc_lxor_##SFX)            \
  NDT_DEF_BINARY(lsh_##SFX, T, T, T, ndt_sc_lsh_##SFX)                       \
  NDT_DEF_BINARY(rsh_##SFX, T, T, T, ndt_sc_rsh_##SFX)                       \
  NDT_DEF_UNARY(pos_##SFX, T, T, ndt_sc_pos_##SFX)                           \
  NDT_DEF_UNARY(sign_##SFX, T, T, ndt_sc_sign_##SFX)                         \
  NDT_DEF_UNARY(lnot_##SFX, T, ndt_bool_t, ndt_sc_lnot_##SFX)                \
  NDT_DEF_UNARY(inv_##SFX, T, T, ndt_sc_inv_##SFX)                           \
  NDT_DEF_UNARY(sq_##SFX, T, T, ndt_sc_sq_##SFX)                             \
  NDT_DEF_UNARY(recip_v_##SFX, T, T, recip_s_##SFX)                     \
  RECIP_LOOP(SFX, T)                                                    \
  NDT_DEF_UNARY(false_##SFX, T, ndt_bool_t, ndt_sc_false_##SFX)              \
  NDT_DEF_UNARY(true_##SFX, T, ndt_bool_t, ndt_sc_true_##SFX)                \
  NDT_DEF_TERNARY(clip_##SFX, T, T, T, T, ndt_sc_clip_##SFX)
NDT_FOREACH_INT(INT_LOOPS)

/* ======================================================================
 * real floats
 * ====================================================================== */
/* The flags NumPy's AVX-512 power (SVML) raises beyond pow's (see pow_s
 * below), found from the bits: a float compare would raise "invalid" for a
 * NaN operand itself. */
NDT_INLINE unsigned ndt_pow_svml_flags_f64(double x, double y) {
  uint64_t bx, by;
  memcpy(&bx, &x, 8);
  memcpy(&by, &y, 8);
  if (by == 0xfff0000000000000ull) return (bx << 1) == 0 ? NDT_FPE_DIVIDE : 0;   /* 0 ** -inf */
  if (by == 0x7ff0000000000000ull) {   /* x ** inf, x finite with x * x beyond the range */
    const unsigned e = (unsigned)(bx >> 52) & 0x7ff;
    return e >= 1023 + 512 && e < 0x7ff ? NDT_FPE_OVERFLOW : 0;
  }
  return 0;
}
NDT_INLINE unsigned ndt_pow_svml_flags_f32(float x, float y) {
  uint32_t bx, by;
  memcpy(&bx, &x, 4);
  memcpy(&by, &y, 4);
  if (by == 0xff800000u) return (bx << 1) == 0 ? NDT_FPE_DIVIDE : 0;
  if (by == 0x7f800000u) {
    const unsigned e = (bx >> 23) & 0xff;
    return e >= 127 + 64 && e < 0xff ? NDT_FPE_OVERFLOW : 0;
  }
  return 0;
}

/* scalar.h: ndt_sc_add_f64 & co.; the CPU forms of those that take a
 * flags argument (the hardware raises the float flags itself). */
#define FLOAT_SCALARS(SFX, DT, T, SUF)                                  \
  NDT_CPU_FE2(add_s_##SFX, T, T, T, ndt_sc_add_##SFX)                    \
  NDT_CPU_FE2(sub_s_##SFX, T, T, T, ndt_sc_sub_##SFX)                    \
  NDT_CPU_FE2(mul_s_##SFX, T, T, T, ndt_sc_mul_##SFX)                    \
  NDT_CPU_FE2(div_s_##SFX, T, T, T, ndt_sc_div_##SFX)                    \
  NDT_CPU_FE2(fdiv_s_##SFX, T, T, T, ndt_sc_fdiv_##SFX)                  \
  NDT_CPU_FE2(rem_s_##SFX, T, T, T, ndt_sc_rem_##SFX)                    \
  NDT_CPU_FE2(fmod_s_##SFX, T, T, T, ndt_sc_fmod_##SFX)                  \
  NDT_CPU_FE1(sq_s_##SFX, T, T, ndt_sc_sq_##SFX)                         \
  NDT_CPU_FE1(recip_s_##SFX, T, T, ndt_sc_recip_##SFX)                   \
  NDT_CPU_FE1(deg2rad_s_##SFX, T, T, ndt_sc_deg2rad_##SFX)               \
  NDT_CPU_FE1(rad2deg_s_##SFX, T, T, ndt_sc_rad2deg_##SFX)               \
  /* NumPy's power on AVX-512 (SVML) raises two flags pow does not: divide \
   * by zero for 0 ** -inf, and overflow for x ** inf where x * x overflows \
   * (|x| >= 2**512 in float64, 2**64 in float32). float_power's loop is  \
   * plain pow, as NumPy's. */                                            \
  NDT_INLINE T fpow_s_##SFX(T x, T y) { return pow##SUF(x, y); }         \
  NDT_INLINE T pow_s_##SFX(T x, T y) {                                   \
    const unsigned f = ndt_pow_svml_flags_##SFX(x, y);                   \
    if (__builtin_expect(f != 0, 0)) ndt_fpe_raise(f);                   \
    return pow##SUF(x, y);                                               \
  }                                                                      \
  NDT_INLINE T nextafter_s_##SFX(T x, T y) { return nextafter##SUF(x, y); }
NDT_FOREACH_FLOAT(FLOAT_SCALARS)

/* NumPy's power loop takes a scalar exponent of 0.5 (stride 0) as sqrt:
 * (-inf) ** 0.5 is nan and (-0.0) ** 0.5 is -0.0 there, and float32
 * results are sqrtf's rounding, not powf's. One of 1 is a copy (no
 * underflow for a subnormal base). An exponent array that holds 0.5 or 1
 * goes through pow, as in NumPy; so does one that is constant along a run
 * but not over the whole call (a (4, 1) exponent of a (4, 3) base: NumPy's
 * iterator buffers it), which the core runs with powv, the loop without
 * these paths (ndt_kernels.loop_varying). */
#define POW_LOOP(SFX, T, SUF)                                                        \
  static void pow_##SFX(char **args, const int64_t *steps, int64_t n) {             \
    if (steps[1] == 0 && n > 0 && *(const T *)args[1] == (T)0.5) {                   \
      const char *ip = args[0];                                                      \
      char *op = args[2];                                                            \
      for (int64_t i = 0; i < n; i++, ip += steps[0], op += steps[2])                \
        *(T *)op = sqrt##SUF(*(const T *)ip);                                        \
      return;                                                                        \
    }                                                                                \
    if (steps[1] == 0 && n > 0 && *(const T *)args[1] == (T)1) {                     \
      /* and 1 as a copy: pow(x, 1) raises underflow for a subnormal x */             \
      const char *ip = args[0];                                                      \
      char *op = args[2];                                                            \
      for (int64_t i = 0; i < n; i++, ip += steps[0], op += steps[2])                \
        memcpy(op, ip, sizeof(T));                                                   \
      return;                                                                        \
    }                                                                                \
    powv_##SFX(args, steps, n);                                                      \
  }

/* The plainest float loops, in one copy per instruction set (NDT_COPIES). */
#define FLOAT_COPIED(V, CL, SFX, T)                                        \
  NDT_DEF_BINARY_A(add_##SFX##V, CL, T, T, T, add_s_##SFX)                 \
  NDT_DEF_BINARY_A(sub_##SFX##V, CL, T, T, T, sub_s_##SFX)                 \
  NDT_DEF_BINARY_A(mul_##SFX##V, CL, T, T, T, mul_s_##SFX)                 \
  NDT_DEF_BINARY_A(div_##SFX##V, CL, T, T, T, div_s_##SFX)                 \
  CMP_LOOPS(V, CL, SFX, T)                                                 \
  NDT_DEF_BINARY_A(max_##SFX##V, CL, T, T, T, ndt_sc_max_##SFX)                 \
  NDT_DEF_BINARY_A(min_##SFX##V, CL, T, T, T, ndt_sc_min_##SFX)                 \
  NDT_DEF_BINARY_A(fmax_##SFX##V, CL, T, T, T, ndt_sc_fmax_##SFX)               \
  NDT_DEF_BINARY_A(fmin_##SFX##V, CL, T, T, T, ndt_sc_fmin_##SFX)               \
  NDT_DEF_UNARY_A(neg_##SFX##V, CL, T, T, ndt_sc_neg_##SFX)                     \
  NDT_DEF_UNARY_A(abs_##SFX##V, CL, T, T, ndt_sc_abs_##SFX)
#define FLOAT_LOOPS(SFX, DT, T, SUF)                                    \
  NDT_COPIES(FLOAT_COPIED, SFX, T)                                      \
  NDT_DEF_BINARY_A(fdiv_##SFX, NDT_BRANCHY, T, T, T, fdiv_s_##SFX)      \
  NDT_DEF_BINARY_A(rem_##SFX, NDT_BRANCHY, T, T, T, rem_s_##SFX)        \
  NDT_DEF_BINARY_A(fmod_##SFX, NDT_BRANCHY, T, T, T, fmod_s_##SFX)      \
  NDT_DEF_BINARY(powv_##SFX, T, T, T, pow_s_##SFX)                      \
  POW_LOOP(SFX, T, SUF)                                                 \
  NDT_DEF_BINARY(fpow_##SFX, T, T, T, fpow_s_##SFX)                     \
  NDT_DEF_BINARY(land_##SFX, T, T, ndt_bool_t, ndt_sc_land_##SFX)            \
  NDT_DEF_BINARY(lor_##SFX, T, T, ndt_bool_t, ndt_sc_lor_##SFX)              \
  NDT_DEF_BINARY(lxor_##SFX, T, T, ndt_bool_t, ndt_sc_lxor_##SFX)            \
  NDT_DEF_BINARY(copysign_##SFX, T, T, T, ndt_sc_copysign_##SFX)             \
  NDT_DEF_BINARY(nextafter_##SFX, T, T, T, nextafter_s_##SFX)           \
  NDT_DEF_UNARY(pos_##SFX, T, T, ndt_sc_pos_##SFX)                           \
  NDT_DEF_UNARY(sign_##SFX, T, T, ndt_sc_sign_##SFX)                         \
  NDT_DEF_UNARY(lnot_##SFX, T, ndt_bool_t, ndt_sc_lnot_##SFX)                \
  NDT_DEF_UNARY(sq_##SFX, T, T, sq_s_##SFX)                             \
  NDT_DEF_UNARY(recip_##SFX, T, T, recip_s_##SFX)                       \
  NDT_DEF_UNARY(isnan_##SFX, T, ndt_bool_t, ndt_sc_isnan_##SFX)              \
  NDT_DEF_UNARY(isinf_##SFX, T, ndt_bool_t, ndt_sc_isinf_##SFX)              \
  NDT_DEF_UNARY(isfin_##SFX, T, ndt_bool_t, ndt_sc_isfin_##SFX)              \
  NDT_DEF_UNARY(signbit_##SFX, T, ndt_bool_t, ndt_sc_signbit_##SFX)          \
  NDT_DEF_UNARY(deg2rad_##SFX, T, T, deg2rad_s_##SFX)                   \
  NDT_DEF_UNARY(rad2deg_##SFX, T, T, rad2deg_s_##SFX)                   \
  NDT_DEF_TERNARY(clip_##SFX, T, T, T, T, ndt_sc_clip_##SFX)
NDT_FOREACH_FLOAT(FLOAT_LOOPS)

/* ======================================================================
 * mixed int64/uint64 comparisons ('qQ->?', 'Qq->?'): exact
 * ====================================================================== */
NDT_DEF_BINARY(qQ_eq_loop, int64_t, uint64_t, ndt_bool_t, ndt_sc_eq_qQ)
NDT_DEF_BINARY(qQ_ne_loop, int64_t, uint64_t, ndt_bool_t, ndt_sc_ne_qQ)
NDT_DEF_BINARY(qQ_lt_loop, int64_t, uint64_t, ndt_bool_t, ndt_sc_lt_qQ)
NDT_DEF_BINARY(qQ_le_loop, int64_t, uint64_t, ndt_bool_t, ndt_sc_le_qQ)
NDT_DEF_BINARY(qQ_gt_loop, int64_t, uint64_t, ndt_bool_t, ndt_sc_gt_qQ)
NDT_DEF_BINARY(qQ_ge_loop, int64_t, uint64_t, ndt_bool_t, ndt_sc_ge_qQ)
NDT_DEF_BINARY(Qq_eq_loop, uint64_t, int64_t, ndt_bool_t, ndt_sc_eq_Qq)
NDT_DEF_BINARY(Qq_ne_loop, uint64_t, int64_t, ndt_bool_t, ndt_sc_ne_Qq)
NDT_DEF_BINARY(Qq_lt_loop, uint64_t, int64_t, ndt_bool_t, ndt_sc_lt_Qq)
NDT_DEF_BINARY(Qq_le_loop, uint64_t, int64_t, ndt_bool_t, ndt_sc_le_Qq)
NDT_DEF_BINARY(Qq_gt_loop, uint64_t, int64_t, ndt_bool_t, ndt_sc_gt_Qq)
NDT_DEF_BINARY(Qq_ge_loop, uint64_t, int64_t, ndt_bool_t, ndt_sc_ge_Qq)

ndt_loop_fn ndt__cpu_loop_cmp_mixed(ndt_ufunc op, int int64_first) {
  switch (op) {
  case NDT_EQUAL: return int64_first ? qQ_eq_loop : Qq_eq_loop;
  case NDT_NOT_EQUAL: return int64_first ? qQ_ne_loop : Qq_ne_loop;
  case NDT_LESS: return int64_first ? qQ_lt_loop : Qq_lt_loop;
  case NDT_LESS_EQUAL: return int64_first ? qQ_le_loop : Qq_le_loop;
  case NDT_GREATER: return int64_first ? qQ_gt_loop : Qq_gt_loop;
  case NDT_GREATER_EQUAL: return int64_first ? qQ_ge_loop : Qq_ge_loop;
  default: return 0;
  }
}

/* ======================================================================
 * where(cond, x, y): by item size
 * ====================================================================== */
#define WHERE_S(NAME, T)                                                 \
  NDT_INLINE T NAME##_s(ndt_bool_t c, T x, T y) { return c ? x : y; }    \
  NDT_DEF_TERNARY(NAME, ndt_bool_t, T, T, T, NAME##_s)
WHERE_S(where_1, uint8_t)
WHERE_S(where_2, uint16_t)
WHERE_S(where_4, uint32_t)
WHERE_S(where_8, uint64_t)
WHERE_S(where_16, ndt_c128)

ndt_loop_fn ndt__cpu_loop_where(int itemsize) {
  switch (itemsize) {
  case 1: return where_1;
  case 2: return where_2;
  case 4: return where_4;
  case 8: return where_8;
  case 16: return where_16;
  default: return 0;
  }
}

/* ======================================================================
 * the table: [op][loop dtype]
 * ====================================================================== */
#define INT_TAB(SFX, DT, T, UT, UW, S, BITS)                                        \
  [NDT_ADD][DT] = add_##SFX, [NDT_SUBTRACT][DT] = sub_##SFX,                        \
  [NDT_MULTIPLY][DT] = mul_##SFX, [NDT_FLOOR_DIVIDE][DT] = fdiv_##SFX,              \
  [NDT_REMAINDER][DT] = rem_##SFX, [NDT_FMOD][DT] = fmod_##SFX,                     \
  [NDT_POWER][DT] = pow_##SFX, [NDT_EQUAL][DT] = eq_##SFX,                          \
  [NDT_NOT_EQUAL][DT] = ne_##SFX, [NDT_LESS][DT] = lt_##SFX,                        \
  [NDT_LESS_EQUAL][DT] = le_##SFX, [NDT_GREATER][DT] = gt_##SFX,                    \
  [NDT_GREATER_EQUAL][DT] = ge_##SFX, [NDT_LOGICAL_AND][DT] = land_##SFX,           \
  [NDT_LOGICAL_OR][DT] = lor_##SFX, [NDT_LOGICAL_XOR][DT] = lxor_##SFX,             \
  [NDT_BITWISE_AND][DT] = and_##SFX, [NDT_BITWISE_OR][DT] = or_##SFX,               \
  [NDT_BITWISE_XOR][DT] = xor_##SFX, [NDT_LEFT_SHIFT][DT] = lsh_##SFX,              \
  [NDT_RIGHT_SHIFT][DT] = rsh_##SFX, [NDT_MAXIMUM][DT] = max_##SFX,                 \
  [NDT_MINIMUM][DT] = min_##SFX, [NDT_FMAX][DT] = max_##SFX,                        \
  [NDT_FMIN][DT] = min_##SFX, [NDT_NEGATIVE][DT] = neg_##SFX,                       \
  [NDT_POSITIVE][DT] = pos_##SFX, [NDT_ABSOLUTE][DT] = abs_##SFX,                   \
  [NDT_SIGN][DT] = sign_##SFX, [NDT_LOGICAL_NOT][DT] = lnot_##SFX,                  \
  [NDT_INVERT][DT] = inv_##SFX, [NDT_SQUARE][DT] = sq_##SFX,                        \
  [NDT_RECIPROCAL][DT] = recip_##SFX, [NDT_CONJUGATE][DT] = pos_##SFX,              \
  [NDT_FLOOR][DT] = pos_##SFX, [NDT_CEIL][DT] = pos_##SFX,                          \
  [NDT_TRUNC][DT] = pos_##SFX, [NDT_ISNAN][DT] = false_##SFX,                       \
  [NDT_ISINF][DT] = false_##SFX, [NDT_ISFINITE][DT] = true_##SFX,                   \
  [NDT_CLIP][DT] = clip_##SFX,

#define FLOAT_TAB(SFX, DT, T, SUF)                                                  \
  [NDT_ADD][DT] = add_##SFX, [NDT_SUBTRACT][DT] = sub_##SFX,                        \
  [NDT_MULTIPLY][DT] = mul_##SFX, [NDT_TRUE_DIVIDE][DT] = div_##SFX,                \
  [NDT_FLOOR_DIVIDE][DT] = fdiv_##SFX, [NDT_REMAINDER][DT] = rem_##SFX,             \
  [NDT_FMOD][DT] = fmod_##SFX, [NDT_POWER][DT] = pow_##SFX,                         \
  [NDT_EQUAL][DT] = eq_##SFX, [NDT_NOT_EQUAL][DT] = ne_##SFX,                       \
  [NDT_LESS][DT] = lt_##SFX, [NDT_LESS_EQUAL][DT] = le_##SFX,                       \
  [NDT_GREATER][DT] = gt_##SFX, [NDT_GREATER_EQUAL][DT] = ge_##SFX,                 \
  [NDT_LOGICAL_AND][DT] = land_##SFX, [NDT_LOGICAL_OR][DT] = lor_##SFX,             \
  [NDT_LOGICAL_XOR][DT] = lxor_##SFX, [NDT_MAXIMUM][DT] = max_##SFX,                \
  [NDT_MINIMUM][DT] = min_##SFX, [NDT_FMAX][DT] = fmax_##SFX,                       \
  [NDT_FMIN][DT] = fmin_##SFX, [NDT_COPYSIGN][DT] = copysign_##SFX,                 \
  [NDT_NEXTAFTER][DT] = nextafter_##SFX, [NDT_NEGATIVE][DT] = neg_##SFX,            \
  [NDT_POSITIVE][DT] = pos_##SFX, [NDT_ABSOLUTE][DT] = abs_##SFX,                   \
  [NDT_SIGN][DT] = sign_##SFX, [NDT_LOGICAL_NOT][DT] = lnot_##SFX,                  \
  [NDT_SQUARE][DT] = sq_##SFX, [NDT_RECIPROCAL][DT] = recip_##SFX,                  \
  [NDT_CONJUGATE][DT] = pos_##SFX, [NDT_ISNAN][DT] = isnan_##SFX,                   \
  [NDT_ISINF][DT] = isinf_##SFX, [NDT_ISFINITE][DT] = isfin_##SFX,                  \
  [NDT_SIGNBIT][DT] = signbit_##SFX, [NDT_DEG2RAD][DT] = deg2rad_##SFX,             \
  [NDT_RAD2DEG][DT] = rad2deg_##SFX, [NDT_CLIP][DT] = clip_##SFX,                  \
  [NDT_DEGREES][DT] = rad2deg_##SFX, [NDT_RADIANS][DT] = deg2rad_##SFX,             \
  [NDT_FLOAT_POWER][DT] = fpow_##SFX,

static const ndt_loop_fn arith_tab[NDT_NUFUNCS][NDT_NTYPES] = {
  /* bool */
  [NDT_ADD][NDT_BOOL] = add_bool, [NDT_MULTIPLY][NDT_BOOL] = mul_bool,
  [NDT_EQUAL][NDT_BOOL] = eq_bool, [NDT_NOT_EQUAL][NDT_BOOL] = ne_bool,
  [NDT_LESS][NDT_BOOL] = lt_bool, [NDT_LESS_EQUAL][NDT_BOOL] = le_bool,
  [NDT_GREATER][NDT_BOOL] = gt_bool, [NDT_GREATER_EQUAL][NDT_BOOL] = ge_bool,
  [NDT_LOGICAL_AND][NDT_BOOL] = mul_bool, [NDT_LOGICAL_OR][NDT_BOOL] = add_bool,
  [NDT_LOGICAL_XOR][NDT_BOOL] = xor_bool, [NDT_BITWISE_AND][NDT_BOOL] = mul_bool,
  [NDT_BITWISE_OR][NDT_BOOL] = add_bool, [NDT_BITWISE_XOR][NDT_BOOL] = xor_bool,
  [NDT_MAXIMUM][NDT_BOOL] = add_bool, [NDT_MINIMUM][NDT_BOOL] = mul_bool,
  [NDT_FMAX][NDT_BOOL] = add_bool, [NDT_FMIN][NDT_BOOL] = mul_bool,
  [NDT_ABSOLUTE][NDT_BOOL] = id_bool, [NDT_LOGICAL_NOT][NDT_BOOL] = not_bool,
  [NDT_INVERT][NDT_BOOL] = not_bool, [NDT_FLOOR][NDT_BOOL] = id_bool,
  [NDT_CEIL][NDT_BOOL] = id_bool, [NDT_TRUNC][NDT_BOOL] = id_bool,
  [NDT_ISNAN][NDT_BOOL] = zero_bool, [NDT_ISINF][NDT_BOOL] = zero_bool,
  [NDT_ISFINITE][NDT_BOOL] = one_bool, [NDT_CLIP][NDT_BOOL] = clip_bool,
  NDT_FOREACH_INT(INT_TAB)
  NDT_FOREACH_FLOAT(FLOAT_TAB)
};

#if NDT_SIMD_COPIES
/* The SIMD copies of the loops INT_COPIED and FLOAT_COPIED define, at every
 * place of arith_tab that holds their portable copy. */
#define INT_COPY_TAB(SFX, DT, V)                                                    \
  [NDT_ADD][DT] = add_##SFX##V, [NDT_SUBTRACT][DT] = sub_##SFX##V,                  \
  [NDT_MULTIPLY][DT] = mul_##SFX##V, [NDT_EQUAL][DT] = eq_##SFX##V,                 \
  [NDT_NOT_EQUAL][DT] = ne_##SFX##V, [NDT_LESS][DT] = lt_##SFX##V,                  \
  [NDT_LESS_EQUAL][DT] = le_##SFX##V, [NDT_GREATER][DT] = gt_##SFX##V,              \
  [NDT_GREATER_EQUAL][DT] = ge_##SFX##V, [NDT_BITWISE_AND][DT] = and_##SFX##V,      \
  [NDT_BITWISE_OR][DT] = or_##SFX##V, [NDT_BITWISE_XOR][DT] = xor_##SFX##V,         \
  [NDT_MAXIMUM][DT] = max_##SFX##V, [NDT_MINIMUM][DT] = min_##SFX##V,               \
  [NDT_FMAX][DT] = max_##SFX##V, [NDT_FMIN][DT] = min_##SFX##V,                     \
  [NDT_NEGATIVE][DT] = neg_##SFX##V, [NDT_ABSOLUTE][DT] = abs_##SFX##V,
#define FLOAT_COPY_TAB(SFX, DT, V)                                                  \
  [NDT_ADD][DT] = add_##SFX##V, [NDT_SUBTRACT][DT] = sub_##SFX##V,                  \
  [NDT_MULTIPLY][DT] = mul_##SFX##V, [NDT_TRUE_DIVIDE][DT] = div_##SFX##V,          \
  [NDT_EQUAL][DT] = eq_##SFX##V, [NDT_NOT_EQUAL][DT] = ne_##SFX##V,                 \
  [NDT_LESS][DT] = lt_##SFX##V, [NDT_LESS_EQUAL][DT] = le_##SFX##V,                 \
  [NDT_GREATER][DT] = gt_##SFX##V, [NDT_GREATER_EQUAL][DT] = ge_##SFX##V,           \
  [NDT_MAXIMUM][DT] = max_##SFX##V, [NDT_MINIMUM][DT] = min_##SFX##V,               \
  [NDT_FMAX][DT] = fmax_##SFX##V, [NDT_FMIN][DT] = fmin_##SFX##V,                   \
  [NDT_NEGATIVE][DT] = neg_##SFX##V, [NDT_ABSOLUTE][DT] = abs_##SFX##V,
#define INT_AVX2(SFX, DT, T, UT, UW, S, BITS) INT_COPY_TAB(SFX, DT, _avx2)
#define INT_AVX512(SFX, DT, T, UT, UW, S, BITS) INT_COPY_TAB(SFX, DT, _avx512)
#define FLOAT_AVX2(SFX, DT, T, SUF) FLOAT_COPY_TAB(SFX, DT, _avx2)
#define FLOAT_AVX512(SFX, DT, T, SUF) FLOAT_COPY_TAB(SFX, DT, _avx512)
static const ndt_loop_fn arith_avx2[NDT_NUFUNCS][NDT_NTYPES] = {
  NDT_FOREACH_INT(INT_AVX2) NDT_FOREACH_FLOAT(FLOAT_AVX2)
};
static const ndt_loop_fn arith_avx512[NDT_NUFUNCS][NDT_NTYPES] = {
  NDT_FOREACH_INT(INT_AVX512) NDT_FOREACH_FLOAT(FLOAT_AVX512)
};
#endif

/* power's float loops without the fast paths (resolve.c) */
ndt_loop_fn ndt__cpu_loop_pow_varying(ndt_dtype t) {
  return t == NDT_FLOAT32 ? powv_f32 : t == NDT_FLOAT64 ? powv_f64 : 0;
}

ndt_loop_fn ndt__cpu_loop_arith(ndt_ufunc op, ndt_dtype t) {
  if ((int)op < 0 || op >= NDT_NUFUNCS || (int)t < 0 || t >= NDT_NTYPES) return 0;
#if NDT_SIMD_COPIES
  /* the copies table.c installed */
  int c = ndt_cpu_copies();
  ndt_loop_fn f = c >= 3 ? arith_avx512[op][t] : c >= 2 ? arith_avx2[op][t] : NULL;
  if (f) return f;
#endif
  return arith_tab[op][t];
}
