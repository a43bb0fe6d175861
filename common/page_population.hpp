#pragma once
// Populating memory before its first writes. On virtual machines a first-touch page fault costs
// microseconds, and one thread faulting a multi-gigabyte range page by page takes most of a
// second (29.5 M empty subspaces, 1.4 GB: 0.7-1.0 s on the GPU machine). Populating the range in
// slices from all threads (MADV_POPULATE_WRITE; the kernel zeroes the pages) takes a fraction of
// that. Transparent huge pages were measured slower on the development VM (direct compaction),
// so they are not asked for.
#include <cstddef>
#include <vector>

namespace subscale {

// Populates the whole pages inside [begin, begin + bytes) for writing, in parallel. Contents are
// not changed, but no other thread may write the range meanwhile. Out of line (page_population.cpp):
// TBB's headers stay out of the CUDA sources that include this one, where nvcc parsed them three
// times a source.
void populate_pages(void* begin, std::size_t bytes);

// Resizes an empty vector to `count` default-constructed elements, its storage populated by all
// threads first, so that the construction on this thread meets no page faults.
template <class T>
void resize_populated(std::vector<T>& elements, std::size_t count) {
  elements.reserve(count);
  populate_pages(elements.data(), count * sizeof(T));
  elements.resize(count);
}

}  // namespace subscale
