/* sched.c - the task runtime: dependencies per tile in program order, a
 * worker pool, waiting, and deferred errors.
 *
 * One thread records tasks (the program's thread). Dependencies come from
 * the tiles a task declares: a reader waits for the tile's last writer; a
 * writer also waits for the readers since then. All graph state is guarded
 * by one lock; tasks are coarse (a tile's worth of work), so it is rarely
 * contended. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

struct ndt_task {
  atomic_int refs;
  atomic_int done;
  const char *name;
  ndt_task_fn fn;
  void *arg;             /* a copy, allocated with the task */
  ndt_store **stores;
  int nstores;
  int ndeps;              /* unfinished predecessors (under lock) */
  int64_t bytes;          /* data allocated for it when it was recorded */
  ndt_fprec *fprec;       /* its op's floating-point error record, or NULL */
  ndt_task **succ;        /* tasks waiting for this one (under lock) */
  int nsucc, capsucc;
  ndt_task *next;         /* ready queue link */
  int64_t seq;            /* recording order (cancelled when below rt.cancel_below) */
  unsigned char *wrote;   /* wrote[i]: the task writes stores[i] */
};

static struct {
  int started;
  pthread_mutex_t lock;
  pthread_cond_t work;    /* a task became ready, or stop */
  pthread_cond_t done;    /* a task finished */
  ndt_task *head, *tail;
  int nworkers;
  pthread_t *threads;
  int stop;
  int64_t pending;
  ndt_status deferred;
  char deferred_msg[600];
  int64_t tile_bytes;
  int64_t inline_elems;
  int64_t max_pending;    /* the recording thread waits when more tasks are pending */
  int64_t pending_bytes;  /* sum of the pending tasks' bytes */
  int64_t max_bytes;      /* ... or when older pending tasks hold more bytes */
  int64_t recorded;       /* tasks recorded so far (their seq) */
  int64_t cancel_below;   /* an interrupt cancelled the tasks recorded before */
} rt = {.lock = PTHREAD_MUTEX_INITIALIZER,
        .work = PTHREAD_COND_INITIALIZER,
        .done = PTHREAD_COND_INITIALIZER};

/* ---- the timeline (NDTILE_PROFILE=trace.json) --------------------------
 * Each finished task appends (name, thread, start, end); the file is a
 * Chrome trace that Perfetto and chrome://tracing open. */
typedef struct { const char *name; int tid; double t0, t1; } trace_ev;
static struct {
  int on;
  char path[512];
  trace_ev *ev;
  size_t n, cap;
  pthread_mutex_t lock;
  double origin;
} tr = {.lock = PTHREAD_MUTEX_INITIALIZER};

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static void trace_add(const char *name, int tid, double t0, double t1) {
  pthread_mutex_lock(&tr.lock);
  if (tr.n == tr.cap) {
    size_t cap = tr.cap ? tr.cap * 2 : 4096;
    /* plain realloc: any thread adds events, and an injected failure
     * (ndt_malloc) would fall at a random point of a failure test */
    trace_ev *e = realloc(tr.ev, cap * sizeof *e);
    if (!e) {
      pthread_mutex_unlock(&tr.lock);
      return;   /* the timeline is best effort: drop the event */
    }
    tr.ev = e;
    tr.cap = cap;
  }
  tr.ev[tr.n++] = (trace_ev){name, tid, t0, t1};
  pthread_mutex_unlock(&tr.lock);
}

double ndt_trace_now(void) { return tr.on ? now_us() : 0; }
void ndt_trace_caller(const char *name, double t0) {
  if (tr.on) trace_add(name, -1, t0, now_us());
}

ndt_status ndt_trace_start(const char *path) {
  if (!path || !*path) return ndt_error(NDT_ERR_VALUE, "the trace needs a file name");
  pthread_mutex_lock(&tr.lock);
  snprintf(tr.path, sizeof tr.path, "%s", path);
  tr.n = 0;
  tr.origin = now_us();
  tr.on = 1;
  pthread_mutex_unlock(&tr.lock);
  return NDT_OK;
}

ndt_status ndt_trace_write(void) {
  if (!tr.on) return NDT_OK;
  ndt_status st = ndt_sync();
  pthread_mutex_lock(&tr.lock);
  FILE *f = fopen(tr.path, "w");
  if (!f) {
    pthread_mutex_unlock(&tr.lock);
    return ndt_error(NDT_ERR_VALUE, "cannot write the trace to '%s'", tr.path);
  }
  fprintf(f, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
  fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, "
             "\"args\": {\"name\": \"ndtile rank %d\"}}", ndt_rank());
  for (int w = -1; w < rt.nworkers; w++)
    fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": %d, "
               "\"args\": {\"name\": \"%s %d\"}}", w + 1, w < 0 ? "caller" : "worker", w);
  for (size_t i = 0; i < tr.n; i++)
    fprintf(f, ",\n{\"name\": \"%s\", \"ph\": \"X\", \"pid\": 0, \"tid\": %d, "
               "\"ts\": %.3f, \"dur\": %.3f}", tr.ev[i].name, tr.ev[i].tid + 1,
            tr.ev[i].t0 - tr.origin, tr.ev[i].t1 - tr.ev[i].t0);
  fprintf(f, "\n]}\n");
  int bad = fclose(f) != 0;
  pthread_mutex_unlock(&tr.lock);
  if (bad) return ndt_error(NDT_ERR_VALUE, "cannot write the trace to '%s'", tr.path);
  return st;
}

static void trace_at_exit(void) { ndt_trace_write(); }

static void memstat_at_exit(void) {
  int64_t live, cached, plive, pheld;
  ndt_mem_stats(&live, &cached, &plive, &pheld);
  fprintf(stderr, "ndtile memory: peak %.1f MiB in use, %.1f MiB with the cache; "
          "now %.1f MiB in use, %.1f MiB cached\n", plive / 1048576.0, pheld / 1048576.0,
          live / 1048576.0, cached / 1048576.0);
}

static ndt_flush_fn flush_hook;
void ndt_set_flush_hook(ndt_flush_fn hook) { flush_hook = hook; }
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
 * signalled from a signal handler). A wait that sees it cancels every task
 * recorded so far: those not started are dropped by the worker that takes
 * them, those running finish in the background; both mark the stores they
 * write lost, and a read of a lost store fails. The wait returns
 * NDT_ERR_INTERRUPTED at once. With many ranks interrupts are not acted on
 * (every rank must take the same steps; the launcher ends the job). */
static atomic_int interrupt_req;
#define INTR_SLICE_NS 20000000L

void ndt_interrupt(void) { atomic_store(&interrupt_req, 1); }
int ndt_interrupt_pending(void) { return atomic_load_explicit(&interrupt_req, memory_order_relaxed); }
void ndt_clear_interrupt(void) { atomic_store(&interrupt_req, 0); }
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

/* Acts on an interrupt (lock held): cancels what was recorded so far. */
static ndt_status interrupted(void) {
  rt.cancel_below = rt.recorded;
  atomic_store(&interrupt_req, 0);
  return ndt_error(NDT_ERR_INTERRUPTED, "interrupted");
}

static void mark_lost(ndt_task *t) {
  for (int i = 0; i < t->nstores; i++)
    if (t->wrote[i]) atomic_store(&t->stores[i]->lost, 1);
}

static void task_decref(ndt_task *t) {
  if (t && atomic_fetch_sub(&t->refs, 1) == 1) {
    ndt_mfree(t->succ);
    ndt_mfree(t);
  }
}

void ndt_tile_release(ndt_tile *t) {
  for (int i = 0; i < t->nwrites; i++) task_decref(t->writes[i].task);
  for (int i = 0; i < t->nreads; i++) task_decref(t->reads[i].task);
  ndt_mfree(t->writes);
  ndt_mfree(t->reads);
  t->writes = t->reads = NULL;
  t->nwrites = t->capwrites = t->nreads = t->capreads = 0;
}

static void push_ready(ndt_task *t) {
  t->next = NULL;
  if (rt.tail) rt.tail->next = t; else rt.head = t;
  rt.tail = t;
}

static void release_resources(ndt_task *t) {
  for (int i = 0; i < t->nstores; i++) ndt_store_decref(t->stores[i]);
  t->nstores = 0;
}

static void record_failure(ndt_task *t, ndt_status st) {
  if (rt.deferred == NDT_OK) {
    rt.deferred = st;
    snprintf(rt.deferred_msg, sizeof rt.deferred_msg, "%s: %s", t->name, ndt_last_error());
  }
}

/* Called with the lock held. */
static void complete(ndt_task *t, ndt_status st) {
  if (st != NDT_OK) record_failure(t, st);
  atomic_store(&t->done, 1);
  rt.pending--;
  rt.pending_bytes -= t->bytes;
  int woke = 0;
  for (int i = 0; i < t->nsucc; i++) {
    ndt_task *s = t->succ[i];
    if (--s->ndeps == 0) {
      push_ready(s);
      woke++;
    }
  }
  t->nsucc = 0;
  if (woke == 1) pthread_cond_signal(&rt.work);
  else if (woke > 1) pthread_cond_broadcast(&rt.work);
  pthread_cond_broadcast(&rt.done);
}

static void *worker_main(void *p) {
  int id = (int)(intptr_t)p;
  pthread_mutex_lock(&rt.lock);
  for (;;) {
    while (!rt.head && !rt.stop) pthread_cond_wait(&rt.work, &rt.lock);
    if (!rt.head) break;
    ndt_task *t = rt.head;
    rt.head = t->next;
    if (!rt.head) rt.tail = NULL;
    int cancelled = t->seq < rt.cancel_below;
    pthread_mutex_unlock(&rt.lock);
    double t0 = tr.on ? now_us() : 0;
    /* the IEEE flags are this thread's: what the task raised goes to its
     * op's record */
    ndt_status st = NDT_OK;
    if (!cancelled) {
      if (t->fprec) ndt_fpe_clear();
      st = t->fn(t->arg, id);
      if (t->fprec) ndt_fp_add(t->fprec, ndt_fpe_test());
    }
    if (t->fprec) {
      ndt_fp_release(t->fprec);
      t->fprec = NULL;
    }
    if (tr.on) trace_add(t->name, id, t0, now_us());
    /* read again: an interrupt may have come while it ran */
    pthread_mutex_lock(&rt.lock);
    cancelled = t->seq < rt.cancel_below || st == NDT_ERR_INTERRUPTED;
    pthread_mutex_unlock(&rt.lock);
    if (cancelled) {
      mark_lost(t);
      st = NDT_OK;   /* reported by the wait that cancelled it, and by reads */
    }
    release_resources(t);
    pthread_mutex_lock(&rt.lock);
    complete(t, st);
    pthread_mutex_unlock(&rt.lock);
    task_decref(t);
    pthread_mutex_lock(&rt.lock);
  }
  pthread_mutex_unlock(&rt.lock);
  return NULL;
}

static int64_t env_int(const char *name, int64_t dflt) {
  const char *v = getenv(name);
  if (!v || !*v) return dflt;
  char *end;
  long long x = strtoll(v, &end, 10);
  if (*end == 'k' || *end == 'K') x <<= 10;
  else if (*end == 'm' || *end == 'M') x <<= 20;
  return x > 0 ? x : dflt;
}

static ndt_status start_workers(int n) {
  rt.threads = ndt_calloc((size_t)n, sizeof(pthread_t));
  if (!rt.threads) return ndt_error(NDT_ERR_NOMEM, "cannot allocate the worker pool");
  rt.stop = 0;
  for (int i = 0; i < n; i++) {
    if (pthread_create(&rt.threads[i], NULL, worker_main, (void *)(intptr_t)i)) {
      rt.nworkers = i;
      return ndt_error(NDT_ERR_INTERNAL, "cannot start worker thread %d", i);
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
  ndt_mfree(rt.threads);
  rt.threads = NULL;
  rt.nworkers = 0;
}

static int default_workers(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return (int)env_int("NDTILE_WORKERS", n > 0 ? n : 1);
}

ndt_status ndt_init(const ndt_config *cfg) {
  if (rt.started) {
    ndt_status st = ndt_sync();
    if (st) return st;
    stop_workers();
    rt.started = 0;
  }
  static const ndt_comm_hooks up = {ndt_finalize, ndt_rt_task_seq, ndt_rt_task_hash,
                                     ndt_trace_now, ndt_trace_caller};
  ndt_comm_start(&up);   /* comm.c and store.c are below: they call up through these */
  ndt__store_set_release(ndt_tile_release);
  int w = cfg && cfg->workers > 0 ? cfg->workers : default_workers();
  rt.tile_bytes = cfg && cfg->tile_bytes > 0 ? cfg->tile_bytes
                                             : env_int("NDTILE_TILE_BYTES", 2 << 20);
  rt.inline_elems = cfg && cfg->inline_elems >= 0 ? cfg->inline_elems
                                                  : env_int("NDTILE_INLINE_ELEMS", 1 << 15);
  if (w > 1024) w = 1024;
  /* Bounded look-ahead: a program that records faster than the workers run
   * would otherwise allocate the results of many future steps at once. */
  rt.max_pending = env_int("NDTILE_MAX_PENDING", 16 + 8 * (int64_t)w);
  /* ... and by bytes: the buffers allocated for pending tasks (their
   * results, and stores only they still hold) may not exceed a tile per
   * worker and one more beyond the newest task */
  rt.max_bytes = env_int("NDTILE_MAX_PENDING_BYTES", (1 + (int64_t)w) * rt.tile_bytes);
  ndt_status st = start_workers(w);
  if (st) return st;
  rt.started = 1;
  static int trace_checked;
  const char *tp = getenv("NDTILE_PROFILE");
  if (!trace_checked && tp && *tp) {
    char path[512];
    if (ndt_distributed()) snprintf(path, sizeof path, "%s.rank%d", tp, ndt_rank());
    else snprintf(path, sizeof path, "%s", tp);
    ndt_trace_start(path);
    atexit(trace_at_exit);
  }
  if (!trace_checked && getenv("NDTILE_MEMSTAT")) atexit(memstat_at_exit);
  if (!trace_checked && getenv("NDTILE_CACHE_BYTES"))
    ndt_set_cache_limit(env_int("NDTILE_CACHE_BYTES", 0));
  trace_checked = 1;
  return NDT_OK;
}

ndt_status ndt_runtime_ensure(void) {
  if (rt.started) return NDT_OK;
  return ndt_init(NULL);
}

void ndt_finalize(void) {
  if (!rt.started) return;
  ndt_sync();
  stop_workers();
  rt.started = 0;
  ndt_release_cache();
}

int ndt_workers(void) {
  ndt_runtime_ensure();
  return rt.nworkers;
}
int64_t ndt_tile_bytes(void) { return ndt_rt_tile_bytes(); }
int64_t ndt_rt_tile_bytes(void) {
  ndt_runtime_ensure();
  return rt.tile_bytes;
}
int64_t ndt_rt_inline_elems(void) {
  ndt_runtime_ensure();
  return rt.inline_elems;
}

ndt_status ndt_set_workers(int n) {
  if (n < 1) return ndt_error(NDT_ERR_VALUE, "the number of workers must be >= 1, got %d", n);
  ndt_config c = {.workers = n, .tile_bytes = ndt_rt_tile_bytes(),
                  .inline_elems = ndt_rt_inline_elems()};
  return ndt_init(&c);
}

ndt_status ndt_set_tile_bytes(int64_t b) {
  if (b < 0) return ndt_error(NDT_ERR_VALUE, "the tile size must be >= 1 byte (0: default)");
  ndt_runtime_ensure();
  rt.tile_bytes = b ? b : env_int("NDTILE_TILE_BYTES", 2 << 20);
  return NDT_OK;
}

ndt_status ndt_set_inline_elems(int64_t n) {
  ndt_runtime_ensure();
  rt.inline_elems = n < 0 ? 0 : n;
  return NDT_OK;
}

static ndt_status take_deferred(void) {
  if (rt.deferred == NDT_OK) return NDT_OK;
  ndt_status st = rt.deferred;
  rt.deferred = NDT_OK;
  return ndt_error(st, "%s", rt.deferred_msg);
}

static ndt_status sync_here(void) {
  if (!rt.started) return NDT_OK;
  FLUSH(1, NULL, NULL, 0);
  pthread_mutex_lock(&rt.lock);
  int intr = !ndt_distributed();
  while (rt.pending > 0)
    if (wait_done(intr)) {
      ndt_status st = interrupted();
      pthread_mutex_unlock(&rt.lock);
      return st;
    }
  ndt_status st = take_deferred();
  pthread_mutex_unlock(&rt.lock);
  return st;
}

ndt_status ndt_sync(void) {
  ndt_status st = sync_here();
  return ndt_distributed() ? ndt_comm_agree(st) : st;
}

static int overlaps(const ndt_use *u, int64_t lo, int64_t hi) { return u->lo <= hi && lo <= u->hi; }

/* 1 when an unfinished task uses [lo, hi] of the tile in a way that
 * conflicts with a read (or, when for_write, with a write). */
static int busy(const ndt_tile *t, int64_t lo, int64_t hi, int for_write) {
  for (int i = 0; i < t->nwrites; i++)
    if (!atomic_load(&t->writes[i].task->done) && overlaps(&t->writes[i], lo, hi)) return 1;
  if (for_write)
    for (int i = 0; i < t->nreads; i++)
      if (!atomic_load(&t->reads[i].task->done) && overlaps(&t->reads[i], lo, hi)) return 1;
  return 0;
}

/* Waits (lock held) until no unfinished task conflicts with [lo, hi];
 * 1 when an interrupt stopped the wait (only when interruptible). */
static int wait_region(const ndt_tile *t, int64_t lo, int64_t hi, int for_write,
                       int interruptible) {
  while (busy(t, lo, hi, for_write))
    if (wait_done(interruptible)) return 1;
  return 0;
}

ndt_status ndt_wait_tiles(ndt_store *s, int64_t t0, int64_t t1, int for_write) {
  if (!rt.started) return NDT_OK;
  FLUSH(0, s, NULL, 0);
  pthread_mutex_lock(&rt.lock);
  int intr = !ndt_distributed();
  for (int64_t i = t0; i <= t1 && i < s->ntiles; i++) {
    ndt_tile *tl = &s->tiles[i];
    if (wait_region(tl, tl->start, tl->start + tl->len - 1, for_write, intr)) {
      ndt_status st = interrupted();
      pthread_mutex_unlock(&rt.lock);
      return st;
    }
  }
  ndt_status st = take_deferred();
  pthread_mutex_unlock(&rt.lock);
  if (st == NDT_OK && !for_write && atomic_load(&s->lost))
    st = ndt_error(NDT_ERR_DEFERRED, "this array's values were lost: an interrupt "
                   "(KeyboardInterrupt) cancelled the operation that computed them");
  if (!ndt_distributed()) return st;
  /* Every rank reads (or writes) the same values: the owners' copies are
   * broadcast (whatever the status: every rank takes the same steps), and
   * an error anywhere is an error everywhere. */
  for (int64_t i = t0; i <= t1 && i < s->ntiles; i++) {
    ndt_tile *tl = &s->tiles[i];
    if (tl->everywhere) continue;
    char *buf = ndt_tile_buffer(tl);
    if (!buf && st == NDT_OK) st = ndt_error(NDT_ERR_NOMEM, "cannot allocate a tile");
    if (!for_write) {
      /* the owner's copy replaces this rank's: tasks still reading the old
       * one here finish first (the wait above waited for writers only) */
      if (tl->owner != ndt_rank()) {
        pthread_mutex_lock(&rt.lock);
        wait_region(tl, tl->start, tl->start + tl->len - 1, 1, 0);
        pthread_mutex_unlock(&rt.lock);
      }
      ndt_comm_bcast(buf, tl->len * s->itemsize, tl->owner);
      ndt_tile_everywhere(tl);
    }
  }
  return ndt_comm_agree(st);
}

/* Room for `extra` more successors; edges are added only after every
 * reservation succeeded, so a failed allocation leaves the graph unchanged. */
static int reserve_succ(ndt_task *pred, int extra) {
  if (pred->nsucc + extra <= pred->capsucc) return 0;
  int cap = pred->capsucc * 2;
  if (cap < pred->nsucc + extra) cap = pred->nsucc + extra;
  ndt_task **s = ndt_realloc(pred->succ, (size_t)cap * sizeof *s);
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
  ndt_use *x = ndt_realloc(*u, (size_t)c * sizeof *x);
  if (!x) return -1;
  *u = x;
  *cap = c;
  return 0;
}

static ndt_status local_submit(const char *name, ndt_task_fn fn, const void *arg,
                               size_t arg_size, const ndt_access *acc, int nacc,
                               ndt_store *const *stores, int nstores, int small) {
  /* Tiles of lazy stores get their buffer from the first task recorded (or
   * run inline) on them, here on the recording thread: no task is pending
   * on a tile without one, so no worker races this. The bytes count as this
   * task's (ndt_take_allocated below) for the look-ahead bound. */
  for (int i = 0; i < nacc; i++)
    if (!acc[i].tile->data && !ndt_tile_buffer(acc[i].tile))
      return ndt_error(NDT_ERR_NOMEM, "cannot allocate a tile of %lld bytes for %s",
                       (long long)acc[i].tile->len * acc[i].tile->store->itemsize, name);
  ndt_status st;
  /* what is computed from lost values is lost too */
  int taint = 0;
  for (int i = 0; i < nacc; i++)
    if ((acc[i].priv & NDT_READ) && atomic_load(&acc[i].tile->store->lost)) taint = 1;
  if (taint)
    for (int i = 0; i < nacc; i++)
      if (acc[i].priv & NDT_WRITE) atomic_store(&acc[i].tile->store->lost, 1);
  if (small) {
    /* The inline path: run now when nothing it touches is pending. */
    int free_now = 1;
    pthread_mutex_lock(&rt.lock);
    for (int i = 0; i < nacc && free_now; i++)
      if (busy(acc[i].tile, acc[i].lo, acc[i].hi, acc[i].priv & NDT_WRITE)) free_now = 0;
    pthread_mutex_unlock(&rt.lock);
    if (free_now) {
      unsigned fpm = ndt_fp_mask_;
      if (fpm) ndt_fpe_clear();
      double t0 = tr.on ? now_us() : 0;
      st = fn((void *)arg, -1);
      if (tr.on) trace_add(name, -1, t0, now_us());
      if (fpm) ndt_fp_inline(ndt_fpe_test());
      if (st == NDT_ERR_INTERRUPTED)   /* a kernel stopped half-way */
        for (int i = 0; i < nacc; i++)
          if (acc[i].priv & NDT_WRITE) atomic_store(&acc[i].tile->store->lost, 1);
      return st;
    }
  }
  size_t head = (sizeof(ndt_task) + (size_t)nstores * (sizeof(ndt_store *) + 1) + 15) &
                ~(size_t)15;
  ndt_task *t = ndt_malloc(head + arg_size);
  if (!t) return ndt_error(NDT_ERR_NOMEM, "cannot allocate a task for %s", name);
  memset(t, 0, sizeof *t);
  /* what this thread allocated since the last task: this one's results */
  int64_t bytes = t->bytes = ndt_take_allocated();
  t->stores = (ndt_store **)(t + 1);
  t->wrote = (unsigned char *)(t->stores + nstores);
  t->arg = (char *)t + head;
  memcpy(t->arg, arg, arg_size);
  atomic_init(&t->refs, 1);  /* the scheduler's reference, dropped when done */
  atomic_init(&t->done, 0);
  t->name = name;
  t->fn = fn;
  t->fprec = ndt_fp_defer();
  for (int i = 0; i < nstores; i++) {
    ndt_store_incref(stores[i]);
    t->stores[i] = stores[i];
    t->wrote[i] = 0;
    for (int k = 0; k < nacc && !t->wrote[i]; k++)
      t->wrote[i] = (acc[k].priv & NDT_WRITE) && acc[k].tile->store == stores[i];
  }
  t->nstores = nstores;

  pthread_mutex_lock(&rt.lock);
  /* Reserve first: then recording cannot fail half-way. */
  int oom = 0;
  for (int i = 0; i < nacc && !oom; i++) {
    ndt_tile *tl = acc[i].tile;
    for (int w = 0; w < tl->nwrites && !oom; w++)
      if (reserve_succ(tl->writes[w].task, nacc)) oom = 1;
    if (acc[i].priv & NDT_WRITE) {
      for (int r = 0; r < tl->nreads && !oom; r++)
        if (reserve_succ(tl->reads[r].task, nacc)) oom = 1;
      if (!oom && reserve_uses(&tl->writes, &tl->nwrites, &tl->capwrites, nacc)) oom = 1;
    } else if (!oom && reserve_uses(&tl->reads, &tl->nreads, &tl->capreads, nacc)) {
      oom = 1;
    }
  }
  if (oom) {
    pthread_mutex_unlock(&rt.lock);
    release_resources(t);
    ndt_fp_release(t->fprec);
    ndt_mfree(t);
    return ndt_error(NDT_ERR_NOMEM, "cannot record a task for %s", name);
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
  }
  t->seq = rt.recorded++;
  rt.pending++;
  rt.pending_bytes += bytes;
  if (t->ndeps == 0) {
    push_ready(t);
    pthread_cond_signal(&rt.work);
  }
  /* Bounded look-ahead. Every pending task is ready, running or waiting on
   * one that is, so the count always drops. In bytes: the results of the
   * pending tasks and the stores only they still hold (the program dropped
   * them); both drop to 0 as the tasks before this one finish, and this
   * one never waits for itself, so a task larger than the bound runs. */
  atomic_fetch_add(&t->refs, 1);   /* read t->done while waiting */
  int intr = !ndt_distributed();
  for (;;) {
    int mine = !atomic_load(&t->done);
    int64_t older = rt.pending_bytes - (mine ? bytes : 0) + ndt__mem_doomed();
    if (rt.pending <= rt.max_pending && (rt.pending - mine <= 0 || older <= rt.max_bytes))
      break;
    if (wait_done(intr)) {
      /* Cancels what was recorded, this task too, and goes on: the op that
       * records it must not see an error for a task it recorded. The
       * request stays for the next wait to report (KeyboardInterrupt). */
      rt.cancel_below = rt.recorded;
      intr = 0;
    }
  }
  pthread_mutex_unlock(&rt.lock);
  task_decref(t);
  return NDT_OK;
}

/* ---- many processes -----------------------------------------------------
 * Every rank sees every task, in the same order. The task runs on its home
 * rank: the owner of the first tile it writes (runtime-private buffers are
 * no hint; then the first tile it reads decides). For each tile region the
 * task uses that another rank owns, the owner sends the region to the home
 * rank before the task runs, and, when the task writes it, the home rank
 * sends it back after. Both sides take these steps in program order on the
 * recording thread, so every message is matched and nothing deadlocks; the
 * tag is the task's sequence number. A rank neither home nor owner of
 * anything the task touches skips it. */
static int64_t task_seq;
int64_t ndt_rt_task_seq(void) { return task_seq; }
/* A hash of the names of the tasks recorded so far, in order: ranks that
 * recorded as many tasks but not the same ones are out of step too. */
static uint64_t task_hash = 14695981039346656037ull;
int64_t ndt_rt_task_hash(void) { return (int64_t)task_hash; }

static int home_of(const ndt_access *acc, int nacc) {
  for (int i = 0; i < nacc; i++)
    if ((acc[i].priv & NDT_WRITE) && !acc[i].tile->scratch) return acc[i].tile->owner;
  for (int i = 0; i < nacc; i++)
    if (!acc[i].tile->scratch) return acc[i].tile->owner;
  return nacc ? acc[0].tile->owner : 0;
}

static void local_failure(const char *name, ndt_status st);

/* A region [lo, hi] of a tile moved between ranks. A rank that cannot get
 * a buffer still sends or receives (dummy bytes), so no rank is left
 * waiting, and reports the failure at the next agreement. */
static void move_region(ndt_tile *t, int64_t lo, int64_t hi, int peer, int tag, int send) {
  int64_t isz = t->store->itemsize, n = (hi - lo + 1) * isz;
  if (!ndt_tile_buffer(t)) local_failure("receiving a tile", NDT_ERR_NOMEM);
  char *p = t->data ? t->data + (lo - t->start) * isz : NULL;
  pthread_mutex_lock(&rt.lock);   /* no local task may use it meanwhile */
  wait_region(t, lo, hi, !send, 0);
  pthread_mutex_unlock(&rt.lock);
  if (send) ndt_comm_send(p, n, peer, tag);
  else ndt_comm_recv(p, n, peer, tag);
}

static void local_failure(const char *name, ndt_status st) {
  pthread_mutex_lock(&rt.lock);
  if (rt.deferred == NDT_OK) {
    rt.deferred = st;
    snprintf(rt.deferred_msg, sizeof rt.deferred_msg, "%s: %s", name, ndt_last_error());
  }
  pthread_mutex_unlock(&rt.lock);
}

/* 1 when rank r holds [lo, hi] of t as it is now. */
static int has_copy(const ndt_tile *t, int r, int64_t lo, int64_t hi) {
  if (t->everywhere || t->owner == r) return 1;
  for (int k = 0; k < t->ncopies; k++)
    if (t->copies[k].rank == r && t->copies[k].lo <= lo && hi <= t->copies[k].hi) return 1;
  return 0;
}

static void add_copy(ndt_tile *t, int r, int64_t lo, int64_t hi) {
  if (has_copy(t, r, lo, hi)) return;
  int j = 0;   /* drop what the new region covers; the oldest goes when full */
  for (int k = 0; k < t->ncopies; k++)
    if (!(t->copies[k].rank == r && lo <= t->copies[k].lo && t->copies[k].hi <= hi))
      t->copies[j++] = t->copies[k];
  t->ncopies = j;
  int cap = (int)(sizeof t->copies / sizeof t->copies[0]);
  if (t->ncopies == cap) {
    memmove(t->copies, t->copies + 1, (size_t)(cap - 1) * sizeof t->copies[0]);
    t->ncopies--;
  }
  t->copies[t->ncopies++] = (struct ndt_copy){r, lo, hi};
}

static void dropped_copies(ndt_tile *t) {
  t->everywhere = 0;
  t->ncopies = 0;
}

void ndt_tile_everywhere(ndt_tile *t) {
  t->everywhere = 1;
  t->ncopies = 0;
}

static ndt_status dist_submit(const char *name, ndt_task_fn fn, const void *arg,
                              size_t arg_size, const ndt_access *acc, int nacc,
                              ndt_store *const *stores, int nstores, int small) {
  int me = ndt_rank(), home = home_of(acc, nacc);
  int tag = (int)(task_seq++ % 32000);
  for (const char *c = name; *c; c++) task_hash = (task_hash ^ (unsigned char)*c) * 1099511628211ull;
  task_hash = (task_hash ^ (uint64_t)nacc) * 1099511628211ull;
  ndt_status st = NDT_OK;
  /* What travels to the home rank, decided alike on every rank: each
   * region the home rank lacks (a write's too: a strided write may leave
   * gaps). Most of a tile is fetched whole, so that the next tasks that
   * read it (a transpose's column blocks) find it there. */
  struct { int64_t lo, hi; int go; } f_small[32], *f = f_small;
  /* plain malloc: a failure here stops the program (every rank must take
   * the same steps), so no test may inject one */
  if (nacc > 32 && !(f = malloc((size_t)nacc * sizeof *f))) {
    fprintf(stderr, "ndtile rank %d: out of memory recording %s\n", me, name);
    ndt_abort(71);
  }
  for (int i = 0; i < nacc; i++) {
    ndt_tile *tl = acc[i].tile;
    f[i].go = !has_copy(tl, home, acc[i].lo, acc[i].hi) &&
              (acc[i].priv & (NDT_READ | NDT_DENSE)) != NDT_DENSE;
    f[i].lo = acc[i].lo;
    f[i].hi = acc[i].hi;
    if (2 * (f[i].hi - f[i].lo + 1) >= tl->len) {
      f[i].lo = tl->start;
      f[i].hi = tl->start + tl->len - 1;
    }
    if (f[i].go) add_copy(tl, home, f[i].lo, f[i].hi);
  }
  if (me == home) {
    int remote_writes = 0;
    for (int i = 0; i < nacc; i++) {
      ndt_tile *tl = acc[i].tile;
      /* buffers come on first use, also this rank's own (see ndt_store_new) */
      if (!ndt_tile_buffer(tl) && st == NDT_OK)
        st = ndt_error(NDT_ERR_NOMEM, "cannot allocate a tile of %lld bytes",
                       (long long)tl->len * tl->store->itemsize);
      if (tl->owner == me) continue;
      remote_writes |= acc[i].priv & NDT_WRITE;
      if (f[i].go) move_region(tl, f[i].lo, f[i].hi, tl->owner, tag, 0);
    }
    if (st == NDT_OK) st = local_submit(name, fn, arg, arg_size, acc, nacc, stores, nstores,
                                        small);
    /* a failure is reported on every rank at the next agreement (at once
     * for small == 2); the protocol goes on so no rank waits for a message
     * that never comes */
    if (st != NDT_OK && small != 2) local_failure(name, st);
    for (int i = 0; i < nacc && remote_writes; i++) {
      ndt_tile *tl = acc[i].tile;
      if (tl->owner != me && (acc[i].priv & NDT_WRITE))
        move_region(tl, acc[i].lo, acc[i].hi, tl->owner, tag, 1);
    }
  } else {
    for (int i = 0; i < nacc; i++)
      if (acc[i].tile->owner == me && f[i].go)
        move_region(acc[i].tile, f[i].lo, f[i].hi, home, tag, 1);
    for (int i = 0; i < nacc; i++)
      if (acc[i].tile->owner == me && (acc[i].priv & NDT_WRITE))
        move_region(acc[i].tile, acc[i].lo, acc[i].hi, home, tag, 0);
  }
  /* a write leaves the owner and the home rank with the only up-to-date
   * copies of what it wrote */
  for (int i = 0; i < nacc; i++)
    if (acc[i].priv & NDT_WRITE) dropped_copies(acc[i].tile);
  for (int i = 0; i < nacc; i++)
    if ((acc[i].priv & NDT_WRITE) && acc[i].tile->owner != home)
      add_copy(acc[i].tile, home, acc[i].lo, acc[i].hi);
  if (f != f_small) free(f);
  /* the caller's mistake (an index out of bounds), found by the home rank:
   * every rank raises it at this call */
  if (small == 2) return ndt_comm_agree(st);
  return NDT_OK;
}

ndt_status ndt_submit(const char *name, ndt_task_fn fn, const void *arg, size_t arg_size,
                      const ndt_access *acc, int nacc, ndt_store *const *stores, int nstores,
                      int small) {
  ndt_status st = ndt_runtime_ensure();
  if (st) return st;
  FLUSH(0, NULL, acc, nacc);
  if (ndt_distributed())
    return dist_submit(name, fn, arg, arg_size, acc, nacc, stores, nstores, small);
  return local_submit(name, fn, arg, arg_size, acc, nacc, stores, nstores, small);
}
