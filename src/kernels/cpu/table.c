/* table.c - the CPU backend's kernel table, filled as BLIS fills a context:
 * the portable entries first, then the SIMD copies this CPU supports. This
 * is the one place that picks kernels by CPU feature (cpu.h: "SIMD copies,
 * installed at start-up"); it runs before main (a constructor) and again
 * when a test caps the SIMD level (ndt__cpu_set_simd_level). What cannot be
 * a table entry - the elementwise loops resolve.c hands out, the pieces
 * inside the random and reduction kernels - reads the state installed
 * here (ndt_cpu_level, ndt_cpu_copies, ndt__cpu_rng), never the CPU. */
#include "internal.h"
#include "cpu.h"

static const ndt_kernels portable = {
  .version = NDT_KERNELS_VERSION,
  .name = "cpu",
  .cast = ndt__cpu_cast,
  .loop = ndt__cpu_loop,
  .loop_varying = ndt__cpu_loop_varying,
  .reduce = ndt__cpu_reduce_kernel,
  .arg = ndt__cpu_arg_kernel,
  .sort = ndt__cpu_sort,
  .sort_linear = ndt__cpu_sort_linear,
  .select = ndt__cpu_select,
  .search = ndt__cpu_search,
  .bins = ndt__cpu_bins,
  .count = ndt__cpu_count,
  .block_sum = ndt__cpu_block_sum,
  .nonzero = ndt__cpu_nonzero,
  .copy2d = ndt__cpu_copy2d,
  .gather = ndt__cpu_gather,
  .put = ndt__cpu_put,
  .range = ndt__cpu_range,
  .scan = ndt__cpu_scan,
  .corr = ndt__cpu_corr,
  .gemm = ndt__cpu_gemm,
  .gemv = ndt__cpu_gemv,
  .lapack = &ndt__cpu_lapack,
  .fft_plan_bytes = ndt__cpu_fft_plan_bytes,
  .fft_plan_build = ndt__cpu_fft_plan_build,
  .fft_work = ndt__cpu_fft_work,
  .fft_batchable = ndt__cpu_fft_batchable,
  .fft_lines = ndt__cpu_fft_lines,
  .rng_fill = ndt__cpu_rng_fill,
  .rng_store = ndt__cpu_rng_store,
  .rng_one = ndt__cpu_rng_one,
  .rng_permutation = ndt__cpu_rng_permutation,
};

static ndt_kernels cpu;
const ndt_kernels *ndt__kern = &portable;
_Atomic int ndt_cpu_level_now, ndt_cpu_copies_now;   /* 0: portable until installed */

int ndt__cpu_kernels_install(void) {
  int lv = ndt__cpu_simd_level(), cap = ndt__cpu_simd_cap();
  /* the copies of the plain loops need AVX2 or AVX-512F alone (no FMA):
   * what target_clones picked before the table, now also under the cap */
  int copies = ndt__cpu_has_avx512f() ? 3 : ndt__cpu_has_avx2() ? 2 : 0;
  if (copies > cap) copies = cap >= 2 ? cap : 0;
  atomic_store_explicit(&ndt_cpu_level_now, lv, memory_order_relaxed);
  atomic_store_explicit(&ndt_cpu_copies_now, copies, memory_order_relaxed);
  ndt_kernels k = portable;
  /* correlate: AVX2 without FMA gives the portable loops' bits */
  if (copies >= 2) k.corr = ndt__cpu_corr_avx2;
  ndt__cpu_rng_install(lv);   /* Philox and samplers: AVX2 (with FMA) / AVX-512 copies */
  cpu = k;
  ndt__kern = &cpu;
  return lv;
}

__attribute__((constructor)) static void install_at_start(void) { ndt__cpu_kernels_install(); }

int ndt__cpu_set_simd_level(int level) {
  if (level < 0) return ndt__cpu_simd_level();
  ndt__cpu_cap_simd(level);
  return ndt__cpu_kernels_install();   /* the table follows the cap */
}
