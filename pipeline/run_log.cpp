#include "pipeline/run_log.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace subscale::pipeline {

void RunLog::line(const std::string& text) {
  keep(text);
  if (!quiet_) {
    const std::lock_guard lock(mutex_);
    std::fprintf(stderr, "%s\n", text.c_str());
  }
}

void RunLog::keep(const std::string& text) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  const std::lock_guard lock(mutex_);
  kept_ << stamp << "  " << text << "\n";
}

}  // namespace subscale::pipeline
