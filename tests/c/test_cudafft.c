/* test_cudafft.c - FFTs on a CUDA device through cuFFT
 * (src/runtime/cuda_fft.h), against the CPU's FFT. Run with the plugin's
 * host build (NDTILE_CUDA_PLUGIN=.../libndtile_cudahost.so: cuFFT is then
 * the emulation next to it, tests/cudahost/cuffthost.c) or on a GPU.
 *
 * Devices are chosen once per process, so the test runs itself as
 * children, each the same program of transforms (small tiles: many blocks
 * of lines; every kind, every norm's scale, n padded and cut, even, odd
 * and prime lengths, float32/complex64 in single precision, integer
 * input, a reversed strided view, a middle axis of a 3-d array), writing
 * its results to a file, lines along the transformed axis contiguous:
 *   cpu, 2 workers          the reference;
 *   cuda:0,1, 1 worker      every line within the stated bound of the CPU's,
 *                           ||y - y_cpu||_2 <= 8 eps (log2 n + 1) ||y_cpu||_2;
 *   cuda:0,1, 2 workers     the same bits as with 1 worker,
 *   cuda:0,cuda:0           and on two devices of one GPU;
 *   NDTILE_CUDA_CUFFT=/nonexistent  the CPU's bits (FFTs refused and run on
 *                           the CPU).
 * Each cuda child checks in the device log where the tasks were placed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ndtile.h"
#include "check.h"

static uint64_t rng = 88172645463325252ull;
static double rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static ndt_array *make(ndt_dtype t, int nd, const int64_t *shape) {
  int64_t n = 1;
  for (int k = 0; k < nd; k++) n *= shape[k];
  double *v = malloc((size_t)(2 * n) * sizeof *v);
  for (int64_t i = 0; i < 2 * n; i++) v[i] = t == NDT_INT32 ? floor(rnd() * 100) : rnd();
  ndt_array *d = NULL, *r = NULL;
  OK(ndt_from_buffer(&d, t == NDT_COMPLEX64 || t == NDT_COMPLEX128 ? NDT_COMPLEX128 : NDT_FLOAT64,
                     nd, shape, v, NULL));
  OK(ndt_astype(&r, d, t, NDT_CAST_UNSAFE));
  ndt_free(d);
  free(v);
  return r;
}

typedef struct {
  ndt_array *a;
  int axis;
  int64_t n;
  ndt_fft_kind kind;
  double scale;
} fcase;

static FILE *out;

/* writes the result as complex128, the transformed axis last (its lines
 * contiguous), with its dtype, n and line length */
static void run_case(const fcase *c) {
  ndt_array *r = NULL, *t = NULL, *z = NULL;
  OK(ndt_fft(&r, c->a, c->axis, c->n, c->kind, c->scale));
  int nd = ndt_ndim(r), ax = c->axis < 0 ? c->axis + nd : c->axis, perm[NDT_MAXDIMS], k = 0;
  for (int i = 0; i < nd; i++)
    if (i != ax) perm[k++] = i;
  perm[k] = ax;
  OK(ndt_transpose(&t, r, perm));
  OK(ndt_astype(&z, t, NDT_COMPLEX128, NDT_CAST_UNSAFE));
  int64_t n = ndt_size(z), len = ndt_shape(r)[ax];
  double *v = malloc((size_t)(2 * n + 1) * sizeof *v);
  OK(ndt_to_buffer(z, v));
  int32_t dt = (int32_t)ndt_dtype_of(r);
  fwrite(&dt, sizeof dt, 1, out);
  fwrite(&n, sizeof n, 1, out);
  fwrite(&c->n, sizeof c->n, 1, out);
  fwrite(&len, sizeof len, 1, out);
  fwrite(v, sizeof *v, (size_t)(2 * n), out);
  free(v);
  ndt_free(r);
  ndt_free(t);
  ndt_free(z);
}

static void program(void) {
  int64_t s1[2] = {60, 300}, s2[2] = {50, 257}, s3[2] = {40, 128}, s4[3] = {6, 20, 30};
  int64_t s5[2] = {30, 64};
  ndt_array *Z = make(NDT_COMPLEX128, 2, s1), *R = make(NDT_FLOAT64, 2, s2);
  ndt_array *F = make(NDT_FLOAT32, 2, s3), *C = make(NDT_COMPLEX64, 2, s3);
  ndt_array *Z3 = make(NDT_COMPLEX128, 3, s4), *I = make(NDT_INT32, 2, s5);
  ndt_index ix[2] = {{.kind = NDT_IDX_SLICE, .step = 1},
                     {.kind = NDT_IDX_SLICE, .step = -2}};
  ndt_array *Zv = NULL;   /* Z[:, ::-2] */
  OK(ndt_view_index(&Zv, Z, 2, ix));
  fcase cs[] = {
      {Z, 1, 300, NDT_FFT_FORWARD, 1.0},
      {Z, 0, 64, NDT_FFT_BACKWARD, 1.0 / 64},            /* a column, padded */
      {Z, 1, 331, NDT_FFT_FORWARD, 1.0 / sqrt(331.0)},   /* prime, padded */
      {Z, 1, 100, NDT_FFT_BACKWARD, 0.01},               /* cut */
      {R, 1, 257, NDT_FFT_R2C, 1.0},
      {R, 0, 40, NDT_FFT_R2C, 1.0 / 40},
      {Z, 1, 598, NDT_FFT_C2R, 1.0 / 598},
      {Z, 1, 101, NDT_FFT_C2R, 1.0},                     /* odd n, cut */
      {Z, 0, 200, NDT_FFT_C2R, 1.0},                     /* a column, padded */
      {F, 1, 128, NDT_FFT_R2C, 1.0},
      {C, 0, 40, NDT_FFT_FORWARD, 1.0},
      {C, 1, 254, NDT_FFT_C2R, 1.0 / 254},
      {I, 1, 64, NDT_FFT_FORWARD, 1.0},
      {Zv, 1, 150, NDT_FFT_FORWARD, 1.0},
      {Z3, 1, 20, NDT_FFT_BACKWARD, 0.05},
  };
  for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) run_case(&cs[i]);
  ndt_array *all[] = {Z, R, F, C, Z3, I, Zv};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) ndt_free(all[i]);
}

static int child(const char *devices, int workers, const char *file, int expect) {
  ndt_config cfg = {.workers = workers, .tile_bytes = 4096, .devices = devices};
  OK(ndt_init(&cfg));
  int cpu = !strcmp(devices, "none");
  if (!cpu) {
    EXPECT(ndt_device_count() > 0, "a CUDA device (%s)", ndt_device_note());
    ndt_debug_device_log(1);
  }
  out = fopen(file, "wb");
  if (!out) return 2;
  program();
  fclose(out);
  if (!cpu) {
    OK(ndt_sync());
    int found = strstr(ndt_debug_device_log_text(), "place fft cuda") != NULL;
    EXPECT(found == expect, "fft tasks %s on a device in the log", expect ? "placed" : "not placed");
    ndt_debug_device_log(0);
  }
  ndt_finalize();
  printf("%s: %d passed, %d failed\n", devices, passed, failed);
  return failed ? 1 : 0;
}

/* ---- the driver ---- */
typedef struct {
  int32_t t;
  int64_t n, tn, len;
  double *v;
} result;

static int read_results(const char *file, result *r, int max) {
  FILE *f = fopen(file, "rb");
  if (!f) return -1;
  int n = 0;
  while (n < max && fread(&r[n].t, sizeof r[n].t, 1, f) == 1) {
    if (fread(&r[n].n, sizeof r[n].n, 1, f) != 1 || fread(&r[n].tn, sizeof r[n].tn, 1, f) != 1 ||
        fread(&r[n].len, sizeof r[n].len, 1, f) != 1)
      break;
    r[n].v = malloc((size_t)(2 * r[n].n + 1) * sizeof(double));
    if (fread(r[n].v, sizeof(double), (size_t)(2 * r[n].n), f) != (size_t)(2 * r[n].n)) break;
    n++;
  }
  fclose(f);
  return n;
}

static int spawn(const char *self, const char *devices, const char *workers, const char *file,
                 const char *expect, const char *env, const char *val) {
  pid_t p = fork();
  if (p == 0) {
    if (env) setenv(env, val, 1);
    execl(self, self, "child", devices, workers, file, expect, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(p, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child"))
    return child(argv[2], atoi(argv[3]), argv[4], atoi(argv[5]));
  char dir[] = "/tmp/test_cudafft.XXXXXX";
  if (!mkdtemp(dir)) return 2;
  enum { NCH = 5, MAXC = 32 };
  char f[NCH][256];
  for (int i = 0; i < NCH; i++) snprintf(f[i], sizeof f[i], "%s/r%d", dir, i);
  char exe[1024];
  ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (el <= 0) return 2;
  exe[el] = 0;
  int rc[NCH];
  rc[0] = spawn(exe, "none", "2", f[0], "0", NULL, NULL);
  rc[1] = spawn(exe, "cuda:0,1", "1", f[1], "1", NULL, NULL);
  rc[2] = spawn(exe, "cuda:0,1", "2", f[2], "1", NULL, NULL);
  rc[3] = spawn(exe, "cuda:0,cuda:0", "2", f[3], "1", NULL, NULL);
  rc[4] = spawn(exe, "cuda:0,1", "2", f[4], "0", "NDTILE_CUDA_CUFFT", "/nonexistent/libcufft.so");
  for (int i = 0; i < NCH; i++) EXPECT(rc[i] == 0, "child %d exited with %d", i, rc[i]);
  static result r[NCH][MAXC];
  int n[NCH];
  for (int i = 0; i < NCH; i++) n[i] = read_results(f[i], r[i], MAXC);
  for (int i = 1; i < NCH; i++) EXPECT(n[i] == n[0] && n[0] > 10, "child %d: %d results", i, n[i]);
  for (int c = 0; c < n[0] && c < n[1]; c++) {
    const result *cpu = &r[0][c], *dev = &r[1][c];
    double eps = cpu->t == NDT_FLOAT32 || cpu->t == NDT_COMPLEX64 ? 0x1p-23 : 0x1p-52;
    double k = 8 * eps * (log2((double)cpu->tn) + 1), worst = 0;
    for (int64_t l = 0; l < cpu->n / cpu->len; l++) {
      double e = 0, y = 0;
      for (int64_t j = 2 * l * cpu->len; j < 2 * (l + 1) * cpu->len; j++) {
        e += (dev->v[j] - cpu->v[j]) * (dev->v[j] - cpu->v[j]);
        y += cpu->v[j] * cpu->v[j];
      }
      double q = y > 0 ? sqrt(e) / (k * sqrt(y)) : (e > 0 ? INFINITY : 0);
      if (q > worst) worst = q;
    }
    EXPECT(worst <= 1, "case %d: a line's ||device - cpu|| over the bound (worst ratio %g)", c,
           worst);
    printf("case %d (dtype %d, n %lld): worst ||device - cpu|| / bound = %.3g\n", c, cpu->t,
           (long long)cpu->tn, worst);
    size_t bytes = (size_t)(2 * cpu->n) * sizeof(double);
    for (int i = 2; i <= 3 && n[i] > c; i++)
      EXPECT(!memcmp(dev->v, r[i][c].v, bytes), "case %d: child %d has child 1's bits", c, i);
    if (n[4] > c)
      EXPECT(!memcmp(cpu->v, r[4][c].v, bytes), "case %d: without cuFFT, the CPU's bits", c);
  }
  for (int i = 0; i < NCH; i++) remove(f[i]);
  rmdir(dir);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
