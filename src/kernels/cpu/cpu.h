/* cpu.h - the CPU backend's entries and internal pieces, for table.c and
 * the kernel files that share them. Not for src/ops (which goes through
 * ndt__kern). */
#ifndef NDT_KERNELS_CPU_H
#define NDT_KERNELS_CPU_H

#include <stdatomic.h>
#include "kernels/table.h"

/* ---- SIMD copies, installed at start-up -------------------------------
 * The one CPU-feature dispatch method: a kernel with SIMD copies is built
 * once per instruction set (NDT_COPIES), and table.c installs, once at
 * start-up (and when a test caps the level), the copies this CPU runs -
 * as table entries, or as the state below for the loops that pick a
 * variant per call. Copies of one kernel compute the same bits (the same
 * IEEE operations in the same order, no contraction); they differ in
 * vector width alone, unless a kernel says otherwise (the FMA variants of
 * complex multiply, which NumPy's loops also take on FMA hardware).
 *
 * NDT_COPIES(DEF, args...) expands DEF(V, ATTR, args...) for the portable
 * copy (V and ATTR empty) and, on x86-64 with GCC, for V = _avx2 and
 * _avx512 with their target attributes. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define NDT_SIMD_COPIES 1
#define NDT_AVX2 __attribute__((target("avx2")))
#define NDT_AVX512 __attribute__((target("avx512f")))
#define NDT_COPIES(DEF, ...) \
  DEF(, , __VA_ARGS__) DEF(_avx2, NDT_AVX2, __VA_ARGS__) DEF(_avx512, NDT_AVX512, __VA_ARGS__)
#else
#define NDT_SIMD_COPIES 0
#define NDT_COPIES(DEF, ...) DEF(, , __VA_ARGS__)
#endif

/* What is installed: the SIMD level (0 scalar, 1 SSE2, 2 AVX2+FMA,
 * 3 AVX-512F: which SLEEF kernels and FMA variants run), and the copies of
 * the plain loops (NDT_COPIES: 0 portable, 2 AVX2, 3 AVX-512F; they need
 * AVX2 alone, not FMA). */
extern _Atomic int ndt_cpu_level_now, ndt_cpu_copies_now;
static inline int ndt_cpu_level(void) {
  return atomic_load_explicit(&ndt_cpu_level_now, memory_order_relaxed);
}
static inline int ndt_cpu_copies(void) {
  return atomic_load_explicit(&ndt_cpu_copies_now, memory_order_relaxed);
}
/* The installed copy of a kernel F made by NDT_COPIES. */
#if NDT_SIMD_COPIES
#define NDT_PICK(F) (ndt_cpu_copies() >= 3 ? F##_avx512 : ndt_cpu_copies() >= 2 ? F##_avx2 : F)
#else
#define NDT_PICK(F) (F)
#endif

/* sort.c */
ndt_sort_fn ndt__cpu_sort(ndt_dtype t, int indices);
int ndt__cpu_sort_linear(ndt_dtype t, void *k, int64_t *ix, void *kt, int64_t *it, int64_t n);
ndt_select_fn ndt__cpu_select(ndt_dtype t, int indices);
/* search.c */
ndt_search_fn ndt__cpu_search(ndt_dtype t);
ndt_bins_fn ndt__cpu_bins(ndt_dtype t);
/* scan.c */
void ndt__cpu_scan(ndt_dtype t, ndt_scan_fn *s, ndt_comb_fn *c);
/* corr.c: the portable loops, and their AVX2 copies (NULL off x86) */
ndt_corr_fn ndt__cpu_corr(ndt_dtype t);
ndt_corr_fn ndt__cpu_corr_avx2(ndt_dtype t);
/* count.c */
void ndt__cpu_count(void *hist, const int64_t *ix, const double *w, int64_t m, int64_t nb);
void ndt__cpu_block_sum(ndt_dtype t, void *out, int64_t os, const void *parts,
                        int64_t nblocks, int64_t n);
int64_t ndt__cpu_nonzero(ndt_dtype t, const char *p, int nd, const int64_t *shape,
                         const int64_t *st, const int64_t *start, int64_t *dst);
void ndt__cpu_copy2d(int64_t R, int64_t C, const char *src, int64_t srs, int64_t scs,
                     ndt_dtype sdt, char *dst, int64_t drs, int64_t dcs, ndt_dtype ddt);
/* index.c */
int ndt__cpu_gather(const ndt_gather_desc *d, int64_t *bad, int *axis);
int ndt__cpu_put(const ndt_put_desc *d, int64_t *bad);
void ndt__cpu_range(const ndt_range_desc *a, int64_t first, int64_t n, ndt_dtype t, char *out,
                    int64_t os);
/* gemm.c (floats through BLAS) */
ndt_gemm_fn ndt__cpu_gemm(ndt_dtype t);
ndt_gemv_fn ndt__cpu_gemv(ndt_dtype t);
/* lapack.c */
extern const ndt_lapack ndt__cpu_lapack;
/* fft.c */
int64_t ndt__cpu_fft_plan_bytes(int64_t n, int half);
int ndt__cpu_fft_plan_build(void *plan, int64_t n, int half);
int64_t ndt__cpu_fft_work(const void *plan);
int ndt__cpu_fft_batchable(const void *plan);
void ndt__cpu_fft_lines(const ndt_fft_desc *d, const char *ip, int64_t is, int64_t ig, char *op,
                       int64_t os, int64_t og, int64_t cnt, void *x, void *y, void *w);
/* random.c */
void ndt__cpu_rng_fill(const ndt_rng_params *q, const ndt_rng_key *k, int64_t f0, int m,
                      double *dbl, uint64_t *u64, ndt_rng_blocks *b);
void ndt__cpu_rng_store(ndt_dtype t, char *dst, const double *dbl, const uint64_t *u64, int m);
void ndt__cpu_rng_one(ndt_rng_dist dist, const ndt_rng_key *k, uint64_t pos, double x, double y,
                     int64_t nx, double *dv, uint64_t *uv);
int ndt__cpu_rng_permutation(const ndt_rng_key *k, int64_t n, int64_t *dst);
/* The pieces of random.c that have SIMD copies (the same bits at every
 * level), installed with the table for the level in force. */
typedef struct {
  void (*philox)(const ndt_rng_key *k, uint64_t p0, uint32_t sub, int n, ndt_rng_blocks *b);
  void (*fixed)(ndt_rng_fixed kind, const ndt_rng_key *k, uint64_t f, int m, double loc,
                double scale, double *dst, ndt_rng_blocks *b);
  void (*first_try)(ndt_rng_try kind, const ndt_rng_params *q, const ndt_rng_blocks *b, int m,
                    double *val);
} ndt_cpu_rng_uk;
extern ndt_cpu_rng_uk ndt__cpu_rng;
void ndt__cpu_rng_install(int level);

/* loops_math.c: the SIMD level (0 scalar, 1 SSE2, 2 AVX2+FMA,
 * 3 AVX-512F; the CPU's, capped by the test hook ndt__cpu_set_simd_level),
 * the cap alone, and whether the CPU has AVX2 / AVX-512F. The table reads
 * these when it installs; kernels read what it installed (above). */
int ndt__cpu_simd_level(void);
int ndt__cpu_simd_cap(void);
void ndt__cpu_cap_simd(int level);   /* loops_math.c: the cap itself */
int ndt__cpu_set_simd_level(int level);   /* table.c: the test hook */
int ndt__cpu_has_avx2(void);
int ndt__cpu_has_avx512f(void);

#endif
