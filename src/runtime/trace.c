/* trace.c - the timeline (NDTILE_PROFILE=trace.json). Each finished task
 * appends (name, thread, start, end, bytes, tiles); the file is a Chrome
 * trace that Perfetto and chrome://tracing open. One file per rank: the
 * process id of every event is the rank, so the files of one run can be
 * opened together (Perfetto) and the ranks stay apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rt.h"

typedef struct {
  const char *name;
  int tid;
  int tiles;
  double t0, t1;
  int64_t bytes, gathered;
  char proc[16];   /* the processor that ran it, with devices ("" without) */
  const char *kind;   /* its task kind's name, with devices */
} trace_ev;
int ndt__trace_on_;
static struct {
  char path[512];
  trace_ev *ev;
  size_t n, cap;
  pthread_mutex_t lock;
  double origin;          /* the monotonic clock at the start ... */
  double wall_origin;     /* ... and the wall clock then (microseconds since 1970) */
  int rank, nranks;       /* this process's, when the trace started */
} tr = {.lock = PTHREAD_MUTEX_INITIALIZER};

double ndt__now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

void ndt__trace_add_io(const char *name, int tid, double t0, double t1, int64_t bytes,
                       int tiles, int64_t gathered, const char *proc) {
  pthread_mutex_lock(&tr.lock);
  if (tr.n == tr.cap) {
    size_t cap = tr.cap ? tr.cap * 2 : 4096;
    /* plain realloc: any thread adds events, and an injected failure
     * (ndt__malloc) would fall at a random point of a failure test */
    trace_ev *e = realloc(tr.ev, cap * sizeof *e);
    if (!e) {
      pthread_mutex_unlock(&tr.lock);
      return;   /* the timeline is best effort: drop the event */
    }
    tr.ev = e;
    tr.cap = cap;
  }
  trace_ev *e = &tr.ev[tr.n++];
  *e = (trace_ev){name, tid, tiles, t0, t1, bytes, gathered, "", NULL};
  if (proc && ndt__ran_on) {
    snprintf(e->proc, sizeof e->proc, "%s", proc);
    e->kind = ndt__ran_kind;
  }
  pthread_mutex_unlock(&tr.lock);
}

void ndt__trace_add(const char *name, int tid, double t0, double t1) {
  ndt__trace_add_io(name, tid, t0, t1, -1, -1, 0, NULL);
}

double ndt__trace_now(void) { return ndt__trace_on_ ? ndt__now_us() : 0; }
void ndt__trace_caller(const char *name, double t0) {
  if (ndt__trace_on_) ndt__trace_add(name, -1, t0, ndt__now_us());
}

/* The file of this rank: base itself on one rank; on many, ".rankN" goes
 * before the extension of the file name (t.json -> t.rank0.json), or at
 * the end when it has none (trace -> trace.rank0). */
void ndt__trace_path(char *out, size_t cap, const char *base, int rank, int nranks) {
  if (nranks <= 1) {
    snprintf(out, cap, "%s", base);
    return;
  }
  const char *slash = strrchr(base, '/');
  const char *file = slash ? slash + 1 : base;
  const char *dot = strrchr(file, '.');
  if (!dot || dot == file) {   /* no extension (".hidden" is a name, not one) */
    snprintf(out, cap, "%s.rank%d", base, rank);
    return;
  }
  snprintf(out, cap, "%.*s.rank%d%s", (int)(dot - base), base, rank, dot);
}

ndt_status ndt_trace_start(const char *path) {
  if (!path || !*path) return ndt__error(NDT_ERR_VALUE, "the trace needs a file name");
  /* before the lock: asking may start the runtime, which may start a
   * trace of its own (NDTILE_PROFILE) */
  int rank = ndt_rank(), nranks = ndt_nranks();
  pthread_mutex_lock(&tr.lock);
  tr.rank = rank;
  tr.nranks = nranks;
  snprintf(tr.path, sizeof tr.path, "%s", path);
  tr.n = 0;
  tr.origin = ndt__now_us();
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  tr.wall_origin = ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
  ndt__trace_on_ = 1;
  pthread_mutex_unlock(&tr.lock);
  return NDT_OK;
}

void ndt_trace_stop(void) {
  pthread_mutex_lock(&tr.lock);
  ndt__trace_on_ = 0;
  tr.n = 0;
  tr.path[0] = 0;
  pthread_mutex_unlock(&tr.lock);
}

const char *ndt_trace_file(void) { return ndt__trace_on_ ? tr.path : NULL; }

/* Times are wall-clock microseconds (since 1970), measured by the
 * monotonic clock from the start: the files of the ranks of one run line
 * up (to the nodes' clock agreement) when opened together. */

/* A task name as a JSON string body (names are identifiers, but a fused
 * chain or a user's kind could carry anything). */
static void put_name(FILE *f, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
}

ndt_status ndt__trace_dump(int nworkers) {
  pthread_mutex_lock(&tr.lock);
  /* (at exit the runtime may be finalized: nothing here restarts it) */
  int pid = tr.rank, nranks = tr.nranks;
  /* the workers that ran events (a finalized runtime has none left) */
  int msgs = 0;
  for (size_t i = 0; i < tr.n; i++) {
    if (tr.ev[i].tid >= nworkers) nworkers = tr.ev[i].tid + 1;
    msgs |= tr.ev[i].tid == NDT__TRACE_MSG;
  }
  if (!tr.path[0]) {   /* stopped (ndt_trace_stop): nothing to write */
    pthread_mutex_unlock(&tr.lock);
    return NDT_OK;
  }
  FILE *f = fopen(tr.path, "w");
  if (!f) {
    pthread_mutex_unlock(&tr.lock);
    return ndt__error(NDT_ERR_VALUE, "cannot write the trace to '%s'", tr.path);
  }
  fprintf(f, "{\"displayTimeUnit\": \"ms\", \"otherData\": {\"rank\": %d, \"ranks\": %d, "
             "\"workers\": %d}, \"traceEvents\": [\n", pid, nranks, nworkers);
  fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, "
             "\"args\": {\"name\": \"ndtile rank %d\"}}", pid, pid);
  fprintf(f, ",\n{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %d, "
             "\"args\": {\"sort_index\": %d}}", pid, pid);
  fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, "
             "\"args\": {\"name\": \"caller\"}}", pid);
  for (int w = 0; w < nworkers; w++)
    fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, "
               "\"args\": {\"name\": \"worker %d\"}}", pid, w + 1, w);
  /* messages between ranks in flight (dist.c), on a row after the workers */
  int msg_row = nworkers + 1;
  if (msgs)
    fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, "
               "\"args\": {\"name\": \"messages\"}}", pid, msg_row);
  for (size_t i = 0; i < tr.n; i++) {
    const trace_ev *e = &tr.ev[i];
    int row = e->tid == NDT__TRACE_MSG ? msg_row : e->tid + 1;
    const char *cat = e->tid == NDT__TRACE_MSG ? "message" : e->bytes < 0 ? "wait"
                      : e->tid < 0                 ? "inline"
                                                   : "task";
    fprintf(f, ",\n{\"name\": \"");
    put_name(f, e->name);
    /* cat: a task on a worker, work run on the caller (inline), or the
     * caller waiting (MPI, which has no bytes or tiles of its own) */
    fprintf(f, "\", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": %d, \"tid\": %d, \"ts\": %.3f, "
               "\"dur\": %.3f", cat, pid, row, tr.wall_origin + (e->t0 - tr.origin), e->t1 - e->t0);
    if (e->bytes >= 0) {
      fprintf(f, ", \"args\": {\"bytes\": %lld, \"tiles\": %d, \"gathered\": %lld",
              (long long)e->bytes, e->tiles, (long long)e->gathered);
      if (e->proc[0]) {
        fprintf(f, ", \"proc\": \"");
        put_name(f, e->proc);
        fprintf(f, "\", \"kind\": \"");
        put_name(f, e->kind);
        fprintf(f, "\"");
      }
      fprintf(f, "}");
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n]}\n");
  int bad = fclose(f) != 0;
  pthread_mutex_unlock(&tr.lock);
  if (bad) return ndt__error(NDT_ERR_VALUE, "cannot write the trace to '%s'", tr.path);
  return NDT_OK;
}
