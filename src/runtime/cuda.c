/* cuda.c - the CUDA plugin (libndtile_cuda.so, built when nvcc is found):
 * device memory, host<->device copies, a stream per device and the bodies
 * it has variants for (elementwise add, subtract, multiply, negative and
 * the casts of src/kernels/cuda/elementwise.cu, on the float and integer
 * dtypes). The core loads it with dlopen only when NDTILE_DEVICES asks for
 * cuda or auto (device.c) and reaches it through ndt_plugin_entry_v1; it
 * links nothing of the core (device.h). Every other task runs on the CPU,
 * its operands made valid in host memory by the core.
 *
 * NOT YET RUN ON A GPU: this file and the kernels were compiled and linked,
 * and their no-driver path run, on a machine without one.
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

int ndt_cuda_ew(int op, int t, int64_t n, char *o, int64_t os, const char *a, int64_t as,
                const char *b, int64_t bs, unsigned *flags, void *stream);
int ndt_cuda_cast_ok(int from, int to);
int ndt_cuda_cast(int from, int to, int64_t n, char *o, int64_t os, const char *a, int64_t as,
                  void *stream);

enum { OP_ADD, OP_SUB, OP_MUL, OP_NEG };

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

/* the kernels' type codes (elementwise.cu) */
static int tcode(ndt_dtype t) {
  switch (t) {
    case NDT_INT8: return 0;
    case NDT_INT16: return 1;
    case NDT_INT32: return 2;
    case NDT_INT64: return 3;
    case NDT_UINT8: return 4;
    case NDT_UINT16: return 5;
    case NDT_UINT32: return 6;
    case NDT_UINT64: return 7;
    case NDT_FLOAT32: return 8;
    case NDT_FLOAT64: return 9;
    default: return -1;
  }
}

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
static int ew_opcode(const ndt_ew_arg *a) {
  if (!a->name) return -1;
  if (a->nin == 2 && !strcmp(a->name, "add")) return OP_ADD;
  if (a->nin == 2 && !strcmp(a->name, "subtract")) return OP_SUB;
  if (a->nin == 2 && !strcmp(a->name, "multiply")) return OP_MUL;
  if (a->nin == 1 && !strcmp(a->name, "negative")) return OP_NEG;
  return -1;
}

static int cd_supports(ndt_processor *p, const ndt_task_kind *k, const ndt_operand *op, int nop,
                       const void *arg) {
  (void)p;
  (void)op;
  (void)nop;
  if (strcmp(k->name, "elementwise")) return 0;
  const ndt_ew_arg *a = arg;
  if (!a->loop)   /* a cast of op[0] into the output */
    return a->nin == 1 && ndt_cuda_cast_ok(tcode(a->op[0].dtype), tcode(a->op[1].dtype));
  if (ew_opcode(a) < 0 || tcode(a->loop_out) < 0 || a->op[a->nin].dtype != a->loop_out)
    return 0;
  for (int i = 0; i < a->nin; i++)
    if (a->op[i].dtype != a->loop_in[i] || a->loop_in[i] != a->loop_out) return 0;
  return 1;
}

static ndt_status ew_body(ndt_bound *b, void *argp) {
  const ndt_ew_arg *a = argp;
  cuda_dev *d = b[a->nin].mem->context;
  int nin = a->nin, nd = b[nin].ndim;
  const int64_t *shape = b[nin].shape;
  int64_t inner = nd ? shape[nd - 1] : 1, runs = 1;
  for (int k = 0; k < nd - 1; k++) runs *= shape[k];
  int op = a->loop ? ew_opcode(a) : -1;
  int tin = tcode(a->op[0].dtype), tout = tcode(a->op[nin].dtype);
  cudaSetDevice(d->dev);
  cudaMemsetAsync(d->flags, 0, sizeof(unsigned), d->stream);
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t r = 0; r < runs && inner > 0; r++) {   /* one launch per run of the last axis */
    char *p[NDT_MAXOPS];
    for (int o = 0; o <= nin; o++) {
      p[o] = b[o].ptr;
      for (int k = 0; k < nd - 1; k++) p[o] += idx[k] * b[o].st[k];
    }
    int64_t ls[NDT_MAXOPS];
    for (int o = 0; o <= nin; o++) ls[o] = nd ? b[o].st[nd - 1] : 0;
    int rc = op < 0 ? ndt_cuda_cast(tin, tout, inner, p[nin], ls[nin], p[0], ls[0], d->stream)
                    : ndt_cuda_ew(op, tout, inner, p[nin], ls[nin], p[0], ls[0],
                                  nin > 1 ? p[1] : NULL, nin > 1 ? ls[1] : 0, d->flags,
                                  d->stream);
    if (rc) return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this elementwise task");
    for (int k = nd - 2; k >= 0; k--) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  unsigned f = 0;
  cudaError_t e = cudaMemcpyAsync(&f, d->flags, sizeof f, cudaMemcpyDeviceToHost, d->stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
  if (e != cudaSuccess) return cuda_fail(e, a->name ? a->name : "elementwise");
  /* the CPU's loop would have raised these on this thread: the runtime
   * collects them as it does after any body */
  if (f & 1) feraiseexcept(FE_OVERFLOW | FE_INEXACT);
  if (f & 2) feraiseexcept(FE_INVALID);
  return NDT_OK;
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
                                      .sync = cd_sync, .body = cd_body};
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
