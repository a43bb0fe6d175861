#pragma once
// The run's log: every line goes to stderr (unless quiet) and is kept; once the run has a folder,
// write_to() writes the lines so far to log.txt there and every later line as it comes, so the file
// grows while the run goes.
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <string>

namespace subscale::pipeline {

class RunLog {
 public:
  // quiet: lines are kept, not shown; silent: warnings are not shown either (the processes of a
  // cluster run other than the root).
  explicit RunLog(bool quiet, bool silent = false) : quiet_(quiet || silent), silent_(silent) {}
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;
  ~RunLog();
  // From any thread (progress lines come from the workers).
  void line(const std::string& text);
  // A line shown even when quiet: what the user must know before the work starts.
  void warning(const std::string& text);
  // Only into log.txt: for what is reported on stderr elsewhere (the error that ends the run).
  void keep(const std::string& text) { keep(text, false); }
  std::string text() const { return kept_.str(); }
  bool quiet() const noexcept { return quiet_; }

  // Creates `file` (exclusively, not through a link) and keeps it up to date from now on.
  void write_to(const std::filesystem::path& file);
  // Throws Error (exit 1) naming the file when a line could not be written (a full disk).
  void check_written() const;

 private:
  void append(const std::string& text);

  void keep(const std::string& text, bool show);

  bool quiet_;
  bool silent_;
  std::mutex mutex_;
  std::ostringstream kept_;
  std::FILE* file_ = nullptr;
  std::filesystem::path path_;
  bool failed_ = false;
};

}  // namespace subscale::pipeline
