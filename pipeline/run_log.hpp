#pragma once
// The run's log: every line goes to stderr (unless quiet) and is kept for log.txt.
#include <mutex>
#include <sstream>
#include <string>

namespace subscale::pipeline {

class RunLog {
 public:
  explicit RunLog(bool quiet) : quiet_(quiet) {}
  // From any thread (progress lines come from the workers).
  void line(const std::string& text);
  // Only into log.txt: for what is reported on stderr elsewhere (the error that ends the run).
  void keep(const std::string& text);
  std::string text() const { return kept_.str(); }
  bool quiet() const noexcept { return quiet_; }

 private:
  bool quiet_;
  std::mutex mutex_;
  std::ostringstream kept_;
};

}  // namespace subscale::pipeline
