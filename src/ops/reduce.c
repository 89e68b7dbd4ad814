/* reduce.c - reductions. Each block of the input computes a partial into a
 * private buffer; combine tasks (one per tile of the result) fold the partials
 * in block order, so the result does not depend on how many workers ran the
 * blocks. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "reduce.h"
#include "kernels/pairwise.h"   /* the walk of the tree; scalar.h's ndt_sc_nan2 */

#define CHUNK 256

typedef ndt_red_arg red_arg;   /* reduce.h */

/* n copies of the sz-byte item at val, in growing memcpy runs (one call per
 * element would cost more than the reduction itself). */
static void fill_items(char *dst, const void *val, int sz, int64_t n) {
  if (n <= 0) return;
  memcpy(dst, val, sz);
  for (int64_t have = 1; have < n;) {
    int64_t m = have < n - have ? have : n - have;
    memcpy(dst + have * sz, dst, (size_t)(m * sz));
    have += m;
  }
}

/* -0.0 in float or complex dtype t (each part): where a float sum starts
 * to be exact. x + -0.0 is x for every x, where +0.0 turns a sum of -0.0s
 * into +0.0; a seeded sum (ndt_reduce_initial) adds its partials to the
 * start, so they must be the sums themselves: initial=-0.0 keeps the
 * sign of a sum of -0.0s, as NumPy's. */
static void neg_zero(ndt_dtype t, char *v) {
  switch (t) {
    case NDT_FLOAT32: case NDT_COMPLEX64: {
      float z[2] = {-0.0f, -0.0f};
      memcpy(v, z, (size_t)ndt__traits[t].size);
      break;
    }
    default: {
      double z[2] = {-0.0, -0.0};
      memcpy(v, z, (size_t)ndt__traits[t].size);
    }
  }
}

/* 1 when the partial sums of op in acc start from -0.0 (neg_zero): float
 * and complex sums of a seeded reduction. */
static int sum_from_neg_zero(ndt_reduce_op op, ndt_dtype acc) {
  char k = ndt__traits[acc].kind;
  return (op == NDT_RED_SUM || op == NDT_RED_NANSUM) && (k == 'f' || k == 'c');
}

/* ARG partials keep their int64 indices after the values, aligned. */
static int64_t idx_offset(const red_arg *r) {
  return (r->pcount * ndt__traits[r->acc].size + 7) & ~(int64_t)7;
}

/* The partial of block b has the block's shape with reduced axes set to 1. */
static int64_t partial_shape(const red_arg *r, const ndt_array *bv, int64_t *ps) {
  int64_t n = 1;
  for (int k = 0; k < bv->ndim; k++) {
    ps[k] = (r->mask >> k & 1) ? 1 : bv->shape[k];
    n *= ps[k];
  }
  return n;
}

static void c_strides_bytes(int nd, const int64_t *shape, int64_t isz, uint64_t zero_mask,
                            int64_t *st) {
  int64_t s = isz;
  for (int k = nd - 1; k >= 0; k--) {
    st[k] = (zero_mask >> k & 1) || shape[k] == 1 ? 0 : s;
    s *= shape[k];
  }
}

/* Operands: the input block (read), its value partials and (arg*) index
 * partials in parts (write; the second empty otherwise). */
static ndt_status block_body(ndt_bound *op, void *p) {
  const red_arg *r = p;
  ndt_array bv;
  ndt__block_view(&r->in, &r->tl, r->blk, &bv);
  int nd = bv.ndim;
  int64_t ps[NDT_MAXDIMS], pst[NDT_MAXDIMS];
  int64_t pn = partial_shape(r, &bv, ps);
  int asz = ndt__traits[r->acc].size;
  char *pdata = op[1].ptr;
  int64_t *pidx = (int64_t *)op[2].ptr;
  const ndt_bound b = op[0];
  ndt_red_kernel k;
  ndt_arg_fn argk = NULL;
  if (r->arg) {
    argk = ndt__kern->arg(r->op, r->acc);
    for (int64_t i = 0; i < pn; i++) pidx[i] = -1;
  } else {
    ndt__kern->reduce(r->op, r->acc, &k);
    /* seeded: the first block of its result elements (at the start of the
     * reduced axes) starts from the seed, as NumPy's fold does, unless the
     * seed is added last; float sums' other partials from -0.0 */
    char start[16];
    memcpy(start, k.identity, (size_t)asz);
    if (r->from_out && sum_from_neg_zero(r->op, r->acc)) neg_zero(r->acc, start);
    if (r->from_out && !r->seed_last) {
      int64_t bs[NDT_MAXDIMS];
      int first = 1;
      ndt__block_start(&r->in, &r->tl, r->blk, bs);
      for (int j = 0; j < nd; j++)
        if ((r->mask >> j & 1) && bs[j] != 0) first = 0;
      if (first) memcpy(start, r->seed, (size_t)asz);
    }
    fill_items(pdata, start, asz, pn);
  }
  c_strides_bytes(nd, ps, asz, r->mask, pst);
  ndt_cast_fn cast = bv.dtype != r->acc ? ndt__kern->cast(bv.dtype, r->acc) : NULL;
  _Alignas(64) char buf[CHUNK * 16];

  if (r->arg) {
    int64_t start[NDT_MAXDIMS];
    ndt__block_start(&r->in, &r->tl, r->blk, start);
    if (r->arg_all) {
      /* C-order runs along the last axis; flat index = block start + i */
      int64_t f0 = ndt__block_first(&r->tl, r->blk);
      int64_t n = nd ? bv.shape[nd - 1] : 1, s = nd ? b.st[nd - 1] : 0;
      int64_t idx[NDT_MAXDIMS] = {0}, runs = bv.size / (n ? n : 1);
      for (int64_t q = 0; q < runs; q++) {
        const char *ip = b.ptr;
        for (int j = 0; j < nd - 1; j++) ip += idx[j] * b.st[j];
        argk(ip, s, n, pdata, pidx, f0 + q * n);
        for (int j = nd - 2; j >= 0; j--) {
          if (++idx[j] < bv.shape[j]) break;
          idx[j] = 0;
        }
      }
    } else {
      int ax = r->arg_axis;
      int64_t idx[NDT_MAXDIMS] = {0}, runs = pn, pe[NDT_MAXDIMS];
      for (int j = 0; j < nd; j++) pe[j] = pst[j] / asz;   /* (no division a run) */
      for (int64_t q = 0; q < runs; q++) {
        const char *ip = b.ptr;
        int64_t po = 0;
        for (int j = 0; j < nd; j++) {
          ip += idx[j] * b.st[j];
          po += idx[j] * pe[j];
        }
        argk(ip, b.st[ax], bv.shape[ax], pdata + po * asz, pidx + po, start[ax]);
        for (int j = nd - 1; j >= 0; j--) {
          if (j == ax) continue;
          if (++idx[j] < bv.shape[j]) break;
          idx[j] = 0;
        }
      }
    }
    return NDT_OK;
  }

  /* the view's own strides join the coalescing: a pairwise run is a
   * stretch the view steps through as one axis, whether its operand is
   * bound in place or gathered into dense scratch (where more axes would
   * merge into longer runs: another tree, other bits than a device's or
   * another binding's, for x[:, ::2].sum(axis=(1, 2)) across tiles) */
  int64_t shape[NDT_MAXDIMS], s2[3][NDT_MAXDIMS];
  memcpy(shape, bv.shape, sizeof(int64_t) * nd);
  memcpy(s2[0], b.st, sizeof(int64_t) * nd);
  memcpy(s2[1], pst, sizeof(int64_t) * nd);
  memcpy(s2[2], bv.strides, sizeof(int64_t) * nd);
  nd = ndt__coalesce(nd, shape, 3, s2);
  int64_t n = nd ? shape[nd - 1] : 1, is = nd ? s2[0][nd - 1] : 0, os = nd ? s2[1][nd - 1] : 0;
  int64_t idx[NDT_MAXDIMS] = {0}, runs = 1;
  for (int j = 0; j < nd - 1; j++) runs *= shape[j];
  for (int64_t q = 0; q < runs; q++) {
    const char *ip = b.ptr;
    char *op = pdata;
    for (int j = 0; j < nd - 1; j++) {
      ip += idx[j] * s2[0][j];
      op += idx[j] * s2[1][j];
    }
    if (!cast) {
      if (os == 0) k.run(op, ip, is, n);
      else k.acc(op, os, ip, is, n);
    } else {
      for (int64_t c = 0; c < n; c += CHUNK) {
        int64_t m = n - c < CHUNK ? n - c : CHUNK;
        cast(ip + c * is, is, buf, asz, m);
        if (os == 0) k.run(op, buf, asz, m);
        else k.acc(op + c * os, os, buf, asz, m);
      }
    }
    for (int j = nd - 2; j >= 0; j--) {
      if (++idx[j] < shape[j]) break;
      idx[j] = 0;
    }
  }
  return NDT_OK;
}

/* Folds the partials of every block, in block order, into the output
 * elements [clo, chi) (flat, C order): whole runs at a time, and one task
 * per output tile, so a large result is combined in parallel. */
/* out is a fresh C-contiguous array: elements [lo, hi) as a flat view */
static void out_range(const ndt_array *o, int64_t lo, int64_t hi, ndt_array *ov) {
  *ov = *o;
  ov->ndim = 1;
  ov->offset = o->offset + lo;
  ov->shape[0] = ov->size = hi - lo;
  ov->strides[0] = 1;
}

/* The box (b0, bn) of v as a view. */
static void box_view(const ndt_array *v, const int64_t *b0, const int64_t *bn, ndt_array *out) {
  ndt__view_copy(out, v);
  out->size = 1;
  for (int k = 0; k < v->ndim; k++) {
    out->offset += b0[k] * v->strides[k];
    out->shape[k] = bn[k];
    out->size *= bn[k];
  }
}

/* The direct fold of one block (no partials): folds block blk of the input
 * (its elements at src, byte strides sst over the block's shape bv, its
 * first element at start) into
 * the result's elements [lo, hi) (flat; element lo at dst), in the block's
 * C order: out strides are 0 along the reduced axes, so each of its rows
 * adds into the same elements, in order. ost: the result's element
 * strides. */
static void fold_block(const red_arg *r, const ndt_red_kernel *k, char *dst, int64_t lo,
                       int64_t hi, const int64_t *ost, const ndt_array *bv,
                       const int64_t *start, const char *src, const int64_t *sst) {
  int nd = r->out.ndim, osz = ndt__traits[r->out.dtype].size;
  int64_t shape[NDT_MAXDIMS], st2[2][NDT_MAXDIMS];
  int64_t obase = 0;
  for (int j = 0; j < nd; j++)
    if (!(r->mask >> j & 1)) obase += start[j] * ost[j];
  memcpy(shape, bv->shape, sizeof(int64_t) * nd);
  memcpy(st2[0], sst, sizeof(int64_t) * nd);
  memcpy(st2[1], ost, sizeof(int64_t) * nd);
  int cd = ndt__coalesce(nd, shape, 2, st2);
  int64_t n = cd ? shape[cd - 1] : 1, sp = cd ? st2[0][cd - 1] : 0;
  int64_t so = cd ? st2[1][cd - 1] : 0, runs = 1, idx[NDT_MAXDIMS] = {0};
  for (int j = 0; j < cd - 1; j++) runs *= shape[j];
  for (int64_t q = 0; q < runs; q++) {
    int64_t oi = obase, pb = 0;   /* out element; src byte offset */
    for (int j = 0; j < cd - 1; j++) {
      oi += idx[j] * st2[1][j];
      pb += idx[j] * st2[0][j];
    }
    int64_t j0, j1;
    ndt_red_in_range(oi, n, so, lo, hi, &j0, &j1);
    if (j1 > j0) k->acc(dst + (oi + j0 * so - lo) * osz, so * osz, src + pb + j0 * sp, sp, j1 - j0);
    for (int j = cd - 2; j >= 0; j--) {
      if (++idx[j] < shape[j]) break;
      idx[j] = 0;
    }
  }
}

/* Operands: out's elements [clo, chi) (write), all partials (read) or,
 * without partials, the box of the input they read (reduce.h's ndt_red_box: read,
 * walked, its blocks' parts bound one by one), the input's store (kept). */
static ndt_status combine_body(ndt_bound *op, void *p) {
  const red_arg *r = p;
  const ndt_array *o = &r->out;
  int nd = o->ndim, asz = ndt__traits[r->acc].size, osz = ndt__traits[o->dtype].size;
  int64_t lo = r->clo, hi = r->chi;
  const ndt_bound b = op[0];
  ndt_status st = NDT_OK;
  int64_t ost[NDT_MAXDIMS];
  c_strides_bytes(nd, o->shape, 1, 0, ost);   /* element strides of out */
  char *vals = NULL;
  ndt_red_kernel k;
  ndt_arg_fn argk = NULL;
  if (r->arg) {
    /* ARG results: the value partials fold into a scratch, indices into out */
    vals = ndt__malloc((size_t)(hi - lo) * asz);
    if (!vals) return NDT_ERR_NOMEM;
    argk = ndt__kern->arg(r->op, r->acc);
  } else {
    /* NaNs of the input were skipped inside the blocks; a partial that is
     * NaN now came from inf - inf or inf * 0 and must propagate. Without
     * partials the fold reads the input and skips its NaNs itself. */
    ndt_reduce_op cop = !r->parts ? r->op
                        : r->op == NDT_RED_NANSUM ? NDT_RED_SUM
                        : r->op == NDT_RED_NANPROD ? NDT_RED_PROD : r->op;
    ndt__kern->reduce(cop, r->acc, &k);
  }
  if (r->arg) {
    int64_t none = -1;
    fill_items(b.ptr, &none, osz, hi - lo);
  } else if (!r->from_out) {   /* (seeded: out holds the start) */
    fill_items(b.ptr, k.identity, asz, hi - lo);
  }
  /* seed_last: the start out holds, kept aside; the partials are combined
   * as without it, and it is added at the end (otherwise the first blocks'
   * partials hold it: block_body) */
  char *start = NULL;
  if (r->from_out && r->seed_last) {
    start = ndt__malloc((size_t)(hi - lo) * asz);
    if (!start) {
      ndt__mfree(vals);
      return NDT_ERR_NOMEM;
    }
    memcpy(start, b.ptr, (size_t)(hi - lo) * asz);
  }
  /* (the direct fold, without partials, goes on from the start out holds) */
  if (r->from_out && !r->arg && r->parts) fill_items(b.ptr, k.identity, asz, hi - lo);
  const char *pbase = r->parts ? op[1].ptr : NULL;
  const int64_t *ibase = r->arg ? (const int64_t *)(pbase + idx_offset(r)) : NULL;
  /* the blocks that meet the box of [lo, hi) (ndt_red_box, reduce.h), in order;
   * without partials the input operand is that box */
  int64_t b0[NDT_MAXDIMS], bn[NDT_MAXDIMS];
  ndt_red_box(&r->in, r->mask, o, lo, hi, b0, bn);
  ndt_red_blocks w;
  for (int64_t blk = ndt_red_blk_first(&w, &r->in, &r->tl, b0, bn); blk >= 0 && st == NDT_OK;
       blk = ndt_red_blk_next(&w)) {
    ndt_array bv;
    ndt__block_view(&r->in, &r->tl, blk, &bv);
    if (!pbase) {   /* the direct fold */
      /* the block's part in the box (the operand's tiles alone); a part
       * whose out elements all lie outside [lo, hi) is not bound */
      int64_t bs[NDT_MAXDIMS], omin = 0, omax = 0;
      ndt__block_start(&r->in, &r->tl, blk, bs);
      for (int j = 0; j < nd && bv.size; j++) {
        int64_t l = bs[j] > b0[j] ? bs[j] : b0[j];
        int64_t h = bs[j] + bv.shape[j] < b0[j] + bn[j] ? bs[j] + bv.shape[j] : b0[j] + bn[j];
        if (h <= l) bv.size = 0;
        else {
          bv.offset += (l - bs[j]) * bv.strides[j];
          bv.size = bv.size / bv.shape[j] * (h - l);
          bv.shape[j] = h - l;
          bs[j] = l;
        }
      }
      if (!bv.size) continue;
      for (int j = 0; j < nd; j++)
        if (!(r->mask >> j & 1)) {
          omin += bs[j] * ost[j];
          omax += (bs[j] + bv.shape[j] - 1) * ost[j];
        }
      if (omax < lo || omin >= hi) continue;
      ndt_bound ib = {0};
      st = ndt__piece_bind(&op[1], &bv, &ib, 1);
      if (st) break;
      fold_block(r, &k, b.ptr, lo, hi, ost, &bv, bs, ib.ptr, ib.st);
      ndt__piece_release(&ib, 0);
      continue;
    }
    int64_t ps[NDT_MAXDIMS], start[NDT_MAXDIMS];
    int64_t poff = ndt_red_part_offset(r, blk);
    partial_shape(r, &bv, ps);
    ndt__block_start(&r->in, &r->tl, blk, start);
    int64_t obase = 0;
    /* The first block (in block order) of every out element it reaches is
     * the one at the start of the reduced axes. Its partial already holds
     * the identity combined with its values: it is copied, not combined
     * with the identity again (for complex products (1+0j) * p is not p:
     * it flips the sign of zeros, and turns inf+infj into NaN). The direct
     * fold (above) reads the input, so it combines from the identity, as
     * NumPy. */
    int copy_first = !r->arg;
    /* an arg* block that holds the whole reduced axis is the only block of
     * its out elements: its index partials are the result */
    int whole = r->arg && !r->arg_all && bv.shape[r->arg_axis] == r->in.shape[r->arg_axis];
    for (int j = 0; j < nd; j++) {
      if (!(r->mask >> j & 1)) obase += start[j] * ost[j];
      else if (start[j] != 0) copy_first = 0;
    }
    /* the partial (C order over ps) against the out elements, in runs; src
     * strides in bytes */
    int64_t shape[NDT_MAXDIMS], st2[2][NDT_MAXDIMS];
    memcpy(shape, ps, sizeof(int64_t) * nd);
    c_strides_bytes(nd, ps, asz, 0, st2[0]);
    const char *src = pbase + poff * asz;
    memcpy(st2[1], ost, sizeof(int64_t) * nd);
    int cd = ndt__coalesce(nd, shape, 2, st2);
    int64_t n = cd ? shape[cd - 1] : 1, sp = cd ? st2[0][cd - 1] : 0;
    int64_t so = cd ? st2[1][cd - 1] : 0, runs = 1, idx[NDT_MAXDIMS] = {0};
    for (int j = 0; j < cd - 1; j++) runs *= shape[j];
    for (int64_t q = 0; q < runs; q++) {
      int64_t oi = obase, pb = 0;   /* out element; src byte offset */
      for (int j = 0; j < cd - 1; j++) {
        oi += idx[j] * st2[1][j];
        pb += idx[j] * st2[0][j];
      }
      int64_t j0, j1;
      ndt_red_in_range(oi, n, so, lo, hi, &j0, &j1);
      if (j1 > j0 && copy_first) {
        for (int64_t j = j0; j < j1; j++)
          memcpy(b.ptr + (oi + j * so - lo) * osz, src + pb + j * sp, (size_t)asz);
      } else if (j1 > j0 && !r->arg) {
        k.acc(b.ptr + (oi + j0 * so - lo) * osz, so * osz, src + pb + j0 * sp, sp, j1 - j0);
      } else if (whole) {
        for (int64_t j = j0; j < j1; j++)
          ((int64_t *)b.ptr)[oi + j * so - lo] = ibase[poff + (pb + j * sp) / asz];
      } else {
        for (int64_t j = j0; j < j1; j++) {
          int64_t d = oi + j * so - lo, pj = poff + (pb + j * sp) / asz;
          int64_t pidx = ibase[pj];
          if (pidx >= 0) argk(pbase + pj * asz, asz, 1, vals + d * asz, (int64_t *)(b.ptr + d * osz),
                              pidx);
        }
      }
      for (int j = cd - 2; j >= 0; j--) {
        if (++idx[j] < shape[j]) break;
        idx[j] = 0;
      }
    }
  }
  if (start && st == NDT_OK) k.acc(b.ptr, osz, start, asz, hi - lo);
  ndt__mfree(start);
  ndt__mfree(vals);
  return st;
}

/* (a device plugin finds the kinds it has bodies for by name: reduce.h) */
static const ndt_task_kind block_kind = {"reduce block", {block_body}, NULL};
static const ndt_task_kind combine_kind = {"reduce combine", {combine_body}, NULL};
/* A seeded reduction's (from_out): kinds of their own, so that only a
 * device whose bodies start where block_body and combine_body do (the CUDA
 * plugin's: a run's start, kernels/cuda/dk.h) takes them. */
static const ndt_task_kind block_seeded_kind = {"reduce block, seeded", {block_body}, NULL};
static const ndt_task_kind combine_seeded_kind = {"reduce combine, seeded", {combine_body},
                                                  NULL};

/* ---- the direct fold on many ranks: a running result, rank to rank ----
 * The direct fold of a result tile folds every block that reaches it, in
 * block order; on many ranks those blocks lie on several ranks (a sum over
 * the frames of a batch: each rank holds some frames), and one combine task
 * on the tile's owner fetched every block it walks - every tile of the
 * input's extent, those of the other result tiles too. Instead the fold is
 * cut where the blocks' rank changes: each step runs on the rank that holds
 * its blocks and goes on from the running result of the step before (a
 * byte store owned by that rank, so the step's home is there: dist.c), and
 * the last writes the result tile (or a copy task brings it to the tile's
 * owner). The same additions in the same order, so the same bits, with at
 * most two result tiles' worth moving per change of rank instead of the
 * blocks (the X-ray job's sums over the frames of a batch: 17.3 MB a sum
 * at 704x768 on 2 ranks, now 3.2). */
#define CARRY_BLOCKS NDT_CARRY_BLOCKS
typedef ndt_carry_arg carry_arg;   /* reduce.h: from 0 the identity, 1 operand 1's running
                                      result, 2 operand 0's (RW); the blocks, operands 2.. */

/* Operands: the running result or the result's elements [clo, chi) (write,
 * or read-write with from 2), the step before's running result (read) or
 * nothing, the blocks (read). */
static ndt_status carry_body(ndt_bound *op, void *p) {
  const carry_arg *c = p;
  const red_arg *r = &c->r;
  ndt_red_kernel k;
  ndt__kern->reduce(r->op, r->acc, &k);
  int osz = ndt__traits[r->out.dtype].size;
  int64_t n = r->chi - r->clo, ost[NDT_MAXDIMS];
  c_strides_bytes(r->out.ndim, r->out.shape, 1, 0, ost);
  if (c->from == 0) fill_items(op[0].ptr, k.identity, osz, n);
  else if (c->from == 1) memcpy(op[0].ptr, op[1].ptr, (size_t)(n * osz));
  for (int i = 0; i < c->nblk; i++) {
    ndt_array bv;
    int64_t bs[NDT_MAXDIMS];
    ndt__block_view(&r->in, &r->tl, c->blk[i], &bv);
    ndt__block_start(&r->in, &r->tl, c->blk[i], bs);
    fold_block(r, &k, op[0].ptr, r->clo, r->chi, ost, &bv, bs, op[2 + i].ptr, op[2 + i].st);
  }
  return NDT_OK;
}
static const ndt_task_kind carry_kind = {"reduce carry", {carry_body}, NULL};

/* Records the steps of result elements [clo, chi) (tile t of the result):
 * blks[0..nb) are the blocks that reach them, in block order, rank[b] the
 * rank that holds block b. */
static ndt_status record_carry(const red_arg *r, const char *name, unsigned inl, int64_t t,
                               const int64_t *blks, int64_t nb, const int *rank) {
  ndt_store *rs = r->out.store, *run = NULL;   /* the running result, if any */
  int run_rank = -1, owner = rs->tiles[t].owner, osz = ndt__traits[r->out.dtype].size;
  int64_t clo = rs->tiles[t].start, chi = clo + rs->tiles[t].len, bytes = (chi - clo) * osz;
  ndt_status st = NDT_OK;
  carry_arg c;
  memset(&c, 0, sizeof c);
  c.r = *r;
  c.r.clo = clo;
  c.r.chi = chi;
  int started = 0;
  for (int64_t i = 0; i < nb && st == NDT_OK;) {
    /* a step: the next blocks on one rank, at most CARRY_BLOCKS */
    int rk = rank[blks[i]];
    c.nblk = 0;
    while (i < nb && rank[blks[i]] == rk && c.nblk < CARRY_BLOCKS) c.blk[c.nblk++] = blks[i++];
    int last = i == nb, to_result = last && rk == owner;
    ndt_store *dst = NULL;   /* a new running result, on rk */
    if (!to_result && run_rank != rk) st = ndt__store_new_bytes_on(&dst, bytes, rk);
    if (st) break;
    /* a seeded fold (from_out) goes on from the result's start: in place,
     * or copied into the first running result */
    c.from = !started ? (r->from_out ? (to_result ? 2 : 1) : 0) : (!to_result && !dst) ? 2 : 1;
    ndt_array dv, pv, bv[CARRY_BLOCKS];
    if (to_result) out_range(&r->out, clo, chi, &dv);
    else ndt__range_view(&dv, dst ? dst : run, 0, bytes);
    if (c.from == 1 && !started) out_range(&r->out, clo, chi, &pv);
    else if (c.from == 1) ndt__range_view(&pv, run, 0, bytes);
    ndt_operand ops[2 + CARRY_BLOCKS];
    ops[0] = (ndt_operand){&dv, c.from == 2 ? NDT_RW : NDT_WRITE};
    ops[1] = c.from == 1 ? (ndt_operand){&pv, NDT_READ} : (ndt_operand){&ndt__empty_view, NDT_READ};
    for (int j = 0; j < c.nblk; j++) {
      ndt__block_view(&r->in, &r->tl, c.blk[j], &bv[j]);
      ops[2 + j] = (ndt_operand){&bv[j], NDT_READ};
    }
    st = ndt__record(&carry_kind, name, ops, 2 + c.nblk, &c,
                     offsetof(carry_arg, blk) + (size_t)c.nblk * sizeof c.blk[0], inl);
    started = 1;
    if (dst) {   /* the tasks hold the one before */
      ndt__store_decref(run);
      run = dst;
      run_rank = rk;
    }
    if (st == NDT_OK && last && !to_result) {   /* to the tile's owner */
      c.from = 1;
      c.nblk = 0;
      out_range(&r->out, clo, chi, &dv);
      ndt__range_view(&pv, run, 0, bytes);
      ndt_operand cops[2] = {{&dv, NDT_WRITE}, {&pv, NDT_READ}};
      st = ndt__record(&carry_kind, name, cops, 2, &c, offsetof(carry_arg, blk), inl);
    }
  }
  ndt__store_decref(run);
  return st;
}

/* Records the direct fold of every tile of r->out as steps (see above). */
static ndt_status record_carries(const red_arg *r, const char *name, unsigned inl) {
  ndt_store *rs = r->out.store;
  int nd = r->out.ndim;
  int64_t nb = r->tl.ntiles, nt = rs->ntiles, ost[NDT_MAXDIMS];
  c_strides_bytes(nd, r->out.shape, 1, 0, ost);
  /* each block's rank, and the range of the flat result that holds the
   * elements it reaches (omin[2b] .. omin[2b+1]; a block whose range meets a
   * tile but none of its elements is folded there for nothing: fold_block
   * skips what lies outside) */
  int64_t *omin = ndt__malloc((size_t)nb * 2 * sizeof *omin), *blks = NULL;
  int *rank = ndt__malloc((size_t)nb * 2 * sizeof *rank + 1);
  int64_t *blo = ndt__malloc((size_t)nb * 2 * sizeof *blo + 1), *bhi = blo ? blo + nb : NULL;
  if (nb) blks = ndt__malloc((size_t)nb * sizeof *blks);
  ndt_status st = omin && rank && blo && (blks || !nb) ? NDT_OK : NDT_ERR_NOMEM;
  for (int64_t b = 0; b < nb && st == NDT_OK; b++) {
    ndt_array bv;
    int64_t start[NDT_MAXDIMS], lo, hi;
    ndt__block_view(&r->in, &r->tl, b, &bv);
    ndt__block_start(&r->in, &r->tl, b, start);
    omin[2 * b] = omin[2 * b + 1] = 0;
    for (int j = 0; j < nd; j++)
      if (!(r->mask >> j & 1)) {
        omin[2 * b] += start[j] * ost[j];
        omin[2 * b + 1] += (start[j] + bv.shape[j] - 1) * ost[j];
      }
    if (bv.size == 0) {   /* reaches nothing */
      omin[2 * b] = 1;
      omin[2 * b + 1] = 0;
    }
    ndt__view_extent(&bv, &lo, &hi);
    rank[b] = bv.size ? bv.store->tiles[ndt_store_tile_of(bv.store, lo)].owner : 0;
    blo[b] = lo;
    bhi[b] = bv.size ? hi : lo - 1;
  }
  for (int64_t t = 0; t < nt && st == NDT_OK; t++) {
    int64_t clo = rs->tiles[t].start, chi = clo + rs->tiles[t].len, n = 0;
    /* (the blocks that meet the tile's box: ndt_red_box) */
    int64_t b0[NDT_MAXDIMS], bn[NDT_MAXDIMS];
    ndt_red_box(&r->in, r->mask, &r->out, clo, chi, b0, bn);
    ndt_red_blocks w;
    for (int64_t b = ndt_red_blk_first(&w, &r->in, &r->tl, b0, bn); b >= 0;
         b = ndt_red_blk_next(&w))
      if (omin[2 * b] < chi && omin[2 * b + 1] >= clo) blks[n++] = b;
    /* a block the tile's owner holds already (the same input reduced
     * again) is folded there: nothing moves */
    int owner = rs->tiles[t].owner, *rk = rank + nb;
    for (int64_t i = 0; i < n; i++) {
      int64_t b = blks[i];
      rk[b] = rank[b] != owner && ndt__dist_holds(r->in.store, owner, blo[b], bhi[b]) ? owner
                                                                                    : rank[b];
    }
    st = record_carry(r, name, inl, t, blks, n, rk);
  }
  ndt__mfree(blks);
  ndt__mfree(blo);
  ndt__mfree(rank);
  ndt__mfree(omin);
  return st;
}

static ndt_dtype sum_dtype(ndt_dtype t) {
  switch (ndt__traits[t].kind) {
    case 'b': case 'i': return NDT_INT64;
    case 'u': return NDT_UINT64;
    default: return t;
  }
}

/* A copy of a in acc for a reduction that casts: NumPy casts its buffers
 * inside the reduction, so the cast's floating-point errors are the
 * reduction's ("overflow encountered in reduce"), not a cast's. */
static ndt_status cast_copy(ndt_array **c, const ndt_array *a, ndt_dtype acc) {
  ndt_fp_group_begin("reduce");
  ndt_status st = ndt_astype(c, a, acc, NDT_CAST_UNSAFE);
  ndt_fp_group_end();
  return st;
}

/* The ufunc's name, for messages and task names: ndt_reduce_name's but
 * minimum/maximum for min/max (their ufuncs). */
static const char *red_name(ndt_reduce_op op) {
  if (op == NDT_RED_MIN) return "minimum";
  if (op == NDT_RED_MAX) return "maximum";
  const char *n = ndt_reduce_name(op);
  return n ? n : "reduce";
}

/* ---- full float sums in NumPy's pairwise order ----------------------------
 * NumPy sums all elements of an array that its iterator can walk as one
 * line (any contiguous or evenly strided array, in memory order) with one
 * pairwise sum over the whole line: 0 + pw(x[0:n]), where pw splits at
 * h = n/2 - (n/2) % 8 (complex: its real scheme over the 2n parts, so
 * h = (n - n % 8) / 2 elements) down to blocks of 128 parts. Per-tile
 * partials added in block order give other bits. Here the same tree is cut
 * at nodes of at most `leaf` elements (a constant of the tile size and
 * dtype, never of the workers): one task sums each node with the kernel's
 * own pairwise loop (a node's subtree is pw of its range), and one task
 * adds the nodes up the top of the tree, then the root to 0 (or, seeded, to
 * the result's start: initial= + pw(x[0:n]), NumPy's order). A node sums
 * from -0.0, so it is pw of its range, -0.0s included. */
typedef ndt_pw_arg pw_arg;   /* reduce.h */

static int64_t pw_split(int64_t n, int cplx) {
  return cplx ? ndt_pw_csplit(n) : ndt_pw_split(n);   /* (pairwise.h's) */
}

static int64_t pw_leaves(int64_t n, int64_t leaf, int cplx) {
  if (n <= leaf) return 1;
  int64_t h = pw_split(n, cplx);
  return pw_leaves(h, leaf, cplx) + pw_leaves(n - h, leaf, cplx);
}

/* The top's additions take x86's NaN rule written out (where two NaNs
 * meet, the first's payload, quieted: scalar.h's ndt_sc_nan2): a compiler
 * may swap the operands of a + b, and a device's top (reduce_impl.h)
 * follows the rule, so the bits would depend on the build. */
#define ADD_X86(SFX, a, b) ndt_sc_nan2_##SFX((a) + (b), a, b)
static float add_x86_f32(float a, float b) { return ADD_X86(f32, a, b); }
static double add_x86_f64(double a, double b) { return ADD_X86(f64, a, b); }
/* complex additions are per part */
static ndt_c64 add_x86_c64(ndt_c64 a, ndt_c64 b) {
  return (ndt_c64){ADD_X86(f32, a.re, b.re), ADD_X86(f32, a.im, b.im)};
}
static ndt_c128 add_x86_c128(ndt_c128 a, ndt_c128 b) {
  return (ndt_c128){ADD_X86(f64, a.re, b.re), ADD_X86(f64, a.im, b.im)};
}
/* The tree above the leaves: pairwise.h's walk (the device's top takes
 * the same), a leaf the k-th leaf's sum in v */
#define TOP_LEAF(V, k, o, m) (V)[k]
#define TOP_ADD(F, a, b) F(a, b)
#define PW_TOP(SFX, T, SPLIT)                                                   \
  static T pw_top_##SFX(const T *v, int64_t n, int64_t leaf) {                  \
    T root;                                                                     \
    NDT_PW_WALK(T, n, leaf, SPLIT, TOP_LEAF, v, TOP_ADD, add_x86_##SFX, root);   \
    return root;                                                                \
  }
PW_TOP(f32, float, ndt_pw_split)
PW_TOP(f64, double, ndt_pw_split)
PW_TOP(c64, ndt_c64, ndt_pw_csplit)
PW_TOP(c128, ndt_c128, ndt_pw_csplit)

/* Operands: the leaf's piece of the line (read), its slot in parts (write). */
static ndt_status pw_leaf_body(ndt_bound *op, void *p) {
  const pw_arg *a = p;
  ndt_red_kernel k;
  ndt__kern->reduce(a->op, a->acc, &k);
  char *slot = op[1].ptr;
  neg_zero(a->acc, slot);
  const ndt_bound b = op[0];
  k.run(slot, b.ptr, b.st[0], a->line.shape[0]);
  return NDT_OK;
}

/* Operands: all leaves' sums in parts (read), the result (write; reduce
 * when seeded). */
static ndt_status pw_top_body(ndt_bound *op, void *p) {
  const pw_arg *a = p;
  char *res = op[1].ptr;
  const char *v = op[0].ptr;
  /* start + the root, as NumPy's reduce starts from 0 or initial= */
#define TOP_CASE(DT, SFX, T)                                                    \
  case DT: {                                                                    \
    T s, r = pw_top_##SFX((const T *)v, a->n, a->leaf);                         \
    memset(&s, 0, sizeof s);                                                    \
    if (a->from_out) memcpy(&s, res, sizeof s);                                 \
    r = add_x86_##SFX(s, r);                                                    \
    memcpy(res, &r, sizeof r);                                                  \
    break;                                                                      \
  }
  switch (a->acc) {
    TOP_CASE(NDT_FLOAT32, f32, float)
    TOP_CASE(NDT_FLOAT64, f64, double)
    TOP_CASE(NDT_COMPLEX64, c64, ndt_c64)
    default:
    TOP_CASE(NDT_COMPLEX128, c128, ndt_c128)
  }
#undef TOP_CASE
  return NDT_OK;
}

static const ndt_task_kind pw_leaf_kind = {"pairwise leaf", {pw_leaf_body}, NULL};
/* a seeded sum's leaves (a device's leaf must start from -0.0, as this
 * body: a -0.0 piece is -0.0) */
static const ndt_task_kind pw_leaf_seeded_kind = {"pairwise leaf, seeded", {pw_leaf_body},
                                                  NULL};
static const ndt_task_kind pw_top_kind = {"pairwise top", {pw_top_body}, NULL};

/* 1 (and *line, the elements as one line in memory order) when a full
 * sum of a should take NumPy's one-line pairwise order: a float or complex
 * sum over all axes, in the input's own dtype, of an array the iterator
 * walks as one line, longer than a leaf or not a line in C order. */
static int one_line(ndt_reduce_op op, const ndt_array *a, uint64_t mask, ndt_dtype acc,
                    int64_t leaf, ndt_array *line, int cast);
static int pw_line(ndt_reduce_op op, const ndt_array *a, uint64_t mask, ndt_dtype acc,
                   int64_t leaf, ndt_array *line) {
  return one_line(op, a, mask, acc, leaf, line, 0);
}

/* ... with cast: the same for a sum whose input is not in acc (a cast sum,
 * below): a line in NumPy's iteration order at any length. */
static int one_line(ndt_reduce_op op, const ndt_array *a, uint64_t mask, ndt_dtype acc,
                    int64_t leaf, ndt_array *line, int cast) {
  char k = ndt__traits[acc].kind;
  int nd = a->ndim;
  uint64_t all = nd >= 64 ? UINT64_MAX : ((uint64_t)1 << nd) - 1;
  if ((op != NDT_RED_SUM && op != NDT_RED_NANSUM && op != NDT_RED_PROD &&
       op != NDT_RED_NANPROD) || (k != 'f' && k != 'c') ||
      (a->dtype != acc) != (cast != 0) || a->part || nd == 0 || (mask & all) != all ||
      a->size < 2)
    return 0;
  /* NumPy's iterator: axes by decreasing stride magnitude; a reduction
   * keeps negative strides (a[::-1].sum() adds in view order) */
  int64_t shape[NDT_MAXDIMS], st[1][NDT_MAXDIMS];
  int order[NDT_MAXDIMS], m = 0;
  for (int j = 0; j < nd; j++) {
    if (a->shape[j] == 1) continue;
    int64_t sj = a->strides[j];
    int q = m++;
    while (q > 0 && llabs(a->strides[order[q - 1]]) < llabs(sj)) {
      order[q] = order[q - 1];
      q--;
    }
    order[q] = j;
  }
  int in_c_order = 1;
  for (int q = 0; q < m; q++) {
    shape[q] = a->shape[order[q]];
    st[0][q] = a->strides[order[q]];
    if (q > 0 && order[q] < order[q - 1]) in_c_order = 0;
  }
  if (ndt__coalesce(m, shape, 1, st) != 1) return 0;
  if (!cast && a->size <= leaf && in_c_order) return 0;   /* one block sums it in this order */
  *line = *a;
  line->ndim = 1;
  line->shape[0] = line->size = shape[0];
  line->strides[0] = st[0][0];
  return 1;
}

static ndt_status pw_sum(ndt_reduce_op op, const ndt_array *line, ndt_dtype acc,
                         int64_t leaf, ndt_array *res, int from_out) {
  pw_arg a;
  memset(&a, 0, sizeof a);
  a.from_out = from_out;
  a.op = op;
  a.acc = acc;
  a.n = line->shape[0];
  a.leaf = leaf;
  a.cplx = ndt__traits[acc].kind == 'c';
  int asz = ndt__traits[acc].size;
  int64_t nleaves = pw_leaves(a.n, leaf, a.cplx);
  ndt_status st = ndt__store_new_bytes(&a.parts, nleaves * asz);
  if (st) return st;
  a.out = *res;
  a.out.ndim = 1;
  a.out.shape[0] = a.out.size = 1;
  a.out.strides[0] = 1;
  unsigned fl = a.n <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  /* the leaves in order: an explicit stack of (start, length) nodes */
  int64_t stk[2 * 128], sp = 0, slot = 0;
  stk[sp++] = 0;
  stk[sp++] = a.n;
  while (sp > 0 && st == NDT_OK) {
    int64_t len = stk[--sp], lo = stk[--sp];
    if (len > leaf) {
      int64_t h = pw_split(len, a.cplx);
      stk[sp++] = lo + h;   /* right pushed first: the left comes out first */
      stk[sp++] = len - h;
      stk[sp++] = lo;
      stk[sp++] = h;
      continue;
    }
    a.slot = slot++;
    a.line = *line;
    a.line.offset = line->offset + lo * line->strides[0];
    a.line.shape[0] = a.line.size = len;
    ndt_array sv;
    ndt__range_view(&sv, a.parts, a.slot * asz, asz);
    ndt_operand ops[2] = {{&a.line, NDT_READ}, {&sv, NDT_WRITE}};
    st = ndt__record(from_out ? &pw_leaf_seeded_kind : &pw_leaf_kind, red_name(op), ops, 2,
                     &a, sizeof a, fl);
  }
  if (st == NDT_OK) {
    ndt_array pv;
    ndt__range_view(&pv, a.parts, 0, nleaves * asz);
    ndt_operand ops[2] = {{&pv, NDT_READ}, {&a.out, from_out ? NDT_REDUCE : NDT_WRITE}};
    st = ndt__record(&pw_top_kind, red_name(op), ops, 2, &a, sizeof a, fl);
  }
  ndt__store_decref(a.parts);
  return st;
}

/* ---- full float sums with a cast: NumPy's buffered order -----------------
 * A sum whose input is not in the accumulator's dtype (sum(x32,
 * dtype=float64), sum(ints, dtype=float32), sum(x64, dtype=float32)): NumPy
 * casts a buffer of NPY_BUFSIZE (8192) elements of the line at a time and
 * adds each buffer's pairwise sum to the running result, 0 (or initial=)
 * + pw(b0) + pw(b1) + ... So here: a cast copy of the line, leaf tasks that
 * sum whole buffers of it into parts (from -0.0: pw(b) itself) and a top
 * task that adds them up in order to the start. (It added 256-element chunks' sums per tile: other bits.) */
#define NP_BUFSIZE NDT_NP_BUFSIZE

/* Operands: the leaf's buffers of the cast line (read, 1-d), their slots
 * in parts (write). */
static ndt_status bsum_leaf_body(ndt_bound *op, void *p) {
  const pw_arg *a = p;
  ndt_red_kernel k;
  ndt__kern->reduce(a->op, a->acc, &k);
  int asz = ndt__traits[a->acc].size;
  const ndt_bound b = op[0];
  char *slot = op[1].ptr;
  for (int64_t c = 0; c < a->line.shape[0]; c += NP_BUFSIZE, slot += asz) {
    int64_t m = a->line.shape[0] - c < NP_BUFSIZE ? a->line.shape[0] - c : NP_BUFSIZE;
    neg_zero(a->acc, slot);
    k.run(slot, b.ptr + c * b.st[0], b.st[0], m);
  }
  return NDT_OK;
}

/* Operands: all buffers' sums (read), the result (write; reduce when
 * seeded): 0 (or the start) + s0 + s1 + ... in order (the kernel's acc with
 * the result's stride 0 adds one at a time). */
static ndt_status bsum_top_body(ndt_bound *op, void *p) {
  const pw_arg *a = p;
  ndt_red_kernel k;
  ndt__kern->reduce(a->op, a->acc, &k);
  int asz = ndt__traits[a->acc].size;
  if (!a->from_out) memcpy(op[1].ptr, k.identity, (size_t)asz);
  k.acc(op[1].ptr, 0, op[0].ptr, asz, a->n);
  return NDT_OK;
}

static const ndt_task_kind bsum_leaf_kind = {"buffered sum leaf", {bsum_leaf_body}, NULL};
static const ndt_task_kind bsum_top_kind = {"buffered sum top", {bsum_top_body}, NULL};

/* The sum of line (any dtype) in acc, in NumPy's buffered order, into res
 * (one element). leaf: elements a leaf task sums (rounded to buffers). */
static ndt_status cast_sum(ndt_reduce_op op, const ndt_array *line, ndt_dtype acc,
                           int64_t leaf, ndt_array *res, int from_out) {
  ndt_array *c = NULL;
  ndt_status st = cast_copy(&c, line, acc);
  if (st) return st;
  pw_arg a;
  memset(&a, 0, sizeof a);
  a.op = op;
  a.acc = acc;
  a.from_out = from_out;
  int asz = ndt__traits[acc].size;
  int64_t n = c->size, nbuf = (n + NP_BUFSIZE - 1) / NP_BUFSIZE;
  int64_t per = leaf / NP_BUFSIZE < 1 ? 1 : leaf / NP_BUFSIZE;   /* buffers a leaf */
  if ((st = ndt__store_new_bytes(&a.parts, nbuf * asz))) {
    ndt_free(c);
    return st;
  }
  unsigned fl = n <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b0 = 0; b0 < nbuf && st == NDT_OK; b0 += per) {
    int64_t b1 = b0 + per < nbuf ? b0 + per : nbuf;
    a.line = *c;
    a.line.offset = c->offset + b0 * NP_BUFSIZE * c->strides[0];
    a.line.shape[0] = a.line.size = (b1 * NP_BUFSIZE < n ? b1 * NP_BUFSIZE : n) - b0 * NP_BUFSIZE;
    ndt_array sv;
    ndt__range_view(&sv, a.parts, b0 * asz, (b1 - b0) * asz);
    ndt_operand ops[2] = {{&a.line, NDT_READ}, {&sv, NDT_WRITE}};
    st = ndt__record(&bsum_leaf_kind, red_name(op), ops, 2, &a, sizeof a, fl);
  }
  if (st == NDT_OK) {
    a.n = nbuf;
    a.out = *res;
    a.out.ndim = 1;
    a.out.shape[0] = a.out.size = 1;
    a.out.strides[0] = 1;
    ndt_array pv;
    ndt__range_view(&pv, a.parts, 0, nbuf * asz);
    ndt_operand ops[2] = {{&pv, NDT_READ}, {&a.out, from_out ? NDT_REDUCE : NDT_WRITE}};
    st = ndt__record(&bsum_top_kind, red_name(op), ops, 2, &a, sizeof a, fl);
  }
  ndt__store_decref(a.parts);
  ndt_free(c);
  return st;
}

/* ---- full float products: one fold in NumPy's order ----------------------
 * NumPy multiplies a line's elements one after another from 1, so a zero
 * met before an overflow keeps the product 0 (prod(arange(n)) == 0), and
 * the same zero met after it gives NaN. Per-tile partials multiplied at the
 * end would meet 0 * inf instead. So the pieces of the line are folded in
 * order into the result, each task continuing from the one before (a chain
 * of read-write accesses on the result): the same bits as NumPy's, one
 * piece at a time. */
typedef ndt_chain_arg chain_arg;   /* reduce.h */

/* Operands: the result (write for the first piece, else reduce: the
 * chain's order), the piece (read). */
static ndt_status chain_body(ndt_bound *op, void *p) {
  const chain_arg *a = p;
  ndt_red_kernel k;
  ndt__kern->reduce(a->op, a->acc, &k);
  const ndt_bound bo = op[0], bp = op[1];
  if (a->first) memcpy(bo.ptr, k.identity, (size_t)ndt__traits[a->acc].size);
  k.run(bo.ptr, bp.ptr, bp.st[0], a->piece.shape[0]);
  return NDT_OK;
}

/* (named apart from fold_kind: a device plugin finds its body by the name) */
static const ndt_task_kind chain_kind = {"prod chain", {chain_body}, NULL};

static ndt_status prod_chain(ndt_reduce_op op, const ndt_array *line, ndt_dtype acc,
                             int64_t leaf, ndt_array *res, int from_out) {
  chain_arg a;
  memset(&a, 0, sizeof a);
  a.op = op;
  a.acc = acc;
  a.out = *res;
  a.out.ndim = 1;
  a.out.shape[0] = a.out.size = 1;
  a.out.strides[0] = 1;
  int64_t n = line->shape[0];
  unsigned fl = n <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  ndt_status st = NDT_OK;
  for (int64_t lo = 0; lo < n && st == NDT_OK; lo += leaf) {
    a.first = lo == 0 && !from_out;   /* (seeded: on from the result's start) */
    a.piece = *line;
    a.piece.offset = line->offset + lo * line->strides[0];
    a.piece.shape[0] = a.piece.size = n - lo < leaf ? n - lo : leaf;
    ndt_operand ops[2] = {{&a.out, a.first ? NDT_WRITE : NDT_REDUCE}, {&a.piece, NDT_READ}};
    st = ndt__record(&chain_kind, red_name(op), ops, 2, &a, sizeof a, fl);
  }
  return st;
}

/* ---- float products along some axes: blocks fold into the result in order -
 * The same rule as prod_chain for a product over some axes: NumPy
 * multiplies each result element's factors one after another from 1 (in C
 * order for a C-ordered input), so per-block partials multiplied at the end
 * can meet 0 * inf where NumPy met the zero before the overflow (0) or
 * after it (NaN). Instead each block, in block order, folds its elements
 * straight into the result elements it reaches, continuing from what the
 * blocks before it left there (ordered read-write accesses on the result);
 * blocks that reach other elements run in parallel. */
typedef ndt_prodfold_arg fold_arg;   /* reduce.h */

/* Operands: the region of the result (write for a first block, else
 * reduce), the block (read). */
static ndt_status fold_body(ndt_bound *op, void *p) {
  const fold_arg *a = p;
  ndt_red_kernel k;
  ndt__kern->reduce(a->op, a->acc, &k);
  int nd = a->blk.ndim, asz = ndt__traits[a->acc].size;
  const ndt_bound bo = op[0], bi = op[1];
  int64_t shape[NDT_MAXDIMS], st[2][NDT_MAXDIMS];
  if (a->first) {
    /* the region, walked as runs, filled with the identity */
    int64_t rs[NDT_MAXDIMS], rst[1][NDT_MAXDIMS], idx[NDT_MAXDIMS] = {0};
    memcpy(rs, a->reg.shape, sizeof(int64_t) * (size_t)nd);
    memcpy(rst[0], bo.st, sizeof(int64_t) * (size_t)nd);
    int cd = ndt__coalesce(nd, rs, 1, rst);
    int64_t n = cd ? rs[cd - 1] : 1, s0 = cd ? rst[0][cd - 1] : 0, runs = 1;
    for (int j = 0; j < cd - 1; j++) runs *= rs[j];
    for (int64_t q = 0; q < runs; q++) {
      char *o = bo.ptr;
      for (int j = 0; j < cd - 1; j++) o += idx[j] * rst[0][j];
      for (int64_t i = 0; i < n; i++) memcpy(o + i * s0, k.identity, (size_t)asz);
      for (int j = cd - 2; j >= 0; j--) {
        if (++idx[j] < rs[j]) break;
        idx[j] = 0;
      }
    }
  }
  memcpy(shape, a->blk.shape, sizeof(int64_t) * (size_t)nd);
  for (int j = 0; j < nd; j++) {
    st[0][j] = bi.st[j];
    st[1][j] = (a->mask >> j & 1) ? 0 : bo.st[j];
  }
  int cd = ndt__coalesce(nd, shape, 2, st);
  int64_t n = cd ? shape[cd - 1] : 1, sp = cd ? st[0][cd - 1] : 0, so = cd ? st[1][cd - 1] : 0;
  int64_t runs = 1, idx[NDT_MAXDIMS] = {0};
  for (int j = 0; j < cd - 1; j++) runs *= shape[j];
  for (int64_t q = 0; q < runs; q++) {
    const char *src = bi.ptr;
    char *o = bo.ptr;
    for (int j = 0; j < cd - 1; j++) {
      src += idx[j] * st[0][j];
      o += idx[j] * st[1][j];
    }
    /* along a reduced axis NumPy's reduction loop, else its elementwise one */
    if (so == 0) k.run(o, src, sp, n);
    else k.acc(o, so, src, sp, n);
    for (int j = cd - 2; j >= 0; j--) {
      if (++idx[j] < shape[j]) break;
      idx[j] = 0;
    }
  }
  return NDT_OK;
}

static const ndt_task_kind fold_kind = {"prod fold", {fold_body}, NULL};

/* Records the folds of a (its dtype acc, not a part view) into res.
 * NumPy's iterator walks the reduced axes in memory order (by their
 * strides' sizes, largest outermost; a negative stride is walked as it
 * runs): the product over axes (0, 2) of a transposed array multiplies each
 * result element's factors in another order than the view's C order, and
 * where a running product overflows before a small factor (inf) or not
 * (finite) that order decides. So the reduced axes are put in that order
 * first (the others stay: they do not change any element's order). */
static ndt_status prod_folds(ndt_reduce_op op, const ndt_array *a0, uint64_t mask,
                             ndt_dtype acc, ndt_array *res0, int from_out) {
  int nd = a0->ndim;
  ndt_array av = *a0, rv = *res0;
  const ndt_array *a = &av;
  ndt_array *res = &rv;
  {
    int red[NDT_MAXDIMS], nr = 0;
    for (int j = 0; j < nd; j++)
      if ((mask >> j & 1) && a0->shape[j] > 1) red[nr++] = j;
    int ord[NDT_MAXDIMS];
    memcpy(ord, red, sizeof(int) * (size_t)nr);
    for (int i = 1; i < nr; i++)   /* stable: equal strides keep C order */
      for (int k = i; k > 0 && llabs(a0->strides[ord[k]]) > llabs(a0->strides[ord[k - 1]]); k--) {
        int t = ord[k];
        ord[k] = ord[k - 1];
        ord[k - 1] = t;
      }
    for (int i = 0; i < nr; i++) {   /* the reduced places take the sorted axes */
      av.shape[red[i]] = a0->shape[ord[i]];
      av.strides[red[i]] = a0->strides[ord[i]];
      rv.shape[red[i]] = res0->shape[ord[i]];
      rv.strides[red[i]] = res0->strides[ord[i]];
    }
  }
  ndt_tiling tl;
  ndt__tiling_for(nd, a->shape, a->store->itemsize, ndt__rt_tile_bytes(), &tl);
  unsigned fl = tl.ntiles == 1 && a->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  ndt_status st = NDT_OK;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    fold_arg f;
    memset(&f, 0, sizeof f);
    f.op = op;
    f.acc = acc;
    f.mask = mask;
    int64_t start[NDT_MAXDIMS];
    ndt__block_view(a, &tl, b, &f.blk);
    ndt__block_start(a, &tl, b, start);
    f.reg = *res;
    f.first = !from_out;
    for (int j = 0; j < nd; j++) {
      if (mask >> j & 1) {
        if (start[j] != 0) f.first = 0;
        continue;
      }
      f.reg.offset += start[j] * res->strides[j];
      f.reg.shape[j] = f.blk.shape[j];
    }
    f.reg.size = 1;
    for (int j = 0; j < nd; j++) f.reg.size *= f.reg.shape[j];
    if (f.blk.size == 0) continue;
    ndt_operand ops[2] = {{&f.reg, f.first ? NDT_WRITE : NDT_REDUCE}, {&f.blk, NDT_READ}};
    st = ndt__record(&fold_kind, red_name(op), ops, 2, &f, sizeof f, fl);
  }
  return st;
}

/* ---- sums along a reduced axis that has the smallest stride ----------------
 * NumPy's iterator puts the smallest stride innermost: a sum over axis 0 of
 * a.T (or any single reduced axis with the smallest stride, not last in C
 * order) is, per result element, 0 + pw(its line), and a product is its
 * line's product in sequence from 1. The block path would add the line's
 * elements in C order of the view, and combine per-tile partials. One task per piece of
 * the result sums whole lines (lines of at most a leaf's elements). */
typedef struct {
  ndt_reduce_op op;
  ndt_dtype acc;
  ndt_array in;          /* the input view */
  int axis;              /* the reduced axis */
  ndt_array out;         /* the result (keepdims shape, C-contiguous) */
  int64_t lo, hi;        /* this task's result elements (flat) */
  int from_out;          /* seeded: each line adds on to its result element */
} line_arg;

/* Operands: the result's elements [lo, hi) (write; reduce when seeded),
 * the input's lines of them (read, walked: each line is bound by itself;
 * their box, ndt_red_box). */
static ndt_status line_body(ndt_bound *op, void *p) {
  const line_arg *a = p;
  ndt_red_kernel k;
  ndt__kern->reduce(a->op, a->acc, &k);
  int asz = ndt__traits[a->acc].size, nd = a->in.ndim;
  const ndt_bound bo = op[0];
  ndt_status st = NDT_OK;
  for (int64_t e = a->lo; e < a->hi && st == NDT_OK; e++) {
    ndt_array line = a->in;   /* the line of result element e */
    int64_t rem = e;
    for (int j = nd - 1; j >= 0; j--) {
      if (j == a->axis) continue;
      line.offset += (rem % a->in.shape[j]) * a->in.strides[j];
      rem /= a->in.shape[j];
    }
    line.ndim = 1;
    line.shape[0] = line.size = a->in.shape[a->axis];
    line.strides[0] = a->in.strides[a->axis];
    ndt_bound bl;
    if ((st = ndt__piece_bind(&op[1], &line, &bl, 1))) break;
    char *o = bo.ptr + (e - a->lo) * asz;
    if (!a->from_out) memcpy(o, k.identity, (size_t)asz);
    k.run(o, bl.ptr, bl.st[0], line.shape[0]);
    ndt__piece_release(&bl, 0);
  }
  return st;
}

static const ndt_task_kind line_kind = {"sum", {line_body}, NULL};

/* The reduced axis when a sum takes this path, else -1. */
static int line_axis(ndt_reduce_op op, const ndt_array *a, uint64_t mask, ndt_dtype acc,
                     int64_t leaf) {
  char k = ndt__traits[acc].kind;
  int nd = a->ndim, r = -1, last = -1;
  if ((op != NDT_RED_SUM && op != NDT_RED_NANSUM && op != NDT_RED_PROD &&
       op != NDT_RED_NANPROD) || (k != 'f' && k != 'c') ||
      a->dtype != acc || a->part || nd < 2)
    return -1;
  for (int j = 0; j < nd; j++) {
    if (a->shape[j] == 1) continue;
    last = j;
    if (mask >> j & 1) {
      if (r >= 0) return -1;   /* one reduced axis (longer than 1) only */
      r = j;
    }
  }
  if (r < 0 || r == last || a->shape[r] > leaf) return -1;
  for (int j = 0; j < nd; j++)
    if (j != r && a->shape[j] > 1 && llabs(a->strides[j]) <= llabs(a->strides[r])) return -1;
  return r;
}

static ndt_status line_sums(ndt_reduce_op op, const ndt_array *a, int axis, ndt_dtype acc,
                            ndt_array *res, int from_out) {
  line_arg la;
  memset(&la, 0, sizeof la);
  la.from_out = from_out;
  la.op = op;
  la.acc = acc;
  la.in = *a;
  la.axis = axis;
  la.out = *res;
  int64_t n = res->size, len = a->shape[axis];
  /* pieces of at least 64 Ki input elements: the split never changes bits */
  int64_t per = (65536 + len - 1) / len;
  unsigned fl = a->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  ndt_status st = NDT_OK;
  for (int64_t lo = 0; lo < n && st == NDT_OK; lo += per) {
    la.lo = lo;
    la.hi = lo + per < n ? lo + per : n;
    ndt_array ov = *res;   /* res is fresh and C-contiguous */
    ov.ndim = 1;
    ov.offset = res->offset + la.lo;
    ov.shape[0] = ov.size = la.hi - la.lo;
    ov.strides[0] = 1;
    /* the input's lines of these elements alone (ndt_red_box, reduce.h) */
    ndt_array iv;
    int64_t b0[NDT_MAXDIMS], bn[NDT_MAXDIMS];
    ndt_red_box(&la.in, (uint64_t)1 << axis, res, la.lo, la.hi, b0, bn);
    box_view(&la.in, b0, bn, &iv);
    ndt_operand ops[2] = {{&ov, from_out ? NDT_REDUCE : NDT_WRITE},
                          {&iv, NDT_READ | NDT_OPND_WALK | NDT_OPND_VIEW}};
    st = ndt__record(&line_kind, red_name(op), ops, 2, &la, sizeof la, fl);
  }
  return st;
}

/* A seeded reduction's partials (from_out) and NumPy's order: where the
 * innermost reduced axis (NumPy's inner loop runs along the smallest
 * stride) runs across blocks, the blocks' partials are pieces of NumPy's
 * pairwise lines, which NumPy adds to its start each as one sum: the
 * partials are combined as without a seed and the start added last (1).
 * Otherwise each partial holds whole lines, which NumPy adds to the start
 * one after another: the partial of the first block of each result element
 * starts from the start, as NumPy's fold, and the combine copies it (0). */
static int seed_after_partials(const ndt_array *a, uint64_t mask, const ndt_tiling *tl) {
  int q = -1;
  for (int j = 0; j < a->ndim; j++)
    if ((mask >> j & 1) && a->shape[j] > 1 &&
        (q < 0 || llabs(a->strides[j]) < llabs(a->strides[q])))
      q = j;
  if (q < 0) return 0;
  for (int64_t b = 0; b < tl->ntiles; b++) {
    ndt_array bv;
    ndt__block_view(a, tl, b, &bv);
    if (bv.size && bv.shape[q] < a->shape[q]) return 1;
  }
  return 0;
}

/* The core reduction: keepdims result of dtype acc (int64 for ARG*).
 * seed: NULL, or the value (in acc) every result element's fold starts
 * from in place of the identity (ndt_reduce_initial): the result is filled
 * with it first and every path folds on from what the result holds
 * (from_out), where NumPy's accumulator starts, so its bits. */
static ndt_status reduce_kd(ndt_reduce_op op, const ndt_array *a, uint64_t mask, ndt_dtype acc,
                            const void *seed, ndt_array **out) {
  int nd = a->ndim;
  int64_t ks[NDT_MAXDIMS], rcount = 1;
  for (int k = 0; k < nd; k++) {
    ks[k] = (mask >> k & 1) ? 1 : a->shape[k];
    if (mask >> k & 1) rcount *= a->shape[k];
  }
  int arg = op == NDT_RED_ARGMIN || op == NDT_RED_ARGMAX;
  ndt_red_kernel kk;
  if (arg ? !ndt__kern->arg(op, acc) : ndt__kern->reduce(op, acc, &kk) != 0)
    return ndt__error(NDT_ERR_TYPE, "the reduction '%s' is not supported for dtype %s",
                     red_name(op), ndt_dtype_name(acc));
  ndt_array *res;
  ndt_status st = ndt__array_new(&res, arg ? NDT_INT64 : acc, nd, ks, 0);
  if (st) return st;
  if (res->size == 0) {
    *out = res;
    return NDT_OK;
  }
  const int from_out = seed != NULL;
  if (rcount == 0 || seed) {
    /* nothing to reduce: the identity (callers rejected MIN/MAX/ARG);
     * before the line paths, which divide by the reduced length. Seeded:
     * the start, and the folds below go on from it. */
    st = ndt_fill(res, seed ? seed : kk.identity, acc);
    if (st || rcount == 0) {
      if (st) ndt_free(res);
      else *out = res;
      return st;
    }
  }
  if (!arg) {
    int64_t leaf = ndt__rt_tile_bytes() / ndt__traits[acc].size;
    if (leaf < 1024) leaf = 1024;
    ndt_array line;
    int prod = op == NDT_RED_PROD || op == NDT_RED_NANPROD;
    char kind = ndt__traits[acc].kind;
    uint64_t all = nd >= 64 ? UINT64_MAX : ((uint64_t)1 << nd) - 1;
    if (prod && (kind == 'f' || kind == 'c') && a->dtype != acc && (mask & all) == all &&
        a->size > leaf) {
      /* prod(ints, dtype=float64): the fold in acc of the cast values */
      ndt_array *c = NULL;
      st = cast_copy(&c, a, acc);
      if (st == NDT_OK && pw_line(op, c, mask, acc, leaf, &line))
        st = prod_chain(op, &line, acc, leaf, res, from_out);
      else if (st == NDT_OK)
        st = ndt__error(NDT_ERR_VALUE, "internal: a cast copy is not one line");
      ndt_free(c);
      return ndt__finish(st, res, out);
    }
    if (pw_line(op, a, mask, acc, leaf, &line)) {
      st = prod ? prod_chain(op, &line, acc, leaf, res, from_out)
                : pw_sum(op, &line, acc, leaf, res, from_out);
      return ndt__finish(st, res, out);
    }
    if (op == NDT_RED_SUM && one_line(op, a, mask, acc, leaf, &line, 1)) {
      st = cast_sum(op, &line, acc, leaf, res, from_out);
      return ndt__finish(st, res, out);
    }
    int lax = line_axis(op, a, mask, acc, leaf);
    if (lax >= 0) {
      st = line_sums(op, a, lax, acc, res, from_out);
      return ndt__finish(st, res, out);
    }
    if (prod && (kind == 'f' || kind == 'c') && (a->dtype != acc || a->part)) {
      /* NumPy casts a buffer at a time and multiplies in order: the same
       * folds over a cast copy */
      ndt_array *c = NULL;
      ndt_free(res);
      if ((st = cast_copy(&c, a, acc))) return st;
      st = reduce_kd(op, c, mask, acc, seed, out);
      ndt_free(c);
      return st;
    }
  }
  red_arg r;
  memset(&r, 0, sizeof r);
  r.op = op;
  r.acc = acc;
  r.mask = mask;
  r.arg = arg;
  r.from_out = from_out;
  r.arg_all = arg && mask == (nd >= 64 ? UINT64_MAX : ((uint64_t)1 << nd) - 1);
  r.arg_axis = 0;
  if (arg && !r.arg_all)
    for (int k = 0; k < nd; k++)
      if (mask >> k & 1) r.arg_axis = k;
  r.in = *a;
  ndt__tiling_for(nd, a->shape, a->store->itemsize, ndt__rt_tile_bytes(), &r.tl);
  /* sizes of all partials */
  int64_t total = 0;
  for (int64_t blk = 0; blk < r.tl.ntiles; blk++) {
    ndt_array bv;
    int64_t ps[NDT_MAXDIMS];
    ndt__block_view(a, &r.tl, blk, &bv);
    total += partial_shape(&r, &bv, ps);
  }
  int asz = ndt__traits[acc].size;
  r.pcount = total;   /* idx_offset depends on it */
  /* When no block reduces anything by itself (the reduced axes run across
   * blocks, as a sum over frames does), partials would be copies of the
   * input: the combine then folds the input blocks directly, in the same
   * order, with the same bits. */
  /* NumPy folds the reduced axes one row at a time, in order, when the
   * last axis is kept (longer than 1) and has the smallest stride: its inner
   * loop is then along the kept axis. The direct fold does the same (blocks
   * of several rows too), so sums over axis 0 have NumPy's bits; partials
   * would add each block's rows first. */
  int row_order = nd > 0 && !(mask >> (nd - 1) & 1) && a->shape[nd - 1] > 1;
  for (int k = 0; k < nd - 1 && row_order; k++)
    if (a->shape[k] > 1 && llabs(a->strides[k]) < llabs(a->strides[nd - 1])) row_order = 0;
  int direct = (total == a->size || row_order) && !arg && a->dtype == acc && !a->part &&
               (op == NDT_RED_SUM || op == NDT_RED_PROD || op == NDT_RED_MIN ||
                op == NDT_RED_MAX || op == NDT_RED_NANSUM || op == NDT_RED_NANPROD);
  if (!direct && !arg && (op == NDT_RED_PROD || op == NDT_RED_NANPROD) &&
      (ndt__traits[acc].kind == 'f' || ndt__traits[acc].kind == 'c')) {
    st = prod_folds(op, a, mask, acc, res, from_out);   /* a->dtype == acc here */
    return ndt__finish(st, res, out);
  }
  if (!direct) st = ndt__store_new_bytes(&r.parts, idx_offset(&r) + (arg ? total * 8 : 0));
  if (st) {
    ndt_free(res);
    return st;
  }
  if (from_out && !direct) {
    r.seed_last = seed_after_partials(a, mask, &r.tl);
    memcpy(r.seed, seed, (size_t)ndt__traits[acc].size);
  }
  r.out = *res;
  int small = r.tl.ntiles == 1 && a->size <= ndt__rt_inline_elems();
  int64_t poff = 0;
  for (int64_t blk = 0; blk < (direct ? 0 : r.tl.ntiles) && st == NDT_OK; blk++) {
    ndt_array bv;
    int64_t ps[NDT_MAXDIMS];
    ndt__block_view(a, &r.tl, blk, &bv);
    r.blk = blk;
    r.poff = poff * asz;
    if (arg && r.arg_all) {
      r.arg_base = ndt__block_first(&r.tl, blk);
    } else if (arg) {
      int64_t start[NDT_MAXDIMS];
      ndt__block_start(a, &r.tl, blk, start);
      r.arg_base = start[r.arg_axis];
    }
    int64_t pn = partial_shape(&r, &bv, ps);
    poff += pn;
    /* each block writes its own partials (values, and indices for arg*) */
    ndt_array vv, iv;
    ndt__range_view(&vv, r.parts, r.poff, pn * asz);
    if (arg) ndt__range_view(&iv, r.parts, idx_offset(&r) + r.poff / asz * 8, pn * 8);
    ndt_operand ops[3] = {{&bv, NDT_READ}, {&vv, NDT_WRITE},
                          {arg ? &iv : &ndt__empty_view, NDT_WRITE}};
    st = ndt__record(from_out ? &block_seeded_kind : &block_kind, red_name(op), ops, 3, &r,
                     sizeof r, small ? NDT_TASK_INLINE : 0);
  }
  /* one combine task per tile of the (fresh, C-contiguous) result, or
   * per piece of a tile when the result has fewer tiles than twice the
   * workers (a sum over axis 0 into one row): the pieces fold the same
   * blocks in the same order into their own elements, in parallel */
  ndt_store *rs = res->store;
  /* inline when the work is small: the direct fold reads the whole input */
  int cinline = small || (!direct && res->size <= ndt__rt_inline_elems() / 8);
  int64_t want = 2 * (int64_t)ndt_workers(), split = 1;
  if (!cinline && !ndt_distributed() && rs->ntiles < want)
    split = (want + rs->ntiles - 1) / rs->ntiles;
  if (direct && ndt_distributed() && st == NDT_OK) {
    st = record_carries(&r, red_name(op), cinline ? NDT_TASK_INLINE : 0);
    split = 0;   /* (no combine tasks) */
  }
  for (int64_t u = 0; u < rs->ntiles * split && st == NDT_OK; u++) {
    int64_t t = u / split, len = rs->tiles[t].len;
    int64_t pieces = len / 1024 < split ? len / 1024 : split;   /* >= 1,024 elements each */
    if (pieces < 1) pieces = 1;
    if (u % split >= pieces) continue;
    r.clo = rs->tiles[t].start + len * (u % split) / pieces;
    r.chi = rs->tiles[t].start + len * (u % split + 1) / pieces;
    ndt_array ov, pv, iv;
    out_range(&r.out, r.clo, r.chi, &ov);
    if (r.parts) {
      ndt__range_view(&pv, r.parts, 0, r.parts->size);
    } else {   /* the direct fold reads the box of its elements alone */
      int64_t b0[NDT_MAXDIMS], bn[NDT_MAXDIMS];
      ndt_red_box(&r.in, mask, &r.out, r.clo, r.chi, b0, bn);
      box_view(&r.in, b0, bn, &iv);
    }
    ndt_operand ops[3] = {{&ov, from_out ? NDT_REDUCE : NDT_WRITE},
                          r.parts ? (ndt_operand){&pv, NDT_READ}
                                  : (ndt_operand){&iv, NDT_READ | NDT_OPND_WALK | NDT_OPND_VIEW},
                          {&r.in, NDT_OPND_KEEP}};   /* the input's store, kept */
    st = ndt__record(from_out ? &combine_seeded_kind : &combine_kind, red_name(op), ops, 3, &r,
                     sizeof r, cinline ? NDT_TASK_INLINE : 0);
  }
  ndt__store_decref(r.parts);   /* recorded tasks hold their own references */
  return ndt__finish(st, res, out);
}

static ndt_status drop_axes(ndt_array **res, uint64_t mask, int nd) {
  int axes[NDT_MAXDIMS], n = 0;
  for (int k = 0; k < nd; k++)
    if (mask >> k & 1) axes[n++] = k;
  if (n == 0) return NDT_OK;
  ndt_array *v;
  ndt_status st = ndt_squeeze(&v, *res, n, axes);
  /* the result owns its data (NumPy's OWNDATA, no .base), not a view of
   * the keepdims array freed here */
  if (!st && ndt_owns_data(*res)) st = ndt_take_owner(v, *res);
  ndt_free(*res);
  *res = st ? NULL : v;
  return st;
}

/* *x /= count. NumPy's mean and var divide a 0-d sum as a NumPy scalar
 * (ret.dtype.type(ret / rcount)): its errors are "... in scalar divide",
 * but for complex64 (its scalar division by an intp defers to the ufunc). */
static ndt_status divide_by(ndt_array **x, double count, int complex64) {
  ndt_array *c, *q = NULL;
  ndt_status st = ndt_scalar(&c, NDT_FLOAT64, &count, 1);
  if (st) return st;
  const int scalar = (*x)->ndim == 0 && !complex64;
  if (scalar) ndt_fp_group_begin("scalar divide");
  st = ndt_binary(&q, NDT_TRUE_DIVIDE, *x, c);
  if (scalar) ndt_fp_group_end();
  ndt_free(c);
  if (st) return st;
  ndt_free(*x);
  *x = q;
  return NDT_OK;
}

const char *ndt_reduce_name(ndt_reduce_op op) {
  /* NumPy's function names, in ndt_reduce_op's order (red_name gives the
   * ufuncs' for messages and task names: minimum, maximum) */
  static const char *const names[NDT_NREDUCE] = {
      "sum", "prod", "min", "max", "any", "all", "count_nonzero", "mean", "var", "std",
      "argmin", "argmax", "nansum", "nanprod", "nanmin", "nanmax", "bitwise_and", "bitwise_or",
      "bitwise_xor", "logical_xor"};  /* (the last four: the ufuncs' names) */
  return (int)op >= 0 && op < NDT_NREDUCE ? names[op] : NULL;
}

/* ndt_reduce, and ndt_reduce_initial with seed (not NULL). */
static ndt_status reduce_from(ndt_array **out, ndt_reduce_op op, const ndt_array *a,
                              uint64_t axes, int keepdims, ndt_dtype dtype, int64_t ddof,
                              const void *seed) {
  if ((int)op < 0 || op >= NDT_NREDUCE) return ndt__error(NDT_ERR_VALUE, "invalid reduction");
  if (dtype != NDT_DTYPE_DEFAULT && ((int)dtype < 0 || dtype >= NDT_NTYPES))
    return ndt__error(NDT_ERR_TYPE, "invalid dtype");
  int nd = a->ndim;
  uint64_t all = nd >= 64 ? UINT64_MAX : ((uint64_t)1 << nd) - 1;
  uint64_t mask;
  if (axes == NDT_ALL_AXES) mask = all;
  else {
    if (axes & ~all) {
      int bad = 0;
      while (!((axes & ~all) >> bad & 1)) bad++;
      return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", "axis %d is out of bounds for array of dimension %d", bad,
                       nd);
    }
    mask = axes;
  }
  int64_t rcount = 1, osize = 1;
  for (int k = 0; k < nd; k++) {
    if (mask >> k & 1) rcount *= a->shape[k];
    else osize *= a->shape[k];
  }
  int arg = op == NDT_RED_ARGMIN || op == NDT_RED_ARGMAX;
  if (arg && axes != NDT_ALL_AXES && __builtin_popcountll(mask) != 1)
    return ndt__error(NDT_ERR_VALUE, "%s takes a single axis", red_name(op));
  if (rcount == 0) {   /* NumPy raises also when the result is empty */
    if (arg)
      return ndt__error(NDT_ERR_VALUE, "attempt to get %s of an empty sequence", red_name(op));
    if (op == NDT_RED_MIN || op == NDT_RED_MAX || op == NDT_RED_NANMIN || op == NDT_RED_NANMAX)
      return ndt__error(NDT_ERR_VALUE, "zero-size array to reduction operation %s which has no "
                       "identity", op == NDT_RED_NANMIN ? "fmin"
                                   : op == NDT_RED_NANMAX ? "fmax" : red_name(op));
  }
  ndt_array *res = NULL, *tmp = NULL;
  ndt_status st;
  ndt_dtype t = a->dtype;
  char kind = ndt__traits[t].kind;
  switch (op) {
    case NDT_RED_MEAN: {
      ndt_dtype acc = dtype != NDT_DTYPE_DEFAULT ? dtype
                      : (kind == 'f' || kind == 'c') ? t : NDT_FLOAT64;
      st = ndt_reduce(&res, NDT_RED_SUM, a, mask, keepdims, acc, 0);
      if (st == NDT_OK && acc == NDT_COMPLEX64) {
        /* NumPy divides by the count as an intp array: complex64 / int64
         * runs in complex128 and is cast back (float32 through float64 is
         * float32's own correctly rounded division, so only complex differs) */
        ndt_array *wide = NULL, *narrow = NULL;
        st = ndt_astype(&wide, res, NDT_COMPLEX128, NDT_CAST_UNSAFE);
        if (st == NDT_OK) st = divide_by(&wide, (double)rcount, 1);
        if (st == NDT_OK) st = ndt_astype(&narrow, wide, NDT_COMPLEX64, NDT_CAST_UNSAFE);
        ndt_free(wide);
        ndt_free(res);
        res = narrow;
      } else if (st == NDT_OK) {
        st = divide_by(&res, (double)rcount, 0);
      }
      break;
    }
    case NDT_RED_VAR:
    case NDT_RED_STD: {
      ndt_array *m = NULL, *d = NULL, *sq = NULL;
      st = ndt_reduce(&m, NDT_RED_MEAN, a, mask, 1, dtype, 0);
      if (st == NDT_OK) st = ndt_binary(&d, NDT_SUBTRACT, a, m);
      if (st == NDT_OK) {
        if (ndt__traits[d->dtype].kind == 'c') {
          /* NumPy's _var: re*re + im*im on the real parts (not d * conj(d),
           * whose real part is one fused multiply-add on FMA hardware) */
          ndt_array *re = NULL, *im = NULL, *r2 = NULL, *i2 = NULL;
          st = ndt_real(&re, d);
          if (st == NDT_OK) st = ndt_imag(&im, d);
          if (st == NDT_OK) st = ndt_binary(&r2, NDT_MULTIPLY, re, re);
          if (st == NDT_OK) st = ndt_binary(&i2, NDT_MULTIPLY, im, im);
          if (st == NDT_OK) st = ndt_binary(&sq, NDT_ADD, r2, i2);
          ndt_free(re);
          ndt_free(im);
          ndt_free(r2);
          ndt_free(i2);
        } else {
          st = ndt_binary(&sq, NDT_MULTIPLY, d, d);
        }
      }
      if (st == NDT_OK) {
        ndt_dtype acc = dtype;
        if (acc != NDT_DTYPE_DEFAULT && ndt__traits[acc].kind == 'c')
          acc = acc == NDT_COMPLEX64 ? NDT_FLOAT32 : NDT_FLOAT64;
        st = ndt_reduce(&res, NDT_RED_SUM, sq, mask, keepdims, acc, 0);
      }
      double div = (double)rcount - (double)ddof;
      if (div < 0) div = 0;
      if (st == NDT_OK) st = divide_by(&res, div, 0);
      if (st == NDT_OK && op == NDT_RED_STD) {
        ndt_array *r2 = NULL;
        st = ndt_unary(&r2, NDT_SQRT, res);
        ndt_free(res);
        res = r2;
      }
      ndt_free(m);
      ndt_free(d);
      ndt_free(sq);
      break;
    }
    case NDT_RED_COUNT_NONZERO:
      st = ndt_astype(&tmp, a, NDT_BOOL, NDT_CAST_UNSAFE);
      if (st == NDT_OK) st = ndt_reduce(&res, NDT_RED_SUM, tmp, mask, keepdims, NDT_INT64, 0);
      break;
    default: {
      ndt_dtype acc;
      switch (op) {
        case NDT_RED_SUM: case NDT_RED_PROD: case NDT_RED_NANSUM: case NDT_RED_NANPROD:
          acc = dtype != NDT_DTYPE_DEFAULT ? dtype : sum_dtype(t);
          break;
        case NDT_RED_ANY: case NDT_RED_ALL: case NDT_RED_LOGICAL_XOR:
          acc = NDT_BOOL;
          break;
        case NDT_RED_BITWISE_AND: case NDT_RED_BITWISE_OR: case NDT_RED_BITWISE_XOR:
          acc = dtype != NDT_DTYPE_DEFAULT ? dtype : t;
          break;
        default:
          acc = t;
      }
      /* NumPy's add.reduce and multiply.reduce report overflow and
       * invalid as "... encountered in reduce"; max, min and the logical
       * reductions report nothing */
      int sums = op == NDT_RED_SUM || op == NDT_RED_PROD || op == NDT_RED_NANSUM ||
                 op == NDT_RED_NANPROD;
      /* (and the bitwise reductions the cast of a float input: NaN into
       * dtype=int64 is "invalid value encountered in reduce") */
      int bits = op == NDT_RED_BITWISE_AND || op == NDT_RED_BITWISE_OR ||
                 op == NDT_RED_BITWISE_XOR;
      ndt_fp_begin("reduce", sums ? NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_UNDERFLOW |
                                        NDT_FPE_INVALID
                             : bits ? NDT_FPE_INVALID : 0);
      st = reduce_kd(op, a, mask, acc, seed, &res);
      ndt_fp_end();
      if (st == NDT_OK && !keepdims) st = drop_axes(&res, mask, nd);
    }
  }
  ndt_free(tmp);
  if (st) {
    ndt_free(res);
    return st;
  }
  *out = res;
  return NDT_OK;
}

ndt_status ndt_reduce(ndt_array **out, ndt_reduce_op op, const ndt_array *a, uint64_t axes,
                      int keepdims, ndt_dtype dtype, int64_t ddof) {
  return reduce_from(out, op, a, axes, keepdims, dtype, ddof, NULL);
}

ndt_status ndt_reduce_initial(ndt_array **out, ndt_reduce_op op, const ndt_array *a,
                              uint64_t axes, int keepdims, ndt_dtype dtype,
                              const void *initial) {
  if (op != NDT_RED_SUM && op != NDT_RED_PROD && op != NDT_RED_NANSUM && op != NDT_RED_NANPROD)
    return ndt__error(NDT_ERR_VALUE, "an initial value for %s: only sum, prod, nansum and "
                      "nanprod take one", ndt_reduce_name(op) ? ndt_reduce_name(op) : "reduce");
  if (!initial) return ndt__error(NDT_ERR_VALUE, "initial value is NULL");
  return reduce_from(out, op, a, axes, keepdims, dtype, 0, initial);
}
