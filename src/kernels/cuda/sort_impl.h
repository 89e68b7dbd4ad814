/* sort_impl.h - the device's sort and argsort along an axis (src/ops/sort.c's
 * "sort" tasks), with the CPU's bits (src/kernels/cpu/sort.c).
 *
 * The CPU's sort is stable and orders by NumPy's rules, every NaN one key
 * (last) and both zeros one key; a stable sort under the same order has
 * one result, so any stable algorithm over the same keys gives the CPU's
 * values and indices bit for bit. The keys are the CPU's radix keys
 * (src/kernels/sort_key.h, one header for both; complex numbers as three
 * words: group, primary, secondary).
 *
 * The device sorts indices, never values: each line's index array
 * (0..n-1) is ordered by the keys of the elements it points to (computed
 * once and moved with the indices; a complex key, three words, is read
 * from the input through the index in each pass), and the result is
 * written at the end from the input through the final indices (a value
 * sort) or as the indices (an argsort). So a value sort writes every element's own bits (-0.0,
 * NaN payloads) without the CPU's bookkeeping for them.
 *
 * Lines of more than NDT_DS_SMALL elements take an LSD radix sort of 8-bit
 * digits (the key's bytes, least significant first: 1 to 8 passes, 9 or
 * 17 for complex), each pass four launches over every line at once:
 *   hist   a thread per chunk of NDT_DS_CHUNK positions: its digit counts;
 *   tot    a thread per (line, digit): the digit's count over the chunks,
 *          and the line's flag when that digit holds the whole line (the
 *          flag cleared by the hist launch's first chunk);
 *   off    a thread per (line, digit), or per line for a line of at most
 *          NDT_DS_OFF_LINE chunks: where the digit's run of each chunk
 *          starts (the digits before it, then the chunks before it, in
 *          order); a pass in which one digit holds the whole line (the
 *          flag) moves nothing (as on the CPU), the scatter copies it;
 *   scat   a thread per chunk: its positions, in order, to their places.
 * Each chunk is one thread's, walked in order, and its runs start after
 * every earlier chunk's: a stable pass. Lines of at most NDT_DS_SMALL
 * elements are insertion-sorted by a thread each (stable too).
 *
 * A run (dk.h's ndt_dk_run) is rows lines of cols = n elements: operand 0
 * the input (line i, element j at p[0] + i * rs[0] + j * cs[0]), 1 the
 * result (its dtype's or int64), 2 the lines' scratch (line i's at p[2] +
 * i * rs[2], rs[2] >= ndt_ds_scratch(n): two index arrays, two key
 * arrays, the chunks' digit counts, the digit totals and the pass's flag
 * (8 bytes, so a line's scratch stays a multiple of 8); one index array for
 * a short line). The launch's aux: phase | dtype << 4 |
 * pass << 8 | from << 13 (the pass reads the second index array; the
 * final indices lie there) | indices << 14 | quiet << 15 (NaNs written as
 * the default quiet NaN, NDT_SORT_QUIET_NAN) | bins << 16 (bincount's
 * keys: ndt_ds_line; rs[3] the number of bins).
 *
 * sort.cu compiles this file with nvcc; tests/c/test_devkernels.c (sort)
 * runs it on the CPU against the CPU's kernels. Not yet run on a GPU: a
 * chunk is one thread's (CUB ranks a tile per block); the speed is
 * unmeasured. */
#ifndef NDT_KERNELS_CUDA_SORT_IMPL_H
#define NDT_KERNELS_CUDA_SORT_IMPL_H

#include <stdint.h>
#include <string.h>
#include "ndtile.h"
#include "kernels/cuda/dk.h"
#include "kernels/sort_key.h"

#define NDT_DS_CHUNK 256
#define NDT_DS_SMALL 32
/* lines of at most this many chunks take their offsets a thread each (256
 * x chunks steps, the digits' prefix once) rather than a thread per digit,
 * each of which summed the totals before its digit (half of a short line's
 * emulated sort) */
#define NDT_DS_OFF_LINE 8
enum { NDT_DS_INIT, NDT_DS_INS, NDT_DS_HIST, NDT_DS_TOT, NDT_DS_OFF, NDT_DS_SCAT, NDT_DS_OUT };

/* the chunks of a line of n, and the bytes of its scratch (a short line's
 * insertion sort: its index array alone) */
NDT_HD int64_t ndt_ds_nch(int64_t n) { return (n + NDT_DS_CHUNK - 1) / NDT_DS_CHUNK; }
NDT_HD int64_t ndt_ds_scratch(int64_t n) {
  return n <= NDT_DS_SMALL ? 8 * n : 32 * n + 4 * 256 * (ndt_ds_nch(n) + 1) + 8;
}

NDT_HD int ndt_ds_size(int dt) {
  switch (dt) {
    case NDT_BOOL: case NDT_INT8: case NDT_UINT8: return 1;
    case NDT_INT16: case NDT_UINT16: return 2;
    case NDT_INT32: case NDT_UINT32: case NDT_FLOAT32: return 4;
    case NDT_COMPLEX128: return 16;
    default: return 8;
  }
}

NDT_HD int ndt_ds_npass(int dt) {
  const int sz = ndt_ds_size(dt);
  return dt >= NDT_COMPLEX64 ? sz + 1 : sz;
}

/* the sz bytes at e as an unsigned integer */
NDT_HD uint64_t ndt_ds_bits(const char *e, int sz) {
  if (sz == 1) return *(const uint8_t *)e;
  if (sz == 2) {
    uint16_t v;
    memcpy(&v, e, 2);
    return v;
  }
  if (sz == 4) {
    uint32_t v;
    memcpy(&v, e, 4);
    return v;
  }
  uint64_t v;
  memcpy(&v, e, 8);
  return v;
}

typedef struct {
  uint64_t pri, sec;
  unsigned g;
} ndt_ds_key;

NDT_HD ndt_ds_key ndt_ds_key_of(int dt, const char *e) {
  ndt_ds_key k = {0, 0, 0};
  const int sz = ndt_ds_size(dt);
  if (dt >= NDT_COMPLEX64) {
    const int h = sz / 2;
    k.g = ndt_sk_ckey(ndt_ds_bits(e, h), ndt_ds_bits(e + h, h), 8 * h, &k.pri, &k.sec);
  } else {
    k.pri = ndt_sk_key(ndt_ds_bits(e, sz), 8 * sz, dt == NDT_FLOAT32 || dt == NDT_FLOAT64,
                       dt >= NDT_INT8 && dt <= NDT_INT64);
  }
  return k;
}

NDT_HD int ndt_ds_lt(ndt_ds_key a, ndt_ds_key b) {
  return a.g != b.g ? a.g < b.g : a.pri != b.pri ? a.pri < b.pri : a.sec < b.sec;
}

/* digit `pass` of a key, least significant first */
NDT_HD unsigned ndt_ds_digit(int dt, ndt_ds_key k, int pass) {
  if (dt < NDT_COMPLEX64) return (unsigned)(k.pri >> (8 * pass)) & 255u;
  const int h = ndt_ds_size(dt) / 2;
  if (pass < h) return (unsigned)(k.sec >> (8 * pass)) & 255u;
  if (pass < 2 * h) return (unsigned)(k.pri >> (8 * (pass - h))) & 255u;
  return k.g;
}

/* an integer element (bool, int8..int64, uint8..uint32) as int64: the
 * CPU's cast (scalar.h's) */
#define NDT_DS_LD(SFX, ENUM)     \
  case ENUM: {                   \
    ndt_sc_t_##SFX v;            \
    memcpy(&v, e, sizeof v);     \
    return ndt_sc_cast_##SFX##_i64(v); \
  }
NDT_HD int64_t ndt_ds_ld_i64(int dt, const char *e) {
  switch (dt) {
    NDT_DS_LD(b, NDT_BOOL)
    NDT_DS_LD(i8, NDT_INT8)
    NDT_DS_LD(i16, NDT_INT16)
    NDT_DS_LD(i32, NDT_INT32)
    NDT_DS_LD(i64, NDT_INT64)
    NDT_DS_LD(u8, NDT_UINT8)
    NDT_DS_LD(u16, NDT_UINT16)
    NDT_DS_LD(u32, NDT_UINT32)
    default: return 0;
  }
}
#undef NDT_DS_LD

/* line i's parts of run r; nbins >= 0: bin keys (bincount_impl.h: an
 * integer element x keyed as min(max(x, -1), nbins) + 1, its bin's
 * order with the out-of-range ones before and after) */
typedef struct {
  const char *in;
  int64_t is, nbins;
  int64_t *a, *b;    /* the index arrays */
  uint64_t *ka, *kb;  /* their keys (not complex: one word) */
  uint32_t *hist, *tot;   /* tot[256]: the pass's flag (ndt_ds_skip) */
} ndt_ds_line;

NDT_HD ndt_ds_line ndt_ds_line_of(const ndt_dk_run *r, int64_t i, int aux) {
  ndt_ds_line l;
  const int64_t n = r->cols;
  l.in = r->p[0] + i * r->rs[0];
  l.is = r->cs[0];
  l.nbins = (aux >> 16) & 1 ? r->rs[3] : -1;
  l.a = (int64_t *)(r->p[2] + i * r->rs[2]);
  l.b = l.a + n;
  l.ka = (uint64_t *)(l.b + n);
  l.kb = l.ka + n;
  l.hist = (uint32_t *)(l.kb + n);
  l.tot = l.hist + 256 * ndt_ds_nch(n);
  return l;
}

NDT_HD ndt_ds_key ndt_ds_key_at(int dt, const ndt_ds_line *l, int64_t j) {
  if (l->nbins >= 0) {
    int64_t v = ndt_ds_ld_i64(dt, l->in + j * l->is);
    ndt_ds_key k = {(uint64_t)((v < 0 ? -1 : v > l->nbins ? l->nbins : v) + 1), 0, 0};
    return k;
  }
  return ndt_ds_key_of(dt, l->in + j * l->is);
}

/* 1 when one digit holds the whole line (the pass moves nothing): the
 * flag the tot launch set, read once (not the 256 totals scanned by every
 * off and scat thread: most of a short line's emulated sort) */
NDT_HD int ndt_ds_skip(const ndt_ds_line *l) { return l->tot[256] != 0; }

/* work item e of phase ph in run r */
NDT_HD void ndt_ds_item(const ndt_dk_run *r, int aux, int64_t e) {
  const int ph = aux & 15, dt = (aux >> 4) & 15, pass = (aux >> 8) & 31;
  const int from = (aux >> 13) & 1, wix = (aux >> 14) & 1, quiet = (aux >> 15) & 1;
  const int64_t n = r->cols, nch = ndt_ds_nch(n);
  switch (ph) {
    case NDT_DS_INIT: {
      ndt_ds_line l = ndt_ds_line_of(r, e / n, aux);
      l.a[e % n] = e % n;
      if (n > NDT_DS_SMALL && dt < NDT_COMPLEX64) l.ka[e % n] = ndt_ds_key_at(dt, &l, e % n).pri;
      break;
    }
    case NDT_DS_INS: {   /* a stable insertion sort of a short line */
      ndt_ds_line l = ndt_ds_line_of(r, e, aux);
      for (int64_t j = 1; j < n; j++) {
        const int64_t x = l.a[j];
        const ndt_ds_key kx = ndt_ds_key_at(dt, &l, x);
        int64_t m = j;
        while (m > 0 && ndt_ds_lt(kx, ndt_ds_key_at(dt, &l, l.a[m - 1]))) {
          l.a[m] = l.a[m - 1];
          m--;
        }
        l.a[m] = x;
      }
      break;
    }
    case NDT_DS_HIST: {
      ndt_ds_line l = ndt_ds_line_of(r, e / nch, aux);
      const int64_t c = e % nch, hi = (c + 1) * NDT_DS_CHUNK < n ? (c + 1) * NDT_DS_CHUNK : n;
      const int64_t *src = from ? l.b : l.a;
      const uint64_t *sk = from ? l.kb : l.ka;
      uint32_t *h = l.hist + 256 * c;
      for (int d = 0; d < 256; d++) h[d] = 0;
      if (c == 0) l.tot[256] = 0;   /* the flag: set by tot, after this launch */
      if (dt < NDT_COMPLEX64)
        for (int64_t j = c * NDT_DS_CHUNK; j < hi; j++) h[(sk[j] >> (8 * pass)) & 255u]++;
      else
        for (int64_t j = c * NDT_DS_CHUNK; j < hi; j++)
          h[ndt_ds_digit(dt, ndt_ds_key_at(dt, &l, src[j]), pass)]++;
      break;
    }
    case NDT_DS_TOT: {
      ndt_ds_line l = ndt_ds_line_of(r, e / 256, aux);
      const int d = (int)(e % 256);
      uint32_t s = 0;
      for (int64_t c = 0; c < nch; c++) s += l.hist[256 * c + d];
      l.tot[d] = s;
      if (s == (uint32_t)n) l.tot[256] = 1;   /* one digit: its only writer */
      break;
    }
    case NDT_DS_OFF: {   /* a thread per line of few chunks, else per (line, digit) */
      const int per_line = nch <= NDT_DS_OFF_LINE;
      ndt_ds_line l = ndt_ds_line_of(r, per_line ? e : e / 256, aux);
      if (ndt_ds_skip(&l)) break;
      const int d0 = per_line ? 0 : (int)(e % 256), d1 = per_line ? 256 : d0 + 1;
      uint32_t base = 0;
      for (int q = 0; q < d0; q++) base += l.tot[q];
      for (int d = d0; d < d1; d++)
        for (int64_t c = 0; c < nch; c++) {
          const uint32_t t = l.hist[256 * c + d];
          l.hist[256 * c + d] = base;
          base += t;
        }
      break;
    }
    case NDT_DS_SCAT: {
      ndt_ds_line l = ndt_ds_line_of(r, e / nch, aux);
      const int64_t c = e % nch, hi = (c + 1) * NDT_DS_CHUNK < n ? (c + 1) * NDT_DS_CHUNK : n;
      const int64_t *src = from ? l.b : l.a;
      int64_t *dst = from ? l.a : l.b;
      const uint64_t *sk = from ? l.kb : l.ka;
      uint64_t *dk = from ? l.ka : l.kb;
      uint32_t *h = l.hist + 256 * c;
      const int skip = ndt_ds_skip(&l);
      if (dt < NDT_COMPLEX64) {   /* the keys move with the indices */
        for (int64_t j = c * NDT_DS_CHUNK; j < hi; j++) {
          const uint64_t k = sk[j];
          const int64_t o = skip ? j : (int64_t)h[(k >> (8 * pass)) & 255u]++;
          dst[o] = src[j];
          dk[o] = k;
        }
      } else {
        for (int64_t j = c * NDT_DS_CHUNK; j < hi; j++) {
          const int64_t x = src[j];
          dst[skip ? j : (int64_t)h[ndt_ds_digit(dt, ndt_ds_key_at(dt, &l, x), pass)]++] = x;
        }
      }
      break;
    }
    case NDT_DS_OUT: {
      const int64_t i = e / n, j = e % n;
      ndt_ds_line l = ndt_ds_line_of(r, i, aux);
      const int64_t x = (from ? l.b : l.a)[j];
      char *o = r->p[1] + i * r->rs[1] + j * r->cs[1];
      if (wix) {
        memcpy(o, &x, 8);
        break;
      }
      const int sz = ndt_ds_size(dt);
      const char *v = l.in + x * l.is;
      if (quiet && n > 1 && (dt == NDT_FLOAT32 || dt == NDT_FLOAT64) &&
          ndt_sk_isnan(ndt_ds_bits(v, sz), 8 * sz)) {
        /* the CPU's (float)NAN and (double)NAN: positive, quiet */
        if (dt == NDT_FLOAT32) {
          const uint32_t q = 0x7FC00000u;
          memcpy(o, &q, 4);
        } else {
          const uint64_t q = 0x7FF8000000000000ull;
          memcpy(o, &q, 8);
        }
      } else {
        memcpy(o, v, (size_t)sz);
      }
      break;
    }
    default: break;
  }
}

#if defined(NDT_DK_HOST) || defined(__CUDACC__)

/* the host build of the plugin counts these launches
 * (NDTILE_CUDAHOST_STATS: "sort launches") */
#if defined(NDT_DK_HOST) && defined(NDT_DK_STREAM)
void ndt__cudahost_tally(int what);
#define NDT_DS_TALLY() ndt__cudahost_tally(3)
#else
#define NDT_DS_TALLY() ((void)0)
#endif

NDT_DK_BODY void ndt_ds_k_body(const ndt_dk_launch *L, unsigned *flags, ndt_dk_grid g) {
  const ndt_dk_run *r = &L->run[g.by];
  const int ph = L->aux & 15;
  const int64_t n = r->cols, rows = r->rows;
  const int64_t nch = ndt_ds_nch(n);
  const int64_t items = ph == NDT_DS_INIT || ph == NDT_DS_OUT ? rows * n
                        : ph == NDT_DS_INS                    ? rows
                        : ph == NDT_DS_HIST || ph == NDT_DS_SCAT ? rows * nch
                        : ph == NDT_DS_OFF && nch <= NDT_DS_OFF_LINE ? rows
                                                                 : rows * 256;
  (void)flags;
  if (n <= 0) return;
  for (int64_t e = g.bx * g.ntx + g.tx; e < items; e += g.nbx * g.ntx) ndt_ds_item(r, L->aux, e);
}
NDT_DK_GLOBAL(ndt_ds_k, 3)

/* The lines of L's runs (all of one length n >= 1) ordered: their index
 * arrays sorted by the keys of dtype dt (aux's other bits in base) in
 * npass passes; returns 1 when the final indices lie in the second array. */
static int ndt_ds_order(ndt_dk_launch *L, int base, int npass, void *stream) {
  const int64_t n = L->run[0].cols;
  int from = 0;
  L->aux = base | NDT_DS_INIT;
  NDT_DS_TALLY();
  ndt_ds_k(L, NULL, stream);
  if (n <= NDT_DS_SMALL) {
    L->aux = base | NDT_DS_INS;
    NDT_DS_TALLY();
    ndt_ds_k(L, NULL, stream);
    return 0;
  }
  for (int p = 0; p < npass; p++, from ^= 1) {
    const int ph[4] = {NDT_DS_HIST, NDT_DS_TOT, NDT_DS_OFF, NDT_DS_SCAT};
    for (int s = 0; s < 4; s++) {
      L->aux = base | ph[s] | p << 8 | from << 13;
      NDT_DS_TALLY();
      ndt_ds_k(L, NULL, stream);
    }
  }
  return from;
}

/* ---- the entry point (the plugin's; static in the host test) ----
 * Sorts every line of L's runs (all of one length n <= 2^31, each run's
 * scratch at p[2]) of dtype dt, writing values (wix 0; quiet: NaNs as the
 * default quiet NaN) or int64 indices (wix 1); L->aux is overwritten.
 * 0, or -1 for a launch the kernel does not take. */
NDT_DK_ENTRY(int) ndt__dk_sort(int dt, int wix, int quiet, ndt_dk_launch *L, void *stream) {
  if (dt < 0 || dt >= NDT_NTYPES || L->nrun < 1) return L->nrun == 0 ? 0 : -1;
  const int64_t n = L->run[0].cols;
  for (int q = 0; q < L->nrun; q++)
    if (L->run[q].cols != n || n > ((int64_t)1 << 31) || L->run[q].rs[2] < ndt_ds_scratch(n))
      return -1;
  if (n <= 0) return 0;
  const int base = dt << 4 | wix << 14 | quiet << 15;
  const int from = ndt_ds_order(L, base, ndt_ds_npass(dt), stream);
  L->aux = base | NDT_DS_OUT | from << 13;
  NDT_DS_TALLY();
  ndt_ds_k(L, NULL, stream);
  return 0;
}

#endif
#endif
