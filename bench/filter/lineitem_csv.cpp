// Writes the generated lineitem Q6 columns (the table filter_bench and `subscale filter` generate)
// as CSV, so that another engine (bench/filter/duckdb_q6.mjs) queries exactly the same rows.
//   lineitem_csv SCALE_FACTOR SEED OUT.csv
#include <cstdio>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "datasets/generators/filter_generators.hpp"
#include "stages/filter/column_table.hpp"
#include "stages/filter/exact_decimal.hpp"

namespace sf = subscale::filter;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: lineitem_csv SCALE_FACTOR SEED OUT.csv\n");
    return 2;
  }
  const sf::ColumnTable table = sf::generate_lineitem(std::stod(argv[1]), std::stoull(argv[2]));
  std::ofstream out(argv[3]);
  const auto& names = table.names();
  for (std::size_t c = 0; c < names.size(); ++c) out << names[c] << (c + 1 < names.size() ? "," : "\n");
  for (std::size_t r = 0; r < table.rows(); ++r)
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const sf::Column& column = table.columns[c];
      if (column.type == sf::ColumnType::date)
        out << sf::civil_from_days(std::get<std::vector<std::int32_t>>(column.values)[r]);
      else
        out << sf::format_scaled(std::get<std::vector<std::int64_t>>(column.values)[r], column.scale);
      out << (c + 1 < table.columns.size() ? "," : "\n");
    }
  if (!out) {
    std::fprintf(stderr, "lineitem_csv: cannot write %s\n", argv[3]);
    return 1;
  }
  return 0;
}
