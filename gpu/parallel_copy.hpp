#pragma once
// A host memcpy on several threads. One thread's memcpy reaches 5-10 GB/s, below a PCIe 5 link, so
// the staged copies fill and empty their pinned chunks with a few threads. Out of line
// (parallel_copy.cpp): TBB's headers stay out of the CUDA sources that call it.
#include <cstddef>

namespace subscale::gpu {

void parallel_copy(void* out, const void* in, std::size_t bytes);

}  // namespace subscale::gpu
