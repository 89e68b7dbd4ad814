/* proc.c - the processor and memory tables, and the record of which
 * memories hold a valid copy of each tile (ndt_tile.valid).
 *
 * With the CPU alone every tile is valid in host memory and every check
 * below is one bit test. A backend (one runtime file, one kernels folder,
 * one build option) registers its memory and processor at start-up; tasks
 * whose kind has a body for it and that its `supports` accepts then run on
 * it, their operands copied into its memory when they are not valid there,
 * and a write leaves its memory the only valid one. The record is per tile:
 * a processor other than the host's takes whole tiles. */
#include <pthread.h>
#include <string.h>
#include "rt.h"

static ndt_memory *mems[NDT_MAX_MEMS] = {&ndt__host_memory};
static int nmems = 1;
static ndt_processor *procs[NDT_MAX_PROCS];
static int nprocs;
static pthread_mutex_t valid_lock = PTHREAD_MUTEX_INITIALIZER;

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
  return 0;
}

ndt_memory *ndt__mem_by_id(int id) { return id >= 0 && id < nmems ? mems[id] : NULL; }

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

static int accepts(ndt_processor *p, const ndt_task_kind *k, const ndt_operand *op, int nop) {
  if (!k->body[p->kind]) return 0;
  if (!p->iface->supports) return 1;
  ndt_dtype dt[16];
  int n = nop < 16 ? nop : 16;
  for (int j = 0; j < n; j++) dt[j] = op[j].view->dtype;
  return p->iface->supports(p, k, dt, n);
}

ndt_processor *ndt__proc_choose(const ndt_task_kind *k, const ndt_operand *op, int nop) {
  if (only) return accepts(only, k, op, nop) ? only : NULL;
  if (nprocs == 1 && k->body[procs[0]->kind] && !procs[0]->iface->supports)
    return procs[0];   /* the CPU alone */
  for (int i = nprocs - 1; i >= 0; i--)
    if (accepts(procs[i], k, op, nop)) return procs[i];
  return NULL;
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

ndt_status ndt__tile_acquire(ndt_tile *t, ndt_memory *m, int for_write, char **ptr) {
  unsigned bit = 1u << m->id;
  unsigned v = atomic_load_explicit(&t->valid, memory_order_acquire);
  if (v == bit || (!for_write && (v & bit))) {   /* the usual case: nothing to do */
    *ptr = ndt_tile_mem(t, m);
    return NDT_OK;
  }
  size_t n = (size_t)t->len * t->store->itemsize;
  ndt_status st = NDT_OK;
  pthread_mutex_lock(&valid_lock);
  v = atomic_load(&t->valid);
  char *dst = ndt_tile_mem(t, m);
  if (!dst) {
    dst = m->id ? m->iface->alloc(m, n) : ndt__tile_buffer(t);
    if (!dst) st = ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile of %zu bytes in %s memory",
                             n, m->iface->name);
    else if (m->id) t->mcopy[m->id] = dst;
  }
  if (st == NDT_OK && !(v & bit) && v) {
    int from = __builtin_ctz(v);
    ndt_memory *fm = mems[from];
    char *src = from ? t->mcopy[from] : ndt__tile_buffer(t);
    /* the side that is not the host knows how to move its bytes */
    ndt_memory *mover = m->id ? m : fm;
    if (!src) st = ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile of %zu bytes", n);
    else st = mover->iface->copy(m, dst, fm, src, n);
  }
  if (st == NDT_OK) atomic_store(&t->valid, for_write ? bit : (v | bit));
  pthread_mutex_unlock(&valid_lock);
  *ptr = dst;
  return st;
}

void ndt__tile_drop_copies(ndt_tile *t) {
  for (int i = 1; i < nmems; i++)
    if (t->mcopy[i]) {
      mems[i]->iface->free(mems[i], t->mcopy[i], (size_t)t->len * t->store->itemsize);
      t->mcopy[i] = NULL;
    }
}
