// fft.cu - the CUDA plugin's copies around a cuFFT transform (pack a
// block's lines into cuFFT's batch layout, unpack and scale the result):
// src/kernels/cuda/fft_impl.h compiled by nvcc. The same source runs on
// CPUs in the plugin's host build (tests/cudahost/kernels.c). Compiled
// here; not yet run on a GPU.
#include "kernels/cuda/fft_impl.h"
