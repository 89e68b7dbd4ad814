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
