// Substring search: edge cases of each algorithm, and naive == KMP == BMH == RE2 on random text
// and patterns (including text full of partial matches).
#include "stages/filter/string_search.hpp"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <random>

namespace subscale::filter {
namespace {

struct Searchers {
  explicit Searchers(std::string p)
      : pattern(std::move(p)), kmp(kmp_failure_table(pattern)), bmh(bmh_shift_table(pattern)) {}
  std::string pattern;
  std::vector<std::int32_t> kmp, bmh;

  // The three algorithms and RE2 (the pattern quoted, Latin-1) must agree; returns the answer.
  bool contains(const std::string& text) const {
    const auto* t = reinterpret_cast<const std::uint8_t*>(text.data());
    const auto* p = reinterpret_cast<const std::uint8_t*>(pattern.data());
    const auto n = static_cast<std::int64_t>(text.size()), m = static_cast<std::int64_t>(pattern.size());
    const bool naive = contains_naive(t, n, p, m);
    EXPECT_EQ(naive, contains_kmp(t, n, p, m, kmp.data())) << "kmp, pattern '" << pattern << "' text '" << text << "'";
    EXPECT_EQ(naive, contains_bmh(t, n, p, m, bmh.data())) << "bmh, pattern '" << pattern << "' text '" << text << "'";
    re2::RE2::Options options;
    options.set_encoding(re2::RE2::Options::EncodingLatin1);
    options.set_literal(true);
    const re2::RE2 literal(pattern, options);
    EXPECT_EQ(naive, re2::RE2::PartialMatch(text, literal)) << "re2, pattern '" << pattern << "' text '" << text << "'";
    return naive;
  }
};

TEST(StringSearch, EdgeCases) {
  EXPECT_TRUE(Searchers("").contains(""));          // empty pattern in the empty string
  EXPECT_TRUE(Searchers("").contains("abc"));       // empty pattern everywhere
  EXPECT_FALSE(Searchers("a").contains(""));        // nothing in the empty string
  EXPECT_FALSE(Searchers("abcd").contains("abc"));  // pattern longer than the string
  EXPECT_TRUE(Searchers("abc").contains("abc"));    // the whole string
  EXPECT_TRUE(Searchers("ab").contains("abxxxx"));  // at the first byte
  EXPECT_TRUE(Searchers("xy").contains("aaaaxy"));  // ending at the last byte
  EXPECT_TRUE(Searchers("y").contains("aaaaay"));
  EXPECT_TRUE(Searchers("aab").contains("aaaab"));  // overlapping partial matches
  EXPECT_TRUE(Searchers("abab").contains("abababab"));
  EXPECT_FALSE(Searchers("abac").contains("abababab"));
  EXPECT_TRUE(Searchers("\xc3\xa9t\xc3\xa9").contains("l'\xc3\xa9t\xc3\xa9"));  // UTF-8 bytes
  EXPECT_FALSE(Searchers("\xc3\xa9").contains("\xc3\xa8\xa9"));
  EXPECT_TRUE(Searchers(std::string("a\0b", 3)).contains(std::string("xa\0b", 4)));  // a NUL byte
}

TEST(StringSearch, ShiftAndFailureTables) {
  EXPECT_EQ(kmp_failure_table("abab"), (std::vector<std::int32_t>{0, 0, 1, 2}));
  EXPECT_EQ(kmp_failure_table("aabaaab"), (std::vector<std::int32_t>{0, 1, 0, 1, 2, 2, 3}));
  const auto shift = bmh_shift_table("abcab");
  EXPECT_EQ(shift['a'], 1);
  EXPECT_EQ(shift['b'], 3);  // the last b is not counted
  EXPECT_EQ(shift['c'], 2);
  EXPECT_EQ(shift['z'], 5);
  EXPECT_EQ(resolve_algorithm(SearchAlgorithm::automatic, 3), SearchAlgorithm::naive);
  EXPECT_EQ(resolve_algorithm(SearchAlgorithm::automatic, 8), SearchAlgorithm::bmh);
  EXPECT_EQ(resolve_algorithm(SearchAlgorithm::kmp, 8), SearchAlgorithm::kmp);
}

std::string random_text(std::mt19937_64& rng, std::size_t length, const std::string& alphabet) {
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string text(length, ' ');
  for (auto& c : text) c = alphabet[pick(rng)];
  return text;
}

TEST(StringSearch, AlgorithmsAgreeOnRandomPatterns) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::size_t> pattern_length(0, 6), text_length(0, 40);
  int found = 0, total = 0;
  for (const std::string& alphabet : {std::string("ab"), std::string("abc\xc3\xa9"), std::string("abcdefghij")})
    for (int i = 0; i < 300; ++i) {
      const Searchers s(random_text(rng, pattern_length(rng), alphabet));
      for (int j = 0; j < 10; ++j) {
        found += s.contains(random_text(rng, text_length(rng), alphabet));
        ++total;
      }
    }
  // Both outcomes occur often enough for the comparison to mean something.
  EXPECT_GT(found, total / 10);
  EXPECT_LT(found, total * 9 / 10);
}

TEST(StringSearch, AlgorithmsAgreeOnPartialMatches) {
  // Text made of a pattern's prefix repeated: every position is a long partial match.
  const Searchers s("aaaaaaab");
  std::string text(200, 'a');
  EXPECT_FALSE(s.contains(text));
  text[150] = 'b';
  EXPECT_TRUE(s.contains(text));
  text[150] = 'a';
  text.back() = 'b';
  EXPECT_TRUE(s.contains(text));
}

}  // namespace
}  // namespace subscale::filter
