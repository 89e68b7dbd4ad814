/* sched.c - the task graph and the worker pool: dependencies per tile in
 * program order, waiting, deferred errors, interrupts. The pool is the CPU
 * processor (see proc.c).
 *
 * One thread records tasks (the program's thread). Dependencies come from
 * the tiles a task uses: a reader waits for the tile's last writer; a
 * writer also waits for the readers since then. All graph state is guarded
 * by one lock; tasks are coarse (a tile's worth of work), so it is rarely
 * contended. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "rt.h"

static struct {
  int started;
  pthread_mutex_t lock;
  pthread_cond_t work;    /* a task became ready, or stop */
  pthread_cond_t done;    /* a task finished that a wait is for (see complete) */
  ndt_task *head, *tail;
  int nworkers;
  pthread_t *threads;
  int stop;
  int64_t pending;
  ndt_status deferred;
  ndt__err_rec deferred_err;   /* the first failure: its task and its error (error.c) */
  int64_t pending_bytes;  /* sum of the pending tasks' bytes */
  int64_t runnable;       /* tasks launched (ready or running) and not finished */
  int64_t recorded;       /* tasks recorded so far (their seq) */
  int64_t finished;       /* tasks finished so far (the progress line) */
  atomic_int idle;        /* workers waiting for work (written under lock) */
  atomic_llong npending;  /* pending, written with it under lock, read without it (the
                           * inline path's test that nothing at all is pending) */
  int any_waiters;        /* waits that look again after every finished task */
  int zero_waiters;       /* waits for no pending task at all (syncs) */
} rt = {.lock = PTHREAD_MUTEX_INITIALIZER,
        .work = PTHREAD_COND_INITIALIZER,
        .done = PTHREAD_COND_INITIALIZER};

/* ---- grouped device tasks ----------------------------------------------
 * A device launch costs microseconds of host time while a tile of a+b is
 * about as much GPU work, so a processor that runs groups (iface->group:
 * the CUDA plugin, the simulated devices) gets consecutive tasks of one op
 * (one kind, name and floating-point record) placed on it as one task of
 * the graph: the recording thread holds them here and records them
 * together as an ndt__group_kind task (proc.c) when the group ends - at
 * NDT_GROUP_MAX tasks or NDTILE_GPU_GROUP bytes, when a task that cannot
 * join comes, or when one touches what the group touches (it must come
 * after the group), and before every wait. The decisions are the
 * recording thread's, in program order (a wait ends a group: the golden
 * log shows them), never timing's. Members never touch one another's data
 * (a task that does ends the group first), so one launch may run them in
 * any order; each member's arithmetic is its own, so the bits are the
 * same as one task each. Not on many ranks yet: with devices the messages
 * still take the path where the recording thread moves each one after the
 * tasks on its tile (dist.c), which would end most groups. */
static struct {
  int n;                        /* members held */
  const ndt_task_kind *kind;
  ndt_processor *proc;
  const char *name;
  ndt_fprec *fprec;             /* the op's floating-point record (one reference) */
  int64_t bytes, data;          /* members' allocations; bytes of their regions */
  ndt_operand *op;              /* the members' operands, their views in views[] */
  ndt_array *views;
  int nop, capop;
  char *args;                   /* the members' arguments, each at a 16-byte boundary */
  size_t alen, acap;
  int nops[NDT_GROUP_MAX], naccs[NDT_GROUP_MAX];
  uint32_t aoff[NDT_GROUP_MAX], asize[NDT_GROUP_MAX];
  ndt_access *acc;
  int nacc, capacc;
  ndt_access *wacc;             /* the writes among acc (what a read can meet) */
  int nwacc, capwacc;
  ndt_store **stores;           /* one reference each */
  int nstores, capstores;
  ndt_task **after;             /* one reference each */
  int nafter, capafter;
  unsigned flags;               /* the members' NDT_TASK_FAILS_CLEAN (one op: alike) */
  int64_t call;                 /* the call it began in (NDT_TASK_EARLY when flushed later) */
} grp;
static ndt_status group_flush(void);

static ndt_flush_fn flush_hook;
void ndt__set_flush_hook(ndt_flush_fn hook) { flush_hook = hook; }
ndt_status ndt__rt_flush(int all, const ndt_store *s, const ndt_access *acc, int nacc) {
  return flush_hook ? flush_hook(all, s, acc, nacc) : NDT_OK;
}
/* FLUSH(all, s, acc, nacc): see ndt_flush_fn */
#define FLUSH(...)                                \
  do {                                            \
    if (flush_hook) {                             \
      ndt_status fs_ = flush_hook(__VA_ARGS__);   \
      if (fs_) return fs_;                        \
    }                                             \
  } while (0)

/* ---- interrupts ---------------------------------------------------------
 * ndt_interrupt only stores to a lock-free atomic, so a signal handler may
 * call it. The recording thread's waits sleep in slices of INTR_SLICE_NS
 * and look at the flag between them (a condition variable cannot be
 * signalled from a signal handler). A wait that sees it cancels the tasks
 * the current call recorded (those from the last ndt_call_begin on; all of
 * them when it was never called): those not started are dropped by the
 * worker that takes them, those running finish in the background; both
 * mark the stores they write lost, and a read of a lost store fails. Tasks
 * of earlier calls go on running, and a task that holds an earlier call's
 * ops (a fusion or device group begun then: NDT_TASK_EARLY) is not
 * cancelled either; such a group never reads what a later call wrote
 * (ndt_store.wcall), so what it reads is never cancelled with the later
 * call. The wait returns NDT_ERR_INTERRUPTED at once. The waits that
 * cannot fail (the look-ahead bound, settling lent memory) act on the
 * request all the same and leave it taken (call_intr): the call's next wait
 * reports it, or the caller asks (ndt_take_interrupted, the binding at the
 * end of each core call). The cancelled seq ranges are kept until no task
 * is pending (at most CANCEL_MAX; past that the last one grows to the new
 * end, cancelling the earlier calls' tasks between them too, as before
 * ndt_call_begin). With many ranks interrupts are not acted on (every rank
 * must take the same steps; the launcher ends the job). */
static atomic_int interrupt_req;
static atomic_int call_intr;   /* the current call was cancelled; no status said so yet */
#define INTR_SLICE_NS 20000000L

void ndt_interrupt(void) { atomic_store(&interrupt_req, 1); }
int ndt_interrupt_pending(void) { return atomic_load_explicit(&interrupt_req, memory_order_relaxed); }
void ndt_clear_interrupt(void) { atomic_store(&interrupt_req, 0); }

#define CANCEL_MAX 16
/* written under rt.lock by the recording thread, read by workers without
 * it: a range only grows or is added while tasks are pending */
static struct { _Atomic int64_t lo, hi; } cancel_r[CANCEL_MAX];
static atomic_int ncancel;
static int64_t call_start, call_no;   /* the recording thread's */

/* (rt.recorded is written by the recording thread only: this one) */
void ndt_call_begin(void) {
  call_no++;
  call_start = rt.recorded;
  atomic_store_explicit(&call_intr, 0, memory_order_relaxed);   /* the caller did not ask */
}
int64_t ndt__rt_call_no(void) { return call_no; }

int64_t ndt_pending_tasks(void) {
  if (!rt.started) return 0;
  pthread_mutex_lock(&rt.lock);
  int64_t n = rt.pending;
  pthread_mutex_unlock(&rt.lock);
  return n;
}

/* Cancels the current call's tasks recorded so far (lock held). */
static void cancel_call(void) {
  int n = atomic_load(&ncancel);
  if (rt.pending == 0) n = 0;   /* nothing that the old ranges name is left */
  int64_t lo = call_start, hi = rt.recorded;
  if (n > 0 && (atomic_load(&cancel_r[n - 1].lo) == lo || n == CANCEL_MAX)) {
    atomic_store(&cancel_r[n - 1].hi, hi);
    atomic_store(&ncancel, n);
    return;
  }
  atomic_store(&cancel_r[n].lo, lo);
  atomic_store(&cancel_r[n].hi, hi);
  atomic_store(&ncancel, n + 1);
}

static int is_cancelled(const ndt_task *t) {
  if (t->early) return 0;
  int n = atomic_load(&ncancel);
  for (int i = 0; i < n; i++)
    if (t->seq >= atomic_load(&cancel_r[i].lo) && t->seq < atomic_load(&cancel_r[i].hi)) return 1;
  return 0;
}

/* 1 when t will not touch its data: cancelled before a worker took it. A
 * worker sets started before it reads the ranges, cancel_call writes them
 * before a wait reads started (both sequentially consistent), so one of
 * the two sees the other. */
static int dropped(const ndt_task *t) { return !atomic_load(&t->started) && is_cancelled(t); }
static void (*wait_hook)(void);
void ndt_set_wait_hook(void (*hook)(void)) { wait_hook = hook; }

/* Waits on rt.done (lock held) for at most one slice; 1 when an interrupt
 * asks this wait to stop. */
static int wait_done(int interruptible) {
  if (!interruptible) {
    pthread_cond_wait(&rt.done, &rt.lock);
    return 0;
  }
  if (atomic_load(&interrupt_req)) return 1;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += INTR_SLICE_NS;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  if (pthread_cond_timedwait(&rt.done, &rt.lock, &ts) == ETIMEDOUT && wait_hook) wait_hook();
  return atomic_load(&interrupt_req);
}

/* ---- the progress line --------------------------------------------------
 * A blocking wait (ndt_sync, reading an array) that lasts NDTILE_PROGRESS
 * seconds (2 by default; 0: never) shows "ndtile: 120 of 800 tasks done
 * (3 s)" on stderr, rewritten in place, and erases it when the wait ends.
 * Only on a terminal, in one process (the ranks' stderr is a pipe). The
 * waits are timed (wait_done's slices), so a tick comes at least every
 * slice; a tick reads the coarse clock and compares: nothing else happens
 * in a short wait. The line is written with the lock released: a paused
 * terminal must not stall the workers. */
static int progress_delay_s = 2, progress_tty;
typedef struct {
  double start, next;     /* coarse seconds; 0: not started */
  int64_t done0;          /* rt.finished when the wait began */
  int shown;
} progress;

static double coarse_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* In a wait loop after each wake (lock held; may release and retake it). */
static void progress_tick(progress *pg) {
  if (!pg || !progress_tty) return;
  double now = coarse_s();
  if (pg->start == 0) {
    pg->start = now;
    pg->next = now + progress_delay_s;
    pg->done0 = rt.finished;
    return;
  }
  if (now < pg->next) return;
  pg->next = now + 0.5;
  int64_t done = rt.finished - pg->done0, total = done + rt.pending;
  pthread_mutex_unlock(&rt.lock);
  fprintf(stderr, "\rndtile: %lld of %lld tasks done (%.0f s)\033[K", (long long)done,
          (long long)total, now - pg->start);
  fflush(stderr);
  pg->shown = 1;
  pthread_mutex_lock(&rt.lock);
}

/* After the wait (lock not held): erases the line. */
static void progress_end(progress *pg) {
  if (pg->shown) {
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
  }
}

/* Acts on an interrupt (lock held): cancels what was recorded so far. */
static ndt_status interrupted(void) {
  cancel_call();
  atomic_store(&interrupt_req, 0);
  atomic_store(&call_intr, 0);   /* reported now */
  return ndt__error(NDT_ERR_INTERRUPTED, "interrupted");
}

/* Acts on an interrupt in a wait that cannot fail (lock held): the call's
 * work is cancelled as above and the call is left interrupted, for its
 * next wait or its caller to report. */
static void interrupt_taken(void) {
  cancel_call();
  atomic_store(&interrupt_req, 0);
  atomic_store(&call_intr, 1);
}

/* The caller reports it: what the call recorded since is cancelled too. */
int ndt_take_interrupted(void) {
  if (!atomic_load_explicit(&call_intr, memory_order_relaxed)) return 0;
  pthread_mutex_lock(&rt.lock);
  int taken = atomic_exchange(&call_intr, 0);
  if (taken) cancel_call();
  pthread_mutex_unlock(&rt.lock);
  return taken;
}

static void mark_lost(ndt_task *t) {
  for (int i = 0; i < t->nstores; i++)
    if (t->wrote[i]) atomic_store(&t->stores[i]->lost, 1);
}

/* A task failed: what it was to write was not computed. The failure is
 * reported once, at the next wait; a read of those stores fails every
 * time (the values are what the buffers held before: NumPy's buffer
 * protocol export, which numpy.asarray tries first, met the report and
 * dropped it, and the fallback read then returned zeros). */
static void mark_failed(ndt_task *t, ndt_status st) {
  if (t->fails_clean) return;   /* it wrote nothing: the old values stand */
  for (int i = 0; i < t->nstores; i++)
    if (t->wrote[i] && !atomic_load(&t->stores[i]->lost)) {
      t->stores[i]->lost_op = t->name;
      t->stores[i]->lost_st = st;
      atomic_store(&t->stores[i]->lost, 2);
    }
}

/* A read of a lost store: its error. */
ndt_status ndt__rt_lost_error(const ndt_store *s) {
  if (atomic_load(&s->lost) == 2)
    return ndt__error(s->lost_st, "this array's values were not computed: %s, which was to "
                     "write them, failed (its error was reported at the first wait after it)",
                     s->lost_op ? s->lost_op : "an operation");
  return ndt__error(NDT_ERR_DEFERRED, "this array's values were lost: an interrupt "
                    "(KeyboardInterrupt) cancelled the operation that computed them");
}

/* dst is about to be overwritten, every element of its store: values a
 * failed (or cancelled) task left lost are replaced, and reads succeed
 * again, as in NumPy, where a failed operation leaves an array that a
 * later assignment mends. The flag is cleared after every task already
 * recorded on the store has run, the fusion group's too (a reader
 * recorded before the assignment must still find its input lost), and on
 * one process only (ranks must take the same steps, and their flags may
 * differ: there the store stays lost). A failure not reported yet is
 * reported by this wait, and the store stays lost. */
ndt_status ndt__rt_overwrite(const ndt_array *dst) {
  ndt_store *s = dst->store;
  if (!atomic_load(&s->lost) || ndt_distributed() || dst->size != s->size ||
      ndt_vsize(dst) != s->itemsize)
    return NDT_OK;
  ndt_status st = ndt__rt_wait_local(s, 0, s->ntiles - 1, 1);
  if (st == NDT_OK) atomic_store(&s->lost, 0);
  return st;
}

static void task_decref(ndt_task *t) {
  if (t && atomic_fetch_sub(&t->refs, 1) == 1) {
    ndt__mfree(t->succ);
    ndt__mfree(t);
  }
}

void ndt__tile_release(ndt_tile *t) {
  for (int i = 0; i < t->nwrites; i++) task_decref(t->writes[i].task);
  for (int i = 0; i < t->nreads; i++) task_decref(t->reads[i].task);
  ndt__mfree(t->writes);
  ndt__mfree(t->reads);
  ndt__tile_drop_copies(t);   /* the store goes: so do its copies in other memories */
  t->writes = t->reads = NULL;
  t->nwrites = t->capwrites = t->nreads = t->capreads = 0;
}

void ndt__task_put(ndt_task *t) { task_decref(t); }

static void push_ready(ndt_task *t) {
  rt.runnable++;
  t->queued = 1;
  t->next = NULL;
  if (t->urgent && rt.head) {   /* ahead of the others (a critical path) */
    t->next = rt.head;
    rt.head = t;
    return;
  }
  if (rt.tail) rt.tail->next = t; else rt.head = t;
  rt.tail = t;
}

/* ---- the CPU processor: the pool runs its tasks, in host memory ---- */
static void pool_launch(ndt_processor *p, ndt_task *t) {
  NDT_UNUSED(p);
  push_ready(t);
  pthread_cond_signal(&rt.work);
}
static const ndt_processor_iface cpu_iface = {
    .version = NDT_IFACE_VERSION, .name = "cpu", .supports = NULL, .launch = pool_launch,
    .sync = NULL};
static ndt_processor cpu_proc = {.iface = &cpu_iface, .device = 0, .context = NULL,
                                 .kind = NDT_PROC_CPU, .mem = &ndt__host_memory};

static void release_resources(ndt_task *t) {
  for (int i = 0; i < t->nstores; i++) ndt__store_decref(t->stores[i]);
  t->nstores = 0;
}

static void record_failure(ndt_task *t, ndt_status st) {
  if (rt.deferred == NDT_OK) {
    rt.deferred = st;
    ndt__error_save(&rt.deferred_err, st, t->name);
  }
}

/* What complete() leaves to do once the lock is released: wake the
 * waits on rt.done, wake workers for newly ready tasks. Signalling after
 * the unlock spares the woken thread a second sleep on the lock the
 * signaller still holds (the main thread slept twice per wake). */
typedef struct { int done, work; } wakes;
static void wake(wakes w) {
  if (w.done) pthread_cond_broadcast(&rt.done);
  for (int i = 0; i < w.work; i++) pthread_cond_signal(&rt.work);
}

/* Called with the lock held. ready_here: the calling worker takes a ready
 * task itself next, so one fewer worker needs waking. */
static wakes complete(ndt_task *t, ndt_status st, int ready_here) {
  if (st != NDT_OK) record_failure(t, st);
  atomic_store(&t->done, 1);
  rt.runnable -= t->queued;   /* (a message in flight is no work for a worker) */
  rt.pending--;
  atomic_store(&rt.npending, rt.pending);   /* (after the body's writes: see local_submit) */
  rt.finished++;
  rt.pending_bytes -= t->bytes;
  int woke = 0;
  for (int i = 0; i < t->nsucc; i++) {
    ndt_task *s = t->succ[i];
    if (--s->ndeps == 0) {
      if (s->proc == &cpu_proc) {   /* the pool's: woken together below */
        push_ready(s);
        woke++;
      } else {
        s->proc->iface->launch(s->proc, s);
      }
    }
  }
  t->nsucc = 0;
  ndt__mfree(t->succ);   /* (done: no edge is added to it again) */
  t->succ = NULL;
  t->capsucc = 0;
  wakes w = {0, woke - (ready_here && woke > 0)};
  if (w.work > rt.nworkers) w.work = rt.nworkers;
  /* Waiters are woken only by what they wait for: the task a data wait
   * named (waited), the last pending task for a sync, any task for the
   * look-ahead. Waking every waiter at every finished task cost two
   * context switches per task: 16 for a sync after one op on 16 tiles. */
  w.done = t->waited || rt.any_waiters || (rt.zero_waiters && rt.pending == 0);
  return w;
}

/* Removes t's entries from the uses u[0..*n). */
static void drop_uses_of(ndt_use *u, int *n, ndt_task *t) {
  int j = 0;
  for (int i = 0; i < *n; i++) {
    if (u[i].task == t) atomic_fetch_sub(&t->refs, 1);   /* (the scheduler's is held) */
    else u[j++] = u[i];
  }
  *n = j;
}

/* A task that ran and succeeded leaves its tiles now, before its stores
 * (which keep the tiles alive) are released: a finished task's use orders
 * nothing (prune drops it), but until a later task met the tile it held
 * the task and its copy of the operands and argument, 1.5 to 3.5 KB a tile
 * for every op (every tile of a 4 GiB array in 4 KiB tiles: gigabytes).
 * A tile left without uses frees its lists too. (A failed or cancelled
 * task stays until complete(): a wait for its tiles then reports it;
 * run_body leaves such a task no tiles to leave.) Under the lock. */
static void forget_uses(ndt_task *t) {
  for (int i = 0; i < t->nused; i++) {
    ndt_tile *tl = t->used[i];
    drop_uses_of(tl->writes, &tl->nwrites, t);
    drop_uses_of(tl->reads, &tl->nreads, t);
    if (!tl->nwrites && !tl->nreads && (tl->capwrites || tl->capreads)) {
      ndt__mfree(tl->writes);
      ndt__mfree(tl->reads);
      tl->writes = tl->reads = NULL;
      tl->capwrites = tl->capreads = 0;
    }
  }
  t->nused = 0;
}

/* Under the lock, once the body ran (or was dropped): the task leaves its
 * tiles (forget_uses), and its references to stores that something else
 * still holds go (a decrement that frees nothing). Returns whether a last
 * reference is left: freeing a store (its tiles' lists and buffers, and
 * perhaps its owner's callback, which may take the Python interpreter's
 * lock) is release_resources' work, outside the lock, before complete()
 * (so a wait that complete() ends finds the memory given back). So most
 * tasks finish in one hold of the lock; forget_uses took it once more. */
static int let_go(ndt_task *t) {
  forget_uses(t);
  int last = 0;
  for (int i = 0; i < t->nstores; i++) {
    ndt_store *s = t->stores[i];
    long r = atomic_load(&s->refs);
    while (r > 1 && !atomic_compare_exchange_weak(&s->refs, &r, r - 1)) {
    }
    if (r > 1) t->stores[i] = NULL;   /* (release_resources skips it) */
    else last = 1;
  }
  if (!last) t->nstores = 0;
  return last;
}

/* Takes the lock and finishes a task whose body ran (let_go,
 * release_resources where a store is freed, complete()); returns with the
 * lock held. */
static wakes finish_locked(ndt_task *t, ndt_status st, int ready_here) {
  pthread_mutex_lock(&rt.lock);
  if (let_go(t)) {
    pthread_mutex_unlock(&rt.lock);
    release_resources(t);
    pthread_mutex_lock(&rt.lock);
  }
  return complete(t, st, ready_here);
}

/* The trace's processor of the body that just ran on this thread: named
 * only with devices (the CPU alone leaves the trace as it was). */
static const char *ran_name(void) {
  return ndt__dev_track && ndt__ran_on ? ndt__ran_on->iface->name : NULL;
}

/* Runs a ready task's body on this thread (tid: its trace row, -1 the
 * caller); finish_locked() finishes it. */
static ndt_status run_body(ndt_task *t, int tid) {
  atomic_store(&t->started, 1);   /* (before the ranges are read: see dropped) */
  int cancelled = is_cancelled(t);
  double t0 = ndt__trace_on_ ? ndt__now_us() : 0;
  int64_t g0 = ndt__gathered;
  /* the IEEE flags are this thread's: what the task raised goes to its
   * op's record */
  ndt_status st = NDT_OK;
  /* an input lost (its writer failed or was cancelled after this task was
   * recorded): this task's results are lost too, and it does not run */
  const ndt_store *lost_in = NULL;
  for (int i = 0; i < t->nstores && !cancelled && !lost_in; i++)
    if (!t->wrote[i] && atomic_load(&t->stores[i]->lost)) lost_in = t->stores[i];
  if (lost_in) {
    for (int i = 0; i < t->nstores; i++)
      if (t->wrote[i] && !atomic_load(&t->stores[i]->lost)) {
        t->stores[i]->lost_op = lost_in->lost_op;
        t->stores[i]->lost_st = lost_in->lost_st;
        atomic_store(&t->stores[i]->lost, atomic_load(&lost_in->lost));
      }
    cancelled = 1;   /* (not run; nothing more to mark) */
  }
  if (!cancelled) {
    if (t->fprec) ndt_fpe_clear();
    st = ndt__exec_body(t->kind, t->proc, t->op, t->nop, t->arg, NULL);
    if (t->fprec) ndt__fp_add(t->fprec, ndt_fpe_test());
  }
  if (t->fprec) {
    ndt__fp_release(t->fprec);
    t->fprec = NULL;
  }
  if (ndt__trace_on_)
    ndt__trace_add_io(t->name, tid, t0, ndt__now_us(), t->io_bytes, t->ntiles, ndt__gathered - g0,
                      ran_name());
  /* read again: an interrupt may have come while it ran */
  cancelled = lost_in ? 0 : is_cancelled(t) || st == NDT_ERR_INTERRUPTED;
  if (cancelled) {
    mark_lost(t);
    st = NDT_OK;   /* reported by the wait that cancelled it, and by reads */
  } else if (st != NDT_OK) {
    mark_failed(t, st);
  }
  if (t->kind->release) t->kind->release(t->arg);   /* ran or cancelled: once */
  if (st != NDT_OK || cancelled || lost_in) t->nused = 0;   /* (its uses stay: forget_uses) */
  return st;
}

/* Runs a ready task on this thread (tid: its trace row, -1 the caller)
 * and finishes it. */
void ndt__task_run(ndt_task *t, int tid) {
  ndt_status st = run_body(t, tid);
  wakes w = finish_locked(t, st, 0);
  pthread_mutex_unlock(&rt.lock);
  wake(w);
  task_decref(t);
}

void ndt__task_finish(ndt_task *t, ndt_status st) {
  if (t->fprec) {
    ndt__fp_release(t->fprec);
    t->fprec = NULL;
  }
  if (t->kind->release) t->kind->release(t->arg);
  if (st != NDT_OK) t->nused = 0;   /* (its uses stay: forget_uses) */
  wakes w = finish_locked(t, st, 0);
  pthread_mutex_unlock(&rt.lock);
  wake(w);
  task_decref(t);
}

static _Thread_local int on_worker;   /* (fork's handlers leave a worker's fork alone) */

/* A worker: takes ready tasks in order; finishing one and taking the next
 * is one hold of the lock (the signals go out without it). */
static void *worker_main(void *p) {
  int id = (int)(intptr_t)p;
  on_worker = 1;
  pthread_mutex_lock(&rt.lock);
  for (;;) {
    while (!rt.head && !rt.stop) {
      /* on many ranks the tasks left may wait for messages: the progress
       * thread tests them often while a worker has nothing to run */
      if (atomic_fetch_add(&rt.idle, 1) == 0) ndt__comm_kick();
      pthread_cond_wait(&rt.work, &rt.lock);
      atomic_fetch_sub(&rt.idle, 1);
    }
    if (!rt.head) break;
    ndt_task *t = rt.head;
    rt.head = t->next;
    if (!rt.head) rt.tail = NULL;
    pthread_mutex_unlock(&rt.lock);
    ndt_status st = run_body(t, id);
    wakes w = finish_locked(t, st, 1);
    if (w.done || w.work) {
      pthread_mutex_unlock(&rt.lock);
      wake(w);
      task_decref(t);
      pthread_mutex_lock(&rt.lock);
    } else {
      task_decref(t);   /* (under the lock: it only frees when the count ends) */
    }
  }
  pthread_mutex_unlock(&rt.lock);
  return NULL;
}

static ndt_status start_workers(int n) {
  rt.threads = ndt__calloc((size_t)n, sizeof(pthread_t));
  if (!rt.threads) return ndt__error(NDT_ERR_NOMEM, "cannot allocate the worker pool");
  rt.stop = 0;
  for (int i = 0; i < n; i++) {
    if (pthread_create(&rt.threads[i], NULL, worker_main, (void *)(intptr_t)i)) {
      rt.nworkers = i;
      return ndt__error(NDT_ERR_INTERNAL, "cannot start worker thread %d", i);
    }
  }
  rt.nworkers = n;
  return NDT_OK;
}

static void stop_workers(void) {
  pthread_mutex_lock(&rt.lock);
  rt.stop = 1;
  pthread_cond_broadcast(&rt.work);
  pthread_mutex_unlock(&rt.lock);
  for (int i = 0; i < rt.nworkers; i++) pthread_join(rt.threads[i], NULL);
  ndt__mfree(rt.threads);
  rt.threads = NULL;
  rt.nworkers = 0;
}

/* ---- fork ----------------------------------------------------------------
 * fork() copies only the thread that calls it: a child of a started
 * runtime had no workers, and its first recorded task waited for ever
 * (multiprocessing's fork start method, Linux's default before Python
 * 3.14). So, as OpenBLAS does with its pool, the prepare handler finishes
 * every pending task and stops the workers (no task is half-run and no
 * lock of the pool is held at the fork), and the parent and the child each
 * start as many again. A worker's own fork (a task body) is left alone.
 * The recording must not go on in another thread meanwhile: the Python
 * binding holds its core lock across os.fork (os.register_at_fork); a C
 * program forks between its calls, as with any library's state.
 * What the child cannot have is not restored: MPI (a forked rank's child
 * must not touch arrays: MPI's rule) and a CUDA context (CUDA's rule; the
 * simulated devices are host memory and work). */
static int fork_nworkers;
static void fork_prepare(void) {
  fork_nworkers = 0;
  if (!rt.started || on_worker || !rt.nworkers) return;
  /* Only recorded tasks: what the recording thread still holds (a fusion
   * buffer, a device group) is recorded later, in the parent or the child.
   * (A task's failure is reported at the next wait, as ever.) */
  pthread_mutex_lock(&rt.lock);
  rt.zero_waiters++;
  while (rt.pending > 0) wait_done(0);
  rt.zero_waiters--;
  pthread_mutex_unlock(&rt.lock);
  fork_nworkers = rt.nworkers;
  stop_workers();
}
static void fork_resume(void) {
  if (fork_nworkers && start_workers(fork_nworkers))
    fprintf(stderr, "ndtile: after fork: %s\n", ndt_last_error());
  fork_nworkers = 0;
}

/* The tasks recorded on many ranks (dist.c counts them), the same on every
 * rank: comm.c checks that the ranks are in step by them. */
static int64_t task_seq;
int64_t ndt__rt_task_seq(void) { return task_seq; }
/* A hash of the names of the tasks recorded so far, in order: ranks that
 * recorded as many tasks but not the same ones are out of step too. */
static uint64_t task_hash = 14695981039346656037ull;
int64_t ndt__rt_task_hash(void) { return (int64_t)task_hash; }
int ndt__rt_count_task(const char *name, int nacc) {
  int tag = (int)(task_seq++ % 32000);
  for (const char *c = name; *c; c++) task_hash = (task_hash ^ (unsigned char)*c) * 1099511628211ull;
  task_hash = (task_hash ^ (uint64_t)nacc) * 1099511628211ull;
  return tag;
}
void ndt__rt_task_mix(uint64_t x) { task_hash = (task_hash ^ x) * 1099511628211ull; }

static void trace_at_exit(void) { ndt_trace_write(); }
static int idle_workers(void) { return atomic_load(&rt.idle); }

ndt_status ndt_init(const ndt_config *cfg) {
  ndt_status cst = ndt__settings_check();   /* NDTILE_TILE_BYTES=abc is an error */
  if (cst) return cst;
  if (rt.started) {
    ndt_status st = ndt_sync();
    if (st) return st;
    stop_workers();
    rt.started = 0;
  }
  static const ndt_comm_hooks up = {ndt_finalize,   ndt__rt_task_seq,   ndt__rt_task_hash,
                                     ndt__trace_now, ndt__trace_caller, idle_workers};
  ndt__comm_start(&up);   /* comm.c and store.c are below: they call up through these */
  ndt__store_set_release(ndt__tile_release);
  int w = ndt__settings_workers(cfg);
  ndt__settings_load(cfg, w);
  ndt_status st = start_workers(w);
  if (st) return st;
  progress_delay_s = (int)ndt__env_int("NDTILE_PROGRESS", 2);
  progress_tty = progress_delay_s > 0 && isatty(2);
  rt.started = 1;
  static int first = 1;
  if (first) {
    /* the built-in processor and memory; a backend's register after them
     * and are preferred (proc.c) */
    pthread_atfork(fork_prepare, fork_resume, fork_resume);
    ndt__mem_register(&ndt__host_memory);
    ndt__proc_register(&cpu_proc);
    ndt__devices_start(cfg);   /* NDTILE_DEVICES: sim, cuda (device.c) */
    const char *tp = getenv("NDTILE_PROFILE");
    if (tp && *tp) {   /* the timeline, written at exit */
      char path[512];
      ndt__trace_path(path, sizeof path, tp, ndt_rank(), ndt_nranks());
      ndt_trace_start(path);
      atexit(trace_at_exit);
    }
    ndt__settings_first_start();
  }
  first = 0;
  return NDT_OK;
}

ndt_status ndt__runtime_ensure(void) {
  if (rt.started) return NDT_OK;
  return ndt_init(NULL);
}

ndt_status ndt_setting_value(const char *name, int64_t *value) {
  ndt_status st = ndt__runtime_ensure();
  ndt__setting_id id;
  if (!st) st = ndt__setting_find(name, &id);
  if (st) return st;
  int64_t store, data;
  switch (id) {
    case NDT__SET_WORKERS: *value = rt.nworkers; break;
    case NDT__SET_TILE_BYTES: *value = ndt__set_.tile_bytes; break;
    case NDT__SET_INLINE_ELEMS: *value = ndt__set_.inline_elems; break;
    case NDT__SET_MAX_PENDING: *value = ndt__set_.max_pending; break;
    case NDT__SET_MAX_PENDING_BYTES: *value = ndt__set_.max_bytes; break;
    case NDT__SET_MAX_MEMORY: ndt_memory_usage(&store, &data, value); break;
    case NDT__SET_CACHE_BYTES: *value = ndt__cache_limit(); break;
    case NDT__SET_SIMDEVICE_BYTES: *value = ndt__simdev_bytes(); break;
    case NDT__SET_PROGRESS: *value = progress_delay_s; break;
    case NDT__SET_FALLBACK: *value = ndt__env_int(name, 0); break;   /* the package's */
    case NDT__SET_CUDA_MEM: *value = ndt__env_int(name, 0); break;   /* 0: most of the card */
    case NDT__SET_BIND: *value = ndt__env_int(name, 0); break;       /* read by comm.c */
    case NDT__SET_GPUS_PER_NODE: *value = ndt__env_int(name, 0); break;   /* device.c */
    case NDT__SET_MPI_SPIN: /* read by comm.c when it starts MPI */
    default: *value = ndt__env_int(name, NDT__MPI_SPIN_DEFAULT); break;
  }
  return NDT_OK;
}

int ndt_processor_count(void) {
  return ndt__runtime_ensure() == NDT_OK ? ndt__proc_count() : 0;
}

const char *ndt_processor_name(int i) {
  if (ndt__runtime_ensure() != NDT_OK) return NULL;
  ndt_processor *p = ndt__proc_get(i);
  return p ? p->iface->name : NULL;
}

ndt_status ndt_processor_select(const char *name) {
  ndt_status st = ndt__runtime_ensure();
  if (st) return st;
  st = ndt_sync();      /* work recorded so far runs where it was placed */
  if (st) return st;
  if (ndt__proc_select(name))
    return ndt__error(NDT_ERR_VALUE, "no processor named '%s' (see ndt_processor_name)", name);
  return NDT_OK;
}

void ndt_finalize(void) {
  if (!rt.started) return;
  ndt_sync();
  stop_workers();
  rt.started = 0;
  ndt__release_cache();
}

int ndt_workers(void) {
  ndt__runtime_ensure();
  return rt.nworkers;
}
int64_t ndt_tile_bytes(void) { return ndt__rt_tile_bytes(); }

ndt_status ndt_set_workers(int n) {
  if (n < 1) return ndt__error(NDT_ERR_VALUE, "the number of workers must be >= 1, got %d", n);
  ndt_config c = {.workers = n, .tile_bytes = ndt__rt_tile_bytes(),
                  .inline_elems = ndt__rt_inline_elems()};
  return ndt_init(&c);
}

ndt_status ndt_set_tile_bytes(int64_t b) {
  if (b < 0) return ndt__error(NDT_ERR_VALUE, "the tile size must be >= 1 byte (0: default)");
  ndt__runtime_ensure();
  ndt__set_.tile_bytes = b ? b : ndt__env_int("NDTILE_TILE_BYTES", 2 << 20);
  return NDT_OK;
}

ndt_status ndt_set_inline_elems(int64_t n) {
  ndt__runtime_ensure();
  ndt__set_.inline_elems = n < 0 ? 0 : n;
  return NDT_OK;
}

static ndt_status take_deferred(void) {
  if (rt.deferred == NDT_OK) return NDT_OK;
  rt.deferred = NDT_OK;
  /* the failed task's error (status, kind, argument, message) with its
   * op: ndt_last_error_info().deferred */
  return ndt__error_load(&rt.deferred_err);
}

static ndt_status sync_here(void) {
  if (!rt.started) return NDT_OK;
  FLUSH(1, NULL, NULL, 0);
  ndt_status gs = group_flush();
  if (gs) return gs;
  pthread_mutex_lock(&rt.lock);
  int intr = !ndt_distributed();
  progress pg = {0};
  double w0 = rt.pending > 0 ? ndt__trace_now() : 0;
  if (intr && atomic_load(&call_intr)) {   /* taken earlier in the call: reported now */
    ndt_status st = interrupted();
    pthread_mutex_unlock(&rt.lock);
    return st;
  }
  rt.zero_waiters++;
  while (rt.pending > 0) {
    if (wait_done(intr)) {
      rt.zero_waiters--;
      ndt_status st = interrupted();
      pthread_mutex_unlock(&rt.lock);
      progress_end(&pg);
      return st;
    }
    if (intr) progress_tick(&pg);
  }
  rt.zero_waiters--;
  ndt_status st = take_deferred();
  pthread_mutex_unlock(&rt.lock);
  progress_end(&pg);
  if (w0 > 0) ndt__trace_caller("wait (sync)", w0);
  if (ndt__dev_track) ndt__plan_reclaim();   /* the device plan forgets freed tiles */
  ndt_status ps = ndt__proc_sync_all();
  return st ? st : ps;
}

ndt_status ndt_trace_write(void) {
  if (!ndt__trace_on_) return NDT_OK;
  ndt_status st = ndt_sync();
  ndt_status w = ndt__trace_dump(rt.nworkers);
  return w ? w : st;
}

ndt_status ndt_sync(void) {
  ndt_status st = sync_here();
  return ndt_distributed() ? ndt__comm_agree(st) : st;
}

static int overlaps(const ndt_use *u, int64_t lo, int64_t hi) { return u->lo <= hi && lo <= u->hi; }

/* 1 when u's task is unfinished and uses [lo, hi]; skip_dropped: and will
 * touch its data (not dropped). */
static int in_use(const ndt_use *u, int64_t lo, int64_t hi, int skip_dropped) {
  return !atomic_load(&u->task->done) && overlaps(u, lo, hi) &&
         !(skip_dropped && dropped(u->task));
}

/* An unfinished task that uses [lo, hi] of the tile in a way that
 * conflicts with a read (or, when for_write, with a write), or NULL;
 * skip_dropped: one that will touch the data. */
static ndt_task *busy_task(const ndt_tile *t, int64_t lo, int64_t hi, int for_write,
                           int skip_dropped) {
  for (int i = 0; i < t->nwrites; i++)
    if (in_use(&t->writes[i], lo, hi, skip_dropped)) return t->writes[i].task;
  if (for_write)
    for (int i = 0; i < t->nreads; i++)
      if (in_use(&t->reads[i], lo, hi, skip_dropped)) return t->reads[i].task;
  return NULL;
}
static int busy(const ndt_tile *t, int64_t lo, int64_t hi, int for_write) {
  return busy_task(t, lo, hi, for_write, 0) != NULL;
}

/* Sleeps (lock held) until the unfinished task b finishes (or a slice
 * ends): complete() wakes the waits for tasks marked waited. */
static int wait_for(ndt_task *b, int interruptible) {
  b->waited = 1;
  return wait_done(interruptible);
}

/* Waits (lock held) until no unfinished task conflicts with [lo, hi];
 * 1 when an interrupt stopped the wait (only when interruptible). */
static int wait_region(const ndt_tile *t, int64_t lo, int64_t hi, int for_write,
                       int interruptible, progress *pg) {
  ndt_task *b;
  while ((b = busy_task(t, lo, hi, for_write, 0))) {
    if (wait_for(b, interruptible)) return 1;
    if (interruptible) progress_tick(pg);
  }
  return 0;
}

ndt_status ndt__rt_wait_local(ndt_store *s, int64_t t0, int64_t t1, int for_write) {
  if (!rt.started) return NDT_OK;
  FLUSH(0, s, NULL, 0);
  ndt_status gs = group_flush();
  if (gs) return gs;
  pthread_mutex_lock(&rt.lock);
  int intr = !ndt_distributed();
  progress pg = {0};
  double w0 = 0;   /* the timeline: when the caller started waiting */
  if (intr && atomic_load(&call_intr)) {   /* taken earlier in the call: reported now */
    ndt_status st = interrupted();
    pthread_mutex_unlock(&rt.lock);
    return st;
  }
  for (int64_t i = t0; i <= t1 && i < s->ntiles; i++) {
    ndt_tile *tl = &s->tiles[i];
    if (!w0 && ndt__trace_on_ && busy(tl, tl->start, tl->start + tl->len - 1, for_write))
      w0 = ndt__trace_now();
    if (wait_region(tl, tl->start, tl->start + tl->len - 1, for_write, intr, &pg)) {
      ndt_status st = interrupted();
      pthread_mutex_unlock(&rt.lock);
      progress_end(&pg);
      return st;
    }
  }
  ndt_status st = take_deferred();
  pthread_mutex_unlock(&rt.lock);
  progress_end(&pg);
  if (w0 > 0) ndt__trace_caller("wait (data)", w0);
  /* the host reads (or writes) them now: its copy must be valid (and,
   * written, the only valid one) */
  for (int64_t i = t0; i <= t1 && i < s->ntiles && st == NDT_OK; i++) {
    ndt_tile *tl = &s->tiles[i];
    char *p;
    if (tl->data && (atomic_load(&tl->valid) != 1u || for_write))
      st = ndt__tile_acquire(tl, &ndt__host_memory, for_write, &p);
  }
  if (st == NDT_OK && !for_write && atomic_load(&s->lost)) st = ndt__rt_lost_error(s);
  return st;
}

void ndt__rt_wait_region(const ndt_tile *t, int64_t lo, int64_t hi, int for_write) {
  (void)group_flush();   /* (none on many ranks, this function's callers) */
  pthread_mutex_lock(&rt.lock);
  wait_region(t, lo, hi, for_write, 0, NULL);
  pthread_mutex_unlock(&rt.lock);
}

void ndt__rt_fail(const char *name, ndt_status st) {
  pthread_mutex_lock(&rt.lock);
  if (rt.deferred == NDT_OK) {
    rt.deferred = st;
    ndt__error_save(&rt.deferred_err, st, name);
  }
  pthread_mutex_unlock(&rt.lock);
}

/* Room for `extra` more successors; edges are added only after every
 * reservation succeeded, so a failed allocation leaves the graph unchanged. */
static int reserve_succ(ndt_task *pred, int extra) {
  /* (a finished one gets no edges: add_edge) */
  if (pred->nsucc + extra <= pred->capsucc || atomic_load(&pred->done)) return 0;
  int cap = pred->capsucc * 2;
  if (cap < pred->nsucc + extra) cap = pred->nsucc + extra;
  ndt_task **s = ndt__realloc(pred->succ, (size_t)cap * sizeof *s);
  if (!s) return -1;
  pred->succ = s;
  pred->capsucc = cap;
  return 0;
}

static void add_edge(ndt_task *pred, ndt_task *t) {
  if (pred == t || atomic_load(&pred->done)) return;
  if (pred->nsucc && pred->succ[pred->nsucc - 1] == t) return;
  pred->succ[pred->nsucc++] = t;
  t->ndeps++;
}

/* Drops uses of finished tasks, and, when `cover` is a write's range, uses
 * that lie inside it: a later access that conflicts with them conflicts with
 * the write too, which is ordered after them. */
static void prune(ndt_use *u, int *n, const ndt_use *cover) {
  int j = 0;
  for (int i = 0; i < *n; i++) {
    if (atomic_load(&u[i].task->done) ||
        (cover && cover->lo <= u[i].lo && u[i].hi <= cover->hi && u[i].task != cover->task))
      task_decref(u[i].task);
    else
      u[j++] = u[i];
  }
  *n = j;
}

static int reserve_uses(ndt_use **u, int *n, int *cap, int extra) {
  if (*n + extra <= *cap) return 0;
  prune(*u, n, NULL);
  if (*n + extra <= *cap) return 0;
  int c = *cap * 2 > *n + extra ? *cap * 2 : *n + extra;
  ndt_use *x = ndt__realloc(*u, (size_t)c * sizeof *x);
  if (!x) return -1;
  *u = x;
  *cap = c;
  return 0;
}

/* A task on a lent store (export.c) marks the lent work unsettled: the
 * borrower waits for it (ndt_host_settle) before it touches the memory. */
static void note_lent(const ndt_access *acc, int nacc) {
  for (int i = 0; i < nacc; i++)
    if (atomic_load(&acc[i].tile->store->lent)) atomic_store(&ndt__lent_unsettled, 1);
}

void ndt__rt_settle_store(ndt_store *s) {
  if (!rt.started) return;
  (void)group_flush();   /* a failure shows at the next wait */
  pthread_mutex_lock(&rt.lock);
  int intr = !ndt_distributed(), taken = atomic_load(&call_intr);
  if (taken) cancel_call();   /* (interrupted earlier in the call: all it recorded since too) */
  for (int64_t i = 0; i < s->ntiles; i++) {
    ndt_tile *tl = &s->tiles[i];
    ndt_task *b;
    /* Interrupted, it cancels the call's work (as the look-ahead wait
     * does) and then waits only for the tasks that will still touch the
     * memory: those running, and those it does not cancel (earlier calls'
     * work that the cancelled tasks waited for runs on, and may be long) */
    while ((b = busy_task(tl, tl->start, tl->start + tl->len - 1, 1, taken)))
      if (wait_for(b, intr && !taken)) {
        interrupt_taken();
        taken = 1;
      }
  }
  pthread_mutex_unlock(&rt.lock);
  for (int64_t i = 0; i < s->ntiles; i++) {
    ndt_tile *tl = &s->tiles[i];
    char *p;
    if (tl->data && atomic_load(&tl->valid) != 1u)
      (void)ndt__tile_acquire(tl, &ndt__host_memory, 1, &p);   /* a copy back: no allocation */
  }
}

/* What a task moves, for the timeline: the bytes of the tile regions it
 * uses and the number of distinct tiles. */
static void io_of(const ndt_access *acc, int nacc, int64_t *bytes, int *tiles) {
  int64_t b = 0;
  int n = 0;
  for (int i = 0; i < nacc; i++) {
    b += (acc[i].hi - acc[i].lo + 1) * acc[i].tile->store->itemsize;
    int seen = 0;
    for (int k = 0; k < i && !seen; k++) seen = acc[k].tile == acc[i].tile;
    n += !seen;
  }
  *bytes = b;
  *tiles = n;
}

static ndt_status record_task(const ndt_taskrec *r);
static int groupable(const ndt_taskrec *r);
static int group_fits(const ndt_taskrec *r, const ndt_fprec *fp);
static int group_conflicts(const ndt_access *acc, int nacc, int as_read);
static int group_reads_later(const ndt_access *acc, int nacc);
static ndt_status group_add(const ndt_taskrec *r, ndt_fprec *fp);

/* Marks the stores a task writes lost when one it reads is (with that
 * one's op and status); 1 when so. */
static int taint_outputs(const ndt_access *acc, int nacc) {
  const ndt_store *taint = NULL;
  for (int i = 0; i < nacc && !taint; i++)
    if ((acc[i].priv & NDT_READ) && atomic_load(&acc[i].tile->store->lost))
      taint = acc[i].tile->store;
  if (!taint) return 0;
  for (int i = 0; i < nacc; i++)
    if ((acc[i].priv & NDT_WRITE) && !atomic_load(&acc[i].tile->store->lost)) {
      ndt_store *w = acc[i].tile->store;
      w->lost_op = taint->lost_op;
      w->lost_st = taint->lost_st;
      atomic_store(&w->lost, atomic_load(&taint->lost));
    }
  return 1;
}

ndt_status ndt__rt_local_submit(const ndt_taskrec *r) {
  const char *name = r->name;
  const ndt_access *acc = r->acc;
  int nacc = r->nacc, nop = r->nop;
  /* Tiles of lazy stores get their buffer from the first task recorded (or
   * run inline) on them, here on the recording thread: no task is pending
   * on a tile without one, so no worker races this. The bytes count as this
   * task's (ndt__take_allocated below) for the look-ahead bound. */
  for (int i = 0; i < nacc; i++)
    if (!acc[i].tile->data && !ndt__tile_buffer(acc[i].tile))
      return ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile of %lld bytes for %s",
                       (long long)acc[i].tile->len * acc[i].tile->store->itemsize, name);
  ndt_status st;
  /* what is computed from lost values is lost too (and says why) */
  taint_outputs(acc, nacc);
  /* grouped device tasks: a task that touches what the pending group
   * touches, or that could be grouped but not with it, ends the group
   * first (the group comes before it in the graph); one that may be
   * grouped joins (or starts) the group */
  int gq = grp.n || ndt__dev_track ? groupable(r) : 0;
  ndt_fprec *fp = gq ? ndt__fp_defer() : NULL;
  int copy = (r->flags & NDT__TASK_MOVE) && !r->made;   /* not an eviction */
  if (grp.n && (group_conflicts(acc, nacc, copy) ||
                (gq && (!group_fits(r, fp) || group_reads_later(acc, nacc))))) {
    ndt_status fs = group_flush();
    if (fs) {
      if (fp) ndt__fp_release(fp);
      return fs;
    }
  }
  if (gq) return group_add(r, fp);
  if (r->flags & NDT_TASK_INLINE) {
    /* The inline path: run now when nothing it touches is pending. When no
     * task at all is pending (a loop over small arrays), that needs no
     * look at the tiles and no lock: only this thread records tasks, and a
     * worker stores the count after the task's writes (sequentially
     * consistent), so a count of 0 read here comes after them. */
    int free_now = 1;
    if (atomic_load(&rt.npending) != 0) {
      pthread_mutex_lock(&rt.lock);
      for (int i = 0; i < nacc && free_now; i++)
        if (busy(acc[i].tile, acc[i].lo, acc[i].hi, acc[i].priv & NDT_WRITE)) free_now = 0;
      for (int i = 0; i < r->nafter && free_now; i++)   /* the device plan's order */
        if (r->after[i] && !atomic_load(&r->after[i]->done)) free_now = 0;
      pthread_mutex_unlock(&rt.lock);
    }
    /* No writer of its inputs is pending now, so their lost flags are
     * final: one that failed after the check above (between it and the
     * test just made) left its store lost, and a task run here, outside
     * run_body, would compute from its partial values unmarked. */
    if (free_now && taint_outputs(acc, nacc)) {
      if (r->kind->release) r->kind->release(r->arg);
      return NDT_OK;   /* (the reads of its results report the failure) */
    }
    if (free_now) {
      unsigned fpm = ndt__fp_mask_;
      if (fpm) ndt_fpe_clear();
      double t0 = ndt__trace_on_ ? ndt__now_us() : 0;
      int64_t g0 = ndt__gathered;
      st = ndt__exec_body(r->kind, r->proc, r->op, nop, r->arg, r->span);
      if (r->kind->release) r->kind->release(r->arg);
      if (ndt__trace_on_) {
        int64_t iob;
        int nt;
        io_of(acc, nacc, &iob, &nt);
        ndt__trace_add_io(name, -1, t0, ndt__now_us(), iob, nt, ndt__gathered - g0, ran_name());
      }
      if (fpm) ndt_fp_inline(ndt_fpe_test());
      if (st == NDT_ERR_INTERRUPTED)   /* a kernel stopped half-way */
        for (int i = 0; i < nacc; i++)
          if (acc[i].priv & NDT_WRITE) atomic_store(&acc[i].tile->store->lost, 1);
      /* finished here: there is something to settle only when it left its
       * results in another processor's memory */
      if (r->proc->mem != &ndt__host_memory &&
          atomic_load_explicit(&ndt__lent_stores, memory_order_relaxed))
        note_lent(acc, nacc);
      return st;
    }
  }
  return record_task(r);
}

/* Puts a task into the graph (its prologue, above, done). */
static ndt_status record_task(const ndt_taskrec *r) {
  const char *name = r->name;
  const ndt_access *acc = r->acc;
  int nacc = r->nacc, nop = r->nop;
  /* one allocation: the task, its stores, its operands and their views,
   * and the argument. The stores are r's, or else its operands' (at most
   * one each; only a deferred task holds them, so the inline path never
   * looks for them). */
  int maxst = r->stores ? r->nstores : nop;
  size_t sz = sizeof(ndt_task) + (size_t)maxst * sizeof(ndt_store *);
  sz = (sz + 15) & ~(size_t)15;
  size_t o_op = sz;
  sz += (size_t)nop * sizeof(ndt_operand);
  sz = (sz + 15) & ~(size_t)15;
  size_t o_view = sz;
  sz += (size_t)nop * sizeof(ndt_array);
  size_t o_used = sz;
  sz += (size_t)nacc * sizeof(ndt_tile *);
  size_t o_wrote = sz;
  sz += (size_t)maxst;
  size_t head = (sz + 15) & ~(size_t)15;
  ndt_task *t = ndt__malloc(head + r->arg_size);
  if (!t) return ndt__error(NDT_ERR_NOMEM, "cannot allocate a task for %s", name);
  memset(t, 0, sizeof *t);
  /* what this thread allocated since the last task: this one's results
   * (a group's: its members') */
  int64_t bytes = t->bytes = r->grouped ? r->bytes : ndt__take_allocated();
  if (ndt__trace_on_) io_of(acc, nacc, &t->io_bytes, &t->ntiles);
  t->stores = (ndt_store **)(t + 1);
  t->wrote = (unsigned char *)t + o_wrote;
  t->used = (ndt_tile **)((char *)t + o_used);
  t->op = (ndt_operand *)((char *)t + o_op);
  ndt_array *views = (ndt_array *)((char *)t + o_view);
  for (int i = 0; i < nop; i++) {
    views[i] = *r->op[i].view;
    t->op[i] = (ndt_operand){&views[i], r->op[i].priv};
  }
  t->nop = nop;
  t->arg = (char *)t + head;
  if (r->arg_size) memcpy(t->arg, r->arg, r->arg_size);
  atomic_init(&t->refs, 1);  /* the scheduler's reference, dropped when done */
  atomic_init(&t->done, 0);
  atomic_init(&t->started, 0);
  t->name = name;
  t->kind = r->kind;
  t->proc = r->proc;
  t->fprec = r->grouped ? r->fprec : ndt__fp_defer();
  if (r->grouped) ndt__fp_hold(r->fprec);   /* the task's; the caller keeps its own */
  int nstores = 0;
  for (int i = 0; i < maxst; i++) {
    ndt_store *si = r->stores ? r->stores[i] : r->op[i].view->store;
    int dup = !si;
    for (int j = 0; j < nstores && !dup; j++) dup = t->stores[j] == si;
    if (dup) continue;
    t->stores[nstores++] = si;
  }
  for (int i = 0; i < nstores; i++) {
    ndt_store *si = t->stores[i];
    ndt__store_incref(si);
    t->wrote[i] = 0;
    for (int k = 0; k < nacc && !t->wrote[i]; k++)
      t->wrote[i] = (acc[k].priv & NDT_WRITE) && acc[k].tile->store == si &&
                    !(r->flags & NDT__TASK_MOVE);
  }
  t->nstores = nstores;

  pthread_mutex_lock(&rt.lock);
  /* Reserve first: then recording cannot fail half-way. A predecessor
   * gets one edge to t (add_edge), a tile one use per access of t to it
   * (counted in resv): reserving the task's whole count of accesses in
   * each gave every tile a reader of many (a combine over 4,096 tiles)
   * room for 4,096 uses, and each of their writers room for 4,096 edges. */
  int oom = 0;
  for (int i = 0; i < nacc; i++) acc[i].tile->resv++;
  for (int i = 0; i < nacc && !oom; i++) {
    ndt_tile *tl = acc[i].tile;
    for (int w = 0; w < tl->nwrites && !oom; w++)
      if (reserve_succ(tl->writes[w].task, 1)) oom = 1;
    if (acc[i].priv & NDT_WRITE) {
      for (int r = 0; r < tl->nreads && !oom; r++)
        if (reserve_succ(tl->reads[r].task, 1)) oom = 1;
      if (!oom && reserve_uses(&tl->writes, &tl->nwrites, &tl->capwrites, tl->resv)) oom = 1;
    } else if (!oom && reserve_uses(&tl->reads, &tl->nreads, &tl->capreads, tl->resv)) {
      oom = 1;
    }
  }
  for (int i = 0; i < nacc; i++) acc[i].tile->resv = 0;
  for (int i = 0; i < r->nafter && !oom; i++)
    if (r->after[i] && reserve_succ(r->after[i], 1)) oom = 1;
  if (oom) {
    pthread_mutex_unlock(&rt.lock);
    release_resources(t);
    ndt__fp_release(t->fprec);
    ndt__mfree(t);
    return ndt__error(NDT_ERR_NOMEM, "cannot record a task for %s", name);
  }
  for (int i = 0; i < nacc; i++) {
    ndt_tile *tl = acc[i].tile;
    ndt_use use = {t, acc[i].lo, acc[i].hi};
    for (int w = 0; w < tl->nwrites; w++)
      if (overlaps(&tl->writes[w], use.lo, use.hi)) add_edge(tl->writes[w].task, t);
    if (acc[i].priv & NDT_WRITE) {
      for (int r = 0; r < tl->nreads; r++)
        if (overlaps(&tl->reads[r], use.lo, use.hi)) add_edge(tl->reads[r].task, t);
      prune(tl->reads, &tl->nreads, &use);
      prune(tl->writes, &tl->nwrites, &use);
      atomic_fetch_add(&t->refs, 1);
      tl->writes[tl->nwrites++] = use;
    } else {
      atomic_fetch_add(&t->refs, 1);
      tl->reads[tl->nreads++] = use;
    }
    /* (a tile its stores hold, so it lives until the task ran: forget_uses) */
    if (!t->nused || t->used[t->nused - 1] != tl)
      for (int k = 0; k < t->nstores; k++)
        if (t->stores[k] == tl->store) {
          t->used[t->nused++] = tl;
          break;
        }
  }
  for (int i = 0; i < r->nafter; i++)
    if (r->after[i]) add_edge(r->after[i], t);
  if (r->made) {
    atomic_fetch_add(&t->refs, 1);
    *r->made = t;
  }
  t->seq = rt.recorded++;
  t->fails_clean = (r->flags & NDT_TASK_FAILS_CLEAN) != 0;
  t->urgent = (r->flags & NDT_TASK_URGENT) != 0;
  t->early = (r->flags & NDT_TASK_EARLY) != 0;
  rt.pending++;
  atomic_store(&rt.npending, rt.pending);
  rt.pending_bytes += bytes;
  /* a ready task of the pool: its worker is signalled after the unlock
   * (or before this thread sleeps below), not into the lock it still holds */
  int wake_pool = 0;
  if (t->ndeps == 0 && t->proc == &cpu_proc) {
    push_ready(t);
    wake_pool = 1;
  } else if (t->ndeps == 0) {
    t->proc->iface->launch(t->proc, t);
  }
  /* Bounded look-ahead. Every pending task is ready, running or waiting on
   * one that is, so the count always drops. In bytes: the results of the
   * pending tasks and the stores only they still hold (the program dropped
   * them); over that bound the thread waits, but only while the workers
   * have work: two runnable tasks per worker. Waiting until no older task
   * was pending, as before, ran one task at a time for as long as a
   * dropped temporary larger than the bound had readers pending (most of a
   * batch in the X-ray job, where every temporary is 17 MB); the task bound
   * still caps how far ahead it records. This task never waits for itself,
   * so a task larger than the bound runs. */
  atomic_fetch_add(&t->refs, 1);   /* read t->done while waiting */
  int intr = !ndt_distributed();
  double w0 = -1;   /* the timeline: when the caller started waiting, and why */
  const char *why = NULL;
  rt.any_waiters++;
  for (;;) {
    int mine = !atomic_load(&t->done);
    int64_t older = rt.pending_bytes - (mine ? bytes : 0) + ndt__mem_doomed();
    int64_t runnable = rt.runnable - mine;   /* older tasks the workers can run */
    /* once waiting, it goes on only well inside the bounds (a quarter of
     * the tasks, half the bytes, one runnable task per worker): it then
     * records several tasks per wake, not one (each wake is two context
     * switches: a tenth of the CPU time of an op on 16 tiles) */
    int waited = w0 >= 0;
    int64_t max_tasks = waited ? ndt__set_.max_pending - ndt__set_.max_pending / 4 : ndt__set_.max_pending;
    int64_t max_bytes = waited ? ndt__set_.max_bytes / 2 : ndt__set_.max_bytes;
    int64_t max_run = waited ? rt.nworkers : 2 * rt.nworkers - 1;
    if (rt.pending <= max_tasks &&
        (rt.pending - mine <= 0 || older <= max_bytes || runnable <= max_run))
      break;
    if (w0 < 0) {
      w0 = ndt__trace_on_ ? ndt__now_us() : 0;
      why = rt.pending > ndt__set_.max_pending ? "look-ahead (tasks)" : "look-ahead (bytes)";
    }
    if (wake_pool) {
      pthread_cond_signal(&rt.work);
      wake_pool = 0;
    }
    if ((intr && atomic_load(&call_intr)) || wait_done(intr)) {
      /* Cancels what the call recorded, this task too, and goes on
       * without waiting more (earlier calls' work, still pending, may
       * take long): the op that records it must not see an error for a
       * task it recorded. The call stays interrupted: its next wait, or
       * its caller (ndt_take_interrupted), reports it (KeyboardInterrupt). */
      interrupt_taken();
      break;
    }
  }
  rt.any_waiters--;
  pthread_mutex_unlock(&rt.lock);
  if (wake_pool) pthread_cond_signal(&rt.work);
  if (w0 > 0) ndt__trace_caller(why, w0);
  task_decref(t);
  if (atomic_load_explicit(&ndt__lent_stores, memory_order_relaxed)) note_lent(acc, nacc);
  return NDT_OK;
}


/* ---- grouped device tasks (see the top) ---- */
static int groupable(const ndt_taskrec *r) {
  /* (a group gives its members' arguments back: proc.c's group_release) */
  return r->proc && r->proc->iface->group && ndt__set_.group_bytes > 0 && !r->grouped &&
         !(r->flags & (NDT_TASK_INLINE | NDT_TASK_CALLER_ERROR | NDT__TASK_MOVE)) && !r->made &&
         r->nacc > 0 && r->nop > 0 && !ndt_distributed();
}

/* 1 when r may join the pending group: the same op on the same processor */
static int group_fits(const ndt_taskrec *r, const ndt_fprec *fp) {
  return r->kind == grp.kind && r->proc == grp.proc && fp == grp.fprec &&
         (r->name == grp.name || !strcmp(r->name, grp.name));
}

/* 1 when an access of a task overlaps one of the group's and one writes.
 * as_read: the task's accesses count as reads (a copy of the plan: it
 * takes its tile for writing to order itself in the graph, but it only
 * reads the tile's valid copy and writes another memory's) */
static int group_conflicts(const ndt_access *acc, int nacc, int as_read) {
  /* a write meets any access of the group, a read only the group's writes
   * (an operand's accesses are the tiles of its extent: a transposed view
   * of a (7, n) array reads about every tile of it in every task, and
   * each read against every access held took time cubic in n) */
  for (int i = 0; i < nacc; i++) {
    const ndt_access *a = &acc[i];
    int w = !as_read && (a->priv & NDT_WRITE);
    const ndt_access *b = w ? grp.acc : grp.wacc;
    int nb = w ? grp.nacc : grp.nwacc;
    for (int j = 0; j < nb; j++)
      if (a->tile == b[j].tile && a->lo <= b[j].hi && b[j].lo <= a->hi) return 1;
  }
  return 0;
}

/* 1 when a task may not join the group because it reads a store that a
 * call after the group's first one wrote: a group of an earlier call's ops
 * is kept whole by an interrupt (NDT_TASK_EARLY), and reading what the
 * later call's cancelled tasks lose would lose its own results too (the
 * same holds for fusion: fusion.c) */
static int group_reads_later(const ndt_access *acc, int nacc) {
  for (int i = 0; i < nacc; i++)
    if ((acc[i].priv & NDT_READ) && acc[i].tile->store->wcall > grp.call) return 1;
  return 0;
}

static int grow_to(void **p, int *cap, size_t sz, int need) {
  if (need <= *cap) return 0;
  int c = *cap ? *cap * 2 : 16;
  while (c < need) c *= 2;
  void *q = ndt__realloc(*p, (size_t)c * sz);
  if (!q) return -1;
  *p = q;
  *cap = c;
  return 0;
}

/* Holds r in the group (starting one when none is pending); fp: its op's
 * floating-point record (one reference, taken over). */
static ndt_status group_add(const ndt_taskrec *r, ndt_fprec *fp) {
  size_t at = (grp.alen + 15) & ~(size_t)15;
  int fail = 0;
  if (grp.nop + r->nop > grp.capop) {   /* the operands and their views, together */
    int c = grp.capop ? grp.capop * 2 : 16;
    while (c < grp.nop + r->nop) c *= 2;
    ndt_operand *o = ndt__realloc(grp.op, (size_t)c * sizeof *o);
    if (o) grp.op = o;
    ndt_array *v = o ? ndt__realloc(grp.views, (size_t)c * sizeof *v) : NULL;
    if (v) {
      grp.views = v;
      grp.capop = c;
    } else {
      fail = 1;
    }
  }
  if (!fail && at + r->arg_size > grp.acap) {
    size_t c = grp.acap ? grp.acap * 2 : 1024;
    while (c < at + r->arg_size) c *= 2;
    char *q = ndt__realloc(grp.args, c);
    if (q) {
      grp.args = q;
      grp.acap = c;
    } else {
      fail = 1;
    }
  }
  if (!fail) fail = grow_to((void **)&grp.acc, &grp.capacc, sizeof *grp.acc, grp.nacc + r->nacc);
  if (!fail)
    fail = grow_to((void **)&grp.wacc, &grp.capwacc, sizeof *grp.wacc, grp.nwacc + r->nacc);
  /* its stores: r's, or else its operands' (as record_task takes them) */
  int nst = r->stores ? r->nstores : r->nop;
  if (!fail)
    fail = grow_to((void **)&grp.stores, &grp.capstores, sizeof *grp.stores, grp.nstores + nst);
  if (!fail)
    fail = grow_to((void **)&grp.after, &grp.capafter, sizeof *grp.after, grp.nafter + r->nafter);
  if (fail) {
    /* no room to hold it: what is held goes, then this task alone */
    if (fp) ndt__fp_release(fp);
    ndt_status st = group_flush();
    return st ? st : record_task(r);
  }
  if (!grp.n) {
    grp.kind = r->kind;
    grp.flags = r->flags & NDT_TASK_FAILS_CLEAN;
    grp.call = call_no;
    grp.proc = r->proc;
    grp.name = r->name;
    grp.fprec = fp;
  } else if (fp) {
    ndt__fp_release(fp);   /* the group holds the op's record once */
  }
  grp.flags |= r->flags & NDT_TASK_EARLY;
  int m = grp.n++;
  grp.nops[m] = r->nop;
  grp.naccs[m] = r->nacc;
  grp.aoff[m] = (uint32_t)at;
  grp.asize[m] = (uint32_t)r->arg_size;
  for (int i = 0; i < r->nop; i++) {
    grp.views[grp.nop + i] = *r->op[i].view;
    grp.op[grp.nop + i].priv = r->op[i].priv;
  }
  grp.nop += r->nop;
  if (r->arg_size) memcpy(grp.args + at, r->arg, r->arg_size);
  grp.alen = at + r->arg_size;
  for (int i = 0; i < r->nacc; i++) {
    grp.acc[grp.nacc++] = r->acc[i];
    if (r->acc[i].priv & NDT_WRITE) grp.wacc[grp.nwacc++] = r->acc[i];
    grp.data += (r->acc[i].hi - r->acc[i].lo + 1) * r->acc[i].tile->store->itemsize;
  }
  for (int i = 0; i < nst; i++) {
    ndt_store *si = r->stores ? r->stores[i] : r->op[i].view->store;
    int seen = !si;
    for (int j = 0; j < grp.nstores && !seen; j++) seen = grp.stores[j] == si;
    if (!seen) {
      ndt__store_incref(si);
      grp.stores[grp.nstores++] = si;
    }
  }
  for (int i = 0; i < r->nafter; i++)
    if (r->after[i]) {
      atomic_fetch_add(&r->after[i]->refs, 1);
      grp.after[grp.nafter++] = r->after[i];
    }
  /* what this thread allocated for it (its results' tile buffers) */
  grp.bytes += ndt__take_allocated();
  if (grp.n == NDT_GROUP_MAX || grp.data >= ndt__set_.group_bytes) return group_flush();
  return NDT_OK;
}

/* Records the held tasks as one grouped task. That can fail (no memory
 * for the task or the graph's lists) after the calls that recorded its
 * members returned: then each member is recorded alone, and a member that
 * cannot be is a failed deferred task (its op's error at the next wait,
 * the stores it writes lost), as if it had failed when it ran. The call
 * that ended the group goes on. */
static ndt_status group_flush(void) {
  if (!grp.n) return NDT_OK;
  unsigned gflags = grp.flags | (grp.call != call_no ? NDT_TASK_EARLY : 0);
  int n = grp.n;
  grp.n = 0;
  size_t head = (sizeof(ndt_group_arg) + 15) & ~(size_t)15;
  char *arg = ndt__malloc(head + grp.alen);
  for (int i = 0; i < grp.nop; i++) grp.op[i].view = &grp.views[i];
  ndt_status st = NDT_ERR_NOMEM;
  if (ndt__dev_logging)
    ndt__dev_log_place("group %s %s %d", grp.kind->name, grp.proc->iface->name, n);
  if (arg) {
    ndt_group_arg *g = (ndt_group_arg *)arg;
    memset(g, 0, sizeof *g);
    g->kind = grp.kind;
    g->proc = grp.proc;
    g->n = n;
    for (int i = 0; i < n; i++) {
      g->nop[i] = grp.nops[i];
      g->arg_off[i] = (uint32_t)(head + grp.aoff[i]);
    }
    if (grp.alen) memcpy(arg + head, grp.args, grp.alen);
    ndt_taskrec r = {.name = grp.name, .kind = &ndt__group_kind, .proc = grp.proc,
                     .op = grp.op, .nop = grp.nop, .arg = arg, .arg_size = head + grp.alen,
                     .acc = grp.acc, .nacc = grp.nacc, .stores = grp.stores,
                     .nstores = grp.nstores, .flags = gflags, .span = NULL, .after = grp.after,
                     .nafter = grp.nafter, .made = NULL, .grouped = 1, .fprec = grp.fprec,
                     .bytes = grp.bytes};
    st = record_task(&r);
    ndt__mfree(arg);
  }
  if (st == NDT_OK && atomic_load_explicit(&ndt__lent_stores, memory_order_relaxed))
    note_lent(grp.acc, grp.nacc);
  for (int i = 0, op = 0, ac = 0; st != NDT_OK && i < n; op += grp.nops[i], ac += grp.naccs[i], i++) {
    ndt_taskrec r = {.name = grp.name, .kind = grp.kind, .proc = grp.proc, .op = grp.op + op,
                     .nop = grp.nops[i], .arg = grp.args + grp.aoff[i],
                     .arg_size = grp.asize[i], .acc = grp.acc + ac, .nacc = grp.naccs[i],
                     .stores = grp.stores, .nstores = grp.nstores, .flags = gflags, .span = NULL,
                     .after = grp.after, .nafter = grp.nafter, .made = NULL, .grouped = 1,
                     .fprec = grp.fprec, .bytes = i ? 0 : grp.bytes};
    ndt_status ms = record_task(&r);
    if (ms == NDT_OK) {
      if (atomic_load_explicit(&ndt__lent_stores, memory_order_relaxed))
        note_lent(r.acc, r.nacc);
      continue;
    }
    ndt__rt_fail(grp.name, ms);
    /* accepted when its call returned: what its argument holds goes back */
    if (grp.kind->release) grp.kind->release(grp.args + grp.aoff[i]);
    for (int k = 0; k < r.nacc; k++)
      if (r.acc[k].priv & NDT_WRITE) atomic_store(&r.acc[k].tile->store->lost, 1);
  }
  ndt__fp_release(grp.fprec);
  for (int i = 0; i < grp.nstores; i++) ndt__store_decref(grp.stores[i]);
  for (int i = 0; i < grp.nafter; i++) task_decref(grp.after[i]);
  grp.nop = grp.nacc = grp.nwacc = grp.nstores = grp.nafter = 0;
  grp.alen = 0;
  grp.bytes = grp.data = 0;
  grp.fprec = NULL;
  return NDT_OK;
}

/* The current op's floating-point record as a task recorded now would
 * get it (NULL: the op reports none, or has made none yet). */
static const ndt_fprec *fp_now(void) {
  int d = ndt__fp_depth_ - 1;
  return ndt__fp_mask_ && d >= 0 && d < NDT_FP_DEPTH ? ndt__fp_stk_[d].rec : NULL;
}

ndt_status ndt__rt_group_before(const ndt_task_kind *k, const char *name, const ndt_access *acc,
                                int nacc) {
  if (!grp.n) return NDT_OK;
  /* another op: a record of its own, or none where the group has one */
  const ndt_fprec *fp = fp_now();
  int same_op = k == grp.kind && (name == grp.name || !strcmp(name, grp.name)) &&
                (ndt__fp_mask_ ? fp && fp == grp.fprec : !grp.fprec);
  return same_op && !group_conflicts(acc, nacc, 0) && !group_reads_later(acc, nacc)
             ? NDT_OK
             : group_flush();
}
