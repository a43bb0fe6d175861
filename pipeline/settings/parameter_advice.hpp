#pragma once
// Stage errors about a parameter, worded for the config: a stage names its parameter plainly
// (common/error.hpp's ParameterError); the run says which config key holds it and what to set.
#include <string>

#include "common/error.hpp"

namespace subscale::pipeline {

// The message a user reads for `fault`: the config key in place of the stage's name, and advice.
std::string advised_message(const ParameterError& fault);

// Runs `work`; a ParameterError leaves it as an error of the same exit code worded for the config.
template <class Work>
decltype(auto) with_parameter_advice(Work&& work) {
  try {
    return work();
  } catch (const ParameterError& fault) {
    if (fault.code() == ExitCode::resource) throw ResourceError(advised_message(fault));
    throw UsageError(advised_message(fault));
  }
}

}  // namespace subscale::pipeline
