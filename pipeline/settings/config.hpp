#pragma once
// Experiment configs: YAML files validated against a schema of dotted keys, with `key=value`
// overrides from the command line. Every key is checked: an unknown key is an error that
// suggests the nearest valid one; a wrong type or an out-of-range value names the key.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace subscale::pipeline {

// tree: a YAML subtree (mapping or list) taken as given, e.g. a filter's predicate.
enum class ValueKind { integer, number, string, boolean, bytes, path, tree };

// What a value of the kind is, for messages ("a number", "a size in bytes (e.g. 512MiB, 8GB)").
const char* value_kind_phrase(ValueKind kind);
// The kind as one word ("number", "bytes"), for the Python package's list of keys.
const char* value_kind_word(ValueKind kind);

struct ConfigKey {
  std::string path;  // dotted, e.g. "merge.epsilon"
  ValueKind kind = ValueKind::string;
  std::string default_value;  // YAML text; empty means "unset unless given"
  std::string help;
  std::optional<double> minimum;
  bool minimum_exclusive = false;
  std::optional<double> maximum;
  std::vector<std::string> choices;  // for strings: the allowed values
  bool allow_auto = false;           // the value may also be the word "auto"
  bool sweepable = false;            // the value may be a list: one run per element
  bool required = false;
};

// Builders for schemas written as one call per key: config_key(...) sets path, kind, default
// (YAML text, "" for none) and help; the others add a range, a list of choices, or "auto".
ConfigKey config_key(std::string path, ValueKind kind, std::string default_value, std::string help);
ConfigKey ranged(ConfigKey key, double minimum, std::optional<double> maximum = std::nullopt);
ConfigKey one_of(ConfigKey key, std::vector<std::string> choices, bool allow_auto = false);
ConfigKey automatic(ConfigKey key);

class ConfigSchema {
 public:
  ConfigSchema& add(ConfigKey key);
  const ConfigKey* find(const std::string& path) const;
  const std::vector<ConfigKey>& keys() const noexcept { return keys_; }
  std::vector<std::string> paths() const;
  // A table of keys, defaults and help, for --help.
  std::string describe() const;

 private:
  std::vector<ConfigKey> keys_;
};

class Config {
 public:
  // Loads a YAML file (one YAML document: a second one, after '---', is refused rather than
  // ignored) and applies overrides "a.b=value", each key at most once. An override's value is YAML
  // (a number, true, a list [a, b], ...; text after the value's end is refused), except for keys
  // of kind string or path, whose value is taken literally, byte for byte (YAML would fold a
  // newline into a space or end a value at " #"), unless a string begins with '[' (a list). Paths
  // given in the file are relative to the file's folder; paths given as overrides, to the working
  // folder; both are held (and written by to_yaml) as absolute paths. `overrides_origin` names
  // the overrides in messages ("command line: 'epsilon' ..."); empty, the messages begin with the key
  // ("'epsilon' is -1 ..."), as a library call's parameters want.
  static Config load_file(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                          const ConfigSchema& schema);
  static Config from_text(const std::string& yaml_text, const std::vector<std::string>& overrides,
                          const ConfigSchema& schema, const std::filesystem::path& base_folder = ".",
                          const std::string& source_name = "<config>",
                          const std::string& overrides_origin = "command line");

  bool has(const std::string& path) const;      // a value is set (given, or a non-empty default)
  bool is_auto(const std::string& path) const;  // the value is the word "auto"
  std::int64_t integer(const std::string& path) const;
  double number(const std::string& path) const;
  std::string string(const std::string& path) const;
  bool boolean(const std::string& path) const;
  std::uint64_t bytes(const std::string& path) const;  // accepts 1024, "64MiB", "2GB", "1.5GiB"
  std::filesystem::path file_path(const std::string& path) const;
  YAML::Node tree(const std::string& path) const;  // a copy of a tree key's subtree (Null when unset)

  // Overwrites a value after validation (used by the runner to record resolved values).
  void set(const std::string& path, const std::string& yaml_value);

  // Sweeps: the keys whose value is a list, and one Config per combination (cartesian product,
  // in key order). A config without lists expands to itself; more than 100000 combinations are a
  // UsageError.
  std::vector<std::string> sweep_keys() const;
  std::vector<Config> expand_sweeps() const;

  // The resolved config (defaults filled in) as YAML text.
  std::string to_yaml() const;
  const std::string& source_name() const noexcept { return source_; }
  const ConfigSchema& schema() const noexcept { return schema_; }

 private:
  const ConfigKey& key(const std::string& path) const;
  const YAML::Node& value(const std::string& path) const;
  void validate_value(const ConfigKey& key, const YAML::Node& node, const std::string& origin) const;

  ConfigSchema schema_;                       // a copy: configs outlive the code that built the schema
  std::map<std::string, YAML::Node> values_;  // only keys with a value
  std::string source_;
};

// Parses "64MiB", "2GB", "1.5 GiB", "1000" into bytes; throws UsageError naming `what`.
std::uint64_t parse_bytes(const std::string& text, const std::string& what);

}  // namespace subscale::pipeline
