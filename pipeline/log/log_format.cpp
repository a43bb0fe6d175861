#include "pipeline/log/log_format.hpp"

#include <iomanip>
#include <sstream>

namespace subscale::pipeline {

std::string format_count(std::uint64_t value) {
  std::ostringstream out;
  if (value >= 1'000'000'000)
    out << std::fixed << std::setprecision(2) << value / 1e9 << " G";
  else if (value >= 1'000'000)
    out << std::fixed << std::setprecision(2) << value / 1e6 << " M";
  else
    out << value;
  return out.str();
}

std::string format_bytes(double bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1);
  if (bytes >= 1 << 30)
    out << bytes / (1 << 30) << " GiB";
  else
    out << bytes / (1 << 20) << " MiB";
  return out.str();
}

}  // namespace subscale::pipeline
