/* cuda_matmul.h - a part of the CUDA plugin (included once, by cuda.c,
 * after its memory and launch helpers): matrix products, the float ones
 * through cuBLAS.
 *
 * The tasks of src/ops/matmul.c (their argument: ops/matmul.h) with the
 * CPU's blocks and K pieces, so a result depends on the program only:
 *   "matmul block"   per batch, per K piece in order: gemm with beta = 0
 *                    for the first piece and beta = 1 after, on the
 *                    device's stream; float32, float64, complex64 and
 *                    complex128 (S/D/C/Zgemm);
 *   "matmul pack"    an operand's region copied (and cast) into its packed
 *                    copy on the device;
 *   "matmul copyout" a row block copied from the staging buffer into C;
 *   "matvec"         a row block of a matrix times a vector (gemm with one
 *                    row: y^T = v^T R^T, or a partial R^T v), float32 and
 *                    float64; "matvec combine" (the partials summed in
 *                    block order) stays on the CPU.
 * Integer and bool products run the device's own kernel
 * (src/kernels/cuda/gemm_impl.h: wrapping sums, or-of-ands) with the CPU's
 * bits, and need no cuBLAS.
 *
 * A piece is used in place when it lies in ONE tile of the device copy
 * (never "tiles adjacent in memory": device addresses change from run to
 * run, and with them cuBLAS's choice of kernel and its bits), with a BLAS
 * layout; otherwise it is gathered into device scratch by the cast kernel
 * (ew_impl.h, a copy over 2-d runs, one per tile a row crosses), which also
 * casts an operand of another dtype into the compute dtype. The same layout
 * then reaches cuBLAS on every run, and cuBLAS gives the same bits run to
 * run for the same calls on one GPU model (one handle per device, on the
 * device's stream). The bits differ from the CPU's (OpenBLAS): the stated
 * bound is |C - C_cpu| <= 2 (K + 2) eps (|A| |B|) elementwise (the CPU's
 * and the device's errors, each at most (K + 2) eps |A||B| to first order,
 * the 2 for the complex products; tests/c/test_cudamatmul.c,
 * tests/python/test_cuda_matmul.py).
 *
 * TF32 stays off (CUBLAS_DEFAULT_MATH: full float32 products) unless
 * NDTILE_CUDA_TF32=1 asks for CUBLAS_TF32_TENSOR_OP_MATH.
 *
 * cuBLAS is no dependency of the plugin: it is dlopened at the first
 * product a device is offered (NDTILE_CUDA_CUBLAS names the file; else
 * libcublas.so.13, then libcublas.so). When it cannot be loaded, supports
 * refuses the float products (they run on the CPU), NDTILE_VERBOSE=1 says why
 * once, and every other task keeps running on the devices. A device's
 * handle is made at its first product; one that cannot be made sends that
 * device's products to the CPU.
 *
 * Floating-point flags: cuBLAS reports none, so a product that overflows
 * on a device does not warn as NumPy (and the CPU) do. */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include "ops/matmul.h"
#include "kernels/cuda/gemm_impl.h"

/* src/kernels/cuda/gemm_impl.h: the integer and bool products */
int ndt__dk_gemm(const ndt_dk_glaunch *L, void *stream);

#ifndef NDT_CUBLAS_NAMES
#define NDT_CUBLAS_NAMES "libcublas.so.13", "libcublas.so"
#endif

/* the cuBLAS API subset (cublas_api.h: the _v2 entry points), by value */
typedef void *cbl_handle;
typedef struct { float x, y; } cbl_c;
typedef struct { double x, y; } cbl_z;
enum { CBL_OP_N = 0, CBL_OP_T = 1 };
enum { CBL_DEFAULT_MATH = 0, CBL_TF32_TENSOR_OP_MATH = 3 };
#define CBL_GEMM(T, NAME)                                                                    \
  typedef int (*NAME)(cbl_handle, int, int, int, int, int, const T *, const T *, int,        \
                      const T *, int, const T *, T *, int)
CBL_GEMM(float, cbl_sgemm_fn);
CBL_GEMM(double, cbl_dgemm_fn);
CBL_GEMM(cbl_c, cbl_cgemm_fn);
CBL_GEMM(cbl_z, cbl_zgemm_fn);

static struct {
  pthread_once_t once;
  int ok;                 /* loaded */
  int tf32;               /* NDTILE_CUDA_TF32=1 */
  char why[512];
  int (*create)(cbl_handle *);
  int (*set_stream)(cbl_handle, cudaStream_t);
  int (*set_math)(cbl_handle, int);
  cbl_sgemm_fn sgemm;
  cbl_dgemm_fn dgemm;
  cbl_cgemm_fn cgemm;
  cbl_zgemm_fn zgemm;
  /* the batched LU of cuda_linalg.h, [0] D, [1] Z (optional: solve and inv
   * go per matrix through cuSOLVER without them) */
  int (*getrf_b[2])(cbl_handle, int, void *const *, int, int *, int *, int);
  int (*getrs_b[2])(cbl_handle, int, int, int, const void *const *, int, const int *,
                    void *const *, int, int *, int);
  int (*getri_b[2])(cbl_handle, int, const void *const *, int, const int *, void *const *, int,
                    int *, int);
} cbl = {.once = PTHREAD_ONCE_INIT};

/* A library call's failure (status rc): an error naming lib; a library
 * that could not get device memory (its status alloc, e.g.
 * CUBLAS_STATUS_ALLOC_FAILED) is NDT_ERR_NOMEM, the core's fallback to
 * the CPU, as a full device is for the plugin's own allocations (also
 * cuda_fft.h's and cuda_linalg.h's). */
static ndt_status lib_failed(const char *lib, int rc, int alloc) {
  char msg[128];
  snprintf(msg, sizeof msg, "%s failed (status %d)%s", lib, rc,
           rc == alloc ? ": no device memory for it, the task runs on the CPU" : "");
  return host->error(rc == alloc ? NDT_ERR_NOMEM : NDT_ERR_INTERNAL, msg);
}
enum { CBL_ALLOC_FAILED = 3, CFT_ALLOC_FAILED = 2, CSV_ALLOC_FAILED = 2 };

/* a device's handle: 0 not made yet, 1 made, -1 cannot be made */
static cbl_handle cbl_handle_of[NDT__MAX_DEVS];
static atomic_int cbl_state[NDT__MAX_DEVS];

/* A CUDA library's file (cuBLAS here, cuFFT in cuda_fft.h): the setting
 * var names it, else the loader's search for names; a bare name is looked
 * for next to the plugin first (the host build's emulations lie there). */
static void *lib_open(const char *var, const char *const *names, int nn, char *why,
                      size_t cap) {
  const char *env = getenv(var);
  int n = env && *env ? 1 : nn;
  size_t at = 0;
  why[0] = 0;
  for (int i = 0; i < n; i++) {
    const char *name = env && *env ? env : names[i];
    char path[1024];
    Dl_info info;
    void *h = NULL;
    if (!strchr(name, '/') && dladdr((void *)lib_open, &info) && info.dli_fname &&
        strrchr(info.dli_fname, '/')) {
      int dl = (int)(strrchr(info.dli_fname, '/') - info.dli_fname);
      snprintf(path, sizeof path, "%.*s/%s", dl, info.dli_fname, name);
      h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    if (!h) h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
    const char *e = dlerror();
    if (at < cap) at += (size_t)snprintf(why + at, cap - at, "%s%s", at ? "; " : "", e ? e : name);
  }
  return NULL;
}

static void cbl_load(void) {
  const char *t = getenv("NDTILE_CUDA_TF32");
  cbl.tf32 = t && !strcmp(t, "1");
  char why[400];
  static const char *const names[] = {NDT_CUBLAS_NAMES};
  void *h = lib_open("NDTILE_CUDA_CUBLAS", names, (int)(sizeof names / sizeof *names), why,
                     sizeof why);
  if (!h) {
    snprintf(cbl.why, sizeof cbl.why, "cuBLAS could not be loaded (%s): matrix products run "
             "on the CPU", why);
    host->verbose(cbl.why);
    return;
  }
  *(void **)&cbl.create = dlsym(h, "cublasCreate_v2");
  *(void **)&cbl.set_stream = dlsym(h, "cublasSetStream_v2");
  *(void **)&cbl.set_math = dlsym(h, "cublasSetMathMode");
  *(void **)&cbl.sgemm = dlsym(h, "cublasSgemm_v2");
  *(void **)&cbl.dgemm = dlsym(h, "cublasDgemm_v2");
  *(void **)&cbl.cgemm = dlsym(h, "cublasCgemm_v2");
  *(void **)&cbl.zgemm = dlsym(h, "cublasZgemm_v2");
  static const char *const lu[3][2] = {{"cublasDgetrfBatched", "cublasZgetrfBatched"},
                                       {"cublasDgetrsBatched", "cublasZgetrsBatched"},
                                       {"cublasDgetriBatched", "cublasZgetriBatched"}};
  for (int t = 0; t < 2; t++) {
    *(void **)&cbl.getrf_b[t] = dlsym(h, lu[0][t]);
    *(void **)&cbl.getrs_b[t] = dlsym(h, lu[1][t]);
    *(void **)&cbl.getri_b[t] = dlsym(h, lu[2][t]);
  }
  if (!cbl.create || !cbl.set_stream || !cbl.set_math || !cbl.sgemm || !cbl.dgemm ||
      !cbl.cgemm || !cbl.zgemm) {
    snprintf(cbl.why, sizeof cbl.why, "cuBLAS lacks cublasCreate_v2, cublasSetStream_v2, "
             "cublasSetMathMode or a gemm: matrix products run on the CPU");
    host->verbose(cbl.why);
    dlclose(h);
    return;
  }
  cbl.ok = 1;   /* (the library stays loaded for the program's life) */
  host->verbose(cbl.tf32 ? "cuBLAS loaded for matrix products (TF32 on: NDTILE_CUDA_TF32=1)"
                         : "cuBLAS loaded for matrix products (TF32 off)");
}

/* d's handle, made at its first product on its stream (d->run held);
 * NULL when it cannot be made (the device's products go to the CPU) */
static cbl_handle cbl_handle_for(cuda_dev *d) {
  int i = (int)(d - cdev);
  if (atomic_load(&cbl_state[i]) == 0) {
    cbl_handle h = NULL;
    int rc = cbl.create(&h);
    if (rc == 0) rc = cbl.set_stream(h, d->stream);
    if (rc == 0) rc = cbl.set_math(h, cbl.tf32 ? CBL_TF32_TENSOR_OP_MATH : CBL_DEFAULT_MATH);
    if (rc == 0) {
      cbl_handle_of[i] = h;
      atomic_store(&cbl_state[i], 1);
    } else {
      char msg[160];
      snprintf(msg, sizeof msg, "cuBLAS: no handle for CUDA device %d (status %d): its matrix "
               "products run on the CPU", d->dev, rc);
      host->verbose(msg);
      atomic_store(&cbl_state[i], -1);
    }
  }
  return atomic_load(&cbl_state[i]) == 1 ? cbl_handle_of[i] : NULL;
}

static int mm_float(int t) {
  return t == NDT_FLOAT32 || t == NDT_FLOAT64 || t == NDT_COMPLEX64 || t == NDT_COMPLEX128;
}

/* integer and bool products: the device's own kernel (gemm_impl.h) */
static int mm_exact(int t) { return t >= NDT_BOOL && t <= NDT_UINT64; }

/* 1 when the device takes a product task of this kind (what: 1 block,
 * 2 pack, 3 copy-out, 4 matvec) */
static int mm_supports(cuda_dev *d, int what, const void *arg) {
  if (what != 4 && mm_exact(((const mm_arg *)arg)->ct)) return 1;   /* no cuBLAS needed */
  pthread_once(&cbl.once, cbl_load);
  if (!cbl.ok || atomic_load(&cbl_state[d - cdev]) < 0) return 0;
  if (what == 4) {
    const mv_arg *m = arg;
    return (m->t == NDT_FLOAT32 || m->t == NDT_FLOAT64) && m->v.store &&
           (m->v.shape[0] <= 1 || m->v.strides[0] > 0) && m->cols <= INT_MAX &&
           m->r.shape[0] <= INT_MAX;
  }
  return mm_float(((const mm_arg *)arg)->ct);
}

/* A matrix as cuBLAS takes it: element strides, one of them 1. */
typedef struct {
  char *p;
  int64_t rs, cs;
} mm_mat;

/* (the kernel table's ndt_mat_blas_ok) */
static int mm_blas_ok(int64_t R, int64_t C, int64_t *rs, int64_t *cs) {
  int64_t c1 = C > 1 ? C : 1, r1 = R > 1 ? R : 1;
  if (R == 1) *rs = *cs == 1 ? c1 : 1;
  if (C == 1) *cs = *rs == 1 ? r1 : 1;
  int ok = (*cs == 1 && *rs >= c1) || (*rs == 1 && *cs >= r1);
  return ok && *rs <= INT_MAX && *cs <= INT_MAX && R <= INT_MAX && C <= INT_MAX;
}

/* the tile of b's store that holds element f, and its device buffer */
static const ndt_tile *mm_tile(const ndt_bound *b, int64_t f, char **base) {
  const ndt_store *s = b->view->store;
  const ndt_tile *tl = &s->tiles[ndt_store_tile_of(s, f)];
  *base = ndt_tile_mem(tl, b->mem);
  return tl;
}

/* The region (R x C at element off, store-element strides rs, cs) of b in
 * place: in one tile, of dtype ct, with a BLAS layout. */
static int mm_direct(const ndt_bound *b, int64_t off, int64_t R, int64_t C, int64_t rs,
                     int64_t cs, int ct, mm_mat *x) {
  const ndt_array *v = b->view;
  if ((int)v->dtype != ct) return 0;
  int64_t lo, hi;
  ndt_mm_extent2(off, R, C, rs, cs, &lo, &hi);
  const ndt_store *s = v->store;
  if (ndt_store_tile_of(s, lo) != ndt_store_tile_of(s, hi)) return 0;
  int ssz = s->itemsize, csz = ndt_dk_dtype_size(ct);
  int64_t brs = R == 1 ? 0 : rs * ssz, bcs = C == 1 ? 0 : cs * ssz;
  if (brs % csz || bcs % csz) return 0;
  int64_t ers = brs / csz, ecs = bcs / csz;
  if (!mm_blas_ok(R, C, &ers, &ecs)) return 0;
  char *base;
  const ndt_tile *tl = mm_tile(b, off, &base);
  if (!base) return 0;
  x->p = base + (off - tl->start) * ssz + v->part;
  x->rs = ers;
  x->cs = ecs;
  return 1;
}

/* The runs of one copy (the cast kernel over 2-d runs: operand 0 the
 * source, 1 the destination). */
typedef struct {
  int from, to;
  ndt_dk_launch L;
} mm_copy;

static ndt_status mm_copy_launch(cuda_dev *d, mm_copy *q) {
  if (!q->L.nrun) return NDT_OK;
  int rc = ndt__dk_cast(q->from, q->to, &q->L, d->flags, d->stream);
  q->L.nrun = 0;
  if (rc) return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this copy");
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : disable(d, e, "a kernel launch");
}

static ndt_status mm_copy_run(cuda_dev *d, mm_copy *q, int64_t rows, int64_t cols, char *src,
                              int64_t srs, int64_t scs, char *dst, int64_t drs, int64_t dcs) {
  if (q->L.nrun == NDT_DK_MAXRUNS) {
    ndt_status s = mm_copy_launch(d, q);
    if (s) return s;
  }
  q->L.run[q->L.nrun++] = (ndt_dk_run){.rows = rows, .cols = cols, .p = {src, dst},
                                       .rs = {srs, drs}, .cs = {scs, dcs}};
  return NDT_OK;
}

/* Copies between a region of b (R x C at element off, store-element
 * strides rs, cs) and a device buffer of dtype bdt at byte strides brs,
 * bcs, casting (matmul.c's xfer2d on the device): rows along the axis with
 * the smaller stride; rows that lie in one tile together are one run, a
 * row that crosses tiles one run per tile. Launched before it returns. */
static ndt_status mm_xfer(cuda_dev *d, mm_copy *q, const ndt_bound *b, int64_t off, int64_t R,
                          int64_t C, int64_t rs, int64_t cs, char *buf, int64_t brs,
                          int64_t bcs, int bdt, int to_buf) {
  const ndt_array *v = b->view;
  const ndt_store *s = v->store;
  if (R <= 0 || C <= 0) return NDT_OK;
  int ssz = s->itemsize;
  if ((C == 1 && R > 1) || (R > 1 && C > 1 && llabs(rs) < llabs(cs))) {
    int64_t t = R; R = C; C = t;
    t = rs; rs = cs; cs = t;
    t = brs; brs = bcs; bcs = t;
  }
  q->from = to_buf ? (int)v->dtype : bdt;
  q->to = to_buf ? bdt : (int)v->dtype;
  q->L.nrun = 0;
  ndt_status st = NDT_OK;
  for (int64_t r = 0; r < R && st == NDT_OK;) {
    int64_t f = off + r * rs, lo, hi;
    ndt_mm_extent2(f, 1, C, rs, cs, &lo, &hi);
    int64_t t = ndt_store_tile_of(s, lo);
    char *base;
    const ndt_tile *tl = mm_tile(b, f, &base);
    if (!base) return host->error(NDT_ERR_INTERNAL, "a walked tile has no device copy");
    if (ndt_store_tile_of(s, hi) == t) {   /* whole rows in this tile */
      int64_t n = 1;
      while (r + n < R) {
        ndt_mm_extent2(f + n * rs, 1, C, rs, cs, &lo, &hi);
        if (ndt_store_tile_of(s, lo) != t || ndt_store_tile_of(s, hi) != t) break;
        n++;
      }
      char *tp = base + (f - tl->start) * ssz + v->part, *bp = buf + r * brs;
      st = to_buf ? mm_copy_run(d, q, n, C, tp, rs * ssz, cs * ssz, bp, brs, bcs)
                  : mm_copy_run(d, q, n, C, bp, brs, bcs, tp, rs * ssz, cs * ssz);
      r += n;
      continue;
    }
    /* a row across tiles: a run per tile (tiles are ranges of the flat
     * elements, so a run with step cs leaves one once) */
    for (int64_t j = 0; j < C && st == NDT_OK;) {
      int64_t fj = f + j * cs;
      tl = mm_tile(b, fj, &base);
      if (!base) return host->error(NDT_ERR_INTERNAL, "a walked tile has no device copy");
      int64_t n = C - j;
      if (cs > 0) n = ndt_mm_min(n, (tl->start + tl->len - 1 - fj) / cs + 1);
      else if (cs < 0) n = ndt_mm_min(n, (fj - tl->start) / -cs + 1);
      char *tp = base + (fj - tl->start) * ssz + v->part, *bp = buf + r * brs + j * bcs;
      st = to_buf ? mm_copy_run(d, q, 1, n, tp, 0, cs * ssz, bp, 0, bcs)
                  : mm_copy_run(d, q, 1, n, bp, 0, bcs, tp, 0, cs * ssz);
      j += n;
    }
    r++;
  }
  if (st == NDT_OK) st = mm_copy_launch(d, q);
  return st;
}

/* c (+)= a @ b (R x K times K x C) through cuBLAS, column-major: a
 * row-major c is computed as c^T = b^T a^T. */
static ndt_status mm_gemm(cuda_dev *d, cbl_handle h, int ct, int64_t R, int64_t C, int64_t K,
                          mm_mat a, mm_mat b, mm_mat c, int acc) {
  int m, n, opx, opy, ldx, ldy, ldc;
  const char *x, *y;
  if (c.rs == 1) {   /* c column-major: c = a b */
    m = (int)R, n = (int)C, ldc = (int)c.cs;
    x = a.p, opx = a.rs == 1 ? CBL_OP_N : CBL_OP_T, ldx = (int)(a.rs == 1 ? a.cs : a.rs);
    y = b.p, opy = b.rs == 1 ? CBL_OP_N : CBL_OP_T, ldy = (int)(b.rs == 1 ? b.cs : b.rs);
  } else {           /* c row-major: c^T = b^T a^T */
    m = (int)C, n = (int)R, ldc = (int)c.rs;
    x = b.p, opx = b.cs == 1 ? CBL_OP_N : CBL_OP_T, ldx = (int)(b.cs == 1 ? b.rs : b.cs);
    y = a.p, opy = a.cs == 1 ? CBL_OP_N : CBL_OP_T, ldy = (int)(a.cs == 1 ? a.rs : a.cs);
  }
  if (mm_exact(ct)) {   /* one launch: the K pieces of a block are in order on the stream */
    static _Thread_local ndt_dk_glaunch L;
    int es = ndt_dk_dtype_size(ct);
    L.nrun = 1;
    L.t = ct == NDT_BOOL ? 0 : es;
    L.run[0] = (ndt_dk_grun){.R = R, .C = C, .K = K, .a = a.p, .b = b.p, .c = c.p,
                             .ars = a.rs * es, .acs = a.cs * es, .brs = b.rs * es,
                             .bcs = b.cs * es, .crs = c.rs * es, .ccs = c.cs * es, .acc = acc};
    if (ndt__dk_gemm(&L, d->stream)) return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this product");
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? NDT_OK : disable(d, e, "a kernel launch");
  }
  int k = (int)K, rc;
  switch (ct) {
    case NDT_FLOAT32: {
      float one = 1, beta = acc ? 1.0f : 0.0f;
      rc = cbl.sgemm(h, opx, opy, m, n, k, &one, (const float *)x, ldx, (const float *)y, ldy,
                     &beta, (float *)c.p, ldc);
      break;
    }
    case NDT_FLOAT64: {
      double one = 1, beta = acc ? 1.0 : 0.0;
      rc = cbl.dgemm(h, opx, opy, m, n, k, &one, (const double *)x, ldx, (const double *)y,
                     ldy, &beta, (double *)c.p, ldc);
      break;
    }
    case NDT_COMPLEX64: {
      cbl_c one = {1, 0}, beta = {acc ? 1.0f : 0.0f, 0};
      rc = cbl.cgemm(h, opx, opy, m, n, k, &one, (const cbl_c *)x, ldx, (const cbl_c *)y, ldy,
                     &beta, (cbl_c *)c.p, ldc);
      break;
    }
    default: {
      cbl_z one = {1, 0}, beta = {acc ? 1.0 : 0.0, 0};
      rc = cbl.zgemm(h, opx, opy, m, n, k, &one, (const cbl_z *)x, ldx, (const cbl_z *)y, ldy,
                     &beta, (cbl_z *)c.p, ldc);
      break;
    }
  }
  if (rc) return lib_failed("cuBLAS gemm", rc, CBL_ALLOC_FAILED);
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : disable(d, e, "a matrix product");
}

/* Device scratch for one body (outside the budget, as a gather's), made
 * at first use. */
typedef struct {
  char *p;
  size_t n;
} mm_scratch;

static ndt_status mm_scratch_get(cuda_dev *d, mm_scratch *s, size_t n) {
  if (!s->p) {
    s->p = dev_malloc(d, n);
    s->n = n;
  }
  return s->p ? NDT_OK : NDT_ERR_NOMEM;
}

static void mm_scratch_put(cuda_dev *d, mm_scratch *s) {
  if (s->p && !atomic_load(&d->dead)) cudaFreeAsync(s->p, d->stream);
  s->p = NULL;
}

/* the device address of byte offset f of a one-tile byte store (a packed
 * copy, the staging buffer) */
static char *mm_bytes_at(const ndt_bound *b, int64_t f) {
  char *base;
  const ndt_tile *tl = mm_tile(b, f, &base);
  return base ? base + (f - tl->start) : NULL;
}

/* Operand w's piece (rows r0.., cols c0..) of batch bi: packed, in place,
 * or gathered into scratch (matmul.c's piece). */
static ndt_status mm_piece(cuda_dev *d, mm_copy *q, const mm_arg *m, const ndt_bound *b, int w,
                           int64_t bi, int64_t r0, int64_t R, int64_t c0, int64_t C,
                           mm_scratch *sc, size_t bytes, mm_mat *x) {
  const ndt_array *v = &m->op[w];
  int nbd = m->nbd, csz = ndt_dk_dtype_size(m->ct);
  int64_t VR = v->shape[nbd], VC = v->shape[nbd + 1];
  if (m->pk[w]) {
    char *base = mm_bytes_at(b, ndt_mm_own_index(m, w, bi) * VR * VC * csz);
    if (!base) return host->error(NDT_ERR_INTERNAL, "a packed operand has no device copy");
    if (m->pk_cm[w]) *x = (mm_mat){base + (r0 + c0 * VR) * csz, 1, VR};
    else *x = (mm_mat){base + (r0 * VC + c0) * csz, VC, 1};
    mm_blas_ok(R, C, &x->rs, &x->cs);
    return NDT_OK;
  }
  int64_t rs = v->strides[nbd], cs = v->strides[nbd + 1];
  int64_t off = ndt_mm_batch_off(m, v, bi) + r0 * rs + c0 * cs;
  if (mm_direct(b, off, R, C, rs, cs, m->ct, x)) return NDT_OK;
  ndt_status st = mm_scratch_get(d, sc, bytes);
  if (st) return st;
  int cm = R > 1 && C > 1 && llabs(rs) < llabs(cs);
  *x = (mm_mat){sc->p, cm ? 1 : C, cm ? R : 1};
  ndt_status s = mm_xfer(d, q, b, off, R, C, rs, cs, sc->p, x->rs * csz, x->cs * csz, m->ct, 1);
  mm_blas_ok(R, C, &x->rs, &x->cs);   /* (a row or a column: its leading dimension) */
  return s;
}

/* One output block (matmul.c's block_body), d->run held. */
static ndt_status mm_block(cuda_dev *d, cbl_handle h, mm_copy *q, ndt_bound *op, const mm_arg *m) {
  const mm_grid *g = &m->g;
  int ct = m->ct, nbd = m->nbd, csz = ndt_dk_dtype_size(ct);
  const ndt_array *cv = &m->op[2];
  int64_t i0 = m->t1 * g->mb, mi = ndt_mm_min(g->mb, g->M - i0);
  int64_t j0 = m->t2 * g->nb, nj = ndt_mm_min(g->nb, g->N - j0);
  int64_t b0 = m->t0 * g->gsize, b1 = ndt_mm_min(m->nbatch, b0 + g->gsize);
  int64_t crs = cv->strides[nbd], ccs = cv->strides[nbd + 1];
  size_t abytes = (size_t)(mi * g->kb * csz), bbytes = (size_t)(g->kb * nj * csz);
  size_t cbytes = (size_t)(mi * nj * csz);
  mm_scratch sa = {0}, sb = {0}, sc = {0};
  ndt_status st = NDT_OK;
  for (int64_t bi = b0; bi < b1 && st == NDT_OK; bi++) {
    mm_mat c;
    int64_t coff = 0;
    int c_scratch = 0;
    if (m->stage) {
      c.p = mm_bytes_at(&op[2], (bi * g->M * g->N + i0 * g->N + j0 * mi) * csz);
      c.rs = nj;
      c.cs = 1;
      mm_blas_ok(mi, nj, &c.rs, &c.cs);
      if (!c.p) st = host->error(NDT_ERR_INTERNAL, "the staging buffer has no device copy");
    } else {
      coff = ndt_mm_batch_off(m, cv, bi) + i0 * crs + j0 * ccs;
      if (!mm_direct(&op[2], coff, mi, nj, crs, ccs, ct, &c)) {
        st = mm_scratch_get(d, &sc, cbytes);
        c = (mm_mat){sc.p, nj, 1};
        mm_blas_ok(mi, nj, &c.rs, &c.cs);
        c_scratch = 1;
      }
    }
    for (int64_t kp = 0; kp < g->nK && st == NDT_OK; kp++) {
      int64_t k0 = kp * g->kb, kl = ndt_mm_min(g->kb, g->K - k0);
      mm_mat a, b;
      st = mm_piece(d, q, m, &op[0], 0, bi, i0, mi, k0, kl, &sa, abytes, &a);
      if (st == NDT_OK) st = mm_piece(d, q, m, &op[1], 1, bi, k0, kl, j0, nj, &sb, bbytes, &b);
      if (st == NDT_OK) st = mm_gemm(d, h, ct, mi, nj, kl, a, b, c, kp > 0);
    }
    if (st == NDT_OK && c_scratch)
      st = mm_xfer(d, q, &op[2], coff, mi, nj, crs, ccs, c.p, nj * csz, csz, ct, 0);
  }
  mm_scratch_put(d, &sa);
  mm_scratch_put(d, &sb);
  mm_scratch_put(d, &sc);
  return st;
}

/* matmul.c's pack_body: a chunk of operand which's own matrix t0 into its
 * packed copy */
static ndt_status mm_pack(cuda_dev *d, mm_copy *q, ndt_bound *op, const mm_arg *m) {
  int w = m->which, nbd = m->nbd, csz = ndt_dk_dtype_size(m->ct);
  const ndt_array *v = &m->op[w];
  int64_t R = v->shape[nbd], C = v->shape[nbd + 1];
  int64_t rs = v->strides[nbd], cs = v->strides[nbd + 1];
  int64_t off = ndt_mm_own_off(m, w, m->t0), c0 = m->t1 * m->pk_chunk[w];
  char *base = mm_bytes_at(&op[1], m->t0 * R * C * csz);
  if (!base) return host->error(NDT_ERR_INTERNAL, "a packed copy has no device buffer");
  if (m->pk_cm[w])
    return mm_xfer(d, q, &op[0], off + c0 * cs, R, ndt_mm_min(m->pk_chunk[w], C - c0), rs, cs,
                   base + c0 * R * csz, csz, R * csz, m->ct, 1);
  return mm_xfer(d, q, &op[0], off + c0 * rs, ndt_mm_min(m->pk_chunk[w], R - c0), C, rs, cs,
                 base + c0 * C * csz, C * csz, csz, m->ct, 1);
}

/* matmul.c's copyout_body: row block t1 of batch t0 from the staging
 * buffer into C */
static ndt_status mm_copyout(cuda_dev *d, mm_copy *q, ndt_bound *op, const mm_arg *m) {
  const mm_grid *g = &m->g;
  int nbd = m->nbd, csz = ndt_dk_dtype_size(m->ct);
  const ndt_array *cv = &m->op[2];
  int64_t bi = m->t0, i0 = m->t1 * g->mb, mi = ndt_mm_min(g->mb, g->M - i0);
  int64_t crs = cv->strides[nbd], ccs = cv->strides[nbd + 1];
  int64_t off = ndt_mm_batch_off(m, cv, bi) + i0 * crs;
  ndt_status st = NDT_OK;
  for (int64_t j = 0; j < g->nJ && st == NDT_OK; j++) {
    int64_t j0 = j * g->nb, nj = ndt_mm_min(g->nb, g->N - j0);
    char *src = mm_bytes_at(&op[0], (bi * g->M * g->N + i0 * g->N + j0 * mi) * csz);
    if (!src) return host->error(NDT_ERR_INTERNAL, "the staging buffer has no device copy");
    st = mm_xfer(d, q, &op[1], off + j0 * ccs, mi, nj, crs, ccs, src, nj * csz, csz, m->ct, 0);
  }
  return st;
}

/* matmul.c's mv_body: y = R v (a row of gemm: y^T = v^T R^T) or the
 * block's partial R^T v (v^T R) */
static ndt_status mm_matvec(cuda_dev *d, cbl_handle h, ndt_bound *op, const mv_arg *m) {
  int isz = ndt_dk_dtype_size(m->t);
  int64_t rows = m->r.shape[0], cols = m->r.shape[1];
  int64_t lda = rows > 1 ? op[0].st[0] / isz : cols;
  if (lda < cols) lda = cols;
  int64_t nv = m->v.shape[0], incv = nv > 1 ? op[1].st[0] / isz : 1;
  int64_t incy = m->trans || m->y.shape[0] <= 1 ? 1 : op[2].st[0] / isz;
  if (incv < 1 || incy < 1)
    return host->error(NDT_ERR_INTERNAL, "the CUDA matrix-vector product needs positive strides");
  /* column-major: v^T is 1 x k at leading dimension incv, R^T is cols x rows at lda */
  int n = (int)(m->trans ? cols : rows), k = (int)(m->trans ? rows : cols);
  int opr = m->trans ? CBL_OP_T : CBL_OP_N, rc;
  if (m->t == NDT_FLOAT32) {
    float one = 1, zero = 0;
    rc = cbl.sgemm(h, CBL_OP_N, opr, 1, n, k, &one, (const float *)op[1].ptr, (int)incv,
                   (const float *)op[0].ptr, (int)lda, &zero, (float *)op[2].ptr, (int)incy);
  } else {
    double one = 1, zero = 0;
    rc = cbl.dgemm(h, CBL_OP_N, opr, 1, n, k, &one, (const double *)op[1].ptr, (int)incv,
                   (const double *)op[0].ptr, (int)lda, &zero, (double *)op[2].ptr, (int)incy);
  }
  if (rc) return lib_failed("cuBLAS gemm", rc, CBL_ALLOC_FAILED);
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : disable(d, e, "a matrix-vector product");
}

/* n product tasks of one kind on d (one alone, or a grouped task's
 * members), in order, then one wait. */
static ndt_status mm_run(cuda_dev *d, int what, ndt_bound *b, int n, const int *nop,
                         void *const *args) {
  static _Thread_local mm_copy q;   /* 14 KB: not on a worker's stack */
  pthread_mutex_lock(&d->run);
  if (atomic_load(&d->dead)) {
    pthread_mutex_unlock(&d->run);
    return refuse(d);
  }
  cudaSetDevice(d->dev);
  int blas = n > 0 && (what == 4 || (what == 1 && !mm_exact(((const mm_arg *)args[0])->ct)));
  cbl_handle h = blas ? cbl_handle_for(d) : NULL;
  ndt_status st = blas && !h
                      ? host->error(NDT_ERR_NOMEM, "no cuBLAS handle: the product runs on the CPU")
                      : NDT_OK;
  for (int i = 0, at = 0; i < n && st == NDT_OK; at += nop[i++])
    st = what == 1   ? mm_block(d, h, &q, b + at, args[i])
         : what == 2 ? mm_pack(d, &q, b + at, args[i])
         : what == 3 ? mm_copyout(d, &q, b + at, args[i])
                     : mm_matvec(d, h, b + at, args[i]);
  if (!atomic_load(&d->dead)) {
    cudaError_t e = cudaStreamSynchronize(d->stream);
    if (e != cudaSuccess) {
      ndt_status s = disable(d, e, "a matrix product");
      if (st == NDT_OK) st = s;
    }
  }
  pthread_mutex_unlock(&d->run);
  return st;
}

static int mm_kind(const ndt_task_kind *k) {
  return !strcmp(k->name, "matmul block")     ? 1
         : !strcmp(k->name, "matmul pack")    ? 2
         : !strcmp(k->name, "matmul copyout") ? 3
         : !strcmp(k->name, "matvec")         ? 4
                                              : 0;
}

static ndt_status mm_block_body(ndt_bound *b, void *argp) {
  int nop = 6;
  return mm_run(b[2].mem->context, 1, b, 1, &nop, &argp);
}

static ndt_status mm_pack_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return mm_run(b[1].mem->context, 2, b, 1, &nop, &argp);
}

static ndt_status mm_copyout_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return mm_run(b[1].mem->context, 3, b, 1, &nop, &argp);
}

static ndt_status mm_matvec_body(ndt_bound *b, void *argp) {
  int nop = 3;
  return mm_run(b[2].mem->context, 4, b, 1, &nop, &argp);
}
