#include "pipeline/output/results_writer.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/subspace_cluster_text.hpp"
#include "io/atomic_output.hpp"
#include "io/cluster_list_hdf5.hpp"
#include "io/hdf5_file.hpp"

namespace subscale::pipeline {
namespace {

double fullest_over_mean(const std::vector<PartitionFill>& partitions) {
  std::uint64_t fullest = 0, sum = 0;
  for (const auto& p : partitions) fullest = std::max(fullest, p.units), sum += p.units;
  return sum ? static_cast<double>(fullest) * static_cast<double>(partitions.size()) / static_cast<double>(sum) : 0;
}

void write_score_list(io::Hdf5File& file, const std::string& group,
                      const std::vector<significance::ClusterScore>& scores, int gzip_level) {
  std::vector<double> score, log10_p;
  for (const auto& s : scores) score.push_back(s.score), log10_p.push_back(s.log10_p);
  file.write(group + "/score", score, gzip_level);
  file.write(group + "/log10_p", log10_p, gzip_level);
}

// The significance scores beside the cluster lists they belong to, in the lists' order.
void write_scores(io::Hdf5File& file, const RunReport& report, int gzip_level) {
  const auto& sig = *report.significance;
  if (report.consolidated) {
    write_score_list(file, "/clusters", sig.scores, gzip_level);
    write_score_list(file, "/raw_clusters", sig.raw_scores, gzip_level);
  } else if (report.merge) {
    write_score_list(file, "/clusters", sig.raw_scores, gzip_level);
  }
}

// The input as read (docs/output.md §2): its file, format and shape, and the names of its columns
// as a string dataset, one string a column, so that h5py users get a list of str.
void write_input_group(io::Hdf5File& file, const RunReport& report) {
  file.create_group("/input");
  file.write_string_attribute("/input", "path", report.input_path);
  if (!report.input_format.empty()) file.write_string_attribute("/input", "format", report.input_format);
  if (!report.input_dataset.empty()) file.write_string_attribute("/input", "dataset", report.input_dataset);
  if (!report.input_label_column.empty())
    file.write_string_attribute("/input", "label_column", report.input_label_column);
  const std::size_t rows = report.input_rows.empty() ? report.points : report.input_row_count;
  file.write_int_attribute("/input", "rows", static_cast<std::int64_t>(rows));
  file.write_int_attribute("/input", "columns",
                           static_cast<std::int64_t>(report.input_columns ? report.input_columns : report.dimensions));
  if (!report.column_names.empty()) file.write_strings("/input/column_names", report.column_names);
}

}  // namespace

void write_results_hdf5(const std::filesystem::path& path, const RunReport& report, int gzip_level) {
  io::AtomicOutput output(path);
  {
    io::Hdf5File file(output.temporary_path().string(), io::Hdf5File::Mode::create_truncate);
    file.write_int_attribute("/", "seed", static_cast<std::int64_t>(report.seed));
    file.write_int_attribute("/", "points", static_cast<std::int64_t>(report.points));
    file.write_int_attribute("/", "dimensions", static_cast<std::int64_t>(report.dimensions));
    file.write_string_attribute("/", "backend", report.backend);
    file.write_string_attribute("/", "input", report.input_path);
    // Every point list names points by their row in the input as loaded; where join or filter
    // dropped rows, /points/input_row maps the matrix's positions (the order of /density1d/labels'
    // columns) to those rows.
    file.write_string_attribute("/", "point_ids", "input_row");
    if (!report.input_rows.empty()) {
      file.write("/points/input_row", report.input_rows, gzip_level);
      file.write_int_attribute("/points/input_row", "input_rows", static_cast<std::int64_t>(report.input_row_count));
    }
    write_input_group(file, report);
    io::write_cluster_list(file, "/subspaces", report.core.subspaces, gzip_level);
    // /clusters holds the run's clusters: consolidated when that stage ran, and then merge's own
    // output stays beside them as /raw_clusters.
    if (report.consolidated) {
      io::write_cluster_list(file, "/clusters", report.consolidated->clusters, gzip_level);
      file.write("/clusters/sizes", report.consolidated->sizes, gzip_level);
      file.write("/clusters/sources", report.consolidated->sources, gzip_level);
      io::write_cluster_list(file, "/raw_clusters", report.merge->clusters, gzip_level);
      file.write("/raw_clusters/sizes", report.merge->sizes, gzip_level);
    } else if (report.merge) {
      io::write_cluster_list(file, "/clusters", report.merge->clusters, gzip_level);
      file.write("/clusters/sizes", report.merge->sizes, gzip_level);
    }
    if (report.significance) write_scores(file, report, gzip_level);
    // 1-D clusters: one row of labels (by point id) per dimension.
    const auto& dims = report.core.density.dimensions;
    std::vector<std::int32_t> labels;
    std::vector<std::uint32_t> cluster_counts;
    for (const auto& d : dims) {
      labels.insert(labels.end(), d.labels.begin(), d.labels.end());
      cluster_counts.push_back(d.clusters);
    }
    file.create_group("/density1d");
    // With a sample the core saw only its points: /sample/rows names them, in the labels' order.
    const std::size_t labelled = dims.empty() ? 0 : labels.size() / dims.size();
    file.write("/density1d/labels", {dims.size(), labelled}, labels.data(), gzip_level);
    if (report.sample) {
      std::vector<std::uint64_t> rows;
      rows.reserve(report.sample->rows.size());
      for (const auto r : report.sample->rows) rows.push_back(report.input_rows.empty() ? r : report.input_rows[r]);
      file.create_group("/sample");
      file.write("/sample/rows", rows, gzip_level);
      file.write_int_attribute("/sample", "seed", static_cast<std::int64_t>(report.sample->seed));
    }
    file.write("/density1d/clusters", cluster_counts);
    file.write("/dense_units/per_dimension", report.core.units_per_dimension);
    file.write_int_attribute("/dense_units", "total", static_cast<std::int64_t>(report.core.total_units));
    std::vector<std::uint64_t> lower, fill;
    for (const auto& p : report.core.dense_units.partitions) lower.push_back(p.lower), fill.push_back(p.units);
    file.write("/partitions/lower", lower);
    file.write("/partitions/units", fill);
    file.write_string_attribute("/partitions", "scheme", to_string(report.core.dense_units.scheme));
    file.create_group("/timings");
    for (const auto& [stage, seconds] : report.stage_seconds) file.write_double_attribute("/timings", stage, seconds);
    file.close();  // a full disk shows here; the file is renamed into place only when complete
  }
  output.commit();
}

std::string summary_json(const RunReport& report) {
  using nlohmann::json;
  const auto& core = report.core;
  json partitions = json::array();
  for (const auto& p : core.dense_units.partitions) partitions.push_back({{"lower", p.lower}, {"units", p.units}});
  json timings = json::object();
  double total = 0;
  for (const auto& [stage, seconds] : report.stage_seconds) timings[stage] = seconds, total += seconds;
  timings["total"] = total;
  json summary = {
      {"version", SUBSCALE_VERSION},
      {"config", report.config_source},
      {"input", report.input_path},
      {"points", report.points},
      // Point ids in every output are rows of the input as loaded: input_rows of them when join
      // or filter dropped some (then `points` counts the rows kept).
      {"point_ids", "input_row"},
      {"input_rows", report.input_rows.empty() ? report.points : report.input_row_count},
      {"dimensions", report.dimensions},
      {"seed", report.seed},
      {"backend", report.backend},
      {"threads", report.threads},
      {"counts",
       {{"dense_units", core.total_units},
        {"dense_units_per_dimension", core.units_per_dimension},
        // Not known when the walk passed over covered units (direct.count_units off).
        {"multi_dimension_units",
         core.dense_units.multi_units_counted ? json(core.dense_units.distinct_multi_units) : json(nullptr)},
        {"subspaces", core.subspaces.size()},
        {"clusters", report.consolidated ? json(report.consolidated->clusters.size())
                     : report.merge      ? json(report.merge->clusters.size())
                                         : json(nullptr)},
        {"raw_clusters", report.consolidated ? json(report.merge->clusters.size()) : json(nullptr)}}},
      {"partitions",
       {{"scheme", to_string(core.dense_units.scheme)},
        {"count", core.dense_units.partitions.size()},
        {"fullest_over_mean", fullest_over_mean(core.dense_units.partitions)},
        {"fill", partitions}}},
      {"false_match_probability", core.dense_units.false_match_probability},
      {"timings_seconds", timings},
      // Of the units walked by this run: a resumed run read the others back.
      {"dense_units_per_second",
       core.timings.dense_units_seconds > 0
           ? static_cast<double>(core.total_units - core.dense_units.read_back_units) / core.timings.dense_units_seconds
           : 0.0},
      {"processes", report.processes},
      {"resumed", report.resumed},
      {"checkpoint", report.checkpointed
                         ? json{{"work_units", report.work_units},
                                {"work_units_read_back", report.work_units_read_back},
                                {"dense_units_read_back", core.dense_units.read_back_units},
                                {"dense_units_walked", core.total_units - core.dense_units.read_back_units}}
                         : json(nullptr)},
      {"peak_memory_bytes", report.peak_memory_bytes},
  };
  const auto measures = [](const evaluate::QualityMeasures& q) {
    return json{{"f1", q.f1},
                {"f1_recall", q.f1_recall},
                {"e4sc", q.e4sc},
                {"rnia", q.rnia},
                {"ce", q.ce},
                {"coverage", q.coverage},
                {"found_clusters", q.found_clusters},
                {"hidden_clusters", q.hidden_clusters}};
  };
  if (report.sample)
    summary["sample"] = {{"points", report.sample->points},
                         {"of", report.sample->of},
                         {"seed", report.sample->seed},
                         {"reason", report.sample->reason},
                         {"clusters_found", report.sample->clusters_found},
                         {"clusters_kept", report.sample->clusters_kept},
                         {"memberships", report.sample->memberships},
                         {"seconds_membership", report.sample->seconds_membership}};
  else
    summary["sample"] = nullptr;
  summary["budget_limited"] = report.budget.limited;
  if (report.budget.limited) summary["budget_note"] = report.budget.note;
  if (report.quality) summary["evaluation"] = measures(*report.quality);
  if (report.raw_quality) summary["evaluation_raw"] = measures(*report.raw_quality);
  const auto class_measures = [&](const evaluate::ClassMeasures& q) {
    return json{
        {"label_column", report.input_label_column}, {"f1", q.f1},           {"e4sc", q.e4sc},
        {"found_clusters", q.found_clusters},        {"classes", q.classes}, {"labelled_points", q.labelled_points}};
  };
  if (report.class_quality) summary["evaluation_classes"] = class_measures(*report.class_quality);
  if (report.raw_class_quality) summary["evaluation_classes_raw"] = class_measures(*report.raw_class_quality);
  if (report.consolidated) {
    const auto& c = report.consolidated->stats;
    summary["consolidate"] = {{"input_clusters", c.input_clusters},
                              {"candidate_pairs", c.candidate_pairs},
                              {"joins", c.joins},
                              {"rejected_joins", c.rejected_joins},
                              {"extended_dimensions", c.extended_dimensions},
                              {"passes", c.passes},
                              {"redundant", c.redundant},
                              {"over_top_k", c.over_top_k},
                              {"clusters", c.clusters}};
  }
  if (report.significance) {
    const auto& g = *report.significance;
    summary["significance"] = {{"background_dimensions", g.background_dimensions},
                               {"background_values", g.background_values},
                               {"chance_dimensions", g.chance_dimensions},
                               {"pooled", g.pooled},
                               {"pooled_pairs", g.pooled_pairs},
                               {"pooling_additions", g.pooling_memberships},
                               {"pooling_over_budget", g.pooling_over_budget},
                               {"subspaces_tested", g.subspaces_tested},
                               {"subspaces_skipped", g.subspaces_skipped},
                               {"subspaces_skipped_by_groups", g.subspaces_skipped_by_groups},
                               {"groups_tested", g.groups_tested},
                               {"groups_kept", g.groups_kept},
                               {"group_points_dropped", g.group_points_dropped},
                               {"merge_tested", g.merge_tested},
                               {"merge_set_aside", g.merge_set_aside},
                               {"merge_kept", g.merge_kept},
                               {"merge_candidates", g.merge_candidates},
                               {"consolidated_tested", g.consolidated_tested},
                               {"consolidated_kept", g.consolidated_kept},
                               {"repeated", g.repeated},
                               {"denser_parts", g.denser_parts},
                               {"denser_splits", g.denser_splits},
                               {"touching_joins", g.touching_joins},
                               {"grown", g.grown},
                               {"turned", g.turned},
                               {"seconds", g.seconds},
                               {"seconds_prepare", g.seconds_prepare},
                               {"seconds_subspaces", g.seconds_subspaces},
                               {"seconds_merge", g.seconds_merge},
                               {"seconds_consolidated", g.seconds_consolidated}};
    nlohmann::json misses = nlohmann::json::array();
    for (const NearMiss& miss : g.near_misses)
      misses.push_back({{"dimensions", miss.dimensions},
                        {"points", miss.points},
                        {"score", miss.score.score},
                        {"log10_p", miss.score.log10_p},
                        {"log10_search", miss.score.log10_search},
                        {"alpha_needed", std::pow(10.0, -miss.score.score)},
                        {"best_case", miss.best_case}});
    summary["significance"]["near_misses"] = std::move(misses);
  }
  return summary.dump(2) + "\n";
}

void write_clusters_text(const std::filesystem::path& file, const std::vector<SubspaceCluster>& clusters) {
  io::write_text_file_in_blocks(file, [&](const io::BlockSink& sink) { write_subspace_clusters_text(clusters, sink); });
}

}  // namespace subscale::pipeline
