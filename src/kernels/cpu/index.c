/* index.c - the indexing kernels: advanced-index reads (gather), writes by
 * flat index in order (put, and ufunc.at's updates), and arange's values
 * (range). Operands come as pointers with byte strides; store elements
 * reached by store offset come as an ndt_kwalk (table.h). */
#include <string.h>
#include "cpu.h"
#include "kernels/index_scalar.h"   /* ndt_sc_index_at: the device's too */

/* One element of isz bytes: fixed-size copies, no call. */
static inline void copy_elem(char *d, const char *s, int isz) {
  switch (isz) {
    case 1: *d = *s; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, (size_t)isz);
  }
}

/* A walk with its last piece kept: element f by pointer arithmetic when
 * the operand lies in one piece or f in the piece of the last call, else
 * one call, whose piece is kept. (A copy of the ndt_kwalk: writes through
 * the pointers it hands out cannot change it.) */
typedef struct {
  ndt_kwalk w;
  char *p;            /* element org of the kept piece */
  int64_t org, lo, hi;   /* its store offsets [lo, hi) (none kept: lo == hi) */
} walker;
static inline walker walker_of(const ndt_kwalk *w) {
  walker k = {*w, NULL, 0, 0, 0};
  return k;
}
static inline char *walk(walker *k, int64_t f) {
  if (k->w.base) return k->w.base + (f - k->w.first) * k->w.es;
  if (f >= k->lo && f < k->hi) return k->p + (f - k->org) * k->w.es;
  int64_t lo, hi;
  char *p = k->w.at(k->w.ctx, f, &lo, &hi);
  if (p) {
    k->p = p;
    k->org = f;
    k->lo = lo;
    k->hi = hi;
  }
  return p;
}

int ndt__cpu_gather(const ndt_gather_desc *d, int64_t *bad, int *axis) {
  int nd = d->nd, nk = d->nk, isz = d->isz;
  int64_t n = 1;
  for (int j = 0; j < nd; j++) n *= d->shape[j];
  if (n == 0) return 0;
  /* the usual case (a[idx], idx 1-d int64, the source in one piece): a
   * plain loop */
  if (nd == 1 && nk == 1 && d->it[0] == NDT_INT64) {
    const char *ip = d->idx[0];
    int64_t is = d->ist[0][0], os = d->ost[0], lim = d->ashape[0];
    char *op = d->out;
    if (d->src.base) {   /* the source in one piece: no walk */
      const char *b = d->src.base + (d->aoff - d->src.first) * d->src.es;
      int64_t step = d->ast[0] * d->src.es;
      for (int64_t e = 0; e < n; e++, ip += is, op += os) {
        int64_t v;
        memcpy(&v, ip, 8);
        if (v < 0 || v >= lim) {
          *bad = v;
          *axis = 0;
          return -1;
        }
        copy_elem(op, b + v * step, isz);
      }
      return 0;
    }
    walker k = walker_of(&d->src);
    int64_t aoff = d->aoff, ast = d->ast[0];
    for (int64_t e = 0; e < n; e++, ip += is, op += os) {
      int64_t v;
      memcpy(&v, ip, 8);
      if (v < 0 || v >= lim) {
        *bad = v;
        *axis = 0;
        return -1;
      }
      copy_elem(op, walk(&k, aoff + v * ast), isz);
    }
    return 0;
  }
  walker k = walker_of(&d->src);
  int64_t pos[NDT_MAXDIMS] = {0};
  for (int64_t e = 0; e < n; e++) {
    int64_t f = d->aoff;
    for (int k = 0; k < nk; k++) {
      const char *ip = d->idx[k];
      for (int j = 0; j < nd; j++) ip += pos[j] * d->ist[k][j];
      int64_t v = ndt_sc_index_at(d->it[k], ip);
      if (v < 0 || v >= d->ashape[k]) {
        *bad = v;
        *axis = k;
        return -1;
      }
      f += v * d->ast[k];
    }
    char *op = d->out;
    for (int j = 0; j < nd; j++) op += pos[j] * d->ost[j];
    copy_elem(op, walk(&k, f), isz);
    for (int j = nd - 1; j >= 0; j--) {
      if (++pos[j] < d->shape[j]) break;
      pos[j] = 0;
    }
  }
  return 0;
}

/* The store offset of flat index i of a view of nd axes (element offset
 * off, shape sh, element strides st). */
static inline int64_t flat_offset(int nd, int64_t off, const int64_t *sh, const int64_t *st,
                                  int64_t i) {
  if (nd == 1) return off + i * st[0];
  for (int k = nd - 1; k >= 0; k--) {
    off += (i % sh[k]) * st[k];
    i /= sh[k];
  }
  return off;
}

int ndt__cpu_put(const ndt_put_desc *d, int64_t *bad) {
  /* the descriptor in locals: the writes below could alias it for the
   * compiler, which would then load every field again per element */
  const int64_t n = d->n, is = d->is, vs = d->vs, lo = d->lo, hi = d->hi, off = d->off;
  const char *const ip = d->idx, *const vp = d->vals;
  const int nd = d->nd, isz = d->isz;
  const int64_t *const sh = d->shape, *const st = d->st;
  for (int64_t e = 0; e < n; e++) {   /* a bad index writes nothing */
    int64_t f;
    memcpy(&f, ip + e * is, 8);
    if (f < 0 || f >= d->size) {
      *bad = f;
      return -1;
    }
  }
  walker k = walker_of(&d->dst);
  if (!d->fn) {   /* put: the last value for an index wins */
    for (int64_t e = 0; e < n; e++) {
      int64_t f;
      memcpy(&f, ip + e * is, 8);
      int64_t o = flat_offset(nd, off, sh, st, f);
      if (o < lo || o >= hi) continue;
      copy_elem(walk(&k, o), vp + e * vs, isz);
    }
    return 0;
  }
  /* ufunc.at: each update sees the ones before it. */
  if (d->nin == 2 && !d->to_loop && !d->from_loop && d->op == NDT_ADD &&
      (d->loop[0] == NDT_FLOAT64 || d->loop[0] == NDT_FLOAT32) && d->loop[1] == d->loop[0] &&
      d->loop[2] == d->loop[0]) {
    /* plain float64/float32 sums (np.add.at's usual case): no loop call */
    int f64 = d->loop[0] == NDT_FLOAT64;
    for (int64_t e = 0; e < n; e++) {
      int64_t f;
      memcpy(&f, ip + e * is, 8);
      int64_t o = flat_offset(nd, off, sh, st, f);
      if (o < lo || o >= hi) continue;
      char *t = walk(&k, o);
      const char *pv = vp + e * vs;
      if (f64) {
        double u, w;
        memcpy(&u, t, 8);
        memcpy(&w, pv, 8);
        u += w;
        memcpy(t, &u, 8);
      } else {
        float u, w;
        memcpy(&u, t, 4);
        memcpy(&w, pv, 4);
        u += w;
        memcpy(t, &u, 4);
      }
    }
    return 0;
  }
  /* slots of 16 bytes, 16-aligned, for one element of each loop operand */
  _Alignas(16) char x[16], r[16];
  int64_t steps[3] = {0, 0, 0};
  const int nin = d->nin;
  const ndt_loop_fn fn = d->fn;
  const ndt_cast_fn to_loop = d->to_loop, from_loop = d->from_loop;
  for (int64_t e = 0; e < n; e++) {
    int64_t f;
    memcpy(&f, ip + e * is, 8);
    int64_t o = flat_offset(nd, off, sh, st, f);
    if (o < lo || o >= hi) continue;
    char *t = walk(&k, o);
    if (to_loop) to_loop(t, 0, x, 0, 1);
    else memcpy(x, t, (size_t)isz);
    char *args[3];
    args[0] = x;
    if (nin == 2) {
      args[1] = (char *)(vp + e * vs);
      args[2] = r;
    } else {
      args[1] = r;   /* a unary op: no values */
    }
    fn(args, steps, 1);
    if (from_loop) from_loop(r, 0, t, 0, 1);
    else memcpy(t, r, (size_t)isz);
  }
  return 0;
}

void ndt__cpu_range(const ndt_range_desc *a, int64_t first, int64_t n, ndt_dtype t, char *out,
                    int64_t os) {
  enum { CH = 256 };
  union { double d[CH]; int64_t i[CH]; } buf;
  ndt_cast_fn cast = ndt__cpu_cast(a->as_int ? NDT_INT64 : NDT_FLOAT64, t);
  for (int64_t c = 0; c < n; c += CH) {
    int64_t m = n - c < CH ? n - c : CH;
    for (int64_t j = 0; j < m; j++) {
      int64_t i = first + c + j;
      if (a->as_int) buf.i[j] = (int64_t)((uint64_t)a->istart + (uint64_t)i * (uint64_t)a->istep);
      else if (a->div != 0 && a->as_f32)
        buf.d[j] = (float)((float)a->start + (float)i / (float)a->div * (float)a->step);
      else if (a->div != 0) buf.d[j] = a->start + (double)i / a->div * a->step;
      else if (a->as_f32) buf.d[j] = (float)((float)a->start + (float)i * (float)a->step);
      else buf.d[j] = a->start + (double)i * a->step;
      if (i == 1 && a->has_v1 && !a->as_int) buf.d[j] = a->v1;
      /* arange's element 0 is start itself, as NumPy stores it: start + 0 * step
       * would turn a start of -0.0 into +0.0 */
      if (i == 0 && a->has_v1 && !a->as_int) buf.d[j] = a->as_f32 ? (double)(float)a->start : a->start;
    }
    cast((char *)&buf, 8, out + c * os, os, m);
  }
}
