/* strided.c - two pieces NumPy programs reach through stride tricks and
 * ufunc methods:
 *
 * ndt_as_strided: a view of an array's store with any element offset, shape
 * and element strides (NumPy's as_strided and sliding_window_view, and the
 * Fortran-ordered layouts). Unlike NumPy, every element the view reaches
 * must lie inside the store: a view reaching outside it is refused, so no
 * task ever reads or writes past a store.
 *
 * ndt_view_dtype: the same elements read as another dtype of the same size
 * (ndarray.view(dtype)); the view's dtype differs from its store's, as a
 * .real/.imag view's does, and reads and writes go through the store's
 * element layout.
 *
 * ndt_put_op: a.flat[idx[k]] = op(a.flat[idx[k]], vals[k]) for k in order,
 * unbuffered (NumPy's ufunc.at): repeated indices accumulate, each element
 * sees its updates in index order. One task per tile of the target that the
 * view touches, each scanning all the indices and updating the elements of
 * its own tile (as ndt_put does), so the result does not depend on tiling,
 * workers or ranks. */
#include <string.h>
#include "exec.h"

ndt_status ndt_as_strided(ndt_array **out, const ndt_array *a, int64_t offset, int ndim,
                          const int64_t *shape, const int64_t *strides) {
  if (ndim < 0 || ndim > NDT_MAXDIMS)
    return ndt__error(NDT_ERR_VALUE, "as_strided: %d dimensions (at most %d)", ndim,
                     NDT_MAXDIMS);
  int64_t size = 1, lo = offset, hi = offset;
  int overflow = 0;
  for (int k = 0; k < ndim; k++) {
    if (shape[k] < 0) return ndt__error_at(NDT_ERR_VALUE, NDT_KIND_VALUE, "shape", "negative dimensions are not allowed");
    if (__builtin_mul_overflow(size, shape[k], &size)) overflow = 1;
  }
  if (overflow) return ndt__error(NDT_ERR_VALUE, "array is too big");
  if (size > 0) {
    for (int k = 0; k < ndim; k++) {
      int64_t d;
      if (__builtin_mul_overflow(shape[k] - 1, strides[k], &d) ||
          __builtin_add_overflow(d < 0 ? lo : hi, d, d < 0 ? &lo : &hi))
        overflow = 1;
    }
    /* the bounds rule: the view stays inside its store */
    if (overflow || lo < 0 || hi >= a->store->size)
      return ndt__error(NDT_ERR_VALUE, "as_strided: the view would reach outside the memory "
                       "of its array (elements %lld to %lld of %lld)", (long long)lo,
                       (long long)hi, (long long)a->store->size);
  }
  ndt_array *v;
  ndt_status st = ndt__array_view(&v, a);
  if (st) return st;
  v->ndim = ndim;
  v->size = size;
  /* an empty view touches nothing: its offset is kept in range */
  v->offset = size > 0 ? offset : 0;
  for (int k = 0; k < ndim; k++) {
    v->shape[k] = shape[k];
    v->strides[k] = strides[k];
  }
  *out = v;
  return NDT_OK;
}

/* ---- a dtype view: the same bytes read as another dtype of one size --- */
ndt_status ndt_view_dtype(ndt_array **out, const ndt_array *a, ndt_dtype t) {
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "view: invalid dtype");
  if (ndt__traits[t].size != ndt_vsize(a))
    return ndt__error(NDT_ERR_VALUE, "view: the dtype's size (%d) is not the array's (%d)",
                     ndt__traits[t].size, ndt_vsize(a));
  ndt_array *v;
  ndt_status st = ndt__array_view(&v, a);
  if (st) return st;
  v->dtype = t;   /* offsets, strides and part count store elements: unchanged */
  *out = v;
  return NDT_OK;
}

/* ---- ownership: a layout made from a fresh copy owns its data ---------- */
ndt_status ndt_take_owner(ndt_array *v, ndt_array *from) {
  if (v->store != from->store || !from->owner)
    return ndt__error(NDT_ERR_VALUE, "take_owner: not the owner of the same store");
  v->owner = 1;   /* NumPy's OWNDATA moves to the handle the program keeps */
  from->owner = 0;
  return NDT_OK;
}

/* ---- put_op: ufunc.at -------------------------------------------------- */
typedef struct {
  ndt_put_head h;            /* a, idx, vals and [lo, hi): ndt__put_record's */
  int nin;                   /* 1: unary op (no vals), 2: binary */
  ndt_ufunc opc;
  ndt_dtype loop[3];         /* the loop's inputs, then its output */
  ndt_loop_fn fn;
  ndt_cast_fn to_loop, from_loop;   /* a's dtype <-> loop[0] / loop[nin]; NULL: same */
} put_op_arg;

/* Operands: idx, vals (read; vals empty for a unary op), the target's
 * elements [lo, hi) (read-write, walked). */
static ndt_status put_op_body(ndt_bound *op, void *p) {
  const put_op_arg *g = p;
  ndt_put_desc d = {.fn = g->fn, .nin = g->nin, .op = g->opc,
                    .loop = {g->loop[0], g->loop[1], g->loop[2]},
                    .to_loop = g->to_loop, .from_loop = g->from_loop};
  return ndt__put_run(&g->h, op, &d);
}

static const ndt_task_kind put_op_kind = {"ufunc.at", {put_op_body}, NULL};

static ndt_status put_op(ndt_array *a, const ndt_array *idx, const ndt_array *vals, ndt_ufunc op,
                         const ndt_dtype *loop);

ndt_status ndt_put_op(ndt_array *a, const ndt_array *idx, const ndt_array *vals, ndt_ufunc op,
                      const ndt_dtype *loop) {
  if ((int)op < 0 || op >= NDT_NUFUNCS) return ndt__error(NDT_ERR_VALUE, "at: invalid ufunc");
  /* one record of floating-point errors for all the op's tasks */
  ndt_fp_begin(ndt_ufunc_name(op), ndt__ufunc_fp_mask(op));
  ndt_status st = put_op(a, idx, vals, op, loop);
  ndt_fp_end();
  return st;
}

static ndt_status put_op(ndt_array *a, const ndt_array *idx, const ndt_array *vals, ndt_ufunc op,
                         const ndt_dtype *loop) {
  /* NumPy's ufunc.at by integers or index arrays writes into a WARN_ON_WRITE
   * array without a word, its flag kept (a slice warns: the binding's) */
  ndt_status wst = ndt__check_writeable(a, "at: output array is read-only", 0);
  if (wst) return wst;
  int nin = vals ? 2 : 1;
  if (idx->ndim != 1 || idx->dtype != NDT_INT64)
    return ndt__error(NDT_ERR_TYPE, "at: idx must be a 1-d int64 array");
  if (vals && (vals->ndim != 1 || vals->shape[0] != idx->shape[0]))
    return ndt__error(NDT_ERR_SHAPE, "at: idx and vals must be 1-d of one length");
  if (vals && vals->dtype != loop[1])
    return ndt__error(NDT_ERR_TYPE, "at: vals must have the loop's second input dtype");
  put_op_arg g;
  memset(&g, 0, sizeof g);
  g.nin = nin;
  g.opc = op;
  for (int i = 0; i <= nin; i++) g.loop[i] = loop[i];
  g.fn = ndt__kern->loop(op, g.loop);
  if (!g.fn) return ndt__error(NDT_ERR_TYPE, "at: no loop for these dtypes");
  if (idx->shape[0] == 0) return NDT_OK;
  if (a->size == 0)
    return ndt__error(NDT_ERR_INDEX, "index 0 is out of bounds for axis 0 with size 0");
  if (ndt__traits[loop[0]].size > 16 || ndt__traits[loop[nin]].size > 16)
    return ndt__error(NDT_ERR_TYPE, "at: loop dtype too large");
  g.to_loop = loop[0] != a->dtype ? ndt__kern->cast(a->dtype, loop[0]) : NULL;
  g.from_loop = loop[nin] != a->dtype ? ndt__kern->cast(loop[nin], a->dtype) : NULL;
  g.h.a = *a;
  g.h.idx = *idx;
  if (vals) g.h.vals = *vals;
  return ndt__put_record(&put_op_kind, &g.h, sizeof g);
}

/* ---- reduceat ----------------------------------------------------------- */
/* out[..., s, ...] = fold of a[..., idx[s]:end(s), ...] along axis, where
 * end(s) = idx[s+1] (or n for the last) when that is larger than idx[s], else
 * idx[s] + 1 (NumPy's rule: a single element). The fold is NumPy's: the
 * accumulator starts as the segment's first element and the kernel's run
 * folds the rest in (a pairwise sum for floats, in order otherwise), so
 * every line has NumPy's bits. One task per block of the result; a line
 * that crosses tiles not adjacent in memory is copied into scratch first
 * (a split would change the pairwise grouping). */
typedef struct {
  ndt_array a, idx;
  int64_t first, len;               /* the flat range of the result it writes */
  int64_t rshape[NDT_MAXDIMS];
  int axis;
  ndt_red_kernel k;
} rat_arg;

static ndt_status rat_body(ndt_bound *op, void *p) {
  const rat_arg *g = p;
  const ndt_array *a = &g->a;
  int nd = a->ndim, ax = g->axis, isz = ndt_vsize(a);
  int64_t ssz = a->store->itemsize, n = a->shape[ax], m = g->idx.shape[0];
  int64_t lst_el = a->strides[ax];
  _Alignas(16) char acc[16];
  for (int64_t q = 0; q < g->len; q++) {
    int64_t f = g->first + q, mi[NDT_MAXDIMS];
    for (int d = nd - 1; d >= 0; d--) {
      mi[d] = f % g->rshape[d];
      f /= g->rshape[d];
    }
    int64_t s = mi[ax], start, end;
    memcpy(&start, op[1].ptr + s * op[1].st[0], 8);
    if (s + 1 < m) memcpy(&end, op[1].ptr + (s + 1) * op[1].st[0], 8);
    else end = n;
    if (end <= start) end = start + 1;
    int64_t off = a->offset + start * lst_el, cnt = end - start;
    for (int d = 0; d < nd; d++)
      if (d != ax) off += mi[d] * a->strides[d];
    const char *lp;
    int64_t lst = lst_el * ssz, got = cnt;
    ndt_bound seg_b = {0};
    ndt_array seg;                  /* seg_b keeps a pointer to it until released */
    if (op[2].ptr) {
      lp = op[2].ptr + (off - op[2].view->offset) * ssz;
    } else if (!(lp = ndt__elem_run(&op[2], off, lst_el, &got)) || got < cnt) {
      /* the segment crosses buffers: bound by itself, gathered contiguous */
      seg = *a;
      seg.ndim = 1;
      seg.offset = off;
      seg.shape[0] = seg.size = cnt;
      seg.strides[0] = lst_el;
      ndt_status st = ndt__piece_bind(&op[2], &seg, &seg_b, 1);
      if (st) return st;
      lp = seg_b.ptr;
      lst = seg_b.st[0];
    }
    memcpy(acc, lp, isz);
    if (cnt > 1) g->k.run(acc, lp + lst, lst, cnt - 1);
    memcpy(op[0].ptr + q * op[0].st[0], acc, isz);
    if (seg_b.view) ndt__piece_release(&seg_b, 0);
  }
  return NDT_OK;
}

static const ndt_task_kind rat_kind = {"reduceat", {rat_body}, NULL};

ndt_status ndt_reduceat(ndt_array **out, const ndt_array *a, int axis, const ndt_array *idx,
                        ndt_reduce_op op) {
  int nd = a->ndim;
  if (nd == 0) return ndt__error(NDT_ERR_TYPE, "cannot reduceat on a scalar");
  if (axis < -nd || axis >= nd)
    return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", "axis %d is out of bounds for array of dimension %d", axis,
                     nd);
  if (axis < 0) axis += nd;
  if (idx->ndim != 1 || idx->dtype != NDT_INT64)
    return ndt__error(NDT_ERR_TYPE, "reduceat: indices must be a 1-d int64 array");
  rat_arg g;
  memset(&g, 0, sizeof g);
  if (ndt__kern->reduce(op, a->dtype, &g.k) != 0 || ndt_vsize(a) > 16)
    return ndt__error(NDT_ERR_TYPE, "reduceat: no %s reduction for %s", "such",
                     ndt_dtype_name(a->dtype));
  int64_t m = idx->shape[0], n = a->shape[axis];
  /* the indices are read here, once: they decide the result's meaning and
   * an out-of-range one is the caller's error, raised before any work */
  if (m > 0) {
    int64_t *iv = ndt__malloc((size_t)m * 8);
    if (!iv) return NDT_ERR_NOMEM;
    ndt_status st = ndt_to_buffer(idx, iv);
    for (int64_t s = 0; s < m && st == NDT_OK; s++)
      if (iv[s] < 0 || iv[s] >= n)
        st = ndt__error(NDT_ERR_INDEX, "index %lld out-of-bounds in reduceat [0, %lld)",
                       (long long)iv[s], (long long)n);
    ndt__mfree(iv);
    if (st) return st;
  }
  for (int d = 0; d < nd; d++) g.rshape[d] = d == axis ? m : a->shape[d];
  ndt_array *res;
  ndt_status st = ndt__array_new(&res, a->dtype, nd, g.rshape, 0);
  if (st) return st;
  if (res->size == 0) {
    *out = res;
    return NDT_OK;
  }
  g.a = *a;
  g.idx = *idx;
  g.axis = axis;
  ndt_tiling tl;
  ndt__tiling_for(nd, g.rshape, res->store->itemsize, ndt__rt_tile_bytes(), &tl);
  unsigned fl = tl.ntiles == 1 && a->size + m <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  /* NumPy: "overflow encountered in reduceat" for sums and products only */
  ndt_fp_begin("reduceat", op == NDT_RED_SUM || op == NDT_RED_PROD
                               ? NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_UNDERFLOW |
                                     NDT_FPE_INVALID : 0);
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    g.first = ndt__block_first(&tl, b);
    g.len = (b + 1 < tl.ntiles ? ndt__block_first(&tl, b + 1) : res->size) - g.first;
    ndt_array ov;
    ndt__range_view(&ov, res->store, g.first, g.len);
    ov.dtype = res->dtype;
    ndt_operand ops[3] = {{&ov, NDT_WRITE}, {&g.idx, NDT_READ}, {&g.a, NDT_READ | NDT_OPND_WALK}};
    st = ndt__record(&rat_kind, NULL, ops, 3, &g, sizeof g, fl);
  }
  ndt_fp_end();
  return ndt__finish(st, res, out);
}
