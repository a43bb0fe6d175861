#include "cluster/subspace_pairs.hpp"

#include <bit>
#include <cstring>

#include "common/error.hpp"

namespace subscale::cluster {
namespace {

// resize and memcpy rather than insert: GCC 12 warns falsely about inserting into an empty vector.
template <class T>
void put(Bytes& out, const T& value) {
  const std::size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

template <class T>
void put_array(Bytes& out, const T* values, std::size_t count) {
  if (count == 0) return;
  const std::size_t at = out.size();
  out.resize(at + count * sizeof(T));
  std::memcpy(out.data() + at, values, count * sizeof(T));
}

// Reads fixed-size values from a buffer, refusing to run past its end.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size, const std::string& what) : data_(data), size_(size), what_(what) {}
  template <class T>
  T get() {
    T value;
    get_array(&value, 1);
    return value;
  }
  template <class T>
  void get_array(T* values, std::size_t count) {
    if (count == 0) return;
    if (count > (size_ - at_) / sizeof(T)) throw Error(ExitCode::input, what_ + ": the data end too early");
    std::memcpy(values, data_ + at_, count * sizeof(T));
    at_ += count * sizeof(T);
  }
  bool done() const { return at_ == size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
  std::string what_;
};

constexpr std::uint32_t kDenseBitmap = 0xffffffffu;

}  // namespace

void append_pair(Bytes& out, const std::uint64_t* key, const std::uint64_t* bitmap, std::uint32_t key_words,
                 std::uint32_t point_words) {
  put_array(out, key, key_words);
  std::uint64_t ones = 0;
  for (std::uint32_t w = 0; w < point_words; ++w) ones += static_cast<std::uint64_t>(std::popcount(bitmap[w]));
  if (ones * 4 >= std::uint64_t{point_words} * 8) {
    put(out, kDenseBitmap);
    put_array(out, bitmap, point_words);
    return;
  }
  put(out, static_cast<std::uint32_t>(ones));
  // The ids written into room made once: growing the buffer an id at a time took most of the
  // encoding's time.
  const std::size_t at = out.size();
  out.resize(at + ones * sizeof(std::uint32_t));
  std::uint8_t* to = out.data() + at;
  for (std::uint32_t w = 0; w < point_words; ++w)
    for (std::uint64_t word = bitmap[w]; word != 0; word &= word - 1) {
      const auto id = static_cast<std::uint32_t>(w * 64 + static_cast<std::uint32_t>(std::countr_zero(word)));
      std::memcpy(to, &id, sizeof id);
      to += sizeof id;
    }
}

Bytes encode_pairs(const direct::DirectSubspaceMap& map) {
  return encode_pairs_by_group(map, 1, [](const std::uint64_t*) { return std::size_t{0}; }).front();
}

void decode_pairs_into(const std::uint8_t* data, std::size_t size, direct::DirectSubspaceMap& into,
                       const std::string& what) {
  Reader reader(data, size, what);
  const auto count = reader.get<std::uint64_t>();
  const std::uint32_t key_words = into.key_words(), point_words = into.point_words();
  std::vector<std::uint64_t> key(key_words), bitmap(point_words);
  std::vector<std::uint32_t> points;
  for (std::uint64_t e = 0; e < count; ++e) {
    reader.get_array(key.data(), key_words);
    const auto ids = reader.get<std::uint32_t>();
    if (ids == kDenseBitmap) {
      reader.get_array(bitmap.data(), point_words);
    } else {
      std::fill(bitmap.begin(), bitmap.end(), 0);
      points.resize(ids);
      reader.get_array(points.data(), ids);
      for (const std::uint32_t point : points) {
        if (point / 64 >= point_words) throw Error(ExitCode::input, what + ": a point id lies beyond the data");
        bitmap[point / 64] |= std::uint64_t{1} << (point % 64);
      }
    }
    into.add(key.data(), bitmap.data());
  }
  if (!reader.done()) throw Error(ExitCode::input, what + ": data follow the last subspace");
}

void add_subspaces(const std::vector<SubspaceCluster>& subspaces, direct::DirectSubspaceMap& into) {
  std::vector<std::uint64_t> key(into.key_words()), bitmap(into.point_words());
  for (const SubspaceCluster& subspace : subspaces) {
    std::fill(key.begin(), key.end(), 0);
    std::fill(bitmap.begin(), bitmap.end(), 0);
    for (const std::uint32_t d : subspace.dimensions) key[d / 64] |= std::uint64_t{1} << (d % 64);
    for (const std::uint32_t p : subspace.points) bitmap[p / 64] |= std::uint64_t{1} << (p % 64);
    into.add(key.data(), bitmap.data());
  }
}

Bytes encode_clusters(const std::vector<SubspaceCluster>& clusters) {
  std::size_t bytes = sizeof(std::uint64_t);
  for (const SubspaceCluster& cluster : clusters)
    bytes += 2 * sizeof(std::uint64_t) + (cluster.dimensions.size() + cluster.points.size()) * sizeof(std::uint32_t);
  Bytes out;
  out.reserve(bytes);
  put(out, static_cast<std::uint64_t>(clusters.size()));
  for (const SubspaceCluster& cluster : clusters) {
    put(out, static_cast<std::uint64_t>(cluster.dimensions.size()));
    put(out, static_cast<std::uint64_t>(cluster.points.size()));
    put_array(out, cluster.dimensions.data(), cluster.dimensions.size());
    put_array(out, cluster.points.data(), cluster.points.size());
  }
  return out;
}

std::vector<SubspaceCluster> decode_clusters(const Bytes& bytes) {
  Reader reader(bytes.data(), bytes.size(), "clusters from another process");
  std::vector<SubspaceCluster> clusters(reader.get<std::uint64_t>());
  for (SubspaceCluster& cluster : clusters) {
    cluster.dimensions.resize(reader.get<std::uint64_t>());
    cluster.points.resize(reader.get<std::uint64_t>());
    reader.get_array(cluster.dimensions.data(), cluster.dimensions.size());
    reader.get_array(cluster.points.data(), cluster.points.size());
  }
  return clusters;
}

}  // namespace subscale::cluster
