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
static int gpu_ranks_id(int dev, const char *bus_id);
static const ndt_plugin_host plugin_host = {
    .api = NDT_PLUGIN_API, .mem_register = ndt__mem_register,
    .proc_register = host_proc_register, .cpu_launch = host_cpu_launch, .error = host_error,
    .alloc_fails = ndt__dev_alloc_fails, .verbose = host_verbose, .env_size = host_env_size,
    .cpu_level = host_cpu_level, .view_tiles = ndt__view_tiles, .gpu_ranks = gpu_ranks,
    .gpu_ranks_id = gpu_ranks_id};

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

/* ---- the node's GPUs by PCI bus id ----
 * A scheduler may give each rank a GPU of its own through
 * CUDA_VISIBLE_DEVICES: every rank's GPU is then its device 0, and only the
 * bus id tells the cards apart. Before the plugin starts, each rank asks it
 * the bus ids of the devices it will open (ndt_plugin.bus_ids, no MPI) and
 * the node's ranks gather them (ndt__comm_node_gather): every rank of the
 * node takes part, whatever it asked for (none, sim, a missing plugin: an
 * empty list), so the collective matches, and every rank gets the same
 * table. gpu_ranks_id then counts, without MPI, the ranks whose list holds a
 * bus id: the same answer on every rank of the node. */
typedef struct {
  int32_t n;                                /* its distinct bus ids; -1: cannot tell */
  char id[NDT__MAX_DEVS][NDT_BUS_ID];
} rank_gpus;
static rank_gpus *node_gpus;   /* one a local rank; NULL: not gathered */
static int node_gpus_n, node_unknown;

static void gather_bus_ids(const ndt_plugin *pl, const ndt__devspec *d) {
  rank_gpus mine;
  memset(&mine, 0, sizeof mine);
  if (pl && pl->bus_ids) {
    char bus[NDT__MAX_DEVS][NDT_BUS_ID];
    int k = pl->bus_ids(d->index, d->n, bus, NDT__MAX_DEVS);
    if (k < 0) mine.n = -1;
    for (int i = 0; i < k; i++) {   /* (cuda:0,cuda:0: one card, one rank) */
      bus[i][NDT_BUS_ID - 1] = 0;
      int seen = 0;
      for (int j = 0; j < mine.n && !seen; j++) seen = !strcmp(mine.id[j], bus[i]);
      if (!seen) memcpy(mine.id[mine.n++], bus[i], NDT_BUS_ID);
    }
  } else if (pl) {
    mine.n = -1;   /* a plugin that cannot tell: ordinals for every rank */
  }
  int L = local_size();
  free(node_gpus);
  rank_gpus *tmp = node_gpus = malloc((size_t)L * sizeof *tmp);   /* (plain: see comm.c) */
  if (!tmp) {   /* a rank that cannot take part would leave the others waiting */
    fprintf(stderr, "ndtile: cannot allocate the node's GPU table\n");
    ndt_abort(71);
  }
  ndt__comm_node_gather(&mine, (int64_t)sizeof mine, tmp);
  node_gpus_n = L;
  node_unknown = 0;
  for (int r = 0; r < L; r++) node_unknown |= tmp[r].n < 0;
  if (L > 1) {
    char line[512];
    size_t at = 0;
    for (int r = 0; r < L && at < sizeof line; r++) {
      at += (size_t)snprintf(line + at, sizeof line - at, "%srank %d:", r ? "; " : "", r);
      if (tmp[r].n < 0 && at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, " ?");
      for (int j = 0; j < tmp[r].n && at < sizeof line; j++)
        at += (size_t)snprintf(line + at, sizeof line - at, " %.*s", NDT_BUS_ID, tmp[r].id[j]);
    }
    ndt__verbose("the GPUs of this node's %d ranks by PCI bus id: %s", L, line);
  }
}

static int gpu_ranks_id(int dev, const char *bus_id) {
  NDT_UNUSED(dev);
  if (!node_gpus || node_unknown || !bus_id || !*bus_id) return 0;
  int n = 0;
  for (int r = 0; r < node_gpus_n; r++)
    for (int j = 0; j < node_gpus[r].n; j++)
      if (!strncmp(node_gpus[r].id[j], bus_id, NDT_BUS_ID)) {
        n++;
        break;
      }
  return n;   /* (0: not among this rank's, as told: the plugin asks gpu_ranks) */
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

/* The CUDA plugin, loaded and checked; NULL with the reason said. */
static const ndt_plugin *load_cuda(const char *what) {
  void *h = open_plugin();
  if (!h) {
    ndt__verbose("%s: no CUDA plugin (%s); running on CPUs", what, note);
    return NULL;
  }
  ndt_plugin_entry_fn entry = (ndt_plugin_entry_fn)dlsym(h, NDT_PLUGIN_ENTRY);
  const ndt_plugin *pl = entry ? entry() : NULL;
  if (!pl || pl->api != NDT_PLUGIN_API) {
    snprintf(note, sizeof note, "the CUDA plugin has no %s of API %d", NDT_PLUGIN_ENTRY,
             NDT_PLUGIN_API);
    ndt__verbose("%s: %s; running on CPUs", what, note);
    dlclose(h);
    return NULL;
  }
  return pl;   /* (it stays loaded: its libraries may not unload cleanly) */
}

static void start_cuda(const ndt_plugin *pl, const ndt__devspec *d, const char *what) {
  char why[256] = "";
  cur_kind = "cuda";
  int n = pl->start(&plugin_host, d->index, d->n, why, sizeof why);
  if (n <= 0) {
    snprintf(note, sizeof note, "%.255s", why[0] ? why : "no CUDA device");
    ndt__verbose("%s: %s; running on CPUs", what, note);
    return;
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
      d = (ndt__devspec){.kind = NDT__DEVS_NONE};   /* (still gathers, below) */
    }
  } else if (sim && *sim && strcmp(sim, "0")) {
    d.kind = NDT__DEVS_SIM;
    d.n = 1;
  }
  char what[160];
  snprintf(what, sizeof what, "NDTILE_DEVICES=%s", text && *text ? text : "sim:1");
  /* every rank of the node gathers the bus ids, whatever it asked for */
  const ndt_plugin *pl = NULL;
  if (d.kind == NDT__DEVS_CUDA || d.kind == NDT__DEVS_AUTO) {
    share_gpus(&d, what);
    pl = load_cuda(what);
  }
  gather_bus_ids(pl, &d);
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
      if (pl) start_cuda(pl, &d, what);
      break;
    default:
      break;
  }
}
