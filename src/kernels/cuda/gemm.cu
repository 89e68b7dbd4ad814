// gemm.cu - the CUDA plugin's integer and bool matrix products:
// src/kernels/cuda/gemm_impl.h compiled by nvcc (the float ones are
// cuBLAS's). The same source runs on CPUs in the plugin's host build
// (tests/cudahost/kernels.c). Compiled here; not yet run on a GPU.
#include "kernels/cuda/gemm_impl.h"
