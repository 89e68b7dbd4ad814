/* search.c - operations whose result depends on the data: bincount and
 * argwhere. Both count per block first, then fill, so every block writes
 * its own range and results are the same for any number of workers. */
#include <string.h>
#include "exec.h"

/* ---- bincount --------------------------------------------------------- */
typedef struct {
  ndt_array x, w;      /* block views (w.store NULL without weights) */
  int has_w;
  int64_t nbins;
  ndt_store *parts;    /* one-tile byte store: a histogram per block */
  int64_t poff;        /* byte offset of this block's histogram */
} bin_arg;

#define CH 256

static ndt_status bin_task(void *p, int worker) {
  NDT_UNUSED(worker);
  const bin_arg *a = p;
  ndt_bound bx, bw;
  ndt_status st = ndt_bind(&a->x, &bx, 1);
  if (st) return st;
  bw.scratch = NULL;
  if (a->has_w && (st = ndt_bind(&a->w, &bw, 1))) {
    ndt_unbind(&a->x, &bx, 0);
    return st;
  }
  char *h = a->parts->tiles[0].data + a->poff;
  memset(h, 0, (size_t)a->nbins * 8);
  int64_t n = a->x.size, xs = a->x.ndim ? bx.st[0] : 0, ws = a->has_w && a->w.ndim ? bw.st[0] : 0;
  ndt_cast_fn cx = ndt_kern->cast(a->x.dtype, NDT_INT64);
  ndt_cast_fn cw = a->has_w ? ndt_kern->cast(a->w.dtype, NDT_FLOAT64) : NULL;
  int64_t ib[CH];
  double wb[CH];
  for (int64_t c = 0; c < n; c += CH) {
    int64_t m = n - c < CH ? n - c : CH;
    cx(bx.ptr + c * xs, xs, (char *)ib, 8, m);
    if (cw) {
      cw(bw.ptr + c * ws, ws, (char *)wb, 8, m);
      double *hd = (double *)h;
      for (int64_t i = 0; i < m; i++) hd[ib[i]] += wb[i];
    } else {
      int64_t *hi = (int64_t *)h;
      for (int64_t i = 0; i < m; i++) hi[ib[i]]++;
    }
  }
  ndt_unbind(&a->x, &bx, 0);
  if (a->has_w) ndt_unbind(&a->w, &bw, 0);
  return NDT_OK;
}

typedef struct {
  ndt_array out;
  int has_w;
  int64_t nbins, nblocks;
  ndt_store *parts;
} bin_combine_arg;

/* Adds the per-block histograms in block order: the same bits for any
 * number of workers or ranks (bincount and histogram). */
static ndt_status bin_combine(void *p, int worker) {
  NDT_UNUSED(worker);
  const bin_combine_arg *a = p;
  ndt_bound b;
  ndt_status st = ndt_bind(&a->out, &b, 0);
  if (st) return st;
  const char *h = a->parts->tiles[0].data;
  if (a->has_w) {
    double *o = (double *)b.ptr;
    memset(o, 0, (size_t)a->nbins * 8);
    for (int64_t k = 0; k < a->nblocks; k++)   /* block order: reproducible sums */
      for (int64_t i = 0; i < a->nbins; i++) o[i] += ((const double *)h)[k * a->nbins + i];
  } else {
    int64_t *o = (int64_t *)b.ptr;
    memset(o, 0, (size_t)a->nbins * 8);
    for (int64_t k = 0; k < a->nblocks; k++)
      for (int64_t i = 0; i < a->nbins; i++) o[i] += ((const int64_t *)h)[k * a->nbins + i];
  }
  ndt_unbind(&a->out, &b, 1);
  return NDT_OK;
}

ndt_status ndt_bin_combine(const char *name, ndt_array *res, int has_w, int64_t nblocks,
                           ndt_store *parts, int small) {
  bin_combine_arg c = {.out = *res, .has_w = has_w, .nbins = res->shape[0],
                       .nblocks = nblocks, .parts = parts};
  ndt_access *acc = NULL;
  int nacc = 0, cap = 0;
  ndt_status st = ndt_add_range(&acc, &nacc, &cap, parts, 0, parts->size, NDT_READ);
  if (st == NDT_OK) st = ndt_add_access(&acc, &nacc, &cap, res, NDT_WRITE);
  ndt_store *cs[2] = {parts, res->store};
  if (st == NDT_OK) st = ndt_submit(name, bin_combine, &c, sizeof c, acc, nacc, cs, 2, small);
  ndt_mfree(acc);
  return st;
}

/* ---- the range of 1-d integer data (bincount's bounds), in one pass ---- */
typedef struct {
  ndt_array x;         /* block view */
  ndt_store *parts;    /* (min, max) as int64 per block */
  int64_t blk;
} range_arg;

static ndt_status range_task(void *p, int worker) {
  NDT_UNUSED(worker);
  const range_arg *a = p;
  ndt_bound b;
  ndt_status st = ndt_bind(&a->x, &b, 1);
  if (st) return st;
  ndt_red_kernel kmin, kmax;   /* bool and every integer type have both */
  ndt_kern->reduce(NDT_RED_MIN, a->x.dtype, &kmin);
  ndt_kern->reduce(NDT_RED_MAX, a->x.dtype, &kmax);
  char lo[16], hi[16];
  memcpy(lo, kmin.identity, sizeof lo);
  memcpy(hi, kmax.identity, sizeof hi);
  int64_t n = a->x.size, xs = b.st[0];
  for (int64_t c = 0; c < n; c += 4096) {   /* both over each chunk while it is in cache */
    int64_t m = n - c < 4096 ? n - c : 4096;
    kmin.run(lo, b.ptr + c * xs, xs, m);
    kmax.run(hi, b.ptr + c * xs, xs, m);
  }
  char *r = a->parts->tiles[0].data + a->blk * 16;
  ndt_cast_fn cast = ndt_kern->cast(a->x.dtype, NDT_INT64);
  cast(lo, 0, r, 8, 1);
  cast(hi, 0, r + 8, 8, 1);
  ndt_unbind(&a->x, &b, 0);
  return NDT_OK;
}

/* *lo, *hi = min and max of the non-empty 1-d array x of bool or an integer
 * type but uint64 (what bincount takes). */
static ndt_status int_range(const ndt_array *x, int64_t *lo, int64_t *hi) {
  range_arg a = {.x = *x};
  ndt_tiling tl;
  ndt_tiling_for(1, x->shape, x->store->itemsize, ndt_rt_tile_bytes(), &tl);
  ndt_status st = ndt_store_new_bytes(&a.parts, tl.ntiles * 16);
  if (st) return st;
  ndt_access *acc = NULL;
  int nacc = 0, cap = 0;
  ndt_store *stores[2] = {x->store, a.parts};
  int small = tl.ntiles <= 1 && x->size <= ndt_rt_inline_elems();
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    a.blk = b;
    ndt_block_view(x, &tl, b, &a.x);
    nacc = 0;
    st = ndt_add_access(&acc, &nacc, &cap, &a.x, NDT_READ);
    if (st == NDT_OK) st = ndt_add_range(&acc, &nacc, &cap, a.parts, b * 16, 16, NDT_WRITE);
    if (st == NDT_OK)
      st = ndt_submit("range", range_task, &a, sizeof a, acc, nacc, stores, 2, small);
  }
  ndt_mfree(acc);
  if (st == NDT_OK) st = ndt_wait_tiles(a.parts, 0, 0, 0);
  const int64_t *r = (const int64_t *)a.parts->tiles[0].data;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    if (b == 0 || r[2 * b] < *lo) *lo = r[2 * b];
    if (b == 0 || r[2 * b + 1] > *hi) *hi = r[2 * b + 1];
  }
  ndt_store_decref(a.parts);
  return st;
}

ndt_status ndt_bincount(ndt_array **out, const ndt_array *x, const ndt_array *weights,
                        int64_t minlength) {
  if (x->ndim != 1) return ndt_error(NDT_ERR_VALUE, "object too deep for desired array");
  char k = ndt_traits[x->dtype].kind;
  if (!(k == 'i' || k == 'u' || k == 'b') || x->dtype == NDT_UINT64)
    return ndt_error(NDT_ERR_CAST, "Cannot cast array data from dtype('%s') to "
                     "dtype('int64') according to the rule 'safe'", ndt_dtype_name(x->dtype));
  if (minlength < 0) return ndt_error(NDT_ERR_VALUE, "'minlength' must not be negative");
  if (weights && (weights->ndim != 1 || weights->shape[0] != x->shape[0]))
    return ndt_error(NDT_ERR_VALUE, "The weights and list don't have the same length.");
  if (weights && ndt_traits[weights->dtype].kind == 'c')
    return ndt_error(NDT_ERR_CAST, "Cannot cast array data from dtype('%s') to "
                     "dtype('float64') according to the rule 'safe'",
                     ndt_dtype_name(weights->dtype));
  int64_t nbins = minlength;
  if (x->size > 0) {
    int64_t lo = 0, hi = 0;
    ndt_status st = int_range(x, &lo, &hi);
    if (st) return st;
    if (lo < 0) return ndt_error(NDT_ERR_VALUE, "'list' argument must have no negative elements");
    if (hi + 1 > nbins) nbins = hi + 1;
  }
  ndt_array *res;
  ndt_status st = ndt_array_new(&res, weights ? NDT_FLOAT64 : NDT_INT64, 1, &nbins, 0);
  if (st) return st;
  ndt_tiling tl;
  ndt_tiling_for(1, x->shape, x->store->itemsize, ndt_rt_tile_bytes(), &tl);
  if (x->size == 0) tl.ntiles = 0;
  ndt_store *parts = NULL;
  st = ndt_store_new_bytes(&parts, (tl.ntiles ? tl.ntiles : 1) * nbins * 8);
  if (st) {
    ndt_free(res);
    return st;
  }
  ndt_access *acc = NULL;
  int nacc = 0, cap = 0;
  ndt_store *stores[3] = {x->store, parts, weights ? weights->store : NULL};
  int small = tl.ntiles <= 1 && x->size <= ndt_rt_inline_elems();
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    bin_arg a = {.has_w = weights != NULL, .nbins = nbins, .parts = parts, .poff = b * nbins * 8};
    ndt_block_view(x, &tl, b, &a.x);
    if (weights) ndt_block_view(weights, &tl, b, &a.w);
    nacc = 0;
    st = ndt_add_access(&acc, &nacc, &cap, &a.x, NDT_READ);
    if (st == NDT_OK && weights) st = ndt_add_access(&acc, &nacc, &cap, &a.w, NDT_READ);
    if (st == NDT_OK) st = ndt_add_range(&acc, &nacc, &cap, parts, b * nbins * 8, nbins * 8, NDT_WRITE);
    if (st == NDT_OK)
      st = ndt_submit("bincount", bin_task, &a, sizeof a, acc, nacc, stores, weights ? 3 : 2,
                      small);
  }
  ndt_mfree(acc);
  if (st == NDT_OK) st = ndt_bin_combine("bincount", res, weights != NULL, tl.ntiles, parts, small);
  ndt_store_decref(parts);
  return ndt_finish(st, res, out);
}

/* ---- argwhere --------------------------------------------------------- */
typedef struct {
  ndt_array in;          /* the whole input */
  ndt_tiling tl;
  int64_t blk;
  ndt_store *counts;     /* int64 per block */
  ndt_array out;         /* fill: rows [first, first+count) of the result */
  int64_t first;
} nz_arg;

/* Calls visit(flat C-order index within the block) for each non-zero element. */
static ndt_status nz_scan(const nz_arg *a, int64_t *count, int64_t *dst) {
  ndt_array bv;
  ndt_block_view(&a->in, &a->tl, a->blk, &bv);
  ndt_bound b;
  ndt_status st = ndt_bind(&bv, &b, 1);
  if (st) return st;
  int nd = bv.ndim;
  int64_t start[NDT_MAXDIMS];
  ndt_block_start(&a->in, &a->tl, a->blk, start);
  ndt_cast_fn tobool = ndt_kern->cast(bv.dtype, NDT_BOOL);
  int64_t n = nd ? bv.shape[nd - 1] : 1, s = nd ? b.st[nd - 1] : 0;
  int64_t idx[NDT_MAXDIMS] = {0}, runs = bv.size / (n ? n : 1), cnt = 0;
  uint8_t flag[CH];
  for (int64_t r = 0; r < runs; r++) {
    const char *p = b.ptr;
    for (int k = 0; k < nd - 1; k++) p += idx[k] * b.st[k];
    for (int64_t c = 0; c < n; c += CH) {
      int64_t m = n - c < CH ? n - c : CH;
      tobool(p + c * s, s, (char *)flag, 1, m);
      for (int64_t i = 0; i < m; i++) {
        if (!flag[i]) continue;
        if (dst) {
          for (int k = 0; k < nd - 1; k++) dst[cnt * nd + k] = start[k] + idx[k];
          if (nd) dst[cnt * nd + nd - 1] = start[nd - 1] + c + i;
        }
        cnt++;
      }
    }
    for (int k = nd - 2; k >= 0; k--) {
      if (++idx[k] < bv.shape[k]) break;
      idx[k] = 0;
    }
  }
  ndt_unbind(&bv, &b, 0);
  *count = cnt;
  return NDT_OK;
}

static ndt_status nz_count_task(void *p, int worker) {
  NDT_UNUSED(worker);
  const nz_arg *a = p;
  return nz_scan(a, (int64_t *)a->counts->tiles[0].data + a->blk, NULL);
}

static ndt_status nz_fill_task(void *p, int worker) {
  NDT_UNUSED(worker);
  const nz_arg *a = p;
  ndt_bound b;
  ndt_status st = ndt_bind(&a->out, &b, 0);
  if (st) return st;
  int64_t cnt;
  st = nz_scan(a, &cnt, (int64_t *)b.ptr);
  ndt_unbind(&a->out, &b, st == NDT_OK);
  return st;
}

ndt_status ndt_argwhere(ndt_array **out, const ndt_array *a) {
  nz_arg z;
  memset(&z, 0, sizeof z);
  z.in = *a;
  ndt_tiling_for(a->ndim, a->shape, a->store->itemsize, ndt_rt_tile_bytes(), &z.tl);
  int64_t nb = a->size ? z.tl.ntiles : 0;
  ndt_status st = ndt_store_new_bytes(&z.counts, (nb ? nb : 1) * 8);
  if (st) return st;
  ndt_access *acc = NULL;
  int nacc = 0, cap = 0;
  ndt_store *stores[2] = {a->store, z.counts};
  int small = nb <= 1 && a->size <= ndt_rt_inline_elems();
  for (int64_t b = 0; b < nb && st == NDT_OK; b++) {
    z.blk = b;
    ndt_array bv;
    ndt_block_view(a, &z.tl, b, &bv);
    nacc = 0;
    st = ndt_add_access(&acc, &nacc, &cap, &bv, NDT_READ);
    if (st == NDT_OK) st = ndt_add_range(&acc, &nacc, &cap, z.counts, b * 8, 8, NDT_WRITE);
    if (st == NDT_OK)
      st = ndt_submit("argwhere", nz_count_task, &z, sizeof z, acc, nacc, stores, 2, small);
  }
  if (st == NDT_OK) st = ndt_wait_tiles(z.counts, 0, 0, 0);
  int64_t total = 0;
  const int64_t *counts = (const int64_t *)z.counts->tiles[0].data;
  for (int64_t b = 0; st == NDT_OK && b < nb; b++) total += counts[b];
  ndt_array *res = NULL;
  int64_t shape[2] = {total, a->ndim};
  if (st == NDT_OK) st = ndt_array_new(&res, NDT_INT64, 2, shape, 0);
  int64_t first = 0;
  for (int64_t b = 0; b < nb && st == NDT_OK; b++) {
    if (counts[b] == 0) continue;
    z.blk = b;
    z.first = first;
    ndt_index rows[1] = {{.kind = NDT_IDX_SLICE, .start = first, .stop = first + counts[b],
                          .step = 1, .has_start = 1, .has_stop = 1}};
    ndt_array *rv;
    st = ndt_view_index(&rv, res, 1, rows);
    if (st) break;
    z.out = *rv;
    ndt_free(rv);
    first += counts[b];
    ndt_array bv;
    ndt_block_view(a, &z.tl, b, &bv);
    nacc = 0;
    st = ndt_add_access(&acc, &nacc, &cap, &bv, NDT_READ);
    if (st == NDT_OK) st = ndt_add_access(&acc, &nacc, &cap, &z.out, NDT_WRITE);
    ndt_store *fs[2] = {a->store, res->store};
    if (st == NDT_OK)
      st = ndt_submit("argwhere", nz_fill_task, &z, sizeof z, acc, nacc, fs, 2, small);
  }
  ndt_mfree(acc);
  ndt_store_decref(z.counts);
  return ndt_finish(st, res, out);
}

/* ---- gather ----------------------------------------------------------- */
typedef struct {
  ndt_array a;                     /* the whole source view */
  ndt_array idx[NDT_MAXDIMS];      /* this block of each index array */
  ndt_array out;                   /* this block of the result */
} gather_arg;

static ndt_status gather_task(void *p, int worker) {
  NDT_UNUSED(worker);
  const gather_arg *g = p;
  int nd = g->a.ndim, isz = ndt_vsize(&g->a), ssz = g->a.store->itemsize;
  int64_t n = g->out.size;
  ndt_bound bo, bi[NDT_MAXDIMS];
  ndt_status st = ndt_bind(&g->out, &bo, 0);
  if (st) return st;
  int nb = 0;
  for (; nb < nd && !st; nb++) st = ndt_bind(&g->idx[nb], &bi[nb], 1);
  if (!st) {
    /* the blocks are C-contiguous copies or in-place views: walk them in C
     * order through their own strides */
    int od = g->out.ndim;
    int64_t pos[NDT_MAXDIMS] = {0}, ib[CH];
    const ndt_store *s = g->a.store;
    for (int64_t e = 0; e < n && !st; e++) {
      int64_t f = g->a.offset;
      for (int k = 0; k < nd; k++) {
        const char *ip = bi[k].ptr;
        for (int j = 0; j < od; j++) ip += pos[j] * bi[k].st[j];
        ndt_kern->cast(g->idx[k].dtype, NDT_INT64)(ip, 0, (char *)ib, 8, 1);
        if (ib[0] < 0 || ib[0] >= g->a.shape[k]) {
          st = ndt_error(NDT_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                         (long long)ib[0], k, (long long)g->a.shape[k]);
          break;
        }
        f += ib[0] * g->a.strides[k];
      }
      if (st) break;
      char *op = bo.ptr;
      for (int j = 0; j < od; j++) op += pos[j] * bo.st[j];
      const ndt_tile *t = &s->tiles[ndt_store_tile_of(s, f)];
      memcpy(op, t->data + (f - t->start) * ssz + g->a.part, isz);
      for (int j = od - 1; j >= 0; j--) {
        if (++pos[j] < g->out.shape[j]) break;
        pos[j] = 0;
      }
    }
  }
  for (int k = 0; k < nb; k++) ndt_unbind(&g->idx[k], &bi[k], 0);
  ndt_unbind(&g->out, &bo, st == NDT_OK);
  return st;
}

ndt_status ndt_gather(ndt_array **out, const ndt_array *a, const ndt_array *const *idx) {
  int nd = a->ndim;
  if (nd == 0) return ndt_error(NDT_ERR_INDEX, "too many indices for array: array is "
                                "0-dimensional, but 1 were indexed");
  for (int k = 0; k < nd; k++) {
    char kd = ndt_traits[idx[k]->dtype].kind;
    if (kd != 'i' && kd != 'u')
      return ndt_error(NDT_ERR_INDEX, "arrays used as indices must be of integer (or boolean) "
                       "type");
    if (idx[k]->ndim != idx[0]->ndim ||
        memcmp(idx[k]->shape, idx[0]->shape, sizeof(int64_t) * idx[0]->ndim))
      return ndt_error(NDT_ERR_SHAPE, "index arrays must have one shape");
  }
  ndt_array *res;
  ndt_status st = ndt_array_new(&res, a->dtype, idx[0]->ndim, idx[0]->shape, 0);
  if (st) return st;
  ndt_tiling tl;
  ndt_tiling_for(res->ndim, res->shape, res->store->itemsize, ndt_rt_tile_bytes(), &tl);
  gather_arg *g = ndt_malloc(sizeof *g);
  if (!g) {
    ndt_free(res);
    return NDT_ERR_NOMEM;
  }
  g->a = *a;
  ndt_access *acc = NULL;
  int nacc, cap = 0;
  ndt_store *stores[NDT_MAXDIMS + 2];
  int ns = 0;
  stores[ns++] = a->store;
  stores[ns++] = res->store;
  for (int k = 0; k < nd; k++) stores[ns++] = idx[k]->store;
  int small = tl.ntiles == 1 && res->size <= ndt_rt_inline_elems();
  for (int64_t b = 0; b < (res->size ? tl.ntiles : 0) && st == NDT_OK; b++) {
    ndt_block_view(res, &tl, b, &g->out);
    for (int k = 0; k < nd; k++) ndt_block_view(idx[k], &tl, b, &g->idx[k]);
    nacc = 0;
    st = ndt_add_access(&acc, &nacc, &cap, a, NDT_READ);   /* any element may be read */
    for (int k = 0; k < nd && !st; k++) st = ndt_add_access(&acc, &nacc, &cap, &g->idx[k], NDT_READ);
    if (!st) st = ndt_add_access(&acc, &nacc, &cap, &g->out, NDT_WRITE);
    if (!st)
      st = ndt_submit("gather", gather_task, g, sizeof *g, acc, nacc, stores, ns, small ? 2 : 0);
  }
  ndt_mfree(acc);
  ndt_mfree(g);
  return ndt_finish(st, res, out);
}
