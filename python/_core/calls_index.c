/* calls_index.c - module functions of gathers, puts and views: gather, diagonal,
 * put, put_op, view_dtype, view_itemsize, take_owner, as_strided. */
#include "_core.h"

/* gather(a, indices[, shape, hi]): indices holds per axis of a an index
 * array, or a tuple (ax, start, step): the axis is sliced, its index
 * start + step * i at the result's index i along axis ax (shape: the
 * result's, needed where no entry is an array); hi: None, or per axis an
 * upper bound of the index array's values (ndt_gather_slices). */
PyObject *f_gather(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *seq, *shp = Py_None, *hio = Py_None;
  if (!PyArg_ParseTuple(args, "OO|OO", &a, &seq, &shp, &hio) || !check_arr(a)) return NULL;
  PyObject *fast = PySequence_Fast(seq, "gather: indices must be a sequence");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n != ndt_ndim(ARR(a)) || n > NDT_MAXDIMS) {
    Py_DECREF(fast);
    PyErr_SetString(PyExc_IndexError, "gather: one index array per axis");
    return NULL;
  }
  const ndt_array *idx[NDT_MAXDIMS];
  int ax[NDT_MAXDIMS], nd = -1, nh = 0, sliced = 0;
  int64_t start[NDT_MAXDIMS], step[NDT_MAXDIMS], shape[NDT_MAXDIMS], hi[NDT_MAXDIMS];
  for (Py_ssize_t k = 0; k < n; k++) {
    PyObject *o = PySequence_Fast_GET_ITEM(fast, k);
    long long st0, sp0;
    if (PyTuple_Check(o)) {
      if (!PyArg_ParseTuple(o, "iLL", &ax[k], &st0, &sp0)) {
        Py_DECREF(fast);
        return NULL;
      }
      idx[k] = NULL;
      start[k] = st0;
      step[k] = sp0;
      sliced = 1;
      continue;
    }
    if (!check_arr(o)) {
      Py_DECREF(fast);
      return NULL;
    }
    idx[k] = ARR(o);
    if (nd < 0) {
      nd = ndt_ndim(idx[k]);
      memcpy(shape, ndt_shape(idx[k]), sizeof(int64_t) * (size_t)nd);
    }
  }
  if (shp != Py_None && !parse_shape_nonneg(shp, &nd, shape)) {
    Py_DECREF(fast);
    return NULL;
  }
  if (hio != Py_None && (!parse_shape(hio, &nh, hi) || nh != n)) {
    Py_DECREF(fast);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "gather: one bound per axis");
    return NULL;
  }
  if (nd < 0) {
    Py_DECREF(fast);
    PyErr_SetString(PyExc_ValueError, "gather: the result's shape is needed");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_gather_slices(&r, ARR(a), nd, shape, idx, sliced ? ax : NULL,
                              sliced ? start : NULL, sliced ? step : NULL,
                              hio != Py_None ? hi : NULL));
  Py_DECREF(fast);   /* idx points into arrays `a` and the caller still hold */
  return wrap_status(st, r);
}

PyObject *f_diagonal(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a;
  long long offset;
  int ax1, ax2;
  if (!PyArg_ParseTuple(args, "OLii", &a, &offset, &ax1, &ax2) || !check_arr(a)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_diagonal(&r, ARR(a), offset, ax1, ax2));
  return wrap_status(st, r);
}

PyObject *f_put(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *idx, *vals;
  if (!PyArg_ParseTuple(args, "OOO", &a, &idx, &vals) || !check_arr(a) || !check_arr(idx) ||
      !check_arr(vals))
    return NULL;
  if (warn_before_write(ARR(a)) < 0) return NULL;
  ndt_status st;
  CORE(st = ndt_put(ARR(a), ARR(idx), ARR(vals)));
  if (st) return raise_status(st);
  return fp_done(Py_NewRef(Py_None));
}

/* put_op(a, flat_idx int64, vals|None, op, loop dtypes): ufunc.at (ndt_put_op). */
PyObject *f_put_op(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *idx, *vals, *lp;
  int op;
  if (!PyArg_ParseTuple(args, "OOOiO", &a, &idx, &vals, &op, &lp) || !check_arr(a) ||
      !check_arr(idx) || (vals != Py_None && !check_arr(vals)))
    return NULL;
  int nl;
  int64_t lt[NDT_MAXDIMS];
  if (!parse_shape(lp, &nl, lt)) return NULL;
  if (nl != (vals == Py_None ? 2 : 3)) {
    PyErr_SetString(PyExc_ValueError, "put_op: one loop dtype per operand");
    return NULL;
  }
  ndt_dtype loop[3];
  for (int i = 0; i < nl; i++) loop[i] = (ndt_dtype)lt[i];
  ndt_status st;
  CORE(st = ndt_put_op(ARR(a), ARR(idx), vals == Py_None ? NULL : ARR(vals), (ndt_ufunc)op,
                       loop));
  if (st) return raise_status(st);
  return fp_done(Py_NewRef(Py_None));
}

/* view_dtype(a, code): a's bytes as another dtype of the same size. */
PyObject *f_view_dtype(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a;
  int t;
  if (!PyArg_ParseTuple(args, "Oi", &a, &t) || !check_arr(a)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_view_dtype(&r, ARR(a), (ndt_dtype)t));
  return wrap_status(st, r);
}

/* view_itemsize(a, code, shape, byte strides, byte offset): a's memory as a
 * dtype of another size (ndt_view_itemsize). */
PyObject *f_view_itemsize(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *shp, *str;
  int t;
  long long off;
  if (!PyArg_ParseTuple(args, "OiOOL", &a, &t, &shp, &str, &off) || !check_arr(a)) return NULL;
  int nd, ns;
  int64_t shape[NDT_MAXDIMS], strides[NDT_MAXDIMS];
  if (!parse_shape(shp, &nd, shape) || !parse_shape(str, &ns, strides)) return NULL;
  if (ns != nd) {
    PyErr_SetString(PyExc_ValueError, "view_itemsize: one stride per dimension");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE_BLOCKING((core_lent = 1,
                 st = ndt_view_itemsize(&r, ARR(a), (ndt_dtype)t, nd, shape, strides, off)));
  return wrap_status(st, r);
}

/* take_owner(v, from): v becomes the owner of its store (ndt_take_owner). */
PyObject *f_take_owner(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *v, *from;
  if (!PyArg_ParseTuple(args, "OO", &v, &from) || !check_arr(v) || !check_arr(from)) return NULL;
  ndt_status st;
  CORE(st = ndt_take_owner(ARR(v), ARR(from)));
  if (st) return raise_status(st);
  /* v is the owner object now: the views made from it name it as .base */
  ndt_set_owner_ctx(ARR(v), v);
  Py_CLEAR(((ArrayObject *)v)->base);
  Py_RETURN_NONE;
}

/* as_strided(a, offset, shape, strides): a view of a's store (ndt_as_strided). */
PyObject *f_as_strided(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *shp, *str;
  long long offset;
  if (!PyArg_ParseTuple(args, "OLOO", &a, &offset, &shp, &str) || !check_arr(a)) return NULL;
  int nd, ns;
  int64_t shape[NDT_MAXDIMS], strides[NDT_MAXDIMS];
  if (!parse_shape(shp, &nd, shape) || !parse_shape(str, &ns, strides)) return NULL;
  if (ns != nd) {
    PyErr_SetString(PyExc_ValueError, "as_strided: one stride per dimension");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_as_strided(&r, ARR(a), offset, nd, shape, strides));
  return wrap_status(st, r);
}

