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

#endif
