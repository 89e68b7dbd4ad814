/* reduce_where.c - float and complex sums under NumPy's where= mask, in
 * NumPy's order.
 *
 * NumPy's masked reduction calls the add loop once per run of True mask
 * elements of its inner loop (the masked strided loop skips the False
 * ones), so each run adds to the running value as one pairwise sum:
 * start + pw(run0) + pw(run1) + ... Filling the masked elements with 0 and
 * summing gives other bits (pw's tree changes). The caller (the Python
 * front end) brings the input to lines: x and the mask as (K, R, L) views,
 * K the result's elements, R the lines each folds in NumPy's order and L
 * the line (NumPy's inner loop, runs never cross it); for a C-contiguous
 * input and mask this is the trailing reduced axes as L, the other reduced
 * axes (C order) as R. One task per range of result elements walks its
 * lines: the mask in chunks, each run of x bound from a chunk (or, longer
 * than one, by itself) and added with the kernel's pairwise run; short
 * lines (the inner loop along a kept axis: lines of one element) from
 * slabs of many lines bound at once. The runs are where NumPy's are, so
 * the bits do not depend on tiles, workers, ranks or devices. */
#include <string.h>
#include "exec.h"

#define WCHUNK 65536   /* elements of a line bound at a time */

typedef struct {
  ndt_reduce_op op;
  ndt_dtype acc;
  ndt_array x, w;      /* this task's (k, R, L) pieces of the input and the mask */
  int from_start;      /* each element starts from start, not the identity */
  char start[16];
} where_arg;

/* A 1-d piece [lo, lo+n) of line (k, r) of the (K, R, L) view v. */
static void line_piece(const ndt_array *v, int64_t k, int64_t r, int64_t lo, int64_t n,
                       ndt_array *p) {
  *p = *v;
  p->offset = v->offset + k * v->strides[0] + r * v->strides[1] + lo * v->strides[2];
  p->ndim = 1;
  p->shape[0] = p->size = n;
  p->strides[0] = v->strides[2];
}

typedef struct {
  const ndt_bound *op;   /* the walked operand */
  ndt_array piece;       /* the chunk's view (the bound points to it) */
  ndt_bound b;           /* the bound chunk */
  int bound;
  int64_t lo, hi;        /* its elements of the line */
} chunk;

static void chunk_drop(chunk *c) {
  if (c->bound) ndt__piece_release(&c->b, 0);
  c->bound = 0;
}

/* Binds elements [lo, min(lo + n, len)) of line (k, r) of c's view. */
static ndt_status chunk_bind(chunk *c, const ndt_array *v, int64_t k, int64_t r, int64_t lo,
                             int64_t n, int64_t len) {
  chunk_drop(c);
  if (n > len - lo) n = len - lo;
  line_piece(v, k, r, lo, n, &c->piece);
  ndt_status st = ndt__piece_bind(c->op, &c->piece, &c->b, 1);
  if (st) return st;
  c->bound = 1;
  c->lo = lo;
  c->hi = lo + n;
  return NDT_OK;
}

/* Operands: the result's elements (write), x (read, walked), the mask
 * (read, walked). */
/* Short lines (L below SHORT: NumPy's inner loop along a kept axis gives
 * lines of one element): rows [r0, r0 + n) of result element k's (R, L)
 * slab bound at once, x and the mask, each row's runs added in order. */
#define SHORT 64
static ndt_status slab_fold(const ndt_bound *op, const where_arg *a, const ndt_red_kernel *kr,
                            char *o, int64_t k, int64_t r0, int64_t n) {
  ndt_array pv[2];
  ndt_bound pb[2];
  const ndt_array *src[2] = {&a->x, &a->w};
  for (int q = 0; q < 2; q++) {
    const ndt_array *v = src[q];
    pv[q] = *v;
    pv[q].offset = v->offset + k * v->strides[0] + r0 * v->strides[1];
    pv[q].ndim = 2;
    pv[q].shape[0] = n;
    pv[q].shape[1] = v->shape[2];
    pv[q].strides[0] = v->strides[1];
    pv[q].strides[1] = v->strides[2];
    pv[q].size = n * v->shape[2];
    ndt_status st = ndt__piece_bind(&op[1 + q], &pv[q], &pb[q], 1);
    if (st) {
      if (q) ndt__piece_release(&pb[0], 0);
      return st;
    }
  }
  int64_t L = a->x.shape[2];
  for (int64_t r = 0; r < n; r++) {
    const char *xs = pb[0].ptr + r * pb[0].st[0], *ws = pb[1].ptr + r * pb[1].st[0];
    int64_t i = 0;
    while (i < L) {
      while (i < L && !ws[i * pb[1].st[1]]) i++;
      int64_t j = i;
      while (j < L && ws[j * pb[1].st[1]]) j++;
      if (j > i) kr->run(o, xs + i * pb[0].st[1], pb[0].st[1], j - i);
      i = j;
    }
  }
  ndt__piece_release(&pb[1], 0);
  ndt__piece_release(&pb[0], 0);
  return NDT_OK;
}

static ndt_status where_body(ndt_bound *op, void *p) {
  const where_arg *a = p;
  ndt_red_kernel kr;
  ndt__kern->reduce(a->op, a->acc, &kr);
  int asz = ndt__traits[a->acc].size;
  int64_t K = a->x.shape[0], R = a->x.shape[1], L = a->x.shape[2];
  if (L < SHORT) {
    int64_t rows = WCHUNK / (L ? L : 1);
    ndt_status st = NDT_OK;
    for (int64_t k = 0; k < K && st == NDT_OK; k++) {
      char *o = op[0].ptr + k * op[0].st[0];
      memcpy(o, a->from_start ? a->start : kr.identity, (size_t)asz);
      if (L == 0) continue;
      for (int64_t r0 = 0; r0 < R && st == NDT_OK; r0 += rows)
        st = slab_fold(op, a, &kr, o, k, r0, R - r0 < rows ? R - r0 : rows);
    }
    return st;
  }
  chunk cx = {&op[1], {0}, {0}, 0, 0, 0}, cw = {&op[2], {0}, {0}, 0, 0, 0};
  ndt_status st = NDT_OK;
  for (int64_t k = 0; k < K && st == NDT_OK; k++) {
    char *o = op[0].ptr + k * op[0].st[0];
    memcpy(o, a->from_start ? a->start : kr.identity, (size_t)asz);
    for (int64_t r = 0; r < R && st == NDT_OK; r++) {
      chunk_drop(&cx);
      chunk_drop(&cw);
      int64_t i = 0;
      while (i < L && st == NDT_OK) {
        /* the next True at or after i, then the end of its run */
        int64_t j = i, in_run = 0, run_lo = -1;
        for (;;) {
          if (j >= L) break;
          if (!cw.bound || j >= cw.hi) {
            if ((st = chunk_bind(&cw, &a->w, k, r, j, WCHUNK, L))) break;
          }
          int64_t e = cw.hi;
          const char *m = cw.b.ptr + (j - cw.lo) * cw.b.st[0];
          while (j < e && (*m != 0) == in_run) {
            j++;
            m += cw.b.st[0];
          }
          if (j < e) {
            if (in_run) break;   /* the run ends at j */
            in_run = 1;
            run_lo = j;
          }
        }
        if (st || run_lo < 0) break;
        int64_t n = j - run_lo;
        if (n > WCHUNK) {
          /* a long run: bound by itself, one pairwise sum */
          chunk one = {&op[1], {0}, {0}, 0, 0, 0};
          if ((st = chunk_bind(&one, &a->x, k, r, run_lo, n, L))) break;
          kr.run(o, one.b.ptr, one.b.st[0], n);
          chunk_drop(&one);
        } else {
          if (!cx.bound || run_lo < cx.lo || j > cx.hi) {
            if ((st = chunk_bind(&cx, &a->x, k, r, run_lo, WCHUNK, L))) break;
          }
          kr.run(o, cx.b.ptr + (run_lo - cx.lo) * cx.b.st[0], cx.b.st[0], n);
        }
        i = j;
      }
    }
  }
  chunk_drop(&cx);
  chunk_drop(&cw);
  return st;
}

static const ndt_task_kind where_kind = {"masked sum", {where_body}, NULL};

ndt_status ndt_sum_where_lines(ndt_array **out, ndt_reduce_op op, const ndt_array *x,
                               const ndt_array *w, const void *start) {
  *out = NULL;
  char kd = x ? ndt__traits[x->dtype].kind : 0;
  if (!x || !w || (op != NDT_RED_SUM && op != NDT_RED_NANSUM) || (kd != 'f' && kd != 'c') ||
      x->ndim != 3 || w->ndim != 3 || w->dtype != NDT_BOOL)
    return ndt__error(NDT_ERR_VALUE, "sum_where_lines: a float (K, R, L) input and mask");
  for (int j = 0; j < 3; j++)
    if (w->shape[j] != x->shape[j])
      return ndt__error(NDT_ERR_VALUE, "sum_where_lines: the mask's shape is not the input's");
  int64_t K = x->shape[0];
  ndt_array *r = NULL;
  ndt_status st = ndt__array_new(&r, x->dtype, 1, &K, 0);
  if (st) return st;
  where_arg a;
  memset(&a, 0, sizeof a);
  /* (a NaN-ignoring sum's NaNs are replaced by the caller: NumPy's nansum
   * sums the replaced array) */
  a.op = NDT_RED_SUM;
  a.acc = x->dtype;
  if (start) {
    a.from_start = 1;
    memcpy(a.start, start, (size_t)ndt__traits[a.acc].size);
  }
  int64_t line = x->shape[1] * x->shape[2];
  int64_t per = line > 0 ? (65536 + line - 1) / line : K;   /* >= 64 Ki elements a task */
  if (per < 1) per = 1;
  unsigned fl = x->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t lo = 0; lo < K && st == NDT_OK; lo += per) {
    int64_t n = lo + per < K ? per : K - lo;
    a.x = *x;
    a.w = *w;
    a.x.offset += lo * x->strides[0];
    a.w.offset += lo * w->strides[0];
    a.x.shape[0] = a.w.shape[0] = n;
    a.x.size = n * line;
    a.w.size = n * line;
    ndt_array ov = *r;
    ov.offset = r->offset + lo;
    ov.shape[0] = ov.size = n;
    ndt_operand ops[3] = {{&ov, NDT_WRITE}, {&a.x, NDT_READ | NDT_OPND_WALK},
                          {&a.w, NDT_READ | NDT_OPND_WALK}};
    if (line == 0) {   /* no elements: each result element is its start */
      ops[1] = (ndt_operand){&ndt__empty_view, NDT_READ};
      ops[2] = (ndt_operand){&ndt__empty_view, NDT_READ};
    }
    st = ndt__record(&where_kind, "sum", ops, 3, &a, sizeof a, fl);
  }
  if (st) {
    ndt_free(r);
    return st;
  }
  *out = r;
  return NDT_OK;
}
