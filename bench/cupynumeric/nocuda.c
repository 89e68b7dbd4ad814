/* nocuda.c - a stand-in libcuda.so.1 that reports "no CUDA device".
 *
 * The cuPyNumeric/Legate wheels on PyPI are CUDA builds: they link the NVIDIA
 * driver's libcuda.so.1 and will not even import on a machine without it.
 * With this library on LD_LIBRARY_PATH, Realm's CUDA module finds no device,
 * disables itself, and Legate runs on CPUs only (`--gpus 0`).  Used only for
 * the benchmark's cuPyNumeric column on CPU-only machines; setup.sh builds it
 * (adding a stub that fails for every other cu* symbol the wheels import).
 */
#include <string.h>

typedef int CUresult;
#define CUDA_ERROR_NO_DEVICE 100

static CUresult no_device(void) { return CUDA_ERROR_NO_DEVICE; }

CUresult cuGetErrorName(CUresult e, const char **s) {
  (void)e;
  *s = "CUDA_ERROR_NO_DEVICE";
  return 0;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
  (void)e;
  *s = "no CUDA-capable device (ndtile bench nocuda shim)";
  return 0;
}
CUresult cuInit(unsigned flags) { (void)flags; return CUDA_ERROR_NO_DEVICE; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 0; return 0; }

CUresult cuGetProcAddress_v2(const char *sym, void **p, int ver, unsigned long long flags,
                             int *status) {
  (void)ver;
  (void)flags;
  if (!strcmp(sym, "cuGetErrorName")) *p = (void *)cuGetErrorName;
  else if (!strcmp(sym, "cuGetErrorString")) *p = (void *)cuGetErrorString;
  else if (!strcmp(sym, "cuInit")) *p = (void *)cuInit;
  else if (!strcmp(sym, "cuDriverGetVersion")) *p = (void *)cuDriverGetVersion;
  else if (!strcmp(sym, "cuDeviceGetCount")) *p = (void *)cuDeviceGetCount;
  else if (!strncmp(sym, "cuGetProcAddress", 16)) *p = (void *)cuGetProcAddress_v2;
  else *p = (void *)no_device;
  if (status) *status = 0;   /* CU_GET_PROC_ADDRESS_SUCCESS */
  return 0;
}
CUresult cuGetProcAddress(const char *sym, void **p, int ver, unsigned long long flags,
                          int *status) {
  return cuGetProcAddress_v2(sym, p, ver, flags, status);
}
