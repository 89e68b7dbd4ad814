/* calls_creation.c - module functions that make arrays: empty, zeros, ones, full,
 * scalar, arange, linspace, eye, from_buffer, concat_same. */
#include "_core.h"

int get_dtype_arg(PyObject *o, ndt_dtype *t) { return parse_dtype(o, t); }

typedef ndt_status (*create_fn)(ndt_array **, int, const int64_t *, ndt_dtype);

static PyObject *create(PyObject *args, create_fn fn) {
  PyObject *shp, *dto;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "OO", &shp, &dto) || !parse_shape(shp, &nd, shape) ||
      !get_dtype_arg(dto, &t))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = fn(&r, nd, shape, t));
  return wrap_status(st, r);
}

PyObject *f_empty(PyObject *m, PyObject *a) { (void)m; return create(a, ndt_empty); }
PyObject *f_zeros(PyObject *m, PyObject *a) { (void)m; return create(a, ndt_zeros); }
PyObject *f_ones(PyObject *m, PyObject *a) { (void)m; return create(a, ndt_ones); }

PyObject *f_full(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *shp, *dto, *val;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  ndt_dtype t, vt;
  elem_t v;
  if (!PyArg_ParseTuple(args, "OOO", &shp, &dto, &val) || !parse_shape(shp, &nd, shape) ||
      !get_dtype_arg(dto, &t) || pynumber_elem(val, &vt, &v) < 0)
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_full(&r, nd, shape, t, &v, vt));
  return wrap_status(st, r);
}

PyObject *f_scalar(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *val, *dto;
  int weak = 0;
  ndt_dtype t, vt;
  elem_t v;
  if (!PyArg_ParseTuple(args, "OO|p", &val, &dto, &weak) || !get_dtype_arg(dto, &t) ||
      pynumber_elem(val, &vt, &v) < 0)
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  core_enter();
  if (t == vt || t == NDT_DTYPE_DEFAULT) st = ndt_scalar(&r, vt, &v, weak);
  else st = ndt_full(&r, 0, NULL, t, &v, vt);
  if (!st) ndt_set_weak(r, weak);
  core_leave();
  return wrap_status(st, r);
}

PyObject *f_arange(PyObject *m, PyObject *args) {
  (void)m;
  double start, stop, step;
  PyObject *dto;
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "dddO", &start, &stop, &step, &dto) || !get_dtype_arg(dto, &t))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_arange(&r, start, stop, step, t));
  return wrap_status(st, r);
}

PyObject *f_linspace(PyObject *m, PyObject *args) {
  (void)m;
  double start, stop;
  long long num;
  int endpoint;
  PyObject *dto;
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "ddLpO", &start, &stop, &num, &endpoint, &dto) ||
      !get_dtype_arg(dto, &t))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_linspace(&r, start, stop, num, endpoint, t));
  return wrap_status(st, r);
}

PyObject *f_eye(PyObject *m, PyObject *args) {
  (void)m;
  long long n, mm, k;
  PyObject *dto;
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "LLLO", &n, &mm, &k, &dto) || !get_dtype_arg(dto, &t)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_eye(&r, n, mm, k, t));
  return wrap_status(st, r);
}

PyObject *f_from_buffer(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *obj, *dto;
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "OO", &obj, &dto) || !get_dtype_arg(dto, &t)) return NULL;
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_STRIDES) < 0) return NULL;
  if (view.ndim > NDT_MAXDIMS) {
    PyBuffer_Release(&view);
    PyErr_Format(PyExc_ValueError, "maximum supported dimension for an ndtile array is %d",
                 NDT_MAXDIMS);
    return NULL;
  }
  if ((Py_ssize_t)ndt_dtype_size(t) != view.itemsize) {
    PyBuffer_Release(&view);
    PyErr_SetString(PyExc_ValueError, "buffer item size does not match the dtype");
    return NULL;
  }
  int64_t shape[NDT_MAXDIMS], strides[NDT_MAXDIMS];
  for (int k = 0; k < view.ndim; k++) {
    shape[k] = view.shape[k];
    strides[k] = view.strides ? view.strides[k] : 0;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_from_buffer(&r, t, view.ndim, shape, view.buf,
                            view.strides ? strides : NULL));
  /* the copy is made: release the buffer, or the source array leaks */
  PyBuffer_Release(&view);
  return wrap_status(st, r);
}


/* concatenate's common case in one core call (the package's
 * _multiarray._concat_same): a list or tuple of two or more ndtile arrays
 * of one dtype and ndim whose extents match but along axis, an int in
 * range. Anything else is None, and the package's general path (type
 * resolution, out=, NumPy's messages) takes it. */
PyObject *f_concat_same(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *seq;
  int axis;
  if (!PyArg_ParseTuple(args, "Oi", &seq, &axis)) return NULL;
  if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq)) Py_RETURN_NONE;
  /* a list's items held in a tuple: waiting for the core lock lets other
   * threads run, and one could replace them */
  PyObject *fast = PyTuple_CheckExact(seq) ? Py_NewRef(seq) : PyList_AsTuple(seq);
  if (!fast) return NULL;
  Py_ssize_t n = PyTuple_GET_SIZE(fast);
  PyObject **items = &PyTuple_GET_ITEM(fast, 0);
  const ndt_array *local[16], **in = local;
  PyObject *res = NULL;
  if (n < 2 || n > INT_MAX) goto none;
  if (n > 16 && !(in = PyMem_Malloc((size_t)n * sizeof *in))) {
    res = PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    if (!IS_ARRAY(items[i]) || !ARR(items[i])) goto none;
    in[i] = ARR(items[i]);
  }
  int nd = ndt_ndim(in[0]);
  ndt_dtype t = ndt_dtype_of(in[0]);
  const int64_t *s0 = ndt_shape(in[0]);
  if (axis < -nd || axis >= nd) goto none;
  int ax = axis < 0 ? axis + nd : axis;
  for (Py_ssize_t i = 1; i < n; i++) {
    const int64_t *si = ndt_shape(in[i]);
    if (ndt_dtype_of(in[i]) != t || ndt_ndim(in[i]) != nd) goto none;
    for (int k = 0; k < nd; k++)
      if (k != ax && si[k] != s0[k]) goto none;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_concatenate(&r, (int)n, in, ax, t));
  res = wrap_status(st, r);
  goto done;
none:
  res = Py_NewRef(Py_None);
done:
  if (in != local) PyMem_Free(in);
  Py_DECREF(fast);
  return res;
}
