#include "pipeline/report/report_html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/error.hpp"
#include "io/atomic_output.hpp"
#include "io/hdf5_file.hpp"
#include "pipeline/report/report_clusters.hpp"
#include "pipeline/report/svg_chart.hpp"

namespace subscale::pipeline {
namespace {

using nlohmann::json;

// Stages in run order; summary.json keeps its timings by name.
constexpr std::array<const char*, 12> kStageOrder = {"load",      "join",        "filter",      "normalize",
                                                     "density1d", "plan",        "dense_units", "subspaces",
                                                     "merge",     "consolidate", "evaluate",    "write"};

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string section(const char* id, const std::string& heading, const std::string& body) {
  return std::string("<section id=\"") + id + "\"><h2>" + escape_html(heading) + "</h2>\n" + body + "</section>\n";
}

std::string note(const std::string& text) { return "<p class=\"note\">" + escape_html(text) + "</p>\n"; }

json read_summary(const std::filesystem::path& folder) {
  const auto file = folder / "summary.json";
  if (!std::filesystem::exists(file))
    throw InputError("'" + folder.string() + "' has no summary.json: give the folder of a finished run (what " +
                     "`subscale run` printed after `wrote`)");
  std::ifstream in(file);
  json summary;
  try {
    summary = json::parse(in);
  } catch (const json::exception& error) {
    throw InputError(file.string() + ": not valid JSON (" + error.what() + "); was the run interrupted?");
  }
  // Every field is looked up by name; anything but an object is not a run's summary.
  if (!summary.is_object())
    throw InputError(file.string() + ": not a run's summary (it holds a JSON " + summary.type_name() +
                     ", not an object of named fields); give the folder of a finished run");
  return summary;
}

// Lengths of the lists of a results.h5 group, from its offsets alone (the ids are not read).
std::vector<double> list_lengths(const io::Hdf5File& file, const std::string& offsets_path) {
  std::vector<double> lengths;
  if (!file.exists(offsets_path)) return lengths;
  const auto offsets = file.read<std::uint64_t>(offsets_path).data;
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i)
    lengths.push_back(static_cast<double>(offsets[i + 1] - offsets[i]));
  return lengths;
}

std::string overview(const json& summary, const std::filesystem::path& folder) {
  const json& counts = summary.value("counts", json::object());
  std::string rows;
  const auto row = [&](const std::string& name, const std::string& value) {
    rows += "<tr><th>" + escape_html(name) + "</th><td>" + escape_html(value) + "</td></tr>";
  };
  const auto text = [](const json& value) { return value.is_null() ? std::string("-") : value.dump(); };
  row("run folder", folder.string());
  row("input", summary.value("input", std::string("?")));
  row("points x dimensions", text(summary.value("points", json())) + " x " + text(summary.value("dimensions", json())));
  row("backend, threads", summary.value("backend", std::string("?")) + ", " + text(summary.value("threads", json())));
  row("seed", text(summary.value("seed", json())));
  row("dense units", text(counts.value("dense_units", json())));
  row("units in two or more dimensions", text(counts.value("multi_dimension_units", json())));
  row("subspaces", text(counts.value("subspaces", json())));
  row("clusters", text(counts.value("clusters", json())));
  row("merge's clusters before consolidation", text(counts.value("raw_clusters", json())));
  if (summary.contains("peak_memory_bytes"))
    row("peak memory", format("%.1f MiB", summary["peak_memory_bytes"].get<double>() / (1 << 20)));
  return "<table>" + rows + "</table>\n";
}

std::string stage_times(const json& summary) {
  const json& timings = summary.value("timings_seconds", json::object());
  std::vector<Bar> bars;
  std::set<std::string> shown;
  for (const char* stage : kStageOrder)
    if (timings.contains(stage)) bars.push_back({stage, timings[stage].get<double>()}), shown.insert(stage);
  for (const auto& [stage, seconds] : timings.items())
    if (stage != "total" && !shown.count(stage)) bars.push_back({stage, seconds.get<double>()});
  if (bars.empty()) return note("summary.json has no timings.");
  const double total = timings.value("total", 0.0);
  return svg_bar_chart(bars, {.title = "seconds per stage", .y_label = "seconds", .horizontal = true}) + "<p>total " +
         format("%.3f", total) + " s</p>\n";
}

std::string dense_units(const io::Hdf5File& file) {
  if (!file.exists("/dense_units/per_dimension")) return note("results.h5 has no /dense_units/per_dimension.");
  const auto per_dimension = file.read<std::uint64_t>("/dense_units/per_dimension").data;
  std::vector<double> values(per_dimension.begin(), per_dimension.end());
  double total = 0;
  for (double v : values) total += v;
  std::vector<std::pair<double, std::size_t>> largest;
  for (std::size_t j = 0; j < values.size(); ++j) largest.emplace_back(values[j], j);
  std::sort(largest.rbegin(), largest.rend());
  std::string top = "<p>" + format("%.0f", total) + " dense units over " + std::to_string(values.size()) +
                    " dimensions; the largest:";
  for (std::size_t i = 0; i < std::min<std::size_t>(5, largest.size()); ++i)
    top += std::string(i ? "," : "") + " dimension " + std::to_string(largest[i].second) + " (" +
           format("%.0f", largest[i].first) + ")";
  top += "</p>\n";
  return svg_bar_chart(bucket_max(values, 600), {.title = "dense units per dimension",
                                                 .x_label = "dimension (the largest of each group when many)",
                                                 .y_label = "dense units"}) +
         top;
}

std::string partitions(const io::Hdf5File& file, const json& summary) {
  const json& info = summary.value("partitions", json::object());
  if (!file.exists("/partitions/units")) return note("results.h5 has no /partitions/units.");
  const auto units = file.read<std::uint64_t>("/partitions/units").data;
  if (units.empty())
    return note(
        "No partition fills: direct mode (the default) needs no signature table, so nothing is cut into "
        "partitions.");
  std::vector<double> values(units.begin(), units.end());
  return svg_bar_chart(bucket_max(values, 600), {.title = "dense units per partition",
                                                 .x_label = "partition of the signature space",
                                                 .y_label = "dense units"}) +
         "<p>" + std::to_string(units.size()) + " partition(s), scheme " + info.value("scheme", std::string("?")) +
         ", fullest over mean " + format("%.3f", info.value("fullest_over_mean", 0.0)) + "</p>\n";
}

// Counts of values in power-of-two bins: 1, 2-3, 4-7, ...
std::vector<Bar> log2_histogram(const std::vector<double>& values) {
  std::vector<double> counts;
  for (double v : values) {
    const std::size_t bin = v < 1 ? 0 : static_cast<std::size_t>(std::floor(std::log2(v))) + 1;
    if (counts.size() <= bin) counts.resize(bin + 1, 0);
    counts[bin] += 1;
  }
  std::vector<Bar> bars;
  std::size_t first = 0;
  while (first + 1 < counts.size() && counts[first] == 0) ++first;
  for (std::size_t b = first; b < counts.size(); ++b) {
    const std::uint64_t low = b == 0 ? 0 : std::uint64_t{1} << (b - 1), high = b == 0 ? 0 : (std::uint64_t{1} << b) - 1;
    bars.push_back({low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high), counts[b]});
  }
  return bars;
}

std::string subspace_sizes(const std::vector<double>& sizes) {
  if (sizes.empty()) return note("The run found no subspaces.");
  const double largest = *std::max_element(sizes.begin(), sizes.end());
  double sum = 0;
  for (double s : sizes) sum += s;
  return svg_bar_chart(log2_histogram(sizes), {.title = "subspaces by their number of points",
                                               .x_label = "points in the subspace (|P_S|)",
                                               .y_label = "subspaces",
                                               .log_scale = true}) +
         "<p>" + std::to_string(sizes.size()) + " subspaces, " +
         format("%.1f", sum / static_cast<double>(sizes.size())) + " points on average, the largest " +
         format("%.0f", largest) + "</p>\n";
}

std::string subspace_dimensionalities(const std::vector<double>& dimensionalities) {
  if (dimensionalities.empty()) return note("The run found no subspaces.");
  const auto largest = static_cast<std::size_t>(*std::max_element(dimensionalities.begin(), dimensionalities.end()));
  std::vector<Bar> bars;
  for (std::size_t k = 2; k <= std::max<std::size_t>(largest, 2); ++k) bars.push_back({std::to_string(k), 0});
  for (double d : dimensionalities)
    if (d >= 2) bars[static_cast<std::size_t>(d) - 2].value += 1;
  return svg_bar_chart(bars, {.title = "subspaces by their number of dimensions",
                              .x_label = "dimensions of the subspace (|S|)",
                              .y_label = "subspaces",
                              .log_scale = true});
}

// Merge's clusters (before consolidation) per subspace: how many subspaces have k clusters.
std::string clusters_per_subspace(const io::Hdf5File& file, std::size_t subspaces) {
  const std::string group = file.exists("/raw_clusters") ? "/raw_clusters" : "/clusters";
  if (!file.exists(group + "/dimension_offsets")) return note("Merge did not run (merge.enabled: false): no clusters.");
  const auto offsets = file.read<std::uint64_t>(group + "/dimension_offsets").data;
  const auto dimensions = file.read<std::uint32_t>(group + "/dimensions").data;
  std::map<std::vector<std::uint32_t>, std::size_t> per_subspace;
  for (std::size_t c = 0; c + 1 < offsets.size(); ++c)
    ++per_subspace[std::vector<std::uint32_t>(dimensions.begin() + static_cast<std::ptrdiff_t>(offsets[c]),
                                              dimensions.begin() + static_cast<std::ptrdiff_t>(offsets[c + 1]))];
  constexpr std::size_t kCap = 16;
  std::vector<Bar> bars;
  for (std::size_t k = 0; k <= kCap; ++k) bars.push_back({k == kCap ? "16+" : std::to_string(k), 0});
  std::size_t most = 0;
  for (const auto& [dims, count] : per_subspace) bars[std::min(count, kCap)].value += 1, most = std::max(most, count);
  bars[0].value = static_cast<double>(subspaces > per_subspace.size() ? subspaces - per_subspace.size() : 0);
  while (bars.size() > 2 && bars.back().value == 0) bars.pop_back();
  return svg_bar_chart(bars, {.title = "subspaces by the number of clusters merge found in them",
                              .x_label = "clusters in the subspace",
                              .y_label = "subspaces",
                              .log_scale = true}) +
         "<p>" + std::to_string(offsets.size() - 1) + " clusters of merge in " + std::to_string(per_subspace.size()) +
         " of " + std::to_string(subspaces) + " subspaces; at most " + std::to_string(most) + " in one</p>\n";
}

// The measures against input.label_column's classes, each class a cluster in every dimension.
std::string class_quality(const json& summary) {
  if (!summary.contains("evaluation_classes")) return "";
  const json& found = summary["evaluation_classes"];
  const json* raw = summary.contains("evaluation_classes_raw") ? &summary["evaluation_classes_raw"] : nullptr;
  std::string table = "<p>Against the " + std::to_string(found.value("classes", 0)) + " classes of the label column " +
                      escape_html(found.value("label_column", std::string("?"))) + " (" +
                      std::to_string(found.value("labelled_points", 0)) +
                      " labelled points), each class a cluster in every dimension:</p>\n<table class=\"classes\"><tr>"
                      "<th>measure</th><th>clusters</th>" +
                      std::string(raw ? "<th>merge's clusters</th>" : "") + "</tr>";
  for (const auto& [key, name] :
       std::array<std::pair<const char*, const char*>, 2>{{{"f1", "F1 (best 1)"}, {"e4sc", "E4SC (best 1)"}}})
    table += "<tr><th>" + std::string(name) + "</th><td>" + format("%.4f", found.value(key, 0.0)) + "</td>" +
             (raw ? "<td>" + format("%.4f", raw->value(key, 0.0)) + "</td>" : "") + "</tr>";
  return table + "<tr><th>clusters found</th><td>" + std::to_string(found.value("found_clusters", 0)) + "</td>" +
         (raw ? "<td>" + std::to_string(raw->value("found_clusters", 0)) + "</td>" : "") + "</tr></table>\n";
}

std::string quality(const json& summary) {
  const std::string classes = class_quality(summary);
  if (!summary.contains("evaluation"))
    return classes.empty() ? note(
                                 "No ground truth was given (ground_truth.path, input.label_column), so there are no "
                                 "quality measures.")
                           : classes;
  const json& found = summary["evaluation"];
  const json* raw = summary.contains("evaluation_raw") ? &summary["evaluation_raw"] : nullptr;
  const std::array<std::pair<const char*, const char*>, 6> measures = {{{"f1", "F1 (best 1)"},
                                                                        {"f1_recall", "F1-R (best 1)"},
                                                                        {"e4sc", "E4SC (best 1)"},
                                                                        {"rnia", "RNIA (best 0)"},
                                                                        {"ce", "CE (best 0)"},
                                                                        {"coverage", "coverage"}}};
  std::string table =
      "<table><tr><th>measure</th><th>clusters</th>" + std::string(raw ? "<th>merge's clusters</th>" : "") + "</tr>";
  std::vector<Bar> bars;
  for (const auto& [key, name] : measures) {
    const double value = found.value(key, 0.0);
    table += "<tr><th>" + std::string(name) + "</th><td>" + format("%.4f", value) + "</td>" +
             (raw ? "<td>" + format("%.4f", raw->value(key, 0.0)) + "</td>" : "") + "</tr>";
    bars.push_back({name, value});
  }
  table += "<tr><th>clusters found / hidden</th><td>" + std::to_string(found.value("found_clusters", 0)) + " / " +
           std::to_string(found.value("hidden_clusters", 0)) + "</td>" +
           (raw ? "<td>" + std::to_string(raw->value("found_clusters", 0)) + "</td>" : "") + "</tr></table>\n";
  return table +
         svg_bar_chart(bars, {.title = "quality of the run's clusters against the ground truth",
                              .y_label = "measure",
                              .horizontal = true,
                              .width = 600}) +
         classes;
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px auto;max-width:960px;color:#222}"
    "h1{font-size:22px}h2{font-size:17px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:28px}"
    "table{border-collapse:collapse}th,td{padding:3px 10px;text-align:left;border-bottom:1px solid #eee}"
    "td{font-variant-numeric:tabular-nums}.note{color:#666;font-style:italic}";

std::string report_from(const std::filesystem::path& folder, const json& summary) {
  const auto results = folder / "results.h5";
  if (!std::filesystem::exists(results))
    throw InputError("'" + folder.string() + "' has no results.h5: give the folder of a finished run");
  const io::Hdf5File file(results.string(), io::Hdf5File::Mode::read);
  const std::vector<double> sizes = list_lengths(file, "/subspaces/point_offsets");
  const std::vector<double> dimensionalities = list_lengths(file, "/subspaces/dimension_offsets");
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>subscale run report: " +
                     escape_html(folder.filename().string()) + "</title><style>" + kStyle + "</style></head><body>\n";
  html += "<h1>subscale run report: " + escape_html(folder.filename().string()) + "</h1>\n";
  try {
    html += section("overview", "Overview", overview(summary, folder));
    html += cluster_sections(folder, file, summary);
    html += section("stage-times", "Stage times", stage_times(summary));
    html += section("dense-units", "Dense units per dimension", dense_units(file));
    html += section("partitions", "Partition fills", partitions(file, summary));
    html += section("subspace-sizes", "Subspace sizes", subspace_sizes(sizes));
    html +=
        section("subspace-dimensionalities", "Subspace dimensionalities", subspace_dimensionalities(dimensionalities));
    html += section("clusters-per-subspace", "Clusters per subspace", clusters_per_subspace(file, sizes.size()));
    html += section("quality", "Quality against the ground truth", quality(summary));
  } catch (const json::exception& error) {
    throw InputError((folder / "summary.json").string() + ": a field has an unexpected type (" + error.what() +
                     "); was the file written by another program, or edited?");
  }
  html += "</body></html>\n";
  return html;
}

}  // namespace

std::string report_html(const std::filesystem::path& folder) { return report_from(folder, read_summary(folder)); }

std::filesystem::path write_report_html(const std::filesystem::path& folder) {
  const std::string html = report_html(folder);
  io::write_text_file(folder / "report.html", html);
  return folder / "report.html";
}

std::filesystem::path write_report_html(const std::filesystem::path& folder, const std::string& summary_text) {
  io::write_text_file(folder / "report.html", report_from(folder, json::parse(summary_text)));
  return folder / "report.html";
}

}  // namespace subscale::pipeline
