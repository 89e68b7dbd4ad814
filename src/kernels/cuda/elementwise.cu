// elementwise.cu - the CUDA plugin's elementwise kernels: one template per
// family over a strided 1-d run (byte strides; 0 for a broadcast operand),
// launched by src/runtime/cuda.c. Built with --fmad=false so a*b+c is never
// contracted: + - * give the CPU's bits. Float results report overflow and
// invalid as the CPU's IEEE flags would (a bit in *flags, raised on the host
// after the stream syncs); underflow is not reported (NumPy ignores it by
// default). Types by code (cuda.c maps ndt_dtype onto them):
//   0 int8 1 int16 2 int32 3 int64 4 uint8 5 uint16 6 uint32 7 uint64 8 float32 9 float64
// Integer arithmetic is done in the unsigned type of the width: it wraps,
// as NumPy's does.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

enum { OP_ADD, OP_SUB, OP_MUL, OP_NEG };
enum { F_OVERFLOW = 1, F_INVALID = 2 };

template <typename T> struct U { typedef T t; };
template <> struct U<int8_t> { typedef uint8_t t; };
template <> struct U<int16_t> { typedef uint16_t t; };
template <> struct U<int32_t> { typedef uint32_t t; };
template <> struct U<int64_t> { typedef uint64_t t; };

template <typename T> __device__ __forceinline__ T apply(int op, T a, T b) {
  typedef typename U<T>::t u;
  switch (op) {
    case OP_ADD: return (T)((u)a + (u)b);
    case OP_SUB: return (T)((u)a - (u)b);
    case OP_MUL: return (T)((u)a * (u)b);
    default: return (T)(-(u)a);
  }
}
template <> __device__ __forceinline__ float apply<float>(int op, float a, float b) {
  switch (op) {
    case OP_ADD: return __fadd_rn(a, b);
    case OP_SUB: return __fsub_rn(a, b);
    case OP_MUL: return __fmul_rn(a, b);
    default: return -a;
  }
}
template <> __device__ __forceinline__ double apply<double>(int op, double a, double b) {
  switch (op) {
    case OP_ADD: return __dadd_rn(a, b);
    case OP_SUB: return __dsub_rn(a, b);
    case OP_MUL: return __dmul_rn(a, b);
    default: return -a;
  }
}

template <typename T> __device__ __forceinline__ int fl(T r, T a, T b) { return 0; }
template <typename F> __device__ __forceinline__ int flf(F r, F a, F b) {
  int f = 0;
  if (isinf(r) && isfinite(a) && isfinite(b)) f |= F_OVERFLOW;
  if (isnan(r) && !isnan(a) && !isnan(b)) f |= F_INVALID;
  return f;
}
template <> __device__ __forceinline__ int fl<float>(float r, float a, float b) { return flf(r, a, b); }
template <> __device__ __forceinline__ int fl<double>(double r, double a, double b) { return flf(r, a, b); }

template <typename T>
__global__ void k_ew(int op, int64_t n, char *o, int64_t os, const char *a, int64_t as,
                     const char *b, int64_t bs, unsigned *flags) {
  int f = 0;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gridDim.x) {
    T x = *(const T *)(a + i * as);
    T y = b ? *(const T *)(b + i * bs) : x;
    T r = apply<T>(op, x, y);
    f |= fl<T>(r, x, y);
    *(T *)(o + i * os) = r;
  }
  if (f) atomicOr(flags, (unsigned)f);
}

template <typename S, typename D>
__global__ void k_cast(int64_t n, char *o, int64_t os, const char *a, int64_t as) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gridDim.x)
    *(D *)(o + i * os) = (D) * (const S *)(a + i * as);
}

void grid(int64_t n, int *blocks, int *threads) {
  *threads = 256;
  int64_t b = (n + 255) / 256;
  *blocks = (int)(b < 65535 ? (b > 0 ? b : 1) : 65535);
}

template <typename S>
int cast_to(int to, int64_t n, char *o, int64_t os, const char *a, int64_t as, cudaStream_t s) {
  int bl, th;
  grid(n, &bl, &th);
  switch (to) {
    case 0: k_cast<S, int8_t><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 1: k_cast<S, int16_t><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 2: k_cast<S, int32_t><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 3: k_cast<S, int64_t><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 4: k_cast<S, uint8_t><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 5: k_cast<S, uint16_t><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 6: k_cast<S, uint32_t><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 7: k_cast<S, uint64_t><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 8: k_cast<S, float><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    case 9: k_cast<S, double><<<bl, th, 0, s>>>(n, o, os, a, as); break;
    default: return -1;
  }
  return 0;
}

}  // namespace

extern "C" {

// op: OP_* above; b == NULL for a unary op. 0, or -1 for a type without a kernel.
int ndt_cuda_ew(int op, int t, int64_t n, char *o, int64_t os, const char *a, int64_t as,
                const char *b, int64_t bs, unsigned *flags, void *stream) {
  cudaStream_t s = (cudaStream_t)stream;
  int bl, th;
  grid(n, &bl, &th);
  switch (t) {
    case 0: k_ew<int8_t><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 1: k_ew<int16_t><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 2: k_ew<int32_t><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 3: k_ew<int64_t><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 4: k_ew<uint8_t><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 5: k_ew<uint16_t><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 6: k_ew<uint32_t><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 7: k_ew<uint64_t><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 8: k_ew<float><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    case 9: k_ew<double><<<bl, th, 0, s>>>(op, n, o, os, a, as, b, bs, flags); break;
    default: return -1;
  }
  return 0;
}

// Casts the plugin offers: integer to integer (wrapping, as the CPU's C
// conversions on this ABI), integer to float, float32 to float64; none from
// a float to an integer or to a narrower float (the CPU's guarded
// conversions and their IEEE flags stay on the CPU).
int ndt_cuda_cast_ok(int from, int to) {
  if (from < 0 || from > 9 || to < 0 || to > 9) return 0;
  if (from <= 7) return 1;
  return from == 8 && to == 9;
}

int ndt_cuda_cast(int from, int to, int64_t n, char *o, int64_t os, const char *a, int64_t as,
                  void *stream) {
  if (!ndt_cuda_cast_ok(from, to)) return -1;
  cudaStream_t s = (cudaStream_t)stream;
  switch (from) {
    case 0: return cast_to<int8_t>(to, n, o, os, a, as, s);
    case 1: return cast_to<int16_t>(to, n, o, os, a, as, s);
    case 2: return cast_to<int32_t>(to, n, o, os, a, as, s);
    case 3: return cast_to<int64_t>(to, n, o, os, a, as, s);
    case 4: return cast_to<uint8_t>(to, n, o, os, a, as, s);
    case 5: return cast_to<uint16_t>(to, n, o, os, a, as, s);
    case 6: return cast_to<uint32_t>(to, n, o, os, a, as, s);
    case 7: return cast_to<uint64_t>(to, n, o, os, a, as, s);
    case 8: return cast_to<float>(to, n, o, os, a, as, s);
    default: return -1;
  }
}

}  // extern "C"
