/* device_sim.c - simulated devices: prove the device path (placement,
 * coherence, eviction, fallback) on a machine without one.
 * NDTILE_DEVICES=sim:N,mem=SIZE (or the older NDTILE_SIMDEVICE=1 with
 * NDTILE_SIMDEVICE_BYTES) registers N devices, each a memory of its own
 * (host buffers, but a separate copy of every tile it touches, with a
 * capacity, 1 GiB by default) and a processor that runs the CPU bodies with
 * their operands bound in that memory, on the worker pool. Every task then
 * goes to one of them (they are registered after the CPU, so preferred):
 * operands are copied in when their tiles are not valid there, writes
 * leave the writer's copy the only valid one, host reads (ndt__wait_tiles)
 * copy back, and a full memory evicts (proc.c) before the task falls back
 * to the CPU (bind.c). Consecutive tasks of one op run as one grouped
 * task (sched.c), one call over a list of tiles, as on a GPU. Freed and
 * invalidated copies are poisoned (0xA5
 * bytes: NaN-like for floats, odd for integers), so a read of a stale copy
 * changes results. Results must be bitwise the same as without them. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

typedef struct {
  atomic_llong used;
  int64_t cap;
} sim_state;

static sim_state sd[NDT__MAX_DEVS];

static void *sd_alloc(ndt_memory *m, size_t n) {
  sim_state *s = m->context;
  if (ndt__dev_alloc_fails()) {
    ndt__error(NDT_ERR_NOMEM, "injected failure of a simulated device allocation");
    return NULL;
  }
  if (atomic_fetch_add(&s->used, (long long)n) + (int64_t)n > s->cap) {
    atomic_fetch_sub(&s->used, (long long)n);
    ndt__error(NDT_ERR_NOMEM, "the simulated device's memory (%lld bytes) is full",
              (long long)s->cap);
    return NULL;
  }
  void *p = ndt__alloc_data(n, 0);
  if (!p) atomic_fetch_sub(&s->used, (long long)n);
  else ndt__mem_note(m->id, (int64_t)n);   /* ndtile.memory_stats() */
  return p;
}

static void sd_poison(ndt_memory *m, void *p, size_t n) {
  NDT_UNUSED(m);
  memset(p, 0xA5, n);
}

static void sd_free(ndt_memory *m, void *p, size_t n) {
  sim_state *s = m->context;
  if (!p) return;
  memset(p, 0xA5, n);   /* a buffer recycled by the host cache keeps nothing stale */
  ndt__free_data_sized(p, n);
  atomic_fetch_sub(&s->used, (long long)n);
  ndt__mem_note(m->id, -(int64_t)n);
}

static void sd_usage(ndt_memory *m, int64_t *cap, int64_t *used) {
  sim_state *s = m->context;
  *cap = s->cap;
  *used = atomic_load(&s->used);
}

/* its buffers are host memory: the host's copy moves them */
static ndt_status sd_copy(ndt_memory *to, void *dst, ndt_memory *from, const void *src,
                          size_t n) {
  return ndt__host_memory.iface->copy(to, dst, from, src, n);
}

static const ndt_memory_iface sd_mem_iface = {
    .version = NDT_IFACE_VERSION, .name = "simulated device", .host_visible = 1,
    .alloc = sd_alloc, .free = sd_free, .copy = sd_copy, .poison = sd_poison,
    .usage = sd_usage};
static ndt_memory sd_mem[NDT__MAX_DEVS];

/* Its tasks run on the worker pool: the CPU processor (the first
 * registered) queues them. */
static void sd_launch(ndt_processor *p, ndt_task *t) {
  NDT_UNUSED(p);
  ndt_processor *cpu = ndt__proc_get(0);
  cpu->iface->launch(cpu, t);
}

/* A grouped task (sched.c: consecutive tasks of one op held on the
 * recording thread and recorded as one): one call runs them all, as one
 * launch over a list of tiles does on a GPU; here the CPU bodies, one
 * member after the other. */
static ndt_status sd_group(ndt_processor *p, const ndt_task_kind *k, ndt_bound *b, int n,
                           const int *nop, void *const *args) {
  NDT_UNUSED(p);
  ndt_body_fn fn = k->body[NDT_PROC_CPU];
  ndt_status st = NDT_OK;
  for (int i = 0, at = 0; i < n && st == NDT_OK; at += nop[i++]) st = fn(b + at, args[i]);
  return st;
}

/* one interface per device: the name is how ndt_processor_select finds it */
#define SD_IFACE(nm)                                                                      \
  {.version = NDT_IFACE_VERSION, .name = nm, .supports = NULL, .launch = sd_launch,       \
   .sync = NULL, .group = sd_group}
static const ndt_processor_iface sd_iface[NDT__MAX_DEVS] = {
    SD_IFACE("simdev"), SD_IFACE("simdev1"), SD_IFACE("simdev2")};
static ndt_processor sd_proc[NDT__MAX_DEVS];

int64_t ndt__simdev_bytes(void) { return sd[0].cap; }

void ndt__sim_start(int n, int64_t cap) {
  for (int i = 0; i < n && i < NDT__MAX_DEVS; i++) {
    sd[i].cap = cap;
    sd_mem[i] = (ndt_memory){.iface = &sd_mem_iface, .device = i, .context = &sd[i]};
    sd_proc[i] = (ndt_processor){.iface = &sd_iface[i], .device = i, .context = NULL,
                                 .kind = NDT_PROC_CPU, .mem = &sd_mem[i]};
    if (ndt__proc_register(&sd_proc[i])) break;
    ndt__mem_note_capacity(sd_mem[i].id, cap);
  }
}
