// The quality analyser over every function on the seed's data (normal(0.5, 0.1) words, records
// of 1, 2 and 4 words, 100,000 records as in the seed), 32- and 64-bit hashes: one line per case
// with the verdict of each measure. CPU only.
//
//   hash_quality_sweep [--records N] [--words 1,2,4] [--seed S] [--distribution normal|uniform|sequential]
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/generators/hash_input_generator.hpp"
#include "gpu/hash/hash_function_id.hpp"
#include "stages/hash/hash_quality.hpp"
#include "stages/hash/hash_rows.hpp"

namespace {

using namespace subscale;
using namespace subscale::hash;

const char* verdict(bool pass, bool skipped = false) { return skipped ? "skip" : pass ? "pass" : "FLAG"; }

template <class H>
void sweep_one(const hash::HashSpec& spec, const std::string& name, const RowTableView& table) {
  std::vector<H> hashes(table.rows);
  hash_rows<H>(spec, table, hashes, Backend::cpu);
  const auto r = analyse_hash_quality<H>(spec, table, hashes);
  std::string low;
  for (const auto& lb : r.low_bits) low += std::string(verdict(lb.pass, lb.skipped)) + " ";
  std::printf("%-16s %2d %3zu  %-5s %6.3f %-5s %6.3f %-5s %9.1f %-5s %8zu %-5s  %s  %s\n", name.c_str(),
              table.row_words, sizeof(H) * 8, verdict(r.balance.pass), r.avalanche.mean_fraction,
              verdict(std::abs(r.avalanche.mean_fraction - 0.5) <= r.avalanche.mean_limit), r.avalanche.worst_fraction,
              verdict(std::abs(r.avalanche.worst_fraction - 0.5) <= r.avalanche.worst_limit), r.chi_square.z,
              verdict(r.chi_square.pass, r.chi_square.skipped), r.collisions.colliding_records,
              verdict(r.collisions.pass), low.c_str(), r.pass() ? "PASS" : "FLAG");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    InputSpec input{InputDistribution::normal, 100000, 1, 2021};
    std::vector<int> word_counts = {1, 2, 4};
    for (int i = 1; i + 1 < argc; i += 2) {
      const std::string a = argv[i];
      const std::string v = argv[i + 1];
      if (a == "--records")
        input.rows = std::stoull(v);
      else if (a == "--seed")
        input.seed = std::stoull(v);
      else if (a == "--distribution")
        input.distribution = parse_input_distribution(v, "--distribution");
      else if (a == "--words") {
        word_counts.clear();
        std::stringstream in(v);
        for (std::string item; std::getline(in, item, ',');) word_counts.push_back(std::stoi(item));
      } else
        throw UsageError("hash_quality_sweep: unknown option " + a);
    }
    std::printf("%-16s %2s %3s  %-5s %6s %-5s %6s %-5s %9s %-5s %8s %-5s  %s  %s\n", "function", "k", "W", "bal",
                "aval", "", "worst", "", "chi z", "", "collide", "", "low 4/8/12/16", "all");
    for (int k : word_counts) {
      input.row_words = k;
      const auto words = generate_rows(input);
      const RowTableView table{words.data(), input.rows, k};
      for (const auto& name : hash::hash_function_names()) {
        const auto spec = hash::parse_hash_spec(name);
        sweep_one<std::uint32_t>(spec, name, table);
        sweep_one<std::uint64_t>(spec, name, table);
      }
    }
    return 0;
  } catch (const subscale::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return static_cast<int>(e.code());
  }
}
