// Hash throughput: GB/s and hashes/s for records of 4, 8, 16 and 64 bytes (default 10^8 records),
// every function, 32- and 64-bit hashes. The ceiling is a device-to-device cudaMemcpy of the same
// input, timed in the same run; the ratio hash/copy compares bytes moved per second (read +
// write for both). The CPU backend (oneTBB) is timed on the same records.
//
//   hash_throughput [--records N] [--sizes 4,8,16,64] [--functions a,b|all] [--widths 32,64]
//                   [--reps R] [--cpu-functions a,b|all|none] [--cpu-records N] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/generators/hash_input_generator.hpp"
#include "gpu/device_info.hpp"
#include "gpu/hash/hash_function_id.hpp"
#include "stages/hash/hash_rows.hpp"
#if defined(SUBSCALE_WITH_CUDA)
#include "gpu/device_buffer.hpp"
#include "gpu/device_stream.hpp"
#include "stages/hash/hash_rows_cuda.cuh"
#endif

namespace {

using namespace subscale;
using namespace subscale::hash;
#if defined(SUBSCALE_WITH_CUDA)
using subscale::gpu::DeviceBuffer;
using subscale::gpu::DeviceStream;
#endif

struct Options {
  std::size_t records = 100'000'000;
  std::vector<int> sizes = {4, 8, 16, 64};
  std::vector<std::string> functions;  // empty: all
  std::vector<int> widths = {32, 64};
  int reps = 5;
  std::vector<std::string> cpu_functions = {"fnv1a", "xor", "xor_hw", "mult_xor", "fmix64"};
  std::size_t cpu_records = 0;  // 0: same as records
  std::string json_path;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError("hash_throughput: " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--records")
      o.records = std::stoull(value());
    else if (a == "--sizes") {
      o.sizes.clear();
      for (const auto& s : split(value())) {
        const int bytes = std::stoi(s);
        if (bytes < 4 || bytes % 4 != 0) throw UsageError("hash_throughput: record sizes are multiples of 4 bytes");
        o.sizes.push_back(bytes);
      }
    } else if (a == "--functions") {
      const auto v = value();
      o.functions = v == "all" ? std::vector<std::string>{} : split(v);
    } else if (a == "--widths") {
      o.widths.clear();
      for (const auto& s : split(value())) o.widths.push_back(hash::parse_hash_width(std::stoi(s), "--widths"));
    } else if (a == "--reps")
      o.reps = std::max(1, std::stoi(value()));
    else if (a == "--cpu-functions") {
      const auto v = value();
      o.cpu_functions = v == "all" ? hash::hash_function_names() : v == "none" ? std::vector<std::string>{} : split(v);
    } else if (a == "--cpu-records")
      o.cpu_records = std::stoull(value());
    else if (a == "--json")
      o.json_path = value();
    else
      throw UsageError("hash_throughput: unknown option " + a);
  }
  if (o.functions.empty()) o.functions = hash::hash_function_names();
  for (const auto& f : o.functions) hash::parse_hash_spec(f, hash::kDefaultNRounds, "--functions");
  for (const auto& f : o.cpu_functions) hash::parse_hash_spec(f, hash::kDefaultNRounds, "--cpu-functions");
  if (o.cpu_records == 0) o.cpu_records = o.records;
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

#if defined(SUBSCALE_WITH_CUDA)
// Median seconds of `reps` runs of `work` on the stream, after one warm-up run.
template <class Work>
double time_gpu(int reps, cudaStream_t stream, Work&& work) {
  cudaEvent_t start, stop;
  SUBSCALE_CUDA_CHECK(cudaEventCreate(&start));
  SUBSCALE_CUDA_CHECK(cudaEventCreate(&stop));
  work();
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> seconds;
  for (int r = 0; r < reps; ++r) {
    SUBSCALE_CUDA_CHECK(cudaEventRecord(start, stream));
    work();
    SUBSCALE_CUDA_CHECK(cudaEventRecord(stop, stream));
    SUBSCALE_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    SUBSCALE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    seconds.push_back(ms / 1e3);
  }
  SUBSCALE_CUDA_CHECK(cudaEventDestroy(start));
  SUBSCALE_CUDA_CHECK(cudaEventDestroy(stop));
  return median(seconds);
}

// Spot-checks device hashes against the CPU definition (rows spread over the table).
template <class H>
void verify(const hash::HashSpec& spec, const std::vector<std::uint32_t>& words, int k, const H* d_out,
            std::size_t rows, const std::string& what) {
  for (std::size_t i = 0; i < 64; ++i) {
    const std::size_t r = (rows - 1) * i / 63;
    H got = 0;
    SUBSCALE_CUDA_CHECK(cudaMemcpy(&got, d_out + r, sizeof(H), cudaMemcpyDeviceToHost));
    const H want = hash::hash_words<H>(spec.function, words.data() + r * k, k, spec.rounds);
    if (got != want) throw Error(ExitCode::other, "hash_throughput: GPU hash differs from CPU for " + what);
  }
}
#endif

template <class H>
double time_cpu(const hash::HashSpec& spec, const RowTableView& table, std::vector<H>& out, int reps) {
  hash_rows_cpu<H>(spec, table, out);  // warm-up: pages touched, threads started
  std::vector<double> seconds;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    hash_rows_cpu<H>(spec, table, out);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(seconds);
}

int run(const Options& o) {
  nlohmann::json results = nlohmann::json::array();
  const auto device = gpu::query_device();
  std::printf("device: %s\n", device.available ? device.name.c_str() : ("none (" + device.reason + ")").c_str());
  std::printf("%-16s %5s %4s %7s %12s %10s %10s %10s %8s\n", "function", "bytes", "bits", "backend", "hashes/s",
              "in GB/s", "rw GB/s", "copy GB/s", "hash/copy");
  for (int size : o.sizes) {
    const int k = size / 4;
    const std::size_t max_rows = std::max(o.records, o.cpu_records);
    const auto words = generate_rows({InputDistribution::normal, max_rows, k, 2021});
#if defined(SUBSCALE_WITH_CUDA)
    if (device.available) {
      const std::size_t rows = o.records;
      DeviceBuffer<std::uint32_t> d_in(rows * k);
      DeviceBuffer<std::uint32_t> d_copy(rows * k);
      DeviceBuffer<std::uint64_t> d_out(rows);
      DeviceStream stream;
      SUBSCALE_CUDA_CHECK(cudaMemcpy(d_in.data(), words.data(), d_in.bytes(), cudaMemcpyHostToDevice));
      const double copy_s = time_gpu(o.reps, stream.get(), [&] {
        SUBSCALE_CUDA_CHECK(
            cudaMemcpyAsync(d_copy.data(), d_in.data(), d_in.bytes(), cudaMemcpyDeviceToDevice, stream.get()));
      });
      const double copy_gbps = 2.0 * static_cast<double>(d_in.bytes()) / copy_s / 1e9;
      for (const auto& name : o.functions) {
        const auto spec = hash::parse_hash_spec(name);
        for (int bits : o.widths) {
          double s = 0;
          if (bits == 32) {
            auto* out = reinterpret_cast<std::uint32_t*>(d_out.data());
            s = time_gpu(o.reps, stream.get(),
                         [&] { hash_rows_device<std::uint32_t>(spec, d_in.data(), rows, k, out, stream.get()); });
            verify<std::uint32_t>(spec, words, k, out, rows, name);
          } else {
            s = time_gpu(o.reps, stream.get(), [&] {
              hash_rows_device<std::uint64_t>(spec, d_in.data(), rows, k, d_out.data(), stream.get());
            });
            verify<std::uint64_t>(spec, words, k, d_out.data(), rows, name);
          }
          const double in_bytes = static_cast<double>(rows) * size;
          const double rw_gbps = (in_bytes + static_cast<double>(rows) * bits / 8) / s / 1e9;
          std::printf("%-16s %5d %4d %7s %12.3e %10.1f %10.1f %10.1f %7.1f%%\n", name.c_str(), size, bits, "cuda",
                      rows / s, in_bytes / s / 1e9, rw_gbps, copy_gbps, 100.0 * rw_gbps / copy_gbps);
          results.push_back({{"function", name},
                             {"record_bytes", size},
                             {"hash_bits", bits},
                             {"backend", "cuda"},
                             {"records", rows},
                             {"seconds", s},
                             {"hashes_per_s", rows / s},
                             {"input_gb_per_s", in_bytes / s / 1e9},
                             {"read_write_gb_per_s", rw_gbps},
                             {"copy_gb_per_s", copy_gbps},
                             {"ratio_to_copy", rw_gbps / copy_gbps}});
        }
      }
    }
#endif
    const RowTableView table{words.data(), o.cpu_records, k};
    for (const auto& name : o.cpu_functions) {
      const auto spec = hash::parse_hash_spec(name);
      for (int bits : o.widths) {
        double s = 0;
        if (bits == 32) {
          std::vector<std::uint32_t> out(table.rows);
          s = time_cpu(spec, table, out, std::min(o.reps, 3));
        } else {
          std::vector<std::uint64_t> out(table.rows);
          s = time_cpu(spec, table, out, std::min(o.reps, 3));
        }
        const double in_bytes = static_cast<double>(table.rows) * size;
        const double rw_gbps = (in_bytes + static_cast<double>(table.rows) * bits / 8) / s / 1e9;
        std::printf("%-16s %5d %4d %7s %12.3e %10.1f %10.1f %10s %8s\n", name.c_str(), size, bits, "cpu",
                    table.rows / s, in_bytes / s / 1e9, rw_gbps, "-", "-");
        results.push_back({{"function", name},
                           {"record_bytes", size},
                           {"hash_bits", bits},
                           {"backend", "cpu"},
                           {"records", table.rows},
                           {"seconds", s},
                           {"hashes_per_s", table.rows / s},
                           {"input_gb_per_s", in_bytes / s / 1e9},
                           {"read_write_gb_per_s", rw_gbps}});
      }
    }
    std::fflush(stdout);
  }
  if (!o.json_path.empty()) {
    std::ofstream(o.json_path)
        << nlohmann::json{{"device", device.available ? device.name : "none"}, {"results", results}}.dump(2) << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const subscale::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
