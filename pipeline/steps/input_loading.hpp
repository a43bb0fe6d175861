#pragma once
// A run's input: loaded, joined with a second table and filtered when the config says so,
// normalised and held in the configured precision, with its ground truth; all checked before
// anything is written.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/held_values.hpp"
#include "io/ground_truth.hpp"
#include "pipeline/log/run_log.hpp"
#include "pipeline/output/run_report.hpp"
#include "pipeline/settings/run_settings.hpp"

namespace subscale::pipeline {

// A uniform sample of the held values on which the run finds its clusters (sampling.hpp).
struct DrawnSample {
  std::vector<std::uint32_t> rows;  // of the held values, ascending
  HeldValues held;                  // those rows' values
  std::uint64_t seed = 0;
  std::string reason;
};

struct LoadedInput {
  Dataset data;     // ids, labels and names; its values moved into `held` after normalisation
  HeldValues held;  // what the stages read, in the held precision
  std::optional<io::GroundTruth> truth;
  std::optional<DrawnSample> sample;  // set: the core, merge and consolidation read the sample

  // What the core, merge and consolidation read: the sample where there is one.
  const HeldValues& discovery() const noexcept { return sample ? sample->held : held; }
};

// Reads and checks everything the run needs before anything is written.
LoadedInput load_input(const RunSettings& settings, RunLog& log, RunReport& report);

}  // namespace subscale::pipeline
