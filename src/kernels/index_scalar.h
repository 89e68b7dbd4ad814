/* index_scalar.h - what the indexing kernels share between the CPU
 * (src/kernels/cpu/index.c) and the device (src/kernels/cuda/index_impl.h):
 * one header compiled for C and CUDA, like scalar.h. */
#ifndef NDT_KERNELS_INDEX_SCALAR_H
#define NDT_KERNELS_INDEX_SCALAR_H

#include <stdint.h>
#include <string.h>
#include "ndtile.h"
#include "kernels/scalar.h"

/* An index of integer dtype t at p, as int64 (the cast kernel's value: a
 * uint64 beyond INT64_MAX wraps negative, and is then out of bounds). */
NDT_HD int64_t ndt_sc_index_at(int t, const char *p) {
  switch (t) {
    case NDT_INT8: { int8_t v; memcpy(&v, p, 1); return v; }
    case NDT_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
    case NDT_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case NDT_UINT8: { uint8_t v; memcpy(&v, p, 1); return v; }
    case NDT_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case NDT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case NDT_UINT64: { uint64_t v; memcpy(&v, p, 8); return (int64_t)v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
  }
}

#endif
