/* cuda_linalg.h - a part of the CUDA plugin (included once, by cuda.c,
 * after cuda_fft.h, whose line copies it shares): the "linalg" tasks of
 * src/ops/linalg.c (their argument: ops/linalg.h) for solve, inv and
 * cholesky through cuSOLVER; every other linalg op stays on the CPU.
 *
 * A task is a block of a stack of matrices; its body takes the CPU body's
 * argument and does what it does, on the device's stream, in double
 * precision as the CPU's LAPACK (float64 or complex128, whatever the
 * input): a pack kernel (src/kernels/cuda/lines_impl.h) loads every
 * matrix of the block, cast, column-major into a batch buffer (and b, or
 * an identity for inv), then the factorisation and solve, and an unpack
 * kernel stores the results into the output (cast to float32/complex64
 * for single inputs, a Cholesky factor's other triangle as zeros):
 *   - matrices of order n <= 32 (NDT_LA_BATCH_N, a fixed rule: what the
 *     batched calls are for) take one call for all of the block's
 *     matrices: cublas?getrfBatched + ?getrsBatched (solve) or
 *     ?getriBatched (inv, out of place: no identity packed), and
 *     cusolverDn?potrfBatched (cholesky); their arrays of matrix pointers
 *     are built on the host and copied into the task's device scratch
 *     (cuBLAS is the matmul's, cuda_matmul.h: its library and handle);
 *   - larger ones (or without cuBLAS's batched LU, or cuSOLVER's
 *     potrfBatched) one call per matrix: cusolverDn?getrf + ?getrs (solve,
 *     inv) or ?potrf.
 * The pivots' info words come back to the host once per task: as on the
 * CPU, an exact zero pivot (info > 0) is "Singular matrix" and a failed
 * Cholesky "Matrix is not positive definite" (NDT_ERR_LINALG:
 * numpy.linalg.LinAlgError); a NaN on U's diagonal is no error (getrf's
 * info, LAPACK's and cuSOLVER's, reports exact zeros only), its NaNs
 * propagate into the result as NumPy's.
 *
 * The bits are cuSOLVER's, not OpenBLAS's LAPACK: the stated bound, per
 * matrix, is ||X - X_cpu||_F <= 8 n eps cond(A) ||X_cpu||_F for the
 * solution, inverse or factor X (eps of the result's precision: float32's for
 * single results, rounded from double as on the CPU; cond the 2-norm condition
 * number of A); tested against NumPy (tests/python/test_cuda_linalg.py).
 * The calls (batched or not, and their batches: a block's matrices)
 * depend on the program only and the handle asks for deterministic results
 * (cusolverDnSetDeterministicMode where the library has it; cuBLAS
 * documents no nondeterministic mode for its batched LU), so the bits are
 * the same run to run (shown on the emulation; not yet checked on a GPU).
 *
 * cuSOLVER is no dependency of the plugin: it is dlopened at the first
 * such task a device is offered (NDTILE_CUDA_CUSOLVER names the file, 0 or
 * none keeps them on the CPU; else libcusolver.so.12 (CUDA 13),
 * libcusolver.so.11 (CUDA 12), libcusolver.so); without it supports
 * refuses them and NDTILE_VERBOSE=1 says why. One handle per device, on
 * its stream. Without cuBLAS (NDTILE_CUDA_CUBLAS) solve and inv go per
 * matrix. Left: the other ops; cusolverDnXpotrsBatched (cho_solve has no
 * device path); S/C forms (the family computes in double). */
#include "ops/linalg.h"

/* Matrices of order up to this go through the batched calls (one call for
 * all of a block's matrices); larger ones one cuSOLVER call per matrix,
 * whose blocked algorithms are for large matrices. A fixed rule, not a
 * timing: the batched calls are documented for small matrices, where one
 * call per matrix costs mostly its launch; 32 is an assumption, not yet
 * measured on a GPU (a stack of 33 x 33 matrices pays one call each). */
#define NDT_LA_BATCH_N 32

#ifndef NDT_CUSOLVER_NAMES
#define NDT_CUSOLVER_NAMES "libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"
#endif

/* the cusolverDn subset (cusolverDn.h), by value; complex as double[2] */
typedef void *csv_handle;
typedef int (*csv_getrf_bs_fn)(csv_handle, int, int, void *, int, int *);
typedef int (*csv_getrf_fn)(csv_handle, int, int, void *, int, void *, int *, int *);
typedef int (*csv_getrs_fn)(csv_handle, int, int, int, const void *, int, const int *, void *,
                            int, int *);
typedef int (*csv_potrf_bs_fn)(csv_handle, int, int, void *, int, int *);
typedef int (*csv_potrf_fn)(csv_handle, int, int, void *, int, void *, int, int *);
typedef int (*csv_potrf_batched_fn)(csv_handle, int, int, void *const *, int, int *, int);

static struct {
  pthread_once_t once;
  int ok;
  char why[512];
  int (*create)(csv_handle *);
  int (*set_stream)(csv_handle, cudaStream_t);
  int (*set_det)(csv_handle, int);   /* (optional: CUDA 12.2+) */
  csv_getrf_bs_fn getrf_bs[2];       /* [0] double, [1] complex double */
  csv_getrf_fn getrf[2];
  csv_getrs_fn getrs[2];
  csv_potrf_bs_fn potrf_bs[2];
  csv_potrf_fn potrf[2];
  csv_potrf_batched_fn potrf_batched[2];   /* (optional: cholesky per matrix without) */
} csv = {.once = PTHREAD_ONCE_INIT};

static csv_handle csv_handle_of[NDT__MAX_DEVS];
static atomic_int csv_state[NDT__MAX_DEVS];   /* 0 not made, 1 made, -1 cannot be */

static void csv_load(void) {
  const char *env = getenv("NDTILE_CUDA_CUSOLVER");
  if (env && (!strcmp(env, "0") || !strcmp(env, "none"))) {
    snprintf(csv.why, sizeof csv.why, "NDTILE_CUDA_CUSOLVER=%s: solve, inv and cholesky run "
             "on the CPU", env);
    host->verbose(csv.why);
    return;
  }
  char why[400];
  static const char *const names[] = {NDT_CUSOLVER_NAMES};
  void *h = lib_open("NDTILE_CUDA_CUSOLVER", names, (int)(sizeof names / sizeof *names), why,
                     sizeof why);
  if (!h) {
    snprintf(csv.why, sizeof csv.why, "cuSOLVER could not be loaded (%s): solve, inv and "
             "cholesky run on the CPU", why);
    host->verbose(csv.why);
    return;
  }
  *(void **)&csv.create = dlsym(h, "cusolverDnCreate");
  *(void **)&csv.set_stream = dlsym(h, "cusolverDnSetStream");
  *(void **)&csv.set_det = dlsym(h, "cusolverDnSetDeterministicMode");
  static const char *const fn[5][2] = {
      {"cusolverDnDgetrf_bufferSize", "cusolverDnZgetrf_bufferSize"},
      {"cusolverDnDgetrf", "cusolverDnZgetrf"},
      {"cusolverDnDgetrs", "cusolverDnZgetrs"},
      {"cusolverDnDpotrf_bufferSize", "cusolverDnZpotrf_bufferSize"},
      {"cusolverDnDpotrf", "cusolverDnZpotrf"}};
  int all = csv.create && csv.set_stream;
  for (int t = 0; t < 2; t++) {
    *(void **)&csv.getrf_bs[t] = dlsym(h, fn[0][t]);
    *(void **)&csv.getrf[t] = dlsym(h, fn[1][t]);
    *(void **)&csv.getrs[t] = dlsym(h, fn[2][t]);
    *(void **)&csv.potrf_bs[t] = dlsym(h, fn[3][t]);
    *(void **)&csv.potrf[t] = dlsym(h, fn[4][t]);
    *(void **)&csv.potrf_batched[t] = dlsym(h, t ? "cusolverDnZpotrfBatched"
                                                 : "cusolverDnDpotrfBatched");
    all = all && csv.getrf_bs[t] && csv.getrf[t] && csv.getrs[t] && csv.potrf_bs[t] &&
          csv.potrf[t];
  }
  if (!all) {
    snprintf(csv.why, sizeof csv.why, "cuSOLVER lacks a function the plugin calls "
             "(cusolverDnCreate, cusolverDnSetStream, ?getrf, ?getrs, ?potrf): solve, inv and "
             "cholesky run on the CPU");
    host->verbose(csv.why);
    dlclose(h);
    return;
  }
  csv.ok = 1;   /* (the library stays loaded for the program's life) */
  host->verbose("cuSOLVER loaded for solve, inv and cholesky");
}

/* d's handle, made at its first task on its stream (d->run held); NULL
 * when it cannot be made (that device's tasks go to the CPU) */
static csv_handle csv_handle_for(cuda_dev *d) {
  int i = (int)(d - cdev);
  if (atomic_load(&csv_state[i]) == 0) {
    csv_handle h = NULL;
    int rc = csv.create(&h);
    if (rc == 0) rc = csv.set_stream(h, d->stream);
    if (rc == 0 && csv.set_det) rc = csv.set_det(h, 1);   /* CUSOLVER_DETERMINISTIC_RESULTS */
    if (rc == 0) {
      csv_handle_of[i] = h;
      atomic_store(&csv_state[i], 1);
    } else {
      char msg[160];
      snprintf(msg, sizeof msg, "cuSOLVER: no handle for CUDA device %d (status %d): its "
               "solve, inv and cholesky run on the CPU", d->dev, rc);
      host->verbose(msg);
      atomic_store(&csv_state[i], -1);
    }
  }
  return atomic_load(&csv_state[i]) == 1 ? csv_handle_of[i] : NULL;
}

/* 1 when the device takes this "linalg" task */
static int la_supports(cuda_dev *d, const void *arg) {
  const la_arg *a = arg;
  if (a->op != NDT_LINALG_SOLVE && a->op != NDT_LINALG_INV && a->op != NDT_LINALG_CHOLESKY)
    return 0;
  if ((a->ct != NDT_FLOAT64 && a->ct != NDT_COMPLEX128) || a->n < 1 || a->n > 46340 ||
      a->m != a->n || a->nout != 1 || a->nin != (a->op == NDT_LINALG_SOLVE ? 2 : 1) ||
      a->nbd + 2 > NDT_DK_LINES_MAXD || a->out[0].dtype < NDT_FLOAT32 || a->k > INT_MAX)
    return 0;
  for (int i = 0; i < a->nin; i++)
    if (a->in[i].dtype < NDT_BOOL || a->in[i].dtype > NDT_COMPLEX128) return 0;
  pthread_once(&csv.once, csv_load);
  if (a->op != NDT_LINALG_CHOLESKY && a->n <= NDT_LA_BATCH_N)
    pthread_once(&cbl.once, cbl_load);   /* (the batched LU is cuBLAS's) */
  return csv.ok && atomic_load(&csv_state[d - cdev]) >= 0;
}

/* A matrix operand's columns as lines: the block's view v (batch axes,
 * then rows, cols) bound at b, into or out of a buffer of column-major
 * matrices (ld n, mst elements apart). */
static void la_side(ndt_dk_lines *c, const ndt_array *v, const ndt_bound *b, int64_t n,
                    int64_t mst) {
  int nd = v->ndim;
  int64_t nmat = 1;
  for (int k = 0; k < nd - 2; k++) nmat *= v->shape[k];
  int64_t cols = v->shape[nd - 1];
  c->lines = nmat * cols;
  c->len = c->ldb = n;
  c->lpm = cols;
  c->mst = mst;
  c->t = v->dtype;
  lines_side(c, v->shape, nd, nd - 2, b, n, ndt_dk_dtype_size(c->t));
}

/* One task (linalg.c's la_body for solve, inv, cholesky), d->run held; bh
 * d's cuBLAS handle when cuBLAS has the batched LU, else NULL. */
static ndt_status la_task(cuda_dev *d, csv_handle h, cbl_handle bh, ndt_bound *b,
                          const la_arg *a) {
  int cx = a->ct == NDT_COMPLEX128, chol = a->op == NDT_LINALG_CHOLESKY;
  int inv = a->op == NDT_LINALG_INV;
  int64_t n = a->n, k = inv ? n : a->k, esz = cx ? 16 : 8;
  int64_t nmat = 1;
  for (int i = 0; i < a->nbd; i++) nmat *= a->out[0].shape[i];
  int bat = n <= NDT_LA_BATCH_N && nmat <= INT_MAX / 2 &&
            (chol ? csv.potrf_batched[cx] != NULL : bh != NULL);
  /* A's matrices n(n+1) elements apart (the diagonals of all of them one
   * run of step n + 1) */
  int64_t ast = n * (n + 1), bst = n * k;
  int lwork = 0, nn = (int)n, upper = (a->flags & NDT_LINALG_UPPER) != 0;
  size_t ab = (size_t)(nmat * ast * esz), bb = chol ? 0 : (size_t)(nmat * bst * esz);
  size_t pb = (size_t)(nmat * n) * sizeof(int), ib = (size_t)(2 * nmat + 1) * sizeof(int);
  size_t tb = bat ? (size_t)(2 * nmat) * sizeof(void *) : 0;   /* the batched calls' arrays */
  ab = (ab + 255) / 256 * 256;
  bb = (bb + 255) / 256 * 256;
  pb = (pb + 255) / 256 * 256;
  ib = (ib + 255) / 256 * 256;
  char *A = dev_malloc(d, ab + bb + pb + ib + tb), *W = NULL;
  int *hinfo = malloc(ib);
  void **htab = bat ? malloc(tb) : NULL;
  int rc = 0;
  if (A && !bat) {
    rc = chol ? csv.potrf_bs[cx](h, upper, nn, A, nn, &lwork)
              : csv.getrf_bs[cx](h, nn, nn, A, nn, &lwork);
    if (rc == 0) W = dev_malloc(d, (size_t)(lwork > 0 ? lwork : 1) * (size_t)esz);
  }
  if (!A || (!bat && !W) || !hinfo || (bat && !htab)) {
    if (A && !atomic_load(&d->dead)) cudaFreeAsync(A, d->stream);
    free(hinfo);
    free(htab);
    char msg[128];
    snprintf(msg, sizeof msg, "no memory or workspace (cuSOLVER status %d) for a linalg task: "
             "it runs on the CPU", rc);
    return host->error(NDT_ERR_NOMEM, msg);
  }
  char *B = A + ab;
  int *ipiv = (int *)(B + bb), *info = (int *)((char *)ipiv + pb);
  void **tab = (void **)((char *)info + ib);   /* [A's matrices, B's (or C's)] */
  ndt_status st = NDT_OK;
  if (bat) {   /* the pointer arrays, in device memory as the calls need them */
    for (int64_t q = 0; q < nmat; q++) {
      htab[q] = A + q * ast * esz;
      htab[nmat + q] = chol ? NULL : B + q * bst * esz;
    }
    cudaError_t e = cudaMemcpyAsync(tab, htab, tb, cudaMemcpyHostToDevice, d->stream);
    if (e != cudaSuccess) st = disable(d, e, "a linalg task");
  }
  ndt_dk_lines c;
  memset(&c, 0, sizeof c);
  c.cplx = cx;
  c.zi = -1;
  c.buf = A;
  c.bbytes = (int64_t)ab;
  c.nval = n;
  la_side(&c, &a->in[0], &b[0], n, ast);
  if (st == NDT_OK) st = lines_copy(d, &c, "a linalg task");
  if (st == NDT_OK && !chol && !(bat && inv)) {   /* (getriBatched writes all of C) */
    memset(&c, 0, sizeof c);
    c.cplx = cx;
    c.zi = -1;
    c.buf = B;
    c.bbytes = (int64_t)bb;
    if (a->op == NDT_LINALG_SOLVE) {
      c.nval = n;
      la_side(&c, &a->in[1], &b[1], n, bst);
    } else {   /* inv: the identity, nothing read */
      c.lines = nmat * n;
      c.len = c.ldb = c.lpm = n;
      c.mst = bst;
      c.eye = 1;
      c.s = B;
    }
    st = lines_copy(d, &c, "a linalg task");
  }
  const char *lib = "cuSOLVER";
  if (bat && st == NDT_OK) {   /* one call (two for LU) for all the block's matrices */
    int nb = (int)nmat, rsinfo = 0;
    if (chol) {
      rc = csv.potrf_batched[cx](h, upper, nn, tab, nn, info, nb);
    } else {
      lib = "cuBLAS";
      rc = cbl.getrf_b[cx](bh, nn, tab, nn, ipiv, info, nb);
      if (rc == 0 && inv)
        rc = cbl.getri_b[cx](bh, nn, (const void *const *)tab, nn, ipiv, tab + nmat, nn,
                             info + nmat, nb);
      else if (rc == 0)
        rc = cbl.getrs_b[cx](bh, CBL_OP_N, nn, (int)k, (const void *const *)tab, nn, ipiv,
                             tab + nmat, nn, &rsinfo, nb);
      if (rc == 0 && rsinfo < 0) rc = -1;
    }
    if (rc) {
      st = lib_failed(lib, rc, chol ? CSV_ALLOC_FAILED : CBL_ALLOC_FAILED);
    } else {
      cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) st = disable(d, e, "a linalg task");
    }
  }
  for (int64_t q = 0; q < nmat && st == NDT_OK && !bat; q++) {
    char *Aq = A + q * ast * esz;
    if (chol) {
      rc = csv.potrf[cx](h, upper, nn, Aq, nn, W, lwork, info + q);
    } else {
      rc = csv.getrf[cx](h, nn, nn, Aq, nn, W, ipiv + q * n, info + q);
      if (rc == 0)
        rc = csv.getrs[cx](h, 0, nn, (int)k, Aq, nn, ipiv + q * n, B + q * bst * esz, nn,
                           info + 2 * nmat);
    }
    if (rc) {
      st = lib_failed("cuSOLVER", rc, CSV_ALLOC_FAILED);
    } else {
      cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) st = disable(d, e, "a linalg task");
    }
  }
  if (st == NDT_OK) {   /* the result, then the infos and diagonals back */
    memset(&c, 0, sizeof c);
    c.unpack = 1;
    c.cplx = cx;
    c.zi = -1;
    c.scale = 1;
    c.buf = chol ? A : B;
    c.bbytes = (int64_t)(chol ? ab : bb);
    c.tri = chol ? (upper ? 2 : 1) : 0;
    la_side(&c, &a->out[0], &b[a->nin], n, chol ? ast : bst);
    st = lines_copy(d, &c, "a linalg task");
  }
  if (st == NDT_OK) {
    cudaError_t e = cudaMemcpyAsync(hinfo, info, (size_t)nmat * sizeof(int),
                                    cudaMemcpyDeviceToHost, d->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
    if (e != cudaSuccess) st = disable(d, e, "a linalg task");
  } else if (htab && !atomic_load(&d->dead)) {
    cudaStreamSynchronize(d->stream);   /* (the copy of htab done before it is freed) */
  }
  for (int64_t q = 0; q < nmat && st == NDT_OK; q++) {
    if (hinfo[q] > 0)
      st = host->error(NDT_ERR_LINALG,
                       chol ? "Matrix is not positive definite" : "Singular matrix");
    else if (hinfo[q] < 0)
      st = host->error(NDT_ERR_INTERNAL, "cuSOLVER rejected an argument");
  }
  if (!atomic_load(&d->dead)) {
    if (W) cudaFreeAsync(W, d->stream);
    cudaFreeAsync(A, d->stream);
  }
  free(hinfo);
  free(htab);
  return st;
}

/* one task (run_members, cuda.c): the device's cuSOLVER handle, made at
 * its first task */
static ndt_status la_member(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  (void)ctx;
  const la_arg *a = arg;
  csv_handle h = csv_handle_for(d);
  if (!h) return host->error(NDT_ERR_NOMEM, "no cuSOLVER handle: the task runs on the CPU");
  int cx = a->ct == NDT_COMPLEX128;
  cbl_handle bh = NULL;   /* (none: solve and inv per matrix through cuSOLVER) */
  if (a->op != NDT_LINALG_CHOLESKY && a->n <= NDT_LA_BATCH_N && cbl.ok && cbl.getrf_b[cx] &&
      cbl.getrs_b[cx] && cbl.getri_b[cx])
    bh = cbl_handle_for(d);
  return la_task(d, h, bh, b, arg);
}

/* n tasks on d (one alone, or a grouped task's members), in order, then
 * one wait. */
static ndt_status la_run(cuda_dev *d, ndt_bound *b, int n, const int *nop, void *const *args) {
  return run_members(d, "a linalg task", 0, la_member, NULL, b, n, nop, args);
}

static int la_kind(const ndt_task_kind *k) { return !strcmp(k->name, "linalg"); }

static ndt_status la_dev_body(ndt_bound *b, void *argp) {
  const la_arg *a = argp;
  int nop = a->nin + a->nout;
  return la_run(b[a->nin].mem->context, b, 1, &nop, &argp);
}
