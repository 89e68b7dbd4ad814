/* fold_impl.h - the device's reductions other than the pairwise float
 * sums (reduce_impl.h): integer and bool sums and products, min and max
 * (NaN propagating and NaN ignoring), any and all, and the float and
 * complex sums of a "row fold" (the innermost axis kept). Each gives the
 * partial the CPU's reduce kernel (src/kernels/cpu/reduce.c) leaves in its
 * accumulator, bit for bit; and argmin/argmax (below).
 *
 * Two layouts of a run (dk.h's ndt_dk_run):
 *   line (NDT_FD_LINE): the run's rows x cols elements of operand 0, in C
 *     order, fold into the one element *p[1]. The CPU folds them one after
 *     another from the identity; every op here is associative with a
 *     neutral identity (wrapping integers, bool or/and, min/max with "the
 *     first NaN wins" and "the first of equals stays"), so a block of
 *     threads folds pieces and thread 0 folds the pieces in order: the same
 *     bits. Integer and bool ops are commutative too, so their threads take
 *     every ntx-th element (coalesced); the float and complex ones are not
 *     (which NaN, which of -0.0 and 0.0), so their threads take contiguous
 *     pieces. Float sums are not associative: not in this layout.
 *   column (NDT_FD_COLS): column j of the run (rows elements, stride rs)
 *     folds into p[1] + j * cs[1], row after row, as the CPU's k.acc does
 *     for a block whose innermost axis is kept (rows >= 1: an empty run's
 *     operands are not moved by a launch), one thread a column, in
 *     order, so float sums too give the CPU's bits (with the flags of each
 *     addition and x86's NaNs: scalar.h's ndt_sc_add).
 * Operand 0's dtype is the launch's aux (ndt_dk_launch.aux); it is cast to
 * the accumulator's dtype as the CPU's block body casts it (scalar.h's
 * casts): bool and integers to the integer sums and to the float and
 * complex sums of a row fold (the mean of integers), anything to bool for
 * any/all. fold.cu is this file compiled by nvcc; tests/c/test_devkernels.c
 * (fold) runs it on the CPU against the CPU's kernels. Not yet run on a
 * GPU; its speed is unmeasured. */
#ifndef NDT_KERNELS_CUDA_FOLD_IMPL_H
#define NDT_KERNELS_CUDA_FOLD_IMPL_H

#include "ndtile.h"
#include "kernels/cuda/dk.h"

#define NDT_FD_LINE 0
#define NDT_FD_COLS 1
#define NDT_FD_THREADS 256

#define NDT_FD_DT_b NDT_BOOL
#define NDT_FD_DT_i8 NDT_INT8
#define NDT_FD_DT_i16 NDT_INT16
#define NDT_FD_DT_i32 NDT_INT32
#define NDT_FD_DT_i64 NDT_INT64
#define NDT_FD_DT_u8 NDT_UINT8
#define NDT_FD_DT_u16 NDT_UINT16
#define NDT_FD_DT_u32 NDT_UINT32
#define NDT_FD_DT_u64 NDT_UINT64
#define NDT_FD_DT_f32 NDT_FLOAT32
#define NDT_FD_DT_f64 NDT_FLOAT64
#define NDT_FD_DT_c64 NDT_COMPLEX64
#define NDT_FD_DT_c128 NDT_COMPLEX128

/* element p (of dtype in) as a TO: read as it is, or cast as the CPU's
 * cast loop does (bool -> bool normalises there too) */
#define NDT_FD_LD_CASE(FROM, TO) \
  case NDT_FD_DT_##FROM: return ndt_sc_cast_##FROM##_##TO(*(const ndt_sc_t_##FROM *)p);
#define NDT_FD_LOAD(TO, _)                                                       \
  NDT_HD ndt_sc_t_##TO ndt_fd_ld_##TO(int in, const char *p) {                   \
    if (in == NDT_FD_DT_##TO && in != NDT_BOOL) return *(const ndt_sc_t_##TO *)p; \
    switch (in) {                                                                \
      NDT_SC_FOREACH_DTYPE_SFX2(NDT_FD_LD_CASE, TO)                              \
      default: break;                                                            \
    }                                                                            \
    return *(const ndt_sc_t_##TO *)p;                                            \
  }
NDT_SC_FOREACH_DTYPE_SFX(NDT_FD_LOAD, _)

/* ---- the ops: identity and one step a = op(a, v), as reduce.c's ---- */
#define NDT_FD_INT_OPS(SFX, MINV, MAXV)                                               \
  NDT_HD ndt_sc_t_##SFX ndt_fd_id_sum_##SFX(void) { return 0; }                      \
  NDT_HD ndt_sc_t_##SFX ndt_fd_sum_##SFX(ndt_sc_t_##SFX a, ndt_sc_t_##SFX v, unsigned *fe) { \
    (void)fe;                                                                         \
    return ndt_sc_add_##SFX(a, v);                                                    \
  }                                                                                   \
  NDT_HD ndt_sc_t_##SFX ndt_fd_id_prod_##SFX(void) { return 1; }                     \
  NDT_HD ndt_sc_t_##SFX ndt_fd_prod_##SFX(ndt_sc_t_##SFX a, ndt_sc_t_##SFX v, unsigned *fe) { \
    (void)fe;                                                                         \
    return ndt_sc_mul_##SFX(a, v);                                                    \
  }                                                                                   \
  NDT_HD ndt_sc_t_##SFX ndt_fd_id_min_##SFX(void) { return MAXV; }                   \
  NDT_HD ndt_sc_t_##SFX ndt_fd_min_##SFX(ndt_sc_t_##SFX a, ndt_sc_t_##SFX v, unsigned *fe) { \
    (void)fe;                                                                         \
    return v < a ? v : a;                                                             \
  }                                                                                   \
  NDT_HD ndt_sc_t_##SFX ndt_fd_id_max_##SFX(void) { return MINV; }                   \
  NDT_HD ndt_sc_t_##SFX ndt_fd_max_##SFX(ndt_sc_t_##SFX a, ndt_sc_t_##SFX v, unsigned *fe) { \
    (void)fe;                                                                         \
    return v > a ? v : a;                                                             \
  }
NDT_FD_INT_OPS(i8, INT8_MIN, INT8_MAX)
NDT_FD_INT_OPS(i16, INT16_MIN, INT16_MAX)
NDT_FD_INT_OPS(i32, INT32_MIN, INT32_MAX)
NDT_FD_INT_OPS(i64, INT64_MIN, INT64_MAX)
NDT_FD_INT_OPS(u8, 0, UINT8_MAX)
NDT_FD_INT_OPS(u16, 0, UINT16_MAX)
NDT_FD_INT_OPS(u32, 0, UINT32_MAX)
NDT_FD_INT_OPS(u64, 0, UINT64_MAX)

/* bool: any (sum, max) and all (prod, min), results 0 or 1 */
NDT_HD uint8_t ndt_fd_id_any_b(void) { return 0; }
NDT_HD uint8_t ndt_fd_any_b(uint8_t a, uint8_t v, unsigned *fe) {
  (void)fe;
  return (uint8_t)((a != 0) | (v != 0));
}
NDT_HD uint8_t ndt_fd_id_all_b(void) { return 1; }
NDT_HD uint8_t ndt_fd_all_b(uint8_t a, uint8_t v, unsigned *fe) {
  (void)fe;
  return (uint8_t)((a != 0) & (v != 0));
}

/* floats and complex: "v is better than a" (LT/GT; complex in
 * lexicographic order); a NaN beats everything for min/max and is skipped
 * by nanmin/nanmax (whose identity, a NaN, is what an all-NaN run keeps) */
#define NDT_FD_RNAN(x) ((x) != (x))
#define NDT_FD_CNAN(x) ((x).re != (x).re || (x).im != (x).im)
#define NDT_FD_RLT(a, b) ((a) < (b))
#define NDT_FD_RGT(a, b) ((a) > (b))
#define NDT_FD_CLT(a, b) ((a).re < (b).re || ((a).re == (b).re && (a).im < (b).im))
#define NDT_FD_CGT(a, b) ((a).re > (b).re || ((a).re == (b).re && (a).im > (b).im))
#define NDT_FD_FLT_OPS(SFX, T, ISNAN, LT, GT, INF, NINF, QNAN)                         \
  NDT_HD T ndt_fd_id_min_##SFX(void) { return INF; }                                  \
  NDT_HD T ndt_fd_min_##SFX(T a, T v, unsigned *fe) {                                 \
    (void)fe;                                                                         \
    return (ISNAN(v) || LT(v, a)) && !ISNAN(a) ? v : a;                               \
  }                                                                                   \
  NDT_HD T ndt_fd_id_max_##SFX(void) { return NINF; }                                 \
  NDT_HD T ndt_fd_max_##SFX(T a, T v, unsigned *fe) {                                 \
    (void)fe;                                                                         \
    return (ISNAN(v) || GT(v, a)) && !ISNAN(a) ? v : a;                               \
  }                                                                                   \
  NDT_HD T ndt_fd_id_nanmin_##SFX(void) { return QNAN; }                              \
  NDT_HD T ndt_fd_nanmin_##SFX(T a, T v, unsigned *fe) {                              \
    (void)fe;                                                                         \
    return !ISNAN(v) && (ISNAN(a) || LT(v, a)) ? v : a;                               \
  }                                                                                   \
  NDT_HD T ndt_fd_id_nanmax_##SFX(void) { return QNAN; }                              \
  NDT_HD T ndt_fd_nanmax_##SFX(T a, T v, unsigned *fe) {                              \
    (void)fe;                                                                         \
    return !ISNAN(v) && (ISNAN(a) || GT(v, a)) ? v : a;                               \
  }                                                                                   \
  /* the sums of a row fold (the column layout only): a + v in order */     \
  NDT_HD T ndt_fd_id_sum_##SFX(void) {                                                \
    T z;                                                                              \
    memset(&z, 0, sizeof z);                                                          \
    return z;                                                                         \
  }                                                                                   \
  NDT_HD T ndt_fd_sum_##SFX(T a, T v, unsigned *fe) { return ndt_sc_add_##SFX(a, v, fe); } \
  NDT_HD T ndt_fd_id_nansum_##SFX(void) { return ndt_fd_id_sum_##SFX(); }             \
  /* a NaN adds 0, as the CPU's nansum: -0.0 + 0 is +0.0 (a seeded sum's) */       \
  NDT_HD T ndt_fd_nansum_##SFX(T a, T v, unsigned *fe) {                              \
    return ndt_sc_add_##SFX(a, ISNAN(v) ? ndt_fd_id_sum_##SFX() : v, fe);             \
  }
NDT_HD ndt_c64 ndt_fd_c64(uint32_t re, uint32_t im) {
  ndt_c64 c;
  c.re = ndt_sc_of_bits_f32(re);
  c.im = ndt_sc_of_bits_f32(im);
  return c;
}
NDT_HD ndt_c128 ndt_fd_c128(uint64_t re, uint64_t im) {
  ndt_c128 c;
  c.re = ndt_sc_of_bits_f64(re);
  c.im = ndt_sc_of_bits_f64(im);
  return c;
}
/* (C's INFINITY and NAN as the CPU's identities have them) */
NDT_FD_FLT_OPS(f32, float, NDT_FD_RNAN, NDT_FD_RLT, NDT_FD_RGT, ndt_sc_of_bits_f32(0x7f800000u),
               ndt_sc_of_bits_f32(0xff800000u), ndt_sc_of_bits_f32(0x7fc00000u))
NDT_FD_FLT_OPS(f64, double, NDT_FD_RNAN, NDT_FD_RLT, NDT_FD_RGT,
               ndt_sc_of_bits_f64(0x7ff0000000000000ull), ndt_sc_of_bits_f64(0xfff0000000000000ull),
               ndt_sc_of_bits_f64(0x7ff8000000000000ull))
NDT_FD_FLT_OPS(c64, ndt_c64, NDT_FD_CNAN, NDT_FD_CLT, NDT_FD_CGT,
               ndt_fd_c64(0x7f800000u, 0x7f800000u), ndt_fd_c64(0xff800000u, 0xff800000u),
               ndt_fd_c64(0x7fc00000u, 0x7fc00000u))
NDT_FD_FLT_OPS(c128, ndt_c128, NDT_FD_CNAN, NDT_FD_CLT, NDT_FD_CGT,
               ndt_fd_c128(0x7ff0000000000000ull, 0x7ff0000000000000ull),
               ndt_fd_c128(0xfff0000000000000ull, 0xfff0000000000000ull),
               ndt_fd_c128(0x7ff8000000000000ull, 0x7ff8000000000000ull))

/* ---- the kernels: X(OP, SFX, COMMUT) for every (op, accumulator) ---- */
#define NDT_FD_INT_LIST(X, SFX) X(sum, SFX, 1) X(prod, SFX, 1) X(min, SFX, 1) X(max, SFX, 1)
#define NDT_FD_FLT_LIST(X, SFX)                                                   \
  X(min, SFX, 0) X(max, SFX, 0) X(nanmin, SFX, 0) X(nanmax, SFX, 0) X(sum, SFX, 0) \
  X(nansum, SFX, 0)
#define NDT_FD_ALL(X)                                                             \
  X(any, b, 1) X(all, b, 1)                                                       \
  NDT_FD_INT_LIST(X, i8) NDT_FD_INT_LIST(X, i16) NDT_FD_INT_LIST(X, i32)          \
  NDT_FD_INT_LIST(X, i64) NDT_FD_INT_LIST(X, u8) NDT_FD_INT_LIST(X, u16)          \
  NDT_FD_INT_LIST(X, u32) NDT_FD_INT_LIST(X, u64) NDT_FD_FLT_LIST(X, f32)         \
  NDT_FD_FLT_LIST(X, f64) NDT_FD_FLT_LIST(X, c64) NDT_FD_FLT_LIST(X, c128)

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

/* the host build of the plugin counts these launches
 * (NDTILE_CUDAHOST_STATS: "reduce launches", "scan launches") */
#if defined(NDT_DK_HOST) && defined(NDT_DK_STREAM)
void ndt__cudahost_tally(int what);
#define NDT_FD_TALLY(what) ndt__cudahost_tally(what)
#else
#define NDT_FD_TALLY(what) ((void)0)
#endif

/* a line run: thread tx of ntx folds its share from the identity (and
 * thread 0 the shares from the run's start: dk.h) */
#define NDT_FD_PART(OP, SFX, COMMUT)                                                   \
  NDT_HD ndt_sc_t_##SFX ndt_fd_start_##OP##_##SFX(const ndt_dk_run *r) {               \
    ndt_sc_t_##SFX v = ndt_fd_id_##OP##_##SFX();                                       \
    if (r->from) memcpy(&v, r->start, sizeof v);                                       \
    return v;                                                                          \
  }                                                                                    \
  NDT_HD ndt_sc_t_##SFX ndt_fdl_part_##OP##_##SFX(const ndt_dk_run *r, int in, int64_t tx, \
                                                  int64_t ntx, unsigned *fe) {         \
    ndt_sc_t_##SFX acc = ndt_fd_id_##OP##_##SFX();                                     \
    const int64_t n = r->rows * r->cols, cols = r->cols;                               \
    int64_t lo = tx, hi = n, step = ntx;                                              \
    if (!(COMMUT)) {                                                                   \
      const int64_t per = (n + ntx - 1) / ntx;                                         \
      lo = tx * per;                                                                   \
      hi = lo + per < n ? lo + per : n;                                                \
      step = 1;                                                                        \
    }                                                                                  \
    for (int64_t e = lo; e < hi; e += step) {                                          \
      const int64_t i = r->rows == 1 ? 0 : e / cols, j = e - i * cols;                 \
      acc = ndt_fd_##OP##_##SFX(acc, ndt_fd_ld_##SFX(in, r->p[0] + i * r->rs[0] + j * r->cs[0]), \
                                fe);                                                   \
    }                                                                                  \
    return acc;                                                                        \
  }                                                                                    \
  /* a column run: one column, row after row */                                      \
  NDT_DK_BODY void ndt_fdc_##OP##_##SFX##_body(const ndt_dk_launch *L, unsigned *flags, \
                                               ndt_dk_grid g) {                        \
    const ndt_dk_run *r = &L->run[g.by];                                               \
    unsigned f = 0;                                                                    \
    for (int64_t j = g.bx * g.ntx + g.tx; j < r->cols; j += g.nbx * g.ntx) {            \
      ndt_sc_t_##SFX acc = ndt_fd_start_##OP##_##SFX(r);                               \
      const char *p = r->p[0] + j * r->cs[0];                                          \
      for (int64_t i = 0; i < r->rows; i++)                                            \
        acc = ndt_fd_##OP##_##SFX(acc, ndt_fd_ld_##SFX(L->aux, p + i * r->rs[0]), &f);  \
      *(ndt_sc_t_##SFX *)(r->p[1] + j * r->cs[1]) = acc;                               \
    }                                                                                  \
    NDT_DK_FLAGS(flags, f);                                                            \
  }                                                                                    \
  NDT_DK_GLOBAL(ndt_fdc_##OP##_##SFX, 2)                                              \
  static void ndt_fdcl_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0) NDT_FD_TALLY(0);                                                  \
    ndt_fdc_##OP##_##SFX(L, flags, stream);                                            \
  }
NDT_FD_ALL(NDT_FD_PART)

#if defined(NDT_DK_HOST)
#if defined(NDT_DK_STREAM)
#define NDT_FD_QUEUE(NAME)                                                      \
  NDT_FD_TALLY(0);                                                              \
  ndt__cudahost_launch(stream, 2, 2u, L, flags, NAME);
#else
#define NDT_FD_QUEUE(NAME) \
  (void)stream;            \
  NAME(L, flags);
#endif
/* the host emulation: each run's threads in turn, then thread 0's fold */
#define NDT_FD_LINEK(OP, SFX, COMMUT)                                                  \
  static void ndt_fdl_grid_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags) {      \
    for (int q = 0; q < L->nrun; q++) {                                                \
      const ndt_dk_run *r = &L->run[q];                                                \
      unsigned f = 0;                                                                  \
      ndt_sc_t_##SFX acc = ndt_fd_start_##OP##_##SFX(r);                               \
      for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++)                              \
        acc = ndt_fd_##OP##_##SFX(                                                     \
            acc, ndt_fdl_part_##OP##_##SFX(r, L->aux, tx, ndt_dk_emu_threads, &f), &f);  \
      *(ndt_sc_t_##SFX *)r->p[1] = acc;                                                \
      NDT_DK_FLAGS(flags, f);                                                          \
    }                                                                                  \
  }                                                                                    \
  static void ndt_fdl_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0) {                                                                 \
      NDT_FD_QUEUE(ndt_fdl_grid_##OP##_##SFX)                                          \
    }                                                                                  \
  }
#else
/* CUDA: a block of NDT_FD_THREADS per run; thread 0 folds the pieces */
#define NDT_FD_LINEK(OP, SFX, COMMUT)                                                  \
  __global__ void ndt_fdl_k_##OP##_##SFX(const __grid_constant__ ndt_dk_launch L,       \
                                         unsigned *flags) {                            \
    __shared__ ndt_sc_t_##SFX part[NDT_FD_THREADS];                                     \
    const ndt_dk_run *r = &L.run[blockIdx.y];                                           \
    unsigned f = 0;                                                                    \
    part[threadIdx.x] = ndt_fdl_part_##OP##_##SFX(r, L.aux, threadIdx.x, blockDim.x, &f); \
    __syncthreads();                                                                   \
    if (threadIdx.x == 0) {                                                            \
      ndt_sc_t_##SFX acc = ndt_fd_start_##OP##_##SFX(r);                               \
      for (unsigned t = 0; t < blockDim.x; t++) acc = ndt_fd_##OP##_##SFX(acc, part[t], &f); \
      *(ndt_sc_t_##SFX *)r->p[1] = acc;                                                \
    }                                                                                  \
    NDT_DK_FLAGS(flags, f);                                                            \
  }                                                                                    \
  static void ndt_fdl_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0)                                                                   \
      ndt_fdl_k_##OP##_##SFX<<<dim3(1, (unsigned)L->nrun, 1), NDT_FD_THREADS, 0,        \
                               (cudaStream_t)stream>>>(*L, flags);                     \
  }
#endif
NDT_FD_ALL(NDT_FD_LINEK)

/* ---- the table and the entry points ---- */
typedef struct {
  const char *op;
  int acc, commut;
  ndt_dk_fn line, cols;
} ndt_fd_entry;
#define NDT_FD_ROW(OP, SFX, COMMUT) \
  {#OP, NDT_FD_DT_##SFX, COMMUT, ndt_fdl_##OP##_##SFX, ndt_fdcl_##OP##_##SFX},
static const ndt_fd_entry ndt_fd_table[] = {NDT_FD_ALL(NDT_FD_ROW)};

/* the kernel's op name for a reduction op on an accumulator dtype (reduce.c
 * maps bool's and the integers' ops the same way), or NULL */
NDT_HD const char *ndt_fd_opname(int op, int acc) {
  int b = acc == NDT_BOOL, i = acc >= NDT_INT8 && acc <= NDT_UINT64;
  switch (op) {
    case NDT_RED_ANY: return b ? "any" : NULL;
    case NDT_RED_ALL: return b ? "all" : NULL;
    case NDT_RED_SUM: return b ? "any" : "sum";
    case NDT_RED_NANSUM: return b ? "any" : i ? "sum" : "nansum";
    case NDT_RED_PROD: case NDT_RED_NANPROD: return b ? "all" : i ? "prod" : NULL;
    case NDT_RED_MIN: return b ? "all" : "min";
    case NDT_RED_MAX: return b ? "any" : "max";
    case NDT_RED_NANMIN: return b ? "all" : i ? "min" : "nanmin";
    case NDT_RED_NANMAX: return b ? "any" : i ? "max" : "nanmax";
    default: return NULL;
  }
}

static const ndt_fd_entry *ndt_fd_find(int op, int mode, int in, int acc) {
  const char *name = ndt_fd_opname(op, acc);
  if (!name || in < 0 || in >= NDT_NTYPES) return NULL;
  /* the casts the CPU's block body makes for these: bool and integers into
   * an integer accumulator, anything into bool */
  int ak = acc == NDT_BOOL ? 0 : acc <= NDT_UINT64 ? 1 : 2;
  if (ak == 1 && in > NDT_UINT64) return NULL;
  /* and bool and integers into a float or complex row fold's sum (the
   * mean of integers: exact or rounded to nearest, no flag, as the CPU's
   * cast loop) */
  int isum = !strcmp(name, "sum") || !strcmp(name, "nansum");
  if (ak == 2 && in != acc && !(mode == NDT_FD_COLS && isum && in <= NDT_UINT64)) return NULL;
  /* float sums along a line are pairwise (reduce_impl.h), not folds */
  if (mode == NDT_FD_LINE && ak == 2 && (!strcmp(name, "sum") || !strcmp(name, "nansum")))
    return NULL;
  for (size_t k = 0; k < sizeof ndt_fd_table / sizeof *ndt_fd_table; k++)
    if (ndt_fd_table[k].acc == acc && !strcmp(ndt_fd_table[k].op, name)) return &ndt_fd_table[k];
  return NULL;
}

/* 1 when a reduction op (NDT_RED_*) on accumulator acc of operand-0 dtype
 * in has a kernel in layout mode (NDT_FD_LINE, NDT_FD_COLS) */
NDT_DK_ENTRY(int) ndt__dk_fold_has(int op, int mode, int in, int acc) {
  return ndt_fd_find(op, mode, in, acc) != NULL;
}

/* The folds of L's runs (operand 0's dtype in L->aux), flags ORed into
 * *flags: 0, or -1 when there is no such kernel. */
NDT_DK_ENTRY(int) ndt__dk_fold(int op, int mode, int acc, const ndt_dk_launch *L,
                               unsigned *flags, void *stream) {
  const ndt_fd_entry *e = ndt_fd_find(op, mode, L->aux, acc);
  if (!e) return -1;
  (mode == NDT_FD_LINE ? e->line : e->cols)(L, flags, stream);
  return 0;
}

/* ---- argmin / argmax ----
 * Line runs only: p[0] the values (rows x cols, C order: element e of the
 * run has index rs[3] + e, the run's first index in rs[3], operand 3
 * absent), p[1] the best value, p[2] its index (int64; -1 for an empty
 * run). The CPU's rule (reduce.c's ARG): the first of equals, and the
 * first NaN, win; as an associative step over (value, index) pairs in
 * order, threads take contiguous pieces and thread 0 combines them in
 * order. bool's are uint8's (the CPU compares the bytes). */
#define NDT_FA_STEP(OP, SFX, T, ISNAN, BETTER)                                          \
  NDT_HD void ndt_fa_##OP##_##SFX(T *b, int64_t *bi, T v, int64_t vi) {                \
    if (vi < 0 || (*bi >= 0 && ISNAN(*b))) return;                                    \
    if (*bi < 0 || ISNAN(v) || BETTER(v, *b)) {                                       \
      *b = v;                                                                         \
      *bi = vi;                                                                       \
    }                                                                                 \
  }                                                                                   \
  NDT_HD void ndt_fap_##OP##_##SFX(const ndt_dk_run *r, int64_t tx, int64_t ntx, T *b,  \
                                   int64_t *bi) {                                     \
    const int64_t n = r->rows * r->cols, cols = r->cols;                               \
    const int64_t per = (n + ntx - 1) / ntx, lo = tx * per;                            \
    const int64_t hi = lo + per < n ? lo + per : n;                                    \
    memset(b, 0, sizeof *b);                                                           \
    *bi = -1;                                                                          \
    for (int64_t e = lo; e < hi; e++) {                                               \
      const int64_t i = r->rows == 1 ? 0 : e / cols, j = e - i * cols;                 \
      ndt_fa_##OP##_##SFX(b, bi, *(const T *)(r->p[0] + i * r->rs[0] + j * r->cs[0]),   \
                          r->rs[3] + e);                                              \
    }                                                                                 \
  }
#define NDT_FA_TYPE(SFX, T, ISNAN, LT, GT) \
  NDT_FA_STEP(argmin, SFX, T, ISNAN, LT) NDT_FA_STEP(argmax, SFX, T, ISNAN, GT)
#define NDT_FA_NONAN(x) 0
NDT_FA_TYPE(u8, uint8_t, NDT_FA_NONAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(i8, int8_t, NDT_FA_NONAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(i16, int16_t, NDT_FA_NONAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(i32, int32_t, NDT_FA_NONAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(i64, int64_t, NDT_FA_NONAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(u16, uint16_t, NDT_FA_NONAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(u32, uint32_t, NDT_FA_NONAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(u64, uint64_t, NDT_FA_NONAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(f32, float, NDT_FD_RNAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(f64, double, NDT_FD_RNAN, NDT_FD_RLT, NDT_FD_RGT)
NDT_FA_TYPE(c64, ndt_c64, NDT_FD_CNAN, NDT_FD_CLT, NDT_FD_CGT)
NDT_FA_TYPE(c128, ndt_c128, NDT_FD_CNAN, NDT_FD_CLT, NDT_FD_CGT)
#define NDT_FA_ALL(X)                                                                  \
  X(argmin, u8, uint8_t) X(argmax, u8, uint8_t) X(argmin, i8, int8_t) X(argmax, i8, int8_t) \
  X(argmin, i16, int16_t) X(argmax, i16, int16_t) X(argmin, i32, int32_t)              \
  X(argmax, i32, int32_t) X(argmin, i64, int64_t) X(argmax, i64, int64_t)              \
  X(argmin, u16, uint16_t) X(argmax, u16, uint16_t) X(argmin, u32, uint32_t)           \
  X(argmax, u32, uint32_t) X(argmin, u64, uint64_t) X(argmax, u64, uint64_t)           \
  X(argmin, f32, float) X(argmax, f32, float) X(argmin, f64, double)                   \
  X(argmax, f64, double) X(argmin, c64, ndt_c64) X(argmax, c64, ndt_c64)               \
  X(argmin, c128, ndt_c128) X(argmax, c128, ndt_c128)

#if defined(NDT_DK_HOST)
#define NDT_FA_K(OP, SFX, T)                                                            \
  static void ndt_fag_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags) {           \
    (void)flags;                                                                        \
    for (int q = 0; q < L->nrun; q++) {                                                 \
      const ndt_dk_run *r = &L->run[q];                                                 \
      T b, pb;                                                                          \
      int64_t bi = -1, pi;                                                              \
      memset(&b, 0, sizeof b);                                                          \
      for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++) {                             \
        ndt_fap_##OP##_##SFX(r, tx, ndt_dk_emu_threads, &pb, &pi);                      \
        ndt_fa_##OP##_##SFX(&b, &bi, pb, pi);                                           \
      }                                                                                 \
      *(T *)r->p[1] = b;                                                                \
      *(int64_t *)r->p[2] = bi;                                                         \
    }                                                                                   \
  }                                                                                     \
  static void ndt_fal_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0) {                                                                  \
      NDT_FD_QUEUE3(ndt_fag_##OP##_##SFX)                                               \
    }                                                                                   \
  }
#if defined(NDT_DK_STREAM)
#define NDT_FD_QUEUE3(NAME)                                                     \
  NDT_FD_TALLY(0);                                                              \
  ndt__cudahost_launch(stream, 3, 6u, L, flags, NAME);
#else
#define NDT_FD_QUEUE3(NAME) \
  (void)stream;             \
  NAME(L, flags);
#endif
#else
#define NDT_FA_K(OP, SFX, T)                                                            \
  __global__ void ndt_fak_##OP##_##SFX(const __grid_constant__ ndt_dk_launch L,         \
                                       unsigned *flags) {                               \
    __shared__ T val[NDT_FD_THREADS];                                                   \
    __shared__ int64_t idx[NDT_FD_THREADS];                                             \
    const ndt_dk_run *r = &L.run[blockIdx.y];                                           \
    (void)flags;                                                                        \
    ndt_fap_##OP##_##SFX(r, threadIdx.x, blockDim.x, &val[threadIdx.x], &idx[threadIdx.x]); \
    __syncthreads();                                                                    \
    if (threadIdx.x == 0) {                                                             \
      T b = val[0];                                                                     \
      int64_t bi = idx[0];                                                              \
      for (unsigned t = 1; t < blockDim.x; t++) ndt_fa_##OP##_##SFX(&b, &bi, val[t], idx[t]); \
      *(T *)r->p[1] = b;                                                                \
      *(int64_t *)r->p[2] = bi;                                                         \
    }                                                                                   \
  }                                                                                     \
  static void ndt_fal_##OP##_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) { \
    if (L->nrun > 0)                                                                    \
      ndt_fak_##OP##_##SFX<<<dim3(1, (unsigned)L->nrun, 1), NDT_FD_THREADS, 0,          \
                             (cudaStream_t)stream>>>(*L, flags);                        \
  }
#endif
NDT_FA_ALL(NDT_FA_K)

typedef struct {
  int op, dt;
  ndt_dk_fn fn;
} ndt_fa_entry;
#define NDT_FA_ROW(OP, SFX, T) \
  {NDT_RED_##OP, NDT_FD_DT_##SFX, ndt_fal_##OP##_##SFX},
#define NDT_RED_argmin NDT_RED_ARGMIN
#define NDT_RED_argmax NDT_RED_ARGMAX
static const ndt_fa_entry ndt_fa_table[] = {NDT_FA_ALL(NDT_FA_ROW)};

/* The arg reductions (NDT_RED_ARGMIN/ARGMAX) of L's runs of dtype dt: 0, or
 * -1 when there is no such kernel (dt NULL-launch: just the question). */
NDT_DK_ENTRY(int) ndt__dk_arg(int op, int dt, const ndt_dk_launch *L, unsigned *flags,
                              void *stream) {
  if (dt == NDT_BOOL) dt = NDT_UINT8;
  for (size_t k = 0; k < sizeof ndt_fa_table / sizeof *ndt_fa_table; k++)
    if (ndt_fa_table[k].op == op && ndt_fa_table[k].dt == dt) {
      if (L) ndt_fa_table[k].fn(L, flags, stream);
      return 0;
    }
  return -1;
}

#endif
#endif
