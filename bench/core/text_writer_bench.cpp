// Times the text form of subspace clusters (subspaces.txt, clusters.txt) for a run of the size
// tie-heavy data gives: --subspaces lists of 2-4 dimensions and --points ids each (the ids drawn
// from --n), written by the stream operator the project used before and by the block-parallel
// std::to_chars writer it uses now, in the same run; both to a file under --out, checked equal.
//
//   text_writer_bench [--subspaces 1000000] [--points 50] [--n 1800] [--out /tmp]
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "common/subspace_cluster_text.hpp"

using namespace subscale;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<SubspaceCluster> make_clusters(std::size_t count, std::uint32_t points, std::uint32_t n) {
  std::mt19937 random(1);
  std::vector<SubspaceCluster> clusters(count);
  for (auto& cluster : clusters) {
    for (std::uint32_t d = 0, dims = 2 + random() % 3; d < dims; ++d)
      cluster.dimensions.push_back(d * 100 + random() % 100);
    for (std::uint32_t p = 0; p < points; ++p) cluster.points.push_back(random() % n);
  }
  return clusters;
}

// Writes `text` to `path` and returns the seconds the write took.
double write_file(const std::string& path, const std::string& text) {
  const auto start = std::chrono::steady_clock::now();
  std::ofstream(path, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
  return seconds_since(start);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times the text writers of subspace clusters"};
  std::size_t count = 1'000'000;
  std::uint32_t points = 50, n = 1800;
  std::string out = "/tmp";
  app.add_option("--subspaces", count);
  app.add_option("--points", points);
  app.add_option("--n", n);
  app.add_option("--out", out);
  CLI11_PARSE(app, argc, argv);
  const auto clusters = make_clusters(count, points, n);
  auto start = std::chrono::steady_clock::now();
  std::ostringstream stream;
  for (const auto& cluster : clusters) stream << cluster << '\n';
  const std::string before = stream.str();
  const double format_before = seconds_since(start);
  const double write_before = write_file(out + "/text_writer_bench_before.txt", before);
  start = std::chrono::steady_clock::now();
  const std::string now = subspace_clusters_text(clusters);
  const double format_now = seconds_since(start);
  const double write_now = write_file(out + "/text_writer_bench_now.txt", now);
  std::printf(
      "| %zu lists x %u ids | %.1f MB | stream: format %.3f s + write %.3f s | to_chars: format %.3f s + write "
      "%.3f s | %.1fx | %s |\n",
      count, points, static_cast<double>(now.size()) / 1e6, format_before, write_before, format_now, write_now,
      (format_before + write_before) / (format_now + write_now), now == before ? "equal" : "DIFFERENT");
  std::remove((out + "/text_writer_bench_before.txt").c_str());
  std::remove((out + "/text_writer_bench_now.txt").c_str());
  return now == before ? 0 : 1;
}
