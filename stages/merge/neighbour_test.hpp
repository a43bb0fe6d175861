#pragma once
// Merge's definition of a neighbour, in the held precision T: the squared Euclidean distance over
// a subspace's coordinates, summed in T in dimension order, is at most `limit` (the held epsilon
// squared in T). One definition, because the sample's membership rule is merge's own arithmetic
// (a point belongs to a cluster exactly where merge would have called it a neighbour).
#include <cstddef>
#include <limits>

namespace subscale::merge {

// Partial sums of non-negative terms never decrease in floating point, so stopping as soon as the
// sum passes the limit gives the full sum's answer. For the same reason every single term
// (a[t] - b[t])^2 of a pair that passes is itself at most `limit`, which the group bound before
// merge relies on (stages/significance/point_groups.hpp).
template <class T>
inline bool within(const T* a, const T* b, std::size_t width, T limit) {
  T sum = 0;
  for (std::size_t t = 0; t < width; ++t) {
    const T diff = a[t] - b[t];
    sum += diff * diff;
    if (sum > limit) return false;
  }
  return true;
}

// A difference within the radius in T is within this much more than the radius in real numbers:
// the subtraction and the squaring each round by at most T's epsilon. Windows and boxes widened
// by it never leave out a point that `within` keeps.
template <class T>
inline double neighbour_reach(double radius) {
  return radius * (1.0 + 16.0 * static_cast<double>(std::numeric_limits<T>::epsilon())) +
         4.0 * static_cast<double>(std::numeric_limits<T>::min());
}

}  // namespace subscale::merge
