/* stdint.h for the fused kernels NVRTC compiles (it has no C library
 * headers); elsewhere the system's */
#if defined(__CUDACC_RTC__)
#ifndef NDT_RTC_STDINT_H
#define NDT_RTC_STDINT_H
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define INT64_MIN (-9223372036854775807L - 1)
#define INT64_MAX 9223372036854775807L
#define UINT64_MAX 18446744073709551615UL
#endif
#else
#include_next <stdint.h>
#endif
