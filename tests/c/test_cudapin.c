/* test_cudapin.c - pinned host memory for the CUDA plugin's copies
 * (memory.c's ndt__host_pin, cuda.c's cm_host_register), run with the
 * plugin's host build (NDTILE_CUDA_PLUGIN=.../libndtile_cudahost.so,
 * NDTILE_DEVICES=cuda:0,1), whose emulated runtime checks CUDA's rules for
 * registered memory and counts each copy as pinned or pageable
 * (ndt__cudahost_pin_counts, found in the loaded plugin with dlsym); on a
 * GPU (the real plugin: tools/gpu_check.sh) the checks of the core's own
 * counts only (ndt__host_pin_stats). One mode per process (devices are
 * chosen at the first start):
 *   on     the X-ray job's form (frames up to the device, computed, the
 *          result down), frame after frame with the buffers freed between:
 *          every large copy is pinned, each large buffer registered once
 *          (a recycled buffer keeps its registration: frames 3-6 add
 *          none), small buffers (< 64 KiB) stay pageable and unregistered,
 *          a store of one run (>= 4 MiB) is registered whole; a cache trim
 *          unregisters every cached buffer before it is unmapped (none is
 *          lost); the CPU's bits
 *   off    NDTILE_CUDA_PINNED=0: no registration, every copy pageable, the
 *          same bits
 *   limit  NDTILE_CUDAHOST_PIN_LIMIT (a limit on locked memory): refused
 *          registrations are counted, their copies go from pageable
 *          memory, the same bits */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "internal.h"
#include "check.h"

#define H 704
#define W 768
#define FRAME_BYTES ((long)H * W * 8)

static uint64_t rng = 88172645463325252ull;
static double rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 * 4 - 2;
}

typedef void (*counts_fn)(long out[9]);
static counts_fn counts;
enum { REG, UNREG, REFUSED, PCOPY, UCOPY, LOST, HALLOC, PBYTES, UBYTES };

/* on a GPU: what the core counted (copies unknown: -1) */
static void core_counts(long out[9]) {
  int64_t c[4];
  ndt__host_pin_stats(c);
  long v[9] = {(long)c[1], (long)(c[1] - c[0]), (long)c[2], -1, -1, 0, 0, -1, -1};
  memcpy(out, v, sizeof v);
}

static ndt_array *frame(const double *v, int64_t h, int64_t w) {
  ndt_array *a = NULL;
  int64_t shape[2] = {h, w};
  OK(ndt_from_buffer(&a, NDT_FLOAT64, 2, shape, v, NULL));
  return a;
}

/* r = sqrt(x*x + y*y) - x on the device (exact operations: the CPU's
 * bits), checked against the host's arithmetic, step by step */
static int run_frame(int64_t h, int64_t w) {
  int64_t n = h * w;
  double *x = malloc((size_t)n * 8), *y = malloc((size_t)n * 8), *r = malloc((size_t)n * 8);
  for (int64_t i = 0; i < n; i++) x[i] = rnd(), y[i] = rnd();
  ndt_array *a = frame(x, h, w), *b = frame(y, h, w), *aa = NULL, *bb = NULL, *s = NULL,
            *q = NULL, *d = NULL;
  OK(ndt_binary(&aa, NDT_MULTIPLY, a, a));
  OK(ndt_binary(&bb, NDT_MULTIPLY, b, b));
  OK(ndt_binary(&s, NDT_ADD, aa, bb));
  OK(ndt_unary(&q, NDT_SQRT, s));
  OK(ndt_binary(&d, NDT_SUBTRACT, q, a));
  OK(ndt_to_buffer(d, r));
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    volatile double t = x[i] * x[i], u = y[i] * y[i];
    t = t + u;
    t = sqrt(t);
    t = t - x[i];
    bad += memcmp((const void *)&t, &r[i], 8) != 0;
  }
  ndt_free(a), ndt_free(b), ndt_free(aa), ndt_free(bb), ndt_free(s), ndt_free(q), ndt_free(d);
  OK(ndt_sync());
  free(x), free(y), free(r);
  return bad;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "on";
  if (!strcmp(mode, "off")) setenv("NDTILE_CUDA_PINNED", "0", 1);
  if (!strcmp(mode, "limit")) setenv("NDTILE_CUDAHOST_PIN_LIMIT", "5M", 1);
  /* CUDA devices (the caller's choice of them, or two; make test-sim's
   * NDTILE_DEVICES=sim:... would give simulated devices, which register
   * nothing) */
  const char *dv = getenv("NDTILE_DEVICES");
  if (!dv || strncmp(dv, "cuda", 4)) setenv("NDTILE_DEVICES", "cuda:0,1", 1);
  /* room for every tile (make test-cudahost's 256k would keep them off the
   * devices; evictions would register the buffers of their write-backs) */
  setenv("NDTILE_CUDA_MEM", "512M", 1);
  setenv("NDTILE_CUDAHOST_MEM", "1G", 1);
  OK(ndt_init(NULL));
  const char *pl = getenv("NDTILE_CUDA_PLUGIN");
  void *h = pl ? dlopen(pl, RTLD_NOW | RTLD_NOLOAD) : NULL;
  counts = h ? (counts_fn)dlsym(h, "ndt__cudahost_pin_counts") : NULL;
  int emu = counts != NULL;   /* else a GPU: the core's counts only */
  if (ndt_device_count() < 1 || (!emu && !strcmp(mode, "limit"))) {
    fprintf(stderr, "test_cudapin: needs a CUDA device (the plugin's host build: "
            "NDTILE_CUDA_PLUGIN): %s\n", ndt_device_note());
    return 77;   /* skipped */
  }
  if (!emu) counts = core_counts;
  long c0[9], c2[9], c6[9], c7[9], c8[9];
  int64_t core[4], core2[4];
  counts(c0);
  int bad = run_frame(H, W) + run_frame(H, W);
  counts(c2);
  ndt__host_pin_stats(core2);
  for (int f = 2; f < 6; f++) bad += run_frame(H, W);
  counts(c6);
  EXPECT(bad == 0, "%s: %d elements differ from the CPU's", mode, bad);
  long moved = 6 * 3 * FRAME_BYTES;   /* x and y up, r down, per frame */
  if (!strcmp(mode, "on")) {
    /* three tiles (2 MiB, 2 MiB, 128 KiB) per array, each registered once */
    EXPECT(c2[REG] - c0[REG] >= 6 && c2[REFUSED] == c0[REFUSED],
           "on: the first frames' buffers registered (%ld)", c2[REG] - c0[REG]);
    /* frames 3-6 map no buffer (the cache serves them) and register
     * none twice: at most the few their first two frames never copied */
    ndt__host_pin_stats(core);
    EXPECT(core[3] == core2[3] && c6[REG] <= core[3] && c6[REFUSED] == 0 &&
               c6[REG] - c2[REG] < 6,
           "on: recycled buffers keep their registrations (%ld, then %ld more; %lld buffers "
           "mapped, then %lld more)", c2[REG] - c0[REG], c6[REG] - c2[REG],
           (long long)core2[3], (long long)(core[3] - core2[3]));
    EXPECT(!emu || c6[PBYTES] - c0[PBYTES] >= moved, "on: pinned bytes %ld of at least %ld",
           c6[PBYTES] - c0[PBYTES], moved);
    /* (pageable: the flags words' reads, a few bytes each) */
    EXPECT(!emu || c6[UBYTES] - c0[UBYTES] < 65536, "on: pageable bytes %ld",
           c6[UBYTES] - c0[UBYTES]);
  } else if (!strcmp(mode, "off")) {
    EXPECT(c6[REG] == 0 && (!emu || (c6[PCOPY] == 0 && c6[UBYTES] - c0[UBYTES] >= moved)),
           "off: %ld registrations, %ld pinned copies, %ld pageable bytes", c6[REG], c6[PCOPY],
           c6[UBYTES] - c0[UBYTES]);
  } else {
    ndt__host_pin_stats(core);
    EXPECT(c6[REFUSED] > 0 && core[2] == c6[REFUSED] && c6[UBYTES] - c0[UBYTES] > 0 &&
               c6[REG] > 0,
           "limit: %ld refused (the core counted %lld), %ld registered, %ld pageable bytes",
           c6[REFUSED], (long long)core[2], c6[REG], c6[UBYTES] - c0[UBYTES]);
  }

  /* small arrays (8 KiB): copied pageable, not registered */
  int small_bad = run_frame(8, 128);
  counts(c7);
  EXPECT(small_bad == 0 && c7[REG] == c6[REG] &&
             (!emu || c7[UBYTES] - c6[UBYTES] >= 3 * 8192),
         "%s: small buffers are not registered (%ld more), copied pageable (%ld bytes)", mode,
         c7[REG] - c6[REG], c7[UBYTES] - c6[UBYTES]);

  /* a store of one run (40 MiB: its tiles share one buffer): registered
   * whole, once for x, y and the result each */
  EXPECT(run_frame(5 * 1024, 1024) == 0, "%s: a run store's values", mode);
  counts(c8);
  if (!strcmp(mode, "on"))
    /* (x and y: a run each; the result is made tile by tile, 20 tiles) */
    EXPECT(c8[REG] - c7[REG] <= 24 &&
               (!emu || c8[PBYTES] - c7[PBYTES] >= 3L * 5 * 1024 * 1024 * 8),
           "on: runs registered whole (%ld registrations, %ld pinned bytes)", c8[REG] - c7[REG],
           c8[PBYTES] - c7[PBYTES]);

  /* a trim of the cache: every buffer it held unregistered before it goes
   * back to the system; none was unmapped while registered */
  ndt__host_pin_stats(core);
  EXPECT(strcmp(mode, "on") || core[0] > 0, "on: registered buffers in the cache (%lld)",
         (long long)core[0]);
  ndt__set_cache_limit(0);
  ndt__host_pin_stats(core);
  counts(c8);
  EXPECT(core[0] == 0 && c8[UNREG] == c8[REG] && c8[LOST] == 0,
         "%s: after the trim %lld registered, %ld registrations, %ld unregistered, %ld lost",
         mode, (long long)core[0], c8[REG], c8[UNREG], c8[LOST]);
  /* and frames after it register afresh, with the same bits */
  EXPECT(run_frame(H, W) == 0, "%s: a frame after the trim", mode);

  /* many buffers alive at once, then freed in another order (the cache is
   * off since the trim: each goes back to the system at once): the core's
   * table of marks grows to hundreds and empties from its middle, and
   * every buffer is unregistered before it is unmapped (a mark the table
   * lost would be reported lost; one it kept would leave a buffer at a
   * reused address unregistered) */
  if (!strcmp(mode, "on")) {
    enum { NB = 300, NE = 9000 };   /* 72,000 bytes an array: one buffer each */
    static ndt_array *src[NB], *neg[NB];
    double *x = malloc(NE * 8), *r = malloc(NE * 8);
    long m0[9], m1[9];
    int64_t shape[1] = {NE}, mid[4];
    for (int i = 0; i < NE; i++) x[i] = rnd();
    counts(m0);
    int wrong = 0;
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < NB; i++) {
        OK(ndt_from_buffer(&src[i], NDT_FLOAT64, 1, shape, x, NULL));
        OK(ndt_unary(&neg[i], NDT_NEGATIVE, src[i]));
        OK(ndt_to_buffer(neg[i], r));
        for (int k = 0; k < NE; k++) wrong += r[k] != -x[k];
      }
      ndt__host_pin_stats(mid);
      EXPECT(mid[0] >= NB, "on: %lld buffers registered at once, of %d", (long long)mid[0],
             2 * NB);
      for (int i = 0; i < NB; i++) {   /* every third, then the rest backwards */
        int j = (int)((i * 3L) % NB + (i * 3L) / NB);
        ndt_free(src[j]);
        src[j] = NULL;
      }
      for (int i = NB - 1; i >= 0; i--) ndt_free(neg[i]), neg[i] = NULL;
      OK(ndt_sync());
      ndt__host_pin_stats(core);
      counts(m1);
      EXPECT(core[0] == 0 && m1[UNREG] == m1[REG] && m1[LOST] == 0,
             "on: many buffers, round %d: %lld still registered, %ld registrations, %ld "
             "unregistered, %ld lost", round, (long long)core[0], m1[REG], m1[UNREG], m1[LOST]);
    }
    EXPECT(wrong == 0 && (!emu || m1[PCOPY] - m0[PCOPY] >= 4 * NB),
           "on: many buffers: %d wrong values, %ld pinned copies", wrong,
           m1[PCOPY] - m0[PCOPY]);
    free(x), free(r);
  }
  ndt_finalize();
  counts(c8);
  EXPECT(c8[LOST] == 0 && c8[UNREG] == c8[REG], "%s: at the end %ld registrations, %ld "
         "unregistered, %ld lost", mode, c8[REG], c8[UNREG], c8[LOST]);
  printf("test_cudapin %s: %d passed, %d failed\n", mode, passed, failed);
  return failed != 0;
}
