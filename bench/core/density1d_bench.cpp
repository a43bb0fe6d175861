// density1d on the CPU (oneTBB, all cores) against the GPU on generated data, in one process:
// uniform values on a grid (so there are ties), n points x d dimensions. Checks that both give
// the same result and prints one Markdown row: where the GPU starts to pay.
//
//   density1d_bench --points N --dims D [--epsilon 0.01] [--min-points 4] [--grid 100000] [--header]
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>

#include "common/error.hpp"
#include "gpu/device_info.hpp"
#include "stages/density1d/density1d_cuda.hpp"

using namespace subscale;

namespace {

double seconds_of(const auto& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool same(const Density1dResult& a, const Density1dResult& b) {
  if (a.dimensions.size() != b.dimensions.size()) return false;
  for (std::size_t j = 0; j < a.dimensions.size(); ++j) {
    const auto &x = a.dimensions[j], &y = b.dimensions[j];
    if (x.order != y.order || x.window_end != y.window_end || x.labels != y.labels || x.clusters != y.clusters ||
        x.core_points != y.core_points)
      return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times density1d on the CPU and the GPU on generated data"};
  std::uint32_t points = 100000, dims = 100, min_points = 4, grid = 100000;
  double epsilon = 0.01;
  bool header = false;
  app.add_option("--points", points);
  app.add_option("--dims", dims);
  app.add_option("--epsilon", epsilon);
  app.add_option("--min-points", min_points);
  app.add_option("--grid", grid, "values are multiples of 1/grid (ties)");
  app.add_flag("--header", header);
  CLI11_PARSE(app, argc, argv);
  try {
    Matrix values(points, dims);
    std::mt19937_64 random(1);
    std::uniform_int_distribution<std::uint32_t> cell(0, grid - 1);
    for (Eigen::Index i = 0; i < values.size(); ++i) values.data()[i] = cell(random) / static_cast<double>(grid);
    const auto device = gpu::query_device();  // context creation outside the timings
    if (!device.available) throw ResourceError("no CUDA device: " + device.reason);
    const Density1dParams params{epsilon, min_points};
    Density1dResult cpu, gpu;
    const double cpu_seconds = seconds_of([&] { cpu = run_density1d(values, params); });
    const double gpu_seconds = seconds_of([&] { gpu = run_density1d_cuda(values, params); });
    if (header)
      std::printf(
          "| points | dims | values | cpu s | gpu s | cpu/gpu | equal |\n|---:|---:|---:|---:|---:|---:|---|\n");
    std::printf("| %u | %u | %.3g | %.3f | %.3f | %.2f | %s |\n", points, dims, static_cast<double>(values.size()),
                cpu_seconds, gpu_seconds, cpu_seconds / gpu_seconds, same(cpu, gpu) ? "yes" : "NO");
    return same(cpu, gpu) ? 0 : 1;
  } catch (const Error& error) {
    std::cerr << "density1d_bench: " << error.what() << "\n";
    return static_cast<int>(error.code());
  }
}
