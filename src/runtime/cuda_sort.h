/* cuda_sort.h - a part of the CUDA plugin (included once, by cuda.c, after
 * its memory helpers): sort and argsort along an axis, src/ops/sort.c's
 * "sort" tasks (argument: ops/sort.h), on the device's radix sort
 * (src/kernels/cuda/sort_impl.h) with the CPU's bits: every dtype, values
 * or indices, NDT_SORT_QUIET_NAN.
 *
 * A task is a block of lines (the sort axis last); its lines go to the
 * kernel as runs (the outer axes merged where both operands step through
 * them as one; one run per index of the others), at most NDT_DK_MAXRUNS a
 * launch series, with device scratch for each line (two index and two
 * key arrays and the digit counts: ndt_ds_scratch, 32 bytes an element and
 * 1 KiB a chunk of 256 and 1 KiB a line),
 * outside the budget as a gather's scratch is (a failure sends the task
 * to the CPU). A block the binding would gather element by element (a
 * reversed line across more tiles than the view copy takes: a copy call
 * per element) stays on the CPU.
 * "partition" (partition, argpartition, median) has a body of its own
 * (cuda_partition.h: the CPU's introselect on the device; a device sort
 * would give other bits off the kth positions). */
#include "ops/sort.h"
#include "kernels/cuda/sort_impl.h"

int ndt__dk_sort(int dt, int wix, int quiet, ndt_dk_launch *L, void *stream);

static int sort_kind(const ndt_task_kind *k) { return !strcmp(k->name, "sort"); }

static int sort_supports(const ndt_operand *op, int nop, const void *arg) {
  const ndt_sort_arg *a = arg;
  const int nd = a->in.ndim;
  (void)op;   /* any view: cm_view_copy gathers one across any number of tiles */
  return nop == 2 && a->nkth == 0 && nd >= 1 && nd <= NDT_MAXDIMS && a->in.dtype >= 0 &&
         a->in.dtype < NDT_NTYPES && a->in.shape[nd - 1] <= ((int64_t)1 << 31);
}

/* The runs of a task of lines (a sort's or a partition's, the axis last):
 * the outer axes merged where both operands step through them as one, one
 * run per index of the others, at most NDT_DK_MAXRUNS a launch; each line
 * of a launch has rec bytes of device scratch (lw_next's scratch). */
typedef struct {
  int nd, od;
  int64_t n, rows, nruns, per, q, rec, idx[NDT_MAXDIMS];
  int64_t shape[NDT_MAXDIMS], st[2][NDT_MAXDIMS];
} line_walk;

static void lw_init(line_walk *w, const ndt_bound *b, const ndt_sort_arg *a, int64_t rec) {
  const int nd = a->in.ndim;
  memset(w, 0, sizeof *w);
  w->nd = nd;
  for (int k = 0; k < nd - 1; k++) {
    w->shape[k] = a->in.shape[k];
    w->st[0][k] = b[0].st[k];
    w->st[1][k] = b[1].st[k];
  }
  w->od = ndt__coalesce(nd - 1, w->shape, 2, w->st);
  w->n = a->in.shape[nd - 1];
  w->rows = w->od ? w->shape[w->od - 1] : 1;
  w->nruns = a->in.size / w->n / w->rows;
  w->per = w->nruns < NDT_DK_MAXRUNS ? w->nruns : NDT_DK_MAXRUNS;
  w->rec = rec;
}

/* The next launch's runs into L (operands 0 and 1 the task's, 2 the
 * lines' scratch); 0 when every run was launched. */
static int lw_next(line_walk *w, const ndt_bound *b, char *scratch, ndt_dk_launch *L) {
  if (w->q >= w->nruns) return 0;
  memset(L, 0, offsetof(ndt_dk_launch, run));
  const int nd = w->nd, od = w->od;
  for (; L->nrun < w->per && w->q < w->nruns; w->q++) {
    ndt_dk_run *u = &L->run[L->nrun];
    memset(u, 0, sizeof *u);
    const char *ip = b[0].ptr;
    char *op = b[1].ptr;
    for (int k = 0; k < od - 1; k++) {
      ip += w->idx[k] * w->st[0][k];
      op += w->idx[k] * w->st[1][k];
    }
    u->rows = w->rows;
    u->cols = w->n;
    u->p[0] = (char *)ip;
    u->p[1] = op;
    u->p[2] = scratch + L->nrun * w->rows * w->rec;
    u->rs[0] = od ? w->st[0][od - 1] : 0;
    u->rs[1] = od ? w->st[1][od - 1] : 0;
    u->rs[2] = w->rec;
    u->cs[0] = b[0].st[nd - 1];
    u->cs[1] = b[1].st[nd - 1];
    u->cs[2] = 8;
    L->nrun++;
    for (int k = od - 2; k >= 0; k--) {
      if (++w->idx[k] < w->shape[k]) break;
      w->idx[k] = 0;
    }
  }
  return 1;
}

/* One sort task on d (called with d->run held). */
static ndt_status sort_one(cuda_dev *d, ndt_bound *b, const ndt_sort_arg *a, ndt_dk_launch *L) {
  const int nd = a->in.ndim;
  const int64_t n = a->in.shape[nd - 1];
  if (a->in.size == 0 || n == 0) return NDT_OK;
  line_walk w;
  lw_init(&w, b, a, ndt_ds_scratch(n));
  char *scr = dev_malloc(d, (size_t)(w.per * w.rows * w.rec));
  if (!scr) return NDT_ERR_NOMEM;
  ndt_status st_ = NDT_OK;
  while (st_ == NDT_OK && lw_next(&w, b, scr, L)) {
    if (ndt__dk_sort(a->in.dtype, a->want_indices, a->quiet_nan, L, d->stream))
      st_ = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this sort");
    cudaError_t e = cudaGetLastError();
    if (st_ == NDT_OK && e != cudaSuccess) st_ = disable(d, e, "a sort");
  }
  if (!atomic_load(&d->dead)) cudaFreeAsync(scr, d->stream);
  return st_;
}

/* one sort task (run_members, cuda.c) */
static ndt_status sort_member(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  static _Thread_local ndt_dk_launch L;   /* 14 KB: not on a worker's stack */
  (void)ctx;
  return sort_one(d, b, arg, &L);
}

/* n sort tasks on d (one, or a grouped task's members), in order. */
static ndt_status sort_run(cuda_dev *d, ndt_bound *b, int n, const int *nop, void *const *args) {
  return run_members(d, "a sort", 0, sort_member, NULL, b, n, nop, args);
}

static ndt_status sort_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return sort_run(b[0].mem->context, b, 1, &nop, &argp);
}
