/* comm.c - many processes: the transport under control replication.
 *
 * Every rank runs the same program and records the same tasks in the same
 * order (sched.c), so both sides of every message know it is coming; this
 * file only moves bytes. Two threads call MPI, one at a time under mpi_lock
 * (MPI_THREAD_SERIALIZED): the recording thread posts collectives (and, with
 * devices, its own messages), and the progress thread (below) is the one
 * that waits: it moves the messages of dist.c's message tasks and completes
 * the recording thread's requests. Workers never touch MPI.
 *
 * Built without MPI, or started as a plain process, the runtime is rank 0
 * of 1 and none of this runs.
 *
 * The transport's own buffers (rank tables, send copies) come from plain
 * malloc, not ndt__malloc: they are taken on some ranks only and either have
 * a fallback or stop every rank, so an injected failure there would put the
 * ranks out of step instead of testing an error path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#ifdef NDT_HAVE_MPI
#include <mpi.h>
#endif

int ndt__comm_size_ = 1;
static int comm_rank, comm_started;
int ndt__comm_local_rank_ = 0, ndt__comm_local_size_ = 1;
#ifdef NDT_HAVE_MPI
static int spin_tests = NDT__MPI_SPIN_DEFAULT;   /* MPI_Test calls before a wait starts to sleep */
#endif
static ndt_comm_stats stats;
/* The exit status the program ends with, as the binding learnt it
 * (sys.exit); -1 while unknown. */
static int exit_code = -1;
/* The scheduler's side (ndt__comm_start). */
static ndt_comm_hooks up;
void ndt_set_exit_code(int code) { exit_code = code; }
/* Collectives made so far: with the tasks recorded (ndt__rt_task_seq), the
 * program's position, the same on every rank at the same point. */
#ifdef NDT_HAVE_MPI
static int64_t coll_seq;
static int64_t position(void) { return (up.task_seq ? up.task_seq() : 0) + coll_seq; }
#endif

/* Messages are cut into pieces of at most CHUNK bytes: counts stay in int,
 * and a rank that cannot allocate a buffer can still take part by
 * receiving into `discard` (the protocol must never stall on one rank). */
#define CHUNK ((int64_t)4 << 20)
#ifdef NDT_HAVE_MPI
static char *discard;
/* one MPI call at a time: the recording thread's and the progress thread's */
static pthread_mutex_t mpi_lock = PTHREAD_MUTEX_INITIALIZER;
static void mlock(void) { pthread_mutex_lock(&mpi_lock); }
static void munlock(void) { pthread_mutex_unlock(&mpi_lock); }
#endif

int ndt_rank(void) {
  ndt__runtime_ensure();
  return comm_rank;
}
int ndt_nranks(void) {
  ndt__runtime_ensure();
  return ndt__comm_size_;
}

void ndt_comm_stats_get(ndt_comm_stats *out) { *out = stats; }
void ndt_comm_stats_reset(void) { memset(&stats, 0, sizeof stats); }

#ifdef NDT_HAVE_MPI
/* 1 when a launcher started this process as one of several ranks. */
static int launched_by_mpi(void) {
  const char *force = getenv("NDTILE_MPI");
  if (force && *force) return atoi(force) != 0;
  static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                               "MPI_LOCALNRANKS", "MV2_COMM_WORLD_SIZE"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    if (getenv(vars[i])) return 1;
  return 0;   /* (srun sets PMI_* or PMIX_*; SLURM_* alone is also a batch script) */
}

static void progress_sends(int all);
static void posted_wait(void);

/* ---- ranks out of step ---------------------------------------------------
 * Every rank must make the same calls. When one does not - it ends
 * (sys.exit, the end of the script) while the others wait for it, or reads
 * an array the others do not read - MPI by itself hangs or fails with a
 * message about truncated messages. Instead:
 *   - a rank that ends sends an exit note (its position and exit status) to
 *     every other rank on `ctrl`, a communicator of its own, and waits for
 *     theirs before it finishes;
 *   - a rank waiting for a message or a collective looks for exit notes: a
 *     note from a rank that ended before this rank's position, or one whose
 *     sender is still gone GRACE_S later, means it waits for nothing; it
 *     says so and stops every rank (with the program's exit status);
 *   - every agreement (the collective at each read) compares positions;
 *   - a message of the wrong size is reported as ranks out of step.
 * Every message names the cause and what to fix. */
static MPI_Comm ctrl = MPI_COMM_NULL;
#define TAG_EXIT 1
#define GRACE_S 3.0
typedef struct { long long pos; int code; } exit_note;
static int notes_seen;                 /* exit notes received */
static int ended_together;             /* every rank ended at the same point */
static char *peer_gone;                /* peer_gone[r]: r sent its exit note */
static long long *peer_pos;            /* its position and exit status */
static int *peer_code;

static const char *doing(const char *what) {
  if (strstr(what, "Isend") || strstr(what, "Irecv")) return "exchanging tile data";
  return "reading an array or agreeing on a value with the other ranks";
}

static void say_code(char *out, size_t cap, int code) {
  if (code < 0) snprintf(out, cap, "the end of the script, or an exit");
  else snprintf(out, cap, "exit status %d, e.g. sys.exit(%d)", code, code);
}

static void out_of_step_abort(int code) {
  fflush(stdout);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code > 0 ? code : 1);
  _exit(code > 0 ? code : 1);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void peer_ended_abort(int peer, const char *what) {
  char how[96];
  say_code(how, sizeof how, peer_code[peer]);
  fprintf(stderr,
          "ndtile rank %d of %d: rank %d ended its program (%s) while this rank waits for it "
          "(%s, in %s). Every rank must make the same ndtile calls: an exit, a return or a read "
          "of an array (print, float(), numpy.asarray) on some ranks only leaves the others "
          "waiting. Stopping every rank.\n",
          comm_rank, ndt__comm_size_, peer, how, doing(what), what);
  out_of_step_abort(peer_code[peer]);
}

/* Takes the exit notes that came; 1 when one says a wait for something
 * of position pos cannot end (*peer tells who). *first_note: when this wait
 * first saw a note. Under mpi_lock. */
static int check_exit_notes(double *first_note, int *peer, long long pos) {
  for (;;) {
    int flag = 0;
    MPI_Status stt;
    if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_EXIT, ctrl, &flag, &stt) != MPI_SUCCESS || !flag) break;
    exit_note n;
    MPI_Recv(&n, (int)sizeof n, MPI_BYTE, stt.MPI_SOURCE, TAG_EXIT, ctrl, MPI_STATUS_IGNORE);
    peer_gone[stt.MPI_SOURCE] = 1;
    peer_pos[stt.MPI_SOURCE] = n.pos;
    peer_code[stt.MPI_SOURCE] = n.code;
    notes_seen++;
  }
  if (!notes_seen) return 0;
  for (int r = 0; r < ndt__comm_size_; r++) {
    if (!peer_gone[r]) continue;
    *peer = r;
    /* it ended before the point this rank waits at: it will never come */
    if (peer_pos[r] < pos) return 1;
    /* it ended at or after this point: what it sent is on its way; a wait
     * that still lasts GRACE_S later waits for nothing */
    if (*first_note == 0) *first_note = now_s();
    else if (now_s() - *first_note > GRACE_S) return 1;
  }
  return 0;
}

static void die(const char *what, int rc) {
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0, cls = 0;
  MPI_Error_string(rc, msg, &len);
  MPI_Error_class(rc, &cls);
  if (cls == MPI_ERR_TRUNCATE) {
    fprintf(stderr,
            "ndtile rank %d of %d: the ranks are out of step: %s got a message of another size "
            "than this rank expects (%s). Every rank must make the same ndtile calls: a read of "
            "an array (print, float(), numpy.asarray) or an operation on some ranks only puts "
            "them out of step. Stopping every rank.\n",
            comm_rank, ndt__comm_size_, what, doing(what));
    out_of_step_abort(1);
  }
  fprintf(stderr, "ndtile rank %d: %s failed: %s\n", comm_rank, what, msg);
  MPI_Abort(MPI_COMM_WORLD, 70);
}

/* At exit, many ranks: tell the others, wait for their notes, and finish
 * together only when every rank ended at the same point. */
static void exit_together(void) {
  static int done;
  if (done) return;
  done = 1;
  exit_note mine = {position(), exit_code};
  MPI_Request *rq = malloc((size_t)ndt__comm_size_ * sizeof *rq);
  int nrq = 0;
  mlock();
  for (int r = 0; r < ndt__comm_size_ && rq; r++)
    if (r != comm_rank)
      MPI_Isend(&mine, (int)sizeof mine, MPI_BYTE, r, TAG_EXIT, ctrl, &rq[nrq++]);
  munlock();
  double dummy = 0;
  int peer = -1;
  for (;;) {
    mlock();
    check_exit_notes(&dummy, &peer, mine.pos);
    munlock();
    if (notes_seen >= ndt__comm_size_ - 1) break;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  for (int r = 0; r < ndt__comm_size_; r++) {
    if (r == comm_rank || peer_pos[r] == mine.pos) continue;
    /* the lowest rank of those that differ says it */
    char how[96];
    say_code(how, sizeof how, peer_code[r]);
    fprintf(stderr,
            "ndtile rank %d of %d: the ranks ended at different points of the program "
            "(rank %d after %lld steps, this rank after %lld; rank %d: %s). Every rank must "
            "make the same ndtile calls: an array read or an operation on some ranks only puts "
            "them out of step. Stopping every rank.\n",
            comm_rank, ndt__comm_size_, r, (long long)peer_pos[r], (long long)mine.pos, r, how);
    out_of_step_abort(exit_code > 0 ? exit_code : 1);
  }
  if (rq) {
    mlock();
    MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
    munlock();
    free(rq);
  }
  /* the collectives of the last sync and MPI_Finalize follow, on every rank */
  ended_together = 1;
}

static void progress_stop(void);
static void comm_at_exit(void) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (fin) return;
  if (ndt__comm_size_ > 1 && ctrl != MPI_COMM_NULL) exit_together();
  if (up.finalize) up.finalize();   /* workers stop, pending tasks end first */
  posted_wait();
  progress_sends(1);
  progress_stop();   /* nothing is in flight now */
  MPI_Finalize();
}
#define CHECK(what, call)                 \
  do {                                    \
    int rc_ = (call);                     \
    if (rc_ != MPI_SUCCESS) die(what, rc_); \
  } while (0)

/* ---- the progress thread ------------------------------------------------
 * MPI moves bytes only while some thread calls it (Open MPI's shared
 * memory transport has no blocking wait: MPI_Wait spins), so one thread per
 * rank does all the waiting: it starts dist.c's messages when their tasks
 * become ready, tests them, and finishes their tasks when they complete;
 * and it completes the recording thread's own requests (the collectives),
 * which sleeps on a condition variable meanwhile instead of polling. With
 * nothing in flight it sleeps on q_cond. With something in flight, while
 * someone waits for it (a worker has nothing to run, or the recording
 * thread waits for a collective) it tests spin_tests times, then sleeps
 * from 1 us, doubling to 100 us, until something moves; while the workers
 * all have work, a message done a little late delays nothing, and it tests
 * every SLOW_NS only (each test and sleep is two context switches: at
 * 10,000 a second, a tenth of a core on two shared ones). New messages and
 * a caller's request wake it at once, and so does a worker that runs out
 * of work (ndt__comm_kick) while messages are in flight. Its MPI calls and
 * the recording thread's take turns under mpi_lock.
 *
 * Every wake is two context switches in the kernel, and 2 ranks of the
 * Python suite make some 10,000 collectives and messages a second (a third
 * of each rank's CPU time was system time), so a thread is woken only where
 * it sleeps, once per sleep, and never into a lock the waker still holds:
 *   - the progress thread says where it is (prog_state, stored under
 *     q_lock before it sleeps); a waker that finds it running (PROG_RUN)
 *     wakes nobody: it looks at the queue, the watch, kicked and the idle
 *     workers again before it sleeps. The first waker of a sleep sets
 *     PROG_RUN, so a burst of messages wakes it once; a kick does not wake
 *     the idle sleep (nothing in flight: no work), its flag makes the next
 *     round with messages in flight a fast one;
 *   - signals go out after the unlock, and a caller waits for its
 *     collective on w_lock, not q_lock: the woken thread would otherwise
 *     wake only to sleep again on a lock the other one holds (with 1 worker
 *     each, 2 ranks of test_scan.py made 526,000 voluntary context switches,
 *     296,000 now). */
#define SLOW_NS 1000000L
enum { PROG_RUN, PROG_POLL, PROG_IDLE, PROG_SLOW };
#define ANY_SLEEP (1u << PROG_POLL | 1u << PROG_IDLE | 1u << PROG_SLOW)   /* (progress_wake) */
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;   /* new work, or stop */
/* a caller's wait ended (its own lock: the woken caller and the progress
 * thread, which goes on to q_lock, do not meet on one lock) */
static pthread_mutex_t w_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t w_cond = PTHREAD_COND_INITIALIZER;
static pthread_t prog_thread;
static int prog_on, prog_stop;
static atomic_int prog_state = PROG_RUN;   /* where the progress thread is (see above) */
static atomic_int kicked;   /* a worker ran out of work since the last fast round */
static ndt_comm_msg *q_head, **q_tail = &q_head;   /* started, not yet posted */
/* the recording thread's requests being waited for (one wait at a time) */
typedef struct { MPI_Request *r; int n; const char *what; long long pos; int done; } watched;
static watched *watch;
/* messages travel on a communicator of their own; their tags count the
 * messages of each pair of ranks in program order (both sides count alike) */
static MPI_Comm data_comm = MPI_COMM_NULL;
static int64_t *tags_to, *tags_from;
static int64_t tag_space = 32768;

static void post_piece(ndt_comm_msg *m) {
  int64_t k = m->n - m->off < CHUNK ? m->n - m->off : CHUNK;
  char *p = m->buf ? m->buf + m->off : discard;
  MPI_Request *r = (MPI_Request *)(void *)m->req;
  if (m->send) CHECK("MPI_Isend", MPI_Isend(p, (int)k, MPI_BYTE, m->peer, m->tag, data_comm, r));
  else CHECK("MPI_Irecv", MPI_Irecv(p, (int)k, MPI_BYTE, m->peer, m->tag, data_comm, r));
}

static void timed_wait(pthread_cond_t *c, pthread_mutex_t *l, long ns) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += ns;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  pthread_cond_timedwait(c, l, &ts);
}

/* Wakes the progress thread if it sleeps in one of `states` (bits
 * 1 << state). A waker that reads another
 * state takes no lock: the progress thread stores its state (sequentially
 * consistent) before it reads what it would be woken for (q_head and the
 * watch under q_lock, the idle workers), so one of the two sees the other;
 * a state read under q_lock is where it sleeps now (it stores the state
 * under q_lock and sleeps without releasing it in between). */
static void progress_wake(unsigned states) {
  if (!(states >> atomic_load(&prog_state) & 1)) return;
  pthread_mutex_lock(&q_lock);
  int wake = states >> atomic_load(&prog_state) & 1;
  if (wake) atomic_store(&prog_state, PROG_RUN);
  pthread_mutex_unlock(&q_lock);
  if (wake) pthread_cond_signal(&q_cond);
}

static void *progress_main(void *arg) {
  NDT_UNUSED(arg);
  ndt_comm_msg *active = NULL;   /* posted, in flight */
  int spins = 0;
  long ns = 1000;
  double first_note = 0;
  pthread_mutex_lock(&q_lock);
  for (;;) {
    atomic_store(&prog_state, PROG_RUN);
    ndt_comm_msg *fresh = q_head;
    q_head = NULL;
    q_tail = &q_head;
    watched *w = watch;
    pthread_mutex_unlock(&q_lock);
    int moved = fresh != NULL, wdone = 0;
    ndt_comm_msg *fin = NULL;
    mlock();
    while (fresh) {
      ndt_comm_msg *m = fresh;
      fresh = m->next;
      m->off = 0;
      post_piece(m);
      m->next = active;
      active = m;
    }
    for (ndt_comm_msg **pp = &active; *pp;) {
      ndt_comm_msg *m = *pp;
      int flag = 0;
      CHECK(m->send ? "MPI_Isend" : "MPI_Irecv",
            MPI_Test((MPI_Request *)(void *)m->req, &flag, MPI_STATUS_IGNORE));
      if (!flag) {
        pp = &m->next;
        continue;
      }
      moved = 1;
      m->off += m->n - m->off < CHUNK ? m->n - m->off : CHUNK;
      if (m->off < m->n) {   /* the next piece: after this one, so in order */
        post_piece(m);
        pp = &m->next;
        continue;
      }
      *pp = m->next;
      m->next = fin;
      fin = m;
    }
    if (w) {
      CHECK(w->what, MPI_Testall(w->n, w->r, &wdone, MPI_STATUSES_IGNORE));
      moved |= wdone;
    }
    if (!moved && spins >= spin_tests && (active || w) && ctrl != MPI_COMM_NULL &&
        !ended_together) {
      /* a rank that ended may be what this rank waits for */
      long long pos = w && !wdone ? w->pos : LLONG_MAX;
      for (ndt_comm_msg *m = active; m; m = m->next)
        if (m->pos < pos) pos = m->pos;
      int peer = -1;
      if (check_exit_notes(&first_note, &peer, pos))
        peer_ended_abort(peer, w && !wdone ? w->what : active->send ? "MPI_Isend" : "MPI_Irecv");
    }
    munlock();
    while (fin) {   /* (done may free m: the task that holds it) */
      ndt_comm_msg *m = fin;
      fin = m->next;
      m->done(m);
    }
    if (wdone) {
      pthread_mutex_lock(&q_lock);
      watch = NULL;   /* before done: the caller's next watch comes after it */
      pthread_mutex_unlock(&q_lock);
      pthread_mutex_lock(&w_lock);
      w->done = 1;    /* (w is the caller's: once done is set it may be gone) */
      pthread_mutex_unlock(&w_lock);
      pthread_cond_broadcast(&w_cond);
    }
    pthread_mutex_lock(&q_lock);
    if (moved || q_head) {
      spins = 0;
      ns = 1000;
      first_note = 0;
      continue;
    }
    if (!active && !watch) {
      if (prog_stop) break;
      atomic_store(&prog_state, PROG_IDLE);
      pthread_cond_wait(&q_cond, &q_lock);
      continue;
    }
    /* stored before kicked and the idle workers are read (see progress_wake) */
    atomic_store(&prog_state, PROG_SLOW);
    if (!watch && !atomic_load(&kicked) && up.idle_workers && up.idle_workers() == 0) {
      timed_wait(&q_cond, &q_lock, SLOW_NS);
      continue;
    }
    atomic_store(&kicked, 0);
    if (spins++ < spin_tests) continue;
    atomic_store(&prog_state, PROG_POLL);
    timed_wait(&q_cond, &q_lock, ns);
    if (ns < 100000) ns *= 2;
  }
  pthread_mutex_unlock(&q_lock);
  return NULL;
}

static void progress_stop(void) {
  if (!prog_on) return;
  pthread_mutex_lock(&q_lock);
  prog_stop = 1;
  pthread_cond_signal(&q_cond);
  pthread_mutex_unlock(&q_lock);
  pthread_join(prog_thread, NULL);
  prog_on = 0;
}

/* Waits for requests without holding a core: MPI's blocking calls spin,
 * and this rank's workers (and the other ranks on a shared node) need the
 * cores meanwhile. The progress thread tests them while this thread sleeps
 * (sleeps of its own cost more: a timer each, and on a loaded machine 60 us
 * or more however short they ask for); without a progress thread (at exit)
 * a short spin here, then sleeps growing to 100 us. */
static void wait_all(MPI_Request *r, int n, const char *what) {
  double t0 = up.trace_now ? up.trace_now() : 0;
  if (prog_on) {
    watched w = {r, n, what, position(), 0};
    pthread_mutex_lock(&q_lock);
    watch = &w;
    pthread_mutex_unlock(&q_lock);
    progress_wake(ANY_SLEEP);
    pthread_mutex_lock(&w_lock);
    while (!w.done) pthread_cond_wait(&w_cond, &w_lock);
    pthread_mutex_unlock(&w_lock);
    if (up.trace_caller) up.trace_caller(what, t0);
    return;
  }
  int done = 0;
  long ns = 1000;
  double first_note = 0;
  int peer = -1;
  for (int i = 0;; i++) {
    mlock();
    CHECK(what, MPI_Testall(n, r, &done, MPI_STATUSES_IGNORE));
    munlock();
    if (done) {
      if (up.trace_caller) up.trace_caller(what, t0);
      return;
    }
    if (i < spin_tests) continue;
    /* a rank that ended may be what this wait waits for */
    mlock();
    int gone = ctrl != MPI_COMM_NULL && !ended_together &&
               check_exit_notes(&first_note, &peer, position());
    munlock();
    if (gone) peer_ended_abort(peer, what);
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
    if (ns < 100000) ns *= 2;
  }
}

/* Broadcasts posted and not waited for yet (ndt__comm_bcast_post): the
 * recording thread's next wait takes them with its own request, one hand-off
 * to the progress thread for all (a read of many tiles made one each). */
static MPI_Request *posted;
static int nposted, capposted;

/* Adds r to the posted requests; -1 when there is no room (plain malloc:
 * see the top). */
static int post_req(MPI_Request r) {
  if (nposted == capposted) {
    int c = capposted ? 2 * capposted : 64;
    MPI_Request *q = realloc(posted, (size_t)c * sizeof *q);
    if (!q) return -1;
    posted = q;
    capposted = c;
  }
  posted[nposted++] = r;
  return 0;
}

/* Waits for the posted broadcasts. */
static void posted_wait(void) {
  if (!nposted) return;
  wait_all(posted, nposted, "MPI_Ibcast");
  nposted = 0;
}

/* Waits for one request of the recording thread, and for the broadcasts
 * posted before it. */
static void wait_req(MPI_Request *r, const char *what) {
  if (!nposted) {
    wait_all(r, 1, what);
  } else if (post_req(*r) == 0) {
    wait_all(posted, nposted, what);
    nposted = 0;
  } else {
    posted_wait();
    wait_all(r, 1, what);
  }
}
#endif

void ndt__comm_kick(void) {
#ifdef NDT_HAVE_MPI
  if (!prog_on) return;
  atomic_store(&kicked, 1);   /* the next round is a fast one (read after PROG_SLOW is stored) */
  progress_wake(1u << PROG_SLOW | 1u << PROG_POLL);
#endif
}

int ndt__comm_async(void) {
#ifdef NDT_HAVE_MPI
  return prog_on;
#else
  return 0;
#endif
}

void ndt__comm_msg_init(ndt_comm_msg *m, void *buf, int64_t n, int peer, int send) {
  memset(m, 0, sizeof *m);
  m->buf = buf;
  m->n = n;
  m->peer = peer;
  m->send = send;
#ifdef NDT_HAVE_MPI
  int64_t *c = send ? &tags_to[peer] : &tags_from[peer];
  m->tag = (int)(*c % tag_space);
  (*c)++;
  m->pos = position();
#endif
  int64_t pieces = n > 0 ? (n + CHUNK - 1) / CHUNK : 1;
  if (send) {
    stats.sends += pieces;
    stats.send_bytes += n;
  } else {
    stats.recvs += pieces;
    stats.recv_bytes += n;
  }
}

void ndt__comm_msg_start(ndt_comm_msg *m) {
#ifdef NDT_HAVE_MPI
  m->t0 = up.trace_now ? up.trace_now() : 0;
  m->next = NULL;
  pthread_mutex_lock(&q_lock);
  *q_tail = m;
  q_tail = &m->next;
  pthread_mutex_unlock(&q_lock);
  progress_wake(ANY_SLEEP);
#else
  NDT_UNUSED(m);
#endif
}

#ifdef NDT_HAVE_MPI
static void run_done(ndt_comm_msg *m) {
  pthread_mutex_lock(&w_lock);
  *(int *)m->ctx = 1;
  pthread_cond_broadcast(&w_cond);
  pthread_mutex_unlock(&w_lock);
}
#endif

void ndt__comm_msg_run(ndt_comm_msg *m) {
#ifdef NDT_HAVE_MPI
  int done = 0;
  m->done = run_done;
  m->ctx = &done;
  ndt__comm_msg_start(m);
  pthread_mutex_lock(&w_lock);
  while (!done) pthread_cond_wait(&w_cond, &w_lock);
  pthread_mutex_unlock(&w_lock);
#else
  NDT_UNUSED(m);
#endif
}

#ifndef NDT_HAVE_MPI
/* A build without MPI started by a launcher as one of several ranks runs
 * as a program of its own on each: N copies computing and printing
 * everything. Say so once (from the launcher's rank 0), not silently. */
static void warn_launched_alone(void) {
  static const char *sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"};
  static const char *ranks[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK"};
  const char *force = getenv("NDTILE_MPI");
  if (force && *force && atoi(force) == 0) return;   /* asked to run alone */
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    const char *n = getenv(sizes[i]), *r = getenv(ranks[i]);
    if (!n || atoi(n) <= 1) continue;
    if (!r || atoi(r) == 0)
      fprintf(stderr, "ndtile: started as one of %d ranks, but this ndtile was built without "
              "MPI: each rank runs the whole program alone (%d copies). Build ndtile from source "
              "with an MPI library installed to spread arrays over ranks (NDTILE_MPI=0 silences "
              "this).\n", atoi(n), atoi(n));
    return;
  }
}
#endif

#ifdef NDT_HAVE_MPI
/* the node's ranks (node_place; ndt__comm_node_gather) */
static MPI_Comm node_comm = MPI_COMM_NULL;
#endif

/* The node split (this rank's local rank and the node's ranks: device.c
 * shares the node's GPUs by them; the node's communicator is kept for
 * ndt__comm_node_gather) and NDTILE_BIND=cores (the launcher sets
 * it when the ranks of a node and
 * their workers fit its cores): each rank keeps to cores of its own, the
 * node's allowed CPUs cut into slices of NDTILE_WORKERS in local-rank order,
 * and so does every thread it has and will start. Unbound, the ranks'
 * threads wander: after another process (or the other rank) ran hot on one
 * core, the scheduler's load estimate, which decays over tens of
 * milliseconds, put both ranks on the other core, and the X-ray job on 2
 * ranks ran at 160 frames/s instead of 218 whenever its batches came in
 * quick succession (examples/xray/compare.py). Done before any thread of
 * this rank's runtime starts; MPI's own threads are moved too. A slice that
 * does not fit (more ranks times workers than CPUs) leaves the rank
 * unbound. */
static void node_place(void) {
#ifdef __linux__
  /* (a collective: every rank takes part, whatever its own setting says) */
  MPI_Comm node;
  int lr = 0, ln = 1;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
      MPI_SUCCESS)
    return;
  MPI_Comm_rank(node, &lr);
  MPI_Comm_size(node, &ln);
  MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
  node_comm = node;
  ndt__comm_local_rank_ = lr;
  ndt__comm_local_size_ = ln;
  if (ndt__env_int("NDTILE_BIND", 0) != 1) return;
  cpu_set_t all, mine;
  if (sched_getaffinity(0, sizeof all, &all)) return;
  int have = CPU_COUNT(&all);
  int w = (int)ndt__env_int("NDTILE_WORKERS", 0);
  if (w < 1) w = have / ln;
  if (w < 1 || (int64_t)w * ln > have) {
    ndt__verbose("rank %d: not bound (NDTILE_BIND=cores): %d ranks on this node with %d "
                 "workers each need more than its %d CPUs", comm_rank, ln, w, have);
    return;
  }
  CPU_ZERO(&mine);
  int first = -1, last = -1;
  for (int c = 0, k = 0; c < CPU_SETSIZE && k < (lr + 1) * w; c++) {
    if (!CPU_ISSET(c, &all)) continue;
    if (k++ < lr * w) continue;
    CPU_SET(c, &mine);
    if (first < 0) first = c;
    last = c;
  }
  /* every thread of the process (sched_setaffinity(0) is the caller's
   * only); threads started later inherit the caller's */
  DIR *d = opendir("/proc/self/task");
  if (d) {
    struct dirent *e;
    while ((e = readdir(d)))
      if (e->d_name[0] != '.') sched_setaffinity((pid_t)atoi(e->d_name), sizeof mine, &mine);
    closedir(d);
  }
  sched_setaffinity(0, sizeof mine, &mine);
  ndt__verbose("rank %d (local %d of %d): bound to CPUs %d-%d (NDTILE_BIND=cores)", comm_rank,
               lr, ln, first, last);
#endif
}

void ndt__comm_start(const ndt_comm_hooks *h) {
  if (h) up = *h;
  if (comm_started) return;
  comm_started = 1;
#ifdef NDT_HAVE_MPI
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) {
    if (!launched_by_mpi()) return;
    int provided;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
      fprintf(stderr, "ndtile: MPI_Init_thread failed; running as a single process\n");
      return;
    }
    atexit(comm_at_exit);   /* MPI started here ends here */
    /* a program this rank starts is a program of its own, not a rank */
    setenv("NDTILE_MPI", "0", 1);
  }
  /* errors come back to die(), which says what they mean and stops every
   * rank (MPI's own fatal handler would name only the error class) */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &comm_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ndt__comm_size_);
  if (ndt__comm_size_ > 1) {
    ndt__fp_ranks_ = 1;   /* floating-point records agreed between ranks (fperr.c) */
    /* exit notes travel apart from the program's messages */
    if (MPI_Comm_dup(MPI_COMM_WORLD, &ctrl) != MPI_SUCCESS) ctrl = MPI_COMM_NULL;
    else MPI_Comm_set_errhandler(ctrl, MPI_ERRORS_RETURN);
    peer_gone = calloc((size_t)ndt__comm_size_, 1);
    peer_pos = calloc((size_t)ndt__comm_size_, sizeof *peer_pos);
    peer_code = calloc((size_t)ndt__comm_size_, sizeof *peer_code);
    if (!peer_gone || !peer_pos || !peer_code) {
      fprintf(stderr, "ndtile rank %d: cannot allocate the rank table\n", comm_rank);
      MPI_Abort(MPI_COMM_WORLD, 71);
    }
    node_place();
    prctl(PR_SET_TIMERSLACK, 1UL);   /* short sleeps in wait_req stay short */
    spin_tests = (int)ndt__env_int("NDTILE_MPI_SPIN", spin_tests);
    discard = malloc(CHUNK);
    tags_to = calloc((size_t)ndt__comm_size_, sizeof *tags_to);
    tags_from = calloc((size_t)ndt__comm_size_, sizeof *tags_from);
    if (!discard || !tags_to || !tags_from) {
      fprintf(stderr, "ndtile rank %d: cannot allocate the message buffer\n", comm_rank);
      MPI_Abort(MPI_COMM_WORLD, 71);
    }
    /* the tags messages may use (at least 32767 by the standard) */
    int *ub = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    if (flag && ub && *ub > 0) tag_space = (int64_t)*ub + 1;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &data_comm) == MPI_SUCCESS) {
      MPI_Comm_set_errhandler(data_comm, MPI_ERRORS_RETURN);
      prog_on = pthread_create(&prog_thread, NULL, progress_main, NULL) == 0;
    }
  }
#else
  warn_launched_alone();
#endif
}

void ndt_abort(int code) {
  fflush(stdout);
  fflush(stderr);
#ifdef NDT_HAVE_MPI
  if (ndt__comm_size_ > 1) MPI_Abort(MPI_COMM_WORLD, code ? code : 1);
#endif
  _exit(code);
}

void ndt_end_together(void) {
#ifdef NDT_HAVE_MPI
  int fin = 0;
  MPI_Finalized(&fin);
  if (!fin && comm_started && ndt__comm_size_ > 1 && ctrl != MPI_COMM_NULL) exit_together();
#endif
}

void ndt__comm_node_gather(const void *mine, int64_t n, void *all) {
#ifdef NDT_HAVE_MPI
  if (node_comm != MPI_COMM_NULL && ndt__comm_local_size_ > 1) {
    MPI_Request r;
    mlock();
    CHECK("MPI_Iallgather", MPI_Iallgather(mine, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE,
                                           node_comm, &r));
    munlock();
    wait_req(&r, "MPI_Iallgather");
    stats.collectives++;
    stats.coll_bytes += n * ndt__comm_local_size_;
    return;
  }
#endif
  memcpy(all, mine, (size_t)n);
}

ndt_status ndt_barrier(void) {
  ndt__runtime_ensure();
#ifdef NDT_HAVE_MPI
  if (ndt__comm_size_ > 1) {
    MPI_Request r;
    mlock();
    CHECK("MPI_Ibarrier", MPI_Ibarrier(MPI_COMM_WORLD, &r));
    munlock();
    wait_req(&r, "MPI_Ibarrier");
    stats.collectives++;
    coll_seq++;
  }
#endif
  return NDT_OK;
}

#ifdef NDT_HAVE_MPI
/* Sends in flight: the sender copies the bytes and goes on recording; the
 * receiver takes them when its program gets there. Bounded, so a rank far
 * ahead of its peers does not fill its memory with copies. */
typedef struct pending { MPI_Request r; char *copy; int64_t n; struct pending *next; } pending;
static pending *sends_head, **sends_tail = &sends_head;
static int64_t sends_bytes;
#define SENDS_MAX ((int64_t)256 << 20)

/* Frees the sends that completed; with `all`, waits for every one. */
static void progress_sends(int all) {
  pending **pp = &sends_head;
  while (*pp) {
    pending *q = *pp;
    int done = 0;
    if (all) {
      wait_req(&q->r, "MPI_Isend");
      done = 1;
    } else {
      mlock();
      CHECK("MPI_Test", MPI_Test(&q->r, &done, MPI_STATUS_IGNORE));
      munlock();
    }
    if (!done) {
      pp = &q->next;
      continue;
    }
    *pp = q->next;
    sends_bytes -= q->n;
    free(q->copy);
    free(q);
  }
  sends_tail = pp;
}
#endif

void ndt__comm_send(const void *buf, int64_t n, int peer, int tag) {
#ifdef NDT_HAVE_MPI
  const char *p = buf;   /* NULL: dummy bytes (the sender had no buffer) */
  progress_sends(0);
  for (int64_t o = 0; o < n; o += CHUNK) {
    int m = (int)(n - o < CHUNK ? n - o : CHUNK);
    pending *q = malloc(sizeof *q);
    char *copy = q ? malloc((size_t)m) : NULL;
    stats.sends++;
    stats.send_bytes += m;
    if (!copy) {   /* no memory for a copy: send from the tile and wait */
      free(q);
      MPI_Request r;
      mlock();
      CHECK("MPI_Isend", MPI_Isend(p ? p + o : discard, m, MPI_BYTE, peer, tag,
                                   MPI_COMM_WORLD, &r));
      munlock();
      wait_req(&r, "MPI_Isend");
      continue;
    }
    memcpy(copy, p ? p + o : discard, (size_t)m);
    *q = (pending){.copy = copy, .n = m, .next = NULL};
    mlock();
    CHECK("MPI_Isend", MPI_Isend(copy, m, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &q->r));
    munlock();
    *sends_tail = q;
    sends_tail = &q->next;
    sends_bytes += m;
    while (sends_bytes > SENDS_MAX && sends_head) {   /* the oldest first */
      pending *h = sends_head;
      wait_req(&h->r, "MPI_Isend");
      progress_sends(0);
    }
  }
#else
  NDT_UNUSED(buf), NDT_UNUSED(n), NDT_UNUSED(peer), NDT_UNUSED(tag);
#endif
}

void ndt__comm_recv(void *buf, int64_t n, int peer, int tag) {
#ifdef NDT_HAVE_MPI
  char *p = buf;
  for (int64_t o = 0; o < n; o += CHUNK) {
    int m = (int)(n - o < CHUNK ? n - o : CHUNK);
    MPI_Request r;
    mlock();
    CHECK("MPI_Irecv", MPI_Irecv(p ? p + o : discard, m, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                                 &r));
    munlock();
    wait_req(&r, "MPI_Irecv");
    stats.recvs++;
    stats.recv_bytes += m;
  }
#else
  NDT_UNUSED(buf), NDT_UNUSED(n), NDT_UNUSED(peer), NDT_UNUSED(tag);
#endif
}

/* buf may be NULL on a rank that is not root (its copy is dropped). */
void ndt__comm_bcast(void *buf, int64_t n, int root) {
#ifdef NDT_HAVE_MPI
  char *p = buf;
  coll_seq++;
  for (int64_t o = 0; o < n; o += CHUNK) {
    int m = (int)(n - o < CHUNK ? n - o : CHUNK);
    MPI_Request r;
    mlock();
    CHECK("MPI_Ibcast", MPI_Ibcast(p ? p + o : discard, m, MPI_BYTE, root, MPI_COMM_WORLD, &r));
    munlock();
    wait_req(&r, "MPI_Ibcast");
    stats.collectives++;
    stats.coll_bytes += m;
  }
#else
  NDT_UNUSED(buf), NDT_UNUSED(n), NDT_UNUSED(root);
#endif
}

/* A broadcast whose bytes are wanted only after the recording thread's next
 * wait (a collective: ndt__comm_agree, ndt__comm_step, another broadcast),
 * which waits for it too. */
void ndt__comm_bcast_post(void *buf, int64_t n, int root) {
#ifdef NDT_HAVE_MPI
  char *p = buf;
  if (!p) {   /* dropped bytes go to the one discard buffer: one at a time */
    ndt__comm_bcast(buf, n, root);
    return;
  }
  coll_seq++;
  for (int64_t o = 0; o < n; o += CHUNK) {
    int m = (int)(n - o < CHUNK ? n - o : CHUNK);
    MPI_Request r;
    mlock();
    CHECK("MPI_Ibcast", MPI_Ibcast(p + o, m, MPI_BYTE, root, MPI_COMM_WORLD, &r));
    munlock();
    if (post_req(r)) wait_req(&r, "MPI_Ibcast");
    stats.collectives++;
    stats.coll_bytes += m;
  }
#else
  NDT_UNUSED(buf), NDT_UNUSED(n), NDT_UNUSED(root);
#endif
}

ndt_status ndt_bcast(void *buf, size_t n, int root) {
  ndt__runtime_ensure();
  if (root < 0 || root >= ndt__comm_size_)
    return ndt__error(NDT_ERR_VALUE, "root %d is not a rank (there are %d)", root,
                     ndt__comm_size_);
  if (ndt__comm_size_ > 1) ndt__comm_bcast(buf, (int64_t)n, root);
  return NDT_OK;
}

/* The one agreement collective. Every rank contributes its status (v[0]:
 * its rank when it failed), its position in the program and the hash of
 * its tasks (each with its mirror, so one MIN finds a disagreement), and the
 * kind of agreement (a status, or a read's step check: each rank must be at
 * the same kind). All agreements have this one shape, so ranks at different
 * points still meet in one collective and see that they are out of step
 * instead of hanging. (Fusion's agreement on which results are alive, an or
 * of 64 bits, went in issue 19: fusion.c.) A status agreement also carries
 * the floating-point records' numbers from FP_SETTLED on (fp_share below),
 * and a small read's bytes (AG_PAY0 on: ndt__comm_agree_read). */
enum {
  AG_STATUS = 1, AG_STEP = 3, AG_HEAD = 7,
  FP_SETTLED = AG_HEAD, FP_CLASS0 = AG_HEAD + 1, FP_CLASSES = 62,
  AG_PAY0 = FP_CLASS0 + FP_CLASSES, AG_N = AG_PAY0 + NDT__AGREE_WORDS
};

#ifdef NDT_HAVE_MPI
static void agreement(long long *v, long long *w) {
  long long pos = position(), h = up.task_hash ? up.task_hash() : 0;
  /* -h overflows for LLONG_MIN only; ~h is its exact mirror */
  v[1] = pos, v[2] = -pos, v[3] = h, v[4] = ~h;
  MPI_Request r;
  mlock();
  CHECK("MPI_Iallreduce", MPI_Iallreduce(v, w, AG_N, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD, &r));
  munlock();
  wait_req(&r, "MPI_Iallreduce");
  coll_seq++;
  stats.collectives++;
  stats.coll_bytes += AG_N * (int64_t)sizeof *v;
  if (w[1] != -w[2] || w[3] != ~w[4] || w[5] != -w[6]) {
    if (comm_rank != 0) {   /* rank 0 says it; the others wait a moment for that */
      struct timespec ts = {1, 0};
      nanosleep(&ts, NULL);
    }
    char where[128];
    if (w[5] != -w[6])
      snprintf(where, sizeof where, "a read's check met an agreement on a status");
    else if (w[1] > -w[2] || w[1] < 0 || w[1] > pos || -w[2] < pos)   /* not our numbers */
      snprintf(where, sizeof where, "this rank's agreement met another kind of "
               "collective on another rank");
    else if (w[1] == -w[2])
      snprintf(where, sizeof where, "after as many steps (%lld), not the same ones", pos);
    else
      snprintf(where, sizeof where, "after %lld to %lld steps; this rank after %lld", w[1],
               -w[2], pos);
    fprintf(stderr,
            "ndtile rank %d of %d: the ranks are out of step: they read an array (or agree on "
            "a value) at different points of the program (%s). Every rank must make the same "
            "ndtile calls: a read of an array (print, float(), numpy.asarray) or an operation "
            "on some ranks only puts them out of step. Stopping every rank.\n",
            comm_rank, ndt__comm_size_, where);
    out_of_step_abort(1);
  }
}
#endif

void ndt__comm_step(void) {
#ifdef NDT_HAVE_MPI
  if (ndt__comm_size_ <= 1) return;
  long long v[AG_N] = {ndt__comm_size_, 0, 0, 0, 0, AG_STEP, -AG_STEP}, w[AG_N];
  agreement(v, w);
#endif
}

#ifdef NDT_HAVE_MPI
/* The floating-point records of a status agreement (fperr.c): each rank
 * gives the number up to which its ops' records are done (MIN: done on
 * every rank, so their flags are final) and, by a bit of its rank's class
 * (rank % FP_CLASSES), whether it has flags it has not told. The ranks with
 * such flags then broadcast them (op number, flags), every rank ORs them
 * into its records' agreed flags, and those are what every rank hands out:
 * the same errors at the same call on every rank. Where no rank has new
 * flags (most agreements) nothing but this agreement's numbers moves. */

static void fp_share(const long long *w) {
  const int64_t upto = w[FP_SETTLED];
  for (int c = 0; c < FP_CLASSES && c < ndt__comm_size_; c++) {
    if (!w[FP_CLASS0 + c]) continue;
    for (int k = c; k < ndt__comm_size_; k += FP_CLASSES) {
      int64_t n = k == comm_rank ? ndt__fp_collect(NULL, 0) : 0;
      ndt__comm_bcast(&n, sizeof n, k);
      if (n <= 0) continue;
      /* plain malloc: a failure stops the program (every rank must take the
       * same steps) */
      int64_t *pairs = malloc((size_t)n * 2 * sizeof *pairs);
      if (!pairs) {
        fprintf(stderr, "ndtile rank %d: out of memory agreeing on floating-point errors\n",
                comm_rank);
        MPI_Abort(MPI_COMM_WORLD, 71);
      }
      if (k == comm_rank) ndt__fp_collect(pairs, (int)n);
      ndt__comm_bcast(pairs, n * 2 * (int64_t)sizeof *pairs, k);
      ndt__fp_merge(pairs, (int)n);
      free(pairs);
    }
  }
  ndt__fp_agreed(upto);
}
#endif

ndt_status ndt__comm_agree(ndt_status st) { return ndt__comm_agree_read(st, NULL); }

/* With pay (NDT__AGREE_WORDS words): a small read's bytes ride in the
 * agreement, one collective fewer than a broadcast of them. Each word is
 * its owner's (the others give LLONG_MAX, and the agreement takes the
 * minimum); pay holds the agreed words after. */
ndt_status ndt__comm_agree_read(ndt_status st, long long *pay) {
#ifdef NDT_HAVE_MPI
  if (ndt__comm_size_ <= 1) return st;
  /* the first rank that failed */
  long long v[AG_N] = {st ? comm_rank : ndt__comm_size_, 0, 0, 0, 0, AG_STATUS, -AG_STATUS},
            w[AG_N];
  const int64_t settled = ndt__fp_settled();
  v[FP_SETTLED] = settled;
  v[FP_CLASS0 + comm_rank % FP_CLASSES] = -(long long)ndt__fp_flagged();
  if (pay) memcpy(v + AG_PAY0, pay, sizeof(long long) * NDT__AGREE_WORDS);
  agreement(v, w);
  if (pay) memcpy(pay, w + AG_PAY0, sizeof(long long) * NDT__AGREE_WORDS);
  fp_share(w);
  int first = (int)w[0];
  if (first == ndt__comm_size_) return NDT_OK;
  /* the whole error (kind, argument, op), so every rank raises the same */
  ndt__err_rec e;
  memset(&e, 0, sizeof e);
  if (first == comm_rank) ndt__error_save(&e, st, NULL);
  ndt__comm_bcast(&e, sizeof e, first);
  if (first == comm_rank) return st;
  if (!e.msg[0]) return ndt__error((ndt_status)e.status, "an operation failed on rank %d", first);
  return ndt__error_load(&e);
#else
  (void)pay;
  return st;
#endif
}
