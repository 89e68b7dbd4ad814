/* corr.c - the CPU's 1-d correlation kernels (the direct sum, NumPy's
 * method); src/ops/convolve.c cuts the result into tasks and packs each
 * task's part of the operands contiguous. */
#include <string.h>
#include "cpu.h"

/* Outputs [0, n) of a task: out[i] sums a[first+i+j] * w(v[j]) over j in
 * order, for the a indices inside [alo, ahi) (a points at a[alo]). Blocks
 * of 4 * L outputs whose terms are all inside are summed in 4 explicit
 * 32-byte vectors kept in registers across the taps (one vector load of a
 * per tap and accumulator); the rest one output at a time. Both add the
 * same terms in the same order. int64 runs as uint64 (the same bits). */
typedef float vf32 __attribute__((vector_size(32)));
typedef double vf64 __attribute__((vector_size(32)));
typedef uint64_t vu64 __attribute__((vector_size(32)));
#define DEF_CORR_VEC(NAME, ATTR, T, VT)                                               \
  ATTR static void NAME(const void *a_, int64_t alo, int64_t ahi, const void *v_,     \
                        int64_t m, int64_t first, int64_t n, int cj, void *out_) {    \
    (void)cj;                                                                         \
    const T *a = a_, *v = v_;                                                         \
    T *out = out_;                                                                    \
    enum { L = 32 / sizeof(T), BB = 4 * L };                                          \
    for (int64_t i = 0; i < n;) {                                                     \
      int64_t f = first + i;                                                          \
      if (i + BB <= n && f >= alo && f + BB - 1 + m <= ahi) {                         \
        VT c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0}, w = {0}, x0, x1, x2, x3;           \
        const T *ap = a + (f - alo);                                                  \
        for (int64_t j = 0; j < m; j++) {                                             \
          for (int q = 0; q < L; q++) w[q] = v[j];                                    \
          memcpy(&x0, ap + j, sizeof x0);                                             \
          memcpy(&x1, ap + j + L, sizeof x1);                                         \
          memcpy(&x2, ap + j + 2 * L, sizeof x2);                                     \
          memcpy(&x3, ap + j + 3 * L, sizeof x3);                                     \
          c0 += x0 * w;                                                               \
          c1 += x1 * w;                                                               \
          c2 += x2 * w;                                                               \
          c3 += x3 * w;                                                               \
        }                                                                             \
        memcpy(out + i, &c0, sizeof c0);                                              \
        memcpy(out + i + L, &c1, sizeof c1);                                          \
        memcpy(out + i + 2 * L, &c2, sizeof c2);                                      \
        memcpy(out + i + 3 * L, &c3, sizeof c3);                                      \
        i += BB;                                                                      \
      } else {                                                                        \
        T s = 0;                                                                      \
        for (int64_t j = 0; j < m; j++) {                                             \
          int64_t k = f + j;                                                          \
          if (k >= alo && k < ahi) s += a[k - alo] * v[j];                            \
        }                                                                             \
        out[i++] = s;                                                                 \
      }                                                                               \
    }                                                                                 \
  }
/* Complex types from split arrays (real parts, then imaginary parts), with
 * the product written out (re = xr*wr - xi*wi, im = xr*wi + xi*wr; wi
 * negated for conj) - no library call for C99's inf/nan rules - and 2 * L
 * outputs in registers. */
#define DEF_CORR_CPX(NAME, ATTR, R, VT)                                               \
  ATTR static void NAME(const void *a_, int64_t alo, int64_t ahi, const void *v_,     \
                        int64_t m, int64_t first, int64_t n, int cj, void *out_) {    \
    const R *ar = a_, *ai = ar + (ahi - alo), *vr = v_, *vi = vr + m;                 \
    R *out = out_;                                                                    \
    enum { L = 32 / sizeof(R), BB = 2 * L };                                          \
    for (int64_t i = 0; i < n;) {                                                     \
      int64_t f = first + i;                                                          \
      if (i + BB <= n && f >= alo && f + BB - 1 + m <= ahi) {                         \
        VT r0 = {0}, r1 = {0}, i0 = {0}, i1 = {0}, wr = {0}, wi = {0}, a0, a1, b0, b1; \
        const R *pr = ar + (f - alo), *pi = ai + (f - alo);                           \
        for (int64_t j = 0; j < m; j++) {                                             \
          R sr = vr[j], si = cj ? -vi[j] : vi[j];                                     \
          for (int q = 0; q < L; q++) {                                               \
            wr[q] = sr;                                                               \
            wi[q] = si;                                                               \
          }                                                                           \
          memcpy(&a0, pr + j, sizeof a0);                                             \
          memcpy(&a1, pr + j + L, sizeof a1);                                         \
          memcpy(&b0, pi + j, sizeof b0);                                             \
          memcpy(&b1, pi + j + L, sizeof b1);                                         \
          r0 += a0 * wr - b0 * wi;                                                    \
          r1 += a1 * wr - b1 * wi;                                                    \
          i0 += a0 * wi + b0 * wr;                                                    \
          i1 += a1 * wi + b1 * wr;                                                    \
        }                                                                             \
        for (int q = 0; q < L; q++) {                                                 \
          out[2 * (i + q)] = r0[q];                                                   \
          out[2 * (i + q) + 1] = i0[q];                                               \
          out[2 * (i + L + q)] = r1[q];                                               \
          out[2 * (i + L + q) + 1] = i1[q];                                           \
        }                                                                             \
        i += BB;                                                                      \
      } else {                                                                        \
        R sr = 0, si = 0;                                                             \
        for (int64_t j = 0; j < m; j++) {                                             \
          int64_t k = f + j;                                                          \
          if (k < alo || k >= ahi) continue;                                          \
          R wr = vr[j], wi = cj ? -vi[j] : vi[j];                                     \
          R xr = ar[k - alo], xi = ai[k - alo];                                       \
          sr += xr * wr - xi * wi;                                                    \
          si += xr * wi + xi * wr;                                                    \
        }                                                                             \
        out[2 * i] = sr;                                                              \
        out[2 * i + 1] = si;                                                          \
        i++;                                                                          \
      }                                                                               \
    }                                                                                 \
  }
DEF_CORR_VEC(corr_f32, , float, vf32)
DEF_CORR_VEC(corr_f64, , double, vf64)
DEF_CORR_VEC(corr_u64, , uint64_t, vu64)
DEF_CORR_CPX(corr_c64, , float, vf32)
DEF_CORR_CPX(corr_c128, , double, vf64)
/* AVX2 copies (no FMA: the same roundings as the portable loops, so the
 * bits do not depend on the CPU path taken). */
#if defined(__x86_64__) && defined(__GNUC__)
#define CORR_AVX2 1
#define AVX2 __attribute__((target("avx2")))
DEF_CORR_VEC(corr_f32_avx2, AVX2, float, vf32)
DEF_CORR_VEC(corr_f64_avx2, AVX2, double, vf64)
DEF_CORR_VEC(corr_u64_avx2, AVX2, uint64_t, vu64)
DEF_CORR_CPX(corr_c64_avx2, AVX2, float, vf32)
DEF_CORR_CPX(corr_c128_avx2, AVX2, double, vf64)
#else
#define CORR_AVX2 0
#endif

static ndt_corr_fn pick(ndt_dtype t, ndt_corr_fn f32, ndt_corr_fn f64, ndt_corr_fn c64,
                        ndt_corr_fn c128, ndt_corr_fn u64) {
  switch (t) {
    case NDT_FLOAT32: return f32;
    case NDT_FLOAT64: return f64;
    case NDT_COMPLEX64: return c64;
    case NDT_COMPLEX128: return c128;
    default: return u64;
  }
}

ndt_corr_fn ndt__cpu_corr(ndt_dtype t) {
  return pick(t, corr_f32, corr_f64, corr_c64, corr_c128, corr_u64);
}

/* The AVX2 copies (NULL off x86): installed by the table when the CPU has
 * AVX2. */
ndt_corr_fn ndt__cpu_corr_avx2(ndt_dtype t) {
#if CORR_AVX2
  return pick(t, corr_f32_avx2, corr_f64_avx2, corr_c64_avx2, corr_c128_avx2, corr_u64_avx2);
#else
  (void)t;
  return NULL;
#endif
}

