/* ew_impl.h - the device's elementwise kernels and casts, stamped from
 * ew_ops.h over dk.h's grid: one kernel per entry, a table by (op, key
 * dtype), and the entry points the plugin calls (src/runtime/cuda.c).
 * elementwise.cu is this file compiled by nvcc; the host test of the
 * device kernels compiles it as C (NDT_DK_HOST), so its table runs the
 * same kernel bodies on an emulated grid. */
#ifndef NDT_KERNELS_CUDA_EW_IMPL_H
#define NDT_KERNELS_CUDA_EW_IMPL_H

#include <string.h>
#include "kernels/cuda/dk.h"
#include "kernels/cuda/ew_ops.h"

/* ---- one kernel per entry ---- */
#define NDT_DK_K_U(OP, DT, SFX, TI, TO, F) \
  NDT_DK_EW(dk_##OP##_##SFX, 2, *(TO *)p[1] = F(*(const TI *)p[0]))
#define NDT_DK_K_UF(OP, DT, SFX, TI, TO, F) \
  NDT_DK_EW(dk_##OP##_##SFX, 2, *(TO *)p[1] = F(*(const TI *)p[0], &f))
#define NDT_DK_K_B(OP, DT, SFX, T1, T2, TO, F) \
  NDT_DK_EW(dk_##OP##_##SFX, 3, *(TO *)p[2] = F(*(const T1 *)p[0], *(const T2 *)p[1]))
#define NDT_DK_K_BF(OP, DT, SFX, T1, T2, TO, F) \
  NDT_DK_EW(dk_##OP##_##SFX, 3, *(TO *)p[2] = F(*(const T1 *)p[0], *(const T2 *)p[1], &f))
#define NDT_DK_K_T3(OP, DT, SFX, T1, T2, T3, TO, F)                                 \
  NDT_DK_EW(dk_##OP##_##SFX, 4,                                                   \
            *(TO *)p[3] = F(*(const T1 *)p[0], *(const T2 *)p[1], *(const T3 *)p[2]))
NDT_DK_ALL_OPS(NDT_DK_K_U, NDT_DK_K_UF, NDT_DK_K_B, NDT_DK_K_BF, NDT_DK_K_T3)

/* ---- casts: 13 x 13, with the flags the CPU's casts raise (scalar.h's
 * ndt_sc_cast_fe: "invalid" to an integer, "overflow" narrowing) ---- */
#define NDT_DK_K_CAST(TO, FROM)                                                        \
  NDT_DK_EW(dk_cast_##FROM##_##TO, 2, {                                                \
    const ndt_sc_t_##FROM x = *(const ndt_sc_t_##FROM *)p[0];                          \
    *(ndt_sc_t_##TO *)p[1] = ndt_sc_cast_##FROM##_##TO(x);                             \
    f |= ndt_sc_cast_fe_##FROM##_##TO(x);                                              \
  })
#define NDT_DK_K_CAST_FROM(FROM, _) NDT_SC_FOREACH_DTYPE_SFX2(NDT_DK_K_CAST, FROM)
NDT_SC_FOREACH_DTYPE_SFX(NDT_DK_K_CAST_FROM, _)

/* ---- ranges: the "arange" task (arange, linspace; the CPU's
 * ndt__cpu_range, kernels/cpu/index.c). Element i is computed as the CPU
 * computes it - start + i * step in float64, or in float32 (as_f32), with
 * linspace's (i / div) * step form, or istart + i * istep wrapping in
 * int64 (as_int), elements 0 and 1 of arange start and v1 themselves -
 * then cast into the output's dtype by scalar.h's casts (the CPU's). A
 * range run's layout (dk.h's ndt_dk_range_run fills it): operand 0 the output
 * (rows 1, cols elements, byte stride cs[0]); from: the index of its first
 * element; start: start and step (float64 bits); rs[1]: v1's bits, cs[1]:
 * div's bits, rs[2]: istart, cs[2]: istep, rs[3]: as_int | as_f32 << 1 |
 * has_v1 << 2. No flags: the CPU's range reports none. */
typedef union { double d; int64_t i; } ndt_dk_bits;
NDT_DK_BODY ndt_dk_bits ndt_dk_range_at(const ndt_dk_run *r, int64_t i) {
  ndt_dk_bits v, start, step, v1, div;
  const int64_t m = r->rs[3];
  memcpy(&start.d, r->start, 8);
  memcpy(&step.d, r->start + 8, 8);
  v1.i = r->rs[1];
  div.i = r->cs[1];
  if (m & 1) {
    v.i = (int64_t)((uint64_t)r->rs[2] + (uint64_t)i * (uint64_t)r->cs[2]);
    return v;
  }
  if (div.d != 0 && (m & 2))
    v.d = (double)((float)start.d + (float)i / (float)div.d * (float)step.d);
  else if (div.d != 0) v.d = start.d + (double)i / div.d * step.d;
  else if (m & 2) v.d = (double)((float)start.d + (float)i * (float)step.d);
  else v.d = start.d + (double)i * step.d;
  if (i == 1 && (m & 4)) v.d = v1.d;
  if (i == 0 && (m & 4)) v.d = (m & 2) ? (double)(float)start.d : start.d;
  return v;
}
#define NDT_DK_K_RANGE(TO, _)                                                      \
  NDT_DK_EW(dk_range_##TO, 1, {                                                    \
    const ndt_dk_bits v = ndt_dk_range_at(r, r->from + e);                        \
    *(ndt_sc_t_##TO *)p[0] = (r->rs[3] & 1) ? ndt_sc_cast_i64_##TO(v.i)          \
                                            : ndt_sc_cast_f64_##TO(v.d);          \
  })
NDT_SC_FOREACH_DTYPE_SFX(NDT_DK_K_RANGE, _)

/* ---- the tables ---- */
/* An entry's description: the test walks them; the plugin looks kernels up
 * by (op, key). types: the inputs, then the output. */
typedef struct {
  int op, key, nin, flags_arg;
  ndt_dtype types[NDT_DK_MAXOPS];
  ndt_dk_fn fn;
  const char *name;
} ndt_dk_entry;

#define NDT_DK_D_U(OP, DT, SFX, TI, TO, F) \
  {OP, DT, 1, 0, {NDT_DK_T(TI), NDT_DK_T(TO)}, dk_##OP##_##SFX, #OP " " #SFX},
#define NDT_DK_D_UF(OP, DT, SFX, TI, TO, F) \
  {OP, DT, 1, 1, {NDT_DK_T(TI), NDT_DK_T(TO)}, dk_##OP##_##SFX, #OP " " #SFX},
#define NDT_DK_D_B(OP, DT, SFX, T1, T2, TO, F)                                       \
  {OP, DT, 2, 0, {NDT_DK_T(T1), NDT_DK_T(T2), NDT_DK_T(TO)}, dk_##OP##_##SFX,       \
   #OP " " #SFX},
#define NDT_DK_D_BF(OP, DT, SFX, T1, T2, TO, F)                                      \
  {OP, DT, 2, 1, {NDT_DK_T(T1), NDT_DK_T(T2), NDT_DK_T(TO)}, dk_##OP##_##SFX,       \
   #OP " " #SFX},
#define NDT_DK_D_T3(OP, DT, SFX, T1, T2, T3, TO, F)                                  \
  {OP, DT, 3, 0, {NDT_DK_T(T1), NDT_DK_T(T2), NDT_DK_T(T3), NDT_DK_T(TO)},         \
   dk_##OP##_##SFX, #OP " " #SFX},

/* a C storage type's dtype (where the list names the type, not the dtype):
 * by token, through one macro per spelling */
#define NDT_DK_T(T) NDT_DK_T_##T
#define NDT_DK_T_uint8_t NDT_UINT8
#define NDT_DK_T_ndt_sc_bool NDT_BOOL
#define NDT_DK_T_int8_t NDT_INT8
#define NDT_DK_T_int16_t NDT_INT16
#define NDT_DK_T_int32_t NDT_INT32
#define NDT_DK_T_int64_t NDT_INT64
#define NDT_DK_T_uint16_t NDT_UINT16
#define NDT_DK_T_uint32_t NDT_UINT32
#define NDT_DK_T_uint64_t NDT_UINT64
#define NDT_DK_T_float NDT_FLOAT32
#define NDT_DK_T_double NDT_FLOAT64
#define NDT_DK_T_ndt_c64 NDT_COMPLEX64
#define NDT_DK_T_ndt_c128 NDT_COMPLEX128

static const ndt_dk_entry ndt_dk_entries[] = {
    NDT_DK_ALL_OPS(NDT_DK_D_U, NDT_DK_D_UF, NDT_DK_D_B, NDT_DK_D_BF, NDT_DK_D_T3)};
#define NDT_DK_NENTRIES ((int)(sizeof ndt_dk_entries / sizeof *ndt_dk_entries))

#define NDT_DK_C_ROW1(TO, FROM) dk_cast_##FROM##_##TO,
#define NDT_DK_C_ROW(FROM, _) {NDT_SC_FOREACH_DTYPE_SFX2(NDT_DK_C_ROW1, FROM)},
static const ndt_dk_fn ndt_dk_casts[NDT_NTYPES][NDT_NTYPES] = {
    NDT_SC_FOREACH_DTYPE_SFX(NDT_DK_C_ROW, _)};
#define NDT_DK_R_ROW(TO, _) dk_range_##TO,
static const ndt_dk_fn ndt_dk_ranges[NDT_NTYPES] = {NDT_SC_FOREACH_DTYPE_SFX(NDT_DK_R_ROW, _)};

/* (op, key) -> entry index + 1; filled once (ndt__dk_init) */
static short ndt_dk_index[NDT_DK_NOPS][NDT_DK_NKEYS];
/* 0: the transcendental functions (ndt_dk_inexact) have no kernel here
 * (NDTILE_CUDA_MATH=0, read by the plugin at start) */
static int ndt_dk_math = 1;
NDT_DK_ENTRY(void) ndt__dk_set_math(int on) { ndt_dk_math = on; }

NDT_DK_ENTRY(void) ndt__dk_init(void) {
  for (int i = 0; i < NDT_DK_NENTRIES; i++)
    ndt_dk_index[ndt_dk_entries[i].op][ndt_dk_entries[i].key] = (short)(i + 1);
}

/* The entry for ufunc op on the loop dtypes `loop` (inputs, then the
 * output, as ndt_ufunc_resolve chose them), or NULL; fused: the CPU's
 * complex products are fused (its SIMD level >= 2). */
static const ndt_dk_entry *ndt_dk_find(int op, int nin, const int *loop, int fused) {
  if (op < 0 || op >= NDT_NUFUNCS || nin < 1 || nin > 3) return NULL;
  if (!ndt_dk_math && ndt_dk_inexact(op)) return NULL;
  int key = loop[0];
  if (op == NDT_WHERE) key = loop[1];
  else if (nin == 2 && loop[1] != loop[0])
    key = loop[0] == NDT_INT64 && loop[1] == NDT_UINT64   ? NDT_DK_KEY_QQ
          : loop[0] == NDT_UINT64 && loop[1] == NDT_INT64 ? NDT_DK_KEY_QQR
                                                          : -1;
  if (key < 0 || key >= NDT_DK_NKEYS) return NULL;
  int row = op;
  if (fused && (key == NDT_COMPLEX64 || key == NDT_COMPLEX128))
    row = op == NDT_MULTIPLY ? NDT_DK_MUL_FUSED : op == NDT_SQUARE ? NDT_DK_SQ_FUSED : op;
  int i = ndt_dk_index[row][key];
  if (!i) return NULL;
  const ndt_dk_entry *e = &ndt_dk_entries[i - 1];
  if (e->nin != nin) return NULL;
  for (int k = 0; k <= nin; k++)
    if ((int)e->types[k] != loop[k]) return NULL;
  return e;
}

/* ---- entry points (the plugin's; static in the host test) ---- */
/* 1 when the device has a kernel for op on these loop dtypes */
NDT_DK_ENTRY(int) ndt__dk_ew_has(int op, int nin, const int *loop, int fused) {
  return ndt_dk_find(op, nin, loop, fused) != NULL;
}
/* The fused interpreter's key of that kernel (fused_impl.h: its row times
 * NDT_DK_NKEYS plus its key dtype), or -1 when there is none */
NDT_DK_ENTRY(int) ndt__dk_ew_key(int op, int nin, const int *loop, int fused) {
  const ndt_dk_entry *e = ndt_dk_find(op, nin, loop, fused);
  return e ? e->op * NDT_DK_NKEYS + e->key : -1;
}
/* Launches op over the runs of L (operands: the inputs, then the output,
 * all of the loop's dtypes); flags: a device word the kernel ORs its
 * NDT_SC_FE_* bits into. 0, or -1 when there is no kernel. */
NDT_DK_ENTRY(int) ndt__dk_ew(int op, int nin, const int *loop, int fused,
                             const ndt_dk_launch *L, unsigned *flags, void *stream) {
  const ndt_dk_entry *e = ndt_dk_find(op, nin, loop, fused);
  if (!e) return -1;
  e->fn(L, flags, stream);
  return 0;
}
/* the ranges of the runs of L (their layout: ndt_dk_range_at above) into
 * dtype to */
NDT_DK_ENTRY(int) ndt__dk_range(int to, const ndt_dk_launch *L, void *stream) {
  if (to < 0 || to >= NDT_NTYPES) return -1;
  ndt_dk_ranges[to](L, NULL, stream);
  return 0;
}
/* dst = (to)src over the runs of L (operand 0 the source, 1 the result);
 * flags: a device word the kernel ORs its NDT_SC_FE_* bits into */
NDT_DK_ENTRY(int) ndt__dk_cast(int from, int to, const ndt_dk_launch *L, unsigned *flags,
                               void *stream) {
  if (from < 0 || from >= NDT_NTYPES || to < 0 || to >= NDT_NTYPES) return -1;
  ndt_dk_casts[from][to](L, flags, stream);
  return 0;
}

#endif
