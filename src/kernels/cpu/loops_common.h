/* loops_common.h - private to src/kernels/cpu: loop templates, per-type
 * lists and the guarded float->int conversions shared by the casts and the
 * loops.
 *
 * Templates follow NumPy's inner-loop convention (args, steps in bytes, n).
 * Each template stamps one loop from a scalar function F; the loop has a
 * contiguous fast path (plain indexed loops that gcc -O3 vectorises when F
 * is simple), fast paths for one stride-0 (scalar) operand, and a general
 * strided path.
 */
#ifndef NDT_LOOPS_COMMON_H
#define NDT_LOOPS_COMMON_H

#include <stdint.h>
#include <string.h>
#include <math.h>
#include "kernels/kernels.h"
#include "kernels/scalar.h"
#include "cpu.h"

typedef uint8_t ndt_bool_t;                 /* storage of NDT_BOOL: 0 or 1 */
/* complex storage: ndt_c64, ndt_c128 (core/dtype.h) */

#define NDT_INLINE static inline __attribute__((always_inline))

/* Loops must round every operation as written: NumPy's results depend on
 * whether a*b+c is fused, so no contraction unless asked for (fma()).
 * Loops never report errors through errno, so libm calls need not set it
 * (lets gcc inline and vectorise sqrt & co). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-math-errno", "no-trapping-math")
#endif

/* Run-time SIMD level of this CPU (loops_math.c): 0 scalar, 1 SSE2,
 * 2 AVX2+FMA, 3 AVX-512F. Loops whose NumPy counterpart uses fused
 * multiply-add on FMA hardware (complex multiply, square, absolute) pick
 * their fused variant at level >= 2. */
int ndt__cpu_simd_level(void);
/* Test hook: caps the level (level < 0 only queries); returns the level in
 * effect. */
int ndt__cpu_set_simd_level(int level);
#if defined(__x86_64__) && defined(__GNUC__)
#define NDT_FMA_TARGET __attribute__((target("avx2,fma")))
#else
#define NDT_FMA_TARGET
#endif

/* The plainest loops (arithmetic, comparisons, max/min) have SIMD copies
 * (NDT_COPIES, cpu.h): 2-4x faster on data in cache, the small-array
 * path's case. */

/* Loops that take one arm of a branch per element, as NumPy's do (complex
 * division and power, float // % fmod): vectorised, every arm runs and is
 * selected afterwards, so an arm not taken divides by zero or compares a
 * NaN with a signalling SSE compare - spurious floating-point flags
 * (divide by zero for (1+1j) / (2+3j), invalid for 0.0 // nan). They stay
 * scalar on every build. */
#if defined(__GNUC__) && !defined(__clang__)
#define NDT_BRANCHY __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#else
#define NDT_BRANCHY
#endif


/* NDT_OPAQUE(v): the compiler may not compute with v before this point, so
 * a division inside one branch is not evaluated ahead of the branch (where
 * a loop-invariant divisor invites it: GCC at -O2 with sanitizers hoisted
 * the other branch of Smith's complex division out of the loop, raising a
 * divide-by-zero flag NumPy does not raise). A volatile empty asm: no code. */
#if defined(__GNUC__) && defined(__x86_64__)
#define NDT_OPAQUE(v) __asm__ __volatile__("" : "+x"(v))
#elif defined(__GNUC__)
#define NDT_OPAQUE(v) __asm__ __volatile__("" : "+g"(v))
#else
#define NDT_OPAQUE(v) ((void)0)
#endif

/* Raises IEEE flags on purpose (NDT_FPE_* bits), through float operations
 * the compiler must perform: integer division by zero (and INT_MIN // -1)
 * raises nothing in C, yet NumPy reports it as a floating-point error
 * ("divide by zero" / "overflow encountered in floor_divide"), and the
 * SLEEF loops report what their values say (loops_math.c). Out of line and
 * cold: the loops' fast paths stay as they were. */
__attribute__((noinline, cold, unused)) static void ndt_fpe_raise(unsigned f) {
  volatile double zero = 0.0, one = 1.0, big = 1e308, tiny = 1e-308;
  volatile double r;
  if (f & NDT_FPE_DIVIDE) r = one / zero;
  if (f & NDT_FPE_OVERFLOW) r = big * big;
  if (f & NDT_FPE_UNDERFLOW) r = tiny * tiny;
  if (f & NDT_FPE_INVALID) r = zero / zero;
  (void)r;
}
/* The calling thread's floating-point status, saved and put back around
 * work whose hardware flags do not count (the float -> int casts raise
 * "invalid" from the values instead: cast.c). */
#if defined(__x86_64__) && defined(__GNUC__)
NDT_INLINE unsigned ndt_fpstate_save(void) {
  unsigned m;
  __asm__ __volatile__("stmxcsr %0" : "=m"(m));
  return m;
}
NDT_INLINE void ndt_fpstate_restore(unsigned m) { __asm__ __volatile__("ldmxcsr %0" : : "m"(m)); }
#else
#include <fenv.h>
NDT_INLINE unsigned ndt_fpstate_save(void) {
  fexcept_t e;
  fegetexceptflag(&e, FE_ALL_EXCEPT);
  return (unsigned)e;
}
NDT_INLINE void ndt_fpstate_restore(unsigned m) {
  fexcept_t e = (fexcept_t)m;
  fesetexceptflag(&e, FE_ALL_EXCEPT);
}
#endif
#define ndt_raise_divbyzero() ndt_fpe_raise(NDT_FPE_DIVIDE)
#define ndt_raise_overflow() ndt_fpe_raise(NDT_FPE_OVERFLOW)

/* ---- loop templates ---------------------------------------------------- */

/* o = F(x) */
#define NDT_DEF_UNARY(NAME, TI, TO, F) NDT_DEF_UNARY_A(NAME, , TI, TO, F)
#define NDT_DEF_UNARY_A(NAME, ATTR, TI, TO, F)                                 \
  ATTR static void NAME(char **args, const int64_t *steps, int64_t n) {            \
    char *ip = args[0], *op = args[1];                                         \
    const int64_t is = steps[0], os = steps[1];                                \
    if (is == (int64_t)sizeof(TI) && os == (int64_t)sizeof(TO)) {              \
      const TI *a = (const TI *)ip;                                            \
      TO *o = (TO *)op;                                                        \
      if ((void *)a == (void *)o) { /* in place: one pointer, vectorises */    \
        TI *io = (TI *)op;                                                     \
        for (int64_t i = 0; i < n; i++) { const TI x = io[i]; ((TO *)io)[i] = F(x); } \
        return;                                                                \
      }                                                                        \
      for (int64_t i = 0; i < n; i++) { const TI x = a[i]; o[i] = F(x); }      \
      return;                                                                  \
    }                                                                          \
    for (int64_t i = 0; i < n; i++, ip += is, op += os) {                      \
      const TI x = *(const TI *)ip;                                            \
      *(TO *)op = F(x);                                                        \
    }                                                                          \
  }

/* o = F(x, y) */
#define NDT_DEF_BINARY(NAME, T1, T2, TO, F) NDT_DEF_BINARY_A(NAME, , T1, T2, TO, F)
#define NDT_DEF_BINARY_A(NAME, ATTR, T1, T2, TO, F)                            \
  ATTR static void NAME(char **args, const int64_t *steps, int64_t n) {            \
    char *ip1 = args[0], *ip2 = args[1], *op = args[2];                        \
    const int64_t s1 = steps[0], s2 = steps[1], so = steps[2];                 \
    if (so == (int64_t)sizeof(TO)) {                                           \
      TO *o = (TO *)op;                                                        \
      if (s1 == (int64_t)sizeof(T1) && s2 == (int64_t)sizeof(T2)) {            \
        const T1 *a = (const T1 *)ip1;                                         \
        const T2 *b = (const T2 *)ip2;                                         \
        /* in place (x += y): one pointer for the read and the write, so     \
         * gcc's overlap check (which fails for equal pointers) is only      \
         * against y and the loop vectorises */                              \
        if (op == ip1 && op != ip2 && sizeof(T1) == sizeof(TO)) {              \
          T1 *io = (T1 *)op;                                                   \
          for (int64_t i = 0; i < n; i++) {                                    \
            const T1 x = io[i]; const T2 y = b[i]; ((TO *)io)[i] = F(x, y);    \
          }                                                                    \
          return;                                                              \
        }                                                                      \
        if (op == ip2 && op != ip1 && sizeof(T2) == sizeof(TO)) {              \
          T2 *io = (T2 *)op;                                                   \
          for (int64_t i = 0; i < n; i++) {                                    \
            const T1 x = a[i]; const T2 y = io[i]; ((TO *)io)[i] = F(x, y);    \
          }                                                                    \
          return;                                                              \
        }                                                                      \
        for (int64_t i = 0; i < n; i++) {                                      \
          const T1 x = a[i]; const T2 y = b[i]; o[i] = F(x, y);                \
        }                                                                      \
        return;                                                                \
      }                                                                        \
      if (s1 == 0 && s2 == (int64_t)sizeof(T2)) {                              \
        const T1 x = *(const T1 *)ip1;                                         \
        const T2 *b = (const T2 *)ip2;                                         \
        for (int64_t i = 0; i < n; i++) { const T2 y = b[i]; o[i] = F(x, y); } \
        return;                                                                \
      }                                                                        \
      if (s2 == 0 && s1 == (int64_t)sizeof(T1)) {                              \
        const T2 y = *(const T2 *)ip2;                                         \
        const T1 *a = (const T1 *)ip1;                                         \
        if (op == ip1 && sizeof(T1) == sizeof(TO)) { /* x *= 2 */              \
          T1 *io = (T1 *)op;                                                   \
          for (int64_t i = 0; i < n; i++) { const T1 x = io[i]; ((TO *)io)[i] = F(x, y); } \
          return;                                                              \
        }                                                                      \
        for (int64_t i = 0; i < n; i++) { const T1 x = a[i]; o[i] = F(x, y); } \
        return;                                                                \
      }                                                                        \
    }                                                                          \
    for (int64_t i = 0; i < n; i++, ip1 += s1, ip2 += s2, op += so) {          \
      const T1 x = *(const T1 *)ip1; const T2 y = *(const T2 *)ip2;            \
      *(TO *)op = F(x, y);                                                     \
    }                                                                          \
  }

/* o = F(x, y, z) */
#define NDT_DEF_TERNARY(NAME, T1, T2, T3, TO, F)                               \
  static void NAME(char **args, const int64_t *steps, int64_t n) {            \
    char *ip1 = args[0], *ip2 = args[1], *ip3 = args[2], *op = args[3];        \
    const int64_t s1 = steps[0], s2 = steps[1], s3 = steps[2], so = steps[3];  \
    if (so == (int64_t)sizeof(TO) && s1 == (int64_t)sizeof(T1)) {              \
      const T1 *a = (const T1 *)ip1;                                           \
      TO *o = (TO *)op;                                                        \
      if (s2 == (int64_t)sizeof(T2) && s3 == (int64_t)sizeof(T3)) {            \
        const T2 *b = (const T2 *)ip2; const T3 *c = (const T3 *)ip3;          \
        for (int64_t i = 0; i < n; i++) {                                      \
          const T1 x = a[i]; const T2 y = b[i]; const T3 z = c[i];             \
          o[i] = F(x, y, z);                                                   \
        }                                                                      \
        return;                                                                \
      }                                                                        \
      if (s2 == 0 && s3 == 0) {                                                \
        const T2 y = *(const T2 *)ip2; const T3 z = *(const T3 *)ip3;          \
        for (int64_t i = 0; i < n; i++) { const T1 x = a[i]; o[i] = F(x, y, z); } \
        return;                                                                \
      }                                                                        \
      if (s2 == (int64_t)sizeof(T2) && s3 == 0) {                              \
        const T2 *b = (const T2 *)ip2; const T3 z = *(const T3 *)ip3;          \
        for (int64_t i = 0; i < n; i++) { const T1 x = a[i]; o[i] = F(x, b[i], z); } \
        return;                                                                \
      }                                                                        \
      if (s2 == 0 && s3 == (int64_t)sizeof(T3)) {                              \
        const T2 y = *(const T2 *)ip2; const T3 *c = (const T3 *)ip3;          \
        for (int64_t i = 0; i < n; i++) { const T1 x = a[i]; o[i] = F(x, y, c[i]); } \
        return;                                                                \
      }                                                                        \
    }                                                                          \
    for (int64_t i = 0; i < n; i++, ip1 += s1, ip2 += s2, ip3 += s3, op += so) { \
      const T1 x = *(const T1 *)ip1; const T2 y = *(const T2 *)ip2;            \
      const T3 z = *(const T3 *)ip3;                                           \
      *(TO *)op = F(x, y, z);                                                  \
    }                                                                          \
  }

/* ---- per-type lists ---------------------------------------------------- */
/* X(SFX, DT, T, UT, UW, SIGNED, BITS): UT the unsigned type of the same
 * width, UW the unsigned type wrapping arithmetic is done in (never promoted
 * to signed int, so no UB on overflow). */
#define NDT_FOREACH_SINT(X)                                  \
  X(i8,  NDT_INT8,   int8_t,   uint8_t,  uint32_t, 1, 8)     \
  X(i16, NDT_INT16,  int16_t,  uint16_t, uint32_t, 1, 16)    \
  X(i32, NDT_INT32,  int32_t,  uint32_t, uint32_t, 1, 32)    \
  X(i64, NDT_INT64,  int64_t,  uint64_t, uint64_t, 1, 64)
#define NDT_FOREACH_UINT(X)                                  \
  X(u8,  NDT_UINT8,  uint8_t,  uint8_t,  uint32_t, 0, 8)     \
  X(u16, NDT_UINT16, uint16_t, uint16_t, uint32_t, 0, 16)    \
  X(u32, NDT_UINT32, uint32_t, uint32_t, uint32_t, 0, 32)    \
  X(u64, NDT_UINT64, uint64_t, uint64_t, uint64_t, 0, 64)
#define NDT_FOREACH_INT(X) NDT_FOREACH_SINT(X) NDT_FOREACH_UINT(X)

/* X(SFX, DT, T, LIBM_SUFFIX) */
#define NDT_FOREACH_FLOAT(X)          \
  X(f32, NDT_FLOAT32, float, f)       \
  X(f64, NDT_FLOAT64, double, )

/* X(SFX, DT, T, FT, LIBM_SUFFIX) */
#define NDT_FOREACH_COMPLEX(X)                 \
  X(c64,  NDT_COMPLEX64,  ndt_c64, float, f)    \
  X(c128, NDT_COMPLEX128, ndt_c128, double, )

/* ---- the scalar functions of src/kernels/scalar.h on the CPU ----------- */
/* The per-element semantics live in scalar.h, shared with the device
 * kernels; the loops here stamp them into loops. Those that report
 * floating-point flags get a CPU form: what the function reports (integer
 * division by zero, INT_MIN // -1) is raised here; float arithmetic raised
 * its own flags in hardware (scalar.h reports nothing for it on the CPU,
 * so the check below folds away). */
_Static_assert(NDT_SC_FE_DIVIDE == NDT_FPE_DIVIDE && NDT_SC_FE_OVERFLOW == NDT_FPE_OVERFLOW &&
                   NDT_SC_FE_UNDERFLOW == NDT_FPE_UNDERFLOW && NDT_SC_FE_INVALID == NDT_FPE_INVALID,
               "scalar.h's flags are ndtile.h's");
#define NDT_CPU_FE1(NAME, TI, TO, F)                                            \
  NDT_INLINE TO NAME(TI x) {                                                    \
    unsigned f_ = 0;                                                            \
    TO r_ = F(x, &f_);                                                          \
    if (f_) ndt_fpe_raise(f_);                                                  \
    return r_;                                                                  \
  }
#define NDT_CPU_FE2(NAME, T1, T2, TO, F)                                        \
  NDT_INLINE TO NAME(T1 x, T2 y) {                                              \
    unsigned f_ = 0;                                                            \
    TO r_ = F(x, y, &f_);                                                       \
    if (f_) ndt_fpe_raise(f_);                                                  \
    return r_;                                                                  \
  }

/* ---- per-family loop lookups (loop dtype -> loop) ---------------------- */
/* Each returns NULL when the family has no loop for (op, t). */
ndt_loop_fn ndt__cpu_loop_arith(ndt_ufunc op, ndt_dtype t);   /* loops_arith.c   */
ndt_loop_fn ndt__cpu_loop_pow_varying(ndt_dtype t);          /* loops_arith.c   */
ndt_loop_fn ndt__cpu_loop_math(ndt_ufunc op, ndt_dtype t);    /* loops_math.c    */
ndt_loop_fn ndt__cpu_loop_complex(ndt_ufunc op, ndt_dtype t); /* loops_complex.c */
ndt_loop_fn ndt__cpu_loop_extra(ndt_ufunc op, ndt_dtype t);   /* loops_extra.c   */
/* ldexp for a float32/float64 mantissa and an int32/int64 exponent. */
ndt_loop_fn ndt__cpu_loop_ldexp(ndt_dtype mant, ndt_dtype expo);
/* Exact int64/uint64 comparisons (NumPy's 'qQ->?' and 'Qq->?' loops). */
ndt_loop_fn ndt__cpu_loop_cmp_mixed(ndt_ufunc op, int int64_first);
/* where(cond, x, y) for an item size of 1, 2, 4, 8 or 16 bytes. */
ndt_loop_fn ndt__cpu_loop_where(int itemsize);

#endif
