// sort.cu - the CUDA plugin's sort and argsort along an axis, and its
// bincount (whose count orders a block's positions by bin with the same
// radix sort): src/kernels/cuda/sort_impl.h and bincount_impl.h compiled by
// nvcc (one file: the bincount launches the sort's kernel); partition
// (partition_impl.h) and searchsorted (search_impl.h) beside them.
// tests/c/test_devkernels.c runs the same sources on the CPU against the
// CPU's sort and count kernels. Compiled here; not yet run on a GPU.
#include "kernels/cuda/sort_impl.h"
#include "kernels/cuda/bincount_impl.h"
#include "kernels/cuda/partition_impl.h"
#include "kernels/cuda/search_impl.h"
