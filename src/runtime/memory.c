/* memory.c - every allocation the library makes, with failure injection. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Counts down to an injected failure; 0 = off. Shared by all threads so a
 * test can make a deferred task's allocation fail too. */
static atomic_llong fail_after;

void ndt_debug_fail_alloc_after(int64_t n) { atomic_store(&fail_after, n > 0 ? n : 0); }

static int injected_failure(void) {
  long long v = atomic_load(&fail_after);
  while (v > 0) {
    if (atomic_compare_exchange_weak(&fail_after, &v, v - 1)) return v == 1;
  }
  return 0;
}

static void *nomem(size_t n) {
  ndt_error(NDT_ERR_NOMEM, "unable to allocate %zu bytes", n);
  return NULL;
}

void *ndt_malloc(size_t n) {
  if (injected_failure()) return nomem(n);
  void *p = malloc(n ? n : 1);
  return p ? p : nomem(n);
}

void *ndt_calloc(size_t count, size_t size) {
  if (injected_failure()) return nomem(count * size);
  void *p = calloc(count ? count : 1, size ? size : 1);
  return p ? p : nomem(count * size);
}

void *ndt_realloc(void *p, size_t n) {
  if (injected_failure()) return nomem(n);
  void *q = realloc(p, n ? n : 1);
  return q ? q : nomem(n);
}

void ndt_mfree(void *p) { free(p); }

void *ndt_alloc_data(size_t n, int zero) {
  if (injected_failure()) return nomem(n);
  size_t sz = (n + 63) & ~(size_t)63;
  if (sz == 0) sz = 64;
  if (sz < n) return nomem(n);
  void *p = aligned_alloc(64, sz);
  if (!p) return nomem(n);
  if (zero) memset(p, 0, sz);
  return p;
}

void ndt_free_data(void *p) { free(p); }
