/* cuda_fft.h - a part of the CUDA plugin (included once, by cuda.c, after
 * cuda_matmul.h, whose library opener it shares): the "fft" tasks of
 * src/ops/fft.c (their argument: ops/fft.h) through cuFFT.
 *
 * A task is a block of lines along one axis; its body takes the CPU body's
 * argument and does what it does, in three steps on the device's stream:
 * a pack kernel (src/kernels/cuda/lines_impl.h) loads the block's lines into
 * a dense batch buffer (any input dtype cast to the transform's; cut to
 * the values read and zero-padded to n; for C2R the imaginary parts of
 * X[0] and X[n/2] set to 0, which NumPy ignores and cuFFT's C2R assumes);
 * one batched cuFFT transform of all its lines (C2C/Z2Z forward or inverse
 * in place, R2C/D2Z, C2R/Z2D out of place; cuFFT's basic layout); an
 * unpack kernel scales each value by the task's scale (NumPy's norm) and
 * stores it into the output's strided lines. float32 and complex64 input
 * is transformed in single precision (C2C, R2C, C2R), every other input
 * in double (Z2Z, D2Z, Z2D): the result dtypes are NumPy's, as the CPU's.
 *
 * Plans are made once per (type, n, lines) per device and kept, at most
 * FFT_PLANS per device, the least recently used destroyed first; their
 * work area is device scratch taken for one transform
 * (cufftSetAutoAllocation(0), cufftSetWorkArea), as the gathers' scratch
 * is: outside NDTILE_CUDA_MEM. A plan that cannot be made (or scratch that
 * cannot be had) sends the task to the CPU (NDT_ERR_NOMEM, the core's
 * fallback).
 *
 * The bits are cuFFT's, not the CPU's (our own double-precision FFT, which
 * also widens float32 data): the stated bound, per line, is
 *   ||y - y_cpu||_2 <= 8 eps (log2(n) + 1) ||y_cpu||_2
 * with eps that of the result's precision (float32's for complex64 and
 * float32 results); the CPU's own error is far below it. Tested against
 * NumPy (tests/python/test_cuda_fft.py). The calls, and with them the
 * bits, depend on the program only (the blocks come from the array's shape
 * and dtype), and cuFFT gives the same bits for the same plan on one GPU
 * model and library version, so results are the same run to run and with
 * any number of workers; they may differ from the CPU's where a task falls
 * back to it (a full device).
 *
 * cuFFT is no dependency of the plugin: it is dlopened at the first FFT a
 * device is offered (NDTILE_CUDA_CUFFT names the file, 0 or none keeps
 * FFTs on the CPU; else libcufft.so.12 (CUDA 13), libcufft.so.11 (CUDA
 * 12), libcufft.so). When it cannot be loaded, supports refuses the FFTs
 * (they run on the CPU), NDTILE_VERBOSE=1 says why once, and every other
 * task keeps running on the devices. cuFFT reports no floating-point
 * flags; neither does the CPU's FFT. */
#include "ops/fft.h"
#include "kernels/cuda/lines_impl.h"

/* src/kernels/cuda/lines_impl.h */
int ndt__dk_lines(const ndt_dk_lines *c, void *stream);

#ifndef NDT_CUFFT_NAMES
#define NDT_CUFFT_NAMES "libcufft.so.12", "libcufft.so.11", "libcufft.so"
#endif

/* the cuFFT API subset (cufft.h), by value */
typedef int cft_handle;
enum { CFT_R2C = 0x2a, CFT_C2R = 0x2c, CFT_C2C = 0x29, CFT_D2Z = 0x6a, CFT_Z2D = 0x6c,
       CFT_Z2Z = 0x69 };
enum { CFT_FORWARD = -1, CFT_INVERSE = 1 };
typedef int (*cft_exec_fn)(cft_handle, void *, void *);
typedef int (*cft_exec_dir_fn)(cft_handle, void *, void *, int);

static struct {
  pthread_once_t once;
  int ok;
  char why[512];
  int (*create)(cft_handle *);
  int (*destroy)(cft_handle);
  int (*set_auto)(cft_handle, int);
  int (*make_many)(cft_handle, int, int *, int *, int, int, int *, int, int, int, int, size_t *);
  int (*set_work)(cft_handle, void *);
  int (*set_stream)(cft_handle, cudaStream_t);
  cft_exec_dir_fn c2c, z2z;
  cft_exec_fn r2c, d2z, c2r, z2d;
} cft = {.once = PTHREAD_ONCE_INIT};

static void cft_load(void) {
  const char *env = getenv("NDTILE_CUDA_CUFFT");
  if (env && (!strcmp(env, "0") || !strcmp(env, "none"))) {
    snprintf(cft.why, sizeof cft.why, "NDTILE_CUDA_CUFFT=%s: FFTs run on the CPU", env);
    host->verbose(cft.why);
    return;
  }
  char why[400];
  static const char *const names[] = {NDT_CUFFT_NAMES};
  void *h = lib_open("NDTILE_CUDA_CUFFT", names, (int)(sizeof names / sizeof *names), why,
                     sizeof why);
  if (!h) {
    snprintf(cft.why, sizeof cft.why, "cuFFT could not be loaded (%s): FFTs run on the CPU",
             why);
    host->verbose(cft.why);
    return;
  }
  *(void **)&cft.create = dlsym(h, "cufftCreate");
  *(void **)&cft.destroy = dlsym(h, "cufftDestroy");
  *(void **)&cft.set_auto = dlsym(h, "cufftSetAutoAllocation");
  *(void **)&cft.make_many = dlsym(h, "cufftMakePlanMany");
  *(void **)&cft.set_work = dlsym(h, "cufftSetWorkArea");
  *(void **)&cft.set_stream = dlsym(h, "cufftSetStream");
  *(void **)&cft.c2c = dlsym(h, "cufftExecC2C");
  *(void **)&cft.z2z = dlsym(h, "cufftExecZ2Z");
  *(void **)&cft.r2c = dlsym(h, "cufftExecR2C");
  *(void **)&cft.d2z = dlsym(h, "cufftExecD2Z");
  *(void **)&cft.c2r = dlsym(h, "cufftExecC2R");
  *(void **)&cft.z2d = dlsym(h, "cufftExecZ2D");
  if (!cft.create || !cft.destroy || !cft.set_auto || !cft.make_many || !cft.set_work ||
      !cft.set_stream || !cft.c2c || !cft.z2z || !cft.r2c || !cft.d2z || !cft.c2r || !cft.z2d) {
    snprintf(cft.why, sizeof cft.why, "cuFFT lacks a function the plugin calls (cufftCreate, "
             "cufftMakePlanMany, cufftSetWorkArea, cufftExec...): FFTs run on the CPU");
    host->verbose(cft.why);
    dlclose(h);
    return;
  }
  cft.ok = 1;   /* (the library stays loaded for the program's life) */
  host->verbose("cuFFT loaded for FFTs");
}

/* A device's plans (d->run held): at most FFT_PLANS, least recently used
 * destroyed first. */
#define FFT_PLANS 16
typedef struct {
  int live, type;
  int64_t n, lines;
  cft_handle h;
  size_t work;
  uint64_t used;
} fft_plan;
static fft_plan fft_plans[NDT__MAX_DEVS][FFT_PLANS];
static uint64_t fft_clock[NDT__MAX_DEVS];

static fft_plan *fft_plan_for(cuda_dev *d, int type, int64_t n, int64_t lines) {
  int i = (int)(d - cdev);
  fft_plan *P = fft_plans[i], *v = &P[0];
  for (int k = 0; k < FFT_PLANS; k++) {
    if (P[k].live && P[k].type == type && P[k].n == n && P[k].lines == lines) {
      P[k].used = ++fft_clock[i];
      return &P[k];
    }
    if (!P[k].live || (v->live && P[k].used < v->used)) v = &P[k];
  }
  if (v->live) {   /* (its last transform may still be queued: destroy after it) */
    cudaStreamSynchronize(d->stream);
    cft.destroy(v->h);
  }
  v->live = 0;
  cft_handle h = 0;
  int nn = (int)n;
  size_t work = 0;
  int rc = cft.create(&h);
  if (rc == 0) {
    rc = cft.set_auto(h, 0);
    if (rc == 0) rc = cft.make_many(h, 1, &nn, NULL, 1, 0, NULL, 1, 0, type, (int)lines, &work);
    if (rc) cft.destroy(h);
  }
  if (rc) {
    char msg[160];
    snprintf(msg, sizeof msg, "cuFFT: no plan of %lld lines of %lld (status %d): the FFT runs "
             "on the CPU", (long long)lines, (long long)n, rc);
    host->verbose(msg);
    host->error(NDT_ERR_NOMEM, msg);
    return NULL;
  }
  *v = (fft_plan){.live = 1, .type = type, .n = n, .lines = lines, .h = h, .work = work,
                  .used = ++fft_clock[i]};
  return v;
}

static int fft_single(int t) { return t == NDT_FLOAT32 || t == NDT_COMPLEX64; }

/* 1 when the device takes this "fft" task: every input dtype (cast by the
 * pack), the result dtypes of ndt_fft_result_type, sizes in cuFFT's ints */
static int fft_supports(const void *arg) {
  const fft_arg *a = arg;
  int ot = a->out.dtype, it = a->in.dtype;
  if (a->kind < NDT_FFT_FORWARD || a->kind > NDT_FFT_C2R || a->n < 1 || a->n > INT_MAX / 2 ||
      it < NDT_BOOL || it > NDT_COMPLEX128 || a->out.ndim > NDT_DK_LINES_MAXD)
    return 0;
  int single = it == NDT_FLOAT32 || it == NDT_COMPLEX64;
  int want = a->kind == NDT_FFT_C2R ? (single ? NDT_FLOAT32 : NDT_FLOAT64)
                                    : (single ? NDT_COMPLEX64 : NDT_COMPLEX128);
  if (ot != want || (a->kind == NDT_FFT_R2C && it > NDT_FLOAT64)) return 0;
  int64_t nout = a->out.shape[a->ax];
  if (nout < 1 || a->out.size < 1 || a->out.size / nout > INT_MAX / (a->n + 2)) return 0;
  pthread_once(&cft.once, cft_load);
  return cft.ok;
}

/* The strided side of a pack or unpack: operand b's lines along axis ax
 * of shape (nd axes; the other axes in order are the lines' index), len
 * elements of itemsize isz each (also cuda_linalg.h's). */
static void lines_side(ndt_dk_lines *c, const int64_t *shape, int nd, int ax, const ndt_bound *b,
                       int64_t len, int isz) {
  int64_t lo = 0, hi = 0;
  c->nd = 0;
  for (int k = 0; k < nd; k++) {
    int64_t ext = (shape[k] - 1) * b->st[k];
    if (k == ax) continue;
    c->shape[c->nd] = shape[k];
    c->st[c->nd++] = b->st[k];
    if (ext < 0) lo += ext;
    else hi += ext;
  }
  c->js = b->st[ax];
  int64_t ext = len > 0 ? (len - 1) * c->js : 0;
  if (ext < 0) lo += ext;
  else hi += ext;
  c->s = (char *)b->ptr + lo;
  c->soff = -lo;
  c->sbytes = len > 0 ? hi - lo + isz : 0;
}

/* one pack or unpack (what: the op, for a device error's message) */
static ndt_status lines_copy(cuda_dev *d, const ndt_dk_lines *c, const char *what) {
  if (ndt__dk_lines(c, d->stream))
    return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this copy");
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : disable(d, e, what);
}

/* One task (fft.c's fft_body), d->run held. */
static ndt_status fft_task(cuda_dev *d, ndt_bound *b, const fft_arg *a) {
  int kind = a->kind, single = fft_single(a->out.dtype);
  int64_t n = a->n, nout = a->out.shape[a->ax], lines = a->out.size / nout;
  int64_t nin = kind == NDT_FFT_C2R ? n / 2 + 1 : n;
  int in_c = kind != NDT_FFT_R2C, out_c = kind != NDT_FFT_C2R;
  int64_t rsz = single ? 4 : 8;
  int64_t ib = lines * nin * rsz * (in_c ? 2 : 1), ob = lines * nout * rsz * (out_c ? 2 : 1);
  int inplace = kind == NDT_FFT_FORWARD || kind == NDT_FFT_BACKWARD;
  int type = kind == NDT_FFT_R2C   ? (single ? CFT_R2C : CFT_D2Z)
             : kind == NDT_FFT_C2R ? (single ? CFT_C2R : CFT_Z2D)
                                   : (single ? CFT_C2C : CFT_Z2Z);
  fft_plan *P = fft_plan_for(d, type, n, lines);
  if (!P) return NDT_ERR_NOMEM;
  int64_t ia = (ib + 255) / 256 * 256, oa = inplace ? 0 : (ob + 255) / 256 * 256;
  char *X = dev_malloc(d, (size_t)(ia + oa) + P->work);
  if (!X) return NDT_ERR_NOMEM;
  char *Y = inplace ? X : X + ia, *W = X + ia + oa;
  ndt_dk_lines c;
  memset(&c, 0, sizeof c);
  c.single = single;
  /* pack */
  c.cplx = in_c;
  c.lines = lines;
  c.len = c.ldb = c.mst = nin;
  c.lpm = 1;
  c.nval = a->nload;
  c.zi = kind == NDT_FFT_C2R ? (n % 2 == 0 ? n / 2 : 0) : -1;
  c.t = a->in.dtype;
  c.buf = X;
  c.bbytes = ib;
  if (a->nload > 0)
    lines_side(&c, a->out.shape, a->out.ndim, a->ax, &b[0], a->nload, ndt_dk_dtype_size(c.t));
  else c.s = X;   /* (nothing read: sbytes 0) */
  ndt_status st = lines_copy(d, &c, "an FFT");
  /* the transform */
  if (st == NDT_OK) {
    int rc = cft.set_stream(P->h, d->stream);
    if (rc == 0 && P->work) rc = cft.set_work(P->h, W);
    if (rc == 0) {
      int dir = kind == NDT_FFT_BACKWARD ? CFT_INVERSE : CFT_FORWARD;
      switch (type) {
        case CFT_C2C: rc = cft.c2c(P->h, X, Y, dir); break;
        case CFT_Z2Z: rc = cft.z2z(P->h, X, Y, dir); break;
        case CFT_R2C: rc = cft.r2c(P->h, X, Y); break;
        case CFT_D2Z: rc = cft.d2z(P->h, X, Y); break;
        case CFT_C2R: rc = cft.c2r(P->h, X, Y); break;
        default: rc = cft.z2d(P->h, X, Y); break;
      }
    }
    if (rc) {
      st = lib_failed("cuFFT transform", rc, CFT_ALLOC_FAILED);
    } else {
      cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) st = disable(d, e, "an FFT");
    }
  }
  /* unpack */
  if (st == NDT_OK) {
    c.unpack = 1;
    c.cplx = out_c;
    c.len = c.ldb = c.mst = nout;
    c.zi = -1;
    c.t = a->out.dtype;
    c.buf = Y;
    c.bbytes = ob;
    c.scale = a->scale;
    lines_side(&c, a->out.shape, a->out.ndim, a->ax, &b[1], nout, ndt_dk_dtype_size(c.t));
    st = lines_copy(d, &c, "an FFT");
  }
  if (!atomic_load(&d->dead)) cudaFreeAsync(X, d->stream);
  return st;
}

/* one "fft" task (run_members, cuda.c) */
static ndt_status fft_member(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  (void)ctx;
  return fft_task(d, b, arg);
}

/* n "fft" tasks on d (one alone, or a grouped task's members), in order,
 * then one wait. */
static ndt_status fft_run(cuda_dev *d, ndt_bound *b, int n, const int *nop, void *const *args) {
  return run_members(d, "an FFT", 0, fft_member, NULL, b, n, nop, args);
}

static int fft_kind(const ndt_task_kind *k) { return !strcmp(k->name, "fft"); }

static ndt_status fft_dev_body(ndt_bound *b, void *argp) {
  int nop = 3;
  return fft_run(b[1].mem->context, b, 1, &nop, &argp);
}
