/* device_log.c - what the device runtime counts and logs (a leaf: proc.c,
 * bind.c, device.c and device_sim.c write here): copies, evictions and
 * fallbacks, the golden tests' log, injected allocation failures,
 * NDTILE_VERBOSE. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

static atomic_llong counters[NDT__DEV_NCOUNTERS];
static atomic_llong fail_dev_after;

void ndt__dev_count(int which, int64_t n) { atomic_fetch_add(&counters[which], n); }

void ndt_device_stats(int64_t *copies, int64_t *copy_bytes, int64_t *evictions,
                      int64_t *fallbacks) {
  if (copies) *copies = atomic_load(&counters[NDT__DEV_COPIES]);
  if (copy_bytes) *copy_bytes = atomic_load(&counters[NDT__DEV_COPY_BYTES]);
  if (evictions) *evictions = atomic_load(&counters[NDT__DEV_EVICTIONS]);
  if (fallbacks) *fallbacks = atomic_load(&counters[NDT__DEV_FALLBACKS]);
}

void ndt_debug_fail_dev_alloc_after(int64_t n) { atomic_store(&fail_dev_after, n > 0 ? n : 0); }

int ndt__dev_alloc_fails(void) {
  long long v = atomic_load(&fail_dev_after);
  while (v > 0)
    if (atomic_compare_exchange_weak(&fail_dev_after, &v, v - 1)) return v == 1;
  return 0;
}

void ndt__verbose(const char *fmt, ...) {
  const char *v = getenv("NDTILE_VERBOSE");
  if (!v || !*v || !strcmp(v, "0")) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("ndtile: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* ---- the log ----
 * Two parts: the placements, made on the recording thread in program
 * order, and what the tasks did when they ran (copies, evictions,
 * fallbacks), in the order they ran: with one worker and a program that
 * waits after each op, that order is the program's too. */
int ndt__dev_logging;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { char *text; size_t len, cap; } logs[2];
static char *log_copy;

static void log_add(int part, const char *fmt, va_list ap) {
  char line[256];
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  if (n < 0) return;
  if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
  line[n++] = '\n';
  pthread_mutex_lock(&log_lock);
  if (ndt__dev_logging && logs[part].len + (size_t)n + 1 > logs[part].cap) {
    size_t cap = logs[part].cap ? 2 * logs[part].cap : 4096;
    while (cap < logs[part].len + (size_t)n + 1) cap *= 2;
    char *t = ndt__realloc(logs[part].text, cap);
    if (t) {
      logs[part].text = t;
      logs[part].cap = cap;
    }
  }
  if (ndt__dev_logging && logs[part].len + (size_t)n + 1 <= logs[part].cap) {
    memcpy(logs[part].text + logs[part].len, line, (size_t)n);
    logs[part].len += (size_t)n;
  }
  pthread_mutex_unlock(&log_lock);
}

void ndt__dev_log_line(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  log_add(1, fmt, ap);
  va_end(ap);
}

void ndt__dev_log_place(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  log_add(0, fmt, ap);
  va_end(ap);
}

void ndt_debug_device_log(int on) {
  pthread_mutex_lock(&log_lock);
  if (on) logs[0].len = logs[1].len = 0;
  ndt__dev_logging = on != 0;
  pthread_mutex_unlock(&log_lock);
}

const char *ndt_debug_device_log_text(void) {
  static const char sep[] = "-- ran:\n";
  pthread_mutex_lock(&log_lock);
  ndt__mfree(log_copy);
  size_t n0 = logs[0].len, n1 = logs[1].len;
  log_copy = ndt__malloc(n0 + n1 + sizeof sep);
  if (log_copy) {
    if (n0) memcpy(log_copy, logs[0].text, n0);
    memcpy(log_copy + n0, sep, sizeof sep - 1);
    if (n1) memcpy(log_copy + n0 + sizeof sep - 1, logs[1].text, n1);
    log_copy[n0 + n1 + sizeof sep - 1] = 0;
  }
  pthread_mutex_unlock(&log_lock);
  return log_copy ? log_copy : "";
}

const char *ndt__dev_tile_name(const ndt_tile *t) {
  /* by the store's shape of tiles and the tile's place in it: stable from
   * run to run, unlike addresses (one buffer per thread: the log lines are
   * formatted on the thread that asks) */
  static _Thread_local char buf[64];
  const ndt_store *s = t->store;
  snprintf(buf, sizeof buf, "%s[%lld]@%lld/%lld", ndt_dtype_name(s->dtype),
           (long long)s->size, (long long)(t - s->tiles), (long long)s->ntiles);
  return buf;
}

