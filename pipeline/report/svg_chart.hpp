#pragma once
// Bar charts as inline SVG text, for the run report: no script, no fonts or styles from outside,
// so the page renders the same offline in any browser.
#include <string>
#include <vector>

namespace subscale::pipeline {

struct Bar {
  std::string label;  // under (or beside) the bar; may be empty when bars are many
  double value = 0;
};

struct ChartOptions {
  std::string title;        // the SVG's <title>, read by screen readers and shown on hover
  std::string x_label;      // what the bars are
  std::string y_label;      // what their length measures
  bool horizontal = false;  // bars from the left, one a row, labels beside them (few long labels)
  bool log_scale = false;   // lengths on log10(1 + value), for counts spanning many decades
  int width = 900;
};

// A chart of the bars in order. More bars than fit as distinct pixels are shown as they are (thin);
// callers reduce very long series first (see bucket_max).
std::string svg_bar_chart(const std::vector<Bar>& bars, const ChartOptions& options);

// Reduces a long series to at most `buckets` bars, each the largest value of its run of
// neighbours, labelled with its first and last index: peaks stay visible.
std::vector<Bar> bucket_max(const std::vector<double>& values, std::size_t buckets);

// A coordinate or length with one decimal, as every chart writes them.
std::string svg_fixed(double value);

// Text made safe for HTML and SVG (&, <, >, ", ').
std::string escape_html(const std::string& text);

}  // namespace subscale::pipeline
