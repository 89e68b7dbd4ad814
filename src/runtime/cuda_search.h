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
 * float32 edges stay on the CPU. */
#include "ops/select.h"
#include "kernels/cuda/search_impl.h"

int ndt__dk_search(int dt, int vdt, int right, int bins, ndt_dk_launch *L, void *stream);

static int search_kind(const ndt_task_kind *k) { return !strcmp(k->name, "searchsorted"); }

static int search_supports(const ndt_operand *op, int nop, const void *arg) {
  const ndt_find_arg *g = arg;
  const int dt = g->a.dtype, vdt = g->v.dtype;
  if (nop != 3 || g->a.ndim != 1 || g->v.ndim != 1 || dt < 0 || dt >= NDT_NTYPES) return 0;
  if (!op[0].view->store || !op[1].view->store) return 0;
  if (!g->bins) return vdt == dt;
  return (dt == NDT_FLOAT32 || dt == NDT_FLOAT64) && g->a.shape[0] >= 2 && vdt >= 0 &&
         (vdt < NDT_FLOAT32 || vdt == dt || (vdt == NDT_FLOAT32 && dt == NDT_FLOAT64));
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

/* One searchsorted task on d (called with d->run held). */
static ndt_status search_one(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  static _Thread_local ndt_dk_launch L;   /* 17 KB: not on a worker's stack */
  const ndt_find_arg *g = arg;
  (void)ctx;
  const int64_t n = g->a.shape[0], m = g->v.size;
  if (m == 0) return NDT_OK;
  const int asz = ndt_dk_dtype_size(g->a.dtype), vsz = ndt_dk_dtype_size(g->v.dtype);
  const size_t abytes = b[0].ptr || n == 0 ? 0 : (size_t)(n * asz + 15) / 16 * 16;
  const size_t vbytes = b[1].ptr ? 0 : (size_t)(m * vsz);
  char *scr = NULL;
  if (abytes + vbytes && !(scr = dev_malloc(d, abytes + vbytes))) return NDT_ERR_NOMEM;
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
  u->p[1] = b[2].ptr;
  u->rs[1] = 8;
  memcpy(&u->rs[3], &g->first, 8);
  memcpy(&u->cs[3], &g->last, 8);
  memcpy(u->start, &g->denom, 8);
  u->start[8] = (unsigned char)((g->single_d != 0) | (g->single_f != 0) << 1);
  if (st == NDT_OK && ndt__dk_search(g->a.dtype, g->v.dtype, g->right, g->bins, &L, d->stream))
    st = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this search");
  cudaError_t e = cudaGetLastError();
  if (st == NDT_OK && e != cudaSuccess) st = disable(d, e, "a search");
  if (scr && !atomic_load(&d->dead)) cudaFreeAsync(scr, d->stream);
  return st;
}

/* n searchsorted tasks on d (one, or a grouped task's members), in order. */
static ndt_status search_run(cuda_dev *d, ndt_bound *b, int n, const int *nop, void *const *args) {
  return run_members(d, "a search", 0, search_one, NULL, b, n, nop, args);
}

static ndt_status search_body(ndt_bound *b, void *argp) {
  int nop = 3;
  return search_run(b[2].mem->context, b, 1, &nop, &argp);
}
