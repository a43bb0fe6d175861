#pragma once
// Accumulates wall time per named phase of a stage (a phase may be entered many times, once per
// partition), so a run can say where its time went; and the seconds since a clock reading.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace subscale {

// Wall time since `start`, in seconds.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class PhaseTimer {
 public:
  explicit PhaseTimer(std::vector<std::pair<std::string, double>>& totals) : totals_(totals) {}
  ~PhaseTimer() { stop(); }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

  // Ends the current phase (if any) and starts `phase`.
  void start(const std::string& phase) {
    stop();
    current_ = phase;
    since_ = std::chrono::steady_clock::now();
  }
  void stop() {
    if (current_.empty()) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
    for (auto& [name, total] : totals_) {
      if (name == current_) {
        total += seconds;
        current_.clear();
        return;
      }
    }
    totals_.emplace_back(current_, seconds);
    current_.clear();
  }

 private:
  std::vector<std::pair<std::string, double>>& totals_;
  std::string current_;
  std::chrono::steady_clock::time_point since_;
};

}  // namespace subscale
