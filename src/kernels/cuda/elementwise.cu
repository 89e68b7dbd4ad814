// elementwise.cu - the CUDA plugin's elementwise kernels and casts:
// src/kernels/cuda/ew_impl.h compiled by nvcc. The same source runs on the
// CPU in tests/c/test_devkernels.c (an emulated grid) against the CPU's
// loops, bit for bit. Built with --fmad=false, IEEE division and square
// root and no flush to zero (meson.build): the CPU's bits for the exact
// ops. Compiled here; not yet run on a GPU.
#include "kernels/cuda/ew_impl.h"
