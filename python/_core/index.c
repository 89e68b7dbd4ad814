/* index.c - basic indexing (a[i, j:k, ...]) and assignment; other keys go
 * to the Python side's hooks. */
#include "_core.h"

/* ---- indexing ------------------------------------------------------------------- */

static int is_np_int_scalar(PyObject *o) {
  if (!int_scalar_types) return 0;
  Py_ssize_t n = PyTuple_GET_SIZE(int_scalar_types);
  for (Py_ssize_t i = 0; i < n; i++)
    if ((PyObject *)Py_TYPE(o) == PyTuple_GET_ITEM(int_scalar_types, i)) return 1;
  return 0;
}

/* An int-like index value: 1 ok, 0 not int-like, -1 error. */
static int index_int(PyObject *o, int64_t *v) {
  if (PyLong_CheckExact(o) || is_np_int_scalar(o)) {
    PyObject *i = PyNumber_Index(o);
    if (!i) return -1;
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (overflow) return 0;   /* Python says how it is out of bounds */
    *v = x;
    return 1;
  }
  return 0;
}

static int slice_part(PyObject *o, int64_t *v, int *has) {
  if (o == Py_None) {
    *has = 0;
    return 1;
  }
  *has = 1;
  if (!PyIndex_Check(o) || PyBool_Check(o) || IS_ARRAY(o)) return 0;
  PyObject *i = PyNumber_Index(o);
  if (!i) {
    PyErr_Clear();
    return 0;
  }
  Py_ssize_t x = PyNumber_AsSsize_t(i, NULL);   /* clips on overflow */
  Py_DECREF(i);
  if (x == -1 && PyErr_Occurred()) return -1;
  *v = x;
  return 1;
}

/* Parses a basic index: 1 ok (idx[0..*n), *nint ints), 0 not basic, -1 error. */
int parse_index(PyObject *key, ndt_index *idx, int *n, int *nint) {
  PyObject *single[1] = {key};
  PyObject **items = single;
  Py_ssize_t m = 1;
  if (PyTuple_CheckExact(key)) {
    m = PyTuple_GET_SIZE(key);
    items = &PyTuple_GET_ITEM(key, 0);
    if (m > MAXIDX) return 0;
  }
  *nint = 0;
  for (Py_ssize_t i = 0; i < m; i++) {
    PyObject *o = items[i];
    ndt_index *ix = &idx[i];
    memset(ix, 0, sizeof *ix);
    if (o == Py_None) {
      ix->kind = NDT_IDX_NEWAXIS;
    } else if (o == Py_Ellipsis) {
      ix->kind = NDT_IDX_ELLIPSIS;
    } else if (PySlice_Check(o)) {
      PySliceObject *s = (PySliceObject *)o;
      int hs, hp, r;
      ix->kind = NDT_IDX_SLICE;
      ix->step = 1;
      if ((r = slice_part(s->start, &ix->start, &hs)) <= 0) return r;
      if ((r = slice_part(s->stop, &ix->stop, &hp)) <= 0) return r;
      ix->has_start = hs;
      ix->has_stop = hp;
      if (s->step != Py_None) {
        int hst;
        if ((r = slice_part(s->step, &ix->step, &hst)) <= 0) return r;
      }
    } else {
      int r = index_int(o, &ix->start);
      if (r <= 0) return r;
      ix->kind = NDT_IDX_INT;
      (*nint)++;
    }
  }
  *n = (int)m;
  return 1;
}

static inline __attribute__((always_inline)) PyObject *array_subscript_base(PyObject *self,
                                                                            PyObject *key);

/* self[key]; a subclass's result goes through Python (its type, and
 * __array_finalize__ with self). */
static PyObject *array_subscript(PyObject *self, PyObject *key) {
  PyObject *r = array_subscript_base(self, key);
  if (r && subscript_hook && IS_SUBCLASS(self)) {
    PyObject *w = PyObject_CallFunctionObjArgs(subscript_hook, r, self, NULL);
    Py_DECREF(r);
    return w;
  }
  return r;
}

static inline __attribute__((always_inline)) PyObject *array_subscript_base(PyObject *self,
                                                                            PyObject *key) {
  if (!check_arr(self)) return NULL;
  ndt_index idx[MAXIDX];
  int n, nint;
  int r = parse_index(key, idx, &n, &nint);
  if (r < 0) return NULL;
  if (r == 0) {
    if (!getitem_hook) {
      PyErr_SetString(PyExc_IndexError, "only basic indexing is supported by _core");
      return NULL;
    }
    fp_call_enter();
    return fp_call_exit(PyObject_CallFunctionObjArgs(getitem_hook, self, key, NULL));
  }
  ndt_array *a = ARR(self);
  int nd = ndt_ndim(a);
  if (nint == nd && n == nint) {
    /* one element: NumPy returns a scalar */
    const int64_t *shape = ndt_shape(a);
    int64_t ii[NDT_MAXDIMS];
    int ok = 1;
    for (int k = 0; k < nd; k++) {
      ii[k] = idx[k].start < 0 ? idx[k].start + shape[k] : idx[k].start;
      if (ii[k] < 0 || ii[k] >= shape[k]) ok = 0;
    }
    if (ok) {
      elem_t v;
      ndt_status st;
      CORE_BLOCKING(st = ndt_get_item(a, ii, &v));
      if (st) return raise_status(st);
      return fp_done(elem_to_np(ndt_dtype_of(a), &v));
    }
    /* out of bounds: the view says so with NumPy's message */
  }
  ndt_array *v = NULL;
  ndt_status st;
  CORE(st = ndt_view_index(&v, a, n, idx));
  return wrap_status(st, v);
}

/* Can the exact Python scalar o be written into dtype t without NumPy
 * raising (or converting in a way a plain cast would not)? */
static int scalar_store_ok(ndt_dtype t, ndt_dtype vt, const elem_t *v) {
  switch (vt) {
    case NDT_BOOL: return 1;
    case NDT_INT64: return !is_int_kind(t) || int_fits(t, v->i);
    case NDT_UINT64: return t == NDT_UINT64 || is_float_kind(t) || is_complex_kind(t);
    case NDT_FLOAT64:
      if (is_float_kind(t) || is_complex_kind(t) || t == NDT_BOOL) return 1;
      /* NumPy truncates the float to a Python int and checks its range:
       * -1.5 into uint64 is an OverflowError (the Python path raises it) */
      return isfinite(v->d) && fabs(v->d) < 9.2e18 &&
             (t == NDT_INT64 || (t == NDT_UINT64 && v->d > -1.0) ||
              int_fits(t, (long long)v->d));
    case NDT_COMPLEX128: return is_complex_kind(t);
    default: return 0;
  }
}

/* dst[...] = value for an Array or a simple Python scalar; 0: not handled. */
static int assign_value(ndt_array *dst, PyObject *value) {
  ndt_status st;
  if (IS_ARRAY(value) && ARR(value)) {
    if (warn_complex_cast(ndt_dtype_of(ARR(value)), ndt_dtype_of(dst)) < 0) return -1;
    CORE(st = ndt_assign(dst, ARR(value), NDT_CAST_UNSAFE));
    if (st) {
      raise_status(st);
      return -1;
    }
    PyObject *ok = fp_done(Py_NewRef(Py_None));   /* a cast may report */
    if (!ok) return -1;
    Py_DECREF(ok);
    return 1;
  }
  elem_t v;
  ndt_dtype vt;
  int r = pyscalar_elem(value, &vt, &v);
  if (r <= 0) return r;
  if (!scalar_store_ok(ndt_dtype_of(dst), vt, &v)) return 0;
  CORE(st = ndt_fill(dst, &v, vt));
  if (st) {
    raise_status(st);
    return -1;
  }
  PyObject *ok = fp_done(Py_NewRef(Py_None));   /* a cast may report */
  if (!ok) return -1;
  Py_DECREF(ok);
  return 1;
}

/* 1 when value is a list, tuple or array of one dimension or more. */
static int element_gets_sequence(PyObject *value) {
  if (PyFloat_CheckExact(value) || PyLong_CheckExact(value) || PyBool_Check(value) ||
      PyComplex_CheckExact(value))
    return 0;
  if (PyList_Check(value) || PyTuple_Check(value)) return 1;
  if (IS_ARRAY(value)) return ARR(value) && ndt_ndim(ARR(value)) > 0;
  PyObject *nd = PyObject_GetAttrString(value, "ndim");
  if (!nd) {
    PyErr_Clear();
    return 0;
  }
  long d = PyLong_Check(nd) ? PyLong_AsLong(nd) : 0;
  Py_DECREF(nd);
  if (d == -1 && PyErr_Occurred()) PyErr_Clear();
  return d > 0;
}

static int array_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
  if (!check_arr(self)) return -1;
  /* before the key is looked at, as NumPy (a bad index on a read-only
   * array is still this error) */
  if (value && !ndt_is_writeable(ARR(self))) {
    PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
    return -1;
  }
  if (value && warn_before_write(ARR(self)) < 0) return -1;
  if (value) {
    ndt_index idx[MAXIDX];
    int n, nint;
    int r = parse_index(key, idx, &n, &nint);
    if (r < 0) return -1;
    /* one element given a sequence or an array: NumPy converts it as a
     * scalar of the element type (errors, bool's truth value) - in Python */
    if (r > 0 && n == nint && nint == ndt_ndim(ARR(self)) && element_gets_sequence(value)) r = 0;
    if (r > 0) {
      ndt_array *v = NULL;
      ndt_status st;
      CORE(st = ndt_view_index(&v, ARR(self), n, idx));
      if (st) {
        raise_status(st);
        return -1;
      }
      r = assign_value(v, value);
      CORE(ndt_free(v));
      if (r != 0) return r > 0 ? 0 : -1;
    }
  }
  if (!setitem_hook) {
    PyErr_SetString(PyExc_IndexError, "unsupported assignment");
    return -1;
  }
  fp_call_enter();
  PyObject *r = fp_call_exit(PyObject_CallFunctionObjArgs(
      setitem_hook, self, key, value ? value : Py_None, value ? Py_False : Py_True, NULL));
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

PyMappingMethods array_as_mapping = {
  .mp_subscript = array_subscript,
  .mp_ass_subscript = array_ass_subscript,
};

/* a[i] as a sequence too (NumPy's ndarray has both): PySequence_Check is
 * true, so what takes "a sequence of integers" (NumPy's shape converter,
 * PySequence_Fast) accepts an array. (ndarray, a Python subclass, reaches
 * it through slot_sq_item: a[i] with i as PySequence_GetItem adjusted it) */
static PyObject *array_sq_item(PyObject *self, Py_ssize_t i) {
  PyObject *key = PyLong_FromSsize_t(i);
  if (!key) return NULL;
  PyObject *r = array_subscript(self, key);
  Py_DECREF(key);
  return r;
}

PySequenceMethods array_as_sequence = {
  .sq_item = array_sq_item,
};

