#pragma once
// The run's log: every line goes to stderr (unless quiet) and is kept for log.txt.
#include <sstream>
#include <string>

namespace subscale::pipeline {

class RunLog {
 public:
  explicit RunLog(bool quiet) : quiet_(quiet) {}
  void line(const std::string& text);
  std::string text() const { return kept_.str(); }
  bool quiet() const noexcept { return quiet_; }

 private:
  bool quiet_;
  std::ostringstream kept_;
};

}  // namespace subscale::pipeline
