/* search.c - operations whose result depends on the data: bincount and
 * argwhere. Both count per block first, then fill, so every block writes
 * its own range and results are the same for any number of workers. */
#include <string.h>
#include "bincount.h"

/* ---- bincount --------------------------------------------------------- */
typedef ndt_bin_arg bin_arg;

#define CH 256

/* Operands: x, w (read, walked; w empty without weights), the block's
 * histogram in parts (write); with bounds, its (min, max) as int64 (write).
 * An int64 index read in place goes to the count as it is. */
static ndt_status bin_body(ndt_bound *op, void *p) {
  const bin_arg *a = p;
  char *h = op[2].ptr;
  memset(h, 0, (size_t)a->nbins * 8);
  int64_t n = a->x.size;
  ndt_cast_fn cx = ndt__kern->cast(a->x.dtype, NDT_INT64);
  ndt_cast_fn cw = a->has_w ? ndt__kern->cast(a->w.dtype, NDT_FLOAT64) : NULL;
  int64_t xs = a->x.strides[0] * a->x.store->itemsize;
  int64_t ws = cw ? a->w.strides[0] * a->w.store->itemsize : 0;
  int direct = a->x.dtype == NDT_INT64 && xs == 8;
  ndt_count_fn count = ndt__kern->count;
  ndt_red_kernel kmin, kmax;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  if (a->bounds) {
    ndt__kern->reduce(NDT_RED_MIN, NDT_INT64, &kmin);
    ndt__kern->reduce(NDT_RED_MAX, NDT_INT64, &kmax);
  }
  int64_t ib[CH];
  double wb[CH];
  for (int64_t i = 0; i < n;) {
    int64_t m = n - i;
    const char *px = ndt__run_at(&op[0], i, &m);
    const char *pw = cw ? ndt__run_at(&op[1], i, &m) : NULL;
    for (int64_t c = 0; c < m; c += CH) {   /* in element order: the same sums */
      int64_t k = m - c < CH ? m - c : CH;
      const int64_t *ix = ib;
      if (direct) ix = (const int64_t *)(px + c * xs);
      else cx(px + c * xs, xs, (char *)ib, 8, k);
      if (cw) cw(pw + c * ws, ws, (char *)wb, 8, k);
      if (a->bounds) {
        kmin.run((char *)&lo, (const char *)ix, 8, k);
        kmax.run((char *)&hi, (const char *)ix, 8, k);
        count(h, ix, cw ? wb : NULL, k, a->nbins);
      } else {
        count(h, ix, cw ? wb : NULL, k, -1);   /* int_range checked the indices */
      }
    }
    i += m;
  }
  if (a->bounds) {
    int64_t *r = (int64_t *)op[3].ptr;
    r[0] = lo;
    r[1] = hi;
  }
  return NDT_OK;
}

/* (kinds of their own names, so that a device plugin finds each: the
 * trace shows the op's name, "bincount" or "histogram") */
static const ndt_task_kind bin_kind = {"bincount count", {bin_body}, NULL};

typedef ndt_bin_combine_arg bin_combine_arg;

/* Adds the per-block histograms in block order: the same bits for any
 * number of workers or ranks (bincount and histogram). */
/* Operands: all of parts (read), out (write). */
static ndt_status bin_combine_body(ndt_bound *op, void *p) {
  const bin_combine_arg *a = p;
  const ndt_bound b = op[1];
  ndt__kern->block_sum(a->has_w ? NDT_FLOAT64 : NDT_INT64, b.ptr, b.st[0], op[0].ptr, a->nblocks,
                       a->nbins);
  return NDT_OK;
}

static const ndt_task_kind bin_combine_kind = {"bincount combine", {bin_combine_body}, NULL};

ndt_status ndt__bin_combine(const char *name, ndt_array *res, int has_w, int64_t nblocks,
                           ndt_store *parts, unsigned flags) {
  bin_combine_arg c = {.out = *res, .has_w = has_w, .nbins = res->shape[0],
                       .nblocks = nblocks, .parts = parts};
  ndt_array pv;
  ndt__range_view(&pv, parts, 0, parts->size);
  ndt_operand ops[2] = {{&pv, NDT_READ}, {&c.out, NDT_WRITE}};
  return ndt__record(&bin_combine_kind, name, ops, 2, &c, sizeof c, flags);
}

/* ---- the range of 1-d integer data (bincount's bounds), in one pass ---- */
typedef struct {
  ndt_array x;         /* block view */
  ndt_store *parts;    /* (min, max) as int64 per block */
  int64_t blk;
} range_arg;

/* Operands: x (read, walked), the block's (min, max) in parts (write). */
static ndt_status range_body(ndt_bound *op, void *p) {
  const range_arg *a = p;
  ndt_red_kernel kmin, kmax;   /* bool and every integer type have both */
  ndt__kern->reduce(NDT_RED_MIN, a->x.dtype, &kmin);
  ndt__kern->reduce(NDT_RED_MAX, a->x.dtype, &kmax);
  char lo[16], hi[16];
  memcpy(lo, kmin.identity, sizeof lo);
  memcpy(hi, kmax.identity, sizeof hi);
  int64_t n = a->x.size, xs = a->x.strides[0] * a->x.store->itemsize;
  for (int64_t i = 0; i < n;) {
    int64_t m = n - i;
    const char *px = ndt__run_at(&op[0], i, &m);
    for (int64_t c = 0; c < m; c += 4096) {   /* both over each chunk while it is in cache */
      int64_t k = m - c < 4096 ? m - c : 4096;
      kmin.run(lo, px + c * xs, xs, k);
      kmax.run(hi, px + c * xs, xs, k);
    }
    i += m;
  }
  char *r = op[1].ptr;
  ndt_cast_fn cast = ndt__kern->cast(a->x.dtype, NDT_INT64);
  cast(lo, 0, r, 8, 1);
  cast(hi, 0, r + 8, 8, 1);
  return NDT_OK;
}

static const ndt_task_kind range_kind = {"range", {range_body}, NULL};

/* *lo, *hi = min and max of the non-empty 1-d array x of bool or an integer
 * type but uint64 (what bincount takes). */
static ndt_status int_range(const ndt_array *x, int64_t *lo, int64_t *hi) {
  range_arg a = {.x = *x};
  ndt_tiling tl;
  ndt__tiling_for(1, x->shape, x->store->itemsize, ndt__rt_tile_bytes(), &tl);
  ndt_status st = ndt__store_new_bytes(&a.parts, tl.ntiles * 16);
  if (st) return st;
  unsigned fl = tl.ntiles <= 1 && x->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    a.blk = b;
    ndt__block_view(x, &tl, b, &a.x);
    ndt_array rv;
    ndt__range_view(&rv, a.parts, b * 16, 16);
    ndt_operand ops[2] = {{&a.x, NDT_READ | NDT_OPND_WALK}, {&rv, NDT_WRITE}};
    st = ndt__record(&range_kind, NULL, ops, 2, &a, sizeof a, fl);
  }
  if (st == NDT_OK) st = ndt__wait_tiles(a.parts, 0, 0, 0);
  ndt_array pv;
  ndt__range_view(&pv, a.parts, 0, a.parts->size);
  const int64_t *r = (const int64_t *)ndt__host_elem(&pv, 0, 0, NULL);
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    if (b == 0 || r[2 * b] < *lo) *lo = r[2 * b];
    if (b == 0 || r[2 * b + 1] > *hi) *hi = r[2 * b + 1];
  }
  ndt__store_decref(a.parts);
  return st;
}

/* The count tasks, one per block of x's 1-d tiling tl, each into its
 * histogram of nbins in parts; with rparts, each skips indices outside
 * [0, nbins) and writes its block's (min, max) there. */
static ndt_status record_counts(const ndt_array *x, const ndt_array *weights,
                                const ndt_tiling *tl, int64_t nbins, ndt_store *parts,
                                ndt_store *rparts, unsigned fl) {
  ndt_status st = NDT_OK;
  for (int64_t b = 0; b < tl->ntiles && st == NDT_OK; b++) {
    bin_arg a = {.has_w = weights != NULL, .nbins = nbins, .bounds = rparts != NULL,
                 .parts = parts, .poff = b * nbins * 8};
    ndt__block_view(x, tl, b, &a.x);
    if (weights) ndt__block_view(weights, tl, b, &a.w);
    ndt_array hv, rv = ndt__empty_view;
    ndt__range_view(&hv, parts, b * nbins * 8, nbins * 8);
    if (rparts) ndt__range_view(&rv, rparts, b * 16, 16);
    ndt_operand ops[4] = {{&a.x, NDT_READ | NDT_OPND_WALK}, {&a.w, NDT_READ | NDT_OPND_WALK},
                          {&hv, NDT_WRITE}, {&rv, NDT_WRITE}};
    st = ndt__record(&bin_kind, "bincount", ops, rparts ? 4 : 3, &a, sizeof a, fl);
  }
  return st;
}

/* The bounds of all blocks from their (min, max) pairs in rparts (waited). */
static void bounds_of(ndt_store *rparts, int64_t nblocks, int64_t *lo, int64_t *hi) {
  ndt_array pv;
  ndt__range_view(&pv, rparts, 0, rparts->size);
  const int64_t *r = (const int64_t *)ndt__host_elem(&pv, 0, 0, NULL);
  for (int64_t b = 0; b < nblocks; b++) {
    if (b == 0 || r[2 * b] < *lo) *lo = r[2 * b];
    if (b == 0 || r[2 * b + 1] > *hi) *hi = r[2 * b + 1];
  }
}

ndt_status ndt_bincount(ndt_array **out, const ndt_array *x, const ndt_array *weights,
                        int64_t minlength) {
  if (x->ndim != 1) return ndt__error(NDT_ERR_VALUE, "object too deep for desired array");
  char k = ndt__traits[x->dtype].kind;
  if (!(k == 'i' || k == 'u' || k == 'b') || x->dtype == NDT_UINT64)
    return ndt__error(NDT_ERR_CAST, "Cannot cast array data from dtype('%s') to "
                     "dtype('int64') according to the rule 'safe'", ndt_dtype_name(x->dtype));
  if (minlength < 0) return ndt__error(NDT_ERR_VALUE, "'minlength' must not be negative");
  if (weights && (weights->ndim != 1 || weights->shape[0] != x->shape[0]))
    return ndt__error(NDT_ERR_VALUE, "The weights and list don't have the same length.");
  if (weights && ndt__traits[weights->dtype].kind == 'c')
    return ndt__error(NDT_ERR_CAST, "Cannot cast array data from dtype('%s') to "
                     "dtype('float64') according to the rule 'safe'",
                     ndt_dtype_name(weights->dtype));
  ndt_tiling tl;
  ndt__tiling_for(1, x->shape, x->store->itemsize, ndt__rt_tile_bytes(), &tl);
  if (x->size == 0) tl.ntiles = 0;
  unsigned fl = tl.ntiles <= 1 && x->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  int64_t nbins = minlength;
  ndt_store *parts = NULL;
  ndt_status st = NDT_OK;
  if (x->size > 0 && minlength > 0) {
    /* One pass when minlength holds every index (a histogram whose bins are
     * known, as the X-ray job's radial profiles): each block counts and
     * finds its bounds at once, and only an index at or past minlength
     * makes a second pass. The bounds pass read the index array a second
     * time (35 MB a batch of 704x768 frames). The call waits for the counts
     * as it waited for the bounds. */
    ndt_store *rparts = NULL;
    if ((st = ndt__store_new_bytes(&parts, tl.ntiles * nbins * 8))) return st;
    if ((st = ndt__store_new_bytes(&rparts, tl.ntiles * 16))) {
      ndt__store_decref(parts);
      return st;
    }
    st = record_counts(x, weights, &tl, nbins, parts, rparts, fl);
    if (st == NDT_OK) st = ndt__wait_tiles(rparts, 0, 0, 0);
    int64_t lo = 0, hi = 0;
    if (st == NDT_OK) bounds_of(rparts, tl.ntiles, &lo, &hi);
    ndt__store_decref(rparts);
    if (st == NDT_OK && lo < 0)
      st = ndt__error(NDT_ERR_VALUE, "'list' argument must have no negative elements");
    if (st) {
      ndt__store_decref(parts);
      return st;
    }
    if (hi >= nbins) {   /* past minlength: count again into hi + 1 bins */
      ndt__store_decref(parts);
      parts = NULL;
      nbins = hi + 1;
    }
  } else if (x->size > 0) {
    int64_t lo = 0, hi = 0;
    st = int_range(x, &lo, &hi);
    if (st) return st;
    if (lo < 0) return ndt__error(NDT_ERR_VALUE, "'list' argument must have no negative elements");
    if (hi + 1 > nbins) nbins = hi + 1;
  }
  ndt_array *res;
  st = ndt__array_new(&res, weights ? NDT_FLOAT64 : NDT_INT64, 1, &nbins, 0);
  if (st) {
    ndt__store_decref(parts);
    return st;
  }
  if (!parts) {
    st = ndt__store_new_bytes(&parts, (tl.ntiles ? tl.ntiles : 1) * nbins * 8);
    if (st) {
      ndt_free(res);
      return st;
    }
    st = record_counts(x, weights, &tl, nbins, parts, NULL, fl);
  }
  if (st == NDT_OK) st = ndt__bin_combine("bincount", res, weights != NULL, tl.ntiles, parts, fl);
  ndt__store_decref(parts);
  return ndt__finish(st, res, out);
}

/* ---- argwhere --------------------------------------------------------- */
typedef ndt_nz_arg nz_arg;   /* exec.h: the CUDA plugin reads it too */

/* The non-zero elements of the block (the table's nonzero scan): their
 * count, and with dst their indices in the whole input. */
static ndt_status nz_scan(const nz_arg *a, const ndt_bound *b, int64_t *count, int64_t *dst) {
  ndt_array bv;
  ndt__block_view(&a->in, &a->tl, a->blk, &bv);
  *count = ndt__kern->nonzero(bv.dtype, b->ptr, bv.ndim, bv.shape, b->st, a->start, dst);
  return NDT_OK;
}

/* Operands: the input block (read), its count in counts (write). */
static ndt_status nz_count_body(ndt_bound *op, void *p) {
  const nz_arg *a = p;
  return nz_scan(a, &op[0], (int64_t *)op[1].ptr, NULL);
}

/* Operands: the input block (read), the block's rows of the result (write). */
static ndt_status nz_fill_body(ndt_bound *op, void *p) {
  const nz_arg *a = p;
  int64_t cnt;
  return nz_scan(a, &op[0], &cnt, (int64_t *)op[1].ptr);
}

/* (kinds of their own names: a device takes each by its name; both tasks
 * are named "argwhere" in the trace) */
static const ndt_task_kind nz_count_kind = {"argwhere count", {nz_count_body}, NULL};
static const ndt_task_kind nz_fill_kind = {"argwhere fill", {nz_fill_body}, NULL};

ndt_status ndt_argwhere(ndt_array **out, const ndt_array *a) {
  nz_arg z;
  memset(&z, 0, sizeof z);
  z.in = *a;
  ndt__tiling_for(a->ndim, a->shape, a->store->itemsize, ndt__rt_tile_bytes(), &z.tl);
  int64_t nb = a->size ? z.tl.ntiles : 0;
  ndt_status st = ndt__store_new_bytes(&z.counts, (nb ? nb : 1) * 8);
  if (st) return st;
  unsigned fl = nb <= 1 && a->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < nb && st == NDT_OK; b++) {
    z.blk = b;
    ndt__block_start(a, &z.tl, b, z.start);
    ndt_array bv, cv;
    ndt__block_view(a, &z.tl, b, &bv);
    ndt__range_view(&cv, z.counts, b * 8, 8);
    ndt_operand ops[2] = {{&bv, NDT_READ}, {&cv, NDT_WRITE}};
    st = ndt__record(&nz_count_kind, "argwhere", ops, 2, &z, sizeof z, fl);
  }
  if (st == NDT_OK) st = ndt__wait_tiles(z.counts, 0, 0, 0);
  int64_t total = 0;
  ndt_array call;
  ndt__range_view(&call, z.counts, 0, z.counts->size);
  const int64_t *counts = (const int64_t *)ndt__host_elem(&call, 0, 0, NULL);
  for (int64_t b = 0; st == NDT_OK && b < nb; b++) total += counts[b];
  ndt_array *res = NULL;
  int64_t shape[2] = {total, a->ndim};
  if (st == NDT_OK) st = ndt__array_new(&res, NDT_INT64, 2, shape, 0);
  int64_t first = 0;
  for (int64_t b = 0; b < nb && st == NDT_OK; b++) {
    if (counts[b] == 0) continue;
    z.blk = b;
    ndt__block_start(a, &z.tl, b, z.start);
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
    ndt__block_view(a, &z.tl, b, &bv);
    ndt_operand ops[2] = {{&bv, NDT_READ}, {&z.out, NDT_WRITE}};
    st = ndt__record(&nz_fill_kind, "argwhere", ops, 2, &z, sizeof z, fl);
  }
  ndt__store_decref(z.counts);
  return ndt__finish(st, res, out);
}

/* ---- gather ----------------------------------------------------------- */
typedef ndt_gather_arg gather_arg;   /* exec.h: the CUDA plugin reads it too */

/* Operands: the part of the source the block can reach (read, walked: any
 * element of it may be read), the result block (write), the index blocks
 * (read). */
static ndt_status gather_body(ndt_bound *op, void *p) {
  const gather_arg *g = p;
  ndt_gather_desc d;
  d.nd = g->out.ndim;
  d.nk = g->a.ndim;
  d.isz = ndt_vsize(&g->a);
  d.shape = g->out.shape;
  d.out = op[1].ptr;
  d.ost = op[1].st;
  for (int k = 0; k < d.nk; k++) {
    d.idx[k] = op[2 + k].ptr;
    d.ist[k] = op[2 + k].st;
    d.it[k] = g->idx[k].dtype;
  }
  d.aoff = g->a.offset;
  d.ashape = g->a.shape;
  d.ast = g->a.strides;
  ndt__bound_walk(&op[0], &d.src);
  int64_t bad;
  int ax;
  if (ndt__kern->gather(&d, &bad, &ax))
    return ndt__error(NDT_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                     (long long)bad, ax, (long long)g->a.shape[ax]);
  return NDT_OK;
}

static const ndt_task_kind gather_kind = {"gather", {gather_body}, NULL};

ndt_status ndt_gather(ndt_array **out, const ndt_array *a, const ndt_array *const *idx) {
  if (a->ndim == 0) return ndt__error(NDT_ERR_INDEX, "too many indices for array: array is "
                                     "0-dimensional, but 1 were indexed");
  return ndt_gather_slices(out, a, idx[0]->ndim, idx[0]->shape, idx, NULL, NULL, NULL, NULL);
}

/* Block `blk` of the result (starting at bst): in *r, a's view from
 * index 0 to hi[k] along each indexed axis k (the kernel's offsets and its
 * check of every index against hi[k]); in *reg, the part of it the block
 * can reach: [lo[k], hi[k]) along an indexed axis, along a sliced axis k
 * the block's own positions of the slice (with the slice's step: a's index
 * start + step * i at r's index i - bst[ax[k]]). */
static void gather_region(const ndt_array *a, const ndt_array *blk, const int64_t *bst,
                          const ndt_array *const *idx, const int *ax, const int64_t *start,
                          const int64_t *step, const int64_t *lo, const int64_t *hi,
                          ndt_array *r, ndt_array *reg) {
  *r = *a;
  r->size = 1;
  for (int k = 0; k < a->ndim; k++) {
    if (!idx[k]) {
      int j = ax[k];
      r->offset += (start[k] + step[k] * bst[j]) * a->strides[k];
      r->shape[k] = blk->shape[j];
      r->strides[k] = step[k] * a->strides[k];
    } else {
      r->shape[k] = hi[k];
    }
    r->size *= r->shape[k];
  }
  *reg = *r;
  reg->size = 1;
  for (int k = 0; k < a->ndim; k++) {
    if (idx[k]) {
      reg->offset += lo[k] * r->strides[k];
      reg->shape[k] = hi[k] - lo[k];
    }
    reg->size *= reg->shape[k];
  }
  if (r->size == 0) r->offset = a->offset;   /* (an empty view stays in range) */
  if (reg->size == 0) *reg = *r;
}

/* ---- the gather's index bounds per block ("gather bounds") ----------- */
/* One task per block of the result: for each index array (in axis order),
 * the block's least and greatest index and its first index outside
 * [0, lim) in C order (its flat position in the result, its value): the
 * reads of each gather task narrow to its block's indices, and an error
 * names the first bad index of the whole array, whichever task ran first. */
typedef struct {
  ndt_array idx[NDT_MAXDIMS];   /* the block of each index array, broadcast axes cut to 1 */
  int ni;
  int64_t lim[NDT_MAXDIMS];
  int64_t first;                /* the flat position of the block's first element */
  int64_t cst[NDT_MAXDIMS];     /* the result's C-order element strides */
} gbound_arg;

#define GB_CH 256

/* Operands: the ni index blocks (read), the block's 4 int64 per index
 * array in parts (write): least, greatest, first bad position (-1: none),
 * its value. */
static ndt_status gbound_body(ndt_bound *op, void *p) {
  const gbound_arg *g = p;
  char *out = op[g->ni].ptr;
  int64_t buf[GB_CH];
  for (int i = 0; i < g->ni; i++) {
    const ndt_array *v = &g->idx[i];
    int nd = v->ndim;
    const int64_t *st = op[i].st, lim = g->lim[i];
    int64_t inner = nd ? v->shape[nd - 1] : 1, ist = nd ? st[nd - 1] : 0;
    int64_t cin = nd ? g->cst[nd - 1] : 0;
    int64_t outer = v->size / inner;
    ndt_cast_fn cast = ndt__kern->cast(v->dtype, NDT_INT64);
    int64_t r[4] = {INT64_MAX, INT64_MIN, -1, 0};
    int64_t pos[NDT_MAXDIMS] = {0};
    for (int64_t o = 0; o < outer && r[2] < 0; o++) {
      const char *q = op[i].ptr;
      int64_t f = g->first;
      for (int j = 0; j < nd - 1; j++) {
        q += pos[j] * st[j];
        f += pos[j] * g->cst[j];
      }
      for (int64_t c = 0; c < inner && r[2] < 0; c += GB_CH) {
        int64_t m = inner - c < GB_CH ? inner - c : GB_CH;
        cast(q + c * ist, ist, (char *)buf, 8, m);
        for (int64_t e = 0; e < m; e++) {
          int64_t x = buf[e];
          if (x < 0 || x >= lim) {
            r[2] = f + (c + e) * cin;
            r[3] = x;
            break;
          }
          if (x < r[0]) r[0] = x;
          if (x > r[1]) r[1] = x;
        }
      }
      for (int j = nd - 2; j >= 0; j--) {
        if (++pos[j] < v->shape[j]) break;
        pos[j] = 0;
      }
    }
    memcpy(out + 32 * i, r, 32);
  }
  return NDT_OK;
}

static const ndt_task_kind gbound_kind = {"gather bounds", {gbound_body}, NULL};

/* Records and waits for the bounds tasks of the result res (tiled as tl):
 * in *parts (the caller's to drop), per block 4 int64 per index array.
 * Returns NDT_ERR_INDEX naming the first bad index (the first index array
 * holding one, its first in C order). */
static ndt_status gather_bounds(const ndt_array *res, const ndt_tiling *tl,
                                const ndt_array *const *idx, int na, const int64_t *lim,
                                ndt_store **parts) {
  gbound_arg g;
  int ks[NDT_MAXDIMS];
  g.ni = 0;
  for (int k = 0; k < na; k++)
    if (idx[k]) {
      ks[g.ni] = k;
      g.lim[g.ni++] = lim[k];
    }
  int nd = res->ndim;
  int64_t c = 1;
  for (int j = nd - 1; j >= 0; j--) {
    g.cst[j] = c;
    c *= res->shape[j];
  }
  int64_t rec = 32 * g.ni;
  ndt_status st = ndt__store_new_bytes(parts, tl->ntiles * rec);
  if (st) return st;
  unsigned fl = tl->ntiles <= 1 && res->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  ndt_operand ops[NDT_MAXDIMS + 1];
  for (int i = 0; i < g.ni; i++) ops[i] = (ndt_operand){&g.idx[i], NDT_READ};
  for (int64_t b = 0; b < tl->ntiles && st == NDT_OK; b++) {
    int64_t bst[NDT_MAXDIMS];
    ndt__block_start(res, tl, b, bst);
    g.first = 0;
    for (int j = 0; j < nd; j++) g.first += bst[j] * g.cst[j];
    for (int i = 0; i < g.ni; i++) {
      ndt_array *v = &g.idx[i];
      ndt__block_view(idx[ks[i]], tl, b, v);
      v->size = 1;
      for (int j = 0; j < nd; j++) {
        if (v->strides[j] == 0) v->shape[j] = 1;   /* a broadcast axis: one pass */
        v->size *= v->shape[j];
      }
    }
    ndt_array rv;
    ndt__range_view(&rv, *parts, b * rec, rec);
    ops[g.ni] = (ndt_operand){&rv, NDT_WRITE};
    st = ndt__record(&gbound_kind, NULL, ops, g.ni + 1, &g, sizeof g, fl);
  }
  if (st == NDT_OK) st = ndt__wait_tiles(*parts, 0, 0, 0);
  if (st) return st;
  ndt_array pv;
  ndt__range_view(&pv, *parts, 0, (*parts)->size);
  const char *r = ndt__host_elem(&pv, 0, 0, NULL);
  for (int i = 0; i < g.ni; i++) {
    int64_t pos = -1, val = 0;
    for (int64_t b = 0; b < tl->ntiles; b++) {
      int64_t q[4];
      memcpy(q, r + b * rec + 32 * i, 32);
      if (q[2] >= 0 && (pos < 0 || q[2] < pos)) {
        pos = q[2];
        val = q[3];
      }
    }
    if (pos >= 0)
      return ndt__error(NDT_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                       (long long)val, ks[i], (long long)g.lim[i]);
  }
  return NDT_OK;
}

/* Whether the part of a that some block of res (tiled as tl) can reach,
 * its indices bounded by [0, lim), spans more than two tiles of a. */
static int block_spans_tiles(const ndt_array *a, const ndt_array *res, const ndt_tiling *tl,
                             const ndt_array *const *idx, const int *ax, const int64_t *start,
                             const int64_t *step, const int64_t *lim) {
  int64_t lo0[NDT_MAXDIMS] = {0};
  for (int64_t b = 0; b < tl->ntiles; b++) {
    int64_t bst[NDT_MAXDIMS];
    ndt_array blk, r, reg;
    ndt__block_view(res, tl, b, &blk);
    ndt__block_start(res, tl, b, bst);
    gather_region(a, &blk, bst, idx, ax, start, step, lo0, lim, &r, &reg);
    int64_t e0 = reg.offset, e1 = reg.offset;
    for (int k = 0; k < a->ndim; k++) {
      int64_t d = (reg.shape[k] - 1) * reg.strides[k];
      if (d < 0) e0 += d;
      else e1 += d;
    }
    if (reg.size > 0 && ndt_store_tile_of(a->store, e1) - ndt_store_tile_of(a->store, e0) > 1)
      return 1;
  }
  return 0;
}

ndt_status ndt_gather_slices(ndt_array **out, const ndt_array *a, int nd, const int64_t *shape,
                             const ndt_array *const *idx, const int *ax, const int64_t *start,
                             const int64_t *step, const int64_t *hi) {
  int na = a->ndim;
  if (na == 0) return ndt__error(NDT_ERR_INDEX, "too many indices for array: array is "
                                "0-dimensional, but 1 were indexed");
  if (nd < 0 || nd > NDT_MAXDIMS)
    return ndt__error(NDT_ERR_VALUE, "gather: %d dimensions (at most %d)", nd, NDT_MAXDIMS);
  for (int j = 0; j < nd; j++)
    if (shape[j] < 0) return ndt__error(NDT_ERR_VALUE, "gather: negative dimensions");
  for (int k = 0; k < na; k++) {
    if (!idx[k]) continue;
    char kd = ndt__traits[idx[k]->dtype].kind;
    if (kd != 'i' && kd != 'u')
      return ndt__error(NDT_ERR_INDEX, "arrays used as indices must be of integer (or boolean) "
                       "type");
    if (idx[k]->ndim != nd || memcmp(idx[k]->shape, shape, sizeof(int64_t) * nd))
      return ndt__error(NDT_ERR_SHAPE, "index arrays must have one shape");
  }
  int64_t alen = 0;   /* the longest slice: the relative positions' arange */
  for (int k = 0; k < na; k++) {
    int64_t n = a->shape[k];
    if (idx[k]) {
      if (hi && (hi[k] < 0 || hi[k] > n))
        return ndt__error(NDT_ERR_VALUE, "gather: bound %lld of axis %d outside [0, %lld]",
                         (long long)hi[k], k, (long long)n);
      continue;
    }
    if (!ax || !start || !step || ax[k] < 0 || ax[k] >= nd)
      return ndt__error(NDT_ERR_VALUE, "gather: axis %d has neither indices nor a slice", k);
    int64_t len = shape[ax[k]], last;
    if (len > alen) alen = len;
    if (len > 0 && (start[k] < 0 || start[k] >= n ||
                    __builtin_mul_overflow(step[k], len - 1, &last) ||
                    __builtin_add_overflow(last, start[k], &last) || last < 0 || last >= n))
      return ndt__error(NDT_ERR_VALUE, "gather: the slice of axis %d leaves [0, %lld)", k,
                       (long long)n);
  }
  ndt_array *res;
  ndt_status st = ndt__array_new(&res, a->dtype, nd, shape, 0);
  if (st) return st;
  if (res->size == 0) {
    *out = res;
    return NDT_OK;
  }
  /* a sliced axis's index operand: positions 0, 1, ... along its result
   * axis (relative to the block's first, as the block's region starts
   * there), a view of one arange */
  ndt_array *ar = NULL;
  if (alen > 0 && (st = ndt_arange(&ar, 0, (double)alen, 1, NDT_INT64))) {
    ndt_free(res);
    return st;
  }
  ndt_tiling tl;
  ndt__tiling_for(res->ndim, res->shape, res->store->itemsize, ndt__rt_tile_bytes(), &tl);
  /* the index bounds: hi's, or the axis; per block, the block's own
   * (waited for) where there are several tasks, several index arrays (a
   * task checks its indices element by element, not array by array) or
   * the bounds span more than a tile of a */
  int64_t lim[NDT_MAXDIMS], lo0[NDT_MAXDIMS] = {0}, reach = ndt_vsize(a);
  int ni = 0;
  for (int k = 0; k < na; k++) {
    lim[k] = idx[k] ? (hi ? hi[k] : a->shape[k]) : 0;
    ni += idx[k] != NULL;
    if (__builtin_mul_overflow(reach, idx[k] ? lim[k] : shape[ax[k]], &reach)) reach = INT64_MAX;
  }
  /* with hi, the caller bounded (and checked) the indices: the pass only
   * where the result has several blocks and a block's part of a could span
   * more than two tiles of it (the pass reads the index blocks once more: a
   * fifth more traffic where an index array is the result's size, as
   * take_along_axis's; and its wait costs collectives on ranks, where one
   * block would only gain its lower bounds) */
  int pre = ni > 0 && (tl.ntiles > 1 || ni > 1 || reach > ndt__rt_tile_bytes());
  if (pre && hi)
    pre = tl.ntiles > 1 && block_spans_tiles(a, res, &tl, idx, ax, start, step, lim);
  ndt_store *parts = NULL;
  if (pre &&
      (st = gather_bounds(res, &tl, idx, na, lim, &parts))) {
    if (parts) ndt__store_decref(parts);
    ndt_free(ar);
    ndt_free(res);
    return st;
  }
  const char *bp = NULL;
  if (parts) {
    ndt_array pv;
    ndt__range_view(&pv, parts, 0, parts->size);
    bp = ndt__host_elem(&pv, 0, 0, NULL);
  }
  gather_arg *g = ndt__malloc(sizeof *g);
  if (!g) {
    if (parts) ndt__store_decref(parts);
    ndt_free(ar);
    ndt_free(res);
    return NDT_ERR_NOMEM;
  }
  ndt_operand ops[NDT_MAXDIMS + 2];
  ops[0] = (ndt_operand){&g->reg, NDT_READ | NDT_OPND_WALK};
  ops[1] = (ndt_operand){&g->out, NDT_WRITE};
  for (int k = 0; k < na; k++) ops[2 + k] = (ndt_operand){&g->idx[k], NDT_READ};
  unsigned fl = tl.ntiles == 1 && res->size <= ndt__rt_inline_elems()
                    ? NDT_TASK_INLINE | NDT_TASK_CALLER_ERROR : 0;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    int64_t bst[NDT_MAXDIMS], blo[NDT_MAXDIMS], bhi[NDT_MAXDIMS];
    const int64_t *lo = lo0, *up = lim;
    if (bp) {   /* the block's [least, greatest] index of each index array */
      for (int k = 0, i = 0; k < na; k++) {
        if (!idx[k]) continue;
        int64_t q[2];
        memcpy(q, bp + (b * ni + i++) * 32, 16);
        blo[k] = q[0];
        bhi[k] = q[1] + 1;
      }
      lo = blo;
      up = bhi;
    }
    ndt__block_view(res, &tl, b, &g->out);
    ndt__block_start(res, &tl, b, bst);
    gather_region(a, &g->out, bst, idx, ax, start, step, lo, up, &g->a, &g->reg);
    for (int k = 0; k < na; k++) {
      if (idx[k]) {
        ndt__block_view(idx[k], &tl, b, &g->idx[k]);
        continue;
      }
      ndt_array *v = &g->idx[k];
      *v = *ar;
      v->ndim = nd;
      v->size = g->out.size;
      for (int j = 0; j < nd; j++) {
        v->shape[j] = g->out.shape[j];
        v->strides[j] = j == ax[k] ? ar->strides[0] : 0;
      }
    }
    st = ndt__record(&gather_kind, NULL, ops, na + 2, g, sizeof *g, fl);
  }
  if (parts) ndt__store_decref(parts);
  ndt__mfree(g);
  ndt_free(ar);
  return ndt__finish(st, res, out);
}
