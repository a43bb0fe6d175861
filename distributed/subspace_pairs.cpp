#include "distributed/subspace_pairs.hpp"

#include <tbb/parallel_for.h>

#include <bit>
#include <cstring>

#include "common/bit_sets.hpp"
#include "common/error.hpp"
#include "common/page_population.hpp"

namespace subscale::distributed {
namespace {

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
  // Steps over `count` values of T, refusing to run past the end.
  template <class T>
  void skip(std::uint64_t count) {
    if (count > (size_ - at_) / sizeof(T)) throw Error(ExitCode::input, what_ + ": the data end too early");
    at_ += count * sizeof(T);
  }
  std::size_t offset() const { return at_; }
  bool done() const { return at_ == size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
  std::string what_;
};

constexpr std::uint32_t kDenseBitmap = 0xffffffffu;

// An entry travels as its key, then kDenseBitmap and the bitmap's words, or the count of its
// points and their ids, whichever is shorter.
bool dense(std::uint64_t ones, std::uint32_t point_words) { return ones * 4 >= std::uint64_t{point_words} * 8; }

std::uint64_t pair_bytes(std::uint64_t ones, std::uint32_t key_words, std::uint32_t point_words) {
  return std::uint64_t{key_words} * 8 + 4 + (dense(ones, point_words) ? std::uint64_t{point_words} * 8 : ones * 4);
}

template <class T>
std::uint8_t* write(std::uint8_t* to, const T* values, std::size_t count) {
  if (count > 0) std::memcpy(to, values, count * sizeof(T));
  return to + count * sizeof(T);
}

void write_pair(std::uint8_t* to, const dense_units::direct::DirectSubspaceMap& map, std::uint32_t entry,
                std::uint64_t ones) {
  const std::uint32_t point_words = map.point_words();
  to = write(to, map.key(entry), map.key_words());
  if (dense(ones, point_words)) {
    to = write(to, &kDenseBitmap, 1);
    std::vector<std::uint64_t> bitmap(point_words, 0);
    map.points().or_into(entry, bitmap.data());
    write(to, bitmap.data(), point_words);
    return;
  }
  const auto count = static_cast<std::uint32_t>(ones);
  to = write(to, &count, 1);
  map.points().for_each_ascending(entry, [&](std::uint32_t id) { to = write(to, &id, 1); });
}

}  // namespace

std::vector<Bytes> encode_pairs_in_groups(const dense_units::direct::DirectSubspaceMap& map, std::size_t groups,
                                          const std::vector<std::uint32_t>& group) {
  const std::uint32_t entries = map.size(), key_words = map.key_words(), point_words = map.point_words();
  std::vector<std::uint64_t> ones(entries), at(entries);
  tbb::parallel_for(std::uint32_t{0}, entries, [&](std::uint32_t e) { ones[e] = map.points().count(e); });
  std::vector<std::uint64_t> size(groups, sizeof(std::uint64_t)), count(groups, 0);
  for (std::uint32_t e = 0; e < entries; ++e) {
    at[e] = size[group[e]];
    size[group[e]] += pair_bytes(ones[e], key_words, point_words);
    ++count[group[e]];
  }
  std::vector<Bytes> out(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    resize_populated(out[g], size[g]);
    std::memcpy(out[g].data(), &count[g], sizeof(std::uint64_t));
  }
  tbb::parallel_for(std::uint32_t{0}, entries,
                    [&](std::uint32_t e) { write_pair(out[group[e]].data() + at[e], map, e, ones[e]); });
  return out;
}

Bytes encode_pairs(const dense_units::direct::DirectSubspaceMap& map) {
  return encode_pairs_in_groups(map, 1, std::vector<std::uint32_t>(map.size(), 0)).front();
}

std::vector<std::uint64_t> pair_offsets(const std::uint8_t* data, std::size_t size, std::uint32_t key_words,
                                        std::uint32_t point_words, const std::string& what) {
  Reader reader(data, size, what);
  const auto count = reader.get<std::uint64_t>();
  if (count > size / (std::uint64_t{key_words} * 8 + 4))
    throw Error(ExitCode::input, what + ": the data end too early");
  std::vector<std::uint64_t> offsets;
  offsets.reserve(count);
  for (std::uint64_t e = 0; e < count; ++e) {
    offsets.push_back(reader.offset());
    reader.skip<std::uint64_t>(key_words);
    const auto ids = reader.get<std::uint32_t>();
    if (ids == kDenseBitmap)
      reader.skip<std::uint64_t>(point_words);
    else
      reader.skip<std::uint32_t>(ids);
  }
  if (!reader.done()) throw Error(ExitCode::input, what + ": data follow the last subspace");
  return offsets;
}

void read_pair_key(const std::uint8_t* entry, std::uint32_t key_words, std::uint64_t* key) {
  std::memcpy(key, entry, std::size_t{key_words} * 8);
}

namespace {

// Where an entry's points lie: a bitmap of point_words words, or `count` ids.
struct PairPoints {
  const std::uint8_t* at;
  bool dense;
  std::uint32_t count;
};

PairPoints pair_points(const std::uint8_t* entry, std::uint32_t key_words) {
  const std::uint8_t* at = entry + std::size_t{key_words} * 8;
  std::uint32_t count;
  std::memcpy(&count, at, sizeof count);
  return {at + sizeof count, count == kDenseBitmap, count};
}

template <class T>
T value_at(const std::uint8_t* at, std::size_t index) {
  T value;
  std::memcpy(&value, at + index * sizeof(T), sizeof value);
  return value;
}

}  // namespace

void or_pair_points(const std::uint8_t* entry, std::uint32_t key_words, std::uint32_t point_words,
                    std::uint64_t* bitmap, const std::string& what) {
  const PairPoints points = pair_points(entry, key_words);
  if (points.dense) {
    for (std::uint32_t w = 0; w < point_words; ++w) bitmap[w] |= value_at<std::uint64_t>(points.at, w);
    return;
  }
  for (std::uint32_t i = 0; i < points.count; ++i) {
    const auto point = value_at<std::uint32_t>(points.at, i);
    if (point / 64 >= point_words) throw Error(ExitCode::input, what + ": a point id lies beyond the data");
    bitmap[point / 64] |= std::uint64_t{1} << (point % 64);
  }
}

void append_pair_point_ids(const std::uint8_t* entry, std::uint32_t key_words, std::uint32_t point_words,
                           std::vector<std::uint32_t>& ids, const std::string& what) {
  const PairPoints points = pair_points(entry, key_words);
  if (points.dense) {
    for (std::uint32_t w = 0; w < point_words; ++w)
      for (std::uint64_t word = value_at<std::uint64_t>(points.at, w); word != 0; word &= word - 1)
        ids.push_back(w * 64 + static_cast<std::uint32_t>(std::countr_zero(word)));
    return;
  }
  const std::size_t first = ids.size();
  ids.resize(first + points.count);
  std::memcpy(ids.data() + first, points.at, std::size_t{points.count} * 4);
  for (std::size_t i = first; i < ids.size(); ++i)
    if (ids[i] / 64 >= point_words || (i > first && ids[i] <= ids[i - 1]))
      throw Error(ExitCode::input, what + ": point ids out of order or beyond the data");
}

void decode_pairs_into(const std::uint8_t* data, std::size_t size, dense_units::direct::DirectSubspaceMap& into,
                       const std::string& what) {
  const std::uint32_t key_words = into.key_words(), point_words = into.point_words();
  std::vector<std::uint64_t> key(key_words), bitmap(point_words);
  for (const std::uint64_t at : pair_offsets(data, size, key_words, point_words, what)) {
    read_pair_key(data + at, key_words, key.data());
    std::fill(bitmap.begin(), bitmap.end(), 0);
    or_pair_points(data + at, key_words, point_words, bitmap.data(), what);
    into.add(key.data(), bitmap.data());
  }
}

void add_subspaces(const std::vector<SubspaceCluster>& subspaces, dense_units::direct::DirectSubspaceMap& into) {
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
  std::vector<std::uint64_t> at(clusters.size() + 1, sizeof(std::uint64_t));
  for (std::size_t c = 0; c < clusters.size(); ++c)
    at[c + 1] = at[c] + 2 * sizeof(std::uint64_t) +
                (clusters[c].dimensions.size() + clusters[c].points.size()) * sizeof(std::uint32_t);
  Bytes out;
  resize_populated(out, at.back());
  const auto count = static_cast<std::uint64_t>(clusters.size());
  std::memcpy(out.data(), &count, sizeof count);
  tbb::parallel_for(std::size_t{0}, clusters.size(), [&](std::size_t c) {
    const SubspaceCluster& cluster = clusters[c];
    const std::uint64_t sizes[2] = {cluster.dimensions.size(), cluster.points.size()};
    std::uint8_t* to = write(out.data() + at[c], sizes, 2);
    to = write(to, cluster.dimensions.data(), cluster.dimensions.size());
    write(to, cluster.points.data(), cluster.points.size());
  });
  return out;
}

std::vector<ClusterView> view_clusters(const Bytes& bytes) {
  // Where each cluster starts, found in one pass over the sizes (checked against the end).
  Reader reader(bytes.data(), bytes.size(), "clusters from another process");
  const auto count = reader.get<std::uint64_t>();
  if (count > bytes.size() / (2 * sizeof(std::uint64_t)))
    throw Error(ExitCode::input, "clusters from another process: the data end too early");
  std::vector<ClusterView> views;
  resize_populated(views, count);
  for (ClusterView& view : views) {
    std::uint64_t sizes[2];
    reader.get_array(sizes, 2);
    // encode_clusters keeps every id list at a multiple of 4 bytes from the start.
    const auto* ids = reinterpret_cast<const std::uint32_t*>(bytes.data() + reader.offset());
    reader.skip<std::uint32_t>(sizes[0]);
    reader.skip<std::uint32_t>(sizes[1]);
    view.dimensions = {ids, sizes[0]};
    view.points = {ids + sizes[0], sizes[1]};
  }
  if (!reader.done()) throw Error(ExitCode::input, "clusters from another process: data follow the last cluster");
  return views;
}

std::vector<SubspaceCluster> decode_clusters(const Bytes& bytes) { return clusters_of(view_clusters(bytes)); }

std::vector<SubspaceCluster> clusters_of(const std::vector<ClusterView>& views) {
  std::vector<SubspaceCluster> clusters;
  resize_populated(clusters, views.size());
  tbb::parallel_for(std::size_t{0}, views.size(), [&](std::size_t c) {
    clusters[c].dimensions.assign(views[c].dimensions.begin(), views[c].dimensions.end());
    clusters[c].points.assign(views[c].points.begin(), views[c].points.end());
  });
  return clusters;
}

}  // namespace subscale::distributed
