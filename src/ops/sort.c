/* sort.c - sort, argsort, partition and argpartition along an axis, with NumPy's ordering (NaNs last,
 * complex lexicographic with NumPy's NaN rules). Every sort is stable, which
 * satisfies every `kind`: an LSD radix sort for integer and float lines of
 * 256 elements or more, a merge sort otherwise (keys alone for sort,
 * (key, index) pairs for argsort): the backend's sort, sort_linear and
 * select kernels (src/kernels/cpu/sort.c).
 *
 * Each 1-d slice along the axis (a "line") is sorted independently. Tasks are
 * blocks of the other axes (tiled by the usual rule, treating a whole line as
 * one element), so every line lies whole inside one task and results do not
 * depend on the number of workers. Each line is gathered into scratch, sorted
 * as (key, index) pairs (keys alone when no indices are wanted: the sort is
 * stable, so the bits are the same, in half the scratch) and written to the
 * result.
 *
 * axis = NDT_AXIS_FLAT sorts the C-order flattened array as one line in a
 * single task. A parallel version (sort per tile, then merge) is a later
 * improvement.
 *
 * partition/argpartition use the same line driver with an introselect per
 * kth (ascending; each selection runs right of the previous one), falling
 * back to the merge sort after 2*log2(n) rounds or for more than MAXKTH kth
 * values (a sorted line is a valid partition). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sort.h"

#define MAXKTH NDT_SORT_MAXKTH
typedef ndt_sort_arg sort_arg;

/* NaNs sort last: each becomes the default quiet NaN (a line of one
 * element is not sorted, as in NumPy). */
static void quiet_nans(ndt_dtype t, char *keys, int64_t n) {
  if (n < 2) return;
  if (t == NDT_FLOAT64) {
    double *k = (double *)keys;
    for (int64_t j = n - 1; j >= 0 && k[j] != k[j]; j--) k[j] = (double)NAN;
  } else if (t == NDT_FLOAT32) {
    float *k = (float *)keys;
    for (int64_t j = n - 1; j >= 0 && k[j] != k[j]; j--) k[j] = NAN;
  }
}

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
  char *kb = per ? ndt__malloc((size_t)n * per) : NULL;
  if (!kb && per) return NDT_ERR_NOMEM;
  char *next = kb;
  int64_t *ix = NULL, *it = NULL;
  char *keys = NULL, *kt = NULL;
  if (wix && !ix_out) { ix = (int64_t *)next; next += 8 * n; }
  if (wix && !part) { it = (int64_t *)next; next += 8 * n; }
  if (!inplace && !keys_in) { keys = next; next += sz * n; }
  if (!part && !kt_out) kt = next;
  ndt_sort_fn fn = ndt__kern->sort(a->in.dtype, wix);
  ndt_select_fn sel = part ? ndt__kern->select(a->in.dtype, wix) : NULL;
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
      if (ndt__kern->sort_linear(a->in.dtype, keys, ix, kt, it, n) != 0) fn(keys, ix, kt, it, n);
    } else {
      /* ascending kth, each searched between the previous kth and the
       * nearest split found so far above it */
      int64_t lo = 0, splits[NDT_SELECT_MAXSPLIT];
      int ns = 0;
      for (int q = 0; q < a->nkth; lo = a->kth[q++] + 1) {
        int64_t hi = n;
        for (int u = 0; u < ns; u++)
          if (splits[u] > a->kth[q] && splits[u] < hi) hi = splits[u];
        sel(keys, ix, lo, hi, a->kth[q], splits, &ns);
      }
    }
    if (a->quiet_nan && !part && !wix) quiet_nans(a->in.dtype, keys, n);
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
  ndt__mfree(kb);
  return NDT_OK;
}

/* Two kinds of one body: a device plugin takes "sort" by its name and
 * leaves "partition" (whose result off the kth positions is the CPU's
 * introselect's) to the CPU. */
static const ndt_task_kind sort_kind = {"sort", {sort_body}, NULL};
static const ndt_task_kind partition_kind = {"partition", {sort_body}, NULL};

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
  if (axis == NDT_AXIS_FLAT) {
    if ((st = ndt_reshape(&flat, a, 1, &a->size))) return st;
    src = flat;
    axis = 0;
  } else {
    if (axis < -a->ndim || axis >= a->ndim) {
      return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", "axis %d is out of bounds for array of dimension %d",
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
        return ndt__error(NDT_ERR_VALUE, "kth(=%lld) out of bounds (%lld)", (long long)kth[q],
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
  st = ndt__array_new(&res, want_indices & 1 ? NDT_INT64 : src->dtype, src->ndim, src->shape, 0);
  if (st || src->size == 0) {
    ndt_free(flat);
    if (st) return st;
    *out = res;
    return NDT_OK;
  }
  ndt_array vin, vout;
  ndt__axis_last(src, axis, &vin);
  ndt__axis_last(res, axis, &vout);
  int64_t n = src->shape[axis];
  ndt_tiling tl;
  ndt__line_tiling(&vin, &tl);
  unsigned fl = tl.ntiles <= 1 && src->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    sort_arg s = {.want_indices = want_indices & 1,
                  .quiet_nan = (want_indices & NDT_SORT_QUIET_NAN) != 0, .nkth = nk};
    memcpy(s.kth, ks, sizeof(int64_t) * (size_t)nk);
    ndt__line_block(&vin, &tl, b, n, &s.in);
    ndt__line_block(&vout, &tl, b, n, &s.out);
    ndt_operand ops[2] = {{&s.in, NDT_READ}, {&s.out, NDT_WRITE}};
    st = ndt__record(nkth >= 0 ? &partition_kind : &sort_kind, nkth >= 0 ? (want_indices & 1 ? "argpartition" : "partition")
                    : (want_indices & 1 ? "argsort" : "sort"), ops, 2, &s, sizeof s, fl);
  }
  ndt_free(flat);
  return ndt__finish(st, res, out);
}

ndt_status ndt_sort(ndt_array **out, const ndt_array *a, int axis, int want_indices) {
  return order_lines(a, axis, want_indices, -1, NULL, out);
}

ndt_status ndt_partition(ndt_array **out, const ndt_array *a, int axis, int nkth,
                         const int64_t *kth, int want_indices) {
  if (nkth < 0) return ndt__error(NDT_ERR_VALUE, "negative number of kth values");
  return order_lines(a, axis, want_indices, nkth, kth, out);
}
