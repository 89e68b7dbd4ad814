/* error.c - the status convention: names for statuses, the calling thread's
 * last error (its message and its parts: kind, argument, op), and the
 * records that carry an error from a task or another rank to the caller. */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* The thread's last error. `text` is what ndt_last_error gives ("op: msg"
 * for a deferred error); `info` points into the record. */
static _Thread_local ndt__err_rec last;
static _Thread_local char last_text[sizeof last.op + sizeof last.msg + 2];
static _Thread_local ndt_error last_info;

const char *ndt_status_string(ndt_status s) {
  switch (s) {
    case NDT_OK: return "ok";
    case NDT_ERR_NOMEM: return "out of memory";
    case NDT_ERR_VALUE: return "invalid value";
    case NDT_ERR_SHAPE: return "shape mismatch";
    case NDT_ERR_AXIS: return "axis out of bounds";
    case NDT_ERR_INDEX: return "index out of bounds";
    case NDT_ERR_TYPE: return "unsupported dtype";
    case NDT_ERR_CAST: return "cast not allowed";
    case NDT_ERR_UNSUPPORTED: return "not implemented";
    case NDT_ERR_DEFERRED: return "a deferred operation failed";
    case NDT_ERR_INTERNAL: return "internal error";
    case NDT_ERR_OVERFLOW: return "overflow";
    case NDT_ERR_LINALG: return "linear algebra error";
    case NDT_ERR_INTERRUPTED: return "interrupted";
  }
  return "unknown status";
}

ndt_error_kind ndt_status_kind(ndt_status s) {
  switch (s) {
    case NDT_OK: return NDT_KIND_NONE;
    case NDT_ERR_NOMEM: return NDT_KIND_MEMORY;
    case NDT_ERR_VALUE:
    case NDT_ERR_SHAPE: return NDT_KIND_VALUE;
    case NDT_ERR_AXIS: return NDT_KIND_AXIS;
    case NDT_ERR_INDEX: return NDT_KIND_INDEX;
    /* NumPy's ufunc machinery raises UFuncTypeError for a missing loop and
     * for a forbidden cast; the few plain TypeErrors say so (ndt__error_at) */
    case NDT_ERR_TYPE:
    case NDT_ERR_CAST: return NDT_KIND_UFUNC_TYPE;
    case NDT_ERR_UNSUPPORTED: return NDT_KIND_UNSUPPORTED;
    case NDT_ERR_OVERFLOW: return NDT_KIND_OVERFLOW;
    case NDT_ERR_LINALG: return NDT_KIND_LINALG;
    case NDT_ERR_INTERRUPTED: return NDT_KIND_INTERRUPTED;
    case NDT_ERR_DEFERRED:
    case NDT_ERR_INTERNAL: return NDT_KIND_INTERNAL;
  }
  return NDT_KIND_INTERNAL;
}

const char *ndt_last_error(void) { return last_text; }

const ndt_error *ndt_last_error_info(void) {
  last_info.status = (ndt_status)last.status;
  last_info.kind = (ndt_error_kind)last.kind;
  last_info.arg = last.arg;
  last_info.op = last.op;
  last_info.message = last.msg;
  last_info.deferred = last.deferred;
  return &last_info;
}

/* Copies src (NULL: "") into a buffer of n bytes, cut to fit. */
static void put(char *dst, size_t n, const char *src) {
  snprintf(dst, n, "%s", src ? src : "");
}

static void set_text(void) {
  if (last.deferred && last.op[0])
    snprintf(last_text, sizeof last_text, "%s: %s", last.op, last.msg);
  else
    put(last_text, sizeof last_text, last.msg);
}

static ndt_status verror(ndt_status s, ndt_error_kind kind, const char *arg, const char *fmt,
                         va_list ap) {
  /* the message is formatted first: an argument may be the old message */
  char msg[sizeof last.msg];
  vsnprintf(msg, sizeof msg, fmt, ap);
  memcpy(last.msg, msg, sizeof msg);
  last.status = s;
  last.kind = kind ? kind : ndt_status_kind(s);
  put(last.arg, sizeof last.arg, arg);
  last.op[0] = '\0';
  last.deferred = 0;
  set_text();
  return s;
}

ndt_status ndt__error(ndt_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror(s, NDT_KIND_NONE, NULL, fmt, ap);
  va_end(ap);
  return s;
}

ndt_status ndt__error_at(ndt_status s, ndt_error_kind kind, const char *arg, const char *fmt,
                         ...) {
  va_list ap;
  va_start(ap, fmt);
  verror(s, kind, arg, fmt, ap);
  va_end(ap);
  return s;
}

void ndt__error_save(ndt__err_rec *rec, ndt_status st, const char *op) {
  *rec = last;
  /* a body that failed without a message of its own leaves an older error
   * of this thread: its kind is not this status's */
  if (rec->status != st) rec->kind = ndt_status_kind(st);
  rec->status = st;
  if (op) {
    put(rec->op, sizeof rec->op, op);
    rec->deferred = 1;
  }
}

ndt_status ndt__error_load(const ndt__err_rec *rec) {
  last = *rec;
  /* the record may come from another rank: its strings end in the buffer */
  last.arg[sizeof last.arg - 1] = last.op[sizeof last.op - 1] = last.msg[sizeof last.msg - 1] = 0;
  set_text();
  return (ndt_status)last.status;
}
