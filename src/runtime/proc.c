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
 * A device memory that is full evicts the least recently bound unpinned
 * copies first, writing a copy that is the only valid one back to the host;
 * only when nothing can be evicted does the task fall back to the CPU
 * (bind.c). */
#include <pthread.h>
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

/* A tile's device state (valid_lock). */
struct ndt_tile_dev {
  int pins[NDT_MAX_MEMS];
  int writers[NDT_MAX_MEMS];
  ndt_tile *prev[NDT_MAX_MEMS], *next[NDT_MAX_MEMS];   /* lru[m], most recent first */
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

int ndt__proc_register(ndt_processor *p) {
  for (int i = 0; i < nprocs; i++)
    if (procs[i] == p) return 0;
  if (nprocs == NDT_MAX_PROCS || !p->iface || p->iface->version < 1 || !p->iface->launch ||
      p->kind < 0 || p->kind >= NDT_PROC_KINDS || ndt__mem_register(p->mem))
    return -1;
  procs[nprocs++] = p;
  if (nprocs > 1) ndt__dev_track = 1;
  return 0;
}

ndt_memory *ndt__mem_by_id(int id) { return id >= 0 && id < nmems ? mems[id] : NULL; }
int ndt__mem_count(void) { return nmems; }

int ndt__proc_count(void) { return nprocs; }
ndt_processor *ndt__proc_get(int i) { return i >= 0 && i < nprocs ? procs[i] : NULL; }

static ndt_processor *only;   /* ndt__proc_select */
int ndt__proc_select(const char *name) {
  only = NULL;
  if (!name) return 0;
  for (int i = 0; i < nprocs; i++)
    if (!strcmp(procs[i]->iface->name, name)) {
      only = procs[i];
      return 0;
    }
  return -1;
}

ndt_body_fn ndt__proc_body(ndt_processor *p, const ndt_task_kind *k) {
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
  if (st == NDT_OK && !(v & bit) && v) {
    int from = source_of(v);
    ndt_memory *fm = mems[from];
    char *src = from ? t->mcopy[from] : ndt__tile_buffer(t);
    /* the side that is not the host knows how to move its bytes */
    ndt_memory *mover = m->id ? m : fm;
    if (!src) st = ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile of %zu bytes", n);
    else st = mover->iface->copy(m, dst, fm, src, n);
    if (st == NDT_OK && ndt__dev_track) {
      ndt__dev_log("copy %s mem%d->mem%d %zu", ndt__dev_tile_name(t), from, m->id, n);
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

ndt_status ndt__tile_acquire(ndt_tile *t, ndt_memory *m, int for_write, char **ptr) {
  unsigned bit = 1u << m->id;
  unsigned v = atomic_load_explicit(&t->valid, memory_order_acquire);
  if (v == bit || (!for_write && (v & bit))) {   /* the usual case: nothing to do */
    *ptr = ndt_tile_mem(t, m);
    return NDT_OK;
  }
  pthread_mutex_lock(&valid_lock);
  ndt_status st = acquire_locked(t, m, for_write, 0, ptr);
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
      if (st == NDT_OK) st = acquire_locked(tl, m, r[i].w, 1, &p);
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

void ndt__tile_drop_copies(ndt_tile *t) {
  if (!t->dev) return;
  pthread_mutex_lock(&valid_lock);
  for (int i = 1; i < nmems; i++)
    if (t->mcopy[i]) copy_freed(t, i);
  ndt__mfree(t->dev);
  t->dev = NULL;
  pthread_mutex_unlock(&valid_lock);
}
