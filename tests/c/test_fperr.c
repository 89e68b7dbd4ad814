/* test_fperr.c - the C API of floating-point error records: one record per
 * op with the flags of all its tiles, inline and deferred, fused and not;
 * integer division by zero; ops NumPy never reports. */
#include <math.h>
#include <string.h>
#include "check.h"

/* Takes every ready record; returns the flags of op `name` (OR over its
 * records) and counts its records in *nrec. */
static unsigned take(const char *name, int *nrec) {
  unsigned f = 0;
  *nrec = 0;
  ndt_fp_error e[64];
  int n;
  while ((n = ndt_fp_errors_take(e, 64)) > 0)
    for (int i = 0; i < n; i++)
      if (strcmp(e[i].op, name) == 0) {
        f |= e[i].flags;
        (*nrec)++;
      }
  return f;
}

static void run(int64_t n) {
  int64_t shape[1] = {n};
  double one = 1.0, zero = 0.0;
  ndt_array *a, *z, *q = NULL, *r = NULL, *c = NULL;
  OK(ndt_full(&a, 1, shape, NDT_FLOAT64, &one, NDT_FLOAT64));
  OK(ndt_full(&z, 1, shape, NDT_FLOAT64, &zero, NDT_FLOAT64));
  OK(ndt_sync());
  int nrec;
  take("divide", &nrec);   /* nothing left over */
  OK(ndt_binary(&q, NDT_TRUE_DIVIDE, a, z));     /* 1/0: divide by zero */
  OK(ndt_binary(&r, NDT_TRUE_DIVIDE, z, z));     /* 0/0: invalid */
  OK(ndt_sync());
  EXPECT(take("divide", &nrec) == (NDT_FPE_DIVIDE | NDT_FPE_INVALID) && nrec == 2,
         "n=%lld: divide flags, %d records", (long long)n, nrec);
  OK(ndt_binary(&c, NDT_LESS, r, a));            /* NaN < 1: NumPy reports nothing */
  OK(ndt_sync());
  EXPECT(take("less", &nrec) == 0 && nrec == 0, "n=%lld: less reported", (long long)n);
  ndt_free(c);
  c = NULL;
  OK(ndt_unary(&c, NDT_SQRT, a));                 /* no error */
  OK(ndt_sync());
  EXPECT(take("sqrt", &nrec) == 0 && nrec == 0, "n=%lld: sqrt(1) reported", (long long)n);
  ndt_free(c);
  ndt_free(q);
  ndt_free(r);
  ndt_free(a);
  ndt_free(z);

  int64_t seven = 7, nought = 0;
  ndt_array *i7, *i0, *iq = NULL;
  OK(ndt_full(&i7, 1, shape, NDT_INT64, &seven, NDT_INT64));
  OK(ndt_full(&i0, 1, shape, NDT_INT64, &nought, NDT_INT64));
  OK(ndt_binary(&iq, NDT_FLOOR_DIVIDE, i7, i0));
  OK(ndt_sync());
  EXPECT(take("floor_divide", &nrec) == NDT_FPE_DIVIDE && nrec == 1,
         "n=%lld: integer // 0: %d records", (long long)n, nrec);
  ndt_free(iq);
  ndt_free(i7);
  ndt_free(i0);

  /* NumPy's names: divmod is one op (one record, both ops' flags: -1 // 0
   * divides by zero, -1 % 0 is invalid), float_power, degrees and radians
   * are their own; 0 ** -inf divides by zero (NumPy's AVX-512 power) */
  double minus = -1.0, ninf = -INFINITY, big = 1e308;
  ndt_array *m1, *z0, *dq = NULL, *dr = NULL, *fp = NULL, *ni, *bg, *dg = NULL, *pw = NULL;
  OK(ndt_full(&m1, 1, shape, NDT_FLOAT64, &minus, NDT_FLOAT64));
  OK(ndt_full(&z0, 1, shape, NDT_FLOAT64, &zero, NDT_FLOAT64));
  OK(ndt_full(&ni, 1, shape, NDT_FLOAT64, &ninf, NDT_FLOAT64));
  OK(ndt_full(&bg, 1, shape, NDT_FLOAT64, &big, NDT_FLOAT64));
  OK(ndt_sync());
  take("", &nrec);
  OK(ndt_divmod(&dq, &dr, m1, z0, NDT_DTYPE_DEFAULT));
  OK(ndt_sync());
  EXPECT(take("divmod", &nrec) == (NDT_FPE_DIVIDE | NDT_FPE_INVALID) && nrec == 1,
         "n=%lld: divmod: %d records", (long long)n, nrec);
  OK(ndt_binary(&fp, NDT_FLOAT_POWER, z0, m1));   /* 0 ** -1 */
  OK(ndt_unary(&dg, NDT_DEGREES, bg));
  OK(ndt_binary(&pw, NDT_POWER, z0, ni));         /* 0 ** -inf */
  OK(ndt_sync());
  ndt_fp_error e[64];
  unsigned seen = 0;
  int k;
  while ((k = ndt_fp_errors_take(e, 64)) > 0)
    for (int i = 0; i < k; i++) {
      if (!strcmp(e[i].op, "float_power") && e[i].flags == NDT_FPE_DIVIDE) seen |= 1;
      else if (!strcmp(e[i].op, "degrees") && e[i].flags == NDT_FPE_OVERFLOW) seen |= 2;
      else if (!strcmp(e[i].op, "power") && e[i].flags == NDT_FPE_DIVIDE) seen |= 4;
      else seen |= 8;
    }
  EXPECT(seen == 7, "n=%lld: float_power/degrees/power records: %u", (long long)n, seen);
  ndt_free(dq);
  ndt_free(dr);
  ndt_free(fp);
  ndt_free(dg);
  ndt_free(pw);
  ndt_free(m1);
  ndt_free(z0);
  ndt_free(ni);
  ndt_free(bg);
}

int main(void) {
  OK(ndt_init(NULL));
  OK(ndt_set_tile_bytes(4096));
  run(10);        /* inline */
  run(100000);    /* deferred, many tiles, fused */
  printf("%d passed, %d failed\n", passed, failed);
  ndt_finalize();
  return failed != 0;
}
