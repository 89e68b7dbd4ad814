/* count.c - the CPU's counting kernels: histogram accumulation (bincount
 * and histogram), the block-ordered sum of per-block histograms, and the
 * non-zero scan of argwhere / nonzero. src/ops/search.c and select.c cut
 * the work into blocks and call these through the table. */
#include <string.h>
#include "cpu.h"

/* hist[ix[i]] += w[i] (double) or += 1 (int64, w NULL) for i < m; with
 * nb >= 0 an index outside [0, nb) is skipped (histogram's out-of-range
 * values; bincount's one pass, which finds the bounds as it counts), with
 * nb < 0 every index is in range (bincount checked its bounds). */
void ndt__cpu_count(void *restrict hist, const int64_t *restrict ix, const double *restrict w,
                    int64_t m, int64_t nb) {
  if (w) {
    double *hd = hist;
    if (nb < 0)
      for (int64_t i = 0; i < m; i++) hd[ix[i]] += w[i];
    else
      for (int64_t i = 0; i < m; i++)
        if ((uint64_t)ix[i] < (uint64_t)nb) hd[ix[i]] += w[i];
  } else {
    int64_t *hi = hist;
    if (nb < 0)
      for (int64_t i = 0; i < m; i++) hi[ix[i]]++;
    else
      for (int64_t i = 0; i < m; i++)
        if ((uint64_t)ix[i] < (uint64_t)nb) hi[ix[i]]++;
  }
}

/* out[i] = sum over k < nblocks of parts[k * nbins + i], in block order
 * (reproducible sums), double when weighted, else int64. */
#define BLOCK_SUM(T)                                                            \
  for (int64_t i = 0; i < n; i++) {                                             \
    T acc = 0;                                                                  \
    for (int64_t k = 0; k < nblocks; k++) acc += ((const T *)parts)[k * n + i]; \
    *(T *)(o + i * os) = acc;                                                   \
  }

void ndt__cpu_block_sum(ndt_dtype t, void *out, int64_t os, const void *parts,
                        int64_t nblocks, int64_t n) {
  char *o = out;
  /* block order within each element: reproducible sums */
  if (t == NDT_FLOAT64) BLOCK_SUM(double)
  else if (t == NDT_FLOAT32) BLOCK_SUM(float)
  else BLOCK_SUM(int64_t)
}
#undef BLOCK_SUM

#define CH 256

/* The non-zero elements of an nd-d block of dtype t at p (byte strides
 * st), in C order: returns how many; with dst, writes each one's index
 * (start[k] + its index along k, nd per element) there. */
int64_t ndt__cpu_nonzero(ndt_dtype t, const char *p0, int nd, const int64_t *shape_,
                         const int64_t *st_, const int64_t *start_, int64_t *dst) {
  ndt_cast_fn tobool = ndt__cpu_cast(t, NDT_BOOL);
  /* local copies: dst is int64 too, and stores through it would otherwise
   * reload these for every element found */
  int64_t shape[NDT_MAXDIMS], st[NDT_MAXDIMS], start[NDT_MAXDIMS], size = 1;
  for (int k = 0; k < nd; k++) {
    shape[k] = shape_[k];
    st[k] = st_[k];
    start[k] = start_[k];
    size *= shape[k];
  }
  int64_t n = nd ? shape[nd - 1] : 1, s = nd ? st[nd - 1] : 0;
  int64_t idx[NDT_MAXDIMS] = {0}, runs = size / (n ? n : 1), cnt = 0;
  uint8_t flag[CH];
  for (int64_t r = 0; r < runs; r++) {
    const char *p = p0;
    for (int k = 0; k < nd - 1; k++) p += idx[k] * st[k];
    for (int64_t c = 0; c < n; c += CH) {
      int64_t m = n - c < CH ? n - c : CH;
      tobool(p + c * s, s, (char *)flag, 1, m);
      if (!dst) {   /* counting alone: a branch-free sum, which vectorises */
        for (int64_t i = 0; i < m; i++) cnt += flag[i] != 0;
        continue;
      }
      for (int64_t i = 0; i < m; i++) {
        if (!flag[i]) continue;
        for (int k = 0; k < nd - 1; k++) dst[cnt * nd + k] = start[k] + idx[k];
        if (nd) dst[cnt * nd + nd - 1] = start[nd - 1] + c + i;
        cnt++;
      }
    }
    for (int k = nd - 2; k >= 0; k--) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return cnt;
}

/* dst = src for R x C elements (byte strides), cast from dtype sdt to ddt;
 * a row whose elements are adjacent on both sides, in one dtype but bool
 * (whose casts normalise to 0/1), is one memcpy; rows that continue one
 * another on both sides are one row. */
void ndt__cpu_copy2d(int64_t R, int64_t C, const char *src, int64_t srs, int64_t scs,
                     ndt_dtype sdt, char *dst, int64_t drs, int64_t dcs, ndt_dtype ddt) {
  int sz = ndt__traits[sdt].size;
  int plain = sdt == ddt && sdt != NDT_BOOL && scs == sz && dcs == sz;
  ndt_cast_fn f = plain ? NULL : ndt__cpu_cast(sdt, ddt);
  if (R > 1 && srs == C * scs && drs == C * dcs) {   /* the rows are one run on both sides */
    C *= R;
    R = 1;
  }
  for (int64_t r = 0; r < R; r++) {
    if (plain) memcpy(dst + r * drs, src + r * srs, (size_t)(C * sz));
    else f(src + r * srs, scs, dst + r * drs, dcs, C);
  }
}
