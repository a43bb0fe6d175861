#pragma once
// The regular-expression subset of the filter's `regex` predicate: literal bytes, `.`, classes
// ([a-z], [^...], with \d \w \s inside), escapes (\. \\ \n \t \r \f \v \d \w \s \D \W \S and any
// escaped punctuation), the quantifiers * + ?, alternation |, groups ( ), and the anchors ^ (first)
// and $ (last) of the whole pattern. Matching is on bytes (a multi-byte UTF-8 character is several
// bytes) and unanchored unless ^ or $ says otherwise, as RE2's PartialMatch in Latin-1 mode with
// dot_nl (`.` is any byte, `$` only the very end, \s is [\t\n\f\r ]). Both backends run this
// automaton. Anything outside the subset is refused with the position.
#include <memory>
#include <string>

#include "stages/filter/byte_automaton.hpp"

namespace subscale::filter {

// Parses `pattern` and builds its automaton; throws UsageError naming `where`, the pattern and the
// byte position of the problem (also for more than 63 bytes sets, the automaton's limit).
std::unique_ptr<ByteAutomaton> compile_regex_subset(const std::string& pattern, const std::string& where);

}  // namespace subscale::filter
