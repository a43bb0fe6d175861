#include "pipeline/output/claimed_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace subscale::pipeline {
namespace {

namespace fs = std::filesystem;

// Every file a run (or a sweep) writes; ".tmp-" names are what a killed run leaves of them.
constexpr std::array<const char*, 11> kRunFiles = {
    "config.yaml",      "log.txt",         "summary.json", "results.h5", "subspaces.txt", "clusters.txt",
    "clusters_raw.txt", "memberships.csv", "report.html",  "sweep.csv",  "sweep.md"};

// The folder's absolute path without a trailing "/" or ".", so that its parent and name exist.
fs::path plain_path(const fs::path& folder) {
  fs::path path = fs::absolute(folder).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();
  return path;
}

std::string system_error(int error) { return std::strerror(error); }

// Locks `folder` for this process (released when the descriptor closes, the process's end included).
int lock_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOTDIR || errno == ELOOP)
      throw UsageError(folder.string() + ": is not a folder (a file or a link is there); choose another --out");
    throw Error(ExitCode::other, folder.string() + ": cannot open the run folder: " + system_error(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK)
      throw UsageError(folder.string() +
                       ": another subscale run is writing into this folder now; wait for it to finish, or give "
                       "another --out");
    throw Error(ExitCode::other, folder.string() + ": cannot lock the run folder: " + system_error(error));
  }
  return fd;
}

std::string timestamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  char stamp[40];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&seconds));
  char text[48];
  std::snprintf(text, sizeof text, "%s-%03d", stamp, static_cast<int>(millis));
  return text;
}

}  // namespace

bool is_run_file(const std::string& name) {
  for (const char* known : kRunFiles) {
    const std::string base = known;
    if (name == base || name.rfind(base + ".tmp-", 0) == 0) return true;
  }
  return false;
}

bool is_run_summary(const fs::path& file) {
  std::ifstream in(file);
  const nlohmann::json summary = nlohmann::json::parse(in, nullptr, false);
  return summary.is_object() && summary.contains("counts");
}

bool is_run_folder(const fs::path& folder) {
  std::error_code error;
  bool has_log_or_summary = false;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_symlink()) return false;
    if (entry.is_directory()) {
      if (!is_run_folder(entry.path())) return false;
      has_log_or_summary = true;
      continue;
    }
    if (!entry.is_regular_file() || !is_run_file(name)) return false;
    if (name == "log.txt" || name == "sweep.csv" || (name == "summary.json" && is_run_summary(entry.path())))
      has_log_or_summary = true;
  }
  return !error && has_log_or_summary;
}

ClaimedFolder::ClaimedFolder(fs::path final_path, int lock, Found found)
    : final_(std::move(final_path)), lock_(lock), found_(found) {}

ClaimedFolder::ClaimedFolder(ClaimedFolder&& other) noexcept
    : final_(std::move(other.final_)),
      work_(std::move(other.work_)),
      lock_(std::exchange(other.lock_, -1)),
      found_(other.found_),
      begun_(std::exchange(other.begun_, false)),
      finished_(std::exchange(other.finished_, true)) {}

ClaimedFolder ClaimedFolder::claim(const fs::path& folder, bool overwrite) {
  const fs::path path = plain_path(folder);
  std::error_code error;
  if (fs::is_symlink(path, error)) throw UsageError(path.string() + ": is a link; give the folder itself as --out");
  Found found = Found::empty;
  fs::create_directories(path.parent_path(), error);
  if (fs::create_directory(path, error)) {
    found = Found::made;
  } else if (error) {
    throw Error(ExitCode::other, path.string() + ": cannot create the run folder: " + error.message() +
                                     " (does its parent folder exist and is it writable?)");
  } else if (!fs::is_directory(path)) {
    throw UsageError(path.string() + ": is a file, not a folder; give another --out");
  }
  const int lock = lock_folder(path);
  ClaimedFolder claimed(path, lock, found);
  if (found == Found::made || fs::is_empty(path, error)) return claimed;
  if (is_run_folder(path)) {
    claimed.found_ = Found::run;
  } else if (overwrite) {
    claimed.found_ = Found::foreign;
  } else {
    throw UsageError(path.string() +
                     ": holds files that no subscale run wrote; give an empty or new folder as --out, or add "
                     "--overwrite to write the run's files into it (files of the same names are replaced)");
  }
  return claimed;
}

ClaimedFolder ClaimedFolder::claim_new(const fs::path& parent, const std::string& stem) {
  std::error_code error;
  fs::create_directories(parent, error);
  if (error) throw Error(ExitCode::other, parent.string() + ": cannot create the folder for runs: " + error.message());
  const std::string base = stem + "-" + timestamp();
  for (int attempt = 1; attempt < 10000; ++attempt) {
    const fs::path path = plain_path(parent / (attempt == 1 ? base : base + "-" + std::to_string(attempt)));
    if (!fs::create_directory(path, error)) {
      if (error) throw Error(ExitCode::other, path.string() + ": cannot create the run folder: " + error.message());
      continue;  // taken by a run started at the same moment
    }
    return ClaimedFolder(path, lock_folder(path), Found::made);
  }
  throw Error(ExitCode::other, parent.string() + ": cannot find a free name for the run folder " + base);
}

// Work folders of earlier runs into this folder that were killed (SIGKILL, a node lost) before
// they could move in or clean up: .NAME.partial-PID[-N][.old]. Only the holder of the folder's
// lock writes one, and that is this run now, so whatever is there belongs to no live run.
void ClaimedFolder::remove_stale_work_folders() const {
  std::string prefix = ".";
  prefix.append(final_.filename().string()).append(".partial-");
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(final_.parent_path(), error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    std::string rest = name.substr(prefix.size());
    if (rest.ends_with(".old")) rest.resize(rest.size() - 4);
    if (rest.empty() || rest.find_first_not_of("0123456789-") != std::string::npos || !entry.is_directory(error))
      continue;
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

void ClaimedFolder::begin() {
  if (begun_) return;
  remove_stale_work_folders();
  if (found_ == Found::made || found_ == Found::empty) {
    // Nothing there to keep: the run writes in place (under the lock, summary.json last).
    work_ = final_;
    begun_ = true;
    return;
  }
  const fs::path parent = final_.parent_path();
  std::string name = ".";
  name.append(final_.filename().string()).append(".partial-").append(std::to_string(::getpid()));
  std::error_code error;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    work_ = parent / (attempt == 0 ? name : name + "-" + std::to_string(attempt));
    if (fs::create_directory(work_, error)) {
      begun_ = true;
      return;
    }
    if (error) break;
  }
  throw Error(ExitCode::other, work_.string() + ": cannot create the folder the run writes into before it is moved " +
                                   "into place: " + error.message());
}

// The work folder takes the final name in one step; what was there before ends up at the work
// folder's name and is removed.
void ClaimedFolder::swap_in() {
  if (::renameat2(AT_FDCWD, work_.c_str(), AT_FDCWD, final_.c_str(), RENAME_EXCHANGE) != 0) {
    // File systems without the exchange: two renames, the earlier folder set aside in between.
    const fs::path aside = work_.string() + ".old";
    std::error_code error;
    fs::rename(final_, aside, error);
    if (!error) fs::rename(work_, final_, error);
    if (error)
      throw Error(ExitCode::other, final_.string() + ": cannot move the finished run into place (" + error.message() +
                                       "); it is in " + work_.string());
    work_ = aside;
  }
  std::error_code ignored;
  fs::remove_all(work_, ignored);
}

void ClaimedFolder::finish() {
  if (!begun_) begin();
  if (work_ == final_) {
    // Written in place.
  } else if (found_ == Found::foreign) {
    // --overwrite into a folder of other files: the run's files join them, replacing namesakes.
    for (const auto& entry : fs::directory_iterator(work_)) {
      const fs::path target = final_ / entry.path().filename();
      std::error_code error;
      if (fs::is_directory(target) && !fs::is_symlink(target)) fs::remove_all(target, error);
      fs::rename(entry.path(), target, error);
      if (error)
        throw Error(ExitCode::other, target.string() + ": cannot move the run's file into place: " + error.message());
    }
    std::error_code ignored;
    fs::remove_all(work_, ignored);
  } else {
    swap_in();
  }
  finished_ = true;
  release();
}

void ClaimedFolder::release() noexcept {
  if (lock_ >= 0) ::close(lock_);
  lock_ = -1;
}

ClaimedFolder::~ClaimedFolder() {
  if (finished_) return;
  std::error_code ignored;
  if (!begun_) {
    // Refused before the run began: a folder made for it goes again.
    if (found_ == Found::made) fs::remove(final_, ignored);
  } else if (work_ == final_) {
    // An unfinished run into a new folder leaves what it wrote (its log.txt says why it stopped);
    // without summary.json it is recognisably unfinished.
  } else {
    fs::remove_all(work_, ignored);  // an earlier run, or the user's files, stay as they were
  }
  release();
}

}  // namespace subscale::pipeline
