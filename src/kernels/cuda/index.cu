// index.cu - the CUDA plugin's advanced-index kernels (gather, put):
// src/kernels/cuda/index_impl.h compiled by nvcc (tests/c/test_devkernels.c
// runs the same source on the CPU against the CPU's index kernels).
// Compiled here; not yet run on a GPU.
#include "kernels/cuda/index_impl.h"
