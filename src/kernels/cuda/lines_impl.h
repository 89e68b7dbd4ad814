/* lines_impl.h - the copies around the CUDA plugin's library calls on
 * lines and matrices (its "fft" tasks through cuFFT, src/runtime/
 * cuda_fft.h, and "linalg" tasks through cuSOLVER, cuda_linalg.h): "pack"
 * loads a block's lines (a transform's lines, a matrix's columns) into a
 * dense buffer, one line after the other, as the library wants them (the
 * operand's dtype cast to the computation's: real or complex, float or
 * double), cut to the values the task reads and zero-padded to the
 * buffer's length, with the imaginary parts at 0 and zi set to 0 (a
 * Hermitian FFT input's X[0] and X[n/2]: NumPy ignores them, cuFFT's C2R
 * assumes them 0) or an identity's ones written (eye); "unpack" stores
 * the buffer's lines into the output's strided lines, each value times
 * scale (computed in double, rounded once into a float output), the
 * elements outside a triangle stored as 0 (tri: a Cholesky factor). One
 * thread per buffer element; a line's offset on the strided side from its
 * index over the block's other axes, in C order; on the dense side lines
 * come in matrices of lpm lines, mst elements apart. Written once,
 * compiled by nvcc (lines.cu) and as C in the plugin's host build
 * (tests/cudahost/kernels.c), where a launch is queued on the emulated
 * stream with both sides checked as device allocations. */
#ifndef NDT_KERNELS_CUDA_LINES_IMPL_H
#define NDT_KERNELS_CUDA_LINES_IMPL_H
#include "kernels/cuda/dk.h"

#define NDT_DK_LINES_MAXD 32   /* (NDT_MAXDIMS) */

typedef struct {
  char *s;          /* the strided side's lowest byte (so the host build checks [s, s + sbytes)) */
  char *buf;        /* the dense side: line l = q * lpm + c's element j at
                       buf + (q * mst + c * ldb + j) * bsz */
  int64_t soff;     /* line 0's element 0 at s + soff */
  int64_t sbytes, bbytes;
  int64_t lines, len, nval;   /* lines; elements per line; pack: values read (the rest 0) */
  int64_t ldb, js;            /* buffer elements between lines; the strided side's byte step
                                 along a line */
  int64_t lpm, mst;           /* lines per matrix (>= 1), buffer elements between matrices */
  int64_t zi;                 /* pack: the imaginary parts at 0 and zi set to 0; -1: none */
  int eye;                    /* pack: 1 at element j == c of line c of a matrix */
  int tri;                    /* unpack: 0 stored where j < c (1) or j > c (2) */
  int nd;                     /* the other axes: line l's offset over shape, st (bytes) */
  int t;                      /* the strided side's dtype (NDT_BOOL .. NDT_COMPLEX128) */
  int single, cplx, unpack;   /* the buffer's element: float or double, complex or real */
  int pad;
  double scale;               /* unpack */
  int64_t shape[NDT_DK_LINES_MAXD], st[NDT_DK_LINES_MAXD];
} ndt_dk_lines;

#if defined(NDT_DK_HOST) || defined(__CUDACC__)
/* a value of dtype t (ndtile's order: bool, int8..int64, uint8..uint64,
 * float32, float64, complex64, complex128) as double re, im */
NDT_DK_BODY void ndt_dk_lines_load(int t, const char *p, double *re, double *im) {
  *im = 0;
  switch (t) {
    case 0: *re = *(const uint8_t *)p ? 1.0 : 0.0; break;
    case 1: *re = (double)*(const int8_t *)p; break;
    case 2: *re = (double)*(const int16_t *)p; break;
    case 3: *re = (double)*(const int32_t *)p; break;
    case 4: *re = (double)*(const int64_t *)p; break;
    case 5: *re = (double)*(const uint8_t *)p; break;
    case 6: *re = (double)*(const uint16_t *)p; break;
    case 7: *re = (double)*(const uint32_t *)p; break;
    case 8: *re = (double)*(const uint64_t *)p; break;
    case 9: *re = (double)*(const float *)p; break;
    case 10: *re = *(const double *)p; break;
    case 11:
      *re = (double)((const float *)p)[0];
      *im = (double)((const float *)p)[1];
      break;
    default:
      *re = ((const double *)p)[0];
      *im = ((const double *)p)[1];
      break;
  }
}

NDT_DK_BODY void ndt_dk_lines_body(const ndt_dk_lines *c, ndt_dk_grid g) {
  const int64_t tot = c->lines * c->len;
  const int64_t bsz = (c->single ? 4 : 8) * (c->cplx ? 2 : 1);
  for (int64_t e = g.bx * g.ntx + g.tx; e < tot; e += g.nbx * g.ntx) {
    const int64_t l = e / c->len, j = e - l * c->len;
    int64_t off = c->soff, r = l;
    for (int k = c->nd - 1; k >= 0; k--) {
      const int64_t q = r / c->shape[k];
      off += (r - q * c->shape[k]) * c->st[k];
      r = q;
    }
    char *sp = c->s + off + j * c->js;
    const int64_t q = l / c->lpm, col = l - q * c->lpm;
    char *bp = c->buf + (q * c->mst + col * c->ldb + j) * bsz;
    double re = 0, im = 0;
    if (!c->unpack) {
      if (j < c->nval) ndt_dk_lines_load(c->t, sp, &re, &im);
      if (c->zi >= 0 && (j == 0 || j == c->zi)) im = 0;
      if (c->eye && j == col) re = 1;
      if (c->single) {
        ((float *)bp)[0] = (float)re;
        if (c->cplx) ((float *)bp)[1] = (float)im;
      } else {
        ((double *)bp)[0] = re;
        if (c->cplx) ((double *)bp)[1] = im;
      }
      continue;
    }
    if (c->single) {
      re = (double)((const float *)bp)[0];
      if (c->cplx) im = (double)((const float *)bp)[1];
    } else {
      re = ((const double *)bp)[0];
      if (c->cplx) im = ((const double *)bp)[1];
    }
    re *= c->scale;
    im *= c->scale;
    if ((c->tri == 1 && j < col) || (c->tri == 2 && j > col)) re = im = 0;
    switch (c->t) {
      case 9: *(float *)sp = (float)re; break;
      case 10: *(double *)sp = re; break;
      case 11:
        ((float *)sp)[0] = (float)re;
        ((float *)sp)[1] = (float)im;
        break;
      default:
        ((double *)sp)[0] = re;
        ((double *)sp)[1] = im;
        break;
    }
  }
}

#if defined(NDT_DK_HOST)
static void ndt_dk_lines_grid(void *p) {
  for (int64_t bx = 0; bx < ndt_dk_emu_blocks; bx++)
    for (int64_t tx = 0; tx < ndt_dk_emu_threads; tx++) {
      ndt_dk_grid g = {bx, 0, ndt_dk_emu_blocks, tx, ndt_dk_emu_threads};
      ndt_dk_lines_body((const ndt_dk_lines *)p, g);
    }
}
#if defined(NDT_DK_STREAM)
/* (tests/cudahost: the launch queued on the emulated stream through the
 * table other libraries use, cudahost_ext.h, its two sides checked as
 * device allocations and moved) */
#include <stdlib.h>
#include <string.h>
#include "cudahost_ext.h"
static int ndt_dk_lines_launch(const ndt_dk_lines *c, void *stream) {
  const ndt_cudahost_ext *x = ndt_cudahost_ext_of((cudaStream_t)stream);
  ndt_dk_lines *C = (ndt_dk_lines *)malloc(sizeof *C);
  if (!x || !C) {
    free(C);
    return -1;
  }
  memcpy(C, c, sizeof *C);
  char **ptr[2] = {&C->s, &C->buf};
  size_t bytes[2] = {(size_t)C->sbytes, (size_t)C->bbytes};
  return x->launch((cudaStream_t)stream, 2, ptr, bytes, ndt_dk_lines_grid, C, 0,
                   C->unpack ? "unpack" : "pack") == cudaSuccess
             ? 0
             : -1;
}
#else
static int ndt_dk_lines_launch(const ndt_dk_lines *c, void *stream) {
  (void)stream;
  ndt_dk_lines_grid((void *)c);
  return 0;
}
#endif
#elif defined(__CUDACC__)
__global__ void ndt_dk_lines_k(const __grid_constant__ ndt_dk_lines c) {
  ndt_dk_grid g = {blockIdx.x, 0, gridDim.x, threadIdx.x, blockDim.x};
  ndt_dk_lines_body(&c, g);
}
/* enough blocks for 4 elements a thread (at most 4096 across) */
static int ndt_dk_lines_launch(const ndt_dk_lines *c, void *stream) {
  int64_t b = (c->lines * c->len + 4 * NDT_DK_THREADS - 1) / (4 * NDT_DK_THREADS);
  ndt_dk_lines_k<<<(unsigned)(b < 1 ? 1 : b > 4096 ? 4096 : b), NDT_DK_THREADS, 0,
                     (cudaStream_t)stream>>>(*c);
  return 0;
}
#endif

/* One pack or unpack on the stream: 0, or -1 for a dtype it lacks (an
 * unpack stores float32, float64, complex64 or complex128 only) or a
 * launch that could not be queued. */
NDT_DK_ENTRY(int) ndt__dk_lines(const ndt_dk_lines *c, void *stream) {
  if (c->t < 0 || c->t > 12 || (c->unpack && c->t < 9) || c->nd > NDT_DK_LINES_MAXD ||
      c->lpm < 1)
    return -1;
  if (c->lines * c->len <= 0) return 0;
  return ndt_dk_lines_launch(c, stream);
}
#endif
#endif
