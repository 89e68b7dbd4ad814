/* rt.h - what the runtime's own files share (not the ops'). The files lean
 * one way (observe.c, the build and memory report, asks them all):
 *   task.c  (ndt__record: operands -> accesses, the processor)
 *     -> dist.c  (many ranks: the owner-computes protocol, ndt__wait_tiles)
 *       -> sched.c  (the task graph, the worker pool = the CPU processor)
 *         -> bind.c  (running a body with its operands bound)
 *           -> proc.c (processor and memory tables), memory.c, store.c
 *         -> simdev.c (a simulated device, NDTILE_SIMDEVICE)
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
  ndt_task **succ;        /* tasks waiting for this one (under lock) */
  int nsucc, capsucc;
  ndt_task *next;         /* ready queue link */
  int64_t seq;            /* recording order (cancelled when below cancel_below) */
  unsigned char *wrote;   /* wrote[i]: the task writes stores[i] */
  int64_t io_bytes;       /* the timeline: bytes of the regions it uses (set while tracing) */
  int ntiles;             /* ... and the tiles they lie in */
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
  ndt_store *const *stores;
  int nstores;
  unsigned flags;
  const int64_t *span;    /* the first and last tile of each operand, or NULL */
} ndt_taskrec;

/* ---- settings.c ---- */
typedef struct {
  int64_t tile_bytes;
  int64_t inline_elems;
  int64_t max_pending;    /* the recording thread waits when more tasks are pending */
  int64_t max_bytes;      /* ... or when older pending tasks hold more bytes */
} ndt_settings;
extern ndt_settings ndt__set_;
/* The number of workers cfg asks for (or the environment, or the cores). */
int ndt__settings_workers(const ndt_config *cfg);
/* Fills ndt__set_ for w workers. */
void ndt__settings_load(const ndt_config *cfg, int w);
/* The first start: memory statistics and the cache limit from env. */
void ndt__settings_first_start(void);

/* ---- trace.c ---- */
extern int ndt__trace_on_;
double ndt__now_us(void);
void ndt__trace_add(const char *name, int tid, double t0, double t1);
/* ... with the bytes and the number of tiles the task used */
void ndt__trace_add_io(const char *name, int tid, double t0, double t1, int64_t bytes,
                       int tiles);
/* The trace file of this rank for NDTILE_PROFILE=base (see trace.c). */
void ndt__trace_path(char *out, size_t cap, const char *base, int rank, int nranks);
/* Writes the trace file (nworkers threads named), after a sync. */
ndt_status ndt__trace_dump(int nworkers);

/* ---- bind.c ---- */
/* Binds op[0..nop) for processor p into b, calls the body of p's kind and
 * unbinds (scattering written operands back when the body succeeded).
 * span: the first and last tile of each non-empty operand, as recording
 * found them (the inline path), or NULL. */
ndt_status ndt__exec_body(const ndt_task_kind *k, ndt_processor *p, const ndt_operand *op,
                         int nop, void *arg, const int64_t *span);
#define NDT_SPAN_OPS (NDT_MAXDIMS + 8)   /* operands whose span recording keeps */

/* ---- dist.c ---- */
/* Records a task under the owner-computes protocol (many ranks). */
ndt_status ndt__dist_submit(const ndt_taskrec *r);

/* ---- proc.c ---- */
/* Calls every processor's sync (ndt_sync). */
ndt_status ndt__proc_sync_all(void);
/* The tile's buffer in m (host: its data), or NULL. */
static inline char *ndt_tile_mem(const ndt_tile *t, const ndt_memory *m) {
  return m->id ? t->mcopy[m->id] : t->data;
}

/* ---- simdev.c ---- */
/* Registers the simulated device when NDTILE_SIMDEVICE asks for it. */
void ndt__simdev_start(void);
/* its capacity, 0 when it is not started */
int64_t ndt__simdev_bytes(void);

/* ---- sched.c ---- */
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
/* Keeps st (with name) as the deferred error unless one is kept. */
void ndt__rt_fail(const char *name, ndt_status st);
/* The flush hook (see ndt_flush_fn): a status to return, or NDT_OK. */
ndt_status ndt__rt_flush(int all, const ndt_store *s, const ndt_access *acc, int nacc);

#endif
