// Times the filter stage (docs/stages.md §4) on generated data, GPU and CPU in the same run:
//   q6:      TPC-H Q6 at scale factor --sf (SF 10 = 60 M rows): the fused kernel with the columns
//            already on the device, the same plus the host-to-device copy, the general (bitmap)
//            path, the id compactions, and the CPU backend; the bytes of the four columns over
//            the time, against a device-to-device cudaMemcpy of the same bytes (read + write).
//   strings: --strings N strings: equality and prefix; contains with naive, KMP and BMH on random
//            text and on text full of partial matches; the regex automaton on the GPU against the
//            CPU backend; lane refill against a lane per string and a warp per string on Zipf
//            lengths.
// Each case runs --repeats times after one untimed warm-up; the median is printed (and every
// run goes to --json FILE). GPU times are the kernels' (CUDA events); "h2d" is the column upload.
//
//   filter_bench [--only q6|strings|all] [--sf 10] [--strings 100000000] [--repeats 5]
//                [--threads 0] [--json FILE]
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "datasets/generators/filter_generators.hpp"
#include "gpu/device_info.hpp"
#include "stages/filter/filter.hpp"

#if defined(SUBSCALE_WITH_CUDA)
#include "gpu/device_buffer.hpp"
#endif

namespace sf = subscale::filter;

namespace {

struct Args {
  std::string only = "all";
  double scale_factor = 10;
  std::uint64_t strings = 100000000;
  int repeats = 5;
  int threads = 0;
  std::string json;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw subscale::UsageError(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--only")
      a.only = value();
    else if (flag == "--sf")
      a.scale_factor = std::stod(value());
    else if (flag == "--strings")
      a.strings = std::stoull(value());
    else if (flag == "--repeats")
      a.repeats = std::stoi(value());
    else if (flag == "--threads")
      a.threads = std::stoi(value());
    else if (flag == "--json")
      a.json = value();
    else
      throw subscale::UsageError("unknown option " + flag);
  }
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

nlohmann::json all_runs = nlohmann::json::array();

struct Measured {
  double seconds = 0;  // median of the measured quantity
  double h2d = 0;      // median upload (cuda)
  sf::FilterResult last;
};

// Runs the filter `repeats` times after a warm-up; `pick` chooses the timed quantity.
Measured measure(const std::string& name, const sf::ColumnTable& table, const sf::Predicate& predicate,
                 const sf::Aggregate& aggregate, const sf::FilterOptions& options, int repeats,
                 const std::function<double(const sf::FilterResult&)>& pick) {
  Measured m;
  std::vector<double> times, uploads;
  for (int r = 0; r <= repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    m.last = sf::run_filter(table, predicate, aggregate, options);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r == 0) continue;  // warm-up
    times.push_back(pick ? pick(m.last) : wall);
    uploads.push_back(m.last.timings.transfer_in_seconds);
    all_runs.push_back({{"case", name},
                        {"backend", sf::to_string(options.backend)},
                        {"seconds", times.back()},
                        {"wall_seconds", wall},
                        {"h2d_seconds", uploads.back()},
                        {"selected", m.last.selected},
                        {"path", m.last.timings.path}});
  }
  m.seconds = median(times);
  m.h2d = median(uploads);
  return m;
}

double device_select(const sf::FilterResult& r) { return r.timings.select_seconds; }

// Device-to-device copy of `bytes`: (read + write) bytes per second, the bandwidth ceiling.
double copy_bandwidth(std::uint64_t bytes, int repeats) {
#if defined(SUBSCALE_WITH_CUDA)
  subscale::gpu::DeviceBuffer<unsigned char> a(bytes), b(bytes);
  SUBSCALE_CUDA_CHECK(cudaMemset(a.data(), 1, bytes));
  cudaEvent_t start, stop;
  SUBSCALE_CUDA_CHECK(cudaEventCreate(&start));
  SUBSCALE_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int r = 0; r <= repeats; ++r) {
    SUBSCALE_CUDA_CHECK(cudaEventRecord(start));
    SUBSCALE_CUDA_CHECK(cudaMemcpy(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice));
    SUBSCALE_CUDA_CHECK(cudaEventRecord(stop));
    SUBSCALE_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    SUBSCALE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r > 0) times.push_back(ms / 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return 2.0 * static_cast<double>(bytes) / median(times);
#else
  (void)bytes;
  (void)repeats;
  return 0;
#endif
}

std::uint64_t column_bytes(const sf::ColumnTable& table) {
  std::uint64_t bytes = 0;
  for (const auto& c : table.columns)
    std::visit(
        [&](const auto& v) {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>, sf::StringColumn>)
            bytes += v.offsets.size() * 8 + v.bytes.size();
          else
            bytes += v.size() * sizeof(v[0]);
        },
        c.values);
  return bytes;
}

void q6(const Args& args, bool gpu) {
  std::printf("== Q6, SF %g\n", args.scale_factor);
  const sf::ColumnTable table = sf::generate_lineitem(args.scale_factor, 1);
  const sf::Predicate predicate = sf::compile_predicate(
      YAML::Load("[{column: l_shipdate, ge: 1994-01-01, lt: 1995-01-01}, {column: l_discount, between: [0.05, 0.07]},"
                 " {column: l_quantity, lt: 24}]"),
      table, "bench");
  sf::Aggregate aggregate;
  aggregate.function = sf::AggregateFunction::sum;
  aggregate.expression = sf::compile_expression("l_extendedprice * l_discount", table, "bench");
  const std::uint64_t bytes = column_bytes(table);
  std::printf("rows %zu, column bytes %.3f GB, threads %d\n", table.rows(), bytes / 1e9,
              static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
  sf::FilterOptions cpu;
  cpu.want_ids = false;
  const Measured c = measure("q6 cpu", table, predicate, aggregate, cpu, args.repeats, nullptr);
  std::printf("%-34s %10.3f ms  %8.1f GB/s  sum = %s (%llu rows)\n", "cpu (all threads)", c.seconds * 1e3,
              bytes / c.seconds / 1e9, c.last.aggregate->text().c_str(),
              static_cast<unsigned long long>(c.last.selected));
  if (!gpu) return;
  const double copy = copy_bandwidth(bytes, args.repeats);
  std::printf("device-to-device copy of the same bytes: %.1f GB/s (read + write)\n", copy / 1e9);
  sf::FilterOptions fused;
  fused.backend = subscale::Backend::cuda;
  fused.want_ids = false;
  const Measured g = measure("q6 cuda fused", table, predicate, aggregate, fused, args.repeats, device_select);
  const bool same = g.last.aggregate->scaled == c.last.aggregate->scaled && g.last.selected == c.last.selected;
  std::printf("%-34s %10.3f ms  %8.1f GB/s  %5.1f%% of copy  sum %s cpu\n", "cuda fused, columns on device",
              g.seconds * 1e3, bytes / g.seconds / 1e9, 100.0 * bytes / g.seconds / copy, same ? "==" : "!=");
  std::printf("%-34s %10.3f ms  (h2d %.3f ms)  %.2fx the cpu\n", "cuda fused, with the h2d copy",
              (g.seconds + g.h2d) * 1e3, g.h2d * 1e3, c.seconds / (g.seconds + g.h2d));
  std::printf("%-34s %10.2fx\n", "cuda on device / cpu", c.seconds / g.seconds);
  std::printf("%-34s %s\n", "fused kernel", g.last.timings.path.c_str());
  // The fused kernel before the vectorised one (a row per lane, 8-byte loads, leaves one after
  // another), in the same run.
  sf::FilterOptions per_lane = fused;
  per_lane.vector_fused = false;
  const Measured l =
      measure("q6 cuda fused row per lane", table, predicate, aggregate, per_lane, args.repeats, device_select);
  const bool same_lane = l.last.aggregate->scaled == c.last.aggregate->scaled && l.last.selected == c.last.selected;
  std::printf("%-34s %10.3f ms  %8.1f GB/s  %5.1f%% of copy  sum %s cpu\n", "cuda fused, row per lane (before)",
              l.seconds * 1e3, bytes / l.seconds / 1e9, 100.0 * bytes / l.seconds / copy, same_lane ? "==" : "!=");
  sf::FilterOptions general = fused;
  general.fused = false;
  const Measured b = measure("q6 cuda bitmap", table, predicate, aggregate, general, args.repeats, device_select);
  std::printf("%-34s %10.3f ms  %8.1f GB/s  %5.1f%% of copy\n", "cuda per-leaf bitmaps (not fused)", b.seconds * 1e3,
              bytes / b.seconds / 1e9, 100.0 * bytes / b.seconds / copy);
  // What the vectorised kernel fetches: the three predicate columns whole, and of l_extendedprice
  // only the 32-byte sectors (4 rows) that hold a selected row. The measure above counts
  // all four columns, which a kernel that skips unselected prices can exceed the copy rate by.
  {
    sf::FilterOptions ids = fused;
    ids.want_ids = true;
    const sf::FilterResult r = sf::run_filter(table, predicate, aggregate, ids);
    std::uint64_t sectors = 0;
    for (std::size_t i = 0; i < r.ids.size(); ++i) sectors += i == 0 || r.ids[i] / 4 != r.ids[i - 1] / 4;
    const double fetched = static_cast<double>(table.rows()) * (8 + 8 + 4) + 32.0 * static_cast<double>(sectors);
    std::printf("%-34s %10.3f GB  %8.1f GB/s  %5.1f%% of copy  (%llu price sectors of %llu)\n",
                "bytes the fused kernel fetches", fetched / 1e9, fetched / g.seconds / 1e9,
                100.0 * fetched / g.seconds / copy, static_cast<unsigned long long>(sectors),
                static_cast<unsigned long long>((table.rows() + 3) / 4));
  }
  for (const auto compaction : {sf::Compaction::bitmap_words, sf::Compaction::cub_select}) {
    sf::FilterOptions ids = fused;
    ids.want_ids = true;
    ids.compaction = compaction;
    const Measured k = measure("q6 ids " + sf::to_string(compaction), table, predicate, aggregate, ids, args.repeats,
                               [](const sf::FilterResult& r) { return r.timings.compact_seconds; });
    std::printf("ids by %-27s %10.3f ms  (%llu ids; the fused pass writing the bitmap: %.3f ms)\n",
                sf::to_string(compaction).c_str(), k.seconds * 1e3, static_cast<unsigned long long>(k.last.selected),
                k.last.timings.select_seconds * 1e3);
  }
}

struct StringCase {
  std::string name;
  std::string where;
};

void run_string_cases(const std::string& title, const sf::ColumnTable& table, const std::vector<StringCase>& cases,
                      const std::vector<sf::StringLayout>& layouts, bool cpu_too, const Args& args, bool gpu,
                      double copy) {
  const std::uint64_t bytes = column_bytes(table);
  std::printf("-- %s: %zu strings, %.3f GB (offsets + bytes)\n", title.c_str(), table.rows(), bytes / 1e9);
  for (const auto& c : cases) {
    const sf::Predicate predicate = sf::compile_predicate(YAML::Load(c.where), table, "bench");
    double cpu_seconds = 0;
    if (cpu_too) {
      sf::FilterOptions cpu;
      cpu.want_ids = false;
      const Measured m =
          measure(title + " " + c.name + " cpu", table, predicate, sf::Aggregate{}, cpu, args.repeats, nullptr);
      cpu_seconds = m.seconds;
      std::printf("  %-28s %-16s %10.3f ms  %8.1f GB/s  (%llu selected)\n", c.name.c_str(), "cpu", m.seconds * 1e3,
                  bytes / m.seconds / 1e9, static_cast<unsigned long long>(m.last.selected));
    }
    if (!gpu) continue;
    for (const auto layout : layouts) {
      sf::FilterOptions o;
      o.backend = subscale::Backend::cuda;
      o.want_ids = false;
      o.string_layout = layout;
      const Measured m = measure(title + " " + c.name + " " + sf::to_string(layout), table, predicate, sf::Aggregate{},
                                 o, args.repeats, device_select);
      std::printf("  %-28s %-16s %10.3f ms  %8.1f GB/s  %5.1f%% of copy", c.name.c_str(), sf::to_string(layout).c_str(),
                  m.seconds * 1e3, bytes / m.seconds / 1e9, 100.0 * bytes / m.seconds / copy);
      if (cpu_too) std::printf("  %6.1fx cpu", cpu_seconds / m.seconds);
      std::printf("\n");
    }
  }
}

void strings(const Args& args, bool gpu) {
  std::printf("== strings, %llu rows\n", static_cast<unsigned long long>(args.strings));
  sf::StringGeneratorOptions o;
  o.rows = args.strings;
  o.min_length = 0;
  o.max_length = 64;
  o.alphabet = 4;
  o.needle = "abcabdabca";
  o.needle_probability = 0.01;
  double copy = 0;
  const std::vector<sf::StringLayout> refill{sf::StringLayout::lane_refill};
  const std::vector<sf::StringLayout> all{sf::StringLayout::lane_refill, sf::StringLayout::lane_per_string,
                                          sf::StringLayout::warp_per_string};
  {
    const sf::ColumnTable random = sf::generate_strings(o);
    copy = gpu ? copy_bandwidth(column_bytes(random), args.repeats) : 0;
    if (gpu) std::printf("device-to-device copy of the column's bytes: %.1f GB/s (read + write)\n", copy / 1e9);
    run_string_cases("uniform 0..64, random text", random,
                     {{"equals", "{column: text, equals: abcabdabcabdab}"},
                      {"prefix", "{column: text, prefix: abca}"},
                      {"contains naive", "{column: text, contains: abcabdabca, algorithm: naive}"},
                      {"contains kmp", "{column: text, contains: abcabdabca, algorithm: kmp}"},
                      {"contains bmh", "{column: text, contains: abcabdabca, algorithm: bmh}"},
                      {"regex", "{column: text, regex: '(ab|cd)[a-c]*dd'}"}},
                     all, true, args, gpu, copy);
  }
  {
    // Runs of 9 a's then z: at every position of a run the naive loop compares up to 9 bytes
    // before it fails (the seed's case of many partial matches).
    o.text = sf::TextKind::partial_matches;
    o.needle = "aaaaaaaaab";
    const sf::ColumnTable partial = sf::generate_strings(o);
    run_string_cases("uniform 0..64, partial matches", partial,
                     {{"contains naive", "{column: text, contains: aaaaaaaaab, algorithm: naive}"},
                      {"contains kmp", "{column: text, contains: aaaaaaaaab, algorithm: kmp}"},
                      {"contains bmh", "{column: text, contains: aaaaaaaaab, algorithm: bmh}"}},
                     refill, true, args, gpu, copy);
    o.needle = "abcabdabca";
  }
  o.text = sf::TextKind::random;
  o.lengths = sf::LengthDistribution::zipf;
  o.alpha = 0.5;
  o.max_length = 1024;
  o.rows = args.strings / 16;  // mean length about 340: about 2/3 of the bytes above; a few long strings
  const sf::ColumnTable zipf = sf::generate_strings(o);
  run_string_cases("zipf(0.5) lengths 0..1024", zipf,
                   {{"contains bmh", "{column: text, contains: abcabdabca, algorithm: bmh}"},
                    {"contains kmp", "{column: text, contains: abcabdabca, algorithm: kmp}"},
                    {"regex", "{column: text, regex: '(ab|cd)[a-c]*dd'}"}},
                   all, false, args, gpu, copy);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    std::unique_ptr<tbb::global_control> limit;
    if (args.threads > 0)
      limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, args.threads);
    const auto device = subscale::gpu::query_device();
    std::printf("device: %s; cpu threads: %d\n", device.available ? device.name.c_str() : device.reason.c_str(),
                static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
    if (args.only == "q6" || args.only == "all") q6(args, device.available);
    if (args.only == "strings" || args.only == "all") strings(args, device.available);
    if (!args.json.empty()) {
      std::ofstream out(args.json);
      out << nlohmann::json{{"device", device.name}, {"runs", all_runs}}.dump(2) << "\n";
    }
    return 0;
  } catch (const subscale::Error& error) {
    std::fprintf(stderr, "filter_bench: %s\n", error.what());
    return static_cast<int>(error.code());
  }
}
