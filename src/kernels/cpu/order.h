/* order.h - NumPy's sort order for every dtype (NaNs last; complex
 * lexicographic by (real, imag) with NumPy's NaN rules), shared by the sort and
 * search kernels (sort.c, search.c). */
#ifndef NDT_ORDER_H
#define NDT_ORDER_H

typedef struct { float r, i; } cpx64;
typedef struct { double r, i; } cpx128;

#define LT_NUM(a, b) ((a) < (b))
#define LT_FLT(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))
/* NumPy's CLT (npysort_common.h). */
#define LT_CPX(a, b)                                                          \
  ((a).r < (b).r   ? ((a).i == (a).i || (b).i != (b).i)                      \
   : (a).r > (b).r ? ((b).i != (b).i && (a).i == (a).i)                      \
   : ((a).r == (b).r || ((a).r != (a).r && (b).r != (b).r))                  \
       ? ((a).i < (b).i || ((b).i != (b).i && (a).i == (a).i))               \
       : ((b).r != (b).r))

/* X(name suffix, C type, less-than) for the 13 dtypes in ndt_dtype order. */
#define NDT_ORDER_TYPES(X)                                                    \
  X(b, uint8_t, LT_NUM) X(i8, int8_t, LT_NUM) X(i16, int16_t, LT_NUM)         \
  X(i32, int32_t, LT_NUM) X(i64, int64_t, LT_NUM) X(u8, uint8_t, LT_NUM)      \
  X(u16, uint16_t, LT_NUM) X(u32, uint32_t, LT_NUM) X(u64, uint64_t, LT_NUM)  \
  X(f32, float, LT_FLT) X(f64, double, LT_FLT) X(c64, cpx64, LT_CPX)          \
  X(c128, cpx128, LT_CPX)

#endif
