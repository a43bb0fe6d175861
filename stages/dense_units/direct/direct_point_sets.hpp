#pragma once
// The point sets of direct mode's host subspace table. Most subspaces of a tie-heavy input hold a
// handful of points (at 12,500 points, 2.35 M of 2.98 M subspaces held 8 or fewer), so a set
// starts as a short list of ids and becomes a bitmap of `point_words` words only once a list would
// take as much room: a bitmap for every subspace took 1.6 kB each there, 4.7 GB per table.
//
// Lists live in pools of fixed-capacity blocks (4, 8, 16, 32 and 64 ids); a list that outgrows its
// block moves to the next size and leaves its block for reuse. Lists are unordered; what reads them
// in order sorts them.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace subscale::dense_units::direct {

class DirectPointSets {
 public:
  explicit DirectPointSets(std::uint32_t point_words);

  // A new empty set; its number.
  std::uint32_t add_empty();
  // Takes over `count` bitmaps of point_words words each as sets 0 .. count - 1 (only while empty).
  void adopt_bitmaps(std::vector<std::uint64_t>&& bitmaps, std::uint32_t count);
  void reserve(std::uint64_t sets);

  bool contains(std::uint32_t set, std::uint32_t point) const;
  // Adds `point`; true when it was not yet in.
  bool insert(std::uint32_t set, std::uint32_t point);
  void insert_bitmap(std::uint32_t set, const std::uint64_t* bitmap);
  void insert_all(std::uint32_t set, const DirectPointSets& other, std::uint32_t other_set);

  std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(count_.size()); }
  std::uint32_t point_words() const noexcept { return point_words_; }
  std::uint32_t count(std::uint32_t set) const { return count_[set]; }
  // The set's bitmap, or nullptr while it is a list.
  const std::uint64_t* bitmap(std::uint32_t set) const {
    return class_[set] == kBitmap ? dense_.data() + std::size_t{place_[set]} * point_words_ : nullptr;
  }
  // The set's points ORed into `bitmap` (point_words words).
  void or_into(std::uint32_t set, std::uint64_t* bitmap) const;
  // Calls f(point) for each point, in no set order.
  template <class F>
  void for_each(std::uint32_t set, F&& f) const {
    if (const std::uint64_t* bits = bitmap(set)) {
      for_each_bit(bits, f);
      return;
    }
    const std::uint32_t* ids = list(set);
    for (std::uint32_t i = 0; i < count_[set]; ++i) f(ids[i]);
  }
  // Calls f(point) for each point, ascending.
  template <class F>
  void for_each_ascending(std::uint32_t set, F&& f) const {
    if (const std::uint64_t* bits = bitmap(set)) {
      for_each_bit(bits, f);
      return;
    }
    std::array<std::uint32_t, kLargestList> ids;
    const std::uint32_t n = count_[set];
    std::copy_n(list(set), n, ids.begin());
    std::sort(ids.begin(), ids.begin() + n);
    for (std::uint32_t i = 0; i < n; ++i) f(ids[i]);
  }

  std::uint64_t bytes() const noexcept;
  // The most one set takes: a bitmap, its place and count.
  static std::uint64_t bytes_per_set_at_most(std::uint32_t point_words) noexcept {
    return std::uint64_t{point_words} * 8 + 9;
  }

  static constexpr std::uint32_t kLargestList = 64;

 private:
  static constexpr std::uint8_t kBitmap = 0xff;
  static constexpr std::uint32_t kListSizes = 5;  // capacities 4 << c

  static constexpr std::uint32_t capacity(std::uint8_t size_class) { return 4u << size_class; }
  std::uint32_t* list(std::uint32_t set) { return pools_[class_[set]].data() + std::size_t{place_[set]}; }
  const std::uint32_t* list(std::uint32_t set) const { return pools_[class_[set]].data() + std::size_t{place_[set]}; }
  template <class F>
  void for_each_bit(const std::uint64_t* bits, F&& f) const {
    for (std::uint32_t w = 0; w < point_words_; ++w)
      for (std::uint64_t word = bits[w]; word != 0; word &= word - 1)
        f(w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(word)));
  }
  // A block of `size_class` (a freed one where there is one); its offset in that pool.
  std::uint32_t take_block(std::uint8_t size_class);
  // Moves a full list to the next size, or to a bitmap past the largest list.
  void grow(std::uint32_t set);
  void make_bitmap(std::uint32_t set);

  std::uint32_t point_words_;
  std::uint8_t first_class_;  // kBitmap where a bitmap is no larger than the smallest list
  std::uint8_t last_class_;   // the largest list that is smaller than a bitmap
  std::vector<std::uint32_t> count_, place_;
  std::vector<std::uint8_t> class_;
  std::array<std::vector<std::uint32_t>, kListSizes> pools_, free_;
  std::vector<std::uint64_t> dense_;  // bitmaps, point_words words each
};

}  // namespace subscale::dense_units::direct
