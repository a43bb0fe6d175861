#pragma once
// Populating memory before its first writes. On virtual machines a first-touch page fault costs
// microseconds, and one thread faulting a multi-gigabyte range page by page takes most of a
// second (29.5 M empty subspaces, 1.4 GB: 0.7-1.0 s on the GPU machine). Populating the range in
// slices from all threads (MADV_POPULATE_WRITE; the kernel zeroes the pages) takes a fraction of
// that. Transparent huge pages were measured slower on the development VM (direct compaction),
// so they are not asked for.
#include <sys/mman.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace subscale {

// Populates the whole pages inside [begin, begin + bytes) for writing, in parallel. Contents are
// not changed, but no other thread may write the range meanwhile.
inline void populate_pages(void* begin, std::size_t bytes) {
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

// Resizes an empty vector to `count` default-constructed elements, its storage populated by all
// threads first, so that the construction on this thread meets no page faults.
template <class T>
void resize_populated(std::vector<T>& elements, std::size_t count) {
  elements.reserve(count);
  populate_pages(elements.data(), count * sizeof(T));
  elements.resize(count);
}

}  // namespace subscale
