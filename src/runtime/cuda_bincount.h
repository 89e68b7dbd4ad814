/* cuda_bincount.h - a part of the CUDA plugin (included once, by cuda.c,
 * after cuda_sort.h): bincount's tasks (src/ops/search.c, argument:
 * ops/bincount.h) on the device's kernels (src/kernels/cuda/bincount_impl.h)
 * with the CPU's bits:
 *   "bincount count"    a block's histogram: its positions sorted stably by
 *                       bin, each bin's run counted or its weights added in
 *                       element order (float sums keep the CPU's order);
 *                       with bounds, the block's (min, max) index too;
 *   "bincount combine"  the blocks' histograms added in block order, a
 *                       thread per bin (bincount's and histogram's);
 *   "matvec combine"    a transposed matrix-vector product's partials
 *                       (ops/matmul.h's mv_arg: one per block of rows,
 *                       float32 or float64) added in block order from 0,
 *                       as the CPU's block_sum: the same kernel.
 * Indices of bool and the integer dtypes bincount takes, weights of every
 * real dtype (cast to float64 as the CPU casts them). A block whose
 * indices or weights lie across tiles (walked operands not in one device
 * buffer) stays on the CPU. */
#include "ops/bincount.h"
#include "kernels/cuda/bincount_impl.h"

int ndt__dk_bincount(int xt, int wt, int bounds, ndt_dk_launch *L, unsigned *flags, void *stream);
int ndt__dk_bincount_combine(int weighted, ndt_dk_launch *L, unsigned *flags, void *stream);

/* 1 "bincount count", 2 "bincount combine", 0 another kind */
static int bin_kind(const ndt_task_kind *k) {
  return !strcmp(k->name, "bincount count") ? 1 : !strcmp(k->name, "bincount combine") ? 2 : 0;
}

/* 1 when the non-empty view v lies in one tile (bound in place, in one piece) */
static int bin_one_tile(const ndt_array *v) {
  if (!v->store || v->size <= 0) return 0;
  int64_t lo, hi;
  index_extent(v, &lo, &hi);
  return ndt_store_tile_of(v->store, lo) == ndt_store_tile_of(v->store, hi);
}

static int bin_supports(int what, const ndt_operand *op, int nop, const void *arg) {
  if (what == 1) {
    const ndt_bin_arg *a = arg;
    return nop == 3 + a->bounds && a->x.ndim == 1 && a->x.dtype >= NDT_BOOL &&
           a->x.dtype <= NDT_UINT32 && a->x.size <= ((int64_t)1 << 31) && a->nbins >= 0 &&
           (!a->has_w || (a->w.dtype <= NDT_FLOAT64 && bin_one_tile(op[1].view))) &&
           bin_one_tile(op[0].view);
  }
  const ndt_bin_combine_arg *c = arg;
  return nop == 2 && c->nblocks >= 1 && c->nbins >= 1 && c->out.ndim == 1 &&
         c->out.dtype == (c->has_w ? NDT_FLOAT64 : NDT_INT64);
}

/* One task on d (called with d->run held; d->flags cleared). */
static ndt_status bin_one(cuda_dev *d, int what, ndt_bound *b, const void *arg, ndt_dk_launch *L) {
  memset(L, 0, offsetof(ndt_dk_launch, run));
  ndt_dk_run *u = &L->run[0];
  memset(u, 0, sizeof *u);
  L->nrun = 1;
  cudaError_t e = cudaSuccess;
  if (what == 2) {
    const ndt_bin_combine_arg *c = arg;
    u->rows = c->nblocks;
    u->cols = c->nbins;
    u->p[0] = b[0].ptr;
    u->rs[0] = c->nbins * 8;
    u->cs[0] = 8;
    u->p[1] = b[1].ptr;
    u->cs[1] = b[1].st[0];
    if (ndt__dk_bincount_combine(c->has_w, L, d->flags, d->stream))
      return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this bincount");
    e = cudaGetLastError();
    return e == cudaSuccess ? NDT_OK : disable(d, e, "a bincount");
  }
  const ndt_bin_arg *a = arg;
  const int64_t n = a->x.size, rec = ndt_db_scratch(n);
  char *scr = dev_malloc(d, (size_t)rec);
  if (!scr) return NDT_ERR_NOMEM;
  u->rows = 1;
  u->cols = n;
  u->p[0] = b[0].ptr;
  u->cs[0] = b[0].st[0];
  if (a->has_w) {
    u->p[1] = b[1].ptr;
    u->cs[1] = b[1].st[0];
  }
  u->p[2] = scr;
  u->rs[2] = rec;
  u->cs[2] = 8;
  u->p[3] = b[2].ptr;
  u->rs[3] = a->nbins;
  ndt_status st = NDT_OK;
  if (ndt__dk_bincount(a->x.dtype, a->has_w ? (int)a->w.dtype : -1, a->bounds, L, d->flags,
                       d->stream))
    st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this bincount");
  e = cudaGetLastError();
  if (st == NDT_OK && e == cudaSuccess && a->bounds)   /* the block's (min, max) */
    e = cudaMemcpyAsync(b[3].ptr, scr + ndt_ds_scratch(n) + 16 * ndt_ds_nch(n), 16,
                        cudaMemcpyDeviceToDevice, d->stream);
  if (st == NDT_OK && e != cudaSuccess) st = disable(d, e, "a bincount");
  if (!atomic_load(&d->dead)) cudaFreeAsync(scr, d->stream);
  return st;
}

/* one task of kind *(int *)ctx (run_members, cuda.c) */
static ndt_status bin_member(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  static _Thread_local ndt_dk_launch L;   /* 14 KB: not on a worker's stack */
  return bin_one(d, *(const int *)ctx, b, arg, &L);
}

/* n tasks of one kind on d (one, or a grouped task's members), in order;
 * the flags read back once and raised on this worker. */
static ndt_status bin_run(cuda_dev *d, int what, ndt_bound *b, int n, const int *nop,
                          void *const *args) {
  return run_members(d, "a bincount", 1, bin_member, &what, b, n, nop, args);
}

static ndt_status bin_count_body(ndt_bound *b, void *argp) {
  int nop = 3 + ((const ndt_bin_arg *)argp)->bounds;
  return bin_run(b[2].mem->context, 1, b, 1, &nop, &argp);
}

static ndt_status bin_combine_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return bin_run(b[1].mem->context, 2, b, 1, &nop, &argp);
}

/* ---- "matvec combine" (matmul.c: y = R^T v's partials summed in block
 * order; bincount_impl.h's combine, a thread per element of y) ---- */
static int mvc_kind(const ndt_task_kind *k) { return !strcmp(k->name, "matvec combine"); }

static int mvc_supports(const mv_arg *m, int nop) {
  return nop == 2 && (m->t == NDT_FLOAT32 || m->t == NDT_FLOAT64) && m->nblocks >= 1 &&
         m->cols >= 1;
}

static ndt_status mvc_member(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  (void)ctx;
  static _Thread_local ndt_dk_launch L;
  const mv_arg *m = arg;
  const int64_t isz = m->t == NDT_FLOAT32 ? 4 : 8;
  memset(&L, 0, offsetof(ndt_dk_launch, run));
  ndt_dk_run *u = &L.run[0];
  memset(u, 0, sizeof *u);
  L.nrun = 1;
  u->rows = m->nblocks;
  u->cols = m->cols;
  u->p[0] = b[0].ptr;   /* (the partials: nblocks x cols, dense) */
  u->rs[0] = m->cols * isz;
  u->cs[0] = isz;
  u->p[1] = b[1].ptr;
  u->cs[1] = m->cols > 1 ? b[1].st[0] : 0;
  if (ndt__dk_bincount_combine(m->t == NDT_FLOAT32 ? 2 : 1, &L, d->flags, d->stream))
    return host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this matvec");
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? NDT_OK : disable(d, e, "a matvec");
}

static ndt_status mvc_run(cuda_dev *d, ndt_bound *b, int n, const int *nop, void *const *args) {
  return run_members(d, "a matvec", 1, mvc_member, NULL, b, n, nop, args);
}

static ndt_status mvc_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return mvc_run(b[1].mem->context, b, 1, &nop, &argp);
}
