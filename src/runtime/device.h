/* device.h - the contract between the core and a device plugin loaded with
 * dlopen (the CUDA plugin, src/runtime/cuda.c). The plugin links nothing of
 * the core: it is handed the few calls it needs (ndt_plugin_host) and uses
 * the core's types (internal.h) only. It registers a memory and a
 * processor per device; its processor supplies bodies for the core's task
 * kinds by their names (ndt_processor_iface.body), and refuses the tasks it
 * has no variant for (supports), which then run on the CPU with their
 * operands made valid in host memory. */
#ifndef NDT_DEVICE_H
#define NDT_DEVICE_H
#include "internal.h"

#define NDT_PLUGIN_API 14  /* 2: cpu_level; processors may run groups; 3: the plugin reads
                              * ops/reduce.h's arguments ("pairwise leaf", "reduce block");
                              * 4: memories may give gather scratch outside their budget;
                              * 5: memories may copy strided runs in one call (copy2d);
                              * 6: the plugin reads ops/random.h's argument ("random");
                              * 7: and exec.h's gather and put arguments ("gather", "put");
                              * 8: and ops/matmul.h's ("matmul block", "matmul pack",
                              * "matmul copyout", "matvec");
                              * 9: memories may copy a whole view in one call (view_copy);
                              * 10: memories may register host buffers (host_register);
                              * 11: the tiles a view's binding pinned (view_tiles);
                              * 12: the node's ranks on a GPU (gpu_ranks);
                              * 13: and on a GPU known by its PCI bus id
                              * (gpu_ranks_id, optional);
                              * 14: the plugin tells its devices' PCI bus ids
                              * before it starts (ndt_plugin.bus_ids) */
#define NDT_PLUGIN_ENTRY "ndt_plugin_entry_v1"

typedef struct {
  int api;                                  /* NDT_PLUGIN_API */
  int (*mem_register)(ndt_memory *m);       /* 0, or -1: the table is full */
  int (*proc_register)(ndt_processor *p);
  /* queues a ready task on the CPU's worker pool (a processor's launch may
   * hand its tasks there: the worker then drives the device) */
  void (*cpu_launch)(ndt_task *t);
  /* keeps msg as the calling thread's last error; returns st */
  ndt_status (*error)(ndt_status st, const char *msg);
  int (*alloc_fails)(void);                 /* an injected allocation failure is due */
  void (*verbose)(const char *msg);         /* one line on stderr under NDTILE_VERBOSE */
  int64_t (*env_size)(const char *name, int64_t dflt);   /* a size setting (NDTILE_CUDA_MEM) */
  /* the CPU's SIMD level (>= 2: its complex products are fused, and the
   * device's must be for the same bits) */
  int (*cpu_level)(void);
  /* The tiles of v's store that a task binding v pinned in a device's
   * memory, when they leave whole tiles of its extent [lo, hi] out (the
   * core's rule, ndt__view_tiles: recording, the plan, the pins and the
   * binding apply it to the same view): fn(ctx, t, l, h) for each, in
   * ascending order, [l, h] the part of tile t the elements span; 1 when
   * it called fn, 0 when every tile of the extent is pinned, -1 when fn
   * returned nonzero. The other tiles of the extent are no task's of
   * this binding: their device buffers may be freed or moved meanwhile,
   * so a kernel is never handed them (cuda.c, the view copy). */
  int (*view_tiles)(const ndt_array *v, int64_t lo, int64_t hi,
                    int (*fn)(void *ctx, int64_t t, int64_t l, int64_t h), void *ctx);
  /* How many of this node's ranks (this one included) take GPU dev: those
   * whose share of NDTILE_GPUS_PER_NODE holds it, else all of them (each
   * sees every GPU, or names the same list). A device's default memory
   * budget is split between them (cuda.c). */
  int (*gpu_ranks)(int dev);
  /* How many of this node's ranks (this one included) hold the physical
   * GPU whose PCI bus id (cudaDeviceGetPCIBusId) is bus_id, whatever
   * ordinal each rank's CUDA_VISIBLE_DEVICES gives it (dev is this rank's):
   * a scheduler that gives each rank a GPU of its own that way gives 1,
   * and the budget is not split. The core answers from the bus ids the
   * node's ranks told each other before start (ndt_plugin.bus_ids; no
   * collective here). 0 or NULL: the host cannot tell (the plugin then asks
   * gpu_ranks). */
  int (*gpu_ranks_id)(int dev, const char *bus_id);
} ndt_plugin_host;

#define NDT_BUS_ID 32   /* a PCI bus id's bytes, its NUL included ("0000:65:00.0") */

typedef struct {
  int api;                                  /* NDT_PLUGIN_API */
  const char *name;                         /* "cuda" */
  /* The PCI bus ids of the devices start(index, n) would open, in its
   * order (bus[k] for the k-th it would open), without opening them and
   * without MPI: the core exchanges them between the node's ranks, every
   * rank at the same point, and answers gpu_ranks_id from them. Returns
   * how many (<= cap; 0: none), or -1 when it cannot tell. Optional. */
  int (*bus_ids)(const int *index, int n, char (*bus)[NDT_BUS_ID], int cap);
  /* Opens n devices (index[0..n), n == 0: every device the driver lists),
   * registering a memory and a processor for each; returns how many. With
   * none, why says what was missing (no driver, no device, no context). */
  int (*start)(const ndt_plugin_host *h, const int *index, int n, char *why, size_t cap);
} ndt_plugin;

typedef const ndt_plugin *(*ndt_plugin_entry_fn)(void);

#endif
