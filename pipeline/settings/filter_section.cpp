#include "pipeline/settings/filter_section.hpp"

#include "common/error.hpp"
#include "gpu/backend_choice.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_stream.hpp"

namespace subscale::pipeline {

void add_filter_section_keys(ConfigSchema& schema) {
  schema.add({.path = "filter.where",
              .kind = ValueKind::tree,
              .help = "keep only the input rows that satisfy this predicate (after join, before normalize); "
                      "columns by name (else c0, c1, ...), and id; unset: every row"});
  schema.add({.path = "filter.backend",
              .default_value = "auto",
              .help = "where the filter runs (auto: the GPU when there is one)",
              .choices = {"auto", "cpu", "cuda"}});
}

std::optional<FilterSection> read_filter_section(const Config& config) {
  if (!config.has("filter.where")) return std::nullopt;
  FilterSection section;
  section.where = config.tree("filter.where");
  if (section.where.IsNull()) return std::nullopt;
  section.backend = gpu::choose_backend(config.string("filter.backend"), filter::parse_backend);
  return section;
}

namespace {

filter::ColumnTable table_of(const Dataset& data) {
  filter::ColumnTable table;
  for (std::size_t c = 0; c < data.dimensions(); ++c) {
    std::string name = "c";  // built by appending: GCC 12 warns falsely (-Wrestrict) on "c" + to_string
    if (c < data.column_names.size() && !data.column_names[c].empty())
      name = data.column_names[c];
    else
      name += std::to_string(c);
    const auto column = data.values.col(static_cast<Eigen::Index>(c));
    table.columns.push_back(
        {name, filter::ColumnType::float64, 0, std::vector<double>(column.data(), column.data() + column.size())});
  }
  if (data.ids.size() == data.points() && !table.find("id"))
    table.columns.push_back(
        {"id", filter::ColumnType::int64, 0, std::vector<std::int64_t>(data.ids.begin(), data.ids.end())});
  return table;
}

}  // namespace

std::string apply_filter(const FilterSection& section, bool ground_truth_set, Dataset& data) {
  const filter::ColumnTable table = table_of(data);
  const filter::Predicate predicate = filter::compile_predicate(section.where, table, "filter.where");
  filter::FilterOptions options;
  options.backend = section.backend;
  gpu::ExecutionStream gpu_stream;
  const filter::FilterResult result =
      filter::run_filter(table, predicate, filter::Aggregate{}, options,
                         options.backend == Backend::cuda ? gpu_stream.context() : gpu::ExecutionContext{});
  const std::size_t before = data.points();
  if (result.selected == 0)
    throw InputError("filter.where selects none of the " + std::to_string(before) + " rows of " + data.source);
  if (result.selected < before && ground_truth_set)
    throw UsageError("filter.where keeps " + std::to_string(result.selected) + " of " + std::to_string(before) +
                     " rows, but ground_truth.path is set: its point ids are rows of the input as loaded, which "
                     "would no longer line up; filter the data file itself, or run without ground_truth.path");
  if (result.selected < before) {
    Matrix kept(static_cast<Eigen::Index>(result.selected), data.values.cols());
    for (std::size_t i = 0; i < result.ids.size(); ++i)
      kept.row(static_cast<Eigen::Index>(i)) = data.values.row(static_cast<Eigen::Index>(result.ids[i]));
    data.values = std::move(kept);
    if (data.ids.size() == before) {
      std::vector<std::uint64_t> ids;
      for (auto id : result.ids) ids.push_back(data.ids[id]);
      data.ids = std::move(ids);
    }
    std::vector<std::uint64_t> input_rows;
    for (auto id : result.ids) input_rows.push_back(data.input_rows.empty() ? id : data.input_rows[id]);
    data.input_rows = std::move(input_rows);
    if (data.labels.size() == before) {
      std::vector<std::int64_t> labels;
      for (auto id : result.ids) labels.push_back(data.labels[id]);
      data.labels = std::move(labels);
    }
  }
  return "filter      kept " + std::to_string(result.selected) + " of " + std::to_string(before) + " rows (" +
         filter::to_string(section.backend) + ")";
}

}  // namespace subscale::pipeline
