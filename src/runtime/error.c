/* error.c - the status convention: names for statuses, a per-thread message. */
#include <stdio.h>
#include "internal.h"

static _Thread_local char last_msg[512];

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

const char *ndt_last_error(void) { return last_msg; }

ndt_status ndt__error(ndt_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_msg, sizeof last_msg, fmt, ap);
  va_end(ap);
  return s;
}
