/* cuda.c - the CUDA plugin (libndtile_cuda.so, built when nvcc is found):
 * device memory, host<->device copies, a stream per device and the bodies
 * it has variants for: the elementwise tasks of every exact ufunc loop and
 * every cast, on all 13 dtypes (src/kernels/cuda/ew_ops.h: integer and bool
 * ops, + - * / sqrt, comparisons, min/max, rounding; the kernels call
 * src/kernels/scalar.h, as the CPU's loops do), also with operands of
 * other dtypes than the loop's (cast through device scratch: ew_cast_run),
 * the "arange" fills of arange and linspace (ew_impl.h's range kernel),
 * "matvec combine" (cuda_bincount.h), and the float32/float64
 * and complex sums and nansums (the pairwise kernel of
 * src/kernels/cuda/reduce_impl.h: a "pairwise leaf" of a full sum and its
 * "pairwise top", the "buffered sum leaf" and "top" of a sum with a cast, a
 * "reduce block" whose innermost axis is summed), the other reductions' blocks (src/kernels/cuda/fold_impl.h:
 * integer and bool sums and products, min/max, nanmin/nanmax, any/all,
 * argmin/argmax, row-fold float sums; the seeded kinds of initial= too,
 * "pairwise leaf, seeded" and "reduce block, seeded": each run starts its
 * partial where the CPU's body does, dk.h), the ordered folds into a result
 * ("reduce combine" and "reduce combine, seeded": partials, argmin/argmax's
 * and the direct fold;
 * "reduce carry": the direct fold's steps on many ranks; "prod chain",
 * "prod fold": src/kernels/cuda/combine_impl.h, cuda_combine.h, a part of
 * this file) and the scans ("scan", "scan fixup":
 * src/kernels/cuda/scan_impl.h), with the CPU's bits, and the fused elementwise groups of src/ops/fusion.c (the
 * precompiled interpreter of src/kernels/cuda/fused_impl.h: a program per
 * group, built from its ndt_fused_desc; a program that recurs gets a
 * compiled kernel of its own, cuda_jit.c, with the same bits), the random
 * fills of the
 * fixed-cost floats and the integers (src/kernels/cuda/rng_impl.h: the
 * CPU's values, from the arithmetic both share, src/kernels/rng_scalar.h),
 * and the advanced-index reads and writes ("gather", "put":
 * src/kernels/cuda/index_impl.h, the walked operand as a list of its
 * tiles), and the matrix products of src/ops/matmul.c: floats through
 * cuBLAS, dlopened at the first product offered, integers and bools by
 * src/kernels/cuda/gemm_impl.h (cuda_matmul.h, a part of this file), and
 * the FFTs of src/ops/fft.c through cuFFT, dlopened likewise, with
 * src/kernels/cuda/lines_impl.h's copies around it (cuda_fft.h), and
 * solve, inv and cholesky through cuSOLVER likewise (cuda_linalg.h). The core loads it with dlopen only when NDTILE_DEVICES asks for
 * cuda or auto (device.c) and reaches it through ndt_plugin_entry_v1;
 * it links nothing of the core (device.h). Every other task runs on the
 * CPU, its operands made valid in host memory by the core.
 *
 * NOT YET RUN ON A GPU. What ran: this file compiled as C against a host
 * emulation of the CUDA runtime (tests/cudahost: libndtile_cudahost.so,
 * device memory the host cannot address, streams as threads, injected
 * faults), under the C and Python suites (make test-cudahost); the
 * kernels' source on the CPU (tests/c/test_devkernels.c), with the CPU's
 * bits. Only the runtime API calls and the launch syntax differ there.
 *
 * Grouped launches: consecutive tasks of one op on a device reach it as one
 * grouped task (sched.c); dev_run makes one launch over the list of their
 * runs (up to NDT_DK_MAXRUNS 2-d runs a launch, passed as the kernel's
 * parameter), where one task alone is a group of one.
 *
 * Memory: cudaMallocAsync on the device's stream within a budget per device
 * (NDTILE_CUDA_MEM, default 90% of the card's total memory, split between
 * the virtual devices on one GPU and the node's ranks that take it:
 * host->gpu_ranks); nothing is reserved at start. A failed allocation returns NULL: the core evicts,
 * then falls back to the CPU. Large host buffers are page-locked at their
 * first copy and stay so while the core's cache keeps them
 * (cm_host_register). Copies and kernels run on the device's stream
 * and are waited for before a body returns (the worker that runs the task
 * drives the device, one body at a time per device: the stream and the
 * flags word are the device's): simple and correct, not yet fast.
 *
 * Errors: a device error (a kernel fault; in CUDA it is sticky, the
 * context is lost) disables every device of that GPU: the task that met
 * it fails with an error naming its operation, the devices take no more
 * tasks (supports), a task already placed there runs on the CPU (the body
 * and the copies into the device refuse with NDT_ERR_NOMEM, the core's
 * fallback), values held only on the device are lost (a copy from it
 * fails), and the program goes on on the CPU. */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/device.h"
#include "ops/exec.h"
#include "ops/reduce.h"
#include "ops/scan.h"
#include "ops/fusion.h"
#include "ops/random.h"

#include "kernels/cuda/dk.h"
#include "kernels/pairwise.h"
#include "kernels/cuda/fused_impl.h"
#include "kernels/cuda/rng_impl.h"
#include "kernels/cuda/index_impl.h"
#include "kernels/cuda/nz_impl.h"
#include "runtime/rt.h"
#include "runtime/cuda_jit.h"

/* src/kernels/cuda/ew_impl.h and reduce_impl.h (compiled by nvcc) */
void ndt__dk_init(void);
void ndt__dk_set_math(int on);
int ndt__dk_ew_has(int op, int nin, const int *loop, int fused);
int ndt__dk_ew(int op, int nin, const int *loop, int fused, const ndt_dk_launch *L,
               unsigned *flags, void *stream);
int ndt__dk_cast(int from, int to, const ndt_dk_launch *L, unsigned *flags, void *stream);
int ndt__dk_range(int to, const ndt_dk_launch *L, void *stream);
int ndt__dk_pairwise(int dtype, const ndt_dk_launch *L, unsigned *flags, void *stream);
int ndt__dk_pwtop(int dtype, const ndt_dk_launch *L, unsigned *flags, void *stream);
int ndt__dk_ew_key(int op, int nin, const int *loop, int fused);
int ndt__dk_fused(const ndt_dk_flaunch *L, unsigned *flags, int nflags, void *stream);
/* src/kernels/cuda/rng_impl.h */
int ndt__dk_rng_has(const ndt_rng_params *q);
int ndt__dk_rng(const ndt_dk_rlaunch *L, void *stream);
int ndt__dk_index(ndt_dk_ilaunch *L, void *stream);
int ndt__dk_nz(const ndt_dk_nzlaunch *L, void *stream);
/* src/kernels/cuda/fold_impl.h and scan_impl.h */
int ndt__dk_fold_has(int op, int mode, int in, int acc);
int ndt__dk_fold(int op, int mode, int acc, const ndt_dk_launch *L, unsigned *flags,
                 void *stream);
int ndt__dk_scan(int rt, int fix, const ndt_dk_launch *L, unsigned *flags, void *stream);
int ndt__dk_arg(int op, int dt, const ndt_dk_launch *L, unsigned *flags, void *stream);
#define NDT_FD_LINE 0   /* (fold_impl.h's layouts) */
#define NDT_FD_COLS 1

/* the flags words: one for a plain kernel (word 0), one per op of a fused
 * group (its program's step flags go to their op's word) */
#define NFLAGS NDT_FUSE_MAXF

static const ndt_plugin_host *host;

typedef struct {
  int dev;                 /* the CUDA device */
  cudaStream_t stream;
  int64_t budget;
  atomic_llong used;
  atomic_int dead;         /* disabled after a device error */
  unsigned *flags;         /* device words the kernels OR their IEEE flags into (NFLAGS) */
  pthread_mutex_t run;     /* one body at a time drives the stream and the flags word */
  char name[16];
  ndt_memory mem;
  ndt_memory_iface miface;
  ndt_processor proc;
  ndt_processor_iface piface;
} cuda_dev;

static cuda_dev cdev[NDT__MAX_DEVS];
static int ncdev;

/* A device error (in CUDA a fault is sticky: the context is lost): every
 * device of that GPU is disabled, once, with a line on stderr; the error
 * of the task that met it, naming what failed (the task's op name comes
 * with it: a deferred error). */
static ndt_status disable(cuda_dev *d, cudaError_t e, const char *what) {
  int first = 0;
  for (int i = 0; i < ncdev; i++) {
    int alive = 0;
    if (cdev[i].dev == d->dev && atomic_compare_exchange_strong(&cdev[i].dead, &alive, 1))
      first = 1;
  }
  cudaGetLastError();   /* (a sticky error stays; another is cleared) */
  char msg[384];
  snprintf(msg, sizeof msg, "the CUDA device %d failed in %s (%s: %s); it is disabled and the "
           "program goes on on the CPU (values held only on it are lost)", d->dev, what,
           cudaGetErrorName(e), cudaGetErrorString(e));
  if (first) fprintf(stderr, "ndtile: %s\n", msg);
  return host->error(NDT_ERR_INTERNAL, msg);
}

/* the answer of a disabled device: NDT_ERR_NOMEM, so that the core runs
 * the task on the CPU instead (bind.c) */
static ndt_status refuse(cuda_dev *d) {
  char msg[128];
  snprintf(msg, sizeof msg, "the CUDA device %d is disabled after an error", d->dev);
  return host->error(NDT_ERR_NOMEM, msg);
}

/* ---- memory ---- */
/* 1 when an allocation may go ahead: a disabled device refuses; an
 * injected failure (ndt_debug_fail_dev_alloc_after) fails it */
static int alloc_gate(cuda_dev *d) {
  if (atomic_load(&d->dead)) {
    refuse(d);
    return 0;
  }
  return !host->alloc_fails();
}

/* n bytes of device memory on the device's stream, or NULL with the error
 * (a full device is not sticky: the core evicts or falls back) */
static void *dev_malloc(cuda_dev *d, size_t n) {
  void *p = NULL;
  cudaSetDevice(d->dev);
  cudaError_t e = cudaMallocAsync(&p, n ? n : 1, d->stream);
  if (e == cudaSuccess) return p;
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    host->error(NDT_ERR_NOMEM, "cudaMallocAsync failed: the CUDA device is full");
  } else {
    disable(d, e, "an allocation");
    refuse(d);
  }
  return NULL;
}

static void *cm_alloc(ndt_memory *m, size_t n) {
  cuda_dev *d = m->context;
  if (!alloc_gate(d)) return NULL;
  if (atomic_fetch_add(&d->used, (long long)n) + (int64_t)n > d->budget) {
    atomic_fetch_sub(&d->used, (long long)n);
    host->error(NDT_ERR_NOMEM, "the CUDA device's memory budget (NDTILE_CUDA_MEM) is full");
    return NULL;
  }
  void *p = dev_malloc(d, n);
  if (!p) atomic_fetch_sub(&d->used, (long long)n);
  return p;
}

static void cm_free(ndt_memory *m, void *p, size_t n) {
  cuda_dev *d = m->context;
  if (!p) return;
  if (!atomic_load(&d->dead)) {
    cudaSetDevice(d->dev);
    cudaFreeAsync(p, d->stream);   /* ordered after the stream's earlier work */
  }
  atomic_fetch_sub(&d->used, (long long)n);
}

/* A gather's scratch (bind.c): device memory for as long as one body
 * runs, outside the budget, which is the device plan's (proc.c): the plan
 * fills the budget with tiles, and scratch from it would fail there and
 * send the task to the CPU unplanned (a pairwise leaf across two tiles
 * did). Only the device's own memory bounds it (a failure: the CPU). */
static void *cm_scratch_alloc(ndt_memory *m, size_t n) {
  cuda_dev *d = m->context;
  return alloc_gate(d) ? dev_malloc(d, n) : NULL;
}

static void cm_scratch_free(ndt_memory *m, void *p, size_t n) {
  cuda_dev *d = m->context;
  (void)n;
  if (!p || atomic_load(&d->dead)) return;
  cudaSetDevice(d->dev);
  cudaFreeAsync(p, d->stream);
}

/* The device whose stream moves a copy's bytes (either side, or both:
 * peers), or a refusal when a side has failed. */
static ndt_status copy_device(ndt_memory *to, ndt_memory *from, cuda_dev **d, int *from_dev);
/* The end of a copy started on d's stream: waits for it; a failure
 * disables d (a copy into d only: refused, so the task runs on the CPU). */
static ndt_status copy_wait(cuda_dev *d, cudaError_t e, int from_dev) {
  if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
  if (e == cudaSuccess) return NDT_OK;
  ndt_status st = disable(d, e, "a copy");
  return from_dev ? st : refuse(d);
}

static ndt_status cm_copy(ndt_memory *to, void *dst, ndt_memory *from, const void *src,
                          size_t n) {
  cuda_dev *d = NULL;
  int fd = 0;
  ndt_status st = copy_device(to, from, &d, &fd);
  if (st) return st;
  return copy_wait(d, cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, d->stream), fd);
}

/* Strided runs (a gather's, bind.c) in one 2-d copy, not one per element. */
static ndt_status cm_copy2d(ndt_memory *to, void *dst, size_t dpitch, ndt_memory *from,
                            const void *src, size_t spitch, size_t width, size_t height) {
  cuda_dev *d = NULL;
  int fd = 0;
  ndt_status st = copy_device(to, from, &d, &fd);
  if (st) return st;
  return copy_wait(d, cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height,
                                        cudaMemcpyDefault, d->stream), fd);
}

static ndt_status copy_device(ndt_memory *to, ndt_memory *from, cuda_dev **d, int *from_dev) {
  cuda_dev *dt = to->iface->copy == cm_copy ? to->context : NULL;
  cuda_dev *df = from->iface->copy == cm_copy ? from->context : NULL;
  if (df && atomic_load(&df->dead))
    return host->error(NDT_ERR_INTERNAL, "these values were held only by a CUDA device that "
                       "failed: they are lost");
  if (dt && atomic_load(&dt->dead)) return refuse(dt);
  *d = dt ? dt : df;
  *from_dev = df != NULL;
  cudaSetDevice((*d)->dev);
  return NDT_OK;
}

/* Pinned host memory: the core registers a large host buffer (a tile's, a
 * store's run) at its first copy to or from a device and keeps it
 * registered while its cache keeps the buffer (memory.c, ndt__host_pin):
 * copies from it then run at the bus's speed. Portable: one registration
 * serves every device. A refusal (a limit on locked memory) is not an
 * error: the copy goes from pageable memory. NDTILE_CUDA_PINNED=0: none.
 * Small buffers (under NDT__PIN_MIN, 64 KiB) are not registered (malloc's
 * blocks share pages) and no staging pool of our own copies them: the
 * copies are waited for (copy_wait), so a pool would add a memcpy and gain
 * no overlap, and the driver stages small pageable copies itself. */
static int cm_host_register(ndt_memory *m, void *p, size_t n) {
  cuda_dev *d = m->context;
  if (atomic_load(&d->dead)) return -1;
  cudaSetDevice(d->dev);
  if (cudaHostRegister(p, n, cudaHostRegisterPortable) == cudaSuccess) return 0;
  cudaGetLastError();   /* (not sticky) */
  return -1;
}

static void cm_host_unregister(ndt_memory *m, void *p, size_t n) {
  cuda_dev *d = m->context;
  (void)n;
  cudaSetDevice(d->dev);
  if (cudaHostUnregister(p) != cudaSuccess) cudaGetLastError();
}

static void cm_usage(ndt_memory *m, int64_t *cap, int64_t *used) {
  cuda_dev *d = m->context;
  *cap = d->budget;
  *used = atomic_load(&d->used);
}

/* ---- the elementwise variant ---- */
static int fused(void) { return host->cpu_level() >= 2; }

/* the kernel an elementwise task needs: op < 0 for a cast of loop[0] to
 * loop[1]; its operands already of the loop's dtypes (no casts inside) */
typedef struct {
  int op, nin, loop[NDT_DK_MAXOPS];
} ew_sig;

static int ew_sig_of(const ndt_ew_arg *a, ew_sig *g) {
  memset(g, 0, sizeof *g);   /* compared whole (memcmp) */
  g->nin = a->nin;
  if (!a->loop) {   /* a cast of op[0] into the output */
    g->op = -1;
    g->loop[0] = a->op[0].dtype;
    g->loop[1] = a->op[1].dtype;
    return a->nin == 1;
  }
  g->op = a->ufunc;
  if (a->nin < 1 || a->nin > 3) return 0;
  /* (an operand of another dtype than the loop's is cast: ew_cast_run) */
  for (int i = 0; i <= a->nin; i++)
    if ((unsigned)a->op[i].dtype >= NDT_NTYPES) return 0;
  for (int i = 0; i < a->nin; i++) g->loop[i] = a->loop_in[i];
  g->loop[a->nin] = a->loop_out;
  return g->op >= 0 && ndt__dk_ew_has(g->op, g->nin, g->loop, fused());
}

/* whether an elementwise task's operands are not all of its loop's dtypes
 * (int64 * float64, sqrt of integers, an out= of another dtype) */
static int ew_casts(const ndt_ew_arg *a) {
  if (!a->loop) return 0;
  int any = a->op[a->nin].dtype != a->loop_out;
  for (int i = 0; i < a->nin; i++) any |= a->op[i].dtype != a->loop_in[i];
  return any;
}

/* ---- the float sums ----
 * A "reduce block" task sums its block into its partials (the block's
 * shape with the reduced axes set to 1, C order); the CPU's body
 * (reduce.c) adds each run along the innermost coalesced axis, in C order,
 * to the partial element it belongs to: 0 + pw(row) + pw(next row) ...
 * The pairwise kernel does the same when the innermost axis is summed and
 * at most one other axis is (a run of rows per partial element, in
 * order); a row fold (the innermost axis kept: k.acc) stays on the CPU. */
typedef struct {
  int mode;                /* NDT_FD_LINE or NDT_FD_COLS */
  int nd;
  int64_t shape[NDT_MAXDIMS], st[3][NDT_MAXDIMS];   /* input and partial byte strides
                                                       (and the view's, to coalesce) */
  int red;                 /* the reduced axis that is not innermost, or -1 */
} fold_plan;

/* st: the bound input's byte strides; vst: its view's element strides.
 * Axes merge only where the view steps through them as one, as the CPU's
 * body merges them (reduce.c's block_body): a gathered operand is dense
 * and would merge more, into longer pairwise runs, another tree. */
static int fold_plan_of(const ndt_red_arg *r, int nd, const int64_t *shape, const int64_t *st,
                        const int64_t *vst, fold_plan *pl) {
  int64_t s = ndt_dk_dtype_size(r->acc);
  for (int k = nd - 1; k >= 0; k--) {
    int64_t ps = (r->mask >> k & 1) ? 1 : shape[k];
    pl->shape[k] = shape[k];
    pl->st[0][k] = st[k];
    pl->st[1][k] = (r->mask >> k & 1) || ps == 1 ? 0 : s;
    pl->st[2][k] = vst[k];
    s *= ps;
  }
  pl->nd = ndt__coalesce(nd, pl->shape, 3, pl->st);
  pl->red = -1;
  pl->mode = NDT_FD_LINE;
  if (pl->nd == 0) return 1;   /* one element */
  if (pl->st[1][pl->nd - 1] != 0) pl->mode = NDT_FD_COLS;
  for (int k = 0; k < pl->nd - 1; k++)
    if (pl->st[1][k] == 0) {
      if (pl->red >= 0) return 0;
      pl->red = k;
    }
  return 1;
}

/* A sum's plan: a fold's whose innermost axis is summed (a row fold
 * stays on the CPU's pairwise sums) */
static int red_plan_of(const ndt_red_arg *r, int nd, const int64_t *shape, const int64_t *st,
                       const int64_t *vst, fold_plan *pl) {
  return fold_plan_of(r, nd, shape, st, vst, pl) && pl->mode == NDT_FD_LINE;
}

static int pw_block_ok(const ndt_red_arg *r, int nd, const int64_t *shape, const int64_t *st,
                       const int64_t *vst) {
  fold_plan pl;
  return (r->op == NDT_RED_SUM || r->op == NDT_RED_NANSUM) && !r->arg &&
         r->acc >= NDT_FLOAT32 && r->acc <= NDT_COMPLEX128 && r->in.dtype == r->acc &&
         red_plan_of(r, nd, shape, st, vst, &pl);
}

static int fold_ok(const ndt_red_arg *r, int nd, const int64_t *shape, const int64_t *st,
                   const int64_t *vst);

static int arg_rows(const ndt_red_arg *r, int nd, const int64_t *shape, const int64_t *st,
                    int64_t *rows, int64_t *rs);

static int red_ok(const ndt_red_arg *r, const ndt_operand *op, int nop) {
  if (nop < 2 || !op[0].view->store) return 0;
  const ndt_array *v = op[0].view;
  int64_t st[NDT_MAXDIMS], rows, rs;
  for (int k = 0; k < v->ndim; k++) st[k] = v->strides[k] * v->store->itemsize;
  if (r->arg)
    return nop >= 3 && v->size > 0 && ndt__dk_arg(r->op, r->acc, NULL, NULL, NULL) == 0 &&
           r->in.dtype == r->acc && arg_rows(r, v->ndim, v->shape, st, &rows, &rs);
  /* (an empty block's partials are set without a launch: the identity's
   * +0.0 unseeded; a seeded one's start stays the CPU's) */
  if (r->from_out && v->size == 0) return 0;
  return pw_block_ok(r, v->ndim, v->shape, st, v->strides) ||
         (v->size > 0 && fold_ok(r, v->ndim, v->shape, st, v->strides));
}

/* -0.0 in float or complex dtype t (each part), as dk.h's run start */
static void neg_zero_bits(int t, unsigned char *v) {
  if (t == NDT_FLOAT32 || t == NDT_COMPLEX64) {
    const float z[2] = {-0.0f, -0.0f};
    memcpy(v, z, t == NDT_FLOAT32 ? 4 : 8);
  } else {
    const double z[2] = {-0.0, -0.0};
    memcpy(v, z, t == NDT_FLOAT64 ? 8 : 16);
  }
}

static void cb_block_start(const ndt_array *v, const ndt_tiling *tl, int64_t b, int64_t *start);

/* Where a block's partials start (reduce.c's block_body): the op's
 * identity (from 0), or for a seeded reduction the seed in the first
 * block of its result elements (unless the seed is added last, by the
 * combine) and -0.0 in the others' float and complex sums. */
static void red_start(const ndt_red_arg *r, ndt_dk_run *u) {
  u->from = 0;
  if (!r->from_out) return;
  int64_t bs[NDT_MAXDIMS];
  int first = !r->seed_last;
  cb_block_start(&r->in, &r->tl, r->blk, bs);
  for (int j = 0; j < r->in.ndim && first; j++)
    if ((r->mask >> j & 1) && bs[j] != 0) first = 0;
  if (first) {
    u->from = 1;
    memcpy(u->start, r->seed, (size_t)ndt_dk_dtype_size(r->acc));
  } else if ((r->op == NDT_RED_SUM || r->op == NDT_RED_NANSUM) && r->acc >= NDT_FLOAT32 &&
             r->acc <= NDT_COMPLEX128) {
    u->from = 1;
    neg_zero_bits(r->acc, u->start);
  }
}

static int pw_leaf_ok(const ndt_pw_arg *a) {
  return (a->op == NDT_RED_SUM || a->op == NDT_RED_NANSUM) && a->acc >= NDT_FLOAT32 &&
         a->acc <= NDT_COMPLEX128 && a->line.dtype == a->acc && a->line.ndim == 1;
}

/* A "pairwise top" (reduce.c's pw_sum): the tree above the leaves' sums,
 * added to the start (+0.0, or the result's: a seeded sum), one thread a
 * task (reduce_impl.h's ndt__dk_pwtop): the slots stay on the device. */
static int pw_top_ok(const ndt_pw_arg *a, int nop) {
  return nop == 2 && (a->op == NDT_RED_SUM || a->op == NDT_RED_NANSUM) && a->n > 0 &&
         a->leaf > 0 && a->out.dtype == a->acc && !ndt__dk_pwtop(a->acc, NULL, NULL, NULL);
}

/* the leaves of a line of n elements cut at nodes of at most leaf
 * (reduce.c's pw_leaves: pairwise.h's splits) */
static int64_t pw_top_leaves(int64_t n, int64_t leaf, int cplx) {
  if (n <= leaf) return 1;
  int64_t h = cplx ? ndt_pw_csplit(n) : ndt_pw_split(n);
  return pw_top_leaves(h, leaf, cplx) + pw_top_leaves(n - h, leaf, cplx);
}

/* A "buffered sum leaf" (reduce.c's cast_sum: a float or complex sum of a
 * line in another dtype, NumPy's order over a cast copy): each buffer of
 * NDT_NP_BUFSIZE elements of its piece of the copy is a pairwise run into
 * its slot, from -0.0 as the CPU's leaf. */
static int bsum_leaf_ok(const ndt_pw_arg *a) {
  return a->op == NDT_RED_SUM && a->acc >= NDT_FLOAT32 && a->acc <= NDT_COMPLEX128 &&
         a->line.dtype == a->acc && a->line.ndim == 1;
}

/* ---- the other reductions (src/kernels/cuda/fold_impl.h) ----
 * A "reduce block" that the pairwise kernel does not take: integer and
 * bool sums and products, min/max and their NaN-ignoring forms, any/all
 * (of any dtype: cast to bool), and float and complex sums whose innermost
 * axis is kept. Its coalesced axes (fold_plan above: input and partial
 * byte strides) are read two ways, each the CPU body's order for a partial
 * element: the innermost axis reduced (a line run per partial element: its
 * rows along at most one other reduced axis, C order, folded by a block of
 * threads: exact, as every op taken that way is associative), or kept (a
 * column run along it, one thread per partial element folding the rows of
 * at most one reduced axis in order, as k.acc does). argmin/argmax: below
 * (arg_rows). Other layouts and empty blocks stay on the CPU. */
static int fold_ok(const ndt_red_arg *r, int nd, const int64_t *shape, const int64_t *st,
                   const int64_t *vst) {
  fold_plan pl;
  return !r->arg && r->in.dtype >= 0 && r->in.dtype < NDT_NTYPES &&
         fold_plan_of(r, nd, shape, st, vst, &pl) &&
         ndt__dk_fold_has(r->op, pl.mode, r->in.dtype, r->acc);
}

/* argmin/argmax blocks (fold_impl.h's arg kernels): over all axes, the
 * block's leading axes as the rows of one line run (the CPU's flat index of
 * run q's element j is the block's first + q * n + j, n the last axis's
 * length: one run when those axes step as one, else the CPU); along one
 * axis, a line run per partial element. 1 with the rows (all axes) when
 * the device takes the block. */
static int arg_rows(const ndt_red_arg *r, int nd, const int64_t *shape, const int64_t *st,
                    int64_t *rows, int64_t *rs) {
  *rows = 1;
  *rs = 0;
  if (!r->arg_all || nd < 2) return 1;
  int64_t sh[NDT_MAXDIMS], s2[1][NDT_MAXDIMS];
  for (int k = 0; k < nd - 1; k++) sh[k] = shape[k], s2[0][k] = st[k];
  int m = ndt__coalesce(nd - 1, sh, 1, s2);
  if (m > 1) return 0;
  if (m == 1) *rows = sh[0], *rs = s2[0][0];
  return 1;
}

/* ---- the scans (src/kernels/cuda/scan_impl.h) ----
 * "scan" blocks (sums and products) of every result dtype and input dtype (the casts with
 * their flags), a line a thread in the CPU's order; "scan fixup" of the
 * integer and bool scans (every element plus its line's carry). The
 * "scan carry" task (a walk over every block's totals, in block order)
 * stays on the CPU: it is tiny. */
static int scan_ok(const ndt_scan_arg *a, int fix) {
  /* the sums and products only: the other accumulates (maximum, ...,
   * subtract) run on the CPU */
  if (a->op > NDT_SK_MUL) return 0;
  if (a->rt < 0 || a->rt >= NDT_NTYPES || a->in.dtype < 0 || a->in.dtype >= NDT_NTYPES) return 0;
  return !fix || a->rt <= NDT_UINT64;
}

/* ---- the random fill ----
 * A "random" task (src/ops/random.c: one block of a fresh array) filled by
 * the Philox kernel of src/kernels/cuda/rng_impl.h with the CPU's values:
 * the fixed-cost floats (finite loc and scale) and the integers; the
 * rejection samplers (gamma, poisson, binomial: libm inside) and the
 * per-element parameters ("random parameters") stay on the CPU. */
static int rng_ok(const ndt_rand_arg *a) { return ndt__dk_rng_has(&a->q); }

static ndt_status rng_launch(cuda_dev *d, ndt_dk_rlaunch *L) {
  if (!L->nrun) return NDT_OK;
  int rc = ndt__dk_rng(L, d->stream);
  L->nrun = 0;
  if (rc) return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this random fill");
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : disable(d, e, "a kernel launch");
}

/* n random tasks on device d (one alone, or a grouped task's members: one
 * operand each): one launch per run of tasks of one call's parameters
 * (the keys are per run: consecutive calls group too), then one wait. */
static ndt_status rng_run(cuda_dev *d, ndt_bound *b, int n, const int *nop, void *const *args) {
  static _Thread_local ndt_dk_rlaunch L;   /* 5 KB: not on a worker's stack */
  pthread_mutex_lock(&d->run);
  if (atomic_load(&d->dead)) {
    pthread_mutex_unlock(&d->run);
    return refuse(d);
  }
  cudaSetDevice(d->dev);
  ndt_status st = NDT_OK;
  L.nrun = 0;
  for (int i = 0, at = 0; i < n && st == NDT_OK; at += nop[i++]) {
    const ndt_rand_arg *a = args[i];
    const ndt_bound *o = &b[at];
    if (a->out.size == 0) continue;
    /* the block is one contiguous range (the CPU's body writes it so) */
    int64_t want = ndt_dk_rng_isz(a->q.t);
    for (int k = o->ndim - 1; k >= 0 && st == NDT_OK; k--) {
      if (o->shape[k] != 1 && o->st[k] != want)
        st = host->error(NDT_ERR_INTERNAL, "the CUDA random fill needs a contiguous block");
      want *= o->shape[k];
    }
    if (st == NDT_OK && L.nrun && (L.nrun == NDT_DK_RMAXRUNS || memcmp(&a->q, &L.q, sizeof L.q)))
      st = rng_launch(d, &L);
    if (st == NDT_OK) {
      L.q = a->q;
      L.run[L.nrun++] = (ndt_dk_rrun){.n = a->out.size, .first = a->first, .p = o->ptr,
                                      .key = a->key};
    }
  }
  if (st == NDT_OK) st = rng_launch(d, &L);
  if (!atomic_load(&d->dead)) {
    cudaError_t e = cudaStreamSynchronize(d->stream);
    if (e != cudaSuccess) {
      ndt_status s = disable(d, e, "a random fill");
      if (st == NDT_OK) st = s;
    }
  }
  pthread_mutex_unlock(&d->run);
  return st;
}

static ndt_status rng_body(ndt_bound *b, void *argp) {
  int nop = 1;
  return rng_run(b[0].mem->context, b, 1, &nop, &argp);
}

/* ---- the fused groups' interpreter ----
 * A "fused elementwise" task (src/ops/fusion.c) as a program of
 * fused_impl.h: the ops the task computes (those it writes and those whose
 * values they use, as the CPU's body picks them), each with its kernel of
 * ew_ops.h; its operands the used external inputs, then the written
 * results (in op order; on many ranks the last op's first: fusion.c binds
 * every op's result there, those the task does not write only held, and
 * fused_add leaves those out). 0 when the
 * device cannot run it (an op or dtype without a kernel): the CPU's body
 * runs it. */
_Static_assert(NDT_DK_FMAXOPS >= NDT_FUSE_MAXE + NDT_FUSE_MAXF && NDT_DK_FMAXSTEPS >= NDT_FUSE_MAXF,
               "every group of fusion.c fits a program of the interpreter");
_Static_assert(sizeof(ndt_dk_flaunch) <= 32764, "a launch fits the kernel parameters");
_Static_assert(sizeof(ndt_dk_launch) <= 32764, "a launch fits the kernel parameters");
static int fprog_of(const ndt_fused_task *t, ndt_dk_fprog *P) {
  const ndt_fused_desc *d = t->d;
  if (!d || d->nops < 1 || d->nops > NDT_DK_FMAXSTEPS) return 0;
  memset(P, 0, sizeof *P);
  int map_e[NDT_FUSE_MAXE], step_of[NDT_FUSE_MAXF], nop = 0;
  unsigned char need[NDT_FUSE_MAXF];
  for (int k = d->nops - 1; k >= 0; k--) {
    need[k] = t->incl >> k & 1;
    for (int j = k + 1; j < d->nops && !need[k]; j++)
      for (int i = 0; i < d->ops[j].nin && need[j]; i++)
        if (d->ops[j].src[i] == -(k + 1)) need[k] = 1;
  }
  for (int e = 0; e < d->next; e++)
    if (d->ext_used[e]) map_e[e] = nop++;
  const int first_out = nop;
  for (int k = 0; k < d->nops; k++) {
    if (!need[k]) continue;
    const ndt_fused_op *o = &d->ops[k];
    ndt_dk_fstep *s = &P->step[P->nstep];
    if (o->nin < 1 || o->nin > 3) return 0;
    s->nin = (int8_t)o->nin;
    for (int i = 0; i < o->nin; i++) {
      int sr = o->src[i];
      if (sr >= 0) {
        if (sr >= d->next || !d->ext_used[sr]) return 0;
        s->src[i] = (int8_t)map_e[sr];
        s->in_dt[i] = (uint8_t)d->ext_dt[sr];
      } else {
        int q = -sr - 1;
        if (q >= k || !need[q]) return 0;
        s->src[i] = (int8_t)-(step_of[q] + 1);
        s->in_dt[i] = (uint8_t)d->ops[q].out_dt;
      }
      s->loop_in[i] = (uint8_t)o->loop_in[i];
    }
    s->loop_out = (uint8_t)o->loop_out;
    s->out_dt = (uint8_t)o->out_dt;
    if (o->ufunc < 0) {
      s->key = -1;   /* a cast */
      if (o->nin != 1) return 0;
    } else {
      int loop[NDT_DK_MAXOPS];
      for (int i = 0; i < o->nin; i++) loop[i] = o->loop_in[i];
      loop[o->nin] = o->loop_out;
      s->key = ndt__dk_ew_key(o->ufunc, o->nin, loop, fused());
      if (s->key < 0) return 0;
    }
    s->out = -1;
    if (d->ranks) {
      if (t->incl >> k & 1) {
        int later = 0;   /* written results after op k's, in the operands before it */
        for (int j = k + 1; j < d->nops; j++) later += (int)(t->incl >> j & 1);
        s->out = (int8_t)(first_out + later);
      }
    } else if (t->incl >> k & 1) {
      if (nop == NDT_DK_FMAXOPS) return 0;
      s->out = (int8_t)nop++;
    }
    s->flag = (int8_t)(o->fp ? k : -1);
    step_of[k] = P->nstep++;
  }
  if (d->ranks)
    for (int k = 0; k < d->nops; k++) nop += (int)(t->incl >> k & 1);
  P->nop = nop;
  return P->nstep > 0 && P->nop <= NDT_DK_FMAXOPS;
}

/* ---- advanced-index reads and writes: "gather" and "put" ----
 * The kernels of src/kernels/cuda/index_impl.h. The walked operand (the
 * gather's source, the put's target) goes to the kernel as the list of
 * its tiles' device buffers (at most NDT_DK_IMAXPIECES: larger ones run on
 * the CPU); the other operands are bound as usual. A bad index comes back
 * as its key in a report word; the error is the CPU body's (ndt_gather,
 * ndt__put_run), with the value read back from the index operand. */
static int index_kind(const ndt_task_kind *k) {
  return !strcmp(k->name, "gather") ? 1 : !strcmp(k->name, "put") ? 2 : 0;
}

/* the store offsets [lo, hi] a view reaches (it has elements) */
static void index_extent(const ndt_array *v, int64_t *lo, int64_t *hi) {
  *lo = *hi = v->offset;
  for (int k = 0; k < v->ndim; k++) {
    int64_t d = (v->shape[k] - 1) * v->strides[k];
    if (d < 0) *lo += d;
    else *hi += d;
  }
}

/* The tiles of a view copy's view that its binding pinned (cm_view_copy):
 * those the core's rule names (host->view_tiles), in ascending order. A
 * walked operand, or a view the rule takes whole, passes NULL instead:
 * every tile of its extent is pinned. */
typedef struct {
  int64_t *t, local[64];
  int n, cap;
} tile_list;

static int tile_list_add(void *cp, int64_t t, int64_t l, int64_t h) {
  (void)l;
  (void)h;
  tile_list *c = cp;
  if (c->n == c->cap) {
    int nc = c->cap * 2;
    int64_t *q = malloc((size_t)nc * sizeof *q);
    if (!q) return -1;
    memcpy(q, c->t, (size_t)c->n * sizeof *q);
    if (c->t != c->local) free(c->t);
    c->t = q;
    c->cap = nc;
  }
  c->t[c->n++] = t;
  return 0;
}

/* the first listed tile at or after t */
static int tile_list_at(const tile_list *pl, int64_t t) {
  int lo = 0, hi = pl->n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (pl->t[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The pieces of v for one launch (the tiles it may reach): every tile of
 * its extent, or with pl the listed ones among them; their count, the
 * first tile's index in *t0 (or in pl, at *first). */
static int64_t index_piece_count(const ndt_array *v, const tile_list *pl, int64_t *t0,
                                 int *first) {
  int64_t lo, hi;
  index_extent(v, &lo, &hi);
  *t0 = ndt_store_tile_of(v->store, lo);
  int64_t t1 = ndt_store_tile_of(v->store, hi);
  if (!pl) return t1 - *t0 + 1;
  *first = tile_list_at(pl, *t0);
  return tile_list_at(pl, t1 + 1) - *first;
}

/* whether the tiles v may reach fit one launch of the index kernels
 * (their pieces: NDT_DK_IMAXPIECES) */
static int index_tiles_fit(const ndt_array *v, const tile_list *pl) {
  int64_t t0;
  int first;
  return index_piece_count(v, pl, &t0, &first) <= NDT_DK_IMAXPIECES;
}

static int index_walk_ok(const ndt_array *v) {
  return v->store && v->size > 0 && v->ndim <= NDT_MAXDIMS && index_tiles_fit(v, NULL);
}

static int index_supports(int what, const ndt_operand *op, int nop, const void *arg) {
  if (what == 1) {
    const ndt_gather_arg *g = arg;
    if (nop != g->a.ndim + 2 || g->a.ndim < 1 || g->out.ndim > NDT_MAXDIMS) return 0;
    for (int k = 0; k < g->a.ndim; k++)
      if (g->idx[k].dtype > NDT_UINT64 || g->idx[k].dtype == NDT_BOOL) return 0;
    return index_walk_ok(op[0].view);
  }
  const ndt_put_head *h = arg;
  return nop == 3 && h->a.ndim <= NDT_MAXDIMS && h->idx.dtype == NDT_INT64 &&
         h->vals.store && index_walk_ok(op[2].view);
}

/* The tiles v may reach (their buffers in m) as L's pieces: every tile of
 * its extent (a walked operand: its binding pinned them all), or with pl
 * only the pinned ones (a view copy of a view that leaves whole tiles
 * out: the others may be freed or moved by other tasks meanwhile, so the
 * kernel is never handed them; index_impl.h then finds a piece by its
 * start). */
static ndt_status index_pieces(const ndt_array *v, ndt_memory *m, ndt_dk_ilaunch *L,
                               const tile_list *pl) {
  const ndt_store *s = v->store;
  int64_t t0;
  int first = 0;
  int64_t np = index_piece_count(v, pl, &t0, &first);
  if (np > NDT_DK_IMAXPIECES)
    return host->error(NDT_ERR_INTERNAL, "the CUDA index kernels take at most 512 tiles");
  L->np = (int)np;
  L->gaps = pl && (np == 0 || pl->t[first] != t0 || pl->t[first + np - 1] != t0 + np - 1);
  L->period = s->period;
  L->seg = s->seg;
  L->per = s->per;
  L->t0 = t0;
  L->es = s->itemsize;
  for (int i = 0; i < L->np; i++) {
    const ndt_tile *tl = &s->tiles[pl ? pl->t[first + i] : t0 + i];
    char *p = ndt_tile_mem(tl, m);
    if (!p) return host->error(NDT_ERR_INTERNAL, "a walked tile has no device copy");
    L->pptr[i] = p + v->part;
    L->pstart[i] = tl->start;
    L->plen[i] = tl->len;
  }
  return NDT_OK;
}

/* the index of dtype t at device address p, read back */
static ndt_status index_read(cuda_dev *d, const char *p, int t, int64_t *v) {
  char buf[8] = {0};
  cudaError_t e = cudaMemcpyAsync(buf, p, (size_t)ndt_dk_index_size(t), cudaMemcpyDeviceToHost,
                                  d->stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
  if (e != cudaSuccess) return disable(d, e, "a read of an index");
  *v = ndt_sc_index_at(t, buf);
  return NDT_OK;
}

/* One gather (what 1) or put (2) task on d: fills L, launches, reads the
 * report back; called with d->run held. */
static ndt_status index_one(cuda_dev *d, int what, ndt_bound *b, const void *arg,
                            ndt_dk_ilaunch *L, unsigned long long *rep) {
  memset(L, 0, offsetof(ndt_dk_ilaunch, pstart));
  L->report = rep;
  ndt_status st;
  if (what == 1) {
    const ndt_gather_arg *g = arg;
    L->nd = g->out.ndim;
    L->nk = g->a.ndim;
    L->isz = ndt_dk_dtype_size(g->a.dtype);
    L->n = g->out.size;
    for (int j = 0; j < L->nd; j++) {
      L->shape[j] = g->out.shape[j];
      L->ost[j] = b[1].st[j];
    }
    for (int k = 0; k < L->nk; k++) {
      L->it[k] = g->idx[k].dtype;
      L->idx[k] = b[2 + k].ptr;
      for (int j = 0; j < L->nd; j++) L->ist[k][j] = b[2 + k].st[j];
      L->ashape[k] = g->a.shape[k];
      L->ast[k] = g->a.strides[k];
    }
    L->aoff = g->a.offset;
    L->out = b[1].ptr;
    st = index_pieces(b[0].view, b[0].mem, L, NULL);
  } else {
    const ndt_put_head *h = arg;
    L->put = 1;
    L->nd = h->a.ndim;
    L->isz = ndt_dk_dtype_size(h->a.dtype);
    L->n = h->idx.shape[0];
    for (int j = 0; j < L->nd; j++) {
      L->shape[j] = h->a.shape[j];
      L->ost[j] = h->a.strides[j];
    }
    L->aoff = h->a.offset;
    L->size = h->a.size;
    L->lo = h->lo;
    L->hi = h->hi;
    L->idx[0] = b[0].ptr;
    L->is = b[0].st[0];
    L->vals = b[1].ptr;
    L->vs = b[1].st[0];
    st = index_pieces(b[2].view, b[2].mem, L, NULL);
  }
  if (st) return st;
  /* a put's claims: a word per element of its range, zero (index_impl.h) */
  size_t claims = L->put && L->hi > L->lo ? (size_t)(L->hi - L->lo) * sizeof *L->last : 0;
  if (claims && !(L->last = dev_malloc(d, claims))) {
    if (atomic_load(&d->dead)) return refuse(d);
    claims = 0;   /* the device is full: one thread walks the indices in order */
  }
  unsigned long long key = NDT_DK_INONE;
  cudaError_t e = cudaMemsetAsync(rep, 0xFF, sizeof *rep, d->stream);
  if (e == cudaSuccess && claims) e = cudaMemsetAsync(L->last, 0, claims, d->stream);
  if (e != cudaSuccess) return disable(d, e, what == 1 ? "a gather" : "a put");
  int rc = ndt__dk_index(L, d->stream);
  if (claims) cudaFreeAsync(L->last, d->stream);
  if (rc) return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this index task");
  e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaMemcpyAsync(&key, rep, sizeof key, cudaMemcpyDeviceToHost, d->stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
  if (e != cudaSuccess) return disable(d, e, what == 1 ? "a gather" : "a put");
  if (key == NDT_DK_INONE) return NDT_OK;
  char msg[160];
  int64_t v = 0;
  if (what == 1) {   /* key = position * nk + axis: the index there, read back */
    int64_t pos = (int64_t)(key / (unsigned)L->nk), r = pos;
    int k = (int)(key % (unsigned)L->nk);
    const char *ip = L->idx[k];
    for (int j = L->nd - 1; j >= 0; j--) {
      ip += (r % L->shape[j]) * L->ist[k][j];
      r /= L->shape[j];
    }
    if ((st = index_read(d, ip, L->it[k], &v))) return st;
    snprintf(msg, sizeof msg, "index %lld is out of bounds for axis %d with size %lld",
             (long long)v, k, (long long)L->ashape[k]);
  } else {   /* key = position */
    if ((st = index_read(d, L->idx[0] + (int64_t)key * L->is, NDT_INT64, &v))) return st;
    snprintf(msg, sizeof msg, "index %lld is out of bounds for axis 0 with size %lld",
             (long long)v, (long long)L->size);
  }
  return host->error(NDT_ERR_INDEX, msg);
}

/* n index tasks on d (one, or a grouped task's members), in order; the
 * first error stops them (as the first failing member of a CPU group). */
static ndt_status index_run(cuda_dev *d, int what, ndt_bound *b, int n, const int *nop,
                            void *const *args) {
  static _Thread_local ndt_dk_ilaunch L;   /* 22 KB: not on a worker's stack */
  pthread_mutex_lock(&d->run);
  if (atomic_load(&d->dead)) {
    pthread_mutex_unlock(&d->run);
    return refuse(d);
  }
  cudaSetDevice(d->dev);
  unsigned long long *rep = dev_malloc(d, sizeof *rep);
  ndt_status st = rep ? NDT_OK : NDT_ERR_NOMEM;
  for (int i = 0, at = 0; i < n && st == NDT_OK; at += nop[i++])
    st = index_one(d, what, b + at, args[i], &L, rep);
  if (rep && !atomic_load(&d->dead)) {
    cudaFreeAsync(rep, d->stream);
    cudaStreamSynchronize(d->stream);
  }
  pthread_mutex_unlock(&d->run);
  return st;
}

/* A view's elements to or from a C-order buffer (bind.c's gather of a view
 * across tiles into scratch, and its scatter back): launches of the index
 * kernels' view copy over its tiles' buffers, then one wait, as a copy
 * waits. Without it bind.c made a copy (and a wait) per run of the view's
 * merged axes in a tile: per column of a transpose, per element of a
 * reversed view. The tiles are those the binding pinned (pl: a view that
 * leaves whole tiles out, a transpose's block, a stepped view; else its
 * extent's). A launch takes the buffers of NDT_DK_IMAXPIECES tiles: a view
 * over more is split in halves along its first axis longer than 1 (each
 * half a C-order stretch of buf) until each part fits, so a view of T
 * tiles costs about T / 256 launches, for any strides. */
static _Thread_local ndt_dk_ilaunch view_launch;   /* 22 KB: not on a worker's stack */
static ndt_status view_copy_part(cuda_dev *d, ndt_memory *m, const ndt_array *v, char *buf,
                                 int to_buf, int isz, const tile_list *pl) {
  if (!index_tiles_fit(v, pl)) {
    int k = 0;
    while (v->shape[k] == 1) k++;   /* one element always fits: some axis is longer */
    ndt_array h = *v;
    h.shape[k] = v->shape[k] / 2;
    h.size = v->size / v->shape[k] * h.shape[k];
    ndt_status st = view_copy_part(d, m, &h, buf, to_buf, isz, pl);
    if (st) return st;
    h.offset += h.shape[k] * v->strides[k];
    buf += h.size * isz;
    h.shape[k] = v->shape[k] - h.shape[k];
    h.size = v->size - h.size;
    return view_copy_part(d, m, &h, buf, to_buf, isz, pl);
  }
  ndt_dk_ilaunch *L = &view_launch;   /* a launch copies its parameters */
  memset(L, 0, offsetof(ndt_dk_ilaunch, pstart));
  L->put = 2;
  L->phase = to_buf ? 0 : 1;
  L->nd = v->ndim;
  L->isz = isz;
  L->n = v->size;
  L->aoff = v->offset;
  L->out = buf;
  for (int j = 0; j < v->ndim; j++) {
    L->shape[j] = v->shape[j];
    L->ast[j] = v->strides[j];
  }
  ndt_status st = index_pieces(v, m, L, pl);
  if (st) return st;
  return ndt__dk_index(L, d->stream) ? NDT_ERR_UNSUPPORTED : NDT_OK;
}

static ndt_status cm_view_copy(ndt_memory *m, const ndt_array *v, void *buf, int to_buf) {
  int isz = ndt_dk_dtype_size(v->dtype);   /* (ndt_vsize: the plugin has no ndt__traits) */
  if (v->size <= 0) return NDT_OK;
  if (isz < 1 || isz > 16 || !v->store || v->ndim > NDT_MAXDIMS) return NDT_ERR_UNSUPPORTED;
  /* the tiles the binding pinned, when it left some of the extent out */
  tile_list pl = {.cap = 64};
  pl.t = pl.local;
  int64_t lo, hi;
  index_extent(v, &lo, &hi);
  int g = host->view_tiles(v, lo, hi, tile_list_add, &pl);
  if (g < 0) {
    if (pl.t != pl.local) free(pl.t);
    return host->error(NDT_ERR_NOMEM, "out of memory listing a view's tiles");
  }
  cuda_dev *d = NULL;
  int fd = 0;
  ndt_status st = copy_device(m, m, &d, &fd);
  if (st == NDT_OK) {
    st = view_copy_part(d, m, v, buf, to_buf, isz, g ? &pl : NULL);
    /* launched parts end before bind.c's copies run by run (or the error) */
    ndt_status w = copy_wait(d, cudaGetLastError(), fd);
    st = st ? st : w;
  }
  if (pl.t != pl.local) free(pl.t);
  return st;
}

static ndt_status gather_body(ndt_bound *b, void *argp) {
  int nop = ((const ndt_gather_arg *)argp)->a.ndim + 2;
  return index_run(b[0].mem->context, 1, b, 1, &nop, &argp);
}

static ndt_status put_body(ndt_bound *b, void *argp) {
  int nop = 3;
  return index_run(b[2].mem->context, 2, b, 1, &nop, &argp);
}

/* ---- a body's tasks on a device ----
 * n tasks (one, or a grouped task's members: nop[i] operands each, one
 * after the other in b) run in order by one(d, ctx, b + at, args[i]),
 * with d driven by this body alone (d->run held), the first error
 * stopping them; then one wait on d's stream (a failure there disables d:
 * `what` names the operation). With flags, d's flags word is cleared first
 * and what the kernels reported is raised on this worker after, as the
 * CPU's loops raise them. A device that failed before refuses: the task
 * runs on the CPU. The bodies of the later families (argwhere, combines,
 * sort, bincount, FFT, linalg) are this and a function per task. */
typedef ndt_status (*member_fn)(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg);
static ndt_status run_members(cuda_dev *d, const char *what, int flags, member_fn one, void *ctx,
                              ndt_bound *b, int n, const int *nop, void *const *args) {
  pthread_mutex_lock(&d->run);
  if (atomic_load(&d->dead)) {
    pthread_mutex_unlock(&d->run);
    return refuse(d);
  }
  cudaSetDevice(d->dev);
  cudaError_t e = flags ? cudaMemsetAsync(d->flags, 0, sizeof(unsigned), d->stream) : cudaSuccess;
  ndt_status st = e == cudaSuccess ? NDT_OK : disable(d, e, what);
  for (int i = 0, at = 0; i < n && st == NDT_OK; at += nop[i++])
    st = one(d, ctx, b + at, args[i]);
  unsigned f = 0;
  if (!atomic_load(&d->dead)) {
    e = flags ? cudaMemcpyAsync(&f, d->flags, sizeof f, cudaMemcpyDeviceToHost, d->stream)
              : cudaSuccess;
    if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
    if (e != cudaSuccess) {
      ndt_status s = disable(d, e, what);
      if (st == NDT_OK) st = s;
    }
  }
  pthread_mutex_unlock(&d->run);
  if (st == NDT_OK && f) ndt_fpe_raise(f);
  return st;
}

/* ---- argwhere: "argwhere count" and "argwhere fill" (search.c) ----
 * The kernels of src/kernels/cuda/nz_impl.h: a block's count goes to its
 * int64 in the counts store; its rows are written in one launch after a
 * launch that counts each chunk into scratch. Every dtype, 1-d and up. */
static int nz_kind(const ndt_task_kind *k) {
  return !strcmp(k->name, "argwhere count") ? 1 : !strcmp(k->name, "argwhere fill") ? 2 : 0;
}

static int nz_supports(const ndt_nz_arg *z, int nop) {
  return nop == 2 && z->in.ndim >= 1 && z->in.ndim <= NDT_MAXDIMS && z->in.dtype >= 0 &&
         z->in.dtype < NDT_NTYPES;
}

/* one argwhere task of kind *(int *)ctx (1 count, 2 fill) */
static ndt_status nz_one(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  const int what = *(const int *)ctx;
  const ndt_nz_arg *z = arg;
  ndt_bound *in = &b[0], *out = &b[1];
  ndt_dk_nzlaunch L;
  memset(&L, 0, sizeof L);
  L.dt = z->in.dtype;
  L.isz = ndt_dk_dtype_size(L.dt);
  L.nd = in->ndim;
  L.n = 1;
  for (int k = 0; k < L.nd; k++) {
    L.shape[k] = in->shape[k];
    L.st[k] = in->st[k];
    L.start[k] = z->start[k];
    L.n *= L.shape[k];
  }
  L.in = in->ptr;
  L.nb = ndt_dk_nz_chunks(L.n);
  cudaError_t e = cudaSuccess;
  int rc = 0;
  if (what == 1) {
    L.mode = NDT_DK_NZ_COUNT;
    L.count = (unsigned long long *)out->ptr;
    e = cudaMemsetAsync(out->ptr, 0, sizeof(int64_t), d->stream);
    if (e == cudaSuccess) rc = ndt__dk_nz(&L, d->stream);
  } else {
    /* the chunks' counts: scratch, freed on the stream after the fill */
    if (!(L.part = dev_malloc(d, (size_t)L.nb * sizeof *L.part))) return NDT_ERR_NOMEM;
    L.mode = NDT_DK_NZ_CHUNKS;
    L.rows = out->view->size / L.nd;
    rc = ndt__dk_nz(&L, d->stream);
    L.mode = NDT_DK_NZ_FILL;
    L.out = (int64_t *)out->ptr;
    if (!rc) rc = ndt__dk_nz(&L, d->stream);
    cudaFreeAsync(L.part, d->stream);
  }
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) return disable(d, e, "an argwhere");
  return rc ? host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this argwhere task") : NDT_OK;
}

static ndt_status nz_run(cuda_dev *d, int what, ndt_bound *b, int n, const int *nop,
                         void *const *args) {
  return run_members(d, "an argwhere", 0, nz_one, &what, b, n, nop, args);
}

static ndt_status nz_count_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return nz_run(b[0].mem->context, 1, b, 1, &nop, &argp);
}

static ndt_status nz_fill_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return nz_run(b[0].mem->context, 2, b, 1, &nop, &argp);
}

/* ---- "arange" (creation.c's range fills: arange, linspace) ----
 * ew_impl.h's range kernel, a group's tasks in one launch: every dtype, the CPU's bits
 * (ndt__cpu_range's arithmetic, then scalar.h's casts). */
static int range_kind(const ndt_task_kind *k) { return !strcmp(k->name, "arange"); }

static int range_supports(const ndt_range_arg *a, int nop) {
  return nop == 1 && a->out.ndim == 1 && a->out.dtype >= 0 && a->out.dtype < NDT_NTYPES;
}

/* A group's fills (the plan's grouped launch: consecutive "arange" tasks on
 * one device, cd_group) in as few launches as their runs allow: the runs of
 * one dtype go in one launch of up to NDT_DK_MAXRUNS (each run carries its
 * own range: ndt_dk_range_run), so the n tiles of an arange take n / 128
 * launches, not n. The same elements and bits as a launch each. */
typedef struct {
  int n, i, to;               /* the group's members, the ones seen, the runs' dtype */
  ndt_dk_launch L;
} range_batch;

static ndt_status range_flush(cuda_dev *d, range_batch *r) {
  if (!r->L.nrun) return NDT_OK;
  r->L.aux = 0;
  int rc = ndt__dk_range(r->to, &r->L, d->stream);
  r->L.nrun = 0;
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return disable(d, e, "an arange");
  return rc ? host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this arange task") : NDT_OK;
}

/* one member: its run joins the batch (launched first when full or of
 * another dtype); the last member launches what is left */
static ndt_status range_one(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  range_batch *r = ctx;
  const ndt_range_arg *a = arg;
  ndt_status st = NDT_OK;
  int last = ++r->i == r->n;
  if (a->out.size) {
    if (r->L.nrun && (r->to != (int)a->out.dtype || r->L.nrun == NDT_DK_MAXRUNS))
      st = range_flush(d, r);
    if (st) return st;
    const ndt_range_desc *q = &a->d;
    r->to = (int)a->out.dtype;
    ndt_dk_range_run(&r->L.run[r->L.nrun++], b[0].ptr, b[0].st[0], a->out.size, a->first,
                     q->as_int, q->as_f32, q->has_v1, q->v1, q->start, q->step, q->istart,
                     q->istep, q->div);
  }
  return last ? range_flush(d, r) : NDT_OK;
}

static ndt_status range_run(cuda_dev *d, ndt_bound *b, int n, const int *nop,
                            void *const *args) {
  static _Thread_local range_batch r;   /* (17 KB: not on a stack) */
  r.n = n;
  r.i = 0;
  r.L.nrun = 0;
  return run_members(d, "an arange", 0, range_one, &r, b, n, nop, args);
}

static ndt_status range_body(ndt_bound *b, void *argp) {
  int nop = 1;
  return range_run(b[0].mem->context, b, 1, &nop, &argp);
}

/* ---- matrix products through cuBLAS: "matmul block", "matmul pack",
 * "matmul copyout", "matvec" (a part of this file, kept in its own) ---- */
#include "runtime/cuda_matmul.h"
/* ---- the ordered folds into a result: "reduce combine", "prod chain",
 * "prod fold" (a part of this file, kept in its own) ---- */
#include "runtime/cuda_combine.h"

/* ---- FFTs through cuFFT: "fft" (a part of this file, kept in its own) ---- */
#include "runtime/cuda_fft.h"

/* ---- solve, inv and cholesky through cuSOLVER: "linalg" (likewise) ---- */
#include "runtime/cuda_linalg.h"

/* ---- sort and argsort: "sort" (its own file) ---- */
#include "runtime/cuda_sort.h"

/* ---- partition and argpartition: "partition" (its own file) ---- */
#include "runtime/cuda_partition.h"


/* ---- bincount: "bincount count", "bincount combine" (its own file) ---- */
#include "runtime/cuda_bincount.h"

/* ---- searchsorted and histograms of uniform bins: "searchsorted",
 * "histogram" (their own file, after bincount's: a histogram counts with
 * its kernel) ---- */
#include "runtime/cuda_search.h"

enum { K_EW, K_LEAF, K_BLOCK, K_FUSED, K_RNG, K_SCAN, K_SCANFIX, K_BSLEAF, K_PWTOP, K_NONE };
static int kind_of(const ndt_task_kind *k) {
  return !strcmp(k->name, "elementwise")         ? K_EW
         : !strcmp(k->name, "pairwise leaf")     ? K_LEAF
         : !strcmp(k->name, "pairwise leaf, seeded") ? K_LEAF
         : !strcmp(k->name, "reduce block")      ? K_BLOCK
         : !strcmp(k->name, "reduce block, seeded") ? K_BLOCK
         : !strcmp(k->name, "fused elementwise") ? K_FUSED
         : !strcmp(k->name, "random")            ? K_RNG
         : !strcmp(k->name, "scan")              ? K_SCAN
         : !strcmp(k->name, "scan fixup")        ? K_SCANFIX
         : !strcmp(k->name, "buffered sum leaf") ? K_BSLEAF
         : !strcmp(k->name, "pairwise top")      ? K_PWTOP
                                                 : K_NONE;
}

static int cd_supports(ndt_processor *p, const ndt_task_kind *k, const ndt_operand *op, int nop,
                       const void *arg) {
  cuda_dev *d = p->context;
  if (atomic_load(&d->dead)) return 0;
  if (index_kind(k)) return index_supports(index_kind(k), op, nop, arg);
  if (nz_kind(k)) return nz_supports(arg, nop);
  if (mm_kind(k)) return mm_supports(d, mm_kind(k), arg);
  if (cb_kind(k)) return cb_supports(d, cb_kind(k), op, nop, arg);
  if (fft_kind(k)) return fft_supports(arg);
  if (la_kind(k)) return la_supports(d, arg);
  if (sort_kind(k)) return sort_supports(op, nop, arg);
  if (part_kind(k)) return part_supports(op, nop, arg);
  if (search_kind(k)) return search_supports(search_kind(k), op, nop, arg);
  if (bin_kind(k)) return bin_supports(bin_kind(k), op, nop, arg);
  if (range_kind(k)) return range_supports(arg, nop);
  if (mvc_kind(k)) return mvc_supports(arg, nop);
  ew_sig g;
  static _Thread_local ndt_dk_fprog P;
  switch (kind_of(k)) {
    case K_EW: return ew_sig_of(arg, &g);
    case K_FUSED: return fprog_of(arg, &P);
    case K_LEAF: return pw_leaf_ok(arg);
    case K_BSLEAF: return bsum_leaf_ok(arg);
    case K_PWTOP: return pw_top_ok(arg, nop);
    case K_BLOCK: return red_ok(arg, op, nop);
    case K_RNG: return rng_ok(arg);
    case K_SCAN: return scan_ok(arg, 0);
    case K_SCANFIX: return scan_ok(arg, 1);
    default: return 0;
  }
}

/* ---- one body's launches ----
 * The runs of a batch, launched when its kernel changes or it is full. */
typedef struct {
  int what;       /* K_EW, K_LEAF/K_BLOCK (a reduction), K_SCAN/K_SCANFIX */
  ew_sig sig;     /* K_EW: the kernel; a pairwise sum: sig.loop[0], its dtype, loop[1]
                     1 for nansum (nin 0);
                     a fold (block_sig): op, nin = 1 + layout, loop = {acc, input};
                     a scan (scan_sig): op = prod | nan << 1, loop = {result, input} */
  ndt_dk_launch L;
} batch;

static ndt_status launch(cuda_dev *d, batch *bt) {
  if (!bt->L.nrun) return NDT_OK;
  const ew_sig *g = &bt->sig;
  int rc;
  if (bt->what == K_SCAN || bt->what == K_SCANFIX) {
    bt->L.aux = g->loop[1] | (g->op & 1) << 8 | (g->op >> 1 & 1) << 9;
    rc = ndt__dk_scan(g->loop[0], bt->what == K_SCANFIX, &bt->L, d->flags, d->stream);
  } else if (bt->what == K_PWTOP) {
    bt->L.aux = 0;
    rc = ndt__dk_pwtop(g->loop[0], &bt->L, d->flags, d->stream);
  } else if (bt->what == K_BLOCK && g->nin == 3) {
    bt->L.aux = 0;
    rc = ndt__dk_arg(g->op, g->loop[0], &bt->L, d->flags, d->stream);
  } else if (bt->what == K_BLOCK && g->nin > 0) {
    bt->L.aux = g->loop[1];
    rc = ndt__dk_fold(g->op, g->nin - 1, g->loop[0], &bt->L, d->flags, d->stream);
  } else {
    bt->L.aux = 0;
    /* (loop[1]: a NaN-ignoring sum, NDT_PW_NAN) */
    rc = bt->what != K_EW ? ndt__dk_pairwise(g->loop[0] | g->loop[1] << 8, &bt->L, d->flags, d->stream)
         : g->op < 0 ? ndt__dk_cast(g->loop[0], g->loop[1], &bt->L, d->flags, d->stream)
                     : ndt__dk_ew(g->op, g->nin, g->loop, fused(), &bt->L, d->flags, d->stream);
  }
  bt->L.nrun = 0;
  if (rc) return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this task");
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : disable(d, e, "a kernel launch");
}

/* the next run of the batch (launching it first when full) */
static ndt_status next_run(cuda_dev *d, batch *bt, ndt_dk_run **u) {
  if (bt->L.nrun == NDT_DK_MAXRUNS) {
    ndt_status s = launch(d, bt);
    if (s) return s;
  }
  *u = &bt->L.run[bt->L.nrun++];
  return NDT_OK;
}

/* Appends one bound elementwise task's elements to the batch as 2-d runs
 * (its last two axes; one run per index of the axes before). */
static ndt_status ew_add(cuda_dev *d, batch *bt, const ndt_ew_arg *a, ndt_bound *b) {
  int nop = a->nin + 1, nd = b[a->nin].ndim;
  int64_t shape[NDT_MAXDIMS], st[NDT_DK_MAXOPS][NDT_MAXDIMS];
  for (int k = 0; k < nd; k++) {
    shape[k] = b[a->nin].shape[k];
    if (shape[k] == 0) return NDT_OK;   /* empty */
    for (int o = 0; o < nop; o++) st[o][k] = b[o].st[k];
  }
  nd = ndt__coalesce(nd, shape, nop, st);
  int64_t rows = nd >= 2 ? shape[nd - 2] : 1, cols = nd >= 1 ? shape[nd - 1] : 1, outer = 1;
  for (int k = 0; k < nd - 2; k++) outer *= shape[k];
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t r = 0; r < outer; r++) {
    ndt_dk_run *u;
    ndt_status s = next_run(d, bt, &u);
    if (s) return s;
    u->rows = rows;
    u->cols = cols;
    for (int o = 0; o < nop; o++) {
      char *p = b[o].ptr;
      for (int k = 0; k < nd - 2; k++) p += idx[k] * st[o][k];
      u->p[o] = p;
      u->rs[o] = nd >= 2 ? st[o][nd - 2] : 0;
      u->cs[o] = nd >= 1 ? st[o][nd - 1] : 0;
    }
    for (int k = nd - 3; k >= 0; k--) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return NDT_OK;
}

/* An elementwise task with casts (ew_casts): the CPU's loop
 * (ndt__run_loop) casts each input element into the loop's dtype, runs
 * the loop and casts each result element into the output's. Here each
 * input of another dtype is cast into device scratch first (a broadcast
 * axis kept of extent 1, as the CPU keeps a broadcast input one element of
 * stride 0), the loop's kernel runs over the scratch, and a result of
 * another dtype is cast from scratch into the output: per element the same
 * casts and the same loop (scalar.h both), so the CPU's bits and flags.
 * The scratch is taken before anything is written (a failure: the CPU
 * runs the task) and freed on the stream after the last launch. */
static ndt_status ew_cast_pair(cuda_dev *d, batch *bt, int from, int to, ndt_bound *src,
                               ndt_bound *dst, const int64_t *shape) {
  ndt_ew_arg ca;
  ndt_bound pair[2] = {*src, *dst};
  ca.nin = 1;
  pair[1].shape = shape;   /* (ew_add's extents: the destination's) */
  memset(&bt->sig, 0, sizeof bt->sig);
  bt->sig.op = -1;
  bt->sig.nin = 1;
  bt->sig.loop[0] = from;
  bt->sig.loop[1] = to;
  ndt_status st = ew_add(d, bt, &ca, pair);
  return st ? st : launch(d, bt);
}

static ndt_status ew_cast_run(cuda_dev *d, batch *bt, const ndt_ew_arg *a, ndt_bound *b) {
  int nin = a->nin, nd = b[nin].ndim;
  const int64_t *shape = b[nin].shape;
  for (int k = 0; k < nd; k++)
    if (shape[k] == 0) return NDT_OK;   /* empty */
  static _Thread_local ndt_ew_arg la;   /* (the loop's task: operands of its dtypes) */
  la = *a;
  ndt_bound cb[NDT_MAXOPS];
  int64_t ext[NDT_MAXOPS][NDT_MAXDIMS];
  void *buf[NDT_MAXOPS] = {0};
  ndt_status st = NDT_OK;
  for (int o = 0; o <= nin && st == NDT_OK; o++) {
    cb[o] = b[o];
    int want = o < nin ? a->loop_in[o] : a->loop_out;
    if ((int)a->op[o].dtype == want) continue;
    int64_t sz = ndt_dk_dtype_size(want), step = sz;
    for (int k = nd - 1; k >= 0; k--) {
      /* a broadcast input's axis (stride 0) stays one element wide */
      ext[o][k] = o < nin && b[o].st[k] == 0 ? 1 : shape[k];
      cb[o].st[k] = ext[o][k] > 1 ? step : 0;
      step *= ext[o][k];
    }
    if (!(buf[o] = alloc_gate(d) ? dev_malloc(d, (size_t)step) : NULL)) st = NDT_ERR_NOMEM;
    cb[o].ptr = buf[o];
    cb[o].shape = ext[o];
    la.op[o].dtype = (ndt_dtype)want;
  }
  for (int o = 0; o < nin && st == NDT_OK; o++)
    if (buf[o]) st = ew_cast_pair(d, bt, a->op[o].dtype, a->loop_in[o], &b[o], &cb[o], ext[o]);
  if (st == NDT_OK) {
    cb[nin].shape = shape;
    if (!ew_sig_of(&la, &bt->sig)) st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this task");
    if (st == NDT_OK) st = ew_add(d, bt, &la, cb);
    if (st == NDT_OK) st = launch(d, bt);
  }
  if (st == NDT_OK && buf[nin]) {
    ndt_bound out = b[nin];
    st = ew_cast_pair(d, bt, a->loop_out, a->op[nin].dtype, &cb[nin], &out, shape);
  }
  for (int o = 0; o <= nin; o++)
    if (buf[o] && !atomic_load(&d->dead)) cudaFreeAsync(buf[o], d->stream);
  return st;
}

/* A leaf of a full sum: one run, its slot = -0.0 + pw(piece), as the
 * CPU's leaf (a piece of -0.0s sums to -0.0: a seeded sum adds it to its
 * start). */
static ndt_status leaf_add(cuda_dev *d, batch *bt, const ndt_pw_arg *a, ndt_bound *b) {
  ndt_dk_run *u;
  ndt_status s = next_run(d, bt, &u);
  if (s) return s;
  *u = (ndt_dk_run){.rows = 1, .cols = a->line.shape[0], .p = {b[0].ptr, b[1].ptr},
                    .cs = {b[0].st[0], 0}, .from = 1};
  neg_zero_bits(a->acc, u->start);
  return NDT_OK;
}

/* A buffered sum's leaf: a run per buffer, each into its slot from -0.0. */
static ndt_status bsleaf_add(cuda_dev *d, batch *bt, const ndt_pw_arg *a, ndt_bound *b) {
  int64_t n = a->line.shape[0], asz = ndt_dk_dtype_size(a->acc);
  for (int64_t c = 0, i = 0; c < n; c += NDT_NP_BUFSIZE, i++) {
    ndt_dk_run *u;
    ndt_status s = next_run(d, bt, &u);
    if (s) return s;
    *u = (ndt_dk_run){.rows = 1, .cols = n - c < NDT_NP_BUFSIZE ? n - c : NDT_NP_BUFSIZE,
                      .p = {b[0].ptr + c * b[0].st[0], b[1].ptr + i * asz},
                      .cs = {b[0].st[0], 0}, .from = 1};
    neg_zero_bits(a->acc, u->start);
  }
  return NDT_OK;
}

/* A pairwise top: one run over the leaves' sums (reduce_impl.h's layout) */
static ndt_status pwtop_add(cuda_dev *d, batch *bt, const ndt_pw_arg *a, ndt_bound *b) {
  ndt_dk_run *u;
  ndt_status s = next_run(d, bt, &u);
  if (s) return s;
  *u = (ndt_dk_run){.rows = 1, .cols = pw_top_leaves(a->n, a->leaf, a->cplx),
                    .p = {b[0].ptr, b[1].ptr}, .rs = {a->n, a->leaf},
                    .cs = {ndt_dk_dtype_size(a->acc), 0}, .from = a->from_out ? 2 : 0};
  return NDT_OK;
}

/* The runs of a reduction block by its plan (fold_plan above): one per
 * index of the kept outer axes, in C order, of rows (along the reduced
 * axis pl->red) x cols (the innermost axis; the partials step ocs along
 * it: 0 when it is reduced). */
static ndt_status plan_runs(cuda_dev *d, batch *bt, const ndt_red_arg *r, const ndt_bound *b,
                           const fold_plan *pl, int64_t ocs) {
  const int nd = pl->nd, red = pl->red;
  const int64_t *shape = pl->shape;
  const int64_t(*st)[NDT_MAXDIMS] = pl->st;
  int64_t cols = nd ? shape[nd - 1] : 1, cs = nd ? st[0][nd - 1] : 0;
  int64_t rows = red >= 0 ? shape[red] : 1, rs = red >= 0 ? st[0][red] : 0;
  int64_t outer = 1, idx[NDT_MAXDIMS] = {0};
  for (int k = 0; k < nd - 1; k++)
    if (k != red) outer *= shape[k];
  for (int64_t q = 0; q < outer; q++) {
    ndt_dk_run *u;
    ndt_status s = next_run(d, bt, &u);
    if (s) return s;
    char *ip = b[0].ptr, *op = b[1].ptr;
    for (int k = 0; k < nd - 1; k++) {
      ip += idx[k] * st[0][k];
      op += idx[k] * st[1][k];
    }
    *u = (ndt_dk_run){.rows = rows, .cols = cols, .p = {ip, op}, .rs = {rs, 0}, .cs = {cs, ocs}};
    red_start(r, u);
    for (int k = nd - 2; k >= 0; k--) {   /* the kept outer axes, in C order */
      if (k == red) continue;
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return NDT_OK;
}

/* A block of a sum: a run per partial element (red_plan_of above). */
static ndt_status block_add(cuda_dev *d, batch *bt, const ndt_red_arg *r, ndt_bound *b) {
  int asz = ndt_dk_dtype_size(r->acc);
  const ndt_array *v = b[0].view;
  int64_t pn = 1;
  for (int k = 0; k < v->ndim; k++) pn *= (r->mask >> k & 1) ? 1 : v->shape[k];
  if (pn == 0) return NDT_OK;
  if (v->size == 0) {   /* every partial 0 (+0.0): the identity */
    cudaError_t e = cudaMemsetAsync(b[1].ptr, 0, (size_t)(pn * asz), d->stream);
    return e == cudaSuccess ? NDT_OK : disable(d, e, "a memset");
  }
  fold_plan pl;
  if (!red_plan_of(r, b[0].ndim, b[0].shape, b[0].st, b[0].view->strides, &pl))
    return host->error(NDT_ERR_INTERNAL, "the CUDA sum cannot take this block's layout");
  return plan_runs(d, bt, r, b, &pl, 0);
}

/* A block's kernel: the pairwise sum (nin 0), a fold (nin 1 + layout) or
 * an arg reduction (nin 3). */
static void block_sig(const ndt_red_arg *r, const ndt_bound *b, ew_sig *g) {
  g->loop[0] = r->acc;
  if (r->arg) {
    g->op = r->op;
    g->nin = 3;
    return;
  }
  if (pw_block_ok(r, b[0].ndim, b[0].shape, b[0].st, b[0].view->strides)) {
    g->loop[1] = r->op == NDT_RED_NANSUM;   /* (the NaN-ignoring pairwise sum) */
    return;
  }
  fold_plan pl;
  fold_plan_of(r, b[0].ndim, b[0].shape, b[0].st, b[0].view->strides, &pl);
  g->op = r->op;
  g->nin = 1 + pl.mode;
  g->loop[1] = r->in.dtype;
}

/* An argmin/argmax block (arg_rows above): the CPU body's runs, each
 * with its first index; the partials' values in operand 1, indices in 2. */
static ndt_status arg_add(cuda_dev *d, batch *bt, const ndt_red_arg *r, ndt_bound *b) {
  const ndt_array *v = b[0].view;
  int nd = b[0].ndim, asz = ndt_dk_dtype_size(r->acc);
  if (!v->size) return NDT_OK;
  ndt_dk_run *u;
  ndt_status s;
  if (r->arg_all) {
    int64_t rows, rs;
    if (!arg_rows(r, nd, b[0].shape, b[0].st, &rows, &rs))
      return host->error(NDT_ERR_INTERNAL, "the CUDA arg reduction cannot take this block");
    if ((s = next_run(d, bt, &u))) return s;
    *u = (ndt_dk_run){.rows = rows, .cols = nd ? b[0].shape[nd - 1] : 1,
                      .p = {b[0].ptr, b[1].ptr, b[2].ptr}, .rs = {rs, 0, 0, r->arg_base},
                      .cs = {nd ? b[0].st[nd - 1] : 0, 0, 0}};
    return NDT_OK;
  }
  /* a run per partial element (the other axes in C order); the partials
   * in C order over the block's shape with the axis set to 1 */
  int ax = r->arg_axis;
  int64_t pst[NDT_MAXDIMS], pe = 1, outer = 1, idx[NDT_MAXDIMS] = {0};
  for (int k = nd - 1; k >= 0; k--) {
    pst[k] = k == ax ? 0 : pe;
    if (k != ax) pe *= b[0].shape[k];
  }
  outer = pe;
  for (int64_t q = 0; q < outer; q++) {
    if ((s = next_run(d, bt, &u))) return s;
    char *ip = b[0].ptr;
    int64_t po = 0;
    for (int k = 0; k < nd; k++) {
      ip += idx[k] * b[0].st[k];
      po += idx[k] * pst[k];
    }
    *u = (ndt_dk_run){.rows = 1, .cols = b[0].shape[ax],
                      .p = {ip, b[1].ptr + po * asz, b[2].ptr + po * 8},
                      .rs = {0, 0, 0, r->arg_base}, .cs = {b[0].st[ax], 0, 0}};
    for (int k = nd - 1; k >= 0; k--) {
      if (k == ax) continue;
      if (++idx[k] < b[0].shape[k]) break;
      idx[k] = 0;
    }
  }
  return NDT_OK;
}

/* A block of a fold (fold_plan above): a line run per partial element, or
 * a column run per row of partial elements along the innermost axis. */
static ndt_status fold_add(cuda_dev *d, batch *bt, const ndt_red_arg *r, ndt_bound *b) {
  fold_plan pl;
  if (!b[0].view->size) return NDT_OK;   /* (supports refuses one that has partials) */
  if (!fold_plan_of(r, b[0].ndim, b[0].shape, b[0].st, b[0].view->strides, &pl))
    return host->error(NDT_ERR_INTERNAL, "the CUDA reduction cannot take this block's layout");
  int cm = pl.mode == NDT_FD_COLS && pl.nd;
  return plan_runs(d, bt, r, b, &pl, cm ? pl.st[1][pl.nd - 1] : 0);
}

static void scan_sig(const ndt_scan_arg *a, ew_sig *g) {
  g->op = (a->op == NDT_SK_MUL) | a->nan << 1;
  g->loop[0] = a->rt;
  g->loop[1] = a->in.dtype;
}

/* A "scan" block (fix 0: operands input, result, totals, start) or a "scan
 * fixup" (fix 1: result, carries): its lines along the axis, a run per
 * index of the axes before the last other axis (whose lines are the run's
 * rows), in C order, so that line l of the block is row l % rows of run
 * l / rows (the totals' and carries' order). */
static ndt_status scan_add(cuda_dev *d, batch *bt, const ndt_scan_arg *a, ndt_bound *b, int fix) {
  const ndt_bound *res = &b[fix ? 0 : 1];
  int nd = res->ndim, ax = a->axis, oth[NDT_MAXDIMS], no = 0;
  int64_t size = 1, rsz = ndt_dk_dtype_size(a->rt);
  for (int k = 0; k < nd; k++) {
    size *= res->shape[k];
    if (k != ax) oth[no++] = k;
  }
  if (size == 0) return NDT_OK;
  int last = no ? oth[no - 1] : -1;
  int64_t rows = no ? res->shape[last] : 1, outer = size / rows / res->shape[ax];
  int64_t idx[NDT_MAXDIMS] = {0};
  const ndt_bound *in = fix ? NULL : &b[0], *tot = fix ? &b[1] : &b[2], *pre = fix ? NULL : &b[3];
  for (int64_t q = 0; q < outer; q++) {
    ndt_dk_run *u;
    ndt_status s = next_run(d, bt, &u);
    if (s) return s;
    memset(u, 0, sizeof *u);
    u->rows = rows;
    u->cols = res->shape[ax];
    const ndt_bound *ob[2] = {fix ? res : in, fix ? NULL : res};
    for (int o = 0; o < 2; o++) {
      if (!ob[o]) continue;
      char *p = ob[o]->ptr;
      for (int j = 0; j < no - 1; j++) p += idx[j] * ob[o]->st[oth[j]];
      u->p[o] = p;
      u->rs[o] = no ? ob[o]->st[last] : 0;
      u->cs[o] = ob[o]->st[ax];
    }
    int tk = fix ? 1 : 2;   /* the totals' (carries') operand in the run */
    if (tot->ptr) {
      u->p[tk] = tot->ptr + q * rows * rsz;
      u->rs[tk] = rsz;
    }
    if (pre && pre->ptr) {
      char *p = pre->ptr;
      for (int j = 0; j < no - 1; j++) p += idx[j] * pre->st[oth[j]];
      u->p[3] = p;
      u->rs[3] = no ? pre->st[last] : 0;
    }
    for (int j = no - 2; j >= 0; j--) {
      if (++idx[j] < res->shape[oth[j]]) break;
      idx[j] = 0;
    }
  }
  return NDT_OK;
}

/* n tasks of one kind on device d (b: their operands, task after task;
 * one task alone, or a grouped task's members): one launch per run of
 * tasks with the same kernel, NDT_DK_MAXRUNS runs at a time; then one
 * wait, and the IEEE flags the kernels reported raised on this worker, as
 * the CPU's loops would have raised them. */
static ndt_status dev_run(cuda_dev *d, int what, ndt_bound *b, int n, const int *nop,
                          void *const *args, const char *name) {
  static _Thread_local batch bt;   /* 14 KB: not on a worker's stack */
  pthread_mutex_lock(&d->run);
  if (atomic_load(&d->dead)) {
    pthread_mutex_unlock(&d->run);
    return refuse(d);
  }
  cudaSetDevice(d->dev);
  cudaError_t e = cudaMemsetAsync(d->flags, 0, sizeof(unsigned), d->stream);
  ndt_status st = e == cudaSuccess ? NDT_OK : disable(d, e, name);
  bt.L.nrun = 0;
  bt.what = what;
  for (int i = 0, at = 0; i < n && st == NDT_OK; at += nop[i++]) {
    ew_sig g;
    memset(&g, 0, sizeof g);
    if (what == K_EW && ew_casts(args[i])) {   /* (a launch of its own: the batch's first) */
      if (bt.L.nrun) st = launch(d, &bt);
      if (st == NDT_OK) st = ew_cast_run(d, &bt, args[i], b + at);
      continue;
    }
    if (what == K_EW) {
      if (!ew_sig_of(args[i], &g)) st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this task");
    } else if (what == K_BLOCK) {
      block_sig(args[i], b + at, &g);
    } else if (what == K_SCAN || what == K_SCANFIX) {
      scan_sig(args[i], &g);
    } else {
      g.loop[0] = ((const ndt_pw_arg *)args[i])->acc;
      g.loop[1] = ((const ndt_pw_arg *)args[i])->op == NDT_RED_NANSUM;
    }
    if (st == NDT_OK && bt.L.nrun && memcmp(&g, &bt.sig, sizeof g)) st = launch(d, &bt);
    if (st == NDT_OK) {
      bt.sig = g;
      st = what == K_EW        ? ew_add(d, &bt, args[i], b + at)
           : what == K_LEAF    ? leaf_add(d, &bt, args[i], b + at)
           : what == K_BSLEAF  ? bsleaf_add(d, &bt, args[i], b + at)
           : what == K_PWTOP   ? pwtop_add(d, &bt, args[i], b + at)
           : what == K_SCAN    ? scan_add(d, &bt, args[i], b + at, 0)
           : what == K_SCANFIX ? scan_add(d, &bt, args[i], b + at, 1)
           : g.nin == 3        ? arg_add(d, &bt, args[i], b + at)
           : g.nin > 0         ? fold_add(d, &bt, args[i], b + at)
                               : block_add(d, &bt, args[i], b + at);
    }
  }
  if (st == NDT_OK) st = launch(d, &bt);
  unsigned f = 0;
  if (!atomic_load(&d->dead)) {
    e = cudaMemcpyAsync(&f, d->flags, sizeof f, cudaMemcpyDeviceToHost, d->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
    if (e != cudaSuccess) {
      ndt_status s = disable(d, e, name);
      if (st == NDT_OK) st = s;
    }
  }
  pthread_mutex_unlock(&d->run);
  /* (NDT_SC_FE_* are NDT_FPE_*: scalar.h) */
  if (st == NDT_OK) ndt_fpe_raise(f);
  return st;
}

/* The runs of one program, launched when the program changes or the
 * launch is full; the flags of a group's launches read back and recorded
 * per op (ndt_fused_desc.report) when its tasks are done. */
typedef struct {
  const ndt_fused_desc *d;
  uint64_t incl;
  cudaKernel_t k;   /* the program's compiled kernel (cuda_jit.c), or NULL: the interpreter */
  ndt_dk_flaunch L;
} fbatch;

static ndt_status flaunch(cuda_dev *d, fbatch *fb) {
  if (!fb->L.nrun) return NDT_OK;
  int rc = fb->k ? ndt__fjit_launch(fb->k, &fb->L, d->flags, d->stream) : -1;
  if (rc && fb->k) {
    /* a compiled kernel the device would not launch (its resources, its
     * image: an error of the launch, not sticky) goes back to the
     * interpreter for good; a lost context (a sticky error met here)
     * disables the device */
    cudaError_t e = cudaGetLastError(), l = cudaStreamQuery(d->stream);
    if (l != cudaSuccess && l != cudaErrorNotReady) return disable(d, l, "a kernel launch");
    ndt__fjit_refused(&fb->L.prog, e);
    fb->k = NULL;
  }
  if (!fb->k) rc = ndt__dk_fused(&fb->L, d->flags, NFLAGS, d->stream);
  fb->L.nrun = 0;
  if (rc) return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this fused task");
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : disable(d, e, "a kernel launch");
}

/* the launches of fb's group done: its flags recorded, the words cleared */
static ndt_status fdone(cuda_dev *d, fbatch *fb, const char *name) {
  unsigned f[NFLAGS];
  cudaError_t e = cudaMemcpyAsync(f, d->flags, sizeof f, cudaMemcpyDeviceToHost, d->stream);
  if (e == cudaSuccess) e = cudaMemsetAsync(d->flags, 0, sizeof f, d->stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
  if (e != cudaSuccess) return disable(d, e, name);
  if (fb->d) fb->d->report(fb->d, f);
  return NDT_OK;
}

/* The operands a fused program uses: all but those only held (a task of
 * many ranks binds every op's result; it writes some); their count. */
static int fused_used(ndt_bound *b, int nb, ndt_bound **u) {
  int n = 0;
  for (int o = 0; o < nb; o++)
    if (!(b[o].priv & NDT_OPND_KEEP)) {
      if (n == NDT_DK_FMAXOPS) return -1;
      u[n++] = &b[o];
    }
  return n;
}

/* Appends one bound fused task's elements as 2-d runs (as ew_add): b are
 * its operands, nb of them, those the program uses nop. */
static ndt_status fused_add(cuda_dev *d, fbatch *fb, ndt_bound *bo, int nb) {
  ndt_bound *b[NDT_DK_FMAXOPS];
  int nop = fused_used(bo, nb, b);
  if (nop <= 0) return host->error(NDT_ERR_INTERNAL, "a fused task without operands");
  int nd = b[0]->ndim;
  int64_t shape[NDT_MAXDIMS], st[NDT_DK_FMAXOPS][NDT_MAXDIMS];
  for (int k = 0; k < nd; k++) {
    shape[k] = b[0]->shape[k];
    if (shape[k] == 0) return NDT_OK;
    for (int o = 0; o < nop; o++) st[o][k] = b[o]->st[k];
  }
  nd = ndt__coalesce(nd, shape, nop, st);
  int64_t rows = nd >= 2 ? shape[nd - 2] : 1, cols = nd >= 1 ? shape[nd - 1] : 1, outer = 1;
  for (int k = 0; k < nd - 2; k++) outer *= shape[k];
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t r = 0; r < outer; r++) {
    if (fb->L.nrun == NDT_DK_FMAXRUNS) {
      ndt_status s = flaunch(d, fb);
      if (s) return s;
    }
    ndt_dk_frun *u = &fb->L.run[fb->L.nrun++];
    u->rows = rows;
    u->cols = cols;
    for (int o = 0; o < nop; o++) {
      char *p = b[o]->ptr;
      for (int k = 0; k < nd - 2; k++) p += idx[k] * st[o][k];
      u->p[o] = p;
      u->rs[o] = nd >= 2 ? st[o][nd - 2] : 0;
      u->cs[o] = nd >= 1 ? st[o][nd - 1] : 0;
    }
    for (int k = nd - 3; k >= 0; k--) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return NDT_OK;
}

/* n fused tasks on device d (one alone, or a grouped task's members):
 * one launch per run of tasks of one program, then one wait per group. */
static ndt_status fused_run(cuda_dev *d, ndt_bound *b, int n, const int *nop,
                            void *const *args, const char *name) {
  static _Thread_local fbatch fb;   /* 26 KB: not on a worker's stack */
  pthread_mutex_lock(&d->run);
  if (atomic_load(&d->dead)) {
    pthread_mutex_unlock(&d->run);
    return refuse(d);
  }
  cudaSetDevice(d->dev);
  cudaError_t e = cudaMemsetAsync(d->flags, 0, NFLAGS * sizeof(unsigned), d->stream);
  ndt_status st = e == cudaSuccess ? NDT_OK : disable(d, e, name);
  fb.L.nrun = 0;
  fb.d = NULL;
  for (int i = 0, at = 0; i < n && st == NDT_OK; at += nop[i++]) {
    const ndt_fused_task *t = args[i];
    if (fb.d && (t->d != fb.d || t->incl != fb.incl)) {
      st = flaunch(d, &fb);
      if (st == NDT_OK && t->d != fb.d) st = fdone(d, &fb, name);
      fb.d = NULL;
    }
    if (st == NDT_OK && !fb.d) {
      ndt_bound *u[NDT_DK_FMAXOPS];
      if (!fprog_of(t, &fb.L.prog) || fb.L.prog.nop != fused_used(b + at, nop[i], u))
        st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this fused task");
      fb.d = t->d;
      fb.incl = t->incl;
      fb.k = st == NDT_OK ? ndt__fjit_kernel(&fb.L.prog) : NULL;
    }
    if (st == NDT_OK) st = fused_add(d, &fb, b + at, nop[i]);
  }
  if (st == NDT_OK) st = flaunch(d, &fb);
  if (st == NDT_OK && fb.d) st = fdone(d, &fb, name);
  else if (!atomic_load(&d->dead)) cudaStreamSynchronize(d->stream);
  pthread_mutex_unlock(&d->run);
  return st;
}

static ndt_status fused_body(ndt_bound *b, void *argp) {
  const ndt_fused_task *t = argp;
  /* its operands (fusion.c): the used inputs, then the written results,
   * on many ranks every op's result */
  int nb = 0;
  for (int e = 0; e < t->d->next; e++) nb += t->d->ext_used[e] != 0;
  for (int k = 0; k < t->d->nops; k++) nb += t->d->ranks || (t->incl >> k & 1);
  return fused_run(b[0].mem->context, b, 1, &nb, &argp, "a fused group");
}

static const char *name_of(int what, const void *arg) {
  return what == K_EW                        ? ((const ndt_ew_arg *)arg)->name
         : what == K_FUSED                   ? "a fused group"
         : what == K_SCAN || what == K_SCANFIX ? "a scan"
         : what == K_BLOCK && ((const ndt_red_arg *)arg)->op != NDT_RED_SUM ? "a reduction"
                                             : "a sum";
}

static ndt_status ew_body(ndt_bound *b, void *argp) {
  const ndt_ew_arg *a = argp;
  int nop = a->nin + 1;
  return dev_run(b[a->nin].mem->context, K_EW, b, 1, &nop, &argp, a->name);
}

static ndt_status leaf_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return dev_run(b[0].mem->context, K_LEAF, b, 1, &nop, &argp, "a sum");
}

static ndt_status pwtop_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return dev_run(b[1].mem->context, K_PWTOP, b, 1, &nop, &argp, "a sum");
}

static ndt_status bsleaf_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return dev_run(b[0].mem->context, K_BSLEAF, b, 1, &nop, &argp, "a sum");
}

static ndt_status block_body(ndt_bound *b, void *argp) {
  int nop = 3;
  return dev_run(b[0].mem->context, K_BLOCK, b, 1, &nop, &argp, name_of(K_BLOCK, argp));
}

static ndt_status scan_body(ndt_bound *b, void *argp) {
  int nop = 4;
  return dev_run(b[1].mem->context, K_SCAN, b, 1, &nop, &argp, "a scan");
}

static ndt_status scanfix_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return dev_run(b[0].mem->context, K_SCANFIX, b, 1, &nop, &argp, "a scan");
}

static ndt_status cd_group(ndt_processor *p, const ndt_task_kind *k, ndt_bound *b, int n,
                           const int *nop, void *const *args) {
  if (index_kind(k)) return index_run(p->context, index_kind(k), b, n, nop, args);
  if (nz_kind(k)) return nz_run(p->context, nz_kind(k), b, n, nop, args);
  if (mm_kind(k)) return mm_run(p->context, mm_kind(k), b, n, nop, args);
  if (cb_kind(k)) return cb_exec(p->context, cb_kind(k), b, n, nop, args);
  if (fft_kind(k)) return fft_run(p->context, b, n, nop, args);
  if (la_kind(k)) return la_run(p->context, b, n, nop, args);
  if (sort_kind(k)) return sort_run(p->context, b, n, nop, args);
  if (part_kind(k)) return part_run(p->context, b, n, nop, args);
  if (search_kind(k)) return search_run(p->context, search_kind(k), b, n, nop, args);
  if (bin_kind(k)) return bin_run(p->context, bin_kind(k), b, n, nop, args);
  if (range_kind(k)) return range_run(p->context, b, n, nop, args);
  if (mvc_kind(k)) return mvc_run(p->context, b, n, nop, args);
  int what = kind_of(k);
  if (what == K_NONE)
    return host->error(NDT_ERR_INTERNAL, "the CUDA plugin has no body for this grouped task");
  if (what == K_FUSED) return fused_run(p->context, b, n, nop, args, "a fused group");
  if (what == K_RNG) return rng_run(p->context, b, n, nop, args);
  return dev_run(p->context, what, b, n, nop, args, n ? name_of(what, args[0]) : k->name);
}

/* bodies by the core's kind names: one table, looked up by the processor */
static const struct { const char *kind; ndt_body_fn body; } bodies[] = {
    {"elementwise", ew_body},
    {"pairwise leaf", leaf_body},
    {"pairwise leaf, seeded", leaf_body},
    {"reduce block", block_body},
    {"reduce block, seeded", block_body},
    {"pairwise top", pwtop_body},
    {"buffered sum leaf", bsleaf_body},
    {"buffered sum top", cb_bsum_top_body},
    {"fused elementwise", fused_body},
    {"random", rng_body},
    {"gather", gather_body},
    {"put", put_body},
    {"argwhere count", nz_count_body},
    {"argwhere fill", nz_fill_body},
    {"matmul block", mm_block_body},
    {"matmul pack", mm_pack_body},
    {"matmul copyout", mm_copyout_body},
    {"matvec", mm_matvec_body},
    {"fft", fft_dev_body},
    {"linalg", la_dev_body},
    {"scan", scan_body},
    {"scan fixup", scanfix_body},
    {"reduce combine", cb_combine_body},
    {"reduce combine, seeded", cb_combine_body},
    {"prod chain", cb_chain_body},
    {"prod fold", cb_fold_body},
    {"reduce carry", cb_carry_body},
    {"sort", sort_body},
    {"partition", part_body},
    {"searchsorted", search_body},
    {"histogram", search_hist_body},
    {"bincount count", bin_count_body},
    {"bincount combine", bin_combine_body},
    {"arange", range_body},
    {"matvec combine", mvc_body},
};

static ndt_body_fn cd_body(ndt_processor *p, const ndt_task_kind *k) {
  (void)p;
  for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++)
    if (!strcmp(bodies[i].kind, k->name)) return bodies[i].body;
  return NULL;
}

static void cd_launch(ndt_processor *p, ndt_task *t) {
  (void)p;
  host->cpu_launch(t);   /* a worker binds the operands on the device and runs the body */
}

static ndt_status cd_sync(ndt_processor *p) {
  cuda_dev *d = p->context;
  if (atomic_load(&d->dead)) return NDT_OK;   /* (its error was reported) */
  cudaSetDevice(d->dev);
  cudaError_t e = cudaStreamSynchronize(d->stream);
  return e == cudaSuccess ? NDT_OK : disable(d, e, "a stream synchronisation");
}

/* ---- start ---- */
/* cudaMallocAsync's pool of each GPU keeps up to its devices' budgets
 * across a synchronisation: with CUDA's default release threshold (0) it
 * gives every freed byte back to the driver at each one (every body ends
 * in one), and the next allocations map memory again. Scratch past the
 * budgets still goes back. A refusal only costs that speed. */
static void pool_keep(int n) {
  for (int i = 0; i < n; i++) {
    int first = 1;
    uint64_t keep = 0;
    for (int j = 0; j < n; j++)
      if (cdev[j].dev == cdev[i].dev) {
        keep += (uint64_t)cdev[j].budget;
        first = first && j >= i;
      }
    cudaMemPool_t pool;
    if (!first) continue;
    cudaSetDevice(cdev[i].dev);
    if (cudaDeviceGetDefaultMemPool(&pool, cdev[i].dev) != cudaSuccess ||
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess)
      cudaGetLastError();
  }
}

/* ndt_plugin.bus_ids: the devices start would open (the same list: every
 * device when n == 0, the valid indices of index[] else), by PCI bus id.
 * cudaGetDeviceCount and cudaDeviceGetPCIBusId make no context. */
static int bus_ids(const int *index, int n, char (*bus)[NDT_BUS_ID], int cap) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;   /* (start says why) */
  }
  int m = n == 0 ? count : n, k = 0;
  for (int i = 0; i < m && i < NDT__MAX_DEVS && k < cap; i++) {
    int dev = n == 0 ? i : index[i];
    if (dev < 0 || dev >= count) continue;
    if (cudaDeviceGetPCIBusId(bus[k], NDT_BUS_ID, dev) != cudaSuccess || !bus[k][0]) {
      cudaGetLastError();
      return -1;
    }
    k++;
  }
  return k;
}

static int start(const ndt_plugin_host *h, const int *index, int n, char *why, size_t cap) {
  host = h;
  ndt__dk_init();
  /* NDTILE_CUDA_MATH=0: the transcendental functions stay on the CPU (its
   * bits everywhere; ew_ops.h) */
  ndt__dk_set_math(h->env_size("NDTILE_CUDA_MATH", 1) != 0);
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {   /* 35: no driver or too old; 100: no device */
    snprintf(why, cap, "cudaGetDeviceCount: %s (error %d)", cudaGetErrorString(e), (int)e);
    return 0;
  }
  if (count == 0) {
    snprintf(why, cap, "the CUDA driver lists no device");
    return 0;
  }
  int want[NDT__MAX_DEVS], nw = 0;
  if (n == 0)
    for (int i = 0; i < count && nw < NDT__MAX_DEVS; i++) want[nw++] = i;
  else
    for (int i = 0; i < n && nw < NDT__MAX_DEVS; i++) want[nw++] = index[i];
  int started = 0, jit_arch = 0;
  const char *pv = getenv("NDTILE_CUDA_PINNED");   /* (cm_host_register) */
  int pinned = !(pv && (!strcmp(pv, "0") || !strcmp(pv, "off")));
  /* How a host thread waits for the device. The worker that runs a body
   * waits for its copies and, at its end, for its kernels
   * (cudaStreamSynchronize). Under CUDA's default, cudaDeviceScheduleAuto,
   * a process with no more contexts than the machine has cores (always,
   * here) spins while it waits: a core busy for the kernel's whole time,
   * one the recording thread, the progress thread (MPI) and, on a node
   * shared by ranks, the other ranks' workers need. Blocking
   * synchronisation parks the thread on a primitive the driver signals
   * instead (the CUDA runtime API's cudaSetDeviceFlags): a wake-up of some
   * microseconds a wait, which grouped launches (one wait for many tasks)
   * keep small. NDTILE_CUDA_SPIN=1 keeps CUDA's default. The flags are the
   * device's (its primary context): every thread's waits on it block. */
  const char *sp = getenv("NDTILE_CUDA_SPIN");
  int spin = sp && (!strcmp(sp, "1") || !strcmp(sp, "on"));
  for (int i = 0; i < nw; i++) {
    cuda_dev *d = &cdev[started];
    if (want[i] < 0 || want[i] >= count) {
      snprintf(why, cap, "no CUDA device %d (the driver lists %d)", want[i], count);
      continue;
    }
    d->dev = want[i];
    struct cudaDeviceProp prop;
    if ((e = cudaSetDevice(d->dev)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&prop, d->dev)) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaMalloc((void **)&d->flags, NFLAGS * sizeof(unsigned))) != cudaSuccess) {
      snprintf(why, cap, "CUDA device %d: no context (%s)", d->dev, cudaGetErrorString(e));
      cudaGetLastError();
      continue;
    }
    if (!spin && (e = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync)) != cudaSuccess) {
      cudaGetLastError();   /* (a refusal keeps CUDA's default: only a core's time) */
      char line[160];
      snprintf(line, sizeof line, "CUDA device %d: waits spin (cudaSetDeviceFlags: %s)", d->dev,
               cudaGetErrorString(e));
      h->verbose(line);
    }
    /* the budget from the card's total memory (fixed for a model, so the
     * plan it gives is the same on every run), not from what is free now;
     * shared by the virtual devices on one GPU (cuda:0,cuda:0), whose
     * allocations come from one memory, and by the ranks of the node that
     * take this GPU too (ndtile --ranks 4 --gpus-per-node 2: two a GPU;
     * without --gpus-per-node every rank sees every GPU): each process
     * plans its own budget, and together they must fit the card */
    int64_t budget = h->env_size("NDTILE_CUDA_MEM", 0);
    size_t total = prop.totalGlobalMem;
    int virt = 0;   /* this rank's devices on this GPU */
    for (int j = 0; j < nw; j++) virt += want[j] == want[i];
    /* the ranks holding this physical GPU, by its PCI bus id, where the
     * host can tell (one GPU a rank through CUDA_VISIBLE_DEVICES: each sees
     * its own as device 0, and nothing is split), else by the ordinal */
    char bus[NDT_BUS_ID] = "";
    int ranks = 0;
    if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, d->dev) != cudaSuccess) {
      cudaGetLastError();
      bus[0] = 0;
    }
    int by_bus = 0;
    if (bus[0] && h->gpu_ranks_id) by_bus = (ranks = h->gpu_ranks_id(d->dev, bus)) > 0;
    if (ranks <= 0) ranks = h->gpu_ranks(d->dev);
    if (ranks <= 0) ranks = 1;
    int share = virt * ranks;
    d->budget = budget > 0 ? budget : (int64_t)(total / 10 * 9) / share;
    atomic_store(&d->used, 0);
    atomic_store(&d->dead, 0);
    pthread_mutex_init(&d->run, NULL);
    if (started) snprintf(d->name, sizeof d->name, "cuda%d", started);
    else snprintf(d->name, sizeof d->name, "cuda");
    d->miface = (ndt_memory_iface){.version = NDT_IFACE_VERSION, .name = "CUDA device",
                                   .host_visible = 0, .alloc = cm_alloc, .free = cm_free,
                                   .copy = cm_copy, .usage = cm_usage,
                                   .scratch_alloc = cm_scratch_alloc,
                                   .scratch_free = cm_scratch_free, .copy2d = cm_copy2d,
                                   .view_copy = cm_view_copy};
    if (pinned) {
      d->miface.host_register = cm_host_register;
      d->miface.host_unregister = cm_host_unregister;
    }
    d->mem = (ndt_memory){.iface = &d->miface, .device = d->dev, .context = d};
    d->piface = (ndt_processor_iface){.version = NDT_IFACE_VERSION, .name = d->name,
                                      .supports = cd_supports, .launch = cd_launch,
                                      .sync = cd_sync, .body = cd_body, .group = cd_group};
    d->proc = (ndt_processor){.iface = &d->piface, .device = d->dev, .context = d,
                              .kind = NDT_PROC_CUDA, .mem = &d->mem};
    ncdev = started + 1;   /* (seen by disable() from here on) */
    if (h->proc_register(&d->proc)) {
      ncdev = started;
      snprintf(why, cap, "the processor table is full");
      break;
    }
    char line[512], split[160] = "";
    if (budget <= 0 && share > 1)   /* who shares the card (the 90 % is divided by share) */
      snprintf(split, sizeof split, ", 90 %% of it split %d ways: %d device%s of this rank "
               "times %d rank%s of the node on this GPU (by %s)", share, virt,
               virt > 1 ? "s" : "", ranks, ranks > 1 ? "s" : "",
               by_bus ? "PCI bus id" : "device number");
    snprintf(line, sizeof line, "CUDA device %d (%.160s, bus %.20s, compute capability %d.%d) "
             "as %s: budget %lld bytes of %zu%s", d->dev, prop.name, bus[0] ? bus : "?",
             prop.major, prop.minor, d->name, (long long)d->budget, total, split);
    h->verbose(line);
    /* the compiled fused kernels: for the first device's arch (all must
     * share it; 0: they do not, the interpreter only) */
    int arch = prop.major * 10 + prop.minor;
    if (!started) jit_arch = arch;
    else if (arch != jit_arch) jit_arch = 0;
    started++;
  }
  if (started) ndt__fjit_start(h, cdev[0].dev, jit_arch);
  pool_keep(started);
  return started;
}

static const ndt_plugin plugin = {.api = NDT_PLUGIN_API, .name = "cuda", .start = start,
                                  .bus_ids = bus_ids};

__attribute__((visibility("default"))) const ndt_plugin *ndt_plugin_entry_v1(void) {
  return &plugin;
}
