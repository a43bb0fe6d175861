#include "stages/filter/regex_subset.hpp"

#include <bitset>
#include <cctype>
#include <vector>

#include "common/error.hpp"

namespace subscale::filter {
namespace {

using ByteSet = std::bitset<256>;

// The parse tree: each node knows Glushkov's nullable, first and last sets of its subexpression.
struct Node {
  bool nullable = false;
  std::uint64_t first = 0;
  std::uint64_t last = 0;
};

class Parser {
 public:
  Parser(const std::string& pattern, const std::string& where) : text_(pattern), where_(where) {}

  std::unique_ptr<ByteAutomaton> compile() {
    auto automaton = std::make_unique<ByteAutomaton>();
    std::size_t begin = 0, end = text_.size();
    if (end > 0 && text_[0] == '^') {
      automaton->anchored_begin = true;
      begin = 1;
    }
    if (end > begin && text_[end - 1] == '$' && !escaped_at(end - 1)) {
      automaton->anchored_end = true;
      --end;
    }
    position_ = begin;
    end_ = end;
    const Node root = parse_alternation(0);
    if (position_ != end_) fail(position_, "')' without a matching '('");
    if ((automaton->anchored_begin || automaton->anchored_end) && top_level_alternation_)
      fail(begin, "an anchor with a top-level '|' is ambiguous here; group the alternatives, e.g. ^(a|b)$");
    for (std::size_t p = 1; p < byte_sets_.size(); ++p)
      for (int byte = 0; byte < 256; ++byte)
        if (byte_sets_[p][static_cast<std::size_t>(byte)]) automaton->byte_mask[byte] |= std::uint64_t{1} << p;
    follow_[0] = root.first;
    for (int k = 0; k < 8; ++k)
      for (int b = 0; b < 256; ++b) {
        std::uint64_t set = 0;
        for (int j = 0; j < 8; ++j)
          if (b >> j & 1) set |= follow_[static_cast<std::size_t>(8 * k + j)];
        automaton->follow[k][b] = set;
      }
    automaton->accept = root.last | (root.nullable ? 1u : 0u);
    automaton->positions = static_cast<std::int32_t>(byte_sets_.size() - 1);
    return automaton;
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw UsageError(where_ + ": regex '" + text_ + "' at byte " + std::to_string(at) + ": " + what);
  }

  bool escaped_at(std::size_t index) const {
    std::size_t backslashes = 0;
    while (index > backslashes && text_[index - backslashes - 1] == '\\') ++backslashes;
    return backslashes % 2 == 1;
  }

  bool at_end() const { return position_ >= end_; }
  char peek() const { return text_[position_]; }

  Node parse_alternation(int depth) {
    Node result = parse_concatenation(depth);
    while (!at_end() && peek() == '|') {
      if (depth == 0) top_level_alternation_ = true;
      ++position_;
      const Node right = parse_concatenation(depth);
      result = {result.nullable || right.nullable, result.first | right.first, result.last | right.last};
    }
    return result;
  }

  Node parse_concatenation(int depth) {
    Node result{true, 0, 0};
    while (!at_end() && peek() != '|' && peek() != ')') {
      const Node next = parse_repetition(depth);
      for (std::size_t p = 0; p < 64; ++p)
        if (result.last >> p & 1) follow_[p] |= next.first;
      result = {result.nullable && next.nullable, result.first | (result.nullable ? next.first : 0),
                next.last | (next.nullable ? result.last : 0)};
    }
    return result;
  }

  Node parse_repetition(int depth) {
    Node atom = parse_atom(depth);
    if (at_end()) return atom;
    const char op = peek();
    if (op != '*' && op != '+' && op != '?') return atom;
    ++position_;
    if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?'))
      fail(position_, "a quantifier after a quantifier is not supported (use a group: (a*)?)");
    if (op != '?')
      for (std::size_t p = 0; p < 64; ++p)
        if (atom.last >> p & 1) follow_[p] |= atom.first;
    if (op != '+') atom.nullable = true;
    return atom;
  }

  Node parse_atom(int depth) {
    const std::size_t start = position_;
    const char c = peek();
    switch (c) {
      case '(': {
        ++position_;
        if (!at_end() && peek() == '?') fail(position_, "(?...) groups and flags are not supported");
        const Node inner = parse_alternation(depth + 1);
        if (at_end() || peek() != ')') fail(start, "'(' without a matching ')'");
        ++position_;
        return inner;
      }
      case '*':
      case '+':
      case '?':
        fail(start, std::string("'") + c + "' has nothing to repeat (escape it: \\" + c + ")");
      case '{':
      case '}':
        fail(start, "repetition counts {n,m} are not supported (escape the brace: \\" + std::string(1, c) + ")");
      case '^':
        fail(start, "'^' is supported only as the pattern's first byte (escape it: \\^)");
      case '$':
        fail(start, "'$' is supported only as the pattern's last byte (escape it: \\$)");
      case '[':
        return position(parse_class());
      case '.': {
        ++position_;
        ByteSet all;
        all.set();
        return position(all);
      }
      case '\\':
        return position(parse_escape(false));
      default:
        ++position_;
        return position(ByteSet().set(static_cast<unsigned char>(c)));
    }
  }

  Node position(const ByteSet& bytes) {
    if (byte_sets_.size() > ByteAutomaton::max_positions)
      fail(position_, "more than " + std::to_string(ByteAutomaton::max_positions) +
                          " literals, classes and dots (the automaton's limit)");
    const auto p = byte_sets_.size();
    byte_sets_.push_back(bytes);
    return {false, std::uint64_t{1} << p, std::uint64_t{1} << p};
  }

  static ByteSet range(int low, int high) {
    ByteSet set;
    for (int b = low; b <= high; ++b) set.set(static_cast<std::size_t>(b));
    return set;
  }
  static ByteSet digits() { return range('0', '9'); }
  static ByteSet word() { return range('0', '9') | range('A', 'Z') | range('a', 'z') | ByteSet().set('_'); }
  static ByteSet space() { return ByteSet().set('\t').set('\n').set('\f').set('\r').set(' '); }

  // At a backslash: the byte set it stands for. Inside a class, \D \W \S are not supported.
  ByteSet parse_escape(bool in_class) {
    const std::size_t start = position_;
    ++position_;
    if (position_ >= end_) fail(start, "a trailing backslash escapes nothing");
    const unsigned char c = static_cast<unsigned char>(text_[position_++]);
    switch (c) {
      case 'n':
        return ByteSet().set('\n');
      case 't':
        return ByteSet().set('\t');
      case 'r':
        return ByteSet().set('\r');
      case 'f':
        return ByteSet().set('\f');
      case 'v':
        return ByteSet().set('\v');
      case 'd':
        return digits();
      case 'w':
        return word();
      case 's':
        return space();
      case 'D':
      case 'W':
      case 'S':
        if (in_class) fail(start, "\\D, \\W and \\S are not supported inside a class");
        return ~(c == 'D' ? digits() : c == 'W' ? word() : space());
      default:
        if (c < 0x80 && std::isalnum(c))
          fail(start, std::string("the escape \\") + static_cast<char>(c) + " is not supported");
        return ByteSet().set(c);
    }
  }

  // One class member: a byte (maybe escaped) or, for \d \w \s, a set (no ranges from a set).
  ByteSet parse_class() {
    const std::size_t start = position_;
    ++position_;
    bool negated = false;
    if (position_ < end_ && text_[position_] == '^') {
      negated = true;
      ++position_;
    }
    ByteSet set;
    bool first = true;
    for (;;) {
      if (position_ >= end_) fail(start, "'[' without a matching ']'");
      char c = text_[position_];
      if (c == ']' && !first) break;
      first = false;
      const std::size_t member = position_;
      int low = -1;
      if (c == '\\') {
        const ByteSet escaped = parse_escape(true);
        if (escaped.count() != 1) {
          set |= escaped;
          continue;
        }
        for (int b = 0; b < 256; ++b)
          if (escaped[static_cast<std::size_t>(b)]) low = b;
      } else {
        if (c == '[' && position_ + 1 < end_ && text_[position_ + 1] == ':')
          fail(position_, "POSIX classes [:name:] are not supported");
        low = static_cast<unsigned char>(c);
        ++position_;
      }
      if (position_ + 1 < end_ && text_[position_] == '-' && text_[position_ + 1] != ']') {
        ++position_;
        int high;
        if (text_[position_] == '\\') {
          const ByteSet escaped = parse_escape(true);
          if (escaped.count() != 1) fail(member, "a range ends at a byte, not a class");
          high = 0;
          for (int b = 0; b < 256; ++b)
            if (escaped[static_cast<std::size_t>(b)]) high = b;
        } else {
          high = static_cast<unsigned char>(text_[position_++]);
        }
        if (high < low) fail(member, "the range is reversed (its end is below its start)");
        set |= range(low, high);
      } else {
        set.set(static_cast<std::size_t>(low));
      }
    }
    ++position_;  // the ']'
    return negated ? ~set : set;
  }

  const std::string& text_;
  const std::string& where_;
  std::size_t position_ = 0;
  std::size_t end_ = 0;
  bool top_level_alternation_ = false;
  std::vector<ByteSet> byte_sets_{ByteSet()};  // index 0: the start state, no bytes
  std::uint64_t follow_[64] = {};
};

}  // namespace

std::unique_ptr<ByteAutomaton> compile_regex_subset(const std::string& pattern, const std::string& where) {
  return Parser(pattern, where).compile();
}

}  // namespace subscale::filter
