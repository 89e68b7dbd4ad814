/* test_lookahead.c - the look-ahead bound in bytes does not stall the
 * workers (sched.c, ndt__rt_local_submit).
 *
 * A task that cannot finish yet (a gate, opened by this program only after
 * it has recorded more work) holds a dropped temporary far larger than
 * NDTILE_MAX_PENDING_BYTES. Before issue 19 the recording thread, over the
 * bound, waited until no older task was pending: here that is forever (the
 * gate), and in a real program it ran one task at a time for as long as
 * the temporary had readers. Now it waits only while the workers have two
 * runnable tasks each, so the independent work after the gate is recorded
 * and runs on the other worker while the gate holds the first.
 *
 * A watchdog ends the program with a failure when the recording has not
 * finished after WATCHDOG_S seconds (the old rule: a wait that never ends);
 * it bounds a hang, it measures no speed. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ndtile.h"
#include "internal.h"
#include "check.h"

#define WATCHDOG_S 60

static atomic_int gate_open, recorded;

static void nap_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static ndt_status gate_body(ndt_bound *op, void *arg) {
  (void)op;
  (void)arg;
  while (!atomic_load(&gate_open)) nap_ms(1);
  return NDT_OK;
}
static const ndt_task_kind gate_kind = {"gate", {gate_body}, NULL};

static void *watchdog(void *p) {
  (void)p;
  for (int i = 0; i < WATCHDOG_S * 10; i++) {
    if (atomic_load(&recorded)) return NULL;
    nap_ms(100);
  }
  fprintf(stderr, "FAIL: recording independent work waited %d s for a task that "
                  "cannot finish before it (the look-ahead bound in bytes)\n", WATCHDOG_S);
  fflush(stderr);
  _Exit(1);
}

int main(void) {
  setenv("NDTILE_MAX_PENDING_BYTES", "4096", 1);   /* one tile */
  /* The CPU scheduler's bound, on the CPU alone (ndt_config.devices wins
   * over NDTILE_DEVICES, which make test-sim and test-cudahost set): on a
   * device of 256 KiB (test-cudahost) the device plan must evict the
   * gate's tiles to run the independent work there, and an eviction waits
   * for every task that uses its tile, the gate too, which waits for this
   * recording: a wait by construction of this test, not the bound's. (In a
   * program, a long CPU task holding a tile the device needs back delays
   * the device's work until it ends: see docs/design.md, "Devices".) */
  ndt_config cfg = {.workers = 2, .tile_bytes = 4096, .inline_elems = 0, .devices = "none"};
  OK(ndt_init(&cfg));
  pthread_t dog;
  if (pthread_create(&dog, NULL, watchdog, NULL)) return 2;

  /* a temporary of 128 tiles, read by the gate task, then dropped: its
   * 512 KiB stay held (doomed) until the gate opens */
  int64_t n = 64 * 1024;
  ndt_array *tmp = NULL;
  OK(ndt_ones(&tmp, 1, &n, NDT_FLOAT64));
  OK(ndt_sync());
  ndt_operand op = {tmp, NDT_READ};
  OK(ndt__record(&gate_kind, NULL, &op, 1, NULL, 0, 0));
  ndt_free(tmp);

  /* independent work, recorded and read while the gate holds one worker */
  double *host = malloc((size_t)n * sizeof *host);
  if (!host) return 2;
  int bad = 0;
  for (int k = 0; k < 4; k++) {
    ndt_array *a = NULL, *b = NULL;
    OK(ndt_ones(&a, 1, &n, NDT_FLOAT64));
    OK(ndt_binary(&b, NDT_ADD, a, a));
    OK(ndt_to_buffer(b, host));
    for (int64_t i = 0; i < n; i++) bad += host[i] != 2.0;
    ndt_free(a);
    ndt_free(b);
  }
  EXPECT(bad == 0, "1 + 1: %d elements differ", bad);
  atomic_store(&recorded, 1);
  atomic_store(&gate_open, 1);
  OK(ndt_sync());
  pthread_join(dog, NULL);
  EXPECT(atomic_load(&recorded), "the work after the gate was recorded");

  /* and the bound still bounds: with nothing held, a long chain of ops
   * finishes with the right values */
  ndt_array *x = NULL;
  OK(ndt_ones(&x, 1, &n, NDT_FLOAT64));
  for (int k = 0; k < 20; k++) {
    ndt_array *y = NULL;
    OK(ndt_binary(&y, NDT_ADD, x, x));
    ndt_free(x);
    x = y;
  }
  OK(ndt_to_buffer(x, host));
  ndt_free(x);
  bad = 0;
  for (int64_t i = 0; i < n; i++) bad += host[i] != 1048576.0;
  free(host);
  EXPECT(bad == 0, "2^20 after 20 doublings: %d elements differ", bad);
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
