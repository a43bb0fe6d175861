#include "common/subspace_cluster_text.hpp"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace subscale {
namespace {

// About 1 MiB of text a block: large enough that handing a block on costs nothing, small enough
// that the buffers in flight stay in cache and the first block is written early.
constexpr std::size_t kIdsPerBlock = std::size_t{1} << 17;
constexpr std::size_t kMaxBytesPerId = 12;  // 10 digits and ", "

struct Block {
  std::size_t begin = 0, end = 0;
  std::string* buffer = nullptr;
  std::size_t bytes = 0;
};

// Digits by pairs from a table, as std::to_chars does, but without its digit-counting loop: ids
// are mostly below 10^8, and a value below 10^4 takes at most three comparisons (1.4x faster on
// the ids of a run than std::to_chars, which is left the values of nine and ten digits).
constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

char* write_pair(char* at, std::uint32_t pair) {
  std::memcpy(at, kDigitPairs + 2 * pair, 2);
  return at + 2;
}

// value < 10^4, without leading zeros.
char* write_below_10k(char* at, std::uint32_t value) {
  if (value < 100) {
    if (value < 10) {
      *at = static_cast<char>('0' + value);
      return at + 1;
    }
    return write_pair(at, value);
  }
  if (value < 1000) {
    *at = static_cast<char>('0' + value / 100);
    return write_pair(at + 1, value % 100);
  }
  return write_pair(write_pair(at, value / 100), value % 100);
}

char* write_id(char* at, std::uint32_t value) {
  if (value < 10000) return write_below_10k(at, value);
  if (value < 100000000) {
    const std::uint32_t low = value % 10000;
    return write_pair(write_pair(write_below_10k(at, value / 10000), low / 100), low % 100);
  }
  return std::to_chars(at, at + 10, value).ptr;
}

char* write_list(char* at, char open, const std::vector<std::uint32_t>& values, char close) {
  *at++ = open;
  if (!values.empty()) {
    at = write_id(at, values[0]);
    for (std::size_t i = 1; i < values.size(); ++i) {
      at[0] = ',';
      at[1] = ' ';
      at = write_id(at + 2, values[i]);
    }
  }
  *at++ = close;
  return at;
}

// Formats clusters [begin, end) into `buffer`, grown to the block's worst case once and reused
// after that (so its pages are touched once, not once a block).
std::size_t format_block(const std::vector<SubspaceCluster>& clusters, std::size_t begin, std::size_t end,
                         std::string& buffer) {
  std::size_t worst = 0;
  for (std::size_t c = begin; c < end; ++c)
    worst += (clusters[c].dimensions.size() + clusters[c].points.size()) * kMaxBytesPerId + 6;
  if (buffer.size() < worst) buffer.resize(worst);
  char* const start = buffer.data();
  char* at = start;
  for (std::size_t c = begin; c < end; ++c) {
    at = write_list(at, '{', clusters[c].dimensions, '}');
    *at++ = '-';
    at = write_list(at, '[', clusters[c].points, ']');
    *at++ = '\n';
  }
  return static_cast<std::size_t>(at - start);
}

}  // namespace

void write_subspace_clusters_text(const std::vector<SubspaceCluster>& clusters, const TextSink& sink) {
  // Blocks enter in order and leave in order; with at most `tokens` in flight, block b + tokens
  // enters only after block b has left, so buffer b % tokens is free again when it is reused.
  const std::size_t tokens = 2 * static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()) + 2;
  std::vector<std::string> buffers(tokens);
  std::size_t next = 0, blocks = 0;
  tbb::parallel_pipeline(
      tokens, tbb::make_filter<void, Block>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& control) {
                if (next == clusters.size()) {
                  control.stop();
                  return Block{};
                }
                Block block{next, next, &buffers[blocks++ % tokens], 0};
                for (std::size_t ids = 0; block.end < clusters.size() && ids < kIdsPerBlock; ++block.end)
                  ids += clusters[block.end].points.size() + clusters[block.end].dimensions.size() + 1;
                next = block.end;
                return block;
              }) & tbb::make_filter<Block, Block>(tbb::filter_mode::parallel, [&](Block block) {
                block.bytes = format_block(clusters, block.begin, block.end, *block.buffer);
                return block;
              }) & tbb::make_filter<Block, void>(tbb::filter_mode::serial_in_order, [&](const Block& block) {
                sink(std::string_view(block.buffer->data(), block.bytes));
              }));
}

std::string subspace_clusters_text(const std::vector<SubspaceCluster>& clusters) {
  std::string text;
  write_subspace_clusters_text(clusters, [&](std::string_view block) { text.append(block); });
  return text;
}

}  // namespace subscale
