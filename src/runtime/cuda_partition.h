/* cuda_partition.h - a part of the CUDA plugin (included once, by cuda.c,
 * after cuda_sort.h): partition and argpartition along an axis,
 * src/ops/sort.c's "partition" tasks (argument: ops/sort.h; np.partition,
 * np.argpartition, and median, percentile and quantile through them), on
 * the device's introselect (src/kernels/cuda/partition_impl.h): the CPU's
 * steps, so the CPU's bits, every dtype, values or indices.
 *
 * A task is a block of lines (the axis last), cut into runs as a sort's
 * (cuda_sort.h): the outer axes merged where both operands step through
 * them as one, at most NDT_DK_MAXRUNS runs a launch, with device scratch
 * for each line (ndt_dp_scratch: 16 bytes and twice the element an
 * element) and the kth values copied to the device once a task, outside
 * the budget as a gather's scratch is (a failure sends the task to the
 * CPU). A task with more kth than NDT_SORT_MAXKTH comes with none: the CPU
 * sorts those lines whole (a valid partition), and so does the device
 * (sort_one: a stable sort has one result). */
#include "kernels/cuda/partition_impl.h"

_Static_assert(NDT_DP_MAXKTH == NDT_SORT_MAXKTH, "partition_impl.h's kth bound is ops/sort.h's");

int ndt__dk_partition(int dt, int wix, ndt_dk_launch *L, void *stream);

enum { PART_LONG_LINE = 1 << 16, PART_FEW_LINES = 256 };

static int part_kind(const ndt_task_kind *k) { return !strcmp(k->name, "partition"); }

static int part_supports(const ndt_operand *op, int nop, const void *arg) {
  const ndt_sort_arg *a = arg;
  const int nd = a->in.ndim;
  (void)op;   /* any view, as a sort's */
  /* One thread runs a line: a task of a few long lines (a flat median)
   * would be a few GPU threads walking megabytes serially, slower than
   * the CPU's one core; those stay on the CPU (the same bits). */
  const int64_t n = nd >= 1 ? a->in.shape[nd - 1] : 0;
  if (a->nkth > 0 && n > PART_LONG_LINE && a->in.size / n < PART_FEW_LINES) return 0;
  return nop == 2 && a->nkth >= 0 && a->nkth <= NDT_DP_MAXKTH && nd >= 1 && nd <= NDT_MAXDIMS &&
         a->in.dtype >= 0 && a->in.dtype < NDT_NTYPES && a->in.shape[nd - 1] <= ((int64_t)1 << 31);
}

/* One partition task on d (called with d->run held). */
static ndt_status part_one(cuda_dev *d, ndt_bound *b, const ndt_sort_arg *a, ndt_dk_launch *L) {
  if (a->nkth == 0) return sort_one(d, b, a, L);   /* many kth: a sorted line */
  const int nd = a->in.ndim;
  const int64_t n = a->in.shape[nd - 1];
  if (a->in.size == 0 || n == 0) return NDT_OK;
  int64_t shape[NDT_MAXDIMS], st[2][NDT_MAXDIMS];
  for (int k = 0; k < nd - 1; k++) {
    shape[k] = a->in.shape[k];
    st[0][k] = b[0].st[k];
    st[1][k] = b[1].st[k];
  }
  int od = ndt__coalesce(nd - 1, shape, 2, st);
  const int64_t rows = od ? shape[od - 1] : 1, lines = a->in.size / n;
  const int64_t rec = ndt_dp_scratch(n, a->in.dtype), nruns = lines / rows;
  const int64_t per = nruns < NDT_DK_MAXRUNS ? nruns : NDT_DK_MAXRUNS;
  const size_t kb = sizeof(int64_t) * NDT_DP_MAXKTH;
  char *scr = dev_malloc(d, kb + (size_t)(per * rows * rec));
  if (!scr) return NDT_ERR_NOMEM;
  cudaError_t e = cudaMemcpyAsync(scr, a->kth, sizeof(int64_t) * (size_t)a->nkth,
                                  cudaMemcpyHostToDevice, d->stream);
  ndt_status st_ = e == cudaSuccess ? NDT_OK : disable(d, e, "a partition's kth");
  int64_t idx[NDT_MAXDIMS] = {0};
  for (int64_t q = 0; q < nruns && st_ == NDT_OK;) {
    memset(L, 0, offsetof(ndt_dk_launch, run));
    for (; L->nrun < per && q < nruns; q++) {
      ndt_dk_run *u = &L->run[L->nrun];
      memset(u, 0, sizeof *u);
      const char *ip = b[0].ptr;
      char *op = b[1].ptr;
      for (int k = 0; k < od - 1; k++) {
        ip += idx[k] * st[0][k];
        op += idx[k] * st[1][k];
      }
      u->rows = rows;
      u->cols = n;
      u->p[0] = (char *)ip;
      u->p[1] = op;
      u->p[2] = scr + kb + L->nrun * rows * rec;
      u->p[3] = scr;
      u->rs[0] = od ? st[0][od - 1] : 0;
      u->rs[1] = od ? st[1][od - 1] : 0;
      u->rs[2] = rec;
      u->rs[3] = a->nkth;
      u->cs[0] = b[0].st[nd - 1];
      u->cs[1] = b[1].st[nd - 1];
      u->cs[2] = 8;
      u->cs[3] = 8;
      L->nrun++;
      for (int k = od - 2; k >= 0; k--) {
        if (++idx[k] < shape[k]) break;
        idx[k] = 0;
      }
    }
    if (ndt__dk_partition(a->in.dtype, a->want_indices, L, d->stream))
      st_ = host->error(NDT_ERR_INTERNAL, "no CUDA kernel for this partition");
    e = cudaGetLastError();
    if (st_ == NDT_OK && e != cudaSuccess) st_ = disable(d, e, "a partition");
  }
  if (!atomic_load(&d->dead)) cudaFreeAsync(scr, d->stream);
  return st_;
}

/* one partition task (run_members, cuda.c) */
static ndt_status part_member(cuda_dev *d, void *ctx, ndt_bound *b, const void *arg) {
  static _Thread_local ndt_dk_launch L;   /* 17 KB: not on a worker's stack */
  (void)ctx;
  return part_one(d, b, arg, &L);
}

/* n partition tasks on d (one, or a grouped task's members), in order. */
static ndt_status part_run(cuda_dev *d, ndt_bound *b, int n, const int *nop, void *const *args) {
  return run_members(d, "a partition", 0, part_member, NULL, b, n, nop, args);
}

static ndt_status part_body(ndt_bound *b, void *argp) {
  int nop = 2;
  return part_run(b[0].mem->context, b, 1, &nop, &argp);
}
