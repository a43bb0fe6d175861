#include "pipeline/steps/input_loading.hpp"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "io/host_memory.hpp"
#include "pipeline/log/log_format.hpp"
#include "pipeline/steps/join_table_reader.hpp"

namespace subscale::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// join.key = a column: that column's values become the rows' ids and the column leaves the matrix
// (an id is a label, not a feature to cluster on).
void take_key_column(Dataset& data, std::size_t column) {
  const std::size_t d = data.dimensions();
  if (column >= d)
    throw UsageError("join.key = " + std::to_string(column) + ", but " + data.source + " has " + std::to_string(d) +
                     " columns (0-based: 0.." + std::to_string(d - 1) + ")");
  constexpr double max_exact = 9007199254740992.0;  // 2^53: larger doubles skip integers
  std::vector<std::uint64_t> ids(data.points());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const double v = data.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(column));
    if (!(v >= 0 && v <= max_exact && v == std::floor(v))) {
      std::ostringstream value;
      value << std::setprecision(17) << v;
      throw InputError(data.source + ", data row " + std::to_string(i + 1) + ", column " + std::to_string(column + 1) +
                       " (join.key = " + std::to_string(column) + "): id " + value.str() +
                       " is not a whole number in 0..2^53; point join.key at the column that holds the ids");
    }
    ids[i] = static_cast<std::uint64_t>(v);
  }
  const auto n = data.values.rows();
  const auto k = static_cast<Eigen::Index>(column);
  const auto after = static_cast<Eigen::Index>(d - 1 - column);
  Matrix rest(n, static_cast<Eigen::Index>(d - 1));
  rest.leftCols(k) = data.values.leftCols(k);
  rest.rightCols(after) = data.values.rightCols(after);
  data.values = std::move(rest);
  if (data.column_names.size() == d) data.column_names.erase(data.column_names.begin() + k);
  data.ids = std::move(ids);
}

// The join section on the loaded input; returns the log line. Throws before any output exists.
std::string apply_join(const RunSettings& settings, Dataset& data) {
  const JoinSection& section = *settings.join;
  if (data.source.empty()) data.source = settings.load.path;
  const join::ColumnTable table = read_join_table({.path = section.path,
                                                   .key_dataset = section.ids,
                                                   .data_dataset = section.dataset,
                                                   .path_setting = "join.path",
                                                   .key_setting = "join.ids",
                                                   .data_setting = "join.dataset",
                                                   .for_clustering = true,
                                                   .column_prefix = section.path.stem().string() + "."});
  if (section.key_column) {
    take_key_column(data, *section.key_column);
  } else if (data.ids.size() != data.points()) {
    throw InputError(data.source + " has no ids (HDF5 input keeps them in `ids` beside input.dataset; CSV and " +
                     "ARFF inputs have none); set join.key to the 0-based number of the column holding the ids");
  }
  const std::size_t before = data.points();
  join::JoinOptions options;
  options.backend = section.backend;
  join::attach_columns(data, table.keys, table.names, table.columns, section.unmatched, options);
  const std::size_t kept = data.points();
  if (kept == 0)
    throw InputError("join: none of the " + std::to_string(before) + " rows of " + data.source + " has its id in " +
                     section.path.string() + ":" + section.ids + "; check join.key and join.ids");
  if (kept < before && settings.ground_truth)
    throw UsageError("join.unmatched = drop dropped " + std::to_string(before - kept) + " of " +
                     std::to_string(before) + " rows, but ground_truth.path is set: its point ids are rows of " +
                     "the input as loaded, which no longer line up; complete " + section.path.string() +
                     " so that every row matches, or run without ground_truth.path");
  return "join        attached " + std::to_string(table.columns.size()) + " columns from " + section.path.string() +
         ", " + std::to_string(kept) + " rows matched, " + std::to_string(before - kept) + " dropped";
}

// What results.h5's /input says about the file (docs/output.md §2).
void describe_input(const load::LoadOptions& load, const Dataset& data, RunReport& report) {
  const io::InputFormat format =
      load.format == io::InputFormat::auto_detect ? io::detect_input_format(load.path) : load.format;
  report.input_format = io::to_string(format);
  report.input_dataset = format == io::InputFormat::hdf5 ? load.dataset_path : std::string();
  report.input_columns = data.dimensions();
  report.input_label_column = load.label_column;
}

}  // namespace

LoadedInput load_input(const RunSettings& settings, RunLog& log, RunReport& report) {
  LoadedInput input;
  auto start = Clock::now();
  input.data = load::load_dataset(settings.load);
  report.stage_seconds.emplace_back("load", seconds_since(start));
  log.line("load        " + counted(input.data.points(), "point") + " x " +
           counted(input.data.dimensions(), "dimension") + " from " + settings.load.path);
  if (!input.data.reader_note.empty()) log.line("load        " + input.data.reader_note);
  report.input_row_count = input.data.points();
  describe_input(settings.load, input.data, report);
  if (settings.join) {
    start = Clock::now();
    const std::string line = apply_join(settings, input.data);
    report.stage_seconds.emplace_back("join", seconds_since(start));
    log.line(line);
  }
  if (settings.filter) {
    start = Clock::now();
    const std::string line = apply_filter(*settings.filter, settings.ground_truth.has_value(), input.data);
    report.stage_seconds.emplace_back("filter", seconds_since(start));
    log.line(line);
  }
  report.input_rows = input.data.input_rows;
  if (!report.input_rows.empty())
    log.line("points      named by their rows in " + settings.load.path + " (" +
             std::to_string(report.input_row_count) + " rows; /points/input_row in results.h5 lists each point's)");
  start = Clock::now();
  load::normalize(input.data, settings.normalization);
  input.held = HeldValues::hold(std::move(input.data.values), settings.precision,
                                input.data.source.empty() ? settings.load.path : input.data.source);
  report.stage_seconds.emplace_back("normalize", seconds_since(start));
  report.column_names = input.data.column_names;
  if (settings.precision == Precision::float32)
    log.line("normalize   values held as float32 (" + io::describe_bytes(input.held.bytes()) + ")");
  if (!settings.epsilon_auto && !settings.min_points_auto)
    core::validate_core_params(settings.core, input.held.points());
  if (settings.ground_truth) {
    io::GroundTruthOptions options;
    options.dimensions = input.held.dimensions();
    options.points = input.held.points();
    input.truth = io::read_ground_truth(*settings.ground_truth, options);
  }
  return input;
}

}  // namespace subscale::pipeline
