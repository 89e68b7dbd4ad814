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

/* The part of a that out's block reads: [alo, ahi). */
static void corr_range(const corr_arg *g, int64_t *lo, int64_t *hi) {
  int64_t na = g->a.shape[0], m = g->v.shape[0], n = g->out.shape[0];
  int64_t first = g->lag0 + g->i0;            /* a index of out[0] + v[0] */
  int64_t alo = first > 0 ? first : 0, ahi = first + n - 1 + m;
  if (ahi > na) ahi = na;
  if (alo > ahi) alo = ahi;
  *lo = alo;
  *hi = ahi;
}

/* Operands: out's block (write), the part of a it reads (read), v (read). */
static ndt_status corr_body(ndt_bound *op, void *p) {
  const corr_arg *g = p;
  int isz = ndt_vsize(&g->out);
  int cpx = g->out.dtype == NDT_COMPLEX64 || g->out.dtype == NDT_COMPLEX128;
  int64_t na = g->a.shape[0], m = g->v.shape[0], n = g->out.shape[0];
  int64_t first = g->lag0 + g->i0;            /* a index of out[0] + v[0] */
  int64_t alo = first > 0 ? first : 0, ahi = first + n - 1 + m;
  if (ahi > na) ahi = na;
  if (alo > ahi) alo = ahi;
  char *abuf = ndt__malloc((size_t)(ahi - alo + 1) * isz);
  char *vbuf = ndt__malloc((size_t)(m + 1) * isz);
  const ndt_bound bo = op[0], ba = op[1], bv = op[2];
  ndt_status st = (!abuf || !vbuf) ? NDT_ERR_NOMEM : NDT_OK;
  if (st) {
    ndt__mfree(abuf);
    ndt__mfree(vbuf);
    return st;
  }
  if (ahi > alo) pack(&ba, ahi - alo, isz, cpx, abuf);
  {
    pack(&bv, m, isz, cpx, vbuf);
    char *res = bo.st[0] == isz ? bo.ptr : ndt__malloc((size_t)n * isz);
    if (!res) st = NDT_ERR_NOMEM;
    else {
      const void *A = abuf, *V = vbuf;
      void *O = res;
      int cj = g->conj;
      ndt__kern->corr(g->out.dtype)(A, alo, ahi, V, m, first, n, cj, O);
      if (res != bo.ptr) {
        for (int64_t k = 0; k < n; k++) memcpy(bo.ptr + k * bo.st[0], res + k * isz, isz);
        ndt__mfree(res);
      }
    }
  }
  ndt__mfree(abuf);
  ndt__mfree(vbuf);
  return st;
}

static const ndt_task_kind corr_kind = {"correlate", {corr_body}, NULL};

ndt_status ndt_correlate(ndt_array **out, const ndt_array *a, const ndt_array *v, int64_t lag0,
                         int64_t n, int conj) {
  if (a->ndim != 1 || v->ndim != 1)
    return ndt__error(NDT_ERR_VALUE, "correlate: both operands must be 1-d");
  if (a->dtype != v->dtype) return ndt__error(NDT_ERR_TYPE, "correlate: operand dtypes differ");
  switch (a->dtype) {
    case NDT_INT64: case NDT_UINT64: case NDT_FLOAT32: case NDT_FLOAT64:
    case NDT_COMPLEX64: case NDT_COMPLEX128: break;
    default:
      return ndt__error(NDT_ERR_TYPE, "correlate: dtype %s not supported (cast to int64, "
                       "uint64, float or complex)", ndt__traits[a->dtype].name);
  }
  if (n < 0) return ndt__error(NDT_ERR_VALUE, "correlate: negative output length");
  ndt_array *res;
  int64_t shape[1] = {n};
  ndt_status st = ndt__array_new(&res, a->dtype, 1, shape, 0);
  if (st) return st;
  ndt_tiling tl;
  ndt__tiling_for(1, shape, res->store->itemsize, ndt__rt_tile_bytes(), &tl);
  corr_arg g;
  memset(&g, 0, sizeof g);
  g.a = *a;
  g.v = *v;
  g.lag0 = lag0;
  g.conj = conj != 0;
  unsigned fl = tl.ntiles == 1 && n * (v->shape[0] + 1) <= ndt__rt_inline_elems()
                    ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < (n ? tl.ntiles : 0) && st == NDT_OK; b++) {
    ndt__block_view(res, &tl, b, &g.out);
    g.i0 = ndt__block_first(&tl, b);
    int64_t alo, ahi;
    corr_range(&g, &alo, &ahi);
    ndt_array ar = *a;
    ar.offset += alo * ar.strides[0];
    ar.shape[0] = ar.size = ahi - alo;
    ndt_operand ops[3] = {{&g.out, NDT_WRITE}, {&ar, NDT_READ}, {&g.v, NDT_READ}};
    st = ndt__record(&corr_kind, NULL, ops, 3, &g, sizeof g, fl);
  }
  return ndt__finish(st, res, out);
}

/* ---- diagonal view --------------------------------------------------- */
ndt_status ndt_diagonal(ndt_array **out, const ndt_array *a, int64_t offset, int ax1, int ax2) {
  int n = a->ndim;
  if (n < 2) return ndt__error(NDT_ERR_VALUE, "diag requires an array of at least two dimensions");
  if (ax1 < -n || ax1 >= n)
    return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis1", "axis1: axis %d is out of bounds for array of dimension %d",
                     ax1, n);
  if (ax2 < -n || ax2 >= n)
    return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis2", "axis2: axis %d is out of bounds for array of dimension %d",
                     ax2, n);
  if (ax1 < 0) ax1 += n;
  if (ax2 < 0) ax2 += n;
  if (ax1 == ax2) return ndt__error(NDT_ERR_VALUE, "axis1 and axis2 cannot be the same");
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
  ndt_status st = ndt__array_view(&v, a);
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
/* Operands: idx, vals (read), the target's elements [lo, hi) (read-write,
 * walked: written in place wherever an index lands). */
static ndt_status put_body(ndt_bound *op, void *p) {
  ndt_put_desc d = {.fn = NULL};
  return ndt__put_run(p, op, &d);
}

static const ndt_task_kind put_kind = {"put", {put_body}, NULL};

ndt_status ndt_put(ndt_array *a, const ndt_array *idx, const ndt_array *vals) {
  ndt_status wst = ndt__check_writeable(a, "put: output array is read-only", 1);
  if (wst) return wst;
  if (idx->ndim != 1 || vals->ndim != 1 || idx->shape[0] != vals->shape[0])
    return ndt__error(NDT_ERR_SHAPE, "put: idx and vals must be 1-d of one length");
  if (idx->dtype != NDT_INT64) return ndt__error(NDT_ERR_TYPE, "put: idx must be int64");
  if (vals->dtype != a->dtype) return ndt__error(NDT_ERR_TYPE, "put: vals must have a's dtype");
  if (idx->shape[0] == 0) return NDT_OK;
  if (a->size == 0)
    return ndt__error(NDT_ERR_INDEX, "cannot replace elements of an empty array");
  ndt_put_head g;
  g.a = *a;
  g.idx = *idx;
  g.vals = *vals;
  return ndt__put_record(&put_kind, &g, sizeof g);
}

ndt_status ndt__put_run(const ndt_put_head *g, const ndt_bound *op, ndt_put_desc *d) {
  const ndt_array *a = &g->a;
  d->n = g->idx.shape[0];
  d->idx = op[0].ptr;
  d->is = op[0].st[0];
  d->vals = op[1].ptr;   /* NULL: no values (a unary ufunc.at) */
  d->vs = op[1].ptr ? op[1].st[0] : 0;
  d->size = a->size;
  d->off = a->offset;
  d->nd = a->ndim;
  d->shape = a->shape;
  d->st = a->strides;
  d->lo = g->lo;
  d->hi = g->hi;
  d->isz = ndt_vsize(a);
  ndt__bound_walk(&op[2], &d->dst);
  int64_t bad;
  if (ndt__kern->put(d, &bad))
    return ndt__error(NDT_ERR_INDEX, "index %lld is out of bounds for axis 0 with size %lld",
                     (long long)bad, (long long)a->size);
  return NDT_OK;
}

ndt_status ndt__put_record(const ndt_task_kind *kind, ndt_put_head *g, size_t arg_size) {
  const ndt_array *a = &g->a;
  int64_t lo, hi, nidx = g->idx.shape[0];
  ndt__view_extent(a, &lo, &hi);
  const ndt_store *s = a->store;
  int64_t t0 = ndt_store_tile_of(s, lo), t1 = ndt_store_tile_of(s, hi), nt = t1 - t0 + 1;
  int per_tile = nt > 1 && (double)nt * (double)nidx <= 4.0 * (double)(a->size + (1 << 20));
  int small = a->size + nidx <= ndt__rt_inline_elems();
  ndt_status st = NDT_OK;
  /* (the kernel checks every index before it writes: a failure writes nothing) */
  unsigned fl = NDT_TASK_FAILS_CLEAN |
                (small && !per_tile ? NDT_TASK_INLINE | NDT_TASK_CALLER_ERROR : 0);
  /* no vals (a unary ufunc.at): an absent operand keeps the positions */
  const ndt_array *vals = g->vals.store ? &g->vals : &ndt__empty_view;
  for (int64_t t = per_tile ? t0 : 0; t <= (per_tile ? t1 : 0) && st == NDT_OK; t++) {
    const ndt_tile *tl = &s->tiles[t];
    g->lo = per_tile ? (lo > tl->start ? lo : tl->start) : lo;
    g->hi = per_tile ? (hi < tl->start + tl->len - 1 ? hi : tl->start + tl->len - 1) + 1 : hi + 1;
    ndt_array tv = *a;
    if (per_tile) {   /* the tile's part of the target, as a range with a's dtype and part */
      ndt__range_view(&tv, a->store, g->lo, g->hi - g->lo);
      tv.dtype = a->dtype;
      tv.part = a->part;
    }
    ndt_operand ops[3] = {{&g->idx, NDT_READ}, {vals, NDT_READ}, {&tv, NDT_RW | NDT_OPND_WALK}};
    st = ndt__record(kind, NULL, ops, 3, g, arg_size, fl);
  }
  return st;
}
