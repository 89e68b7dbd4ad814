/* memory.c - every allocation the library makes, with failure injection. */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
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
  ndt__error(NDT_ERR_NOMEM, "unable to allocate %zu bytes", n);
  return NULL;
}

static void cache_yield(size_t n);
/* Memory outside the tile buffers (a sort's index pairs, a host copy)
 * takes the cache's place rather than adding to it. */
#define YIELD_MIN ((size_t)1 << 20)

void *ndt__malloc(size_t n) {
  if (injected_failure()) return nomem(n);
  cache_yield(n);
  void *p = malloc(n ? n : 1);
  return p ? p : nomem(n);
}

void *ndt__calloc(size_t count, size_t size) {
  if (injected_failure()) return nomem(count * size);
  if (size && count >= YIELD_MIN / size) cache_yield(count * size);
  void *p = calloc(count ? count : 1, size ? size : 1);
  return p ? p : nomem(count * size);
}

void *ndt__realloc(void *p, size_t n) {
  if (injected_failure()) return nomem(n);
  cache_yield(n);
  void *q = realloc(p, n ? n : 1);
  return q ? q : nomem(n);
}

void ndt__mfree(void *p) { free(p); }

/* Large tile buffers are recycled: a fresh mapping costs a page fault and
 * the kernel's zeroing of every page on first touch, which halves the speed
 * of `c = a + b` on big arrays. Freed buffers of >= CACHE_MIN bytes wait in
 * a list (the list node lives in the buffer itself) until a request of the
 * same size. The cache only fills the room below the high-water mark of the
 * buffers in use: a freed buffer is kept while in use + cached stays at or
 * under the most that was ever in use at once, so recycling never raises
 * the peak memory above what the program's data once needed. A loop that
 * makes a result and drops the previous one reuses it every step. An
 * allocation that fails releases the cache and tries again; cache_limit
 * (NDTILE_CACHE_BYTES) caps it further. */
#define CACHE_MIN ((size_t)64 << 10)
typedef struct cached { size_t size; struct cached *next; } cached;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cached *cache_head;
static size_t cache_bytes, cache_limit = SIZE_MAX;

/* Bytes of data buffers handed out and not yet freed (rounded sizes), and
 * the highest that and that plus the cache have been. */
static atomic_llong live_bytes, peak_live, peak_held;
/* Bytes this thread allocated since ndt__take_allocated last asked: on the
 * recording thread, the memory the next task is recorded with. */
static _Thread_local int64_t allocated_here;
int64_t ndt__take_allocated(void) {
  int64_t n = allocated_here;
  allocated_here = 0;
  return n;
}
static void note_peak(atomic_llong *pk, long long v) {
  long long p = atomic_load(pk);
  while (v > p && !atomic_compare_exchange_weak(pk, &p, v)) {}
}
/* Bytes of stores the program dropped that pending tasks still hold. */
static atomic_llong doomed;
void ndt__mem_doomed_add(int64_t bytes) { atomic_fetch_add(&doomed, bytes); }
int64_t ndt__mem_doomed(void) { return atomic_load(&doomed); }

void ndt__mem_stats(int64_t *live, int64_t *cached, int64_t *plive, int64_t *pheld) {
  pthread_mutex_lock(&cache_lock);
  *cached = (int64_t)cache_bytes;
  pthread_mutex_unlock(&cache_lock);
  *live = atomic_load(&live_bytes);
  *plive = atomic_load(&peak_live);
  *pheld = atomic_load(&peak_held);
}
int64_t ndt__cache_limit(void) { return cache_limit == SIZE_MAX ? INT64_MAX : (int64_t)cache_limit; }

/* ---- the memories' counters (ndt_memory_stats_get) ----------------------
 * The host's are the data buffers' above. A backend's memory notes what it
 * holds (ndt__mem_note, from its alloc and free) and its capacity; each is
 * one atomic add, cheap enough for every allocation. */
static atomic_llong store_reserved;   /* the memory budget's (below) */
static atomic_llong mem_used[NDT_MAX_MEMS], mem_peak[NDT_MAX_MEMS], mem_cap[NDT_MAX_MEMS];
void ndt__mem_note(int id, int64_t delta) {
  if (id <= 0 || id >= NDT_MAX_MEMS) return;
  long long v = atomic_fetch_add(&mem_used[id], (long long)delta) + (long long)delta;
  if (delta > 0) note_peak(&mem_peak[id], v);
}
void ndt__mem_note_capacity(int id, int64_t bytes) {
  if (id > 0 && id < NDT_MAX_MEMS) atomic_store(&mem_cap[id], (long long)bytes);
}

/* Memory id's counters: bytes held now, at most so far, cached (for reuse),
 * at most counting the cache, reserved by live arrays, the capacity (-1:
 * unknown). The host's (id 0) are the data buffers' and the budget's. */
static int64_t limit_now(void);
void ndt__mem_counters(int id, int64_t out[6]) {
  if (id == 0) {
    int64_t live, cached, plive, pheld;
    ndt__mem_stats(&live, &cached, &plive, &pheld);
    /* (peak_held follows fresh mapped buffers only; small ones count in
     * the peak in use, which is never above it) */
    int64_t v[6] = {live, plive, cached, pheld > plive ? pheld : plive,
                    atomic_load(&store_reserved), limit_now()};
    memcpy(out, v, sizeof v);
    return;
  }
  int ok = id > 0 && id < NDT_MAX_MEMS;
  long long cap = ok ? atomic_load(&mem_cap[id]) : 0;
  int64_t used = ok ? atomic_load(&mem_used[id]) : 0, peak = ok ? atomic_load(&mem_peak[id]) : 0;
  int64_t v[6] = {used, peak, 0, peak, 0, cap > 0 ? cap : -1};
  memcpy(out, v, sizeof v);
}

void ndt__set_cache_limit(int64_t bytes) {
  pthread_mutex_lock(&cache_lock);
  cache_limit = bytes > 0 ? (size_t)bytes : 0;
  pthread_mutex_unlock(&cache_lock);
  ndt__trim_cache();
}

/* Buffers of CACHE_MIN bytes or more are mapped directly, so freeing one
 * returns its memory to the system at once (malloc would keep it in a worker
 * thread's arena, and peak memory would stay at its high-water mark). Those
 * of a tile's size (>= HUGE_MIN) are 2 MiB aligned and asked to be backed by
 * transparent huge pages: first touch then costs one fault per 2 MiB instead
 * of one per 4 KiB. */
#define HUGE ((size_t)2 << 20)
#define HUGE_MIN ((size_t)3 << 19)
#define PAGE ((size_t)4096)

/* Sizes under HUGE_MIN that the cache recycles come in classes, eight per
 * doubling (at most 1/8 more than asked): tiles of arrays of nearly the same
 * shape (a frame, the frame padded by a few pixels, one row shorter) then
 * share buffers. Rounded to pages only, each such size was its own class,
 * every one a miss that shed the cache: the X-ray job at 704x768 mapped
 * (and faulted in) about 16 MB of fresh pages per frame. */
static size_t rounded(size_t n) {
  if (n >= HUGE_MIN) return (n + HUGE - 1) & ~(HUGE - 1);
  if (n >= CACHE_MIN) {
    size_t step = CACHE_MIN / 8;
    while (step * 16 <= n) step *= 2;   /* pow2 <= n < 2 pow2: step = pow2 / 8 */
    return (n + step - 1) & ~(step - 1);
  }
  return n ? (n + 63) & ~(size_t)63 : 64;
}

static atomic_llong mapped_large;   /* fresh mappings of NDT__PIN_MIN bytes or more */

/* A new buffer of sz (rounded) bytes; *zeroed tells whether it is known zero. */
static void *fresh(size_t sz, int *zeroed) {
  *zeroed = 0;
  if (sz < CACHE_MIN) return aligned_alloc(64, sz);
  if (sz >= NDT__PIN_MIN) atomic_fetch_add(&mapped_large, 1);
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

/* ---- pinned host buffers (ndt__host_pin) ----------------------------
 * A device's copies from pageable memory run at about half the bus's speed
 * and are not asynchronous; a large buffer (a tile's, a store's run) is
 * therefore registered (page-locked) with the device memory that first
 * copies it, and stays registered while it lives, in use or cached: a loop
 * that reuses its buffers pays the registration once. A buffer is
 * unregistered before it goes back to the system (release). The marks are
 * a table of the registered buffers (mem: the memory that registered it,
 * NULL: refused, not asked again while the buffer lives). Small buffers are
 * not registered: they come from malloc, whose blocks share pages. */
_Static_assert(NDT__PIN_MIN >= CACHE_MIN, "registered buffers are mapped ones");
typedef struct { char *p; size_t n; ndt_memory *mem; } pin_mark;
static pthread_mutex_t pin_lock = PTHREAD_MUTEX_INITIALIZER;
/* the marks by buffer address, looked up at every device copy: an
 * open-addressing table (p NULL: an empty slot), at most half full */
static pin_mark *pin_tab;
static size_t pin_cap;   /* 0, or a power of 2 */
static int pin_n;
static atomic_int pin_any;   /* pin_n > 0: release looks in the table */
static atomic_llong pin_made, pin_refused;

/* the slot p hashes to (buffers are page aligned: the page number, mixed) */
static size_t pin_home(const char *p) {
  uint64_t h = (uint64_t)((uintptr_t)p >> 12) * 0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ (h >> 32)) & (pin_cap - 1);
}

/* p's slot, or -1 */
static ptrdiff_t pin_find(const char *p) {
  if (!pin_cap) return -1;
  for (size_t i = pin_home(p);; i = (i + 1) & (pin_cap - 1)) {
    if (pin_tab[i].p == p) return (ptrdiff_t)i;
    if (!pin_tab[i].p) return -1;
  }
}

static void pin_put(pin_mark mk) {
  size_t i = pin_home(mk.p);
  while (pin_tab[i].p) i = (i + 1) & (pin_cap - 1);
  pin_tab[i] = mk;
  pin_n++;
}

/* room for one more mark (plain calloc: ndt__malloc could shed the cache,
 * and release takes pin_lock) */
static int pin_room(void) {
  if (2 * ((size_t)pin_n + 1) <= pin_cap) return 1;
  size_t cap = pin_cap ? 2 * pin_cap : 64, old_cap = pin_cap;
  pin_mark *t = calloc(cap, sizeof *t), *old = pin_tab;
  if (!t) return 0;
  pin_tab = t;
  pin_cap = cap;
  pin_n = 0;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].p) pin_put(old[i]);
  free(old);
  return 1;
}

/* empties slot i, moving back the marks after it that probed past it */
static void pin_remove(size_t i) {
  const size_t mask = pin_cap - 1;
  for (size_t j = (i + 1) & mask; pin_tab[j].p; j = (j + 1) & mask) {
    size_t h = pin_home(pin_tab[j].p);
    /* the mark at j may move to i unless its home lies in (i, j] */
    if (((j - h) & mask) >= ((j - i) & mask)) {
      pin_tab[i] = pin_tab[j];
      i = j;
    }
  }
  pin_tab[i].p = NULL;
  pin_n--;
}

int ndt__host_pin(ndt_memory *m, void *p, size_t n) {
  int first_refusal = 0;
  if (!p || !m->iface->host_register) return 0;
  size_t sz = rounded(n);
  if (sz < NDT__PIN_MIN) return 0;
  pthread_mutex_lock(&pin_lock);
  /* (no room for the mark: the copy goes from pageable memory) */
  if (pin_find(p) < 0 && pin_room()) {
    int ok = m->iface->host_register(m, p, sz) == 0;
    pin_put((pin_mark){p, sz, ok ? m : NULL});
    atomic_store(&pin_any, 1);
    if (ok) atomic_fetch_add(&pin_made, 1);
    else first_refusal = atomic_fetch_add(&pin_refused, 1) == 0;
  }
  pthread_mutex_unlock(&pin_lock);
  return first_refusal;
}

void ndt__host_pin_stats(int64_t out[4]) {
  int64_t now = 0;
  pthread_mutex_lock(&pin_lock);
  for (size_t i = 0; i < pin_cap; i++) now += pin_tab[i].p && pin_tab[i].mem;
  pthread_mutex_unlock(&pin_lock);
  out[0] = now;
  out[1] = atomic_load(&pin_made);
  out[2] = atomic_load(&pin_refused);
  out[3] = atomic_load(&mapped_large);
}

/* Before buffer p of sz bytes goes back to the system: unregistered. */
static void unpin(char *p, size_t sz) {
  if (sz < NDT__PIN_MIN || !atomic_load(&pin_any)) return;
  pthread_mutex_lock(&pin_lock);
  ptrdiff_t i = pin_find(p);
  if (i >= 0) {
    ndt_memory *m = pin_tab[i].mem;
    if (m && m->iface->host_unregister) m->iface->host_unregister(m, p, pin_tab[i].n);
    pin_remove((size_t)i);
    if (!pin_n) atomic_store(&pin_any, 0);
  }
  pthread_mutex_unlock(&pin_lock);
}

static void release(void *p, size_t sz) {
  if (sz < CACHE_MIN) free(p);
  else {
    unpin(p, sz);
    munmap(p, sz);
  }
}

/* A request the cache cannot serve: releases cached buffers (of other sizes)
 * until in use + cached + sz fits under the high-water mark again. */
static void shed(size_t sz) {
  for (;;) {
    long long live = atomic_load(&live_bytes);
    pthread_mutex_lock(&cache_lock);
    cached *c = NULL;
    if (cache_head && live + (long long)(cache_bytes + sz) > atomic_load(&peak_live)) {
      c = cache_head;
      cache_head = c->next;
      cache_bytes -= c->size;
    }
    pthread_mutex_unlock(&cache_lock);
    if (!c) return;
    release(c, c->size);
  }
}

/* Buffers of SMALL_MIN up to CACHE_MIN bytes come from malloc, which
 * consolidates its free lists on every request of that size: a loop over
 * small arrays (`x += 2*y` on 1,000 elements) spent a tenth of its time
 * there. A few freed ones wait in slots for a request of the same size.
 * Below 1 KiB too: aligned_alloc splits a larger chunk and frees the
 * pieces on every call (about 700 instructions, a tenth of `a.copy()` on
 * 100 elements). */
#define SMALL_MIN ((size_t)64)
#define SMALL_SLOTS 16
static void *small_p[SMALL_SLOTS];
static size_t small_sz[SMALL_SLOTS];
static int small_n;

static void *small_take(size_t sz) {
  void *p = NULL;
  pthread_mutex_lock(&cache_lock);
  for (int i = small_n - 1; i >= 0; i--)
    if (small_sz[i] == sz) {
      p = small_p[i];
      small_n--;
      small_p[i] = small_p[small_n];
      small_sz[i] = small_sz[small_n];
      break;
    }
  pthread_mutex_unlock(&cache_lock);
  return p;
}

static int small_put(void *p, size_t sz) {
  int kept = 0;
  pthread_mutex_lock(&cache_lock);
  if (small_n < SMALL_SLOTS) {
    small_p[small_n] = p;
    small_sz[small_n++] = sz;
    kept = 1;
  }
  pthread_mutex_unlock(&cache_lock);
  return kept;
}

void *ndt__alloc_data(size_t n, int zero) {
  if (injected_failure()) return nomem(n);
  size_t sz = rounded(n);
  if (sz < n) return nomem(n);
  void *p = NULL;
  if (sz >= SMALL_MIN && sz < CACHE_MIN) p = small_take(sz);
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
  if (!p && sz >= CACHE_MIN) shed(sz);
  if (!p) p = fresh(sz, &zeroed);
  if (!p) {
    ndt__release_cache();
    p = fresh(sz, &zeroed);
  }
  if (!p) return nomem(n);
  if (zero && !zeroed) memset(p, 0, sz);
  allocated_here += (int64_t)sz;
  long long l = atomic_fetch_add(&live_bytes, (long long)sz) + (long long)sz;
  note_peak(&peak_live, l);
  if (zeroed) {   /* only a fresh buffer raises in use + cached */
    pthread_mutex_lock(&cache_lock);
    note_peak(&peak_held, l + (long long)cache_bytes);
    pthread_mutex_unlock(&cache_lock);
  }
  return p;
}

/* Large stores are one buffer: their tiles then lie back to back, so a view
 * that crosses tiles is still one strided array (the binder, bind.c, and matmul use
 * such views in place instead of gathering them). Stores of RUN_MIN bytes
 * or more only (two default tiles): tiles of smaller ones are recycled one
 * by one through the cache. (At 32 MiB, the k-means workload's 13-26 MB
 * arrays were gathered into scratch of other sizes than the tiles, which
 * the cache, matching sizes exactly, did not keep: 55 fresh 2 MiB tiles
 * and nine fresh 12.8 MB scratch buffers a run, a third of its time in the
 * kernel's page zeroing.) */
#define RUN_MIN ((size_t)4 << 20)
void *ndt__alloc_data_run(size_t total, int zero) {
  /* while a test injects failures, tiles are allocated one by one as ever */
  if (total < RUN_MIN || atomic_load(&fail_after) > 0) return NULL;
  return ndt__alloc_data(total, zero);
}

void ndt__free_data_sized(void *p, size_t n) {
  if (!p) return;
  size_t sz = rounded(n);
  long long live = atomic_fetch_sub(&live_bytes, (long long)sz) - (long long)sz;
  if (sz >= CACHE_MIN) {
    pthread_mutex_lock(&cache_lock);
    if (cache_bytes + sz <= cache_limit &&
        live + (long long)(cache_bytes + sz) <= atomic_load(&peak_live)) {
      cached *c = p;
      c->size = sz;
      c->next = cache_head;
      cache_head = c;
      cache_bytes += sz;
      p = NULL;
    }
    pthread_mutex_unlock(&cache_lock);
  }
  if (p && sz >= SMALL_MIN && sz < CACHE_MIN && small_put(p, sz)) p = NULL;
  if (p) release(p, sz);
}

/* Releases cached buffers of n bytes in all, or all of them (nothing for
 * less than YIELD_MIN: small copies would empty the cache a piece at a
 * time). */
static void cache_yield(size_t n) {
  size_t done = 0;
  if (n < YIELD_MIN) return;
  while (done < n) {
    pthread_mutex_lock(&cache_lock);
    cached *c = cache_head;
    if (c) {
      cache_head = c->next;
      cache_bytes -= c->size;
    }
    pthread_mutex_unlock(&cache_lock);
    if (!c) return;
    done += c->size;
    release(c, c->size);
  }
}

void ndt__cache_yield(size_t n) { cache_yield(n); }

/* Frees cached buffers until the cache fits its limit. */
void ndt__trim_cache(void) {
  for (;;) {
    pthread_mutex_lock(&cache_lock);
    cached *c = cache_bytes > cache_limit ? cache_head : NULL;
    if (c) {
      cache_head = c->next;
      cache_bytes -= c->size;
    }
    pthread_mutex_unlock(&cache_lock);
    if (!c) return;
    release(c, c->size);
  }
}

void ndt__release_cache(void) {
  pthread_mutex_lock(&cache_lock);
  cached *c = cache_head;
  cache_head = NULL;
  cache_bytes = 0;
  while (small_n > 0) free(small_p[--small_n]);
  pthread_mutex_unlock(&cache_lock);
  while (c) {
    cached *next = c->next;
    release(c, c->size);
    c = next;
  }
}

/* ---- the memory budget -------------------------------------------------
 * Tiles get their buffers one by one (and lazy stores only at first use),
 * so an array far larger than the machine (`ones((10**6, 10**6))`) would
 * fill tile after tile until the kernel's OOM killer ends the process.
 * Instead every store reserves its whole size here when it is made, against
 * a limit: NDTILE_MAX_MEMORY (512M, 4G, 1.5T or bytes) when set, else what
 * the process can have - physical memory plus swap, less when a cgroup
 * memory limit or `ulimit -v` says less (NumPy's malloc fails at about the
 * same size: Linux refuses a mapping larger than memory plus swap). The sum
 * is the same on every rank (every rank makes the same stores), so all
 * ranks fail at the same call. */
static int64_t mem_limit;            /* 0 = not yet known */
static pthread_once_t limit_once = PTHREAD_ONCE_INIT;


/* kB value of a /proc/meminfo line, or -1. */
static int64_t meminfo_kb(const char *text, const char *key) {
  const char *p = strstr(text, key);
  if (!p) return -1;
  return strtoll(p + strlen(key), NULL, 10);
}

static int64_t read_small_file(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, cap - 1, f);
  fclose(f);
  buf[n] = 0;
  return (int64_t)n;
}

static int64_t system_limit(void) {
  char buf[4096];
  int64_t limit = INT64_MAX;
  if (read_small_file("/proc/meminfo", buf, sizeof buf) > 0) {
    int64_t ram = meminfo_kb(buf, "MemTotal:"), swap = meminfo_kb(buf, "SwapTotal:");
    if (ram > 0) limit = (ram + (swap > 0 ? swap : 0)) * 1024;
  } else {
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0) limit = (int64_t)pages * psz;
  }
  /* cgroup v2 (a container's limit), memory.max plus its swap allowance */
  if (read_small_file("/sys/fs/cgroup/memory.max", buf, sizeof buf) > 0 && buf[0] >= '0' &&
      buf[0] <= '9') {
    int64_t cg = strtoll(buf, NULL, 10), cgswap = 0;
    if (read_small_file("/sys/fs/cgroup/memory.swap.max", buf, sizeof buf) > 0 &&
        buf[0] >= '0' && buf[0] <= '9')
      cgswap = strtoll(buf, NULL, 10);
    if (cg > 0 && cg + cgswap < limit) limit = cg + cgswap;
  }
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      (int64_t)rl.rlim_cur < limit)
    limit = (int64_t)rl.rlim_cur;
  return limit;
}

static void init_limit(void) {
  /* (ndt_init checked the variable: an error there, not a default here) */
  int64_t v = ndt__env_int("NDTILE_MAX_MEMORY", 0);
  mem_limit = v > 0 ? v : system_limit();
}

static int64_t limit_now(void) {
  pthread_once(&limit_once, init_limit);
  return mem_limit;
}

void ndt_set_memory_limit(int64_t bytes) {
  pthread_once(&limit_once, init_limit);
  mem_limit = bytes > 0 ? bytes : system_limit();
}

void ndt_memory_usage(int64_t *store_bytes, int64_t *data_bytes, int64_t *limit) {
  if (store_bytes) *store_bytes = atomic_load(&store_reserved);
  if (data_bytes) *data_bytes = atomic_load(&live_bytes);
  if (limit) *limit = limit_now();
}

/* NumPy's way of writing a size (numpy/_core/_exceptions.py): binary
 * units, three significant digits. */
static void size_string(char *out, size_t cap, double nbytes) {
  static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  double v = nbytes;
  while (u < 6 && v >= 1024.0) {
    v /= 1024.0;
    u++;
  }
  if (u < 6 && v >= 1023.5) {   /* 1023.7 KiB rounds to 1024: say 1.00 MiB */
    v /= 1024.0;
    u++;
  }
  if (u == 0) snprintf(out, cap, "%.0f %s", v, units[u]);
  else if (v < 999.5) snprintf(out, cap, "%#.3g %s", v, units[u]);
  else snprintf(out, cap, "%#.0f %s", v, units[u]);
}

ndt_status ndt__nomem_array(int64_t nbytes, int ndim, const int64_t *shape, ndt_dtype ty) {
  char size[64], shp[NDT_MAXDIMS * 22 + 4];
  size_string(size, sizeof size, (double)nbytes);
  size_t n = 0;
  shp[n++] = '(';
  for (int k = 0; k < ndim && n < sizeof shp - 24; k++)
    n += (size_t)snprintf(shp + n, sizeof shp - n, k ? ", %lld" : "%lld", (long long)shape[k]);
  if (ndim == 1) shp[n++] = ',';
  shp[n++] = ')';
  shp[n] = 0;
  return ndt__error(NDT_ERR_NOMEM, "Unable to allocate %s for an array with shape %s and data "
                   "type %s", size, shp, ndt__traits[ty].name);
}

int ndt__mem_reserve(int64_t nbytes) {
  int64_t limit = limit_now();
  long long cur = atomic_load(&store_reserved);
  do {
    if (nbytes > limit - cur) return 0;
  } while (!atomic_compare_exchange_weak(&store_reserved, &cur, cur + nbytes));
  return 1;
}

void ndt__mem_unreserve(int64_t nbytes) { atomic_fetch_sub(&store_reserved, nbytes); }

/* ---- the host memory (memory 0 of the memory table, see proc.c) ---- */
static void *host_alloc(ndt_memory *m, size_t n) {
  NDT_UNUSED(m);
  return ndt__alloc_data(n, 0);
}
static void host_free(ndt_memory *m, void *p, size_t n) {
  NDT_UNUSED(m);
  ndt__free_data_sized(p, n);
}
static ndt_status host_copy(ndt_memory *to, void *dst, ndt_memory *from, const void *src,
                            size_t n) {
  NDT_UNUSED(to);
  NDT_UNUSED(from);
  memcpy(dst, src, n);
  return NDT_OK;
}
static const ndt_memory_iface host_iface = {
    .version = NDT_IFACE_VERSION, .name = "host", .host_visible = 1,
    .alloc = host_alloc, .free = host_free, .copy = host_copy};
ndt_memory ndt__host_memory = {.iface = &host_iface, .device = 0, .context = NULL, .id = 0};
