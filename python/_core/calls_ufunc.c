/* calls_ufunc.c - module functions of elementwise ops: apply, result_type,
 * ufunc_resolve, clip, promote, can_cast, broadcast_shapes. */
#include "_core.h"

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
  int cached = 0;
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
    ndt_array *a;
    ndt_status st;
    if (!cached) {
      int owned;
      st = weak_scalar(vt, &v, &a, &owned);
      cached = 1;
    } else {
      /* the cache keeps one scalar per slot: a second one from the cache
       * could evict (free) the first while this call still reads it */
      CORE(st = ndt_scalar(&a, vt, &v, 1));
      if (!st) tmps[i] = a;
    }
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

PyObject *f_apply(PyObject *m, PyObject *args) {
  (void)m;
  int op;
  PyObject *inputs, *out = Py_None, *dto = NULL;
  ndt_dtype t = NDT_DTYPE_DEFAULT;
  int scalar = 0;
  if (!PyArg_ParseTuple(args, "iO|OOp", &op, &inputs, &out, &dto, &scalar)) return NULL;
  if (dto && !get_dtype_arg(dto, &t)) return NULL;
  if (out != Py_None && (!check_arr(out) || warn_before_write(ARR(out)) < 0)) return NULL;
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
  return fp_done(scalar ? ufunc_result(res) : wrap(res));
}

/* fp_group_begin(name) / fp_group_end(): ndt_fp_group_begin/end (the name is
 * kept: interned strings only); the end reports what the group raised. */
PyObject *f_fp_group_begin(PyObject *m, PyObject *arg) {
  (void)m;
  if (!PyUnicode_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "name must be a str");
    return NULL;
  }
  /* arg is borrowed: a reference of our own first, which InternInPlace may
   * swap for the interned string (it releases the one it is given) */
  Py_INCREF(arg);
  PyUnicode_InternInPlace(&arg);   /* interned: lives on; its UTF-8 buffer with it */
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  CORE(ndt_fp_group_begin(name));
  Py_RETURN_NONE;
}

PyObject *f_fp_group_end(PyObject *m, PyObject *noargs) {
  (void)m;
  (void)noargs;
  CORE(ndt_fp_group_end());
  return fp_done(Py_NewRef(Py_None));
}

/* divmod(inputs, out1=None, out2=None, dt=-1) -> (quotient, remainder):
 * ndt_divmod, its floating-point errors reported as "divmod". */
PyObject *f_divmod(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *inputs, *o1 = Py_None, *o2 = Py_None, *dto = NULL;
  ndt_dtype t = NDT_DTYPE_DEFAULT;
  int scalar = 0;
  if (!PyArg_ParseTuple(args, "O|OOOp", &inputs, &o1, &o2, &dto, &scalar)) return NULL;
  if (dto && !get_dtype_arg(dto, &t)) return NULL;
  if ((o1 != Py_None && !check_arr(o1)) || (o2 != Py_None && !check_arr(o2))) return NULL;
  const ndt_array *in[3];
  ndt_array *tmps[3] = {0};
  int nin;
  if (!gather_inputs(inputs, NDT_FLOOR_DIVIDE, &nin, in, tmps)) return NULL;
  if (nin != 2) {
    for (int i = 0; i < nin; i++) CORE(ndt_free(tmps[i]));
    PyErr_SetString(PyExc_TypeError, "divmod takes two inputs");
    return NULL;
  }
  ndt_array *q = o1 == Py_None ? NULL : ARR(o1), *r = o2 == Py_None ? NULL : ARR(o2);
  ndt_status st;
  core_enter();
  st = ndt_divmod(&q, &r, in[0], in[1], t);
  for (int i = 0; i < nin; i++) ndt_free(tmps[i]);
  core_leave();
  if (st) return raise_status(st);
  PyObject *a = o1 != Py_None ? Py_NewRef(o1) : scalar ? ufunc_result(q) : wrap(q), *b = NULL;
  if (a) b = o2 != Py_None ? Py_NewRef(o2) : scalar ? ufunc_result(r) : wrap(r);
  else if (o2 == Py_None) CORE(ndt_free(r));   /* (nothing may run with the error set) */
  if (!a || !b) {
    Py_XDECREF(a);
    Py_XDECREF(b);
    return NULL;
  }
  PyObject *res = Py_BuildValue("(NN)", a, b);   /* takes a and b */
  return res ? fp_done(res) : NULL;
}

PyObject *f_result_type(PyObject *m, PyObject *args) {
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
PyObject *f_ufunc_resolve(PyObject *m, PyObject *args) {
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

PyObject *f_clip(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *lo, *hi, *out = Py_None;
  if (!PyArg_ParseTuple(args, "OOO|O", &a, &lo, &hi, &out)) return NULL;
  PyObject *objs[3] = {a, lo, hi};
  const ndt_array *in[3] = {0};
  ndt_array *tmps[3] = {0};
  /* the given operands gathered in one call (two Python scalar bounds
   * must not share the scalar cache), then put back in their places */
  Py_ssize_t ng = 1 + (lo != Py_None) + (hi != Py_None);
  PyObject *given = PyTuple_New(ng);
  if (!given) return NULL;
  for (int i = 0, k = 0; i < 3; i++) {
    if (i > 0 && objs[i] == Py_None) continue;
    PyTuple_SET_ITEM(given, k++, Py_NewRef(objs[i]));
  }
  int n;
  const ndt_array *x[3];
  ndt_array *tx[3];
  int ok = gather_inputs(given, -1, &n, x, tx);
  Py_DECREF(given);
  if (!ok) return NULL;
  for (int i = 0, k = 0; i < 3; i++) {
    if (i > 0 && objs[i] == Py_None) continue;
    in[i] = x[k];
    tmps[i] = tx[k];
    k++;
  }
  if (out != Py_None && (!check_arr(out) || warn_before_write(ARR(out)) < 0)) {
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

PyObject *f_promote(PyObject *m, PyObject *args) {
  (void)m;
  int a, aw, b, bw;
  if (!PyArg_ParseTuple(args, "iiii", &a, &aw, &b, &bw)) return NULL;
  return PyLong_FromLong(ndt_promote((ndt_dtype)a, aw, (ndt_dtype)b, bw));
}

PyObject *f_can_cast(PyObject *m, PyObject *args) {
  (void)m;
  int a, b, c;
  if (!PyArg_ParseTuple(args, "iii", &a, &b, &c)) return NULL;
  return PyBool_FromLong(ndt_can_cast((ndt_dtype)a, (ndt_dtype)b, (ndt_casting)c));
}

PyObject *f_broadcast_shapes(PyObject *m, PyObject *shapes) {
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

