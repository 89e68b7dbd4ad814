/* fused_gen.h - the fused groups' second tier (issue 18 item 5): the
 * source of one kernel for one program of the interpreter
 * (src/kernels/cuda/fused_impl.h), its key, and its compile by NVRTC
 * (fused_gen.c). The plugin's policy, cache and loading are cuda_jit.c's. */
#ifndef NDT_RUNTIME_FUSED_GEN_H
#define NDT_RUNTIME_FUSED_GEN_H

#include <stddef.h>
#include <stdint.h>
#include "kernels/cuda/fused_types.h"

/* bumped when the generated code changes meaning (it is in every key) */
#define NDT_FGEN_VERSION 1

/* The source of P's kernel, a function named name (extern "C"), into buf
 * (NUL-terminated): its length; -1 when the generator cannot write it (an
 * entry it does not know, a size it does not expect: the interpreter runs
 * that program) or when cap is too small. */
int ndt__fgen_source(const ndt_dk_fprog *P, const char *name, char *buf, size_t cap);

/* the headers a generated source includes (names as it includes them,
 * texts as built into the plugin), n of them */
int ndt__fgen_headers(const char *const **names, const char *const **texts);

/* FNV-1a over n bytes, continuing from h (start: NDT_FGEN_HASH0) */
#define NDT_FGEN_HASH0 0xcbf29ce484222325ull
uint64_t ndt__fgen_hash(const void *p, size_t n, uint64_t h);

/* What besides the source decides a compiled kernel: the device's compute
 * capability (major * 10 + minor), NVRTC's version (major * 1000 + minor *
 * 10, as CUDA numbers its versions), the driver's (cudaDriverGetVersion)
 * and whether NVRTC is the host build's emulation (tests/cudahost: its
 * "cubin" is a shared object, never a GPU's). */
typedef struct { int arch, nvrtc, driver, emulated; } ndt_fgen_target;

/* The key of a source for a target: its text, the headers' texts, the
 * target and the generator's version. */
uint64_t ndt__fgen_key(const char *src, const ndt_fgen_target *t);

/* NVRTC's entry points (a table: the real library, opened with dlopen, or
 * the host build's emulation, tests/cudahost) */
typedef struct {
  int (*create)(void **prog, const char *src, const char *name, int nh, const char *const *texts,
                const char *const *names);
  int (*compile)(void *prog, int nopt, const char *const *opts);
  int (*log_size)(void *prog, size_t *n);
  int (*log)(void *prog, char *buf);
  int (*cubin_size)(void *prog, size_t *n);
  int (*cubin)(void *prog, char *buf);
  int (*destroy)(void **prog);
  int (*version)(int *major, int *minor);
} ndt_nvrtc;

/* libnvrtc.so.13 (or .12, or libnvrtc.so) opened with dlopen: 0, or -1
 * with why set */
int ndt__nvrtc_open(ndt_nvrtc *n, char *why, size_t cap);

/* src compiled for sm_<arch> (cubin, with the plugin's flags: no
 * contraction, IEEE division and square root, no flush to zero): 0 with
 * *bin (malloc'ed, *len bytes), or -1 with the compiler's log (its end)
 * in log */
int ndt__fgen_compile(const ndt_nvrtc *n, const char *src, int arch, void **bin, size_t *len,
                      char *log, size_t cap);

#endif
