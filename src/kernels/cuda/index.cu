// index.cu - the CUDA plugin's advanced-index kernels (gather, put) and
// argwhere's non-zero scan: src/kernels/cuda/index_impl.h and nz_impl.h
// compiled by nvcc (tests/c/test_devkernels.c runs the same sources on the
// CPU against the CPU's kernels). Compiled here; not yet run on a GPU.
#include "kernels/cuda/index_impl.h"
#include "kernels/cuda/nz_impl.h"
