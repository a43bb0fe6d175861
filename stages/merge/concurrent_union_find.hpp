#pragma once
// A union-find over 0..n-1 that several threads may use at once. The merge stage joins the core
// points of one large subspace from many threads; a lock per point would cost more than the work.
//
// Why it is safe without locks: a root is only ever linked below a root with a smaller index
// (by compare-and-swap, so two threads cannot both relink the same root), and path halving only
// replaces a parent by one of its own ancestors. Parents therefore always have smaller indices
// than their children, so no cycle can form, and the final sets are the connected components of
// the unions made, whatever the order of the threads.
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

namespace subscale::merge {

class ConcurrentUnionFind {
 public:
  explicit ConcurrentUnionFind(std::size_t size) : parent_(size) {
    for (std::size_t i = 0; i < size; ++i) parent_[i].store(static_cast<std::uint32_t>(i), std::memory_order_relaxed);
  }

  std::size_t size() const noexcept { return parent_.size(); }

  // The representative of x's set (the smallest index reached; with path halving).
  std::uint32_t find(std::uint32_t x) {
    for (;;) {
      std::uint32_t parent = parent_[x].load(std::memory_order_acquire);
      if (parent == x) return x;
      const std::uint32_t grandparent = parent_[parent].load(std::memory_order_acquire);
      if (grandparent == parent) return parent;
      // Path halving: point x at its grandparent. Losing the race is harmless.
      parent_[x].compare_exchange_weak(parent, grandparent, std::memory_order_acq_rel, std::memory_order_relaxed);
      x = grandparent;
    }
  }

  // Joins the sets of a and b; true when they were apart.
  bool unite(std::uint32_t a, std::uint32_t b) {
    for (;;) {
      a = find(a);
      b = find(b);
      if (a == b) return false;
      if (a < b) std::swap(a, b);  // link the larger root below the smaller one
      std::uint32_t expected = a;
      if (parent_[a].compare_exchange_strong(expected, b, std::memory_order_acq_rel, std::memory_order_acquire)) {
        return true;
      }
      // a stopped being a root meanwhile: retry from the new roots.
    }
  }

 private:
  std::vector<std::atomic<std::uint32_t>> parent_;
};

}  // namespace subscale::merge
