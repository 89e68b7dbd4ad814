// reduce.cu - the CUDA plugin's float sums in NumPy's pairwise order:
// src/kernels/cuda/reduce_impl.h compiled by nvcc (tests/c/test_devkernels.c
// runs the same source on the CPU against the CPU's reduce kernel).
// Compiled here; not yet run on a GPU.
#include "kernels/cuda/reduce_impl.h"
