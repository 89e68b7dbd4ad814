/* math.h for the fused kernels NVRTC compiles (its math functions are
 * built in; the C macros are not); elsewhere the system's */
#if defined(__CUDACC_RTC__)
#ifndef NDT_RTC_MATH_H
#define NDT_RTC_MATH_H
#define NAN __int_as_float(0x7fc00000)            /* (gcc's __builtin_nanf("")) */
#define INFINITY __int_as_float(0x7f800000)
#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)
#endif
#else
#include_next <math.h>
#endif
