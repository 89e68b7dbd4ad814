/* blas.c - setting up the BLAS that blas.h names: once per process, before
 * the first product or factorization (ndt__blas_init, called by matmul and
 * linalg). It sits beside blas.h, not in a backend's kernels: it
 * configures the linked library (threads, kernel family), computes nothing.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "blas.h"
#include "internal.h"

#ifndef NDT_BLAS_PREFIX
/* Exported by DYNAMIC_ARCH builds of OpenBLAS only (weak: absent elsewhere). */
extern void gotoblas_dynamic_init(void) __attribute__((weak));
extern void gotoblas_dynamic_quit(void) __attribute__((weak));
#endif

static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

static void blas_setup(void) {
  /* Our workers provide the parallelism; BLAS runs on the calling thread. */
  openblas_set_num_threads(1);
#if defined(__x86_64__) && defined(__GNUC__) && !defined(NDT_BLAS_PREFIX)
  /* (The scipy-openblas wheel is recent enough to know the CPU.) */
  /* An OpenBLAS older than the CPU falls back to its SSE3 "Prescott" kernels
   * (a quarter of the speed or less). Unless the user chose a core with
   * OPENBLAS_CORETYPE, pick the newest kernel family the CPU supports. */
  if (getenv("OPENBLAS_CORETYPE") || !gotoblas_dynamic_init || !gotoblas_dynamic_quit) return;
  const char *core = openblas_get_corename();
  static const char *old[] = {"Prescott", "Core2", "Penryn", "Dunnington", "Nehalem",
                              "Atom", "Katmai", "Coppermine", "Northwood", "Banias",
                              "Unknown"};
  int fallback = 0;
  for (size_t i = 0; core && i < sizeof old / sizeof old[0]; i++)
    if (!strcmp(core, old[i])) fallback = 1;
  if (!fallback) return;
  __builtin_cpu_init();
  const char *want = NULL;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512cd"))
    want = "SkylakeX";
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    want = "Haswell";
  else if (__builtin_cpu_supports("avx"))
    want = "Sandybridge";
  if (!want) return;
  setenv("OPENBLAS_CORETYPE", want, 1);
  gotoblas_dynamic_quit();
  gotoblas_dynamic_init();
  unsetenv("OPENBLAS_CORETYPE");
#endif
}

void ndt__blas_init(void) { pthread_once(&blas_once, blas_setup); }

