#include "io/ground_truth.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <istream>
#include <sstream>
#include <string_view>

#include "common/error.hpp"
#include "io/atomic_output.hpp"
#include "io/data_validation.hpp"

namespace subscale::io {
namespace {

std::string at(const std::string& source, std::size_t line) {
  return "ground truth file '" + source + "', line " + std::to_string(line) + ": ";
}

std::string shorten(std::string_view text) {
  return text.size() <= 60 ? std::string(text) : std::string(text.substr(0, 57)) + "...";
}

bool parse_unsigned(std::string_view token, std::uint64_t& value) {
  const char* end = token.data() + token.size();
  const auto [ptr, error] = std::from_chars(token.data(), end, value);
  return error == std::errc() && ptr == end;
}

std::vector<std::string_view> split_whitespace(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

// "DIM=20;FILE=..." -> 20 and the FILE value. Returns false when the line is not a DIM line at all.
bool parse_header(std::string_view line, const std::string& source, std::size_t& dims, std::string& file) {
  if (line.substr(0, 4) != "DIM=") return false;
  const std::size_t semicolon = line.find(';');
  const std::string_view number = line.substr(4, semicolon == std::string_view::npos ? line.npos : semicolon - 4);
  std::uint64_t value = 0;
  if (!parse_unsigned(number, value) || value == 0 || value > (1u << 20)) {
    throw InputError(at(source, 1) + "bad DIM line '" + shorten(line) +
                     "': expected 'DIM=<number of dimensions>;FILE=...' with a positive whole number");
  }
  dims = static_cast<std::size_t>(value);
  if (semicolon != std::string_view::npos) {
    std::string_view rest = line.substr(semicolon + 1);
    while (!rest.empty()) {
      const std::size_t next = rest.find(';');
      const std::string_view field = rest.substr(0, next);
      if (field.substr(0, 5) == "FILE=") file = std::string(field.substr(5));
      if (next == std::string_view::npos) break;
      rest = rest.substr(next + 1);
    }
  }
  return true;
}

}  // namespace

GroundTruth parse_ground_truth(std::istream& in, const std::string& source, const GroundTruthOptions& options) {
  GroundTruth truth;
  std::string text;
  if (!std::getline(in, text)) {
    throw InputError("ground truth file '" + source +
                     "' is empty; expected a 'DIM=<d>;...' line and one line per "
                     "hidden cluster");
  }
  if (!text.empty() && text.back() == '\r') text.pop_back();
  std::size_t dims = 0;
  if (parse_header(text, source, dims, truth.file)) {
    if (options.dimensions && *options.dimensions != dims) {
      throw InputError(at(source, 1) + "the file says DIM=" + std::to_string(dims) + ", but the data has " +
                       std::to_string(*options.dimensions) + " dimensions; is it the ground truth of this data set?");
    }
  } else if (options.dimensions) {
    dims = *options.dimensions;  // a title line, as in OpenSubspace's real-world files
  } else {
    throw InputError(at(source, 1) + "bad DIM line '" + shorten(text) +
                     "': expected 'DIM=<number of dimensions>;...' (a file with a title line instead needs the "
                     "number of dimensions from the data)");
  }
  truth.dimensions = dims;

  std::size_t line_number = 1;
  while (std::getline(in, text)) {
    ++line_number;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const std::vector<std::string_view> tokens = split_whitespace(text);
    if (tokens.empty()) continue;

    std::vector<std::uint64_t> numbers(tokens.size());
    for (std::size_t t = 0; t < tokens.size(); ++t) {
      if (!parse_unsigned(tokens[t], numbers[t])) {
        const char* role = t < dims ? "dimension flag" : (t == dims ? "cluster size" : "point id");
        throw InputError(at(source, line_number) + role + " '" + shorten(tokens[t]) + "' (number " +
                         std::to_string(t + 1) + " on the line) is not a non-negative whole number");
      }
    }
    if (tokens.size() < dims + 1) {
      throw InputError(at(source, line_number) + "found " + std::to_string(tokens.size()) +
                       " numbers, but a line needs " + std::to_string(dims) +
                       " dimension flags (DIM=" + std::to_string(dims) + ") and the cluster size before the point ids");
    }
    SubspaceCluster cluster;
    for (std::size_t j = 0; j < dims; ++j) {
      if (numbers[j] > 1) {
        throw InputError(at(source, line_number) + "dimension flag " + std::to_string(j) + " is " +
                         std::to_string(numbers[j]) + ", but flags are 0 or 1; does the line have exactly " +
                         std::to_string(dims) + " flags (DIM=" + std::to_string(dims) + ")?");
      }
      if (numbers[j] == 1) cluster.dimensions.push_back(static_cast<std::uint32_t>(j));
    }
    const std::uint64_t size = numbers[dims];
    const std::size_t listed = tokens.size() - dims - 1;
    if (size != listed) {
      throw InputError(at(source, line_number) + "the cluster size says " + std::to_string(size) + " points, but " +
                       std::to_string(listed) + " point ids follow; check the size and that the line has exactly " +
                       std::to_string(dims) + " flags");
    }
    cluster.points.reserve(listed);
    for (std::size_t t = dims + 1; t < tokens.size(); ++t) {
      if (numbers[t] > 0xFFFFFFFFull || (options.points && numbers[t] >= *options.points)) {
        throw InputError(at(source, line_number) + "point id " + std::to_string(numbers[t]) + " is out of range" +
                         (options.points ? " (the data has " + std::to_string(*options.points) + " points)" : ""));
      }
      cluster.points.push_back(static_cast<std::uint32_t>(numbers[t]));
    }
    std::sort(cluster.points.begin(), cluster.points.end());
    const auto repeat = std::adjacent_find(cluster.points.begin(), cluster.points.end());
    if (repeat != cluster.points.end()) {
      throw InputError(at(source, line_number) + "point id " + std::to_string(*repeat) + " is listed twice");
    }
    truth.clusters.push_back(std::move(cluster));
  }
  return truth;
}

GroundTruth read_ground_truth(const std::filesystem::path& path, const GroundTruthOptions& options) {
  if (std::filesystem::exists(path)) check_input_file(path.string(), "ground truth");
  std::ifstream in(path);
  if (!in) {
    throw InputError("cannot open ground truth file '" + path.string() + "'; check ground_truth.path");
  }
  return parse_ground_truth(in, path.string(), options);
}

std::string format_ground_truth(const GroundTruth& truth) {
  std::ostringstream out;
  out << "DIM=" << truth.dimensions;
  if (!truth.file.empty()) out << ";FILE=" << truth.file;
  out << '\n';
  for (const SubspaceCluster& cluster : truth.clusters) {
    std::vector<char> flags(truth.dimensions, '0');
    for (std::uint32_t d : cluster.dimensions) {
      if (d >= truth.dimensions) {
        throw Error(ExitCode::other, "format_ground_truth: a cluster names dimension " + std::to_string(d) +
                                         " of a ground truth with " + std::to_string(truth.dimensions));
      }
      flags[d] = '1';
    }
    for (std::size_t j = 0; j < flags.size(); ++j) out << (j ? " " : "") << flags[j];
    out << ' ' << cluster.points.size();
    for (std::uint32_t p : cluster.points) out << ' ' << p;
    out << '\n';
  }
  return out.str();
}

void write_ground_truth(const std::filesystem::path& path, const GroundTruth& truth) {
  write_text_file(path, format_ground_truth(truth));
}

}  // namespace subscale::io
