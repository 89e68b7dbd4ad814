/* convolve.c - 1-d correlation by the direct sum (NumPy's method), and the
 * two small companions the Python rearranging functions need: a diagonal
 * view and a flat-index scatter (put).
 *
 * ndt_correlate: one task per tile of the result. A task reads the part of
 * `a` its outputs overlap (gathered into contiguous scratch) and all of `v`,
 * and accumulates out[i] += a[lag0+i+j] * v[j] for j = 0, 1, ... in that
 * order, so every output has one fixed summation order whatever the tiling,
 * workers or ranks; the inner loop runs over i, which vectorizes. */
#include <string.h>
#include "exec.h"

typedef struct {
  ndt_array a, v, out;   /* out: this block of the result */
  int64_t lag0, i0;      /* lag of out[0]; index of the block's first output */
  int conj;
} corr_arg;

/* Copies a bound 1-d view of n elements of size isz into contiguous dst;
 * complex ones (split != 0) as all real parts, then all imaginary parts. */
static void pack(const ndt_bound *b, int64_t n, int isz, int split, char *dst) {
  if (!split) {
    for (int64_t k = 0; k < n; k++) memcpy(dst + k * isz, b->ptr + k * b->st[0], isz);
    return;
  }
  int h = isz / 2;
  for (int64_t k = 0; k < n; k++) {
    memcpy(dst + k * h, b->ptr + k * b->st[0], h);
    memcpy(dst + (n + k) * h, b->ptr + k * b->st[0] + h, h);
  }
}

static ndt_status corr_task(void *p, int worker) {
  NDT_UNUSED(worker);
  const corr_arg *g = p;
  int isz = ndt_vsize(&g->out);
  int cpx = g->out.dtype == NDT_COMPLEX64 || g->out.dtype == NDT_COMPLEX128;
  int64_t na = g->a.shape[0], m = g->v.shape[0], n = g->out.shape[0];
  int64_t first = g->lag0 + g->i0;            /* a index of out[0] + v[0] */
  int64_t alo = first > 0 ? first : 0, ahi = first + n - 1 + m;
  if (ahi > na) ahi = na;
  if (alo > ahi) alo = ahi;
  ndt_array ar = g->a;
  ar.offset += alo * ar.strides[0];
  ar.shape[0] = ahi - alo;
  ar.size = ahi - alo;
  char *abuf = ndt_malloc((size_t)(ahi - alo + 1) * isz);
  char *vbuf = ndt_malloc((size_t)(m + 1) * isz);
  ndt_bound bo, ba, bv;
  ndt_status st = (!abuf || !vbuf) ? NDT_ERR_NOMEM : ndt_bind(&g->out, &bo, 0);
  if (st) {
    ndt_mfree(abuf);
    ndt_mfree(vbuf);
    return st;
  }
  if (ar.size) {
    st = ndt_bind(&ar, &ba, 1);
    if (!st) {
      pack(&ba, ar.size, isz, cpx, abuf);
      ndt_unbind(&ar, &ba, 0);
    }
  }
  if (!st) st = ndt_bind(&g->v, &bv, 1);
  if (!st) {
    pack(&bv, m, isz, cpx, vbuf);
    ndt_unbind(&g->v, &bv, 0);
    char *res = bo.st[0] == isz ? bo.ptr : ndt_malloc((size_t)n * isz);
    if (!res) st = NDT_ERR_NOMEM;
    else {
      const void *A = abuf, *V = vbuf;
      void *O = res;
      int cj = g->conj;
      ndt_kern->corr(g->out.dtype)(A, alo, ahi, V, m, first, n, cj, O);
      if (res != bo.ptr) {
        for (int64_t k = 0; k < n; k++) memcpy(bo.ptr + k * bo.st[0], res + k * isz, isz);
        ndt_mfree(res);
      }
    }
  }
  ndt_unbind(&g->out, &bo, st == NDT_OK);
  ndt_mfree(abuf);
  ndt_mfree(vbuf);
  return st;
}

ndt_status ndt_correlate(ndt_array **out, const ndt_array *a, const ndt_array *v, int64_t lag0,
                         int64_t n, int conj) {
  if (a->ndim != 1 || v->ndim != 1)
    return ndt_error(NDT_ERR_VALUE, "correlate: both operands must be 1-d");
  if (a->dtype != v->dtype) return ndt_error(NDT_ERR_TYPE, "correlate: operand dtypes differ");
  switch (a->dtype) {
    case NDT_INT64: case NDT_UINT64: case NDT_FLOAT32: case NDT_FLOAT64:
    case NDT_COMPLEX64: case NDT_COMPLEX128: break;
    default:
      return ndt_error(NDT_ERR_TYPE, "correlate: dtype %s not supported (cast to int64, "
                       "uint64, float or complex)", ndt_traits[a->dtype].name);
  }
  if (n < 0) return ndt_error(NDT_ERR_VALUE, "correlate: negative output length");
  ndt_array *res;
  int64_t shape[1] = {n};
  ndt_status st = ndt_array_new(&res, a->dtype, 1, shape, 0);
  if (st) return st;
  ndt_tiling tl;
  ndt_tiling_for(1, shape, res->store->itemsize, ndt_rt_tile_bytes(), &tl);
  corr_arg g;
  memset(&g, 0, sizeof g);
  g.a = *a;
  g.v = *v;
  g.lag0 = lag0;
  g.conj = conj != 0;
  ndt_store *stores[3] = {a->store, v->store, res->store};
  ndt_access *acc = NULL;
  int nacc, cap = 0;
  int small = tl.ntiles == 1 && n * (v->shape[0] + 1) <= ndt_rt_inline_elems();
  for (int64_t b = 0; b < (n ? tl.ntiles : 0) && st == NDT_OK; b++) {
    ndt_block_view(res, &tl, b, &g.out);
    g.i0 = ndt_block_first(&tl, b);
    int64_t first = lag0 + g.i0, alo = first > 0 ? first : 0;
    int64_t ahi = first + g.out.shape[0] - 1 + v->shape[0];
    if (ahi > a->shape[0]) ahi = a->shape[0];
    nacc = 0;
    if (alo < ahi) {
      ndt_array ar = *a;
      ar.offset += alo * ar.strides[0];
      ar.shape[0] = ar.size = ahi - alo;
      st = ndt_add_access(&acc, &nacc, &cap, &ar, NDT_READ);
    }
    if (!st && v->size) st = ndt_add_access(&acc, &nacc, &cap, v, NDT_READ);
    if (!st) st = ndt_add_access(&acc, &nacc, &cap, &g.out, NDT_WRITE);
    if (!st)
      st = ndt_submit("correlate", corr_task, &g, sizeof g, acc, nacc, stores, 3, small);
  }
  ndt_mfree(acc);
  return ndt_finish(st, res, out);
}

/* ---- diagonal view --------------------------------------------------- */
ndt_status ndt_diagonal(ndt_array **out, const ndt_array *a, int64_t offset, int ax1, int ax2) {
  int n = a->ndim;
  if (n < 2) return ndt_error(NDT_ERR_VALUE, "diag requires an array of at least two dimensions");
  if (ax1 < -n || ax1 >= n)
    return ndt_error(NDT_ERR_AXIS, "axis1: axis %d is out of bounds for array of dimension %d",
                     ax1, n);
  if (ax2 < -n || ax2 >= n)
    return ndt_error(NDT_ERR_AXIS, "axis2: axis %d is out of bounds for array of dimension %d",
                     ax2, n);
  if (ax1 < 0) ax1 += n;
  if (ax2 < 0) ax2 += n;
  if (ax1 == ax2) return ndt_error(NDT_ERR_VALUE, "axis1 and axis2 cannot be the same");
  int64_t n1 = a->shape[ax1], n2 = a->shape[ax2], len, r0 = 0, c0 = 0;
  if (offset >= 0) {
    len = n2 - offset < n1 ? n2 - offset : n1;
    c0 = offset;
  } else {
    len = n1 + offset < n2 ? n1 + offset : n2;
    r0 = -offset;
  }
  if (len < 0) len = 0;
  ndt_array *v;
  ndt_status st = ndt_array_view(&v, a);
  if (st) return st;
  if (len > 0) v->offset += r0 * a->strides[ax1] + c0 * a->strides[ax2];
  int k = 0;
  int64_t size = 1;
  for (int d = 0; d < n; d++) {
    if (d == ax1 || d == ax2) continue;
    v->shape[k] = a->shape[d];
    v->strides[k] = a->strides[d];
    size *= a->shape[d];
    k++;
  }
  v->shape[k] = len;
  v->strides[k] = a->strides[ax1] + a->strides[ax2];
  v->ndim = n - 1;
  v->size = size * len;
  *out = v;
  return NDT_OK;
}

/* ---- put: a.flat[idx[k]] = vals[k], in order ---------------------------- */
/* One task per tile of a's store that the view touches: each scans all the
 * indices in order and writes those that land in its tile, so repeated
 * indices keep the last value, tiles are written in parallel and, on many
 * ranks, by their owners. When that scan would cost much more than the
 * target's size (many indices into many tiles), one task scans once. */
typedef struct {
  ndt_array a, idx, vals;
  int64_t lo, hi;          /* store offsets this task writes: [lo, hi) */
} put_arg;

static ndt_status put_task(void *p, int worker) {
  NDT_UNUSED(worker);
  const put_arg *g = p;
  int isz = ndt_vsize(&g->a), ssz = g->a.store->itemsize, nd = g->a.ndim;
  int64_t n = g->idx.shape[0], size = g->a.size;
  ndt_bound bi, bv;
  ndt_status st = ndt_bind(&g->idx, &bi, 1);
  if (st) return st;
  /* every index is checked first: a bad one writes nothing */
  for (int64_t e = 0; e < n; e++) {
    int64_t f;
    memcpy(&f, bi.ptr + e * bi.st[0], 8);
    if (f < 0 || f >= size) {
      ndt_unbind(&g->idx, &bi, 0);
      return ndt_error(NDT_ERR_INDEX, "index %lld is out of bounds for axis 0 with size %lld",
                       (long long)f, (long long)size);
    }
  }
  if ((st = ndt_bind(&g->vals, &bv, 1))) {
    ndt_unbind(&g->idx, &bi, 0);
    return st;
  }
  /* each element is written in place in the tile that holds it */
  const ndt_store *s = g->a.store;
  for (int64_t e = 0; e < n; e++) {
    int64_t f;
    memcpy(&f, bi.ptr + e * bi.st[0], 8);
    int64_t off = g->a.offset;
    for (int d = nd - 1; d >= 0; d--) {
      off += (f % g->a.shape[d]) * g->a.strides[d];
      f /= g->a.shape[d];
    }
    if (off < g->lo || off >= g->hi) continue;
    const ndt_tile *t = &s->tiles[ndt_store_tile_of(s, off)];
    memcpy(t->data + (off - t->start) * ssz + g->a.part, bv.ptr + e * bv.st[0], isz);
  }
  ndt_unbind(&g->vals, &bv, 0);
  ndt_unbind(&g->idx, &bi, 0);
  return NDT_OK;
}

ndt_status ndt_put(ndt_array *a, const ndt_array *idx, const ndt_array *vals) {
  if (a->readonly) return ndt_error(NDT_ERR_VALUE, "put: output array is read-only");
  if (idx->ndim != 1 || vals->ndim != 1 || idx->shape[0] != vals->shape[0])
    return ndt_error(NDT_ERR_SHAPE, "put: idx and vals must be 1-d of one length");
  if (idx->dtype != NDT_INT64) return ndt_error(NDT_ERR_TYPE, "put: idx must be int64");
  if (vals->dtype != a->dtype) return ndt_error(NDT_ERR_TYPE, "put: vals must have a's dtype");
  if (idx->shape[0] == 0) return NDT_OK;
  if (a->size == 0)
    return ndt_error(NDT_ERR_INDEX, "cannot replace elements of an empty array");
  put_arg g;
  g.a = *a;
  g.idx = *idx;
  g.vals = *vals;
  ndt_store *stores[3] = {a->store, idx->store, vals->store};
  int64_t lo, hi, nidx = idx->shape[0];
  ndt_view_extent(a, &lo, &hi);
  const ndt_store *s = a->store;
  int64_t t0 = ndt_store_tile_of(s, lo), t1 = ndt_store_tile_of(s, hi), nt = t1 - t0 + 1;
  int per_tile = nt > 1 && (double)nt * (double)nidx <= 4.0 * (double)(a->size + (1 << 20));
  int small = a->size + nidx <= ndt_rt_inline_elems();
  ndt_access *acc = NULL;
  int nacc = 0, cap = 0;
  ndt_status st = NDT_OK;
  for (int64_t t = per_tile ? t0 : 0; t <= (per_tile ? t1 : 0) && st == NDT_OK; t++) {
    const ndt_tile *tl = &s->tiles[t];
    g.lo = per_tile ? (lo > tl->start ? lo : tl->start) : lo;
    g.hi = per_tile ? (hi < tl->start + tl->len - 1 ? hi : tl->start + tl->len - 1) + 1 : hi + 1;
    nacc = 0;
    st = ndt_add_access(&acc, &nacc, &cap, idx, NDT_READ);
    if (!st) st = ndt_add_access(&acc, &nacc, &cap, vals, NDT_READ);
    if (!st) st = per_tile ? ndt_add_range(&acc, &nacc, &cap, a->store, g.lo, g.hi - g.lo, NDT_RW)
                           : ndt_add_access(&acc, &nacc, &cap, a, NDT_RW);
    if (!st) st = ndt_submit("put", put_task, &g, sizeof g, acc, nacc, stores, 3,
                             small && !per_tile ? 2 : 0);
  }
  ndt_mfree(acc);
  return st;
}
