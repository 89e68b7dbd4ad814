/* dist.c - many processes: the owner-computes protocol.
 *
 * Every rank sees every task, in the same order. The task runs on its home
 * rank: the owner of the first tile it writes (runtime-private buffers are
 * no hint; then the first tile it reads decides). For each tile region the
 * task uses that another rank owns, the owner sends the region to the home
 * rank before the task runs, and, when the task writes it, the home rank
 * sends it back after. Both sides decide these messages in program order on
 * the recording thread, so every message is matched.
 *
 * Each message is a task of its own in this rank's graph (a send reads its
 * region, a receive writes it), run by comm.c's progress thread: a send
 * starts when the tasks that write the region have run, a receive when
 * those that use it have, and the task that needs the bytes waits for its
 * receive like for any other writer. So the recording thread never waits
 * for a message: it records ahead while the messages of earlier tasks are
 * in flight, and the ranks do not wait on each other at every task that
 * crosses them (they did: 2 ranks of the X-ray job spent half their time
 * there, a worker idle). The tags count the messages of each pair of ranks
 * in program order. Nothing deadlocks: every edge of the graphs goes from
 * a task to a later one, or from a send to its receive (the same task of
 * the program on two ranks).
 *
 * A rank neither home nor owner of anything the task touches skips it.
 * With devices, the home rank plans the task's copies and evictions
 * (device_plan.c) when it records it: every rank keeps the plan of the tasks
 * it runs, and the messages' host reads and writes update it (proc.c);
 * there the recording thread moves the messages itself, in program order,
 * after waiting for the tasks on their regions (the plan does not know
 * message tasks yet). */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include "rt.h"


static int home_of(const ndt_access *acc, int nacc) {
  for (int i = 0; i < nacc; i++)
    if ((acc[i].priv & NDT_WRITE) && !acc[i].tile->scratch) return acc[i].tile->owner;
  for (int i = 0; i < nacc; i++)
    if (!acc[i].tile->scratch) return acc[i].tile->owner;
  return nacc ? acc[0].tile->owner : 0;
}

static void local_failure(const char *name, ndt_status st) { ndt__rt_fail(name, st); }

/* ---- messages as tasks ---- */
static void msg_done(ndt_comm_msg *m) {
  ndt_task *t = m->ctx;
  if (ndt__trace_on_)
    ndt__trace_add_io(m->send ? "send" : "recv", NDT__TRACE_MSG, m->t0, ndt__now_us(), m->n, 1,
                      0, NULL);
  ndt__task_finish(t, NDT_OK);
}

/* A message task is ready (its region's earlier tasks ran): the progress
 * thread takes it (any thread; the graph's lock may be held). */
static void msg_launch(ndt_processor *p, ndt_task *t) {
  NDT_UNUSED(p);
  ndt_comm_msg *m = t->arg;
  m->ctx = t;
  m->done = msg_done;
  ndt__comm_msg_start(m);
}
static const ndt_processor_iface msg_iface = {
    .version = NDT_IFACE_VERSION, .name = "messages", .supports = NULL, .launch = msg_launch,
    .sync = NULL};
static ndt_processor msg_proc = {.iface = &msg_iface, .device = 0, .context = NULL,
                                 .kind = NDT_PROC_CPU, .mem = &ndt__host_memory};
static const ndt_task_kind msg_kind = {"message", {NULL}, NULL};

/* Records the message of [lo, hi] of t to or from peer as a task. A rank
 * that cannot get a buffer (or a task) still takes part (dummy bytes; the
 * message then moves at once), and reports the failure at the next
 * agreement. */
static void record_msg(ndt_tile *t, int64_t lo, int64_t hi, int peer, int send) {
  int64_t isz = t->store->itemsize, n = (hi - lo + 1) * isz;
  if (!ndt__tile_buffer(t)) local_failure(send ? "sending a tile" : "receiving a tile", NDT_ERR_NOMEM);
  char *p = t->data ? t->data + (lo - t->start) * isz : NULL;
  ndt_comm_msg m;
  ndt__comm_msg_init(&m, p, n, peer, send);
  ndt_access a = {.tile = t, .priv = send ? NDT_READ : NDT_WRITE, .lo = lo, .hi = hi};
  ndt_store *s = t->store;
  ndt_taskrec r = {.name = send ? "send" : "recv", .kind = &msg_kind, .proc = &msg_proc,
                   .op = NULL, .nop = 0, .arg = &m, .arg_size = sizeof m, .acc = &a,
                   .nacc = 1, .stores = &s, .nstores = 1, .flags = 0, .span = NULL,
                   .after = NULL, .nafter = 0, .made = NULL};
  ndt_status st = ndt__rt_local_submit(&r);
  if (st == NDT_OK) return;
  local_failure(send ? "sending a tile" : "receiving a tile", st);
  ndt__rt_wait_region(t, lo, hi, !send);
  ndt__comm_msg_run(&m);
}

/* A region [lo, hi] of a tile moved between ranks. A rank that cannot get
 * a buffer still sends or receives (dummy bytes), so no rank is left
 * waiting, and reports the failure at the next agreement. */
static void move_region(ndt_tile *t, int64_t lo, int64_t hi, int peer, int tag, int send) {
  if (ndt__comm_async() && !ndt__dev_track) {
    record_msg(t, lo, hi, peer, send);
    return;
  }
  int64_t isz = t->store->itemsize, n = (hi - lo + 1) * isz;
  if (!ndt__tile_buffer(t)) local_failure("receiving a tile", NDT_ERR_NOMEM);
  char *p = t->data ? t->data + (lo - t->start) * isz : NULL;
  /* no local task may use the region meanwhile; with devices, the whole
   * tile: a tile's copies are per tile, and the device plan took this
   * message for a host use of the whole tile in program order, after every
   * task recorded before it (proc.c) */
  if (ndt__dev_track) ndt__rt_wait_region(t, t->start, t->start + t->len - 1, !send);
  else ndt__rt_wait_region(t, lo, hi, !send);
  /* messages move host bytes: the host copy must be valid (a receive: and
   * then the only valid one) */
  char *hp;
  ndt_status st = !t->data ? NDT_OK
                  : send   ? ndt__tile_acquire(t, &ndt__host_memory, 0, &hp)
                           : ndt__tile_hold_write(t, &hp);
  if (st) local_failure("moving a tile", NDT_ERR_NOMEM);
  if (send) {
    ndt__comm_send(p, n, peer, tag);
  } else {
    /* the bytes arrive over time: a task of another region of the tile
     * that starts meanwhile must not copy it to a device before they are
     * all there (a lost update: found with the device plan on 2 ranks) */
    ndt__comm_recv(p, n, peer, tag);
    if (t->data && st == NDT_OK) ndt__tile_release_write(t);
  }
}

/* 1 when rank r holds [lo, hi] of t as it is now. */
static int has_copy(const ndt_tile *t, int r, int64_t lo, int64_t hi) {
  if (t->everywhere || t->owner == r) return 1;
  for (int k = 0; k < t->ncopies; k++)
    if (t->copies[k].rank == r && t->copies[k].lo <= lo && hi <= t->copies[k].hi) return 1;
  return 0;
}

int ndt__dist_holds(const ndt_store *s, int r, int64_t lo, int64_t hi) {
  for (int64_t i = ndt_store_tile_of(s, lo), last = ndt_store_tile_of(s, hi); i <= last; i++) {
    const ndt_tile *t = &s->tiles[i];
    int64_t end = t->start + t->len - 1;
    int64_t a = t->start > lo ? t->start : lo, b = end < hi ? end : hi;
    if (a <= b && !has_copy(t, r, a, b)) return 0;
  }
  return 1;
}

static void add_copy(ndt_tile *t, int r, int64_t lo, int64_t hi) {
  if (has_copy(t, r, lo, hi)) return;
  int j = 0;   /* drop what the new region covers; the oldest goes when full */
  for (int k = 0; k < t->ncopies; k++)
    if (!(t->copies[k].rank == r && lo <= t->copies[k].lo && t->copies[k].hi <= hi))
      t->copies[j++] = t->copies[k];
  t->ncopies = j;
  int cap = (int)(sizeof t->copies / sizeof t->copies[0]);
  if (t->ncopies == cap) {
    memmove(t->copies, t->copies + 1, (size_t)(cap - 1) * sizeof t->copies[0]);
    t->ncopies--;
  }
  t->copies[t->ncopies++] = (struct ndt_copy){r, lo, hi};
}

static void dropped_copies(ndt_tile *t) {
  t->everywhere = 0;
  t->ncopies = 0;
}

void ndt__tile_everywhere(ndt_tile *t) {
  t->everywhere = 1;
  t->ncopies = 0;
}

ndt_status ndt__dist_submit(const ndt_taskrec *r) {
  const char *name = r->name;
  const ndt_access *acc = r->acc;
  int nacc = r->nacc;
  int caller_error = (r->flags & NDT_TASK_CALLER_ERROR) != 0;
  int me = ndt_rank(), home = home_of(acc, nacc);
  /* (the operands, not the accesses: a fused task keeps, without an
   * access, results that one rank writes and another does not: fusion.c) */
  int tag = ndt__rt_count_task(name, r->nop);
  ndt_status st = NDT_OK;
  /* What travels to the home rank, decided alike on every rank: each
   * region the home rank lacks (a write's too: a strided write may leave
   * gaps). Most of a tile is fetched whole, so that the next tasks that
   * read it (a transpose's column blocks) find it there. */
  struct { int64_t lo, hi; int go; } f_small[32], *f = f_small;
  /* plain malloc: a failure here stops the program (every rank must take
   * the same steps), so no test may inject one */
  if (nacc > 32 && !(f = malloc((size_t)nacc * sizeof *f))) {
    fprintf(stderr, "ndtile rank %d: out of memory recording %s\n", me, name);
    ndt_abort(71);
  }
  for (int i = 0; i < nacc; i++) {
    ndt_tile *tl = acc[i].tile;
    f[i].go = !has_copy(tl, home, acc[i].lo, acc[i].hi) &&
              (acc[i].priv & (NDT_READ | NDT_DENSE)) != NDT_DENSE;
    f[i].lo = acc[i].lo;
    f[i].hi = acc[i].hi;
    if (2 * (f[i].hi - f[i].lo + 1) >= tl->len) {
      f[i].lo = tl->start;
      f[i].hi = tl->start + tl->len - 1;
    }
    if (f[i].go) add_copy(tl, home, f[i].lo, f[i].hi);
  }
  /* NDTILE_CHECK: the messages the task makes go into the hash of tasks
   * the ranks compare at every agreement (comm.c). Ranks that disagree on
   * them (a privilege, or the books of who holds what) are then said to be
   * out of step, where otherwise one extra message shifts the tags of a
   * pair of ranks and a later receive takes another task's bytes. Only the
   * regions of tiles the home rank does not own: those of its own may be
   * written on one rank and kept on another (fusion.c). */
  if (ndt__set_.check) {
    uint64_t h = (uint64_t)home;
    for (int i = 0; i < nacc; i++) {
      const ndt_tile *tl = acc[i].tile;
      if (tl->owner == home) continue;
      const uint64_t x[5] = {(uint64_t)(tl - tl->store->tiles), (uint64_t)acc[i].lo,
                             (uint64_t)acc[i].hi, acc[i].priv & NDT_PRIV_MASK, (uint64_t)f[i].go};
      for (int k = 0; k < 5; k++) h = (h ^ x[k]) * 1099511628211ull;
    }
    ndt__rt_task_mix(h);
  }
  if (me == home) {
    int remote_writes = 0;
    for (int i = 0; i < nacc; i++) {
      ndt_tile *tl = acc[i].tile;
      /* buffers come on first use, also this rank's own (see ndt__store_new) */
      if (!ndt__tile_buffer(tl) && st == NDT_OK)
        st = ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile of %lld bytes",
                       (long long)tl->len * tl->store->itemsize);
      if (tl->owner == me) continue;
      remote_writes |= acc[i].priv & NDT_WRITE;
      if (f[i].go) move_region(tl, f[i].lo, f[i].hi, tl->owner, tag, 0);
    }
    /* with devices: the copies and evictions the task needs, planned here,
     * on the rank that runs it, after the regions it lacked arrived (their
     * receives wrote the host copies: the plan saw that), in program order
     * like one process's (proc.c, device_plan.c) */
    ndt_taskrec lr = *r;
    ndt_task *fence = NULL;
    if (st == NDT_OK && ndt__dev_track)
      st = ndt__plan_task(&lr.proc, lr.kind, lr.op, lr.nop, acc, nacc, &fence);
    if (fence) {
      lr.after = &fence;
      lr.nafter = 1;
    }
    if (st == NDT_OK) st = ndt__rt_local_submit(&lr);
    /* a failure is reported on every rank at the next agreement (at once
     * for a caller's error); the protocol goes on so no rank waits for a
     * message that never comes */
    if (st != NDT_OK && !caller_error) local_failure(name, st);
    for (int i = 0; i < nacc && remote_writes; i++) {
      ndt_tile *tl = acc[i].tile;
      if (tl->owner != me && (acc[i].priv & NDT_WRITE))
        move_region(tl, acc[i].lo, acc[i].hi, tl->owner, tag, 1);
    }
  } else {
    for (int i = 0; i < nacc; i++)
      if (acc[i].tile->owner == me && f[i].go)
        move_region(acc[i].tile, f[i].lo, f[i].hi, home, tag, 1);
    for (int i = 0; i < nacc; i++)
      if (acc[i].tile->owner == me && (acc[i].priv & NDT_WRITE))
        move_region(acc[i].tile, acc[i].lo, acc[i].hi, home, tag, 0);
  }
  /* a write leaves the owner and the home rank with the only up-to-date
   * copies of what it wrote */
  for (int i = 0; i < nacc; i++)
    if (acc[i].priv & NDT_WRITE) dropped_copies(acc[i].tile);
  for (int i = 0; i < nacc; i++)
    if ((acc[i].priv & NDT_WRITE) && acc[i].tile->owner != home)
      add_copy(acc[i].tile, home, acc[i].lo, acc[i].hi);
  if (f != f_small) free(f);
  /* the caller's mistake (an index out of bounds), found by the home rank:
   * every rank raises it at this call */
  ndt_status ret = caller_error ? ndt__comm_agree(st) : NDT_OK;
  /* accepted but not in this rank's graph (another rank runs it, or it
   * failed here and is reported at the next agreement): what its argument
   * holds goes back now; a task in the graph gives it back when it ends */
  if (ret == NDT_OK && (me != home || st != NDT_OK) && r->kind->release) r->kind->release(r->arg);
  return ret;
}

/* Waits on this rank; with many, the reads' data is broadcast. */
ndt_status ndt__wait_tiles(ndt_store *s, int64_t t0, int64_t t1, int for_write) {
  if (!ndt_distributed()) return ndt__rt_wait_local(s, t0, t1, for_write);
  /* first the ranks check they are at the same read: a rank at another
   * collective (a sync's agreement, another read) is out of step, and said
   * so. Before the wait: a read on some ranks only waits for tasks the
   * other ranks never recorded (their messages never come), so checked
   * after it, it hung. */
  ndt__comm_step();
  ndt_status st = ndt__rt_wait_local(s, t0, t1, for_write);
  /* Every rank reads (or writes) the same values: the owners' copies are
   * broadcast (whatever the status: every rank takes the same steps), and
   * an error anywhere is an error everywhere. A read of a few bytes (a
   * scalar: float(a.sum()), an index's bounds) rides in the agreement
   * instead, each tile at a word of its own: two collectives, not three.
   * Whether it fits depends on the tiles alone, the same on every rank. */
  int64_t words = 0;
  for (int64_t i = t0; i <= t1 && i < s->ntiles && !for_write; i++)
    if (!s->tiles[i].everywhere) words += (s->tiles[i].len * s->itemsize + 7) / 8;
  const int fold = !for_write && words <= NDT__AGREE_WORDS;
  long long pay[NDT__AGREE_WORDS];
  int64_t at = 0;
  for (int64_t i = t0; i <= t1 && i < s->ntiles; i++) {
    ndt_tile *tl = &s->tiles[i];
    if (tl->everywhere) continue;
    char *buf = ndt__tile_buffer(tl);
    if (!buf && st == NDT_OK) st = ndt__error(NDT_ERR_NOMEM, "cannot allocate a tile");
    if (!for_write) {
      /* the owner's copy replaces this rank's: tasks still reading the old
       * one here finish first (the wait above waited for writers only) */
      if (tl->owner != ndt_rank()) ndt__rt_wait_region(tl, tl->start, tl->start + tl->len - 1, 1);
      /* the broadcast writes the host copy: valid there, and only there */
      char *hp;
      if (buf && ndt__tile_acquire(tl, &ndt__host_memory, 1, &hp) && st == NDT_OK)
        st = NDT_ERR_NOMEM;
      int64_t n = tl->len * s->itemsize, nw = (n + 7) / 8;
      if (!fold) {
        /* (read after the agreement below, which waits for them too) */
        ndt__comm_bcast_post(buf, n, tl->owner);
        ndt__tile_everywhere(tl);
      } else if (tl->owner == ndt_rank()) {
        memset(pay + at, 0, (size_t)nw * 8);
        if (buf) memcpy(pay + at, buf, (size_t)n);
      } else {
        for (int64_t k = 0; k < nw; k++) pay[at + k] = LLONG_MAX;
      }
      at += nw;
    }
  }
  if (!fold || !words) return ndt__comm_agree(st);
  st = ndt__comm_agree_read(st, pay);
  at = 0;
  for (int64_t i = t0; i <= t1 && i < s->ntiles; i++) {
    ndt_tile *tl = &s->tiles[i];
    if (tl->everywhere) continue;
    int64_t n = tl->len * s->itemsize;
    char *buf = tl->owner == ndt_rank() ? NULL : ndt__tile_buffer(tl);
    if (buf) memcpy(buf, pay + at, (size_t)n);
    ndt__tile_everywhere(tl);
    at += (n + 7) / 8;
  }
  return st;
}

