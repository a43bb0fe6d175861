#pragma once
// A progress bar on stderr for long stages: drawn only when stderr is a terminal and the run is
// not --quiet, at most ten times a second, from whichever worker thread advances it.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace subscale::pipeline {

class ProgressBar {
 public:
  ProgressBar(std::string label, std::uint64_t total, bool enabled);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();

  void advance(std::uint64_t amount);

 private:
  void draw(std::uint64_t done);

  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  std::atomic<std::uint64_t> done_{0};
  std::mutex draw_mutex_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// True when stderr is an interactive terminal.
bool stderr_is_terminal();

}  // namespace subscale::pipeline
