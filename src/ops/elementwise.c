/* elementwise.c - ufuncs, copies, casts and assignment as block tasks. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fusion.h"

static const char *casting_name(ndt_casting c) {
  static const char *n[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  return c >= 0 && c <= NDT_CAST_UNSAFE ? n[c] : "?";
}

static ndt_status check_dtype(ndt_dtype t) {
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "invalid dtype %d", (int)t);
  return NDT_OK;
}

/* The dtypes op runs in (ndt_ufunc_resolve) and the CPU loop for them. */
static ndt_status resolve(ndt_ufunc op, int nin, const ndt_array *const *in, ndt_dtype dtype,
                          ndt_dtype *loop_in, ndt_dtype *loop_out, ndt_loop_fn *loop) {
  if ((int)op < 0 || op >= NDT_NUFUNCS) return ndt__error(NDT_ERR_VALUE, "invalid ufunc %d", op);
  if (nin != ndt_ufunc_nin(op))
    return ndt__error(NDT_ERR_VALUE, "%s() takes %d inputs, got %d", ndt_ufunc_name(op),
                     ndt_ufunc_nin(op), nin);
  ndt_dtype types[NDT_MAXOPS], lt[NDT_MAXOPS];
  int weak[NDT_MAXOPS];
  for (int i = 0; i < nin; i++) {
    types[i] = in[i]->dtype;
    weak[i] = in[i]->weak;
  }
  ndt_status st = ndt_ufunc_resolve(op, nin, types, weak, dtype, lt, NULL);
  if (st) return st;
  *loop = ndt__kern->loop(op, lt);
  if (!*loop)
    return ndt__error(NDT_ERR_INTERNAL, "no CPU loop for ufunc '%s' on %s", ndt_ufunc_name(op),
                     ndt_dtype_name(lt[0]));
  for (int i = 0; i < nin; i++) loop_in[i] = lt[i];
  *loop_out = lt[nin];
  return NDT_OK;
}

ndt_status ndt_ufunc_result_type(ndt_ufunc op, int nin, const ndt_array *const *in,
                                 ndt_dtype dtype, ndt_dtype *out_type) {
  ndt_dtype li[NDT_MAXOPS];
  ndt_loop_fn loop;
  return resolve(op, nin, in, dtype, li, out_type, &loop);
}

/* The floating-point errors NumPy reports for op: none for the ops whose
 * loops only compare, select or move bits (a compare of a NaN may raise
 * "invalid" in hardware; NumPy's loops use quiet compares: clip of a NaN
 * too). ufunc.at's tasks use it too (strided.c). */
unsigned ndt__ufunc_fp_mask(ndt_ufunc op) {
  switch (op) {
    case NDT_EQUAL: case NDT_NOT_EQUAL: case NDT_LESS: case NDT_LESS_EQUAL:
    case NDT_GREATER: case NDT_GREATER_EQUAL: case NDT_LOGICAL_AND: case NDT_LOGICAL_OR:
    case NDT_LOGICAL_XOR: case NDT_LOGICAL_NOT: case NDT_BITWISE_AND: case NDT_BITWISE_OR:
    case NDT_BITWISE_XOR: case NDT_LEFT_SHIFT: case NDT_RIGHT_SHIFT: case NDT_INVERT:
    case NDT_MAXIMUM: case NDT_MINIMUM: case NDT_FMAX: case NDT_FMIN: case NDT_ISNAN:
    case NDT_ISINF: case NDT_ISFINITE: case NDT_SIGNBIT: case NDT_WHERE: case NDT_COPYSIGN:
    case NDT_BITWISE_COUNT: case NDT_SIGN: case NDT_HEAVISIDE: case NDT_CLIP:
      return 0;
    case NDT_ABSOLUTE:   /* NumPy's complex abs: no underflow */
      return NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_INVALID;
    default:
      return NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_UNDERFLOW | NDT_FPE_INVALID;
  }
}

static ndt_status apply(ndt_ufunc op, int nin, const ndt_array *const *in, ndt_array **out,
                        ndt_dtype dtype);

/* A Python scalar (weak 0-d operand) that the loop reads in a narrower float
 * type (1e308 next to float32 data): NumPy converts it before its loop, as
 * it stores a Python float into a float32 (FLOAT_setitem), and reports
 * "overflow encountered in cast" when a finite value becomes an infinity,
 * and nothing for one that becomes 0 or subnormal. When the conversion
 * would raise either, *conv is the converted scalar for the loop to read (its
 * own conversion would raise them under the op's name) and the overflow is
 * reported as "cast"; else *conv is NULL. The value is read only where
 * every rank holds it and no task writes it, so every rank decides alike. */
static ndt_status weak_narrowed(const ndt_array *a, ndt_dtype to, ndt_array **conv) {
  *conv = NULL;
  const ndt_dtype from = a->dtype;
  if (!a->weak || a->ndim != 0 || !a->store || a->store->ntiles != 1) return NDT_OK;
  const int cplx = from == NDT_COMPLEX128;
  if (!((from == NDT_FLOAT64 && (to == NDT_FLOAT32 || to == NDT_COMPLEX64)) ||
        (cplx && to == NDT_COMPLEX64)))
    return NDT_OK;
  const ndt_tile *t = &a->store->tiles[0];
  if (!(t->everywhere || ndt_nranks() == 1) || t->nwrites || !t->data ||
      !(atomic_load(&t->valid) & 1u))
    return NDT_OK;
  const char *p = ndt__host_elem(a, a->offset, 0, NULL);
  if (!p) return NDT_OK;
  double v[2] = {0, 0};
  memcpy(v, p, cplx ? 16 : 8);
  int over = 0, under = 0;
  float f[2];
  for (int k = 0; k < 2; k++) {
    f[k] = (float)v[k];
    over |= isinf(f[k]) && !isinf(v[k]);
    under |= v[k] != 0 && fabs((double)f[k]) < FLT_MIN;
  }
  ndt_fpe_clear();   /* the conversion's own flags: they mean nothing here */
  if (!over && !under) return NDT_OK;
  ndt_c64 c = {f[0], f[1]};
  ndt_status st = to == NDT_FLOAT32 ? ndt_scalar(conv, NDT_FLOAT32, &f[0], 1)
                                    : ndt_scalar(conv, NDT_COMPLEX64, &c, 1);
  if (st) return st;
  if (over) ndt__fp_report_now("cast", NDT_FPE_OVERFLOW);
  return NDT_OK;
}

ndt_status ndt_apply(ndt_array **out, ndt_ufunc op, int nin, const ndt_array *const *in,
                     ndt_dtype dtype) {
  /* first, as NumPy checks it before shapes and dtypes */
  ndt_status wst = *out ? ndt__check_writeable(*out, "output array is read-only", 1) : NDT_OK;
  if (wst) return wst;
  /* one record of floating-point errors for the whole op (all its tiles) */
  unsigned mask = (int)op >= 0 && op < NDT_NUFUNCS ? ndt__ufunc_fp_mask(op) : 0;
  if ((op >= NDT_LESS && op <= NDT_GREATER_EQUAL) || op == NDT_SIGN) {
    /* NumPy's complex loops: ordered compares that signal a NaN, and sign
     * z / |z|, whose division underflows for a tiny part */
    for (int i = 0; i < nin && i < 2; i++)
      if (in[i]->dtype == NDT_COMPLEX64 || in[i]->dtype == NDT_COMPLEX128 ||
          dtype == NDT_COMPLEX64 || dtype == NDT_COMPLEX128)
        mask = op == NDT_SIGN ? NDT_FPE_UNDERFLOW : NDT_FPE_INVALID;
  }
  ndt_fp_begin(ndt_ufunc_name(op), mask);
  ndt_status st = apply(op, nin, in, out, dtype);
  ndt_fp_end();
  return st;
}

/* a and b are one view: the same memory, dtype, shape and steps */
static int same_view(const ndt_array *a, const ndt_array *b) {
  if (a->store != b->store || a->offset != b->offset || a->dtype != b->dtype ||
      a->part != b->part || a->ndim != b->ndim)
    return 0;
  for (int k = 0; k < a->ndim; k++)
    if (a->shape[k] != b->shape[k] || (a->shape[k] > 1 && a->strides[k] != b->strides[k]))
      return 0;
  return 1;
}

static ndt_status apply_as(ndt_ew_arg *argp, int nin, const ndt_array *const *in,
                           ndt_array **out);
static int where_in_order(const ndt_array *const *in, const int64_t *shape, ndt_array *res,
                          ndt_status *st);

static ndt_status apply(ndt_ufunc op, int nin, const ndt_array *const *in, ndt_array **out,
                        ndt_dtype dtype) {
  ndt_ew_arg arg;
  ndt_status st = resolve(op, nin, in, dtype, arg.loop_in, &arg.loop_out, &arg.loop);
  if (st) return st;
  arg.name = ndt_ufunc_name(op);
  arg.ufunc = (int)op;
  arg.nin = nin;
  /* the output's cast first, as NumPy resolves types before it broadcasts */
  if (*out && !ndt_can_cast(arg.loop_out, (*out)->dtype, NDT_CAST_SAME_KIND))
    return ndt__error(NDT_ERR_CAST, "Cannot cast ufunc '%s' output from dtype('%s') to "
                     "dtype('%s') with casting rule 'same_kind'", ndt_ufunc_name(op),
                     ndt_dtype_name(arg.loop_out), ndt_dtype_name((*out)->dtype));
  const ndt_array *inx[NDT_MAXOPS];
  ndt_array *conv[NDT_MAXOPS] = {0};
  for (int i = 0; i < nin && st == NDT_OK; i++) {
    inx[i] = in[i];
    if (in[i]->weak && in[i]->dtype != arg.loop_in[i]) {
      st = weak_narrowed(in[i], arg.loop_in[i], &conv[i]);
      if (conv[i]) inx[i] = conv[i];
    }
  }
  if (st == NDT_OK) st = apply_as(&arg, nin, inx, out);
  for (int i = 0; i < nin; i++) ndt_free(conv[i]);
  return st;
}

/* apply, once the loop is known and the operands are what it reads */
static ndt_status apply_as(ndt_ew_arg *argp, int nin, const ndt_array *const *in,
                           ndt_array **out) {
  ndt_ew_arg *const arg = argp;   /* not copied: it holds four views */
  ndt_status st = NDT_OK;
  int ndims[NDT_MAXOPS + 1];
  const int64_t *shapes[NDT_MAXOPS + 1];
  for (int i = 0; i < nin; i++) {
    ndims[i] = in[i]->ndim;
    shapes[i] = in[i]->shape;
  }
  int n = nin;
  if (*out) {
    ndims[n] = (*out)->ndim;
    shapes[n++] = (*out)->shape;
  }
  int nd;
  int64_t shape[NDT_MAXDIMS];
  st = ndt_broadcast_shapes(n, ndims, shapes, &nd, shape);
  if (st) return st;
  /* a second input that is not one value over the whole call (a (4, 1)
   * exponent of a (4, 3) base) runs the loop without the fast paths
   * NumPy's loop takes only for one (power's 0.5: NumPy's iterator buffers
   * such an exponent, and the loop sees it vary) */
  if (nin == 2 && ndt__kern->loop_varying) {
    ndt_dtype lt[3] = {arg->loop_in[0], arg->loop_in[1], arg->loop_out};
    ndt_loop_fn f = ndt__kern->loop_varying((ndt_ufunc)arg->ufunc, lt);
    if (f) {   /* (power only: other ops look at no strides here) */
      ndt_array b;
      ndt__bcast_view(in[1], nd, shape, &b);
      int varies = 0;
      for (int k = 0; k < nd && !varies; k++) varies = shape[k] > 1 && b.strides[k] != 0;
      if (varies) arg->loop = f;
    }
  }
  ndt_array *res = *out, *copies[NDT_MAXOPS] = {0};
  const ndt_array *ins[NDT_MAXOPS];
  for (int i = 0; i < nin; i++) ins[i] = in[i];
  in = ins;
  if (res) {
    int ok = nd == res->ndim;
    for (int k = 0; ok && k < nd; k++) ok = shape[k] == res->shape[k];
    if (!ok) {
      char a[200] = "", b[200] = "";
      int la = 0, lb = 0;
      for (int k = 0; k < res->ndim && la < 180; k++)
        la += snprintf(a + la, sizeof a - la, "%s%lld", k ? "," : "", (long long)res->shape[k]);
      for (int k = 0; k < nd && lb < 180; k++)
        lb += snprintf(b + lb, sizeof b - lb, "%s%lld", k ? "," : "", (long long)shape[k]);
      return ndt__error(NDT_ERR_SHAPE, "non-broadcastable output operand with shape (%s%s) "
                       "doesn't match the broadcast shape (%s%s)", a, res->ndim == 1 ? "," : "",
                       b, nd == 1 ? "," : "");
    }
    if (arg->ufunc == NDT_WHERE && nin == 3 && nd == 1 && same_view(in[2], res) &&
        where_in_order(in, shape, res, &st))
      return st;
    int self_overlap = ndt__internal_overlap(res);
    if (self_overlap) {
      /* an output that writes some memory more than once (a broadcast or
       * as_strided view): the inputs it overlaps are read as they were
       * before the call, as NumPy's copies make them, not as rewritten.
       * The copies are made now (flushed: fusion would read through a
       * pending copy) and the op is not fused. The one exception is
       * where's third operand when it is the output itself (a masked
       * write: copyto(where=), a ufunc's where=): it stands for "leave
       * this element", which NumPy does by not writing it, so it is read
       * as the earlier writes left it. */
      for (int i = 0; i < nin && st == NDT_OK; i++)
        if (ndt__may_overlap(in[i], res) &&
            !(arg->ufunc == NDT_WHERE && i == 2 && same_view(in[i], res))) {
          st = ndt_copy(&copies[i], in[i]);
          if (st == NDT_OK) ins[i] = copies[i];
        }
      if (st == NDT_OK) st = ndt__flush();
    }
    int fused = st || self_overlap ? 0 : ndt__fuse_try(arg, nin, in, nd, shape, res, NULL);
    if (st || fused) {
      for (int i = 0; i < nin; i++) ndt_free(copies[i]);
      return st ? st : fused < 0 ? (ndt_status)fused : NDT_OK;
    }
  } else {
    int fused = ndt__fuse_try(arg, nin, in, nd, shape, NULL, out);
    if (fused < 0) return (ndt_status)fused;
    if (fused) return NDT_OK;
    st = ndt__array_new(&res, arg->loop_out, nd, shape, 0);
    if (st) return st;
  }
  ndt_array views[NDT_MAXOPS], *vp[NDT_MAXOPS];
  for (int i = 0; i < nin && st == NDT_OK; i++) {
    const ndt_array *src = in[i];
    ndt__bcast_view(src, nd, shape, &views[i]);
    if (*out && ndt__may_overlap(src, res)) {
      /* An input that overlaps the output other than element for element
       * is read as it was before the operation, as NumPy does. */
      int same = views[i].offset == res->offset && views[i].part == res->part &&
                 views[i].dtype == res->dtype;
      for (int k = 0; same && k < nd; k++)
        same = views[i].strides[k] == res->strides[k] || shape[k] == 1;
      if (!same) {
        st = ndt_copy(&copies[i], src);
        if (st == NDT_OK) ndt__bcast_view(copies[i], nd, shape, &views[i]);
      }
    }
    vp[i] = &views[i];
  }
  vp[nin] = res;
  if (st == NDT_OK) st = ndt__launch_elementwise(arg, vp);
  for (int i = 0; i < nin; i++) ndt_free(copies[i]);
  if (st) {
    if (!*out) ndt_free(res);
    return st;
  }
  *out = res;
  return NDT_OK;
}

ndt_status ndt_divmod(ndt_array **q, ndt_array **r, const ndt_array *a, const ndt_array *b,
                      ndt_dtype dtype) {
  const ndt_array *in[2] = {a, b};
  ndt_array *q0 = *q, *r0 = *r;
  /* NumPy's one loop reads an element before it writes it: a quotient
   * written over an input is made apart and written after the remainder */
  int later = q0 && (ndt__may_overlap(q0, a) || ndt__may_overlap(q0, b));
  ndt_array *qq = later ? NULL : q0;
  ndt_fp_group_begin("divmod");
  ndt_status st = ndt_apply(&qq, NDT_FLOOR_DIVIDE, 2, in, dtype);
  if (st == NDT_OK) st = ndt_apply(r, NDT_REMAINDER, 2, in, dtype);
  if (st == NDT_OK && later) st = ndt_assign(q0, qq, NDT_CAST_SAME_KIND);
  ndt_fp_group_end();
  if (qq && qq != q0 && (st || later)) {
    if (st) ndt_sync();   /* tasks recorded on it */
    ndt_free(qq);
    qq = NULL;
  }
  if (st) {
    *r = r0;
    return st;
  }
  *q = later ? q0 : qq;
  return NDT_OK;
}

ndt_status ndt_binary(ndt_array **out, ndt_ufunc op, const ndt_array *a, const ndt_array *b) {
  const ndt_array *in[2] = {a, b};
  return ndt_apply(out, op, 2, in, NDT_DTYPE_DEFAULT);
}

ndt_status ndt_unary(ndt_array **out, ndt_ufunc op, const ndt_array *a) {
  return ndt_apply(out, op, 1, &a, NDT_DTYPE_DEFAULT);
}

ndt_status ndt_where(ndt_array **out, const ndt_array *c, const ndt_array *x, const ndt_array *y) {
  const ndt_array *in[3] = {c, x, y};
  return ndt_apply(out, NDT_WHERE, 3, in, NDT_DTYPE_DEFAULT);
}

ndt_status ndt_clip(ndt_array **out, const ndt_array *a, const ndt_array *lo, const ndt_array *hi) {
  if (lo && hi) {
    const ndt_array *in[3] = {a, lo, hi};
    return ndt_apply(out, NDT_CLIP, 3, in, NDT_DTYPE_DEFAULT);
  }
  if (lo) return ndt_binary(out, NDT_MAXIMUM, a, lo);
  if (hi) return ndt_binary(out, NDT_MINIMUM, a, hi);
  if (*out) return ndt_assign(*out, a, NDT_CAST_SAME_KIND);
  return ndt_copy(out, a);
}

/* dst = src cast to dst's dtype; src already broadcast to dst's shape.
 * Joins the fusion group when it can. */
static ndt_status launch_cast_(ndt_array *dst, const ndt_array *src);
static ndt_status launch_cast(ndt_array *dst, const ndt_array *src) {
  /* a cast of one dtype to itself is a copy: it raises nothing */
  ndt_fp_begin("cast", src->dtype != dst->dtype ? NDT_FPE_OVERFLOW | NDT_FPE_UNDERFLOW |
                                                      NDT_FPE_INVALID : 0);
  ndt_status st = launch_cast_(dst, src);
  ndt_fp_end();
  return st;
}

static ndt_status launch_cast_(ndt_array *dst, const ndt_array *src) {
  ndt_ew_arg arg;
  memset(&arg, 0, sizeof arg);
  arg.name = "copy";
  arg.ufunc = -1;
  arg.nin = 1;
  arg.loop = NULL;
  arg.loop_in[0] = src->dtype;
  arg.loop_out = dst->dtype;
  int fused = ndt__fuse_try(&arg, 1, &src, dst->ndim, dst->shape, dst, NULL);
  if (fused < 0) return (ndt_status)fused;
  if (fused) return NDT_OK;
  ndt_array sv = *src;
  ndt_array *vp[2] = {&sv, dst};
  return ndt__launch_elementwise(&arg, vp);
}

ndt_status ndt_copy(ndt_array **out, const ndt_array *a) {
  ndt_array *r;
  ndt_status st = ndt__array_new(&r, a->dtype, a->ndim, a->shape, NDT_STORE_UNSET);
  if (st) return st;
  st = launch_cast(r, a);
  if (st) {
    ndt_free(r);
    return st;
  }
  *out = r;
  return NDT_OK;
}

ndt_status ndt_astype(ndt_array **out, const ndt_array *a, ndt_dtype t, ndt_casting casting) {
  ndt_status st = check_dtype(t);
  if (st) return st;
  if (!ndt_can_cast(a->dtype, t, casting))
    return ndt__error(NDT_ERR_CAST, "Cannot cast array data from dtype('%s') to dtype('%s') "
                     "according to the rule '%s'", ndt_dtype_name(a->dtype), ndt_dtype_name(t),
                     casting_name(casting));
  ndt_array *r;
  st = ndt__array_new(&r, t, a->ndim, a->shape, NDT_STORE_UNSET);   /* the cast writes it all */
  if (st) return st;
  st = launch_cast(r, a);
  if (st) {
    ndt_free(r);
    return st;
  }
  *out = r;
  return NDT_OK;
}

/* src as dst sees it: leading unit axes dropped, broadcast to dst's shape */
static void assign_view(const ndt_array *dst, const ndt_array *src, ndt_array *sv) {
  ndt_array s2 = *src;
  if (s2.ndim > dst->ndim) {
    int extra = s2.ndim - dst->ndim;
    memmove(s2.shape, s2.shape + extra, sizeof(int64_t) * dst->ndim);
    memmove(s2.strides, s2.strides + extra, sizeof(int64_t) * dst->ndim);
    s2.ndim = dst->ndim;
  }
  ndt__bcast_view(&s2, dst->ndim, dst->shape, sv);
}

/* NumPy's assignment into a 1-d view from an overlapping source whose
 * strides run the same way makes no copy first (PyArray_AssignArray): its
 * loop writes element after element, so an element read after a write
 * reached it takes the written value. The loop runs in the target's memory
 * order, backwards when the source starts below the target and reaches it
 * (memmove's rule, so a shift of one stride reads every value first):
 * `a[:, 3] = a[2]` of arange(25).reshape(5, 5) sets a[3, 3] to 12, the value
 * a[2, 3] took one step before. Other overlapping assignments read the
 * whole source first, as ndt_assign does.
 *
 * Such an assignment is one task that runs NumPy's loop over the target
 * and a copy of the source: step r writes position i from the copy, or,
 * when i's source element is the target's position j written at an earlier
 * step, from the target's new value there (the element NumPy's loop reads
 * back). The steps and the reads depend on the views' offsets and strides
 * alone, so every tiling, worker count, rank count and device gives NumPy's
 * result. */
typedef struct {
  int64_t n, ds, ss, doff, soff;   /* positions; strides and offsets in store elements */
  int rev, isz;                    /* the loop backwards; element bytes */
  int masked;                      /* a third operand: the where= mask (copyto) */
} seq_arg;

static int64_t seq_step_of(const seq_arg *a, int64_t i) {   /* the step that writes i */
  int64_t p = a->ds > 0 ? i : a->n - 1 - i;
  return a->rev ? a->n - 1 - p : p;
}

/* Operands: the target (write; read and write when masked), the source's
 * copy as the target sees it (read), and where masked, the mask as the
 * target sees it (read): a step the mask leaves out writes nothing, and a
 * position it left out still holds the source's value there. */
static ndt_status seq_body(ndt_bound *op, void *p) {
  const seq_arg *a = p;
  char *out = op[0].ptr;
  const char *in = op[1].ptr, *m = a->masked ? op[2].ptr : NULL;
  int64_t os = op[0].st[0], is = op[1].st[0], ms = a->masked ? op[2].st[0] : 0;
  for (int64_t r = 0; r < a->n; r++) {
    int64_t q = a->rev ? a->n - 1 - r : r, i = a->ds > 0 ? q : a->n - 1 - q;
    if (m && !*(const unsigned char *)(m + i * ms)) continue;
    int64_t d = a->soff + i * a->ss - a->doff, j = d % a->ds == 0 ? d / a->ds : -1;
    int back = j >= 0 && j < a->n && seq_step_of(a, j) < r;
    memcpy(out + i * os, back ? out + j * os : in + i * is, (size_t)a->isz);
  }
  return NDT_OK;
}
static const ndt_task_kind seq_kind = {"assign in order", {seq_body}, NULL};

/* 1 (and *a filled) when assigning sv (src as dst sees it) into dst is
 * NumPy's loop without a copy, and it reads back a written element. */
static int seq_case(const ndt_array *dst, const ndt_array *src, const ndt_array *sv,
                    seq_arg *a) {
  if (dst->ndim != 1 || src->ndim < 1 || dst->store != sv->store || dst->part != sv->part ||
      dst->dtype != sv->dtype || dst->shape[0] < 2)
    return 0;
  int64_t n = dst->shape[0], ds = dst->strides[0], ss = sv->strides[0];
  if (ds == 0 || (double)ds * (double)src->strides[src->ndim - 1] <= 0) return 0;
  /* equal strides never read a written element back (the loop's direction
   * is memmove's): no scan of the positions on the recording thread for
   * the common shift, a[1:] = a[:-1] */
  if (ss == ds) return 0;
  /* backwards when the source (its strides made positive with the
   * target's) starts below the target and reaches it */
  int64_t db = ds > 0 ? dst->offset : dst->offset + (n - 1) * ds;
  int64_t sb = ds > 0 ? sv->offset : sv->offset + (n - 1) * ss, sn = ds > 0 ? ss : -ss;
  *a = (seq_arg){.n = n, .ds = ds, .ss = ss, .doff = dst->offset, .soff = sv->offset,
                 .rev = sb < db && sb + n * sn > db, .isz = ndt_vsize(dst)};
  for (int64_t i = 0; i < n; i++) {   /* does any step read a written element back? */
    int64_t d = a->soff + i * ss - a->doff, j = d % ds == 0 ? d / ds : -1;
    if (j >= 0 && j < n && seq_step_of(a, j) < seq_step_of(a, i)) return 1;
  }
  return 0;
}

/* copyto(dst, src, where=m) (where's third operand the output itself) of
 * a 1-d dst from a source of its dtype that overlaps it with strides the
 * same way: NumPy's masked loop (PyArray_AssignArray) makes no copy first
 * either, so it reads back what it wrote, as in seq_case; 1 when recorded
 * so (*st its status). A mask that overlaps dst takes the ordinary path. */
static int where_in_order(const ndt_array *const *in, const int64_t *shape, ndt_array *res,
                          ndt_status *st) {
  const ndt_array *m = in[0], *src = in[1];
  if (m->dtype != NDT_BOOL || src->dtype != res->dtype || !ndt__may_overlap(src, res) ||
      ndt__may_overlap(m, res))
    return 0;
  ndt_array sv, mv;
  seq_arg seq;
  ndt__bcast_view(src, 1, shape, &sv);
  if (!seq_case(res, src, &sv, &seq)) return 0;
  seq.masked = 1;
  ndt_array *tmp = NULL;
  *st = ndt_copy(&tmp, src);
  if (*st) return 1;
  ndt__bcast_view(tmp, 1, shape, &sv);
  ndt__bcast_view(m, 1, shape, &mv);
  ndt_operand ops[3] = {{res, NDT_RW}, {&sv, NDT_READ}, {&mv, NDT_READ}};
  *st = ndt__record(&seq_kind, "assign", ops, 3, &seq, sizeof seq, 0);
  ndt_free(tmp);
  return 1;
}

ndt_status ndt_assign(ndt_array *dst, const ndt_array *src, ndt_casting casting) {
  ndt_status wst = ndt__check_writeable(dst, "assignment destination is read-only", 1);
  if (wst) return wst;
  if (!ndt_can_cast(src->dtype, dst->dtype, casting) && !src->weak)
    return ndt__error(NDT_ERR_CAST, "Cannot cast array data from dtype('%s') to dtype('%s') "
                     "according to the rule '%s'", ndt_dtype_name(src->dtype),
                     ndt_dtype_name(dst->dtype), casting_name(casting));
  ndt_array *tmp = NULL;
  if (src->ndim > dst->ndim) {
    /* leading unit axes of the source may be dropped, as NumPy allows */
    int extra = src->ndim - dst->ndim;
    for (int k = 0; k < extra; k++)
      if (src->shape[k] != 1) goto bad;
  }
  for (int k = 0; k < src->ndim && k < dst->ndim; k++) {
    int64_t s = src->shape[src->ndim - 1 - k], d = dst->shape[dst->ndim - 1 - k];
    if (s != d && s != 1) goto bad;
  }
  ndt_array sv;
  seq_arg seq;
  int in_order = 0;   /* NumPy's loop without a copy (seq_case) */
  assign_view(dst, src, &sv);
  if (ndt__may_overlap(src, dst)) {
    in_order = seq_case(dst, src, &sv, &seq);
    ndt_status st = ndt_copy(&tmp, src);
    if (st) return st;
    src = tmp;
    assign_view(dst, src, &sv);
  }
  /* (a store lost to a failed task is mended: sched.c) */
  ndt_status st = atomic_load_explicit(&dst->store->lost, memory_order_relaxed)
                      ? ndt__rt_overwrite(dst) : NDT_OK;
  if (st == NDT_OK && in_order) {
    ndt_operand ops[2] = {{dst, NDT_WRITE}, {&sv, NDT_READ}};
    st = ndt__record(&seq_kind, "assign", ops, 2, &seq, sizeof seq, 0);
  } else if (st == NDT_OK) {
    st = launch_cast(dst, &sv);
  }
  ndt_free(tmp);
  return st;
bad:;
  char a[200] = "", b[200] = "";  /* a 0-d side writes nothing */
  int la = 0, lb = 0;
  for (int k = 0; k < src->ndim && la < 180; k++)
    la += snprintf(a + la, sizeof a - la, "%s%lld", k ? "," : "", (long long)src->shape[k]);
  for (int k = 0; k < dst->ndim && lb < 180; k++)
    lb += snprintf(b + lb, sizeof b - lb, "%s%lld", k ? "," : "", (long long)dst->shape[k]);
  return ndt__error(NDT_ERR_SHAPE, "could not broadcast input array from shape (%s%s) into "
                   "shape (%s%s)", a, src->ndim == 1 ? "," : "", b, dst->ndim == 1 ? "," : "");
}

ndt_status ndt_fill(ndt_array *dst, const void *value, ndt_dtype vtype) {
  ndt_array *s;
  ndt_status st = ndt_scalar(&s, vtype, value, 0);
  if (st) return st;
  st = ndt_assign(dst, s, NDT_CAST_UNSAFE);
  ndt_free(s);
  return st;
}
