#include "common/page_population.hpp"

#include <sys/mman.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace subscale {

void populate_pages(void* begin, std::size_t bytes) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto start = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(begin) + bytes) & ~(page - 1);
  if (end <= start) return;
  constexpr std::uintptr_t kSlice = std::uintptr_t{32} << 20;  // a multiple of any page size
  tbb::parallel_for(std::uintptr_t{0}, (end - start + kSlice - 1) / kSlice, [&](std::uintptr_t s) {
    auto* at = reinterpret_cast<volatile char*>(start + s * kSlice);
    const std::size_t length = std::min(kSlice, end - (start + s * kSlice));
    // Kernels before 5.14 lack MADV_POPULATE_WRITE: a read and write of one byte a page then
    // faults it in without changing it.
#ifdef MADV_POPULATE_WRITE
    if (madvise(const_cast<char*>(at), length, MADV_POPULATE_WRITE) == 0) return;
#endif
    for (std::size_t offset = 0; offset < length; offset += page) at[offset] = at[offset];
  });
}

}  // namespace subscale
