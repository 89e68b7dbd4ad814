/* random.h - the argument of the random fill task (random.c), for the
 * bodies that run it: the CPU's in random.c, and a device plugin's
 * (src/runtime/cuda.c: the Philox fill of src/kernels/cuda/rng_impl.h),
 * which finds it by the kind's name ("random"). */
#ifndef NDT_OPS_RANDOM_H
#define NDT_OPS_RANDOM_H
#include "exec.h"

/* "random": operand 0 (write) is one block of a fresh C-contiguous result,
 * a contiguous range of its tile; its element c is element first + c of
 * the call keyed by key. ("random parameters", the samplers with
 * parameters per element, keeps its argument in random.c: CPU only.) */
typedef struct {
  ndt_array out;      /* one block of the result */
  int64_t first;      /* flat index of its first element */
  ndt_rng_key key;
  ndt_rng_params q;
} ndt_rand_arg;

#endif
