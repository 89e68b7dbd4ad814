/* _core.c - the Python binding of libndtile (module ndtile._core).
 *
 * A thin layer: the Array type owning an ndt_array*, argument parsing, and
 * one function (raise_status) that turns an ndt_status into the exception
 * NumPy raises for the same mistake. The NumPy semantics that need Python
 * (NumPy dtypes and scalars, advanced indexing, fallbacks) live in the
 * ndtile package; this file calls back into it through hooks registered by
 * _setup() whenever an operand or index is not one of the simple kinds it
 * handles itself.
 *
 * Hot paths are here: the number protocol and comparisons between arrays
 * and Python scalars, basic indexing, shape/dtype getters.
 *
 * Threads: the core is entered by one thread at a time (core_lock, taken
 * while holding the GIL, with the GIL released only when the lock is
 * contended), and the GIL is released around calls that wait for data.
 *
 * No NumPy C API: data is exchanged through the buffer protocol.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#if PY_VERSION_HEX < 0x030B0000
/* Python 3.10: PyFrame_GetGlobals is 3.11's; before it the field is public */
#include <frameobject.h>
static PyObject *PyFrame_GetGlobals(PyFrameObject *f) { return Py_XNewRef(f->f_globals); }
#endif
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include "ndtile.h"

/* ---- the core lock ------------------------------------------------------ */
/* A plain mutex: its uncontended trylock is one atomic instruction, where
 * CPython's lock reads the clock and posts a semaphore (a tenth of the time
 * of `x += 2*y` on 1,000 elements). */
static pthread_mutex_t core_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- Ctrl-C -------------------------------------------------------------
 * Python's SIGINT handler only notes the signal; the interpreter acts on it
 * between bytecodes, never while a core call waits or computes. So the
 * binding puts its own handler in front of Python's: it tells the core
 * (ndt_interrupt, async-signal-safe), whose waits then stop within a slice
 * and return NDT_ERR_INTERRUPTED, and calls Python's handler as before,
 * which raises KeyboardInterrupt when the call returns (raise_status).
 * signal.signal() puts Python's handler back in front of ours; a wait that
 * lasts looks (every 20 ms slice, the core's wait hook) and takes its place
 * again (sigint_guard): short calls pay nothing. */
static struct sigaction prev_sigint;

static void on_sigint(int sig, siginfo_t *info, void *ctx) {
  ndt_interrupt();
  if (prev_sigint.sa_flags & SA_SIGINFO) {
    if (prev_sigint.sa_sigaction) prev_sigint.sa_sigaction(sig, info, ctx);
  } else if (prev_sigint.sa_handler != SIG_DFL && prev_sigint.sa_handler != SIG_IGN) {
    prev_sigint.sa_handler(sig);
  }
}

/* Puts on_sigint in front of the handler installed now, when that is a
 * handler (not the default or ignore: then Ctrl-C is not Python's to
 * handle). At import, and from the core's wait hook (any thread, no GIL:
 * it touches only this file's statics and sigaction). */
static void sigint_guard(void) {
  struct sigaction cur;
  if (sigaction(SIGINT, NULL, &cur) != 0) return;
  if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigint) return;
  if (!(cur.sa_flags & SA_SIGINFO) && (cur.sa_handler == SIG_DFL || cur.sa_handler == SIG_IGN))
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigint;
  sa.sa_flags = SA_SIGINFO | (cur.sa_flags & SA_RESTART);
  sigemptyset(&sa.sa_mask);
  prev_sigint = cur;
  sigaction(SIGINT, &sa, NULL);
}

/* Python code can run inside a core call (the floating-point capture hook
 * calls into Python, and any allocation there may start the garbage
 * collector), and what it frees must not take the lock this thread holds:
 * arrays dropped then are freed when the call leaves the core. */
static _Thread_local int core_held;
static ndt_array **dead_arrays;
static size_t ndead, capdead;

static void core_enter(void) {
  /* a request left from a Ctrl-C that Python already handled between
   * calls must not stop this one */
  if (ndt_interrupt_pending()) ndt_clear_interrupt();
  if (pthread_mutex_trylock(&core_lock) != 0) {
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&core_lock);
    Py_END_ALLOW_THREADS
  }
  core_held = 1;
}
/* A floating-point error a buffer export raised, kept for the array's
 * copy-out that NumPy falls back to (array_getbuffer); cleared as any core
 * call ends. */
static PyObject *fp_stashed;
static PyObject *fp_stashed_owner;   /* compared, never dereferenced */

static void core_leave(void) {
  if (fp_stashed) {
    PyObject *e = fp_stashed;
    fp_stashed = NULL;
    Py_DECREF(e);
  }
  while (ndead) ndt_free(dead_arrays[--ndead]);
  /* memory lent out (the buffer protocol) is the borrower's again between
   * calls: the tasks this call recorded on it finish first */
  ndt_host_settle();
  core_held = 0;
  pthread_mutex_unlock(&core_lock);
}

/* Frees a from inside a core call of this thread: at the call's end. */
static void free_later(ndt_array *a) {
  if (ndead == capdead) {
    size_t cap = capdead ? 2 * capdead : 64;
    ndt_array **d = realloc(dead_arrays, cap * sizeof *d);
    if (!d) return;   /* out of memory: the handle leaks rather than deadlock */
    dead_arrays = d;
    capdead = cap;
  }
  dead_arrays[ndead++] = a;
}

/* Calls that wait for deferred work: enter the core, then let other Python
 * threads run while we wait. */
#define CORE_BLOCKING(stmt)        \
  do {                             \
    core_enter();                  \
    Py_BEGIN_ALLOW_THREADS stmt;   \
    Py_END_ALLOW_THREADS           \
    core_leave();                  \
  } while (0)
#define CORE(stmt) \
  do {             \
    core_enter();  \
    stmt;          \
    core_leave();  \
  } while (0)

/* ---- registered from Python --------------------------------------------- */
static PyTypeObject ArrayType;
static PyTypeObject *wrap_type = &ArrayType;     /* type of new arrays: ndtile.ndarray */
static PyObject *np_dtypes[NDT_NTYPES];          /* numpy dtype objects */
static PyObject *np_scalars[NDT_NTYPES];         /* numpy scalar types */
static PyObject *int_scalar_types;               /* tuple: numpy integer scalar types */
static PyObject *binop_hook, *getitem_hook, *setitem_hook;
/* ndarray subclasses (Python classes deriving from ndtile.ndarray): the
 * number slots and indexing hand them to Python, which applies NumPy's
 * subclass rules (__array_ufunc__, __array_wrap__, __array_finalize__).
 * Plain arrays pay one type-pointer comparison. */
static PyObject *unop_hook, *subscript_hook;
#define IS_SUBCLASS(o) (Py_TYPE(o) != wrap_type && wrap_type != &ArrayType && IS_ARRAY(o))
static PyObject *axis_error_type, *ufunc_type_error;

/* ---- errors --------------------------------------------------------------- */
static PyObject *lazy_attr(PyObject **cache, const char *mod, const char *name) {
  if (!*cache) {
    PyObject *m = PyImport_ImportModule(mod);
    if (!m) {
      PyErr_Clear();
      return NULL;
    }
    *cache = PyObject_GetAttrString(m, name);
    Py_DECREF(m);
    if (!*cache) PyErr_Clear();
  }
  return *cache;
}

/* The one place where a status becomes a Python exception. */
static PyObject *raise_status(ndt_status st) {
  const char *msg = ndt_last_error();
  if (!msg || !*msg) msg = ndt_status_string(st);
  PyObject *type = PyExc_RuntimeError;
  switch (st) {
    case NDT_ERR_NOMEM: type = PyExc_MemoryError; break;
    case NDT_ERR_VALUE:
    case NDT_ERR_SHAPE: type = PyExc_ValueError; break;
    case NDT_ERR_AXIS: {
      PyObject *t = lazy_attr(&axis_error_type, "numpy.exceptions", "AxisError");
      type = t ? t : PyExc_IndexError;
      break;
    }
    case NDT_ERR_INDEX: type = PyExc_IndexError; break;
    case NDT_ERR_TYPE:
    case NDT_ERR_CAST: {
      /* numpy's UFuncTypeError (a TypeError); built without calling its
       * __init__, which wants the ufunc object. NumPy's legacy type
       * resolver ("not supported for the input types") raises a plain
       * TypeError. */
      PyObject *t = st == NDT_ERR_TYPE && strstr(msg, "not supported for the input types") ? NULL :
          lazy_attr(&ufunc_type_error, "numpy._core._exceptions", "UFuncTypeError");
      if (t && PyType_Check(t)) {
        PyObject *args = Py_BuildValue("(s)", msg);
        PyObject *exc = args ? ((PyTypeObject *)t)->tp_new((PyTypeObject *)t, args, NULL) : NULL;
        Py_XDECREF(args);
        if (exc) {
          PyErr_SetObject(t, exc);
          Py_DECREF(exc);
          return NULL;
        }
        PyErr_Clear();
      }
      type = PyExc_TypeError;
      break;
    }
    case NDT_ERR_UNSUPPORTED: type = PyExc_NotImplementedError; break;
    case NDT_ERR_OVERFLOW: type = PyExc_OverflowError; break;
    case NDT_ERR_INTERRUPTED:
      /* Ctrl-C: Python's handler runs now (KeyboardInterrupt, or the
       * program's own handler); an interrupt from elsewhere (another
       * thread's ndt_interrupt) is a KeyboardInterrupt too */
      if (PyErr_CheckSignals() < 0) return NULL;
      PyErr_SetNone(PyExc_KeyboardInterrupt);
      return NULL;
    case NDT_ERR_LINALG: {
      /* numpy.linalg.LinAlgError with NumPy's message: a deferred failure
       * carries "<task name>: " in front */
      static PyObject *linalg_error;
      PyObject *t = lazy_attr(&linalg_error, "numpy.linalg", "LinAlgError");
      type = t ? t : PyExc_ValueError;
      const char *c = strstr(msg, "linalg.");
      const char *sep = c ? strstr(c, ": ") : NULL;
      if (sep) msg = sep + 2;
      break;
    }
    default: type = PyExc_RuntimeError; break;
  }
  PyErr_SetString(type, msg);
  return NULL;
}

/* ---- floating-point errors ---------------------------------------------------
 * The core keeps one record per op of the IEEE errors its tiles raised
 * (ndt_fp_errors_take); ndtile._errstate.report turns them into NumPy's
 * RuntimeWarnings, FloatingPointError, callbacks or prints, in the error
 * state (numpy.errstate) the program had when it called the op: for an op
 * that defers work, fp_capture keeps the errstate object and the user's line
 * with the op. Inline work is reported at the end of the call (fp_done),
 * deferred work at the end of the first call that finds it done - at the
 * latest the call that waits for its data. Under errstate 'raise' a deferred
 * op is waited for before its call returns, so the exception comes from the
 * line that called it, as in NumPy. */
static PyObject *fp_report_fn, *fp_raises_fn, *fp_extobj_var, *fp_pkg_dir;
static PyObject *fp_last_ext;     /* errstate object fp_last_raises was found for */
static int fp_last_raises, fp_sync_wanted;

/* 1 when the frame's code lies in the ndtile package */
static int fp_in_package(PyFrameObject *f) {
  PyCodeObject *co = PyFrame_GetCode(f);
  int in = co && fp_pkg_dir && PyUnicode_Check(co->co_filename) &&
           PyUnicode_Tailmatch(co->co_filename, fp_pkg_dir, 0, PY_SSIZE_T_MAX, -1) == 1;
  Py_XDECREF(co);
  return in;
}

/* The capture hook (recording thread, an op's first deferred task): a tuple
 * (errstate object, file, line, module globals) of the first frame outside
 * ndtile. */
static void *fp_capture(void) {
  if (!fp_report_fn || !PyGILState_Check()) return NULL;
  PyObject *ext = NULL;
  if (!fp_extobj_var || PyContextVar_Get(fp_extobj_var, NULL, &ext) < 0 || !ext) {
    PyErr_Clear();
    ext = Py_NewRef(Py_None);
  }
  if (ext != fp_last_ext && fp_raises_fn) {
    PyObject *r = PyObject_CallOneArg(fp_raises_fn, ext);
    fp_last_raises = r ? PyObject_IsTrue(r) == 1 : 0;
    if (!r) PyErr_Clear();
    Py_XDECREF(r);
    Py_XSETREF(fp_last_ext, Py_NewRef(ext));
  }
  if (fp_last_raises) fp_sync_wanted = 1;
  PyFrameObject *f = PyEval_GetFrame();
  Py_XINCREF(f);
  while (f && fp_in_package(f)) {
    PyFrameObject *b = PyFrame_GetBack(f);
    Py_DECREF(f);
    f = b;
  }
  PyObject *file = NULL, *glob = NULL;
  int line = 0;
  if (f) {
    PyCodeObject *co = PyFrame_GetCode(f);
    file = co ? Py_NewRef(co->co_filename) : NULL;
    Py_XDECREF(co);
    line = PyFrame_GetLineNumber(f);
    glob = PyFrame_GetGlobals(f);
    Py_DECREF(f);
  }
  PyObject *t = Py_BuildValue("(NNiN)", ext, file ? file : Py_NewRef(Py_None), line,
                              glob ? glob : Py_NewRef(Py_None));
  if (!t) PyErr_Clear();
  return t;
}

/* The release hook: a record done and reported (GIL held: called from
 * ndt_fp_errors_take in fp_report). */
static void fp_release(void *ctx) { Py_XDECREF((PyObject *)ctx); }

/* Reports the records that are ready; -1 with an exception set. */
static int fp_report(void) {
  if (fp_sync_wanted) {
    fp_sync_wanted = 0;
    ndt_status st;
    CORE_BLOCKING(st = ndt_sync());
    if (st) {
      raise_status(st);
      return -1;
    }
  }
  int rc = 0;
  while (ndt_fp_errors_pending()) {
    ndt_fp_error e[16];
    int n = ndt_fp_errors_take(e, 16);
    if (n == 0) break;
    PyObject *list = PyList_New(n);
    for (int i = 0; i < n; i++) {
      PyObject *ctx = e[i].ctx ? (PyObject *)e[i].ctx : Py_None;   /* borrowed */
      PyObject *item = list ? Py_BuildValue("(sIO)", e[i].op, e[i].flags, ctx) : NULL;
      if (!item) {
        Py_CLEAR(list);
        break;
      }
      PyList_SET_ITEM(list, i, item);
    }
    if (rc == 0 && list && fp_report_fn) {
      PyObject *r = PyObject_CallOneArg(fp_report_fn, list);
      if (!r) rc = -1;   /* the rest is still reported: warnings, say */
      Py_XDECREF(r);
    }
    Py_XDECREF(list);
    if (!list) rc = -1;
  }
  return rc;
}

/* The end of a call that may have run or waited for work: o, or NULL (o
 * released) when reporting floating-point errors raised. */
static PyObject *fp_done(PyObject *o) {
  if (o && (ndt_fp_errors_pending() || fp_sync_wanted) && fp_report() < 0) {
    Py_DECREF(o);
    return NULL;
  }
  return o;
}

static PyObject *f_fp_setup(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *report, *raises, *var, *pkg;
  if (!PyArg_ParseTuple(args, "OOOU", &report, &raises, &var, &pkg)) return NULL;
  Py_XSETREF(fp_report_fn, Py_NewRef(report));
  Py_XSETREF(fp_raises_fn, Py_NewRef(raises));
  Py_XSETREF(fp_extobj_var, var == Py_None ? NULL : Py_NewRef(var));
  Py_XSETREF(fp_pkg_dir, Py_NewRef(pkg));
  Py_CLEAR(fp_last_ext);
  ndt_fp_set_hooks(fp_capture, fp_release);
  Py_RETURN_NONE;
}

static PyObject *f_fp_report(PyObject *m, PyObject *noargs) {
  (void)m;
  (void)noargs;
  return fp_done(Py_NewRef(Py_None));
}

/* ---- the Array type --------------------------------------------------------- */
typedef struct {
  PyObject_HEAD
  ndt_array *arr;
  PyObject *shape;      /* cached shape tuple */
  PyObject *weakrefs;
  PyObject *base;       /* NumPy's .base: the object owning the memory of a view (held, as
                         * NumPy's base is), or what an owner was made from (frombuffer's
                         * buffer); NULL for none */
} ArrayObject;

#define IS_ARRAY(o) PyObject_TypeCheck((o), &ArrayType)
#define ARR(o) (((ArrayObject *)(o))->arr)

/* Takes ownership of a; frees it on failure. */
/* A new Python object of type t (ArrayType or a subtype) owning a. */
static PyObject *wrap_as(PyTypeObject *t, ndt_array *a) {
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

static inline PyObject *wrap(ndt_array *a) { return wrap_as(wrap_type, a); }

static PyObject *wrap_status(ndt_status st, ndt_array *a) {
  if (st) return raise_status(st);
  return fp_done(wrap(a));
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

static int check_arr(PyObject *o) {
  if (!IS_ARRAY(o) || !ARR(o)) {
    PyErr_SetString(PyExc_TypeError, "expected an initialised ndtile array");
    return 0;
  }
  return 1;
}

/* ---- dtypes, elements, Python values ---------------------------------------- */
static int parse_dtype(PyObject *o, ndt_dtype *t) {
  long v = PyLong_AsLong(o);
  if (v == -1 && PyErr_Occurred()) return 0;
  if (v < -1 || v >= NDT_NTYPES) {
    PyErr_Format(PyExc_ValueError, "invalid ndtile dtype code %ld", v);
    return 0;
  }
  *t = (ndt_dtype)v;
  return 1;
}

static int is_int_kind(ndt_dtype t) { return t >= NDT_INT8 && t <= NDT_UINT64; }
static int is_float_kind(ndt_dtype t) { return t == NDT_FLOAT32 || t == NDT_FLOAT64; }
static int is_complex_kind(ndt_dtype t) { return t == NDT_COMPLEX64 || t == NDT_COMPLEX128; }

/* Does the Python integer value v fit integer dtype t? */
static int int_fits(ndt_dtype t, long long v) {
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

typedef union {
  uint8_t b;
  int64_t i;
  uint64_t u;
  double d;
  double c[2];
  char raw[16];
} elem_t;

/* An exact Python bool/int/float/complex as an element: 1 done, 0 not such
 * a value (or an int outside int64 and uint64), -1 error. */
static int pyscalar_elem(PyObject *o, ndt_dtype *vt, elem_t *v) {
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
static int pynumber_elem(PyObject *o, ndt_dtype *vt, elem_t *v) {
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
static PyObject *elem_to_py(ndt_dtype t, const void *p) {
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
static PyObject *elem_to_np(ndt_dtype t, const void *p) {
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
static int parse_shape(PyObject *o, int *nd, int64_t *shape) {
  if (PyBool_Check(o)) {
    PyErr_Format(PyExc_TypeError,
                 "expected a sequence of integers or a single integer, got '%S'", o);
    return 0;
  }
  if (PyLong_Check(o) || !PySequence_Check(o)) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) return PyLong_Check(o) ? shape_overflow() : 0;
    *nd = 1;
    shape[0] = v;
    return 1;
  }
  PyObject *seq = PySequence_Fast(o, "shape must be a sequence of integers");
  if (!seq) return 0;
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

static int parse_shape_nonneg(PyObject *o, int *nd, int64_t *shape) {
  if (!parse_shape(o, nd, shape)) return 0;
  for (int k = 0; k < *nd; k++)
    if (shape[k] < 0) {
      PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
      return 0;
    }
  return 1;
}

static PyObject *shape_tuple(int nd, const int64_t *shape) {
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

static int parse_axes(PyObject *o, int *n, int *axes) {
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

/* ---- weak scalars ---------------------------------------------------------------- */
/* Python scalars in operators become weak 0-d arrays. Making one costs an
 * allocation of a store; loops like `x += 2*y` use the same few values, so
 * recent ones are kept (direct-mapped by value). They are never written:
 * the core reads them only. Touched with the GIL held. */
#define SCACHE 64
static struct {
  ndt_dtype t;
  elem_t v;
  ndt_array *a;
} scache[SCACHE];

static ndt_status weak_scalar(ndt_dtype t, const elem_t *v, ndt_array **out, int *owned) {
  uint64_t h = v->u ^ (t == NDT_COMPLEX128 ? ((uint64_t)v->c[1] * 31) : 0);
  if (t == NDT_BOOL) h = v->b;
  unsigned k = (unsigned)(((h * 0x9E3779B97F4A7C15ull) >> 58) ^ (unsigned)t) & (SCACHE - 1);
  size_t n = ndt_dtype_size(t);
  if (scache[k].a && scache[k].t == t && memcmp(&scache[k].v, v, n) == 0) {
    *out = scache[k].a;
    *owned = 0;
    return NDT_OK;
  }
  ndt_array *a;
  ndt_status st;
  CORE(st = ndt_scalar(&a, t, v, 1));
  if (st) return st;
  if (scache[k].a) CORE(ndt_free(scache[k].a));
  scache[k].t = t;
  memset(&scache[k].v, 0, sizeof scache[k].v);
  memcpy(&scache[k].v, v, n);
  scache[k].a = a;
  *out = a;
  *owned = 0;
  return NDT_OK;
}

/* ---- operands ------------------------------------------------------------------ */
/* o as an operand next to `other` (an Array or NULL): 1 converted (*tmp owns
 * a new weak scalar when o was a Python scalar), 0 not a kind handled here,
 * -1 error. Python ints that do not fit an integer `other` are not handled
 * here: NumPy's rule (OverflowError, or the comparison special case) is
 * applied by the Python layer. */
static int operand(PyObject *o, PyObject *other, int op, ndt_array **a, ndt_array **tmp) {
  *tmp = NULL;
  if (IS_ARRAY(o)) {
    if (!ARR(o)) return 0;
    *a = ARR(o);
    return 1;
  }
  elem_t v;
  ndt_dtype vt;
  int r = pyscalar_elem(o, &vt, &v);
  if (r <= 0) return r;
  if (vt == NDT_UINT64) return 0;
  if (vt == NDT_INT64 && other && IS_ARRAY(other) && ARR(other)) {
    ndt_dtype ot = ndt_dtype_of(ARR(other));
    if (is_int_kind(ot) && !int_fits(ot, v.i)) return 0;
    /* int ** negative int is an error in NumPy: let Python say so */
    if (op == NDT_POWER && v.i < 0 && (is_int_kind(ot) || ot == NDT_BOOL)) return 0;
  }
  int owned;
  ndt_status st = weak_scalar(vt, &v, a, &owned);
  if (st) {
    raise_status(st);
    return -1;
  }
  return 1;
}

static PyObject *call_binop_hook(int op, PyObject *a, PyObject *b, int inplace) {
  if (!binop_hook) Py_RETURN_NOTIMPLEMENTED;
  PyObject *args[4];
  args[0] = PyLong_FromLong(op);
  if (!args[0]) return NULL;
  args[1] = a;
  args[2] = b;
  args[3] = inplace ? Py_True : Py_False;
  PyObject *r = PyObject_Vectorcall(binop_hook, args, 4, NULL);
  Py_DECREF(args[0]);
  return r;
}

static PyObject *binop(PyObject *a, PyObject *b, ndt_ufunc op, int inplace) {
  ndt_array *x, *y, *tx = NULL, *ty = NULL;
  if (IS_SUBCLASS(a) || IS_SUBCLASS(b)) return call_binop_hook(op, a, b, inplace);
  int ra = operand(a, b, op, &x, &tx);
  if (ra < 0) return NULL;
  int rb = ra ? operand(b, a, op, &y, &ty) : 0;
  if (rb < 0) {
    CORE(ndt_free(tx));
    return NULL;
  }
  /* int ** int arrays: NumPy raises for negative exponents, which needs a
   * look at the data: the Python layer does it */
  if (ra && rb && op == NDT_POWER && !ty && IS_ARRAY(b) &&
      (is_int_kind(ndt_dtype_of(y)) || ndt_dtype_of(y) == NDT_BOOL) &&
      is_int_kind(ndt_dtype_of(y)) &&
      (is_int_kind(ndt_dtype_of(x)) || ndt_dtype_of(x) == NDT_BOOL))
    ra = 0;
  if (!ra || !rb || (inplace && !IS_ARRAY(a))) {
    if (tx || ty) CORE(ndt_free(tx); ndt_free(ty));
    return call_binop_hook(op, a, b, inplace);
  }
  ndt_array *res = inplace ? ARR(a) : NULL;
  ndt_status st;
  core_enter();
  st = ndt_binary(&res, op, x, y);
  ndt_free(tx);
  ndt_free(ty);
  core_leave();
  if (st) return raise_status(st);
  if (inplace) {
    Py_INCREF(a);
    return fp_done(a);
  }
  return fp_done(wrap(res));
}

static PyObject *unop(PyObject *a, ndt_ufunc op) {
  if (!check_arr(a)) return NULL;
  if (unop_hook && IS_SUBCLASS(a)) {
    PyObject *o = PyLong_FromLong(op);
    if (!o) return NULL;
    PyObject *r = PyObject_CallFunctionObjArgs(unop_hook, o, a, NULL);
    Py_DECREF(o);
    return r;
  }
  ndt_array *res = NULL;
  ndt_status st;
  CORE(st = ndt_unary(&res, op, ARR(a)));
  return wrap_status(st, res);
}

/* The number protocol's binary operators (and their in-place forms). */
static PyObject *nb_add(PyObject *a, PyObject *b) { return binop(a, b, NDT_ADD, 0); }
static PyObject *nb_inplace_add(PyObject *a, PyObject *b) { return binop(a, b, NDT_ADD, 1); }
static PyObject *nb_subtract(PyObject *a, PyObject *b) { return binop(a, b, NDT_SUBTRACT, 0); }
static PyObject *nb_inplace_subtract(PyObject *a, PyObject *b) { return binop(a, b, NDT_SUBTRACT, 1); }
static PyObject *nb_multiply(PyObject *a, PyObject *b) { return binop(a, b, NDT_MULTIPLY, 0); }
static PyObject *nb_inplace_multiply(PyObject *a, PyObject *b) { return binop(a, b, NDT_MULTIPLY, 1); }
static PyObject *nb_true_divide(PyObject *a, PyObject *b) { return binop(a, b, NDT_TRUE_DIVIDE, 0); }
static PyObject *nb_inplace_true_divide(PyObject *a, PyObject *b) { return binop(a, b, NDT_TRUE_DIVIDE, 1); }
static PyObject *nb_floor_divide(PyObject *a, PyObject *b) { return binop(a, b, NDT_FLOOR_DIVIDE, 0); }
static PyObject *nb_inplace_floor_divide(PyObject *a, PyObject *b) { return binop(a, b, NDT_FLOOR_DIVIDE, 1); }
static PyObject *nb_remainder(PyObject *a, PyObject *b) { return binop(a, b, NDT_REMAINDER, 0); }
static PyObject *nb_inplace_remainder(PyObject *a, PyObject *b) { return binop(a, b, NDT_REMAINDER, 1); }
static PyObject *nb_lshift(PyObject *a, PyObject *b) { return binop(a, b, NDT_LEFT_SHIFT, 0); }
static PyObject *nb_inplace_lshift(PyObject *a, PyObject *b) { return binop(a, b, NDT_LEFT_SHIFT, 1); }
static PyObject *nb_rshift(PyObject *a, PyObject *b) { return binop(a, b, NDT_RIGHT_SHIFT, 0); }
static PyObject *nb_inplace_rshift(PyObject *a, PyObject *b) { return binop(a, b, NDT_RIGHT_SHIFT, 1); }
static PyObject *nb_and(PyObject *a, PyObject *b) { return binop(a, b, NDT_BITWISE_AND, 0); }
static PyObject *nb_inplace_and(PyObject *a, PyObject *b) { return binop(a, b, NDT_BITWISE_AND, 1); }
static PyObject *nb_or(PyObject *a, PyObject *b) { return binop(a, b, NDT_BITWISE_OR, 0); }
static PyObject *nb_inplace_or(PyObject *a, PyObject *b) { return binop(a, b, NDT_BITWISE_OR, 1); }
static PyObject *nb_xor(PyObject *a, PyObject *b) { return binop(a, b, NDT_BITWISE_XOR, 0); }
static PyObject *nb_inplace_xor(PyObject *a, PyObject *b) { return binop(a, b, NDT_BITWISE_XOR, 1); }

/* NumPy's ndarray.__pow__ shortcuts: a**2 is square(a), and for inexact a,
 * a**-1 is reciprocal(a) and a**0.5 is sqrt(a) (results differ from power:
 * bool**2 is int8, (-inf)**0.5 is nan). */
static int fast_power_op(PyObject *a, PyObject *b, ndt_ufunc *op) {
  if (!IS_ARRAY(a) || !ARR(a) || IS_SUBCLASS(a)) return 0;
  ndt_dtype t = ndt_dtype_of(ARR(a));
  int inexact = is_float_kind(t) || is_complex_kind(t);
  if (PyLong_CheckExact(b)) {
    int overflow;
    long e = PyLong_AsLongAndOverflow(b, &overflow);
    if (e == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return 0;
    }
    if (overflow) return 0;
    if (e == 2) *op = NDT_SQUARE;
    else if (e == -1 && inexact) *op = NDT_RECIPROCAL;
    else return 0;
    return 1;
  }
  if (PyFloat_CheckExact(b) && PyFloat_AS_DOUBLE(b) == 0.5 && inexact) {
    *op = NDT_SQRT;
    return 1;
  }
  return 0;
}

static PyObject *power(PyObject *a, PyObject *b, PyObject *c, int inplace) {
  if (c != Py_None) Py_RETURN_NOTIMPLEMENTED;
  ndt_ufunc op;
  if (fast_power_op(a, b, &op)) {
    ndt_array *res = inplace ? ARR(a) : NULL;
    ndt_status st;
    CORE(st = ndt_unary(&res, op, ARR(a)));
    if (st) return raise_status(st);
    if (inplace) {
      Py_INCREF(a);
      return fp_done(a);
    }
    return fp_done(wrap(res));
  }
  return binop(a, b, NDT_POWER, inplace);
}
static PyObject *nb_power(PyObject *a, PyObject *b, PyObject *c) { return power(a, b, c, 0); }
static PyObject *nb_inplace_power(PyObject *a, PyObject *b, PyObject *c) {
  return power(a, b, c, 1);
}
static PyObject *nb_negative(PyObject *a) { return unop(a, NDT_NEGATIVE); }
static PyObject *nb_positive(PyObject *a) { return unop(a, NDT_POSITIVE); }
static PyObject *nb_absolute(PyObject *a) { return unop(a, NDT_ABSOLUTE); }
static PyObject *nb_invert(PyObject *a) { return unop(a, NDT_INVERT); }

static PyObject *array_richcompare(PyObject *a, PyObject *b, int op) {
  ndt_ufunc u;
  switch (op) {
    case Py_LT: u = NDT_LESS; break;
    case Py_LE: u = NDT_LESS_EQUAL; break;
    case Py_EQ: u = NDT_EQUAL; break;
    case Py_NE: u = NDT_NOT_EQUAL; break;
    case Py_GT: u = NDT_GREATER; break;
    case Py_GE: u = NDT_GREATER_EQUAL; break;
    default: Py_RETURN_NOTIMPLEMENTED;
  }
  return binop(a, b, u, 0);
}

static PyNumberMethods array_as_number = {
  .nb_add = nb_add,
  .nb_subtract = nb_subtract,
  .nb_multiply = nb_multiply,
  .nb_remainder = nb_remainder,
  .nb_power = nb_power,
  .nb_negative = nb_negative,
  .nb_positive = nb_positive,
  .nb_absolute = nb_absolute,
  .nb_invert = nb_invert,
  .nb_lshift = nb_lshift,
  .nb_rshift = nb_rshift,
  .nb_and = nb_and,
  .nb_xor = nb_xor,
  .nb_or = nb_or,
  .nb_inplace_add = nb_inplace_add,
  .nb_inplace_subtract = nb_inplace_subtract,
  .nb_inplace_multiply = nb_inplace_multiply,
  .nb_inplace_remainder = nb_inplace_remainder,
  .nb_inplace_power = nb_inplace_power,
  .nb_inplace_lshift = nb_inplace_lshift,
  .nb_inplace_rshift = nb_inplace_rshift,
  .nb_inplace_and = nb_inplace_and,
  .nb_inplace_xor = nb_inplace_xor,
  .nb_inplace_or = nb_inplace_or,
  .nb_floor_divide = nb_floor_divide,
  .nb_true_divide = nb_true_divide,
  .nb_inplace_floor_divide = nb_inplace_floor_divide,
  .nb_inplace_true_divide = nb_inplace_true_divide,
};

/* ---- indexing ------------------------------------------------------------------- */
#define MAXIDX (2 * NDT_MAXDIMS + 1)

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
static int parse_index(PyObject *key, ndt_index *idx, int *n, int *nint) {
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

static PyObject *array_subscript_base(PyObject *self, PyObject *key);

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

static PyObject *array_subscript_base(PyObject *self, PyObject *key) {
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
    return PyObject_CallFunctionObjArgs(getitem_hook, self, key, NULL);
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
  PyObject *r = PyObject_CallFunctionObjArgs(setitem_hook, self, key, value ? value : Py_None,
                                             value ? Py_False : Py_True, NULL);
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

static PyMappingMethods array_as_mapping = {
  .mp_subscript = array_subscript,
  .mp_ass_subscript = array_ass_subscript,
};

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
 * F_CONTIGUOUS 0x2, OWNDATA 0x4, ALIGNED 0x100 (always), WRITEABLE 0x400. */
static PyObject *get_flags(ArrayObject *self, void *c) {
  (void)c;
  if (!check_arr((PyObject *)self)) return NULL;
  const ndt_array *a = self->arr;
  long f = 0x100;
  if (ndt_is_c_contiguous(a)) f |= 0x1;
  if (ndt_is_f_contiguous(a)) f |= 0x2;
  if (ndt_owns_data(a)) f |= 0x4;
  if (ndt_is_writeable(a)) f |= 0x400;
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

static PyGetSetDef array_getset[] = {
  {"_base", (getter)get_base, NULL, "the object owning a view's memory, or None", NULL},
  {"shape", (getter)get_shape, (setter)set_shape, "Tuple of array dimensions.", NULL},
  {"ndim", (getter)get_ndim, NULL, "Number of array dimensions.", NULL},
  {"size", (getter)get_size, NULL, "Number of elements in the array.", NULL},
  {"dtype", (getter)get_dtype, (setter)set_dtype, "Data-type of the array's elements.", NULL},
  {"itemsize", (getter)get_itemsize, NULL, "Length of one array element in bytes.", NULL},
  {"nbytes", (getter)get_nbytes, NULL, "Total bytes consumed by the elements.", NULL},
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
static PyObject *m_to_buffer(PyObject *self, PyObject *dst) {
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

static PyObject *m_scalar(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (!check_arr(self)) return NULL;
  ndt_array *a = ARR(self);
  ndt_dtype t = ndt_dtype_of(a);
  elem_t v;
  ndt_status st;
  CORE_BLOCKING(st = ndt_item(a, t, &v));
  if (st) return raise_status(st);
  return fp_done(elem_to_np(t, &v));
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
  int w = PyObject_IsTrue(arg);
  if (w < 0) return NULL;
  ndt_status st;
  CORE(st = ndt_set_writeable(ARR(self), w));
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

/* A new handle on the same view as a: a transpose that permutes nothing
 * (m_view, m_view_as and the buffer export's own handle). */
static ndt_status same_view(ndt_array **r, const ndt_array *a) {
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
 * (frombuffer): the data is a copy in tiles, .base names the source. */
static PyObject *m_set_base(PyObject *self, PyObject *obj) {
  if (!check_arr(self)) return NULL;
  ArrayObject *o = (ArrayObject *)self;
  Py_XSETREF(o->base, obj == Py_None ? NULL : Py_NewRef(obj));
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

static PyObject *f_subclass_hooks(PyObject *mod, PyObject *args) {
  (void)mod;
  PyObject *u, *g;
  if (!PyArg_ParseTuple(args, "OO", &u, &g)) return NULL;
  Py_XSETREF(unop_hook, u == Py_None ? NULL : Py_NewRef(u));
  Py_XSETREF(subscript_hook, g == Py_None ? NULL : Py_NewRef(g));
  Py_RETURN_NONE;
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

static PyObject *m_assign(PyObject *self, PyObject *args) {
  PyObject *src;
  int casting = NDT_CAST_UNSAFE;
  if (!check_arr(self) || !PyArg_ParseTuple(args, "O|i", &src, &casting)) return NULL;
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
  {"_astype", m_astype, METH_VARARGS, "cast copy (dtype code, casting)"},
  {"_assign", m_assign, METH_VARARGS, "self[...] = src (array or number), casting"},
  {"_same_store", m_same_store, METH_O, "views of the same store"},
  {"_is_weak", m_is_weak, METH_NOARGS, "created from a Python scalar"},
  {NULL, NULL, 0, NULL},
};

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

static int array_getbuffer(PyObject *self, Py_buffer *view, int flags) {
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
  if (!st) CORE_BLOCKING(st = ndt_host_export(lb->arr, writeable, &ptr));
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
  view->readonly = !writeable;
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

static PyBufferProcs array_as_buffer = {
  .bf_getbuffer = array_getbuffer,
  .bf_releasebuffer = array_releasebuffer,
};

/* The address a buffer export starts at (for a.ctypes.data). */
static PyObject *f_buffer_address(PyObject *m, PyObject *obj) {
  (void)m;
  if (!PyMemoryView_Check(obj)) {
    PyErr_SetString(PyExc_TypeError, "expected a memoryview");
    return NULL;
  }
  return PyLong_FromVoidPtr(PyMemoryView_GET_BUFFER(obj)->buf);
}

static PyTypeObject ArrayType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ndtile._core.Array",
  .tp_basicsize = sizeof(ArrayObject),
  .tp_dealloc = (destructor)array_dealloc,
  .tp_as_number = &array_as_number,
  .tp_as_mapping = &array_as_mapping,
  .tp_as_buffer = &array_as_buffer,
  .tp_hash = PyObject_HashNotImplemented,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "A tiled N-d array handle (the base of ndtile.ndarray).",
  .tp_richcompare = array_richcompare,
  .tp_weaklistoffset = offsetof(ArrayObject, weakrefs),
  .tp_methods = array_methods,
  .tp_getset = array_getset,
};

/* ---- module functions ---------------------------------------------------------------- */
static PyObject *f_setup(PyObject *mod, PyObject *args) {
  (void)mod;
  PyObject *type, *dtypes, *scalars, *ints, *bh, *gh, *sh;
  if (!PyArg_ParseTuple(args, "O!OOO!OOO", &PyType_Type, &type, &dtypes, &scalars,
                        &PyTuple_Type, &ints, &bh, &gh, &sh))
    return NULL;
  if (!PyType_IsSubtype((PyTypeObject *)type, &ArrayType)) {
    PyErr_SetString(PyExc_TypeError, "the array type must derive from _core.Array");
    return NULL;
  }
  if (PySequence_Size(dtypes) != NDT_NTYPES || PySequence_Size(scalars) != NDT_NTYPES) {
    PyErr_SetString(PyExc_ValueError, "expected one dtype and scalar type per ndtile dtype");
    return NULL;
  }
  for (int i = 0; i < NDT_NTYPES; i++) {
    PyObject *d = PySequence_GetItem(dtypes, i), *s = PySequence_GetItem(scalars, i);
    if (!d || !s) {
      Py_XDECREF(d);
      Py_XDECREF(s);
      return NULL;
    }
    Py_XSETREF(np_dtypes[i], d);
    Py_XSETREF(np_scalars[i], s);
  }
  Py_INCREF(type);
  if (wrap_type != &ArrayType) Py_DECREF(wrap_type);
  wrap_type = (PyTypeObject *)type;
  Py_INCREF(ints);
  Py_XSETREF(int_scalar_types, ints);
#define SETHOOK(var, o) \
  Py_XDECREF(var);      \
  var = (o) == Py_None ? NULL : (Py_INCREF(o), (o))
  SETHOOK(binop_hook, bh);
  SETHOOK(getitem_hook, gh);
  SETHOOK(setitem_hook, sh);
#undef SETHOOK
  Py_RETURN_NONE;
}

static int get_dtype_arg(PyObject *o, ndt_dtype *t) { return parse_dtype(o, t); }

typedef ndt_status (*create_fn)(ndt_array **, int, const int64_t *, ndt_dtype);

static PyObject *create(PyObject *args, create_fn fn) {
  PyObject *shp, *dto;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "OO", &shp, &dto) || !parse_shape_nonneg(shp, &nd, shape) ||
      !get_dtype_arg(dto, &t))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = fn(&r, nd, shape, t));
  return wrap_status(st, r);
}

static PyObject *f_empty(PyObject *m, PyObject *a) { (void)m; return create(a, ndt_empty); }
static PyObject *f_zeros(PyObject *m, PyObject *a) { (void)m; return create(a, ndt_zeros); }
static PyObject *f_ones(PyObject *m, PyObject *a) { (void)m; return create(a, ndt_ones); }

static PyObject *f_full(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *shp, *dto, *val;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  ndt_dtype t, vt;
  elem_t v;
  if (!PyArg_ParseTuple(args, "OOO", &shp, &dto, &val) || !parse_shape_nonneg(shp, &nd, shape) ||
      !get_dtype_arg(dto, &t) || pynumber_elem(val, &vt, &v) < 0)
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_full(&r, nd, shape, t, &v, vt));
  return wrap_status(st, r);
}

static PyObject *f_scalar(PyObject *m, PyObject *args) {
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

static PyObject *f_arange(PyObject *m, PyObject *args) {
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

static PyObject *f_linspace(PyObject *m, PyObject *args) {
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

static PyObject *f_eye(PyObject *m, PyObject *args) {
  (void)m;
  long long n, mm, k;
  PyObject *dto;
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "LLLO", &n, &mm, &k, &dto) || !get_dtype_arg(dto, &t)) return NULL;
  if (n < 0 || mm < -1) {
    PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_eye(&r, n, mm, k, t));
  return wrap_status(st, r);
}

static PyObject *f_from_buffer(PyObject *m, PyObject *args) {
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

/* Inputs of a ufunc: Arrays, or Python scalars (weak, in their default
 * dtype: the core resolves and casts them as NumPy does). op: the ufunc,
 * or -1. Scalars come from the weak scalar cache (borrowed: tmps[i] stays
 * NULL). */
static int gather_inputs(PyObject *seq, int op, int *nin, const ndt_array **in,
                         ndt_array **tmps) {
  PyObject *fast = PySequence_Fast(seq, "inputs must be a sequence");
  if (!fast) return 0;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > 3) {
    Py_DECREF(fast);
    PyErr_SetString(PyExc_ValueError, "too many inputs");
    return 0;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
    tmps[i] = NULL;
    if (IS_ARRAY(o)) {
      if (!check_arr(o)) goto fail;
      in[i] = ARR(o);
      continue;
    }
    elem_t v;
    ndt_dtype vt;
    int r = pyscalar_elem(o, &vt, &v);
    if (r <= 0) {
      if (r == 0)
        PyErr_Format(PyExc_TypeError, "unsupported ufunc operand of type %s",
                     Py_TYPE(o)->tp_name);
      goto fail;
    }
    int owned;
    ndt_array *a;
    ndt_status st = weak_scalar(vt, &v, &a, &owned);
    if (st) {
      raise_status(st);
      goto fail;
    }
    in[i] = a;
    continue;
  fail:
    for (Py_ssize_t j = 0; j < i; j++) CORE(ndt_free(tmps[j]));
    Py_DECREF(fast);
    return 0;
  }
  *nin = (int)n;
  Py_DECREF(fast);
  return 1;
}

static PyObject *f_apply(PyObject *m, PyObject *args) {
  (void)m;
  int op;
  PyObject *inputs, *out = Py_None, *dto = NULL;
  ndt_dtype t = NDT_DTYPE_DEFAULT;
  if (!PyArg_ParseTuple(args, "iO|OO", &op, &inputs, &out, &dto)) return NULL;
  if (dto && !get_dtype_arg(dto, &t)) return NULL;
  if (out != Py_None && !check_arr(out)) return NULL;
  const ndt_array *in[3];
  ndt_array *tmps[3] = {0};
  int nin;
  if (!gather_inputs(inputs, op, &nin, in, tmps)) return NULL;
  ndt_array *res = out == Py_None ? NULL : ARR(out);
  ndt_status st;
  core_enter();
  st = ndt_apply(&res, (ndt_ufunc)op, nin, in, t);
  for (int i = 0; i < nin; i++) ndt_free(tmps[i]);
  core_leave();
  if (st) return raise_status(st);
  if (out != Py_None) {
    Py_INCREF(out);
    return fp_done(out);
  }
  return fp_done(wrap(res));
}

static PyObject *f_result_type(PyObject *m, PyObject *args) {
  (void)m;
  int op;
  PyObject *inputs, *dto = NULL;
  ndt_dtype t = NDT_DTYPE_DEFAULT, rt;
  if (!PyArg_ParseTuple(args, "iO|O", &op, &inputs, &dto)) return NULL;
  if (dto && !get_dtype_arg(dto, &t)) return NULL;
  const ndt_array *in[3];
  ndt_array *tmps[3] = {0};
  int nin;
  if (!gather_inputs(inputs, op, &nin, in, tmps)) return NULL;
  ndt_status st;
  core_enter();
  st = ndt_ufunc_result_type((ndt_ufunc)op, nin, in, t, &rt);
  for (int i = 0; i < nin; i++) ndt_free(tmps[i]);
  core_leave();
  if (st) return raise_status(st);
  return PyLong_FromLong(rt);
}

/* ufunc_resolve(op, dtypes, weak, dt=-1) -> (loop dtypes: inputs then
 * output, flags): ndt_ufunc_resolve on dtype codes; weak is a sequence of
 * flags (Python scalars). */
static PyObject *f_ufunc_resolve(PyObject *m, PyObject *args) {
  (void)m;
  int op;
  PyObject *dts, *wks, *dto = NULL;
  ndt_dtype t = NDT_DTYPE_DEFAULT;
  if (!PyArg_ParseTuple(args, "iOO|O", &op, &dts, &wks, &dto)) return NULL;
  if (dto && !get_dtype_arg(dto, &t)) return NULL;
  Py_ssize_t n = PySequence_Size(dts);
  if (n < 0) return NULL;
  if (n > 3 || PySequence_Size(wks) != n) {
    PyErr_SetString(PyExc_ValueError, "ufunc_resolve: bad inputs");
    return NULL;
  }
  ndt_dtype types[3], loop[4];
  int weak[3];
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *d = PySequence_GetItem(dts, i), *w = d ? PySequence_GetItem(wks, i) : NULL;
    long v = d ? PyLong_AsLong(d) : -1;
    int b = w ? PyObject_IsTrue(w) : -1;
    Py_XDECREF(d);
    Py_XDECREF(w);
    if ((v == -1 && PyErr_Occurred()) || b < 0) return NULL;
    types[i] = (ndt_dtype)v;
    weak[i] = b;
  }
  unsigned flags;
  ndt_status st = ndt_ufunc_resolve((ndt_ufunc)op, (int)n, types, weak, t, loop, &flags);
  if (st) return raise_status(st);
  PyObject *r = PyTuple_New(n + 1);
  if (!r) return NULL;
  for (Py_ssize_t i = 0; i <= n; i++) PyTuple_SET_ITEM(r, i, PyLong_FromLong(loop[i]));
  return Py_BuildValue("(NI)", r, flags);
}

static PyObject *f_clip(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *lo, *hi, *out = Py_None;
  if (!PyArg_ParseTuple(args, "OOO|O", &a, &lo, &hi, &out)) return NULL;
  PyObject *objs[3] = {a, lo, hi};
  const ndt_array *in[3] = {0};
  ndt_array *tmps[3] = {0};
  for (int i = 0; i < 3; i++) {
    if (i > 0 && objs[i] == Py_None) continue;
    PyObject *one = PyTuple_Pack(1, objs[i]);
    int n;
    const ndt_array *x[1];
    ndt_array *tx[1];
    int ok = one && gather_inputs(one, -1, &n, x, tx);
    Py_XDECREF(one);
    if (!ok) {
      for (int j = 0; j < i; j++) CORE(ndt_free(tmps[j]));
      return NULL;
    }
    in[i] = x[0];
    tmps[i] = tx[0];
  }
  if (out != Py_None && !check_arr(out)) {
    for (int j = 0; j < 3; j++) CORE(ndt_free(tmps[j]));
    return NULL;
  }
  ndt_array *res = out == Py_None ? NULL : ARR(out);
  ndt_status st;
  core_enter();
  st = ndt_clip(&res, in[0], in[1], in[2]);
  for (int j = 0; j < 3; j++) ndt_free(tmps[j]);
  core_leave();
  if (st) return raise_status(st);
  if (out != Py_None) {
    Py_INCREF(out);
    return fp_done(out);
  }
  return fp_done(wrap(res));
}

static PyObject *f_reduce(PyObject *m, PyObject *args) {
  (void)m;
  int op, keepdims;
  PyObject *a, *axes_o, *dto;
  long long ddof = 0;
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "iOOpO|L", &op, &a, &axes_o, &keepdims, &dto, &ddof) ||
      !check_arr(a) || !get_dtype_arg(dto, &t))
    return NULL;
  uint64_t axes;
  if (axes_o == Py_None) axes = NDT_ALL_AXES;
  else {
    axes = PyLong_AsUnsignedLongLongMask(axes_o);
    if (axes == (uint64_t)-1 && PyErr_Occurred()) return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_reduce(&r, (ndt_reduce_op)op, ARR(a), axes, keepdims, t, ddof));
  return wrap_status(st, r);
}

/* matmul(a, b, out=None) and dot(a, b, out=None): ndtile arrays only. */
static PyObject *product(PyObject *args, int dot) {
  PyObject *a, *b, *out = Py_None;
  if (!PyArg_ParseTuple(args, "OO|O", &a, &b, &out) || !check_arr(a) || !check_arr(b) ||
      (out != Py_None && !check_arr(out)))
    return NULL;
  ndt_array *r = out == Py_None ? NULL : ARR(out);
  ndt_status st;
  CORE(st = dot ? ndt_dot(&r, ARR(a), ARR(b)) : ndt_matmul(&r, ARR(a), ARR(b)));
  if (st) return raise_status(st);
  if (out != Py_None) {
    Py_INCREF(out);
    return out;
  }
  return wrap(r);
}
static PyObject *f_matmul(PyObject *m, PyObject *args) { (void)m; return product(args, 0); }
static PyObject *f_dot(PyObject *m, PyObject *args) { (void)m; return product(args, 1); }

static PyObject *f_gather(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *seq;
  if (!PyArg_ParseTuple(args, "OO", &a, &seq) || !check_arr(a)) return NULL;
  PyObject *fast = PySequence_Fast(seq, "gather: indices must be a sequence");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n != ndt_ndim(ARR(a)) || n > NDT_MAXDIMS) {
    Py_DECREF(fast);
    PyErr_SetString(PyExc_IndexError, "gather: one index array per axis");
    return NULL;
  }
  const ndt_array *idx[NDT_MAXDIMS];
  for (Py_ssize_t k = 0; k < n; k++) {
    PyObject *o = PySequence_Fast_GET_ITEM(fast, k);
    if (!check_arr(o)) {
      Py_DECREF(fast);
      return NULL;
    }
    idx[k] = ARR(o);
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_gather(&r, ARR(a), idx));
  Py_DECREF(fast);   /* idx points into arrays `a` and the caller still hold */
  return wrap_status(st, r);
}

static PyObject *f_bincount(PyObject *m, PyObject *args) {
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

static PyObject *f_scan(PyObject *m, PyObject *args) {
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

static PyObject *f_argwhere(PyObject *m, PyObject *a) {
  (void)m;
  if (!check_arr(a)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_argwhere(&r, ARR(a)));
  return wrap_status(st, r);
}

/* An axis as an int for the core; out-of-range values clamp to just outside
 * the possible range, so the core still reports NumPy's AxisError. */
static int clamp_axis(long v) {
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
static PyObject *f_sort(PyObject *m, PyObject *args) {
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
static PyObject *f_partition(PyObject *m, PyObject *args) {
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

static PyObject *f_searchsorted(PyObject *m, PyObject *args) {
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

static PyObject *f_histogram_bins(PyObject *m, PyObject *args) {
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

static PyObject *f_histogram_count(PyObject *m, PyObject *args) {
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

/* fft(a, axis, n, kind, scale): ndt_fft (kind 0 forward, 1 backward, 2 r2c, 3 c2r). */
static PyObject *f_fft(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a;
  long axis;
  long long n;
  int kind;
  double scale;
  if (!PyArg_ParseTuple(args, "OlLid", &a, &axis, &n, &kind, &scale) || !check_arr(a))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_fft(&r, ARR(a), clamp_axis(axis), (int64_t)n, (ndt_fft_kind)kind, scale));
  return wrap_status(st, r);
}

static PyObject *f_promote(PyObject *m, PyObject *args) {
  (void)m;
  int a, aw, b, bw;
  if (!PyArg_ParseTuple(args, "iiii", &a, &aw, &b, &bw)) return NULL;
  return PyLong_FromLong(ndt_promote((ndt_dtype)a, aw, (ndt_dtype)b, bw));
}

static PyObject *f_can_cast(PyObject *m, PyObject *args) {
  (void)m;
  int a, b, c;
  if (!PyArg_ParseTuple(args, "iii", &a, &b, &c)) return NULL;
  return PyBool_FromLong(ndt_can_cast((ndt_dtype)a, (ndt_dtype)b, (ndt_casting)c));
}

static PyObject *f_broadcast_shapes(PyObject *m, PyObject *shapes) {
  (void)m;
  PyObject *fast = PySequence_Fast(shapes, "expected a sequence of shapes");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > 64) {
    Py_DECREF(fast);
    PyErr_SetString(PyExc_ValueError, "too many shapes");
    return NULL;
  }
  int ndims[64];
  int64_t buf[64][NDT_MAXDIMS];
  const int64_t *ptrs[64];
  for (Py_ssize_t i = 0; i < n; i++) {
    if (!parse_shape(PySequence_Fast_GET_ITEM(fast, i), &ndims[i], buf[i])) {
      Py_DECREF(fast);
      return NULL;
    }
    ptrs[i] = buf[i];
  }
  Py_DECREF(fast);
  int nd;
  int64_t out[NDT_MAXDIMS];
  ndt_status st;
  CORE(st = ndt_broadcast_shapes((int)n, ndims, ptrs, &nd, out));
  if (st) return raise_status(st);
  return shape_tuple(nd, out);
}

/* ---- correlation, diagonal view, put (src/ops/convolve.c) ---- */
static PyObject *f_correlate(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *v;
  long long lag0, n;
  int conj;
  if (!PyArg_ParseTuple(args, "OOLLi", &a, &v, &lag0, &n, &conj) || !check_arr(a) ||
      !check_arr(v))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_correlate(&r, ARR(a), ARR(v), lag0, n, conj));
  return wrap_status(st, r);
}

static PyObject *f_diagonal(PyObject *m, PyObject *args) {
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

static PyObject *f_put(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *idx, *vals;
  if (!PyArg_ParseTuple(args, "OOO", &a, &idx, &vals) || !check_arr(a) || !check_arr(idx) ||
      !check_arr(vals))
    return NULL;
  ndt_status st;
  CORE(st = ndt_put(ARR(a), ARR(idx), ARR(vals)));
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

/* put_op(a, flat_idx int64, vals|None, op, loop dtypes): ufunc.at (ndt_put_op). */
static PyObject *f_put_op(PyObject *m, PyObject *args) {
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
  Py_RETURN_NONE;
}

/* view_dtype(a, code): a's bytes as another dtype of the same size. */
static PyObject *f_view_dtype(PyObject *m, PyObject *args) {
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
static PyObject *f_view_itemsize(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *shp, *str;
  int t;
  long long off;
  if (!PyArg_ParseTuple(args, "OiOOL", &a, &t, &shp, &str, &off) || !check_arr(a)) return NULL;
  int nd, ns;
  int64_t shape[NDT_MAXDIMS], strides[NDT_MAXDIMS];
  if (!parse_shape_nonneg(shp, &nd, shape) || !parse_shape(str, &ns, strides)) return NULL;
  if (ns != nd) {
    PyErr_SetString(PyExc_ValueError, "view_itemsize: one stride per dimension");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE_BLOCKING(st = ndt_view_itemsize(&r, ARR(a), (ndt_dtype)t, nd, shape, strides, off));
  return wrap_status(st, r);
}

/* from_memory(obj, code, writable): an array over obj's memory (a C-contiguous
 * buffer of code's dtype; ndt_from_memory), holding the buffer until the
 * last array over it goes; NotImplementedError where the core cannot share
 * it (the caller copies). The result names itself as its views' .base. */
static void release_buffer(void *ctx) {
  PyGILState_STATE g = PyGILState_Ensure();
  PyBuffer_Release((Py_buffer *)ctx);
  PyMem_RawFree(ctx);
  PyGILState_Release(g);
}

static PyObject *f_from_memory(PyObject *m, PyObject *args) {
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
  CORE(st = ndt_from_memory(&r, view->buf, (ndt_dtype)t, (int64_t)view->len / isz, !writable,
                            release_buffer, view));
  if (st) {
    PyBuffer_Release(view);
    PyMem_RawFree(view);
    return raise_status(st);
  }
  PyObject *o = wrap(r);
  if (o) ndt_set_owner_ctx(ARR(o), o);
  return o;
}

static PyObject *f_set_dtype_hook(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *fn, *rs;
  if (!PyArg_ParseTuple(args, "OO", &fn, &rs)) return NULL;
  Py_XSETREF(dtype_setter, Py_NewRef(fn));
  Py_XSETREF(resize_impl, Py_NewRef(rs));
  Py_RETURN_NONE;
}

/* reduceat(a, axis, idx int64, reduce op): ufunc.reduceat (ndt_reduceat). */
static PyObject *f_reduceat(PyObject *m, PyObject *args) {
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

/* take_owner(v, from): v becomes the owner of its store (ndt_take_owner). */
static PyObject *f_take_owner(PyObject *m, PyObject *args) {
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
static PyObject *f_as_strided(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *shp, *str;
  long long offset;
  if (!PyArg_ParseTuple(args, "OLOO", &a, &offset, &shp, &str) || !check_arr(a)) return NULL;
  int nd, ns;
  int64_t shape[NDT_MAXDIMS], strides[NDT_MAXDIMS];
  if (!parse_shape_nonneg(shp, &nd, shape) || !parse_shape(str, &ns, strides)) return NULL;
  if (ns != nd) {
    PyErr_SetString(PyExc_ValueError, "as_strided: one stride per dimension");
    return NULL;
  }
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_as_strided(&r, ARR(a), offset, nd, shape, strides));
  return wrap_status(st, r);
}

static PyObject *f_sync(PyObject *m, PyObject *noargs) {
  (void)m;
  (void)noargs;
  ndt_status st;
  CORE_BLOCKING(st = ndt_sync());
  if (st) return raise_status(st);
  return fp_done(Py_NewRef(Py_None));
}

static PyObject *f_set_workers(PyObject *m, PyObject *arg) {
  (void)m;
  long n = PyLong_AsLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  ndt_status st;
  CORE_BLOCKING(st = ndt_set_workers((int)n));
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

static PyObject *f_set_tile_bytes(PyObject *m, PyObject *arg) {
  (void)m;
  long long n = PyLong_AsLongLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  ndt_status st;
  CORE(st = ndt_set_tile_bytes(n));
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

static PyObject *f_set_inline_elems(PyObject *m, PyObject *arg) {
  (void)m;
  long long n = PyLong_AsLongLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  ndt_status st;
  CORE(st = ndt_set_inline_elems(n));
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

/* Runtime queries with no arguments, returned as an int. */
static PyObject *int_result(long long n) { return PyLong_FromLongLong(n); }
static PyObject *f_workers(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  long long n;
  CORE(n = ndt_workers());
  return int_result(n);
}
static PyObject *f_tile_bytes(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  long long n;
  CORE(n = ndt_tile_bytes());
  return int_result(n);
}
/* many processes: this process's rank, and how many there are */
static PyObject *f_rank(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  long long n;
  CORE(n = ndt_rank());
  return int_result(n);
}
static PyObject *f_nranks(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  long long n;
  CORE(n = ndt_nranks());
  return int_result(n);
}

static PyObject *f_barrier(PyObject *m, PyObject *noargs) {
  (void)m;
  (void)noargs;
  ndt_status st;
  CORE_BLOCKING(st = ndt_barrier());
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

/* bcast_bytes(data|None, root): root's bytes on every rank. */
static PyObject *f_bcast_bytes(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *obj;
  int root;
  if (!PyArg_ParseTuple(args, "Oi", &obj, &root)) return NULL;
  int me;
  CORE(me = ndt_rank());
  long long n = 0;
  if (me == root) {
    if (!PyBytes_Check(obj)) return PyErr_Format(PyExc_TypeError, "root must pass bytes");
    n = PyBytes_GET_SIZE(obj);
  }
  ndt_status st;
  CORE_BLOCKING(st = ndt_bcast(&n, sizeof n, root));
  if (st) return raise_status(st);
  PyObject *out = me == root ? (Py_INCREF(obj), obj) : PyBytes_FromStringAndSize(NULL, n);
  if (!out) return NULL;
  char *buf = PyBytes_AS_STRING(out);
  CORE_BLOCKING(st = ndt_bcast(buf, (size_t)n, root));
  if (st) {
    Py_DECREF(out);
    return raise_status(st);
  }
  return out;
}

static PyObject *f_abort(PyObject *m, PyObject *arg) {
  (void)m;
  long code = PyLong_AsLong(arg);
  if (code == -1 && PyErr_Occurred()) return NULL;
  ndt_abort((int)code);
  Py_RETURN_NONE;   /* not reached */
}

/* set_exit_code(n): the status the program ends with (sys.exit) */
static PyObject *f_set_exit_code(PyObject *m, PyObject *arg) {
  (void)m;
  long code = PyLong_AsLong(arg);
  if (code == -1 && PyErr_Occurred()) return NULL;
  ndt_set_exit_code((int)code);
  Py_RETURN_NONE;
}

/* end_together(): the program ends (ndt_end_together) */
static PyObject *f_end_together(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  CORE_BLOCKING(ndt_end_together());
  Py_RETURN_NONE;
}

static PyObject *f_comm_stats(PyObject *m, PyObject *args) {
  (void)m;
  int reset = 0;
  if (!PyArg_ParseTuple(args, "|p", &reset)) return NULL;
  ndt_comm_stats c;
  CORE(ndt_comm_stats_get(&c); if (reset) ndt_comm_stats_reset());
  return Py_BuildValue("{sLsLsLsLsLsL}", "sends", (long long)c.sends, "send_bytes",
                       (long long)c.send_bytes, "recvs", (long long)c.recvs, "recv_bytes",
                       (long long)c.recv_bytes, "collectives", (long long)c.collectives,
                       "coll_bytes", (long long)c.coll_bytes);
}

static PyObject *f_tiles_for(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *shp, *dto;
  int nd;
  int64_t shape[NDT_MAXDIMS];
  ndt_dtype t;
  if (!PyArg_ParseTuple(args, "OO", &shp, &dto) || !parse_shape_nonneg(shp, &nd, shape) ||
      !get_dtype_arg(dto, &t))
    return NULL;
  int64_t n;
  CORE(n = ndt_tiles_for(nd, shape, t));
  return PyLong_FromLongLong(n);
}

/* host_tiles(a, for_write) -> [(start, len, memoryview), ...]: the tiles of
 * a this rank owns (ndt_host_tiles), each a memoryview of its bytes
 * (writable when for_write). The views do not keep a alive: the caller
 * (ndtile.io) holds a while it uses them, and records no work on a meanwhile. */
static PyObject *f_host_tiles(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *o;
  int for_write;
  if (!PyArg_ParseTuple(args, "Op", &o, &for_write) || !check_arr(o)) return NULL;
  ndt_array *a = ARR(o);
  int64_t n = 0;
  ndt_status st;
  CORE_BLOCKING(st = ndt_host_tiles(a, for_write, NULL, 0, &n));
  if (st) return raise_status(st);
  ndt_host_tile *t = PyMem_Calloc((size_t)(n ? n : 1), sizeof *t);
  if (!t) return PyErr_NoMemory();
  int64_t n2 = 0;
  CORE_BLOCKING(st = ndt_host_tiles(a, for_write, t, n, &n2));
  if (st) {
    PyMem_Free(t);
    return raise_status(st);
  }
  Py_ssize_t isz = (Py_ssize_t)ndt_store_itemsize(a);
  PyObject *list = PyList_New(0);
  for (int64_t k = 0; list && k < n && k < n2; k++) {
    PyObject *mv = PyMemoryView_FromMemory((char *)t[k].data, (Py_ssize_t)t[k].len * isz,
                                           for_write ? PyBUF_WRITE : PyBUF_READ);
    PyObject *item = mv ? Py_BuildValue("(LLN)", (long long)t[k].start, (long long)t[k].len, mv)
                        : NULL;
    if (!item || PyList_Append(list, item) < 0) Py_CLEAR(list);
    Py_XDECREF(item);
  }
  PyMem_Free(t);
  return list;
}

/* memory_usage(): (bytes reserved by live arrays, bytes of data buffers
 * held, the limit) */
static PyObject *f_memory_usage(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  int64_t st, data, limit;
  CORE(ndt_memory_usage(&st, &data, &limit));
  return Py_BuildValue("(LLL)", (long long)st, (long long)data, (long long)limit);
}

/* memory_stats() -> [dict per memory]: ndt_memory_stats_get (host first). */
static PyObject *f_memory_stats(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  PyObject *out = PyList_New(0);
  for (int i = 0; out; i++) {
    ndt_memory_stats ms;
    int r;
    CORE(r = ndt_memory_stats_get(i, &ms));
    if (r) break;
    PyObject *d = Py_BuildValue("{s:s,s:L,s:L,s:L,s:L,s:L,s:L}", "name", ms.name, "in_use",
                                (long long)ms.in_use, "peak", (long long)ms.peak, "cached",
                                (long long)ms.cached, "peak_with_cache",
                                (long long)ms.peak_with_cache, "reserved",
                                (long long)ms.reserved, "capacity", (long long)ms.capacity);
    if (!d || PyList_Append(out, d)) {
      Py_XDECREF(d);
      Py_DECREF(out);
      return NULL;
    }
    Py_DECREF(d);
  }
  return out;
}

/* build_info() -> dict: ndt_build_info_get. */
static PyObject *f_build_info(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  ndt_build_info b;
  CORE_BLOCKING(ndt_build_info_get(&b));
  return Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:i,s:s,s:O,s:s,s:i,s:i,s:i,s:L,s:L,s:s}",
                       "blas", b.blas, "blas_config", b.blas_config, "blas_core", b.blas_core,
                       "blas_path", b.blas_path, "sleef", b.sleef, "simd_level", b.simd_level,
                       "simd", b.simd, "mpi", b.mpi ? Py_True : Py_False, "mpi_library",
                       b.mpi_library, "rank", b.rank, "ranks", b.ranks, "workers", b.workers,
                       "tile_bytes", (long long)b.tile_bytes, "inline_elems",
                       (long long)b.inline_elems, "compiler", b.compiler);
}

/* processors() -> tuple of the registered processors' names (cpu first). */
static PyObject *f_processors(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  int n;
  CORE(n = ndt_processor_count());
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    const char *name;
    CORE(name = ndt_processor_name(i));
    PyObject *u = PyUnicode_FromString(name ? name : "?");
    if (!u) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, u);
  }
  return t;
}

/* trace_stop(): the timeline is dropped, nothing written (the launcher);
 * trace_file(): the file being recorded for, or None. */
static PyObject *f_trace_stop(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  CORE(ndt_trace_stop());
  Py_RETURN_NONE;
}
static PyObject *f_trace_file(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  const char *f;
  CORE(f = ndt_trace_file());
  if (!f) Py_RETURN_NONE;
  return PyUnicode_FromString(f);
}

static PyObject *f_set_memory_limit(PyObject *m, PyObject *arg) {
  (void)m;
  long long n = PyLong_AsLongLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  CORE(ndt_set_memory_limit(n));
  Py_RETURN_NONE;
}

/* interrupt(): what Ctrl-C does, callable from any thread (tests) */
static PyObject *f_interrupt(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  ndt_interrupt();
  Py_RETURN_NONE;
}

static PyObject *f_debug_fail_alloc_after(PyObject *m, PyObject *arg) {
  (void)m;
  long long n = PyLong_AsLongLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  CORE(ndt_debug_fail_alloc_after(n));
  Py_RETURN_NONE;
}

static PyObject *f_init(PyObject *m, PyObject *args) {
  (void)m;
  ndt_config cfg = {0, 0, -1};
  long long tb = 0, ie = -1;
  if (!PyArg_ParseTuple(args, "|iLL", &cfg.workers, &tb, &ie)) return NULL;
  cfg.tile_bytes = tb;
  cfg.inline_elems = ie;
  ndt_status st;
  CORE_BLOCKING(st = ndt_init(&cfg));
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

/* setting_names() -> tuple; parse_setting(name, text) -> int (ValueError
 * naming the variable and the accepted forms); setting_value(name) -> int:
 * the runtime's parser and values (src/runtime/env.c). */
static PyObject *f_setting_names(PyObject *m, PyObject *noarg) {
  (void)m;
  (void)noarg;
  int n = 0;
  while (ndt_setting_name(n)) n++;
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *s = PyUnicode_FromString(ndt_setting_name(i));
    if (!s) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, s);
  }
  return t;
}

static PyObject *f_parse_setting(PyObject *m, PyObject *args) {
  (void)m;
  const char *name, *text;
  if (!PyArg_ParseTuple(args, "ss", &name, &text)) return NULL;
  int64_t v;
  ndt_status st = ndt_setting_parse(name, text, &v);
  if (st) return raise_status(st);
  return PyLong_FromLongLong((long long)v);
}

static PyObject *f_setting_value(PyObject *m, PyObject *args) {
  (void)m;
  const char *name;
  if (!PyArg_ParseTuple(args, "s", &name)) return NULL;
  int64_t v;
  ndt_status st;
  CORE_BLOCKING(st = ndt_setting_value(name, &v));
  if (st) return raise_status(st);
  const char *word = ndt_setting_choice(name, v);   /* a word setting: its word */
  if (word) return PyUnicode_FromString(word);
  return PyLong_FromLongLong((long long)v);
}

static PyObject *f_status_string(PyObject *m, PyObject *arg) {
  (void)m;
  long s = PyLong_AsLong(arg);
  if (s == -1 && PyErr_Occurred()) return NULL;
  return PyUnicode_FromString(ndt_status_string((ndt_status)s));
}

/* linalg(op, a, b|None, flags, param): tuple of the op's results. */
static PyObject *f_linalg(PyObject *m, PyObject *args) {
  (void)m;
  int op, flags;
  double param;
  PyObject *a, *b;
  if (!PyArg_ParseTuple(args, "iOOid", &op, &a, &b, &flags, &param) || !check_arr(a) ||
      (b != Py_None && !check_arr(b)))
    return NULL;
  ndt_array *r[NDT_LINALG_NOUT] = {NULL};
  ndt_status st;
  CORE(st = ndt_linalg(r, (ndt_linalg_op)op, ARR(a), b == Py_None ? NULL : ARR(b),
                       (ndt_linalg_flags)flags, param));
  if (st) return raise_status(st);
  int n = 0;
  while (n < NDT_LINALG_NOUT && r[n]) n++;
  PyObject *t = PyTuple_New(n);
  for (int i = 0; i < n; i++) {
    PyObject *o = t ? wrap(r[i]) : NULL;
    if (!o) {
      for (int j = t ? i + 1 : i; j < n; j++) CORE(ndt_free(r[j]));
      Py_XDECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, o);
  }
  return t;
}

/* Test hook: raise the exception a status maps to, with a message. */
static PyObject *f_raise_status(PyObject *m, PyObject *arg) {
  (void)m;
  long s = PyLong_AsLong(arg);
  if (s == -1 && PyErr_Occurred()) return NULL;
  return raise_status((ndt_status)s);
}

/* ---- random numbers: the Rng type ------------------------------------------------ */
/* Owns an ndt_rng (the core's counter-based Philox generator). Each sampler
 * takes (shape, dtype code, parameters...) and returns a new array; the
 * ndtile.random package builds NumPy's Generator/RandomState on top. The
 * generator is touched only with the core lock held. */
typedef struct {
  PyObject_HEAD
  ndt_rng *rng;
} RngObject;

static PyTypeObject RngType;

static int rng_init(RngObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"seed", NULL};
  PyObject *seed_o = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:Rng", kwlist, &seed_o)) return -1;
  unsigned long long seed = 0;
  if (seed_o) {
    PyObject *i = PyNumber_Index(seed_o);
    if (!i) return -1;
    seed = PyLong_AsUnsignedLongLong(i);
    Py_DECREF(i);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
      if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "seed must be in [0, 2**64)");
      }
      return -1;
    }
  }
  ndt_status st;
  if (self->rng) {
    ndt_rng_state s = {seed, 0, 0};
    CORE(st = ndt_rng_set_state(self->rng, &s));
  } else {
    CORE(st = ndt_rng_new(&self->rng, seed));
  }
  if (st) {
    raise_status(st);
    return -1;
  }
  return 0;
}

static void rng_dealloc(RngObject *self) {
  if (self->rng) CORE(ndt_rng_free(self->rng));
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int rng_ok(RngObject *self) {
  if (!self->rng) {
    PyErr_SetString(PyExc_ValueError, "Rng is not initialised");
    return 0;
  }
  return 1;
}

/* The shape and dtype code every sampler starts with. */
static int rng_shape_dt(RngObject *self, PyObject *shp, PyObject *dto, int *nd, int64_t *shape,
                        ndt_dtype *t) {
  return rng_ok(self) && parse_shape_nonneg(shp, nd, shape) && get_dtype_arg(dto, t);
}

#define RNG_VARS              \
  PyObject *shp, *dto;        \
  int nd;                     \
  int64_t shape[NDT_MAXDIMS]; \
  ndt_dtype t;                \
  ndt_array *r = NULL;        \
  ndt_status st

static PyObject *rng_random(RngObject *self, PyObject *args) {
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OO", &shp, &dto) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  CORE(st = ndt_rng_random(&r, self->rng, nd, shape, t));
  return wrap_status(st, r);
}

static PyObject *rng_uniform(RngObject *self, PyObject *args) {
  double low, high;
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OOdd", &shp, &dto, &low, &high) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  CORE(st = ndt_rng_uniform(&r, self->rng, nd, shape, low, high, t));
  return wrap_status(st, r);
}

static PyObject *rng_standard_normal(RngObject *self, PyObject *args) {
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OO", &shp, &dto) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  CORE(st = ndt_rng_standard_normal(&r, self->rng, nd, shape, t));
  return wrap_status(st, r);
}

static PyObject *rng_normal(RngObject *self, PyObject *args) {
  double loc, scale;
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OOdd", &shp, &dto, &loc, &scale) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  CORE(st = ndt_rng_normal(&r, self->rng, nd, shape, loc, scale, t));
  return wrap_status(st, r);
}

static PyObject *rng_exponential(RngObject *self, PyObject *args) {
  double scale;
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OOd", &shp, &dto, &scale) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  CORE(st = ndt_rng_exponential(&r, self->rng, nd, shape, scale, t));
  return wrap_status(st, r);
}

static PyObject *rng_gamma(RngObject *self, PyObject *args) {
  double k, scale;
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OOdd", &shp, &dto, &k, &scale) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  CORE(st = ndt_rng_gamma(&r, self->rng, nd, shape, k, scale, t));
  return wrap_status(st, r);
}

/* poisson and binomial give int64 only. */
static int rng_int64_only(ndt_dtype t, const char *fn) {
  if (t != NDT_DTYPE_DEFAULT && t != NDT_INT64) {
    PyErr_Format(PyExc_TypeError, "Unsupported dtype dtype('%s') for %s", ndt_dtype_name(t), fn);
    return 0;
  }
  return 1;
}

static PyObject *rng_poisson(RngObject *self, PyObject *args) {
  double lam;
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OOd", &shp, &dto, &lam) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  if (!rng_int64_only(t, "poisson")) return NULL;
  CORE(st = ndt_rng_poisson(&r, self->rng, nd, shape, lam));
  return wrap_status(st, r);
}

/* gamma_array(k, scale, dt), poisson_array(lam), binomial_array(n, p): one
 * parameter per element (arrays of float64, n int64; broadcast together). */
static PyObject *rng_gamma_array(RngObject *self, PyObject *args) {
  PyObject *k, *sc, *dto;
  ndt_dtype t;
  if (!rng_ok(self) || !PyArg_ParseTuple(args, "OOO", &k, &sc, &dto) || !check_arr(k) ||
      !check_arr(sc) || !get_dtype_arg(dto, &t))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_rng_gamma_array(&r, self->rng, ARR(k), ARR(sc), t));
  return wrap_status(st, r);
}

static PyObject *rng_poisson_array(RngObject *self, PyObject *lam) {
  if (!rng_ok(self) || !check_arr(lam)) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_rng_poisson_array(&r, self->rng, ARR(lam)));
  return wrap_status(st, r);
}

static PyObject *rng_binomial_array(RngObject *self, PyObject *args) {
  PyObject *n, *p;
  if (!rng_ok(self) || !PyArg_ParseTuple(args, "OO", &n, &p) || !check_arr(n) ||
      !check_arr(p))
    return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_rng_binomial_array(&r, self->rng, ARR(n), ARR(p)));
  return wrap_status(st, r);
}

static PyObject *rng_binomial(RngObject *self, PyObject *args) {
  long long n;
  double p;
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OOLd", &shp, &dto, &n, &p) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  if (!rng_int64_only(t, "binomial")) return NULL;
  CORE(st = ndt_rng_binomial(&r, self->rng, nd, shape, (int64_t)n, p));
  return wrap_status(st, r);
}

/* A Python int as int64 (1), as uint64 above INT64_MAX (2), or neither (0);
 * -1 on error. */
static int rng_bound(PyObject *o, int64_t *i, uint64_t *u) {
  PyObject *v = PyNumber_Index(o);
  if (!v) return -1;
  int ovf;
  long long x = PyLong_AsLongLongAndOverflow(v, &ovf);
  int r = 1;
  if (x == -1 && PyErr_Occurred()) r = -1;
  else if (!ovf) *i = x;
  else if (ovf < 0) r = 0;
  else {
    unsigned long long y = PyLong_AsUnsignedLongLong(v);
    if (y == (unsigned long long)-1 && PyErr_Occurred()) {
      PyErr_Clear();
      r = 0;
    } else {
      *u = y;
      r = 2;
    }
  }
  Py_DECREF(v);
  return r;
}

/* integers(shape, dt, low, high, endpoint): Python int bounds (the ndtile
 * package checks them first, with NumPy's messages). Bounds that are both
 * within int64 or both within uint64 go to the core; others fit no dtype. */
static PyObject *rng_integers(RngObject *self, PyObject *args) {
  PyObject *lo_o, *hi_o;
  int endpoint;
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OOOOp", &shp, &dto, &lo_o, &hi_o, &endpoint) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  if (t == NDT_DTYPE_DEFAULT) t = NDT_INT64;
  int64_t li = 0, hi = 0;
  uint64_t lu = 0, hu = 0;
  int kl = rng_bound(lo_o, &li, &lu);
  if (kl < 0) return NULL;
  int kh = rng_bound(hi_o, &hi, &hu);
  if (kh < 0) return NULL;
  if (kh != 1 && !endpoint) {
    /* an exclusive high of 2**63 or 2**64: the inclusive high below it */
    PyObject *one = PyLong_FromLong(1), *h1 = NULL;
    PyObject *hv = one ? PyNumber_Index(hi_o) : NULL;
    if (hv) h1 = PyNumber_Subtract(hv, one);
    Py_XDECREF(one);
    Py_XDECREF(hv);
    if (!h1) return NULL;
    kh = rng_bound(h1, &hi, &hu);
    Py_DECREF(h1);
    if (kh < 0) return NULL;
    endpoint = 1;
  }
  if (kl == 1 && kh == 1) {
    CORE(st = ndt_rng_integers(&r, self->rng, nd, shape, t, li, hi, endpoint));
    return wrap_status(st, r);
  }
  if (kl && kh && (kl == 2 || li >= 0)) {
    if (kl == 1) lu = (uint64_t)li;
    if (kh == 1) {
      /* high below low (which is above INT64_MAX) */
      PyErr_SetString(PyExc_ValueError, endpoint ? "low > high" : "low >= high");
      return NULL;
    }
    CORE(st = ndt_rng_integers_u64(&r, self->rng, nd, shape, t, lu, hu, endpoint));
    return wrap_status(st, r);
  }
  int is_signed = t >= NDT_INT8 && t <= NDT_INT64;
  int low_bad = kl == 0 || (li < 0 && !is_signed) || (kl == 2 && is_signed);
  PyErr_Format(PyExc_ValueError, "%s is out of bounds for %s", low_bad ? "low" : "high",
               ndt_dtype_name(t));
  return NULL;
}
#undef RNG_VARS

static PyObject *rng_permutation(RngObject *self, PyObject *arg) {
  if (!rng_ok(self)) return NULL;
  long long n = PyLong_AsLongLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  ndt_array *r = NULL;
  ndt_status st;
  CORE(st = ndt_rng_permutation(&r, self->rng, n));
  return wrap_status(st, r);
}

static PyObject *rng_get_state(RngObject *self, PyObject *noargs) {
  (void)noargs;
  if (!rng_ok(self)) return NULL;
  ndt_rng_state s;
  ndt_status st;
  CORE(st = ndt_rng_get_state(self->rng, &s));
  if (st) return raise_status(st);
  return Py_BuildValue("(KKK)", (unsigned long long)s.seed, (unsigned long long)s.stream,
                       (unsigned long long)s.draws);
}

static PyObject *rng_set_state(RngObject *self, PyObject *arg) {
  if (!rng_ok(self)) return NULL;
  PyObject *seq = PySequence_Fast(arg, "state must be a (seed, stream, draws) tuple");
  if (!seq) return NULL;
  if (PySequence_Fast_GET_SIZE(seq) != 3) {
    Py_DECREF(seq);
    PyErr_SetString(PyExc_ValueError, "state must be a (seed, stream, draws) tuple");
    return NULL;
  }
  unsigned long long v[3];
  for (int i = 0; i < 3; i++) {
    PyObject *it = PyNumber_Index(PySequence_Fast_GET_ITEM(seq, i));
    if (!it) {
      Py_DECREF(seq);
      return NULL;
    }
    v[i] = PyLong_AsUnsignedLongLong(it);
    Py_DECREF(it);
    if (v[i] == (unsigned long long)-1 && PyErr_Occurred()) {
      Py_DECREF(seq);
      if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "state values must be in [0, 2**64)");
      }
      return NULL;
    }
  }
  Py_DECREF(seq);
  ndt_rng_state s = {v[0], v[1], v[2]};
  ndt_status st;
  CORE(st = ndt_rng_set_state(self->rng, &s));
  if (st) return raise_status(st);
  Py_RETURN_NONE;
}

static PyMethodDef rng_methods[] = {
  {"random", (PyCFunction)rng_random, METH_VARARGS, "random(shape, dt): uniform on [0, 1)"},
  {"uniform", (PyCFunction)rng_uniform, METH_VARARGS, "uniform(shape, dt, low, high)"},
  {"standard_normal", (PyCFunction)rng_standard_normal, METH_VARARGS,
   "standard_normal(shape, dt)"},
  {"normal", (PyCFunction)rng_normal, METH_VARARGS, "normal(shape, dt, loc, scale)"},
  {"exponential", (PyCFunction)rng_exponential, METH_VARARGS, "exponential(shape, dt, scale)"},
  {"gamma", (PyCFunction)rng_gamma, METH_VARARGS, "gamma(shape, dt, k, scale)"},
  {"poisson", (PyCFunction)rng_poisson, METH_VARARGS, "poisson(shape, dt, lam): int64"},
  {"binomial", (PyCFunction)rng_binomial, METH_VARARGS, "binomial(shape, dt, n, p): int64"},
  {"integers", (PyCFunction)rng_integers, METH_VARARGS,
   "integers(shape, dt, low, high, endpoint)"},
  {"permutation", (PyCFunction)rng_permutation, METH_O, "permutation(n): int64 0..n-1"},
  {"gamma_array", (PyCFunction)rng_gamma_array, METH_VARARGS,
   "gamma_array(k, scale, dt): a shape and scale per element"},
  {"poisson_array", (PyCFunction)rng_poisson_array, METH_O, "poisson_array(lam): int64"},
  {"binomial_array", (PyCFunction)rng_binomial_array, METH_VARARGS,
   "binomial_array(n, p): int64, n int64 and p float64 arrays"},
  {"get_state", (PyCFunction)rng_get_state, METH_NOARGS, "(seed, stream, draws)"},
  {"set_state", (PyCFunction)rng_set_state, METH_O, "set_state((seed, stream, draws))"},
  {NULL, NULL, 0, NULL},
};

static PyTypeObject RngType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ndtile._core.Rng",
  .tp_basicsize = sizeof(RngObject),
  .tp_dealloc = (destructor)rng_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "Rng(seed=0): the core's counter-based Philox4x32-10 generator.",
  .tp_methods = rng_methods,
  .tp_init = (initproc)rng_init,
  .tp_new = PyType_GenericNew,
};

/* devices(): the devices NDTILE_DEVICES chose (ndt_device_get), as dicts;
 * device_note(): why there is none; device_stats(): the counters. */
static PyObject *f_devices(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  int n = ndt_device_count();
  PyObject *list = PyList_New(0);
  for (int i = 0; list && i < n; i++) {
    ndt_device_info d;
    ndt_status st = ndt_device_get(i, &d);
    if (st) {
      Py_DECREF(list);
      return raise_status(st);
    }
    PyObject *o = Py_BuildValue("{s:s,s:s,s:i,s:L,s:L}", "name", d.name, "kind", d.kind,
                                "index", d.index, "memory", (long long)d.capacity,
                                "in_use", (long long)d.in_use);
    if (!o || PyList_Append(list, o)) {
      Py_XDECREF(o);
      Py_DECREF(list);
      return NULL;
    }
    Py_DECREF(o);
  }
  return list;
}

static PyObject *f_device_note(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyUnicode_FromString(ndt_device_note());
}

static PyObject *f_device_stats(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  int64_t c, b, e, f;
  ndt_device_stats(&c, &b, &e, &f);
  return Py_BuildValue("{s:L,s:L,s:L,s:L}", "copies", (long long)c, "copy_bytes", (long long)b,
                       "evictions", (long long)e, "fallbacks", (long long)f);
}
static PyObject *f_dispatcher(PyObject *m, PyObject *args);       /* below */
static PyObject *f_dispatch_setup(PyObject *m, PyObject *args);

static PyMethodDef module_methods[] = {
  {"_setup", f_setup, METH_VARARGS, "register the Python side (types, dtypes, hooks)"},
  {"_subclass_hooks", f_subclass_hooks, METH_VARARGS,
   "register the Python hooks for ndarray subclasses (unary op, subscript result)"},
  {"empty", f_empty, METH_VARARGS, "empty(shape, dt)"},
  {"zeros", f_zeros, METH_VARARGS, "zeros(shape, dt)"},
  {"ones", f_ones, METH_VARARGS, "ones(shape, dt)"},
  {"full", f_full, METH_VARARGS, "full(shape, dt, value)"},
  {"scalar", f_scalar, METH_VARARGS, "scalar(value, dt, weak=False): a 0-d array"},
  {"arange", f_arange, METH_VARARGS, "arange(start, stop, step, dt)"},
  {"linspace", f_linspace, METH_VARARGS, "linspace(start, stop, num, endpoint, dt)"},
  {"eye", f_eye, METH_VARARGS, "eye(n, m, k, dt)"},
  {"from_buffer", f_from_buffer, METH_VARARGS, "from_buffer(obj, dt): copy of a buffer"},
  {"buffer_address", f_buffer_address, METH_O, "buffer_address(memoryview): its first byte"},
  {"apply", f_apply, METH_VARARGS, "apply(op, inputs, out=None, dt=-1)"},
  {"result_type", f_result_type, METH_VARARGS, "result_type(op, inputs, dt=-1)"},
  {"ufunc_resolve", f_ufunc_resolve, METH_VARARGS,
   "ufunc_resolve(op, dtypes, weak, dt=-1) -> (loop dtypes, flags)"},
  {"clip", f_clip, METH_VARARGS, "clip(a, lo, hi, out=None)"},
  {"reduce", f_reduce, METH_VARARGS, "reduce(op, a, axes_mask|None, keepdims, dt, ddof=0)"},
  {"matmul", f_matmul, METH_VARARGS, "matmul(a, b, out=None)"},
  {"dot", f_dot, METH_VARARGS, "dot(a, b, out=None)"},
  {"gather", f_gather, METH_VARARGS, "gather(a, [idx per axis]): a[i0, i1, ...]"},
  {"bincount", f_bincount, METH_VARARGS, "bincount(x, weights|None, minlength)"},
  {"scan", f_scan, METH_VARARGS, "scan(op, a, axis|None (flat), dtype)"},
  {"sort", f_sort, METH_VARARGS, "sort(a, axis|None, want_indices)"},
  {"correlate", f_correlate, METH_VARARGS, "correlate(a, v, lag0, n, conj)"},
  {"diagonal", f_diagonal, METH_VARARGS, "diagonal(a, offset, axis1, axis2): a view"},
  {"put", f_put, METH_VARARGS, "put(a, flat_idx int64, vals): a.flat[idx] = vals in order"},
  {"put_op", f_put_op, METH_VARARGS, "put_op(a, flat_idx, vals|None, op, loop): ufunc.at"},
  {"view_dtype", f_view_dtype, METH_VARARGS, "view_dtype(a, dt): same bytes, same-size dtype"},
  {"from_memory", f_from_memory, METH_VARARGS, "from_memory(obj, code, writable)"},
  {"view_itemsize", f_view_itemsize, METH_VARARGS,
   "view_itemsize(a, dt, shape, bstrides, boffset): the memory as a dtype of another size"},
  {"dispatcher", f_dispatcher, METH_VARARGS,
   "dispatcher(impl, npfunc, name): impl behind the foreign-array check"},
  {"dispatch_setup", f_dispatch_setup, METH_VARARGS,
   "dispatch_setup(type cache, judge, runner, numpy.ndarray, restore)"},
  {"_set_dtype_hook", f_set_dtype_hook, METH_VARARGS,
   "the Python side's a.dtype = ... and a.resize"},
  {"reduceat", f_reduceat, METH_VARARGS, "reduceat(a, axis, idx, reduce op): ufunc.reduceat"},
  {"take_owner", f_take_owner, METH_VARARGS, "take_owner(v, from): v owns the store"},
  {"as_strided", f_as_strided, METH_VARARGS,
   "as_strided(a, offset, shape, strides): a view of a's store (element units)"},
  {"fft", f_fft, METH_VARARGS, "fft(a, axis, n, kind, scale): 1-d FFTs along axis"},
  {"argwhere", f_argwhere, METH_O, "argwhere(a): (count, ndim) int64 indices"},
  {"partition", f_partition, METH_VARARGS, "partition(a, axis|None, [kth], want_indices)"},
  {"searchsorted", f_searchsorted, METH_VARARGS, "searchsorted(sorted_a, v, right)"},
  {"histogram_bins", f_histogram_bins, METH_VARARGS,
   "histogram_bins(x, edges, first, last, denom, single_d, single_f)"},
  {"histogram_count", f_histogram_count, METH_VARARGS,
   "histogram_count(x, edges, first, last, denom, single_d, single_f, weights|None)"},
  {"promote", f_promote, METH_VARARGS, "promote(a, a_weak, b, b_weak)"},
  {"can_cast", f_can_cast, METH_VARARGS, "can_cast(from, to, casting)"},
  {"broadcast_shapes", f_broadcast_shapes, METH_O, "broadcast shape of shapes"},
  {"sync", f_sync, METH_NOARGS, "wait for all recorded work"},
  {"devices", f_devices, METH_NOARGS, "the devices NDTILE_DEVICES chose, as dicts"},
  {"device_note", f_device_note, METH_NOARGS, "why no device is used (\"\" when none was asked for)"},
  {"device_stats", f_device_stats, METH_NOARGS, "device copies, bytes, evictions, fallbacks"},
  {"_fp_setup", f_fp_setup, METH_VARARGS,
   "_fp_setup(report, raises, errstate contextvar, package dir): floating-point errors"},
  {"_fp_report", f_fp_report, METH_NOARGS, "report the floating-point errors that are ready"},
  {"set_workers", f_set_workers, METH_O, "set the number of worker threads"},
  {"set_tile_bytes", f_set_tile_bytes, METH_O, "set the target tile size in bytes"},
  {"set_inline_elems", f_set_inline_elems, METH_O, "set the inline threshold"},
  {"workers", f_workers, METH_NOARGS, "number of worker threads"},
  {"tile_bytes", f_tile_bytes, METH_NOARGS, "target tile size"},
  {"tiles_for", f_tiles_for, METH_VARARGS, "tiles of a fresh array"},
  {"host_tiles", f_host_tiles, METH_VARARGS,
   "host_tiles(a, for_write): [(start, len, memoryview)] of the tiles this rank owns"},
  {"rank", f_rank, METH_NOARGS, "this process's rank"},
  {"nranks", f_nranks, METH_NOARGS, "number of ranks"},
  {"barrier", f_barrier, METH_NOARGS, "wait for every rank"},
  {"bcast_bytes", f_bcast_bytes, METH_VARARGS, "bcast_bytes(data|None, root)"},
  {"abort", f_abort, METH_O, "stop every rank with an exit code"},
  {"set_exit_code", f_set_exit_code, METH_O, "set_exit_code(n): the status sys.exit ends with"},
  {"end_together", f_end_together, METH_NOARGS, "end_together(): the program ends (many ranks)"},
  {"comm_stats", f_comm_stats, METH_VARARGS, "comm_stats(reset=False): traffic counters"},
  {"debug_fail_alloc_after", f_debug_fail_alloc_after, METH_O, "test hook"},
  {"memory_usage", f_memory_usage, METH_NOARGS,
   "memory_usage(): (bytes of live arrays, bytes of data buffers, limit)"},
  {"memory_stats", f_memory_stats, METH_NOARGS, "memory_stats(): [dict per memory]"},
  {"build_info", f_build_info, METH_NOARGS, "build_info(): dict of ndt_build_info"},
  {"processors", f_processors, METH_NOARGS, "processors(): the processors' names"},
  {"trace_stop", f_trace_stop, METH_NOARGS, "trace_stop(): drop the timeline, write nothing"},
  {"trace_file", f_trace_file, METH_NOARGS, "trace_file(): the trace file, or None"},
  {"set_memory_limit", f_set_memory_limit, METH_O,
   "set_memory_limit(bytes): the budget of live arrays (0: the default)"},
  {"interrupt", f_interrupt, METH_NOARGS, "interrupt(): stop the waits as Ctrl-C does"},
  {"init", f_init, METH_VARARGS, "init(workers=0, tile_bytes=0, inline_elems=-1)"},
  {"setting_names", f_setting_names, METH_NOARGS, "setting_names() -> the NDTILE_* names"},
  {"parse_setting", f_parse_setting, METH_VARARGS, "parse_setting(name, text) -> int"},
  {"setting_value", f_setting_value, METH_VARARGS, "setting_value(name) -> the value in force"},
  {"status_string", f_status_string, METH_O, "name of a status"},
  {"_raise_status", f_raise_status, METH_O, "test hook: raise the mapped exception"},
  {"linalg", f_linalg, METH_VARARGS, "linalg(op, a, b|None, flags, param): tuple of results"},
  {NULL, NULL, 0, NULL},
};

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
  PyObject *impl, *npfunc, *name;
  vectorcallfunc vectorcall;
} DispatchObject;

static PyObject *disp_cache;     /* type -> bool (the Python side's dict) */
static PyObject *disp_judge;     /* judge(type) -> bool, fills disp_cache */
static PyObject *disp_runner;    /* runner(npfunc, args, kwargs, name) */
static PyTypeObject *disp_np_ndarray;

/* 1: another library's array, 0: plain, -1: error. nested: inside a list
 * (a nested list is judged by its first element, so a long list of
 * numbers costs one look per level, not one per number). */
static int disp_foreign(PyObject *x, int nested) {
  PyTypeObject *t = Py_TYPE(x);
  if (t == wrap_type || t == &PyFloat_Type || t == &PyLong_Type || t == disp_np_ndarray ||
      x == Py_None || t == &PyBool_Type || t == &PyUnicode_Type || t == &PySlice_Type ||
      t == &PyType_Type || t == &PyComplex_Type || x == Py_Ellipsis || t == &PyBytes_Type)
    return 0;
  if (t == &PyList_Type || t == &PyTuple_Type) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(x);
    PyObject **items = PySequence_Fast_ITEMS(x);
    if (nested) return n ? disp_foreign(items[0], 1) : 0;
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
  return PyObject_Vectorcall(d->impl, args, nargsf, kwnames);
}

static void disp_dealloc(DispatchObject *d) {
  Py_CLEAR(d->impl);
  Py_CLEAR(d->npfunc);
  Py_CLEAR(d->name);
  Py_TYPE(d)->tp_free((PyObject *)d);
}

/* attributes the wrapper lacks are the function's own (__name__, __doc__,
 * __module__, __qualname__, __signature__ through __wrapped__, ...) */
static PyObject *disp_getattro(PyObject *self, PyObject *name) {
  PyObject *r = PyObject_GenericGetAttr(self, name);
  if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
  PyErr_Clear();
  return PyObject_GetAttr(((DispatchObject *)self)->impl, name);
}

static PyObject *disp_impl_attr(PyObject *self, void *c) {
  return PyObject_GetAttrString(((DispatchObject *)self)->impl, (const char *)c);
}

/* a.__doc__ = ...: the function's own (_docs.py notes every public name) */
static int disp_set_impl_attr(PyObject *self, PyObject *value, void *c) {
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "cannot delete the attribute");
    return -1;
  }
  return PyObject_SetAttrString(((DispatchObject *)self)->impl, (const char *)c, value);
}

static PyObject *disp_wrapped(PyObject *self, void *c) {
  (void)c;
  return Py_NewRef(((DispatchObject *)self)->impl);
}

static PyObject *disp_repr(PyObject *self) {
  return PyUnicode_FromFormat("<function %U>", ((DispatchObject *)self)->name);
}

/* pickled by name: restored as the same entry of the ndtile namespace */
static PyObject *disp_restore;   /* the Python side's restore(name) */

static PyObject *disp_reduce(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return Py_BuildValue("O(O)", disp_restore, ((DispatchObject *)self)->name);
}

static PyGetSetDef disp_getset[] = {
  {"__name__", disp_impl_attr, NULL, NULL, "__name__"},
  {"__qualname__", disp_impl_attr, NULL, NULL, "__qualname__"},
  {"__doc__", disp_impl_attr, disp_set_impl_attr, NULL, "__doc__"},
  {"__module__", disp_impl_attr, NULL, NULL, "__module__"},
  {"__wrapped__", disp_wrapped, NULL, "the ndtile function", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef disp_methods[] = {
  {"__reduce__", disp_reduce, METH_NOARGS, "pickled as the function it enters"},
  {NULL, NULL, 0, NULL},
};

static PyTypeObject DispatchType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ndtile._core.function",
  .tp_basicsize = sizeof(DispatchObject),
  .tp_dealloc = (destructor)disp_dealloc,
  .tp_vectorcall_offset = offsetof(DispatchObject, vectorcall),
  .tp_call = PyVectorcall_Call,
  .tp_getattro = disp_getattro,
  .tp_repr = disp_repr,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
  .tp_doc = NULL,
  .tp_getset = disp_getset,
  .tp_methods = disp_methods,
};

/* dispatcher(impl, npfunc, name): impl entered through the check above. */
static PyObject *f_dispatcher(PyObject *m, PyObject *args) {
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
static PyObject *f_dispatch_setup(PyObject *m, PyObject *args) {
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

static struct PyModuleDef coremodule = {
  PyModuleDef_HEAD_INIT, "_core", "The libndtile binding.", -1, module_methods,
  NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
  if (PyType_Ready(&ArrayType) < 0 || PyType_Ready(&RngType) < 0 ||
      PyType_Ready(&DispatchType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&coremodule);
  if (!m) return NULL;
  sigint_guard();
  ndt_set_wait_hook(sigint_guard);
  Py_INCREF(&ArrayType);
  if (PyModule_AddObject(m, "Array", (PyObject *)&ArrayType) < 0) {
    Py_DECREF(&ArrayType);
    Py_DECREF(m);
    return NULL;
  }
  Py_INCREF(&RngType);
  if (PyModule_AddObject(m, "Rng", (PyObject *)&RngType) < 0) {
    Py_DECREF(&RngType);
    Py_DECREF(m);
    return NULL;
  }
  PyObject *names = PyTuple_New(NDT_NUFUNCS);
  PyObject *nins = PyTuple_New(NDT_NUFUNCS);
  PyObject *dnames = PyTuple_New(NDT_NTYPES);
  if (!names || !nins || !dnames) goto fail;
  for (int i = 0; i < NDT_NUFUNCS; i++) {
    PyTuple_SET_ITEM(names, i, PyUnicode_FromString(ndt_ufunc_name((ndt_ufunc)i)));
    PyTuple_SET_ITEM(nins, i, PyLong_FromLong(ndt_ufunc_nin((ndt_ufunc)i)));
  }
  for (int i = 0; i < NDT_NTYPES; i++)
    PyTuple_SET_ITEM(dnames, i, PyUnicode_FromString(ndt_dtype_name((ndt_dtype)i)));
  static const char *red[NDT_NREDUCE] = {
    "sum", "prod", "min", "max", "any", "all", "count_nonzero", "mean", "var", "std",
    "argmin", "argmax", "nansum", "nanprod", "nanmin", "nanmax"};
  PyObject *rnames = PyTuple_New(NDT_NREDUCE);
  if (!rnames) goto fail;
  for (int i = 0; i < NDT_NREDUCE; i++) PyTuple_SET_ITEM(rnames, i, PyUnicode_FromString(red[i]));
  if (PyModule_AddObject(m, "UFUNC_NAMES", names) < 0) goto fail;
  names = NULL;
  if (PyModule_AddObject(m, "UFUNC_NIN", nins) < 0) goto fail;
  nins = NULL;
  if (PyModule_AddObject(m, "DTYPE_NAMES", dnames) < 0) goto fail;
  dnames = NULL;
  if (PyModule_AddObject(m, "REDUCE_NAMES", rnames) < 0) goto fail;
  if (PyModule_AddIntConstant(m, "MAXDIMS", NDT_MAXDIMS) < 0 ||
      PyModule_AddIntConstant(m, "VERSION_MAJOR", NDT_VERSION_MAJOR) < 0 ||
      PyModule_AddIntConstant(m, "VERSION_MINOR", NDT_VERSION_MINOR) < 0 ||
      PyModule_AddIntConstant(m, "RESOLVE_HALF", NDT_RESOLVE_HALF) < 0)
    goto fail;
  return m;
fail:
  Py_XDECREF(names);
  Py_XDECREF(nins);
  Py_XDECREF(dnames);
  Py_DECREF(m);
  return NULL;
}
