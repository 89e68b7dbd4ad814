/* cuda_search.h - a part of the CUDA plugin (included once, by cuda.c):
 * src/ops/select.c's "searchsorted" tasks (argument: ops/select.h):
 * np.searchsorted, and the uniform-bin index of np.histogram (bins), on
 * the device's binary search and bin arithmetic
 * (src/kernels/cuda/search_impl.h), with the CPU's bits.
 *
 * The sorted array (or the edges) and the block of values are walked
 * operands: read in place when bound in one piece (a pointer and a
 * stride), else gathered into device scratch by the index kernels' view
 * copy (cuda.c's view_copy_part; outside the budget as a gather's scratch
 * is: a failure sends the task to the CPU). The result block is a fresh
 * array's, contiguous. A bin index takes values of the edges' dtype and
 * of the dtypes whose cast to it cannot overflow (bool, integers, float32
 * to float64: no floating-point flags to raise); float64 values over
 * float32 edges stay on the CPU.
 *
 * "histogram" (select.c: a block's counts of uniform bins, added by
 * "bincount combine" after) is the two: the block's bin indices into
 * device scratch by the search kernel, then bincount's count kernel over
 * them (cuda_bincount.h: bounds, so the index past the last bin counts
 * nowhere; weights cast to float64 and added in element order per bin, as
 * the CPU's count adds them; its flags raised on the worker as the CPU's
 * adds raise them). Needs bincount_impl.h (cuda.c includes cuda_bincount.h
 * first). */
#include "ops/select.h"
#include "kernels/cuda/search_impl.h"

int ndt__dk_search(int dt, int vdt, int right, int bins, ndt_dk_launch *L, void *stream);

/* 1 "searchsorted", 2 "histogram", 0 another kind */
static int search_kind(const ndt_task_kind *k) {
  return !strcmp(k->name, "searchsorted") ? 1 : !strcmp(k->name, "histogram") ? 2 : 0;
}

static int find_ok(const ndt_operand *op, const ndt_find_arg *g) {
  const int dt = g->a.dtype, vdt = g->v.dtype;
  if (g->a.ndim != 1 || g->v.ndim != 1 || dt < 0 || dt >= NDT_NTYPES) return 0;
  if (!op[0].view->store || !op[1].view->store) return 0;
  if (!g->bins) return vdt == dt;
  return (dt == NDT_FLOAT32 || dt == NDT_FLOAT64) && g->a.shape[0] >= 2 && vdt >= 0 &&
         (vdt < NDT_FLOAT32 || vdt == dt || (vdt == NDT_FLOAT32 && dt == NDT_FLOAT64));
}

static int search_supports(int what, const ndt_operand *op, int nop, const void *arg) {
  if (what == 1) return nop == 3 && find_ok(op, arg);
  const ndt_hist_arg *h = arg;
  return nop == 4 && h->f.bins && find_ok(op, &h->f) && h->f.v.size <= ((int64_t)1 << 31) &&
         (!h->has_w || (h->w.ndim == 1 && op[2].view->store && h->w.dtype >= 0 &&
                        h->w.dtype <= NDT_FLOAT64));
}

/* operand k (walked, 1-d) as a pointer and a byte stride on the device:
 * in place, or gathered into buf (contiguous) */
static ndt_status search_operand(cuda_dev *d, const ndt_bound *b, char *buf, int isz,
                                 char **p, int64_t *st) {
  if (b->ptr) {
    *p = b->ptr;
    *st = b->ndim ? b->st[0] : 0;
    return NDT_OK;
  }
  *p = buf;
  *st = isz;
  return view_copy_part(d, b->mem, b->view, buf, 1, isz, NULL);
}

/* One searchsorted task (what 1) or histogram task (2) on d (called with
 * d->run held; for a histogram, d->flags cleared). */
static ndt_status search_one(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  static _Thread_local ndt_dk_launch L;   /* 17 KB: not on a worker's stack */
  const int what = *(const int *)ctx;
  const ndt_hist_arg *h = arg;
  const ndt_find_arg *g = what == 1 ? arg : &h->f;
  const int64_t n = g->a.shape[0], m = g->v.size;
  if (m == 0) return NDT_OK;   /* (a histogram block has values: select.c) */
  const int asz = ndt_dk_dtype_size(g->a.dtype), vsz = ndt_dk_dtype_size(g->v.dtype);
  const int wsz = what == 2 && h->has_w ? ndt_dk_dtype_size(h->w.dtype) : 0;
  /* scratch: a, the values, the weights gathered (those not in one piece);
   * a histogram's bin indices and its count's scratch */
  const size_t abytes = b[0].ptr || n == 0 ? 0 : (size_t)(n * asz + 15) / 16 * 16;
  const size_t vbytes = b[1].ptr ? 0 : (size_t)(m * vsz + 15) / 16 * 16;
  const size_t wbytes = !wsz || b[2].ptr ? 0 : (size_t)(m * wsz + 15) / 16 * 16;
  const size_t ibytes = what == 2 ? (size_t)m * 8 : 0, cbytes = what == 2 ? (size_t)ndt_db_scratch(m) : 0;
  const size_t total = abytes + vbytes + wbytes + ibytes + cbytes;
  char *scr = NULL;
  if (total && !(scr = dev_malloc(d, total))) return NDT_ERR_NOMEM;
  char *ix = scr + abytes + vbytes + wbytes;
  memset(&L, 0, offsetof(ndt_dk_launch, run));
  ndt_dk_run *u = &L.run[0];
  memset(u, 0, sizeof *u);
  L.nrun = 1;
  u->rows = m;
  u->cols = n > 0 ? n : 1;
  ndt_status st = NDT_OK;
  if (n > 0) st = search_operand(d, &b[0], scr, asz, &u->p[2], &u->cs[2]);
  if (st == NDT_OK) st = search_operand(d, &b[1], scr + abytes, vsz, &u->p[0], &u->rs[0]);
  u->from = n;
  u->p[1] = what == 1 ? b[2].ptr : ix;
  u->rs[1] = 8;
  memcpy(&u->rs[3], &g->first, 8);
  memcpy(&u->cs[3], &g->last, 8);
  memcpy(u->start, &g->denom, 8);
  u->start[8] = (unsigned char)((g->single_d != 0) | (g->single_f != 0) << 1);
  if (st == NDT_OK && ndt__dk_search(g->a.dtype, g->v.dtype, g->right, g->bins, &L, d->stream))
    st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this search");
  if (st == NDT_OK && what == 2) {   /* the block's counts of those indices */
    char *w = NULL;
    int64_t ws = 0;
    if (wsz) st = search_operand(d, &b[2], scr + abytes + vbytes, wsz, &w, &ws);
    memset(u, 0, sizeof *u);
    u->rows = 1;
    u->cols = m;
    u->p[0] = ix;
    u->cs[0] = 8;
    u->p[1] = w;
    u->cs[1] = ws;
    u->p[2] = ix + ibytes;
    u->rs[2] = (int64_t)cbytes;
    u->cs[2] = 8;
    u->p[3] = b[3].ptr;
    u->rs[3] = n - 1;
    if (st == NDT_OK && ndt__dk_bincount(NDT_INT64, wsz ? (int)h->w.dtype : -1, 1, &L, d->flags,
                                         d->stream))
      st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this histogram");
  }
  cudaError_t e = cudaGetLastError();
  if (st == NDT_OK && e != cudaSuccess) st = disable(d, e, what == 1 ? "a search" : "a histogram");
  if (scr && !atomic_load(&d->dead)) cudaFreeAsync(scr, d->stream);
  return st;
}

/* n tasks of one kind on d (one, or a grouped task's members), in order;
 * a histogram's flags read back once and raised on this worker. */
static ndt_status search_run(cuda_dev *d, int what, ndt_bound *b, int n, const int *nop,
                             void *const *args) {
  return run_members(d, what == 1 ? "a search" : "a histogram", what == 2, search_one, &what, b,
                     n, nop, args);
}

static ndt_status search_body(ndt_bound *b, void *argp) {
  int nop = 3;
  return search_run(b[2].mem->context, 1, b, 1, &nop, &argp);
}

static ndt_status search_hist_body(ndt_bound *b, void *argp) {
  int nop = 4;
  return search_run(b[3].mem->context, 2, b, 1, &nop, &argp);
}
