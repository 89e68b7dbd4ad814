// fold.cu - the CUDA plugin's reductions other than the pairwise float sums
// (integer and bool sums and products, min/max, any/all, row folds) and its
// cumulative sums and products: src/kernels/cuda/fold_impl.h and
// scan_impl.h compiled by nvcc (one file: the scans use the folds' loads).
// tests/c/test_devkernels.c runs the same sources on the CPU against the
// CPU's reduce and scan kernels. Compiled here; not yet run on a GPU.
#include "kernels/cuda/fold_impl.h"
#include "kernels/cuda/scan_impl.h"
