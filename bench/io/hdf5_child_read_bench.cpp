// Times the HDF5 data reader the way the product reads (libhdf5 in a child process that streams the
// rows through a pipe, io/hdf5_child_read.hpp) against the reader in this process
// (SUBSCALE_HDF5_IN_PROCESS=1), on one file of --points x --dims float64 written first (chunked
// and gzip-compressed with --gzip L, else contiguous). The two modes alternate, --repeat times each;
// every read is checked equal to the data written. With --only child|process just that mode runs,
// so that the peak memory printed at the end (this process's and its children's, from getrusage)
// belongs to it.
//
//   hdf5_child_read_bench [--points 2000000] [--dims 20] [--repeat 5] [--gzip 0] [--only MODE] [--out /tmp]
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "io/hdf5_dataset_reader.hpp"
#include "io/hdf5_dataset_writer.hpp"

using namespace subscale;

namespace {

using Clock = std::chrono::steady_clock;

double read_seconds(const std::string& path, bool in_child, const Dataset& expected) {
  if (in_child)
    unsetenv("SUBSCALE_HDF5_IN_PROCESS");
  else
    setenv("SUBSCALE_HDF5_IN_PROCESS", "1", 1);
  const auto start = Clock::now();
  const Dataset read = io::read_hdf5_dataset(path);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!(read.values == expected.values)) {
    std::fprintf(stderr, "hdf5_child_read_bench: the %s read differs from the data written\n",
                 in_child ? "child" : "in-process");
    std::exit(1);
  }
  return seconds;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"HDF5 data read in a child process vs in this process"};
  std::uint64_t points = 2'000'000, dims = 20;
  int repeat = 5, gzip = 0;
  std::string only, out = "/tmp";
  app.add_option("--points", points);
  app.add_option("--dims", dims);
  app.add_option("--repeat", repeat);
  app.add_option("--gzip", gzip);
  app.add_option("--only", only)->check(CLI::IsMember({"child", "process"}));
  app.add_option("--out", out);
  CLI11_PARSE(app, argc, argv);

  Dataset data;
  data.values.resize(static_cast<Eigen::Index>(points), static_cast<Eigen::Index>(dims));
  for (Eigen::Index j = 0; j < data.values.cols(); ++j)
    for (Eigen::Index i = 0; i < data.values.rows(); ++i)
      data.values(i, j) = static_cast<double>((i * 7919 + j * 104729) % 1000003) / 1000003.0;
  const std::string path = (std::filesystem::path(out) / "hdf5_child_read_bench.h5").string();
  io::Hdf5WriteOptions options;
  options.gzip_level = gzip;
  io::write_hdf5_dataset(data, path, options);
  std::printf("file: %s, %llu x %llu float64 (%.1f MiB of values, %.1f MiB on disk, gzip %d)\n", path.c_str(),
              static_cast<unsigned long long>(points), static_cast<unsigned long long>(dims),
              static_cast<double>(points * dims * 8) / 1048576.0,
              static_cast<double>(std::filesystem::file_size(path)) / 1048576.0, gzip);

  std::vector<double> child, process;
  for (int r = 0; r < repeat; ++r) {
    if (only != "process") child.push_back(read_seconds(path, true, data));
    if (only != "child") process.push_back(read_seconds(path, false, data));
  }
  const double values_mib = static_cast<double>(points * dims * 8) / 1048576.0;
  if (!child.empty())
    std::printf("child process: median %.3f s, best %.3f s (%.0f MiB/s)\n", median(child),
                *std::min_element(child.begin(), child.end()), values_mib / median(child));
  if (!process.empty())
    std::printf("in process:    median %.3f s, best %.3f s (%.0f MiB/s)\n", median(process),
                *std::min_element(process.begin(), process.end()), values_mib / median(process));
  if (!child.empty() && !process.empty())
    std::printf("ratio child / in process (medians): %.2f\n", median(child) / median(process));
  rusage self{}, children{};
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  std::printf("peak resident memory: this process %.1f MiB, largest child %.1f MiB\n",
              static_cast<double>(self.ru_maxrss) / 1024.0, static_cast<double>(children.ru_maxrss) / 1024.0);
  std::filesystem::remove(path);
  return 0;
}
