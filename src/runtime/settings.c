/* settings.c - the runtime's settings: environment variables, the tile
 * size, the inline threshold and the look-ahead bounds. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "rt.h"

ndt_settings ndt__set_;

int ndt__settings_workers(const ndt_config *cfg) {
  if (cfg && cfg->workers > 0) return cfg->workers > 1024 ? 1024 : cfg->workers;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  int64_t w = ndt__env_int("NDTILE_WORKERS", n > 0 ? n : 1);
  return w > 1024 ? 1024 : (int)w;
}

void ndt__settings_load(const ndt_config *cfg, int w) {
  ndt_settings *s = &ndt__set_;
  s->tile_bytes = cfg && cfg->tile_bytes > 0 ? cfg->tile_bytes
                                             : ndt__env_int("NDTILE_TILE_BYTES", 2 << 20);
  s->inline_elems = cfg && cfg->inline_elems >= 0 ? cfg->inline_elems
                                                  : ndt__env_int("NDTILE_INLINE_ELEMS", 1 << 15);
  /* Bounded look-ahead: a program that records faster than the workers run
   * would otherwise allocate the results of many future steps at once. */
  s->max_pending = ndt__env_int("NDTILE_MAX_PENDING", 16 + 8 * (int64_t)w);
  /* ... and by bytes: the buffers allocated for pending tasks (their
   * results, and stores only they still hold) may not exceed a tile per
   * worker and one more beyond the newest task */
  s->max_bytes = ndt__env_int("NDTILE_MAX_PENDING_BYTES", (1 + (int64_t)w) * s->tile_bytes);
  /* a device launch costs about 5 us, a 2 MiB tile of a+b about 1.5 us of
   * an H200's memory traffic: launches over 64 MiB keep that under 10 % */
  s->group_bytes = ndt__env_int("NDTILE_GPU_GROUP", (int64_t)64 << 20);
  /* a debug check on every task recorded (check.c) */
  s->check = (int)ndt__env_int("NDTILE_CHECK", NDT__CHECK_OFF);
}

static void memstat_at_exit(void) {
  /* read again: a process that only starts others (the launcher) drops
   * the variable after the start, and says nothing */
  if (!getenv("NDTILE_MEMSTAT")) return;
  int64_t live, cached, plive, pheld;
  ndt__mem_stats(&live, &cached, &plive, &pheld);
  fprintf(stderr, "ndtile memory: peak %.1f MiB in use, %.1f MiB with the cache; "
          "now %.1f MiB in use, %.1f MiB cached\n", plive / 1048576.0, pheld / 1048576.0,
          live / 1048576.0, cached / 1048576.0);
}

void ndt__settings_first_start(void) {
  if (getenv("NDTILE_MEMSTAT")) atexit(memstat_at_exit);
  if (getenv("NDTILE_CACHE_BYTES")) ndt__set_cache_limit(ndt__env_int("NDTILE_CACHE_BYTES", 0));
}

/* The settings tasks are cut by, read after the runtime's lazy start (which
 * loads them): here, below store.c and sched.c, which both read them. */
int64_t ndt__rt_tile_bytes(void) {
  ndt__runtime_ensure();
  return ndt__set_.tile_bytes;
}
int64_t ndt__rt_inline_elems(void) {
  ndt__runtime_ensure();
  return ndt__set_.inline_elems;
}

