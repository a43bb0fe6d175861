#include <algorithm>
#include <string>

#include "gpu/cuda_check.hpp"
#include "stages/subspaces/subspace_accumulator_cuda.cuh"

namespace subscale::dense_units::table {
namespace {

constexpr unsigned long long kEmpty = ~0ull;
constexpr unsigned kThreads = 256;
constexpr std::uint32_t kClaimProbes = 32;

unsigned blocks_for(std::uint64_t items) {
  return static_cast<unsigned>(std::max<std::uint64_t>(1, (items + kThreads - 1) / kThreads));
}

std::uint64_t power_of_two_at_least(std::uint64_t value) {
  std::uint64_t p = 1;
  while (p < value) p <<= 1;
  return p;
}

// A table slot: the hash's high 32 bits above the subspace id.
struct TableView {
  const unsigned long long* slots;
  std::uint64_t mask;
  const std::uint32_t* arena;    // dimension lists, one after another
  const std::uint32_t* offsets;  // subspace s: arena[offsets[s] .. offsets[s + 1])
  std::uint32_t* bitmaps;        // subspace s: words [s * words, (s + 1) * words)
  std::uint32_t words;
};

// Every listed unit (all when list is null) whose subspace is in the table has its points ORed
// into the subspace's bitmap; the others are written to `unknown`.
__global__ void add_known_units(DeviceUnitsView units, const std::uint32_t* list, std::uint64_t count, TableView table,
                                std::uint32_t* unknown, unsigned long long* unknown_count) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const std::uint32_t u = list ? list[i] : static_cast<std::uint32_t>(i);
  const std::uint32_t* dims = units.dims + units.dim_start[u];
  const std::uint32_t size = units.dim_count[u];
  const std::uint64_t h = hash::fmix64_dimensions(dims, size);
  for (std::uint64_t slot = h & table.mask;; slot = (slot + 1) & table.mask) {
    const unsigned long long held = table.slots[slot];
    if (held == kEmpty) {
      unknown[atomicAdd(unknown_count, 1ull)] = u;
      return;
    }
    if ((held >> 32) != (h >> 32)) continue;
    const std::uint32_t s = static_cast<std::uint32_t>(held);
    const std::uint32_t begin = table.offsets[s];
    if (table.offsets[s + 1] - begin != size) continue;
    bool same = true;
    for (std::uint32_t t = 0; t < size && same; ++t) same = table.arena[begin + t] == dims[t];
    if (!same) continue;
    std::uint32_t* bitmap = table.bitmaps + static_cast<std::uint64_t>(s) * table.words;
    for (std::uint32_t t = 0; t < units.m; ++t) {
      const std::uint32_t p = units.points[static_cast<std::uint64_t>(u) * units.m + t];
      const std::uint32_t bit = 1u << (p & 31);
      // Most points of a subspace are set early; a read spares the atomic then.
      if ((bitmap[p >> 5] & bit) == 0) atomicOr(&bitmap[p >> 5], bit);
    }
    return;
  }
}

// Each unknown unit claims a slot by the hash of its dimensions; a slot's owner is its lowest
// unit. Units that find no slot stay unknown for the next round.
__global__ void claim_subspaces(DeviceUnitsView units, const std::uint32_t* list, std::uint64_t count,
                                unsigned long long* claim_hash, std::uint32_t* claim_owner, std::uint64_t mask) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const std::uint32_t u = list[i];
  std::uint64_t h = hash::fmix64_dimensions(units.dims + units.dim_start[u], units.dim_count[u]);
  if (h == kEmpty) h = 0;
  std::uint64_t slot = h & mask;
  for (std::uint32_t probe = 0; probe < kClaimProbes; ++probe, slot = (slot + 1) & mask) {
    const unsigned long long held = atomicCAS(&claim_hash[slot], kEmpty, h);
    if (held == kEmpty || held == h) {
      atomicMin(&claim_owner[slot], u);
      return;
    }
  }
}

__global__ void set_slots(const unsigned long long* pairs, std::uint64_t count, unsigned long long* slots) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i < count) slots[pairs[2 * i]] = pairs[2 * i + 1];
}

// Copies the dimensions of each owner to a row of `stride` entries (the first holds the count).
__global__ void gather_dimensions(DeviceUnitsView units, const std::uint32_t* owners, std::uint64_t count,
                                  std::uint32_t stride, std::uint32_t* rows) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const std::uint32_t u = owners[i];
  const std::uint32_t size = units.dim_count[u];
  std::uint32_t* row = rows + i * stride;
  row[0] = size;
  for (std::uint32_t t = 0; t < size; ++t) row[1 + t] = units.dims[units.dim_start[u] + t];
}

// Slots of the claim table: up to 2^16 new subspaces a round, fewer when their gathered
// dimension lists would pass 32 MiB.
std::uint64_t claim_capacity_for(std::uint32_t dimensions) {
  const std::uint64_t row_bytes = 4ull * (dimensions + 1);
  std::uint64_t capacity = 64;
  while (capacity < (1u << 16) && 2 * capacity * row_bytes <= (32ull << 20)) capacity *= 2;
  return capacity;
}

}  // namespace

std::uint64_t DeviceSubspaceAccumulator::bytes_per_subspace(std::uint32_t points) {
  // The bitmap, two table slots (load at most 1/2), an offset and a guess of 4 dimensions.
  return (points + 31) / 32 * 4 + 2 * 8 + 4 + 4 * 4;
}

std::uint64_t DeviceSubspaceAccumulator::bytes_for(std::uint32_t points, std::uint32_t dimensions,
                                                   std::uint64_t max_subspaces, std::uint64_t max_units) {
  // The subspaces, two lists of unknown units, and the claim table with its gathered rows.
  return max_subspaces * bytes_per_subspace(points) + 8 * max_units +
         claim_capacity_for(dimensions) * (8 + 4 + 4ull * (dimensions + 1));
}

DeviceSubspaceAccumulator::DeviceSubspaceAccumulator(std::uint32_t points, std::uint32_t dimensions,
                                                     std::uint64_t max_subspaces, std::uint64_t max_units,
                                                     cudaStream_t stream)
    : stream_(stream),
      points_(points),
      dimensions_(dimensions),
      words_((points + 31) / 32),
      max_subspaces_(std::min<std::uint64_t>(max_subspaces, 0xffffffffull)),
      max_units_(max_units) {
  const std::uint64_t table_capacity = power_of_two_at_least(2 * max_subspaces_ + 2);
  table_mask_ = table_capacity - 1;
  table_host_.assign(table_capacity, kEmpty);
  table_ = gpu::DeviceBuffer<unsigned long long>::from_host(table_host_, stream_);
  offsets_ = gpu::DeviceBuffer<std::uint32_t>(max_subspaces_ + 1);
  bitmaps_ = gpu::DeviceBuffer<std::uint32_t>(max_subspaces_ * words_);
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(bitmaps_.data(), 0, bitmaps_.bytes(), stream_));
  unknown_a_ = gpu::DeviceBuffer<std::uint32_t>(max_units);
  unknown_b_ = gpu::DeviceBuffer<std::uint32_t>(max_units);
  claim_capacity_ = claim_capacity_for(dimensions);
  claim_hash_ = gpu::DeviceBuffer<unsigned long long>(claim_capacity_);
  claim_owner_ = gpu::DeviceBuffer<std::uint32_t>(claim_capacity_);
  gathered_ = gpu::DeviceBuffer<std::uint32_t>(claim_capacity_ * (dimensions + 1));
  counter_ = gpu::DeviceBuffer<unsigned long long>(1);
}

std::uint64_t DeviceSubspaceAccumulator::bytes() const {
  return table_.bytes() + arena_.bytes() + offsets_.bytes() + bitmaps_.bytes() + unknown_a_.bytes() +
         unknown_b_.bytes() + claim_hash_.bytes() + claim_owner_.bytes() + gathered_.bytes() + counter_.bytes();
}

std::uint64_t DeviceSubspaceAccumulator::lookup(const DeviceUnitsView& units, const std::uint32_t* list,
                                                std::uint64_t count, std::uint32_t* unknown) {
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(counter_.data(), 0, sizeof(unsigned long long), stream_));
  const TableView table{table_.data(), table_mask_, arena_.data(), offsets_.data(), bitmaps_.data(), words_};
  add_known_units<<<blocks_for(count), kThreads, 0, stream_>>>(units, list, count, table, unknown, counter_.data());
  SUBSCALE_CUDA_CHECK_LAUNCH(add_known_units);
  return counter_.to_host(1, stream_)[0];
}

// Adds (S, id) to the host copies unless S is there already or the capacity is reached.
bool DeviceSubspaceAccumulator::insert_host(const std::uint32_t* dims, std::uint32_t count) {
  const std::uint64_t h = hash::fmix64_dimensions(dims, count);
  std::uint64_t slot = h & table_mask_;
  for (;; slot = (slot + 1) & table_mask_) {
    const unsigned long long held = table_host_[slot];
    if (held == kEmpty) break;
    const std::uint32_t s = static_cast<std::uint32_t>(held);
    if ((held >> 32) == (h >> 32) && offsets_host_[s + 1] - offsets_host_[s] == count &&
        std::equal(dims, dims + count, arena_host_.begin() + offsets_host_[s]))
      return true;
  }
  if (this->count() == max_subspaces_) return false;
  const std::uint64_t id = this->count();
  table_host_[slot] = ((h >> 32) << 32) | id;
  new_slots_.push_back(slot);
  arena_host_.insert(arena_host_.end(), dims, dims + count);
  offsets_host_.push_back(static_cast<std::uint32_t>(arena_host_.size()));
  return true;
}

// Sends what insert_host added since the last upload: the new table slots (scattered by a
// kernel), and the new ends of the dimension lists and their offsets. The table is far larger
// than what one round changes, and rounds happen in many chunks.
void DeviceSubspaceAccumulator::upload() {
  if (new_slots_.empty()) return;
  std::size_t arena_from = arena_uploaded_;
  if (arena_.size() < arena_host_.size()) {
    arena_ = gpu::DeviceBuffer<std::uint32_t>(std::max<std::size_t>(2 * arena_host_.size(), 1 << 16));
    arena_from = 0;
  }
  SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(arena_.data() + arena_from, arena_host_.data() + arena_from,
                                      (arena_host_.size() - arena_from) * 4, cudaMemcpyHostToDevice, stream_));
  SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(offsets_.data() + offsets_uploaded_, offsets_host_.data() + offsets_uploaded_,
                                      (offsets_host_.size() - offsets_uploaded_) * 4, cudaMemcpyHostToDevice, stream_));
  std::vector<unsigned long long> pairs;  // (slot, word) pairs
  for (auto slot : new_slots_) pairs.insert(pairs.end(), {slot, table_host_[slot]});
  const auto device_pairs = gpu::DeviceBuffer<unsigned long long>::from_host(pairs, stream_);
  set_slots<<<blocks_for(new_slots_.size()), kThreads, 0, stream_>>>(device_pairs.data(), new_slots_.size(),
                                                                     table_.data());
  SUBSCALE_CUDA_CHECK_LAUNCH(set_slots);
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  arena_uploaded_ = arena_host_.size();
  offsets_uploaded_ = offsets_host_.size();
  new_slots_.clear();
}

void DeviceSubspaceAccumulator::reset() {
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(bitmaps_.data(), 0, count() * words_ * sizeof(std::uint32_t), stream_));
  std::fill(table_host_.begin(), table_host_.end(), kEmpty);
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(table_.data(), 0xff, table_.bytes(), stream_));  // kEmpty in every slot
  arena_host_.clear();
  offsets_host_.assign(1, 0);
  new_slots_.clear();
  arena_uploaded_ = 0;
  offsets_uploaded_ = 0;
}

// One round of new subspaces from the unknown units; false when none could be added (full).
bool DeviceSubspaceAccumulator::add_new_subspaces(const DeviceUnitsView& units, const std::uint32_t* unknown,
                                                  std::uint64_t count) {
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(claim_hash_.data(), 0xff, claim_hash_.bytes(), stream_));
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(claim_owner_.data(), 0xff, claim_owner_.bytes(), stream_));
  claim_subspaces<<<blocks_for(count), kThreads, 0, stream_>>>(units, unknown, count, claim_hash_.data(),
                                                               claim_owner_.data(), claim_capacity_ - 1);
  SUBSCALE_CUDA_CHECK_LAUNCH(claim_subspaces);
  std::vector<std::uint32_t> owners;
  for (auto owner : claim_owner_.to_host(claim_capacity_, stream_))
    if (owner != ~0u) owners.push_back(owner);
  std::sort(owners.begin(), owners.end());  // subspaces numbered in a repeatable order
  SUBSCALE_CUDA_CHECK(
      cudaMemcpyAsync(claim_owner_.data(), owners.data(), owners.size() * 4, cudaMemcpyHostToDevice, stream_));
  const std::uint32_t stride = dimensions_ + 1;
  gather_dimensions<<<blocks_for(owners.size()), kThreads, 0, stream_>>>(units, claim_owner_.data(), owners.size(),
                                                                         stride, gathered_.data());
  SUBSCALE_CUDA_CHECK_LAUNCH(gather_dimensions);
  const auto rows = gathered_.to_host(owners.size() * stride, stream_);
  const std::uint64_t before = this->count();
  for (std::size_t o = 0; o < owners.size(); ++o) {
    const std::uint32_t* row = rows.data() + o * stride;
    if (!insert_host(row + 1, row[0])) break;
  }
  upload();
  return this->count() > before;
}

void DeviceSubspaceAccumulator::add(const DeviceUnitsView& units, MaximalUnits& overflow) {
  if (units.units > max_units_)
    throw ResourceError("the device subspace accumulator got " + std::to_string(units.units) +
                        " units, more than the " + std::to_string(max_units_) + " it was sized for");
  std::uint64_t unknown = lookup(units, nullptr, units.units, unknown_a_.data());
  while (unknown > 0) {
    if (!add_new_subspaces(units, unknown_a_.data(), unknown)) {
      // Full: the table goes to the host in one piece and these units start an empty one; only
      // when even an empty table has no room (or there is no spill) do they go to the host.
      if (spill_ && count() > 0) {
        spill_(subspaces());
        spilled_ += count();
        ++spills_;
        reset();
        continue;
      }
      const auto left = unknown_a_.to_host(unknown, stream_);
      append_to_host(units, &left, overflow, stream_);
      return;
    }
    unknown = lookup(units, unknown_a_.data(), unknown, unknown_b_.data());
    std::swap(unknown_a_, unknown_b_);
  }
}

std::vector<SubspaceCluster> DeviceSubspaceAccumulator::subspaces() const {
  const std::uint64_t count = this->count();
  const auto bits = bitmaps_.to_host(count * words_, stream_);
  std::vector<SubspaceCluster> out(count);
  for (std::uint64_t s = 0; s < count; ++s) {
    out[s].dimensions.assign(arena_host_.begin() + offsets_host_[s], arena_host_.begin() + offsets_host_[s + 1]);
    for (std::uint64_t w = 0; w < words_; ++w)
      for (std::uint32_t word = bits[s * words_ + w]; word != 0; word &= word - 1)
        out[s].points.push_back(static_cast<std::uint32_t>(w * 32 + static_cast<std::uint32_t>(__builtin_ctz(word))));
  }
  return out;
}

}  // namespace subscale::dense_units::table
