/* buffer.c - the buffer protocol: memoryview(a), ctypes. */
#include "_core.h"

/* ---- the buffer protocol (memoryview(a), ctypes) ---------------------------------
 * The array's memory is lent in place, as NumPy's is: ndt_host_export waits
 * for the pending work on it and moves a store of separate tiles into one
 * buffer (once); until the release, core_leave waits for the tasks each call
 * recorded on it (ndt_host_settle), so the borrower's reads and writes never
 * meet a task (docs/design.md, "Lending memory"). The checks and messages are
 * NumPy's (array_getbuffer). */
typedef struct {
  ndt_array *arr;                   /* our own handle on the view: the export's */
  Py_ssize_t shape[NDT_MAXDIMS], strides[NDT_MAXDIMS];
} lent_buffer;

static const char *const buffer_formats[NDT_NTYPES] = {
  "?", "b", "h", "i", "l", "B", "H", "I", "L", "f", "d", "Zf", "Zd",
};

static int getbuffer(PyObject *self, Py_buffer *view, int flags);

/* The export holds self for its whole run: its wait for the pending work
 * lets other threads run, and a caller that lends only a borrowed reference
 * (NumPy's array coercion reads a list's items so) may see one of them
 * replace self in that list and free it mid-export (a crash). */
int array_getbuffer(PyObject *self, Py_buffer *view, int flags) {
  Py_INCREF(self);
  int r = getbuffer(self, view, flags);
  Py_DECREF(self);
  return r;
}

static int getbuffer(PyObject *self, Py_buffer *view, int flags) {
  if (!view) {
    PyErr_SetString(PyExc_ValueError, "NULL view in getbuffer");
    return -1;
  }
  if (!check_arr(self)) return -1;
  ndt_array *a = ARR(self);
  int nd = ndt_ndim(a);
  int c = ndt_is_c_contiguous(a), f = ndt_is_f_contiguous(a);
  if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c) {
    PyErr_SetString(PyExc_ValueError, "ndarray is not C-contiguous");
    return -1;
  }
  if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !f) {
    PyErr_SetString(PyExc_ValueError, "ndarray is not Fortran contiguous");
    return -1;
  }
  if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c && !f) {
    PyErr_SetString(PyExc_ValueError, "ndarray is not contiguous");
    return -1;
  }
  if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c) {
    PyErr_SetString(PyExc_ValueError, "ndarray is not C-contiguous");
    return -1;
  }
  int writeable = ndt_is_writeable(a);
  if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && !writeable) {
    PyErr_SetString(PyExc_ValueError, "buffer source array is read-only");
    return -1;
  }
  /* NumPy: a writable request warns (and clears WARN_ON_WRITE); otherwise
   * such an array is lent read-only */
  if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && warn_before_write(a) < 0) return -1;
  int lend_readonly = !writeable || ndt_warn_on_write(a);
  lent_buffer *lb = PyMem_Calloc(1, sizeof *lb);
  if (!lb) {
    PyErr_NoMemory();
    return -1;
  }
  /* a handle of our own: the Python object's may be replaced (a.shape = ...) */
  void *ptr = NULL;
  ndt_status st = same_view(&lb->arr, a);
  /* a writeable array is lent for writing, whatever was asked: the borrower
   * may write through it (NumPy's exports of such arrays are writable) */
  if (!st) CORE_BLOCKING((core_lent = 1, st = ndt_host_export(lb->arr, writeable, &ptr)));
  if (st) {
    if (lb->arr) CORE(ndt_free(lb->arr));
    PyMem_Free(lb);
    if (st == NDT_ERR_UNSUPPORTED) {
      PyErr_SetString(PyExc_BufferError, ndt_last_error());
      return -1;
    }
    raise_status(st);
    return -1;
  }
  ndt_dtype t = ndt_dtype_of(a);
  Py_ssize_t isz = (Py_ssize_t)ndt_dtype_size(t), ssz = (Py_ssize_t)ndt_store_itemsize(a);
  const int64_t *sh = ndt_shape(a), *es = ndt_strides(a);
  /* NumPy's strides: a contiguous array's are recomputed (consumers expect
   * well-formed ones also along unit and empty axes), others are the view's */
  int as_f = f && (!c || (flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS);
  Py_ssize_t sd = isz;
  for (int j = 0; j < nd; j++) {
    int k = as_f ? j : nd - 1 - j;
    lb->shape[k] = (Py_ssize_t)sh[k];
    lb->strides[k] = c || f ? sd : (Py_ssize_t)es[k] * ssz;
    sd *= lb->shape[k];
  }
  view->buf = ptr;
  view->obj = Py_NewRef(self);
  view->len = (Py_ssize_t)ndt_size(a) * isz;
  view->itemsize = isz;
  view->readonly = lend_readonly;
  view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? (char *)buffer_formats[t] : NULL;
  view->ndim = (flags & PyBUF_ND) == PyBUF_ND ? nd : 0;
  view->shape = (flags & PyBUF_ND) == PyBUF_ND && nd ? lb->shape : NULL;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES && nd ? lb->strides : NULL;
  view->suboffsets = NULL;
  view->internal = lb;
  /* the wait may have finished work whose floating-point flags are due.
   * NumPy's asarray drops an export's error and takes __array__ instead, so
   * an error raised here (errstate 'raise') is also kept for this array's
   * copy-out that follows (m_to_buffer), until the next core call ends. */
  if ((ndt_fp_errors_pending() || fp_sync_wanted) && fp_report() < 0) {
    PyBuffer_Release(view);
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyErr_NormalizeException(&et, &ev, &tb);
    Py_XSETREF(fp_stashed, Py_XNewRef(ev));
    fp_stashed_owner = self;
    PyErr_Restore(et, ev, tb);
    return -1;
  }
  return 0;
}

static void array_releasebuffer(PyObject *self, Py_buffer *view) {
  (void)self;
  lent_buffer *lb = view->internal;
  if (!lb) return;
  view->internal = NULL;
  if (core_held) {   /* released from Python code run inside a core call */
    ndt_host_release(lb->arr);
    free_later(lb->arr);
  } else {
    CORE(ndt_host_release(lb->arr); ndt_free(lb->arr));
  }
  PyMem_Free(lb);
}

PyBufferProcs array_as_buffer = {
  .bf_getbuffer = array_getbuffer,
  .bf_releasebuffer = array_releasebuffer,
};

/* The address a buffer export starts at (for a.ctypes.data). */
PyObject *f_buffer_address(PyObject *m, PyObject *obj) {
  (void)m;
  if (!PyMemoryView_Check(obj)) {
    PyErr_SetString(PyExc_TypeError, "expected a memoryview");
    return NULL;
  }
  return PyLong_FromVoidPtr(PyMemoryView_GET_BUFFER(obj)->buf);
}

/* ---- __array_struct__ ----------------------------------------------------------
 * array_struct(a, mv, shape, strides, kind, itemsize, flags): NumPy's
 * __array_struct__, a PyCapsule (no name) holding a PyArrayInterface (the
 * layout of numpy/ndarraytypes.h, version 2) over the memory that mv, the
 * array's loan (as the buffer protocol lends it), holds; the capsule's
 * context keeps (a, mv) alive until the capsule goes, as NumPy's keeps the
 * array. shape and strides in elements/bytes as NumPy's; flags NumPy's. */
typedef struct {
  int two;              /* 2: the interface's version check */
  int nd;
  char typekind;
  int itemsize;
  int flags;
  Py_intptr_t *shape, *strides;
  void *data;
  PyObject *descr;      /* NULL: typekind and itemsize say it (no ARR_HAS_DESCR) */
} ArrayInterface;

static void array_struct_free(PyObject *cap) {
  void *p = PyCapsule_GetPointer(cap, NULL);
  PyObject *ctx = PyCapsule_GetContext(cap);
  PyMem_Free(p);
  Py_XDECREF(ctx);
}

PyObject *f_array_struct(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *mv, *shape, *strides;
  int kind, itemsize, flags;
  if (!PyArg_ParseTuple(args, "OO!O!O!Cii", &a, &PyMemoryView_Type, &mv, &PyTuple_Type, &shape,
                        &PyTuple_Type, &strides, &kind, &itemsize, &flags))
    return NULL;
  Py_ssize_t nd = PyTuple_GET_SIZE(shape);
  if (PyTuple_GET_SIZE(strides) != nd || nd > NDT_MAXDIMS) {
    PyErr_SetString(PyExc_ValueError, "array_struct: shape and strides differ in length");
    return NULL;
  }
  /* the interface, then its shape and strides, in one block */
  ArrayInterface *in = PyMem_Malloc(sizeof *in + 2 * (size_t)(nd ? nd : 1) * sizeof(Py_intptr_t));
  if (!in) return PyErr_NoMemory();
  in->two = 2;
  in->nd = (int)nd;
  in->typekind = (char)kind;
  in->itemsize = itemsize;
  in->flags = flags;
  in->shape = (Py_intptr_t *)(in + 1);
  in->strides = in->shape + (nd ? nd : 1);
  in->data = PyMemoryView_GET_BUFFER(mv)->buf;
  in->descr = NULL;
  for (Py_ssize_t i = 0; i < nd; i++) {
    in->shape[i] = (Py_intptr_t)PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
    in->strides[i] = (Py_intptr_t)PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, i));
  }
  PyObject *ctx = PyErr_Occurred() ? NULL : PyTuple_Pack(2, a, mv);
  PyObject *cap = ctx ? PyCapsule_New(in, NULL, array_struct_free) : NULL;
  if (!cap) {
    Py_XDECREF(ctx);
    PyMem_Free(in);
    return NULL;
  }
  if (PyCapsule_SetContext(cap, ctx)) {     /* (cannot fail on a new capsule) */
    Py_DECREF(ctx);
    Py_DECREF(cap);
    return NULL;
  }
  return cap;
}

/* ---- the other direction: another object's memory as an array ----------------
 * from_memory(obj, code, writable): an array over obj's memory (a C-contiguous
 * buffer of code's dtype; ndt_from_memory), holding the buffer until the
 * last array over it goes; NotImplementedError where the core cannot share
 * it (the caller copies). The result names itself as its views' .base. */
static void release_buffer(void *ctx) {
  PyGILState_STATE g = PyGILState_Ensure();
  PyBuffer_Release((Py_buffer *)ctx);
  PyMem_RawFree(ctx);
  PyGILState_Release(g);
}

PyObject *f_from_memory(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *obj;
  int t, writable;
  if (!PyArg_ParseTuple(args, "Oip", &obj, &t, &writable)) return NULL;
  if (t < 0 || t >= NDT_NTYPES) {
    PyErr_Format(PyExc_ValueError, "invalid ndtile dtype code %d", t);
    return NULL;
  }
  Py_buffer *view = PyMem_RawMalloc(sizeof *view);
  if (!view) return PyErr_NoMemory();
  if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0))) {
    PyMem_RawFree(view);
    return NULL;
  }
  int64_t isz = ndt_dtype_size((ndt_dtype)t);
  ndt_array *r = NULL;
  ndt_status st;
  CORE((core_lent = 1, st = ndt_from_memory(&r, view->buf, (ndt_dtype)t,
                                             (int64_t)view->len / isz, !writable,
                                             release_buffer, view)));
  if (st) {
    PyBuffer_Release(view);
    PyMem_RawFree(view);
    return raise_status(st);
  }
  PyObject *o = wrap(r);
  if (o) ndt_set_owner_ctx(ARR(o), o);
  return o;
}

