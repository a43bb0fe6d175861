#pragma once
// Whether the core's dense units will end in a time worth waiting for, judged from a measured rate
// and the plan's unit count, not from the parameters: an epsilon of 1 on a hundred points ends in
// milliseconds, a small epsilon on a large file may take days. The rate comes from direct mode's
// sample of the walk before the walk starts, else from the first second of dense_units itself.
// Past an hour the run is warned of; past a day it is refused (exit 2) unless --force was given.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace subscale::pipeline {

// The projected core time past which a run is warned of, and past which it is refused.
inline constexpr double kLongCoreSeconds = 3600;
inline constexpr double kRefusedCoreSeconds = 86400;

class CoreTimeGuard {
 public:
  using WarningSink = std::function<void(const std::string& line)>;
  // `total_units`: the plan's count. SUBSCALE_ASSUME_UNITS_PER_SECOND, when set, is the rate
  // assumed in place of a measured one (to plan for another machine, and for tests): the run is
  // judged here, at once, and may be refused from this constructor.
  CoreTimeGuard(std::uint64_t total_units, bool force, WarningSink warn);

  // Judged once: refuses (UsageError) a projection past a day unless forced, else warns past an
  // hour. `basis` says where the rate came from.
  void judge(double projected_seconds, const std::string& basis);
  bool judged() const noexcept { return judged_.load(std::memory_order_acquire); }
  // The caller has warned of the time already (from an estimate of its own): no second warning,
  // though a projection past a day is still refused.
  void warned() noexcept { warned_ = true; }

  // The units done, from worker threads: the first call a second after the first one judges the
  // rate between them (the first advance comes after the stage's set-up, which a rate from the
  // start would count as work), and may throw there to stop the run.
  void advance(std::uint64_t amount);

 private:
  using Clock = std::chrono::steady_clock;
  std::uint64_t total_;
  bool force_;
  bool warned_ = false;
  WarningSink warn_;
  Clock::time_point start_ = Clock::now();
  std::atomic<std::uint64_t> done_{0};
  std::atomic<bool> judged_{false};
  // When the first units came (ticks of Clock; -1: not yet), and how many were done then.
  std::atomic<Clock::rep> first_ticks_{-1};
  std::atomic<std::uint64_t> first_done_{0};
};

}  // namespace subscale::pipeline
