// The run config (pipeline/settings/config.hpp with the schema of `subscale run`): YAML text, then
// key=value overrides, separated by NUL bytes. An accepted config is read the way the runner
// reads it (every key by its kind, the sweeps expanded, the resolved YAML written), and a
// filter.where predicate is compiled and applied to a small table.
#include <string_view>
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"
#include "pipeline/settings/filter_section.hpp"

namespace {

using subscale::pipeline::Config;
using subscale::pipeline::ValueKind;

void read_every_key(const Config& config) {
  for (const auto& key : config.schema().keys()) {
    if (!config.has(key.path) || config.is_auto(key.path)) continue;
    switch (key.kind) {
      case ValueKind::integer:
        config.integer(key.path);
        break;
      case ValueKind::number:
        config.number(key.path);
        break;
      case ValueKind::boolean:
        config.boolean(key.path);
        break;
      case ValueKind::bytes:
        config.bytes(key.path);
        break;
      case ValueKind::path:
        config.file_path(key.path);
        break;
      case ValueKind::tree:
        config.tree(key.path);
        break;
      case ValueKind::string:
        config.string(key.path);
        break;
    }
  }
}

void apply_filter_to_a_small_table(const Config& config) {
  auto section = subscale::pipeline::read_filter_section(config);
  if (!section) return;
  section->backend = subscale::Backend::cpu;
  subscale::Dataset data;
  data.source = "fuzz";
  data.values = subscale::Matrix{{0.0, 1.0}, {0.5, -2.0}, {1.0, 3.5}};
  data.ids = {7, 8, 9};
  subscale::pipeline::apply_filter(*section, false, data);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  subscale::fuzz::limit_memory_for_fuzzing();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input = subscale::fuzz::as_text(data, size);
  const std::size_t end = std::min(input.find('\0'), input.size());
  const std::string yaml = input.substr(0, end);
  std::vector<std::string> overrides;
  for (std::size_t start = end + 1; start <= input.size() && end < input.size();) {
    const std::size_t next = std::min(input.find('\0', start), input.size());
    overrides.push_back(input.substr(start, next - start));
    start = next + 1;
  }
  static const auto schema = subscale::pipeline::core_config_schema();
  subscale::fuzz::parse_or_refuse([&] {
    const Config config = Config::from_text(yaml, overrides, schema, "/fuzz", "fuzz.yaml");
    for (const Config& one : config.expand_sweeps()) {
      read_every_key(one);
      one.to_yaml();
      apply_filter_to_a_small_table(one);
    }
  });
  return 0;
}
