/* dispatch.c - the Dispatch type: the foreign-array check as public functions
 * are entered. */
#include "_core.h"

/* ---- the foreign-array check as public functions are entered ----------------
 * ndtile.sum, ndtile.concatenate, ... are Dispatch objects: a call whose
 * arguments are all plain (exact ndtile and NumPy arrays, Python scalars,
 * strings, None, slices, types, and lists/tuples of those) goes straight to
 * the ndtile function (vectorcall, no tuple or dict made); one with another
 * library's array (a numpy.ndarray subclass such as a masked array, or an
 * object with its own __array_function__/__array_ufunc__: see _foreign.py)
 * goes to NumPy's function through the Python side's runner. Other types are
 * judged once each by the Python side and remembered in its dict. */
typedef struct {
  PyObject_HEAD
  PyObject *impl, *npfunc, *name;   /* (impl first: a WrapperObject) */
  vectorcallfunc vectorcall;
} DispatchObject;

/* The two types that wrap a function (Dispatch, Guard below) hold it first:
 * the attributes they lack are its own (__name__, __doc__, __module__,
 * __qualname__, __signature__ through __wrapped__, ...). */
typedef struct {
  PyObject_HEAD
  PyObject *func;
} WrapperObject;
#define WRAPPED(self) (((WrapperObject *)(self))->func)
_Static_assert(offsetof(DispatchObject, impl) == offsetof(WrapperObject, func),
               "the wrapped function first");

static PyObject *disp_cache;     /* type -> bool (the Python side's dict) */
static PyObject *disp_judge;     /* judge(type) -> bool, fills disp_cache */
static PyObject *disp_runner;    /* runner(npfunc, args, kwargs, name) */
static PyTypeObject *disp_np_ndarray;

/* 1: another library's array, 0: plain, -1: error. nested: inside a list
 * (a nested list is judged by its first element, so a long list of
 * numbers costs one look per level, not one per number). The first-element
 * walk stops after DISP_MAX_NEST levels: a list that contains itself
 * (l = []; l.append(l)) would loop forever; NumPy's arrays have at most 64
 * dimensions, so an object deeper down is an element, not an array there. */
#define DISP_MAX_NEST 64
static int disp_foreign(PyObject *x, int nested) {
  PyTypeObject *t = Py_TYPE(x);
  if (nested > DISP_MAX_NEST) return 0;
  if (t == wrap_type || t == &PyFloat_Type || t == &PyLong_Type || t == disp_np_ndarray ||
      x == Py_None || t == &PyBool_Type || t == &PyUnicode_Type || t == &PySlice_Type ||
      t == &PyType_Type || t == &PyComplex_Type || x == Py_Ellipsis || t == &PyBytes_Type)
    return 0;
  if (t == &PyList_Type || t == &PyTuple_Type) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(x);
    PyObject **items = PySequence_Fast_ITEMS(x);
    if (nested) return n ? disp_foreign(items[0], nested + 1) : 0;
    for (Py_ssize_t i = 0; i < n; i++) {
      int r = disp_foreign(items[i], 1);
      if (r) return r;
    }
    return 0;
  }
  PyObject *v = PyDict_GetItemWithError(disp_cache, (PyObject *)t);   /* borrowed */
  if (v) return v == Py_True;
  if (PyErr_Occurred()) return -1;
  PyObject *r = PyObject_CallOneArg(disp_judge, (PyObject *)t);
  if (!r) return -1;
  int f = PyObject_IsTrue(r);
  Py_DECREF(r);
  return f;
}

static PyObject *disp_call(PyObject *self, PyObject *const *args, size_t nargsf,
                           PyObject *kwnames) {
  DispatchObject *d = (DispatchObject *)self;
  Py_ssize_t n = PyVectorcall_NARGS(nargsf), nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < n + nk; i++) {
    int r = disp_foreign(args[i], 0);
    if (r < 0) return NULL;
    if (r) {
      /* NumPy's function takes it: args as a tuple, keywords as a dict */
      PyObject *a = PyTuple_New(n), *kw = PyDict_New(), *res = NULL;
      if (!a || !kw) goto done;
      for (Py_ssize_t k = 0; k < n; k++) PyTuple_SET_ITEM(a, k, Py_NewRef(args[k]));
      for (Py_ssize_t k = 0; k < nk; k++)
        if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, k), args[n + k]) < 0) goto done;
      res = PyObject_CallFunctionObjArgs(disp_runner, d->npfunc, a, kw, d->name, NULL);
    done:
      Py_XDECREF(a);
      Py_XDECREF(kw);
      return res;
    }
  }
  fp_call_enter();
  return fp_call_exit(PyObject_Vectorcall(d->impl, args, nargsf, kwnames));
}

static void disp_dealloc(DispatchObject *d) {
  Py_CLEAR(d->impl);
  Py_CLEAR(d->npfunc);
  Py_CLEAR(d->name);
  Py_TYPE(d)->tp_free((PyObject *)d);
}

static PyObject *wrap_getattro(PyObject *self, PyObject *name) {
  PyObject *r = PyObject_GenericGetAttr(self, name);
  if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
  PyErr_Clear();
  return PyObject_GetAttr(WRAPPED(self), name);
}

static PyObject *wrap_func_attr(PyObject *self, void *c) {
  return PyObject_GetAttrString(WRAPPED(self), (const char *)c);
}

/* a.__doc__ = ...: the function's own (_docs.py notes every public name) */
static int wrap_set_func_attr(PyObject *self, PyObject *value, void *c) {
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "cannot delete the attribute");
    return -1;
  }
  return PyObject_SetAttrString(WRAPPED(self), (const char *)c, value);
}

static PyObject *wrap_wrapped(PyObject *self, void *c) {
  (void)c;
  return Py_NewRef(WRAPPED(self));
}

static PyGetSetDef wrap_getset[] = {
  {"__name__", wrap_func_attr, NULL, NULL, "__name__"},
  {"__qualname__", wrap_func_attr, NULL, NULL, "__qualname__"},
  {"__doc__", wrap_func_attr, wrap_set_func_attr, NULL, "__doc__"},
  {"__module__", wrap_func_attr, NULL, NULL, "__module__"},
  {"__wrapped__", wrap_wrapped, NULL, "the ndtile function", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *disp_repr(PyObject *self) {
  return PyUnicode_FromFormat("<function %U>", ((DispatchObject *)self)->name);
}

/* pickled by name: restored as the same entry of the ndtile namespace */
static PyObject *disp_restore;   /* the Python side's restore(name) */

static PyObject *disp_reduce(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return Py_BuildValue("O(O)", disp_restore, ((DispatchObject *)self)->name);
}

static PyMethodDef disp_methods[] = {
  {"__reduce__", disp_reduce, METH_NOARGS, "pickled as the function it enters"},
  {NULL, NULL, 0, NULL},
};

PyTypeObject DispatchType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ndtile._core.function",
  .tp_basicsize = sizeof(DispatchObject),
  .tp_dealloc = (destructor)disp_dealloc,
  .tp_vectorcall_offset = offsetof(DispatchObject, vectorcall),
  .tp_call = PyVectorcall_Call,
  .tp_getattro = wrap_getattro,
  .tp_repr = disp_repr,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
  .tp_doc = NULL,
  .tp_getset = wrap_getset,
  .tp_methods = disp_methods,
};

/* dispatcher(impl, npfunc, name): impl entered through the check above. */
PyObject *f_dispatcher(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *impl, *npf, *name;
  if (!PyArg_ParseTuple(args, "OOU", &impl, &npf, &name)) return NULL;
  DispatchObject *d = PyObject_New(DispatchObject, &DispatchType);
  if (!d) return NULL;
  d->impl = Py_NewRef(impl);
  d->npfunc = Py_NewRef(npf);
  d->name = Py_NewRef(name);
  d->vectorcall = disp_call;
  return (PyObject *)d;
}

/* dispatch_setup(cache dict, judge, runner, numpy.ndarray, restore) */
PyObject *f_dispatch_setup(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *cache, *judge, *runner, *npt, *restore;
  if (!PyArg_ParseTuple(args, "O!OOO!O", &PyDict_Type, &cache, &judge, &runner, &PyType_Type,
                        &npt, &restore))
    return NULL;
  Py_XSETREF(disp_restore, Py_NewRef(restore));
  Py_XSETREF(disp_cache, Py_NewRef(cache));
  Py_XSETREF(disp_judge, Py_NewRef(judge));
  Py_XSETREF(disp_runner, Py_NewRef(runner));
  Py_XSETREF(disp_np_ndarray, (PyTypeObject *)Py_NewRef(npt));
  Py_RETURN_NONE;
}


/* ---- methods as calls --------------------------------------------------------
 * guard(func): a method of ndarray or ufunc entered as a call of the
 * program's (fp_call_enter/fp_call_exit: the floating-point errors of the
 * work it records are dropped when it raises). A method descriptor, so
 * a.sum(...) calls it with a as its first argument, as a function's; its
 * other attributes are the function's. */
typedef struct {
  PyObject_HEAD
  PyObject *func;   /* (first: a WrapperObject) */
  vectorcallfunc vectorcall;
} GuardObject;

static PyObject *guard_call(PyObject *self, PyObject *const *args, size_t nargsf,
                            PyObject *kwnames) {
  fp_call_enter();
  return fp_call_exit(PyObject_Vectorcall(((GuardObject *)self)->func, args, nargsf, kwnames));
}

static void guard_dealloc(GuardObject *g) {
  Py_CLEAR(g->func);
  Py_TYPE(g)->tp_free((PyObject *)g);
}

static int guard_setattro(PyObject *self, PyObject *name, PyObject *value) {
  return PyObject_SetAttr(((GuardObject *)self)->func, name, value);
}

static PyObject *guard_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
  (void)type;
  if (!obj || obj == Py_None) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

static PyObject *guard_repr(PyObject *self) {
  return PyObject_Repr(((GuardObject *)self)->func);
}

PyTypeObject GuardType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ndtile._core.method",
  .tp_basicsize = sizeof(GuardObject),
  .tp_dealloc = (destructor)guard_dealloc,
  .tp_vectorcall_offset = offsetof(GuardObject, vectorcall),
  .tp_call = PyVectorcall_Call,
  .tp_getattro = wrap_getattro,
  .tp_setattro = guard_setattro,
  .tp_descr_get = guard_descr_get,
  .tp_repr = guard_repr,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
  .tp_getset = wrap_getset,
};

PyObject *f_guard(PyObject *m, PyObject *func) {
  (void)m;
  GuardObject *g = PyObject_New(GuardObject, &GuardType);
  if (!g) return NULL;
  g->func = Py_NewRef(func);
  g->vectorcall = guard_call;
  return (PyObject *)g;
}
