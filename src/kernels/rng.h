/* rng.h - the random-number kernel family (Philox4x32-10 and samplers):
 * what src/ops/random.c records into a task and a backend's rng_* entries
 * read. Layout of the streams: src/ops/random.c. */
#ifndef NDT_KERNELS_RNG_H
#define NDT_KERNELS_RNG_H

#include <stdint.h>
#include "ndtile.h"

/* The key and draw word of one call. */
typedef struct {
  uint32_t k0, k1, draw;
} ndt_rng_key;

/* Values per chunk of a fill, and Philox blocks for positions computed
 * ahead for each sub-stream (the caller's scratch: NDT_RNG_NPRE of them). */
#define NDT_RNG_CH 256
#define NDT_RNG_NPRE 4   /* most blocks a rejection sampler's elements get ahead */
typedef struct {
  uint32_t w[4][NDT_RNG_CH + 4];
} ndt_rng_blocks;

typedef enum {
  NDT_RNG_RANDOM, NDT_RNG_UNIFORM, NDT_RNG_NORMAL, NDT_RNG_EXPONENTIAL, NDT_RNG_GAMMA,
  NDT_RNG_POISSON, NDT_RNG_BINOMIAL, NDT_RNG_INTEGERS
} ndt_rng_dist;

/* Parameters of one call, with what can be computed once. */
typedef struct {
  ndt_rng_dist dist;
  ndt_dtype t;
  /* float distributions: value = loc + scale * standard variate */
  double loc, scale;
  /* gamma */
  double g_shape, g_d, g_c, g_inv;   /* g_d/g_c for max(shape, shape + 1), g_inv = 1/shape */
  /* poisson */
  double lam, enlam, slam, loglam, pa, pb, pinvalpha, pvr, plog_invalpha;
  /* binomial */
  int64_t bn;
  int bflip, bmode;                 /* bmode: 0 constant, 1 inversion, 2 BTRS */
  int64_t bconst;
  double bp, bq, bqn, bbound, ba, bb, bc, bvr, balpha, br, bm, bterm;
  /* rejection samplers: blocks of each sub-stream computed ahead (<= NDT_RNG_NPRE) */
  int npre;
  /* integers: value = base + r, r uniform in [0, span] */
  uint64_t base, span, thr32, thr64;
} ndt_rng_params;

/* The parameters computed once per call (host code, any backend):
 * Marsaglia-Tsang for shape k > 0, Poisson lam > 0, binomial n >= 0 and
 * p in [0, 1]. */
void ndt__rng_gamma_setup(ndt_rng_params *q, double k);
void ndt__rng_poisson_setup(ndt_rng_params *q, double lam);
void ndt__rng_binomial_setup(ndt_rng_params *q, int64_t n, double p);

/* The fixed-cost samplers and the first tries of the rejection samplers
 * (the CPU's SIMD-overridden pieces). */
typedef enum { NDT_RNG_U53, NDT_RNG_U24, NDT_RNG_FNORMAL, NDT_RNG_FEXP } ndt_rng_fixed;
typedef enum { NDT_RNG_TGAMMA, NDT_RNG_TPTRS, NDT_RNG_TBTRS } ndt_rng_try;

#endif
