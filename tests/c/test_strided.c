/* test_strided.c - ndt_put_op (ufunc.at: repeated indices applied in order,
 * many tiles, a strided target, the loop dtype, bad indices write nothing)
 * ndt_as_strided (window views share the store; views reaching outside
 * the store are refused) and ndt_reduceat (NumPy's segments, any axis). */
#include <string.h>
#include "check.h"

static ndt_array *from(ndt_dtype t, int64_t n, const void *data) {
  ndt_array *a;
  OK(ndt_from_buffer(&a, t, 1, &n, data, NULL));
  return a;
}

/* a.flat[idx[k]] += v[k] in order, against a sequential loop, bitwise */
static void check_add(int64_t n, int64_t m, int step) {
  double *a = malloc(sizeof(double) * n * step), *v = malloc(sizeof(double) * m);
  double *ref = malloc(sizeof(double) * n * step), *got = malloc(sizeof(double) * n * step);
  int64_t *ix = malloc(sizeof(int64_t) * m);
  for (int64_t i = 0; i < n * step; i++) a[i] = ref[i] = (double)(i % 17) - 3.25;
  for (int64_t k = 0; k < m; k++) {
    v[k] = (k % 3 == 0) ? 1e16 : (k % 3 == 1 ? 1.0 : -1e16);   /* order matters */
    ix[k] = (k * 7919) % n;
    ref[ix[k] * step] += v[k];
  }
  ndt_array *A = from(NDT_FLOAT64, n * step, a), *V = from(NDT_FLOAT64, m, v);
  ndt_array *I = from(NDT_INT64, m, ix), *As = A;
  if (step != 1) {
    ndt_index s = {.kind = NDT_IDX_SLICE, .start = 0, .stop = n * step, .step = step};
    OK(ndt_view_index(&As, A, 1, &s));
  }
  ndt_dtype loop[3] = {NDT_FLOAT64, NDT_FLOAT64, NDT_FLOAT64};
  OK(ndt_put_op(As, I, V, NDT_ADD, loop));
  OK(ndt_to_buffer(A, got));
  EXPECT(!memcmp(got, ref, sizeof(double) * n * step), "add.at n=%lld m=%lld step=%d",
         (long long)n, (long long)m, step);
  if (As != A) ndt_free(As);
  ndt_free(A);
  ndt_free(V);
  ndt_free(I);
  free(a);
  free(v);
  free(ref);
  free(got);
  free(ix);
}

static void test_put_op(void) {
  check_add(10, 30, 1);
  check_add(5000, 20000, 1);     /* many tiles, per-tile tasks */
  check_add(3000, 50, 3);        /* strided target */
  /* int8 target through an int64 loop: 100 + 100 wraps as NumPy's cast does */
  int8_t a8[3] = {0, 0, 0}, r8[3];
  int64_t v64[2] = {100, 100}, ix[2] = {1, 1};
  ndt_array *A = from(NDT_INT8, 3, a8), *V = from(NDT_INT64, 2, v64), *I = from(NDT_INT64, 2, ix);
  ndt_dtype loop[3] = {NDT_INT64, NDT_INT64, NDT_INT64};
  OK(ndt_put_op(A, I, V, NDT_ADD, loop));
  OK(ndt_to_buffer(A, r8));
  EXPECT(r8[0] == 0 && r8[1] == (int8_t)200 && r8[2] == 0, "int8 via int64: %d", r8[1]);
  /* a unary op */
  ndt_dtype uloop[2] = {NDT_INT8, NDT_INT8};
  OK(ndt_put_op(A, I, NULL, NDT_NEGATIVE, uloop));
  OK(ndt_to_buffer(A, r8));
  EXPECT(r8[1] == (int8_t)200, "negative twice: %d", r8[1]);
  /* a bad index writes nothing and is an index error */
  int64_t bad[2] = {0, 3};
  ndt_array *B = from(NDT_INT64, 2, bad);
  ndt_status st = ndt_put_op(A, B, V, NDT_ADD, loop);
  if (st == NDT_OK) st = ndt_sync();
  EXPECT(st == NDT_ERR_INDEX, "bad index: %s", ndt_status_string(st));
  OK(ndt_to_buffer(A, r8));
  EXPECT(r8[0] == 0, "nothing written: %d", r8[0]);
  /* a mismatched vals dtype is refused */
  ndt_dtype floop[3] = {NDT_FLOAT64, NDT_FLOAT64, NDT_FLOAT64};
  EXPECT(ndt_put_op(A, I, V, NDT_ADD, floop) == NDT_ERR_TYPE, "vals dtype");
  ndt_free(A);
  ndt_free(V);
  ndt_free(I);
  ndt_free(B);
}

static void test_as_strided(void) {
  double a[10];
  for (int i = 0; i < 10; i++) a[i] = i;
  ndt_array *A = from(NDT_FLOAT64, 10, a), *W;
  int64_t shape[2] = {8, 3}, strides[2] = {1, 1};
  OK(ndt_as_strided(&W, A, 0, 2, shape, strides));   /* sliding windows of 3 */
  double w[24];
  OK(ndt_to_buffer(W, w));
  int bad = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 3; j++) bad += w[i * 3 + j] != i + j;
  EXPECT(!bad, "windows");
  EXPECT(ndt_same_store(W, A), "a view");
  /* reversed, from an offset */
  ndt_array *R;
  int64_t rs[1] = {4}, rst[1] = {-2};
  OK(ndt_as_strided(&R, A, 9, 1, rs, rst));
  double r[4];
  OK(ndt_to_buffer(R, r));
  EXPECT(r[0] == 9 && r[1] == 7 && r[3] == 3, "reversed");
  /* outside the store: refused */
  ndt_array *X = NULL;
  int64_t big[1] = {11}, one[1] = {1};
  EXPECT(ndt_as_strided(&X, A, 0, 1, big, one) == NDT_ERR_VALUE, "past the end");
  int64_t two[1] = {2}, neg[1] = {-1};
  EXPECT(ndt_as_strided(&X, A, 0, 1, two, neg) == NDT_ERR_VALUE, "before the start");
  int64_t huge[1] = {INT64_MAX / 2};
  EXPECT(ndt_as_strided(&X, A, 0, 1, two, huge) == NDT_ERR_VALUE, "overflow");
  /* empty: any strides */
  int64_t zero[2] = {0, 5}, any[2] = {1000, 1000};
  OK(ndt_as_strided(&X, A, 0, 2, zero, any));
  EXPECT(ndt_size(X) == 0, "empty");
  ndt_free(X);
  /* ownership moves to a view of the same store, never to another store */
  EXPECT(ndt_owns_data(A) && !ndt_owns_data(W), "owner before");
  OK(ndt_take_owner(W, A));
  EXPECT(!ndt_owns_data(A) && ndt_owns_data(W), "owner after");
  ndt_array *Z;
  OK(ndt_zeros(&Z, 1, shape, NDT_FLOAT64));
  EXPECT(ndt_take_owner(R, Z) == NDT_ERR_VALUE && ndt_owns_data(Z), "other store");
  EXPECT(ndt_take_owner(R, A) == NDT_ERR_VALUE, "from a non-owner");
  ndt_free(Z);
  ndt_free(R);
  ndt_free(W);
  ndt_free(A);
}

/* reduceat against a sequential reference: int64 sums along each axis of a
 * 2-d array (lines crossing tiles), i >= j segments, bad indices. */
static void test_reduceat(void) {
  enum { R = 37, Cn = 53 };
  int64_t *a = malloc(sizeof(int64_t) * R * Cn);
  for (int i = 0; i < R * Cn; i++) a[i] = (i * 7919) % 1001 - 500;
  int64_t shape[2] = {R, Cn};
  ndt_array *A;
  OK(ndt_from_buffer(&A, NDT_INT64, 2, shape, a, NULL));
  int64_t ix[5] = {0, 10, 3, 3, 30};
  ndt_array *I = from(NDT_INT64, 5, ix);
  for (int ax = 0; ax < 2; ax++) {
    for (int opi = 0; opi < 2; opi++) {
      ndt_reduce_op op = opi ? NDT_RED_MAX : NDT_RED_SUM;
      ndt_array *Rr;
      OK(ndt_reduceat(&Rr, A, ax, I, op));
      int64_t n = ax ? Cn : R, other = ax ? R : Cn, *got = malloc(sizeof(int64_t) * 5 * other);
      OK(ndt_to_buffer(Rr, got));
      int bad = 0;
      for (int64_t o = 0; o < other; o++)
        for (int s = 0; s < 5; s++) {
          int64_t st = ix[s], en = s < 4 ? ix[s + 1] : n;
          if (en <= st) en = st + 1;
          int64_t acc = 0;
          for (int64_t t = st; t < en; t++) {
            int64_t v = ax ? a[o * Cn + t] : a[t * Cn + o];
            acc = t == st ? v : (opi ? (v > acc ? v : acc) : acc + v);
          }
          int64_t gv = ax ? got[o * 5 + s] : got[s * Cn + o];
          bad += gv != acc;
        }
      EXPECT(!bad, "reduceat axis %d op %d: %d mismatches", ax, opi, bad);
      free(got);
      ndt_free(Rr);
    }
  }
  int64_t badix[2] = {0, R};
  ndt_array *B = from(NDT_INT64, 2, badix), *X = NULL;
  EXPECT(ndt_reduceat(&X, A, 0, B, NDT_RED_SUM) == NDT_ERR_INDEX, "index out of range");
  EXPECT(ndt_reduceat(&X, A, 2, I, NDT_RED_SUM) == NDT_ERR_AXIS, "axis");
  ndt_free(B);
  ndt_free(I);
  ndt_free(A);
  free(a);
}

int main(void) {
  OK(ndt_init(&(ndt_config){.workers = 3, .tile_bytes = 512, .inline_elems = -1}));
  test_put_op();
  test_as_strided();
  test_reduceat();
  OK(ndt_set_workers(1));
  check_add(5000, 20000, 1);
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
