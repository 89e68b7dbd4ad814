// fused.cu - the CUDA plugin's interpreter of fused elementwise groups:
// src/kernels/cuda/fused_impl.h compiled by nvcc, with the flags of
// elementwise.cu (--fmad=false, IEEE division and square root, no flush to
// zero). The same source runs on the CPU in tests/c/test_devkernels.c (an
// emulated grid) against the CPU's fused loop, bit for bit. Compiled here;
// not yet run on a GPU.
#include "kernels/cuda/fused_impl.h"
