/* errors.c - the one mapping of an ndt_status to the exception NumPy raises
 * (raise_status), and the floating-point error reports (fp_*). */
#include "_core.h"

/* A floating-point error a buffer export raised, kept for the array's
 * copy-out that NumPy falls back to (array_getbuffer); cleared as any core
 * call ends (core_leave). */
PyObject *fp_stashed;
PyObject *fp_stashed_owner;

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

/* Raise exc, an instance of t built here (stolen); 0 with nothing set
 * where it could not be built (NULL: the build's error cleared). */
static int raise_built(PyObject *t, PyObject *exc) {
  if (!exc) {
    PyErr_Clear();
    return 0;
  }
  PyErr_SetObject(t, exc);
  Py_DECREF(exc);
  return 1;
}

/* numpy's UFuncTypeError (a TypeError), built without calling its
 * __init__, which wants the ufunc object; 0 when numpy has none. */
static PyObject *numpy_dtype_fn;

static int set_ufunc_type_error(const char *msg) {
  PyObject *t = lazy_attr(&ufunc_type_error, "numpy._core._exceptions", "UFuncTypeError");
  if (!t || !PyType_Check(t)) return 0;
  PyObject *args = Py_BuildValue("(s)", msg);
  PyObject *exc = args ? ((PyTypeObject *)t)->tp_new((PyTypeObject *)t, args, NULL) : NULL;
  Py_XDECREF(args);
  return raise_built(t, exc);
}

/* numpy's _ArrayMemoryError (a MemoryError) for the core's "Unable to
 * allocate SIZE for an array with shape (...) and data type NAME", built by
 * its own constructor from the message's shape and dtype, so that its
 * .shape, .dtype and text are NumPy's; 0 (nothing set) for another message
 * or where it cannot be built (a plain MemoryError then). */
static int set_array_memory_error(const char *msg) {
  static PyObject *amem_type;
  static const char head[] = "Unable to allocate ";
  if (strncmp(msg, head, sizeof head - 1) != 0) return 0;
  const char *s = strstr(msg, " for an array with shape (");
  const char *d = s ? strstr(s, ") and data type ") : NULL;
  if (!s || !d) return 0;
  PyObject *t = lazy_attr(&amem_type, "numpy._core._exceptions", "_ArrayMemoryError");
  if (!t || !PyType_Check(t)) return 0;
  PyObject *shape = PyList_New(0);
  if (!shape) {
    PyErr_Clear();
    return 0;
  }
  const char *p = s + strlen(" for an array with shape (");
  while (p < d) {
    char *end;
    long long v = strtoll(p, &end, 10);
    PyObject *o = end != p ? PyLong_FromLongLong(v) : NULL;
    if (!o || PyList_Append(shape, o) < 0) {
      Py_XDECREF(o);
      Py_DECREF(shape);
      PyErr_Clear();
      return 0;
    }
    Py_DECREF(o);
    p = end;
    while (p < d && (*p == ',' || *p == ' ')) p++;
  }
  PyObject *tup = PyList_AsTuple(shape);
  Py_DECREF(shape);
  PyObject *dt = NULL, *exc = NULL;
  PyObject *dtype_fn = tup ? lazy_attr(&numpy_dtype_fn, "numpy", "dtype") : NULL;
  if (dtype_fn) dt = PyObject_CallFunction(dtype_fn, "s", d + strlen(") and data type "));
  if (dt) exc = PyObject_CallFunctionObjArgs(t, tup, dt, NULL);
  Py_XDECREF(tup);
  Py_XDECREF(dt);
  return raise_built(t, exc);
}

/* The one place where a status becomes a Python exception: the class is
 * the error's kind (ndt_last_error_info), the message the core's. */
PyObject *raise_status(ndt_status st) {
  const ndt_error *e = ndt_last_error_info();
  /* a status that is not the last error's (the test hook, a body that
   * failed without a message) has its status's kind */
  ndt_error_kind kind = e->status == st ? e->kind : ndt_status_kind(st);
  const char *msg = ndt_last_error();
  if (!msg || !*msg) msg = ndt_status_string(st);
  PyObject *type = PyExc_RuntimeError;
  switch (kind) {
    case NDT_KIND_MEMORY:
      if (set_array_memory_error(msg)) return NULL;
      type = PyExc_MemoryError;
      break;
    case NDT_KIND_VALUE: type = PyExc_ValueError; break;
    case NDT_KIND_AXIS: {
      PyObject *t = lazy_attr(&axis_error_type, "numpy.exceptions", "AxisError");
      type = t ? t : PyExc_IndexError;
      break;
    }
    case NDT_KIND_INDEX: type = PyExc_IndexError; break;
    case NDT_KIND_UFUNC_TYPE:
      if (set_ufunc_type_error(msg)) return NULL;
      type = PyExc_TypeError;
      break;
    case NDT_KIND_TYPE: type = PyExc_TypeError; break;
    case NDT_KIND_UNSUPPORTED: type = PyExc_NotImplementedError; break;
    case NDT_KIND_OVERFLOW: type = PyExc_OverflowError; break;
    case NDT_KIND_INTERRUPTED:
      /* Ctrl-C: Python's handler runs now (KeyboardInterrupt, or the
       * program's own handler); an interrupt from elsewhere (another
       * thread's ndt_interrupt) is a KeyboardInterrupt too */
      if (PyErr_CheckSignals() < 0) return NULL;
      PyErr_SetNone(PyExc_KeyboardInterrupt);
      return NULL;
    case NDT_KIND_LINALG: {
      /* numpy.linalg.LinAlgError with NumPy's message: a deferred failure's
       * without the op in front */
      static PyObject *linalg_error;
      PyObject *t = lazy_attr(&linalg_error, "numpy.linalg", "LinAlgError");
      type = t ? t : PyExc_ValueError;
      if (e->status == st && e->deferred && *e->message) msg = e->message;
      break;
    }
    case NDT_KIND_NONE:
    case NDT_KIND_INTERNAL: type = PyExc_RuntimeError; break;
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
static int fp_last_raises;        /* its NPY_FPE bits under 'raise' */
static PyObject *fp_rank_ctx;     /* on ranks: the last capture (ext, None, 0, None, scope) */
int fp_sync_wanted;

/* ---- the call in progress -----------------------------------------------------
 * NumPy checks an op's floating-point flags after its loop completed and
 * validates its arguments before computing, so a call that raises reports
 * nothing but its exception, and nothing of it is left for the next call.
 * ndtile's ops record work that is reported later, and a function may record
 * some before it finds the error that it raises (a late check, an error of
 * the runtime: MemoryError, KeyboardInterrupt, a failed task). So the errors
 * of the work that a call records are held until the call ends: reported
 * when it returns, dropped when it raises. The call is the outermost ndtile
 * function the program entered (fp_call_enter/fp_call_exit: the Dispatch
 * functions, the guarded methods of ndarray and ufunc, the hooks the array
 * type's slots call); a record knows its call through the scope its capture
 * holds (ctx[4]), so work whose errors are agreed or done after the call
 * ended (the ranks' agreement at a later read) still learns how it ended.
 * Errors under errstate 'raise' are not held: the FloatingPointError comes
 * from its op, as NumPy's does. */
/* Per thread: each Python thread's calls are its own (the GIL orders them,
 * but a thread's wait lets another one in, in the middle of its call). */
static _Thread_local int fp_depth;         /* guarded calls open */
static _Thread_local PyObject *fp_scope;   /* the open call's scope, made at its first capture */
static _Thread_local PyObject *fp_held;    /* [(op, flags, ctx)] of the open call taken so far */
static _Thread_local int fp_raised_exit;   /* fp_call_exit of a call that raised is reporting */
/* A scope is a one-item list: None while its call runs, True once it
 * returned, False once it raised. */
#define SCOPE_OPEN Py_None
#define SCOPE_RETURNED Py_True
#define SCOPE_RAISED Py_False

static int fp_in_package(PyFrameObject *f);

/* 1 when the running Python code is the program's (an operator in a
 * callback that an ndtile function called is a call of its own). */
static int fp_user_code(void) {
  PyFrameObject *f = PyEval_GetFrame();   /* borrowed */
  return f && !fp_in_package(f);
}

/* The scope of the work being recorded (borrowed): the open call's, None
 * outside a call or for the program's own code; NULL on error. */
static PyObject *fp_current_scope(void) {
  if (fp_depth == 0 || fp_user_code()) return Py_None;
  if (!fp_scope) {
    fp_scope = PyList_New(1);
    if (!fp_scope) return NULL;
    PyList_SET_ITEM(fp_scope, 0, Py_NewRef(SCOPE_OPEN));
  }
  return fp_scope;
}

/* The calls of the program's own code that an ndtile function made (a
 * callback: apply_along_axis, vectorize, a subclass's method) are calls of
 * their own, as in NumPy; the enclosing ones wait here. */
_Thread_local int call_mark = CALL_MARK_EACH;

#define FP_OUTER_MAX 16
static _Thread_local struct { PyObject *scope, *held; int depth; } fp_outer[FP_OUTER_MAX];
static _Thread_local int fp_nouter;

void fp_call_enter(void) {
  if (fp_depth > 0 && fp_nouter < FP_OUTER_MAX) {
    if (fp_user_code()) {
      fp_outer[fp_nouter].scope = fp_scope;
      fp_outer[fp_nouter].held = fp_held;
      fp_outer[fp_nouter].depth = fp_depth;
      fp_nouter++;
      fp_scope = fp_held = NULL;
      fp_depth = 0;
    }
  }
  /* the outermost call: an interrupt cancels only the work recorded from
   * its first core entry on (a callback's calls belong to the enclosing
   * call; nothing is recorded outside the core) */
  if (fp_depth == 0 && fp_nouter == 0) call_mark = CALL_MARK_ONCE;
  fp_depth++;
}

/* The NPY_FPE bits of the errors the errstate object ext says 'raise' for
 * (cached for the last one asked about). */
static int fp_ext_raises(PyObject *ext) {
  if (ext != fp_last_ext && fp_raises_fn) {
    PyObject *r = PyObject_CallOneArg(fp_raises_fn, ext);
    long bits = r ? PyLong_AsLong(r) : 0;
    fp_last_raises = bits > 0 ? (int)bits : 0;
    if (bits == -1) PyErr_Clear();
    if (!r) PyErr_Clear();
    Py_XDECREF(r);
    Py_XSETREF(fp_last_ext, Py_NewRef(ext));
  }
  return fp_last_raises;
}

/* The errstate object of the moment (a new reference). */
static PyObject *fp_current_ext(void) {
  PyObject *ext = NULL;
  if (!fp_extobj_var || PyContextVar_Get(fp_extobj_var, NULL, &ext) < 0 || !ext) {
    PyErr_Clear();
    ext = Py_NewRef(Py_None);
  }
  return ext;
}

/* 1 when the frame's code lies in the ndtile package */
static int fp_in_package(PyFrameObject *f) {
  PyCodeObject *co = PyFrame_GetCode(f);
  int in = co && fp_pkg_dir && PyUnicode_Check(co->co_filename) &&
           PyUnicode_Tailmatch(co->co_filename, fp_pkg_dir, 0, PY_SSIZE_T_MAX, -1) == 1;
  Py_XDECREF(co);
  return in;
}

/* The first frame outside the ndtile package (a new reference; NULL where
 * every frame is ndtile's), *depth the frames skipped to reach it. */
static PyFrameObject *first_user_frame(int *depth) {
  PyFrameObject *f = PyEval_GetFrame();
  Py_XINCREF(f);
  int n = 0;
  while (f && fp_in_package(f)) {
    PyFrameObject *b = PyFrame_GetBack(f);
    Py_DECREF(f);
    f = b;
    n++;
  }
  *depth = n;
  return f;
}

int user_stacklevel(void) {
  int skipped;
  PyFrameObject *f = first_user_frame(&skipped);
  Py_XDECREF(f);
  return 1 + skipped;
}

/* The capture hook (recording thread, an op's first deferred task): a tuple
 * (errstate object, file, line, module globals) of the first frame outside
 * ndtile. */
static void *fp_capture(void) {
  if (!fp_report_fn || !PyGILState_Check()) return NULL;
  PyObject *ext = fp_current_ext();
  if (fp_ext_raises(ext)) fp_sync_wanted = 1;
  PyObject *scope = fp_current_scope();
  if (!scope) {
    PyErr_Clear();
    scope = Py_None;
  }
  if (ndt_nranks() > 1) {
    /* on ranks every op is captured (its record is on every rank): the
     * errstate only, no line (a frame walk per op would double the cost of
     * a small op); the warning shows at the line of the call that reports */
    if (fp_rank_ctx && PyTuple_GET_ITEM(fp_rank_ctx, 0) == ext &&
        PyTuple_GET_ITEM(fp_rank_ctx, 4) == scope) {
      Py_DECREF(ext);
      return Py_NewRef(fp_rank_ctx);
    }
    PyObject *t = Py_BuildValue("(NOiOO)", ext, Py_None, 0, Py_None, scope);
    if (!t) {
      PyErr_Clear();
      return NULL;
    }
    Py_XSETREF(fp_rank_ctx, Py_NewRef(t));
    return t;
  }
  int skipped;
  PyFrameObject *f = first_user_frame(&skipped);
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
  PyObject *t = Py_BuildValue("(NNiNO)", ext, file ? file : Py_NewRef(Py_None), line,
                              glob ? glob : Py_NewRef(Py_None), scope);
  if (!t) PyErr_Clear();
  return t;
}

enum { FP_REPORT, FP_HOLD, FP_DROP };

/* What becomes of a record taken from the core: reported now, held with
 * its call (the call is still open), or dropped (its call raised). *item
 * is the (op, flags, ctx) to report or hold (a new reference), NULL with
 * an exception set on error. */
static int fp_fate(const ndt_fp_error *e, PyObject **item) {
  PyObject *ctx = e->ctx ? (PyObject *)e->ctx : NULL;
  PyObject *scope = ctx && PyTuple_GET_SIZE(ctx) > 4 ? PyTuple_GET_ITEM(ctx, 4) : Py_None;
  int fate = FP_REPORT;
  if (scope != Py_None) {
    PyObject *state = PyList_GET_ITEM(scope, 0);
    /* (an open scope seen outside any call of this thread's: another
     * thread's) */
    fate = state == SCOPE_RAISED ? FP_DROP
           : state == SCOPE_OPEN && (fp_depth > 0 || fp_nouter > 0) ? FP_HOLD : FP_REPORT;
    if (fate == FP_HOLD && (fp_ext_raises(PyTuple_GET_ITEM(ctx, 0)) & e->flags)) fate = FP_REPORT;
  } else if (!ctx && fp_raised_exit) {
    *item = NULL;
    return FP_DROP;
  } else if (!ctx && fp_depth > 0 && !fp_user_code()) {
    /* inline work of the open call (taken at the end of the core call that
     * ran it): held in the errstate of the moment, shown at the line of the
     * call as inline work's warnings are */
    PyObject *ext = fp_current_ext();
    if (fp_ext_raises(ext) & e->flags) {
      Py_DECREF(ext);
    } else {
      *item = Py_BuildValue("(sI(NOiO))", e->op, e->flags, ext, Py_None, 0, Py_None);
      return *item ? FP_HOLD : -1;
    }
  }
  if (fate == FP_DROP) {
    *item = NULL;
    return fate;
  }
  *item = Py_BuildValue("(sIO)", e->op, e->flags, ctx ? ctx : Py_None);
  return *item ? fate : -1;
}

/* The release hook: a record done and reported (GIL held: called from
 * ndt_fp_errors_take in fp_report). */
static void fp_release(void *ctx) { Py_XDECREF((PyObject *)ctx); }

/* Reports the records that are ready; -1 with an exception set. */
int fp_report(void) {
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
    PyObject *list = PyList_New(0);
    for (int i = 0; i < n && list; i++) {
      PyObject *item;
      int fate = fp_fate(&e[i], &item);
      if (fate == FP_HOLD && !fp_held && !(fp_held = PyList_New(0))) fate = -1;
      if (fate == FP_DROP) continue;
      if (fate < 0 || PyList_Append(fate == FP_HOLD ? fp_held : list, item) < 0)
        Py_CLEAR(list);
      Py_XDECREF(item);
    }
    if (rc == 0 && list && PyList_GET_SIZE(list) && fp_report_fn) {
      PyObject *r = PyObject_CallOneArg(fp_report_fn, list);
      if (!r) rc = -1;   /* the rest is still reported: warnings, say */
      Py_XDECREF(r);
    }
    Py_XDECREF(list);
    if (!list) rc = -1;
  }
  return rc;
}

/* The end of a guarded call: result, or NULL when it raised. A call that
 * returns reports what it held (result dropped when that raises, as in
 * fp_done); one that raises drops it, and what its work reports later. */
static PyObject *fp_call_end(PyObject *result);

PyObject *fp_call_exit(PyObject *result) {
  if (--fp_depth > 0) return result;
  result = fp_call_end(result);
  if (fp_nouter == 0) {
    call_mark = CALL_MARK_EACH;   /* outside every call again */
    return result;
  }
  /* back in the enclosing call: what this one's end held of the enclosing
   * call's work stays with it */
  fp_nouter--;
  PyObject *held = fp_held;
  fp_scope = fp_outer[fp_nouter].scope;
  fp_held = fp_outer[fp_nouter].held;
  fp_depth = fp_outer[fp_nouter].depth;
  if (held && PyList_GET_SIZE(held)) {
    if (!fp_held) {
      fp_held = held;
      held = NULL;
    } else if (PyList_SetSlice(fp_held, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, held) < 0) {
      PyErr_WriteUnraisable(NULL);
    }
  }
  Py_XDECREF(held);
  return result;
}

static PyObject *fp_call_end(PyObject *result) {
  PyObject *scope = fp_scope, *held = fp_held;
  fp_scope = fp_held = NULL;
  if (scope) PyList_SetItem(scope, 0, Py_NewRef(result ? SCOPE_RETURNED : SCOPE_RAISED));
  Py_XDECREF(scope);
  if (!result) {
    /* a 'raise' capture whose core call failed: nothing of it is reported */
    fp_sync_wanted = 0;
    Py_XDECREF(held);
    /* What is ready now is reported with the exception, as NumPy's earlier
     * ops warned before it, except the inline work of a core call that
     * failed (no record of its own: it was to be taken at that call's end). */
    if (ndt_fp_errors_pending()) {
      PyObject *et, *ev, *tb;
      PyErr_Fetch(&et, &ev, &tb);
      fp_raised_exit = 1;
      int rc = fp_report();
      fp_raised_exit = 0;
      if (rc < 0) {
        /* a warning made an error (filters, 'call'): it propagates, as it
         * would have from its own op, with the call's error as its context */
        PyErr_NormalizeException(&et, &ev, &tb);
        if (tb) PyException_SetTraceback(ev, tb);
        PyObject *et2, *ev2, *tb2;
        PyErr_Fetch(&et2, &ev2, &tb2);
        PyErr_NormalizeException(&et2, &ev2, &tb2);
        PyException_SetContext(ev2, ev);   /* steals ev */
        Py_XDECREF(et);
        Py_XDECREF(tb);
        PyErr_Restore(et2, ev2, tb2);
      } else {
        PyErr_Restore(et, ev, tb);
      }
    }
    return NULL;
  }
  if (held && PyList_GET_SIZE(held) && fp_report_fn) {
    PyObject *r = PyObject_CallOneArg(fp_report_fn, held);
    Py_DECREF(held);
    if (!r) {
      Py_DECREF(result);
      return NULL;
    }
    Py_DECREF(r);
  } else {
    Py_XDECREF(held);
  }
  return fp_done(result);
}

PyObject *f_fp_setup(PyObject *m, PyObject *args) {
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

PyObject *f_fp_report(PyObject *m, PyObject *noargs) {
  (void)m;
  (void)noargs;
  return fp_done(Py_NewRef(Py_None));
}

PyObject *f_status_string(PyObject *m, PyObject *arg) {
  (void)m;
  long s = PyLong_AsLong(arg);
  if (s == -1 && PyErr_Occurred()) return NULL;
  return PyUnicode_FromString(ndt_status_string((ndt_status)s));
}

/* NumPy's ComplexWarning where a cast of values from a complex dtype to a
 * real one (an integer or float; not bool, whose truth value takes both
 * parts) drops their imaginary parts: astype, assignment, copyto, array's
 * dtype, a ufunc's out. level 0 warns at the first frame outside ndtile
 * (the user's line, however deep in the front end the cast is made). 0,
 * or -1 when the filters make it an error. */
static int complex_cast_warning(int from, int to, int level) {
  if (from < 0 || from >= NDT_NTYPES || to < 0 || to >= NDT_NTYPES ||
      !is_complex_kind((ndt_dtype)from) || is_complex_kind((ndt_dtype)to) || to == NDT_BOOL)
    return 0;
  PyObject *t = lazy_attr(&complex_warning_type, "numpy.exceptions", "ComplexWarning");
  return PyErr_WarnEx(t ? t : PyExc_RuntimeWarning,
                      "Casting complex values to real discards the imaginary part",
                      level > 0 ? level : user_stacklevel());
}

int warn_complex_cast(ndt_dtype from, ndt_dtype to) { return complex_cast_warning(from, to, 0); }

/* _core.warn_complex_cast(from, to[, stacklevel]): the same for the Python
 * front end's casts (dtype codes), warned stacklevel up from the caller, by
 * default at the first frame outside ndtile. */
PyObject *f_warn_complex_cast(PyObject *m, PyObject *args) {
  (void)m;
  int from, to, level = 0;
  if (!PyArg_ParseTuple(args, "ii|i", &from, &to, &level)) return NULL;
  if (complex_cast_warning(from, to, level) < 0) return NULL;
  Py_RETURN_NONE;
}

/* Test hook: raise the exception a status maps to, with a message. */
PyObject *f_raise_status(PyObject *m, PyObject *arg) {
  (void)m;
  long s = PyLong_AsLong(arg);
  if (s == -1 && PyErr_Occurred()) return NULL;
  return raise_status((ndt_status)s);
}

