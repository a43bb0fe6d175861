#include "stages/merge/coincident_points.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace subscale::merge {
// Named, not anonymous: the unity build puts this file beside others with helpers of these names.
namespace coincident {

constexpr std::uint32_t kUnassigned = std::numeric_limits<std::uint32_t>::max();

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Equal coordinates hash alike: -0 and +0 are one place (their distance is 0), so the bits hashed
// are those of x + 0, which is +0 for both.
template <class T>
std::uint64_t hash_place(const T* place, std::size_t width) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t t = 0; t < width; ++t) {
    const T value = place[t] + T(0);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    h = mix(h ^ bits);
  }
  return h;
}

struct Keyed {
  std::uint64_t hash;
  std::uint32_t position;
  bool operator<(const Keyed& other) const {
    return hash != other.hash ? hash < other.hash : position < other.position;
  }
};

}  // namespace coincident

template <class T>
CoincidentPoints coincident_points(const ColumnMatrix<T>& values, const SubspaceCluster& subspace, unsigned hash_bits) {
  const std::size_t count = subspace.points.size();
  const std::size_t width = subspace.dimensions.size();
  std::vector<T> gathered(count * width);  // point-major: one place's coordinates side by side
  for (std::size_t t = 0; t < width; ++t) {
    const T* column = values.col(subspace.dimensions[t]).data();
    for (std::size_t i = 0; i < count; ++i) gathered[i * width + t] = column[subspace.points[i]];
  }
  const auto place = [&](std::uint32_t i) { return gathered.data() + static_cast<std::size_t>(i) * width; };
  const auto same_place = [&](std::uint32_t a, std::uint32_t b) {
    return std::equal(place(a), place(a) + width, place(b));
  };

  // Points by the hash of their place; a run of one hash is one place unless two places collide,
  // which a comparison of coordinates then separates.
  std::vector<coincident::Keyed> keyed(count);
  const std::uint64_t mask = hash_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hash_bits) - 1;
  for (std::uint32_t i = 0; i < count; ++i) keyed[i] = {coincident::hash_place(place(i), width) & mask, i};
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::uint32_t> group(count, coincident::kUnassigned);  // per position, a representative's position
  for (std::size_t begin = 0; begin < count;) {
    std::size_t end = begin + 1;
    while (end < count && keyed[end].hash == keyed[begin].hash) ++end;
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint32_t p = keyed[i].position;
      if (group[p] != coincident::kUnassigned) continue;
      group[p] = p;  // the smallest position of its place: the run is by position
      for (std::size_t j = i + 1; j < end; ++j)
        if (group[keyed[j].position] == coincident::kUnassigned && same_place(p, keyed[j].position))
          group[keyed[j].position] = p;
    }
    begin = end;
  }

  // Places by their first point, members ascending: one pass over the positions in order.
  CoincidentPoints out;
  out.places.dimensions = subspace.dimensions;
  std::vector<std::uint32_t> rank(count, coincident::kUnassigned);  // per representative position, its place
  std::vector<std::uint32_t> sizes;
  for (std::uint32_t p = 0; p < count; ++p) {
    if (group[p] == p) {
      rank[p] = static_cast<std::uint32_t>(sizes.size());
      sizes.push_back(0);
      out.places.points.push_back(subspace.points[p]);
    }
    ++sizes[rank[group[p]]];
  }
  out.first.resize(sizes.size() + 1, 0);
  for (std::size_t r = 0; r < sizes.size(); ++r) out.first[r + 1] = out.first[r] + sizes[r];
  out.members.resize(count);
  std::vector<std::uint32_t> next(out.first.begin(), out.first.end() - 1);
  for (std::uint32_t p = 0; p < count; ++p) out.members[next[rank[group[p]]]++] = subspace.points[p];
  return out;
}

template CoincidentPoints coincident_points(const Matrix32&, const SubspaceCluster&, unsigned);
template CoincidentPoints coincident_points(const Matrix&, const SubspaceCluster&, unsigned);

}  // namespace subscale::merge
