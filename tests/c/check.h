/* check.h - the C tests' shared harness: EXPECT counts a check, OK stops the
 * program when a call that must succeed fails; main prints
 * "N passed, N failed" from the counters. */
#ifndef NDT_TEST_CHECK_H
#define NDT_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include "ndtile.h"

static int passed, failed;
#define EXPECT(cond, ...)                                                   \
  do {                                                                      \
    if (cond) passed++;                                                     \
    else {                                                                  \
      failed++;                                                             \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                  \
      fprintf(stderr, __VA_ARGS__);                                         \
      fprintf(stderr, "\n");                                                \
    }                                                                       \
  } while (0)
#define OK(call)                                                            \
  do {                                                                      \
    ndt_status s_ = (call);                                                 \
    if (s_ != NDT_OK) {                                                     \
      fprintf(stderr, "FATAL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, \
              ndt_last_error());                                            \
      exit(2);                                                              \
    }                                                                       \
  } while (0)

static const ndt_dtype ALL[] = {NDT_BOOL, NDT_INT8, NDT_INT16, NDT_INT32, NDT_INT64,
                                NDT_UINT8, NDT_UINT16, NDT_UINT32, NDT_UINT64,
                                NDT_FLOAT32, NDT_FLOAT64, NDT_COMPLEX64, NDT_COMPLEX128};
#define NALL 13
#endif
