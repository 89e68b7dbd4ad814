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

ndt_status ndt_host_export(const ndt_array *a, int for_write, void **ptr) {
  if (for_write && a->readonly)
    return ndt__error(NDT_ERR_VALUE, "buffer source array is read-only");
  if (ndt_distributed())
    return ndt__error(NDT_ERR_UNSUPPORTED, "an array spread over several ranks has no "
                     "host memory of its own to lend");
  ndt_store *s = a->store;
  if (nlent == caplent) {
    int cap = caplent ? 2 * caplent : 8;
    ndt_store **l = ndt__realloc(lent, (size_t)cap * sizeof *l);
    if (!l) return NDT_ERR_NOMEM;
    lent = l;
    caplent = cap;
  }
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
  if (atomic_fetch_add(&s->lent, 1) == 0) {
    ndt__store_incref(s);   /* held while lent */
    lent[nlent++] = s;
    atomic_fetch_add(&ndt__lent_stores, 1);
  }
  *ptr = p;
  return NDT_OK;
}

void ndt_host_release(const ndt_array *a) {
  ndt_store *s = a->store;
  if (atomic_load(&s->lent) <= 0 || atomic_fetch_sub(&s->lent, 1) != 1) return;
  for (int i = 0; i < nlent; i++)
    if (lent[i] == s) {
      lent[i] = lent[--nlent];
      break;
    }
  atomic_fetch_sub(&ndt__lent_stores, 1);
  ndt__store_decref(s);
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
  if (for_write && a->readonly)
    return ndt__error(NDT_ERR_VALUE, "assignment destination is read-only");
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
