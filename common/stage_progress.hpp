#pragma once
// How a long stage after the core (merge, consolidate) tells its caller how far it is, without
// knowing how that is shown: begin(phase, total, unit) starts a phase of `total` items, advance(n)
// counts n more of them done, from any thread. Either callback may be empty (no display).
#include <cstdint>
#include <functional>
#include <string>

namespace subscale {

struct StageProgress {
  std::function<void(const std::string& phase, std::uint64_t total, const std::string& unit)> on_begin;
  std::function<void(std::uint64_t done)> on_advance;

  void begin(const std::string& phase, std::uint64_t total, const std::string& unit) const {
    if (on_begin) on_begin(phase, total, unit);
  }
  void advance(std::uint64_t done) const {
    if (on_advance) on_advance(done);
  }
};

}  // namespace subscale
