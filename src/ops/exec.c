/* exec.c - the block driver: splits an iteration space into blocks (by the
 * same rule that tiles stores, so a fresh output's blocks are its tiles),
 * declares each block's tiles to the runtime, and runs the N-d loop. */
#include <limits.h>
#include <string.h>
#include "exec.h"

#define CAST_CHUNK 512

void ndt__bcast_view(const ndt_array *a, int nd, const int64_t *shape, ndt_array *v) {
  memcpy(v, a, offsetof(ndt_array, shape));   /* the axes are all written below */
  v->ndim = nd;
  v->size = 1;
  for (int k = 0; k < nd; k++) {
    int j = k - (nd - a->ndim);
    v->shape[k] = shape[k];
    v->strides[k] = (j < 0 || a->shape[j] != shape[k]) ? 0 : a->strides[j];
    v->size *= shape[k];
  }
}

void ndt__block_view(const ndt_array *v, const ndt_tiling *tl, int64_t b, ndt_array *out) {
  ndt__view_copy(out, v);
  if (tl->axis < 0) return;
  int ax = tl->axis;
  int64_t inner = 1;
  for (int k = ax + 1; k < v->ndim; k++) inner *= v->shape[k];
  int64_t p = b / tl->per, q = b % tl->per;
  int64_t rows = tl->seg / inner;
  int64_t lo = q * rows, n = v->shape[ax] - lo;
  if (n > rows) n = rows;
  int64_t off = v->offset + lo * v->strides[ax];
  for (int k = ax - 1; k >= 0; k--) {
    int64_t i = p % v->shape[k];
    p /= v->shape[k];
    off += i * v->strides[k];
    out->shape[k] = 1;
  }
  out->offset = off;
  out->shape[ax] = n;
  out->size = 1;
  for (int k = 0; k < v->ndim; k++) out->size *= out->shape[k];
}

/* The axis a block is cut along: the tiling's split axis, or for a shape
 * in one block (a small view, which may still lie across tiles of a big
 * store: a border slab of a padded batch of frames) its first axis. */
static int cut_axis(const ndt_array *v, const ndt_tiling *tl) {
  return tl->axis >= 0 ? tl->axis : v->ndim > 0 ? 0 : -1;
}

void ndt__block_rows(const ndt_array *v, const ndt_tiling *tl, int64_t b, int64_t r0, int64_t rn,
                    ndt_array *out) {
  ndt__block_view(v, tl, b, out);
  int ax = cut_axis(v, tl);
  if (ax < 0 || (r0 == 0 && rn == out->shape[ax])) return;   /* the whole block */
  out->offset += r0 * out->strides[ax];
  out->size = out->size / (out->shape[ax] ? out->shape[ax] : 1) * rn;
  out->shape[ax] = rn;
}

/* Tile of the first and last element a row-slab of v touches. */
static void slab_tiles(const ndt_array *v, int ax, int64_t i, int64_t *ta, int64_t *tz) {
  ndt_array r;
  ndt__view_copy(&r, v);
  r.offset += i * v->strides[ax];
  r.shape[ax] = 1;
  int64_t lo, hi;
  ndt__view_extent(&r, &lo, &hi);
  *ta = ndt_store_tile_of(v->store, lo);
  *tz = ndt_store_tile_of(v->store, hi);
}

/* A block is cut into pieces that read in place only where they hold
 * MIN_PIECE elements on average: a task costs about what gathering that
 * many elements does (a.T.copy() of a (2000, 3000) array in 4 KiB tiles
 * was 64 tasks an output tile, of one element each but the last). */
#define MIN_PIECE 1024

/* 1 when some view's row-slab along ax is wider than the largest tile of
 * its store, so that no row of block b lies in one tile of it, and holds
 * fewer than MIN_PIECE elements a tile it spans: pieces of the block would
 * each gather that view (one task per row: a block of a.T read 64 tiles a
 * task, one a row, up to the cap of pieces), so the block is one piece
 * that reads every tile it needs. (A frame's columns of a batch of frames
 * span the frame's tiles with a thousand elements in each: cut, each
 * frame's rows in their tiles, not one task over every frame's tiles.) A
 * slab's extent is the same width at every row (each is the first moved
 * by a stride). */
static int slab_spans_tiles(ndt_array *const *views, int n, const ndt_tiling *tl, int64_t b,
                            int ax) {
  for (int k = 0; k < n; k++) {
    const ndt_store *s = views[k]->store;
    if (!s || s->ntiles == 1) continue;
    ndt_array v;
    ndt__block_view(views[k], tl, b, &v);
    if (v.size == 0) continue;
    v.shape[ax] = 1;
    int64_t lo, hi, elems = 1;
    ndt__view_extent(&v, &lo, &hi);
    for (int d = 0; d < v.ndim; d++) elems *= v.shape[d];
    if (hi - lo >= s->seg && elems < MIN_PIECE * ((hi - lo) / s->seg + 1)) return 1;
  }
  return 0;
}

/* 1 when block b of v lies in one tile of v's store. */
static int block_in_one_tile(const ndt_array *v, const ndt_tiling *tl, int64_t b) {
  const ndt_store *s = v->store;
  if (!s || s->ntiles == 1) return 1;   /* every small array: no look at the view */
  ndt_array w;
  if (tl->axis >= 0) ndt__block_view(v, tl, b, &w);
  const ndt_array *bv = tl->axis >= 0 ? &w : v;   /* one block: the view itself */
  if (bv->size == 0) return 1;
  int64_t lo, hi;
  ndt__view_extent(bv, &lo, &hi);
  return ndt_store_tile_of(s, lo) == ndt_store_tile_of(s, hi);
}

int ndt__block_cuts(ndt_array *const *views, int n, const ndt_tiling *tl, int64_t b,
                   int64_t *cuts, int cap) {
  int nc = 0;
  cuts[nc++] = 0;
  /* the usual case first (every small array, most blocks): each view's
   * block lies in one tile, so the block is one piece of all its rows */
  int one_tile = 1;
  for (int k = 0; k < n && one_tile; k++) one_tile = block_in_one_tile(views[k], tl, b);
  if (one_tile) {
    int64_t rows = 1;
    if (tl->axis >= 0) {
      ndt_array bv;
      ndt__block_view(views[0], tl, b, &bv);
      rows = bv.shape[tl->axis];
    } else if (views[0]->ndim > 0) {
      rows = views[0]->shape[0];
    }
    cuts[nc++] = rows;
    return nc - 1;
  }
  ndt_array bv;
  ndt__block_view(views[0], tl, b, &bv);
  int ax = cut_axis(&bv, tl);
  int64_t rows = ax < 0 ? 1 : bv.shape[ax];
  if (ax >= 0 && rows > 1 && bv.size > 0 && !slab_spans_tiles(views, n, tl, b, ax)) {
    for (int64_t i = 0; i < rows;) {
      /* the longest run of rows from i in which every view stays in the tile
       * its row i is in; the predicate holds on a prefix, by monotonicity */
      int64_t end = rows;
      for (int k = 0; k < n; k++) {
        ndt_array v;
        ndt__block_view(views[k], tl, b, &v);
        if (v.size == 0 || v.strides[ax] == 0) continue;
        int64_t ta, tz;
        slab_tiles(&v, ax, i, &ta, &tz);
        if (ta != tz) { end = i + 1; break; }
        int64_t lo = i + 1, hi = end;   /* first row in [lo, hi) that leaves tile ta */
        while (lo < hi) {
          int64_t mid = lo + (hi - lo) / 2, ma, mz;
          slab_tiles(&v, ax, mid, &ma, &mz);
          if (ma == ta && mz == ta) lo = mid + 1; else hi = mid;
        }
        if (lo < end) end = lo;
      }
      if (nc == cap - 1) end = rows;   /* out of room: the rest is one piece */
      cuts[nc++] = end;
      i = end;
      if ((nc - 1) * MIN_PIECE > bv.size) {   /* pieces too small: the block is one */
        cuts[1] = rows;
        return 1;
      }
    }
  } else {
    cuts[nc++] = rows;
  }
  return nc - 1;
}

int64_t ndt__block_first(const ndt_tiling *tl, int64_t b) {
  return tl->axis < 0 ? 0 : (b / tl->per) * tl->period + (b % tl->per) * tl->seg;
}

void ndt__block_start(const ndt_array *v, const ndt_tiling *tl, int64_t b, int64_t *start) {
  int64_t f = ndt__block_first(tl, b);
  for (int k = v->ndim - 1; k >= 0; k--) {
    start[k] = v->shape[k] ? f % v->shape[k] : 0;
    f = v->shape[k] ? f / v->shape[k] : 0;
  }
}

void ndt__axis_last(const ndt_array *v, int ax, ndt_array *w) {
  *w = *v;
  int j = 0;
  for (int k = 0; k < v->ndim; k++) {
    if (k == ax) continue;
    w->shape[j] = v->shape[k];
    w->strides[j++] = v->strides[k];
  }
  w->shape[j] = v->shape[ax];
  w->strides[j] = v->strides[ax];
}

void ndt__line_tiling(const ndt_array *w, ndt_tiling *tl) {
  int nd = w->ndim;
  int64_t tb = ndt__rt_tile_bytes(), lb = w->shape[nd - 1] * ndt_vsize(w);
  if (lb > tb) lb = tb + 1;
  if (lb > INT_MAX) lb = INT_MAX;
  ndt__tiling_for(nd - 1, w->shape, (int)lb, tb, tl);
}

void ndt__line_block(const ndt_array *w, const ndt_tiling *tl, int64_t b, int64_t n,
                    ndt_array *out) {
  int nd = w->ndim;
  ndt_array o = *w;
  o.ndim = nd - 1;
  o.size = 1;
  for (int k = 0; k < nd - 1; k++) o.size *= w->shape[k];
  ndt__block_view(&o, tl, b, out);
  out->ndim = nd;
  out->shape[nd - 1] = n;
  out->strides[nd - 1] = w->strides[nd - 1];
  out->size *= n;
}

const char *ndt__run_at(const ndt_bound *b, int64_t i, int64_t *n) {
  if (b->ptr) return b->ptr + i * b->st[0];
  const ndt_array *v = b->view;
  return ndt__elem_run(b, v->offset + i * v->strides[0], v->strides[0], n);
}

ndt_status ndt__finish(ndt_status st, ndt_array *res, ndt_array **out) {
  if (st) {
    ndt_sync();   /* recorded tasks still write into res */
    ndt_free(res);
    return st;
  }
  *out = res;
  return NDT_OK;
}

void ndt__run_loop(ndt_loop_fn loop, int nin, const ndt_dtype *in_dt, const ndt_dtype *loop_in,
                  ndt_dtype out_dt, ndt_dtype loop_out, char **p, const int64_t *s, int64_t n) {
  if (!loop) {
    ndt__kern->cast(in_dt[0], out_dt)(p[0], s[0], p[1], s[1], n);
    return;
  }
  int cast_in[NDT_MAXOPS], any = 0;
  for (int i = 0; i < nin; i++) any |= cast_in[i] = in_dt[i] != loop_in[i];
  int cast_out = out_dt != loop_out;
  if (!any && !cast_out) {
    loop(p, s, n);
    return;
  }
  _Alignas(64) char buf[NDT_MAXOPS][CAST_CHUNK * 16];
  char *args[NDT_MAXOPS];
  int64_t steps[NDT_MAXOPS];
  for (int64_t c = 0; c < n; c += CAST_CHUNK) {
    int64_t m = n - c < CAST_CHUNK ? n - c : CAST_CHUNK;
    for (int i = 0; i < nin; i++) {
      if (cast_in[i]) {
        /* a broadcast input stays one element of stride 0, as the loop
         * would see it uncast (power's scalar exponent, see loops_arith.c) */
        int64_t k = s[i] ? m : 1;
        ndt__kern->cast(in_dt[i], loop_in[i])(p[i] + c * s[i], s[i], buf[i],
                                               ndt__traits[loop_in[i]].size, k);
        args[i] = buf[i];
        steps[i] = s[i] ? ndt__traits[loop_in[i]].size : 0;
      } else {
        args[i] = p[i] + c * s[i];
        steps[i] = s[i];
      }
    }
    if (cast_out) {
      args[nin] = buf[nin];
      steps[nin] = ndt__traits[loop_out].size;
    } else {
      args[nin] = p[nin] + c * s[nin];
      steps[nin] = s[nin];
    }
    loop(args, steps, m);
    if (cast_out)
      ndt__kern->cast(loop_out, out_dt)(buf[nin], steps[nin], p[nin] + c * s[nin], s[nin], m);
  }
}

static void run_inner(const ndt_ew_arg *a, char **p, const int64_t *s, int64_t n) {
  ndt_dtype in_dt[NDT_MAXOPS];
  for (int i = 0; i < a->nin; i++) in_dt[i] = a->op[i].dtype;
  ndt__run_loop(a->loop, a->nin, in_dt, a->loop_in, a->op[a->nin].dtype, a->loop_out, p, s, n);
}

static ndt_status ew_body(ndt_bound *b, void *argp) {
  const ndt_ew_arg *a = argp;
  int nop = a->nin + 1;
  int64_t shape[NDT_MAXDIMS], s[NDT_MAXOPS][NDT_MAXDIMS];
  int nd = a->op[0].ndim;
  memcpy(shape, a->op[a->nin].shape, sizeof(int64_t) * nd);
  for (int o = 0; o < nop; o++) memcpy(s[o], b[o].st, sizeof(int64_t) * nd);
  nd = ndt__coalesce(nd, shape, nop, s);
  char *p[NDT_MAXOPS], *q[NDT_MAXOPS];
  int64_t inner = nd ? shape[nd - 1] : 1, is[NDT_MAXOPS];
  for (int o = 0; o < nop; o++) is[o] = nd ? s[o][nd - 1] : 0;
  int64_t idx[NDT_MAXDIMS] = {0}, runs = 1;
  for (int k = 0; k < nd - 1; k++) runs *= shape[k];
  /* without casts the loop is called straight; runs are often one row
   * (shifted views of a padded frame), so what each call costs counts */
  int direct = a->loop != NULL && a->op[a->nin].dtype == a->loop_out;
  for (int i = 0; i < a->nin; i++) direct &= a->op[i].dtype == a->loop_in[i];
  for (int o = 0; o < nop; o++) p[o] = b[o].ptr;
  for (int64_t r = 0; r < runs; r++) {
    memcpy(q, p, sizeof(char *) * (size_t)nop);   /* a loop may move its pointers */
    if (direct) a->loop(q, is, inner);
    else run_inner(a, q, is, inner);
    for (int k = nd - 2; k >= 0; k--) {   /* the next run's starts (an odometer) */
      if (++idx[k] < shape[k]) {
        for (int o = 0; o < nop; o++) p[o] += s[o][k];
        break;
      }
      idx[k] = 0;
      for (int o = 0; o < nop; o++) p[o] -= (shape[k] - 1) * s[o][k];
    }
  }
  return NDT_OK;
}

static const ndt_task_kind ew_kind = {"elementwise", {ew_body}, NULL};

int ndt__split_itemsize(ndt_array *const *views, int n, int itemsize) {
  for (int k = 0; k < n; k++) {
    const ndt_store *s = views[k]->store;
    if (s && s->ntiles > 1 && s->itemsize > itemsize) itemsize = s->itemsize;
  }
  return itemsize;
}

ndt_status ndt__launch_elementwise(ndt_ew_arg *proto, ndt_array *const *views) {
  int nin = proto->nin, nop = nin + 1;
  const ndt_array *out = views[nin];
  if (out->size == 0) return NDT_OK;
  ndt_tiling tl;
  /* blocks as fine as the tiles of the widest split operand (a comparison
   * of float32 frames into bool: the bool tiles hold several frames, the
   * float32 ones half a frame, and a bool-sized block would gather and
   * scatter across the float32 tiles) */
  ndt__tiling_for(out->ndim, out->shape, ndt__split_itemsize(views, nop, out->store->itemsize),
                 ndt__rt_tile_bytes(), &tl);
  int small = tl.ntiles == 1 && out->size <= ndt__rt_inline_elems();
  ndt_operand ops[NDT_MAXOPS];
  for (int o = 0; o < nop; o++) ops[o] = (ndt_operand){&proto->op[o], o == nin ? NDT_WRITE : NDT_READ};
  ndt_status st = NDT_OK;
  int64_t cuts[65];
  for (int64_t blk = 0; blk < tl.ntiles && st == NDT_OK; blk++) {
    /* pieces of the block in which no operand crosses a tile border: they
     * read and write in place, with no gathers */
    int np_ = ndt__block_cuts(views, nop, &tl, blk, cuts, 65);
    for (int pc = 0; pc < np_ && st == NDT_OK; pc++) {
      for (int o = 0; o < nop; o++)
        ndt__block_rows(views[o], &tl, blk, cuts[pc], cuts[pc + 1] - cuts[pc], &proto->op[o]);
      st = ndt__record(&ew_kind, proto->name, ops, nop, proto, sizeof *proto,
                      small && np_ == 1 ? NDT_TASK_INLINE : 0);
    }
  }
  return st;
}
