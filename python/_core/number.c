/* number.c - the number protocol and comparisons of arrays with arrays and
 * Python scalars (weak 0-d arrays, cached): the hot path of `a + b`. */
#include "_core.h"

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

ndt_status weak_scalar(ndt_dtype t, const elem_t *v, ndt_array **out, int *owned) {
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
int operand(PyObject *o, PyObject *other, int op, ndt_array **a, ndt_array **tmp) {
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
  fp_call_enter();
  PyObject *r = fp_call_exit(PyObject_Vectorcall(binop_hook, args, 4, NULL));
  Py_DECREF(args[0]);
  return r;
}

/* The core refused the operand types (no loop, an output cast): NumPy's own
 * exception, class and message, comes from the ufunc's Python path, which
 * asks NumPy (_UFuncNoLoopError for +bool_array, 'numpy boolean subtract'
 * for bool - bool, _UFuncOutputCastingError for int_array += 1.5). */
static int refused_types(ndt_status st) {
  const ndt_error *e = ndt_last_error_info();
  ndt_error_kind k = e->status == st ? e->kind : ndt_status_kind(st);
  return k == NDT_KIND_TYPE || k == NDT_KIND_UFUNC_TYPE;
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
  if (inplace && warn_before_write(ARR(a)) < 0) {   /* NumPy's, before the write */
    if (tx || ty) CORE(ndt_free(tx); ndt_free(ty));
    return NULL;
  }
  ndt_array *res = inplace ? ARR(a) : NULL;
  ndt_status st;
  core_enter();
  st = ndt_binary(&res, op, x, y);
  ndt_free(tx);
  ndt_free(ty);
  core_leave();
  if (st) return binop_hook && refused_types(st) ? call_binop_hook(op, a, b, inplace)
                                                 : raise_status(st);
  if (inplace) {
    Py_INCREF(a);
    return fp_done(a);
  }
  return fp_done(ufunc_result(res));
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
  if (st && unop_hook && refused_types(st)) {   /* NumPy's exception (above) */
    PyObject *o = PyLong_FromLong(op);
    if (!o) return NULL;
    PyObject *r = PyObject_CallFunctionObjArgs(unop_hook, o, a, NULL);
    Py_DECREF(o);
    return r;
  }
  if (st) return raise_status(st);
  return fp_done(ufunc_result(res));
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
    if (inplace && warn_before_write(ARR(a)) < 0) return NULL;   /* NumPy's, before */
    ndt_array *res = inplace ? ARR(a) : NULL;
    ndt_status st;
    CORE(st = ndt_unary(&res, op, ARR(a)));
    if (st) return raise_status(st);
    if (inplace) {
      Py_INCREF(a);
      return fp_done(a);
    }
    return fp_done(ufunc_result(res));
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

PyObject *array_richcompare(PyObject *a, PyObject *b, int op) {
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

PyNumberMethods array_as_number = {
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

