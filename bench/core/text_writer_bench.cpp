// Times the text form of subspace clusters (subspaces.txt, clusters.txt) for a run of the size
// tie-heavy data gives: --subspaces lists of 2-4 dimensions and --points ids each (the ids drawn
// from --n), written to a file under --out by three writers in the same run, their files checked
// equal:
//   stream:   the stream operator the project used first;
//   one-text: the writer of 25edb2a (std::to_chars into one string sized first, blocks in
//             parallel), then one write of the string; kept here as the comparison;
//   pipelined: the writer used now (common/subspace_cluster_text.cpp): blocks formatted in
//             parallel into reused buffers and written in order while the next are formatted.
// --lists 2 writes two such lists (a run's subspaces.txt and clusters.txt) and times them together.
// --hdf5 also times the lists into one HDF5 file (as results.h5 holds them) the way the runner
// wrote them before (each list copied whole into flat vectors, gzip level 4 in 64 Ki chunks) and
// now (io::write_cluster_list: 4 MiB blocks, uncompressed by default, --gzip L compresses chunks
// on every core), and checks that both read back equal to the lists.
//
//   text_writer_bench [--subspaces 1000000] [--points 50] [--n 1800] [--lists 1] [--hdf5 [--gzip 0]]
//                     [--out /tmp]
#include <sys/resource.h>
#include <tbb/parallel_for.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "common/phase_timer.hpp"
#include "common/subspace_cluster_text.hpp"
#include "io/atomic_output.hpp"
#include "io/cluster_list_hdf5.hpp"

using namespace subscale;

namespace {

using Clock = std::chrono::steady_clock;

// CPU seconds of the process, all threads, user and system: on a machine shared with other work
// the wall time says little, and cpu / cores is what an idle machine would take at best.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct Timing {
  double wall = 0, cpu = 0;
};

template <class Work>
Timing timed(Work&& work) {
  const auto start = Clock::now();
  const double cpu = cpu_seconds();
  work();
  return {seconds_since(start), cpu_seconds() - cpu};
}

std::vector<SubspaceCluster> make_clusters(std::size_t count, std::uint32_t points, std::uint32_t n,
                                           std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<SubspaceCluster> clusters(count);
  for (auto& cluster : clusters) {
    for (std::uint32_t d = 0, dims = 2 + random() % 3; d < dims; ++d)
      cluster.dimensions.push_back(d * 100 + random() % 100);
    for (std::uint32_t p = 0; p < points; ++p) cluster.points.push_back(random() % n);
  }
  return clusters;
}

// The writer of 25edb2a, verbatim in what it does: sizes, one string, blocks in parallel.
namespace one_text {

constexpr std::size_t kClustersPerBlock = 4096;

std::size_t digits(std::uint32_t value) {
  std::size_t count = 1;
  while (value >= 10) value /= 10, ++count;
  return count;
}

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

std::string text(const std::vector<SubspaceCluster>& clusters) {
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

}  // namespace one_text

// How results_writer.cpp wrote a list before: flat copies of the whole list, then gzip level 4.
void write_list_before(io::Hdf5File& file, const std::string& group, const std::vector<SubspaceCluster>& clusters) {
  std::vector<std::uint32_t> dims, points;
  std::vector<std::uint64_t> dim_offsets{0}, point_offsets{0};
  for (const auto& cluster : clusters) {
    dims.insert(dims.end(), cluster.dimensions.begin(), cluster.dimensions.end());
    points.insert(points.end(), cluster.points.begin(), cluster.points.end());
    dim_offsets.push_back(dims.size());
    point_offsets.push_back(points.size());
  }
  file.create_group(group);
  file.write(group + "/dimensions", dims, 4);
  file.write(group + "/dimension_offsets", dim_offsets, 4);
  file.write(group + "/points", points, 4);
  file.write(group + "/point_offsets", point_offsets, 4);
}

void write_whole(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times the text writers of subspace clusters"};
  std::size_t count = 1'000'000;
  std::uint32_t points = 50, n = 1800, lists = 1;
  std::string out = "/tmp";
  bool skip_stream = false, hdf5 = false;
  int gzip = 0;
  app.add_option("--subspaces", count, "lists in each file");
  app.add_option("--points", points, "point ids in each list");
  app.add_option("--n", n, "ids are drawn from 0 .. n-1");
  app.add_option("--lists", lists, "files written (1 or 2: a run's subspaces.txt and clusters.txt)")
      ->check(CLI::Range(1, 2));
  app.add_option("--out", out, "folder for the files (removed after)");
  app.add_flag("--skip-stream", skip_stream, "leave out the slow stream form");
  app.add_flag("--hdf5", hdf5, "also time the lists into an HDF5 file, as before and as now");
  app.add_option("--gzip", gzip, "gzip level of the HDF5 writer of now (0: none, as a run's default)")
      ->check(CLI::Range(0, 9));
  CLI11_PARSE(app, argc, argv);
  std::vector<std::vector<SubspaceCluster>> all;
  for (std::uint32_t l = 0; l < lists; ++l) all.push_back(make_clusters(count, points, n, 1 + l));
  const auto file = [&](const char* writer, std::uint32_t l) {
    return out + "/text_writer_bench_" + writer + std::to_string(l) + ".txt";
  };

  double stream_seconds = 0;
  if (!skip_stream) {
    const auto start = Clock::now();
    for (std::uint32_t l = 0; l < lists; ++l) {
      std::ostringstream stream;
      for (const auto& cluster : all[l]) stream << cluster << '\n';
      write_whole(file("stream", l), stream.str());
    }
    stream_seconds = seconds_since(start);
  }
  const Timing one_text = timed([&] {
    for (std::uint32_t l = 0; l < lists; ++l) write_whole(file("one_text", l), one_text::text(all[l]));
  });
  const Timing pipelined = timed([&] {
    for (std::uint32_t l = 0; l < lists; ++l)
      io::write_text_file_in_blocks(file("pipelined", l),
                                    [&](const io::BlockSink& sink) { write_subspace_clusters_text(all[l], sink); });
  });

  bool equal = true;
  double megabytes = 0;
  for (std::uint32_t l = 0; l < lists; ++l) {
    const std::string reference = read_file(file("one_text", l));
    megabytes += static_cast<double>(reference.size()) / 1e6;
    equal = equal && read_file(file("pipelined", l)) == reference;
    if (!skip_stream) equal = equal && read_file(file("stream", l)) == reference;
    for (const char* writer : {"stream", "one_text", "pipelined"}) std::remove(file(writer, l).c_str());
  }
  std::printf(
      "| text, %u x 10^%.0f lists x %u ids | %.1f MB | stream %s | one text %.3f s (cpu %.3f s) | pipelined "
      "%.3f s (cpu %.3f s) | %.2fx | %s |\n",
      lists, std::log10(static_cast<double>(count)), points, megabytes,
      skip_stream ? "-" : (std::to_string(stream_seconds).substr(0, 5) + " s").c_str(), one_text.wall, one_text.cpu,
      pipelined.wall, pipelined.cpu, one_text.wall / pipelined.wall, equal ? "equal" : "DIFFERENT");
  if (hdf5) {
    const auto time_hdf5 = [&](const char* name, auto&& write_list) {
      const std::string path = out + "/text_writer_bench_" + name + ".h5";
      const Timing timing = timed([&] {
        io::Hdf5File h5(path, io::Hdf5File::Mode::create_truncate);
        for (std::uint32_t l = 0; l < lists; ++l) write_list(h5, "/list" + std::to_string(l), all[l]);
      });
      const double bytes = static_cast<double>(std::filesystem::file_size(path));
      const io::Hdf5File h5(path, io::Hdf5File::Mode::read);
      for (std::uint32_t l = 0; l < lists; ++l)
        equal = equal && io::read_cluster_list(h5, "/list" + std::to_string(l)) == all[l];
      std::remove(path.c_str());
      return std::pair{timing, bytes};
    };
    const auto [before, before_bytes] = time_hdf5("before", write_list_before);
    const auto [now, now_bytes] = time_hdf5("now", [&](io::Hdf5File& h5, const std::string& group, const auto& list) {
      io::write_cluster_list(h5, group, list, gzip);
    });
    std::printf(
        "| HDF5, %u list(s) | before (flat copies, gzip 4) %.3f s (cpu %.3f s), %.1f MB | now (blocks, gzip "
        "%d) %.3f s (cpu %.3f s), %.1f MB | %.2fx | %s |\n",
        lists, before.wall, before.cpu, before_bytes / 1e6, gzip, now.wall, now.cpu, now_bytes / 1e6,
        before.wall / now.wall, equal ? "equal" : "DIFFERENT");
    std::printf("| text + HDF5, %u list(s) | before %.3f s (cpu %.3f s) | now %.3f s (cpu %.3f s) | %.2fx |\n", lists,
                one_text.wall + before.wall, one_text.cpu + before.cpu, pipelined.wall + now.wall,
                pipelined.cpu + now.cpu, (one_text.wall + before.wall) / (pipelined.wall + now.wall));
  }
  return equal ? 0 : 1;
}
