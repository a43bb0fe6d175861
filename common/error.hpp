#pragma once
// Errors that cross stage boundaries carry the process exit code the command line should use,
// so the runner maps any failure to the documented exit codes without knowing where it came from.
#include <stdexcept>
#include <string>

namespace subscale {

enum class ExitCode : int {
  success = 0,
  other = 1,
  usage = 2,     // bad command line or config
  input = 3,     // the data cannot be read or is invalid
  resource = 4,  // memory or device unavailable / too small
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

struct UsageError : Error {
  explicit UsageError(const std::string& message) : Error(ExitCode::usage, message) {}
};
struct InputError : Error {
  explicit InputError(const std::string& message) : Error(ExitCode::input, message) {}
};
struct ResourceError : Error {
  explicit ResourceError(const std::string& message) : Error(ExitCode::resource, message) {}
};

}  // namespace subscale
