// lines.cu - the CUDA plugin's copies around its library calls (cuFFT's
// transforms, cuSOLVER's factorisations): src/kernels/cuda/lines_impl.h
// compiled by nvcc. The same source runs on CPUs in the plugin's host
// build (tests/cudahost/kernels.c). Compiled here; not yet run on a GPU.
#include "kernels/cuda/lines_impl.h"
