#include "pipeline/commands/hash_command.hpp"

#include <tbb/task_arena.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "common/error.hpp"
#include "datasets/generators/hash_input_generator.hpp"
#include "gpu/backend_choice.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_stream.hpp"
#include "gpu/hash/hash_function_id.hpp"
#include "io/atomic_output.hpp"
#include "io/hdf5_child_read.hpp"
#include "io/hdf5_file.hpp"
#include "pipeline/commands/config_subcommand.hpp"
#include "pipeline/output/output_paths.hpp"
#include "stages/hash/hash.hpp"

namespace subscale::pipeline {

ConfigSchema hash_command_schema() {
  using enum ValueKind;
  ConfigSchema s;
  s.add(
      config_key("input.file", path, "", "HDF5 file with the table (rows x columns); not needed with input.generate"));
  s.add(config_key("input.dataset", string, "/data",
                   "dataset path in input.file; 32-bit columns give one word, 64-bit columns two (low, high)"));
  s.add(one_of(
      config_key("input.generate", string, "none",
                 "instead of a file, a seeded table: normal(0.5, 0.1) words as in the seed, uniform, or sequential"),
      {"none", "normal", "uniform", "sequential"}));
  s.add(ranged(config_key("input.rows", integer, "100000", "rows of the generated table"), 1, 4294967295.0));
  s.add(ranged(config_key("input.row_words", integer, "1", "32-bit words per generated row"), 1, 1024));
  s.add(ranged(config_key("input.seed", integer, "1", "seed of the generated table"), 0));
  s.add(one_of(config_key("hash.function", string, "fmix64", "hash function; n_<name> are the seed's N-round versions"),
               hash::hash_function_names()));
  s.add(ranged(config_key("hash.rounds", integer, "2", "rounds of an n_ function"), 1, 64));
  s.add(ranged(config_key("hash.bits", integer, "64", "hash width: 32 or 64"), 32, 64));
  s.add(one_of(config_key("hash.backend", string, "auto", "cpu, cuda, or auto (cuda when a device is usable)"),
               {"cpu", "cuda"}, true));
  s.add(config_key("quality.enabled", boolean, "true",
                   "analyse the hashes (balance, avalanche, chi-square, collisions, low bits)"));
  s.add(ranged(
      config_key("quality.avalanche_samples", integer, "4096", "records whose input bits are flipped one by one"), 1));
  s.add(config_key("quality.radix_bits", string, "\"4,8,12,16\"",
                   "comma-separated radix widths for the low-bit balance (1..24)"));
  auto z = config_key("quality.z_limit", number, "6",
                      "standard errors from a random function's value before a measure is flagged");
  z.minimum = 0;
  z.minimum_exclusive = true;
  s.add(z);
  s.add(ranged(config_key("quality.seed", integer, "1", "which records the avalanche test samples"), 0));
  auto out = config_key("output.file", path, "", "HDF5 file for the hashes (dataset /hashes)");
  out.required = true;
  s.add(out);
  s.add(config_key("output.json", path, "", "JSON with the figures; default: output.file with the extension .json"));
  return s;
}

namespace {

struct Table {
  std::vector<std::uint32_t> words;
  std::size_t rows = 0;
  int row_words = 0;
  std::string source;  // for the report
};

// Copies the bits of each element into 32-bit words: 4-byte elements as one word, 8-byte ones as
// two (low word first). Signed and floating values keep their bit patterns.
template <class T>
void append_bits(const std::vector<T>& values, std::vector<std::uint32_t>& words) {
  constexpr std::size_t kWords = sizeof(T) / 4;
  words.resize(values.size() * kWords);
  std::memcpy(words.data(), values.data(), values.size() * sizeof(T));
}

Table read_table_here(const Config& config) {
  const auto path = config.file_path("input.file");
  const std::string dataset = config.string("input.dataset");
  io::Hdf5File file(path.string(), io::Hdf5File::Mode::read);
  if (!file.exists(dataset))
    throw InputError(path.string() + ": no dataset '" + dataset + "'; set input.dataset to the table's path");
  const auto info = file.info(dataset);
  if (info.shape.empty() || info.shape.size() > 2)
    throw InputError(path.string() + ":" + dataset + ": a table must be 1-D or 2-D, it has " +
                     std::to_string(info.shape.size()) + " dimensions");
  const std::uint64_t rows = info.shape[0];
  const std::uint64_t columns = info.shape.size() == 2 ? info.shape[1] : 1;
  if (rows == 0 || columns == 0)
    throw InputError(path.string() + ":" + dataset + ": the table is empty (" + std::to_string(rows) + " x " +
                     std::to_string(columns) + ")");
  if (rows > 0xFFFFFFFFull)
    throw InputError(path.string() + ":" + dataset + ": " + std::to_string(rows) + " rows; at most 2^32 - 1");
  Table t;
  t.rows = rows;
  t.source = path.string() + ":" + dataset;
  const bool wide = info.element_bytes == 8;
  if (info.element_bytes > 8 || info.element_class == io::ElementClass::other ||
      (info.element_class == io::ElementClass::floating && info.element_bytes != 4 && info.element_bytes != 8))
    throw InputError(t.source + ": elements of " + std::to_string(info.element_bytes) +
                     " bytes of this type cannot be hashed; use 8- to 64-bit integers or float32/float64");
  switch (info.element_class) {
    case io::ElementClass::floating:
      if (wide)
        append_bits(file.read<double>(dataset).data, t.words);
      else
        append_bits(file.read<float>(dataset).data, t.words);
      break;
    case io::ElementClass::signed_integer:
      if (wide)
        append_bits(file.read<std::int64_t>(dataset).data, t.words);
      else
        append_bits(file.read<std::int32_t>(dataset).data, t.words);
      break;
    default:
      if (wide)
        append_bits(file.read<std::uint64_t>(dataset).data, t.words);
      else
        append_bits(file.read<std::uint32_t>(dataset).data, t.words);
      break;
  }
  t.row_words = static_cast<int>(columns * (wide ? 2 : 1));
  return t;
}

// libhdf5 runs in a child process (io/hdf5_child_read.hpp): a damaged input file cannot crash the run.
Table read_table(const Config& config) {
  return io::read_hdf5_in_child<Table>(
      config.file_path("input.file").string(), [&] { return read_table_here(config); },
      [](io::ChildStreamWriter& out, const Table& table) {
        out.put_vector(table.words);
        out.put<std::uint64_t>(table.rows);
        out.put<std::int32_t>(table.row_words);
        out.put_string(table.source);
      },
      [](io::ChildStreamReader& in) {
        Table table;
        table.words = in.get_vector<std::uint32_t>();
        table.rows = in.get<std::uint64_t>();
        table.row_words = in.get<std::int32_t>();
        table.source = in.get_string();
        if (table.row_words <= 0 || table.words.size() != table.rows * static_cast<std::size_t>(table.row_words))
          throw InputError(table.source + ": the process reading the table sent a wrong size; the file is damaged");
        return table;
      });
}

Table make_table(const Config& config) {
  const std::string generate = config.string("input.generate");
  if (generate == "none") {
    if (!config.has("input.file"))
      throw UsageError(config.source_name() + ": set input.file (an HDF5 table) or input.generate");
    return read_table(config);
  }
  if (config.has("input.file"))
    throw UsageError(config.source_name() + ": input.file and input.generate are both set; keep one");
  hash::InputSpec spec;
  spec.distribution = hash::parse_input_distribution(generate, "input.generate");
  spec.rows = static_cast<std::size_t>(config.integer("input.rows"));
  spec.row_words = static_cast<int>(config.integer("input.row_words"));
  spec.seed = static_cast<std::uint64_t>(config.integer("input.seed"));
  Table t;
  t.words = hash::generate_rows(spec);
  t.rows = spec.rows;
  t.row_words = spec.row_words;
  t.source = "generated " + generate + " (seed " + std::to_string(spec.seed) + ")";
  return t;
}

subscale::Backend choose_backend(const Config& config) {
  return gpu::choose_backend(config.string("hash.backend"),
                             [](const std::string& name) { return hash::parse_backend(name, "hash.backend"); });
}

hash::QualityOptions quality_options(const Config& config) {
  hash::QualityOptions o;
  o.avalanche_samples = static_cast<std::size_t>(config.integer("quality.avalanche_samples"));
  o.z_limit = config.number("quality.z_limit");
  o.seed = static_cast<std::uint64_t>(config.integer("quality.seed"));
  o.radix_bits.clear();
  std::stringstream in(config.string("quality.radix_bits"));
  for (std::string item; std::getline(in, item, ',');) {
    try {
      std::size_t used = 0;
      const int bits = std::stoi(item, &used);
      if (used != item.size() || bits < 1 || bits > 24) throw std::invalid_argument(item);
      o.radix_bits.push_back(bits);
    } catch (const std::exception&) {
      throw UsageError(config.source_name() + ": quality.radix_bits has '" + item +
                       "'; give comma-separated widths from 1 to 24, e.g. \"4,8,12,16\"");
    }
  }
  return o;
}

std::filesystem::path output_file(const Config& config) { return config.file_path("output.file"); }
std::filesystem::path json_file(const Config& config) {
  return config.has("output.json") ? config.file_path("output.json")
                                   : std::filesystem::path(output_file(config)).replace_extension(".json");
}

template <class H>
HashCommandResult hash_and_report(const Config& config, const Table& table, const hash::HashSpec& spec,
                                  subscale::Backend backend, std::ostream& out) {
  const hash::RowTableView view{table.words.data(), table.rows, table.row_words};
  std::vector<H> hashes(table.rows);
  gpu::ExecutionStream gpu_stream;
  const gpu::ExecutionContext gpu = backend == Backend::cuda ? gpu_stream.context() : gpu::ExecutionContext{};
  const auto t0 = std::chrono::steady_clock::now();
  hash::hash_rows<H>(spec, view, hashes, backend, gpu);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const int bits = static_cast<int>(sizeof(H) * 8);
  char line[512];
  std::snprintf(line, sizeof line,
                "hash: %s%s, %d-bit, %s backend\ninput: %s, %zu rows of %d words\n"
                "time: %.4g s (%.3g hashes/s; for cuda, transfers included)\n",
                hash::hash_spec_name(spec).c_str(),
                spec.rounds > 1 ? (" (" + std::to_string(spec.rounds) + " rounds)").c_str() : "", bits,
                std::string(backend_name(backend)).c_str(), table.source.c_str(), table.rows, table.row_words, seconds,
                seconds > 0 ? static_cast<double>(table.rows) / seconds : 0.0);
  out << line;

  nlohmann::json json = {{"command", "hash"},
                         {"input", {{"source", table.source}, {"rows", table.rows}, {"row_words", table.row_words}}},
                         {"hash",
                          {{"function", hash::hash_spec_name(spec)},
                           {"rounds", spec.rounds},
                           {"bits", bits},
                           {"backend", backend_name(backend)}}},
                         {"threads", tbb::this_task_arena::max_concurrency()},
                         {"seconds", seconds}};
  HashCommandResult result;
  if (config.boolean("quality.enabled")) {
    const auto report = hash::analyse_hash_quality<H>(spec, view, std::span<const H>(hashes), quality_options(config));
    out << "quality (over " << report.collisions.distinct_records << " distinct records):\n"
        << hash::format_quality_table(report);
    json["quality"] = hash::quality_to_json(report);
    result.quality_pass = report.pass();
  }

  result.hashes_file = output_file(config);
  result.json_file = json_file(config);
  for (const auto& file : {result.hashes_file, result.json_file})
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  {
    io::AtomicOutput output(result.hashes_file);
    {
      io::Hdf5File file(output.temporary_path().string(), io::Hdf5File::Mode::create_truncate);
      file.write("/hashes", hashes);
      file.write_string_attribute("/hashes", "function", hash::hash_spec_name(spec));
      file.write_int_attribute("/hashes", "rounds", spec.rounds);
      file.write_int_attribute("/hashes", "bits", bits);
      file.write_int_attribute("/hashes", "row_words", table.row_words);
      file.write_string_attribute("/hashes", "source", table.source);
      file.close();  // a full disk shows here, naming the file; nothing is renamed into place
    }
    io::write_text_file(result.json_file, json.dump(2) + "\n");
    output.commit();  // the HDF5 file appears last, once everything else is written
  }
  out << "wrote " << result.hashes_file.string() << " and " << result.json_file.string() << "\n";
  return result;
}

}  // namespace

HashCommandResult run_hash_command(const Config& config, std::ostream& out) {
  const auto spec = hash::parse_hash_spec(config.string("hash.function"),
                                          static_cast<int>(config.integer("hash.rounds")), "hash.function");
  const int bits = hash::parse_hash_width(config.integer("hash.bits"), "hash.bits");
  const auto backend = choose_backend(config);
  quality_options(config);  // refuse a bad radix list before any work
  // Before the table is read: an output renamed into place over input.file would replace it.
  check_output_paths(
      {{output_file(config), "output.file"},
       {json_file(config), config.has("output.json") ? "output.json" : "output.json (output.file with .json)"}},
      {{config.has("input.file") ? config.file_path("input.file") : std::filesystem::path(), "input.file"}});
  const Table table = make_table(config);
  return bits == 32 ? hash_and_report<std::uint32_t>(config, table, spec, backend, out)
                    : hash_and_report<std::uint64_t>(config, table, spec, backend, out);
}

void add_hash_command(CLI::App& app) {
  add_config_subcommand(
      app, "hash", "Hash every row of a table, write the hashes and a quality report (table + JSON)",
      "configs/hash_quickstart.yaml", "hash.function=xor_hw hash.bits=32", hash_command_schema(),
      [](const Config& config) { run_hash_command(config, std::cout); },
      "hash a smaller table or set quality.enabled=false");
}

}  // namespace subscale::pipeline
