/* ctypes.h - complex storage: two parts, real first (C99's layout and
 * NumPy's). Every place that stores or reads complex elements uses these;
 * C99 `_Complex` appears only as an arithmetic type inside kernels that
 * call <complex.h>. Plain C with no other include, so that device code
 * (src/kernels/scalar.h under nvcc) shares the one spelling. */
#ifndef NDT_CORE_CTYPES_H
#define NDT_CORE_CTYPES_H

typedef struct { float re, im; } ndt_c64;
typedef struct { double re, im; } ndt_c128;

#endif
