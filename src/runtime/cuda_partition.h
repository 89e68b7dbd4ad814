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

/* One partition task on d (called with d->run held): the runs of a sort
 * (cuda_sort.h's line_walk), with the kth values at the scratch's head. */
static ndt_status part_one(cuda_dev *d, ndt_bound *b, const ndt_sort_arg *a, ndt_dk_launch *L) {
  if (a->nkth == 0) return sort_one(d, b, a, L);   /* many kth: a sorted line */
  const int nd = a->in.ndim;
  const int64_t n = a->in.shape[nd - 1];
  if (a->in.size == 0 || n == 0) return NDT_OK;
  line_walk w;
  lw_init(&w, b, a, ndt_dp_scratch(n, a->in.dtype));
  const size_t kb = sizeof(int64_t) * NDT_DP_MAXKTH;
  char *scr = dev_malloc(d, kb + (size_t)(w.per * w.rows * w.rec));
  if (!scr) return NDT_ERR_NOMEM;
  cudaError_t e = cudaMemcpyAsync(scr, a->kth, sizeof(int64_t) * (size_t)a->nkth,
                                  cudaMemcpyHostToDevice, d->stream);
  ndt_status st_ = e == cudaSuccess ? NDT_OK : disable(d, e, "a partition's kth");
  while (st_ == NDT_OK && lw_next(&w, b, scr + kb, L)) {
    for (int r = 0; r < L->nrun; r++) {   /* operand 3: the kth values */
      L->run[r].p[3] = scr;
      L->run[r].rs[3] = a->nkth;
      L->run[r].cs[3] = 8;
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
