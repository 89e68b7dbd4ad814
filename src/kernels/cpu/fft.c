/* fft.c - the CPU's FFT kernels: plans and transforms of lines (numpy.fft's
 * kernels; src/ops/fft.c cuts an array into blocks of lines).
 *
 * Our own FFT (no library): an iterative (Stockham autosort, decimation in
 * frequency) mixed-radix Cooley-Tukey transform with radix 2, 3, 4, 5 and 8
 * butterflies and a generic O(p^2) butterfly for other odd prime radices up
 * to BLUE_MAX; a length with a larger prime factor goes through Bluestein's
 * chirp-z algorithm, a convolution computed with a transform of 5-smooth
 * length (2^a 3^b 5^c), so every length is O(n log n). Every transform is computed in double precision (complex64 and
 * float32 data are widened on load and rounded once on store). Twiddles are
 * computed from cos/sin of 2*pi*k/n in double (one table per length,
 * filled by exact symmetries from the first octant), never by recurrence. The
 * backward transform is swap(forward(swap(x))), swap(a + bi) = b + ai: the
 * same operations as a transform with conjugated twiddles (NumPy's
 * pocketfft computes it so), which keeps the signs of zeros (all-zero input
 * gives +0.0 parts, as NumPy's), where conj(forward(conj(x))) would not.
 *
 * Real transforms (r2c, c2r) of even n run as a complex transform of n/2
 * (half_line). For odd n, real input is transformed as complex data with
 * zero imaginary parts, and Hermitian input is extended to the full spectrum
 * (X[n-k] = conj(X[k])) and the real part of its backward transform kept;
 * both ignore the imaginary parts of X[0] and X[n/2] as NumPy does.
 * Strided complex lines are transformed several at a time, interleaved
 * (batch_lines). Each line's arithmetic is fixed by the plan. */
#include <math.h>
#include <string.h>
#include "internal.h"
#include "cpu.h"

typedef struct { double r, i; } cd;

#define BLUE_MAX 64   /* largest prime radix done by Cooley-Tukey */
#define MAXF 64

/* A plan, laid out in one buffer: this header (a multiple of 16 bytes), then
 * the twiddle tables; a Bluestein plan also holds its chirp, the transform
 * of the convolution kernel and the 5-smooth sub-plan. Offsets are in
 * bytes from the plan's start, so the buffer holds no pointers. */
typedef struct {
  int64_t n, bytes;
  int32_t nf, blue;
  int32_t fac[MAXF];
  int64_t tw[MAXF];            /* stage twiddles */
  int64_t m, chirp, kern, sub; /* Bluestein */
} fplan;

/* Radices without a butterfly of their own (odd primes from 7). */
#define GENERIC(p) ((p) > 5 && (p) != 8)
#define HDR ((int64_t)((sizeof(fplan) + 63) / 64 * 64))
#define AT(P, off) ((cd *)((char *)(P) + (off)))

static int factorize(int64_t n, int32_t *fac) {
  int nf = 0;
  while (n % 8 == 0) { fac[nf++] = 8; n /= 8; }
  if (n % 4 == 0) { fac[nf++] = 4; n /= 4; }
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

/* t[j] = exp(-2*pi*i*j/L) for j < L. Each value is computed directly from
 * cos/sin of an angle of at most pi/4 (pi/2 or pi when L is not a multiple
 * of 8 or 4), in double, and the rest follow by the exact symmetries
 * W^(L/4-j) = -i*conj(W^j), W^(j+L/4) = -i*W^j and W^(L-j) = conj(W^j). */
static void roots_fill(cd *t, int64_t L) {
  int64_t lim = L % 8 == 0 ? L / 8 : L % 4 == 0 ? L / 4 : L / 2;
  const double tau = 6.283185307179586476925286766559;
  for (int64_t j = 0; j <= lim && j < L; j++) {
    double a = tau * (double)j / (double)L;
    t[j] = (cd){cos(a), -sin(a)};
  }
  if (L % 4 == 0 && L / 4 <= lim) t[L / 4] = (cd){0, -1};   /* exact, not cos(pi/2) */
  if (L % 2 == 0 && L / 2 <= lim) t[L / 2] = (cd){-1, 0};
  if (L % 8 == 0)
    for (int64_t j = lim + 1; j <= L / 4; j++) t[j] = (cd){-t[L / 4 - j].i, -t[L / 4 - j].r};
  if (L % 4 == 0)
    for (int64_t j = L / 4 + 1; j <= L / 2; j++) t[j] = (cd){t[j - L / 4].i, -t[j - L / 4].r};
  for (int64_t j = L / 2 + 1; j < L; j++) t[j] = (cd){t[L - j].r, -t[L - j].i};
}

/* The Bluestein convolution length: the smallest 2^a 3^b 5^c >= x. */
static int64_t good_size(int64_t x) {
  int64_t best = 1;
  while (best < x) best *= 2;
  for (int64_t f5 = 1; f5 < best; f5 *= 5)
    for (int64_t f35 = f5; f35 < best; f35 *= 3) {
      int64_t v = f35;
      while (v < x) v *= 2;
      if (v < best) best = v;
    }
  return best;
}

static int64_t plan_bytes(int64_t n) {
  fplan h;
  h.nf = factorize(n, h.fac);
  if (needs_blue(h.fac, h.nf)) {
    int64_t m = good_size(2 * n - 1);
    return HDR + (n + m) * (int64_t)sizeof(cd) + plan_bytes(m);
  }
  int64_t tot = 0, L = n;
  for (int s = 0; s < h.nf; s++) {
    int p = h.fac[s];
    int64_t m = L / p;
    tot += m * (p - 1) + (GENERIC(p) ? p : 0);
    L = m;
  }
  return HDR + tot * (int64_t)sizeof(cd);
}

static cd *ct_run(const fplan *P, cd *a, cd *b, int64_t batch);

static void plan_build(fplan *P, int64_t n) {
  memset(P, 0, sizeof *P);
  P->n = n;
  P->nf = factorize(n, P->fac);
  P->bytes = plan_bytes(n);
  if (needs_blue(P->fac, P->nf)) {
    P->blue = 1;
    int64_t m = good_size(2 * n - 1);
    P->m = m;
    P->chirp = HDR;
    P->kern = HDR + n * (int64_t)sizeof(cd);
    P->sub = P->kern + m * (int64_t)sizeof(cd);
    fplan *S = (fplan *)((char *)P + P->sub);
    plan_build(S, m);
    cd *c = AT(P, P->chirp), *k = AT(P, P->kern);
    cd *r2 = ndt__malloc((size_t)(2 * n) * sizeof(cd));
    if (!r2 || S->blue < 0) {
      ndt__mfree(r2);
      P->blue = -1;   /* reported by the caller */
      return;
    }
    /* c_j = exp(-pi*i*j^2/n) = W_{2n}^(j^2 mod 2n) */
    roots_fill(r2, 2 * n);
    for (int64_t j = 0; j < n; j++) {
      unsigned __int128 q = (unsigned __int128)j * (unsigned __int128)j;
      c[j] = r2[(int64_t)(q % (unsigned __int128)(2 * n))];
    }
    ndt__mfree(r2);
    /* kernel b_t = conj(c_|t|) wrapped into m, transformed, scaled by 1/m */
    for (int64_t t = 0; t < m; t++) k[t] = (cd){0, 0};
    for (int64_t t = 0; t < n; t++) {
      k[t] = (cd){c[t].r, -c[t].i};
      if (t) k[m - t] = k[t];
    }
    /* the sub-plan's run is out of place: transform a heap copy into k */
    cd *tmp = ndt__malloc((size_t)m * sizeof(cd));
    if (tmp) {
      cd *r = ct_run(S, k, tmp, 1);
      if (r != k) memcpy(k, r, (size_t)m * sizeof(cd));
      ndt__mfree(tmp);
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
  cd *base = ndt__malloc((size_t)n * sizeof(cd));
  if (!base) {
    P->blue = -1;   /* reported by the caller */
    return;
  }
  roots_fill(base, n);
  int64_t off = HDR, L = n;
  for (int s = 0; s < P->nf; s++) {
    int p = P->fac[s];
    int64_t m = L / p, l1 = n / L;
    P->tw[s] = off;
    cd *w = AT(P, off);
    for (int64_t j1 = 0; j1 < m; j1++)   /* W_L^(j1*r) = W_n^(l1*j1*r), l1*j1*r < n */
      for (int r = 1; r < p; r++) w[j1 * (p - 1) + (r - 1)] = base[l1 * j1 * r];
    off += m * (p - 1) * (int64_t)sizeof(cd);
    if (GENERIC(p)) {
      cd *g = AT(P, off);
      for (int j = 0; j < p; j++) g[j] = base[j * (n / p)];
      off += p * (int64_t)sizeof(cd);
    }
    L = m;
  }
  ndt__mfree(base);
}

/* swap(a + bi) * sc = (b + ai) * sc: a backward transform is
 * swap(forward(swap(x))) (the file's head), its scale folded into the
 * second swap (sc 1: the bare swap's bits) */
static inline cd cswap(cd a, double sc) { return (cd){a.i * sc, a.r * sc}; }

static inline cd cmul(cd a, cd b) {
  return (cd){a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
}

/* One Stockham (autosort, decimation in frequency) stage of radix p. The
 * data are l1 interleaved sub-problems of length L = p*m: element j of
 * sub-problem b is in[b + l1*j]. For each j1 < m the p values j1 + m*j2
 * (j2 < p) get a p-point DFT whose output k2 is multiplied by W_L^(j1*k2)
 * (tw[j1*(p-1) + k2-1]); it is element j1 of the new sub-problem
 * b + l1*k2 of length m, stored at out[b + l1*k2 + l1*p*j1]. After the last
 * stage (l1 = n, L = 1) the data are the transform in natural order. The
 * inner loops run over b, contiguous in both buffers. */
#define STAGE_LOOP(P_, ...)                                                       \
  for (int64_t j1 = 0; j1 < m; j1++) {                                           \
    const cd *ip = in + l1 * j1;                                                  \
    cd *op = out + l1 * (P_) * j1;                                                \
    const cd *w = tw + j1 * ((P_) - 1);                                           \
    if (j1 == 0) {                                                                \
      const int tw1 = 0;                                                          \
      for (int64_t b = 0; b < l1; b++) { __VA_ARGS__ }                           \
    } else if (l1 == 1) {                                                         \
      const int tw1 = 1;                                                          \
      const int64_t b = 0;                                                        \
      { __VA_ARGS__ }                                                             \
    } else {                                                                      \
      const int tw1 = 1;                                                          \
      for (int64_t b = 0; b < l1; b++) { __VA_ARGS__ }                           \
    }                                                                             \
  }

static inline cd twid(cd v, const cd *w, int k, int on) {
  return on ? cmul(v, w[k]) : v;
}

static void stage2(const cd *in, cd *out, int64_t l1, int64_t m, const cd *tw) {
  const int64_t s = l1 * m;
  STAGE_LOOP(2, {
    cd a = ip[b], c = ip[b + s];
    op[b] = (cd){a.r + c.r, a.i + c.i};
    op[b + l1] = twid((cd){a.r - c.r, a.i - c.i}, w, 0, tw1);
  })
}

static void stage3(const cd *in, cd *out, int64_t l1, int64_t m, const cd *tw) {
  const double c = 0.86602540378443864676372317075294;
  const int64_t s = l1 * m;
  STAGE_LOOP(3, {
    cd t0 = ip[b], t1 = ip[b + s], t2 = ip[b + 2 * s];
    cd su = {t1.r + t2.r, t1.i + t2.i}, d = {t1.r - t2.r, t1.i - t2.i};
    cd h = {t0.r - 0.5 * su.r, t0.i - 0.5 * su.i};
    op[b] = (cd){t0.r + su.r, t0.i + su.i};
    op[b + l1] = twid((cd){h.r + c * d.i, h.i - c * d.r}, w, 0, tw1);
    op[b + 2 * l1] = twid((cd){h.r - c * d.i, h.i + c * d.r}, w, 1, tw1);
  })
}

static void stage4(const cd *in, cd *out, int64_t l1, int64_t m, const cd *tw) {
  const int64_t s = l1 * m;
  STAGE_LOOP(4, {
    cd t0 = ip[b], t1 = ip[b + s], t2 = ip[b + 2 * s], t3 = ip[b + 3 * s];
    cd a = {t0.r + t2.r, t0.i + t2.i}, e = {t0.r - t2.r, t0.i - t2.i};
    cd c = {t1.r + t3.r, t1.i + t3.i}, d = {t1.r - t3.r, t1.i - t3.i};
    op[b] = (cd){a.r + c.r, a.i + c.i};
    op[b + l1] = twid((cd){e.r + d.i, e.i - d.r}, w, 0, tw1);
    op[b + 2 * l1] = twid((cd){a.r - c.r, a.i - c.i}, w, 1, tw1);
    op[b + 3 * l1] = twid((cd){e.r - d.i, e.i + d.r}, w, 2, tw1);
  })
}

static void stage5(const cd *in, cd *out, int64_t l1, int64_t m, const cd *tw) {
  const double c1 = 0.30901699437494742410229341718282;   /* cos(2pi/5) */
  const double c2 = -0.80901699437494742410229341718282;  /* cos(4pi/5) */
  const double s1 = 0.95105651629515357211643933337938;   /* sin(2pi/5) */
  const double s2 = 0.58778525229247312916870595463907;   /* sin(4pi/5) */
  const int64_t s = l1 * m;
  STAGE_LOOP(5, {
    cd t0 = ip[b], t1 = ip[b + s], t2 = ip[b + 2 * s], t3 = ip[b + 3 * s], t4 = ip[b + 4 * s];
    cd s14 = {t1.r + t4.r, t1.i + t4.i}, d14 = {t1.r - t4.r, t1.i - t4.i};
    cd s23 = {t2.r + t3.r, t2.i + t3.i}, d23 = {t2.r - t3.r, t2.i - t3.i};
    cd a1 = {t0.r + c1 * s14.r + c2 * s23.r, t0.i + c1 * s14.i + c2 * s23.i};
    cd a2 = {t0.r + c2 * s14.r + c1 * s23.r, t0.i + c2 * s14.i + c1 * s23.i};
    cd u1 = {s1 * d14.r + s2 * d23.r, s1 * d14.i + s2 * d23.i};
    cd u2 = {s2 * d14.r - s1 * d23.r, s2 * d14.i - s1 * d23.i};
    op[b] = (cd){t0.r + s14.r + s23.r, t0.i + s14.i + s23.i};
    op[b + l1] = twid((cd){a1.r + u1.i, a1.i - u1.r}, w, 0, tw1);      /* a1 - i*u1 */
    op[b + 4 * l1] = twid((cd){a1.r - u1.i, a1.i + u1.r}, w, 3, tw1);  /* a1 + i*u1 */
    op[b + 2 * l1] = twid((cd){a2.r + u2.i, a2.i - u2.r}, w, 1, tw1);
    op[b + 3 * l1] = twid((cd){a2.r - u2.i, a2.i + u2.r}, w, 2, tw1);
  })
}

static void stage8(const cd *in, cd *out, int64_t l1, int64_t m, const cd *tw) {
  const double h = 0.70710678118654752440084436210485;   /* sqrt(1/2) */
  const int64_t s = l1 * m;
  STAGE_LOOP(8, {
    cd t0 = ip[b], t1 = ip[b + s], t2 = ip[b + 2 * s], t3 = ip[b + 3 * s];
    cd t4 = ip[b + 4 * s], t5 = ip[b + 5 * s], t6 = ip[b + 6 * s], t7 = ip[b + 7 * s];
    /* 4-point DFTs of the even (E) and odd (O) samples */
    cd a = {t0.r + t4.r, t0.i + t4.i}, e = {t0.r - t4.r, t0.i - t4.i};
    cd c = {t2.r + t6.r, t2.i + t6.i}, d = {t2.r - t6.r, t2.i - t6.i};
    cd E0 = {a.r + c.r, a.i + c.i}, E2 = {a.r - c.r, a.i - c.i};
    cd E1 = {e.r + d.i, e.i - d.r}, E3 = {e.r - d.i, e.i + d.r};
    a = (cd){t1.r + t5.r, t1.i + t5.i};
    e = (cd){t1.r - t5.r, t1.i - t5.i};
    c = (cd){t3.r + t7.r, t3.i + t7.i};
    d = (cd){t3.r - t7.r, t3.i - t7.i};
    cd O0 = {a.r + c.r, a.i + c.i}, O2 = {a.r - c.r, a.i - c.i};
    cd O1 = {e.r + d.i, e.i - d.r}, O3 = {e.r - d.i, e.i + d.r};
    /* times W8^k: W8 = h(1 - i), W8^2 = -i, W8^3 = -h(1 + i) */
    cd P1 = {h * (O1.r + O1.i), h * (O1.i - O1.r)};
    cd P2 = {O2.i, -O2.r};
    cd P3 = {h * (O3.i - O3.r), -h * (O3.r + O3.i)};
    op[b] = (cd){E0.r + O0.r, E0.i + O0.i};
    op[b + l1] = twid((cd){E1.r + P1.r, E1.i + P1.i}, w, 0, tw1);
    op[b + 2 * l1] = twid((cd){E2.r + P2.r, E2.i + P2.i}, w, 1, tw1);
    op[b + 3 * l1] = twid((cd){E3.r + P3.r, E3.i + P3.i}, w, 2, tw1);
    op[b + 4 * l1] = twid((cd){E0.r - O0.r, E0.i - O0.i}, w, 3, tw1);
    op[b + 5 * l1] = twid((cd){E1.r - P1.r, E1.i - P1.i}, w, 4, tw1);
    op[b + 6 * l1] = twid((cd){E2.r - P2.r, E2.i - P2.i}, w, 5, tw1);
    op[b + 7 * l1] = twid((cd){E3.r - P3.r, E3.i - P3.i}, w, 6, tw1);
  })
}

/* A generic odd radix p <= BLUE_MAX; g[j] = W_p^j. */
static void stageg(const cd *in, cd *out, int64_t l1, int64_t m, int p, const cd *tw,
                   const cd *g) {
  const int64_t s = l1 * m;
  cd t[BLUE_MAX];
  for (int64_t j1 = 0; j1 < m; j1++) {
    const cd *ip = in + l1 * j1;
    cd *op = out + l1 * p * j1;
    const cd *w = tw + j1 * (p - 1);
    for (int64_t b = 0; b < l1; b++) {
      for (int j2 = 0; j2 < p; j2++) t[j2] = ip[b + j2 * s];
      for (int k2 = 0; k2 < p; k2++) {
        cd acc = t[0];
        int e = 0;
        for (int j2 = 1; j2 < p; j2++) {
          e += k2;
          if (e >= p) e -= p;
          acc.r += t[j2].r * g[e].r - t[j2].i * g[e].i;
          acc.i += t[j2].r * g[e].i + t[j2].i * g[e].r;
        }
        op[b + k2 * l1] = k2 && j1 ? cmul(acc, w[k2 - 1]) : acc;
      }
    }
  }
}

/* Cooley-Tukey plans only: the DFTs of `batch` interleaved lines of length
 * P->n (element j of line g at a[g + batch*j]), computed by ping-ponging
 * between a and b; returns the buffer holding them, in the same layout. */
static cd *ct_run(const fplan *P, cd *a, cd *b, int64_t batch) {
  int64_t l1 = batch, L = P->n;
  cd *in = a, *out = b;
  for (int s = 0; s < P->nf; s++) {
    int p = P->fac[s];
    int64_t m = L / p;
    const cd *tw = AT(P, P->tw[s]);
    switch (p) {
      case 2: stage2(in, out, l1, m, tw); break;
      case 3: stage3(in, out, l1, m, tw); break;
      case 4: stage4(in, out, l1, m, tw); break;
      case 5: stage5(in, out, l1, m, tw); break;
      case 8: stage8(in, out, l1, m, tw); break;
      default: stageg(in, out, l1, m, p, tw, tw + m * (p - 1)); break;
    }
    cd *t = in;
    in = out;
    out = t;
    l1 *= p;
    L = m;
  }
  return in;
}

/* Scratch (in cd) a line of plan P needs besides its two line buffers. */
static int64_t work_len(const fplan *P) { return P->blue ? 2 * P->m : 0; }

/* The forward DFT of x (length P->n), using x and y (length P->n) and w
 * (work_len) as scratch; returns x or y, whichever holds the result. */
static cd *fft_forward(const fplan *P, cd *x, cd *y, cd *w) {
  if (!P->blue) return ct_run(P, x, y, 1);
  int64_t n = P->n, m = P->m;
  const fplan *S = (const fplan *)((const char *)P + P->sub);
  const cd *c = AT(P, P->chirp), *k = AT(P, P->kern);
  cd *a = w, *A = w + m;
  for (int64_t j = 0; j < n; j++) a[j] = cmul(x[j], c[j]);
  for (int64_t j = n; j < m; j++) a[j] = (cd){0, 0};
  cd *r = ct_run(S, a, A, 1);
  /* inverse transform of R*K as swap(DFT(swap(R*K))) */
  for (int64_t j = 0; j < m; j++) {
    cd v = cmul(r[j], k[j]);
    r[j] = cswap(v, 1.0);
  }
  r = ct_run(S, r, r == a ? A : a, 1);
  for (int64_t j = 0; j < n; j++) {   /* (+ 0.0: a zero result is +0.0) */
    cd v = cmul(cswap(r[j], 1.0), c[j]);
    y[j] = (cd){v.r + 0.0, v.i + 0.0};
  }
  return y;
}


/* One line the plain way: the complex transform of length n (real input
 * widened, Hermitian input extended to the full spectrum). ip: the line's
 * input (stride is bytes; nload values), op: its output (stride os). */
static void full_line(const ndt_fft_desc *a, const fplan *P, const char *ip, int64_t is, char *op,
                      int64_t os, cd *x, cd *yb, cd *w) {
  int64_t n = a->n, nout = a->kind == NDT_FFT_R2C ? n / 2 + 1 : n;
  int back = a->kind == NDT_FFT_BACKWARD || a->kind == NDT_FFT_C2R;
  if (a->nload) ndt__cpu_cast(a->in, NDT_COMPLEX128)(ip, is, (char *)x, 16, a->nload);
  for (int64_t j = a->nload; j < n; j++) x[j] = (cd){0, 0};
  if (a->kind == NDT_FFT_C2R) {   /* the full Hermitian spectrum */
    int64_t h = a->nload;         /* values given: X[0..h) with h <= n/2+1 */
    for (int64_t k = 1; 2 * k < n; k++)
      x[n - k] = k < h ? (cd){x[k].r, -x[k].i} : (cd){0, 0};
  }
  if (back)
    for (int64_t j = 0; j < n; j++) x[j] = cswap(x[j], 1.0);
  cd *y = fft_forward(P, x, yb, w);
  if (back) {
    for (int64_t j = 0; j < nout; j++) y[j] = cswap(y[j], a->scale);
  } else if (a->scale != 1.0) {
    for (int64_t j = 0; j < nout; j++) {
      y[j].r *= a->scale;
      y[j].i *= a->scale;
    }
  }
  ndt__cpu_cast(NDT_COMPLEX128, a->out)((const char *)y, 16, op, os, nout);
}

/* One real line of even length n = 2h through a complex transform of h
 * (P is its plan, followed by rt[k] = W_n^k, k <= h). r2c: z[j] = x[2j] +
 * i*x[2j+1], Z = DFT_h(z), X[k] = E[k] + W_n^k O[k] with E[k] = (Z[k] +
 * conj(Z[h-k]))/2 and O[k] = (Z[k] - conj(Z[h-k]))/(2i). c2r inverts it:
 * Z[k] = (X[k] + conj(X[h-k])) + i*(X[k] - conj(X[h-k]))*conj(W_n^k), and
 * the backward DFT_h of Z interleaves the real output's even and odd
 * values. */
static void half_line(const ndt_fft_desc *a, const fplan *P, const char *ip, int64_t is, char *op,
                      int64_t os, cd *x, cd *yb, cd *w) {
  int64_t n = a->n, h = n / 2;
  const cd *rt = (const cd *)((const char *)P + P->bytes);
  double sc = a->scale;
  if (a->kind == NDT_FFT_R2C) {
    double *xr = (double *)x;
    if (a->nload) ndt__cpu_cast(a->in, NDT_FLOAT64)(ip, is, (char *)xr, 8, a->nload);
    for (int64_t j = a->nload; j < n; j++) xr[j] = 0;
    cd *z = fft_forward(P, x, yb, w);
    cd *o = z == x ? yb : x;
    for (int64_t k = 0; k <= h; k++) {
      cd p = z[k == h ? 0 : k], q = z[k == 0 ? 0 : h - k];
      cd e = {0.5 * (p.r + q.r), 0.5 * (p.i - q.i)};
      cd d = {0.5 * (p.i + q.i), 0.5 * (q.r - p.r)};   /* (p - conj q) / (2i) */
      cd t = cmul(rt[k], d);
      o[k] = (cd){(e.r + t.r) * sc, (e.i + t.i) * sc};
    }
    ndt__cpu_cast(NDT_COMPLEX128, a->out)((const char *)o, 16, op, os, h + 1);
    return;
  }
  if (a->nload) ndt__cpu_cast(a->in, NDT_COMPLEX128)(ip, is, (char *)x, 16, a->nload);
  for (int64_t j = a->nload; j <= h; j++) x[j] = (cd){0, 0};
  x[0].i = 0;   /* NumPy ignores the imaginary parts of X[0] and X[n/2] */
  x[h].i = 0;
  for (int64_t k = 0; k < h; k++) {
    cd p = x[k], q = {x[h - k].r, -x[h - k].i};
    cd su = {p.r + q.r, p.i + q.i};
    cd t = cmul((cd){p.r - q.r, p.i - q.i}, (cd){rt[k].r, -rt[k].i});
    yb[k] = (cd){su.i + t.r, su.r - t.i};   /* swap(Z[k]): backward via forward */
  }
  cd *r = fft_forward(P, yb, x, w);
  for (int64_t j = 0; j < h; j++)   /* swap(r) = (x[2j], x[2j+1]) */
    r[j] = cswap(r[j], sc);
  ndt__cpu_cast(NDT_FLOAT64, a->out)((const char *)r, 8, op, os, n);
}

/* cnt lines of a complex transform together (lines g < cnt at ip + g*ig
 * and op + g*og): gathered row by row into x as interleaved lines, so the
 * Stockham stages run over all of them at once with contiguous inner
 * loops; used when the lines are strided (the transformed axis is not the
 * last). */
static void batch_lines(const ndt_fft_desc *a, const fplan *P, const char *ip, int64_t is,
                        int64_t ig, char *op, int64_t os, int64_t og, int64_t cnt, cd *x,
                        cd *yb) {
  int64_t n = a->n, nl = a->nload;
  int back = a->kind == NDT_FFT_BACKWARD;
  if (nl) {
    ndt_cast_fn load = ndt__cpu_cast(a->in, NDT_COMPLEX128);
    for (int64_t j = 0; j < nl; j++) load(ip + j * is, ig, (char *)(x + j * cnt), 16, cnt);
  }
  if (nl < n) memset(x + nl * cnt, 0, (size_t)((n - nl) * cnt) * sizeof(cd));
  if (back)
    for (int64_t j = 0; j < n * cnt; j++) x[j] = cswap(x[j], 1.0);
  cd *r = ct_run(P, x, yb, cnt);
  double sc = a->scale;
  if (back) {
    for (int64_t j = 0; j < n * cnt; j++) r[j] = cswap(r[j], sc);
  } else if (sc != 1.0) {
    for (int64_t j = 0; j < n * cnt; j++) {
      r[j].r *= sc;
      r[j].i *= sc;
    }
  }
  ndt_cast_fn store = ndt__cpu_cast(NDT_COMPLEX128, a->out);
  for (int64_t k = 0; k < n; k++) store((const char *)(r + k * cnt), 16, op + k * os, og, cnt);
}

/* ---- the table's entries ----------------------------------------------- */
int64_t ndt__cpu_fft_plan_bytes(int64_t n, int half) {
  return plan_bytes(n) + (half ? (n + 1) * (int64_t)sizeof(cd) : 0);
}

/* A plan of length n; half: followed by W_{2n}^k, k <= n (the twiddles of
 * a real transform of 2n). Returns 0, or -1 when out of memory. */
int ndt__cpu_fft_plan_build(void *plan, int64_t n, int half) {
  fplan *P = plan;
  plan_build(P, n);
  if (P->blue >= 0 && half) {   /* W_2n^k, k <= n, after the plan */
    cd *t = ndt__malloc((size_t)(2 * n) * sizeof(cd));
    if (t) {
      roots_fill(t, 2 * n);
      memcpy(AT(P, P->bytes), t, (size_t)(n + 1) * sizeof(cd));
      ndt__mfree(t);
    } else {
      P->blue = -1;
    }
  }
  return P->blue < 0 ? -1 : 0;
}

int64_t ndt__cpu_fft_work(const void *plan) { return work_len(plan); }

int ndt__cpu_fft_batchable(const void *plan) { return !((const fplan *)plan)->blue; }

void ndt__cpu_fft_lines(const ndt_fft_desc *d, const char *ip, int64_t is, int64_t ig, char *op,
                       int64_t os, int64_t og, int64_t cnt, void *x, void *y, void *w) {
  if (d->batch) batch_lines(d, d->plan, ip, is, ig, op, os, og, cnt, x, y);
  else if (d->half) half_line(d, d->plan, ip, is, op, os, x, y, w);
  else full_line(d, d->plan, ip, is, op, os, x, y, w);
}
