#pragma once
// How the log and `plan` write counts and sizes: 1.23 M, 4.5 GiB.
#include <cstdint>
#include <string>

namespace subscale::pipeline {

std::string format_count(std::uint64_t value);
std::string format_bytes(double bytes);

}  // namespace subscale::pipeline
