/* settings.c - the runtime's settings: environment variables, the tile
 * size, the inline threshold and the look-ahead bounds. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sleef.h>
#include "blas.h"
#include "rt.h"
#ifdef NDT_HAVE_MPI
#include <mpi.h>
#endif

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
}

static void memstat_at_exit(void) {
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

/* ---- what this build is (ndt_build_info_get; ndtile.show_config) ----
 * Asked of the libraries themselves where they can say: OpenBLAS its
 * configuration and kernel family, the dynamic loader the file it came
 * from, MPI its version line (MPI_Get_library_version may be called before
 * MPI_Init). */
extern _Atomic int ndt_cpu_level_now;   /* the SIMD level installed (kernels/cpu/table.c) */

static const char *first_line(char *s) {
  char *nl = strchr(s, '\n');
  if (nl) *nl = 0;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) s[--n] = 0;
  return s;
}

void ndt_build_info_get(ndt_build_info *out) {
  static char sleef[32], blas_path[512], mpi_lib[256];
  ndt__runtime_ensure();
  memset(out, 0, sizeof *out);
#ifdef NDT_BLAS_PREFIX
  out->blas = "scipy-openblas32 (the OpenBLAS of the PyPI wheel, found by meson through Python)";
#else
  out->blas = "system OpenBLAS (found by meson: pkg-config or the linker)";
#endif
  ndt__blas_init();   /* the kernel family is settled there */
  const char *cfg = openblas_get_config(), *core = openblas_get_corename();
  out->blas_config = cfg ? cfg : "";
  out->blas_core = core ? core : "";
  Dl_info di;
  if (!blas_path[0] && dladdr((void *)&cblas_dgemm, &di) && di.dli_fname)
    snprintf(blas_path, sizeof blas_path, "%s", di.dli_fname);
  out->blas_path = blas_path;
  snprintf(sleef, sizeof sleef, "%d.%d.%d", SLEEF_VERSION_MAJOR, SLEEF_VERSION_MINOR,
           SLEEF_VERSION_PATCHLEVEL);
  out->sleef = sleef;
  static const char *simd_names[] = {"scalar", "SSE2", "AVX2+FMA", "AVX-512F"};
  int lv = atomic_load_explicit(&ndt_cpu_level_now, memory_order_relaxed);
  out->simd_level = lv;
  out->simd = lv >= 0 && lv <= 3 ? simd_names[lv] : "unknown";
#ifdef NDT_HAVE_MPI
  out->mpi = 1;
  if (!mpi_lib[0]) {
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (MPI_Get_library_version(v, &len) == MPI_SUCCESS) {
      v[len < (int)sizeof v ? len : (int)sizeof v - 1] = 0;
      snprintf(mpi_lib, sizeof mpi_lib, "%s", first_line(v));
    }
  }
#endif
  out->mpi_library = mpi_lib;
  out->rank = ndt_rank();
  out->ranks = ndt_nranks();
  out->workers = ndt_workers();
  out->tile_bytes = ndt__set_.tile_bytes;
  out->inline_elems = ndt__set_.inline_elems;
#ifdef __VERSION__
  out->compiler = __VERSION__;
#else
  out->compiler = "";
#endif
}
