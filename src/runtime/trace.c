/* trace.c - the timeline (NDTILE_PROFILE=trace.json). Each finished task
 * appends (name, thread, start, end); the file is a Chrome trace that
 * Perfetto and chrome://tracing open. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "rt.h"

typedef struct { const char *name; int tid; double t0, t1; } trace_ev;
int ndt__trace_on_;
static struct {
  char path[512];
  trace_ev *ev;
  size_t n, cap;
  pthread_mutex_t lock;
  double origin;
} tr = {.lock = PTHREAD_MUTEX_INITIALIZER};

double ndt__now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

void ndt__trace_add(const char *name, int tid, double t0, double t1) {
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
  tr.ev[tr.n++] = (trace_ev){name, tid, t0, t1};
  pthread_mutex_unlock(&tr.lock);
}

double ndt__trace_now(void) { return ndt__trace_on_ ? ndt__now_us() : 0; }
void ndt__trace_caller(const char *name, double t0) {
  if (ndt__trace_on_) ndt__trace_add(name, -1, t0, ndt__now_us());
}

ndt_status ndt_trace_start(const char *path) {
  if (!path || !*path) return ndt__error(NDT_ERR_VALUE, "the trace needs a file name");
  pthread_mutex_lock(&tr.lock);
  snprintf(tr.path, sizeof tr.path, "%s", path);
  tr.n = 0;
  tr.origin = ndt__now_us();
  ndt__trace_on_ = 1;
  pthread_mutex_unlock(&tr.lock);
  return NDT_OK;
}

ndt_status ndt__trace_dump(int nworkers) {
  pthread_mutex_lock(&tr.lock);
  FILE *f = fopen(tr.path, "w");
  if (!f) {
    pthread_mutex_unlock(&tr.lock);
    return ndt__error(NDT_ERR_VALUE, "cannot write the trace to '%s'", tr.path);
  }
  fprintf(f, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
  fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, "
             "\"args\": {\"name\": \"ndtile rank %d\"}}", ndt_rank());
  for (int w = -1; w < nworkers; w++)
    fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": %d, "
               "\"args\": {\"name\": \"%s %d\"}}", w + 1, w < 0 ? "caller" : "worker", w);
  for (size_t i = 0; i < tr.n; i++)
    fprintf(f, ",\n{\"name\": \"%s\", \"ph\": \"X\", \"pid\": 0, \"tid\": %d, "
               "\"ts\": %.3f, \"dur\": %.3f}", tr.ev[i].name, tr.ev[i].tid + 1,
            tr.ev[i].t0 - tr.origin, tr.ev[i].t1 - tr.ev[i].t0);
  fprintf(f, "\n]}\n");
  int bad = fclose(f) != 0;
  pthread_mutex_unlock(&tr.lock);
  if (bad) return ndt__error(NDT_ERR_VALUE, "cannot write the trace to '%s'", tr.path);
  return NDT_OK;
}
