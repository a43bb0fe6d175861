#include "pipeline/log/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace subscale::pipeline {

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressDisplay progress_display(bool quiet) {
  return quiet ? ProgressDisplay::none : stderr_is_terminal() ? ProgressDisplay::bar : ProgressDisplay::lines;
}

ProgressBar::ProgressBar(std::string label, std::uint64_t total, ProgressDisplay display, double interval_seconds,
                         LineSink lines, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      display_(total > 0 && (display != ProgressDisplay::lines || lines) ? display : ProgressDisplay::none),
      interval_(display == ProgressDisplay::bar ? 0.1 : interval_seconds),
      lines_(std::move(lines)) {
  start_ = last_draw_ = std::chrono::steady_clock::now();
  if (display_ == ProgressDisplay::lines) line_writer_ = std::thread([this] { write_lines_until_stopped(); });
}

ProgressBar::~ProgressBar() {
  if (line_writer_.joinable()) {
    {
      const std::lock_guard lock(stop_mutex_);
      stopping_ = true;
    }
    stop_signal_.notify_one();
    line_writer_.join();
  }
  if (display_ != ProgressDisplay::bar) return;
  std::fprintf(stderr, "\r\033[K");  // clear the bar; the stage summary line follows
  std::fflush(stderr);
}

void ProgressBar::advance(std::uint64_t amount) {
  const std::uint64_t done = done_.fetch_add(amount, std::memory_order_relaxed) + amount;
  if (display_ != ProgressDisplay::bar) return;  // lines: written by line_writer_
  std::unique_lock lock(draw_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < interval_) return;
  last_draw_ = now;
  draw(done);
}

void ProgressBar::write_lines_until_stopped() {
  std::unique_lock lock(stop_mutex_);
  while (!stop_signal_.wait_for(lock, interval_, [this] { return stopping_; }))
    write_line(done_.load(std::memory_order_relaxed));
}

void ProgressBar::write_line(std::uint64_t done) {
  const double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double left = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
  char text[224];
  if (done == 0)
    std::snprintf(text, sizeof text, "%-11s %5.1f%% done after %.0f s (the first work still running)", label_.c_str(),
                  0.0, elapsed);
  else
    std::snprintf(text, sizeof text, "%-11s %5.1f%% done after %.0f s, %.3g %s/s, about %.0f s left", label_.c_str(),
                  100 * fraction, elapsed, rate, unit_.c_str(), left);
  lines_(text);
}

void ProgressBar::draw(std::uint64_t done) {
  const double fraction = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
  constexpr int width = 30;
  const int filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r%-12s [%.*s%*s] %5.1f%%  %.0fs left", label_.c_str(), filled,
               "##############################", width - filled, "", 100 * fraction, eta);
  std::fflush(stderr);
}

}  // namespace subscale::pipeline
