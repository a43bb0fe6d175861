#include "io/hdf5_child_read.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <optional>
#include <sstream>

#include "common/error.hpp"
#include "io/host_memory.hpp"

namespace subscale::io {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 16;
// An error message of the child fits in the pipe's buffer, so the child never waits on it.
constexpr std::size_t kMaxMessageBytes = 60000;

// Thrown by the reader when the pipe ends early; read_in_child() turns it into the child's error
// or the crash message. Not a std::exception, so that no reader's handler takes it for its own.
struct ChildStreamEnded {};

// Owns one end of a pipe.
class Descriptor {
 public:
  explicit Descriptor(int fd = -1) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { reset(); }
  int get() const noexcept { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

bool write_fully(int fd, const char* data, std::size_t bytes) {
  while (bytes > 0) {
    const ssize_t written = ::write(fd, data, bytes);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    bytes -= static_cast<std::size_t>(written);
  }
  return true;
}

// Reads up to `bytes`; 0 at the end of the stream.
std::size_t read_some(int fd, char* data, std::size_t bytes) {
  for (;;) {
    const ssize_t got = ::read(fd, data, bytes);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) throw ChildStreamEnded{};
  }
}

// The child's failure record, when it sent one (a read error counts as none).
std::string read_to_end(int fd) {
  std::string text;
  char chunk[4096];
  try {
    while (const std::size_t got = read_some(fd, chunk, sizeof chunk)) text.append(chunk, got);
  } catch (const ChildStreamEnded&) {
  }
  return text;
}

int wait_for(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return status;
}

// Resident bytes of a process (/proc/PID/statm); nothing where that cannot be read.
std::optional<std::uint64_t> resident_bytes(pid_t pid) {
  std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
  std::uint64_t size_pages = 0, resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return std::nullopt;
  return resident_pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

// CPU seconds a process has used (/proc/PID/stat, user and system); nothing where that cannot be
// read. The command name in parentheses may hold spaces, so the fields are counted after its ')'.
std::optional<double> cpu_seconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  const std::size_t name_end = line.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(name_end + 1));
  std::string skipped;
  for (int field = 3; field < 14; ++field) fields >> skipped;  // state ... cmajflt
  std::uint64_t user_ticks = 0, system_ticks = 0;
  if (!(fields >> user_ticks >> system_ticks)) return std::nullopt;
  return static_cast<double>(user_ticks + system_ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// The CPU time any read is given, before the second per MiB of the file (child_cpu_bound).
constexpr double kChildCpuSeconds = 60.0;

std::string describe_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

// The child's failure record: the exit code (one byte) and the message.
void send_failure(int fd, ExitCode code, const std::string& message) {
  std::string record(1, static_cast<char>(code));
  record += message.substr(0, kMaxMessageBytes);
  write_fully(fd, record.data(), record.size());
}

[[noreturn]] void run_child(const std::string& path, int data_fd, int error_fd, pid_t parent,
                            const std::function<void(ChildStreamWriter&)>& produce) {
  // The child must not outlive a parent that was killed while it waited.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  try {
    ChildStreamWriter out(data_fd);
    produce(out);
    out.flush();
    ::_exit(0);  // no exit handlers: they belong to the parent (HDF5's, the sanitizers', the tests')
  } catch (const Error& error) {
    send_failure(error_fd, error.code(), error.what());
  } catch (const std::bad_alloc&) {
    send_failure(error_fd, ExitCode::resource,
                 path + ": not enough memory to read the HDF5 file; use a machine with more memory");
  } catch (const std::exception& error) {
    send_failure(error_fd, ExitCode::input, path + ": cannot read the HDF5 file: " + error.what());
  } catch (...) {
    send_failure(error_fd, ExitCode::input, path + ": cannot read the HDF5 file");
  }
  ::_exit(3);
}

// The child's error as the type it had, so that callers catching InputError still catch it.
[[noreturn]] void throw_child_failure(ExitCode code, const std::string& message) {
  switch (code) {
    case ExitCode::usage:
      throw UsageError(message);
    case ExitCode::input:
      throw InputError(message);
    case ExitCode::resource:
      throw ResourceError(message);
    default:
      throw Error(code, message);
  }
}

std::string how_it_ended(int status) {
  if (status == -1) return "it could not be waited for";
  if (WIFSIGNALED(status)) {
    const char* name = ::strsignal(WTERMSIG(status));
    return "signal " + std::to_string(WTERMSIG(status)) + (name ? std::string(", ") + name : std::string());
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return "it ended with status " + std::to_string(WEXITSTATUS(status)) + ", as on a detected memory error";
  return "it stopped before it had sent the whole file";
}

}  // namespace

bool hdf5_reads_in_child() {
  const char* text = std::getenv("SUBSCALE_HDF5_IN_PROCESS");
  if (!text) return true;
  const std::string value = text;
  return !(value == "1" || value == "yes" || value == "true" || value == "on");
}

void ChildStreamWriter::write(const void* data, std::size_t bytes) {
  const char* from = static_cast<const char*>(data);
  if (buffer_.size() + bytes <= kBufferBytes) {
    buffer_.insert(buffer_.end(), from, from + bytes);
    return;
  }
  flush();
  if (bytes >= kBufferBytes) {
    if (!write_fully(fd_, from, bytes)) ::_exit(1);  // the parent stopped reading: it has its answer
    return;
  }
  buffer_.assign(from, from + bytes);
}

void ChildStreamWriter::flush() {
  if (!write_fully(fd_, buffer_.data(), buffer_.size())) ::_exit(1);
  buffer_.clear();
}

void ChildStreamWriter::put_string(const std::string& text) {
  put<std::uint64_t>(text.size());
  write(text.data(), text.size());
}

void ChildStreamReader::read(void* data, std::size_t bytes) {
  char* to = static_cast<char*>(data);
  const std::size_t buffered = std::min(bytes, buffer_.size() - begin_);
  std::copy_n(buffer_.data() + begin_, buffered, to);
  begin_ += buffered;
  to += buffered;
  bytes -= buffered;
  if (bytes >= kBufferBytes) {  // large blocks go straight to their place, without a copy
    while (bytes > 0) {
      const std::size_t got = read_some(to, bytes);
      if (got == 0) throw ChildStreamEnded{};
      to += got;
      bytes -= got;
    }
    return;
  }
  while (bytes > 0) {
    buffer_.resize(kBufferBytes);
    const std::size_t got = read_some(buffer_.data(), kBufferBytes);
    if (got == 0) throw ChildStreamEnded{};
    buffer_.resize(got);
    const std::size_t taken = std::min(bytes, got);
    std::copy_n(buffer_.data(), taken, to);
    begin_ = taken;
    to += taken;
    bytes -= taken;
  }
}

std::size_t ChildStreamReader::read_some(char* data, std::size_t bytes) {
  if (watch_) {
    constexpr auto kWatchEvery = std::chrono::milliseconds(100);
    auto last_watch = std::chrono::steady_clock::now();
    for (;;) {
      pollfd ready{fd_, POLLIN, 0};
      const int polled = ::poll(&ready, 1, static_cast<int>(kWatchEvery.count()));
      if (polled < 0 && errno != EINTR) break;
      const auto now = std::chrono::steady_clock::now();
      if (polled == 0 || now - last_watch >= kWatchEvery) {
        watch_();
        last_watch = now;
      }
      if (polled > 0) break;
    }
  }
  return subscale::io::read_some(fd_, data, bytes);
}

std::string ChildStreamReader::get_string() {
  std::string text(checked_length(get<std::uint64_t>(), 1), '\0');
  read(text.data(), text.size());
  return text;
}

bool ChildStreamReader::at_end() {
  char extra = 0;
  return begin_ == buffer_.size() && read_some(&extra, 1) == 0;
}

std::size_t ChildStreamReader::checked_length(std::uint64_t count, std::size_t element_bytes) {
  check_host_allocation(checked_bytes({count}, element_bytes), "a column sent by the process reading the HDF5 file");
  return static_cast<std::size_t>(count);
}

std::uint64_t child_memory_bound() { return std::max<std::uint64_t>(available_host_memory(), std::uint64_t{1} << 30); }

double child_cpu_bound(const std::string& path) {
  std::error_code error;
  const std::uintmax_t bytes = std::filesystem::file_size(path, error);
  return kChildCpuSeconds + (error ? 0.0 : static_cast<double>(bytes) / static_cast<double>(1 << 20));
}

void read_in_child(const std::string& path, const std::function<void(ChildStreamWriter&)>& produce,
                   const std::function<void(ChildStreamReader&)>& consume) {
  read_in_child(path, produce, consume, ChildLimits{child_memory_bound(), child_cpu_bound(path)});
}

void read_in_child(const std::string& path, const std::function<void(ChildStreamWriter&)>& produce,
                   const std::function<void(ChildStreamReader&)>& consume, const ChildLimits& limits) {
  int data_ends[2], error_ends[2];
  if (::pipe2(data_ends, O_CLOEXEC) != 0)
    throw ResourceError(path + ": cannot make a pipe to the process that reads the HDF5 file (" + std::strerror(errno) +
                        "); raise the open-file limit, or set SUBSCALE_HDF5_IN_PROCESS=1");
  Descriptor data_in(data_ends[0]), data_out(data_ends[1]);
  // A larger pipe (1 MiB, the usual unprivileged maximum; the default is 64 KiB) lets each side
  // move a whole block per system call and switch less often; refused sizes keep the default.
  ::fcntl(data_ends[1], F_SETPIPE_SZ, 1 << 20);
  if (::pipe2(error_ends, O_CLOEXEC) != 0)
    throw ResourceError(path + ": cannot make a pipe to the process that reads the HDF5 file (" + std::strerror(errno) +
                        "); raise the open-file limit, or set SUBSCALE_HDF5_IN_PROCESS=1");
  Descriptor error_in(error_ends[0]), error_out(error_ends[1]);

  const pid_t parent = ::getpid();
  // The child starts with this process's pages (shared until written), so its growth is what it
  // holds beyond them.
  const std::uint64_t resident_at_start = resident_bytes(parent).value_or(0);
  const pid_t child = ::fork();
  if (child < 0)
    throw ResourceError(path + ": cannot start the process that reads the HDF5 file (" + std::strerror(errno) +
                        "); free some memory, or set SUBSCALE_HDF5_IN_PROCESS=1 to read trusted files in this process");
  if (child == 0) {
    data_in.reset();
    error_in.reset();
    run_child(path, data_out.get(), error_out.get(), parent, produce);
  }
  data_out.reset();
  error_out.reset();

  bool complete = false;
  std::exception_ptr consume_error;
  try {
    const auto stop = [&](const std::string& what) {
      ::kill(child, SIGKILL);
      throw ResourceError(path + ": the process reading the HDF5 file " + what);
    };
    ChildStreamReader in(data_in.get(), [&] {
      const std::optional<std::uint64_t> resident = resident_bytes(child);
      if (resident && *resident > resident_at_start + limits.memory_bytes)
        stop("took more than " + describe_bytes(limits.memory_bytes) +
             " of memory beyond this process's and was stopped; the file is damaged (check it with h5dump), or "
             "reading it needs more memory than this machine has free");
      const std::optional<double> used = cpu_seconds(child);
      if (used && *used > limits.cpu_seconds)
        stop("used more than " + describe_seconds(limits.cpu_seconds) + " of CPU time (" +
             describe_seconds(kChildCpuSeconds) +
             " and 1 s per MiB of the file) and was stopped; the file is damaged "
             "(check it with h5dump), or, for a file you trust that takes longer to read, set "
             "SUBSCALE_HDF5_IN_PROCESS=1 to read it in this process");
    });
    consume(in);
    // Also waits until the child has closed the file.
    if (!in.at_end())
      throw InputError(path + ": the process reading the HDF5 file sent more than was asked for; the file is damaged");
    complete = true;
  } catch (const ChildStreamEnded&) {
  } catch (...) {
    consume_error = std::current_exception();
  }
  data_in.reset();  // a child still writing gets EPIPE and ends
  if (consume_error) ::kill(child, SIGKILL);
  const int status = wait_for(child);
  const std::string failure = read_to_end(error_in.get());
  if (consume_error) std::rethrow_exception(consume_error);
  if (!failure.empty()) throw_child_failure(static_cast<ExitCode>(failure.front()), failure.substr(1));
  if (complete && status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  // SIGKILL comes from outside (the kernel's out-of-memory killer, a job's limit), not from a crash.
  if (status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
    throw ResourceError(path + ": the process reading the HDF5 file was killed (signal 9, as by the kernel when " +
                        "memory runs out, or by a job's limit); use a machine with more memory, or a smaller input");
  throw InputError(path + ": the HDF5 library crashed reading the file (" + how_it_ended(status) +
                   "): the file is damaged; write it again from its source, or check it with h5dump");
}

}  // namespace subscale::io
