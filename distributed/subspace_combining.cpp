#include "distributed/subspace_combining.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "common/bit_sets.hpp"
#include "common/error.hpp"
#include "common/page_population.hpp"
#include "distributed/subspace_pairs.hpp"

namespace subscale::distributed {
namespace {

// One received pair, with what decides most comparisons kept beside it (|S| and the first mask
// word that holds a dimension), so that sorting reads the pair's own bytes only to break ties.
struct Pair {
  std::uint32_t size = 0;
  std::uint32_t first_word = 0;
  std::uint64_t first_bits = 0;
  const std::uint8_t* at = nullptr;
  std::uint32_t part = 0;
};

std::uint64_t word_at(const std::uint8_t* entry, std::uint32_t w) {
  std::uint64_t word;
  std::memcpy(&word, entry + std::size_t{w} * 8, sizeof word);
  return word;
}

Pair describe(const std::uint8_t* entry, std::uint32_t key_words, std::uint32_t part) {
  Pair pair{0, key_words, 0, entry, part};
  for (std::uint32_t w = 0; w < key_words; ++w) {
    const std::uint64_t word = word_at(entry, w);
    pair.size += static_cast<std::uint32_t>(std::popcount(word));
    if (word != 0 && pair.first_word == key_words) {
      pair.first_word = w;
      pair.first_bits = word;
    }
  }
  return pair;
}

// The subspaces stage's order on masks: |S| descending, then the set holding the lowest dimension
// where the two differ first. Returns <0, 0 or >0.
int compare(const Pair& a, const Pair& b, std::uint32_t key_words) {
  if (a.size != b.size) return a.size > b.size ? -1 : 1;
  if (a.first_word != b.first_word) return a.first_word < b.first_word ? -1 : 1;
  std::uint64_t wa = a.first_bits, wb = b.first_bits;
  for (std::uint32_t w = a.first_word;;) {
    const std::uint64_t differ = wa ^ wb;
    if (differ != 0) return (wa & differ & (~differ + 1)) != 0 ? -1 : 1;
    if (++w >= key_words) return 0;
    wa = word_at(a.at, w);
    wb = word_at(b.at, w);
  }
}

// Every pair of every part, described on all threads.
std::vector<Pair> describe_all(const std::vector<Bytes>& parts, std::uint32_t key_words, std::uint32_t point_words,
                               const std::vector<std::string>& names) {
  std::vector<std::vector<std::uint64_t>> offsets(parts.size());
  tbb::parallel_for(std::size_t{0}, parts.size(), [&](std::size_t p) {
    offsets[p] = pair_offsets(parts[p].data(), parts[p].size(), key_words, point_words, names[p]);
  });
  std::vector<std::size_t> base(parts.size() + 1, 0);
  for (std::size_t p = 0; p < parts.size(); ++p) base[p + 1] = base[p] + offsets[p].size();
  std::vector<Pair> pairs;
  resize_populated(pairs, base.back());
  tbb::parallel_for(std::size_t{0}, parts.size(), [&](std::size_t p) {
    tbb::parallel_for(std::size_t{0}, offsets[p].size(), [&](std::size_t i) {
      pairs[base[p] + i] = describe(parts[p].data() + offsets[p][i], key_words, static_cast<std::uint32_t>(p));
    });
  });
  return pairs;
}

// Subspaces ahead whose bytes the listing fetches early.
constexpr std::size_t kAhead = 8;

// Where each subspace's run of equal masks begins in the sorted pairs, and the end as the last.
std::vector<std::size_t> run_starts(const std::vector<Pair>& pairs, std::uint32_t key_words) {
  std::vector<std::uint8_t> starts_run(pairs.size());
  tbb::parallel_for(std::size_t{0}, pairs.size(),
                    [&](std::size_t i) { starts_run[i] = i == 0 || compare(pairs[i - 1], pairs[i], key_words) != 0; });
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (starts_run[i]) starts.push_back(i);
  starts.push_back(pairs.size());
  return starts;
}

}  // namespace

std::vector<SubspaceCluster> combine_pairs(const std::vector<Bytes>& parts, std::uint32_t key_words,
                                           std::uint32_t point_words, const std::vector<std::string>& names) {
  if (names.size() != parts.size())
    throw Error(ExitCode::other, "combine_pairs: " + std::to_string(names.size()) + " names for " +
                                     std::to_string(parts.size()) + " parts");
  std::vector<Pair> pairs = describe_all(parts, key_words, point_words, names);
  tbb::parallel_sort(pairs.begin(), pairs.end(),
                     [&](const Pair& a, const Pair& b) { return compare(a, b, key_words) < 0; });
  const std::vector<std::size_t> starts = run_starts(pairs, key_words);
  std::vector<SubspaceCluster> subspaces;
  resize_populated(subspaces, starts.size() - 1);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, subspaces.size()), [&](const auto& range) {
    std::vector<std::uint64_t> key(key_words), bitmap(point_words);
    std::vector<std::uint32_t> ids;  // the ids gathered here, then copied into a list of their size
    ids.reserve(std::size_t{std::max(key_words, point_words)} * 64);
    for (std::size_t s = range.begin(); s != range.end(); ++s) {
      // The pairs lie in the order they arrived, not the sorted one: fetch a later run's bytes now.
      if (s + kAhead < range.end()) __builtin_prefetch(pairs[starts[s + kAhead]].at);
      read_pair_key(pairs[starts[s]].at, key_words, key.data());
      ids.clear();
      append_set_bits(key.data(), key_words, ids);
      subspaces[s].dimensions.assign(ids.begin(), ids.end());
      ids.clear();
      if (starts[s + 1] - starts[s] == 1) {
        append_pair_point_ids(pairs[starts[s]].at, key_words, point_words, ids, names[pairs[starts[s]].part]);
      } else {
        std::fill(bitmap.begin(), bitmap.end(), 0);
        for (std::size_t i = starts[s]; i < starts[s + 1]; ++i)
          or_pair_points(pairs[i].at, key_words, point_words, bitmap.data(), names[pairs[i].part]);
        append_set_bits(bitmap.data(), point_words, ids);
      }
      subspaces[s].points.assign(ids.begin(), ids.end());
    }
  });
  return subspaces;
}

}  // namespace subscale::distributed
