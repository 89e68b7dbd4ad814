/* search_impl.h - the device's searchsorted and uniform-bin histogram
 * index (src/ops/select.c's "searchsorted" tasks), with the CPU's bits
 * (src/kernels/cpu/search.c: the same binary search, midpoint and order,
 * so the same index even where `a` is not sorted; the same bin
 * arithmetic, in the same precision).
 *
 * A thread per value. A run (dk.h's ndt_dk_run) is rows = m values by
 * cols = the sorted array's length (at least 1), so that each operand's
 * extent is its run's: operand 0 the values (value j at p[0] + j * rs[0],
 * dtype vdt; cs[0] 0), 1 the int64 results (p[1] + j * rs[1]; cs[1] 0), 2
 * the sorted array or the edges (element i at p[2] + i * cs[2]; rs[2] 0;
 * from of them, dtype dt; NULL when from is 0). A bin index's parameters
 * (ndt_bins_desc): first in rs[3], last in cs[3], denom in start[0..8)
 * (their bits), single_d | single_f << 1 in start[8]. The
 * launch's aux: dt | right << 4 | bins << 5 | vdt << 8 (bins: dt float32
 * or float64, vdt any real dtype, each value cast to dt as the CPU's cast
 * loop casts it, scalar.h's ndt_sc_cast).
 *
 * sort.cu compiles this file with nvcc; tests/c/test_devkernels.c
 * (search) runs it on the CPU against the CPU's search and bins kernels.
 * Not yet run on a GPU. */
#ifndef NDT_KERNELS_CUDA_SEARCH_IMPL_H
#define NDT_KERNELS_CUDA_SEARCH_IMPL_H

#include <stdint.h>
#include <string.h>
#include "ndtile.h"
#include "kernels/cuda/dk.h"
#include "kernels/cpu/order.h"

/* out = first i in [0, n) with !(a[i] < v) (left) or v < a[i] (right) */
#define NDT_DQ_SEARCH(SFX, T, LT)                                                    \
  NDT_HD int64_t ndt_dq_search_##SFX(const char *a, int64_t as, int64_t n, const char *vp, \
                                     int right) {                                    \
    T v, x;                                                                          \
    memcpy(&v, vp, sizeof v);                                                        \
    int64_t lo = 0, hi = n;                                                          \
    while (lo < hi) {                                                                \
      const int64_t mid = lo + (hi - lo) / 2;                                        \
      memcpy(&x, a + mid * as, sizeof x);                                            \
      if (right ? !LT(v, x) : LT(x, v)) lo = mid + 1;                                \
      else hi = mid;                                                                 \
    }                                                                                \
    return lo;                                                                       \
  }
NDT_ORDER_TYPES(NDT_DQ_SEARCH)

/* value vp (dtype vdt, real) as T (f32 or f64): the CPU's cast */
#define NDT_DQ_LD(TO)                                                                \
  NDT_HD ndt_sc_t_##TO ndt_dq_ld_##TO(int vdt, const char *vp) {                     \
    switch (vdt) {                                                                   \
      NDT_DQ_C(b, NDT_BOOL, TO) NDT_DQ_C(i8, NDT_INT8, TO) NDT_DQ_C(i16, NDT_INT16, TO) \
      NDT_DQ_C(i32, NDT_INT32, TO) NDT_DQ_C(i64, NDT_INT64, TO)                      \
      NDT_DQ_C(u8, NDT_UINT8, TO) NDT_DQ_C(u16, NDT_UINT16, TO)                      \
      NDT_DQ_C(u32, NDT_UINT32, TO) NDT_DQ_C(u64, NDT_UINT64, TO)                    \
      NDT_DQ_C(f32, NDT_FLOAT32, TO) NDT_DQ_C(f64, NDT_FLOAT64, TO)                  \
      default: return 0;                                                             \
    }                                                                                \
  }
#define NDT_DQ_C(FROM, ENUM, TO)          \
  case ENUM: {                            \
    ndt_sc_t_##FROM x;                    \
    memcpy(&x, vp, sizeof x);             \
    return ndt_sc_cast_##FROM##_##TO(x);  \
  }
NDT_DQ_LD(f32)
NDT_DQ_LD(f64)
#undef NDT_DQ_C

/* NumPy's uniform bin of v (search.c's DEF_BINS, line for line): nb =
 * n - 1 for a value outside [first, last] */
#define NDT_DQ_BINS(SFX, T)                                                          \
  NDT_HD int64_t ndt_dq_bin_##SFX(const ndt_dk_run *r, T v) {                        \
    const int64_t nb = r->from - 1;                                                 \
    double gf, gl, gd;                                                               \
    memcpy(&gf, &r->rs[3], 8);                                                       \
    memcpy(&gl, &r->cs[3], 8);                                                       \
    memcpy(&gd, r->start, 8);                                                        \
    const int sd = r->start[8] & 1, sf = r->start[8] >> 1 & 1;                 \
    const T first = (T)gf, last = (T)gl;                                             \
    T e;                                                                             \
    if (!(v >= first && v <= last)) return nb;                                       \
    double d = sd ? (double)((float)v - (float)gf) : (double)v - gf;                 \
    double f = sf ? (double)((float)((float)d / (float)gd) * (float)nb) : d / gd * (double)nb; \
    int64_t i = (int64_t)f;                                                          \
    if (i >= nb) i = nb - 1;                                                         \
    if (i < 0) i = 0;                                                                \
    memcpy(&e, r->p[2] + i * r->cs[2], sizeof e);                                    \
    if (v < e) i--;                                                                  \
    if (i < nb - 1) {                                                                \
      memcpy(&e, r->p[2] + (i + 1) * r->cs[2], sizeof e);                            \
      if (v >= e) i++;                                                               \
    }                                                                                \
    return i < 0 ? 0 : i;                                                            \
  }
NDT_DQ_BINS(f32, float)
NDT_DQ_BINS(f64, double)

NDT_HD void ndt_dq_item(const ndt_dk_run *r, int aux, int64_t j) {
  const int dt = aux & 15, right = (aux >> 4) & 1, bins = (aux >> 5) & 1, vdt = (aux >> 8) & 15;
  const char *vp = r->p[0] + j * r->rs[0];
  int64_t o = 0;
  if (bins) {
    o = dt == NDT_FLOAT32 ? ndt_dq_bin_f32(r, ndt_dq_ld_f32(vdt, vp))
                          : ndt_dq_bin_f64(r, ndt_dq_ld_f64(vdt, vp));
  } else {
    const char *a = r->p[2];
    const int64_t as = r->cs[2], n = r->from;
    switch (dt) {
      case NDT_BOOL: o = ndt_dq_search_b(a, as, n, vp, right); break;
      case NDT_INT8: o = ndt_dq_search_i8(a, as, n, vp, right); break;
      case NDT_INT16: o = ndt_dq_search_i16(a, as, n, vp, right); break;
      case NDT_INT32: o = ndt_dq_search_i32(a, as, n, vp, right); break;
      case NDT_INT64: o = ndt_dq_search_i64(a, as, n, vp, right); break;
      case NDT_UINT8: o = ndt_dq_search_u8(a, as, n, vp, right); break;
      case NDT_UINT16: o = ndt_dq_search_u16(a, as, n, vp, right); break;
      case NDT_UINT32: o = ndt_dq_search_u32(a, as, n, vp, right); break;
      case NDT_UINT64: o = ndt_dq_search_u64(a, as, n, vp, right); break;
      case NDT_FLOAT32: o = ndt_dq_search_f32(a, as, n, vp, right); break;
      case NDT_FLOAT64: o = ndt_dq_search_f64(a, as, n, vp, right); break;
      case NDT_COMPLEX64: o = ndt_dq_search_c64(a, as, n, vp, right); break;
      case NDT_COMPLEX128: o = ndt_dq_search_c128(a, as, n, vp, right); break;
      default: break;
    }
  }
  memcpy(r->p[1] + j * r->rs[1], &o, 8);
}

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

NDT_DK_BODY void ndt_dq_k_body(const ndt_dk_launch *L, unsigned *flags, ndt_dk_grid g) {
  const ndt_dk_run *r = &L->run[g.by];
  (void)flags;
  for (int64_t e = g.bx * g.ntx + g.tx; e < r->rows; e += g.nbx * g.ntx) ndt_dq_item(r, L->aux, e);
}
NDT_DK_GLOBAL(ndt_dq_k, 3)

/* ---- the entry point (the plugin's; static in the host test) ----
 * The results of every run of L: the searchsorted indices of
 * dtype dt (right: side='right'), or with bins the uniform bins of values
 * of dtype vdt over edges of dtype dt (float32 or float64). 0, or -1 for
 * a launch the kernel does not take. */
NDT_DK_ENTRY(int) ndt__dk_search(int dt, int vdt, int right, int bins, ndt_dk_launch *L,
                                 void *stream) {
  if (dt < 0 || dt >= NDT_NTYPES || L->nrun < 0) return -1;
  if (bins && ((dt != NDT_FLOAT32 && dt != NDT_FLOAT64) || vdt < 0 || vdt > NDT_FLOAT64))
    return -1;
  for (int q = 0; q < L->nrun; q++)
    if (L->run[q].from < 0 || (bins && L->run[q].from < 2)) return -1;
  L->aux = dt | (right != 0) << 4 | (bins != 0) << 5 | (bins ? vdt : 0) << 8;
  ndt_dq_k(L, NULL, stream);
  return 0;
}

#endif
#endif
