#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "common/populated_array.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/table/group_resolver.hpp"
#include "stages/dense_units/table/signature_grouping.hpp"
#include "stages/dense_units/unit_enumerator.hpp"

namespace subscale {
namespace {

// Records per bucket: small enough that a bucket and its probe table stay in L2.
constexpr std::uint64_t kRecordsPerBucket = 1u << 14;

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

// One partition's records, scattered into buckets by the top bits of the mixed key: bucket b is
// records[bucket_begin[b] .. bucket_begin[b + 1]). The layout depends only on the data (chunks are
// fixed ranges of flat indices), never on the thread count.
template <class Record>
struct PartitionTable {
  std::vector<std::uint64_t> bucket_begin;
  PopulatedArray<Record> records;
};

template <class Record>
Record make_record(std::uint64_t mixed, std::uint64_t flat);
template <>
UnitRecord make_record<UnitRecord>(std::uint64_t mixed, std::uint64_t flat) {
  return {mixed, flat};
}
template <>
PackedUnitRecord make_record<PackedUnitRecord>(std::uint64_t mixed, std::uint64_t flat) {
  return {static_cast<std::uint32_t>(mixed), static_cast<std::uint32_t>(flat)};
}

class PartitionFiller {
 public:
  PartitionFiller(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                  const DenseUnitsParams& params, const PartitionPlan& partitions, std::uint32_t bucket_bits)
      : plan_(plan), density_(density), keys_(keys), params_(params), partitions_(partitions), bits_(bucket_bits) {
    const std::uint64_t total = plan.total_units();
    chunk_ = std::max<std::uint64_t>(1u << 16, total / 512 + 1);
    chunks_ = (total + chunk_ - 1) / chunk_;
  }

  // Two passes over the units of partition p: count per (chunk, bucket), then scatter each
  // chunk's records to its exclusive slots. Enumeration is cheap next to the memory traffic, so
  // enumerating twice costs less than growing buffers. Returns the number of records.
  template <class Record>
  std::uint64_t fill(std::size_t p, PartitionTable<Record>& table, const UnitProgress& progress, PhaseTimer& timer) {
    timer.start("fill: count");
    const std::size_t buckets = std::size_t{1} << bits_;
    std::vector<std::uint32_t> counts(chunks_ * buckets, 0);
    tbb::parallel_for(std::uint64_t{0}, chunks_, [&](std::uint64_t c) {
      std::uint32_t* row = counts.data() + c * buckets;
      for_each_record<Record>(p, c, [&](std::size_t bucket, const Record&) { ++row[bucket]; });
    });
    // Bucket-major exclusive scan: each bucket's records are contiguous across chunks.
    std::vector<std::uint64_t> cursor(chunks_ * buckets);
    table.bucket_begin.assign(buckets + 1, 0);
    std::uint64_t sum = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
      table.bucket_begin[b] = sum;
      for (std::uint64_t c = 0; c < chunks_; ++c) {
        cursor[c * buckets + b] = sum;
        sum += counts[c * buckets + b];
      }
    }
    table.bucket_begin[buckets] = sum;
    timer.start("fill: table memory");
    table.records.reserve(sum);  // uninitialised: every slot is written below
    timer.start("fill: scatter");
    Record* records = table.records.get();
    tbb::parallel_for(std::uint64_t{0}, chunks_, [&](std::uint64_t c) {
      std::uint64_t* next = cursor.data() + c * buckets;
      for_each_record<Record>(p, c,
                              [&](std::size_t bucket, const Record& record) { records[next[bucket]++] = record; });
      if (progress) progress(chunk_end(c) - c * chunk_);
    });
    return sum;
  }

 private:
  std::uint64_t chunk_end(std::uint64_t c) const { return std::min(plan_.total_units(), (c + 1) * chunk_); }

  template <class Record, class Sink>
  void for_each_record(std::size_t p, std::uint64_t c, Sink&& sink) const {
    const std::uint32_t shift = 64 - bits_;
    const bool single = partitions_.count() == 1;
    auto keep = [&](std::uint64_t key, std::uint64_t flat) {
      if (!single && !partitions_.contains(p, key)) return;
      const std::uint64_t mixed = hash::fmix64(key);
      sink(bits_ ? static_cast<std::size_t>(mixed >> shift) : 0, make_record<Record>(mixed, flat));
    };
    const std::uint64_t begin = c * chunk_, end = chunk_end(c);
    if (params_.mode == TableMode::signature) {
      enumerate_units(plan_, density_, keys_.primary.data(), begin, end,
                      [&](const UnitView& unit) { keep(unit.signature, unit.flat); });
    } else {
      const std::uint32_t m = plan_.min_points();
      std::uint32_t points[64];
      enumerate_units(plan_, density_, keys_.primary.data(), begin, end, [&](const UnitView& unit) {
        unit_points(density_.dimensions[unit.dimension], unit.position, unit.subset, m - 1, points);
        keep(point_id_hash(points, m), unit.flat);
      });
    }
  }

  const UnitPlan& plan_;
  const Density1dResult& density_;
  const SignatureKeys& keys_;
  const DenseUnitsParams& params_;
  const PartitionPlan& partitions_;
  std::uint32_t bits_;
  std::uint64_t chunk_ = 0, chunks_ = 0;
};

// Finds the equal keys of every bucket, in parallel, and resolves each group into out_for(b), the
// output of bucket b (anything with add(points, dimensions)).
template <class Record, class OutFor>
void resolve_buckets(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                     const DenseUnitsParams& params, const PartitionTable<Record>& table, OutFor&& out_for) {
  tbb::enumerable_thread_specific<GroupScratch> scratches;
  tbb::parallel_for(std::size_t{0}, table.bucket_begin.size() - 1, [&](std::size_t b) {
    GroupResolver resolver(plan, density, keys, params);
    auto&& out = out_for(b);
    const Record* begin = table.records.get() + table.bucket_begin[b];
    const auto size = static_cast<std::uint32_t>(table.bucket_begin[b + 1] - table.bucket_begin[b]);
    find_equal_keys(begin, size, scratches.local(),
                    [&](const std::vector<UnitRecord>& group) { resolver.resolve(group, out); });
  });
}

// The maximal units of a partition, in bucket order so the output does not depend on the thread
// count.
template <class Record>
MaximalUnits group_partition(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                             const DenseUnitsParams& params, const PartitionTable<Record>& table) {
  std::vector<MaximalUnits> found(table.bucket_begin.size() - 1);
  for (auto& part : found) part.min_points = plan.min_points();
  resolve_buckets(plan, density, keys, params, table, [&](std::size_t b) -> MaximalUnits& { return found[b]; });
  MaximalUnits all;
  all.min_points = plan.min_points();
  for (const auto& part : found) all.append(part);
  return all;
}

// The same, handing each unit to a concurrent sink as it is found; returns how many.
template <class Record>
std::uint64_t group_partition_into(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                   const DenseUnitsParams& params, const PartitionTable<Record>& table,
                                   const ConcurrentUnitSink& sink) {
  struct Forward {
    const ConcurrentUnitSink& sink;
    std::uint64_t& units;  // the thread's count
    void add(std::span<const std::uint32_t> points, std::span<const std::uint32_t> dimensions) {
      sink(points, dimensions);
      ++units;
    }
  };
  tbb::enumerable_thread_specific<std::uint64_t> units(0);
  resolve_buckets(plan, density, keys, params, table, [&](std::size_t) { return Forward{sink, units.local()}; });
  std::uint64_t total = 0;
  for (auto count : units) total += count;
  return total;
}

std::uint64_t host_budget_or_default(std::uint64_t budget) { return budget > 0 ? budget : std::uint64_t{8} << 30; }

}  // namespace

TableMode parse_table_mode(const std::string& name) {
  if (name == "signature") return TableMode::signature;
  if (name == "exact") return TableMode::exact;
  if (name == "direct") return TableMode::direct;
  throw UsageError("mode is '" + name + "'; valid values: direct, signature, exact");
}

const char* to_string(TableMode mode) {
  switch (mode) {
    case TableMode::signature:
      return "signature";
    case TableMode::exact:
      return "exact";
    case TableMode::direct:
      return "direct";
  }
  return "?";
}

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

std::vector<std::uint32_t> selected_partitions(const DenseUnitsParams& params, std::size_t count) {
  if (!params.only_partitions.empty()) {
    for (const std::uint32_t p : params.only_partitions)
      if (p >= count)
        throw UsageError("partition " + std::to_string(p) + " was asked for, but the plan has " +
                         std::to_string(count));
    return params.only_partitions;
  }
  std::vector<std::uint32_t> all(count);
  for (std::size_t p = 0; p < count; ++p) all[p] = static_cast<std::uint32_t>(p);
  return all;
}

std::size_t partitions_for_host_bytes(std::uint64_t units, std::uint64_t host_bytes) {
  const std::uint64_t budget = host_budget_or_default(host_bytes);
  const unsigned __int128 bytes = static_cast<unsigned __int128>(units) * kHostBytesPerUnit;
  const unsigned __int128 count = std::max<unsigned __int128>(1, (bytes + budget - 1) / budget);
  return static_cast<std::size_t>(std::min<unsigned __int128>(count, std::numeric_limits<std::size_t>::max()));
}

DenseUnitsParams fit_partitions_to_host_bytes(DenseUnitsParams params, std::uint64_t units) {
  if (params.partitions != 0)
    params.partitions = std::max(params.partitions, partitions_for_host_bytes(units, params.host_bytes));
  return params;
}

PartitionPlan plan_partitions(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                              const DenseUnitsParams& params) {
  if (params.given_partitions.count() > 0) return params.given_partitions;
  const std::uint64_t total = plan.total_units();
  const std::size_t count = params.partitions ? params.partitions : partitions_for_host_bytes(total, params.host_bytes);
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

void check_signature_bits(std::uint32_t bits) {
  if (bits != 64 && bits != 128)
    throw ParameterErrorOf<UsageError>(Parameter::signature_bits, std::to_string(bits),
                                       "is " + std::to_string(bits) + "; valid values: 64, 128");
}

DenseUnitsResult run_dense_units_cpu(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                     const DenseUnitsParams& params, const UnitProgress& progress, const UnitSink& sink,
                                     const ConcurrentUnitSink& concurrent_sink) {
  check_signature_bits(params.signature_bits);
  if (plan.min_points() > 64) throw UsageError("min_points above 64 is not supported");
  DenseUnitsResult result;
  const PartitionPlan partitions =
      plan_partitions(plan, density, keys, fit_partitions_to_host_bytes(params, plan.total_units()));
  result.scheme = partitions.scheme;
  result.units.min_points = plan.min_points();
  const std::uint32_t bucket_bits = bucket_bits_for(plan.total_units() / partitions.count() + 1);
  PartitionFiller filler(plan, density, keys, params, partitions, bucket_bits);
  PhaseTimer timer(result.phase_seconds);
  auto run_partitions = [&](auto record_type) {
    using Record = decltype(record_type);
    PartitionTable<Record> table;
    for (const std::size_t p : selected_partitions(params, partitions.count())) {
      const std::uint64_t kept = filler.fill(p, table, progress, timer);
      timer.start("group");
      result.partitions.push_back({partitions.lower[p], kept});
      result.enumerated_units += plan.total_units();
      result.table_bytes = std::max(result.table_bytes, kept * sizeof(Record));
      if (concurrent_sink) {
        result.distinct_multi_units += group_partition_into(plan, density, keys, params, table, concurrent_sink);
        continue;
      }
      const MaximalUnits found = group_partition(plan, density, keys, params, table);
      result.distinct_multi_units += found.size();
      if (sink)
        sink(found);
      else
        result.units.append(found);
    }
  };
  // Half the memory traffic when every flat index fits in 32 bits.
  if (plan.total_units() <= 0xffffffffull)
    run_partitions(PackedUnitRecord{});
  else
    run_partitions(UnitRecord{});
  timer.stop();
  if (params.mode == TableMode::signature)
    result.false_match_probability =
        false_match_probability(plan.total_units(), params.signature_bits, keys.scheme, plan.min_points());
  return result;
}

std::ostream& operator<<(std::ostream& out, const DenseUnitsResult& result) {
  out << "DenseUnitsResult{multi_dimension_units=" << result.distinct_multi_units
      << ", partitions=" << result.partitions.size() << ", scheme=" << to_string(result.scheme)
      << ", false_match_probability=" << result.false_match_probability << "}";
  return out;
}

}  // namespace subscale
