/* test_devkernels.c - the CUDA plugin's kernels, checked on the CPU.
 *
 * src/kernels/cuda/ew_impl.h and reduce_impl.h are the plugin's kernel
 * sources (elementwise.cu and reduce.cu are nvcc's view of them). Compiled
 * here as C with NDT_DK_HOST (kernels run on an emulated grid of blocks and
 * threads: every block and thread in turn) and NDT_SC_EMULATE (the scalar
 * functions infer the IEEE flags and give x86's NaNs as device code does),
 * every kernel is compared with the CPU's loop for the same op and dtypes:
 *   ew       every elementwise entry (the exact ufunc loops on all 13
 *            dtypes, ew_ops.h) over edge values (0, -0, +-1, +-inf, NaNs,
 *            min/max integers, shifts by the width and -1, subnormals,
 *            overflowing products, ...): every pair for binary ops, in
 *            three layouts (contiguous; several 2-d strided runs in one
 *            launch; a broadcast first operand); outputs bit for bit (two
 *            NaN results of an element with two NaN inputs count as equal:
 *            which payload x86 keeps then depends on operand order, see
 *            scalar.h), and, element by element, the divide/overflow/
 *            invalid flags the op reports (its fp mask)
 *   cast     the 169 casts over the same values, bit for bit, and the
 *            invalid/overflow flags each value raises
 *   pairwise the pairwise sum (NumPy's order) of float32/float64 runs and
 *            of complex64/complex128 ones (NumPy's complex tree), and the
 *            NaN-ignoring ones (nansum, NaNs of two payloads every 13th
 *            element), contiguous and strided, lengths around the block sizes: the
 *            shared function and the block-parallel kernel against the
 *            CPU's reduce kernel; runs of -0.0s from a run's start (-0.0,
 *            2.5, none: the leaves', a seeded block's, the identity)
 *   rng      the random fill (rng_impl.h) against the CPU's fill (rng_fill
 *            and rng_store of the kernel table, at every SIMD level):
 *            random, uniform, normal, exponential (float32, float64) and
 *            integers (every integer dtype and bool; spans below and above
 *            2^32, full ranges, a constant, spans whose products are
 *            rejected half the time, so the sub-streams run), several keys
 *            and draws in one launch, fills that start mid-block and
 *            mid-stream (positions across 2^32); bit for bit. And that
 *            the kernel refuses what it does not implement (gamma,
 *            poisson, binomial, a NaN loc, an infinite scale)
 *   fold     the other reductions (fold_impl.h: integer and bool sums and
 *            products, min/max, nanmin/nanmax, any/all, and the float and
 *            complex sums of a row fold) for every op, accumulator and
 *            input dtype the kernel takes (casts into the accumulator as the
 *            CPU's block body makes them), over edge values (NaNs of three
 *            payloads, -0.0 and 0.0, integer extremes) with and without
 *            zeros and NaNs, in both layouts (a line run per partial
 *            element: contiguous, strided 2-d and empty runs; column runs:
 *            C and Fortran order), on emulated blocks of 5 and 128
 *            threads, against the CPU's reduce kernel (k.run, k.acc) bit
 *            for bit, and the flags of the sums
 *   combine  the ordered folds into a result (combine_impl.h: the combine
 *            of partials, the direct fold, the float and complex products)
 *            for every op and accumulator the kernel takes, over the
 *            fold's edge values: a launch of three chains (a first run
 *            copied then rows folded from the identity; a chain going on
 *            from the result, a strided result, negative strides; one long
 *            column), against the CPU's k.acc (k.run for the unfused
 *            complex products) row after row, bit for bit, and the flags
 *            of the sums and products; and that reversing a chain's runs
 *            or folding its copied run changes the CPU's bits for the
 *            float sums and products (so a device that did that is caught)
 *   cbarg    the argmin/argmax combine (combine_impl.h's arg chains) of
 *            all 13 dtypes: two chains of (value, index) partials, some
 *            indices -1, a chain read backwards, against the CPU's ARG
 *            kernel one pair at a time (reduce.c's combine)
 *   arg      argmin/argmax (fold_impl.h) of all 13 dtypes over the same
 *            data, runs of one and several rows with their first indices,
 *            empty runs, against the CPU's arg kernel: index and value
 *   scan     the scans (scan_impl.h) for every result dtype from several
 *            input dtypes (casts with their flags), sum and product, with
 *            and without NaN skipping, lines that start afresh or from a
 *            predecessor's end, with totals (integers both ways: a block
 *            of threads a line, of 5 and 128, and a line a thread); and
 *            the integer fix-ups:
 *            against the CPU's scan kernel and cast loop, bit for bit (a
 *            NaN against a NaN for floats: which payload x86 keeps where
 *            two meet follows gcc's operand order), and the flags (the
 *            host build only, as fused)
 *   mirror   all four with every buffer a launch touches copied to a
 *   sort     sort and argsort (sort_impl.h) of every dtype over edge values
 *            (ties, NaNs of several payloads and signs, -0.0 and 0.0),
 *            lines of 1 to 2000, contiguous, interleaved and reversed,
 *            values (with the quiet NaN or each NaN's bits) and indices,
 *            against the CPU's sort kernels, bit for bit
 *   partition partition and argpartition (partition_impl.h) of every
 *            dtype over the sort's edge values, lines of 1 to 2309, kth
 *            sets of one to five (first, last, middle, repeated searches
 *            bounded by earlier splits), contiguous, interleaved and
 *            reversed, values and indices, against the CPU's select
 *            kernels (sort_body's calls) bit for bit; the merge sort it
 *            falls back on against the CPU's sort kernels
 *   search   searchsorted (search_impl.h) of every dtype, left and right,
 *            over a sorted array of the edge values (NaNs last) and over
 *            the same unsorted, strided and reversed, lengths 0 to 1000;
 *            the uniform-bin index of every real value dtype over float32
 *            and float64 edges, float32 and float64 arithmetic: against
 *            the CPU's search and bins kernels (the values cast as the
 *            CPU's cast loop casts them) bit for bit
 *   bincount a block's count (bincount_impl.h) for every index dtype,
 *            unweighted and with weights of five dtypes (NaNs, -0.0,
 *            infinities), with and without bounds, strided and reversed,
 *            against the CPU's count kernel bit for bit; the combine
 *            against the CPU's block_sum
 *   index    the gather and put kernels (index_impl.h) against the CPU's
 *            (ndt__cpu_gather, ndt__cpu_put): sources and targets in
 *            separate tile buffers reached through the launch's pieces,
 *            2-d views with negative strides, 1-d and 2-d index blocks of
 *            int64/int32/int16/uint8, strided; bytes of 1 to 16 (bool,
 *            int8, int32, float64, complex64, complex128); repeated
 *            indices in put (the last wins); out-of-bounds indices: the
 *            first in the CPU's order, with its axis, nothing put
 *            (the host build only, as fused)
 *   nz       argwhere's non-zero scan (nz_impl.h) against the CPU's
 *            (ndt__cpu_nonzero): all 13 dtypes over the edge values (NaNs,
 *            -0.0, complex numbers zero in one part), blocks of 1 to 4
 *            axes with negative and gapped strides and a block start, one
 *            chunk and many (up to NDT_DK_NZ_MAXCHUNKS), blocks of 1 to
 *            256 threads: the count (mode count, and the chunks' sum) and
 *            every row (mode fill) bit for bit (the host build only)
 *   range    the range kernel ("arange": arange, linspace) for every
 *            output dtype, integer, float64 and float32 ranges and
 *            linspace's form, against ndt__cpu_range bit for bit (the host
 *            build only)
 *   mirror   all three with every buffer a launch touches copied to a
 *            "device" buffer (host memory) and the results back: the cuda
 *            mode's path, on the CPU
 *   cuda P   all three through the plugin P (libndtile_cuda.so) on a GPU:
 *            its kernels as nvcc built them, against the CPU's loops (the
 *            element-by-element flags become one launch's against the OR
 *            of the CPU's); without a driver or device it says so and
 *            passes, unless NDT_REQUIRE_GPU=1 (tools/gpu_check.sh)
 * With no argument: ew, cast, pairwise and rng, directly. */
#define NDT_SC_EMULATE 1
#define NDT_DK_HOST 1
#include "kernels/cuda/ew_impl.h"
#include "kernels/cuda/reduce_impl.h"
#include "kernels/cuda/fused_impl.h"
#include "kernels/cuda/rng_impl.h"
#include "kernels/cuda/index_impl.h"
#include "kernels/cuda/nz_impl.h"
#include "kernels/cuda/fold_impl.h"
#include "kernels/cuda/scan_impl.h"
#include "kernels/cuda/combine_impl.h"
#include "kernels/cuda/sort_impl.h"
#include "kernels/cuda/bincount_impl.h"
#include "kernels/cuda/partition_impl.h"
#include "kernels/cuda/search_impl.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "internal.h"
#include "kernels/cpu/cpu.h"
#include "ops/exec.h"
#include "ops/sort.h"
#include "check.h"

/* ---- where the kernels run ----
 * direct: the kernel sources compiled into this file, on an emulated grid,
 *   on the test's own buffers;
 * mirror: the same kernels, but every buffer a launch touches goes
 *   through a "device" copy (host memory here) and back: the path the
 *   cuda mode takes, checked on the CPU;
 * cuda: the built plugin's kernels on a GPU (dlopen; cudaMalloc and
 *   cudaMemcpy found through it). */
enum { RUN_DIRECT, RUN_MIRROR, RUN_CUDA };
static int run_mode = RUN_DIRECT;
typedef struct {
  int (*init)(void);
  int (*ew_has)(int, int, const int *, int);
  int (*ew)(int, int, const int *, int, const ndt_dk_launch *, unsigned *, void *);
  int (*cast)(int, int, const ndt_dk_launch *, unsigned *, void *);
  int (*pairwise)(int, const ndt_dk_launch *, unsigned *, void *);
  int (*rng)(const ndt_dk_rlaunch *, void *);
  int (*fold)(int, int, int, const ndt_dk_launch *, unsigned *, void *);
  void *(*dalloc)(size_t);
  int (*h2d)(void *, const void *, size_t);
  int (*d2h)(void *, const void *, size_t);
  int (*sync)(void);
  int (*combine)(int, int, int, const ndt_dk_launch *, unsigned *, void *);
} ndt_test_backend;
static ndt_test_backend be;

static void *host_dalloc(size_t n) { return calloc(1, n); }
static int host_h2d(void *d, const void *h, size_t n) { memcpy(d, h, n); return 0; }
static int host_d2h(void *h, const void *d, size_t n) { memcpy(h, d, n); return 0; }
static int host_sync(void) { return 0; }
static int host_init(void) {
  ndt__dk_init();
  return 0;
}

/* device copies of the host buffers the launches use */
#define MAXMIRROR 24
static struct { unsigned char *h, *d; size_t n; } mirror[MAXMIRROR];
static int nmirror;
static void mirror_add(void *h, size_t n) {
  if (run_mode == RUN_DIRECT) return;
  for (int i = 0; i < nmirror; i++)
    if (mirror[i].h == h) return;
  if (nmirror == MAXMIRROR) {
    fprintf(stderr, "too many mirrored buffers\n");
    exit(2);
  }
  mirror[nmirror].h = h;
  mirror[nmirror].n = n;
  mirror[nmirror].d = be.dalloc(n);
  if (!mirror[nmirror].d) {
    fprintf(stderr, "no device memory for a %zu-byte buffer\n", n);
    exit(2);
  }
  nmirror++;
}
static int mirror_of(const char *p) {
  for (int i = 0; i < nmirror; i++)
    if ((const unsigned char *)p >= mirror[i].h && (const unsigned char *)p < mirror[i].h + mirror[i].n)
      return i;
  return -1;
}
/* the bytes [lo, hi) of each mirror that operand k of L's runs touch (a
 * sum's result: its one element, also for an empty run) */
static int sum_result;
static void touched(const ndt_dk_launch *L, int k, int isz, int64_t *lo, int64_t *hi) {
  for (int q = 0; q < L->nrun; q++) {
    const ndt_dk_run *u = &L->run[q];
    if ((!u->rows || !u->cols) && !(sum_result && k == 1)) continue;
    int m = mirror_of(u->p[k]);
    if (m < 0) {
      fprintf(stderr, "a launch touches an unmirrored buffer\n");
      exit(2);
    }
    int64_t o = (const unsigned char *)u->p[k] - mirror[m].h, a = o, b = o;
    int64_t last_r = u->rows ? (u->rows - 1) * u->rs[k] : 0;
    int64_t last_c = u->cols ? (u->cols - 1) * u->cs[k] : 0;
    a += last_r < 0 ? last_r : 0;
    a += last_c < 0 ? last_c : 0;
    b += (last_r > 0 ? last_r : 0) + (last_c > 0 ? last_c : 0) + isz;
    if (a < lo[m]) lo[m] = a;
    if (b > hi[m]) hi[m] = b;
  }
}
/* L with its pointers in the device copies; its buffers' touched bytes
 * copied there first */
static void to_device(const ndt_dk_launch *L, int nop, const int *isz, ndt_dk_launch *D) {
  int64_t lo[MAXMIRROR], hi[MAXMIRROR];
  for (int i = 0; i < MAXMIRROR; i++) lo[i] = INT64_MAX, hi[i] = -1;
  for (int k = 0; k < nop; k++) touched(L, k, isz[k], lo, hi);
  for (int m = 0; m < nmirror; m++)
    if (hi[m] > lo[m]) be.h2d(mirror[m].d + lo[m], mirror[m].h + lo[m], (size_t)(hi[m] - lo[m]));
  *D = *L;
  for (int q = 0; q < L->nrun; q++)
    for (int k = 0; k < nop; k++) {
      int m = mirror_of(L->run[q].p[k]);
      if (m >= 0) D->run[q].p[k] = (char *)mirror[m].d + ((unsigned char *)L->run[q].p[k] - mirror[m].h);
    }
}
/* operand k's touched bytes back from the device */
static void from_device(const ndt_dk_launch *L, int k, int isz) {
  int64_t lo[MAXMIRROR], hi[MAXMIRROR];
  for (int i = 0; i < MAXMIRROR; i++) lo[i] = INT64_MAX, hi[i] = -1;
  touched(L, k, isz, lo, hi);
  for (int m = 0; m < nmirror; m++)
    if (hi[m] > lo[m]) be.d2h(mirror[m].h + lo[m], mirror[m].d + lo[m], (size_t)(hi[m] - lo[m]));
}
static unsigned *dflags;
static unsigned get_flags(void) {
  unsigned f = 0;
  be.d2h(&f, dflags, sizeof f);
  return f;
}

/* the device's launches, in the mode in force */
static int cpu_op(int op);
static void launch_ew(const ndt_dk_entry *e, const ndt_dk_launch *L, unsigned *flags) {
  if (run_mode == RUN_DIRECT) {
    e->fn(L, flags, NULL);
    return;
  }
  int isz[NDT_DK_MAXOPS], loop[NDT_DK_MAXOPS];
  for (int k = 0; k <= e->nin; k++) isz[k] = (int)ndt_dtype_size(e->types[k]), loop[k] = e->types[k];
  ndt_dk_launch D;
  to_device(L, e->nin + 1, isz, &D);
  unsigned zero = 0;
  be.h2d(dflags, &zero, sizeof zero);
  int fused = e->op == NDT_DK_MUL_FUSED || e->op == NDT_DK_SQ_FUSED;
  if (be.ew(cpu_op(e->op), e->nin, loop, fused, &D, dflags, NULL) || be.sync()) {
    fprintf(stderr, "%s: the launch failed\n", e->name);
    exit(2);
  }
  from_device(L, e->nin, isz[e->nin]);
  *flags |= get_flags();
}
static void launch_cast(int f, int t, const ndt_dk_launch *L, unsigned *flags) {
  if (run_mode == RUN_DIRECT) {
    ndt__dk_cast(f, t, L, flags, NULL);
    return;
  }
  int isz[2] = {(int)ndt_dtype_size((ndt_dtype)f), (int)ndt_dtype_size((ndt_dtype)t)};
  ndt_dk_launch D;
  to_device(L, 2, isz, &D);
  unsigned zero = 0;
  be.h2d(dflags, &zero, sizeof zero);
  if (be.cast(f, t, &D, dflags, NULL) || be.sync()) exit(2);
  from_device(L, 1, isz[1]);
  *flags |= get_flags();
}
/* (nan: the NaN-ignoring sum) */
static void launch_pairwise(ndt_dtype dt, int nan, const ndt_dk_launch *L, unsigned *flags) {
  if (run_mode == RUN_DIRECT) {
    if (ndt__dk_pairwise(dt | nan * NDT_PW_NAN, L, flags, NULL)) exit(2);
    return;
  }
  int isz[2] = {(int)ndt_dtype_size(dt), (int)ndt_dtype_size(dt)};
  ndt_dk_launch D;
  sum_result = 1;
  to_device(L, 2, isz, &D);
  sum_result = 0;
  /* the results: one element each (their stride 0) */
  unsigned zero = 0;
  be.h2d(dflags, &zero, sizeof zero);
  if (be.pairwise(dt | nan * NDT_PW_NAN, &D, dflags, NULL) || be.sync()) exit(2);
  sum_result = 1;
  from_device(L, 1, isz[1]);
  sum_result = 0;
  *flags |= get_flags();
}

/* ---- edge values ---- */
#define MAXV 160
typedef struct {
  ndt_dtype t;
  int n, size;
  unsigned char v[MAXV][16];
} vals;

static void put(vals *s, const void *p) {
  if (s->n < MAXV) memcpy(s->v[s->n++], p, (size_t)s->size);
}

static const double FV[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 7.0, -7.0, 0.1,
                            -0.3, 2.0, 1e-310, -4e-320, 2.2250738585072014e-308, 1e308, -1e308,
                            1.7976931348623157e308, 3.4e38, 1e-40, 255.5, 65535.9, 2147483647.5,
                            -2147483648.5, 2147483648.0, 4294967296.0, 9.2233720368547758e18,
                            -9.2233720368547758e18, 1.8446744073709552e19, 1e20, 123456.789,
                            -0.75, 1e-7, 16777217.0, 3.0e-39,
                            /* to float32: the least that overflows (2**128 - 2**103,
                             * rounding to even, up) and the double below it (FLT_MAX) */
                            3.4028235677973366e38, -3.4028235677973362e38};

static void edge_values(ndt_dtype t, vals *s) {
  s->t = t;
  s->n = 0;
  s->size = (int)ndt_dtype_size(t);
  switch (t) {
    case NDT_BOOL: {
      uint8_t b[] = {0, 1, 2, 255};
      for (int i = 0; i < 4; i++) put(s, &b[i]);
      break;
    }
    case NDT_FLOAT64: {
      for (size_t i = 0; i < sizeof FV / sizeof *FV; i++) put(s, &FV[i]);
      double sp[] = {INFINITY, -INFINITY};
      for (int i = 0; i < 2; i++) put(s, &sp[i]);
      uint64_t nans[] = {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff8000000000123ull};
      for (int i = 0; i < 3; i++) put(s, &nans[i]);
      break;
    }
    case NDT_FLOAT32: {
      for (size_t i = 0; i < sizeof FV / sizeof *FV; i++) {
        float f = (float)FV[i];
        put(s, &f);
      }
      float sp[] = {INFINITY, -INFINITY, 3.4028235e38f, 1.1754944e-38f, 1e-45f};
      for (int i = 0; i < 5; i++) put(s, &sp[i]);
      uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7fc00123u};
      for (int i = 0; i < 3; i++) put(s, &nans[i]);
      break;
    }
    case NDT_COMPLEX64:
    case NDT_COMPLEX128: {
      static const double parts[] = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 1e300, 1e-310, INFINITY,
                                     -INFINITY, NAN};
      int np = sizeof parts / sizeof *parts;
      for (int i = 0; i < np; i++)
        for (int j = 0; j < np; j++) {
          double re = parts[i], im = parts[j];
          if (t == NDT_COMPLEX64) {
            ndt_c64 c = {(float)(re == 1e300 ? 3e38 : re), (float)(im == 1e300 ? 3e38 : im)};
            put(s, &c);
          } else {
            ndt_c128 c = {re, im};
            put(s, &c);
          }
        }
      break;
    }
    default: {   /* integers: wrapped into the type */
      int bits = s->size * 8, sgn = t <= NDT_INT64;
      int64_t base[] = {0, 1, -1, 2, -2, 3, -3, 5, 7, -7, 8, 100, -100, 127, 128, 255, 256,
                        bits - 1, bits, bits + 1, 63, 64, 65, 0x5555555555555555ll,
                        (int64_t)0x8000000000000000ull, 0x7fffffffffffffffll, 12345678901ll,
                        -987654321ll};
      for (size_t i = 0; i < sizeof base / sizeof *base; i++) {
        uint64_t u = (uint64_t)base[i];
        put(s, &u);   /* little-endian: the low bytes */
      }
      uint64_t mn = sgn ? (1ull << (bits - 1)) : 0, mx = sgn ? mn - 1 : ~0ull >> (64 - bits);
      uint64_t ex[] = {mn, mn + 1, mx, mx - 1};
      for (int i = 0; i < 4; i++) put(s, &ex[i]);
      break;
    }
  }
}

/* ---- comparing results ---- */
static int is_float(ndt_dtype t) { return t >= NDT_FLOAT32; }
static int part_size(ndt_dtype t) {
  return t == NDT_COMPLEX64 ? 4 : t == NDT_COMPLEX128 ? 8 : (int)ndt_dtype_size(t);
}
static int nan_bits(const unsigned char *p, int sz) {
  if (sz == 4) {
    float f;
    memcpy(&f, p, 4);
    return f != f;
  }
  double d;
  memcpy(&d, p, 8);
  return d != d;
}
/* NaN values among an element's inputs (float parts) */
static int nan_inputs(const ndt_dtype *types, int nin, unsigned char *const *in) {
  int c = 0;
  for (int k = 0; k < nin; k++)
    if (is_float(types[k])) {
      int ps = part_size(types[k]), np = (int)ndt_dtype_size(types[k]) / ps;
      for (int q = 0; q < np; q++) c += nan_bits(in[k] + q * ps, ps);
    }
  return c;
}
/* complex arithmetic of several steps: a NaN made inside (inf * 0) meets
 * the inputs' NaNs, and which one x86 passes on follows the operand order
 * gcc gave the CPU's additions (it commutes them): only "NaN" compares */
static int nan_class_op(int op, ndt_dtype t) {
  return (t == NDT_COMPLEX64 || t == NDT_COMPLEX128) &&
         (op == NDT_MULTIPLY || op == NDT_DK_MUL_FUSED || op == NDT_SQUARE ||
          op == NDT_DK_SQ_FUSED || op == NDT_TRUE_DIVIDE || op == NDT_RECIPROCAL);
}
#define NDT_STR_(x) #x
#define NDT_STR(x) NDT_STR_(x)
static int cur_nan_class;
/* the transcendental functions (ndt_dk_inexact): the device's math library
 * against the CPU's SLEEF, within MATH_ULP units in the last place (NaN
 * against NaN of any sign or payload, infinities equal) */
#define MATH_ULP 4
static int cur_ulp;
static int64_t max_ulp[2];   /* the largest seen: float64, float32 */
static int64_t ordered(const unsigned char *p, int sz) {
  int64_t i;
  if (sz == 4) {
    int32_t v;
    memcpy(&v, p, 4);
    i = v;
  } else {
    memcpy(&i, p, 8);
  }
  return i < 0 ? (sz == 4 ? INT32_MIN : INT64_MIN) - i : i;
}
static int ulp_differ(ndt_dtype t, const unsigned char *a, const unsigned char *b) {
  int sz = (int)ndt_dtype_size(t);
  int na = nan_bits(a, sz), nb = nan_bits(b, sz);
  if (na || nb) return na != nb;
  int64_t d = ordered(a, sz) - ordered(b, sz);
  if (d < 0) d = -d;
  if (d > max_ulp[sz == 4]) max_ulp[sz == 4] = d;
  return d > MATH_ULP;
}
/* 0 when equal under the rule above */
static int differ(ndt_dtype t, const unsigned char *a, const unsigned char *b, int nans_in) {
  int sz = (int)ndt_dtype_size(t);
  if (!memcmp(a, b, (size_t)sz)) return 0;
  if (cur_ulp) return ulp_differ(t, a, b);
  if (!is_float(t) || (nans_in < 2 && !cur_nan_class)) return 1;
  int ps = part_size(t);
  for (int q = 0; q < sz / ps; q++)
    if (memcmp(a + q * ps, b + q * ps, (size_t)ps) &&
        !(nan_bits(a + q * ps, ps) && nan_bits(b + q * ps, ps)))
      return 1;
  return 0;
}
static void hex(char *out, const unsigned char *p, int n) {
  for (int i = n - 1; i >= 0; i--) out += sprintf(out, "%02x", p[i]);
}

/* the CPU's loop for an entry (the fused complex rows are the CPU's
 * multiply and square at SIMD level >= 2) */
static int cpu_op(int op);
static int cpu_op(int op) {
  return op == NDT_DK_MUL_FUSED ? NDT_MULTIPLY : op == NDT_DK_SQ_FUSED ? NDT_SQUARE : op;
}

/* ---- the elementwise entries ---- */
#define MAXN (MAXV * MAXV)
static unsigned char in_buf[3][MAXN][16], out_cpu[MAXN * 4][16], out_dev[MAXN * 4][16];
static unsigned char sbuf[3][MAXN * 4][16];   /* the strided layouts' inputs */

/* layout 0: contiguous; 1: several strided 2-d runs in one launch;
 * 2: operand 0 broadcast (stride 0) per run */
static int64_t run_entry(const ndt_dk_entry *e, ndt_loop_fn loop, int n, int layout,
                         const char *what) {
  int nin = e->nin, nop = nin + 1;
  int isz[NDT_DK_MAXOPS] = {0};
  for (int k = 0; k < nop; k++) isz[k] = (int)ndt_dtype_size(e->types[k]);
  int64_t bad = 0;
  if (layout == 0) {
    char *args[4];
    int64_t steps[4];
    for (int k = 0; k < nin; k++) args[k] = (char *)in_buf[k], steps[k] = isz[k];
    args[nin] = (char *)out_cpu, steps[nin] = isz[nin];
    loop(args, steps, n);
    ndt_dk_launch L = {.nrun = 1};
    L.run[0].rows = 1;
    L.run[0].cols = n;
    for (int k = 0; k < nin; k++) L.run[0].p[k] = (char *)in_buf[k], L.run[0].cs[k] = isz[k];
    L.run[0].p[nin] = (char *)out_dev;
    L.run[0].cs[nin] = isz[nin];
    unsigned fl = 0;
    launch_ew(e, &L, &fl);
    for (int i = 0; i < n; i++) {
      unsigned char *ins[3];
      for (int k = 0; k < nin; k++) ins[k] = (unsigned char *)in_buf[k] + (size_t)i * isz[k];
      int nn = nan_inputs(e->types, nin, ins);
      const unsigned char *a = (unsigned char *)out_cpu + (size_t)i * isz[nin],
                          *b = (unsigned char *)out_dev + (size_t)i * isz[nin];
      if (differ(e->types[nin], a, b, nn)) {
        if (bad++ < 4) {
          char ha[40], hb[40], hi[3][40] = {"", "", ""};
          hex(ha, a, isz[nin]);
          hex(hb, b, isz[nin]);
          for (int k = 0; k < nin; k++) hex(hi[k], ins[k], isz[k]);
          fprintf(stderr, "  %s %s [%d]: in %s %s %s: cpu %s dev %s\n", e->name, what, i, hi[0],
                  hi[1], hi[2], ha, hb);
        }
      }
    }
    return bad;
  }
  /* the same n elements in launches of up to NDT_DK_MAXRUNS runs of
   * rows x cols: inputs at element stride 2 (row pitch 2 cols + 1), the
   * output at 3 (3 cols + 1); layout 2: operand 0 one value per run */
  int at = 0;
  while (at < n) {
    ndt_dk_launch L = {.nrun = 0};
    int64_t eoff[4] = {0, 0, 0, 0};   /* element offsets into each operand's buffer */
    for (int r = 0; r < NDT_DK_MAXRUNS && at < n; r++) {
      int cols = layout == 2 ? (nin < 2 ? 7 : 40) : 3 + (r * 7) % 11;
      int rows = layout == 2 ? 1 : 1 + r % 4;
      if (cols * rows > n - at) {
        rows = 1;
        cols = n - at;
      }
      ndt_dk_run *u = &L.run[L.nrun++];
      u->rows = rows;
      u->cols = cols;
      for (int k = 0; k < nop; k++) {
        int st = k == nin ? 3 : 2;
        int64_t pitch = (int64_t)cols * st + 1;
        unsigned char *base = k == nin ? (unsigned char *)out_dev : (unsigned char *)sbuf[k];
        u->p[k] = (char *)base + eoff[k] * isz[k];
        u->cs[k] = (int64_t)st * isz[k];
        u->rs[k] = pitch * isz[k];
        if (layout == 2 && k == 0) {
          u->cs[k] = u->rs[k] = 0;
          memcpy(u->p[k], (unsigned char *)in_buf[0] + (size_t)at * isz[0], (size_t)isz[0]);
          eoff[k] += 1;
          continue;
        }
        for (int i = 0; i < rows && k < nin; i++)
          for (int j = 0; j < cols; j++)
            memcpy((unsigned char *)u->p[k] + (i * pitch + (int64_t)j * st) * isz[k],
                   (unsigned char *)in_buf[k] + (size_t)(at + i * cols + j) * isz[k],
                   (size_t)isz[k]);
        eoff[k] += rows * pitch;
      }
      /* the CPU's loop over the same layout, a row at a time */
      for (int i = 0; i < rows; i++) {
        char *args[4];
        int64_t steps[4];
        for (int k = 0; k < nin; k++) {
          args[k] = u->p[k] + i * u->rs[k];
          steps[k] = u->cs[k];
        }
        args[nin] = (char *)out_cpu + (u->p[nin] - (char *)out_dev) + i * u->rs[nin];
        steps[nin] = u->cs[nin];
        loop(args, steps, cols);
      }
      at += rows * cols;
    }
    unsigned fl = 0;
    launch_ew(e, &L, &fl);
    for (int q = 0; q < L.nrun; q++) {
      ndt_dk_run *u = &L.run[q];
      for (int i = 0; i < u->rows; i++)
        for (int j = 0; j < u->cols; j++) {
          unsigned char *ins[3];
          for (int k = 0; k < nin; k++)
            ins[k] = (unsigned char *)u->p[k] + i * u->rs[k] + j * u->cs[k];
          int64_t off = (u->p[nin] - (char *)out_dev) + i * u->rs[nin] + j * u->cs[nin];
          const unsigned char *a = (unsigned char *)out_cpu + off,
                              *b = (unsigned char *)out_dev + off;
          if (differ(e->types[nin], a, b, nan_inputs(e->types, nin, ins)) && bad++ < 4) {
            char ha[40], hb[40];
            hex(ha, a, isz[nin]);
            hex(hb, b, isz[nin]);
            fprintf(stderr, "  %s %s run %d (%d,%d): cpu %s dev %s\n", e->name, what, q, i, j,
                    ha, hb);
          }
        }
    }
  }
  return bad;
}

/* element by element: the flags the op reports, CPU (hardware and the
 * loops' own) against the kernel's */
static int64_t flags_entry(const ndt_dk_entry *e, ndt_loop_fn loop, int n, unsigned mask) {
  int nin = e->nin, isz[4] = {0};
  for (int k = 0; k <= nin; k++) isz[k] = (int)ndt_dtype_size(e->types[k]);
  int64_t bad = 0;
  if (run_mode != RUN_DIRECT) {
    /* one launch over every element: its flags against the OR of the
     * CPU's, element by element (a launch per element would take long) */
    unsigned cpu = 0, dev = 0;
    for (int i = 0; i < n; i++) {
      char *args[4];
      int64_t steps[4] = {0, 0, 0, 0};
      unsigned char o1[16];
      for (int k = 0; k < nin; k++) args[k] = (char *)in_buf[k][0] + (size_t)i * isz[k];
      args[nin] = (char *)o1;
      ndt_fpe_clear();
      loop(args, steps, 1);
      cpu |= ndt_fpe_test() & mask;
    }
    ndt_dk_launch L = {.nrun = 1};
    L.run[0].rows = 1;
    L.run[0].cols = n;
    for (int k = 0; k < nin; k++) L.run[0].p[k] = (char *)in_buf[k], L.run[0].cs[k] = isz[k];
    L.run[0].p[nin] = (char *)out_dev;
    L.run[0].cs[nin] = isz[nin];
    launch_ew(e, &L, &dev);
    dev &= mask;
    if (cpu != dev) fprintf(stderr, "  %s flags: cpu %x dev %x\n", e->name, cpu, dev);
    return cpu != dev;
  }
  int b0 = ndt_dk_emu_blocks, t0 = ndt_dk_emu_threads;
  ndt_dk_emu_blocks = ndt_dk_emu_threads = 1;
  for (int i = 0; i < n; i++) {
    char *args[4];
    int64_t steps[4] = {0, 0, 0, 0};
    ndt_dk_launch L = {.nrun = 1};
    L.run[0].rows = L.run[0].cols = 1;
    unsigned char o1[16], o2[16];
    for (int k = 0; k < nin; k++) args[k] = L.run[0].p[k] = (char *)in_buf[k][0] + (size_t)i * isz[k];
    args[nin] = (char *)o1;
    L.run[0].p[nin] = (char *)o2;
    ndt_fpe_clear();
    loop(args, steps, 1);
    unsigned cpu = ndt_fpe_test() & mask;
    unsigned dev = 0;
    e->fn(&L, &dev, NULL);
    dev &= mask;
    if (cpu != dev && bad++ < 4) {
      char hi[3][40] = {"", "", ""};
      for (int k = 0; k < nin; k++) hex(hi[k], (unsigned char *)args[k], isz[k]);
      fprintf(stderr, "  %s flags [%d]: in %s %s %s: cpu %x dev %x\n", e->name, i, hi[0], hi[1],
              hi[2], cpu, dev);
    }
  }
  ndt_dk_emu_blocks = b0;
  ndt_dk_emu_threads = t0;
  return bad;
}

/* fills the inputs of an entry: every value (unary), every pair (binary),
 * every triple or a sample of them (ternary); returns n */
static int fill_inputs(const ndt_dk_entry *e) {
  vals v[3];
  for (int k = 0; k < e->nin; k++) edge_values(e->types[k], &v[k]);
  int n = 0;
  if (e->nin == 1) {
    for (int i = 0; i < v[0].n; i++, n++) memcpy(in_buf[0][n], v[0].v[i], (size_t)v[0].size);
  } else if (e->nin == 2) {
    for (int i = 0; i < v[0].n; i++)
      for (int j = 0; j < v[1].n; j++, n++) {
        memcpy(in_buf[0][n], v[0].v[i], (size_t)v[0].size);
        memcpy(in_buf[1][n], v[1].v[j], (size_t)v[1].size);
      }
  } else {
    uint64_t x = 88172645463325252ull;
    int64_t all = (int64_t)v[0].n * v[1].n * v[2].n;
    int m = all <= MAXN ? (int)all : MAXN;
    for (; n < m; n++) {
      int64_t c = n;
      if (all > MAXN) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        c = (int64_t)(x % (uint64_t)all);
      }
      int i = (int)(c % v[0].n), j = (int)(c / v[0].n % v[1].n), k = (int)(c / v[0].n / v[1].n);
      memcpy(in_buf[0][n], v[0].v[i], (size_t)v[0].size);
      memcpy(in_buf[1][n], v[1].v[j], (size_t)v[1].size);
      memcpy(in_buf[2][n], v[2].v[k], (size_t)v[2].size);
    }
  }
  /* the buffers are indexed by element of the entry's size from here: pack */
  for (int k = 0; k < e->nin; k++) {
    int sz = (int)ndt_dtype_size(e->types[k]);
    unsigned char *dst = (unsigned char *)in_buf[k];
    for (int i = 0; i < n; i++) memmove(dst + (size_t)i * sz, in_buf[k][i], (size_t)sz);
  }
  return n;
}

/* the transcendental functions' inputs beyond the edge values: n values
 * of every magnitude from 1e-6 to 1e6 (log-uniform, either sign), and from
 * -1.5 to 1.5 (the inverse functions' domains); returns n */
static int random_inputs(const ndt_dk_entry *e) {
  uint64_t x = 0x9E3779B97F4A7C15ull ^ (uint64_t)e->op;
  int n = 8192;
  for (int k = 0; k < e->nin; k++)
    for (int i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      double u = (double)(x >> 11) / 9007199254740992.0;
      double v = i % 2 ? 3.0 * u - 1.5 : (x & 1 ? -1 : 1) * pow(10.0, 12.0 * u - 6.0);
      if (e->types[k] == NDT_FLOAT32) {
        float f = (float)v;
        memcpy((unsigned char *)in_buf[k] + (size_t)i * 4, &f, 4);
      } else {
        memcpy((unsigned char *)in_buf[k] + (size_t)i * 8, &v, 8);
      }
    }
  return n;
}

static void test_ew(void) {
  ndt__dk_init();
  int level = ndt_cpu_level(), per_dtype[NDT_NTYPES] = {0}, checked = 0, skipped = 0;
  for (int ei = 0; ei < NDT_DK_NENTRIES; ei++) {
    const ndt_dk_entry *e = &ndt_dk_entries[ei];
    int fused = e->op == NDT_DK_MUL_FUSED || e->op == NDT_DK_SQ_FUSED;
    int plain_cplx = (e->op == NDT_MULTIPLY || e->op == NDT_SQUARE) &&
                     (e->types[0] == NDT_COMPLEX64 || e->types[0] == NDT_COMPLEX128);
    if (fused && level < 2) {   /* this CPU never fuses: nothing to compare with */
      skipped++;
      continue;
    }
    /* the plain complex products are the CPU's below SIMD level 2 */
    if (plain_cplx) ndt__cpu_set_simd_level(1);
    ndt_dtype lt[4];
    for (int k = 0; k <= e->nin; k++) lt[k] = e->types[k];
    ndt_loop_fn loop = ndt__kern->loop((ndt_ufunc)cpu_op(e->op), lt);
    EXPECT(loop != NULL, "%s: the CPU has this loop", e->name);
    if (!loop) continue;
    int n = fill_inputs(e);
    int64_t bad = 0;
    cur_nan_class = nan_class_op(e->op, e->types[0]);
    cur_ulp = ndt_dk_inexact(e->op);
    for (int layout = 0; layout < 3; layout++) {
      if (layout == 2 && e->nin < 2) continue;
      bad += run_entry(e, loop, n, layout, layout == 0 ? "contiguous" : layout == 1 ? "strided" : "broadcast");
    }
    if (cur_ulp) {   /* and over their whole range */
      int nr = random_inputs(e);
      bad += run_entry(e, loop, nr, 0, "random");
      bad += run_entry(e, loop, nr, 1, "random, strided");
      n = fill_inputs(e);   /* the edge values again, for the flags below */
    }
    EXPECT(bad == 0, "%s: the device kernel has the CPU's bits%s (%lld of %d differ)", e->name,
           cur_ulp ? " within " NDT_STR(MATH_ULP) " ULP" : "", (long long)bad, n);
    /* the transcendental functions report underflow too (the CPU's rule
     * from the values, scalar.h's ndt_sc_fv_*) */
    unsigned mask = ndt__ufunc_fp_mask((ndt_ufunc)cpu_op(e->op)) &
                    (NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_INVALID |
                     (cur_ulp ? NDT_FPE_UNDERFLOW : 0));
    /* NumPy's complex ordered comparisons report "invalid" (ndt_apply's
     * rule: their compares signal a NaN) */
    if (e->op >= NDT_LESS && e->op <= NDT_GREATER_EQUAL &&
        (e->types[0] == NDT_COMPLEX64 || e->types[0] == NDT_COMPLEX128))
      mask = NDT_FPE_INVALID;
    /* clip compares with a NaN bound: whether the CPU raises "invalid" there
     * depends on the compare instruction the compiler chose; values only */
    if (e->op == NDT_CLIP) mask = 0;
    if (mask) {
      int64_t fb = flags_entry(e, loop, n, mask);
      EXPECT(fb == 0, "%s: the device reports the CPU's flags (%lld of %d elements differ)",
             e->name, (long long)fb, n);
    }
    if (plain_cplx) ndt__cpu_set_simd_level(level);
    per_dtype[e->types[0]]++;
    checked++;
  }
  ndt__cpu_set_simd_level(-1);
  printf("ew: %d entries checked against the CPU (%d fused ones skipped: SIMD level %d); "
         "transcendental functions at most %lld (float64) and %lld (float32) ULP apart\n",
         checked, skipped, level, (long long)max_ulp[0], (long long)max_ulp[1]);
  for (int t = 0; t < NDT_NTYPES; t++) {
    printf("  %-10s %d\n", ndt_dtype_name((ndt_dtype)t), per_dtype[t]);
    EXPECT(per_dtype[t] >= 10, "%s: the device covers its exact ops (%d)",
           ndt_dtype_name((ndt_dtype)t), per_dtype[t]);
  }
  /* the coverage the issue asks for: + - * / sqrt, comparisons on every
   * dtype where NumPy has them */
  static const int must[] = {NDT_ADD, NDT_SUBTRACT, NDT_MULTIPLY, NDT_EQUAL, NDT_LESS,
                             NDT_MAXIMUM, NDT_NEGATIVE};
  for (size_t i = 0; i < sizeof must / sizeof *must; i++)
    for (int t = NDT_INT8; t < NDT_NTYPES; t++) {
      ndt_dtype lt[3] = {(ndt_dtype)t, (ndt_dtype)t, (ndt_dtype)t};
      if (must[i] == NDT_EQUAL || must[i] == NDT_LESS) lt[2] = NDT_BOOL;
      int nin = must[i] == NDT_NEGATIVE ? 1 : 2;
      if (nin == 1) lt[1] = lt[0];
      int li[3] = {lt[0], lt[1], lt[2]};
      EXPECT(ndt_dk_find(must[i], nin, li, 0) != NULL, "the device has %s on %s",
             ndt_ufunc_name((ndt_ufunc)must[i]), ndt_dtype_name((ndt_dtype)t));
    }
  for (int t = NDT_FLOAT32; t <= NDT_FLOAT64; t++) {
    int l2[3] = {t, t, t}, l1[2] = {t, t};
    EXPECT(ndt_dk_find(NDT_TRUE_DIVIDE, 2, l2, 0) && ndt_dk_find(NDT_SQRT, 1, l1, 0),
           "divide and sqrt on %s", ndt_dtype_name((ndt_dtype)t));
  }
}

static void test_cast(void) {
  int64_t total = 0, flagged = 0;
  for (int f = 0; f < NDT_NTYPES; f++) {
    vals v;
    edge_values((ndt_dtype)f, &v);
    for (int t = 0; t < NDT_NTYPES; t++) {
      int fs = v.size, ts = (int)ndt_dtype_size((ndt_dtype)t);
      static unsigned char src[MAXV * 16], a[MAXV * 16], b[MAXV * 16];
      mirror_add(src, sizeof src);
      mirror_add(b, sizeof b);
      for (int i = 0; i < v.n; i++) memcpy(src + i * fs, v.v[i], (size_t)fs);
      memset(a, 0, sizeof a);
      memset(b, 0, sizeof b);
      ndt__kern->cast((ndt_dtype)f, (ndt_dtype)t)((const char *)src, fs, (char *)a, ts, v.n);
      ndt_dk_launch L = {.nrun = 2};
      int h = v.n / 2;
      L.run[0] = (ndt_dk_run){.rows = 1, .cols = h, .p = {(char *)src, (char *)b}, .cs = {fs, ts}};
      L.run[1] = (ndt_dk_run){.rows = 1, .cols = v.n - h,
                              .p = {(char *)src + h * fs, (char *)b + h * ts}, .cs = {fs, ts}};
      unsigned dev_all = 0;
      launch_cast(f, t, &L, &dev_all);
      int bad = 0;
      for (int i = 0; i < v.n; i++) {
        /* a NaN cast to a float keeps its payload on x86; to an integer it
         * is INT_MIN; both bit for bit */
        if (memcmp(a + i * ts, b + i * ts, (size_t)ts) && bad++ < 3) {
          char hs[40], ha[40], hb[40];
          hex(hs, src + i * fs, fs);
          hex(ha, a + i * ts, ts);
          hex(hb, b + i * ts, ts);
          fprintf(stderr, "  cast %s->%s %s: cpu %s dev %s\n", ndt_dtype_name((ndt_dtype)f),
                  ndt_dtype_name((ndt_dtype)t), hs, ha, hb);
        }
      }
      EXPECT(bad == 0, "cast %s -> %s: the CPU's bits", ndt_dtype_name((ndt_dtype)f),
             ndt_dtype_name((ndt_dtype)t));
      /* the flags, against the CPU's cast of each value alone (an "invalid"
       * to an integer, an "overflow" narrowing to float32): element by
       * element directly, else one launch's against their OR */
      const unsigned mask = NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_INVALID;
      unsigned cpu_all = 0;
      int fbad = 0;
      for (int i = 0; i < v.n; i++) {
        ndt_fpe_clear();
        ndt__kern->cast((ndt_dtype)f, (ndt_dtype)t)((const char *)src + i * fs, fs, (char *)a, ts, 1);
        unsigned cpu = ndt_fpe_test() & mask;
        cpu_all |= cpu;
        if (run_mode != RUN_DIRECT) continue;
        unsigned dev = 0;
        ndt_dk_launch L1 = {.nrun = 1};
        L1.run[0] = (ndt_dk_run){.rows = 1, .cols = 1, .p = {(char *)src + i * fs, (char *)b},
                                 .cs = {fs, ts}};
        launch_cast(f, t, &L1, &dev);
        dev &= mask;
        if (cpu != dev && fbad++ < 3) {
          char hs[40];
          hex(hs, src + i * fs, fs);
          fprintf(stderr, "  cast %s->%s %s flags: cpu %x dev %x\n", ndt_dtype_name((ndt_dtype)f),
                  ndt_dtype_name((ndt_dtype)t), hs, cpu, dev);
        }
      }
      ndt_fpe_clear();
      if (run_mode != RUN_DIRECT && (dev_all & mask) != cpu_all) {
        fbad = 1;
        fprintf(stderr, "  cast %s->%s flags: cpu %x dev %x\n", ndt_dtype_name((ndt_dtype)f),
                ndt_dtype_name((ndt_dtype)t), cpu_all, dev_all & mask);
      }
      EXPECT(fbad == 0, "cast %s -> %s: the CPU's flags", ndt_dtype_name((ndt_dtype)f),
             ndt_dtype_name((ndt_dtype)t));
      flagged += cpu_all != 0;
      total++;
    }
  }
  printf("cast: %lld casts checked, %lld of them raise flags on some value\n", (long long)total,
         (long long)flagged);
  /* every float -> integer cast (4 sources x 8 targets) and every narrowing
   * to float32/complex64 (float64 and complex128 to both) raises one */
  EXPECT(flagged == 4 * 8 + 2 * 2, "the casts that raise flags (%lld)", (long long)flagged);
}

/* ---- pairwise ---- */
static void test_pairwise(void) {
  static const int64_t lens[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 128, 129,
                                 135, 136, 137, 255, 256, 257, 1000, 1023, 1024, 1025, 4096,
                                 10007, 65536, 100000, 262144, 262145};
  const int64_t maxn = 262145;
  double *d = malloc((size_t)maxn * 3 * sizeof *d);
  float *f = malloc((size_t)maxn * 3 * sizeof *f);
  static char out[3][16];
  mirror_add(d, (size_t)maxn * 3 * sizeof *d);
  mirror_add(f, (size_t)maxn * 3 * sizeof *f);
  mirror_add(out, sizeof out);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int64_t i = 0; i < maxn * 3; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    /* mixed magnitudes and signs: the order of additions shows in the bits */
    double m = (double)(x >> 11) / 9007199254740992.0 - 0.5;
    int e = (int)(x % 40) - 20;
    d[i] = ldexp(m, e);
    f[i] = (float)d[i];
  }
  d[5] = -0.0;
  f[5] = -0.0f;
  int checked = 0;
  for (int tt = 0; tt < 8; tt++) {
    int t = tt & 3, nan = tt >> 2;
    static const ndt_dtype dts[4] = {NDT_FLOAT32, NDT_FLOAT64, NDT_COMPLEX64, NDT_COMPLEX128};
    ndt_dtype dt = dts[t];
    if (nan && t == 0)   /* nansum: NaNs of two payloads every 13th element */
      for (int64_t i = 0; i < maxn * 3; i += 13) {
        uint64_t b = i % 26 ? 0x7ff8000000000123ull : 0xfff8000000000000ull;
        memcpy(&d[i], &b, 8);
        f[i] = (float)d[i];
      }
    ndt_red_kernel k;
    OK(ndt__kern->reduce(nan ? NDT_RED_NANSUM : NDT_RED_SUM, dt, &k) ? NDT_ERR_INTERNAL : NDT_OK);
    for (int stride = 1; stride <= 3; stride += 2)
      for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
        int64_t n = lens[li];
        int isz = (int)ndt_dtype_size(dt);
        /* (complex64 elements are pairs of f's, complex128 of d's) */
        const char *p = t & 1 ? (const char *)d : (const char *)f;
        if (n > 0 && (n - 1) * stride * isz + isz > maxn * 3 * (t & 1 ? 8 : 4)) continue;
        char acc[16];
        memcpy(acc, k.identity, 16);
        k.run(acc, p, (int64_t)stride * isz, n);
        /* the shared function alone */
        char one[16];
        int64_t ss = (int64_t)stride * isz;
        if (t == 1) {
          double v = 0.0 + (nan ? ndt_pw_sum_nf64 : ndt_pw_sum_f64)(p, ss, n, NULL);
          memcpy(one, &v, 8);
        } else if (t == 0) {
          float v = 0.0f + (nan ? ndt_pw_sum_nf32 : ndt_pw_sum_f32)(p, ss, n, NULL);
          memcpy(one, &v, 4);
        } else if (t == 2) {
          ndt_c64 v = ndt_pw_cadd_c64(ndt_pw_zero_c64(),
                                      (nan ? ndt_pw_sum_nc64 : ndt_pw_sum_c64)(p, ss, n, NULL), NULL);
          memcpy(one, &v, 8);
        } else {
          ndt_c128 v = ndt_pw_cadd_c128(ndt_pw_zero_c128(),
                                        (nan ? ndt_pw_sum_nc128 : ndt_pw_sum_c128)(p, ss, n, NULL), NULL);
          memcpy(one, &v, 16);
        }
        char acc1[16];
        memcpy(acc1, k.identity, 16);
        k.run(acc1, p + isz, (int64_t)stride * isz, n / 3);
        char zero[16] = {0};
        EXPECT(!memcmp(acc, one, (size_t)isz), "%s%s n=%lld stride %d: the shared pairwise sum",
               nan ? "nansum " : "", ndt_dtype_name(dt), (long long)n, stride);
        /* the kernel: three runs in one launch (this one, a shorter one and
         * an empty one), on emulated blocks of 5 and of 128 threads */
        for (int nt = 5; nt <= 128; nt += 123) {
          ndt_dk_launch L = {.nrun = 3};
          memset(out, 0x5a, sizeof out);
          L.run[0] = (ndt_dk_run){.rows = 1, .cols = n, .p = {(char *)p, out[0]},
                                  .cs = {(int64_t)stride * isz, 0}};
          L.run[1] = (ndt_dk_run){.rows = 1, .cols = n / 3, .p = {(char *)p + isz, out[1]},
                                  .cs = {(int64_t)stride * isz, 0}};
          L.run[2] = (ndt_dk_run){.rows = 1, .cols = 0, .p = {(char *)p, out[2]}, .cs = {isz, 0}};
          int t0 = ndt_dk_emu_threads;
          ndt_dk_emu_threads = nt;
          unsigned fl = 0;
          launch_pairwise(dt, nan, &L, &fl);
          ndt_dk_emu_threads = t0;
          EXPECT(!memcmp(acc, out[0], (size_t)isz) && !memcmp(acc1, out[1], (size_t)isz) &&
                     !memcmp(zero, out[2], (size_t)isz),
                 "%s%s n=%lld stride %d: the block-parallel kernel (%d threads)",
                 nan ? "nansum " : "", ndt_dtype_name(dt), (long long)n, stride, nt);
        }
        checked++;
      }
  }
  printf("pairwise: %d sums checked\n", checked);
  free(d);
  free(f);
}

/* ---- pairwise top (reduce_impl.h's, the walk of pairwise.h) ----
 * The tree above a full sum's leaves, as the plugin's "pairwise top" gets
 * it: leaves of at most `leaf` elements (pw's splits: the complex ones for
 * complex dtypes), their sums (pw of each range, summed here by the
 * shared leaf-and-tree function), then the top from +0.0 (or 2.5, a
 * seeded sum's start). Its bits: the CPU's pairwise sum of the whole
 * line (its own kernel, from 0 or 2.5), since the top's nodes are the
 * whole tree's. */
static int64_t top_leaves(int64_t o, int64_t n, int64_t leaf, int cplx, int64_t *lo,
                          int64_t *len, int64_t k) {
  if (n <= leaf) {
    lo[k] = o, len[k] = n;
    return k + 1;
  }
  int64_t h = cplx ? ndt_pw_csplit(n) : ndt_pw_split(n);
  k = top_leaves(o, h, leaf, cplx, lo, len, k);
  return top_leaves(o + h, n - h, leaf, cplx, lo, len, k);
}

static void test_pwtop(void) {
  /* (the complex split differs from the real one where n / 8 is odd: 2056, 3000, 99992) */
  static const int64_t lens[] = {1, 100, 1024, 1025, 2056, 3000, 4097, 10007, 65536, 99992,
                                 100000, 262145};
  static const int64_t leaves[] = {1024, 4096, 5000};
  const int64_t maxn = 262145;
  double *d = malloc((size_t)maxn * 2 * sizeof *d);
  char *parts = malloc((size_t)1024 * 16);
  int64_t lo[1024], len[1024];
  uint64_t x = 0x243F6A8885A308D3ull;
  for (int64_t i = 0; i < maxn * 2; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    d[i] = ldexp((double)(x >> 11) / 9007199254740992.0 - 0.5, (int)(x % 40) - 20);
  }
  float *f = (float *)malloc((size_t)maxn * 2 * sizeof *f);
  for (int64_t i = 0; i < maxn * 2; i++) f[i] = (float)d[i];
  static const ndt_dtype dts[4] = {NDT_FLOAT32, NDT_FLOAT64, NDT_COMPLEX64, NDT_COMPLEX128};
  int checked = 0;
  for (int t = 0; t < 4; t++) {
    ndt_dtype dt = dts[t];
    int isz = (int)ndt_dtype_size(dt), cplx = t >= 2;
    const char *p = t & 1 ? (const char *)d : (const char *)f;
    ndt_red_kernel k;
    OK(ndt__kern->reduce(NDT_RED_SUM, dt, &k) ? NDT_ERR_INTERNAL : NDT_OK);
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
      for (size_t fi = 0; fi < sizeof leaves / sizeof *leaves; fi++)
        for (int seeded = 0; seeded < 2; seeded++) {
          int64_t n = lens[li], leaf = leaves[fi];
          int64_t nl = top_leaves(0, n, leaf, cplx, lo, len, 0);
          for (int64_t q = 0; q < nl; q++) {
            const char *at = p + lo[q] * isz;
            if (t == 0) {
              float v = ndt_pw_sum_f32(at, isz, len[q], NULL);
              memcpy(parts + q * isz, &v, 4);
            } else if (t == 1) {
              double v = ndt_pw_sum_f64(at, isz, len[q], NULL);
              memcpy(parts + q * isz, &v, 8);
            } else if (t == 2) {
              ndt_c64 v = ndt_pw_sum_c64(at, isz, len[q], NULL);
              memcpy(parts + q * isz, &v, 8);
            } else {
              ndt_c128 v = ndt_pw_sum_c128(at, isz, len[q], NULL);
              memcpy(parts + q * isz, &v, 16);
            }
          }
          /* the start: +0.0, or 2.5 in the result (from 2, as the plugin's
           * seeded top) */
          char want[16] = {0}, got[16] = {0};
          if (seeded) {
            double h = 2.5;
            float hf = 2.5f;
            if (t & 1) memcpy(want, &h, 8);
            else memcpy(want, &hf, 4);
          } else {
            memcpy(want, k.identity, 16);
          }
          memcpy(got, want, 16);
          k.run(want, p, isz, n);
          ndt_dk_launch L = {.nrun = 1};
          L.run[0] = (ndt_dk_run){.rows = 1, .cols = nl, .p = {parts, got}, .cs = {isz, 0},
                                  .rs = {n, leaf}, .from = seeded ? 2 : 0};
          unsigned fl = 0;
          EXPECT(ndt__dk_pwtop(dt, &L, &fl, NULL) == 0 && !memcmp(want, got, (size_t)isz),
                 "%s n=%lld leaf %lld%s: the top of %lld leaves is the line's pairwise sum",
                 ndt_dtype_name(dt), (long long)n, (long long)leaf, seeded ? " from 2.5" : "",
                 (long long)nl);
          checked++;
        }
  }
  printf("pairwise top: %d trees checked\n", checked);
  free(d);
  free(f);
  free(parts);
}

/* Runs of -0.0s (each part of a complex one), and a run's start (dk.h):
 * the CPU's pairwise sum from -0.0 (a leaf's, a seeded sum's) keeps a sum
 * of -0.0s -0.0 (its short leaves start from -0.0, as NumPy's); the
 * kernel with the run's start -0.0 (the plugin's "pairwise leaf"), 2.5
 * (a seeded block's) and from 0 (the identity) gives the CPU's bits. */
static void test_pairwise_start(void) {
  static double nz[600];
  static float nzf[1200];
  static char out[3][16];
  for (int i = 0; i < 600; i++) nz[i] = -0.0;
  for (int i = 0; i < 1200; i++) nzf[i] = -0.0f;
  mirror_add(nz, sizeof nz);
  mirror_add(nzf, sizeof nzf);
  mirror_add(out, sizeof out);
  static const int64_t lens[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 17, 64, 65, 129, 300};
  static const ndt_dtype dts[4] = {NDT_FLOAT32, NDT_FLOAT64, NDT_COMPLEX64, NDT_COMPLEX128};
  int checked = 0;
  for (int t = 0; t < 8; t++) {
    ndt_dtype dt = dts[t & 3];
    int nan = t >> 2, isz = (int)ndt_dtype_size(dt);
    ndt_red_kernel k;
    OK(ndt__kern->reduce(nan ? NDT_RED_NANSUM : NDT_RED_SUM, dt, &k) ? NDT_ERR_INTERNAL : NDT_OK);
    /* -0.0 and 2.5 in dt (each part), as the plugin writes a start */
    unsigned char neg[16], two[16];
    const float f2[2] = {-0.0f, -0.0f}, g2[2] = {2.5f, 2.5f};
    const double d2[2] = {-0.0, -0.0}, e2[2] = {2.5, 2.5};
    int single = dt == NDT_FLOAT32 || dt == NDT_COMPLEX64;
    const char *p = single ? (const char *)nzf : (const char *)nz;
    memcpy(neg, single ? (const void *)f2 : (const void *)d2, (size_t)isz);
    memcpy(two, single ? (const void *)g2 : (const void *)e2, (size_t)isz);
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
      int64_t n = lens[li];
      if (n * isz > (int64_t)sizeof nz) continue;
      char want[3][16];
      memcpy(want[0], neg, 16);
      memcpy(want[1], two, 16);
      memcpy(want[2], k.identity, 16);
      for (int j = 0; j < 3; j++) k.run(want[j], p, isz, n);
      ndt_dk_launch L = {.nrun = 3};
      for (int j = 0; j < 3; j++) {
        L.run[j] = (ndt_dk_run){.rows = 1, .cols = n, .p = {(char *)p, out[j]},
                                .cs = {isz, 0}, .from = j < 2};
        memcpy(L.run[j].start, j ? two : neg, 16);
      }
      unsigned fl = 0;
      memset(out, 0x5a, sizeof out);
      launch_pairwise(dt, nan, &L, &fl);
      for (int j = 0; j < 3; j++)
        EXPECT(!memcmp(want[j], out[j], (size_t)isz), "%s%s n=%lld of -0.0, from %s",
               nan ? "nansum " : "", ndt_dtype_name(dt), (long long)n,
               j == 0 ? "-0.0" : j == 1 ? "2.5" : "the identity");
      /* a sum of -0.0s from -0.0 is -0.0 (the CPU's too) */
      EXPECT(signbit(single ? (double)*(float *)want[0] : *(double *)want[0]),
             "%s n=%lld: -0.0 + -0.0s is -0.0", ndt_dtype_name(dt), (long long)n);
      checked++;
    }
  }
  printf("pairwise from a start: %d sums checked\n", checked);
}

/* ---- the other reductions (fold_impl.h) ---- */
static void launch_fold(int op, int mode, int in, int acc, ndt_dk_launch *L, unsigned *flags) {
  L->aux = in;
  if (run_mode == RUN_DIRECT) {
    if (ndt__dk_fold(op, mode, acc, L, flags, NULL)) exit(2);
    return;
  }
  int isz[2] = {(int)ndt_dtype_size((ndt_dtype)in), (int)ndt_dtype_size((ndt_dtype)acc)};
  ndt_dk_launch D;
  sum_result = mode == NDT_FD_LINE;
  to_device(L, 2, isz, &D);
  unsigned zero = 0;
  be.h2d(dflags, &zero, sizeof zero);
  if (be.fold(op, mode, acc, &D, dflags, NULL) || be.sync()) exit(2);
  from_device(L, 1, isz[1]);
  sum_result = 0;
  *flags |= get_flags();
}

/* n elements of dtype t drawn from its edge values (clean: no zero, no
 * NaN, so that all/prod and the min/max of numbers show) */
static void fold_data(ndt_dtype t, int clean, unsigned char *p, int64_t n, uint64_t seed) {
  vals ev;
  edge_values(t, &ev);
  int sz = ev.size, ok[MAXV], nok = 0;
  for (int i = 0; i < ev.n; i++) {
    int zero = 1, nan = 0;
    for (int b = 0; b < sz; b++) zero &= ev.v[i][b] == 0;
    if (is_float(t)) {
      int ps = part_size(t);
      for (int q = 0; q < sz / ps; q++) {
        nan |= nan_bits(ev.v[i] + q * ps, ps);
        int z = 1;
        for (int b = 0; b < ps; b++) z &= (ev.v[i][q * ps + b] & (b == ps - 1 ? 0x7f : 0xff)) == 0;
        zero |= z;   /* (a zero part, or -0.0) */
      }
    }
    if (!clean || (!zero && !nan)) ok[nok++] = i;
  }
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    memcpy(p + i * sz, ev.v[ok[x % (uint64_t)nok]], (size_t)sz);
  }
}

static void test_fold(void) {
  static const ndt_reduce_op ops[] = {NDT_RED_SUM,    NDT_RED_PROD,    NDT_RED_MIN,
                                      NDT_RED_MAX,    NDT_RED_ANY,     NDT_RED_ALL,
                                      NDT_RED_NANSUM, NDT_RED_NANPROD, NDT_RED_NANMIN,
                                      NDT_RED_NANMAX};
  static const int64_t lens[] = {0, 1, 2, 7, 64, 129, 1000, 4099};
  const int64_t maxn = 3 * 4099 + 8;
  unsigned char *in = malloc((size_t)maxn * 16), *tmp = malloc((size_t)maxn * 16);
  static unsigned char out[8200][16], ref[8200][16];
  mirror_add(in, (size_t)maxn * 16);
  mirror_add(out, sizeof out);
  int checked = 0, kernels = 0;
  for (int acc = 0; acc < NDT_NTYPES; acc++)
    for (size_t oi = 0; oi < sizeof ops / sizeof *ops; oi++)
      for (int it = 0; it < NDT_NTYPES; it++)
        for (int mode = 0; mode < 2; mode++) {
          int op = ops[oi];
          if (!ndt__dk_fold_has(op, mode, it, acc)) continue;
          ndt_red_kernel k;
          EXPECT(ndt__kern->reduce((ndt_reduce_op)op, (ndt_dtype)acc, &k) == 0,
                 "the CPU has the reduction %d on %s", op, ndt_dtype_name((ndt_dtype)acc));
          ndt_cast_fn cast = it != acc ? ndt__kern->cast((ndt_dtype)it, (ndt_dtype)acc) : NULL;
          int isz = (int)ndt_dtype_size((ndt_dtype)it), asz = (int)ndt_dtype_size((ndt_dtype)acc);
          int sums = is_float((ndt_dtype)acc) && (op == NDT_RED_SUM || op == NDT_RED_NANSUM);
          kernels++;
          for (int clean = 0; clean < 2; clean++)
            for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
              int64_t n = lens[li];
              fold_data((ndt_dtype)it, clean, in, 3 * n + 8, (uint64_t)(acc * 131 + op * 17 + it * 3 + n));
              /* the runs (element strides into in): line layout: n
               * contiguous; 3 rows of n/3 every other element; empty.
               * Column layout: n/3 rows of 3 columns (C order), 3 rows of
               * n/3 columns (Fortran order, the out every other slot). */
              ndt_dk_launch L = {.nrun = 3};
              int64_t c3 = n / 3, offs[8200];   /* the outputs' byte offsets in out */
              int nout = 3;
              for (int e = 0; e < 3; e++) offs[e] = e * 16;
              if (mode == NDT_FD_LINE) {
                L.run[0] = (ndt_dk_run){.rows = 1, .cols = n, .p = {(char *)in, (char *)out[0]},
                                        .cs = {isz, 0}};
                L.run[1] = (ndt_dk_run){.rows = 3, .cols = c3, .p = {(char *)in + isz, (char *)out[1]},
                                        .rs = {(2 * c3 + 1) * isz, 0}, .cs = {2 * isz, 0}};
                L.run[2] = (ndt_dk_run){.rows = 1, .cols = 0, .p = {(char *)in, (char *)out[2]},
                                        .cs = {isz, 0}};
              } else {
                L.nrun = 2;
                /* (a column run has a row at least: the plugin makes none
                 * without, and the launch skips an empty run's operands) */
                L.run[0] = (ndt_dk_run){.rows = c3 ? c3 : 1, .cols = 3, .p = {(char *)in, (char *)out[0]},
                                        .rs = {3 * isz, 0}, .cs = {isz, asz}};
                L.run[1] = (ndt_dk_run){.rows = 3, .cols = c3, .p = {(char *)in + isz, (char *)out[3]},
                                        .rs = {isz, 0}, .cs = {3 * isz, 2 * asz}};
                nout = 3 + (int)c3;
                for (int e = 0; e < 3; e++) offs[e] = e * asz;
                for (int64_t j = 0; j < c3; j++) offs[3 + j] = 3 * 16 + j * 2 * asz;
              }
              /* the CPU: block_body's k.run per row, k.acc per row into a
               * row of partials, with its casts */
              ndt_fpe_clear();
              for (int q = 0; q < L.nrun; q++) {
                const ndt_dk_run *u = &L.run[q];
                int64_t nel = mode == NDT_FD_LINE ? 1 : u->cols;
                char *o = (char *)ref + (u->p[1] - (char *)out);
                for (int64_t j = 0; j < nel; j++) memcpy(o + j * u->cs[1], k.identity, (size_t)asz);
                for (int64_t i = 0; i < u->rows; i++) {
                  const char *ip = u->p[0] + i * u->rs[0];
                  const char *src = ip;
                  int64_t ss = u->cs[0];
                  if (cast) {
                    cast(ip, u->cs[0], (char *)tmp, asz, u->cols);
                    src = (const char *)tmp;
                    ss = asz;
                  }
                  if (mode == NDT_FD_LINE) k.run(o, src, ss, u->cols);
                  else k.acc(o, u->cs[1], src, ss, u->cols);
                }
              }
              unsigned want = ndt_fpe_test() & (NDT_FPE_OVERFLOW | NDT_FPE_INVALID);
              for (int nt = 5; nt <= 128; nt += 123) {
                memset(out, 0x5a, sizeof out);
                int t0 = ndt_dk_emu_threads;
                ndt_dk_emu_threads = nt;
                unsigned fl = 0;
                launch_fold(op, mode, it, acc, &L, &fl);
                ndt_dk_emu_threads = t0;
                int bad = -1;
                const unsigned char *ob = &out[0][0], *rb = &ref[0][0];
                for (int e = 0; e < nout && bad < 0; e++)   /* min/max pick a value: its
                                                               bits; a sum's NaN: any NaN */
                  if (differ((ndt_dtype)acc, ob + offs[e], rb + offs[e], sums ? 2 : 0)) bad = e;
                char hd[40] = "", hc[40] = "";
                if (bad >= 0) {
                  hex(hd, ob + offs[bad], asz);
                  hex(hc, rb + offs[bad], asz);
                }
                EXPECT(bad < 0, "fold %s of %s into %s (%s, n=%lld%s, %d threads): element %d: "
                       "device %s, CPU %s", ndt_fd_opname(op, acc), ndt_dtype_name((ndt_dtype)it),
                       ndt_dtype_name((ndt_dtype)acc), mode ? "columns" : "line", (long long)n,
                       clean ? ", clean" : "", nt, bad, hd, hc);
                if (sums)
                  EXPECT((fl & (NDT_FPE_OVERFLOW | NDT_FPE_INVALID)) == want,
                         "fold %s of %s (n=%lld): flags %u, the CPU's %u", ndt_fd_opname(op, acc),
                         ndt_dtype_name((ndt_dtype)acc), (long long)n, fl, want);
                else
                  EXPECT(fl == 0, "fold %s of %s: no flags (%u)", ndt_fd_opname(op, acc),
                         ndt_dtype_name((ndt_dtype)acc), fl);
                checked++;
              }
            }
        }
  /* (2 bool + 4 x 8 integer + 6 x 4 float/complex kernels, x 2 layouts less
   * the 4 x 2 line sums of floats, over the inputs each takes) */
  printf("fold: %d kernel uses, %d launches checked\n", kernels, checked);
  EXPECT(kernels > 150, "the folds checked (%d)", kernels);
  free(in);
  free(tmp);
}

/* ---- the ordered folds into a result (combine_impl.h) ---- */
static void launch_combine(int op, int acc, int fused, ndt_dk_launch *L, unsigned *flags) {
  L->aux = acc;
  if (run_mode == RUN_DIRECT) {
    if (ndt__dk_combine(op, acc, fused, L, flags, NULL)) exit(2);
    return;
  }
  int isz[2] = {(int)ndt_dtype_size((ndt_dtype)acc), (int)ndt_dtype_size((ndt_dtype)acc)};
  ndt_dk_launch D;
  to_device(L, 2, isz, &D);
  unsigned zero = 0;
  be.h2d(dflags, &zero, sizeof zero);
  if (!be.combine || be.combine(op, acc, fused, &D, dflags, NULL) || be.sync()) exit(2);
  from_device(L, 1, isz[1]);
  *flags |= get_flags();
}

/* The CPU's steps for the launch's chains, as combine_body / fold_block /
 * fold_body take them: per chain its columns start from the identity or
 * the result; each run, in order, row after row: a copied first row,
 * then k.acc (or k.run per column: run_cols). order < 0: a chain's runs
 * in reverse; nocopy: the copied row folded instead (the breaks). */
static void combine_cpu(const ndt_red_kernel *k, const ndt_dk_launch *L, char *obase, char *rbase,
                        int asz, int run_cols, int reverse, int nocopy) {
  for (int h = 0; h < L->nrun; h++) {
    const ndt_dk_run *H = &L->run[h];
    if (H->rs[2] <= 0) continue;
    char *o = rbase + (H->p[1] - obase);
    if (!H->cs[2])
      for (int64_t j = 0; j < H->cols; j++) memcpy(o + j * H->cs[1], k->identity, (size_t)asz);
    for (int64_t c0 = 0; c0 < H->rs[2]; c0++) {
      const ndt_dk_run *r = &L->run[h + (reverse ? H->rs[2] - 1 - c0 : c0)];
      int64_t i = 0;
      if (r->rs[3] && !nocopy) {
        for (int64_t j = 0; j < H->cols; j++) memcpy(o + j * H->cs[1], r->p[0] + j * r->cs[0], (size_t)asz);
        i = 1;
      }
      for (; i < r->rows; i++) {
        if (run_cols)
          for (int64_t j = 0; j < H->cols; j++) k->run(o + j * H->cs[1], r->p[0] + i * r->rs[0] + j * r->cs[0], 0, 1);
        else
          k->acc(o, H->cs[1], r->p[0] + i * r->rs[0], r->cs[0], H->cols);
      }
    }
  }
}

static void test_combine(void) {
  static const ndt_reduce_op ops[] = {NDT_RED_SUM, NDT_RED_PROD, NDT_RED_MIN, NDT_RED_MAX,
                                      NDT_RED_ANY, NDT_RED_ALL, NDT_RED_NANSUM,
                                      NDT_RED_NANPROD, NDT_RED_NANMIN, NDT_RED_NANMAX};
  static const int64_t lens[] = {1, 2, 5, 9, 40, 301};
  enum { CAP = 4096 };
  static unsigned char in[CAP * 16], out[CAP * 16], ref[CAP * 16], brk[CAP * 16], init[CAP * 16];
  mirror_add(in, sizeof in);
  mirror_add(out, sizeof out);
  int kernels = 0, checked = 0, sens_order = 0, sens_copy = 0, float_kernels = 0;
  for (int acc = 0; acc < NDT_NTYPES; acc++)
    for (size_t oi = 0; oi < sizeof ops / sizeof *ops; oi++)
      for (int fused = 0; fused < 2; fused++) {
        int op = ops[oi], cx = acc >= NDT_COMPLEX64, prod = op == NDT_RED_PROD || op == NDT_RED_NANPROD;
        if (fused && !(cx && prod)) continue;
        if (ndt__dk_combine(op, acc, fused, NULL, NULL, NULL)) continue;
        /* the CPU's fused complex products are its k.acc at level >= 2;
         * the unfused ones its k.run (and k.acc below level 2) */
        if (fused && ndt_cpu_level() < 2) continue;
        int run_cols = cx && prod && !fused;
        ndt_red_kernel k;
        EXPECT(ndt__kern->reduce((ndt_reduce_op)op, (ndt_dtype)acc, &k) == 0,
               "the CPU has the reduction %d on %s", op, ndt_dtype_name((ndt_dtype)acc));
        int asz = (int)ndt_dtype_size((ndt_dtype)acc);
        int fp = is_float((ndt_dtype)acc) && (prod || op == NDT_RED_SUM || op == NDT_RED_NANSUM);
        kernels++;
        float_kernels += fp;
        int seen_order = 0, seen_copy = 0;
        for (int clean = 0; clean < 2; clean++)
          for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
            int64_t n = lens[li];
            fold_data((ndt_dtype)acc, clean, in, CAP, (uint64_t)(acc * 131 + op * 17 + n + fused));
            fold_data((ndt_dtype)acc, 1, init, 16, (uint64_t)(acc + n));
            /* chain A (init identity): a copied run of 1 row, a run of n
             * rows every 5 elements, a run of 2 rows; 4 columns into
             * out[0..4). Chain B (from the result): 2 runs of 3 columns,
             * negative row strides, into every other element from out[8].
             * Chain C: one column of 3n rows into out[20] */
            char *ib = (char *)in, *ob = (char *)out;
            ndt_dk_launch L = {.nrun = 6};
            L.run[0] = (ndt_dk_run){.rows = 1, .cols = 4, .p = {ib, ob}, .cs = {asz, asz},
                                    .rs = {0, 0, 3, 1}};
            L.run[1] = (ndt_dk_run){.rows = n, .cols = 4, .p = {ib + 4 * asz, ob}, .cs = {asz, asz},
                                    .rs = {5 * asz, 0, 0, 0}};
            L.run[2] = (ndt_dk_run){.rows = 2, .cols = 4, .p = {ib + (5 * n + 6) * asz, ob},
                                    .cs = {2 * asz, asz}};
            L.run[3] = (ndt_dk_run){.rows = n, .cols = 3, .p = {ib + (8 * n + 20) * asz, ob + 8 * asz},
                                    .cs = {asz, 2 * asz}, .rs = {-3 * asz, 0, 2, 0}};
            L.run[3].cs[2] = 1;
            L.run[4] = (ndt_dk_run){.rows = 2, .cols = 3, .p = {ib + (9 * n + 40) * asz, ob + 8 * asz},
                                    .cs = {-asz, 2 * asz}, .rs = {7 * asz, 0, 0, 0}};
            L.run[5] = (ndt_dk_run){.rows = 3 * n, .cols = 1, .p = {ib + (10 * n + 80) * asz, ob + 20 * asz},
                                    .rs = {asz, 0, 1, 0}};
            for (int b = 0; b < 2; b++) {   /* the result before: B's from init */
              unsigned char *t = b ? ref : out;
              memset(t, 0x5a, 32 * (size_t)asz);
              for (int j = 0; j < 3; j++) memcpy(t + (8 + 2 * j) * asz, init + j * asz, (size_t)asz);
            }
            memcpy(brk, ref, 32 * (size_t)asz);
            ndt_fpe_clear();
            combine_cpu(&k, &L, ob, (char *)ref, asz, run_cols, 0, 0);
            unsigned want = ndt_fpe_test() & (NDT_FPE_OVERFLOW | NDT_FPE_INVALID);
            /* the breaks a device could make: chain A's runs reversed; its
             * first run folded, not copied */
            static const int el[] = {0, 1, 2, 3, 8, 10, 12, 20};
            for (int brkk = 0; brkk < 2 && fp; brkk++) {
              unsigned char tmp[32 * 16];
              memcpy(tmp, brk, 32 * (size_t)asz);
              combine_cpu(&k, &L, ob, (char *)tmp, asz, run_cols, brkk == 0, brkk == 1);
              for (size_t e = 0; e < sizeof el / sizeof *el; e++)
                if (memcmp(tmp + el[e] * asz, ref + el[e] * asz, (size_t)asz)) {
                  if (brkk == 0) seen_order = 1;
                  else seen_copy = 1;
                }
            }
            ndt_fpe_clear();
            for (int nt = 5; nt <= 128; nt += 123) {
              int t0 = ndt_dk_emu_threads;
              ndt_dk_emu_threads = nt;
              for (int b = 0; b < 32; b++)
                if (b < 8 || b > 12 || (b - 8) % 2) memset(out + b * asz, 0x5a, (size_t)asz);
              for (int j = 0; j < 3; j++) memcpy(out + (8 + 2 * j) * asz, init + j * asz, (size_t)asz);
              unsigned fl = 0;
              launch_combine(op, acc, fused, &L, &fl);
              ndt_dk_emu_threads = t0;
              int bad = -1;
              for (size_t e = 0; e < sizeof el / sizeof *el && bad < 0; e++)
                if (differ((ndt_dtype)acc, out + el[e] * asz, ref + el[e] * asz, fp ? 2 : 0)) bad = el[e];
              for (int b = 0; b < 32 && bad < 0; b++)   /* nothing else written */
                if ((b > 3 && b < 8) || (b > 12 && b < 20) || b > 20 || (b > 8 && b < 12 && b % 2))
                  for (int q = 0; q < asz; q++)
                    if (out[b * asz + q] != 0x5a) bad = b;
              char hd[40] = "", hc[40] = "";
              if (bad >= 0) {
                hex(hd, out + bad * asz, asz);
                hex(hc, ref + bad * asz, asz);
              }
              EXPECT(bad < 0, "combine %s on %s (n=%lld%s, %d threads): element %d: device %s, CPU %s",
                     ndt_cb_opname(op, acc, fused), ndt_dtype_name((ndt_dtype)acc), (long long)n,
                     clean ? ", clean" : "", nt, bad, hd, hc);
              if (fp)
                EXPECT((fl & (NDT_FPE_OVERFLOW | NDT_FPE_INVALID)) == want,
                       "combine %s on %s (n=%lld): flags %u, the CPU's %u", ndt_cb_opname(op, acc, fused),
                       ndt_dtype_name((ndt_dtype)acc), (long long)n, fl, want);
              else
                EXPECT(fl == 0, "combine %s on %s: no flags (%u)", ndt_cb_opname(op, acc, fused),
                       ndt_dtype_name((ndt_dtype)acc), fl);
              checked++;
            }
          }
        sens_order += seen_order;
        sens_copy += seen_copy;
      }
  printf("combine: %d kernels, %d launches checked; the breaks change %d and %d of the %d float "
         "sums and products\n", kernels, checked, sens_order, sens_copy, float_kernels);
  EXPECT(kernels >= 60, "the combines checked (%d)", kernels);
  EXPECT(sens_order == float_kernels && sens_copy >= 4,
         "a chain in reverse order (%d of %d) and a copy folded (%d) are seen", sens_order,
         float_kernels, sens_copy);
}

/* ---- argmin / argmax (fold_impl.h) ---- */
static void test_arg(void) {
  static const int64_t lens[] = {0, 1, 2, 7, 64, 129, 1000, 4099};
  const int64_t maxn = 3 * 4099 + 8;
  unsigned char *in = malloc((size_t)maxn * 16);
  static unsigned char val[3][16], ref[3][16];
  static int64_t idx[3], iref[3];
  int checked = 0;
  for (int dt = 0; dt < NDT_NTYPES; dt++)
    for (int op = NDT_RED_ARGMIN; op <= NDT_RED_ARGMAX; op++) {
      ndt_arg_fn argk = ndt__kern->arg((ndt_reduce_op)op, (ndt_dtype)dt);
      EXPECT(argk && ndt__dk_arg(op, dt, NULL, NULL, NULL) == 0, "an arg kernel for %s",
             ndt_dtype_name((ndt_dtype)dt));
      int isz = (int)ndt_dtype_size((ndt_dtype)dt);
      for (int clean = 0; clean < 2; clean++)
        for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
          int64_t n = lens[li], c3 = n / 3;
          fold_data((ndt_dtype)dt, clean, in, 3 * n + 8, (uint64_t)(dt * 7 + op + n));
          if (dt == NDT_BOOL) in[1] = 2;   /* (the bytes are compared) */
          /* n contiguous from index 1000; 3 rows of n/3 every other
           * element from index 5 (the rows' indices follow on); empty */
          ndt_dk_launch L = {.nrun = 3};
          L.run[0] = (ndt_dk_run){.rows = 1, .cols = n, .p = {(char *)in, (char *)val[0], (char *)&idx[0]},
                                  .rs = {0, 0, 0, 1000}, .cs = {isz, 0, 0}};
          L.run[1] = (ndt_dk_run){.rows = 3, .cols = c3,
                                  .p = {(char *)in + isz, (char *)val[1], (char *)&idx[1]},
                                  .rs = {(2 * c3 + 1) * isz, 0, 0, 5}, .cs = {2 * isz, 0, 0}};
          L.run[2] = (ndt_dk_run){.rows = 1, .cols = 0, .p = {(char *)in, (char *)val[2], (char *)&idx[2]},
                                  .rs = {0, 0, 0, 7}, .cs = {isz, 0, 0}};
          for (int q = 0; q < 3; q++) {   /* the CPU's block body: runs in order */
            const ndt_dk_run *u = &L.run[q];
            iref[q] = -1;
            for (int64_t i = 0; i < u->rows; i++)
              argk(u->p[0] + i * u->rs[0], u->cs[0], u->cols, (char *)ref[q], &iref[q],
                   u->rs[3] + i * u->cols);
          }
          for (int nt = 5; nt <= 128; nt += 123) {
            memset(val, 0x5a, sizeof val);
            memset(idx, 0x5a, sizeof idx);
            int t0 = ndt_dk_emu_threads;
            ndt_dk_emu_threads = nt;
            EXPECT(ndt__dk_arg(op, dt, &L, NULL, NULL) == 0, "the arg launch");
            ndt_dk_emu_threads = t0;
            int bad = -1;
            for (int q = 0; q < 3 && bad < 0; q++)
              if (idx[q] != iref[q] || (iref[q] >= 0 && memcmp(val[q], ref[q], (size_t)isz))) bad = q;
            EXPECT(bad < 0, "%s of %s (n=%lld%s, %d threads): run %d: device %lld, CPU %lld",
                   op == NDT_RED_ARGMIN ? "argmin" : "argmax", ndt_dtype_name((ndt_dtype)dt),
                   (long long)n, clean ? ", clean" : "", nt, bad, (long long)(bad >= 0 ? idx[bad] : 0),
                   (long long)(bad >= 0 ? iref[bad] : 0));
            checked++;
          }
        }
    }
  printf("arg: %d launches checked\n", checked);
  free(in);
}

/* ---- the argmin/argmax combine (combine_impl.h's arg chains) ----
 * Two chains of (value, index) partials, some indices -1 (a block that had
 * none): A, 4 columns from three runs (a row, n rows every 5 elements, 2
 * rows), B, one column of 3n rows read backwards; against the CPU's
 * combine (its ARG kernel on one pair at a time, pairs of index -1
 * skipped), every dtype, NaNs and ties. */
static void test_cbarg(void) {
  static const int64_t lens[] = {1, 2, 5, 9, 40, 301};
  enum { CAP = 4096 };
  static unsigned char in[CAP * 16];
  static int64_t ix[CAP], out[8], ref[8];
  int checked = 0;
  for (int dt = 0; dt < NDT_NTYPES; dt++)
    for (int op = NDT_RED_ARGMIN; op <= NDT_RED_ARGMAX; op++) {
      ndt_arg_fn argk = ndt__kern->arg((ndt_reduce_op)op, (ndt_dtype)dt);
      EXPECT(argk && ndt__dk_cbarg(op, dt, NULL, NULL, NULL) == 0, "an arg combine for %s",
             ndt_dtype_name((ndt_dtype)dt));
      if (!argk) continue;
      int isz = (int)ndt_dtype_size((ndt_dtype)dt);
      for (int clean = 0; clean < 2; clean++)
        for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
          int64_t n = lens[li];
          fold_data((ndt_dtype)dt, clean, in, CAP, (uint64_t)(dt * 11 + op * 3 + n));
          if (dt == NDT_BOOL)
            for (int k = 0; k < CAP; k++) in[k] &= 1;
          for (int64_t k = 0; k < CAP; k++) ix[k] = k % 7 == 3 ? -1 : (k * 37) % 1009;
          char *ib = (char *)in, *xb = (char *)ix, *ob = (char *)out;
          ndt_dk_launch L = {.nrun = 4, .aux = dt};
          int64_t e0[4] = {0, 4, 5 * n + 6, 9 * n + 40};   /* the runs' first pairs */
          L.run[0] = (ndt_dk_run){.rows = 1, .cols = 4, .cs = {isz, 8}, .rs = {0, 0, 0, 3}};
          L.run[1] = (ndt_dk_run){.rows = n, .cols = 4, .cs = {isz, 8}, .rs = {5 * isz}};
          L.run[2] = (ndt_dk_run){.rows = 2, .cols = 4, .cs = {2 * isz, 8}, .rs = {7 * isz}};
          L.run[3] = (ndt_dk_run){.rows = 3 * n, .cols = 1, .rs = {-isz, 0, 0, 1}};
          for (int q = 0; q < 4; q++) {
            ndt_dk_run *u = &L.run[q];
            u->p[0] = ib + e0[q] * isz;
            u->p[1] = ob + (q == 3 ? 6 : 0) * 8;
            u->p[2] = xb + e0[q] * 8;
            u->rs[2] = u->rs[0] / isz * 8;
            u->cs[2] = u->cs[0] / isz * 8;
          }
          /* the CPU: combine_body's ARG fold, column by column */
          memset(ref, 0x5a, sizeof ref);
          for (int h = 0; h < 4; h += 3) {
            const ndt_dk_run *H = &L.run[h];
            for (int64_t j = 0; j < H->cols; j++) {
              unsigned char best[16] = {0};
              int64_t bi = -1;
              for (int64_t c = 0; c < H->rs[3]; c++) {
                const ndt_dk_run *r = &L.run[h + c];
                for (int64_t i = 0; i < r->rows; i++) {
                  int64_t pi = *(const int64_t *)(r->p[2] + i * r->rs[2] + j * r->cs[2]);
                  if (pi >= 0) argk(r->p[0] + i * r->rs[0] + j * r->cs[0], isz, 1, (char *)best, &bi, pi);
                }
              }
              ref[(H->p[1] - ob) / 8 + j] = bi;
            }
          }
          for (int nt = 5; nt <= 128; nt += 123) {
            memset(out, 0x5a, sizeof out);
            int t0 = ndt_dk_emu_threads;
            ndt_dk_emu_threads = nt;
            EXPECT(ndt__dk_cbarg(op, dt, &L, NULL, NULL) == 0, "the arg combine launch");
            ndt_dk_emu_threads = t0;
            int bad = -1;
            for (int k = 0; k < 8 && bad < 0; k++)
              if (out[k] != ref[k]) bad = k;
            EXPECT(bad < 0, "%s combine of %s (n=%lld%s, %d threads): element %d: device %lld, CPU %lld",
                   op == NDT_RED_ARGMIN ? "argmin" : "argmax", ndt_dtype_name((ndt_dtype)dt),
                   (long long)n, clean ? ", clean" : "", nt, bad, (long long)(bad >= 0 ? out[bad] : 0),
                   (long long)(bad >= 0 ? ref[bad] : 0));
            checked++;
          }
        }
    }
  printf("arg combine: %d launches checked\n", checked);
}

/* ---- the scans (scan_impl.h) ---- */
static void test_scan(void) {
  static const int64_t lens[] = {0, 1, 2, 5, 300, 700};
  /* input dtypes per result: the same, and the casts NumPy's defaults and
   * dtype= make (integers widened, floats narrowed and widened, floats to
   * integers: invalid for NaN and out of range) */
  static const int extra[][4] = {
      [NDT_BOOL] = {NDT_INT32, NDT_FLOAT64, -1},  [NDT_INT8] = {NDT_INT64, -1},
      [NDT_INT16] = {NDT_BOOL, -1},               [NDT_INT32] = {NDT_FLOAT32, -1},
      [NDT_INT64] = {NDT_BOOL, NDT_INT8, NDT_FLOAT64, -1}, [NDT_UINT8] = {NDT_INT8, -1},
      [NDT_UINT16] = {NDT_BOOL, -1},              [NDT_UINT32] = {NDT_INT16, -1},
      [NDT_UINT64] = {NDT_UINT8, NDT_UINT32, NDT_INT64, -1},
      [NDT_FLOAT32] = {NDT_FLOAT64, NDT_INT32, -1}, [NDT_FLOAT64] = {NDT_FLOAT32, NDT_INT64, NDT_BOOL, -1},
      [NDT_COMPLEX64] = {NDT_COMPLEX128, NDT_FLOAT32, -1},
      [NDT_COMPLEX128] = {NDT_COMPLEX64, NDT_FLOAT64, -1}};
  const int64_t maxn = 3 * 700 * 2 + 8;
  unsigned char *in = malloc((size_t)maxn * 16), *buf = malloc(256 * 16);
  static unsigned char out[3 * 700 * 2 + 8][16], ref[3 * 700 * 2 + 8][16];
  static unsigned char start[3][16], tot[3][16], tref[3][16];
  int checked = 0;
  for (int rt = 0; rt < NDT_NTYPES; rt++) {
    ndt_scan_fn sf;
    ndt_comb_fn cf;
    ndt__kern->scan((ndt_dtype)rt, &sf, &cf);
    int rsz = (int)ndt_dtype_size((ndt_dtype)rt);
    for (int xi = -1; xi < 4; xi++) {
      int it = xi < 0 ? rt : extra[rt][xi];
      if (it < 0) break;
      ndt_cast_fn cast = ndt__kern->cast((ndt_dtype)it, (ndt_dtype)rt);
      int isz = (int)ndt_dtype_size((ndt_dtype)it);
      for (int prod = 0; prod < 2; prod++)
        for (int nan = 0; nan < 2; nan++)
          for (int from = 0; from < 2; from++)
            for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
              int64_t n = lens[li];
              fold_data((ndt_dtype)it, prod && !nan, in, 3 * n * 2 + 8, (uint64_t)(rt * 7 + it * 5 + n + prod));
              fold_data((ndt_dtype)rt, 0, (unsigned char *)start, 3, (uint64_t)(rt + n));
              /* 3 lines of n, every other element of the input, the
               * lines interleaved (line stride one element); the result
               * in C order */
              ndt_dk_launch L = {.nrun = 1};
              L.run[0] = (ndt_dk_run){.rows = 3, .cols = n,
                                      .p = {(char *)in, (char *)out, (char *)tot,
                                            from ? (char *)start : NULL},
                                      .rs = {isz, n * rsz, 16, 16}, .cs = {6 * isz, rsz, 0, 0}};
              L.aux = it | prod << 8 | nan << 9;
              ndt_fpe_clear();
              for (int i = 0; i < 3; i++) {   /* the CPU: block_body's line */
                _Alignas(16) char acc[16];
                memset(acc, 0, sizeof acc);
                int started = from;
                if (from) memcpy(acc, start[i], (size_t)rsz);
                for (int64_t c = 0; c < n; c += 256) {
                  int64_t m = n - c < 256 ? n - c : 256;
                  cast((const char *)in + i * isz + c * 6 * isz, 6 * isz, (char *)buf, rsz, m);
                  sf((const char *)buf, m, acc, &started, (char *)ref + (i * n + c) * rsz, rsz, prod, nan);
                }
                memcpy(tref[i], acc, (size_t)rsz);
              }
              unsigned want = ndt_fpe_test() & (NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_INVALID);
              /* integers: a block of threads a line (5 and 128 threads),
               * then a line a thread; others: a line a thread */
              for (int pass = 0; pass < 3; pass++) {
              int par0 = ndt_sn_par_rows, t0 = ndt_dk_emu_threads;
              ndt_sn_par_rows = pass < 2 ? 1 << 30 : 0;
              ndt_dk_emu_threads = pass == 1 ? 128 : 5;
              memset(out, 0x5a, sizeof out);
              memset(tot, 0x5a, sizeof tot);
              unsigned fl = 0;
              if (ndt__dk_scan(rt, 0, &L, &fl, NULL)) exit(2);
              ndt_sn_par_rows = par0;
              ndt_dk_emu_threads = t0;
              int bad = -1;
              for (int64_t e = 0; e < 3 * n && bad < 0; e++)
                if (differ((ndt_dtype)rt, (unsigned char *)out + e * rsz, (unsigned char *)ref + e * rsz, 2))
                  bad = (int)e;
              for (int i = 0; i < 3 && bad < 0; i++)
                if (differ((ndt_dtype)rt, tot[i], tref[i], 2)) bad = 100000 + i;
              char hd[40] = "", hc[40] = "";
              if (bad >= 0 && bad < 100000) {
                hex(hd, (unsigned char *)out + bad * rsz, rsz);
                hex(hc, (unsigned char *)ref + bad * rsz, rsz);
              }
              EXPECT(bad < 0, "scan %s%s of %s into %s (n=%lld%s, pass %d): element %d: device %s, CPU %s",
                     nan ? "nan" : "", prod ? "prod" : "sum", ndt_dtype_name((ndt_dtype)it),
                     ndt_dtype_name((ndt_dtype)rt), (long long)n, from ? ", continued" : "", pass,
                     bad, hd, hc);
              EXPECT((fl & (NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_INVALID)) == want,
                     "scan %s of %s into %s (n=%lld): flags %u, the CPU's %u", prod ? "prod" : "sum",
                     ndt_dtype_name((ndt_dtype)it), ndt_dtype_name((ndt_dtype)rt), (long long)n, fl,
                     want);
              checked++;
              }
              unsigned fl;
              /* the fix-up of integer and bool results: carry (op) every element */
              if (rt > NDT_UINT64 || from) continue;
              memcpy(out, ref, (size_t)(3 * n * rsz));
              ndt_dk_launch F = {.nrun = 1, .aux = prod << 8};
              F.run[0] = (ndt_dk_run){.rows = 3, .cols = n, .p = {(char *)out, (char *)start},
                                      .rs = {n * rsz, 16}, .cs = {rsz, 0}};
              for (int i = 0; i < 3; i++)
                cf((const char *)start[i], (char *)ref + i * n * rsz, rsz, n, prod);
              fl = 0;
              if (ndt__dk_scan(rt, 1, &F, &fl, NULL)) exit(2);
              EXPECT(!memcmp(out, ref, (size_t)(3 * n * rsz)) && fl == 0,
                     "scan fix-up %s of %s (n=%lld)", prod ? "prod" : "sum",
                     ndt_dtype_name((ndt_dtype)rt), (long long)n);
              checked++;
            }
    }
    EXPECT(ndt__dk_scan(rt, 1, &(ndt_dk_launch){.nrun = 0}, NULL, NULL) == (rt <= NDT_UINT64 ? 0 : -1),
           "a fix-up kernel for %s exactly when integer or bool", ndt_dtype_name((ndt_dtype)rt));
  }
  printf("scan: %d scans and fix-ups checked\n", checked);
  free(in);
  free(buf);
}

/* ---- the CUDA plugin as the backend ---- */

/* ---- the fused groups' interpreter (fused_impl.h) ----
 * Programs as fusion.c's groups make them (src/ops/fusion.c, the plugin's
 * fprog_of), run over an emulated grid (two runs: one row, then a 2-d
 * block) against the CPU's fused body's way: each step's CPU loop through
 * ndt__run_loop (the casts into the loop's dtypes and out of its result),
 * over whole operands, its flags per step. Written results bit for bit
 * (a NaN against a NaN: the device's are canonical), flags per op. */
#define FN 60
typedef struct {
  int ufunc;   /* -1: a cast */
  int nin, src[3];   /* >= 0: operand; < 0: step -(src+1) */
  ndt_dtype loop_in[3], loop_out, out_dt;
  int write, flag;   /* write: the result is an operand; flag: recorded */
} fstep_def;
typedef struct {
  const char *name;
  int nin;           /* external operands */
  ndt_dtype in_dt[4];
  int bstride[4];    /* 0: contiguous; 1: broadcast (stride 0); 2: every other element */
  int nstep;
  fstep_def st[8];
} fprog_def;

static unsigned char fin[4][FN * 2][16], fcpu[8][FN][16], fdev[8][FN][16];

static void fill_fused(int k, ndt_dtype t, unsigned seed) {
  vals v;
  edge_values(t, &v);
  int sz = v.size;
  for (int i = 0; i < FN * 2; i++) {
    seed = seed * 1103515245u + 12345u;
    memcpy(fin[k][0] + (size_t)i * sz, v.v[(seed >> 8) % (unsigned)v.n], (size_t)sz);
  }
}

static void test_fused_prog(const fprog_def *D) {
  int isz[4], osz[8];
  int64_t ist[4];
  for (int k = 0; k < D->nin; k++) {
    isz[k] = (int)ndt_dtype_size(D->in_dt[k]);
    fill_fused(k, D->in_dt[k], 7u * (unsigned)k + 1u);
    ist[k] = D->bstride[k] == 1 ? 0 : D->bstride[k] == 2 ? 2 * isz[k] : isz[k];
  }
  /* the CPU: step after step over whole operands */
  unsigned cpu_fe[8] = {0}, fmask[8] = {0};
  for (int s = 0; s < D->nstep; s++) {
    const fstep_def *f = &D->st[s];
    osz[s] = (int)ndt_dtype_size(f->out_dt);
    char *p[4];
    int64_t st[4];
    ndt_dtype in_dt[3];
    for (int i = 0; i < f->nin; i++) {
      int sr = f->src[i];
      p[i] = sr >= 0 ? (char *)fin[sr][0] : (char *)fcpu[-sr - 1][0];
      st[i] = sr >= 0 ? ist[sr] : osz[-sr - 1];
      in_dt[i] = sr >= 0 ? D->in_dt[sr] : D->st[-sr - 1].out_dt;
    }
    p[f->nin] = (char *)fcpu[s][0];
    st[f->nin] = osz[s];
    ndt_loop_fn loop = NULL;
    if (f->ufunc >= 0) {
      ndt_dtype lt[4];
      for (int i = 0; i < f->nin; i++) lt[i] = f->loop_in[i];
      lt[f->nin] = f->loop_out;
      loop = ndt__kern->loop((ndt_ufunc)f->ufunc, lt);
      EXPECT(loop != NULL, "%s: step %d: the CPU has this loop", D->name, s);
      if (!loop) return;
    }
    ndt_fpe_clear();
    ndt__run_loop(loop, f->nin, in_dt, f->loop_in, f->out_dt, f->loop_out, p, st, FN);
    /* what the op's record keeps (elementwise.c: NumPy's quiet compares,
     * min/max... report nothing); a cast's, all three */
    unsigned m = NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_INVALID;
    if (f->ufunc >= 0) m &= ndt__ufunc_fp_mask((ndt_ufunc)f->ufunc);
    /* the CPU's clip raises "invalid" on a NaN in hardware (its compares),
     * where NumPy warns nothing; the device's clip raises nothing */
    if (f->ufunc == NDT_CLIP) m = 0;
    fmask[s] = m;
    cpu_fe[s] = ndt_fpe_test() & m;
  }
  /* the device: the program, as the plugin builds it */
  static ndt_dk_flaunch L;
  memset(&L, 0, sizeof L);
  int nop = D->nin, outop[8];
  for (int s = 0; s < D->nstep; s++) {
    const fstep_def *f = &D->st[s];
    ndt_dk_fstep *x = &L.prog.step[s];
    x->nin = (int8_t)f->nin;
    for (int i = 0; i < f->nin; i++) {
      x->src[i] = (int8_t)f->src[i];
      x->in_dt[i] = (uint8_t)(f->src[i] >= 0 ? D->in_dt[f->src[i]] : D->st[-f->src[i] - 1].out_dt);
      x->loop_in[i] = (uint8_t)f->loop_in[i];
    }
    x->loop_out = (uint8_t)f->loop_out;
    x->out_dt = (uint8_t)f->out_dt;
    if (f->ufunc < 0) {
      x->key = -1;
    } else {
      int loop[4];
      for (int i = 0; i < f->nin; i++) loop[i] = f->loop_in[i];
      loop[f->nin] = f->loop_out;
      x->key = ndt__dk_ew_key(f->ufunc, f->nin, loop, ndt_cpu_level() >= 2);
      EXPECT(x->key >= 0, "%s: step %d: the device has this kernel", D->name, s);
      if (x->key < 0) return;
    }
    outop[s] = f->write ? nop++ : -1;
    x->out = (int8_t)outop[s];
    x->flag = (int8_t)(f->flag ? s : -1);
  }
  L.prog.nstep = D->nstep;
  L.prog.nop = nop;
  memset(fdev, 0, sizeof fdev);
  /* run 0: elements [0, 20) in one row; run 1: [20, 60) as 4 rows of 10 */
  L.nrun = 2;
  L.run[0].rows = 1;
  L.run[0].cols = 20;
  L.run[1].rows = 4;
  L.run[1].cols = 10;
  for (int k = 0; k < nop; k++) {
    char *base;
    int64_t es;
    if (k < D->nin) {
      base = (char *)fin[k][0];
      es = ist[k];
    } else {
      int s = 0;
      while (outop[s] != k) s++;
      base = (char *)fdev[s][0];
      es = osz[s];
    }
    L.run[0].p[k] = base;
    L.run[0].cs[k] = es;
    L.run[1].p[k] = base + 20 * es;
    L.run[1].rs[k] = 10 * es;
    L.run[1].cs[k] = es;
  }
  unsigned dfl[NDT_DK_FMAXSTEPS] = {0};
  EXPECT(ndt__dk_fused(&L, dfl, NDT_DK_FMAXSTEPS, NULL) == 0, "%s: launched", D->name);
  for (int s = 0; s < D->nstep; s++) {
    const fstep_def *f = &D->st[s];
    if (f->write) {
      int bad = 0, first = -1;
      for (int i = 0; i < FN; i++) {
        const unsigned char *a = fcpu[s][0] + (size_t)i * osz[s], *b = fdev[s][0] + (size_t)i * osz[s];
        if (memcmp(a, b, (size_t)osz[s]) && !(is_float(f->out_dt) && nan_bits(a, osz[s]) &&
                                              nan_bits(b, osz[s]))) {
          if (first < 0) first = i;
          bad++;
        }
      }
      EXPECT(bad == 0, "%s: step %d: %d of %d elements differ from the CPU's (first %d)",
             D->name, s, bad, FN, first);
    }
    if (f->flag)
      EXPECT((dfl[s] & fmask[s]) == cpu_fe[s], "%s: step %d: flags 0x%x, the CPU's 0x%x",
             D->name, s, dfl[s] & fmask[s], cpu_fe[s]);
    else
      EXPECT(dfl[s] == 0, "%s: step %d: not recorded, yet flags 0x%x", D->name, s, dfl[s]);
  }
}

static void test_fused(void) {
  ndt__dk_init();
  const ndt_dtype D = NDT_FLOAT64, S = NDT_FLOAT32, I = NDT_INT32;
  const fprog_def progs[] = {
      /* a*b + c*d - e, the products written too, on float64 */
      {"a*b+c*d-e", 4, {D, D, D, D}, {0, 2, 1, 0}, 4,
       {{NDT_MULTIPLY, 2, {0, 1}, {D, D}, D, D, 1, 1},
        {NDT_MULTIPLY, 2, {2, 3}, {D, D}, D, D, 0, 1},
        {NDT_ADD, 2, {-1, -2}, {D, D}, D, D, 0, 1},
        {NDT_SUBTRACT, 2, {-3, 0}, {D, D}, D, D, 1, 1}}},
      /* the X-ray chain: multiply+add+floor+maximum, then a cast to uint16 */
      {"xray", 3, {S, S, S}, {2, 1, 0}, 5,
       {{NDT_MULTIPLY, 2, {0, 1}, {S, S}, S, S, 0, 1},
        {NDT_ADD, 2, {-1, 2}, {S, S}, S, S, 0, 1},
        {NDT_FLOOR, 1, {-2}, {S}, S, S, 0, 1},
        {NDT_MAXIMUM, 2, {-3, 1}, {S, S}, S, S, 1, 1},
        {-1, 1, {-4}, {S}, S, NDT_UINT16, 1, 1}}},
      /* casts inside: int16 and float32 into float64 loops, a float64 result
       * stored as float32, one op's flags not recorded */
      {"casts", 3, {NDT_INT16, S, D}, {0, 2, 1}, 3,
       {{NDT_MULTIPLY, 2, {0, 1}, {D, D}, D, S, 0, 1},
        {NDT_TRUE_DIVIDE, 2, {-1, 2}, {D, D}, D, D, 1, 0},
        {NDT_SQRT, 1, {-2}, {D}, D, S, 1, 1}}},
      /* integers: floor_divide by zero, an int64 result narrowed to int8 */
      {"ints", 2, {I, NDT_INT8}, {0, 2, 0}, 3,
       {{NDT_ADD, 2, {0, 1}, {I, I}, I, I, 0, 1},
        {NDT_FLOOR_DIVIDE, 2, {-1, 1}, {I, I}, I, NDT_INT64, 1, 1},
        {NDT_REMAINDER, 2, {-2, 0}, {NDT_INT64, NDT_INT64}, NDT_INT64, NDT_INT8, 1, 1}}},
      /* complex: the product (fused on FMA CPUs), a cast to complex64 */
      {"complex", 2, {NDT_COMPLEX128, NDT_COMPLEX128}, {0, 1}, 3,
       {{NDT_MULTIPLY, 2, {0, 1}, {NDT_COMPLEX128, NDT_COMPLEX128}, NDT_COMPLEX128,
         NDT_COMPLEX128, 0, 1},
        {NDT_ADD, 2, {-1, 0}, {NDT_COMPLEX128, NDT_COMPLEX128}, NDT_COMPLEX128,
         NDT_COMPLEX64, 1, 1},
        {NDT_LESS, 2, {-2, 1}, {NDT_COMPLEX128, NDT_COMPLEX128}, NDT_BOOL, NDT_BOOL, 1, 1}}},
      /* where and clip (three inputs), bool in */
      {"where+clip", 3, {NDT_BOOL, D, D}, {0, 0, 2}, 2,
       {{NDT_WHERE, 3, {0, 1, 2}, {NDT_BOOL, D, D}, D, D, 0, 1},
        {NDT_CLIP, 3, {-1, 2, 1}, {D, D, D}, D, D, 1, 1}}},
  };
  for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) test_fused_prog(&progs[i]);
}

/* ---- the random fill ---- */
/* the parameters random.c gives integers(low, high) (high inclusive) */
static ndt_rng_params int_params(ndt_dtype t, uint64_t low, uint64_t high) {
  ndt_rng_params q;
  memset(&q, 0, sizeof q);
  q.dist = NDT_RNG_INTEGERS;
  q.t = t;
  q.base = low;
  q.span = high - low;
  if (q.span < UINT32_MAX) {
    uint32_t range = (uint32_t)(q.span + 1);
    q.thr32 = (uint32_t)(0u - range) % range;
  } else if (q.span > UINT32_MAX && q.span < UINT64_MAX) {
    uint64_t range = q.span + 1;
    q.thr64 = (0 - range) % range;
  }
  return q;
}
static ndt_rng_params float_params(ndt_rng_dist d, ndt_dtype t, double loc, double scale) {
  ndt_rng_params q;
  memset(&q, 0, sizeof q);
  q.dist = d;
  q.t = t;
  q.loc = loc;
  q.scale = scale;
  return q;
}

/* the CPU's values of elements [first, first + n) into out (rand_body's
 * chunks) */
static void rng_cpu(const ndt_rng_params *q, const ndt_rng_key *k, int64_t first, int64_t n,
                    char *out) {
  static ndt_rng_blocks b[NDT_RNG_NPRE];
  static double dbl[NDT_RNG_CH];
  static uint64_t u64[NDT_RNG_CH];
  int isz = ndt_dk_rng_isz(q->t);
  for (int64_t c = 0; c < n; c += NDT_RNG_CH) {
    int m = (int)(n - c < NDT_RNG_CH ? n - c : NDT_RNG_CH);
    ndt__kern->rng_fill(q, k, first + c, m, dbl, u64, b);
    ndt__kern->rng_store(q->t, out + c * isz, dbl, u64, m);
  }
}

#define RNG_RUNS 6
#define RNG_MAXN 1100
static unsigned char rng_ref[RNG_RUNS][RNG_MAXN * 8], rng_dev[RNG_RUNS][RNG_MAXN * 8];
static void *rng_dbuf[RNG_RUNS];

static void rng_case(const char *what, const ndt_rng_params *q) {
  static const ndt_rng_key keys[3] = {{0x12345678u, 0x9abcdef0u, 0}, {1u, 0u, 7u},
                                      {0xdeadbeefu, 0x01234567u, 0xffffffffu}};
  static const int64_t firsts[RNG_RUNS] = {0, 1, 3, 1000001, INT64_C(4294967293) * 4 + 2,
                                           (INT64_C(1) << 40) + 5};
  static const int64_t lens[] = {1, 2, 3, 5, 257, 1031};
  int isz = ndt_dk_rng_isz(q->t);
  for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
    for (int kk = 0; kk < 3; kk++) {
      ndt_dk_rlaunch L;
      memset(&L, 0, sizeof L);
      L.q = *q;
      /* several runs of one launch: each its own key (the next draw) and start */
      for (int r = 0; r < RNG_RUNS; r++) {
        int64_t n = lens[li] + r % 3;
        ndt_rng_key k = keys[(kk + r) % 3];
        k.draw += (uint32_t)r;
        rng_cpu(q, &k, firsts[r], n, (char *)rng_ref[r]);
        memset(rng_dev[r], 0xA5, sizeof rng_dev[r]);
        L.run[r] = (ndt_dk_rrun){.n = n, .first = firsts[r], .key = k,
                                 .p = run_mode == RUN_DIRECT ? (char *)rng_dev[r] : rng_dbuf[r]};
        if (run_mode != RUN_DIRECT) be.h2d(rng_dbuf[r], rng_dev[r], sizeof rng_dev[r]);
      }
      L.nrun = RNG_RUNS;
      int rc = run_mode == RUN_DIRECT ? ndt__dk_rng(&L, NULL) : be.rng(&L, NULL);
      if (run_mode != RUN_DIRECT) {
        if (rc == 0) rc = be.sync();
        for (int r = 0; r < RNG_RUNS; r++) be.d2h(rng_dev[r], rng_dbuf[r], sizeof rng_dev[r]);
      }
      EXPECT(rc == 0, "%s: the launch failed", what);
      for (int r = 0; r < RNG_RUNS; r++) {
        int64_t n = L.run[r].n, bad = -1;
        for (int64_t e = 0; e < n && bad < 0; e++)
          if (memcmp(rng_ref[r] + e * isz, rng_dev[r] + e * isz, (size_t)isz)) bad = e;
        /* and nothing written past the run */
        int over = rng_dev[r][n * isz] != 0xA5;
        EXPECT(bad < 0 && !over, "%s: n %lld, first %lld, key %d: element %lld differs%s", what,
              (long long)n, (long long)firsts[r], (kk + r) % 3, (long long)bad,
              over ? " (written past the run)" : "");
      }
    }
  }
}

static void test_rng(void) {
  if (run_mode != RUN_DIRECT)
    for (int r = 0; r < RNG_RUNS; r++)
      if (!rng_dbuf[r] && !(rng_dbuf[r] = be.dalloc(sizeof rng_dev[r]))) exit(2);
  const ndt_dtype ft[2] = {NDT_FLOAT64, NDT_FLOAT32};
  const ndt_dtype it[9] = {NDT_INT64, NDT_INT32, NDT_INT16, NDT_INT8, NDT_UINT64,
                           NDT_UINT32, NDT_UINT16, NDT_UINT8, NDT_BOOL};
  int maxlevel = ndt__cpu_set_simd_level(-1);
  for (int level = 0; level <= maxlevel; level++) {
    ndt__cpu_set_simd_level(level);
    char nm[96];
    for (int i = 0; i < 2; i++) {
      const char *tn = ndt_dtype_name(ft[i]);
      ndt_rng_params q = float_params(NDT_RNG_RANDOM, ft[i], 0, 1);
      snprintf(nm, sizeof nm, "random %s (level %d)", tn, level);
      rng_case(nm, &q);
      q = float_params(NDT_RNG_UNIFORM, ft[i], -3.0, 8.0);
      snprintf(nm, sizeof nm, "uniform %s (level %d)", tn, level);
      rng_case(nm, &q);
      q = float_params(NDT_RNG_UNIFORM, ft[i], 1e300, -1.7e308);   /* overflows to -inf (float32) */
      snprintf(nm, sizeof nm, "uniform wide %s (level %d)", tn, level);
      rng_case(nm, &q);
      q = float_params(NDT_RNG_NORMAL, ft[i], 0, 1);
      snprintf(nm, sizeof nm, "standard_normal %s (level %d)", tn, level);
      rng_case(nm, &q);
      q = float_params(NDT_RNG_NORMAL, ft[i], 1.5, 2.25);
      snprintf(nm, sizeof nm, "normal %s (level %d)", tn, level);
      rng_case(nm, &q);
      q = float_params(NDT_RNG_EXPONENTIAL, ft[i], 0, 3.0);
      snprintf(nm, sizeof nm, "exponential %s (level %d)", tn, level);
      rng_case(nm, &q);
    }
    /* integers: spans below 2^32 (some rejected half the time), above, full */
    static const struct { uint64_t lo, hi; } spans[] = {
        {0, 9}, {(uint64_t)-5, 1000}, {0, UINT64_C(0x80000000)}, {0, UINT32_MAX},
        {0, UINT64_C(0x100000000)}, {(uint64_t)-5, (UINT64_C(1) << 40)},
        {0, UINT64_C(0x8000000000000000)}, {0, UINT64_MAX}, {7, 7}};
    for (int i = 0; i < 9; i++) {
      int bits = 8 * (int)ndt_dtype_size(it[i]);
      int sgn = it[i] <= NDT_INT64 && it[i] != NDT_BOOL;
      for (size_t s = 0; s < sizeof spans / sizeof *spans; s++) {
        uint64_t lo = spans[s].lo, hi = spans[s].hi;
        if (it[i] == NDT_BOOL) {
          if (s > 1) continue;
          lo = 0, hi = s;   /* [0, 0], [0, 1] */
        } else if (bits < 64) {   /* the span cut to the dtype's range */
          uint64_t m = (UINT64_C(1) << bits) - 1;
          if (sgn) {
            lo = (uint64_t)-(int64_t)(UINT64_C(1) << (bits - 1));
            hi = lo + ((hi - spans[s].lo) & m);
          } else {
            lo = 0;
            hi = (hi - spans[s].lo) & m;
          }
        }
        ndt_rng_params q = int_params(it[i], lo, hi);
        snprintf(nm, sizeof nm, "integers %s [%llx, %llx] (level %d)", ndt_dtype_name(it[i]),
                 (unsigned long long)lo, (unsigned long long)hi, level);
        rng_case(nm, &q);
      }
    }
  }
  ndt__cpu_set_simd_level(maxlevel);
  /* what stays on the CPU */
  ndt_rng_params q = float_params(NDT_RNG_GAMMA, NDT_FLOAT64, 0, 1);
  EXPECT(!ndt__dk_rng_has(&q), "gamma is not the kernel's");
  q.dist = NDT_RNG_POISSON;
  q.t = NDT_INT64;
  EXPECT(!ndt__dk_rng_has(&q), "poisson is not the kernel's");
  q.dist = NDT_RNG_BINOMIAL;
  EXPECT(!ndt__dk_rng_has(&q), "binomial is not the kernel's");
  q = float_params(NDT_RNG_NORMAL, NDT_FLOAT64, NAN, 1);
  EXPECT(!ndt__dk_rng_has(&q), "a NaN loc is not the kernel's");
  q = float_params(NDT_RNG_EXPONENTIAL, NDT_FLOAT32, 0, INFINITY);
  EXPECT(!ndt__dk_rng_has(&q), "an infinite scale is not the kernel's");
  q = float_params(NDT_RNG_RANDOM, NDT_INT64, 0, 1);
  EXPECT(!ndt__dk_rng_has(&q), "random int64 is not the kernel's");
}

/* ---- the index kernels against the CPU's ---- */
#define IT_T 97            /* tile length of the walked store (elements) */
#define IT_NT 40           /* tiles */
static unsigned char *it_tile[IT_NT];
static int it_es;
static char *it_at(const void *ctx, int64_t f, int64_t *lo, int64_t *hi) {
  (void)ctx;
  int64_t t = f / IT_T;
  *lo = t * IT_T;
  *hi = *lo + IT_T;
  return (char *)it_tile[t] + (f - *lo) * it_es;
}
static void it_pieces(ndt_dk_ilaunch *L, unsigned char **tiles) {
  L->np = IT_NT;
  L->period = IT_T;
  L->seg = IT_T;
  L->per = 1;
  L->t0 = 0;
  L->es = it_es;
  for (int t = 0; t < IT_NT; t++) {
    L->pptr[t] = (char *)tiles[t];
    L->pstart[t] = (int64_t)t * IT_T;
    L->plen[t] = IT_T;
  }
}
static uint64_t it_rng = 88172645463325252ull;
static uint64_t it_next(void) {
  it_rng ^= it_rng << 13;
  it_rng ^= it_rng >> 7;
  it_rng ^= it_rng << 17;
  return it_rng;
}
static void it_set(int t, char *p, int64_t v) {
  switch (ndt_dk_index_size(t)) {
    case 1: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case 2: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case 4: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8);
  }
}

static ndt_dk_ilaunch it_L;
/* ---- searchsorted and bin indices (search_impl.h) against the CPU's ----
 * Every dtype, both sides, sorted (the CPU's sort of the edge values) and
 * unsorted arrays (the same binary search gives the same index anyway),
 * contiguous, strided and reversed; bins of every real value dtype over
 * edges of float32 and float64 with both precisions' arithmetic. */
static void test_search(void) {
  static const int64_t lens[] = {0, 1, 2, 7, 64, 1000};
  enum { M = 700, MAXL = 1000 };
  unsigned char *a = malloc((size_t)MAXL * 2 * 16), *v = malloc((size_t)M * 2 * 16);
  unsigned char *kt = malloc((size_t)MAXL * 2 * 16), *cv = malloc((size_t)M * 8);
  int64_t *it = malloc(MAXL * 2 * 8), *ref = malloc(M * 8), *got = malloc(M * 8);
  int checked = 0;
  for (int dt = 0; dt < NDT_NTYPES; dt++) {
    const int sz = (int)ndt_dtype_size((ndt_dtype)dt);
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
      const int64_t n = lens[li];
      for (int sorted = 0; sorted < 2; sorted++) {
        fold_data((ndt_dtype)dt, 0, a, 2 * n, (uint64_t)(dt * 13 + n));
        if (sorted) ndt__kern->sort((ndt_dtype)dt, 0)(a, it, kt, it + 2 * n, 2 * n);
        fold_data((ndt_dtype)dt, 0, v, 2 * M, (uint64_t)(dt * 17 + n + 1));
        for (int layout = 0; layout < 3; layout++)
          for (int right = 0; right < 2; right++) {
            /* a: contiguous (n), every other (n of 2n), reversed; values likewise */
            const char *ab = (const char *)a, *vb = (const char *)v;
            int64_t as = sz, vs = sz;
            if (layout == 1) as = 2 * sz, vs = 2 * sz;
            else if (layout == 2 && n > 0) ab += (n - 1) * sz, as = -sz, vb += (M - 1) * sz, vs = -sz;
            else if (layout == 2) vb += (M - 1) * sz, vs = -sz;
            ndt_kread rd = {ab, as, n, NULL, NULL};
            ndt__kern->search((ndt_dtype)dt)(&rd, vb, vs, M, right, ref);
            memset(got, 0xA5, M * 8);
            ndt_dk_launch L = {.nrun = 1};
            L.run[0] = (ndt_dk_run){.rows = M, .cols = n > 0 ? n : 1,
                                    .p = {(char *)vb, (char *)got, n > 0 ? (char *)ab : NULL},
                                    .rs = {vs, 8, 0}, .cs = {0, 0, as}, .from = n};
            EXPECT(ndt__dk_search(dt, dt, right, 0, &L, NULL) == 0, "search: the launch failed");
            EXPECT(!memcmp(got, ref, M * 8), "searchsorted %s n %lld sorted %d layout %d right %d",
                   ndt_dtype_name((ndt_dtype)dt), (long long)n, sorted, layout, right);
            checked++;
          }
      }
    }
  }
  /* bins: edges of float32/float64, values of every real dtype */
  for (int et = NDT_FLOAT32; et <= NDT_FLOAT64; et++)
    for (int vt = 0; vt <= NDT_FLOAT64; vt++)
      for (int prec = 0; prec < 4; prec++) {
        const int esz = (int)ndt_dtype_size((ndt_dtype)et), vsz = (int)ndt_dtype_size((ndt_dtype)vt);
        const int64_t ne = 11;
        double first = vt <= NDT_UINT64 && vt != NDT_BOOL ? -3 : -0.5, last = 7.25;
        for (int64_t i = 0; i < ne; i++) {   /* edges as NumPy's linspace makes them */
          double e = first + (last - first) * (double)i / (double)(ne - 1);
          if (et == NDT_FLOAT32) {
            float f = (float)e;
            memcpy(a + i * 4, &f, 4);
          } else {
            memcpy(a + i * 8, &e, 8);
          }
        }
        fold_data((ndt_dtype)vt, 0, v, M, (uint64_t)(vt * 7 + prec));
        if (vt == NDT_FLOAT64 || vt == NDT_FLOAT32)   /* and values in the range, on edges */
          for (int j = 0; j < M / 2; j++) {
            double x = first + (last - first) * (double)(j % 97) / 96.0;
            if (vt == NDT_FLOAT32) {
              float f = (float)x;
              memcpy(v + j * 4, &f, 4);
            } else {
              memcpy(v + j * 8, &x, 8);
            }
          }
        ndt__kern->cast((ndt_dtype)vt, (ndt_dtype)et)((const char *)v, vsz, (char *)cv, esz, M);
        ndt_kread rd = {(const char *)a, esz, ne, NULL, NULL};
        ndt_bins_desc bd = {first, last, last - first, prec & 1, prec >> 1 & 1};
        ndt__kern->bins((ndt_dtype)et)(&rd, &bd, cv, M, ref);
        memset(got, 0xA5, M * 8);
        ndt_dk_launch L = {.nrun = 1};
        L.run[0] = (ndt_dk_run){.rows = M, .cols = ne, .p = {(char *)v, (char *)got, (char *)a},
                                .rs = {vsz, 8, 0}, .cs = {0, 0, esz}, .from = ne};
        memcpy(&L.run[0].rs[3], &bd.first, 8);
        memcpy(&L.run[0].cs[3], &bd.last, 8);
        memcpy(L.run[0].start, &bd.denom, 8);
        L.run[0].start[8] = (unsigned char)(bd.single_d | bd.single_f << 1);
        EXPECT(ndt__dk_search(et, vt, 0, 1, &L, NULL) == 0, "bins: the launch failed");
        EXPECT(!memcmp(got, ref, M * 8), "bins %s values %s precision %d",
               ndt_dtype_name((ndt_dtype)et), ndt_dtype_name((ndt_dtype)vt), prec);
        checked++;
      }
  ndt_dk_launch L = {.nrun = 1};
  L.run[0].from = 1;
  EXPECT(ndt__dk_search(NDT_INT64, NDT_INT64, 0, 1, &L, NULL) == -1, "bins: integer edges are refused");
  EXPECT(ndt__dk_search(NDT_FLOAT64, NDT_FLOAT64, 0, 1, &L, NULL) == -1, "bins: one edge is refused");
  printf("search: %d cases\n", checked);
  free(a), free(v), free(kt), free(cv), free(it), free(ref), free(got);
}

/* ---- partition (partition_impl.h) against the CPU's select kernels ----
 * As test_sort: every dtype over its edge values, three lines in two runs
 * of one launch, contiguous, interleaved and reversed, values and indices;
 * kth sets as sort.c passes them (ascending, distinct); bit for bit
 * against sort_body's partition (the select per kth, bounded by the
 * splits before). Then the merge sort the device falls back on after too
 * many rounds, against the CPU's sort (indices moved along). */
static void test_partition(void) {
  static const int64_t lens[] = {1, 2, 5, 16, 17, 33, 300, 2309};
  enum { R = 3, MAXL = 2309 };
  unsigned char *in = malloc((size_t)R * MAXL * 2 * 16), *out = malloc((size_t)R * MAXL * 2 * 16);
  unsigned char *ref = malloc((size_t)R * MAXL * 16), *keys = malloc((size_t)MAXL * 16);
  unsigned char *kt = malloc((size_t)MAXL * 16);
  int64_t *ix = malloc(MAXL * 8), *it = malloc(MAXL * 8);
  char *scr = malloc((size_t)R * (size_t)ndt_dp_scratch(MAXL, NDT_COMPLEX128));
  int checked = 0;
  EXPECT(NDT_DP_MAXSPLIT == NDT_SELECT_MAXSPLIT && NDT_DP_MAXKTH == NDT_SORT_MAXKTH,
         "partition_impl.h's bounds are the CPU's");
  for (int dt = 0; dt < NDT_NTYPES; dt++) {
    const int sz = (int)ndt_dtype_size((ndt_dtype)dt);
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
      const int64_t n = lens[li];
      fold_data((ndt_dtype)dt, 0, in, R * n * 2, (uint64_t)(dt * 37 + n));
      int64_t kset[4][5] = {{n / 2}, {0}, {n - 1}, {0, n / 4, n / 2, n / 2 + 1, n - 1}};
      int nks[4] = {1, 1, 1, 5};
      for (int ks = 0; ks < 4; ks++) {
        int64_t kth[5];
        int nk = 0;
        for (int q = 0; q < nks[ks]; q++)   /* ascending, distinct */
          if (nk == 0 || kset[ks][q] > kth[nk - 1]) kth[nk++] = kset[ks][q];
        for (int layout = 0; layout < 3; layout++)
          for (int wix = 0; wix < 2; wix++) {
            const int osz = wix ? 8 : sz;
            int64_t irs = n * sz, ics = sz, ors = n * osz, ocs = osz;
            char *ib = (char *)in, *ob = (char *)out;
            if (layout == 1) {
              irs = sz, ics = 2 * R * sz, ors = osz, ocs = R * osz;
            } else if (layout == 2) {
              ib += (R * n - 1) * sz;
              irs = -n * sz, ics = -sz;
            }
            ndt_select_fn sel = ndt__kern->select((ndt_dtype)dt, wix);
            for (int i = 0; i < R; i++) {
              for (int64_t j = 0; j < n; j++) {
                memcpy(keys + j * sz, ib + i * irs + j * ics, (size_t)sz);
                ix[j] = j;
              }
              int64_t lo = 0, splits[NDT_SELECT_MAXSPLIT];
              int ns = 0;
              for (int q = 0; q < nk; lo = kth[q++] + 1) {
                int64_t hi = n;
                for (int u = 0; u < ns; u++)
                  if (splits[u] > kth[q] && splits[u] < hi) hi = splits[u];
                sel(keys, wix ? ix : NULL, lo, hi, kth[q], splits, &ns);
              }
              for (int64_t j = 0; j < n; j++)
                memcpy(ref + (i * n + j) * osz, wix ? (void *)&ix[j] : (void *)(keys + j * sz), (size_t)osz);
            }
            const int64_t rec = ndt_dp_scratch(n, dt);
            memset(out, 0xA5, (size_t)R * n * 2 * 16);
            memset(scr, 0x5A, (size_t)(R * rec));
            ndt_dk_launch L = {.nrun = 2};
            L.run[0] = (ndt_dk_run){.rows = 2, .cols = n, .p = {ib, ob, scr, (char *)kth},
                                    .rs = {irs, ors, rec, nk}, .cs = {ics, ocs, 8, 8}};
            L.run[1] = (ndt_dk_run){.rows = 1, .cols = n,
                                    .p = {ib + 2 * irs, ob + 2 * ors, scr + 2 * rec, (char *)kth},
                                    .rs = {irs, ors, rec, nk}, .cs = {ics, ocs, 8, 8}};
            int rc = ndt__dk_partition(dt, wix, &L, NULL);
            EXPECT(rc == 0, "partition %s n %lld: the launch failed", ndt_dtype_name((ndt_dtype)dt),
                   (long long)n);
            int bad = 0;
            for (int i = 0; i < R && !bad; i++)
              for (int64_t j = 0; j < n && !bad; j++)
                if (memcmp(ob + i * ors + j * ocs, ref + (i * n + j) * osz, (size_t)osz)) {
                  bad = 1;
                  fprintf(stderr, "partition %s n %lld kth set %d layout %d indices %d: line %d position %lld differs\n",
                          ndt_dtype_name((ndt_dtype)dt), (long long)n, ks, layout, wix, i, (long long)j);
                }
            EXPECT(!bad, "partition %s n %lld kth set %d layout %d indices %d",
                   ndt_dtype_name((ndt_dtype)dt), (long long)n, ks, layout, wix);
            checked++;
          }
      }
    }
    /* the fallback merge sort, on the longest line */
    const int64_t n = MAXL;
    fold_data((ndt_dtype)dt, 0, in, n, (uint64_t)(dt * 41 + 7));
    memcpy(keys, in, (size_t)(n * sz));
    memcpy(ref, in, (size_t)(n * sz));
    int64_t *jx = (int64_t *)out, *jt = jx + n;
    for (int64_t j = 0; j < n; j++) ix[j] = jx[j] = j;
    ndt__kern->sort((ndt_dtype)dt, 1)(keys, ix, kt, it, n);
    unsigned char *dkt = kt;   /* (the CPU's scratch, reused) */
    switch (dt) {
#define PSORT(SFX, T, LT) \
  case NDT_DP_##SFX: ndt_dp_sort_##SFX((T *)ref, jx, (T *)dkt, jt, n); break;
#define NDT_DP_b NDT_BOOL
#define NDT_DP_i8 NDT_INT8
#define NDT_DP_i16 NDT_INT16
#define NDT_DP_i32 NDT_INT32
#define NDT_DP_i64 NDT_INT64
#define NDT_DP_u8 NDT_UINT8
#define NDT_DP_u16 NDT_UINT16
#define NDT_DP_u32 NDT_UINT32
#define NDT_DP_u64 NDT_UINT64
#define NDT_DP_f32 NDT_FLOAT32
#define NDT_DP_f64 NDT_FLOAT64
#define NDT_DP_c64 NDT_COMPLEX64
#define NDT_DP_c128 NDT_COMPLEX128
      NDT_ORDER_TYPES(PSORT)
#undef PSORT
      default: break;
    }
    EXPECT(!memcmp(keys, ref, (size_t)(n * sz)) && !memcmp(ix, jx, (size_t)n * 8),
           "partition's merge sort %s", ndt_dtype_name((ndt_dtype)dt));
    checked++;
  }
  ndt_dk_launch L = {.nrun = 1};
  L.run[0] = (ndt_dk_run){.rows = 1, .cols = 100, .p = {(char *)in, (char *)out, scr},
                          .rs = {0, 0, 100, 1}, .cs = {8, 8, 8}};
  EXPECT(ndt__dk_partition(NDT_FLOAT64, 0, &L, NULL) == -1, "partition: a short scratch is refused");
  L.run[0].rs[2] = ndt_dp_scratch(100, NDT_FLOAT64);
  L.run[0].rs[3] = NDT_DP_MAXKTH + 1;
  EXPECT(ndt__dk_partition(NDT_FLOAT64, 0, &L, NULL) == -1, "partition: too many kth are refused");
  printf("partition: %d cases\n", checked);
  free(in), free(out), free(ref), free(keys), free(kt), free(ix), free(it), free(scr);
}

/* ---- sort (sort_impl.h) against the CPU's sort kernels ----
 * Every dtype over its edge values (many ties; NaNs of several payloads
 * and signs, -0.0 and 0.0, infinities, integer extremes), lines of 1 to
 * 2309 (the insertion sort, and the radix passes over several chunks: the
 * offsets a thread per line up to NDT_DS_OFF_LINE chunks, 2309 past it),
 * three lines in two runs of one launch, contiguous, interleaved (strided
 * input and output) and reversed; values (with and without the quiet NaN)
 * and indices; bit for bit against sort_body's calls (sort_linear, else
 * the merge sort; quiet_nans). */
static void test_sort(void) {
  static const int64_t lens[] = {1, 2, 5, 32, 33, 256, 300, 700, 2000, 2309};
  enum { R = 3, MAXL = 2309 };
  unsigned char *in = malloc((size_t)R * MAXL * 2 * 16), *out = malloc((size_t)R * MAXL * 2 * 16);
  unsigned char *ref = malloc((size_t)R * MAXL * 16), *keys = malloc((size_t)MAXL * 16);
  unsigned char *kt = malloc((size_t)MAXL * 16);
  int64_t *ix = malloc(MAXL * 8), *it = malloc(MAXL * 8);
  char *scr = malloc((size_t)R * (size_t)ndt_ds_scratch(MAXL));
  int checked = 0;
  for (int dt = 0; dt < NDT_NTYPES; dt++) {
    const int sz = (int)ndt_dtype_size((ndt_dtype)dt);
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
      const int64_t n = lens[li];
      fold_data((ndt_dtype)dt, 0, in, R * n * 2, (uint64_t)(dt * 31 + n));
      for (int layout = 0; layout < 3; layout++)
        for (int wix = 0; wix < 2; wix++)
          for (int quiet = 0; quiet < 2 - wix; quiet++) {
            const int osz = wix ? 8 : sz;
            /* element (i, j) of the input and of the result */
            int64_t irs = n * sz, ics = sz, ors = n * osz, ocs = osz;
            char *ib = (char *)in, *ob = (char *)out;
            if (layout == 1) {   /* lines interleaved, every other element */
              irs = sz, ics = 2 * R * sz, ors = osz, ocs = R * osz;
            } else if (layout == 2) {   /* reversed */
              ib += (R * n - 1) * sz;
              irs = -n * sz, ics = -sz;
            }
            /* the CPU: sort_body's line */
            for (int i = 0; i < R; i++) {
              for (int64_t j = 0; j < n; j++) {
                memcpy(keys + j * sz, ib + i * irs + j * ics, (size_t)sz);
                ix[j] = j;
              }
              if (ndt__kern->sort_linear((ndt_dtype)dt, keys, wix ? ix : NULL, kt, wix ? it : NULL, n) != 0)
                ndt__kern->sort((ndt_dtype)dt, wix)(keys, wix ? ix : NULL, kt, wix ? it : NULL, n);
              if (quiet && n > 1 && (dt == NDT_FLOAT32 || dt == NDT_FLOAT64))
                for (int64_t j = n - 1; j >= 0; j--) {
                  if (dt == NDT_FLOAT64) {
                    double *k = (double *)keys;
                    if (k[j] == k[j]) break;
                    k[j] = (double)NAN;
                  } else {
                    float *k = (float *)keys;
                    if (k[j] == k[j]) break;
                    k[j] = NAN;
                  }
                }
              for (int64_t j = 0; j < n; j++)
                memcpy(ref + (i * n + j) * osz, wix ? (void *)&ix[j] : (void *)(keys + j * sz), (size_t)osz);
            }
            memset(out, 0xA5, (size_t)R * n * 2 * 16);
            memset(scr, 0x5A, (size_t)R * (size_t)ndt_ds_scratch(n));
            const int64_t rec = ndt_ds_scratch(n);
            ndt_dk_launch L = {.nrun = 2};
            L.run[0] = (ndt_dk_run){.rows = 2, .cols = n, .p = {ib, ob, scr},
                                    .rs = {irs, ors, rec}, .cs = {ics, ocs, 8}};
            L.run[1] = (ndt_dk_run){.rows = 1, .cols = n, .p = {ib + 2 * irs, ob + 2 * ors, scr + 2 * rec},
                                    .rs = {irs, ors, rec}, .cs = {ics, ocs, 8}};
            int rc = ndt__dk_sort(dt, wix, quiet, &L, NULL);
            EXPECT(rc == 0, "sort %s n %lld: the launch failed", ndt_dtype_name((ndt_dtype)dt), (long long)n);
            int bad = 0;
            for (int i = 0; i < R && !bad; i++)
              for (int64_t j = 0; j < n && !bad; j++)
                if (memcmp(ob + i * ors + j * ocs, ref + (i * n + j) * osz, (size_t)osz)) {
                  bad = 1;
                  fprintf(stderr, "sort %s n %lld layout %d indices %d quiet %d: line %d position %lld differs\n",
                          ndt_dtype_name((ndt_dtype)dt), (long long)n, layout, wix, quiet, i, (long long)j);
                }
            EXPECT(!bad, "sort %s n %lld layout %d indices %d quiet %d", ndt_dtype_name((ndt_dtype)dt),
                   (long long)n, layout, wix, quiet);
            checked++;
          }
    }
  }
  /* a launch it does not take: a run's scratch too small */
  ndt_dk_launch L = {.nrun = 1};
  L.run[0] = (ndt_dk_run){.rows = 1, .cols = 100, .p = {(char *)in, (char *)out, scr},
                          .rs = {0, 0, 100}, .cs = {8, 8, 8}};
  EXPECT(ndt__dk_sort(NDT_FLOAT64, 0, 0, &L, NULL) == -1, "sort: a short scratch is refused");
  printf("sort: %d cases\n", checked);
  free(in), free(out), free(ref), free(keys), free(kt), free(ix), free(it), free(scr);
}

/* ---- bincount (bincount_impl.h) against the CPU's count kernels ----
 * A block's count for every index dtype, unweighted and weighted (float64,
 * float32, int64, uint64 and bool weights cast as the CPU casts them;
 * NaNs of several payloads, -0.0, infinities whose sums are invalid,
 * huge values that overflow), with and without bounds (indices out of
 * range skipped, the block's (min, max)), strided and reversed operands,
 * lengths from 1 to 3000 and bins from 1 to 70000: the histogram bit for
 * bit against ndt__cpu_count after the CPU's casts; and the combine of
 * 1 to 5 blocks against the CPU's block_sum. */
static void test_bincount(void) {
  static const int64_t lens[] = {1, 5, 32, 33, 300, 3000};
  static const int64_t bins[] = {1, 7, 300, 70000};
  static const int xts[] = {NDT_BOOL, NDT_INT8, NDT_INT16, NDT_INT32, NDT_INT64, NDT_UINT8, NDT_UINT16, NDT_UINT32};
  static const int wts[] = {-1, NDT_FLOAT64, NDT_FLOAT32, NDT_INT64, NDT_UINT64, NDT_BOOL};
  enum { MAXL = 3000, MAXB = 70000 };
  unsigned char *x = malloc(MAXL * 2 * 8), *w = malloc(MAXL * 2 * 8);
  int64_t *xi = malloc(MAXL * 8), *href = malloc(MAXB * 8), *hdev = malloc(MAXB * 8);
  double *wd = malloc(MAXL * 8);
  char *scr = malloc((size_t)ndt_db_scratch(MAXL));
  int checked = 0;
  uint64_t rnd = 77;
#define RND() (rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17, rnd)
  for (size_t xk = 0; xk < sizeof xts / sizeof *xts; xk++)
    for (size_t wk = 0; wk < sizeof wts / sizeof *wts; wk++)
      for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
        for (size_t bi = 0; bi < sizeof bins / sizeof *bins; bi++)
          for (int bounds = 0; bounds < 2; bounds++)
            for (int layout = 0; layout < 3; layout++) {
              const int xt = xts[xk], wt = wts[wk];
              const int64_t n = lens[li], nb = bins[bi];
              const int xsz = (int)ndt_dtype_size((ndt_dtype)xt), wsz = wt < 0 ? 8 : (int)ndt_dtype_size((ndt_dtype)wt);
              /* indices: in [0, nb) (a few bins when nb is large, so runs
               * are long), with bounds some below and above */
              for (int64_t j = 0; j < 2 * n; j++) {
                int64_t v = (int64_t)(RND() % (uint64_t)(nb < 50 ? nb : 50)) * (nb < 50 ? 1 : nb / 50);
                if (bounds && RND() % 7 == 0) v = RND() % 2 ? -(int64_t)(RND() % 5) - 1 : nb + (int64_t)(RND() % 300);
                if (xt == NDT_BOOL) v = v != 0;
                const int64_t lim = xt == NDT_INT8 ? 127 : xt == NDT_UINT8 ? 255 : xt == NDT_INT16 ? 32767 : INT64_MAX;
                if (v > lim) v = lim;
                if (v < 0 && xt >= NDT_UINT8) v = 0;
                switch (xsz) {
                  case 1: { int8_t t = (int8_t)v; memcpy(x + j, &t, 1); break; }
                  case 2: { int16_t t = (int16_t)v; memcpy(x + 2 * j, &t, 2); break; }
                  case 4: { int32_t t = (int32_t)v; memcpy(x + 4 * j, &t, 4); break; }
                  default: memcpy(x + 8 * j, &v, 8);
                }
              }
              if (wt >= 0) fold_data((ndt_dtype)wt, 0, w, 2 * n, (uint64_t)(n + nb + wt));
              /* the operands: contiguous, every other element, reversed */
              const char *xp = (char *)x, *wp = (char *)w;
              int64_t xs = xsz, ws = wsz;
              if (layout == 1) xs *= 2, ws *= 2;
              if (layout == 2) xp += (n - 1) * xsz, wp += (n - 1) * wsz, xs = -xs, ws = -ws;
              /* the CPU: bin_body's calls */
              ndt__kern->cast((ndt_dtype)xt, NDT_INT64)(xp, xs, (char *)xi, 8, n);
              if (wt >= 0) ndt__kern->cast((ndt_dtype)wt, NDT_FLOAT64)(wp, ws, (char *)wd, 8, n);
              int64_t lo = INT64_MAX, hi = INT64_MIN, ok = 1;
              for (int64_t j = 0; j < n; j++) {
                lo = xi[j] < lo ? xi[j] : lo;
                hi = xi[j] > hi ? xi[j] : hi;
                ok &= xi[j] >= 0 && xi[j] < nb;
              }
              if (!bounds && !ok) continue;
              memset(href, 0, (size_t)nb * 8);
              ndt__kern->count(href, xi, wt >= 0 ? wd : NULL, n, bounds ? nb : -1);
              memset(hdev, 0xA5, (size_t)nb * 8);
              memset(scr, 0x5A, (size_t)ndt_db_scratch(n));
              ndt_dk_launch L = {.nrun = 1};
              L.run[0] = (ndt_dk_run){.rows = 1, .cols = n,
                                      .p = {(char *)xp, wt >= 0 ? (char *)wp : NULL, scr, (char *)hdev},
                                      .rs = {0, 0, ndt_db_scratch(n), nb}, .cs = {xs, wt >= 0 ? ws : 0, 8, 0}};
              unsigned f = 0;
              int rc = ndt__dk_bincount(xt, wt, bounds, &L, &f, NULL);
              const int64_t *mm = (const int64_t *)(scr + ndt_ds_scratch(n) + 16 * ndt_ds_nch(n));
              int same = rc == 0 && !memcmp(href, hdev, (size_t)nb * 8) && (!bounds || (mm[0] == lo && mm[1] == hi));
              EXPECT(same, "bincount %s weights %s n %lld bins %lld bounds %d layout %d",
                     ndt_dtype_name((ndt_dtype)xt), wt < 0 ? "none" : ndt_dtype_name((ndt_dtype)wt),
                     (long long)n, (long long)nb, bounds, layout);
              checked++;
            }
  /* the combine: blocks' histograms added in block order (weighted 2:
   * float32, matvec's partials, "matvec combine"; its result strided) */
  for (int weighted = 0; weighted < 3; weighted++)
    for (int nblk = 1; nblk <= 5; nblk++) {
      const int64_t nb = 700, isz = weighted == 2 ? 4 : 8, os = weighted == 2 ? 8 : 8;
      const ndt_dtype dt = weighted == 2 ? NDT_FLOAT32 : weighted ? NDT_FLOAT64 : NDT_INT64;
      if (weighted) fold_data(dt, 0, (unsigned char *)scr, nblk * nb, (uint64_t)nblk);
      else
        for (int64_t j = 0; j < nblk * nb; j++) ((int64_t *)scr)[j] = (int64_t)(RND() % 1000) - 3;
      memset(href, 0xA5, (size_t)nb * 8);
      memset(hdev, 0xA5, (size_t)nb * 8);
      ndt__kern->block_sum(dt, href, os, scr, nblk, nb);
      ndt_dk_launch L = {.nrun = 1};
      L.run[0] = (ndt_dk_run){.rows = nblk, .cols = nb, .p = {scr, (char *)hdev},
                              .rs = {nb * isz, 0}, .cs = {isz, os}};
      unsigned f = 0;
      int rc = ndt__dk_bincount_combine(weighted, &L, &f, NULL);
      EXPECT(rc == 0 && !memcmp(href, hdev, (size_t)nb * 8), "bincount combine weighted %d blocks %d",
             weighted, nblk);
      checked++;
    }
  ndt_dk_launch L3 = {.nrun = 1};
  L3.run[0] = (ndt_dk_run){.rows = 1, .cols = 1, .p = {scr, (char *)hdev}, .cs = {8, 8}};
  unsigned f3 = 0;
  EXPECT(ndt__dk_bincount_combine(3, &L3, &f3, NULL) == -1, "bincount combine: kind 3 taken");
#undef RND
  printf("bincount: %d cases\n", checked);
  free(x), free(w), free(xi), free(href), free(hdev), free(wd), free(scr);
}

static void test_index(void) {
  static const ndt_dtype dts[] = {NDT_BOOL, NDT_INT8, NDT_INT32, NDT_FLOAT64, NDT_COMPLEX64,
                                  NDT_COMPLEX128};
  static const ndt_dtype its[] = {NDT_INT64, NDT_INT32, NDT_INT16, NDT_UINT8};
  static unsigned char *dtile[IT_NT];
  const int64_t S = (int64_t)IT_T * IT_NT;
  int grids[3][2] = {{3, 5}, {1, 1}, {4, 64}};
  for (size_t di = 0; di < sizeof dts / sizeof *dts; di++) {
    int isz = ndt_dk_dtype_size(dts[di]);
    it_es = isz;
    for (int t = 0; t < IT_NT; t++) {
      it_tile[t] = malloc((size_t)IT_T * isz);
      dtile[t] = malloc((size_t)IT_T * isz);
      for (int64_t j = 0; j < (int64_t)IT_T * isz; j++) it_tile[t][j] = (unsigned char)it_next();
    }
    /* the source: a 2-d view 50 x 70, rows reversed, every second column */
    int64_t ashape[2] = {50, 70}, ast[2] = {-70, 2}, aoff = 49 * 70 + 3;
    for (int case_ = 0; case_ < 8; case_++) {
      int ity0 = its[case_ % 4], ity1 = its[(case_ + 1) % 4];
      int nd = case_ < 4 ? 1 : 2, bad = case_ & 1;
      int64_t shape[2] = {nd == 1 ? 333 : 17, nd == 1 ? 1 : 23}, n = shape[0] * shape[1];
      int ity[2] = {ity0, ity1};
      /* index arrays of n positions, at a stride of 3 elements */
      char *ix[2];
      int64_t ist[2][2];
      for (int k = 0; k < 2; k++) {
        int w = ndt_dk_index_size(ity[k]);
        ix[k] = calloc((size_t)n * 3, (size_t)w);
        ist[k][nd - 1] = 3 * w;
        if (nd == 2) ist[k][0] = 3 * w * shape[1];
        for (int64_t e = 0; e < n; e++) {
          int64_t lim = ashape[k];   /* (below 256: uint8 indices reach it) */
          it_set(ity[k], ix[k] + e * 3 * w, (int64_t)(it_next() % (uint64_t)lim));
        }
        if (bad) {   /* two bad ones: the first in C order is (n/2, axis 1) */
          it_set(ity[k], ix[k] + (n / 2 + (k == 0)) * 3 * w, k == 0 ? -1 : ashape[1]);
        }
      }
      char *o1 = calloc((size_t)n, (size_t)isz), *o2 = calloc((size_t)n, (size_t)isz);
      int64_t ost[2] = {nd == 2 ? shape[1] * isz : isz, isz};
      ndt_gather_desc d = {.nd = nd, .nk = 2, .isz = isz, .shape = shape, .ost = ost, .out = o1,
                           .aoff = aoff, .ashape = ashape, .ast = ast};
      for (int k = 0; k < 2; k++) {
        d.idx[k] = ix[k];
        d.ist[k] = ist[k];
        d.it[k] = ity[k];
      }
      d.src = (ndt_kwalk){.base = NULL, .first = aoff, .es = isz, .at = it_at, .ctx = NULL};
      int64_t cbad = 0;
      int cax = 0;
      int crc = ndt__cpu_gather(&d, &cbad, &cax);
      for (int gi = 0; gi < 3; gi++) {
        ndt_dk_emu_blocks = grids[gi][0];
        ndt_dk_emu_threads = grids[gi][1];
        memset(o2, 0, (size_t)n * isz);
        ndt_dk_ilaunch *L = &it_L;
        memset(L, 0, sizeof *L);
        L->nd = nd;
        L->nk = 2;
        L->isz = isz;
        L->n = n;
        L->aoff = aoff;
        L->out = o2;
        for (int j = 0; j < nd; j++) {
          L->shape[j] = shape[j];
          L->ost[j] = ost[j];
        }
        for (int k = 0; k < 2; k++) {
          L->it[k] = ity[k];
          L->idx[k] = ix[k];
          L->ashape[k] = ashape[k];
          L->ast[k] = ast[k];
          for (int j = 0; j < nd; j++) L->ist[k][j] = ist[k][j];
        }
        unsigned long long rep = NDT_DK_INONE;
        L->report = &rep;
        it_pieces(L, it_tile);
        EXPECT(ndt__dk_index(L, NULL) == 0, "index launch refused");
        if (crc) {
          int ok = rep != NDT_DK_INONE;
          int64_t pos = ok ? (int64_t)(rep / 2) : 0;
          int k = ok ? (int)(rep % 2) : 0;
          int64_t v = ok ? ndt_sc_index_at(ity[k], ix[k] + pos * 3 * ndt_dk_index_size(ity[k])) : 0;
          EXPECT(ok && v == cbad && k == cax, "gather %s case %d: bad index %lld axis %d, "
                 "device %lld axis %d", ndt_dtype_name(dts[di]), case_, (long long)cbad, cax,
                 (long long)v, k);
        } else {
          EXPECT(rep == NDT_DK_INONE && !memcmp(o1, o2, (size_t)n * isz),
                 "gather %s case %d grid %d: bytes differ", ndt_dtype_name(dts[di]), case_, gi);
        }
      }
      EXPECT((crc != 0) == bad, "gather case %d: the CPU's result %d", case_, crc);
      free(o1);
      free(o2);
      free(ix[0]);
      free(ix[1]);
    }
    /* put into a 2-d view (rows reversed) of the same store, [lo, hi) a
     * sub-range; repeated indices; then a bad index: nothing written */
    int64_t pshape[2] = {30, 41}, pst[2] = {-41, 1}, poff = 29 * 41 + 100;
    int64_t size = pshape[0] * pshape[1];
    for (int case_ = 0; case_ < 3; case_++) {
      int64_t n = 2000, lo = case_ == 1 ? 300 : 100, hi = case_ == 1 ? 900 : S;
      int64_t *pi = malloc((size_t)n * 2 * 8);
      char *pv = malloc((size_t)n * isz);
      for (int64_t e = 0; e < n; e++) {
        pi[2 * e] = (int64_t)(it_next() % (uint64_t)(e < n / 2 ? size : 50));   /* repeats */
        for (int j = 0; j < isz; j++) pv[e * isz + j] = (char)it_next();
      }
      if (case_ == 2) pi[2 * 1500] = size, pi[2 * 1700] = -1;
      unsigned char *orig[IT_NT];   /* the tiles before the put */
      for (int t = 0; t < IT_NT; t++) {
        orig[t] = malloc((size_t)IT_T * isz);
        memcpy(orig[t], it_tile[t], (size_t)IT_T * isz);
      }
      ndt_put_desc d = {.n = n, .is = 16, .vs = isz, .size = size, .off = poff, .lo = lo,
                        .hi = hi, .idx = (const char *)pi, .vals = pv, .nd = 2, .isz = isz,
                        .shape = pshape, .st = pst};
      d.dst = (ndt_kwalk){.base = NULL, .first = lo, .es = isz, .at = it_at, .ctx = NULL};
      int64_t cbad = 0;
      int crc = ndt__cpu_put(&d, &cbad);
      ndt_dk_ilaunch *L = &it_L;
      memset(L, 0, sizeof *L);
      L->put = 1;
      L->nd = 2;
      L->isz = isz;
      L->n = n;
      L->aoff = poff;
      L->size = size;
      L->lo = lo;
      L->hi = hi;
      L->is = 16;
      L->vs = isz;
      L->idx[0] = (char *)pi;
      L->vals = pv;
      for (int j = 0; j < 2; j++) {
        L->shape[j] = pshape[j];
        L->ost[j] = pst[j];
      }
      /* with claims (three launches, on grids of 3 x 5 and 4 x 64 threads)
       * and without (one thread): the CPU's bytes either way */
      unsigned long long *claims = malloc((size_t)(hi - lo) * 8);
      int pgrids[3][3] = {{3, 5, 1}, {4, 64, 1}, {3, 5, 0}};
      for (int gi = 0; gi < 3; gi++) {
        for (int t = 0; t < IT_NT; t++) memcpy(dtile[t], orig[t], (size_t)IT_T * isz);
        unsigned long long rep = NDT_DK_INONE;
        L->report = &rep;
        memset(claims, 0, (size_t)(hi - lo) * 8);
        L->last = pgrids[gi][2] ? claims : NULL;
        it_pieces(L, dtile);
        ndt_dk_emu_blocks = pgrids[gi][0];
        ndt_dk_emu_threads = pgrids[gi][1];
        EXPECT(ndt__dk_index(L, NULL) == 0, "put launch refused");
        int same = 1;
        for (int t = 0; t < IT_NT; t++) same &= !memcmp(dtile[t], it_tile[t], (size_t)IT_T * isz);
        EXPECT(same, "put %s case %d grid %d: bytes differ", ndt_dtype_name(dts[di]), case_, gi);
        if (crc)
          EXPECT(rep != NDT_DK_INONE && pi[2 * rep] == cbad, "put %s: bad index %lld, device at %llu",
                 ndt_dtype_name(dts[di]), (long long)cbad, rep);
        else
          EXPECT(rep == NDT_DK_INONE, "put %s case %d: a bad index reported", ndt_dtype_name(dts[di]), case_);
      }
      free(claims);
      for (int t = 0; t < IT_NT; t++) free(orig[t]);
      EXPECT((crc != 0) == (case_ == 2), "put case %d: the CPU's result %d", case_, crc);
      free(pi);
      free(pv);
    }
    /* view copy (bind.c's gather of a view across tiles, and its scatter):
     * 1-3 axes, reversed and gapped, a broadcast axis (gather only), blocks
     * of a transpose that leave whole tiles out: each element between the
     * view and buffer position e in C order; with the pieces of every tile
     * of the extent, and (gaps) of the tiles the elements reach alone, as
     * cuda.c hands a view whose binding pinned only those */
    static const int64_t vshape[][3] = {{3877, 1, 1}, {25, 70, 1}, {9, 11, 13}, {60, 5, 1},
                                        {30, 4, 1}, {3, 20, 2}};
    static const int64_t vst[][3] = {{-1, 0, 0}, {-140, 2, 0}, {300, -23, 1}, {0, 7, 0},
                                     {1, 970, 0}, {-1500, -1, 600}};
    static const int64_t voff[] = {3876, 24 * 140 + 3, 22 * 11 + 12 * 1 + 9, 17, 50, 3000 + 40};
    static const int vnd[] = {1, 2, 3, 2, 2, 3};
    for (int c = 0; c < 6; c++) {
      ndt_dk_ilaunch *L = &it_L;
      int64_t n = vshape[c][0] * vshape[c][1] * vshape[c][2];
      char *buf = malloc((size_t)n * isz), *want = malloc((size_t)n * isz);
      for (int dir = 0; dir < (c == 3 ? 1 : 2); dir++)
        for (int gi = 0; gi < 6; gi++) {
          int gaps = gi >= 3;
          memset(L, 0, sizeof *L);
          L->put = 2;
          L->phase = dir;
          L->nd = vnd[c];
          L->isz = isz;
          L->n = n;
          L->aoff = voff[c];
          L->out = buf;
          for (int j = 0; j < vnd[c]; j++) {
            L->shape[j] = vshape[c][j];
            L->ast[j] = vst[c][j];
          }
          for (int t = 0; t < IT_NT; t++) memcpy(dtile[t], it_tile[t], (size_t)IT_T * isz);
          for (int64_t j = 0; j < n * isz; j++) want[j] = buf[j] = (char)it_next();
          it_pieces(L, dtile);
          if (gaps) {   /* the tiles the elements reach, in order */
            int reach[IT_NT] = {0}, np = 0;
            for (int64_t e = 0; e < n; e++) {
              int64_t f = voff[c], r = e;
              for (int j = vnd[c] - 1; j >= 0; j--) {
                f += (r % vshape[c][j]) * vst[c][j];
                r /= vshape[c][j];
              }
              reach[f / IT_T] = 1;
            }
            for (int t = 0; t < IT_NT; t++)
              if (reach[t]) {
                L->pptr[np] = (char *)dtile[t];
                L->pstart[np] = (int64_t)t * IT_T;
                L->plen[np++] = IT_T;
              }
            EXPECT(c < 4 || np < IT_NT / 2, "view copy case %d: %d of %d tiles reached", c, np,
                   IT_NT);
            L->np = np;
            L->gaps = 1;
          }
          ndt_dk_emu_blocks = grids[gi % 3][0];
          ndt_dk_emu_threads = grids[gi % 3][1];
          EXPECT(ndt__dk_index(L, NULL) == 0, "view copy launch refused");
          int same = 1;
          for (int64_t e = 0; e < n; e++) {   /* the element's store offset, in C order */
            int64_t f = voff[c], r = e, lo, hi;
            for (int j = vnd[c] - 1; j >= 0; j--) {
              f += (r % vshape[c][j]) * vst[c][j];
              r /= vshape[c][j];
            }
            char *src = it_at(NULL, f, &lo, &hi);
            if (dir == 0) same &= !memcmp(buf + e * isz, src, (size_t)isz);
            else memcpy(src, want + e * isz, (size_t)isz);   /* it_tile: the expected tiles */
          }
          if (dir == 1) {
            for (int t = 0; t < IT_NT; t++) same &= !memcmp(dtile[t], it_tile[t], (size_t)IT_T * isz);
          }
          EXPECT(same, "view copy %s case %d dir %d grid %d%s: bytes differ",
                 ndt_dtype_name(dts[di]), c, dir, gi % 3, gaps ? " (gaps)" : "");
        }
      free(buf);
      free(want);
    }
    for (int t = 0; t < IT_NT; t++) {
      free(it_tile[t]);
      free(dtile[t]);
    }
  }
  ndt_dk_emu_blocks = 3;
  ndt_dk_emu_threads = 5;
}

/* ---- argwhere's non-zero scan ---- */
static void test_nz(void) {
  static const int64_t shapes[][5] = {   /* nd, shape */
      {1, 1}, {1, 1000}, {2, 37, 41}, {3, 5, 7, 9}, {4, 3, 4, 5, 6}, {2, 1, 5000}};
  static const int threads[] = {1, 5, 256};
  unsigned char edge[64][16];
  int nedge = 0;
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  for (int t = 0; t < NDT_NTYPES; t++) {
    int isz = ndt_dk_dtype_size(t);
    vals ev;
    edge_values((ndt_dtype)t, &ev);
    nedge = ev.n < 64 ? ev.n : 64;
    for (int i = 0; i < nedge; i++) memcpy(edge[i], ev.v[i], (size_t)isz);
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
      int nd = (int)shapes[si][0];
      int64_t shape[4], n = 1;
      for (int k = 0; k < nd; k++) n *= shape[k] = shapes[si][1 + k];
      /* a view with every axis stepped by 2 and the first reversed, in a
       * buffer of 2^nd n elements: half zeros, the rest edge values */
      int64_t cap = n << nd, st[4], off = 0, span = 1;
      unsigned char *buf = calloc((size_t)cap, (size_t)isz);
      for (int64_t e = 0; e < cap; e++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        if ((rng >> 33) & 1) memcpy(buf + e * isz, edge[(rng >> 40) % (uint64_t)nedge], (size_t)isz);
      }
      for (int k = nd - 1; k >= 0; k--) {
        st[k] = 2 * span * isz;
        span *= 2 * shape[k];
      }
      off = (shape[0] - 1) * st[0];
      st[0] = -st[0];
      int64_t start[4] = {11, 0, 3, 7};
      int64_t cnt_cpu = ndt__cpu_nonzero((ndt_dtype)t, (const char *)buf + off, nd, shape, st,
                                         start, NULL);
      int64_t *rows_cpu = malloc((size_t)(cnt_cpu ? cnt_cpu : 1) * nd * 8);
      ndt__cpu_nonzero((ndt_dtype)t, (const char *)buf + off, nd, shape, st, start, rows_cpu);
      int64_t *rows_dev = malloc((size_t)(cnt_cpu ? cnt_cpu : 1) * nd * 8);
      int64_t part[NDT_DK_NZ_MAXCHUNKS];
      int64_t nbs[3] = {1, ndt_dk_nz_chunks(n), n < NDT_DK_NZ_MAXCHUNKS ? n : NDT_DK_NZ_MAXCHUNKS};
      for (int bi = 0; bi < 3; bi++)
        for (size_t ti = 0; ti < sizeof threads / sizeof *threads; ti++) {
          ndt_dk_emu_threads = threads[ti];
          ndt_dk_nzlaunch L;
          memset(&L, 0, sizeof L);
          L.dt = t;
          L.isz = isz;
          L.nd = nd;
          L.n = n;
          L.nb = nbs[bi];
          L.in = (const char *)buf + off;
          for (int k = 0; k < nd; k++) {
            L.shape[k] = shape[k];
            L.st[k] = st[k];
            L.start[k] = start[k];
          }
          unsigned long long count = 0;
          L.mode = NDT_DK_NZ_COUNT;
          L.count = &count;
          EXPECT(ndt__dk_nz(&L, NULL) == 0, "nz launch refused");
          EXPECT((int64_t)count == cnt_cpu, "nz %s shape %zu chunks %lld threads %d: count %llu, "
                 "CPU %lld", ndt_dtype_name((ndt_dtype)t), si, (long long)L.nb, threads[ti], count,
                 (long long)cnt_cpu);
          L.mode = NDT_DK_NZ_CHUNKS;
          L.part = part;
          EXPECT(ndt__dk_nz(&L, NULL) == 0, "nz launch refused");
          int64_t sum = 0;
          for (int64_t c = 0; c < L.nb; c++) sum += part[c];
          EXPECT(sum == cnt_cpu, "nz %s shape %zu: chunks add up to %lld, CPU %lld",
                 ndt_dtype_name((ndt_dtype)t), si, (long long)sum, (long long)cnt_cpu);
          L.mode = NDT_DK_NZ_FILL;
          L.out = rows_dev;
          L.rows = cnt_cpu;
          memset(rows_dev, 0xA5, (size_t)(cnt_cpu ? cnt_cpu : 1) * nd * 8);
          EXPECT(ndt__dk_nz(&L, NULL) == 0, "nz launch refused");
          EXPECT(!memcmp(rows_dev, rows_cpu, (size_t)cnt_cpu * nd * 8),
                 "nz %s shape %zu chunks %lld threads %d: rows differ", ndt_dtype_name((ndt_dtype)t),
                 si, (long long)L.nb, threads[ti]);
        }
      free(rows_cpu);
      free(rows_dev);
      free(buf);
    }
  }
  /* launches the kernel does not take */
  ndt_dk_nzlaunch L;
  memset(&L, 0, sizeof L);
  L.nd = 0;
  L.nb = 1;
  L.isz = 1;
  EXPECT(ndt__dk_nz(&L, NULL) == -1, "nz: a 0-d block taken");
  L.nd = 1;
  L.nb = NDT_DK_NZ_MAXCHUNKS + 1;
  EXPECT(ndt__dk_nz(&L, NULL) == -1, "nz: too many chunks taken");
  ndt_dk_emu_blocks = 3;
  ndt_dk_emu_threads = 5;
}

/* ---- ranges: ew_impl.h's range kernel ("arange": arange, linspace)
 * against the CPU's ndt__cpu_range, bit for bit: every output dtype;
 * integer ranges (wrapping past int64), float64 and float32 ones with
 * arange's first two elements (a start of -0.0, v1), linspace's (i / div)
 * form in both; runs from index 0 and from far in, contiguous and strided,
 * several runs a launch, grids of 1 to 256 threads. */
static void test_range(void) {
  typedef struct { int as_int, as_f32, has_v1; double v1, start, step; int64_t istart, istep;
                   double div; } rd;
  const rd descs[] = {
      {1, 0, 0, 0, 0, 0, -5, 3, 0},
      {1, 0, 0, 0, 0, 0, INT64_MAX - 40, 7, 0},
      {0, 0, 1, -0.0 + 0.1, -0.0, 0.1, 0, 0, 0},
      {0, 0, 1, 2.5 + 1e-3, 2.5, (2.5 + 1e-3) - 2.5, 0, 0, 0},
      {0, 1, 1, (double)(float)(0.3 + 0.7), 0.3, (double)((float)(0.3 + 0.7) - (float)0.3), 0, 0, 0},
      {0, 0, 0, 0, -1.0, 1.0 / 3.0, 0, 0, 0},
      {0, 0, 0, 0, 1e-300, 5e-324, 0, 0, 7},
      {0, 1, 0, 0, 1.0f, 1e-40, 0, 0, 9},
      {0, 0, 0, 0, -3e5, 123.456, 0, 0, 0},
  };
  const int64_t firsts[] = {0, 1, 1000003};
  static const int threads[] = {1, 5, 256};
  enum { N = 97 };
  long checked = 0;
  for (int t = 0; t < NDT_NTYPES; t++) {
    int isz = ndt_dk_dtype_size(t);
    for (size_t di = 0; di < sizeof descs / sizeof *descs; di++) {
      const rd *q = &descs[di];
      ndt_range_desc d = {.as_int = q->as_int, .as_f32 = q->as_f32, .has_v1 = q->has_v1,
                          .v1 = q->v1, .start = q->start, .step = q->step, .istart = q->istart,
                          .istep = q->istep, .div = q->div};
      for (int strided = 0; strided < 2; strided++) {
        int64_t os = (strided ? 3 : 1) * isz;
        unsigned char cpu[3][N * 3 * 16], dev[3][N * 3 * 16];
        memset(cpu, 0xA5, sizeof cpu);
        for (int r = 0; r < 3; r++) ndt__cpu_range(&d, firsts[r], N - r, (ndt_dtype)t, (char *)cpu[r], os);
        for (size_t ti = 0; ti < sizeof threads / sizeof *threads; ti++) {
          ndt_dk_emu_threads = threads[ti];
          memset(dev, 0xA5, sizeof dev);
          ndt_dk_launch L;
          L.nrun = 3;
          L.aux = 0;
          for (int r = 0; r < 3; r++)
            ndt_dk_range_run(&L.run[r], (char *)dev[r], os, N - r, firsts[r], q->as_int, q->as_f32,
                             q->has_v1, q->v1, q->start, q->step, q->istart, q->istep, q->div);
          EXPECT(ndt__dk_range(t, &L, NULL) == 0, "range launch refused");
          EXPECT(!memcmp(cpu, dev, sizeof cpu), "range %s desc %zu %s, %d threads: the CPU's bits",
                 ndt_dtype_name((ndt_dtype)t), di, strided ? "strided" : "contiguous", threads[ti]);
          checked++;
        }
      }
    }
  }
  ndt_dk_launch L = {.nrun = 0};
  EXPECT(ndt__dk_range(NDT_NTYPES, &L, NULL) == -1, "range: a bad dtype taken");
  ndt_dk_emu_threads = 5;
  printf("range: %ld launches checked\n", checked);
}

static void *plug;
static int (*cu_malloc)(void **, size_t);
static int (*cu_memcpy)(void *, const void *, size_t, int);
static int (*cu_sync)(void);
static int (*cu_count)(int *);
static void *cuda_dalloc(size_t n) {
  void *p = NULL;
  return cu_malloc(&p, n) ? NULL : p;
}
static int cuda_h2d(void *d, const void *h, size_t n) { return cu_memcpy(d, h, n, 1); }
static int cuda_d2h(void *h, const void *d, size_t n) { return cu_memcpy(h, d, n, 2); }
static int cuda_sync(void) { return cu_sync(); }
static void (*cu_dk_init)(void);
static int cuda_init(void) {
  cu_dk_init();
  return 0;
}

/* 1 when the plugin loaded and a device is there; else why not in why */
static int cuda_open(const char *path, char *why, size_t cap) {
  plug = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!plug) {
    snprintf(why, cap, "%s", dlerror());
    return 0;
  }
  *(void **)&cu_malloc = dlsym(plug, "cudaMalloc");
  *(void **)&cu_memcpy = dlsym(plug, "cudaMemcpy");
  *(void **)&cu_sync = dlsym(plug, "cudaDeviceSynchronize");
  *(void **)&cu_count = dlsym(plug, "cudaGetDeviceCount");
  *(void **)&cu_dk_init = dlsym(plug, "ndt__dk_init");
  *(void **)&be.ew_has = dlsym(plug, "ndt__dk_ew_has");
  *(void **)&be.ew = dlsym(plug, "ndt__dk_ew");
  *(void **)&be.cast = dlsym(plug, "ndt__dk_cast");
  *(void **)&be.pairwise = dlsym(plug, "ndt__dk_pairwise");
  *(void **)&be.rng = dlsym(plug, "ndt__dk_rng");
  *(void **)&be.fold = dlsym(plug, "ndt__dk_fold");
  *(void **)&be.combine = dlsym(plug, "ndt__dk_combine");
  if (!cu_malloc || !cu_memcpy || !cu_sync || !cu_count || !cu_dk_init || !be.ew || !be.cast ||
      !be.pairwise || !be.rng || !be.fold) {
    snprintf(why, cap, "the plugin lacks the CUDA runtime's or the kernels' entry points");
    return 0;
  }
  int n = 0;
  int e = cu_count(&n);
  if (e || n < 1) {
    snprintf(why, cap, "cudaGetDeviceCount: error %d, %d devices", e, n);
    return 0;
  }
  be.init = cuda_init;
  be.dalloc = cuda_dalloc;
  be.h2d = cuda_h2d;
  be.d2h = cuda_d2h;
  be.sync = cuda_sync;
  return 1;
}

static void setup_mirrors(void) {
  be.init();
  for (int k = 0; k < 3; k++) {
    mirror_add(in_buf[k], sizeof in_buf[k]);
    mirror_add(sbuf[k], sizeof sbuf[k]);
  }
  mirror_add(out_dev, sizeof out_dev);
  dflags = be.dalloc(sizeof(unsigned));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "all";
  ndt_config cfg = {.workers = 1, .inline_elems = -1};
  OK(ndt_init(&cfg));
  if (!strcmp(mode, "mirror")) {
    /* the cuda mode's path (device copies, pointers moved, results back)
     * with host memory for the device's and the kernels compiled here */
    run_mode = RUN_MIRROR;
    be = (ndt_test_backend){host_init,        ndt__dk_ew_has, ndt__dk_ew,    ndt__dk_cast,
                            ndt__dk_pairwise, ndt__dk_rng,    ndt__dk_fold,  host_dalloc,
                            host_h2d,         host_d2h,       host_sync,    ndt__dk_combine};
    setup_mirrors();
    mode = "all";
  } else if (!strcmp(mode, "cuda")) {
    const char *path = argc > 2 ? argv[2] : getenv("NDTILE_CUDA_PLUGIN");
    char why[512] = "";
    if (!path || !cuda_open(path, why, sizeof why)) {
      printf("cuda: no CUDA device to compare with (%s); nothing run\n",
             path ? why : "no plugin path: give one, or set NDTILE_CUDA_PLUGIN");
      ndt_finalize();
      const char *req = getenv("NDT_REQUIRE_GPU");
      return req && *req && strcmp(req, "0") ? 1 : 0;
    }
    run_mode = RUN_CUDA;
    setup_mirrors();
    printf("cuda: the plugin's kernels on the GPU against the CPU\n");
    mode = "all";
  }
  int all = !strcmp(mode, "all");
  if (all || !strcmp(mode, "ew")) test_ew();
  if (all || !strcmp(mode, "cast")) test_cast();
  if (all || !strcmp(mode, "pairwise")) test_pairwise();
  if (all || !strcmp(mode, "pairwise")) test_pairwise_start();
  /* (direct: the top's runs point at host memory) */
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "pwtop")) test_pwtop();
  if (all || !strcmp(mode, "rng")) test_rng();
  if (all || !strcmp(mode, "fold")) test_fold();
  if (all || !strcmp(mode, "combine")) test_combine();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "arg")) test_arg();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "cbarg")) test_cbarg();
  /* (kernels compiled here only: their launches are not mirrored) */
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "scan")) test_scan();
  /* (the host build only: the plugin's entry is not reached here) */
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "fused")) test_fused();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "index")) test_index();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "nz")) test_nz();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "sort")) test_sort();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "partition")) test_partition();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "search")) test_search();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "bincount")) test_bincount();
  if ((all && run_mode == RUN_DIRECT) || !strcmp(mode, "range")) test_range();
  ndt_finalize();
  printf("%s: %d passed, %d failed\n", mode, passed, failed);
  return failed != 0;
}
