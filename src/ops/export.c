/* export.c - lending an array's host memory in place (the buffer protocol,
 * ctypes).
 *
 * NumPy hands out the address of an array's memory, and the borrower reads
 * and writes it between NumPy calls. Here tasks run behind the program, so a
 * borrower could meet a task still writing (or still to read) the same
 * memory. A store lent out is therefore marked: no work on it waits in a
 * fusion group (fusion.c), a task recorded on it marks the lent work
 * unsettled (sched.c), and ndt_host_settle - which the Python binding calls
 * as each call leaves the core - waits for those tasks, so between calls no
 * task touches lent memory, as with NumPy. Work on other stores stays
 * deferred, and the tasks of one call still run in parallel.
 *
 * The list of lent stores is touched by the recording thread only. */
#include <string.h>
#include "exec.h"

atomic_int ndt__lent_stores, ndt__lent_unsettled;
static ndt_store **lent;
static int nlent, caplent;
static ndt_status lend(ndt_store *s);
static void unlend(ndt_store *s);
static void lent_close(ndt_store *s);

ndt_status ndt_host_export(const ndt_array *a, int for_write, void **ptr) {
  ndt_status wst =
      for_write ? ndt__check_writeable(a, "buffer source array is read-only", 1) : NDT_OK;
  if (wst) return wst;
  if (ndt_distributed())
    return ndt__error(NDT_ERR_UNSUPPORTED, "an array spread over several ranks has no "
                     "host memory of its own to lend");
  ndt_store *s = a->store;
  static char no_elements[64];
  char *p = no_elements;   /* an empty view's address: valid, never read */
  if (a->size > 0) {
    int64_t lo, hi;
    ndt__view_extent(a, &lo, &hi);
    int64_t t0 = ndt_store_tile_of(s, lo), t1 = ndt_store_tile_of(s, hi);
    /* in one buffer already: one tile, or a store in one piece */
    int one = t0 == t1 || s->run;
    if (!one) {
      t0 = 0;
      t1 = s->ntiles - 1;
    }
    /* a borrower that writes waits for the readers too; so do tiles that
     * move, and the host's copy is then their only valid one */
    ndt_status st = ndt__wait_tiles(s, t0, t1, for_write || !one);
    /* values a failed (or cancelled) task was to write are not lent: a
     * borrower would read what the buffers held before */
    if (st == NDT_OK && atomic_load(&s->lost)) st = ndt__rt_lost_error(s);
    if (st) return st;
    if (!one) {
      st = ndt__store_make_run(s);
      if (st) return st;
    }
    for (int64_t i = t0; i <= t1; i++)
      if (!ndt__tile_buffer(&s->tiles[i]))
        return ndt__error(NDT_ERR_NOMEM, "the array's memory could not be allocated");
    p = ndt__host_elem(a, a->offset, 0, NULL);
    if (!p) return ndt__error(NDT_ERR_NOMEM, "the array's memory could not be allocated");
  }
  ndt_status st = lend(s);
  if (st) return st;
  *ptr = p;
  return NDT_OK;
}

/* One export of s ends; the last takes it off the list. */
static void unlend(ndt_store *s) {
  if (atomic_load(&s->lent) <= 0 || atomic_fetch_sub(&s->lent, 1) != 1) return;
  for (int i = 0; i < nlent; i++)
    if (lent[i] == s) {
      lent[i] = lent[--nlent];
      break;
    }
  atomic_fetch_sub(&ndt__lent_stores, 1);
  ndt__store_decref(s);
}

/* One more export of s (already settled by the caller as export needs). */
static ndt_status lend(ndt_store *s) {
  if (atomic_load(&s->lent) > 0) {
    atomic_fetch_add(&s->lent, 1);
    return NDT_OK;
  }
  if (nlent == caplent) {
    int cap = caplent ? 2 * caplent : 8;
    ndt_store **l = ndt__realloc(lent, (size_t)cap * sizeof *l);
    if (!l) return NDT_ERR_NOMEM;
    lent = l;
    caplent = cap;
  }
  atomic_fetch_add(&s->lent, 1);
  ndt__store_incref(s);   /* held while lent */
  lent[nlent++] = s;
  atomic_fetch_add(&ndt__lent_stores, 1);
  return NDT_OK;
}

void ndt_host_release(const ndt_array *a) { unlend(a->store); }

/* ---- a view of another itemsize (ndt_view_itemsize) --------------------
 * The tiles of a store hold whole elements of one size, and a view counts
 * store elements, so int64 memory read as int32 cannot be a view of the
 * int64 store. It is a view of a second store, of the new dtype, whose
 * tiles point into the first store's memory, moved into one buffer (its
 * run) as an export does. The runtime orders tasks per store, so it cannot
 * order a task on one store after a task on the other; both are therefore
 * lent, as memory lent to NumPy is: no work on them waits in a fusion
 * group and every call leaves both settled (ndt_host_settle), so work of
 * one call never meets work of another on the same memory. Within one call
 * ops see the two as overlapping (ndt__may_overlap) and copy first, as they
 * do for overlapping views of one store. */
/* A store of n elements of dtype t over the memory at mem, which it does
 * not own, tiled as any store of its size; lent for its life. */
static ndt_store *store_over(char *mem, ndt_dtype t, int64_t n, int readonly) {
  int isz = ndt__traits[t].size;
  ndt_tiling tl;
  ndt__tiling_for(1, &n, isz, ndt__rt_tile_bytes(), &tl);
  ndt_store *s = ndt__store_alloc(tl.ntiles);
  if (!s) return NULL;
  atomic_init(&s->refs, 1);
  s->dtype = t;
  s->itemsize = isz;
  s->size = n;
  s->period = tl.period;
  s->seg = tl.seg;
  s->per = tl.per;
  s->ntiles = tl.ntiles;
  s->run = mem;
  s->readonly = readonly;
  s->lent_for_life = 1;
  s->borrowed = 1;
  ndt__lent_close = lent_close;
  for (int64_t i = 0; i < tl.ntiles; i++) {
    ndt_tile *tt = &s->tiles[i];
    ndt__tile_bounds(&tl, i, n, &tt->start, &tt->len);
    tt->store = s;
    tt->valid = 1;
    tt->data = mem + (size_t)tt->start * (size_t)isz;
  }
  return s;
}

ndt_status ndt_view_itemsize(ndt_array **out, const ndt_array *a, ndt_dtype t, int ndim,
                             const int64_t *shape, const int64_t *bstrides, int64_t boffset) {
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "view: invalid dtype");
  if (ndim < 0 || ndim > NDT_MAXDIMS)
    return ndt__error(NDT_ERR_VALUE, "view: %d dimensions", ndim);
  if (ndt_distributed())
    return ndt__error(NDT_ERR_UNSUPPORTED, "view: an array spread over several ranks has no "
                     "memory of its own to read as another dtype");
  if (a->dtype != a->store->dtype || a->part)
    return ndt__error(NDT_ERR_UNSUPPORTED, "view: a .real/.imag view read as a dtype of "
                     "another size");
  int64_t n = ndt__traits[t].size, size = 1;
  if (boffset < 0 || boffset % n)
    return ndt__error(NDT_ERR_UNSUPPORTED, "view: byte offset %lld is not a multiple of %lld",
                     (long long)boffset, (long long)n);
  for (int k = 0; k < ndim; k++) {
    if (shape[k] < 0) return ndt__error_at(NDT_ERR_VALUE, NDT_KIND_VALUE, "shape", "negative dimensions are not allowed");
    if (shape[k] > 1 && bstrides[k] % n)
      return ndt__error(NDT_ERR_UNSUPPORTED, "view: byte stride %lld is not a multiple of %lld",
                       (long long)bstrides[k], (long long)n);
    size *= shape[k];
  }
  /* the memory is the root store's (a store over another's shares its run,
   * from byte 0) */
  ndt_store *root = a->store->alias_of ? a->store->alias_of : a->store;
  int64_t nbytes = root->size * root->itemsize, nsize = nbytes / n;
  /* every element inside the memory: NumPy's layout guarantees it, this
   * check makes sure of it */
  int64_t lo = boffset / n, hi = lo;
  if (size > 0) {
    for (int k = 0; k < ndim; k++) {
      int64_t d = (shape[k] - 1) * (bstrides[k] / n);
      if (d < 0) lo += d; else hi += d;
    }
    if (lo < 0 || hi >= nsize)
      return ndt__error(NDT_ERR_VALUE, "view: the view would reach outside the memory of its "
                       "array");
  }
  ndt_status st = ndt__wait_tiles(root, 0, root->ntiles - 1, 1);
  if (st) return st;
  st = ndt__store_make_run(root);
  if (st) return st;
  for (int64_t i = 0; i < root->ntiles; i++)
    if (!ndt__tile_buffer(&root->tiles[i]))
      return ndt__error(NDT_ERR_NOMEM, "the array's memory could not be allocated");
  char *mem = root->run ? root->run : root->tiles[0].data;

  ndt_store *s = store_over(mem, t, nsize, root->readonly);
  if (!s) return NDT_ERR_NOMEM;
  ndt_array *v = ndt__array_alloc();
  if (!v || lend(root) != NDT_OK) {
    ndt__mfree(v);
    ndt__mfree(s);   /* and its tiles */
    return NDT_ERR_NOMEM;
  }
  ndt__store_incref(root);
  s->alias_of = root;
  if (lend(s) != NDT_OK) {
    unlend(root);
    ndt__mfree(v);
    ndt__store_decref(s);
    return NDT_ERR_NOMEM;
  }
  v->store = s;
  atomic_fetch_add(&s->handles, 1);
  v->dtype = t;
  v->readonly = a->readonly;
  v->ndim = ndim;
  v->size = size;
  v->offset = size > 0 ? boffset / n : 0;
  for (int k = 0; k < ndim; k++) {
    v->shape[k] = shape[k];
    /* a unit axis may have any stride (NumPy keeps it): kept where it
     * counts whole elements */
    v->strides[k] = bstrides[k] % n == 0 ? bstrides[k] / n : 0;
  }
  *out = v;
  return NDT_OK;
}

static void lent_close(ndt_store *s) {
  /* no handle records work on s any more: what is pending finishes before
   * the memory stops being lent */
  ndt__rt_settle_store(s);
  ndt_store *root = s->alias_of;
  unlend(s);
  if (root) unlend(root);
}

/* ---- memory the caller owns (NumPy's frombuffer) ----------------------
 * A store whose one buffer is the caller's memory: lent for its life, as a
 * view of another itemsize is, so between calls no task touches it and the
 * caller (another library, a Python buffer) may read and write it; freed,
 * it calls release(ctx) instead of freeing the memory. */
ndt_status ndt_from_memory(ndt_array **out, void *data, ndt_dtype t, int64_t n, int readonly,
                           void (*release)(void *ctx), void *ctx) {
  *out = NULL;
  if ((int)t < 0 || t >= NDT_NTYPES) return ndt__error(NDT_ERR_TYPE, "from_memory: invalid dtype");
  if (n < 0) return ndt__error(NDT_ERR_VALUE, "negative dimensions are not allowed");
  int64_t isz = ndt__traits[t].size;
  if (n > 0 && (!data || (uintptr_t)data % (uintptr_t)isz))
    return ndt__error(NDT_ERR_UNSUPPORTED, "from_memory: memory not aligned to its dtype");
  if (ndt_distributed())
    return ndt__error(NDT_ERR_UNSUPPORTED, "from_memory: one process's memory cannot be an "
                     "array spread over several ranks");
  ndt_status st = ndt__runtime_ensure();
  if (st) return st;
  ndt_store *s = store_over(data, t, n, readonly != 0);
  ndt_array *v = s ? ndt__array_alloc() : NULL;
  if (!v || lend(s) != NDT_OK) {
    ndt__mfree(v);
    if (s) ndt__store_decref(s);   /* borrowed: the memory stays the caller's */
    return NDT_ERR_NOMEM;
  }
  /* from here on the store gives the memory back when it goes */
  s->release = release;
  s->release_ctx = ctx;
  v->store = s;
  atomic_fetch_add(&s->handles, 1);
  v->dtype = t;
  v->readonly = readonly != 0;
  v->ndim = 1;
  v->size = n;
  v->shape[0] = n;
  v->strides[0] = 1;
  *out = v;
  return NDT_OK;
}

/* ---- the binding's owner object (NumPy's .base) ------------------------ */
void ndt_set_owner_ctx(const ndt_array *a, void *ctx) { a->store->owner_ctx = ctx; }

void *ndt_owner_ctx(const ndt_array *a) {
  const ndt_store *s = a->store;
  if (s->owner_ctx) return s->owner_ctx;
  return s->alias_of ? s->alias_of->owner_ctx : NULL;
}

void ndt_set_owns_data(ndt_array *a, int owns) { a->owner = owns != 0; }

static const ndt_store *memory_of(const ndt_array *a) {
  return a->store->alias_of ? a->store->alias_of : a->store;
}

int ndt_same_memory(const ndt_array *a, const ndt_array *b) { return memory_of(a) == memory_of(b); }

int64_t ndt_memory_bytes(const ndt_array *a) {
  const ndt_store *s = memory_of(a);
  return s->size * s->itemsize;
}

void ndt_clear_owner_ctx(const ndt_array *a, void *ctx) {
  ndt_store *s = a->store;
  if (s->owner_ctx == ctx) s->owner_ctx = NULL;
  if (s->alias_of && s->alias_of->owner_ctx == ctx) s->alias_of->owner_ctx = NULL;
}

void ndt_host_settle(void) {
  if (!atomic_load_explicit(&ndt__lent_unsettled, memory_order_relaxed)) return;
  atomic_store(&ndt__lent_unsettled, 0);
  for (int i = 0; i < nlent; i++) ndt__rt_settle_store(lent[i]);
}

/* Filling or reading a whole array tile by tile from outside the core (a
 * file reader or writer, python/ndtile/io): each rank gets the host buffers
 * of the tiles it owns, so it reads from a file exactly what it owns, into
 * the buffer tasks will use, with no copy in between. Every rank calls this
 * for the same array at the same point of the program (as for any op): the
 * record of which ranks hold copies of which tiles, kept alike on every rank,
 * is then updated alike. */
ndt_status ndt_host_tiles(const ndt_array *a, int for_write, ndt_host_tile *out, int64_t cap,
                          int64_t *n) {
  *n = 0;
  ndt_store *s = a->store;
  /* the whole store, in C order: tile k's elements are then flat indices
   * [start, start + len) of a itself */
  if (a->part || a->dtype != s->dtype || a->offset != 0 || a->size != s->size ||
      !ndt_is_c_contiguous(a))
    return ndt__error(NDT_ERR_VALUE, "host tiles need a whole C-contiguous array, not a view");
  ndt_status wst = for_write ? ndt__check_writeable(a, "assignment destination is read-only", 1)
                             : NDT_OK;
  if (wst) return wst;
  /* no task may still use the tiles: a fresh array has none; for an older
   * one this waits (the fusion group too). As a write's wait it broadcasts
   * nothing, and on many ranks an error is agreed, so every rank fails
   * here together */
  ndt_status st = ndt__wait_tiles(s, 0, s->ntiles - 1, 1);
  if (st) return st;
  int me = ndt_rank();
  int64_t k = 0;
  for (int64_t i = 0; i < s->ntiles; i++) {
    ndt_tile *t = &s->tiles[i];
    if (t->owner != me) {
      /* another rank's tile: written there, so a copy of it here (or on any
       * other rank) is stale; every rank clears the same records */
      if (for_write) {
        t->everywhere = 0;
        t->ncopies = 0;
      }
      continue;
    }
    if (!ndt__tile_buffer(t))
      return ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile of %lld bytes",
                        (long long)t->len * s->itemsize);
    /* the host's copy becomes the only valid one (a device copy would be
     * stale once the caller writes) */
    char *p;
    st = ndt__tile_acquire(t, &ndt__host_memory, for_write, &p);
    if (st) return st;
    if (for_write) {
      t->everywhere = 0;
      t->ncopies = 0;
    }
    if (k < cap) out[k] = (ndt_host_tile){t->start, t->len, p};
    k++;
  }
  *n = k;
  return NDT_OK;
}
