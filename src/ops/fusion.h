/* fusion.h - fusion (fusion.c): elementwise ops and casts on large arrays
 * wait in a group; the group runs as one pass per block when something else
 * needs the data, and results nobody holds any more are never written.
 * Above exec.c, below elementwise.c (its only user). */
#ifndef NDT_OPS_FUSION_H
#define NDT_OPS_FUSION_H
#include "exec.h"

/* Appends the op when it can join the group; returns 1 if it did, 0 when the
 * caller must run it normally, or a negative status. The result goes into
 * dst (an existing array of the broadcast shape, whose dtype the result is
 * cast to) or, with dst NULL, into a fresh array of dtype proto->loop_out
 * returned in *out. A NULL proto->loop casts input 0. */
int ndt__fuse_try(const ndt_ew_arg *proto, int nin, const ndt_array *const *in, int nd,
                  const int64_t *shape, ndt_array *dst, ndt_array **out);
/* Records the group's tasks now. */
ndt_status ndt__flush(void);

#define NDT_FUSE_MAXF 24   /* ops in one group (at most 64: a task's written results are a mask) */
#define NDT_FUSE_MAXE 12   /* external inputs in one group */

/* What a device needs to run a group's tasks (the CUDA plugin's
 * interpreter, src/runtime/cuda.c and src/kernels/cuda/fused_impl.h):
 * built once per group when it is flushed, read-only from then on, alive
 * as long as its tasks. A task's argument ("fused elementwise") begins
 * with an ndt_fused_task; its operands are the used external inputs' block
 * views (ext order), then the written results' (bit k of incl: op k's, in
 * op order; on many ranks, ranks != 0, another order: devices refuse). */
typedef struct {
  int ufunc;                /* the ndt_ufunc, or -1: a cast of input 0 (NULL loop) */
  int nin;
  int src[NDT_MAXOPS - 1];  /* >= 0: external input; < 0: output of op -(src+1) */
  ndt_dtype loop_in[NDT_MAXOPS - 1], loop_out, out_dt;
  int fp;                   /* 1: its floating-point flags are recorded */
} ndt_fused_op;

typedef struct ndt_fused_desc {
  int nops, next, ranks;
  ndt_dtype ext_dt[NDT_FUSE_MAXE];
  int ext_used[NDT_FUSE_MAXE];
  ndt_fused_op ops[NDT_FUSE_MAXF];
  /* records fpe[k] (NDT_FPE_* bits raised by op k, for k < nops) as the
   * CPU's body does: per op, by its name */
  void (*report)(const struct ndt_fused_desc *d, const unsigned *fpe);
} ndt_fused_desc;

typedef struct {
  const ndt_fused_desc *d;
  uint64_t incl;            /* the results the task writes (bit k: op k's) */
} ndt_fused_task;

#endif
