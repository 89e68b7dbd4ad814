/* lapack.c - the CPU's LAPACK table (kernels/lapack.h): the OpenBLAS that
 * src/blas.h names, set up by ndt__blas_init (src/blas.c). */
#include <stddef.h>
#include "blas.h"
#include "cpu.h"

/* LAPACK prototypes (Fortran, 32-bit integers, hidden string lengths) */
typedef int lint;
typedef size_t flen;
#define DECL2(d, z, params) \
  void d params;            \
  void z params;
DECL2(dgesv_, zgesv_,
      (const lint *, const lint *, void *, const lint *, lint *, void *, const lint *, lint *))
DECL2(dgetrf_, zgetrf_, (const lint *, const lint *, void *, const lint *, lint *, lint *))
DECL2(dpotrf_, zpotrf_, (const char *, const lint *, void *, const lint *, lint *, flen))
DECL2(dgeqrf_, zgeqrf_, (const lint *, const lint *, void *, const lint *, void *, void *,
                         const lint *, lint *))
DECL2(dorgqr_, zungqr_,
      (const lint *, const lint *, const lint *, void *, const lint *, const void *, void *,
       const lint *, lint *))
DECL2(dtrsm_, ztrsm_,
      (const char *, const char *, const char *, const char *, const lint *, const lint *,
       const void *, const void *, const lint *, void *, const lint *, flen, flen, flen, flen))
DECL2(dgemm_, zgemm_,
      (const char *, const char *, const lint *, const lint *, const lint *, const void *,
       const void *, const lint *, const void *, const lint *, const void *, void *,
       const lint *, flen, flen))
DECL2(dlaswp_, zlaswp_,
      (const lint *, void *, const lint *, const lint *, const lint *, const lint *,
       const lint *))
DECL2(dlarft_, zlarft_,
      (const char *, const char *, const lint *, const lint *, const void *, const lint *,
       const void *, void *, const lint *, flen, flen))
DECL2(dlarfb_, zlarfb_,
      (const char *, const char *, const char *, const char *, const lint *, const lint *,
       const lint *, const void *, const lint *, const void *, const lint *, void *,
       const lint *, void *, const lint *, flen, flen, flen, flen))
void dgesdd_(const char *, const lint *, const lint *, void *, const lint *, void *, void *,
             const lint *, void *, const lint *, void *, const lint *, lint *, lint *, flen);
void zgesdd_(const char *, const lint *, const lint *, void *, const lint *, void *, void *,
             const lint *, void *, const lint *, void *, const lint *, void *, lint *, lint *,
             flen);
void dsyevd_(const char *, const char *, const lint *, void *, const lint *, void *, void *,
             const lint *, lint *, const lint *, lint *, flen, flen);
void zheevd_(const char *, const char *, const lint *, void *, const lint *, void *, void *,
             const lint *, void *, const lint *, lint *, const lint *, lint *, flen, flen);
void dgeev_(const char *, const char *, const lint *, void *, const lint *, void *, void *,
            void *, const lint *, void *, const lint *, void *, const lint *, lint *, flen,
            flen);
void zgeev_(const char *, const char *, const lint *, void *, const lint *, void *, void *,
            const lint *, void *, const lint *, void *, const lint *, void *, lint *, flen,
            flen);
void dgelsd_(const lint *, const lint *, const lint *, void *, const lint *, void *,
             const lint *, void *, const void *, lint *, void *, const lint *, lint *, lint *);
void zgelsd_(const lint *, const lint *, const lint *, void *, const lint *, void *,
             const lint *, void *, const void *, lint *, void *, const lint *, void *, lint *,
             lint *);

const ndt_lapack ndt__cpu_lapack = {
  .gesv = {dgesv_, zgesv_},
  .getrf = {dgetrf_, zgetrf_},
  .potrf = {dpotrf_, zpotrf_},
  .geqrf = {dgeqrf_, zgeqrf_},
  .orgqr = {dorgqr_, zungqr_},
  .trsm = {dtrsm_, ztrsm_},
  .gemm = {dgemm_, zgemm_},
  .laswp = {dlaswp_, zlaswp_},
  .larft = {dlarft_, zlarft_},
  .larfb = {dlarfb_, zlarfb_},
  .dgesdd = dgesdd_,
  .zgesdd = zgesdd_,
  .dsyevd = dsyevd_,
  .zheevd = zheevd_,
  .dgeev = dgeev_,
  .zgeev = zgeev_,
  .dgelsd = dgelsd_,
  .zgelsd = zgelsd_,
};
