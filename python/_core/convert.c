/* convert.c - dtype codes, Python scalars as elements and back, shapes and
 * axes from Python objects. */
#include "_core.h"

/* ---- dtypes, elements, Python values ---------------------------------------- */
int parse_dtype(PyObject *o, ndt_dtype *t) {
  long v = PyLong_AsLong(o);
  if (v == -1 && PyErr_Occurred()) return 0;
  if (v < -1 || v >= NDT_NTYPES) {
    PyErr_Format(PyExc_ValueError, "invalid ndtile dtype code %ld", v);
    return 0;
  }
  *t = (ndt_dtype)v;
  return 1;
}

/* Does the Python integer value v fit integer dtype t? */
int int_fits(ndt_dtype t, long long v) {
  switch (t) {
    case NDT_INT8: return v >= INT8_MIN && v <= INT8_MAX;
    case NDT_INT16: return v >= INT16_MIN && v <= INT16_MAX;
    case NDT_INT32: return v >= INT32_MIN && v <= INT32_MAX;
    case NDT_UINT8: return v >= 0 && v <= UINT8_MAX;
    case NDT_UINT16: return v >= 0 && v <= UINT16_MAX;
    case NDT_UINT32: return v >= 0 && v <= (long long)UINT32_MAX;
    case NDT_UINT64: return v >= 0;
    default: return 1;
  }
}

/* An exact Python bool/int/float/complex as an element: 1 done, 0 not such
 * a value (or an int outside int64 and uint64), -1 error. */
int pyscalar_elem(PyObject *o, ndt_dtype *vt, elem_t *v) {
  if (PyBool_Check(o)) {
    *vt = NDT_BOOL;
    v->b = o == Py_True;
    return 1;
  }
  if (PyLong_CheckExact(o)) {
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (u == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
      }
      *vt = NDT_UINT64;
      v->u = u;
      return 1;
    }
    if (overflow) return 0;
    *vt = NDT_INT64;
    v->i = x;
    return 1;
  }
  if (PyFloat_CheckExact(o)) {
    *vt = NDT_FLOAT64;
    v->d = PyFloat_AS_DOUBLE(o);
    return 1;
  }
  if (PyComplex_CheckExact(o)) {
    *vt = NDT_COMPLEX128;
    Py_complex c = PyComplex_AsCComplex(o);
    v->c[0] = c.real;
    v->c[1] = c.imag;
    return 1;
  }
  return 0;
}

/* Any Python number (incl. numpy scalars) as an element of its natural kind. */
int pynumber_elem(PyObject *o, ndt_dtype *vt, elem_t *v) {
  int r = pyscalar_elem(o, vt, v);
  if (r) return r;
  /* the Python layer passes plain Python numbers; numpy's float64 and
   * complex128 scalars derive from float and complex */
  if (PyComplex_Check(o)) {
    Py_complex c = PyComplex_AsCComplex(o);
    if (c.real == -1.0 && PyErr_Occurred()) return -1;
    *vt = NDT_COMPLEX128;
    v->c[0] = c.real;
    v->c[1] = c.imag;
    return 1;
  }
  if (PyIndex_Check(o)) {
    PyObject *i = PyNumber_Index(o);
    if (!i) return -1;
    r = pyscalar_elem(i, vt, v);
    Py_DECREF(i);
    if (r == 0) PyErr_SetString(PyExc_OverflowError, "Python integer out of bounds");
    return r ? r : -1;
  }
  double d = PyFloat_AsDouble(o);
  if (d == -1.0 && PyErr_Occurred()) return -1;
  *vt = NDT_FLOAT64;
  v->d = d;
  return 1;
}

/* An element of dtype t at p as a Python bool/int/float/complex. */
PyObject *elem_to_py(ndt_dtype t, const void *p) {
  switch (t) {
    case NDT_BOOL: return PyBool_FromLong(*(const uint8_t *)p);
    case NDT_INT8: return PyLong_FromLong(*(const int8_t *)p);
    case NDT_INT16: return PyLong_FromLong(*(const int16_t *)p);
    case NDT_INT32: return PyLong_FromLong(*(const int32_t *)p);
    case NDT_INT64: return PyLong_FromLongLong(*(const int64_t *)p);
    case NDT_UINT8: return PyLong_FromUnsignedLong(*(const uint8_t *)p);
    case NDT_UINT16: return PyLong_FromUnsignedLong(*(const uint16_t *)p);
    case NDT_UINT32: return PyLong_FromUnsignedLong(*(const uint32_t *)p);
    case NDT_UINT64: return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
    case NDT_FLOAT32: return PyFloat_FromDouble(*(const float *)p);
    case NDT_FLOAT64: return PyFloat_FromDouble(*(const double *)p);
    case NDT_COMPLEX64: {
      const float *f = p;
      return PyComplex_FromDoubles(f[0], f[1]);
    }
    case NDT_COMPLEX128: {
      const double *d = p;
      return PyComplex_FromDoubles(d[0], d[1]);
    }
    default: PyErr_SetString(PyExc_TypeError, "invalid dtype"); return NULL;
  }
}

/* The same element as a numpy scalar (np.float64, ...). */
PyObject *elem_to_np(ndt_dtype t, const void *p) {
  PyObject *v = elem_to_py(t, p);
  if (!v || !np_scalars[t]) return v;
  PyObject *r = PyObject_CallOneArg(np_scalars[t], v);
  Py_DECREF(v);
  return r;
}

/* ---- shapes ------------------------------------------------------------------ */
/* NumPy's shape errors: a dimension beyond int64 is a ValueError */
static int shape_overflow(void) {
  if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
    PyErr_SetString(PyExc_ValueError, "Maximum allowed dimension exceeded");
  }
  return 0;
}

/* NumPy's C shape parser takes no bools (True is not a dimension). */
int parse_shape(PyObject *o, int *nd, int64_t *shape) {
  if (PyBool_Check(o)) {
    PyErr_Format(PyExc_TypeError,
                 "expected a sequence of integers or a single integer, got '%S'", o);
    return 0;
  }
  PyObject *seq = NULL;
  if (!PyLong_Check(o) && PySequence_Check(o)) {
    /* not iterable (a 0-d array is a sequence type): a single integer, as
     * NumPy's PyArray_IntpConverter tries next */
    seq = PySequence_Fast(o, "shape must be a sequence of integers");
    if (!seq && !PyErr_ExceptionMatches(PyExc_TypeError)) return 0;
    PyErr_Clear();
  }
  if (!seq) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) return PyLong_Check(o) ? shape_overflow() : 0;
    *nd = 1;
    shape[0] = v;
    return 1;
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > NDT_MAXDIMS) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError, "maximum supported dimension for an ndarray is currently %d, "
                 "found %zd", NDT_MAXDIMS, n);
    return 0;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    if (PyBool_Check(item)) {
      Py_DECREF(seq);
      PyErr_SetString(PyExc_TypeError, "an integer is required");
      return 0;
    }
    PyObject *it = PyNumber_Index(item);
    if (!it) {
      Py_DECREF(seq);
      return 0;
    }
    shape[i] = PyLong_AsLongLong(it);
    Py_DECREF(it);
    if (shape[i] == -1 && PyErr_Occurred()) {
      Py_DECREF(seq);
      return shape_overflow();
    }
  }
  *nd = (int)n;
  Py_DECREF(seq);
  return 1;
}

int parse_shape_nonneg(PyObject *o, int *nd, int64_t *shape) {
  if (!parse_shape(o, nd, shape)) return 0;
  for (int k = 0; k < *nd; k++)
    if (shape[k] < 0) {
      PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
      return 0;
    }
  return 1;
}

PyObject *shape_tuple(int nd, const int64_t *shape) {
  PyObject *t = PyTuple_New(nd);
  if (!t) return NULL;
  for (int k = 0; k < nd; k++) {
    PyObject *v = PyLong_FromLongLong(shape[k]);
    if (!v) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, k, v);
  }
  return t;
}

int parse_axes(PyObject *o, int *n, int *axes) {
  if (o == Py_None) {
    *n = 0;
    return 1;
  }
  PyObject *seq = PySequence_Fast(o, "axes must be a sequence of integers");
  if (!seq) return 0;
  Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
  if (m > NDT_MAXDIMS) {
    Py_DECREF(seq);
    PyErr_SetString(PyExc_ValueError, "too many axes");
    return 0;
  }
  for (Py_ssize_t i = 0; i < m; i++) {
    long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    if (v == -1 && PyErr_Occurred()) {
      Py_DECREF(seq);
      return 0;
    }
    axes[i] = (int)v;
  }
  *n = (int)m;
  Py_DECREF(seq);
  return 1;
}

