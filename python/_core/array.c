/* array.c - the Array type (owns an ndt_array*): its getters and methods. */
#include "_core.h"

/* Takes ownership of a; frees it on failure. */
/* A new Python object of type t (ArrayType or a subtype) owning a. */
PyObject *wrap_as(PyTypeObject *t, ndt_array *a) {
  ArrayObject *o = (ArrayObject *)t->tp_alloc(t, 0);
  if (!o) {
    CORE(ndt_free(a));
    return NULL;
  }
  o->arr = a;
  /* NumPy's .base: a view holds the object owning its memory (the owner
   * is found through its store: the owner registers itself there) */
  if (ndt_owns_data(a)) {
    ndt_set_owner_ctx(a, o);
  } else {
    PyObject *b = ndt_owner_ctx(a);
    if (b) o->base = Py_NewRef(b);
  }
  return (PyObject *)o;
}

static void array_dealloc(ArrayObject *self) {
  if (self->weakrefs) PyObject_ClearWeakRefs((PyObject *)self);
  if (self->arr) ndt_clear_owner_ctx(self->arr, self);
  Py_CLEAR(self->base);
  if (self->arr && core_held) free_later(self->arr);
  else if (self->arr) CORE(ndt_free(self->arr));
  Py_CLEAR(self->shape);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

int check_arr_fail(void) {
  PyErr_SetString(PyExc_TypeError, "expected an initialised ndtile array");
  return 0;
}

/* ---- getters --------------------------------------------------------------------- */
static PyObject *get_shape(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  if (!self->shape) {
    self->shape = shape_tuple(ndt_ndim(self->arr), ndt_shape(self->arr));
    if (!self->shape) return NULL;
  }
  Py_INCREF(self->shape);
  return self->shape;
}

static int set_shape(ArrayObject *self, PyObject *value, void *c) {
  (void)c;
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "Cannot delete array shape");
    return -1;
  }
  if (!check_arr((PyObject *)self)) return -1;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  if (!parse_shape(value, &nd, shape)) return -1;
  ndt_array *r = NULL;
  ndt_status st;
  int same = 0;
  core_enter();
  st = ndt_reshape(&r, self->arr, nd, shape);
  if (!st) {
    same = ndt_same_store(r, self->arr);
    if (!same) ndt_free(r);
  }
  core_leave();
  if (st) {
    raise_status(st);
    return -1;
  }
  if (!same) {
    PyErr_SetString(PyExc_AttributeError, "Incompatible shape for in-place modification. Use "
                    "`.reshape()` to make a copy with the desired shape.");
    return -1;
  }
  /* the same array, reshaped in place: it keeps NumPy's OWNDATA */
  if (ndt_owns_data(self->arr)) CORE(ndt_take_owner(r, self->arr));
  CORE(ndt_free(self->arr));
  self->arr = r;
  Py_CLEAR(self->shape);
  return 0;
}

static PyObject *get_ndim(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromLong(ndt_ndim(self->arr));
}
static PyObject *get_size(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromLongLong(ndt_size(self->arr));
}
static PyObject *get_dtype(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  ndt_dtype t = ndt_dtype_of(self->arr);
  if (np_dtypes[t]) {
    Py_INCREF(np_dtypes[t]);
    return np_dtypes[t];
  }
  return PyUnicode_FromString(ndt_dtype_name(t));
}
static PyObject *get_dt(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromLong(ndt_dtype_of(self->arr));
}
static PyObject *get_itemsize(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromSize_t(ndt_dtype_size(ndt_dtype_of(self->arr)));
}
static PyObject *get_nbytes(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromLongLong(ndt_size(self->arr) *
                             (int64_t)ndt_dtype_size(ndt_dtype_of(self->arr)));
}
static PyObject *get_estrides(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return shape_tuple(ndt_ndim(self->arr), ndt_strides(self->arr));
}
static PyObject *get_offset(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromLongLong(ndt_offset(self->arr));
}
static PyObject *get_part(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromLong(ndt_part(self->arr));
}
static PyObject *get_c_contiguous(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyBool_FromLong(ndt_is_c_contiguous(self->arr));
}
static PyObject *get_whole(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyBool_FromLong(ndt_is_whole(self->arr));
}
static PyObject *get_ntiles(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromLongLong(ndt_ntiles(self->arr));
}
static PyObject *get_store_size(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromLongLong(ndt_store_size(self->arr));
}
static PyObject *get_store_itemsize(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  return PyLong_FromSize_t(ndt_store_itemsize(self->arr));
}
/* NumPy's flags as NumPy's bits (ndarray.flags.num): C_CONTIGUOUS 0x1,
 * F_CONTIGUOUS 0x2, OWNDATA 0x4, ALIGNED 0x100 (unless setflags(align=False)
 * cleared it), WRITEABLE 0x400,
 * WARN_ON_WRITE 0x80000000 (unsigned here; NumPy's num is a signed int). */
static PyObject *get_flags(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  const ndt_array *a = self->arr;
  long f = self->unaligned ? 0 : 0x100;
  if (ndt_is_c_contiguous(a)) f |= 0x1;
  if (ndt_is_f_contiguous(a)) f |= 0x2;
  if (ndt_owns_data(a)) f |= 0x4;
  if (ndt_is_writeable(a)) f |= 0x400;
  if (ndt_warn_on_write(a)) f |= 0x80000000L;   /* NumPy's WARN_ON_WRITE */
  return PyLong_FromLong(f);
}

static PyObject *dtype_setter;   /* the Python side's a.dtype = ... (_set_dtype_hook) */

static int set_dtype(ArrayObject *self, PyObject *value, void *c) {
  (void)c;
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "Cannot delete array dtype");
    return -1;
  }
  if (!dtype_setter) {
    PyErr_SetString(PyExc_AttributeError, "dtype cannot be set");
    return -1;
  }
  PyObject *r = PyObject_CallFunctionObjArgs(dtype_setter, (PyObject *)self, value, NULL);
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

static PyObject *get_base(ArrayObject *self, void *c) {
  (void)c;
  return Py_NewRef(self->base ? self->base : Py_None);
}

/* Setting a read-only attribute (closure: its name): NumPy's message. */
static int set_readonly(PyObject *self, PyObject *value, void *name) {
  (void)self;
  (void)value;
  PyErr_Format(PyExc_AttributeError, "attribute '%s' of 'numpy.ndarray' objects is not writable",
               (const char *)name);
  return -1;
}

static PyGetSetDef array_getset[] = {
  {"_base", (getter)get_base, NULL, "the object owning a view's memory, or None", NULL},
  {"shape", (getter)get_shape, (setter)set_shape, "Tuple of array dimensions.", NULL},
  {"ndim", (getter)get_ndim, set_readonly, "Number of array dimensions.", (void *)"ndim"},
  {"size", (getter)get_size, set_readonly, "Number of elements in the array.", (void *)"size"},
  {"dtype", (getter)get_dtype, (setter)set_dtype, "Data-type of the array's elements.", NULL},
  {"itemsize", (getter)get_itemsize, set_readonly, "Length of one array element in bytes.",
   (void *)"itemsize"},
  {"nbytes", (getter)get_nbytes, set_readonly, "Total bytes consumed by the elements.",
   (void *)"nbytes"},
  {"_dt", (getter)get_dt, NULL, "ndtile dtype code", NULL},
  {"_estrides", (getter)get_estrides, NULL, "strides of the view in store elements", NULL},
  {"_offset", (getter)get_offset, NULL, "offset of the view in store elements", NULL},
  {"_part", (getter)get_part, NULL, "bytes into each store element (.imag)", NULL},
  {"_c_contiguous", (getter)get_c_contiguous, NULL, "C-contiguous view", NULL},
  {"_whole", (getter)get_whole, NULL, "covers its whole store in C order", NULL},
  {"_ntiles", (getter)get_ntiles, NULL, "tiles of the store", NULL},
  {"_store_size", (getter)get_store_size, NULL, "elements of the store", NULL},
  {"_store_itemsize", (getter)get_store_itemsize, NULL, "bytes per element of the store",
   NULL},
  {"_flags", (getter)get_flags, NULL, "NumPy's flag bits (C, F, OWNDATA, ALIGNED, WRITEABLE)",
   NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

/* ---- methods ------------------------------------------------------------------------ */
PyObject *m_to_buffer(PyObject *self, PyObject *dst) {
  if (!check_arr(self)) return NULL;
  if (fp_stashed && fp_stashed_owner == self) {   /* see array_getbuffer */
    PyObject *e = fp_stashed;
    fp_stashed = NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(e), e);
    Py_DECREF(e);
    return NULL;
  }
  Py_buffer view;
  if (PyObject_GetBuffer(dst, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
  ndt_array *a = ARR(self);
  Py_ssize_t need = (Py_ssize_t)(ndt_size(a) * (int64_t)ndt_dtype_size(ndt_dtype_of(a)));
  if (view.len < need) {
    PyBuffer_Release(&view);
    PyErr_Format(PyExc_ValueError, "buffer of %zd bytes is too small for %zd", view.len, need);
    return NULL;
  }
  ndt_status st;
  CORE_BLOCKING(st = ndt_to_buffer(a, view.buf));
  PyBuffer_Release(&view);
  if (st) return raise_status(st);
  return fp_done(Py_NewRef(Py_None));
}

/* a's one element as a NumPy scalar (waiting for it where it is deferred). */
static PyObject *np_item(const ndt_array *a) {
  ndt_dtype t = ndt_dtype_of(a);
  elem_t v;
  ndt_status st;
  CORE_BLOCKING(st = ndt_item(a, t, &v));
  if (st) return raise_status(st);
  return elem_to_np(t, &v);
}

PyObject *ufunc_result(ndt_array *a) {
  if (ndt_ndim(a)) return wrap(a);
  PyObject *r = np_item(a);
  CORE(ndt_free(a));
  return r;
}

static PyObject *m_scalar(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  return fp_done(np_item(ARR(self)));
}

static PyObject *m_item(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  ndt_array *a = ARR(self);
  ndt_dtype t = ndt_dtype_of(a);
  elem_t v;
  ndt_status st;
  CORE_BLOCKING(st = ndt_item(a, t, &v));
  if (st) return raise_status(st);
  return fp_done(elem_to_py(t, &v));
}

static PyObject *m_view_index(PyObject *self, PyObject *key) {
  if (!check_arr(self)) return NULL;
  ndt_index idx[MAXIDX];
  int n, nint;
  int r = parse_index(key, idx, &n, &nint);
  if (r < 0) return NULL;
  if (r == 0) {
    PyErr_SetString(PyExc_TypeError, "not a basic index");
    return NULL;
  }
  ndt_array *v = NULL;
  ndt_status st;
  CORE(st = ndt_view_index(&v, ARR(self), n, idx));
  return wrap_status(st, v);
}

static PyObject *m_transpose(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  int perm[NDT_MAXDIMS], n = 0;
  if (!parse_axes(arg, &n, perm)) return NULL;
  if (arg != Py_None && n != ndt_ndim(ARR(self))) {
    PyErr_SetString(PyExc_ValueError, "axes don't match array");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_transpose(&r, ARR(self), arg == Py_None ? NULL : perm));
  return wrap_status(st, r);
}

static PyObject *m_swapaxes(PyObject *self, PyObject *args) {
  int a1, a2;
  if (!check_arr(self) || !PyArg_ParseTuple(args, "ii", &a1, &a2)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_swapaxes(&r, ARR(self), a1, a2));
  return wrap_status(st, r);
}

static PyObject *m_broadcast_to(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  if (!parse_shape(arg, &nd, shape)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_broadcast_to(&r, ARR(self), nd, shape));
  return wrap_status(st, r);
}

static PyObject *m_reshape(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  if (!parse_shape(arg, &nd, shape)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_reshape(&r, ARR(self), nd, shape));
  return wrap_status(st, r);
}

static PyObject *m_squeeze(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  int axes[NDT_MAXDIMS], n = 0;
  if (!parse_axes(arg, &n, axes)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_squeeze(&r, ARR(self), n, axes));
  return wrap_status(st, r);
}

static PyObject *m_expand_dims(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  long ax = PyLong_AsLong(arg);
  if (ax == -1 && PyErr_Occurred()) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_expand_dims(&r, ARR(self), (int)ax));
  return wrap_status(st, r);
}

static PyObject *m_real(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_real(&r, ARR(self)));
  return wrap_status(st, r);
}

static PyObject *m_imag(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_imag(&r, ARR(self)));
  return wrap_status(st, r);
}

static PyObject *m_copy(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_copy(&r, ARR(self)));
  return wrap_status(st, r);
}

static PyObject *m_ravel(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  const char *o = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
  if (!o || strlen(o) != 1 || !strchr("CFAK", o[0])) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "order must be one of 'C', 'F', 'A', or 'K'");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_ravel(&r, ARR(self), o[0]));
  return wrap_status(st, r);
}

static PyObject *m_set_writeable(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  /* 2: set even on a view of a read-only owner (see ndt_set_writeable) */
  int w = PyLong_CheckExact(arg) && PyLong_AsLong(arg) == 2 ? 2 : PyObject_IsTrue(arg);
  if (w < 0) return NULL;
  ndt_status st;
  CORE(st = ndt_set_writeable(ARR(self), w));
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

/* A new handle on the same view as a: a transpose that permutes nothing
 * (m_view, m_view_as and the buffer export's own handle). */
ndt_status same_view(ndt_array **r, const ndt_array *a) {
  int perm[NDT_MAXDIMS];
  for (int k = 0; k < ndt_ndim(a); k++) perm[k] = k;
  ndt_status st;
  CORE(st = ndt_transpose(r, a, perm));
  return st;
}

/* self._become(other): self turns into a new handle on other's view, in
 * place (a.dtype = ..., a.resize): it keeps NumPy's OWNDATA, and stays the
 * object owning its memory for the views made from it. */
static PyObject *m_become(PyObject *self, PyObject *other) {
  if (!check_arr(self) || !check_arr(other)) return NULL;
  ndt_array *r = NULL;
  ndt_status st = same_view(&r, ARR(other));
  if (st) return raise_status(st);
  ArrayObject *o = (ArrayObject *)self;
  int owned = ndt_owns_data(o->arr);
  core_enter();
  /* the old memory keeps naming self while self still lies in it (a.dtype
   * = ...: views of the old dtype made later have self as .base) */
  if (!ndt_same_memory(o->arr, r)) ndt_clear_owner_ctx(o->arr, self);
  ndt_free(o->arr);
  o->arr = r;
  ndt_set_owns_data(r, owned);
  if (owned) ndt_set_owner_ctx(r, self);
  core_leave();
  if (owned) Py_CLEAR(o->base);
  Py_CLEAR(o->shape);
  Py_RETURN_NONE;
}

/* self._set_base(obj): NumPy's .base of an array made from obj's memory
 * (frombuffer): the data is a copy in tiles, .base names the source. A
 * view whose store has no owner object left (the view of a dropped copy)
 * becomes it: the views made from self name self as .base, as NumPy's
 * views of an array over a buffer do. */
static PyObject *m_set_base(PyObject *self, PyObject *obj) {
  if (!check_arr(self)) return NULL;
  ArrayObject *o = (ArrayObject *)self;
  Py_XSETREF(o->base, obj == Py_None ? NULL : Py_NewRef(obj));
  if (!ndt_owns_data(o->arr) && !ndt_owner_ctx(o->arr)) ndt_set_owner_ctx(o->arr, self);
  Py_RETURN_NONE;
}

static PyObject *resize_impl;   /* the Python side's ndarray.resize (_set_dtype_hook) */

/* ndarray.resize(*shape, refcheck=True): counted here, in a C method as
 * NumPy's is, so that the references to self are NumPy's count (the
 * caller's, without a Python frame's own); the work is the Python side's,
 * called as resize_impl(self, shape args, refcheck, reference count). */
static PyObject *m_resize(PyObject *self, PyObject *args, PyObject *kw) {
  if (!check_arr(self)) return NULL;
  PyObject *refcheck = Py_True;
  if (kw) {
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(kw, &pos, &k, &v)) {
      if (PyUnicode_Check(k) && PyUnicode_CompareWithASCIIString(k, "refcheck") == 0) {
        refcheck = v;
      } else {
        PyErr_Format(PyExc_TypeError, "'%U' is an invalid keyword argument for this function",
                     k);
        return NULL;
      }
    }
  }
  if (!resize_impl) {
    PyErr_SetString(PyExc_RuntimeError, "resize: not set up");
    return NULL;
  }
  PyObject *n = PyLong_FromSsize_t(Py_REFCNT(self));
  if (!n) return NULL;
  PyObject *r = PyObject_CallFunctionObjArgs(resize_impl, self, args, refcheck, n, NULL);
  Py_DECREF(n);
  return r;
}

static PyObject *m_view(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  ndt_array *r = NULL;
  ndt_status st = same_view(&r, ARR(self));
  return wrap_status(st, r);
}

/* A new handle on the same view, as an instance of the given subtype
 * (NumPy's view casting; __array_finalize__ is the caller's). */
static PyObject *m_view_as(PyObject *self, PyObject *type) {
  if (!check_arr(self)) return NULL;
  if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &ArrayType)) {
    PyErr_SetString(PyExc_TypeError, "Type must be a sub-type of ndarray type");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st = same_view(&r, ARR(self));
  if (st) return raise_status(st);
  return wrap_as((PyTypeObject *)type, r);
}

static PyObject *m_astype(PyObject *self, PyObject *args) {
  PyObject *dto;
  int casting = NDT_CAST_UNSAFE;
  ndt_dtype t;
  if (!check_arr(self) || !PyArg_ParseTuple(args, "O|i", &dto, &casting) || !parse_dtype(dto, &t))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_astype(&r, ARR(self), t, (ndt_casting)casting));
  return wrap_status(st, r);
}

int warn_before_write(ndt_array *a) {
  if (!ndt_warn_on_write(a)) return 0;
  if (PyErr_WarnEx(PyExc_DeprecationWarning,
                   "Numpy has detected that you (may be) writing to an array with\n"
                   "overlapping memory from np.broadcast_arrays. If this is intentional\n"
                   "set the WRITEABLE flag True or make a copy immediately before writing.",
                   user_stacklevel()) < 0)
    return -1;
  ndt_set_warn_on_write(a, 0);
  return 0;
}

/* a._before_write(): warn_before_write, for the Python side's write paths */
static PyObject *m_before_write(PyObject *self, PyObject *c) {
  (void)c;
  if (!check_arr(self) || warn_before_write(ARR(self)) < 0) return NULL;
  Py_RETURN_NONE;
}

/* a._set_warn_on_write(flag): NumPy's flags._warn_on_write = True */
static PyObject *m_set_warn_on_write(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  int on = PyObject_IsTrue(arg);
  if (on < 0) return NULL;
  ndt_set_warn_on_write(ARR(self), on);
  Py_RETURN_NONE;
}

/* a._set_aligned(flag): NumPy's setflags(align=flag) (ndtile's memory is always
 * aligned, so setting it never fails) */
static PyObject *m_set_aligned(PyObject *self, PyObject *arg) {
  if (!check_arr(self)) return NULL;
  int on = PyObject_IsTrue(arg);
  if (on < 0) return NULL;
  ((ArrayObject *)self)->unaligned = !on;
  Py_RETURN_NONE;
}

static PyObject *m_assign(PyObject *self, PyObject *args) {
  PyObject *src;
  int casting = NDT_CAST_UNSAFE;
  if (!check_arr(self) || !PyArg_ParseTuple(args, "O|i", &src, &casting)) return NULL;
  if (warn_before_write(ARR(self)) < 0) return NULL;
  ndt_status st;
  if (IS_ARRAY(src)) {
    if (!check_arr(src)) return NULL;
    CORE(st = ndt_assign(ARR(self), ARR(src), (ndt_casting)casting));
  } else {
    elem_t v;
    ndt_dtype vt;
    int r = pynumber_elem(src, &vt, &v);
    if (r < 0) return NULL;
    CORE(st = ndt_fill(ARR(self), &v, vt));
  }
  if (st) return raise_status(st);
  return fp_done(Py_NewRef(Py_None));
}

static PyObject *m_same_store(PyObject *self, PyObject *other) {
  if (!check_arr(self)) return NULL;
  if (!IS_ARRAY(other) || !ARR(other)) Py_RETURN_FALSE;
  return PyBool_FromLong(ndt_same_store(ARR(self), ARR(other)));
}

/* self._raise_stashed(): the floating-point error a failed buffer export of
 * self kept (array_getbuffer), raised now; None when there is none. NumPy
 * asks __array_interface__ after a failed export, as it asks __array__. */
static PyObject *m_raise_stashed(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (fp_stashed && fp_stashed_owner == self) {
    PyObject *e = fp_stashed;
    fp_stashed = NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(e), e);
    Py_DECREF(e);
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyObject *m_same_memory(PyObject *self, PyObject *other) {
  if (!check_arr(self)) return NULL;
  if (!IS_ARRAY(other) || !ARR(other)) Py_RETURN_FALSE;
  return PyBool_FromLong(ndt_same_memory(ARR(self), ARR(other)));
}

static PyObject *m_memory_bytes(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  return PyLong_FromLongLong(ndt_memory_bytes(ARR(self)));
}

static PyObject *m_is_weak(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  return PyBool_FromLong(ndt_is_weak(ARR(self)));
}

static PyMethodDef array_methods[] = {
  {"_to_buffer", m_to_buffer, METH_O, "copy the data in C order into a writable buffer"},
  {"_scalar", m_scalar, METH_NOARGS, "the single element as a numpy scalar"},
  {"_item", m_item, METH_NOARGS, "the single element as a Python scalar"},
  {"_view_index", m_view_index, METH_O, "basic indexing (a view)"},
  {"_transpose", m_transpose, METH_O, "transposed view (perm or None)"},
  {"_swapaxes", m_swapaxes, METH_VARARGS, "view with two axes swapped"},
  {"_broadcast_to", m_broadcast_to, METH_O, "broadcast view"},
  {"_reshape", m_reshape, METH_O, "reshaped view or copy"},
  {"_squeeze", m_squeeze, METH_O, "view without unit axes (axes or None)"},
  {"_expand_dims", m_expand_dims, METH_O, "view with a unit axis inserted"},
  {"_real", m_real, METH_NOARGS, "real part (view)"},
  {"_imag", m_imag, METH_NOARGS, "imaginary part (view, or zeros)"},
  {"_copy", m_copy, METH_NOARGS, "C-order copy"},
  {"_view", m_view, METH_NOARGS, "new handle on the same view"},
  {"_become", m_become, METH_O, "turn into a handle on other's view, in place"},
  {"_raise_stashed", m_raise_stashed, METH_NOARGS, "raise the error a buffer export kept"},
  {"_same_memory", m_same_memory, METH_O, "views of one memory (a store, or stores sharing it)"},
  {"_memory_bytes", m_memory_bytes, METH_NOARGS, "bytes of the memory the view lies in"},
  {"resize", (PyCFunction)(void (*)(void))m_resize, METH_VARARGS | METH_KEYWORDS,
   "a.resize(new_shape, refcheck=True): NumPy's in-place resize"},
  {"_set_base", m_set_base, METH_O, "set NumPy's .base (the source of an array's data)"},
  {"_view_as", m_view_as, METH_O, "new handle on the same view, of a given subtype"},
  {"_ravel", m_ravel, METH_O, "NumPy's ravel (order 'C', 'F', 'A', 'K'): a view or a copy"},
  {"_set_writeable", m_set_writeable, METH_O, "set or clear NumPy's WRITEABLE flag"},
  {"_set_warn_on_write", m_set_warn_on_write, METH_O, "set or clear NumPy's WARN_ON_WRITE flag"},
  {"_set_aligned", m_set_aligned, METH_O, "set or clear NumPy's ALIGNED flag"},
  {"_before_write", m_before_write, METH_NOARGS,
   "NumPy's DeprecationWarning before a write into a broadcast_arrays result"},
  {"_astype", m_astype, METH_VARARGS, "cast copy (dtype code, casting)"},
  {"_assign", m_assign, METH_VARARGS, "self[...] = src (array or number), casting"},
  {"_same_store", m_same_store, METH_O, "views of the same store"},
  {"_is_weak", m_is_weak, METH_NOARGS, "created from a Python scalar"},
  {NULL, NULL, 0, NULL},
};

PyTypeObject ArrayType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ndtile._core.Array",
  .tp_basicsize = sizeof(ArrayObject),
  .tp_dealloc = (destructor)array_dealloc,
  .tp_as_number = &array_as_number,
  .tp_as_mapping = &array_as_mapping,
  .tp_as_sequence = &array_as_sequence,
  .tp_as_buffer = &array_as_buffer,
  .tp_hash = PyObject_HashNotImplemented,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "A tiled N-d array handle (the base of ndtile.ndarray).",
  .tp_richcompare = array_richcompare,
  .tp_weaklistoffset = offsetof(ArrayObject, weakrefs),
  .tp_methods = array_methods,
  .tp_getset = array_getset,
};

PyObject *f_set_dtype_hook(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *fn, *rs;
  if (!PyArg_ParseTuple(args, "OO", &fn, &rs)) return NULL;
  Py_XSETREF(dtype_setter, Py_NewRef(fn));
  Py_XSETREF(resize_impl, Py_NewRef(rs));
  Py_RETURN_NONE;
}

