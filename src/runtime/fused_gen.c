/* fused_gen.c - the source of a specialised kernel for one program of the
 * fused groups' interpreter (src/kernels/cuda/fused_impl.h), its key, and
 * its compile by NVRTC (fused_gen.h).
 *
 * The kernel does per element what the interpreter does for that program,
 * with the program's choices fixed in the code: each step's inputs read at
 * their dtypes (memcpy), cast into the loop's dtypes by scalar.h's casts
 * (their flags ORed in), the entry's scalar function of ew_ops.h called
 * (the function the interpreter's switch reaches for that key, with the
 * same argument and result types), the result cast into the step's dtype,
 * stored when the group writes it; each step's flags into its flags word
 * at the end, as the interpreter reports them. So its bits and flags are
 * the interpreter's (and the CPU's) by construction: the same functions in
 * the same order on the same values. It includes fused_gen.h, which gives
 * it a CUDA kernel's frame under NVRTC and an emulated thread's in the
 * host build (tests/cudahost), where it is compiled as C. */
#include "runtime/fused_gen.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/cuda/ew_ops.h"

/* ---- the entries: ew_ops.h's list, as text ---- */
typedef struct {
  int key;
  int8_t nin, fl;            /* fl: it takes the flags' address */
  uint8_t isz[3], osz;       /* its argument and result types' sizes */
  const char *ti[3], *to, *fn;
} gop;

#define G_U(OP, DT, SFX, TI, TO, F) \
  {(OP) * NDT_DK_NKEYS + (DT), 1, 0, {sizeof(TI)}, sizeof(TO), {#TI}, #TO, #F},
#define G_UF(OP, DT, SFX, TI, TO, F) \
  {(OP) * NDT_DK_NKEYS + (DT), 1, 1, {sizeof(TI)}, sizeof(TO), {#TI}, #TO, #F},
#define G_B(OP, DT, SFX, T1, T2, TO, F)                                                       \
  {(OP) * NDT_DK_NKEYS + (DT), 2, 0, {sizeof(T1), sizeof(T2)}, sizeof(TO), {#T1, #T2}, #TO, \
   #F},
#define G_BF(OP, DT, SFX, T1, T2, TO, F)                                                      \
  {(OP) * NDT_DK_NKEYS + (DT), 2, 1, {sizeof(T1), sizeof(T2)}, sizeof(TO), {#T1, #T2}, #TO, \
   #F},
#define G_T3(OP, DT, SFX, T1, T2, T3, TO, F)                                        \
  {(OP) * NDT_DK_NKEYS + (DT), 3, 0, {sizeof(T1), sizeof(T2), sizeof(T3)}, sizeof(TO), \
   {#T1, #T2, #T3}, #TO, #F},
static const gop gops[] = {NDT_DK_ALL_OPS(G_U, G_UF, G_B, G_BF, G_T3)};

static const gop *gop_find(int key) {
  for (size_t i = 0; i < sizeof gops / sizeof *gops; i++)
    if (gops[i].key == key) return &gops[i];
  return NULL;
}

#define G_SFX(SFX, _) [NDT_DK_DT_##SFX] = #SFX,
static const char *const sfx[NDT_NTYPES] = {NDT_SC_FOREACH_DTYPE_SFX(G_SFX, _)};

/* a dtype's storage size (the interpreter's ndt_dk_fsize) */
static int dt_size(int dt) {
  switch (dt) {
    case NDT_INT16: case NDT_UINT16: return 2;
    case NDT_INT32: case NDT_UINT32: case NDT_FLOAT32: return 4;
    case NDT_INT64: case NDT_UINT64: case NDT_FLOAT64: case NDT_COMPLEX64: return 8;
    case NDT_COMPLEX128: return 16;
    default: return 1;
  }
}

/* ---- the source ---- */
typedef struct {
  char *p;
  size_t n, cap;
  int bad;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) {
  if (b->bad) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
  va_end(ap);
  if (k < 0 || (size_t)k >= b->cap - b->n) b->bad = 1;
  else b->n += (size_t)k;
}

static int dt_ok(int dt) { return dt >= 0 && dt < NDT_NTYPES; }

int ndt__fgen_source(const ndt_dk_fprog *P, const char *name, char *buf, size_t cap) {
  if (!cap || P->nstep < 1 || P->nstep > NDT_DK_FMAXSTEPS || P->nop > NDT_DK_FMAXOPS) return -1;
  sbuf b = {buf, 0, cap, 0};
  put(&b, "/* ndtile fused kernel, generator version %d: %d steps, %d operands */\n"
      "#include \"kernels/cuda/fused_gen.h\"\n\nNDT_FG_KERNEL(%s)\n"
      "  const ndt_dk_frun *r = &L->run[by];\n"
      "  const int64_t n = r->rows * r->cols, cols = r->cols;\n",
      NDT_FGEN_VERSION, P->nstep, P->nop, name);
  for (int s = 0; s < P->nstep; s++) put(&b, "  unsigned f%d = 0;\n", s);
  put(&b, "  for (int64_t e = bx * ntx + tx; e < n; e += nbx * ntx) {\n"
      "    const int64_t i = r->rows == 1 ? 0 : e / cols, j = e - i * cols;\n");
  for (int s = 0; s < P->nstep; s++) {
    const ndt_dk_fstep *st = &P->step[s];
    if (st->nin < 1 || st->nin > 3 || !dt_ok(st->out_dt) || !dt_ok(st->loop_out)) return -1;
    if (st->out >= P->nop) return -1;
    const gop *g = NULL;
    if (st->key >= 0) {
      g = gop_find(st->key);
      /* the interpreter moves values between the loop's dtypes and the
       * entry's types by their bytes: the sizes must agree */
      if (!g || g->nin != st->nin || g->osz != dt_size(st->loop_out)) return -1;
    } else if (st->nin != 1) {
      return -1;
    }
    put(&b, "    ndt_sc_t_%s v%d;\n    {\n", sfx[st->out_dt], s);
    for (int k = 0; k < st->nin; k++) {
      int in = st->in_dt[k], lp = st->loop_in[k], sr = st->src[k];
      if (!dt_ok(in) || !dt_ok(lp)) return -1;
      if (sr >= 0) {
        if (sr >= P->nop) return -1;
        put(&b, "      ndt_sc_t_%s x%d;\n      memcpy(&x%d, NDT_FG_AT(%d), sizeof x%d);\n",
            sfx[in], k, k, sr, k);
      } else {
        int q = -sr - 1;
        if (q >= s || P->step[q].out_dt != in) return -1;
        put(&b, "      ndt_sc_t_%s x%d = v%d;\n", sfx[in], k, q);
      }
      if (!g) continue;
      if (g->isz[k] != dt_size(lp)) return -1;
      if (in != lp)
        put(&b, "      ndt_sc_t_%s c%d = ndt_sc_cast_%s_%s(x%d);\n"
            "      f%d |= ndt_sc_cast_fe_%s_%s(x%d);\n",
            sfx[lp], k, sfx[in], sfx[lp], k, s, sfx[in], sfx[lp], k);
      else
        put(&b, "      ndt_sc_t_%s c%d = x%d;\n", sfx[lp], k, k);
      put(&b, "      %s a%d;\n      memcpy(&a%d, &c%d, sizeof a%d);\n", g->ti[k], k, k, k, k);
    }
    if (!g) {
      put(&b, "      v%d = ndt_sc_cast_%s_%s(x0);\n      f%d |= ndt_sc_cast_fe_%s_%s(x0);\n", s,
          sfx[st->in_dt[0]], sfx[st->out_dt], s, sfx[st->in_dt[0]], sfx[st->out_dt]);
    } else {
      put(&b, "      %s o = %s(a0", g->to, g->fn);
      for (int k = 1; k < st->nin; k++) put(&b, ", a%d", k);
      put(&b, g->fl ? ", &f%d);\n" : ");\n", s);
      if (st->out_dt != st->loop_out)
        put(&b, "      ndt_sc_t_%s l;\n      memcpy(&l, &o, sizeof l);\n"
            "      v%d = ndt_sc_cast_%s_%s(l);\n      f%d |= ndt_sc_cast_fe_%s_%s(l);\n",
            sfx[st->loop_out], s, sfx[st->loop_out], sfx[st->out_dt], s, sfx[st->loop_out],
            sfx[st->out_dt]);
      else
        put(&b, "      memcpy(&v%d, &o, sizeof v%d);\n", s, s);
    }
    if (st->out >= 0) put(&b, "      memcpy(NDT_FG_AT(%d), &v%d, sizeof v%d);\n", st->out, s, s);
    put(&b, "    }\n");
  }
  put(&b, "  }\n");
  for (int s = 0; s < P->nstep; s++) {
    if (P->step[s].flag >= 0) put(&b, "  NDT_FG_FLAGS(%d, f%d);\n", P->step[s].flag, s);
    else put(&b, "  (void)f%d;\n", s);
  }
  put(&b, "NDT_FG_END\n");
  return b.bad ? -1 : (int)b.n;
}

/* ---- the headers ---- */
/* the project's headers, as built (fused_headers.c, written at build time
 * by tools/embed_headers.py) */
extern const char *const ndt__fgen_hnames[];
extern const char *const ndt__fgen_htexts[];
extern const int ndt__fgen_nh;

int ndt__fgen_headers(const char *const **names, const char *const **texts) {
  *names = ndt__fgen_hnames;
  *texts = ndt__fgen_htexts;
  return ndt__fgen_nh;
}

uint64_t ndt__fgen_hash(const void *p, size_t n, uint64_t h) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) {
    h ^= c[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t ndt__fgen_key(const char *src, const ndt_fgen_target *t) {
  uint64_t h = ndt__fgen_hash(src, strlen(src) + 1, NDT_FGEN_HASH0);
  for (int i = 0; i < ndt__fgen_nh; i++) {
    h = ndt__fgen_hash(ndt__fgen_hnames[i], strlen(ndt__fgen_hnames[i]) + 1, h);
    h = ndt__fgen_hash(ndt__fgen_htexts[i], strlen(ndt__fgen_htexts[i]) + 1, h);
  }
  int v[5] = {t->arch, t->nvrtc, t->driver, t->emulated, NDT_FGEN_VERSION};
  return ndt__fgen_hash(v, sizeof v, h);
}

/* ---- NVRTC ---- */
int ndt__nvrtc_open(ndt_nvrtc *n, char *why, size_t cap) {
  /* (the loader's path first, then CUDA's default place) */
  static const char *const libs[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                                     "/usr/local/cuda/lib64/libnvrtc.so.13",
                                     "/usr/local/cuda/lib64/libnvrtc.so.12"};
  void *h = NULL;
  for (size_t i = 0; i < sizeof libs / sizeof *libs && !h; i++) h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(why, cap, "no NVRTC library (libnvrtc.so.13, .12 or libnvrtc.so: %s)", dlerror());
    return -1;
  }
  static const char *const syms[] = {"nvrtcCreateProgram", "nvrtcCompileProgram",
                                     "nvrtcGetProgramLogSize", "nvrtcGetProgramLog",
                                     "nvrtcGetCUBINSize", "nvrtcGetCUBIN",
                                     "nvrtcDestroyProgram", "nvrtcVersion"};
  void *f[8];
  for (int i = 0; i < 8; i++) {
    if (!(f[i] = dlsym(h, syms[i]))) {
      snprintf(why, cap, "the NVRTC library lacks %s", syms[i]);
      dlclose(h);
      return -1;
    }
  }
  /* (object to function pointers: POSIX's dlsym promise) */
  memcpy(&n->create, &f[0], sizeof f[0]);
  memcpy(&n->compile, &f[1], sizeof f[1]);
  memcpy(&n->log_size, &f[2], sizeof f[2]);
  memcpy(&n->log, &f[3], sizeof f[3]);
  memcpy(&n->cubin_size, &f[4], sizeof f[4]);
  memcpy(&n->cubin, &f[5], sizeof f[5]);
  memcpy(&n->destroy, &f[6], sizeof f[6]);
  memcpy(&n->version, &f[7], sizeof f[7]);
  return 0;
}

int ndt__fgen_compile(const ndt_nvrtc *n, const char *src, int arch, void **bin, size_t *len,
                      char *log, size_t cap) {
  const char *const *names, *const *texts;
  int nh = ndt__fgen_headers(&names, &texts);
  void *prog = NULL;
  *bin = NULL;
  *len = 0;
  if (cap) log[0] = 0;
  if (n->create(&prog, src, "ndt_fused.cu", nh, texts, names)) {
    snprintf(log, cap, "nvrtcCreateProgram failed");
    return -1;
  }
  char archopt[32];
  snprintf(archopt, sizeof archopt, "-arch=sm_%d", arch);
  /* the flags the plugin's kernels are built with (meson.build) */
  const char *opts[] = {archopt, "--fmad=false", "-prec-div=true", "-prec-sqrt=true",
                        "-ftz=false", "-std=c++17", "-default-device"};
  int rc = n->compile(prog, (int)(sizeof opts / sizeof *opts), opts);
  size_t ls = 0;
  if (rc && !n->log_size(prog, &ls) && ls > 1) {
    char *all = malloc(ls);
    if (all && !n->log(prog, all)) {
      size_t from = ls - 1 > cap - 1 ? ls - cap : 0;   /* its end: the errors */
      snprintf(log, cap, "%s", all + from);
    }
    free(all);
  }
  size_t sz = 0;
  if (!rc && !n->cubin_size(prog, &sz) && sz > 0 && (*bin = malloc(sz)) && !n->cubin(prog, *bin)) {
    *len = sz;
  } else {
    if (!rc) snprintf(log, cap, "no CUBIN from NVRTC");
    free(*bin);
    *bin = NULL;
    rc = -1;
  }
  n->destroy(&prog);
  return rc ? -1 : 0;
}
