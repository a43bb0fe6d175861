#include "pipeline/commands/join_command.hpp"

#include <tbb/task_arena.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/error.hpp"
#include "datasets/generators/join_generators.hpp"
#include "gpu/backend_choice.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_stream.hpp"
#include "io/atomic_output.hpp"
#include "io/hdf5_child_read.hpp"
#include "io/hdf5_file.hpp"
#include "io/host_memory.hpp"
#include "pipeline/commands/config_subcommand.hpp"
#include "pipeline/output/output_paths.hpp"
#include "pipeline/steps/join_table_reader.hpp"
#include "stages/join/join.hpp"
#include "stages/join/join_memory.hpp"

namespace subscale::pipeline {

ConfigSchema join_command_schema() {
  using enum ValueKind;
  ConfigSchema s;
  for (const std::string side : {"r", "s"}) {
    const std::string role = side == "r" ? "R (the build side: its columns are attached)"
                                         : "S (the probe side: its rows are kept, in order)";
    s.add(
        config_key(side + ".file", path, "", "HDF5 file of table " + role + "; not needed with generate.distribution"));
    s.add(config_key(side + ".key", string, "/ids", "1-D integer dataset with the join key of table " + side));
    s.add(config_key(side + ".data", string, "/data",
                     "1-D or 2-D (rows, columns) numeric dataset of table " + side + "'s columns; \"\" for none"));
  }
  s.add(
      one_of(config_key("generate.distribution", string, "none",
                        "instead of files, seeded key columns (output.mode=pairs): uniform (with generate.overlap) or "
                        "zipf (S skewed by generate.alpha over R's keys)"),
             {"none", "uniform", "zipf"}));
  s.add(ranged(config_key("generate.r_rows", integer, "1000000", "rows of the generated R"), 0, 4294967294.0));
  s.add(ranged(config_key("generate.s_rows", integer, "1000000", "rows of the generated S"), 0, 4294967294.0));
  s.add(ranged(config_key("generate.overlap", number, "1.0", "uniform: fraction of S rows whose key is in R"), 0, 1));
  s.add(ranged(config_key("generate.alpha", number, "1.0", "zipf: the skew (0 = uniform)"), 0));
  s.add(config_key("generate.unique_r", boolean, "true", "R's keys form a primary key (false: duplicates in R)"));
  s.add(ranged(config_key("generate.seed", integer, "1", "seed of the generated keys"), 0));
  s.add(one_of(config_key("join.backend", string, "auto", "cpu, cuda, or auto (cuda when a device is usable)"),
               {"cpu", "cuda"}, true));
  s.add(one_of(config_key("join.hash", string, "fmix64", "hash the partitions and buckets come from"),
               {"fmix64", "fnv1a64"}));
  s.add(
      automatic(ranged(config_key("join.radix_bits", integer, "auto", "bits per radix pass (fan-out 2^bits)"), 1, 11)));
  s.add(automatic(ranged(config_key("join.passes", integer, "auto", "radix passes"), 1, 4)));
  s.add(ranged(config_key("join.probe_chunk", integer, "4096", "at most this many S rows per probe work item"), 1,
               4294967295.0));
  s.add(
      automatic(config_key("join.memory_budget", bytes, "auto",
                           "working memory of the backend (device for cuda), e.g. 8GiB; auto = most of what is free")));
  s.add(one_of(config_key("output.mode", string, "attach",
                          "attach: S's rows with R's columns (/data, /ids, /labels); pairs: /r_row and /s_row"),
               {"attach", "pairs"}));
  auto out = config_key("output.file", path, "", "HDF5 file for the result");
  out.required = true;
  s.add(out);
  s.add(config_key("output.json", path, "", "JSON summary; default: output.file with the extension .json"));
  return s;
}

namespace {

struct LabelsOfS {
  bool present = false;
  std::vector<std::int64_t> values;
};

LabelsOfS read_labels_beside_here(const std::filesystem::path& path, const std::string& data_dataset,
                                  std::size_t rows) {
  LabelsOfS labels;
  const io::Hdf5File file(path.string(), io::Hdf5File::Mode::read);
  const auto slash = data_dataset.find_last_of('/');
  const std::string group = slash == std::string::npos ? std::string() : data_dataset.substr(0, slash);
  const std::string path_of_labels = group + "/labels";
  if (!file.exists(path_of_labels)) return labels;
  labels.values = file.read<std::int64_t>(path_of_labels).data;
  if (labels.values.size() != rows)
    throw InputError(file.path() + ":" + path_of_labels + ": " + std::to_string(labels.values.size()) + " labels for " +
                     std::to_string(rows) + " rows");
  labels.present = true;
  return labels;
}

// libhdf5 runs in a child process (io/hdf5_child_read.hpp): a damaged input file cannot crash the join.
LabelsOfS read_labels_beside(const std::filesystem::path& path, const std::string& data_dataset, std::size_t rows) {
  return io::read_hdf5_in_child<LabelsOfS>(
      path.string(), [&] { return read_labels_beside_here(path, data_dataset, rows); },
      [](io::ChildStreamWriter& out, const LabelsOfS& labels) {
        out.put<std::uint8_t>(labels.present);
        out.put_vector(labels.values);
      },
      [&](io::ChildStreamReader& in) {
        LabelsOfS labels;
        labels.present = in.get<std::uint8_t>() != 0;
        labels.values = in.get_vector<std::int64_t>();
        if (labels.present && labels.values.size() != rows)
          throw InputError(path.string() + ": the process reading the labels sent a wrong count; the file is damaged");
        return labels;
      });
}

join::JoinOptions join_options(const Config& config) {
  join::JoinOptions o;
  o.backend = gpu::choose_backend(config.string("join.backend"), join::parse_backend);
  o.hash = join::parse_join_hash(config.string("join.hash"));
  o.radix_bits = config.is_auto("join.radix_bits") ? 0 : static_cast<int>(config.integer("join.radix_bits"));
  o.passes = config.is_auto("join.passes") ? 0 : static_cast<int>(config.integer("join.passes"));
  o.probe_chunk = static_cast<std::uint32_t>(config.integer("join.probe_chunk"));
  o.memory_budget_bytes = config.is_auto("join.memory_budget") ? 0 : config.bytes("join.memory_budget");
  o.sort_output = true;  // a file with a defined order: by S row, then R row
  join::validate(o);
  return o;
}

nlohmann::json timings_json(const join::JoinTimings& t) {
  return {{"transfer_in_s", t.transfer_in_seconds},
          {"partition_s", t.partition_seconds},
          {"probe_s", t.probe_seconds},
          {"transfer_out_s", t.transfer_out_seconds},
          {"join_s", t.join_seconds()},
          {"partitions", t.partitions},
          {"work_items", t.work_items},
          {"prebuilt_tables", t.prebuilt_tables},
          {"output_batches", t.output_batches}};
}

// What to do when the result does not fit host memory depends on the mode: pairs are the least a
// join can write, so only attach mode is sent to pairs.
std::string memory_advice(const std::string& mode) {
  return mode == "attach"
             ? "set output.mode=pairs to write the row pairs alone (8 bytes a pair, no columns), make the join "
               "more selective, or join S in pieces (a part of s.file's rows each time)"
             : "make the join more selective (keys repeated in both R and S multiply into many pairs), or join S "
               "in pieces (a part of s.file's rows each time) and keep each piece's pairs";
}

// The pairs, ordered by (S row, R row), gathered from the join's batches once their total is known
// to fit host memory (twice over: sorting needs a second copy), before any is allocated.
join::JoinPairs gather_pairs(const join::ColumnTable& r, const join::ColumnTable& s, const join::JoinOptions& options,
                             const std::string& mode, join::JoinTimings& timings, const gpu::ExecutionContext& gpu) {
  join::JoinPairs pairs;
  join::PairSink sink;
  sink.on_total = [&](std::uint64_t total) {
    const std::uint64_t bytes = total * join::kBytesPerOutputPair * 2;
    const std::uint64_t available = io::available_host_memory();
    if (bytes > available)
      throw ResourceError("the join produces " + std::to_string(total) + " pairs of " + std::to_string(r.rows()) +
                          " R rows and " + std::to_string(s.rows()) + " S rows: " + io::describe_bytes(bytes) +
                          " to hold and sort them, more than the " + io::describe_bytes(available) +
                          " of host memory available; nothing was written. " + memory_advice(mode));
    pairs.r_rows.reserve(total);
    pairs.s_rows.reserve(total);
  };
  sink.on_batch = [&](std::span<const std::uint32_t> r_rows, std::span<const std::uint32_t> s_rows) {
    pairs.r_rows.insert(pairs.r_rows.end(), r_rows.begin(), r_rows.end());
    pairs.s_rows.insert(pairs.s_rows.end(), s_rows.begin(), s_rows.end());
  };
  join::hash_join_batches(r.keys, s.keys, options, sink, &timings, gpu);
  join::sort_pairs(pairs);
  return pairs;
}

// Attach mode holds the joined columns twice (as columns, then as the row-major matrix written).
void check_attached_fits(const join::ColumnTable& r, const join::ColumnTable& s, std::size_t pairs) {
  const std::uint64_t columns = r.columns.size() + s.columns.size();
  const auto bytes = io::checked_bytes({pairs, columns * 2 + 1}, sizeof(double));
  const std::uint64_t available = io::available_host_memory();
  if (bytes && *bytes <= available) return;
  throw ResourceError("attaching " + std::to_string(columns) + " columns to " + std::to_string(pairs) +
                      " joined rows needs " + (bytes ? io::describe_bytes(*bytes) : std::string("over 2^64 bytes")) +
                      " of host memory, more than the " + io::describe_bytes(available) +
                      " available; nothing was written. " + memory_advice("attach"));
}

template <class T>
std::vector<std::uint64_t> shape_of(const std::vector<T>& v) {
  return {static_cast<std::uint64_t>(v.size())};
}

JoinCommandResult join_and_write(const Config& config, std::ostream& out) {
  const join::JoinOptions options = join_options(config);
  const std::string mode = config.string("output.mode");
  const std::string distribution = config.string("generate.distribution");
  const bool generated = distribution != "none";
  if (generated && mode == "attach")
    throw UsageError(config.source_name() +
                     ": generated inputs have keys only; set output.mode=pairs, or give r.file and s.file");
  if (generated && (config.has("r.file") || config.has("s.file")))
    throw UsageError(config.source_name() + ": r.file/s.file and generate.distribution are both set; keep one");
  if (!generated && (!config.has("r.file") || !config.has("s.file")))
    throw UsageError(config.source_name() + ": set r.file and s.file (HDF5 tables), or generate.distribution");

  JoinCommandResult result;
  result.output_file = config.file_path("output.file");
  result.json_file = config.has("output.json") ? config.file_path("output.json")
                                               : std::filesystem::path(result.output_file).replace_extension(".json");
  // Before anything is read: an output renamed into place over R or S would replace that table.
  check_output_paths({{result.output_file, "output.file"},
                      {result.json_file, config.has("output.json") ? "output.json"
                                                                   : "output.json (output.file with "
                                                                     ".json)"}},
                     {{config.has("r.file") ? config.file_path("r.file") : std::filesystem::path(), "r.file"},
                      {config.has("s.file") ? config.file_path("s.file") : std::filesystem::path(), "s.file"}});

  join::ColumnTable r, s;
  LabelsOfS s_labels;
  std::string source;
  if (generated) {
    const auto r_rows = static_cast<std::uint64_t>(config.integer("generate.r_rows"));
    const auto s_rows = static_cast<std::uint64_t>(config.integer("generate.s_rows"));
    const auto seed = static_cast<std::uint64_t>(config.integer("generate.seed"));
    join::JoinRelations keys = distribution == "uniform"
                                   ? join::generate_uniform({.r_rows = r_rows,
                                                             .s_rows = s_rows,
                                                             .overlap = config.number("generate.overlap"),
                                                             .r_unique = config.boolean("generate.unique_r"),
                                                             .seed = seed})
                                   : join::generate_zipf({.r_rows = r_rows,
                                                          .s_rows = s_rows,
                                                          .alpha = config.number("generate.alpha"),
                                                          .zipf_r = !config.boolean("generate.unique_r"),
                                                          .seed = seed});
    r.keys = std::move(keys.r_keys);
    s.keys = std::move(keys.s_keys);
    source = "generated " + distribution + " keys (seed " + std::to_string(seed) + ")";
  } else {
    const bool attach = mode == "attach";
    auto table = [&](const std::string& name) {
      return read_join_table({.path = config.file_path(name + ".file"),
                              .key_dataset = config.string(name + ".key"),
                              .data_dataset = attach ? config.string(name + ".data") : "",
                              .path_setting = name + ".file",
                              .key_setting = name + ".key",
                              .data_setting = name + ".data",
                              .column_prefix = name});
    };
    r = table("r");
    s = table("s");
    check_comparable_keys(r, config.file_path("r.file").string() + ":" + config.string("r.key") + " (r.key)", s,
                          config.file_path("s.file").string() + ":" + config.string("s.key") + " (s.key)");
    if (attach && !config.string("s.data").empty())
      s_labels = read_labels_beside(config.file_path("s.file"), config.string("s.data"), s.rows());
    source = config.file_path("r.file").string() + " (R) and " + config.file_path("s.file").string() + " (S)";
  }

  join::JoinTimings timings;
  gpu::ExecutionStream gpu_stream;
  const gpu::ExecutionContext gpu = options.backend == Backend::cuda ? gpu_stream.context() : gpu::ExecutionContext{};
  const auto start = std::chrono::steady_clock::now();
  const join::JoinPairs pairs = gather_pairs(r, s, options, mode, timings, gpu);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const join::JoinSettings settings = join::resolve_settings(options, r.rows(), gpu);
  if (mode == "attach") check_attached_fits(r, s, pairs.size());

  result.rows = pairs.size();
  for (const auto& file : {result.output_file, result.json_file})
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());

  std::string layout;
  for (int bits : settings.layout.pass_bits) {
    if (!layout.empty()) layout += '+';
    layout += std::to_string(bits);
  }
  char line[512];
  std::snprintf(line, sizeof line,
                "join: %s, |R| = %zu, |S| = %zu, %s backend, hash %s, radix %s bits (%u partitions)\n"
                "pairs: %zu; time %.4g s (partitioning %.4g s, build+probe %.4g s, transfers %.4g s)\n",
                source.c_str(), r.rows(), s.rows(), std::string(backend_name(options.backend)).c_str(),
                join::to_string(options.hash).c_str(), layout.c_str(), settings.layout.partitions(), pairs.size(),
                seconds, timings.partition_seconds, timings.probe_seconds,
                timings.transfer_in_seconds + timings.transfer_out_seconds);
  out << line;

  nlohmann::json json = {{"command", "join"},
                         {"source", source},
                         {"r_rows", r.rows()},
                         {"s_rows", s.rows()},
                         {"mode", mode},
                         {"backend", std::string(backend_name(options.backend))},
                         {"threads", tbb::this_task_arena::max_concurrency()},
                         {"hash", join::to_string(options.hash)},
                         {"pass_bits", settings.layout.pass_bits},
                         {"pairs", pairs.size()},
                         {"seconds", seconds},
                         {"timings", timings_json(timings)}};
  {
    io::AtomicOutput output(result.output_file);
    {
      io::Hdf5File file(output.temporary_path().string(), io::Hdf5File::Mode::create_truncate);
      file.write("/r_row", pairs.r_rows);
      file.write("/s_row", pairs.s_rows);
      if (mode == "attach") {
        const join::ColumnTable joined = join::gather_joined_rows(s, r, pairs);
        const std::size_t columns = joined.columns.size();
        std::vector<double> matrix(joined.rows() * columns);
        for (std::size_t c = 0; c < columns; ++c)
          for (std::size_t i = 0; i < joined.rows(); ++i) matrix[i * columns + c] = joined.columns[c][i];
        file.write("/data", {static_cast<std::uint64_t>(joined.rows()), static_cast<std::uint64_t>(columns)},
                   matrix.data());
        // Signed keys are written as the int64 values they are, not as their bit patterns.
        if (joined.signed_keys)
          file.write("/ids", std::vector<std::int64_t>(joined.keys.begin(), joined.keys.end()));
        else
          file.write("/ids", joined.keys);
        std::string names;
        for (const auto& name : joined.names) {
          if (!names.empty()) names += ',';
          names += name;
        }
        file.write_string_attribute("/data", "column_names", names);
        if (s_labels.present) {
          std::vector<std::int64_t> labels(pairs.size());
          for (std::size_t i = 0; i < pairs.size(); ++i) labels[i] = s_labels.values[pairs.s_rows[i]];
          file.write("/labels", labels);
        }
        json["columns"] = joined.names;
      }
      file.write_string_attribute("/r_row", "source", source);
      file.close();  // a full disk shows here, naming the file; nothing is renamed into place
    }
    io::write_text_file(result.json_file, json.dump(2) + "\n");
    output.commit();  // the HDF5 file appears last, once everything else is written
  }
  out << "wrote " << result.output_file.string() << " and " << result.json_file.string() << "\n";
  return result;
}

}  // namespace

JoinCommandResult run_join_command(const Config& config, std::ostream& out) {
  try {
    return join_and_write(config, out);
  } catch (const std::bad_alloc&) {
    throw ResourceError("out of host memory while joining; nothing was written. " +
                        memory_advice(config.string("output.mode")));
  }
}

void add_join_command(CLI::App& app) {
  add_config_subcommand(
      app, "join", "Join two tables on a key: matching row pairs, or S's rows with R's columns attached",
      "configs/join_quickstart.yaml", "join.backend=cpu output.mode=pairs", join_command_schema(),
      [](const Config& config) { run_join_command(config, std::cout); },
      "join smaller tables; with output.mode=attach, output.mode=pairs needs less memory");
}

}  // namespace subscale::pipeline
