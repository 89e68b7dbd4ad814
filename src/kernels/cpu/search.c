/* search.c - the CPU's searching kernels: searchsorted (a binary search per
 * value, NumPy's order) and the bin index of a histogram with uniform bins.
 * src/ops/select.c cuts the values into blocks and hands each block the
 * sorted array (or the edges) as an ndt_kread. */
#include <string.h>
#include "cpu.h"
#include "order.h"

/* ---- searchsorted ----------------------------------------------------- */
#define DEF_SEARCH(SFX, T, LT)                                                         \
  static void search_##SFX(const ndt_kread *rd, const char *vp, int64_t vs, int64_t m, \
                           int right, int64_t *out) {                                  \
    int64_t n = rd->n;                                                                 \
    for (int64_t j = 0; j < m; j++) {                                                  \
      T v, x;                                                                          \
      memcpy(&v, vp + j * vs, sizeof v);                                               \
      int64_t lo = 0, hi = n;                                                          \
      while (lo < hi) {                                                                \
        int64_t mid = lo + (hi - lo) / 2;                                              \
        memcpy(&x, ndt_kread_at(rd, mid), sizeof x);                                   \
        if (right ? !LT(v, x) : LT(x, v)) lo = mid + 1;                                \
        else hi = mid;                                                                 \
      }                                                                                \
      out[j] = lo;                                                                     \
    }                                                                                  \
  }
#define X(SFX, T, LT) DEF_SEARCH(SFX, T, LT)
NDT_ORDER_TYPES(X)
#undef X

static const ndt_search_fn search_fns[NDT_NTYPES] = {
  search_b, search_i8, search_i16, search_i32, search_i64, search_u8, search_u16, search_u32,
  search_u64, search_f32, search_f64, search_c64, search_c128};

ndt_search_fn ndt__cpu_search(ndt_dtype t) { return search_fns[t]; }

/* ---- bin index of uniform bins ---------------------------------------- */
/* NumPy's uniform-bins histogram (numpy/lib/_histograms_impl.py): the value
 * x (in the edges' dtype T) is kept when first <= x <= last; its bin is
 * trunc((x - first) / denom * nbins), then moved down when x lies below
 * that bin's left edge and up when it lies on or above the next edge
 * (except in the last bin, which includes its right edge). The offset and
 * the scaling are computed in float32 or float64 as NumPy's promotion does
 * for the scalar types it sees. Values left out get bin nbins. */
#define DEF_BINS(SFX, T)                                                               \
  static void bins_##SFX(const ndt_kread *rd, const ndt_bins_desc *g, const void *xv,  \
                         int64_t m, int64_t *out) {                                    \
    const T *x = xv;                                                                   \
    int64_t nb = rd->n - 1;                                                            \
    T first = (T)g->first, last = (T)g->last, e;                                       \
    for (int64_t j = 0; j < m; j++) {                                                  \
      T v = x[j];                                                                      \
      if (!(v >= first && v <= last)) {                                                \
        out[j] = nb;                                                                   \
        continue;                                                                      \
      }                                                                                \
      double d = g->single_d ? (double)((float)v - (float)g->first) : (double)v - g->first; \
      double f = g->single_f ? (double)((float)((float)d / (float)g->denom) * (float)nb)   \
                             : d / g->denom * (double)nb;                              \
      int64_t i = (int64_t)f;                                                          \
      if (i >= nb) i = nb - 1;                                                         \
      if (i < 0) i = 0;                                                                \
      memcpy(&e, ndt_kread_at(rd, i), sizeof e);                                       \
      if (v < e) i--;                                                                  \
      if (i < nb - 1) {                                                                \
        memcpy(&e, ndt_kread_at(rd, i + 1), sizeof e);                                 \
        if (v >= e) i++;                                                               \
      }                                                                                \
      out[j] = i < 0 ? 0 : i; /* cannot be -1 (v >= edges[0]); stay in range anyway */ \
    }                                                                                  \
  }
DEF_BINS(f32, float)
DEF_BINS(f64, double)

ndt_bins_fn ndt__cpu_bins(ndt_dtype t) { return t == NDT_FLOAT32 ? bins_f32 : bins_f64; }
