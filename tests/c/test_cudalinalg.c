/* test_cudalinalg.c - solve, inv and cholesky on a CUDA device through
 * cuSOLVER (src/runtime/cuda_linalg.h), against the CPU's LAPACK. Run with
 * the plugin's host build (NDTILE_CUDA_PLUGIN=.../libndtile_cudahost.so:
 * cuSOLVER is then the emulation next to it, tests/cudahost/
 * cusolverhost.c) or on a GPU.
 *
 * Devices are chosen once per process, so the test runs itself as
 * children, each the same program (small tiles: stacks cut into several
 * tasks; float64, float32, complex128 and int32 input, lower and upper
 * factors, broadcast right-hand sides, one larger matrix), writing its
 * results to a file, and checking that a stack with one singular matrix
 * fails with "Singular matrix" and one that is not positive definite with
 * "Matrix is not positive definite" (NDT_ERR_LINALG), as on the CPU:
 *   cpu, 2 workers          the reference, with each matrix's condition
 *                           number (its singular values, on the CPU);
 *   cuda:0,1, 1 worker      every matrix within the stated bound,
 *                           ||X - X_cpu||_F <= 8 n eps cond(A) ||X_cpu||_F
 *                           (eps of the result's precision);
 *   cuda:0,1, 2 workers     the same bits as with 1 worker,
 *   cuda:0,cuda:0           and on two devices of one GPU;
 *   NDTILE_CUDA_CUSOLVER=/nonexistent  the CPU's bits;
 *   NDTILE_CUDA_CUBLAS=/nonexistent    within the bound: solve and inv one
 *                           cuSOLVER call per matrix, not cuBLAS's batched LU.
 * Each cuda child checks in the device log where the tasks were placed.
 * With the host build, the calls are counted (NDTILE_CUDAHOST_STATS): the
 * stacks of small matrices (order <= 32) go through the batched calls,
 * the 50 x 50 matrix (solve and inv: getrf + getrs each) one call per
 * matrix. */
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

/* nb matrices of n x n (cols columns for a right-hand side: no diagonal),
 * dtype t; kind 0 plain, 1 + n I (well conditioned; integers diagonally
 * dominant: an exactly singular matrix may leave a tiny pivot in one
 * library's rounding and an exact 0 in the other's), 2 A A^H + n I (SPD);
 * matrix bad (-1: none) zero (kind 1) or negated (kind 2) */
static ndt_array *make(ndt_dtype t, int64_t nb, int64_t n, int64_t cols, int kind, int64_t bad) {
  int cx = t == NDT_COMPLEX64 || t == NDT_COMPLEX128;
  int64_t sz = nb * n * cols;
  double *v = calloc((size_t)(2 * sz), sizeof *v), *w = malloc((size_t)(2 * sz) * sizeof *w);
  for (int64_t i = 0; i < 2 * sz; i++) w[i] = t == NDT_INT32 ? floor(rnd() * 5) : rnd();
  if (!cx)
    for (int64_t i = 0; i < sz; i++) w[2 * i + 1] = 0;
  for (int64_t q = 0; q < nb; q++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < cols; j++) {
        double *o = v + 2 * (q * n * cols + i * cols + j);
        const double *x = w + 2 * q * n * cols;
        if (kind == 2) {   /* sum_k a_ik conj(a_jk) */
          for (int64_t k = 0; k < n; k++) {
            const double *a = x + 2 * (i * n + k), *b = x + 2 * (j * n + k);
            o[0] += a[0] * b[0] + a[1] * b[1];
            o[1] += a[1] * b[0] - a[0] * b[1];
          }
        } else {
          o[0] = x[2 * (i * cols + j)];
          o[1] = x[2 * (i * cols + j) + 1];
        }
        if (kind && i == j) o[0] += t == NDT_INT32 ? 5.0 * (double)n + 1 : (double)n;
        if (q == bad) {
          o[0] = kind == 2 ? -o[0] : 0;
          o[1] = kind == 2 ? -o[1] : 0;
        }
      }
  ndt_array *d = NULL, *r = NULL;
  int64_t shape[3] = {nb, n, cols};
  if (cx) {
    OK(ndt_from_buffer(&d, NDT_COMPLEX128, 3, shape, v, NULL));
  } else {
    for (int64_t i = 0; i < sz; i++) v[i] = v[2 * i];
    OK(ndt_from_buffer(&d, NDT_FLOAT64, 3, shape, v, NULL));
  }
  OK(ndt_astype(&r, d, t, NDT_CAST_UNSAFE));
  ndt_free(d);
  free(v);
  free(w);
  return r;
}

typedef struct {
  ndt_linalg_op op;
  ndt_array *a, *b;
  int flags;
} lcase;

static FILE *out;
static int cpu_child;

/* writes the result as complex128, its dtype, n, the matrices' count and
 * (on the CPU) each matrix's 2-norm condition number */
static void run_case(const lcase *c) {
  ndt_array *r[NDT_LINALG_NOUT] = {NULL}, *z = NULL;
  OK(ndt_linalg(r, c->op, c->a, c->b, (ndt_linalg_flags)c->flags, 0));
  OK(ndt_astype(&z, r[0], NDT_COMPLEX128, NDT_CAST_UNSAFE));
  int64_t sz = ndt_size(z), n = ndt_shape(c->a)[ndt_ndim(c->a) - 1];
  int64_t nmat = ndt_ndim(r[0]) > 2 ? ndt_shape(r[0])[0] : 1;
  double *v = malloc((size_t)(2 * sz + 1) * sizeof *v);
  OK(ndt_to_buffer(z, v));
  int32_t dt = (int32_t)ndt_dtype_of(r[0]);
  fwrite(&dt, sizeof dt, 1, out);
  fwrite(&sz, sizeof sz, 1, out);
  fwrite(&n, sizeof n, 1, out);
  fwrite(&nmat, sizeof nmat, 1, out);
  fwrite(v, sizeof *v, (size_t)(2 * sz), out);
  if (cpu_child) {
    ndt_array *s[NDT_LINALG_NOUT] = {NULL}, *sa = NULL;
    ndt_dtype at = ndt_dtype_of(c->a);
    OK(ndt_astype(&sa, c->a, at == NDT_COMPLEX64 || at == NDT_COMPLEX128 ? NDT_COMPLEX128
                                                                         : NDT_FLOAT64,
                  NDT_CAST_UNSAFE));
    OK(ndt_linalg(s, NDT_LINALG_SVD, sa, NULL, NDT_LINALG_DEFAULT, 0));
    int64_t ns = ndt_size(s[0]);
    double *sv = malloc((size_t)(ns + 1) * sizeof *sv), *cond = malloc((size_t)nmat * sizeof *cond);
    OK(ndt_to_buffer(s[0], sv));
    for (int64_t q = 0; q < nmat; q++) {
      int64_t m = ns / nmat;
      cond[q] = sv[q * m] / sv[q * m + m - 1];
    }
    fwrite(cond, sizeof *cond, (size_t)nmat, out);
    free(sv);
    free(cond);
    ndt_free(s[0]);
    ndt_free(sa);
  }
  free(v);
  for (int i = 0; i < NDT_LINALG_NOUT; i++) ndt_free(r[i]);
  ndt_free(z);
}

/* a stack with one bad matrix fails with NumPy's message */
static void expect_error(ndt_linalg_op op, ndt_array *a, const char *msg) {
  ndt_array *r[NDT_LINALG_NOUT] = {NULL};
  ndt_status s = ndt_linalg(r, op, a, NULL, NDT_LINALG_DEFAULT, 0);
  if (s == NDT_OK) s = ndt_sync();
  EXPECT(s == NDT_ERR_LINALG && strstr(ndt_last_error(), msg), "%s: got %d (%s)", msg, (int)s,
         ndt_last_error());
  for (int i = 0; i < NDT_LINALG_NOUT; i++) ndt_free(r[i]);
}

static void program(void) {
  ndt_array *A = make(NDT_FLOAT64, 60, 6, 6, 1, -1), *B = make(NDT_FLOAT64, 60, 6, 2, 0, -1);
  ndt_array *S = make(NDT_FLOAT64, 60, 6, 6, 2, -1), *Z = make(NDT_COMPLEX128, 40, 5, 5, 1, -1);
  ndt_array *H = make(NDT_COMPLEX128, 40, 5, 5, 2, -1), *F = make(NDT_FLOAT32, 50, 4, 4, 1, -1);
  ndt_array *I = make(NDT_INT32, 30, 4, 4, 1, -1), *L = make(NDT_FLOAT64, 1, 50, 50, 1, -1);
  ndt_array *LB = make(NDT_FLOAT64, 1, 50, 3, 0, -1);
  ndt_array *B1 = NULL;   /* B[0]: one right-hand side broadcast over the stack */
  ndt_index ix[1] = {{.kind = NDT_IDX_INT, .start = 0}};
  OK(ndt_view_index(&B1, B, 1, ix));
  lcase cs[] = {
      {NDT_LINALG_SOLVE, A, B, 0},
      {NDT_LINALG_SOLVE, A, B1, 0},
      {NDT_LINALG_INV, A, NULL, 0},
      {NDT_LINALG_CHOLESKY, S, NULL, 0},
      {NDT_LINALG_CHOLESKY, S, NULL, NDT_LINALG_UPPER},
      {NDT_LINALG_INV, Z, NULL, 0},
      {NDT_LINALG_CHOLESKY, H, NULL, 0},
      {NDT_LINALG_CHOLESKY, H, NULL, NDT_LINALG_UPPER},
      {NDT_LINALG_INV, F, NULL, 0},
      {NDT_LINALG_INV, I, NULL, 0},
      {NDT_LINALG_SOLVE, L, LB, 0},
      {NDT_LINALG_INV, L, NULL, 0},
  };
  for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) run_case(&cs[i]);
  ndt_array *Zs = make(NDT_FLOAT64, 60, 6, 6, 1, 41), *Np = make(NDT_FLOAT64, 60, 6, 6, 2, 50);
  expect_error(NDT_LINALG_INV, Zs, "Singular matrix");
  expect_error(NDT_LINALG_CHOLESKY, Np, "Matrix is not positive definite");
  ndt_array *all[] = {A, B, S, Z, H, F, I, L, LB, B1, Zs, Np};
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
    int found = strstr(ndt_debug_device_log_text(), "place linalg cuda") != NULL;
    EXPECT(found == expect, "linalg tasks %s on a device in the log",
           expect ? "placed" : "not placed");
    ndt_debug_device_log(0);
  }
  ndt_finalize();
  printf("%s: %d passed, %d failed\n", devices, passed, failed);
  return failed ? 1 : 0;
}

/* ---- the driver ---- */
typedef struct {
  int32_t t;
  int64_t sz, n, nmat;
  double *v, *cond;
} result;

static int read_results(const char *file, int cpu, result *r, int max) {
  FILE *f = fopen(file, "rb");
  if (!f) return -1;
  int n = 0;
  while (n < max && fread(&r[n].t, sizeof r[n].t, 1, f) == 1) {
    if (fread(&r[n].sz, sizeof r[n].sz, 1, f) != 1 || fread(&r[n].n, sizeof r[n].n, 1, f) != 1 ||
        fread(&r[n].nmat, sizeof r[n].nmat, 1, f) != 1)
      break;
    r[n].v = malloc((size_t)(2 * r[n].sz + 1) * sizeof(double));
    if (fread(r[n].v, sizeof(double), (size_t)(2 * r[n].sz), f) != (size_t)(2 * r[n].sz)) break;
    r[n].cond = NULL;
    if (cpu) {
      r[n].cond = malloc((size_t)r[n].nmat * sizeof(double));
      if (fread(r[n].cond, sizeof(double), (size_t)r[n].nmat, f) != (size_t)r[n].nmat) break;
    }
    n++;
  }
  fclose(f);
  return n;
}

/* the count named what in the host build's NDTILE_CUDAHOST_STATS line in
 * file (-1: none) */
static long stat_of(const char *file, const char *what) {
  FILE *f = fopen(file, "r");
  char line[4096];
  long v = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "cudahost: ", 10))
      for (char *p = strtok(line + 10, ",;\n"); p; p = strtok(NULL, ",;\n")) {
        char name[64];
        long x;
        if (sscanf(p, " %ld %63[^\n]", &x, name) == 2 && !strcmp(name, what)) v = x;
      }
  if (f) fclose(f);
  return v;
}

static int spawn(const char *self, const char *devices, const char *workers, const char *file,
                 const char *expect, const char *env, const char *val, const char *err) {
  pid_t p = fork();
  if (p == 0) {
    if (env) setenv(env, val, 1);
    if (err && freopen(err, "w", stderr)) setenv("NDTILE_CUDAHOST_STATS", "1", 1);
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
  char dir[] = "/tmp/test_cudalinalg.XXXXXX";
  if (!mkdtemp(dir)) return 2;
  enum { NCH = 6, MAXC = 32 };
  char f[NCH][256], e[NCH][256];
  for (int i = 0; i < NCH; i++) {
    snprintf(f[i], sizeof f[i], "%s/r%d", dir, i);
    snprintf(e[i], sizeof e[i], "%s/e%d", dir, i);
  }
  char exe[1024];
  ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (el <= 0) return 2;
  exe[el] = 0;
  int rc[NCH];
  rc[0] = spawn(exe, "none", "2", f[0], "0", NULL, NULL, NULL);
  rc[1] = spawn(exe, "cuda:0,1", "1", f[1], "1", NULL, NULL, e[1]);
  rc[2] = spawn(exe, "cuda:0,1", "2", f[2], "1", NULL, NULL, NULL);
  rc[3] = spawn(exe, "cuda:0,cuda:0", "2", f[3], "1", NULL, NULL, NULL);
  rc[4] = spawn(exe, "cuda:0,1", "2", f[4], "0", "NDTILE_CUDA_CUSOLVER",
                "/nonexistent/libcusolver.so", NULL);
  rc[5] = spawn(exe, "cuda:0,1", "2", f[5], "1", "NDTILE_CUDA_CUBLAS",
                "/nonexistent/libcublas.so", e[5]);
  for (int i = 0; i < NCH; i++) EXPECT(rc[i] == 0, "child %d exited with %d", i, rc[i]);
  const char *plugin = getenv("NDTILE_CUDA_PLUGIN");
  if (plugin && strstr(plugin, "cudahost")) {   /* the host build counts the calls */
    long b1 = stat_of(e[1], "batched solver launches"), s1 = stat_of(e[1], "solver launches");
    long b5 = stat_of(e[5], "batched solver launches"), s5 = stat_of(e[5], "solver launches");
    EXPECT(b1 > 0 && s1 == 4, "small matrices batched (%ld calls), the 50 x 50 one per matrix "
           "(%ld calls, want 4)", b1, s1);
    EXPECT(b5 > 0 && s5 > 60 * 3, "without cuBLAS: cholesky batched (%ld calls), solve and inv "
           "per matrix (%ld calls)", b5, s5);
  }
  static result r[NCH][MAXC];
  int n[NCH];
  for (int i = 0; i < NCH; i++) n[i] = read_results(f[i], i == 0, r[i], MAXC);
  for (int i = 1; i < NCH; i++) EXPECT(n[i] == n[0] && n[0] > 10, "child %d: %d results", i, n[i]);
  for (int c = 0; c < n[0] && c < n[1] && c < n[5]; c++)
    for (int dv = 1; dv <= 5; dv += 4) {   /* batched, and per matrix without cuBLAS */
      const result *cpu = &r[0][c], *dev = &r[dv][c];
      int64_t per = cpu->sz / cpu->nmat;
      double worst = 0;
      for (int64_t q = 0; q < cpu->nmat; q++) {
        double e = 0, y = 0;
        for (int64_t j = 2 * q * per; j < 2 * (q + 1) * per; j++) {
          e += (dev->v[j] - cpu->v[j]) * (dev->v[j] - cpu->v[j]);
          y += cpu->v[j] * cpu->v[j];
        }
        /* (single results: both rounded from double, so a float's eps) */
        double eps = cpu->t == NDT_FLOAT32 || cpu->t == NDT_COMPLEX64 ? 0x1p-23 : 0x1p-52;
        double b = 8 * (double)cpu->n * eps * cpu->cond[q] * sqrt(y);
        double qq = b > 0 ? sqrt(e) / b : (e > 0 ? INFINITY : 0);
        if (qq > worst) worst = qq;
      }
      EXPECT(worst <= 1, "case %d (child %d): a matrix's ||device - cpu||_F over the bound "
             "(worst ratio %g)", c, dv, worst);
      printf("case %d (dtype %d, n %lld, child %d): worst ||device - cpu||_F / bound = %.3g\n", c,
             cpu->t, (long long)cpu->n, dv, worst);
      if (dv == 5) continue;
      size_t bytes = (size_t)(2 * cpu->sz) * sizeof(double);
      for (int i = 2; i <= 3 && n[i] > c; i++)
        EXPECT(!memcmp(dev->v, r[i][c].v, bytes), "case %d: child %d has child 1's bits", c, i);
      if (n[4] > c)
        EXPECT(!memcmp(cpu->v, r[4][c].v, bytes), "case %d: without cuSOLVER, the CPU's bits", c);
    }
  for (int i = 0; i < NCH; i++) {
    remove(f[i]);
    remove(e[i]);
  }
  rmdir(dir);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
