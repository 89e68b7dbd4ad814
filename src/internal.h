/* internal.h - what the runtime (src/runtime) offers the array library
 * (src/ops). Not installed; C users see include/ndtile.h only. */
#ifndef NDT_INTERNAL_H
#define NDT_INTERNAL_H

#include <stdatomic.h>
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "ndtile.h"
#include "kernels/kernels.h"
#include "kernels/table.h"

#define NDT_UNUSED(x) ((void)(x))

/* ---- errors (runtime/error.c) ---------------------------------------- */
/* Sets the calling thread's message and returns s, so callers can write
 * `return ndt__error(NDT_ERR_VALUE, "...", ...)`. */
ndt_status ndt__error(ndt_status s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same with the error's parts (ndt_error): kind NDT_KIND_NONE is the
 * status's (ndt_status_kind); arg names the argument at fault (NULL: none). */
ndt_status ndt__error_at(ndt_status s, ndt_error_kind kind, const char *arg, const char *fmt,
                         ...) __attribute__((format(printf, 4, 5)));
/* An error as plain data, to carry it from a worker thread (a failed task)
 * or another rank to the thread that reports it. */
typedef struct {
  int status, kind, deferred;
  char arg[32], op[64], msg[512];
} ndt__err_rec;
/* Saves the calling thread's last error as the error of status st; with op
 * not NULL, as the deferred failure of the task op. */
void ndt__error_save(ndt__err_rec *rec, ndt_status st, const char *op);
/* Makes rec the calling thread's last error; returns its status. */
ndt_status ndt__error_load(const ndt__err_rec *rec);

/* ---- memory (runtime/memory.c) --------------------------------------- */
/* All allocations of array data and runtime objects go through these so a
 * test can inject failures. They set the error message on failure. */
void *ndt__malloc(size_t n);
void *ndt__calloc(size_t count, size_t size);
void *ndt__realloc(void *p, size_t n);
void ndt__mfree(void *p);
/* Aligned buffers for tile data (64 bytes). */
void *ndt__alloc_data(size_t n, int zero);
/* Frees a tile buffer of n bytes, keeping large ones for reuse. */
void ndt__free_data_sized(void *p, size_t n);
/* One buffer for all tiles of a store of total bytes (4 MiB or more),
 * freed as one (ndt__free_data_sized) when the store goes; NULL when the size
 * does not qualify or memory is short (allocate tile by tile then). */
void *ndt__alloc_data_run(size_t total, int zero);
/* Returns every cached buffer to the system. */
void ndt__release_cache(void);
/* Frees cached buffers beyond the cache's limit; sets the limit. */
void ndt__trim_cache(void);
/* Releases n bytes of cached buffers: other memory is about to take n. */
void ndt__cache_yield(size_t n);
void ndt__set_cache_limit(int64_t bytes);
/* Bytes of data buffers in use and cached now, and the peaks of in use and
 * of in use + cached. */
/* Bytes of stores only pending tasks still hold (store.c adds, the
 * scheduler's look-ahead reads). */
void ndt__mem_doomed_add(int64_t bytes);
int64_t ndt__mem_doomed(void);
/* Bytes of data buffers the calling thread allocated since the last call. */
int64_t ndt__take_allocated(void);
void ndt__mem_stats(int64_t *live, int64_t *cached, int64_t *peak_live, int64_t *peak_held);
/* The memory budget (memory.c): a store reserves its whole size when it is
 * made; 0 when that would pass the limit. */
int ndt__mem_reserve(int64_t nbytes);
void ndt__mem_unreserve(int64_t nbytes);
/* NDT_ERR_NOMEM with NumPy's message for an array of this shape. */
ndt_status ndt__nomem_array(int64_t nbytes, int ndim, const int64_t *shape, ndt_dtype t);
/* ---- runtime/env.c: the NDTILE_* variables ---- */
/* The variable's value, or dflt when it is unset (or invalid: ndt_init
 * reports that through ndt__settings_check before anything reads it). */
int64_t ndt__env_int(const char *name, int64_t dflt);
/* NDT_OK, or the error of the first set variable that does not parse. */
ndt_status ndt__settings_check(void);
/* The settings, in the order of ndt_setting_name. */
typedef enum {
  NDT__SET_WORKERS,
  NDT__SET_TILE_BYTES,
  NDT__SET_INLINE_ELEMS,
  NDT__SET_MAX_PENDING,
  NDT__SET_MAX_PENDING_BYTES,
  NDT__SET_MAX_MEMORY,
  NDT__SET_CACHE_BYTES,
  NDT__SET_SIMDEVICE_BYTES,
  NDT__SET_MPI_SPIN,
  /* observing (obs17) */
  NDT__SET_PROGRESS,
  NDT__SET_FALLBACK,
  NDT__SET_CUDA_MEM,        /* devices (device.c) */
  NDT__SET_GPU_GROUP,       /* grouped device tasks (sched.c) */
  NDT__SET_BIND,            /* ranks on cores of their own (comm.c) */
  NDT__SET_GPUS_PER_NODE,   /* each rank's share of its node's GPUs (device.c) */
  NDT__SET_CUDA_MATH,       /* transcendental functions on CUDA devices (cuda.c) */
  NDT__SET_CHECK,           /* the debug check of every task's operands (check.c) */
  NDT__NSETTINGS
} ndt__setting_id;
/* NDTILE_DEVICES (or ndt_config.devices), parsed (env.c): auto, none,
 * cuda, cuda:0,1 (n indices; one given twice: two virtual devices on one
 * GPU), sim:N,mem=SIZE. At most NDT__MAX_DEVS devices (NDT_MAX_MEMS - 1). */
#define NDT__MAX_DEVS 3
enum { NDT__DEVS_NONE, NDT__DEVS_AUTO, NDT__DEVS_CUDA, NDT__DEVS_SIM };
typedef struct {
  int kind;                   /* NDT__DEVS_* */
  int n;                      /* devices listed (cuda: 0 = every device) */
  int index[NDT__MAX_DEVS];   /* cuda: device indices */
  int64_t mem;                /* sim: bytes per device (0: the default) */
} ndt__devspec;
ndt_status ndt__devices_parse(const char *text, ndt__devspec *d);
/* 1 when a CUDA device is in use (device.c): it holds each tile in a buffer
 * of its own, and its solver runs whole matrices (matmul.c, linalg.c). */
int ndt__cuda_devices(void);
/* The setting called name; NDT_ERR_VALUE, naming it, when there is none. */
ndt_status ndt__setting_find(const char *name, ndt__setting_id *id);
/* NDTILE_MPI_SPIN when unset: MPI_Test calls before a wait sleeps (comm.c) */
#define NDT__MPI_SPIN_DEFAULT 64
/* memory.c: the cache's limit in bytes (INT64_MAX: none) */
int64_t ndt__cache_limit(void);
/* memory.c: a backend's memory `id` now holds delta more bytes (negative:
 * fewer), and its capacity: what ndt_memory_stats_get reports for it. */
void ndt__mem_note(int id, int64_t delta);
void ndt__mem_note_capacity(int id, int64_t bytes);
/* ... and its counters, as ndt_memory_stats lists them from in_use on */
void ndt__mem_counters(int id, int64_t out[6]);

/* ---- ranks (runtime/comm.c) ------------------------------------------
 * Under MPI the recording thread moves bytes with these; both sides call
 * them at the same point of the program, which is what matches them. */
extern int ndt__comm_size_;
/* Whether NDTILE_VERBOSE is set; prints one line on stderr when it is
 * (runtime/device_log.c; comm.c and device.c say what they set up). */
void ndt__verbose(const char *fmt, ...);
/* This rank's place among the ranks of its node (MPI_COMM_TYPE_SHARED;
 * 0 of 1 as one process): comm.c sets them when MPI starts */
extern int ndt__comm_local_rank_, ndt__comm_local_size_;
/* Gathers n bytes (at most INT_MAX) from each of this node's ranks into
 * all, ndt__comm_local_size_ pieces in local-rank order: a collective of
 * the node's ranks, every one of them at the same point (device.c's GPU bus
 * ids, as the runtime starts). One process: copies mine. */
void ndt__comm_node_gather(const void *mine, int64_t n, void *all);
static inline int ndt_distributed(void) { return ndt__comm_size_ > 1; }
/* What the transport needs of the scheduler above it; sched.c passes it
 * to ndt__comm_start (comm.c names no function of sched.c). Until then the
 * members are NULL: no task recorded, no timeline, nothing to finalize. */
typedef struct {
  void (*finalize)(void);        /* at exit, before MPI_Finalize: workers stop */
  int64_t (*task_seq)(void);     /* ndt__rt_task_seq */
  int64_t (*task_hash)(void);    /* ndt__rt_task_hash */
  double (*trace_now)(void);     /* the timeline (ndt__trace_now, ndt__trace_caller) */
  void (*trace_caller)(const char *name, double t0);
  int (*idle_workers)(void);     /* workers waiting for work now (any thread) */
} ndt_comm_hooks;
void ndt__comm_start(const ndt_comm_hooks *up);
void ndt__comm_send(const void *buf, int64_t n, int peer, int tag);
void ndt__comm_recv(void *buf, int64_t n, int peer, int tag);   /* buf NULL: dropped */
void ndt__comm_bcast(void *buf, int64_t n, int root);          /* buf NULL: dropped */
/* The same, its bytes there only after the recording thread's next
 * collective (ndt__comm_agree, ...), which waits for it too: the tiles of a
 * read in one wait */
void ndt__comm_bcast_post(void *buf, int64_t n, int root);
/* A point-to-point message that no thread waits for (dist.c's message
 * tasks). The recording thread fills it in program order
 * (ndt__comm_msg_init: its tag, the traffic counters); any thread starts it
 * (ndt__comm_msg_start); comm.c's progress thread moves it and calls
 * done(m) there when the bytes have arrived (a receive) or may be
 * overwritten (a send). ndt__comm_msg_run starts it and waits for it on
 * the calling thread. Many ranks only (ndt__comm_async). */
typedef struct ndt_comm_msg {
  char *buf;                 /* NULL: dummy bytes (this rank had no buffer) */
  int64_t n;
  int peer, tag, send;
  long long pos;             /* the program's position when it was recorded */
  void (*done)(struct ndt_comm_msg *m);
  void *ctx;                 /* the caller's (dist.c: the task) */
  double t0;                 /* when it started (the timeline) */
  /* comm.c's */
  int64_t off;               /* bytes of the pieces before the one in flight */
  struct ndt_comm_msg *next;
  _Alignas(8) unsigned char req[16];   /* the MPI request of the piece in flight */
} ndt_comm_msg;
void ndt__comm_msg_init(ndt_comm_msg *m, void *buf, int64_t n, int peer, int send);
void ndt__comm_msg_start(ndt_comm_msg *m);
void ndt__comm_msg_run(ndt_comm_msg *m);
/* 1 when messages can go through the progress thread (many ranks) */
int ndt__comm_async(void);
/* A worker ran out of work: the progress thread tests messages in flight
 * often again (see comm.c). Any thread; nothing without one. */
void ndt__comm_kick(void);
/* The ranks check that they are at the same step of the program (before a
 * read's broadcasts: a rank at another collective is out of step, said). */
void ndt__comm_step(void);
/* Every rank learns whether any rank failed; all return the status and
 * message of the lowest failing rank. */
ndt_status ndt__comm_agree(ndt_status st);
/* The same, carrying a small read's bytes (see dist.c's ndt__wait_tiles):
 * NDT__AGREE_WORDS words, each its owner's, LLONG_MAX from the others. */
#define NDT__AGREE_WORDS 8
ndt_status ndt__comm_agree_read(ndt_status st, long long *pay);
/* Tasks recorded so far on many ranks (the same on every rank). */
int64_t ndt__rt_task_seq(void);
/* Calls begun so far (ndt_call_begin): a group remembers the one it began in. */
int64_t ndt__rt_call_no(void);
int64_t ndt__rt_task_hash(void);   /* of the tasks' names, in order */

/* The timeline: a span of the recording thread (communication), from
 * t0 = ndt__trace_now() to now; both do nothing while no trace runs. */
double ndt__trace_now(void);
void ndt__trace_caller(const char *name, double t0);

/* ---- tiles and stores (runtime/store.c; dependencies in sched.c) ------- */
typedef struct ndt_task ndt_task;

/* One recorded use of a region [lo, hi] (flat elements) of a tile by a
 * task that may not have finished; a reference to the task is held. */
typedef struct {
  ndt_task *task;
  int64_t lo, hi;
} ndt_use;

/* A tile: a contiguous range [start, start+len) of the store's flat C-order
 * elements, held in one buffer. Dependency state is touched only by the
 * thread that records tasks (program order), under the scheduler lock. */
typedef struct {
  char *data;             /* host copy; NULL while not allocated here */
  struct ndt_store *store;  /* the store the tile belongs to */
  int64_t start, len;     /* in elements */
  int owner;              /* rank that owns the tile (holds its true value) */
  int scratch;            /* a runtime-private buffer: its owner is no placement hint */
  atomic_uint valid;      /* bit m: memory m holds a valid copy (bit 0 = host) */
  int resv;               /* sched.c, while it records a task: the task's accesses to it */
  char *mcopy[4];         /* its buffers in memories 1.. (NDT_MAX_MEMS), or NULL */
  struct ndt_tile_dev *dev;  /* pins, in-flight writers and eviction order of its
                                device copies (proc.c), made at its first device copy */
  /* Many ranks: which other ranks hold an up-to-date copy of which region
   * (kept alike on every rank, from the program order; cleared by a write),
   * so a region travels to a rank once, not once per task that reads it. */
  int everywhere;         /* every rank holds the whole tile */
  int ncopies;
  struct ndt_copy { int rank; int64_t lo, hi; } copies[4];
  ndt_use *writes, *reads;  /* pending uses, in program order */
  int nwrites, capwrites, nreads, capreads;
} ndt_tile;

/* A store: a logical N-d array in C order, split into tiles by a rule that
 * depends on its shape and dtype only. Flat element f lies in tile
 *   (f / period) * per + (f % period) / seg.
 * Views of any shape are strided maps into the flat index space, exactly as
 * NumPy's views are into a buffer. */
typedef struct ndt_store {
  atomic_long refs;
  atomic_long handles;    /* the ndt_arrays on it (refs also counts tasks') */
  int64_t doomed;         /* bytes counted in the runtime's doomed bytes */
  ndt_dtype dtype;
  int itemsize;
  int zero;               /* created zeroed: a buffer made at first use is zeroed too */
  int64_t size;
  int64_t period, seg, per;
  int64_t ntiles;
  ndt_tile *tiles;
  char *run;              /* all tiles in one buffer (ndt__alloc_data_run), or NULL */
  int readonly;           /* the WRITEABLE flag of the handle that made the store (NumPy's
                           * base array): views may be made writeable again only while it
                           * is clear (see ndt_set_writeable) */
  atomic_llong reserved;  /* bytes reserved in the memory budget; given back when the
                             last handle goes (program order) or at the latest when freed */
  atomic_int lost;        /* reads fail: 1, a cancelled (interrupted) task wrote it; 2, a
                           * task that wrote it failed (lost_op, lost_st: which and how) */
  int64_t wcall;          /* the call (ndt_call_begin's count) that last recorded a write
                           * to it: a group of an earlier call's ops does not read it */
  const char *lost_op;    /* (task names live as long as the program) */
  ndt_status lost_st;
  atomic_int lent;        /* host exports alive (ndt_host_export): no work on it is held
                           * for fusion, and ndt_host_settle waits for its tasks */
  struct ndt_store *alias_of;  /* a store over this store's memory in another dtype
                           * (ndt_view_itemsize): its tiles point into alias_of's run, which
                           * it holds (a reference) and never frees; NULL otherwise */
  void *owner_ctx;        /* the binding's object for the owning handle (ndt_set_owner_ctx) */
  void (*release)(void *);  /* memory its caller owns (ndt_from_memory, borrowed): called
                           * with release_ctx when the store is freed; may be NULL */
  void *release_ctx;
  int lent_for_life;      /* lent while it has handles (ndt_view_itemsize, ndt_from_memory) */
  int borrowed;           /* its run is memory it does not own (alias_of's or its caller's) */
} ndt_store;
/* The error of a read of a store whose values were lost (ndt_store.lost:
 * an interrupt cancelled, or a task failed, before writing them). */
ndt_status ndt__rt_lost_error(const ndt_store *s);
/* dst overwrites every element of its store: a lost store is mended (after
 * the tasks recorded on it so far; one process only). */
ndt_status ndt__rt_overwrite(const ndt_array *dst);
/* The last handle on a store lent for its life (lent_for_life) is going: its
 * tasks are waited for and it (and the store it aliases) stop being lent.
 * export.c installs it when it makes such a store (view.c, below export.c,
 * calls it). */
extern void (*ndt__lent_close)(ndt_store *s);
/* Stores with an export alive (any): 0 lets task recording skip the check;
 * unsettled: a task was recorded on one since the last ndt_host_settle. */
extern atomic_int ndt__lent_stores, ndt__lent_unsettled;
/* Waits for every task on s (not reporting their errors) and leaves the
 * host's copy of its tiles the only valid one (sched.c). */
void ndt__rt_settle_store(ndt_store *s);
/* Moves every tile of s into one buffer, back to back (as a store in one piece
 * is made); its tasks must be done and it must be on one rank. */
ndt_status ndt__store_make_run(ndt_store *s);

struct ndt_array {
  ndt_store *store;
  ndt_dtype dtype;  /* the store's, or its real type for a .real/.imag view */
  int part;         /* byte offset within an element: 0, or half a complex for .imag */
  int ndim;
  int weak;
  int internal;     /* held by the runtime (a fused group), not a handle */
  int readonly;     /* NumPy's WRITEABLE flag cleared: ops refuse this view as an output.
                     * Copied into every view made from it (views of read-only arrays are
                     * read-only), checked by ndt__check_writeable where a public op takes
                     * an existing output (ndt_assign/ndt_fill, ndt_apply with *out,
                     * ndt_put, the ufunc .at ops, ndt_matmul, ndt_dot, the exports for
                     * writing): one test per call, none per task or element. */
  int warn_on_write; /* NumPy's WARN_ON_WRITE (np.broadcast_arrays results): copied into
                     * views like readonly, cleared by ndt_set_writeable and by the first
                     * write (ndt__check_writeable records the warning, see ndtile.h) */
  int owner;        /* the handle ndt__array_new made with its store (NumPy's OWNDATA) */
  int64_t offset;  /* elements */
  int64_t size;
  int64_t shape[NDT_MAXDIMS];
  int64_t strides[NDT_MAXDIMS];   /* elements */
};

/* NumPy's PyArray_FailUnlessWriteable, the one check before an op writes
 * into an existing array (src/ops/view.c): NDT_ERR_VALUE with the message
 * what for a read-only one; for a WARN_ON_WRITE one its flag is cleared
 * and NDT_WARN_BROADCAST_WRITE recorded (ndt_fp_errors_take), NDT_OK;
 * warn 0 leaves the flag and records nothing (NumPy's ufunc.at by indexes
 * writes so). */
ndt_status ndt__check_writeable(const ndt_array *a, const char *what, int warn);

/* Byte size of one element of the view's dtype. */
static inline int ndt_vsize(const ndt_array *v) { return ndt__traits[v->dtype].size; }

/* The tiling rule (shared by stores and by the blocks tasks iterate over). */
typedef struct { int64_t period, seg, per, ntiles; int axis; } ndt_tiling;
/* Tile i of a store of size elements tiled as tl: its first element and length. */
void ndt__tile_bounds(const ndt_tiling *tl, int64_t i, int64_t size, int64_t *start,
                      int64_t *len);
void ndt__tiling_for(int ndim, const int64_t *shape, int itemsize, int64_t tile_bytes,
                    ndt_tiling *t);
static inline int64_t ndt_tiling_index(int64_t period, int64_t seg, int64_t per, int64_t f) {
  return (f / period) * per + (f % period) / seg;
}
/* (a store of one tile, as every small array is, skips the two 64-bit
 * divisions: 40-90 cycles each, several per small op) */
static inline int64_t ndt_store_tile_of(const ndt_store *s, int64_t f) {
  if (s->ntiles == 1) return 0;
  return ndt_tiling_index(s->period, s->seg, s->per, f);
}

/* The axes of ndim (shape, strides st[o] of nop operands) merged where every
 * operand steps over the next axis as over one longer axis, and unit axes
 * dropped, in place: the fewest runs for a loop. Returns the new ndim (0: a
 * single element). Used by the CPU's loops (ops), the gathers (bind.c) and
 * the CUDA plugin. */
static inline int ndt__coalesce(int ndim, int64_t *shape, int nop, int64_t (*st)[NDT_MAXDIMS]) {
  int nd = 0;
  for (int k = 0; k < ndim; k++) {
    if (shape[k] == 1) continue;
    if (nd > 0) {
      int ok = 1;
      for (int o = 0; o < nop && ok; o++)
        if (st[o][nd - 1] != st[o][k] * shape[k]) ok = 0;
      if (ok) {
        shape[nd - 1] *= shape[k];
        for (int o = 0; o < nop; o++) st[o][nd - 1] = st[o][k];
        continue;
      }
    }
    shape[nd] = shape[k];
    for (int o = 0; o < nop; o++) st[o][nd] = st[o][k];
    nd++;
  }
  return nd;
}

/* A zeroed store with room for ntiles (at least 1) zeroed tiles, s->tiles
 * set: one allocation, freed by ndt__mfree(s) (store.c). */
ndt_store *ndt__store_alloc(int64_t ntiles);
/* Creates a store of `size` elements tiled for `shape`; allocates the tiles
 * this rank owns - every tile on one rank - (zeroed when zero & 1); others
 * get a buffer at first use (ndt__tile_buffer). With zero & NDT_STORE_LAZY
 * no tile gets a buffer now: the first task recorded on a tile allocates it
 * (a fused group's results: the dead ones are never written). With
 * NDT_STORE_UNSET the caller's tasks write every element before anything
 * reads one (a cast's result): as a lazy store's, its tiles then hold no
 * value until written (with devices: valid nowhere, so nothing is copied
 * in for a first write of part of a tile). Reference count 1. */
#define NDT_STORE_LAZY 2
#define NDT_STORE_UNSET 4
/* A device is registered: stores made from now on use NDT_STORE_UNSET's
 * and NDT_STORE_LAZY's "valid nowhere" (proc.c calls it), and drop(s) runs
 * when the program drops its last array on a store (in program order: the
 * device plan's copies of it are garbage then). */
void ndt__store_devices_on(void (*drop)(ndt_store *s));
ndt_status ndt__store_new(ndt_store **out, ndt_dtype t, int ndim, const int64_t *shape,
                         int zero);
/* The host buffer of a tile this rank does not own, allocated on first use
 * (NULL + error when memory runs out). */
char *ndt__tile_buffer(ndt_tile *t);
/* A one-tile byte store for a runtime-private buffer (reduction partials). */
ndt_status ndt__store_new_bytes(ndt_store **out, int64_t nbytes);
/* ... owned by rank (many ranks: the tasks that write it run there, dist.c;
 * it is allocated where it is first used), not a runtime-private buffer. */
ndt_status ndt__store_new_bytes_on(ndt_store **out, int64_t nbytes, int rank);
void ndt__store_incref(ndt_store *s);
/* The last ndt_array on s is going: if tasks still hold it, its memory is
 * counted as doomed (freed once they finish) until it is freed. */
void ndt__store_drop_handle(ndt_store *s);
void ndt__store_decref(ndt_store *s);

/* Array handles. */
ndt_array *ndt__array_alloc(void);                       /* NULL + error on failure */
ndt_status ndt__array_new(ndt_array **out, ndt_dtype t, int ndim, const int64_t *shape,
                         int zero);                     /* fresh C-contiguous store */
ndt_status ndt__array_view(ndt_array **out, const ndt_array *a); /* same view, new handle */
/* *dst = *src for what a view of src->ndim axes holds: the fields before
 * the axes and the first ndim entries of shape and strides. The per-task
 * copies (blocks, broadcasts) take this, not the 560 bytes of the whole
 * struct; entries past ndim are left as they were, and no code reads them. */
static inline void ndt__view_copy(ndt_array *dst, const ndt_array *src) {
  memcpy(dst, src, offsetof(ndt_array, shape));
  if (src->ndim <= 4) {   /* fixed sizes: a few moves, no call */
    memcpy(dst->shape, src->shape, 4 * sizeof(int64_t));
    memcpy(dst->strides, src->strides, 4 * sizeof(int64_t));
  } else {
    memcpy(dst->shape, src->shape, (size_t)src->ndim * sizeof(int64_t));
    memcpy(dst->strides, src->strides, (size_t)src->ndim * sizeof(int64_t));
  }
}
/* Smallest and largest flat store index a view touches (size > 0). */
void ndt__view_extent(const ndt_array *a, int64_t *lo, int64_t *hi);
/* 1 when two views may touch a common element (conservative). */
int ndt__may_overlap(const ndt_array *a, const ndt_array *b);
/* whether two elements of a may be one memory location (a zero stride of a
 * broadcast view, an as_strided view): conservative, 0 only if they never are */
int ndt__internal_overlap(const ndt_array *a);

/* ---- tasks: kinds, operands, bound operands (runtime/task.c, bind.c) ----
 * A task is recorded with its operands - views with a privilege - and a
 * task kind: a name and one body per processor kind (NULL: no variant for
 * that kind). The runtime derives the task's tile accesses from the
 * operands, picks a processor whose kind has a body and whose `supports`
 * accepts it, makes each operand valid in that processor's memory, binds it
 * (a pointer, byte strides and the shape: in place when the view lies in one
 * tile or in tiles adjacent in memory, else gathered into scratch and, for
 * writes, scattered back after), and calls the body. Op files never see a
 * tile. */
/* NDT_PROC_CUDA: the CUDA plugin's processors. Task kinds fill body[] by
 * position, so every kind has a NULL body there (no variant) unless a
 * processor's iface->body supplies one by the kind's name (device.c). */
enum { NDT_PROC_CPU, NDT_PROC_CUDA, NDT_PROC_KINDS };

/* Privileges. READ: the body reads the view. WRITE: it writes every element
 * of the view and reads none (a gathered WRITE operand is not loaded).
 * RW: reads and writes (it may leave some elements as they were). REDUCE:
 * folds into the operand; ordered like RW (bits depend on order).
 * NDT_DENSE: added by the runtime to a write whose view covers every element
 * of its extent (its old contents need not travel, see dist.c). */
typedef enum { NDT_READ = 1, NDT_WRITE = 2, NDT_RW = 3, NDT_DENSE = 4, NDT_REDUCE = 11 } ndt_priv;
/* Operand flags, ORed into ndt_operand.priv:
 * NDT_OPND_WALK: the body walks the operand itself (random access, pieces
 *   along several tiles): the runtime records its accesses and makes its
 *   extent valid, binds it in place when it can (ptr set) and otherwise
 *   leaves ptr NULL; the body then reaches elements with ndt__elem_run and
 *   binds pieces with ndt__piece_bind/ndt__piece_release. Nothing is gathered.
 * NDT_OPND_KEEP: no access at all: the operand's store is only kept alive
 *   until the task ends (a plan or table the arg points into).
 * NDT_OPND_VIEW: with NDT_OPND_WALK, the body reaches only the elements of
 *   the view (pieces of it): the runtime names and makes valid only the
 *   tiles the view touches, as for an operand not walked (a view that
 *   leaves whole tiles out: a reduction's combine reads the columns of its
 *   result elements from every row), and still gathers nothing. */
#define NDT_OPND_WALK 0x10u
#define NDT_OPND_KEEP 0x20u
#define NDT_OPND_VIEW 0x40u
/* 1 when the runtime takes an operand's whole extent (walked, its body may
 * reach any element of it), 0 when only the tiles its view touches. */
static inline int ndt__opnd_extent(unsigned priv) {
  return (priv & (NDT_OPND_WALK | NDT_OPND_VIEW)) == NDT_OPND_WALK;
}
#define NDT_PRIV_MASK 0x0fu

typedef struct { const ndt_array *view; unsigned priv; } ndt_operand;

struct ndt_memory;
/* A bound operand, as the body sees it. */
typedef struct {
  char *ptr;                 /* element 0 of the view in mem; NULL when empty (or a
                                walked operand not in one piece) */
  unsigned priv;             /* the operand's */
  int64_t st[NDT_MAXDIMS];   /* byte strides */
  const int64_t *shape;      /* the view's shape (ndim axes) */
  int ndim;
  const ndt_array *view;     /* the operand's view (walked operands, pieces) */
  struct ndt_memory *mem;    /* where ptr points */
  char *scratch;             /* the runtime's gather buffer, or NULL; a gathered READ
                                operand is the task's own copy: its body may overwrite
                                it (sort sorts in it) */
} ndt_bound;

/* A body: op[i] is operand i bound, arg the task's argument struct (the
 * caller's on the inline path, a copy otherwise). It returns a status; a
 * failure is kept as the deferred error and reported, with the task's name,
 * at the next point that reads data. */
typedef ndt_status (*ndt_body_fn)(ndt_bound *op, void *arg);
/* A kind's release: what a task's argument holds (a reference) goes back.
 * The runtime calls it once for every task it accepted (ndt__record
 * returned NDT_OK): after the body ran (deferred or inline), when an
 * interrupt cancelled the task, and, on many ranks, at once on every rank
 * that does not run it. (A body that dropped the reference itself leaked
 * it on those ranks: the fused elementwise groups, with every array they
 * held, on 2 ranks.) */
typedef void (*ndt_release_fn)(void *arg);
typedef struct {
  const char *name;                 /* default task name (traces, errors) */
  ndt_body_fn body[NDT_PROC_KINDS]; /* one per processor kind; NULL: none */
  ndt_release_fn release;           /* NULL: the argument holds nothing */
} ndt_task_kind;

/* Record flags. NDT_TASK_INLINE: the task is small: it runs on the caller,
 * returning the body's status, when nothing it touches is pending.
 * NDT_TASK_CALLER_ERROR: its failure is the caller's mistake (an index out
 * of bounds), which on many ranks every rank must raise at this call.
 * NDT_TASK_FAILS_CLEAN: a failure of the task writes nothing (put checks
 * every index before it writes), so what it writes keeps its values; a
 * failed task without it leaves what it writes lost (sched.c).
 * NDT_TASK_URGENT: once ready, the task goes ahead of the worker pool's other
 * ready tasks (a critical path: the blocked LU's next panel); the order tasks
 * run in never changes a result, only when it comes.
 * NDT_TASK_EARLY: the task holds work of a call before the current one (a
 * fusion or device group begun then, recorded now): an interrupt of the
 * current call does not cancel it (ndt_call_begin). */
#define NDT_TASK_INLINE 1u
#define NDT_TASK_CALLER_ERROR 2u
#define NDT_TASK_FAILS_CLEAN 4u
#define NDT_TASK_URGENT 8u
#define NDT_TASK_EARLY 16u

/* Records a task of `kind` (name NULL: kind->name) over operands op[0..nop)
 * that runs after every earlier task whose accesses conflict. arg (arg_size
 * bytes, no pointers into itself) is copied when the task is deferred, and
 * so are the operands' views (the caller's may go once this returns). The
 * operands' stores are kept alive until the task ends. On NDT_OK what arg
 * holds is the runtime's (kind->release gives it back); on an error it is
 * still the caller's. */
ndt_status ndt__record(const ndt_task_kind *kind, const char *name, const ndt_operand *op,
                      int nop, void *arg, size_t arg_size, unsigned flags);

/* A 1-d view of elements [lo, lo+n) of store s (a runtime-private byte
 * store: a byte range), for an operand. */
void ndt__range_view(ndt_array *v, ndt_store *s, int64_t lo, int64_t n);
/* An absent operand (no store, no elements): keeps operand positions fixed. */
extern const ndt_array ndt__empty_view;

/* Walked operands (NDT_OPND_WALK), inside the body. ndt__elem_run: a pointer
 * to flat store element f of b's store, and *n cut to how many elements
 * f, f+step, ... lie in the same buffer. ndt__piece_bind: binds a view
 * `piece` of b's store (inside b's view) as an operand is bound (in place,
 * or gathered, loaded when load); ndt__piece_release writes a gathered piece
 * back when store and frees it. */
char *ndt__elem_run(const ndt_bound *b, int64_t f, int64_t step, int64_t *n);
/* A walked operand as the indexing kernels reach it (ndt_kwalk, table.h):
 * in place by pointer arithmetic when it lies in one piece of memory, else
 * element by element through ndt__elem_run. b must stay bound while w is
 * used (w points to it). */
void ndt__bound_walk(const ndt_bound *b, ndt_kwalk *w);
/* 1 when flat elements [lo, hi] of b's store lie in one buffer of b's
 * memory (one tile, or tiles adjacent there); also usable on the recording
 * thread with a bound {.view, .mem = &ndt__host_memory} (a layout question:
 * no data is touched). */
int ndt__region_in_place(const ndt_bound *b, int64_t lo, int64_t hi);
ndt_status ndt__piece_bind(const ndt_bound *b, const ndt_array *piece, ndt_bound *out, int load);
void ndt__piece_release(ndt_bound *piece, int store);

/* Host access outside tasks, after ndt__wait_tiles: the host copy of flat
 * element f of the store of v (NULL when its tile has no buffer), with *n
 * cut as by ndt__elem_run (n may be NULL). */
char *ndt__host_elem(const ndt_array *v, int64_t f, int64_t step, int64_t *n);

/* A task's use of the region [lo, hi] (flat element indices) of a tile
 * (derived from the operands; the flush hook and dist.c see them). */
typedef struct { ndt_tile *tile; ndt_priv priv; int64_t lo, hi; } ndt_access;

/* ---- processors and memories (runtime/proc.c) ---------------------------
 * In the style of ggml's backend tables: an object is {iface, device,
 * context}; the interface carries a version and optional members (NULL).
 * A memory holds copies of tiles; bit `id` of a tile's `valid` says that
 * memory holds a valid copy (host = 0). A processor runs task bodies of its
 * kind with operands bound in its memory. The CPU pool (sched.c) and the
 * host memory (memory.c) are the first implementation; a backend registers
 * its own at start-up (ndt__proc_register). */
#define NDT_IFACE_VERSION 1
#define NDT_MAX_MEMS 4
#define NDT_MAX_PROCS 4
typedef struct ndt_memory ndt_memory;
typedef struct {
  int version;
  const char *name;
  int host_visible;   /* its buffers are host pointers (the CPU's loops may use them) */
  void *(*alloc)(ndt_memory *m, size_t n);           /* NULL + error when short */
  void (*free)(ndt_memory *m, void *p, size_t n);
  /* n bytes from src (in memory from) to dst (in memory to) */
  ndt_status (*copy)(ndt_memory *to, void *dst, ndt_memory *from, const void *src, size_t n);
  /* optional: fills an invalidated copy with a pattern (0xA5 bytes), so a
   * read that wrongly takes it for valid changes results (sim) */
  void (*poison)(ndt_memory *m, void *p, size_t n);
  /* optional: its capacity and the bytes allocated in it now */
  void (*usage)(ndt_memory *m, int64_t *capacity, int64_t *in_use);
  /* optional: a gather's scratch for a task bound in this memory (bind.c),
   * outside the capacity the device plan keeps (proc.c): it lives only
   * while the body runs. Without it a memory that is not host_visible
   * gives scratch from alloc, and a plan that filled the memory then
   * leaves none (the task falls back to the CPU, unplanned). */
  void *(*scratch_alloc)(ndt_memory *m, size_t n);   /* NULL + error when short */
  void (*scratch_free)(ndt_memory *m, void *p, size_t n);
  /* optional: height rows of width bytes, row r from src + r * spitch to
   * dst + r * dpitch (pitches >= width), in one call: a gather of a
   * strided run through a memory the host cannot address (bind.c) took a
   * copy, and a wait, per element without it */
  ndt_status (*copy2d)(ndt_memory *to, void *dst, size_t dpitch, ndt_memory *from,
                       const void *src, size_t spitch, size_t width, size_t height);
  /* optional: every element of view v (its tiles valid in this memory) to
   * (to_buf) or from the C-order buffer buf in this memory, in one call
   * (any number of the view's tiles);
   * NDT_ERR_UNSUPPORTED (no error set) when it does not take v, and bind.c
   * copies it run by run (a call, and a wait, per run of the view's
   * merged axes and tile: a transpose's columns, a reversed view's
   * elements) */
  ndt_status (*view_copy)(ndt_memory *m, const ndt_array *v, void *buf, int to_buf);
  /* optional: registers the host buffer [p, p + n) for this memory's
   * copies (page-locked: cudaHostRegister), 0 on success, -1 when refused
   * (the copies then go from pageable memory); and unregisters it. The
   * host cache (memory.c) registers a large buffer at its first copy to or
   * from this memory and unregisters it before the buffer goes back to the
   * system (ndt__host_pin). */
  int (*host_register)(ndt_memory *m, void *p, size_t n);
  void (*host_unregister)(ndt_memory *m, void *p, size_t n);
} ndt_memory_iface;
struct ndt_memory {
  const ndt_memory_iface *iface;
  int device;
  void *context;
  int id;   /* its bit in ndt_tile.valid, given by ndt__mem_register */
};

typedef struct ndt_processor ndt_processor;
typedef struct {
  int version;
  const char *name;
  /* optional: 0 when it cannot run this task (its kind, operands and
   * argument as recorded: a plugin reads the op and dtypes from arg) */
  int (*supports)(ndt_processor *p, const ndt_task_kind *k, const ndt_operand *op, int nop,
                  const void *arg);
  /* a ready task: run it (ndt__task_run, which also finishes it), now or
   * later, on any thread. Called with the scheduler's lock held: it must
   * not block. */
  void (*launch)(ndt_processor *p, ndt_task *t);
  /* optional: waits for work it holds outside the graph (ndt_sync) */
  ndt_status (*sync)(ndt_processor *p);
  /* optional: the body it runs for kind k (NULL: none); when the member is
   * NULL, k->body[kind]. A plugin's bodies are found by the kind's name:
   * the core's kinds stay const and know nothing of any backend. */
  ndt_body_fn (*body)(ndt_processor *p, const ndt_task_kind *k);
  /* optional: runs n tasks of kind k together, as one launch where the
   * device allows: b holds their operands bound, task after task (nop[i]
   * operands each), args[i] their arguments. A processor with it gets
   * consecutive tasks of one op grouped into one task of the graph (a
   * grouped device task, sched.c); the tasks never touch one another's
   * data. */
  ndt_status (*group)(ndt_processor *p, const ndt_task_kind *k, ndt_bound *b, int n,
                      const int *nop, void *const *args);
} ndt_processor_iface;
struct ndt_processor {
  const ndt_processor_iface *iface;
  int device;
  void *context;
  int kind;            /* NDT_PROC_*: which body of a task kind it runs */
  ndt_memory *mem;     /* where its operands are bound */
};

extern ndt_memory ndt__host_memory;   /* memory.c */
/* The host data buffer [p, p + n) (as ndt__alloc_data or _run gave it),
 * about to be copied to or from memory m: registered with m
 * (m->iface->host_register) if m has the member and the buffer is large
 * (NDT__PIN_MIN bytes or more) and not yet registered; the mark stays with
 * the buffer while the cache keeps it and is undone before the buffer goes
 * back to the system. A refusal is not an error (the copy goes from
 * pageable memory; counted): 1 when that was the process's first refusal
 * (the caller says so under NDTILE_VERBOSE), else 0. */
#define NDT__PIN_MIN ((size_t)64 << 10)
int ndt__host_pin(ndt_memory *m, void *p, size_t n);
/* buffers registered now, registrations made so far, refused so far, and
 * the large buffers mapped so far (a registration each at most) */
void ndt__host_pin_stats(int64_t out[4]);
/* Registration (at start-up, before tasks): 0, or -1 when the table is full.
 * The host memory is memory 0 and the CPU the first processor (ndt_init);
 * processors registered later are preferred, the CPU is the fallback. */
int ndt__mem_register(ndt_memory *m);
int ndt__proc_register(ndt_processor *p);
ndt_memory *ndt__mem_by_id(int id);
/* The processor for a task of kind k over op (the first registered with a
 * body and `supports`); NULL when none. */
ndt_processor *ndt__proc_choose(const ndt_task_kind *k, const ndt_operand *op, int nop,
                                const void *arg);
/* The processor every task goes to with no choice to make (one processor,
 * or the selected one, with neither `supports` nor `body`): it runs a kind
 * exactly when the kind has a body for it. NULL otherwise. The recording
 * thread reads it for each task; registration and selection set it. */
extern ndt_processor *ndt__proc_solo;
/* The registered processors, in registration order (the CPU first; a test
 * harness enumerates them), and a restriction of every later task to the
 * one named (its iface->name; NULL lifts it): 0, or -1 when none has that
 * name. A task the selected processor has no body for, or that its
 * `supports` refuses, fails to record ("no processor runs ..."). */
int ndt__proc_count(void);
ndt_processor *ndt__proc_get(int i);
int ndt__proc_select(const char *name);
/* Makes tile t valid in memory m (copying from a memory that holds it);
 * its buffer in m is *ptr. Then a write (for_write) leaves m the only
 * valid one. */
ndt_status ndt__tile_acquire(ndt_tile *t, ndt_memory *m, int for_write, char **ptr);
/* The same for a write into the host copy that happens outside tasks and
 * over time (a message received, dist.c): the host copy made valid and the
 * only valid one, and held as a running writer until
 * ndt__tile_release_write, so that no task copies the tile into another
 * memory before every byte arrived. With no device, the plain acquire. */
ndt_status ndt__tile_hold_write(ndt_tile *t, char **ptr);
void ndt__tile_release_write(ndt_tile *t);
/* Frees a tile's copies outside the host (store.c, when the store goes). */
void ndt__tile_drop_copies(ndt_tile *t);

/* For a processor's launch: runs t's body with its operands bound (the
 * task's trace span and IEEE flags included; tid names the thread in the
 * trace) and then finishes it. */
void ndt__task_run(ndt_task *t, int tid);

/* A function the runtime calls before it records a task or waits, so work
 * held back for fusion is recorded first when program order needs it: always
 * when all is set (a wait for everything); before a task with accesses acc,
 * or a wait on store s, when they touch what the held-back work reads or
 * writes. Work on other data may be recorded before it. With all < 0 it
 * records nothing and answers: nonzero when held-back work (or the work
 * being recorded by a flush) reads or writes s (the device plan asks before
 * it frees a dropped store's copies: proc.c). */
typedef ndt_status (*ndt_flush_fn)(int all, const ndt_store *s, const ndt_access *acc, int nacc);
void ndt__set_flush_hook(ndt_flush_fn hook);

/* Waits until every task that writes any tile in [t0, t1] of s is done (and,
 * when for_write, every task reading them). Reports a deferred error. */
ndt_status ndt__wait_tiles(ndt_store *s, int64_t t0, int64_t t1, int for_write);
/* Many ranks: every rank now holds the whole tile, as it is (host data
 * written alike on every rank, or a broadcast). */
void ndt__tile_everywhere(ndt_tile *t);
/* Many ranks: 1 when rank r holds elements [lo, hi] of s as they are now
 * (it owns them or was sent them since they were last written; the same
 * answer on every rank, dist.c). */
int ndt__dist_holds(const ndt_store *s, int r, int64_t lo, int64_t hi);
/* Drops the tile's task references; ndt__store_decref calls it through the
 * hook ndt__store_set_release (store.c is below sched.c). */
void ndt__tile_release(ndt_tile *t);
void ndt__store_set_release(void (*fn)(ndt_tile *t));
/* The runtime's settings, started on first use. */
ndt_status ndt__runtime_ensure(void);
int64_t ndt__rt_tile_bytes(void);
int64_t ndt__rt_inline_elems(void);

/* ---- floating-point errors (runtime/fperr.c) ---------------------------
 * NumPy reports divide by zero, overflow, underflow and invalid values once
 * per operation. An operation brackets its recording with ndt_fp_begin and
 * ndt_fp_end; each task it records carries the op's record (ndt__fp_defer)
 * and ORs the IEEE flags its thread raised while it ran into it (flags are
 * per thread: each worker collects its own); the inline path adds its flags
 * at once. When the op's last task is done the record waits for
 * ndt_fp_errors_take (ndtile.h). Everything but ndt__fp_add and
 * ndt__fp_release runs on the recording thread. */
typedef struct ndt_fprec ndt_fprec;
/* The ops being recorded, innermost last (inline: these run per op on the
 * small-array path; the rest is in fperr.c). Deeper nesting than
 * NDT_FP_DEPTH collects nothing. */
#define NDT_FP_DEPTH 8
typedef struct {
  const char *name;
  unsigned mask, inl;   /* inl: flags of its work run inline */
  ndt_fprec *rec;       /* made when a task is deferred */
  int group;            /* ndt_fp_group_begin's: the named ops begun on it are it */
  int nested;           /* of a group: its ops begun and not ended */
  int64_t seq;          /* its place among the ops that report (the same on every rank) */
} ndt_fp_op;
extern ndt_fp_op ndt__fp_stk_[NDT_FP_DEPTH];
extern int ndt__fp_depth_;
/* The ops begun that report (mask != 0): each gets the next number. */
extern int64_t ndt__fp_seq_;
/* Many ranks (set by comm.c): a task runs on one rank only, so each op has
 * a record on every rank, its flags are agreed between the ranks (the
 * agreement of ndt__comm_agree) and only agreed records are handed out, so
 * every rank reports the same errors at the same call. */
extern int ndt__fp_ranks_;
/* The current op's flags mask (0 when no op collects). */
extern unsigned ndt__fp_mask_;
void ndt__fp_end_slow(void);
/* The NDT_FPE_* flags ufunc op reports (ops/elementwise.c; comparisons,
 * min/max, bit operations: none). */
unsigned ndt__ufunc_fp_mask(ndt_ufunc op);
/* mask: the NDT_FPE_* flags this op reports (0: none; its tasks then skip
 * the flag bookkeeping). Nests: an op made of ops reports each by name,
 * except inside a group (ndt_fp_group_begin), whose ops report as it; a
 * NULL name (a fusion flush: its tasks carry their own ops' records) is
 * never part of a group. */
static inline void ndt_fp_begin(const char *name, unsigned mask) {
  int d = ndt__fp_depth_;
  if (name && d > 0 && d <= NDT_FP_DEPTH && ndt__fp_stk_[d - 1].group) {
    ndt__fp_stk_[d - 1].nested++;   /* one op of a group: reported as the group */
    return;
  }
  if (d < NDT_FP_DEPTH)
    ndt__fp_stk_[d] = (ndt_fp_op){name, mask, 0, NULL, 0, 0, mask ? ++ndt__fp_seq_ : 0};
  ndt__fp_depth_ = d + 1;
  ndt__fp_mask_ = d < NDT_FP_DEPTH ? mask : 0;
}
static inline void ndt_fp_end(void) {
  int d = ndt__fp_depth_ - 1;
  if (d < 0) return;
  if (d < NDT_FP_DEPTH && ndt__fp_stk_[d].group && ndt__fp_stk_[d].nested > 0) {
    ndt__fp_stk_[d].nested--;
    return;
  }
  if (d < NDT_FP_DEPTH && (ndt__fp_stk_[d].inl || ndt__fp_stk_[d].rec ||
                           (ndt__fp_ranks_ && ndt__fp_stk_[d].mask))) {
    ndt__fp_end_slow();   /* something to report (on ranks, every op that reports) */
    return;
  }
  ndt__fp_depth_ = d;
  ndt__fp_mask_ = d > 0 && d <= NDT_FP_DEPTH ? ndt__fp_stk_[d - 1].mask : 0;
}
/* Flags raised by work of the current op run inline. */
static inline void ndt_fp_inline(unsigned flags) {
  int d = ndt__fp_depth_ - 1;
  if (d >= 0 && d < NDT_FP_DEPTH) ndt__fp_stk_[d].inl |= flags & ndt__fp_stk_[d].mask;
}
/* The current op's record with a new reference for a deferred task (made,
 * with the binding's capture of the error state, on first use), or NULL. */
ndt_fprec *ndt__fp_defer(void);
void ndt__fp_add(ndt_fprec *r, unsigned flags);   /* any thread */
/* A record of its own (not the current op's, nor a group's), ready now:
 * the errors of a step NumPy takes before the op (converting a scalar). */
void ndt__fp_report_now(const char *name, unsigned flags);
void ndt__fp_release(ndt_fprec *r);               /* any thread; NULL is fine */
void ndt__fp_hold(ndt_fprec *r);                  /* one more reference; NULL is fine */
/* The agreement of the flags on many ranks (comm.c, in ndt__comm_agree):
 * the highest number up to which every op's record is done here (its
 * tasks ran); whether a record has flags the other ranks were not told;
 * those as (number, flags) pairs, marked told (at most cap written; returns
 * how many there are, cap 0 only counts); a rank's pairs ORed into the
 * agreed flags of this rank's records (the ones handed out, alike on every
 * rank); and the number up to which every rank's records are done (their
 * agreed flags final). */
int64_t ndt__fp_settled(void);
int ndt__fp_flagged(void);
int ndt__fp_collect(int64_t *pairs, int cap);
void ndt__fp_merge(const int64_t *pairs, int n);
void ndt__fp_agreed(int64_t upto);

/* The calling thread's IEEE flags as NDT_FPE_* bits: cleared before a
 * task runs, read after. On x86-64 only the SSE status register: every
 * loop computes in SSE/AVX (the x87 is used for exact fmod only, which
 * raises none of the four). Inexact and denormal are ignored, so clearing
 * touches the register only after one of the four was raised. */
#if defined(__x86_64__) && defined(__GNUC__)
static inline void ndt_fpe_clear(void) {
  unsigned m;
  __asm__ __volatile__("stmxcsr %0" : "=m"(m));
  if (m & 0x1d) {
    m &= ~0x3fu;
    __asm__ __volatile__("ldmxcsr %0" : : "m"(m));
  }
}
static inline unsigned ndt_fpe_test(void) {
  unsigned m;
  __asm__ __volatile__("stmxcsr %0" : "=m"(m));
  return ((m & 0x04) ? NDT_FPE_DIVIDE : 0) | ((m & 0x08) ? NDT_FPE_OVERFLOW : 0) |
         ((m & 0x10) ? NDT_FPE_UNDERFLOW : 0) | ((m & 0x01) ? NDT_FPE_INVALID : 0);
}
/* Raises NDT_FPE_* flags on the calling thread as the loops would have (a
 * device reports its own): in the SSE status register that ndt_fpe_test
 * reads. (glibc's feraiseexcept raises overflow and underflow in the x87's
 * status word, which ndt_fpe_test does not read: a device's overflow was
 * lost that way.) */
static inline void ndt_fpe_raise(unsigned f) {
  unsigned m, b = ((f & NDT_FPE_DIVIDE) ? 0x04u : 0) | ((f & NDT_FPE_OVERFLOW) ? 0x08u : 0) |
                  ((f & NDT_FPE_UNDERFLOW) ? 0x10u : 0) | ((f & NDT_FPE_INVALID) ? 0x01u : 0);
  if (!b) return;
  __asm__ __volatile__("stmxcsr %0" : "=m"(m));
  m |= b;
  __asm__ __volatile__("ldmxcsr %0" : : "m"(m));
}
#else
#include <fenv.h>
static inline void ndt_fpe_clear(void) {
  feclearexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
}
static inline unsigned ndt_fpe_test(void) {
  int f = fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
  return ((f & FE_DIVBYZERO) ? NDT_FPE_DIVIDE : 0) | ((f & FE_OVERFLOW) ? NDT_FPE_OVERFLOW : 0) |
         ((f & FE_UNDERFLOW) ? NDT_FPE_UNDERFLOW : 0) | ((f & FE_INVALID) ? NDT_FPE_INVALID : 0);
}
static inline void ndt_fpe_raise(unsigned f) {
  feraiseexcept(((f & NDT_FPE_DIVIDE) ? FE_DIVBYZERO : 0) | ((f & NDT_FPE_OVERFLOW) ? FE_OVERFLOW : 0) |
                ((f & NDT_FPE_UNDERFLOW) ? FE_UNDERFLOW : 0) | ((f & NDT_FPE_INVALID) ? FE_INVALID : 0));
}
#endif

/* ---- BLAS (ops/matmul.c) ---------------------------------------------- */
/* OpenBLAS set up once for use inside tasks (single-threaded, the right
 * kernels); every caller of BLAS or LAPACK (matmul.c, linalg.c) calls it. */
void ndt__blas_init(void);

#endif
