/* sort_key.h - the radix sort's key transform, one header for the CPU's
 * sort kernels (src/kernels/cpu/sort.c) and the device's
 * (src/kernels/cuda/sort_impl.h), so that both order every key alike
 * (NDT_HD, as scalar.h's functions).
 *
 * A key is an unsigned integer of the element's width whose unsigned
 * order is NumPy's sort order: unsigned integers as they are, signed ones
 * with the sign bit flipped, floats with negatives inverted and positives'
 * sign bit set, every NaN the largest key and both zeros the key of +0.0
 * (so NaNs, last, and zeros keep their input order in a stable sort).
 * Complex numbers (NumPy's order: real and imaginary parts both numbers,
 * then imaginary NaN, then real NaN, then both NaN; lexicographic within
 * the first, by the number within the next two) are three words: a group
 * (0..3), a primary and a secondary float key (0 where unused). */
#ifndef NDT_KERNELS_SORT_KEY_H
#define NDT_KERNELS_SORT_KEY_H

#include <stdint.h>
#include "kernels/scalar.h"

/* the key of an element's bits u (the low `bits` of it): flt a float
 * (32 or 64 bits), sgn a signed integer */
NDT_HD uint64_t ndt_sk_key(uint64_t u, int bits, int flt, int sgn) {
  const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  const uint64_t sign = (uint64_t)1 << (bits - 1);
  if (flt) {
    const uint64_t inf = bits == 32 ? 0x7F800000u : 0x7FF0000000000000ull;
    const uint64_t mag = u & ~sign & mask;
    if (mag > inf) return mask;   /* every NaN: the largest */
    if (mag == 0) return sign;    /* both zeros: +0.0's key */
    return (u & sign) ? (~u & mask) : (u | sign);
  }
  return sgn ? (u ^ sign) & mask : u & mask;
}

/* the bits of a float's key back (a key of a NaN or a zero gives the
 * default NaN's bits or +0.0: the CPU keeps their own bits aside) */
NDT_HD uint64_t ndt_sk_unkey(uint64_t k, int bits, int flt, int sgn) {
  const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  const uint64_t sign = (uint64_t)1 << (bits - 1);
  if (flt) return (k & sign) ? (k ^ sign) & mask : ~k & mask;
  return sgn ? (k ^ sign) & mask : k & mask;
}

/* 1 when the float bits u (of `bits`) are a NaN */
NDT_HD int ndt_sk_isnan(uint64_t u, int bits) {
  const uint64_t sign = (uint64_t)1 << (bits - 1);
  const uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
  return (u & ~sign & mask) > (bits == 32 ? 0x7F800000u : 0x7FF0000000000000ull);
}

/* a complex number's key from its parts' bits (re, im, of `bits` each):
 * the group, then the primary and secondary keys */
NDT_HD unsigned ndt_sk_ckey(uint64_t re, uint64_t im, int bits, uint64_t *pri, uint64_t *sec) {
  const int nr = ndt_sk_isnan(re, bits), ni = ndt_sk_isnan(im, bits);
  const unsigned g = (unsigned)(nr << 1 | ni);
  *pri = g == 0 || g == 1 ? ndt_sk_key(re, bits, 1, 0) : g == 2 ? ndt_sk_key(im, bits, 1, 0) : 0;
  *sec = g == 0 ? ndt_sk_key(im, bits, 1, 0) : 0;
  return g;
}

#endif
