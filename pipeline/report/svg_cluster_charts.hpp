#pragma once
// The run report's pictures of clusters, as inline SVG text like svg_chart.hpp's bar charts: a
// presence map (which dimensions each cluster lives in) and a scatter of points in two dimensions
// with a cluster's members marked. No script and nothing fetched, so the page renders offline.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace subscale::pipeline {

// One row of the presence map: a cluster's label and the columns (indices into the map's
// columns) where it has a dimension.
struct PresenceRow {
  std::string label;
  std::vector<std::size_t> columns;
};

// A grid, rows by columns, with a filled cell (class "present", data-row / data-column its
// indices) wherever a row has that column. Column labels are drawn whole (the margins grow to fit
// the longest), each where there is room beside the others.
std::string svg_presence_map(const std::vector<PresenceRow>& rows, const std::vector<std::string>& column_labels,
                             const std::string& title);

// A mark: `count` points at one place (data of few distinct values, such as integers, put many
// points on the same spot, where one mark would hide how many there are).
struct ScatterPoint {
  double x = 0, y = 0;
  std::size_t count = 1;
};

// The marks of `points`, one a distinct place, each counting the points there; sorted by place.
std::vector<ScatterPoint> merge_ties(std::vector<ScatterPoint> points);

struct ScatterWindow {
  double x_low = 0, x_high = 1, y_low = 0, y_high = 1;
};

struct ScatterOptions {
  std::string title;
  std::string x_label, y_label;
  int size = 420;                       // the plot is square
  std::optional<ScatterWindow> window;  // drawn instead of the points' whole range; others outside it left out
};

// Others in grey under the members in colour; each group is a <g class="others"> or
// <g class="members"> of <circle> elements, in the order given. A mark of several points is
// larger (its area grows with the count, up to 25 times a single point's) and carries the count
// as data-count and as its <title>. Coordinates are drawn on the window, else on the range of all
// the points given (both groups together).
std::string svg_scatter(const std::vector<ScatterPoint>& others, const std::vector<ScatterPoint>& members,
                        const ScatterOptions& options);

}  // namespace subscale::pipeline
