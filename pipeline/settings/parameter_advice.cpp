#include "pipeline/settings/parameter_advice.hpp"

namespace subscale::pipeline {
namespace {

struct Advice {
  const char* key;     // the config key that holds the parameter
  const char* action;  // what to do, after the stage's words; "" for nothing more
};

Advice advice_for(Parameter parameter) {
  switch (parameter) {
    case Parameter::merge_epsilon:
      return {"merge.epsilon", "; set merge.epsilon in the config, e.g. merge.epsilon=0.005"};
    case Parameter::merge_min_points:
      return {"merge.min_points", ""};
    case Parameter::signature_keys:
      return {"signature.keys", ""};
    case Parameter::signature_bits:
      return {"signature.bits", ""};
  }
  return {"?", ""};
}

}  // namespace

std::string advised_message(const ParameterError& fault) {
  const Advice advice = advice_for(fault.parameter());
  return std::string(advice.key) + " " + fault.detail() + advice.action;
}

}  // namespace subscale::pipeline
