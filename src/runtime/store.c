/* store.c - tiled stores: the tiling rule and tile memory. */
#include <string.h>
#include "internal.h"

/* The tiling rule. A tile holds whole "rows" of the C-order array: it spans
 * full extents on the axes after `axis`, a range of `axis`, and single
 * indices before it, so every tile is a rectangular block and a contiguous
 * range of the flat array. `axis` is the first axis whose rows fit the target
 * size; its extent is split into equal pieces. The result depends on shape,
 * itemsize and the target only - never on workers or ranks - which is what
 * makes results reproducible. */
void ndt__tiling_for(int ndim, const int64_t *shape, int itemsize, int64_t tile_bytes,
                    ndt_tiling *t) {
  int64_t size = 1;
  for (int k = 0; k < ndim; k++) size *= shape[k];
  if (tile_bytes < itemsize) tile_bytes = itemsize;
  if (size == 0 || size * itemsize <= tile_bytes || ndim == 0) {
    t->period = size > 0 ? size : 1;
    t->seg = t->period;
    t->per = 1;
    t->ntiles = 1;
    t->axis = -1;
    return;
  }
  /* inner = elements in one index of `axis` (the product of later extents) */
  int axis = ndim - 1;
  int64_t inner = 1;
  while (axis > 0 && inner * shape[axis] * itemsize <= tile_bytes) {
    inner *= shape[axis];
    axis--;
  }
  /* now inner*itemsize fits and inner*shape[axis]*itemsize does not */
  int64_t n = shape[axis];
  int64_t k = tile_bytes / (inner * itemsize);
  if (k < 1) k = 1;
  int64_t m = (n + k - 1) / k;       /* pieces of axis */
  /* Many ranks own contiguous runs of tiles (ndt__store_new). When the
   * pieces split the leading axis, their count is made a multiple of the
   * ranks, so each rank's run ends where theirs does in every array of
   * that leading extent, whatever its dtype: (8, 704, 768) frames split 4 +
   * 4 as float32 (two tiles a frame) and as bool (which took three frames a
   * tile, 3 + 3 + 2, and put frames 4 and 5 on the other rank: 3 MB a
   * frame moved in the X-ray job on 2 ranks). */
  int R = ndt__comm_size_;
  if (axis == 0 && R > 1 && n >= R && m % R) m += R - m % R;
  int64_t c = (n + m - 1) / m;       /* balanced piece length */
  m = (n + c - 1) / c;
  t->period = n * inner;
  t->seg = c * inner;
  t->per = m;
  t->ntiles = (size / t->period) * m;
  t->axis = axis;
}

int64_t ndt_tiles_for(int ndim, const int64_t *shape, ndt_dtype ty) {
  if (ty < 0 || ty >= NDT_NTYPES || ndim < 0 || ndim > NDT_MAXDIMS) return 0;
  ndt_tiling t;
  ndt__tiling_for(ndim, shape, ndt__traits[ty].size, ndt__rt_tile_bytes(), &t);
  return t.ntiles;
}

ndt_store *ndt__store_alloc(int64_t ntiles) {
  /* the tiles follow the store: one allocation per array (a small one is
   * made and freed per call on the inline path) */
  size_t al = _Alignof(ndt_tile), head = (sizeof(ndt_store) + al - 1) / al * al;
  if (ntiles < 1) ntiles = 1;
  if ((uint64_t)ntiles > (SIZE_MAX - head) / sizeof(ndt_tile)) {
    ndt__error(NDT_ERR_NOMEM, "cannot allocate %lld tiles", (long long)ntiles);
    return NULL;
  }
  ndt_store *s = ndt__calloc(1, head + (size_t)ntiles * sizeof(ndt_tile));
  if (s) s->tiles = (ndt_tile *)((char *)s + head);
  return s;
}

/* Set once a device is registered (proc.c): then the tiles of lazy and
 * unset stores start valid nowhere (ndt__store_new). */
static atomic_int unset_nowhere;
static void (*plan_drop)(ndt_store *s);   /* the device plan's (proc.c) */
void ndt__store_devices_on(void (*drop)(ndt_store *s)) {
  plan_drop = drop;
  atomic_store_explicit(&unset_nowhere, 1, memory_order_relaxed);
}

ndt_status ndt__store_new(ndt_store **out, ndt_dtype ty, int ndim, const int64_t *shape,
                         int zero) {
  ndt_status st = ndt__runtime_ensure();
  if (st) return st;
  int itemsize = ndt__traits[ty].size;
  int64_t size = 1;
  for (int k = 0; k < ndim; k++) {
    if (shape[k] < 0) return ndt__error_at(NDT_ERR_VALUE, NDT_KIND_VALUE, "shape", "negative dimensions are not allowed");
    if (shape[k] && size > INT64_MAX / shape[k] / itemsize)
      return ndt__error(NDT_ERR_VALUE, "array is too big; `arr.size * arr.dtype.itemsize` "
                                      "is larger than the maximum possible size.");
    size *= shape[k];
  }
  /* The whole store counts now, even when its tiles come later: an array
   * that cannot fit fails here, at once, not tiles later when memory ran
   * out (or the OOM killer ended the process). */
  int64_t nbytes = size * itemsize;
  if (!ndt__mem_reserve(nbytes)) return ndt__nomem_array(nbytes, ndim, shape, ty);
  ndt_tiling tl;
  ndt__tiling_for(ndim, shape, itemsize, ndt__rt_tile_bytes(), &tl);
  int rank = ndt_rank(), lazy = (zero & NDT_STORE_LAZY) != 0;
  int unset = (zero & (NDT_STORE_LAZY | NDT_STORE_UNSET)) != 0;
  zero &= 1;
  ndt_store *s = ndt__store_alloc(tl.ntiles);
  if (!s) {
    ndt__mem_unreserve(nbytes);
    return NDT_ERR_NOMEM;
  }
  atomic_init(&s->reserved, nbytes);
  atomic_init(&s->refs, 1);
  s->dtype = ty;
  s->zero = zero != 0;
  s->itemsize = itemsize;
  s->size = size;
  s->period = tl.period;
  s->seg = tl.seg;
  s->per = tl.per;
  s->ntiles = tl.ntiles;
  /* A large store whose tiles are all here and in element order (one
   * period) is one buffer, tiles back to back: views across tiles are then
   * used in place (bind.c, matmul). */
  if (!lazy && ndt__comm_size_ == 1 && tl.ntiles > 1 && tl.per == tl.ntiles)
    s->run = ndt__alloc_data_run((size_t)size * itemsize, zero);
  for (int64_t i = 0; i < tl.ntiles; i++) {
    ndt_tile *t = &s->tiles[i];
    ndt__tile_bounds(&tl, i, size, &t->start, &t->len);
    t->store = s;
    /* contiguous runs of tiles per rank: neighbours (halos) stay local */
    t->owner = (int)(i * ndt__comm_size_ / tl.ntiles);
    /* With devices, a tile of a lazy or unset store holds no value until
     * a task writes it: valid nowhere (proc.c's acquire and plan copy
     * nothing in for its first writer). Else a result written in pieces (a
     * cast into a dtype of other tiles: a piece per input tile) was copied
     * in from the host for its first piece on a device, unwritten bytes
     * and all. */
    t->valid = unset && !zero && atomic_load_explicit(&unset_nowhere, memory_order_relaxed) ? 0 : 1;
    if (t->owner != rank || lazy) continue;   /* allocated where it is first needed */
    if (s->run) {
      t->data = s->run + (size_t)t->start * itemsize;
      continue;
    }
    t->data = ndt__alloc_data((size_t)t->len * itemsize, zero);
    if (!t->data && ndt__comm_size_ > 1) {
      /* Many ranks: memory may run out on this rank only, and all ranks
       * must fail at the same call; the tile is allocated again at its first
       * use, and a failure there is reported on every rank at the next
       * wait. (Agreeing here would cost a collective per new array.) */
      continue;
    }
    if (!t->data) {
      s->ntiles = i;  /* free what was allocated */
      ndt__store_decref(s);
      return ndt__nomem_array(nbytes, ndim, shape, ty);
    }
  }
  *out = s;
  return NDT_OK;
}

ndt_status ndt__store_new_bytes(ndt_store **out, int64_t nbytes) {
  int64_t n = nbytes > 0 ? nbytes : 1;
  if (!ndt__mem_reserve(n)) return ndt__nomem_array(n, 1, &n, NDT_UINT8);
  ndt_store *s = ndt__store_alloc(1);
  if (!s) {
    ndt__mem_unreserve(n);
    return NDT_ERR_NOMEM;
  }
  atomic_init(&s->reserved, n);
  atomic_init(&s->refs, 1);
  s->dtype = NDT_UINT8;
  s->itemsize = 1;
  s->size = s->period = s->seg = nbytes > 0 ? nbytes : 1;
  s->per = s->ntiles = 1;
  s->tiles[0].len = s->size;
  s->tiles[0].valid = 1;
  s->tiles[0].store = s;
  s->tiles[0].scratch = 1;   /* owned by rank 0 */
  if (ndt_distributed()) {    /* allocated at first use (see ndt__store_new) */
    *out = s;
    return NDT_OK;
  }
  s->tiles[0].data = ndt__alloc_data((size_t)s->size, 0);
  if (!s->tiles[0].data) {
    ndt__mfree(s);
    ndt__mem_unreserve(n);
    return NDT_ERR_NOMEM;
  }
  *out = s;
  return NDT_OK;
}

ndt_status ndt__store_new_bytes_on(ndt_store **out, int64_t nbytes, int rank) {
  ndt_status st = ndt__store_new_bytes(out, nbytes);
  if (st == NDT_OK) {
    (*out)->tiles[0].owner = rank;
    (*out)->tiles[0].scratch = 0;   /* a placement hint: its writers run on rank */
  }
  return st;
}

char *ndt__tile_buffer(ndt_tile *t) {
  if (!t->data) t->data = ndt__alloc_data((size_t)t->len * t->store->itemsize, t->store->zero);
  return t->data;
}

void ndt__store_incref(ndt_store *s) { atomic_fetch_add(&s->refs, 1); }

/* The store's part of the memory budget goes back once. */
static void give_back_budget(ndt_store *s) {
  int64_t r = atomic_exchange(&s->reserved, 0);
  if (r) ndt__mem_unreserve(r);
}

void ndt__store_drop_handle(ndt_store *s) {
  /* The program dropped its last array on the store: its bytes leave the
   * budget now, in program order, though pending tasks may hold the
   * buffers a little longer (the look-ahead bounds those). An array made
   * right after `del a` of the same size then fits. */
  give_back_budget(s);
  if (plan_drop) plan_drop(s);   /* with devices: the plan's copies of it are garbage */
  if (atomic_load(&s->refs) < 2 || s->doomed) return;   /* freed right away */
  int64_t b = 0;
  for (int64_t i = 0; i < s->ntiles; i++)
    if (s->tiles[i].data) b += s->tiles[i].len * s->itemsize;
  s->doomed = b;
  ndt__mem_doomed_add(b);
}

/* The scheduler's pending uses of a tile go through this hook (sched.c sits
 * above store.c and installs it when it starts; no tile has uses before). */
static void (*release_uses)(ndt_tile *t);
void ndt__store_set_release(void (*fn)(ndt_tile *t)) { release_uses = fn; }

void ndt__tile_bounds(const ndt_tiling *tl, int64_t i, int64_t size, int64_t *start,
                      int64_t *len) {
  int64_t p = i / tl->per, q = i % tl->per;
  *start = p * tl->period + q * tl->seg;
  int64_t end = *start + tl->seg;
  if (end > (p + 1) * tl->period) end = (p + 1) * tl->period;
  if (end > size) end = size;
  *len = end - *start;
}

void ndt__store_decref(ndt_store *s) {
  if (!s || atomic_fetch_sub(&s->refs, 1) != 1) return;
  if (s->doomed) ndt__mem_doomed_add(-s->doomed);
  for (int64_t i = 0; i < s->ntiles; i++) {
    if (release_uses) release_uses(&s->tiles[i]);
    if (!s->run) ndt__free_data_sized(s->tiles[i].data, (size_t)s->tiles[i].len * s->itemsize);
  }
  /* a store over another's memory (ndt_view_itemsize) frees none of it;
   * memory its caller owns (ndt_from_memory) goes back to the caller */
  if (s->run && !s->borrowed)
    ndt__free_data_sized(s->run, (size_t)s->size * s->itemsize);
  if (s->alias_of) ndt__store_decref(s->alias_of);
  if (s->release) s->release(s->release_ctx);
  give_back_budget(s);
  ndt__mfree(s);   /* and its tiles (ndt__store_alloc) */
}

ndt_status ndt__store_make_run(ndt_store *s) {
  if (s->run || s->ntiles < 2) return NDT_OK;
  size_t isz = (size_t)s->itemsize;
  char *run = ndt__alloc_data((size_t)s->size * isz, s->zero);
  if (!run) return ndt__error(NDT_ERR_NOMEM, "cannot move an array of %lld bytes into one buffer",
                             (long long)(s->size * s->itemsize));
  for (int64_t i = 0; i < s->ntiles; i++) {
    ndt_tile *t = &s->tiles[i];
    /* a tile without a buffer was never written (a lazy result): the run's
     * own contents (zeroed when the store is) stand for it */
    if (t->data) {
      memcpy(run + (size_t)t->start * isz, t->data, (size_t)t->len * isz);
      ndt__free_data_sized(t->data, (size_t)t->len * isz);
    }
    t->data = run + (size_t)t->start * isz;
  }
  s->run = run;
  return NDT_OK;
}
