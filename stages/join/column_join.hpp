#pragma once
// S's rows with R's columns attached: the join of two column tables on their key columns, one
// output row per matching (R row, S row) pair (rows of S without a match are dropped, as in any
// inner join). Output order: by S row, then R row. Columns: S's, then R's; an R column whose
// name S already has is renamed <name>_r.
#include <cstdint>
#include <string>
#include <vector>

#include "stages/join/join_options.hpp"
#include "stages/join/join_output.hpp"

namespace subscale::join {

struct ColumnTable {
  std::vector<std::uint64_t> keys;           // the join key, one per row
  std::vector<std::string> names;            // one per column
  std::vector<std::vector<double>> columns;  // each keys.size() values
  bool signed_keys = false;                  // the keys are int64 values, held as their bit patterns
  std::size_t rows() const noexcept { return keys.size(); }
};

// Throws InputError naming the table (`what`) and the column whose length differs.
void validate_table(const ColumnTable& table, const std::string& what);

ColumnTable join_columns(const ColumnTable& s, const ColumnTable& r, const JoinOptions& options = {});

// The output rows for pairs already computed (pairs.r_rows index r, pairs.s_rows index s), in
// the pairs' order.
ColumnTable gather_joined_rows(const ColumnTable& s, const ColumnTable& r, const JoinPairs& pairs);

}  // namespace subscale::join
