/* view.h - the bottom layer of src/ops (view.c): what the files above it use
 * besides the array handles internal.h declares. Layer-internal names are
 * ndt__ (docs/design.md, "Names"). */
#ifndef NDT_OPS_VIEW_H
#define NDT_OPS_VIEW_H
#include "internal.h"

/* Makes a a C-contiguous layout of shape over its store (offset kept). */
void ndt__set_contiguous(ndt_array *a, int ndim, const int64_t *shape);

#endif
