#pragma once
// An uninitialised array of trivially copyable elements for multi-gigabyte scratch tables,
// populated up front by all threads (page_population.hpp): faulting it page by page from a random
// scatter costs several times more.
#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <type_traits>

#include "common/page_population.hpp"

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
    populate_pages(memory, bytes);
  }
  T* get() const noexcept { return data_; }
  std::uint64_t capacity() const noexcept { return capacity_; }

 private:
  void release() noexcept {
    if (data_) munmap(data_, capacity_ * sizeof(T));
    data_ = nullptr;
    capacity_ = 0;
  }
  T* data_ = nullptr;
  std::uint64_t capacity_ = 0;
};

}  // namespace subscale
