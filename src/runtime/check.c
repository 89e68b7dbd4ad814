/* check.c - NDTILE_CHECK: the rule that a task never names the same
 * elements in two written operands, checked on every recorded task
 * (docs/design.md, "Tasks and dependencies"). Each operand is bound on its
 * own: where it crosses tiles it is gathered into scratch of its own and
 * scattered back in operand order, so of two written copies of an element
 * the last operand's wins whatever the body wrote; in place the body's
 * order decides. Either way the result depends on how the task was bound,
 * which is how a fused group on ranks lost a `+=` (session 31). A written
 * operand may share elements with a read one only when both are the same
 * elements in the same order (an in-place elementwise op: each element is
 * read before its own value is written); any other sharing is a violation.
 *
 * The test is exact. Two operands of one memory (one store, or stores
 * over one memory in other dtypes: alias_of) are compared as sets of byte
 * ranges: element starts base + sum i_k * st_k (0 <= i_k < n_k), each w
 * bytes long; .real and .imag of one complex array share no byte, two
 * interleaved steps (a[::2], a[1::2]) share a byte range but no element.
 * The smaller set is walked element by element and each element looked up
 * in the other, whose starts (strides sorted, each above what the smaller
 * ones span: every view sliced out of an array) are found in O(axes);
 * a set without that shape (as_strided) is listed and sorted first. Only
 * pairs of one memory whose extents meet get that far. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

/* An operand's elements as byte ranges of its memory. Set form: axes of
 * one element or stride 0 dropped, strides made positive (base moved to
 * the first element) and sorted descending, axes that continue each
 * other merged. */
typedef struct {
  int64_t base, w, lo, hi;   /* first start, element bytes, [lo, hi]: the bytes it spans */
  int64_t count;             /* elements (stride-0 axes counted once) */
  int n;
  int nested;                /* every st[k] > span[k + 1]: starts in ascending order */
  int64_t shape[NDT_MAXDIMS], st[NDT_MAXDIMS];
  int64_t span[NDT_MAXDIMS + 1];   /* span[k]: what axes k.. reach past the start */
} bset;

static const ndt_store *root_of(const ndt_store *s) { return s->alias_of ? s->alias_of : s; }

static void bset_of(const ndt_array *v, bset *b) {
  int64_t isz = v->store->itemsize;
  b->base = v->offset * isz + v->part;
  b->w = ndt_vsize(v);
  b->n = 0;
  for (int k = 0; k < v->ndim; k++) {
    int64_t n = v->shape[k], t = v->strides[k] * isz;
    if (n <= 1 || t == 0) continue;
    if (t < 0) {
      b->base += (n - 1) * t;
      t = -t;
    }
    int j = b->n++;
    for (; j > 0 && b->st[j - 1] < t; j--) {   /* insertion sort, largest first */
      b->st[j] = b->st[j - 1];
      b->shape[j] = b->shape[j - 1];
    }
    b->st[j] = t;
    b->shape[j] = n;
  }
  int m = 0;   /* merge an axis into the outer one it continues */
  for (int k = 0; k < b->n; k++) {
    if (m > 0 && b->st[m - 1] == b->st[k] * b->shape[k]) {
      b->shape[m - 1] *= b->shape[k];
      b->st[m - 1] = b->st[k];
      continue;
    }
    b->shape[m] = b->shape[k];
    b->st[m++] = b->st[k];
  }
  b->n = m;
  b->span[m] = 0;
  b->count = 1;
  for (int k = 0; k < m; k++) b->count *= b->shape[k];
  b->nested = 1;
  for (int k = m - 1; k >= 0; k--) {
    if (b->st[k] <= b->span[k + 1]) b->nested = 0;
    b->span[k] = b->span[k + 1] + (b->shape[k] - 1) * b->st[k];
  }
  b->lo = b->base;
  b->hi = b->base + b->span[0] + b->w - 1;
}

/* The first start of nested b at or after lo, or INT64_MAX. */
static int64_t next_start(const bset *b, int64_t lo) {
  int64_t d = lo - b->base, y = b->base;
  if (d <= 0) return y;
  for (int k = 0; k < b->n; k++) {
    int64_t i = d / b->st[k], r = d - i * b->st[k];
    if (i >= b->shape[k]) return INT64_MAX;
    if (r > b->span[k + 1])   /* past block i's elements: block i + 1's first */
      return i + 1 < b->shape[k] ? y + (i + 1) * b->st[k] : INT64_MAX;
    y += i * b->st[k];
    d = r;
  }
  return d == 0 ? y : INT64_MAX;   /* (d is 0 here: the last span is 0) */
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* b's starts, ascending (a set that is not nested), or NULL. */
static int64_t *list_starts(const bset *b, int64_t *count) {
  int64_t n = b->count;
  int64_t *s = ndt__malloc((size_t)n * sizeof *s);
  if (!s) return NULL;
  int64_t idx[NDT_MAXDIMS] = {0}, y = b->base;
  for (int64_t e = 0; e < n; e++) {
    s[e] = y;
    for (int k = b->n - 1; k >= 0; k--) {
      y += b->st[k];
      if (++idx[k] < b->shape[k]) break;
      y -= idx[k] * b->st[k];
      idx[k] = 0;
    }
  }
  qsort(s, (size_t)n, sizeof *s, cmp_i64);
  *count = n;
  return s;
}

/* 1 when some element of a shares a byte with one of b, 0 when none,
 * -1 when memory ran out (list_starts). */
static int sets_meet(const bset *a, const bset *b) {
  if (a->hi < b->lo || b->hi < a->lo) return 0;
  /* walk the one that is not nested (a lookup needs nested), else the smaller */
  if ((!a->nested && b->nested) || (a->nested == b->nested && a->count > b->count)) {
    const bset *t = a;
    a = b;
    b = t;
  }
  int64_t *list = NULL, nlist = 0;
  if (!b->nested && !(list = list_starts(b, &nlist))) return -1;
  int64_t n = a->count, idx[NDT_MAXDIMS] = {0}, x = a->base;
  int meet = 0;
  for (int64_t e = 0; e < n && !meet; e++) {
    /* an element of b starting in [x - b->w + 1, x + a->w - 1] */
    int64_t lo = x - b->w + 1, hi = x + a->w - 1;
    if (hi >= b->lo && lo <= b->hi) {
      if (list) {
        int64_t l = 0, h = nlist;   /* the first listed start >= lo */
        while (l < h) {
          int64_t m = l + (h - l) / 2;
          if (list[m] < lo) l = m + 1; else h = m;
        }
        meet = l < nlist && list[l] <= hi;
      } else {
        meet = next_start(b, lo) <= hi;
      }
    }
    for (int k = a->n - 1; k >= 0; k--) {
      x += a->st[k];
      if (++idx[k] < a->shape[k]) break;
      x -= idx[k] * a->st[k];
      idx[k] = 0;
    }
  }
  ndt__mfree(list);
  return meet;
}

/* The elements of a view in C order as a sequence: axes of one element
 * dropped, axes that continue each other merged (strides as they are). */
typedef struct {
  int64_t base, w;
  int n;
  int64_t shape[NDT_MAXDIMS], st[NDT_MAXDIMS];
} bseq;

static void bseq_of(const ndt_array *v, bseq *q) {
  int64_t isz = v->store->itemsize;
  q->base = v->offset * isz + v->part;
  q->w = ndt_vsize(v);
  q->n = 0;
  for (int k = 0; k < v->ndim; k++) {
    int64_t n = v->shape[k], t = v->strides[k] * isz;
    if (n == 1) continue;
    if (q->n > 0 && q->st[q->n - 1] == t * n) {
      q->shape[q->n - 1] *= n;
      q->st[q->n - 1] = t;
      continue;
    }
    q->shape[q->n] = n;
    q->st[q->n++] = t;
  }
}

/* 1 when a and b (of one memory) are the same elements in the same order. */
static int same_sequence(const ndt_array *a, const ndt_array *b) {
  bseq p, q;
  bseq_of(a, &p);
  bseq_of(b, &q);
  if (p.base != q.base || p.w != q.w || p.n != q.n) return 0;
  for (int k = 0; k < p.n; k++)
    if (p.shape[k] != q.shape[k] || p.st[k] != q.st[k]) return 0;
  return 1;
}

static const char *priv_name(unsigned p) {
  switch (p & NDT_PRIV_MASK) {
    case NDT_READ: return "read";
    case NDT_WRITE: return "write";
    case NDT_RW: return "read-write";
    case NDT_REDUCE: return "reduce";
    default: return "?";
  }
}

static int describe(char *out, size_t cap, int i, const ndt_operand *o) {
  const ndt_array *v = o->view;
  int n = snprintf(out, cap, "operand %d (%s%s, %s, shape (", i, priv_name(o->priv),
                   (o->priv & NDT_OPND_WALK) ? ", walked" : "", ndt_dtype_name(v->dtype));
  for (int k = 0; k < v->ndim && n < (int)cap; k++)
    n += snprintf(out + n, cap - (size_t)n, "%s%lld", k ? ", " : "", (long long)v->shape[k]);
  if (n < (int)cap) n += snprintf(out + n, cap - (size_t)n, "), strides (");
  for (int k = 0; k < v->ndim && n < (int)cap; k++)
    n += snprintf(out + n, cap - (size_t)n, "%s%lld", k ? ", " : "", (long long)v->strides[k]);
  if (n < (int)cap)
    n += snprintf(out + n, cap - (size_t)n, ") elements, offset %lld%s)", (long long)v->offset,
                  v->part ? ", imaginary part" : "");
  return n;
}

static ndt_status violation(const char *name, const char *what, const ndt_operand *op, int i,
                            int j) {
  char a[240], b[240];
  describe(a, sizeof a, i, &op[i]);
  describe(b, sizeof b, j, &op[j]);
  char msg[700];
  snprintf(msg, sizeof msg, "NDTILE_CHECK: task '%s' %s: %s and %s (docs/design.md, Tasks)",
           name, what, a, b);
  if (ndt__set_.check == NDT__CHECK_ABORT) {
    fprintf(stderr, "ndtile: %s\n", msg);
    fflush(stderr);
    abort();
  }
  return ndt__error(NDT_ERR_INTERNAL, "%s", msg);
}

ndt_status ndt__check_task(const char *name, const ndt_operand *op, int nop) {
  for (int i = 0; i < nop; i++) {
    const ndt_array *u = op[i].view;
    if ((op[i].priv & NDT_OPND_KEEP) || u->size == 0) continue;
    for (int j = i + 1; j < nop; j++) {
      const ndt_array *v = op[j].view;
      if ((op[j].priv & NDT_OPND_KEEP) || v->size == 0) continue;
      int wi = (op[i].priv & NDT_WRITE) != 0, wj = (op[j].priv & NDT_WRITE) != 0;
      if ((!wi && !wj) || root_of(u->store) != root_of(v->store)) continue;
      /* a written operand and a read one: the same elements in the same
       * order are an in-place op */
      if (wi != wj && same_sequence(u, v)) continue;
      bset a, b;
      bset_of(u, &a);
      bset_of(v, &b);
      int meet = sets_meet(&a, &b);
      if (meet < 0) return ndt__error(NDT_ERR_NOMEM, "NDTILE_CHECK: out of memory");
      if (meet)
        return violation(name,
                         wi && wj ? "names the same elements in two written operands"
                                  : "reads elements that it writes through another operand, "
                                    "not as the same elements in the same order",
                         op, i, j);
    }
  }
  return NDT_OK;
}
