#pragma once
// Functions marked SUBSCALE_HD compile for both the host and the device, so the CPU and GPU
// backends share one definition (and therefore the same bits).
#if defined(__CUDACC__)
#define SUBSCALE_HD __host__ __device__ __forceinline__
#else
#define SUBSCALE_HD inline
#endif
