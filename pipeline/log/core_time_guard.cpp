#include "pipeline/log/core_time_guard.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "common/error.hpp"
#include "pipeline/log/log_format.hpp"

namespace subscale::pipeline {
namespace {

// A second of dense_units: long enough that the threads' start and the first chunks' caches are a
// small part of it, short enough that a run refused after it has cost nothing.
constexpr double kMeasuredSeconds = 1;

std::optional<double> assumed_rate() {
  const char* text = std::getenv("SUBSCALE_ASSUME_UNITS_PER_SECOND");
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  const double rate = std::strtod(text, &end);
  if (*end != '\0' || !(rate > 0) || !std::isfinite(rate))
    throw UsageError(std::string("SUBSCALE_ASSUME_UNITS_PER_SECOND is '") + text +
                     "'; give a rate of dense units per second above 0 (e.g. 1e8), or unset it to measure the rate");
  return rate;
}

}  // namespace

CoreTimeGuard::CoreTimeGuard(std::uint64_t total_units, bool force, WarningSink warn)
    : total_(total_units), force_(force), warn_(std::move(warn)) {
  if (const auto rate = assumed_rate())
    judge(static_cast<double>(total_) / *rate, format_count(total_) + " dense units at the " +
                                                   format_count(static_cast<std::uint64_t>(*rate)) +
                                                   " units/s SUBSCALE_ASSUME_UNITS_PER_SECOND assumes");
}

void CoreTimeGuard::judge(double projected_seconds, const std::string& basis) {
  if (judged_.exchange(true, std::memory_order_acq_rel)) return;
  if (projected_seconds > kRefusedCoreSeconds && !force_)
    throw UsageError("the core's dense units would take about " + duration_text(projected_seconds) + " (from " + basis +
                     "), more than a day: lower epsilon or raise min_points (subscale plan shows the units), or "
                     "add --force to run it anyway");
  if (projected_seconds > kLongCoreSeconds && !warned_ && warn_)
    warn_("warning: the core's dense units will take about " + duration_text(projected_seconds) + " (from " + basis +
          "); lower epsilon or raise min_points if that is not meant");
}

void CoreTimeGuard::advance(std::uint64_t amount) {
  const std::uint64_t done = done_.fetch_add(amount, std::memory_order_relaxed) + amount;
  if (judged()) return;
  const auto now = Clock::now();
  Clock::rep first = first_ticks_.load(std::memory_order_acquire);
  if (first < 0) {
    // The thread that sets the time sets the count; another that reads both in between measures
    // from a count a little low, over a second: a rate off by one chunk at most.
    if (first_ticks_.compare_exchange_strong(first, now.time_since_epoch().count(), std::memory_order_acq_rel))
      first_done_.store(done, std::memory_order_release);
    return;
  }
  const double measured = std::chrono::duration<double>(now - Clock::time_point(Clock::duration(first))).count();
  if (measured < kMeasuredSeconds || done >= total_) return;
  const std::uint64_t first_done = std::min(first_done_.load(std::memory_order_acquire), done);
  const double rate = static_cast<double>(done - first_done) / measured;
  if (!(rate > 0)) return;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  char basis[128];
  std::snprintf(basis, sizeof basis, "%s units/s over %.1f s of dense_units, %s of %s units done",
                format_count(static_cast<std::uint64_t>(rate)).c_str(), measured, format_count(done).c_str(),
                format_count(total_).c_str());
  judge(elapsed + static_cast<double>(total_ - done) / rate, basis);
}

}  // namespace subscale::pipeline
