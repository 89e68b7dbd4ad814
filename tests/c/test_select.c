/* test_select.c - partition/argpartition, searchsorted and the uniform
 * histogram bin index against references computed here with NumPy's
 * ordering: every dtype, NaNs, -0.0 next to 0.0, many duplicates, axes 0 /
 * 1 / flattened, a negative-step view, several kth (negative, repeated),
 * errors, and the same results with 1 and 4 workers. Tiles of 512 bytes make
 * every multi-task path run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"
#include "order_ref.h"

static int eqv(const double *a, const double *b) { return !lt(a, b) && !lt(b, a); }

static double *pairs(const ndt_array *a) {
  ndt_array *c = NULL;
  OK(ndt_astype(&c, a, NDT_COMPLEX128, NDT_CAST_UNSAFE));
  double *v = malloc(sizeof(double) * 2 * (ndt_size(c) + 1));
  OK(ndt_to_buffer(c, v));
  ndt_free(c);
  return v;
}

/* Partition of a (r x c, values `in` as pairs of the dtype-converted data)
 * along axis around kth: the partition property and kth values equal the
 * sorted ones; argpartition's indices pick the partition's values. */
static void check_part(ndt_array *a, int64_t r, int64_t c, int axis, int nk, const int64_t *kth,
                       const char *what) {
  ndt_dtype t = ndt_dtype_of(a);
  ndt_array *p = NULL, *ip = NULL, *s = NULL;
  OK(ndt_partition(&p, a, axis, nk, kth, 0));
  OK(ndt_partition(&ip, a, axis, nk, kth, 1));
  OK(ndt_sort(&s, a, axis, 0));
  double *in = pairs(a), *pv = pairs(p), *sv = pairs(s);
  int64_t n = r * c, *ix = malloc(sizeof(int64_t) * (n + 1));
  OK(ndt_to_buffer(ip, ix));
  EXPECT(ndt_dtype_of(p) == t && ndt_dtype_of(ip) == NDT_INT64, "%s dtypes", what);
  int64_t lines = axis == 0 ? c : axis == 1 ? r : 1;
  int64_t len = axis == 0 ? r : axis == 1 ? c : n;
  int bad = 0;
  for (int64_t l = 0; l < lines && !bad; l++) {
    int64_t base = axis == 0 ? l : axis == 1 ? l * c : 0;
    int64_t st = axis == 0 ? c : 1;
    for (int q = 0; q < nk && !bad; q++) {
      int64_t k = kth[q] < 0 ? kth[q] + len : kth[q];
      const double *kv = pv + 2 * (base + k * st);
      if (!eqv(kv, sv + 2 * (base + k * st))) bad = 1;
      for (int64_t j = 0; j < len && !bad; j++) {
        const double *x = pv + 2 * (base + j * st);
        if ((j < k && lt(kv, x)) || (j > k && lt(x, kv))) bad = 1;
      }
    }
    for (int64_t j = 0; j < len && !bad; j++) {
      int64_t pos = base + j * st, src = ix[pos];
      if (src < 0 || src >= len) bad = 1;
      else if (!eqv(in + 2 * (base + src * st), pv + 2 * pos)) bad = 1;
    }
    if (bad)
      EXPECT(0, "%s %s axis %d line %lld", what, ndt_dtype_name(t), axis, (long long)l);
  }
  if (!bad) passed++;
  free(in);
  free(pv);
  free(sv);
  free(ix);
  ndt_free(p);
  ndt_free(ip);
  ndt_free(s);
}

static void partitions(void) {
  const int64_t R = 23, C = 61;
  double *vals = malloc(sizeof(double) * 2 * R * C);
  int64_t k1[] = {0}, k2[] = {-1}, k3[] = {11}, k4[] = {7, -2, 3, 7, 0};
  for (int d = 0; d < NALL; d++) {
    ndt_dtype t = ALL[d];
    char k = kind(t);
    for (int64_t j = 0; j < R * C; j++) {
      vals[2 * j] = val(k, 50);
      vals[2 * j + 1] = k == 'c' ? val(k, 50) : 0.0;
    }
    ndt_array *a = from_vals(t, vals, R, C);
    for (int ax = 0; ax < 3; ax++) {
      int axis = ax == 2 ? NDT_AXIS_FLAT : ax;
      check_part(a, R, C, axis, 1, k1, "k0");
      check_part(a, R, C, axis, 1, k2, "k-1");
      check_part(a, R, C, axis, 1, k3, "k11");
      check_part(a, R, C, axis, 5, k4, "kmany");
    }
    ndt_index idx[2] = {{.kind = NDT_IDX_SLICE, .step = -1}, {.kind = NDT_IDX_SLICE, .step = -3}};
    ndt_array *rv = NULL;
    OK(ndt_view_index(&rv, a, 2, idx));
    check_part(rv, R, (C + 2) / 3, 1, 5, k4, "reversed");
    check_part(rv, R, (C + 2) / 3, 0, 1, k3, "reversed");
    ndt_free(rv);
    ndt_free(a);
  }
  /* more kth values than one task keeps: a full sort */
  int64_t many[40];
  for (int q = 0; q < 40; q++) many[q] = q;
  for (int64_t j = 0; j < R * C; j++) {
    vals[2 * j] = val('f', 50);
    vals[2 * j + 1] = 0;
  }
  ndt_array *a = from_vals(NDT_FLOAT64, vals, R, C);
  check_part(a, R, C, 1, 40, many, "40 kth");
  /* errors */
  ndt_array *r = NULL;
  int64_t bad[] = {61};
  EXPECT(ndt_partition(&r, a, 1, 1, bad, 0) == NDT_ERR_VALUE, "kth out of bounds");
  EXPECT(strstr(ndt_last_error(), "kth(=61) out of bounds (61)") != NULL, "msg %s",
         ndt_last_error());
  bad[0] = -62;
  EXPECT(ndt_partition(&r, a, 1, 1, bad, 0) == NDT_ERR_VALUE, "kth -62");
  EXPECT(ndt_partition(&r, a, 2, 1, k1, 0) == NDT_ERR_AXIS, "axis 2");
  ndt_free(a);
  free(vals);
}

static void searches(void) {
  for (int d = 0; d < NALL; d++) {
    ndt_dtype t = ALL[d];
    char k = kind(t);
    const int64_t N = 301, M = 517;
    double *av = malloc(sizeof(double) * 2 * N), *vv = malloc(sizeof(double) * 2 * M);
    for (int64_t j = 0; j < N; j++) {
      av[2 * j] = val(k, 50);
      av[2 * j + 1] = k == 'c' ? val(k, 50) : 0;
    }
    for (int64_t j = 0; j < M; j++) {
      vv[2 * j] = val(k, 50);
      vv[2 * j + 1] = k == 'c' ? val(k, 50) : 0;
    }
    ndt_array *a0 = from_vals(t, av, 1, N), *v0 = from_vals(t, vv, 11, 47), *a = NULL, *s = NULL;
    int64_t shp[1] = {N};
    OK(ndt_reshape(&a, a0, 1, shp));
    OK(ndt_sort(&s, a, 0, 0));
    /* v as a transposed view */
    ndt_array *vt = NULL;
    OK(ndt_transpose(&vt, v0, NULL));
    double *sv = pairs(s), *tv = pairs(vt);
    for (int right = 0; right < 2; right++) {
      ndt_array *o = NULL;
      OK(ndt_searchsorted(&o, s, vt, right));
      EXPECT(ndt_ndim(o) == 2 && ndt_shape(o)[0] == 47 && ndt_dtype_of(o) == NDT_INT64,
             "searchsorted shape");
      int64_t *got = malloc(sizeof(int64_t) * M);
      OK(ndt_to_buffer(o, got));
      int bad = 0;
      for (int64_t j = 0; j < M && !bad; j++) {
        int64_t want = 0;
        while (want < N && (right ? !lt(tv + 2 * j, sv + 2 * want) : lt(sv + 2 * want, tv + 2 * j)))
          want++;
        if (got[j] != want) {
          bad = 1;
          EXPECT(0, "searchsorted %s right=%d value %lld: %lld want %lld", ndt_dtype_name(t),
                 right, (long long)j, (long long)got[j], (long long)want);
        }
      }
      if (!bad) passed++;
      free(got);
      ndt_free(o);
    }
    free(sv);
    free(tv);
    free(av);
    free(vv);
    ndt_free(a0);
    ndt_free(v0);
    ndt_free(a);
    ndt_free(s);
    ndt_free(vt);
  }
}

static void bins(void) {
  const int64_t N = 3000;
  double *x = malloc(sizeof(double) * N);
  for (int64_t j = 0; j < N; j++) x[j] = (double)(next() % 2400) / 1000.0 - 0.1;
  x[0] = NAN;
  x[1] = 2.0;
  x[2] = 0.0;
  ndt_array *xa = NULL, *e = NULL, *o = NULL;
  OK(ndt_from_buffer(&xa, NDT_FLOAT64, 1, &N, x, NULL));
  OK(ndt_linspace(&e, 0.0, 2.0, 8, 1, NDT_FLOAT64));
  OK(ndt_histogram_bins(&o, xa, e, 0.0, 2.0, 2.0, 0, 0));
  double ev[8];
  int64_t *got = malloc(sizeof(int64_t) * N);
  OK(ndt_to_buffer(e, ev));
  OK(ndt_to_buffer(o, got));
  int bad = 0;
  for (int64_t j = 0; j < N && !bad; j++) {
    int64_t want = 7;
    if (x[j] >= 0.0 && x[j] <= 2.0) {
      want = 6;
      for (int64_t i = 0; i < 7; i++)
        if (x[j] >= ev[i] && x[j] < ev[i + 1]) want = i;
    }
    if (got[j] != want) {
      bad = 1;
      EXPECT(0, "bin of %.17g: %lld want %lld", x[j], (long long)got[j], (long long)want);
    }
  }
  if (!bad) passed++;
  /* counts in one pass agree with bincount of the indices; weighted sums
   * have the same bits with 1 and 4 workers */
  ndt_array *cnt = NULL, *bc = NULL, *w = NULL, *s1 = NULL, *s4 = NULL;
  OK(ndt_histogram_count(&cnt, xa, e, 0.0, 2.0, 2.0, 0, 0, NULL));
  OK(ndt_bincount(&bc, o, NULL, 8));
  int64_t c1[7], c2[8];
  OK(ndt_to_buffer(cnt, c1));
  OK(ndt_to_buffer(bc, c2));
  EXPECT(ndt_size(cnt) == 7 && memcmp(c1, c2, sizeof c1) == 0, "histogram counts");
  OK(ndt_linspace(&w, 0.1, 7.3, N, 1, NDT_FLOAT64));
  OK(ndt_set_workers(1));
  OK(ndt_histogram_count(&s1, xa, e, 0.0, 2.0, 2.0, 0, 0, w));
  double d1[7], d4[7];
  OK(ndt_to_buffer(s1, d1));
  OK(ndt_set_workers(4));
  OK(ndt_histogram_count(&s4, xa, e, 0.0, 2.0, 2.0, 0, 0, w));
  OK(ndt_to_buffer(s4, d4));
  EXPECT(memcmp(d1, d4, sizeof d1) == 0, "weighted histogram bits differ with workers");
  EXPECT(ndt_histogram_count(&s4, xa, e, 0.0, 2.0, 2.0, 0, 0, e) == NDT_ERR_VALUE,
         "weights of another shape");
  ndt_free(cnt);
  ndt_free(bc);
  ndt_free(w);
  ndt_free(s1);
  ndt_free(s4);
  free(x);
  free(got);
  ndt_free(xa);
  ndt_free(e);
  ndt_free(o);
}

int main(void) {
  ndt_config cfg = {.workers = 4, .tile_bytes = 512, .inline_elems = -1};
  OK(ndt_init(&cfg));
  partitions();
  searches();
  bins();
  OK(ndt_set_workers(1));
  partitions();
  OK(ndt_sync());
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
