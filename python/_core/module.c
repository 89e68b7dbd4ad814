/* module.c - the Python binding of libndtile (module ndtile._core): the
 * module, its method table, runtime settings, Ctrl-C.
 *
 * The binding as a whole:
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

#include "_core.h"

/* ---- the core lock and the arrays freed inside a core call (_core.h) ---- */
pthread_mutex_t core_lock = PTHREAD_MUTEX_INITIALIZER;
_Thread_local int core_held;
int core_lent;
ndt_array **dead_arrays;
size_t ndead, capdead;

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
atomic_int sigint_told;
_Thread_local int intr_check;

static void on_sigint(int sig, siginfo_t *info, void *ctx) {
  /* (told before the core may act on the request: interrupt_taken) */
  if (prev_sigint.sa_flags & SA_SIGINFO ? prev_sigint.sa_sigaction != NULL
                                         : prev_sigint.sa_handler != SIG_DFL &&
                                               prev_sigint.sa_handler != SIG_IGN)
    atomic_store(&sigint_told, 1);
  ndt_interrupt();
  if (prev_sigint.sa_flags & SA_SIGINFO) {
    if (prev_sigint.sa_sigaction) prev_sigint.sa_sigaction(sig, info, ctx);
  } else if (prev_sigint.sa_handler != SIG_DFL && prev_sigint.sa_handler != SIG_IGN) {
    prev_sigint.sa_handler(sig);
  }
}

/* A wait that cannot fail (an op's look-ahead wait, settling lent memory)
 * acted on a request: the core cancelled the call's work, and the call
 * returns as if nothing happened. Python learns of it as of a Ctrl-C
 * (PyErr_SetInterruptEx: its SIGINT handler runs in the main thread, at
 * once when this thread is the main one: fp_done), unless the request came
 * through on_sigint, which told Python's handler already. A request from
 * another thread (ndt_interrupt, _core.interrupt) was dropped before. */
void interrupt_taken(void) {
  if (!atomic_exchange(&sigint_told, 0)) PyErr_SetInterruptEx(SIGINT);
  intr_check = 1;
}

/* Puts on_sigint in front of the handler installed now, when that is a
 * handler (not the default or ignore: then Ctrl-C is not Python's to
 * handle). At import, and from the core's wait hook (any thread, no GIL:
 * it touches only this file's statics and sigaction). */
void sigint_guard(void) {
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

/* Frees a from inside a core call of this thread: at the call's end. */
void free_later(ndt_array *a) {
  if (ndead == capdead) {
    size_t cap = capdead ? 2 * capdead : 64;
    ndt_array **d = realloc(dead_arrays, cap * sizeof *d);
    if (!d) return;   /* out of memory: the handle leaks rather than deadlock */
    dead_arrays = d;
    capdead = cap;
  }
  dead_arrays[ndead++] = a;
}

/* ---- registered from Python --------------------------------------------- */
PyTypeObject *wrap_type = &ArrayType;
PyObject *np_dtypes[NDT_NTYPES];
PyObject *np_scalars[NDT_NTYPES];
PyObject *int_scalar_types;
PyObject *binop_hook, *getitem_hook, *setitem_hook;
PyObject *unop_hook, *subscript_hook;
PyObject *axis_error_type, *ufunc_type_error, *complex_warning_type;

static PyObject *f_subclass_hooks(PyObject *mod, PyObject *args) {
  (void)mod;
  PyObject *u, *g;
  if (!PyArg_ParseTuple(args, "OO", &u, &g)) return NULL;
  Py_XSETREF(unop_hook, u == Py_None ? NULL : Py_NewRef(u));
  Py_XSETREF(subscript_hook, g == Py_None ? NULL : Py_NewRef(g));
  Py_RETURN_NONE;
}

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

static PyObject *f_sync(PyObject *m, PyObject *noargs) {
  (void)m;
  (void)noargs;
  ndt_status st;
  CORE_BLOCKING(st = ndt_sync());
  if (st) return raise_status(st);
  return fp_done(Py_NewRef(Py_None));
}

/* os.fork (os.register_at_fork): the forking thread holds the core lock
 * across the fork, so no other thread is inside the core when the
 * runtime's fork handlers (sched.c) finish its tasks, and the child's lock
 * is free. A fork from inside a core call (a hook) already holds it. */
static _Thread_local int fork_locked;
static PyObject *f_fork_before(PyObject *m, PyObject *noargs) {
  (void)m;
  (void)noargs;
  fork_locked = !core_held;
  if (fork_locked && pthread_mutex_trylock(&core_lock) != 0) {
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&core_lock);
    Py_END_ALLOW_THREADS
  }
  Py_RETURN_NONE;
}
static PyObject *f_fork_after(PyObject *m, PyObject *noargs) {
  (void)m;
  (void)noargs;
  if (fork_locked) pthread_mutex_unlock(&core_lock);
  fork_locked = 0;
  Py_RETURN_NONE;
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

/* _simd_cap(level): the CPU kernels' instruction set capped at level (0
 * scalar ... 3 AVX-512F), all recorded work waited for first; level < 0
 * asks. Returns the level in force (tests of floating-point flags). */
static PyObject *f_simd_cap(PyObject *m, PyObject *arg) {
  (void)m;
  long level = PyLong_AsLong(arg);
  if (level == -1 && PyErr_Occurred()) return NULL;
  if (level >= 0) {
    ndt_status st;
    CORE_BLOCKING(st = ndt_sync());
    if (st) return raise_status(st);
  }
  int lv;
  CORE_BLOCKING(lv = ndt_simd_cap(level < 0 ? -1 : level > 3 ? 3 : (int)level));
  return fp_done(PyLong_FromLong(lv));
}

/* _pending_tasks(): tasks recorded and not finished (tests) */
static PyObject *f_pending_tasks(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  return PyLong_FromLongLong(ndt_pending_tasks());
}

/* _debug_hold(a): long work on a until _debug_release() (tests) */
static PyObject *f_debug_hold(PyObject *m, PyObject *o) {
  (void)m;
  if (!PyObject_TypeCheck(o, &ArrayType)) {
    PyErr_SetString(PyExc_TypeError, "_debug_hold: an ndtile array");
    return NULL;
  }
  ndt_status st;
  CORE(st = ndt_debug_hold(ARR(o)));
  if (st) return raise_status(st);
  return fp_done(Py_NewRef(Py_None));
}

static PyObject *f_debug_release(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  ndt_debug_release();
  Py_RETURN_NONE;
}

/* _debug_interrupt_in_wait(): the next wait that lasts a slice (20 ms)
 * gets an interrupt from the core's own thread, as from another thread's
 * ndt_interrupt: no timing luck (tests) */
static atomic_int interrupt_in_wait;
static PyObject *f_debug_interrupt_in_wait(PyObject *m, PyObject *noargs) {
  (void)m, (void)noargs;
  atomic_store(&interrupt_in_wait, 1);
  Py_RETURN_NONE;
}

/* The core's wait hook (a wait lasts another slice; no GIL) */
static void on_wait_slice(void) {
  sigint_guard();
  if (atomic_load_explicit(&interrupt_in_wait, memory_order_relaxed) &&
      atomic_exchange(&interrupt_in_wait, 0))
    ndt_interrupt();
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
  {"concat_same", f_concat_same, METH_VARARGS,
   "concat_same(arrays, axis): a list or tuple of 2+ arrays of one dtype and ndim, matching "
   "but along the int axis, joined; None for any other arguments"},
  {"buffer_address", f_buffer_address, METH_O, "buffer_address(memoryview): its first byte"},
  {"array_struct", f_array_struct, METH_VARARGS,
   "array_struct(a, mv, shape, strides, kind, itemsize, flags): __array_struct__'s capsule"},
  {"apply", f_apply, METH_VARARGS,
   "apply(op, inputs, out=None, dt=-1, scalar=False): scalar, a 0-d result as a NumPy scalar"},
  {"divmod", f_divmod, METH_VARARGS,
   "divmod(inputs, out1=None, out2=None, dt=-1, scalar=False)"},
  {"fp_group_begin", f_fp_group_begin, METH_O, "fp_group_begin(name): ndt_fp_group_begin"},
  {"fp_group_end", f_fp_group_end, METH_NOARGS, "fp_group_end(): ndt_fp_group_end, reported"},
  {"result_type", f_result_type, METH_VARARGS, "result_type(op, inputs, dt=-1)"},
  {"ufunc_resolve", f_ufunc_resolve, METH_VARARGS,
   "ufunc_resolve(op, dtypes, weak, dt=-1) -> (loop dtypes, flags)"},
  {"clip", f_clip, METH_VARARGS, "clip(a, lo, hi, out=None)"},
  {"reduce", f_reduce, METH_VARARGS, "reduce(op, a, axes_mask|None, keepdims, dt, ddof=0)"},
  {"sum_where_lines", f_sum_where_lines, METH_VARARGS,
   "sum_where_lines(op, x, w, start_bytes|None): (K, R, L) masked sums in NumPy's order"},
  {"matmul", f_matmul, METH_VARARGS, "matmul(a, b, out=None)"},
  {"dot", f_dot, METH_VARARGS, "dot(a, b, out=None)"},
  {"gather", f_gather, METH_VARARGS,
   "gather(a, [idx or (ax, start, step) per axis], shape|None, hi|None): a[i0, i1, ...]"},
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
  {"guard", f_guard, METH_O,
   "guard(func): func as a method whose call holds its floating-point errors"},
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
  {"_fork_before", f_fork_before, METH_NOARGS, "os.register_at_fork: take the core lock"},
  {"_fork_after", f_fork_after, METH_NOARGS, "os.register_at_fork: give it back"},
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
  {"_pending_tasks", f_pending_tasks, METH_NOARGS, "tasks recorded and not finished (tests)"},
  {"_simd_cap", f_simd_cap, METH_O, "test hook: cap the CPU kernels' SIMD level (-1: ask)"},
  {"_debug_hold", f_debug_hold, METH_O, "test hook: long work on a until _debug_release()"},
  {"_debug_release", f_debug_release, METH_NOARGS, "test hook: ends every _debug_hold"},
  {"_debug_interrupt_in_wait", f_debug_interrupt_in_wait, METH_NOARGS,
   "test hook: the next wait that lasts 20 ms is interrupted"},
  {"init", f_init, METH_VARARGS, "init(workers=0, tile_bytes=0, inline_elems=-1)"},
  {"setting_names", f_setting_names, METH_NOARGS, "setting_names() -> the NDTILE_* names"},
  {"parse_setting", f_parse_setting, METH_VARARGS, "parse_setting(name, text) -> int"},
  {"setting_value", f_setting_value, METH_VARARGS, "setting_value(name) -> the value in force"},
  {"status_string", f_status_string, METH_O, "name of a status"},
  {"_raise_status", f_raise_status, METH_O, "test hook: raise the mapped exception"},
  {"warn_complex_cast", f_warn_complex_cast, METH_VARARGS,
   "ComplexWarning for a cast from complex to a real dtype (from, to[, stacklevel])"},
  {"linalg", f_linalg, METH_VARARGS, "linalg(op, a, b|None, flags, param): tuple of results"},
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef coremodule = {
  PyModuleDef_HEAD_INIT, "_core", "The libndtile binding.", -1, module_methods,
  NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
  if (PyType_Ready(&ArrayType) < 0 || PyType_Ready(&RngType) < 0 ||
      PyType_Ready(&DispatchType) < 0 ||
      PyType_Ready(&GuardType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&coremodule);
  if (!m) return NULL;
  sigint_guard();
  ndt_set_wait_hook(on_wait_slice);
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
  PyObject *rnames = PyTuple_New(NDT_NREDUCE);
  if (!rnames) goto fail;
  for (int i = 0; i < NDT_NREDUCE; i++)
    PyTuple_SET_ITEM(rnames, i, PyUnicode_FromString(ndt_reduce_name((ndt_reduce_op)i)));
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
      PyModule_AddIntConstant(m, "RESOLVE_HALF", NDT_RESOLVE_HALF) < 0 ||
      /* the casting rules of _astype/_assign/can_cast (ndt_casting) */
      PyModule_AddIntConstant(m, "CASTING_NO", NDT_CAST_NO) < 0 ||
      PyModule_AddIntConstant(m, "CASTING_EQUIV", NDT_CAST_EQUIV) < 0 ||
      PyModule_AddIntConstant(m, "CASTING_SAFE", NDT_CAST_SAFE) < 0 ||
      PyModule_AddIntConstant(m, "CASTING_SAME_KIND", NDT_CAST_SAME_KIND) < 0 ||
      PyModule_AddIntConstant(m, "CASTING_UNSAFE", NDT_CAST_UNSAFE) < 0)
    goto fail;
  return m;
fail:
  Py_XDECREF(names);
  Py_XDECREF(nins);
  Py_XDECREF(dnames);
  Py_DECREF(m);
  return NULL;
}

