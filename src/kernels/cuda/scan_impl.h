/* scan_impl.h - the device's cumulative sums and products (src/ops/scan.c's
 * "scan" and "scan fixup" tasks), with the bits of the CPU's kernels
 * (src/kernels/cpu/scan.c).
 *
 * A run (dk.h's ndt_dk_run) is rows lines of cols elements along the
 * scanned axis: operand 0 the input (line i, element j at p[0] + i * rs[0]
 * + j * cs[0]), 1 the result, 2 the line's total (p[2] + i * rs[2]; NULL:
 * none kept), 3 where the line starts from: the last element of its
 * predecessor's line (p[3] + i * rs[3]; NULL: it starts afresh). Each line
 * is scanned by one thread, element after element, as the CPU scans it:
 * out[j] = out[j-1] (op) x[j], the first element itself (float and
 * complex sums and products are not associative, so only this order gives
 * the CPU's bits; lines run in parallel). The input is cast into the
 * result's dtype as the CPU's cast loop does (scalar.h's casts, with their
 * flags); NaN-ignoring scans take a NaN as the identity; float and complex
 * steps report overflow and invalid and give x86's NaNs (scalar.h's
 * ndt_sc_add/mul; complex products unfused, as the CPU's scan).
 *
 * The fix-up of an integer or bool scan (blocks scanned in parallel, each
 * then combined with the carry of the blocks before it: exact, as the
 * arithmetic wraps) runs over every element: r = carry (op) r, operand 1
 * the line's carry (rs[1] a line, cs[1] 0).
 *
 * The launch's aux: the input's dtype | prod << 8 | nan << 9. fold.cu
 * compiles this file with nvcc (with fold_impl.h, whose loads it uses);
 * tests/c/test_devkernels.c (scan) runs it on the CPU against the CPU's
 * kernels. Integer and bool scans of few lines take a block of threads a
 * line (below). Not yet run on a GPU; a float line a thread is slow for
 * long lines (a 1-d float cumsum of a 2 MiB tile is one thread). */
#ifndef NDT_KERNELS_CUDA_SCAN_IMPL_H
#define NDT_KERNELS_CUDA_SCAN_IMPL_H

#include "ndtile.h"
#include "kernels/cuda/dk.h"
#include "kernels/cuda/fold_impl.h"

#define NDT_SN_PROD(aux) (((aux) >> 8) & 1)
#define NDT_SN_NAN(aux) (((aux) >> 9) & 1)
#define NDT_SN_IN(aux) ((aux) & 0xff)

/* element p (of dtype in) as a TO, with the flags of the CPU's cast */
#define NDT_SN_LD_CASE(FROM, TO)                                               \
  case NDT_FD_DT_##FROM: {                                                     \
    const ndt_sc_t_##FROM x = *(const ndt_sc_t_##FROM *)p;                     \
    *fe |= ndt_sc_cast_fe_##FROM##_##TO(x);                                    \
    return ndt_sc_cast_##FROM##_##TO(x);                                       \
  }
#define NDT_SN_LOAD(TO, _)                                                     \
  NDT_HD ndt_sc_t_##TO ndt_sn_ld_##TO(int in, const char *p, unsigned *fe) {   \
    if (in == NDT_FD_DT_##TO && in != NDT_BOOL) return *(const ndt_sc_t_##TO *)p; \
    switch (in) {                                                              \
      NDT_SC_FOREACH_DTYPE_SFX2(NDT_SN_LD_CASE, TO)                            \
      default: break;                                                          \
    }                                                                          \
    return *(const ndt_sc_t_##TO *)p;                                          \
  }
NDT_SC_FOREACH_DTYPE_SFX(NDT_SN_LOAD, _)

/* add, multiply, NaN test and the identities, per result dtype */
#define NDT_SN_INT(SFX)                                                                 \
  NDT_HD ndt_sc_t_##SFX ndt_sn_add_##SFX(ndt_sc_t_##SFX a, ndt_sc_t_##SFX b, unsigned *fe) { \
    (void)fe;                                                                           \
    return ndt_sc_add_##SFX(a, b);                                                      \
  }                                                                                     \
  NDT_HD ndt_sc_t_##SFX ndt_sn_mul_##SFX(ndt_sc_t_##SFX a, ndt_sc_t_##SFX b, unsigned *fe) { \
    (void)fe;                                                                           \
    return ndt_sc_mul_##SFX(a, b);                                                      \
  }                                                                                     \
  NDT_HD int ndt_sn_isnan_##SFX(ndt_sc_t_##SFX x) { (void)x; return 0; }                 \
  NDT_HD ndt_sc_t_##SFX ndt_sn_zero_##SFX(void) { return 0; }                           \
  NDT_HD ndt_sc_t_##SFX ndt_sn_one_##SFX(void) { return 1; }
NDT_SN_INT(i8)
NDT_SN_INT(i16)
NDT_SN_INT(i32)
NDT_SN_INT(i64)
NDT_SN_INT(u8)
NDT_SN_INT(u16)
NDT_SN_INT(u32)
NDT_SN_INT(u64)
/* bool: or and and of the bytes, as the CPU's (its cast normalised them) */
NDT_HD uint8_t ndt_sn_add_b(uint8_t a, uint8_t b, unsigned *fe) {
  (void)fe;
  return (uint8_t)(a | b);
}
NDT_HD uint8_t ndt_sn_mul_b(uint8_t a, uint8_t b, unsigned *fe) {
  (void)fe;
  return (uint8_t)(a & b);
}
NDT_HD int ndt_sn_isnan_b(uint8_t x) { (void)x; return 0; }
NDT_HD uint8_t ndt_sn_zero_b(void) { return 0; }
NDT_HD uint8_t ndt_sn_one_b(void) { return 1; }
#define NDT_SN_FLT(SFX, T, ISNAN, ONE)                                                  \
  NDT_HD T ndt_sn_add_##SFX(T a, T b, unsigned *fe) { return ndt_sc_add_##SFX(a, b, fe); } \
  NDT_HD T ndt_sn_mul_##SFX(T a, T b, unsigned *fe) { return ndt_sc_mul_##SFX(a, b, fe); } \
  NDT_HD int ndt_sn_isnan_##SFX(T x) { return ISNAN(x); }                                \
  NDT_HD T ndt_sn_zero_##SFX(void) {                                                     \
    T z;                                                                                 \
    memset(&z, 0, sizeof z);                                                             \
    return z;                                                                            \
  }                                                                                      \
  NDT_HD T ndt_sn_one_##SFX(void) { return ONE; }
NDT_SN_FLT(f32, float, NDT_FD_RNAN, 1.0f)
NDT_SN_FLT(f64, double, NDT_FD_RNAN, 1.0)
NDT_SN_FLT(c64, ndt_c64, NDT_FD_CNAN, ndt_fd_c64(0x3f800000u, 0))
NDT_SN_FLT(c128, ndt_c128, NDT_FD_CNAN, ndt_fd_c128(0x3ff0000000000000ull, 0))

#define NDT_SN_ALL(X)                                                              \
  X(b) X(i8) X(i16) X(i32) X(i64) X(u8) X(u16) X(u32) X(u64) X(f32) X(f64) X(c64) X(c128)
#define NDT_SN_INTS(X) X(b) X(i8) X(i16) X(i32) X(i64) X(u8) X(u16) X(u32) X(u64)

/* one line, as the CPU's scan kernel with its cast chunks (the same steps) */
#define NDT_SN_LINE(SFX)                                                                \
  NDT_HD void ndt_sn_line_##SFX(const ndt_dk_run *r, int64_t i, int aux, unsigned *fe) { \
    const int in = NDT_SN_IN(aux), prod = NDT_SN_PROD(aux), nan = NDT_SN_NAN(aux);       \
    const char *ip = r->p[0] + i * r->rs[0];                                            \
    char *op = r->p[1] + i * r->rs[1];                                                  \
    ndt_sc_t_##SFX acc = ndt_sn_zero_##SFX();                                           \
    int started = 0;                                                                    \
    if (r->p[3]) {                                                                      \
      acc = *(const ndt_sc_t_##SFX *)(r->p[3] + i * r->rs[3]);                          \
      started = 1;                                                                      \
    }                                                                                   \
    for (int64_t j = 0; j < r->cols; j++) {                                             \
      ndt_sc_t_##SFX v = ndt_sn_ld_##SFX(in, ip + j * r->cs[0], fe);                     \
      if (nan && ndt_sn_isnan_##SFX(v)) v = prod ? ndt_sn_one_##SFX() : ndt_sn_zero_##SFX(); \
      if (!started) {                                                                   \
        acc = v;                                                                        \
        started = 1;                                                                    \
      } else {                                                                          \
        acc = prod ? ndt_sn_mul_##SFX(acc, v, fe) : ndt_sn_add_##SFX(acc, v, fe);       \
      }                                                                                 \
      *(ndt_sc_t_##SFX *)(op + j * r->cs[1]) = acc;                                     \
    }                                                                                   \
    if (r->p[2]) *(ndt_sc_t_##SFX *)(r->p[2] + i * r->rs[2]) = acc;                     \
  }
NDT_SN_ALL(NDT_SN_LINE)

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

/* the scan: a line a thread over the grid (lines grid-strided) */
#define NDT_SN_SCANK(SFX)                                                               \
  NDT_DK_BODY void ndt_sns_##SFX##_body(const ndt_dk_launch *L, unsigned *flags,        \
                                        ndt_dk_grid g) {                                \
    const ndt_dk_run *r = &L->run[g.by];                                                \
    unsigned f = 0;                                                                     \
    for (int64_t i = g.bx * g.ntx + g.tx; i < r->rows; i += g.nbx * g.ntx)              \
      ndt_sn_line_##SFX(r, i, L->aux, &f);                                              \
    NDT_DK_FLAGS(flags, f);                                                             \
  }                                                                                     \
  NDT_DK_GLOBAL(ndt_sns_##SFX, 4)
NDT_SN_ALL(NDT_SN_SCANK)

/* the fix-up: every element, r = carry (op) r */
#define NDT_SN_FIXK(SFX)                                                                \
  NDT_DK_EW(ndt_snf_##SFX, 2, {                                                         \
    const ndt_sc_t_##SFX c = *(const ndt_sc_t_##SFX *)p[1];                             \
    ndt_sc_t_##SFX *x = (ndt_sc_t_##SFX *)p[0];                                         \
    *x = NDT_SN_PROD(L->aux) ? ndt_sn_mul_##SFX(c, *x, &f) : ndt_sn_add_##SFX(c, *x, &f); \
  })
NDT_SN_INTS(NDT_SN_FIXK)

/* ---- integer and bool scans of few long lines: a block of threads a line
 * (wrapping arithmetic and bool or/and are associative, and the identity
 * followed by x is x, as the CPU's first element is: the same bits in any
 * grouping). Each thread folds its contiguous piece of the line (phase 1),
 * thread 0 turns the pieces' totals into each piece's start, from the
 * line's start (phase 2), each thread scans its piece from its start
 * (phase 3). Runs with at least ndt_sn_par_rows lines take the line a
 * thread kernel above instead (enough lines to fill the device). */
static int ndt_sn_par_rows = 64;
#define NDT_SN_THREADS 256
#define NDT_SN_PAR(SFX)                                                                 \
  NDT_HD void ndt_snp_piece_##SFX(const ndt_dk_run *r, int64_t tx, int64_t ntx, int64_t *lo, \
                                  int64_t *hi) {                                        \
    const int64_t per = (r->cols + ntx - 1) / ntx;                                      \
    *lo = tx * per < r->cols ? tx * per : r->cols;                                      \
    *hi = *lo + per < r->cols ? *lo + per : r->cols;                                    \
  }                                                                                     \
  NDT_HD ndt_sc_t_##SFX ndt_snp_id_##SFX(int prod) {                                    \
    return prod ? ndt_sn_one_##SFX() : ndt_sn_zero_##SFX();                             \
  }                                                                                     \
  /* phase 1: thread tx's piece of line i, folded from the identity */                \
  NDT_HD ndt_sc_t_##SFX ndt_snp_total_##SFX(const ndt_dk_run *r, int64_t i, int aux,     \
                                            int64_t tx, int64_t ntx, unsigned *fe) {    \
    const int in = NDT_SN_IN(aux), prod = NDT_SN_PROD(aux);                             \
    int64_t lo, hi;                                                                     \
    ndt_snp_piece_##SFX(r, tx, ntx, &lo, &hi);                                          \
    ndt_sc_t_##SFX acc = ndt_snp_id_##SFX(prod);                                        \
    for (int64_t j = lo; j < hi; j++) {                                                 \
      ndt_sc_t_##SFX v = ndt_sn_ld_##SFX(in, r->p[0] + i * r->rs[0] + j * r->cs[0], fe); \
      acc = prod ? ndt_sn_mul_##SFX(acc, v, fe) : ndt_sn_add_##SFX(acc, v, fe);         \
    }                                                                                   \
    return acc;                                                                         \
  }                                                                                     \
  /* phase 2 (one thread): the pieces' starts; the line's total */                     \
  NDT_HD void ndt_snp_starts_##SFX(const ndt_dk_run *r, int64_t i, int aux,             \
                                   ndt_sc_t_##SFX *part, int64_t ntx) {                 \
    const int prod = NDT_SN_PROD(aux);                                                  \
    ndt_sc_t_##SFX c = r->p[3] ? *(const ndt_sc_t_##SFX *)(r->p[3] + i * r->rs[3])      \
                               : ndt_snp_id_##SFX(prod);                                \
    for (int64_t t = 0; t < ntx; t++) {                                                 \
      const ndt_sc_t_##SFX x = part[t];                                                 \
      part[t] = c;                                                                      \
      c = prod ? ndt_sn_mul_##SFX(c, x, NULL) : ndt_sn_add_##SFX(c, x, NULL);           \
    }                                                                                   \
    /* (an empty line's total: its start, else 0, as the CPU's) */                    \
    if (r->cols == 0 && !r->p[3]) c = ndt_sn_zero_##SFX();                              \
    if (r->p[2]) *(ndt_sc_t_##SFX *)(r->p[2] + i * r->rs[2]) = c;                       \
  }                                                                                     \
  /* phase 3: thread tx's piece, scanned from its start */                            \
  NDT_HD void ndt_snp_scan_##SFX(const ndt_dk_run *r, int64_t i, int aux, int64_t tx,    \
                                 int64_t ntx, ndt_sc_t_##SFX acc, unsigned *fe) {       \
    const int in = NDT_SN_IN(aux), prod = NDT_SN_PROD(aux);                             \
    int64_t lo, hi;                                                                     \
    ndt_snp_piece_##SFX(r, tx, ntx, &lo, &hi);                                          \
    for (int64_t j = lo; j < hi; j++) {                                                 \
      ndt_sc_t_##SFX v = ndt_sn_ld_##SFX(in, r->p[0] + i * r->rs[0] + j * r->cs[0], fe); \
      acc = prod ? ndt_sn_mul_##SFX(acc, v, fe) : ndt_sn_add_##SFX(acc, v, fe);         \
      *(ndt_sc_t_##SFX *)(r->p[1] + i * r->rs[1] + j * r->cs[1]) = acc;                 \
    }                                                                                   \
  }
NDT_SN_INTS(NDT_SN_PAR)

#if defined(NDT_DK_HOST)
#define NDT_SN_PARK(SFX)                                                                \
  static void ndt_snpg_##SFX(const ndt_dk_launch *L, unsigned *flags) {                 \
    ndt_sc_t_##SFX part[NDT_SN_THREADS];                                                \
    const int64_t ntx = ndt_dk_emu_threads < NDT_SN_THREADS ? ndt_dk_emu_threads : NDT_SN_THREADS; \
    unsigned f = 0;                                                                     \
    for (int q = 0; q < L->nrun; q++) {                                                 \
      const ndt_dk_run *r = &L->run[q];                                                 \
      for (int64_t i = 0; i < r->rows; i++) {                                           \
        for (int64_t tx = 0; tx < ntx; tx++)                                            \
          part[tx] = ndt_snp_total_##SFX(r, i, L->aux, tx, ntx, &f);                    \
        ndt_snp_starts_##SFX(r, i, L->aux, part, ntx);                                  \
        for (int64_t tx = 0; tx < ntx; tx++)                                            \
          ndt_snp_scan_##SFX(r, i, L->aux, tx, ntx, part[tx], &f);                      \
      }                                                                                 \
    }                                                                                   \
    NDT_DK_FLAGS(flags, f);                                                             \
  }                                                                                     \
  static void ndt_snp_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) {    \
    if (L->nrun > 0) {                                                                  \
      NDT_SN_QUEUE(ndt_snpg_##SFX)                                                      \
    }                                                                                   \
  }
#if defined(NDT_DK_STREAM)
#define NDT_SN_QUEUE(NAME) ndt__cudahost_launch(stream, 4, 0, L, flags, NAME);
#else
#define NDT_SN_QUEUE(NAME) \
  (void)stream;            \
  NAME(L, flags);
#endif
#else
#define NDT_SN_PARK(SFX)                                                                \
  __global__ void ndt_snpk_##SFX(const __grid_constant__ ndt_dk_launch L, unsigned *flags) { \
    __shared__ ndt_sc_t_##SFX part[NDT_SN_THREADS];                                     \
    const ndt_dk_run *r = &L.run[blockIdx.y];                                           \
    unsigned f = 0;                                                                     \
    for (int64_t i = blockIdx.x; i < r->rows; i += gridDim.x) {                         \
      part[threadIdx.x] = ndt_snp_total_##SFX(r, i, L.aux, threadIdx.x, blockDim.x, &f); \
      __syncthreads();                                                                  \
      if (threadIdx.x == 0) ndt_snp_starts_##SFX(r, i, L.aux, part, blockDim.x);        \
      __syncthreads();                                                                  \
      ndt_snp_scan_##SFX(r, i, L.aux, threadIdx.x, blockDim.x, part[threadIdx.x], &f);  \
      __syncthreads();                                                                  \
    }                                                                                   \
    NDT_DK_FLAGS(flags, f);                                                             \
  }                                                                                     \
  static void ndt_snp_##SFX(const ndt_dk_launch *L, unsigned *flags, void *stream) {    \
    int64_t rows = 1;                                                                   \
    for (int q = 0; q < L->nrun; q++)                                                   \
      if (L->run[q].rows > rows) rows = L->run[q].rows;                                 \
    if (L->nrun > 0)                                                                    \
      ndt_snpk_##SFX<<<dim3((unsigned)(rows < 1024 ? rows : 1024), (unsigned)L->nrun, 1), \
                       NDT_SN_THREADS, 0, (cudaStream_t)stream>>>(*L, flags);           \
  }
#endif
NDT_SN_INTS(NDT_SN_PARK)

typedef struct {
  int rt;
  ndt_dk_fn scan, fix, par;
} ndt_sn_entry;
#define NDT_SN_IROW(SFX) {NDT_FD_DT_##SFX, ndt_sns_##SFX, ndt_snf_##SFX, ndt_snp_##SFX},
#define NDT_SN_FROW(SFX) {NDT_FD_DT_##SFX, ndt_sns_##SFX, NULL, NULL},
static const ndt_sn_entry ndt_sn_table[] = {
    NDT_SN_INTS(NDT_SN_IROW) NDT_SN_FROW(f32) NDT_SN_FROW(f64) NDT_SN_FROW(c64) NDT_SN_FROW(c128)};

/* The scans (fix 0) or fix-ups (fix 1) of L's runs into result dtype rt
 * (the input's dtype and the op in L->aux), flags ORed into *flags: 0, or
 * -1 when there is no such kernel (a fix-up of a float scan). */
NDT_DK_ENTRY(int) ndt__dk_scan(int rt, int fix, const ndt_dk_launch *L, unsigned *flags,
                               void *stream) {
  if (NDT_SN_IN(L->aux) >= NDT_NTYPES) return -1;
  int64_t rows = 0;
  for (int q = 0; q < L->nrun; q++)
    if (L->run[q].rows > rows) rows = L->run[q].rows;
  for (size_t k = 0; k < sizeof ndt_sn_table / sizeof *ndt_sn_table; k++) {
    const ndt_sn_entry *e = &ndt_sn_table[k];
    if (e->rt != rt) continue;
    ndt_dk_fn fn = fix ? e->fix : e->par && rows < ndt_sn_par_rows ? e->par : e->scan;
    if (fn) {
      if (L->nrun > 0) NDT_FD_TALLY(1);
      fn(L, flags, stream);
      return 0;
    }
  }
  return -1;
}

#endif
#endif
