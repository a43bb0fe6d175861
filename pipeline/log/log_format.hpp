#pragma once
// How the log and `plan` write counts and sizes: 1.23 M, 4.5 GiB, and a noun in its count's
// number: 1 cluster, 2 clusters.
#include <cstdint>
#include <string>

namespace subscale::pipeline {

std::string format_count(std::uint64_t value);
std::string format_bytes(double bytes);
// "3 s", "12 min", "3 h 20 min", "4 days".
std::string duration_text(double seconds);

// The noun in the number of `count`: "subspace" for 1, "subspaces" otherwise; `plural` where the
// plural is not the noun and an "s" ("1 match", "2 matches").
std::string noun_for(std::uint64_t count, const std::string& noun, const std::string& plural = "");
// The count and the noun in its number: "1 cluster", "0 clusters", "12 points".
std::string counted(std::uint64_t count, const std::string& noun, const std::string& plural = "");

}  // namespace subscale::pipeline
