/* stddef.h for the fused kernels NVRTC compiles; elsewhere the system's */
#if defined(__CUDACC_RTC__)
#ifndef NDT_RTC_STDDEF_H
#define NDT_RTC_STDDEF_H
typedef long ptrdiff_t;
#ifndef NULL
#define NULL 0
#endif
#endif
#else
#include_next <stddef.h>
#endif
