/* test_fused_gen.c - the fused kernels' generator (src/runtime/fused_gen.c)
 * against the real NVRTC, on CPUs: programs of the interpreter (arithmetic,
 * comparisons, clip, loop casts, every cast between the 13 dtypes) become
 * sources that NVRTC compiles for sm_90, with the headers built into the
 * plugin. NVRTC runs without a GPU; where libnvrtc is missing the test says
 * so and is skipped (77). That these kernels give the interpreter's bits
 * is checked through the plugin's host build (tests/python/test_devices.py:
 * the same sources compiled as C). Also: the key follows the source and the
 * arch, and a program with an entry the generator does not know is refused
 * (the interpreter keeps it). */
#define NDT_SC_EMULATE 1
#define NDT_DK_HOST 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/cuda/ew_impl.h"
#include "kernels/cuda/fused_impl.h"
#include "runtime/fused_gen.h"

static int fails;
#define CHECK(c)                                                    \
  do {                                                              \
    if (!(c)) {                                                     \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
      fails++;                                                      \
    }                                                               \
  } while (0)

static int key_of(int op, int nin, int a, int b, int out) {
  int loop[4] = {a, b, b, out};
  loop[nin] = out;
  return ndt__dk_ew_key(op, nin, loop, 0);
}

/* a step of op over loop dtype t (inputs src, of dtypes in_dt) */
static void step(ndt_dk_fprog *P, int key, int nin, const int *src, const int *in_dt,
                 const int *loop_in, int loop_out, int out_dt, int out, int flag) {
  ndt_dk_fstep *s = &P->step[P->nstep++];
  s->key = key;
  s->nin = (int8_t)nin;
  for (int k = 0; k < nin; k++) {
    s->src[k] = (int8_t)src[k];
    s->in_dt[k] = (uint8_t)in_dt[k];
    s->loop_in[k] = (uint8_t)loop_in[k];
  }
  s->loop_out = (uint8_t)loop_out;
  s->out_dt = (uint8_t)out_dt;
  s->out = (int8_t)out;
  s->flag = (int8_t)flag;
}

int main(void) {
  static ndt_dk_fprog progs[64];
  int np = 0;
  ndt__dk_init();   /* (ew_impl.h's table of entries) */
  for (int t = 0; t < NDT_NTYPES; t++) {   /* a chain on each dtype */
    ndt_dk_fprog *P = &progs[np++];
    memset(P, 0, sizeof *P);
    int mul = key_of(NDT_MULTIPLY, 2, t, t, t), add = key_of(NDT_ADD, 2, t, t, t);
    int lt = key_of(NDT_LESS, 2, t, t, NDT_BOOL);
    CHECK(mul >= 0 && add >= 0);
    step(P, mul, 2, (int[]){0, 1}, (int[]){t, t}, (int[]){t, t}, t, t, -1, 0);
    /* an int8 operand cast into the loop's dtype; the result cast to int16 */
    step(P, add, 2, (int[]){-1, 2}, (int[]){t, NDT_INT8}, (int[]){t, t}, t, NDT_INT16, 3, 1);
    if (lt >= 0)
      step(P, lt, 2, (int[]){0, 1}, (int[]){t, t}, (int[]){t, t}, NDT_BOOL, NDT_BOOL, 4, 2);
    step(P, -1, 1, (int[]){-2}, (int[]){NDT_INT16}, (int[]){NDT_INT16}, NDT_INT16,
         NDT_FLOAT64, 5, 3);
    P->nop = 6;
  }
  for (int t = 0; t < NDT_NTYPES; t++) {   /* every cast from t */
    ndt_dk_fprog *P = &progs[np++];
    memset(P, 0, sizeof *P);
    for (int u = 0; u < NDT_NTYPES; u++)
      step(P, -1, 1, (int[]){0}, (int[]){t}, (int[]){t}, t, u, 1 + u, u);
    P->nop = 1 + NDT_NTYPES;
  }
  {   /* the device's math functions (exp, atan2) on float64 and float32 */
    ndt_dk_fprog *P = &progs[np++];
    memset(P, 0, sizeof *P);
    int d = NDT_FLOAT64, f = NDT_FLOAT32;
    int ex = key_of(NDT_EXP, 1, d, d, d), at = key_of(NDT_ARCTAN2, 2, f, f, f);
    CHECK(ex >= 0 && at >= 0);
    step(P, ex, 1, (int[]){0}, (int[]){d}, (int[]){d}, d, d, 2, 0);
    step(P, at, 2, (int[]){0, 1}, (int[]){d, f}, (int[]){f, f}, f, f, 3, 1);
    P->nop = 4;
  }
  {   /* clip, a three-input entry, on float32 */
    ndt_dk_fprog *P = &progs[np++];
    memset(P, 0, sizeof *P);
    int f = NDT_FLOAT32, clip = key_of(NDT_CLIP, 3, f, f, f);
    CHECK(clip >= 0);
    step(P, clip, 3, (int[]){0, 1, 2}, (int[]){f, f, NDT_FLOAT64}, (int[]){f, f, f}, f, f, 3, 0);
    P->nop = 4;
  }

  /* the sources, one kernel each, in one program for NVRTC (the headers
   * are guarded: included again, they add nothing) */
  size_t cap = (size_t)1 << 22, n = 0;
  char *all = malloc(cap), one[1 << 16], name[32];
  for (int i = 0; i < np; i++) {
    snprintf(name, sizeof name, "ndt_fk%d", i);
    int k = ndt__fgen_source(&progs[i], name, one, sizeof one);
    CHECK(k > 0);
    if (k <= 0) continue;
    memcpy(all + n, one, (size_t)k + 1);
    n += (size_t)k;
  }
  /* the key: the same for the same source and target, another when the
   * source, the arch, NVRTC's version, the driver's or the emulation
   * differs */
  ndt__fgen_source(&progs[0], "ndt_fused", one, sizeof one);
  const ndt_fgen_target t90 = {90, 13000, 13000, 0};
  uint64_t k90 = ndt__fgen_key(one, &t90);
  ndt_fgen_target same = t90;
  CHECK(k90 == ndt__fgen_key(one, &same));
  const ndt_fgen_target others[] = {{80, 13000, 13000, 0}, {90, 13010, 13000, 0},
                                    {90, 12090, 13000, 0}, {90, 13000, 13020, 0},
                                    {90, 13000, 13000, 1}};
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    CHECK(ndt__fgen_key(one, &others[i]) != k90);
  char other[1 << 16];
  ndt__fgen_source(&progs[1], "ndt_fused", other, sizeof other);
  CHECK(ndt__fgen_key(other, &t90) != k90);
  /* an entry the generator does not know, a source that does not fit */
  ndt_dk_fprog bad = progs[0];
  bad.step[0].key = 1 << 30;
  CHECK(ndt__fgen_source(&bad, "ndt_fused", one, sizeof one) == -1);
  CHECK(ndt__fgen_source(&progs[0], "ndt_fused", one, 100) == -1);

  ndt_nvrtc nv;
  char why[512], log[4096];
  if (ndt__nvrtc_open(&nv, why, sizeof why)) {
    printf("skipped: %s\n", why);
    free(all);
    return fails ? 1 : 77;
  }
  /* its version, for the key (CUDA 12 or later: the library calls) */
  int major = 0, minor = -1;
  CHECK(nv.version(&major, &minor) == 0 && major >= 12 && minor >= 0);
  void *bin;
  size_t len;
  int rc = ndt__fgen_compile(&nv, all, 90, &bin, &len, log, sizeof log);
  if (rc) fprintf(stderr, "NVRTC:\n%s\n", log);
  CHECK(rc == 0 && len > 0);
  /* a cubin is an ELF image */
  CHECK(rc == 0 && len > 4 && !memcmp(bin, "\x7f" "ELF", 4));
  printf("%d fused kernels (%zu bytes of source) compiled by NVRTC %d.%d for sm_90: %zu bytes\n",
         np, n, major, minor, len);
  free(bin);
  free(all);
  return fails ? 1 : 0;
}
