/* simdev.c - a simulated device: proves the processor/memory path on a
 * machine without one. NDTILE_SIMDEVICE=1 registers a memory of its own
 * (host buffers, but a separate copy of every tile it touches, with a
 * capacity: NDTILE_SIMDEVICE_BYTES, 1 GiB by default) and a processor that
 * runs the CPU bodies with their operands bound in that memory, on the
 * worker pool. Every task then goes to it (it is registered after the CPU,
 * so preferred): operands are copied in when their tiles are not valid
 * there, writes leave the device copy the only valid one, and host reads
 * (ndt__wait_tiles) copy back. Results must be bitwise the same as without
 * it, except where the layout itself picks a path (tiles adjacent in host
 * memory are not adjacent here, so such views are gathered). */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

static atomic_llong sd_used;
static int64_t sd_cap;

static void *sd_alloc(ndt_memory *m, size_t n) {
  if (atomic_fetch_add(&sd_used, (long long)n) + (int64_t)n > sd_cap) {
    atomic_fetch_sub(&sd_used, (long long)n);
    ndt__error(NDT_ERR_NOMEM, "the simulated device's memory (%lld bytes) is full",
              (long long)sd_cap);
    return NULL;
  }
  void *p = ndt__alloc_data(n, 0);
  if (!p) atomic_fetch_sub(&sd_used, (long long)n);
  else ndt__mem_note(m->id, (int64_t)n);   /* ndtile.memory_stats() */
  return p;
}

static void sd_free(ndt_memory *m, void *p, size_t n) {
  if (!p) return;
  ndt__free_data_sized(p, n);
  atomic_fetch_sub(&sd_used, (long long)n);
  ndt__mem_note(m->id, -(int64_t)n);
}

/* its buffers are host memory: the host's copy moves them */
static ndt_status sd_copy(ndt_memory *to, void *dst, ndt_memory *from, const void *src,
                          size_t n) {
  return ndt__host_memory.iface->copy(to, dst, from, src, n);
}

static const ndt_memory_iface sd_mem_iface = {
    .version = NDT_IFACE_VERSION, .name = "simulated device", .host_visible = 1,
    .alloc = sd_alloc, .free = sd_free, .copy = sd_copy};
static ndt_memory sd_mem = {.iface = &sd_mem_iface, .device = 0, .context = NULL};

/* Its tasks run on the worker pool: the CPU processor (the first
 * registered) queues them. */
static void sd_launch(ndt_processor *p, ndt_task *t) {
  NDT_UNUSED(p);
  ndt_processor *cpu = ndt__proc_get(0);
  cpu->iface->launch(cpu, t);
}

static const ndt_processor_iface sd_iface = {
    .version = NDT_IFACE_VERSION, .name = "simdev", .supports = NULL,
    .launch = sd_launch, .sync = NULL};
static ndt_processor sd_proc = {.iface = &sd_iface, .device = 0, .context = NULL,
                                .kind = NDT_PROC_CPU, .mem = &sd_mem};

int64_t ndt__simdev_bytes(void) { return sd_cap; }

void ndt__simdev_start(void) {
  const char *v = getenv("NDTILE_SIMDEVICE");
  if (!v || !*v || !strcmp(v, "0")) return;
  sd_cap = ndt__env_int("NDTILE_SIMDEVICE_BYTES", (int64_t)1 << 30);
  ndt__proc_register(&sd_proc);
  ndt__mem_note_capacity(sd_mem.id, sd_cap);
}
