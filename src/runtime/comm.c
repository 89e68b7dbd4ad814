/* comm.c - many processes: the transport under control replication.
 *
 * Every rank runs the same program and records the same tasks in the same
 * order (sched.c), so both sides of every message know it is coming; this
 * file only moves bytes. All MPI calls come from the recording thread, one
 * at a time (MPI_THREAD_SERIALIZED); workers never touch MPI.
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
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#ifdef NDT_HAVE_MPI
#include <mpi.h>
#endif

int ndt__comm_size_ = 1;
static int comm_rank, comm_started;
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

/* Takes the exit notes that came; 1 when one says the wait cannot end
 * (*peer tells who). *first_note: when this wait first saw a note. */
static int check_exit_notes(double *first_note, int *peer) {
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
    if (peer_pos[r] < position()) return 1;
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
  for (int r = 0; r < ndt__comm_size_ && rq; r++)
    if (r != comm_rank)
      MPI_Isend(&mine, (int)sizeof mine, MPI_BYTE, r, TAG_EXIT, ctrl, &rq[nrq++]);
  double dummy = 0;
  int peer = -1;
  for (;;) {
    check_exit_notes(&dummy, &peer);
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
    MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
    free(rq);
  }
  /* the collectives of the last sync and MPI_Finalize follow, on every rank */
  ended_together = 1;
}

static void comm_at_exit(void) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (fin) return;
  if (ndt__comm_size_ > 1 && ctrl != MPI_COMM_NULL) exit_together();
  if (up.finalize) up.finalize();   /* workers stop, pending tasks end first */
  progress_sends(1);
  MPI_Finalize();
}
#define CHECK(what, call)                 \
  do {                                    \
    int rc_ = (call);                     \
    if (rc_ != MPI_SUCCESS) die(what, rc_); \
  } while (0)

/* Waits for a request without holding a core: MPI's blocking calls spin,
 * and this rank's workers (and the other ranks on a shared node) need the
 * cores meanwhile. A short spin, then sleeps growing to 100 us. */
static void wait_req(MPI_Request *r, const char *what) {
  int done = 0;
  long ns = 1000;
  double t0 = up.trace_now ? up.trace_now() : 0;
  double first_note = 0;
  int peer = -1;
  for (int i = 0;; i++) {
    CHECK(what, MPI_Test(r, &done, MPI_STATUS_IGNORE));
    if (done) {
      if (up.trace_caller) up.trace_caller(what, t0);
      return;
    }
    if (i < spin_tests) continue;
    /* a rank that ended may be what this wait waits for */
    if (ctrl != MPI_COMM_NULL && !ended_together && check_exit_notes(&first_note, &peer))
      peer_ended_abort(peer, what);
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
    if (ns < 100000) ns *= 2;
  }
}
#endif

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
    prctl(PR_SET_TIMERSLACK, 1UL);   /* short sleeps in wait_req stay short */
    spin_tests = (int)ndt__env_int("NDTILE_MPI_SPIN", spin_tests);
    discard = malloc(CHUNK);
    if (!discard) {
      fprintf(stderr, "ndtile rank %d: cannot allocate the message buffer\n", comm_rank);
      MPI_Abort(MPI_COMM_WORLD, 71);
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

ndt_status ndt_barrier(void) {
  ndt__runtime_ensure();
#ifdef NDT_HAVE_MPI
  if (ndt__comm_size_ > 1) {
    MPI_Request r;
    CHECK("MPI_Ibarrier", MPI_Ibarrier(MPI_COMM_WORLD, &r));
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
      CHECK("MPI_Test", MPI_Test(&q->r, &done, MPI_STATUS_IGNORE));
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
      CHECK("MPI_Isend", MPI_Isend(p ? p + o : discard, m, MPI_BYTE, peer, tag,
                                   MPI_COMM_WORLD, &r));
      wait_req(&r, "MPI_Isend");
      continue;
    }
    memcpy(copy, p ? p + o : discard, (size_t)m);
    *q = (pending){.copy = copy, .n = m, .next = NULL};
    CHECK("MPI_Isend", MPI_Isend(copy, m, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &q->r));
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
    CHECK("MPI_Irecv", MPI_Irecv(p ? p + o : discard, m, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                                 &r));
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
    CHECK("MPI_Ibcast", MPI_Ibcast(p ? p + o : discard, m, MPI_BYTE, root, MPI_COMM_WORLD, &r));
    wait_req(&r, "MPI_Ibcast");
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
 * its tasks (each with its mirror, so one MIN finds a disagreement), the
 * kind of agreement (a status, or a mask of bits to or: each rank must be
 * at the same kind) and the mask's bits as -bit (MIN of -bit is -or). All
 * agreements have this one shape, so ranks at different points still meet
 * in one collective and see that they are out of step instead of hanging. */
enum { AG_STATUS = 1, AG_OR = 2, AG_STEP = 3, AG_HEAD = 7, AG_N = AG_HEAD + 64 };

#ifdef NDT_HAVE_MPI
static void agreement(long long *v, long long *w) {
  long long pos = position(), h = up.task_hash ? up.task_hash() : 0;
  /* -h overflows for LLONG_MIN only; ~h is its exact mirror */
  v[1] = pos, v[2] = -pos, v[3] = h, v[4] = ~h;
  MPI_Request r;
  CHECK("MPI_Iallreduce", MPI_Iallreduce(v, w, AG_N, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD, &r));
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
      snprintf(where, sizeof where, "an agreement on a value met an agreement on a status");
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

uint64_t ndt__comm_or(uint64_t bits) {
#ifdef NDT_HAVE_MPI
  if (ndt__comm_size_ <= 1) return bits;
  long long v[AG_N] = {ndt__comm_size_, 0, 0, 0, 0, AG_OR, -AG_OR}, w[AG_N];
  for (int k = 0; k < 64; k++) v[AG_HEAD + k] = -(long long)(bits >> k & 1);
  agreement(v, w);
  uint64_t r = 0;
  for (int k = 0; k < 64; k++) r |= (uint64_t)(w[AG_HEAD + k] != 0) << k;
  return r;
#else
  return bits;
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
enum { FP_SETTLED = AG_HEAD, FP_CLASS0 = AG_HEAD + 1, FP_CLASSES = 62 };

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

ndt_status ndt__comm_agree(ndt_status st) {
#ifdef NDT_HAVE_MPI
  if (ndt__comm_size_ <= 1) return st;
  /* the first rank that failed */
  long long v[AG_N] = {st ? comm_rank : ndt__comm_size_, 0, 0, 0, 0, AG_STATUS, -AG_STATUS},
            w[AG_N];
  const int64_t settled = ndt__fp_settled();
  v[FP_SETTLED] = settled;
  v[FP_CLASS0 + comm_rank % FP_CLASSES] = -(long long)ndt__fp_flagged();
  agreement(v, w);
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
  return st;
#endif
}
