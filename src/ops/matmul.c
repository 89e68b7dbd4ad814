/* matmul.c - matrix products: matmul (NumPy's @) and dot.
 *
 * Every product is C[M,N] = A[M,K] @ B[K,N] for each index of the broadcast
 * batch dimensions. The output of one batch matrix is cut into a grid of
 * blocks (nI x nJ) and K into pieces by a rule that depends on the shapes,
 * the dtype and the tile size only - never on the number of workers. Each
 * block is one task that walks the K pieces in increasing order: gemm with
 * beta = 0 for the first piece and beta = 1 after. The same blocks and
 * pieces run the same BLAS calls for any worker count, so every result has
 * the same bits.
 *
 * Operands reach BLAS in place when the piece lies in one tile, or in tiles
 * adjacent in memory (a large store mapped in one piece, see
 * ndt__alloc_data_run), with one unit stride (row- or column-major, so
 * transposed views go in place too);
 * otherwise the piece is gathered (and cast to the compute dtype) into task
 * scratch. An operand whose pieces several tasks read (B when the output has
 * several row blocks, A when it has several column blocks) and that cannot
 * be read in place is packed once, by parallel pack tasks, into a contiguous
 * copy, so it is gathered once rather than once per block.
 *
 * Row blocks write disjoint rows of a C-order output; when the output is also
 * split into column blocks, blocks write into a private staging buffer and
 * one task per row block copies its rows out, so blocks never serialise on
 * the output's tiles.
 *
 * Every block's product is the kernel table's gemm (gemv for the
 * matrix-vector path): on the CPU, integer and bool products are a plain
 * loop (integers wrap in the result type; bool is or-of-ands) and float and
 * complex ones OpenBLAS (the system's or the scipy-openblas32 wheel's, named
 * through blas.h), single-threaded inside the tasks: the workers are the
 * parallelism.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "matmul.h"

static const char *SIG = "(n?,k),(k,m?)->(n?,m?)";

/* ---- the block grid --------------------------------------------------- */
static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* E is the edge of a square block of one tile (512 for float64 and the
 * default 2 MiB tiles). Blocks have at least min(M, E) rows, at most 16E
 * columns and 8E^2 elements; one matrix gets up to 8 blocks when it has at
 * least E^3/4 multiply-adds per block; small matrices are grouped so a task
 * has about that much work. A full-width row block is preferred (then no
 * operand is read by two tasks except B); columns are split when the matrix
 * is too wide or has a single row block. */
static void make_grid(int64_t M, int64_t N, int64_t K, int64_t nbatch, ndt_dtype ct,
                      int64_t tile_bytes, mm_grid *g) {
  int csz = ndt__traits[ct].size;
  int64_t te = tile_bytes / csz;
  if (te < 1) te = 1;
  int64_t E = (int64_t)sqrt((double)te);
  while (E > 1 && E * E > te) E--;
  while ((E + 1) * (E + 1) <= te) E++;
  if (E < 1) E = 1;
  double w = (double)M * (double)N * (double)K * (ndt__traits[ct].kind == 'c' ? 4.0 : 1.0);
  double wmin = (double)E * (double)E * (double)E / 4.0;
  int64_t T = w / wmin >= 8 ? 8 : (int64_t)(w / wmin);
  if (T < 1) T = 1;
  g->M = M;
  g->N = N;
  g->K = K;
  g->nJ = cdiv(N, 16 * E);
  g->nb = cdiv(N, g->nJ);
  g->nJ = cdiv(N, g->nb);
  g->nI = cdiv(T, g->nJ);
  g->mb = cdiv(M, g->nI);
  if (g->mb < min64(M, E)) g->mb = min64(M, E);
  int64_t cap = max64(1, 8 * E * E / g->nb);
  if (g->mb > cap) g->mb = cap;
  g->nI = cdiv(M, g->mb);
  g->mb = cdiv(M, g->nI);
  if (g->nI == 1 && g->nJ < T) {
    int64_t want = min64(T, cdiv(N, E));
    if (want > g->nJ) {
      g->nb = cdiv(N, want);
      g->nJ = cdiv(N, g->nb);
    }
  }
  /* K pieces as long as each task's scratch stays within 8 tiles: a
   * gathered A piece is mb x kb, a gathered B piece kb x nb, and an operand
   * that several blocks read (B when nI > 1, A when nJ > 1) is packed once
   * and read in place, so it bounds nothing. Fewer K pieces mean fewer
   * passes over the block of C (beta = 1). */
  int64_t ka = g->nJ > 1 ? K : 8 * E * E / g->mb, kbm = g->nI > 1 ? K : 8 * E * E / g->nb;
  int64_t kcap = max64(max64(1, E / 4), min64(ka, kbm));
  g->nK = K > 0 ? cdiv(K, kcap) : 0;
  g->kb = g->nK ? cdiv(K, g->nK) : 1;
  if (g->nK) g->nK = cdiv(K, g->kb);
  g->gsize = 1;
  if (g->nI * g->nJ == 1 && w > 0 && w < wmin) {
    double gs = wmin / w;
    g->gsize = gs >= (double)nbatch ? nbatch : (int64_t)gs;
    if (g->gsize < 1) g->gsize = 1;
  }
  g->nG = nbatch ? cdiv(nbatch, g->gsize) : 0;
}

/* ---- data movement ---------------------------------------------------- */
/* A matrix as a kernel sees it: pointer and strides in compute-dtype elements. */
typedef ndt_mat mat;

/* The region (R x C at off, strides rs, cs in store elements) of v in place,
 * when it lies in one tile or in tiles adjacent in memory, has the compute
 * dtype and (for BLAS) a BLAS layout. */
static int direct(const ndt_bound *b, int64_t off, int64_t R, int64_t C, int64_t rs, int64_t cs,
                  ndt_dtype ct, int blas, mat *x) {
  const ndt_array *v = b->view;
  if (v->dtype != ct) return 0;
  int64_t lo, hi;
  ndt_mm_extent2(off, R, C, rs, cs, &lo, &hi);
  if (!ndt__region_in_place(b, lo, hi)) return 0;
  int ssz = v->store->itemsize, csz = ndt__traits[ct].size;
  int64_t brs = R == 1 ? 0 : rs * ssz, bcs = C == 1 ? 0 : cs * ssz;
  if (brs % csz || bcs % csz) return 0;
  int64_t ers = brs / csz, ecs = bcs / csz;
  if (blas && !ndt_mat_blas_ok(R, C, &ers, &ecs)) return 0;
  x->p = ndt__elem_run(b, off, 0, NULL);
  x->rs = ers;
  x->cs = ecs;
  return 1;
}

/* Copies between a region of v (R x C at element offset off, store-element
 * strides rs, cs) and a buffer of dtype bdt with byte strides brs, bcs,
 * casting (the table's copy2d); rows run along the axis with the smaller
 * stride: in one call when the region lies in one buffer, else a call per
 * stretch of rows that lie in one tile (a row across tiles: a call per
 * run, split where it leaves a tile). */
static void xfer2d(const ndt_bound *b, int64_t off, int64_t R, int64_t C, int64_t rs, int64_t cs,
                   char *buf, int64_t brs, int64_t bcs, ndt_dtype bdt, int to_buf) {
  const ndt_array *v = b->view;
  if (R <= 0 || C <= 0) return;
  int ssz = v->store->itemsize;
  ndt_copy2d_fn copy = ndt__kern->copy2d;
  if ((C == 1 && R > 1) || (R > 1 && C > 1 && llabs(rs) < llabs(cs))) {
    int64_t t = R; R = C; C = t;
    t = rs; rs = cs; cs = t;
    t = brs; brs = bcs; bcs = t;
  }
  int64_t lo, hi;
  ndt_mm_extent2(off, R, C, rs, cs, &lo, &hi);
  if (ndt__region_in_place(b, lo, hi)) {
    char *tp = ndt__elem_run(b, off, 0, NULL);
    if (to_buf) copy(R, C, tp, rs * ssz, cs * ssz, v->dtype, buf, brs, bcs, bdt);
    else copy(R, C, buf, brs, bcs, bdt, tp, rs * ssz, cs * ssz, v->dtype);
    return;
  }
  const ndt_store *s = v->store;
  for (int64_t r = 0; r < R; r++) {
    int64_t fi = off + r * rs, left = C;
    char *bp = buf + r * brs;
    /* rows r.. that each lie in the tile holding row r: one call for all
     * of them (their extremes move by rs a row; the run of the extreme
     * element on the side they move to counts them) */
    int64_t rlo, rhi;
    ndt_mm_extent2(fi, 1, C, rs, cs, &rlo, &rhi);
    if (ndt_store_tile_of(s, rlo) == ndt_store_tile_of(s, rhi)) {
      int64_t q = R - r;
      (void)ndt__elem_run(b, rs >= 0 ? rhi : rlo, rs, &q);
      char *tp = ndt__elem_run(b, fi, 0, NULL);
      if (to_buf) copy(q, C, tp, rs * ssz, cs * ssz, v->dtype, bp, brs, bcs, bdt);
      else copy(q, C, bp, brs, bcs, bdt, tp, rs * ssz, cs * ssz, v->dtype);
      r += q - 1;
      continue;
    }
    while (left > 0) {
      int64_t n = left;
      char *tp = ndt__elem_run(b, fi, cs, &n);   /* n: the run's part in one tile */
      if (to_buf) copy(1, n, tp, 0, cs * ssz, v->dtype, bp, 0, bcs, bdt);
      else copy(1, n, bp, 0, bcs, bdt, tp, 0, cs * ssz, v->dtype);
      bp += n * bcs;
      fi += n * cs;
      left -= n;
    }
  }
}

/* Gathers a region of v into buf (compute dtype), row-major unless the
 * source runs down columns. */
static void gather(const ndt_bound *v, int64_t off, int64_t R, int64_t C, int64_t rs,
                   int64_t cs, ndt_dtype ct, char *buf, mat *x) {
  int csz = ndt__traits[ct].size;
  int cm = R > 1 && C > 1 && llabs(rs) < llabs(cs);
  x->p = buf;
  x->rs = cm ? 1 : C;
  x->cs = cm ? R : 1;
  xfer2d(v, off, R, C, rs, cs, buf, x->rs * csz, x->cs * csz, ct, 1);
}

/* ---- kernels ---------------------------------------------------------- */
/* Every dtype's product is the table's gemm (floats and complex: BLAS on
 * the CPU, which wants BLAS layouts: is_blas). */
static void kernel(ndt_dtype ct, int64_t R, int64_t C, int64_t K, mat a, mat b, mat c, int acc) {
  ndt__kern->gemm(ct)(R, C, K, a, b, c, acc);
}

static int is_blas(ndt_dtype t) {
  char k = ndt__traits[t].kind;
  return k == 'f' || k == 'c';
}

/* ---- tasks ------------------------------------------------------------ */
/* Copies rows (columns, if column-major) [t1*chunk, ...) of operand w's own
 * matrix t0 into its packed copy. */
/* Operands: the region of operand w read (walked), its place in the packed
 * copy (write, walked). */
static ndt_status pack_body(ndt_bound *op, void *p) {
  const mm_arg *m = p;
  int w = m->which, nbd = m->nbd, csz = ndt__traits[m->ct].size;
  const ndt_array *v = &m->op[w];
  int64_t R = v->shape[nbd], C = v->shape[nbd + 1];
  int64_t rs = v->strides[nbd], cs = v->strides[nbd + 1];
  int64_t off = ndt_mm_own_off(m, w, m->t0), c0 = m->t1 * m->pk_chunk[w];
  char *base = ndt__elem_run(&op[1], m->t0 * R * C * csz, 0, NULL);
  if (m->pk_cm[w])
    xfer2d(&op[0], off + c0 * cs, R, min64(m->pk_chunk[w], C - c0), rs, cs, base + c0 * R * csz,
           csz, R * csz, m->ct, 1);
  else
    xfer2d(&op[0], off + c0 * rs, min64(m->pk_chunk[w], R - c0), C, rs, cs, base + c0 * C * csz,
           C * csz, csz, m->ct, 1);
  return NDT_OK;
}

/* Operand w's piece (rows r0.., cols c0..) of batch bi: packed, in place, or
 * gathered into *scratch (allocated on first use, `bytes` long). */
static ndt_status piece(const mm_arg *m, const ndt_bound *b, int w, int64_t bi, int64_t r0, int64_t R, int64_t c0,
                        int64_t C, char **scratch, size_t bytes, mat *x) {
  const ndt_array *v = &m->op[w];
  int nbd = m->nbd, csz = ndt__traits[m->ct].size;
  int64_t VR = v->shape[nbd], VC = v->shape[nbd + 1];
  if (m->pk[w]) {
    char *base = ndt__elem_run(b, ndt_mm_own_index(m, w, bi) * VR * VC * csz, 0, NULL);
    if (m->pk_cm[w]) {
      x->p = base + (r0 + c0 * VR) * csz;
      x->rs = 1;
      x->cs = VR;
    } else {
      x->p = base + (r0 * VC + c0) * csz;
      x->rs = VC;
      x->cs = 1;
    }
    return NDT_OK;
  }
  int64_t rs = v->strides[nbd], cs = v->strides[nbd + 1];
  int64_t off = ndt_mm_batch_off(m, v, bi) + r0 * rs + c0 * cs;
  if (direct(b, off, R, C, rs, cs, m->ct, is_blas(m->ct), x)) return NDT_OK;
  if (!*scratch && !(*scratch = ndt__alloc_data(bytes, 0))) return NDT_ERR_NOMEM;
  gather(b, off, R, C, rs, cs, m->ct, *scratch, x);
  return NDT_OK;
}

/* One output block (rows i, columns j) for the batches of group t0. */
/* Operands (all walked): A's rows (or its packed copy), B's columns (or
 * its packed copy) (read), C's block (or its place in the staging buffer)
 * (write). */
static ndt_status block_body(ndt_bound *op, void *p) {
  const mm_arg *m = p;
  const mm_grid *g = &m->g;
  ndt_dtype ct = m->ct;
  int nbd = m->nbd, csz = ndt__traits[ct].size, blas = is_blas(ct);
  const ndt_array *cv = &m->op[2];
  int64_t i0 = m->t1 * g->mb, mi = min64(g->mb, g->M - i0);
  int64_t j0 = m->t2 * g->nb, nj = min64(g->nb, g->N - j0);
  int64_t b0 = m->t0 * g->gsize, b1 = min64(m->nbatch, b0 + g->gsize);
  int64_t crs = cv->strides[nbd], ccs = cv->strides[nbd + 1];
  size_t abytes = (size_t)(mi * g->kb * csz), bbytes = (size_t)(g->kb * nj * csz);
  size_t cbytes = (size_t)(mi * nj * csz);
  char *sa = NULL, *sb = NULL, *sc = NULL;
  ndt_status st = NDT_OK;
  for (int64_t bi = b0; bi < b1 && st == NDT_OK; bi++) {
    mat c;
    int64_t coff = 0;
    int c_scratch = 0;
    if (m->stage) {
      c.p = ndt__elem_run(&op[2], (bi * g->M * g->N + i0 * g->N + j0 * mi) * csz, 0, NULL);
      c.rs = nj;
      c.cs = 1;
    } else {
      coff = ndt_mm_batch_off(m, cv, bi) + i0 * crs + j0 * ccs;
      if (!direct(&op[2], coff, mi, nj, crs, ccs, ct, blas, &c)) {
        if (!sc && !(sc = ndt__alloc_data(cbytes, 0))) {
          st = NDT_ERR_NOMEM;
          break;
        }
        c.p = sc;
        c.rs = nj;
        c.cs = 1;
        c_scratch = 1;
      }
    }
    for (int64_t kp = 0; kp < g->nK; kp++) {
      int64_t k0 = kp * g->kb, kl = min64(g->kb, g->K - k0);
      mat a, b;
      st = piece(m, &op[0], 0, bi, i0, mi, k0, kl, &sa, abytes, &a);
      if (st == NDT_OK) st = piece(m, &op[1], 1, bi, k0, kl, j0, nj, &sb, bbytes, &b);
      if (st) break;
      kernel(ct, mi, nj, kl, a, b, c, kp > 0);
    }
    if (st == NDT_OK && c_scratch)
      xfer2d(&op[2], coff, mi, nj, crs, ccs, c.p, nj * csz, csz, ct, 0);
  }
  if (sa) ndt__free_data_sized(sa, abytes);
  if (sb) ndt__free_data_sized(sb, bbytes);
  if (sc) ndt__free_data_sized(sc, cbytes);
  return st;
}

/* Copies row block t1 of batch t0 from the staging buffer to the output. */
/* Operands: the rows in the staging buffer (read), C's rows (write; both
 * walked). */
static ndt_status copyout_body(ndt_bound *op, void *p) {
  const mm_arg *m = p;
  const mm_grid *g = &m->g;
  int nbd = m->nbd, csz = ndt__traits[m->ct].size;
  const ndt_array *cv = &m->op[2];
  int64_t bi = m->t0, i0 = m->t1 * g->mb, mi = min64(g->mb, g->M - i0);
  int64_t crs = cv->strides[nbd], ccs = cv->strides[nbd + 1];
  int64_t off = ndt_mm_batch_off(m, cv, bi) + i0 * crs;
  for (int64_t j = 0; j < g->nJ; j++) {
    int64_t j0 = j * g->nb, nj = min64(g->nb, g->N - j0);
    char *src = ndt__elem_run(&op[0], (bi * g->M * g->N + i0 * g->N + j0 * mi) * csz, 0, NULL);
    xfer2d(&op[1], off + j0 * ccs, mi, nj, crs, ccs, src, nj * csz, csz, m->ct, 0);
  }
  return NDT_OK;
}

static const ndt_task_kind pack_kind = {"matmul pack", {pack_body}, NULL};
static const ndt_task_kind block_kind = {"matmul block", {block_body}, NULL};
static const ndt_task_kind copyout_kind = {"matmul copyout", {copyout_body}, NULL};

/* ---- recording -------------------------------------------------------- */
/* Elements [lo, lo+n) of v's store, as a view with v's dtype and part (an
 * operand the body walks through v's own strides). */
static void store_range(const ndt_array *v, int64_t lo, int64_t n, ndt_array *out) {
  ndt__range_view(out, v->store, lo, n);
  out->dtype = v->dtype;
  out->part = v->part;
}

/* The extent of operand w's region (rows r0.., cols c0..) over batches
 * [b0, b1), as a view of its store (empty when the region is). */
static void region(const mm_arg *m, int w, int64_t b0, int64_t b1, int64_t r0, int64_t R,
                   int64_t c0, int64_t C, ndt_array *out) {
  const ndt_array *v = &m->op[w];
  if (R <= 0 || C <= 0) {
    store_range(v, 0, 0, out);
    return;
  }
  int64_t rs = v->strides[m->nbd], cs = v->strides[m->nbd + 1];
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int64_t bi = b0; bi < b1; bi++) {
    int64_t l, h;
    ndt_mm_extent2(ndt_mm_batch_off(m, v, bi) + r0 * rs + c0 * cs, R, C, rs, cs, &l, &h);
    if (l < lo) lo = l;
    if (h > hi) hi = h;
  }
  store_range(v, lo, hi - lo + 1, out);
}

static int64_t own_count(const mm_arg *m, int w) {
  int64_t n = 1;
  for (int d = 0; d < m->nbd; d++) n *= m->own[w][d];
  return n;
}

/* 1 when every own matrix of operand w can be read in place. With a CUDA
 * device, only a matrix in one tile is (src/runtime/cuda_matmul.h reads a
 * piece in place only when it lies in one tile), so a shared operand
 * across tiles is packed once, not gathered again by every block that
 * reads it. */
static int all_direct(const mm_arg *m, int w) {
  const ndt_array *v = &m->op[w];
  /* (the simulated devices run the CPU's bodies, which read adjacent tiles
   * in place as on the host: their bits stay the CPU's) */
  int nbd = m->nbd, one_tile = ndt__cuda_devices();
  int64_t R = v->shape[nbd], C = v->shape[nbd + 1], n = own_count(m, w);
  int64_t rs = v->strides[nbd], cs = v->strides[nbd + 1];
  ndt_bound hb = {.view = v, .mem = &ndt__host_memory};   /* a layout question */
  for (int64_t q = 0; q < n; q++) {
    mat x;
    int64_t off = ndt_mm_own_off(m, w, q), lo, hi;
    if (!direct(&hb, off, R, C, rs, cs, m->ct, is_blas(m->ct), &x)) return 0;
    ndt_mm_extent2(off, R, C, rs, cs, &lo, &hi);
    if (one_tile && ndt_store_tile_of(v->store, lo) != ndt_store_tile_of(v->store, hi)) return 0;
  }
  return 1;
}

/* The privilege of an output region (the extent of the C elements a task
 * writes, n of them): a plain write when they are all of it; else (an
 * out= view with gaps) a read-write, so that the elements between them
 * keep their values wherever the task runs (a WRITE covers its whole
 * view: a device would not copy the old contents in, nor would another
 * rank send them). */
static unsigned out_priv(const ndt_array *region, int64_t n) {
  return (n == region->size ? NDT_WRITE : NDT_RW) | NDT_OPND_WALK;
}

/* 1 when operand w is broadcast along a batch dimension. */
static int broadcast_batch(const mm_arg *m, int w) {
  for (int d = 0; d < m->nbd; d++)
    if (m->own[w][d] == 1 && m->bshape[d] > 1) return 1;
  return 0;
}

/* Records the product described by m (views, own extents, ct, batch shape;
 * M, N, K > 0 and nbatch > 0). */
static ndt_status mm_record(mm_arg *m) {
  int nbd = m->nbd, csz = ndt__traits[m->ct].size;
  int64_t M = m->op[0].shape[nbd], K = m->op[0].shape[nbd + 1], N = m->op[1].shape[nbd + 1];
  int64_t tb = ndt__rt_tile_bytes();
  make_grid(M, N, K, m->nbatch, m->ct, tb, &m->g);
  mm_grid *g = &m->g;
  m->pk[0] = m->pk[1] = NULL;
  m->stage = NULL;
  int share[2] = {g->nJ > 1 || (g->nG > 1 && broadcast_batch(m, 0)),
                  g->nI > 1 || (g->nG > 1 && broadcast_batch(m, 1))};
  ndt_status st = NDT_OK;
  int64_t te = max64(1, tb / csz);
  for (int w = 0; w < 2 && st == NDT_OK; w++) {
    if (!share[w] || all_direct(m, w)) continue;
    const ndt_array *v = &m->op[w];
    int64_t R = v->shape[nbd], C = v->shape[nbd + 1];
    int64_t rs = v->strides[nbd], cs = v->strides[nbd + 1];
    m->pk_cm[w] = R > 1 && C > 1 && llabs(rs) < llabs(cs) && R <= INT_MAX;
    if ((m->pk_cm[w] ? R : C) > INT_MAX) continue;  /* BLAS's ld; tasks gather pieces */
    m->pk_chunk[w] = max64(1, te / (m->pk_cm[w] ? R : C));
    st = ndt__store_new_bytes(&m->pk[w], own_count(m, w) * R * C * csz);
  }
  if (st == NDT_OK && g->nJ > 1) st = ndt__store_new_bytes(&m->stage, m->nbatch * M * N * csz);
  int64_t nblocks = g->nG * g->nI * g->nJ;
  double work = (double)m->nbatch * M * N * K;
  int small = nblocks == 1 && !m->pk[0] && !m->pk[1] && !m->stage &&
              m->nbatch * M * N <= ndt__rt_inline_elems() && work <= (double)(1 << 22);

  /* pack tasks */
  for (int w = 0; w < 2 && st == NDT_OK; w++) {
    if (!m->pk[w]) continue;
    const ndt_array *v = &m->op[w];
    int64_t R = v->shape[nbd], C = v->shape[nbd + 1];
    int64_t rs = v->strides[nbd], cs = v->strides[nbd + 1];
    int64_t major = m->pk_cm[w] ? C : R, nq = own_count(m, w);
    for (int64_t q = 0; q < nq && st == NDT_OK; q++) {
      int64_t off = ndt_mm_own_off(m, w, q);
      for (int64_t c = 0; c * m->pk_chunk[w] < major && st == NDT_OK; c++) {
        int64_t s0 = c * m->pk_chunk[w], n = min64(m->pk_chunk[w], major - s0);
        m->which = w;
        m->t0 = q;
        m->t1 = c;
        int64_t lo, hi;
        if (m->pk_cm[w]) ndt_mm_extent2(off + s0 * cs, R, n, rs, cs, &lo, &hi);
        else ndt_mm_extent2(off + s0 * rs, n, C, rs, cs, &lo, &hi);
        int64_t plo = (q * R * C + s0 * (m->pk_cm[w] ? R : C)) * csz;
        int64_t plen = n * (m->pk_cm[w] ? R : C) * csz;
        ndt_array rv, pv;
        store_range(v, lo, hi - lo + 1, &rv);
        ndt__range_view(&pv, m->pk[w], plo, plen);
        ndt_operand ops[2] = {{&rv, NDT_READ | NDT_OPND_WALK}, {&pv, NDT_WRITE | NDT_OPND_WALK}};
        st = ndt__record(&pack_kind, NULL, ops, 2, m, sizeof *m, 0);
      }
    }
  }

  /* block tasks (they hold the three operands' stores even when they read
   * packed copies) */
  ndt_array keep[3];
  for (int w = 0; w < 3; w++) store_range(&m->op[w], 0, 0, &keep[w]);
  for (int64_t gi = 0; gi < g->nG && st == NDT_OK; gi++) {
    int64_t b0 = gi * g->gsize, b1 = min64(m->nbatch, b0 + g->gsize);
    for (int64_t i = 0; i < g->nI && st == NDT_OK; i++) {
      int64_t i0 = i * g->mb, mi = min64(g->mb, M - i0);
      for (int64_t j = 0; j < g->nJ && st == NDT_OK; j++) {
        int64_t j0 = j * g->nb, nj = min64(g->nb, N - j0);
        m->t0 = gi;
        m->t1 = i;
        m->t2 = j;
        ndt_array av, bv, cv;
        if (m->pk[0]) ndt__range_view(&av, m->pk[0], 0, m->pk[0]->size);
        else region(m, 0, b0, b1, i0, mi, 0, K, &av);
        if (m->pk[1]) ndt__range_view(&bv, m->pk[1], 0, m->pk[1]->size);
        else region(m, 1, b0, b1, 0, K, j0, nj, &bv);
        if (m->stage)
          ndt__range_view(&cv, m->stage, (b0 * M * N + i0 * N + j0 * mi) * csz, mi * nj * csz);
        else
          region(m, 2, b0, b1, i0, mi, j0, nj, &cv);
        ndt_operand ops[6] = {{&av, NDT_READ | NDT_OPND_WALK}, {&bv, NDT_READ | NDT_OPND_WALK},
                              {&cv, out_priv(&cv, (b1 - b0) * mi * nj)}, {&keep[0], NDT_OPND_KEEP},
                              {&keep[1], NDT_OPND_KEEP}, {&keep[2], NDT_OPND_KEEP}};
        st = ndt__record(&block_kind, NULL, ops, 6, m, sizeof *m,
                        small ? NDT_TASK_INLINE : 0);
      }
    }
  }

  /* copy-out tasks */
  if (m->stage) {
    for (int64_t bi = 0; bi < m->nbatch && st == NDT_OK; bi++) {
      for (int64_t i = 0; i < g->nI && st == NDT_OK; i++) {
        int64_t i0 = i * g->mb, mi = min64(g->mb, M - i0);
        m->t0 = bi;
        m->t1 = i;
        ndt_array sv, cv;
        ndt__range_view(&sv, m->stage, (bi * M * N + i0 * N) * csz, mi * N * csz);
        region(m, 2, bi, bi + 1, i0, mi, 0, N, &cv);
        ndt_operand ops[2] = {{&sv, NDT_READ | NDT_OPND_WALK}, {&cv, out_priv(&cv, mi * N)}};
        st = ndt__record(&copyout_kind, NULL, ops, 2, m, sizeof *m, 0);
      }
    }
  }
  if (st) ndt_sync();  /* tasks already recorded use the buffers below */
  ndt__store_decref(m->pk[0]);
  ndt__store_decref(m->pk[1]);
  ndt__store_decref(m->stage);
  return st;
}

/* ---- shapes and messages ---------------------------------------------- */
static int fmt_dims(char *buf, size_t cap, int n, const int64_t *d) {
  int len = snprintf(buf, cap, "(");
  for (int k = 0; k < n && (size_t)len < cap; k++)
    len += snprintf(buf + len, cap - len, "%s%lld", k ? "," : "", (long long)d[k]);
  if ((size_t)len < cap) len += snprintf(buf + len, cap - len, "%s)", n == 1 ? "," : "");
  return len;
}

/* A view of v with `nbd` batch dimensions (broadcast to bshape, stride 0
 * where v has none or extent 1) followed by the two core dimensions given. */
static void core_view(const ndt_array *v, int vloop, int nbd, const int64_t *bshape, int64_t R,
                      int64_t C, int64_t rs, int64_t cs, ndt_array *out, int64_t *own) {
  *out = *v;
  out->ndim = nbd + 2;
  out->size = 1;
  for (int d = 0; d < nbd; d++) {
    int j = d - (nbd - vloop);
    int has = j >= 0 && v->shape[j] != 1;
    out->shape[d] = bshape[d];
    out->strides[d] = has ? v->strides[j] : 0;
    if (own) own[d] = has ? bshape[d] : 1;
    out->size *= bshape[d];
  }
  out->shape[nbd] = R;
  out->shape[nbd + 1] = C;
  out->strides[nbd] = rs;
  out->strides[nbd + 1] = cs;
  out->size *= R * C;
}

/* ---- matrix-vector products (mv_arg, matmul.h) ---------------------------
 * A row-major matrix R (rows x cols) with a vector: y = R v (NoTrans: each
 * block of rows writes its own rows of y) or y = R^T v (Trans: each block of
 * rows adds R_b^T v_b into a partial, and one task sums the partials in block
 * order). Blocks are row blocks of R's tiling, so results do not depend on
 * the number of workers, and gemv streams R once, as NumPy does. */

/* A contiguous copy of a bound vector whose stride is not one element. */
static char *unit_vector(const ndt_bound *b, int64_t n, int isz, char **tmp) {
  *tmp = NULL;
  if (n <= 1 || b->st[0] == isz) return b->ptr;
  *tmp = ndt__malloc((size_t)n * isz);
  if (!*tmp) return NULL;
  for (int64_t i = 0; i < n; i++) memcpy(*tmp + i * isz, b->ptr + i * b->st[0], isz);
  return *tmp;
}

/* Operands: the block's rows of R, its part of v (read), its part of y or
 * (trans) its partial (write). */
static ndt_status mv_body(ndt_bound *op, void *p) {
  const mv_arg *m = p;
  int isz = ndt__traits[m->t].size;
  int64_t rows = m->r.shape[0], cols = m->r.shape[1];
  const ndt_bound br = op[0], bv = op[1], by = op[2];
  ndt_status st = NDT_OK;
  char *y = by.ptr;
  char *tmp = NULL, *x = st ? NULL : unit_vector(&bv, m->v.shape[0], isz, &tmp);
  if (!st && !x) st = NDT_ERR_NOMEM;
  if (!st) {
    int64_t lda = rows > 1 ? br.st[0] / isz : cols;
    if (lda < cols) lda = cols;
    int64_t incy = m->trans || m->y.shape[0] <= 1 ? 1 : by.st[0] / isz;
    ndt__kern->gemv(m->t)(m->trans, rows, cols, br.ptr, lda, x, y, incy);
  }
  ndt__mfree(tmp);
  return st;
}

/* Operands: all partials (read), y (write). */
static ndt_status mv_combine_body(ndt_bound *op, void *p) {
  const mv_arg *m = p;
  const ndt_bound by = op[1];
  ndt__kern->block_sum(m->t, by.ptr, m->cols > 1 ? by.st[0] : 0, op[0].ptr, m->nblocks,
                       m->cols);
  return NDT_OK;
}

static const ndt_task_kind mv_kind = {"matvec", {mv_body}, NULL};
static const ndt_task_kind mv_combine_kind = {"matvec combine", {mv_combine_body}, NULL};

/* Returns 1 when the product is not a row-major matrix with a vector of
 * float32/float64 (the caller takes the general path). */
static int matvec(const ndt_array *a, const ndt_array *b, ndt_array **out, ndt_status *status) {
  ndt_dtype t = a->dtype;
  /* strides below count store elements: a .real/.imag view's are not its own */
  if (t != b->dtype || (t != NDT_FLOAT32 && t != NDT_FLOAT64) || a->part || b->part ||
      a->store->itemsize != ndt__traits[t].size || b->store->itemsize != ndt__traits[t].size)
    return 1;
  const ndt_array *mat = a->ndim == 2 ? a : b, *vec = a->ndim == 2 ? b : a;
  if (!((a->ndim == 2 && b->ndim == 1) || (a->ndim == 1 && b->ndim == 2))) return 1;
  if (mat->size == 0 || mat->shape[0] < 2 || mat->shape[1] < 2) return 1;
  /* r: the matrix as row-major rows x cols; trans: y = r^T v */
  ndt_array r = *mat;
  int trans;
  if (mat->strides[1] == 1) trans = mat == b;
  else if (mat->strides[0] == 1) {
    r.shape[0] = mat->shape[1];
    r.shape[1] = mat->shape[0];
    r.strides[0] = mat->strides[1];
    r.strides[1] = 1;
    trans = mat == a;
  } else return 1;
  if (r.strides[0] < r.shape[1]) return 1;
  int isz = ndt__traits[t].size;
  ndt_tiling tl;
  ndt__tiling_for(2, r.shape, isz, ndt__rt_tile_bytes(), &tl);
  if (tl.axis > 0) return 1;   /* a row longer than a tile: general path */
  int64_t nb = tl.ntiles, cols = r.shape[1];
  int64_t ylen = trans ? cols : r.shape[0];
  ndt_array *res;
  ndt_status st = ndt__array_new(&res, t, 1, &ylen, 0);
  if (st) {
    *status = st;
    return 0;
  }
  mv_arg m = {.t = t, .trans = trans, .cols = cols, .nblocks = nb};
  if (trans && (st = ndt__store_new_bytes(&m.parts, nb * cols * isz))) {
    ndt_free(res);
    *status = st;
    return 0;
  }
  unsigned fl = nb == 1 && r.size <= ndt__rt_inline_elems() ? NDT_TASK_INLINE : 0;
  for (int64_t blk = 0; blk < nb && st == NDT_OK; blk++) {
    ndt__block_view(&r, &tl, blk, &m.r);
    int64_t r0 = (m.r.offset - r.offset) / r.strides[0], rows = m.r.shape[0];
    ndt_index sl = {.kind = NDT_IDX_SLICE, .start = r0, .stop = r0 + rows, .step = 1,
                    .has_start = 1, .has_stop = 1};
    ndt_array *part;
    st = ndt_view_index(&part, trans ? vec : res, 1, &sl);
    if (st) break;
    if (trans) {
      m.v = *part;
      m.y = *res;
    } else {
      m.v = *vec;
      m.y = *part;
    }
    ndt_free(part);
    m.poff = blk * cols * isz;
    ndt_array pv;
    if (trans) ndt__range_view(&pv, m.parts, m.poff, cols * isz);
    ndt_operand ops[3] = {{&m.r, NDT_READ}, {&m.v, NDT_READ},
                          {trans ? &pv : &m.y, NDT_WRITE}};
    st = ndt__record(&mv_kind, NULL, ops, 3, &m, sizeof m, fl);
  }
  if (!st && trans) {
    m.y = *res;
    ndt_array pv;
    ndt__range_view(&pv, m.parts, 0, m.parts->size);
    ndt_operand ops[2] = {{&pv, NDT_READ}, {&m.y, NDT_WRITE}};
    st = ndt__record(&mv_combine_kind, NULL, ops, 2, &m, sizeof m, fl);
  }
  if (m.parts) ndt__store_decref(m.parts);
  if (st) {
    ndt_sync();
    ndt_free(res);
    *status = st;
    return 0;
  }
  *out = res;
  *status = NDT_OK;
  return 0;
}

static ndt_status matmul_(ndt_array **out, const ndt_array *a, const ndt_array *b);

/* NumPy's matmul and dot report their floating-point errors (of the
 * products, the sums and any cast of an operand) as one op of their name. */
ndt_status ndt_matmul(ndt_array **out, const ndt_array *a, const ndt_array *b) {
  ndt_fp_group_begin("matmul");
  ndt_status st = matmul_(out, a, b);
  ndt_fp_group_end();
  return st;
}

static ndt_status matmul_(ndt_array **out, const ndt_array *a, const ndt_array *b) {
  ndt__blas_init();
  if (!a || !b || !out) return ndt__error(NDT_ERR_VALUE, "matmul: NULL argument");
  ndt_status wst = *out ? ndt__check_writeable(*out, "output array is read-only", 1) : NDT_OK;
  if (wst) return wst;
  ndt_dtype ct = ndt_promote(a->dtype, 0, b->dtype, 0);
  if ((int)ct < 0 || ct >= NDT_NTYPES)
    return ndt__error(NDT_ERR_TYPE, "matmul: unsupported operand dtypes");
  /* NumPy resolves the loop and checks the output's cast before any core
   * or loop dimension (a float product into an int out is a TypeError
   * whatever the shapes) */
  if (*out && !ndt_can_cast(ct, (*out)->dtype, NDT_CAST_SAME_KIND))
    return ndt__error(NDT_ERR_CAST, "Cannot cast ufunc 'matmul' output from dtype('%s') to "
                     "dtype('%s') with casting rule 'same_kind'", ndt_dtype_name(ct),
                     ndt_dtype_name((*out)->dtype));
  for (int i = 0; i < 2; i++) {
    const ndt_array *x = i ? b : a;
    if (x->ndim == 0)
      return ndt__error(NDT_ERR_VALUE, "matmul: Input operand %d does not have enough dimensions "
                       "(has 0, gufunc core with signature %s requires 1)", i, SIG);
  }
  int an = a->ndim, bn = b->ndim;
  int64_t K = a->shape[an - 1], Kb = bn == 1 ? b->shape[0] : b->shape[bn - 2];
  if (K != Kb)
    return ndt__error(NDT_ERR_VALUE, "matmul: Input operand 1 has a mismatch in its core "
                     "dimension 0, with gufunc signature %s (size %lld is different from %lld)",
                     SIG, (long long)Kb, (long long)K);
  if (!*out) {
    ndt_status mst;
    if (matvec(a, b, out, &mst) == 0) return mst;
  } else if ((*out)->ndim == 1 && (*out)->dtype == a->dtype && a->ndim + b->ndim == 3 &&
             (*out)->shape[0] == (an == 2 ? a->shape[0] : b->shape[1])) {
    /* out= of a matrix-vector product: the same kernel (and bits) as without
     * out, into a new vector assigned to out (which may overlap a or b) */
    ndt_array *tmp = NULL;
    ndt_status mst;
    if (matvec(a, b, &tmp, &mst) == 0) {
      if (mst == NDT_OK) mst = ndt_assign(*out, tmp, NDT_CAST_SAME_KIND);
      ndt_free(tmp);
      return mst;
    }
  }
  int64_t M = an >= 2 ? a->shape[an - 2] : 1, N = bn >= 2 ? b->shape[bn - 1] : 1;
  int aloop = an >= 2 ? an - 2 : 0, bloop = bn >= 2 ? bn - 2 : 0;
  int ncore = (an >= 2) + (bn >= 2);
  int64_t core[2];
  int nc = 0;
  if (an >= 2) core[nc++] = M;
  if (bn >= 2) core[nc++] = N;
  int nbd;
  int64_t bshape[NDT_MAXDIMS];
  {
    int nds[2] = {aloop, bloop};
    const int64_t *shs[2] = {a->shape, b->shape};
    if (ndt_broadcast_shapes(2, nds, shs, &nbd, bshape) != NDT_OK) {
      /* NumPy's text: each operand's loop dims, then a newaxis per core dim */
      char s[2][700], r[100];
      for (int o = 0; o < 2; o++) {
        int nl = o ? bloop : aloop, nd = o ? bn : an;
        const int64_t *sh = o ? b->shape : a->shape;
        int len = fmt_dims(s[o], 300, nd, sh);
        len += snprintf(s[o] + len, sizeof s[o] - len, "->(");
        for (int k = 0; k < nl && len < 600; k++)
          len += snprintf(s[o] + len, sizeof s[o] - len, "%s%lld", k ? "," : "",
                          (long long)sh[k]);
        for (int k = 0; nl && k < (nd >= 2 ? 2 : 1); k++)
          len += snprintf(s[o] + len, sizeof s[o] - len, ",newaxis");
        snprintf(s[o] + len, sizeof s[o] - len, ")");
      }
      fmt_dims(r, sizeof r, nc, core);
      return ndt__error(NDT_ERR_SHAPE, "operands could not be broadcast together with remapped "
                       "shapes [original->remapped]: %s %s  and requested shape %s", s[0], s[1], r);
    }
  }
  ndt_array *res = *out;
  int64_t rshape[NDT_MAXDIMS];
  int rnd = nbd + nc;
  if (rnd > NDT_MAXDIMS) return ndt__error(NDT_ERR_VALUE, "matmul: too many dimensions");
  memcpy(rshape, bshape, sizeof(int64_t) * nbd);
  for (int k = 0; k < nc; k++) rshape[nbd + k] = core[k];
  if (res) {
    if (res->ndim < ncore)
      return ndt__error(NDT_ERR_VALUE, "matmul: Output operand 0 does not have enough dimensions "
                       "(has %d, gufunc core with signature %s requires %d)", res->ndim, SIG,
                       ncore);
    for (int k = 0; k < nc; k++) {
      int64_t have = res->shape[res->ndim - nc + k];
      if (have != core[k])
        return ndt__error(NDT_ERR_VALUE, "matmul: Output operand 0 has a mismatch in its core "
                         "dimension %d, with gufunc signature %s (size %lld is different from "
                         "%lld)", k, SIG, (long long)have, (long long)core[k]);
    }
    /* the output's loop dims may add batch dims but never broadcast */
    int ond = res->ndim - nc, nd2;
    int64_t sh2[NDT_MAXDIMS];
    int nds[2] = {nbd, ond};
    const int64_t *shs[2] = {bshape, res->shape};
    int ok = ndt_broadcast_shapes(2, nds, shs, &nd2, sh2) == NDT_OK && nd2 == ond;
    for (int k = 0; ok && k < ond; k++) ok = sh2[k] == res->shape[k];
    if (!ok) {
      char s1[300], s2[300];
      fmt_dims(s1, sizeof s1, res->ndim, res->shape);
      fmt_dims(s2, sizeof s2, rnd, rshape);
      return ndt__error(NDT_ERR_SHAPE, "non-broadcastable output operand with shape %s doesn't "
                       "match the broadcast shape %s", s1, s2);
    }
    nbd = ond;
    memcpy(bshape, res->shape, sizeof(int64_t) * nbd);
    rnd = res->ndim;
  } else {
    ndt_status st = ndt__array_new(&res, ct, rnd, rshape, 0);
    if (st) return st;
  }
  ndt_status st = NDT_OK;
  if (res->size == 0) goto done;
  if (K == 0) {
    uint8_t zero = 0;
    st = ndt_fill(res, &zero, NDT_BOOL);
    goto done;
  }
  {
    ndt_array *ca = NULL, *cb = NULL;
    if (*out && ndt__may_overlap(a, res)) {
      st = ndt_copy(&ca, a);
      if (st == NDT_OK) a = ca;
    }
    if (st == NDT_OK && *out && ndt__may_overlap(b, res)) {
      st = ndt_copy(&cb, b);
      if (st == NDT_OK) b = cb;
    }
    if (st == NDT_OK) {
      mm_arg *m = ndt__calloc(1, sizeof *m);
      if (!m) st = NDT_ERR_NOMEM;
      else {
        m->ct = ct;
        m->nbd = nbd;
        memcpy(m->bshape, bshape, sizeof(int64_t) * nbd);
        m->nbatch = 1;
        for (int d = 0; d < nbd; d++) m->nbatch *= bshape[d];
        if (an >= 2)
          core_view(a, aloop, nbd, bshape, M, K, a->strides[an - 2], a->strides[an - 1], &m->op[0],
                    m->own[0]);
        else
          core_view(a, 0, nbd, bshape, 1, K, 0, a->strides[0], &m->op[0], m->own[0]);
        if (bn >= 2)
          core_view(b, bloop, nbd, bshape, K, N, b->strides[bn - 2], b->strides[bn - 1],
                    &m->op[1], m->own[1]);
        else
          core_view(b, 0, nbd, bshape, K, 1, b->strides[0], 0, &m->op[1], m->own[1]);
        int rn = res->ndim;
        int64_t crs = an >= 2 ? res->strides[rn - (bn >= 2 ? 2 : 1)] : 0;
        int64_t ccs = bn >= 2 ? res->strides[rn - 1] : 0;
        core_view(res, nbd, nbd, bshape, M, N, crs, ccs, &m->op[2], NULL);
        st = mm_record(m);
        ndt__mfree(m);
      }
    }
    ndt_free(ca);
    ndt_free(cb);
  }
done:
  if (st) {
    if (!*out) ndt_free(res);
    return st;
  }
  *out = res;
  return NDT_OK;
}

/* ---- dot -------------------------------------------------------------- */
static ndt_status dot_(ndt_array **out, const ndt_array *a, const ndt_array *b);

ndt_status ndt_dot(ndt_array **out, const ndt_array *a, const ndt_array *b) {
  /* a 0-d operand: NumPy multiplies (its errors are "multiply"'s) */
  if (a && b && (a->ndim == 0 || b->ndim == 0)) return dot_(out, a, b);
  ndt_fp_group_begin("dot");
  ndt_status st = dot_(out, a, b);
  ndt_fp_group_end();
  return st;
}

static ndt_status dot_(ndt_array **out, const ndt_array *a, const ndt_array *b) {
  if (!a || !b || !out) return ndt__error(NDT_ERR_VALUE, "dot: NULL argument");
  int an = a->ndim, bn = b->ndim;
  ndt_dtype rt;
  int rnd = 0;
  int64_t rshape[NDT_MAXDIMS];
  if (an == 0 || bn == 0) {
    const ndt_array *in[2] = {a, b};
    ndt_status st = ndt_ufunc_result_type(NDT_MULTIPLY, 2, in, NDT_DTYPE_DEFAULT, &rt);
    if (st) return st;
    int nds[2] = {an, bn};
    const int64_t *shs[2] = {a->shape, b->shape};
    st = ndt_broadcast_shapes(2, nds, shs, &rnd, rshape);
    if (st) return st;
  } else {
    int64_t K = a->shape[an - 1];
    int bk = bn == 1 ? 0 : bn - 2;
    if (b->shape[bk] != K) {
      char s1[300], s2[300];
      fmt_dims(s1, sizeof s1, an, a->shape);
      fmt_dims(s2, sizeof s2, bn, b->shape);
      return ndt__error(NDT_ERR_VALUE, "shapes %s and %s not aligned: %lld (dim %d) != %lld "
                       "(dim %d)", s1, s2, (long long)K, an - 1, (long long)b->shape[bk], bk);
    }
    rt = ndt_promote(a->dtype, 0, b->dtype, 0);
    rnd = an - 1 + (bn >= 2 ? bn - 1 : 0);
    if (rnd > NDT_MAXDIMS) return ndt__error(NDT_ERR_VALUE, "dot: too many dimensions");
    for (int k = 0; k < an - 1; k++) rshape[k] = a->shape[k];
    for (int k = 0; k < bn - 2; k++) rshape[an - 1 + k] = b->shape[k];
    if (bn >= 2) rshape[rnd - 1] = b->shape[bn - 1];
  }
  if (*out) {
    const ndt_array *o = *out;
    int ok = o->dtype == rt && o->ndim == rnd && ndt_is_c_contiguous(o) && !o->readonly;
    for (int k = 0; ok && k < rnd; k++) ok = o->shape[k] == rshape[k];
    if (!ok)
      return ndt__error(NDT_ERR_VALUE, "output array is not acceptable (must have the right "
                       "datatype, number of dimensions, and be a C-Array)");
  }
  if (an == 0 || bn == 0) return ndt_binary(out, NDT_MULTIPLY, a, b);
  if (bn <= 2 || an == 1) return ndt_matmul(out, a, b);
  /* N-d x M-d (M >= 3): C[i..., j..., n] = sum_k a[i..., k] b[j..., k, n].
   * One product (P, K) @ (j..., K, N) -> (j..., P, N), then the axes are
   * moved into place by a copy. */
  int64_t P = 1, K = a->shape[an - 1];
  for (int k = 0; k < an - 1; k++) P *= a->shape[k];
  int64_t s2[2] = {P, K};
  ndt_array *a2 = NULL, *tmp = NULL, *tv = NULL, *pv = NULL;
  ndt_status st = ndt_reshape(&a2, a, 2, s2);
  if (st == NDT_OK) st = ndt_matmul(&tmp, a2, b);
  if (st == NDT_OK) {
    /* tmp (j..., P, N) viewed as (j..., i..., N), then (i..., j..., N) */
    int q = bn - 2, p = an - 1, nd = q + p + 1;
    int64_t vs[NDT_MAXDIMS];
    for (int k = 0; k < q; k++) vs[k] = b->shape[k];
    for (int k = 0; k < p; k++) vs[q + k] = a->shape[k];
    vs[nd - 1] = b->shape[bn - 1];
    st = ndt_reshape(&tv, tmp, nd, vs);
    int perm[NDT_MAXDIMS];
    for (int k = 0; k < p; k++) perm[k] = q + k;
    for (int k = 0; k < q; k++) perm[p + k] = k;
    perm[nd - 1] = nd - 1;
    if (st == NDT_OK) st = ndt_transpose(&pv, tv, perm);
  }
  if (st == NDT_OK) {
    if (*out) st = ndt_assign(*out, pv, NDT_CAST_SAME_KIND);
    else st = ndt_copy(out, pv);
  }
  ndt_free(a2);
  ndt_free(tmp);
  ndt_free(tv);
  ndt_free(pv);
  return st;
}
