#include "common/subspace_cluster_text.hpp"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <charconv>
#include <cstdint>

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

char* write_list(char* at, char open, const std::vector<std::uint32_t>& values, char close) {
  *at++ = open;
  if (!values.empty()) {
    at = std::to_chars(at, at + 10, values[0]).ptr;
    for (std::size_t i = 1; i < values.size(); ++i) {
      at[0] = ',';
      at[1] = ' ';
      at = std::to_chars(at + 2, at + 12, values[i]).ptr;
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
