#pragma once
// An uninitialised array of trivially copyable elements for multi-gigabyte scratch tables,
// populated up front: on virtual machines a first-touch page fault costs microseconds, and
// populating a range in one call is several times cheaper than faulting it page by page from a
// random scatter. The range is populated in slices by all threads (MADV_POPULATE_WRITE; the
// kernel zeroes the pages, which MAP_POPULATE would do on one thread). Transparent huge pages were
// measured slower here (direct compaction).
#include <sys/mman.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <type_traits>

namespace subscale {

template <class T>
class PopulatedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PopulatedArray() = default;
  PopulatedArray(const PopulatedArray&) = delete;
  PopulatedArray& operator=(const PopulatedArray&) = delete;
  ~PopulatedArray() { release(); }

  // Makes room for `count` elements; contents are not kept when it grows.
  void reserve(std::uint64_t count) {
    if (count <= capacity_) return;
    release();
    const std::size_t bytes = count * sizeof(T);
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(memory);
    capacity_ = count;
    populate(static_cast<char*>(memory), bytes);
  }
  T* get() const noexcept { return data_; }
  std::uint64_t capacity() const noexcept { return capacity_; }

 private:
  static void populate(char* memory, std::size_t bytes) {
    constexpr std::size_t kSlice = std::size_t{32} << 20;  // page-aligned, since the mapping is
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    tbb::parallel_for(std::size_t{0}, (bytes + kSlice - 1) / kSlice, [&](std::size_t s) {
      char* begin = memory + s * kSlice;
      const std::size_t length = std::min(kSlice, bytes - s * kSlice);
      // Kernels before 5.14 lack MADV_POPULATE_WRITE: touch a byte a page instead.
#ifdef MADV_POPULATE_WRITE
      if (madvise(begin, length, MADV_POPULATE_WRITE) == 0) return;
#endif
      for (std::size_t at = 0; at < length; at += page) begin[at] = 0;
    });
  }

  void release() noexcept {
    if (data_) munmap(data_, capacity_ * sizeof(T));
    data_ = nullptr;
    capacity_ = 0;
  }
  T* data_ = nullptr;
  std::uint64_t capacity_ = 0;
};

}  // namespace subscale
