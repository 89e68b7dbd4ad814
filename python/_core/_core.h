/* _core.h - what the files of the binding (module ndtile._core) share.
 *
 * The binding is split by job: module.c (the module, its method table,
 * runtime settings and counters, Ctrl-C), errors.c (the status-to-exception
 * mapping, floating-point error reports), convert.c (dtypes, Python values,
 * shapes), array.c (the Array type: getters and methods), number.c (the
 * number protocol and comparisons, the hot path of `a + b`), index.c (basic
 * indexing), buffer.c (the buffer protocol), calls_*.c (module functions by
 * subject: creation, ufunc, reduce, index, linalg, random), dispatch.c (the
 * foreign-array check of public functions). Only module.c's PyInit__core is
 * exported; everything here is private to the extension (hidden).
 *
 * core_enter/core_leave are static inline: they run around every core call,
 * small-array operators included, and must not cost a call each.
 */
#ifndef NDTILE_CORE_H
#define NDTILE_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#if PY_VERSION_HEX < 0x030B0000
/* Python 3.10: PyFrame_GetGlobals is 3.11's; before it the field is public */
#include <frameobject.h>
static inline PyObject *PyFrame_GetGlobals(PyFrameObject *f) { return Py_XNewRef(f->f_globals); }
#endif
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include "ndtile.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* ---- the core lock ------------------------------------------------------ */
/* A plain mutex: its uncontended trylock is one atomic instruction, where
 * CPython's lock reads the clock and posts a semaphore (a tenth of the time
 * of `x += 2*y` on 1,000 elements). */
extern pthread_mutex_t core_lock;

/* Python code can run inside a core call (the floating-point capture hook
 * calls into Python, and any allocation there may start the garbage
 * collector), and what it frees must not take the lock this thread holds:
 * arrays dropped then are freed when the call leaves the core. */
extern _Thread_local int core_held;
/* Set (under core_lock) by the calls that lend memory, the first time:
 * ndt_host_export, ndt_from_memory, ndt_view_itemsize. */
extern int core_lent;
extern ndt_array **dead_arrays;
extern size_t ndead, capdead;

/* Where a call starts for interrupts (ndt_call_begin; errors.c): outside
 * any guarded call every core call marks (an unguarded read, a package
 * function's _core call is a call of its own: CALL_MARK_EACH); an outermost
 * guarded call marks at its first core entry (CALL_MARK_ONCE), then not
 * (CALL_MARK_NONE). */
enum { CALL_MARK_NONE, CALL_MARK_ONCE, CALL_MARK_EACH };
extern _Thread_local int call_mark;
/* Interrupts (module.c): sigint_told, the SIGINT handler passed the last
 * request on to Python's handler too; interrupt_taken() makes Python raise
 * for a request that a wait which cannot fail acted on (the core cancelled
 * the call's work); intr_check: this thread's next fp_done runs Python's
 * handler now. */
extern atomic_int sigint_told;
extern _Thread_local int intr_check;
void interrupt_taken(void);
static inline void core_enter(void) {
  /* a request left from a Ctrl-C that Python already handled between
   * calls must not stop this one */
  atomic_store_explicit(&sigint_told, 0, memory_order_relaxed);
  if (ndt_interrupt_pending()) ndt_clear_interrupt();
  if (pthread_mutex_trylock(&core_lock) != 0) {
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&core_lock);
    Py_END_ALLOW_THREADS
  }
  core_held = 1;
  if (call_mark) {
    ndt_call_begin();
    if (call_mark == CALL_MARK_ONCE) call_mark = CALL_MARK_NONE;
  }
}
/* A floating-point error a buffer export raised, kept for the array's
 * copy-out that NumPy falls back to (array_getbuffer); cleared as any core
 * call ends. */
extern PyObject *fp_stashed;
extern PyObject *fp_stashed_owner;   /* compared, never dereferenced */

static inline void core_leave(void) {
  if (fp_stashed) {
    PyObject *e = fp_stashed;
    fp_stashed = NULL;
    Py_DECREF(e);
  }
  while (ndead) ndt_free(dead_arrays[--ndead]);
  /* memory lent out (the buffer protocol) is the borrower's again between
   * calls: the tasks this call recorded on it finish first. Until this
   * module first lends memory (core_lent) there is nothing to settle. */
  if (core_lent) ndt_host_settle();
  /* a wait that cannot fail (the look-ahead bound, the settle above) acted
   * on an interrupt: the call's work is cancelled, and the call raises */
  if (ndt_take_interrupted()) interrupt_taken();
  core_held = 0;
  pthread_mutex_unlock(&core_lock);
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


/* ---- registered from Python (module.c) ------------------------------------ */
extern PyTypeObject ArrayType, RngType, DispatchType, GuardType;
extern PyTypeObject *wrap_type;       /* type of new arrays: ndtile.ndarray */
extern PyObject *np_dtypes[NDT_NTYPES];   /* numpy dtype objects */
extern PyObject *np_scalars[NDT_NTYPES];  /* numpy scalar types */
extern PyObject *int_scalar_types;        /* tuple: numpy integer scalar types */
extern PyObject *binop_hook, *getitem_hook, *setitem_hook;
/* ndarray subclasses (Python classes deriving from ndtile.ndarray): the
 * number slots and indexing hand them to Python, which applies NumPy's
 * subclass rules (__array_ufunc__, __array_wrap__, __array_finalize__).
 * Plain arrays pay one type-pointer comparison. */
extern PyObject *unop_hook, *subscript_hook;
#define IS_SUBCLASS(o) (Py_TYPE(o) != wrap_type && wrap_type != &ArrayType && IS_ARRAY(o))
extern PyObject *axis_error_type, *ufunc_type_error, *complex_warning_type;
extern PyNumberMethods array_as_number;
extern PyMappingMethods array_as_mapping;
extern PySequenceMethods array_as_sequence;
extern PyBufferProcs array_as_buffer;
extern int fp_sync_wanted;

/* ---- the Array type --------------------------------------------------------- */
typedef struct {
  PyObject_HEAD
  ndt_array *arr;
  PyObject *shape;      /* cached shape tuple */
  PyObject *weakrefs;
  PyObject *base;       /* NumPy's .base: the object owning the memory of a view (held, as
                         * NumPy's base is), or what an owner was made from (frombuffer's
                         * buffer); NULL for none */
  int unaligned;        /* NumPy's ALIGNED cleared by setflags(align=False) (the memory
                         * is aligned; this object's flag only, as NumPy's) */
} ArrayObject;

#define IS_ARRAY(o) PyObject_TypeCheck((o), &ArrayType)
#define ARR(o) (((ArrayObject *)(o))->arr)

/* Takes ownership of a; frees it on failure (array.c). */
PyObject *wrap_as(PyTypeObject *t, ndt_array *a);
static inline PyObject *wrap(ndt_array *a) { return wrap_as(wrap_type, a); }
/* A new result of a ufunc or an operator, as NumPy returns it: a 0-d one
 * as its NumPy scalar (NumPy's ufuncs unwrap 0-d outputs unless out= is
 * given; the value is read, so a deferred one is waited for, and on many
 * ranks every rank gets it), any other as an array. Takes ownership of a. */
PyObject *ufunc_result(ndt_array *a);

/* ---- elements (convert.c) ------------------------------------------------- */
static inline int is_int_kind(ndt_dtype t) { return t >= NDT_INT8 && t <= NDT_UINT64; }
static inline int is_float_kind(ndt_dtype t) { return t == NDT_FLOAT32 || t == NDT_FLOAT64; }
static inline int is_complex_kind(ndt_dtype t) { return t == NDT_COMPLEX64 || t == NDT_COMPLEX128; }

typedef union {
  uint8_t b;
  int64_t i;
  uint64_t u;
  double d;
  double c[2];
  char raw[16];
} elem_t;

#define MAXIDX (2 * NDT_MAXDIMS + 1)

/* ---- functions shared between files, by the file defining them ---------- */
/* array.c (and wrap_as above) */
int check_arr_fail(void);
/* 1 when o is an initialised array, else 0 with a TypeError (inline: every
 * method and number slot asks) */
static inline int check_arr(PyObject *o) {
  return IS_ARRAY(o) && ARR(o) ? 1 : check_arr_fail();
}
PyObject *m_to_buffer(PyObject *self, PyObject *dst);
/* NumPy's array_might_be_written: before a write into a (an array with
 * WARN_ON_WRITE, from np.broadcast_arrays) NumPy's DeprecationWarning, then
 * the flag cleared on that handle (so the core, ndt__check_writeable,
 * records nothing more), at the user's line (user_stacklevel). -1 with the
 * warning raised as an error (the flag kept, nothing to be written), else 0. */
int warn_before_write(ndt_array *a);
ndt_status same_view(ndt_array **r, const ndt_array *a);
PyObject *f_set_dtype_hook(PyObject *m, PyObject *args);

/* buffer.c */
int array_getbuffer(PyObject *self, Py_buffer *view, int flags);
PyObject *f_buffer_address(PyObject *m, PyObject *obj);
PyObject *f_array_struct(PyObject *m, PyObject *args);

/* calls_creation.c */
int get_dtype_arg(PyObject *o, ndt_dtype *t);
PyObject *f_empty(PyObject *m, PyObject *a);
PyObject *f_zeros(PyObject *m, PyObject *a);
PyObject *f_ones(PyObject *m, PyObject *a);
PyObject *f_full(PyObject *m, PyObject *args);
PyObject *f_scalar(PyObject *m, PyObject *args);
PyObject *f_arange(PyObject *m, PyObject *args);
PyObject *f_linspace(PyObject *m, PyObject *args);
PyObject *f_eye(PyObject *m, PyObject *args);
PyObject *f_from_buffer(PyObject *m, PyObject *args);
PyObject *f_concat_same(PyObject *m, PyObject *args);

/* calls_index.c */
PyObject *f_gather(PyObject *m, PyObject *args);
PyObject *f_diagonal(PyObject *m, PyObject *args);
PyObject *f_put(PyObject *m, PyObject *args);
PyObject *f_put_op(PyObject *m, PyObject *args);
PyObject *f_view_dtype(PyObject *m, PyObject *args);
PyObject *f_view_itemsize(PyObject *m, PyObject *args);
PyObject *f_from_memory(PyObject *m, PyObject *args);
PyObject *f_take_owner(PyObject *m, PyObject *args);
PyObject *f_as_strided(PyObject *m, PyObject *args);

/* calls_linalg.c */
PyObject *f_matmul(PyObject *m, PyObject *args);
PyObject *f_dot(PyObject *m, PyObject *args);
PyObject *f_fft(PyObject *m, PyObject *args);
PyObject *f_correlate(PyObject *m, PyObject *args);
PyObject *f_linalg(PyObject *m, PyObject *args);

/* calls_reduce.c */
PyObject *f_reduce(PyObject *m, PyObject *args);
PyObject *f_sum_where_lines(PyObject *m, PyObject *args);
PyObject *f_bincount(PyObject *m, PyObject *args);
PyObject *f_scan(PyObject *m, PyObject *args);
PyObject *f_argwhere(PyObject *m, PyObject *a);
int clamp_axis(long v);
PyObject *f_sort(PyObject *m, PyObject *args);
PyObject *f_partition(PyObject *m, PyObject *args);
PyObject *f_searchsorted(PyObject *m, PyObject *args);
PyObject *f_histogram_bins(PyObject *m, PyObject *args);
PyObject *f_histogram_count(PyObject *m, PyObject *args);
PyObject *f_reduceat(PyObject *m, PyObject *args);

/* calls_ufunc.c */
PyObject *f_apply(PyObject *m, PyObject *args);
PyObject *f_divmod(PyObject *m, PyObject *args);
PyObject *f_fp_group_begin(PyObject *m, PyObject *arg);
PyObject *f_fp_group_end(PyObject *m, PyObject *noargs);
PyObject *f_result_type(PyObject *m, PyObject *args);
PyObject *f_ufunc_resolve(PyObject *m, PyObject *args);
PyObject *f_clip(PyObject *m, PyObject *args);
PyObject *f_promote(PyObject *m, PyObject *args);
PyObject *f_can_cast(PyObject *m, PyObject *args);
PyObject *f_broadcast_shapes(PyObject *m, PyObject *shapes);

/* convert.c */
int parse_dtype(PyObject *o, ndt_dtype *t);
int int_fits(ndt_dtype t, long long v);
int pyscalar_elem(PyObject *o, ndt_dtype *vt, elem_t *v);
int pynumber_elem(PyObject *o, ndt_dtype *vt, elem_t *v);
PyObject *elem_to_py(ndt_dtype t, const void *p);
PyObject *elem_to_np(ndt_dtype t, const void *p);
int parse_shape(PyObject *o, int *nd, int64_t *shape);
int parse_shape_nonneg(PyObject *o, int *nd, int64_t *shape);
PyObject *shape_tuple(int nd, const int64_t *shape);
int parse_axes(PyObject *o, int *n, int *axes);

/* dispatch.c */
PyObject *f_dispatcher(PyObject *m, PyObject *args);
PyObject *f_guard(PyObject *m, PyObject *func);
PyObject *f_dispatch_setup(PyObject *m, PyObject *args);

/* errors.c */
PyObject *raise_status(ndt_status st);
/* PyErr_WarnEx's stacklevel of the first frame outside the ndtile package
 * (1: the running frame is the user's), so that a warning raised in C
 * under ndtile's Python code names the user's line, as NumPy's does. */
int user_stacklevel(void);
int fp_report(void);
/* Around an ndtile function the program calls (errors.c: the call in
 * progress): the floating-point errors of the work it records are reported
 * when it returns and dropped when it raises. fp_call_exit takes and
 * returns the call's result (NULL: it raised). */
void fp_call_enter(void);
PyObject *fp_call_exit(PyObject *result);
/* The end of a call that ran work inline: floating-point errors it raised
 * are reported now (o dropped when that raises). Inline, with wrap_status:
 * every call returning an array ends here. */
static inline PyObject *fp_done(PyObject *o) {
  if (o && intr_check) {
    intr_check = 0;
    if (PyErr_CheckSignals() < 0) {   /* (the main thread: KeyboardInterrupt) */
      Py_DECREF(o);
      return NULL;
    }
  }
  if (o && (ndt_fp_errors_pending() || fp_sync_wanted) && fp_report() < 0) {
    Py_DECREF(o);
    return NULL;
  }
  return o;
}
static inline PyObject *wrap_status(ndt_status st, ndt_array *a) {
  if (st) return raise_status(st);
  return fp_done(wrap(a));
}
PyObject *f_fp_setup(PyObject *m, PyObject *args);
PyObject *f_fp_report(PyObject *m, PyObject *noargs);
PyObject *f_status_string(PyObject *m, PyObject *arg);
PyObject *f_raise_status(PyObject *m, PyObject *arg);
int warn_complex_cast(ndt_dtype from, ndt_dtype to);
PyObject *f_warn_complex_cast(PyObject *m, PyObject *args);

/* index.c */
int parse_index(PyObject *key, ndt_index *idx, int *n, int *nint);

/* number.c */
ndt_status weak_scalar(ndt_dtype t, const elem_t *v, ndt_array **out, int *owned);
int operand(PyObject *o, PyObject *other, int op, ndt_array **a, ndt_array **tmp);
PyObject *array_richcompare(PyObject *a, PyObject *b, int op);

void free_later(ndt_array *a);
void sigint_guard(void);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
