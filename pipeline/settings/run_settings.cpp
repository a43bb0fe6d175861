#include "pipeline/settings/run_settings.hpp"

#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <random>

#include "common/error.hpp"
#include "gpu/backend_choice.hpp"
#include "gpu/device_info.hpp"
#include "io/host_memory.hpp"
#include "pipeline/settings/parameter_advice.hpp"

namespace subscale::pipeline {
namespace {

std::uint64_t physical_memory_bytes() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
}

std::optional<distributed::CheckpointOptions> read_checkpoint_section(
    const Config& config, TableMode mode, const std::optional<std::filesystem::path>& resume) {
  if (!resume && !config.has("checkpoint.dir")) return std::nullopt;
  distributed::CheckpointOptions options;
  options.folder = resume ? *resume : config.file_path("checkpoint.dir");
  options.resume = resume.has_value();
  options.units =
      config.is_auto("checkpoint.units") ? 0 : static_cast<std::uint32_t>(config.integer("checkpoint.units"));
  options.identity = checkpoint_identity(config, mode);
  return options;
}

// join.key: "ids" or a 0-based column number (checked against the input's width after load).
std::optional<std::size_t> parse_join_key(const std::string& text) {
  if (text == "ids") return std::nullopt;
  const bool digits = !text.empty() && text.size() <= 9 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits)
    throw UsageError("join.key = '" + text +
                     "': use ids (the input's ids), or the 0-based number of the input column holding the ids");
  return static_cast<std::size_t>(std::stoul(text));
}

std::optional<JoinSection> read_join_section(const Config& config) {
  if (!config.has("join.path")) return std::nullopt;
  JoinSection j;
  j.path = config.file_path("join.path");
  j.dataset = config.string("join.dataset");
  j.ids = config.string("join.ids");
  if (j.dataset.empty()) throw UsageError("join.dataset is empty: give the HDF5 path of the second table's columns");
  if (j.ids.empty()) throw UsageError("join.ids is empty: give the HDF5 path of the second table's ids");
  j.key_column = parse_join_key(config.string("join.key"));
  j.unmatched = join::parse_unmatched_rows(config.string("join.unmatched"));
  j.backend = gpu::choose_backend(config.string("join.backend"), join::parse_backend);
  return j;
}

}  // namespace

// What a checkpoint must agree on with the run that resumes it: the program, and every setting
// that changes the core's result (the input data are compared by a hash of the matrix).
distributed::CheckpointIdentity checkpoint_identity(const Config& config, TableMode mode) {
  distributed::CheckpointIdentity identity = {{"subscale version", SUBSCALE_VERSION},
                                              {"mode", to_string(mode)},
                                              {"epsilon", config.string("epsilon")},
                                              {"min_points", config.string("min_points")}};
  if (mode != TableMode::direct)
    for (const char* key : {"signature.bits", "signature.keys", "signature.seed"})
      identity.emplace_back(key, config.string(key));
  return identity;
}

void validate_run_params(const RunSettings& settings, std::size_t points) {
  core::validate_core_params(settings.core, points);
  if (settings.merge && settings.merge_min_points > points)
    throw UsageError("merge.min_points (" + std::to_string(settings.merge_min_points) +
                     ") is larger than the number of points (" + std::to_string(points) +
                     "); no cluster can form: lower merge.min_points, or leave it auto (min_points)");
}

RunSettings read_settings(Config& config, const std::optional<std::filesystem::path>& resume, int processes_on_node) {
  RunSettings s;
  s.load.path = config.file_path("input.path").string();
  s.load.format = io::parse_input_format(config.string("input.format"));
  s.load.dataset_path = config.string("input.dataset");
  if (config.has("input.label_column")) s.load.label_column = config.string("input.label_column");
  s.load.header = config.is_auto("input.header")
                      ? io::CsvHeader::automatic
                      : (config.boolean("input.header") ? io::CsvHeader::present : io::CsvHeader::absent);
  s.join = read_join_section(config);
  s.filter = read_filter_section(config);
  s.normalization = load::parse_normalization(config.string("normalize"));
  s.precision = parse_precision(config.string("input.precision"), "input.precision");
  s.epsilon_auto = config.is_auto("epsilon");
  s.min_points_auto = config.is_auto("min_points");
  s.core.epsilon = s.epsilon_auto ? 0.0 : config.number("epsilon");
  s.core.min_points = s.min_points_auto ? 0 : static_cast<std::uint32_t>(config.integer("min_points"));
  s.levels_auto = config.is_auto("levels");
  if (!s.levels_auto) s.levels = parse_levels(config.string("levels"));
  // auto: direct mode, faster than the signature table on every file measured (S5500 at epsilon
  // 0.01: 2.8 s against 30.4 s on one H100), and exact by construction.
  const std::string mode = config.string("mode");
  s.core.units.mode = mode == "auto" ? TableMode::direct : parse_table_mode(mode);
  s.core.units.direct_count_units = config.boolean("direct.count_units");
  s.core.units.signature_bits = static_cast<std::uint32_t>(config.integer("signature.bits"));
  s.core.units.keys = with_parameter_advice([&] { return parse_key_scheme(config.string("signature.keys")); });
  if (config.is_auto("signature.seed")) {
    // Drawn once and written back, so config.yaml repeats the run exactly.
    config.set("signature.seed", std::to_string(std::random_device{}() >> 1));
  }
  s.core.units.seed = static_cast<std::uint64_t>(config.integer("signature.seed"));
  s.core.units.scheme = parse_partition_scheme(config.string("partitions.scheme"));
  s.core.units.partitions =
      config.is_auto("partitions.count") ? 0 : static_cast<std::size_t>(config.integer("partitions.count"));
  s.core.units.host_bytes =
      config.is_auto("memory.host_bytes") ? physical_memory_bytes() / 2 : config.bytes("memory.host_bytes");
  // A table planned for more memory than the machine has left would get the run killed part-way:
  // plan it for what is there, which takes more partitions.
  if (s.core.units.mode != TableMode::direct) {
    const std::uint64_t available = io::available_host_memory();
    if (s.core.units.host_bytes > available) {
      s.memory_notes.push_back("memory      memory.host_bytes = " + io::describe_bytes(s.core.units.host_bytes) +
                               " is more than the " + io::describe_bytes(available) +
                               " of memory available now; the table is planned for that (more partitions)");
      s.core.units.host_bytes = available;
    }
  }
  s.core.device_bytes = config.is_auto("memory.device_bytes") ? 0 : config.bytes("memory.device_bytes");
  const std::string backend = config.string("backend");
  s.core.backend = parse_backend_name(backend).value_or(Backend::automatic);
  // auto: the node's cores, shared out among the processes of a cluster run on it.
  s.threads = config.is_auto("threads")
                  ? std::max(1, tbb::this_task_arena::max_concurrency() / std::max(1, processes_on_node))
                  : static_cast<int>(config.integer("threads"));
  s.merge = config.boolean("merge.enabled");
  s.merge_epsilon_auto = config.is_auto("merge.epsilon");
  s.merge_min_points_auto = config.is_auto("merge.min_points");
  s.merge_epsilon = s.merge_epsilon_auto ? s.core.epsilon : config.number("merge.epsilon");
  s.merge_min_points =
      s.merge_min_points_auto ? s.core.min_points : static_cast<std::uint32_t>(config.integer("merge.min_points"));
  s.consolidate = config.boolean("consolidate.enabled");
  s.consolidate_params.overlap = config.number("consolidate.overlap");
  s.consolidate_params.span_fraction = config.number("consolidate.span_fraction");
  s.consolidate_params.span_tolerance = config.number("consolidate.span_tolerance");
  s.consolidate_params.extend_dimensions = config.boolean("consolidate.extend");
  s.consolidate_params.coverage = config.number("consolidate.coverage");
  s.consolidate_params.top_k = static_cast<std::size_t>(config.integer("consolidate.top_k"));
  s.significance.enabled = config.boolean("significance.enabled");
  s.significance.test.alpha = config.number("significance.alpha");
  s.significance.test.background_share = config.number("significance.background_share");
  s.significance.denser_parts = config.boolean("significance.denser_parts");
  s.significance.test.correction =
      config.boolean("significance.fdr") ? significance::Correction::fdr : significance::Correction::bonferroni;
  s.consolidate_params.level_gap_floor = s.significance.enabled;
  if (!config.is_auto("sample.enabled")) s.sample.enabled = config.boolean("sample.enabled");
  if (!config.is_auto("sample.points")) s.sample.points = static_cast<std::size_t>(config.integer("sample.points"));
  s.sample.smallest_cluster = config.number("sample.smallest_cluster");
  s.sample.seed = static_cast<std::uint64_t>(config.integer("sample.seed"));
  if (s.sample.enabled.value_or(false) && !s.significance.enabled)
    throw UsageError(
        "sample.enabled: true needs significance.enabled: true: clusters found on a sample are tested "
        "on every point, and without the test the run gives the published method's output, which a "
        "sample would change; set sample.enabled: false or auto");
  if (config.has("ground_truth.path")) s.ground_truth = config.file_path("ground_truth.path");
  if (s.join && s.join->key_column && s.ground_truth)
    throw UsageError("join.key = " + std::to_string(*s.join->key_column) + " takes that column out of the matrix, " +
                     "which renumbers the dimensions ground_truth.path refers to; store the ids as HDF5 `ids` " +
                     "beside the data (join.key: ids), or run without ground_truth.path");
  s.text_outputs = config.boolean("output.text");
  s.gzip_level = static_cast<int>(config.integer("output.gzip"));
  s.html_report = config.boolean("report");
  s.progress_seconds = config.number("progress.interval");
  s.checkpoint = read_checkpoint_section(config, s.core.units.mode, resume);
  return s;
}

}  // namespace subscale::pipeline
