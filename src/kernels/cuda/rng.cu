// rng.cu - the CUDA plugin's random fill: src/kernels/cuda/rng_impl.h
// compiled by nvcc, with the flags of elementwise.cu (--fmad=false, IEEE
// division and square root, no flush to zero): the CPU's bits (the shared
// arithmetic of src/kernels/rng_scalar.h). The same source runs on the CPU
// in tests/c/test_devkernels.c (an emulated grid) against the CPU's fill,
// bit for bit. Compiled here; not yet run on a GPU.
#include "kernels/cuda/rng_impl.h"
