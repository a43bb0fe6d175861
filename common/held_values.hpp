#pragma once
// The values every stage after normalisation reads, in the precision the run holds them in
// (input.precision): float64 (the default) or float32, which halves the memory. Normalisation is
// computed in float64 and its result rounded once to the held precision; from there on every
// stage reads and compares the held values, so a float32 run gives the same result on the CPU
// and the GPU.
#include <cstddef>
#include <string>
#include <utility>
#include <variant>

#include "common/dataset.hpp"

namespace subscale {

enum class Precision { float64, float32 };

const char* to_string(Precision precision);
// "float64" or "float32"; anything else is a UsageError that names `setting`.
Precision parse_precision(const std::string& text, const std::string& setting);

// The one place where epsilon becomes the held type. Every span-vs-epsilon test (density1d's
// windows and neighbourhoods, the direct walk's masks on host and device, merge's distance test)
// computes hi - lo (or the distance) in T and compares it with this value, rounded once from the
// configured float64. Comparing a float span with the double epsilon would promote it and test in
// float64 after all; one definition makes every stage and backend round epsilon the same way.
template <class T>
constexpr T held_epsilon(double epsilon) noexcept {
  return static_cast<T>(epsilon);
}

// The held matrix of either precision, not owned, for code that is not itself a template on it.
using HeldMatrixRef = std::variant<const Matrix*, const Matrix32*>;

// The held matrix, owned. hold() takes the normalised float64 matrix; with float32 it rounds every
// value to the nearest float and releases the float64 one, so only the float32 copy stays. A
// value beyond float32's range (possible with normalize: none) is an InputError naming `source`,
// its row and column.
class HeldValues {
 public:
  HeldValues() = default;
  static HeldValues hold(Matrix&& normalised, Precision precision, const std::string& source = "the input");
  // Values already held (a sample of held values, say), kept in their precision.
  template <class T>
  static HeldValues of(ColumnMatrix<T>&& values) {
    HeldValues held;
    held.matrix_ = std::move(values);
    return held;
  }

  Precision precision() const noexcept {
    return std::holds_alternative<Matrix32>(matrix_) ? Precision::float32 : Precision::float64;
  }
  std::size_t points() const noexcept;
  std::size_t dimensions() const noexcept;
  std::size_t bytes() const noexcept;  // of the values alone

  // visit(f) calls f(const Matrix&) or f(const Matrix32&): stages are templates on the value type.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), matrix_);
  }
  HeldMatrixRef ref() const noexcept {
    return visit([](const auto& m) { return HeldMatrixRef(&m); });
  }

 private:
  std::variant<Matrix, Matrix32> matrix_;
};

}  // namespace subscale
