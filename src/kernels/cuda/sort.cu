// sort.cu - the CUDA plugin's sort and argsort along an axis:
// src/kernels/cuda/sort_impl.h compiled by nvcc (tests/c/test_devkernels.c
// runs the same source on the CPU against the CPU's sort kernels).
// Compiled here; not yet run on a GPU.
#include "kernels/cuda/sort_impl.h"
