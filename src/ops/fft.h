/* fft.h - an FFT task's recorded argument (src/ops/fft.c), for the bodies
 * that run its "fft" tasks: the CPU's in fft.c and a device's (the CUDA
 * plugin reads it to run the same task through cuFFT,
 * src/runtime/cuda_fft.h).
 *
 * A task transforms every line along axis ax of its block: nload values
 * of in per line (cut or zero-padded to the transform's input length:
 * n, or n/2+1 Hermitian values for NDT_FFT_C2R; in is empty when nload is
 * 0), each result value times scale, into out (n values per line, n/2+1
 * for NDT_FFT_R2C). */
#ifndef NDT_OPS_FFT_H
#define NDT_OPS_FFT_H
#include "exec.h"

typedef struct {
  ndt_array in, out;   /* block views; the transformed axis is axis ax */
  int ax, kind, half;  /* half: a real transform of even n as a complex one of n/2 (CPU) */
  int64_t n, nload;    /* transform length; input values read per line */
  double scale;
  const void *plan;    /* the CPU's plan, in a byte store the task keeps alive */
} fft_arg;

#endif
