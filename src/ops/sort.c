/* sort.c - sort, argsort, partition and argpartition along an axis, with NumPy's ordering (NaNs last,
 * complex lexicographic with NumPy's NaN rules). Every sort is stable, which
 * satisfies every `kind`: an LSD radix sort for integer and float lines of
 * RADIX_MIN elements or more, a merge sort otherwise (keys alone for sort,
 * (key, index) pairs for argsort).
 *
 * Each 1-d slice along the axis (a "line") is sorted independently. Tasks are
 * blocks of the other axes (tiled by the usual rule, treating a whole line as
 * one element), so every line lies whole inside one task and results do not
 * depend on the number of workers. Each line is gathered into scratch, sorted
 * as (key, index) pairs (keys alone when no indices are wanted: the sort is
 * stable, so the bits are the same, in half the scratch) and written to the
 * result.
 *
 * axis = NDT_SORT_FLATTEN sorts the C-order flattened array as one line in a
 * single task. A parallel version (sort per tile, then merge) is a later
 * improvement.
 *
 * partition/argpartition use the same line driver with an introselect per
 * kth (ascending; each selection runs right of the previous one), falling
 * back to the merge sort after 2*log2(n) rounds or for more than MAXKTH kth
 * values (a sorted line is a valid partition). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "order.h"

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

typedef void (*sort_fn)(void *, int64_t *, void *, int64_t *, int64_t);
static const sort_fn sort_fns[NDT_NTYPES] = {
  sort_b, sort_i8, sort_i16, sort_i32, sort_i64, sort_u8, sort_u16, sort_u32, sort_u64,
  sort_f32, sort_f64, sort_c64, sort_c128};
/* the same without indices (a sort of values: stable, so the same bits) */
static const sort_fn sortk_fns[NDT_NTYPES] = {
  sortk_b, sortk_i8, sortk_i16, sortk_i32, sortk_i64, sortk_u8, sortk_u16, sortk_u32,
  sortk_u64, sortk_f32, sortk_f64, sortk_c64, sortk_c128};

/* ---- LSD radix sort of integer and float keys ---------------------------
 * Stable, so it serves every kind, and linear: a few passes of 8 or 11 bits.
 * Keys become unsigned integers in sort order (sign bit flipped, negative
 * floats inverted). Every NaN gets the largest key and both zeros the key of
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
    int64_t *cnt = ndt_malloc(sizeof(int64_t) * NP * ((size_t)1 << D));              \
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
          u = mag ? (U)~(U)0 : sign;                                                  \
        } else {                                                                      \
          nneg += (u & sign) != 0;                                                    \
          u = (u & sign) ? (U)~u : (U)(u | sign);                                     \
        }                                                                             \
      } else if (SIGNED) {                                                            \
        u ^= sign;                                                                    \
      }                                                                               \
      k[i] = u;                                                                       \
    }                                                                                 \
    U *keep = NULL;                                                                   \
    int64_t nkeep = !ix && (negzero || nnan) ? nspec : 0;                             \
    if (nkeep && !(keep = ndt_malloc(sizeof(U) * (size_t)nkeep))) {                   \
      /* undo the transform (zeros and NaNs from kt, in order); merge sort it */     \
      for (int64_t i = 0, q = 0; i < n; i++) {                                        \
        U u = k[i];                                                                   \
        if (FLT && (u == sign || u == (U)~(U)0)) u = kt[q++];                         \
        else if (FLT) u = (u & sign) ? (U)(u ^ sign) : (U)~u;                         \
        else if (SIGNED) u ^= sign;                                                   \
        k[i] = u;                                                                     \
      }                                                                               \
      ndt_mfree(cnt);                                                                 \
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
    ndt_mfree(cnt);                                                                   \
    if (src != k) {                                                                   \
      memcpy(k, src, (size_t)n * sizeof(U));                                          \
      if (ix) memcpy(ix, si, (size_t)n * 8);                                          \
    }                                                                                 \
    for (int64_t i = 0; i < n; i++) {                                                 \
      U u = k[i];                                                                     \
      if (FLT) u = (u & sign) ? (U)(u ^ sign) : (U)~u;                                \
      else if (SIGNED) u ^= sign;                                                     \
      k[i] = u;                                                                       \
    }                                                                                 \
    /* zeros sit after the nneg negatives, NaNs last, each in input order */        \
    for (int64_t q = 0, z = nneg, m = n - nnan; q < nkeep; q++)                       \
      k[(keep[q] & (U)~sign) == 0 ? z++ : m++] = keep[q];                             \
    ndt_mfree(keep);                                                                  \
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
#define MAXSPLIT 128
#define DEF_SELECT(NAME, SFX, T, LT, IX)                                               \
  static void NAME(void *kv, int64_t *ix, int64_t lo, int64_t hi, int64_t kk,          \
                   int64_t *splits, int *ns) {                                         \
    T *k = kv, x;                                                                      \
    int64_t xi = 0, depth = 2;                                                         \
    for (int64_t m = hi - lo; m > 1; m >>= 1) depth += 2;                              \
    while (hi - lo > RUN) {                                                            \
      if (depth-- == 0) {                                                              \
        int64_t m = hi - lo;                                                           \
        char *tmp = ndt_malloc((size_t)m * (sizeof(T) + (IX ? 16 : 24)));              \
        if (tmp) {                                                                     \
          int64_t *it = (int64_t *)tmp, *ti = IX ? ix + lo : it + m;                   \
          if (!IX) for (int64_t a = 0; a < m; a++) ti[a] = a;                          \
          sort_##SFX(k + lo, ti, it + (IX ? m : 2 * m), it, m);                        \
          ndt_mfree(tmp);                                                              \
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

typedef void (*select_fn)(void *, int64_t *, int64_t, int64_t, int64_t, int64_t *, int *);
static const select_fn select_fns[2][NDT_NTYPES] = {
  {selectk_b, selectk_i8, selectk_i16, selectk_i32, selectk_i64, selectk_u8, selectk_u16,
   selectk_u32, selectk_u64, selectk_f32, selectk_f64, selectk_c64, selectk_c128},
  {select_b, select_i8, select_i16, select_i32, select_i64, select_u8, select_u16, select_u32,
   select_u64, select_f32, select_f64, select_c64, select_c128}};

/* More kth values than this sort the whole line (a valid partition). */
#define MAXKTH 32

typedef struct {
  ndt_array in, out;   /* block views, the sort axis last */
  int want_indices;
  int nkth;            /* partition: kth values (ascending, distinct); 0 sorts */
  int64_t kth[MAXKTH];
} sort_arg;

/* Operands: in (read), out (write). */
static ndt_status sort_body(ndt_bound *op_, void *p) {
  const sort_arg *a = p;
  const ndt_bound bi = op_[0], bo = op_[1];
  int nd = a->in.ndim, sz = ndt_vsize(&a->in), osz = ndt_vsize(&a->out);
  int64_t n = a->in.shape[nd - 1], lines = a->in.size / n;
  int64_t is = bi.st[nd - 1], os = bo.st[nd - 1];
  /* sort: keys, indices and scratch for both; partition: keys (and indices
   * for argpartition) only */
  int part = a->nkth > 0, wix = a->want_indices;
  /* partition of values into a contiguous output: select in the output */
  int inplace = part && !wix && os == sz && osz == sz;
  /* A sort reuses what it already holds: the input's gathered copy (private
   * to this task) as the keys, and a contiguous output line as the value
   * sort's scratch or the argsort's indices. A sort of a 10^7 float64 line
   * then needs no buffer of its own (the output's gathered copy is the
   * scratch). */
  int keys_in = !part && bi.scratch && is == sz;
  int kt_out = !part && !wix && os == sz && osz == sz;
  int ix_out = !part && wix && os == 8;
  size_t per = 0;
  if (part) per = inplace ? 0 : (size_t)sz + (wix ? 8 : 0);
  else per = (keys_in ? 0 : (size_t)sz) + (kt_out ? 0 : (size_t)sz) +
             (wix ? (ix_out ? 8 : 16) : 0);
  char *kb = per ? ndt_malloc((size_t)n * per) : NULL;
  if (!kb && per) return NDT_ERR_NOMEM;
  char *next = kb;
  int64_t *ix = NULL, *it = NULL;
  char *keys = NULL, *kt = NULL;
  if (wix && !ix_out) { ix = (int64_t *)next; next += 8 * n; }
  if (wix && !part) { it = (int64_t *)next; next += 8 * n; }
  if (!inplace && !keys_in) { keys = next; next += sz * n; }
  if (!part && !kt_out) kt = next;
  sort_fn fn = (wix ? sort_fns : sortk_fns)[a->in.dtype];
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t l = 0; l < lines; l++) {
    const char *ip = bi.ptr;
    char *op = bo.ptr;
    for (int k = 0; k < nd - 1; k++) {
      ip += idx[k] * bi.st[k];
      op += idx[k] * bo.st[k];
    }
    if (inplace) keys = op;
    if (keys_in) keys = (char *)ip;
    if (kt_out) kt = op;
    if (ix_out) ix = (int64_t *)op;
    if (keys != ip) {
      if (is == sz) memcpy(keys, ip, (size_t)(n * sz));
      else
        for (int64_t j = 0; j < n; j++) memcpy(keys + j * sz, ip + j * is, (size_t)sz);
    }
    if (wix)
      for (int64_t j = 0; j < n; j++) ix[j] = j;
    if (!part) {
      if (n < RADIX_MIN || !radix_fns[a->in.dtype] ||
          radix_fns[a->in.dtype](keys, ix, kt, it, n) != 0)
        fn(keys, ix, kt, it, n);
    } else {
      /* ascending kth, each searched between the previous kth and the
       * nearest split found so far above it */
      int64_t lo = 0, splits[MAXSPLIT];
      int ns = 0;
      for (int q = 0; q < a->nkth; lo = a->kth[q++] + 1) {
        int64_t hi = n;
        for (int u = 0; u < ns; u++)
          if (splits[u] > a->kth[q] && splits[u] < hi) hi = splits[u];
        select_fns[wix][a->in.dtype](keys, ix, lo, hi, a->kth[q], splits, &ns);
      }
    }
    if (a->want_indices) {
      if ((char *)ix != op)
        for (int64_t j = 0; j < n; j++) memcpy(op + j * os, &ix[j], 8);
    } else if (inplace)
      ;
    else if (os == osz && osz == sz)
      memcpy(op, keys, (size_t)(n * sz));
    else
      for (int64_t j = 0; j < n; j++) memcpy(op + j * os, keys + j * sz, (size_t)osz);
    for (int k = nd - 2; k >= 0; k--) {
      if (++idx[k] < a->in.shape[k]) break;
      idx[k] = 0;
    }
  }
  ndt_mfree(kb);
  return NDT_OK;
}

static const ndt_task_kind sort_kind = {"sort", {sort_body}};

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

/* Sort (nkth < 0) or partition around kth[0..nkth) along axis. */
static ndt_status order_lines(const ndt_array *a, int axis, int want_indices, int nkth,
                              const int64_t *kth, ndt_array **out) {
  ndt_status st;
  ndt_array *flat = NULL;
  const ndt_array *src = a;
  if (axis == NDT_SORT_FLATTEN) {
    if ((st = ndt_reshape(&flat, a, 1, &a->size))) return st;
    src = flat;
    axis = 0;
  } else {
    if (axis < -a->ndim || axis >= a->ndim) {
      return ndt_error(NDT_ERR_AXIS, "axis %d is out of bounds for array of dimension %d",
                       axis, a->ndim);
    }
    if (axis < 0) axis += a->ndim;
  }
  int64_t ks[MAXKTH];
  int nk = 0;
  if (nkth >= 0) {
    int64_t len = src->shape[axis];
    for (int q = 0; q < nkth; q++) {
      int64_t k = kth[q] < 0 ? kth[q] + len : kth[q];
      if (k < 0 || k >= len) {
        ndt_free(flat);
        return ndt_error(NDT_ERR_VALUE, "kth(=%lld) out of bounds (%lld)", (long long)kth[q],
                         (long long)len);
      }
      if (nk < MAXKTH) ks[nk] = k;
      nk++;
    }
    if (nk > MAXKTH) {
      nk = 0;   /* many kth: a full sort is a valid partition */
    } else {
      qsort(ks, (size_t)nk, sizeof *ks, cmp_i64);
      int u = 0;
      for (int q = 0; q < nk; q++)
        if (u == 0 || ks[q] != ks[u - 1]) ks[u++] = ks[q];
      nk = u;
    }
  }
  ndt_array *res = NULL;
  st = ndt_array_new(&res, want_indices ? NDT_INT64 : src->dtype, src->ndim, src->shape, 0);
  if (st || src->size == 0) {
    ndt_free(flat);
    if (st) return st;
    *out = res;
    return NDT_OK;
  }
  ndt_array vin, vout;
  ndt_axis_last(src, axis, &vin);
  ndt_axis_last(res, axis, &vout);
  int64_t n = src->shape[axis];
  ndt_tiling tl;
  ndt_line_tiling(&vin, &tl);
  unsigned fl = tl.ntiles <= 1 && src->size <= ndt_rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    sort_arg s = {.want_indices = want_indices, .nkth = nk};
    memcpy(s.kth, ks, sizeof(int64_t) * (size_t)nk);
    ndt_line_block(&vin, &tl, b, n, &s.in);
    ndt_line_block(&vout, &tl, b, n, &s.out);
    ndt_operand ops[2] = {{&s.in, NDT_READ}, {&s.out, NDT_WRITE}};
    st = ndt_record(&sort_kind, nkth >= 0 ? (want_indices ? "argpartition" : "partition")
                    : (want_indices ? "argsort" : "sort"), ops, 2, &s, sizeof s, fl);
  }
  ndt_free(flat);
  return ndt_finish(st, res, out);
}

ndt_status ndt_sort(const ndt_array *a, int axis, int want_indices, ndt_array **out) {
  return order_lines(a, axis, want_indices, -1, NULL, out);
}

ndt_status ndt_partition(const ndt_array *a, int axis, int nkth, const int64_t *kth,
                         int want_indices, ndt_array **out) {
  if (nkth < 0) return ndt_error(NDT_ERR_VALUE, "negative number of kth values");
  return order_lines(a, axis, want_indices, nkth, kth, out);
}
