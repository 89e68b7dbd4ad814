/* test_cudamatmul.c - matrix products on a CUDA device through cuBLAS
 * (src/runtime/cuda_matmul.h), against the CPU. Run with the plugin's host
 * build (NDTILE_CUDA_PLUGIN=.../libndtile_cudahost.so: cuBLAS is then the
 * emulation next to it, tests/cudahost/cublashost.c) or on a GPU.
 *
 * Devices are chosen once per process, so the test runs itself as
 * children, each the same program of products (small tiles: many blocks,
 * K pieces, packed operands, a staging buffer with copy-out tasks, batches,
 * transposed, strided and .real views, mixed dtypes, matrix-vector
 * products, dot), writing its results to a file:
 *   cpu, 2 workers          the reference, and the bound of each float
 *                           result: 2 (K + 2) eps (|A| |B|), elementwise
 *   cuda:0,1, 1 worker      within the bound of the CPU's, integers exact;
 *   cuda:0,1, 2 workers     the same bits as with 1 worker,
 *   cuda:0,1, 2 workers     and as the run before (run to run);
 *   NDTILE_CUDA_TF32=1      float32 results change (the mode reaches cuBLAS);
 *   NDTILE_CUDA_CUBLAS=/nonexistent  the CPU's bits (products refused and
 *                           run on the CPU, everything else on the device).
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
  for (int64_t i = 0; i < 2 * n; i++) v[i] = rnd();
  if (t != NDT_FLOAT32 && t != NDT_FLOAT64 && t != NDT_COMPLEX64 && t != NDT_COMPLEX128)
    for (int64_t i = 0; i < 2 * n; i++) v[i] = t == NDT_BOOL ? (v[i] > 0.3) : floor(v[i] * 50);
  ndt_array *d = NULL, *r = NULL;
  OK(ndt_from_buffer(&d, t == NDT_COMPLEX64 || t == NDT_COMPLEX128 ? NDT_COMPLEX128 : NDT_FLOAT64,
                     nd, shape, v, NULL));
  OK(ndt_astype(&r, d, t, NDT_CAST_UNSAFE));
  ndt_free(d);
  free(v);
  return r;
}

static ndt_array *slice(ndt_array *a, int nd, const int64_t *lo, const int64_t *hi,
                        const int64_t *step) {
  ndt_index ix[NDT_MAXDIMS];
  for (int k = 0; k < nd; k++)
    ix[k] = (ndt_index){.kind = NDT_IDX_SLICE, .start = lo[k], .stop = hi[k], .step = step[k],
                        .has_start = 1, .has_stop = 1};
  ndt_array *v = NULL;
  OK(ndt_view_index(&v, a, nd, ix));
  return v;
}

static ndt_array *tr(ndt_array *a) {
  ndt_array *v = NULL;
  OK(ndt_transpose(&v, a, NULL));
  return v;
}

/* ---- a child: the program, its results to a file ---- */
typedef struct {
  const char *name;
  ndt_array *a, *b;
  int dot;
} mcase;

static FILE *out;
static int cpu_child;

/* writes the case's result (as complex128: every dtype fits) and, on the
 * CPU, its bound */
static void run_case(const mcase *c) {
  ndt_array *r = NULL;
  OK(c->dot ? ndt_dot(&r, c->a, c->b) : ndt_matmul(&r, c->a, c->b));
  int64_t n = ndt_size(r);
  ndt_array *z = NULL;
  OK(ndt_astype(&z, r, NDT_COMPLEX128, NDT_CAST_UNSAFE));
  double *v = malloc((size_t)(2 * n + 1) * sizeof *v);
  OK(ndt_to_buffer(z, v));
  int32_t t = (int32_t)ndt_dtype_of(r);
  int64_t K = ndt_shape(c->a)[ndt_ndim(c->a) - 1];
  fwrite(&t, sizeof t, 1, out);
  fwrite(&n, sizeof n, 1, out);
  fwrite(&K, sizeof K, 1, out);
  fwrite(v, sizeof *v, (size_t)(2 * n), out);
  if (cpu_child) {   /* |A| |B| in float64 */
    ndt_array *aa = NULL, *ab = NULL, *fa = NULL, *fb = NULL, *p = NULL;
    OK(ndt_unary(&aa, NDT_ABSOLUTE, c->a));
    OK(ndt_unary(&ab, NDT_ABSOLUTE, c->b));
    OK(ndt_astype(&fa, aa, NDT_FLOAT64, NDT_CAST_UNSAFE));
    OK(ndt_astype(&fb, ab, NDT_FLOAT64, NDT_CAST_UNSAFE));
    OK(c->dot ? ndt_dot(&p, fa, fb) : ndt_matmul(&p, fa, fb));
    OK(ndt_to_buffer(p, v));
    fwrite(v, sizeof *v, (size_t)n, out);
    ndt_array *all[] = {aa, ab, fa, fb, p};
    for (int i = 0; i < 5; i++) ndt_free(all[i]);
  }
  free(v);
  ndt_free(r);
  ndt_free(z);
}

static void program(void) {
  int64_t s1[2] = {70, 90}, s2[2] = {90, 400}, s3[2] = {120, 90}, s4[2] = {90, 150};
  ndt_array *A = make(NDT_FLOAT64, 2, s1), *B = make(NDT_FLOAT64, 2, s2);
  ndt_array *P = make(NDT_FLOAT64, 2, s3), *Q = make(NDT_FLOAT64, 2, s4);
  int64_t b3[3] = {3, 50, 60}, c3[3] = {3, 60, 40}, c2[2] = {60, 40};
  ndt_array *F = make(NDT_FLOAT32, 3, b3), *G = make(NDT_FLOAT32, 3, c3);
  ndt_array *G2 = make(NDT_FLOAT32, 2, c2);
  int64_t z1[2] = {60, 70}, z2[2] = {70, 50};
  ndt_array *Z = make(NDT_COMPLEX128, 2, z1), *W = make(NDT_COMPLEX128, 2, z2);
  ndt_array *Zc = make(NDT_COMPLEX64, 2, z1), *Wc = make(NDT_COMPLEX64, 2, z2);
  ndt_array *I = make(NDT_INT32, 2, s1), *J = make(NDT_INT64, 2, s2);
  int64_t mv[2] = {300, 200}, vl[1] = {200}, vl2[1] = {600};
  ndt_array *M = make(NDT_FLOAT64, 2, mv), *V = make(NDT_FLOAT64, 1, vl);
  ndt_array *V2 = make(NDT_FLOAT64, 1, vl2), *Mf = make(NDT_FLOAT32, 2, mv);
  ndt_array *Vf = make(NDT_FLOAT32, 1, vl2);
  int64_t z0[2] = {0, 0}, st2[2] = {1, 2}, hi2[2] = {90, 300}, one1[1] = {1}, zero1[1] = {0};
  int64_t three1[1] = {3}, hv[1] = {600}, hv2[1] = {300};
  ndt_array *Bs = slice(B, 2, z0, hi2, st2);           /* 90 x 150, every other column */
  ndt_array *Pt = tr(P), *Qt = tr(Q), *At = tr(A);    /* 90 x 120, 150 x 90, 90 x 70 */
  ndt_array *Vs = slice(V2, 1, zero1, hv, three1);    /* 200, stride 3 */
  ndt_array *Vf2 = slice(Vf, 1, zero1, hv2, one1);    /* 300 */
  ndt_array *Zr = NULL, *Wi = NULL;
  OK(ndt_real(&Zr, Z));
  OK(ndt_imag(&Wi, W));
  ndt_array *Mt = tr(M);
  /* long K: the blocks walk K pieces (beta = 1 after the first) */
  int64_t k1[2] = {20, 3000}, k2[2] = {3000, 50}, k3[2] = {12, 1500}, k4[2] = {1500, 30};
  ndt_array *KA = make(NDT_FLOAT64, 2, k1), *KB = make(NDT_FLOAT64, 2, k2);
  ndt_array *KAf = make(NDT_FLOAT32, 2, k1), *KBf = make(NDT_FLOAT32, 2, k2);
  ndt_array *KZ = make(NDT_COMPLEX128, 2, k3), *KW = make(NDT_COMPLEX128, 2, k4);
  ndt_array *KI = make(NDT_INT32, 2, k1), *KJ = make(NDT_INT32, 2, k2);
  ndt_array *KU = make(NDT_UINT16, 2, k1), *KV = make(NDT_UINT16, 2, k2);
  ndt_array *I8 = make(NDT_INT8, 2, s1), *J8 = make(NDT_INT8, 2, s2);
  ndt_array *Bo = make(NDT_BOOL, 2, k1), *Bp = make(NDT_BOOL, 2, k2);
  ndt_array *KJt = tr(KJ), *KJtt = tr(KJt);
  ndt_array *KBt = tr(KB);                          /* 50 x 3000 */
  ndt_array *KBtt = tr(KBt);                        /* (a view of a transposed view) */
  (void)KBtt;
  mcase cs[] = {
      {"float64, K pieces", KA, KB, 0},
      {"float32, K pieces", KAf, KBf, 0},
      {"complex128, K pieces", KZ, KW, 0},
      {"float64 (stage, K pieces)", A, B, 0},
      {"float64, a strided B (packed)", P, Bs, 0},
      {"float64, transposed operands", Qt, Pt, 0},
      {"float64, A^T A", At, A, 0},
      {"float32 batched", F, G, 0},
      {"float32 batched, B broadcast", F, G2, 0},
      {"complex128", Z, W, 0},
      {"complex64", Zc, Wc, 0},
      {"complex128 .real @ .imag", Zr, Wi, 0},
      {"int32 @ float64 (cast)", I, B, 0},
      {"int32 @ int64 (exact)", I, J, 0},
      {"int32, K pieces (wrapping sums)", KI, KJ, 0},
      {"int32, K pieces, B transposed twice", KI, KJtt, 0},
      {"uint16, K pieces", KU, KV, 0},
      {"int8 (wrapping), staging", I8, J8, 0},
      {"bool, K pieces", Bo, Bp, 0},
      {"float64 matrix-vector", M, V, 0},
      {"float64 vector-matrix (transposed)", V, Mt, 0},
      {"float64 matrix-vector, strided vector", M, Vs, 0},
      {"float32 vector-matrix", Vf2, Mf, 0},
      {"dot float64", A, B, 1},
      {"dot float32 3-d", F, G2, 1},
  };
  for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) run_case(&cs[i]);
  ndt_array *all[] = {A, B, P, Q, F, G, G2, Z, W, Zc, Wc, I, J, M, V, V2, Mf, Vf,
                      Bs, Pt, Qt, At, Vs, Vf2, Zr, Wi, Mt, KA, KB, KAf, KBf, KZ, KW, KBt, KBtt,
                      KI, KJ, KU, KV, I8, J8, Bo, Bp, KJt, KJtt};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) ndt_free(all[i]);
}

static int child(const char *devices, int workers, const char *file, int expect) {
  ndt_config cfg = {.workers = workers, .tile_bytes = 4096, .devices = devices};
  OK(ndt_init(&cfg));
  cpu_child = !strcmp(devices, "none");
  if (!cpu_child) {
    EXPECT(ndt_device_count() > 0, "a CUDA device (%s)", ndt_device_note());
    ndt_debug_device_log(1);
  }
  out = fopen(file, "wb");
  if (!out) return 2;
  program();
  fclose(out);
  if (!cpu_child) {
    OK(ndt_sync());
    const char *log = ndt_debug_device_log_text();
    const char *kinds[] = {"place matmul block cuda", "place matmul pack cuda",
                           "place matmul copyout cuda", "place matvec cuda"};
    /* (without cuBLAS the integer products still run on the device: only
     * the matrix-vector products, all float, are absent then) */
    for (int k = expect ? 0 : 3; k < 4; k++) {
      int found = strstr(log, kinds[k]) != NULL;
      EXPECT(found == expect, "%s %s in the device log", kinds[k],
             expect ? "found" : "not found");
    }
    /* (the transposed products' partials summed on the device too:
     * cuda_bincount.h's "matvec combine") */
    if (expect)
      EXPECT(strstr(log, "place matvec combine cuda") != NULL, "matvec combine on the device");
    ndt_debug_device_log(0);
  }
  ndt_finalize();
  printf("%s: %d passed, %d failed\n", devices, passed, failed);
  return failed ? 1 : 0;
}

/* ---- the driver ---- */
typedef struct {
  int32_t t;
  int64_t n, K;
  double *v, *bound;
} result;

static int read_results(const char *file, int cpu, result *r, int max) {
  FILE *f = fopen(file, "rb");
  if (!f) return -1;
  int n = 0;
  while (n < max && fread(&r[n].t, sizeof r[n].t, 1, f) == 1) {
    if (fread(&r[n].n, sizeof r[n].n, 1, f) != 1 || fread(&r[n].K, sizeof r[n].K, 1, f) != 1)
      break;
    r[n].v = malloc((size_t)(2 * r[n].n + 1) * sizeof(double));
    if (fread(r[n].v, sizeof(double), (size_t)(2 * r[n].n), f) != (size_t)(2 * r[n].n)) break;
    r[n].bound = NULL;
    if (cpu) {
      r[n].bound = malloc((size_t)(r[n].n + 1) * sizeof(double));
      if (fread(r[n].bound, sizeof(double), (size_t)r[n].n, f) != (size_t)r[n].n) break;
    }
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

static double eps_of(int t) { return t == NDT_FLOAT32 || t == NDT_COMPLEX64 ? 0x1p-23 : 0x1p-52; }
static int is_float(int t) {
  return t == NDT_FLOAT32 || t == NDT_FLOAT64 || t == NDT_COMPLEX64 || t == NDT_COMPLEX128;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child"))
    return child(argv[2], atoi(argv[3]), argv[4], atoi(argv[5]));
  char dir[] = "/tmp/test_cudamatmul.XXXXXX";
  if (!mkdtemp(dir)) return 2;
  char f[7][256];
  for (int i = 0; i < 7; i++) snprintf(f[i], sizeof f[i], "%s/r%d", dir, i);
  const char *self = "/proc/self/exe";
  char exe[1024];
  ssize_t el = readlink(self, exe, sizeof exe - 1);
  if (el <= 0) return 2;
  exe[el] = 0;
  int rc[7];
  rc[0] = spawn(exe, "none", "2", f[0], "0", NULL, NULL);
  rc[1] = spawn(exe, "cuda:0,1", "1", f[1], "1", NULL, NULL);
  rc[2] = spawn(exe, "cuda:0,1", "2", f[2], "1", NULL, NULL);
  rc[3] = spawn(exe, "cuda:0,1", "2", f[3], "1", NULL, NULL);
  rc[4] = spawn(exe, "cuda:0,1", "2", f[4], "1", "NDTILE_CUDA_TF32", "1");
  rc[5] = spawn(exe, "cuda:0,1", "2", f[5], "0", "NDTILE_CUDA_CUBLAS", "/nonexistent/libcublas.so");
  rc[6] = spawn(exe, "cuda:0,cuda:0", "2", f[6], "1", NULL, NULL);
  for (int i = 0; i < 7; i++) EXPECT(rc[i] == 0, "child %d exited with %d", i, rc[i]);
  enum { MAXC = 32 };
  static result r[7][MAXC];
  int n[7];
  for (int i = 0; i < 7; i++) n[i] = read_results(f[i], i == 0, r[i], MAXC);
  for (int i = 1; i < 7; i++) EXPECT(n[i] == n[0] && n[0] > 10, "child %d: %d results", i, n[i]);
  int cases = n[0];
  for (int c = 0; c < cases; c++) {
    const result *cpu = &r[0][c], *dev = &r[1][c];
    if (n[1] <= c) break;
    size_t bytes = (size_t)(2 * cpu->n) * sizeof(double);
    if (!is_float(cpu->t)) {
      EXPECT(!memcmp(cpu->v, dev->v, bytes), "case %d: integers exact on the device", c);
    } else {
      double worst = 0, eps = eps_of(cpu->t);
      for (int64_t i = 0; i < cpu->n; i++) {
        double b = 2.0 * (double)(cpu->K + 2) * eps * cpu->bound[i];
        double d = hypot(dev->v[2 * i] - cpu->v[2 * i], dev->v[2 * i + 1] - cpu->v[2 * i + 1]);
        double q = b > 0 ? d / b : (d > 0 ? INFINITY : 0);
        if (q > worst) worst = q;
      }
      EXPECT(worst <= 1, "case %d: |device - cpu| <= 2 (K + 2) eps |A||B| (worst ratio %g)", c,
             worst);
      printf("case %d (dtype %d, K %lld): worst |device - cpu| / bound = %.3g\n", c, cpu->t,
             (long long)cpu->K, worst);
    }
    for (int i = 2; i <= 3 && n[i] > c; i++)
      EXPECT(!memcmp(dev->v, r[i][c].v, bytes), "case %d: child %d has child 1's bits", c, i);
    if (n[6] > c)
      EXPECT(!memcmp(dev->v, r[6][c].v, bytes), "case %d: cuda:0,cuda:0 has cuda:0,1's bits", c);
    if (n[5] > c)
      EXPECT(!memcmp(cpu->v, r[5][c].v, bytes), "case %d: without cuBLAS, the CPU's bits", c);
  }
  /* TF32: some float32 product differs from the full float32 one */
  int tf_diff = 0;
  for (int c = 0; c < cases && n[4] > c && n[1] > c; c++)
    if (r[0][c].t == NDT_FLOAT32)
      tf_diff |= memcmp(r[1][c].v, r[4][c].v, (size_t)(2 * r[1][c].n) * sizeof(double)) != 0;
  /* (the emulated cuBLAS rounds every TF32 product; a GPU's cuBLAS may
   * keep small ones in full float32, so there it is reported only) */
  const char *pl = getenv("NDTILE_CUDA_PLUGIN");
  if (pl && strstr(pl, "cudahost")) EXPECT(tf_diff, "NDTILE_CUDA_TF32=1 changes float32 products");
  else printf("NDTILE_CUDA_TF32=1 %s float32 products\n", tf_diff ? "changes" : "does not change");
  for (int i = 0; i < 7; i++) remove(f[i]);
  rmdir(dir);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
