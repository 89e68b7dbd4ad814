/* lapack.h - the LAPACK routines numpy.linalg needs, as a table member
 * (ndt_kernels.lapack), so that src/ops/linalg.c names no LAPACK symbol
 * and a backend with its own solver library installs it behind the same
 * entries. The members keep LAPACK's Fortran calling convention (every
 * argument by pointer, 32-bit integers, the hidden lengths of character
 * arguments last), the one the CPU's OpenBLAS exports; a backend whose
 * library speaks another convention adapts in its own table file.
 * Pairs are indexed [0] double, [1] complex double. */
#ifndef NDT_KERNELS_LAPACK_H
#define NDT_KERNELS_LAPACK_H

#include <stddef.h>

typedef void (*ndt_la_gesv_fn)(const int *, const int *, void *, const int *, int *, void *,
                               const int *, int *);
typedef void (*ndt_la_getrf_fn)(const int *, const int *, void *, const int *, int *, int *);
typedef void (*ndt_la_potrf_fn)(const char *, const int *, void *, const int *, int *, size_t);
typedef void (*ndt_la_geqrf_fn)(const int *, const int *, void *, const int *, void *, void *,
                                const int *, int *);
typedef void (*ndt_la_orgqr_fn)(const int *, const int *, const int *, void *, const int *,
                                const void *, void *, const int *, int *);

/* The blocked LU's and Cholesky's pieces (src/ops/linalg.c: large solve,
 * inv, det, cholesky):
 * BLAS's ?trsm, ?gemm and LAPACK's ?laswp, Fortran convention as above. */
typedef void (*ndt_la_trsm_fn)(const char *, const char *, const char *, const char *,
                               const int *, const int *, const void *, const void *,
                               const int *, void *, const int *, size_t, size_t, size_t,
                               size_t);
typedef void (*ndt_la_gemm_fn)(const char *, const char *, const int *, const int *,
                               const int *, const void *, const void *, const int *,
                               const void *, const int *, const void *, void *, const int *,
                               size_t, size_t);
typedef void (*ndt_la_laswp_fn)(const int *, void *, const int *, const int *, const int *,
                                const int *, const int *);
/* The blocked QR's (src/ops/linalg.c: large qr): LAPACK's ?larft (a block
 * reflector's T) and ?larfb (applying it). */
typedef void (*ndt_la_larft_fn)(const char *, const char *, const int *, const int *,
                                const void *, const int *, const void *, void *, const int *,
                                size_t, size_t);
typedef void (*ndt_la_larfb_fn)(const char *, const char *, const char *, const char *,
                                const int *, const int *, const int *, const void *, const int *,
                                const void *, const int *, void *, const int *, void *,
                                const int *, size_t, size_t, size_t, size_t);

typedef struct {
  ndt_la_gesv_fn gesv[2];     /* dgesv, zgesv */
  ndt_la_getrf_fn getrf[2];   /* dgetrf, zgetrf */
  ndt_la_potrf_fn potrf[2];   /* dpotrf, zpotrf */
  ndt_la_geqrf_fn geqrf[2];   /* dgeqrf, zgeqrf */
  ndt_la_orgqr_fn orgqr[2];   /* dorgqr, zungqr */
  ndt_la_trsm_fn trsm[2];     /* dtrsm, ztrsm */
  ndt_la_gemm_fn gemm[2];     /* dgemm, zgemm */
  ndt_la_laswp_fn laswp[2];   /* dlaswp, zlaswp */
  ndt_la_larft_fn larft[2];   /* dlarft, zlarft */
  ndt_la_larfb_fn larfb[2];   /* dlarfb, zlarfb */
  void (*dgesdd)(const char *, const int *, const int *, void *, const int *, void *, void *,
                 const int *, void *, const int *, void *, const int *, int *, int *, size_t);
  void (*zgesdd)(const char *, const int *, const int *, void *, const int *, void *, void *,
                 const int *, void *, const int *, void *, const int *, void *, int *, int *,
                 size_t);
  void (*dsyevd)(const char *, const char *, const int *, void *, const int *, void *, void *,
                 const int *, int *, const int *, int *, size_t, size_t);
  void (*zheevd)(const char *, const char *, const int *, void *, const int *, void *, void *,
                 const int *, void *, const int *, int *, const int *, int *, size_t, size_t);
  void (*dgeev)(const char *, const char *, const int *, void *, const int *, void *, void *,
                void *, const int *, void *, const int *, void *, const int *, int *, size_t,
                size_t);
  void (*zgeev)(const char *, const char *, const int *, void *, const int *, void *, void *,
                const int *, void *, const int *, void *, const int *, void *, int *, size_t,
                size_t);
  void (*dgelsd)(const int *, const int *, const int *, void *, const int *, void *,
                 const int *, void *, const void *, int *, void *, const int *, int *, int *);
  void (*zgelsd)(const int *, const int *, const int *, void *, const int *, void *,
                 const int *, void *, const void *, int *, void *, const int *, void *, int *,
                 int *);
} ndt_lapack;

#endif
