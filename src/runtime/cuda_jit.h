/* cuda_jit.h - the CUDA plugin's compiled fused kernels (cuda_jit.c): the
 * second tier after the interpreter of src/kernels/cuda/fused_impl.h. For
 * the plugin's cuda.c only; it includes the CUDA runtime's header (the real
 * one, or tests/cudahost's emulation). */
#ifndef NDT_RUNTIME_CUDA_JIT_H
#define NDT_RUNTIME_CUDA_JIT_H

#include <cuda_runtime_api.h>
#include "runtime/device.h"
#include "kernels/cuda/fused_types.h"

/* the settings read, for devices of compute capability arch (major * 10 +
 * minor); dev: the device the compile thread loads on */
void ndt__fjit_start(const ndt_plugin_host *h, int dev, int arch);
/* P starts a batch: its compiled kernel when one is loaded, else NULL (the
 * interpreter runs it; a program seen often enough is queued for compiling,
 * in the background) */
cudaKernel_t ndt__fjit_kernel(const ndt_dk_fprog *P);
/* k over L's runs (as the interpreter's launch); 0, or -1 (a launch error:
 * cudaGetLastError has it) */
int ndt__fjit_launch(cudaKernel_t k, const ndt_dk_flaunch *L, unsigned *flags, void *stream);
/* P's compiled kernel was refused at a launch (e: the launch's error, not a
 * lost context): P stays on the interpreter from now on */
void ndt__fjit_refused(const ndt_dk_fprog *P, cudaError_t e);

#endif
