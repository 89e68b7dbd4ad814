/* device.c - the devices NDTILE_DEVICES asks for: the simulated ones
 * (device_sim.c) or the CUDA plugin, loaded with dlopen only when asked for
 * (cuda, auto) so that the core never links CUDA and a machine without the
 * plugin, the CUDA libraries, a driver or a device runs on its CPUs (and
 * NDTILE_VERBOSE=1 says why). Also the placement of a task among several
 * devices (a fixed owner rule on the recording thread, never timings), the
 * counters and the event log the golden tests compare. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"
#include "device.h"

static ndt_processor *devs[NDT__MAX_DEVS];
static const char *dev_kind[NDT__MAX_DEVS];
static int ndev;
static char note[512];
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

static void log_place(const char *fmt, ...) {
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

ndt_processor *ndt__dev_place(const ndt_task_kind *k, const ndt_operand *op, int nop,
                              const void *arg,
                              int (*accepts)(ndt_processor *, const ndt_task_kind *,
                                             const ndt_operand *, int, const void *)) {
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
  if (p && ndt__dev_logging) log_place("place %s %s", k->name, p->iface->name);
  return p;
}

/* ---- the public view ---- */
int ndt_device_count(void) { return ndt__runtime_ensure() == NDT_OK ? ndev : 0; }

ndt_status ndt_device_get(int i, ndt_device_info *out) {
  ndt_status st = ndt__runtime_ensure();
  if (st) return st;
  if (i < 0 || i >= ndev)
    return ndt__error(NDT_ERR_VALUE, "no device %d (there are %d)", i, ndev);
  ndt_processor *p = devs[i];
  out->name = p->iface->name;
  out->kind = dev_kind[i];
  out->index = p->device;
  out->capacity = out->in_use = 0;
  if (p->mem->iface->usage) p->mem->iface->usage(p->mem, &out->capacity, &out->in_use);
  return NDT_OK;
}

const char *ndt_device_note(void) { return note; }

/* Records p as device ndev (it registered itself through the tables). */
static void dev_add(ndt_processor *p, const char *kind) {
  if (ndev < NDT__MAX_DEVS) {
    devs[ndev] = p;
    dev_kind[ndev++] = kind;
  }
}

/* ---- the CUDA plugin ---- */
static const char *cur_kind = "cuda";
static int host_proc_register(ndt_processor *p) {
  int r = ndt__proc_register(p);
  if (r == 0) dev_add(p, cur_kind);
  return r;
}
static void host_cpu_launch(ndt_task *t) {
  ndt_processor *cpu = ndt__proc_get(0);
  cpu->iface->launch(cpu, t);
}
static ndt_status host_error(ndt_status st, const char *msg) { return ndt__error(st, "%s", msg); }
static void host_verbose(const char *msg) { ndt__verbose("%s", msg); }
static int64_t host_env_size(const char *name, int64_t dflt) { return ndt__env_int(name, dflt); }

static const ndt_plugin_host plugin_host = {
    .api = NDT_PLUGIN_API, .mem_register = ndt__mem_register,
    .proc_register = host_proc_register, .cpu_launch = host_cpu_launch, .error = host_error,
    .alloc_fails = ndt__dev_alloc_fails, .verbose = host_verbose, .env_size = host_env_size};

/* dlopens the first plugin file found: NDTILE_CUDA_PLUGIN, then next to the
 * module the core is linked into (the extension, a program), then the build
 * directory; NULL with the reasons in note. */
static void *open_plugin(void) {
  char paths[3][1024];
  int np = 0;
  const char *env = getenv("NDTILE_CUDA_PLUGIN");
  if (env && *env) snprintf(paths[np++], sizeof paths[0], "%s", env);
  else {
    Dl_info info;
    if (dladdr((void *)ndt__devices_start, &info) && info.dli_fname) {
      const char *slash = strrchr(info.dli_fname, '/');
      int dl = slash ? (int)(slash - info.dli_fname) : 0;
      snprintf(paths[np++], sizeof paths[0], "%.*s%slibndtile_cuda.so", dl, info.dli_fname,
               slash ? "/" : "./");
    }
#ifdef NDT_CUDA_PLUGIN_BUILT
    snprintf(paths[np++], sizeof paths[0], "%s", NDT_CUDA_PLUGIN_BUILT);
#endif
  }
  size_t at = 0;
  for (int i = 0; i < np; i++) {
    void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
    const char *e = dlerror();
    at += (size_t)snprintf(note + at, at < sizeof note ? sizeof note - at : 0, "%s%.200s",
                           i ? "; " : "", e ? e : paths[i]);
    if (at >= sizeof note) at = sizeof note - 1;
  }
  if (!np) snprintf(note, sizeof note, "no plugin path");
  return NULL;
}

static void start_cuda(const ndt__devspec *d, const char *what) {
  void *h = open_plugin();
  if (!h) {
    ndt__verbose("%s: no CUDA plugin (%s); running on CPUs", what, note);
    return;
  }
  ndt_plugin_entry_fn entry = (ndt_plugin_entry_fn)dlsym(h, NDT_PLUGIN_ENTRY);
  const ndt_plugin *pl = entry ? entry() : NULL;
  if (!pl || pl->api != NDT_PLUGIN_API) {
    snprintf(note, sizeof note, "the CUDA plugin has no %s of API %d", NDT_PLUGIN_ENTRY,
             NDT_PLUGIN_API);
    ndt__verbose("%s: %s; running on CPUs", what, note);
    dlclose(h);
    return;
  }
  char why[256] = "";
  cur_kind = "cuda";
  int n = pl->start(&plugin_host, d->index, d->n, why, sizeof why);
  if (n <= 0) {
    snprintf(note, sizeof note, "%.255s", why[0] ? why : "no CUDA device");
    ndt__verbose("%s: %s; running on CPUs", what, note);
    return;   /* the plugin stays loaded: its libraries may not unload cleanly */
  }
  note[0] = 0;
  ndt__verbose("%s: %d CUDA device%s", what, n, n > 1 ? "s" : "");
}

void ndt__devices_start(const ndt_config *cfg) {
  ndt__devspec d = {.kind = NDT__DEVS_NONE};
  const char *text = cfg && cfg->devices ? cfg->devices : getenv("NDTILE_DEVICES");
  const char *sim = getenv("NDTILE_SIMDEVICE");   /* the older spelling of sim:1 */
  if (text && *text) {
    if (ndt__devices_parse(text, &d)) {   /* (ndt_init checked the variable) */
      snprintf(note, sizeof note, "%s", ndt_last_error());
      ndt__verbose("%s", note);
      return;
    }
  } else if (sim && *sim && strcmp(sim, "0")) {
    d.kind = NDT__DEVS_SIM;
    d.n = 1;
  }
  char what[160];
  snprintf(what, sizeof what, "NDTILE_DEVICES=%s", text && *text ? text : "sim:1");
  switch (d.kind) {
    case NDT__DEVS_SIM: {
      int64_t mem = d.mem ? d.mem : ndt__env_int("NDTILE_SIMDEVICE_BYTES", (int64_t)1 << 30);
      int before = ndt__proc_count();
      ndt__sim_start(d.n, mem);
      for (int i = before; i < ndt__proc_count(); i++) dev_add(ndt__proc_get(i), "sim");
      ndt__verbose("%s: %d simulated device%s of %lld bytes", what, d.n, d.n > 1 ? "s" : "",
                   (long long)mem);
      break;
    }
    case NDT__DEVS_CUDA:
    case NDT__DEVS_AUTO:
      start_cuda(&d, what);
      break;
    default:
      break;
  }
}
