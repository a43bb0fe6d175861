#include "stages/hash/hash_quality_json.hpp"

namespace subscale::hash {

namespace {

nlohmann::json bucket_json(const BucketChiSquare& b, double z_limit) {
  if (b.skipped) return {{"bits", b.bits}, {"skipped", true}, {"verdict", "skipped"}};
  return {{"bits", b.bits},
          {"chi_square", b.statistic},
          {"degrees_of_freedom", b.degrees_of_freedom},
          {"z", b.z},
          {"z_limit", z_limit},
          {"max_over_mean", b.max_over_mean},
          {"verdict", b.pass ? "pass" : "flag"}};
}

}  // namespace

nlohmann::json quality_to_json(const QualityReport& r) {
  nlohmann::json j;
  j["width_bits"] = r.width_bits;
  j["row_words"] = r.row_words;
  j["z_limit"] = r.z_limit;
  j["bit_balance"] = {{"ones_fraction", r.balance.ones_fraction},
                      {"worst_bit", r.balance.worst_bit},
                      {"worst_deviation", r.balance.worst_deviation},
                      {"limit", r.balance.limit},
                      {"verdict", r.balance.pass ? "pass" : "flag"}};
  const auto& a = r.avalanche;
  j["avalanche"] = {{"samples", a.samples},
                    {"mean_fraction", a.mean_fraction},
                    {"mean_limit", a.mean_limit},
                    {"worst_input_bit", a.worst_input_bit},
                    {"worst_output_bit", a.worst_output_bit},
                    {"worst_fraction", a.worst_fraction},
                    {"worst_limit", a.worst_limit},
                    {"verdict", a.samples == 0 ? "skipped" : (a.pass ? "pass" : "flag")}};
  j["chi_square"] = bucket_json(r.chi_square, r.z_limit);
  const auto& c = r.collisions;
  j["collisions"] = {{"rows", c.rows},
                     {"distinct_records", c.distinct_records},
                     {"distinct_hashes", c.distinct_hashes},
                     {"colliding_records", c.colliding_records},
                     {"largest_group", c.largest_group},
                     {"expected", c.expected},
                     {"limit", c.limit},
                     {"verdict", c.pass ? "pass" : "flag"}};
  j["low_bits"] = nlohmann::json::array();
  for (const auto& lb : r.low_bits) j["low_bits"].push_back(bucket_json(lb, r.z_limit));
  j["verdict"] = r.pass() ? "pass" : "flag";
  return j;
}

}  // namespace subscale::hash
