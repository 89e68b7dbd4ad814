/* partition_impl.h - the device's partition and argpartition along an axis
 * (src/ops/sort.c's "partition" tasks: np.partition, np.argpartition and
 * the median and percentile built on them), with the CPU's bits.
 *
 * A partition's result off its kth positions is whatever the algorithm
 * leaves there: the CPU's is src/kernels/cpu/sort.c's introselect
 * (median-of-three quickselect with Hoare partitioning, an insertion sort
 * of ranges of at most 16, a stable merge sort of what is left after
 * 2*log2(n) rounds), run on each line for each kth in ascending order,
 * each search bounded by the splits the earlier ones found. The device
 * runs the same steps on the same keys under the same order
 * (kernels/cpu/order.h: NumPy's, NaNs last), so it moves the same
 * elements to the same places: the CPU's bits, every NaN payload and
 * signed zero where the CPU leaves it. The merge sort's result is the
 * stable order's (one arrangement), so its steps need not match, but they
 * are the CPU's too.
 *
 * One thread per line: a line's selection is sequential (each round
 * depends on the last). Lines of one task are many when an axis of a 2-d
 * or larger array is partitioned (a median along an axis); a flat median
 * is one line on one thread (about 3n comparisons; unmeasured on a GPU).
 *
 * A run (dk.h's ndt_dk_run) is rows lines of cols = n elements: operand 0
 * the input (line i, element j at p[0] + i * rs[0] + j * cs[0]), 1 the
 * result (line i at p[1] + i * rs[1], step cs[1]: the dtype's values or
 * int64 indices), 2 the lines' scratch (line i's at p[2] + i * rs[2],
 * rs[2] >= ndt_dp_scratch(n, dt): the indices, the merge sort's index
 * scratch, the keys, the merge sort's key scratch), 3 the kth values (device int64, ascending,
 * distinct, each < n; rs[3] of them, at most NDT_DP_MAXKTH). The launch's
 * aux: dtype | indices << 4.
 *
 * sort.cu compiles this file with nvcc; tests/c/test_devkernels.c
 * (partition) runs it on the CPU against the CPU's select kernels.
 * Not yet run on a GPU. */
#ifndef NDT_KERNELS_CUDA_PARTITION_IMPL_H
#define NDT_KERNELS_CUDA_PARTITION_IMPL_H

#include <stdint.h>
#include <string.h>
#include "ndtile.h"
#include "kernels/cuda/dk.h"
#include "kernels/cpu/order.h"
#include "kernels/cuda/sort_impl.h"   /* ndt_ds_size */

/* ops/sort.h's NDT_SORT_MAXKTH and kernels/table.h's NDT_SELECT_MAXSPLIT
 * (the plugin checks they agree) */
#define NDT_DP_MAXKTH 32
#define NDT_DP_MAXSPLIT 128
#define NDT_DP_RUN 16

/* a line's scratch: two index arrays, two key arrays, 8-byte aligned */
NDT_HD int64_t ndt_dp_scratch(int64_t n, int dt) {
  return (16 * n + 2 * n * ndt_ds_size(dt) + 7) / 8 * 8;
}

/* The CPU's stable merge sort (sort.c's DEF_SORT): k[0..n) with the
 * indices ix moved along; kt and it scratch of the same sizes. */
#define NDT_DP_SORT(SFX, T, LT)                                                        \
  NDT_HD void ndt_dp_sort_##SFX(T *k, int64_t *ix, T *kt, int64_t *it, int64_t n) {    \
    for (int64_t lo = 0; lo < n; lo += NDT_DP_RUN) {                                   \
      const int64_t hi = lo + NDT_DP_RUN < n ? lo + NDT_DP_RUN : n;                    \
      for (int64_t j = lo + 1; j < hi; j++) {                                          \
        T x = k[j];                                                                    \
        int64_t xi = ix[j], m = j;                                                     \
        while (m > lo && LT(x, k[m - 1])) {                                            \
          k[m] = k[m - 1];                                                             \
          ix[m] = ix[m - 1];                                                           \
          m--;                                                                         \
        }                                                                              \
        k[m] = x;                                                                      \
        ix[m] = xi;                                                                    \
      }                                                                                \
    }                                                                                  \
    T *src = k, *dst = kt;                                                             \
    int64_t *si = ix, *di = it;                                                        \
    for (int64_t w = NDT_DP_RUN; w < n; w *= 2) {                                      \
      for (int64_t lo = 0; lo < n; lo += 2 * w) {                                      \
        const int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n; \
        int64_t a = lo, b = mid, o = lo;                                               \
        while (a < mid && b < hi) {                                                    \
          if (LT(src[b], src[a])) {                                                    \
            dst[o] = src[b];                                                           \
            di[o++] = si[b++];                                                         \
          } else {                                                                     \
            dst[o] = src[a];                                                           \
            di[o++] = si[a++];                                                         \
          }                                                                            \
        }                                                                              \
        while (a < mid) {                                                              \
          dst[o] = src[a];                                                             \
          di[o++] = si[a++];                                                           \
        }                                                                              \
        while (b < hi) {                                                               \
          dst[o] = src[b];                                                             \
          di[o++] = si[b++];                                                           \
        }                                                                              \
      }                                                                                \
      T *t = src; src = dst; dst = t;                                                  \
      int64_t *tt = si; si = di; di = tt;                                              \
    }                                                                                  \
    if (src != k)                                                                      \
      for (int64_t j = 0; j < n; j++) {                                                \
        k[j] = src[j];                                                                 \
        ix[j] = si[j];                                                                 \
      }                                                                                \
  }

/* The CPU's introselect (sort.c's DEF_SELECT): k[kk] becomes the element
 * a full sort puts there, keys before it not greater, keys after it not
 * less, on [lo, hi), moving ix along; the upper bounds it narrows to are
 * appended to splits (up to NDT_DP_MAXSPLIT). kt, it: the merge sort's
 * scratch (keys and indices, for ranges of up to n). */
#define NDT_DP_SWAP(T, a_, b_)                                  \
  do {                                                       \
    T x_ = k[a_]; k[a_] = k[b_]; k[b_] = x_;                 \
    int64_t xi_ = ix[a_]; ix[a_] = ix[b_]; ix[b_] = xi_;     \
  } while (0)
#define NDT_DP_SELECT(SFX, T, LT)                                                      \
  NDT_HD void ndt_dp_select_##SFX(T *k, int64_t *ix, int64_t lo, int64_t hi, int64_t kk, \
                                  int64_t *splits, int *ns, T *kt, int64_t *it) {      \
    int64_t depth = 2;                                                                 \
    for (int64_t m = hi - lo; m > 1; m >>= 1) depth += 2;                              \
    while (hi - lo > NDT_DP_RUN) {                                                     \
      if (depth-- == 0) {                                                              \
        ndt_dp_sort_##SFX(k + lo, ix + lo, kt, it, hi - lo);                           \
        return;                                                                        \
      }                                                                                \
      int64_t mid = lo + (hi - lo - 1) / 2, last = hi - 1;                             \
      if (LT(k[mid], k[lo])) NDT_DP_SWAP(T, mid, lo);                                     \
      if (LT(k[last], k[mid])) {                                                       \
        NDT_DP_SWAP(T, last, mid);                                                        \
        if (LT(k[mid], k[lo])) NDT_DP_SWAP(T, mid, lo);                                   \
      }                                                                                \
      const T p = k[mid];                                                              \
      int64_t i = lo - 1, j = hi;                                                      \
      for (;;) {                                                                       \
        do i++; while (LT(k[i], p));                                                   \
        do j--; while (LT(p, k[j]));                                                   \
        if (i >= j) break;                                                             \
        NDT_DP_SWAP(T, i, j);                                                             \
      }                                                                                \
      if (kk <= j) {                                                                   \
        hi = j + 1;                                                                    \
        if (*ns < NDT_DP_MAXSPLIT) splits[(*ns)++] = hi;                               \
      } else {                                                                         \
        lo = j + 1;                                                                    \
      }                                                                                \
    }                                                                                  \
    for (int64_t a = lo + 1; a < hi; a++) {                                            \
      T x = k[a];                                                                      \
      int64_t xi = ix[a], m = a;                                                       \
      while (m > lo && LT(x, k[m - 1])) {                                              \
        k[m] = k[m - 1];                                                               \
        ix[m] = ix[m - 1];                                                             \
        m--;                                                                           \
      }                                                                                \
      k[m] = x;                                                                        \
      ix[m] = xi;                                                                      \
    }                                                                                  \
  }

/* One line: gathered into the keys (and 0..n-1 into the indices), each kth
 * selected as sort.c's sort_body selects it, written out. */
#define NDT_DP_LINE(SFX, T, LT)                                                        \
  NDT_DP_SORT(SFX, T, LT)                                                              \
  NDT_DP_SELECT(SFX, T, LT)                                                            \
  NDT_HD void ndt_dp_line_##SFX(const ndt_dk_run *r, int64_t i, int wix) {             \
    const int64_t n = r->cols, nk = r->rs[3];                                          \
    const int64_t *kth = (const int64_t *)r->p[3];                                     \
    const char *in = r->p[0] + i * r->rs[0];                                           \
    char *out = r->p[1] + i * r->rs[1];                                                \
    int64_t *ix = (int64_t *)(r->p[2] + i * r->rs[2]), *it = ix + n;                   \
    T *k = (T *)(it + n), *kt = k + n;                                                 \
    for (int64_t j = 0; j < n; j++) {                                                  \
      memcpy(&k[j], in + j * r->cs[0], sizeof(T));                                     \
      ix[j] = j;                                                                       \
    }                                                                                  \
    int64_t lo = 0, splits[NDT_DP_MAXSPLIT];                                           \
    int ns = 0;                                                                        \
    for (int64_t q = 0; q < nk; lo = kth[q++] + 1) {                                   \
      int64_t hi = n;                                                                  \
      for (int u = 0; u < ns; u++)                                                     \
        if (splits[u] > kth[q] && splits[u] < hi) hi = splits[u];                      \
      ndt_dp_select_##SFX(k, ix, lo, hi, kth[q], splits, &ns, kt, it);                 \
    }                                                                                  \
    for (int64_t j = 0; j < n; j++)                                                    \
      if (wix) memcpy(out + j * r->cs[1], &ix[j], 8);                                  \
      else memcpy(out + j * r->cs[1], &k[j], sizeof(T));                               \
  }
NDT_ORDER_TYPES(NDT_DP_LINE)
#undef NDT_DP_SWAP

NDT_HD void ndt_dp_item(const ndt_dk_run *r, int aux, int64_t i) {
  const int wix = (aux >> 4) & 1;
  switch (aux & 15) {
    case NDT_BOOL: ndt_dp_line_b(r, i, wix); break;
    case NDT_INT8: ndt_dp_line_i8(r, i, wix); break;
    case NDT_INT16: ndt_dp_line_i16(r, i, wix); break;
    case NDT_INT32: ndt_dp_line_i32(r, i, wix); break;
    case NDT_INT64: ndt_dp_line_i64(r, i, wix); break;
    case NDT_UINT8: ndt_dp_line_u8(r, i, wix); break;
    case NDT_UINT16: ndt_dp_line_u16(r, i, wix); break;
    case NDT_UINT32: ndt_dp_line_u32(r, i, wix); break;
    case NDT_UINT64: ndt_dp_line_u64(r, i, wix); break;
    case NDT_FLOAT32: ndt_dp_line_f32(r, i, wix); break;
    case NDT_FLOAT64: ndt_dp_line_f64(r, i, wix); break;
    case NDT_COMPLEX64: ndt_dp_line_c64(r, i, wix); break;
    case NDT_COMPLEX128: ndt_dp_line_c128(r, i, wix); break;
    default: break;
  }
}

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

NDT_DK_BODY void ndt_dp_k_body(const ndt_dk_launch *L, unsigned *flags, ndt_dk_grid g) {
  const ndt_dk_run *r = &L->run[g.by];
  (void)flags;
  if (r->cols <= 0) return;
  for (int64_t e = g.bx * g.ntx + g.tx; e < r->rows; e += g.nbx * g.ntx) ndt_dp_item(r, L->aux, e);
}
NDT_DK_GLOBAL(ndt_dp_k, 4)

/* ---- the entry point (the plugin's; static in the host test) ----
 * Partitions every line of L's runs (all of one length n, each run's
 * scratch at p[2], its kth at p[3], rs[3] of them) of dtype dt, writing
 * values (wix 0) or int64 indices (wix 1); L->aux is overwritten.
 * 0, or -1 for a launch the kernel does not take. */
NDT_DK_ENTRY(int) ndt__dk_partition(int dt, int wix, ndt_dk_launch *L, void *stream) {
  if (dt < 0 || dt >= NDT_NTYPES || L->nrun < 1) return L->nrun == 0 ? 0 : -1;
  const int64_t n = L->run[0].cols;
  for (int q = 0; q < L->nrun; q++)
    if (L->run[q].cols != n || L->run[q].rs[2] < ndt_dp_scratch(n, dt) || L->run[q].rs[3] < 0 ||
        L->run[q].rs[3] > NDT_DP_MAXKTH)
      return -1;
  if (n <= 0) return 0;
  L->aux = dt | (wix != 0) << 4;
  ndt_dp_k(L, NULL, stream);
  return 0;
}

#endif
#endif
