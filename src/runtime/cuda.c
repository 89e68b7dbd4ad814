/* cuda.c - the CUDA plugin (libndtile_cuda.so, built when nvcc is found):
 * device memory, host<->device copies, a stream per device and the bodies
 * it has variants for: the elementwise tasks of every exact ufunc loop and
 * every cast, on all 13 dtypes (src/kernels/cuda/ew_ops.h: integer and bool
 * ops, + - * / sqrt, comparisons, min/max, rounding; the kernels call
 * src/kernels/scalar.h, as the CPU's loops do). The core loads it with
 * dlopen only when NDTILE_DEVICES asks for cuda or auto (device.c) and
 * reaches it through ndt_plugin_entry_v1; it links nothing of the core
 * (device.h). Every other task runs on the CPU, its operands made valid in
 * host memory by the core.
 *
 * NOT YET RUN ON A GPU: this file and the kernels were compiled and linked,
 * and their no-driver path run, on a machine without one. The kernels'
 * source was run on the CPU (tests/c/test_devkernels.c) with the CPU's bits.
 *
 * Grouped launches: consecutive tasks of one op on a device reach it as one
 * grouped task (sched.c); ew_group makes one launch over the list of their
 * tiles (up to NDT_DK_MAXRUNS 2-d runs a launch, passed as the kernel's
 * parameter), where one task alone is a group of one.
 *
 * Memory: cudaMallocAsync on the device's stream within a budget per device
 * (NDTILE_CUDA_MEM, default 90% of the card's total memory); nothing is
 * reserved at start. A failed allocation returns NULL: the core evicts,
 * then falls back to the CPU. Copies and kernels run on the device's stream
 * and are waited for before a body returns (the worker that runs the task
 * drives the device): simple and correct, not yet fast. */
#include <cuda_runtime_api.h>
#include <fenv.h>
#include <stdio.h>
#include <string.h>
#include "runtime/device.h"
#include "ops/exec.h"

#include "kernels/cuda/dk.h"

/* src/kernels/cuda/ew_impl.h and reduce_impl.h (compiled by nvcc) */
void ndt__dk_init(void);
int ndt__dk_ew_has(int op, int nin, const int *loop, int fused);
int ndt__dk_ew(int op, int nin, const int *loop, int fused, const ndt_dk_launch *L,
               unsigned *flags, void *stream);
int ndt__dk_cast(int from, int to, const ndt_dk_launch *L, void *stream);

static const ndt_plugin_host *host;

typedef struct {
  int dev;                 /* the CUDA device */
  cudaStream_t stream;
  int64_t budget;
  atomic_llong used;
  unsigned *flags;         /* device word the kernels OR their IEEE flags into */
  char name[16];
  ndt_memory mem;
  ndt_memory_iface miface;
  ndt_processor proc;
  ndt_processor_iface piface;
} cuda_dev;

static cuda_dev cdev[NDT__MAX_DEVS];

static ndt_status cuda_fail(cudaError_t e, const char *what) {
  char msg[256];
  snprintf(msg, sizeof msg, "CUDA %s failed: %s", what, cudaGetErrorString(e));
  return host->error(NDT_ERR_INTERNAL, msg);
}

/* ---- memory ---- */
static void *cm_alloc(ndt_memory *m, size_t n) {
  cuda_dev *d = m->context;
  if (host->alloc_fails()) return NULL;
  if (atomic_fetch_add(&d->used, (long long)n) + (int64_t)n > d->budget) {
    atomic_fetch_sub(&d->used, (long long)n);
    host->error(NDT_ERR_NOMEM, "the CUDA device's memory budget (NDTILE_CUDA_MEM) is full");
    return NULL;
  }
  void *p = NULL;
  cudaSetDevice(d->dev);
  cudaError_t e = cudaMallocAsync(&p, n ? n : 1, d->stream);
  if (e != cudaSuccess) {
    cudaGetLastError();   /* not sticky: the core evicts or falls back */
    atomic_fetch_sub(&d->used, (long long)n);
    host->error(NDT_ERR_NOMEM, "cudaMallocAsync failed: the CUDA device is full");
    return NULL;
  }
  return p;
}

static void cm_free(ndt_memory *m, void *p, size_t n) {
  cuda_dev *d = m->context;
  if (!p) return;
  cudaSetDevice(d->dev);
  cudaFreeAsync(p, d->stream);   /* ordered after the stream's earlier work */
  atomic_fetch_sub(&d->used, (long long)n);
}

static ndt_status cm_copy(ndt_memory *to, void *dst, ndt_memory *from, const void *src,
                          size_t n) {
  /* the device side's stream moves the bytes (either side, or both: peers) */
  cuda_dev *d = to->iface->copy == cm_copy ? to->context : from->context;
  cudaSetDevice(d->dev);
  cudaError_t e = cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, d->stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
  return e == cudaSuccess ? NDT_OK : cuda_fail(e, "copy");
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
  g->nin = a->nin;
  if (!a->loop) {   /* a cast of op[0] into the output */
    g->op = -1;
    g->loop[0] = a->op[0].dtype;
    g->loop[1] = a->op[1].dtype;
    return a->nin == 1;
  }
  g->op = a->ufunc;
  if (a->nin < 1 || a->nin > 3 || a->op[a->nin].dtype != a->loop_out) return 0;
  for (int i = 0; i < a->nin; i++) {
    if (a->op[i].dtype != a->loop_in[i]) return 0;
    g->loop[i] = a->loop_in[i];
  }
  g->loop[a->nin] = a->loop_out;
  return g->op >= 0 && ndt__dk_ew_has(g->op, g->nin, g->loop, fused());
}

static int cd_supports(ndt_processor *p, const ndt_task_kind *k, const ndt_operand *op, int nop,
                       const void *arg) {
  (void)p;
  (void)op;
  (void)nop;
  ew_sig g;
  return !strcmp(k->name, "elementwise") && ew_sig_of(arg, &g);
}

/* The runs of a batch launched once its kernel changes or it is full. */
typedef struct {
  ew_sig sig;
  ndt_dk_launch L;
} ew_batch;

static ndt_status ew_launch(cuda_dev *d, ew_batch *bt) {
  if (!bt->L.nrun) return NDT_OK;
  const ew_sig *g = &bt->sig;
  int rc = g->op < 0 ? ndt__dk_cast(g->loop[0], g->loop[1], &bt->L, d->stream)
                     : ndt__dk_ew(g->op, g->nin, g->loop, fused(), &bt->L, d->flags, d->stream);
  bt->L.nrun = 0;
  if (rc) return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this elementwise task");
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : cuda_fail(e, "kernel launch");
}

/* Axes merged where every operand steps through them as through one (and
 * unit axes dropped): the fewest runs. */
static int coalesce(int nd, int64_t *shape, int nop, int64_t (*st)[NDT_MAXDIMS]) {
  int out = 0;
  for (int k = 0; k < nd; k++) {
    if (shape[k] == 1) continue;
    int merge = out > 0;
    for (int o = 0; o < nop && merge; o++) merge = st[o][out - 1] == st[o][k] * shape[k];
    if (merge) {
      shape[out - 1] *= shape[k];
      for (int o = 0; o < nop; o++) st[o][out - 1] = st[o][k];
    } else {
      shape[out] = shape[k];
      for (int o = 0; o < nop; o++) st[o][out] = st[o][k];
      out++;
    }
  }
  return out;
}

/* Appends one bound task's elements to the batch as 2-d runs (its last
 * two axes; one run per index of the axes before), launching when full. */
static ndt_status ew_add(cuda_dev *d, ew_batch *bt, const ndt_ew_arg *a, ndt_bound *b) {
  int nop = a->nin + 1, nd = b[a->nin].ndim;
  int64_t shape[NDT_MAXDIMS], st[NDT_DK_MAXOPS][NDT_MAXDIMS];
  for (int k = 0; k < nd; k++) {
    shape[k] = b[a->nin].shape[k];
    if (shape[k] == 0) return NDT_OK;   /* empty */
    for (int o = 0; o < nop; o++) st[o][k] = b[o].st[k];
  }
  nd = coalesce(nd, shape, nop, st);
  int64_t rows = nd >= 2 ? shape[nd - 2] : 1, cols = nd >= 1 ? shape[nd - 1] : 1, outer = 1;
  for (int k = 0; k < nd - 2; k++) outer *= shape[k];
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t r = 0; r < outer; r++) {
    if (bt->L.nrun == NDT_DK_MAXRUNS) {
      ndt_status s = ew_launch(d, bt);
      if (s) return s;
    }
    ndt_dk_run *u = &bt->L.run[bt->L.nrun++];
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

/* n elementwise tasks on device d (b: their operands, task after task):
 * one launch per run of tasks with the same kernel, NDT_DK_MAXRUNS runs at
 * a time; then one wait, and the IEEE flags the kernels reported raised on
 * this worker, as the CPU's loops would have raised them. */
static ndt_status ew_run(cuda_dev *d, ndt_bound *b, int n, const int *nop, void *const *args) {
  static _Thread_local ew_batch bt;   /* 14 KB: not on a worker's stack */
  cudaSetDevice(d->dev);
  cudaMemsetAsync(d->flags, 0, sizeof(unsigned), d->stream);
  bt.L.nrun = 0;
  ndt_status st = NDT_OK;
  for (int i = 0, at = 0; i < n && st == NDT_OK; at += nop[i++]) {
    const ndt_ew_arg *a = args[i];
    ew_sig g;
    if (!ew_sig_of(a, &g)) st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this task");
    else if (bt.L.nrun && memcmp(&g, &bt.sig, sizeof g)) st = ew_launch(d, &bt);
    if (st == NDT_OK) {
      bt.sig = g;
      st = ew_add(d, &bt, a, b + at);
    }
  }
  if (st == NDT_OK) st = ew_launch(d, &bt);
  unsigned f = 0;
  cudaError_t e = cudaMemcpyAsync(&f, d->flags, sizeof f, cudaMemcpyDeviceToHost, d->stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
  if (st == NDT_OK && e != cudaSuccess) st = cuda_fail(e, n ? ((const ndt_ew_arg *)args[0])->name : "elementwise");
  if (f & NDT_SC_FE_DIVIDE) feraiseexcept(FE_DIVBYZERO);
  if (f & NDT_SC_FE_OVERFLOW) feraiseexcept(FE_OVERFLOW | FE_INEXACT);
  if (f & NDT_SC_FE_INVALID) feraiseexcept(FE_INVALID);
  return st;
}

static ndt_status ew_body(ndt_bound *b, void *argp) {
  const ndt_ew_arg *a = argp;
  int nop = a->nin + 1;
  return ew_run(b[a->nin].mem->context, b, 1, &nop, &argp);
}

static ndt_status cd_group(ndt_processor *p, const ndt_task_kind *k, ndt_bound *b, int n,
                           const int *nop, void *const *args) {
  if (strcmp(k->name, "elementwise"))
    return host->error(NDT_ERR_INTERNAL, "the CUDA plugin groups elementwise tasks only");
  return ew_run(p->context, b, n, nop, args);
}

/* bodies by the core's kind names: one table, looked up by the processor */
static const struct { const char *kind; ndt_body_fn body; } bodies[] = {
    {"elementwise", ew_body},
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
  cudaSetDevice(d->dev);
  cudaError_t e = cudaStreamSynchronize(d->stream);
  return e == cudaSuccess ? NDT_OK : cuda_fail(e, "stream synchronize");
}

/* ---- start ---- */
static int start(const ndt_plugin_host *h, const int *index, int n, char *why, size_t cap) {
  host = h;
  ndt__dk_init();
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
  int started = 0;
  for (int i = 0; i < nw; i++) {
    cuda_dev *d = &cdev[started];
    if (want[i] < 0 || want[i] >= count) {
      snprintf(why, cap, "no CUDA device %d (the driver lists %d)", want[i], count);
      continue;
    }
    d->dev = want[i];
    if ((e = cudaSetDevice(d->dev)) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaMalloc((void **)&d->flags, sizeof(unsigned))) != cudaSuccess) {
      snprintf(why, cap, "CUDA device %d: no context (%s)", d->dev, cudaGetErrorString(e));
      continue;
    }
    size_t freeb = 0, total = 0;
    cudaMemGetInfo(&freeb, &total);
    int64_t budget = h->env_size("NDTILE_CUDA_MEM", 0);
    d->budget = budget > 0 ? budget : (int64_t)(total / 10 * 9);
    if (started) snprintf(d->name, sizeof d->name, "cuda%d", started);
    else snprintf(d->name, sizeof d->name, "cuda");
    d->miface = (ndt_memory_iface){.version = NDT_IFACE_VERSION, .name = "CUDA device",
                                   .host_visible = 0, .alloc = cm_alloc, .free = cm_free,
                                   .copy = cm_copy, .usage = cm_usage};
    d->mem = (ndt_memory){.iface = &d->miface, .device = d->dev, .context = d};
    d->piface = (ndt_processor_iface){.version = NDT_IFACE_VERSION, .name = d->name,
                                      .supports = cd_supports, .launch = cd_launch,
                                      .sync = cd_sync, .body = cd_body, .group = cd_group};
    d->proc = (ndt_processor){.iface = &d->piface, .device = d->dev, .context = d,
                              .kind = NDT_PROC_CUDA, .mem = &d->mem};
    if (h->proc_register(&d->proc)) {
      snprintf(why, cap, "the processor table is full");
      break;
    }
    char line[160];
    snprintf(line, sizeof line, "CUDA device %d as %s: budget %lld bytes of %zu", d->dev,
             d->name, (long long)d->budget, total);
    h->verbose(line);
    started++;
  }
  return started;
}

static const ndt_plugin plugin = {.api = NDT_PLUGIN_API, .name = "cuda", .start = start};

__attribute__((visibility("default"))) const ndt_plugin *ndt_plugin_entry_v1(void) {
  return &plugin;
}
