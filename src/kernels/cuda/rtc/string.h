/* string.h for the fused kernels NVRTC compiles (memcpy is built into
 * device code); elsewhere the system's */
#if !defined(__CUDACC_RTC__)
#include_next <string.h>
#endif
