/* launch_cost.c - what one small task costs the runtime, by hand.
 *
 *   launch_cost [ops] [elements]     (defaults 100000 and 8)
 *
 * With the inline path off (inline_elems 0), every ndt_binary(c = a + b)
 * of a few elements records one task that a worker runs: the loop is the
 * runtime's recording, scheduling and finishing, next to nothing of the
 * kernel. Run it under a counter and divide by the ops, e.g.
 *   valgrind --tool=callgrind build/bench/launch_cost 20000
 * (instructions of every thread; callgrind_annotate names who took them),
 * or perf stat -e instructions where the machine has counters. It prints
 * the wall time per op. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ndtile.h"

#define CHECK(call)                                                                \
  do {                                                                             \
    ndt_status s_ = (call);                                                        \
    if (s_) {                                                                      \
      fprintf(stderr, "%d: %s\n", __LINE__, ndt_last_error());                     \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

int main(int argc, char **argv) {
  int ops = argc > 1 ? atoi(argv[1]) : 100000;
  int64_t n = argc > 2 ? atoll(argv[2]) : 8;
  ndt_config cfg = {.workers = 0, .tile_bytes = 0, .inline_elems = 0, .devices = NULL};
  CHECK(ndt_init(&cfg));
  ndt_array *a, *b, *c;
  CHECK(ndt_ones(&a, 1, &n, NDT_FLOAT64));
  CHECK(ndt_ones(&b, 1, &n, NDT_FLOAT64));
  CHECK(ndt_ones(&c, 1, &n, NDT_FLOAT64));
  CHECK(ndt_sync());
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < ops; i++) CHECK(ndt_binary(&c, NDT_ADD, a, b));
  CHECK(ndt_sync());
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("%d ops of %lld elements: %.3f us/op\n", ops, (long long)n, 1e6 * s / ops);
  ndt_free(a);
  ndt_free(b);
  ndt_free(c);
  ndt_finalize();
  return 0;
}
