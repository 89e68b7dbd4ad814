/* env.c - the NDTILE_* variables: their forms and ranges, and the one
 * parser that the runtime and the launcher (through the binding) share.
 * A leaf: every runtime file that reads a variable reads it here. */
#include <errno.h>
#include <stdio.h>
#include <strings.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

/* Counts are whole numbers, sizes are bytes; both take a k, M, G or T suffix
 * (powers of 1024; sizes also fractions such as 1.5G and the spellings KiB,
 * MB). A value that is not of its form, or out of its range, is an error
 * that names the variable and the accepted forms: ndt_init reports it. */
/* A setting that is one of a few words (NDTILE_FALLBACK): its value is
 * the `value` of the word given; several words may mean one value (aliases);
 * the first word of each value is its name (ndt_setting_choice). */
typedef struct {
  const char *word;
  int value;
} choice_def;
static const choice_def fallback_words[] = {
    {"warn", 0}, {"ignore", 1}, {"error", 2}, {"summary", 3},
    {"off", 1}, {"quiet", 1}, {"0", 1}, {NULL, 0}};
static const choice_def bind_words[] = {{"none", 0}, {"cores", 1}, {"off", 0}, {"0", 0},
                                        {NULL, 0}};
static const choice_def math_words[] = {{"device", 1}, {"cpu", 0}, {"1", 1}, {"0", 0},
                                        {NULL, 0}};
static const choice_def check_words[] = {{"off", NDT__CHECK_OFF}, {"abort", NDT__CHECK_ABORT},
                                         {"error", NDT__CHECK_ERROR}, {"0", NDT__CHECK_OFF},
                                         {"1", NDT__CHECK_ABORT}, {"on", NDT__CHECK_ABORT},
                                         {NULL, 0}};

typedef struct {
  const char *name;
  int size;          /* 1: bytes; 0: a count */
  int64_t lo, hi;
} setting_def;

/* indexed by ndt__setting_id: ndt_setting_name(i) is setting i */
static const setting_def defs[NDT__NSETTINGS] = {
    [NDT__SET_WORKERS] = {"NDTILE_WORKERS", 0, 1, 1024},
    [NDT__SET_TILE_BYTES] = {"NDTILE_TILE_BYTES", 1, 1, (int64_t)1 << 40},
    [NDT__SET_INLINE_ELEMS] = {"NDTILE_INLINE_ELEMS", 0, 0, INT64_MAX},
    [NDT__SET_MAX_PENDING] = {"NDTILE_MAX_PENDING", 0, 1, INT64_MAX},
    [NDT__SET_MAX_PENDING_BYTES] = {"NDTILE_MAX_PENDING_BYTES", 1, 1, INT64_MAX},
    [NDT__SET_MAX_MEMORY] = {"NDTILE_MAX_MEMORY", 1, 1, INT64_MAX},
    [NDT__SET_CACHE_BYTES] = {"NDTILE_CACHE_BYTES", 1, 0, INT64_MAX},
    [NDT__SET_SIMDEVICE_BYTES] = {"NDTILE_SIMDEVICE_BYTES", 1, 1, INT64_MAX},
    [NDT__SET_MPI_SPIN] = {"NDTILE_MPI_SPIN", 0, 0, INT32_MAX},
    /* observing (docs/guide/observe.md): seconds a blocking wait lasts before
     * its progress line shows (0: never); the fallback policy (the Python
     * package acts on it, _fallback.py) */
    [NDT__SET_PROGRESS] = {"NDTILE_PROGRESS", 0, 0, 86400},
    [NDT__SET_FALLBACK] = {"NDTILE_FALLBACK", 0, 0, 3},   /* a word: fallback_words */
    /* devices (device.c, the CUDA plugin): the memory budget per device */
    [NDT__SET_CUDA_MEM] = {"NDTILE_CUDA_MEM", 1, 0, INT64_MAX},
    /* the bytes a grouped device task may take (0: no groups) */
    [NDT__SET_GPU_GROUP] = {"NDTILE_GPU_GROUP", 1, 0, INT64_MAX},
    /* many ranks: each keeps to cores of its own (comm.c); a word: bind_words */
    [NDT__SET_BIND] = {"NDTILE_BIND", 0, 0, 1},
    /* many ranks: the GPUs of a node, shared among its ranks (device.c) */
    [NDT__SET_GPUS_PER_NODE] = {"NDTILE_GPUS_PER_NODE", 0, 0, 64},
    /* the transcendental functions on CUDA devices (their math library,
     * within a bound) or on the CPU (its bits); a word: math_words */
    [NDT__SET_CUDA_MATH] = {"NDTILE_CUDA_MATH", 0, 0, 1},
    /* a debug check of every task's operands (check.c); a word: check_words */
    [NDT__SET_CHECK] = {"NDTILE_CHECK", 0, 0, 2},
};
#define NDEFS NDT__NSETTINGS

/* The words of a word setting, NULL for a number. */
static const choice_def *words_of(int id) {
  return id == NDT__SET_FALLBACK ? fallback_words : id == NDT__SET_BIND ? bind_words
         : id == NDT__SET_CUDA_MATH ? math_words : id == NDT__SET_CHECK ? check_words : NULL;
}

const char *ndt_setting_name(int i) { return i >= 0 && i < NDEFS ? defs[i].name : NULL; }

ndt_status ndt__setting_find(const char *name, ndt__setting_id *id) {
  for (int i = 0; name && i < NDEFS; i++)
    if (!strcmp(defs[i].name, name)) {
      *id = (ndt__setting_id)i;
      return NDT_OK;
    }
  return ndt__error(NDT_ERR_VALUE, "%s is not an ndtile setting (see ndt_setting_name)",
                    name ? name : "(null)");
}

/* "512M", "4G", "1.5T", "123" (bytes); -1 when it is not a size. */
static int64_t parse_size(const char *s) {
  if (!s) return -1;
  while (*s == ' ') s++;
  if (*s < '0' || *s > '9') {   /* strtod would take "inf", "nan", "0x10", "-1" */
    if (*s != '.') return -1;
  }
  char *end;
  double v = strtod(s, &end);
  if (end == s || v < 0) return -1;
  while (*end == ' ') end++;
  double mul = 1;
  switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1048576.0; end++; break;
    case 'g': case 'G': mul = 1073741824.0; end++; break;
    case 't': case 'T': mul = 1099511627776.0; end++; break;
    case 'p': case 'P': mul = 1125899906842624.0; end++; break;
    default: break;
  }
  if (mul > 1 && *end == 'i') end++;      /* 4GiB */
  if (*end == 'b' || *end == 'B') end++;  /* 4GB, 512MB */
  while (*end == ' ') end++;
  if (*end) return -1;
  v *= mul;
  return v >= 9.2e18 ? INT64_MAX : (int64_t)v;
}

/* A count: digits and an optional k, M or G suffix; -1 otherwise. */
static int64_t parse_count(const char *s) {
  while (*s == ' ') s++;
  if (*s < '0' || *s > '9') return -1;
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (errno) return INT64_MAX;
  int shift = 0;
  switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
  }
  while (*end == ' ') end++;
  if (*end) return -1;
  return x > (INT64_MAX >> shift) ? INT64_MAX : (int64_t)x << shift;
}

/* The word's value, or -1 (case and surrounding blanks do not matter). */
static int64_t parse_word(const choice_def *w, const char *s) {
  while (*s == ' ') s++;
  size_t n = strlen(s);
  while (n && s[n - 1] == ' ') n--;
  for (; w->word; w++)
    if (strlen(w->word) == n && !strncasecmp(w->word, s, n)) return w->value;
  return -1;
}

static ndt_status bad_word(const setting_def *d, const choice_def *words, const char *text) {
  char list[200];
  size_t n = 0;
  list[0] = 0;
  for (const choice_def *w = words; w->word && n < sizeof list - 40; w++)
    n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", w->word);
  return ndt__error(NDT_ERR_VALUE, "%s=%s is not one of the accepted words: %s", d->name,
                   text ? text : "", list);
}

const char *ndt_setting_choice(const char *name, int64_t value) {
  for (int i = 0; name && i < NDEFS; i++)
    if (!strcmp(defs[i].name, name)) {
      for (const choice_def *w = words_of(i); w && w->word; w++)
        if (w->value == value) return w->word;
      return NULL;
    }
  return NULL;
}

ndt_status ndt_setting_parse(const char *name, const char *text, int64_t *value) {
  ndt__setting_id id;
  ndt_status st = ndt__setting_find(name, &id);
  if (st) return st;
  const setting_def *d = &defs[id];
  const choice_def *words = words_of(id);
  if (words) {
    int64_t w = text ? parse_word(words, text) : -1;
    if (w < 0) return bad_word(d, words, text);
    *value = w;
    return NDT_OK;
  }
  int64_t v = text ? (d->size ? parse_size(text) : parse_count(text)) : -1;
  if (v < 0)
    return ndt__error(NDT_ERR_VALUE, d->size
                     ? "%s=%s is not a size: give bytes, optionally with a k, M, G or T "
                       "suffix (powers of 1024), like 4096, 512k, 2M or 1.5G"
                     : "%s=%s is not a count: give a whole number, optionally with a k or M "
                       "suffix (powers of 1024), like 4 or 32k",
                     name, text ? text : "");
  if (v < d->lo || v > d->hi)
    return ndt__error(NDT_ERR_VALUE, "%s=%s is out of range: it must be from %lld to %lld", name,
                     text, (long long)d->lo, (long long)d->hi);
  *value = v;
  return NDT_OK;
}

static ndt_status env_setting(const char *name, int64_t dflt, int64_t *value) {
  const char *v = getenv(name);
  *value = dflt;
  if (!v || !*v) return NDT_OK;
  return ndt_setting_parse(name, v, value);
}

int64_t ndt__env_int(const char *name, int64_t dflt) {
  int64_t v;
  return env_setting(name, dflt, &v) == NDT_OK ? v : dflt;
}

/* ---- NDTILE_DEVICES: a list, not a number ---- */
static int dev_index(const char **p) {
  const char *s = *p;
  if (*s < '0' || *s > '9') return -1;
  int v = 0;
  while (*s >= '0' && *s <= '9' && v < 1000) v = v * 10 + (*s++ - '0');
  *p = s;
  return v < 1000 ? v : -1;
}

static ndt_status devices_bad(const char *text, const char *why) {
  return ndt__error(NDT_ERR_VALUE,
                    "NDTILE_DEVICES=%s is not a device list%s: give auto (CUDA when the plugin "
                    "loads and finds a device, else the CPU), none, cuda (every CUDA device), "
                    "cuda:0,1 (CUDA devices by index; cuda:0,cuda:0 makes two virtual devices "
                    "on one GPU) or sim:N,mem=SIZE (N simulated devices of SIZE bytes each); "
                    "at most %d devices",
                    text, why, NDT__MAX_DEVS);
}

ndt_status ndt__devices_parse(const char *text, ndt__devspec *d) {
  memset(d, 0, sizeof *d);
  const char *s = text ? text : "";
  while (*s == ' ') s++;
  if (!*s || !strcmp(s, "none") || !strcmp(s, "cpu")) return NDT_OK;
  if (!strcmp(s, "auto")) {
    d->kind = NDT__DEVS_AUTO;
    return NDT_OK;
  }
  if (!strcmp(s, "cuda")) {
    d->kind = NDT__DEVS_CUDA;
    return NDT_OK;
  }
  if (!strncmp(s, "cuda:", 5)) {
    d->kind = NDT__DEVS_CUDA;
    s += 5;
    for (;;) {
      int i = dev_index(&s);
      if (i < 0) return devices_bad(text, " (a device index is missing)");
      if (d->n == NDT__MAX_DEVS) return devices_bad(text, " (too many devices)");
      d->index[d->n++] = i;
      if (!*s) return NDT_OK;
      if (*s++ != ',') return devices_bad(text, "");
      if (!strncmp(s, "cuda:", 5)) s += 5;
    }
  }
  if (!strncmp(s, "sim", 3) && (s[3] == 0 || s[3] == ':' || s[3] == ',')) {
    d->kind = NDT__DEVS_SIM;
    d->n = 1;
    s += 3;
    if (*s == ':') {
      s++;
      int n = dev_index(&s);
      if (n < 1 || n > NDT__MAX_DEVS) return devices_bad(text, " (N must be from 1 to 3)");
      d->n = n;
    }
    if (!*s) return NDT_OK;
    if (strncmp(s, ",mem=", 5)) return devices_bad(text, "");
    int64_t m = parse_size(s + 5);
    if (m < 1)
      return devices_bad(text, " (mem= takes a size: bytes, optionally with a k, M, G or T "
                               "suffix, like 4M)");
    d->mem = m;
    return NDT_OK;
  }
  return devices_bad(text, "");
}

ndt_status ndt__settings_check(void) {
  for (int i = 0; i < NDEFS; i++) {
    int64_t v;
    ndt_status st = env_setting(defs[i].name, 0, &v);
    if (st) return st;
  }
  ndt__devspec d;
  const char *dv = getenv("NDTILE_DEVICES");
  return dv && *dv ? ndt__devices_parse(dv, &d) : NDT_OK;
}

