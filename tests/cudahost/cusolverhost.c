/* cusolverhost.c - a host emulation of the cuSOLVER subset the CUDA plugin
 * calls (src/runtime/cuda_linalg.h): cusolverDnCreate, cusolverDnDestroy,
 * cusolverDnSetStream, cusolverDnSetDeterministicMode and the D and Z
 * forms of getrf_bufferSize, getrf, getrs, potrf_bufferSize, potrf and
 * potrfBatched, as
 * libndtile_cusolverhost.so, which the plugin's host build
 * (libndtile_cudahost.so) dlopens in place of libcusolver, by the same path
 * (next to the plugin, or NDTILE_CUDA_CUSOLVER).
 *
 * What it keeps of cuSOLVER, so that the plugin's mistakes show here: the
 * arguments are checked as cuSOLVER checks them (sizes, leading
 * dimensions, fill mode, a stream set: CUSOLVER_STATUS_INVALID_VALUE); a
 * call is queued on the handle's stream (cudahost_ext.h) and runs later,
 * on the stream's thread, with its matrices, pivots, info word and
 * workspace (of the size bufferSize asked for) checked as device
 * allocations; info is LAPACK's (the first zero pivot of getrf, 1-based,
 * which still completes the factorisation; the order of the leading minor
 * that is not positive definite for potrf, which stops there); potrf
 * leaves the other triangle as it was (the plugin must zero it). The
 * algorithms are unblocked LU with partial pivoting and Cholesky in double:
 * their bits are not cuSOLVER's (nor OpenBLAS's), and the plugin's tests
 * hold them to the bound it states.
 *
 * potrfBatched takes an array of matrix pointers that must lie in device
 * memory (checked when the call is queued: a host array faults, as on a
 * GPU), each pointer read from it checked as a device allocation when the
 * call runs (cudahost_ext.h's reach); lda >= max(1, n), n and batchSize
 * >= 0; one info word per matrix (potrf's rule); the other triangle is
 * used as workspace by cuSOLVER: here it is left holding NaNs. It counts
 * in NDTILE_CUDAHOST_STATS as a "batched solver launch", not a "solver
 * launch". */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cudahost_ext.h"

enum { ST_OK = 0, ST_NOT_INITIALIZED = 1, ST_ALLOC_FAILED = 2, ST_INVALID_VALUE = 3,
       ST_EXECUTION_FAILED = 6 };

#define EXPORT __attribute__((visibility("default")))

typedef struct {
  cudaStream_t stream;
} handle;

EXPORT int cusolverDnCreate(handle **h) {
  if (!h) return ST_INVALID_VALUE;
  *h = calloc(1, sizeof **h);
  return *h ? ST_OK : ST_ALLOC_FAILED;
}

EXPORT int cusolverDnDestroy(handle *h) {
  free(h);
  return ST_OK;
}

EXPORT int cusolverDnSetStream(handle *h, cudaStream_t s) {
  if (!h) return ST_NOT_INITIALIZED;
  h->stream = s;
  return ST_OK;
}

EXPORT int cusolverDnSetDeterministicMode(handle *h, int mode) {
  if (!h) return ST_NOT_INITIALIZED;
  return mode == 1 || mode == 2 ? ST_OK : ST_INVALID_VALUE;
}

/* the workspace each call asks for, in elements */
static int lwork_of(int n) { return n > 0 ? n : 1; }

typedef struct {
  int what;   /* 0 getrf, 1 getrs, 2 potrf, 3 potrfBatched */
  int cx, n, nrhs, lda, ldb, uplo, batch;
  char *a, *b, *ipiv, *info, *work;
  cudaStream_t stream;   /* (potrfBatched) */
  const ndt_cudahost_ext *x;
} job;

#define EL(T, p, i, j, ld) (((T *)(p))[(int64_t)(i) + (int64_t)(j) * (ld)])

#define ALGOS(T, SFX, CONJ, ABS)                                                                \
  static void getrf_##SFX(job *j) {                                                          \
    int n = j->n, info = 0;                                                                  \
    int *piv = (int *)j->ipiv;                                                               \
    for (int c = 0; c < n; c++) {                                                            \
      int p = c;                                                                             \
      for (int r = c + 1; r < n; r++)                                                        \
        if (ABS(EL(T, j->a, r, c, j->lda)) > ABS(EL(T, j->a, p, c, j->lda))) p = r;          \
      piv[c] = p + 1;                                                                        \
      if (p != c)                                                                            \
        for (int k = 0; k < n; k++) {                                                        \
          T t = EL(T, j->a, c, k, j->lda);                                                   \
          EL(T, j->a, c, k, j->lda) = EL(T, j->a, p, k, j->lda);                             \
          EL(T, j->a, p, k, j->lda) = t;                                                     \
        }                                                                                    \
      T d = EL(T, j->a, c, c, j->lda);                                                       \
      if (d == 0) {                                                                          \
        if (!info) info = c + 1;                                                             \
        continue;                                                                            \
      }                                                                                      \
      for (int r = c + 1; r < n; r++) {                                                      \
        T l = EL(T, j->a, r, c, j->lda) / d;                                                 \
        EL(T, j->a, r, c, j->lda) = l;                                                       \
        for (int k = c + 1; k < n; k++)                                                      \
          EL(T, j->a, r, k, j->lda) -= l * EL(T, j->a, c, k, j->lda);                        \
      }                                                                                      \
    }                                                                                        \
    *(int *)j->info = info;                                                                  \
  }                                                                                          \
  static void getrs_##SFX(job *j) {                                                          \
    int n = j->n;                                                                            \
    const int *piv = (const int *)j->ipiv;                                                   \
    for (int q = 0; q < j->nrhs; q++) {                                                      \
      T *x = &EL(T, j->b, 0, q, j->ldb);                                                     \
      for (int i = 0; i < n; i++)                                                            \
        if (piv[i] - 1 != i) {                                                               \
          T t = x[i];                                                                        \
          x[i] = x[piv[i] - 1];                                                              \
          x[piv[i] - 1] = t;                                                                 \
        }                                                                                    \
      for (int i = 0; i < n; i++)                                                            \
        for (int k = 0; k < i; k++) x[i] -= EL(T, j->a, i, k, j->lda) * x[k];               \
      for (int i = n - 1; i >= 0; i--) {                                                     \
        for (int k = i + 1; k < n; k++) x[i] -= EL(T, j->a, i, k, j->lda) * x[k];           \
        x[i] /= EL(T, j->a, i, i, j->lda);                                                   \
      }                                                                                      \
    }                                                                                        \
    *(int *)j->info = 0;                                                                     \
  }                                                                                          \
  /* lower: A = L L^H in the lower triangle; upper: A = U^H U in the upper */               \
  static void potrf_##SFX(job *j) {                                                          \
    int n = j->n, up = j->uplo == 1;                                                         \
    int *info = (int *)j->info;                                                              \
    *info = 0;                                                                               \
    /* element (i, k) of L, i >= k: the lower triangle, or the upper's conjugate */          \
    for (int c = 0; c < n; c++) {                                                            \
      double s = creal(EL(T, j->a, c, c, j->lda));                                           \
      for (int k = 0; k < c; k++) {                                                          \
        T l = up ? CONJ(EL(T, j->a, k, c, j->lda)) : EL(T, j->a, c, k, j->lda);              \
        s -= creal(l * CONJ(l));                                                             \
      }                                                                                      \
      if (!(s > 0)) {                                                                        \
        *info = c + 1;                                                                       \
        return;                                                                              \
      }                                                                                      \
      double r = sqrt(s);                                                                    \
      EL(T, j->a, c, c, j->lda) = r;                                                         \
      for (int i = c + 1; i < n; i++) {                                                      \
        T v = up ? CONJ(EL(T, j->a, c, i, j->lda)) : EL(T, j->a, i, c, j->lda);              \
        for (int k = 0; k < c; k++) {                                                        \
          T li = up ? CONJ(EL(T, j->a, k, i, j->lda)) : EL(T, j->a, i, k, j->lda);           \
          T lc = up ? CONJ(EL(T, j->a, k, c, j->lda)) : EL(T, j->a, c, k, j->lda);           \
          v -= li * CONJ(lc);                                                                \
        }                                                                                    \
        v /= r;                                                                              \
        if (up) EL(T, j->a, c, i, j->lda) = CONJ(v);                                         \
        else EL(T, j->a, i, c, j->lda) = v;                                                  \
      }                                                                                      \
    }                                                                                        \
  }

#define NOCONJ(x) (x)
ALGOS(double, d, NOCONJ, fabs)
ALGOS(double complex, z, conj, cabs)

/* potrfBatched: each matrix's pointer, read from the device array, checked
 * and moved, then potrf on it, the other triangle then NaNs */
static void potrf_batched(job *j) {
  int64_t esz = j->cx ? 16 : 8, n = j->n;
  size_t am = (size_t)(((n - 1) * j->lda + n) * esz);
  for (int q = 0; q < j->batch; q++) {
    job one = *j;
    one.a = ((char **)j->a)[q];
    one.info = j->info + (size_t)q * sizeof(int);
    if (j->x->reach(j->stream, &one.a, am, "potrfBatched's matrix A[i]")) return;
    if (j->cx) potrf_z(&one);
    else potrf_d(&one);
    for (int64_t c = 0; c < n; c++)
      for (int64_t r = 0; r < n; r++)
        if (j->uplo == 1 ? r > c : r < c) {
          double *e = (double *)(one.a + (r + c * j->lda) * esz);
          e[0] = NAN;
          if (j->cx) e[1] = NAN;
        }
  }
}

static void run(void *p) {
  job *j = p;
  if (j->what == 3) {
    potrf_batched(j);
    return;
  }
  switch (j->what * 2 + j->cx) {
    case 0: getrf_d(j); break;
    case 1: getrf_z(j); break;
    case 2: getrs_d(j); break;
    case 3: getrs_z(j); break;
    case 4: potrf_d(j); break;
    default: potrf_z(j); break;
  }
}

static int queue(handle *h, job *jp) {
  const ndt_cudahost_ext *x = h ? ndt_cudahost_ext_of(h->stream) : NULL;
  if (!x || x->version != NDT_CUDAHOST_EXT_VERSION) return ST_EXECUTION_FAILED;   /* no stream */
  job *j = malloc(sizeof *j);
  if (!j) return ST_ALLOC_FAILED;
  *j = *jp;
  int64_t esz = j->cx ? 16 : 8, n = j->n;
  size_t bytes[5] = {(size_t)(((n - 1) * j->lda + n) * esz),
                     j->what == 1 ? (size_t)(((j->nrhs - 1) * (int64_t)j->ldb + n) * esz) : 0,
                     j->what != 2 ? (size_t)n * sizeof(int) : 0, sizeof(int),
                     j->what != 1 ? (size_t)lwork_of(j->n) * (size_t)esz : 0};
  char **ptr[5] = {&j->a, &j->b, &j->ipiv, &j->info, &j->work};
  return x->launch(h->stream, 5, ptr, bytes, run, j, NDT_CUDAHOST_TALLY_SOLVER, "cusolver") ==
                 cudaSuccess
             ? ST_OK
             : ST_EXECUTION_FAILED;
}

static int bs(handle *h, int n, int lda, int *lw) {
  if (!h) return ST_NOT_INITIALIZED;
  if (n < 0 || lda < (n > 1 ? n : 1) || !lw) return ST_INVALID_VALUE;
  *lw = lwork_of(n);
  return ST_OK;
}

EXPORT int cusolverDnDgetrf_bufferSize(handle *h, int m, int n, void *a, int lda, int *lw) {
  (void)a;
  return m != n ? ST_INVALID_VALUE : bs(h, n, lda, lw);
}
EXPORT int cusolverDnZgetrf_bufferSize(handle *h, int m, int n, void *a, int lda, int *lw) {
  (void)a;
  return m != n ? ST_INVALID_VALUE : bs(h, n, lda, lw);
}
EXPORT int cusolverDnDpotrf_bufferSize(handle *h, int uplo, int n, void *a, int lda, int *lw) {
  (void)a;
  return uplo != 0 && uplo != 1 ? ST_INVALID_VALUE : bs(h, n, lda, lw);
}
EXPORT int cusolverDnZpotrf_bufferSize(handle *h, int uplo, int n, void *a, int lda, int *lw) {
  (void)a;
  return uplo != 0 && uplo != 1 ? ST_INVALID_VALUE : bs(h, n, lda, lw);
}

/* (the emulation: square matrices only) */
static int getrf(handle *h, int cx, int m, int n, void *a, int lda, void *w, int *ipiv,
                 int *info) {
  if (!h) return ST_NOT_INITIALIZED;
  if (m != n || n < 1 || lda < n) return ST_INVALID_VALUE;
  job j = {.what = 0, .cx = cx, .n = n, .lda = lda, .a = a, .ipiv = (char *)ipiv,
           .info = (char *)info, .work = w};
  return queue(h, &j);
}
EXPORT int cusolverDnDgetrf(handle *h, int m, int n, void *a, int lda, void *w, int *ipiv,
                            int *info) {
  return getrf(h, 0, m, n, a, lda, w, ipiv, info);
}
EXPORT int cusolverDnZgetrf(handle *h, int m, int n, void *a, int lda, void *w, int *ipiv,
                            int *info) {
  return getrf(h, 1, m, n, a, lda, w, ipiv, info);
}

static int getrs(handle *h, int cx, int trans, int n, int nrhs, const void *a, int lda,
                 const int *ipiv, void *b, int ldb, int *info) {
  if (!h) return ST_NOT_INITIALIZED;
  if (trans != 0 || n < 1 || nrhs < 1 || lda < n || ldb < n) return ST_INVALID_VALUE;
  job j = {.what = 1, .cx = cx, .n = n, .nrhs = nrhs, .lda = lda, .ldb = ldb, .a = (char *)a,
           .b = b, .ipiv = (char *)ipiv, .info = (char *)info};
  return queue(h, &j);
}
EXPORT int cusolverDnDgetrs(handle *h, int trans, int n, int nrhs, const void *a, int lda,
                            const int *ipiv, void *b, int ldb, int *info) {
  return getrs(h, 0, trans, n, nrhs, a, lda, ipiv, b, ldb, info);
}
EXPORT int cusolverDnZgetrs(handle *h, int trans, int n, int nrhs, const void *a, int lda,
                            const int *ipiv, void *b, int ldb, int *info) {
  return getrs(h, 1, trans, n, nrhs, a, lda, ipiv, b, ldb, info);
}

static int potrf(handle *h, int cx, int uplo, int n, void *a, int lda, void *w, int lw,
                 int *info) {
  if (!h) return ST_NOT_INITIALIZED;
  if ((uplo != 0 && uplo != 1) || n < 1 || lda < n || lw < lwork_of(n)) return ST_INVALID_VALUE;
  job j = {.what = 2, .cx = cx, .n = n, .lda = lda, .uplo = uplo, .a = a, .info = (char *)info,
           .work = w};
  return queue(h, &j);
}
EXPORT int cusolverDnDpotrf(handle *h, int uplo, int n, void *a, int lda, void *w, int lw,
                            int *info) {
  return potrf(h, 0, uplo, n, a, lda, w, lw, info);
}
EXPORT int cusolverDnZpotrf(handle *h, int uplo, int n, void *a, int lda, void *w, int lw,
                            int *info) {
  return potrf(h, 1, uplo, n, a, lda, w, lw, info);
}

static int potrf_b(handle *h, int cx, int uplo, int n, void *const a[], int lda, int *info,
                   int batch) {
  if (!h) return ST_NOT_INITIALIZED;
  if ((uplo != 0 && uplo != 1) || n < 0 || lda < (n > 1 ? n : 1) || batch < 0 || !info)
    return ST_INVALID_VALUE;
  if (n == 0 || batch == 0) return ST_OK;
  const ndt_cudahost_ext *x = ndt_cudahost_ext_of(h->stream);
  if (!x || x->version != NDT_CUDAHOST_EXT_VERSION) return ST_EXECUTION_FAILED;   /* no stream */
  job *j = malloc(sizeof *j);
  if (!j) return ST_ALLOC_FAILED;
  *j = (job){.what = 3, .cx = cx, .n = n, .lda = lda, .uplo = uplo, .batch = batch,
             .a = (char *)a, .info = (char *)info, .stream = h->stream, .x = x};
  size_t bytes[2] = {(size_t)batch * sizeof(void *), (size_t)batch * sizeof(int)};
  char **ptr[2] = {&j->a, &j->info};
  return x->launch(h->stream, 2, ptr, bytes, run, j, NDT_CUDAHOST_TALLY_BATCHED,
                   "potrfBatched") == cudaSuccess
             ? ST_OK
             : ST_EXECUTION_FAILED;
}
EXPORT int cusolverDnDpotrfBatched(handle *h, int uplo, int n, void *const a[], int lda,
                                   int *info, int batch) {
  return potrf_b(h, 0, uplo, n, a, lda, info, batch);
}
EXPORT int cusolverDnZpotrfBatched(handle *h, int uplo, int n, void *const a[], int lda,
                                   int *info, int batch) {
  return potrf_b(h, 1, uplo, n, a, lda, info, batch);
}
