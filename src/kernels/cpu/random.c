/* random.c - the CPU's random-number kernels: Philox4x32-10 blocks, the
 * fixed-cost samplers (vectorized) and the rejection samplers, for the
 * layout src/ops/random.c describes (every value of element i comes from
 * counters that are a function of (seed, stream, draw, i) alone).
 *
 * Hot loops are written to vectorize (Philox with explicit AVX2 / AVX-512
 * multiplies) and give the same bits at every SIMD level: the fixed-cost
 * samplers and the first try of gamma (shape >= 1), PTRS and BTRS use only
 * IEEE-exact operations and the polynomial log/sin/cos of
 * kernels/rng_scalar.h (shared with the device's kernel); the rest of
 * the rejection samplers call libm (log, exp, pow, log1p), whose last bits
 * may differ between libm builds. The SIMD copies are installed by the
 * table (ndt__cpu_rng_install, from src/kernels/cpu/table.c). */
#include <math.h>
#include <string.h>
#include "internal.h"
#include "cpu.h"

typedef ndt_rng_key rkey;
typedef ndt_rng_params rparams;
typedef ndt_rng_blocks blocks;
typedef ndt_rng_fixed fkind;
typedef ndt_rng_try tkind;
#define CH NDT_RNG_CH
#define NPRE NDT_RNG_NPRE

/* Bits must not depend on the machine: no contraction into fused
 * multiply-adds, and the fixed-cost samplers use the polynomial log and
 * sin/cos below (only IEEE +, -, *, /, sqrt), so the scalar, AVX2 and
 * AVX-512 versions of a loop give the same bits. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-trapping-math")
#endif
/* the per-element arithmetic the device shares (after the pragmas: its
 * inline functions compile under them) */
#include "kernels/rng_scalar.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define RNG_X86 1
#include <immintrin.h>
#define TARGET_AVX2 __attribute__((target("avx2")))
#define TARGET_AVX512 __attribute__((target("avx512f")))
#else
#define RNG_X86 0
#endif
#define KINLINE static inline __attribute__((always_inline))

/* ---- Philox4x32-10 --------------------------------------------------- */

void ndt_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3];
  uint32_t k0 = key[0], k1 = key[1];
  NDT_PHILOX_ROUNDS(x0, x1, x2, x3, k0, k1)
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
}


/* Blocks for positions p0 .. p0+n-1 (ctr[3] = sub), as four word arrays,
 * written so the compiler can vectorize across positions. */

KINLINE void philox_body(const rkey *k, uint64_t p0, uint32_t sub, int n, blocks *b) {
  uint32_t *restrict o0 = b->w[0], *restrict o1 = b->w[1];
  uint32_t *restrict o2 = b->w[2], *restrict o3 = b->w[3];
  const uint32_t key0 = k->k0, key1 = k->k1, draw = k->draw;
  for (int j = 0; j < n; j++) {   /* vectorized across blocks */
    uint64_t p = p0 + (uint64_t)j;
    uint32_t x0 = (uint32_t)p, x1 = (uint32_t)(p >> 32), x2 = draw, x3 = sub;
    uint32_t k0 = key0, k1 = key1;
    NDT_PHILOX_ROUNDS(x0, x1, x2, x3, k0, k1)
    o0[j] = x0;
    o1[j] = x1;
    o2[j] = x2;
    o3[j] = x3;
  }
}

static void philox_base(const rkey *k, uint64_t p0, uint32_t sub, int n, blocks *b) {
  philox_body(k, p0, sub, n, b);
}
#if RNG_X86
/* Blocks j .. n-1 one at a time: what the SIMD paths leave over. */
static void philox_rest(const rkey *k, uint64_t p0, uint32_t sub, int j, int n, blocks *b) {
  for (; j < n; j++) {
    uint32_t ctr[4] = {(uint32_t)(p0 + (uint64_t)j), (uint32_t)((p0 + (uint64_t)j) >> 32),
                       k->draw, sub};
    uint32_t key[2] = {k->k0, k->k1}, out[4];
    ndt_philox4x32_10(ctr, key, out);
    for (int q = 0; q < 4; q++) b->w[q][j] = out[q];
  }
}

/* The same rounds with explicit 32x32->64 multiplies (compilers widen to
 * 64x64 products otherwise): even lanes multiply in place, odd lanes after a
 * shift, and blends put high and low halves back in 32-bit lanes. */
TARGET_AVX2 static void philox_avx2(const rkey *k, uint64_t p0, uint32_t sub, int n,
                                    blocks *b) {
  const __m256i m0 = _mm256_set1_epi64x(NDT_PH_M0), m1 = _mm256_set1_epi64x(NDT_PH_M1);
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  int j = 0;
  for (; j + 8 <= n; j += 8) {
    uint64_t p = p0 + (uint64_t)j;
    if ((uint32_t)p > UINT32_MAX - 8) break;   /* a carry inside the group: scalar */
    __m256i x0 = _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)p), iota);
    __m256i x1 = _mm256_set1_epi32((int)(uint32_t)(p >> 32));
    __m256i x2 = _mm256_set1_epi32((int)k->draw), x3 = _mm256_set1_epi32((int)sub);
    uint32_t k0 = k->k0, k1 = k->k1;
    for (int r = 0; r < 10; r++) {
      __m256i e0 = _mm256_mul_epu32(x0, m0), o0 = _mm256_mul_epu32(_mm256_srli_epi64(x0, 32), m0);
      __m256i e1 = _mm256_mul_epu32(x2, m1), o1 = _mm256_mul_epu32(_mm256_srli_epi64(x2, 32), m1);
      __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(e0, 32), o0, 0xAA);
      __m256i lo0 = _mm256_blend_epi32(e0, _mm256_slli_epi64(o0, 32), 0xAA);
      __m256i hi1 = _mm256_blend_epi32(_mm256_srli_epi64(e1, 32), o1, 0xAA);
      __m256i lo1 = _mm256_blend_epi32(e1, _mm256_slli_epi64(o1, 32), 0xAA);
      x0 = _mm256_xor_si256(_mm256_xor_si256(hi1, x1), _mm256_set1_epi32((int)k0));
      x2 = _mm256_xor_si256(_mm256_xor_si256(hi0, x3), _mm256_set1_epi32((int)k1));
      x1 = lo1;
      x3 = lo0;
      k0 += NDT_PH_W0;
      k1 += NDT_PH_W1;
    }
    _mm256_storeu_si256((__m256i *)(b->w[0] + j), x0);
    _mm256_storeu_si256((__m256i *)(b->w[1] + j), x1);
    _mm256_storeu_si256((__m256i *)(b->w[2] + j), x2);
    _mm256_storeu_si256((__m256i *)(b->w[3] + j), x3);
  }
  philox_rest(k, p0, sub, j, n, b);
}

TARGET_AVX512 static void philox_avx512(const rkey *k, uint64_t p0, uint32_t sub, int n,
                                        blocks *b) {
  const __m512i m0 = _mm512_set1_epi64(NDT_PH_M0), m1 = _mm512_set1_epi64(NDT_PH_M1);
  const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __mmask16 odd = 0xAAAA;
  int j = 0;
  for (; j + 16 <= n; j += 16) {
    uint64_t p = p0 + (uint64_t)j;
    if ((uint32_t)p > UINT32_MAX - 16) break;
    __m512i x0 = _mm512_add_epi32(_mm512_set1_epi32((int)(uint32_t)p), iota);
    __m512i x1 = _mm512_set1_epi32((int)(uint32_t)(p >> 32));
    __m512i x2 = _mm512_set1_epi32((int)k->draw), x3 = _mm512_set1_epi32((int)sub);
    uint32_t k0 = k->k0, k1 = k->k1;
    for (int r = 0; r < 10; r++) {
      __m512i e0 = _mm512_mul_epu32(x0, m0), o0 = _mm512_mul_epu32(_mm512_srli_epi64(x0, 32), m0);
      __m512i e1 = _mm512_mul_epu32(x2, m1), o1 = _mm512_mul_epu32(_mm512_srli_epi64(x2, 32), m1);
      __m512i hi0 = _mm512_mask_blend_epi32(odd, _mm512_srli_epi64(e0, 32), o0);
      __m512i lo0 = _mm512_mask_blend_epi32(odd, e0, _mm512_slli_epi64(o0, 32));
      __m512i hi1 = _mm512_mask_blend_epi32(odd, _mm512_srli_epi64(e1, 32), o1);
      __m512i lo1 = _mm512_mask_blend_epi32(odd, e1, _mm512_slli_epi64(o1, 32));
      x0 = _mm512_ternarylogic_epi32(hi1, x1, _mm512_set1_epi32((int)k0), 0x96);
      x2 = _mm512_ternarylogic_epi32(hi0, x3, _mm512_set1_epi32((int)k1), 0x96);
      x1 = lo1;
      x3 = lo0;
      k0 += NDT_PH_W0;
      k1 += NDT_PH_W1;
    }
    _mm512_storeu_si512((void *)(b->w[0] + j), x0);
    _mm512_storeu_si512((void *)(b->w[1] + j), x1);
    _mm512_storeu_si512((void *)(b->w[2] + j), x2);
    _mm512_storeu_si512((void *)(b->w[3] + j), x3);
  }
  philox_rest(k, p0, sub, j, n, b);
}
#endif

/* Blocks for positions p0 .. p0+n-1 with ctr[3] = sub (n <= CH + 4). */
static void philox_n(const rkey *k, uint64_t p0, uint32_t sub, int n, blocks *b) {
  ndt__cpu_rng.philox(k, p0, sub, n, b);
}

/* ---- fixed-cost samplers, vectorized ------------------------------------ */
/* (their per-lane arithmetic, Philox's rounds, the polynomial log and
 * sin/cos and the integers' sampler are kernels/rng_scalar.h's) */

/* Elements [f, f + m) of a fixed-cost sampler from the blocks b (already
 * computed): value = loc + scale * x (NDT_RNG_FEXP: scale * x). Block p holds
 * elements P p .. P p + P - 1 (P = 4 for 24-bit floats, else 2). */
KINLINE void fixed_body(fkind kind, const rkey *k, uint64_t f, int m, double loc, double scale,
                        double *restrict dst, blocks *b) {
  int sh = kind == NDT_RNG_U24 ? 2 : 1;
  uint64_t j0 = f >> sh;
  int nb = (int)(((f + m - 1) >> sh) - j0 + 1);
  NDT_UNUSED(k);
  double o[4][CH / 2 + 4];
  const uint32_t *w0 = b->w[0], *w1 = b->w[1], *w2 = b->w[2], *w3 = b->w[3];
  /* the lanes' values: kernels/rng_scalar.h, as the device computes them */
  if (kind == NDT_RNG_U24) {
    for (int j = 0; j < nb; j++) {
      o[0][j] = ndt_rng_u24(w0[j]);
      o[1][j] = ndt_rng_u24(w1[j]);
      o[2][j] = ndt_rng_u24(w2[j]);
      o[3][j] = ndt_rng_u24(w3[j]);
    }
  } else if (kind == NDT_RNG_FNORMAL) {
    for (int j = 0; j < nb; j++)   /* Box-Muller: elements 2p (r cos t) and 2p+1 (r sin t) */
      ndt_rng_normal2(w0[j], w1[j], w2[j], w3[j], loc, scale, &o[0][j], &o[1][j]);
  } else if (kind == NDT_RNG_FEXP) {
    for (int j = 0; j < nb; j++) {
      o[0][j] = ndt_rng_exp(w0[j], w1[j], scale);
      o[1][j] = ndt_rng_exp(w2[j], w3[j], scale);
    }
  } else {
    for (int j = 0; j < nb; j++) {
      o[0][j] = ndt_rng_lin(w0[j], w1[j], loc, scale);
      o[1][j] = ndt_rng_lin(w2[j], w3[j], loc, scale);
    }
  }
  /* interleave: element f + e is lane (f + e) % P of block (f + e) / P */
  int e = 0, j = 0;
  if (kind == NDT_RNG_U24) {
    for (int l = (int)(f & 3); l != 0 && e < m; l = (l + 1) & 3) {
      dst[e++] = o[l][j];
      if (l == 3) j++;
    }
    int groups = (m - e) / 4;
    for (int i = 0; i < groups; i++)
      for (int l = 0; l < 4; l++) dst[e + 4 * i + l] = o[l][j + i];
    e += 4 * groups;
    j += groups;
    for (int l = 0; e < m; l++) dst[e++] = o[l][j];
    return;
  }
  if (f & 1) dst[e++] = o[1][j++];
  int pairs = (m - e) / 2;
  for (int i = 0; i < pairs; i++) {
    dst[e + 2 * i] = o[0][j + i];
    dst[e + 2 * i + 1] = o[1][j + i];
  }
  if (e + 2 * pairs < m) dst[m - 1] = o[0][j + pairs];
}

static void fixed_base(fkind kind, const rkey *k, uint64_t f, int m, double loc, double scale,
                       double *dst, blocks *b) {
  fixed_body(kind, k, f, m, loc, scale, dst, b);
}
#if RNG_X86
TARGET_AVX2 static void fixed_avx2(fkind kind, const rkey *k, uint64_t f, int m, double loc,
                                   double scale, double *dst, blocks *b) {
  fixed_body(kind, k, f, m, loc, scale, dst, b);
}
TARGET_AVX512 static void fixed_avx512(fkind kind, const rkey *k, uint64_t f, int m,
                                       double loc, double scale, double *dst, blocks *b) {
  fixed_body(kind, k, f, m, loc, scale, dst, b);
}
#endif

static void fixed_n(fkind kind, const rkey *k, uint64_t f, int m, double loc, double scale,
                    double *dst, blocks *b) {
  int sh = kind == NDT_RNG_U24 ? 2 : 1;
  philox_n(k, f >> sh, 0, (int)(((f + m - 1) >> sh) - (f >> sh) + 1), b);
  ndt__cpu_rng.fixed(kind, k, f, m, loc, scale, dst, b);
}


/* ---- one element's sub-stream ----------------------------------------- */

typedef struct {
  const rkey *k;
  uint64_t pos;
  uint32_t sub;       /* the next block's ctr[3] */
  int used;           /* words of w already used */
  uint32_t w[4];
  int has_normal;
  double normal;
  const blocks *pre;  /* blocks ctr[3] = 0 .. npre-1 computed ahead, column col */
  int npre, col;
} estream;

static inline void es_init(estream *s, const rkey *k, uint64_t pos, uint32_t sub) {
  s->k = k;
  s->pos = pos;
  s->sub = sub;
  s->used = 4;
  s->has_normal = 0;
  s->npre = 0;
  s->pre = NULL;
  s->col = 0;
}

/* A sub-stream whose first npre blocks are column col of pre[0..npre-1]. */
static inline void es_init_pre(estream *s, const rkey *k, uint64_t pos, const blocks *pre,
                               int npre, int col) {
  es_init(s, k, pos, 0);
  s->pre = pre;
  s->npre = npre;
  s->col = col;
}

static inline uint32_t es_u32(estream *s) {
  if (s->used == 4) {
    if ((int)s->sub < s->npre) {
      for (int q = 0; q < 4; q++) s->w[q] = s->pre[s->sub].w[q][s->col];
      s->sub++;
    } else {
      ndt_rng_philox(s->k, s->pos, s->sub++, s->w);
    }
    s->used = 0;
  }
  return s->w[s->used++];
}

static inline uint64_t es_u64(estream *s) {
  uint64_t lo = es_u32(s);
  return lo | (uint64_t)es_u32(s) << 32;
}

static inline double es_double(estream *s) { return ndt_rng_u53(es_u64(s)); }   /* [0, 1) */

static double es_normal(estream *s) {   /* Box-Muller, as the vector loop */
  if (s->has_normal) {
    s->has_normal = 0;
    return s->normal;
  }
  double r = sqrt(-2.0 * ndt_rng_log(1.0 - es_double(s))), sn, cs;
  ndt_rng_sincos2pi(es_u64(s) >> 11, &sn, &cs);
  s->normal = r * sn;
  s->has_normal = 1;
  return r * cs;
}

/* ---- special functions ------------------------------------------------- */

#define HALF_LOG_2PI 0.91893853320467274178032973640562

/* log(Gamma(x)) for x > 0, thread safe (lgamma may write signgam). */
static double loggam(double x) {
  if (x == 1.0 || x == 2.0) return 0.0;
  double shift = 0.0;
  while (x < 10.0) {
    shift += log(x);
    x += 1.0;
  }
  double r = 1.0 / x, r2 = r * r;
  double series =
      r * (1.0 / 12 + r2 * (-1.0 / 360 + r2 * (1.0 / 1260 + r2 * (-1.0 / 1680 +
                                                                 r2 * (1.0 / 1188)))));
  return (x - 0.5) * log(x) - x + HALF_LOG_2PI + series - shift;
}

/* log(k!) - [(k + 1/2) log(k + 1) - (k + 1) + log(2 pi)/2]: the Stirling
 * tail, computed without cancellation for large k. */
static double stirling_tail(double k) {
  if (k < 10) {
    double lf = 0;
    for (int i = 2; i <= (int)k; i++) lf += log((double)i);
    return lf - ((k + 0.5) * log(k + 1) - (k + 1) + HALF_LOG_2PI);
  }
  double r = 1.0 / (k + 1), r2 = r * r;
  return r * (1.0 / 12 + r2 * (-1.0 / 360 + r2 * (1.0 / 1260 + r2 * (-1.0 / 1680 +
                                                                 r2 * (1.0 / 1188)))));
}

/* ---- the distributions ------------------------------------------------ */


static double gamma_mt(estream *s, double d, double c) {
  for (;;) {
    double x, v;
    do {
      x = es_normal(s);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = es_double(s), x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
    if (log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) return d * v;
  }
}

static double std_gamma(estream *s, const rparams *q) {
  if (q->g_shape >= 1.0) return gamma_mt(s, q->g_d, q->g_c);
  /* shape < 1: Gamma(a) = Gamma(a + 1) * U^(1/a) */
  double g = gamma_mt(s, q->g_d, q->g_c);
  return g * pow(1.0 - es_double(s), q->g_inv);   /* U in (0, 1] */
}

static int64_t poisson_one(estream *s, const rparams *q) {
  if (q->lam < 10.0) {   /* multiplication of uniforms */
    int64_t x = 0;
    double prod = 1.0;
    for (;;) {
      prod *= es_double(s);
      if (prod > q->enlam) x++;
      else return x;
    }
  }
  /* PTRS: Hormann, "The transformed rejection method for generating Poisson
   * random variables", Insurance: Mathematics and Economics 12 (1993). */
  for (;;) {
    double u = es_double(s) - 0.5, v = es_double(s);
    double us = 0.5 - fabs(u);
    double k = floor((2.0 * q->pa / us + q->pb) * u + q->lam + 0.43);
    if (us >= 0.07 && v <= q->pvr) return (int64_t)k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + q->plog_invalpha - log(q->pa / (us * us) + q->pb) <=
        -q->lam + k * q->loglam - loggam(k + 1))
      return (int64_t)k;
  }
}

static int64_t binomial_finish(const rparams *q, double k) {
  int64_t ik = k <= 0 ? 0 : k >= (double)q->bn ? q->bn : (int64_t)k;
  return q->bflip ? q->bn - ik : ik;
}

static int64_t binomial_one(estream *s, const rparams *q) {
  double k;
  if (q->bmode == 0) return q->bconst;
  double n = (double)q->bn, p = q->bp;
  if (q->bmode == 1) {   /* inversion, n*p < 10 */
    double x = 0, px = q->bqn, u = es_double(s);
    while (u > px) {
      x += 1;
      if (x > q->bbound) {
        x = 0;
        px = q->bqn;
        u = es_double(s);
      } else {
        u -= px;
        px = ((n - x + 1) * p * px) / (x * q->bq);
      }
    }
    k = x;
  } else {
    /* BTRS: Hormann, "The generation of binomial random variates", J. Statist.
     * Comput. Simul. 46 (1993); the acceptance test uses Stirling tails so
     * large n loses no precision. */
    double m = q->bm, r = q->br;
    for (;;) {
      double u = es_double(s) - 0.5, v = es_double(s);
      double us = 0.5 - fabs(u);
      k = floor((2.0 * q->ba / us + q->bb) * u + q->bc);
      if (k < 0 || k > n) continue;
      if (us >= 0.07 && v <= q->bvr) break;
      v = log(v * q->balpha / (q->ba / (us * us) + q->bb));
      double bound = q->bterm + (n + 1) * log1p((k - m) / (n - k + 1)) +
                     (k + 0.5) * log(r * (n - k + 1) / (k + 1)) - stirling_tail(k) -
                     stirling_tail(n - k);
      if (v <= bound) break;
    }
  }
  return binomial_finish(q, k);
}

/* The first try of the rejection samplers, vectorized: the same operations
 * on the same words as the scalar code above (so the same bits), keeping
 * the value where the quick acceptance test passes (NaN elsewhere); the
 * scalar code redoes the rest from the start of their sub-streams. */

KINLINE void try_body(tkind kind, const rparams *q, const blocks *b, int m,
                      double *restrict val) {
  const uint32_t *a0 = b[0].w[0], *a1 = b[0].w[1], *a2 = b[0].w[2], *a3 = b[0].w[3];
  if (kind == NDT_RNG_TGAMMA) {   /* Marsaglia-Tsang's squeeze, shape >= 1 */
    const uint32_t *c0 = b[1].w[0], *c1 = b[1].w[1];
    const double d = q->g_d, c = q->g_c;
    for (int e = 0; e < m; e++) {
      double r = sqrt(-2.0 * ndt_rng_log(1.0 - ndt_rng_u53((uint64_t)a1[e] << 32 | a0[e]))), sn, cs;
      ndt_rng_sincos2pi(((uint64_t)a3[e] << 32 | a2[e]) >> 11, &sn, &cs);
      double x = r * cs, v = 1.0 + c * x;
      double v3 = v * v * v, u = ndt_rng_u53((uint64_t)c1[e] << 32 | c0[e]), x2 = x * x;
      double t = v > 0.0 ? d * v3 : NAN;
      val[e] = u < 1.0 - 0.0331 * x2 * x2 ? t : NAN;
    }
  } else {   /* the box of PTRS / BTRS */
    const int ptrs = kind == NDT_RNG_TPTRS;
    const double pa = ptrs ? q->pa : q->ba, pb = ptrs ? q->pb : q->bb;
    const double add = ptrs ? q->lam + 0.43 : q->bc, vr = ptrs ? q->pvr : q->bvr;
    const double lo = ptrs ? -INFINITY : 0.0, hi = ptrs ? INFINITY : (double)q->bn;
    for (int e = 0; e < m; e++) {
      double u = ndt_rng_u53((uint64_t)a1[e] << 32 | a0[e]) - 0.5;
      double v = ndt_rng_u53((uint64_t)a3[e] << 32 | a2[e]);
      double us = 0.5 - fabs(u);
      double k = floor((2.0 * pa / us + pb) * u + add);
      double t = us >= 0.07 ? k : NAN;
      t = v <= vr ? t : NAN;
      t = k >= lo ? t : NAN;
      val[e] = k <= hi ? t : NAN;
    }
  }
}

static void try_base(tkind kind, const rparams *q, const blocks *b, int m, double *val) {
  try_body(kind, q, b, m, val);
}
#if RNG_X86
TARGET_AVX2 static void try_avx2(tkind kind, const rparams *q, const blocks *b, int m,
                                 double *val) {
  try_body(kind, q, b, m, val);
}
TARGET_AVX512 static void try_avx512(tkind kind, const rparams *q, const blocks *b, int m,
                                     double *val) {
  try_body(kind, q, b, m, val);
}
#endif

static void first_try(tkind kind, const rparams *q, const blocks *b, int m, double *val) {
  ndt__cpu_rng.first_try(kind, q, b, m, val);
}

/* Generates elements [f0, f0 + m) of the call into dbl (float results) or
 * u64 (integer results). */
static void generate(const rparams *q, const rkey *k, int64_t f0, int m, double *dbl,
                     uint64_t *u64, blocks *b) {
  uint64_t f = (uint64_t)f0;
  switch (q->dist) {
    case NDT_RNG_RANDOM:
    case NDT_RNG_UNIFORM:
    case NDT_RNG_EXPONENTIAL:
    case NDT_RNG_NORMAL: {
      ndt_rng_fixed kind = NDT_RNG_U53;
      double loc = 0.0, scale = 1.0;
      ndt_rng_fixed_of(q, &kind, &loc, &scale);
      fixed_n(kind, k, f, m, loc, scale, dbl, b);
      return;
    }
    case NDT_RNG_GAMMA:
    case NDT_RNG_POISSON:
    case NDT_RNG_BINOMIAL: {
      /* the blocks most elements need, computed ahead, vectorized */
      for (int r = 0; r < q->npre; r++) philox_n(k, f, (uint32_t)r, m, &b[r]);
      int tk = -1;
      if (q->dist == NDT_RNG_GAMMA && q->g_shape >= 1.0) tk = NDT_RNG_TGAMMA;
      else if (q->dist == NDT_RNG_POISSON && q->lam >= 10.0) tk = NDT_RNG_TPTRS;
      else if (q->dist == NDT_RNG_BINOMIAL && q->bmode == 2) tk = NDT_RNG_TBTRS;
      double val[CH];
      if (tk >= 0) first_try((tkind)tk, q, b, m, val);
      estream s;
      for (int e = 0; e < m; e++) {
        int done = tk >= 0 && !isnan(val[e]);
        if (!done) es_init_pre(&s, k, f + e, b, q->npre, e);
        if (q->dist == NDT_RNG_GAMMA) dbl[e] = (done ? val[e] : std_gamma(&s, q)) * q->scale;
        else if (q->dist == NDT_RNG_POISSON)
          u64[e] = (uint64_t)(done ? (int64_t)val[e] : poisson_one(&s, q));
        else u64[e] = (uint64_t)(done ? binomial_finish(q, val[e]) : binomial_one(&s, q));
      }
      return;
    }
    case NDT_RNG_INTEGERS: {
      /* the first words, vectorized; each value (and its rare rejection on
       * its own sub-stream) by kernels/rng_scalar.h, as on the device */
      if (q->span == 0) {
        for (int e = 0; e < m; e++) u64[e] = q->base;
        return;
      }
      /* a local copy: the stores to u64 cannot change it, so its fields
       * stay in registers (through q, 9 % more instructions a value) */
      const rparams ql = *q;
      if (ndt_rng_int_shift(&ql) == 2) {
        uint64_t j0 = f >> 2;
        philox_n(k, j0, 0, (int)(((f + m - 1) >> 2) - j0 + 1), b);
        for (int e = 0; e < m; e++) {
          uint64_t g = f + e;
          u64[e] = ndt_rng_int32(&ql, k, g, b->w[g & 3][(g >> 2) - j0]);
        }
      } else {
        uint64_t j0 = f >> 1;
        philox_n(k, j0, 0, (int)(((f + m - 1) >> 1) - j0 + 1), b);
        for (int e = 0; e < m; e++) {
          uint64_t g = f + e;
          int j = (int)((g >> 1) - j0), h = (int)(g & 1) * 2;
          u64[e] = ndt_rng_int64(&ql, k, g, b->w[h][j] | (uint64_t)b->w[h + 1][j] << 32);
        }
      }
      return;
    }
  }
}

void ndt__cpu_rng_store(ndt_dtype t, char *dst, const double *dbl, const uint64_t *u64, int m) {
  switch (t) {
    case NDT_FLOAT64: memcpy(dst, dbl, (size_t)m * 8); break;
    case NDT_FLOAT32:
      for (int e = 0; e < m; e++) ((float *)dst)[e] = (float)dbl[e];
      break;
    case NDT_BOOL:
    case NDT_INT8:
    case NDT_UINT8:
      for (int e = 0; e < m; e++) ((uint8_t *)dst)[e] = (uint8_t)u64[e];
      break;
    case NDT_INT16:
    case NDT_UINT16:
      for (int e = 0; e < m; e++) ((uint16_t *)dst)[e] = (uint16_t)u64[e];
      break;
    case NDT_INT32:
    case NDT_UINT32:
      for (int e = 0; e < m; e++) ((uint32_t *)dst)[e] = (uint32_t)u64[e];
      break;
    default: memcpy(dst, u64, (size_t)m * 8); break;
  }
}

/* Marsaglia-Tsang for shape k > 0: a normal (one block) and a uniform per try. */
void ndt__rng_gamma_setup(ndt_rng_params *q, double k) {
  double a = k >= 1.0 ? k : k + 1.0;
  q->g_shape = k;
  q->npre = 2;
  q->g_d = a - 1.0 / 3.0;
  q->g_c = 1.0 / sqrt(9.0 * q->g_d);
  q->g_inv = 1.0 / k;
}

/* lam > 0. Multiplication: about lam + 1 uniforms, two a block; PTRS: a
 * block a try. */
void ndt__rng_poisson_setup(ndt_rng_params *q, double lam) {
  q->lam = lam;
  q->npre = lam < 10.0 ? (int)((lam + 1) / 2) + 2 : 2;
  if (q->npre > NPRE) q->npre = NPRE;
  q->enlam = exp(-lam);
  q->slam = sqrt(lam);
  q->loglam = log(lam);
  q->pb = 0.931 + 2.53 * q->slam;
  q->pa = -0.059 + 0.02483 * q->pb;
  q->pinvalpha = 1.1239 + 1.1328 / (q->pb - 3.4);
  q->pvr = 0.9277 - 3.6224 / (q->pb - 2);
  q->plog_invalpha = log(q->pinvalpha);
}

/* n >= 0, p in [0, 1]; bmode 0 when every value is bconst. */
void ndt__rng_binomial_setup(ndt_rng_params *q, int64_t n, double p) {
  q->bn = n;
  if (n == 0 || p == 0 || p == 1) {
    q->bmode = 0;
    q->bconst = p == 1 ? n : 0;
    return;
  }
  q->bflip = p > 0.5;
  double pp = q->bflip ? 1.0 - p : p, qq = 1.0 - pp, nd = (double)n;
  q->bp = pp;
  q->bq = qq;
  q->npre = 2;
  if (nd * pp < 10.0) {
    q->bmode = 1;
    q->npre = 1;
    q->bqn = exp(nd * log1p(-pp));
    double np = nd * pp, bound = np + 10.0 * sqrt(np * qq + 1);
    q->bbound = bound < nd ? bound : nd;
  } else {
    q->bmode = 2;
    double spq = sqrt(nd * pp * qq);
    q->bb = 1.15 + 2.53 * spq;
    q->ba = -0.0873 + 0.0248 * q->bb + 0.01 * pp;
    q->bc = nd * pp + 0.5;
    q->bvr = 0.92 - 4.2 / q->bb;
    q->balpha = (2.83 + 5.1 / q->bb) * spq;
    q->br = pp / qq;
    q->bm = floor((nd + 1) * pp);
    double m = q->bm;
    /* the part of log(f(k)/f(m)) that does not depend on k */
    q->bterm = (m + 0.5) * log((m + 1) / (q->br * (nd - m + 1))) + stirling_tail(m) +
              stirling_tail(nd - m);
  }
}

void ndt__cpu_rng_fill(const ndt_rng_params *q, const ndt_rng_key *k, int64_t f0, int m,
                      double *dbl, uint64_t *u64, ndt_rng_blocks *b) {
  generate(q, k, f0, m, dbl, u64, b);
}

/* One element with its own parameters (checked by the caller), drawn from
 * sub-stream 0 of position pos exactly as the scalar-parameter sampler
 * draws it: gamma (shape x > 0, scale y), poisson (lam x > 0), binomial
 * (n nx, p y). */
void ndt__cpu_rng_one(ndt_rng_dist dist, const ndt_rng_key *k, uint64_t pos, double x, double y,
                     int64_t nx, double *dv, uint64_t *uv) {
  rparams q;
  memset(&q, 0, sizeof q);
  estream s;
  es_init(&s, k, pos, 0);
  switch (dist) {
    case NDT_RNG_GAMMA:
      ndt__rng_gamma_setup(&q, x);
      *dv = std_gamma(&s, &q) * y;
      return;
    case NDT_RNG_POISSON:
      ndt__rng_poisson_setup(&q, x);
      *uv = (uint64_t)poisson_one(&s, &q);
      return;
    default:
      ndt__rng_binomial_setup(&q, nx, y);
      *uv = (uint64_t)binomial_one(&s, &q);
      return;
  }
}

/* The 64-bit key of element i (two words of block i/2). */
static void perm_keys(const rkey *k, uint64_t f, int m, uint64_t *dst, blocks *b) {
  uint64_t j0 = f >> 1;
  int nb = (int)(((f + m - 1) >> 1) - j0 + 1);
  philox_n(k, j0, 0, nb, b);
  for (int e = 0; e < m; e++) {
    uint64_t g = f + e;
    int j = (int)((g >> 1) - j0), h = (int)(g & 1) * 2;
    dst[e] = b->w[h][j] | (uint64_t)b->w[h + 1][j] << 32;
  }
}

/* The permutation of n <= 2^31 elements keyed by k into dst: the indices
 * sorted by (64-bit random key, index), an LSD radix sort of (key with its
 * low bits replaced by the index) on the key's top 33 bits (three 11-bit
 * digits; stable, so equal digits keep index order), then each run of
 * equal top bits (about n^2 / 2^34 pairs) sorted by the full keys. Returns
 * 0, or -1 when out of memory (its scratch is n-sized). */
int ndt__cpu_rng_permutation(const ndt_rng_key *k, int64_t n, int64_t *dst) {
  int ib = 0;
  while ((INT64_C(1) << ib) < n) ib++;
  const uint64_t imask = (UINT64_C(1) << ib) - 1;
  uint64_t *x = ndt__malloc((size_t)n * 8), *y = ndt__malloc((size_t)n * 8);
  int64_t(*cnt)[2048] = ndt__calloc(3, sizeof *cnt);
  blocks *b = ndt__malloc(sizeof(blocks));
  uint64_t keys[CH];
  if (!x || !y || !cnt || !b) {
    ndt__mfree(x);
    ndt__mfree(y);
    ndt__mfree(cnt);
    ndt__mfree(b);
    return -1;
  }
  for (int64_t c = 0; c < n; c += CH) {
    int m = (int)(n - c < CH ? n - c : CH);
    perm_keys(k, (uint64_t)c, m, keys, b);
    for (int e = 0; e < m; e++) {
      uint64_t v = (keys[e] & ~imask) | (uint64_t)(c + e);
      x[c + e] = v;
      cnt[0][(v >> 31) & 2047]++;
      cnt[1][(v >> 42) & 2047]++;
      cnt[2][v >> 53]++;
    }
  }
  for (int d = 0; d < 3; d++) {
    int64_t sum = 0;
    for (int i = 0; i < 2048; i++) {
      int64_t c = cnt[d][i];
      cnt[d][i] = sum;
      sum += c;
    }
  }
  for (int d = 0; d < 3; d++) {
    int sh = 31 + 11 * d;
    for (int64_t i = 0; i < n; i++) {
      uint64_t v = x[i];
      y[cnt[d][(v >> sh) & 2047]++] = v;
    }
    uint64_t *t = x;
    x = y;
    y = t;
  }
  /* ties of the top 33 bits: order by the full key (then index) */
  for (int64_t i = 0; i < n;) {
    int64_t j = i + 1;
    while (j < n && (x[j] >> 31) == (x[i] >> 31)) j++;
    for (int64_t h = i + 1; h < j; h++) {
      uint64_t v = x[h], kv;
      perm_keys(k, v & imask, 1, &kv, b);
      int64_t g = h;
      while (g > i) {
        uint64_t kg;
        perm_keys(k, x[g - 1] & imask, 1, &kg, b);
        if (kg <= kv) break;   /* equal keys keep index order */
        x[g] = x[g - 1];
        g--;
      }
      x[g] = v;
    }
    i = j;
  }
  for (int64_t i = 0; i < n; i++) dst[i] = (int64_t)(x[i] & imask);
  ndt__mfree(x);
  ndt__mfree(y);
  ndt__mfree(cnt);
  ndt__mfree(b);
  return 0;
}

/* ---- the SIMD copies, installed with the table ------------------------------ */
ndt_cpu_rng_uk ndt__cpu_rng = {philox_base, fixed_base, try_base};

void ndt__cpu_rng_install(int level) {
  ndt_cpu_rng_uk u = {philox_base, fixed_base, try_base};
#if RNG_X86
  if (level >= 3) u = (ndt_cpu_rng_uk){philox_avx512, fixed_avx512, try_avx512};
  else if (level >= 2) u = (ndt_cpu_rng_uk){philox_avx2, fixed_avx2, try_avx2};
#else
  (void)level;
#endif
  ndt__cpu_rng = u;
}
