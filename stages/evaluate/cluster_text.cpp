#include "stages/evaluate/cluster_text.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <istream>
#include <string_view>

#include "common/error.hpp"

namespace subscale::evaluate {
namespace {

class LineParser {
 public:
  LineParser(std::string_view text, const std::string& source, std::size_t line)
      : text_(text), source_(source), line_(line) {}

  void skip_spaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  void expect(char c) {
    skip_spaces();
    if (pos_ >= text_.size() || text_[pos_] != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  // A comma-separated list of whole numbers up to `close` (consumed).
  std::vector<std::uint32_t> numbers_until(char close, const char* what) {
    std::vector<std::uint32_t> values;
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == close) {
      ++pos_;
      return values;
    }
    for (;;) {
      skip_spaces();
      std::uint32_t value = 0;
      const char* begin = text_.data() + pos_;
      const auto [ptr, error] = std::from_chars(begin, text_.data() + text_.size(), value);
      if (error != std::errc() || ptr == begin) fail(std::string("expected a ") + what + " (a whole number)");
      pos_ += static_cast<std::size_t>(ptr - begin);
      values.push_back(value);
      skip_spaces();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == close) {
        ++pos_;
        break;
      }
      fail(std::string("expected ',' or '") + close + "'");
    }
    std::sort(values.begin(), values.end());
    const auto repeat = std::adjacent_find(values.begin(), values.end());
    if (repeat != values.end()) fail(std::string(what) + " " + std::to_string(*repeat) + " is listed twice");
    return values;
  }

  void expect_end() {
    skip_spaces();
    if (pos_ != text_.size()) fail("unexpected text after ']'");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("cluster file '" + source_ + "', line " + std::to_string(line_) + ", column " +
                     std::to_string(pos_ + 1) + ": " + what + "; a line looks like {0, 3}-[12, 15, 40]");
  }

 private:
  std::string_view text_;
  const std::string& source_;
  std::size_t line_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<SubspaceCluster> parse_cluster_text(std::istream& in, const std::string& source) {
  std::vector<SubspaceCluster> clusters;
  std::string text;
  std::size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos || text[first] == '#') continue;
    LineParser parser(text, source, line);
    SubspaceCluster cluster;
    parser.expect('{');
    cluster.dimensions = parser.numbers_until('}', "dimension");
    parser.expect('-');
    parser.expect('[');
    cluster.points = parser.numbers_until(']', "point id");
    parser.expect_end();
    clusters.push_back(std::move(cluster));
  }
  return clusters;
}

std::vector<SubspaceCluster> read_cluster_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open cluster file '" + path.string() + "'");
  return parse_cluster_text(in, path.string());
}

}  // namespace subscale::evaluate
