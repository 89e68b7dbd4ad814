/* device_plan.c - the device plan's decisions (proc.c makes them, on the
 * recording thread, in program order) recorded as ordinary tasks: copies
 * ("copy h2d", "copy d2h", "copy d2d"), evictions ("evict") and frees of
 * the copies of dropped stores that nothing reads again ("discard": no
 * write-back), so the graph orders them and the trace (NDTILE_PROFILE)
 * names them. Each takes
 * its tile for writing (whole), so it comes after every earlier use of the
 * tile and before every later one; it changes no values (NDT__TASK_MOVE:
 * an interrupt that cancels it loses nothing). The evictions of a memory
 * form a chain, and a task that allocates in that memory (a copy in, a
 * result born there) follows the chain's last link: then at run time the
 * memory never holds more than the plan let it hold at some point of the
 * program, which is the budget. Above sched.c (it records) and proc.c (it
 * asks), below task.c (ndt__record calls it) and dist.c (on many ranks the
 * home rank plans the task it runs). */
#include "rt.h"

/* Each memory's last eviction or discard task (a reference), or NULL. */
static ndt_task *fence[NDT_MAX_MEMS];

typedef struct { int mem, discard; int64_t tile; } ndt_move_arg;

static ndt_tile *arg_tile(ndt_bound *b, const ndt_move_arg *a) {
  return &b[0].view->store->tiles[a->tile];
}
static ndt_status copy_body(ndt_bound *b, void *arg) {
  ndt__move_copy(arg_tile(b, arg), ((ndt_move_arg *)arg)->mem);
  return NDT_OK;
}
static ndt_status evict_body(ndt_bound *b, void *arg) {
  const ndt_move_arg *a = arg;
  ndt__move_evict(arg_tile(b, a), a->mem, a->discard);
  return NDT_OK;
}

static const ndt_task_kind h2d_kind = {"copy h2d", {[NDT_PROC_CPU] = copy_body}, NULL};
static const ndt_task_kind d2h_kind = {"copy d2h", {[NDT_PROC_CPU] = copy_body}, NULL};
static const ndt_task_kind d2d_kind = {"copy d2d", {[NDT_PROC_CPU] = copy_body}, NULL};
static const ndt_task_kind evict_kind = {"evict", {[NDT_PROC_CPU] = evict_body}, NULL};
static const ndt_task_kind discard_kind = {"discard", {[NDT_PROC_CPU] = evict_body}, NULL};

/* Records one decision; the store reference the plan took goes back. */
static ndt_status record_move(const ndt_plan_act *a) {
  const ndt_task_kind *k = a->evict == 2 ? &discard_kind : a->evict ? &evict_kind
                           : !a->mem ? &d2h_kind
                           : a->from ? &d2d_kind : &h2d_kind;
  ndt_tile *t = a->tile;
  ndt_store *s = t->store;
  ndt_array v;
  ndt__range_view(&v, s, t->start, t->len);
  /* the body finds its tile through the operand; it binds nothing */
  ndt_operand op = {&v, NDT_READ | NDT_OPND_KEEP};
  ndt_access acc = {t, NDT_WRITE, t->start, t->start + t->len - 1};
  ndt_move_arg arg = {a->mem, a->evict == 2, t - s->tiles};
  ndt_task *made = NULL, *after = a->fence ? fence[a->mem] : NULL;
  ndt_taskrec r = {.name = k->name, .kind = k, .proc = ndt__proc_get(0), .op = &op, .nop = 1,
                   .arg = &arg, .arg_size = sizeof arg, .acc = &acc, .nacc = 1,
                   .stores = &s, .nstores = 1, .flags = NDT__TASK_MOVE, .span = NULL,
                   .after = &after, .nafter = after != NULL, .made = a->evict ? &made : NULL};
  ndt_status st = ndt__rt_local_submit(&r);
  if (made) {   /* the memory's chain of evictions moves on */
    if (fence[a->mem]) ndt__task_put(fence[a->mem]);
    fence[a->mem] = made;
  }
  ndt__store_decref(s);
  return st;
}

/* The bytes a task works on: its operands' elements (what the body reads
 * and writes, not the tiles they lie in), an operand read and written
 * (RW, REDUCE) twice. */
static int64_t work_bytes(const ndt_operand *op, int nop) {
  int64_t w = 0;
  for (int i = 0; i < nop; i++) {
    unsigned p = op[i].priv & NDT_PRIV_MASK;
    if (op[i].priv & NDT_OPND_KEEP) continue;
    int64_t b = op[i].view->size * ndt_vsize(op[i].view);
    w += (p & NDT_READ) && (p & NDT_WRITE) ? 2 * b : b;
  }
  return w;
}

/* The flush hook's query (ndt_flush_fn, all < 0): fused work held back
 * still reads or writes s. */
static int held(const ndt_store *s) { return ndt__rt_flush(-1, s, NULL, 0) != NDT_OK; }

ndt_status ndt__plan_task(ndt_processor **pp, const ndt_task_kind *k, const ndt_operand *op,
                          int nop, const ndt_access *acc, int nacc, ndt_task **after) {
  *after = NULL;
  if (!nacc) return NDT_OK;
  ndt_plan_act local[16];
  ndt_plan_acts pa = {local, local, 0, 16};
  int born = 0;
  ndt_status st = ndt__plan_decide(pp, k, acc, nacc, work_bytes(op, nop), held, &pa, &born);
  for (int i = 0; i < pa.n; i++) {
    if (st == NDT_OK) st = record_move(&pa.a[i]);
    else ndt__store_decref(pa.a[i].tile->store);
  }
  if (pa.a != local) ndt__mfree(pa.a);
  /* a result written whole on the device gets its buffer there when the
   * task binds: after the memory's evictions so far (the chain holds the
   * reference until a later eviction replaces it) */
  int x = (*pp)->mem->id;
  if (born && x) *after = fence[x];
  return st;
}
