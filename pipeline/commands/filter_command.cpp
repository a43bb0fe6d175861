#include "pipeline/commands/filter_command.hpp"

#include <tbb/task_arena.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "datasets/generators/filter_generators.hpp"
#include "gpu/backend_choice.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_stream.hpp"
#include "io/atomic_output.hpp"
#include "io/hdf5_file.hpp"
#include "pipeline/commands/config_subcommand.hpp"
#include "pipeline/output/output_paths.hpp"
#include "stages/filter/filter.hpp"
#include "stages/filter/table_hdf5.hpp"

namespace subscale::pipeline {

ConfigSchema filter_command_schema() {
  using enum ValueKind;
  ConfigSchema s;
  s.add(config_key("table.file", path, "", "HDF5 file with the column table; not needed with generate.table"));
  s.add(config_key("table.group", string, "/", "the group whose members are the columns"));
  s.add(config_key("where", tree, "",
                   "the predicate: {and: [...]}, {or: [...]}, {not: ...}, {column: NAME, OP: VALUE} with OP one of "
                   "lt le gt ge eq ne between (+ bounds: '[)'), equals prefix contains (+ algorithm: "
                   "naive|kmp|bmh|auto) regex; none selects every row"));
  s.add(one_of(config_key("aggregate.function", string, "none", "aggregate over the selected rows"),
               {"none", "sum", "count", "min", "max"}));
  s.add(config_key("aggregate.expression", string, "",
                   "expression of numeric columns with + - * ( ), e.g. l_extendedprice * l_discount"));
  s.add(one_of(config_key("generate.table", string, "none",
                          "instead of table.file, a seeded table: lineitem (TPC-H Q6's columns) or strings"),
               {"none", "lineitem", "strings"}));
  s.add(ranged(config_key("generate.scale_factor", number, "1", "lineitem: TPC-H scale factor (1 = 6,001,215 rows)"),
               1e-6, 1000));
  s.add(ranged(config_key("generate.rows", integer, "1000000", "strings: rows"), 0, 4e9));
  s.add(ranged(config_key("generate.min_length", integer, "0", "strings: shortest length in bytes"), 0, 1e6));
  s.add(ranged(config_key("generate.max_length", integer, "64", "strings: longest length in bytes"), 0, 1e6));
  s.add(one_of(config_key("generate.lengths", string, "uniform", "strings: length distribution"), {"uniform", "zipf"}));
  s.add(ranged(config_key("generate.alpha", number, "1.0", "strings: Zipf skew of the lengths"), 0, 10));
  s.add(one_of(config_key("generate.text", string, "random",
                          "strings: random letters, or partial_matches (the needle without its last byte and a byte it "
                          "lacks, repeated)"),
               {"random", "partial_matches"}));
  s.add(ranged(config_key("generate.alphabet", integer, "26", "strings: random text uses this many letters"), 1, 256));
  s.add(config_key("generate.needle", string, "needle", "strings: the needle planted in some strings"));
  s.add(ranged(config_key("generate.needle_probability", number, "0.01",
                          "strings: the chance that a string contains the needle"),
               0, 1));
  s.add(ranged(config_key("generate.seed", integer, "1", "seed of the generated table"), 0));
  s.add(config_key("generate.save", path, "", "also write the generated table to this HDF5 file (group /)"));
  s.add(one_of(config_key("filter.backend", string, "auto", "cpu, cuda, or auto (cuda when a device is usable)"),
               {"cpu", "cuda"}, true));
  s.add(one_of(config_key("filter.string_layout", string, "lane_refill",
                          "cuda: strings per lane with refill, per lane without, or a warp per string"),
               {"lane_refill", "lane_per_string", "warp_per_string"}));
  s.add(config_key("filter.fused", boolean, "true", "cuda: one fused kernel for ANDed numeric ranges (Q6)"));
  s.add(one_of(config_key("filter.compaction", string, "bitmap_words",
                          "cuda: row ids by popcount + scan per 32-row word, or by cub::DeviceSelect"),
               {"bitmap_words", "cub_select"}));
  auto out = config_key("output.file", path, "", "HDF5 file for the selected row ids (/ids)");
  out.required = true;
  s.add(out);
  s.add(config_key("output.table", boolean, "false", "also write the selected rows' columns under /table"));
  s.add(config_key("output.json", path, "", "JSON summary; default: output.file with the extension .json"));
  return s;
}

namespace {

std::vector<std::string> identifiers(const std::string& expression) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < expression.size();) {
    const auto c = static_cast<unsigned char>(expression[i]);
    if (std::isalpha(c) || c == '_') {
      std::size_t j = i;
      while (j < expression.size() && (std::isalnum(static_cast<unsigned char>(expression[j])) || expression[j] == '_'))
        ++j;
      names.push_back(expression.substr(i, j - i));
      i = j;
    } else if (std::isdigit(c) || c == '.') {
      while (i < expression.size() && (std::isalnum(static_cast<unsigned char>(expression[i])) || expression[i] == '.'))
        ++i;
    } else {
      ++i;
    }
  }
  return names;
}

struct Input {
  filter::ColumnTable table;
  std::string source;
};

Input generated_input(const Config& config) {
  const std::string kind = config.string("generate.table");
  const auto seed = static_cast<std::uint64_t>(config.integer("generate.seed"));
  Input input;
  if (kind == "lineitem") {
    input.table = filter::generate_lineitem(config.number("generate.scale_factor"), seed);
    char text[128];
    std::snprintf(text, sizeof text, "generated lineitem SF %g (seed %llu)", config.number("generate.scale_factor"),
                  static_cast<unsigned long long>(seed));
    input.source = text;
  } else {
    filter::StringGeneratorOptions o;
    o.rows = static_cast<std::uint64_t>(config.integer("generate.rows"));
    o.min_length = static_cast<std::uint32_t>(config.integer("generate.min_length"));
    o.max_length = static_cast<std::uint32_t>(config.integer("generate.max_length"));
    o.lengths = config.string("generate.lengths") == "zipf" ? filter::LengthDistribution::zipf
                                                            : filter::LengthDistribution::uniform;
    o.alpha = config.number("generate.alpha");
    o.text = config.string("generate.text") == "partial_matches" ? filter::TextKind::partial_matches
                                                                 : filter::TextKind::random;
    o.alphabet = static_cast<std::uint32_t>(config.integer("generate.alphabet"));
    o.needle = config.string("generate.needle");
    o.needle_probability = config.number("generate.needle_probability");
    o.seed = seed;
    input.table = filter::generate_strings(o);
    input.source = "generated strings (" + config.string("generate.text") + ", " + config.string("generate.lengths") +
                   " lengths, seed " + std::to_string(seed) + ")";
  }
  if (config.has("generate.save")) {
    const auto path = config.file_path("generate.save");
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    io::AtomicOutput output(path);
    filter::write_column_table(output.temporary_path(), "/", input.table, true);
    output.commit();
  }
  return input;
}

Input read_input(const Config& config) {
  const bool generated = config.string("generate.table") != "none";
  if (generated && config.has("table.file"))
    throw UsageError(config.source_name() + ": table.file and generate.table are both set; keep one");
  if (generated) return generated_input(config);
  if (!config.has("table.file"))
    throw UsageError(config.source_name() + ": set table.file (an HDF5 column table) or generate.table");
  const filter::TableSource source{config.file_path("table.file"), config.string("table.group"), "table.file"};
  std::vector<std::string> wanted;
  if (!config.boolean("output.table")) {
    wanted = filter::predicate_columns(config.tree("where"));
    const std::string expression = config.has("aggregate.expression") ? config.string("aggregate.expression") : "";
    for (const auto& name : identifiers(expression))
      if (std::find(wanted.begin(), wanted.end(), name) == wanted.end()) wanted.push_back(name);
    if (wanted.empty()) {  // one column still gives the row count
      const std::vector<std::string> names = filter::column_names(source);
      if (names.empty()) throw InputError(source.path.string() + ":" + source.group + ": the group has no columns");
      wanted = {names.front()};
    }
  }
  Input input;
  try {
    input.table = filter::read_column_table(source, wanted);
  } catch (const UsageError& error) {
    throw UsageError(config.source_name() + ": where/aggregate: " + error.what());
  }
  input.source = source.path.string() + ":" + source.group;
  return input;
}

filter::FilterOptions filter_options(const Config& config) {
  filter::FilterOptions o;
  o.backend = gpu::choose_backend(config.string("filter.backend"), filter::parse_backend);
  o.string_layout = filter::parse_string_layout(config.string("filter.string_layout"));
  o.fused = config.boolean("filter.fused");
  o.compaction = filter::parse_compaction(config.string("filter.compaction"));
  return o;
}

nlohmann::json aggregate_json(const filter::AggregateResult& a) {
  nlohmann::json json = {{"function", filter::to_string(a.function)},
                         {"expression", a.expression},
                         {"value", a.text()},
                         {"exact", a.exact},
                         {"rows", a.rows},
                         {"empty", a.empty}};
  if (a.exact && !a.empty) {
    json["scaled"] = a.scaled;
    json["scale"] = a.scale;
  }
  if (!a.empty) json["double"] = a.value;
  return json;
}

}  // namespace

FilterCommandResult run_filter_command(const Config& config, std::ostream& out) {
  const filter::FilterOptions options = filter_options(config);
  const std::string function = config.string("aggregate.function");
  if (function != "none" && function != "count" && !config.has("aggregate.expression"))
    throw UsageError(config.source_name() + ": aggregate.function " + function + " needs aggregate.expression");
  const std::filesystem::path output_file = config.file_path("output.file");
  const std::filesystem::path json_file = config.has("output.json")
                                              ? config.file_path("output.json")
                                              : std::filesystem::path(output_file).replace_extension(".json");
  // Before anything is read: every output is written by renaming a finished temporary over its
  // path, which would replace a table read here as surely as any other file.
  check_output_paths(
      {{output_file, "output.file"},
       {json_file, config.has("output.json") ? "output.json" : "output.json (output.file with .json)"},
       {config.has("generate.save") ? config.file_path("generate.save") : std::filesystem::path(), "generate.save"}},
      {{config.has("table.file") ? config.file_path("table.file") : std::filesystem::path(), "table.file"}});
  const Input input = read_input(config);
  const filter::Predicate predicate =
      filter::compile_predicate(config.tree("where"), input.table, config.source_name());
  filter::Aggregate aggregate;
  aggregate.function = filter::parse_aggregate_function(function);
  if (aggregate.function != filter::AggregateFunction::none && aggregate.function != filter::AggregateFunction::count)
    aggregate.expression = filter::compile_expression(config.string("aggregate.expression"), input.table,
                                                      config.source_name() + ": aggregate.expression");

  gpu::ExecutionStream gpu_stream;
  const gpu::ExecutionContext gpu = options.backend == Backend::cuda ? gpu_stream.context() : gpu::ExecutionContext{};
  const auto start = std::chrono::steady_clock::now();
  const filter::FilterResult result = filter::run_filter(input.table, predicate, aggregate, options, gpu);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  FilterCommandResult summary;
  summary.output_file = output_file;
  summary.json_file = json_file;
  summary.rows = result.rows;
  summary.selected = result.selected;
  for (const auto& file : {summary.output_file, summary.json_file})
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());

  char line[512];
  std::snprintf(
      line, sizeof line, "filter: %s, %llu rows, %s backend (%s)\nselected: %llu (%.4g%%); time %.4g s\n",
      input.source.c_str(), static_cast<unsigned long long>(result.rows), filter::to_string(options.backend).c_str(),
      result.timings.path.c_str(), static_cast<unsigned long long>(result.selected),
      result.rows ? 100.0 * static_cast<double>(result.selected) / static_cast<double>(result.rows) : 0.0, seconds);
  out << line;
  if (result.aggregate) {
    const auto& a = *result.aggregate;
    if (a.function == filter::AggregateFunction::count)
      out << "count = " << a.text() << "\n";
    else
      out << filter::to_string(a.function) << "(" << a.expression << ") = " << a.text() << "\n";
  }

  nlohmann::json json = {{"command", "filter"},
                         {"source", input.source},
                         {"where", YAML::Dump(config.tree("where"))},
                         {"rows", result.rows},
                         {"selected", result.selected},
                         {"backend", filter::to_string(options.backend)},
                         {"threads", tbb::this_task_arena::max_concurrency()},
                         {"path", result.timings.path},
                         {"seconds", seconds},
                         {"timings",
                          {{"transfer_in_s", result.timings.transfer_in_seconds},
                           {"select_s", result.timings.select_seconds},
                           {"compact_s", result.timings.compact_seconds},
                           {"transfer_out_s", result.timings.transfer_out_seconds}}}};
  if (result.aggregate) json["aggregate"] = aggregate_json(*result.aggregate);
  {
    io::AtomicOutput output(summary.output_file);
    {
      io::Hdf5File file(output.temporary_path().string(), io::Hdf5File::Mode::create_truncate);
      file.write("/ids", result.ids);
      file.write_string_attribute("/ids", "source", input.source);
      file.write_int_attribute("/ids", "rows", static_cast<std::int64_t>(result.rows));
      if (result.aggregate) {
        file.create_group("/aggregate");
        const auto& a = *result.aggregate;
        file.write_string_attribute("/aggregate", "function", filter::to_string(a.function));
        file.write_string_attribute("/aggregate", "expression", a.expression);
        file.write_string_attribute("/aggregate", "value", a.text());
        file.write_int_attribute("/aggregate", "rows", static_cast<std::int64_t>(a.rows));
        if (a.exact && !a.empty) {
          file.write_int_attribute("/aggregate", "scaled", a.scaled);
          file.write_int_attribute("/aggregate", "scale", a.scale);
        }
      }
      file.close();  // a full disk shows here, naming the file; nothing is renamed into place
    }
    if (config.boolean("output.table"))
      filter::write_column_table(output.temporary_path(), "/table", filter::gather_rows(input.table, result.ids),
                                 false);
    io::write_text_file(summary.json_file, json.dump(2) + "\n");
    output.commit();  // the HDF5 file appears last, once everything else is written
  }
  out << "wrote " << summary.output_file.string() << " and " << summary.json_file.string() << "\n";
  return summary;
}

void add_filter_command(CLI::App& app) {
  add_config_subcommand(
      app, "filter",
      "Select the rows of a column table that satisfy a predicate (numbers, dates, decimals, strings, regexes), "
      "with an optional aggregate such as TPC-H Q6's sum(l_extendedprice * l_discount)",
      "configs/filter_q6.yaml", "filter.backend=cpu generate.scale_factor=0.1", filter_command_schema(),
      [](const Config& config) { run_filter_command(config, std::cout); },
      "filter a smaller table, or select fewer columns (output.table=false)");
}

}  // namespace subscale::pipeline
