#pragma once
// For each point, the clusters that hold it, for the gathering pass (gather_join.hpp), whose
// hottest loop reads the holders of every point of every input cluster. A point is held by a
// few gathered clusters at most, so the first kInline of them sit in a fixed block per point
// (its count and the ids, 16 bytes: the points of a cluster, read in ascending order, are read
// from consecutive blocks), and only the rest in a list of their own. The order of a point's
// holders is not kept (removing one moves the last into its place); the gathering pass does not
// depend on it.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace subscale::consolidate {

class PointHolders {
 public:
  explicit PointHolders(std::size_t points) : blocks_(points * kBlock, 0) {}

  // Calls visit(cluster) for every cluster holding `point`.
  template <class Visit>
  void for_each(std::uint32_t point, Visit&& visit) const {
    const std::uint32_t* block = blocks_.data() + static_cast<std::size_t>(point) * kBlock;
    const std::uint32_t count = block[0];
    for (std::uint32_t i = 0; i < std::min(count, kInline); ++i) visit(block[1 + i]);
    if (count > kInline)
      for (std::uint32_t cluster : overflow_[point]) visit(cluster);
  }

  std::size_t count(std::uint32_t point) const { return blocks_[static_cast<std::size_t>(point) * kBlock]; }

  // `cluster` now holds `points` too (it held none of them).
  void add(std::uint32_t cluster, const std::vector<std::uint32_t>& points) {
    for (std::uint32_t p : points) {
      std::uint32_t* block = blocks_.data() + static_cast<std::size_t>(p) * kBlock;
      if (block[0] < kInline) {
        block[1 + block[0]] = cluster;
      } else {
        if (overflow_.empty()) overflow_.resize(blocks_.size() / kBlock);
        overflow_[p].push_back(cluster);
      }
      ++block[0];
    }
  }

  // `cluster` no longer holds `points` (it held each of them).
  void remove(std::uint32_t cluster, const std::vector<std::uint32_t>& points) {
    for (std::uint32_t p : points) {
      std::uint32_t* block = blocks_.data() + static_cast<std::size_t>(p) * kBlock;
      const std::uint32_t count = block[0];
      // The last holder moves into the removed one's place.
      std::uint32_t last;
      if (count > kInline) {
        last = overflow_[p].back();
        overflow_[p].pop_back();
      } else {
        last = block[count];
      }
      --block[0];
      if (last == cluster) continue;
      std::uint32_t* slot = std::find(block + 1, block + 1 + std::min(count, kInline), cluster);
      if (slot != block + 1 + std::min(count, kInline))
        *slot = last;
      else
        *std::find(overflow_[p].begin(), overflow_[p].end(), cluster) = last;
    }
  }

 private:
  static constexpr std::uint32_t kInline = 3;
  static constexpr std::size_t kBlock = kInline + 1;  // the count, then the ids
  std::vector<std::uint32_t> blocks_;
  std::vector<std::vector<std::uint32_t>> overflow_;  // the holders past kInline, per point
};

}  // namespace subscale::consolidate
