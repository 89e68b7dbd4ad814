/* table.h - one backend's kernels as one table (BLIS's context, ggml's
 * backend interface): src/ops decomposes work into tasks and every task
 * body reaches its kernel through `ndt__kern`, never by a direct call.
 *
 * A backend fills an ndt_kernels in two steps: its portable entries first
 * (every member set, so a lookup never returns NULL for a valid request),
 * then the overrides its processor supports (SIMD copies on the CPU),
 * installed once at start-up. The CPU table is src/kernels/cpu/table.c;
 * a later backend adds src/kernels/<name>/table.c with its own fill.
 *
 * Every family speaks pointers, lengths and byte strides (or element
 * strides where a family says so), never tiles, stores or arrays. Kernels
 * do not allocate, except where a family says it (the radix sort's counts,
 * an FFT plan's twiddles); scratch a kernel needs comes from the caller.
 * Families, in the order of the table:
 *   cast, loop, reduce, arg   per-dtype elementwise loops (kernels.h)
 *   sort, select             one line: a stable sort, an introselect
 *   search, bins             searchsorted and uniform-bin histogram indices
 *   count, block_sum         histogram accumulation; block-ordered sums of
 *                            partial results (bincount, histogram, the
 *                            matrix-vector product's column blocks)
 *   nonzero                  the non-zero scan of one block (argwhere)
 *   copy2d                   a 2-d strided copy with a cast (matmul's packing
 *                            and transfers)
 *   gather, put, range       advanced-index reads, put and ufunc.at (by
 *                            flat index, in order), arange's values
 *   scan                     cumulative sum / product / max / ... of one run
 *   corr                     1-d correlation by the direct sum
 *   gemm, gemv               matrix products of every dtype (floats and
 *                            complex through BLAS on the CPU), the float
 *                            matrix-vector product
 *   lapack                   the LAPACK routines of numpy.linalg (lapack.h)
 *   fft_*                    plans and lines of the FFT
 *   rng_*                    Philox fills and samplers (rng.h)
 */
#ifndef NDT_KERNELS_TABLE_H
#define NDT_KERNELS_TABLE_H

#include <limits.h>
#include <stdint.h>
#include "kernels.h"

#define NDT_KERNELS_VERSION 6

/* ---- sort and select (one line of n contiguous keys) --------------------- */
/* Sorts keys k[0..n) stably in NumPy's order (NaNs last), moving the
 * indices ix along when ix != NULL; kt and it are scratch of the same sizes
 * (it only with ix). */
typedef void (*ndt_sort_fn)(void *k, int64_t *ix, void *kt, int64_t *it, int64_t n);
/* Introselect on [lo, hi): k[kth] becomes what a full sort puts there, the
 * keys before it not greater, after it not less (ix moves along when not
 * NULL). Every upper bound it narrows to is appended to splits[] (up to
 * NDT_SELECT_MAXSPLIT, count *ns) so later, larger kth search less. */
#define NDT_SELECT_MAXSPLIT 128
typedef void (*ndt_select_fn)(void *k, int64_t *ix, int64_t lo, int64_t hi, int64_t kth,
                              int64_t *splits, int *ns);

/* ---- search -------------------------------------------------------------- */
/* A 1-d sorted array (or edges) as the searching kernels read it: elements
 * at base + i * bs when it lies in one piece of memory, else at(ctx, i). */
typedef struct {
  const char *base;
  int64_t bs, n;
  const char *(*at)(const void *ctx, int64_t i);
  const void *ctx;
} ndt_kread;
static inline const char *ndt_kread_at(const ndt_kread *r, int64_t i) {
  return r->base ? r->base + i * r->bs : r->at(r->ctx, i);
}
/* out[j] = first i in [0, n) with !(a[i] < v[j]) (left) or v[j] < a[i]
 * (right), n when there is none; values v at vp, byte stride vs. */
typedef void (*ndt_search_fn)(const ndt_kread *a, const char *vp, int64_t vs, int64_t m,
                              int right, int64_t *out);
/* NumPy's uniform-bin index (numpy/lib/_histograms_impl.py) of m values x
 * (contiguous, in the edges' dtype, float32 or float64); single_d/single_f:
 * the offset / the scaling in float32. Values outside [first, last] get
 * bin nbins = edges->n - 1. */
typedef struct {
  double first, last, denom;
  int single_d, single_f;
} ndt_bins_desc;
typedef void (*ndt_bins_fn)(const ndt_kread *edges, const ndt_bins_desc *d, const void *x,
                            int64_t m, int64_t *out);

/* ---- counting ------------------------------------------------------------ */
/* hist[ix[i]] += w[i] (double hist) or += 1 (int64 hist, w NULL), i < m;
 * nb >= 0: indices outside [0, nb) are skipped; nb < 0: every index is in
 * range. */
typedef void (*ndt_count_fn)(void *hist, const int64_t *ix, const double *w, int64_t m,
                             int64_t nb);
/* out[i * os] = the sum over k < nblocks of parts[k * n + i] for i < n,
 * added from 0 in block order (the same bits for any number of workers or
 * ranks); t is NDT_INT64 (counts), NDT_FLOAT64 (weighted counts, float64
 * partial products) or NDT_FLOAT32; os is the out stride in bytes. */
typedef void (*ndt_block_sum_fn)(ndt_dtype t, void *out, int64_t os, const void *parts,
                                 int64_t nblocks, int64_t n);
/* The non-zero elements of an nd-d block of dtype t at p (byte strides st)
 * in C order: returns their count, and with dst != NULL writes their
 * indices (start[k] plus the index along k, nd per element). */
typedef int64_t (*ndt_nonzero_fn)(ndt_dtype t, const char *p, int nd, const int64_t *shape,
                                  const int64_t *st, const int64_t *start, int64_t *dst);

/* ---- copy ------------------------------------------------------------------ */
/* dst = src, R x C elements, byte strides, cast from sdt to ddt. */
typedef void (*ndt_copy2d_fn)(int64_t R, int64_t C, const char *src, int64_t srs, int64_t scs,
                              ndt_dtype sdt, char *dst, int64_t drs, int64_t dcs, ndt_dtype ddt);

/* ---- indexing: gather, put, range ----------------------------------------- */
/* Store elements as the indexing kernels reach them, by store offset f: at
 * base + (f - first) * es when they lie in one piece of memory; else (base
 * NULL) at at(ctx, f, &lo, &hi), which also says which store offsets
 * [lo, hi) lie in the same piece, at the same stride es (the runtime's walk
 * across tiles: a kernel keeps the last piece and calls again only when an
 * element lies outside it; a GPU backend binds its operands in one piece). */
typedef struct {
  char *base;
  int64_t first, es;
  char *(*at)(const void *ctx, int64_t f, int64_t *lo, int64_t *hi);
  const void *ctx;
} ndt_kwalk;
/* out[p] = a[idx_0[p], ..., idx_{nk-1}[p]] for each position p of an
 * nd-axis block in C order: index array k at idx[k] with byte strides
 * ist[k] and any integer dtype it[k] (read as int64); out with byte
 * strides ost; the source view a at element offset aoff, its shape
 * (the bounds) and element strides ast; elements of isz bytes. */
typedef struct {
  int nd, nk, isz;
  const int64_t *shape, *ost;
  char *out;
  const char *idx[NDT_MAXDIMS];
  const int64_t *ist[NDT_MAXDIMS];
  ndt_dtype it[NDT_MAXDIMS];
  int64_t aoff;
  const int64_t *ashape, *ast;
  ndt_kwalk src;
} ndt_gather_desc;
/* Returns 0, or -1 at the first index out of bounds (*bad its value,
 * *axis its k); the positions before it are written. */
typedef int (*ndt_gather_fn)(const ndt_gather_desc *d, int64_t *bad, int *axis);
/* a.flat[idx[e]] for e < n in order (NumPy's put and ufunc.at): flat index
 * i (int64 at idx, byte stride is) is element off + unravel(i) . st of a
 * view of nd axes of that shape and element strides (size elements); only
 * store offsets in [lo, hi) are touched, through dst. With fn NULL the
 * element becomes vals[e] (byte stride vs, isz bytes); else it is updated
 * in place by the ufunc loop fn of nin inputs on loop dtypes loop[]
 * (element, then vals[e] when nin == 2), cast to loop[0] by to_loop and
 * back from loop[nin] by from_loop when they are not NULL (op says which
 * ufunc: float add runs without a loop call, with the same bits). */
typedef struct {
  int64_t n, is, vs, size, off, lo, hi;
  const char *idx, *vals;
  int nd, isz;
  const int64_t *shape, *st;
  ndt_kwalk dst;
  ndt_loop_fn fn;
  int nin;
  ndt_ufunc op;
  ndt_dtype loop[3];
  ndt_cast_fn to_loop, from_loop;
} ndt_put_desc;
/* Checks every index first: returns -1 with *bad the first one outside
 * [0, size), nothing written; else 0. */
typedef int (*ndt_put_fn)(const ndt_put_desc *d, int64_t *bad);
/* Elements [first, first + n) of a range, stored as dtype t at out (byte
 * stride os): start + i * step in float64 (in float32 when as_f32, as
 * NumPy computes float32 ranges), or istart + i * istep wrapping in int64
 * (as_int); when has_v1 (arange) element 0 is start itself and element 1
 * is v1 (start + step itself).
 * With div != 0 a float element is start + (i / div) * step (NumPy's
 * linspace when (stop - start) / div underflows to zero: step is then the
 * whole distance stop - start). */
typedef struct {
  int as_int, as_f32, has_v1;
  double v1, start, step;
  int64_t istart, istep;
  double div;
} ndt_range_desc;
typedef void (*ndt_range_fn)(const ndt_range_desc *d, int64_t first, int64_t n, ndt_dtype t,
                             char *out, int64_t os);

/* ---- scan ---------------------------------------------------------------- */
/* scan: out[i*os] = acc (op) x[i] over m contiguous values; *started == 0
 * means no element seen yet (the first is copied, as NumPy's loop does);
 * nan: NaNs count as the identity (sums and products only). comb:
 * r[i*rs] = *c (op) r[i*rs] (not for NDT_SK_SUB, which is not associative:
 * its blocks run in sequence). op is one of: */
enum {
  NDT_SK_ADD = 0, NDT_SK_MUL = 1,  /* sum, product (bool: or, and) */
  NDT_SK_MAX, NDT_SK_MIN,           /* NumPy's maximum/minimum: NaN propagates */
  NDT_SK_FMAX, NDT_SK_FMIN,         /* fmax/fmin: NaN ignored */
  NDT_SK_AND, NDT_SK_OR, NDT_SK_XOR, /* bitwise (bool and integers only) */
  NDT_SK_SUB                        /* acc - x */
};
typedef void (*ndt_scan_fn)(const char *x, int64_t m, void *acc, int *started, char *out,
                            int64_t os, int op, int nan);
typedef void (*ndt_comb_fn)(const char *c, char *r, int64_t rs, int64_t n, int op);

/* ---- correlate ------------------------------------------------------------ */
/* Outputs [0, n): out[i] sums a[first+i+j] * w(v[j]) over j < m in order,
 * for the a indices inside [alo, ahi) (a points at a[alo], contiguous).
 * Complex data come split (all real parts, then all imaginary parts; the
 * output interleaved); cj conjugates v. int64 runs as uint64. */
typedef void (*ndt_corr_fn)(const void *a, int64_t alo, int64_t ahi, const void *v, int64_t m,
                            int64_t first, int64_t n, int cj, void *out);

/* ---- gemm ------------------------------------------------------------------ */
/* A matrix: pointer and strides in elements. */
typedef struct {
  char *p;
  int64_t rs, cs;
} ndt_mat;
/* c (+)= a @ b for R x K times K x C (acc: add to c, else overwrite).
 * Integers in an unsigned type of the width: wraps as NumPy's integers;
 * bool is or-of-and; any strides. Float and complex: BLAS's rules, each
 * matrix in a BLAS layout (ndt_mat_blas_ok). */
typedef void (*ndt_gemm_fn)(int64_t R, int64_t C, int64_t K, ndt_mat a, ndt_mat b, ndt_mat c,
                            int acc);
/* y = A x (trans: A^T x) for a row-major rows x cols float matrix with
 * leading dimension lda (elements), x contiguous, y at element stride incy. */
typedef void (*ndt_gemv_fn)(int trans, int64_t rows, int64_t cols, const char *a, int64_t lda,
                            const char *x, char *y, int64_t incy);
/* Whether (R x C) with element strides rs, cs is a BLAS matrix: one unit
 * stride and a leading dimension that fits. Strides that do not matter (a
 * single row or column) are set to make it so. */
static inline int ndt_mat_blas_ok(int64_t R, int64_t C, int64_t *rs, int64_t *cs) {
  int64_t c1 = C > 1 ? C : 1, r1 = R > 1 ? R : 1;
  if (R == 1) *rs = *cs == 1 ? c1 : 1;
  if (C == 1) *cs = *rs == 1 ? r1 : 1;
  int ok = (*cs == 1 && *rs >= c1) || (*rs == 1 && *cs >= r1);
  return ok && *rs <= INT_MAX && *cs <= INT_MAX && R <= INT_MAX && C <= INT_MAX;
}

/* ---- FFT ---------------------------------------------------------------- */
/* A plan lives in one caller-provided buffer of fft_plan_bytes(n, half)
 * bytes (no pointers inside). half: a real transform of even length n runs
 * as a complex one of n/2. */
typedef struct {
  int kind, half;      /* kind: NDT_FFT_* */
  int batch;           /* lines go interleaved, cnt at a time (fft_batchable plans) */
  int64_t n, nload;    /* transform length; input values read per line */
  double scale;
  ndt_dtype in, out;
  const void *plan;
} ndt_fft_desc;

/* ---- LAPACK ------------------------------------------------------------- */
#include "lapack.h"

/* ---- random ------------------------------------------------------------ */
#include "rng.h"

typedef struct ndt_kernels {
  int version; /* NDT_KERNELS_VERSION */
  const char *name;
  /* elementwise: casts, ufunc loops, reductions. loop: the loop for op on
   * the dtypes the core resolved (ndt_ufunc_resolve: inputs, then output),
   * NULL for none */
  ndt_cast_fn (*cast)(ndt_dtype from, ndt_dtype to);
  ndt_loop_fn (*loop)(ndt_ufunc op, const ndt_dtype *loop_types);
  /* the loop for op when its second input varies over the call (is not
   * one value broadcast over all of it), where `loop`'s takes a fast path
   * for a second input constant along its run that NumPy takes only for
   * one constant over the whole call (power's exponent 0.5 as sqrt:
   * (-inf) ** 0.5 is nan there, inf through pow); NULL: `loop`'s serves */
  ndt_loop_fn (*loop_varying)(ndt_ufunc op, const ndt_dtype *loop_types);
  int (*reduce)(ndt_reduce_op op, ndt_dtype t, ndt_red_kernel *k);
  ndt_arg_fn (*arg)(ndt_reduce_op op, ndt_dtype t);
  /* lines; indices: with an index array moved along */
  ndt_sort_fn (*sort)(ndt_dtype t, int indices);
  /* a linear sort (radix) of n keys, as sort's; returns 0, or -1 when it
   * does not apply (dtype, short line, no memory: keys as they were) */
  int (*sort_linear)(ndt_dtype t, void *k, int64_t *ix, void *kt, int64_t *it, int64_t n);
  ndt_select_fn (*select)(ndt_dtype t, int indices);
  ndt_search_fn (*search)(ndt_dtype t);
  ndt_bins_fn (*bins)(ndt_dtype t);
  ndt_count_fn count;
  ndt_block_sum_fn block_sum;
  ndt_nonzero_fn nonzero;
  ndt_copy2d_fn copy2d;
  /* indexing: advanced-index reads, put / ufunc.at, arange's values */
  ndt_gather_fn gather;
  ndt_put_fn put;
  ndt_range_fn range;
  /* scan and combine of the accumulator dtype t */
  void (*scan)(ndt_dtype t, ndt_scan_fn *scan, ndt_comb_fn *comb);
  ndt_corr_fn (*corr)(ndt_dtype t);
  /* products: NULL for a dtype without one (gemv: float32/float64 only) */
  ndt_gemm_fn (*gemm)(ndt_dtype t);
  ndt_gemv_fn (*gemv)(ndt_dtype t);
  /* numpy.linalg's factorisations (lapack.h) */
  const ndt_lapack *lapack;
  /* FFT: plan size and construction (0, or -1: no memory), the scratch a
   * line needs besides its two line buffers (in complex128), whether lines
   * may be batched, and cnt lines at ip + g*ig -> op + g*og (cnt > 1 only
   * with d->batch; x, y: buffers of n*cnt complex128, w: the work). */
  int64_t (*fft_plan_bytes)(int64_t n, int half);
  int (*fft_plan_build)(void *plan, int64_t n, int half);
  int64_t (*fft_work)(const void *plan);
  int (*fft_batchable)(const void *plan);
  void (*fft_lines)(const ndt_fft_desc *d, const char *ip, int64_t is, int64_t ig, char *op,
                    int64_t os, int64_t og, int64_t cnt, void *x, void *y, void *w);
  /* random (rng.h): elements [f0, f0 + m) of a fill into dbl (float
   * results) or u64 (integer results), b: NDT_RNG_NPRE blocks of scratch;
   * those values stored as dtype t; one element with its own (checked)
   * parameters; a permutation of n (0, or -1: no memory) */
  void (*rng_fill)(const ndt_rng_params *q, const ndt_rng_key *k, int64_t f0, int m,
                   double *dbl, uint64_t *u64, ndt_rng_blocks *b);
  void (*rng_store)(ndt_dtype t, char *dst, const double *dbl, const uint64_t *u64, int m);
  void (*rng_one)(ndt_rng_dist dist, const ndt_rng_key *k, uint64_t pos, double x, double y,
                  int64_t nx, double *dv, uint64_t *uv);
  int (*rng_permutation)(const ndt_rng_key *k, int64_t n, int64_t *dst);
} ndt_kernels;

/* The table task bodies call through. Filled before main (the CPU's
 * portable entries, then its SIMD overrides); never NULL. */
extern const ndt_kernels *ndt__kern;

/* The CPU backend (src/kernels/cpu/table.c): refills its table for the
 * SIMD level in force (ndt__cpu_simd_level: the CPU's, capped by the test
 * hook ndt__cpu_set_simd_level, which calls this) and returns that level. */
int ndt__cpu_kernels_install(void);

#endif
