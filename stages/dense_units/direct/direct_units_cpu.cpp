// Direct mode on the CPU: the windows' rank spaces are cut into work items of bounded size, so a
// window of millions of units is walked by every thread at once; each thread ORs its units into its
// own subspace map, and the maps are merged at the end (OR is order-free, so the result does not
// depend on the thread count).
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <memory>
#include <random>
#include <unordered_set>

#include "common/phase_timer.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/direct/direct_host_walk.hpp"
#include "stages/dense_units/direct/direct_pair_table.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/dense_units/unit_space.hpp"

namespace subscale {

using dense_units::direct::DirectSubspaceMap;
using dense_units::direct::DirectWalker;
using dense_units::direct::DirectWorkItem;
using dense_units::direct::HostWalkScratch;

namespace {

// The tie dimensions of row-major held values, each dimension's points in `sorted` order: those in
// which no two distinct values lie within epsilon.
template <class T>
std::vector<std::uint64_t> find_tie_dimensions(const std::vector<T>& rows, const std::vector<std::uint32_t>& sorted,
                                               std::uint32_t points, std::uint32_t dimensions, double epsilon) {
  const T eps = held_epsilon<T>(epsilon);
  std::vector<std::uint64_t> ties((dimensions + 63) / 64, 0);
  tbb::parallel_for(std::uint32_t{0}, (dimensions + 63) / 64, [&](std::uint32_t w) {
    for (std::uint32_t j = w * 64; j < std::min(dimensions, w * 64 + 64); ++j) {
      const std::uint32_t* order = sorted.data() + std::size_t{j} * points;
      bool tie = true;
      // Adjacent distinct values suffice: rounding is monotone, so a wider pair's span is no smaller.
      for (std::uint32_t t = 1; t < points && tie; ++t) {
        const T a = rows[std::size_t{order[t - 1]} * dimensions + j], b = rows[std::size_t{order[t]} * dimensions + j];
        tie = a == b || (a < b && !spans_less_than(a, b, eps));
      }
      if (tie) ties[w] |= std::uint64_t{1} << (j % 64);
    }
  });
  return ties;
}

}  // namespace

template <class T>
DirectSpace::DirectSpace(const ColumnMatrix<T>& values, const UnitPlan& plan, const Density1dResult& density,
                         double eps)
    : rows(std::vector<T>(std::size_t{plan.points()} * plan.dimensions())),
      epsilon(eps),
      points(plan.points()),
      dimensions(plan.dimensions()),
      k(plan.min_points() - 1) {
  std::vector<T>& held = std::get<std::vector<T>>(rows);
  tbb::parallel_for(std::uint32_t{0}, points, [&](std::uint32_t p) {
    for (std::uint32_t j = 0; j < dimensions; ++j) held[std::size_t{p} * dimensions + j] = values(p, j);
  });
  sorted = flat_orders(density, points);
  window_end.resize(std::size_t{points} * dimensions);
  for (std::uint32_t j = 0; j < dimensions; ++j)
    std::copy(density.dimensions[j].window_end.begin(), density.dimensions[j].window_end.end(),
              window_end.begin() + std::size_t{j} * points);
  tie_dimensions = find_tie_dimensions(held, sorted, points, dimensions, eps);
}

template DirectSpace::DirectSpace(const Matrix32&, const UnitPlan&, const Density1dResult&, double);
template DirectSpace::DirectSpace(const Matrix&, const UnitPlan&, const Density1dResult&, double);

template <class T>
dense_units::direct::DirectSpaceView<T> DirectSpace::view(const UnitPlan& plan) const {
  dense_units::direct::DirectSpaceView<T> v;
  v.rows = held_rows<T>().data();
  v.sorted = sorted.data();
  v.window_end = window_end.data();
  v.tie_dimensions = tie_dimensions.data();
  v.binomials = plan.binomials();
  v.epsilon = held_epsilon<T>(epsilon);
  v.points = points;
  v.dimensions = dimensions;
  v.words = key_words();
  v.k = k;
  return v;
}
template dense_units::direct::DirectSpaceView<float> DirectSpace::view(const UnitPlan&) const;
template dense_units::direct::DirectSpaceView<double> DirectSpace::view(const UnitPlan&) const;

namespace {

// Items of window (j, i) for its ranks [low, high), cut where the whole window's cut would be.
void add_window_items(std::vector<DirectWorkItem>& items, std::uint64_t window, std::uint64_t low, std::uint64_t high,
                      std::uint64_t units_per_item) {
  for (std::uint64_t r = low / units_per_item * units_per_item; r < high; r += units_per_item)
    items.push_back({window, std::max(r, low), std::min(high, r + units_per_item)});
}

// The windows that overlap `range`, from the one holding its first unit on.
void add_range_items(const UnitPlan& plan, const UnitRange& range, std::uint64_t units_per_item,
                     std::vector<DirectWorkItem>& items) {
  if (range.begin >= range.end || range.begin >= plan.total_units()) return;
  const UnitLocation first = plan.locate(range.begin);
  const std::uint32_t n = plan.points();
  for (std::uint32_t j = first.dimension, i = first.position; j < plan.dimensions(); ++j, i = 0) {
    const std::uint64_t* offsets = plan.window_offsets(j);
    const std::uint64_t base = plan.dimension_offsets()[j];
    for (; i < n; ++i) {
      const std::uint64_t begin = base + offsets[i], end = base + offsets[i + 1];
      if (begin >= range.end) return;
      if (end <= range.begin) continue;
      add_window_items(items, std::uint64_t{j} * n + i, std::max(begin, range.begin) - begin,
                       std::min(end, range.end) - begin, units_per_item);
    }
  }
}

}  // namespace

std::vector<DirectWorkItem> make_direct_work_items(const UnitPlan& plan, std::uint64_t units_per_item,
                                                   std::span<const UnitRange> only) {
  // Never more than about 4 M items from the cut (plus one per window), whatever the plan's size.
  units_per_item = std::max(units_per_item, plan.total_units() / (std::uint64_t{1} << 22) + 1);
  std::vector<DirectWorkItem> items;
  if (!only.empty()) {
    for (const UnitRange& range : only) add_range_items(plan, range, units_per_item, items);
    return items;
  }
  const std::uint32_t n = plan.points(), d = plan.dimensions();
  // Each dimension's items counted, then written in place, a dimension a task: S5500's 0.82 M
  // items took 0.013 s on one thread, the GPU idle meanwhile.
  std::vector<std::uint64_t> first(std::size_t{d} + 1, 0);
  tbb::parallel_for(std::uint32_t{0}, d, [&](std::uint32_t j) {
    const std::uint64_t* offsets = plan.window_offsets(j);
    std::uint64_t count = 0;
    for (std::uint32_t i = 0; i < n; ++i) count += (offsets[i + 1] - offsets[i] + units_per_item - 1) / units_per_item;
    first[j + 1] = count;
  });
  for (std::uint32_t j = 0; j < d; ++j) first[j + 1] += first[j];
  items.resize(first[d]);
  tbb::parallel_for(std::uint32_t{0}, d, [&](std::uint32_t j) {
    const std::uint64_t* offsets = plan.window_offsets(j);
    DirectWorkItem* at = items.data() + first[j];
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint64_t r = 0, units = offsets[i + 1] - offsets[i]; r < units; r += units_per_item)
        *at++ = {std::uint64_t{j} * n + i, r, std::min(units, r + units_per_item)};
  });
  return items;
}

std::uint64_t units_in(const UnitPlan& plan, std::span<const UnitRange> only) {
  if (only.empty()) return plan.total_units();
  std::uint64_t units = 0;
  for (const UnitRange& range : only) {
    const std::uint64_t end = std::min(range.end, plan.total_units());
    units += end > range.begin ? end - range.begin : 0;
  }
  return units;
}

namespace {

std::uint64_t item_units(const DirectWorkItem& item) { return item.rank_end - item.rank_begin; }

// A thread's own copy of the view and of the tie mask it points to. The walk reads the mask at every
// leaf, and the shared 8-byte block sat in a cache line that another thread kept writing: S1500 at
// 2 threads took 0.27 s of walk instead of 0.18 s (1 thread: the same either way).
template <class T>
struct ThreadView {
  std::vector<std::uint64_t> ties;
  dense_units::direct::DirectSpaceView<T> view;
  ThreadView(const DirectSpace& space, const dense_units::direct::DirectSpaceView<T>& shared)
      : ties(space.tie_dimensions), view(shared) {
    view.tie_dimensions = ties.data();
  }
  ThreadView(const ThreadView&) = delete;  // view points into ties
  ThreadView& operator=(const ThreadView&) = delete;
};

// Distinct subspaces by a 64-bit hash of their masks (a collision among the sample's few million
// keys is unlikely, and would only lower an estimate that is a lower bound anyway).
using SubspaceKeys = std::unordered_set<std::uint64_t>;

// Walks one item counting (for the plan's estimate); the subspace of every unit in two or more
// dimensions goes into `found` (keys only: the memory plan counts them, no bitmap is kept).
template <class T>
dense_units::direct::DirectWalkCounts count_item(const DirectSpace& space,
                                                 const dense_units::direct::DirectSpaceView<T>& view,
                                                 HostWalkScratch<T>& scratch, const DirectWorkItem& item,
                                                 SubspaceKeys& found) {
  DirectWalker<HostWalkScratch<T>, T> walker{view, scratch};
  return walker.walk(item, [&] {
    std::uint64_t h = 0x243f6a8885a308d3ULL;
    for (std::uint32_t w = 0; w < space.key_words(); ++w)
      h = hash::fmix64(h ^ (scratch.mask(space.k, w) | (w == walker.j_word ? walker.j_bit : 0))) + w;
    found.insert(h);
  });
}

// The items the estimate walks: all of them when the plan is small, else `samples` stretches of
// kSampleUnits ranks, each after a unit drawn uniformly (clipped to its window).
constexpr std::uint64_t kSampleUnits = 1024;

std::vector<DirectWorkItem> estimate_items(const UnitPlan& plan, std::uint32_t samples, std::uint64_t seed) {
  if (plan.total_units() <= samples * kSampleUnits) return make_direct_work_items(plan, kSampleUnits);
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::uint64_t> unit(0, plan.total_units() - 1);
  std::vector<DirectWorkItem> items;
  for (std::uint32_t s = 0; s < samples; ++s) {
    const UnitLocation at = plan.locate(unit(random));
    const std::uint64_t* offsets = plan.window_offsets(at.dimension);
    const std::uint64_t window_units = offsets[at.position + 1] - offsets[at.position];
    items.push_back({std::uint64_t{at.dimension} * plan.points() + at.position, at.rank,
                     std::min(window_units, at.rank + kSampleUnits)});
  }
  return items;
}

// The items walked on every core (each thread its own scratch and keys); the sums are taken in
// item order afterwards, so the estimate does not depend on the threads.
template <class T>
DirectWalkEstimate estimate_held_walk(const DirectSpace& space, const UnitPlan& plan, std::uint32_t samples,
                                      std::uint64_t seed) {
  DirectWalkEstimate estimate;
  if (plan.total_units() == 0) {
    estimate.exact = true;
    return estimate;
  }
  const dense_units::direct::DirectSpaceView<T> view = space.view<T>(plan);
  const std::vector<DirectWorkItem> items = estimate_items(plan, samples, seed);
  struct Walk {
    ThreadView<T> own;
    HostWalkScratch<T> scratch;
    SubspaceKeys found;
    Walk(const DirectSpace& space, const dense_units::direct::DirectSpaceView<T>& view)
        : own(space, view), scratch(space.k, space.key_words()) {}
  };
  tbb::enumerable_thread_specific<std::unique_ptr<Walk>> walks([&] { return std::make_unique<Walk>(space, view); });
  std::vector<dense_units::direct::DirectWalkCounts> counts(items.size());
  tbb::parallel_for(std::size_t{0}, items.size(), [&](std::size_t i) {
    Walk& walk = *walks.local();
    counts[i] = count_item(space, walk.own.view, walk.scratch, items[i], walk.found);
  });
  SubspaceKeys found;
  for (auto& walk : walks) found.insert(walk->found.begin(), walk->found.end());
  estimate.sampled_items = items.size();
  estimate.sampled_subspaces = found.size();
  estimate.exact = plan.total_units() <= samples * kSampleUnits;
  double nodes_per_unit = 0, multi_per_unit = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    estimate.sampled_units += item_units(items[i]);
    if (estimate.exact) {
      estimate.nodes += static_cast<double>(counts[i].nodes);
      estimate.multi_units += static_cast<double>(counts[i].emitted);
    } else {
      nodes_per_unit += static_cast<double>(counts[i].nodes) / static_cast<double>(item_units(items[i]));
      multi_per_unit += static_cast<double>(counts[i].emitted) / static_cast<double>(item_units(items[i]));
    }
  }
  if (!estimate.exact) {
    estimate.nodes = nodes_per_unit / samples * static_cast<double>(plan.total_units());
    estimate.multi_units = multi_per_unit / samples * static_cast<double>(plan.total_units());
  }
  return estimate;
}

}  // namespace

DirectWalkEstimate estimate_direct_walk(const DirectSpace& space, const UnitPlan& plan, std::uint32_t samples,
                                        std::uint64_t seed) {
  return space.visit_precision(
      [&](auto held) { return estimate_held_walk<decltype(held)>(space, plan, samples, seed); });
}

namespace {

// One thread's walker, its scratch and subspaces. The walker lives as long as the thread's state so
// that its prefix epochs never repeat for the emitter.
template <class T, std::uint32_t kWords, std::uint32_t kK>
struct ThreadWalk {
  ThreadView<T> own;
  DirectSubspaceMap map;
  HostWalkScratch<T> scratch;
  DirectWalker<HostWalkScratch<T>, T, kWords, kK> walker;
  dense_units::direct::HostSubspaceEmitter emitter;
  dense_units::direct::DirectWalkCounts counts;

  ThreadWalk(const DirectSpace& space, const dense_units::direct::DirectSpaceView<T>& view)
      : own(space, view),
        map(space.key_words(), space.point_words()),
        scratch(space.k, space.key_words()),
        walker{own.view, scratch},
        emitter(map, space.points) {}
};

template <class T>
dense_units::direct::DirectWalkCounts walk_held_item(const DirectSpace& space, const UnitPlan& plan,
                                                     const DirectWorkItem& item, DirectSubspaceMap& subspaces) {
  const dense_units::direct::DirectSpaceView<T> view = space.view<T>(plan);
  HostWalkScratch<T> scratch(space.k, space.key_words());
  DirectWalker<HostWalkScratch<T>, T> walker{view, scratch};
  dense_units::direct::HostSubspaceEmitter emitter(subspaces, space.points);
  return walker.walk(item, [&] { emitter.emit(walker, scratch, space.k); });
}

template <class T, std::uint32_t kWords, std::uint32_t kK>
DenseUnitsResult run_held_units_cpu(const DirectSpace& space, const UnitPlan& plan, DirectSubspaceMap& subspaces,
                                    const UnitProgress& progress, std::span<const UnitRange> only,
                                    std::uint64_t pair_table_bytes, bool skip_covered) {
  DenseUnitsResult result;
  PhaseTimer timer(result.phase_seconds);
  timer.start("direct: items");
  const std::vector<DirectWorkItem> items = make_direct_work_items(plan, kDirectUnitsPerItem, only);
  dense_units::direct::DirectSpaceView<T> view = space.view<T>(plan);
  DirectPairTable pair_table;
  const std::uint64_t budget = pair_table_bytes == 0 ? default_pair_table_budget() : pair_table_bytes;
  if (pair_table_wanted(space, units_in(plan, only), pair_table_bytes, budget)) {
    timer.start("direct: pair table");
    pair_table = build_direct_pair_table(space, budget);
    view.pair_table = pair_table.data();
    view.pair_word_bytes = pair_table.word_bytes();
  }
  timer.start("direct: walk");
  tbb::enumerable_thread_specific<std::unique_ptr<ThreadWalk<T, kWords, kK>>> threads(
      [&] { return std::make_unique<ThreadWalk<T, kWords, kK>>(space, view); });
  tbb::parallel_for(std::size_t{0}, items.size(), [&](std::size_t t) {
    ThreadWalk<T, kWords, kK>& local = *threads.local();
    const auto counts =
        skip_covered
            ? local.walker.walk(items[t], dense_units::direct::CoveringEmit{local.emitter, local.walker, local.scratch})
            : local.walker.walk(items[t], [&] { local.emitter.emit(local.walker, local.scratch, local.walker.k_()); });
    local.counts.nodes += counts.nodes;
    local.counts.emitted += counts.emitted;
    local.counts.covered += counts.covered;
    if (progress) progress(item_units(items[t]));
  });
  timer.start("direct: merge threads");
  for (auto& local : threads) {
    // Each thread's table is let go once merged: holding them all doubled the peak.
    subspaces.merge(std::move(local->map));
    result.walk_nodes += local->counts.nodes;
    result.distinct_multi_units += local->counts.emitted;
    result.walk_covered += local->counts.covered;
  }
  result.multi_units_counted = !skip_covered;
  result.walk_items = items.size();
  result.enumerated_units = units_in(plan, only);
  result.table_bytes = subspaces.bytes();
  timer.stop();
  return result;
}

}  // namespace

dense_units::direct::DirectWalkCounts walk_direct_item(const DirectSpace& space, const UnitPlan& plan,
                                                       const DirectWorkItem& item, DirectSubspaceMap& subspaces) {
  return space.visit_precision([&](auto held) { return walk_held_item<decltype(held)>(space, plan, item, subspaces); });
}

DenseUnitsResult run_direct_units_cpu(const DirectSpace& space, const UnitPlan& plan, DirectSubspaceMap& subspaces,
                                      const UnitProgress& progress, std::span<const UnitRange> only,
                                      std::uint64_t pair_table_bytes, bool skip_covered) {
  // Masks of one word get a walk compiled for that case (no loops over words), and with m = 4 (the
  // quickstart's and the benchmarks' setting) one with k fixed too. S1500 at 0.005 on one thread,
  // walk seconds, the least of six alternating runs with another build running: 0.276 general,
  // 0.251 one word, 0.231 one word and m = 4 (same digest). Each costs the build about 4 s.
  return space.visit_precision([&](auto held) {
    using T = decltype(held);
    if (space.key_words() == 1 && space.k == 3)
      return run_held_units_cpu<T, 1, 3>(space, plan, subspaces, progress, only, pair_table_bytes, skip_covered);
    return space.key_words() == 1
               ? run_held_units_cpu<T, 1, 0>(space, plan, subspaces, progress, only, pair_table_bytes, skip_covered)
               : run_held_units_cpu<T, 0, 0>(space, plan, subspaces, progress, only, pair_table_bytes, skip_covered);
  });
}

}  // namespace subscale
