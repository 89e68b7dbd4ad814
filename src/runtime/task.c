/* task.c - recording a task: the accesses and stores come from the
 * operands, the processor from the task kind's bodies; then the task goes
 * to this rank's graph (sched.c) or, on many ranks, through the
 * owner-computes protocol (dist.c). */
#include <string.h>
#include <time.h>
#include "rt.h"

/* Grows a buffer that starts as the caller's stack array `local`. */
static int grow(void **p, int *cap, size_t sz, int need, void *local) {
  if (need <= *cap) return 0;
  int c = *cap * 2 > need ? *cap * 2 : need;
  void *q = *p == local ? ndt__malloc((size_t)c * sz) : ndt__realloc(*p, (size_t)c * sz);
  if (!q) return -1;
  if (*p == local) memcpy(q, local, (size_t)*cap * sz);
  *p = q;
  *cap = c;
  return 0;
}

typedef struct {
  ndt_access **acc, *local;
  int *nacc, *cap;
  const ndt_store *s;
  ndt_priv p;
} acc_ctx;

static int add_access(void *cp, int64_t t, int64_t lo, int64_t hi) {
  acc_ctx *c = cp;
  if (*c->nacc == *c->cap && grow((void **)c->acc, c->cap, sizeof **c->acc, *c->nacc + 1, c->local))
    return -1;
  ndt_access *a = &(*c->acc)[(*c->nacc)++];
  a->tile = &c->s->tiles[t];
  a->priv = c->p;
  a->lo = lo;
  a->hi = hi;
  return 0;
}

ndt_status ndt__record(const ndt_task_kind *kind, const char *name, const ndt_operand *op,
                      int nop, void *arg, size_t arg_size, unsigned flags) {
  ndt_status st = ndt__runtime_ensure();
  if (st) return st;
  if (!name) name = kind->name;
  /* NDTILE_CHECK: before anything is recorded (on an error arg is still
   * the caller's) */
  if (ndt__set_.check && nop > 1 && (st = ndt__check_task(name, op, nop))) return st;
  ndt_access acc_local[16], *acc = acc_local;
  int nacc = 0, cap = 16;
  int64_t span_local[2 * NDT_SPAN_OPS], *span = nop <= NDT_SPAN_OPS ? span_local : NULL;
  for (int i = 0; i < nop; i++) {
    const ndt_array *v = op[i].view;
    if ((op[i].priv & NDT_OPND_KEEP) || v->size == 0) continue;
    /* the tiles the view touches, each with the part of the extent in it */
    const ndt_store *s = v->store;
    int64_t lo, hi;
    ndt__view_extent(v, &lo, &hi);
    int64_t t0 = ndt_store_tile_of(s, lo), t1 = ndt_store_tile_of(s, hi);
    if (span) {
      span[2 * i] = t0;
      span[2 * i + 1] = t1;
    }
    ndt_priv p = (ndt_priv)(op[i].priv & NDT_PRIV_MASK);
    /* a view whose elements leave whole tiles out names only those it
     * touches (a walked operand: its extent, the body may reach any; but
     * one of NDT_OPND_VIEW reaches only its view's) */
    if (t1 - t0 >= 2 && !ndt__opnd_extent(op[i].priv)) {
      acc_ctx c = {&acc, acc_local, &nacc, &cap, s, p};
      int g = ndt__view_tiles(v, lo, hi, add_access, &c);
      if (g < 0) {
        st = NDT_ERR_NOMEM;
        break;
      }
      if (g) continue;
    }
    if (nacc + (t1 - t0 + 1) > cap &&
        grow((void **)&acc, &cap, sizeof *acc, nacc + (int)(t1 - t0 + 1), acc_local)) {
      st = NDT_ERR_NOMEM;
      break;
    }
    /* a write with as many elements as its extent covers all of it (of
     * whole elements: not a .real or .imag view of complex ones) */
    if (p == NDT_WRITE && v->size == hi - lo + 1 && ndt_vsize(v) == s->itemsize)
      p = NDT_WRITE | NDT_DENSE;
    for (int64_t t = t0; t <= t1; t++) {
      ndt_tile *tl = &s->tiles[t];
      ndt_access *a = &acc[nacc++];
      a->tile = tl;
      a->priv = p;
      a->lo = lo > tl->start ? lo : tl->start;
      a->hi = hi < tl->start + tl->len - 1 ? hi : tl->start + tl->len - 1;
    }
  }
  if (st == NDT_OK) st = ndt__rt_flush(0, NULL, acc, nacc);
  if (st == NDT_OK && ndt__dev_track && !ndt_distributed())
    st = ndt__rt_group_before(kind, name, acc, nacc);
  ndt_processor *proc = ndt__proc_solo;   /* the CPU alone: nothing to choose */
  if (!proc || !kind->body[proc->kind]) proc = NULL;
  if (st == NDT_OK && !proc && !(proc = ndt__proc_choose(kind, op, nop, arg)))
    st = ndt__error(NDT_ERR_INTERNAL, "no processor runs %s", name);
  /* with devices: the copies and evictions it needs, decided now, in
   * program order (proc.c) */
  ndt_task *fence = NULL;
  /* (on many ranks the task's home rank plans it, once the regions it
   * needs have arrived: dist.c) */
  if (st == NDT_OK && ndt__dev_track && !ndt_distributed())
    st = ndt__plan_task(&proc, kind, op, nop, acc, nacc, &fence);
  if (st == NDT_OK) {
    /* no stores: a deferred task takes its operands' (sched.c) */
    ndt_taskrec r = {.name = name, .kind = kind, .proc = proc, .op = op, .nop = nop,
                     .arg = arg, .arg_size = arg_size, .acc = acc, .nacc = nacc,
                     .flags = flags, .span = span, .after = &fence, .nafter = fence != NULL};
    st = ndt_distributed() ? ndt__dist_submit(&r) : ndt__rt_local_submit(&r);
  }
  /* the call that wrote each store last (in program order: alike on every
   * rank): fusion and device groups of earlier calls do not read it */
  if (!(flags & NDT__TASK_MOVE))
    for (int i = 0; i < nacc; i++)
      if (acc[i].priv & NDT_WRITE) acc[i].tile->store->wcall = ndt__rt_call_no();
  if (acc != acc_local) ndt__mfree(acc);
  return st;
}

/* ---- test hook: work that lasts until the test says ------------------- */
static atomic_llong holds_made, holds_released;

static ndt_status hold_body(ndt_bound *op, void *arg) {
  NDT_UNUSED(op);
  long long k;
  memcpy(&k, arg, sizeof k);
  struct timespec ms = {0, 1000000L};
  while (atomic_load(&holds_released) <= k) nanosleep(&ms, NULL);
  return NDT_OK;
}
static const ndt_task_kind hold_kind = {"debug_hold", {hold_body}, NULL};

ndt_status ndt_debug_hold(ndt_array *a) {
  long long k = atomic_fetch_add(&holds_made, 1);
  ndt_operand op = {a, NDT_RW};
  return ndt__record(&hold_kind, NULL, &op, 1, &k, sizeof k, 0);
}

void ndt_debug_release(void) { atomic_store(&holds_released, atomic_load(&holds_made)); }
