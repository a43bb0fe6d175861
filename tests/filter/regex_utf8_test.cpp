// Regexes over UTF-8 whose alternatives share a leading byte (`(é|ß)a`, `é|è`, `(😀|😁)`): the CPU
// backend, the automaton the GPU runs (here on the host) and an independent reference agree.
// Debian 12's RE2 (20220601), the CPU backend before, matched nothing for such unanchored
// patterns. The reference is std::regex (ECMAScript) over the same bytes, with `.` written as
// [\s\S] since ECMAScript's `.` skips line breaks while the filter's `.` is any byte.
#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "stages/filter/regex_subset.hpp"
#include "tests/filter/filter_test_util.hpp"
#include "tests/filter/utf8_patterns.hpp"

namespace subscale::filter {
namespace {

using Ids = std::vector<std::uint64_t>;
using testing::random_small_pattern;
using testing::random_utf8_text;

std::regex reference(const std::string& pattern) {
  std::string ecma;
  for (char c : pattern) ecma += c == '.' ? std::string("[\\s\\S]") : std::string(1, c);
  return std::regex(ecma, std::regex::ECMAScript);
}

bool automaton(const ByteAutomaton& a, const std::string& text) {
  return automaton_matches(a, reinterpret_cast<const std::uint8_t*>(text.data()),
                           static_cast<std::int64_t>(text.size()));
}

ColumnTable texts_table(const std::vector<std::string>& texts) {
  ColumnTable table;
  table.columns.push_back(testing::string_column("s", texts));
  return table;
}

Ids expected_ids(const std::string& pattern, const std::vector<std::string>& texts) {
  const std::regex re = reference(pattern);
  Ids ids;
  for (std::size_t i = 0; i < texts.size(); ++i)
    if (std::regex_search(texts[i], re)) ids.push_back(i);
  return ids;
}

TEST(RegexUtf8, SharedLeadingBytesMatchOnTheCpu) {
  const std::vector<std::string> texts = {
      "\xc3\xa9"
      "a",
      "x\xc3\x9f"
      "a",
      "\xc3\xa8",
      "xx\xc3\xa9",
      "a",
      "\xf0\x9f\x98\x81!",
      "\xf0\x9f\x98\x82",
      ""};
  const ColumnTable table = texts_table(texts);
  EXPECT_EQ(testing::select(table, "{column: s, regex: '(\xc3\xa9|\xc3\x9f)a'}"), (Ids{0, 1}));
  EXPECT_EQ(testing::select(table, "{column: s, regex: '\xc3\xa9|\xc3\xa8'}"), (Ids{0, 2, 3}));
  EXPECT_EQ(testing::select(table, "{column: s, regex: '(\xf0\x9f\x98\x80|\xf0\x9f\x98\x81)'}"), (Ids{5}));
}

TEST(RegexUtf8, CpuAutomatonAndReferenceAgreeOnRandomPatterns) {
  std::mt19937_64 rng(26);
  std::vector<std::string> texts;
  for (int i = 0; i < 200; ++i) texts.push_back(random_utf8_text(rng));
  const ColumnTable table = texts_table(texts);
  std::size_t selected = 0, possible = 0;
  for (int i = 0; i < 300; ++i) {
    const std::string pattern = random_small_pattern(rng);
    const Ids expected = expected_ids(pattern, texts);
    const auto compiled = compile_regex_subset(pattern, "test");
    Ids by_automaton;
    for (std::size_t t = 0; t < texts.size(); ++t)
      if (automaton(*compiled, texts[t])) by_automaton.push_back(t);
    EXPECT_EQ(by_automaton, expected) << "automaton, pattern '" << pattern << "'";
    EXPECT_EQ(testing::select(table, "{column: s, regex: \"" + pattern + "\"}"), expected)
        << "cpu backend, pattern '" << pattern << "'";
    selected += expected.size();
    possible += texts.size();
  }
  // Neither trivial: some patterns select rows, most rows are left out by some pattern.
  EXPECT_GT(selected, possible / 20);
  EXPECT_LT(selected, possible * 19 / 20);
}

}  // namespace
}  // namespace subscale::filter
