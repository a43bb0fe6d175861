#include "pipeline/report/svg_cluster_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pipeline/report/svg_chart.hpp"

namespace subscale::pipeline {
namespace {

std::string svg_open(int width, int height, const std::string& title) {
  const std::string w = std::to_string(width), h = std::to_string(height);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" + w + "\" height=\"" + h +
         "\" viewBox=\"0 0 " + w + " " + h + "\"><title>" + escape_html(title) + "</title>";
}

std::string text(double x, double y, const std::string& content, const std::string& extra = "") {
  return "<text x=\"" + svg_fixed(x) + "\" y=\"" + svg_fixed(y) + "\" font-size=\"11\"" + extra + ">" +
         escape_html(content) + "</text>";
}

struct Range {
  double low = 0, high = 1;
  double place(double v, double length) const { return high > low ? (v - low) / (high - low) * length : length / 2; }
};

Range range_of(const std::vector<ScatterPoint>& a, const std::vector<ScatterPoint>& b, double ScatterPoint::*axis) {
  Range r{INFINITY, -INFINITY};
  for (const auto* group : {&a, &b})
    for (const auto& p : *group) r.low = std::min(r.low, p.*axis), r.high = std::max(r.high, p.*axis);
  if (!(r.low <= r.high)) r = {0, 1};
  return r;
}

bool inside(const ScatterPoint& p, const ScatterWindow& w) {
  return p.x >= w.x_low && p.x <= w.x_high && p.y >= w.y_low && p.y <= w.y_high;
}

// Rotated labels (-60 degrees) rise by sin 60 and run right by cos 60 of their length; 11-pixel
// text is about 6.2 pixels a character.
constexpr double kCharWidth = 6.2;

std::size_t longest(const std::vector<std::string>& labels) {
  std::size_t most = 0;
  for (const auto& label : labels) most = std::max(most, label.size());
  return most;
}

}  // namespace

std::string svg_presence_map(const std::vector<PresenceRow>& rows, const std::vector<std::string>& column_labels,
                             const std::string& title) {
  constexpr int left = 70, bottom = 10;
  const double label_length = kCharWidth * static_cast<double>(longest(column_labels));
  const int top = std::max(90, static_cast<int>(std::ceil(label_length * 0.87)) + 12);
  const int right = std::max(10, static_cast<int>(std::ceil(label_length * 0.5)) + 4);
  const int columns = static_cast<int>(std::max<std::size_t>(column_labels.size(), 1));
  const double cell_w = std::clamp(820.0 / columns, 1.0, 16.0), cell_h = rows.size() > 30 ? 8.0 : 14.0;
  const int width = left + right + static_cast<int>(std::ceil(cell_w * columns));
  const int height = top + bottom + static_cast<int>(std::ceil(cell_h * static_cast<double>(rows.size())));
  std::string svg = svg_open(std::max(width, 300), height, title);
  svg += "<rect x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(top) + "\" width=\"" +
         svg_fixed(cell_w * columns) + "\" height=\"" + svg_fixed(cell_h * static_cast<double>(rows.size())) +
         "\" fill=\"#f4f4f4\"/>";
  // Column labels, rotated, where each has 9 pixels or more; else every k-th.
  const std::size_t every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(9.0 / cell_w)));
  for (std::size_t c = 0; c < column_labels.size(); c += every) {
    const double x = left + cell_w * (static_cast<double>(c) + 0.5) + 3;
    svg += text(x, top - 4, column_labels[c],
                " transform=\"rotate(-60 " + svg_fixed(x) + " " + std::to_string(top - 4) + ")\"");
  }
  const std::size_t label_every = cell_h >= 11 ? 1 : 5;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double y = top + cell_h * static_cast<double>(r);
    if (r % label_every == 0) svg += text(left - 6, y + cell_h - 2, rows[r].label, " text-anchor=\"end\"");
    for (std::size_t c : rows[r].columns) {
      const std::string where = c < column_labels.size() ? column_labels[c] : std::to_string(c);
      svg += "<rect class=\"present\" data-row=\"" + std::to_string(r) + "\" data-column=\"" + std::to_string(c) +
             "\" x=\"" + svg_fixed(left + cell_w * static_cast<double>(c)) + "\" y=\"" + svg_fixed(y) + "\" width=\"" +
             svg_fixed(std::max(cell_w - 1, 0.8)) + "\" height=\"" + svg_fixed(cell_h - 1) +
             "\" fill=\"#3b6ea8\"><title>" + escape_html(rows[r].label + " in " + where) + "</title></rect>";
    }
  }
  return svg + "</svg>";
}

std::vector<ScatterPoint> merge_ties(std::vector<ScatterPoint> points) {
  std::sort(points.begin(), points.end(),
            [](const ScatterPoint& a, const ScatterPoint& b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
  std::vector<ScatterPoint> marks;
  for (const auto& p : points) {
    if (!marks.empty() && marks.back().x == p.x && marks.back().y == p.y)
      marks.back().count += p.count;
    else
      marks.push_back(p);
  }
  return marks;
}

std::string svg_scatter(const std::vector<ScatterPoint>& others, const std::vector<ScatterPoint>& members,
                        const ScatterOptions& options) {
  constexpr int left = 46, top = 10, bottom = 40, right = 22;  // room for the last tick's number
  const int plot = options.size;
  Range x = range_of(others, members, &ScatterPoint::x), y = range_of(others, members, &ScatterPoint::y);
  if (options.window)
    x = {options.window->x_low, options.window->x_high}, y = {options.window->y_low, options.window->y_high};
  std::string svg = svg_open(left + plot + right, top + plot + bottom, options.title);
  svg += "<rect x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(top) + "\" width=\"" + std::to_string(plot) +
         "\" height=\"" + std::to_string(plot) + "\" fill=\"none\" stroke=\"#444\"/>";
  const auto group = [&](const std::vector<ScatterPoint>& points, const char* name, const char* style, double r) {
    std::string g = "<g class=\"" + std::string(name) + "\" " + style + ">";
    for (const auto& p : points) {
      if (options.window && !inside(p, *options.window)) continue;
      const double radius = r * std::sqrt(static_cast<double>(std::min<std::size_t>(p.count, 25)));
      g += "<circle cx=\"" + svg_fixed(left + x.place(p.x, plot)) + "\" cy=\"" +
           svg_fixed(top + plot - y.place(p.y, plot)) + "\" r=\"" + svg_fixed(radius) + "\"";
      g += p.count > 1 ? " data-count=\"" + std::to_string(p.count) + "\"><title>" + std::to_string(p.count) +
                             " points</title></circle>"
                       : "/>";
    }
    return g + "</g>";
  };
  svg += group(others, "others", "fill=\"#9a9a9a\" fill-opacity=\"0.45\"", 1.6);
  svg += group(members, "members", "fill=\"#d0402b\" fill-opacity=\"0.85\"", 2.4);
  const auto number = [](double v) {
    char t[32];
    std::snprintf(t, sizeof t, "%.3g", v);
    return std::string(t);
  };
  svg += text(left, top + plot + 14, number(x.low), " text-anchor=\"middle\"");
  svg += text(left + plot, top + plot + 14, number(x.high), " text-anchor=\"middle\"");
  svg += text(left - 4, top + plot, number(y.low), " text-anchor=\"end\"");
  svg += text(left - 4, top + 10, number(y.high), " text-anchor=\"end\"");
  svg += text(left + plot / 2.0, top + plot + 32, options.x_label, " text-anchor=\"middle\" fill=\"#555\"");
  const double yl = top + plot / 2.0;
  svg += text(14, yl, options.y_label,
              " text-anchor=\"middle\" fill=\"#555\" transform=\"rotate(-90 14 " + svg_fixed(yl) + ")\"");
  return svg + "</svg>";
}

}  // namespace subscale::pipeline
