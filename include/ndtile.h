/* ndtile.h - the public C API of libndtile.
 *
 * Arrays are split into tiles; every operation becomes tasks on tiles that a
 * runtime runs in parallel on a worker pool. Calls return as soon as the work
 * is recorded; reading data out (ndt_to_buffer, ndt_item, ndt_sync) waits for
 * what it needs.
 *
 * Conventions
 *   - Every function that can fail returns an ndt_status: NDT_OK (0) or a
 *     negative error. On error, ndt_last_error() gives a per-thread message
 *     saying exactly what was wrong, ndt_last_error_info() the same error in
 *     parts (kind, argument, op), and no output is produced.
 *   - ndt_array is an opaque handle to a *view* of a tiled store. Functions
 *     that produce an array write a new handle to *out; the caller owns it and
 *     releases it with ndt_free(). Views keep their store alive.
 *   - A function that makes arrays takes `ndt_array **out` (or, for several
 *     results, `ndt_array **out` of a stated length) as its first parameter.
 *     Those taking it for an elementwise result (ndt_apply, ndt_binary, ...,
 *     ndt_matmul, ndt_dot) accept a non-NULL *out as the destination ("out="
 *     in NumPy): the result is cast and written into that (possibly strided)
 *     view; ownership is unchanged. Functions that copy data out to host
 *     memory take the array first and the destination after it.
 *   - Names: an array's attribute is read by ndt_<NumPy's attribute name>(a)
 *     (ndt_ndim, ndt_shape, ndt_strides, ndt_size), with `_of` where that
 *     name is a type (ndt_dtype_of); a yes/no query is ndt_is_<...>, and it
 *     is set by ndt_set_<...>. get/set pairs copy a whole state in or out
 *     (ndt_rng_get_state, ndt_rng_set_state). Arguments that choose among
 *     named values have an enum type (ndt_fft_kind, ndt_linalg_flags, ...).
 *     NDT_AXIS_FLAT is the one axis value meaning "the flattened array".
 *   - Internal functions of the library are ndt__ (two underscores) and are
 *     not part of the API.
 *
 * Changes in 0.2 (source and ABI incompatible with 0.1; NDT_VERSION_MINOR):
 *   - `out` moved to the front: ndt_apply, ndt_binary, ndt_unary, ndt_where,
 *     ndt_clip, ndt_reduce, ndt_bincount, ndt_argwhere, ndt_gather, ndt_sort,
 *     ndt_partition, ndt_searchsorted, ndt_histogram_bins,
 *     ndt_histogram_count, ndt_scan, ndt_fft, ndt_matmul, ndt_dot,
 *     ndt_correlate, ndt_linalg (the other parameters keep their order).
 *   - NDT_SORT_FLATTEN (INT32_MIN) and NDT_SCAN_FLAT (-1000) are both
 *     NDT_AXIS_FLAT (INT32_MIN): ndt_scan no longer takes -1000.
 *   - ndt_get_dtype is ndt_dtype_of.
 *   - ndt_fft's and ndt_fft_result_type's kind is ndt_fft_kind, ndt_linalg's
 *     flags ndt_linalg_flags (the same values as the ints before; an enum is
 *     passed as an int).
 *   - Shapes and strides are int64_t; strides and offsets of views count
 *     elements, not bytes, except in ndt_from_buffer/ndt_to_buffer_strided.
 */
#ifndef NDTILE_H
#define NDTILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NDT_MAXDIMS 32
#define NDT_VERSION_MAJOR 0
#define NDT_VERSION_MINOR 2

/* ---- status ----------------------------------------------------------- */
typedef enum {
  NDT_OK = 0,
  NDT_ERR_NOMEM = -1,       /* allocation failed (MemoryError)             */
  NDT_ERR_VALUE = -2,       /* bad argument value (ValueError)             */
  NDT_ERR_SHAPE = -3,       /* shapes do not match/broadcast (ValueError)  */
  NDT_ERR_AXIS = -4,        /* axis out of range (AxisError)               */
  NDT_ERR_INDEX = -5,       /* index out of range (IndexError)             */
  NDT_ERR_TYPE = -6,        /* dtype not supported by the op (TypeError)   */
  NDT_ERR_CAST = -7,        /* casting rule forbids the cast (TypeError)   */
  NDT_ERR_UNSUPPORTED = -8, /* not implemented (NotImplementedError)       */
  NDT_ERR_DEFERRED = -9,    /* an earlier deferred task failed             */
  NDT_ERR_INTERNAL = -10,   /* a bug or a failed system call               */
  NDT_ERR_OVERFLOW = -11,   /* a size or value overflows (OverflowError)   */
  NDT_ERR_LINALG = -12,     /* singular, not positive definite, no
                               convergence (numpy.linalg.LinAlgError)      */
  NDT_ERR_INTERRUPTED = -13 /* ndt_interrupt() stopped the call
                               (KeyboardInterrupt)                         */
} ndt_status;

const char *ndt_status_string(ndt_status s);
/* The message of the last error on the calling thread ("" if none). For a
 * deferred error it is "<op>: <message>" (ndt_error.op, ndt_error.message). */
const char *ndt_last_error(void);

/* What kind of mistake an error is: the exception class NumPy raises for it,
 * so that a front end maps an error without reading its message. */
typedef enum {
  NDT_KIND_NONE = 0,
  NDT_KIND_MEMORY,        /* MemoryError                                     */
  NDT_KIND_VALUE,         /* ValueError                                      */
  NDT_KIND_TYPE,          /* TypeError (e.g. NumPy's legacy type resolver:
                             "ufunc 'x' not supported for the input types")  */
  NDT_KIND_UFUNC_TYPE,    /* numpy's UFuncTypeError, a TypeError: no loop for
                             the dtypes, or the casting rule forbids a cast  */
  NDT_KIND_INDEX,         /* IndexError                                      */
  NDT_KIND_AXIS,          /* numpy.exceptions.AxisError                      */
  NDT_KIND_OVERFLOW,      /* OverflowError                                   */
  NDT_KIND_UNSUPPORTED,   /* NotImplementedError                             */
  NDT_KIND_LINALG,        /* numpy.linalg.LinAlgError                        */
  NDT_KIND_INTERRUPTED,   /* KeyboardInterrupt (ndt_interrupt)               */
  NDT_KIND_INTERNAL       /* RuntimeError: a bug, a failed system call       */
} ndt_error_kind;

/* The last error on the calling thread, in parts. The strings are never
 * NULL ("" when absent) and stay valid until the thread's next error. */
typedef struct {
  ndt_status status;      /* what the failing call returned                  */
  ndt_error_kind kind;
  const char *arg;        /* the argument at fault as NumPy names it ("shape",
                             "axis", "axis1", "low", "high", "N", "M", ...)  */
  const char *op;         /* the op that failed when known; for a deferred
                             error the name of the task that failed          */
  const char *message;    /* NumPy's message, without the op                 */
  int deferred;           /* 1: a task failed after its call had returned,
                             reported by a later wait                        */
} ndt_error;
const ndt_error *ndt_last_error_info(void);
/* The kind an error with status s has unless its call says otherwise. */
ndt_error_kind ndt_status_kind(ndt_status s);

/* ---- dtypes (new values go at the end) -------------------------------- */
typedef enum {
  NDT_BOOL = 0,
  NDT_INT8, NDT_INT16, NDT_INT32, NDT_INT64,
  NDT_UINT8, NDT_UINT16, NDT_UINT32, NDT_UINT64,
  NDT_FLOAT32, NDT_FLOAT64,
  NDT_COMPLEX64, NDT_COMPLEX128,
  NDT_NTYPES,
  NDT_DTYPE_DEFAULT = -1     /* "choose as NumPy would" where a dtype is optional */
} ndt_dtype;

/* NumPy's casting rules (casting='no', ..., 'unsafe'), weakest last. */
typedef enum {
  NDT_CAST_NO = 0, NDT_CAST_EQUIV, NDT_CAST_SAFE, NDT_CAST_SAME_KIND, NDT_CAST_UNSAFE
} ndt_casting;

const char *ndt_dtype_name(ndt_dtype t);   /* NumPy's name: "float64", ... */
size_t ndt_dtype_size(ndt_dtype t);        /* bytes per element, 0 if invalid */
int ndt_can_cast(ndt_dtype from, ndt_dtype to, ndt_casting casting);
/* NumPy 2 promotion of two dtypes; a "weak" operand is a Python scalar
 * (NEP 50): its kind counts, its precision does not. */
ndt_dtype ndt_promote(ndt_dtype a, int a_weak, ndt_dtype b, int b_weak);

/* ---- runtime ---------------------------------------------------------- */
typedef struct {
  int workers;              /* worker threads; 0 = one per core (or $NDTILE_WORKERS) */
  int64_t tile_bytes;       /* target tile size; 0 = default (or $NDTILE_TILE_BYTES) */
  int64_t inline_elems;     /* ops on fewer elements run on the caller; <0 = default */
  const char *devices;      /* NULL = $NDTILE_DEVICES (default none): auto, none, cuda,
                               cuda:0,1, cuda:0,cuda:0 (two virtual devices on one GPU),
                               sim:N,mem=SIZE; read at the first start only */
} ndt_config;

/* Optional: the runtime starts itself with defaults on first use.
 * ndt_init may be called again after ndt_finalize with a new config. */
ndt_status ndt_init(const ndt_config *cfg);
/* Waits for all work, stops the workers. Arrays must have been freed. */
void ndt_finalize(void);
/* Waits for all recorded work; reports the first deferred error, if any. */
ndt_status ndt_sync(void);
int ndt_workers(void);
int64_t ndt_tile_bytes(void);
/* Processors the runtime registered at start: "cpu" always, then the
 * devices (NDTILE_DEVICES: "simdev", "simdev1", ... for sim:N; "cuda", ...);
 * i in [0, ndt_processor_count()). A task runs on the last registered one
 * that has a variant for it and accepts its dtypes, else on an earlier one. */
int ndt_processor_count(void);
const char *ndt_processor_name(int i);      /* NULL when out of range */
/* Every task recorded afterwards runs on the named processor alone (NULL:
 * the runtime chooses again); NDT_ERR_VALUE for a name not registered. Kept
 * across ndt_init. For tests and benchmarks that compare processors. */
ndt_status ndt_processor_select(const char *name);
/* Tasks that ran on the host CPU because the memory of the processor they
 * were placed on was full (NDT_ERR_NOMEM while binding their operands there,
 * or from a body that updates no operand in place): the automatic CPU
 * fallback. Counted since the process started. */
int64_t ndt_processor_fallbacks(void);
/* Devices (memories and processors besides the host's), as NDTILE_DEVICES
 * or ndt_config.devices chose them at the first start. ndt_device_get
 * fills *out for i in [0, ndt_device_count()): its processor's name
 * ("simdev", "simdev1", "cuda", ...), kind ("sim", "cuda"), index (the
 * CUDA device; sim: i), memory capacity and bytes in use now. With no
 * device, ndt_device_note says why (the plugin or driver that was
 * missing; "" when none was asked for). */
typedef struct {
  const char *name, *kind;
  int index;
  int64_t capacity, in_use;
} ndt_device_info;
int ndt_device_count(void);
ndt_status ndt_device_get(int i, ndt_device_info *out);
const char *ndt_device_note(void);
/* Counted since the process started: tile copies between memories and
 * their bytes, evictions from full device memories, CPU fallbacks. */
void ndt_device_stats(int64_t *copies, int64_t *copy_bytes, int64_t *evictions,
                      int64_t *fallbacks);
/* Test hooks: the n-th device allocation from now fails (0: off); a log of
 * placements, copies, evictions and fallbacks, one line each (on: cleared
 * and started; off: stopped), and its text so far (valid until the next
 * call of either). */
void ndt_debug_fail_dev_alloc_after(int64_t n);
void ndt_debug_device_log(int on);
const char *ndt_debug_device_log_text(void);
/* The NDTILE_* environment variables the runtime reads:
 * ndt_setting_name(i) for i = 0, 1, ... (NULL past the last). Counts
 * (NDTILE_WORKERS, NDTILE_INLINE_ELEMS, NDTILE_MAX_PENDING, NDTILE_MPI_SPIN)
 * are whole numbers, sizes (NDTILE_TILE_BYTES, NDTILE_MAX_MEMORY, ...) bytes;
 * both take a k, M, G or T suffix in powers of 1024 (sizes also fractions,
 * 1.5G, and the spellings 512KiB, 2MB). ndt_setting_parse reads text as the
 * runtime does: NDT_ERR_VALUE, naming the variable and the accepted forms,
 * for text that is not of its form or out of its range; ndt_init fails so
 * for a variable set that way. ndt_setting_value gives the value in force
 * (starting the runtime if needed). */
const char *ndt_setting_name(int i);
ndt_status ndt_setting_parse(const char *name, const char *text, int64_t *value);
ndt_status ndt_setting_value(const char *name, int64_t *value);
/* A word setting (NDTILE_FALLBACK: warn, ignore, error, summary) parses to
 * the index of its word; ndt_setting_choice names the value (NULL for a
 * number setting or an unknown value). */
const char *ndt_setting_choice(const char *name, int64_t value);
/* Changes take effect for arrays created afterwards. */
ndt_status ndt_set_workers(int n);
ndt_status ndt_set_tile_bytes(int64_t bytes);
ndt_status ndt_set_inline_elems(int64_t n);
/* Test hook: make the n-th allocation from now fail (n >= 1), 0 disables. */
void ndt_debug_fail_alloc_after(int64_t n);
/* The memory budget: the bytes of all live arrays (whole stores, counted
 * when they are made) may not pass the limit; an array that would fails at
 * once with NDT_ERR_NOMEM. The limit is NDTILE_MAX_MEMORY (512M, 4G, ...)
 * when set, else physical memory plus swap (less under a cgroup limit or
 * `ulimit -v`). ndt_set_memory_limit(0) goes back to that default. */
void ndt_set_memory_limit(int64_t bytes);
/* Bytes reserved by live stores, bytes of data buffers held, the limit. */
void ndt_memory_usage(int64_t *store_bytes, int64_t *data_bytes, int64_t *limit);
/* Interrupts: ndt_interrupt() asks the calling thread's long waits to
 * stop; it is async-signal-safe (a signal handler may call it) and may come
 * from any thread. A wait that sees it cancels the call's work still
 * pending (tasks not started are dropped, running ones finish in the
 * background) and returns NDT_ERR_INTERRUPTED. Arrays that cancelled work
 * was writing are marked lost: reading one fails (NDT_ERR_DEFERRED, a
 * message naming the interrupt); other arrays are intact.
 * ndt_clear_interrupt() forgets a request nobody acted on.
 * ndt_call_begin() marks where the program's current "call" (a statement:
 * the binding calls it as each outermost NumPy call starts) begins: an
 * interrupt then cancels only the work recorded since the last mark, and
 * the work of earlier calls goes on running; its arrays read their values
 * (the read waits for it). Without a mark, everything pending is
 * cancelled. Called on the thread that records (as every ndt_ call).
 * Waits that cannot fail (an op's wait at the look-ahead bound, settling
 * lent memory: ndt_host_settle) act on a request too: they cancel the
 * call's work, stop waiting for earlier calls' work, and leave the call
 * interrupted; its next wait returns NDT_ERR_INTERRUPTED, or
 * ndt_take_interrupted() returns 1 (once) for its caller to report it
 * (cancelling what the call recorded since). ndt_call_begin forgets it. */
void ndt_interrupt(void);
int ndt_interrupt_pending(void);
void ndt_clear_interrupt(void);
void ndt_call_begin(void);
int ndt_take_interrupted(void);
/* Tasks recorded and not finished (work held for fusion is not counted). */
int64_t ndt_pending_tasks(void);
/* Called by a thread whose wait lasts another slice (20 ms), with no lock
 * of the caller's held: the binding checks there that its SIGINT handler is
 * still in place. Must be async-signal-safe in spirit: no waiting. */
void ndt_set_wait_hook(void (*hook)(void));
/* The timeline: from ndt_trace_start on, every task's name, thread and times
 * are kept; ndt_trace_write waits for all work and writes them to the file
 * as a Chrome trace (open it in Perfetto). NDTILE_PROFILE=file starts one at
 * start-up and writes it at exit. */
ndt_status ndt_trace_start(const char *path);
ndt_status ndt_trace_write(void);
/* Stops the timeline and forgets it: nothing is written, not even at exit
 * (the launcher's own process, whose trace would overwrite its ranks').
 * ndt_trace_file: the file being recorded for, or NULL. With NDTILE_PROFILE
 * on many ranks, rank r writes FILE with ".rank<r>" before its extension
 * (t.json -> t.rank0.json); every event's pid is its rank; task events
 * carry args {bytes, tiles}: the bytes of the tile regions they used and
 * the number of tiles. */
void ndt_trace_stop(void);
const char *ndt_trace_file(void);

/* ---- observing: the build, the memories -------------------------------
 * What this build is and runs with (ndtile.show_config). Strings are
 * static, never NULL ("" when unknown). */
typedef struct {
  const char *blas;          /* which BLAS and how the build found it */
  const char *blas_config;   /* its own description (openblas_get_config) */
  const char *blas_core;     /* the kernel family in use (openblas_get_corename) */
  const char *blas_path;     /* the shared library it was loaded from */
  const char *sleef;         /* SLEEF's version */
  int simd_level;            /* 0 scalar, 1 SSE2, 2 AVX2+FMA, 3 AVX-512F */
  const char *simd;          /* its name */
  int mpi;                   /* built with MPI */
  const char *mpi_library;   /* the MPI library's version line ("" without MPI) */
  int rank, ranks, workers;
  int64_t tile_bytes, inline_elems;
  const char *compiler;
} ndt_build_info;
void ndt_build_info_get(ndt_build_info *out);
/* Memory i (0: host, then each backend's, as ndt_processor_name lists the
 * processors): bytes held in data buffers now and at most so far, bytes
 * the host keeps cached for reuse (and the peak counting them), bytes
 * reserved by live arrays (host: the memory budget's count) and the
 * capacity (host: the budget's limit; -1 when unknown). -1 past the last
 * memory, else 0. Counters are atomics kept as buffers come and go. */
typedef struct {
  const char *name;
  int64_t in_use, peak, cached, peak_with_cache, reserved, capacity;
} ndt_memory_stats;
int ndt_memory_stats_get(int i, ndt_memory_stats *out);
/* Number of tiles of a fresh array of this shape and dtype. */
int64_t ndt_tiles_for(int ndim, const int64_t *shape, ndt_dtype t);

/* ---- floating-point errors ---------------------------------------------
 * Like NumPy, ndtile notes the IEEE errors an operation raised: division by
 * zero (also integer // 0 and % 0), overflow, underflow and invalid values
 * (NaN from non-NaN inputs, a float cast to an integer it does not fit),
 * merged over all tiles of the op: one record per operation, named as NumPy
 * names it in its warnings ("divide", "sqrt", "cast", "reduce", ...). Ops
 * that NumPy never reports (comparisons, maximum, isnan, ...) record
 * nothing. A record is ready when the op's last task has run: at once for
 * work done inline on the caller, and at the latest when the data it wrote
 * is waited for (ndt_sync, ndt_to_buffer, ...). The flags have NumPy's
 * values (NPY_FPE_*). */
#define NDT_FPE_DIVIDE 1
#define NDT_FPE_OVERFLOW 2
#define NDT_FPE_UNDERFLOW 4
#define NDT_FPE_INVALID 8
/* Not an IEEE error: a write into an array with NumPy's WARN_ON_WRITE
 * flag (ndt_warn_on_write), the DeprecationWarning NumPy gives then. */
#define NDT_WARN_BROADCAST_WRITE 0x100
typedef struct {
  const char *op;      /* static string */
  unsigned flags;      /* NDT_FPE_* bits (or NDT_WARN_BROADCAST_WRITE) not handed out
                       * before for this op, not 0 */
  void *ctx;           /* the capture hook's value for this op (see below), or NULL */
} ndt_fp_error;
/* Not 0 when ndt_fp_errors_take may have something (a cheap check). */
int ndt_fp_errors_pending(void);
/* Moves up to cap records into out, oldest first; returns how many. Each
 * kind of error of an op is handed out once: when the op is done, or, for
 * an op with a ctx, as soon as one of its tiles raised it (so a wait on
 * part of its result reports it). ctx stays valid until the next call.
 * Until taken, at most 256 flagged records without a ctx are kept. On many
 * ranks (where a task runs on one rank) a record's flags are those of every
 * rank, agreed at the ranks' agreements (every read and ndt_sync): every
 * rank takes the same records with the same flags, after the same call. */
int ndt_fp_errors_take(ndt_fp_error *out, int cap);
/* For a front end that reports errors in the error state the program had
 * when it called the op (NumPy's errstate): capture() runs on the recording
 * thread when an op first defers work, and its value comes back as ctx;
 * release(ctx) is called (from ndt_fp_errors_take) when the op is done and
 * all reported. */
void ndt_fp_set_hooks(void *(*capture)(void), void (*release)(void *));
/* The ops called between these two report their floating-point errors as
 * one op called name (a static string), once per kind of error: NumPy's
 * divmod computes floor_divide and remainder in one loop and reports
 * "divmod" (ndt_divmod uses it). An op or group begun inside a group is
 * part of it. */
void ndt_fp_group_begin(const char *name);
void ndt_fp_group_end(void);

/* ---- many processes (MPI, control replication) ------------------------
 * Started under mpirun/mpiexec/srun (or the `ndtile` launcher) the runtime
 * joins MPI_COMM_WORLD; as a plain process it is rank 0 of 1. Every rank
 * runs the same program and makes the same calls in the same order; tiles
 * are spread over the ranks (contiguous runs of a store's tiles per rank), a
 * task runs on the rank that owns its output, and data moves between ranks
 * as point-to-point messages. Reading data out (ndt_to_buffer, ndt_item)
 * gives every rank the same values; a deferred error on any rank is reported
 * on every rank. NDTILE_MPI=0 forces a single process, NDTILE_MPI=1 forces
 * MPI. Results are bitwise the same on any number of ranks. */
int ndt_rank(void);
int ndt_nranks(void);
/* Waits until every rank has called it (returns at once on one rank). */
ndt_status ndt_barrier(void);
/* Copies n bytes from `root`'s buf into every rank's buf. */
ndt_status ndt_bcast(void *buf, size_t n, int root);
/* Stops every rank with this exit code: the fail-stop path for an error
 * that is not the same on all ranks. Does not return. */
void ndt_abort(int code);
/* The exit status the program is about to end with (the binding's
 * sys.exit): a rank that ends while others still wait for it names it in
 * the message that stops them, and the job ends with it. */
void ndt_set_exit_code(int code);
/* The program ends (call it before any last ndt_sync at exit; the runtime
 * calls it at exit too): on many ranks, tells the other ranks and waits
 * until every rank ends; ranks that ended at different points, or a rank
 * that ends while the others wait for it, stop every rank with a message.
 * Nothing on one rank. */
void ndt_end_together(void);
/* Traffic between ranks since the last reset, counted by this rank. */
typedef struct {
  int64_t sends, send_bytes;      /* point-to-point messages this rank sent */
  int64_t recvs, recv_bytes;      /* ... and received */
  int64_t collectives, coll_bytes; /* broadcasts and agreements it took part in */
} ndt_comm_stats;
void ndt_comm_stats_get(ndt_comm_stats *out);
void ndt_comm_stats_reset(void);

/* The axis argument that means "the C-order flattened array" (NumPy's
 * axis=None) in ndt_sort, ndt_partition and ndt_scan. (ndt_reduce takes a
 * mask of axes instead: NDT_ALL_AXES.) */
#define NDT_AXIS_FLAT INT32_MIN

/* ---- arrays: handles and queries -------------------------------------- */
typedef struct ndt_array ndt_array;

void ndt_free(ndt_array *a);                    /* NULL is fine */
int ndt_ndim(const ndt_array *a);
const int64_t *ndt_shape(const ndt_array *a);   /* valid while a lives */
const int64_t *ndt_strides(const ndt_array *a); /* in elements of the store */
int64_t ndt_offset(const ndt_array *a);         /* in elements of the store */
int ndt_part(const ndt_array *a);               /* bytes into each element: .imag */
int64_t ndt_size(const ndt_array *a);
ndt_dtype ndt_dtype_of(const ndt_array *a);
int ndt_is_weak(const ndt_array *a);            /* created from a Python scalar */
void ndt_set_weak(ndt_array *a, int weak);
/* 1 when a and b are views of the same store (may share memory). */
int ndt_same_store(const ndt_array *a, const ndt_array *b);
/* 1 when a is C-contiguous and covers its whole store from offset 0. */
int ndt_is_whole(const ndt_array *a);
int ndt_is_c_contiguous(const ndt_array *a);
/* NumPy's F_CONTIGUOUS (C order of the reversed axes). Both flags follow
 * NumPy's relaxed rules: unit axes do not count, empty arrays are contiguous;
 * a .real/.imag view of a complex array (elements two apart) is contiguous
 * only when it has at most one element. */
int ndt_is_f_contiguous(const ndt_array *a);
/* NumPy's OWNDATA: a was made with its store (not a view of another array). */
int ndt_owns_data(const ndt_array *a);
/* NumPy's WRITEABLE flag. Views are made with their base's flag; an op asked
 * to write into a read-only array fails with NDT_ERR_VALUE (NumPy's
 * "assignment destination is read-only" / "output array is read-only") and
 * writes nothing. Clearing always succeeds; setting it again fails with
 * NDT_ERR_VALUE on a view whose store's owner handle is read-only (NumPy's
 * rule for a view of a read-only base). writeable 2 sets it on such a view
 * too: NumPy allows it where another view between this one and the owner
 * is writeable (the binding walks that chain of Python bases). */
int ndt_is_writeable(const ndt_array *a);
ndt_status ndt_set_writeable(ndt_array *a, int writeable);
/* NumPy's private WARN_ON_WRITE flag (set on np.broadcast_arrays results
 * that are broadcast views of writeable inputs). Views are made with their
 * base's flag, ndt_set_writeable (either way) clears it, and a handle
 * without WRITEABLE never reports it. Like NumPy's C API
 * (PyArray_FailUnlessWriteable), an op that writes into such a handle
 * (ndt_assign, ndt_fill, ndt_apply and ndt_matmul with *out, ndt_put,
 * ndt_host_export and ndt_host_tiles for writing) clears its flag and
 * writes (the ufunc .at ops by indexes write without a word, the flag kept,
 * as NumPy's ufunc.at), and NumPy's DeprecationWarning becomes a record
 * for ndt_fp_errors_take: op "write", flags NDT_WARN_BROADCAST_WRITE
 * (once per handle, as the flag is cleared). A front end that warns
 * itself checks ndt_warn_on_write before it writes and clears the flag
 * once it has warned, so the core records nothing more (the Python
 * binding does, and ignores the record). */
int ndt_warn_on_write(const ndt_array *a);
void ndt_set_warn_on_write(ndt_array *a, int on);
int64_t ndt_store_size(const ndt_array *a);
/* Bytes per element of the store (twice a .real/.imag view's itemsize). */
size_t ndt_store_itemsize(const ndt_array *a);
int64_t ndt_ntiles(const ndt_array *a);         /* tiles of the store */

/* ---- creation --------------------------------------------------------- */
ndt_status ndt_empty(ndt_array **out, int ndim, const int64_t *shape, ndt_dtype t);
ndt_status ndt_zeros(ndt_array **out, int ndim, const int64_t *shape, ndt_dtype t);
ndt_status ndt_ones(ndt_array **out, int ndim, const int64_t *shape, ndt_dtype t);
/* value points to one element of dtype vtype; it is cast (unsafe) to t. */
ndt_status ndt_full(ndt_array **out, int ndim, const int64_t *shape, ndt_dtype t,
                    const void *value, ndt_dtype vtype);
/* A 0-d array; weak marks a Python scalar for NEP 50 promotion. */
ndt_status ndt_scalar(ndt_array **out, ndt_dtype t, const void *value, int weak);
/* arange: n = ceil((stop - start) / step) elements start + i*step. */
ndt_status ndt_arange(ndt_array **out, double start, double stop, double step, ndt_dtype t);
ndt_status ndt_linspace(ndt_array **out, double start, double stop, int64_t num,
                        int endpoint, ndt_dtype t);
/* n rows, m columns (-1: n), ones on diagonal k; a negative n, or m below
 * -1, is NumPy's "negative dimensions are not allowed" (arg "N" or "M"). */
ndt_status ndt_eye(ndt_array **out, int64_t n, int64_t m, int64_t k, ndt_dtype t);
/* Copies host data of dtype t at data with byte strides (NULL = C order). */
ndt_status ndt_from_buffer(ndt_array **out, ndt_dtype t, int ndim, const int64_t *shape,
                           const void *data, const int64_t *byte_strides);
/* Waits for a's data, then copies it in C order to dst (ndt_size*itemsize bytes). */
ndt_status ndt_to_buffer(const ndt_array *a, void *dst);
/* Same, to a strided destination (byte strides, one per dimension). */
ndt_status ndt_to_buffer_strided(const ndt_array *a, void *dst, const int64_t *byte_strides);
/* Reads one element at a multi-index (negative indices not allowed) into dst. */
ndt_status ndt_get_item(const ndt_array *a, const int64_t *index, void *dst);
/* Lends the host memory of a's elements to the caller (the buffer protocol,
 * ctypes): waits for the work pending on a's store (on the tiles a uses when
 * they are one buffer, else on all of them, which are then moved into one
 * buffer, once), and sets *ptr to a's first element (index 0, ...); the
 * element at index i lies at *ptr + sum(i[k] * strides[k] * store itemsize).
 * While it is lent (until the matching ndt_host_release) no work on the
 * store is held back for fusion, and ndt_host_settle waits for the tasks
 * recorded on it since: call it before touching the memory after recording
 * work on the store (the Python binding calls it at the end of every call).
 * for_write: the borrower may write (waits for pending readers too);
 * NDT_ERR_VALUE when a is read-only. NDT_ERR_UNSUPPORTED on several ranks. */
ndt_status ndt_host_export(const ndt_array *a, int for_write, void **ptr);
void ndt_host_release(const ndt_array *a);
/* The tiles of a's store that this rank owns, for code outside the core
 * that fills (a file reader) or reads (a writer) a whole array in place:
 * out[k] = {start, len, data}: flat C-order elements [start, start + len)
 * of a lie at data, contiguous. Tiles are rectangular blocks (whole rows of
 * the trailing axes), so each range is one box of a. Writes up to cap
 * entries and sets *n to the number of owned tiles (call with cap 0 to
 * count). Waits for every task on the store first; for_write leaves the
 * host copy the only valid one and records the store as written here, so
 * the tasks recorded after see the caller's bytes. The caller may use the
 * buffers, from any thread, until it next records work on the store or
 * drops it. a must be a whole C-contiguous array (NDT_ERR_VALUE for a view
 * or, for_write, a read-only one). On many ranks every rank calls it for
 * the same array at the same point of the program. */
typedef struct { int64_t start, len; void *data; } ndt_host_tile;
ndt_status ndt_host_tiles(const ndt_array *a, int for_write, ndt_host_tile *out, int64_t cap,
                          int64_t *n);
/* Waits for the tasks recorded on lent stores since the last call (their
 * errors are reported at the next wait); at once when there are none. */
void ndt_host_settle(void);
/* Test hooks: ndt_debug_hold(a) records a task that uses a (read and
 * written, its values unchanged) and lasts until ndt_debug_release(),
 * which ends every hold recorded so far: long work on a, for tests of
 * waits and interrupts that need no timing luck. */
ndt_status ndt_debug_hold(ndt_array *a);
void ndt_debug_release(void);
/* Test hook: caps the CPU kernels' instruction set at `level` (0 scalar,
 * 1 SSE2, 2 AVX2+FMA, 3 AVX-512F; the machine's own where that is lower)
 * and installs the kernel table of that level; call it with no work in
 * flight (after ndt_sync: the binding's _simd_cap syncs). level < 0 only
 * asks. Returns
 * the level in force (ndt_build_info's simd_level), so that one machine
 * runs the tests of floating-point flags on every instruction set it has. */
int ndt_simd_cap(int level);

/* ---- views (never copy; writes land in the base store) ---------------- */
typedef enum { NDT_IDX_INT, NDT_IDX_SLICE, NDT_IDX_NEWAXIS, NDT_IDX_ELLIPSIS } ndt_index_kind;
typedef struct {
  ndt_index_kind kind;
  int64_t start, stop, step;   /* INT uses start; SLICE uses all three */
  int has_start, has_stop;     /* SLICE: 0 means omitted (NumPy's None) */
} ndt_index;
/* Basic indexing exactly as NumPy: ints drop a dimension (negative counts
 * from the end), slices clip, one Ellipsis, newaxis inserts a unit axis. */
ndt_status ndt_view_index(ndt_array **out, const ndt_array *a, int nidx, const ndt_index *idx);
/* perm == NULL reverses the axes (a.T). */
ndt_status ndt_transpose(ndt_array **out, const ndt_array *a, const int *perm);
ndt_status ndt_swapaxes(ndt_array **out, const ndt_array *a, int ax1, int ax2);
ndt_status ndt_broadcast_to(ndt_array **out, const ndt_array *a, int ndim, const int64_t *shape);
/* A view when NumPy's reshape gives one, a copy otherwise. One -1 allowed. */
ndt_status ndt_reshape(ndt_array **out, const ndt_array *a, int ndim, const int64_t *shape);
/* NumPy's ravel: order 'C', 'F', 'A' or 'K'. A 1-d view when NumPy gives one
 * (the elements are contiguous in that order: C-contiguous for 'C', ...; for
 * 'K' also any axis order of positive strides that packs them), else a new
 * array: the elements in that order ('K': axes by decreasing |stride|, each
 * in its own direction, as NumPy). */
ndt_status ndt_ravel(ndt_array **out, const ndt_array *a, char order);
/* NumPy's concatenate without out=: a new array of dtype t holding in[0..n)
 * one after another along axis (negative counts from the end), each cast to
 * t unsafely (the caller checks the casting rule). The arrays must have the
 * same ndim (at least 1) and the same extents except along axis. */
ndt_status ndt_concatenate(ndt_array **out, int n, const ndt_array *const *in, int axis,
                           ndt_dtype t);
/* Removes unit axes: all of them when naxes == 0. */
ndt_status ndt_squeeze(ndt_array **out, const ndt_array *a, int naxes, const int *axes);
ndt_status ndt_expand_dims(ndt_array **out, const ndt_array *a, int axis);
/* The view of the real or imaginary part of a complex array (a itself, or
 * zeros for imag, when real). */
ndt_status ndt_real(ndt_array **out, const ndt_array *a);
ndt_status ndt_imag(ndt_array **out, const ndt_array *a);
/* Broadcast shape of n shapes (NumPy rules). */
ndt_status ndt_broadcast_shapes(int n, const int *ndims, const int64_t *const *shapes,
                                int *out_ndim, int64_t *out_shape);

/* ---- copies, casts and assignment ------------------------------------- */
ndt_status ndt_copy(ndt_array **out, const ndt_array *a);       /* C order */
ndt_status ndt_astype(ndt_array **out, const ndt_array *a, ndt_dtype t, ndt_casting casting);
/* dst[...] = src, with broadcasting and casting (same_kind unless unsafe).
 * Overlapping src and dst give NumPy's result (src is read as before). */
ndt_status ndt_assign(ndt_array *dst, const ndt_array *src, ndt_casting casting);
ndt_status ndt_fill(ndt_array *dst, const void *value, ndt_dtype vtype);

/* ---- elementwise operations (ufuncs) ---------------------------------- */
typedef enum {
  /* binary */
  NDT_ADD = 0, NDT_SUBTRACT, NDT_MULTIPLY, NDT_TRUE_DIVIDE, NDT_FLOOR_DIVIDE,
  NDT_REMAINDER, NDT_POWER, NDT_EQUAL, NDT_NOT_EQUAL, NDT_LESS, NDT_LESS_EQUAL,
  NDT_GREATER, NDT_GREATER_EQUAL, NDT_LOGICAL_AND, NDT_LOGICAL_OR, NDT_LOGICAL_XOR,
  NDT_BITWISE_AND, NDT_BITWISE_OR, NDT_BITWISE_XOR, NDT_LEFT_SHIFT, NDT_RIGHT_SHIFT,
  NDT_MAXIMUM, NDT_MINIMUM, NDT_FMAX, NDT_FMIN, NDT_ARCTAN2, NDT_HYPOT, NDT_COPYSIGN,
  NDT_FMOD, NDT_LOGADDEXP, NDT_NEXTAFTER,
  /* unary */
  NDT_NEGATIVE, NDT_POSITIVE, NDT_ABSOLUTE, NDT_SIGN, NDT_LOGICAL_NOT, NDT_INVERT,
  NDT_SQRT, NDT_CBRT, NDT_SQUARE, NDT_RECIPROCAL, NDT_EXP, NDT_EXP2, NDT_EXPM1,
  NDT_LOG, NDT_LOG2, NDT_LOG10, NDT_LOG1P, NDT_SIN, NDT_COS, NDT_TAN, NDT_ARCSIN,
  NDT_ARCCOS, NDT_ARCTAN, NDT_SINH, NDT_COSH, NDT_TANH, NDT_ARCSINH, NDT_ARCCOSH,
  NDT_ARCTANH, NDT_FLOOR, NDT_CEIL, NDT_TRUNC, NDT_RINT, NDT_ISNAN, NDT_ISINF,
  NDT_ISFINITE, NDT_SIGNBIT, NDT_CONJUGATE, NDT_DEG2RAD, NDT_RAD2DEG,
  /* ternary */
  NDT_WHERE, NDT_CLIP,
  /* more ufuncs (src/kernels/cpu/loops_extra.c), NumPy's semantics:
   * binary: gcd, lcm (integers, on absolute values: non-negative unless
   * the result wraps, as in NumPy), heaviside, ldexp (float mantissa,
   * integer exponent: not promoted together), logaddexp2;
   * unary: spacing, bitwise_count (integers -> uint8), and the two outputs
   * of frexp (mantissa; NDT_FREXP_EXP: the int32 exponent) and modf
   * (fraction; NDT_MODF_INT: the integral part) as separate ops. */
  NDT_GCD, NDT_LCM, NDT_HEAVISIDE, NDT_LDEXP, NDT_LOGADDEXP2,
  NDT_SPACING, NDT_BITWISE_COUNT, NDT_FREXP, NDT_FREXP_EXP, NDT_MODF, NDT_MODF_INT,
  /* NumPy's ufuncs of their own name and loops over another's formula:
   * float_power (power in float64/complex128 only, plain pow: no sqrt
   * for a 0.5 exponent), degrees (rad2deg), radians (deg2rad); they
   * report floating-point errors under their own names */
  NDT_FLOAT_POWER, NDT_DEGREES, NDT_RADIANS,
  NDT_NUFUNCS
} ndt_ufunc;

const char *ndt_ufunc_name(ndt_ufunc op);   /* NumPy's name: "add", ... */
int ndt_ufunc_nin(ndt_ufunc op);
/* NumPy's type resolution (ufunc.resolve_dtypes) for inputs of dtypes
 * types[0..nin-1]; weak[k] != 0 marks a Python scalar (NEP 50; weak may be
 * NULL), dtype is NumPy's dtype= or NDT_DTYPE_DEFAULT. Fills loop[0..nin-1]
 * with the dtypes the inputs are cast to and loop[nin] with the output's.
 * Where NumPy's loop is float16 (sqrt of int8, ...) ndtile runs the float32
 * one and sets NDT_RESOLVE_HALF in *flags (flags may be NULL). Fails with
 * NDT_ERR_TYPE and NumPy's message when NumPy has no loop. */
#define NDT_RESOLVE_HALF 1u
ndt_status ndt_ufunc_resolve(ndt_ufunc op, int nin, const ndt_dtype *types, const int *weak,
                             ndt_dtype dtype, ndt_dtype *loop, unsigned *flags);
/* The output dtype NumPy would choose for these inputs (dtype: loop dtype
 * requested with NumPy's dtype=, or NDT_DTYPE_DEFAULT). */
ndt_status ndt_ufunc_result_type(ndt_ufunc op, int nin, const ndt_array *const *in,
                                 ndt_dtype dtype, ndt_dtype *out_type);
/* Applies op elementwise with broadcasting. If *out is NULL a new array is
 * created; otherwise the result is written into *out (same_kind casting). */
ndt_status ndt_apply(ndt_array **out, ndt_ufunc op, int nin, const ndt_array *const *in,
                     ndt_dtype dtype);
/* NumPy's divmod: *q = a // b and *r = a % b (each NULL: a new array, else
 * written as ndt_apply's *out), their floating-point errors reported once,
 * as "divmod". */
ndt_status ndt_divmod(ndt_array **q, ndt_array **r, const ndt_array *a, const ndt_array *b,
                      ndt_dtype dtype);
/* Shorthands. */
ndt_status ndt_binary(ndt_array **out, ndt_ufunc op, const ndt_array *a, const ndt_array *b);
ndt_status ndt_unary(ndt_array **out, ndt_ufunc op, const ndt_array *a);
ndt_status ndt_where(ndt_array **out, const ndt_array *cond, const ndt_array *x,
                     const ndt_array *y);
/* clip(a, lo, hi): lo or hi may be NULL (no bound). */
ndt_status ndt_clip(ndt_array **out, const ndt_array *a, const ndt_array *lo, const ndt_array *hi);

/* ---- reductions ------------------------------------------------------- */
typedef enum {
  NDT_RED_SUM = 0, NDT_RED_PROD, NDT_RED_MIN, NDT_RED_MAX, NDT_RED_ANY, NDT_RED_ALL,
  NDT_RED_COUNT_NONZERO, NDT_RED_MEAN, NDT_RED_VAR, NDT_RED_STD,
  NDT_RED_ARGMIN, NDT_RED_ARGMAX,
  NDT_RED_NANSUM, NDT_RED_NANPROD, NDT_RED_NANMIN, NDT_RED_NANMAX,
  /* the bitwise ufuncs' reductions (bool and integers) and logical_xor's
   * (into bool, as ANY and ALL): exact and associative, any order of the
   * fold gives the same bits */
  NDT_RED_BITWISE_AND, NDT_RED_BITWISE_OR, NDT_RED_BITWISE_XOR, NDT_RED_LOGICAL_XOR,
  NDT_NREDUCE
} ndt_reduce_op;

/* axes: bit k set reduces axis k; NDT_ALL_AXES reduces all. For ARGMIN/ARGMAX
 * exactly one axis bit or NDT_ALL_AXES (then the index is into the C-order
 * flattened array). dtype: accumulator/result dtype or NDT_DTYPE_DEFAULT.
 * ddof is used by VAR and STD only. Reducing an empty array with MIN/MAX/ARG*
 * is a ValueError, as in NumPy. */
#define NDT_ALL_AXES UINT64_MAX
/* NumPy's function name of a reduction ("sum", "min", ..., "nanmax"); NULL if
 * op is none. */
const char *ndt_reduce_name(ndt_reduce_op op);
ndt_status ndt_reduce(ndt_array **out, ndt_reduce_op op, const ndt_array *a, uint64_t axes,
                      int keepdims, ndt_dtype dtype, int64_t ddof);
/* ndt_reduce with NumPy's initial= for SUM, PROD, NANSUM and NANPROD:
 * every result element's fold starts from *initial (one value of the
 * accumulator dtype: dtype, or the default's, int64 for a sum of int32),
 * where NumPy's accumulator starts, in place of the identity: initial +
 * pw(x) for a float sum, (initial * x0) * x1 ... for a product, so NumPy's
 * bits (sum(x, initial=-0.0) of -0.0s is -0.0; prod(x, initial=0) of
 * values whose product overflows is 0, not inf * 0). An empty reduction gives initial. Other
 * ops: NDT_ERR_VALUE. */
ndt_status ndt_reduce_initial(ndt_array **out, ndt_reduce_op op, const ndt_array *a,
                              uint64_t axes, int keepdims, ndt_dtype dtype,
                              const void *initial);
/* A float or complex sum under NumPy's where= mask, in NumPy's order: x
 * (float or complex) and w (bool) are (K, R, L) views of one shape; result
 * element k (a 1-d array of K, x's dtype) folds from *start (NULL: 0), for
 * each r in order, every run of True of w[k, r, :] as one pairwise sum:
 * start + pw(run0) + pw(run1) + ..., as NumPy's masked loop adds the runs
 * of its inner loop (the line L). NANSUM is SUM of an input whose NaNs the
 * caller replaced. */
ndt_status ndt_sum_where_lines(ndt_array **out, ndt_reduce_op op, const ndt_array *x,
                               const ndt_array *w, const void *start);
/* ---- counting and searching ------------------------------------------ */
/* NumPy's bincount: x is 1-d with non-negative integers; the result has
 * max(x)+1 (at least minlength) bins, int64 counts, or float64 sums of
 * weights (same shape as x) when weights is not NULL. Waits for max(x). */
ndt_status ndt_bincount(ndt_array **out, const ndt_array *x, const ndt_array *weights,
                        int64_t minlength);
/* NumPy's argwhere: the indices of the non-zero elements of a, in C order,
 * as an int64 array of shape (count, ndim). nonzero(a) is its transpose.
 * Waits for the count. */
ndt_status ndt_argwhere(ndt_array **out, const ndt_array *a);

/* Integer-array indexing, a[idx[0], ..., idx[ndim-1]]: idx holds ndim(a)
 * integer arrays of one shape (broadcast by the caller), each index already
 * in [0, shape[k]) (NDT_ERR_INDEX otherwise, naming NumPy's index: the first
 * index array holding a bad index, its first in C order, on any number of
 * workers). The result has idx's shape and a's dtype. Where the result has
 * several blocks, there are several index arrays, or the indices may reach
 * more than a tile of a, the call first finds each block's least and
 * greatest index (one task per block) and waits for them: each gather task
 * then reads only the part of a between them, and the call reports a bad
 * index itself; otherwise (one task) at the next wait. */
ndt_status ndt_gather(ndt_array **out, const ndt_array *a, const ndt_array *const *idx);
/* ndt_gather with a result of shape (nd axes) where axes of a may be
 * sliced rather than indexed: for axis k of a, idx[k] is an integer array
 * of that shape whose every value lies in [0, hi[k]) (hi NULL: a's length
 * of axis k; 0 <= hi[k] <= that length; a value outside it is
 * NDT_ERR_INDEX, reported as out of bounds for an axis of size hi[k]), or
 * NULL: then a's index along k is start[k] + step[k] * i at the result's
 * index i along axis ax[k] (every one in range; step 0 repeats one).
 * ndt_gather(out, a, idx) is ndt_gather_slices(out, a, nd, idx[0]'s shape,
 * idx, NULL, NULL, NULL, NULL). Each task reads only the part of a that
 * its block of the result can reach: the block's own positions along the
 * sliced axes, along the indexed ones its indices' [least, greatest] (or
 * [0, hi[k]) where one task does all): NumPy's take along an axis,
 * take_along_axis and a[..., idx, ...] with slices elsewhere read one
 * block's rows, not the whole source. With hi, whose caller has checked
 * its indices, ndt_gather's bounds pass runs only where the result has
 * several blocks and a block's part of a could span more than two tiles of
 * a (a bad index is then still
 * NDT_ERR_INDEX, though not always the first one). */
ndt_status ndt_gather_slices(ndt_array **out, const ndt_array *a, int nd, const int64_t *shape,
                             const ndt_array *const *idx, const int *ax, const int64_t *start,
                             const int64_t *step, const int64_t *hi);

/* Reads a 0-d or size-1 array's element (waits for it), cast to t. */
ndt_status ndt_item(const ndt_array *a, ndt_dtype t, void *dst);

/* ---- sorting (src/ops/sort.c) ---------------------------------------- */
/* NumPy's sort (want_indices == 0) and argsort (want_indices != 0, int64
 * result) along axis (negative counts from the end), or of the C-order
 * flattened array (a 1-d result) when axis is NDT_AXIS_FLAT. NumPy's
 * ordering: NaNs last, complex lexicographic by (real, imag) with NumPy's
 * NaN rules; the sort is stable (equal keys, including -0.0 and 0.0, keep
 * their order), which satisfies every NumPy `kind`. An axis out of range is
 * NDT_ERR_AXIS (a 0-d array has no axis -1). Each 1-d slice along the axis is
 * sorted whole by one task, so results do not depend on the workers.
 *
 * want_indices may add NDT_SORT_QUIET_NAN: a value sort of float32 or float64
 * then writes every NaN as the default quiet NaN (sign clear, no payload), as
 * NumPy's vectorised quicksort and heapsort do on x86 (its stable sort keeps
 * each NaN's bits, as ndt_sort does without the flag). */
#define NDT_SORT_QUIET_NAN 2
ndt_status ndt_sort(ndt_array **out, const ndt_array *a, int axis, int want_indices);

/* ---- selection and searching (src/ops/sort.c, src/ops/select.c) ---- */
/* NumPy's partition (want_indices == 0) and argpartition (int64 indices)
 * along axis, or of the C-order flattened array when axis is
 * NDT_AXIS_FLAT. After the call, element kth[q] of every line is the one
 * a sort would put there, elements before it are not greater and elements
 * after it not less (NumPy's order: NaNs last); the order inside each side
 * is unspecified. kth values may be negative (counted from the end) and
 * repeat; one outside the line is NDT_ERR_VALUE ("kth(=5) out of bounds
 * (5)"). Each line is handled whole by one task (introselect), so results
 * do not depend on the workers. */
ndt_status ndt_partition(ndt_array **out, const ndt_array *a, int axis, int nkth,
                         const int64_t *kth, int want_indices);
/* NumPy's searchsorted: a is 1-d and sorted in NumPy's order (NaNs last), v
 * any shape of the same dtype (the caller casts both to a common dtype and
 * applies any sorter). The result (int64, v's shape) holds for each value the
 * first index i with a[i] >= v (right == 0) or a[i] > v (right != 0). Tasks
 * are blocks of v; each reads all of a. */
ndt_status ndt_searchsorted(ndt_array **out, const ndt_array *a, const ndt_array *v, int right);
/* The bin of each value of x (any shape, real) for NumPy's histogram with
 * nbins = len(edges) - 1 uniform bins: edges (float32 or float64, NumPy's
 * linspace(first, last, nbins + 1) in that dtype) fix the dtype T the
 * values are compared in. A value v (cast to T) outside [first, last] or NaN
 * gets bin nbins; otherwise trunc((v - first) / denom * nbins), corrected
 * by one against the neighbouring edges exactly as numpy.histogram does
 * (the last bin includes its right edge). single_d / single_f make the
 * offset v - first / the scaling run in float32 (as NumPy's promotion of its
 * scalar types does) instead of float64. Result int64 of x's shape. */
ndt_status ndt_histogram_bins(ndt_array **out, const ndt_array *x, const ndt_array *edges,
                              double first, double last, double denom, int single_d, int single_f);
/* The counts of those bins (int64), or the float64 sums of weights (x's
 * shape) in them, in one pass: each block counts into its own histogram and
 * the histograms are added in block order, so float sums have the same bits
 * for any number of workers or ranks. */
ndt_status ndt_histogram_count(ndt_array **out, const ndt_array *x, const ndt_array *edges,
                               double first, double last, double denom, int single_d, int single_f,
                               const ndt_array *weights);

/* ---- scans (src/ops/scan.c) ---- */
/* NumPy's cumsum, cumprod, nancumsum and nancumprod, and the accumulate
 * method of maximum, minimum, fmax, fmin, logical_and/or/xor,
 * bitwise_and/or/xor and subtract, along one axis, or over the C-order
 * flattened array when axis is NDT_AXIS_FLAT (a 0-d array is scanned as one
 * element with axis NDT_AXIS_FLAT, 0 or -1). The result is a new
 * C-contiguous array of dtype `dtype`, or, for NDT_DTYPE_DEFAULT, NumPy's:
 * for the sums and products, bool and signed integers narrower than 64 bits
 * give int64, narrower unsigned integers uint64, others keep their dtype;
 * the logical scans give bool; the others keep the input's dtype. Input
 * elements are cast to the result dtype and accumulated in it (integers
 * wrap; bool sums are logical or, products logical and), as NumPy's loop:
 * out[0] = x[0], out[i] = out[i-1] (op) x[i]. The nan variants treat NaN as
 * 0 (sums) or 1 (products). maximum and minimum propagate NaN (the first
 * one sticks), fmax and fmin ignore it; complex values compare
 * lexicographically, with NumPy's NaN rules. NDT_ERR_TYPE where NumPy has
 * no loop: the bitwise scans of a float or complex result dtype, the
 * logical scans of a result dtype other than bool, subtract of bool.
 * Float and complex sums, products and subtract run each line in NumPy's
 * sequential order (blocks along the axis follow each other), the other
 * scans are exact and associative (integers wrap) and combine per-block
 * scans through carries in block order: the bits are NumPy's for any
 * number of workers or ranks. *out receives the new array. */
typedef enum {
  NDT_SCAN_CUMSUM = 0, NDT_SCAN_CUMPROD, NDT_SCAN_NANCUMSUM, NDT_SCAN_NANCUMPROD,
  NDT_SCAN_MAXIMUM, NDT_SCAN_MINIMUM, NDT_SCAN_FMAX, NDT_SCAN_FMIN,
  NDT_SCAN_LOGICAL_AND, NDT_SCAN_LOGICAL_OR, NDT_SCAN_LOGICAL_XOR,
  NDT_SCAN_BITWISE_AND, NDT_SCAN_BITWISE_OR, NDT_SCAN_BITWISE_XOR,
  NDT_SCAN_SUBTRACT
} ndt_scan_op;
ndt_status ndt_scan(ndt_array **out, ndt_scan_op op, const ndt_array *a, int axis, ndt_dtype dtype);
/* The result dtype ndt_scan uses for an input dtype and a requested dtype
 * (NDT_DTYPE_DEFAULT for a combination ndt_scan refuses). */
ndt_dtype ndt_scan_result_type(ndt_scan_op op, ndt_dtype in, ndt_dtype dtype);

/* ---- Fourier transforms (src/ops/fft.c) ------------------------------ */
/* numpy.fft's 1-d transforms along axis (negative counts from the end) with
 * transform length n >= 1 (NDT_ERR_VALUE otherwise):
 *   NDT_FFT_FORWARD   complex to complex, y[k] = sum_j x[j] exp(-2 pi i jk/n)
 *   NDT_FFT_BACKWARD  complex to complex, the same with exp(+2 pi i jk/n)
 *   NDT_FFT_R2C       real input (complex input is NDT_ERR_TYPE), the first
 *                     n/2+1 values of the forward transform
 *   NDT_FFT_C2R       Hermitian input: the n/2+1 values X[0..n/2], extended
 *                     by X[n-k] = conj(X[k]); the real backward transform
 *                     (imaginary parts of X[0] and, n even, X[n/2] ignored)
 * Along the axis the input is cut to, or padded with zeros to, n values
 * (n/2+1 for NDT_FFT_C2R), as NumPy's `n`; every result value is multiplied
 * by scale (1 for none; NumPy's `norm` is the caller's choice of scale).
 * The result is a new C-contiguous array whose axis has n values (n/2+1 for
 * NDT_FFT_R2C); its dtype is ndt_fft_result_type: complex64 (float32 for
 * NDT_FFT_C2R) for float32/complex64 input, else complex128 (float64).
 * Transforms are computed in double precision; every length is O(n log n)
 * (Bluestein for large prime factors). Each 1-d line is transformed whole by
 * one task, so results do not depend on the workers or ranks. An axis out
 * of range is NDT_ERR_AXIS. */
typedef enum {
  NDT_FFT_FORWARD = 0, NDT_FFT_BACKWARD = 1, NDT_FFT_R2C = 2, NDT_FFT_C2R = 3
} ndt_fft_kind;
ndt_status ndt_fft(ndt_array **out, const ndt_array *a, int axis, int64_t n, ndt_fft_kind kind,
                   double scale);
ndt_dtype ndt_fft_result_type(ndt_dtype in, ndt_fft_kind kind);

/* ---- matrix products (src/ops/matmul.c) -------------------------------- */
/* NumPy's matmul (the @ operator). The last two axes are matrices and the
 * leading axes broadcast; a 1-d first operand is a row vector and a 1-d
 * second operand a column vector, and that axis is left out of the result
 * (1-d @ 1-d gives a 0-d array). The result dtype is ndt_promote of the two:
 * bool is logical (or of ands), integers accumulate in their type and wrap.
 * 0-d operands and mismatched core dimensions are ValueErrors (NDT_ERR_VALUE)
 * with NumPy's messages; batch shapes that do not broadcast give
 * NDT_ERR_SHAPE. If *out is NULL a new C-contiguous array is created and the
 * caller owns it; otherwise the result is cast (same_kind) into the existing
 * (possibly strided) view *out, whose shape must be the result's (extra
 * leading axes are batch axes, as NumPy allows); ownership is unchanged and
 * inputs that overlap it are read as before the call. Large products are
 * tiled into blocks that depend on shapes, dtype and tile size only, and
 * each block sums over k in a fixed order, so results have the same bits for
 * any number of workers. Float and complex blocks run through (single-
 * threaded) OpenBLAS gemm. */
ndt_status ndt_matmul(ndt_array **out, const ndt_array *a, const ndt_array *b);
/* NumPy's dot: a 0-d operand multiplies elementwise; otherwise the sum over
 * the last axis of a and the only (1-d) or second-to-last axis of b, with
 * result shape a.shape[:-1] + b.shape[:-2] + b.shape[-1:] (no broadcasting
 * of leading axes). Mismatches are ValueErrors ("shapes (2,3) and (4,5) not
 * aligned: ..."). A non-NULL *out must have exactly the result's dtype and
 * shape and be C-contiguous (NumPy's rule); ownership as ndt_matmul. */
ndt_status ndt_dot(ndt_array **out, const ndt_array *a, const ndt_array *b);

/* ---- correlation, diagonal view, put (src/ops/convolve.c) ------------- */
/* 1-d correlation by the direct sum: out[i] = sum_j a[lag0 + i + j] * w(v[j])
 * for i in [0, n), over the j with 0 <= lag0 + i + j < len(a); w conjugates
 * when conj != 0 (complex). a and v are 1-d views of one dtype: int64,
 * uint64 (wrapping), float32/64 or complex64/128 (NDT_ERR_TYPE otherwise).
 * NumPy's correlate/convolve modes are choices of lag0 and n made by the
 * caller. One task per tile of the result; each output sums j = 0, 1, ...
 * in order, so results do not depend on workers or ranks. */
ndt_status ndt_correlate(ndt_array **out, const ndt_array *a, const ndt_array *v, int64_t lag0,
                         int64_t n, int conj);
/* NumPy's a.diagonal(offset, axis1, axis2) as a view (never copies): the
 * other axes in order, then the diagonal. NDT_ERR_VALUE for ndim < 2 or
 * equal axes, NDT_ERR_AXIS for an axis out of range. */
ndt_status ndt_diagonal(ndt_array **out, const ndt_array *a, int64_t offset, int ax1, int ax2);
/* a.flat[idx[k]] = vals[k] for k = 0, 1, ... in order (the last write to an
 * element wins): idx a 1-d int64 array of flat C-order indices in [0, size)
 * (NDT_ERR_INDEX otherwise, at the next wait, and nothing is written), vals
 * 1-d of idx's length and a's dtype. One task per tile of a's store that the
 * view touches (each reads all of idx and vals and writes its own tile),
 * or one task when that scan would cost far more than a's size. */
ndt_status ndt_put(ndt_array *a, const ndt_array *idx, const ndt_array *vals);
/* a.flat[idx[k]] = op(a.flat[idx[k]], vals[k]) for k = 0, 1, ... in order,
 * unbuffered (NumPy's ufunc.at: repeated indices accumulate). vals NULL for
 * a unary op. loop: the loop's dtypes (inputs, then output); each element
 * of a is cast to loop[0] and the result from the output's dtype back to
 * a's; vals must have loop[1]. idx as for ndt_put (checked the same way);
 * tasks as ndt_put's (src/ops/strided.c). */
ndt_status ndt_put_op(ndt_array *a, const ndt_array *idx, const ndt_array *vals, ndt_ufunc op,
                      const ndt_dtype *loop);
/* A view of a's store (a's dtype, part and read-only flag) with element
 * offset `offset`, shape and element strides (counted in store elements from
 * the store's start): NumPy's as_strided. Every element the view reaches
 * must lie in the store (NDT_ERR_VALUE otherwise), so a view never reads or
 * writes outside memory. */
ndt_status ndt_as_strided(ndt_array **out, const ndt_array *a, int64_t offset, int ndim,
                          const int64_t *shape, const int64_t *strides);
/* The same view with its bytes read as dtype t of the same size
 * (ndarray.view(dtype)): a view of a's store (NDT_ERR_VALUE for another
 * size). */
ndt_status ndt_view_dtype(ndt_array **out, const ndt_array *a, ndt_dtype t);
/* The same bytes as dtype t of ANOTHER size (ndarray.view(dtype) where the
 * itemsize changes): a view, shape `shape` and byte strides/offset counted
 * from the start of a's store (NumPy's layout of the result, which the
 * caller computes and checks), over a store of dtype t that shares the
 * memory of a's store. Both stores are lent (as by ndt_host_export) while
 * the view's store has handles, so between calls no task on either touches
 * the memory and work on one is never reordered around work on the other;
 * ops that read one and write the other in one call see them as
 * overlapping (ndt__may_overlap). NDT_ERR_UNSUPPORTED (the caller copies)
 * on several ranks, for a .real/.imag view, or for a byte offset or stride
 * that is not a multiple of t's size. src/ops/export.c */
ndt_status ndt_view_itemsize(ndt_array **out, const ndt_array *a, ndt_dtype t, int ndim,
                             const int64_t *shape, const int64_t *bstrides, int64_t boffset);
/* A 1-d array of n elements of dtype t over memory the caller owns (NumPy's
 * frombuffer): no copy; writes through the array land in that memory and
 * the caller's own writes between calls are seen. The memory is lent (as
 * by ndt_host_export) for the array's life: every call leaves its tasks
 * done. The caller keeps the memory valid until release(ctx) is called,
 * once, when the last array over it (views included) is freed; release may
 * be NULL. On failure nothing is kept and release is not called.
 * NDT_ERR_UNSUPPORTED (the caller copies instead) for memory not aligned to
 * t's size and on several ranks. src/ops/export.c */
ndt_status ndt_from_memory(ndt_array **out, void *data, ndt_dtype t, int64_t n, int readonly,
                           void (*release)(void *ctx), void *ctx);
/* The binding's object for the array that owns a's memory (NumPy's .base
 * target): set by the binding on a handle it wraps that owns its store
 * (ndt_owns_data), found from any view of the store or of a store sharing
 * its memory (ndt_view_itemsize); NULL when none is set. ndt_clear_owner_ctx
 * forgets ctx on a's stores. Recording thread only. */
void ndt_set_owner_ctx(const ndt_array *a, void *ctx);
void *ndt_owner_ctx(const ndt_array *a);
void ndt_clear_owner_ctx(const ndt_array *a, void *ctx);
/* Sets or clears NumPy's OWNDATA of the handle (the binding's in-place
 * dtype change: the array that owned its memory still does). */
void ndt_set_owns_data(ndt_array *a, int owns);
/* 1 when a and b are views of one memory: the same store, or stores sharing
 * it (ndt_view_itemsize); ndt_memory_bytes: the size of that memory. */
int ndt_same_memory(const ndt_array *a, const ndt_array *b);
int64_t ndt_memory_bytes(const ndt_array *a);
/* Moves NumPy's OWNDATA from `from` (the handle made with the store) to v, a
 * view of the same store: a Fortran-ordered copy is the transpose of a fresh
 * C-ordered store, and the transposed handle is the array that owns it. */
ndt_status ndt_take_owner(ndt_array *v, ndt_array *from);
/* NumPy's ufunc.reduceat for the reduction op (SUM, PROD, MIN, MAX, NANMIN,
 * NANMAX, ANY, ALL) on a's dtype (cast a first for another loop dtype):
 * out[..., s, ...] folds a[..., idx[s]:idx[s+1], ...] along axis (to the end
 * for the last; a[..., idx[s], ...] alone where idx[s+1] <= idx[s]) in
 * NumPy's order, from the segment's first element. idx 1-d int64, each in
 * [0, n) (NDT_ERR_INDEX at this call otherwise; it waits for idx). */
ndt_status ndt_reduceat(ndt_array **out, const ndt_array *a, int axis, const ndt_array *idx,
                        ndt_reduce_op op);
/* ---- linear algebra (src/ops/linalg.c) -------------------------------- */
/* numpy.linalg's factorisations through LAPACK, on stacks of matrices: a is
 * (..., M, N) with the last two axes a matrix; for SOLVE and LSTSQ, b is
 * (..., M, K) and the batch axes of a and b broadcast. As in NumPy, LAPACK
 * runs in double precision (complex if any operand is complex); results have
 * dtype ndt_linalg_result_type(a, b) (float32/complex64 when every operand is
 * single, else float64/complex128), or its real type where the value is
 * real (s, w of EIGH, log|det|, residuals).
 * out[] receives up to NDT_LINALG_NOUT new arrays (unused ones NULL), each of
 * shape batch + the core shape below:
 *   SOLVE     x (N, K) with a x = b (a square)
 *   INV       (N, N)
 *   CHOLESKY  (N, N) lower L with a = L L^H; NDT_LINALG_UPPER: upper
 *             U = L^H. Only that triangle of a is read.
 *   DET       () det = sign * exp(log|det|) from LU, as NumPy (0 if singular)
 *   SLOGDET   sign (), log|det| () (sign 0 and -inf if singular)
 *   QR        flags one mode: NDT_LINALG_QR_REDUCED q (M, k), r (k, N),
 *             k = min(M, N); NDT_LINALG_QR_COMPLETE q (M, M), r (M, N);
 *             NDT_LINALG_QR_R r (k, N) only; NDT_LINALG_QR_RAW h (N, M)
 *             (geqrf's result, transposed as NumPy), tau (k)
 *   SVD       NDT_LINALG_VECTORS (compute_uv): u (M, M|k), s (k), vh
 *             (N|k, N), NDT_LINALG_FULL (full_matrices) choosing M/N over k;
 *             without NDT_LINALG_VECTORS only s. s is descending.
 *             NDT_LINALG_HERMITIAN: a square, through EIGH as NumPy.
 *   EIGH      w (N) ascending, then with NDT_LINALG_VECTORS v (N, N)
 *             (columns); NDT_LINALG_EIGH_UPPER reads the upper triangle
 *             (UPLO='U'), else the lower.
 *   EIG       w (N), with NDT_LINALG_VECTORS v (N, N): always complex here
 *             (the caller may drop a zero imaginary part as NumPy does).
 *   LSTSQ     x (N, K), residuals (K) (sum of |b - a x|^2 per column when
 *             rank == N < M, else 0), rank () int64, s (min(M, N)); param is
 *             rcond (singular values below rcond * s[0] count as zero).
 * Errors: ndim < 2 or a non-square matrix where one is needed, and LAPACK
 * failures (info > 0: "Singular matrix", "Matrix is not positive definite",
 * "SVD did not converge", "Eigenvalues did not converge") are
 * NDT_ERR_LINALG with NumPy's messages; failures inside tasks are deferred
 * (reported at the next wait, e.g. ndt_sync). Matrices with a zero extent
 * are NDT_ERR_UNSUPPORTED (the caller handles them). Each matrix is copied
 * whole into column-major scratch in one task and LAPACK runs single-
 * threaded there; tasks are blocks of the batch axes, so a stack runs in
 * parallel and a single matrix is one task (on many ranks, gathered to the
 * rank owning its result). Results do not depend on workers or ranks. */
typedef enum {
  NDT_LINALG_SOLVE = 0, NDT_LINALG_INV, NDT_LINALG_CHOLESKY, NDT_LINALG_DET,
  NDT_LINALG_SLOGDET, NDT_LINALG_QR, NDT_LINALG_SVD, NDT_LINALG_EIGH, NDT_LINALG_EIG,
  NDT_LINALG_LSTSQ
} ndt_linalg_op;
/* The flags argument of ndt_linalg: bits for CHOLESKY, SVD, EIGH and EIG
 * (OR them), one mode for QR; 0 (NDT_LINALG_DEFAULT) elsewhere. The values
 * are those of the int the argument was before 0.2. */
typedef enum {
  NDT_LINALG_DEFAULT = 0,
  NDT_LINALG_UPPER = 1,        /* CHOLESKY: the upper factor */
  NDT_LINALG_VECTORS = 1,      /* SVD (compute_uv), EIGH, EIG: vectors too */
  NDT_LINALG_FULL = 2,         /* SVD: full_matrices */
  NDT_LINALG_HERMITIAN = 4,    /* SVD: a is Hermitian */
  NDT_LINALG_EIGH_UPPER = 2,   /* EIGH: read the upper triangle */
  NDT_LINALG_QR_REDUCED = 0, NDT_LINALG_QR_COMPLETE = 1, NDT_LINALG_QR_R = 2,
  NDT_LINALG_QR_RAW = 3
} ndt_linalg_flags;
#define NDT_LINALG_NOUT 4
ndt_status ndt_linalg(ndt_array **out, ndt_linalg_op op, const ndt_array *a, const ndt_array *b,
                      ndt_linalg_flags flags, double param);
/* The result dtype for operands of dtypes a and b (b NDT_DTYPE_DEFAULT: none). */
ndt_dtype ndt_linalg_result_type(ndt_dtype a, ndt_dtype b);

/* ---- random numbers (src/ops/random.c) -------------------------------- */
/* A counter-based generator: Philox4x32-10 (Salmon et al., SC11) keyed by
 * (seed, stream). Element i (C-order flat index) of the k-th array drawn from
 * a generator depends only on (seed, stream, k, i), so a seed gives the same
 * bits for any number of workers, tile size or ranks. Values do not match
 * NumPy's streams; distributions do. An ndt_rng is not locked: use it from
 * one thread at a time (arrays it drew may be used anywhere). */
typedef struct ndt_rng ndt_rng;
typedef struct {
  uint64_t seed;    /* the seed of the key */
  uint64_t stream;  /* independent stream id (0 for ndt_rng_new) */
  uint64_t draws;   /* arrays drawn so far */
} ndt_rng_state;
ndt_status ndt_rng_new(ndt_rng **out, uint64_t seed);
void ndt_rng_free(ndt_rng *rng);                /* NULL is fine */
/* The whole state (for pickling, bit_generator.state, spawning streams). */
ndt_status ndt_rng_get_state(const ndt_rng *rng, ndt_rng_state *state);
ndt_status ndt_rng_set_state(ndt_rng *rng, const ndt_rng_state *state);
/* The raw block function: out = Philox4x32-10(ctr, key). */
void ndt_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* Each sampler creates a new C-contiguous array of the given shape and
 * advances the generator by one draw on success (never on error). Float
 * samplers take t = NDT_FLOAT64, NDT_FLOAT32 or NDT_DTYPE_DEFAULT (float64);
 * errors carry NumPy's messages. */
/* Uniform on [0, 1): 53-bit doubles, 24-bit floats (as NumPy's random). */
ndt_status ndt_rng_random(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                          ndt_dtype t);
/* low + (high - low) * random(); OverflowError if high - low is not finite. */
ndt_status ndt_rng_uniform(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                           double low, double high, ndt_dtype t);
ndt_status ndt_rng_standard_normal(ndt_array **out, ndt_rng *rng, int ndim,
                                   const int64_t *shape, ndt_dtype t);
ndt_status ndt_rng_normal(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                          double loc, double scale, ndt_dtype t);
/* scale = 1 is standard_exponential. */
ndt_status ndt_rng_exponential(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                               double scale, ndt_dtype t);
/* shape k, scale = 1 is standard_gamma. */
ndt_status ndt_rng_gamma(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                         double k, double scale, ndt_dtype t);
/* int64 results. */
ndt_status ndt_rng_poisson(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                           double lam);
ndt_status ndt_rng_binomial(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                            int64_t n, double p);
/* Uniform integers of dtype t (bool or integer; NDT_DTYPE_DEFAULT = int64) in
 * [low, high), or [low, high] when endpoint != 0, without modulo bias. The
 * _u64 form takes unsigned bounds (uint64 values above INT64_MAX). */
ndt_status ndt_rng_integers(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                            ndt_dtype t, int64_t low, int64_t high, int endpoint);
ndt_status ndt_rng_integers_u64(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                                ndt_dtype t, uint64_t low, uint64_t high, int endpoint);
/* Bounds of any size (a front end's big integers), with NumPy's rules and
 * messages: "low is out of bounds for <dtype>", "high is out of bounds for
 * <dtype>", "low >= high" ("low > high" with endpoint), "high <= 0" ("high <
 * 0") when low is 0; ndt_error.arg is "low" or "high". |v| = high * 2**64 +
 * low; a magnitude of 2**128 or more may saturate high at UINT64_MAX. */
typedef struct {
  int negative;
  uint64_t high, low;
} ndt_int128;
ndt_status ndt_rng_integers_wide(ndt_array **out, ndt_rng *rng, int ndim, const int64_t *shape,
                                 ndt_dtype t, ndt_int128 low, ndt_int128 high, int endpoint);
/* The same samplers with a parameter per element: the parameters are arrays
 * (k, scale, lam and p float64, n int64) broadcast together, and the result
 * has their broadcast shape; element i is drawn with the parameters at i,
 * with the bits the scalar-parameter sampler gives for those values. A bad
 * parameter value (NumPy's messages: "shape < 0", "lam < 0 or lam is NaN",
 * ...) is reported at the next wait, as a deferred error. */
ndt_status ndt_rng_gamma_array(ndt_array **out, ndt_rng *rng, const ndt_array *k,
                               const ndt_array *scale, ndt_dtype t);
ndt_status ndt_rng_poisson_array(ndt_array **out, ndt_rng *rng, const ndt_array *lam);
ndt_status ndt_rng_binomial_array(ndt_array **out, ndt_rng *rng, const ndt_array *n,
                                  const ndt_array *p);
/* A random permutation of 0 .. n-1 as an int64 array (n < 0: empty, as
 * NumPy's permutation(n)). permutation(x), shuffle and choice without
 * replacement index by it. */
ndt_status ndt_rng_permutation(ndt_array **out, ndt_rng *rng, int64_t n);

#ifdef __cplusplus
}
#endif
#endif /* NDTILE_H */
