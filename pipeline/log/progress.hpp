#pragma once
// Progress of a long stage, from whichever worker thread advances it: on a terminal a bar on
// stderr redrawn at most ten times a second; in a batch job (stderr to a file) a line every
// `interval` seconds with the fraction done, the rate and the time left, handed to `lines` (the
// run log, which prints it and keeps it for log.txt), so that a slow run can be told from a hung
// one; or nothing (--quiet). The lines come from a thread of their own, so they keep coming while
// one piece of work (a GPU batch) runs for minutes without advancing the count.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace subscale::pipeline {

enum class ProgressDisplay { none, bar, lines };

class ProgressBar {
 public:
  using LineSink = std::function<void(const std::string& line)>;
  // `unit` names what `total` counts, in the lines' rate ("points/s").
  ProgressBar(std::string label, std::uint64_t total, ProgressDisplay display, double interval_seconds = 10,
              LineSink lines = {}, std::string unit = "units");
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();

  void advance(std::uint64_t amount);

 private:
  void draw(std::uint64_t done);
  void write_line(std::uint64_t done);
  void write_lines_until_stopped();

  std::string label_;
  std::string unit_;
  std::uint64_t total_;
  ProgressDisplay display_;
  std::chrono::duration<double> interval_;
  LineSink lines_;
  std::atomic<std::uint64_t> done_{0};
  std::mutex draw_mutex_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread line_writer_;  // lines mode only; started last, joined first
};

// A stage whose work has no count (density1d, the significance test's steps, evaluate): in a batch
// job a line every `interval` seconds while it runs ("significance still running after 20 s"), so
// that every stage longer than the interval shows in the log, as the counted ones do; nothing on
// a terminal or with --quiet. Lines come from a thread of its own, stopped by the destructor.
class StageHeartbeat {
 public:
  StageHeartbeat(std::string label, ProgressDisplay display, double interval_seconds, ProgressBar::LineSink lines);
  StageHeartbeat(const StageHeartbeat&) = delete;
  StageHeartbeat& operator=(const StageHeartbeat&) = delete;
  ~StageHeartbeat();

 private:
  std::string label_;
  std::chrono::duration<double> interval_;
  ProgressBar::LineSink lines_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread line_writer_;  // started last, joined first
};

// True when stderr is an interactive terminal.
bool stderr_is_terminal();

// What a run's progress looks like: nothing when quiet, a bar on a terminal, lines otherwise.
ProgressDisplay progress_display(bool quiet);

}  // namespace subscale::pipeline
