/* scalar.h - NumPy's per-element semantics, written once for the CPU loops
 * (src/kernels/cpu) and the device kernels (src/kernels/cuda): the same
 * source gives the same bits on both (issue 18, "same bits" for exact
 * operations). Plain C99 that nvcc also compiles as __host__ __device__
 * code; no include but <stdint.h>, <string.h>, <math.h> and the complex
 * storage types, so device code can use it.
 *
 * What it fixes, per element (checked against NumPy 2.x on x86-64):
 *   - integer arithmetic wraps (done in the unsigned type of the width);
 *     x // 0, x % 0, fmod(x, 0) give 0 and raise "divide by zero";
 *     INT_MIN // -1 = INT_MIN and raises "overflow"; // floors, % takes the
 *     divisor's sign (Python), fmod is C's;
 *   - shifts by >= the width (or negative) give 0, or -1 for a right shift
 *     of a negative number; integer power by repeated squaring, wrapping;
 *   - float // and % are NumPy's npy_divmod; maximum/minimum propagate
 *     NaN, fmax/fmin ignore it; comparisons with NaN are false (!= true);
 *     sign(nan) = nan; bool results are 0 or 1;
 *   - float -> int casts are x86-64's (NaN and out-of-range values give the
 *     "integer indefinite" INT_MIN, 8/16-bit targets keep the low bits of
 *     the int32 conversion, unsigned 32/64-bit through the signed one), with
 *     no undefined behaviour in C;
 *   - complex + - * / as NumPy's loops (Smith's division; multiply fused on
 *     FMA hardware when the CPU loops fuse it, see ndt_sc_mulf_c*).
 *
 * Floating-point flags. Each function that can raise one takes `unsigned
 * *fe` and ORs NDT_SC_FE_* bits into it for what the CPU raises in a way
 * the hardware does not (integer division by zero, INT_MIN // -1). Where
 * the CPU's hardware raises IEEE flags itself (float arithmetic), the
 * device cannot: device builds (NDT_SC_DEV) infer divide, overflow and
 * invalid from each operation's operands and result, step by step, so
 * that multi-step functions (npy_divmod) report what each step of the CPU
 * raised. Underflow is not inferred (NumPy ignores it by default).
 *
 * NaNs. On the device (NDT_SC_DEV) a float operation whose result is NaN
 * returns x86's NaN: the first NaN operand, quieted, else the "default NaN"
 * (sign set, quiet): the GPU's canonical NaN differs. With two NaN
 * operands of different payloads the CPU's own bits depend on the order
 * the compiler gave the operands, so only "NaN" is promised there.
 *
 * NDT_SC_DEV is 1 in device code (__CUDA_ARCH__) and in host builds of the
 * device kernels (NDT_SC_EMULATE: tests/c/test_devkernels.c compiles the
 * CUDA kernels' bodies as C and compares them bitwise with the CPU loops);
 * the CPU loops build with 0, and then every function below is the code
 * the loops had before (no flag or NaN bookkeeping is left). */
#ifndef NDT_KERNELS_SCALAR_H
#define NDT_KERNELS_SCALAR_H

#include <stdint.h>
#include <string.h>
#include <math.h>
#include "core/ctypes.h"

#if defined(__CUDACC__)
#define NDT_HD static __host__ __device__ __forceinline__
#else
#define NDT_HD static inline __attribute__((always_inline))
#endif

#if defined(__CUDA_ARCH__) || defined(NDT_SC_EMULATE)
#define NDT_SC_DEV 1
#else
#define NDT_SC_DEV 0
#endif

#if defined(NDT_SC_EMULATE) && !defined(__CUDA_ARCH__)
#define NDT_SC_EMU_NAN 1
#else
#define NDT_SC_EMU_NAN 0
#endif

/* the flags, as NDT_FPE_* (ndtile.h; loops_common.h checks they agree) */
#define NDT_SC_FE_DIVIDE 1u
#define NDT_SC_FE_OVERFLOW 2u
#define NDT_SC_FE_UNDERFLOW 4u
#define NDT_SC_FE_INVALID 8u

/* NDT_SC_OPAQUE(v): the compiler may not compute with v before this point
 * (a division inside one branch is not evaluated ahead of the branch,
 * where it would raise a flag NumPy does not raise); see loops_common.h. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__CUDA_ARCH__)
#define NDT_SC_OPAQUE(v) __asm__ __volatile__("" : "+x"(v))
#elif defined(__GNUC__) && !defined(__CUDA_ARCH__)
#define NDT_SC_OPAQUE(v) __asm__ __volatile__("" : "+g"(v))
#else
#define NDT_SC_OPAQUE(v) ((void)0)
#endif

/* quiet comparisons (no "invalid" for a quiet NaN on the CPU); the device
 * raises no flags */
#if defined(__CUDA_ARCH__)
#define NDT_SC_LESS(a, b) ((a) < (b))
#define NDT_SC_GREATER(a, b) ((a) > (b))
#else
#define NDT_SC_LESS(a, b) isless(a, b)
#define NDT_SC_GREATER(a, b) isgreater(a, b)
#endif

/* ======================================================================
 * bool (stored as one byte: 0 or 1; other bytes read as true)
 * ====================================================================== */
typedef uint8_t ndt_sc_bool;   /* the bool dtype's storage, by name */
#define NDT_SC_NB(x) ((x) != 0)
NDT_HD uint8_t ndt_sc_or_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) | NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_and_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) & NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_xor_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) ^ NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_eq_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) == NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_ne_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) != NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_lt_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) < NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_le_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) <= NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_gt_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) > NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_ge_b(uint8_t x, uint8_t y) { return (uint8_t)(NDT_SC_NB(x) >= NDT_SC_NB(y)); }
NDT_HD uint8_t ndt_sc_id_b(uint8_t x) { return (uint8_t)NDT_SC_NB(x); }
NDT_HD uint8_t ndt_sc_not_b(uint8_t x) { return (uint8_t)(x == 0); }
NDT_HD uint8_t ndt_sc_zero_b(uint8_t x) { (void)x; return 0; }
NDT_HD uint8_t ndt_sc_one_b(uint8_t x) { (void)x; return 1; }
NDT_HD uint8_t ndt_sc_clip_b(uint8_t x, uint8_t lo, uint8_t hi) {
  uint8_t v = (uint8_t)(NDT_SC_NB(x) | NDT_SC_NB(lo));  /* max */
  return (uint8_t)(v & NDT_SC_NB(hi));                   /* min */
}

/* ======================================================================
 * integers
 * ====================================================================== */
/* X(SFX, T, UT, UW, SIGNED, BITS): UT the unsigned type of the width, UW
 * the unsigned type wrapping arithmetic is done in (never promoted to
 * signed int, so no UB on overflow). */
#define NDT_SC_FOREACH_SINT(X)                     \
  X(i8, int8_t, uint8_t, uint32_t, 1, 8)           \
  X(i16, int16_t, uint16_t, uint32_t, 1, 16)       \
  X(i32, int32_t, uint32_t, uint32_t, 1, 32)       \
  X(i64, int64_t, uint64_t, uint64_t, 1, 64)
#define NDT_SC_FOREACH_UINT(X)                     \
  X(u8, uint8_t, uint8_t, uint32_t, 0, 8)          \
  X(u16, uint16_t, uint16_t, uint32_t, 0, 16)      \
  X(u32, uint32_t, uint32_t, uint32_t, 0, 32)      \
  X(u64, uint64_t, uint64_t, uint64_t, 0, 64)
#define NDT_SC_FOREACH_INT(X) NDT_SC_FOREACH_SINT(X) NDT_SC_FOREACH_UINT(X)

/* ---- guarded float -> int conversions (x86-64's values, see the top) ---- */
NDT_HD int32_t ndt_sc_d2i32(double x) {
  return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}
NDT_HD int64_t ndt_sc_d2i64(double x) {
  return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}
NDT_HD uint32_t ndt_sc_d2u32(double x) {
  return x >= 2147483648.0 ? ((uint32_t)ndt_sc_d2i32(x - 2147483648.0) ^ 0x80000000u)
                           : (uint32_t)ndt_sc_d2i32(x);
}
NDT_HD uint64_t ndt_sc_d2u64(double x) {
  return x >= 9223372036854775808.0
             ? ((uint64_t)ndt_sc_d2i64(x - 9223372036854775808.0) ^ 0x8000000000000000ull)
             : (uint64_t)ndt_sc_d2i64(x);
}
NDT_HD int8_t ndt_sc_d2i8(double x) { return (int8_t)(uint8_t)(uint32_t)ndt_sc_d2i32(x); }
NDT_HD int16_t ndt_sc_d2i16(double x) { return (int16_t)(uint16_t)(uint32_t)ndt_sc_d2i32(x); }
NDT_HD uint8_t ndt_sc_d2u8(double x) { return (uint8_t)(uint32_t)ndt_sc_d2i32(x); }
NDT_HD uint16_t ndt_sc_d2u16(double x) { return (uint16_t)(uint32_t)ndt_sc_d2i32(x); }
/* float sources: the same values as going through double (exact widening) */
NDT_HD int32_t ndt_sc_f2i32(float x) {
  return (x > -2147483904.0f && x < 2147483648.0f) ? (int32_t)x : INT32_MIN;
}
NDT_HD int64_t ndt_sc_f2i64(float x) {
  return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? (int64_t)x : INT64_MIN;
}
NDT_HD uint32_t ndt_sc_f2u32(float x) { return ndt_sc_d2u32((double)x); }
NDT_HD uint64_t ndt_sc_f2u64(float x) { return ndt_sc_d2u64((double)x); }
NDT_HD int8_t ndt_sc_f2i8(float x) { return (int8_t)(uint8_t)(uint32_t)ndt_sc_f2i32(x); }
NDT_HD int16_t ndt_sc_f2i16(float x) { return (int16_t)(uint16_t)(uint32_t)ndt_sc_f2i32(x); }
NDT_HD uint8_t ndt_sc_f2u8(float x) { return (uint8_t)(uint32_t)ndt_sc_f2i32(x); }
NDT_HD uint16_t ndt_sc_f2u16(float x) { return (uint16_t)(uint32_t)ndt_sc_f2i32(x); }

NDT_HD uint8_t ndt_sc_popcount(uint64_t v) {
#if defined(__CUDA_ARCH__)
  return (uint8_t)__popcll(v);
#else
  return (uint8_t)__builtin_popcountll(v);
#endif
}

/* Common to signed and unsigned types. */
#define NDT_SC_INT_COMMON(SFX, T, UT, UW, S, BITS)                                        \
  NDT_HD T ndt_sc_add_##SFX(T x, T y) { return (T)(UT)((UW)(UT)x + (UW)(UT)y); }           \
  NDT_HD T ndt_sc_sub_##SFX(T x, T y) { return (T)(UT)((UW)(UT)x - (UW)(UT)y); }           \
  NDT_HD T ndt_sc_mul_##SFX(T x, T y) { return (T)(UT)((UW)(UT)x * (UW)(UT)y); }           \
  NDT_HD T ndt_sc_neg_##SFX(T x) { return (T)(UT)((UW)0 - (UW)(UT)x); }                    \
  NDT_HD T ndt_sc_pos_##SFX(T x) { return x; }                                             \
  NDT_HD T ndt_sc_sq_##SFX(T x) { return ndt_sc_mul_##SFX(x, x); }                         \
  NDT_HD T ndt_sc_inv_##SFX(T x) { return (T)(UT)(~(UW)(UT)x); }                           \
  /* NumPy's loop is (T)(1.0 / x): reciprocal(0) raises "divide by zero"   \
   * (1.0 / 0.0, the CPU's hardware) and "invalid" (inf to an integer: the  \
   * CPU's loop raises it itself, see loops_arith.c) */                    \
  NDT_HD T ndt_sc_recip_##SFX(T x, unsigned *fe) {                                         \
    if (NDT_SC_DEV && x == 0) *fe |= NDT_SC_FE_DIVIDE | NDT_SC_FE_INVALID;                 \
    (void)fe;                                                                             \
    return (T)ndt_sc_d2##SFX(1.0 / (double)x);                                             \
  }                                                                                       \
  NDT_HD T ndt_sc_and_##SFX(T x, T y) { return (T)(x & y); }                               \
  NDT_HD T ndt_sc_or_##SFX(T x, T y) { return (T)(x | y); }                                \
  NDT_HD T ndt_sc_xor_##SFX(T x, T y) { return (T)(x ^ y); }                               \
  NDT_HD T ndt_sc_max_##SFX(T x, T y) { return x > y ? x : y; }                            \
  NDT_HD T ndt_sc_min_##SFX(T x, T y) { return x < y ? x : y; }                            \
  NDT_HD T ndt_sc_clip_##SFX(T x, T lo, T hi) {                                            \
    T v = x > lo ? x : lo;                                                                \
    return v < hi ? v : hi;                                                               \
  }                                                                                       \
  NDT_HD uint8_t ndt_sc_eq_##SFX(T x, T y) { return (uint8_t)(x == y); }                   \
  NDT_HD uint8_t ndt_sc_ne_##SFX(T x, T y) { return (uint8_t)(x != y); }                   \
  NDT_HD uint8_t ndt_sc_lt_##SFX(T x, T y) { return (uint8_t)(x < y); }                    \
  NDT_HD uint8_t ndt_sc_le_##SFX(T x, T y) { return (uint8_t)(x <= y); }                   \
  NDT_HD uint8_t ndt_sc_gt_##SFX(T x, T y) { return (uint8_t)(x > y); }                    \
  NDT_HD uint8_t ndt_sc_ge_##SFX(T x, T y) { return (uint8_t)(x >= y); }                   \
  NDT_HD uint8_t ndt_sc_land_##SFX(T x, T y) { return (uint8_t)((x != 0) & (y != 0)); }    \
  NDT_HD uint8_t ndt_sc_lor_##SFX(T x, T y) { return (uint8_t)((x != 0) | (y != 0)); }     \
  NDT_HD uint8_t ndt_sc_lxor_##SFX(T x, T y) { return (uint8_t)((x != 0) ^ (y != 0)); }    \
  NDT_HD uint8_t ndt_sc_lnot_##SFX(T x) { return (uint8_t)(x == 0); }                      \
  NDT_HD uint8_t ndt_sc_false_##SFX(T x) { (void)x; return 0; }                            \
  NDT_HD uint8_t ndt_sc_true_##SFX(T x) { (void)x; return 1; }                             \
  NDT_HD T ndt_sc_lsh_##SFX(T x, T y) {                                                    \
    return (UT)y < (UT)(BITS) ? (T)(UT)((UW)(UT)x << (UT)y) : (T)0;                        \
  }                                                                                       \
  /* gcd/lcm: Euclid on the absolute values in the unsigned type of the    \
   * width NumPy computes in (C int for 8/16/32-bit types), results cast    \
   * back: gcd(INT64_MIN, 0) is INT64_MIN; lcm(0, x) = 0; lcm = a / g * b   \
   * wrapping; bitwise_count: popcount of |x| */                           \
  NDT_HD UW ndt_sc_absu_##SFX(T x) {                                                       \
    const UT u = (UT)x, neg = (UT)((UT)0 - u);                                            \
    return (UW)((S && (u >> (BITS - 1))) ? neg : u);                                      \
  }                                                                                       \
  NDT_HD UW ndt_sc_gcdu_##SFX(UW a, UW b) {                                                \
    while (a != 0) {                                                                      \
      const UW c = a;                                                                     \
      a = b % a;                                                                          \
      b = c;                                                                              \
    }                                                                                     \
    return b;                                                                             \
  }                                                                                       \
  NDT_HD T ndt_sc_gcd_##SFX(T x, T y) {                                                    \
    return (T)(UT)ndt_sc_gcdu_##SFX(ndt_sc_absu_##SFX(x), ndt_sc_absu_##SFX(y));           \
  }                                                                                       \
  NDT_HD T ndt_sc_lcm_##SFX(T x, T y) {                                                    \
    const UW a = ndt_sc_absu_##SFX(x), b = ndt_sc_absu_##SFX(y), g = ndt_sc_gcdu_##SFX(a, b); \
    return g == 0 ? (T)0 : (T)(UT)(a / g * b);                                            \
  }                                                                                       \
  NDT_HD uint8_t ndt_sc_popc_##SFX(T x) {                                                  \
    return ndt_sc_popcount((uint64_t)ndt_sc_absu_##SFX(x));                               \
  }
NDT_SC_FOREACH_INT(NDT_SC_INT_COMMON)

/* Signed only. */
#define NDT_SC_INT_SIGNED(SFX, T, UT, UW, S, BITS)                                        \
  NDT_HD T ndt_sc_fdiv_##SFX(T x, T y, unsigned *fe) {                                     \
    if (y == 0) {                                                                         \
      *fe |= NDT_SC_FE_DIVIDE;                                                            \
      return 0;                                                                           \
    }                                                                                     \
    if (y == -1) {                            /* INT_MIN // -1 = INT_MIN */               \
      if (x == (T)((UT)1 << (BITS - 1))) *fe |= NDT_SC_FE_OVERFLOW;                       \
      return ndt_sc_neg_##SFX(x);                                                         \
    }                                                                                     \
    T q = (T)(x / y);                                                                     \
    if ((T)(x % y) != 0 && ((x < 0) != (y < 0))) q = (T)(q - 1);                          \
    return q;                                                                             \
  }                                                                                       \
  NDT_HD T ndt_sc_rem_##SFX(T x, T y, unsigned *fe) {                                      \
    if (y == 0) *fe |= NDT_SC_FE_DIVIDE;                                                  \
    if (y == 0 || y == -1) return 0;                                                      \
    T r = (T)(x % y);                                                                     \
    if (r != 0 && ((r < 0) != (y < 0))) r = (T)(r + y);                                   \
    return r;                                                                             \
  }                                                                                       \
  NDT_HD T ndt_sc_fmod_##SFX(T x, T y, unsigned *fe) {                                     \
    if (y == 0) *fe |= NDT_SC_FE_DIVIDE;                                                  \
    if (y == 0 || y == -1) return 0;                                                      \
    return (T)(x % y);                                                                    \
  }                                                                                       \
  NDT_HD T ndt_sc_abs_##SFX(T x) { return x < 0 ? ndt_sc_neg_##SFX(x) : x; }               \
  NDT_HD T ndt_sc_sign_##SFX(T x) { return (T)((x > 0) - (x < 0)); }                       \
  NDT_HD T ndt_sc_rsh_##SFX(T x, T y) {                                                    \
    if ((UT)y < (UT)(BITS)) return (T)(x >> y);                                           \
    return x < 0 ? (T)-1 : (T)0;                                                          \
  }                                                                                       \
  /* negative exponents (a ValueError in NumPy, checked by the front end)  \
   * give 1 for base 1, +-1 for base -1 and 0 otherwise */                 \
  NDT_HD T ndt_sc_pow_##SFX(T x, T y) {                                                    \
    if (y < 0) {                                                                          \
      if (x == 1) return 1;                                                               \
      if (x == -1) return (y & 1) ? (T)-1 : (T)1;                                         \
      return 0;                                                                           \
    }                                                                                     \
    UW r = 1, b = (UW)(UT)x;                                                              \
    UT e = (UT)y;                                                                         \
    while (e) {                                                                           \
      if (e & 1) r = (UW)(UT)(r * b);                                                     \
      b = (UW)(UT)(b * b);                                                                \
      e = (UT)(e >> 1);                                                                   \
    }                                                                                     \
    return (T)(UT)r;                                                                      \
  }
NDT_SC_FOREACH_SINT(NDT_SC_INT_SIGNED)

/* Unsigned only. */
#define NDT_SC_INT_UNSIGNED(SFX, T, UT, UW, S, BITS)                                      \
  NDT_HD T ndt_sc_fdiv_##SFX(T x, T y, unsigned *fe) {                                     \
    if (y == 0) {                                                                         \
      *fe |= NDT_SC_FE_DIVIDE;                                                            \
      return 0;                                                                           \
    }                                                                                     \
    return (T)(x / y);                                                                    \
  }                                                                                       \
  NDT_HD T ndt_sc_rem_##SFX(T x, T y, unsigned *fe) {                                      \
    if (y == 0) {                                                                         \
      *fe |= NDT_SC_FE_DIVIDE;                                                            \
      return 0;                                                                           \
    }                                                                                     \
    return (T)(x % y);                                                                    \
  }                                                                                       \
  NDT_HD T ndt_sc_fmod_##SFX(T x, T y, unsigned *fe) { return ndt_sc_rem_##SFX(x, y, fe); } \
  NDT_HD T ndt_sc_abs_##SFX(T x) { return x; }                                             \
  NDT_HD T ndt_sc_sign_##SFX(T x) { return (T)(x > 0); }                                   \
  NDT_HD T ndt_sc_rsh_##SFX(T x, T y) { return y < (T)(BITS) ? (T)(x >> y) : (T)0; }       \
  NDT_HD T ndt_sc_pow_##SFX(T x, T y) {                                                    \
    UW r = 1, b = (UW)x;                                                                  \
    T e = y;                                                                              \
    while (e) {                                                                           \
      if (e & 1) r = (UW)(UT)(r * b);                                                     \
      b = (UW)(UT)(b * b);                                                                \
      e = (T)(e >> 1);                                                                    \
    }                                                                                     \
    return (T)r;                                                                          \
  }
NDT_SC_FOREACH_UINT(NDT_SC_INT_UNSIGNED)

/* Exact int64/uint64 comparisons (NumPy's 'qQ->?' and 'Qq->?' loops). */
NDT_HD uint8_t ndt_sc_eq_qQ(int64_t a, uint64_t b) { return (uint8_t)(a >= 0 && (uint64_t)a == b); }
NDT_HD uint8_t ndt_sc_ne_qQ(int64_t a, uint64_t b) { return (uint8_t)(a < 0 || (uint64_t)a != b); }
NDT_HD uint8_t ndt_sc_lt_qQ(int64_t a, uint64_t b) { return (uint8_t)(a < 0 || (uint64_t)a < b); }
NDT_HD uint8_t ndt_sc_le_qQ(int64_t a, uint64_t b) { return (uint8_t)(a < 0 || (uint64_t)a <= b); }
NDT_HD uint8_t ndt_sc_gt_qQ(int64_t a, uint64_t b) { return (uint8_t)(a >= 0 && (uint64_t)a > b); }
NDT_HD uint8_t ndt_sc_ge_qQ(int64_t a, uint64_t b) { return (uint8_t)(a >= 0 && (uint64_t)a >= b); }
NDT_HD uint8_t ndt_sc_eq_Qq(uint64_t a, int64_t b) { return ndt_sc_eq_qQ(b, a); }
NDT_HD uint8_t ndt_sc_ne_Qq(uint64_t a, int64_t b) { return ndt_sc_ne_qQ(b, a); }
NDT_HD uint8_t ndt_sc_lt_Qq(uint64_t a, int64_t b) { return ndt_sc_gt_qQ(b, a); }
NDT_HD uint8_t ndt_sc_le_Qq(uint64_t a, int64_t b) { return ndt_sc_ge_qQ(b, a); }
NDT_HD uint8_t ndt_sc_gt_Qq(uint64_t a, int64_t b) { return ndt_sc_lt_qQ(b, a); }
NDT_HD uint8_t ndt_sc_ge_Qq(uint64_t a, int64_t b) { return ndt_sc_le_qQ(b, a); }

/* ======================================================================
 * real floats
 * ====================================================================== */
/* fmod of finite operands with the x87 partial-remainder instruction on
 * x86-64 hosts (exact, like libm's fmod, several times faster than glibc's
 * generic code; NumPy's build inlines fmod the same way); other operands,
 * and the device, use fmod itself (exact everywhere). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDA_ARCH__)
NDT_HD double ndt_sc_fmod_x87(double a, double b) {
  long double x = a;
  const long double y = b;
  __asm__("1:\n\tfprem\n\tfnstsw %%ax\n\ttestb $4, %%ah\n\tjnz 1b" : "+t"(x) : "u"(y) : "ax", "cc");
  return (double)x;
}
/* isfinite by the exponent bits: gcc 12 compiles isfinite() to a signalling
 * compare (comisd), which raises "invalid" for a quiet NaN (0.0 % nan). */
NDT_HD int ndt_sc_finite_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return (u & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}
NDT_HD double ndt_sc_fmodr_f64(double a, double b) {
  if (ndt_sc_finite_bits(a) && ndt_sc_finite_bits(b) && b != 0) return ndt_sc_fmod_x87(a, b);
  return fmod(a, b);
}
NDT_HD float ndt_sc_fmodr_f32(float a, float b) {
  if (ndt_sc_finite_bits(a) && ndt_sc_finite_bits(b) && b != 0)
    return (float)ndt_sc_fmod_x87(a, b);
  return fmodf(a, b);
}
#else
NDT_HD double ndt_sc_fmodr_f64(double a, double b) { return fmod(a, b); }
NDT_HD float ndt_sc_fmodr_f32(float a, float b) { return fmodf(a, b); }
#endif

/* Bits, x86's NaNs and the inferred flags (device builds), per float type:
 * X(SFX, T, U, SUF, SIGN, EXP, QUIET, MANT) */
#define NDT_SC_FOREACH_FLOAT(X)                                                        \
  X(f32, float, uint32_t, f, 0x80000000u, 0x7f800000u, 0x00400000u, 0x007fffffu)        \
  X(f64, double, uint64_t, , 0x8000000000000000ull, 0x7ff0000000000000ull,             \
    0x0008000000000000ull, 0x000fffffffffffffull)

#define NDT_SC_FLOAT_BASE(SFX, T, U, SUF, SIGN, EXP, QUIET, MANT)                       \
  NDT_HD U ndt_sc_bits_##SFX(T x) {                                                     \
    U u;                                                                               \
    memcpy(&u, &x, sizeof u);                                                          \
    return u;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_of_bits_##SFX(U u) {                                                  \
    T x;                                                                               \
    memcpy(&x, &u, sizeof x);                                                          \
    return x;                                                                          \
  }                                                                                    \
  NDT_HD int ndt_sc_isnan_bits_##SFX(T x) {                                             \
    U u = ndt_sc_bits_##SFX(x);                                                        \
    return (u & EXP) == EXP && (u & MANT) != 0;                                        \
  }                                                                                    \
  NDT_HD int ndt_sc_fin_##SFX(T x) { return (ndt_sc_bits_##SFX(x) & EXP) != EXP; }      \
  NDT_HD int ndt_sc_inf_##SFX(T x) { return (ndt_sc_bits_##SFX(x) & ~SIGN) == EXP; }    \
  /* x86's NaN for a result r of an operation on a (and b): the first NaN  \
   * operand quieted, else the default NaN (sign set, quiet) */            \
  NDT_HD T ndt_sc_nan2_##SFX(T r, T a, T b) {                                           \
    if (!ndt_sc_isnan_bits_##SFX(r)) return r;                                          \
    if (ndt_sc_isnan_bits_##SFX(a)) return ndt_sc_of_bits_##SFX(ndt_sc_bits_##SFX(a) | QUIET); \
    if (ndt_sc_isnan_bits_##SFX(b)) return ndt_sc_of_bits_##SFX(ndt_sc_bits_##SFX(b) | QUIET); \
    return ndt_sc_of_bits_##SFX(SIGN | EXP | QUIET);                                    \
  }                                                                                    \
  NDT_HD T ndt_sc_nan1_##SFX(T r, T a) { return ndt_sc_nan2_##SFX(r, a, a); }           \
  /* the raw result of one operation as the GPU gives it: the host build   \
   * of the device kernels (NDT_SC_EMULATE) turns its NaNs into a GPU's     \
   * canonical one (all payload bits set), so that the fix-ups above are    \
   * what makes them x86's, as on the device */                           \
  NDT_HD T ndt_sc_gpu_##SFX(T r) {                                                      \
    if (NDT_SC_EMU_NAN && ndt_sc_isnan_bits_##SFX(r)) return ndt_sc_of_bits_##SFX(EXP | MANT); \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_nan3_##SFX(T r, T a, T b, T c) {                                      \
    if (!ndt_sc_isnan_bits_##SFX(r)) return r;                                          \
    return ndt_sc_nan2_##SFX(r, ndt_sc_isnan_bits_##SFX(a) ? a : b,                     \
                             ndt_sc_isnan_bits_##SFX(a) ? b : c);                      \
  }                                                                                    \
  /* flags of r = a + b, a - b, a * b or fma: overflow (inf from finite),  \
   * invalid (NaN from no NaN) */                                          \
  NDT_HD unsigned ndt_sc_fe3_##SFX(T r, T a, T b, T c) {                                \
    unsigned f = 0;                                                                    \
    if (ndt_sc_inf_##SFX(r) && ndt_sc_fin_##SFX(a) && ndt_sc_fin_##SFX(b) &&             \
        ndt_sc_fin_##SFX(c))                                                           \
      f |= NDT_SC_FE_OVERFLOW;                                                         \
    if (ndt_sc_isnan_bits_##SFX(r) && !ndt_sc_isnan_bits_##SFX(a) &&                    \
        !ndt_sc_isnan_bits_##SFX(b) && !ndt_sc_isnan_bits_##SFX(c))                     \
      f |= NDT_SC_FE_INVALID;                                                          \
    return f;                                                                          \
  }                                                                                    \
  NDT_HD unsigned ndt_sc_fe2_##SFX(T r, T a, T b) { return ndt_sc_fe3_##SFX(r, a, b, a); } \
  /* flags of r = a / b: divide (finite non-zero / 0), overflow, invalid */ \
  NDT_HD unsigned ndt_sc_fediv_##SFX(T r, T a, T b) {                                   \
    unsigned f = 0;                                                                    \
    int az = (ndt_sc_bits_##SFX(a) & ~SIGN) == 0, bz = (ndt_sc_bits_##SFX(b) & ~SIGN) == 0; \
    if (bz && ndt_sc_fin_##SFX(a) && !az) f |= NDT_SC_FE_DIVIDE;                       \
    if (!bz && ndt_sc_inf_##SFX(r) && ndt_sc_fin_##SFX(a) && ndt_sc_fin_##SFX(b))       \
      f |= NDT_SC_FE_OVERFLOW;                                                         \
    if (ndt_sc_isnan_bits_##SFX(r) && !ndt_sc_isnan_bits_##SFX(a) &&                    \
        !ndt_sc_isnan_bits_##SFX(b))                                                   \
      f |= NDT_SC_FE_INVALID;                                                          \
    return f;                                                                          \
  }
NDT_SC_FOREACH_FLOAT(NDT_SC_FLOAT_BASE)

/* One IEEE operation as the CPU does it: its result, and on device builds
 * the flags it raised and x86's NaN. r must not be a or b. */
#if NDT_SC_DEV
#define NDT_SC_OP2(SFX, fe, r, expr, a, b)   \
  do {                                       \
    r = ndt_sc_gpu_##SFX(expr);              \
    *(fe) |= ndt_sc_fe2_##SFX(r, a, b);      \
    r = ndt_sc_nan2_##SFX(r, a, b);          \
  } while (0)
#define NDT_SC_DIV(SFX, fe, r, a, b)         \
  do {                                       \
    r = ndt_sc_gpu_##SFX((a) / (b));         \
    *(fe) |= ndt_sc_fediv_##SFX(r, a, b);    \
    r = ndt_sc_nan2_##SFX(r, a, b);          \
  } while (0)
#define NDT_SC_NAN1(SFX, r, a) (r = ndt_sc_nan1_##SFX(ndt_sc_gpu_##SFX(r), a))
#else
#define NDT_SC_OP2(SFX, fe, r, expr, a, b) ((void)(fe), r = (expr))
#define NDT_SC_DIV(SFX, fe, r, a, b) ((void)(fe), r = (a) / (b))
#define NDT_SC_NAN1(SFX, r, a) ((void)0)
#endif

#define NDT_SC_FLOAT_OPS(SFX, T, U, SUF, SIGN, EXP, QUIET, MANT)                        \
  NDT_HD T ndt_sc_add_##SFX(T x, T y, unsigned *fe) {                                   \
    T r;                                                                               \
    NDT_SC_OP2(SFX, fe, r, x + y, x, y);                                                \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_sub_##SFX(T x, T y, unsigned *fe) {                                   \
    T r;                                                                               \
    NDT_SC_OP2(SFX, fe, r, x - y, x, y);                                                \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_mul_##SFX(T x, T y, unsigned *fe) {                                   \
    T r;                                                                               \
    NDT_SC_OP2(SFX, fe, r, x * y, x, y);                                                \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_div_##SFX(T x, T y, unsigned *fe) {                                   \
    T r;                                                                               \
    NDT_SC_DIV(SFX, fe, r, x, y);                                                       \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_sq_##SFX(T x, unsigned *fe) { return ndt_sc_mul_##SFX(x, x, fe); }     \
  NDT_HD T ndt_sc_recip_##SFX(T x, unsigned *fe) { return ndt_sc_div_##SFX((T)1, x, fe); } \
  /* fmod: exact; "invalid" for an infinite dividend or a zero divisor */  \
  NDT_HD T ndt_sc_fmod_##SFX(T a, T b, unsigned *fe) {                                  \
    T r = ndt_sc_fmodr_##SFX(a, b);                                                     \
    if (NDT_SC_DEV) {                                                                  \
      r = ndt_sc_gpu_##SFX(r);                                                         \
      *fe |= ndt_sc_fe2_##SFX(r, a, b) & NDT_SC_FE_INVALID;                             \
      r = ndt_sc_nan2_##SFX(r, a, b);                                                   \
    }                                                                                  \
    (void)fe;                                                                          \
    return r;                                                                          \
  }                                                                                    \
  /* npy_divmod: Python's divmod, copied by NumPy from CPython. NaN in,    \
   * NaN out first: gcc 12 compiles isless/isgreater to signalling         \
   * compares (comisd), which would raise "invalid" for a quiet NaN */     \
  NDT_HD T ndt_sc_divmod_##SFX(T a, T b, T *modulus, unsigned *fe) {                    \
    T r, div, floordiv;                                                                \
    if (a != a || b != b) {                                                            \
      NDT_SC_OP2(SFX, fe, r, a + b, a, b);                                              \
      *modulus = r;                                                                    \
      return r;                                                                        \
    }                                                                                  \
    T mod = ndt_sc_fmod_##SFX(a, b, fe);                                               \
    if (!b) {                                                                          \
      *modulus = mod;                                                                  \
      NDT_SC_DIV(SFX, fe, r, a, b);                                                     \
      return r;                                                                        \
    }                                                                                  \
    NDT_SC_OP2(SFX, fe, r, a - mod, a, mod);                                            \
    NDT_SC_DIV(SFX, fe, div, r, b);                                                     \
    if (mod) {                                                                         \
      if (NDT_SC_LESS(b, (T)0) != NDT_SC_LESS(mod, (T)0)) {                             \
        NDT_SC_OP2(SFX, fe, r, mod + b, mod, b);                                        \
        mod = r;                                                                       \
        NDT_SC_OP2(SFX, fe, r, div - (T)1, div, (T)1);                                  \
        div = r;                                                                       \
      }                                                                                \
    } else {                                                                           \
      mod = copysign##SUF((T)0, b);                                                    \
    }                                                                                  \
    if (div) {                                                                         \
      floordiv = floor##SUF(div);                                                      \
      NDT_SC_NAN1(SFX, floordiv, div);                                                 \
      T d;                                                                             \
      NDT_SC_OP2(SFX, fe, d, div - floordiv, div, floordiv);                            \
      if (NDT_SC_GREATER(d, (T)0.5)) {                                                  \
        NDT_SC_OP2(SFX, fe, r, floordiv + (T)1, floordiv, (T)1);                        \
        floordiv = r;                                                                  \
      }                                                                                \
    } else {                                                                           \
      NDT_SC_DIV(SFX, fe, r, a, b);                                                     \
      floordiv = copysign##SUF((T)0, r);                                               \
    }                                                                                  \
    *modulus = mod;                                                                    \
    return floordiv;                                                                   \
  }                                                                                    \
  NDT_HD T ndt_sc_fdiv_##SFX(T a, T b, unsigned *fe) {                                  \
    T mod;                                                                             \
    if (!b) return ndt_sc_div_##SFX(a, b, fe);                                          \
    return ndt_sc_divmod_##SFX(a, b, &mod, fe);                                        \
  }                                                                                    \
  /* npy_divmod's modulus alone: its quotient is dead code, which the CPU's \
   * compiler drops with its flags (1 % 1e-310 raises nothing) */          \
  NDT_HD T ndt_sc_rem_##SFX(T a, T b, unsigned *fe) {                                   \
    T r;                                                                               \
    if (!b) return ndt_sc_fmod_##SFX(a, b, fe);                                         \
    if (a != a || b != b) {                                                            \
      NDT_SC_OP2(SFX, fe, r, a + b, a, b);                                              \
      return r;                                                                        \
    }                                                                                  \
    T mod = ndt_sc_fmod_##SFX(a, b, fe);                                               \
    if (!mod) return copysign##SUF((T)0, b);                                           \
    if (NDT_SC_LESS(b, (T)0) == NDT_SC_LESS(mod, (T)0)) return mod;                     \
    NDT_SC_OP2(SFX, fe, r, mod + b, mod, b);                                            \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_eq_##SFX(T x, T y) { return (uint8_t)(x == y); }                 \
  NDT_HD uint8_t ndt_sc_ne_##SFX(T x, T y) { return (uint8_t)(x != y); }                 \
  NDT_HD uint8_t ndt_sc_lt_##SFX(T x, T y) { return (uint8_t)(x < y); }                  \
  NDT_HD uint8_t ndt_sc_le_##SFX(T x, T y) { return (uint8_t)(x <= y); }                 \
  NDT_HD uint8_t ndt_sc_gt_##SFX(T x, T y) { return (uint8_t)(x > y); }                  \
  NDT_HD uint8_t ndt_sc_ge_##SFX(T x, T y) { return (uint8_t)(x >= y); }                 \
  NDT_HD uint8_t ndt_sc_land_##SFX(T x, T y) { return (uint8_t)((x != 0) & (y != 0)); }  \
  NDT_HD uint8_t ndt_sc_lor_##SFX(T x, T y) { return (uint8_t)((x != 0) | (y != 0)); }   \
  NDT_HD uint8_t ndt_sc_lxor_##SFX(T x, T y) { return (uint8_t)((x != 0) ^ (y != 0)); }  \
  NDT_HD uint8_t ndt_sc_lnot_##SFX(T x) { return (uint8_t)(x == 0); }                    \
  /* maximum/minimum propagate NaN, fmax/fmin ignore it; ties return the    \
   * second operand, as NumPy's SIMD loops do */                           \
  NDT_HD T ndt_sc_max_##SFX(T x, T y) { return (x > y || x != x) ? x : y; }              \
  NDT_HD T ndt_sc_min_##SFX(T x, T y) { return (x < y || x != x) ? x : y; }              \
  NDT_HD T ndt_sc_fmax_##SFX(T x, T y) { return (x > y || y != y) ? x : y; }             \
  NDT_HD T ndt_sc_fmin_##SFX(T x, T y) { return (x < y || y != y) ? x : y; }             \
  NDT_HD T ndt_sc_clip_##SFX(T x, T lo, T hi) {                                         \
    T v = (x != x || x > lo) ? x : lo;                                                 \
    return (v != v || v < hi) ? v : hi;                                                \
  }                                                                                    \
  NDT_HD T ndt_sc_copysign_##SFX(T x, T y) { return copysign##SUF(x, y); }               \
  NDT_HD T ndt_sc_neg_##SFX(T x) { return -x; }                                         \
  NDT_HD T ndt_sc_pos_##SFX(T x) { return +x; }                                         \
  NDT_HD T ndt_sc_abs_##SFX(T x) { return fabs##SUF(x); }                               \
  NDT_HD T ndt_sc_sign_##SFX(T x) {                                                     \
    return x > 0 ? (T)1 : (x < 0 ? (T)-1 : (x == 0 ? (T)0 : x));                       \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_isnan_##SFX(T x) { return (uint8_t)(x != x); }                   \
  NDT_HD uint8_t ndt_sc_isinf_##SFX(T x) { return (uint8_t)(fabs##SUF(x) == (T)INFINITY); } \
  NDT_HD uint8_t ndt_sc_isfin_##SFX(T x) { return (uint8_t)(fabs##SUF(x) < (T)INFINITY); }  \
  NDT_HD uint8_t ndt_sc_signbit_##SFX(T x) { return (uint8_t)(signbit(x) != 0); }        \
  /* NumPy: NaN where x is NaN, h0 where x == 0, else 0 or 1 */            \
  NDT_HD T ndt_sc_heaviside_##SFX(T x, T h0) {                                          \
    if (x != x) return (T)NAN;                                                         \
    if (x == 0) return h0;                                                             \
    return x < 0 ? (T)0 : (T)1;                                                        \
  }                                                                                    \
  /* correctly rounded on both (no fast-math, no FTZ): "invalid" for x < 0 */ \
  NDT_HD T ndt_sc_sqrt_##SFX(T x, unsigned *fe) {                                       \
    T r = sqrt##SUF(x);                                                                \
    if (NDT_SC_DEV) {                                                                  \
      r = ndt_sc_gpu_##SFX(r);                                                         \
      if (x < 0) *fe |= NDT_SC_FE_INVALID;                                             \
      r = ndt_sc_nan1_##SFX(r, x);                                                     \
    }                                                                                  \
    (void)fe;                                                                          \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_floor_##SFX(T x) {                                                    \
    T r = floor##SUF(x);                                                               \
    NDT_SC_NAN1(SFX, r, x);                                                            \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_ceil_##SFX(T x) {                                                     \
    T r = ceil##SUF(x);                                                                \
    NDT_SC_NAN1(SFX, r, x);                                                            \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_trunc_##SFX(T x) {                                                    \
    T r = trunc##SUF(x);                                                               \
    NDT_SC_NAN1(SFX, r, x);                                                            \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD T ndt_sc_rint_##SFX(T x) {                                                     \
    T r = rint##SUF(x);                                                                \
    NDT_SC_NAN1(SFX, r, x);                                                            \
    return r;                                                                          \
  }
NDT_SC_FOREACH_FLOAT(NDT_SC_FLOAT_OPS)

/* NumPy: x * (pi/180) and x * (180/pi) with the constants computed in the
 * loop's precision. */
NDT_HD float ndt_sc_deg2rad_f32(float x, unsigned *fe) {
  return ndt_sc_mul_f32(x, 3.14159265358979323846f / 180.0f, fe);
}
NDT_HD double ndt_sc_deg2rad_f64(double x, unsigned *fe) {
  return ndt_sc_mul_f64(x, 3.14159265358979323846 / 180.0, fe);
}
NDT_HD float ndt_sc_rad2deg_f32(float x, unsigned *fe) {
  return ndt_sc_mul_f32(x, 180.0f / 3.14159265358979323846f, fe);
}
NDT_HD double ndt_sc_rad2deg_f64(double x, unsigned *fe) {
  return ndt_sc_mul_f64(x, 180.0 / 3.14159265358979323846, fe);
}

/* ======================================================================
 * complex (ndt_c64, ndt_c128)
 * ====================================================================== */
/* X(SFX, T, FT, FSFX, SUF) */
#define NDT_SC_FOREACH_COMPLEX(X)            \
  X(c64, ndt_c64, float, f32, f)             \
  X(c128, ndt_c128, double, f64, )

#define NDT_SC_FMAFN_f32 fmaf
#define NDT_SC_FMAFN_f64 fma
/* r = fma(a, b, c); a NaN result takes x86's NaN of a, b, cn (c, or the
 * operand c negates) */
#if NDT_SC_DEV
#define NDT_SC_FMA3(FSFX, fe, r, a, b, c, cn)            \
  do {                                                   \
    r = ndt_sc_gpu_##FSFX(NDT_SC_FMAFN_##FSFX(a, b, c)); \
    *(fe) |= ndt_sc_fe3_##FSFX(r, a, b, c);              \
    r = ndt_sc_nan3_##FSFX(r, a, b, cn);                 \
  } while (0)
/* an ordered comparison (< <= > >=) of floats: the CPU's compare signals
 * "invalid" for a NaN operand */
#define NDT_SC_ORDERED(fe, a, b) \
  do {                           \
    if ((a) != (a) || (b) != (b)) *(fe) |= NDT_SC_FE_INVALID; \
  } while (0)
#else
#define NDT_SC_FMA3(FSFX, fe, r, a, b, c, cn) ((void)(fe), r = NDT_SC_FMAFN_##FSFX(a, b, c))
#define NDT_SC_ORDERED(fe, a, b) ((void)(fe))
#endif

/* 1 when an ordered comparison (< <= > >=) of complex a and b raises
 * "invalid" as NumPy's (its CLT & co, whose real-part compare and, when the
 * real parts are equal, imaginary-part compare are signalling): a NaN real
 * part, or equal real parts and a NaN imaginary part. Quiet compares, | and
 * &, and a macro: the CPU's loops scan with it, vectorised (a function, even
 * inlined, cost gcc that: loops_complex.c); the device's comparisons report
 * with it (ndt_sc_ltf_<c> & co). */
#define NDT_SC_CMPNAN(a, b)                                                    \
  ((((a).re != (a).re) | ((b).re != (b).re) |                                  \
    (((a).re == (b).re) & (((a).im != (a).im) | ((b).im != (b).im)))) != 0)

#define NDT_SC_COMPLEX(SFX, T, FT, FSFX, SUF)                                           \
  NDT_HD T ndt_sc_mk_##SFX(FT re, FT im) {                                             \
    T r;                                                                               \
    r.re = re;                                                                         \
    r.im = im;                                                                         \
    return r;                                                                          \
  }                                                                                    \
  NDT_HD int ndt_sc_isnanc_##SFX(T x) { return x.re != x.re || x.im != x.im; }          \
  NDT_HD T ndt_sc_add_##SFX(T a, T b, unsigned *fe) {                                  \
    return ndt_sc_mk_##SFX(ndt_sc_add_##FSFX(a.re, b.re, fe), ndt_sc_add_##FSFX(a.im, b.im, fe)); \
  }                                                                                    \
  NDT_HD T ndt_sc_sub_##SFX(T a, T b, unsigned *fe) {                                  \
    return ndt_sc_mk_##SFX(ndt_sc_sub_##FSFX(a.re, b.re, fe), ndt_sc_sub_##FSFX(a.im, b.im, fe)); \
  }                                                                                    \
  /* unfused: re = ar*br - ai*bi, im = ar*bi + ai*br, each rounded */      \
  NDT_HD T ndt_sc_mul_##SFX(T a, T b, unsigned *fe) {                                  \
    FT rr = ndt_sc_mul_##FSFX(a.re, b.re, fe), ii = ndt_sc_mul_##FSFX(a.im, b.im, fe);  \
    FT ri = ndt_sc_mul_##FSFX(a.re, b.im, fe), ir = ndt_sc_mul_##FSFX(a.im, b.re, fe);  \
    return ndt_sc_mk_##SFX(ndt_sc_sub_##FSFX(rr, ii, fe), ndt_sc_add_##FSFX(ri, ir, fe)); \
  }                                                                                    \
  /* fused, as NumPy's SIMD loops on FMA hardware: re = fma(ar, br, -ai*bi), \
   * im = fma(ar, bi, ai*br) (the CPU loops take it at SIMD level >= 2).    \
   * x86 computes the first as a fused multiply-subtract of ai*bi: a NaN    \
   * product comes through with its own sign, not the negated one */       \
  NDT_HD T ndt_sc_mulf_##SFX(T a, T b, unsigned *fe) {                                 \
    FT ii = ndt_sc_mul_##FSFX(a.im, b.im, fe), ir = ndt_sc_mul_##FSFX(a.im, b.re, fe);  \
    FT re, im;                                                                         \
    NDT_SC_FMA3(FSFX, fe, re, a.re, b.re, -ii, ii);                                     \
    NDT_SC_FMA3(FSFX, fe, im, a.re, b.im, ir, ir);                                      \
    return ndt_sc_mk_##SFX(re, im);                                                    \
  }                                                                                    \
  NDT_HD T ndt_sc_sq_##SFX(T a, unsigned *fe) { return ndt_sc_mul_##SFX(a, a, fe); }   \
  NDT_HD T ndt_sc_sqf_##SFX(T a, unsigned *fe) { return ndt_sc_mulf_##SFX(a, a, fe); } \
  /* Smith's algorithm, as NumPy's CFLOAT/CDOUBLE_divide */                \
  NDT_HD T ndt_sc_div_##SFX(T a, T b, unsigned *fe) {                                  \
    const FT br_abs = fabs##SUF(b.re), bi_abs = fabs##SUF(b.im);                       \
    NDT_SC_ORDERED(fe, br_abs, bi_abs);                                                \
    if (br_abs >= bi_abs) {                                                            \
      if (br_abs == 0 && bi_abs == 0)                                                  \
        return ndt_sc_mk_##SFX(ndt_sc_div_##FSFX(a.re, br_abs, fe),                    \
                               ndt_sc_div_##FSFX(a.im, bi_abs, fe));                   \
      FT den = b.re;                                                                   \
      NDT_SC_OPAQUE(den); /* not hoisted out of the branch */                          \
      const FT rat = ndt_sc_div_##FSFX(b.im, den, fe);                                 \
      const FT scl = ndt_sc_div_##FSFX(                                                \
          (FT)1.0, ndt_sc_add_##FSFX(b.re, ndt_sc_mul_##FSFX(b.im, rat, fe), fe), fe);  \
      return ndt_sc_mk_##SFX(                                                          \
          ndt_sc_mul_##FSFX(ndt_sc_add_##FSFX(a.re, ndt_sc_mul_##FSFX(a.im, rat, fe), fe), scl, fe), \
          ndt_sc_mul_##FSFX(ndt_sc_sub_##FSFX(a.im, ndt_sc_mul_##FSFX(a.re, rat, fe), fe), scl, fe)); \
    }                                                                                  \
    FT den = b.im;                                                                     \
    NDT_SC_OPAQUE(den);                                                                \
    const FT rat = ndt_sc_div_##FSFX(b.re, den, fe);                                   \
    const FT scl = ndt_sc_div_##FSFX(                                                  \
        (FT)1.0, ndt_sc_add_##FSFX(b.im, ndt_sc_mul_##FSFX(b.re, rat, fe), fe), fe);    \
    return ndt_sc_mk_##SFX(                                                            \
        ndt_sc_mul_##FSFX(ndt_sc_add_##FSFX(ndt_sc_mul_##FSFX(a.re, rat, fe), a.im, fe), scl, fe), \
        ndt_sc_mul_##FSFX(ndt_sc_sub_##FSFX(ndt_sc_mul_##FSFX(a.im, rat, fe), a.re, fe), scl, fe)); \
  }                                                                                    \
  NDT_HD T ndt_sc_recip_##SFX(T a, unsigned *fe) {                                     \
    NDT_SC_ORDERED(fe, a.im, a.re);                                                    \
    if (fabs##SUF(a.im) <= fabs##SUF(a.re)) {                                          \
      const FT r = ndt_sc_div_##FSFX(a.im, a.re, fe);                                  \
      const FT d = ndt_sc_add_##FSFX(a.re, ndt_sc_mul_##FSFX(a.im, r, fe), fe);         \
      return ndt_sc_mk_##SFX(ndt_sc_div_##FSFX((FT)1, d, fe), ndt_sc_div_##FSFX(-r, d, fe)); \
    }                                                                                  \
    const FT r = ndt_sc_div_##FSFX(a.re, a.im, fe);                                    \
    const FT d = ndt_sc_add_##FSFX(ndt_sc_mul_##FSFX(a.re, r, fe), a.im, fe);           \
    return ndt_sc_mk_##SFX(ndt_sc_div_##FSFX(r, d, fe), ndt_sc_div_##FSFX((FT)-1, d, fe)); \
  }                                                                                    \
  /* comparisons: lexicographic; NaN in a compared part makes them false */ \
  NDT_HD uint8_t ndt_sc_eq_##SFX(T a, T b) { return (uint8_t)(a.re == b.re && a.im == b.im); } \
  NDT_HD uint8_t ndt_sc_ne_##SFX(T a, T b) { return (uint8_t)(a.re != b.re || a.im != b.im); } \
  NDT_HD int ndt_sc_clt_##SFX(T a, T b) {                                              \
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im); \
  }                                                                                    \
  NDT_HD int ndt_sc_cle_##SFX(T a, T b) {                                              \
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im); \
  }                                                                                    \
  NDT_HD int ndt_sc_cgt_##SFX(T a, T b) {                                              \
    return (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im > b.im); \
  }                                                                                    \
  NDT_HD int ndt_sc_cge_##SFX(T a, T b) {                                              \
    return (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im >= b.im); \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_lt_##SFX(T a, T b) { return (uint8_t)ndt_sc_clt_##SFX(a, b); }  \
  NDT_HD uint8_t ndt_sc_le_##SFX(T a, T b) { return (uint8_t)ndt_sc_cle_##SFX(a, b); }  \
  NDT_HD uint8_t ndt_sc_gt_##SFX(T a, T b) { return (uint8_t)ndt_sc_cgt_##SFX(a, b); }  \
  NDT_HD uint8_t ndt_sc_ge_##SFX(T a, T b) { return (uint8_t)ndt_sc_cge_##SFX(a, b); }  \
  /* the ordered comparisons with the "invalid" they raise (the device's    \
   * kernels; the CPU's loops scan for it: NDT_SC_CMPNAN, below) */         \
  NDT_HD uint8_t ndt_sc_ltf_##SFX(T a, T b, unsigned *fe) {                            \
    if (NDT_SC_CMPNAN(a, b)) *fe |= NDT_SC_FE_INVALID;                                 \
    return ndt_sc_lt_##SFX(a, b);                                                      \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_lef_##SFX(T a, T b, unsigned *fe) {                            \
    if (NDT_SC_CMPNAN(a, b)) *fe |= NDT_SC_FE_INVALID;                                 \
    return ndt_sc_le_##SFX(a, b);                                                      \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_gtf_##SFX(T a, T b, unsigned *fe) {                            \
    if (NDT_SC_CMPNAN(a, b)) *fe |= NDT_SC_FE_INVALID;                                 \
    return ndt_sc_gt_##SFX(a, b);                                                      \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_gef_##SFX(T a, T b, unsigned *fe) {                            \
    if (NDT_SC_CMPNAN(a, b)) *fe |= NDT_SC_FE_INVALID;                                 \
    return ndt_sc_ge_##SFX(a, b);                                                      \
  }                                                                                    \
  NDT_HD int ndt_sc_nz_##SFX(T a) { return a.re != 0 || a.im != 0; }                    \
  NDT_HD uint8_t ndt_sc_land_##SFX(T a, T b) {                                         \
    return (uint8_t)(ndt_sc_nz_##SFX(a) && ndt_sc_nz_##SFX(b));                        \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_lor_##SFX(T a, T b) {                                          \
    return (uint8_t)(ndt_sc_nz_##SFX(a) || ndt_sc_nz_##SFX(b));                        \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_lxor_##SFX(T a, T b) {                                         \
    return (uint8_t)(ndt_sc_nz_##SFX(a) != ndt_sc_nz_##SFX(b));                        \
  }                                                                                    \
  NDT_HD uint8_t ndt_sc_lnot_##SFX(T a) { return (uint8_t)!ndt_sc_nz_##SFX(a); }        \
  /* maximum/minimum propagate NaN from either side; fmax/fmin prefer      \
   * non-NaN */                                                            \
  NDT_HD T ndt_sc_max_##SFX(T a, T b) {                                                \
    return (ndt_sc_isnanc_##SFX(a) || ndt_sc_cge_##SFX(a, b)) ? a : b;                 \
  }                                                                                    \
  NDT_HD T ndt_sc_min_##SFX(T a, T b) {                                                \
    return (ndt_sc_isnanc_##SFX(a) || ndt_sc_cle_##SFX(a, b)) ? a : b;                 \
  }                                                                                    \
  NDT_HD T ndt_sc_fmax_##SFX(T a, T b) {                                               \
    return (ndt_sc_isnanc_##SFX(b) || ndt_sc_cge_##SFX(a, b)) ? a : b;                 \
  }                                                                                    \
  NDT_HD T ndt_sc_fmin_##SFX(T a, T b) {                                               \
    return (ndt_sc_isnanc_##SFX(b) || ndt_sc_cle_##SFX(a, b)) ? a : b;                 \
  }                                                                                    \
  /* clip: NumPy's clip.cpp Max/Min */                                     \
  NDT_HD int ndt_sc_cgt2_##SFX(T a, T b) { return a.re == b.re ? a.im > b.im : a.re > b.re; } \
  NDT_HD int ndt_sc_clt2_##SFX(T a, T b) { return a.re == b.re ? a.im < b.im : a.re < b.re; } \
  NDT_HD T ndt_sc_clip_##SFX(T x, T lo, T hi) {                                        \
    T v = (ndt_sc_isnanc_##SFX(x) || ndt_sc_cgt2_##SFX(x, lo)) ? x : lo;               \
    return (ndt_sc_isnanc_##SFX(v) || ndt_sc_clt2_##SFX(v, hi)) ? v : hi;              \
  }                                                                                    \
  NDT_HD T ndt_sc_neg_##SFX(T a) { return ndt_sc_mk_##SFX(-a.re, -a.im); }              \
  NDT_HD T ndt_sc_pos_##SFX(T a) { return ndt_sc_mk_##SFX(+a.re, +a.im); }              \
  NDT_HD T ndt_sc_conj_##SFX(T a) { return ndt_sc_mk_##SFX(a.re, -a.im); }              \
  NDT_HD uint8_t ndt_sc_isnan_##SFX(T a) { return (uint8_t)ndt_sc_isnanc_##SFX(a); }    \
  NDT_HD uint8_t ndt_sc_isinf_##SFX(T a) { return (uint8_t)(isinf(a.re) || isinf(a.im)); } \
  NDT_HD uint8_t ndt_sc_isfin_##SFX(T a) {                                             \
    return (uint8_t)(isfinite(a.re) && isfinite(a.im));                                \
  }                                                                                    \
  NDT_HD T ndt_sc_rint_##SFX(T a) {                                                    \
    return ndt_sc_mk_##SFX(ndt_sc_rint_##FSFX(a.re), ndt_sc_rint_##FSFX(a.im));         \
  }
NDT_SC_FOREACH_COMPLEX(NDT_SC_COMPLEX)

/* ======================================================================
 * casts: ndt_sc_cast_<from>_<to>(x), NumPy's unsafe-cast values
 *   int/bool -> int:   C conversion (wraps modulo 2^bits)
 *   int -> float:      C conversion (round to nearest)
 *   float -> int:      the guarded conversions above
 *   float -> float:    C conversion (device: x86's NaN payload)
 *   complex -> real:   the imaginary part is dropped
 *   anything -> bool:  != 0 (complex: either part != 0; NaN is true)
 * Sources are read as the storage type; a bool source is normalised to
 * 0/1 first (bytes other than 0 and 1 read as true).
 * ====================================================================== */
/* float <-> double NaN payloads as x86's cvtsd2ss / cvtss2sd keep them */
NDT_HD float ndt_sc_d2f(double x) {
  float r = (float)x;
#if NDT_SC_DEV
  if (x != x) {
    uint64_t u = ndt_sc_bits_f64(x);
    r = ndt_sc_of_bits_f32((uint32_t)(u >> 32 & 0x80000000u) | 0x7fc00000u |
                           (uint32_t)(u >> 29 & 0x007fffffu));
  }
#endif
  return r;
}
NDT_HD double ndt_sc_f2d(float x) {
  double r = (double)x;
#if NDT_SC_DEV
  if (x != x) {
    uint32_t u = ndt_sc_bits_f32(x);
    r = ndt_sc_of_bits_f64((uint64_t)(u & 0x80000000u) << 32 | 0x7ff8000000000000ull |
                           (uint64_t)(u & 0x007fffffu) << 29);
  }
#endif
  return r;
}

/* the storage type of each dtype suffix */
typedef uint8_t ndt_sc_t_b;
typedef int8_t ndt_sc_t_i8;
typedef int16_t ndt_sc_t_i16;
typedef int32_t ndt_sc_t_i32;
typedef int64_t ndt_sc_t_i64;
typedef uint8_t ndt_sc_t_u8;
typedef uint16_t ndt_sc_t_u16;
typedef uint32_t ndt_sc_t_u32;
typedef uint64_t ndt_sc_t_u64;
typedef float ndt_sc_t_f32;
typedef double ndt_sc_t_f64;
typedef ndt_c64 ndt_sc_t_c64;
typedef ndt_c128 ndt_sc_t_c128;

/* value conversions by source class: integer (and normalised bool) */
#define NDT_SC_ICV_b(x) ((uint8_t)((x) != 0))
#define NDT_SC_ICV_i8(x) ((int8_t)(x))
#define NDT_SC_ICV_i16(x) ((int16_t)(x))
#define NDT_SC_ICV_i32(x) ((int32_t)(x))
#define NDT_SC_ICV_i64(x) ((int64_t)(x))
#define NDT_SC_ICV_u8(x) ((uint8_t)(x))
#define NDT_SC_ICV_u16(x) ((uint16_t)(x))
#define NDT_SC_ICV_u32(x) ((uint32_t)(x))
#define NDT_SC_ICV_u64(x) ((uint64_t)(x))
#define NDT_SC_ICV_f32(x) ((float)(x))
#define NDT_SC_ICV_f64(x) ((double)(x))
#define NDT_SC_ICV_c64(x) ndt_sc_mk_c64((float)(x), 0.0f)
#define NDT_SC_ICV_c128(x) ndt_sc_mk_c128((double)(x), 0.0)
/* double source */
#define NDT_SC_DCV_b(x) ((uint8_t)((x) != 0))
#define NDT_SC_DCV_i8(x) ndt_sc_d2i8(x)
#define NDT_SC_DCV_i16(x) ndt_sc_d2i16(x)
#define NDT_SC_DCV_i32(x) ndt_sc_d2i32(x)
#define NDT_SC_DCV_i64(x) ndt_sc_d2i64(x)
#define NDT_SC_DCV_u8(x) ndt_sc_d2u8(x)
#define NDT_SC_DCV_u16(x) ndt_sc_d2u16(x)
#define NDT_SC_DCV_u32(x) ndt_sc_d2u32(x)
#define NDT_SC_DCV_u64(x) ndt_sc_d2u64(x)
#define NDT_SC_DCV_f32(x) ndt_sc_d2f(x)
#define NDT_SC_DCV_f64(x) (x)
#define NDT_SC_DCV_c64(x) ndt_sc_mk_c64(ndt_sc_d2f(x), 0.0f)
#define NDT_SC_DCV_c128(x) ndt_sc_mk_c128((x), 0.0)
/* float source */
#define NDT_SC_FCV_b(x) ((uint8_t)((x) != 0))
#define NDT_SC_FCV_i8(x) ndt_sc_f2i8(x)
#define NDT_SC_FCV_i16(x) ndt_sc_f2i16(x)
#define NDT_SC_FCV_i32(x) ndt_sc_f2i32(x)
#define NDT_SC_FCV_i64(x) ndt_sc_f2i64(x)
#define NDT_SC_FCV_u8(x) ndt_sc_f2u8(x)
#define NDT_SC_FCV_u16(x) ndt_sc_f2u16(x)
#define NDT_SC_FCV_u32(x) ndt_sc_f2u32(x)
#define NDT_SC_FCV_u64(x) ndt_sc_f2u64(x)
#define NDT_SC_FCV_f32(x) (x)
#define NDT_SC_FCV_f64(x) ndt_sc_f2d(x)
#define NDT_SC_FCV_c64(x) ndt_sc_mk_c64((x), 0.0f)
#define NDT_SC_FCV_c128(x) ndt_sc_mk_c128(ndt_sc_f2d(x), 0.0)
/* complex64 source: the real part as float, except to complex and bool */
#define NDT_SC_C64CV_b(x) ((uint8_t)((x).re != 0 || (x).im != 0))
#define NDT_SC_C64CV_c64(x) (x)
#define NDT_SC_C64CV_c128(x) ndt_sc_mk_c128(ndt_sc_f2d((x).re), ndt_sc_f2d((x).im))
#define NDT_SC_C64CV_f32(x) ((x).re)
#define NDT_SC_C64CV_f64(x) ndt_sc_f2d((x).re)
#define NDT_SC_C64CV_i8(x) NDT_SC_FCV_i8((x).re)
#define NDT_SC_C64CV_i16(x) NDT_SC_FCV_i16((x).re)
#define NDT_SC_C64CV_i32(x) NDT_SC_FCV_i32((x).re)
#define NDT_SC_C64CV_i64(x) NDT_SC_FCV_i64((x).re)
#define NDT_SC_C64CV_u8(x) NDT_SC_FCV_u8((x).re)
#define NDT_SC_C64CV_u16(x) NDT_SC_FCV_u16((x).re)
#define NDT_SC_C64CV_u32(x) NDT_SC_FCV_u32((x).re)
#define NDT_SC_C64CV_u64(x) NDT_SC_FCV_u64((x).re)
/* complex128 source */
#define NDT_SC_C128CV_b(x) ((uint8_t)((x).re != 0 || (x).im != 0))
#define NDT_SC_C128CV_c64(x) ndt_sc_mk_c64(ndt_sc_d2f((x).re), ndt_sc_d2f((x).im))
#define NDT_SC_C128CV_c128(x) (x)
#define NDT_SC_C128CV_f32(x) ndt_sc_d2f((x).re)
#define NDT_SC_C128CV_f64(x) ((x).re)
#define NDT_SC_C128CV_i8(x) NDT_SC_DCV_i8((x).re)
#define NDT_SC_C128CV_i16(x) NDT_SC_DCV_i16((x).re)
#define NDT_SC_C128CV_i32(x) NDT_SC_DCV_i32((x).re)
#define NDT_SC_C128CV_i64(x) NDT_SC_DCV_i64((x).re)
#define NDT_SC_C128CV_u8(x) NDT_SC_DCV_u8((x).re)
#define NDT_SC_C128CV_u16(x) NDT_SC_DCV_u16((x).re)
#define NDT_SC_C128CV_u32(x) NDT_SC_DCV_u32((x).re)
#define NDT_SC_C128CV_u64(x) NDT_SC_DCV_u64((x).re)

/* Whether a float value v (a double; a complex's real part) converts to an
 * integer target without "invalid", as NumPy's contiguous casts (AVX-512)
 * raise it: a NaN, an infinity or a truncation outside int32 for targets of
 * 32 bits or less (NumPy converts through int32), outside (-2**31 - 1,
 * 2**32) for uint32, outside int64 for int64, outside [-2**63, 2**64) for
 * uint64. (ndt_sc_cast_fe below: the CPU's cast loops and the device's.) */
NDT_HD int ndt_sc_cast_ok32(double v) { return v > -2147483649.0 && v < 2147483648.0; }
NDT_HD int ndt_sc_cast_ok_i8(double v) { return ndt_sc_cast_ok32(v); }
NDT_HD int ndt_sc_cast_ok_i16(double v) { return ndt_sc_cast_ok32(v); }
NDT_HD int ndt_sc_cast_ok_i32(double v) { return ndt_sc_cast_ok32(v); }
NDT_HD int ndt_sc_cast_ok_u8(double v) { return ndt_sc_cast_ok32(v); }
NDT_HD int ndt_sc_cast_ok_u16(double v) { return ndt_sc_cast_ok32(v); }
NDT_HD int ndt_sc_cast_ok_u32(double v) { return v > -2147483649.0 && v < 4294967296.0; }
NDT_HD int ndt_sc_cast_ok_i64(double v) {
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0;
}
NDT_HD int ndt_sc_cast_ok_u64(double v) {
  return v >= -9223372036854775808.0 && v < 18446744073709551616.0;
}

/* X(SFX) for every dtype, in ndt_dtype order */
#define NDT_SC_FOREACH_DTYPE_SFX(X, ...)                                            \
  X(b, __VA_ARGS__) X(i8, __VA_ARGS__) X(i16, __VA_ARGS__) X(i32, __VA_ARGS__)      \
  X(i64, __VA_ARGS__) X(u8, __VA_ARGS__) X(u16, __VA_ARGS__) X(u32, __VA_ARGS__)    \
  X(u64, __VA_ARGS__) X(f32, __VA_ARGS__) X(f64, __VA_ARGS__) X(c64, __VA_ARGS__)   \
  X(c128, __VA_ARGS__)

/* the class of each source suffix */
#define NDT_SC_CLS_b ICV
#define NDT_SC_CLS_i8 ICV
#define NDT_SC_CLS_i16 ICV
#define NDT_SC_CLS_i32 ICV
#define NDT_SC_CLS_i64 ICV
#define NDT_SC_CLS_u8 ICV
#define NDT_SC_CLS_u16 ICV
#define NDT_SC_CLS_u32 ICV
#define NDT_SC_CLS_u64 ICV
#define NDT_SC_CLS_f32 FCV
#define NDT_SC_CLS_f64 DCV
#define NDT_SC_CLS_c64 C64CV
#define NDT_SC_CLS_c128 C128CV
#define NDT_SC_CAT3_(a, b, c) a##b##c
#define NDT_SC_CAT3(a, b, c) NDT_SC_CAT3_(a, b, c)
#define NDT_SC_CV(FROM, TO) NDT_SC_CAT3(NDT_SC_, NDT_SC_CLS_##FROM, _##TO)
/* bool sources read through the integer class after normalising */
#define NDT_SC_SRC_b(x) ((uint8_t)((x) != 0))
#define NDT_SC_SRC_i8(x) (x)
#define NDT_SC_SRC_i16(x) (x)
#define NDT_SC_SRC_i32(x) (x)
#define NDT_SC_SRC_i64(x) (x)
#define NDT_SC_SRC_u8(x) (x)
#define NDT_SC_SRC_u16(x) (x)
#define NDT_SC_SRC_u32(x) (x)
#define NDT_SC_SRC_u64(x) (x)
#define NDT_SC_SRC_f32(x) (x)
#define NDT_SC_SRC_f64(x) (x)
#define NDT_SC_SRC_c64(x) (x)
#define NDT_SC_SRC_c128(x) (x)

/* A double narrowed to float overflows (to an infinity, "overflow") when
 * finite and at least FLT_MAX + half an ulp in magnitude: the midpoint
 * 2**128 - 2**103 (0x1.ffffffp+127) rounds to even, up, to infinity. */
NDT_HD unsigned ndt_sc_fe_d2f(double v) {
  return ndt_sc_fin_f64(v) && fabs(v) >= 3.4028235677973366e38 ? NDT_SC_FE_OVERFLOW : 0u;
}

/* The flags of a cast, as NumPy reports them: "invalid" for a float or
 * complex value that does not convert to an integer target (the real part:
 * ndt_sc_cast_ok_<to> above), "overflow" for a finite double (or complex128
 * part) that becomes an infinite float32 (complex64: either part). Nothing
 * else: int -> float only rounds, float -> bool compares quietly, and a
 * NaN narrows to a NaN (underflow is not reported, as elsewhere here).
 * ndt_sc_cast_fe_<from>_<to>(x): the device's casts report both from it
 * (src/kernels/cuda/ew_impl.h); the CPU's float -> int loops raise their
 * "invalid" from ndt_sc_cast_ok_<to> (cast.c; the hardware's own flags
 * there depend on the loop that ran), and its narrowing conversions raise
 * "overflow" in hardware. */
#define NDT_SC_FEI_INT(v, TO) (ndt_sc_cast_ok_##TO(v) ? 0u : NDT_SC_FE_INVALID)
#define NDT_SC_FEI_b(v) 0u
#define NDT_SC_FEI_i8(v) NDT_SC_FEI_INT(v, i8)
#define NDT_SC_FEI_i16(v) NDT_SC_FEI_INT(v, i16)
#define NDT_SC_FEI_i32(v) NDT_SC_FEI_INT(v, i32)
#define NDT_SC_FEI_i64(v) NDT_SC_FEI_INT(v, i64)
#define NDT_SC_FEI_u8(v) NDT_SC_FEI_INT(v, u8)
#define NDT_SC_FEI_u16(v) NDT_SC_FEI_INT(v, u16)
#define NDT_SC_FEI_u32(v) NDT_SC_FEI_INT(v, u32)
#define NDT_SC_FEI_u64(v) NDT_SC_FEI_INT(v, u64)
#define NDT_SC_FEI_f32(v) 0u
#define NDT_SC_FEI_f64(v) 0u
#define NDT_SC_FEI_c64(v) 0u
#define NDT_SC_FEI_c128(v) 0u
/* a double (a real part) narrowed: float32 and complex64 targets */
#define NDT_SC_FEN_f32(v) ndt_sc_fe_d2f(v)
#define NDT_SC_FEN_c64(v) ndt_sc_fe_d2f(v)
#define NDT_SC_FEN_b(v) 0u
#define NDT_SC_FEN_i8(v) 0u
#define NDT_SC_FEN_i16(v) 0u
#define NDT_SC_FEN_i32(v) 0u
#define NDT_SC_FEN_i64(v) 0u
#define NDT_SC_FEN_u8(v) 0u
#define NDT_SC_FEN_u16(v) 0u
#define NDT_SC_FEN_u32(v) 0u
#define NDT_SC_FEN_u64(v) 0u
#define NDT_SC_FEN_f64(v) 0u
#define NDT_SC_FEN_c128(v) 0u
/* by source class (NDT_SC_CLS_<from>) */
#define NDT_SC_FE_ICV(TO, x) 0u
#define NDT_SC_FE_FCV(TO, x) NDT_SC_FEI_##TO((double)(x))
#define NDT_SC_FE_DCV(TO, x) (NDT_SC_FEI_##TO(x) | NDT_SC_FEN_##TO(x))
#define NDT_SC_FE_C64CV(TO, x) NDT_SC_FEI_##TO((double)(x).re)
#define NDT_SC_FE_C128CV(TO, x)                                                    \
  (NDT_SC_FEI_##TO((x).re) | NDT_SC_FEN_##TO((x).re) |                              \
   (NDT_SC_DT_IS_c64_##TO ? ndt_sc_fe_d2f((x).im) : 0u))
#define NDT_SC_DT_IS_c64_c64 1
#define NDT_SC_DT_IS_c64_b 0
#define NDT_SC_DT_IS_c64_i8 0
#define NDT_SC_DT_IS_c64_i16 0
#define NDT_SC_DT_IS_c64_i32 0
#define NDT_SC_DT_IS_c64_i64 0
#define NDT_SC_DT_IS_c64_u8 0
#define NDT_SC_DT_IS_c64_u16 0
#define NDT_SC_DT_IS_c64_u32 0
#define NDT_SC_DT_IS_c64_u64 0
#define NDT_SC_DT_IS_c64_f32 0
#define NDT_SC_DT_IS_c64_f64 0
#define NDT_SC_DT_IS_c64_c128 0
#define NDT_SC_CASTFE(FROM) NDT_SC_CAT3(NDT_SC_FE_, NDT_SC_CLS_##FROM, )

#define NDT_SC_CAST_TO(TO, FROM)                                                    \
  NDT_HD ndt_sc_t_##TO ndt_sc_cast_##FROM##_##TO(ndt_sc_t_##FROM x) {              \
    return NDT_SC_CV(FROM, TO)(NDT_SC_SRC_##FROM(x));                              \
  }                                                                                \
  NDT_HD unsigned ndt_sc_cast_fe_##FROM##_##TO(ndt_sc_t_##FROM x) {                \
    (void)x; /* (most pairs raise nothing) */                                      \
    return NDT_SC_CASTFE(FROM)(TO, x);                                             \
  }
/* (a second copy of the list: a macro does not expand inside itself) */
#define NDT_SC_FOREACH_DTYPE_SFX2(X, ...)                                           \
  X(b, __VA_ARGS__) X(i8, __VA_ARGS__) X(i16, __VA_ARGS__) X(i32, __VA_ARGS__)      \
  X(i64, __VA_ARGS__) X(u8, __VA_ARGS__) X(u16, __VA_ARGS__) X(u32, __VA_ARGS__)    \
  X(u64, __VA_ARGS__) X(f32, __VA_ARGS__) X(f64, __VA_ARGS__) X(c64, __VA_ARGS__)   \
  X(c128, __VA_ARGS__)
#define NDT_SC_CAST_FROM(FROM, _) NDT_SC_FOREACH_DTYPE_SFX2(NDT_SC_CAST_TO, FROM)
NDT_SC_FOREACH_DTYPE_SFX(NDT_SC_CAST_FROM, _)

/* ======================================================================
 * The transcendental functions' flags, from the values (CPU and device)
 *
 * NumPy's loops report what a result means, not what a library's
 * intermediate steps raised, and the CPU's SLEEF kernels raise flags their
 * results do not call for; so the CPU's loops (loops_math.c) put back the
 * flags they found and raise what the values say, and the device's
 * kernels (ew_ops.h), whose hardware raises nothing, report the same rule:
 *   NDT_SC_FV_NAN    invalid: a NaN from inputs without NaN (sqrt(-1), sin(inf));
 *   NDT_SC_FV_POLE   divide by zero: an infinity from finite inputs (log(0));
 *   NDT_SC_FV_GROW   overflow: an infinity from finite inputs (exp(1000));
 *   NDT_SC_FV_TINY   underflow: a result below the smallest normal from
 *                    finite inputs (exp(-1000), also when it rounds to 0);
 *   NDT_SC_FV_SUB    underflow: a subnormal result (sin(1e-310));
 *   NDT_SC_FV_TINYNZ underflow: a result below the smallest normal from
 *                    finite inputs whose first is not 0 (atan2(1e-308, 1e308)).
 * Each function has its classes (loops_math.c's table, ew_ops.h's). b is
 * 0 for a function of one argument. Branch-free, so the CPU's check of a
 * chunk vectorises. */
#define NDT_SC_FV_NAN 1
#define NDT_SC_FV_POLE 2
#define NDT_SC_FV_GROW 4
#define NDT_SC_FV_TINY 8
#define NDT_SC_FV_SUB 16
#define NDT_SC_FV_TINYNZ 64
#define NDT_SC_FV_FN(SFX, T, MINV, ABS)                                                   \
  NDT_HD unsigned ndt_sc_fv_##SFX(int cls, T a, T b, T v) {                                \
    const T av = ABS(v);                                                                   \
    const int xnan = (a != a) | (b != b);                                                  \
    const int xbad = xnan | ((a - a) != 0) | ((b - b) != 0);                               \
    const int nan = (v != v) & !xnan, inf = ((v - v) != 0) & (v == v) & !xbad;             \
    const int tiny = (av < MINV) & !xbad, sub = (av < MINV) & (v != 0);                    \
    return ((nan & ((cls & NDT_SC_FV_NAN) != 0)) ? NDT_SC_FE_INVALID : 0u) |               \
           ((inf & ((cls & NDT_SC_FV_POLE) != 0)) ? NDT_SC_FE_DIVIDE : 0u) |               \
           ((inf & ((cls & NDT_SC_FV_GROW) != 0)) ? NDT_SC_FE_OVERFLOW : 0u) |             \
           ((tiny & ((cls & NDT_SC_FV_TINY) != 0)) ? NDT_SC_FE_UNDERFLOW : 0u) |           \
           ((sub & ((cls & NDT_SC_FV_SUB) != 0)) ? NDT_SC_FE_UNDERFLOW : 0u) |             \
           ((tiny & (a != 0) & ((cls & NDT_SC_FV_TINYNZ) != 0)) ? NDT_SC_FE_UNDERFLOW : 0u); \
  }
NDT_SC_FV_FN(f64, double, 2.2250738585072014e-308, fabs)
NDT_SC_FV_FN(f32, float, 1.17549435e-38f, fabsf)

#endif
