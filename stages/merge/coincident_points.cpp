#include "stages/merge/coincident_points.hpp"

#include <algorithm>
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

// Open addressing over a power-of-two table at most half full: one probe sequence per point, no
// sort. A slot holds a place: its first position (kUnassigned when empty), its number and its
// hash, so that most probes past a different place cost one integer comparison.
struct Slot {
  std::uint64_t hash = 0;
  std::uint32_t position = kUnassigned;
  std::uint32_t place = 0;
};

std::size_t table_size(std::size_t count) {
  std::size_t size = 16;
  while (size < 2 * count) size *= 2;
  return size;
}

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

  // Positions in ascending order, so that a place is first met at its smallest position, and
  // places are numbered in order of their first point as they are found.
  const std::uint64_t mask = hash_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hash_bits) - 1;
  std::vector<coincident::Slot> table(coincident::table_size(count));
  const std::size_t slots = table.size() - 1;
  CoincidentPoints out;
  out.places.dimensions = subspace.dimensions;
  out.place.resize(count);
  std::vector<std::uint32_t> sizes;
  for (std::uint32_t p = 0; p < count; ++p) {
    const std::uint64_t hash = coincident::hash_place(place(p), width) & mask;
    // The table index mixes the hash again: masked hashes in tests keep few bits, all low.
    std::size_t slot = coincident::mix(hash) & slots;
    while (table[slot].position != coincident::kUnassigned &&
           (table[slot].hash != hash || !same_place(table[slot].position, p)))
      slot = (slot + 1) & slots;
    if (table[slot].position == coincident::kUnassigned) {
      table[slot] = {hash, p, static_cast<std::uint32_t>(sizes.size())};
      sizes.push_back(0);
      out.places.points.push_back(subspace.points[p]);
    }
    const std::uint32_t r = table[slot].place;
    out.place[p] = r;
    ++sizes[r];
  }

  // Members by place, ascending: one more pass over the positions in order.
  out.first.resize(sizes.size() + 1, 0);
  for (std::size_t r = 0; r < sizes.size(); ++r) out.first[r + 1] = out.first[r] + sizes[r];
  out.members.resize(count);
  std::vector<std::uint32_t> next(out.first.begin(), out.first.end() - 1);
  for (std::uint32_t p = 0; p < count; ++p) out.members[next[out.place[p]]++] = subspace.points[p];
  return out;
}

template CoincidentPoints coincident_points(const Matrix32&, const SubspaceCluster&, unsigned);
template CoincidentPoints coincident_points(const Matrix&, const SubspaceCluster&, unsigned);

}  // namespace subscale::merge
