/* heat.c - 2-D heat diffusion with ndtile's C API.
 *
 * The explicit five-point stencil
 *   u[1:-1,1:-1] += alpha * (u[:-2,1:-1] + u[2:,1:-1] + u[1:-1,:-2] + u[1:-1,2:]
 *                            - 4 u[1:-1,1:-1])
 * written with views: each shifted slice is a view of the same store, so no
 * data is copied to form it; the runtime reads across tile borders (halos)
 * where a shifted view straddles two tiles.
 *
 * Build: cc heat.c -Iinclude -Lbuild -lndtile -lsleef -lm -lpthread
 * Run:   ./heat [n] [steps]        (or on many ranks: mpirun -n 4 ./heat)
 */
#include <stdio.h>
#include <stdlib.h>
#include "ndtile.h"

#define CHECK(call)                                                          \
  do {                                                                       \
    ndt_status s_ = (call);                                                  \
    if (s_ != NDT_OK) {                                                      \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__,                 \
              ndt_status_string(s_), ndt_last_error());                      \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

/* u[r0:r1, c0:c1] as a view (negative stops count from the end). */
static ndt_array *window(const ndt_array *u, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  ndt_index idx[2] = {
      {.kind = NDT_IDX_SLICE, .start = r0, .stop = r1, .step = 1, .has_start = 1, .has_stop = 1},
      {.kind = NDT_IDX_SLICE, .start = c0, .stop = c1, .step = 1, .has_start = 1, .has_stop = 1},
  };
  ndt_array *v;
  CHECK(ndt_view_index(&v, u, 2, idx));
  return v;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 512;
  int steps = argc > 2 ? atoi(argv[2]) : 200;
  double alpha = 0.2;
  int64_t shape[2] = {n, n};

  /* A hot square in the middle of a cold plate. */
  ndt_array *u;
  CHECK(ndt_zeros(&u, 2, shape, NDT_FLOAT64));
  ndt_array *hot = window(u, n / 4, 3 * n / 4, n / 4, 3 * n / 4);
  double t0 = 100.0;
  CHECK(ndt_fill(hot, &t0, NDT_FLOAT64));
  ndt_free(hot);

  ndt_array *a, *m4;
  CHECK(ndt_scalar(&a, NDT_FLOAT64, &alpha, 1));
  double four = -4.0;
  CHECK(ndt_scalar(&m4, NDT_FLOAT64, &four, 1));

  ndt_array *center = window(u, 1, -1, 1, -1);
  ndt_array *up = window(u, 0, -2, 1, -1), *down = window(u, 2, n, 1, -1);
  ndt_array *left = window(u, 1, -1, 0, -2), *right = window(u, 1, -1, 2, n);
  for (int s = 0; s < steps; s++) {
    ndt_array *lap = NULL, *t = NULL;
    CHECK(ndt_binary(&lap, NDT_ADD, up, down));
    CHECK(ndt_binary(&lap, NDT_ADD, lap, left));     /* in place: out = lap */
    CHECK(ndt_binary(&lap, NDT_ADD, lap, right));
    CHECK(ndt_binary(&t, NDT_MULTIPLY, center, m4));
    CHECK(ndt_binary(&lap, NDT_ADD, lap, t));
    CHECK(ndt_binary(&lap, NDT_MULTIPLY, lap, a));
    CHECK(ndt_binary(&center, NDT_ADD, center, lap)); /* writes into u */
    ndt_free(lap);
    ndt_free(t);
  }

  /* Heat is conserved away from the (cold, fixed) border. */
  ndt_array *total;
  CHECK(ndt_reduce(&total, NDT_RED_SUM, u, NDT_ALL_AXES, 0, NDT_DTYPE_DEFAULT, 0));
  double sum, mid;
  CHECK(ndt_item(total, NDT_FLOAT64, &sum));
  int64_t c[2] = {n / 2, n / 2};
  CHECK(ndt_get_item(u, c, &mid));
  /* on many ranks (mpirun -n 4 ./heat) every rank has the values; one prints */
  if (ndt_rank() == 0)
    printf("heat: %lldx%lld, %d steps, %d ranks x %d workers, %lld tiles: total %.6g "
           "(start %.6g), centre %.4f\n", (long long)n, (long long)n, steps, ndt_nranks(),
           ndt_workers(), (long long)ndt_ntiles(u), sum,
           t0 * (double)(n / 2) * (double)(n / 2), mid);

  ndt_free(total);
  ndt_free(center); ndt_free(up); ndt_free(down); ndt_free(left); ndt_free(right);
  ndt_free(a); ndt_free(m4); ndt_free(u);
  ndt_finalize();
  return 0;
}
