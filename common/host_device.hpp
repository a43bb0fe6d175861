#pragma once
// Functions marked SUBSCALE_HD compile for both the host and the device, so the CPU and GPU
// backends share one definition (and therefore the same bits).
#if defined(__CUDACC__)
#define SUBSCALE_HD __host__ __device__ __forceinline__
#else
#define SUBSCALE_HD inline
#endif

#include <cmath>

namespace subscale {

// The span test of every walk, on the CPU and the GPU: values from lo to hi lie within epsilon of
// each other when hi - lo < epsilon, computed in the held precision T (so both backends agree to
// the bit).
template <class T>
SUBSCALE_HD bool spans_less_than(T lo, T hi, T epsilon) {
  return hi - lo < epsilon;
}

// Two values within epsilon of each other: the span test of the pair, |y - x| being exactly
// max - min in floating point. The pair tables and the walk's pair masks all ask this, so that
// their bits agree. |.| clears the sign bit: a sign test and a negation compiled to a branch on the
// CPU that mispredicted half the time.
template <class T>
SUBSCALE_HD bool pair_within(T x, T y, T epsilon) {
#if defined(__CUDA_ARCH__)
  return spans_less_than(T{0}, fabs(y - x), epsilon);
#else
  return spans_less_than(T{0}, std::fabs(y - x), epsilon);
#endif
}

}  // namespace subscale
