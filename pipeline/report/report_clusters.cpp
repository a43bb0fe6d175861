#include "pipeline/report/report_clusters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <sstream>

#include "common/error.hpp"
#include "pipeline/report/report_near_misses.hpp"
#include "pipeline/report/svg_chart.hpp"
#include "pipeline/report/svg_cluster_charts.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"

namespace subscale::pipeline {
namespace {

struct RankedCluster {
  std::size_t rank = 0;  // 1-based
  std::vector<std::uint32_t> dimensions, points;
  double score = 0;
};

struct Ranking {
  std::size_t count = 0;           // clusters in /clusters
  bool has_score = false;          // /clusters/score was written (significance on)
  std::vector<RankedCluster> top;  // the first kTableClusters by score, descending
};

std::string wrap(const char* id, const std::string& heading, const std::string& body) {
  return std::string("<section id=\"") + id + "\"><h2>" + escape_html(heading) + "</h2>\n" + body + "</section>\n";
}

std::string remark(const std::string& text) { return "<p class=\"note\">" + escape_html(text) + "</p>\n"; }

std::string number(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// Orders the clusters by score (or interest) from the offsets and the scores alone, then reads the
// lists of the first kTableClusters only: the report's memory does not grow with the run's.
Ranking rank_clusters(const io::Hdf5File& file) {
  Ranking ranking;
  const auto point_offsets = file.read<std::uint64_t>("/clusters/point_offsets").data;
  const auto dimension_offsets = file.read<std::uint64_t>("/clusters/dimension_offsets").data;
  ranking.count = point_offsets.empty() ? 0 : point_offsets.size() - 1;
  if (dimension_offsets.size() != point_offsets.size())
    throw InputError(file.path() + ": /clusters/point_offsets and /clusters/dimension_offsets differ in length");
  std::vector<double> scores;
  ranking.has_score = file.exists("/clusters/score");
  if (ranking.has_score) {
    scores = file.read<double>("/clusters/score").data;
    if (scores.size() != ranking.count)
      throw InputError(file.path() + ": /clusters/score has " + std::to_string(scores.size()) + " values for " +
                       std::to_string(ranking.count) + " clusters");
  } else {
    for (std::size_t c = 0; c < ranking.count; ++c)
      scores.push_back(static_cast<double>(point_offsets[c + 1] - point_offsets[c]) *
                       static_cast<double>(dimension_offsets[c + 1] - dimension_offsets[c]));
  }
  std::vector<std::size_t> order(ranking.count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  const std::size_t shown = std::min(kTableClusters, order.size());
  std::partial_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
      [&](std::size_t a, std::size_t b) { return scores[a] != scores[b] ? scores[a] > scores[b] : a < b; });
  for (std::size_t r = 0; r < shown; ++r) {
    const std::size_t c = order[r];
    RankedCluster cluster{r + 1, {}, {}, scores[c]};
    const auto slice = [&](const char* path, const std::vector<std::uint64_t>& offsets) {
      const std::uint64_t length = offsets[c + 1] - offsets[c];
      return length ? file.read_range<std::uint32_t>(path, offsets[c], length) : std::vector<std::uint32_t>{};
    };
    cluster.dimensions = slice("/clusters/dimensions", dimension_offsets);
    cluster.points = slice("/clusters/points", point_offsets);
    ranking.top.push_back(std::move(cluster));
  }
  return ranking;
}

// The names results.h5 keeps, when the input had them: the string dataset /input/column_names,
// or in files written before it the attribute of that name, one name a line.
std::vector<std::string> stored_names(const io::Hdf5File& file) {
  std::vector<std::string> names;
  if (!file.exists("/input")) return names;
  try {
    if (file.exists("/input/column_names")) return file.read_strings("/input/column_names");
    std::istringstream lines(file.read_string_attribute("/input", "column_names"));
    for (std::string name; std::getline(lines, name);) names.push_back(name);
  } catch (const Error&) {
    names.clear();  // a run without names: d0, d1, ... instead
  }
  return names;
}

// The run's input as the run held it: its config.yaml through the run's own settings and loader.
struct Reloaded {
  std::optional<LoadedInput> input;
  std::string why_not;  // when input is empty
};

Reloaded reload_input(const std::filesystem::path& folder) {
  Reloaded reloaded;
  const auto config_file = folder / "config.yaml";
  if (!std::filesystem::exists(config_file)) {
    reloaded.why_not = "the run folder has no config.yaml, so the run's input is not known";
    return reloaded;
  }
  std::filesystem::path input_path;
  try {
    std::ifstream in(config_file);
    std::stringstream text;
    text << in.rdbuf();
    Config config = Config::from_text(text.str(), {}, core_config_schema(), ".", config_file.string());
    RunSettings settings = read_settings(config);
    input_path = settings.load.path;
    settings.ground_truth.reset();  // only the points are needed
    RunLog log(true);
    RunReport ignored;
    reloaded.input = load_input(settings, log, ignored);
  } catch (const std::exception& error) {
    reloaded.why_not = std::string("the run's input could not be read again (") + error.what() + ")";
    if (input_path.is_relative())
      reloaded.why_not += "; its path is relative to the folder the run was started in: run `subscale report` there";
  }
  return reloaded;
}

std::string dimension_list(const std::vector<std::uint32_t>& dimensions, const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 12;
  std::string text;
  for (std::size_t i = 0; i < std::min(kShown, dimensions.size()); ++i) text += (i ? ", " : "") + names[dimensions[i]];
  if (dimensions.size() > kShown) text += ", ... (" + std::to_string(dimensions.size() - kShown) + " more)";
  return text;
}

std::string score_heading(const Ranking& ranking) {
  return ranking.has_score ? "score (-log10 of the corrected p-value)" : "interest (points x dimensions)";
}

std::string table_section(const Ranking& ranking, const std::vector<std::string>& names) {
  std::string body;
  if (!ranking.has_score)
    body += remark(
        "Significance was off for this run (results.h5 has no /clusters/score): the clusters are ranked by "
        "interest, their points times their dimensions.");
  body += "<table class=\"clusters\"><tr><th>rank</th><th>dimensions</th><th>|S|</th><th>points</th><th>" +
          escape_html(score_heading(ranking)) + "</th></tr>";
  for (const auto& c : ranking.top)
    body += "<tr class=\"cluster-row\" data-rank=\"" + std::to_string(c.rank) + "\"><td>" + std::to_string(c.rank) +
            "</td><td>" + escape_html(dimension_list(c.dimensions, names)) + "</td><td>" +
            std::to_string(c.dimensions.size()) + "</td><td>" + std::to_string(c.points.size()) + "</td><td>" +
            number(ranking.has_score ? "%.2f" : "%.0f", c.score) + "</td></tr>";
  body += "</table>\n";
  const std::string total = std::to_string(ranking.count) + " cluster" + (ranking.count == 1 ? "" : "s");
  if (ranking.count > ranking.top.size())
    body += "<p>" + total + "; the first " + std::to_string(ranking.top.size()) + " are shown, " +
            std::to_string(ranking.count - ranking.top.size()) + " more are in results.h5 and clusters.txt</p>\n";
  else
    body += "<p>" + total + ", all shown</p>\n";
  return body;
}

std::string map_section(const Ranking& ranking, const std::vector<std::string>& names) {
  std::vector<std::uint32_t> used;
  for (const auto& c : ranking.top) used.insert(used.end(), c.dimensions.begin(), c.dimensions.end());
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  std::vector<std::string> labels;
  for (std::uint32_t d : used) labels.push_back(names[d]);
  std::vector<PresenceRow> rows;
  for (const auto& c : ranking.top) {
    PresenceRow row{std::string(1, '#').append(std::to_string(c.rank)), {}};
    for (std::uint32_t d : c.dimensions)
      row.columns.push_back(static_cast<std::size_t>(std::lower_bound(used.begin(), used.end(), d) - used.begin()));
    rows.push_back(std::move(row));
  }
  return svg_presence_map(rows, labels, "dimensions of the strongest clusters") + "<p>" + std::to_string(rows.size()) +
         " cluster(s) (rows, by rank) in " + std::to_string(used.size()) +
         " dimension(s) (columns: only those some of them use, in the input's order)</p>\n";
}

// At most `cap` of the points, evenly spread over the list (deterministic).
std::vector<ScatterPoint> thin_out(const std::vector<ScatterPoint>& points, std::size_t cap) {
  if (points.size() <= cap) return points;
  std::vector<ScatterPoint> kept;
  for (std::size_t k = 0; k < cap; ++k) kept.push_back(points[k * points.size() / cap]);
  return kept;
}

// The two of the cluster's dimensions in which its members are narrowest against the whole column.
template <class M>
std::pair<std::uint32_t, std::uint32_t> tightest_pair(const M& values, const RankedCluster& cluster) {
  std::vector<std::pair<double, std::uint32_t>> spans;
  for (std::uint32_t d : cluster.dimensions) {
    const auto column = values.col(d);
    const double all = static_cast<double>(column.maxCoeff() - column.minCoeff());
    double low = INFINITY, high = -INFINITY;
    for (std::uint32_t p : cluster.points) {
      const double v = static_cast<double>(column(p));
      low = std::min(low, v), high = std::max(high, v);
    }
    spans.emplace_back(all > 0 ? (high - low) / all : 0.0, d);
  }
  std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::uint32_t x = spans[0].second;
  const std::uint32_t y = spans.size() > 1 ? spans[1].second : (x == 0 && values.cols() > 1 ? 1 : 0);
  return {std::min(x, y), std::max(x, y)};
}

// The members' range in both dimensions, widened by a twentieth of its span on each side (a
// span of 0, every member on one value, by a hundredth of the whole) so no mark sits on the edge.
ScatterWindow members_window(const std::vector<ScatterPoint>& members) {
  ScatterWindow w{INFINITY, -INFINITY, INFINITY, -INFINITY};
  for (const auto& p : members)
    w.x_low = std::min(w.x_low, p.x), w.x_high = std::max(w.x_high, p.x), w.y_low = std::min(w.y_low, p.y),
    w.y_high = std::max(w.y_high, p.y);
  const auto pad = [](double& low, double& high) {
    const double margin = high > low ? (high - low) / 20 : std::max(std::fabs(low), 1.0) / 100;
    low -= margin, high += margin;
  };
  pad(w.x_low, w.x_high), pad(w.y_low, w.y_high);
  return w;
}

std::size_t points_in(const std::vector<ScatterPoint>& marks) {
  std::size_t points = 0;
  for (const auto& m : marks) points += m.count;
  return points;
}

std::size_t largest_count(const std::vector<ScatterPoint>& a, const std::vector<ScatterPoint>& b) {
  std::size_t most = 1;
  for (const auto* group : {&a, &b})
    for (const auto& m : *group) most = std::max(most, m.count);
  return most;
}

// What the figure shows, said under it.
std::string scatter_caption(const RankedCluster& cluster, const std::string& x_name, const std::string& y_name,
                            const std::string& score_text, const std::vector<ScatterPoint>& members,
                            const std::vector<ScatterPoint>& others, std::size_t member_count,
                            std::size_t other_count) {
  const std::size_t drawn_members = points_in(members), drawn_others = points_in(others);
  std::string caption = "<figcaption>cluster #" + std::to_string(cluster.rank) + " (" + std::to_string(member_count) +
                        " points in " + std::to_string(cluster.dimensions.size()) + " dimensions, " + score_text +
                        "): " + escape_html(x_name) + " against " + escape_html(y_name) + ", " +
                        std::to_string(drawn_members) + " members in red";
  if (drawn_members < member_count) caption += " (an even sample of the " + std::to_string(member_count) + ")";
  caption += ", " + std::to_string(drawn_others) + " other points in grey";
  if (drawn_others < other_count) caption += " (an even sample of the " + std::to_string(other_count) + ")";
  const std::size_t most = largest_count(members, others);
  if (most > 1)
    caption += "; points on the same place are one mark, its area growing with how many (the largest stands for " +
               std::to_string(most) + "; each says its count on hover)";
  caption += ". Left: every point; right: zoomed to the cluster's range.</figcaption>";
  return caption;
}

template <class M>
std::string scatter_of(const M& values, const RankedCluster& cluster, const std::vector<std::string>& names,
                       const std::string& score_text) {
  const auto [dx, dy] = tightest_pair(values, cluster);
  std::vector<char> member(static_cast<std::size_t>(values.rows()), 0);
  for (std::uint32_t p : cluster.points) member[p] = 1;
  std::vector<ScatterPoint> members, others;
  for (Eigen::Index i = 0; i < values.rows(); ++i)
    (member[static_cast<std::size_t>(i)] ? members : others)
        .push_back({static_cast<double>(values(i, dx)), static_cast<double>(values(i, dy))});
  const std::size_t member_count = members.size(), other_count = others.size();
  const ScatterWindow zoom = members_window(members);
  // Tied points become one mark first, so the sample caps the marks drawn, not the points.
  members = thin_out(merge_ties(std::move(members)), kScatterPointCap);
  others = thin_out(merge_ties(std::move(others)), kScatterPointCap);
  const std::string title = "cluster #" + std::to_string(cluster.rank) + ": " + names[dx] + " against " + names[dy];
  ScatterOptions options{
      .title = title, .x_label = names[dx] + " (normalised)", .y_label = names[dy] + " (normalised)", .size = 300};
  const std::string whole = svg_scatter(others, members, options);
  options.title = title + ", zoomed to the cluster's range";
  options.window = zoom;
  const std::string zoomed = svg_scatter(others, members, options);
  return "<figure class=\"scatter\" data-rank=\"" + std::to_string(cluster.rank) + "\" data-members=\"" +
         std::to_string(points_in(members)) + "\" style=\"display:inline-block;margin:6px;vertical-align:top\">" +
         whole + "<span class=\"zoom\">" + zoomed + "</span>" +
         scatter_caption(cluster, names[dx], names[dy], score_text, members, others, member_count, other_count) +
         "</figure>\n";
}

// The cluster with its points as positions in the input read again: results.h5 names them by
// their rows in the input as loaded, which differ where join or filter dropped rows.
RankedCluster at_positions(RankedCluster cluster, const std::vector<std::uint64_t>& input_rows) {
  if (input_rows.empty()) return cluster;
  for (auto& point : cluster.points) {
    const auto found = std::lower_bound(input_rows.begin(), input_rows.end(), std::uint64_t{point});
    if (found == input_rows.end() || *found != point)
      throw InputError("cluster #" + std::to_string(cluster.rank) + " names input row " + std::to_string(point) +
                       ", which the run's join or filter no longer keeps in the input read again: it changed since "
                       "the run");
    point = static_cast<std::uint32_t>(found - input_rows.begin());
  }
  return cluster;
}

std::string scatter_section(const Ranking& ranking, const std::vector<std::string>& names, const Reloaded& reloaded) {
  if (!reloaded.input) return remark("No scatter: " + reloaded.why_not + ".");
  const HeldValues& held = reloaded.input->held;
  std::string body;
  for (std::size_t r = 0; r < std::min(kScatterClusters, ranking.top.size()); ++r) {
    const RankedCluster cluster = at_positions(ranking.top[r], reloaded.input->data.input_rows);
    const std::string score_text =
        (ranking.has_score ? "score " : "interest ") + number(ranking.has_score ? "%.2f" : "%.0f", cluster.score);
    body += held.visit([&](const auto& values) {
      for (std::uint32_t p : cluster.points)
        if (p >= static_cast<std::size_t>(values.rows()))
          throw InputError("cluster #" + std::to_string(cluster.rank) + " names point " + std::to_string(p) +
                           ", but the input read again has " + std::to_string(values.rows()) +
                           " points: it changed since the run");
      return scatter_of(values, cluster, names, score_text);
    });
  }
  return body;
}

// The three sections of a run without clusters; where the test failed every candidate, the
// clusters section lists the strongest of them (report_near_misses.hpp).
std::string empty_sections(const std::filesystem::path& folder, const io::Hdf5File& file, const nlohmann::json& summary,
                           const std::string& reason) {
  const std::string misses = near_miss_html(summary, applied_test(folder), stored_names(file));
  const std::string why = remark(reason);
  const std::string elsewhere =
      misses.empty() ? why : remark(reason + " Its strongest candidates are listed under Clusters.");
  return wrap("clusters", "Clusters", misses.empty() ? why : misses) +
         wrap("cluster-map", "Dimensions of the clusters", elsewhere) +
         wrap("cluster-scatter", "The strongest clusters' points", elsewhere);
}

}  // namespace

std::string cluster_sections(const std::filesystem::path& folder, const io::Hdf5File& file,
                             const nlohmann::json& summary) {
  if (!file.exists("/clusters/point_offsets"))
    return empty_sections(folder, file, summary, "Merge did not run (merge.enabled: false): no clusters.");
  const Ranking ranking = rank_clusters(file);
  if (ranking.top.empty()) return empty_sections(folder, file, summary, "The run reported no clusters.");
  const Reloaded reloaded = reload_input(folder);
  std::size_t dimensions = 0;
  for (const auto& c : ranking.top)
    for (std::uint32_t d : c.dimensions) dimensions = std::max<std::size_t>(dimensions, d + 1);
  if (reloaded.input) dimensions = std::max(dimensions, reloaded.input->held.dimensions());
  std::vector<std::string> names = stored_names(file);
  if (names.size() < dimensions && reloaded.input) names = reloaded.input->data.column_names;
  if (names.size() < dimensions) {
    names.clear();
    for (std::size_t d = 0; d < dimensions; ++d) names.push_back("d" + std::to_string(d));
  }
  std::string scatter;
  try {
    scatter = scatter_section(ranking, names, reloaded);
  } catch (const InputError& error) {
    scatter = remark(std::string("No scatter: ") + error.what() + ".");
  }
  return wrap("clusters", "Clusters", table_section(ranking, names)) +
         wrap("cluster-map", "Dimensions of the clusters", map_section(ranking, names)) +
         wrap("cluster-scatter", "The strongest clusters' points", scatter);
}

}  // namespace subscale::pipeline
