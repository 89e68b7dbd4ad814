/* proc.c - the processor and memory tables, and the record of which
 * memories hold a valid copy of each tile (ndt_tile.valid).
 *
 * With the CPU alone every tile is valid in host memory and every check
 * below is one bit test. A backend (device.c: the simulated devices, the
 * CUDA plugin) registers its memories and processors at start-up; tasks
 * whose kind has a body for it and that its `supports` accepts then run on
 * it, their operands copied into its memory when they are not valid there,
 * and a write leaves its memory the only valid one.
 *
 * With a device registered (ndt__dev_track) every binding goes through
 * ndt__acquire_ranges, under one lock: it pins the tiles a task binds (a
 * pinned copy is neither evicted nor poisoned) and counts its writers. The
 * record is per tile, while two tasks may use disjoint regions of one tile
 * at once; so a copy is never taken from a memory whose copy a running task
 * is writing (it would miss that write, or that task's write would be lost
 * under the copy's valid bit): the binding waits for that writer, holding
 * nothing (it acquires all of a task's tiles at once or none), so waits
 * cannot form a cycle. Invariant: writers in memory x > 0 => valid == {x}.
 * Which copies and evictions a task needs is decided when it is recorded,
 * by the plan at the end of this file (device_plan.c records them as
 * tasks); the binding then finds its tiles valid. What the plan could not
 * foresee the binding still does: a device memory that is full evicts the
 * least recently bound unpinned copies first, writing a copy that is the
 * only valid one back to the host; only when nothing can be evicted does
 * the task fall back to the CPU (bind.c). */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "rt.h"

static ndt_memory *mems[NDT_MAX_MEMS] = {&ndt__host_memory};
static int nmems = 1;
static ndt_processor *procs[NDT_MAX_PROCS];
static int nprocs;
static pthread_mutex_t valid_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t valid_cond = PTHREAD_COND_INITIALIZER;
int ndt__dev_track;
static void plan_drop(ndt_store *s);

struct ndt__plan_node;
/* A tile's device state (valid_lock). */
struct ndt_tile_dev {
  int pins[NDT_MAX_MEMS];
  int writers[NDT_MAX_MEMS];
  ndt_tile *prev[NDT_MAX_MEMS], *next[NDT_MAX_MEMS];   /* lru[m], most recent first */
  struct ndt__plan_node *plan;   /* the recording thread's model of it (below) */
};
static struct { ndt_tile *head, *tail; } lru[NDT_MAX_MEMS];

int ndt__mem_register(ndt_memory *m) {
  for (int i = 0; i < nmems; i++)
    if (mems[i] == m) return 0;
  if (nmems == NDT_MAX_MEMS || !m->iface || m->iface->version < 1) return -1;
  m->id = nmems;
  mems[nmems++] = m;
  return 0;
}

ndt_processor *ndt__proc_solo;
static ndt_processor *only;   /* ndt__proc_select */

static void set_solo(void) {
  ndt_processor *p = only ? only : nprocs == 1 ? procs[0] : NULL;
  ndt__proc_solo = p && !p->iface->supports && !p->iface->body ? p : NULL;
}

int ndt__proc_register(ndt_processor *p) {
  for (int i = 0; i < nprocs; i++)
    if (procs[i] == p) return 0;
  if (nprocs == NDT_MAX_PROCS || !p->iface || p->iface->version < 1 || !p->iface->launch ||
      p->kind < 0 || p->kind >= NDT_PROC_KINDS || ndt__mem_register(p->mem))
    return -1;
  procs[nprocs++] = p;
  if (nprocs > 1) {
    ndt__dev_track = 1;
    ndt__store_devices_on(plan_drop);
  }
  set_solo();
  return 0;
}

ndt_memory *ndt__mem_by_id(int id) { return id >= 0 && id < nmems ? mems[id] : NULL; }
int ndt__mem_count(void) { return nmems; }

int ndt__proc_count(void) { return nprocs; }
ndt_processor *ndt__proc_get(int i) { return i >= 0 && i < nprocs ? procs[i] : NULL; }

int ndt__proc_select(const char *name) {
  only = NULL;
  for (int i = 0; name && i < nprocs && !only; i++)
    if (!strcmp(procs[i]->iface->name, name)) only = procs[i];
  set_solo();
  return name && !only ? -1 : 0;
}

/* ---- grouped device tasks (sched.c records them) ---- */
/* Runs the members of a group on the processor they were placed on (its
 * iface->group: one launch), or, when the group fell back to the CPU
 * (its operands are bound in host memory), each member's CPU body. */
static ndt_status group_body(ndt_bound *b, void *argp) {
  const ndt_group_arg *g = argp;
  void *args[NDT_GROUP_MAX];
  for (int i = 0; i < g->n; i++) args[i] = (char *)argp + g->arg_off[i];
  ndt_processor *p = g->proc;
  if (g->n && b[0].mem != p->mem) p = ndt__proc_get(0);
  if (p->iface->group) return p->iface->group(p, g->kind, b, g->n, g->nop, args);
  ndt_body_fn fn = p->iface->body ? p->iface->body(p, g->kind) : g->kind->body[p->kind];
  ndt_status st = fn ? NDT_OK : NDT_ERR_INTERNAL;
  for (int i = 0, at = 0; i < g->n && st == NDT_OK; at += g->nop[i++]) st = fn(b + at, args[i]);
  return st;
}
/* The members' releases (a fused group's reference each), once, as for
 * tasks recorded alone: after the group ran or was cancelled. */
static void group_release(void *argp) {
  const ndt_group_arg *g = argp;
  if (g->kind->release)
    for (int i = 0; i < g->n; i++) g->kind->release((char *)argp + g->arg_off[i]);
}
const ndt_task_kind ndt__group_kind = {"group", {group_body, group_body}, group_release};

ndt_body_fn ndt__proc_body(ndt_processor *p, const ndt_task_kind *k) {
  if (k == &ndt__group_kind) return group_body;   /* every processor's: it runs the members */
  return p->iface->body ? p->iface->body(p, k) : k->body[p->kind];
}

static int accepts(ndt_processor *p, const ndt_task_kind *k, const ndt_operand *op, int nop,
                   const void *arg) {
  if (!ndt__proc_body(p, k)) return 0;
  return !p->iface->supports || p->iface->supports(p, k, op, nop, arg);
}

/* The devices, in the order device.c added them, and their kinds. */
static ndt_processor *devs[NDT__MAX_DEVS];
static const char *dev_kind[NDT__MAX_DEVS];
static int ndev;

void ndt__dev_add(ndt_processor *p, const char *kind) {
  if (ndev < NDT__MAX_DEVS) {
    devs[ndev] = p;
    dev_kind[ndev++] = kind;
  }
}
int ndt__dev_n(void) { return ndev; }
ndt_processor *ndt__dev_get(int i, const char **kind) {
  if (i < 0 || i >= ndev) return NULL;
  *kind = dev_kind[i];
  return devs[i];
}

/* ---- placement ---- */
/* The owner rule: the tiles of the store a task writes (its first written
 * operand, else its first) are dealt out to the devices in blocks, tile
 * t of T to device t * n / T; a task goes to the owner of the first tile
 * it touches there. Decided when the task is recorded, in program order,
 * from shapes alone: the same placements on every run. */
static int owner_of(const ndt_operand *op, int nop, int n) {
  const ndt_array *v = NULL;
  for (int i = 0; i < nop && !v; i++)
    if ((op[i].priv & NDT_WRITE) && op[i].view->size && op[i].view->store) v = op[i].view;
  for (int i = 0; i < nop && !v; i++)
    if (op[i].view->size && op[i].view->store && !(op[i].priv & NDT_OPND_KEEP)) v = op[i].view;
  if (!v) return 0;
  int64_t lo, hi;
  ndt__view_extent(v, &lo, &hi);
  const ndt_store *s = v->store;
  return (int)(ndt_store_tile_of(s, lo) * n / (s->ntiles ? s->ntiles : 1));
}

static ndt_processor *dev_place(const ndt_task_kind *k, const ndt_operand *op, int nop,
                                const void *arg) {
  ndt_processor *p = NULL;
  if (ndev > 1) {
    int d = owner_of(op, nop, ndev);
    for (int j = 0; j < ndev && !p; j++) {
      ndt_processor *q = devs[(d + j) % ndev];
      if (accepts(q, k, op, nop, arg)) p = q;
    }
  }
  for (int i = ndt__proc_count() - 1; i >= 0 && !p; i--) {
    ndt_processor *q = ndt__proc_get(i);
    if (accepts(q, k, op, nop, arg)) p = q;
  }
  if (p && ndt__dev_logging) ndt__dev_log_place("place %s %s", k->name, p->iface->name);
  return p;
}

ndt_processor *ndt__proc_choose(const ndt_task_kind *k, const ndt_operand *op, int nop,
                                const void *arg) {
  if (only) return accepts(only, k, op, nop, arg) ? only : NULL;
  if (nprocs == 1 && k->body[procs[0]->kind] && !procs[0]->iface->supports)
    return procs[0];   /* the CPU alone */
  return dev_place(k, op, nop, arg);
}

ndt_status ndt__proc_sync_all(void) {
  ndt_status st = NDT_OK;
  for (int i = 0; i < nprocs; i++)
    if (procs[i]->iface->sync) {
      ndt_status s = procs[i]->iface->sync(procs[i]);
      if (!st) st = s;
    }
  return st;
}

/* ---- the device record (valid_lock held) ---- */
static struct ndt_tile_dev *devrec(ndt_tile *t) {
  if (!t->dev) t->dev = ndt__calloc(1, sizeof *t->dev);
  return t->dev;
}

static void lru_unlink(ndt_tile *t, int m) {
  struct ndt_tile_dev *d = t->dev;
  if (!d || (!d->prev[m] && !d->next[m] && lru[m].head != t)) return;
  if (d->prev[m]) d->prev[m]->dev->next[m] = d->next[m];
  else lru[m].head = d->next[m];
  if (d->next[m]) d->next[m]->dev->prev[m] = d->prev[m];
  else lru[m].tail = d->prev[m];
  d->prev[m] = d->next[m] = NULL;
}

static void lru_touch(ndt_tile *t, int m) {
  struct ndt_tile_dev *d = t->dev;
  if (lru[m].head == t) return;
  lru_unlink(t, m);
  d->next[m] = lru[m].head;
  if (lru[m].head) lru[m].head->dev->prev[m] = t;
  lru[m].head = t;
  if (!lru[m].tail) lru[m].tail = t;
}

static size_t tile_bytes(const ndt_tile *t) { return (size_t)t->len * t->store->itemsize; }

/* Before a copy between t's host buffer and device memory m: the buffer
 * registered with m (page-locked, memory.c), the whole store's when its
 * tiles share one; not memory the store borrows (its owner frees it). */
static void pin_host(ndt_tile *t, ndt_memory *m) {
  ndt_store *s = t->store;
  if (!m->iface->host_register || s->borrowed) return;
  size_t n = s->run ? (size_t)s->size * (size_t)s->itemsize : tile_bytes(t);
  if (ndt__host_pin(m, s->run ? s->run : t->data, n))
    ndt__verbose("%s: a host buffer of %zu bytes could not be registered (page-locked); its "
                 "copies go from pageable memory (counted; said once)", m->iface->name, n);
}

static void copy_freed(ndt_tile *t, int m) {
  ndt_memory *mm = mems[m];
  mm->iface->free(mm, t->mcopy[m], tile_bytes(t));
  t->mcopy[m] = NULL;
  lru_unlink(t, m);
}

/* Evicts the least recently bound copy in device memory m that no running
 * task holds: 1 when one went. */
static int evict_one(int m) {
  for (ndt_tile *t = lru[m].tail; t; t = t->dev->prev[m]) {
    struct ndt_tile_dev *d = t->dev;
    if (d->pins[m] || d->writers[m]) continue;
    unsigned bit = 1u << m, v = atomic_load(&t->valid);
    int back = v == bit;   /* the only valid copy: written back first */
    if (back) {
      char *h = ndt__tile_buffer(t);
      if (h) pin_host(t, mems[m]);
      if (!h || mems[m]->iface->copy(&ndt__host_memory, h, mems[m], t->mcopy[m], tile_bytes(t)))
        continue;
      atomic_store(&t->valid, 1u);
    } else {
      atomic_store(&t->valid, v & ~bit);
    }
    ndt__dev_log("evict %s mem%d %s", ndt__dev_tile_name(t), m, back ? "write-back" : "clean");
    ndt__dev_count(NDT__DEV_EVICTIONS, 1);
    copy_freed(t, m);
    return 1;
  }
  return 0;
}

/* A copy of n bytes in device memory m, evicting while it is full. */
static char *dev_alloc(ndt_memory *mm, size_t n) {
  for (;;) {
    char *p = mm->iface->alloc(mm, n);
    if (p || !evict_one(mm->id)) return p;
  }
}

/* The memory a copy into m is taken from: the host when it is valid there,
 * else the first device that holds it. */
static int source_of(unsigned v) { return v & 1u ? 0 : __builtin_ctz(v); }

static _Thread_local int in_planned;   /* a copy task of the plan runs on this thread */
static int busy_for(const ndt_tile *t, int m);
static void plan_host(ndt_tile *t, int for_write);

static ndt_status acquire_locked(ndt_tile *t, ndt_memory *m, int for_write, int pin,
                                 char **ptr) {
  unsigned bit = 1u << m->id;
  unsigned v = atomic_load(&t->valid);
  size_t n = tile_bytes(t);
  ndt_status st = NDT_OK;
  char *dst = ndt_tile_mem(t, m);
  if (m->id && !devrec(t)) return ndt__error(NDT_ERR_NOMEM, "cannot record a device copy");
  if (!dst) {
    dst = m->id ? dev_alloc(m, n) : ndt__tile_buffer(t);
    if (!dst) st = ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile of %zu bytes in %s memory",
                             n, m->iface->name);
    else if (m->id) t->mcopy[m->id] = dst;
  }
  /* for_write 2: the task overwrites the whole tile and reads none of it:
   * its old contents need not come (a result born on the device) */
  if (st == NDT_OK && !(v & bit) && v && for_write != 2) {
    int from = source_of(v);
    ndt_memory *fm = mems[from];
    char *src = from ? t->mcopy[from] : ndt__tile_buffer(t);
    /* the side that is not the host knows how to move its bytes */
    ndt_memory *mover = m->id ? m : fm;
    if (!src) st = ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile of %zu bytes", n);
    else {
      if (!m->id || !from) pin_host(t, mover);   /* a copy to or from the host */
      st = mover->iface->copy(m, dst, fm, src, n);
    }
    if (st == NDT_OK && ndt__dev_track) {
      /* a planned copy was logged when it was planned */
      if (!in_planned) ndt__dev_log("copy %s mem%d->mem%d %zu", ndt__dev_tile_name(t), from, m->id, n);
      ndt__dev_count(NDT__DEV_COPIES, 1);
      ndt__dev_count(NDT__DEV_COPY_BYTES, (int64_t)n);
    }
  }
  if (st == NDT_OK) {
    if (for_write && v != bit) {
      /* the other copies are stale now: poison those no running task reads */
      for (int x = 1; x < nmems; x++)
        if (x != m->id && t->mcopy[x] && mems[x]->iface->poison && !(t->dev && t->dev->pins[x]))
          mems[x]->iface->poison(mems[x], t->mcopy[x], n);
    }
    atomic_store(&t->valid, for_write ? bit : (v | bit));
    if (pin && t->dev) {
      t->dev->pins[m->id]++;
      t->dev->writers[m->id] += for_write != 0;
    }
    if (m->id) lru_touch(t, m->id);
  }
  *ptr = dst;
  return st;
}

static ndt_status tile_acquire(ndt_tile *t, ndt_memory *m, int for_write, int hold, char **ptr);
ndt_status ndt__tile_acquire(ndt_tile *t, ndt_memory *m, int for_write, char **ptr) {
  return tile_acquire(t, m, for_write, 0, ptr);
}

ndt_status ndt__tile_hold_write(ndt_tile *t, char **ptr) {
  return tile_acquire(t, &ndt__host_memory, 1, 1, ptr);
}

void ndt__tile_release_write(ndt_tile *t) {
  if (!ndt__dev_track || !t->dev) return;
  pthread_mutex_lock(&valid_lock);
  if (--t->dev->writers[0] == 0) pthread_cond_broadcast(&valid_cond);
  pthread_mutex_unlock(&valid_lock);
}

static ndt_status tile_acquire(ndt_tile *t, ndt_memory *m, int for_write, int hold, char **ptr) {
  /* the host reads or writes the tile outside tasks (on the recording
   * thread, in program order): the plan learns it */
  int planned = ndt__dev_track && !m->id;
  if (planned) plan_host(t, for_write);
  unsigned bit = 1u << m->id;
  unsigned v = atomic_load_explicit(&t->valid, memory_order_acquire);
  hold = hold && ndt__dev_track;
  if (!hold && (v == bit || (!for_write && (v & bit)))) {   /* the usual case: nothing to do */
    *ptr = ndt_tile_mem(t, m);
    return NDT_OK;
  }
  pthread_mutex_lock(&valid_lock);
  /* a running task may be writing another region of the tile (the waits
   * before are per region: a message of dist.c): a copy taken now would
   * miss its write, and a write here would lose it; as
   * ndt__acquire_ranges, wait for it (the recording thread holds nothing
   * a running body needs) */
  while (busy_for(t, m->id)) pthread_cond_wait(&valid_cond, &valid_lock);
  in_planned = planned;   /* its copy back was logged by the plan */
  ndt_status st = acquire_locked(t, m, for_write, 0, ptr);
  in_planned = 0;
  /* held: a running writer in host memory (no task copies the tile
   * elsewhere until ndt__tile_release_write) */
  if (st == NDT_OK && hold) {
    if (devrec(t)) t->dev->writers[0]++;
    else st = ndt__error(NDT_ERR_NOMEM, "cannot record a device copy");
  }
  pthread_mutex_unlock(&valid_lock);
  return st;
}

/* 1 when making t valid in memory m would copy from a memory that a
 * running task is writing. */
static int busy_for(const ndt_tile *t, int m) {
  unsigned v = atomic_load(&t->valid);
  if ((v & (1u << m)) || !v || !t->dev) return 0;
  return t->dev->writers[source_of(v)] > 0;
}

static void release_ranges(ndt_memory *m, int n, const ndt_range *r, int upto, int64_t tlast) {
  int woke = 0;
  for (int i = 0; i < n && i <= upto; i++)
    for (int64_t t = r[i].t0; t <= r[i].t1 && (i < upto || t < tlast); t++) {
      struct ndt_tile_dev *d = r[i].s->tiles[t].dev;
      if (!d) continue;
      d->pins[m->id]--;
      if (r[i].w && --d->writers[m->id] == 0) woke = 1;
    }
  if (woke) pthread_cond_broadcast(&valid_cond);
}

ndt_status ndt__acquire_ranges(ndt_memory *m, int n, const ndt_range *r) {
  pthread_mutex_lock(&valid_lock);
  for (;;) {
    int busy = 0;
    for (int i = 0; i < n && !busy; i++)
      for (int64_t t = r[i].t0; t <= r[i].t1 && !busy; t++)
        busy = busy_for(&r[i].s->tiles[t], m->id);
    if (!busy) break;
    pthread_cond_wait(&valid_cond, &valid_lock);
  }
  ndt_status st = NDT_OK;
  for (int i = 0; i < n; i++)
    for (int64_t t = r[i].t0; t <= r[i].t1; t++) {
      ndt_tile *tl = &r[i].s->tiles[t];
      char *p;
      /* the host record exists for host tiles too: its writers count */
      if (!devrec(tl)) st = ndt__error(NDT_ERR_NOMEM, "cannot record a device copy");
      int w = r[i].w && r[i].dlo <= tl->start && tl->start + tl->len - 1 <= r[i].dhi ? 2 : r[i].w;
      if (st == NDT_OK) st = acquire_locked(tl, m, w, 1, &p);
      if (st) {
        release_ranges(m, n, r, i, t);
        pthread_mutex_unlock(&valid_lock);
        return st;
      }
    }
  pthread_mutex_unlock(&valid_lock);
  return NDT_OK;
}

void ndt__release_ranges(ndt_memory *m, int n, const ndt_range *r) {
  pthread_mutex_lock(&valid_lock);
  release_ranges(m, n, r, n, 0);
  pthread_mutex_unlock(&valid_lock);
}

static void plan_tile_gone(ndt_tile *t);

void ndt__tile_drop_copies(ndt_tile *t) {
  if (!t->dev) return;
  pthread_mutex_lock(&valid_lock);
  for (int i = 1; i < nmems; i++)
    if (t->mcopy[i]) copy_freed(t, i);
  plan_tile_gone(t);
  ndt__mfree(t->dev);
  t->dev = NULL;
  pthread_mutex_unlock(&valid_lock);
}


/* ---- the plan ----
 * Which memories will hold a valid copy of each tile, and which hold a
 * buffer of it, as of program order (not of execution): kept by the
 * recording thread (under valid_lock, since workers make t->dev), one node
 * per tile a task of the plan touched. When a task is recorded
 * (ndt__plan_task) every tile it uses that the plan does not see valid in
 * its processor's memory gets a copy task first ("copy h2d", "copy d2h",
 * "copy d2d"); a device memory that the plan sees full gets eviction tasks
 * ("evict") for its least recently planned copies first, the only valid
 * copy written back to the host. These are ordinary tasks: each accesses
 * its whole tile for writing, so the graph orders it after every earlier
 * use of the tile and every later use after it; the evictions of a memory
 * form a chain, and a copy that allocates in that memory waits for the
 * chain's last one (ndt_taskrec.after), so at run time a memory holds at
 * most what the plan holds at some point of program order: the budget.
 * The decisions depend on the recorded program alone, never on timing,
 * so the log (placements, copies, evictions, fallbacks decided here) is
 * the same with any number of workers. A task whose tiles do not fit the
 * device at all is placed on the CPU here (a planned fallback).
 * The task bodies still bind through ndt__acquire_ranges, which then finds
 * the tiles valid (one bit test each): it stays as the safety net for what
 * the plan cannot foresee (an injected or real allocation failure; a
 * gather's scratch is outside the capacity the plan keeps: bind.c), whose
 * copies, evictions and fallbacks the log lists under
 * "-- ran:". A tile that goes while the plan counts its copy (its store
 * freed) keeps its node, marked gone, until the plan evicts it in its
 * turn: the plan only ever counts more than is there. */
typedef struct ndt__plan_node {
  ndt_tile *tile;        /* NULL once the tile is gone (its copies freed) */
  unsigned pv, res;      /* planned valid memories; device memories holding a buffer */
  /* in memory m's dropped list (bit m), else its lru list (while res has m) */
  unsigned indrop;
  int dropped;           /* its store's last array went (plan_drop) */
  struct ndt__plan_node *prev[NDT_MAX_MEMS], *next[NDT_MAX_MEMS];   /* most recent first */
  unsigned counted;      /* plan_moves: its copy to the device (1), to the host (2) */
  int64_t bytes, stamp;  /* stamp: the task being planned uses it */
  int64_t vstamp;        /* plan_moves: taken as a victim in this round */
  ndt_dtype dtype;       /* its name in the log (kept past the tile) */
  int64_t size, index, ntiles;
} ndt__plan_node;
typedef struct { ndt__plan_node *head, *tail; } plan_list;
static struct {
  plan_list lru;         /* the copies in the memory, least recently planned last */
  plan_list drop;        /* those of stores the program dropped, least recently dropped last */
  int64_t used, cap;     /* cap 0: not read yet */
} plan[NDT_MAX_MEMS];
static int64_t plan_stamp, victim_round;

static const char *plan_name(const ndt__plan_node *n) {
  static char buf[64];   /* the recording thread's */
  snprintf(buf, sizeof buf, "%s[%lld]@%lld/%lld", ndt_dtype_name(n->dtype), (long long)n->size,
           (long long)n->index, (long long)n->ntiles);
  return buf;
}

static plan_list *list_of(const ndt__plan_node *n, int m) {
  return n->indrop & (1u << m) ? &plan[m].drop : &plan[m].lru;
}

static void plan_unlink(ndt__plan_node *n, int m) {
  plan_list *l = list_of(n, m);
  n->indrop &= ~(1u << m);
  if (!n->prev[m] && !n->next[m] && l->head != n) return;
  if (n->prev[m]) n->prev[m]->next[m] = n->next[m];
  else l->head = n->next[m];
  if (n->next[m]) n->next[m]->prev[m] = n->prev[m];
  else l->tail = n->prev[m];
  n->prev[m] = n->next[m] = NULL;
}

/* n goes first in memory m's dropped list (drop) or its lru list. */
static void plan_push(ndt__plan_node *n, int m, int drop) {
  plan_list *l = drop ? &plan[m].drop : &plan[m].lru;
  if (l->head == n) return;
  plan_unlink(n, m);
  n->next[m] = l->head;
  if (l->head) l->head->prev[m] = n;
  l->head = n;
  if (!l->tail) l->tail = n;
  if (drop) n->indrop |= 1u << m;
}

/* A task uses n in memory m: the most recently planned copy there (a
 * dropped store's stays in the dropped list while it has no array: held
 * back work reads it, fusion.c; one that has an array again is no longer
 * dropped). */
static void plan_touch(ndt__plan_node *n, int m) {
  if (n->dropped && n->tile && atomic_load(&n->tile->store->handles) > 0) n->dropped = 0;
  plan_push(n, m, n->dropped);
}

static ndt__plan_node *ndt_plan_node_of(ndt_tile *t) {
  struct ndt_tile_dev *d = devrec(t);
  if (!d) return NULL;
  if (!d->plan) {
    ndt__plan_node *n = ndt__calloc(1, sizeof *n);
    if (!n) return NULL;
    n->tile = t;
    n->pv = atomic_load(&t->valid);
    for (int m = 1; m < nmems; m++)
      if (t->mcopy[m]) n->res |= 1u << m;   /* (none: the plan sees every device task) */
    n->bytes = (int64_t)tile_bytes(t);
    n->dtype = t->store->dtype;
    n->size = t->store->size;
    n->index = t - t->store->tiles;
    n->ntiles = t->store->ntiles;
    d->plan = n;
  }
  return d->plan;
}

static void plan_tile_gone(ndt_tile *t) {   /* valid_lock held */
  ndt__plan_node *n = t->dev->plan;
  if (!n) return;
  n->tile = NULL;
  if (!(n->res & ~1u)) ndt__mfree(n);   /* in no memory's list */
}

static void plan_host(ndt_tile *t, int for_write) {
  pthread_mutex_lock(&valid_lock);
  ndt__plan_node *n = t->dev ? t->dev->plan : NULL;
  if (n) {
    if (!(n->pv & 1u) && ndt__dev_logging)
      ndt__dev_log_place("copy host %s mem%d->mem0", plan_name(n), __builtin_ctz(n->pv));
    n->pv = for_write ? 1u : n->pv | 1u;
  }
  pthread_mutex_unlock(&valid_lock);
}

/* ---- what the copy and eviction tasks do (device_plan.c records them;
 * they run on the CPU's workers: the memories' copy functions move the
 * bytes) ---- */
void ndt__move_copy(ndt_tile *t, int mem) {
  char *p;
  pthread_mutex_lock(&valid_lock);
  in_planned = 1;
  /* no room after all (an allocation failed): the task that needs the
   * copy binds it itself, or falls back to the CPU */
  (void)acquire_locked(t, mems[mem], 0, 0, &p);
  in_planned = 0;
  pthread_mutex_unlock(&valid_lock);
}

void ndt__move_evict(ndt_tile *t, int m, int discard) {
  unsigned bit = 1u << m;
  pthread_mutex_lock(&valid_lock);
  /* every earlier use of the tile is done (the graph), so nothing pins it */
  if (t->mcopy[m] && t->dev && !t->dev->pins[m] && !t->dev->writers[m]) {
    unsigned v = atomic_load(&t->valid);
    int ok = 1;
    if (discard) {
      /* garbage (plan_garbage): no task reads the tile again; its copy
       * goes with nothing written back (valid nowhere, maybe, until its
       * store goes) */
      atomic_store(&t->valid, v & ~bit);
      copy_freed(t, m);
      pthread_mutex_unlock(&valid_lock);
      return;
    }
    if (v == bit) {   /* the only valid copy: back to the host first */
      char *h = ndt__tile_buffer(t);
      if (h) pin_host(t, mems[m]);
      ok = h && mems[m]->iface->copy(&ndt__host_memory, h, mems[m], t->mcopy[m],
                                     tile_bytes(t)) == NDT_OK;
      if (ok) atomic_store(&t->valid, 1u);
    } else {
      atomic_store(&t->valid, v & ~bit);
    }
    if (ok) {
      ndt__dev_count(NDT__DEV_EVICTIONS, 1);
      copy_freed(t, m);
    }
  }
  pthread_mutex_unlock(&valid_lock);
}

/* A reference on s unless it is being freed (0 references). */
static int store_tryref(ndt_store *s) {
  long r = atomic_load(&s->refs);
  while (r > 0)
    if (atomic_compare_exchange_weak(&s->refs, &r, r + 1)) return 1;
  return 0;
}

static int64_t mem_cap(int m) {
  if (!plan[m].cap) {
    int64_t cap = 0, used = 0;
    if (mems[m]->iface->usage) mems[m]->iface->usage(mems[m], &cap, &used);
    plan[m].cap = cap > 0 ? cap : INT64_MAX;
  }
  return plan[m].cap;
}

static int grow_acts(ndt_plan_acts *pa) {
  if (pa->n < pa->cap) return 0;
  int c = pa->cap * 2;
  ndt_plan_act *x = pa->a == pa->local ? ndt__malloc((size_t)c * sizeof *x)
                                       : ndt__realloc(pa->a, (size_t)c * sizeof *x);
  if (!x) return -1;
  if (pa->a == pa->local) memcpy(x, pa->local, (size_t)pa->n * sizeof *x);
  pa->a = x;
  pa->cap = c;
  return 0;
}

/* A copy of a store the program dropped that no held-back work reads
 * (valid_lock held): garbage. Nothing will read it again (a task that
 * reads a store is recorded while an array on it lives, or while fused
 * work that reads it is held back: fusion.c answers the flush hook's query),
 * so freeing it writes nothing back. A tile already gone is garbage too (its
 * buffer went with its store: no task). The answer depends on program order
 * alone: the drop, the arrays and the held-back work are the recording
 * thread's. */
static int (*plan_held)(const ndt_store *s);   /* ndt__plan_decide's caller's */
static int plan_garbage(const ndt__plan_node *n) {
  if (!n->dropped) return 0;
  if (!n->tile) return 1;
  const ndt_store *s = n->tile->store;
  return atomic_load(&s->handles) == 0 && !(plan_held && plan_held(s));
}

/* The copy the plan evicts next from device memory x to make room for
 * the task being planned (valid_lock held), never one of the task's tiles
 * (stamp >= own: also not one its loop has not reached yet, it would come
 * straight back in) nor one taken already in this round of plan_moves
 * (vstamp == round, round > 0). *garbage: it is garbage (plan_garbage):
 * freed with nothing written back. The order, deterministic (the model's
 * alone):
 *  1. garbage, the least recently dropped first: it costs nothing and
 *     nothing reads it again;
 *  2. the least recently planned copy (written back when it is the only
 *     valid one);
 *  3. last, a dropped store's copy that held-back work still reads
 *     (evicted as any copy).
 * Clean copies first (a window at the least recently planned end, where a
 * copy the host also holds goes before one only the device holds: the
 * clean-first LRU of Park et al., CASES 2006) was tried and left out: it
 * fills that end with dirty copies, and the moving-must-pay rule
 * (plan_moves) then counts several write-backs for each task that takes
 * new tiles in and keeps it on the CPU; the device stays full of results
 * and every later task stays too (a.T.copy() of test_devices.py's
 * "gaps" case on two 256 KiB devices: 685 of 783 tasks on the CPU with a
 * window of 2 to 64 copies, none with plain LRU). */
static ndt__plan_node *plan_victim(int x, int64_t own, int64_t round, int *garbage) {
  *garbage = 0;
#define NDT__TAKEN(e) ((e)->stamp >= own || (round > 0 && (e)->vstamp == round))
  for (ndt__plan_node *e = plan[x].drop.tail; e; e = e->prev[x])
    if (!NDT__TAKEN(e) && plan_garbage(e)) {
      *garbage = 1;
      return e;
    }
  for (ndt__plan_node *e = plan[x].lru.tail; e; e = e->prev[x])
    if (!NDT__TAKEN(e)) return e;
  for (ndt__plan_node *e = plan[x].drop.tail; e; e = e->prev[x])
    if (!NDT__TAKEN(e)) return e;
#undef NDT__TAKEN
  return NULL;
}

/* The plan's eviction of n from device memory m (valid_lock held): the
 * decision and its log line; an action when the tile is still there.
 * garbage (plan_victim): a task that frees the copy writing nothing back
 * ("discard"), no log line: the program's drop of the store was logged
 * (plan_drop), and whether the copy is freed by this task, by its
 * store's going or forgotten at a sync (ndt__plan_reclaim) changes nothing
 * else the plan decides (garbage goes first), so the log stays the same
 * with or without syncs. 0, or -1: the tile is being freed right now (let
 * go of the lock and try again: its copies are about to go). */
static int plan_evict(ndt__plan_node *n, int m, int garbage, ndt_plan_acts *pa) {
  unsigned bit = 1u << m;
  if (n->tile) {
    /* room first: a reference given back under valid_lock could be the
     * store's last, and freeing it takes the lock */
    if (grow_acts(pa)) return -2;
    if (!store_tryref(n->tile->store)) return -1;
    pa->a[pa->n++] = (ndt_plan_act){n->tile, m, m, garbage ? 2 : 1, 1};
  }
  int back = !garbage && n->pv == bit;
  if (ndt__dev_logging && !garbage)
    ndt__dev_log_place("evict %s mem%d %s", plan_name(n), m, back ? "write-back" : "clean");
  n->pv = back ? 1u : n->pv & ~bit;
  n->res &= ~bit;
  plan[m].used -= n->bytes;
  plan_unlink(n, m);
  if (!n->tile && !(n->res & ~1u)) ndt__mfree(n);
  return 0;
}

/* The program dropped its last array on s (store.c's hook, on the
 * recording thread, in program order): its copies in device memories move
 * to their dropped lists, where plan_victim takes them first once they
 * are garbage (nothing held back reads them). */
static void plan_drop(ndt_store *s) {
  /* memory another owns (the caller's, a store this one aliases, memory
   * lent to NumPy): its last bytes must reach it, so it is evicted as any
   * copy is */
  if (!ndt__dev_track || s->borrowed || s->release || s->alias_of || atomic_load(&s->lent))
    return;
  pthread_mutex_lock(&valid_lock);
  for (int64_t i = 0; i < s->ntiles; i++) {
    ndt__plan_node *n = s->tiles[i].dev ? s->tiles[i].dev->plan : NULL;
    if (!n) continue;
    n->dropped = 1;
    for (int m = 1; m < nmems; m++)
      if (n->res & (1u << m)) {
        plan_push(n, m, 1);
        if (ndt__dev_logging) ndt__dev_log_place("drop %s mem%d", plan_name(n), m);
      }
  }
  pthread_mutex_unlock(&valid_lock);
}

void ndt__plan_reclaim(void) {
  pthread_mutex_lock(&valid_lock);
  for (int m = 1; m < nmems; m++)
    for (int d = 0; d < 2; d++)
      for (ndt__plan_node *n = d ? plan[m].drop.tail : plan[m].lru.tail, *prev; n; n = prev) {
        prev = n->prev[m];
        if (n->tile) continue;
        n->res &= ~(1u << m);
        plan[m].used -= n->bytes;
        plan_unlink(n, m);
        if (!(n->res & ~1u)) ndt__mfree(n);
      }
  pthread_mutex_unlock(&valid_lock);
}

/* The stores a task reads (at most 8 kept; *all: no more): a tile of one
 * is never taken as overwritten whole (the binding's rule, bind.c). */
static int read_stores(const ndt_access *acc, int nacc, const ndt_store **rd, int *all) {
  int nrd = 0;
  *all = 1;
  for (int i = 0; i < nacc; i++)
    if (acc[i].priv & NDT_READ) {
      int seen = 0;
      for (int j = 0; j < nrd && !seen; j++) seen = rd[j] == acc[i].tile->store;
      if (!seen && nrd < 8) rd[nrd++] = acc[i].tile->store;
      else if (!seen) *all = 0;
    }
  return nrd;
}

/* 1 when the access writes its whole tile, of a store the task does not
 * read: the tile's old contents need not come (a result born where the
 * task runs). */
static int written_whole(const ndt_access *a, const ndt_store *const *rd, int nrd, int rd_all) {
  const ndt_tile *tl = a->tile;
  int whole = (a->priv & NDT_DENSE) && a->lo == tl->start &&
              a->hi == tl->start + tl->len - 1 && rd_all;
  for (int j = 0; j < nrd && whole; j++) whole = rd[j] != tl->store;
  return whole;
}

/* What one copy costs besides its bytes (a task of its own: recorded,
 * scheduled, a transfer started and waited for), counted as bytes moved:
 * enough that a task of a few bytes never calls for a copy (a column of two
 * elements), small beside a tile (a 4 KiB tile's task still pays for its
 * copy). A GPU's transfer costs more to start (microseconds: tens of KiB at
 * PCIe speed); this errs toward the device. */
#define NDT__COPY_FIXED 1024

/* The bytes that running a task in device memory x would move, as the plan
 * sees it, each copy counted with its fixed cost. A tile x does not hold
 * valid is copied in whole, but costs only the part the task reads (its
 * accesses' regions, which for a view of two tiles or one are its extent
 * in them; nothing of a part it only writes): the rest stays for the tasks
 * after it, which use it at no cost (a dense op's tiles, halos, pieces of
 * misaligned tiles). To these add the bytes of the only valid copies that
 * the evictions making room for the task's tiles write back (in
 * plan_victim's order, never the task's own: its tiles are stamped >=
 * own; garbage writes nothing back). *back: what running it on the host would move instead (the parts
 * of the tiles only devices hold). valid_lock held; `seen` stamps the
 * tiles counted. */
static int64_t plan_moves(int x, const ndt_access *acc, int nacc, const ndt_store *const *rd,
                          int nrd, int rd_all, int64_t own, int64_t seen, int64_t *back) {
  unsigned xbit = 1u << x;
  int64_t in = 0, room = 0, c0 = NDT__COPY_FIXED;
  *back = 0;
  for (int i = 0; i < nacc; i++) {
    ndt__plan_node *n = acc[i].tile->dev->plan;
    if (n->stamp != seen) {
      n->stamp = seen;
      n->counted = 0;
      if (!(n->res & xbit)) room += n->bytes;
    }
    if (!n->pv || written_whole(&acc[i], rd, nrd, rd_all)) continue;
    int64_t part = 0;
    if (acc[i].priv & NDT_READ) {
      part = (acc[i].hi - acc[i].lo + 1) * acc[i].tile->store->itemsize;
      if (part > n->bytes) part = n->bytes;
    }
    if (!(n->pv & xbit)) {
      in += part + (n->counted & 1 ? 0 : c0);
      n->counted |= 1;
    }
    if (!(n->pv & 1u)) {
      *back += part + (n->counted & 2 ? 0 : c0);
      n->counted |= 2;
    }
  }
  /* the victims ndt__plan_decide would take, in its order (plan_victim),
   * marked taken for this round instead of evicted */
  int64_t over = plan[x].used + room - mem_cap(x), round = ++victim_round;
  ndt__plan_node *e;
  int garbage;
  while (over > 0 && (e = plan_victim(x, own, round, &garbage))) {
    e->vstamp = round;
    over -= e->bytes;
    /* (its bytes alone: the model's write-backs include those of tiles
     * whose store is gone, no task: a reduction's dead partials) */
    if (!garbage && e->pv == xbit) in += e->bytes;
  }
  return in;
}

static atomic_llong plan_fallbacks;
int64_t ndt__plan_fallbacks(void) { return atomic_load(&plan_fallbacks); }

ndt_status ndt__plan_decide(ndt_processor **pp, const ndt_task_kind *k, const ndt_access *acc,
                            int nacc, int64_t work, int (*held)(const ndt_store *s),
                            ndt_plan_acts *pa, int *born) {
  ndt_status st = NDT_OK;
  *born = 0;
  pthread_mutex_lock(&valid_lock);
  plan_held = held;
  int64_t own = ++plan_stamp;   /* the task's tiles: stamped own or later */
  int x = (*pp)->mem->id;
  unsigned xbit = 1u << x;
  int64_t total = 0;
  for (int i = 0; i < nacc; i++) {
    ndt__plan_node *n = ndt_plan_node_of(acc[i].tile);
    if (!n) {   /* no room for the record: the binding makes the tiles valid */
      pthread_mutex_unlock(&valid_lock);
      return NDT_OK;
    }
    if (n->stamp != own) total += n->bytes;
    n->stamp = own;
  }
  const ndt_store *rd[8];
  int rd_all;
  int nrd = read_stores(acc, nacc, rd, &rd_all);
  ndt_processor *cpu = ndt__proc_get(0);
  if (x && cpu && k->body[cpu->kind]) {
    int64_t back = 0, moves = 0;
    if (total > mem_cap(x)) {
      /* the task's tiles cannot all be in the device at once: it runs on
       * the CPU where the plan has the data (a fallback decided here) */
      if (ndt__dev_logging) ndt__dev_log_place("fallback %s %s->cpu", k->name, (*pp)->iface->name);
      atomic_fetch_add(&plan_fallbacks, 1);
      ndt__dev_count(NDT__DEV_FALLBACKS, 1);
      x = 0;
    } else if ((moves = plan_moves(x, acc, nacc, rd, nrd, rd_all, own, ++plan_stamp, &back)) >
                   2 * work && back < moves) {
      /* moving does not pay: the task would move more than twice the
       * bytes it works on (a column of a matrix of whole-tile rows: a few
       * bytes of work in the extent of two tiles; a copy for a task of a
       * few bytes; the evictions that make room written back), and
       * running it on the host moves less: it runs where its data is, on
       * the CPU (a placement, not a failure: no fallback counted). Twice:
       * a device's work on a byte is taken to be worth moving one (its
       * speed beside the CPU's), and a byte read once to be worth moving
       * too (the tasks after it find it there). */
      if (ndt__dev_logging)
        ndt__dev_log_place("stay %s %s->cpu %lld>2*%lld", k->name, (*pp)->iface->name,
                           (long long)moves, (long long)work);
      x = 0;
    }
    if (!x) {
      *pp = cpu;
      xbit = 1;
    }
  }
  plan_stamp++;
  for (int i = 0; i < nacc && st == NDT_OK; i++) {
    ndt__plan_node *n = acc[i].tile->dev->plan;
    if (n->stamp == plan_stamp) continue;   /* seen (a tile in several accesses) */
    n->stamp = plan_stamp;
    int whole = written_whole(&acc[i], rd, nrd, rd_all);
    int alloc = x && !(n->res & xbit);
    /* the task allocates it itself (no copy in allocates it first: a
     * result written whole, or a tile valid nowhere, a lazy result written
     * in part): after the evictions */
    if (alloc) *born |= whole || !n->pv;
    if (alloc) {
      while (plan[x].used + n->bytes > mem_cap(x) && st == NDT_OK) {
        int garbage;
        ndt__plan_node *e = plan_victim(x, own, 0, &garbage);
        if (!e) break;   /* (the cap check above: cannot happen) */
        int r = plan_evict(e, x, garbage, pa);
        if (r == -1) {
          /* a tile being freed on a worker: let it free its copies (the
           * plan then evicts it as gone, with no task) */
          pthread_mutex_unlock(&valid_lock);
          sched_yield();
          pthread_mutex_lock(&valid_lock);
          continue;
        }
        if (r) st = NDT_ERR_NOMEM;
      }
      n->res |= xbit;
      plan[x].used += n->bytes;
    }
    if (st == NDT_OK && n->pv && !(n->pv & xbit) && !whole) {
      int from = n->pv & 1u ? 0 : __builtin_ctz(n->pv);
      if (grow_acts(pa)) {
        st = NDT_ERR_NOMEM;
        break;
      }
      store_tryref(acc[i].tile->store);   /* (alive: the op holds it) */
      pa->a[pa->n++] = (ndt_plan_act){acc[i].tile, x, from, 0, alloc};
      if (ndt__dev_logging)
        ndt__dev_log_place("copy %s %s mem%d->mem%d", !x ? "d2h" : from ? "d2d" : "h2d",
                           plan_name(n), from, x);
      n->pv |= xbit;
    }
  }
  /* what the task itself does to the plan: a write leaves its memory the
   * only valid one (the other buffers stay, stale, until evicted) */
  for (int i = 0; i < nacc; i++) {
    ndt__plan_node *n = acc[i].tile->dev->plan;
    if (acc[i].priv & NDT_WRITE) n->pv = xbit;
    else n->pv |= xbit;
    if (x) plan_touch(n, x);
  }
  pthread_mutex_unlock(&valid_lock);
  return st;
}
