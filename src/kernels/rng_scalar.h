/* rng_scalar.h - the random numbers' per-element arithmetic, written once
 * for the CPU's kernels (src/kernels/cpu/random.c, which vectorizes these
 * functions across positions) and the device's (src/kernels/cuda/rng_impl.h):
 * Philox4x32-10, the machine-independent log and sin/cos, the fixed-cost
 * samplers' values from a block's words, and the integers (Lemire's
 * multiply with its rare rejection on the element's own sub-stream). The
 * layout of the streams: src/ops/random.c.
 *
 * Same bits everywhere: only integer operations and IEEE +, -, *, /, sqrt
 * (no libm), compiled without contraction (the CPU's file turns it off;
 * nvcc gets --fmad=false, IEEE division and square root). Plain C99 that
 * nvcc compiles as __host__ __device__ code (NDT_HD, scalar.h). The
 * rejection samplers (gamma, poisson, binomial) call libm, whose device
 * versions differ in their last bits: they stay in the CPU's file. */
#ifndef NDT_KERNELS_RNG_SCALAR_H
#define NDT_KERNELS_RNG_SCALAR_H

#include "kernels/scalar.h"
#include "kernels/rng.h"

#define NDT_PH_M0 0xD2511F53u
#define NDT_PH_M1 0xCD9E8D57u
#define NDT_PH_W0 0x9E3779B9u
#define NDT_PH_W1 0xBB67AE85u

/* The ten rounds on the words x0..x3 with key k0, k1 (all uint32_t
 * variables, updated in place); one definition for every scalar path. */
#define NDT_PHILOX_ROUNDS(x0, x1, x2, x3, k0, k1)                        \
  for (int r_ = 0; r_ < 10; r_++) {                                      \
    uint64_t q0_ = (uint64_t)NDT_PH_M0 * x0, q1_ = (uint64_t)NDT_PH_M1 * x2; \
    uint32_t y0_ = (uint32_t)(q1_ >> 32) ^ x1 ^ k0;                      \
    uint32_t y2_ = (uint32_t)(q0_ >> 32) ^ x3 ^ k1;                      \
    x1 = (uint32_t)q1_;                                                  \
    x3 = (uint32_t)q0_;                                                  \
    x0 = y0_;                                                            \
    x2 = y2_;                                                            \
    k0 += NDT_PH_W0;                                                     \
    k1 += NDT_PH_W1;                                                     \
  }

/* The block of position p, sub-block sub, of the call keyed by k. */
NDT_HD void ndt_rng_philox(const ndt_rng_key *k, uint64_t p, uint32_t sub, uint32_t w[4]) {
  uint32_t x0 = (uint32_t)p, x1 = (uint32_t)(p >> 32), x2 = k->draw, x3 = sub;
  uint32_t k0 = k->k0, k1 = k->k1;
  NDT_PHILOX_ROUNDS(x0, x1, x2, x3, k0, k1)
  w[0] = x0;
  w[1] = x1;
  w[2] = x2;
  w[3] = x3;
}

/* ---- machine-independent math ---- */
NDT_HD double ndt_rng_as_double(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
NDT_HD uint64_t ndt_rng_as_bits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
/* Exact conversions that vectorize without AVX-512DQ: 0 <= v < 2^52, and
 * -2^51 < v < 2^51. */
NDT_HD double ndt_rng_u52_to_d(uint64_t v) {
  return ndt_rng_as_double(UINT64_C(0x4330000000000000) | v) - 4503599627370496.0;
}
NDT_HD double ndt_rng_s51_to_d(uint64_t v) {
  return ndt_rng_as_double(UINT64_C(0x4338000000000000) + v) - 6755399441055744.0;
}
/* The top 53 bits of a 64-bit word as a double in [0, 1) (NumPy's random). */
NDT_HD double ndt_rng_u53(uint64_t w) {
  w >>= 11;
  return (2.0 * ndt_rng_u52_to_d(w >> 1) + ndt_rng_u52_to_d(w & 1)) * 0x1p-53;
}
/* The top 24 bits of a word as a value in [0, 1) (float32's random). */
NDT_HD double ndt_rng_u24(uint32_t w) { return ndt_rng_u52_to_d(w >> 8) * 0x1p-24; }

/* log(x) for a positive normal x, within about 1 ulp: x = 2^k m with m in
 * [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f), and
 * log(m) = 2 atanh(s) = f - f^2/2 + s (f^2/2 + R(s^2)) with R's Taylor
 * series (|s| < 0.172, so 11 terms reach 1e-18). */
NDT_HD double ndt_rng_log(double x) {
  uint64_t b = ndt_rng_as_bits(x);
  uint64_t kb = (b - UINT64_C(0x3FE6A09E667F3BCD) + UINT64_C(0x3FF0000000000000)) >> 52;
  double m = ndt_rng_as_double(b - (kb << 52) + UINT64_C(0x3FF0000000000000));
  double kd = ndt_rng_u52_to_d(kb) - 1023.0;
  double f = m - 1.0, s = f / (2.0 + f), z = s * s, hfsq = 0.5 * f * f;
  double r =
      z * (2.0 / 3 + z * (2.0 / 5 + z * (2.0 / 7 + z * (2.0 / 9 + z * (2.0 / 11 + z * (2.0 / 13 +
      z * (2.0 / 15 + z * (2.0 / 17 + z * (2.0 / 19 + z * (2.0 / 21 + z * (2.0 / 23)))))))))));
  /* ln 2 split so that kd * LN2_HI is exact */
  const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
  return kd * LN2_HI - ((hfsq - (s * (hfsq + r) + kd * LN2_LO)) - f);
}

/* sin and cos of 2 pi u for u = w * 2^-53, 0 <= w < 2^53: w = 2^51 q + v
 * with q = round(4u) and |v| <= 2^50, then the angle pi/2 (q + v 2^-51)
 * reduces exactly to |z| <= pi/4 and Taylor polynomials (to z^17, z^16). */
NDT_HD void ndt_rng_sincos2pi(uint64_t w, double *sn, double *cs) {
  uint64_t q = (w + (UINT64_C(1) << 50)) >> 51;
  double z = ndt_rng_s51_to_d(w - (q << 51)) * (1.5707963267948966192 * 0x1p-51);
  double z2 = z * z;
  double s = z + z * z2 * (-1.0 / 6 + z2 * (1.0 / 120 + z2 * (-1.0 / 5040 + z2 * (1.0 / 362880 +
             z2 * (-1.0 / 39916800 + z2 * (1.0 / 6227020800.0 + z2 * (-1.0 / 1307674368000.0 +
             z2 * (1.0 / 355687428096000.0))))))));
  double c = 1.0 - 0.5 * z2 + z2 * z2 * (1.0 / 24 + z2 * (-1.0 / 720 + z2 * (1.0 / 40320 +
             z2 * (-1.0 / 3628800 + z2 * (1.0 / 479001600 + z2 * (-1.0 / 87178291200.0 +
             z2 * (1.0 / 20922789888000.0)))))));
  /* quadrant q: (sin, cos) = (s, c), (c, -s), (-s, -c), (-c, s) */
  double a = (q & 1) ? c : s, bb = (q & 1) ? s : c;
  *sn = ndt_rng_as_double(ndt_rng_as_bits(a) ^ ((q & 2) << 62));
  *cs = ndt_rng_as_double(ndt_rng_as_bits(bb) ^ (((q + 1) & 2) << 62));
}

/* ---- the fixed-cost samplers: values from a block's words ----
 * A block's four words w0..w3 give four 24-bit values (NDT_RNG_U24), or
 * two values of the others: lane 0 from (w0, w1), lane 1 from (w2, w3). */

/* loc + scale * u53 (random, uniform) */
NDT_HD double ndt_rng_lin(uint32_t lo, uint32_t hi, double loc, double scale) {
  return loc + scale * ndt_rng_u53((uint64_t)hi << 32 | lo);
}
/* scale * an exponential variate; 1 - u is exact, so -log(1 - u) is
 * -log1p(-u) */
NDT_HD double ndt_rng_exp(uint32_t lo, uint32_t hi, double scale) {
  return -ndt_rng_log(1.0 - ndt_rng_u53((uint64_t)hi << 32 | lo)) * scale;
}
/* Box-Muller: a block gives the pair (r cos t, r sin t), as loc + scale x */
NDT_HD void ndt_rng_normal2(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, double loc,
                            double scale, double *a, double *b) {
  double u = ndt_rng_u53((uint64_t)w1 << 32 | w0);
  double r = sqrt(-2.0 * ndt_rng_log(1.0 - u)), sn, cs;
  ndt_rng_sincos2pi(((uint64_t)w3 << 32 | w2) >> 11, &sn, &cs);
  *a = loc + scale * (r * cs);
  *b = loc + scale * (r * sn);
}

/* The fixed-cost sampler of a float distribution, with its loc and scale;
 * 0 for the others. */
NDT_HD int ndt_rng_fixed_of(const ndt_rng_params *q, ndt_rng_fixed *kind, double *loc,
                            double *scale) {
  switch (q->dist) {
    case NDT_RNG_RANDOM:
      *kind = q->t == NDT_FLOAT32 ? NDT_RNG_U24 : NDT_RNG_U53;
      *loc = 0.0;
      *scale = 1.0;
      return 1;
    case NDT_RNG_UNIFORM:
      *kind = NDT_RNG_U53;
      *loc = q->loc;
      *scale = q->scale;
      return 1;
    case NDT_RNG_EXPONENTIAL:
      *kind = NDT_RNG_FEXP;
      *loc = 0.0;
      *scale = q->scale;
      return 1;
    case NDT_RNG_NORMAL:
      *kind = NDT_RNG_FNORMAL;
      *loc = q->loc;
      *scale = q->scale;
      return 1;
    default: return 0;
  }
}

/* ---- an element's own sub-stream (no blocks computed ahead) ---- */
typedef struct {
  const ndt_rng_key *k;
  uint64_t pos;
  uint32_t sub;   /* the next block's ctr[3] */
  int used;       /* words of w already used */
  uint32_t w[4];
} ndt_rng_sub;

NDT_HD void ndt_rng_sub_init(ndt_rng_sub *s, const ndt_rng_key *k, uint64_t pos, uint32_t sub) {
  s->k = k;
  s->pos = pos;
  s->sub = sub;
  s->used = 4;
}
NDT_HD uint32_t ndt_rng_sub_u32(ndt_rng_sub *s) {
  if (s->used == 4) {
    ndt_rng_philox(s->k, s->pos, s->sub++, s->w);
    s->used = 0;
  }
  return s->w[s->used++];
}
NDT_HD uint64_t ndt_rng_sub_u64(ndt_rng_sub *s) {
  uint64_t lo = ndt_rng_sub_u32(s);
  return lo | (uint64_t)ndt_rng_sub_u32(s) << 32;
}

NDT_HD uint64_t ndt_rng_mulhi64(uint64_t a, uint64_t b, uint64_t *lo) {
#if defined(__CUDA_ARCH__)
  *lo = a * b;
  return __umul64hi(a, b);
#elif defined(__SIZEOF_INT128__)
  unsigned __int128 m = (unsigned __int128)a * b;
  *lo = (uint64_t)m;
  return (uint64_t)(m >> 64);
#else
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  *lo = (mid << 32) | (uint32_t)p00;
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* ---- integers: value = base + r, r uniform in [0, span] ----
 * Lemire, "Fast random integer generation in an interval", ACM TOMACS 29
 * (2019): multiply, and reject the few low products that would bias; a
 * rejected element draws again from its own sub-stream (p = g, ctr[3] =
 * 1, 2, ...). Spans below 2^32 take word g % 4 of block g / 4 first,
 * larger ones words (2h, 2h + 1), h = g % 2, of block g / 2. */
NDT_HD int ndt_rng_int_shift(const ndt_rng_params *q) { return q->span <= UINT32_MAX ? 2 : 1; }

NDT_HD uint64_t ndt_rng_int32(const ndt_rng_params *q, const ndt_rng_key *k, uint64_t g,
                              uint32_t w) {
  if (q->span == UINT32_MAX) return q->base + w;
  uint64_t range = q->span + 1;   /* <= 2^32 */
  uint64_t prod = (uint64_t)w * range;
  if ((uint32_t)prod < q->thr32) {
    ndt_rng_sub s;
    ndt_rng_sub_init(&s, k, g, 1);
    while ((uint32_t)prod < q->thr32) prod = (uint64_t)ndt_rng_sub_u32(&s) * range;
  }
  return q->base + (prod >> 32);
}

NDT_HD uint64_t ndt_rng_int64(const ndt_rng_params *q, const ndt_rng_key *k, uint64_t g,
                              uint64_t w) {
  if (q->span == UINT64_MAX) return q->base + w;
  uint64_t range = q->span + 1, lo, hi = ndt_rng_mulhi64(w, range, &lo);
  if (lo < q->thr64) {
    ndt_rng_sub s;
    ndt_rng_sub_init(&s, k, g, 1);
    while (lo < q->thr64) hi = ndt_rng_mulhi64(ndt_rng_sub_u64(&s), range, &lo);
  }
  return q->base + hi;
}

#endif
