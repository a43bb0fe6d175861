// The CPU backend: blocks of 4096 rows in parallel (oneTBB). Each block evaluates the predicate
// tree to a bitmap, leaf by leaf, where an and/or child only looks at rows whose outcome is still
// open (the `care` mask), so string leaves skip rows already decided; then it aggregates its
// selected rows. Row ids are written from the bitmaps once every block's count is known.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/error.hpp"
#include "stages/filter/filter.hpp"

namespace subscale::filter {
namespace {

constexpr std::size_t block_words = 64;  // 4096 rows

struct Block {
  const ColumnTable& table;
  const Predicate& predicate;
  std::uint64_t first_row;
  std::size_t words;
  std::uint64_t rows;  // rows of the table

  std::uint64_t valid_mask(std::size_t w) const {
    const std::uint64_t begin = first_row + 64 * w;
    if (begin >= rows) return 0;
    const std::uint64_t left = rows - begin;
    return left >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << left) - 1;
  }
};

// Whether each of 64 values lies in [low, low + span], as bits. The comparisons go to a byte each
// (one unsigned compare, a loop the compiler vectorises) and eight bytes are packed into eight bits
// by one multiplication: about twice as fast as or-ing each comparison into the word in turn.
template <class T>
std::uint64_t in_range_bits(const T* v, std::int64_t low, std::uint64_t span) {
  std::uint8_t flags[64];
  for (int j = 0; j < 64; ++j)
    flags[j] = static_cast<std::uint64_t>(static_cast<std::int64_t>(v[j])) - static_cast<std::uint64_t>(low) <= span;
  std::uint64_t bits = 0;
  for (int k = 0; k < 8; ++k) {
    std::uint64_t eight;
    std::memcpy(&eight, flags + 8 * k, 8);
    bits |= ((eight * 0x0102040810204080ull) >> 56) << (8 * k);
  }
  return bits;
}

// `words` full words of 64 values from v. A copy for AVX2 is chosen at load time where the CPU has
// it (64-bit compares in vector registers); the default copy is plain x86-64.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SUBSCALE_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SUBSCALE_VECTOR_CLONES
#endif
SUBSCALE_VECTOR_CLONES void in_range_words(const std::int64_t* v, std::size_t words, std::int64_t low,
                                           std::uint64_t span, std::uint64_t* out) {
  for (std::size_t w = 0; w < words; ++w) out[w] = in_range_bits(v + 64 * w, low, span);
}
SUBSCALE_VECTOR_CLONES void in_range_words(const std::int32_t* v, std::size_t words, std::int64_t low,
                                           std::uint64_t span, std::uint64_t* out) {
  for (std::size_t w = 0; w < words; ++w) out[w] = in_range_bits(v + 64 * w, low, span);
}

template <class T>
void numeric_exact(const std::vector<T>& values, const NumericLeaf& leaf, const Block& block, std::uint64_t* out) {
  // x in [low, high] as one unsigned compare: x - low <= high - low (wrapping, low <= high here).
  const std::uint64_t span = static_cast<std::uint64_t>(leaf.high) - static_cast<std::uint64_t>(leaf.low);
  // The block's full words in one call; the table's last, partial word one value at a time.
  std::size_t full = 0;
  while (full < block.words && block.valid_mask(full) == ~std::uint64_t{0}) ++full;
  if (!leaf.empty && full > 0) in_range_words(values.data() + block.first_row, full, leaf.low, span, out);
  for (std::size_t w = full; w < block.words; ++w) {
    const std::uint64_t begin = block.first_row + 64 * w;
    const std::uint64_t valid = block.valid_mask(w);
    std::uint64_t bits = 0;
    for (int j = 0; j < 64 && (valid >> j & 1); ++j) {
      const std::int64_t x = values[begin + static_cast<std::uint64_t>(j)];
      bits |= static_cast<std::uint64_t>((x >= leaf.low) & (x <= leaf.high)) << j;
    }
    out[w] = bits;
  }
  if (leaf.empty) std::fill(out, out + block.words, 0);
}

template <class T>
void numeric_float(const std::vector<T>& values, const NumericLeaf& leaf, const Block& block, std::uint64_t* out) {
  const double low = leaf.has_low ? leaf.low_value : -std::numeric_limits<double>::infinity();
  const double high = leaf.has_high ? leaf.high_value : std::numeric_limits<double>::infinity();
  for (std::size_t w = 0; w < block.words; ++w) {
    const std::uint64_t begin = block.first_row + 64 * w;
    const std::uint64_t valid = block.valid_mask(w);
    std::uint64_t bits = 0;
    for (int j = 0; j < 64 && (valid >> j & 1); ++j) {
      const double x = values[begin + static_cast<std::uint64_t>(j)];
      const bool above = leaf.low_inclusive ? x >= low : x > low;
      const bool below = leaf.high_inclusive ? x <= high : x < high;
      bits |= static_cast<std::uint64_t>(above & below) << j;
    }
    out[w] = bits;
  }
}

void numeric(const NumericLeaf& leaf, const Block& block, std::uint64_t* out) {
  std::visit(
      [&](const auto& values) {
        using V = std::decay_t<decltype(values)>;
        if constexpr (std::is_same_v<V, std::vector<float>> || std::is_same_v<V, std::vector<double>>)
          numeric_float(values, leaf, block, out);
        else if constexpr (!std::is_same_v<V, StringColumn>)
          numeric_exact(values, leaf, block, out);
      },
      block.table.columns[static_cast<std::size_t>(leaf.column)].values);
}

bool string_matches(const StringLeaf& leaf, const std::uint8_t* text, std::int64_t n) {
  const auto* pattern = reinterpret_cast<const std::uint8_t*>(leaf.pattern.data());
  const auto m = static_cast<std::int64_t>(leaf.pattern.size());
  switch (leaf.op) {
    case StringOp::equals:
      return equals_bytes(text, n, pattern, m);
    case StringOp::prefix:
      return starts_with_bytes(text, n, pattern, m);
    case StringOp::contains:
      switch (leaf.algorithm) {
        case SearchAlgorithm::kmp:
          return contains_kmp(text, n, pattern, m, leaf.kmp_failure.data());
        case SearchAlgorithm::bmh:
          return contains_bmh(text, n, pattern, m, leaf.bmh_shift.data());
        default:
          return contains_naive(text, n, pattern, m);
      }
    case StringOp::regex:
      return automaton_matches(*leaf.automaton, text, n);
  }
  return false;
}

void strings(const StringLeaf& leaf, const Block& block, const std::uint64_t* care, std::uint64_t* out) {
  const auto& column = std::get<StringColumn>(block.table.columns[static_cast<std::size_t>(leaf.column)].values);
  const std::uint8_t* bytes = column.bytes.data();
  for (std::size_t w = 0; w < block.words; ++w) {
    std::uint64_t todo = care[w] & block.valid_mask(w), bits = 0;
    while (todo) {
      const int j = std::countr_zero(todo);
      todo &= todo - 1;
      const std::uint64_t row = block.first_row + 64 * w + static_cast<std::uint64_t>(j);
      const std::int64_t begin = column.offsets[row], end = column.offsets[row + 1];
      if (string_matches(leaf, bytes + begin, end - begin)) bits |= std::uint64_t{1} << j;
    }
    out[w] = bits;
  }
}

// out = the node's value on the rows of `care` (other bits: 0).
void evaluate(int index, const Block& block, const std::uint64_t* care, std::uint64_t* out) {
  const PredicateNode& node = block.predicate.nodes[static_cast<std::size_t>(index)];
  const std::size_t words = block.words;
  switch (node.kind) {
    case NodeKind::numeric:
      numeric(block.predicate.numeric[static_cast<std::size_t>(node.leaf)], block, out);
      for (std::size_t w = 0; w < words; ++w) out[w] &= care[w];
      return;
    case NodeKind::string:
      strings(block.predicate.strings[static_cast<std::size_t>(node.leaf)], block, care, out);
      return;
    case NodeKind::negation: {
      std::vector<std::uint64_t> inner(words);
      evaluate(node.children[0], block, care, inner.data());
      for (std::size_t w = 0; w < words; ++w) out[w] = care[w] & ~inner[w];
      return;
    }
    case NodeKind::all_of: {
      std::vector<std::uint64_t> open(care, care + words), inner(words);
      for (int child : node.children) {
        evaluate(child, block, open.data(), inner.data());
        for (std::size_t w = 0; w < words; ++w) open[w] &= inner[w];
      }
      std::copy(open.begin(), open.end(), out);
      return;
    }
    case NodeKind::any_of: {
      std::vector<std::uint64_t> open(care, care + words), inner(words), found(words, 0);
      for (int child : node.children) {
        evaluate(child, block, open.data(), inner.data());
        for (std::size_t w = 0; w < words; ++w) {
          found[w] |= inner[w];
          open[w] &= ~inner[w];
        }
      }
      std::copy(found.begin(), found.end(), out);
      return;
    }
  }
}

struct Partial {
  __int128 sum = 0;
  std::int64_t min = std::numeric_limits<std::int64_t>::max();
  std::int64_t max = std::numeric_limits<std::int64_t>::min();
  double double_sum = 0;
  double double_min = std::numeric_limits<double>::infinity();
  double double_max = -std::numeric_limits<double>::infinity();
  std::uint64_t rows = 0;
  bool overflow = false;
  std::uint64_t overflow_row = 0;

  void merge(const Partial& o) {
    sum += o.sum;
    min = std::min(min, o.min);
    max = std::max(max, o.max);
    double_sum += o.double_sum;
    double_min = std::min(double_min, o.double_min);
    double_max = std::max(double_max, o.double_max);
    rows += o.rows;
    if (o.overflow && !overflow) {
      overflow = true;
      overflow_row = o.overflow_row;
    }
  }
};

void aggregate_block(const Aggregate& aggregate, const std::vector<ColumnView>& views, const Block& block,
                     const std::uint64_t* bits, Partial& partial) {
  const Expression& e = aggregate.expression;
  const bool evaluate_expression = aggregate.function != AggregateFunction::count;
  for (std::size_t w = 0; w < block.words; ++w) {
    std::uint64_t todo = bits[w];
    partial.rows += static_cast<std::uint64_t>(std::popcount(todo));
    if (!evaluate_expression) continue;
    while (todo) {
      const std::uint64_t row = block.first_row + 64 * w + static_cast<std::uint64_t>(std::countr_zero(todo));
      todo &= todo - 1;
      if (e.exact) {
        std::int64_t value = 0;
        if (!evaluate_exact(e.program.data(), static_cast<int>(e.program.size()), views.data(), row, value)) {
          if (!partial.overflow) partial.overflow_row = row;
          partial.overflow = true;
          continue;
        }
        partial.sum += value;
        partial.min = std::min(partial.min, value);
        partial.max = std::max(partial.max, value);
      } else {
        const double value = evaluate_double(e.program.data(), static_cast<int>(e.program.size()), views.data(), row);
        partial.double_sum += value;
        partial.double_min = std::min(partial.double_min, value);
        partial.double_max = std::max(partial.double_max, value);
      }
    }
  }
}

AggregateResult finish(const Aggregate& aggregate, const Partial& total) {
  return aggregate_result(aggregate, {total.rows, total.sum, total.min, total.max, total.double_sum, total.double_min,
                                      total.double_max, total.overflow ? total.overflow_row : ~std::uint64_t{0}});
}

}  // namespace

void evaluate_predicate_block(const ColumnTable& table, const Predicate& predicate, std::uint64_t first_row,
                              std::size_t words, std::uint64_t* out) {
  const Block block{table, predicate, first_row, words, table.rows()};
  std::vector<std::uint64_t> care(words);
  for (std::size_t w = 0; w < words; ++w) care[w] = block.valid_mask(w);
  if (predicate.selects_all()) {
    std::copy(care.begin(), care.end(), out);
    return;
  }
  evaluate(predicate.root, block, care.data(), out);
}

FilterResult run_filter_cpu(const ColumnTable& table, const Predicate& predicate, const Aggregate& aggregate,
                            const FilterOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  FilterResult result;
  result.rows = table.rows();
  const std::uint64_t total_words = (result.rows + 63) / 64;
  const std::size_t blocks = (total_words + block_words - 1) / block_words;
  std::vector<std::uint64_t> bitmap(total_words);
  std::vector<std::uint64_t> counts(blocks);
  std::vector<Partial> partials(blocks);
  const std::vector<ColumnView> views = column_views(table);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks), [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t b = range.begin(); b != range.end(); ++b) {
      const std::size_t first_word = b * block_words;
      const std::size_t words = std::min<std::size_t>(block_words, total_words - first_word);
      std::uint64_t* bits = bitmap.data() + first_word;
      evaluate_predicate_block(table, predicate, 64 * first_word, words, bits);
      std::uint64_t count = 0;
      for (std::size_t w = 0; w < words; ++w) count += static_cast<std::uint64_t>(std::popcount(bits[w]));
      counts[b] = count;
      if (aggregate.function != AggregateFunction::none)
        aggregate_block(aggregate, views, Block{table, predicate, 64 * first_word, words, result.rows}, bits,
                        partials[b]);
    }
  });
  const auto selected = std::chrono::steady_clock::now();
  std::vector<std::uint64_t> offsets(blocks + 1, 0);
  for (std::size_t b = 0; b < blocks; ++b) offsets[b + 1] = offsets[b] + counts[b];
  result.selected = offsets[blocks];
  if (options.want_ids) {
    result.ids.resize(result.selected);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks), [&](const tbb::blocked_range<std::size_t>& range) {
      for (std::size_t b = range.begin(); b != range.end(); ++b) {
        std::uint64_t* out = result.ids.data() + offsets[b];
        const std::size_t first_word = b * block_words;
        const std::size_t words = std::min<std::size_t>(block_words, total_words - first_word);
        for (std::size_t w = first_word; w < first_word + words; ++w)
          for (std::uint64_t bits = bitmap[w]; bits; bits &= bits - 1)
            *out++ = 64 * w + static_cast<std::uint64_t>(std::countr_zero(bits));
      }
    });
  }
  if (aggregate.function != AggregateFunction::none) {
    Partial total;
    for (const auto& p : partials) total.merge(p);
    result.aggregate = finish(aggregate, total);
  }
  const auto end = std::chrono::steady_clock::now();
  result.timings.select_seconds = std::chrono::duration<double>(selected - start).count();
  result.timings.compact_seconds = std::chrono::duration<double>(end - selected).count();
  result.timings.path = "cpu-blocks";
  return result;
}

}  // namespace subscale::filter
