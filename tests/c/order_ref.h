/* order_ref.h - reference helpers of the sort and selection tests (include
 * after check.h): a seeded xorshift, random values of a dtype's kind as
 * (re, im) doubles, NumPy's sort order on such pairs, and arrays built from
 * them. */
#ifndef NDT_TEST_ORDER_REF_H
#define NDT_TEST_ORDER_REF_H
#include <math.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static char kind(ndt_dtype t) {
  switch (t) {
    case NDT_BOOL: return 'b';
    case NDT_INT8: case NDT_INT16: case NDT_INT32: case NDT_INT64: return 'i';
    case NDT_UINT8: case NDT_UINT16: case NDT_UINT32: case NDT_UINT64: return 'u';
    case NDT_FLOAT32: case NDT_FLOAT64: return 'f';
    default: return 'c';
  }
}

/* A value of kind k: one of span small integers (centred on 0 for signed
 * kinds), with NaNs and -0.0 for floats and complex. */
static double val(char k, int span) {
  uint64_t r = next() % 10;
  if (k == 'b') return (double)(r & 1);
  if ((k == 'f' || k == 'c') && r == 0) return NAN;
  if ((k == 'f' || k == 'c') && r == 1) return -0.0;
  double v = (double)(next() % (uint64_t)span);
  return k == 'u' || k == 'b' ? v : v - span / 2;
}

/* The reference ordering: NumPy's CLT on (re, im); reals have im = 0. */
static int lt(const double *a, const double *b) {
  double ar = a[0], ai = a[1], br = b[0], bi = b[1];
  if (ar < br) return ai == ai || bi != bi;
  if (ar > br) return bi != bi && ai == ai;
  if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
  return br != br;
}

/* An r x c array of dtype t from the pairs in vals (converted exactly). */
static ndt_array *from_vals(ndt_dtype t, const double *vals, int64_t r, int64_t c) {
  int64_t shape[2] = {r, c};
  ndt_array *z = NULL, *x = NULL;
  OK(ndt_from_buffer(&z, NDT_COMPLEX128, 2, shape, vals, NULL));
  if (kind(t) == 'c') OK(ndt_astype(&x, z, t, NDT_CAST_UNSAFE));
  else {
    ndt_array *re = NULL;
    OK(ndt_real(&re, z));
    OK(ndt_astype(&x, re, t, NDT_CAST_UNSAFE));
    ndt_free(re);
  }
  ndt_free(z);
  return x;
}
#endif
