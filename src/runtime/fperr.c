/* fperr.c - floating-point error records: one per operation, its tasks'
 * IEEE flags merged into it, handed to the front end when the op is done
 * (see internal.h and ndtile.h). */
#include <pthread.h>
#include <stdlib.h>
#include "internal.h"

struct ndt_fprec {
  atomic_int refs;      /* the recording op's, and one per task */
  atomic_uint flags;
  atomic_int done;      /* its last task has run */
  unsigned mask;
  unsigned reported;    /* flags handed out already (under list_lock) */
  const char *name;
  void *ctx;
  struct ndt_fprec *next;
};

ndt_fp_op ndt__fp_stk_[NDT_FP_DEPTH];   /* recording thread only */
int ndt__fp_depth_;
unsigned ndt__fp_mask_;
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

/* The op's last task has run. */
static void ready(ndt_fprec *r) {
  atomic_store(&r->done, 1);
  if (r->ctx) {   /* in the list already */
    atomic_fetch_add(&events, 1);
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

void ndt__fp_release(ndt_fprec *r) {
  if (r && atomic_fetch_sub(&r->refs, 1) == 1) ready(r);
}

void ndt__fp_add(ndt_fprec *r, unsigned flags) {
  flags &= r->mask;
  if (!flags) return;
  unsigned old = atomic_fetch_or(&r->flags, flags);
  if (r->ctx && (old | flags) != old) atomic_fetch_add(&events, 1);
}

static ndt_fprec *new_rec(const char *name, unsigned mask, void *ctx) {
  ndt_fprec *r = ndt__malloc(sizeof *r);
  if (!r) return NULL;   /* the errors of this op go unreported */
  atomic_init(&r->refs, 1);
  atomic_init(&r->flags, 0);
  atomic_init(&r->done, 0);
  r->mask = mask;
  r->reported = 0;
  r->name = name;
  r->ctx = ctx;
  r->next = NULL;
  if (ctx) {
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
    e->rec = new_rec(e->name, e->mask, ctx);
    if (!e->rec) {
      if (ctx && release_hook) release_hook(ctx);
      return NULL;
    }
  }
  atomic_fetch_add(&e->rec->refs, 1);
  return e->rec;
}

/* ndt_fp_end of an op with a record or inline flags */
void ndt__fp_end_slow(void) {
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
    int done = atomic_load(&r->done);   /* before the flags: a done op's are final */
    unsigned f = atomic_load(&r->flags) & ~r->reported;
    if (f && n < cap) {
      out[n++] = (ndt_fp_error){r->name, f, r->ctx};
      r->reported |= f;
      f = 0;
    }
    if (done && !f) {   /* retire */
      *pp = r->next;
      if (tail == r) tail = prev;
      if (!r->ctx) nflagged--;
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
