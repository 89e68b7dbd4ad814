/* scan.c - cumulative sums and products along one axis (NumPy's cumsum,
 * cumprod, nancumsum, nancumprod) and the other ufuncs' accumulate
 * (maximum, minimum, fmax, fmin, logical and bitwise and/or/xor,
 * subtract).
 *
 * The result is split into blocks by the tiling of its own shape. Each block
 * task scans its block sequentially along the axis (in the result dtype).
 * Blocks follow each other along the axis in chains.
 *
 * Float and complex scans must give NumPy's bits, and NumPy's loop is
 * sequential: out[i] = out[i-1] (op) x[i]. Their additions and products are
 * not associative (a carry of inf times a local product of 0 is NaN where
 * the sequential product stays inf), so a block's scan starts from the last
 * slice of its predecessor's result: the blocks of one chain run one after
 * another, chains run in parallel.
 *
 * subtract is not associative at all (out[i] = out[i-1] - x[i]): its
 * blocks follow each other in the same way, for every dtype.
 *
 * Integer and bool scans wrap modulo 2^n, where (c + x0) + x1 = c + (x0 + x1)
 * and likewise for products; maximum, minimum, fmax, fmin (NumPy's rules:
 * the latest of equal floats, the earliest of equal complex values, the
 * first NaN, are kept, so op(c, op(x0, x1)) = op(op(c, x0), x1) bit for
 * bit) and the bitwise ops
 * are exact and associative for every dtype; so their blocks run in
 * parallel: each copies
 * its last slice (its total) into a private buffer; one carry task walks all
 * blocks in order and folds each block's predecessor's carry and total into
 * the block's carry; then a fix-up task per block combines its carry into
 * every element. Blocks depend on shape, dtype and tile size only, so the
 * result has the same bits for any number of workers. */
#include <string.h>
#include "scan.h"

#define CH 256

/* ---- tasks ------------------------------------------------------------ */
typedef ndt_scan_arg scan_arg;   /* scan.h */

/* The block before b along the axis, or -1. */
static int64_t pred_of(const scan_arg *a, int64_t b) {
  if (a->chain <= 0) return -1;
  if (a->tl.axis == a->axis) return b % a->tl.per ? b - 1 : -1;
  return (b / a->chain) % a->res.shape[a->axis] ? b - a->chain : -1;
}

/* The last slice along the axis of block q of the result: where block q's
 * successor starts from (seq scans). */
static void last_slice(const scan_arg *a, int64_t q, ndt_array *out) {
  ndt__block_view(&a->res, &a->tl, q, out);
  int ax = a->axis;
  out->offset += (out->shape[ax] - 1) * out->strides[ax];
  out->size /= out->shape[ax];
  out->shape[ax] = 1;
}

/* Calls f on each line (along the axis) of a bound block: base pointers of
 * up to two operands, and the line's index. */
#define FOR_LINES(bv, ax, B0, B1, B2, BODY)                                     \
  do {                                                                          \
    int nd_ = (bv).ndim;                                                        \
    int64_t idx_[NDT_MAXDIMS] = {0};                                            \
    int64_t nl_ = (bv).size / ((bv).shape[ax] ? (bv).shape[ax] : 1);            \
    for (int64_t line = 0; line < nl_; line++) {                                \
      char *p0 = (B0)->ptr, *p1 = (B1) ? (B1)->ptr : NULL;                      \
      char *p2 = (B2) ? (B2)->ptr : NULL;                                       \
      for (int k = 0; k < nd_; k++) {                                           \
        if (k == (ax)) continue;                                                \
        p0 += idx_[k] * (B0)->st[k];                                            \
        if (p1) p1 += idx_[k] * (B1)->st[k];                                    \
        if (p2) p2 += idx_[k] * (B2)->st[k];                                    \
      }                                                                         \
      BODY;                                                                     \
      for (int k = nd_ - 1; k >= 0; k--) {                                      \
        if (k == (ax)) continue;                                                \
        if (++idx_[k] < (bv).shape[k]) break;                                   \
        idx_[k] = 0;                                                            \
      }                                                                         \
    }                                                                           \
  } while (0)

/* Operands: the input block (read), the result block (write), the
 * block's slot of totals in parts (write; empty without parts), the last
 * slice of the predecessor's result (read; empty unless sequential). */
static ndt_status block_body(ndt_bound *op, void *p) {
  const scan_arg *a = p;
  ndt_array iv, rv;
  ndt__block_view(&a->in, &a->tl, a->blk, &iv);
  ndt__block_view(&a->res, &a->tl, a->blk, &rv);
  ndt_bound bi = op[0], br = op[1];
  ndt_scan_fn sf;
  ndt_comb_fn cf;
  ndt__kern->scan(a->rt, &sf, &cf);
  ndt_cast_fn cast = ndt__kern->cast(iv.dtype, a->rt);
  int ax = a->axis, rsz = ndt__traits[a->rt].size;
  int64_t n = rv.shape[ax], is = bi.st[ax], os = br.st[ax];
  char *tot = a->parts ? op[2].ptr : NULL;
  _Alignas(16) char buf[CH * 16];
  _Alignas(16) char acc[16];
  ndt_bound *pbi = &bi, *pbp = NULL;
  int64_t q = a->seq ? pred_of(a, a->blk) : -1;
  if (q >= 0) pbp = &op[3];
  FOR_LINES(rv, ax, &br, pbi, pbp, {
    int started = p2 != NULL;   /* continue the predecessor's sequential scan */
    memset(acc, 0, sizeof acc);
    if (p2) memcpy(acc, p2, (size_t)rsz);
    for (int64_t c = 0; c < n; c += CH) {
      int64_t m = n - c < CH ? n - c : CH;
      cast(p1 + c * is, is, buf, rsz, m);
      sf(buf, m, acc, &started, p0 + c * os, os, a->op, a->nan);
    }
    if (tot) memcpy(tot + line * rsz, acc, (size_t)rsz);
  });
  return NDT_OK;
}

/* Operand: all of parts (read-write). */
static ndt_status carry_body(ndt_bound *op, void *p) {
  const scan_arg *a = p;
  ndt_scan_fn sf;
  ndt_comb_fn cf;
  ndt__kern->scan(a->rt, &sf, &cf);
  int rsz = ndt__traits[a->rt].size;
  char *base = op[0].ptr;
  for (int64_t b = 0; b < a->nblocks; b++) {   /* block order: reproducible */
    int64_t q = pred_of(a, b);
    if (q < 0) continue;
    ndt_array rv;
    ndt__block_view(&a->res, &a->tl, b, &rv);
    int64_t nl = rv.size / rv.shape[a->axis];
    char *cb = base + a->carr_off + b * a->slot;
    memcpy(cb, base + q * a->slot, (size_t)(nl * rsz));          /* total of q */
    if (pred_of(a, q) >= 0)                                        /* + carry of q */
      for (int64_t i = 0; i < nl; i++)
        cf(base + a->carr_off + q * a->slot + i * rsz, cb + i * rsz, 0, 1, a->op);
  }
  return NDT_OK;
}

/* Operands: the result block (read-write), its carry slot in parts (read). */
static ndt_status fix_body(ndt_bound *op, void *p) {
  const scan_arg *a = p;
  ndt_array rv;
  ndt__block_view(&a->res, &a->tl, a->blk, &rv);
  ndt_bound br = op[0];
  ndt_scan_fn sf;
  ndt_comb_fn cf;
  ndt__kern->scan(a->rt, &sf, &cf);
  int ax = a->axis, rsz = ndt__traits[a->rt].size;
  int64_t n = rv.shape[ax], os = br.st[ax];
  const char *cb = op[1].ptr;
  ndt_bound *none = NULL;
  FOR_LINES(rv, ax, &br, none, none, { cf(cb + line * rsz, p0, os, n, a->op); });
  return NDT_OK;
}

static const ndt_task_kind block_kind = {"scan", {block_body}, NULL};
static const ndt_task_kind carry_kind = {"scan carry", {carry_body}, NULL};
static const ndt_task_kind fix_kind = {"scan fixup", {fix_body}, NULL};

/* ---- driver ----------------------------------------------------------- */
static ndt_status run_scan(scan_arg *proto, ndt_array *res) {
  const ndt_array *in = &proto->in;
  ndt_tiling *tl = &proto->tl;
  int ax = proto->axis, rsz = ndt__traits[proto->rt].size;
  ndt__tiling_for(res->ndim, res->shape, rsz, ndt__rt_tile_bytes(), tl);
  int64_t nb = res->size ? tl->ntiles : 0;
  proto->nblocks = nb;
  proto->chain = 0;
  if (nb > 1 && tl->axis >= 0 && tl->axis >= ax) {
    if (tl->axis == ax) {
      proto->chain = tl->per > 1 ? 1 : 0;
    } else {
      int64_t c = tl->per;
      for (int k = ax + 1; k < tl->axis; k++) c *= res->shape[k];
      proto->chain = res->shape[ax] > 1 ? c : 0;
    }
  }
  ndt_status st = NDT_OK;
  proto->parts = NULL;
  char kind = ndt__traits[proto->rt].kind;
  proto->seq = proto->chain && (proto->op == NDT_SK_SUB ||
                                (proto->op <= NDT_SK_MUL && (kind == 'f' || kind == 'c')));
  if (proto->chain && !proto->seq) {
    ndt_array b0;
    ndt__block_view(res, tl, 0, &b0);
    proto->slot = (b0.size / b0.shape[ax] * rsz + 15) & ~(int64_t)15;
    proto->carr_off = nb * proto->slot;
    if ((st = ndt__store_new_bytes(&proto->parts, 2 * nb * proto->slot))) return st;
  }
  unsigned fl = nb <= 1 && res->size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t b = 0; b < nb && st == NDT_OK; b++) {
    scan_arg a = *proto;
    a.blk = b;
    ndt_array iv, rv, tv, pv;
    ndt__block_view(in, tl, b, &iv);
    ndt__block_view(res, tl, b, &rv);
    if (a.parts) ndt__range_view(&tv, a.parts, b * a.slot, a.slot);
    int64_t q = a.seq ? pred_of(&a, b) : -1;
    if (q >= 0) last_slice(&a, q, &pv);   /* after the predecessor's task, which writes it */
    ndt_operand ops[4] = {{&iv, NDT_READ}, {&rv, NDT_WRITE},
                          {a.parts ? &tv : &ndt__empty_view, NDT_WRITE},
                          {q >= 0 ? &pv : &ndt__empty_view, NDT_READ}};
    st = ndt__record(&block_kind, NULL, ops, 4, &a, sizeof a, fl);
  }
  if (st == NDT_OK && proto->parts) {
    ndt_array all;
    ndt__range_view(&all, proto->parts, 0, 2 * nb * proto->slot);
    ndt_operand op = {&all, NDT_RW};
    st = ndt__record(&carry_kind, NULL, &op, 1, proto, sizeof *proto, 0);
    for (int64_t b = 0; b < nb && st == NDT_OK; b++) {
      if (pred_of(proto, b) < 0) continue;
      scan_arg a = *proto;
      a.blk = b;
      ndt_array rv, cv;
      ndt__block_view(res, tl, b, &rv);
      ndt__range_view(&cv, a.parts, a.carr_off + b * a.slot, a.slot);
      ndt_operand ops[2] = {{&rv, NDT_RW}, {&cv, NDT_READ}};
      st = ndt__record(&fix_kind, NULL, ops, 2, &a, sizeof a, 0);
    }
  }
  if (proto->parts) ndt__store_decref(proto->parts);
  return st;
}

/* The kernel op of a scan op. */
static int kernel_op(ndt_scan_op op) {
  switch (op) {
    case NDT_SCAN_CUMSUM: case NDT_SCAN_NANCUMSUM: return NDT_SK_ADD;
    case NDT_SCAN_CUMPROD: case NDT_SCAN_NANCUMPROD: return NDT_SK_MUL;
    case NDT_SCAN_MAXIMUM: return NDT_SK_MAX;
    case NDT_SCAN_MINIMUM: return NDT_SK_MIN;
    case NDT_SCAN_FMAX: return NDT_SK_FMAX;
    case NDT_SCAN_FMIN: return NDT_SK_FMIN;
    case NDT_SCAN_LOGICAL_AND: case NDT_SCAN_BITWISE_AND: return NDT_SK_AND;
    case NDT_SCAN_LOGICAL_OR: case NDT_SCAN_BITWISE_OR: return NDT_SK_OR;
    case NDT_SCAN_LOGICAL_XOR: case NDT_SCAN_BITWISE_XOR: return NDT_SK_XOR;
    default: return NDT_SK_SUB;
  }
}

/* Whether NumPy has a loop of op for result dtype rt. */
static int scan_supported(ndt_scan_op op, ndt_dtype rt) {
  char k = ndt__traits[rt].kind;
  switch (op) {
    case NDT_SCAN_LOGICAL_AND: case NDT_SCAN_LOGICAL_OR: case NDT_SCAN_LOGICAL_XOR:
      return rt == NDT_BOOL;
    case NDT_SCAN_BITWISE_AND: case NDT_SCAN_BITWISE_OR: case NDT_SCAN_BITWISE_XOR:
      return k == 'b' || k == 'i' || k == 'u';
    case NDT_SCAN_SUBTRACT: return rt != NDT_BOOL;
    default: return 1;
  }
}

ndt_dtype ndt_scan_result_type(ndt_scan_op op, ndt_dtype in, ndt_dtype dtype) {
  if (op < NDT_SCAN_CUMSUM || op > NDT_SCAN_SUBTRACT) return NDT_DTYPE_DEFAULT;
  ndt_dtype rt = dtype;
  if (rt == NDT_DTYPE_DEFAULT) {
    if (in < 0 || in >= NDT_NTYPES) return NDT_DTYPE_DEFAULT;
    char k = ndt__traits[in].kind;
    rt = in;
    if (op <= NDT_SCAN_NANCUMPROD) {
      if ((k == 'b' || k == 'i') && ndt__traits[in].size < 8) rt = NDT_INT64;
      if (k == 'u' && ndt__traits[in].size < 8) rt = NDT_UINT64;
    } else if (op >= NDT_SCAN_LOGICAL_AND && op <= NDT_SCAN_LOGICAL_XOR) {
      rt = NDT_BOOL;
    }
  }
  if (rt < 0 || rt >= NDT_NTYPES || !scan_supported(op, rt)) return NDT_DTYPE_DEFAULT;
  return rt;
}

ndt_status ndt_scan(ndt_array **out, ndt_scan_op op, const ndt_array *a, int axis,
                    ndt_dtype dtype) {
  if (op < NDT_SCAN_CUMSUM || op > NDT_SCAN_SUBTRACT)
    return ndt__error(NDT_ERR_VALUE, "unknown scan operation %d", (int)op);
  if (dtype != NDT_DTYPE_DEFAULT && (dtype < 0 || dtype >= NDT_NTYPES))
    return ndt__error(NDT_ERR_TYPE, "invalid dtype %d", (int)dtype);
  ndt_dtype rt = ndt_scan_result_type(op, a->dtype, dtype);
  if (rt == NDT_DTYPE_DEFAULT)
    return ndt__error(NDT_ERR_TYPE, "no loop of this accumulate for dtype %s",
                      ndt_dtype_name(dtype == NDT_DTYPE_DEFAULT ? a->dtype : dtype));
  ndt_array *src = NULL, *tmp = NULL;
  ndt_status st = NDT_OK;
  int ax = axis;
  if (axis == NDT_AXIS_FLAT || a->ndim == 0) {
    if (a->ndim == 0 && axis != NDT_AXIS_FLAT && axis != 0 && axis != -1)
      return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", "axis %d is out of bounds for array of dimension 1",
                       axis);
    int64_t n = a->size;
    if (ndt_is_c_contiguous(a)) {
      st = ndt_reshape(&src, a, 1, &n);
    } else {
      st = ndt_copy(&tmp, a);
      if (st == NDT_OK) st = ndt_reshape(&src, tmp, 1, &n);
      ndt_free(tmp);
    }
    if (st) return st;
    ax = 0;
  } else {
    if (axis < -a->ndim || axis >= a->ndim)
      return ndt__error_at(NDT_ERR_AXIS, NDT_KIND_AXIS, "axis", "axis %d is out of bounds for array of dimension %d",
                       axis, a->ndim);
    if (ax < 0) ax += a->ndim;
    if ((st = ndt__array_view(&src, a))) return st;
  }
  ndt_array *res = NULL;
  st = ndt__array_new(&res, rt, src->ndim, src->shape, 0);
  if (st == NDT_OK) {
    scan_arg proto;
    memset(&proto, 0, sizeof proto);
    proto.nan = op == NDT_SCAN_NANCUMSUM || op == NDT_SCAN_NANCUMPROD;
    proto.op = kernel_op(op);
    proto.axis = ax;
    proto.rt = rt;
    proto.in = *src;
    proto.res = *res;
    /* NumPy's add.accumulate and multiply.accumulate report their errors as
     * "... encountered in accumulate"; the float and complex blocks run in
     * NumPy's order (above), so they raise what its loop raises */
    /* (maximum, minimum, fmax, fmin compare quietly and the bitwise ops
     * raise nothing: what they raise comes from the cast of the input) */
    int arith = proto.op <= NDT_SK_MUL || proto.op == NDT_SK_SUB;
    ndt_fp_begin(arith ? "accumulate" : "cast", NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW |
                                                     NDT_FPE_UNDERFLOW | NDT_FPE_INVALID);
    st = run_scan(&proto, res);
    ndt_fp_end();
  }
  ndt_free(src);
  return ndt__finish(st, res, out);
}
