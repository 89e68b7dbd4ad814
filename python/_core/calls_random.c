/* calls_random.c - the Rng type (random numbers). */
#include "_core.h"

/* ---- random numbers: the Rng type ------------------------------------------------ */
/* Owns an ndt_rng (the core's counter-based Philox generator). Each sampler
 * takes (shape, dtype code, parameters...) and returns a new array; the
 * ndtile.random package builds NumPy's Generator/RandomState on top. The
 * generator is touched only with the core lock held. */
typedef struct {
  PyObject_HEAD
  ndt_rng *rng;
} RngObject;

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
  return rng_ok(self) && parse_shape(shp, nd, shape) && get_dtype_arg(dto, t);
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

/* A Python int (or an object with __index__) as sign and magnitude; 0 with
 * an exception set on failure. */
static int rng_bound(PyObject *o, ndt_int128 *w) {
  PyObject *v = PyNumber_Index(o);
  if (!v) return 0;
  int ovf;
  long long x = PyLong_AsLongLongAndOverflow(v, &ovf);
  if (x == -1 && PyErr_Occurred()) {
    Py_DECREF(v);
    return 0;
  }
  if (!ovf) {
    Py_DECREF(v);
    w->negative = x < 0;
    w->high = 0;
    w->low = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    return 1;
  }
  /* beyond int64: the magnitude's two 64-bit halves (the high one
   * saturating, which the core allows) */
  PyObject *mag = PyNumber_Absolute(v);
  Py_DECREF(v);
  PyObject *sixty_four = mag ? PyLong_FromLong(64) : NULL;
  PyObject *top = sixty_four ? PyNumber_Rshift(mag, sixty_four) : NULL;
  Py_XDECREF(sixty_four);
  if (!top) {
    Py_XDECREF(mag);
    return 0;
  }
  w->negative = ovf < 0;
  w->low = PyLong_AsUnsignedLongLongMask(mag);
  unsigned long long h = PyLong_AsUnsignedLongLong(top);
  if (h == (unsigned long long)-1 && PyErr_Occurred()) PyErr_Clear();   /* saturated */
  w->high = h;
  Py_DECREF(top);
  Py_DECREF(mag);
  return 1;
}

/* integers(shape, dt, low, high, endpoint): Python int bounds; the core
 * checks them (ndt_rng_integers_wide: NumPy's rules and messages). */
static PyObject *rng_integers(RngObject *self, PyObject *args) {
  PyObject *lo_o, *hi_o;
  int endpoint;
  RNG_VARS;
  if (!PyArg_ParseTuple(args, "OOOOp", &shp, &dto, &lo_o, &hi_o, &endpoint) || !rng_shape_dt(self, shp, dto, &nd, shape, &t)) return NULL;
  ndt_int128 lo, hi;
  if (!rng_bound(lo_o, &lo) || !rng_bound(hi_o, &hi)) return NULL;
  CORE(st = ndt_rng_integers_wide(&r, self->rng, nd, shape, t, lo, hi, endpoint));
  return wrap_status(st, r);
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

PyTypeObject RngType = {
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

