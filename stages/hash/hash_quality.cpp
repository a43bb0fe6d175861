#include "stages/hash/hash_quality.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "common/error.hpp"

namespace subscale::hash {

bool QualityReport::pass() const {
  bool ok = balance.pass && avalanche.pass && chi_square.pass && collisions.pass;
  for (const auto& lb : low_bits) ok = ok && lb.pass;
  return ok;
}

namespace {

template <class H>
struct HashedRow {
  H hash;
  std::uint32_t row;  // tables have fewer than 2^32 rows (docs/stages.md §2)
};

bool rows_less(const RowTableView& t, std::uint32_t a, std::uint32_t b) {
  return std::lexicographical_compare(t.row(a), t.row(a) + t.row_words, t.row(b), t.row(b) + t.row_words);
}
bool rows_equal(const RowTableView& t, std::uint32_t a, std::uint32_t b) {
  return std::equal(t.row(a), t.row(a) + t.row_words, t.row(b));
}

// Expected colliding records when m distinct records go into 2^bits values at random:
// m - (number of occupied values) = m - N (1 - (1 - 1/N)^m).
double expected_collisions(double m, int bits) {
  const long double n = std::ldexp(1.0L, bits);
  const long double occupied = -n * std::expm1(static_cast<long double>(m) * std::log1p(-1.0L / n));
  return static_cast<double>(std::max(0.0L, static_cast<long double>(m) - occupied));
}

// Sorts (hash, row) pairs, then counts distinct records per hash value. Returns the hashes of the
// distinct records (one per record) for the distribution measures.
template <class H>
std::vector<H> count_collisions(const RowTableView& table, std::span<const H> hashes, Collisions& out, double z_limit) {
  const std::size_t n = hashes.size();
  std::vector<HashedRow<H>> pairs(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16), [&](const auto& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) pairs[i] = {hashes[i], static_cast<std::uint32_t>(i)};
  });
  tbb::parallel_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
    return a.hash < b.hash || (a.hash == b.hash && a.row < b.row);
  });
  std::vector<H> distinct_hashes_of_records;
  distinct_hashes_of_records.reserve(n);
  std::vector<std::uint32_t> group;
  out = Collisions{};
  out.rows = n;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && pairs[j].hash == pairs[i].hash) ++j;
    std::size_t records = 1;
    if (j - i > 1) {  // several rows share this hash: how many different records are they?
      group.clear();
      for (std::size_t g = i; g < j; ++g) group.push_back(pairs[g].row);
      std::sort(group.begin(), group.end(), [&](auto a, auto b) { return rows_less(table, a, b); });
      for (std::size_t g = 1; g < group.size(); ++g)
        if (!rows_equal(table, group[g - 1], group[g])) ++records;
    }
    out.distinct_records += records;
    out.distinct_hashes += 1;
    out.largest_group = std::max(out.largest_group, records);
    distinct_hashes_of_records.insert(distinct_hashes_of_records.end(), records, pairs[i].hash);
    i = j;
  }
  out.colliding_records = out.distinct_records - out.distinct_hashes;
  out.expected = expected_collisions(static_cast<double>(out.distinct_records), static_cast<int>(sizeof(H) * 8));
  out.limit = out.expected + z_limit * std::sqrt(out.expected) + 1.0;
  out.pass = static_cast<double>(out.colliding_records) <= out.limit;
  return distinct_hashes_of_records;
}

template <class H>
BitBalance bit_balance(const std::vector<H>& hashes, double z_limit) {
  constexpr int kBits = sizeof(H) * 8;
  using Counts = std::array<std::uint64_t, kBits>;
  tbb::combinable<Counts> local([] { return Counts{}; });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, hashes.size(), 1 << 16), [&](const auto& r) {
    Counts& c = local.local();
    for (std::size_t i = r.begin(); i < r.end(); ++i)
      for (H h = hashes[i]; h != 0; h &= h - 1) ++c[std::countr_zero(h)];
  });
  Counts total{};
  local.combine_each([&](const Counts& c) {
    for (int b = 0; b < kBits; ++b) total[b] += c[b];
  });
  BitBalance out;
  const double n = static_cast<double>(std::max<std::size_t>(hashes.size(), 1));
  out.limit = 0.001 + z_limit * 0.5 / std::sqrt(n);
  for (int b = 0; b < kBits; ++b) {
    const double p = static_cast<double>(total[b]) / n;
    out.ones_fraction.push_back(p);
    if (std::abs(p - 0.5) > out.worst_deviation) {
      out.worst_deviation = std::abs(p - 0.5);
      out.worst_bit = b;
    }
  }
  out.pass = hashes.empty() || out.worst_deviation <= out.limit;
  return out;
}

// Chi-square of 2^bits buckets; `low` picks the bucket from the low bits (radix partitioning),
// otherwise from the top bits (the value's range).
template <class H>
BucketChiSquare bucket_chi_square(const std::vector<H>& hashes, int bits, bool low, double z_limit) {
  constexpr int kBits = sizeof(H) * 8;
  BucketChiSquare out;
  out.bits = bits;
  const std::size_t buckets = std::size_t{1} << bits;
  if (bits < 1 || bits > kBits || hashes.size() < 5 * buckets) {  // too few records for the test
    out.skipped = true;
    return out;
  }
  const H mask = static_cast<H>(buckets - 1);
  tbb::combinable<std::vector<std::uint64_t>> local([&] { return std::vector<std::uint64_t>(buckets); });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, hashes.size(), 1 << 16), [&](const auto& r) {
    auto& c = local.local();
    for (std::size_t i = r.begin(); i < r.end(); ++i)
      ++c[low ? (hashes[i] & mask) : static_cast<std::size_t>(hashes[i] >> (kBits - bits))];
  });
  std::vector<std::uint64_t> counts(buckets);
  local.combine_each([&](const auto& c) {
    for (std::size_t b = 0; b < buckets; ++b) counts[b] += c[b];
  });
  const double expected = static_cast<double>(hashes.size()) / static_cast<double>(buckets);
  double statistic = 0;
  std::uint64_t fullest = 0;
  for (auto c : counts) {
    const double d = static_cast<double>(c) - expected;
    statistic += d * d / expected;
    fullest = std::max(fullest, c);
  }
  const double dof = static_cast<double>(buckets - 1);
  out.statistic = statistic;
  out.degrees_of_freedom = dof;
  // Wilson-Hilferty: (X/k)^(1/3) is close to normal with mean 1 - 2/(9k), variance 2/(9k).
  const double v = 2.0 / (9.0 * dof);
  out.z = (std::cbrt(statistic / dof) - (1.0 - v)) / std::sqrt(v);
  out.max_over_mean = static_cast<double>(fullest) / expected;
  out.pass = out.z <= z_limit;
  return out;
}

int chi_square_bits(std::size_t records, std::size_t max_buckets) {
  // The largest power of two with at least 10 records per bucket, at most max_buckets.
  int bits = 0;
  while ((std::size_t{2} << bits) <= max_buckets && (std::size_t{2} << bits) * 10 <= records) ++bits;
  return bits;
}

template <class H>
Avalanche avalanche(const RowTableView& table, const RecordHasher<H>& hasher, const QualityOptions& options) {
  constexpr int kBits = sizeof(H) * 8;
  Avalanche out;
  const std::size_t samples = std::min(options.avalanche_samples, table.rows);
  out.samples = samples;
  if (samples == 0) return out;
  const int input_bits = table.row_words * 32;
  // Which rows: evenly spaced with a seeded start, so a sorted table is sampled across its range.
  const std::size_t step = table.rows / samples;
  const std::size_t start = static_cast<std::size_t>(fmix64(options.seed) % std::max<std::size_t>(step, 1));
  using Counts = std::vector<std::uint32_t>;  // [input bit][output bit]: times the output bit flipped
  tbb::combinable<Counts> local([&] { return Counts(static_cast<std::size_t>(input_bits) * kBits); });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, samples, 16), [&](const auto& r) {
    Counts& c = local.local();
    std::vector<std::uint32_t> record(static_cast<std::size_t>(table.row_words));
    for (std::size_t s = r.begin(); s < r.end(); ++s) {
      const std::size_t row = std::min(start + s * step, table.rows - 1);
      std::copy(table.row(row), table.row(row) + table.row_words, record.begin());
      const H base = hasher(record.data(), table.row_words);
      for (int bit = 0; bit < input_bits; ++bit) {
        record[bit / 32] ^= 1u << (bit % 32);
        H diff = base ^ hasher(record.data(), table.row_words);
        record[bit / 32] ^= 1u << (bit % 32);
        for (; diff != 0; diff &= diff - 1) ++c[static_cast<std::size_t>(bit) * kBits + std::countr_zero(diff)];
      }
    }
  });
  Counts total(static_cast<std::size_t>(input_bits) * kBits);
  local.combine_each([&](const Counts& c) {
    for (std::size_t i = 0; i < total.size(); ++i) total[i] += c[i];
  });
  const double s = static_cast<double>(samples);
  double flips = 0;
  double worst = -1;
  for (std::size_t i = 0; i < total.size(); ++i) {
    flips += total[i];
    const double p = total[i] / s;
    if (std::abs(p - 0.5) > worst) {
      worst = std::abs(p - 0.5);
      out.worst_input_bit = static_cast<int>(i / kBits);
      out.worst_output_bit = static_cast<int>(i % kBits);
      out.worst_fraction = p;
    }
  }
  out.mean_fraction = flips / (s * static_cast<double>(total.size()));
  out.mean_limit = 0.01 + options.z_limit * 0.5 / std::sqrt(s * static_cast<double>(total.size()));
  out.worst_limit = 0.01 + options.z_limit * 0.5 / std::sqrt(s);
  out.pass = std::abs(out.mean_fraction - 0.5) <= out.mean_limit && worst <= out.worst_limit;
  return out;
}

}  // namespace

template <class H>
QualityReport analyse_hash_quality(const RowTableView& table, std::span<const H> hashes, const RecordHasher<H>& hasher,
                                   const QualityOptions& options) {
  if (hashes.size() != table.rows)
    throw UsageError("hash quality: " + std::to_string(hashes.size()) + " hashes for a table of " +
                     std::to_string(table.rows) + " rows");
  if (table.rows > 0xFFFFFFFFull)
    throw UsageError("hash quality: the table has " + std::to_string(table.rows) +
                     " rows; the analyser takes at most 2^32 - 1");
  if (!(options.z_limit > 0)) throw UsageError("hash quality: z_limit must be > 0");
  for (int b : options.radix_bits)
    if (b < 1 || b > 24) throw UsageError("hash quality: radix bits must be 1..24, got " + std::to_string(b));
  QualityReport report;
  report.width_bits = sizeof(H) * 8;
  report.row_words = table.row_words;
  report.z_limit = options.z_limit;
  const std::vector<H> distinct = count_collisions(table, hashes, report.collisions, options.z_limit);
  report.balance = bit_balance(distinct, options.z_limit);
  report.chi_square = bucket_chi_square(distinct, chi_square_bits(distinct.size(), options.max_chi_square_buckets),
                                        false, options.z_limit);
  if (report.chi_square.bits == 0) report.chi_square.skipped = true;
  for (int b : options.radix_bits) report.low_bits.push_back(bucket_chi_square(distinct, b, true, options.z_limit));
  report.avalanche = avalanche(table, hasher, options);
  return report;
}

template <class H>
QualityReport analyse_hash_quality(const HashSpec& spec, const RowTableView& table, std::span<const H> hashes,
                                   const QualityOptions& options) {
  const RecordHasher<H> hasher = [spec](const std::uint32_t* words, int count) {
    return hash_words<H>(spec.function, words, count, spec.rounds);
  };
  return analyse_hash_quality<H>(table, hashes, hasher, options);
}

namespace {

std::string line(const char* measure, const std::string& value, const std::string& limit, bool pass, bool skipped) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-26s %-34s %-24s %s\n", measure, value.c_str(), limit.c_str(),
                skipped ? "skipped" : (pass ? "PASS" : "FLAG"));
  return buf;
}

std::string fmt(const char* format, double a, double b = 0, double c = 0) {
  char buf[128];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

}  // namespace

std::string format_quality_table(const QualityReport& r) {
  std::string out;
  char head[256];
  std::snprintf(head, sizeof head, "  %-26s %-34s %-24s %s\n", "measure", "value", "limit", "verdict");
  out += head;
  const auto& c = r.collisions;
  out += line("per-bit balance",
              fmt("worst bit %.0f: %.4f ones", r.balance.worst_bit,
                  r.balance.ones_fraction.empty() ? 0.0 : r.balance.ones_fraction[r.balance.worst_bit]),
              fmt("|p-0.5| <= %.4f", r.balance.limit), r.balance.pass, false);
  const auto& a = r.avalanche;
  out += line("avalanche mean", fmt("%.4f of bits flip", a.mean_fraction), fmt("|m-0.5| <= %.4f", a.mean_limit),
              std::abs(a.mean_fraction - 0.5) <= a.mean_limit, a.samples == 0);
  out += line("avalanche worst bit",
              fmt("in %.0f -> out %.0f: p=%.4f", a.worst_input_bit, a.worst_output_bit, a.worst_fraction),
              fmt("|p-0.5| <= %.4f", a.worst_limit), std::abs(a.worst_fraction - 0.5) <= a.worst_limit, a.samples == 0);
  const auto& q = r.chi_square;
  out += line("chi-square (top bits)",
              q.skipped ? std::string("too few records")
                        : fmt("2^%.0f buckets: z=%.2f max/mean=%.2f", q.bits, q.z, q.max_over_mean),
              fmt("z <= %.1f", r.z_limit), q.pass, q.skipped);
  out +=
      line("collisions", std::to_string(c.colliding_records) + " of " + std::to_string(c.distinct_records) + " records",
           fmt("<= %.1f (exp. %.1f)", c.limit, c.expected), c.pass, false);
  for (const auto& lb : r.low_bits) {
    const std::string name = "low " + std::to_string(lb.bits) + " bits balance";
    out += line(name.c_str(),
                lb.skipped ? std::string("too few records") : fmt("z=%.2f max/mean=%.3f", lb.z, lb.max_over_mean),
                fmt("z <= %.1f", r.z_limit), lb.pass, lb.skipped);
  }
  out += std::string("  overall: ") + (r.pass() ? "PASS" : "FLAG") + "\n";
  return out;
}

template QualityReport analyse_hash_quality<std::uint32_t>(const RowTableView&, std::span<const std::uint32_t>,
                                                           const RecordHasher<std::uint32_t>&, const QualityOptions&);
template QualityReport analyse_hash_quality<std::uint64_t>(const RowTableView&, std::span<const std::uint64_t>,
                                                           const RecordHasher<std::uint64_t>&, const QualityOptions&);
template QualityReport analyse_hash_quality<std::uint32_t>(const HashSpec&, const RowTableView&,
                                                           std::span<const std::uint32_t>, const QualityOptions&);
template QualityReport analyse_hash_quality<std::uint64_t>(const HashSpec&, const RowTableView&,
                                                           std::span<const std::uint64_t>, const QualityOptions&);

}  // namespace subscale::hash
