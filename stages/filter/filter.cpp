#include "stages/filter/filter.hpp"

#include "common/error.hpp"
#include "stages/filter/filter_cuda.hpp"

namespace subscale::filter {

Backend parse_backend(const std::string& name) {
  if (const auto backend = parse_stage_backend_name(name)) return *backend;
  throw UsageError("filter backend '" + name + "' is not one of cpu, cuda");
}

std::string to_string(Backend backend) { return backend == Backend::cpu ? "cpu" : "cuda"; }

StringLayout parse_string_layout(const std::string& name) {
  if (name == "lane_refill") return StringLayout::lane_refill;
  if (name == "lane_per_string") return StringLayout::lane_per_string;
  if (name == "warp_per_string") return StringLayout::warp_per_string;
  throw UsageError("string layout '" + name + "' is not one of lane_refill, lane_per_string, warp_per_string");
}

std::string to_string(StringLayout layout) {
  switch (layout) {
    case StringLayout::lane_refill:
      return "lane_refill";
    case StringLayout::lane_per_string:
      return "lane_per_string";
    case StringLayout::warp_per_string:
      return "warp_per_string";
  }
  return "?";
}

Compaction parse_compaction(const std::string& name) {
  if (name == "bitmap_words") return Compaction::bitmap_words;
  if (name == "cub_select") return Compaction::cub_select;
  throw UsageError("compaction '" + name + "' is not one of bitmap_words, cub_select");
}

std::string to_string(Compaction compaction) {
  return compaction == Compaction::bitmap_words ? "bitmap_words" : "cub_select";
}

FilterResult run_filter(const ColumnTable& table, const Predicate& predicate, const Aggregate& aggregate,
                        const FilterOptions& options, const gpu::ExecutionContext& context) {
  return options.backend == Backend::cuda ? run_filter_cuda(table, predicate, aggregate, options, context)
                                          : run_filter_cpu(table, predicate, aggregate, options);
}

}  // namespace subscale::filter
