/* test_mpi_async.c - on many ranks the recording thread never waits for a
 * message (dist.c: messages are tasks of the graph, moved by comm.c's
 * progress thread), and the ranks do not agree on anything between reads.
 *
 * 1. Rank 0 records a gate task that writes its tile and cannot finish
 *    until rank 0's program opens the gate; then a task of rank 1 that
 *    reads that tile; only then does rank 0 open the gate. Before issue 19
 *    rank 0's recording thread sent the tile itself, after waiting for the
 *    tasks that write it: for the gate, which waits for the recording
 *    thread - forever. Now the send is a task after the gate, and the
 *    bytes rank 1 reads are the gate's (the message waited for its writer).
 * 2. Fused elementwise work flushed by reductions, with no read between:
 *    no collective at all (ndt_comm_stats). Each flush used to be an
 *    allreduce of what is alive, which held every rank's recording thread
 *    until the last one came.
 *
 * 3. A sum over axis 0 whose rows lie on several ranks (the X-ray job's
 *    sums over the frames of a batch) moves a running result from rank
 *    to rank, at most twice the result's bytes sent per rank (and the
 *    bits of a fold of the rows in order). Before issue 19 the combine of
 *    each result tile fetched every input tile other ranks held, those of
 *    the other result tiles too: rank 0 sent 4 times the result on 2 ranks.
 *    Blocks the result tile's owner holds already (read on the host) are
 *    folded there: the same sum again sends nothing.
 *
 * A watchdog ends the program with a failure when the recording has not
 * finished after WATCHDOG_S seconds; it bounds a hang, it measures no
 * speed. tests/mpi/run.py runs this on 2 and 3 ranks; as a plain process
 * it checks the values only. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ndtile.h"
#include "internal.h"
#include "check.h"

#define WATCHDOG_S 60
#define N 512   /* doubles per tile (4 KiB tiles) */

static atomic_int gate_open, recorded;

static void nap_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* writes 7.0 into its operand once the gate opens */
static ndt_status gate_body(ndt_bound *op, void *arg) {
  (void)arg;
  while (!atomic_load(&gate_open)) nap_ms(1);
  for (int64_t i = 0; i < op[0].shape[0]; i++)
    *(double *)(op[0].ptr + i * op[0].st[0]) = 7.0;
  return NDT_OK;
}
static const ndt_task_kind gate_kind = {"gate", {gate_body}, NULL};

/* op[0] = op[1] + 1 */
static ndt_status plus_body(ndt_bound *op, void *arg) {
  (void)arg;
  for (int64_t i = 0; i < op[0].shape[0]; i++)
    *(double *)(op[0].ptr + i * op[0].st[0]) = *(double *)(op[1].ptr + i * op[1].st[0]) + 1.0;
  return NDT_OK;
}
static const ndt_task_kind plus_kind = {"plus one", {plus_body}, NULL};

static void *watchdog(void *p) {
  (void)p;
  for (int i = 0; i < WATCHDOG_S * 10; i++) {
    if (atomic_load(&recorded)) return NULL;
    nap_ms(100);
  }
  fprintf(stderr, "FAIL: rank %d: recording waited %d s for a message whose bytes a task "
                  "not yet able to run writes\n", ndt_rank(), WATCHDOG_S);
  fflush(stderr);
  _Exit(1);
}

static ndt_index sl(int64_t a, int64_t b) {
  return (ndt_index){.kind = NDT_IDX_SLICE, .start = a, .stop = b, .step = 1,
                     .has_start = 1, .has_stop = 1};
}

int main(void) {
  ndt_config cfg = {.workers = 1, .tile_bytes = N * 8, .inline_elems = 0};
  OK(ndt_init(&cfg));
  int ranks = ndt_nranks(), me = ndt_rank();
  pthread_t dog;
  if (pthread_create(&dog, NULL, watchdog, NULL)) return 2;

  /* 1. one tile per rank: tile t belongs to rank t */
  int64_t n = (int64_t)ranks * N;
  ndt_array *a = NULL, *t0 = NULL, *t1 = NULL;
  OK(ndt_zeros(&a, 1, &n, NDT_FLOAT64));
  OK(ndt_sync());
  ndt_index i0 = sl(0, N), i1 = sl(ranks > 1 ? N : 0, ranks > 1 ? 2 * N : N);
  OK(ndt_view_index(&t0, a, 1, &i0));
  OK(ndt_view_index(&t1, a, 1, &i1));
  ndt_operand g = {t0, NDT_WRITE};
  OK(ndt__record(&gate_kind, NULL, &g, 1, NULL, 0, 0));
  if (ranks > 1) {   /* rank 1's tile from rank 0's (one tile: it reads t0 only) */
    ndt_operand p[2] = {{t1, NDT_WRITE}, {t0, NDT_READ}};
    OK(ndt__record(&plus_kind, NULL, p, 2, NULL, 0, 0));
  }
  atomic_store(&recorded, 1);
  atomic_store(&gate_open, 1);
  OK(ndt_sync());
  double *host = malloc((size_t)(n > 4 * N ? n : 4 * N) * sizeof *host);
  if (!host) return 2;
  OK(ndt_to_buffer(a, host));
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    double want = i < N ? 7.0 : ranks > 1 && i < 2 * N ? 8.0 : 0.0;
    bad += host[i] != want;
  }
  EXPECT(bad == 0, "rank %d: the gate's 7s and rank 1's 8s: %d elements differ", me, bad);
  ndt_free(t0);
  ndt_free(t1);
  ndt_free(a);

  /* 2. fused work and reductions over tiles of every rank, no read */
  int64_t shape[2] = {16, 4 * N};
  ndt_array *x = NULL;
  OK(ndt_ones(&x, 2, shape, NDT_FLOAT64));
  OK(ndt_sync());
  ndt_comm_stats c0, c1;
  ndt_comm_stats_get(&c0);
  ndt_array *sum = NULL;
  for (int k = 0; k < 4; k++) {
    ndt_array *y = NULL, *z = NULL, *s = NULL;
    OK(ndt_binary(&y, NDT_MULTIPLY, x, x));   /* fused: y dies unwritten */
    OK(ndt_binary(&z, NDT_ADD, y, x));
    ndt_free(y);
    OK(ndt_reduce(&s, NDT_RED_SUM, z, 1, 0, NDT_DTYPE_DEFAULT, 0));   /* flushes the group */
    ndt_free(z);
    if (sum) {
      ndt_array *t = NULL;
      OK(ndt_binary(&t, NDT_ADD, sum, s));
      ndt_free(sum);
      ndt_free(s);
      sum = t;
    } else {
      sum = s;
    }
  }
  ndt_comm_stats_get(&c1);
  EXPECT(c1.collectives == c0.collectives, "rank %d: %lld collectives between reads", me,
         (long long)(c1.collectives - c0.collectives));
  OK(ndt_to_buffer(sum, host));
  bad = 0;
  for (int64_t i = 0; i < shape[1]; i++) bad += host[i] != 4 * 16 * 2.0;
  EXPECT(bad == 0, "rank %d: 4 sums of 16 twos: %d elements differ", me, bad);
  ndt_free(sum);
  ndt_free(x);

  /* 3. a sum over the rows of tiles of every rank: 8 rows of 4 tiles */
  int64_t rs[2] = {8, 4 * N};
  double *rows = malloc((size_t)(8 * 4 * N) * sizeof *rows), want[4 * N];
  if (!rows) return 2;
  for (int64_t i = 0; i < 8 * 4 * N; i++) rows[i] = 1.0 / (double)(3 + i % 7) + (double)(i / 97);
  ndt_array *hx = NULL, *r = NULL, *rsum = NULL;
  OK(ndt_from_buffer(&hx, NDT_FLOAT64, 2, rs, rows, NULL));
  OK(ndt_binary(&r, NDT_MULTIPLY, hx, hx));   /* tiles owned by their ranks, not replicated */
  ndt_free(hx);
  for (int64_t i = 0; i < 8 * 4 * N; i++) rows[i] *= rows[i];
  for (int64_t j = 0; j < 4 * N; j++) {   /* the rows folded in order */
    want[j] = 0.0;
    for (int64_t i = 0; i < 8; i++) want[j] += rows[i * 4 * N + j];
  }
  OK(ndt_sync());
  ndt_comm_stats_get(&c0);
  OK(ndt_reduce(&rsum, NDT_RED_SUM, r, 1, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_sync());
  ndt_comm_stats_get(&c1);
  int64_t sent = c1.send_bytes - c0.send_bytes, result = 4 * N * (int64_t)sizeof(double);
  EXPECT(sent <= 2 * result, "rank %d: a sum over rows sent %lld bytes (result: %lld)", me,
         (long long)sent, (long long)result);
  OK(ndt_to_buffer(rsum, host));
  bad = 0;
  for (int64_t j = 0; j < 4 * N; j++) bad += memcmp(&host[j], &want[j], sizeof want[j]) != 0;
  EXPECT(bad == 0, "rank %d: the sum over rows: %d elements differ from the fold in order", me,
         bad);
  ndt_free(rsum);
  /* read on the host: every rank holds every tile now, and the same sum
   * again moves nothing (each result tile's owner folds it alone) */
  OK(ndt_to_buffer(r, rows));
  ndt_comm_stats_get(&c0);
  OK(ndt_reduce(&rsum, NDT_RED_SUM, r, 1, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_sync());
  ndt_comm_stats_get(&c1);
  EXPECT(c1.send_bytes == c0.send_bytes, "rank %d: a sum of tiles held everywhere sent %lld bytes",
         me, (long long)(c1.send_bytes - c0.send_bytes));
  OK(ndt_to_buffer(rsum, host));
  bad = 0;
  for (int64_t j = 0; j < 4 * N; j++) bad += memcmp(&host[j], &want[j], sizeof want[j]) != 0;
  EXPECT(bad == 0, "rank %d: the sum again: %d elements differ", me, bad);
  ndt_free(rsum);
  ndt_free(r);
  free(rows);
  free(host);
  pthread_join(dog, NULL);
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
