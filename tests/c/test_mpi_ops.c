/* test_mpi_ops.c - the C API on many ranks: every kind of operation on
 * arrays of many tiles; rank 0 writes one line "name dtype shape hash" per
 * result to the file argv[1]. tests/mpi/run.py runs it as a plain process
 * and on 1-4 ranks, and the files must be identical (bitwise results).
 * Values themselves are checked by the other C tests. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static FILE *out;
/* results go to fresh arrays: a non-NULL *out would be the destination */
#define NEW(x) ((x) = NULL, &(x))

/* FNV-1a over the C-order bytes every rank reads back. */
static void keep(const char *name, ndt_array *a) {
  int64_t n = ndt_size(a);
  size_t isz = ndt_dtype_size(ndt_dtype_of(a));
  unsigned char *buf = malloc(n * isz + 1);
  OK(ndt_to_buffer(a, buf));
  uint64_t h = 1469598103934665603ull;
  for (int64_t i = 0; i < n * (int64_t)isz; i++) h = (h ^ buf[i]) * 1099511628211ull;
  free(buf);
  passed++;
  if (out) {
    fprintf(out, "%-14s %-10s", name, ndt_dtype_name(ndt_dtype_of(a)));
    for (int k = 0; k < ndt_ndim(a); k++) fprintf(out, " %lld", (long long)ndt_shape(a)[k]);
    fprintf(out, " %016llx\n", (unsigned long long)h);
  }
  ndt_free(a);
}

static ndt_index sl(int64_t a, int64_t b, int64_t s) {
  return (ndt_index){.kind = NDT_IDX_SLICE, .start = a, .stop = b, .step = s,
                     .has_start = 1, .has_stop = 1};
}

int main(int argc, char **argv) {
  ndt_config cfg = {.workers = 0, .tile_bytes = 4096, .inline_elems = 256};
  OK(ndt_init(&cfg));
  if (ndt_rank() == 0) {
    out = fopen(argc > 1 ? argv[1] : "/dev/stdout", "w");
    if (!out) return 2;
  }
  ndt_rng *rng;
  OK(ndt_rng_new(&rng, 42));
  int64_t s2[2] = {150, 97}, sb[2] = {97, 64};
  ndt_array *a, *b, *r, *t, *u;
  OK(ndt_rng_standard_normal(NEW(a), rng, 2, s2, NDT_FLOAT64));
  OK(ndt_rng_standard_normal(NEW(b), rng, 2, sb, NDT_FLOAT64));
  OK(ndt_copy(NEW(r), a));
  keep("normal", r);

  /* elementwise, fused chains, casts */
  OK(ndt_unary(NEW(t), NDT_SIN, a));
  OK(ndt_binary(NEW(r), NDT_MULTIPLY, t, a));
  ndt_free(t);
  keep("sin_mul", r);
  OK(ndt_astype(NEW(t), a, NDT_FLOAT32, NDT_CAST_UNSAFE));
  OK(ndt_unary(NEW(r), NDT_EXP, t));
  ndt_free(t);
  keep("exp_f32", r);

  /* views: a stencil (halos), steps, a transpose */
  ndt_index up[2] = {sl(0, 148, 1), sl(1, 96, 1)}, dn[2] = {sl(2, 150, 1), sl(1, 96, 1)};
  ndt_array *va, *vb;
  OK(ndt_view_index(NEW(va), a, 2, up));
  OK(ndt_view_index(NEW(vb), a, 2, dn));
  OK(ndt_binary(NEW(r), NDT_SUBTRACT, va, vb));
  keep("stencil", r);
  ndt_free(va);
  ndt_free(vb);
  ndt_index st[2] = {sl(149, -200, -3), sl(0, 97, 2)};
  OK(ndt_view_index(NEW(va), a, 2, st));
  OK(ndt_unary(NEW(r), NDT_SQUARE, va));
  keep("steps", r);
  ndt_free(va);
  int perm[2] = {1, 0};
  OK(ndt_transpose(NEW(t), a, perm));
  OK(ndt_copy(NEW(r), t));
  keep("transpose", r);
  ndt_free(t);

  /* in-place assignment into a view of a copy */
  OK(ndt_copy(NEW(u), a));
  OK(ndt_view_index(NEW(va), u, 2, up));
  OK(ndt_view_index(NEW(vb), a, 2, dn));
  OK(ndt_assign(va, vb, NDT_CAST_SAME_KIND));
  ndt_free(va);
  ndt_free(vb);
  keep("assign_view", u);

  /* reductions along every axis, ties in argmax */
  OK(ndt_reduce(NEW(r), NDT_RED_SUM, a, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  keep("sum", r);
  OK(ndt_reduce(NEW(r), NDT_RED_SUM, a, 1, 0, NDT_DTYPE_DEFAULT, 0));
  keep("sum0", r);
  OK(ndt_reduce(NEW(r), NDT_RED_MAX, a, 2, 0, NDT_DTYPE_DEFAULT, 0));
  keep("max1", r);
  OK(ndt_reduce(NEW(r), NDT_RED_VAR, a, 1, 1, NDT_DTYPE_DEFAULT, 1));
  keep("var0", r);
  ndt_array *z;
  int64_t sz[2] = {60, 70};
  OK(ndt_zeros(NEW(z), 2, sz, NDT_INT32));
  int32_t five = 5;
  ndt_index p1[2] = {{.kind = NDT_IDX_INT, .start = 7}, {.kind = NDT_IDX_INT, .start = 3}};
  ndt_index p2[2] = {{.kind = NDT_IDX_INT, .start = 40}, {.kind = NDT_IDX_INT, .start = 3}};
  OK(ndt_view_index(NEW(va), z, 2, p1));
  OK(ndt_fill(va, &five, NDT_INT32));
  ndt_free(va);
  OK(ndt_view_index(NEW(va), z, 2, p2));
  OK(ndt_fill(va, &five, NDT_INT32));
  ndt_free(va);
  OK(ndt_reduce(NEW(r), NDT_RED_ARGMAX, z, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  keep("argmax_tie", r);
  OK(ndt_reduce(NEW(r), NDT_RED_ARGMAX, z, 1, 0, NDT_DTYPE_DEFAULT, 0));
  keep("argmax0", r);
  ndt_free(z);

  /* scans, sorting, searching */
  OK(ndt_scan(NEW(r), NDT_SCAN_CUMSUM, a, 0, NDT_DTYPE_DEFAULT));
  keep("cumsum0", r);
  OK(ndt_scan(NEW(r), NDT_SCAN_CUMSUM, a, NDT_AXIS_FLAT, NDT_DTYPE_DEFAULT));
  keep("cumsum_flat", r);
  OK(ndt_sort(NEW(r), a, 1, 0));
  keep("sort1", r);
  OK(ndt_sort(NEW(r), a, 0, 1));
  keep("argsort0", r);
  OK(ndt_fft(NEW(r), a, 0, ndt_shape(a)[0], NDT_FFT_FORWARD, 1.0));
  keep("fft0", r);
  OK(ndt_fft(NEW(r), a, 1, 67, NDT_FFT_BACKWARD, 0.5));   /* Bluestein, cut/padded */
  keep("ifft1_67", r);
  OK(ndt_fft(NEW(r), a, 1, 2 * ndt_shape(a)[1], NDT_FFT_R2C, 1.0));
  keep("rfft1", r);
  OK(ndt_fft(NEW(r), a, 0, 9, NDT_FFT_C2R, 1.0));
  keep("irfft0_9", r);
  ndt_array *ints;
  int64_t n1 = 5000;
  OK(ndt_rng_integers(NEW(ints), rng, 1, &n1, NDT_INT32, 0, 300, 0));
  OK(ndt_bincount(NEW(r), ints, NULL, 0));
  keep("bincount", r);
  ndt_array *mask;
  ndt_array *thr;
  double half = 0.5;
  OK(ndt_scalar(NEW(thr), NDT_FLOAT64, &half, 1));
  OK(ndt_binary(NEW(mask), NDT_GREATER, a, thr));
  OK(ndt_argwhere(NEW(r), mask));
  keep("argwhere", r);
  int64_t ni = 400;
  ndt_array *ix, *iy;
  OK(ndt_rng_integers(NEW(ix), rng, 1, &ni, NDT_INT64, 0, 150, 0));
  OK(ndt_rng_integers(NEW(iy), rng, 1, &ni, NDT_INT64, 0, 97, 0));
  const ndt_array *idx[2] = {ix, iy};
  OK(ndt_gather(NEW(r), a, idx));
  keep("gather", r);
  ndt_free(ix);
  ndt_free(iy);
  ndt_free(ints);
  ndt_free(mask);
  ndt_free(thr);

  /* matrix products */
  OK(ndt_matmul(NEW(r), a, b));
  keep("matmul", r);
  OK(ndt_view_index(NEW(va), b, 2, (ndt_index[]){sl(0, 97, 1), {.kind = NDT_IDX_INT, .start = 5}}));
  OK(ndt_matmul(NEW(r), a, va));
  keep("matvec", r);
  ndt_free(va);
  OK(ndt_transpose(NEW(t), a, perm));
  OK(ndt_matmul(NEW(r), t, a));
  keep("gram", r);
  ndt_free(t);

  /* random numbers and creation */
  int64_t s3[3] = {7, 33, 41};
  OK(ndt_rng_uniform(NEW(r), rng, 3, s3, -2.0, 3.0, NDT_FLOAT32));
  keep("uniform", r);
  OK(ndt_rng_permutation(NEW(r), rng, 3000));
  keep("permutation", r);
  OK(ndt_arange(NEW(r), 0, 5000, 3, NDT_INT16));
  keep("arange", r);
  OK(ndt_linspace(NEW(r), -1, 1, 3001, 1, NDT_FLOAT64));
  keep("linspace", r);
  OK(ndt_eye(NEW(r), 70, 90, 3, NDT_FLOAT32));
  keep("eye", r);

  ndt_free(a);
  ndt_free(b);
  ndt_rng_free(rng);
  OK(ndt_sync());
  if (out) fclose(out);
  ndt_finalize();
  if (ndt_rank() == 0) printf("%d results, %d failed\n", passed, failed);
  return failed != 0;
}
