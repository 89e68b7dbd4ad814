/* cuffthost.c - a host emulation of the cuFFT subset the CUDA plugin calls
 * (src/runtime/cuda_fft.h): cufftCreate, cufftDestroy,
 * cufftSetAutoAllocation, cufftMakePlanMany (rank 1, the basic layout),
 * cufftSetWorkArea, cufftSetStream and cufftExecC2C / Z2Z / R2C / D2Z /
 * C2R / Z2D, as libndtile_cuffthost.so, which the plugin's host build
 * (libndtile_cudahost.so) dlopens in place of libcufft, by the same path
 * (next to the plugin, or NDTILE_CUDA_CUFFT).
 *
 * What it keeps of cuFFT, so that the plugin's mistakes show here: the
 * arguments are checked as cuFFT checks them (a plan's type against the
 * exec called, the direction, sizes, a work area set when automatic
 * allocation is off); a transform is queued on the plan's stream
 * (cudahost_ext.h) and runs later, on the stream's thread, with its input,
 * output and work area checked as device allocations of the stream's
 * device (a range outside them faults the device, as a kernel would), and
 * it uses the work area the plugin gave it (its size is what
 * cufftMakePlanMany asked for). It is unnormalised in both directions.
 * What cuFFT leaves undefined is made visible: C2R/Z2D overwrite their
 * input (cuFFT's out-of-place C2R does; here with NaNs), and the imaginary
 * parts of X[0] and X[n/2] of their Hermitian input, which cuFFT assumes
 * to be 0, are added into the output rather than ignored. The transforms
 * are radix-2 for powers of two and Bluestein's algorithm over a power of
 * two otherwise, in the type's precision (float for C2C/R2C/C2R, twiddles
 * computed in double and rounded): their bits are not cuFFT's (nor the
 * CPU's), and the plugin's tests hold them to the bound it states. */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cudahost_ext.h"

enum { ST_OK = 0, ST_INVALID_PLAN = 1, ST_ALLOC_FAILED = 2, ST_INVALID_TYPE = 3,
       ST_INVALID_VALUE = 4, ST_EXEC_FAILED = 6, ST_INVALID_SIZE = 8, ST_NOT_SUPPORTED = 16 };
enum { R2C = 0x2a, C2R = 0x2c, C2C = 0x29, D2Z = 0x6a, Z2D = 0x6c, Z2Z = 0x69 };

#define EXPORT __attribute__((visibility("default")))
#define MAXPLANS 1024

typedef struct {
  int live, made, autoalloc, type;
  int64_t n, batch, m;   /* m: the Bluestein length (a power of two >= 2n - 1), or n */
  cudaStream_t stream;
  char *work;
  size_t wbytes;
} plan;

static plan plans[MAXPLANS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static plan *plan_of(int h) {
  return h >= 1 && h <= MAXPLANS && plans[h - 1].live ? &plans[h - 1] : NULL;
}

EXPORT int cufftCreate(int *h) {
  if (!h) return ST_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  int i = 0;
  while (i < MAXPLANS && plans[i].live) i++;
  if (i < MAXPLANS) plans[i] = (plan){.live = 1, .autoalloc = 1};
  pthread_mutex_unlock(&lock);
  if (i == MAXPLANS) return ST_ALLOC_FAILED;
  *h = i + 1;
  return ST_OK;
}

EXPORT int cufftDestroy(int h) {
  pthread_mutex_lock(&lock);
  plan *p = plan_of(h);
  if (p) p->live = 0;
  pthread_mutex_unlock(&lock);
  return p ? ST_OK : ST_INVALID_PLAN;
}

EXPORT int cufftSetAutoAllocation(int h, int a) {
  plan *p = plan_of(h);
  if (!p) return ST_INVALID_PLAN;
  p->autoalloc = a != 0;
  return ST_OK;
}

EXPORT int cufftSetStream(int h, cudaStream_t s) {
  plan *p = plan_of(h);
  if (!p) return ST_INVALID_PLAN;
  p->stream = s;
  return ST_OK;
}

EXPORT int cufftSetWorkArea(int h, void *w) {
  plan *p = plan_of(h);
  if (!p) return ST_INVALID_PLAN;
  p->work = w;
  return ST_OK;
}

static int single(int type) { return type == R2C || type == C2R || type == C2C; }

EXPORT int cufftMakePlanMany(int h, int rank, int *n, int *inembed, int istride, int idist,
                             int *onembed, int ostride, int odist, int type, int batch,
                             size_t *work) {
  (void)istride, (void)idist, (void)ostride, (void)odist;   /* (the basic layout: ignored) */
  plan *p = plan_of(h);
  if (!p) return ST_INVALID_PLAN;
  if (type != R2C && type != C2R && type != C2C && type != D2Z && type != Z2D && type != Z2Z)
    return ST_INVALID_TYPE;
  if (rank != 1 || !n || n[0] < 1 || batch < 1 || !work) return ST_INVALID_SIZE;
  if (inembed || onembed) return ST_NOT_SUPPORTED;   /* (the emulation: basic layout only) */
  int64_t N = n[0], m = 1;
  while (m < N) m *= 2;
  if (m != N) {
    m = 1;
    while (m < 2 * N - 1) m *= 2;
  }
  p->type = type;
  p->n = N;
  p->batch = batch;
  p->m = m;
  /* the work area: a line of n and two of m, complex, in the type's precision */
  p->wbytes = (size_t)(N + 2 * m) * (single(type) ? 8 : 16);
  p->made = 1;
  *work = p->wbytes;
  return ST_OK;
}

/* ---- the transforms, stamped for float and double ---- */
static const double TAU = 6.283185307179586476925286766559;

/* w^(k) = exp(sign * 2 pi i k / L), from k mod L in double */
static double complex root(int64_t k, int64_t L, int sign) {
  k %= L;
  if (k < 0) k += L;
  double a = TAU * (double)k / (double)L;
  return CMPLX(cos(a), sign * sin(a));
}

#define FFT_TYPES(T, SFX)                                                                   \
  /* in place, a power of two m, unnormalised, radix 2; the roots of a stage of len   \
   * taken from one table of m's, root(k, len) = root(k * (m / len), m) bit for bit (the \
   * same exact quotient, rounded once): a sine and a cosine per butterfly took most of \
   * the emulated transforms' time */                                                   \
  static void pow2_##SFX(T *x, int64_t m, int sign) {                                      \
    T *tw = malloc((size_t)(m / 2 + 1) * sizeof(T));                                       \
    for (int64_t k = 0; tw && k < m / 2; k++) tw[k] = (T)root(k, m, sign);                 \
    for (int64_t i = 1, j = 0; i < m; i++) {                                               \
      int64_t bit = m >> 1;                                                                \
      for (; j & bit; bit >>= 1) j ^= bit;                                                 \
      j ^= bit;                                                                            \
      if (i < j) {                                                                         \
        T t = x[i];                                                                        \
        x[i] = x[j];                                                                       \
        x[j] = t;                                                                          \
      }                                                                                    \
    }                                                                                      \
    for (int64_t len = 2; len <= m; len *= 2)                                              \
      for (int64_t i = 0; i < m; i += len)                                                 \
        for (int64_t k = 0; k < len / 2; k++) {                                            \
          T w = tw ? tw[k * (m / len)] : (T)root(k, len, sign);                            \
          T u = x[i + k], v = x[i + k + len / 2] * w;                                      \
          x[i + k] = u + v;                                                                \
          x[i + k + len / 2] = u - v;                                                      \
        }                                                                                  \
    free(tw);                                                                              \
  }                                                                                        \
  /* y = DFT(x) of length n, using work (n + 2m; x and y may be work's first n: each x[j] \
   * is read before the chirp's work[j] is written, each y[k] after work[k] is read) */   \
  static void dft_##SFX(const plan *p, const T *x, T *y, int sign, T *work) {              \
    int64_t n = p->n, m = p->m;                                                            \
    if (m == n) {                                                                          \
      if (y != x) memcpy(y, x, (size_t)n * sizeof(T));                                     \
      pow2_##SFX(y, n, sign);                                                              \
      return;                                                                              \
    }                                                                                      \
    T *a = work + n, *b = a + m;                                                           \
    for (int64_t j = 0; j < m; j++) a[j] = b[j] = 0;                                       \
    for (int64_t j = 0; j < n; j++) {                                                      \
      /* chirp exp(sign pi i j^2 / n) = root(j^2 mod 2n, 2n) */                            \
      int64_t q = (int64_t)(((unsigned __int128)j * (unsigned __int128)j) %                \
                            (unsigned __int128)(2 * n));                                   \
      T c = (T)root(q, 2 * n, sign);                                                       \
      a[j] = x[j] * c; /* (x may be work: read before written) */                         \
      work[j] = c;                                                                         \
      b[j] = conj(c);                                                                      \
      if (j) b[m - j] = conj(c);                                                           \
    }                                                                                      \
    pow2_##SFX(a, m, -1);                                                                  \
    pow2_##SFX(b, m, -1);                                                                  \
    for (int64_t j = 0; j < m; j++) a[j] *= b[j];                                          \
    pow2_##SFX(a, m, 1);                                                                   \
    for (int64_t k = 0; k < n; k++) y[k] = a[k] * work[k] / (T)m;                          \
  }

FFT_TYPES(float complex, c)
FFT_TYPES(double complex, z)

/* one queued transform */
typedef struct {
  const plan *p;   /* a copy of the plan, below */
  plan pl;
  int dir;
  char *in, *out, *work;
} job;

/* line by line: the input widened into work's complex line (of the
 * type's precision), transformed in place, stored */
#define RUN_LINES(T, SFX, RT)                                                                 \
  do {                                                                                        \
    T *line = (T *)j->work;                                                                   \
    for (int64_t l = 0; l < p->batch; l++) {                                                  \
      if (p->type == R2C || p->type == D2Z) {                                                 \
        const RT *x = (const RT *)j->in + l * n;                                              \
        for (int64_t k = 0; k < n; k++) line[k] = x[k];                                       \
      } else if (p->type == C2R || p->type == Z2D) {                                          \
        const T *x = (const T *)j->in + l * (n / 2 + 1);                                      \
        for (int64_t k = 0; k <= n / 2; k++) line[k] = x[k];                                  \
        for (int64_t k = n / 2 + 1; k < n; k++) line[k] = conj(x[n - k]);                     \
      } else {                                                                                \
        memcpy(line, (const T *)j->in + l * n, (size_t)n * sizeof(T));                        \
      }                                                                                       \
      dft_##SFX(p, line, line, sign, line);                                                   \
      if (p->type == R2C || p->type == D2Z) {                                                 \
        memcpy((T *)j->out + l * (n / 2 + 1), line, (size_t)(n / 2 + 1) * sizeof(T));         \
      } else if (p->type == C2R || p->type == Z2D) {                                          \
        const T *x = (const T *)j->in + l * (n / 2 + 1);                                      \
        RT leak0 = cimag(x[0]), leakh = n % 2 == 0 ? cimag(x[n / 2]) : 0;                     \
        RT *y = (RT *)j->out + l * n;                                                         \
        for (int64_t k = 0; k < n; k++) y[k] = creal(line[k]) + leak0 + (k % 2 ? -leakh : leakh); \
      } else {                                                                                \
        memcpy((T *)j->out + l * n, line, (size_t)n * sizeof(T));                             \
      }                                                                                       \
    }                                                                                         \
    if (p->type == C2R || p->type == Z2D) /* cuFFT's C2R overwrites its input */              \
      for (int64_t k = 0; k < p->batch * (n / 2 + 1); k++) ((T *)j->in)[k] = NAN;             \
  } while (0)

static void run_fft(void *arg) {
  job *j = arg;
  const plan *p = &j->pl;
  int64_t n = p->n;
  int sign = p->type == C2R || p->type == Z2D ? 1 : p->type == R2C || p->type == D2Z ? -1
                                                                                   : j->dir;
  /* the first n + 2m elements of work: the line (n), then Bluestein's two */
  char *own = NULL;
  if (!j->work) j->work = own = malloc(p->wbytes);   /* (automatic allocation) */
  if (j->work) {
    if (single(p->type)) RUN_LINES(float complex, c, float);
    else RUN_LINES(double complex, z, double);
  }
  free(own);
}

static int exec(int h, void *in, void *out, int type, int dir) {
  plan *p = plan_of(h);
  if (!p || !p->made) return ST_INVALID_PLAN;
  if (p->type != type) return ST_INVALID_VALUE;
  if ((type == C2C || type == Z2Z) && dir != -1 && dir != 1) return ST_INVALID_VALUE;
  if (in == out && type != C2C && type != Z2Z) return ST_NOT_SUPPORTED;   /* (emulation) */
  if (!p->autoalloc && !p->work) return ST_INVALID_VALUE;
  const ndt_cudahost_ext *x = ndt_cudahost_ext_of(p->stream);
  if (!x || x->version != NDT_CUDAHOST_EXT_VERSION) return ST_EXEC_FAILED;   /* no stream set */
  job *j = malloc(sizeof *j);
  if (!j) return ST_ALLOC_FAILED;
  *j = (job){.pl = *p, .dir = dir, .in = in, .out = out, .work = p->autoalloc ? NULL : p->work};
  int64_t n = p->n, es = single(type) ? 4 : 8;
  int64_t nin = type == C2R || type == Z2D ? n / 2 + 1 : n;
  int64_t nout = type == R2C || type == D2Z ? n / 2 + 1 : n;
  int rin = type == R2C || type == D2Z, rout = type == C2R || type == Z2D;
  size_t bytes[3] = {(size_t)(p->batch * nin * es * (rin ? 1 : 2)),
                     (size_t)(p->batch * nout * es * (rout ? 1 : 2)),
                     j->work ? p->wbytes : 0};
  char **ptr[3] = {&j->in, &j->out, &j->work};   /* the job's own fields, moved in place */
  return x->launch(p->stream, 3, ptr, bytes, run_fft, j, NDT_CUDAHOST_TALLY_FFT, "cufft") ==
                 cudaSuccess
             ? ST_OK
             : ST_EXEC_FAILED;
}

EXPORT int cufftExecC2C(int h, void *in, void *out, int dir) { return exec(h, in, out, C2C, dir); }
EXPORT int cufftExecZ2Z(int h, void *in, void *out, int dir) { return exec(h, in, out, Z2Z, dir); }
EXPORT int cufftExecR2C(int h, void *in, void *out) { return exec(h, in, out, R2C, -1); }
EXPORT int cufftExecD2Z(int h, void *in, void *out) { return exec(h, in, out, D2Z, -1); }
EXPORT int cufftExecC2R(int h, void *in, void *out) { return exec(h, in, out, C2R, 1); }
EXPORT int cufftExecZ2D(int h, void *in, void *out) { return exec(h, in, out, Z2D, 1); }
