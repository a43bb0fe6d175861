#include "datasets/generators/filter_generators.hpp"

#include <tbb/parallel_for.h>

#include <cmath>
#include <random>

#include "common/error.hpp"
#include "datasets/generators/zipf_sampler.hpp"

namespace subscale::filter {
namespace {

constexpr std::uint64_t chunk_rows = 1 << 16;

// Every chunk of rows has its own generator, so the output does not depend on the thread count.
std::mt19937_64 chunk_generator(std::uint64_t seed, std::uint64_t chunk) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + chunk + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return std::mt19937_64(z ^ (z >> 31));
}

template <class Body>
void for_each_chunk(std::uint64_t rows, const Body& body) {
  const std::uint64_t chunks = (rows + chunk_rows - 1) / chunk_rows;
  tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t chunk) {
    body(chunk, chunk * chunk_rows, std::min(rows, (chunk + 1) * chunk_rows));
  });
}

}  // namespace

ColumnTable generate_lineitem(double scale_factor, std::uint64_t seed) {
  if (!(scale_factor > 0) || scale_factor > 1000)
    throw UsageError("lineitem scale factor " + std::to_string(scale_factor) + " is outside (0, 1000]");
  const auto rows = static_cast<std::uint64_t>(std::llround(scale_factor * lineitem_rows_per_scale_factor));
  const auto parts = std::max<std::int64_t>(1, std::llround(scale_factor * 200000));
  std::vector<std::int64_t> quantity(rows), discount(rows), price(rows);
  std::vector<std::int32_t> shipdate(rows);
  const std::int32_t start_date = days_from_civil(1992, 1, 1);
  const std::int32_t last_order_date = days_from_civil(1998, 12, 31) - 151;
  for_each_chunk(rows, [&](std::uint64_t chunk, std::uint64_t begin, std::uint64_t end) {
    auto rng = chunk_generator(seed, chunk);
    std::uniform_int_distribution<std::int64_t> quantity_of(1, 50), discount_of(0, 10), part_of(1, parts);
    std::uniform_int_distribution<std::int32_t> order_date_of(start_date, last_order_date), ship_delay(1, 121);
    for (std::uint64_t i = begin; i < end; ++i) {
      const std::int64_t q = quantity_of(rng);
      const std::int64_t part = part_of(rng);
      // TPC-H 4.2.3: P_RETAILPRICE = (90000 + ((partkey / 10) mod 20001) + 100 * (partkey mod 1000)) / 100
      const std::int64_t retail_cents = 90000 + (part / 10) % 20001 + 100 * (part % 1000);
      quantity[i] = q * 100;
      discount[i] = discount_of(rng);
      price[i] = q * retail_cents;
      shipdate[i] = order_date_of(rng) + ship_delay(rng);
    }
  });
  ColumnTable table;
  table.columns.push_back({"l_quantity", ColumnType::decimal, 2, std::move(quantity)});
  table.columns.push_back({"l_extendedprice", ColumnType::decimal, 2, std::move(price)});
  table.columns.push_back({"l_discount", ColumnType::decimal, 2, std::move(discount)});
  table.columns.push_back({"l_shipdate", ColumnType::date, 0, std::move(shipdate)});
  return table;
}

ColumnTable generate_strings(const StringGeneratorOptions& o) {
  if (o.min_length > o.max_length)
    throw UsageError("string generator: min_length " + std::to_string(o.min_length) + " > max_length " +
                     std::to_string(o.max_length));
  if (o.text == TextKind::random && (o.alphabet < 1 || o.alphabet > 256))
    throw UsageError("string generator: alphabet " + std::to_string(o.alphabet) + " is outside 1..256");
  if (o.text == TextKind::partial_matches && o.needle.size() < 2)
    throw UsageError("string generator: the needle needs at least 2 bytes for partial matches");
  const std::uint64_t span = std::uint64_t{o.max_length} - o.min_length + 1;
  const join::ZipfSampler zipf(span, o.alpha);
  // Lengths first (they fix the offsets), then the bytes of every chunk in parallel.
  std::vector<std::int64_t> offsets(o.rows + 1, 0);
  for_each_chunk(o.rows, [&](std::uint64_t chunk, std::uint64_t begin, std::uint64_t end) {
    auto rng = chunk_generator(o.seed, chunk);
    std::uniform_int_distribution<std::uint64_t> uniform(0, span - 1);
    for (std::uint64_t i = begin; i < end; ++i)
      offsets[i + 1] = static_cast<std::int64_t>(
          o.min_length + (o.lengths == LengthDistribution::zipf ? zipf(rng) - 1 : uniform(rng)));
  });
  for (std::uint64_t i = 0; i < o.rows; ++i) offsets[i + 1] += offsets[i];
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(offsets[o.rows]));
  // The needle without its last byte, then a byte the needle lacks: every repeat is a partial
  // match of length - 1 bytes that fails at its end, and the repeats never form the needle.
  std::string fragment = o.needle.substr(0, o.needle.size() - 1);
  for (int c = 'z'; c >= 0; --c)
    if (o.needle.find(static_cast<char>(c)) == std::string::npos) {
      fragment.push_back(static_cast<char>(c));
      break;
    }
  for_each_chunk(o.rows, [&](std::uint64_t chunk, std::uint64_t begin, std::uint64_t end) {
    auto rng = chunk_generator(o.seed ^ 0x5bd1e995u, chunk);
    std::uniform_int_distribution<std::uint32_t> letter(0, o.alphabet - 1);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    for (std::uint64_t i = begin; i < end; ++i) {
      const auto n = static_cast<std::size_t>(offsets[i + 1] - offsets[i]);
      std::uint8_t* out = bytes.data() + offsets[i];
      for (std::size_t j = 0; j < n; ++j)
        out[j] = o.text == TextKind::random ? static_cast<std::uint8_t>('a' + letter(rng))
                                            : static_cast<std::uint8_t>(fragment[j % fragment.size()]);
      if (n >= o.needle.size() && coin(rng) < o.needle_probability) {
        std::uniform_int_distribution<std::size_t> at(0, n - o.needle.size());
        const std::size_t position = at(rng);
        std::copy(o.needle.begin(), o.needle.end(), out + position);
      }
    }
  });
  StringColumn column;
  column.offsets = std::move(offsets);
  column.bytes = std::move(bytes);
  ColumnTable table;
  table.columns.push_back({o.column, ColumnType::string, 0, std::move(column)});
  return table;
}

}  // namespace subscale::filter
