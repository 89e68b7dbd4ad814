/* sort.c - the CPU's line kernels of sort and partition (src/ops/sort.c
 * cuts the work into lines): a stable merge sort of keys or (key, index)
 * pairs, an LSD radix sort of integer and float keys, and an introselect.
 * NumPy's ordering (NaNs last, complex lexicographic with NumPy's NaN
 * rules, order.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "cpu.h"
#include "order.h"
#include "kernels/sort_key.h"

#define RUN 16

/* Sorts keys k[0..n) stably, moving the indices ix along; kt and it are
 * scratch of the same sizes. */
#define DEF_SORT(NAME, T, LT, IX)                                                      \
  static void NAME(void *kv, int64_t *ix, void *ktv, int64_t *it, int64_t n) {         \
    T *k = kv, *kt = ktv;                                                              \
    for (int64_t lo = 0; lo < n; lo += RUN) {                                          \
      int64_t hi = lo + RUN < n ? lo + RUN : n;                                        \
      for (int64_t j = lo + 1; j < hi; j++) {                                          \
        T x = k[j];                                                                    \
        int64_t xi = IX ? ix[j] : 0, m = j;                                            \
        while (m > lo && LT(x, k[m - 1])) {                                            \
          k[m] = k[m - 1];                                                             \
          if (IX) ix[m] = ix[m - 1];                                                   \
          m--;                                                                         \
        }                                                                              \
        k[m] = x;                                                                      \
        if (IX) ix[m] = xi;                                                            \
      }                                                                                \
    }                                                                                  \
    T *src = k, *dst = kt;                                                             \
    int64_t *si = ix, *di = it;                                                        \
    for (int64_t w = RUN; w < n; w *= 2) {                                             \
      for (int64_t lo = 0; lo < n; lo += 2 * w) {                                      \
        int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;   \
        int64_t a = lo, b = mid, o = lo;                                               \
        while (a < mid && b < hi) {                                                    \
          if (LT(src[b], src[a])) {                                                    \
            dst[o] = src[b];                                                           \
            if (IX) di[o] = si[b];                                                     \
            o++;                                                                       \
            b++;                                                                       \
          } else {                                                                     \
            dst[o] = src[a];                                                           \
            if (IX) di[o] = si[a];                                                     \
            o++;                                                                       \
            a++;                                                                       \
          }                                                                            \
        }                                                                              \
        while (a < mid) {                                                              \
          dst[o] = src[a];                                                             \
          if (IX) di[o] = si[a];                                                       \
          o++;                                                                         \
          a++;                                                                         \
        }                                                                              \
        while (b < hi) {                                                               \
          dst[o] = src[b];                                                             \
          if (IX) di[o] = si[b];                                                       \
          o++;                                                                         \
          b++;                                                                         \
        }                                                                              \
      }                                                                                \
      T *t = src; src = dst; dst = t;                                                  \
      int64_t *ti = si; si = di; di = ti;                                              \
    }                                                                                  \
    if (src != k) {                                                                    \
      memcpy(k, src, (size_t)n * sizeof(T));                                           \
      if (IX) memcpy(ix, si, (size_t)n * 8);                                           \
    }                                                                                  \
  }

DEF_SORT(sort_b, uint8_t, LT_NUM, 1)
DEF_SORT(sortk_b, uint8_t, LT_NUM, 0)
DEF_SORT(sort_i8, int8_t, LT_NUM, 1)
DEF_SORT(sortk_i8, int8_t, LT_NUM, 0)
DEF_SORT(sort_i16, int16_t, LT_NUM, 1)
DEF_SORT(sortk_i16, int16_t, LT_NUM, 0)
DEF_SORT(sort_i32, int32_t, LT_NUM, 1)
DEF_SORT(sortk_i32, int32_t, LT_NUM, 0)
DEF_SORT(sort_i64, int64_t, LT_NUM, 1)
DEF_SORT(sortk_i64, int64_t, LT_NUM, 0)
DEF_SORT(sort_u8, uint8_t, LT_NUM, 1)
DEF_SORT(sortk_u8, uint8_t, LT_NUM, 0)
DEF_SORT(sort_u16, uint16_t, LT_NUM, 1)
DEF_SORT(sortk_u16, uint16_t, LT_NUM, 0)
DEF_SORT(sort_u32, uint32_t, LT_NUM, 1)
DEF_SORT(sortk_u32, uint32_t, LT_NUM, 0)
DEF_SORT(sort_u64, uint64_t, LT_NUM, 1)
DEF_SORT(sortk_u64, uint64_t, LT_NUM, 0)
DEF_SORT(sort_f32, float, LT_FLT, 1)
DEF_SORT(sortk_f32, float, LT_FLT, 0)
DEF_SORT(sort_f64, double, LT_FLT, 1)
DEF_SORT(sortk_f64, double, LT_FLT, 0)
DEF_SORT(sort_c64, cpx64, LT_CPX, 1)
DEF_SORT(sortk_c64, cpx64, LT_CPX, 0)
DEF_SORT(sort_c128, cpx128, LT_CPX, 1)
DEF_SORT(sortk_c128, cpx128, LT_CPX, 0)

typedef ndt_sort_fn sort_fn;
static const sort_fn sort_fns[NDT_NTYPES] = {
  sort_b, sort_i8, sort_i16, sort_i32, sort_i64, sort_u8, sort_u16, sort_u32, sort_u64,
  sort_f32, sort_f64, sort_c64, sort_c128};
/* the same without indices (a sort of values: stable, so the same bits) */
static const sort_fn sortk_fns[NDT_NTYPES] = {
  sortk_b, sortk_i8, sortk_i16, sortk_i32, sortk_i64, sortk_u8, sortk_u16, sortk_u32,
  sortk_u64, sortk_f32, sortk_f64, sortk_c64, sortk_c128};

/* ---- LSD radix sort of integer and float keys ---------------------------
 * Stable, so it serves every kind, and linear: a few passes of 8 or 11 bits.
 * Keys become unsigned integers in sort order (src/kernels/sort_key.h, the
 * device's transform too: sign bit flipped, negative floats inverted).
 * Every NaN gets the largest key and both zeros the key of
 * +0.0, so NaNs (last, as NumPy orders them) and zeros keep their input
 * order; a value sort writes their own bits back afterwards (-0.0, NaN
 * payloads). Returns 0, or -1 (out of memory: keys as they were) to fall
 * back to the merge sort. */
#define RADIX_MIN 256

#define DEF_RADIX(NAME, U, BITS, FLT, SIGNED, INF)                                     \
  static int NAME(void *kv, int64_t *ix, void *ktv, int64_t *it, int64_t n) {         \
    U *k = kv, *kt = ktv;                                                             \
    const U sign = (U)((U)1 << (BITS - 1)), inf = (U)(INF);                           \
    enum { D = BITS <= 16 ? 8 : 11, NP = (BITS + D - 1) / D };                        \
    int64_t *cnt = ndt__malloc(sizeof(int64_t) * NP * ((size_t)1 << D));              \
    if (!cnt) return -1;                                                              \
    int64_t nneg = 0, nspec = 0, nnan = 0;                                            \
    int negzero = 0;                                                                  \
    for (int64_t i = 0; i < n; i++) {                                                 \
      U u = k[i];                                                                     \
      if (FLT) {                                                                      \
        U mag = u & (U)~sign;                                                         \
        if (mag > inf || mag == 0) {   /* NaN or zero: its bits wait in kt */        \
          kt[nspec++] = u;                                                            \
          nnan += mag != 0;                                                           \
          negzero |= mag == 0 && u != 0;                                              \
        } else {                                                                      \
          nneg += (u & sign) != 0;                                                    \
        }                                                                             \
      }                                                                               \
      k[i] = (U)ndt_sk_key(u, BITS, FLT, SIGNED);                                     \
    }                                                                                 \
    U *keep = NULL;                                                                   \
    int64_t nkeep = !ix && (negzero || nnan) ? nspec : 0;                             \
    if (nkeep && !(keep = ndt__malloc(sizeof(U) * (size_t)nkeep))) {                   \
      /* undo the transform (zeros and NaNs from kt, in order); merge sort it */     \
      for (int64_t i = 0, q = 0; i < n; i++) {                                        \
        U u = k[i];                                                                   \
        if (FLT && (u == sign || u == (U)~(U)0)) u = kt[q++];                         \
        else u = (U)ndt_sk_unkey(u, BITS, FLT, SIGNED);                               \
        k[i] = u;                                                                     \
      }                                                                               \
      ndt__mfree(cnt);                                                                 \
      return -1;                                                                      \
    }                                                                                 \
    if (nkeep) memcpy(keep, kt, sizeof(U) * (size_t)nkeep);                           \
    memset(cnt, 0, sizeof(int64_t) * NP * ((size_t)1 << D));                          \
    for (int64_t i = 0; i < n; i++)                                                   \
      for (int p = 0; p < NP; p++)                                                    \
        cnt[((size_t)p << D) + ((k[i] >> (p * D)) & ((1u << D) - 1))]++;              \
    U *src = k, *dst = kt;                                                            \
    int64_t *si = ix, *di = it;                                                       \
    for (int p = 0; p < NP; p++) {                                                    \
      int64_t *c = cnt + ((size_t)p << D), sum = 0;                                   \
      int skip = 0;                                                                   \
      for (int d = 0; d < (1 << D); d++) {                                            \
        skip |= c[d] == n;   /* every key has this digit: nothing moves */          \
        int64_t t = c[d];                                                             \
        c[d] = sum;                                                                   \
        sum += t;                                                                     \
      }                                                                               \
      if (skip) continue;                                                             \
      for (int64_t i = 0; i < n; i++) {                                               \
        int64_t o = c[(src[i] >> (p * D)) & ((1u << D) - 1)]++;                       \
        dst[o] = src[i];                                                              \
        if (si) di[o] = si[i];                                                        \
      }                                                                               \
      U *t = src; src = dst; dst = t;                                                 \
      int64_t *ti = si; si = di; di = ti;                                             \
    }                                                                                 \
    ndt__mfree(cnt);                                                                   \
    if (src != k) {                                                                   \
      memcpy(k, src, (size_t)n * sizeof(U));                                          \
      if (ix) memcpy(ix, si, (size_t)n * 8);                                          \
    }                                                                                 \
    for (int64_t i = 0; i < n; i++) {                                                 \
      k[i] = (U)ndt_sk_unkey(k[i], BITS, FLT, SIGNED);                                \
    }                                                                                 \
    /* zeros sit after the nneg negatives, NaNs last, each in input order */        \
    for (int64_t q = 0, z = nneg, m = n - nnan; q < nkeep; q++)                       \
      k[(keep[q] & (U)~sign) == 0 ? z++ : m++] = keep[q];                             \
    ndt__mfree(keep);                                                                  \
    return 0;                                                                         \
  }

DEF_RADIX(radix_u8, uint8_t, 8, 0, 0, 0)
DEF_RADIX(radix_i8, uint8_t, 8, 0, 1, 0)
DEF_RADIX(radix_u16, uint16_t, 16, 0, 0, 0)
DEF_RADIX(radix_i16, uint16_t, 16, 0, 1, 0)
DEF_RADIX(radix_u32, uint32_t, 32, 0, 0, 0)
DEF_RADIX(radix_i32, uint32_t, 32, 0, 1, 0)
DEF_RADIX(radix_u64, uint64_t, 64, 0, 0, 0)
DEF_RADIX(radix_i64, uint64_t, 64, 0, 1, 0)
DEF_RADIX(radix_f32, uint32_t, 32, 1, 0, 0x7F800000u)
DEF_RADIX(radix_f64, uint64_t, 64, 1, 0, 0x7FF0000000000000ull)

typedef int (*radix_fn)(void *, int64_t *, void *, int64_t *, int64_t);
static const radix_fn radix_fns[NDT_NTYPES] = {
  radix_u8, radix_i8, radix_i16, radix_i32, radix_i64, radix_u8, radix_u16, radix_u32,
  radix_u64, radix_f32, radix_f64, NULL, NULL};

/* Introselect: moves keys so that k[kk] is the element a full sort would put
 * there, keys before it not greater and keys after it not less (moving the
 * indices along when IX). Quickselect with a median-of-three pivot and Hoare
 * partitioning on [lo, hi); after 2*log2(n) rounds without reaching a small
 * range it merge-sorts what is left. Every upper bound it narrows to is a
 * split of the whole line (all before <= all after); they are appended to
 * splits[] (up to MAXSPLIT) so that later, larger kth search less. */
#define MAXSPLIT NDT_SELECT_MAXSPLIT
#define DEF_SELECT(NAME, SFX, T, LT, IX)                                               \
  static void NAME(void *kv, int64_t *ix, int64_t lo, int64_t hi, int64_t kk,          \
                   int64_t *splits, int *ns) {                                         \
    T *k = kv, x;                                                                      \
    int64_t xi = 0, depth = 2;                                                         \
    for (int64_t m = hi - lo; m > 1; m >>= 1) depth += 2;                              \
    while (hi - lo > RUN) {                                                            \
      if (depth-- == 0) {                                                              \
        int64_t m = hi - lo;                                                           \
        char *tmp = ndt__malloc((size_t)m * (sizeof(T) + (IX ? 16 : 24)));              \
        if (tmp) {                                                                     \
          int64_t *it = (int64_t *)tmp, *ti = IX ? ix + lo : it + m;                   \
          if (!IX) for (int64_t a = 0; a < m; a++) ti[a] = a;                          \
          sort_##SFX(k + lo, ti, it + (IX ? m : 2 * m), it, m);                        \
          ndt__mfree(tmp);                                                              \
          return;                                                                      \
        }                                                                              \
        depth = INT64_MAX;   /* no memory: go on without the bound */                  \
      }                                                                                \
      int64_t mid = lo + (hi - lo - 1) / 2, last = hi - 1;                             \
      if (LT(k[mid], k[lo])) SWAP(mid, lo, IX);                                        \
      if (LT(k[last], k[mid])) {                                                       \
        SWAP(last, mid, IX);                                                           \
        if (LT(k[mid], k[lo])) SWAP(mid, lo, IX);                                      \
      }                                                                                \
      T p = k[mid];                                                                    \
      int64_t i = lo - 1, j = hi;                                                      \
      for (;;) {                                                                       \
        do i++; while (LT(k[i], p));                                                   \
        do j--; while (LT(p, k[j]));                                                   \
        if (i >= j) break;                                                             \
        SWAP(i, j, IX);                                                                \
      }                                                                                \
      if (kk <= j) {                                                                   \
        hi = j + 1;                                                                    \
        if (*ns < MAXSPLIT) splits[(*ns)++] = hi;                                      \
      } else {                                                                         \
        lo = j + 1;                                                                    \
      }                                                                                \
    }                                                                                  \
    for (int64_t a = lo + 1; a < hi; a++) {                                            \
      x = k[a];                                                                        \
      if (IX) xi = ix[a];                                                              \
      int64_t m = a;                                                                   \
      while (m > lo && LT(x, k[m - 1])) {                                              \
        k[m] = k[m - 1];                                                               \
        if (IX) ix[m] = ix[m - 1];                                                     \
        m--;                                                                           \
      }                                                                                \
      k[m] = x;                                                                        \
      if (IX) ix[m] = xi;                                                              \
    }                                                                                  \
  }
#define SWAP(a_, b_, IX)                                                               \
  do {                                                                                 \
    x = k[a_]; k[a_] = k[b_]; k[b_] = x;                                               \
    if (IX) { xi = ix[a_]; ix[a_] = ix[b_]; ix[b_] = xi; }                             \
  } while (0)
#define X(SFX, T, LT) DEF_SELECT(select_##SFX, SFX, T, LT, 1) \
                      DEF_SELECT(selectk_##SFX, SFX, T, LT, 0)
NDT_ORDER_TYPES(X)
#undef X
#undef SWAP

typedef ndt_select_fn select_fn;
static const select_fn select_fns[2][NDT_NTYPES] = {
  {selectk_b, selectk_i8, selectk_i16, selectk_i32, selectk_i64, selectk_u8, selectk_u16,
   selectk_u32, selectk_u64, selectk_f32, selectk_f64, selectk_c64, selectk_c128},
  {select_b, select_i8, select_i16, select_i32, select_i64, select_u8, select_u16, select_u32,
   select_u64, select_f32, select_f64, select_c64, select_c128}};
ndt_sort_fn ndt__cpu_sort(ndt_dtype t, int indices) { return (indices ? sort_fns : sortk_fns)[t]; }

int ndt__cpu_sort_linear(ndt_dtype t, void *k, int64_t *ix, void *kt, int64_t *it, int64_t n) {
  if (n < RADIX_MIN || !radix_fns[t]) return -1;
  return radix_fns[t](k, ix, kt, it, n);
}

ndt_select_fn ndt__cpu_select(ndt_dtype t, int indices) { return select_fns[indices != 0][t]; }
