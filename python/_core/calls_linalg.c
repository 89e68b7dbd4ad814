/* calls_linalg.c - module functions of products, linear algebra, FFT, correlate. */
#include "_core.h"

/* matmul(a, b, out=None) and dot(a, b, out=None): ndtile arrays only. */
static PyObject *product(PyObject *args, int dot) {
  PyObject *a, *b, *out = Py_None;
  if (!PyArg_ParseTuple(args, "OO|O", &a, &b, &out) || !check_arr(a) || !check_arr(b) ||
      (out != Py_None && !check_arr(out)))
    return NULL;
  /* NumPy's warning for a broadcast_arrays result (dot refuses a
   * non-C-contiguous out first, and such a result is one) */
  if (out != Py_None && (!dot || ndt_is_c_contiguous(ARR(out))) &&
      warn_before_write(ARR(out)) < 0)
    return NULL;
  ndt_array *r = out == Py_None ? NULL : ARR(out);
  ndt_status st;
  CORE(st = dot ? ndt_dot(&r, ARR(a), ARR(b)) : ndt_matmul(&r, ARR(a), ARR(b)));
  if (st) return raise_status(st);
  if (out != Py_None) {
    Py_INCREF(out);
    return fp_done(out);   /* its floating-point errors, at this call */
  }
  return fp_done(wrap(r));
}
PyObject *f_matmul(PyObject *m, PyObject *args) { (void)m; return product(args, 0); }
PyObject *f_dot(PyObject *m, PyObject *args) { (void)m; return product(args, 1); }

/* fft(a, axis, n, kind, scale): ndt_fft (kind 0 forward, 1 backward, 2 r2c, 3 c2r). */
PyObject *f_fft(PyObject *m, PyObject *args) {
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

/* ---- correlation, diagonal view, put (src/ops/convolve.c) ---- */
PyObject *f_correlate(PyObject *m, PyObject *args) {
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

/* linalg(op, a, b|None, flags, param): tuple of the op's results. */
PyObject *f_linalg(PyObject *m, PyObject *args) {
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

