/* device.c - the devices NDTILE_DEVICES asks for: the simulated ones
 * (device_sim.c) or the CUDA plugin, loaded with dlopen only when asked for
 * (cuda, auto) so that the core never links CUDA and a machine without the
 * plugin, the CUDA libraries, a driver or a device runs on its CPUs (and
 * NDTILE_VERBOSE=1 says why); and the public view of them. Placement is in
 * proc.c, the counters and the log in device_log.c. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"
#include "device.h"
#include "kernels/cpu/cpu.h"   /* ndt_cpu_level */

static char note[512];
/* ---- the public view ---- */
int ndt_device_count(void) { return ndt__runtime_ensure() == NDT_OK ? ndt__dev_n() : 0; }

ndt_status ndt_device_get(int i, ndt_device_info *out) {
  ndt_status st = ndt__runtime_ensure();
  if (st) return st;
  const char *kind;
  ndt_processor *p = ndt__dev_get(i, &kind);
  if (!p) return ndt__error(NDT_ERR_VALUE, "no device %d (there are %d)", i, ndt__dev_n());
  out->name = p->iface->name;
  out->kind = kind;
  out->index = p->device;
  out->capacity = out->in_use = 0;
  if (p->mem->iface->usage) p->mem->iface->usage(p->mem, &out->capacity, &out->in_use);
  return NDT_OK;
}

const char *ndt_device_note(void) { return note; }

int ndt__cuda_devices(void) {
  for (int i = 0; i < ndt_device_count(); i++) {
    ndt_device_info di;
    if (ndt_device_get(i, &di) == NDT_OK && di.kind && !strcmp(di.kind, "cuda")) return 1;
  }
  return 0;
}

/* ---- the CUDA plugin ---- */
static const char *cur_kind = "cuda";
static int host_proc_register(ndt_processor *p) {
  int r = ndt__proc_register(p);
  if (r == 0) ndt__dev_add(p, cur_kind);
  return r;
}
static void host_cpu_launch(ndt_task *t) {
  ndt_processor *cpu = ndt__proc_get(0);
  cpu->iface->launch(cpu, t);
}
static ndt_status host_error(ndt_status st, const char *msg) { return ndt__error(st, "%s", msg); }
static void host_verbose(const char *msg) { ndt__verbose("%s", msg); }
static int64_t host_env_size(const char *name, int64_t dflt) { return ndt__env_int(name, dflt); }
static int host_cpu_level(void) { return ndt_cpu_level(); }

static int gpu_ranks(int dev);
static const ndt_plugin_host plugin_host = {
    .api = NDT_PLUGIN_API, .mem_register = ndt__mem_register,
    .proc_register = host_proc_register, .cpu_launch = host_cpu_launch, .error = host_error,
    .alloc_fails = ndt__dev_alloc_fails, .verbose = host_verbose, .env_size = host_env_size,
    .cpu_level = host_cpu_level, .view_tiles = ndt__view_tiles, .gpu_ranks = gpu_ranks};

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

/* NDTILE_GPUS_PER_NODE=G (ndtile --gpus-per-node G) with every CUDA device
 * asked for (`cuda`, `auto`): this rank's share of the node's G GPUs, by
 * its place among the node's L ranks. L <= G: GPUs [l*G/L, (l+1)*G/L) (one
 * each when L == G); L > G: GPU l*G/L, shared with its neighbours. A list
 * the user gave (cuda:0,1) is kept as it is. */
static int shared_g;   /* G when share_gpus gave this rank its share, else 0 */

static int local_size(void) { return ndt__comm_local_size_ > 0 ? ndt__comm_local_size_ : 1; }

/* the GPUs [*lo, *hi) of local rank l of L among g */
static void share_of(int l, int L, int g, int *lo, int *hi) {
  *lo = (int)((int64_t)l * g / L);
  *hi = (int)((int64_t)(l + 1) * g / L);
  if (*hi <= *lo) *hi = *lo + 1;
}

static int gpu_ranks(int dev) {
  int L = local_size(), n = 0, lo, hi;
  if (shared_g <= 0) return L;
  for (int l = 0; l < L; l++) {
    share_of(l, L, shared_g, &lo, &hi);
    n += dev >= lo && dev < hi;
  }
  return n > 0 ? n : 1;
}

static void share_gpus(ndt__devspec *d, const char *what) {
  int g = (int)ndt__env_int("NDTILE_GPUS_PER_NODE", 0);
  shared_g = 0;
  if (g <= 0 || d->n > 0) return;
  shared_g = g;
  int l = ndt__comm_local_rank_, L = local_size(), lo, hi;
  share_of(l, L, g, &lo, &hi);
  for (int i = lo; i < hi && d->n < NDT__MAX_DEVS; i++) d->index[d->n++] = i;
  char which[32];
  if (d->n > 1) snprintf(which, sizeof which, "GPUs %d-%d", lo, lo + d->n - 1);
  else snprintf(which, sizeof which, "GPU %d", lo);
  ndt__verbose("%s: rank %d of %d on this node takes %s of %d (NDTILE_GPUS_PER_NODE)", what,
               l, L, which, g);
}

static void start_cuda(const ndt__devspec *d0, const char *what) {
  ndt__devspec share = *d0, *d = &share;
  share_gpus(d, what);
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
      for (int i = before; i < ndt__proc_count(); i++) ndt__dev_add(ndt__proc_get(i), "sim");
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
