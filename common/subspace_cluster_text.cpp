#include "common/subspace_cluster_text.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace subscale {
namespace {

constexpr std::size_t kClustersPerBlock = 4096;

std::size_t digits(std::uint32_t value) {
  std::size_t count = 1;
  while (value >= 10) value /= 10, ++count;
  return count;
}

// Bytes of "{a, b}" (or "[...]") for `values`.
std::size_t list_bytes(const std::vector<std::uint32_t>& values) {
  std::size_t bytes = 2 + (values.empty() ? 0 : 2 * (values.size() - 1));
  for (auto value : values) bytes += digits(value);
  return bytes;
}

char* write_list(char* at, char open, const std::vector<std::uint32_t>& values, char close) {
  *at++ = open;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) {
      *at++ = ',';
      *at++ = ' ';
    }
    at = std::to_chars(at, at + 10, values[i]).ptr;
  }
  *at++ = close;
  return at;
}

}  // namespace

std::string subspace_clusters_text(const std::vector<SubspaceCluster>& clusters) {
  // Two passes over blocks of clusters: their sizes, then each block written in place, so the
  // text is allocated once and never copied.
  const std::size_t blocks = (clusters.size() + kClustersPerBlock - 1) / kClustersPerBlock;
  std::vector<std::size_t> offsets(blocks + 1, 0);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t end = std::min(clusters.size(), (b + 1) * kClustersPerBlock);
    for (std::size_t c = b * kClustersPerBlock; c < end; ++c)
      offsets[b + 1] += list_bytes(clusters[c].dimensions) + 1 + list_bytes(clusters[c].points) + 1;
  });
  for (std::size_t b = 0; b < blocks; ++b) offsets[b + 1] += offsets[b];
  std::string text(offsets[blocks], '\0');
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    char* at = text.data() + offsets[b];
    const std::size_t end = std::min(clusters.size(), (b + 1) * kClustersPerBlock);
    for (std::size_t c = b * kClustersPerBlock; c < end; ++c) {
      at = write_list(at, '{', clusters[c].dimensions, '}');
      *at++ = '-';
      at = write_list(at, '[', clusters[c].points, ']');
      *at++ = '\n';
    }
  });
  return text;
}

}  // namespace subscale
