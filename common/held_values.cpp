#include "common/held_values.hpp"

#include "common/error.hpp"

namespace subscale {

const char* to_string(Precision precision) { return precision == Precision::float32 ? "float32" : "float64"; }

Precision parse_precision(const std::string& text, const std::string& setting) {
  if (text == "float64") return Precision::float64;
  if (text == "float32") return Precision::float32;
  throw UsageError(setting + " = " + text + " is not a precision this program holds values in; use float64 (the " +
                   "default) or float32 (half the memory)");
}

HeldValues HeldValues::hold(Matrix&& normalised, Precision precision) {
  HeldValues held;
  if (precision == Precision::float64) {
    held.matrix_ = std::move(normalised);
    return held;
  }
  Matrix source = std::move(normalised);  // released when this returns: the float32 copy stays alone
  held.matrix_ = Matrix32(source.cast<float>());
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
