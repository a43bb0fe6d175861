#include "common/held_values.hpp"

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "common/error.hpp"

namespace subscale {

const char* to_string(Precision precision) { return precision == Precision::float32 ? "float32" : "float64"; }

Precision parse_precision(const std::string& text, const std::string& setting) {
  if (text == "float64") return Precision::float64;
  if (text == "float32") return Precision::float32;
  throw UsageError(setting + " = " + text + " is not a precision this program holds values in; use float64 (the " +
                   "default) or float32 (half the memory)");
}

HeldValues HeldValues::hold(Matrix&& normalised, Precision precision, const std::string& source) {
  HeldValues held;
  if (precision == Precision::float64) {
    held.matrix_ = std::move(normalised);
    return held;
  }
  Matrix wide = std::move(normalised);  // released when this returns: the float32 copy stays alone
  constexpr double largest = std::numeric_limits<float>::max();
  for (Eigen::Index j = 0; j < wide.cols(); ++j)
    for (Eigen::Index i = 0; i < wide.rows(); ++i)
      if (std::abs(wide(i, j)) > largest) {
        std::ostringstream value;
        value << std::setprecision(17) << wide(i, j);
        throw InputError(source + ", data row " + std::to_string(i + 1) + ", column " + std::to_string(j + 1) +
                         ": value " + value.str() + " is beyond the range of float32 (about 3.4e38); use " +
                         "input.precision: float64, or normalize: minmax");
      }
  held.matrix_ = Matrix32(wide.cast<float>());
  return held;
}

std::size_t HeldValues::points() const noexcept {
  return visit([](const auto& m) { return static_cast<std::size_t>(m.rows()); });
}

std::size_t HeldValues::dimensions() const noexcept {
  return visit([](const auto& m) { return static_cast<std::size_t>(m.cols()); });
}

std::size_t HeldValues::bytes() const noexcept {
  return visit([](const auto& m) {
    return static_cast<std::size_t>(m.size()) * sizeof(typename std::decay_t<decltype(m)>::Scalar);
  });
}

}  // namespace subscale
