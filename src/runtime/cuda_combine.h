/* cuda_combine.h - a part of the CUDA plugin (included once, by cuda.c,
 * after its launch helpers): the ordered folds into a result, on the
 * device (src/kernels/cuda/combine_impl.h), in the CPU body's order:
 *   "reduce combine"  (reduce.c's combine_body) the blocks' partials
 *                     folded into the result's elements [clo, chi) in
 *                     block order, the first block's copied; or, without
 *                     partials, the direct fold: every block of the input
 *                     that meets the box of [clo, chi) (walked: its tiles
 *                     are the device's, one allocation each) folded
 *                     straight into them, its rows in C order
 *                     (a.max(axis=0), a.sum(axis=0) of a C array);
 *   "prod chain"      a piece of a float or complex product's line folded
 *                     into its one-element result (k.run);
 *   "prod fold"       a block of a float or complex product over some axes
 *                     folded into the result elements it reaches (k.run
 *                     along a reduced innermost axis, else k.acc: fused
 *                     complex products at CPU level >= 2);
 *   "reduce carry"    a step of the direct fold on many ranks (reduce.c's
 *                     carry_body): its blocks (operands: in place, or
 *                     gathered) walked as the direct fold walks them,
 *                     from the identity, a device copy of the step
 *                     before's running result, or the result;
 *   "reduce combine"  of argmin/argmax: the blocks' (value, index)
 *                     partials along the same chains, folded by
 *                     combine_impl.h's arg kernels (the CPU's ARG step),
 *                     the index written.
 * Each walks the CPU body's runs in its order and hands them to a builder
 * that makes chains (combine_impl.h): the runs that fold into one set of
 * result columns, in order, one thread a column. Runs into the same set
 * join its chain; distinct sets must be disjoint (else supports refuses:
 * the CPU runs it), so each launch's chains run in parallel and every
 * result element sees the CPU's steps in the CPU's order: same bits, same
 * flags. A chain that carries on across launches (more than
 * NDT_DK_MAXRUNS runs) starts from the result the launch before left
 * (not an arg chain: its running value is not kept, so supports refuses
 * one that would). The direct fold of blocks with a run across two tiles
 * of the input stays on the CPU. */
#include "kernels/cuda/combine_impl.h"

int ndt__dk_combine(int op, int acc, int fused, const ndt_dk_launch *L, unsigned *flags,
                    void *stream);
int ndt__dk_cbarg(int op, int dt, const ndt_dk_launch *L, unsigned *flags, void *stream);

static int cb_kind(const ndt_task_kind *k) {
  return !strcmp(k->name, "reduce combine")           ? 1
         : !strcmp(k->name, "reduce combine, seeded") ? 1   /* (r->from_out) */
         : !strcmp(k->name, "prod chain")   ? 2
         : !strcmp(k->name, "prod fold")    ? 3
         : !strcmp(k->name, "reduce carry") ? 4
         : !strcmp(k->name, "buffered sum top") ? 5
                                            : 0;
}

/* exec.c's block view and start (the plugin links nothing of the core) */
static void cb_block_view(const ndt_array *v, const ndt_tiling *tl, int64_t b, ndt_array *out) {
  *out = *v;
  if (tl->axis < 0) return;
  int ax = tl->axis;
  int64_t inner = 1;
  for (int k = ax + 1; k < v->ndim; k++) inner *= v->shape[k];
  int64_t p = b / tl->per, q = b % tl->per, rows = tl->seg / inner;
  int64_t lo = q * rows, n = v->shape[ax] - lo;
  if (n > rows) n = rows;
  int64_t off = v->offset + lo * v->strides[ax];
  for (int k = ax - 1; k >= 0; k--) {
    off += (p % v->shape[k]) * v->strides[k];
    p /= v->shape[k];
    out->shape[k] = 1;
  }
  out->offset = off;
  out->shape[ax] = n;
  out->size = 1;
  for (int k = 0; k < v->ndim; k++) out->size *= out->shape[k];
}

/* (declared in cuda.c, which uses it for a seeded block's start) */
static void cb_block_start(const ndt_array *v, const ndt_tiling *tl, int64_t b, int64_t *start) {
  int64_t f = tl->axis < 0 ? 0 : (b / tl->per) * tl->period + (b % tl->per) * tl->seg;
  for (int k = v->ndim - 1; k >= 0; k--) {
    start[k] = v->shape[k] ? f % v->shape[k] : 0;
    f = v->shape[k] ? f / v->shape[k] : 0;
  }
}

/* reduce.c's C strides of a shape (zero along unit axes) */
static void cb_cstrides(int nd, const int64_t *shape, int64_t isz, int64_t *st) {
  for (int k = nd - 1; k >= 0; k--) {
    st[k] = shape[k] == 1 ? 0 : isz;
    isz *= shape[k];
  }
}

/* ---- the builder ----
 * A run as the walks give it: rows x cols input elements (byte strides
 * rs, cs) at byte offset in from the input's base (a tile's buffer, tile
 * >= 0; the bound operand's pointer, tile -1; block k of a carry's
 * pointer, tile -2 - k), folded column by column into the
 * result elements at byte offset out + j * ocs from the result's pointer. */
typedef struct {
  int64_t rows, cols, rs, cs, in, out, ocs, tile;
  int copy;
} cb_run;

#define CB_MAXCHAINS 1024
#define CB_MAXRUNS 65536
typedef struct {
  /* the task */
  int dry;                    /* supports: the runs are checked, not launched */
  int esz;                    /* the accumulator's bytes */
  int osz;                    /* the result's (8 for argmin/argmax, else esz) */
  int arg;                    /* argmin/argmax: ndt__dk_cbarg's chains, one launch each */
  int from_out;               /* every chain starts from the result (a task after the first) */
  int op, acc, fused;
  cuda_dev *d;
  char *obase;                /* the result's pointer */
  char *ibase;                /* the input's (no tile) */
  const ndt_bound *walk;      /* the walked input: its tiles' buffers */
  char *ixbase;               /* argmin/argmax: the partials' indices */
  char *bp[NDT_CARRY_BLOCKS]; /* a carry's blocks' pointers; a seeded combine's
                                 start, kept aside (bp[0]: cb_seed_last) */
  /* the chains seen (their result columns), whether launched already */
  int nch;
  struct { int64_t out, cols, ocs; int launched; } ch[CB_MAXCHAINS];
  /* the launch being built: its runs, with their chains */
  int np;
  cb_run pend[NDT_DK_MAXRUNS];
  int pch[NDT_DK_MAXRUNS];
  int64_t nruns;
  ndt_status st;
  ndt_dk_launch L;
} cb_builder;

static ndt_status cb_launch(cb_builder *B) {
  if (!B->np || B->st) return B->st;
  if (B->dry) {
    for (int i = 0; i < B->np; i++) B->ch[B->pch[i]].launched = 1;
    B->np = 0;
    return NDT_OK;
  }
  /* the runs grouped by chain, in the order the chains came, each chain's
   * runs in their order */
  ndt_dk_launch *L = &B->L;
  L->nrun = 0;
  L->aux = B->acc;
  for (int i = 0; i < B->np; i++) {
    int c = B->pch[i];
    if (c < 0) continue;
    int head = L->nrun;
    for (int k = i; k < B->np; k++) {
      if (B->pch[k] != c) continue;
      const cb_run *u = &B->pend[k];
      char *ip = u->tile >= 0  ? ndt_tile_mem(&B->walk->view->store->tiles[u->tile], B->walk->mem)
                 : u->tile < -1 ? B->bp[-2 - u->tile]
                                : B->ibase;
      if (!ip) return B->st = host->error(NDT_ERR_INTERNAL, "a walked tile has no device copy");
      ndt_dk_run *w = &L->run[L->nrun++];
      *w = (ndt_dk_run){.rows = u->rows, .cols = u->cols, .p = {ip + u->in, B->obase + u->out},
                        .rs = {u->rs, 0, 0, u->copy}, .cs = {u->cs, u->ocs, 0}};
      if (B->arg) {   /* the indices, laid out as the values */
        w->p[2] = B->ixbase + u->in / B->esz * 8;
        w->rs[2] = u->rs / B->esz * 8;
        w->cs[2] = u->cs / B->esz * 8;
        w->rs[3] = 0;
      }
      B->pch[k] = -1;
    }
    L->run[head].rs[B->arg ? 3 : 2] = L->nrun - head;
    if (!B->arg) L->run[head].cs[2] = B->from_out || B->ch[c].launched;
    B->ch[c].launched = 1;
  }
  B->np = 0;
  if (B->arg ? ndt__dk_cbarg(B->op, B->acc, L, B->d->flags, B->d->stream)
             : ndt__dk_combine(B->op, B->acc, B->fused, L, B->d->flags, B->d->stream))
    return B->st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this reduction");
  cudaError_t e = cudaGetLastError();
  return B->st = e == cudaSuccess ? NDT_OK : disable(B->d, e, "a reduction");
}

/* a run the builder cannot take: supports refuses (dry), else an error */
static ndt_status cb_fail(cb_builder *B, const char *why) {
  return B->dry ? NDT_ERR_VALUE : host->error(NDT_ERR_INTERNAL, why);   /* (supports checked) */
}

/* the chain of result columns (out, cols, ocs), or -1 */
static int cb_chain(const cb_builder *B, int64_t out, int64_t cols, int64_t ocs) {
  for (int k = B->nch - 1; k >= 0; k--)
    if (B->ch[k].out == out && B->ch[k].cols == cols && B->ch[k].ocs == ocs) return k;
  return -1;
}

/* the next run, in the CPU's order */
static void cb_add(cb_builder *B, cb_run u) {
  if (B->st || u.rows <= 0 || u.cols <= 0) return;
  if (u.cols == 1) u.ocs = 0;
  if (u.rows == 1) u.rs = 0;
  if (B->dry && ++B->nruns > CB_MAXRUNS) {
    B->st = NDT_ERR_VALUE;   /* too many to plan at recording: the CPU's */
    return;
  }
  int c = cb_chain(B, u.out, u.cols, u.ocs);
  if (c >= 0 && B->arg && B->ch[c].launched) {
    B->st = cb_fail(B, "the CUDA arg combine met a chain longer than a launch");
    return;
  }
  if (c < 0) {   /* a new set of columns: disjoint from every other one */
    int64_t lo = u.out, hi = u.out + (u.cols - 1) * u.ocs + B->osz;
    for (int k = 0; k < B->nch; k++) {
      int64_t l2 = B->ch[k].out, h2 = l2 + (B->ch[k].cols - 1) * B->ch[k].ocs + B->osz;
      if (lo < h2 && l2 < hi) {
        B->st = cb_fail(B, "the CUDA reduction met result columns that overlap");
        return;
      }
    }
    if (B->nch == CB_MAXCHAINS) {
      B->st = cb_fail(B, "the CUDA reduction met too many result columns");
      return;
    }
    c = B->nch++;
    B->ch[c].out = u.out;
    B->ch[c].cols = u.cols;
    B->ch[c].ocs = u.ocs;
    B->ch[c].launched = 0;
  }
  /* the chain's last run goes on by this one's rows: one run */
  for (int k = B->np - 1; k >= 0; k--) {
    if (B->pch[k] != c) continue;
    cb_run *w = &B->pend[k];
    int64_t R = w->rows > 1 ? w->rs : u.rows > 1 ? u.rs : u.in - w->in;
    if (!u.copy && w->tile == u.tile && w->cs == u.cs && (w->rows == 1 || w->rs == R) &&
        (u.rows == 1 || u.rs == R) && u.in == w->in + w->rows * R) {
      w->rs = R;
      w->rows += u.rows;
      return;
    }
    break;
  }
  if (B->np == NDT_DK_MAXRUNS && cb_launch(B)) return;
  B->pend[B->np] = u;
  B->pch[B->np++] = c;
}

/* ---- the walks: the CPU bodies' loops, their runs to the builder ---- */

/* combine_body with partials: each block's partial (C order over its
 * shape, the reduced axes 1) against the result elements, block after
 * block, the blocks that meet the box of [clo, chi) alone (reduce.h's
 * ndt_red_box, as the CPU's body: linear in the tiles, not quadratic); the
 * first block of the elements it reaches copied */
static void cb_walk_parts(cb_builder *B, const ndt_red_arg *r) {
  const ndt_array *o = &r->out;
  int nd = o->ndim, asz = B->esz, osz = B->osz;
  int64_t lo = r->clo, hi = r->chi, ost[NDT_MAXDIMS], b0[NDT_MAXDIMS], bn[NDT_MAXDIMS];
  cb_cstrides(nd, o->shape, 1, ost);
  ndt_red_box(&r->in, r->mask, o, lo, hi, b0, bn);
  ndt_red_blocks w;
  for (int64_t blk = ndt_red_blk_first(&w, &r->in, &r->tl, b0, bn); blk >= 0 && !B->st;
       blk = ndt_red_blk_next(&w)) {
    ndt_array bv;
    int64_t ps[NDT_MAXDIMS], start[NDT_MAXDIMS], obase = 0, poff = ndt_red_part_offset(r, blk);
    cb_block_view(&r->in, &r->tl, blk, &bv);
    cb_block_start(&r->in, &r->tl, blk, start);
    int copy_first = 1;
    for (int k = 0; k < nd; k++) {
      ps[k] = (r->mask >> k & 1) ? 1 : bv.shape[k];
      if (!(r->mask >> k & 1)) obase += start[k] * ost[k];
      else if (start[k] != 0) copy_first = 0;
    }
    int64_t shape[NDT_MAXDIMS], st2[2][NDT_MAXDIMS];
    memcpy(shape, ps, sizeof(int64_t) * (size_t)nd);
    cb_cstrides(nd, ps, asz, st2[0]);
    memcpy(st2[1], ost, sizeof(int64_t) * (size_t)nd);
    int cd = ndt__coalesce(nd, shape, 2, st2);
    int64_t n = cd ? shape[cd - 1] : 1, sp = cd ? st2[0][cd - 1] : 0;
    int64_t so = cd ? st2[1][cd - 1] : 0, runs = 1, idx[NDT_MAXDIMS] = {0};
    for (int j = 0; j < cd - 1; j++) runs *= shape[j];
    for (int64_t q = 0; q < runs && !B->st; q++) {
      int64_t oi = obase, pb = 0, j0, j1;
      for (int j = 0; j < cd - 1; j++) {
        oi += idx[j] * st2[1][j];
        pb += idx[j] * st2[0][j];
      }
      ndt_red_in_range(oi, n, so, lo, hi, &j0, &j1);
      if (j1 > j0 && so == 0 && j1 - j0 > 1)
        B->st = cb_fail(B, "the CUDA combine met a partial run into one element");
      else if (j1 > j0)
        cb_add(B, (cb_run){.rows = 1, .cols = j1 - j0, .cs = sp, .in = poff * asz + pb + j0 * sp,
                           .out = (oi + j0 * so - lo) * osz, .ocs = so * osz, .tile = -1,
                           .copy = copy_first && !B->arg});
      for (int j = cd - 2; j >= 0; j--) {
        if (++idx[j] < shape[j]) break;
        idx[j] = 0;
      }
    }
  }
}

/* combine_body's seed_last: the start the result held (kept aside at
 * bp[0], laid out as the result's elements [clo, chi)) added to every
 * element after its partials, one more run at the end of each chain */
static void cb_seed_last(cb_builder *B) {
  for (int k = 0, n = B->nch; k < n && !B->st; k++)
    cb_add(B, (cb_run){.rows = 1, .cols = B->ch[k].cols, .cs = B->ch[k].ocs, .in = B->ch[k].out,
                       .out = B->ch[k].out, .ocs = B->ch[k].ocs, .tile = -2});
}

/* reduce.c's fold_block: block blk of the input (its view bv) folded into
 * the result elements [clo, chi) it reaches, its runs in C order. src < 0:
 * read in place in the tile of the walked input that holds each run (a
 * run across two tiles: the CPU's); src >= 0: block src of a carry, bound
 * at B->bp[src] with byte strides sst (in place, or gathered: C order).
 * The runs are the view's (its strides join the coalescing, as in
 * reduce.c's block body), so the chains do not depend on whether a block
 * was gathered: supports sees the same ones. Each result element folds
 * the same values in the same order as the CPU's however its runs are
 * cut (k.acc: column by column; into one element: in order). */
static void cb_walk_block(cb_builder *B, const ndt_red_arg *r, int64_t blk, const ndt_array *bv,
                          int src, const int64_t *sst) {
  const ndt_store *s = r->in.store;
  int nd = r->out.ndim, osz = B->esz;
  int64_t ssz = s->itemsize, lo = r->clo, hi = r->chi, ost[NDT_MAXDIMS];
  if (!bv->size) return;
  cb_cstrides(nd, r->out.shape, 1, ost);
  int64_t start[NDT_MAXDIMS], obase = 0;
  cb_block_start(&r->in, &r->tl, blk, start);
  for (int j = 0; j < nd; j++)
    if (!(r->mask >> j & 1)) obase += start[j] * ost[j];
  int64_t shape[NDT_MAXDIMS], st2[3][NDT_MAXDIMS];
  memcpy(shape, bv->shape, sizeof(int64_t) * (size_t)nd);
  for (int j = 0; j < nd; j++) {
    st2[2][j] = bv->strides[j] * ssz;
    st2[0][j] = src < 0 ? st2[2][j] : sst[j];
  }
  memcpy(st2[1], ost, sizeof(int64_t) * (size_t)nd);
  int cd = ndt__coalesce(nd, shape, 3, st2);
  int64_t n = cd ? shape[cd - 1] : 1, sp = cd ? st2[0][cd - 1] : 0;
  int64_t so = cd ? st2[1][cd - 1] : 0, runs = 1, idx[NDT_MAXDIMS] = {0};
  for (int j = 0; j < cd - 1; j++) runs *= shape[j];
  for (int64_t q = 0; q < runs && !B->st; q++) {
    int64_t oi = obase, pb = src < 0 ? bv->offset * ssz : 0, j0, j1;
    for (int j = 0; j < cd - 1; j++) {
      oi += idx[j] * st2[1][j];
      pb += idx[j] * st2[0][j];
    }
    ndt_red_in_range(oi, n, so, lo, hi, &j0, &j1);
    if (j1 > j0) {
      int64_t m = j1 - j0, f = pb + j0 * sp, e = f + (m - 1) * sp, t = -2 - src;
      if (src < 0) {
        t = ndt_store_tile_of(s, (f < e ? f : e) / ssz);
        if (t != ndt_store_tile_of(s, (f < e ? e : f) / ssz)) {
          B->st = cb_fail(B, "the CUDA reduction met a run across two tiles");
          break;
        }
        f -= s->tiles[t].start * ssz;
      }
      cb_run u = {.tile = t, .in = f, .out = (oi + j0 * so - lo) * osz, .ocs = so * osz};
      if (so) u.rows = 1, u.cols = m, u.cs = sp;
      else u.rows = m, u.rs = sp, u.cols = 1;   /* (k.acc with a 0 stride: into one) */
      cb_add(B, u);
    }
    for (int j = cd - 2; j >= 0; j--) {
      if (++idx[j] < shape[j]) break;
      idx[j] = 0;
    }
  }
}

/* combine_body's direct fold: the blocks of the input that meet the box
 * of [clo, chi) (ndt_red_box: the walked operand's view, its tiles the
 * ones made valid here), in order, read in place in the walked input's
 * tiles (the runs outside [clo, chi) dropped, as before) */
static void cb_walk_direct(cb_builder *B, const ndt_red_arg *r) {
  int64_t b0[NDT_MAXDIMS], bn[NDT_MAXDIMS];
  ndt_red_box(&r->in, r->mask, &r->out, r->clo, r->chi, b0, bn);
  ndt_red_blocks w;
  for (int64_t blk = ndt_red_blk_first(&w, &r->in, &r->tl, b0, bn); blk >= 0 && !B->st;
       blk = ndt_red_blk_next(&w)) {
    ndt_array bv;
    cb_block_view(&r->in, &r->tl, blk, &bv);
    cb_walk_block(B, r, blk, &bv, -1, NULL);
  }
}

/* fold_body (prod fold): the block's runs into the region (the result's
 * elements it reaches: byte strides rst), the block by its byte strides
 * ist */
static void cb_walk_prodfold(cb_builder *B, const ndt_prodfold_arg *f, const int64_t *ist,
                             const int64_t *rst) {
  int nd = f->blk.ndim;
  int64_t shape[NDT_MAXDIMS], st[2][NDT_MAXDIMS];
  memcpy(shape, f->blk.shape, sizeof(int64_t) * (size_t)nd);
  for (int j = 0; j < nd; j++) {
    st[0][j] = ist[j];
    st[1][j] = (f->mask >> j & 1) ? 0 : rst[j];
  }
  int cd = ndt__coalesce(nd, shape, 2, st);
  int64_t n = cd ? shape[cd - 1] : 1, sp = cd ? st[0][cd - 1] : 0, so = cd ? st[1][cd - 1] : 0;
  int64_t runs = 1, idx[NDT_MAXDIMS] = {0};
  for (int j = 0; j < cd - 1; j++) runs *= shape[j];
  for (int64_t q = 0; q < runs && !B->st; q++) {
    int64_t ip = 0, op = 0;
    for (int j = 0; j < cd - 1; j++) {
      ip += idx[j] * st[0][j];
      op += idx[j] * st[1][j];
    }
    cb_run u = {.tile = -1, .in = ip, .out = op, .ocs = so};
    if (so) u.rows = 1, u.cols = n, u.cs = sp;
    else u.rows = n, u.rs = sp, u.cols = 1;
    cb_add(B, u);
    for (int j = cd - 2; j >= 0; j--) {
      if (++idx[j] < shape[j]) break;
      idx[j] = 0;
    }
  }
}

/* the innermost run's result stride of fold_body: 0 (its k.run) or not (k.acc) */
static int64_t cb_prodfold_so(const ndt_prodfold_arg *f, const int64_t *ist, const int64_t *rst) {
  int nd = f->blk.ndim;
  int64_t shape[NDT_MAXDIMS], st[2][NDT_MAXDIMS];
  memcpy(shape, f->blk.shape, sizeof(int64_t) * (size_t)nd);
  for (int j = 0; j < nd; j++) {
    st[0][j] = ist[j];
    st[1][j] = (f->mask >> j & 1) ? 0 : rst[j];
  }
  int cd = ndt__coalesce(nd, shape, 2, st);
  return cd ? st[1][cd - 1] : 0;
}

static void cb_begin(cb_builder *B, cuda_dev *d, int dry, int op, int acc) {
  B->dry = dry;
  B->d = d;
  B->op = op;
  B->acc = acc;
  B->esz = B->osz = (int)ndt_dk_dtype_size(acc);
  B->arg = 0;
  B->fused = 0;
  B->from_out = 0;
  B->obase = B->ibase = B->ixbase = NULL;
  B->walk = NULL;
  B->nch = B->np = 0;
  B->nruns = 0;
  B->st = NDT_OK;
}

/* the op the CPU's combine folds with: the partials' NaNs came from inf -
 * inf or inf * 0 and propagate (reduce.c) */
static int cb_combine_op(const ndt_red_arg *r) {
  return !r->parts ? r->op
         : r->op == NDT_RED_NANSUM ? NDT_RED_SUM
         : r->op == NDT_RED_NANPROD ? NDT_RED_PROD : r->op;
}

static int cb_cplx(int acc) { return acc == NDT_COMPLEX64 || acc == NDT_COMPLEX128; }

/* an argmin/argmax combine's builder: the partials' values of dtype acc,
 * the result's int64 indices */
static void cb_arg_begin(cb_builder *B, cuda_dev *d, int dry, const ndt_red_arg *r) {
  cb_begin(B, d, dry, r->op, r->acc);
  B->arg = 1;
  B->osz = 8;
}

/* The direct fold's steps on many ranks ("reduce carry": reduce.c's
 * carry_body): the result elements [clo, chi) start from the identity
 * (from 0: the elements the step's blocks reach start from it in the
 * kernel, a launch of empty runs fills the others first), from a copy of
 * the step before's running result (from 1: a copy on the device's
 * stream) or from what they hold (from 2); then the step's blocks, in
 * order, as the direct fold reads them (cb_walk_block), each where the
 * core bound it (in place, or gathered into scratch). */
static int cb_carry_ok(cb_builder *B, cuda_dev *d, const ndt_operand *op, int nop,
                       const ndt_carry_arg *c) {
  const ndt_red_arg *r = &c->r;
  int fl = host->cpu_level() >= 2;
  if (c->from < 0 || c->from > 2 || c->nblk < 0 || c->nblk > NDT_CARRY_BLOCKS ||
      nop != 2 + c->nblk || r->arg || r->parts || r->out.dtype != r->acc || r->acc < 0 ||
      r->acc >= NDT_NTYPES || r->in.dtype != r->acc || r->in.part || !r->in.store ||
      r->out.ndim != r->in.ndim ||
      ndt__dk_combine(r->op, r->acc, cb_cplx(r->acc) && fl, NULL, NULL, NULL))
    return 0;
  cb_begin(B, d, 1, r->op, r->acc);
  for (int i = 0; i < c->nblk && !B->st; i++) {
    const ndt_array *v = op[2 + i].view;
    int64_t st[NDT_MAXDIMS];
    if (!v || !v->store || v->store != r->in.store || v->ndim != r->out.ndim) return 0;
    for (int j = 0; j < v->ndim; j++) st[j] = v->strides[j] * v->store->itemsize;
    cb_walk_block(B, r, c->blk[i], v, i, st);
  }
  cb_launch(B);
  return B->st == NDT_OK;
}

/* the launches of a carry step (after cb_begin) */
static ndt_status cb_carry(cb_builder *B, ndt_bound *b, const ndt_carry_arg *c) {
  const ndt_red_arg *r = &c->r;
  int64_t n = r->chi - r->clo;
  B->obase = b[0].ptr;
  if (n <= 0) return NDT_OK;
  if (c->from == 1) {
    cudaError_t e = cudaMemcpyAsync(b[0].ptr, b[1].ptr, (size_t)(n * B->esz),
                                    cudaMemcpyDeviceToDevice, B->d->stream);
    if (e != cudaSuccess) return B->st = disable(B->d, e, "a reduction");
  }
  for (int i = 0; i < c->nblk; i++) {
    if (b[2 + i].view->size && !b[2 + i].ptr)
      return host->error(NDT_ERR_INTERNAL, "a CUDA carry's block is not bound");
    B->bp[i] = b[2 + i].ptr;
  }
  B->from_out = c->from != 0;
  if (c->from == 0) {
    /* the elements the blocks reach (their chains' columns: disjoint) */
    int64_t reached = 0;
    B->dry = 1;
    for (int i = 0; i < c->nblk && !B->st; i++)
      cb_walk_block(B, r, c->blk[i], b[2 + i].view, i, b[2 + i].st);
    cb_launch(B);
    for (int k = 0; k < B->nch; k++) reached += B->ch[k].cols;
    ndt_status st = B->st;
    int fused = B->fused;
    cb_begin(B, B->d, 0, r->op, r->acc);
    B->fused = fused;
    B->obase = b[0].ptr;
    for (int i = 0; i < c->nblk; i++) B->bp[i] = b[2 + i].ptr;
    if (st) return host->error(NDT_ERR_INTERNAL, "the CUDA carry cannot take its blocks");
    if (reached < n) {   /* the identity into every element, then on from it */
      ndt_dk_launch *L = &B->L;
      L->nrun = 1;
      L->aux = B->acc;
      L->run[0] = (ndt_dk_run){.rows = 0, .cols = n, .p = {NULL, B->obase},
                               .rs = {0, 0, 1, 0}, .cs = {0, B->esz, 0}};
      if (ndt__dk_combine(B->op, B->acc, B->fused, L, B->d->flags, B->d->stream))
        return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this reduction");
      cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) return disable(B->d, e, "a reduction");
      B->from_out = 1;
    }
  }
  for (int i = 0; i < c->nblk && !B->st; i++)
    cb_walk_block(B, r, c->blk[i], b[2 + i].view, i, b[2 + i].st);
  return cb_launch(B);
}

static int cb_supports(cuda_dev *d, int what, const ndt_operand *op, int nop, const void *arg) {
  (void)op;
  static _Thread_local cb_builder B;   /* 60 KB: not on a stack */
  int fl = host->cpu_level() >= 2;
  if (what == 4) return cb_carry_ok(&B, d, op, nop, arg);
  if (what == 5) {   /* the buffers' sums in order into the result */
    const ndt_pw_arg *a = arg;
    return nop == 2 && a->op == NDT_RED_SUM && a->acc >= NDT_FLOAT32 &&
           a->acc <= NDT_COMPLEX128 && a->out.dtype == a->acc && a->n > 0 &&
           !ndt__dk_combine(a->op, a->acc, 0, NULL, NULL, NULL);
  }
  if (what == 1 && ((const ndt_red_arg *)arg)->arg) {
    const ndt_red_arg *r = arg;
    if (nop != 3 || !r->parts || r->out.dtype != NDT_INT64 || r->acc < 0 ||
        r->acc >= NDT_NTYPES || ndt__dk_cbarg(r->op, r->acc, NULL, NULL, NULL))
      return 0;
    cb_arg_begin(&B, d, 1, r);
    cb_walk_parts(&B, r);
    cb_launch(&B);
    return B.st == NDT_OK;
  }
  if (what == 1) {
    const ndt_red_arg *r = arg;
    if (nop != 3 || r->arg || r->out.dtype != r->acc || r->acc < 0 || r->acc >= NDT_NTYPES)
      return 0;
    if (!r->parts && (r->in.dtype != r->acc || r->in.part || !r->in.store)) return 0;
    int cop = cb_combine_op(r);
    if (ndt__dk_combine(cop, r->acc, !r->parts && cb_cplx(r->acc) && fl, NULL, NULL, NULL))
      return 0;
    cb_begin(&B, d, 1, cop, r->acc);
    if (r->parts) cb_walk_parts(&B, r);
    else cb_walk_direct(&B, r);
    if (r->from_out && r->parts && r->seed_last) cb_seed_last(&B);
    cb_launch(&B);
    return B.st == NDT_OK;
  }
  if (what == 2) {
    const ndt_chain_arg *a = arg;
    return nop == 2 && a->piece.dtype == a->acc && a->piece.ndim == 1 && !a->piece.part &&
           a->out.dtype == a->acc && !ndt__dk_combine(a->op, a->acc, 0, NULL, NULL, NULL);
  }
  const ndt_prodfold_arg *f = arg;
  if (nop != 2 || f->blk.dtype != f->acc || f->blk.part || f->reg.dtype != f->acc ||
      !f->blk.store || !f->reg.store || ndt__dk_combine(f->op, f->acc, 0, NULL, NULL, NULL) ||
      ndt__dk_combine(f->op, f->acc, fl && cb_cplx(f->acc), NULL, NULL, NULL))
    return 0;
  int64_t ist[NDT_MAXDIMS], rst[NDT_MAXDIMS];
  for (int j = 0; j < f->blk.ndim; j++) {
    ist[j] = f->blk.strides[j] * f->blk.store->itemsize;
    rst[j] = f->reg.strides[j] * f->reg.store->itemsize;
  }
  cb_begin(&B, d, 1, f->op, f->acc);
  cb_walk_prodfold(&B, f, ist, rst);
  cb_launch(&B);
  return B.st == NDT_OK;
}

/* one task's launches (d->run held) */
static ndt_status cb_one(cuda_dev *d, int what, ndt_bound *b, const void *arg, cb_builder *B) {
  int fl = host->cpu_level() >= 2;
  if (what == 4) {
    const ndt_carry_arg *c = arg;
    cb_begin(B, d, 0, c->r.op, c->r.acc);
    B->fused = cb_cplx(c->r.acc) && fl;   /* (fold_block's k.acc) */
    return cb_carry(B, b, c);
  }
  if (what == 1 && ((const ndt_red_arg *)arg)->arg) {
    const ndt_red_arg *r = arg;
    cb_arg_begin(B, d, 0, r);
    B->obase = b[0].ptr;
    B->ibase = b[1].ptr;   /* the values, then the indices (reduce.c's idx_offset) */
    B->ixbase = b[1].ptr + ((r->pcount * B->esz + 7) & ~(int64_t)7);
    cb_walk_parts(B, r);
  } else if (what == 1) {
    const ndt_red_arg *r = arg;
    cb_begin(B, d, 0, cb_combine_op(r), r->acc);
    B->fused = !r->parts && cb_cplx(r->acc) && fl;   /* (fold_block's k.acc) */
    B->obase = b[0].ptr;
    if (r->parts && r->from_out && r->seed_last) {
      /* the start the result holds, kept aside and added last */
      size_t n = (size_t)(r->chi - r->clo) * (size_t)B->esz;
      if (!(B->bp[0] = dev_malloc(d, n))) return NDT_ERR_NOMEM;
      cudaError_t e = cudaMemcpyAsync(B->bp[0], b[0].ptr, n, cudaMemcpyDeviceToDevice, d->stream);
      if (e != cudaSuccess) return disable(d, e, "a reduction");
      B->ibase = b[1].ptr;
      cb_walk_parts(B, r);
      cb_seed_last(B);
      ndt_status st = cb_launch(B);
      if (!atomic_load(&d->dead)) cudaFreeAsync(B->bp[0], d->stream);
      return st;
    }
    /* seeded, the direct fold goes on from the start the result holds;
     * with partials, the first block's (which holds it) is copied */
    B->from_out = r->from_out && !r->parts;
    if (r->parts) {
      B->ibase = b[1].ptr;
      cb_walk_parts(B, r);
    } else {
      B->walk = &b[1];
      cb_walk_direct(B, r);
    }
  } else if (what == 5) {
    /* reduce.c's bsum_top_body: the start (the identity, or the result's
     * when seeded) + s0 + s1 + ..., one chain of the slots */
    const ndt_pw_arg *a = arg;
    cb_begin(B, d, 0, a->op, a->acc);
    B->from_out = a->from_out;
    B->obase = b[1].ptr;
    B->ibase = b[0].ptr;
    cb_add(B, (cb_run){.rows = a->n, .rs = B->esz, .cols = 1, .tile = -1});
  } else if (what == 2) {
    const ndt_chain_arg *a = arg;
    cb_begin(B, d, 0, a->op, a->acc);
    B->from_out = !a->first;
    B->obase = b[0].ptr;
    B->ibase = b[1].ptr;
    cb_add(B, (cb_run){.rows = a->piece.shape[0], .rs = b[1].st[0], .cols = 1, .tile = -1});
  } else {
    const ndt_prodfold_arg *f = arg;
    cb_begin(B, d, 0, f->op, f->acc);
    B->from_out = !f->first;
    B->obase = b[0].ptr;
    B->ibase = b[1].ptr;
    int64_t ist[NDT_MAXDIMS], rst[NDT_MAXDIMS];
    for (int j = 0; j < f->blk.ndim; j++) {
      ist[j] = b[1].st[j];
      rst[j] = b[0].st[j];
    }
    /* k.run along a reduced innermost axis (unfused), else k.acc */
    B->fused = cb_prodfold_so(f, ist, rst) != 0 && cb_cplx(f->acc) && fl;
    cb_walk_prodfold(B, f, ist, rst);
  }
  return cb_launch(B);
}

/* one task of kind *(int *)ctx (run_members, cuda.c) */
static ndt_status cb_member(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  static _Thread_local cb_builder B;
  return cb_one(d, *(const int *)ctx, b, arg, &B);
}

/* n tasks of one kind (one, or a grouped task's members), in order; one
 * wait, and the flags the kernels reported raised on this worker */
static ndt_status cb_exec(cuda_dev *d, int what, ndt_bound *b, int n, const int *nop,
                          void *const *args) {
  return run_members(d, "a reduction", 1, cb_member, &what, b, n, nop, args);
}

static ndt_status cb_combine_body(ndt_bound *b, void *argp) {
  int nop = 3;
  return cb_exec(b[0].mem->context, 1, b, 1, &nop, &argp);
}

static ndt_status cb_chain_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return cb_exec(b[0].mem->context, 2, b, 1, &nop, &argp);
}

static ndt_status cb_fold_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return cb_exec(b[0].mem->context, 3, b, 1, &nop, &argp);
}

static ndt_status cb_bsum_top_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return cb_exec(b[1].mem->context, 5, b, 1, &nop, &argp);
}

static ndt_status cb_carry_body(ndt_bound *b, void *argp) {
  int nop = 2 + ((const ndt_carry_arg *)argp)->nblk;
  return cb_exec(b[0].mem->context, 4, b, 1, &nop, &argp);
}
