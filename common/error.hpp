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

// A parameter a stage cannot work with, named as the stage knows it (no config keys: the pipeline
// words the error for the config, pipeline/settings/parameter_advice.hpp).
enum class Parameter { merge_epsilon, merge_min_points, signature_keys, signature_bits };

inline const char* parameter_name(Parameter parameter) {
  switch (parameter) {
    case Parameter::merge_epsilon:
      return "epsilon";
    case Parameter::merge_min_points:
      return "min_points";
    case Parameter::signature_keys:
      return "key scheme";
    case Parameter::signature_bits:
      return "signature width";
  }
  return "?";
}

// What a parameter error carries: which parameter, its value, and the stage's words that follow
// the parameter's name ("is 32; valid values: 64, 128").
class ParameterError {
 public:
  ParameterError(ExitCode code, Parameter parameter, std::string value, std::string detail)
      : code_(code), parameter_(parameter), value_(std::move(value)), detail_(std::move(detail)) {}
  virtual ~ParameterError() = default;
  ExitCode code() const noexcept { return code_; }
  Parameter parameter() const noexcept { return parameter_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& detail() const noexcept { return detail_; }

 private:
  ExitCode code_;
  Parameter parameter_;
  std::string value_;
  std::string detail_;
};

// Thrown as a UsageError or ResourceError (Base), so exit codes and every catch of those stay.
template <class Base>
struct ParameterErrorOf : Base, ParameterError {
  ParameterErrorOf(Parameter parameter, std::string value, const std::string& detail)
      : Base(std::string(parameter_name(parameter)) + " " + detail),
        ParameterError(Base::code(), parameter, std::move(value), detail) {}
};

}  // namespace subscale
