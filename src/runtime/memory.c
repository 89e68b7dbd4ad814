/* memory.c - every allocation the library makes, with failure injection. */
#include <pthread.h>
#include <sys/mman.h>
#include <stdint.h>
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

/* Large tile buffers are recycled: a fresh mapping costs a page fault per
 * 4 KiB on first touch, which halves the speed of `c = a + b` on big arrays.
 * Freed buffers of >= CACHE_MIN bytes wait in a list (the list node lives in
 * the buffer itself) until a request of the same size, up to cache_limit
 * bytes in all. */
#define CACHE_MIN ((size_t)64 << 10)
typedef struct cached { size_t size; struct cached *next; } cached;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cached *cache_head;
static size_t cache_bytes, cache_limit = (size_t)32 << 20;

/* Buffers of CACHE_MIN bytes or more are mapped directly, so freeing one
 * returns its memory to the system at once (malloc would keep it in a worker
 * thread's arena, and peak memory would stay at its high-water mark). Those
 * of a tile's size (>= HUGE_MIN) are 2 MiB aligned and asked to be backed by
 * transparent huge pages: first touch then costs one fault per 2 MiB instead
 * of one per 4 KiB. */
#define HUGE ((size_t)2 << 20)
#define HUGE_MIN ((size_t)3 << 19)
#define PAGE ((size_t)4096)

static size_t rounded(size_t n) {
  if (n >= HUGE_MIN) return (n + HUGE - 1) & ~(HUGE - 1);
  if (n >= CACHE_MIN) return (n + PAGE - 1) & ~(PAGE - 1);
  return n ? (n + 63) & ~(size_t)63 : 64;
}

/* A new buffer of sz (rounded) bytes; *zeroed tells whether it is known zero. */
static void *fresh(size_t sz, int *zeroed) {
  *zeroed = 0;
  if (sz < CACHE_MIN) return aligned_alloc(64, sz);
  size_t align = sz >= HUGE_MIN ? HUGE : PAGE, len = sz + align;
  char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  uintptr_t a = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
  if (a > (uintptr_t)p) munmap(p, a - (uintptr_t)p);
  size_t tail = (uintptr_t)p + len - (a + sz);
  if (tail) munmap((char *)(a + sz), tail);
#ifdef MADV_HUGEPAGE
  if (align == HUGE) madvise((void *)a, sz, MADV_HUGEPAGE);
#endif
  *zeroed = 1;
  return (void *)a;
}

static void release(void *p, size_t sz) {
  if (sz < CACHE_MIN) free(p);
  else munmap(p, sz);
}

void *ndt_alloc_data(size_t n, int zero) {
  if (injected_failure()) return nomem(n);
  size_t sz = rounded(n);
  if (sz < n) return nomem(n);
  void *p = NULL;
  if (sz >= CACHE_MIN) {
    pthread_mutex_lock(&cache_lock);
    for (cached **c = &cache_head; *c; c = &(*c)->next)
      if ((*c)->size == sz) {
        p = *c;
        *c = (*c)->next;
        cache_bytes -= sz;
        break;
      }
    pthread_mutex_unlock(&cache_lock);
  }
  int zeroed = 0;
  if (!p) p = fresh(sz, &zeroed);
  if (!p) {
    ndt_release_cache();
    p = fresh(sz, &zeroed);
  }
  if (!p) return nomem(n);
  if (zero && !zeroed) memset(p, 0, sz);
  return p;
}

/* Large stores are mapped in one piece: their tiles then lie back to back,
 * so a region of rows that crosses tiles is still one strided matrix (matmul
 * hands such regions to BLAS in place). The cache could hold only a part of
 * such a store anyway. */
void *ndt_alloc_data_run(size_t each, int64_t count, size_t last) {
  if (count < 1 || each < HUGE || each % HUGE || last == 0) return NULL;
  size_t lr = rounded(last);
  if ((size_t)count > (SIZE_MAX - lr) / each) return NULL;
  size_t total = each * (size_t)count + lr;
  /* while a test injects failures, tiles are allocated one by one as ever */
  if (total <= cache_limit || atomic_load(&fail_after) > 0) return NULL;
  int zeroed;
  return fresh(total, &zeroed);
}

void ndt_free_data_sized(void *p, size_t n) {
  if (!p) return;
  size_t sz = rounded(n);
  if (sz >= CACHE_MIN) {
    pthread_mutex_lock(&cache_lock);
    if (cache_bytes + sz <= cache_limit) {
      cached *c = p;
      c->size = sz;
      c->next = cache_head;
      cache_head = c;
      cache_bytes += sz;
      p = NULL;
    }
    pthread_mutex_unlock(&cache_lock);
  }
  if (p) release(p, sz);
}

void ndt_release_cache(void) {
  pthread_mutex_lock(&cache_lock);
  cached *c = cache_head;
  cache_head = NULL;
  cache_bytes = 0;
  pthread_mutex_unlock(&cache_lock);
  while (c) {
    cached *next = c->next;
    release(c, c->size);
    c = next;
  }
}
