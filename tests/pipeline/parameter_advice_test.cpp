// A stage's parameter error reaches the user worded for the config, byte for byte as the stages
// used to word it themselves.
#include "pipeline/settings/parameter_advice.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/table/signature_keys.hpp"

namespace subscale::pipeline {
namespace {

template <class Work>
std::string advised(Work&& work) {
  try {
    with_parameter_advice(work);
  } catch (const ParameterError&) {
    ADD_FAILURE() << "the advice let a ParameterError through";
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

TEST(ParameterAdvice, StageMessageNamesNoConfigKey) {
  try {
    check_signature_bits(32);
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()), "signature width is 32; valid values: 64, 128");
  }
}

TEST(ParameterAdvice, ConfigKeysAsBefore) {
  EXPECT_EQ(advised([] { check_signature_bits(32); }), "signature.bits is 32; valid values: 64, 128");
  EXPECT_EQ(advised([] { parse_key_scheme("zipf"); }), "signature.keys is 'zipf'; valid values: uniform, subscale");
  EXPECT_EQ(advised([] {
              throw ParameterErrorOf<UsageError>(Parameter::merge_epsilon, "0",
                                                 "must be a finite number > 0 (got 0.000000)");
            }),
            "merge.epsilon must be a finite number > 0 (got 0.000000); set merge.epsilon in the config, e.g. "
            "merge.epsilon=0.005");
  EXPECT_EQ(advised([] {
              check_signature_bits(64);
              return 1;
            }),
            "no error");
}

}  // namespace
}  // namespace subscale::pipeline
