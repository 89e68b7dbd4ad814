/* blas.h - the one place that names BLAS and LAPACK symbols.
 *
 * meson.build links either the OpenBLAS of the scipy-openblas32 wheel, whose
 * symbols all carry the prefix `scipy_` (scipy_cblas_dgemm, scipy_dgesv_,
 * scipy_openblas_set_num_threads), or the system OpenBLAS with plain names;
 * for the former it defines NDT_BLAS_PREFIX=scipy_. Code calls the plain
 * names below and this header maps them. Both are LP64 (32-bit integers).
 *
 * Every BLAS/LAPACK routine the library calls must be listed here. */
#ifndef NDT_BLAS_H
#define NDT_BLAS_H

#include <cblas.h>

#ifdef NDT_BLAS_PREFIX
#define NDT_BLAS_CAT2_(a, b) a##b
#define NDT_BLAS_CAT_(a, b) NDT_BLAS_CAT2_(a, b)
#define NDT_BLAS(name) NDT_BLAS_CAT_(NDT_BLAS_PREFIX, name)

/* OpenBLAS extensions */
#define openblas_set_num_threads NDT_BLAS(openblas_set_num_threads)
#define openblas_get_corename NDT_BLAS(openblas_get_corename)
#define openblas_get_config NDT_BLAS(openblas_get_config)
/* CBLAS (src/kernels/cpu/gemm.c) */
#define cblas_sgemm NDT_BLAS(cblas_sgemm)
#define cblas_dgemm NDT_BLAS(cblas_dgemm)
#define cblas_cgemm NDT_BLAS(cblas_cgemm)
#define cblas_zgemm NDT_BLAS(cblas_zgemm)
#define cblas_sgemv NDT_BLAS(cblas_sgemv)
#define cblas_dgemv NDT_BLAS(cblas_dgemv)
/* Fortran LAPACK (src/kernels/cpu/lapack.c declares the prototypes) */
#define dgesv_ NDT_BLAS(dgesv_)
#define zgesv_ NDT_BLAS(zgesv_)
#define dgetrf_ NDT_BLAS(dgetrf_)
#define zgetrf_ NDT_BLAS(zgetrf_)
#define dpotrf_ NDT_BLAS(dpotrf_)
#define zpotrf_ NDT_BLAS(zpotrf_)
#define dgeqrf_ NDT_BLAS(dgeqrf_)
#define zgeqrf_ NDT_BLAS(zgeqrf_)
#define dorgqr_ NDT_BLAS(dorgqr_)
#define zungqr_ NDT_BLAS(zungqr_)
#define dgesdd_ NDT_BLAS(dgesdd_)
#define zgesdd_ NDT_BLAS(zgesdd_)
#define dsyevd_ NDT_BLAS(dsyevd_)
#define zheevd_ NDT_BLAS(zheevd_)
#define dgeev_ NDT_BLAS(dgeev_)
#define zgeev_ NDT_BLAS(zgeev_)
#define dgelsd_ NDT_BLAS(dgelsd_)
/* Fortran BLAS and LAPACK pieces of the blocked LU (src/ops/linalg.c) */
#define dtrsm_ NDT_BLAS(dtrsm_)
#define ztrsm_ NDT_BLAS(ztrsm_)
#define dgemm_ NDT_BLAS(dgemm_)
#define zgemm_ NDT_BLAS(zgemm_)
#define dlaswp_ NDT_BLAS(dlaswp_)
#define zlaswp_ NDT_BLAS(zlaswp_)
#define dlarft_ NDT_BLAS(dlarft_)
#define zlarft_ NDT_BLAS(zlarft_)
#define dlarfb_ NDT_BLAS(dlarfb_)
#define zlarfb_ NDT_BLAS(zlarfb_)
#define zgelsd_ NDT_BLAS(zgelsd_)
#else
#define NDT_BLAS(name) name
#endif

#endif
