/* rt.h - what the runtime's own files share (not the ops'). The files lean
 * one way (observe.c, the build and memory report, asks them all):
 *   task.c  (ndt__record: operands -> accesses, the processor)
 *     -> dist.c  (many ranks: the owner-computes protocol, ndt__wait_tiles)
 *     -> device_plan.c (with devices: the plan's copy and eviction tasks;
 *        on many ranks the home rank plans in dist.c)
 *       -> sched.c  (the task graph, the worker pool = the CPU processor)
 *         -> bind.c  (running a body with its operands bound)
 *           -> proc.c (processor and memory tables), memory.c, store.c
 *         -> device.c (NDTILE_DEVICES: placement, the CUDA plugin, the log)
 *           -> device_sim.c (simulated devices)
 *         -> settings.c (env vars, tile bytes, inline threshold)
 *         -> trace.c (the timeline) */
#ifndef NDT_RT_H
#define NDT_RT_H
#include <pthread.h>
#include "internal.h"

struct ndt_task {
  atomic_int refs;
  atomic_int done;
  const char *name;
  const ndt_task_kind *kind;
  ndt_processor *proc;
  ndt_operand *op;        /* copies of the operands (views follow them) */
  int nop;
  void *arg;              /* a copy, allocated with the task */
  ndt_store **stores;
  int nstores;
  int ndeps;              /* unfinished predecessors (under lock) */
  int64_t bytes;          /* data allocated for it when it was recorded */
  ndt_fprec *fprec;       /* its op's floating-point error record, or NULL */
  ndt_tile **used;        /* the tiles it has uses on (sched.c), dropped when it ran */
  int nused;
  ndt_task **succ;        /* tasks waiting for this one (under lock) */
  int nsucc, capsucc;
  ndt_task *next;         /* ready queue link */
  int64_t seq;            /* recording order (cancelled when below cancel_below) */
  unsigned char *wrote;   /* wrote[i]: the task writes stores[i] */
  int64_t io_bytes;       /* the timeline: bytes of the regions it uses (set while tracing) */
  int ntiles;             /* ... and the tiles they lie in */
  int waited;             /* a wait sleeps until this task finishes (under lock) */
  int queued;             /* launched into the pool's queue: counted runnable */
  int fails_clean;        /* NDT_TASK_FAILS_CLEAN: a failure wrote nothing */
  int urgent;             /* NDT_TASK_URGENT: queued ahead of the pool's other ready tasks */
  int early;              /* NDT_TASK_EARLY: an interrupt of the current call keeps it */
  atomic_int started;     /* a worker took it (set before it looks whether it is cancelled) */
};

/* One task as the recording thread hands it down (task.c -> dist.c ->
 * sched.c). */
typedef struct {
  const char *name;
  const ndt_task_kind *kind;
  ndt_processor *proc;
  const ndt_operand *op;
  int nop;
  void *arg;
  size_t arg_size;
  const ndt_access *acc;
  int nacc;
  ndt_store *const *stores;   /* the stores a deferred task holds; NULL: its operands' */
  int nstores;
  unsigned flags;
  const int64_t *span;    /* the first and last tile of each operand, or NULL (a view
                           * may skip tiles between: the binding asks ndt__view_tiles) */
  /* the device plan's tasks (proc.c): explicit predecessors besides the
   * tiles' (NULL entries skipped), and where to hand back the recorded
   * task with a reference (ndt__task_put drops it) */
  ndt_task *const *after;
  int nafter;
  ndt_task **made;
  /* a grouped task (sched.c): its members' floating-point record (one
   * reference, handed over) and the bytes they allocated */
  int grouped;
  ndt_fprec *fprec;
  int64_t bytes;
} ndt_taskrec;
/* A task of the device plan (a copy, an eviction): its tile accesses order
 * it, but it changes no values, so an interrupt that cancels it loses
 * nothing (it does not mark the stores it accesses lost). */
#define NDT__TASK_MOVE 0x100u

/* ---- settings.c ---- */
typedef struct {
  int64_t tile_bytes;
  int64_t inline_elems;
  int64_t max_pending;    /* the recording thread waits when more tasks are pending */
  int64_t max_bytes;      /* ... or when older pending tasks hold more bytes */
  int64_t group_bytes;    /* the most bytes of one grouped device task (0: none) */
  int check;              /* NDTILE_CHECK: NDT__CHECK_* */
} ndt_settings;
/* NDTILE_CHECK (check.c): off; a violation aborts with its message; or it
 * is the op's error (NDT_ERR_INTERNAL: Python's RuntimeError). */
enum { NDT__CHECK_OFF, NDT__CHECK_ABORT, NDT__CHECK_ERROR };
extern ndt_settings ndt__set_;
/* The number of workers cfg asks for (or the environment, or the cores). */
int ndt__settings_workers(const ndt_config *cfg);
/* Fills ndt__set_ for w workers. */
void ndt__settings_load(const ndt_config *cfg, int w);
/* The first start: memory statistics and the cache limit from env. */
void ndt__settings_first_start(void);

/* ---- check.c ---- */
/* NDTILE_CHECK: NDT_OK when no two written operands of op[0..nop) share an
 * element and a written one shares elements with a read one only as the
 * same elements in the same order; else the violation (which aborts under
 * NDT__CHECK_ABORT), naming the task and the two operands. */
ndt_status ndt__check_task(const char *name, const ndt_operand *op, int nop);

/* ---- trace.c ---- */
extern int ndt__trace_on_;
double ndt__now_us(void);
void ndt__trace_add(const char *name, int tid, double t0, double t1);
/* The timeline row of messages between ranks (dist.c's message tasks) */
#define NDT__TRACE_MSG (-2)
/* ... with the bytes and the number of tiles the task used, and the bytes
 * it copied through scratch (gathered in and scattered back) */
/* the processor the last task body of this thread ran on, with devices
 * (NULL: the CPU alone; bind.c sets it, the trace names it) */
extern _Thread_local const ndt_processor *ndt__ran_on;
extern _Thread_local const char *ndt__ran_kind;   /* and its task kind's name */
/* proc: the processor's name when a device is registered (the trace's
 * "proc"), else NULL */
void ndt__trace_add_io(const char *name, int tid, double t0, double t1, int64_t bytes,
                       int tiles, int64_t gathered, const char *proc);
/* Bytes this thread has gathered into scratch and scattered back from it
 * (bind.c, counted always; the trace takes the difference over a task). */
extern _Thread_local int64_t ndt__gathered;
/* The trace file of this rank for NDTILE_PROFILE=base (see trace.c). */
void ndt__trace_path(char *out, size_t cap, const char *base, int rank, int nranks);
/* Writes the trace file (nworkers threads named), after a sync. */
ndt_status ndt__trace_dump(int nworkers);

/* ---- bind.c ---- */
/* Binds op[0..nop) for processor p into b, calls the body of p's kind and
 * unbinds (scattering written operands back when the body succeeded).
 * span: the first and last tile of each non-empty operand, as recording
 * found them (the inline path), or NULL. An operand whose elements leave
 * whole tiles out binds only the tiles they lie in, as recording named
 * them (ndt__view_tiles, the same rule on the same view). */
ndt_status ndt__exec_body(const ndt_task_kind *k, ndt_processor *p, const ndt_operand *op,
                         int nop, void *arg, const int64_t *span);
#define NDT_SPAN_OPS (NDT_MAXDIMS + 8)   /* operands whose span recording keeps */

/* The tiles of v's store that hold elements of v, when they leave whole
 * tiles out between lo and hi (v's extent, v not empty): fn(ctx, t, l, h)
 * for each, in ascending order, [l, h] within tile t covering the elements
 * of v there (conservatively: what lies between them too). Returns 1 when
 * it called fn for them; 0 when every tile from lo's to hi's holds one, or
 * when telling which would take too long (the caller takes them all); -1
 * when fn returned nonzero (it stops there). */
typedef int (*ndt__tile_fn)(void *ctx, int64_t t, int64_t lo, int64_t hi);
int ndt__view_tiles(const ndt_array *v, int64_t lo, int64_t hi, ndt__tile_fn fn, void *ctx);

/* ---- dist.c ---- */
/* Records a task under the owner-computes protocol (many ranks). */
ndt_status ndt__dist_submit(const ndt_taskrec *r);

/* ---- proc.c ---- */
/* A grouped device task (sched.c holds its members on the recording
 * thread and records them as one task of this kind): its argument is an
 * ndt_group_arg followed by the members' arguments; its operands are the
 * members', member after member. Its body runs them on the processor's
 * iface->group (the CPU's bodies, one by one, after a fallback). */
#define NDT_GROUP_MAX 64
typedef struct {
  const ndt_task_kind *kind;
  ndt_processor *proc;
  int n;
  int nop[NDT_GROUP_MAX];
  uint32_t arg_off[NDT_GROUP_MAX];   /* member i's argument at (char *)arg + arg_off[i] */
} ndt_group_arg;
extern const ndt_task_kind ndt__group_kind;
/* Calls every processor's sync (ndt_sync). */
ndt_status ndt__proc_sync_all(void);
/* The tile's buffer in m (host: its data), or NULL. */
static inline char *ndt_tile_mem(const ndt_tile *t, const ndt_memory *m) {
  return m->id ? t->mcopy[m->id] : t->data;
}

/* With a device registered, every binding pins its tiles (proc.c). */
extern int ndt__dev_track;
int ndt__mem_count(void);
/* The body p runs for k (its iface->body, else k->body[p->kind]), or NULL. */
ndt_body_fn ndt__proc_body(ndt_processor *p, const ndt_task_kind *k);
/* Tiles [t0, t1] of s, bound for a write when w; elements [dlo, dhi] are
 * all overwritten and not read (a tile inside is not copied in first;
 * dlo > dhi: none). The same rule as the plan's (ndt__whole_write). */
typedef struct { ndt_store *s; int64_t t0, t1, dlo, dhi; int w; } ndt_range;
/* Makes every tile of the ranges valid in m at once (waiting while one
 * would be copied from a memory a running task writes), pinned until
 * ndt__release_ranges; NDT_ERR_NOMEM (nothing held) when m is full and
 * nothing can be evicted. */
ndt_status ndt__acquire_ranges(ndt_memory *m, int n, const ndt_range *r);
void ndt__release_ranges(ndt_memory *m, int n, const ndt_range *r);

/* The device plan. proc.c keeps the model and decides; device_plan.c
 * (above sched.c) records what was decided as tasks. One decision: a copy
 * of tile into memory mem from memory from (fence: it allocates there, so
 * it follows the memory's evictions so far), or an eviction from mem. The
 * tile's store is held (a reference) until the task is recorded. */
typedef struct { ndt_tile *tile; int mem, from, evict, fence; } ndt_plan_act;   /* evict 2: discard */
typedef struct { ndt_plan_act *a, *local; int n, cap; } ndt_plan_acts;
/* With devices, on the recording thread, before a task with accesses acc
 * (work: the bytes of its operands' elements) is submitted on *pp: the
 * copies and evictions it needs, appended to pa in the order they must be
 * recorded; *pp becomes the CPU when its tiles cannot fit the device, or
 * when running it there would move more than twice the bytes it works on
 * and more than running it on the host would (it stays where its data
 * is: proc.c's plan_moves); *born:
 * it allocates a result written whole in its device memory (it follows
 * that memory's evictions too). held(s): work held back (fusion) will read
 * or write store s (its copies are not garbage yet). */
ndt_status ndt__plan_decide(ndt_processor **pp, const ndt_task_kind *k, const ndt_access *acc,
                            int nacc, int64_t work, int (*held)(const ndt_store *s),
                            ndt_plan_acts *pa, int *born);
/* The bodies of the plan's tasks: make t valid in memory mem (a copy), or
 * free its copy there, writing it back to the host when it is the only
 * valid one (an eviction), or writing nothing back (discard: the copy of a
 * store the program dropped, which no task reads again). */
void ndt__move_copy(ndt_tile *t, int mem);
void ndt__move_evict(ndt_tile *t, int mem, int discard);
/* ---- device_plan.c ---- */
/* ndt__plan_decide, and the decisions recorded as tasks ("copy h2d",
 * "copy d2h", "copy d2d", "evict", "discard"); *fence: a task the recorded one must
 * follow (born results), or NULL. */
ndt_status ndt__plan_task(ndt_processor **pp, const ndt_task_kind *k, const ndt_operand *op,
                          int nop, const ndt_access *acc, int nacc, ndt_task **fence);
/* After a sync (every task done, so every store the program dropped is
 * freed: a point of program order): the plan forgets the copies of tiles
 * that are gone, as their memory already is. */
void ndt__plan_reclaim(void);
/* Tasks the plan moved to the CPU (ndt_processor_fallbacks counts them). */
int64_t ndt__plan_fallbacks(void);
/* The devices (processors device.c added, with their kind: "sim", "cuda"). */
void ndt__dev_add(ndt_processor *p, const char *kind);
int ndt__dev_n(void);
ndt_processor *ndt__dev_get(int i, const char **kind);

/* ---- device.c ---- */
/* Registers the devices NDTILE_DEVICES (or cfg->devices) asks for, once. */
void ndt__devices_start(const ndt_config *cfg);
/* ---- device_log.c ---- */
/* The event log (ndt_debug_device_log): a line when logging is on. */
extern int ndt__dev_logging;
void ndt__dev_log_line(const char *fmt, ...);
void ndt__dev_log_place(const char *fmt, ...);   /* the placements' part */
#define ndt__dev_log(...) do { if (ndt__dev_logging) ndt__dev_log_line(__VA_ARGS__); } while (0)
/* A tile's name in the log: stable from run to run. */
const char *ndt__dev_tile_name(const ndt_tile *t);
enum { NDT__DEV_COPIES, NDT__DEV_COPY_BYTES, NDT__DEV_EVICTIONS, NDT__DEV_FALLBACKS,
       NDT__DEV_NCOUNTERS };
void ndt__dev_count(int which, int64_t n);
/* 1 when an injected device allocation failure is due (ndt_debug_fail_dev_alloc_after). */
int ndt__dev_alloc_fails(void);

/* ---- device_sim.c ---- */
/* Registers n simulated devices of cap bytes each (NDTILE_DEVICES=sim:N). */
void ndt__sim_start(int n, int64_t cap);
/* the first one's capacity, 0 when none is started */
int64_t ndt__simdev_bytes(void);

/* ---- sched.c ---- */
/* Before a task of kind k (name) with accesses acc is placed: ends the
 * pending grouped device task unless the task is of the same op and
 * touches nothing the group touches, so that a group ends at the same
 * point of the log with or without waits between ops. */
ndt_status ndt__rt_group_before(const ndt_task_kind *k, const char *name, const ndt_access *acc,
                                int nacc);
/* Records (or, inline, runs) a task on this rank. */
ndt_status ndt__rt_local_submit(const ndt_taskrec *r);
/* Waits until no unfinished task conflicts with [lo, hi] of t (not
 * interruptible). */
void ndt__rt_wait_region(const ndt_tile *t, int64_t lo, int64_t hi, int for_write);
/* Waits for the tiles on this rank: see ndt__wait_tiles. */
ndt_status ndt__rt_wait_local(ndt_store *s, int64_t t0, int64_t t1, int for_write);
/* Counts a task recorded on many ranks (name, accesses: the hash comm.c
 * compares); returns its message tag. */
int ndt__rt_count_task(const char *name, int nacc);
/* Mixes x into that hash (dist.c: a task's messages, under NDTILE_CHECK) */
void ndt__rt_task_mix(uint64_t x);
/* Drops a reference ndt_taskrec.made handed out. */
void ndt__task_put(ndt_task *t);
/* Finishes a task that ran elsewhere than in a body (a message, dist.c):
 * what it holds goes, its successors become ready. Any thread. */
void ndt__task_finish(ndt_task *t, ndt_status st);
/* Keeps st (with name) as the deferred error unless one is kept. */
void ndt__rt_fail(const char *name, ndt_status st);
/* The flush hook (see ndt_flush_fn): a status to return, or NDT_OK. */
ndt_status ndt__rt_flush(int all, const ndt_store *s, const ndt_access *acc, int nacc);

#endif
