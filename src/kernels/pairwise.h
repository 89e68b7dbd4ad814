/* pairwise.h - NumPy's pairwise summation order, written once for device
 * kernels (src/kernels/cuda/reduce_impl.h) in the style of scalar.h (plain
 * C that nvcc also compiles as __host__ __device__ code).
 *
 * The order (NumPy's pairwise_sum, and the CPU's PAIRWISE in
 * src/kernels/cpu/reduce.c, whose SIMD copies keep it): a run of n <= 128
 * elements is a leaf - fewer than 8 are added one by one from -0.0 (so
 * that a leaf of -0.0s is -0.0, as the CPU's and NumPy's); else 8
 * accumulators take elements i, i+8, ... of the first n - n%8, are combined
 * as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), and the last n%8 are added one
 * by one. A longer run splits at h = n/2 - (n/2)%8 and is the sum of its
 * halves, left + right. The bits depend on that tree alone, so any
 * evaluation of the same tree - the recursion, the explicit stack below,
 * or a block of threads each summing a subtree (reduce_impl.h) - gives
 * the CPU's bits. The NaN-ignoring sums (nansum: the CPU's PAIRWISE with
 * LD_NAN0) are the same tree over the elements read with NaNs as 0; the
 * complex sums have NumPy's complex tree (CPAIRWISE, below). */
#ifndef NDT_KERNELS_PAIRWISE_H
#define NDT_KERNELS_PAIRWISE_H

#include "kernels/scalar.h"

#define NDT_PW_LEAF 128
/* where a run of n > NDT_PW_LEAF splits */
NDT_HD int64_t ndt_pw_split(int64_t n) {
  int64_t h = n / 2;
  return h - h % 8;
}

/* the deepest recursion: n halves each level, and a run of 2^63 elements
 * stops within 64 */
#define NDT_PW_DEPTH 64

/* One addition of the sum. fe NULL: plain +. Else as the CPU does it: on
 * device builds (NDT_SC_DEV) the flags it raised (overflow, invalid) ORed
 * into *fe and x86's NaN (scalar.h's ndt_sc_add); elsewhere plain + too.
 * A device sum runs plain first; only a result that is not finite (an
 * overflow or a NaN on the way: neither comes back to a finite value) is
 * summed again with fe, for its flags and NaN bits: the same tree, the
 * same additions, so the same value otherwise. */
/* (ndt_sc_gpu: a GPU's canonical NaN in the host build of the device
 * kernels, NDT_SC_EMULATE; nothing elsewhere) */
#define NDT_PW_ADD(SFX, a, b, fe) NDT_PW_ADD_##SFX(a, b, fe)
#define NDT_PW_ADD_f32(a, b, fe) ((fe) ? ndt_sc_add_f32(a, b, fe) : ndt_sc_gpu_f32((a) + (b)))
#define NDT_PW_ADD_f64(a, b, fe) ((fe) ? ndt_sc_add_f64(a, b, fe) : ndt_sc_gpu_f64((a) + (b)))
/* complex additions are per part (NumPy sums the parts) */
#define NDT_PW_ADD_c64(a, b, fe) ndt_pw_cadd_c64(a, b, fe)
#define NDT_PW_ADD_c128(a, b, fe) ndt_pw_cadd_c128(a, b, fe)
#define NDT_PW_CADD(SFX, T, FSFX)                                                      \
  NDT_HD T ndt_pw_cadd_##SFX(T a, T b, unsigned *fe) {                                 \
    T r;                                                                              \
    r.re = NDT_PW_ADD_##FSFX(a.re, b.re, fe);                                          \
    r.im = NDT_PW_ADD_##FSFX(a.im, b.im, fe);                                          \
    return r;                                                                         \
  }                                                                                   \
  NDT_HD T ndt_pw_zero_##SFX(void) {                                                  \
    T r;                                                                              \
    r.re = 0;                                                                         \
    r.im = 0;                                                                         \
    return r;                                                                         \
  }                                                                                   \
  NDT_HD T ndt_pw_nzero_##SFX(void) {                                                 \
    T r;                                                                              \
    r.re = -ndt_pw_zero_##FSFX();                                                     \
    r.im = -ndt_pw_zero_##FSFX();                                                     \
    return r;                                                                         \
  }                                                                                   \
  NDT_HD int ndt_pw_fin_##SFX(T x) { return ndt_sc_fin_##FSFX(x.re) && ndt_sc_fin_##FSFX(x.im); }
NDT_HD float ndt_pw_zero_f32(void) { return 0; }
NDT_HD double ndt_pw_zero_f64(void) { return 0; }
/* -0.0 (each part): where a short leaf starts; x + -0.0 is x for every x */
NDT_HD float ndt_pw_nzero_f32(void) { return -ndt_pw_zero_f32(); }
NDT_HD double ndt_pw_nzero_f64(void) { return -ndt_pw_zero_f64(); }
NDT_PW_CADD(c64, ndt_c64, f32)
NDT_PW_CADD(c128, ndt_c128, f64)
NDT_HD int ndt_pw_fin_f32(float x) { return ndt_sc_fin_f32(x); }
NDT_HD int ndt_pw_fin_f64(double x) { return ndt_sc_fin_f64(x); }

/* The walk of a pairwise tree, written once: a run of N elements, leaves of
 * at most LEAFMAX, a longer run split at SPLIT(m) into its left and right
 * parts, a node the sum ADD(ACTX, left, right). An explicit stack (no
 * recursion on a device): frames go left, right, then add, so the leaves
 * come in order and the additions in the recursion's order. A leaf's
 * value is LEAFV(LCTX, k, o, m): the k-th leaf, elements [o, o + m) of the
 * run. OUT is set to the root. The pairwise sums below (a leaf summed
 * from its elements) and the tops above a full sum's leaves (a leaf is
 * its partial: reduce.c's pw_top on the CPU, reduce_impl.h's on a device)
 * are this one walk, so they cannot drift apart. */
#define NDT_PW_WALK(T, N, LEAFMAX, SPLIT, LEAFV, LCTX, ADD, ACTX, OUT)               \
  do {                                                                                \
    int64_t off_[NDT_PW_DEPTH], len_[NDT_PW_DEPTH], k_ = 0;                           \
    int stage_[NDT_PW_DEPTH], top_ = 0, nv_ = 0;                                      \
    T val_[NDT_PW_DEPTH + 1];                                                         \
    off_[0] = 0, len_[0] = (N), stage_[0] = 0;                                        \
    while (top_ >= 0) {                                                               \
      const int64_t o_ = off_[top_], m_ = len_[top_];                                 \
      if (m_ <= (LEAFMAX)) {                                                          \
        val_[nv_++] = LEAFV(LCTX, k_, o_, m_);                                        \
        k_++;                                                                         \
        top_--;                                                                       \
        continue;                                                                     \
      }                                                                               \
      const int64_t h_ = SPLIT(m_);                                                   \
      if (stage_[top_] < 2) {                                                         \
        const int left_ = stage_[top_]++ == 0;                                        \
        top_++;                                                                       \
        off_[top_] = left_ ? o_ : o_ + h_;                                            \
        len_[top_] = left_ ? h_ : m_ - h_;                                            \
        stage_[top_] = 0;                                                             \
      } else {                                                                        \
        T b_ = val_[--nv_], a_ = val_[--nv_];                                         \
        val_[nv_++] = ADD(ACTX, a_, b_);                                              \
        top_--;                                                                       \
      }                                                                               \
    }                                                                                 \
    OUT = val_[0];                                                                    \
  } while (0)

/* (the walk's arguments for a pairwise sum: p, s and fe are the
 * function's; a leaf of the tree's own) */
#define NDT_PW_SUM_LEAF(NAME, k, o, m) ndt_pw_leaf_##NAME(p + (o) * s, s, m, fe)
#define NDT_PW_ADD_FE(SFX, a, b) NDT_PW_ADD(SFX, a, b, fe)

/* the whole tree of a run (leaves of at most LEAF elements, split at
 * SPLIT(n)) */
#define NDT_PW_TREE(NAME, SFX, T, LEAF, SPLIT)                                        \
  NDT_HD T ndt_pw_sum_##NAME(const char *p, int64_t s, int64_t n, unsigned *fe) {      \
    if (n <= LEAF) return ndt_pw_leaf_##NAME(p, s, n, fe);                            \
    T root;                                                                           \
    NDT_PW_WALK(T, n, LEAF, SPLIT, NDT_PW_SUM_LEAF, NAME, NDT_PW_ADD_FE, SFX, root);   \
    return root;                                                                      \
  }

/* NAME: the functions' suffix; LD: how an element is read (NaN-ignoring
 * sums read a NaN as 0, as the CPU's nansum does: LD_NAN0) */
#define NDT_PW_LD_SELF(v) (v)
#define NDT_PW_LD_NAN0(v) ((v) != (v) ? 0 : (v))
#define NDT_PW_DEF(NAME, SFX, T, LD)                                                 \
  NDT_HD T ndt_pw_at_##NAME(const char *p, int64_t s, int64_t i) {                    \
    const T v = *(const T *)(p + i * s);                                              \
    return (T)LD(v);                                                                  \
  }                                                                                   \
  /* a leaf: n <= NDT_PW_LEAF elements at p, byte stride s */                         \
  NDT_HD T ndt_pw_leaf_##NAME(const char *p, int64_t s, int64_t n, unsigned *fe) {     \
    if (n < 8) {                                                                      \
      T r = ndt_pw_nzero_##SFX();                                                     \
      for (int64_t i = 0; i < n; i++) r = NDT_PW_ADD(SFX, r, ndt_pw_at_##NAME(p, s, i), fe); \
      return r;                                                                       \
    }                                                                                 \
    T r[8];                                                                           \
    for (int j = 0; j < 8; j++) r[j] = ndt_pw_at_##NAME(p, s, j);                      \
    int64_t i;                                                                        \
    for (i = 8; i < n - (n % 8); i += 8)                                              \
      for (int j = 0; j < 8; j++) r[j] = NDT_PW_ADD(SFX, r[j], ndt_pw_at_##NAME(p, s, i + j), fe); \
    T res = NDT_PW_ADD(SFX, NDT_PW_ADD(SFX, NDT_PW_ADD(SFX, r[0], r[1], fe),          \
                                       NDT_PW_ADD(SFX, r[2], r[3], fe), fe),          \
                       NDT_PW_ADD(SFX, NDT_PW_ADD(SFX, r[4], r[5], fe),               \
                                  NDT_PW_ADD(SFX, r[6], r[7], fe), fe), fe);          \
    for (; i < n; i++) res = NDT_PW_ADD(SFX, res, ndt_pw_at_##NAME(p, s, i), fe);      \
    return res;                                                                       \
  }                                                                                   \
  NDT_PW_TREE(NAME, SFX, T, NDT_PW_LEAF, ndt_pw_split)

/* Complex sums (the CPU's CPAIRWISE): NumPy's real scheme over the 2n
 * parts, so in complex elements a run of fewer than 4 is added one by one
 * from -0.0, one of at most NDT_PW_CLEAF by 4 accumulators (elements i, i+4,
 * ... of the first n - n%4, combined as (r0+r1)+(r2+r3), then the last
 * n%4 one by one), a longer one splits at (n - n%8)/2. NaN-ignoring: an
 * element with a NaN part reads as 0. */
#define NDT_PW_CLEAF 64
NDT_HD int64_t ndt_pw_csplit(int64_t n) { return (n - n % 8) / 2; }
#define NDT_PW_CLD_SELF(v) (v)
#define NDT_PW_CLD_NAN0(v) ((v).re != (v).re || (v).im != (v).im ? zero : (v))
#define NDT_PW_CDEF(NAME, SFX, T, LD)                                                \
  NDT_HD T ndt_pw_at_##NAME(const char *p, int64_t s, int64_t i) {                    \
    const T v = *(const T *)(p + i * s), zero = ndt_pw_zero_##SFX();                  \
    (void)zero;                                                                       \
    return LD(v);                                                                     \
  }                                                                                   \
  NDT_HD T ndt_pw_leaf_##NAME(const char *p, int64_t s, int64_t n, unsigned *fe) {    \
    if (n < 4) {                                                                      \
      T r = ndt_pw_nzero_##SFX();                                                     \
      for (int64_t i = 0; i < n; i++) r = NDT_PW_ADD(SFX, r, ndt_pw_at_##NAME(p, s, i), fe); \
      return r;                                                                       \
    }                                                                                 \
    T r[4];                                                                           \
    for (int j = 0; j < 4; j++) r[j] = ndt_pw_at_##NAME(p, s, j);                     \
    int64_t i;                                                                        \
    for (i = 4; i < n - (n % 4); i += 4)                                              \
      for (int j = 0; j < 4; j++) r[j] = NDT_PW_ADD(SFX, r[j], ndt_pw_at_##NAME(p, s, i + j), fe); \
    T res = NDT_PW_ADD(SFX, NDT_PW_ADD(SFX, r[0], r[1], fe), NDT_PW_ADD(SFX, r[2], r[3], fe), fe); \
    for (; i < n; i++) res = NDT_PW_ADD(SFX, res, ndt_pw_at_##NAME(p, s, i), fe);     \
    return res;                                                                       \
  }                                                                                   \
  NDT_PW_TREE(NAME, SFX, T, NDT_PW_CLEAF, ndt_pw_csplit)

NDT_PW_DEF(f32, f32, float, NDT_PW_LD_SELF)
NDT_PW_DEF(f64, f64, double, NDT_PW_LD_SELF)
NDT_PW_DEF(nf32, f32, float, NDT_PW_LD_NAN0)
NDT_PW_DEF(nf64, f64, double, NDT_PW_LD_NAN0)
NDT_PW_CDEF(c64, c64, ndt_c64, NDT_PW_CLD_SELF)
NDT_PW_CDEF(c128, c128, ndt_c128, NDT_PW_CLD_SELF)
NDT_PW_CDEF(nc64, c64, ndt_c64, NDT_PW_CLD_NAN0)
NDT_PW_CDEF(nc128, c128, ndt_c128, NDT_PW_CLD_NAN0)

#endif
