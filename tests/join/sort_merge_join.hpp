#pragma once
// The reference the hash join is checked against: a sort-merge join, written as plainly as
// possible, returning the pairs as a sorted multiset of (S row << 32 | R row).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "stages/join/join_output.hpp"

namespace subscale::join::testing {

inline std::vector<std::uint64_t> sort_merge_join(const std::vector<std::uint64_t>& r,
                                                  const std::vector<std::uint64_t>& s) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> rs, ss;
  for (std::uint32_t i = 0; i < r.size(); ++i) rs.emplace_back(r[i], i);
  for (std::uint32_t i = 0; i < s.size(); ++i) ss.emplace_back(s[i], i);
  std::sort(rs.begin(), rs.end());
  std::sort(ss.begin(), ss.end());
  std::vector<std::uint64_t> out;
  std::size_t i = 0, j = 0;
  while (i < rs.size() && j < ss.size()) {
    if (rs[i].first < ss[j].first) {
      ++i;
    } else if (ss[j].first < rs[i].first) {
      ++j;
    } else {
      const std::uint64_t key = rs[i].first;
      std::size_t i_end = i, j_end = j;
      while (i_end < rs.size() && rs[i_end].first == key) ++i_end;
      while (j_end < ss.size() && ss[j_end].first == key) ++j_end;
      for (std::size_t a = i; a < i_end; ++a)
        for (std::size_t b = j; b < j_end; ++b) out.push_back((std::uint64_t{ss[b].second} << 32) | rs[a].second);
      i = i_end;
      j = j_end;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<std::uint64_t> as_sorted_multiset(const JoinPairs& pairs) {
  std::vector<std::uint64_t> out(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) out[k] = (std::uint64_t{pairs.s_rows[k]} << 32) | pairs.r_rows[k];
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace subscale::join::testing
