#pragma once
// The run report's pictures of clusters, as inline SVG text like svg_chart.hpp's bar charts: a
// presence map (which dimensions each cluster lives in) and a scatter of points in two dimensions
// with a cluster's members marked. No script and nothing fetched, so the page renders offline.
#include <cstddef>
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
// indices) wherever a row has that column. Column labels are drawn where there is room for them.
std::string svg_presence_map(const std::vector<PresenceRow>& rows, const std::vector<std::string>& column_labels,
                             const std::string& title);

struct ScatterPoint {
  double x = 0, y = 0;
};

struct ScatterOptions {
  std::string title;
  std::string x_label, y_label;
  int size = 420;  // the plot is square
};

// Others in grey under the members in colour; each group is a <g class="others"> or
// <g class="members"> of <circle> elements, in the order given. Coordinates are drawn on the
// range of all the points given (both groups together).
std::string svg_scatter(const std::vector<ScatterPoint>& others, const std::vector<ScatterPoint>& members,
                        const ScatterOptions& options);

}  // namespace subscale::pipeline
