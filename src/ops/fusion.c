/* fusion.c - chains of elementwise operations run as one pass per block.
 *
 * An elementwise op (or cast) on large arrays does not become tasks at once:
 * it joins the current group when its shape matches. The group is flushed
 * when anything else is recorded or data is read (the runtime calls
 * ndt__flush first). By then the program has dropped most temporaries: an op
 * whose result nobody holds is computed only into a chunk-sized scratch
 * buffer that the next op reads, and an op that nothing needs is not
 * computed at all. So `a*b + c*d - e` reads a..e once and writes one array,
 * with no full-size temporaries.
 *
 * An op may also write into an existing array (`x += y`, `out=`, `x[...] =
 * y`): it joins when that array is read and written element for element
 * only (no other view of its memory is in the group), so within each chunk
 * the ops still run in program order. Of several ops writing one array only
 * the last writes memory; the earlier ones feed it through scratch.
 *
 * Everything here runs on the recording thread, except fused_task. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fusion.h"

#define MAXF NDT_FUSE_MAXF   /* ops in one group */
#define MAXE NDT_FUSE_MAXE   /* external inputs in one group */
#define FCH 1024    /* elements per chunk */

typedef struct {
  ndt_loop_fn loop;
  const char *name;
  int nin, ufunc;
  ndt_dtype loop_in[NDT_MAXOPS - 1], loop_out, out_dt;
  int src[NDT_MAXOPS - 1];  /* >= 0: external input; < 0: output of op -(src+1) */
  ndt_array *out;           /* the group's handle on the result (fresh or existing) */
  int alive;
  int over;                 /* a later op of the group writes the same view */
  ndt_fprec *fprec;         /* its floating-point error record, or NULL */
} fop;

typedef struct {
  atomic_int refs;
  int nops, next;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  ndt_tiling tl;
  int isz;                  /* the first op's result itemsize: tl's unless flush refines it */
  fop ops[MAXF];
  ndt_array ext[MAXE];      /* inputs broadcast to shape; store references held */
  int ext_used[MAXE];
  int ranks;                /* recorded for many ranks: every result an operand (flush) */
  int64_t call;             /* ndt__rt_call_no() when the group began: its tasks of a
                               later call hold earlier calls' ops (NDT_TASK_EARLY) */
  ndt_fused_desc desc;      /* for devices: filled by the flush */
} fgroup;

static fgroup *cur;
static int flushing;
static const fgroup *flushed;   /* the group a flush is recording */

static void group_decref(fgroup *g) {
  if (atomic_fetch_sub(&g->refs, 1) != 1) return;
  for (int k = 0; k < g->nops; k++) {
    ndt_free(g->ops[k].out);
    ndt__fp_release(g->ops[k].fprec);   /* the last task of the group has run */
  }
  for (int e = 0; e < g->next; e++) ndt__store_decref(g->ext[e].store);
  ndt__mfree(g);
}

/* incl: the results this task writes (bit k: op k's) */
typedef struct { ndt_fused_task t; fgroup *g; int64_t blk, r0, rn; } fused_arg;

/* The operands: the used inputs' block views (in ext order), then the
 * written results' (in op order); on many ranks every result's, the last
 * op's first (the others' unwritten ones kept only: see ndt__flush). */
static ndt_status fused_body(ndt_bound *b, void *p) {
  const fused_arg *fa = p;
  fgroup *g = fa->g;
  ndt_bound *eb[MAXE], *ob[MAXF];
  int nb = 0;
  ndt_status st = NDT_OK;
  unsigned fpe[MAXF] = {0};   /* IEEE flags per op, reported by the op's name */
  uint64_t incl = fa->t.incl;
  for (int e = 0; e < g->next; e++)
    if (g->ext_used[e]) eb[e] = &b[nb++];
  if (g->ranks) {
    for (int k = g->nops - 1; k >= 0; k--, nb++)
      if (incl >> k & 1) ob[k] = &b[nb];
  } else {
    for (int k = 0; k < g->nops; k++)
      if (incl >> k & 1) ob[k] = &b[nb++];
  }
  if (st == NDT_OK) {
    /* one stride table over every bound operand, coalesced together */
    int64_t shape[NDT_MAXDIMS], s[MAXE + MAXF][NDT_MAXDIMS];
    int nd = g->nd, nop = 0, map_e[MAXE], map_o[MAXF];
    ndt_array bv;
    ndt__block_rows(g->ops[0].out, &g->tl, fa->blk, fa->r0, fa->rn, &bv);
    memcpy(shape, bv.shape, sizeof(int64_t) * nd);
    for (int e = 0; e < g->next; e++)
      if (g->ext_used[e]) {
        map_e[e] = nop;
        memcpy(s[nop++], eb[e]->st, sizeof(int64_t) * nd);
      }
    for (int k = 0; k < g->nops; k++)
      if (incl >> k & 1) {
        map_o[k] = nop;
        memcpy(s[nop++], ob[k]->st, sizeof(int64_t) * nd);
      }
    nd = ndt__coalesce(nd, shape, nop, s);
    int64_t inner = nd ? shape[nd - 1] : 1, runs = 1, idx[NDT_MAXDIMS] = {0};
    for (int j = 0; j < nd - 1; j++) runs *= shape[j];
    _Alignas(64) char scratch[MAXF][FCH * 16];
    char *base[MAXE + MAXF];
    /* Each op's call, worked out once for the task: where each
     * argument comes from (an operand's run, at its inner stride, or a
     * dead result's scratch), and whether the loop runs without casts.
     * Runs are often one row (a padded frame's views: 768 elements), so
     * this part was paid per row and op: a third of the kernels' own
     * instructions at AVX2, more than half at AVX-512. */
    struct {
      int k, nin, direct;
      int src[NDT_MAXOPS];      /* operand (base[] index), or -1: scr */
      char *scr[NDT_MAXOPS];
      int64_t st[NDT_MAXOPS];
      ndt_dtype in_dt[NDT_MAXOPS];
    } step[MAXF];
    int nstep = 0;
    for (int k = 0; k < g->nops; k++) {
      const fop *f = &g->ops[k];   /* (every op, a dead one too: see ndt__flush) */
      int direct = f->loop != NULL && f->out_dt == f->loop_out;
      for (int i = 0; i <= f->nin; i++) {
        int o = -1, sr = i < f->nin ? f->src[i] : -(k + 1);
        ndt_dtype dt;
        if (sr >= 0) {
          o = map_e[sr];
          dt = g->ext[sr].dtype;
        } else {
          int q = -sr - 1;
          dt = g->ops[q].out_dt;
          if (incl >> q & 1) o = map_o[q];
          else step[nstep].scr[i] = scratch[q];
        }
        step[nstep].src[i] = o;
        step[nstep].st[i] = o >= 0 ? (nd ? s[o][nd - 1] : 0) : ndt__traits[dt].size;
        if (i < f->nin) {
          step[nstep].in_dt[i] = dt;
          if (dt != f->loop_in[i]) direct = 0;
        }
      }
      step[nstep].k = k;
      step[nstep].nin = f->nin;
      step[nstep].direct = direct;
      nstep++;
    }
    /* each operand's run start, moved along run by run (an odometer) */
    for (int e = 0; e < g->next; e++)
      if (g->ext_used[e]) base[map_e[e]] = eb[e]->ptr;
    for (int k = 0; k < g->nops; k++)
      if (incl >> k & 1) base[map_o[k]] = ob[k]->ptr;
    for (int64_t r = 0; r < runs; r++) {
      for (int64_t c = 0; c < inner; c += FCH) {
        int64_t m = inner - c < FCH ? inner - c : FCH;
        for (int j = 0; j < nstep; j++) {
          const fop *f = &g->ops[step[j].k];
          char *p[NDT_MAXOPS];
          for (int i = 0; i <= step[j].nin; i++) {
            int o = step[j].src[i];
            p[i] = o >= 0 ? base[o] + c * step[j].st[i] : step[j].scr[i];
          }
          if (f->fprec) ndt_fpe_clear();
          if (step[j].direct) f->loop(p, step[j].st, m);
          else ndt__run_loop(f->loop, f->nin, step[j].in_dt, f->loop_in, f->out_dt, f->loop_out, p,
                             step[j].st, m);
          if (f->fprec) fpe[step[j].k] |= ndt_fpe_test();
        }
      }
      for (int j = nd - 2; j >= 0; j--) {
        if (++idx[j] < shape[j]) {
          for (int o = 0; o < nop; o++) base[o] += s[o][j];
          break;
        }
        idx[j] = 0;
        for (int o = 0; o < nop; o++) base[o] -= (shape[j] - 1) * s[o][j];
      }
    }
  }
  for (int k = 0; k < g->nops; k++)
    if (fpe[k]) ndt__fp_add(g->ops[k].fprec, fpe[k]);
  return st;
}

/* A device's flags (ndt_fused_desc.report): recorded per op, as above. */
static void desc_report(const ndt_fused_desc *d, const unsigned *fpe) {
  const fgroup *g = (const fgroup *)((const char *)d - offsetof(fgroup, desc));
  for (int k = 0; k < g->nops; k++)
    if (fpe[k]) ndt__fp_add(g->ops[k].fprec, fpe[k]);
}

/* the group's description for devices (fusion.h) */
static void desc_fill(fgroup *g) {
  ndt_fused_desc *d = &g->desc;
  d->nops = g->nops;
  d->next = g->next;
  d->ranks = g->ranks;
  for (int e = 0; e < g->next; e++) {
    d->ext_dt[e] = g->ext[e].dtype;
    d->ext_used[e] = g->ext_used[e];
  }
  for (int k = 0; k < g->nops; k++) {
    const fop *f = &g->ops[k];
    ndt_fused_op *o = &d->ops[k];
    o->ufunc = f->loop ? f->ufunc : -1;
    o->nin = f->nin;
    for (int i = 0; i < f->nin; i++) {
      o->src[i] = f->src[i];
      o->loop_in[i] = f->loop_in[i];
    }
    o->loop_out = f->loop_out;
    o->out_dt = f->out_dt;
    o->fp = f->fprec != NULL;
  }
  d->report = desc_report;
}

/* Each recorded task holds a reference to its group, given back whether the
 * task ran here or, on many ranks, on another rank. */
static void fused_release(void *p) { group_decref(((fused_arg *)p)->g); }

static const ndt_task_kind fused_kind = {"fused elementwise", {fused_body}, fused_release};

/* "fused multiply+add+subtract": the computed ops, for traces and errors.
 * Names are interned (tasks and the trace keep the pointer) in a bounded
 * table; past it, or when too long, the generic name. */
static const char *group_name(const fgroup *g) {
  static char *names[256];
  static int nnames;
  char buf[160];
  size_t len = 6;   /* memcpy, not snprintf: this runs at every flush */
  memcpy(buf, "fused ", len);
  for (int k = 0; k < g->nops; k++) {
    const size_t n = strlen(g->ops[k].name);
    if (len + (k > 0) + n >= sizeof buf) return "fused elementwise";
    if (k) buf[len++] = '+';
    memcpy(buf + len, g->ops[k].name, n);
    len += n;
  }
  buf[len] = '\0';
  for (int i = 0; i < nnames; i++)
    if (strcmp(names[i], buf) == 0) return names[i];
  if (nnames == (int)(sizeof names / sizeof names[0])) return "fused elementwise";
  /* plain malloc: kept until exit, and a failure only shortens the name (an
   * injected one would change the task's name, which ranks compare) */
  char *n = malloc(len + 1);
  if (!n) return "fused elementwise";
  memcpy(n, buf, len + 1);
  return names[nnames++] = n;
}

static int same_view(const ndt_array *a, const ndt_array *b) {
  if (a->store != b->store || a->offset != b->offset || a->ndim != b->ndim ||
      a->dtype != b->dtype || a->part != b->part)
    return 0;
  for (int k = 0; k < a->ndim; k++)
    if (a->shape[k] != b->shape[k] || a->strides[k] != b->strides[k]) return 0;
  return 1;
}

ndt_status ndt__flush(void) {
  if (!cur || flushing) return NDT_OK;
  flushing = 1;
  fgroup *g = cur;
  cur = NULL;
  flushed = g;
  /* alive: the program holds an array on the result (the group's own are
   * no handles), and no later op of the group writes the same elements
   * (that op's value is the one that stays). A later op writing another
   * part of the same store (`r[:n] = a; r[n:] = b`) leaves this one alive. */
  for (int k = 0; k < g->nops; k++) {
    const ndt_array *o = g->ops[k].out;
    int later = 0;
    for (int j = k + 1; j < g->nops && !later; j++) later = same_view(g->ops[j].out, o);
    g->ops[k].over = later;
    g->ops[k].alive = !later && atomic_load(&o->store->handles) > 0;
  }
  /* Many ranks. A handle goes when Python frees the array, and the cyclic
   * collector frees at points that differ from rank to rank; a program may
   * also keep an array on some ranks only. Every rank must still record the
   * same tasks (or they wait on each other's messages for ever), so the
   * tasks do not depend on what is alive here: every result is an operand
   * of every task, the same blocks on every rank, and the task's home (the
   * owner of the first tile it writes, dist.c) is the last op's result's,
   * which is always written. A result alive here is written; so is one
   * whose block lies (in part) on another rank than the home: the owner
   * expects it back. The others are kept, not written: a result with no
   * array on the home rank is never used again on any rank (a later op
   * that used it would need an array on every rank), so what the home does
   * not write, no rank reads. A result that a later op of the group
   * overwrites (the same view: the same on every rank) is never written:
   * the task would name those elements in two written operands, and where
   * its block crosses tiles each is gathered into scratch of its own and
   * scattered back in operand order, the last op's first, so the earlier
   * value won (out= into a.T, then +=: test_fusion, on 2 and 3 ranks).
   * The ranks used to agree on what is alive at
   * every flush (an allreduce): 50 a batch in the X-ray job, each holding
   * both ranks' recording threads until the later one came. */
  g->ranks = ndt__comm_size_ > 1;
  /* Every op is computed, a dead one into scratch: NumPy computes a result
   * the program drops (`a / 0` as a statement, `x = a / b` rebound before
   * use) and reports its floating-point errors. Skipping the ops no live
   * result needed saved only work a NumPy program pays for, and lost its
   * warnings (and made them depend on what Python had freed by the flush). */
  int any = g->nops > 0;
  memset(g->ext_used, 0, sizeof g->ext_used);
  for (int k = 0; k < g->nops; k++)
    for (int i = 0; i < g->ops[k].nin; i++)
      if (g->ops[k].src[i] >= 0) g->ext_used[g->ops[k].src[i]] = 1;
  ndt_status st = NDT_OK;
  const char *name = g->nops == 1 ? g->ops[0].name : group_name(g);
  ndt_array *cv[MAXE + MAXF];
  int ncv = 0;
  for (int k = 0; k < g->nops; k++)
    if (g->ops[k].alive || g->ranks) cv[ncv++] = g->ops[k].out;
  for (int e = 0; e < g->next; e++)
    if (g->ext_used[e]) cv[ncv++] = &g->ext[e];
  if (ncv == 0) cv[ncv++] = g->ops[0].out;
  /* blocks as fine as the widest operand's tiles (see ndt__split_itemsize);
   * the bodies read g->tl, set here once before any is recorded (with no
   * work to record, cv may hold a dead result's freed array) */
  if (any)
    ndt__tiling_for(g->nd, g->shape, ndt__split_itemsize(cv, ncv, g->isz), ndt__rt_tile_bytes(),
                   &g->tl);
  desc_fill(g);
  int64_t cuts[65];
  /* the fused tasks carry their ops' records (fop.fprec), not the record
   * of whatever op is being recorded while the group is flushed */
  ndt_fp_begin(NULL, 0);
  for (int64_t b = 0; any && b < g->tl.ntiles && st == NDT_OK; b++) {
    int np_ = ndt__block_cuts(cv, ncv, &g->tl, b, cuts, 65);
    for (int pc = 0; pc < np_ && st == NDT_OK; pc++) {
      fused_arg fa = {{&g->desc, 0}, g, b, cuts[pc], cuts[pc + 1] - cuts[pc]};
      ndt_array bv[MAXE + MAXF];
      ndt_operand ops[MAXE + MAXF];
      int nop = 0;
      for (int e = 0; e < g->next; e++)
        if (g->ext_used[e]) {
          ndt__block_rows(&g->ext[e], &g->tl, b, fa.r0, fa.rn, &bv[nop]);
          ops[nop] = (ndt_operand){&bv[nop], NDT_READ};
          nop++;
        }
      if (g->ranks) {
        int home = -1;
        for (int k = g->nops - 1; k >= 0; k--) {
          ndt_array *v = &bv[nop];
          ndt__block_rows(g->ops[k].out, &g->tl, b, fa.r0, fa.rn, v);
          int64_t lo, hi;
          ndt__view_extent(v, &lo, &hi);
          const ndt_store *os = v->store;
          int64_t t0 = ndt_store_tile_of(os, lo), t1 = ndt_store_tile_of(os, hi);
          int w = g->ops[k].alive || home < 0;
          if (home < 0) home = os->tiles[t0].owner;
          for (int64_t t = t0; t <= t1 && !w && !g->ops[k].over; t++)
            w = os->tiles[t].owner != home;
          fa.t.incl |= (uint64_t)w << k;
          ops[nop] = (ndt_operand){v, w ? NDT_WRITE : NDT_OPND_KEEP};
          nop++;
        }
      } else {
        for (int k = 0; k < g->nops; k++)
          if (g->ops[k].alive) {
            ndt__block_rows(g->ops[k].out, &g->tl, b, fa.r0, fa.rn, &bv[nop]);
            ops[nop] = (ndt_operand){&bv[nop], NDT_WRITE};
            fa.t.incl |= (uint64_t)1 << k;
            nop++;
          }
      }
      atomic_fetch_add(&g->refs, 1);
      st = ndt__record(&fused_kind, name, ops, nop, &fa, sizeof fa,
                       g->call != ndt__rt_call_no() ? NDT_TASK_EARLY : 0);
      if (st) atomic_fetch_sub(&g->refs, 1);
    }
  }
  ndt_fp_end();
  flushed = NULL;
  group_decref(g);
  flushing = 0;
  if (st) {
    /* the ops were accepted earlier: say which ones could not be recorded */
    char msg[400];
    snprintf(msg, sizeof msg, "%s", ndt_last_error());
    st = ndt__error(st, "%s: %s", name, msg);
  }
  return st;
}

/* The runtime's flush hook: the group must be recorded before a task or
 * wait that reads what it writes, or writes what it reads or writes. */
static int group_uses(const fgroup *g, const ndt_store *s) {
  for (int k = 0; g && k < g->nops; k++)
    if (g->ops[k].out->store == s) return 1;
  for (int e = 0; g && e < g->next; e++)
    if (g->ext[e].store == s) return 1;
  return 0;
}

static ndt_status flush_if_needed(int all, const ndt_store *s, const ndt_access *acc, int nacc) {
  /* the query (ndt_flush_fn): will held-back work still read or write s */
  if (all < 0) return group_uses(cur, s) || group_uses(flushed, s);
  if (!cur || flushing) return NDT_OK;
  int touch = all;
  for (int k = 0; k < cur->nops && !touch; k++) {
    const ndt_store *o = cur->ops[k].out->store;
    touch = s == o;
    for (int i = 0; i < nacc && !touch; i++) touch = acc[i].tile->store == o;
  }
  for (int e = 0; e < cur->next && !touch; e++) {
    const ndt_store *x = cur->ext[e].store;
    touch = s == x;
    for (int i = 0; i < nacc && !touch; i++)
      touch = acc[i].tile->store == x && (acc[i].priv & NDT_WRITE);
  }
  return touch ? ndt__flush() : NDT_OK;
}

/* Where input `a` (broadcast to the group shape in bv) comes from: an op of
 * the group, an external slot, or -1000 if the group must be flushed. */
static int source_of(const fgroup *g, const ndt_array *bv, int *new_ext) {
  for (int k = g->nops - 1; k >= 0; k--) {   /* the last op that wrote it */
    const ndt_array *o = g->ops[k].out;
    if (bv->store == o->store) return same_view(bv, o) ? -(k + 1) : -1000;
  }
  for (int e = 0; e < g->next; e++)
    if (same_view(bv, &g->ext[e])) return e;
  return g->next + (*new_ext)++ < MAXE ? MAXE + 1 : -1000;  /* a new slot */
}

/* 1 when a and b may share memory other than element for element. */
static int other_view(const ndt_array *a, const ndt_array *b) {
  return ndt__may_overlap(a, b) && !same_view(a, b);
}

/* 1 when the group may not take an op writing dst: another view of dst's
 * memory is read or written in it. */
static int dst_clash(const fgroup *g, const ndt_array *dst) {
  for (int k = 0; k < g->nops; k++)
    if (other_view(g->ops[k].out, dst)) return 1;
  for (int e = 0; e < g->next; e++)
    if (other_view(&g->ext[e], dst)) return 1;
  return 0;
}

int ndt__fuse_try(const ndt_ew_arg *proto, int nin, const ndt_array *const *in, int nd,
                  const int64_t *shape, ndt_array *dst, ndt_array **out) {
  int64_t size = 1;
  for (int k = 0; k < nd; k++) size *= shape[k];
  if (size <= ndt__rt_inline_elems() || flushing) return 0;
  /* work on a lent store is not held back (export.c) */
  if (atomic_load_explicit(&ndt__lent_stores, memory_order_relaxed)) {
    if (dst && atomic_load(&dst->store->lent)) return 0;
    for (int i = 0; i < nin; i++)
      if (atomic_load(&in[i]->store->lent)) return 0;
  }
  ndt_array bv[NDT_MAXOPS];
  for (int i = 0; i < nin; i++) ndt__bcast_view(in[i], nd, shape, &bv[i]);
  if (dst) {
    /* dst has the group shape; an input that overlaps it other than element
     * for element, or a dst that repeats elements, takes the normal path */
    for (int k = 0; k < nd; k++)
      if (dst->strides[k] == 0 && shape[k] > 1) return 0;
    for (int i = 0; i < nin; i++)
      if (other_view(&bv[i], dst)) return 0;
  }
  for (int attempt = 0; attempt < 2; attempt++) {
    int ok = 1;
    if (cur) {
      ok = cur->nops < MAXF && cur->nd == nd &&
           memcmp(cur->shape, shape, sizeof(int64_t) * nd) == 0 && !(dst && dst_clash(cur, dst));
      int new_ext = 0;
      for (int i = 0; i < nin && ok; i++) ok = source_of(cur, &bv[i], &new_ext) != -1000;
      /* a group of an earlier call's ops is kept whole by an interrupt of
       * a later call (NDT_TASK_EARLY): it must not read what a later call
       * wrote, which that interrupt may cancel (its results would be lost
       * with the later call's) */
      for (int i = 0; i < nin && ok; i++) ok = in[i]->store->wcall <= cur->call;
    }
    if (ok) break;
    ndt_status st = ndt__flush();
    if (st) return st;
  }
  if (!cur) {
    fgroup *g = ndt__malloc(sizeof *g);
    if (!g) return NDT_ERR_NOMEM;
    atomic_init(&g->refs, 1);
    g->nops = g->next = 0;
    g->call = ndt__rt_call_no();
    g->nd = nd;
    memcpy(g->shape, shape, sizeof(int64_t) * nd);
    g->isz = ndt__traits[proto->loop_out].size;
    ndt__tiling_for(nd, shape, g->isz, ndt__rt_tile_bytes(), &g->tl);
    ndt__set_flush_hook(flush_if_needed);   /* the runtime asks before it records or waits */
    cur = g;
  }
  ndt_array *res, *user = NULL;
  /* a fresh result has no memory yet: most of a group's results are dead by
   * the flush, and the live ones get theirs from the tasks recorded on them */
  ndt_status st = dst ? ndt__array_view(&res, dst)
                      : ndt__array_new(&res, proto->loop_out, nd, shape, NDT_STORE_LAZY);
  if (st) return st;
  if (!dst) {
    st = ndt__array_view(&user, res);
    if (st) {
      ndt_free(res);
      return st;
    }
    user->owner = 1;   /* NumPy's OWNDATA: the program's handle owns the new array */
    res->owner = 0;
  }
  /* the group's own array is no handle: once the program drops `user` (or
   * its array written in place), the store counts as doomed while tasks
   * still hold it */
  res->internal = 1;
  atomic_fetch_sub(&res->store->handles, 1);
  fop *f = &cur->ops[cur->nops];
  f->loop = proto->loop;
  f->ufunc = proto->ufunc;
  f->name = proto->name;
  f->nin = nin;
  f->loop_out = proto->loop_out;
  f->out_dt = res->dtype;
  f->out = res;
  f->fprec = ndt__fp_defer();   /* the op's record, with the error state of now */
  for (int i = 0; i < nin; i++) {
    f->loop_in[i] = proto->loop_in[i];
    int dummy = 0, sr = source_of(cur, &bv[i], &dummy);
    if (sr == MAXE + 1) {
      sr = cur->next++;
      cur->ext[sr] = bv[i];
      ndt__store_incref(bv[i].store);
    }
    f->src[i] = sr;
  }
  cur->nops++;
  if (user) *out = user;
  return 1;
}
