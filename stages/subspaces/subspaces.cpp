#include "stages/subspaces/subspaces.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <span>
#include <unordered_map>

#include "common/subspace_cluster_text.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace subscale {

bool subspace_order(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  if (a.size() != b.size()) return a.size() > b.size();
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

// Named, not anonymous: SubspaceAccumulator::State (a class with linkage) holds these types.
namespace subspace_parts {

struct DimsHash {
  std::size_t operator()(std::span<const std::uint32_t> dims) const noexcept {
    return static_cast<std::size_t>(hash::fmix64_dimensions(dims.data(), static_cast<std::uint32_t>(dims.size())));
  }
};
struct DimsEqual {
  bool operator()(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) const noexcept {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
};
using SubspaceIndex = std::unordered_map<std::span<const std::uint32_t>, std::size_t, DimsHash, DimsEqual>;

// The points one thread has seen for one subspace: a bitmap over point ids when the ids are few
// (O(1) a point, already ascending and free of duplicates), else a list deduplicated whenever it
// doubles, so memory stays O(points) either way.
class PointSet {
 public:
  explicit PointSet(std::uint32_t id_limit) : use_bitmap_(id_limit <= kBitmapLimit) {
    if (use_bitmap_) bits_.assign((id_limit + 63) / 64, 0);
  }
  void add(std::span<const std::uint32_t> points) {
    if (use_bitmap_) {
      for (auto p : points) bits_[p >> 6] |= std::uint64_t{1} << (p & 63);
      return;
    }
    list_.insert(list_.end(), points.begin(), points.end());
    if (list_.size() > 2 * kept_ + 1024) {
      std::sort(list_.begin(), list_.end());
      list_.erase(std::unique(list_.begin(), list_.end()), list_.end());
      kept_ = list_.size();
    }
  }
  void merge_into(std::vector<std::uint64_t>& bits, std::vector<std::uint32_t>& list) const {
    if (use_bitmap_) {
      if (bits.size() < bits_.size()) bits.resize(bits_.size(), 0);
      for (std::size_t w = 0; w < bits_.size(); ++w) bits[w] |= bits_[w];
    } else {
      list.insert(list.end(), list_.begin(), list_.end());
    }
  }

 private:
  static constexpr std::uint32_t kBitmapLimit = 1u << 17;  // 16 KiB a (thread, subspace)
  bool use_bitmap_;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint32_t> list_;
  std::size_t kept_ = 0;
};

// One thread's subspaces: D(U) -> its own list, with the dimension sets owned here because the
// batches they came from are reused.
struct LocalSubspaces {
  SubspaceIndex index;
  std::vector<std::vector<std::uint32_t>> dims;
  std::vector<PointSet> points;
};

}  // namespace subspace_parts

struct SubspaceAccumulator::State {
  std::uint32_t points;
  tbb::enumerable_thread_specific<subspace_parts::LocalSubspaces> locals;
};

SubspaceAccumulator::SubspaceAccumulator(std::uint32_t points) : state_(std::make_unique<State>()) {
  state_->points = points;
}

SubspaceAccumulator::~SubspaceAccumulator() = default;

namespace {

// Adds points to subspace `dims` of one thread's lists.
void add_to(subspace_parts::LocalSubspaces& local, std::uint32_t id_limit, std::span<const std::uint32_t> dims,
            std::span<const std::uint32_t> points) {
  auto where = local.index.find(dims);
  if (where == local.index.end()) {
    local.dims.emplace_back(dims.begin(), dims.end());  // the key below points into this copy
    local.points.emplace_back(id_limit);
    where = local.index.emplace(std::span<const std::uint32_t>(local.dims.back()), local.dims.size() - 1).first;
  }
  local.points[where->second].add(points);
}

}  // namespace

void SubspaceAccumulator::add(const MaximalUnits& batch) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, batch.size(), 1 << 14), [&](const auto& range) {
    subspace_parts::LocalSubspaces& local = state_->locals.local();
    for (std::size_t u = range.begin(); u < range.end(); ++u)
      add_to(local, state_->points, batch.unit_dimensions(u), batch.unit_points(u));
  });
}

void SubspaceAccumulator::add_unit(std::span<const std::uint32_t> points, std::span<const std::uint32_t> dimensions) {
  add_to(state_->locals.local(), state_->points, dimensions, points);
}

void SubspaceAccumulator::add(const std::vector<SubspaceCluster>& subspaces) {
  subspace_parts::LocalSubspaces& local = state_->locals.local();
  for (const auto& subspace : subspaces) add_to(local, state_->points, subspace.dimensions, subspace.points);
}

std::vector<SubspaceCluster> SubspaceAccumulator::finish() {
  // Merge the threads' lists per subspace, in parallel.
  subspace_parts::SubspaceIndex global;
  std::vector<SubspaceCluster> subspaces;
  std::vector<std::vector<const subspace_parts::PointSet*>> parts;
  for (const auto& local : state_->locals) {
    for (std::size_t s = 0; s < local.dims.size(); ++s) {
      auto [where, added] = global.try_emplace(std::span<const std::uint32_t>(local.dims[s]), subspaces.size());
      if (added) {
        subspaces.push_back({local.dims[s], {}});
        parts.emplace_back();
      }
      parts[where->second].push_back(&local.points[s]);
    }
  }
  tbb::parallel_for(std::size_t{0}, subspaces.size(), [&](std::size_t s) {
    std::vector<std::uint64_t> bits;
    auto& points = subspaces[s].points;
    for (const subspace_parts::PointSet* part : parts[s]) part->merge_into(bits, points);
    for (std::size_t w = 0; w < bits.size(); ++w)
      for (std::uint64_t word = bits[w]; word != 0; word &= word - 1)
        points.push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(word))));
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
  });
  std::sort(subspaces.begin(), subspaces.end(), [](const SubspaceCluster& a, const SubspaceCluster& b) {
    return subspace_order(a.dimensions, b.dimensions);
  });
  return subspaces;
}

std::vector<SubspaceCluster> group_subspaces(const MaximalUnits& units) {
  std::uint32_t id_limit = 0;
  for (auto p : units.points) id_limit = std::max(id_limit, p + 1);
  SubspaceAccumulator accumulator(id_limit);
  accumulator.add(units);
  return accumulator.finish();
}

std::string subspaces_text(const std::vector<SubspaceCluster>& subspaces) { return subspace_clusters_text(subspaces); }

}  // namespace subscale
