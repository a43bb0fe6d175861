// The regex subset's automaton (both backends' matcher) against RE2 on ASCII patterns: hand-picked
// cases, random patterns of the subset on random bytes, and the refused patterns.
#include "stages/filter/regex_subset.hpp"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <random>

#include "common/error.hpp"
#include "tests/filter/filter_test_util.hpp"

namespace subscale::filter {
namespace {

std::unique_ptr<re2::RE2> reference(const std::string& pattern) {
  re2::RE2::Options options;
  options.set_encoding(re2::RE2::Options::EncodingLatin1);
  options.set_dot_nl(true);
  options.set_log_errors(false);
  return std::make_unique<re2::RE2>(pattern, options);
}

bool automaton(const std::string& pattern, const std::string& text) {
  const auto a = compile_regex_subset(pattern, "test");
  return automaton_matches(*a, reinterpret_cast<const std::uint8_t*>(text.data()),
                           static_cast<std::int64_t>(text.size()));
}

// Checks the automaton against RE2 and returns the answer.
bool matches(const std::string& pattern, const std::string& text) {
  const auto re = reference(pattern);
  EXPECT_TRUE(re->ok()) << pattern << ": " << re->error();
  const bool expected = re2::RE2::PartialMatch(text, *re);
  EXPECT_EQ(automaton(pattern, text), expected) << "pattern '" << pattern << "' text '" << text << "'";
  return expected;
}

TEST(RegexSubset, HandPickedCases) {
  EXPECT_TRUE(matches("abc", "xxabcxx"));
  EXPECT_FALSE(matches("^abc", "xxabc"));
  EXPECT_TRUE(matches("^abc", "abcxx"));
  EXPECT_TRUE(matches("abc$", "xxabc"));
  EXPECT_FALSE(matches("abc$", "abcx"));
  EXPECT_TRUE(matches("^$", ""));
  EXPECT_FALSE(matches("^$", "a"));
  EXPECT_TRUE(matches("", "anything"));
  EXPECT_TRUE(matches("a*", ""));
  EXPECT_TRUE(matches("^a*$", "aaaa"));
  EXPECT_FALSE(matches("^a*$", "aaba"));
  EXPECT_TRUE(matches("^(ab|cd)+$", "abcdab"));
  EXPECT_FALSE(matches("^(ab|cd)+$", "abcda"));
  EXPECT_TRUE(matches("colou?r", "my color"));
  EXPECT_TRUE(matches("[a-c]x[^0-9]", "zbx!"));
  EXPECT_FALSE(matches("[a-c]x[^0-9]", "bx7"));
  EXPECT_TRUE(matches("[^a]", "\n"));   // negated classes include the newline, as in RE2
  EXPECT_TRUE(matches("a.c", "a\nc"));  // . is any byte
  EXPECT_TRUE(matches("\\d+\\.\\d\\d", "cost 12.50"));
  EXPECT_TRUE(matches("\\w\\s\\W", "a !"));
  EXPECT_TRUE(matches("[]a]", "]"));
  EXPECT_TRUE(matches("[a-]", "-"));
  EXPECT_TRUE(matches("\\$\\^\\(\\)\\[\\*", "$^()[*"));
  EXPECT_TRUE(matches("^\xc3\xa9t\xc3\xa9$", "\xc3\xa9t\xc3\xa9"));  // UTF-8 is bytes
  EXPECT_TRUE(matches("^.t.$", "\xc3t\xa9"));
  EXPECT_FALSE(matches("^.t.$", "\xc3\xa9t\xc3\xa9"));  // . is one byte, not one character
  EXPECT_TRUE(matches("(a|)b", "b"));
  EXPECT_TRUE(matches("()", "x"));
}

TEST(RegexSubset, AgreesWithRe2OnRandomPatterns) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> length(0, 12), byte(0, 4);
  const char alphabet[] = {'a', 'b', 'c', '\n', '\xc3'};
  int found = 0, total = 0;
  for (int i = 0; i < 400; ++i) {
    const std::string pattern = testing::random_pattern(rng, 0);
    for (int j = 0; j < 12; ++j) {
      std::string text(static_cast<std::size_t>(length(rng)), ' ');
      for (auto& c : text) c = alphabet[byte(rng)];
      found += matches(pattern, text);
      ++total;
    }
  }
  EXPECT_GT(found, total / 10);
  EXPECT_LT(found, total * 9 / 10);
}

TEST(RegexSubset, RefusesWhatIsNotInTheSubsetWithThePosition) {
  const auto refused = [](const std::string& pattern, const std::string& expected) {
    try {
      compile_regex_subset(pattern, "where");
      ADD_FAILURE() << "accepted '" << pattern << "'";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
  };
  refused("(ab", "'(' without a matching ')'");
  refused("ab)", "')' without a matching '('");
  refused("*a", "nothing to repeat");
  refused("a**", "quantifier after a quantifier");
  refused("[abc", "'[' without a matching ']'");
  refused("[z-a]", "reversed");
  refused("a{2}", "repetition counts");
  refused("a^b", "'^' is supported only");
  refused("a$b", "'$' is supported only");
  refused("^a|b", "group the alternatives");
  refused("ab\\", "trailing backslash");
  refused("\\bword", "escape \\b");
  refused("(?i)a", "(?...)");
  refused(std::string(64, 'a'), "more than 63");
  EXPECT_NO_THROW(compile_regex_subset(std::string(63, 'a'), "where"));
  EXPECT_NO_THROW(compile_regex_subset("^(a|b)$", "where"));
  EXPECT_NO_THROW(compile_regex_subset("a\\$", "where"));
}

}  // namespace
}  // namespace subscale::filter
