/* test_batchedhost.c - the emulated batched LU and Cholesky calls
 * (cublashost.c: D/Z getrfBatched, getrsBatched, getriBatched;
 * cusolverhost.c: D/Z potrfBatched) keep what they promise, so that a
 * plugin bug shows: they compute (P A = L U with partial pivoting, the
 * inverse, the solution, the Cholesky factor with the other triangle
 * destroyed, LAPACK's info words), check their arguments as the libraries
 * do (lda >= n, batch >= 0: INVALID_VALUE, getrsBatched's host info -i),
 * and an array of matrix pointers in host memory, or a pointer in it to
 * host memory, faults the device when the call runs, as it would on a GPU.
 * argv[1], argv[2]: the paths of libndtile_cublashost.so and
 * libndtile_cusolverhost.so (meson passes them); four emulated devices. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_runtime_api.h"

#include "../c/check.h"   /* EXPECT, passed, failed */

typedef int (*create_fn)(void **);
typedef int (*stream_fn)(void *, cudaStream_t);
typedef int (*getrf_fn)(void *, int, void *const *, int, int *, int *, int);
typedef int (*getrs_fn)(void *, int, int, int, const void *const *, int, const int *,
                        void *const *, int, int *, int);
typedef int (*getri_fn)(void *, int, const void *const *, int, const int *, void *const *, int,
                        int *, int);
typedef int (*potrf_fn)(void *, int, int, void *const *, int, int *, int);

static getrf_fn getrf;
static getrs_fn getrs;
static getri_fn getri;
static potrf_fn potrf;
static void *bh[4], *sh[4];   /* per device: a cuBLAS and a cuSOLVER handle */
static cudaStream_t st[4];

enum { N = 3, LDA = 4, NB = 3 };   /* three 3 x 3 matrices, lda 4 */

static void *dev_copy(const void *h, size_t n, cudaStream_t s) {
  void *d = NULL;
  if (cudaMallocAsync(&d, n, s) != cudaSuccess) return NULL;
  if (h) cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  return d;
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  void *lb = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL), *ls = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (!lb || !ls) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 2;
  }
  create_fn bcreate, screate;
  stream_fn bstream, sstream;
  *(void **)&bcreate = dlsym(lb, "cublasCreate_v2");
  *(void **)&bstream = dlsym(lb, "cublasSetStream_v2");
  *(void **)&screate = dlsym(ls, "cusolverDnCreate");
  *(void **)&sstream = dlsym(ls, "cusolverDnSetStream");
  *(void **)&getrf = dlsym(lb, "cublasDgetrfBatched");
  *(void **)&getrs = dlsym(lb, "cublasDgetrsBatched");
  *(void **)&getri = dlsym(lb, "cublasDgetriBatched");
  *(void **)&potrf = dlsym(ls, "cusolverDnDpotrfBatched");
  EXPECT(bcreate && bstream && screate && sstream && getrf && getrs && getri && potrf &&
             dlsym(lb, "cublasZgetrfBatched") && dlsym(lb, "cublasZgetrsBatched") &&
             dlsym(lb, "cublasZgetriBatched") && dlsym(ls, "cusolverDnZpotrfBatched"),
         "the batched entry points");
  if (failed) return 1;
  int ndev = 0;
  EXPECT(cudaGetDeviceCount(&ndev) == cudaSuccess && ndev == 4, "four devices (%d)", ndev);
  for (int i = 0; i < 4 && i < ndev; i++) {
    cudaSetDevice(i);
    cudaStreamCreate(&st[i]);
    EXPECT(bcreate(&bh[i]) == 0 && bstream(bh[i], st[i]) == 0 && screate(&sh[i]) == 0 &&
               sstream(sh[i], st[i]) == 0, "handles on device %d", i);
  }
  if (failed) return 1;

  /* device 0: the algorithms */
  cudaSetDevice(0);
  cudaStream_t s = st[0];
  static const double a0[N][N] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 10}};   /* (row-major) */
  double ha[NB][LDA * N], hb[NB][LDA * 2];
  memset(ha, 0, sizeof ha);
  for (int q = 0; q < NB; q++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        ha[q][i + j * LDA] = q == 1 && i == 1 ? a0[0][j] : a0[i][j] + (i == j && q != 1 ? q : 0);
  /* matrix 1: rows 0 and 1 equal (singular, an exact zero pivot) */
  for (int q = 0; q < NB; q++)
    for (int i = 0; i < LDA * 2; i++) hb[q][i] = (double)(i % LDA + q);
  char *A = dev_copy(ha, sizeof ha, s), *A2 = dev_copy(ha, sizeof ha, s);
  char *Bm = dev_copy(hb, sizeof hb, s), *C = dev_copy(NULL, sizeof ha, s);
  int *piv = dev_copy(NULL, NB * N * sizeof(int), s), *info = dev_copy(NULL, 2 * NB * sizeof(int), s);
  void *ht[4 * NB];
  for (int q = 0; q < NB; q++) {
    ht[q] = A + q * sizeof ha[0];
    ht[NB + q] = Bm + q * sizeof hb[0];
    ht[2 * NB + q] = C + q * sizeof ha[0];
    ht[3 * NB + q] = A2 + q * sizeof ha[0];
  }
  void **dt = dev_copy(ht, sizeof ht, s);
  int rsinfo = 7;
  EXPECT(getrf(bh[0], N, dt, LDA, piv, info, NB) == 0, "getrfBatched queued");
  EXPECT(getrs(bh[0], 0, N, 2, (const void *const *)dt, LDA, piv, dt + NB, LDA, &rsinfo, NB) == 0 &&
             rsinfo == 0, "getrsBatched queued, its host info 0");
  EXPECT(getri(bh[0], N, (const void *const *)dt, LDA, piv, dt + 2 * NB, LDA, info + NB, NB) == 0,
         "getriBatched queued");
  double lu[NB][LDA * N], x[NB][LDA * 2], inv[NB][LDA * N];
  int hpiv[NB * N], hinfo[2 * NB];
  cudaMemcpyAsync(lu, A, sizeof lu, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(x, Bm, sizeof x, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(inv, C, sizeof inv, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(hpiv, piv, sizeof hpiv, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost, s);
  EXPECT(cudaStreamSynchronize(s) == cudaSuccess, "the calls ran");
  EXPECT(hinfo[0] == 0 && hinfo[2] == 0 && hinfo[1] == 3 && hinfo[NB] == 0 && hinfo[NB + 1] == 3,
         "info: the first zero pivot, 1-based (%d %d %d; getri %d %d)", hinfo[0], hinfo[1],
         hinfo[2], hinfo[NB], hinfo[NB + 1]);
  EXPECT(hpiv[0] == 3, "partial pivoting: the largest of column 0 (row 3) first (%d)", hpiv[0]);
  for (int q = 0; q < NB; q += 2) {   /* the non-singular ones */
    double worst = 0, worst_x = 0;
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {   /* (A inv(A))_ij = delta_ij */
        double v = 0;
        for (int k = 0; k < N; k++) v += ha[q][i + k * LDA] * inv[q][k + j * LDA];
        worst = fmax(worst, fabs(v - (i == j)));
      }
    for (int c = 0; c < 2; c++)
      for (int i = 0; i < N; i++) {   /* A x = b */
        double v = 0;
        for (int k = 0; k < N; k++) v += ha[q][i + k * LDA] * x[q][k + c * LDA];
        worst_x = fmax(worst_x, fabs(v - hb[q][i + c * LDA]));
      }
    EXPECT(worst < 1e-12 && worst_x < 1e-12, "matrix %d: A inv(A) = I (%g), A x = b (%g)", q,
           worst, worst_x);
    double wl = 0;   /* P A = L U: row p of A is row i of L U, pivots applied in order */
    double pa[N][N];
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) pa[i][j] = ha[q][i + j * LDA];
    for (int i = 0; i < N; i++) {
      int p = hpiv[q * N + i] - 1;
      for (int j = 0; j < N; j++) {
        double t = pa[i][j];
        pa[i][j] = pa[p][j];
        pa[p][j] = t;
      }
    }
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        double v = 0;
        for (int k = 0; k <= i && k <= j; k++)
          v += (k == i ? 1 : lu[q][i + k * LDA]) * lu[q][k + j * LDA];
        wl = fmax(wl, fabs(v - pa[i][j]));
      }
    EXPECT(wl < 1e-12, "matrix %d: P A = L U (%g)", q, wl);
  }
  EXPECT(ha[0][3] == 0 && lu[0][3] == 0, "the rows past n (lda 4) untouched");

  /* potrfBatched: an SPD matrix (lower and upper), one that is not */
  double hs[NB][LDA * N], hl[NB][LDA * N];
  static const double s0[N][N] = {{4, 2, 0.4}, {2, 5, 1}, {0.4, 1, 3}};
  for (int q = 0; q < NB; q++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) hs[q][i + j * LDA] = q == 2 ? -s0[i][j] : s0[i][j];
  cudaMemcpyAsync(A, hs, sizeof hs, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(A2, hs, sizeof hs, cudaMemcpyHostToDevice, s);
  EXPECT(potrf(sh[0], 0, N, dt, LDA, info, NB) == 0 && potrf(sh[0], 1, N, dt + 3 * NB, LDA,
                                                             info + NB, NB) == 0,
         "potrfBatched queued (lower, upper)");
  cudaMemcpyAsync(hl, A, sizeof hl, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(ha, A2, sizeof ha, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost, s);
  EXPECT(cudaStreamSynchronize(s) == cudaSuccess, "potrfBatched ran");
  EXPECT(hinfo[0] == 0 && hinfo[1] == 0 && hinfo[2] == 1 && hinfo[NB] == 0 && hinfo[NB + 2] == 1,
         "info: the order of the minor that is not positive definite");
  double wc = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double v = 0, u = 0;
      for (int k = 0; k <= i && k <= j; k++) {
        v += hl[0][i + k * LDA] * hl[0][j + k * LDA];   /* L L^T */
        u += ha[0][k + i * LDA] * ha[0][k + j * LDA];   /* U^T U */
      }
      wc = fmax(wc, fmax(fabs(v - s0[i][j]), fabs(u - s0[i][j])));
    }
  EXPECT(wc < 1e-12, "L L^T = U^T U = A (%g)", wc);
  EXPECT(isnan(hl[0][0 + 1 * LDA]) && isnan(ha[0][1 + 0 * LDA]),
         "the other triangle destroyed (NaNs: the plugin must zero it)");

  /* the arguments, as the libraries check them */
  EXPECT(getrf(bh[0], N, dt, N - 1, piv, info, NB) == 7 && getrf(bh[0], N, dt, LDA, piv, info, -1) == 7 &&
             getrf(bh[0], -1, dt, LDA, piv, info, NB) == 7,
         "getrfBatched: lda < n, batch < 0, n < 0: CUBLAS_STATUS_INVALID_VALUE");
  rsinfo = 0;
  EXPECT(getrs(bh[0], 0, N, 1, (const void *const *)dt, LDA, piv, dt + NB, N - 1, &rsinfo, NB) == 7 &&
             rsinfo == -9, "getrsBatched: ldb < n, info -9 (%d)", rsinfo);
  EXPECT(getri(bh[0], N, (const void *const *)dt, LDA, piv, dt, N - 1, info, NB) == 7,
         "getriBatched: ldc < n");
  EXPECT(potrf(sh[0], 0, N, dt, N - 1, info, NB) == 3 && potrf(sh[0], 2, N, dt, LDA, info, NB) == 3 &&
             potrf(sh[0], 0, N, dt, LDA, info, -1) == 3,
         "potrfBatched: lda < n, a bad fill mode, batch < 0: CUSOLVER_STATUS_INVALID_VALUE");
  EXPECT(getrf(bh[0], N, dt, LDA, piv, info, 0) == 0 && potrf(sh[0], 0, N, dt, LDA, info, 0) == 0,
         "batch 0: nothing to do");
  EXPECT(cudaStreamSynchronize(s) == cudaSuccess, "device 0 unharmed");

  /* faults: a host array of pointers (device 1, cuBLAS; device 3,
   * cuSOLVER), a device array holding a host pointer (device 2) */
  for (int i = 1; i < 4; i++) {
    cudaSetDevice(i);
    char *M = dev_copy(ha, sizeof ha, st[i]);
    int *pv = dev_copy(NULL, NB * N * sizeof(int), st[i]), *inf = dev_copy(NULL, NB * sizeof(int), st[i]);
    void *tab[NB] = {M, M + sizeof ha[0], i == 2 ? (void *)ha[2] : M + 2 * sizeof ha[0]};
    void **dtab = dev_copy(tab, sizeof tab, st[i]);
    int rc = i == 3 ? potrf(sh[i], 0, N, tab, LDA, inf, NB)
                    : getrf(bh[i], N, i == 1 ? tab : dtab, LDA, pv, inf, NB);
    EXPECT(rc == 0, "device %d: queued (%d)", i, rc);
    EXPECT(cudaStreamSynchronize(st[i]) == cudaErrorIllegalAddress, "device %d: %s faults", i,
           i == 2 ? "a host pointer in the device array" : "a host array of pointers");
  }
  cudaSetDevice(0);
  EXPECT(cudaStreamSynchronize(s) == cudaSuccess, "device 0 unharmed by the others' faults");
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
