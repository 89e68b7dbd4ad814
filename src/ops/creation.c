/* creation.c - new arrays, and moving data between host buffers and stores. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "exec.h"

ndt_status ndt_empty(ndt_array **out, int ndim, const int64_t *shape, ndt_dtype t) {
  return ndt__array_new(out, t, ndim, shape, 0);
}

ndt_status ndt_full(ndt_array **out, int ndim, const int64_t *shape, ndt_dtype t,
                    const void *value, ndt_dtype vtype) {
  ndt_array *a;
  ndt_status st = ndt__array_new(&a, t, ndim, shape, 0);
  if (st) return st;
  st = ndt_fill(a, value, vtype);
  if (st) {
    ndt_free(a);
    return st;
  }
  *out = a;
  return NDT_OK;
}

/* An array that would be filled inline (one tile, at most the inline
 * threshold) is made zeroed instead: its buffer is cleared as it is
 * allocated, with no fill task and no 0-d source (zero bits are zero in
 * every dtype). Larger ones are filled by tasks, in parallel. The choice
 * depends on the shape alone, so every rank makes the same one. */
ndt_status ndt_zeros(ndt_array **out, int ndim, const int64_t *shape, ndt_dtype t) {
  if ((int)t >= 0 && t < NDT_NTYPES && ndim >= 0 && ndim <= NDT_MAXDIMS) {
    int64_t lim = ndt__rt_inline_elems(), size = 1;
    int small = 1, empty = 0;
    for (int k = 0; k < ndim && small; k++) {
      if (shape[k] < 0) small = 0;   /* (the error comes from ndt_full) */
      else if (shape[k] == 0) empty = 1;
      else if (size > lim / shape[k]) small = empty;
      else size *= shape[k];
    }
    if (small && ndt_tiles_for(ndim, shape, t) == 1)
      return ndt__array_new(out, t, ndim, shape, 1);
  }
  int64_t zero = 0;
  return ndt_full(out, ndim, shape, t, &zero, NDT_INT64);
}

ndt_status ndt_ones(ndt_array **out, int ndim, const int64_t *shape, ndt_dtype t) {
  int64_t one = 1;
  return ndt_full(out, ndim, shape, t, &one, NDT_INT64);
}

/* A task filling a block of a 1-d array with start + i*step (its
 * argument: exec.h's ndt_range_arg, which the CUDA plugin reads). */
typedef ndt_range_arg range_arg;

static ndt_status range_body(ndt_bound *op, void *p) {
  const range_arg *a = p;
  ndt__kern->range(&a->d, a->first, a->out.size, a->out.dtype, op[0].ptr, op[0].st[0]);
  return NDT_OK;
}

static const ndt_task_kind range_kind = {"arange", {range_body}, NULL};

static ndt_status fill_range(ndt_array *r, int as_int, double start, double step,
                             int64_t istart, int64_t istep, const double *v1, double div) {
  ndt_tiling tl;
  ndt__tiling_for(1, r->shape, r->store->itemsize, ndt__rt_tile_bytes(), &tl);
  /* float32 results are computed in float32, as NumPy does; element 1 of
   * arange is start + step itself */
  range_arg a = {.d = {.as_int = as_int, .start = start, .step = step, .istart = istart,
                       .istep = istep, .as_f32 = r->dtype == NDT_FLOAT32,
                       .has_v1 = v1 != NULL, .v1 = v1 ? *v1 : 0, .div = div}};
  ndt_status st = NDT_OK;
  ndt_operand op = {&a.out, NDT_WRITE};
  unsigned fl = tl.ntiles == 1 && r->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK && r->size; b++) {
    ndt__block_view(r, &tl, b, &a.out);
    a.first = a.out.offset - r->offset;
    st = ndt__record(&range_kind, NULL, &op, 1, &a, sizeof a, fl);
  }
  return st;
}

ndt_status ndt_arange(ndt_array **out, double start, double stop, double step, ndt_dtype t) {
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "invalid dtype");
  if (step == 0) return ndt__error(NDT_ERR_VALUE, "Maximum allowed size exceeded");
  if (!isfinite(start) || !isfinite(stop) || !isfinite(step))
    return ndt__error(NDT_ERR_VALUE, "arange: cannot compute length");
  double span = stop - start, q = span / step;
  /* a quotient that underflows to zero (a step much larger than the span)
   * is one element when its sign says the step goes towards stop, as NumPy */
  double len = q == 0 && span != 0 ? (signbit(q) ? 0 : 1) : ceil(q);
  if (!(len > 0)) len = 0;
  if (len > 9.2e18) return ndt__error(NDT_ERR_VALUE, "Maximum allowed size exceeded");
  int64_t n = (int64_t)len;
  ndt_array *r;
  ndt_status st = ndt__array_new(&r, t, 1, &n, 0);
  if (st) return st;
  char k = ndt__traits[t].kind;
  int as_int = k == 'i' || k == 'u' || k == 'b';
  /* NumPy takes the step as (start + step) - start in the result type */
  double delta = t == NDT_FLOAT32 ? (double)((float)(start + step) - (float)start)
                                  : (start + step) - start;
  double v1 = t == NDT_FLOAT32 ? (double)(float)(start + step) : start + step;
  if (n == 1) delta = 0;    /* start alone (a float32 step that overflows: 0*inf) */
  st = fill_range(r, as_int, start, delta, (int64_t)start, (int64_t)step, &v1, 0);
  if (st) {
    ndt_free(r);
    return st;
  }
  *out = r;
  return NDT_OK;
}

ndt_status ndt_linspace(ndt_array **out, double start, double stop, int64_t num, int endpoint,
                        ndt_dtype t) {
  if (num < 0) return ndt__error(NDT_ERR_VALUE, "Number of samples, %lld, must be non-negative.",
                                (long long)num);
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "invalid dtype");
  char k = ndt__traits[t].kind;
  int is_int = k == 'i' || k == 'u' || k == 'b';
  ndt_dtype work = (is_int || k == 'f') ? NDT_FLOAT64 : t;
  int64_t div = endpoint ? num - 1 : num;
  double step = div > 0 ? (stop - start) / (double)div : NAN;
  ndt_array *r;
  ndt_status st = ndt__array_new(&r, work, 1, &num, 0);
  if (st) return st;
  /* NumPy: (i / div) * (stop - start) when the step underflows to zero
   * (a subnormal distance), else i * step */
  if (div > 0 && step == 0)
    st = fill_range(r, 0, start, stop - start, 0, 0, NULL, (double)div);
  else
    st = fill_range(r, 0, start, div > 0 ? step : 0.0, 0, 0, NULL, 0);
  if (st == NDT_OK && endpoint && num > 1) {
    ndt_index ix = {.kind = NDT_IDX_INT, .start = num - 1};
    ndt_array *last;
    st = ndt_view_index(&last, r, 1, &ix);
    if (st == NDT_OK) {
      st = ndt_fill(last, &stop, NDT_FLOAT64);
      ndt_free(last);
    }
  }
  if (st == NDT_OK && is_int) {
    ndt_array *f = NULL;
    st = ndt_unary(&f, NDT_FLOOR, r);
    if (st == NDT_OK) {
      ndt_free(r);
      r = f;
    }
  }
  if (st == NDT_OK && r->dtype != t) {
    ndt_array *c;
    st = ndt_astype(&c, r, t, NDT_CAST_UNSAFE);
    if (st == NDT_OK) {
      ndt_free(r);
      r = c;
    }
  }
  if (st) {
    ndt_free(r);
    return st;
  }
  *out = r;
  return NDT_OK;
}

ndt_status ndt_eye(ndt_array **out, int64_t n, int64_t m, int64_t k, ndt_dtype t) {
  if (n < 0 || m < -1)
    return ndt__error_at(NDT_ERR_VALUE, NDT_KIND_VALUE, n < 0 ? "N" : "M",
                         "negative dimensions are not allowed");
  if (m < 0) m = n;
  int64_t shape[2] = {n, m};
  ndt_array *r;
  ndt_status st = ndt_zeros(&r, 2, shape, t);
  if (st) return st;
  /* the k-th diagonal is a strided view of the store */
  int64_t len = 0, off = 0;
  if (k >= 0 && k < m) {
    len = n < m - k ? n : m - k;
    off = k;
  } else if (k < 0 && -k < n) {
    len = n + k < m ? n + k : m;
    off = -k * m;
  }
  if (len > 0) {
    ndt_array d = *r;
    d.ndim = 1;
    d.offset = off;
    d.shape[0] = len;
    d.strides[0] = m + 1;
    d.size = len;
    int64_t one = 1;
    st = ndt_fill(&d, &one, NDT_INT64);
  }
  if (st) {
    ndt_free(r);
    return st;
  }
  *out = r;
  return NDT_OK;
}

/* Host <-> store copies, on the calling thread. `v` must be idle. Every
 * rank holds the same host data; a copy into the store fills the tiles this
 * rank holds a buffer for (those it owns), the others are skipped. */
static void host_transfer(const ndt_array *v, char *host, const int64_t *hst, int to_host) {
  const ndt_store *s = v->store;
  int isz = ndt_vsize(v), ssz = s->itemsize, nd = v->ndim;
  if (v->size == 0) return;
  int64_t n = nd ? v->shape[nd - 1] : 1, st = nd ? v->strides[nd - 1] : 0;
  int64_t hs = nd ? hst[nd - 1] : 0;
  int64_t idx[NDT_MAXDIMS] = {0}, runs = v->size / n;
  for (int64_t r = 0; r < runs; r++) {
    int64_t f0 = v->offset;
    char *h = host;
    for (int k = 0; k < nd - 1; k++) {
      f0 += idx[k] * v->strides[k];
      h += idx[k] * hst[k];
    }
    int64_t a = f0, z = f0 + (n - 1) * st;
    if (a > z) { int64_t t = a; a = z; z = t; }
    int64_t ta = ndt_store_tile_of(s, a), tz = ndt_store_tile_of(s, z);
    if (ta == tz && st == 1 && hs == isz && !v->part && isz == ssz) {
      char *p = ndt__host_elem(v, f0, 0, NULL);
      if (p) to_host ? memcpy(h, p, (size_t)n * isz) : memcpy(p, h, (size_t)n * isz);
    } else {
      for (int64_t i = 0; i < n; i++, h += hs) {
        char *p = ndt__host_elem(v, f0 + i * st, 0, NULL);
        if (p) to_host ? memcpy(h, p, isz) : memcpy(p, h, isz);
      }
    }
    for (int k = nd - 2; k >= 0; k--) {
      if (++idx[k] < v->shape[k]) break;
      idx[k] = 0;
    }
  }
}

static void c_strides(const ndt_array *a, int64_t *st) {
  int64_t s = ndt__traits[a->dtype].size;
  for (int k = a->ndim - 1; k >= 0; k--) {
    st[k] = s;
    s *= a->shape[k] ? a->shape[k] : 1;
  }
}

ndt_status ndt_from_buffer(ndt_array **out, ndt_dtype t, int ndim, const int64_t *shape,
                           const void *data, const int64_t *byte_strides) {
  ndt_array *r;
  ndt_status st = ndt__array_new(&r, t, ndim, shape, 0);
  if (st) return st;
  if (ndt_distributed() && r->size > 0) {
    /* Every rank holds the host data and fills the tiles it owns; a
     * one-tile array every rank fills and holds: it never travels. */
    ndt_store *s = r->store;
    int all = s->ntiles == 1, me = ndt_rank();
    for (int64_t i = 0; i < s->ntiles && st == NDT_OK; i++)
      if ((all || s->tiles[i].owner == me) && !ndt__tile_buffer(&s->tiles[i]))
        st = NDT_ERR_NOMEM;
    st = ndt__comm_agree(st);
    if (st) {
      ndt_free(r);
      return st;
    }
    if (all) ndt__tile_everywhere(&s->tiles[0]);
  }
  int64_t cs[NDT_MAXDIMS];
  if (!byte_strides) {
    c_strides(r, cs);
    byte_strides = cs;
  }
  host_transfer(r, (char *)data, byte_strides, 0);
  *out = r;
  return NDT_OK;
}

static ndt_status wait_view(const ndt_array *a, int for_write) {
  if (a->size == 0) return ndt_sync();
  int64_t lo, hi;
  ndt__view_extent(a, &lo, &hi);
  return ndt__wait_tiles(a->store, ndt_store_tile_of(a->store, lo),
                        ndt_store_tile_of(a->store, hi), for_write);
}

ndt_status ndt_to_buffer_strided(const ndt_array *a, void *dst, const int64_t *byte_strides) {
  ndt_status st = wait_view(a, 0);
  if (st) return st;
  /* the host copy takes memory (on first touch): the cache gives it way */
  ndt__cache_yield((size_t)a->size * ndt_vsize(a));
  host_transfer(a, dst, byte_strides, 1);
  return NDT_OK;
}

ndt_status ndt_to_buffer(const ndt_array *a, void *dst) {
  int64_t cs[NDT_MAXDIMS];
  c_strides(a, cs);
  return ndt_to_buffer_strided(a, dst, cs);
}

ndt_status ndt_get_item(const ndt_array *a, const int64_t *index, void *dst) {
  int64_t f = a->offset;
  for (int k = 0; k < a->ndim; k++) {
    if (index[k] < 0 || index[k] >= a->shape[k])
      return ndt__error(NDT_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                       (long long)index[k], k, (long long)a->shape[k]);
    f += index[k] * a->strides[k];
  }
  int64_t t = ndt_store_tile_of(a->store, f);
  ndt_status st = ndt__wait_tiles(a->store, t, t, 0);
  if (st) return st;
  const char *p = ndt__host_elem(a, f, 0, NULL);
  if (!p)   /* a lazy tile whose first task could not get memory */
    return ndt__error(NDT_ERR_NOMEM, "the array's memory could not be allocated");
  memcpy(dst, p, ndt_vsize(a));
  return NDT_OK;
}

ndt_status ndt_item(const ndt_array *a, ndt_dtype t, void *dst) {
  if (a->size != 1)
    return ndt__error(NDT_ERR_VALUE, "can only convert an array of size 1 to a Python scalar");
  int64_t idx[NDT_MAXDIMS] = {0};
  char tmp[16];
  ndt_status st = ndt_get_item(a, idx, tmp);
  if (st) return st;
  ndt__kern->cast(a->dtype, t)(tmp, 0, dst, 0, 1);
  return NDT_OK;
}
