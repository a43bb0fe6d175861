#pragma once
// A union-find over 0..n-1 used by one thread (the places of one subspace or one cluster): a root
// is always linked below the smaller of the two, so a set's root is its smallest member.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace subscale::merge {

class SerialUnionFind {
 public:
  explicit SerialUnionFind(std::size_t size) : parent_(size) { std::iota(parent_.begin(), parent_.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void unite(std::uint32_t a, std::uint32_t b) { join_root(find(a), b); }
  // Joins the set whose root is `root` with b's; returns the joined set's root.
  std::uint32_t join_root(std::uint32_t root, std::uint32_t b) {
    b = find(b);
    if (b == root) return root;
    parent_[std::max(root, b)] = std::min(root, b);
    return std::min(root, b);
  }

 private:
  std::vector<std::uint32_t> parent_;
};

}  // namespace subscale::merge
