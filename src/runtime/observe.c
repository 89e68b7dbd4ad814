/* observe.c - what the runtime can say about itself: the build
 * (ndt_build_info_get) and the memories (ndt_memory_stats_get), for
 * ndtile.show_config and ndtile.memory_stats. On top of the runtime's
 * files: it asks them all, none calls it. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sleef.h>
#include "blas.h"
#include "rt.h"
#ifdef NDT_HAVE_MPI
#include <mpi.h>
#endif

int ndt_memory_stats_get(int i, ndt_memory_stats *out) {
  ndt__runtime_ensure();   /* the memories register at start */
  ndt_memory *m = ndt__mem_by_id(i);
  if (!m) return -1;
  int64_t c[6];
  ndt__mem_counters(i, c);
  *out = (ndt_memory_stats){m->iface->name, c[0], c[1], c[2], c[3], c[4], c[5]};
  return 0;
}

/* The build, asked of the libraries themselves where they can say:
 * OpenBLAS its configuration and kernel family, the dynamic loader the file
 * it came from, MPI its version line (MPI_Get_library_version may be called
 * before MPI_Init). */
extern _Atomic int ndt_cpu_level_now;   /* the SIMD level installed (kernels/cpu/table.c) */
int ndt__cpu_set_simd_level(int level);   /* the cap (kernels/cpu/table.c) */

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

/* The SIMD cap of the tests (ndtile.h). */
int ndt_simd_cap(int level) {
  if (level < 0) return atomic_load_explicit(&ndt_cpu_level_now, memory_order_relaxed);
  return ndt__cpu_set_simd_level(level);
}
