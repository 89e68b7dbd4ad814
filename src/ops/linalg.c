/* linalg.c - numpy.linalg's matrix factorisations through LAPACK (the
 * kernel table's lapack member: OpenBLAS on the CPU).
 *
 * Every operation works on stacks of matrices (..., M, N): the leading batch
 * axes are cut into blocks by the usual tiling rule (a whole matrix counts as
 * one element, weighted by its work), each block is one task, and every
 * matrix lies whole inside one task. A task copies each matrix, cast to the
 * compute dtype, into a column-major scratch buffer, calls LAPACK on it and
 * copies the results out (on many ranks a matrix is gathered to the rank
 * that owns the first tile of the result). solve, inv, det and slogdet of
 * a large matrix (order >= LA_BLOCK_MIN) are a blocked LU, cholesky a
 * blocked Cholesky, qr and lstsq (m >= n >= LA_BLOCK_MIN) a blocked
 * Householder QR, whose pieces are tasks instead (see "large matrices"
 * below); real solve and inv of order <= LA_SMALL skip LAPACK's per-call
 * setup (small_gesv). LAPACK runs single-threaded
 * inside the tasks (the workers are the parallelism), and the blocks depend
 * on shapes only, so results have the same bits for any number of workers
 * or ranks.
 *
 * As in NumPy, LAPACK always runs in double precision (complex128 when any
 * operand is complex): inputs are cast while being copied in, and float32 /
 * complex64 results are cast back inside the task; only the double LAPACK
 * entries (d*, z*) are called.
 *
 * LAPACK failures (info > 0) are NDT_ERR_LINALG with NumPy's messages. The
 * task's argument is in linalg.h: the CUDA plugin runs solve, inv and
 * cholesky tasks through cuSOLVER (src/runtime/cuda_linalg.h). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include "linalg.h"

/* LAPACK's integer and hidden-length types (kernels/lapack.h: int, size_t) */
typedef int lint;
typedef size_t flen;


/* A matrix (or vector) inside a task: pointer and byte strides. */
typedef struct {
  char *p;
  int64_t rs, cs;
} mref;

/* Task workspace, grown as needed (every matrix of a task has one size). */
typedef struct {
  char *buf;
  size_t cap;
} la_ws;

static char *ws_get(la_ws *w, size_t bytes) {
  if (bytes > w->cap) {
    ndt__mfree(w->buf);
    w->buf = ndt__malloc(bytes);
    w->cap = w->buf ? bytes : 0;
  }
  return w->buf;
}

static int is_cpx(ndt_dtype ct) { return ct == NDT_COMPLEX64 || ct == NDT_COMPLEX128; }
static ndt_dtype real_of(ndt_dtype ct) {
  return ct == NDT_FLOAT32 || ct == NDT_COMPLEX64 ? NDT_FLOAT32 : NDT_FLOAT64;
}
static ndt_dtype cpx_of(ndt_dtype ct) {
  return ct == NDT_FLOAT32 || ct == NDT_COMPLEX64 ? NDT_COMPLEX64 : NDT_COMPLEX128;
}
static size_t al(size_t x) { return (x + 63) & ~(size_t)63; }

/* Element i of a compute-dtype buffer as (re, im) doubles, and back. */
static void getc_(ndt_dtype ct, const void *p, int64_t i, double *re, double *im) {
  switch (ct) {
    case NDT_FLOAT32: *re = ((const float *)p)[i]; *im = 0; break;
    case NDT_FLOAT64: *re = ((const double *)p)[i]; *im = 0; break;
    case NDT_COMPLEX64: *re = ((const float *)p)[2 * i]; *im = ((const float *)p)[2 * i + 1]; break;
    default: *re = ((const double *)p)[2 * i]; *im = ((const double *)p)[2 * i + 1]; break;
  }
}
static void putc_(ndt_dtype t, void *p, int64_t i, double re, double im) {
  switch (t) {
    case NDT_FLOAT32: ((float *)p)[i] = (float)re; break;
    case NDT_FLOAT64: ((double *)p)[i] = re; break;
    case NDT_COMPLEX64: ((float *)p)[2 * i] = (float)re; ((float *)p)[2 * i + 1] = (float)im; break;
    default: ((double *)p)[2 * i] = re; ((double *)p)[2 * i + 1] = im; break;
  }
}
static double getr(ndt_dtype rt, const void *p, int64_t i) {
  return rt == NDT_FLOAT32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

/* Loads the rows x cols matrix r (dtype dt) into column-major dst (leading
 * dimension ld), cast to ct. */
static void load(const mref *r, ndt_dtype dt, int64_t rows, int64_t cols, ndt_dtype ct,
                 char *dst, int64_t ld) {
  int csz = ndt__traits[ct].size;
  ndt_cast_fn f = ndt__kern->cast(dt, ct);
  for (int64_t j = 0; j < cols; j++) f(r->p + j * r->cs, r->rs, dst + j * ld * csz, csz, rows);
}

/* Stores column-major src (ld) of esz-byte elements to r. */
static void store(const char *src, int64_t ld, int64_t rows, int64_t cols, int esz,
                  const mref *r) {
  for (int64_t j = 0; j < cols; j++)
    for (int64_t i = 0; i < rows; i++)
      memcpy(r->p + i * r->rs + j * r->cs, src + (i + j * ld) * esz, (size_t)esz);
}

/* A load task's block column: b (rows x cols of its dtype) into dst,
 * column-major of ct (leading dimension rows), by 128 rows so that a
 * transposed read stays in cache. */
static void load_block(const ndt_bound *b, int64_t rows, int64_t cols, ndt_dtype ct, char *dst) {
  int64_t csz = ndt__traits[ct].size;
  for (int64_t i0 = 0; i0 < rows; i0 += 128) {
    int64_t r = rows - i0 < 128 ? rows - i0 : 128;
    ndt__kern->copy2d(cols, r, b->ptr + i0 * b->st[0], b->st[1], b->st[0], b->view->dtype,
                      dst + i0 * csz, rows * csz, csz, ct);
  }
}

/* 1 when the n elements of the (double or complex double) buffer are finite. */
static int all_finite(ndt_dtype ct, const char *p, int64_t n) {
  int64_t m = is_cpx(ct) ? 2 * n : n;
  for (int64_t i = 0; i < m; i++) {
    double x;
    memcpy(&x, p + i * 8, 8);
    if (!isfinite(x)) return 0;
  }
  return 1;
}

static ndt_status fail(const char *msg) { return ndt__error(NDT_ERR_LINALG, "%s", msg); }

#define CH(x) ((lint)(x))

/* ---- kernels ----------------------------------------------------------- */
/* LAPACK: the table's (kernels/lapack.h) */
#define LAPACK (ndt__kern->lapack)

static const char *op_name(ndt_linalg_op op);

/* ---- large matrices: a blocked LU --------------------------------------
 * solve, inv, det and slogdet of a matrix of order n >= LA_BLOCK_MIN run as
 * a right-looking blocked LU with partial pivoting (LAPACK's dgetrf order)
 * on a column-major work buffer W (leading dimension n) that holds A's n
 * columns and then, for solve, b's r columns: the columns are cut into
 * block columns of LA_NB (A's, then b's). Step k factors panel k (getrf on
 * the tall panel, rows k*LA_NB..n-1: pivoting over the whole column panel,
 * as LAPACK), then updates every block column j > k: the panel's row swaps
 * (laswp), trsm with its unit lower diagonal block, gemm of the rows below.
 * b thus becomes L^-1 P b; the back-substitution with U (more than
 * LA_BS_ONE right-hand sides; fewer: one trsm, bs_whole) is tiled: row block
 * i of b's block column j lives in its own piece of a second region Y
 * (rows i x r, column-major), and from the last row block up each is
 * solved with U's diagonal block (trsm), then subtracted from every row
 * block above it (gemm with U's block): pieces that run side by side.
 * inv is LAPACK's getri: U^-1 one block column at a time (trsm of U's
 * leading block on the identity's columns, into a region R), L's earlier
 * block columns given the later panels' row swaps (LAPACK's L), then each
 * block of 128 rows of inv(A) = U^-1 L^-1 P on its own (trsm of R's rows
 * with L from the right, getri's column swaps), 2 n^3 flops where solving
 * with the identity takes 8/3 n^3. det and slogdet factor A^T (det(A^T) =
 * det(A)), so a C-ordered A is loaded by contiguous copies. Each piece is
 * one single-threaded BLAS/LAPACK call on fixed blocks, in an order that
 * depends on n only, so the bits are the same whether the pieces run as
 * tasks over the workers (lu_record) or one after another in one task
 * (lu_serial: on many ranks, and the CPU body of a device's task). */
#define LA_BLOCK_MIN 512   /* the order from which the blocked LU is used */
#define LA_NB 128          /* block column width */

static int lu_op(ndt_linalg_op op) {
  return op == NDT_LINALG_SOLVE || op == NDT_LINALG_INV || op == NDT_LINALG_DET ||
         op == NDT_LINALG_SLOGDET;
}
static int lu_rhs_op(ndt_linalg_op op) { return op == NDT_LINALG_SOLVE || op == NDT_LINALG_INV; }
/* The matrix factored is A^T (det, slogdet). */
static int lu_tr(ndt_linalg_op op) { return op == NDT_LINALG_DET || op == NDT_LINALG_SLOGDET; }

/* W's layout: n x (n + r) column-major (r: b's columns, solve), then the
 * second region (solve: Y, n x r by row blocks; inv: R, n x n column-major),
 * then n pivots (absolute, 1-based), then one info word per panel (its
 * first zero pivot, absolute; 0: none). */
typedef struct {
  int64_t n, r, na, nbc;          /* order, b's columns, A's block columns, all block columns */
  int csz;
  int64_t y_off, ipiv_off, info_off, bytes;
} lu_shape;

static void lu_shape_of(ndt_dtype ct, ndt_linalg_op op, int64_t n, int64_t r, lu_shape *s) {
  s->n = n;
  s->r = op == NDT_LINALG_SOLVE ? r : 0;
  s->csz = ndt__traits[ct].size;
  s->na = (n + LA_NB - 1) / LA_NB;
  s->nbc = s->na + (s->r + LA_NB - 1) / LA_NB;
  int64_t y = op == NDT_LINALG_SOLVE ? r : op == NDT_LINALG_INV ? n : 0;
  s->y_off = (int64_t)al((size_t)(n * (n + s->r) * s->csz));
  s->ipiv_off = s->y_off + (int64_t)al((size_t)(n * y * s->csz));
  s->info_off = s->ipiv_off + (int64_t)al((size_t)n * sizeof(lint));
  s->bytes = s->info_off + s->na * (int64_t)sizeof(lint);
}
/* Block column j: its first column and width (j < na: also row block j's). */
static int64_t lu_c0(const lu_shape *s, int64_t j) {
  return j < s->na ? j * LA_NB : s->n + (j - s->na) * LA_NB;
}
static int64_t lu_wc(const lu_shape *s, int64_t j) {
  int64_t c0 = lu_c0(s, j), end = j < s->na ? s->n : s->n + s->r;
  return end - c0 < LA_NB ? end - c0 : LA_NB;
}
/* solve: Y's piece of row block i and b's block column j (>= na), from Y's
 * start: rows_i x wc_j, leading dimension rows_i. */
static int64_t lu_y(const lu_shape *s, int64_t i, int64_t j) {
  return (i * LA_NB * s->r + (lu_c0(s, j) - s->n) * lu_wc(s, i)) * s->csz;
}

/* Panel k (P: its block column, column 0 row 0): getrf on rows k0.., the
 * pivots into ipiv[k0..] made absolute; returns the absolute info. */
static lint lu_panel(int cpx, const lu_shape *s, int64_t k, char *P, lint *ipiv) {
  int64_t k0 = k * LA_NB, w = lu_wc(s, k);
  lint M = CH(s->n - k0), N = CH(w), LD = CH(s->n), info = 0;
  LAPACK->getrf[cpx](&M, &N, P + k0 * s->csz, &LD, ipiv + k0, &info);
  for (int64_t i = 0; i < w; i++) ipiv[k0 + i] += (lint)k0;
  return info > 0 ? info + (lint)k0 : 0;
}

/* Block column j (C) by step k's panel (P, pivots ipiv): swaps, trsm, gemm. */
static void lu_update(int cpx, const lu_shape *s, int64_t k, const char *P, const lint *ipiv,
                      int64_t j, char *C) {
  static const double one[2] = {1, 0}, mone[2] = {-1, 0};
  int64_t n = s->n, k0 = k * LA_NB, w = lu_wc(s, k), csz = s->csz;
  lint NC = CH(lu_wc(s, j)), LD = CH(n), K1 = CH(k0 + 1), K2 = CH(k0 + w), inc = 1, W = CH(w);
  LAPACK->laswp[cpx](&NC, C, &LD, &K1, &K2, ipiv, &inc);
  LAPACK->trsm[cpx]("L", "L", "N", "U", &W, &NC, one, P + k0 * csz, &LD, C + k0 * csz, &LD,
                    1, 1, 1, 1);
  lint MR = CH(n - k0 - w);
  if (MR > 0)
    LAPACK->gemm[cpx]("N", "N", &MR, &NC, &W, mone, P + (k0 + w) * csz, &LD, C + k0 * csz, &LD,
                      one, C + (k0 + w) * csz, &LD, 1, 1);
}

/* Yij (row block i of b's block column j, rows_i x wc_j column-major) =
 * those rows of B (W's block column j, leading dimension n). */
static void bs_take_b(const lu_shape *s, const char *B, int64_t i, int64_t j, char *Yij) {
  int64_t rows = lu_wc(s, i), csz = s->csz;
  for (int64_t c = 0; c < lu_wc(s, j); c++)
    memcpy(Yij + c * rows * csz, B + (c * s->n + i * LA_NB) * csz, (size_t)(rows * csz));
}

/* solve's back-substitution, row block i of b's block column j (Yij: its
 * piece of Y): Yij = U_ii^-1 Yij; B (W's block column j) when i is the last
 * row block: Yij is first copied from B's rows. */
static void bs_diag(int cpx, const lu_shape *s, const char *A, const char *B, int64_t i,
                    int64_t j, char *Yij) {
  static const double one[2] = {1, 0};
  int64_t n = s->n, i0 = i * LA_NB, rows = lu_wc(s, i), wc = lu_wc(s, j), csz = s->csz;
  if (B) bs_take_b(s, B, i, j, Yij);
  lint M = CH(rows), NC = CH(wc), LD = CH(n);
  LAPACK->trsm[cpx]("L", "U", "N", "N", &M, &NC, one, A + (i0 + i0 * n) * csz, &LD, Yij, &M,
                    1, 1, 1, 1);
}

/* Row block i < l of b's block column j: Yij -= U_il Ylj (B: as bs_diag's,
 * when l is the last row block). */
static void bs_update(int cpx, const lu_shape *s, const char *A, const char *B, int64_t i,
                      int64_t l, int64_t j, const char *Ylj, char *Yij) {
  static const double one[2] = {1, 0}, mone[2] = {-1, 0};
  int64_t n = s->n, i0 = i * LA_NB, rows = lu_wc(s, i), wc = lu_wc(s, j), csz = s->csz;
  if (B) bs_take_b(s, B, i, j, Yij);
  lint M = CH(rows), NC = CH(wc), K = CH(lu_wc(s, l)), LD = CH(n);
  LAPACK->gemm[cpx]("N", "N", &M, &NC, &K, mone, A + (i0 + l * LA_NB * n) * csz, &LD, Ylj, &K,
                    one, Yij, &M, 1, 1);
}

/* solve with few right-hand sides (r <= LA_BS_ONE): the back-substitution of
 * b's block column j (C, in W) as one trsm with U, in place: b's 8 or so
 * columns are too little work to cut into 128-row pieces (a chain of tiny
 * tasks whose hand-offs cost more than the solve). */
#define LA_BS_ONE 32
static void bs_whole(int cpx, const lu_shape *s, const char *A, int64_t j, char *C) {
  static const double one[2] = {1, 0};
  lint M = CH(s->n), NC = CH(lu_wc(s, j)), LD = CH(s->n);
  LAPACK->trsm[cpx]("L", "U", "N", "N", &M, &NC, one, A, &LD, C, &LD, 1, 1, 1, 1);
}

/* inv: L's block column j (C) gets the later panels' row swaps, so that W
 * holds LAPACK's L (P A = L U). */
static void inv_swaps(int cpx, const lu_shape *s, const lint *ipiv, int64_t j, char *C) {
  int64_t j1 = j * LA_NB + lu_wc(s, j);
  if (j1 >= s->n) return;
  lint NC = CH(lu_wc(s, j)), LD = CH(s->n), K1 = CH(j1 + 1), K2 = CH(s->n), inc = 1;
  LAPACK->laswp[cpx](&NC, C, &LD, &K1, &K2, ipiv, &inc);
}

/* inv: U^-1's block column j (Rj: R's, rows from j's end zero) by trsm of
 * U's leading block on the identity's columns (a NaN or inf on U's
 * diagonal is no error: LAPACK's getrf reports exact zeros only, and the
 * NaNs propagate as NumPy's). */
static void inv_uinv(int cpx, ndt_dtype ct, const lu_shape *s, const char *A, int64_t j, char *Rj) {
  static const double one[2] = {1, 0};
  int64_t n = s->n, j0 = j * LA_NB, wc = lu_wc(s, j);
  memset(Rj, 0, (size_t)(wc * n * s->csz));
  for (int64_t c = 0; c < wc; c++) putc_(ct, Rj, j0 + c + c * n, 1, 0);
  lint M = CH(j0 + wc), NC = CH(wc), LD = CH(n);
  LAPACK->trsm[cpx]("L", "U", "N", "N", &M, &NC, one, A, &LD, Rj, &LD, 1, 1, 1, 1);
}

/* inv: row block i of inv(A) = U^-1 L^-1 P (getri) into X (rows x n,
 * column-major): R's rows (U^-1's, zero left of the block), then X L = X
 * by L's block columns from the last (getri's: gemm with the later ones'
 * results, trsm with the unit lower diagonal block), then the pivots'
 * column swaps in reverse order. */
static void inv_rows(int cpx, const lu_shape *s, const char *A, const char *R, const lint *ipiv,
                     int64_t i, char *X) {
  static const double one[2] = {1, 0}, mone[2] = {-1, 0};
  int64_t n = s->n, i0 = i * LA_NB, rows = lu_wc(s, i), csz = s->csz, cb = rows * csz;
  memset(X, 0, (size_t)(i0 * cb));
  for (int64_t c = i0; c < n; c++) memcpy(X + c * cb, R + (c * n + i0) * csz, (size_t)cb);
  lint M = CH(rows), N = CH(n);
  for (int64_t j = s->na - 1; j >= 0; j--) {
    int64_t j0 = j * LA_NB, j1 = j0 + lu_wc(s, j);
    lint NC = CH(j1 - j0), K = CH(n - j1);
    if (K > 0)
      LAPACK->gemm[cpx]("N", "N", &M, &NC, &K, mone, X + j1 * cb, &M, A + (j1 + j0 * n) * csz,
                        &N, one, X + j0 * cb, &M, 1, 1);
    LAPACK->trsm[cpx]("R", "L", "N", "U", &M, &NC, one, A + (j0 + j0 * n) * csz, &N,
                      X + j0 * cb, &M, 1, 1, 1, 1);
  }
  char tmp[LA_NB * 16];
  for (int64_t c = n - 2; c >= 0; c--) {
    int64_t p = ipiv[c] - 1;
    if (p == c) continue;
    memcpy(tmp, X + c * cb, (size_t)cb);
    memcpy(X + c * cb, X + p * cb, (size_t)cb);
    memcpy(X + p * cb, tmp, (size_t)cb);
  }
}

/* det (out[0]) or slogdet (sign out[0], log|det| out[1]) from the LU of
 * order n in A (leading dimension ld) and its absolute 1-based pivots;
 * singular: a zero pivot was met. NumPy's way (sign and the sum of
 * log|u_ii| in order; det = sign * exp(logdet)). */
static void det_out(ndt_linalg_op op, ndt_dtype ct, int64_t n, const char *A, int64_t ld,
                    const lint *ipiv, int singular, const mref *out) {
  int csz = ndt__traits[ct].size;
  double sr = 0, si = 0, logdet = -INFINITY;
  if (!singular) {
    int odd = 0;
    for (int64_t i = 0; i < n; i++) odd ^= ipiv[i] != (lint)(i + 1);
    sr = odd ? -1.0 : 1.0;
    logdet = 0;
    for (int64_t i = 0; i < n; i++) {
      double re, im;
      getc_(ct, A, i + i * ld, &re, &im);
      double ab_ = is_cpx(ct) ? hypot(re, im) : fabs(re);
      if (is_cpx(ct)) {
        double ur = re / ab_, ui = im / ab_, t = sr * ur - si * ui;
        si = sr * ui + si * ur;
        sr = t;
      } else if (re < 0) {
        sr = -sr;
      }
      logdet += log(ab_);
    }
  }
  double tmp[2];
  if (op == NDT_LINALG_DET) {
    double e = exp(logdet);
    putc_(ct, tmp, 0, sr * e, si * e);
    memcpy(out[0].p, tmp, (size_t)csz);
  } else {
    putc_(ct, tmp, 0, sr, si);
    memcpy(out[0].p, tmp, (size_t)csz);
    putc_(real_of(ct), tmp, 0, logdet, 0);
    memcpy(out[1].p, tmp, ndt__traits[real_of(ct)].size);
  }
}

/* The whole blocked LU in one task (la_body's kernels for n >= LA_BLOCK_MIN). */
static ndt_status lu_serial(const la_arg *a, la_ws *ws, const mref *in, const mref *out) {
  int64_t n = a->n;
  int cpx = is_cpx(a->ct);
  lu_shape s;
  lu_shape_of(a->ct, a->op, n, a->k, &s);
  char *W = ws_get(ws, (size_t)s.bytes);
  if (!W) return NDT_ERR_NOMEM;
  lint *ipiv = (lint *)(W + s.ipiv_off);
  int64_t csz = s.csz;
  char *Y = W + s.y_off;
  mref at = in[0];
  if (lu_tr(a->op)) {
    at.rs = in[0].cs;
    at.cs = in[0].rs;
  }
  load(&at, a->in[0].dtype, n, n, a->ct, W, n);
  for (int64_t j = s.na; j < s.nbc; j++) {
    mref b = in[1];
    b.p += (lu_c0(&s, j) - n) * b.cs;
    load(&b, a->in[1].dtype, n, lu_wc(&s, j), a->ct, W + lu_c0(&s, j) * n * csz, n);
  }
  int singular = 0;
  for (int64_t k = 0; k < s.na; k++) {
    char *P = W + k * LA_NB * n * csz;
    if (lu_panel(cpx, &s, k, P, ipiv)) {
      if (lu_rhs_op(a->op)) return fail("Singular matrix");
      singular = 1;
    }
    for (int64_t j = k + 1; j < s.nbc; j++)
      lu_update(cpx, &s, k, P, ipiv, j, W + lu_c0(&s, j) * n * csz);
  }
  if (!lu_rhs_op(a->op)) {
    det_out(a->op, a->ct, n, W, n, ipiv, singular, out);
    return NDT_OK;
  }
  if (a->op == NDT_LINALG_SOLVE && s.r <= LA_BS_ONE) {
    for (int64_t j = s.na; j < s.nbc; j++) {
      char *C = W + lu_c0(&s, j) * n * csz;
      bs_whole(cpx, &s, W, j, C);
      ndt__kern->copy2d(n, lu_wc(&s, j), C, csz, n * csz, a->ct,
                        out[0].p + (lu_c0(&s, j) - n) * out[0].cs, out[0].rs, out[0].cs, a->ct);
    }
    return NDT_OK;
  }
  if (a->op == NDT_LINALG_SOLVE) {
    for (int64_t j = s.na; j < s.nbc; j++) {
      const char *B = W + lu_c0(&s, j) * n * csz;
      for (int64_t i = s.na - 1; i >= 0; i--) {
        const char *first = i == s.na - 1 ? B : NULL;
        bs_diag(cpx, &s, W, first, i, j, Y + lu_y(&s, i, j));
        for (int64_t t = 0; t < i; t++)
          bs_update(cpx, &s, W, first, t, i, j, Y + lu_y(&s, i, j), Y + lu_y(&s, t, j));
      }
    }
    for (int64_t i = 0; i < s.na; i++) {
      int64_t rows = lu_wc(&s, i);
      ndt__kern->copy2d(rows, s.r, Y + i * LA_NB * s.r * csz, csz, rows * csz, a->ct,
                        out[0].p + i * LA_NB * out[0].rs, out[0].rs, out[0].cs, a->ct);
    }
    return NDT_OK;
  }
  for (int64_t j = 0; j < s.na; j++)
    inv_uinv(cpx, a->ct, &s, W, j, Y + j * LA_NB * n * csz);
  for (int64_t j = 0; j < s.na; j++) inv_swaps(cpx, &s, ipiv, j, W + j * LA_NB * n * csz);
  char *X = ndt__malloc((size_t)(LA_NB * n * csz));
  if (!X) return NDT_ERR_NOMEM;
  for (int64_t i = 0; i < s.na; i++) {
    int64_t rows = lu_wc(&s, i);
    inv_rows(cpx, &s, W, Y, ipiv, i, X);
    ndt__kern->copy2d(rows, n, X, csz, rows * csz, a->ct, out[0].p + i * LA_NB * out[0].rs,
                      out[0].rs, out[0].cs, a->ct);
  }
  ndt__mfree(X);
  return NDT_OK;
}

/* ---- the blocked LU as tasks (one rank, no CUDA device) ---- */
typedef struct {
  ndt_linalg_op op;
  ndt_dtype ct;
  lu_shape s;
  int64_t k, j;   /* panel k; update of block column j by step k; load, back-solve: j */
  int64_t i, l;   /* back-solve: row block i (by row block l); inv: row block i */
  int64_t i0;     /* cholesky store: the first row */
  int upper;      /* cholesky: upper=True */
} lu_arg;

/* Operands: the input's columns of block column j (read), W's block column
 * j (write). */
static ndt_status lu_load_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  load_block(&op[0], a->s.n, lu_wc(&a->s, a->j), a->ct, op[1].ptr);
  return NDT_OK;
}

/* Operands: W's block column k (rw), its pivots and info word (write). */
static ndt_status lu_panel_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  lint *ipiv = (lint *)op[1].ptr - a->k * LA_NB;   /* (W's pivots, indexed by row) */
  lint info = lu_panel(is_cpx(a->ct), &a->s, a->k, op[0].ptr, ipiv);
  if (info && lu_rhs_op(a->op)) return fail("Singular matrix");
  memcpy(op[2].ptr, &info, sizeof info);
  return NDT_OK;
}

/* Operands: W's block column k and its pivots (read), block column j (rw). */
static ndt_status lu_update_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  const lint *ipiv = (const lint *)op[1].ptr - a->k * LA_NB;
  lu_update(is_cpx(a->ct), &a->s, a->k, op[0].ptr, ipiv, a->j, op[2].ptr);
  return NDT_OK;
}

/* Operands: W's columns of row block l (read: U's block column), W's block
 * column j (read, when l is the last row block; else absent), Y's piece
 * (l, j) (rw for the diagonal, i == l; else read), Y's piece (i, j) (rw;
 * absent for the diagonal). */
static ndt_status bs_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  const lu_shape *s = &a->s;
  const char *A = op[0].ptr - a->l * LA_NB * s->n * s->csz;   /* (W, as indexed by column) */
  const char *B = a->l == s->na - 1 ? op[1].ptr : NULL;
  if (a->i == a->l) {
    bs_diag(is_cpx(a->ct), s, A, B, a->l, a->j, op[2].ptr);
  } else {
    bs_update(is_cpx(a->ct), s, A, B, a->i, a->l, a->j, op[2].ptr, op[3].ptr);
  }
  return NDT_OK;
}

/* Operands: W's A part (read), W's block column j (rw), the result's
 * columns of j (write). */
static ndt_status bs_whole_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  const ndt_bound *o = &op[2];
  int64_t n = a->s.n, csz = a->s.csz;
  bs_whole(is_cpx(a->ct), &a->s, op[0].ptr, a->j, op[1].ptr);
  ndt__kern->copy2d(o->shape[0], o->shape[1], op[1].ptr, csz, n * csz, a->ct, o->ptr, o->st[0],
                    o->st[1], o->view->dtype);
  return NDT_OK;
}

/* Operands: Y's row block i (read), the result's rows (write). */
static ndt_status bs_store_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  const ndt_bound *o = &op[1];
  int64_t csz = a->s.csz;
  ndt__kern->copy2d(o->shape[0], o->shape[1], op[0].ptr, csz, o->shape[0] * csz, a->ct, o->ptr,
                    o->st[0], o->st[1], o->view->dtype);
  return NDT_OK;
}

/* Operands: W's columns [0, j's end) (read), R's block column j (write). */
static ndt_status inv_uinv_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  inv_uinv(is_cpx(a->ct), a->ct, &a->s, op[0].ptr, a->j, op[1].ptr);
  return NDT_OK;
}

/* Operands: the pivots from block column j's end (read), its columns (rw). */
static ndt_status inv_swaps_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  const lint *ipiv = (const lint *)op[0].ptr - (a->j * LA_NB + lu_wc(&a->s, a->j));
  inv_swaps(is_cpx(a->ct), &a->s, ipiv, a->j, op[1].ptr);
  return NDT_OK;
}

/* Operands: W's A part (read), R's columns from row block i's (read), the
 * pivots (read), the result's rows of row block i (write). */
static ndt_status inv_rows_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  const lu_shape *s = &a->s;
  int64_t rows = lu_wc(s, a->i), csz = s->csz;
  char *X = ndt__malloc((size_t)(rows * s->n * csz));
  if (!X) return NDT_ERR_NOMEM;
  const char *R = op[1].ptr - a->i * LA_NB * s->n * csz;   /* (R, as indexed by column) */
  inv_rows(is_cpx(a->ct), s, op[0].ptr, R, (const lint *)op[2].ptr, a->i, X);
  const ndt_bound *o = &op[3];
  ndt__kern->copy2d(rows, s->n, X, csz, rows * csz, a->ct, o->ptr, o->st[0], o->st[1],
                    o->view->dtype);
  ndt__mfree(X);
  return NDT_OK;
}

/* Operands: W whole (read), det (or sign, log|det|) (write). */
static ndt_status lu_det_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  const lu_shape *s = &a->s;
  const lint *info = (const lint *)(op[0].ptr + s->info_off);
  int singular = 0;
  for (int64_t k = 0; k < s->na; k++) singular |= info[k] != 0;
  double tmp[2][2];
  mref mo[2] = {{(char *)tmp[0], 0, 0}, {(char *)tmp[1], 0, 0}};
  det_out(a->op, a->ct, s->n, op[0].ptr, s->n, (const lint *)(op[0].ptr + s->ipiv_off),
          singular, mo);
  int nout = a->op == NDT_LINALG_SLOGDET ? 2 : 1;
  for (int i = 0; i < nout; i++)
    ndt__kern->copy2d(1, 1, (char *)tmp[i], 0, 0, i ? real_of(a->ct) : a->ct, op[1 + i].ptr, 0,
                      0, op[1 + i].view->dtype);
  return NDT_OK;
}

static const ndt_task_kind lu_load_kind = {"linalg lu load", {lu_load_body}, NULL};
static const ndt_task_kind lu_panel_kind = {"linalg lu panel", {lu_panel_body}, NULL};
static const ndt_task_kind lu_update_kind = {"linalg lu update", {lu_update_body}, NULL};
static const ndt_task_kind bs_kind = {"linalg lu backsolve", {bs_body}, NULL};
static const ndt_task_kind bs_whole_kind = {"linalg lu backsolve", {bs_whole_body}, NULL};
static const ndt_task_kind bs_store_kind = {"linalg lu store", {bs_store_body}, NULL};
static const ndt_task_kind inv_uinv_kind = {"linalg inv uinv", {inv_uinv_body}, NULL};
static const ndt_task_kind inv_swaps_kind = {"linalg inv swaps", {inv_swaps_body}, NULL};
static const ndt_task_kind inv_rows_kind = {"linalg inv rows", {inv_rows_body}, NULL};
static const ndt_task_kind lu_det_kind = {"linalg lu det", {lu_det_body}, NULL};

/* v's matrix of batch q (C order over bshape[0..nbd)): rows r0.. (nr) and
 * columns c0.. (nc) as a 2-d view, or the 0-d element when ncore is 0. */
static void lu_view(const ndt_array *v, int nbd, const int64_t *bshape, int64_t q, int ncore,
                    int64_t r0, int64_t nr, int64_t c0, int64_t nc, ndt_array *out) {
  *out = *v;
  int64_t off = v->offset;
  for (int d = nbd - 1; d >= 0; d--) {
    off += (q % bshape[d]) * v->strides[d];
    q /= bshape[d];
  }
  out->offset = off;
  out->ndim = 0;
  out->size = 1;
  if (!ncore) return;
  out->offset += r0 * v->strides[nbd] + c0 * v->strides[nbd + 1];
  out->ndim = 2;
  out->shape[0] = nr;
  out->shape[1] = nc;
  out->strides[0] = v->strides[nbd];
  out->strides[1] = v->strides[nbd + 1];
  out->size = nr * nc;
}

/* The source of W's block column j (< na) of matrix q: A's columns c0..
 * (wc of them), or A^T's (tr: A's rows, as an n x wc view). */
static void lu_a_cols(const ndt_array *a, int nbd, const int64_t *bshape, int64_t q, int tr,
                      int64_t n, int64_t c0, int64_t wc, ndt_array *src) {
  if (!tr) {
    lu_view(a, nbd, bshape, q, 2, 0, n, c0, wc, src);
    return;
  }
  lu_view(a, nbd, bshape, q, 2, c0, wc, 0, n, src);
  int64_t t = src->strides[0];
  src->strides[0] = src->strides[1];
  src->strides[1] = t;
  src->shape[0] = n;
  src->shape[1] = wc;
}

/* W's block column j of store S as a 1-d byte view. */
static void lu_col(ndt_array *v, ndt_store *S, const lu_shape *sh, int64_t j) {
  int64_t cb = sh->n * sh->csz;
  ndt__range_view(v, S, lu_c0(sh, j) * cb, lu_wc(sh, j) * cb);
}

/* Records the blocked LU of every matrix of the batch (s: the op's
 * argument, vin its operands, res its results). */
static ndt_status lu_record(const la_arg *s, const ndt_array *vin, ndt_array *const *res,
                            const int64_t *bshape, int64_t nmat) {
  int nbd = s->nbd;
  const char *name = op_name(s->op);
  int64_t n = s->n;
  lu_arg a;
  memset(&a, 0, sizeof a);
  a.op = s->op;
  a.ct = s->ct;
  lu_shape_of(s->ct, s->op, n, s->k, &a.s);
  const lu_shape *sh = &a.s;
  int64_t csz = sh->csz, lb = (int64_t)sizeof(lint), na = sh->na, cb = n * csz;
  ndt_status st = NDT_OK;
  for (int64_t q = 0; q < nmat && st == NDT_OK; q++) {
    ndt_store *S = NULL;
    st = ndt__store_new_bytes(&S, sh->bytes);
    if (st) break;
    ndt_array col[2], src, piv, inf, whole, yv[2], outv[2] = {ndt__empty_view, ndt__empty_view};
    for (int64_t j = 0; j < sh->nbc && st == NDT_OK; j++) {
      a.j = j;
      int64_t c0 = lu_c0(sh, j), wc = lu_wc(sh, j);
      if (j < na) lu_a_cols(&vin[0], nbd, bshape, q, lu_tr(s->op), n, c0, wc, &src);
      else lu_view(&vin[1], nbd, bshape, q, 2, 0, n, c0 - n, wc, &src);
      lu_col(&col[0], S, sh, j);
      ndt_operand ops[2] = {{&src, NDT_READ}, {&col[0], NDT_WRITE}};
      st = ndt__record(&lu_load_kind, NULL, ops, 2, &a, sizeof a, 0);
    }
    for (int64_t k = 0; k < na && st == NDT_OK; k++) {
      a.k = k;
      lu_col(&col[0], S, sh, k);
      ndt__range_view(&piv, S, sh->ipiv_off + k * LA_NB * lb, lu_wc(sh, k) * lb);
      ndt__range_view(&inf, S, sh->info_off + k * lb, lb);
      ndt_operand pops[3] = {{&col[0], NDT_RW}, {&piv, NDT_WRITE}, {&inf, NDT_WRITE}};
      st = ndt__record(&lu_panel_kind, name, pops, 3, &a, sizeof a, NDT_TASK_URGENT);
      for (int64_t j = k + 1; j < sh->nbc && st == NDT_OK; j++) {
        a.j = j;
        lu_col(&col[1], S, sh, j);
        ndt_operand uops[3] = {{&col[0], NDT_READ}, {&piv, NDT_READ}, {&col[1], NDT_RW}};
        /* the panel and the update the next panel waits for go first: the
         * other updates of this step overlap the next panel (look-ahead) */
        st = ndt__record(&lu_update_kind, NULL, uops, 3, &a, sizeof a,
                         j == k + 1 ? NDT_TASK_URGENT : 0);
      }
    }
    if (s->op == NDT_LINALG_SOLVE && sh->r <= LA_BS_ONE) {
      ndt__range_view(&whole, S, 0, n * cb);
      for (int64_t j = na; j < sh->nbc && st == NDT_OK; j++) {
        a.j = j;
        lu_col(&col[1], S, sh, j);
        lu_view(res[0], nbd, bshape, q, 2, 0, n, lu_c0(sh, j) - n, lu_wc(sh, j), &outv[0]);
        ndt_operand bops[3] = {{&whole, NDT_READ}, {&col[1], NDT_RW}, {&outv[0], NDT_WRITE}};
        st = ndt__record(&bs_whole_kind, name, bops, 3, &a, sizeof a, NDT_TASK_URGENT);
      }
    } else if (s->op == NDT_LINALG_SOLVE) {
      /* the back-substitution by pieces of Y: per b's block column, from the
       * last row block up, its diagonal solve then the updates above it
       * (the next row block's first: the path the next solve waits on) */
      for (int64_t j = na; j < sh->nbc && st == NDT_OK; j++) {
        a.j = j;
        lu_col(&col[1], S, sh, j);
        for (int64_t l = na - 1; l >= 0 && st == NDT_OK; l--) {
          int first = l == na - 1;
          a.l = l;
          lu_col(&col[0], S, sh, l);
          ndt__range_view(&yv[0], S, sh->y_off + lu_y(sh, l, j), lu_wc(sh, l) * lu_wc(sh, j) * csz);
          for (int64_t i = l; i >= 0 && st == NDT_OK; i--) {
            a.i = i;
            ndt_operand bops[4] = {{&col[0], NDT_READ},
                                   {first ? &col[1] : &ndt__empty_view, NDT_READ},
                                   {&yv[0], i == l ? (first ? NDT_WRITE : NDT_RW) : NDT_READ},
                                   {&ndt__empty_view, NDT_READ}};
            if (i < l) {
              ndt__range_view(&yv[1], S, sh->y_off + lu_y(sh, i, j),
                              lu_wc(sh, i) * lu_wc(sh, j) * csz);
              bops[3] = (ndt_operand){&yv[1], first ? NDT_WRITE : NDT_RW};
            }
            st = ndt__record(&bs_kind, i == l ? name : NULL, bops, 4, &a, sizeof a,
                             i >= l - 1 ? NDT_TASK_URGENT : 0);
          }
        }
      }
      for (int64_t i = 0; i < na && st == NDT_OK; i++) {
        int64_t rows = lu_wc(sh, i);
        ndt__range_view(&yv[0], S, sh->y_off + i * LA_NB * sh->r * csz, rows * sh->r * csz);
        lu_view(res[0], nbd, bshape, q, 2, i * LA_NB, rows, 0, sh->r, &outv[0]);
        ndt_operand sops[2] = {{&yv[0], NDT_READ}, {&outv[0], NDT_WRITE}};
        st = ndt__record(&bs_store_kind, NULL, sops, 2, &a, sizeof a, 0);
      }
    } else if (s->op == NDT_LINALG_INV) {
      /* U^-1's block column j as soon as panel j is done (U's leading block
       * is final then), L's swaps once every panel is, then the rows */
      for (int64_t j = 0; j < na && st == NDT_OK; j++) {
        a.j = j;
        ndt__range_view(&whole, S, 0, (j * LA_NB + lu_wc(sh, j)) * cb);
        ndt__range_view(&yv[0], S, sh->y_off + j * LA_NB * cb, lu_wc(sh, j) * cb);
        ndt_operand iops[2] = {{&whole, NDT_READ}, {&yv[0], NDT_WRITE}};
        st = ndt__record(&inv_uinv_kind, NULL, iops, 2, &a, sizeof a, 0);
      }
      for (int64_t j = 0; j < na - 1 && st == NDT_OK; j++) {
        int64_t j1 = j * LA_NB + lu_wc(sh, j);
        a.j = j;
        ndt__range_view(&piv, S, sh->ipiv_off + j1 * lb, (n - j1) * lb);
        lu_col(&col[0], S, sh, j);
        ndt_operand wops[2] = {{&piv, NDT_READ}, {&col[0], NDT_RW}};
        st = ndt__record(&inv_swaps_kind, NULL, wops, 2, &a, sizeof a, 0);
      }
      ndt__range_view(&whole, S, 0, n * cb);
      ndt__range_view(&piv, S, sh->ipiv_off, n * lb);
      for (int64_t i = 0; i < na && st == NDT_OK; i++) {
        a.i = i;
        ndt__range_view(&yv[0], S, sh->y_off + i * LA_NB * cb, (n - i * LA_NB) * cb);
        lu_view(res[0], nbd, bshape, q, 2, i * LA_NB, lu_wc(sh, i), 0, n, &outv[0]);
        ndt_operand rops[4] = {{&whole, NDT_READ}, {&yv[0], NDT_READ}, {&piv, NDT_READ},
                               {&outv[0], NDT_WRITE}};
        st = ndt__record(&inv_rows_kind, NULL, rops, 4, &a, sizeof a, 0);
      }
    } else if (st == NDT_OK) {
      ndt__range_view(&whole, S, 0, sh->bytes);
      lu_view(res[0], nbd, bshape, q, 0, 0, 0, 0, 0, &outv[0]);
      int nop = 2;
      if (s->op == NDT_LINALG_SLOGDET) {
        lu_view(res[1], nbd, bshape, q, 0, 0, 0, 0, 0, &outv[1]);
        nop = 3;
      }
      ndt_operand dops[3] = {{&whole, NDT_READ}, {&outv[0], NDT_WRITE}, {&outv[1], NDT_WRITE}};
      st = ndt__record(&lu_det_kind, NULL, dops, nop, &a, sizeof a, 0);
    }
    ndt__store_decref(S);
  }
  return st;
}

/* ---- cholesky of a large matrix: the same block columns, right-looking ----
 * Panel k: potrf of the diagonal block, trsm of the rows below (L_below =
 * A_below L_kk^-H); block column j > k: its rows j0.. -= L[j0:, k]
 * L[j0:j0+wj, k]^H (one gemm). NumPy reads A's lower triangle (upper=False:
 * W holds A, a transposed load, and the result's rows are W's rows) or its
 * upper one (upper=True: W holds A^T, whose lower triangle that is, loaded
 * by contiguous copies; U = L^T, the result's rows are W's columns). */
static lint ch_panel(int cpx, const lu_shape *s, int64_t k, char *P) {
  static const double one[2] = {1, 0};
  int64_t n = s->n, k0 = k * LA_NB, w = lu_wc(s, k), csz = s->csz;
  lint W = CH(w), LD = CH(n), info = 0, MR = CH(n - k0 - w);
  LAPACK->potrf[cpx]("L", &W, P + k0 * csz, &LD, &info, 1);
  if (info > 0) return info + (lint)k0;
  if (MR > 0)
    LAPACK->trsm[cpx]("R", "L", cpx ? "C" : "T", "N", &MR, &W, one, P + k0 * csz, &LD,
                      P + (k0 + w) * csz, &LD, 1, 1, 1, 1);
  return 0;
}

static void ch_update(int cpx, const lu_shape *s, int64_t k, const char *P, int64_t j, char *C) {
  static const double one[2] = {1, 0}, mone[2] = {-1, 0};
  int64_t n = s->n, j0 = lu_c0(s, j), csz = s->csz;
  lint M = CH(n - j0), NC = CH(lu_wc(s, j)), K = CH(lu_wc(s, k)), LD = CH(n);
  LAPACK->gemm[cpx]("N", cpx ? "C" : "T", &M, &NC, &K, mone, P + j0 * csz, &LD, P + j0 * csz, &LD,
                    one, C + j0 * csz, &LD, 1, 1);
}

/* Result rows i0.. (o: rows x n, dtype odt, byte strides rs, cs) from W
 * (src: W + i0 (lower) or W's column i0 (upper)), the other triangle zero. */
static void ch_rows(int upper, ndt_dtype ct, int64_t n, int64_t i0, int64_t rows, const char *src,
                    char *o, int64_t rs, int64_t cs, ndt_dtype odt) {
  int csz = ndt__traits[ct].size, osz = ndt__traits[odt].size;
  if (upper) ndt__kern->copy2d(rows, n, src, n * csz, csz, ct, o, rs, cs, odt);
  else ndt__kern->copy2d(rows, n, src, csz, n * csz, ct, o, rs, cs, odt);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = upper ? 0 : i0 + r + 1; c < (upper ? i0 + r : n); c++)
      memset(o + r * rs + c * cs, 0, (size_t)osz);
}

/* The whole blocked Cholesky in one task (k_cholesky for n >= LA_BLOCK_MIN). */
static ndt_status ch_serial(const la_arg *a, la_ws *ws, const mref *in, const mref *out) {
  int64_t n = a->n;
  int cpx = is_cpx(a->ct), upper = (a->flags & NDT_LINALG_UPPER) != 0;
  lu_shape s;
  lu_shape_of(a->ct, a->op, n, 0, &s);
  char *W = ws_get(ws, (size_t)s.bytes);
  if (!W) return NDT_ERR_NOMEM;
  int64_t csz = s.csz;
  mref at = in[0];
  if (upper) {
    at.rs = in[0].cs;
    at.cs = in[0].rs;
  }
  load(&at, a->in[0].dtype, n, n, a->ct, W, n);
  for (int64_t k = 0; k < s.na; k++) {
    char *P = W + k * LA_NB * n * csz;
    if (ch_panel(cpx, &s, k, P)) return fail("Matrix is not positive definite");
    for (int64_t j = k + 1; j < s.na; j++) ch_update(cpx, &s, k, P, j, W + lu_c0(&s, j) * n * csz);
  }
  /* out[0] is the task's double buffer (la_body) or the result: rows of csz */
  for (int64_t i0 = 0; i0 < n; i0 += LA_NB) {
    int64_t rows = n - i0 < LA_NB ? n - i0 : LA_NB;
    ch_rows(upper, a->ct, n, i0, rows, W + (upper ? i0 * n : i0) * csz,
            out[0].p + i0 * out[0].rs, out[0].rs, out[0].cs, a->ct);
  }
  return NDT_OK;
}

/* Operands: W's block column k (rw). */
static ndt_status ch_panel_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  if (ch_panel(is_cpx(a->ct), &a->s, a->k, op[0].ptr)) return fail("Matrix is not positive definite");
  return NDT_OK;
}

/* Operands: W's block column k (read), block column j (rw). */
static ndt_status ch_update_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  ch_update(is_cpx(a->ct), &a->s, a->k, op[0].ptr, a->j, op[1].ptr);
  return NDT_OK;
}

/* Operands: W's columns [0, i0 + rows) (lower) or i0.. (upper) (read), the
 * result's rows i0.. (write). */
static ndt_status ch_store_body(ndt_bound *op, void *p) {
  const lu_arg *a = p;
  const ndt_bound *o = &op[1];
  const char *src = a->upper ? op[0].ptr : op[0].ptr + a->i0 * a->s.csz;
  ch_rows(a->upper, a->ct, a->s.n, a->i0, o->shape[0], src, o->ptr, o->st[0], o->st[1],
          o->view->dtype);
  return NDT_OK;
}

static const ndt_task_kind ch_panel_kind = {"linalg cholesky panel", {ch_panel_body}, NULL};
static const ndt_task_kind ch_update_kind = {"linalg cholesky update", {ch_update_body}, NULL};
static const ndt_task_kind ch_store_kind = {"linalg cholesky store", {ch_store_body}, NULL};

static ndt_status ch_record(const la_arg *s, const ndt_array *vin, ndt_array *const *res,
                            const int64_t *bshape, int64_t nmat) {
  int nbd = s->nbd;
  int64_t n = s->n;
  lu_arg a;
  memset(&a, 0, sizeof a);
  a.op = s->op;
  a.ct = s->ct;
  a.upper = (s->flags & NDT_LINALG_UPPER) != 0;
  lu_shape_of(s->ct, s->op, n, 0, &a.s);
  const lu_shape *sh = &a.s;
  int64_t csz = sh->csz;
  ndt_status st = NDT_OK;
  for (int64_t q = 0; q < nmat && st == NDT_OK; q++) {
    ndt_store *S = NULL;
    st = ndt__store_new_bytes(&S, sh->bytes);
    if (st) break;
    ndt_array col[2], src, outv;
    for (int64_t j = 0; j < sh->na && st == NDT_OK; j++) {
      int64_t c0 = lu_c0(sh, j), wc = lu_wc(sh, j);
      a.j = j;
      lu_a_cols(&vin[0], nbd, bshape, q, a.upper, n, c0, wc, &src);   /* upper: A^T */
      lu_col(&col[0], S, sh, j);
      ndt_operand ops[2] = {{&src, NDT_READ}, {&col[0], NDT_WRITE}};
      st = ndt__record(&lu_load_kind, NULL, ops, 2, &a, sizeof a, 0);
    }
    for (int64_t k = 0; k < sh->na && st == NDT_OK; k++) {
      a.k = k;
      lu_col(&col[0], S, sh, k);
      ndt_operand pops[1] = {{&col[0], NDT_RW}};
      st = ndt__record(&ch_panel_kind, op_name(s->op), pops, 1, &a, sizeof a, NDT_TASK_URGENT);
      for (int64_t j = k + 1; j < sh->na && st == NDT_OK; j++) {
        a.j = j;
        lu_col(&col[1], S, sh, j);
        ndt_operand uops[2] = {{&col[0], NDT_READ}, {&col[1], NDT_RW}};
        st = ndt__record(&ch_update_kind, NULL, uops, 2, &a, sizeof a,
                         j == k + 1 ? NDT_TASK_URGENT : 0);
      }
    }
    for (int64_t i0 = 0; i0 < n && st == NDT_OK; i0 += LA_NB) {
      int64_t rows = n - i0 < LA_NB ? n - i0 : LA_NB;
      a.i0 = i0;
      if (a.upper) ndt__range_view(&col[0], S, i0 * n * csz, rows * n * csz);
      else ndt__range_view(&col[0], S, 0, (i0 + rows) * n * csz);
      lu_view(res[0], nbd, bshape, q, 2, i0, rows, 0, n, &outv);
      ndt_operand sops[2] = {{&col[0], NDT_READ}, {&outv, NDT_WRITE}};
      st = ndt__record(&ch_store_kind, NULL, sops, 2, &a, sizeof a, 0);
    }
    ndt__store_decref(S);
  }
  return st;
}

/* ---- qr of a large matrix: a blocked Householder QR --------------------
 * qr (modes reduced, complete and r) of an m x n matrix with m >= n >=
 * LA_BLOCK_MIN, in LAPACK's dgeqrf order on W (A column-major, leading
 * dimension m, block columns of LA_NB): step k's panel task is geqrf of the
 * tall panel (rows k*LA_NB..m-1) and larft of its block reflector's T
 * (LA_NB x LA_NB, its own range); each later block column's update applies
 * it from the left (larfb, H^H). R is W's upper triangle (stores of 128
 * rows, zeros below). Q (reduced: m x n, complete: m x m) is dorgqr's
 * order on a region Q of W: its block column J starts as the identity's
 * and gets the block reflectors of the panels k <= J from the last (larfb
 * without transpose): the block columns are independent of each other.
 * Each piece is one single-threaded LAPACK call on fixed blocks, so the
 * bits depend on the shapes only (qr_serial: the same pieces in one task,
 * on ranks). */
typedef struct {
  int64_t m, n, qc, na, nq;   /* rows, columns, Q's columns, A's and Q's block columns */
  int64_t r, nb;              /* lstsq: b's columns (after A's in W), all block columns */
  int csz;
  int64_t t_off, q_off, bytes;
} qr_shape;

static int qr_blocked(const la_arg *a) {
  return a->op == NDT_LINALG_QR && a->flags <= NDT_LINALG_QR_R && a->m >= a->n &&
         a->n >= LA_BLOCK_MIN;
}

static void qr_shape_of(ndt_dtype ct, int64_t m, int64_t n, int mode, int64_t r, qr_shape *s) {
  s->m = m;
  s->n = n;
  s->r = r;
  s->qc = mode == NDT_LINALG_QR_REDUCED ? n : mode == NDT_LINALG_QR_COMPLETE ? m : 0;
  s->csz = ndt__traits[ct].size;
  s->na = (n + LA_NB - 1) / LA_NB;
  s->nq = (s->qc + LA_NB - 1) / LA_NB;
  s->nb = s->na + (r + LA_NB - 1) / LA_NB;
  s->t_off = (int64_t)al((size_t)(m * (n + r) * s->csz));
  s->q_off = s->t_off + (int64_t)al((size_t)(s->na * LA_NB * LA_NB * s->csz));
  s->bytes = s->q_off + m * s->qc * s->csz;
}
static int64_t qr_w(int64_t total, int64_t j) {
  return total - j * LA_NB < LA_NB ? total - j * LA_NB : LA_NB;
}
/* W's block column j (A's, then b's): its first column and width. */
static int64_t qr_c0(const qr_shape *s, int64_t j) {
  return j < s->na ? j * LA_NB : s->n + (j - s->na) * LA_NB;
}
static int64_t qr_wc(const qr_shape *s, int64_t j) {
  return j < s->na ? qr_w(s->n, j) : qr_w(s->r, j - s->na);
}

/* Panel k (P: W's block column k) and its T (LA_NB x LA_NB). */
static ndt_status qr_panel(int cpx, const qr_shape *s, int64_t k, char *P, char *T) {
  int64_t k0 = k * LA_NB, w = qr_w(s->n, k), csz = s->csz;
  lint M = CH(s->m - k0), N = CH(w), LD = CH(s->m), LT = LA_NB, info = 0, m1 = -1;
  double q[2] = {0, 0};
  LAPACK->geqrf[cpx](&M, &N, NULL, &LD, NULL, q, &m1, &info);
  int64_t lwork = (int64_t)q[0] > w ? (int64_t)q[0] : w;
  char *buf = ndt__malloc((size_t)((w + lwork) * csz));
  if (!buf) return NDT_ERR_NOMEM;
  lint LW = CH(lwork);
  LAPACK->geqrf[cpx](&M, &N, P + k0 * csz, &LD, buf, buf + w * csz, &LW, &info);
  LAPACK->larft[cpx]("F", "C", &M, &N, P + k0 * csz, &LD, buf, T, &LT, 1, 1);
  ndt__mfree(buf);
  return info ? ndt__error(NDT_ERR_INTERNAL, "geqrf failed (info %d)", (int)info) : NDT_OK;
}

/* Block column C (wc columns, leading dimension m) by panel k's block
 * reflector (P: its block column, T): H^H C (tr: the factorisation's
 * update) or H C (Q's); first: C is the identity's block column jc first. */
static ndt_status qr_apply(int cpx, ndt_dtype ct, const qr_shape *s, int64_t k, const char *P,
                           const char *T, int tr, int64_t wc, int first, int64_t jc, char *C) {
  int64_t m = s->m, k0 = k * LA_NB, csz = s->csz;
  if (first) {
    memset(C, 0, (size_t)(wc * m * csz));
    for (int64_t c = 0; c < wc; c++) putc_(ct, C, jc * LA_NB + c + c * m, 1, 0);
  }
  char *work = ndt__malloc((size_t)(wc * LA_NB * csz));
  if (!work) return NDT_ERR_NOMEM;
  lint M = CH(m - k0), N = CH(wc), K = CH(qr_w(s->n, k)), LD = CH(m), LT = LA_NB, LW = CH(wc);
  LAPACK->larfb[cpx]("L", tr ? (cpx ? "C" : "T") : "N", "F", "C", &M, &N, &K, P + k0 * csz, &LD,
                     T, &LT, C + k0 * csz, &LD, work, &LW, 1, 1, 1, 1);
  ndt__mfree(work);
  return NDT_OK;
}

/* R's rows r0.. (rows of them; o: dtype odt, byte strides rs, cs) from W:
 * its upper triangle, zeros below (and in rows >= n: complete mode). */
static void qr_rrows(ndt_dtype ct, const qr_shape *s, const char *W, int64_t r0, int64_t rows,
                     char *o, int64_t rs, int64_t cs, ndt_dtype odt) {
  int64_t m = s->m, n = s->n, csz = s->csz, osz = ndt__traits[odt].size;
  for (int64_t r = r0; r < r0 + rows; r++) {
    char *orow = o + (r - r0) * rs;
    int64_t c1 = r < n ? r : n;
    for (int64_t c = 0; c < c1; c++) memset(orow + c * cs, 0, (size_t)osz);
    if (r < n) ndt__kern->copy2d(1, n - r, W + (r + r * m) * csz, 0, m * csz, ct, orow + r * cs, 0,
                                 cs, odt);
  }
}

/* The whole blocked QR in one task (k_qr for qr_blocked). */
static ndt_status qr_serial(const la_arg *a, la_ws *ws, const mref *in, const mref *out) {
  int cpx = is_cpx(a->ct), mode = a->flags;
  qr_shape s;
  qr_shape_of(a->ct, a->m, a->n, mode, 0, &s);
  char *W = ws_get(ws, (size_t)s.bytes);
  if (!W) return NDT_ERR_NOMEM;
  int64_t m = s.m, csz = s.csz, cb = m * csz;
  char *T = W + s.t_off, *Q = W + s.q_off;
  load(&in[0], a->in[0].dtype, m, s.n, a->ct, W, m);
  ndt_status st = NDT_OK;
  for (int64_t k = 0; k < s.na && st == NDT_OK; k++) {
    char *P = W + k * LA_NB * cb, *Tk = T + k * LA_NB * LA_NB * csz;
    st = qr_panel(cpx, &s, k, P, Tk);
    for (int64_t j = k + 1; j < s.na && st == NDT_OK; j++)
      st = qr_apply(cpx, a->ct, &s, k, P, Tk, 1, qr_w(s.n, j), 0, j, W + j * LA_NB * cb);
  }
  for (int64_t jq = 0; jq < s.nq && st == NDT_OK; jq++) {
    int64_t kl = jq < s.na - 1 ? jq : s.na - 1;
    for (int64_t k = kl; k >= 0 && st == NDT_OK; k--)
      st = qr_apply(cpx, a->ct, &s, k, W + k * LA_NB * cb, T + k * LA_NB * LA_NB * csz, 0,
                    qr_w(s.qc, jq), k == kl, jq, Q + jq * LA_NB * cb);
  }
  if (st) return st;
  const mref *rr = &out[mode == NDT_LINALG_QR_R ? 0 : 1];
  qr_rrows(a->ct, &s, W, 0, mode == NDT_LINALG_QR_COMPLETE ? m : s.n, rr->p, rr->rs, rr->cs, a->ct);
  if (s.qc) ndt__kern->copy2d(m, s.qc, Q, csz, cb, a->ct, out[0].p, out[0].rs, out[0].cs, a->ct);
  return NDT_OK;
}

typedef struct {
  ndt_dtype ct;
  int mode;
  qr_shape s;
  int64_t k, j, r0;   /* panel k; update of block column j (Q's: jq); store: rows r0.. */
  int q;              /* the update is Q's (H C), else the factorisation's (H^H C) */
  int first;          /* Q's block column starts as the identity's */
  double rcond;       /* lstsq's last task: gelsd's rcond */
} qr_arg;

/* Operands: A's columns of block column j (read), W's block column j (write). */
static ndt_status qr_load_body(ndt_bound *op, void *p) {
  const qr_arg *a = p;
  load_block(&op[0], a->s.m, qr_wc(&a->s, a->j), a->ct, op[1].ptr);
  return NDT_OK;
}

/* Operands: W's block column k (rw), its T (write). */
static ndt_status qr_panel_body(ndt_bound *op, void *p) {
  const qr_arg *a = p;
  return qr_panel(is_cpx(a->ct), &a->s, a->k, op[0].ptr, op[1].ptr);
}

/* Operands: W's block column k and its T (read), the block column updated
 * (W's j: rw; Q's j (q): rw, or write when first). */
static ndt_status qr_update_body(ndt_bound *op, void *p) {
  const qr_arg *a = p;
  int64_t wc = a->q ? qr_w(a->s.qc, a->j) : qr_wc(&a->s, a->j);
  return qr_apply(is_cpx(a->ct), a->ct, &a->s, a->k, op[0].ptr, op[1].ptr, !a->q, wc, a->first,
                  a->j, op[2].ptr);
}

/* Operands: W's A part (read), R's rows r0.. (write). */
static ndt_status qr_rstore_body(ndt_bound *op, void *p) {
  const qr_arg *a = p;
  const ndt_bound *o = &op[1];
  qr_rrows(a->ct, &a->s, op[0].ptr, a->r0, o->shape[0], o->ptr, o->st[0], o->st[1],
           o->view->dtype);
  return NDT_OK;
}

/* Operands: the region Q (read), Q's rows r0.. (write). */
static ndt_status qr_qstore_body(ndt_bound *op, void *p) {
  const qr_arg *a = p;
  const ndt_bound *o = &op[1];
  int64_t csz = a->s.csz;
  ndt__kern->copy2d(o->shape[0], o->shape[1], op[0].ptr + a->r0 * csz, csz, a->s.m * csz, a->ct,
                    o->ptr, o->st[0], o->st[1], o->view->dtype);
  return NDT_OK;
}

static const ndt_task_kind qr_load_kind = {"linalg qr load", {qr_load_body}, NULL};
static const ndt_task_kind qr_panel_kind = {"linalg qr panel", {qr_panel_body}, NULL};
static const ndt_task_kind qr_update_kind = {"linalg qr update", {qr_update_body}, NULL};
static const ndt_task_kind qr_rstore_kind = {"linalg qr store r", {qr_rstore_body}, NULL};
static const ndt_task_kind qr_qstore_kind = {"linalg qr store q", {qr_qstore_body}, NULL};

/* Records, for matrix q of the batch, the loads of W's block columns (A's,
 * then b's for lstsq) into the work store S and the panel factorisations
 * with their updates of the block columns to their right. */
static ndt_status qr_record_factor(qr_arg *a, ndt_store *S, const ndt_array *vin, int nbd,
                                   const int64_t *bshape, int64_t q, const char *name) {
  const qr_shape *sh = &a->s;
  int64_t m = sh->m, n = sh->n, cb = m * sh->csz, tb = LA_NB * LA_NB * sh->csz;
  ndt_array col[2], tv, src;
  ndt_status st = NDT_OK;
  a->q = 0;
  a->first = 0;
  for (int64_t j = 0; j < sh->nb && st == NDT_OK; j++) {
    a->j = j;
    int64_t c0 = qr_c0(sh, j), wc = qr_wc(sh, j);
    if (j < sh->na) lu_view(&vin[0], nbd, bshape, q, 2, 0, m, c0, wc, &src);
    else lu_view(&vin[1], nbd, bshape, q, 2, 0, m, c0 - n, wc, &src);
    ndt__range_view(&col[0], S, c0 * cb, wc * cb);
    ndt_operand ops[2] = {{&src, NDT_READ}, {&col[0], NDT_WRITE}};
    st = ndt__record(&qr_load_kind, NULL, ops, 2, a, sizeof *a, 0);
  }
  for (int64_t k = 0; k < sh->na && st == NDT_OK; k++) {
    a->k = k;
    ndt__range_view(&col[0], S, k * LA_NB * cb, qr_w(n, k) * cb);
    ndt__range_view(&tv, S, sh->t_off + k * tb, tb);
    ndt_operand pops[2] = {{&col[0], NDT_RW}, {&tv, NDT_WRITE}};
    st = ndt__record(&qr_panel_kind, name, pops, 2, a, sizeof *a, NDT_TASK_URGENT);
    for (int64_t j = k + 1; j < sh->nb && st == NDT_OK; j++) {
      a->j = j;
      ndt__range_view(&col[1], S, qr_c0(sh, j) * cb, qr_wc(sh, j) * cb);
      ndt_operand uops[3] = {{&col[0], NDT_READ}, {&tv, NDT_READ}, {&col[1], NDT_RW}};
      st = ndt__record(&qr_update_kind, NULL, uops, 3, a, sizeof *a,
                       j == k + 1 ? NDT_TASK_URGENT : 0);
    }
  }
  return st;
}

/* Records the blocked QR of every matrix of the batch. */
static ndt_status qr_record(const la_arg *s, const ndt_array *vin, ndt_array *const *res,
                            const int64_t *bshape, int64_t nmat) {
  int nbd = s->nbd;
  qr_arg a;
  memset(&a, 0, sizeof a);
  a.ct = s->ct;
  a.mode = s->flags;
  qr_shape_of(s->ct, s->m, s->n, a.mode, 0, &a.s);
  const qr_shape *sh = &a.s;
  int64_t m = sh->m, csz = sh->csz, cb = m * csz, tb = LA_NB * LA_NB * csz;
  ndt_array *rres = res[a.mode == NDT_LINALG_QR_R ? 0 : 1];
  int64_t rrows = a.mode == NDT_LINALG_QR_COMPLETE ? m : sh->n;
  ndt_status st = NDT_OK;
  for (int64_t q = 0; q < nmat && st == NDT_OK; q++) {
    ndt_store *S = NULL;
    st = ndt__store_new_bytes(&S, sh->bytes);
    if (st) break;
    ndt_array col[2], tv, outv;
    st = qr_record_factor(&a, S, vin, nbd, bshape, q, "linalg.qr");
    /* Q: per panel from the last, its block reflector on Q's block columns
     * from its own (each starts as the identity's at the last panel it gets) */
    for (int64_t k = sh->na - 1; k >= 0 && sh->nq && st == NDT_OK; k--) {
      a.k = k;
      a.q = 1;
      ndt__range_view(&col[0], S, k * LA_NB * cb, qr_w(sh->n, k) * cb);
      ndt__range_view(&tv, S, sh->t_off + k * tb, tb);
      for (int64_t jq = k; jq < sh->nq && st == NDT_OK; jq++) {
        a.j = jq;
        a.first = k == (jq < sh->na - 1 ? jq : sh->na - 1);
        ndt__range_view(&col[1], S, sh->q_off + jq * LA_NB * cb, qr_w(sh->qc, jq) * cb);
        ndt_operand uops[3] = {{&col[0], NDT_READ}, {&tv, NDT_READ},
                               {&col[1], a.first ? NDT_WRITE : NDT_RW}};
        st = ndt__record(&qr_update_kind, NULL, uops, 3, &a, sizeof a, 0);
      }
    }
    ndt__range_view(&col[0], S, 0, sh->n * cb);
    for (int64_t r0 = 0; r0 < rrows && st == NDT_OK; r0 += LA_NB) {
      a.r0 = r0;
      lu_view(rres, nbd, bshape, q, 2, r0, qr_w(rrows, r0 / LA_NB), 0, sh->n, &outv);
      ndt_operand sops[2] = {{&col[0], NDT_READ}, {&outv, NDT_WRITE}};
      st = ndt__record(&qr_rstore_kind, NULL, sops, 2, &a, sizeof a, 0);
    }
    ndt__range_view(&col[1], S, sh->q_off, sh->qc * cb);
    for (int64_t r0 = 0; r0 < m && sh->qc && st == NDT_OK; r0 += LA_NB) {
      a.r0 = r0;
      lu_view(res[0], nbd, bshape, q, 2, r0, qr_w(m, r0 / LA_NB), 0, sh->qc, &outv);
      ndt_operand sops[2] = {{&col[1], NDT_READ}, {&outv, NDT_WRITE}};
      st = ndt__record(&qr_qstore_kind, NULL, sops, 2, &a, sizeof a, 0);
    }
    ndt__store_decref(S);
  }
  return st;
}

/* ---- lstsq of a tall matrix through the blocked QR ---------------------
 * m >= n >= LA_BLOCK_MIN with at least one right-hand side: W holds A and
 * then b (k columns, b's own block columns), the QR's panels and updates
 * run over all of them (b becomes Q^H b, as the LU's b becomes L^-1 P b),
 * and one last task solves the n x n problem R x = (Q^H b)[:n] with
 * LAPACK's gelsd (the minimum-norm solution with NumPy's rcond cut-off:
 * ||A x - b|| = ||R x - (Q^H b)[:n]|| + ||(Q^H b)[n:]||, and R's singular
 * values are A's); the residuals are the squared norms of (Q^H b)[n:]'s
 * columns (rank n). The same pieces in one task on ranks (lsq_serial). */
static int lsq_blocked(const la_arg *a) {
  return a->op == NDT_LINALG_LSTSQ && a->m >= a->n && a->n >= LA_BLOCK_MIN && a->k >= 1;
}

/* The last step from the factored W: o[0..3] (x, residuals, rank, s) of
 * dtypes odt[0..3]. */
static ndt_status lsq_final(const la_arg *a, const qr_shape *s, const char *W, const mref *o,
                            const ndt_dtype *odt) {
  int64_t m = s->m, n = s->n, k = s->r, csz = s->csz;
  ndt_dtype ct = a->ct, rt = real_of(ct);
  int cpx = is_cpx(ct), rsz = ndt__traits[rt].size;
  /* (a NaN or inf in A or b reaches W: NumPy's gelsd fails on it) */
  if (!all_finite(ct, W, m * (n + k))) return fail("SVD did not converge in Linear Least Squares");
  lint N = CH(n), NR = CH(k), rank = 0, info = 0, m1 = -1;
  double wq[2] = {0, 0}, rq[2] = {0, 0};
  lint iq[2] = {0, 0};
  const double *rc = &a->param;
  if (cpx)
    LAPACK->zgelsd(&N, &N, &NR, NULL, &N, NULL, &N, NULL, rc, &rank, wq, &m1, rq, iq, &info);
  else
    LAPACK->dgelsd(&N, &N, &NR, NULL, &N, NULL, &N, NULL, rc, &rank, wq, &m1, iq, &info);
  int64_t lw = (int64_t)wq[0] > 1 ? (int64_t)wq[0] : 1, lrw = (int64_t)rq[0] > 1 ? (int64_t)rq[0] : 1;
  int64_t liw = iq[0] > 1 ? iq[0] : 1;
  size_t ab = al((size_t)(n * n * csz)), bb = al((size_t)(n * k * csz)), sb = al((size_t)(n * rsz));
  size_t rb = al((size_t)(k * rsz)), wb = al((size_t)(lw * csz)), xb = cpx ? al((size_t)(lrw * rsz)) : 0;
  char *R = ndt__malloc(ab + bb + sb + rb + wb + xb + (size_t)liw * sizeof(lint));
  if (!R) return NDT_ERR_NOMEM;
  char *B = R + ab, *S = B + bb, *res = S + sb, *work = res + rb, *rwork = work + wb;
  lint *iwork = (lint *)(rwork + xb), LW = CH(lw);
  memset(R, 0, (size_t)(n * n * csz));
  for (int64_t c = 0; c < n; c++) memcpy(R + c * n * csz, W + c * m * csz, (size_t)((c + 1) * csz));
  for (int64_t j = 0; j < k; j++)
    memcpy(B + j * n * csz, W + (n + j) * m * csz, (size_t)(n * csz));
  if (cpx)
    LAPACK->zgelsd(&N, &N, &NR, R, &N, B, &N, S, rc, &rank, work, &LW, rwork, iwork, &info);
  else
    LAPACK->dgelsd(&N, &N, &NR, R, &N, B, &N, S, rc, &rank, work, &LW, iwork, &info);
  if (info != 0) {
    ndt__mfree(R);
    return fail("SVD did not converge in Linear Least Squares");
  }
  for (int64_t j = 0; j < k; j++) {
    double r = 0;
    if (rank == n && m > n)
      for (int64_t i = n; i < m; i++) {
        double re, im;
        getc_(ct, W, i + (n + j) * m, &re, &im);
        r += re * re + im * im;
      }
    putc_(rt, res, j, r, 0);
  }
  int64_t r64 = rank;
  ndt__kern->copy2d(n, k, B, csz, n * csz, ct, o[0].p, o[0].rs, o[0].cs, odt[0]);
  ndt__kern->copy2d(k, 1, res, rsz, 0, rt, o[1].p, o[1].rs, 0, odt[1]);
  ndt__kern->copy2d(1, 1, (char *)&r64, 0, 0, NDT_INT64, o[2].p, 0, 0, odt[2]);
  ndt__kern->copy2d(n, 1, S, rsz, 0, rt, o[3].p, o[3].rs, 0, odt[3]);
  ndt__mfree(R);
  return NDT_OK;
}

/* The whole of it in one task (k_lstsq for lsq_blocked). */
static ndt_status lsq_serial(const la_arg *a, la_ws *ws, const mref *in, const mref *out) {
  int cpx = is_cpx(a->ct);
  qr_shape s;
  qr_shape_of(a->ct, a->m, a->n, NDT_LINALG_QR_R, a->k, &s);
  char *W = ws_get(ws, (size_t)s.bytes);
  if (!W) return NDT_ERR_NOMEM;
  int64_t m = s.m, csz = s.csz, cb = m * csz;
  char *T = W + s.t_off;
  load(&in[0], a->in[0].dtype, m, s.n, a->ct, W, m);
  load(&in[1], a->in[1].dtype, m, s.r, a->ct, W + s.n * cb, m);
  ndt_status st = NDT_OK;
  for (int64_t k = 0; k < s.na && st == NDT_OK; k++) {
    char *P = W + k * LA_NB * cb, *Tk = T + k * LA_NB * LA_NB * csz;
    st = qr_panel(cpx, &s, k, P, Tk);
    for (int64_t j = k + 1; j < s.nb && st == NDT_OK; j++)
      st = qr_apply(cpx, a->ct, &s, k, P, Tk, 1, qr_wc(&s, j), 0, j, W + qr_c0(&s, j) * cb);
  }
  if (st) return st;
  ndt_dtype rt = real_of(a->ct), odt[4] = {a->ct, rt, NDT_INT64, rt};
  return lsq_final(a, &s, W, out, odt);
}

/* Operands: W's A and b parts (read), x, the residuals, the rank, s (write). */
static ndt_status lsq_final_body(ndt_bound *op, void *p) {
  const qr_arg *a = p;
  la_arg la;
  memset(&la, 0, sizeof la);
  la.ct = a->ct;
  la.param = a->rcond;
  mref o[4];
  ndt_dtype odt[4];
  for (int i = 0; i < 4; i++) {
    const ndt_bound *b = &op[1 + i];
    int nd = b->view->ndim;
    o[i] = (mref){b->ptr, nd > 0 ? b->st[0] : 0, nd > 1 ? b->st[1] : 0};
    odt[i] = b->view->dtype;
  }
  return lsq_final(&la, &a->s, op[0].ptr, o, odt);
}

static const ndt_task_kind lsq_final_kind = {"linalg.lstsq", {lsq_final_body}, NULL};

/* Records the blocked lstsq of every matrix of the batch. */
static ndt_status lsq_record(const la_arg *s, const ndt_array *vin, ndt_array *const *res,
                             const int64_t *bshape, int64_t nmat) {
  int nbd = s->nbd;
  qr_arg a;
  memset(&a, 0, sizeof a);
  a.ct = s->ct;
  a.mode = NDT_LINALG_QR_R;
  a.rcond = s->param;
  qr_shape_of(s->ct, s->m, s->n, a.mode, s->k, &a.s);
  const qr_shape *sh = &a.s;
  int64_t m = sh->m, n = sh->n, cb = m * sh->csz;
  ndt_status st = NDT_OK;
  for (int64_t q = 0; q < nmat && st == NDT_OK; q++) {
    ndt_store *S = NULL;
    st = ndt__store_new_bytes(&S, sh->bytes);
    if (st) break;
    ndt_array col[1], outv[4];
    st = qr_record_factor(&a, S, vin, nbd, bshape, q, "linalg.lstsq");
    if (st == NDT_OK) {
      ndt__range_view(&col[0], S, 0, (n + sh->r) * cb);
      static const int ncore[4] = {2, 1, 0, 1};
      for (int i = 0; i < 4; i++) {
        lu_view(res[i], nbd, bshape, q, ncore[i], 0, 0, 0, 0, &outv[i]);
        if (ncore[i]) {   /* the whole core: x (n x k), residuals (k), s (n) */
          outv[i].ndim = ncore[i];
          outv[i].size = 1;
          for (int d = 0; d < ncore[i]; d++) {
            outv[i].shape[d] = res[i]->shape[nbd + d];
            outv[i].strides[d] = res[i]->strides[nbd + d];
            outv[i].size *= outv[i].shape[d];
          }
        }
      }
      ndt_operand fops[5] = {{&col[0], NDT_READ}, {&outv[0], NDT_WRITE}, {&outv[1], NDT_WRITE},
                             {&outv[2], NDT_WRITE}, {&outv[3], NDT_WRITE}};
      st = ndt__record(&lsq_final_kind, NULL, fops, 5, &a, sizeof a, 0);
    }
    ndt__store_decref(S);
  }
  return st;
}

/* ---- small real matrices: solve and inv without LAPACK's per-call setup ----
 * Order n <= LA_SMALL (double compute type): gesv's algorithm written out
 * (getf2's partial pivoting, the first largest |a_ik| of a column, the row
 * swaps and multipliers, then getrs's L and U solves on all right-hand sides
 * at once), on row-major copies whose order is a constant in each of the
 * specialised bodies. A pivot not above tol (a matrix singular or nearly
 * so: whether LAPACK's own order of operations rounds a pivot to an exact
 * zero, "Singular matrix", is LAPACK's to say) hands the matrix to gesv.
 * The order of the operations depends on n only: the same bits for any
 * number of workers or ranks. */
#define LA_SMALL 16

static inline __attribute__((always_inline)) int small_gesv(int n, int k, double *restrict A,
                                                            double *restrict B, double tol) {
  for (int c = 0; c < n; c++) {
    int p = c;
    double big = fabs(A[c * n + c]);
    for (int i = c + 1; i < n; i++)
      if (fabs(A[i * n + c]) > big) {
        big = fabs(A[i * n + c]);
        p = i;
      }
    if (!(big > tol)) return 1;
    if (p != c) {
      for (int j = 0; j < n; j++) {
        double t = A[c * n + j];
        A[c * n + j] = A[p * n + j];
        A[p * n + j] = t;
      }
      for (int j = 0; j < k; j++) {
        double t = B[c * k + j];
        B[c * k + j] = B[p * k + j];
        B[p * k + j] = t;
      }
    }
    double d = A[c * n + c];
    for (int i = c + 1; i < n; i++) {
      double l = A[i * n + c] / d;
      A[i * n + c] = l;
      for (int j = c + 1; j < n; j++) A[i * n + j] -= l * A[c * n + j];
      for (int j = 0; j < k; j++) B[i * k + j] -= l * B[c * k + j];
    }
  }
  for (int c = n - 1; c >= 0; c--) {
    double d = A[c * n + c];
    for (int j = 0; j < k; j++) B[c * k + j] /= d;
    for (int i = 0; i < c; i++) {
      double u = A[i * n + c];
      for (int j = 0; j < k; j++) B[i * k + j] -= u * B[c * k + j];
    }
  }
  return 0;
}

/* small_gesv with n (and, for inv, k = n) constants the compiler unrolls. */
static int small_gesv_n(int n, int k, int inv, double *A, double *B, double tol) {
#define SG(N) case N: return inv ? small_gesv(N, N, A, B, tol) : small_gesv(N, k, A, B, tol);
  switch (n) {
    SG(1) SG(2) SG(3) SG(4) SG(5) SG(6) SG(7) SG(8)
    SG(9) SG(10) SG(11) SG(12) SG(13) SG(14) SG(15) SG(16)
    default: return small_gesv(n, k, A, B, tol);
  }
#undef SG
}

/* 1 when the n doubles are all finite. */
static int finite_n(const double *x, int n) {
  double z = 0;
  for (int i = 0; i < n; i++) z += x[i] * 0;   /* NaN once any x[i] is inf or NaN */
  return z == 0;
}

/* in[0] (and in[1] unless inv) into row-major doubles, solved, stored;
 * returns 0, or 1 (nothing stored) when the input or the result is not
 * all finite or a pivot is zero or rounding noise: then gesv decides, as for NumPy
 * (the singular error, and where its NaNs go: OpenBLAS's pivot search
 * treats NaNs its own way). */
static int small_solve(const la_arg *a, const mref *in, const mref *out) {
  int n = (int)a->n, inv = a->op == NDT_LINALG_INV;
  int k = inv ? n : (int)a->k;
  double A[LA_SMALL * LA_SMALL], B[LA_SMALL * LA_SMALL];
  /* a row-major copy is the column-major load of the transpose */
  if (a->in[0].dtype == NDT_FLOAT64) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) memcpy(&A[i * n + j], in[0].p + i * in[0].rs + j * in[0].cs, 8);
  } else {
    mref t = {in[0].p, in[0].cs, in[0].rs};
    load(&t, a->in[0].dtype, n, n, NDT_FLOAT64, (char *)A, n);
  }
  if (inv) {
    memset(B, 0, sizeof(double) * (size_t)(n * n));
    for (int i = 0; i < n; i++) B[i * n + i] = 1;
  } else if (a->in[1].dtype == NDT_FLOAT64) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++) memcpy(&B[i * k + j], in[1].p + i * in[1].rs + j * in[1].cs, 8);
  } else {
    mref t = {in[1].p, in[1].cs, in[1].rs};
    load(&t, a->in[1].dtype, k, n, NDT_FLOAT64, (char *)B, k);
  }
  /* pivots of a matrix singular in exact arithmetic come out as rounding
   * noise, about eps * n * max|a_ij|, or as zeros, depending on the order
   * of the operations: such a pivot goes to gesv, NumPy's (tol: far above
   * the noise, far below a well-conditioned matrix's pivots) */
  double amax = 0;
  for (int i = 0; i < n * n; i++) amax = fabs(A[i]) > amax ? fabs(A[i]) : amax;
  double tol = amax * (double)n * 1024 * DBL_EPSILON;
  if (!finite_n(A, n * n) || !finite_n(B, n * k) || small_gesv_n(n, k, inv, A, B, tol) ||
      !finite_n(B, n * k))
    return 1;
  mref t = {out[0].p, out[0].cs, out[0].rs};   /* (B row-major: the transpose's store) */
  store((const char *)B, k, k, n, 8, &t);
  return 0;
}

/* solve (b given) and inv (b = I) */
static ndt_status k_solve(const la_arg *a, la_ws *w, const mref *in, const mref *out) {
  if (a->n >= LA_BLOCK_MIN) return lu_serial(a, w, in, out);
  if (a->n <= LA_SMALL && a->ct == NDT_FLOAT64 && (a->op == NDT_LINALG_INV || a->k <= LA_SMALL) &&
      !small_solve(a, in, out))
    return NDT_OK;
  int64_t n = a->n, k = a->op == NDT_LINALG_INV ? n : a->k;
  int csz = ndt__traits[a->ct].size;
  size_t ab = al((size_t)(n * n * csz)), bb = al((size_t)(n * k * csz));
  char *A = ws_get(w, ab + bb + (size_t)n * sizeof(lint));
  if (!A) return NDT_ERR_NOMEM;
  char *B = A + ab;
  lint *ipiv = (lint *)(B + bb);
  load(&in[0], a->in[0].dtype, n, n, a->ct, A, n);
  if (a->op == NDT_LINALG_INV) {
    memset(B, 0, (size_t)(n * n * csz));
    for (int64_t i = 0; i < n; i++) putc_(a->ct, B, i + i * n, 1, 0);
  } else {
    load(&in[1], a->in[1].dtype, n, k, a->ct, B, n);
  }
  lint N = CH(n), K = CH(k), info = 0;
  LAPACK->gesv[is_cpx(a->ct)](&N, &K, A, &N, ipiv, B, &N, &info);
  /* info > 0 only for an exact zero pivot: a NaN one (NaN input) is no
   * error, the NaNs propagate into the result as NumPy's */
  if (info > 0) return fail("Singular matrix");
  store(B, n, n, k, csz, &out[0]);
  return NDT_OK;
}

static ndt_status k_cholesky(const la_arg *a, la_ws *w, const mref *in, const mref *out) {
  if (a->n >= LA_BLOCK_MIN) return ch_serial(a, w, in, out);
  int64_t n = a->n;
  int csz = ndt__traits[a->ct].size, upper = (a->flags & NDT_LINALG_UPPER) != 0;
  char *A = ws_get(w, (size_t)(n * n * csz));
  if (!A) return NDT_ERR_NOMEM;
  load(&in[0], a->in[0].dtype, n, n, a->ct, A, n);
  lint N = CH(n), info = 0;
  LAPACK->potrf[is_cpx(a->ct)](upper ? "U" : "L", &N, A, &N, &info, 1);
  if (info > 0) return fail("Matrix is not positive definite");
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++)
      if (upper ? i > j : i < j) memset(A + (i + j * n) * csz, 0, (size_t)csz);
  store(A, n, n, n, csz, &out[0]);
  return NDT_OK;
}

/* det (out[0]) or slogdet (sign out[0], log|det| out[1]), from LU (det_out). */
static ndt_status k_det(const la_arg *a, la_ws *w, const mref *in, const mref *out) {
  if (a->n >= LA_BLOCK_MIN) return lu_serial(a, w, in, out);
  int64_t n = a->n;
  int csz = ndt__traits[a->ct].size;
  size_t ab = al((size_t)(n * n * csz));
  char *A = ws_get(w, ab + (size_t)n * sizeof(lint));
  if (!A) return NDT_ERR_NOMEM;
  lint *ipiv = (lint *)(A + ab);
  load(&in[0], a->in[0].dtype, n, n, a->ct, A, n);
  lint N = CH(n), info = 0;
  LAPACK->getrf[is_cpx(a->ct)](&N, &N, A, &N, ipiv, &info);
  det_out(a->op, a->ct, n, A, n, ipiv, info != 0, out);
  return NDT_OK;
}

/* qr: flags 0 reduced (q, r), 1 complete (q, r), 2 r, 3 raw (h, tau). */
static ndt_status k_qr(const la_arg *a, la_ws *w, const mref *in, const mref *out) {
  if (qr_blocked(a)) return qr_serial(a, w, in, out);
  int64_t m = a->m, n = a->n, k = m < n ? m : n;
  int mode = a->flags, csz = ndt__traits[a->ct].size, t = is_cpx(a->ct);
  int64_t qc = mode == 1 ? m : k;
  lint M = CH(m), N = CH(n), K = CH(k), QC = CH(qc), info = 0, lw = -1;
  double q1[2] = {0, 0}, q2[2] = {0, 0};
  LAPACK->geqrf[t](&M, &N, NULL, &M, NULL, q1, &lw, &info);
  if (mode <= 1) LAPACK->orgqr[t](&M, &QC, &K, NULL, &M, NULL, q2, &lw, &info);
  int64_t lwork = (int64_t)(q1[0] > q2[0] ? q1[0] : q2[0]);
  if (lwork < 1) lwork = 1;
  size_t ab = al((size_t)(m * n * csz)), tb = al((size_t)(k * csz + csz));
  size_t qb = mode <= 1 ? al((size_t)(m * qc * csz)) : 0;
  char *A = ws_get(w, ab + tb + qb + (size_t)(lwork * csz));
  if (!A) return NDT_ERR_NOMEM;
  char *tau = A + ab, *Q = tau + tb, *work = Q + qb;
  load(&in[0], a->in[0].dtype, m, n, a->ct, A, m);
  lint LW = CH(lwork);
  LAPACK->geqrf[t](&M, &N, A, &M, tau, work, &LW, &info);
  if (info) return ndt__error(NDT_ERR_INTERNAL, "geqrf failed (info %d)", (int)info);
  if (mode == 3) {
    mref h = {out[0].p, out[0].cs, out[0].rs};   /* h is A transposed */
    store(A, m, m, n, csz, &h);
    mref tv = {out[1].p, out[1].rs, 0};
    store(tau, k, k, 1, csz, &tv);
    return NDT_OK;
  }
  /* r: rows x n, the upper triangle of A */
  int64_t rows = mode == 1 ? m : k;
  const mref *rr = &out[mode <= 1 ? 1 : 0];
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < rows; i++) {
      char *d = rr->p + i * rr->rs + j * rr->cs;
      if (i <= j) memcpy(d, A + (i + j * m) * csz, (size_t)csz);
      else memset(d, 0, (size_t)csz);
    }
  if (mode <= 1) {
    int64_t cc = n < qc ? n : qc;
    memcpy(Q, A, (size_t)(m * cc * csz));
    if (qc > cc) memset(Q + m * cc * csz, 0, (size_t)(m * (qc - cc) * csz));
    LAPACK->orgqr[t](&M, &QC, &K, Q, &M, tau, work, &LW, &info);
    if (info) return ndt__error(NDT_ERR_INTERNAL, "orgqr failed (info %d)", (int)info);
    store(Q, m, m, qc, csz, &out[0]);
  }
  return NDT_OK;
}

/* eigh through syevd/heevd: q[] = lwork, lrwork, liwork from a query. */
static void eigh_query(ndt_dtype ct, int vecs, int upper, int64_t n, int64_t *q) {
  lint N = CH(n), info = 0, m1 = -1, liw = 0;
  const char *jz = vecs ? "V" : "N", *ul = upper ? "U" : "L";
  double wq[2] = {0, 0}, rq[2] = {0, 0};
  if (is_cpx(ct)) LAPACK->zheevd(jz, ul, &N, NULL, &N, NULL, wq, &m1, rq, &m1, &liw, &m1, &info, 1, 1);
  else LAPACK->dsyevd(jz, ul, &N, NULL, &N, NULL, wq, &m1, &liw, &m1, &info, 1, 1);
  q[0] = (int64_t)wq[0];
  q[1] = (int64_t)rq[0];
  q[2] = liw;
  for (int i = 0; i < 3; i++)
    if (q[i] < 1) q[i] = 1;
}

static size_t eigh_bytes(ndt_dtype ct, const int64_t *q) {
  return al((size_t)(q[0] * ndt__traits[ct].size)) +
         al((size_t)(q[1] * ndt__traits[real_of(ct)].size)) + (size_t)q[2] * sizeof(lint);
}

/* The n x n matrix A (column-major) becomes its eigenvectors when vecs;
 * the eigenvalues go to W (real). work holds eigh_bytes. */
static ndt_status eigh_run(ndt_dtype ct, int vecs, int upper, int64_t n, char *A, char *W,
                           char *work, const int64_t *q) {
  lint N = CH(n), info = 0, LW = CH(q[0]), LRW = CH(q[1]), LIW = CH(q[2]);
  const char *jz = vecs ? "V" : "N", *ul = upper ? "U" : "L";
  char *rwork = work + al((size_t)(q[0] * ndt__traits[ct].size));
  lint *iwork = (lint *)(rwork + al((size_t)(q[1] * ndt__traits[real_of(ct)].size)));
  if (is_cpx(ct)) LAPACK->zheevd(jz, ul, &N, A, &N, W, work, &LW, rwork, &LRW, iwork, &LIW, &info, 1, 1);
  else LAPACK->dsyevd(jz, ul, &N, A, &N, W, work, &LW, iwork, &LIW, &info, 1, 1);
  if (info > 0) return fail("Eigenvalues did not converge");
  return NDT_OK;
}

static ndt_status k_eigh(const la_arg *a, la_ws *w, const mref *in, const mref *out) {
  int64_t n = a->n;
  int csz = ndt__traits[a->ct].size, rsz = ndt__traits[real_of(a->ct)].size;
  int vecs = (a->flags & NDT_LINALG_VECTORS) != 0, upper = (a->flags & NDT_LINALG_EIGH_UPPER) != 0;
  int64_t q[3];
  eigh_query(a->ct, vecs, upper, n, q);
  size_t used = al((size_t)(n * n * csz)) + al((size_t)(n * rsz));
  char *A = ws_get(w, used + eigh_bytes(a->ct, q));
  if (!A) return NDT_ERR_NOMEM;
  char *W = A + al((size_t)(n * n * csz));
  load(&in[0], a->in[0].dtype, n, n, a->ct, A, n);
  ndt_status st = eigh_run(a->ct, vecs, upper, n, A, W, A + used, q);
  if (st) return st;
  mref wv = {out[0].p, out[0].rs, 0};
  store(W, n, n, 1, rsz, &wv);
  if (vecs) store(A, n, n, n, csz, &out[1]);
  return NDT_OK;
}

/* svd: flags bit 0 compute_uv, bit 1 full_matrices, bit 2 hermitian.
 * Outputs u, s, vh (or s alone). */
static ndt_status k_svd(const la_arg *a, la_ws *w, const mref *in, const mref *out) {
  int64_t m = a->m, n = a->n, k = m < n ? m : n;
  int uv = (a->flags & NDT_LINALG_VECTORS) != 0, full = (a->flags & NDT_LINALG_FULL) != 0,
      herm = (a->flags & NDT_LINALG_HERMITIAN) != 0;
  ndt_dtype ct = a->ct, rt = real_of(ct);
  int csz = ndt__traits[ct].size, rsz = ndt__traits[rt].size, cpx = is_cpx(ct);
  const mref *so = &out[uv ? 1 : 0];
  if (herm) {
    /* NumPy's way: eigh, |w| sorted descending (a stable ascending argsort
     * reversed), u = v[:, order], vh = conj(u * copysign(1, w))^T */
    int64_t q[3];
    eigh_query(ct, uv, 0, n, q);
    size_t used = al((size_t)(n * n * csz)) + al((size_t)(n * rsz)) + al((size_t)n * 8);
    char *A = ws_get(w, used + eigh_bytes(ct, q));
    if (!A) return NDT_ERR_NOMEM;
    char *W = A + al((size_t)(n * n * csz));
    int64_t *ord = (int64_t *)(W + al((size_t)(n * rsz)));
    load(&in[0], a->in[0].dtype, n, n, ct, A, n);
    ndt_status st = eigh_run(ct, uv, 0, n, A, W, A + used, q);
    if (st) return st;
    for (int64_t i = 0; i < n; i++) {   /* stable insertion sort by |w| */
      int64_t j = i;
      double v = fabs(getr(rt, W, i));
      while (j > 0 && fabs(getr(rt, W, ord[j - 1])) > v) {
        ord[j] = ord[j - 1];
        j--;
      }
      ord[j] = i;
    }
    for (int64_t j = 0; j < n; j++) {
      int64_t c = ord[n - 1 - j];
      double wv = getr(rt, W, c), sg = copysign(1.0, wv);
      double tmp[2];
      putc_(rt, tmp, 0, fabs(wv), 0);
      memcpy(so->p + j * so->rs, tmp, (size_t)rsz);
      if (!uv) continue;
      for (int64_t i = 0; i < n; i++) {
        double re, im;
        getc_(ct, A, i + c * n, &re, &im);
        putc_(ct, tmp, 0, re, im);
        memcpy(out[0].p + i * out[0].rs + j * out[0].cs, tmp, (size_t)csz);
        putc_(ct, tmp, 0, re * sg, -im * sg);
        memcpy(out[2].p + j * out[2].rs + i * out[2].cs, tmp, (size_t)csz);
      }
    }
    return NDT_OK;
  }
  int64_t uc = uv ? (full ? m : k) : 1, vr = uv ? (full ? n : k) : 1;
  const char *jz = uv ? (full ? "A" : "S") : "N";
  lint M = CH(m), N = CH(n), LDU = CH(m), LDV = CH(vr), info = 0, m1 = -1;
  double wq[2] = {0, 0};
  int64_t mx = m > n ? m : n;
  int64_t lrw = uv ? (5 * k * k + 5 * k > 2 * mx * k + 2 * k * k + k
                          ? 5 * k * k + 5 * k : 2 * mx * k + 2 * k * k + k)
                   : 7 * k;
  if (lrw < 1) lrw = 1;
  if (cpx)
    LAPACK->zgesdd(jz, &M, &N, NULL, &M, NULL, NULL, &LDU, NULL, &LDV, wq, &m1, NULL, NULL, &info, 1);
  else
    LAPACK->dgesdd(jz, &M, &N, NULL, &M, NULL, NULL, &LDU, NULL, &LDV, wq, &m1, NULL, &info, 1);
  int64_t lw = (int64_t)wq[0];
  if (lw < 1) lw = 1;
  size_t ab = al((size_t)(m * n * csz)), sb = al((size_t)(k * rsz + rsz));
  size_t ub = al((size_t)(m * uc * csz)), vb = al((size_t)(vr * n * csz));
  size_t wb = al((size_t)(lw * csz)), rb = cpx ? al((size_t)(lrw * rsz)) : 0;
  char *A = ws_get(w, ab + sb + ub + vb + wb + rb + (size_t)(8 * k + 1) * sizeof(lint));
  if (!A) return NDT_ERR_NOMEM;
  char *S = A + ab, *U = S + sb, *V = U + ub, *work = V + vb, *rwork = work + wb;
  lint *iwork = (lint *)(rwork + rb), LW = CH(lw);
  load(&in[0], a->in[0].dtype, m, n, ct, A, m);
  if (cpx)
    LAPACK->zgesdd(jz, &M, &N, A, &M, S, U, &LDU, V, &LDV, work, &LW, rwork, iwork, &info, 1);
  else
    LAPACK->dgesdd(jz, &M, &N, A, &M, S, U, &LDU, V, &LDV, work, &LW, iwork, &info, 1);
  if (info != 0) return fail("SVD did not converge");   /* info < 0: a NaN */
  mref sv = {so->p, so->rs, 0};
  store(S, k, k, 1, rsz, &sv);
  if (uv) {
    store(U, m, m, uc, csz, &out[0]);
    store(V, vr, vr, n, csz, &out[2]);
  }
  return NDT_OK;
}

/* eig: flags bit 0 compute_v. Outputs w (complex), v (complex). */
static ndt_status k_eig(const la_arg *a, la_ws *w, const mref *in, const mref *out) {
  int64_t n = a->n;
  ndt_dtype ct = a->ct, cc = cpx_of(ct), rt = real_of(ct);
  int vecs = (a->flags & NDT_LINALG_VECTORS) != 0, csz = ndt__traits[ct].size, ccsz = ndt__traits[cc].size;
  int rsz = ndt__traits[rt].size, cpx = is_cpx(ct);
  const char *jv = vecs ? "V" : "N";
  lint N = CH(n), one = 1, LDV = vecs ? N : 1, info = 0, m1 = -1;
  double wq[2] = {0, 0}, rq[2] = {0, 0};
  if (cpx) LAPACK->zgeev("N", jv, &N, NULL, &N, NULL, NULL, &one, NULL, &LDV, wq, &m1, rq, &info, 1, 1);
  else LAPACK->dgeev("N", jv, &N, NULL, &N, NULL, NULL, NULL, &one, NULL, &LDV, wq, &m1, &info, 1, 1);
  int64_t lw = (int64_t)wq[0];
  if (lw < 1) lw = 1;
  size_t ab = al((size_t)(n * n * csz)), eb = al((size_t)(2 * n * rsz + 2 * rsz));
  size_t vb = al((size_t)((vecs ? n * n : 1) * csz)), wb = al((size_t)(lw * csz));
  size_t rb = al((size_t)(2 * n * rsz + rsz));
  char *A = ws_get(w, ab + eb + vb + wb + rb);
  if (!A) return NDT_ERR_NOMEM;
  char *E = A + ab, *V = E + eb, *work = V + vb, *rwork = work + wb;
  load(&in[0], a->in[0].dtype, n, n, ct, A, n);
  if (!all_finite(ct, A, n * n)) return fail("Array must not contain infs or NaNs");
  lint LW = CH(lw);
  char *WI = E + n * rsz;
  if (cpx) LAPACK->zgeev("N", jv, &N, A, &N, E, NULL, &one, V, &LDV, work, &LW, rwork, &info, 1, 1);
  else LAPACK->dgeev("N", jv, &N, A, &N, E, WI, NULL, &one, V, &LDV, work, &LW, &info, 1, 1);
  if (info > 0) return fail("Eigenvalues did not converge");
  if (cpx) {
    mref wv = {out[0].p, out[0].rs, 0};
    store(E, n, n, 1, csz, &wv);
    if (vecs) store(V, n, n, n, csz, &out[1]);
    return NDT_OK;
  }
  double tmp[2];
  for (int64_t j = 0; j < n; j++) {
    putc_(cc, tmp, 0, getr(rt, E, j), getr(rt, WI, j));
    memcpy(out[0].p + j * out[0].rs, tmp, (size_t)ccsz);
  }
  if (!vecs) return NDT_OK;
  for (int64_t j = 0; j < n; j++) {
    double wi = getr(rt, WI, j);
    if (wi != 0 && j + 1 < n) {   /* a conjugate pair: columns j, j+1 */
      for (int64_t i = 0; i < n; i++) {
        double re = getr(rt, V, i + j * n), im = getr(rt, V, i + (j + 1) * n);
        putc_(cc, tmp, 0, re, im);
        memcpy(out[1].p + i * out[1].rs + j * out[1].cs, tmp, (size_t)ccsz);
        putc_(cc, tmp, 0, re, -im);
        memcpy(out[1].p + i * out[1].rs + (j + 1) * out[1].cs, tmp, (size_t)ccsz);
      }
      j++;
    } else {
      for (int64_t i = 0; i < n; i++) {
        putc_(cc, tmp, 0, getr(rt, V, i + j * n), 0);
        memcpy(out[1].p + i * out[1].rs + j * out[1].cs, tmp, (size_t)ccsz);
      }
    }
  }
  return NDT_OK;
}

/* lstsq: outputs x (n, k), residuals (k), rank (int64), s (min(m, n)). */
static ndt_status k_lstsq(const la_arg *a, la_ws *w, const mref *in, const mref *out) {
  if (lsq_blocked(a)) return lsq_serial(a, w, in, out);
  int64_t m = a->m, n = a->n, k = a->k, mn = m < n ? m : n, mx = m > n ? m : n;
  ndt_dtype ct = a->ct, rt = real_of(ct);
  int csz = ndt__traits[ct].size, rsz = ndt__traits[rt].size, cpx = is_cpx(ct);
  int64_t nr = k > 0 ? k : 1;
  lint M = CH(m), N = CH(n), NR = CH(nr), LDB = CH(mx), rank = 0, info = 0, m1 = -1;
  double wq[2] = {0, 0}, rq[2] = {0, 0};
  lint iq[2] = {0, 0};
  const double *rc = &a->param;
  if (cpx)
    LAPACK->zgelsd(&M, &N, &NR, NULL, &M, NULL, &LDB, NULL, rc, &rank, wq, &m1, rq, iq, &info);
  else
    LAPACK->dgelsd(&M, &N, &NR, NULL, &M, NULL, &LDB, NULL, rc, &rank, wq, &m1, iq, &info);
  int64_t lw = (int64_t)wq[0];
  int64_t lrw = (int64_t)rq[0];
  int64_t liw = iq[0];
  if (lw < 1) lw = 1;
  if (lrw < 1) lrw = 1;
  if (liw < 1) liw = 1;
  size_t ab = al((size_t)(m * n * csz)), bb = al((size_t)(mx * nr * csz));
  size_t sb = al((size_t)(mn * rsz + rsz)), wb = al((size_t)(lw * csz));
  size_t rb = cpx ? al((size_t)(lrw * rsz)) : 0;
  char *A = ws_get(w, ab + bb + sb + wb + rb + (size_t)liw * sizeof(lint));
  if (!A) return NDT_ERR_NOMEM;
  char *B = A + ab, *S = B + bb, *work = S + sb, *rwork = work + wb;
  lint *iwork = (lint *)(rwork + rb), LW = CH(lw);
  load(&in[0], a->in[0].dtype, m, n, ct, A, m);
  memset(B, 0, (size_t)(mx * nr * csz));
  if (k > 0) load(&in[1], a->in[1].dtype, m, k, ct, B, mx);
  /* LAPACK would complain on stderr (xerbla) before failing */
  if (!all_finite(ct, A, m * n) || !all_finite(ct, B, mx * nr))
    return fail("SVD did not converge in Linear Least Squares");
  if (cpx)
    LAPACK->zgelsd(&M, &N, &NR, A, &M, B, &LDB, S, rc, &rank, work, &LW, rwork, iwork, &info);
  else
    LAPACK->dgelsd(&M, &N, &NR, A, &M, B, &LDB, S, rc, &rank, work, &LW, iwork, &info);
  if (info != 0) return fail("SVD did not converge in Linear Least Squares");
  store(B, mx, n, k, csz, &out[0]);
  double tmp[2];
  for (int64_t j = 0; j < k; j++) {
    double r = 0;
    if (rank == n && m > n)
      for (int64_t i = n; i < m; i++) {
        double re, im;
        getc_(ct, B, i + j * mx, &re, &im);
        r += re * re + im * im;
      }
    putc_(rt, tmp, 0, r, 0);
    memcpy(out[1].p + j * out[1].rs, tmp, (size_t)rsz);
  }
  int64_t r64 = rank;
  memcpy(out[2].p, &r64, 8);
  mref sv = {out[3].p, out[3].rs, 0};
  store(S, mn, mn, 1, rsz, &sv);
  return NDT_OK;
}

typedef ndt_status (*la_kernel)(const la_arg *, la_ws *, const mref *, const mref *);

static la_kernel kernel_of(ndt_linalg_op op) {
  switch (op) {
    case NDT_LINALG_SOLVE: case NDT_LINALG_INV: return k_solve;
    case NDT_LINALG_CHOLESKY: return k_cholesky;
    case NDT_LINALG_DET: case NDT_LINALG_SLOGDET: return k_det;
    case NDT_LINALG_QR: return k_qr;
    case NDT_LINALG_SVD: return k_svd;
    case NDT_LINALG_EIGH: return k_eigh;
    case NDT_LINALG_EIG: return k_eig;
    default: return k_lstsq;
  }
}

static const char *op_name(ndt_linalg_op op) {
  static const char *names[] = {"linalg.solve", "linalg.inv", "linalg.cholesky", "linalg.det",
                                "linalg.slogdet", "linalg.qr", "linalg.svd", "linalg.eigh",
                                "linalg.eig", "linalg.lstsq"};
  return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "linalg";
}

/* Operands: the inputs (read), then the outputs (write). */
static ndt_status la_body(ndt_bound *op_, void *p) {
  const la_arg *a = p;
  const ndt_bound *bi = op_, *bo = op_ + a->nin;
  ndt_status st = NDT_OK;
  la_ws w = {NULL, 0};
  la_kernel kern = kernel_of(a->op);
  int nbd = a->nbd;
  int64_t nmat = 1, idx[NDT_MAXDIMS] = {0};
  for (int d = 0; d < nbd; d++) nmat *= a->out[0].shape[d];
  /* single-precision results: the kernel writes double into tmp, cast out */
  char *tmp[LA_NOUT] = {NULL};
  int64_t tdim[LA_NOUT][2];
  for (int i = 0; i < a->nout && st == NDT_OK; i++) {
    int nc = a->ocore[i];
    tdim[i][0] = nc > 0 ? a->out[i].shape[nbd] : 1;
    tdim[i][1] = nc > 1 ? a->out[i].shape[nbd + 1] : 1;
    if (a->out[i].dtype != a->okd[i] &&
        !(tmp[i] = ndt__malloc((size_t)(tdim[i][0] * tdim[i][1] * ndt__traits[a->okd[i]].size) + 16)))
      st = NDT_ERR_NOMEM;
  }
  for (int64_t q = 0; q < nmat && st == NDT_OK; q++) {
    mref mi[LA_NIN], mo[LA_NOUT], ro[LA_NOUT];
    for (int i = 0; i < a->nin; i++) {
      char *ptr = bi[i].ptr;
      for (int d = 0; d < nbd; d++) ptr += idx[d] * bi[i].st[d];
      mi[i].p = ptr;
      mi[i].rs = bi[i].st[nbd];
      mi[i].cs = a->icore[i] > 1 ? bi[i].st[nbd + 1] : 0;
    }
    for (int i = 0; i < a->nout; i++) {
      char *ptr = bo[i].ptr;
      for (int d = 0; d < nbd; d++) ptr += idx[d] * bo[i].st[d];
      ro[i].p = ptr;
      ro[i].rs = a->ocore[i] > 0 ? bo[i].st[nbd] : 0;
      ro[i].cs = a->ocore[i] > 1 ? bo[i].st[nbd + 1] : 0;
      mo[i] = ro[i];
      if (tmp[i]) {
        int ksz = ndt__traits[a->okd[i]].size;
        mo[i].p = tmp[i];
        mo[i].rs = tdim[i][1] * ksz;
        mo[i].cs = ksz;
      }
    }
    st = kern(a, &w, mi, mo);
    for (int i = 0; i < a->nout && st == NDT_OK; i++) {
      if (!tmp[i]) continue;
      ndt_cast_fn f = ndt__kern->cast(a->okd[i], a->out[i].dtype);
      for (int64_t r = 0; r < tdim[i][0]; r++)
        f(tmp[i] + r * mo[i].rs, mo[i].cs, ro[i].p + r * ro[i].rs, ro[i].cs, tdim[i][1]);
    }
    for (int d = nbd - 1; d >= 0; d--) {
      if (++idx[d] < a->out[0].shape[d]) break;
      idx[d] = 0;
    }
  }
  for (int i = 0; i < LA_NOUT; i++) ndt__mfree(tmp[i]);
  ndt__mfree(w.buf);
  return st;
}

static const ndt_task_kind la_kind = {"linalg", {la_body}, NULL};

static int supported(ndt_dtype t) { return t >= NDT_BOOL && t < NDT_NTYPES; }

/* NumPy's _commonType: complex if any operand is; single results when every
 * operand is float32/complex64; the computation itself is always double. */
ndt_dtype ndt_linalg_result_type(ndt_dtype a, ndt_dtype b) {
  int cpx = a == NDT_COMPLEX64 || a == NDT_COMPLEX128;
  int single = a == NDT_FLOAT32 || a == NDT_COMPLEX64;
  if ((int)b >= 0) {
    cpx |= b == NDT_COMPLEX64 || b == NDT_COMPLEX128;
    single &= b == NDT_FLOAT32 || b == NDT_COMPLEX64;
  }
  return cpx ? (single ? NDT_COMPLEX64 : NDT_COMPLEX128) : (single ? NDT_FLOAT32 : NDT_FLOAT64);
}

ndt_status ndt_linalg(ndt_array **out, ndt_linalg_op op, const ndt_array *a, const ndt_array *b,
                      ndt_linalg_flags flags, double param) {
  ndt__blas_init();
  if (!a || !out) return ndt__error(NDT_ERR_VALUE, "linalg: NULL argument");
  if ((unsigned)op > NDT_LINALG_LSTSQ) return ndt__error(NDT_ERR_VALUE, "linalg: bad op %d", op);
  int need_b = op == NDT_LINALG_SOLVE || op == NDT_LINALG_LSTSQ;
  if (need_b && !b) return ndt__error(NDT_ERR_VALUE, "linalg: missing second operand");
  if (!need_b) b = NULL;
  if (!supported(a->dtype) || (b && !supported(b->dtype)))
    return ndt__error(NDT_ERR_TYPE, "linalg: unsupported dtype");
  for (int i = 0; i < LA_NOUT; i++) out[i] = NULL;
  if (a->ndim < 2)
    return ndt__error(NDT_ERR_LINALG, "%d-dimensional array given. Array must be at least "
                     "two-dimensional", a->ndim);
  int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
  int square = op != NDT_LINALG_QR && op != NDT_LINALG_LSTSQ &&
               !(op == NDT_LINALG_SVD && !(flags & NDT_LINALG_HERMITIAN));
  if (square && m != n)
    return ndt__error(NDT_ERR_LINALG, "Last 2 dimensions of the array must be square");
  if (m == 0 || n == 0)
    return ndt__error(NDT_ERR_UNSUPPORTED, "%s: empty matrices are not supported", op_name(op));
  if (op == NDT_LINALG_QR && ((int)flags < 0 || flags > 3))
    return ndt__error(NDT_ERR_VALUE, "qr: bad mode %d", flags);
  la_arg s;
  memset(&s, 0, sizeof s);
  s.op = op;
  s.flags = flags;
  s.param = param;
  ndt_dtype resT = ndt_linalg_result_type(a->dtype, b ? b->dtype : NDT_DTYPE_DEFAULT);
  s.ct = is_cpx(resT) ? NDT_COMPLEX128 : NDT_FLOAT64;
  int single = resT == NDT_FLOAT32 || resT == NDT_COMPLEX64;
  s.m = m;
  s.n = n;
  /* batch shape: a's, broadcast with b's */
  int nbd = a->ndim - 2;
  int64_t bshape[NDT_MAXDIMS];
  memcpy(bshape, a->shape, sizeof(int64_t) * (size_t)nbd);
  if (b) {
    if (b->ndim < 2)
      return ndt__error(NDT_ERR_VALUE, "%s: the second operand must have at least two "
                       "dimensions", op_name(op));
    if (b->shape[b->ndim - 2] != m)
      return ndt__error(NDT_ERR_VALUE, "%s: Input operand 1 has a mismatch in its core "
                       "dimension 0, with gufunc signature (m,n),(m,k)->(n,k) (size %lld is "
                       "different from %lld)", op_name(op), (long long)b->shape[b->ndim - 2],
                       (long long)m);
    s.k = b->shape[b->ndim - 1];
    int nds[2] = {nbd, b->ndim - 2};
    const int64_t *shs[2] = {a->shape, b->shape};
    ndt_status st = ndt_broadcast_shapes(2, nds, shs, &nbd, bshape);
    if (st) return st;
  }
  s.nbd = nbd;
  /* operands: views broadcast to the batch shape, with their core axes */
  ndt_array vin[LA_NIN];
  s.nin = b ? 2 : 1;
  for (int i = 0; i < s.nin; i++) {
    const ndt_array *x = i ? b : a;
    int64_t sh[NDT_MAXDIMS];
    memcpy(sh, bshape, sizeof(int64_t) * (size_t)nbd);
    sh[nbd] = x->shape[x->ndim - 2];
    sh[nbd + 1] = x->shape[x->ndim - 1];
    ndt__bcast_view(x, nbd + 2, sh, &vin[i]);
    s.icore[i] = 2;
  }
  /* outputs: dtype and core shape */
  ndt_dtype ct = s.ct, rt = real_of(ct);
  int64_t k = m < n ? m : n;
  ndt_dtype odt[LA_NOUT];
  int64_t oc[LA_NOUT][2];
  int nout = 0;
#define OUT(dt, nc, c0, c1)                                              \
  do {                                                                   \
    s.okd[nout] = (dt);                                                  \
    odt[nout] = single && (dt) != NDT_INT64 ? ((dt) == NDT_FLOAT64 ? NDT_FLOAT32 \
                                                                    : NDT_COMPLEX64) : (dt); \
    s.ocore[nout] = (nc);    \
    oc[nout][0] = (c0);      \
    oc[nout][1] = (c1);      \
    nout++;                  \
  } while (0)
  switch (op) {
    case NDT_LINALG_SOLVE: OUT(ct, 2, n, s.k); break;
    case NDT_LINALG_INV: case NDT_LINALG_CHOLESKY: OUT(ct, 2, n, n); break;
    case NDT_LINALG_DET: OUT(ct, 0, 0, 0); break;
    case NDT_LINALG_SLOGDET: OUT(ct, 0, 0, 0); OUT(rt, 0, 0, 0); break;
    case NDT_LINALG_QR:
      if (flags == NDT_LINALG_QR_REDUCED) { OUT(ct, 2, m, k); OUT(ct, 2, k, n); }
      else if (flags == NDT_LINALG_QR_COMPLETE) { OUT(ct, 2, m, m); OUT(ct, 2, m, n); }
      else if (flags == NDT_LINALG_QR_R) OUT(ct, 2, k, n);
      else { OUT(ct, 2, n, m); OUT(ct, 1, k, 0); }
      break;
    case NDT_LINALG_SVD:
      if (flags & NDT_LINALG_VECTORS) {
        int full = (flags & NDT_LINALG_FULL) != 0;
        OUT(ct, 2, m, full ? m : k);
        OUT(rt, 1, k, 0);
        OUT(ct, 2, full ? n : k, n);
      } else {
        OUT(rt, 1, k, 0);
      }
      break;
    case NDT_LINALG_EIGH:
      OUT(rt, 1, n, 0);
      if (flags & NDT_LINALG_VECTORS) OUT(ct, 2, n, n);
      break;
    case NDT_LINALG_EIG:
      OUT(cpx_of(ct), 1, n, 0);
      if (flags & NDT_LINALG_VECTORS) OUT(cpx_of(ct), 2, n, n);
      break;
    default:
      OUT(ct, 2, n, s.k); OUT(rt, 1, s.k, 0); OUT(NDT_INT64, 0, 0, 0); OUT(rt, 1, k, 0);
      break;
  }
#undef OUT
  s.nout = nout;
  ndt_array *res[LA_NOUT] = {NULL};
  ndt_status st = NDT_OK;
  for (int i = 0; i < nout && st == NDT_OK; i++) {
    int64_t sh[NDT_MAXDIMS];
    memcpy(sh, bshape, sizeof(int64_t) * (size_t)nbd);
    for (int c = 0; c < s.ocore[i]; c++) sh[nbd + c] = oc[i][c];
    st = ndt__array_new(&res[i], odt[i], nbd + s.ocore[i], sh, 0);
  }
  int64_t nmat = 1;
  for (int d = 0; d < nbd; d++) nmat *= bshape[d];
  if (st || nmat == 0) {
    for (int i = 0; i < LA_NOUT; i++) {
      if (st) ndt_free(res[i]);
      else out[i] = res[i];
    }
    return st;
  }
  /* Large solve, inv, det, slogdet: the blocked LU's tasks over the workers
   * (on many ranks, or with a CUDA device, whole-matrix tasks as below,
   * whose CPU body runs the same blocked LU in one task: the same bits). */
  if ((((lu_op(op) || op == NDT_LINALG_CHOLESKY) && n >= LA_BLOCK_MIN) || qr_blocked(&s) ||
       lsq_blocked(&s)) &&
      !ndt_distributed() && !ndt__cuda_devices()) {
    st = op == NDT_LINALG_CHOLESKY ? ch_record(&s, vin, res, bshape, nmat)
         : op == NDT_LINALG_QR     ? qr_record(&s, vin, res, bshape, nmat)
         : op == NDT_LINALG_LSTSQ  ? lsq_record(&s, vin, res, bshape, nmat)
                                   : lu_record(&s, vin, res, bshape, nmat);
    if (st) ndt_sync();
    for (int i = 0; i < nout; i++) {
      if (st) ndt_free(res[i]);
      else out[i] = res[i];
    }
    return st;
  }
  /* Blocks of the batch axes: a matrix weighs its bytes times its order /
   * 4 (at least 16 matrices' bytes), so a task holds about a tile's worth of
   * work; this depends on shapes and dtypes only. */
  int64_t tb = ndt__rt_tile_bytes(), mx = m > n ? m : n;
  double wgt = (double)m * (double)n * ndt__traits[ct].size * (double)(mx / 4 > 16 ? mx / 4 : 16);
  int64_t lb = wgt > (double)tb ? tb + 1 : (int64_t)wgt;
  if (lb > INT_MAX) lb = INT_MAX;
  if (lb < 1) lb = 1;
  ndt_tiling tl;
  ndt__tiling_for(nbd, bshape, (int)lb, tb, &tl);
  int64_t total = vin[0].size;
  unsigned fl = tl.ntiles <= 1 && total <= ndt__rt_inline_elems()
                    ? NDT_TASK_INLINE | NDT_TASK_CALLER_ERROR : 0;
  for (int64_t bk = 0; bk < tl.ntiles && st == NDT_OK; bk++) {
    la_arg t = s;
    ndt_operand ops[LA_NIN + LA_NOUT];
    for (int i = 0; i < s.nin + nout; i++) {
      const ndt_array *v = i < s.nin ? &vin[i] : res[i - s.nin];
      int nc = i < s.nin ? s.icore[i] : s.ocore[i - s.nin];
      ndt_array batch = *v, blk;
      batch.ndim = nbd;
      batch.size = nmat;
      ndt__block_view(&batch, &tl, bk, &blk);
      blk.ndim = nbd + nc;
      for (int c = 0; c < nc; c++) {
        blk.shape[nbd + c] = v->shape[nbd + c];
        blk.strides[nbd + c] = v->strides[nbd + c];
        blk.size *= v->shape[nbd + c];
      }
      if (i < s.nin) t.in[i] = blk;
      else t.out[i - s.nin] = blk;
      ops[i] = (ndt_operand){i < s.nin ? &t.in[i] : &t.out[i - s.nin],
                             i < s.nin ? NDT_READ : NDT_WRITE};
    }
    st = ndt__record(&la_kind, op_name(op), ops, s.nin + nout, &t, sizeof t, fl);
  }
  /* ndt__finish for several results: on failure wait once, free them all */
  if (st) ndt_sync();
  for (int i = 0; i < nout; i++) {
    if (st) ndt_free(res[i]);
    else out[i] = res[i];
  }
  return st;
}
