#pragma once
// What the memory plan means for the config: a budget refused before any work (with the smallest
// that would do), and the notes said before a run when the plan adapts or may not fit.
#include <cstdint>
#include <string>

#include "pipeline/settings/run_settings.hpp"
#include "stages/dense_units/direct/direct_memory_plan.hpp"

namespace subscale::pipeline {

// A budget is refused before any work when it cannot hold even the units of the fullest window
// (plus the partition's fixed bookkeeping), or when it would need more partitions than allowed;
// the message gives the smallest budget that would do.
void check_memory_budget(const RunSettings& settings, std::uint64_t total_units, std::uint64_t largest_window_units);

// The note for an explicit partitions.count whose tables would not fit the budget (the CPU path
// takes more partitions; dense_units.hpp), or "" when it fits.
std::string partition_memory_note(const RunSettings& settings, std::uint64_t total_units);

// Direct mode's warning when the subspace tables that certainly exist (found by the plan's sample
// of the walk) need more than memory.host_bytes or the memory available now, or "" when they fit.
// A warning, not a refusal: the count is a lower bound, and the run may still fit in swap.
std::string direct_memory_note(const RunSettings& settings, const DirectMemoryPlan& plan);

}  // namespace subscale::pipeline
