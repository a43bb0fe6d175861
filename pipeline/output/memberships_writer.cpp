#include "pipeline/output/memberships_writer.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "common/error.hpp"
#include "io/atomic_output.hpp"

namespace subscale::pipeline {
namespace {

// The position of input row `row` among the clustered rows.
std::size_t position_of(std::uint32_t row, const std::vector<std::uint64_t>& input_rows, std::size_t points,
                        std::size_t cluster) {
  std::size_t position = row;
  if (!input_rows.empty()) {
    const auto at = std::lower_bound(input_rows.begin(), input_rows.end(), std::uint64_t{row});
    position = at != input_rows.end() && *at == row ? static_cast<std::size_t>(at - input_rows.begin()) : points;
  }
  if (position >= points)
    throw Error(ExitCode::other, "memberships: cluster #" + std::to_string(cluster) + " holds input row " +
                                     std::to_string(row) + ", which the run did not cluster");
  return position;
}

void append_number(std::string& text, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  text.append(digits, end);
}

}  // namespace

Memberships memberships_of(const std::vector<SubspaceCluster>& clusters, std::size_t points,
                           const std::vector<std::uint64_t>& input_rows) {
  Memberships m;
  m.offsets.assign(points + 1, 0);
  for (std::size_t c = 0; c < clusters.size(); ++c)
    for (const std::uint32_t row : clusters[c].points) ++m.offsets[position_of(row, input_rows, points, c) + 1];
  for (std::size_t p = 0; p < points; ++p) m.offsets[p + 1] += m.offsets[p];
  m.clusters.resize(m.offsets[points]);
  std::vector<std::uint64_t> fill(m.offsets.begin(), m.offsets.end() - 1);
  // Clusters in order, so each point's list comes out ascending.
  for (std::size_t c = 0; c < clusters.size(); ++c)
    for (const std::uint32_t row : clusters[c].points)
      m.clusters[fill[position_of(row, input_rows, points, c)]++] = static_cast<std::uint32_t>(c);
  const auto strength = [&](std::uint32_t c) {
    return static_cast<std::uint64_t>(clusters[c].points.size()) * clusters[c].dimensions.size();
  };
  m.strongest.assign(points, -1);
  for (std::size_t p = 0; p < points; ++p)
    for (std::uint64_t k = m.offsets[p]; k < m.offsets[p + 1]; ++k)
      if (m.strongest[p] < 0 || strength(m.clusters[k]) > strength(static_cast<std::uint32_t>(m.strongest[p])))
        m.strongest[p] = m.clusters[k];
  return m;
}

void write_memberships_csv(const std::filesystem::path& file, const std::vector<SubspaceCluster>& clusters,
                           std::size_t points, const std::vector<std::uint64_t>& input_rows) {
  const Memberships m = memberships_of(clusters, points, input_rows);
  constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
  io::write_text_file_in_blocks(file, [&](const io::BlockSink& sink) {
    std::string block = "row,strongest,clusters\n";
    for (std::size_t p = 0; p < points; ++p) {
      append_number(block, input_rows.empty() ? p : input_rows[p]);
      block += ',';
      if (m.strongest[p] >= 0) append_number(block, static_cast<std::uint64_t>(m.strongest[p]));
      block += ',';
      for (std::uint64_t k = m.offsets[p]; k < m.offsets[p + 1]; ++k) {
        if (k > m.offsets[p]) block += ';';
        append_number(block, m.clusters[k]);
      }
      block += '\n';
      if (block.size() >= kBlockBytes) {
        sink(block);
        block.clear();
      }
    }
    sink(block);
  });
}

void write_memberships_csv(const std::filesystem::path& file, const RunReport& report) {
  const std::vector<SubspaceCluster> none;
  const auto& clusters = report.consolidated ? report.consolidated->clusters
                         : report.merge      ? report.merge->clusters
                                             : none;
  write_memberships_csv(file, clusters, report.points, report.input_rows);
}

}  // namespace subscale::pipeline
