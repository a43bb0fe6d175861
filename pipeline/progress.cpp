#include "pipeline/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace subscale::pipeline {

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled && total > 0) {
  start_ = last_draw_ = std::chrono::steady_clock::now();
}

ProgressBar::~ProgressBar() {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K");  // clear the bar; the stage summary line follows
  std::fflush(stderr);
}

void ProgressBar::advance(std::uint64_t amount) {
  const std::uint64_t done = done_.fetch_add(amount, std::memory_order_relaxed) + amount;
  if (!enabled_) return;
  std::unique_lock lock(draw_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw(done);
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
