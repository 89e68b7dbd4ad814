/* comm.c - many processes: the transport under control replication.
 *
 * Every rank runs the same program and records the same tasks in the same
 * order (sched.c), so both sides of every message know it is coming; this
 * file only moves bytes. All MPI calls come from the recording thread, one
 * at a time (MPI_THREAD_SERIALIZED); workers never touch MPI.
 *
 * Built without MPI, or started as a plain process, the runtime is rank 0
 * of 1 and none of this runs. */
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

int ndt_comm_size_ = 1;
static int comm_rank, comm_started;
#ifdef NDT_HAVE_MPI
static int spin_tests = 64;   /* MPI_Test calls before a wait starts to sleep */
#endif
static ndt_comm_stats stats;

/* Messages are cut into pieces of at most CHUNK bytes: counts stay in int,
 * and a rank that cannot allocate a buffer can still take part by
 * receiving into `discard` (the protocol must never stall on one rank). */
#define CHUNK ((int64_t)4 << 20)
#ifdef NDT_HAVE_MPI
static char *discard;
#endif

int ndt_rank(void) {
  ndt_runtime_ensure();
  return comm_rank;
}
int ndt_nranks(void) {
  ndt_runtime_ensure();
  return ndt_comm_size_;
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

static void comm_at_exit(void) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (fin) return;
  ndt_finalize();   /* workers stop, pending tasks end first */
  progress_sends(1);
  MPI_Finalize();
}

static void die(const char *what, int rc) {
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  fprintf(stderr, "ndtile rank %d: %s failed: %s\n", comm_rank, what, msg);
  MPI_Abort(MPI_COMM_WORLD, 70);
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
  double t0 = ndt_trace_now();
  for (int i = 0;; i++) {
    CHECK(what, MPI_Test(r, &done, MPI_STATUS_IGNORE));
    if (done) {
      ndt_trace_caller(what, t0);
      return;
    }
    if (i < spin_tests) continue;
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
    if (ns < 100000) ns *= 2;
  }
}
#endif

void ndt_comm_start(void) {
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
  /* errors abort with a message rather than return codes nobody can act on */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_rank(MPI_COMM_WORLD, &comm_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ndt_comm_size_);
  if (ndt_comm_size_ > 1) {
    prctl(PR_SET_TIMERSLACK, 1UL);   /* short sleeps in wait_req stay short */
    const char *sp = getenv("NDTILE_MPI_SPIN");
    if (sp && *sp) spin_tests = atoi(sp);
    discard = malloc(CHUNK);
    if (!discard) {
      fprintf(stderr, "ndtile rank %d: cannot allocate the message buffer\n", comm_rank);
      MPI_Abort(MPI_COMM_WORLD, 71);
    }
  }
#endif
}

void ndt_abort(int code) {
  fflush(stdout);
  fflush(stderr);
#ifdef NDT_HAVE_MPI
  if (ndt_comm_size_ > 1) MPI_Abort(MPI_COMM_WORLD, code ? code : 1);
#endif
  _exit(code);
}

ndt_status ndt_barrier(void) {
  ndt_runtime_ensure();
#ifdef NDT_HAVE_MPI
  if (ndt_comm_size_ > 1) {
    MPI_Request r;
    CHECK("MPI_Ibarrier", MPI_Ibarrier(MPI_COMM_WORLD, &r));
    wait_req(&r, "MPI_Ibarrier");
    stats.collectives++;
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

void ndt_comm_send(const void *buf, int64_t n, int peer, int tag) {
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

void ndt_comm_recv(void *buf, int64_t n, int peer, int tag) {
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
void ndt_comm_bcast(void *buf, int64_t n, int root) {
#ifdef NDT_HAVE_MPI
  char *p = buf;
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
  ndt_runtime_ensure();
  if (root < 0 || root >= ndt_comm_size_)
    return ndt_error(NDT_ERR_VALUE, "root %d is not a rank (there are %d)", root,
                     ndt_comm_size_);
  if (ndt_comm_size_ > 1) ndt_comm_bcast(buf, (int64_t)n, root);
  return NDT_OK;
}

ndt_status ndt_comm_agree(ndt_status st) {
#ifdef NDT_HAVE_MPI
  if (ndt_comm_size_ <= 1) return st;
  int key = st ? comm_rank : ndt_comm_size_, first;
  MPI_Request r;
  CHECK("MPI_Iallreduce", MPI_Iallreduce(&key, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r));
  wait_req(&r, "MPI_Iallreduce");
  stats.collectives++;
  stats.coll_bytes += sizeof key;
  if (first == ndt_comm_size_) return NDT_OK;
  struct { int st; char msg[640]; } e = {0};
  if (first == comm_rank) {
    e.st = st;
    snprintf(e.msg, sizeof e.msg, "%s", ndt_last_error());
  }
  ndt_comm_bcast(&e, sizeof e, first);
  if (first == comm_rank) return st;
  if (!e.msg[0]) return ndt_error((ndt_status)e.st, "an operation failed on rank %d", first);
  return ndt_error((ndt_status)e.st, "%s", e.msg);
#else
  return st;
#endif
}
