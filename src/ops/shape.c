/* shape.c - reshape, ravel and .imag: views where NumPy makes a view, a copy
 * (an elementwise copy, or zeros for the .imag of a real array) where it
 * does not; concatenate. Above elementwise.c and creation.c, whose ops make
 * the copies. */
#include <stdio.h>
#include "exec.h"

/* NumPy's no-copy reshape: succeeds when each group of old axes that maps to a
 * group of new axes is contiguous within itself. */
static int nocopy_reshape(const ndt_array *a, int nd, const int64_t *ns, int64_t *nst) {
  int64_t os[NDT_MAXDIMS], ost[NDT_MAXDIMS];
  int ond = 0;
  for (int k = 0; k < a->ndim; k++)
    if (a->shape[k] != 1) {
      os[ond] = a->shape[k];
      ost[ond++] = a->strides[k];
    }
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < nd && oi < ond) {
    int64_t np_ = ns[ni], op = os[oi];
    while (np_ != op) {
      if (np_ < op) np_ *= ns[nj++];
      else op *= os[oj++];
    }
    for (int k = oi; k < oj - 1; k++)
      if (ost[k] != os[k + 1] * ost[k + 1]) return 0;
    nst[nj - 1] = ost[oj - 1];
    for (int k = nj - 1; k > ni; k--) nst[k - 1] = nst[k] * ns[k];
    ni = nj++;
    oi = oj++;
  }
  int64_t last = ni > 0 ? nst[ni - 1] : 1;
  for (int k = ni; k < nd; k++) nst[k] = last;  /* trailing unit axes */
  return 1;
}

ndt_status ndt_reshape(ndt_array **out, const ndt_array *a, int ndim, const int64_t *shape) {
  if (ndim < 0 || ndim > NDT_MAXDIMS)
    return ndt__error(NDT_ERR_VALUE, "maximum supported dimension for an ndarray is currently "
                     "%d, found %d", NDT_MAXDIMS, ndim);
  int64_t ns[NDT_MAXDIMS], known = 1;
  int unknown = -1, overflow = 0;
  for (int k = 0; k < ndim; k++) {
    ns[k] = shape[k];
    /* NumPy takes any negative value, not only -1, as the unknown one */
    if (shape[k] < 0) {
      if (unknown >= 0) return ndt__error(NDT_ERR_VALUE, "can only specify one unknown dimension");
      unknown = k;
    } else if (__builtin_mul_overflow(known, shape[k], &known)) {
      overflow = 1;   /* (a product that wraps could equal a->size) */
    }
  }
  if (overflow) goto bad;
  if (unknown >= 0) {
    if (known == 0 || a->size % known) goto bad;
    ns[unknown] = a->size / known;
  } else if (known != a->size) goto bad;
  {
    int64_t nst[NDT_MAXDIMS];
    if (a->size == 0 || nocopy_reshape(a, ndim, ns, nst)) {
      ndt_array v = *a;
      v.ndim = ndim;
      for (int k = 0; k < ndim; k++) {
        v.shape[k] = ns[k];
        v.strides[k] = a->size == 0 ? 0 : nst[k];
      }
      v.weak = 0;
      return ndt__array_view(out, &v);
    }
    ndt_array *c;
    ndt_status st = ndt_copy(&c, a);
    if (st) return st;
    ndt__set_contiguous(c, ndim, ns);
    *out = c;
    return NDT_OK;
  }
bad:;
  /* NumPy's spelling of the shape: no spaces, the unknown dimension as
   * "newaxis", dropped when it leads; a trailing comma for one dimension */
  char buf[300];
  int len = 0, first = 0;
  buf[0] = '\0';   /* shape (): nothing is printed into it */
  while (first < ndim && shape[first] < 0) first++;
  for (int k = first; k < ndim && len < 250; k++) {
    if (shape[k] < 0) len += snprintf(buf + len, sizeof buf - len, ",newaxis");
    else len += snprintf(buf + len, sizeof buf - len, "%s%lld", k > first ? "," : "",
                         (long long)shape[k]);
  }
  return ndt__error(NDT_ERR_VALUE, "cannot reshape array of size %lld into shape (%s%s)",
                   (long long)a->size, buf, ndim == 1 && first == 0 ? "," : "");
}

/* A 1-d copy of a's elements in C order. */
static ndt_status flat_copy(ndt_array **out, const ndt_array *a) {
  ndt_array *c;
  ndt_status st = ndt_copy(&c, a);
  if (st) return st;
  int64_t n = a->size;
  ndt__set_contiguous(c, 1, &n);
  *out = c;
  return NDT_OK;
}

/* A 1-d view of a's elements that lie back to back from a's first one. */
static ndt_status flat_view(ndt_array **out, const ndt_array *a) {
  ndt_array v = *a;
  v.ndim = 1;
  v.shape[0] = a->size;
  v.strides[0] = 1;
  v.weak = 0;
  return ndt__array_view(out, &v);
}

ndt_status ndt_ravel(ndt_array **out, const ndt_array *a, char order) {
  if (order == 'A') order = ndt_is_f_contiguous(a) && !ndt_is_c_contiguous(a) ? 'F' : 'C';
  if (order == 'K') {
    if (ndt_is_c_contiguous(a)) order = 'C';
    else if (ndt_is_f_contiguous(a)) order = 'F';
  }
  if (order == 'C') return ndt_is_c_contiguous(a) ? flat_view(out, a) : flat_copy(out, a);
  if (order == 'F') {
    ndt_array t = *a;   /* Fortran order is C order of the reversed axes */
    for (int k = 0; k < a->ndim; k++) {
      t.shape[k] = a->shape[a->ndim - 1 - k];
      t.strides[k] = a->strides[a->ndim - 1 - k];
    }
    return ndt_is_c_contiguous(&t) ? flat_view(out, &t) : flat_copy(out, &t);
  }
  if (order != 'K')
    return ndt__error(NDT_ERR_VALUE, "order must be one of 'C', 'F', 'A', or 'K' (got '%c')",
                     order);
  /* 'K': the axes by decreasing |stride| (a stable insertion sort: ties
   * keep their order, and a broadcast axis, stride 0, is no reason to move
   * anything past it: NumPy keeps C order there), each in its own
   * direction; a view when those strides are positive and pack the
   * elements (NumPy's ravel), else a copy in that order (NumPy's flatten) */
  ndt_array t = *a;
  int perm[NDT_MAXDIMS];
  for (int k = 0; k < a->ndim; k++) {
    int j = k;
    int64_t sk = a->strides[k] < 0 ? -a->strides[k] : a->strides[k];
    for (; j > 0 && sk != 0; j--) {
      int64_t sp = a->strides[perm[j - 1]];
      if (sp == 0 || (sp < 0 ? -sp : sp) >= sk) break;
      perm[j] = perm[j - 1];
    }
    perm[j] = k;
  }
  for (int k = 0; k < a->ndim; k++) {
    t.shape[k] = a->shape[perm[k]];
    t.strides[k] = a->strides[perm[k]];
  }
  return ndt_is_c_contiguous(&t) ? flat_view(out, &t) : flat_copy(out, &t);
}

ndt_status ndt_imag(ndt_array **out, const ndt_array *a) {
  if (a->dtype != NDT_COMPLEX64 && a->dtype != NDT_COMPLEX128)
    return ndt_zeros(out, a->ndim, a->shape, a->dtype);
  /* .real's view, moved half an element on */
  ndt_status st = ndt_real(out, a);
  if (st == NDT_OK) (*out)->part = ndt__traits[(*out)->dtype].size;
  return st;
}

/* One call for the whole join: the result, then one assignment a piece into
 * its slab (a view on the stack: the result's handle keeps the store). On
 * small arrays each assignment runs inline, so a join costs about an
 * allocation and a copy a piece, not a trip through the Python layer per
 * piece. */
ndt_status ndt_concatenate(ndt_array **out, int n, const ndt_array *const *in, int axis,
                           ndt_dtype t) {
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "invalid dtype %d", t);
  if (n < 1) return ndt__error(NDT_ERR_VALUE, "need at least one array to concatenate");
  int nd = in[0]->ndim;
  if (nd == 0) return ndt__error(NDT_ERR_VALUE, "zero-dimensional arrays cannot be concatenated");
  if (axis < -nd || axis >= nd)
    return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis",
                         "axis %d is out of bounds for array of dimension %d", axis, nd);
  if (axis < 0) axis += nd;
  int64_t shape[NDT_MAXDIMS];
  memcpy(shape, in[0]->shape, sizeof(int64_t) * (size_t)nd);
  for (int i = 1; i < n; i++) {
    const ndt_array *x = in[i];
    if (x->ndim != nd)
      return ndt__error(NDT_ERR_VALUE, "all the input arrays must have same number of "
                       "dimensions, but the array at index 0 has %d dimension(s) and the array "
                       "at index %d has %d dimension(s)", nd, i, x->ndim);
    for (int k = 0; k < nd; k++)
      if (k != axis && x->shape[k] != shape[k])
        return ndt__error(NDT_ERR_VALUE, "all the input array dimensions except for the "
                         "concatenation axis must match exactly, but along dimension %d, the "
                         "array at index 0 has size %lld and the array at index %d has size "
                         "%lld", k, (long long)shape[k], i, (long long)x->shape[k]);
    if (__builtin_add_overflow(shape[axis], x->shape[axis], &shape[axis]))
      return ndt__error(NDT_ERR_VALUE, "array is too big; `arr.size * arr.dtype.itemsize` "
                       "is larger than the maximum possible size.");
  }
  ndt_array *r;
  ndt_status st = ndt__array_new(&r, t, nd, shape, 0);
  if (st) return st;
  int64_t pos = 0;
  for (int i = 0; i < n && st == NDT_OK; i++) {
    int64_t m = in[i]->shape[axis];
    if (m == 0) continue;
    ndt_array slab;
    ndt__view_copy(&slab, r);
    slab.offset += pos * r->strides[axis];
    slab.shape[axis] = m;
    slab.size = r->size / shape[axis] * m;
    st = ndt_assign(&slab, in[i], NDT_CAST_UNSAFE);
    pos += m;
  }
  return ndt__finish(st, r, out);
}
