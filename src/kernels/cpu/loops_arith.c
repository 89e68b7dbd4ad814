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
#define NB(x) ((x) != 0)
NDT_INLINE ndt_bool_t b_or(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) | NB(y)); }
NDT_INLINE ndt_bool_t b_and(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) & NB(y)); }
NDT_INLINE ndt_bool_t b_xor(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) ^ NB(y)); }
NDT_INLINE ndt_bool_t b_eq(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) == NB(y)); }
NDT_INLINE ndt_bool_t b_ne(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) != NB(y)); }
NDT_INLINE ndt_bool_t b_lt(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) < NB(y)); }
NDT_INLINE ndt_bool_t b_le(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) <= NB(y)); }
NDT_INLINE ndt_bool_t b_gt(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) > NB(y)); }
NDT_INLINE ndt_bool_t b_ge(ndt_bool_t x, ndt_bool_t y) { return (ndt_bool_t)(NB(x) >= NB(y)); }
NDT_INLINE ndt_bool_t b_id(ndt_bool_t x) { return (ndt_bool_t)NB(x); }
NDT_INLINE ndt_bool_t b_not(ndt_bool_t x) { return (ndt_bool_t)(x == 0); }
NDT_INLINE ndt_bool_t b_zero(ndt_bool_t x) { (void)x; return 0; }
NDT_INLINE ndt_bool_t b_one(ndt_bool_t x) { (void)x; return 1; }
NDT_INLINE ndt_bool_t b_clip(ndt_bool_t x, ndt_bool_t lo, ndt_bool_t hi) {
  ndt_bool_t v = (ndt_bool_t)(NB(x) | NB(lo));  /* max */
  return (ndt_bool_t)(v & NB(hi));               /* min */
}

NDT_DEF_BINARY(add_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_or)
NDT_DEF_BINARY(mul_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_and)
NDT_DEF_BINARY(xor_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_xor)
NDT_DEF_BINARY(eq_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_eq)
NDT_DEF_BINARY(ne_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_ne)
NDT_DEF_BINARY(lt_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_lt)
NDT_DEF_BINARY(le_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_le)
NDT_DEF_BINARY(gt_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_gt)
NDT_DEF_BINARY(ge_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_ge)
NDT_DEF_UNARY(id_bool, ndt_bool_t, ndt_bool_t, b_id)
NDT_DEF_UNARY(not_bool, ndt_bool_t, ndt_bool_t, b_not)
NDT_DEF_UNARY(zero_bool, ndt_bool_t, ndt_bool_t, b_zero)
NDT_DEF_UNARY(one_bool, ndt_bool_t, ndt_bool_t, b_one)
NDT_DEF_TERNARY(clip_bool, ndt_bool_t, ndt_bool_t, ndt_bool_t, ndt_bool_t, b_clip)

/* ======================================================================
 * integers
 * ====================================================================== */
/* Scalar functions common to signed and unsigned types. */
#define INT_COMMON(SFX, DT, T, UT, UW, S, BITS)                                        \
  NDT_INLINE T add_s_##SFX(T x, T y) { return (T)(UT)((UW)(UT)x + (UW)(UT)y); }          \
  NDT_INLINE T sub_s_##SFX(T x, T y) { return (T)(UT)((UW)(UT)x - (UW)(UT)y); }          \
  NDT_INLINE T mul_s_##SFX(T x, T y) { return (T)(UT)((UW)(UT)x * (UW)(UT)y); }          \
  NDT_INLINE T neg_s_##SFX(T x) { return (T)(UT)((UW)0 - (UW)(UT)x); }                   \
  NDT_INLINE T pos_s_##SFX(T x) { return x; }                                            \
  NDT_INLINE T sq_s_##SFX(T x) { return mul_s_##SFX(x, x); }                             \
  NDT_INLINE T inv_s_##SFX(T x) { return (T)(UT)(~(UW)(UT)x); }                          \
  NDT_INLINE T recip_s_##SFX(T x) { return ndt_d2##SFX(1.0 / (double)x); }               \
  NDT_INLINE T and_s_##SFX(T x, T y) { return (T)(x & y); }                              \
  NDT_INLINE T or_s_##SFX(T x, T y) { return (T)(x | y); }                               \
  NDT_INLINE T xor_s_##SFX(T x, T y) { return (T)(x ^ y); }                              \
  NDT_INLINE T max_s_##SFX(T x, T y) { return x > y ? x : y; }                           \
  NDT_INLINE T min_s_##SFX(T x, T y) { return x < y ? x : y; }                           \
  NDT_INLINE T clip_s_##SFX(T x, T lo, T hi) {                                           \
    T v = x > lo ? x : lo;                                                               \
    return v < hi ? v : hi;                                                              \
  }                                                                                      \
  NDT_INLINE ndt_bool_t eq_s_##SFX(T x, T y) { return (ndt_bool_t)(x == y); }            \
  NDT_INLINE ndt_bool_t ne_s_##SFX(T x, T y) { return (ndt_bool_t)(x != y); }            \
  NDT_INLINE ndt_bool_t lt_s_##SFX(T x, T y) { return (ndt_bool_t)(x < y); }             \
  NDT_INLINE ndt_bool_t le_s_##SFX(T x, T y) { return (ndt_bool_t)(x <= y); }            \
  NDT_INLINE ndt_bool_t gt_s_##SFX(T x, T y) { return (ndt_bool_t)(x > y); }             \
  NDT_INLINE ndt_bool_t ge_s_##SFX(T x, T y) { return (ndt_bool_t)(x >= y); }            \
  NDT_INLINE ndt_bool_t land_s_##SFX(T x, T y) { return (ndt_bool_t)((x != 0) & (y != 0)); } \
  NDT_INLINE ndt_bool_t lor_s_##SFX(T x, T y) { return (ndt_bool_t)((x != 0) | (y != 0)); }  \
  NDT_INLINE ndt_bool_t lxor_s_##SFX(T x, T y) { return (ndt_bool_t)((x != 0) ^ (y != 0)); } \
  NDT_INLINE ndt_bool_t lnot_s_##SFX(T x) { return (ndt_bool_t)(x == 0); }               \
  NDT_INLINE ndt_bool_t false_s_##SFX(T x) { (void)x; return 0; }                        \
  NDT_INLINE ndt_bool_t true_s_##SFX(T x) { (void)x; return 1; }                         \
  NDT_INLINE T lsh_s_##SFX(T x, T y) {                                                   \
    return (UT)y < (UT)(BITS) ? (T)(UT)((UW)(UT)x << (UT)y) : (T)0;                      \
  }
NDT_FOREACH_INT(INT_COMMON)

/* Signed-only forms. */
#define INT_SIGNED(SFX, DT, T, UT, UW, S, BITS)                                        \
  NDT_INLINE T fdiv_s_##SFX(T x, T y) {                                                  \
    if (y == 0) {                                                                        \
      ndt_raise_divbyzero();                                                             \
      return 0;                                                                          \
    }                                                                                    \
    if (y == -1) {                            /* INT_MIN // -1 = INT_MIN */              \
      if (x == (T)((UT)1 << (BITS - 1))) ndt_raise_overflow();                           \
      return neg_s_##SFX(x);                                                             \
    }                                                                                    \
    T q = (T)(x / y);                                                                    \
    if ((T)(x % y) != 0 && ((x < 0) != (y < 0))) q = (T)(q - 1);                         \
    return q;                                                                            \
  }                                                                                      \
  NDT_INLINE T rem_s_##SFX(T x, T y) {                                                   \
    if (y == 0) ndt_raise_divbyzero();                                                   \
    if (y == 0 || y == -1) return 0;                                                     \
    T r = (T)(x % y);                                                                    \
    if (r != 0 && ((r < 0) != (y < 0))) r = (T)(r + y);                                  \
    return r;                                                                            \
  }                                                                                      \
  NDT_INLINE T fmod_s_##SFX(T x, T y) {                                                  \
    if (y == 0) ndt_raise_divbyzero();                                                   \
    if (y == 0 || y == -1) return 0;                                                     \
    return (T)(x % y);                                                                   \
  }                                                                                      \
  NDT_INLINE T abs_s_##SFX(T x) { return x < 0 ? neg_s_##SFX(x) : x; }                   \
  NDT_INLINE T sign_s_##SFX(T x) { return (T)((x > 0) - (x < 0)); }                      \
  NDT_INLINE T rsh_s_##SFX(T x, T y) {                                                   \
    if ((UT)y < (UT)(BITS)) return (T)(x >> y);                                          \
    return x < 0 ? (T)-1 : (T)0;                                                         \
  }                                                                                      \
  NDT_INLINE T pow_s_##SFX(T x, T y) {                                                   \
    if (y < 0) {                                                                         \
      if (x == 1) return 1;                                                              \
      if (x == -1) return (y & 1) ? (T)-1 : (T)1;                                        \
      return 0;                                                                          \
    }                                                                                    \
    UW r = 1, b = (UW)(UT)x;                                                             \
    UT e = (UT)y;                                                                        \
    while (e) {                                                                          \
      if (e & 1) r = (UW)(UT)(r * b);                                                    \
      b = (UW)(UT)(b * b);                                                               \
      e = (UT)(e >> 1);                                                                  \
    }                                                                                    \
    return (T)(UT)r;                                                                     \
  }
NDT_FOREACH_SINT(INT_SIGNED)

/* Unsigned-only forms. */
#define INT_UNSIGNED(SFX, DT, T, UT, UW, S, BITS)                                      \
  NDT_INLINE T udiv0_s_##SFX(void) {                                                     \
    ndt_raise_divbyzero();                                                               \
    return 0;                                                                            \
  }                                                                                      \
  NDT_INLINE T fdiv_s_##SFX(T x, T y) { return y == 0 ? udiv0_s_##SFX() : (T)(x / y); }  \
  NDT_INLINE T rem_s_##SFX(T x, T y) { return y == 0 ? udiv0_s_##SFX() : (T)(x % y); }   \
  NDT_INLINE T fmod_s_##SFX(T x, T y) { return y == 0 ? udiv0_s_##SFX() : (T)(x % y); }  \
  NDT_INLINE T abs_s_##SFX(T x) { return x; }                                            \
  NDT_INLINE T sign_s_##SFX(T x) { return (T)(x > 0); }                                  \
  NDT_INLINE T rsh_s_##SFX(T x, T y) { return y < (T)(BITS) ? (T)(x >> y) : (T)0; }      \
  NDT_INLINE T pow_s_##SFX(T x, T y) {                                                   \
    UW r = 1, b = (UW)x;                                                                 \
    T e = y;                                                                             \
    while (e) {                                                                          \
      if (e & 1) r = (UW)(UT)(r * b);                                                    \
      b = (UW)(UT)(b * b);                                                               \
      e = (T)(e >> 1);                                                                   \
    }                                                                                    \
    return (T)r;                                                                         \
  }
NDT_FOREACH_UINT(INT_UNSIGNED)

/* The six comparisons of two T, for the integer and the float loops. */
#define CMP_LOOPS(V, CL, SFX, T)                                           \
  NDT_DEF_BINARY_A(eq_##SFX##V, CL, T, T, ndt_bool_t, eq_s_##SFX)          \
  NDT_DEF_BINARY_A(ne_##SFX##V, CL, T, T, ndt_bool_t, ne_s_##SFX)          \
  NDT_DEF_BINARY_A(lt_##SFX##V, CL, T, T, ndt_bool_t, lt_s_##SFX)          \
  NDT_DEF_BINARY_A(le_##SFX##V, CL, T, T, ndt_bool_t, le_s_##SFX)          \
  NDT_DEF_BINARY_A(gt_##SFX##V, CL, T, T, ndt_bool_t, gt_s_##SFX)          \
  NDT_DEF_BINARY_A(ge_##SFX##V, CL, T, T, ndt_bool_t, ge_s_##SFX)

/* The plainest integer loops, in one copy per instruction set (NDT_COPIES,
 * cpu.h): 2-4x faster on data in cache, the small-array path's case. */
#define INT_COPIED(V, CL, SFX, T)                                          \
  NDT_DEF_BINARY_A(add_##SFX##V, CL, T, T, T, add_s_##SFX)                 \
  NDT_DEF_BINARY_A(sub_##SFX##V, CL, T, T, T, sub_s_##SFX)                 \
  NDT_DEF_BINARY_A(mul_##SFX##V, CL, T, T, T, mul_s_##SFX)                 \
  CMP_LOOPS(V, CL, SFX, T)                                                 \
  NDT_DEF_BINARY_A(and_##SFX##V, CL, T, T, T, and_s_##SFX)                 \
  NDT_DEF_BINARY_A(or_##SFX##V, CL, T, T, T, or_s_##SFX)                   \
  NDT_DEF_BINARY_A(xor_##SFX##V, CL, T, T, T, xor_s_##SFX)                 \
  NDT_DEF_BINARY_A(max_##SFX##V, CL, T, T, T, max_s_##SFX)                 \
  NDT_DEF_BINARY_A(min_##SFX##V, CL, T, T, T, min_s_##SFX)                 \
  NDT_DEF_UNARY_A(neg_##SFX##V, CL, T, T, neg_s_##SFX)                     \
  NDT_DEF_UNARY_A(abs_##SFX##V, CL, T, T, abs_s_##SFX)

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
  NDT_DEF_BINARY(pow_##SFX, T, T, T, pow_s_##SFX)                       \
  NDT_DEF_BINARY(land_##SFX, T, T, ndt_bool_t, land_s_##SFX)            \
  NDT_DEF_BINARY(lor_##SFX, T, T, ndt_bool_t, lor_s_##SFX)              \
  NDT_DEF_BINARY(lxor_##SFX, T, T, ndt_bool_t, lxor_s_##SFX)            \
  NDT_DEF_BINARY(lsh_##SFX, T, T, T, lsh_s_##SFX)                       \
  NDT_DEF_BINARY(rsh_##SFX, T, T, T, rsh_s_##SFX)                       \
  NDT_DEF_UNARY(pos_##SFX, T, T, pos_s_##SFX)                           \
  NDT_DEF_UNARY(sign_##SFX, T, T, sign_s_##SFX)                         \
  NDT_DEF_UNARY(lnot_##SFX, T, ndt_bool_t, lnot_s_##SFX)                \
  NDT_DEF_UNARY(inv_##SFX, T, T, inv_s_##SFX)                           \
  NDT_DEF_UNARY(sq_##SFX, T, T, sq_s_##SFX)                             \
  NDT_DEF_UNARY(recip_v_##SFX, T, T, recip_s_##SFX)                     \
  RECIP_LOOP(SFX, T)                                                    \
  NDT_DEF_UNARY(false_##SFX, T, ndt_bool_t, false_s_##SFX)              \
  NDT_DEF_UNARY(true_##SFX, T, ndt_bool_t, true_s_##SFX)                \
  NDT_DEF_TERNARY(clip_##SFX, T, T, T, T, clip_s_##SFX)
NDT_FOREACH_INT(INT_LOOPS)

/* ======================================================================
 * real floats
 * ====================================================================== */
/* fmod for finite operands with the x87 partial-remainder instruction
 * (exact, like libm's fmod, but several times faster than glibc's generic
 * code; NumPy's build inlines fmod the same way). Other operands go to libm. */
#if defined(__x86_64__) && defined(__GNUC__)
NDT_INLINE double ndt__fmod_x87(double a, double b) {
  long double x = a;
  const long double y = b;
  __asm__("1:\n\tfprem\n\tfnstsw %%ax\n\ttestb $4, %%ah\n\tjnz 1b"
          : "+t"(x) : "u"(y) : "ax", "cc");
  return (double)x;
}
/* isfinite by the exponent bits: gcc 12 compiles isfinite() to a signalling
 * compare (comisd), which raises "invalid" for a quiet NaN (0.0 % nan). */
NDT_INLINE int ndt__finite_d(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return (u & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}
NDT_INLINE double ndt__fmod(double a, double b) {
  if (ndt__finite_d(a) && ndt__finite_d(b) && b != 0) return ndt__fmod_x87(a, b);
  return fmod(a, b);
}
NDT_INLINE float ndt__fmodf(float a, float b) {
  if (ndt__finite_d(a) && ndt__finite_d(b) && b != 0) return (float)ndt__fmod_x87(a, b);
  return fmodf(a, b);
}
#else
#define ndt__fmod fmod
#define ndt__fmodf fmodf
#endif

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

#define FLOAT_SCALARS(SFX, DT, T, SUF)                                                 \
  NDT_INLINE T add_s_##SFX(T x, T y) { return x + y; }                                   \
  NDT_INLINE T sub_s_##SFX(T x, T y) { return x - y; }                                   \
  NDT_INLINE T mul_s_##SFX(T x, T y) { return x * y; }                                   \
  NDT_INLINE T div_s_##SFX(T x, T y) { return x / y; }                                   \
  /* npy_divmod: Python's divmod, copied by NumPy from CPython */                        \
  NDT_INLINE T divmod_s_##SFX(T a, T b, T *modulus) {                                    \
    /* NaN in, NaN out; gcc 12 compiles isless/isgreater below to signalling \
     * compares (comisd), which would raise "invalid" for a quiet NaN */     \
    if (a != a || b != b) { *modulus = a + b; return a + b; }                            \
    T mod = ndt__fmod##SUF(a, b);                                                             \
    if (!b) { *modulus = mod; return a / b; }                                            \
    T div = (a - mod) / b;                                                               \
    if (mod) {                                                                           \
      if (isless(b, (T)0) != isless(mod, (T)0)) { mod += b; div -= (T)1; }               \
    } else {                                                                             \
      mod = copysign##SUF((T)0, b);                                                      \
    }                                                                                    \
    T floordiv;                                                                          \
    if (div) {                                                                           \
      floordiv = floor##SUF(div);                                                        \
      if (isgreater(div - floordiv, (T)0.5)) floordiv += (T)1;                           \
    } else {                                                                             \
      floordiv = copysign##SUF((T)0, a / b);                                             \
    }                                                                                    \
    *modulus = mod;                                                                      \
    return floordiv;                                                                     \
  }                                                                                      \
  NDT_INLINE T fdiv_s_##SFX(T a, T b) {                                                  \
    if (!b) return a / b;                                                                \
    T mod;                                                                               \
    return divmod_s_##SFX(a, b, &mod);                                                   \
  }                                                                                      \
  NDT_INLINE T rem_s_##SFX(T a, T b) {                                                   \
    if (!b) return ndt__fmod##SUF(a, b);                                                      \
    T mod;                                                                               \
    (void)divmod_s_##SFX(a, b, &mod);                                                    \
    return mod;                                                                          \
  }                                                                                      \
  NDT_INLINE T fmod_s_##SFX(T x, T y) { return ndt__fmod##SUF(x, y); }                        \
  /* NumPy's power on AVX-512 (SVML) raises two flags pow does not: divide    \
   * by zero for 0 ** -inf, and overflow for x ** inf where x * x overflows    \
   * (|x| >= 2**512 in float64, 2**64 in float32). float_power's loop is     \
   * plain pow, as NumPy's. */                                                   \
  NDT_INLINE T fpow_s_##SFX(T x, T y) { return pow##SUF(x, y); }                         \
  NDT_INLINE T pow_s_##SFX(T x, T y) {                                                   \
    const unsigned f = ndt_pow_svml_flags_##SFX(x, y);                                   \
    if (__builtin_expect(f != 0, 0)) ndt_fpe_raise(f);                                   \
    return pow##SUF(x, y);                                                               \
  }                                                                                      \
  NDT_INLINE ndt_bool_t eq_s_##SFX(T x, T y) { return (ndt_bool_t)(x == y); }            \
  NDT_INLINE ndt_bool_t ne_s_##SFX(T x, T y) { return (ndt_bool_t)(x != y); }            \
  NDT_INLINE ndt_bool_t lt_s_##SFX(T x, T y) { return (ndt_bool_t)(x < y); }             \
  NDT_INLINE ndt_bool_t le_s_##SFX(T x, T y) { return (ndt_bool_t)(x <= y); }            \
  NDT_INLINE ndt_bool_t gt_s_##SFX(T x, T y) { return (ndt_bool_t)(x > y); }             \
  NDT_INLINE ndt_bool_t ge_s_##SFX(T x, T y) { return (ndt_bool_t)(x >= y); }            \
  NDT_INLINE ndt_bool_t land_s_##SFX(T x, T y) { return (ndt_bool_t)((x != 0) & (y != 0)); } \
  NDT_INLINE ndt_bool_t lor_s_##SFX(T x, T y) { return (ndt_bool_t)((x != 0) | (y != 0)); }  \
  NDT_INLINE ndt_bool_t lxor_s_##SFX(T x, T y) { return (ndt_bool_t)((x != 0) ^ (y != 0)); } \
  NDT_INLINE ndt_bool_t lnot_s_##SFX(T x) { return (ndt_bool_t)(x == 0); }               \
  NDT_INLINE T max_s_##SFX(T x, T y) { return (x > y || x != x) ? x : y; }               \
  NDT_INLINE T min_s_##SFX(T x, T y) { return (x < y || x != x) ? x : y; }               \
  NDT_INLINE T fmax_s_##SFX(T x, T y) { return (x > y || y != y) ? x : y; }              \
  NDT_INLINE T fmin_s_##SFX(T x, T y) { return (x < y || y != y) ? x : y; }              \
  NDT_INLINE T clip_s_##SFX(T x, T lo, T hi) {                                           \
    T v = (x != x || x > lo) ? x : lo;                                                   \
    return (v != v || v < hi) ? v : hi;                                                  \
  }                                                                                      \
  NDT_INLINE T copysign_s_##SFX(T x, T y) { return copysign##SUF(x, y); }                \
  NDT_INLINE T nextafter_s_##SFX(T x, T y) { return nextafter##SUF(x, y); }              \
  NDT_INLINE T neg_s_##SFX(T x) { return -x; }                                           \
  NDT_INLINE T pos_s_##SFX(T x) { return +x; }                                           \
  NDT_INLINE T abs_s_##SFX(T x) { return fabs##SUF(x); }                                 \
  NDT_INLINE T sign_s_##SFX(T x) {                                                       \
    return x > 0 ? (T)1 : (x < 0 ? (T)-1 : (x == 0 ? (T)0 : x));                         \
  }                                                                                      \
  NDT_INLINE T sq_s_##SFX(T x) { return x * x; }                                         \
  NDT_INLINE T recip_s_##SFX(T x) { return (T)1 / x; }                                   \
  NDT_INLINE ndt_bool_t isnan_s_##SFX(T x) { return (ndt_bool_t)(x != x); }              \
  NDT_INLINE ndt_bool_t isinf_s_##SFX(T x) { return (ndt_bool_t)(fabs##SUF(x) == (T)INFINITY); } \
  NDT_INLINE ndt_bool_t isfin_s_##SFX(T x) { return (ndt_bool_t)(fabs##SUF(x) < (T)INFINITY); }  \
  NDT_INLINE ndt_bool_t signbit_s_##SFX(T x) { return (ndt_bool_t)(signbit(x) != 0); }
NDT_FOREACH_FLOAT(FLOAT_SCALARS)

/* NumPy: x * (pi/180) and x * (180/pi) with the constants computed in the
 * loop's precision. */
NDT_INLINE float deg2rad_s_f32(float x) { return x * (3.14159265358979323846f / 180.0f); }
NDT_INLINE double deg2rad_s_f64(double x) { return x * (3.14159265358979323846 / 180.0); }
NDT_INLINE float rad2deg_s_f32(float x) { return x * (180.0f / 3.14159265358979323846f); }
NDT_INLINE double rad2deg_s_f64(double x) { return x * (180.0 / 3.14159265358979323846); }

/* NumPy's power loop takes a scalar exponent of 0.5 (stride 0) as sqrt:
 * (-inf) ** 0.5 is nan and (-0.0) ** 0.5 is -0.0 there, and float32
 * results are sqrtf's rounding, not powf's. One of 1 is a copy (no
 * underflow for a subnormal base). An exponent array that holds 0.5 or 1
 * goes through pow, as in NumPy. */
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
  NDT_DEF_BINARY_A(max_##SFX##V, CL, T, T, T, max_s_##SFX)                 \
  NDT_DEF_BINARY_A(min_##SFX##V, CL, T, T, T, min_s_##SFX)                 \
  NDT_DEF_BINARY_A(fmax_##SFX##V, CL, T, T, T, fmax_s_##SFX)               \
  NDT_DEF_BINARY_A(fmin_##SFX##V, CL, T, T, T, fmin_s_##SFX)               \
  NDT_DEF_UNARY_A(neg_##SFX##V, CL, T, T, neg_s_##SFX)                     \
  NDT_DEF_UNARY_A(abs_##SFX##V, CL, T, T, abs_s_##SFX)
#define FLOAT_LOOPS(SFX, DT, T, SUF)                                    \
  NDT_COPIES(FLOAT_COPIED, SFX, T)                                      \
  NDT_DEF_BINARY_A(fdiv_##SFX, NDT_BRANCHY, T, T, T, fdiv_s_##SFX)      \
  NDT_DEF_BINARY_A(rem_##SFX, NDT_BRANCHY, T, T, T, rem_s_##SFX)        \
  NDT_DEF_BINARY_A(fmod_##SFX, NDT_BRANCHY, T, T, T, fmod_s_##SFX)      \
  NDT_DEF_BINARY(powv_##SFX, T, T, T, pow_s_##SFX)                      \
  POW_LOOP(SFX, T, SUF)                                                 \
  NDT_DEF_BINARY(fpow_##SFX, T, T, T, fpow_s_##SFX)                     \
  NDT_DEF_BINARY(land_##SFX, T, T, ndt_bool_t, land_s_##SFX)            \
  NDT_DEF_BINARY(lor_##SFX, T, T, ndt_bool_t, lor_s_##SFX)              \
  NDT_DEF_BINARY(lxor_##SFX, T, T, ndt_bool_t, lxor_s_##SFX)            \
  NDT_DEF_BINARY(copysign_##SFX, T, T, T, copysign_s_##SFX)             \
  NDT_DEF_BINARY(nextafter_##SFX, T, T, T, nextafter_s_##SFX)           \
  NDT_DEF_UNARY(pos_##SFX, T, T, pos_s_##SFX)                           \
  NDT_DEF_UNARY(sign_##SFX, T, T, sign_s_##SFX)                         \
  NDT_DEF_UNARY(lnot_##SFX, T, ndt_bool_t, lnot_s_##SFX)                \
  NDT_DEF_UNARY(sq_##SFX, T, T, sq_s_##SFX)                             \
  NDT_DEF_UNARY(recip_##SFX, T, T, recip_s_##SFX)                       \
  NDT_DEF_UNARY(isnan_##SFX, T, ndt_bool_t, isnan_s_##SFX)              \
  NDT_DEF_UNARY(isinf_##SFX, T, ndt_bool_t, isinf_s_##SFX)              \
  NDT_DEF_UNARY(isfin_##SFX, T, ndt_bool_t, isfin_s_##SFX)              \
  NDT_DEF_UNARY(signbit_##SFX, T, ndt_bool_t, signbit_s_##SFX)          \
  NDT_DEF_UNARY(deg2rad_##SFX, T, T, deg2rad_s_##SFX)                   \
  NDT_DEF_UNARY(rad2deg_##SFX, T, T, rad2deg_s_##SFX)                   \
  NDT_DEF_TERNARY(clip_##SFX, T, T, T, T, clip_s_##SFX)
NDT_FOREACH_FLOAT(FLOAT_LOOPS)

/* ======================================================================
 * mixed int64/uint64 comparisons ('qQ->?', 'Qq->?'): exact
 * ====================================================================== */
NDT_INLINE ndt_bool_t qQ_eq(int64_t a, uint64_t b) { return (ndt_bool_t)(a >= 0 && (uint64_t)a == b); }
NDT_INLINE ndt_bool_t qQ_ne(int64_t a, uint64_t b) { return (ndt_bool_t)(a < 0 || (uint64_t)a != b); }
NDT_INLINE ndt_bool_t qQ_lt(int64_t a, uint64_t b) { return (ndt_bool_t)(a < 0 || (uint64_t)a < b); }
NDT_INLINE ndt_bool_t qQ_le(int64_t a, uint64_t b) { return (ndt_bool_t)(a < 0 || (uint64_t)a <= b); }
NDT_INLINE ndt_bool_t qQ_gt(int64_t a, uint64_t b) { return (ndt_bool_t)(a >= 0 && (uint64_t)a > b); }
NDT_INLINE ndt_bool_t qQ_ge(int64_t a, uint64_t b) { return (ndt_bool_t)(a >= 0 && (uint64_t)a >= b); }
NDT_INLINE ndt_bool_t Qq_eq(uint64_t a, int64_t b) { return qQ_eq(b, a); }
NDT_INLINE ndt_bool_t Qq_ne(uint64_t a, int64_t b) { return qQ_ne(b, a); }
NDT_INLINE ndt_bool_t Qq_lt(uint64_t a, int64_t b) { return qQ_gt(b, a); }
NDT_INLINE ndt_bool_t Qq_le(uint64_t a, int64_t b) { return qQ_ge(b, a); }
NDT_INLINE ndt_bool_t Qq_gt(uint64_t a, int64_t b) { return qQ_lt(b, a); }
NDT_INLINE ndt_bool_t Qq_ge(uint64_t a, int64_t b) { return qQ_le(b, a); }
NDT_DEF_BINARY(qQ_eq_loop, int64_t, uint64_t, ndt_bool_t, qQ_eq)
NDT_DEF_BINARY(qQ_ne_loop, int64_t, uint64_t, ndt_bool_t, qQ_ne)
NDT_DEF_BINARY(qQ_lt_loop, int64_t, uint64_t, ndt_bool_t, qQ_lt)
NDT_DEF_BINARY(qQ_le_loop, int64_t, uint64_t, ndt_bool_t, qQ_le)
NDT_DEF_BINARY(qQ_gt_loop, int64_t, uint64_t, ndt_bool_t, qQ_gt)
NDT_DEF_BINARY(qQ_ge_loop, int64_t, uint64_t, ndt_bool_t, qQ_ge)
NDT_DEF_BINARY(Qq_eq_loop, uint64_t, int64_t, ndt_bool_t, Qq_eq)
NDT_DEF_BINARY(Qq_ne_loop, uint64_t, int64_t, ndt_bool_t, Qq_ne)
NDT_DEF_BINARY(Qq_lt_loop, uint64_t, int64_t, ndt_bool_t, Qq_lt)
NDT_DEF_BINARY(Qq_le_loop, uint64_t, int64_t, ndt_bool_t, Qq_le)
NDT_DEF_BINARY(Qq_gt_loop, uint64_t, int64_t, ndt_bool_t, Qq_gt)
NDT_DEF_BINARY(Qq_ge_loop, uint64_t, int64_t, ndt_bool_t, Qq_ge)

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
