/* calls_reduce.c - module functions of reductions, scans, sorting, searching and
 * counting. */
#include "_core.h"

PyObject *f_reduce(PyObject *m, PyObject *args) {
  (void)m;
  int op, keepdims;
  PyObject *a, *axes_o, *dto;
  long long ddof = 0;
  ndt_dtype t;
  Py_buffer seed = {0};   /* initial= (sum, prod, nansum, nanprod): its bytes in the
                             accumulator's dtype */
  seed.buf = NULL;
  if (!PyArg_ParseTuple(args, "iOOpO|Ly*", &op, &a, &axes_o, &keepdims, &dto, &ddof, &seed))
    return NULL;
  if (!check_arr(a) || !get_dtype_arg(dto, &t)) {
    if (seed.buf) PyBuffer_Release(&seed);
    return NULL;
  }
  uint64_t axes;
  if (axes_o == Py_None) axes = NDT_ALL_AXES;
  else {
    axes = PyLong_AsUnsignedLongLongMask(axes_o);
    if (axes == (uint64_t)-1 && PyErr_Occurred()) {
      if (seed.buf) PyBuffer_Release(&seed);
      return NULL;
    }
  }
  ndt_array *r = NULL;
  ndt_status st;
  if (seed.buf) {
    char v[16] = {0};
    memcpy(v, seed.buf, seed.len < 16 ? (size_t)seed.len : 16);
    PyBuffer_Release(&seed);
    CORE(st = ndt_reduce_initial(&r, (ndt_reduce_op)op, ARR(a), axes, keepdims, t, v));
  } else {
    CORE(st = ndt_reduce(&r, (ndt_reduce_op)op, ARR(a), axes, keepdims, t, ddof));
  }
  return wrap_status(st, r);
}

PyObject *f_sum_where_lines(PyObject *m, PyObject *args) {
  (void)m;
  int op;
  PyObject *x, *w;
  Py_buffer start = {0};   /* the start's bytes in x's dtype, or none */
  start.buf = NULL;
  if (!PyArg_ParseTuple(args, "iOO|y*", &op, &x, &w, &start)) return NULL;
  if (!check_arr(x) || !check_arr(w)) {
    if (start.buf) PyBuffer_Release(&start);
    return NULL;
  }
  char v[16] = {0};
  int has = start.buf != NULL;
  if (has) {
    memcpy(v, start.buf, start.len < 16 ? (size_t)start.len : 16);
    PyBuffer_Release(&start);
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_sum_where_lines(&r, (ndt_reduce_op)op, ARR(x), ARR(w), has ? v : NULL));
  return wrap_status(st, r);
}

PyObject *f_bincount(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *w;
  long long minlength;
  if (!PyArg_ParseTuple(args, "OOL", &x, &w, &minlength) || !check_arr(x) ||
      (w != Py_None && !check_arr(w)))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_bincount(&r, ARR(x), w == Py_None ? NULL : ARR(w), minlength));
  return wrap_status(st, r);
}

static int conv_axis_or_flat(PyObject *o, void *out);

PyObject *f_scan(PyObject *m, PyObject *args) {
  (void)m;
  int op, axis, dt;
  PyObject *a;
  if (!PyArg_ParseTuple(args, "iOO&i", &op, &a, conv_axis_or_flat, &axis, &dt) ||
      !check_arr(a))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_scan(&r, (ndt_scan_op)op, ARR(a), axis, (ndt_dtype)dt));
  return wrap_status(st, r);
}

PyObject *f_argwhere(PyObject *m, PyObject *a) {
  (void)m;
  if (!check_arr(a)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_argwhere(&r, ARR(a)));
  return wrap_status(st, r);
}

/* An axis as an int for the core; out-of-range values clamp to just outside
 * the possible range, so the core still reports NumPy's AxisError. */
int clamp_axis(long v) {
  return v < -NDT_MAXDIMS - 1 ? -NDT_MAXDIMS - 1 : v > NDT_MAXDIMS ? NDT_MAXDIMS : (int)v;
}

/* PyArg "O&" converter for axis|None: None is NDT_AXIS_FLAT (the flattened array). */
static int conv_axis_or_flat(PyObject *o, void *out) {
  int *axis = out;
  if (o == Py_None) {
    *axis = NDT_AXIS_FLAT;
    return 1;
  }
  long v = PyLong_AsLong(o);
  if (v == -1 && PyErr_Occurred()) return 0;
  *axis = clamp_axis(v);
  return 1;
}

/* sort(a, axis|None, want_indices): sort or argsort along axis (None: flattened). */
PyObject *f_sort(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a;
  int axis, want;
  if (!PyArg_ParseTuple(args, "OO&i", &a, conv_axis_or_flat, &axis, &want) || !check_arr(a))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_sort(&r, ARR(a), axis, want));
  return wrap_status(st, r);
}

/* partition(a, axis|None, [kth...], want_indices); searchsorted(a, v, right);
 * histogram_bins(x, edges, first, last, denom, single_d, single_f);
 * histogram_count(..., weights|None). */
PyObject *f_partition(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *ko;
  int axis, want;
  if (!PyArg_ParseTuple(args, "OO&Op", &a, conv_axis_or_flat, &axis, &ko, &want) ||
      !check_arr(a))
    return NULL;
  PyObject *fast = PySequence_Fast(ko, "partition: kth must be a sequence");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int64_t *kth = PyMem_Malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  if (!kth) {
    Py_DECREF(fast);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    kth[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
    if (kth[i] == -1 && PyErr_Occurred()) {
      PyMem_Free(kth);
      Py_DECREF(fast);
      return NULL;
    }
  }
  Py_DECREF(fast);
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_partition(&r, ARR(a), axis, (int)n, kth, want));
  PyMem_Free(kth);
  return wrap_status(st, r);
}

PyObject *f_searchsorted(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *v;
  int right;
  if (!PyArg_ParseTuple(args, "OOp", &a, &v, &right) || !check_arr(a) || !check_arr(v))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_searchsorted(&r, ARR(a), ARR(v), right));
  return wrap_status(st, r);
}

PyObject *f_histogram_bins(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *e;
  double first, last, denom;
  int sd, sf;
  if (!PyArg_ParseTuple(args, "OOdddpp", &x, &e, &first, &last, &denom, &sd, &sf) ||
      !check_arr(x) || !check_arr(e))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_histogram_bins(&r, ARR(x), ARR(e), first, last, denom, sd, sf));
  return wrap_status(st, r);
}

PyObject *f_histogram_count(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *e, *w;
  double first, last, denom;
  int sd, sf;
  if (!PyArg_ParseTuple(args, "OOdddppO", &x, &e, &first, &last, &denom, &sd, &sf, &w) ||
      !check_arr(x) || !check_arr(e) || (w != Py_None && !check_arr(w)))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_histogram_count(&r, ARR(x), ARR(e), first, last, denom, sd, sf,
                                w == Py_None ? NULL : ARR(w)));
  return wrap_status(st, r);
}

/* reduceat(a, axis, idx int64, reduce op): ufunc.reduceat (ndt_reduceat). */
PyObject *f_reduceat(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *idx;
  int axis, op;
  if (!PyArg_ParseTuple(args, "OiOi", &a, &axis, &idx, &op) || !check_arr(a) ||
      !check_arr(idx))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE_BLOCKING(st = ndt_reduceat(&r, ARR(a), axis, ARR(idx), (ndt_reduce_op)op));
  return wrap_status(st, r);
}

