/* fperr.c - floating-point error records: one per operation, its tasks'
 * IEEE flags merged into it, handed to the front end when the op is done
 * (see internal.h and ndtile.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "internal.h"

struct ndt_fprec {
  atomic_int refs;      /* the recording op's, and one per task */
  atomic_uint flags;
  atomic_int done;      /* its last task has run */
  unsigned mask;
  unsigned reported;    /* flags handed out already (under list_lock) */
  int64_t seq;          /* the op's number (ndt_fp_op.seq); 0: decided alike on every rank */
  unsigned shared;      /* many ranks: its flags told the other ranks (under list_lock) */
  unsigned agreed;      /* many ranks: the flags of every rank, as agreed (under list_lock) */
  const char *name;
  void *ctx;
  struct ndt_fprec *next;
};

ndt_fp_op ndt__fp_stk_[NDT_FP_DEPTH];   /* recording thread only */
int ndt__fp_depth_;
unsigned ndt__fp_mask_;
int64_t ndt__fp_seq_;
int ndt__fp_ranks_;
/* Many ranks: the records up to this number are done on every rank, so
 * their agreed flags are final (recording thread). */
static int64_t agreed_upto;
#define FP_DEPTH NDT_FP_DEPTH
#define stk ndt__fp_stk_
#define depth ndt__fp_depth_
typedef ndt_fp_op fp_op;

static void *(*capture_hook)(void);
static void (*release_hook)(void *);

/* Records that may have something to say, oldest first: those with a ctx
 * from their creation (their flags are handed out as soon as a tile raised
 * them, so a wait on part of the result reports them), the others once
 * they are done with flags. Retired records are freed (their ctx released)
 * at the next take, the ctx of the last take's results staying valid till
 * then. */
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static ndt_fprec *head, *tail, *graveyard;
static atomic_int events;   /* new flags or a record done since the last take */
static int nflagged;        /* flagged records without a ctx in the list */

static void append(ndt_fprec *r) {   /* list_lock held */
  r->next = NULL;
  if (tail) tail->next = r; else head = r;
  tail = r;
}

void ndt_fp_set_hooks(void *(*capture)(void), void (*release)(void *)) {
  capture_hook = capture;
  release_hook = release;
}

static void set_mask(void) {
  ndt__fp_mask_ = depth > 0 && depth <= FP_DEPTH ? stk[depth - 1].mask : 0;
}

/* On many ranks every record goes into the list when made (r->seq != 0),
 * whatever its flags: the agreement reads which are done. */
static int listed(const ndt_fprec *r) { return r->ctx || r->seq; }

/* The op's last task has run. */
static void ready(ndt_fprec *r) {
  atomic_store(&r->done, 1);
  if (listed(r)) {   /* in the list already */
    if (!r->seq) atomic_fetch_add(&events, 1);   /* else: when agreed */
    return;
  }
  if (!atomic_load(&r->flags)) {
    ndt__mfree(r);
    return;
  }
  pthread_mutex_lock(&list_lock);
  /* nobody takes them (a C program that never asks): keep the first ones */
  if (nflagged >= 256) {
    pthread_mutex_unlock(&list_lock);
    ndt__mfree(r);
    return;
  }
  nflagged++;
  append(r);
  atomic_fetch_add(&events, 1);
  pthread_mutex_unlock(&list_lock);
}

void ndt__fp_hold(ndt_fprec *r) {
  if (r) atomic_fetch_add(&r->refs, 1);
}

void ndt__fp_release(ndt_fprec *r) {
  if (r && atomic_fetch_sub(&r->refs, 1) == 1) ready(r);
}

void ndt__fp_add(ndt_fprec *r, unsigned flags) {
  flags &= r->mask;
  if (!flags) return;
  unsigned old = atomic_fetch_or(&r->flags, flags);
  if (r->ctx && !r->seq && (old | flags) != old) atomic_fetch_add(&events, 1);
}

static ndt_fprec *new_rec_seq(const char *name, unsigned mask, void *ctx, int64_t seq);
static ndt_fprec *new_rec(const char *name, unsigned mask, void *ctx) {
  return new_rec_seq(name, mask, ctx, 0);
}

/* The current op's number on many ranks (0 on one process: nothing waits). */
static int64_t cur_seq(void) {
  return ndt__fp_ranks_ && depth > 0 && depth <= FP_DEPTH ? stk[depth - 1].seq : 0;
}

static ndt_fprec *new_rec_seq(const char *name, unsigned mask, void *ctx, int64_t seq) {
  ndt_fprec *r = ndt__malloc(sizeof *r);
  if (!r) return NULL;   /* the errors of this op go unreported */
  atomic_init(&r->refs, 1);
  atomic_init(&r->flags, 0);
  atomic_init(&r->done, 0);
  r->mask = mask;
  r->reported = 0;
  r->seq = seq;
  r->shared = r->agreed = 0;
  r->name = name;
  r->ctx = ctx;
  r->next = NULL;
  if (listed(r)) {
    pthread_mutex_lock(&list_lock);
    append(r);
    pthread_mutex_unlock(&list_lock);
  }
  return r;
}

ndt_fprec *ndt__fp_defer(void) {
  if (!ndt__fp_mask_) return NULL;
  fp_op *e = &stk[depth - 1];
  if (!e->rec) {
    void *ctx = capture_hook ? capture_hook() : NULL;
    e->rec = new_rec_seq(e->name, e->mask, ctx, cur_seq());
    if (!e->rec) {
      if (ctx && release_hook) release_hook(ctx);
      return NULL;
    }
  }
  atomic_fetch_add(&e->rec->refs, 1);
  return e->rec;
}

/* ndt_fp_end of an op with a record or inline flags (on many ranks, of
 * every op that reports) */
void ndt__fp_end_slow(void) {
  if (ndt__fp_ranks_ && !stk[depth - 1].rec && stk[depth - 1].mask && stk[depth - 1].seq) {
    /* every rank has the record (its tasks, or its inline work, ran on one
     * rank only), made alike: in the error state of the call */
    fp_op *t = &stk[depth - 1];
    void *ctx = capture_hook ? capture_hook() : NULL;
    t->rec = new_rec_seq(t->name, t->mask, ctx, t->seq);
    if (!t->rec && ctx && release_hook) release_hook(ctx);
  }
  depth--;
  fp_op e = stk[depth];
  if (e.rec) {
    if (e.inl) ndt__fp_add(e.rec, e.inl);
    ndt__fp_release(e.rec);
  } else if (e.inl) {
    /* all of it ran inline: ready now, reported in the caller's state */
    ndt_fprec *r = new_rec(e.name, e.mask, NULL);
    if (r) {
      atomic_store(&r->flags, e.inl);
      ready(r);
    }
  }
  set_mask();
}

void ndt__fp_report_now(const char *name, unsigned flags) {
  if (!flags) return;
  ndt_fprec *r = new_rec(name, flags, NULL);
  if (r) {
    atomic_store(&r->flags, flags);
    ready(r);
  }
}

void ndt_fp_group_begin(const char *name) {
  /* inside a group, a group is one more of its ops (ndt_fp_begin counts it) */
  int inside = depth > 0 && depth <= FP_DEPTH && stk[depth - 1].group;
  ndt_fp_begin(name, NDT_FPE_DIVIDE | NDT_FPE_OVERFLOW | NDT_FPE_UNDERFLOW | NDT_FPE_INVALID);
  if (!inside && depth > 0 && depth <= FP_DEPTH) stk[depth - 1].group = 1;
}

void ndt_fp_group_end(void) {
  int d = depth - 1;
  if (d >= 0 && d < FP_DEPTH && stk[d].group && stk[d].nested == 0) stk[d].group = 0;
  ndt_fp_end();   /* a nested one: counted down */
}

int ndt_fp_errors_pending(void) { return atomic_load(&events); }

/* ---- many ranks: the agreement (comm.c calls these in ndt__comm_agree) ---- */
int64_t ndt__fp_settled(void) {
  int64_t lowest = INT64_MAX;   /* the lowest number of an op not done here */
  for (int d = 0; d < depth && d < FP_DEPTH; d++)
    if (stk[d].seq && stk[d].seq < lowest) lowest = stk[d].seq;
  pthread_mutex_lock(&list_lock);
  for (ndt_fprec *r = head; r; r = r->next)
    if (r->seq > agreed_upto && r->seq < lowest && !atomic_load(&r->done)) lowest = r->seq;
  pthread_mutex_unlock(&list_lock);
  return lowest == INT64_MAX ? ndt__fp_seq_ : lowest - 1;
}

int ndt__fp_flagged(void) {
  int any = 0;
  pthread_mutex_lock(&list_lock);
  for (ndt_fprec *r = head; r && !any; r = r->next)
    any = r->seq && (atomic_load(&r->flags) & ~r->shared);
  pthread_mutex_unlock(&list_lock);
  return any;
}

int ndt__fp_collect(int64_t *pairs, int cap) {
  int n = 0;
  pthread_mutex_lock(&list_lock);
  for (ndt_fprec *r = head; r; r = r->next) {
    unsigned f = r->seq ? atomic_load(&r->flags) & ~r->shared : 0;
    if (!f) continue;
    if (n < cap) {
      pairs[2 * n] = r->seq;
      pairs[2 * n + 1] = f;
      r->shared |= f;
    }
    n++;
  }
  pthread_mutex_unlock(&list_lock);
  return n < cap || !cap ? n : cap;
}

void ndt__fp_merge(const int64_t *pairs, int n) {
  pthread_mutex_lock(&list_lock);
  for (ndt_fprec *r = head; r; r = r->next)
    for (int i = 0; i < n; i++)
      if (pairs[2 * i] == r->seq) r->agreed |= (unsigned)pairs[2 * i + 1] & r->mask;
  pthread_mutex_unlock(&list_lock);
}

void ndt__fp_agreed(int64_t upto) {
  if (upto > agreed_upto) agreed_upto = upto;
  /* the final records with nothing to say and no ctx go at once (a C
   * program that never takes keeps nothing); the others wait for a take */
  int say = 0;
  pthread_mutex_lock(&list_lock);
  ndt_fprec **pp = &head, *prev = NULL;
  while (*pp) {
    ndt_fprec *r = *pp;
    if (r->seq && r->seq <= agreed_upto && !r->ctx && !r->agreed) {
      *pp = r->next;
      if (tail == r) tail = prev;
      ndt__mfree(r);
      continue;
    }
    say |= r->seq && ((r->agreed & ~r->reported) || (r->seq <= agreed_upto));
    prev = r;
    pp = &r->next;
  }
  pthread_mutex_unlock(&list_lock);
  if (say) atomic_fetch_add(&events, 1);
}

int ndt_fp_errors_take(ndt_fp_error *out, int cap) {
  /* the last take's retired records: their ctx was valid until now */
  pthread_mutex_lock(&list_lock);
  ndt_fprec *dead = graveyard;
  graveyard = NULL;
  pthread_mutex_unlock(&list_lock);
  while (dead) {
    ndt_fprec *nx = dead->next;
    if (dead->ctx && release_hook) release_hook(dead->ctx);
    ndt__mfree(dead);
    dead = nx;
  }
  atomic_store(&events, 0);
  int n = 0;
  pthread_mutex_lock(&list_lock);
  ndt_fprec **pp = &head, *prev = NULL;
  while (*pp) {
    ndt_fprec *r = *pp;
    /* many ranks: the flags agreed between the ranks, final once the op is
     * done on every rank (its number agreed) */
    int done = r->seq ? r->seq <= agreed_upto : atomic_load(&r->done);   /* before the flags */
    unsigned f = (r->seq ? r->agreed : atomic_load(&r->flags)) & ~r->reported;
    if (f && n < cap) {
      out[n++] = (ndt_fp_error){r->name, f, r->ctx};
      r->reported |= f;
      f = 0;
    }
    if (done && !f) {   /* retire */
      *pp = r->next;
      if (tail == r) tail = prev;
      if (!listed(r)) nflagged--;
      r->next = graveyard;
      graveyard = r;
      continue;
    }
    if (f) atomic_fetch_add(&events, 1);   /* out of room: next time */
    prev = r;
    pp = &r->next;
  }
  pthread_mutex_unlock(&list_lock);
  return n;
}
