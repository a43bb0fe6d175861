#pragma once
// Stage dedup: columns that carry the same information, folded into one for the search.
//
// After min-max normalisation a column that equals another (a copy) or is a*x + b of it becomes
// the same column, or its mirror 1 - x where a < 0. Such a column adds no evidence: a cluster is
// dense in the copy exactly where it is dense in the original. Left in, it doubles every cluster's
// subspace, makes each dense unit dense in both, counts the same evidence twice in the test (the
// box's mass is squared) and splits the search correction over dimensions that are not there.
// On a file whose every column appears twice, merge found 232 clusters that consolidation joined
// into one, which then failed the test (0 clusters, where the file without the copies has 5).
// So the search runs on one column of each group (the first), and every cluster found is reported
// in all the columns of its dimensions' groups.
//
// Two columns are one when every value differs by at most `tolerance` (after normalisation, in
// [0, 1]), directly or mirrored. Constant columns are left alone (they hold no cluster, and
// folding them would say nothing).
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::dedup {

struct ColumnFolding {
  std::vector<std::uint32_t> kept;       // the original column of each folded column, ascending
  std::vector<std::uint32_t> folded_of;  // per original column: its folded column (index into kept)
  std::vector<bool> mirrored;            // per original column: it is 1 - x of its group's first

  std::size_t columns() const noexcept { return folded_of.size(); }
  std::size_t folded_away() const noexcept { return folded_of.size() - kept.size(); }
  bool any() const noexcept { return folded_away() > 0; }
  std::size_t mirrored_count() const noexcept;
};

// The tolerance for values held in T: a few units of rounding of a value in [0, 1], as a*x + b
// normalised differs from x normalised by the rounding of the two divisions.
template <class T>
double default_tolerance();

// The groups of `values` (normalised columns). Without repeats: kept = every column.
template <class T>
ColumnFolding find_repeated_columns(const ColumnMatrix<T>& values, double tolerance = default_tolerance<T>());

// The kept columns of `values`, in the order of folding.kept.
template <class T>
ColumnMatrix<T> keep_columns(const ColumnMatrix<T>& values, const ColumnFolding& folding);

// Folded dimensions replaced by every original column of their groups (sorted), in place.
void unfold(std::vector<SubspaceCluster>& clusters, const ColumnFolding& folding);
std::vector<std::uint32_t> unfold(const std::vector<std::uint32_t>& dimensions, const ColumnFolding& folding);

}  // namespace subscale::dedup
