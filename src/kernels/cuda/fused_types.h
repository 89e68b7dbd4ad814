/* fused_types.h - the fused groups' program and launch (a plain C subset
 * with no include but <stdint.h>): what the interpreter (fused_impl.h),
 * the plugin (src/runtime/cuda.c), the source generator
 * (src/runtime/fused_gen.c) and the kernels it generates (fused_gen.h,
 * compiled by NVRTC at run time) share. */
#ifndef NDT_KERNELS_CUDA_FUSED_TYPES_H
#define NDT_KERNELS_CUDA_FUSED_TYPES_H

#include <stdint.h>

/* operands of a run (external inputs and written results: as many as a
 * group of fusion.c can have, 12 + 24, so that every group fits), steps of
 * a program, runs of a launch: 32 runs of 880 bytes and a program of 488
 * fit the 32,764 bytes of kernel parameters (cuda.c checks both) */
#define NDT_DK_FMAXOPS 36
#define NDT_DK_FMAXSTEPS 24
#define NDT_DK_FMAXRUNS 32

typedef struct {
  int32_t key;          /* the entry (ndt__dk_ew_key), or -1: cast input 0 to out_dt */
  int8_t nin, out;      /* out: the operand it writes, or -1 */
  int8_t flag, pad;     /* the flags word its flags go to, or -1: not recorded */
  int8_t src[3];        /* >= 0: an operand; < 0: step -(src+1)'s value */
  uint8_t in_dt[3];     /* the inputs' dtypes (the operand's, or the step's out_dt) */
  uint8_t loop_in[3], loop_out, out_dt, pad2;
} ndt_dk_fstep;

typedef struct {
  int32_t nstep, nop;
  ndt_dk_fstep step[NDT_DK_FMAXSTEPS];
} ndt_dk_fprog;

/* one run: rows x cols elements; operand k's element (i, j) at
 * p[k] + i * rs[k] + j * cs[k] (byte strides) */
typedef struct {
  int64_t rows, cols;
  char *p[NDT_DK_FMAXOPS];
  int64_t rs[NDT_DK_FMAXOPS], cs[NDT_DK_FMAXOPS];
} ndt_dk_frun;

typedef struct {
  ndt_dk_fprog prog;
  int32_t nrun, pad;
  ndt_dk_frun run[NDT_DK_FMAXRUNS];
} ndt_dk_flaunch;

#endif
