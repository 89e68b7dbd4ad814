/* fused_impl.h - the device's interpreter of fused elementwise groups
 * (src/ops/fusion.c): one kernel that runs a group's program per element,
 * precompiled, so a group never waits for a compiler. The program (a list
 * of steps, passed by value with the runs in the kernel's parameter) says,
 * per step, the kernel of ew_ops.h it applies (by its (op, key) entry),
 * where each input comes from (an operand of the run, at its dtype, or an
 * earlier step's value, held in registers), the casts into the loop's
 * dtypes and from its result dtype into the step's (scalar.h's casts, as
 * the CPU's ndt__run_loop casts), which operand it writes (the results the
 * group writes, and only those), and the flags word its floating-point
 * flags go to (one word per op of the group, as fusion.c reports them per
 * op). Every step calls the scalar function the CPU's loop calls, so the
 * bits are the CPU's fused_body's by construction (the host test of the
 * device kernels checks them: tests/c/test_devkernels.c).
 *
 * Written once, compiled three ways, like ew_impl.h: by nvcc (fused.cu),
 * as C by the host test (NDT_DK_HOST) and into the host build of the
 * plugin (tests/cudahost/kernels.c, NDT_DK_STREAM). A plain C file (the
 * plugin's cuda.c, cudahost.c) sees the types only.
 *
 * This interpreter is the first tier: a group never waits for a
 * compiler. A program that recurs is compiled into a kernel of its own in
 * the background (src/runtime/fused_gen.c writes its source,
 * src/runtime/cuda_jit.c compiles it with NVRTC and caches it on disk),
 * which calls the same scalar functions in the same order: the same bits
 * and flags as here, whichever tier runs a launch. */
#ifndef NDT_KERNELS_CUDA_FUSED_IMPL_H
#define NDT_KERNELS_CUDA_FUSED_IMPL_H

#include "kernels/cuda/dk.h"

#include "kernels/cuda/fused_types.h"

#if defined(NDT_DK_HOST) || defined(__CUDACC__)
#include <string.h>
#include "kernels/cuda/ew_ops.h"

/* a value of any dtype, as a step holds it */
typedef union {
  double d[2];
  int64_t q[2];
  unsigned char b[16];
} ndt_dk_val;

NDT_DK_BODY int ndt_dk_fsize(int dt) {
  switch (dt) {
    case NDT_INT16: case NDT_UINT16: return 2;
    case NDT_INT32: case NDT_UINT32: case NDT_FLOAT32: return 4;
    case NDT_INT64: case NDT_UINT64: case NDT_FLOAT64: case NDT_COMPLEX64: return 8;
    case NDT_COMPLEX128: return 16;
    default: return 1;
  }
}

/* v (of dtype from) cast to dtype to, with the flags the CPU's cast raises */
#define NDT_DK_FC_TO(TO, FROM)                          \
  case NDT_DK_DT_##TO: {                                \
    ndt_sc_t_##TO o_ = ndt_sc_cast_##FROM##_##TO(x_);   \
    *f |= ndt_sc_cast_fe_##FROM##_##TO(x_);             \
    memcpy(r.b, &o_, sizeof o_);                        \
  } break;
#define NDT_DK_FC_FROM(FROM, _)                                    \
  case NDT_DK_DT_##FROM: {                                         \
    ndt_sc_t_##FROM x_;                                            \
    memcpy(&x_, v.b, sizeof x_);                                   \
    switch (to) { NDT_SC_FOREACH_DTYPE_SFX2(NDT_DK_FC_TO, FROM) }  \
  } break;
NDT_DK_BODY ndt_dk_val ndt_dk_fcast(ndt_dk_val v, int from, int to, unsigned *f) {
  ndt_dk_val r;
  r.q[0] = r.q[1] = 0;
  switch (from) { NDT_SC_FOREACH_DTYPE_SFX(NDT_DK_FC_FROM, _) }
  return r;
}

/* the kernel of entry key (ew_ops.h's list, one case per line) on x */
#define NDT_DK_FA_U(OP, DT, SFX, TI, TO, F) \
  case (OP) * NDT_DK_NKEYS + (DT): {        \
    TI a_;                                  \
    memcpy(&a_, x[0].b, sizeof a_);         \
    TO o_ = F(a_);                          \
    memcpy(r.b, &o_, sizeof o_);            \
  } break;
#define NDT_DK_FA_UF(OP, DT, SFX, TI, TO, F) \
  case (OP) * NDT_DK_NKEYS + (DT): {         \
    TI a_;                                   \
    memcpy(&a_, x[0].b, sizeof a_);          \
    TO o_ = F(a_, f);                        \
    memcpy(r.b, &o_, sizeof o_);             \
  } break;
#define NDT_DK_FA_B(OP, DT, SFX, T1, T2, TO, F) \
  case (OP) * NDT_DK_NKEYS + (DT): {            \
    T1 a_;                                      \
    T2 b_;                                      \
    memcpy(&a_, x[0].b, sizeof a_);             \
    memcpy(&b_, x[1].b, sizeof b_);             \
    TO o_ = F(a_, b_);                          \
    memcpy(r.b, &o_, sizeof o_);                \
  } break;
#define NDT_DK_FA_BF(OP, DT, SFX, T1, T2, TO, F) \
  case (OP) * NDT_DK_NKEYS + (DT): {             \
    T1 a_;                                       \
    T2 b_;                                       \
    memcpy(&a_, x[0].b, sizeof a_);              \
    memcpy(&b_, x[1].b, sizeof b_);              \
    TO o_ = F(a_, b_, f);                        \
    memcpy(r.b, &o_, sizeof o_);                 \
  } break;
#define NDT_DK_FA_T3(OP, DT, SFX, T1, T2, T3, TO, F) \
  case (OP) * NDT_DK_NKEYS + (DT): {                 \
    T1 a_;                                           \
    T2 b_;                                           \
    T3 c_;                                           \
    memcpy(&a_, x[0].b, sizeof a_);                  \
    memcpy(&b_, x[1].b, sizeof b_);                  \
    memcpy(&c_, x[2].b, sizeof c_);                  \
    TO o_ = F(a_, b_, c_);                           \
    memcpy(r.b, &o_, sizeof o_);                     \
  } break;
NDT_DK_BODY ndt_dk_val ndt_dk_fapply(int key, const ndt_dk_val *x, unsigned *f) {
  ndt_dk_val r;
  r.q[0] = r.q[1] = 0;
  switch (key) {
    NDT_DK_ALL_OPS(NDT_DK_FA_U, NDT_DK_FA_UF, NDT_DK_FA_B, NDT_DK_FA_BF, NDT_DK_FA_T3)
    default: break;
  }
  return r;
}

/* every element of run g.by: the program's steps in order */
NDT_DK_BODY void ndt_dk_fused_body(const ndt_dk_flaunch *L, unsigned *flags, ndt_dk_grid g) {
  const ndt_dk_frun *r = &L->run[g.by];
  const ndt_dk_fprog *P = &L->prog;
  const int64_t n = r->rows * r->cols, cols = r->cols;
  unsigned f[NDT_DK_FMAXSTEPS];
  for (int s = 0; s < P->nstep; s++) f[s] = 0;
  for (int64_t e = g.bx * g.ntx + g.tx; e < n; e += g.nbx * g.ntx) {
    const int64_t i = r->rows == 1 ? 0 : e / cols, j = e - i * cols;
    ndt_dk_val v[NDT_DK_FMAXSTEPS];
    for (int s = 0; s < P->nstep; s++) {
      const ndt_dk_fstep *st = &P->step[s];
      ndt_dk_val x[3];
      for (int k = 0; k < st->nin; k++) {
        int sr = st->src[k];
        if (sr >= 0) {
          x[k].q[0] = x[k].q[1] = 0;
          memcpy(x[k].b, r->p[sr] + i * r->rs[sr] + j * r->cs[sr], ndt_dk_fsize(st->in_dt[k]));
        } else {
          x[k] = v[-sr - 1];
        }
        if (st->key >= 0 && st->in_dt[k] != st->loop_in[k])
          x[k] = ndt_dk_fcast(x[k], st->in_dt[k], st->loop_in[k], &f[s]);
      }
      ndt_dk_val o;
      if (st->key < 0) {
        o = ndt_dk_fcast(x[0], st->in_dt[0], st->out_dt, &f[s]);
      } else {
        o = ndt_dk_fapply(st->key, x, &f[s]);
        if (st->out_dt != st->loop_out) o = ndt_dk_fcast(o, st->loop_out, st->out_dt, &f[s]);
      }
      v[s] = o;
      if (st->out >= 0)
        memcpy(r->p[st->out] + i * r->rs[st->out] + j * r->cs[st->out], o.b,
               ndt_dk_fsize(st->out_dt));
    }
  }
  for (int s = 0; s < P->nstep; s++)
    if (P->step[s].flag >= 0) NDT_DK_FLAGS(flags + P->step[s].flag, f[s]);
}

NDT_HD int64_t ndt_dk_fmaxlen(const ndt_dk_flaunch *L) {
  int64_t m = 0;
  for (int r = 0; r < L->nrun; r++) {
    int64_t n = L->run[r].rows * L->run[r].cols;
    if (n > m) m = n;
  }
  return m;
}

#if defined(NDT_DK_HOST)
static void ndt_dk_fused_grid(const ndt_dk_flaunch *L, unsigned *flags) {
  for (int64_t by = 0; by < L->nrun; by++)
    for (int64_t bx = 0; bx < ndt_dk_emu_blocks; bx++)
      for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++) {
        ndt_dk_grid g = {bx, by, ndt_dk_emu_blocks, tx, ndt_dk_emu_threads};
        ndt_dk_fused_body(L, flags, g);
      }
}
#if defined(NDT_DK_STREAM)
/* tests/cudahost/cudahost.c: queued on the emulated stream, its operands'
 * and flags' pointers checked, as ndt__cudahost_launch does */
void ndt__cudahost_launch_fused(void *stream, const ndt_dk_flaunch *L, unsigned *flags,
                                int nflags, void (*grid)(const ndt_dk_flaunch *, unsigned *));
static void ndt_dk_fused_launch(const ndt_dk_flaunch *L, unsigned *flags, int nflags,
                                void *stream) {
  if (L->nrun > 0) ndt__cudahost_launch_fused(stream, L, flags, nflags, ndt_dk_fused_grid);
}
#else
static void ndt_dk_fused_launch(const ndt_dk_flaunch *L, unsigned *flags, int nflags,
                                void *stream) {
  (void)stream;
  (void)nflags;
  ndt_dk_fused_grid(L, flags);
}
#endif
#else
__global__ void ndt_dk_fused_k(const __grid_constant__ ndt_dk_flaunch L, unsigned *flags) {
  ndt_dk_grid g = {blockIdx.x, blockIdx.y, gridDim.x, threadIdx.x, blockDim.x};
  ndt_dk_fused_body(&L, flags, g);
}
static void ndt_dk_fused_launch(const ndt_dk_flaunch *L, unsigned *flags, int nflags,
                                void *stream) {
  (void)nflags;
  if (L->nrun <= 0) return;
  int64_t b = (ndt_dk_fmaxlen(L) + 4 * NDT_DK_THREADS - 1) / (4 * NDT_DK_THREADS);
  dim3 grid((unsigned)(b < 1 ? 1 : b > 1024 ? 1024 : b), (unsigned)L->nrun, 1);
  ndt_dk_fused_k<<<grid, NDT_DK_THREADS, 0, (cudaStream_t)stream>>>(*L, flags);
}
#endif

/* ---- the entry point (the plugin's; static in the host test) ----
 * Runs L's program over its runs; flags: nflags device words, step s's
 * flags ORed into flags[step s's flag]. */
NDT_DK_ENTRY(int) ndt__dk_fused(const ndt_dk_flaunch *L, unsigned *flags, int nflags,
                                void *stream) {
  if (L->prog.nstep < 1 || L->prog.nstep > NDT_DK_FMAXSTEPS || L->prog.nop > NDT_DK_FMAXOPS)
    return -1;
  ndt_dk_fused_launch(L, flags, nflags, stream);
  return 0;
}

#endif
#endif
