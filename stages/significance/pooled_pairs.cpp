#include "stages/significance/pooled_pairs.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>

#include "stages/significance/binomial_tail.hpp"

namespace subscale::significance {
namespace {

std::uint64_t memberships_of(const std::vector<SubspaceCluster>& subspaces) {
  std::uint64_t total = 0;
  for (const auto& s : subspaces) {
    const std::uint64_t k = s.dimensions.size();
    total += k * (k - (k > 0 ? 1 : 0)) / 2 * s.points.size();
  }
  return total;
}

// The subspaces as one array of records [dimension count, point count, dimensions..., points...].
// Pooling reads every subspace once per dimension it holds, each time far from the last: in the
// subspaces' own form each visit waits on three dependent loads (the record, then its dimensions
// and its points in their own allocations), which was most of the pooling's time on tie-heavy
// data (1.6 M subspaces). Here a visit starts from the record's offset, a record is one
// contiguous run of a line or two, and the record kAhead visits further on is fetched early.
// The copy holds no more than the subspaces themselves.
std::vector<std::uint32_t> flat_records(const std::vector<SubspaceCluster>& subspaces,
                                        std::vector<std::size_t>& start) {
  start.assign(subspaces.size() + 1, 0);
  for (std::size_t i = 0; i < subspaces.size(); ++i)
    start[i + 1] = start[i] + 2 + subspaces[i].dimensions.size() + subspaces[i].points.size();
  std::vector<std::uint32_t> values(start.back());
  tbb::parallel_for(std::size_t{0}, subspaces.size(), [&](std::size_t i) {
    const auto& s = subspaces[i];
    std::uint32_t* out = values.data() + start[i];
    *out++ = static_cast<std::uint32_t>(s.dimensions.size());
    *out++ = static_cast<std::uint32_t>(s.points.size());
    out = std::copy(s.dimensions.begin(), s.dimensions.end(), out);
    std::copy(s.points.begin(), s.points.end(), out);
  });
  return values;
}

constexpr std::size_t kAhead = 8;

// For every dimension a, the offsets in `records` of the subspaces holding a before their last
// dimension, in the subspaces' order: the offsets of dimension a are
// holding[first[a] .. first[a + 1]). Made in two passes over chunks of the subspaces, a count per
// chunk and dimension and then the offsets into each chunk's share (one list per dimension made
// one subspace at a time was a third of a second on 16 cores with 1.6 M subspaces, the rest of the
// pooling a fifth).
struct Holding {
  std::vector<std::size_t> first;
  std::vector<std::size_t> offsets;
  std::span<const std::size_t> of(std::uint32_t a) const {
    return {offsets.data() + first[a], offsets.data() + first[a + 1]};
  }
};

Holding holding_lists(const std::vector<SubspaceCluster>& subspaces, const std::vector<std::size_t>& start,
                      std::uint32_t dimensions) {
  constexpr std::size_t kChunk = 16384;
  const std::size_t chunks = (subspaces.size() + kChunk - 1) / kChunk;
  std::vector<std::size_t> counts(chunks * dimensions, 0);  // by chunk, then dimension
  const auto for_chunk = [&](std::size_t c, auto&& body) {
    const std::size_t end = std::min(subspaces.size(), (c + 1) * kChunk);
    for (std::size_t i = c * kChunk; i < end; ++i) {
      const auto& dims = subspaces[i].dimensions;
      for (std::size_t k = 0; k + 1 < dims.size(); ++k) body(i, dims[k]);
    }
  };
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    for_chunk(c, [&](std::size_t, std::uint32_t a) { ++counts[c * dimensions + a]; });
  });
  Holding out;
  out.first.assign(dimensions + 1, 0);
  std::size_t total = 0;
  for (std::uint32_t a = 0; a < dimensions; ++a) {  // each count becomes its chunk's first offset
    out.first[a] = total;
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t count = counts[c * dimensions + a];
      counts[c * dimensions + a] = total;
      total += count;
    }
  }
  out.first[dimensions] = total;
  out.offsets.resize(total);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    for_chunk(c, [&](std::size_t i, std::uint32_t a) { out.offsets[counts[c * dimensions + a]++] = start[i]; });
  });
  return out;
}

// The pairs {a, b} with b in [first_b, end_b): one bit set of the points per b, filled from every
// subspace holding a (`holding`: the offsets of their records in `records`).
std::vector<SubspaceCluster> pairs_from(std::uint32_t a, std::uint32_t first_b, std::uint32_t end_b,
                                        std::span<const std::size_t> holding, const std::vector<std::uint32_t>& records,
                                        std::uint32_t points) {
  const std::size_t words = (points + 63) / 64;
  std::vector<std::vector<std::uint64_t>> bits(end_b - first_b);
  for (std::size_t j = 0; j < holding.size(); ++j) {
    if (j + kAhead < holding.size()) __builtin_prefetch(records.data() + holding[j + kAhead]);
    const std::uint32_t* record = records.data() + holding[j];
    const std::span<const std::uint32_t> dims(record + 2, record[0]);
    const std::span<const std::uint32_t> members(record + 2 + record[0], record[1]);
    for (const auto b : dims) {
      if (b < first_b) continue;  // first_b > a
      if (b >= end_b) break;
      auto& row = bits[b - first_b];
      if (row.empty()) row.assign(words, 0);
      for (const auto p : members) row[p / 64] |= std::uint64_t{1} << (p % 64);
    }
  }
  std::vector<SubspaceCluster> out;
  for (std::uint32_t b = first_b; b < end_b; ++b) {
    const auto& row = bits[b - first_b];
    if (row.empty()) continue;
    SubspaceCluster pair{{a, b}, {}};
    std::size_t count = 0;
    for (const auto word : row) count += static_cast<std::size_t>(std::popcount(word));
    pair.points.reserve(count);
    for (std::size_t w = 0; w < words; ++w)
      for (std::uint64_t word = row[w]; word != 0; word &= word - 1)
        pair.points.push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(word))));
    out.push_back(std::move(pair));
  }
  return out;
}

// One task of the pooling: the pairs {a, b} with b in [first_b, end_b).
struct PairBlock {
  std::uint32_t a, first_b, end_b;
};

// The first dimensions' shares of the work differ by orders of magnitude on tied data (a
// dimension with a common level is in most subspaces), and the largest shares left most of 16
// cores idle: a large share is cut into blocks of second dimensions, each reading the share's
// subspaces again but filling only its own pairs.
std::vector<PairBlock> pair_blocks(const Holding& holding, std::uint32_t dimensions) {
  constexpr std::size_t kTasksPerThread = 8;
  constexpr std::uint32_t kLeastBlock = 16;  // second dimensions in a block
  const std::size_t total = holding.offsets.size();
  const std::size_t target = std::max<std::size_t>(
      1, total / (kTasksPerThread * static_cast<std::size_t>(tbb::this_task_arena::max_concurrency())));
  std::vector<PairBlock> blocks;
  for (std::uint32_t a = 0; a + 1 < dimensions; ++a) {
    const std::size_t visits = holding.of(a).size();
    if (visits == 0) continue;
    const std::uint32_t later = dimensions - a - 1;  // the second dimensions b > a
    const std::uint32_t most = std::max<std::uint32_t>(1, later / kLeastBlock);
    const auto count = static_cast<std::uint32_t>(std::min<std::size_t>(most, (visits + target - 1) / target));
    for (std::uint32_t k = 0; k < count; ++k)
      blocks.push_back({a, a + 1 + static_cast<std::uint32_t>(std::uint64_t{later} * k / count),
                        a + 1 + static_cast<std::uint32_t>(std::uint64_t{later} * (k + 1) / count)});
  }
  return blocks;
}

}  // namespace

PooledPairs pool_into_pairs(const std::vector<SubspaceCluster>& subspaces, std::uint32_t points,
                            std::uint32_t dimensions, std::uint64_t budget) {
  PooledPairs pooled;
  pooled.memberships = memberships_of(subspaces);
  if (pooled.memberships > budget) {
    pooled.over_budget = true;
    return pooled;
  }
  std::vector<std::size_t> start;
  const std::vector<std::uint32_t> records = flat_records(subspaces, start);
  const Holding holding = holding_lists(subspaces, start, dimensions);
  const std::vector<PairBlock> blocks = pair_blocks(holding, dimensions);
  std::vector<std::vector<SubspaceCluster>> by_block(blocks.size());
  tbb::parallel_for(std::size_t{0}, blocks.size(), [&](std::size_t k) {
    const PairBlock& block = blocks[k];
    by_block[k] = pairs_from(block.a, block.first_b, block.end_b, holding.of(block.a), records, points);
  });
  std::size_t count = 0;
  for (const auto& list : by_block) count += list.size();
  pooled.pairs.reserve(count);
  for (auto& list : by_block)
    for (auto& pair : list) pooled.pairs.push_back(std::move(pair));
  return pooled;
}

double chance_dimensions(double units, std::uint32_t points, std::uint32_t min_points) {
  if (points < min_points) return 0;
  return units / std::exp(log_choose(points, min_points));
}

}  // namespace subscale::significance
