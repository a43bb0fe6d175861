#include "pipeline/log/run_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include "common/error.hpp"

namespace subscale::pipeline {

RunLog::~RunLog() {
  if (file_) std::fclose(file_);
}

void RunLog::line(const std::string& text) { keep(text, !quiet_); }
void RunLog::warning(const std::string& text) { keep(text, !silent_); }

void RunLog::keep(const std::string& text, bool show) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  const std::string kept = std::string(stamp) + "  " + text + "\n";
  const std::lock_guard lock(mutex_);
  kept_ << kept;
  append(kept);
  if (show) std::fprintf(stderr, "%s\n", text.c_str());
}

void RunLog::append(const std::string& text) {
  if (!file_ || failed_) return;
  // Flushed line by line: a reader (or a crash) sees every line written so far.
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0) failed_ = true;
}

void RunLog::write_to(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  std::FILE* stream = fd >= 0 ? ::fdopen(fd, "w") : nullptr;
  if (!stream) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    throw Error(ExitCode::other, file.string() + ": cannot create the run's log: " + std::strerror(error));
  }
  const std::lock_guard lock(mutex_);
  if (file_) std::fclose(file_);
  file_ = stream;
  path_ = file;
  failed_ = false;
  append(kept_.str());
}

void RunLog::check_written() const {
  if (failed_) throw Error(ExitCode::other, path_.string() + ": cannot write the run's log (is the disk full?)");
}

}  // namespace subscale::pipeline
