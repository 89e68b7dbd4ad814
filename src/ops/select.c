/* select.c - searching a sorted 1-d array: searchsorted, and the bin index
 * of a histogram with uniform bins.
 *
 * Both are elementwise over the values: the values are flattened (copied to
 * C order when no 1-d view of them exists) and cut into blocks by the usual
 * tiling rule; each task reads its block of values and the whole sorted array (declared
 * as a read of all its tiles, so on many ranks it travels to the task) and
 * writes its block of int64 results. Every result element depends on its
 * value alone, so results do not depend on workers or ranks. */
#include <math.h>
#include <string.h>
#include "select.h"

/* Element i of a 1-d walked operand not bound in one piece. */
static const char *elem(const void *ctx, int64_t i) {
  const ndt_bound *b = ctx;
  const ndt_array *a = b->view;
  return ndt__elem_run(b, a->offset + i * a->strides[0], 0, NULL);
}

/* The whole sorted array (a walked operand, NDT_OPND_WALK) as the search
 * kernels read it: a pointer and a byte stride when it is bound in place,
 * a lookup per element otherwise. */
static ndt_kread kread_of(const ndt_bound *b) {
  ndt_kread k = {b->ptr, b->ndim ? b->st[0] : 0, b->view->shape[0], elem, b};
  return k;
}

#define CH 256

typedef ndt_find_arg find_arg;   /* (select.h: a device plugin reads it too) */

/* The bins of n values at x (g->v's dtype, byte stride xs), cast to the
 * edges' dtype CH at a time. */
static void bin_index(const find_arg *g, const char *x, int64_t xs, int64_t n, int64_t *out) {
  ndt_dtype t = g->a.dtype;
  ndt_cast_fn cv = ndt__kern->cast(g->v.dtype, t);
  ndt_bins_fn bins = ndt__kern->bins(t);
  ndt_kread rd = kread_of(g->ab);
  ndt_bins_desc d = {g->first, g->last, g->denom, g->single_d, g->single_f};
  double buf[CH];
  for (int64_t c = 0; c < n; c += CH) {
    int64_t m = n - c < CH ? n - c : CH;
    cv(x + c * xs, xs, (char *)buf, ndt__traits[t].size, m);
    bins(&rd, &d, buf, m, out + c);
  }
}

/* searchsorted or bin indices of a block of values */
/* Operands: a (read, walked), the block of values (read, walked), of the
 * result (write). */
static ndt_status find_body(ndt_bound *op, void *p) {
  find_arg *g = p;
  g->ab = &op[0];
  int64_t *o = (int64_t *)op[2].ptr;   /* a fresh contiguous result */
  int64_t n = g->v.size, vs = g->v.strides[0] * g->v.store->itemsize;
  ndt_kread rd = kread_of(&op[0]);
  for (int64_t i = 0; i < n;) {
    int64_t r = n - i;
    const char *pv = ndt__run_at(&op[1], i, &r);
    if (g->bins) bin_index(g, pv, vs, r, o + i);
    else ndt__kern->search(g->a.dtype)(&rd, pv, vs, r, g->right, o + i);
    i += r;
  }
  return NDT_OK;
}


/* ---- histogram counts of uniform bins ---------------------------------- */
typedef ndt_hist_arg hist_arg;   /* (select.h) */

/* Operands: the edges (read, walked), the block of values, of the weights
 * (read; empty without), the block's histogram in parts (write). */
static ndt_status hist_body(ndt_bound *op, void *p) {
  hist_arg *h = p;
  find_arg *g = &h->f;
  g->ab = &op[0];
  int64_t nb = g->a.shape[0] - 1, n = g->v.size;
  int64_t vs = g->v.strides[0] * g->v.store->itemsize;
  int64_t ws = h->has_w ? h->w.strides[0] * h->w.store->itemsize : 0;
  char *part = op[3].ptr;
  memset(part, 0, (size_t)nb * 8);
  ndt_cast_fn cw = h->has_w ? ndt__kern->cast(h->w.dtype, NDT_FLOAT64) : NULL;
  double wb[CH];
  int64_t ib[CH];
  for (int64_t i = 0; i < n;) {   /* values and weights walked, in element order */
    int64_t r = n - i;
    const char *pv = ndt__run_at(&op[1], i, &r);
    const char *pw = cw ? ndt__run_at(&op[2], i, &r) : NULL;
    for (int64_t c = 0; c < r; c += CH) {
      int64_t m = r - c < CH ? r - c : CH;
      bin_index(g, pv + c * vs, vs, m, ib);
      if (cw) cw(pw + c * ws, ws, (char *)wb, 8, m);
      ndt__kern->count(part, ib, cw ? wb : NULL, m, nb);   /* index nb: outside the edges */
    }
    i += r;
  }
  return NDT_OK;
}

static const ndt_task_kind find_kind = {"searchsorted", {find_body}, NULL};
static const ndt_task_kind hist_kind = {"histogram", {hist_body}, NULL};


/* ---- the driver ------------------------------------------------------- */
static ndt_status find_run(const char *name, find_arg *g, const ndt_array *v,
                           ndt_array **out) {
  ndt_array *flat = NULL;
  ndt_status st = ndt_reshape(&flat, v, 1, &v->size);
  if (st) return st;
  ndt_array *res = NULL;
  if ((st = ndt__array_new(&res, NDT_INT64, 1, &flat->shape[0], 0))) {
    ndt_free(flat);
    return st;
  }
  ndt_tiling tl;
  ndt__tiling_for(1, flat->shape, 8, ndt__rt_tile_bytes(), &tl);
  int64_t nb = v->size ? tl.ntiles : 0;
  unsigned fl = nb <= 1 && v->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  ndt_operand ops[3] = {{&g->a, NDT_READ | NDT_OPND_WALK}, {&g->v, NDT_READ | NDT_OPND_WALK},
                        {&g->out, NDT_WRITE}};
  for (int64_t b = 0; b < nb && st == NDT_OK; b++) {
    ndt__block_view(flat, &tl, b, &g->v);
    ndt__block_view(res, &tl, b, &g->out);
    st = ndt__record(&find_kind, name, ops, 3, g, sizeof *g, fl);
  }
  ndt_free(flat);
  ndt_array *r1 = NULL;
  if ((st = ndt__finish(st, res, &r1))) return st;
  st = ndt_reshape(out, r1, v->ndim, v->shape);
  /* the result owns its data (NumPy's OWNDATA), not a view of r1 */
  if (st == NDT_OK && ndt_owns_data(r1) && ndt_same_store(*out, r1))
    st = ndt_take_owner(*out, r1);
  ndt_free(r1);
  return st;
}

ndt_status ndt_searchsorted(ndt_array **out, const ndt_array *a, const ndt_array *v, int right) {
  if (a->ndim != 1) return ndt__error(NDT_ERR_VALUE, "object too deep for desired array");
  if (a->dtype != v->dtype)
    return ndt__error(NDT_ERR_TYPE, "searchsorted: a (%s) and v (%s) must have one dtype",
                     ndt_dtype_name(a->dtype), ndt_dtype_name(v->dtype));
  find_arg g;
  memset(&g, 0, sizeof g);
  g.a = *a;
  g.right = right != 0;
  return find_run("searchsorted", &g, v, out);
}

/* Checks the operands of a uniform-bins histogram and sets up g for them. */
static ndt_status bins_setup(find_arg *g, const ndt_array *x, const ndt_array *edges,
                             double first, double last, double denom, int single_d,
                             int single_f) {
  if (edges->ndim != 1 || edges->shape[0] < 2)
    return ndt__error(NDT_ERR_VALUE, "histogram: edges must be 1-d with at least 2 entries");
  if (edges->dtype != NDT_FLOAT32 && edges->dtype != NDT_FLOAT64)
    return ndt__error(NDT_ERR_TYPE, "histogram: edges must be float32 or float64");
  if (ndt__traits[x->dtype].kind == 'c')
    return ndt__error(NDT_ERR_TYPE, "histogram: complex values have no bins");
  memset(g, 0, sizeof *g);
  g->a = *edges;
  g->bins = 1;
  g->first = first;
  g->last = last;
  g->denom = denom;
  g->single_d = single_d != 0;
  g->single_f = single_f != 0;
  return NDT_OK;
}

ndt_status ndt_histogram_bins(ndt_array **out, const ndt_array *x, const ndt_array *edges,
                              double first, double last, double denom, int single_d, int single_f) {
  find_arg g;
  ndt_status st = bins_setup(&g, x, edges, first, last, denom, single_d, single_f);
  return st ? st : find_run("histogram", &g, x, out);
}

ndt_status ndt_histogram_count(ndt_array **out, const ndt_array *x, const ndt_array *edges,
                               double first, double last, double denom, int single_d, int single_f,
                               const ndt_array *weights) {
  hist_arg h;
  memset(&h, 0, sizeof h);
  ndt_status st = bins_setup(&h.f, x, edges, first, last, denom, single_d, single_f);
  if (st) return st;
  if (weights && (weights->ndim != x->ndim || ndt__traits[weights->dtype].kind == 'c' ||
                  memcmp(weights->shape, x->shape, sizeof(int64_t) * (size_t)x->ndim)))
    return ndt__error(NDT_ERR_VALUE, "weights should have the same shape as a.");
  int64_t nb = edges->shape[0] - 1;
  ndt_array *fx = NULL, *fw = NULL, *res = NULL;
  const ndt_array *src[2] = {x, weights};
  ndt_array **dst[2] = {&fx, &fw};
  for (int k = 0; k < 2; k++) {
    if (src[k] && (st = ndt_reshape(dst[k], src[k], 1, &x->size))) {
      ndt_free(fx);
      return st;
    }
  }
  if ((st = ndt__array_new(&res, weights ? NDT_FLOAT64 : NDT_INT64, 1, &nb, 0))) {
    ndt_free(fx);
    ndt_free(fw);
    return st;
  }
  ndt_tiling tl;
  ndt__tiling_for(1, fx->shape, 8, ndt__rt_tile_bytes(), &tl);
  int64_t nblk = x->size ? tl.ntiles : 0;
  ndt_store *parts = NULL;
  st = ndt__store_new_bytes(&parts, (nblk ? nblk : 1) * nb * 8);
  unsigned fl = nblk <= 1 && x->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  h.has_w = fw != NULL;
  h.parts = parts;
  for (int64_t b = 0; b < nblk && st == NDT_OK; b++) {
    ndt__block_view(fx, &tl, b, &h.f.v);
    if (fw) ndt__block_view(fw, &tl, b, &h.w);
    h.poff = b * nb * 8;
    ndt_array pv;
    ndt__range_view(&pv, parts, h.poff, nb * 8);
    ndt_operand ops[4] = {{&h.f.a, NDT_READ | NDT_OPND_WALK},
                          {&h.f.v, NDT_READ | NDT_OPND_WALK}, {&h.w, NDT_READ | NDT_OPND_WALK},
                          {&pv, NDT_WRITE}};
    st = ndt__record(&hist_kind, NULL, ops, 4, &h, sizeof h, fl);
  }
  if (st == NDT_OK) st = ndt__bin_combine("histogram", res, fw != NULL, nblk, parts, fl);
  if (parts) ndt__store_decref(parts);
  ndt_free(fx);
  ndt_free(fw);
  return ndt__finish(st, res, out);
}
