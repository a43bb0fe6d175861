#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "common/error.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/signature_grouping.hpp"
#include "stages/dense_units/unit_enumerator.hpp"

namespace subscale {
namespace {

// Records per bucket: small enough that a bucket and its probe table stay in L2.
constexpr std::uint64_t kRecordsPerBucket = 1u << 15;

std::uint32_t bucket_bits_for(std::uint64_t expected_records) {
  std::uint32_t bits = 0;
  while (bits < 16 && (expected_records >> bits) > kRecordsPerBucket) ++bits;
  return bits;
}

// Exact mode's key: a hash of the sorted point ids (equality is then decided on the ids).
std::uint64_t point_id_hash(std::uint32_t* points, std::uint32_t m) {
  std::sort(points, points + m);
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::uint32_t t = 0; t < m; ++t) h = hash::fmix64(h ^ (points[t] + 0x632be59bd9b4e019ULL * (t + 1)));
  return h;
}

// A member of a group of equal keys, resolved to its dimension and points.
struct ResolvedMember {
  std::uint64_t identity;  // what must also match: S2 (128-bit), 0 (64-bit)
  std::uint32_t dimension;
  std::uint64_t flat;
  std::vector<std::uint32_t> points;  // ascending
};

class GroupResolver {
 public:
  GroupResolver(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                const DenseUnitsParams& params)
      : plan_(plan), density_(density), keys_(keys), params_(params), subset_(plan.min_points() - 1) {}

  // Splits the group into true units (by S2 or by point ids) and adds those found in >= 2
  // dimensions to `out`.
  void resolve(const std::vector<UnitRecord>& group, MaximalUnits& out) {
    members_.resize(group.size());
    for (std::size_t g = 0; g < group.size(); ++g) resolve_member(group[g].flat, members_[g]);
    const bool by_points = params_.mode == TableMode::exact;
    std::sort(members_.begin(), members_.end(), [by_points](const ResolvedMember& a, const ResolvedMember& b) {
      if (by_points && a.points != b.points) return a.points < b.points;
      if (a.identity != b.identity) return a.identity < b.identity;
      return a.dimension != b.dimension ? a.dimension < b.dimension : a.flat < b.flat;
    });
    for (std::size_t a = 0; a < members_.size();) {
      std::size_t b = a + 1;
      while (b < members_.size() && members_[b].identity == members_[a].identity &&
             (!by_points || members_[b].points == members_[a].points))
        ++b;
      dimensions_.clear();
      for (std::size_t i = a; i < b; ++i)
        if (dimensions_.empty() || dimensions_.back() != members_[i].dimension)
          dimensions_.push_back(members_[i].dimension);
      // In 64-bit mode a false match could join different point sets; the points of the first
      // member (smallest dimension, then flat index) are kept, so the result stays deterministic.
      if (dimensions_.size() >= 2) out.add(members_[a].points, dimensions_);
      a = b;
    }
  }

 private:
  void resolve_member(std::uint64_t flat, ResolvedMember& member) {
    const UnitLocation location = plan_.locate(flat);
    const auto& dimension = density_.dimensions[location.dimension];
    const std::uint32_t k = plan_.min_points() - 1;
    const std::uint32_t following = dimension.window_end[location.position] - location.position - 1;
    combinadic::unrank(plan_.binomials(), location.rank, following, k, subset_.data());
    member.points.resize(k + 1);
    unit_points(dimension, location.position, subset_.data(), k, member.points.data());
    std::sort(member.points.begin(), member.points.end());
    member.dimension = location.dimension;
    member.flat = flat;
    member.identity = 0;
    if (params_.mode == TableMode::signature && params_.signature_bits == 128)
      for (auto p : member.points) member.identity += keys_.secondary[p];
  }

  const UnitPlan& plan_;
  const Density1dResult& density_;
  const SignatureKeys& keys_;
  const DenseUnitsParams& params_;
  std::vector<std::uint32_t> subset_;
  std::vector<ResolvedMember> members_;
  std::vector<std::uint32_t> dimensions_;
};

using BucketSet = std::vector<std::vector<UnitRecord>>;

// Enumerates every unit and keeps those of partition p, scattered into buckets by mixed key.
std::uint64_t fill_partition(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                             const DenseUnitsParams& params, const PartitionPlan& partitions, std::size_t p,
                             std::uint32_t bucket_bits, tbb::enumerable_thread_specific<BucketSet>& buckets,
                             const UnitProgress& progress) {
  const std::uint64_t total = plan.total_units();
  const std::uint64_t chunk = std::max<std::uint64_t>(1u << 16, total / 512 + 1);
  const std::uint64_t chunks = (total + chunk - 1) / chunk;
  const std::uint32_t shift = 64 - bucket_bits;
  const std::uint32_t m = plan.min_points();
  const bool single = partitions.count() == 1;
  std::atomic<std::uint64_t> kept{0};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, chunks, 1), [&](const auto& range) {
    BucketSet& local = buckets.local();
    if (local.size() != (std::size_t{1} << bucket_bits)) local.assign(std::size_t{1} << bucket_bits, {});
    std::uint64_t local_kept = 0;
    std::uint32_t points[64];
    auto keep = [&](std::uint64_t key, std::uint64_t flat) {
      if (!single && !partitions.contains(p, key)) return;
      const std::uint64_t mixed = hash::fmix64(key);
      local[bucket_bits ? mixed >> shift : 0].push_back({mixed, flat});
      ++local_kept;
    };
    for (std::uint64_t c = range.begin(); c < range.end(); ++c) {
      const std::uint64_t begin = c * chunk, end = std::min(total, begin + chunk);
      if (params.mode == TableMode::signature) {
        enumerate_units(plan, density, keys.primary.data(), begin, end,
                        [&](const UnitView& unit) { keep(unit.signature, unit.flat); });
      } else {
        enumerate_units(plan, density, keys.primary.data(), begin, end, [&](const UnitView& unit) {
          unit_points(density.dimensions[unit.dimension], unit.position, unit.subset, m - 1, points);
          keep(point_id_hash(points, m), unit.flat);
        });
      }
      if (progress) progress(end - begin);
    }
    kept += local_kept;
  });
  return kept.load();
}

// Finds the equal keys of every bucket and resolves them into maximal units, in bucket order so
// the output does not depend on the thread count.
MaximalUnits group_partition(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                             const DenseUnitsParams& params, std::uint32_t bucket_bits,
                             tbb::enumerable_thread_specific<BucketSet>& buckets) {
  const std::size_t bucket_count = std::size_t{1} << bucket_bits;
  std::vector<MaximalUnits> found(bucket_count);
  tbb::parallel_for(std::size_t{0}, bucket_count, [&](std::size_t b) {
    std::vector<UnitRecord> records;
    std::size_t size = 0;
    for (auto& local : buckets)
      if (!local.empty()) size += local[b].size();
    records.reserve(size);
    for (auto& local : buckets) {
      if (local.empty()) continue;
      records.insert(records.end(), local[b].begin(), local[b].end());
      std::vector<UnitRecord>().swap(local[b]);
    }
    GroupScratch scratch;
    GroupResolver resolver(plan, density, keys, params);
    found[b].min_points = plan.min_points();
    find_equal_keys(records, scratch, [&](const std::vector<UnitRecord>& group) { resolver.resolve(group, found[b]); });
  });
  MaximalUnits all;
  all.min_points = plan.min_points();
  for (const auto& part : found) all.append(part);
  return all;
}

std::uint64_t host_budget_or_default(std::uint64_t budget) { return budget > 0 ? budget : std::uint64_t{8} << 30; }

}  // namespace

TableMode parse_table_mode(const std::string& name) {
  if (name == "signature") return TableMode::signature;
  if (name == "exact") return TableMode::exact;
  throw UsageError("mode is '" + name + "'; valid values: signature, exact");
}

const char* to_string(TableMode mode) { return mode == TableMode::signature ? "signature" : "exact"; }

double false_match_probability(std::uint64_t units, std::uint32_t bits, KeyScheme scheme, std::uint32_t m) {
  const double n = static_cast<double>(units);
  const double pairs = n * (n - 1) / 2;
  // Probability that two distinct units share one sum.
  double per_pair = std::ldexp(1.0, -64);
  if (scheme == KeyScheme::subscale) {
    // Sums of m uniform keys are nearly normal; two independent draws coincide with probability
    // about 1 / (2 sqrt(pi) sigma) per integer value.
    const double sigma =
        std::sqrt(static_cast<double>(m)) * static_cast<double>(kSubscaleKeyHigh - kSubscaleKeyLow) / std::sqrt(12.0);
    per_pair = 1.0 / (2.0 * std::sqrt(M_PI) * sigma);
  }
  if (bits == 128) per_pair *= per_pair;
  return -std::expm1(-pairs * per_pair);
}

PartitionPlan plan_partitions(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                              const DenseUnitsParams& params) {
  const std::uint64_t total = plan.total_units();
  std::size_t count = params.partitions;
  if (count == 0) {
    const std::uint64_t budget = host_budget_or_default(params.host_bytes);
    count = static_cast<std::size_t>(std::max<std::uint64_t>(1, (total * kHostBytesPerUnit + budget - 1) / budget));
  }
  if (count == 1 || params.mode == TableMode::exact) {
    // One partition needs no boundaries; exact mode's keys are hashes, uniform over 64 bits, so
    // equal widths are already balanced.
    PartitionPlan plan_by_hash = equal_partitions(count, 0, ~std::uint64_t{0});
    plan_by_hash.scheme = params.scheme;
    return plan_by_hash;
  }
  if (params.scheme == PartitionScheme::equal) {
    const std::uint64_t m = plan.min_points();
    return keys.scheme == KeyScheme::subscale ? equal_partitions(count, m * kSubscaleKeyLow, m * (kSubscaleKeyHigh - 1))
                                              : equal_partitions(count, 0, ~std::uint64_t{0});
  }
  // Adaptive: quantiles of the signatures of a seeded random sample of units.
  const std::uint64_t sample_size = std::min<std::uint64_t>(total, std::max<std::uint64_t>(1 << 16, 4096 * count));
  std::vector<std::uint64_t> sample(sample_size);
  tbb::parallel_for(std::uint64_t{0}, sample_size, [&](std::uint64_t s) {
    const std::uint64_t flat = static_cast<std::uint64_t>(
        (static_cast<unsigned __int128>(hash::fmix64(params.seed + 0x9e3779b97f4a7c15ULL * (s + 1))) * total) >> 64);
    std::uint64_t signature = 0;
    enumerate_units(plan, density, keys.primary.data(), flat, flat + 1,
                    [&](const UnitView& unit) { signature = unit.signature; });
    sample[s] = signature;
  });
  return adaptive_partitions(count, sample);
}

DenseUnitsResult run_dense_units_cpu(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                     const DenseUnitsParams& params, const UnitProgress& progress) {
  if (params.signature_bits != 64 && params.signature_bits != 128)
    throw UsageError("signature.bits is " + std::to_string(params.signature_bits) + "; valid values: 64, 128");
  if (plan.min_points() > 64) throw UsageError("min_points above 64 is not supported");
  DenseUnitsResult result;
  const PartitionPlan partitions = plan_partitions(plan, density, keys, params);
  result.scheme = partitions.scheme;
  result.units.min_points = plan.min_points();
  const std::uint32_t bucket_bits = bucket_bits_for(plan.total_units() / partitions.count() + 1);
  tbb::enumerable_thread_specific<BucketSet> buckets;
  for (std::size_t p = 0; p < partitions.count(); ++p) {
    const std::uint64_t kept =
        fill_partition(plan, density, keys, params, partitions, p, bucket_bits, buckets, progress);
    result.partitions.push_back({partitions.lower[p], kept});
    result.enumerated_units += plan.total_units();
    result.table_bytes = std::max(result.table_bytes, kept * sizeof(UnitRecord));
    result.units.append(group_partition(plan, density, keys, params, bucket_bits, buckets));
  }
  result.distinct_multi_units = result.units.size();
  if (params.mode == TableMode::signature)
    result.false_match_probability =
        false_match_probability(plan.total_units(), params.signature_bits, keys.scheme, plan.min_points());
  return result;
}

std::ostream& operator<<(std::ostream& out, const DenseUnitsResult& result) {
  out << "DenseUnitsResult{multi_dimension_units=" << result.units.size() << ", partitions=" << result.partitions.size()
      << ", scheme=" << to_string(result.scheme) << ", false_match_probability=" << result.false_match_probability
      << "}";
  return out;
}

}  // namespace subscale
