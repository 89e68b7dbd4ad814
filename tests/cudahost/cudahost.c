/* cudahost.c - the host emulation of the CUDA runtime API subset the CUDA
 * plugin uses (cuda_runtime_api.h here says what it keeps of a GPU and
 * which variables steer it). Linked into libndtile_cudahost.so with
 * src/runtime/cuda.c and the plugin's kernels compiled as C (kernels.c),
 * so the plugin's own code - memory budget, streams, copies, grouped
 * launches, flags words, errors, fallback - runs on a machine without a
 * GPU, under the test suites.
 *
 * Device memory: one memfd per device mapped twice, once PROT_NONE (the
 * device pointers handed out: a host access through one faults) and once
 * read-write (what the streams use: every pointer a queued step gets is
 * moved into that view). A first-fit allocator over the region (twice the
 * capacity, so that frees still queued on a stream do not fragment it
 * away); the capacity counts what is allocated and not yet freed by its
 * stream, less the frees queued on the allocating stream (stream-ordered
 * reuse, as cudaMallocAsync's pool allows).
 *
 * Streams: a queue each, run in order by a thread of its own. The NULL
 * stream is a stream per device too (the synchronous calls go through it
 * and wait); it does not order itself with the other streams (the plugin
 * uses non-blocking streams only). */
#include "cuda_runtime_api.h"
#include "cudahost_ext.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kernels/cuda/dk.h"
#include "kernels/cuda/fused_impl.h"
#include "kernels/cuda/rng_impl.h"
#include "kernels/cuda/index_impl.h"
#include "kernels/cuda/nz_impl.h"
#include "kernels/cuda/gemm_impl.h"

#define MAXDEV 8
#define ALIGN 256

/* ---- settings ---- */
static int ndev = 2;
static int phys[MAXDEV];   /* each visible ordinal's physical GPU (NDTILE_CUDAHOST_VISIBLE) */
static size_t dev_total = (size_t)256 << 20;
static long fail_alloc_at = 0, fail_kernel_at = 0, fail_launchk_at = 0;   /* 1-based; 0: none */
static atomic_long n_launchk;   /* cudaLaunchKernel's calls (the compiled fused kernels) */
static _Atomic uint64_t pool_release[MAXDEV];   /* the default pools' release thresholds */
static _Atomic unsigned dev_flags[MAXDEV];      /* cudaSetDeviceFlags's */
static atomic_long n_alloc, n_kernel, n_fused, n_copy, n_copy_bytes, n_copy2d, n_fail_alloc,
    n_faults;
static atomic_long n_rng;   /* the random fills' launches (also in n_kernel) */
static atomic_long n_index;   /* index_impl.h's launches (gather, put), nz_impl.h's (argwhere) */
static atomic_long n_view_copy;   /* index_impl.h's view copies (bind.c's gathers, scatters) */
static atomic_long n_gemm;    /* the emulated cuBLAS's gemms (cublashost.c, cudahost_ext.h) */
static atomic_long n_fft;     /* the emulated cuFFT's transforms (cuffthost.c) */
static atomic_long n_solver;  /* the emulated cuSOLVER's calls (cusolverhost.c) */
static atomic_long n_batched; /* batched LU (cublashost.c) and Cholesky (cusolverhost.c) calls */
/* the fused groups' tiers: the interpreter's launches and the compiled
 * kernels' (both in n_fused), the emulated NVRTC's compiles (nvrtc_emu.c),
 * and the kernels the plugin found in its disk cache */
static atomic_long n_fused_compiled, n_cache_hits;
atomic_long ndt__cudahost_n_compiles;
static atomic_long n_reduce, n_scan, n_sort, n_bincount;   /* fold_impl.h's, scan_impl.h's,
                                                             sort_impl.h's, bincount's launches */
static atomic_long n_combine;          /* combine_impl.h's */
static int delay_us;
static int64_t grid_blocks = 2, grid_threads = 3;   /* NDTILE_CUDAHOST_GRID, as kernels.c */
static _Thread_local unsigned delay_seed = 12345;

static size_t parse_size(const char *s, size_t dflt) {
  if (!s || !*s) return dflt;
  char *end;
  double v = strtod(s, &end);
  if (end == s || v < 0) return dflt;
  switch (*end) {
    case 'k': case 'K': v *= 1024; break;
    case 'm': case 'M': v *= 1024 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    default: break;
  }
  return (size_t)v;
}

static void pin_report(void);
/* NDTILE_CUDAHOST_STATS=1: what the devices did, on stderr at exit (a
 * run through the plugin shows it used them) */
static void stats_report(void) {
  fprintf(stderr, "cudahost: %ld kernel launches, %ld copies (%ld bytes), %ld 2-d copies, "
          "%ld allocations (%ld refused), %ld faults, %ld fused launches, %ld rng launches, "
          "%ld index launches, %ld reduce launches, %ld scan launches; fused: %ld interpreted, "
          "%ld compiled, %ld compiles, %ld cache hits, %ld gemm launches, %ld combine launches, "
          "%ld fft launches, %ld solver launches, %ld sort launches, %ld bincount launches, "
          "%ld batched solver launches, %ld view copies, %llu pool release threshold, "
          "%u device flags\n",
          atomic_load(&n_kernel), atomic_load(&n_copy), atomic_load(&n_copy_bytes),
          atomic_load(&n_copy2d), atomic_load(&n_alloc), atomic_load(&n_fail_alloc),
          atomic_load(&n_faults), atomic_load(&n_fused), atomic_load(&n_rng),
          atomic_load(&n_index), atomic_load(&n_reduce), atomic_load(&n_scan),
          atomic_load(&n_fused) - atomic_load(&n_fused_compiled),
          atomic_load(&n_fused_compiled), atomic_load(&ndt__cudahost_n_compiles),
          atomic_load(&n_cache_hits), atomic_load(&n_gemm), atomic_load(&n_combine),
          atomic_load(&n_fft), atomic_load(&n_solver), atomic_load(&n_sort),
          atomic_load(&n_bincount), atomic_load(&n_batched), atomic_load(&n_view_copy),
          (unsigned long long)atomic_load(&pool_release[0]), atomic_load(&dev_flags[0]));
  pin_report();
}

void ndt__cudahost_count_cache_hit(void) { atomic_fetch_add(&n_cache_hits, 1); }

/* a launch of fold_impl.h (what 0), scan_impl.h (1), combine_impl.h (2),
 * sort_impl.h (3) or bincount_impl.h (4), counted for the statistics (the
 * launch itself goes through ndt__cudahost_launch) */
void ndt__cudahost_tally(int what) {
  static atomic_long *const count[] = {&n_reduce, &n_scan, &n_combine, &n_sort, &n_bincount};
  if (what >= 0 && what < 5) atomic_fetch_add(count[what], 1);
}

static size_t pin_limit = SIZE_MAX;   /* NDTILE_CUDAHOST_PIN_LIMIT */
static void pin_exit_check(void);

static void settings_read(void) {
  const char *s = getenv("NDTILE_CUDAHOST_DEVICES");
  if (s && *s) {
    ndev = atoi(s);
    if (ndev < 0) ndev = 0;
    if (ndev > MAXDEV) ndev = MAXDEV;
  }
  /* NDTILE_CUDAHOST_VISIBLE=2,0: the emulation's CUDA_VISIBLE_DEVICES (of
   * the NDTILE_CUDAHOST_DEVICES physical GPUs, these, in this order: the
   * ordinals 0, 1, ... a process sees); each GPU's PCI bus id comes from
   * its physical index (cudaDeviceGetPCIBusId) */
  for (int i = 0; i < MAXDEV; i++) phys[i] = i;
  const char *vis = getenv("NDTILE_CUDAHOST_VISIBLE");
  if (vis && *vis) {
    int n = 0;
    for (const char *p = vis; *p && n < MAXDEV;) {
      int k = atoi(p);
      if (k < 0 || k >= ndev) break;   /* (CUDA: the list ends at an invalid entry) */
      phys[n++] = k;
      p = strchr(p, ',');
      if (!p) break;
      p++;
    }
    ndev = n;
  }
  dev_total = parse_size(getenv("NDTILE_CUDAHOST_MEM"), dev_total);
  dev_total = (dev_total + ALIGN - 1) / ALIGN * ALIGN;
  const char *f = getenv("NDTILE_CUDAHOST_FAIL");
  for (const char *p = f; p && *p;) {
    if (!strncmp(p, "alloc:", 6)) fail_alloc_at = atol(p + 6);
    else if (!strncmp(p, "kernel:", 7)) fail_kernel_at = atol(p + 7);
    else if (!strncmp(p, "launchk:", 8)) fail_launchk_at = atol(p + 8);
    p = strchr(p, ',');
    if (p) p++;
  }
  const char *d = getenv("NDTILE_CUDAHOST_DELAY");
  if (d && *d) delay_us = atoi(d);
  const char *g = getenv("NDTILE_CUDAHOST_GRID");
  if (g && *g) {
    const char *c = strchr(g, ',');
    if (atoi(g) > 0) grid_blocks = atoi(g);
    if (c && atoi(c + 1) > 0) grid_threads = atoi(c + 1);
  }
  pin_limit = parse_size(getenv("NDTILE_CUDAHOST_PIN_LIMIT"), pin_limit);
  atexit(pin_exit_check);
  const char *st = getenv("NDTILE_CUDAHOST_STATS");
  if (st && *st && strcmp(st, "0")) atexit(stats_report);
}

/* ---- errors: per thread, and sticky per device ---- */
static _Thread_local cudaError_t last_error;
static _Thread_local int cur_dev;

static cudaError_t ret(cudaError_t e) {
  if (e != cudaSuccess) last_error = e;
  return e;
}

const char *cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorHostMemoryAlreadyRegistered: return "cudaErrorHostMemoryAlreadyRegistered";
    case cudaErrorHostMemoryNotRegistered: return "cudaErrorHostMemoryNotRegistered";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
  }
  return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInsufficientDriver:
      return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorHostMemoryAlreadyRegistered:
      return "part or all of the requested memory range is already mapped";
    case cudaErrorHostMemoryNotRegistered:
      return "pointer does not correspond to a registered memory region";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
  }
  return "unknown error";
}

cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError(void) { return last_error; }

/* ---- devices ---- */
typedef struct { char *at; size_t n; } extent;   /* device-view addresses */
typedef struct {
  extent *a;
  int n, cap;
} extents;   /* sorted by address */

typedef struct cdev {
  int id;
  _Atomic int ready;     /* its memory mapped (set last: dbase, wbase, region are read after it) */
  char *dbase, *wbase;   /* the device view (PROT_NONE) and the streams' view */
  size_t region;
  pthread_mutex_t lock;  /* the allocator, the counts */
  extents freel, live;
  size_t in_use;         /* allocated and not freed by its stream yet */
  _Atomic int sticky;    /* a fault: every later call on the device returns it */
  cudaStream_t null_stream;
} cdev;
static cdev devs[MAXDEV];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;

static void init_once(void) {
  settings_read();
  for (int i = 0; i < MAXDEV; i++) {
    devs[i].id = i;
    pthread_mutex_init(&devs[i].lock, NULL);
  }
}

static int ext_find(const extents *x, const char *p) {   /* the extent holding p, or -1 */
  int lo = 0, hi = x->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (p < x->a[mid].at) hi = mid - 1;
    else if (p >= x->a[mid].at + x->a[mid].n) lo = mid + 1;
    else return mid;
  }
  return -1;
}

static int ext_insert(extents *x, extent e) {
  if (x->n == x->cap) {
    int c = x->cap ? 2 * x->cap : 64;
    extent *a = realloc(x->a, (size_t)c * sizeof *a);
    if (!a) return -1;
    x->a = a;
    x->cap = c;
  }
  int i = x->n;
  while (i > 0 && x->a[i - 1].at > e.at) i--;
  memmove(x->a + i + 1, x->a + i, (size_t)(x->n - i) * sizeof *x->a);
  x->a[i] = e;
  x->n++;
  return i;
}

static void ext_remove(extents *x, int i) {
  memmove(x->a + i, x->a + i + 1, (size_t)(x->n - i - 1) * sizeof *x->a);
  x->n--;
}

/* the context: the device's memory mapped (lock: ctx_lock) */
static cudaError_t dev_ready(cdev *d) {
  if (atomic_load_explicit(&d->ready, memory_order_acquire)) return cudaSuccess;
  pthread_mutex_lock(&ctx_lock);
  cudaError_t e = cudaSuccess;
  if (!atomic_load(&d->ready)) {
    long pg = sysconf(_SC_PAGESIZE);
    d->region = ((2 * dev_total + ((size_t)1 << 20)) + (size_t)pg - 1) / (size_t)pg * (size_t)pg;
    int fd = memfd_create("ndtile-cudahost", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)d->region) != 0) e = cudaErrorInitializationError;
    if (e == cudaSuccess) {
      d->dbase = mmap(NULL, d->region, PROT_NONE, MAP_SHARED | MAP_NORESERVE, fd, 0);
      d->wbase = mmap(NULL, d->region, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
      if (d->dbase == MAP_FAILED || d->wbase == MAP_FAILED) e = cudaErrorInitializationError;
    }
    if (fd >= 0) close(fd);
    if (e == cudaSuccess && ext_insert(&d->freel, (extent){d->dbase, d->region}) < 0)
      e = cudaErrorInitializationError;
    if (e == cudaSuccess) atomic_store_explicit(&d->ready, 1, memory_order_release);
  }
  pthread_mutex_unlock(&ctx_lock);
  return e;
}

static cdev *dev_of_index(int i) { return i >= 0 && i < ndev ? &devs[i] : NULL; }

/* the device whose memory holds device pointer p, or NULL (a host pointer) */
static cdev *dev_of_ptr(const void *p) {
  for (int i = 0; i < ndev; i++)
    if (atomic_load_explicit(&devs[i].ready, memory_order_acquire) &&
        (const char *)p >= devs[i].dbase &&
        (const char *)p < devs[i].dbase + devs[i].region)
      return &devs[i];
  return NULL;
}

/* where the streams reach device pointer p (host pointers stay) */
static void *work_of(const void *p) {
  cdev *d = dev_of_ptr(p);
  return d ? d->wbase + ((const char *)p - d->dbase) : (void *)p;
}

cudaError_t cudaGetDeviceCount(int *count) {
  pthread_once(&once, init_once);
  if (ndev == 0) return ret(cudaErrorNoDevice);
  *count = ndev;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion) {
  if (!driverVersion) return ret(cudaErrorInvalidValue);
  const char *v = getenv("NDTILE_CUDAHOST_DRIVER_VERSION");
  *driverVersion = v && *v ? atoi(v) : 13000;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
  pthread_once(&once, init_once);
  if (!dev_of_index(device)) return ret(cudaErrorInvalidDevice);
  memset(prop, 0, sizeof *prop);
  snprintf(prop->name, sizeof prop->name, "cudahost emulated device %d", device);
  prop->totalGlobalMem = dev_total;
  prop->multiProcessorCount = 2;
  prop->major = 9;
  prop->minor = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  pthread_once(&once, init_once);
  if (!dev_of_index(device)) return ret(cudaErrorInvalidDevice);
  if (!pciBusId || len < 13) return ret(cudaErrorInvalidValue);
  snprintf(pciBusId, (size_t)len, "00000000:%02X:00.0", 0x41 + phys[device]);
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  pthread_once(&once, init_once);
  cdev *d = dev_of_index(device);
  if (!d) return ret(cudaErrorInvalidDevice);
  cudaError_t e = dev_ready(d);
  if (e) return ret(e);
  cur_dev = device;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device) {
  *device = cur_dev;
  return cudaSuccess;
}

/* the current device, its context made; or an error (sticky included) */
static cudaError_t current(cdev **out) {
  pthread_once(&once, init_once);
  cdev *d = dev_of_index(cur_dev);
  if (!d) return cudaErrorNoDevice;
  cudaError_t e = dev_ready(d);
  if (e) return e;
  if ((e = (cudaError_t)atomic_load(&d->sticky))) return e;
  *out = d;
  return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  cdev *d;
  cudaError_t e = current(&d);
  if (e) return ret(e);
  unsigned sched = flags & 7u;
  if ((flags & ~7u) || (sched != 0 && sched != 1 && sched != 2 && sched != 4))
    return ret(cudaErrorInvalidValue);
  atomic_store(&dev_flags[d->id], flags);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  cdev *d;
  cudaError_t e = current(&d);
  if (e) return ret(e);
  pthread_mutex_lock(&d->lock);
  *free_bytes = dev_total - d->in_use;
  *total_bytes = dev_total;
  pthread_mutex_unlock(&d->lock);
  return cudaSuccess;
}

/* ---- compiled fused kernels (cudaLibraryLoadData's shared objects): one
 * emulated thread per call, as fused_gen.h's host frame has it ---- */
typedef void (*ndt_fg_body)(const ndt_dk_flaunch *L, unsigned *flags, int64_t bx, int64_t by,
                            int64_t nbx, int64_t tx, int64_t ntx);

static void fbody_grid(ndt_fg_body body, const ndt_dk_flaunch *L, unsigned *flags) {
  for (int64_t by = 0; by < L->nrun; by++)
    for (int64_t bx = 0; bx < grid_blocks; bx++)
      for (int64_t tx = 0; tx < grid_threads; tx++)
        body(L, flags, bx, by, grid_blocks, tx, grid_threads);
}

/* ---- streams ---- */
enum { OP_COPY, OP_COPY2D, OP_SET, OP_KERNEL, OP_FREE, OP_RECORD, OP_WAIT, OP_HOST };
typedef struct op {
  int kind;
  char *dst;
  const char *src;
  size_t n;
  size_t dpitch, spitch, height;   /* OP_COPY2D: n bytes a row */
  int value;
  cudaEvent_t ev;
  long gen;
  void (*grid)(const ndt_dk_launch *, unsigned *);
  ndt_dk_launch *L;
  void (*fgrid)(const ndt_dk_flaunch *, unsigned *);   /* a fused group's launch */
  ndt_dk_flaunch *FL;
  ndt_fg_body fbody;   /* or a compiled fused kernel's (cudaLaunchKernel) */
  void (*rgrid)(const ndt_dk_rlaunch *);   /* a random fill's launch */
  ndt_dk_rlaunch *RL;
  void (*xgrid)(void *);   /* another kernel's launch (index_impl.h) */
  void *XL;
  unsigned *flags;
  int fault;
  cudaHostFn_t fn;
  void *data;
  struct op *next;
} op;

struct CUstream_st {
  const ndt_cudahost_ext *ext;   /* first: the other libraries' emulations reach it */
  cdev *dev;
  pthread_t th;
  pthread_mutex_t m;
  pthread_cond_t work, idle;
  op *head, *tail;
  long queued, done;
  size_t freeing;   /* bytes of frees queued and not yet run */
};

struct CUevent_st {
  pthread_mutex_t m;
  pthread_cond_t c;
  long recorded, completed;
};

static void dev_fault(cdev *d, cudaError_t e) {
  int none = 0;
  atomic_compare_exchange_strong(&d->sticky, &none, (int)e);
  atomic_fetch_add(&n_faults, 1);
}

static void free_block(cdev *d, char *at) {
  pthread_mutex_lock(&d->lock);
  int i = ext_find(&d->live, at);
  if (i >= 0) {
    extent x = d->live.a[i];
    ext_remove(&d->live, i);
    d->in_use -= x.n;
    memset(d->wbase + (x.at - d->dbase), 0xA5, x.n);   /* freed: poisoned */
    /* back to the free list, merged with its neighbours */
    int k = ext_insert(&d->freel, x);
    if (k >= 0) {
      if (k + 1 < d->freel.n && d->freel.a[k].at + d->freel.a[k].n == d->freel.a[k + 1].at) {
        d->freel.a[k].n += d->freel.a[k + 1].n;
        ext_remove(&d->freel, k + 1);
      }
      if (k > 0 && d->freel.a[k - 1].at + d->freel.a[k - 1].n == d->freel.a[k].at) {
        d->freel.a[k - 1].n += d->freel.a[k].n;
        ext_remove(&d->freel, k);
      }
    }
  }
  pthread_mutex_unlock(&d->lock);
}

static void run_op(cudaStream_t s, op *o) {
  cdev *d = s->dev;
  if (delay_us > 0) usleep((useconds_t)(rand_r(&delay_seed) % (unsigned)delay_us));
  /* after a fault the device runs nothing more (its memory stays as it
   * was: the plugin can no longer read it) */
  int dead = atomic_load(&d->sticky) != 0;
  switch (o->kind) {
    case OP_COPY:
      if (!dead) memmove(o->dst, o->src, o->n);
      break;
    case OP_COPY2D:
      for (size_t r = 0; !dead && r < o->height; r++)
        memmove(o->dst + r * o->dpitch, o->src + r * o->spitch, o->n);
      break;
    case OP_SET:
      if (!dead) memset(o->dst, o->value, o->n);
      break;
    case OP_KERNEL:
      if (o->fault) dev_fault(d, cudaErrorIllegalAddress);
      else if (!dead && o->FL && o->fbody) fbody_grid(o->fbody, o->FL, o->flags);
      else if (!dead && o->FL) o->fgrid(o->FL, o->flags);
      else if (!dead && o->RL) o->rgrid(o->RL);
      else if (!dead && o->XL) o->xgrid(o->XL);
      else if (!dead) o->grid(o->L, o->flags);
      free(o->L);
      free(o->FL);
      free(o->RL);
      free(o->XL);
      break;
    case OP_FREE:
      free_block(d, o->dst);
      pthread_mutex_lock(&s->m);
      s->freeing -= o->n;
      pthread_mutex_unlock(&s->m);
      break;
    case OP_RECORD:
      pthread_mutex_lock(&o->ev->m);
      if (o->gen > o->ev->completed) o->ev->completed = o->gen;
      pthread_cond_broadcast(&o->ev->c);
      pthread_mutex_unlock(&o->ev->m);
      break;
    case OP_WAIT:
      pthread_mutex_lock(&o->ev->m);
      while (o->ev->completed < o->gen) pthread_cond_wait(&o->ev->c, &o->ev->m);
      pthread_mutex_unlock(&o->ev->m);
      break;
    case OP_HOST:
      o->fn(o->data);
      break;
  }
}

static void *stream_main(void *arg) {
  cudaStream_t s = arg;
  pthread_mutex_lock(&s->m);
  for (;;) {
    while (!s->head) pthread_cond_wait(&s->work, &s->m);
    op *o = s->head;
    pthread_mutex_unlock(&s->m);
    run_op(s, o);
    pthread_mutex_lock(&s->m);
    s->head = o->next;
    if (!s->head) s->tail = NULL;
    s->done++;
    free(o);
    if (s->done == s->queued) pthread_cond_broadcast(&s->idle);
  }
  return NULL;
}

static const ndt_cudahost_ext ext_table;

static cudaError_t stream_new(cdev *d, cudaStream_t *out) {
  cudaStream_t s = calloc(1, sizeof *s);
  if (!s) return cudaErrorMemoryAllocation;
  s->ext = &ext_table;
  s->dev = d;
  pthread_mutex_init(&s->m, NULL);
  pthread_cond_init(&s->work, NULL);
  pthread_cond_init(&s->idle, NULL);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, (size_t)1 << 20);   /* the pairwise kernel's frames */
  int r = pthread_create(&s->th, &at, stream_main, s);
  pthread_attr_destroy(&at);
  if (r) {
    free(s);
    return cudaErrorMemoryAllocation;
  }
  pthread_detach(s->th);
  *out = s;
  return cudaSuccess;
}

/* s, or the current device's NULL stream for NULL */
static cudaError_t stream_of(cudaStream_t s, cudaStream_t *out) {
  if (s) {
    cudaError_t e = (cudaError_t)atomic_load(&s->dev->sticky);
    if (e) return e;
    *out = s;
    return cudaSuccess;
  }
  cdev *d;
  cudaError_t e = current(&d);
  if (e) return e;
  pthread_mutex_lock(&ctx_lock);
  if (!d->null_stream) e = stream_new(d, &d->null_stream);
  pthread_mutex_unlock(&ctx_lock);
  *out = d->null_stream;
  return e;
}

/* A kernel's stream: CUDA refuses a launch into a stream of a device other
 * than the calling thread's current one (cudaSetDevice is per host thread;
 * a copy or memset may cross devices, a launch may not:
 * cudaErrorInvalidResourceHandle), and a kernel reaches its own device's
 * memory only (the plugin enables no peer access: another device's pointer
 * is an illegal address there). launch_dev: the device of the launch this
 * thread is checking (in_launch below). */
static _Thread_local cdev *launch_dev;
static cudaError_t launch_stream_of(void *stream, cudaStream_t *q) {
  cudaError_t e = stream_of(stream, q);
  if (e) return e;
  if ((*q)->dev != dev_of_index(cur_dev)) {
    fprintf(stderr, "cudahost: a kernel launch into a stream of device %d from a thread whose "
            "current device is %d (cudaSetDevice is per thread): refused\n", (*q)->dev->id,
            cur_dev);
    return cudaErrorInvalidResourceHandle;
  }
  launch_dev = (*q)->dev;
  return cudaSuccess;
}

static cudaError_t enqueue(cudaStream_t s, op o) {
  /* the host side of a call takes time too (a launch: microseconds): two
   * threads that share a stream interleave their steps */
  if (delay_us > 0) usleep((useconds_t)(rand_r(&delay_seed) % (unsigned)delay_us));
  op *p = malloc(sizeof *p);
  if (!p) return cudaErrorMemoryAllocation;
  *p = o;
  p->next = NULL;
  pthread_mutex_lock(&s->m);
  if (s->tail) s->tail->next = p;
  else s->head = p;
  s->tail = p;
  s->queued++;
  pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->m);
  return cudaSuccess;
}

static void stream_drain(cudaStream_t s) {
  pthread_mutex_lock(&s->m);
  while (s->done != s->queued) pthread_cond_wait(&s->idle, &s->m);
  pthread_mutex_unlock(&s->m);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
  (void)flags;
  cdev *d;
  cudaError_t e = current(&d);
  if (e) return ret(e);
  return ret(stream_new(d, s));
}

cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  /* its work finishes first; the thread stays (parked), as the plugin
   * never destroys its streams */
  if (!s) return ret(cudaErrorInvalidResourceHandle);
  stream_drain(s);
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  cudaStream_t q;
  cudaError_t e = stream_of(s, &q);
  if (e) return ret(e);
  stream_drain(q);
  return ret((cudaError_t)atomic_load(&q->dev->sticky));
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
  cudaStream_t q;
  cudaError_t e = stream_of(s, &q);
  if (e) return ret(e);
  pthread_mutex_lock(&q->m);
  int busy = q->done != q->queued;
  pthread_mutex_unlock(&q->m);
  if ((e = (cudaError_t)atomic_load(&q->dev->sticky))) return ret(e);
  return busy ? cudaErrorNotReady : cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  cdev *d;
  cudaError_t e = current(&d);
  if (e) return ret(e);
  /* every stream of the device: the NULL stream here, the others through
   * the plugin's own synchronisation (it keeps no list) */
  pthread_mutex_lock(&ctx_lock);
  cudaStream_t ns = d->null_stream;
  pthread_mutex_unlock(&ctx_lock);
  if (ns) stream_drain(ns);
  return ret((cudaError_t)atomic_load(&d->sticky));
}

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data) {
  cudaStream_t q;
  cudaError_t e = stream_of(s, &q);
  if (e) return ret(e);
  return ret(enqueue(q, (op){.kind = OP_HOST, .fn = fn, .data = data}));
}

/* ---- events ---- */
cudaError_t cudaEventCreate(cudaEvent_t *e) {
  cudaEvent_t v = calloc(1, sizeof *v);
  if (!v) return ret(cudaErrorMemoryAllocation);
  pthread_mutex_init(&v->m, NULL);
  pthread_cond_init(&v->c, NULL);
  *e = v;
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e) {
  if (!e) return ret(cudaErrorInvalidResourceHandle);
  pthread_mutex_lock(&e->m);
  int pending = e->completed < e->recorded;
  pthread_mutex_unlock(&e->m);
  if (!pending) free(e);   /* (a pending one is left: its record still runs) */
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  cudaStream_t q;
  cudaError_t r = stream_of(s, &q);
  if (r) return ret(r);
  pthread_mutex_lock(&e->m);
  long gen = ++e->recorded;
  pthread_mutex_unlock(&e->m);
  return ret(enqueue(q, (op){.kind = OP_RECORD, .ev = e, .gen = gen}));
}

cudaError_t cudaEventQuery(cudaEvent_t e) {
  pthread_mutex_lock(&e->m);
  int done = e->completed >= e->recorded;
  pthread_mutex_unlock(&e->m);
  return done ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  pthread_mutex_lock(&e->m);
  while (e->completed < e->recorded) pthread_cond_wait(&e->c, &e->m);
  pthread_mutex_unlock(&e->m);
  return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  (void)flags;
  cudaStream_t q;
  cudaError_t r = stream_of(s, &q);
  if (r) return ret(r);
  pthread_mutex_lock(&e->m);
  long gen = e->recorded;
  pthread_mutex_unlock(&e->m);
  return ret(enqueue(q, (op){.kind = OP_WAIT, .ev = e, .gen = gen}));
}

/* ---- memory ---- */
/* n bytes on d for stream s (NULL: synchronous, no stream-ordered reuse) */
static cudaError_t dev_alloc(cdev *d, cudaStream_t s, void **p, size_t n) {
  if (atomic_fetch_add(&n_alloc, 1) + 1 == fail_alloc_at) {
    atomic_fetch_add(&n_fail_alloc, 1);
    return cudaErrorMemoryAllocation;
  }
  size_t want = (n + ALIGN - 1) / ALIGN * ALIGN;
  if (want == 0) want = ALIGN;
  size_t reusable = 0;
  if (s) {
    pthread_mutex_lock(&s->m);
    reusable = s->freeing;
    pthread_mutex_unlock(&s->m);
  }
  pthread_mutex_lock(&d->lock);
  cudaError_t e = cudaErrorMemoryAllocation;
  if (d->in_use + want <= dev_total + reusable) {
    for (int i = 0; i < d->freel.n; i++) {
      extent *f = &d->freel.a[i];
      if (f->n < want) continue;
      extent x = {f->at, want};
      f->at += want;
      f->n -= want;
      if (f->n == 0) ext_remove(&d->freel, i);
      if (ext_insert(&d->live, x) < 0) break;
      d->in_use += want;
      memset(d->wbase + (x.at - d->dbase), 0xFF, want);   /* fresh: poisoned */
      *p = x.at;
      e = cudaSuccess;
      break;
    }
  }
  pthread_mutex_unlock(&d->lock);
  if (e) atomic_fetch_add(&n_fail_alloc, 1);
  return e;
}

cudaError_t cudaMalloc(void **p, size_t n) {
  cdev *d;
  cudaError_t e = current(&d);
  if (e) return ret(e);
  return ret(dev_alloc(d, NULL, p, n));
}

cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) {
  cudaStream_t q;
  cudaError_t e = stream_of(s, &q);
  if (e) return ret(e);
  return ret(dev_alloc(q->dev, q, p, n));
}

/* the default pools: one per device, its release threshold kept */
struct CUmemPoolHandle_st {
  cdev *d;   /* (its threshold: pool_release[d->id]) */
};
static struct CUmemPoolHandle_st pools[MAXDEV];

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
  pthread_once(&once, init_once);
  cdev *d = dev_of_index(device);
  if (!d) return ret(cudaErrorInvalidDevice);
  cudaError_t e = dev_ready(d);
  if (!e) e = (cudaError_t)atomic_load(&d->sticky);
  if (e) return ret(e);
  pools[device].d = d;
  *pool = &pools[device];
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value) {
  if (!pool || !pool->d || !value || attr != cudaMemPoolAttrReleaseThreshold)
    return ret(cudaErrorInvalidValue);
  uint64_t v;
  memcpy(&v, value, sizeof v);
  atomic_store(&pool_release[pool->d->id], v);
  return cudaSuccess;
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value) {
  if (!pool || !pool->d || !value || attr != cudaMemPoolAttrReleaseThreshold)
    return ret(cudaErrorInvalidValue);
  uint64_t v = atomic_load(&pool_release[pool->d->id]);
  memcpy(value, &v, sizeof v);
  return cudaSuccess;
}

/* the live allocation at p on its device, its size in *n; -1: none */
static int live_block(cdev *d, const void *p, size_t *n) {
  pthread_mutex_lock(&d->lock);
  int i = ext_find(&d->live, p);
  int ok = i >= 0 && d->live.a[i].at == (const char *)p;
  if (ok) *n = d->live.a[i].n;
  pthread_mutex_unlock(&d->lock);
  return ok ? 0 : -1;
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t s) {
  if (!p) return cudaSuccess;
  cudaStream_t q;
  cudaError_t e = stream_of(s, &q);
  if (e) return ret(e);
  cdev *d = dev_of_ptr(p);
  size_t n;
  if (!d || live_block(d, p, &n)) return ret(cudaErrorInvalidValue);
  pthread_mutex_lock(&q->m);
  q->freeing += n;
  pthread_mutex_unlock(&q->m);
  return ret(enqueue(q, (op){.kind = OP_FREE, .dst = p, .n = n}));
}

cudaError_t cudaFree(void *p) {
  if (!p) return cudaSuccess;
  cudaError_t e = cudaDeviceSynchronize();   /* cudaFree waits for the device */
  if (e) return e;
  cdev *d = dev_of_ptr(p);
  size_t n;
  if (!d || live_block(d, p, &n)) return ret(cudaErrorInvalidValue);
  free_block(d, p);
  return cudaSuccess;
}

/* 1 when [p, p + n) lies in live allocations of one device, with no gap
 * (a kernel may run over allocations that lie back to back: the core
 * binds tiles adjacent in memory in place, as on the host) */
static int in_live(const char *p, size_t n) {
  cdev *d = dev_of_ptr(p);
  if (!d) return 0;
  pthread_mutex_lock(&d->lock);
  const char *at = p, *end = p + n;
  int ok = 1;
  while (ok && at < end) {
    int i = ext_find(&d->live, at);
    if (i < 0) ok = 0;
    else at = d->live.a[i].at + d->live.a[i].n;
  }
  pthread_mutex_unlock(&d->lock);
  return ok;
}

/* in_live, on the device of the launch being checked (launch_stream_of) */
static int in_launch(const char *p, size_t n) {
  return dev_of_ptr(p) == launch_dev && in_live(p, n);
}

static int kind_ok(const void *dst, const void *src, size_t n, enum cudaMemcpyKind kind) {
  int dd = dev_of_ptr(dst) != NULL, sd = dev_of_ptr(src) != NULL;
  if ((dd && !in_live(dst, n)) || (sd && !in_live(src, n))) return 0;
  switch (kind) {
    case cudaMemcpyHostToHost: return !dd && !sd;
    case cudaMemcpyHostToDevice: return dd && !sd;
    case cudaMemcpyDeviceToHost: return !dd && sd;
    case cudaMemcpyDeviceToDevice: return dd && sd;
    case cudaMemcpyDefault: return 1;
  }
  return 0;
}

static void pin_count(const void *dst, size_t dspan, const void *src, size_t sspan, size_t n);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                            cudaStream_t s) {
  cudaStream_t q;
  cudaError_t e = stream_of(s, &q);
  if (e) return ret(e);
  if (n == 0) return cudaSuccess;
  if (!kind_ok(dst, src, n, kind)) return ret(cudaErrorInvalidValue);
  atomic_fetch_add(&n_copy, 1);
  atomic_fetch_add(&n_copy_bytes, (long)n);
  pin_count(dst, n, src, n, n);
  return ret(enqueue(q, (op){.kind = OP_COPY, .dst = work_of(dst), .src = work_of(src), .n = n}));
}

/* rows of width bytes at their pitches (CUDA's rules: pitches >= width),
 * each row checked like a copy of its own, all of them one operation on
 * the stream (as on a GPU: one call; a row an operation made the host
 * build's gathers of columns cost a thread switch an element) */
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t s) {
  if (dpitch < width || spitch < width) return ret(cudaErrorInvalidValue);
  cudaStream_t q;
  cudaError_t e = stream_of(s, &q);
  if (e) return ret(e);
  if (width == 0 || height == 0) return cudaSuccess;
  atomic_fetch_add(&n_copy2d, 1);
  char *d0 = work_of(dst);
  const char *s0 = work_of(src);
  for (size_t r = 0; r < height; r++) {
    char *d = (char *)dst + r * dpitch;
    const char *sr = (const char *)src + r * spitch;
    if (!kind_ok(d, sr, width, kind)) return ret(cudaErrorInvalidValue);
    if (work_of(d) != d0 + r * dpitch || work_of(sr) != s0 + r * spitch)
      return ret(cudaErrorInvalidValue);   /* a region across two allocations */
  }
  atomic_fetch_add(&n_copy, (long)height);
  atomic_fetch_add(&n_copy_bytes, (long)(width * height));
  pin_count(dst, (height - 1) * dpitch + width, src, (height - 1) * spitch + width, width * height);
  return ret(enqueue(q, (op){.kind = OP_COPY2D, .dst = d0, .src = s0, .n = width,
                             .dpitch = dpitch, .spitch = spitch, .height = height}));
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind) {
  cudaError_t e = cudaMemcpyAsync(dst, src, n, kind, NULL);
  return e ? e : cudaStreamSynchronize(NULL);
}

/* ---- page-locked host memory ----
 * The ranges registered (cudaHostRegister) or allocated (cudaMallocHost),
 * in a table; CUDA's rules are checked on it. A registered range must stay
 * mapped until it is unregistered: each registration, unregistration and
 * the exit look for ranges that were not (lost). */
typedef struct { char *p; size_t n; int alloc; int lost; } pinned;
static pthread_mutex_t pin_lock = PTHREAD_MUTEX_INITIALIZER;
static pinned *pin_tab;
static int pin_n, pin_cap;
static size_t pin_bytes;   /* registered now (the limit's) */
static atomic_long n_hreg, n_hunreg, n_hrefused, n_pinned_copy, n_pageable_copy, n_hlost,
    n_halloc, n_pinned_bytes, n_pageable_bytes;

/* 1 when every page of [p, p + n) is mapped */
static int mapped(const char *p, size_t n) {
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p & ~(pg - 1);
  return msync((void *)a, (uintptr_t)p + n - a, MS_ASYNC) == 0 || errno != ENOMEM;
}

/* counts (and says, once each) the registered ranges unmapped meanwhile;
 * pin_lock held */
static void pin_scan_lost(void) {
  for (int i = 0; i < pin_n; i++)
    if (!pin_tab[i].alloc && !pin_tab[i].lost && !mapped(pin_tab[i].p, pin_tab[i].n)) {
      pin_tab[i].lost = 1;
      atomic_fetch_add(&n_hlost, 1);
      fprintf(stderr, "cudahost: ERROR: registered host memory [%p, +%zu) was unmapped before "
              "cudaHostUnregister\n", (void *)pin_tab[i].p, pin_tab[i].n);
    }
}

static int pin_at(const char *p, size_t n) {   /* the range overlapping [p, p + n), or -1 */
  for (int i = 0; i < pin_n; i++)
    if (p < pin_tab[i].p + pin_tab[i].n && pin_tab[i].p < p + n) return i;
  return -1;
}

static cudaError_t pin_add(char *p, size_t n, int alloc) {
  if (pin_n == pin_cap) {
    int cap = pin_cap ? 2 * pin_cap : 64;
    pinned *t = realloc(pin_tab, (size_t)cap * sizeof *t);
    if (!t) return cudaErrorMemoryAllocation;
    pin_tab = t;
    pin_cap = cap;
  }
  pin_tab[pin_n++] = (pinned){p, n, alloc, 0};
  return cudaSuccess;
}

cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags) {
  pthread_once(&once, init_once);
  if (!p || !n || (flags & ~(unsigned)cudaHostRegisterPortable) || !mapped(p, n))
    return ret(cudaErrorInvalidValue);
  pthread_mutex_lock(&pin_lock);
  pin_scan_lost();
  cudaError_t e = cudaSuccess;
  int at = pin_at(p, n);
  if (at >= 0 && !pin_tab[at].lost) e = cudaErrorHostMemoryAlreadyRegistered;
  else if (at >= 0) pin_tab[at] = pin_tab[--pin_n];   /* (a lost range's place is reused) */
  if (!e && n > pin_limit - pin_bytes) e = cudaErrorMemoryAllocation;
  if (!e) e = pin_add(p, n, 0);
  if (!e) pin_bytes += n;
  pthread_mutex_unlock(&pin_lock);
  atomic_fetch_add(e ? &n_hrefused : &n_hreg, 1);
  return ret(e);
}

cudaError_t cudaHostUnregister(void *p) {
  pthread_mutex_lock(&pin_lock);
  pin_scan_lost();
  int i = -1;
  for (int k = 0; k < pin_n && i < 0; k++)
    if (pin_tab[k].p == p && !pin_tab[k].alloc) i = k;
  if (i >= 0) {
    pin_bytes -= pin_tab[i].n;
    pin_tab[i] = pin_tab[--pin_n];
    atomic_fetch_add(&n_hunreg, 1);
  }
  pthread_mutex_unlock(&pin_lock);
  return i < 0 ? ret(cudaErrorHostMemoryNotRegistered) : cudaSuccess;
}

cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags) {
  pthread_once(&once, init_once);
  if (!p || (flags & ~(unsigned)cudaHostAllocPortable)) return ret(cudaErrorInvalidValue);
  void *m = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return ret(cudaErrorMemoryAllocation);
  pthread_mutex_lock(&pin_lock);
  cudaError_t e = pin_add(m, n ? n : 1, 1);
  pthread_mutex_unlock(&pin_lock);
  if (e) {
    munmap(m, n ? n : 1);
    return ret(e);
  }
  atomic_fetch_add(&n_halloc, 1);
  *p = m;
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void **p, size_t n) { return cudaHostAlloc(p, n, 0); }

cudaError_t cudaFreeHost(void *p) {
  pinned f = {0};
  pthread_mutex_lock(&pin_lock);
  for (int k = 0; k < pin_n && !f.p; k++)
    if (pin_tab[k].p == p && pin_tab[k].alloc) {
      f = pin_tab[k];
      pin_tab[k] = pin_tab[--pin_n];
    }
  pthread_mutex_unlock(&pin_lock);
  if (!f.p) return ret(cudaErrorInvalidValue);
  munmap(f.p, f.n);
  return cudaSuccess;
}

/* a copy of n bytes counted by its host side (the side that is not
 * device memory: the span it reaches) as pinned or pageable */
static void pin_count(const void *dst, size_t dspan, const void *src, size_t sspan, size_t n) {
  int dd = dev_of_ptr(dst) != NULL, sd = dev_of_ptr(src) != NULL;
  if (dd == sd) return;   /* device to device, host to host */
  const char *h = dd ? src : dst;
  size_t span = dd ? sspan : dspan;
  pthread_mutex_lock(&pin_lock);
  int i = pin_at(h, span);
  int pinned_all = i >= 0 && !pin_tab[i].lost && pin_tab[i].p <= h &&
                   h + span <= pin_tab[i].p + pin_tab[i].n;
  pthread_mutex_unlock(&pin_lock);
  atomic_fetch_add(pinned_all ? &n_pinned_copy : &n_pageable_copy, 1);
  atomic_fetch_add(pinned_all ? &n_pinned_bytes : &n_pageable_bytes, (long)n);
}

void ndt__cudahost_pin_counts(long out[9]) {
  pthread_mutex_lock(&pin_lock);
  pin_scan_lost();
  pthread_mutex_unlock(&pin_lock);
  long v[9] = {atomic_load(&n_hreg), atomic_load(&n_hunreg), atomic_load(&n_hrefused),
               atomic_load(&n_pinned_copy), atomic_load(&n_pageable_copy), atomic_load(&n_hlost),
               atomic_load(&n_halloc), atomic_load(&n_pinned_bytes),
               atomic_load(&n_pageable_bytes)};
  memcpy(out, v, sizeof v);
}

static void pin_exit_check(void) {
  pthread_mutex_lock(&pin_lock);
  pin_scan_lost();
  pthread_mutex_unlock(&pin_lock);
}

static void pin_report(void) {
  long v[9];
  ndt__cudahost_pin_counts(v);
  fprintf(stderr, "cudahost: %ld host registrations (%ld unregistered, %ld refused, %ld lost), "
          "%ld pinned copies (%ld bytes), %ld pageable copies (%ld bytes), %ld pinned "
          "allocations\n", v[0], v[1], v[2], v[5], v[3], v[7], v[4], v[8], v[6]);
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s) {
  cudaStream_t q;
  cudaError_t e = stream_of(s, &q);
  if (e) return ret(e);
  if (n == 0) return cudaSuccess;
  if (!in_live(p, n)) return ret(cudaErrorInvalidValue);
  return ret(enqueue(q, (op){.kind = OP_SET, .dst = work_of(p), .value = value, .n = n}));
}

/* ---- kernel launches (dk.h, NDT_DK_STREAM: the launch syntax's stand-in)
 * The launch is copied, as a kernel's parameters are when it is launched;
 * its pointers are moved into the streams' view of device memory. An
 * operand that reaches outside the device's live allocations makes the
 * kernel fault when it runs (a sticky illegal address), as on a GPU, with
 * a line on stderr saying which (compute-sanitizer's memcheck, roughly:
 * the first and last element of each run's operand, by their first byte). */
static int run_reaches(const ndt_dk_run *r, int k, const char **lo, const char **hi) {
  const char *p = r->p[k];
  int64_t a = r->rows > 1 ? (r->rows - 1) * r->rs[k] : 0;
  int64_t b = r->cols > 1 ? (r->cols - 1) * r->cs[k] : 0;
  *lo = p + (a < 0 ? a : 0) + (b < 0 ? b : 0);
  *hi = p + (a > 0 ? a : 0) + (b > 0 ? b : 0) + 1;
  return 0;
}

void ndt__cudahost_launch(void *stream, int nop, unsigned always, const ndt_dk_launch *L,
                          unsigned *flags, void (*grid)(const ndt_dk_launch *, unsigned *)) {
  cudaStream_t q;
  cudaError_t e = launch_stream_of(stream, &q);
  if (e) {
    ret(e);
    return;
  }
  ndt_dk_launch *C = malloc(sizeof *C);
  if (!C) {
    ret(cudaErrorMemoryAllocation);
    return;
  }
  memcpy(C, L, offsetof(ndt_dk_launch, run) + (size_t)L->nrun * sizeof(ndt_dk_run));
  int fault = 0;
  long k_no = atomic_fetch_add(&n_kernel, 1) + 1;
  if (fail_kernel_at > 0 && k_no == fail_kernel_at) fault = 1;
  for (int r = 0; r < C->nrun && !fault; r++) {
    ndt_dk_run *u = &C->run[r];
    int empty = u->rows <= 0 || u->cols <= 0;
    for (int k = 0; k < nop && !fault; k++) {
      if (empty && !(always >> k & 1)) continue;
      if (!u->p[k]) continue;   /* an absent operand (a scan's total or start) */
      const char *lo, *hi;
      run_reaches(u, k, &lo, &hi);
      if (!in_launch(lo, (size_t)(hi - lo))) {
        fprintf(stderr, "cudahost: kernel launch %ld: run %d operand %d reaches [%p, %p), "
                "outside the device allocations: an illegal address\n", k_no, r, k,
                (const void *)lo, (const void *)hi);
        fault = 1;
        break;
      }
      u->p[k] = work_of(u->p[k]);
    }
  }
  if (flags && !fault) {
    if (!in_launch((const char *)flags, sizeof *flags)) {
      fprintf(stderr, "cudahost: kernel launch %ld: its flags word is not device memory\n", k_no);
      fault = 1;
    }
    flags = work_of(flags);
  }
  e = enqueue(q, (op){.kind = OP_KERNEL, .grid = grid, .L = C, .flags = flags, .fault = fault});
  if (e) {
    free(C);
    ret(e);
  }
}

/* The fused interpreter's launch (src/kernels/cuda/fused_impl.h): as
 * above, over its program's operands and its nflags flags words. */
static cudaError_t launch_fused(void *stream, const ndt_dk_flaunch *L, unsigned *flags,
                                int nflags, void (*grid)(const ndt_dk_flaunch *, unsigned *),
                                ndt_fg_body body) {
  cudaStream_t q;
  cudaError_t e = launch_stream_of(stream, &q);
  if (e) return e;
  ndt_dk_flaunch *C = malloc(sizeof *C);
  if (!C) return cudaErrorMemoryAllocation;
  memcpy(C, L, offsetof(ndt_dk_flaunch, run) + (size_t)L->nrun * sizeof(ndt_dk_frun));
  int fault = 0;
  atomic_fetch_add(&n_fused, 1);
  if (body) atomic_fetch_add(&n_fused_compiled, 1);
  long k_no = atomic_fetch_add(&n_kernel, 1) + 1;
  if (fail_kernel_at > 0 && k_no == fail_kernel_at) fault = 1;
  for (int r = 0; r < C->nrun && !fault; r++) {
    ndt_dk_frun *u = &C->run[r];
    if (u->rows <= 0 || u->cols <= 0) continue;
    for (int k = 0; k < C->prog.nop && !fault; k++) {
      int64_t a = u->rows > 1 ? (u->rows - 1) * u->rs[k] : 0;
      int64_t b = u->cols > 1 ? (u->cols - 1) * u->cs[k] : 0;
      const char *lo = u->p[k] + (a < 0 ? a : 0) + (b < 0 ? b : 0);
      const char *hi = u->p[k] + (a > 0 ? a : 0) + (b > 0 ? b : 0) + 1;
      if (!in_launch(lo, (size_t)(hi - lo))) {
        fprintf(stderr, "cudahost: kernel launch %ld: run %d operand %d reaches [%p, %p), "
                "outside the device allocations: an illegal address\n", k_no, r, k,
                (const void *)lo, (const void *)hi);
        fault = 1;
        break;
      }
      u->p[k] = work_of(u->p[k]);
    }
  }
  if (flags && !fault) {
    if (!in_launch((const char *)flags, (size_t)nflags * sizeof *flags)) {
      fprintf(stderr, "cudahost: kernel launch %ld: its flags words are not device memory\n",
              k_no);
      fault = 1;
    }
    flags = work_of(flags);
  }
  e = enqueue(q, (op){.kind = OP_KERNEL, .fgrid = grid, .FL = C, .fbody = body, .flags = flags,
                      .fault = fault});
  if (e) free(C);
  return e;
}

void ndt__cudahost_launch_fused(void *stream, const ndt_dk_flaunch *L, unsigned *flags,
                                int nflags, void (*grid)(const ndt_dk_flaunch *, unsigned *)) {
  ret(launch_fused(stream, L, flags, nflags, grid, NULL));
}

/* ---- libraries: a compiled fused kernel is a shared object (the emulated
 * NVRTC's "cubin", nvrtc_emu.c), loaded from memory with dlopen; its
 * kernel a function of one emulated thread (fused_gen.h) ---- */
struct CUlib_st {
  void *dl;
  int fd;   /* its memfd, open while it is loaded: dlopen knows a library by its
             * path, /proc/self/fd/N, which must not name another one */
  struct CUlib_st *next, **prev;   /* the loaded ones, as a driver keeps them (the
                                    * plugin keeps its libraries for the process's
                                    * life: reachable, not a leak) */
};
static struct CUlib_st *libs;
static pthread_mutex_t libs_m = PTHREAD_MUTEX_INITIALIZER;
struct CUkern_st {
  ndt_fg_body body;
};

/* an ELF image's length: its section headers come last (as a linker
 * writes a shared object; a cubin is an ELF image too) */
static size_t elf_size(const unsigned char *p) {
  if (memcmp(p, "\x7f" "ELF", 4) || p[4] != 2) return 0;   /* 64-bit */
  uint64_t shoff, phoff;
  uint16_t shentsize, shnum, phentsize, phnum;
  memcpy(&phoff, p + 32, 8);
  memcpy(&shoff, p + 40, 8);
  memcpy(&phentsize, p + 54, 2);
  memcpy(&phnum, p + 56, 2);
  memcpy(&shentsize, p + 58, 2);
  memcpy(&shnum, p + 60, 2);
  uint64_t a = shoff + (uint64_t)shentsize * shnum, b = phoff + (uint64_t)phentsize * phnum;
  return (size_t)(a > b ? a : b);
}

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                unsigned numJitOptions, enum cudaLibraryOption *libraryOptions,
                                void **libraryOptionValues, unsigned numLibraryOptions) {
  (void)jitOptions, (void)jitOptionsValues, (void)numJitOptions, (void)libraryOptions,
      (void)libraryOptionValues, (void)numLibraryOptions;
  size_t n = code ? elf_size(code) : 0;
  if (!n) return ret(cudaErrorInvalidValue);
  int fd = memfd_create("ndtile-cudahost-lib", MFD_CLOEXEC);
  if (fd < 0) return ret(cudaErrorInitializationError);
  int ok = write(fd, code, n) == (ssize_t)n;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  void *dl = ok ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
  struct CUlib_st *l = dl ? malloc(sizeof *l) : NULL;
  if (!l) {
    if (dl) dlclose(dl);
    close(fd);
    return ret(cudaErrorInvalidValue);   /* (CUDA: cudaErrorInvalidKernelImage) */
  }
  l->dl = dl;
  l->fd = fd;
  pthread_mutex_lock(&libs_m);
  l->next = libs;
  l->prev = &libs;
  if (libs) libs->prev = &l->next;
  libs = l;
  pthread_mutex_unlock(&libs_m);
  *library = l;
  return cudaSuccess;
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *kernel, cudaLibrary_t library, const char *name) {
  void *f = library ? dlsym(library->dl, name) : NULL;
  struct CUkern_st *k = f ? malloc(sizeof *k) : NULL;
  if (!k) return ret(cudaErrorInvalidValue);
  memcpy(&k->body, &f, sizeof f);
  *kernel = k;   /* (kept while the process lives, as the plugin keeps its libraries) */
  return cudaSuccess;
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library) {
  if (!library) return ret(cudaErrorInvalidResourceHandle);
  pthread_mutex_lock(&libs_m);
  *library->prev = library->next;
  if (library->next) library->next->prev = library->prev;
  pthread_mutex_unlock(&libs_m);
  dlclose(library->dl);
  close(library->fd);
  free(library);
  return cudaSuccess;
}

/* args: the launch (by value) and the flags words' pointer; its flags
 * words checked up to the highest its program records into */
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t sharedMem, cudaStream_t stream) {
  const struct CUkern_st *k = func;
  const ndt_dk_flaunch *L = args[0];
  unsigned *flags = *(unsigned **)args[1];
  if (!k || grid.y != (unsigned)L->nrun) return ret(cudaErrorInvalidValue);
  /* a GPU's limits (compute capability 9.0): grid x < 2^31, y and z <=
   * 65535, at most 1024 threads a block (z <= 64); dynamic shared memory
   * past 48 KiB needs cudaFuncSetAttribute, which the plugin never calls */
  if (grid.x < 1 || grid.y < 1 || grid.z < 1 || grid.x > 2147483647u || grid.y > 65535 ||
      grid.z > 65535 || block.x < 1 || block.y < 1 || block.z < 1 || block.x > 1024 ||
      block.y > 1024 || block.z > 64 || (size_t)block.x * block.y * block.z > 1024)
    return ret(cudaErrorInvalidConfiguration);
  if (sharedMem > 48 * 1024) return ret(cudaErrorInvalidValue);
  /* an injected refusal (NDTILE_CUDAHOST_FAIL=launchk:N): the Nth launch
   * of a compiled kernel fails as one asking for more than the device has
   * would, an error of the launch, not of the device (not sticky) */
  if (atomic_fetch_add(&n_launchk, 1) + 1 == fail_launchk_at)
    return ret(cudaErrorLaunchOutOfResources);
  int nflags = 1;
  for (int s = 0; s < L->prog.nstep; s++)
    if (L->prog.step[s].flag + 1 > nflags) nflags = L->prog.step[s].flag + 1;
  return ret(launch_fused(stream, L, flags, nflags, NULL, k->body));
}

/* The random fill's launch (src/kernels/cuda/rng_impl.h): as above, each
 * run's output (n contiguous elements of the call's dtype) checked. */
void ndt__cudahost_launch_rng(void *stream, const ndt_dk_rlaunch *L,
                              void (*grid)(const ndt_dk_rlaunch *)) {
  cudaStream_t q;
  cudaError_t e = launch_stream_of(stream, &q);
  if (e) {
    ret(e);
    return;
  }
  ndt_dk_rlaunch *C = malloc(sizeof *C);
  if (!C) {
    ret(cudaErrorMemoryAllocation);
    return;
  }
  memcpy(C, L, offsetof(ndt_dk_rlaunch, run) + (size_t)L->nrun * sizeof(ndt_dk_rrun));
  int fault = 0;
  atomic_fetch_add(&n_rng, 1);
  long k_no = atomic_fetch_add(&n_kernel, 1) + 1;
  if (fail_kernel_at > 0 && k_no == fail_kernel_at) fault = 1;
  for (int r = 0; r < C->nrun && !fault; r++) {
    ndt_dk_rrun *u = &C->run[r];
    if (u->n <= 0) continue;
    size_t bytes = (size_t)u->n * (size_t)ndt_dk_rng_isz(C->q.t);
    if (!in_launch(u->p, bytes)) {
      fprintf(stderr, "cudahost: kernel launch %ld: random run %d reaches [%p, %p), outside the "
              "device allocations: an illegal address\n", k_no, r, (const void *)u->p,
              (const void *)(u->p + bytes));
      fault = 1;
      break;
    }
    u->p = work_of(u->p);
  }
  e = enqueue(q, (op){.kind = OP_KERNEL, .rgrid = grid, .RL = C, .fault = fault});
  if (e) {
    free(C);
    ret(e);
  }
}

/* The advanced-index kernels' launch (src/kernels/cuda/index_impl.h): as
 * above, each pointer it holds checked over what the kernel may reach (the
 * block's output and index arrays, the put's indices and values, the
 * report word, every piece of the walked operand whole) and moved. */
static int index_ptr(long k_no, char **p, int nd, const int64_t *shape, const int64_t *st,
                     int64_t isz, const char *what) {
  int64_t a = 0, b = 0;
  for (int j = 0; j < nd; j++) {
    if (shape[j] <= 0) return 0;   /* empty: reaches nothing */
    int64_t d = (shape[j] - 1) * st[j];
    if (d < 0) a += d;
    else b += d;
  }
  const char *lo = *p + a, *hi = *p + b + isz;
  if (!in_launch(lo, (size_t)(hi - lo))) {
    fprintf(stderr, "cudahost: kernel launch %ld: its %s reaches [%p, %p), outside the device "
            "allocations: an illegal address\n", k_no, what, (const void *)lo, (const void *)hi);
    return 1;
  }
  *p = work_of(*p);
  return 0;
}

/* A launch of a kernel with a parameter block of its own (index_impl.h,
 * nz_impl.h): the block copied (its pointers are checked and moved in the
 * copy), the launch counted, an injected fault noted; NULL (the error
 * set) when it cannot be queued. */
static void *launch_copy(void *stream, const void *L, size_t size, cudaStream_t *q, long *k_no,
                         int *fault) {
  cudaError_t e = launch_stream_of(stream, q);
  void *C = e ? NULL : malloc(size);
  if (!C) {
    ret(e ? e : cudaErrorMemoryAllocation);
    return NULL;
  }
  memcpy(C, L, size);
  atomic_fetch_add(&n_index, 1);
  *k_no = atomic_fetch_add(&n_kernel, 1) + 1;
  *fault = fail_kernel_at > 0 && *k_no == fail_kernel_at;
  return C;
}

/* ... and queued on its stream, grid(C) running it there */
static void launch_queue(cudaStream_t q, void (*grid)(void *), void *C, int fault) {
  cudaError_t e = enqueue(q, (op){.kind = OP_KERNEL, .xgrid = grid, .XL = C, .fault = fault});
  if (e) {
    free(C);
    ret(e);
  }
}

/* A view copy reaches only the tiles it was handed: every element lies in
 * the piece the kernel picks for it (ndt_dk_piece_of). With gaps the
 * pieces are the tiles the task's binding pinned; the others of the
 * view's extent are no concern of the task (other tasks may be freeing or
 * moving their buffers), and a pointer to one is never handed over (each
 * piece handed is checked whole and live below). */
static int view_reach(long k_no, const ndt_dk_ilaunch *C) {
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t e = 0; e < C->n; e++) {
    int64_t f = C->aoff;
    for (int j = 0; j < C->nd; j++) f += idx[j] * C->ast[j];
    int t = ndt_dk_piece_of(C, f);
    if (t < 0 || t >= C->np || f < C->pstart[t] || f >= C->pstart[t] + C->plen[t]) {
      fprintf(stderr, "cudahost: kernel launch %ld: its view copy reaches store offset %lld, "
              "in no tile it was handed: an illegal address\n", k_no, (long long)f);
      return 1;
    }
    for (int j = C->nd - 1; j >= 0; j--) {
      if (++idx[j] < C->shape[j]) break;
      idx[j] = 0;
    }
  }
  return 0;
}

void ndt__cudahost_launch_index(void *stream, const ndt_dk_ilaunch *L, void (*grid)(void *)) {
  cudaStream_t q;
  long k_no;
  int fault;
  ndt_dk_ilaunch *C = launch_copy(stream, L, sizeof *L, &q, &k_no, &fault);
  if (!C) return;
  if (C->put == 2) {   /* a view copy: the buffer, n elements back to back */
    atomic_fetch_add(&n_view_copy, 1);
    int64_t n[1] = {C->n}, isz[1] = {C->isz};
    fault = fault || index_ptr(k_no, &C->out, 1, n, isz, C->isz, "buffer") || view_reach(k_no, C);
  } else if (C->put) {
    int64_t n[1] = {C->n}, is[1] = {C->is}, vs[1] = {C->vs};
    fault = fault || index_ptr(k_no, &C->idx[0], 1, n, is, 8, "indices") ||
            index_ptr(k_no, &C->vals, 1, n, vs, C->isz, "values");
    if (C->phase == 1 || C->phase == 2) {   /* the claims (index_impl.h) */
      int64_t nc[1] = {C->hi - C->lo}, eight[1] = {8};
      char *last = (char *)C->last;
      fault = fault || index_ptr(k_no, &last, 1, nc, eight, 8, "claims");
      C->last = (unsigned long long *)last;
    }
  } else {
    fault = fault || index_ptr(k_no, &C->out, C->nd, C->shape, C->ost, C->isz, "output");
    for (int k = 0; k < C->nk && !fault; k++)
      fault = index_ptr(k_no, &C->idx[k], C->nd, C->shape, C->ist[k],
                        ndt_dk_index_size(C->it[k]), "index array");
  }
  int64_t one = 1;
  for (int t = 0; t < C->np && !fault; t++) {
    int64_t len = C->plen[t];
    fault = index_ptr(k_no, &C->pptr[t], 1, &len, &C->es, 1, "walked piece");
  }
  char *rep = (char *)C->report;
  if (!fault && C->put != 2) fault = index_ptr(k_no, &rep, 1, &one, &one, 8, "report word");
  C->report = (unsigned long long *)rep;
  launch_queue(q, grid, C, fault);
}

/* argwhere's non-zero scan (nz_impl.h): the block read, the count word,
 * the chunks' counts and the rows written, each checked and moved */
void ndt__cudahost_launch_nz(void *stream, const ndt_dk_nzlaunch *L, void (*grid)(void *)) {
  cudaStream_t q;
  long k_no;
  int fault;
  ndt_dk_nzlaunch *C = launch_copy(stream, L, sizeof *L, &q, &k_no, &fault);
  if (!C) return;
  char *in = (char *)C->in;
  fault = fault || index_ptr(k_no, &in, C->nd, C->shape, C->st, C->isz, "input block");
  C->in = in;
  int64_t one = 1, eight = 8, nb = C->nb, rows[2] = {C->rows, C->nd}, rst[2] = {8 * C->nd, 8};
  if (C->mode == NDT_DK_NZ_COUNT) {
    char *c = (char *)C->count;
    fault = fault || index_ptr(k_no, &c, 1, &one, &one, 8, "count word");
    C->count = (unsigned long long *)c;
  } else {
    char *pp = (char *)C->part;
    fault = fault || index_ptr(k_no, &pp, 1, &nb, &eight, 8, "chunk counts");
    C->part = (int64_t *)pp;
  }
  if (C->mode == NDT_DK_NZ_FILL) {
    char *o = (char *)C->out;
    fault = fault || index_ptr(k_no, &o, 2, rows, rst, 8, "rows");
    C->out = (int64_t *)o;
  }
  launch_queue(q, grid, C, fault);
}

/* Another library's work (cudahost_ext.h: the emulated cuBLAS's gemm,
 * cuFFT's transforms, cuSOLVER's calls, the plugin's line copies) as a
 * kernel launch on
 * stream s: its device ranges checked and moved as above. */
static cudaError_t ext_launch(cudaStream_t s, int n, char **const *ptr, const size_t *bytes,
                              void (*fn)(void *), void *ctx, int tally, const char *what) {
  cudaStream_t q;
  cudaError_t e = launch_stream_of(s, &q);
  if (e) {
    free(ctx);
    return ret(e);
  }
  long k_no = atomic_fetch_add(&n_kernel, 1) + 1;
  if (tally == NDT_CUDAHOST_TALLY_GEMM) atomic_fetch_add(&n_gemm, 1);
  if (tally == NDT_CUDAHOST_TALLY_FFT) atomic_fetch_add(&n_fft, 1);
  if (tally == NDT_CUDAHOST_TALLY_SOLVER) atomic_fetch_add(&n_solver, 1);
  if (tally == NDT_CUDAHOST_TALLY_BATCHED) atomic_fetch_add(&n_batched, 1);
  int fault = fail_kernel_at > 0 && k_no == fail_kernel_at;
  for (int i = 0; i < n && !fault; i++) {
    if (!bytes[i]) continue;
    char *p = *ptr[i];
    if (dev_of_ptr(p) != q->dev || !in_live(p, bytes[i])) {
      fprintf(stderr, "cudahost: kernel launch %ld (%s): operand %d reaches [%p, %p), outside "
              "the device allocations: an illegal address\n", k_no, what, i, (const void *)p,
              (const void *)(p + bytes[i]));
      fault = 1;
      break;
    }
    *ptr[i] = work_of(p);
  }
  e = enqueue(q, (op){.kind = OP_KERNEL, .xgrid = fn, .XL = ctx, .fault = fault});
  if (e) {
    free(ctx);
    return ret(e);
  }
  return cudaSuccess;
}

/* A device pointer an ext launch's fn read from device memory, on the
 * stream's thread (cudahost_ext.h's reach): checked as a launch's operand
 * is, and moved; outside the device's allocations (a host pointer, another
 * device's, freed memory) it faults the device as a kernel would. */
static int ext_reach(cudaStream_t s, char **p, size_t bytes, const char *what) {
  if (!bytes) return 0;
  cdev *d = s ? s->dev : NULL;
  if (d && dev_of_ptr(*p) == d && in_live(*p, bytes)) {
    *p = work_of(*p);
    return 0;
  }
  fprintf(stderr, "cudahost: %s reaches [%p, %p), outside the device allocations: an illegal "
          "address\n", what, (const void *)*p, (const void *)(*p + bytes));
  if (d) dev_fault(d, cudaErrorIllegalAddress);
  return -1;
}

static const ndt_cudahost_ext ext_table = {.version = NDT_CUDAHOST_EXT_VERSION,
                                           .launch = ext_launch, .reach = ext_reach};

/* The integer products' launch (src/kernels/cuda/gemm_impl.h): as the
 * others, each run's a, b and c checked over what they reach and moved. */
void ndt__cudahost_launch_gemm(void *stream, const ndt_dk_glaunch *L, void (*grid)(void *)) {
  cudaStream_t q;
  cudaError_t e = launch_stream_of(stream, &q);
  if (e) {
    ret(e);
    return;
  }
  ndt_dk_glaunch *C = malloc(sizeof *C);
  if (!C) {
    ret(cudaErrorMemoryAllocation);
    return;
  }
  memcpy(C, L, sizeof *C);
  long k_no = atomic_fetch_add(&n_kernel, 1) + 1;
  atomic_fetch_add(&n_gemm, 1);
  int fault = fail_kernel_at > 0 && k_no == fail_kernel_at;
  int64_t isz = C->t ? C->t : 1;
  for (int r = 0; r < C->nrun && !fault; r++) {
    ndt_dk_grun *u = &C->run[r];
    if (u->R <= 0 || u->C <= 0) continue;
    int64_t sa[2] = {u->R, u->K}, sb[2] = {u->K, u->C}, sc[2] = {u->R, u->C};
    int64_t ta[2] = {u->ars, u->acs}, tb[2] = {u->brs, u->bcs}, tc[2] = {u->crs, u->ccs};
    if (u->K > 0)
      fault = index_ptr(k_no, &u->a, 2, sa, ta, isz, "product's a") ||
              index_ptr(k_no, &u->b, 2, sb, tb, isz, "product's b");
    if (!fault) fault = index_ptr(k_no, &u->c, 2, sc, tc, isz, "product's c");
  }
  e = enqueue(q, (op){.kind = OP_KERNEL, .xgrid = grid, .XL = C, .fault = fault});
  if (e) {
    free(C);
    ret(e);
  }
}
