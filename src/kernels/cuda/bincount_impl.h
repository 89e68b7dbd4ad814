/* bincount_impl.h - the device's bincount (src/ops/search.c's "bincount
 * count" and "bincount combine" tasks; histogram's combine too), with the
 * CPU's bits (src/kernels/cpu/count.c).
 *
 * The CPU counts a block in element order: hist[x] += w (float64), or
 * += 1. Integer counts are exact in any order, but a float bin's sum is
 * not, so the device keeps each bin's order: the block's positions are
 * sorted stably by bin (sort_impl.h's radix sort of indices, on bin keys:
 * as few 8-bit passes as the bins need, the out-of-range indices of the
 * one-pass form before and after), then a thread per bin finds its run
 * (a binary search) and adds its weights in position order from +0.0, as
 * the CPU does (scalar.h's add: x86's NaNs and the IEEE flags), or counts
 * the run. The block's (min, max) of the indices (the one-pass form's
 * bounds) is a thread per chunk, then one thread over the chunks.
 *
 * A count launch is one run of one row: cols = n positions, operand 0 the
 * indices (p[0] + j * cs[0], dtype in aux), 1 the weights (NULL: counts;
 * dtype in aux), 2 the scratch (ndt_db_scratch(n): the sort's, then the
 * chunks' bounds and the block's), 3 the block's histogram (p[3] + b * 8;
 * rs[3] the number of bins; cs[3] 0). The aux: phase | index dtype << 4 |
 * bounds << 8 (skip indices out of range) | weights dtype << 9 | weighted << 13
 * (the sort's aux for its phases, with bins << 16).
 *
 * The combine (histograms of nblocks blocks summed in block order: out[b]
 * = parts[0][b] + parts[1][b] + ..., from 0, int64, float64 or float32:
 * also matvec's partials, "matvec combine") is a thread per bin: one run,
 * rows = nblocks, cols = nbins, operand 0 the parts (block k's bin b at
 * p[0] + k * rs[0] + b * cs[0]), 1 the result (p[1] + b * cs[1]); aux:
 * phase | weighted << 13 | the float dtype << 9 (float64, or float32:
 * the entry's weighted 2).
 *
 * sort.cu compiles this file with nvcc (after sort_impl.h); tests/c/test_devkernels.c
 * (bincount) runs it on the CPU against the CPU's kernels. Not yet run on
 * a GPU. */
#ifndef NDT_KERNELS_CUDA_BINCOUNT_IMPL_H
#define NDT_KERNELS_CUDA_BINCOUNT_IMPL_H

#include "kernels/cuda/sort_impl.h"

enum { NDT_DB_SUM = 8, NDT_DB_MM1, NDT_DB_MM2, NDT_DB_COMB };

NDT_HD int64_t ndt_db_scratch(int64_t n) { return ndt_ds_scratch(n) + 16 * (ndt_ds_nch(n) + 1); }

/* a real element as float64: the CPU's cast (scalar.h's) */
#define NDT_DB_LD(SFX, ENUM)       \
  case ENUM: {                     \
    ndt_sc_t_##SFX v;              \
    memcpy(&v, e, sizeof v);       \
    return ndt_sc_cast_##SFX##_f64(v); \
  }
NDT_HD double ndt_db_ld_f64(int dt, const char *e) {
  switch (dt) {
    NDT_DB_LD(b, NDT_BOOL)
    NDT_DB_LD(i8, NDT_INT8)
    NDT_DB_LD(i16, NDT_INT16)
    NDT_DB_LD(i32, NDT_INT32)
    NDT_DB_LD(i64, NDT_INT64)
    NDT_DB_LD(u8, NDT_UINT8)
    NDT_DB_LD(u16, NDT_UINT16)
    NDT_DB_LD(u32, NDT_UINT32)
    NDT_DB_LD(u64, NDT_UINT64)
    NDT_DB_LD(f32, NDT_FLOAT32)
    NDT_DB_LD(f64, NDT_FLOAT64)
    default: return 0;
  }
}
#undef NDT_DB_LD

/* work item e of phase ph (run r, its only row); flags into *fe */
NDT_HD void ndt_db_item(const ndt_dk_run *r, int aux, int64_t e, unsigned *fe) {
  const int ph = aux & 15, xt = (aux >> 4) & 15, wt = (aux >> 9) & 15, wtd = (aux >> 13) & 1;
  const int64_t n = r->cols, nch = ndt_ds_nch(n);
  int64_t *mm = (int64_t *)(r->p[2] + ndt_ds_scratch(n));
  switch (ph) {
    case NDT_DB_SUM: {   /* bin e: its run of the sorted positions */
      ndt_ds_line l = ndt_ds_line_of(r, 0, aux | 1 << 16);
      const int fin = (aux >> 14) & 1;   /* (the sort's final arrays) */
      const int64_t *ix = fin ? l.b : l.a;
      const uint64_t *kx = fin ? l.kb : l.ka;
      const uint64_t key = (uint64_t)e + 1;
#define NDT_DB_KEY(j) (n > NDT_DS_SMALL ? kx[j] : ndt_ds_key_at(xt, &l, ix[j]).pri)
      int64_t lo = 0, hi = n;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (NDT_DB_KEY(mid) < key) lo = mid + 1;
        else hi = mid;
      }
      char *h = r->p[3] + e * 8;
      if (wtd) {
        double acc = 0.0;
        for (int64_t j = lo; j < n && NDT_DB_KEY(j) == key; j++)
          acc = ndt_sc_add_f64(acc, ndt_db_ld_f64(wt, r->p[1] + ix[j] * r->cs[1]), fe);
        memcpy(h, &acc, 8);
      } else {
        int64_t j = lo;
        while (j < n && NDT_DB_KEY(j) == key) j++;
#undef NDT_DB_KEY
        const int64_t c = j - lo;
        memcpy(h, &c, 8);
      }
      break;
    }
    case NDT_DB_MM1: {   /* chunk e's (min, max) */
      const int64_t a = e * NDT_DS_CHUNK, b = a + NDT_DS_CHUNK < n ? a + NDT_DS_CHUNK : n;
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (int64_t j = a; j < b; j++) {
        const int64_t v = ndt_ds_ld_i64(xt, r->p[0] + j * r->cs[0]);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
      mm[2 * e] = lo;
      mm[2 * e + 1] = hi;
      break;
    }
    case NDT_DB_MM2: {   /* the block's, after the chunks' */
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (int64_t c = 0; c < nch; c++) {
        lo = mm[2 * c] < lo ? mm[2 * c] : lo;
        hi = mm[2 * c + 1] > hi ? mm[2 * c + 1] : hi;
      }
      mm[2 * nch] = lo;
      mm[2 * nch + 1] = hi;
      break;
    }
    case NDT_DB_COMB: {   /* bin e over the blocks, in order */
      char *o = r->p[1] + e * r->cs[1];
      if (wtd && wt == NDT_FLOAT32) {   /* (matvec's partials, "matvec combine") */
        float acc = 0.0f;
        for (int64_t k = 0; k < r->rows; k++) {
          float v;
          memcpy(&v, r->p[0] + k * r->rs[0] + e * r->cs[0], 4);
          acc = ndt_sc_add_f32(acc, v, fe);
        }
        memcpy(o, &acc, 4);
      } else if (wtd) {
        double acc = 0.0;
        for (int64_t k = 0; k < r->rows; k++) {
          double v;
          memcpy(&v, r->p[0] + k * r->rs[0] + e * r->cs[0], 8);
          acc = ndt_sc_add_f64(acc, v, fe);
        }
        memcpy(o, &acc, 8);
      } else {
        uint64_t acc = 0;
        for (int64_t k = 0; k < r->rows; k++) {
          uint64_t v;
          memcpy(&v, r->p[0] + k * r->rs[0] + e * r->cs[0], 8);
          acc += v;
        }
        memcpy(o, &acc, 8);
      }
      break;
    }
    default: break;
  }
}

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

#if defined(NDT_DK_HOST) && defined(NDT_DK_STREAM)
#define NDT_DB_TALLY() ndt__cudahost_tally(4)
#else
#define NDT_DB_TALLY() ((void)0)
#endif

NDT_DK_BODY void ndt_db_k_body(const ndt_dk_launch *L, unsigned *flags, ndt_dk_grid g) {
  const ndt_dk_run *r = &L->run[g.by];
  const int ph = L->aux & 15;
  const int64_t items = ph == NDT_DB_SUM    ? r->rs[3]
                        : ph == NDT_DB_MM1  ? ndt_ds_nch(r->cols)
                        : ph == NDT_DB_MM2  ? 1
                                            : r->cols;
  unsigned f = 0;
  for (int64_t e = g.bx * g.ntx + g.tx; e < items; e += g.nbx * g.ntx) ndt_db_item(r, L->aux, e, &f);
  NDT_DK_FLAGS(flags, f);
}
NDT_DK_GLOBAL(ndt_db_k, 4)

/* ---- the entry points (the plugin's; static in the host test) ----
 * A block's count (L: one run of one row, above; xt, wt the dtypes, wt < 0
 * unweighted; bounds: its (min, max) left in the scratch at
 * ndt_ds_scratch(n) + 16 * ndt_ds_nch(n), and out-of-range indices
 * skipped), flags ORed into *flags. 0, or -1 for a launch it does not take. */
NDT_DK_ENTRY(int) ndt__dk_bincount(int xt, int wt, int bounds, ndt_dk_launch *L, unsigned *flags,
                                   void *stream) {
  if (L->nrun != 1 || L->run[0].rows != 1 || xt < NDT_BOOL || xt > NDT_UINT32 ||
      wt > NDT_FLOAT64 || (wt < 0) != (L->run[0].p[1] == NULL) || L->run[0].rs[3] < 0 ||
      L->run[0].rs[2] < ndt_db_scratch(L->run[0].cols))
    return -1;
  const int64_t n = L->run[0].cols, nbins = L->run[0].rs[3];
  if (n <= 0) return -1;
  int npass = 1;
  while (npass < 8 && ((uint64_t)(nbins + 1) >> (8 * npass)) != 0) npass++;
  const int from = ndt_ds_order(L, xt << 4 | 1 << 16, npass, stream);
  const int base = xt << 4 | bounds << 8 | (wt < 0 ? 0 : wt << 9 | 1 << 13) | from << 14;
  L->aux = base | NDT_DB_SUM;
  NDT_DB_TALLY();
  ndt_db_k(L, flags, stream);
  if (bounds) {
    L->aux = base | NDT_DB_MM1;
    NDT_DB_TALLY();
    ndt_db_k(L, flags, stream);
    L->aux = base | NDT_DB_MM2;
    NDT_DB_TALLY();
    ndt_db_k(L, flags, stream);
  }
  return 0;
}

/* The combine (L: one run, above; weighted: 0 int64, 1 float64, 2
 * float32), flags ORed into *flags. */
NDT_DK_ENTRY(int) ndt__dk_bincount_combine(int weighted, ndt_dk_launch *L, unsigned *flags,
                                           void *stream) {
  if (L->nrun != 1 || L->run[0].rows < 1) return -1;
  if (weighted < 0 || weighted > 2) return -1;
  L->aux = NDT_DB_COMB | (weighted != 0) << 13 | (weighted == 2 ? NDT_FLOAT32 : NDT_FLOAT64) << 9;
  NDT_DB_TALLY();
  ndt_db_k(L, flags, stream);
  return 0;
}

#endif
#endif
