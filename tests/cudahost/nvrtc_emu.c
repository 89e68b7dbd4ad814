/* nvrtc_emu.c - the host build's NVRTC (cuda_runtime_api.h): the entry
 * points src/runtime/fused_gen.c calls, compiling a generated fused kernel
 * as C with the system's compiler (NDTILE_CUDAHOST_CC, default cc) into a
 * shared object, the emulation's "cubin" (cudahost.c's cudaLibraryLoadData
 * loads it). The headers come from the plugin, as NVRTC gets them: written
 * into a temporary directory with the source. The flags are the host
 * build's kernels' (kernels.c): NDT_SC_EMULATE (the device's flag
 * inference and NaN rules) and no contraction (nvcc's --fmad=false).
 * NDTILE_CUDAHOST_NVRTC=none: no library, as on a machine without NVRTC;
 * NDTILE_CUDAHOST_NVRTC_VERSION=major.minor: the version it reports
 * (default 13.0), as another toolkit's would. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cuda_runtime_api.h"
#include "runtime/fused_gen.h"

extern char **environ;
extern atomic_long ndt__cudahost_n_compiles;

typedef struct {
  char *src;
  int nh;
  char **texts, **names;
  char *bin, *log;
  size_t nbin, nlog;
} eprog;

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static int e_create(void **prog, const char *src, const char *name, int nh,
                    const char *const *texts, const char *const *names) {
  (void)name;
  eprog *p = calloc(1, sizeof *p);
  if (!p) return 1;
  p->src = dup_str(src);
  p->nh = nh;
  p->texts = calloc((size_t)nh + 1, sizeof *p->texts);
  p->names = calloc((size_t)nh + 1, sizeof *p->names);
  for (int i = 0; i < nh && p->texts && p->names; i++) {
    p->texts[i] = dup_str(texts[i]);
    p->names[i] = dup_str(names[i]);
  }
  *prog = p;
  return 0;
}

static int write_file(const char *dir, const char *name, const char *text) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  for (char *s = path + strlen(dir) + 1; *s; s++) {   /* its directories */
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(path, 0700) && errno != EEXIST) return -1;
    *s = '/';
  }
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

static char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *b = NULL;
  size_t cap = 0;
  *n = 0;
  for (;;) {
    if (*n + 65536 > cap) {
      char *nb = realloc(b, cap = *n + 65536 + 1);
      if (!nb) break;
      b = nb;
    }
    size_t k = fread(b + *n, 1, cap - *n - 1, f);
    *n += k;
    if (k == 0) break;
  }
  fclose(f);
  if (b) b[*n] = 0;
  return b;
}

static void rm_tree(const char *dir, eprog *p) {
  char path[4096];
  for (int i = 0; i < p->nh; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, p->names[i]);
    unlink(path);
  }
  for (int i = 0; i < p->nh; i++) {   /* their directories, deepest first */
    snprintf(path, sizeof path, "%s/%s", dir, p->names[i]);
    for (char *s = strrchr(path, '/'); s && s > path + strlen(dir); s = strrchr(path, '/')) {
      *s = 0;
      rmdir(path);
    }
  }
  static const char *const own[] = {"k.c", "k.so", "log"};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, own[i]);
    unlink(path);
  }
  rmdir(dir);
}

static int e_compile(void *prog, int nopt, const char *const *opts) {
  (void)nopt, (void)opts;   /* (-arch and the float flags: the C flags below) */
  eprog *p = prog;
  atomic_fetch_add(&ndt__cudahost_n_compiles, 1);
  const char *tmp = getenv("TMPDIR");
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/ndtile-nvrtc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) return 1;
  int rc = write_file(dir, "k.c", p->src);
  for (int i = 0; i < p->nh && !rc; i++) rc = write_file(dir, p->names[i], p->texts[i]);
  char inc[1100], out[1100], src[1100], log[1100];
  snprintf(inc, sizeof inc, "-I%s", dir);
  snprintf(out, sizeof out, "%s/k.so", dir);
  snprintf(src, sizeof src, "%s/k.c", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  const char *cc = getenv("NDTILE_CUDAHOST_CC");
  if (!cc || !*cc) cc = "cc";
  char *argv[] = {(char *)cc, "-std=gnu11", "-O2", "-fPIC", "-shared", "-ffp-contract=off",
                  "-DNDT_SC_EMULATE=1", inc, "-o", out, src, "-lm", NULL};
  if (!rc) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int status = 0;
    rc = posix_spawnp(&pid, cc, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (!rc) {
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
      rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
    }
  }
  p->log = read_file(log, &p->nlog);
  if (!rc) p->bin = read_file(out, &p->nbin);
  if (!p->bin) rc = 1;
  rm_tree(dir, p);
  return rc;
}

static int e_log_size(void *prog, size_t *n) {
  *n = ((eprog *)prog)->nlog + 1;
  return 0;
}

static int e_log(void *prog, char *buf) {
  eprog *p = prog;
  if (p->log) memcpy(buf, p->log, p->nlog);
  buf[p->nlog] = 0;
  return 0;
}

static int e_cubin_size(void *prog, size_t *n) {
  *n = ((eprog *)prog)->nbin;
  return ((eprog *)prog)->bin ? 0 : 1;
}

static int e_cubin(void *prog, char *buf) {
  eprog *p = prog;
  if (!p->bin) return 1;
  memcpy(buf, p->bin, p->nbin);
  return 0;
}

static int e_destroy(void **prog) {
  eprog *p = *prog;
  if (!p) return 0;
  for (int i = 0; i < p->nh; i++) {
    if (p->texts) free(p->texts[i]);
    if (p->names) free(p->names[i]);
  }
  free(p->texts);
  free(p->names);
  free(p->src);
  free(p->bin);
  free(p->log);
  free(p);
  *prog = NULL;
  return 0;
}

static int e_version(int *major, int *minor) {
  const char *v = getenv("NDTILE_CUDAHOST_NVRTC_VERSION");
  *major = 13;
  *minor = 0;
  if (v && *v && sscanf(v, "%d.%d", major, minor) != 2) return 1;
  return 0;
}

int ndt__cudahost_nvrtc_open(void *table, char *why, size_t cap) {
  const char *s = getenv("NDTILE_CUDAHOST_NVRTC");
  if (s && !strcmp(s, "none")) {
    snprintf(why, cap, "no NVRTC library (the emulated one is off: NDTILE_CUDAHOST_NVRTC=none)");
    return -1;
  }
  ndt_nvrtc *n = table;
  n->create = e_create;
  n->compile = e_compile;
  n->log_size = e_log_size;
  n->log = e_log;
  n->cubin_size = e_cubin_size;
  n->cubin = e_cubin;
  n->destroy = e_destroy;
  n->version = e_version;
  return 0;
}
