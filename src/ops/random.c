/* random.c - random numbers on a counter-based generator.
 *
 * The bit source is Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel
 * random numbers: as easy as 1, 2, 3", SC11): a keyed bijection of a 128-bit
 * counter, so any block of the stream is computed directly from its counter.
 *
 * Layout. A generator is (seed, stream, draws). The k-th array drawn from it
 * (k = draws at the call) uses
 *     key     = mix(seed, stream, k >> 32)             (64 bits)
 *     ctr[0..1] = a 64-bit position p                  (from the element)
 *     ctr[2]  = k & 0xffffffff                         (the draw)
 *     ctr[3]  = a sub-block number                     (see below)
 * Every value of element i (its C-order flat index in the result) comes from
 * counters whose position is a function of i alone, so the value depends only
 * on (seed, stream, k, i): never on tiles, workers or ranks.
 *
 *   - fixed-cost values share one block between neighbours: 53-bit doubles,
 *     exponentials, normals (Box-Muller: a pair from one block), 64-bit
 *     integers and permutation keys take half a block (p = i/2), 24-bit
 *     floats and integers of ranges up to 2^32 a quarter (p = i/4), all with
 *     ctr[3] = 0;
 *   - values drawn by rejection (integers after a rejection, gamma, poisson,
 *     binomial) read their own sub-stream: p = i, ctr[3] = 0, 1, 2, ... (the
 *     integers' sub-stream starts at ctr[3] = 1, so it never meets the shared
 *     first blocks, which have ctr[3] = 0).
 *
 * Every fill is one task per block of the result (the blocks are its tiles),
 * as ndt_arange's fill; a permutation is one task. A device may run the
 * fill ("random", ndt_rand_arg of random.h) with the CPU's bits: the CUDA
 * plugin does for the fixed-cost floats and the integers
 * (src/kernels/cuda/rng_impl.h, on the arithmetic the CPU's kernels share,
 * src/kernels/rng_scalar.h). The generator and the
 * samplers are the backend's rng_* kernels (src/kernels/rng.h; the CPU's in
 * src/kernels/cpu/random.c, which says which bits are machine-independent);
 * this file keeps the keys, the parameter checks and the tasks.
 */
#include <math.h>
#include <string.h>
#include "random.h"

/* As in the kernels: no contraction in the parameter arithmetic here. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-trapping-math")
#endif
typedef ndt_rng_key rkey;
typedef ndt_rng_params rparams;
typedef ndt_rng_dist rdist;
#define CH NDT_RNG_CH

struct ndt_rng {
  uint64_t seed, stream, draws;
};

static uint64_t mix64(uint64_t z) {   /* the splitmix64 finalizer, a bijection */
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static rkey key_for(uint64_t seed, uint64_t stream, uint64_t draw) {
  /* distinct seeds give distinct keys for a given (stream, draw >> 32) */
  uint64_t k = mix64(seed ^ mix64(stream + 0x9E3779B97F4A7C15ull) ^
                     mix64((draw >> 32) + 0xD1B54A32D192ED03ull));
  rkey r = {(uint32_t)k, (uint32_t)(k >> 32), (uint32_t)draw};
  return r;
}


/* ---- tasks ------------------------------------------------------------ */

typedef ndt_rand_arg rand_arg;   /* (random.h: a device's body reads it) */

/* Operand: out (write). */
static ndt_status rand_body(ndt_bound *op, void *p) {
  rand_arg *a = p;
  const ndt_bound bd = op[0];
  /* a block of a fresh C-contiguous array is a contiguous range of a tile */
  int isz = ndt_vsize(&a->out);
  int64_t n = a->out.size;
  ndt_rng_blocks b[NDT_RNG_NPRE];
  union {
    double d[CH];
    uint64_t u[CH];
  } buf;
  int is_float = a->q.t == NDT_FLOAT32 || a->q.t == NDT_FLOAT64;
  double *dst64 = a->q.t == NDT_FLOAT64 ? (double *)bd.ptr : NULL;
  for (int64_t c = 0; c < n; c += CH) {
    int m = (int)(n - c < CH ? n - c : CH);
    double *dbl = dst64 ? dst64 + c : buf.d;
    ndt__kern->rng_fill(&a->q, &a->key, a->first + c, m, dbl, buf.u, b);
    if (!dst64) ndt__kern->rng_store(a->q.t, bd.ptr + c * isz, is_float ? buf.d : NULL, buf.u, m);
  }
  return NDT_OK;
}

static const ndt_task_kind rand_kind = {"random", {rand_body}, NULL};

static ndt_status check_rng(const ndt_rng *rng) {
  if (!rng) return ndt__error(NDT_ERR_VALUE, "random generator is NULL");
  return NDT_OK;
}

static ndt_status rand_fill(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                            const rparams *q, const char *name) {
  ndt_status st = check_rng(rng);
  if (st) return st;
  ndt_array *r;
  st = ndt__array_new(&r, q->t, ndim, shape, 0);
  if (st) return st;
  ndt_tiling tl;
  ndt__tiling_for(ndim, r->shape, r->store->itemsize, ndt__rt_tile_bytes(), &tl);
  rand_arg a;
  memset(&a, 0, sizeof a);
  a.key = key_for(rng->seed, rng->stream, rng->draws);
  a.q = *q;
  ndt_operand op = {&a.out, NDT_WRITE};
  unsigned fl = tl.ntiles == 1 && r->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK && r->size; b++) {
    ndt__block_view(r, &tl, b, &a.out);
    a.first = a.out.offset - r->offset;
    st = ndt__record(&rand_kind, name, &op, 1, &a, sizeof a, fl);
  }
  if (st) {
    ndt_free(r);
    return st;
  }
  rng->draws++;
  *out = r;
  return NDT_OK;
}

/* ---- the generator object ---------------------------------------------- */

ndt_status ndt_rng_new(ndt_rng **out, uint64_t seed) {
  if (!out) return ndt__error(NDT_ERR_VALUE, "out is NULL");
  ndt_rng *r = ndt__malloc(sizeof *r);
  if (!r) return NDT_ERR_NOMEM;
  r->seed = seed;
  r->stream = 0;
  r->draws = 0;
  *out = r;
  return NDT_OK;
}

void ndt_rng_free(ndt_rng *rng) { ndt__mfree(rng); }

ndt_status ndt_rng_get_state(const ndt_rng *rng, ndt_rng_state *state) {
  ndt_status st = check_rng(rng);
  if (st) return st;
  if (!state) return ndt__error(NDT_ERR_VALUE, "state is NULL");
  state->seed = rng->seed;
  state->stream = rng->stream;
  state->draws = rng->draws;
  return NDT_OK;
}

ndt_status ndt_rng_set_state(ndt_rng *rng, const ndt_rng_state *state) {
  ndt_status st = check_rng(rng);
  if (st) return st;
  if (!state) return ndt__error(NDT_ERR_VALUE, "state is NULL");
  rng->seed = state->seed;
  rng->stream = state->stream;
  rng->draws = state->draws;
  return NDT_OK;
}

/* ---- float distributions ---------------------------------------------- */

static ndt_status float_dtype(ndt_dtype *t, const char *fn) {
  if (*t == NDT_DTYPE_DEFAULT) *t = NDT_FLOAT64;
  if (*t != NDT_FLOAT64 && *t != NDT_FLOAT32) {
    const char *nm = ndt_dtype_name(*t);
    return ndt__error(NDT_ERR_TYPE, "Unsupported dtype dtype('%s') for %s", nm ? nm : "?", fn);
  }
  return NDT_OK;
}

/* NumPy's check of a non-negative parameter: NaN passes, -0.0 does not. */
static int negative(double x) { return !isnan(x) && signbit(x); }

ndt_status ndt_rng_random(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                          ndt_dtype t) {
  ndt_status st = float_dtype(&t, "random");
  if (st) return st;
  rparams q = {.dist = NDT_RNG_RANDOM, .t = t, .scale = 1};
  return rand_fill(out, rng, ndim, shape, &q, "random");
}

ndt_status ndt_rng_uniform(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                           double low, double high, ndt_dtype t) {
  ndt_status st = float_dtype(&t, "uniform");
  if (st) return st;
  double range = high - low;
  if (!isfinite(range))
    return ndt__error(NDT_ERR_OVERFLOW, "high - low range exceeds valid bounds");
  rparams q = {.dist = NDT_RNG_UNIFORM, .t = t, .loc = low, .scale = range};
  return rand_fill(out, rng, ndim, shape, &q, "uniform");
}

ndt_status ndt_rng_normal(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                          double loc, double scale, ndt_dtype t) {
  ndt_status st = float_dtype(&t, "normal");
  if (st) return st;
  if (negative(scale)) return ndt__error(NDT_ERR_VALUE, "scale < 0");
  rparams q = {.dist = NDT_RNG_NORMAL, .t = t, .loc = loc, .scale = scale};
  return rand_fill(out, rng, ndim, shape, &q, "normal");
}

ndt_status ndt_rng_standard_normal(ndt_array **out, ndt_rng *rng, int ndim,
                                   const int64_t *shape, ndt_dtype t) {
  ndt_status st = float_dtype(&t, "standard_normal");
  if (st) return st;
  rparams q = {.dist = NDT_RNG_NORMAL, .t = t, .loc = 0, .scale = 1};
  return rand_fill(out, rng, ndim, shape, &q, "standard_normal");
}

ndt_status ndt_rng_exponential(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                               double scale, ndt_dtype t) {
  ndt_status st = float_dtype(&t, "exponential");
  if (st) return st;
  if (negative(scale)) return ndt__error(NDT_ERR_VALUE, "scale < 0");
  rparams q = {.dist = NDT_RNG_EXPONENTIAL, .t = t, .scale = scale};
  return rand_fill(out, rng, ndim, shape, &q, "exponential");
}

ndt_status ndt_rng_gamma(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                         double k, double scale, ndt_dtype t) {
  ndt_status st = float_dtype(&t, "gamma");
  if (st) return st;
  if (negative(k)) return ndt__error(NDT_ERR_VALUE, "shape < 0");
  if (negative(scale)) return ndt__error(NDT_ERR_VALUE, "scale < 0");
  if (k == 0.0 || isnan(k)) {
    /* degenerate: every value is 0 * scale (NaN for a NaN shape) */
    rparams q = {.dist = NDT_RNG_UNIFORM, .t = t, .loc = isnan(k) ? k : 0.0 * scale, .scale = 0};
    return rand_fill(out, rng, ndim, shape, &q, "gamma");
  }
  rparams q = {.dist = NDT_RNG_GAMMA, .t = t, .scale = scale};
  ndt__rng_gamma_setup(&q, k);
  return rand_fill(out, rng, ndim, shape, &q, "gamma");
}

/* ---- integer distributions -------------------------------------------- */

/* NumPy's Generator rejects larger lam (int64 max - 10 * sqrt(int64 max)). */
#define POISSON_LAM_MAX 9.2233720064847708e18

ndt_status ndt_rng_poisson(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                           double lam) {
  if (!(lam >= 0)) return ndt__error(NDT_ERR_VALUE, "lam < 0 or lam is NaN");
  if (lam > POISSON_LAM_MAX) return ndt__error(NDT_ERR_VALUE, "lam value too large");
  rparams q = {.dist = NDT_RNG_POISSON, .t = NDT_INT64, .lam = lam};
  if (lam == 0) {
    q.dist = NDT_RNG_INTEGERS;   /* span 0: every value is 0 */
    return rand_fill(out, rng, ndim, shape, &q, "poisson");
  }
  ndt__rng_poisson_setup(&q, lam);
  return rand_fill(out, rng, ndim, shape, &q, "poisson");
}

ndt_status ndt_rng_binomial(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                            int64_t n, double p) {
  if (n < 0) return ndt__error(NDT_ERR_VALUE, "n < 0");
  if (!(p >= 0 && p <= 1)) return ndt__error(NDT_ERR_VALUE, "p < 0, p > 1 or p is NaN");
  rparams q = {.dist = NDT_RNG_BINOMIAL, .t = NDT_INT64};
  ndt__rng_binomial_setup(&q, n, p);
  return rand_fill(out, rng, ndim, shape, &q, "binomial");
}

/* ---- samplers with parameters per element ----------------------------- */
/* Element i is drawn from its own sub-stream exactly as the scalar-parameter
 * sampler draws it (es_init at sub-stream 0 replays what the blocks computed
 * ahead hold), so gamma(full(n, 2.0)) has the bits of gamma(2.0, size=n). */

typedef struct {
  ndt_array out, p0, p1;   /* blocks of the result and of its parameters */
  int64_t first;           /* flat index of the block's first element */
  rkey key;
  rdist dist;
  ndt_dtype t;
} param_arg;

static ndt_status param_one(const param_arg *a, const rkey *k, uint64_t pos, double x,
                            double y, int64_t nx, double *dv, uint64_t *uv) {
  switch (a->dist) {
    case NDT_RNG_GAMMA:   /* shape x, scale y */
      if (negative(x)) return ndt__error(NDT_ERR_VALUE, "shape < 0");
      if (negative(y)) return ndt__error(NDT_ERR_VALUE, "scale < 0");
      if (x == 0.0 || isnan(x)) {
        *dv = isnan(x) ? x : 0.0 * y;
        return NDT_OK;
      }
      break;
    case NDT_RNG_POISSON:   /* lam x */
      if (!(x >= 0)) return ndt__error(NDT_ERR_VALUE, "lam < 0 or lam is NaN");
      if (x > POISSON_LAM_MAX) return ndt__error(NDT_ERR_VALUE, "lam value too large");
      if (x == 0) {
        *uv = 0;
        return NDT_OK;
      }
      break;
    default:   /* binomial: n nx, p y */
      if (nx < 0) return ndt__error(NDT_ERR_VALUE, "n < 0");
      if (!(y >= 0 && y <= 1)) return ndt__error(NDT_ERR_VALUE, "p < 0, p > 1 or p is NaN");
      break;
  }
  ndt__kern->rng_one(a->dist, k, pos, x, y, nx, dv, uv);
  return NDT_OK;
}

/* Operands: out (write), p0, p1 (read). */
static ndt_status param_body(ndt_bound *op, void *p) {
  const param_arg *a = p;
  const ndt_bound bo = op[0], b0 = op[1], b1 = op[2];
  ndt_status st = NDT_OK;
  /* the result block is a contiguous range (a block of a fresh array); the
   * parameters are walked in C order through their strides */
  int nd = a->out.ndim, isz = ndt_vsize(&a->out);
  int64_t idx[NDT_MAXDIMS] = {0}, n = a->out.size;
  const char *q0 = b0.ptr, *q1 = b1.ptr;
  int int_n = a->dist == NDT_RNG_BINOMIAL;
  double dbuf[CH];
  uint64_t ubuf[CH];
  for (int64_t c = 0; c < n && st == NDT_OK; c += CH) {
    int m = (int)(n - c < CH ? n - c : CH);
    for (int e = 0; e < m && st == NDT_OK; e++) {
      double x = int_n ? 0.0 : *(const double *)q0;
      int64_t nx = int_n ? *(const int64_t *)q0 : 0;
      double y = *(const double *)q1;
      st = param_one(a, &a->key, (uint64_t)(a->first + c + e), x, y, nx, &dbuf[e], &ubuf[e]);
      for (int k = nd - 1; k >= 0; k--) {   /* next element in C order */
        q0 += b0.st[k];
        q1 += b1.st[k];
        if (++idx[k] < a->out.shape[k]) break;
        q0 -= b0.st[k] * a->out.shape[k];
        q1 -= b1.st[k] * a->out.shape[k];
        idx[k] = 0;
      }
    }
    if (st == NDT_OK) ndt__kern->rng_store(a->t, bo.ptr + c * isz, dbuf, ubuf, m);
  }
  return st;
}

/* (a kind of its own: a device's "random" body reads ndt_rand_arg only) */
static const ndt_task_kind param_kind = {"random parameters", {param_body}, NULL};

static ndt_status param_fill(ndt_array **out, ndt_rng *rng, rdist dist, ndt_dtype t,
                             const ndt_array *p0, ndt_dtype t0, const ndt_array *p1,
                             const char *name) {
  ndt_status st = check_rng(rng);
  if (st) return st;
  if (!out || !p0 || !p1) return ndt__error(NDT_ERR_VALUE, "%s: an argument is NULL", name);
  if (p0->dtype != t0 || p1->dtype != NDT_FLOAT64)
    return ndt__error(NDT_ERR_TYPE, "%s: parameters must be %s and float64 arrays", name,
                     ndt_dtype_name(t0));
  int64_t shape[NDT_MAXDIMS];
  int nd;
  const int nds[2] = {p0->ndim, p1->ndim};
  const int64_t *shapes[2] = {p0->shape, p1->shape};
  if ((st = ndt_broadcast_shapes(2, nds, shapes, &nd, shape))) return st;
  ndt_array *r;
  if ((st = ndt__array_new(&r, t, nd, shape, 0))) return st;
  ndt_array v0, v1;
  ndt__bcast_view(p0, nd, shape, &v0);
  ndt__bcast_view(p1, nd, shape, &v1);
  ndt_tiling tl;
  ndt__tiling_for(nd, r->shape, r->store->itemsize, ndt__rt_tile_bytes(), &tl);
  param_arg a;
  memset(&a, 0, sizeof a);
  a.key = key_for(rng->seed, rng->stream, rng->draws);
  a.dist = dist;
  a.t = t;
  ndt_operand ops[3] = {{&a.out, NDT_WRITE}, {&a.p0, NDT_READ}, {&a.p1, NDT_READ}};
  unsigned fl = tl.ntiles == 1 && r->size <= ndt__rt_inline_elems()
                    ? NDT_TASK_INLINE | NDT_TASK_CALLER_ERROR : 0;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK && r->size; b++) {
    ndt__block_view(r, &tl, b, &a.out);
    ndt__block_view(&v0, &tl, b, &a.p0);
    ndt__block_view(&v1, &tl, b, &a.p1);
    a.first = a.out.offset - r->offset;
    st = ndt__record(&param_kind, name, ops, 3, &a, sizeof a, fl);
  }
  if (st) {
    ndt_free(r);
    return st;
  }
  rng->draws++;
  *out = r;
  return NDT_OK;
}

ndt_status ndt_rng_gamma_array(ndt_array **out, ndt_rng *rng, const ndt_array *k,
                               const ndt_array *scale, ndt_dtype t) {
  ndt_status st = float_dtype(&t, "gamma");
  if (st) return st;
  return param_fill(out, rng, NDT_RNG_GAMMA, t, k, NDT_FLOAT64, scale, "gamma");
}

ndt_status ndt_rng_poisson_array(ndt_array **out, ndt_rng *rng, const ndt_array *lam) {
  return param_fill(out, rng, NDT_RNG_POISSON, NDT_INT64, lam, NDT_FLOAT64, lam, "poisson");
}

ndt_status ndt_rng_binomial_array(ndt_array **out, ndt_rng *rng, const ndt_array *n,
                                  const ndt_array *p) {
  return param_fill(out, rng, NDT_RNG_BINOMIAL, NDT_INT64, n, NDT_INT64, p, "binomial");
}

/* A bound as sign and magnitude, |v| = hi * 2**64 + mag (the binding's
 * Python ints; hi saturates, which decides every comparison with a dtype's
 * range the same way). */
typedef ndt_int128 wint;

static wint w_i64(int64_t x) {
  wint w = {x < 0, 0, x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x};
  return w;
}
static wint w_u64(uint64_t x) {
  wint w = {0, 0, x};
  return w;
}
static int w_cmp(wint a, wint b) {
  if (a.high == 0 && a.low == 0) a.negative = 0;
  if (b.high == 0 && b.low == 0) b.negative = 0;
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int c = a.high != b.high ? (a.high < b.high ? -1 : 1) : (a.low < b.low ? -1 : a.low > b.low);
  return a.negative ? -c : c;
}
/* a - 1 */
static wint w_dec(wint a) {
  if (a.high == 0 && a.low == 0) return (wint){1, 0, 1};
  if (a.negative) {
    if (++a.low == 0 && a.high != UINT64_MAX) a.high++;
  } else {
    if (a.low-- == 0) a.high--;
  }
  return a;
}
/* the low 64 bits of a in two's complement: a value within a dtype's range */
static uint64_t w_bits(wint a) { return a.negative ? (uint64_t)0 - a.low : a.low; }
static int w_is_zero(wint a) { return a.high == 0 && a.low == 0; }

/* NumPy's rules and messages for integers' bounds (low's range, then
 * high's, then their order), so a C program gets the same errors. */
static ndt_status integers(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                           ndt_dtype t, wint low, wint high, int endpoint) {
  if (t == NDT_DTYPE_DEFAULT) t = NDT_INT64;
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "invalid dtype %d", t);
  char kind = ndt__traits[t].kind;
  if (kind != 'b' && kind != 'i' && kind != 'u')
    return ndt__error(NDT_ERR_TYPE, "Unsupported dtype dtype('%s') for integers",
                     ndt_dtype_name(t));
  int bits = 8 * (int)ndt__traits[t].size;
  wint lo_b, hi_b;
  if (kind == 'b') {
    lo_b = w_u64(0);
    hi_b = w_u64(1);
  } else if (kind == 'u') {
    lo_b = w_u64(0);
    hi_b = w_u64(bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1);
  } else {
    lo_b = (wint){1, 0, UINT64_C(1) << (bits - 1)};
    hi_b = w_u64((UINT64_C(1) << (bits - 1)) - 1);
  }
  const char *tn = ndt_dtype_name(t);
  if (w_cmp(low, lo_b) < 0)
    return ndt__error_at(NDT_ERR_VALUE, NDT_KIND_VALUE, "low", "low is out of bounds for %s", tn);
  wint hi = endpoint ? high : w_dec(high);
  if (w_cmp(hi, hi_b) > 0)
    return ndt__error_at(NDT_ERR_VALUE, NDT_KIND_VALUE, "high", "high is out of bounds for %s",
                         tn);
  if (w_cmp(low, hi) > 0) {
    /* integers(0) and integers(0, -3): NumPy names high alone */
    if (w_is_zero(low))
      return ndt__error_at(NDT_ERR_VALUE, NDT_KIND_VALUE, "high",
                           endpoint ? "high < 0" : "high <= 0");
    return ndt__error_at(NDT_ERR_VALUE, NDT_KIND_VALUE, "low", endpoint ? "low > high" : "low >= high");
  }
  rparams q = {.dist = NDT_RNG_INTEGERS, .t = t};
  q.base = w_bits(low);
  q.span = w_bits(hi) - q.base;
  if (q.span < UINT32_MAX) {
    uint32_t range = (uint32_t)(q.span + 1);
    q.thr32 = (uint32_t)(0u - range) % range;
  } else if (q.span > UINT32_MAX && q.span < UINT64_MAX) {
    uint64_t range = q.span + 1;
    q.thr64 = (0 - range) % range;
  }
  return rand_fill(out, rng, ndim, shape, &q, "integers");
}

ndt_status ndt_rng_integers_wide(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                                 ndt_dtype t, ndt_int128 low, ndt_int128 high, int endpoint) {
  return integers(out, rng, ndim, shape, t, low, high, endpoint);
}

ndt_status ndt_rng_integers(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                            ndt_dtype t, int64_t low, int64_t high, int endpoint) {
  return integers(out, rng, ndim, shape, t, w_i64(low), w_i64(high), endpoint);
}

ndt_status ndt_rng_integers_u64(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                                ndt_dtype t, uint64_t low, uint64_t high, int endpoint) {
  return integers(out, rng, ndim, shape, t, w_u64(low), w_u64(high), endpoint);
}

/* ---- permutations -------------------------------------------------------- */

typedef struct {
  ndt_array out;
  rkey key;
} perm_arg;

/* A permutation is one task: the backend's rng_permutation sorts the
 * indices by their random keys. n <= 2^31 keeps the index below the sorted
 * bits. */
#define PERM_MAXN (INT64_C(1) << 31)
/* Operand: out (write). */
static ndt_status perm_body(ndt_bound *op, void *p) {
  perm_arg *a = p;
  if (ndt__kern->rng_permutation(&a->key, a->out.size, (int64_t *)op[0].ptr) != 0)
    return NDT_ERR_NOMEM;
  return NDT_OK;
}

static const ndt_task_kind perm_kind = {"permutation", {perm_body}, NULL};

ndt_status ndt_rng_permutation(ndt_array **out, ndt_rng *rng, int64_t n) {
  ndt_status st = check_rng(rng);
  if (st) return st;
  if (n < 0) n = 0;   /* as NumPy's permutation(n) of arange(n) */
  if (n > PERM_MAXN)
    return ndt__error(NDT_ERR_UNSUPPORTED, "permutation of more than 2**31 elements");
  ndt_array *r;
  st = ndt__array_new(&r, NDT_INT64, 1, &n, 0);
  if (st) return st;
  perm_arg a;
  memset(&a, 0, sizeof a);
  a.out = *r;
  a.key = key_for(rng->seed, rng->stream, rng->draws);
  if (n > 0) {
    ndt_operand op = {&a.out, NDT_WRITE};
    st = ndt__record(&perm_kind, NULL, &op, 1, &a, sizeof a,
                    r->store->ntiles == 1 && n <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0);
  }
  if (st) {
    ndt_free(r);
    return st;
  }
  rng->draws++;
  *out = r;
  return NDT_OK;
}
