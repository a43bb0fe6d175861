#include "pipeline/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace subscale::pipeline {
namespace {

std::string number(double value) {
  char text[32];
  if (value != 0 && (std::fabs(value) >= 1e6 || std::fabs(value) < 1e-3))
    std::snprintf(text, sizeof text, "%.3g", value);
  else if (value == std::floor(value))
    std::snprintf(text, sizeof text, "%.0f", value);
  else
    std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

std::string fixed(double value) { return svg_fixed(value); }

}  // namespace

std::string svg_fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string escape_html(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::vector<Bar> bucket_max(const std::vector<double>& values, std::size_t buckets) {
  std::vector<Bar> bars;
  if (values.size() <= buckets) {
    for (std::size_t i = 0; i < values.size(); ++i) bars.push_back({std::to_string(i), values[i]});
    return bars;
  }
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t begin = b * values.size() / buckets, end = (b + 1) * values.size() / buckets;
    const double peak = *std::max_element(values.begin() + static_cast<std::ptrdiff_t>(begin),
                                          values.begin() + static_cast<std::ptrdiff_t>(end));
    bars.push_back({std::to_string(begin) + "-" + std::to_string(end - 1), peak});
  }
  return bars;
}

std::string svg_bar_chart(const std::vector<Bar>& bars, const ChartOptions& options) {
  const double top = bars.empty() ? 0 : std::max_element(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) {
                                          return a.value < b.value;
                                        })->value;
  const auto scaled = [&](double value) {
    if (top <= 0 || value <= 0) return 0.0;
    return options.log_scale ? std::log10(1 + value) / std::log10(1 + top) : value / top;
  };
  const int width = options.width;
  std::string svg;
  if (options.horizontal) {
    constexpr int row = 22, left = 170, right = 110, head = 10;
    const int height = head + row * static_cast<int>(bars.size()) + 34;
    const double plot = width - left - right;
    svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" + std::to_string(width) + "\" height=\"" +
           std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
           "\"><title>" + escape_html(options.title) + "</title>";
    for (std::size_t i = 0; i < bars.size(); ++i) {
      const double y = head + row * static_cast<double>(i);
      const double length = plot * scaled(bars[i].value);
      svg += "<text x=\"" + std::to_string(left - 8) + "\" y=\"" + fixed(y + 15) +
             "\" text-anchor=\"end\" font-size=\"13\">" + escape_html(bars[i].label) + "</text>";
      svg += "<rect x=\"" + std::to_string(left) + "\" y=\"" + fixed(y + 3) + "\" width=\"" + fixed(length) +
             "\" height=\"16\" fill=\"#3b6ea8\"><title>" + escape_html(bars[i].label) + ": " + number(bars[i].value) +
             "</title></rect>";
      svg += "<text x=\"" + fixed(left + length + 6) + "\" y=\"" + fixed(y + 15) + "\" font-size=\"12\">" +
             number(bars[i].value) + "</text>";
    }
    svg += "<text x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(height - 8) +
           "\" font-size=\"12\" fill=\"#555\">" + escape_html(options.y_label) +
           (options.log_scale ? " (log scale)" : "") + "</text></svg>";
    return svg;
  }
  constexpr int height = 280, left = 70, right = 20, head = 14, foot = 62;
  const double plot_w = width - left - right, plot_h = height - head - foot;
  const double slot = bars.empty() ? plot_w : plot_w / static_cast<double>(bars.size());
  const double bar_w = std::max(0.5, slot * (slot >= 4 ? 0.8 : 1.0));
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
         "\"><title>" + escape_html(options.title) + "</title>";
  // Axes, and the top value on the vertical one (lengths are relative to it).
  svg += "<line x1=\"" + std::to_string(left) + "\" y1=\"" + std::to_string(head) + "\" x2=\"" + std::to_string(left) +
         "\" y2=\"" + fixed(head + plot_h) + "\" stroke=\"#444\"/>";
  svg += "<line x1=\"" + std::to_string(left) + "\" y1=\"" + fixed(head + plot_h) + "\" x2=\"" + fixed(left + plot_w) +
         "\" y2=\"" + fixed(head + plot_h) + "\" stroke=\"#444\"/>";
  svg += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + std::to_string(head + 10) +
         "\" text-anchor=\"end\" font-size=\"12\">" + number(top) + "</text>";
  svg += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + fixed(head + plot_h) +
         "\" text-anchor=\"end\" font-size=\"12\">0</text>";
  // Labels under the bars only where there is room for them; else the first and the last.
  const std::size_t label_every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(40.0 / slot)));
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double x = left + slot * static_cast<double>(i) + (slot - bar_w) / 2;
    const double length = plot_h * scaled(bars[i].value);
    svg += "<rect x=\"" + fixed(x) + "\" y=\"" + fixed(head + plot_h - length) + "\" width=\"" + fixed(bar_w) +
           "\" height=\"" + fixed(length) + "\" fill=\"#3b6ea8\"><title>" + escape_html(bars[i].label) + ": " +
           number(bars[i].value) + "</title></rect>";
    if (i % label_every == 0 || i + 1 == bars.size())
      svg += "<text x=\"" + fixed(x + bar_w / 2) + "\" y=\"" + fixed(head + plot_h + 16) +
             "\" text-anchor=\"middle\" font-size=\"11\">" + escape_html(bars[i].label) + "</text>";
  }
  svg += "<text x=\"" + fixed(left + plot_w / 2) + "\" y=\"" + std::to_string(height - 22) +
         "\" text-anchor=\"middle\" font-size=\"12\" fill=\"#555\">" + escape_html(options.x_label) + "</text>";
  svg += "<text x=\"" + fixed(left + plot_w / 2) + "\" y=\"" + std::to_string(height - 6) +
         "\" text-anchor=\"middle\" font-size=\"12\" fill=\"#555\">bar height: " + escape_html(options.y_label) +
         (options.log_scale ? " (log scale)" : "") + "</text></svg>";
  return svg;
}

}  // namespace subscale::pipeline
