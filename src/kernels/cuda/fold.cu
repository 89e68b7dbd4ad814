// fold.cu - the CUDA plugin's reductions other than the pairwise float sums
// (integer and bool sums and products, min/max, any/all, row folds) and its
// cumulative sums and products, and the ordered folds into a result (the
// combines, the float products): src/kernels/cuda/fold_impl.h, scan_impl.h
// and combine_impl.h compiled by nvcc (one file: they share the folds' ops).
// tests/c/test_devkernels.c runs the same sources on the CPU against the
// CPU's reduce and scan kernels. Compiled here; not yet run on a GPU.
#include "kernels/cuda/fold_impl.h"
#include "kernels/cuda/scan_impl.h"
#include "kernels/cuda/combine_impl.h"
