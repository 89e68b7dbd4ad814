/* test_fallback.c - the automatic CPU fallback: with a simulated device far
 * smaller than the data (sim:1,mem=256k: 256 KiB, tiles of 64 KiB),
 * tasks whose operands no longer fit in its memory run on the host CPU. The
 * program must finish with the bits of the CPU alone (ufuncs, an in-place
 * update, reductions, a sort, a matmul), and ndt_processor_fallbacks counts
 * the tasks that moved. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"

#define N 200000   /* 1.6 MB of float64: 25 tiles, six times the device */

/* Runs the workload; writes its results (3 * N + 4 doubles) to res. */
static void workload(double *res) {
  ndt_array *a = NULL, *b = NULL, *c = NULL, *s = NULL, *srt = NULL, *m = NULL, *mm = NULL;
  ndt_array *two = NULL, *r = NULL, *mx = NULL;
  double v2 = 2.5;
  OK(ndt_arange(&a, 0, N, 1, NDT_FLOAT64));
  OK(ndt_scalar(&two, NDT_FLOAT64, &v2, 0));
  OK(ndt_binary(&b, NDT_MULTIPLY, a, two));           /* b = 2.5 a */
  OK(ndt_unary(&c, NDT_SIN, b));                      /* c = sin(b) */
  const ndt_array *in[2] = {c, two};
  OK(ndt_apply(&c, NDT_ADD, 2, in, NDT_DTYPE_DEFAULT));  /* c += 2.5, in place */
  OK(ndt_reduce(&s, NDT_RED_SUM, c, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_reduce(&mx, NDT_RED_MAX, c, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  OK(ndt_sort(&srt, c, 0, 0));
  int64_t shp[2] = {400, 500}, shq[2] = {500, 400};
  OK(ndt_reshape(&m, c, 2, shp));
  ndt_array *mt = NULL;
  OK(ndt_reshape(&mt, b, 2, shq));
  OK(ndt_matmul(&mm, m, mt));                         /* (400, 400) */
  OK(ndt_reduce(&r, NDT_RED_SUM, mm, 1, 0, NDT_DTYPE_DEFAULT, 0));   /* (400,) */
  OK(ndt_to_buffer(c, res));
  OK(ndt_to_buffer(srt, res + N));
  OK(ndt_item(s, NDT_FLOAT64, res + 2 * N));
  OK(ndt_item(mx, NDT_FLOAT64, res + 2 * N + 1));
  OK(ndt_to_buffer(r, res + 2 * N + 2));
  ndt_array *all[] = {a, b, c, s, srt, m, mt, mm, two, r, mx};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) ndt_free(all[i]);
}

int main(void) {
  /* (ndt_config.devices wins over NDTILE_DEVICES, which make test-sim sets) */
  ndt_config cfg = {.workers = 2, .tile_bytes = 65536, .inline_elems = -1,
                    .devices = "sim:1,mem=256k"};
  OK(ndt_init(&cfg));
  EXPECT(ndt_processor_count() == 2 && !strcmp(ndt_processor_name(1), "simdev"),
         "the simulated device is registered");
  size_t n = (size_t)(2 * N + 2 + 400);
  double *dev = malloc(n * sizeof *dev), *cpu = malloc(n * sizeof *cpu);
  int64_t before = ndt_processor_fallbacks();
  workload(dev);   /* every task placed on the (too small) device */
  int64_t moved = ndt_processor_fallbacks() - before;
  EXPECT(moved > 0, "tasks fell back to the CPU (%lld)", (long long)moved);
  printf("%lld tasks fell back to the CPU\n", (long long)moved);
  OK(ndt_processor_select("cpu"));
  workload(cpu);
  OK(ndt_processor_select(NULL));
  EXPECT(memcmp(dev, cpu, n * sizeof *dev) == 0, "same bits as the CPU alone");
  int64_t again = ndt_processor_fallbacks();
  OK(ndt_processor_select("cpu"));
  workload(cpu);
  OK(ndt_processor_select(NULL));
  EXPECT(ndt_processor_fallbacks() == again, "the CPU alone falls back from nothing");
  free(dev);
  free(cpu);
  OK(ndt_sync());
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
