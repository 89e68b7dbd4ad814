/* fperr.c - floating-point error records: one per operation, its tasks'
 * IEEE flags merged into it, handed to the front end when the op is done
 * (see internal.h and ndtile.h). */
#include <pthread.h>
#include <stdlib.h>
#include "internal.h"

struct ndt_fprec {
  atomic_int refs;      /* the recording op's, and one per task */
  atomic_uint flags;
  unsigned mask;
  const char *name;
  void *ctx;
  struct ndt_fprec *next;
};

/* The ops being recorded, innermost last (recording thread only). Deeper
 * nesting than this collects nothing. */
#define FP_DEPTH 8
typedef struct {
  const char *name;
  unsigned mask, inl;   /* inl: flags of its work run inline */
  ndt_fprec *rec;       /* made when a task is deferred */
} fp_op;
static fp_op stk[FP_DEPTH];
static int depth;
unsigned ndt_fp_mask_;

static void *(*capture_hook)(void);
static void (*release_hook)(void *);

/* Ready records, oldest first. */
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static ndt_fprec *done_head, *done_tail;
static atomic_int ndone;
static int nflagged;   /* flagged records in the list without a ctx */

void ndt_fp_set_hooks(void *(*capture)(void), void (*release)(void *)) {
  capture_hook = capture;
  release_hook = release;
}

static void set_mask(void) {
  ndt_fp_mask_ = depth > 0 && depth <= FP_DEPTH ? stk[depth - 1].mask : 0;
}

void ndt_fp_begin(const char *name, unsigned mask) {
  if (depth < FP_DEPTH) stk[depth] = (fp_op){name, mask, 0, NULL};
  depth++;
  set_mask();
}

static void ready(ndt_fprec *r) {
  unsigned f = atomic_load(&r->flags);
  if (!f && !r->ctx) {
    ndt_mfree(r);
    return;
  }
  pthread_mutex_lock(&done_lock);
  /* nobody takes them (a C program that never asks): keep the first ones */
  if (!r->ctx && nflagged >= 256) {
    pthread_mutex_unlock(&done_lock);
    ndt_mfree(r);
    return;
  }
  if (!r->ctx) nflagged++;
  r->next = NULL;
  if (done_tail) done_tail->next = r; else done_head = r;
  done_tail = r;
  atomic_fetch_add(&ndone, 1);
  pthread_mutex_unlock(&done_lock);
}

void ndt_fp_release(ndt_fprec *r) {
  if (r && atomic_fetch_sub(&r->refs, 1) == 1) ready(r);
}

void ndt_fp_add(ndt_fprec *r, unsigned flags) {
  flags &= r->mask;
  if (flags) atomic_fetch_or(&r->flags, flags);
}

static ndt_fprec *new_rec(const char *name, unsigned mask, void *ctx) {
  ndt_fprec *r = ndt_malloc(sizeof *r);
  if (!r) return NULL;   /* the errors of this op go unreported */
  atomic_init(&r->refs, 1);
  atomic_init(&r->flags, 0);
  r->mask = mask;
  r->name = name;
  r->ctx = ctx;
  r->next = NULL;
  return r;
}

ndt_fprec *ndt_fp_defer(void) {
  if (!ndt_fp_mask_) return NULL;
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

void ndt_fp_inline(unsigned flags) {
  if (depth > 0 && depth <= FP_DEPTH) stk[depth - 1].inl |= flags & stk[depth - 1].mask;
}

void ndt_fp_end(void) {
  if (depth <= 0) return;
  depth--;
  if (depth < FP_DEPTH) {
    fp_op e = stk[depth];
    if (e.rec) {
      if (e.inl) ndt_fp_add(e.rec, e.inl);
      ndt_fp_release(e.rec);
    } else if (e.inl) {
      /* all of it ran inline: ready now, reported in the caller's state */
      ndt_fprec *r = new_rec(e.name, e.mask, NULL);
      if (r) {
        atomic_store(&r->flags, e.inl);
        ready(r);
      }
    }
  }
  set_mask();
}

int ndt_fp_errors_pending(void) { return atomic_load(&ndone); }

int ndt_fp_errors_take(ndt_fp_error *out, int cap) {
  int n = 0;
  while (n < cap) {
    pthread_mutex_lock(&done_lock);
    ndt_fprec *r = done_head;
    if (r) {
      done_head = r->next;
      if (!done_head) done_tail = NULL;
      atomic_fetch_sub(&ndone, 1);
      if (!r->ctx) nflagged--;
    }
    pthread_mutex_unlock(&done_lock);
    if (!r) break;
    unsigned f = atomic_load(&r->flags);
    if (f) out[n++] = (ndt_fp_error){r->name, f, r->ctx};
    else if (r->ctx && release_hook) release_hook(r->ctx);
    ndt_mfree(r);
  }
  return n;
}
