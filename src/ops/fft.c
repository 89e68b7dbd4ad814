/* fft.c - discrete Fourier transforms along one axis (numpy.fft's kernels).
 *
 * Our own FFT (no library): a recursive decimation-in-time mixed-radix
 * Cooley-Tukey transform with radix 2, 3, 4 and 5 butterflies and a generic
 * O(p^2) butterfly for other odd prime radices up to BLUE_MAX; a length with
 * a larger prime factor goes through Bluestein's chirp-z algorithm, a
 * convolution computed with a power-of-two transform, so every length is
 * O(n log n). Every transform is computed in double precision (complex64 and
 * float32 data are widened on load and rounded once on store). Twiddles are
 * computed one by one from cosl/sinl of 2*pi*k/n, never by recurrence. The
 * backward transform is conj(forward(conj(x))), which is exact.
 *
 * Real input (r2c) is transformed as complex data with zero imaginary parts;
 * Hermitian input (c2r) is extended to the full spectrum (X[n-k] =
 * conj(X[k])) and the real part of its backward transform kept, which
 * ignores the imaginary parts of X[0] and X[n/2] as NumPy does.
 *
 * Like sort.c this is a "line" operation: each 1-d slice along the axis is
 * loaded, transformed and stored whole by one task; tasks are blocks of the
 * other axes tiled by the usual rule. The plan (factors and twiddles) is
 * built once per call into a runtime-private byte store that every task
 * reads (it is passed to ndt_submit as a store to keep alive, and freed with
 * the last task). Each line's arithmetic is fixed by the plan, so results
 * are bitwise the same for any number of workers or ranks. */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "exec.h"

typedef struct { double r, i; } cd;

#define BLUE_MAX 64   /* largest prime radix done by Cooley-Tukey */
#define MAXF 64

/* A plan, laid out in one buffer: this header (a multiple of 16 bytes), then
 * the twiddle tables; a Bluestein plan also holds its chirp, the transform
 * of the convolution kernel and the power-of-two sub-plan. Offsets are in
 * bytes from the plan's start, so the buffer holds no pointers. */
typedef struct {
  int64_t n, bytes;
  int32_t nf, blue;
  int32_t fac[MAXF];
  int64_t tw[MAXF];            /* stage twiddles */
  int64_t m, chirp, kern, sub; /* Bluestein */
} fplan;

#define HDR ((int64_t)((sizeof(fplan) + 63) / 64 * 64))
#define AT(P, off) ((cd *)((char *)(P) + (off)))

static int factorize(int64_t n, int32_t *fac) {
  int nf = 0;
  while (n % 4 == 0) { fac[nf++] = 4; n /= 4; }
  if (n % 2 == 0) { fac[nf++] = 2; n /= 2; }
  for (int64_t f = 3; f * f <= n; f += 2)
    while (n % f == 0) {
      fac[nf++] = (int32_t)(f > INT32_MAX ? INT32_MAX : f);
      n /= f;
    }
  if (n > 1) fac[nf++] = n > INT32_MAX ? INT32_MAX : (int32_t)n;
  return nf;
}

static int needs_blue(const int32_t *fac, int nf) {
  for (int k = 0; k < nf; k++)
    if (fac[k] > BLUE_MAX) return 1;
  return 0;
}

/* exp(-2*pi*i*j/L), accurately. */
static cd root(int64_t j, int64_t L) {
  j %= L;
  if (j < 0) j += L;
  int neg = 0;
  if (2 * j > L) {   /* W^j = conj(W^(L-j)) */
    j = L - j;
    neg = 1;
  }
  long double a = 2.0L * 3.141592653589793238462643383279502884L * (long double)j / (long double)L;
  cd w = {(double)cosl(a), -(double)sinl(a)};
  if (neg) w.i = -w.i;
  return w;
}

static int64_t pow2_at_least(int64_t x) {
  int64_t m = 1;
  while (m < x) m *= 2;
  return m;
}

static int64_t plan_bytes(int64_t n) {
  fplan h;
  h.nf = factorize(n, h.fac);
  if (needs_blue(h.fac, h.nf)) {
    int64_t m = pow2_at_least(2 * n - 1);
    return HDR + (n + m) * (int64_t)sizeof(cd) + plan_bytes(m);
  }
  int64_t tot = 0, L = n;
  for (int s = 0; s < h.nf; s++) {
    int p = h.fac[s];
    int64_t m = L / p;
    tot += m * (p - 1) + (p > 5 ? p : 0);
    L = m;
  }
  return HDR + tot * (int64_t)sizeof(cd);
}

static void ct_run(const fplan *P, cd *out, const cd *in, int64_t n);

static void plan_build(fplan *P, int64_t n) {
  memset(P, 0, sizeof *P);
  P->n = n;
  P->nf = factorize(n, P->fac);
  P->bytes = plan_bytes(n);
  if (needs_blue(P->fac, P->nf)) {
    P->blue = 1;
    int64_t m = pow2_at_least(2 * n - 1);
    P->m = m;
    P->chirp = HDR;
    P->kern = HDR + n * (int64_t)sizeof(cd);
    P->sub = P->kern + m * (int64_t)sizeof(cd);
    fplan *S = (fplan *)((char *)P + P->sub);
    plan_build(S, m);
    cd *c = AT(P, P->chirp), *k = AT(P, P->kern);
    /* c_j = exp(-pi*i*j^2/n) = W_{2n}^(j^2 mod 2n) */
    for (int64_t j = 0; j < n; j++) {
      unsigned __int128 q = (unsigned __int128)j * (unsigned __int128)j;
      c[j] = root((int64_t)(q % (unsigned __int128)(2 * n)), 2 * n);
    }
    /* kernel b_t = conj(c_|t|) wrapped into m, transformed, scaled by 1/m */
    for (int64_t t = 0; t < m; t++) k[t] = (cd){0, 0};
    for (int64_t t = 0; t < n; t++) {
      k[t] = (cd){c[t].r, -c[t].i};
      if (t) k[m - t] = k[t];
    }
    /* the sub-plan's run is out of place: transform a heap copy into k */
    cd *tmp = ndt_malloc((size_t)m * sizeof(cd));
    if (tmp) {
      memcpy(tmp, k, (size_t)m * sizeof(cd));
      ct_run(S, k, tmp, m);
      ndt_mfree(tmp);
      double inv = 1.0 / (double)m;
      for (int64_t t = 0; t < m; t++) {
        k[t].r *= inv;
        k[t].i *= inv;
      }
    } else {
      P->blue = -1;   /* reported by the caller */
    }
    return;
  }
  int64_t off = HDR, L = n;
  for (int s = 0; s < P->nf; s++) {
    int p = P->fac[s];
    int64_t m = L / p;
    P->tw[s] = off;
    cd *w = AT(P, off);
    for (int64_t k1 = 0; k1 < m; k1++)
      for (int r = 1; r < p; r++) w[k1 * (p - 1) + (r - 1)] = root((int64_t)r * k1, L);
    off += m * (p - 1) * (int64_t)sizeof(cd);
    if (p > 5) {
      cd *g = AT(P, off);
      for (int j = 0; j < p; j++) g[j] = root(j, p);
      off += p * (int64_t)sizeof(cd);
    }
    L = m;
  }
}

static inline cd cmul(cd a, cd b) {
  return (cd){a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
}

/* The butterflies of stage s over m groups: out[r*m + k1] (r < p) are the p
 * sub-transforms' values; they become out[k1 + m*k2]. */
static void bfly2(cd *o, int64_t m, const cd *tw) {
  for (int64_t k = 0; k < m; k++) {
    cd a = o[k], b = k ? cmul(o[m + k], tw[k]) : o[m + k];
    o[k] = (cd){a.r + b.r, a.i + b.i};
    o[m + k] = (cd){a.r - b.r, a.i - b.i};
  }
}

static void bfly3(cd *o, int64_t m, const cd *tw) {
  const double c = 0.86602540378443864676372317075294;
  for (int64_t k = 0; k < m; k++) {
    cd t0 = o[k], t1 = o[m + k], t2 = o[2 * m + k];
    if (k) {
      t1 = cmul(t1, tw[2 * k]);
      t2 = cmul(t2, tw[2 * k + 1]);
    }
    cd s = {t1.r + t2.r, t1.i + t2.i}, d = {t1.r - t2.r, t1.i - t2.i};
    cd h = {t0.r - 0.5 * s.r, t0.i - 0.5 * s.i};
    o[k] = (cd){t0.r + s.r, t0.i + s.i};
    o[m + k] = (cd){h.r + c * d.i, h.i - c * d.r};
    o[2 * m + k] = (cd){h.r - c * d.i, h.i + c * d.r};
  }
}

static void bfly4(cd *o, int64_t m, const cd *tw) {
  for (int64_t k = 0; k < m; k++) {
    cd t0 = o[k], t1 = o[m + k], t2 = o[2 * m + k], t3 = o[3 * m + k];
    if (k) {
      t1 = cmul(t1, tw[3 * k]);
      t2 = cmul(t2, tw[3 * k + 1]);
      t3 = cmul(t3, tw[3 * k + 2]);
    }
    cd a = {t0.r + t2.r, t0.i + t2.i}, b = {t0.r - t2.r, t0.i - t2.i};
    cd c = {t1.r + t3.r, t1.i + t3.i}, d = {t1.r - t3.r, t1.i - t3.i};
    o[k] = (cd){a.r + c.r, a.i + c.i};
    o[2 * m + k] = (cd){a.r - c.r, a.i - c.i};
    o[m + k] = (cd){b.r + d.i, b.i - d.r};
    o[3 * m + k] = (cd){b.r - d.i, b.i + d.r};
  }
}

static void bfly5(cd *o, int64_t m, const cd *tw) {
  const double c1 = 0.30901699437494742410229341718282;   /* cos(2pi/5) */
  const double c2 = -0.80901699437494742410229341718282;  /* cos(4pi/5) */
  const double s1 = 0.95105651629515357211643933337938;   /* sin(2pi/5) */
  const double s2 = 0.58778525229247312916870595463907;   /* sin(4pi/5) */
  for (int64_t k = 0; k < m; k++) {
    cd t0 = o[k], t1 = o[m + k], t2 = o[2 * m + k], t3 = o[3 * m + k], t4 = o[4 * m + k];
    if (k) {
      t1 = cmul(t1, tw[4 * k]);
      t2 = cmul(t2, tw[4 * k + 1]);
      t3 = cmul(t3, tw[4 * k + 2]);
      t4 = cmul(t4, tw[4 * k + 3]);
    }
    cd s14 = {t1.r + t4.r, t1.i + t4.i}, d14 = {t1.r - t4.r, t1.i - t4.i};
    cd s23 = {t2.r + t3.r, t2.i + t3.i}, d23 = {t2.r - t3.r, t2.i - t3.i};
    cd a1 = {t0.r + c1 * s14.r + c2 * s23.r, t0.i + c1 * s14.i + c2 * s23.i};
    cd a2 = {t0.r + c2 * s14.r + c1 * s23.r, t0.i + c2 * s14.i + c1 * s23.i};
    cd u1 = {s1 * d14.r + s2 * d23.r, s1 * d14.i + s2 * d23.i};
    cd u2 = {s2 * d14.r - s1 * d23.r, s2 * d14.i - s1 * d23.i};
    o[k] = (cd){t0.r + s14.r + s23.r, t0.i + s14.i + s23.i};
    o[m + k] = (cd){a1.r + u1.i, a1.i - u1.r};      /* a1 - i*u1 */
    o[4 * m + k] = (cd){a1.r - u1.i, a1.i + u1.r};  /* a1 + i*u1 */
    o[2 * m + k] = (cd){a2.r + u2.i, a2.i - u2.r};
    o[3 * m + k] = (cd){a2.r - u2.i, a2.i + u2.r};
  }
}

static void bflyg(cd *o, int64_t m, int p, const cd *tw, const cd *g) {
  cd t[BLUE_MAX];
  for (int64_t k = 0; k < m; k++) {
    t[0] = o[k];
    for (int r = 1; r < p; r++)
      t[r] = k ? cmul(o[r * m + k], tw[k * (p - 1) + r - 1]) : o[r * m + k];
    for (int k2 = 0; k2 < p; k2++) {
      cd acc = t[0];
      int e = 0;
      for (int r = 1; r < p; r++) {
        e += k2;
        if (e >= p) e -= p;
        acc.r += t[r].r * g[e].r - t[r].i * g[e].i;
        acc.i += t[r].r * g[e].i + t[r].i * g[e].r;
      }
      o[k2 * m + k] = acc;
    }
  }
}

/* Forward DFT of the n values in[j*is] (the stage-s sub-problem) into out. */
static void ct_rec(const fplan *P, int s, cd *out, const cd *in, int64_t is, int64_t L) {
  int p = P->fac[s];
  int64_t m = L / p;
  if (m == 1) {
    for (int r = 0; r < p; r++) out[r] = in[r * is];
  } else {
    for (int r = 0; r < p; r++) ct_rec(P, s + 1, out + r * m, in + r * is, is * p, m);
  }
  const cd *tw = AT(P, P->tw[s]);
  switch (p) {
    case 2: bfly2(out, m, tw); break;
    case 3: bfly3(out, m, tw); break;
    case 4: bfly4(out, m, tw); break;
    case 5: bfly5(out, m, tw); break;
    default: bflyg(out, m, p, tw, tw + m * (p - 1)); break;
  }
}

/* Cooley-Tukey plans only: out = DFT(in), out != in. */
static void ct_run(const fplan *P, cd *out, const cd *in, int64_t n) {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  ct_rec(P, 0, out, in, 1, n);
}

/* Scratch (in cd) a line of plan P needs besides its input and output. */
static int64_t work_len(const fplan *P) { return P->blue ? 2 * P->m : 0; }

/* y = forward DFT of x (length P->n; x is clobbered); w: work_len scratch. */
static void fft_forward(const fplan *P, cd *x, cd *y, cd *w) {
  if (!P->blue) {
    ct_run(P, y, x, P->n);
    return;
  }
  int64_t n = P->n, m = P->m;
  const fplan *S = (const fplan *)((const char *)P + P->sub);
  const cd *c = AT(P, P->chirp), *k = AT(P, P->kern);
  cd *a = w, *A = w + m;
  for (int64_t j = 0; j < n; j++) a[j] = cmul(x[j], c[j]);
  for (int64_t j = n; j < m; j++) a[j] = (cd){0, 0};
  ct_run(S, A, a, m);
  /* inverse transform of A*K as conj(DFT(conj(A*K))) */
  for (int64_t j = 0; j < m; j++) {
    cd v = cmul(A[j], k[j]);
    a[j] = (cd){v.r, -v.i};
  }
  ct_run(S, A, a, m);
  for (int64_t j = 0; j < n; j++) y[j] = cmul((cd){A[j].r, -A[j].i}, c[j]);
}

typedef struct {
  ndt_array in, out;   /* block views, the transformed axis last */
  int kind;
  int64_t n, nload;    /* transform length; input values read per line */
  double scale;
  const fplan *plan;   /* in a byte store the task keeps alive */
} fft_arg;

static ndt_status fft_task(void *p, int worker) {
  NDT_UNUSED(worker);
  const fft_arg *a = p;
  const fplan *P = a->plan;
  ndt_bound bi = {0}, bo;
  ndt_status st;
  int has_in = a->nload > 0;
  if (has_in && (st = ndt_bind(&a->in, &bi, 1))) return st;
  if ((st = ndt_bind(&a->out, &bo, 0))) {
    if (has_in) ndt_unbind(&a->in, &bi, 0);
    return st;
  }
  int nd = a->out.ndim;
  int64_t n = a->n, nout = a->out.shape[nd - 1], lines = a->out.size / nout;
  int64_t is = has_in ? bi.st[nd - 1] : 0, os = bo.st[nd - 1];
  cd *x = ndt_malloc((size_t)(2 * n + work_len(P)) * sizeof(cd));
  if (!x) {
    if (has_in) ndt_unbind(&a->in, &bi, 0);
    ndt_unbind(&a->out, &bo, 0);
    return NDT_ERR_NOMEM;
  }
  cd *y = x + n, *w = y + n;
  ndt_cast_fn load = has_in ? ndt_cpu_cast(a->in.dtype, NDT_COMPLEX128) : NULL;
  ndt_cast_fn store = ndt_cpu_cast(NDT_COMPLEX128, a->out.dtype);
  int back = a->kind == NDT_FFT_BACKWARD || a->kind == NDT_FFT_C2R;
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t l = 0; l < lines; l++) {
    const char *ip = bi.ptr;
    char *op = bo.ptr;
    for (int k = 0; k < nd - 1; k++) {
      if (has_in) ip += idx[k] * bi.st[k];
      op += idx[k] * bo.st[k];
    }
    if (has_in) load(ip, is, (char *)x, (int64_t)sizeof(cd), a->nload);
    for (int64_t j = a->nload; j < n; j++) x[j] = (cd){0, 0};
    if (a->kind == NDT_FFT_C2R) {   /* the full Hermitian spectrum */
      int64_t h = a->nload;         /* values given: X[0..h) with h <= n/2+1 */
      for (int64_t k = 1; 2 * k < n; k++)
        x[n - k] = k < h ? (cd){x[k].r, -x[k].i} : (cd){0, 0};
    }
    if (back)
      for (int64_t j = 0; j < n; j++) x[j].i = -x[j].i;
    fft_forward(P, x, y, w);
    if (back || a->scale != 1.0) {
      double sr = a->scale, si = back ? -a->scale : a->scale;
      for (int64_t j = 0; j < nout; j++) {
        y[j].r *= sr;
        y[j].i *= si;
      }
    }
    store((const char *)y, (int64_t)sizeof(cd), op, os, nout);
    for (int k = nd - 2; k >= 0; k--) {
      if (++idx[k] < a->out.shape[k]) break;
      idx[k] = 0;
    }
  }
  ndt_mfree(x);
  if (has_in) ndt_unbind(&a->in, &bi, 0);
  ndt_unbind(&a->out, &bo, 1);
  return NDT_OK;
}

/* v with axis ax moved to the end (a view on the stack). */
static void axis_last(const ndt_array *v, int ax, ndt_array *w) {
  *w = *v;
  int j = 0;
  for (int k = 0; k < v->ndim; k++) {
    if (k == ax) continue;
    w->shape[j] = v->shape[k];
    w->strides[j++] = v->strides[k];
  }
  w->shape[j] = v->shape[ax];
  w->strides[j] = v->strides[ax];
}

ndt_dtype ndt_fft_result_type(ndt_dtype in, int kind) {
  int single = in == NDT_FLOAT32 || in == NDT_COMPLEX64;
  if (kind == NDT_FFT_C2R) return single ? NDT_FLOAT32 : NDT_FLOAT64;
  return single ? NDT_COMPLEX64 : NDT_COMPLEX128;
}

ndt_status ndt_fft(const ndt_array *a, int axis, int64_t n, int kind, double scale,
                   ndt_array **out) {
  if (kind < NDT_FFT_FORWARD || kind > NDT_FFT_C2R)
    return ndt_error(NDT_ERR_VALUE, "unknown FFT kind %d", kind);
  if (axis < -a->ndim || axis >= a->ndim)
    return ndt_error(NDT_ERR_AXIS, "axis %d is out of bounds for array of dimension %d", axis,
                     a->ndim);
  if (axis < 0) axis += a->ndim;
  if (n < 1)
    return ndt_error(NDT_ERR_VALUE, "Invalid number of FFT data points (%lld) specified.",
                     (long long)n);
  if (kind == NDT_FFT_R2C && (a->dtype == NDT_COMPLEX64 || a->dtype == NDT_COMPLEX128))
    return ndt_error(NDT_ERR_TYPE, "a real FFT needs real input, not %s",
                     ndt_dtype_name(a->dtype));
  if (n > (INT64_MAX / 4) / (int64_t)sizeof(cd))
    return ndt_error(NDT_ERR_VALUE, "FFT length %lld is too large", (long long)n);
  int nd = a->ndim;
  int64_t nout = kind == NDT_FFT_R2C ? n / 2 + 1 : n;
  int64_t nin = kind == NDT_FFT_C2R ? n / 2 + 1 : n;
  int64_t m = a->shape[axis], nload = m < nin ? m : nin;
  int64_t shape[NDT_MAXDIMS];
  memcpy(shape, a->shape, sizeof shape);
  shape[axis] = nout;
  ndt_array *res = NULL;
  ndt_status st = ndt_array_new(&res, ndt_fft_result_type(a->dtype, kind), nd, shape, 0);
  if (st) return st;
  if (res->size == 0) {
    *out = res;
    return NDT_OK;
  }
  /* the plan, in a byte store every task keeps alive */
  ndt_store *ps = NULL;
  int64_t pb = plan_bytes(n);
  if ((st = ndt_store_new_bytes(&ps, pb))) {
    ndt_free(res);
    return st;
  }
  fplan *P = (fplan *)ndt_tile_buffer(&ps->tiles[0]);
  if (P) plan_build(P, n);
  if (!P || P->blue < 0) {
    ndt_store_decref(ps);
    ndt_free(res);
    return NDT_ERR_NOMEM;
  }
  ndt_array vin, vout;
  axis_last(a, axis, &vin);
  axis_last(res, axis, &vout);
  int64_t tb = ndt_rt_tile_bytes();
  int64_t lb = nout * ndt_vsize(res);
  if (lb > tb) lb = tb + 1;
  if (lb > INT_MAX) lb = INT_MAX;
  ndt_tiling tl;
  ndt_tiling_for(nd - 1, vout.shape, (int)lb, tb, &tl);
  ndt_array oin = vin, oout = vout;
  oin.ndim = oout.ndim = nd - 1;
  oin.size = oout.size = res->size / nout;
  ndt_access *acc = NULL;
  int nacc = 0, cap = 0;
  ndt_store *stores[3] = {res->store, ps, a->store};
  int small = tl.ntiles <= 1 && res->size <= ndt_rt_inline_elems();
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    fft_arg s = {.kind = kind, .n = n, .nload = nload, .scale = scale, .plan = P};
    ndt_block_view(&oin, &tl, b, &s.in);
    ndt_block_view(&oout, &tl, b, &s.out);
    s.in.shape[nd - 1] = nload;
    s.out.shape[nd - 1] = nout;
    s.in.strides[nd - 1] = vin.strides[nd - 1];
    s.out.strides[nd - 1] = vout.strides[nd - 1];
    s.in.ndim = s.out.ndim = nd;
    s.in.size *= nload;
    s.out.size *= nout;
    nacc = 0;
    if (nload > 0) st = ndt_add_access(&acc, &nacc, &cap, &s.in, NDT_READ);
    if (st == NDT_OK) st = ndt_add_access(&acc, &nacc, &cap, &s.out, NDT_WRITE);
    if (st == NDT_OK)
      st = ndt_submit("fft", fft_task, &s, sizeof s, acc, nacc, stores, 3, small);
  }
  ndt_mfree(acc);
  ndt_store_decref(ps);
  return ndt_finish(st, res, out);
}
