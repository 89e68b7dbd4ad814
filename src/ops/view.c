/* view.c - array handles and views: indexing, transposes, broadcasting,
 * squeezes, .real. None of these copy data or record tasks: this is the
 * bottom layer of src/ops, and it uses nothing above it (reshape and ravel,
 * which copy where NumPy does, are in shape.c). */
#include <stdio.h>
#include <string.h>
#include "view.h"

void (*ndt__lent_close)(ndt_store *s);

ndt_array *ndt__array_alloc(void) {
  ndt_array *a = ndt__malloc(sizeof *a);
  if (a) {
    a->store = NULL;
    a->part = 0;
    a->weak = 0;
    a->internal = 0;
    a->readonly = 0;
    a->warn_on_write = 0;
    a->owner = 0;
    a->ndim = 0;
    a->offset = 0;
    a->size = 1;
  }
  return a;
}

void ndt__set_contiguous(ndt_array *a, int ndim, const int64_t *shape) {
  a->ndim = ndim;
  int64_t st = 1;
  a->size = 1;
  for (int k = ndim - 1; k >= 0; k--) {
    a->shape[k] = shape[k];
    a->strides[k] = st;
    st *= shape[k] ? shape[k] : 1;
    a->size *= shape[k];
  }
}

ndt_status ndt__array_new(ndt_array **out, ndt_dtype t, int ndim, const int64_t *shape,
                         int zero) {
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "invalid dtype %d", t);
  if (ndim < 0 || ndim > NDT_MAXDIMS)
    return ndt__error(NDT_ERR_VALUE, "maximum supported dimension for an ndarray is currently "
                     "%d, found %d", NDT_MAXDIMS, ndim);
  ndt_array *a = ndt__array_alloc();
  if (!a) return NDT_ERR_NOMEM;
  ndt_status st = ndt__store_new(&a->store, t, ndim, shape, zero);
  if (st) {
    ndt__mfree(a);
    return st;
  }
  atomic_fetch_add(&a->store->handles, 1);
  a->dtype = t;
  a->owner = 1;
  ndt__set_contiguous(a, ndim, shape);
  *out = a;
  return NDT_OK;
}

ndt_status ndt__array_view(ndt_array **out, const ndt_array *a) {
  ndt_array *v = ndt__array_alloc();
  if (!v) return NDT_ERR_NOMEM;
  ndt__view_copy(v, a);   /* readonly too: views of read-only arrays are read-only */
  v->internal = 0;
  v->owner = 0;
  ndt__store_incref(v->store);
  atomic_fetch_add(&v->store->handles, 1);
  *out = v;
  return NDT_OK;
}

/* A 0-d array holding value, the same on every rank (no task: it is written
 * here, on the recording thread). */
ndt_status ndt_scalar(ndt_array **out, ndt_dtype t, const void *value, int weak) {
  ndt_array *a;
  ndt_status st = ndt__array_new(&a, t, 0, NULL, 0);
  if (st) return st;
  /* every rank holds a scalar: it never travels */
  ndt_tile *tl = &a->store->tiles[0];
  char *buf = ndt__tile_buffer(tl);
  if (!buf) {
    if (ndt_distributed()) {
      /* 16 bytes: not worth a collective on every scalar to fail politely */
      fprintf(stderr, "ndtile rank %d: out of memory making a scalar\n", ndt_rank());
      ndt_abort(71);
    }
    ndt_free(a);
    return NDT_ERR_NOMEM;
  }
  memcpy(buf, value, ndt__traits[t].size);
  ndt__tile_everywhere(tl);
  a->weak = weak != 0;
  *out = a;
  return NDT_OK;
}

void ndt_free(ndt_array *a) {
  if (!a) return;
  if (a->store && !a->internal && atomic_fetch_sub(&a->store->handles, 1) == 1) {
    if (a->store->lent_for_life) ndt__lent_close(a->store);
    ndt__store_drop_handle(a->store);
  }
  ndt__store_decref(a->store);
  ndt__mfree(a);
}

int ndt_ndim(const ndt_array *a) { return a->ndim; }
const int64_t *ndt_shape(const ndt_array *a) { return a->shape; }
const int64_t *ndt_strides(const ndt_array *a) { return a->strides; }
int64_t ndt_offset(const ndt_array *a) { return a->offset; }
int ndt_part(const ndt_array *a) { return a->part; }
int64_t ndt_size(const ndt_array *a) { return a->size; }
ndt_dtype ndt_dtype_of(const ndt_array *a) { return a->dtype; }
int ndt_is_weak(const ndt_array *a) { return a->weak; }
void ndt_set_weak(ndt_array *a, int weak) { a->weak = weak != 0; }
int ndt_same_store(const ndt_array *a, const ndt_array *b) { return a->store == b->store; }
int64_t ndt_store_size(const ndt_array *a) { return a->store->size; }
size_t ndt_store_itemsize(const ndt_array *a) { return (size_t)a->store->itemsize; }
int64_t ndt_ntiles(const ndt_array *a) { return a->store->ntiles; }

/* NumPy's contiguity with relaxed strides: unit axes do not count and an
 * empty array is contiguous. A .real/.imag view of a complex array steps two
 * of its elements per element: contiguous only with at most one element (a
 * view as another dtype of the same size is contiguous as its store is). */
static int contiguous(const ndt_array *a, int fortran) {
  if (a->part || ndt_vsize(a) != a->store->itemsize) return a->size <= 1;
  if (a->size == 0) return 1;
  int64_t st = 1;
  for (int i = 0; i < a->ndim; i++) {
    int k = fortran ? i : a->ndim - 1 - i;
    if (a->shape[k] != 1 && a->strides[k] != st) return 0;
    st *= a->shape[k];
  }
  return 1;
}

int ndt_is_c_contiguous(const ndt_array *a) { return contiguous(a, 0); }
int ndt_is_f_contiguous(const ndt_array *a) { return contiguous(a, 1); }
int ndt_owns_data(const ndt_array *a) { return a->owner; }
int ndt_is_writeable(const ndt_array *a) { return !a->readonly; }

int ndt_warn_on_write(const ndt_array *a) { return a->warn_on_write && !a->readonly; }
void ndt_set_warn_on_write(ndt_array *a, int on) { a->warn_on_write = on != 0; }

/* NumPy's PyArray_FailUnlessWriteable: read-only fails with what; a
 * WARN_ON_WRITE array gets its flag cleared and the warning recorded with
 * the floating-point errors (ndtile.h), the write going ahead (warn 0: the
 * flag kept, no warning, as NumPy's ufunc.at by indexes). The flag is
 * a handle's mark, not its data: cleared here through a const handle as
 * NumPy clears it on the array the caller passed. */
ndt_status ndt__check_writeable(const ndt_array *a, const char *what, int warn) {
  if (a->readonly) return ndt__error(NDT_ERR_VALUE, "%s", what);
  if (warn && a->warn_on_write) {
    ((ndt_array *)a)->warn_on_write = 0;
    ndt__fp_report_now("write", NDT_WARN_BROADCAST_WRITE);
  }
  return NDT_OK;
}

ndt_status ndt_set_writeable(ndt_array *a, int writeable) {
  if (!writeable) {
    a->warn_on_write = 0;
    a->readonly = 1;
    if (a->owner) a->store->readonly = 1;
    return NDT_OK;
  }
  /* NumPy: an array that owns its data may always be made writeable again;
   * a view only while its base (here: the store's owner handle) is, or
   * (writeable 2, the caller's judgement) while a base between the view
   * and the owner is */
  if (writeable != 2 && !a->owner && a->store->readonly)
    return ndt__error(NDT_ERR_VALUE, "cannot set WRITEABLE flag to True of this array");
  a->readonly = 0;
  a->warn_on_write = 0;
  if (a->owner) a->store->readonly = 0;
  return NDT_OK;
}

int ndt_is_whole(const ndt_array *a) {
  return a->offset == 0 && a->size == a->store->size && a->dtype == a->store->dtype &&
         ndt_is_c_contiguous(a);
}

void ndt__view_extent(const ndt_array *a, int64_t *lo, int64_t *hi) {
  int64_t l = a->offset, h = a->offset;
  for (int k = 0; k < a->ndim; k++) {
    int64_t d = (a->shape[k] - 1) * a->strides[k];
    if (d < 0) l += d; else h += d;
  }
  *lo = l;
  *hi = h;
}

int ndt__internal_overlap(const ndt_array *a) {
  if (a->size <= 1) return 0;
  int64_t s[NDT_MAXDIMS], n[NDT_MAXDIMS];
  int m = 0;
  for (int k = 0; k < a->ndim; k++) {
    if (a->shape[k] <= 1) continue;
    int64_t v = a->strides[k] < 0 ? -a->strides[k] : a->strides[k];
    int j = m++;
    for (; j > 0 && s[j - 1] > v; j--) {   /* insertion sort by |stride| */
      s[j] = s[j - 1];
      n[j] = n[j - 1];
    }
    s[j] = v;
    n[j] = a->shape[k];
  }
  /* each axis must step past everything the smaller-strided axes span */
  int64_t ext = 1;
  for (int i = 0; i < m; i++) {
    if (s[i] < ext) return 1;
    ext += s[i] * (n[i] - 1);
  }
  return 0;
}

int ndt__may_overlap(const ndt_array *a, const ndt_array *b) {
  if (a->size == 0 || b->size == 0) return 0;
  if (a->store != b->store) {
    /* two dtypes over one memory (ndt_view_itemsize): conservatively one */
    const ndt_store *ra = a->store->alias_of ? a->store->alias_of : a->store;
    const ndt_store *rb = b->store->alias_of ? b->store->alias_of : b->store;
    return ra == rb;
  }
  int64_t al, ah, bl, bh;
  ndt__view_extent(a, &al, &ah);
  ndt__view_extent(b, &bl, &bh);
  if (ah < bl || bh < al) return 0;
  if (a->part != b->part && a->dtype != a->store->dtype && b->dtype != b->store->dtype)
    return 0;  /* .real and .imag of the same complex array never overlap */
  return 1;
}

static ndt_status axis_error(int axis, int ndim) {
  return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", "axis %d is out of bounds for array of dimension %d", axis,
                   ndim);
}

ndt_status ndt_view_index(ndt_array **out, const ndt_array *a, int nidx, const ndt_index *idx) {
  int consumed = 0, ellipsis = -1, nnew = 0, nint = 0;
  for (int i = 0; i < nidx; i++) {
    switch (idx[i].kind) {
      case NDT_IDX_INT: nint++; consumed++; break;
      case NDT_IDX_SLICE: consumed++; break;
      case NDT_IDX_NEWAXIS: nnew++; break;
      case NDT_IDX_ELLIPSIS:
        if (ellipsis >= 0)
          return ndt__error(NDT_ERR_INDEX, "an index can only have a single ellipsis ('...')");
        ellipsis = i;
        break;
      default: return ndt__error(NDT_ERR_VALUE, "invalid index kind");
    }
  }
  if (consumed > a->ndim)
    return ndt__error(NDT_ERR_INDEX, "too many indices for array: array is %d-dimensional, "
                     "but %d were indexed", a->ndim, consumed);
  if (a->ndim - nint + nnew > NDT_MAXDIMS)
    return ndt__error(NDT_ERR_INDEX, "number of dimensions must be within [0, %d]", NDT_MAXDIMS);
  ndt_array v = *a;
  v.ndim = 0;
  v.size = 1;
  int src = 0;
  for (int i = 0; i <= nidx; i++) {
    if (i == nidx || idx[i].kind == NDT_IDX_ELLIPSIS) {
      /* the ellipsis takes the axes no index names; after the last index
       * the remaining axes follow as they are */
      int take = (i == nidx) ? a->ndim - src : a->ndim - consumed;
      for (int k = 0; k < take; k++, src++) {
        v.shape[v.ndim] = a->shape[src];
        v.strides[v.ndim++] = a->strides[src];
      }
      if (i == nidx) break;
      continue;
    }
    const ndt_index *ix = &idx[i];
    if (ix->kind == NDT_IDX_NEWAXIS) {
      v.shape[v.ndim] = 1;
      v.strides[v.ndim++] = 0;
    } else if (ix->kind == NDT_IDX_INT) {
      int64_t n = a->shape[src], k = ix->start;
      if (k < -n || k >= n)
        return ndt__error(NDT_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                         (long long)k, src, (long long)n);
      if (k < 0) k += n;
      v.offset += k * a->strides[src];
      src++;
    } else {
      int64_t n = a->shape[src], step = ix->step, start, stop, len;
      if (step == 0) return ndt__error(NDT_ERR_VALUE, "slice step cannot be zero");
      if (!ix->has_start) start = step < 0 ? n - 1 : 0;
      else {
        start = ix->start;
        if (start < 0) { start += n; if (start < 0) start = step < 0 ? -1 : 0; }
        else if (start >= n) start = step < 0 ? n - 1 : n;
      }
      if (!ix->has_stop) stop = step < 0 ? -1 : n;
      else {
        stop = ix->stop;
        if (stop < 0) { stop += n; if (stop < 0) stop = step < 0 ? -1 : 0; }
        else if (stop >= n) stop = step < 0 ? n - 1 : n;
      }
      if (step < 0) len = stop < start ? (start - stop - 1) / (-step) + 1 : 0;
      else len = start < stop ? (stop - start - 1) / step + 1 : 0;
      if (len > 0) v.offset += start * a->strides[src];
      v.shape[v.ndim] = len;
      v.strides[v.ndim++] = a->strides[src] * step;
      src++;
    }
  }
  for (int k = 0; k < v.ndim; k++) v.size *= v.shape[k];
  v.weak = 0;
  ndt_array *r;
  ndt_status st = ndt__array_view(&r, &v);
  if (st) return st;
  *out = r;
  return NDT_OK;
}

ndt_status ndt_transpose(ndt_array **out, const ndt_array *a, const int *perm) {
  ndt_array v = *a;
  int seen[NDT_MAXDIMS] = {0};
  for (int k = 0; k < a->ndim; k++) {
    int p = perm ? perm[k] : a->ndim - 1 - k;
    if (p < 0) p += a->ndim;
    if (p < 0 || p >= a->ndim) return axis_error(perm[k], a->ndim);
    if (seen[p]++) return ndt__error(NDT_ERR_VALUE, "repeated axis in transpose");
    v.shape[k] = a->shape[p];
    v.strides[k] = a->strides[p];
  }
  v.weak = 0;
  return ndt__array_view(out, &v);
}

ndt_status ndt_swapaxes(ndt_array **out, const ndt_array *a, int ax1, int ax2) {
  int n = a->ndim;
  if (ax1 < -n || ax1 >= n) return axis_error(ax1, n);
  if (ax2 < -n || ax2 >= n) return axis_error(ax2, n);
  if (ax1 < 0) ax1 += n;
  if (ax2 < 0) ax2 += n;
  int perm[NDT_MAXDIMS];
  for (int k = 0; k < n; k++) perm[k] = k;
  perm[ax1] = ax2;
  perm[ax2] = ax1;
  return ndt_transpose(out, a, perm);
}

ndt_status ndt_broadcast_shapes(int n, const int *ndims, const int64_t *const *shapes,
                                int *out_ndim, int64_t *out_shape) {
  int nd = 0;
  for (int i = 0; i < n; i++) if (ndims[i] > nd) nd = ndims[i];
  if (nd > NDT_MAXDIMS) return ndt__error(NDT_ERR_VALUE, "too many dimensions");
  for (int k = 0; k < nd; k++) out_shape[k] = 1;
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < ndims[i]; k++) {
      int64_t d = shapes[i][k], *o = &out_shape[nd - ndims[i] + k];
      if (d == *o || d == 1) continue;
      if (*o == 1) { *o = d; continue; }
      /* NumPy's message names the shapes, each followed by a space */
      char buf[400];
      int len = 0;
      for (int j = 0; j < n && len < 360; j++) {
        len += snprintf(buf + len, sizeof buf - len, "(");
        for (int q = 0; q < ndims[j] && len < 360; q++)
          len += snprintf(buf + len, sizeof buf - len, "%s%lld", q ? "," : "",
                          (long long)shapes[j][q]);
        len += snprintf(buf + len, sizeof buf - len, "%s) ", ndims[j] == 1 ? "," : "");
      }
      return ndt__error(NDT_ERR_SHAPE, "operands could not be broadcast together with shapes %s",
                       buf);
    }
  }
  *out_ndim = nd;
  return NDT_OK;
}

ndt_status ndt_broadcast_to(ndt_array **out, const ndt_array *a, int ndim, const int64_t *shape) {
  if (ndim < a->ndim || ndim > NDT_MAXDIMS) goto bad;
  ndt_array v = *a;
  v.ndim = ndim;
  v.size = 1;
  for (int k = 0; k < ndim; k++) {
    int j = k - (ndim - a->ndim);
    if (shape[k] < 0) return ndt__error(NDT_ERR_VALUE, "all elements of broadcast shape must be non-negative");
    if (j < 0) {
      v.shape[k] = shape[k];
      v.strides[k] = 0;
    } else if (a->shape[j] == shape[k]) {
      v.shape[k] = shape[k];
      v.strides[k] = a->strides[j];
    } else if (a->shape[j] == 1) {
      v.shape[k] = shape[k];
      v.strides[k] = 0;
    } else goto bad;
    /* NumPy's iterator refuses a shape whose running product overflows
     * (even one with a 0 later on) */
    if (__builtin_mul_overflow(v.size, shape[k], &v.size))
      return ndt__error(NDT_ERR_VALUE, "iterator is too large");
  }
  v.weak = a->weak;
  return ndt__array_view(out, &v);
bad:;
  char buf[300];
  int len = snprintf(buf, sizeof buf, "(");
  for (int k = 0; k < a->ndim && len < 250; k++)
    len += snprintf(buf + len, sizeof buf - len, "%s%lld", k ? "," : "", (long long)a->shape[k]);
  /* NumPy's iterator ends each operand's shape with a space: two before "and" */
  len += snprintf(buf + len, sizeof buf - len, "%s)  and requested shape (", a->ndim == 1 ? "," : "");
  for (int k = 0; k < ndim && len < 290; k++)
    len += snprintf(buf + len, sizeof buf - len, "%s%lld", k ? "," : "", (long long)shape[k]);
  snprintf(buf + len, sizeof buf - len, "%s)", ndim == 1 ? "," : "");
  return ndt__error(NDT_ERR_SHAPE, "operands could not be broadcast together with remapped "
                   "shapes [original->remapped]: %s", buf);
}

ndt_status ndt_squeeze(ndt_array **out, const ndt_array *a, int naxes, const int *axes) {
  int drop[NDT_MAXDIMS] = {0};
  if (naxes == 0) {
    for (int k = 0; k < a->ndim; k++) drop[k] = a->shape[k] == 1;
  } else {
    for (int i = 0; i < naxes; i++) {
      int ax = axes[i];
      if (ax < -a->ndim || ax >= a->ndim) return axis_error(ax, a->ndim);
      if (ax < 0) ax += a->ndim;
      if (a->shape[ax] != 1)
        return ndt__error(NDT_ERR_VALUE, "cannot select an axis to squeeze out which has size "
                         "not equal to one");
      drop[ax] = 1;
    }
  }
  ndt_array v = *a;
  v.ndim = 0;
  for (int k = 0; k < a->ndim; k++)
    if (!drop[k]) {
      v.shape[v.ndim] = a->shape[k];
      v.strides[v.ndim++] = a->strides[k];
    }
  v.weak = 0;
  return ndt__array_view(out, &v);
}

ndt_status ndt_expand_dims(ndt_array **out, const ndt_array *a, int axis) {
  int n = a->ndim + 1;
  if (n > NDT_MAXDIMS) return ndt__error(NDT_ERR_VALUE, "too many dimensions");
  if (axis < -n || axis >= n) return axis_error(axis, n);
  if (axis < 0) axis += n;
  ndt_array v = *a;
  v.ndim = n;
  for (int k = 0, j = 0; k < n; k++) {
    if (k == axis) {
      v.shape[k] = 1;
      v.strides[k] = 0;
    } else {
      v.shape[k] = a->shape[j];
      v.strides[k] = a->strides[j++];
    }
  }
  v.weak = 0;
  return ndt__array_view(out, &v);
}

static ndt_dtype real_of(ndt_dtype t) {
  return t == NDT_COMPLEX64 ? NDT_FLOAT32 : t == NDT_COMPLEX128 ? NDT_FLOAT64 : t;
}

ndt_status ndt_real(ndt_array **out, const ndt_array *a) {
  ndt_array v = *a;
  v.dtype = real_of(a->dtype);
  v.weak = 0;
  return ndt__array_view(out, &v);
}

