#include "pipeline/log/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "pipeline/log/log_format.hpp"

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
  char text[256];
  if (done == 0) {
    std::snprintf(text, sizeof text, "%-11s %5.1f%% done after %.0f s (the first work still running)", label_.c_str(),
                  0.0, elapsed);
  } else if (done >= total_) {
    // The count is done but the stage is not (its last part is not counted, or it passes over the
    // units more than once, as the partitions of a signature table do): no time left can be told,
    // and "0 s left" would be wrong for as long as the rest takes.
    std::snprintf(text, sizeof text, "%-11s %s %s counted after %.0f s (%.3g %s/s), %s; its end not foreseeable",
                  label_.c_str(), format_count(done).c_str(), unit_.c_str(), elapsed, rate, unit_.c_str(),
                  done == total_ ? "the rest of the stage still running" : "more than planned: another pass");
  } else {
    // From the work left at the rate so far; under a second is said so, not as "0 s".
    const double left = static_cast<double>(total_ - done) / rate;
    char when[48];
    if (left < 1)
      std::snprintf(when, sizeof when, "under 1 s left");
    else
      std::snprintf(when, sizeof when, "about %s left", duration_text(left).c_str());
    std::snprintf(text, sizeof text, "%-11s %5.1f%% done after %.0f s, %.3g %s/s, %s", label_.c_str(), 100 * fraction,
                  elapsed, rate, unit_.c_str(), when);
  }
  lines_(text);
}

StageHeartbeat::StageHeartbeat(std::string label, ProgressDisplay display, double interval_seconds,
                               ProgressBar::LineSink lines)
    : label_(std::move(label)), interval_(interval_seconds), lines_(std::move(lines)) {
  if (display != ProgressDisplay::lines || !lines_) return;
  line_writer_ = std::thread([this] {
    std::unique_lock lock(stop_mutex_);
    while (!stop_signal_.wait_for(lock, interval_, [this] { return stopping_; })) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      char text[128];
      std::snprintf(text, sizeof text, "%-11s still running after %.0f s", label_.c_str(), elapsed);
      lines_(text);
    }
  });
}

StageHeartbeat::~StageHeartbeat() {
  if (!line_writer_.joinable()) return;
  {
    const std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_one();
  line_writer_.join();
}

void ProgressBar::draw(std::uint64_t done) {
  const double fraction = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const bool counted = fraction >= 1;
  const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
  constexpr int width = 30;
  const int filled = static_cast<int>(std::min(1.0, fraction) * width);
  char when[48];
  if (counted)
    std::snprintf(when, sizeof when, "finishing");
  else if (fraction <= 0)
    std::snprintf(when, sizeof when, "starting");
  else
    std::snprintf(when, sizeof when, "%s left", eta < 1 ? "under 1 s" : duration_text(eta).c_str());
  std::fprintf(stderr, "\r%-12s [%.*s%*s] %5.1f%%  %s\033[K", label_.c_str(), filled, "##############################",
               width - filled, "", 100 * std::min(1.0, fraction), when);
  std::fflush(stderr);
}

}  // namespace subscale::pipeline
