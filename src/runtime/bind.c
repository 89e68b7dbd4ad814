/* bind.c - running a task body with its operands bound: each operand made
 * valid in the processor's memory, then handed over as a pointer with byte
 * strides, in place when the view lies in one tile or in tiles adjacent in
 * memory, else gathered into scratch (and scattered back after a write). */
#include <string.h>
#include "rt.h"

const ndt_array ndt__empty_view;

void ndt__range_view(ndt_array *v, ndt_store *s, int64_t lo, int64_t n) {
  /* the fields a 1-d view reads (not the whole struct: this is per task) */
  v->store = s;
  v->dtype = s->dtype;
  v->part = 0;
  v->ndim = 1;
  v->weak = v->internal = v->readonly = v->owner = 0;
  v->offset = lo;
  v->size = n;
  v->shape[0] = n;
  v->strides[0] = 1;
}

/* Copies n elements of isz bytes between a strided run (byte stride ps) and a
 * packed buffer. */
static void copy_run(char *p, int64_t ps, char *buf, int isz, int64_t n, int to_buf) {
  if (ps == isz) {
    to_buf ? memcpy(buf, p, (size_t)n * isz) : memcpy(p, buf, (size_t)n * isz);
    return;
  }
#define STRIDED(T)                                                            \
  do {                                                                        \
    T *b_ = (T *)buf;                                                         \
    if (to_buf) for (int64_t i = 0; i < n; i++) b_[i] = *(T *)(p + i * ps);    \
    else for (int64_t i = 0; i < n; i++) *(T *)(p + i * ps) = b_[i];           \
  } while (0)
  switch (isz) {
    case 1: STRIDED(uint8_t); break;
    case 2: STRIDED(uint16_t); break;
    case 4: STRIDED(uint32_t); break;
    case 8: STRIDED(uint64_t); break;
    case 16: { typedef struct { uint64_t a, b; } u128; STRIDED(u128); } break;
    default:
      for (int64_t i = 0; i < n; i++, buf += isz)
        to_buf ? memcpy(buf, p + i * ps, isz) : memcpy(p + i * ps, buf, isz);
  }
#undef STRIDED
}

/* The same through the memory's copy, for memories the host cannot address
 * (the first failed copy's status: a device that failed). */
static ndt_status copy_run_far(ndt_memory *m, char *p, int64_t ps, char *buf, int isz,
                               int64_t n, int to_buf) {
  ndt_status (*cp)(ndt_memory *, void *, ndt_memory *, const void *, size_t) = m->iface->copy;
  if (ps == isz)
    return to_buf ? cp(m, buf, m, p, (size_t)n * isz) : cp(m, p, m, buf, (size_t)n * isz);
  if (m->iface->copy2d && ps > isz && n > 1) {   /* rows of one element, in one call */
    if (to_buf)
      return m->iface->copy2d(m, buf, (size_t)isz, m, p, (size_t)ps, (size_t)isz, (size_t)n);
    return m->iface->copy2d(m, p, (size_t)ps, m, buf, (size_t)isz, (size_t)isz, (size_t)n);
  }
  ndt_status st = NDT_OK;
  for (int64_t i = 0; i < n && st == NDT_OK; i++, buf += isz)
    st = to_buf ? cp(m, buf, m, p + i * ps, isz) : cp(m, p + i * ps, m, buf, isz);
  return st;
}

/* Elements of a run from flat element f with step st that lie in tile tl. */
static int64_t run_in_tile(const ndt_tile *tl, int64_t f, int64_t st, int64_t n) {
  if (st > 0) {
    int64_t room = (tl->start + tl->len - 1 - f) / st + 1;
    if (room < n) n = room;
  } else if (st < 0) {
    int64_t room = (f - tl->start) / (-st) + 1;
    if (room < n) n = room;
  }
  return n;
}

/* Copies between a view (its tiles' buffers in m) and a C-order buffer in
 * m: each run along the last axis is split where it crosses from one tile
 * to the next. */
static ndt_status view_transfer(const ndt_array *v, ndt_memory *m, char *buf, int to_buf) {
  const ndt_store *s = v->store;
  int isz = ndt_vsize(v), ssz = s->itemsize, nd = 0;
  int host = m->iface->host_visible;
  /* a memory that copies the whole view in one call (the CUDA plugin: one
   * kernel over its tiles), unless it does not take this one */
  if (!host && m->iface->view_copy) {
    ndt_status st = m->iface->view_copy(m, v, buf, to_buf);
    if (st != NDT_ERR_UNSUPPORTED) return st;
  }
  /* the view's axes merged where one steps over the next (a block of rows
   * of a C-order array is one run): a memory the host cannot address pays
   * a call per run, and rows of 3 elements (argwhere's) cost a call each */
  int64_t shp[NDT_MAXDIMS], strs[1][NDT_MAXDIMS], *str = strs[0];
  memcpy(shp, v->shape, sizeof(int64_t) * (size_t)v->ndim);
  memcpy(str, v->strides, sizeof(int64_t) * (size_t)v->ndim);
  nd = ndt__coalesce(v->ndim, shp, 1, strs);
  int64_t n = nd ? shp[nd - 1] : 1, st = nd ? str[nd - 1] : 0;
  int64_t idx[NDT_MAXDIMS] = {0};
  int64_t runs = v->size / (n ? n : 1);
  for (int64_t r = 0; r < runs; r++) {
    int64_t f = v->offset;
    for (int k = 0; k < nd - 1; k++) f += idx[k] * str[k];
    int64_t left = n;
    while (left > 0) {
      const ndt_tile *tl = &s->tiles[ndt_store_tile_of(s, f)];
      int64_t c = run_in_tile(tl, f, st, left);   /* elements of the run inside this tile */
      char *p = ndt_tile_mem(tl, m) + (f - tl->start) * ssz + v->part;
      if (host) copy_run(p, st * ssz, buf, isz, c, to_buf);
      else {
        ndt_status e = copy_run_far(m, p, st * ssz, buf, isz, c, to_buf);
        if (e) return e;
      }
      buf += c * isz;
      f += c * st;
      left -= c;
    }
    for (int k = nd - 2; k >= 0; k--) {
      if (++idx[k] < shp[k]) break;
      idx[k] = 0;
    }
  }
  return NDT_OK;
}

/* 1 when tiles t0..t1 of s hold consecutive elements back to back in m (a
 * store mapped in one piece, see ndt__alloc_data_run). */
static int adjacent_in(const ndt_store *s, int64_t t0, int64_t t1, const ndt_memory *m) {
  for (int64_t t = t0; t < t1; t++) {
    const ndt_tile *a = &s->tiles[t], *b = &s->tiles[t + 1];
    const char *pa = ndt_tile_mem(a, m), *pb = ndt_tile_mem(b, m);
    if (!pa || !pb || b->start != a->start + a->len || pb != pa + a->len * s->itemsize)
      return 0;
  }
  return 1;
}

/* A gather's scratch never takes from the capacity the device plan keeps
 * (proc.c), which the plan may have filled: host memory when m's buffers
 * are host memory (the simulated devices); else m's scratch_alloc (the
 * CUDA plugin: device memory outside its budget), or m itself. */
static void *scratch_alloc(ndt_memory *m, size_t n) {
  if (m->iface->host_visible) return ndt__host_memory.iface->alloc(&ndt__host_memory, n);
  if (m->iface->scratch_alloc) return m->iface->scratch_alloc(m, n);
  return m->iface->alloc(m, n);
}
static void scratch_free(ndt_memory *m, void *p, size_t n) {
  if (m->iface->host_visible) ndt__host_memory.iface->free(&ndt__host_memory, p, n);
  else if (m->iface->scratch_free) m->iface->scratch_free(m, p, n);
  else m->iface->free(m, p, n);
}

/* The tiles a view touches. Its elements are lo + sum i_k * st_k over the
 * axes sorted by |stride| (a negative stride flipped: the same elements),
 * so the smallest axes make runs of span E and the next axis steps s: a
 * tile can lie between two runs only when the gap s - E - 1 is at least
 * the smallest tile of the store. The axes whose gaps cannot hold a tile
 * are merged into the run ("inner"); the others ("outer") are walked, run
 * by run, when they nest (each steps past all the smaller ones span, so
 * the runs come in ascending order) and their runs are few (at most about
 * twice the tiles of the extent); else the extent's tiles are all taken,
 * as they are when no gap can hold a tile (contiguous views, rows that
 * span whole tiles, every block of one or two tiles). */
int ndt__view_tiles(const ndt_array *v, int64_t lo, int64_t hi, ndt__tile_fn fn, void *ctx) {
  const ndt_store *s = v->store;
  if (s->ntiles < 3 || v->size == hi - lo + 1) return 0;
  int64_t t0 = ndt_store_tile_of(s, lo), t1 = ndt_store_tile_of(s, hi);
  if (t1 - t0 < 2) return 0;
  int64_t minlen = s->seg, last = s->period - (s->per - 1) * s->seg;
  if (last > 0 && last < minlen) minlen = last;
  if (minlen < 1) return 0;
  int64_t st[NDT_MAXDIMS], n[NDT_MAXDIMS];
  int na = 0;
  for (int k = 0; k < v->ndim; k++) {
    if (v->shape[k] <= 1 || v->strides[k] == 0) continue;
    int64_t a = v->strides[k] < 0 ? -v->strides[k] : v->strides[k];
    int j = na++;
    for (; j > 0 && st[j - 1] > a; j--) {
      st[j] = st[j - 1];
      n[j] = n[j - 1];
    }
    st[j] = a;
    n[j] = v->shape[k];
  }
  int64_t E = 0;
  int m = 0;
  while (m < na && st[m] - E - 1 < minlen) {
    E += (n[m] - 1) * st[m];
    m++;
  }
  if (m == na) return 0;
  int64_t runs = 1, cap = 2 * (t1 - t0 + 1) + 16, span = E;
  for (int k = m; k < na; k++) {
    if (st[k] <= span) return 0;   /* runs that interleave: the extent */
    span += (n[k] - 1) * st[k];
    if (n[k] > cap / runs) return 0;
    runs *= n[k];
  }
  int64_t idx[NDT_MAXDIMS] = {0}, pt = -1, pl = 0, ph = 0, b = lo;
  for (int64_t r = 0; r < runs; r++) {
    int64_t e = b + E;
    for (int64_t t = ndt_store_tile_of(s, b), tz = ndt_store_tile_of(s, e); t <= tz; t++) {
      const ndt_tile *tl = &s->tiles[t];
      int64_t l = b > tl->start ? b : tl->start, end = tl->start + tl->len - 1;
      int64_t h = e < end ? e : end;
      if (t == pt) {
        ph = h;
        continue;
      }
      if (pt >= 0 && fn(ctx, pt, pl, ph)) return -1;
      pt = t;
      pl = l;
      ph = h;
    }
    for (int k = m; k < na; k++) {   /* the next run: the smallest outer axis first */
      b += st[k];
      if (++idx[k] < n[k]) break;
      b -= n[k] * st[k];
      idx[k] = 0;
    }
  }
  if (pt >= 0 && fn(ctx, pt, pl, ph)) return -1;
  return 1;
}

/* The tiles of a view that leaves whole tiles out (ndt__view_tiles), for
 * bind_view: each acquired (acquire), and whether their buffers in m lie
 * as one piece of memory would hold them (in place). Only these tiles are
 * looked at: the others are not the task's, other tasks may be moving
 * them. */
typedef struct {
  const ndt_store *s;
  ndt_memory *m;
  int acquire, w, adj, first;
  char *base;
  int64_t start0;
  ndt_status st;
} bind_ctx;

static int bind_tile(void *cp, int64_t t, int64_t lo, int64_t hi) {
  NDT_UNUSED(lo);
  NDT_UNUSED(hi);
  bind_ctx *c = cp;
  ndt_tile *tl = &c->s->tiles[t];
  char *p;
  if (c->acquire) {
    c->st = ndt__tile_acquire(tl, c->m, c->w, &p);
    if (c->st) return 1;
  } else {
    p = ndt_tile_mem(tl, c->m);
  }
  if (c->first) {
    c->first = 0;
    c->base = p;
    c->start0 = tl->start;
    if (!p) c->adj = 0;
  } else if (!p || !c->base || p != c->base + (tl->start - c->start0) * c->s->itemsize) {
    c->adj = 0;
  }
  return 0;
}

/* Binds v for memory m. acquire: first make its tiles valid there (a
 * write: only there); pieces of a walked operand skip it. */
static ndt_status bind_view(const ndt_array *v, unsigned priv, ndt_memory *m, int acquire,
                            const int64_t *span, ndt_bound *b) {
  b->scratch = NULL;
  b->priv = priv;
  b->view = v;
  b->shape = v->shape;
  b->ndim = v->ndim;
  b->mem = m;
  int ssz = v->store ? v->store->itemsize : 0;
  if (v->size == 0 || (priv & NDT_OPND_KEEP)) {
    b->ptr = NULL;
    for (int k = 0; k < v->ndim; k++) b->st[k] = 0;
    return NDT_OK;
  }
  ndt_store *s = v->store;
  int64_t t0, t1;
  if (span) {   /* as recording found them */
    t0 = span[0];
    t1 = span[1];
  } else {
    int64_t lo, hi;
    ndt__view_extent(v, &lo, &hi);
    t0 = ndt_store_tile_of(s, lo);
    t1 = ndt_store_tile_of(s, hi);
  }
  char *base = NULL;
  for (int k = 0; k < v->ndim; k++) b->st[k] = v->strides[k] * ssz;
  if (t0 == t1) {
    /* the usual case: one tile, valid here already (one bit test) */
    ndt_tile *tl = &s->tiles[t0];
    unsigned bit = 1u << m->id, vb = atomic_load_explicit(&tl->valid, memory_order_acquire);
    if (!acquire || vb == bit || (!(priv & NDT_WRITE) && (vb & bit))) base = ndt_tile_mem(tl, m);
    else {
      ndt_status st = ndt__tile_acquire(tl, m, (priv & NDT_WRITE) != 0, &base);
      if (st) return st;
    }
    b->ptr = base + (v->offset - tl->start) * ssz + v->part;
    return NDT_OK;
  }
  /* a view that leaves whole tiles out: the tiles it touches alone (a
   * walked operand's body may reach any of its extent, unless
   * NDT_OPND_VIEW) */
  int gaps = 0, adj;
  bind_ctx c = {s, m, acquire, (priv & NDT_WRITE) != 0, 1, 1, NULL, 0, NDT_OK};
  if (t1 - t0 >= 2 && !ndt__opnd_extent(priv)) {
    int64_t lo, hi;
    ndt__view_extent(v, &lo, &hi);
    gaps = ndt__view_tiles(v, lo, hi, bind_tile, &c);
    if (gaps < 0) return c.st;
  }
  if (gaps) {
    base = c.base;
    adj = c.adj;
  } else {
    if (acquire) {
      int w = (priv & NDT_WRITE) != 0;
      for (int64_t t = t0; t <= t1; t++) {
        char *p;
        ndt_status st = ndt__tile_acquire(&s->tiles[t], m, w, &p);
        if (st) return st;
        if (t == t0) base = p;
      }
    } else {
      base = ndt_tile_mem(&s->tiles[t0], m);
    }
    adj = adjacent_in(s, t0, t1, m);
  }
  if (adj) {   /* in place */
    b->ptr = base + (v->offset - s->tiles[t0].start) * ssz + v->part;
    return NDT_OK;
  }
  if (priv & NDT_OPND_WALK) {   /* the body walks it (ndt__elem_run) */
    b->ptr = NULL;
    return NDT_OK;
  }
  int isz = ndt_vsize(v);
  b->scratch = scratch_alloc(m, (size_t)v->size * isz);
  if (!b->scratch) return NDT_ERR_NOMEM;
  b->ptr = b->scratch;
  int64_t st = isz;
  for (int k = v->ndim - 1; k >= 0; k--) {
    b->st[k] = v->shape[k] == 1 ? 0 : st;
    st *= v->shape[k];
  }
  if (priv & NDT_READ) {
    ndt_status e = view_transfer(v, m, b->scratch, 1);
    if (e) {
      scratch_free(m, b->scratch, (size_t)v->size * isz);
      b->scratch = NULL;
      return e;
    }
    ndt__gathered += v->size * isz;
  }
  return NDT_OK;
}

_Thread_local int64_t ndt__gathered;

/* Scatters a gathered write back (when store) and frees the scratch; the
 * scatter's status (a device that failed). */
static ndt_status unbind(ndt_bound *b, int store) {
  if (!b->scratch) return NDT_OK;
  ndt_status st = NDT_OK;
  if (store && (b->priv & NDT_WRITE)) {
    st = view_transfer(b->view, b->mem, b->scratch, 0);
    ndt__gathered += b->view->size * ndt_vsize(b->view);
  }
  scratch_free(b->mem, b->scratch, (size_t)b->view->size * ndt_vsize(b->view));
  b->scratch = NULL;
  return st;
}
/* every operand unbound (scattered back when the body succeeded): st, or
 * the first scatter's failure */
static ndt_status unbind_all(ndt_bound *b, int nb, ndt_status st) {
  for (int i = 0; i < nb; i++) {
    ndt_status u = unbind(&b[i], st == NDT_OK);
    if (st == NDT_OK) st = u;
  }
  return st;
}

#define NB_LOCAL NDT_SPAN_OPS   /* gather: an index per axis; fused groups */

static ndt_status exec_on(const ndt_task_kind *k, ndt_processor *p, const ndt_operand *op,
                          int nop, void *arg, const int64_t *span, int *ran) {
  ndt_bound local[NB_LOCAL], *b = local;
  *ran = 0;
  if (nop > NB_LOCAL && !(b = ndt__malloc((size_t)nop * sizeof *b))) return NDT_ERR_NOMEM;
  ndt_status st = NDT_OK;
  int nb = 0;
  while (nb < nop && st == NDT_OK) {
    st = bind_view(op[nb].view, op[nb].priv, p->mem, 1, span ? span + 2 * nb : NULL, &b[nb]);
    nb++;
  }
  if (st == NDT_OK) {
    *ran = 1;
    st = k->body[p->kind](b, arg);
  }
  st = unbind_all(b, nb, st);
  if (b != local) ndt__mfree(b);
  return st;
}

/* With devices: all of the task's tiles acquired at once and pinned
 * (proc.c), then bound in place or gathered, the body run, the pins
 * released. The CPU alone never comes here. */
_Thread_local const ndt_processor *ndt__ran_on;
_Thread_local const char *ndt__ran_kind;

/* The ranges of a view that leaves whole tiles out: one per run of
 * consecutive tiles it touches (the tiles its access list names, so no
 * tile another task may be moving is pinned). */
typedef struct {
  ndt_range **r, *local;
  int *nr, *cap, first;
  ndt_store *s;
  int w;
} range_ctx;

/* room for one more range: 0, or -1 (no memory) */
static int range_room(range_ctx *c) {
  if (*c->nr == *c->cap) {
    int nc = *c->cap * 2;
    ndt_range *n = ndt__malloc((size_t)nc * sizeof *n);
    if (!n) return -1;
    memcpy(n, *c->r, (size_t)*c->nr * sizeof *n);
    if (*c->r != c->local) ndt__mfree(*c->r);
    *c->r = n;
    *c->cap = nc;
  }
  return 0;
}

static int add_range(void *cp, int64_t t, int64_t lo, int64_t hi) {
  NDT_UNUSED(lo);
  NDT_UNUSED(hi);
  range_ctx *c = cp;
  ndt_range *q = *c->nr > c->first ? &(*c->r)[*c->nr - 1] : NULL;
  if (q && q->t1 == t - 1) {
    q->t1 = t;
    return 0;
  }
  if (range_room(c)) return -1;
  (*c->r)[(*c->nr)++] = (ndt_range){c->s, t, t, 1, 0, c->w};
  return 0;
}

static ndt_status exec_tracked(const ndt_task_kind *k, ndt_processor *p, const ndt_operand *op,
                               int nop, void *arg, const int64_t *span, int *ran) {
  ndt_bound local[NB_LOCAL], *b = local;
  ndt_range rloc[NB_LOCAL], *r = rloc;
  int rcap = nop > NB_LOCAL ? nop : NB_LOCAL;
  *ran = 0;
  ndt__ran_on = p;
  /* (a group: its members' kind) */
  ndt__ran_kind = k == &ndt__group_kind ? ((const ndt_group_arg *)arg)->kind->name : k->name;
  ndt_body_fn fn = ndt__proc_body(p, k);
  if (!fn) return ndt__error(NDT_ERR_INTERNAL, "%s has no body for %s", p->iface->name, k->name);
  if (nop > NB_LOCAL) {
    b = ndt__malloc((size_t)nop * sizeof *b);
    r = ndt__malloc((size_t)nop * sizeof *r);
    if (!b || !r) {
      if (b) ndt__mfree(b);
      if (r) ndt__mfree(r);
      return NDT_ERR_NOMEM;
    }
  }
  int nr = 0;
  /* a grouped task's operands are its members', member after member: the
   * rule below looks at one member's operands (the plan's rule, per task) */
  const ndt_group_arg *g = k == &ndt__group_kind ? arg : NULL;
  int seg = 0, seg_lo = 0, seg_hi = g ? g->nop[0] : nop;
  for (int i = 0; i < nop; i++) {
    while (g && i >= seg_hi && seg + 1 < g->n) {
      seg_lo = seg_hi;
      seg_hi += g->nop[++seg];
    }
    const ndt_array *v = op[i].view;
    if (v->size == 0 || (op[i].priv & NDT_OPND_KEEP)) continue;
    if (!ndt__opnd_extent(op[i].priv) && v->store->ntiles > 2) {
      /* a view that leaves whole tiles out: the runs of those it touches */
      int64_t lo, hi;
      ndt__view_extent(v, &lo, &hi);
      range_ctx c = {&r, rloc, &nr, &rcap, nr, v->store, (op[i].priv & NDT_WRITE) != 0};
      int g = ndt__view_tiles(v, lo, hi, add_range, &c);
      if (g < 0) {
        if (b != local) ndt__mfree(b);
        if (r != rloc) ndt__mfree(r);
        return NDT_ERR_NOMEM;
      }
      if (g) continue;
    }
    range_ctx c = {&r, rloc, &nr, &rcap, nr, v->store, 0};
    if (range_room(&c)) {   /* (only a view that left tiles out took more than one) */
      if (b != local) ndt__mfree(b);
      if (r != rloc) ndt__mfree(r);
      return NDT_ERR_NOMEM;
    }
    ndt_range *x = &r[nr++];
    x->s = v->store;
    x->w = (op[i].priv & NDT_WRITE) != 0;
    x->dlo = 1;
    x->dhi = 0;
    if (span) {
      x->t0 = span[2 * i];
      x->t1 = span[2 * i + 1];
    } else {
      int64_t lo, hi;
      ndt__view_extent(v, &lo, &hi);
      x->t0 = ndt_store_tile_of(v->store, lo);
      x->t1 = ndt_store_tile_of(v->store, hi);
    }
    /* a plain write of every element of its extent, of a store the task
     * does not read: the tiles inside it are not copied in first (the
     * plan's rule, proc.c: task.c's NDT_DENSE) */
    if ((op[i].priv & NDT_PRIV_MASK) == NDT_WRITE && ndt_vsize(v) == v->store->itemsize) {
      int64_t lo, hi;
      ndt__view_extent(v, &lo, &hi);
      int rd = 0;
      for (int j = seg_lo; j < seg_hi && !rd; j++)
        rd = (op[j].priv & NDT_READ) && !(op[j].priv & NDT_OPND_KEEP) && op[j].view->size &&
             op[j].view->store == v->store;
      if (!rd && v->size == hi - lo + 1) {
        x->dlo = lo;
        x->dhi = hi;
      }
    }
  }
  ndt_status st = ndt__acquire_ranges(p->mem, nr, r);
  int nb = 0;
  if (st == NDT_OK) {
    while (nb < nop && st == NDT_OK) {
      st = bind_view(op[nb].view, op[nb].priv, p->mem, 0, span ? span + 2 * nb : NULL, &b[nb]);
      nb++;
    }
    if (st == NDT_OK) {
      *ran = 1;
      st = fn(b, arg);
    }
    st = unbind_all(b, nb, st);
    ndt__release_ranges(p->mem, nr, r);
  }
  if (b != local) ndt__mfree(b);
  if (r != rloc) ndt__mfree(r);
  return st;
}

/* 1 when an operand is read and written (RW, REDUCE): a body that failed
 * may have left it half updated, so it is not run a second time. */
static int updates_in_place(const ndt_operand *op, int nop) {
  for (int i = 0; i < nop; i++) {
    unsigned pr = op[i].priv & NDT_PRIV_MASK;
    if ((pr & NDT_READ) && (pr & NDT_WRITE)) return 1;
  }
  return 0;
}

static atomic_llong fallbacks;

int64_t ndt_processor_fallbacks(void) { return atomic_load(&fallbacks) + ndt__plan_fallbacks(); }

/* Runs the task on p; when p's memory is full (NDT_ERR_NOMEM from binding,
 * or from a body that updates nothing in place) it runs on the host CPU
 * instead, its operands made valid in host memory: a full device slows a
 * program down, it does not stop it. */
ndt_status ndt__exec_body(const ndt_task_kind *k, ndt_processor *p, const ndt_operand *op,
                         int nop, void *arg, const int64_t *span) {
  int ran;
  if (!ndt__dev_track) return exec_on(k, p, op, nop, arg, span, &ran);   /* the CPU alone */
  ndt_status st = exec_tracked(k, p, op, nop, arg, span, &ran);
  if (st != NDT_ERR_NOMEM) return st;
  ndt_processor *cpu = ndt__proc_get(0);
  if (cpu && p != cpu && p->mem != cpu->mem && k->body[cpu->kind] &&
      (!ran || !updates_in_place(op, nop))) {
    atomic_fetch_add(&fallbacks, 1);
    ndt__dev_count(NDT__DEV_FALLBACKS, 1);
    ndt__dev_log("fallback %s %s->cpu", k->name, p->iface->name);
    st = exec_tracked(k, cpu, op, nop, arg, span, &ran);
  }
  return st;
}

ndt_status ndt__piece_bind(const ndt_bound *b, const ndt_array *piece, ndt_bound *out, int load) {
  unsigned priv = (load ? NDT_READ : 0) | (b->priv & NDT_WRITE);
  return bind_view(piece, priv ? priv : NDT_READ, b->mem, 0, NULL, out);
}

void ndt__piece_release(ndt_bound *piece, int store) { (void)unbind(piece, store); }

static char *elem_in(const ndt_store *s, const ndt_memory *m, int part, int64_t f,
                     int64_t step, int64_t *n) {
  const ndt_tile *tl = &s->tiles[ndt_store_tile_of(s, f)];
  char *base = ndt_tile_mem(tl, m);
  if (!base) return NULL;
  if (n) *n = run_in_tile(tl, f, step, *n);
  return base + (f - tl->start) * s->itemsize + part;
}

char *ndt__elem_run(const ndt_bound *b, int64_t f, int64_t step, int64_t *n) {
  return elem_in(b->view->store, b->mem, b->view->part, f, step, n);
}

/* Element f of a walked operand, and the store offsets [lo, hi) of the tile
 * that holds it (one buffer: the kernel reaches them from this pointer). */
static char *walk_at(const void *ctx, int64_t f, int64_t *lo, int64_t *hi) {
  const ndt_bound *b = ctx;
  const ndt_store *s = b->view->store;
  const ndt_tile *tl = &s->tiles[ndt_store_tile_of(s, f)];
  *lo = tl->start;
  *hi = tl->start + tl->len;
  char *base = ndt_tile_mem(tl, b->mem);
  return base ? base + (f - tl->start) * s->itemsize + b->view->part : NULL;
}

void ndt__bound_walk(const ndt_bound *b, ndt_kwalk *w) {
  const ndt_array *v = b->view;
  /* a walked operand is never gathered: ptr is its element 0 in place, or
   * NULL when it lies in more than one piece */
  w->base = b->scratch ? NULL : b->ptr;
  w->first = v->offset;
  w->es = v->store ? v->store->itemsize : 0;
  w->at = walk_at;
  w->ctx = b;
}

char *ndt__host_elem(const ndt_array *v, int64_t f, int64_t step, int64_t *n) {
  return elem_in(v->store, &ndt__host_memory, v->part, f, step, n);
}

int ndt__region_in_place(const ndt_bound *b, int64_t lo, int64_t hi) {
  const ndt_store *s = b->view->store;
  int64_t t0 = ndt_store_tile_of(s, lo), t1 = ndt_store_tile_of(s, hi);
  return t0 == t1 || adjacent_in(s, t0, t1, b->mem);
}
