/* fft.c - discrete Fourier transforms along one axis (numpy.fft).
 *
 * The transforms themselves are the backend's kernels (fft_* in
 * src/kernels/table.h; the CPU's in src/kernels/cpu/fft.c, which describes
 * the algorithms). This is a "line" operation like sort.c: each 1-d slice
 * along the axis is loaded, transformed and stored whole by one task; tasks
 * are blocks of the other axes tiled by the usual rule. Blocks are bound in
 * the array's axis order; strided complex lines (a transform along a
 * non-last axis) are transformed up to BATCH_MAX at a time. The plan
 * (factors and twiddles) is built once per call into a runtime-private byte
 * store that every task reads (a kept operand of every task,
 * NDT_OPND_KEEP, freed with the last task). Each line's arithmetic is
 * fixed by the plan, so results are bitwise the same for any number of
 * workers or ranks. The task's argument is in fft.h: the CUDA plugin runs
 * the same tasks through cuFFT (src/runtime/cuda_fft.h), within a stated
 * bound of these bits. */
#include <stdio.h>
#include <string.h>
#include "fft.h"

/* complex128 elements per batch buffer: 512 KiB */
#define BATCH_ELEMS 32768
#define BATCH_MAX 16
#define CD ((int64_t)(2 * sizeof(double)))


/* Operands: in (read; empty when nothing is loaded), out (write), the
 * plan's store (kept alive: the arg points into it). */
static ndt_status fft_body(ndt_bound *op_, void *p) {
  const fft_arg *a = p;
  const void *P = a->plan;
  ndt_fft_desc d = {a->kind, a->half, 0, a->n, a->nload, a->scale, a->in.dtype, a->out.dtype, P};
  const ndt_bound bi = op_[0], bo = op_[1];
  int has_in = a->nload > 0;
  int nd = a->out.ndim, ax = a->ax;
  int64_t n = a->n, nout = a->out.shape[ax], lines = a->out.size / nout;
  int64_t is = has_in ? bi.st[ax] : 0, os = bo.st[ax];
  int oth[NDT_MAXDIMS], no = 0;   /* the other axes, in order */
  for (int k = 0; k < nd; k++)
    if (k != ax) oth[no++] = k;
  /* strided complex lines go in batches along the innermost other axis */
  int inner = no ? oth[no - 1] : 0;
  int64_t G = 1;
  if (no && ax != nd - 1 && !a->half && ndt__kern->fft_batchable(P) &&
      (a->kind == NDT_FFT_FORWARD || a->kind == NDT_FFT_BACKWARD)) {
    G = BATCH_ELEMS / n;
    if (G > BATCH_MAX) G = BATCH_MAX;
    if (G > a->out.shape[inner]) G = a->out.shape[inner];
    if (G < 2) G = 1;
  }
  d.batch = G > 1;
  char *x = ndt__malloc((size_t)(2 * n * G + ndt__kern->fft_work(P)) * CD);
  if (!x) return NDT_ERR_NOMEM;
  char *yb = x + n * G * CD, *w = yb + n * G * CD;
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t done = 0; done < lines;) {
    const char *ip = bi.ptr;
    char *op = bo.ptr;
    for (int k = 0; k < no; k++) {
      if (has_in) ip += idx[k] * bi.st[oth[k]];
      op += idx[k] * bo.st[oth[k]];
    }
    int64_t cnt = 1;
    if (G > 1) {
      cnt = a->out.shape[inner] - idx[no - 1];
      if (cnt > G) cnt = G;
    }
    ndt__kern->fft_lines(&d, ip, is, has_in ? bi.st[inner] : 0, op, os, bo.st[inner], cnt, x, yb,
                        w);
    done += cnt;
    if (no) idx[no - 1] += cnt;
    for (int k = no - 1; k > 0 && idx[k] >= a->out.shape[oth[k]]; k--) {
      idx[k] = 0;
      idx[k - 1]++;
    }
  }
  ndt__mfree(x);
  return NDT_OK;
}

static const ndt_task_kind fft_kind = {"fft", {fft_body}, NULL};

/* v's last axis moved to position ax (the inverse of ndt__axis_last), so a bound
 * block keeps the array's own order: rows of a column block stay rows. */
static void line_to(ndt_array *v, int ax) {
  int nd = v->ndim;
  int64_t sh = v->shape[nd - 1], st = v->strides[nd - 1];
  for (int k = nd - 1; k > ax; k--) {
    v->shape[k] = v->shape[k - 1];
    v->strides[k] = v->strides[k - 1];
  }
  v->shape[ax] = sh;
  v->strides[ax] = st;
}

ndt_dtype ndt_fft_result_type(ndt_dtype in, ndt_fft_kind kind) {
  int single = in == NDT_FLOAT32 || in == NDT_COMPLEX64;
  if (kind == NDT_FFT_C2R) return single ? NDT_FLOAT32 : NDT_FLOAT64;
  return single ? NDT_COMPLEX64 : NDT_COMPLEX128;
}

ndt_status ndt_fft(ndt_array **out, const ndt_array *a, int axis, int64_t n, ndt_fft_kind kind,
                   double scale) {
  if ((int)kind < NDT_FFT_FORWARD || kind > NDT_FFT_C2R)
    return ndt__error(NDT_ERR_VALUE, "unknown FFT kind %d", kind);
  if (axis < -a->ndim || axis >= a->ndim)
    return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", "axis %d is out of bounds for array of dimension %d", axis,
                     a->ndim);
  if (axis < 0) axis += a->ndim;
  if (n < 1)
    return ndt__error(NDT_ERR_VALUE, "Invalid number of FFT data points (%lld) specified.",
                     (long long)n);
  if (kind == NDT_FFT_R2C && (a->dtype == NDT_COMPLEX64 || a->dtype == NDT_COMPLEX128))
    return ndt__error(NDT_ERR_TYPE, "a real FFT needs real input, not %s",
                     ndt_dtype_name(a->dtype));
  if (n > (INT64_MAX / 4) / CD)
    return ndt__error(NDT_ERR_VALUE, "FFT length %lld is too large", (long long)n);
  int nd = a->ndim;
  int64_t nout = kind == NDT_FFT_R2C ? n / 2 + 1 : n;
  int64_t nin = kind == NDT_FFT_C2R ? n / 2 + 1 : n;
  int64_t m = a->shape[axis], nload = m < nin ? m : nin;
  int64_t shape[NDT_MAXDIMS];
  memcpy(shape, a->shape, sizeof shape);
  shape[axis] = nout;
  ndt_array *res = NULL;
  ndt_status st = ndt__array_new(&res, ndt_fft_result_type(a->dtype, kind), nd, shape, 0);
  if (st) return st;
  if (res->size == 0) {
    *out = res;
    return NDT_OK;
  }
  /* the plan, in a byte store every task keeps alive */
  ndt_store *ps = NULL;
  int half = (kind == NDT_FFT_R2C || kind == NDT_FFT_C2R) && n % 2 == 0;
  int64_t pn = half ? n / 2 : n;
  int64_t pb = ndt__kern->fft_plan_bytes(pn, half);
  if ((st = ndt__store_new_bytes(&ps, pb))) {
    ndt_free(res);
    return st;
  }
  void *P = ndt__tile_buffer(&ps->tiles[0]);
  int planned = P && ndt__kern->fft_plan_build(P, pn, half) == 0;
  if (!planned && ndt_distributed()) {
    /* fail-stop: the other ranks would go on without this one (as ndt_scalar) */
    fprintf(stderr, "ndtile rank %d: out of memory building an FFT plan\n", ndt_rank());
    ndt_abort(71);
  }
  if (!planned) {
    ndt__store_decref(ps);
    ndt_free(res);
    return NDT_ERR_NOMEM;
  }
  ndt_array vin, vout;
  ndt__axis_last(a, axis, &vin);
  ndt__axis_last(res, axis, &vout);
  ndt_tiling tl;
  ndt__line_tiling(&vout, &tl);
  ndt_array pv;
  ndt__range_view(&pv, ps, 0, ps->size);
  unsigned fl = tl.ntiles <= 1 && res->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < tl.ntiles && st == NDT_OK; b++) {
    fft_arg s = {.kind = kind, .half = half, .n = n, .nload = nload, .scale = scale, .plan = P};
    ndt__line_block(&vin, &tl, b, nload, &s.in);
    ndt__line_block(&vout, &tl, b, nout, &s.out);
    line_to(&s.in, axis);
    line_to(&s.out, axis);
    s.ax = axis;
    if (nload <= 0) s.in.size = 0;   /* nothing read: no access */
    ndt_operand ops[3] = {{&s.in, NDT_READ}, {&s.out, NDT_WRITE}, {&pv, NDT_OPND_KEEP}};
    st = ndt__record(&fft_kind, NULL, ops, 3, &s, sizeof s, fl);
  }
  ndt__store_decref(ps);
  return ndt__finish(st, res, out);
}
