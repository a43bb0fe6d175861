#include "pipeline/settings/yaml_bounds.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "common/error.hpp"

namespace subscale::pipeline {
namespace {

// What an anchored node stands for wherever an alias repeats it.
struct Extent {
  std::size_t nodes = 1;
  std::size_t depth = 1;
};

struct Frame {
  bool is_map = false;
  YAML::anchor_t anchor = YAML::NullAnchor;
  std::string path;  // the dotted key of this node
  Extent extent;     // of the children seen so far, plus this node
  std::size_t children = 0;
  std::string key;  // in a map: the key whose value comes next
  std::map<std::string, std::size_t> key_lines;
  YAML::Mark mark;
};

class BoundsChecker : public YAML::EventHandler {
 public:
  BoundsChecker(const std::string& source, const YamlBounds& bounds) : source_(source), bounds_(bounds) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { leaf(mark, anchor, "~"); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string& value) override {
    leaf(mark, anchor, value);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto found = anchors_.find(anchor);
    const Extent extent = found == anchors_.end() ? Extent{} : found->second;
    count(mark, extent);
    adopt(mark, extent, std::nullopt);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor, false);
  }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor, true);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapEnd() override { close(); }

 private:
  [[noreturn]] void refuse(const YAML::Mark& mark, const std::string& path, const std::string& what) const {
    throw UsageError(source_ + ": line " + std::to_string(mark.line + 1) +
                     (path.empty() ? std::string() : " (under '" + path + "')") + ": " + what);
  }

  std::string current_path() const { return stack_.empty() ? std::string() : child_path(stack_.back()); }
  static std::string child_path(const Frame& frame) {
    if (!frame.is_map || frame.children % 2 == 0) return frame.path;
    return frame.path.empty() ? frame.key : frame.path + "." + frame.key;
  }

  // Counts a node as it appears (an alias: everything it repeats).
  void count(const YAML::Mark& mark, const Extent& extent) {
    nodes_ += extent.nodes;
    if (nodes_ > bounds_.max_nodes)
      refuse(mark, current_path(),
             "the YAML stands for more than " + std::to_string(bounds_.max_nodes) +
                 " values once its aliases (*name) are expanded; a config needs far fewer: write the values out");
    if (stack_.size() + extent.depth > bounds_.max_depth)
      refuse(mark, current_path(),
             "the YAML nests deeper than " + std::to_string(bounds_.max_depth) + " levels (aliases expanded)");
  }

  // A finished node (leaf, alias or closed collection) taken into its parent; `key` is its text
  // when it is a scalar.
  void adopt(const YAML::Mark& mark, const Extent& extent, const std::optional<std::string>& key) {
    if (stack_.empty()) return;
    Frame& parent = stack_.back();
    parent.extent.nodes += extent.nodes;
    parent.extent.depth = std::max(parent.extent.depth, extent.depth + 1);
    if (parent.is_map && parent.children % 2 == 0) {
      parent.key = key.value_or("");
      if (key) {
        const std::size_t line = mark.line + 1;
        const auto [at, inserted] = parent.key_lines.emplace(*key, line);
        if (!inserted)
          refuse(mark, parent.path,
                 "the key '" + *key + "' is given twice (lines " + std::to_string(at->second) + " and " +
                     std::to_string(line) + "); keep one");
      }
    } else if (!parent.is_map && parent.children + 1 > bounds_.max_list_values) {
      refuse(mark, parent.path,
             "a list of more than " + std::to_string(bounds_.max_list_values) +
                 " values; a sweep makes at most that many runs: shorten the list or split the sweep");
    }
    ++parent.children;
  }

  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor, const std::string& value) {
    if (anchor != YAML::NullAnchor) anchors_[anchor] = Extent{};
    count(mark, Extent{});
    adopt(mark, Extent{}, value);
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor, bool is_map) {
    count(mark, Extent{});
    Frame frame;
    frame.is_map = is_map;
    frame.anchor = anchor;
    frame.path = current_path();
    frame.mark = mark;
    stack_.push_back(std::move(frame));
  }

  void close() {
    const Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.anchor != YAML::NullAnchor) anchors_[frame.anchor] = frame.extent;
    adopt(frame.mark, frame.extent, std::nullopt);
  }

  const std::string& source_;
  const YamlBounds& bounds_;
  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, Extent> anchors_;
  std::size_t nodes_ = 0;
};

}  // namespace

void check_yaml_bounds(const std::string& text, const std::string& source, const YamlBounds& bounds) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  BoundsChecker checker(source, bounds);
  try {
    while (parser.HandleNextDocument(checker)) {
    }
  } catch (const YAML::Exception&) {
    // Syntax errors are reported by the parser that builds the nodes, with its own message.
  }
}

}  // namespace subscale::pipeline
