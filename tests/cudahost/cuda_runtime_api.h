/* cuda_runtime_api.h - a host emulation of the part of the CUDA runtime
 * API that the CUDA plugin (src/runtime/cuda.c) uses, so that the same
 * cuda.c, compiled as C against this header (it comes first on the include
 * path of libndtile_cudahost.so, meson.build), runs on a machine without a
 * GPU: "cudahost". Its implementation is cudahost.c; the kernels are the
 * plugin's own sources compiled as C (kernels.c), launched onto the
 * emulated streams (src/kernels/cuda/dk.h, NDT_DK_STREAM).
 *
 * What it keeps of a GPU, so that the plugin's mistakes show here:
 *   - device memory is not host memory: a device pointer points into a
 *     PROT_NONE mapping, so a host read or write through it faults, as it
 *     would on a GPU; the streams reach the same bytes through a second
 *     mapping. Freshly allocated device memory is filled with 0xFF bytes
 *     (a NaN for floats, -1 for integers), freed memory with 0xA5;
 *   - each device has a capacity (NDTILE_CUDAHOST_MEM, 256 MiB by default),
 *     and cudaMalloc/cudaMallocAsync fail past it;
 *   - a stream is a queue run by a thread of its own, in order: an async
 *     copy, memset, kernel or free happens later, so a result read before
 *     the stream was synchronised is stale (NDTILE_CUDAHOST_DELAY=US adds
 *     a random delay of up to US microseconds before each queued step
 *     runs, and before each call queues it: threads sharing a stream then
 *     interleave their steps);
 *   - a kernel whose operands reach outside the device allocations, or an
 *     injected fault, is a sticky error of the device (its context), as on
 *     a GPU: every later call on that device returns it;
 *   - errors are recorded per thread for cudaGetLastError.
 *
 * NDTILE_CUDAHOST_DEVICES=N (2 by default) devices; NDTILE_CUDAHOST_FAIL
 * injects failures: "alloc:N" (the Nth device allocation fails, as when
 * another process holds the memory), "kernel:N" (the Nth kernel launch
 * faults when it runs: an illegal address, sticky), "launchk:N" (the Nth
 * cudaLaunchKernel, a compiled fused kernel's, is refused with
 * cudaErrorLaunchOutOfResources: an error of that launch, not sticky),
 * comma-separated.
 *
 * A GPU's launch rules are checked: a kernel launched into a stream of a
 * device that is not the calling thread's current one (cudaSetDevice is
 * per host thread) is refused (cudaErrorInvalidResourceHandle); a kernel
 * operand on another device than the stream's faults (no peer access);
 * cudaLaunchKernel's grid and block past a GPU's limits are refused
 * (cudaErrorInvalidConfiguration).
 * NDTILE_CUDAHOST_GRID=B,T: the emulated grid's blocks across and threads a
 * block (2,3 by default; the grid-stride loops go round).
 *
 * Libraries (the compiled fused kernels of src/runtime/cuda_jit.c): the
 * emulated NVRTC (nvrtc_emu.c) compiles a generated source as C with the
 * system's compiler (NDTILE_CUDAHOST_CC, default cc) into a shared object,
 * which stands for the cubin: cudaLibraryLoadData loads it (dlopen of a
 * memfd), cudaLibraryGetKernel finds the kernel, and cudaLaunchKernel
 * queues it on the stream with the interpreter's checks, its grid run by
 * the stream's thread. NDTILE_CUDAHOST_NVRTC=none: no NVRTC library. */
#ifndef NDT_CUDAHOST_RUNTIME_API_H
#define NDT_CUDAHOST_RUNTIME_API_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the codes CUDA gives them */
typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInsufficientDriver = 35,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorLaunchFailure = 719
} cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01

/* the emulated runtime: src/runtime/cuda_jit.c takes its NVRTC from it */
#define NDT_CUDAHOST 1

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef void (*cudaHostFn_t)(void *userData);

/* the fields the plugin reads */
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  int multiProcessorCount;
  int major, minor;
};

const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);

cudaError_t cudaGetDeviceCount(int *count);
/* NDTILE_CUDAHOST_DRIVER_VERSION (default 13000, CUDA 13.0's numbering) */
cudaError_t cudaDriverGetVersion(int *driverVersion);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
/* "00000000:BB:00.0", BB from the GPU's physical index (NDTILE_CUDAHOST_VISIBLE) */
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
/* the current device's flags (kept, and reported by NDTILE_CUDAHOST_STATS:
 * device 0's): one scheduling mode of the three low bits, other bits
 * refused */
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);

cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s);
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);

/* cudaMallocAsync's pool (a device's default pool): its release threshold
 * (a uint64: the bytes it keeps across a synchronisation; CUDA's default
 * 0 gives every freed byte back at each one) is kept and reported by
 * NDTILE_CUDAHOST_STATS; the emulated allocator does not change with it */
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold = 4 };
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value);

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                            cudaStream_t s);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t s);
cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s);

/* page-locked host memory, with CUDA's rules checked: a range overlapping
 * a registered one is refused (cudaErrorHostMemoryAlreadyRegistered), an
 * unregister must name a registered range's start (else
 * cudaErrorHostMemoryNotRegistered), and a registered range unmapped
 * before its unregister is found (at the next registration, the
 * unregister and at exit: an "ERROR" line on stderr, counted as lost in
 * NDTILE_CUDAHOST_STATS). NDTILE_CUDAHOST_PIN_LIMIT=SIZE: registrations
 * past SIZE bytes in all fail with cudaErrorMemoryAllocation (a limit on
 * locked memory). A copy whose host side lies in such memory counts as a
 * pinned copy, else as a pageable one. */
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags);
cudaError_t cudaHostUnregister(void *p);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags);
cudaError_t cudaFreeHost(void *p);
/* not CUDA: the counts of the above (test_cudahost.c, test_cudapin.c):
 * registrations, unregistrations, refusals, pinned copies, pageable
 * copies, ranges lost (unmapped while registered), host allocations, the
 * pinned copies' bytes, the pageable copies' bytes */
void ndt__cudahost_pin_counts(long out[9]);

cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data);

cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventSynchronize(cudaEvent_t e);

/* libraries and launches by handle (CUDA 12's runtime API) */
typedef struct dim3 {
  unsigned x, y, z;
} dim3;
typedef struct CUlib_st *cudaLibrary_t;
typedef struct CUkern_st *cudaKernel_t;
enum cudaJitOption { cudaJitMaxRegisters = 0 };
enum cudaLibraryOption { cudaLibraryHostUniversalFunctionAndDataTable = 0 };
cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                unsigned numJitOptions, enum cudaLibraryOption *libraryOptions,
                                void **libraryOptionValues, unsigned numLibraryOptions);
cudaError_t cudaLibraryGetKernel(cudaKernel_t *kernel, cudaLibrary_t library, const char *name);
cudaError_t cudaLibraryUnload(cudaLibrary_t library);
/* func: a cudaKernel_t of a loaded library whose kernel takes a fused
 * launch (ndt_dk_flaunch, by value) and its flags words */
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t sharedMem, cudaStream_t stream);

/* not CUDA: the emulated NVRTC's table (an ndt_nvrtc of
 * src/runtime/fused_gen.h; nvrtc_emu.c), 0 or -1 with why; and the
 * plugin's count of kernels it found in its disk cache, for
 * NDTILE_CUDAHOST_STATS */
int ndt__cudahost_nvrtc_open(void *table, char *why, size_t cap);
void ndt__cudahost_count_cache_hit(void);

#ifdef __cplusplus
}
#endif
#endif
