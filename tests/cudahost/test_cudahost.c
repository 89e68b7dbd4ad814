/* test_cudahost.c - the host emulation of the CUDA runtime keeps what it
 * promises (cuda_runtime_api.h), so that a plugin bug it should show does
 * show: an async copy read before its stream is synchronised is stale, a
 * host access through a device pointer faults, the capacity holds (and a
 * failed allocation is not sticky), fresh device memory is poisoned, a
 * launch copies its parameters, a copy of the wrong kind or past its
 * allocation is an error, events order streams, a kernel that reaches
 * outside the allocations faults, stickily, on its device only, and so
 * does a view copy that reaches a tile it was not handed. A GPU's launch
 * rules: a launch into another device's stream than the thread's current
 * one is refused, a kernel operand on another device faults, a compiled
 * kernel's grid and block past a GPU's limits are refused; the default
 * pool's release threshold is kept. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>
#include "cuda_runtime_api.h"
#include "kernels/cuda/dk.h"
#include "kernels/cuda/index_impl.h"
#include "kernels/cuda/fused_types.h"

void ndt__cudahost_launch(void *stream, int nop, unsigned always, const ndt_dk_launch *L,
                          unsigned *flags, void (*grid)(const ndt_dk_launch *, unsigned *));
void ndt__cudahost_launch_index(void *stream, const ndt_dk_ilaunch *L, void (*grid)(void *));
static void no_grid(void *p) { (void)p; }   /* (the launch check is what is tested) */
static char *tile_of_1;   /* device 1's memory (the last check) */

#include "../c/check.h"   /* EXPECT, passed, failed */

/* a gate a stream waits on (cudaLaunchHostFunc): held until opened */
static pthread_mutex_t gm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gc = PTHREAD_COND_INITIALIZER;
static int gate_open;
static void gate(void *arg) {
  (void)arg;
  pthread_mutex_lock(&gm);
  while (!gate_open) pthread_cond_wait(&gc, &gm);
  pthread_mutex_unlock(&gm);
}
static void open_gate(void) {
  pthread_mutex_lock(&gm);
  gate_open = 1;
  pthread_cond_broadcast(&gc);
  pthread_mutex_unlock(&gm);
}

/* a kernel: out[i] = in[i] + 1 over run 0 (int32) */
static void add1(const ndt_dk_launch *L, unsigned *flags) {
  (void)flags;
  const ndt_dk_run *r = &L->run[0];
  for (int64_t i = 0; i < r->cols; i++)
    *(int *)(r->p[1] + i * r->cs[1]) = *(const int *)(r->p[0] + i * r->cs[0]) + 1;
}

int main(void) {
  int n = 0;
  setenv("NDTILE_CUDAHOST_DEVICES", "3", 1);   /* (the third one fresh for the last check) */
  EXPECT(cudaGetDeviceCount(&n) == cudaSuccess && n == 3, "three devices (%d)", n);
  struct cudaDeviceProp prop;
  EXPECT(cudaGetDeviceProperties(&prop, 0) == cudaSuccess && prop.totalGlobalMem == (size_t)1 << 20,
         "1 MiB each (NDTILE_CUDAHOST_MEM)");
  EXPECT(cudaSetDevice(0) == cudaSuccess, "device 0");
  /* device flags: one scheduling mode, nothing else */
  EXPECT(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) == cudaSuccess &&
             cudaSetDeviceFlags(cudaDeviceScheduleSpin) == cudaSuccess &&
             cudaSetDeviceFlags(cudaDeviceScheduleAuto) == cudaSuccess,
         "scheduling flags");
  EXPECT(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield) ==
                 cudaErrorInvalidValue &&
             cudaGetLastError() == cudaErrorInvalidValue &&
             cudaSetDeviceFlags(0x100) == cudaErrorInvalidValue && cudaGetLastError(),
         "two scheduling modes, an unknown flag: refused");
  cudaStream_t s, t;
  EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess &&
             cudaStreamCreate(&t) == cudaSuccess, "streams");

  /* fresh memory is 0xFF */
  int *d = NULL, h[256];
  EXPECT(cudaMallocAsync((void **)&d, sizeof h, s) == cudaSuccess, "an allocation");
  EXPECT(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess && h[7] == -1,
         "fresh device memory is poisoned (0xFF)");

  /* an async copy is stale until its stream is synchronised */
  int src[256], dst[256];
  for (int i = 0; i < 256; i++) src[i] = i, dst[i] = -7;
  EXPECT(cudaMemcpyAsync(d, src, sizeof src, cudaMemcpyHostToDevice, s) == cudaSuccess, "h2d");
  EXPECT(cudaLaunchHostFunc(s, gate, NULL) == cudaSuccess, "a held step");
  EXPECT(cudaMemcpyAsync(dst, d, sizeof dst, cudaMemcpyDeviceToHost, s) == cudaSuccess, "d2h");
  usleep(20000);
  EXPECT(dst[5] == -7 && cudaStreamQuery(s) == cudaErrorNotReady,
         "read before the synchronisation: stale");
  open_gate();
  EXPECT(cudaStreamSynchronize(s) == cudaSuccess && dst[5] == 5, "after it: the copy");

  /* events order one stream after another */
  cudaEvent_t ev;
  gate_open = 0;
  EXPECT(cudaEventCreate(&ev) == cudaSuccess, "an event");
  cudaLaunchHostFunc(s, gate, NULL);
  int one[256];
  for (int i = 0; i < 256; i++) one[i] = 1;
  cudaMemcpyAsync(d, one, sizeof one, cudaMemcpyHostToDevice, s);
  cudaEventRecord(ev, s);
  cudaStreamWaitEvent(t, ev, 0);
  cudaMemcpyAsync(dst, d, sizeof dst, cudaMemcpyDeviceToHost, t);
  usleep(20000);
  EXPECT(cudaEventQuery(ev) == cudaErrorNotReady && dst[9] == 9, "t waits for s's event");
  open_gate();
  EXPECT(cudaStreamSynchronize(t) == cudaSuccess && dst[9] == 1, "then copies s's bytes");
  EXPECT(cudaEventSynchronize(ev) == cudaSuccess && cudaEventQuery(ev) == cudaSuccess,
         "the event is done");
  cudaEventDestroy(ev);

  /* a kernel launch copies its parameters and runs on the stream */
  int *e = NULL;
  cudaMallocAsync((void **)&e, sizeof h, s);
  ndt_dk_launch L = {.nrun = 1};
  L.run[0] = (ndt_dk_run){.rows = 1, .cols = 256, .p = {(char *)d, (char *)e}, .cs = {4, 4}};
  ndt__cudahost_launch(s, 2, 0, &L, NULL, add1);
  L.run[0].cols = 0;   /* (the launch was copied) */
  cudaMemcpyAsync(dst, e, sizeof dst, cudaMemcpyDeviceToHost, s);
  EXPECT(cudaStreamSynchronize(s) == cudaSuccess && dst[100] == 2 && cudaGetLastError() == cudaSuccess,
         "a kernel: %d", dst[100]);

  /* cudaSetDevice is per host thread: a launch into device 0's stream
   * from a thread whose current device is 1 is refused (not sticky) */
  EXPECT(cudaSetDevice(1) == cudaSuccess, "device 1 current");
  ndt__cudahost_launch(s, 2, 0, &L, NULL, add1);
  EXPECT(cudaGetLastError() == cudaErrorInvalidResourceHandle,
         "a launch into another device's stream is refused");
  EXPECT(cudaSetDevice(0) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess,
         "not sticky");

  /* a compiled kernel's launch past a GPU's grid and block limits is
   * refused before it is queued */
  {
    static ndt_dk_flaunch F;
    unsigned *fw = NULL;
    void *args[2] = {&F, &fw};
    F.nrun = 1;
    const void *k = &F;   /* (any handle: refused before it is used) */
    EXPECT(cudaLaunchKernel(k, (dim3){1, 1, 1}, (dim3){2048, 1, 1}, args, 0, s) ==
               cudaErrorInvalidConfiguration &&
               cudaLaunchKernel(k, (dim3){0, 1, 1}, (dim3){256, 1, 1}, args, 0, s) ==
               cudaErrorInvalidConfiguration &&
               cudaLaunchKernel(k, (dim3){1, 1, 1}, (dim3){256, 1, 1}, args, 64 << 10, s) ==
               cudaErrorInvalidValue,
           "a launch past the limits (1024 threads a block, a block at least, 48 KiB of "
           "dynamic shared memory)");
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue && cudaStreamSynchronize(s) == cudaSuccess,
           "not sticky");
  }

  /* the default pool's release threshold */
  {
    cudaMemPool_t pool;
    unsigned long long keep = 12345, got = 0;
    EXPECT(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess &&
               cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) ==
                   cudaSuccess &&
               cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got) ==
                   cudaSuccess && got == keep,
           "the release threshold kept");
  }

  /* a free, and a second one */
  cudaFreeAsync(e, s);
  cudaStreamSynchronize(s);
  EXPECT(cudaFreeAsync(e, s) == cudaErrorInvalidValue && cudaGetLastError() == cudaErrorInvalidValue,
         "a second free is an error, recorded for cudaGetLastError");

  /* the wrong kind of copy */
  EXPECT(cudaMemcpy(dst, src, 16, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue &&
             cudaMemcpy(d, src, 2048, cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
         "a copy of the wrong kind, or past the allocation");
  cudaGetLastError();

  /* the capacity: 1 MiB; a failed allocation is not sticky */
  void *big = NULL, *big2 = NULL;
  EXPECT(cudaMalloc(&big, 900 << 10) == cudaSuccess, "900 KiB");
  EXPECT(cudaMalloc(&big2, 200 << 10) == cudaErrorMemoryAllocation, "200 KiB more: out of memory");
  EXPECT(cudaGetLastError() == cudaErrorMemoryAllocation && cudaGetLastError() == cudaSuccess &&
             cudaMalloc(&big2, 10 << 10) == cudaSuccess, "not sticky");
  size_t fr = 0, tot = 0;
  EXPECT(cudaMemGetInfo(&fr, &tot) == cudaSuccess && tot == (size_t)1 << 20 &&
             fr == tot - (900 << 10) - (10 << 10) - sizeof h,
         "cudaMemGetInfo");
  cudaFree(big);
  cudaFree(big2);

  /* page-locked host memory: CUDA's rules, and copies counted as pinned
   * or pageable (what the plugin's pinned copies are tested by) */
  {
    long c0[9], c1[9];
    size_t pn = (size_t)256 << 10;
    char *hb = mmap(NULL, pn, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    void *dd = NULL;
    cudaSetDevice(0);
    cudaMalloc(&dd, 4096);
    ndt__cudahost_pin_counts(c0);
    cudaMemcpy(dd, hb, 4096, cudaMemcpyHostToDevice);   /* pageable */
    EXPECT(cudaHostRegister(hb, pn, cudaHostRegisterPortable) == cudaSuccess, "a registration");
    EXPECT(cudaHostRegister(hb + 8192, 4096, 0) == cudaErrorHostMemoryAlreadyRegistered &&
               cudaGetLastError() == cudaErrorHostMemoryAlreadyRegistered,
           "an overlapping range registered twice: an error");
    cudaMemcpy(dd, hb + 4096, 4096, cudaMemcpyHostToDevice);   /* pinned */
    cudaMemcpy(hb, dd, 4096, cudaMemcpyDeviceToHost);          /* pinned */
    EXPECT(cudaHostUnregister(hb + 4096) == cudaErrorHostMemoryNotRegistered &&
               cudaGetLastError() == cudaErrorHostMemoryNotRegistered,
           "an unregister of no registered range's start: an error");
    EXPECT(cudaHostUnregister(hb) == cudaSuccess, "an unregister");
    EXPECT(cudaHostUnregister(hb) == cudaErrorHostMemoryNotRegistered, "a second: an error");
    cudaGetLastError();
    void *ph = NULL;
    EXPECT(cudaMallocHost(&ph, 8192) == cudaSuccess && ph, "cudaMallocHost");
    cudaMemcpy(ph, dd, 4096, cudaMemcpyDeviceToHost);   /* pinned */
    EXPECT(cudaFreeHost(hb) == cudaErrorInvalidValue && cudaFreeHost(ph) == cudaSuccess,
           "cudaFreeHost frees what cudaMallocHost gave only");
    cudaGetLastError();
    /* registered memory unmapped before its unregister is found */
    EXPECT(cudaHostRegister(hb, pn, 0) == cudaSuccess, "registered again");
    munmap(hb, pn);
    ndt__cudahost_pin_counts(c1);
    EXPECT(c1[0] - c0[0] == 2 && c1[1] - c0[1] == 1 && c1[2] - c0[2] == 1 && c1[3] - c0[3] == 3 &&
               c1[4] - c0[4] == 1 && c1[5] - c0[5] == 1 && c1[6] - c0[6] == 1,
           "counts: %ld registrations, %ld unregistered, %ld refused, %ld pinned copies, "
           "%ld pageable, %ld lost, %ld allocations", c1[0] - c0[0], c1[1] - c0[1],
           c1[2] - c0[2], c1[3] - c0[3], c1[4] - c0[4], c1[5] - c0[5], c1[6] - c0[6]);
    cudaFree(dd);
  }

  /* a host access through a device pointer faults (in a child) */
  pid_t pid = fork();
  if (pid == 0) {
    /* the default action, not a sanitizer's handler (which exits with 1) */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGSEGV, &dfl, NULL);
    volatile int x = *(volatile int *)d;
    (void)x;
    _exit(0);
  }
  int wst = 0;
  waitpid(pid, &wst, 0);
  EXPECT(WIFSIGNALED(wst) && WTERMSIG(wst) == SIGSEGV, "a host read of device memory faults");

  /* a kernel reaching outside the allocations faults, stickily, on its
   * device only */
  L.run[0] = (ndt_dk_run){.rows = 1, .cols = 300, .p = {(char *)d, (char *)d}, .cs = {4, 4}};
  ndt__cudahost_launch(s, 2, 0, &L, NULL, add1);
  EXPECT(cudaStreamSynchronize(s) == cudaErrorIllegalAddress, "an illegal address");
  EXPECT(cudaMemcpy(dst, d, 16, cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress &&
             cudaGetLastError() == cudaErrorIllegalAddress && cudaMallocAsync(&big, 16, s) ==
             cudaErrorIllegalAddress, "sticky: every later call on the device");
  EXPECT(cudaSetDevice(1) == cudaSuccess && cudaMalloc(&big, 16) == cudaSuccess,
         "device 1 goes on");

  /* a view copy with gaps (cuda.c: the pieces of the tiles its task
   * pinned alone): two rows of 8 float64, in tiles 0 and 2 of 64 elements
   * each; handed both tiles it runs, handed tile 0 alone it faults (tile 1,
   * which no element reaches, is never handed) */
  {
    cudaStream_t q;
    char *tile[3], *buf;
    EXPECT(cudaStreamCreateWithFlags(&q, cudaStreamNonBlocking) == cudaSuccess, "a stream");
    for (int i = 0; i < 3; i++) cudaMalloc((void **)&tile[i], 64 * 8);
    tile_of_1 = tile[1];
    cudaMalloc((void **)&buf, 16 * 8);
    static ndt_dk_ilaunch V;
    memset(&V, 0, sizeof V);
    V.put = 2;
    V.nd = 2;
    V.isz = V.es = 8;
    V.n = 16;
    V.aoff = 10;
    V.shape[0] = 2;
    V.shape[1] = 8;
    V.ast[0] = 128;
    V.ast[1] = 1;
    V.period = V.seg = 64;
    V.per = 1;
    V.out = buf;
    V.gaps = 1;
    V.np = 2;
    V.pptr[0] = tile[0];
    V.pptr[1] = tile[2];
    V.pstart[1] = 128;
    V.plen[0] = V.plen[1] = 64;
    ndt__cudahost_launch_index(q, &V, no_grid);
    EXPECT(cudaStreamSynchronize(q) == cudaSuccess, "a view copy over the tiles it was handed");
    V.np = 1;
    ndt__cudahost_launch_index(q, &V, no_grid);
    EXPECT(cudaStreamSynchronize(q) == cudaErrorIllegalAddress,
           "a view copy that reaches a tile it was not handed: an illegal address");
  }
  /* a kernel reaches its own device's memory only (no peer access): an
   * operand on device 1 in a launch on device 2 is an illegal address */
  {
    cudaStream_t r;
    int *x = NULL;
    EXPECT(cudaSetDevice(2) == cudaSuccess &&
               cudaStreamCreateWithFlags(&r, cudaStreamNonBlocking) == cudaSuccess &&
               cudaMalloc((void **)&x, 64) == cudaSuccess,
           "device 2");
    L.run[0] = (ndt_dk_run){.rows = 1, .cols = 4, .p = {(char *)x, (char *)x}, .cs = {4, 4}};
    ndt__cudahost_launch(r, 2, 0, &L, NULL, add1);
    EXPECT(cudaStreamSynchronize(r) == cudaSuccess, "a kernel on device 2's own memory");
    L.run[0].p[0] = (char *)tile_of_1;
    ndt__cudahost_launch(r, 2, 0, &L, NULL, add1);
    EXPECT(cudaStreamSynchronize(r) == cudaErrorIllegalAddress,
           "an operand on device 1 in a launch on device 2: an illegal address");
  }
  printf("cudahost: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
