#include "pipeline/settings/config.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "common/error.hpp"
#include "common/text_distance.hpp"
#include "io/host_memory.hpp"
#include "pipeline/settings/yaml_bounds.hpp"

namespace subscale::pipeline {
namespace {

// What a message about a value starts with: where the value came from ("my.yaml: ", "command line:
// "), or nothing where the caller's own words are enough (a library call's parameters).
std::string lead(const std::string& origin) { return origin.empty() ? std::string() : origin + ": "; }

// yaml-cpp nodes are shared references and Node::operator= writes through them, so a value is
// replaced by erasing and inserting, never by assignment: copies of a Config stay independent.
void replace_value(std::map<std::string, YAML::Node>& values, const std::string& path, const YAML::Node& node) {
  values.erase(path);
  values.emplace(path, YAML::Clone(node));
}

std::string join(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : separator) + word;
  return out;
}

// Flattens a YAML map into dotted paths. Stops at scalars, sequences (sweep lists) and the
// schema's tree keys (whose subtree is one value).
void flatten(const YAML::Node& node, const std::string& prefix, std::vector<std::pair<std::string, YAML::Node>>& out,
             const ConfigSchema& schema, const std::string& source) {
  for (const auto& item : node) {
    // YAML allows a list or a mapping as a key ("? [a, b]: 1"); a config key is a name.
    if (!item.first.IsScalar())
      throw UsageError(source + ": line " + std::to_string(item.first.Mark().line + 1) +
                       (prefix.empty() ? std::string() : " (under '" + prefix + "')") +
                       ": a key must be a plain name, not a list or a mapping");
    const std::string name = item.first.Scalar();
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    const ConfigKey* key = schema.find(path);
    if (item.second.IsMap() && !(key && key->kind == ValueKind::tree)) {
      flatten(item.second, path, out, schema, source);
    } else {
      out.emplace_back(path, item.second);
    }
  }
}

// A section with an on/off switch can be switched as a whole: `consolidate: off` means
// `consolidate.enabled: off`. Returns the path to use.
std::string section_switch(const ConfigSchema& schema, const std::string& path) {
  if (schema.find(path)) return path;
  const ConfigKey* enabled = schema.find(path + ".enabled");
  return enabled && enabled->kind == ValueKind::boolean ? enabled->path : path;
}

bool is_auto_node(const YAML::Node& node) { return node.IsScalar() && node.Scalar() == "auto"; }

std::optional<double> as_number(const YAML::Node& node) {
  if (!node.IsScalar()) return std::nullopt;
  try {
    std::size_t used = 0;
    const double value = std::stod(node.Scalar(), &used);
    if (used != node.Scalar().size() || !std::isfinite(value)) return std::nullopt;
    return value;
  } catch (...) {
    return std::nullopt;
  }
}

// Why a text that is not taken as a number is not: one strtod reads whole but cannot hold (too
// large, or too small to hold at full precision), or no number at all.
std::string number_problem(const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  const bool whole = !text.empty() && end == text.c_str() + text.size();
  if (whole && errno == ERANGE && std::fabs(value) < 1)
    return " is " + text +
           ", below the smallest value a number holds at full precision (about 2.2e-308); give a "
           "larger value (or 0 where 0 is allowed)";
  if (whole && errno == ERANGE)
    return " is " + text + ", out of range: beyond the largest number (about 1.8e308); give a smaller value";
  if (whole && !std::isfinite(value)) return " is " + text + ", which is not a finite number; give a finite value";
  return " expects a number, got '" + text + "'";
}

std::optional<std::int64_t> as_integer(const YAML::Node& node) {
  if (!node.IsScalar()) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long value = std::stoll(node.Scalar(), &used, 10);
    if (used != node.Scalar().size()) return std::nullopt;
    return value;
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<bool> as_boolean(const YAML::Node& node) {
  if (!node.IsScalar()) return std::nullopt;
  std::string text = node.Scalar();
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  return std::nullopt;
}

std::string format_number(double value) {
  std::ostringstream out;
  out << std::setprecision(10) << value;
  return out.str();
}

}  // namespace

const char* value_kind_phrase(ValueKind kind) {
  switch (kind) {
    case ValueKind::integer:
      return "an integer";
    case ValueKind::number:
      return "a number";
    case ValueKind::string:
      return "a string";
    case ValueKind::boolean:
      return "true or false";
    case ValueKind::bytes:
      return "a size in bytes (e.g. 512MiB, 8GB)";
    case ValueKind::path:
      return "a file path";
    case ValueKind::tree:
      return "a YAML mapping or list";
  }
  return "a value";
}

const char* value_kind_word(ValueKind kind) {
  switch (kind) {
    case ValueKind::integer:
      return "integer";
    case ValueKind::number:
      return "number";
    case ValueKind::boolean:
      return "boolean";
    case ValueKind::bytes:
      return "bytes";
    case ValueKind::path:
      return "path";
    case ValueKind::tree:
      return "tree";
    case ValueKind::string:
      break;
  }
  return "string";
}

std::uint64_t parse_bytes(const std::string& text, const std::string& what) {
  if (const auto bytes = io::parse_byte_size(text)) return *bytes;
  throw UsageError(what + ": '" + text +
                   "' is not a size in bytes (write e.g. 512MiB, 8GB, 2G or 1073741824; units: B, KB, MB, GB, TB, "
                   "KiB, MiB, GiB, TiB, K, M, G, T)");
}

ConfigKey config_key(std::string path, ValueKind kind, std::string default_value, std::string help) {
  ConfigKey key;
  key.path = std::move(path);
  key.kind = kind;
  key.default_value = std::move(default_value);
  key.help = std::move(help);
  return key;
}

ConfigKey ranged(ConfigKey key, double minimum, std::optional<double> maximum) {
  key.minimum = minimum;
  key.maximum = maximum;
  return key;
}

ConfigKey one_of(ConfigKey key, std::vector<std::string> choices, bool allow_auto) {
  key.choices = std::move(choices);
  key.allow_auto = allow_auto;
  return key;
}

ConfigKey automatic(ConfigKey key) {
  key.allow_auto = true;
  return key;
}

ConfigSchema& ConfigSchema::add(ConfigKey key) {
  keys_.push_back(std::move(key));
  return *this;
}

const ConfigKey* ConfigSchema::find(const std::string& path) const {
  for (const auto& key : keys_)
    if (key.path == path) return &key;
  return nullptr;
}

std::vector<std::string> ConfigSchema::paths() const {
  std::vector<std::string> out;
  for (const auto& key : keys_) out.push_back(key.path);
  return out;
}

std::string ConfigSchema::describe() const {
  std::ostringstream out;
  std::size_t width = 0;
  for (const auto& key : keys_) width = std::max(width, key.path.size());
  for (const auto& key : keys_) {
    out << "  " << std::left << std::setw(static_cast<int>(width) + 2) << key.path << key.help;
    if (!key.choices.empty()) out << " [" << join(key.choices, " | ") << "]";
    if (!key.default_value.empty()) out << " (default: " << key.default_value << ")";
    if (key.required) out << " (required)";
    if (key.sweepable) out << " (may be a list: a sweep)";
    out << "\n";
  }
  return out.str();
}

Config Config::load_file(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                         const ConfigSchema& schema) {
  std::ifstream stream(file);
  if (!stream) throw UsageError(file.string() + ": cannot open config file (check the path)");
  // A config is a few kilobytes; a file far larger is a mistake, refused before it is read.
  constexpr std::uintmax_t max_config_bytes = std::uintmax_t{16} << 20;
  std::error_code size_error;
  const std::uintmax_t size = std::filesystem::file_size(file, size_error);
  if (!size_error && size > max_config_bytes)
    throw UsageError(file.string() + ": the config file is " + std::to_string(size >> 20) +
                     " MiB; a config is at most 16 MiB (is this the data file? the config names it under input.path)");
  std::stringstream text;
  text << stream.rdbuf();
  // Paths are recorded absolute, so that the config.yaml a run writes repeats it from anywhere.
  const auto folder = std::filesystem::absolute(file).parent_path();
  return from_text(text.str(), overrides, schema, folder, file.string());
}

Config Config::from_text(const std::string& yaml_text, const std::vector<std::string>& overrides,
                         const ConfigSchema& schema, const std::filesystem::path& base_folder,
                         const std::string& source_name, const std::string& overrides_origin) {
  Config config;
  config.schema_ = schema;
  config.source_ = source_name;
  check_yaml_bounds(yaml_text, source_name);
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(yaml_text);
  } catch (const YAML::Exception& error) {
    throw UsageError(source_name + ": not valid YAML at line " + std::to_string(error.mark.line + 1) + ": " +
                     error.msg);
  }
  // yaml-cpp's Load reads the first document and drops the others without a word; keys in a
  // second document would silently not apply. An empty document (a trailing '---') holds nothing.
  for (std::size_t i = 1; i < documents.size(); ++i) {
    if (documents[i].IsNull()) continue;
    const int line = documents[i].Mark().line;
    throw UsageError(source_name + (line >= 0 ? ": line " + std::to_string(line + 1) : std::string()) +
                     ": a second YAML document (after a '---' line), whose keys would not apply; a config is one "
                     "document: remove the '---' line and merge the keys into one mapping, or put the second config "
                     "in a file of its own");
  }
  const YAML::Node root = documents.empty() ? YAML::Node() : documents.front();
  std::vector<std::pair<std::string, YAML::Node>> given;
  if (root.IsMap()) {
    flatten(root, "", given, schema, source_name);
  } else if (!root.IsNull()) {
    throw UsageError(source_name + ": a config is a YAML mapping of keys to values (key: value)");
  }
  const auto& all_paths = schema.paths();
  auto check_known = [&](const std::string& path, const std::string& origin) -> const ConfigKey& {
    const ConfigKey* key = schema.find(path);
    if (key) return *key;
    // `input: 3` names a section of keys, not a key: say so rather than call it unknown.
    std::vector<std::string> members;
    for (const auto& known : all_paths)
      if (known.rfind(path + ".", 0) == 0) members.push_back(known);
    if (!members.empty()) {
      const std::vector<std::string> some(members.begin(), members.begin() + std::min<std::size_t>(members.size(), 4));
      throw UsageError(lead(origin) + "'" + path + "' is a section and expects a mapping of its keys (" +
                       join(some, ", ") + (members.size() > some.size() ? ", ..." : "") + "), e.g. " + path + ": {" +
                       members.front().substr(path.size() + 1) + ": ...}, or " + members.front() +
                       "=... on the command line");
    }
    std::string message = lead(origin) + "unknown key '" + path + "'";
    const std::string suggestion = nearest_word(path, all_paths);
    if (!suggestion.empty())
      message += "; did you mean '" + suggestion + "'?";
    else
      message += "; see --help for the valid keys";
    throw UsageError(message);
  };
  for (auto& [given_path, node] : given) {
    const std::string path = section_switch(schema, given_path);
    const ConfigKey& key = check_known(path, source_name);
    if (key.kind == ValueKind::path && node.IsScalar() && !node.Scalar().empty()) {
      std::filesystem::path value = node.Scalar();
      if (value.is_relative()) node = YAML::Node((base_folder / value).lexically_normal().string());
    }
    config.validate_value(key, node, source_name);
    replace_value(config.values_, path, node);
  }
  const std::string& origin = overrides_origin;
  std::map<std::string, std::string> overridden;  // key -> the override that set it
  for (const auto& override_text : overrides) {
    const auto equals = override_text.find('=');
    if (equals == std::string::npos || equals == 0)
      throw UsageError(lead(origin) + "'" + override_text + "' is not of the form key=value (e.g. epsilon=0.01)");
    const std::string path = section_switch(schema, override_text.substr(0, equals));
    const ConfigKey& key = check_known(path, origin);
    // The last of two would win silently, and which one was meant is anyone's guess.
    if (const auto [first, inserted] = overridden.emplace(path, override_text); !inserted)
      throw UsageError(lead(origin) + "'" + path + "' is given twice ('" + first->second + "' and '" + override_text +
                       "'); give each key once");
    const std::string text = override_text.substr(equals + 1);
    const bool literal =
        key.kind == ValueKind::path || (key.kind == ValueKind::string && (text.empty() || text.front() != '['));
    YAML::Node node;
    if (literal) {
      node = YAML::Node(text);
    } else {
      check_yaml_bounds(text, origin.empty() ? "'" + path + "'" : origin + " ('" + path + "')");
      std::vector<YAML::Node> parsed;
      try {
        parsed = YAML::LoadAll(text);
      } catch (const YAML::Exception& error) {
        throw UsageError(lead(origin) + "the value of '" + path + "' is not valid YAML: " + error.msg);
      }
      for (std::size_t i = 1; i < parsed.size(); ++i)
        if (!parsed[i].IsNull())
          throw UsageError(lead(origin) + "the value of '" + path + "', '" + text +
                           "', has more text after the value's end; give one value (a list is written [a, b], with "
                           "nothing after its ']')");
      if (!parsed.empty()) node = parsed.front();
    }
    if (node.IsNull()) node = YAML::Node(std::string());
    if (key.kind == ValueKind::path && node.IsScalar() && !node.Scalar().empty())
      node = YAML::Node(std::filesystem::absolute(node.Scalar()).lexically_normal().string());
    config.validate_value(key, node, origin);
    replace_value(config.values_, path, node);
  }
  for (const auto& key : schema.keys()) {
    if (config.values_.count(key.path)) continue;
    if (!key.default_value.empty()) {
      replace_value(config.values_, key.path, YAML::Load(key.default_value));
    } else if (key.required) {
      throw UsageError(source_name + ": the key '" + key.path + "' is required (" + key.help + ")");
    }
  }
  return config;
}

void Config::validate_value(const ConfigKey& key, const YAML::Node& node, const std::string& origin) const {
  if (key.kind == ValueKind::tree) return;  // its reader validates the subtree
  if (node.IsSequence()) {
    if (!key.sweepable)
      throw UsageError(lead(origin) + "'" + key.path + "' takes one value, not a list (only some keys can be swept)");
    if (node.size() == 0) throw UsageError(lead(origin) + "'" + key.path + "' is an empty list");
    for (const auto& element : node) {
      if (element.IsSequence()) throw UsageError(lead(origin) + "'" + key.path + "' has a nested list");
      validate_value(key, element, origin);
    }
    return;
  }
  if (node.IsMap())
    throw UsageError(lead(origin) + "'" + key.path + "' expects " + value_kind_phrase(key.kind) + ", not a mapping");
  if (key.allow_auto && is_auto_node(node)) return;
  const std::string where = lead(origin) + "'" + key.path + "'";
  const std::string text = node.IsScalar() ? node.Scalar() : std::string();
  std::optional<double> numeric;
  switch (key.kind) {
    case ValueKind::integer: {
      const auto value = as_integer(node);
      if (!value) throw UsageError(where + " expects " + value_kind_phrase(key.kind) + ", got '" + text + "'");
      numeric = static_cast<double>(*value);
      break;
    }
    case ValueKind::number:
      numeric = as_number(node);
      if (!numeric) throw UsageError(where + number_problem(text));
      break;
    case ValueKind::boolean:
      if (!as_boolean(node)) throw UsageError(where + " expects true or false, got '" + text + "'");
      break;
    case ValueKind::bytes:
      numeric = static_cast<double>(parse_bytes(text, where));
      break;
    case ValueKind::tree:
    case ValueKind::string:
    case ValueKind::path:
      if (!node.IsScalar()) throw UsageError(where + " expects " + value_kind_phrase(key.kind));
      break;
  }
  if (!key.choices.empty() && std::find(key.choices.begin(), key.choices.end(), text) == key.choices.end()) {
    std::string message = where + " is '" + text + "', which is not one of: " + join(key.choices, ", ");
    const std::string suggestion = nearest_word(text, key.choices);
    if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
    throw UsageError(message);
  }
  if (numeric && key.minimum) {
    const bool below = key.minimum_exclusive ? *numeric <= *key.minimum : *numeric < *key.minimum;
    if (below)
      throw UsageError(where + " is " + text + " but must be " + (key.minimum_exclusive ? "> " : ">= ") +
                       format_number(*key.minimum));
  }
  if (numeric && key.maximum && *numeric > *key.maximum)
    throw UsageError(where + " is " + text + " but must be <= " + format_number(*key.maximum));
}

const ConfigKey& Config::key(const std::string& path) const {
  const ConfigKey* key = schema_.find(path);
  if (!key) throw Error(ExitCode::other, "internal: config key '" + path + "' is not in the schema");
  return *key;
}

const YAML::Node& Config::value(const std::string& path) const {
  key(path);
  const auto found = values_.find(path);
  if (found == values_.end()) throw UsageError(source_ + ": the key '" + path + "' has no value; set it");
  if (found->second.IsSequence() && key(path).kind != ValueKind::tree)
    throw Error(ExitCode::other, "internal: '" + path + "' is a sweep list; expand the sweep first");
  return found->second;
}

bool Config::has(const std::string& path) const {
  key(path);
  const auto found = values_.find(path);
  return found != values_.end() && !(found->second.IsScalar() && found->second.Scalar().empty());
}

bool Config::is_auto(const std::string& path) const { return has(path) && is_auto_node(value(path)); }

std::int64_t Config::integer(const std::string& path) const { return *as_integer(value(path)); }
double Config::number(const std::string& path) const { return *as_number(value(path)); }
std::string Config::string(const std::string& path) const { return value(path).Scalar(); }
bool Config::boolean(const std::string& path) const { return *as_boolean(value(path)); }
std::uint64_t Config::bytes(const std::string& path) const { return parse_bytes(value(path).Scalar(), path); }
std::filesystem::path Config::file_path(const std::string& path) const { return value(path).Scalar(); }
YAML::Node Config::tree(const std::string& path) const {
  return has(path) ? YAML::Clone(value(path)) : YAML::Node(YAML::NodeType::Null);
}

void Config::set(const std::string& path, const std::string& yaml_value) {
  YAML::Node node = YAML::Load(yaml_value);
  validate_value(key(path), node, "internal");
  replace_value(values_, path, node);
}

std::vector<std::string> Config::sweep_keys() const {
  std::vector<std::string> keys;
  for (const auto& key : schema_.keys()) {
    const auto found = values_.find(key.path);
    if (found != values_.end() && found->second.IsSequence() && key.kind != ValueKind::tree) keys.push_back(key.path);
  }
  return keys;
}

std::vector<Config> Config::expand_sweeps() const {
  // Refused before any copy is made: a few long lists multiply into more runs than memory holds.
  constexpr std::uint64_t max_runs = 100000;
  std::uint64_t runs = 1;
  for (const auto& path : sweep_keys()) {
    runs *= values_.at(path).size();
    if (runs > max_runs)
      throw UsageError(source_ + ": the sweep lists multiply into more than " + std::to_string(max_runs) +
                       " runs (at '" + path + "'); shorten the lists or split the sweep into several configs");
  }
  std::vector<Config> configs{*this};
  for (const auto& path : sweep_keys()) {
    std::vector<Config> next;
    for (const auto& config : configs) {
      for (const auto& element : values_.at(path)) {
        Config copy = config;
        replace_value(copy.values_, path, element);
        next.push_back(std::move(copy));
      }
    }
    configs = std::move(next);
  }
  return configs;
}

std::string Config::to_yaml() const {
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& key : schema_.keys()) {
    const auto found = values_.find(key.path);
    if (found == values_.end()) continue;
    // yaml-cpp's operator[] creates nested maps; walk the dotted path by hand.
    std::vector<std::string> parts;
    std::stringstream stream(key.path);
    for (std::string part; std::getline(stream, part, '.');) parts.push_back(part);
    std::vector<YAML::Node> chain{root};
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      YAML::Node child = chain.back()[parts[i]];
      if (!child.IsMap()) child = YAML::Node(YAML::NodeType::Map);
      chain.back()[parts[i]] = child;
      chain.push_back(chain.back()[parts[i]]);
    }
    chain.back()[parts.back()] = YAML::Clone(found->second);
  }
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

}  // namespace subscale::pipeline
