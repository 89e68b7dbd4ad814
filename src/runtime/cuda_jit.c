/* cuda_jit.c - the CUDA plugin's second tier for fused groups: a program
 * of the interpreter (src/kernels/cuda/fused_impl.h) that recurs is
 * compiled into a kernel of its own, in the background, and later
 * launches of it use that kernel.
 *
 * Policy. Every group runs the interpreter: nothing ever waits for a
 * compiler. ndt__fjit_kernel counts the times a program starts a batch
 * (fused_run, cuda.c); the NDTILE_CUDA_JIT-th time (3 by default; 0: never)
 * its compile is queued for the compile thread (one, started on first use)
 * and the interpreter goes on; once the kernel is loaded, the next batch
 * of that program launches it. The compiled kernel calls the interpreter's
 * scalar functions in its order (fused_gen.c), so a result has the same
 * bits whichever tier ran it, and when the compile finishes changes
 * nothing but speed. (NDTILE_CUDA_JIT_WAIT=1, for tests only, makes the
 * batch that queues a compile wait for it, so that a short run shows the
 * compiled path.)
 *
 * Compile and cache. The source (ndt__fgen_source) and its key (hash of
 * the source, the headers, the generator's version and the target: the
 * arch, NVRTC's version, the driver's, and whether it is the host build's
 * emulation); the binary is looked for in the cache directory (NDTILE_CACHE_DIR, else
 * $XDG_CACHE_HOME/ndtile, else ~/.cache/ndtile: file fused-<key>.bin, a
 * small header with the key, length and a checksum, then the cubin). A
 * file that is missing, short, of another key or whose checksum fails, or
 * that the runtime refuses to load, is ignored, and the kernel compiled
 * and the file rewritten (a temporary file renamed over it, so a reader
 * sees a whole file or none). NVRTC is opened with dlopen at the first
 * compile, before the cache is looked at: a cubin is only as good as the
 * compiler that made it (a newer NVRTC may generate other code for the
 * same source, and a file left by an older toolkit must not be taken for
 * its own), so its version is in the key, and the driver's with it (a
 * driver update recompiles each kernel once, in the background). Without
 * NVRTC (or when it fails), programs stay on the interpreter, the cache
 * unused, and NDTILE_VERBOSE=1 says why. The cubin is loaded with the
 * runtime API's library calls (cudaLibraryLoadData, cudaLibraryGetKernel;
 * CUDA 12+), launched with cudaLaunchKernel.
 *
 * In the host build (tests/cudahost) the same code runs against the
 * emulated runtime: its NVRTC compiles the source as C into a shared
 * object (the "cubin") and its cudaLibraryLoadData loads that. */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/cuda_jit.h"
#include "runtime/fused_gen.h"

enum { F_NEW, F_QUEUED, F_READY, F_FAILED };

typedef struct fent {
  struct fent *next, *qnext;
  uint64_t h;
  ndt_dk_fprog P;
  int seen;
  _Atomic int state;
  cudaKernel_t k;
} fent;

#define NBUCKET 256
static struct {
  const ndt_plugin_host *host;
  int arch, dev, threshold, wait;
  _Atomic int off;               /* no compiles any more (no NVRTC) */
  pthread_mutex_t m;
  pthread_cond_t work, done;
  fent *bucket[NBUCKET];
  fent *qhead, *qtail;
  int started;
  ndt_nvrtc nv;
  int nv_state;                  /* 0: not opened yet, 1: open, -1: none */
  ndt_fgen_target tgt;           /* (set when NVRTC opens) */
} J = {.m = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
       .done = PTHREAD_COND_INITIALIZER};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  J.host->verbose(line);
}

/* the plugin's own settings (plain integers; the core's table does not
 * know them) */
static int env_int(const char *name, int dflt) {
  const char *v = getenv(name);
  char *end;
  long x = v && *v ? strtol(v, &end, 10) : 0;
  return v && *v && !*end && x >= 0 && x < (1L << 30) ? (int)x : dflt;
}

void ndt__fjit_start(const ndt_plugin_host *h, int dev, int arch) {
  J.host = h;
  J.dev = dev;
  J.arch = arch;
  J.threshold = env_int("NDTILE_CUDA_JIT", 3);
  J.wait = env_int("NDTILE_CUDA_JIT_WAIT", 0);
  if (J.threshold <= 0) atomic_store(&J.off, 1);
  if (arch <= 0) {
    say("fused kernels: devices of different compute capabilities; fused groups run on the "
        "interpreter only");
    atomic_store(&J.off, 1);
  }
}

/* the program's bytes that mean something (the steps it has) */
static size_t prog_bytes(const ndt_dk_fprog *P) {
  return offsetof(ndt_dk_fprog, step) + (size_t)P->nstep * sizeof(ndt_dk_fstep);
}

/* ---- the cache ---- */
#define MAGIC "NDTFK001"
typedef struct {
  char magic[8];
  uint64_t key, len, sum;
} chead;

static int cache_dir(char *out, size_t cap) {
  const char *d = getenv("NDTILE_CACHE_DIR");
  if (d && *d) return snprintf(out, cap, "%s", d) < (int)cap ? 0 : -1;
  d = getenv("XDG_CACHE_HOME");
  if (d && *d) return snprintf(out, cap, "%s/ndtile", d) < (int)cap ? 0 : -1;
  d = getenv("HOME");
  if (d && *d) return snprintf(out, cap, "%s/.cache/ndtile", d) < (int)cap ? 0 : -1;
  return -1;
}

/* mkdir -p */
static int make_dirs(const char *path) {
  char p[1024];
  if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) return -1;
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(p, 0755) && errno != EEXIST) return -1;
    *s = '/';
  }
  return mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
}

/* the cubin of key from path (malloc'ed), or NULL: missing, or (*bad
 * set) not whole */
static void *cache_read(const char *path, uint64_t key, size_t *len, int *bad) {
  FILE *f = fopen(path, "rb");
  *bad = 0;
  if (!f) return NULL;
  chead hd;
  void *bin = NULL;
  if (fread(&hd, sizeof hd, 1, f) == 1 && !memcmp(hd.magic, MAGIC, 8) && hd.key == key &&
      hd.len > 0 && hd.len < ((uint64_t)1 << 30) && (bin = malloc(hd.len))) {
    if (fread(bin, 1, hd.len, f) != hd.len || fgetc(f) != EOF ||
        ndt__fgen_hash(bin, hd.len, NDT_FGEN_HASH0) != hd.sum) {
      free(bin);
      bin = NULL;
    }
  }
  fclose(f);
  if (bin) *len = hd.len;
  else *bad = 1;
  return bin;
}

static void cache_write(const char *dir, const char *path, uint64_t key, const void *bin,
                        size_t len) {
  if (make_dirs(dir)) {
    say("fused kernels: cannot make the cache directory %s (%s)", dir, strerror(errno));
    return;
  }
  char tmp[1200];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  chead hd = {.key = key, .len = len, .sum = ndt__fgen_hash(bin, len, NDT_FGEN_HASH0)};
  memcpy(hd.magic, MAGIC, 8);
  int ok = f && fwrite(&hd, sizeof hd, 1, f) == 1 && fwrite(bin, 1, len, f) == len;
  if (f && fclose(f)) ok = 0;
  if (!ok || rename(tmp, path)) {
    say("fused kernels: cannot write %s (%s)", path, strerror(errno));
    unlink(tmp);
  }
}

static cudaKernel_t load(const void *bin) {
  cudaLibrary_t lib;
  cudaKernel_t k;
  if (cudaLibraryLoadData(&lib, bin, NULL, NULL, 0, NULL, NULL, 0) != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  if (cudaLibraryGetKernel(&k, lib, "ndt_fused") != cudaSuccess) {
    cudaGetLastError();
    cudaLibraryUnload(lib);
    return NULL;
  }
  return k;   /* (the library stays loaded while the process lives) */
}

/* ---- the compile thread ---- */
static int nvrtc_ready(void) {
  if (J.nv_state) return J.nv_state > 0;
  char why[512] = "";
#if defined(NDT_CUDAHOST)
  int rc = ndt__cudahost_nvrtc_open(&J.nv, why, sizeof why);
#else
  int rc = ndt__nvrtc_open(&J.nv, why, sizeof why);
#endif
  int major = 0, minor = 0, driver = 0;
  if (!rc && J.nv.version(&major, &minor)) {
    snprintf(why, sizeof why, "nvrtcVersion failed");
    rc = -1;
  }
  if (!rc && cudaDriverGetVersion(&driver) != cudaSuccess) {
    cudaGetLastError();
    snprintf(why, sizeof why, "cudaDriverGetVersion failed");
    rc = -1;
  }
  J.tgt = (ndt_fgen_target){.arch = J.arch, .nvrtc = major * 1000 + minor * 10,
                            .driver = driver};
#if defined(NDT_CUDAHOST)
  J.tgt.emulated = 1;
#endif
  J.nv_state = rc ? -1 : 1;
  if (rc) say("fused kernels: %s; fused groups run on the interpreter only", why);
  else say("fused kernels: NVRTC %d.%d, driver %d, sm_%d", major, minor, driver, J.arch);
  return !rc;
}

static cudaKernel_t build(const fent *e) {
  enum { CAP = 1 << 16 };
  char *src = malloc(CAP);
  if (!src) return NULL;
  if (ndt__fgen_source(&e->P, "ndt_fused", src, CAP) < 0) {
    say("fused kernels: no source for a program of %d steps; it stays on the interpreter",
        e->P.nstep);
    free(src);
    return NULL;
  }
  if (!nvrtc_ready()) {   /* (no compiler: no key either) */
    atomic_store(&J.off, 1);
    free(src);
    return NULL;
  }
  uint64_t key = ndt__fgen_key(src, &J.tgt);
  char dir[1024], path[1100];
  int cached = !cache_dir(dir, sizeof dir);
  if (cached) snprintf(path, sizeof path, "%s/fused-%016llx.bin", dir, (unsigned long long)key);
  size_t len = 0;
  int bad = 0;
  void *bin = cached ? cache_read(path, key, &len, &bad) : NULL;
  cudaKernel_t k = bin ? load(bin) : NULL;
  if (k) {
#if defined(NDT_CUDAHOST)
    ndt__cudahost_count_cache_hit();
#endif
    say("fused kernels: %016llx loaded from %s", (unsigned long long)key, path);
  } else {
    if (bin || bad) say("fused kernels: %s is unusable; compiling again", path);
    free(bin);
    bin = NULL;
    char log[2048];
    if (ndt__fgen_compile(&J.nv, src, J.arch, &bin, &len, log, sizeof log)) {
      say("fused kernels: NVRTC failed on %016llx for sm_%d; the program stays on the "
          "interpreter: %s", (unsigned long long)key, J.arch, log);
    } else if (!(k = load(bin))) {
      say("fused kernels: the runtime did not load %016llx", (unsigned long long)key);
    } else {
      say("fused kernels: %016llx compiled for sm_%d (%zu bytes)", (unsigned long long)key,
          J.arch, len);
      if (cached) cache_write(dir, path, key, bin, len);
    }
  }
  free(bin);
  free(src);
  return k;
}

static void *compile_main(void *arg) {
  (void)arg;
  cudaSetDevice(J.dev);
  pthread_mutex_lock(&J.m);
  for (;;) {
    while (!J.qhead) pthread_cond_wait(&J.work, &J.m);
    fent *e = J.qhead;
    J.qhead = e->qnext;
    if (!J.qhead) J.qtail = NULL;
    pthread_mutex_unlock(&J.m);
    cudaKernel_t k = atomic_load(&J.off) ? NULL : build(e);
    pthread_mutex_lock(&J.m);
    e->k = k;
    atomic_store_explicit(&e->state, k ? F_READY : F_FAILED, memory_order_release);
    pthread_cond_broadcast(&J.done);
  }
  return NULL;
}

/* ---- the policy ---- */
cudaKernel_t ndt__fjit_kernel(const ndt_dk_fprog *P) {
  if (!J.host || atomic_load(&J.off)) return NULL;
  size_t nb = prog_bytes(P);
  uint64_t h = ndt__fgen_hash(P, nb, NDT_FGEN_HASH0);
  pthread_mutex_lock(&J.m);
  fent **at = &J.bucket[h % NBUCKET], *e = *at;
  while (e && (e->h != h || memcmp(&e->P, P, nb))) e = e->next;
  if (!e && (e = calloc(1, sizeof *e))) {
    e->h = h;
    memcpy(&e->P, P, nb);
    e->next = *at;
    *at = e;
  }
  cudaKernel_t k = NULL;
  if (e && atomic_load_explicit(&e->state, memory_order_acquire) == F_READY) {
    k = e->k;
  } else if (e && ++e->seen >= J.threshold && e->state == F_NEW) {
    if (!J.started) {
      pthread_t th;
      pthread_attr_t a;
      pthread_attr_init(&a);
      pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
      J.started = !pthread_create(&th, &a, compile_main, NULL) ? 1 : -1;
      pthread_attr_destroy(&a);
      if (J.started < 0) {
        say("fused kernels: no compile thread; fused groups run on the interpreter only");
        atomic_store(&J.off, 1);
      }
    }
    if (J.started > 0) {
      atomic_store(&e->state, F_QUEUED);
      if (J.qtail) J.qtail->qnext = e;
      else J.qhead = e;
      J.qtail = e;
      pthread_cond_signal(&J.work);
    }
  }
  /* (tests: every batch of a queued program waits, on any device) */
  if (e && !k && J.wait) {
    while (atomic_load(&e->state) == F_QUEUED) pthread_cond_wait(&J.done, &J.m);
    if (atomic_load(&e->state) == F_READY) k = e->k;
  }
  pthread_mutex_unlock(&J.m);
  return k;
}

void ndt__fjit_refused(const ndt_dk_fprog *P, cudaError_t e) {
  size_t nb = prog_bytes(P);
  uint64_t h = ndt__fgen_hash(P, nb, NDT_FGEN_HASH0);
  pthread_mutex_lock(&J.m);
  fent *f = J.bucket[h % NBUCKET];
  while (f && (f->h != h || memcmp(&f->P, P, nb))) f = f->next;
  int first = f && atomic_load(&f->state) == F_READY;
  if (f) {
    atomic_store(&f->state, F_FAILED);
    f->k = NULL;
  }
  pthread_mutex_unlock(&J.m);
  if (first)
    say("fused kernels: the device refused to launch the compiled kernel of a program of %d "
        "steps (%s); the program stays on the interpreter", P->nstep, cudaGetErrorName(e));
}

int ndt__fjit_launch(cudaKernel_t k, const ndt_dk_flaunch *L, unsigned *flags, void *stream) {
  int64_t m = 0;
  for (int r = 0; r < L->nrun; r++)
    if (L->run[r].rows * L->run[r].cols > m) m = L->run[r].rows * L->run[r].cols;
  /* the interpreter's grid (fused_impl.h): 4 elements a thread, at most
   * 1024 blocks across, a block row per run */
  int64_t b = (m + 4 * 256 - 1) / (4 * 256);
  dim3 grid = {(unsigned)(b < 1 ? 1 : b > 1024 ? 1024 : b), (unsigned)L->nrun, 1};
  dim3 block = {256, 1, 1};
  void *args[2] = {(void *)L, &flags};
  if (L->nrun <= 0) return 0;
  return cudaLaunchKernel((const void *)k, grid, block, args, 0, (cudaStream_t)stream) ==
                 cudaSuccess ? 0 : -1;
}
