#pragma once
// Functions marked SUBSCALE_HD compile for both the host and the device, so the CPU and GPU
// backends share one definition (and therefore the same bits).
#if defined(__CUDACC__)
#define SUBSCALE_HD __host__ __device__ __forceinline__
#else
#define SUBSCALE_HD inline
#endif

namespace subscale {

// The span test of every walk, on the CPU and the GPU: values from lo to hi lie within epsilon of
// each other when hi - lo < epsilon, computed in the held precision T (so both backends agree to
// the bit).
template <class T>
SUBSCALE_HD bool spans_less_than(T lo, T hi, T epsilon) {
  return hi - lo < epsilon;
}

}  // namespace subscale
