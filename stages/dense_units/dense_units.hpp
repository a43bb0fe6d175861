#pragma once
// Stage dense_units (docs/method.md §4-§7): the dense units of the 1-D windows and the maximal
// subspace D(U) of each, the set of dimensions in which the same points form a unit. Three modes
// give the same subspaces:
// - direct (direct/, the default of a run): no signatures and no table; each unit's D(U) is
//   computed from the coordinates while a window's subsets are walked depth first
//   (direct/direct_units.hpp);
// - signature (table/): every unit gets a signature, the sum of its points' random keys, and the
//   units that occur in two or more dimensions are found through a signature table cut into
//   partitions of the signature space (the published method);
// - exact (table/): the same table keyed by the sorted point ids, the slow reference.
// The result never depends on the mode, the number of partitions, the scheme, the backend or the
// number of threads. This header holds the parameters, the result and the table modes' entry.
#include <cstdint>
#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "stages/dense_units/maximal_units.hpp"
#include "stages/dense_units/table/partition_plan.hpp"
#include "stages/dense_units/table/signature_keys.hpp"
#include "stages/dense_units/unit_plan.hpp"

namespace subscale {

enum class TableMode {
  signature,  // keyed by the signature (64 or 128 bits)
  exact,      // keyed by the sorted point ids: slower, the reference
  direct,     // no table: each unit's subspace computed from the coordinates (direct_units.hpp)
};

TableMode parse_table_mode(const std::string& name);
const char* to_string(TableMode mode);

struct DenseUnitsParams {
  TableMode mode = TableMode::signature;
  std::uint32_t signature_bits = 128;  // 64 or 128
  KeyScheme keys = KeyScheme::uniform;
  std::uint64_t seed = 0;
  PartitionScheme scheme = PartitionScheme::adaptive;
  std::size_t partitions = 0;            // 0: as many as the memory budget needs
  std::uint64_t host_bytes = 0;          // memory budget for one partition's table
  std::uint64_t device_table_slots = 0;  // GPU: cap on the table's slots (0: as the device budget allows)
  // GPU tuning and test knobs, 0 for automatic: units a thread walks per search and unrank,
  // duplicates the resolver takes per chunk, subspaces the device accumulator holds.
  std::uint32_t device_units_per_run = 0;
  std::uint32_t device_walk_lanes = 0;  // walkers sharing a run: 1 (a thread) or 32 (a warp); 0: by window size
  std::uint64_t device_resolve_chunk = 0;
  std::uint64_t device_subspace_capacity = 0;
  std::uint64_t device_list_chunk_ids = 0;  // direct mode: ids a chunk of the hand-over holds (0: 2 M)
  // Direct mode on the GPU: host bytes the subspaces spilled from the device may take (0: the
  // memory available when the stage starts). Past it the stage stops with a resource error
  // instead of being killed by the system.
  std::uint64_t host_map_bytes = 0;
  // Direct mode on the CPU: bytes its pair table may take (0: 512 MiB or a quarter of the
  // available host memory, whichever is less, and only for a walk large enough to pay for it). A
  // smaller budget than the table needs leaves it out; the walk then reads values, with the same
  // result.
  std::uint64_t host_pair_table_bytes = 0;
  // Direct mode on the GPU, masks of one word (at most 64 dimensions): bytes its pair table may
  // take (0: an eighth of the device budget, and only for a walk large enough to pay for it). A
  // smaller budget than the table needs leaves it out (1 always does); the walk then reads values,
  // with the same result.
  std::uint64_t device_pair_table_bytes = 0;
  // Direct mode: walk every unit, so that distinct_multi_units counts all units in two or more
  // dimensions. False passes over the subtrees whose units would add no point to any subspace (the
  // same subspaces, often much sooner), on the CPU and the GPU; distinct_multi_units then counts
  // only the units emitted, and multi_units_counted is false.
  bool direct_count_units = false;
  // Cluster runs and checkpoints share one plan of partitions out: when `given_partitions` has
  // boundaries it is used instead of a plan from the budget, and with `only_partitions` just
  // those of its partitions are processed (the others are another call's or another process's).
  PartitionPlan given_partitions;
  std::vector<std::uint32_t> only_partitions;
};

// The partitions a call processes: `only_partitions`, or all `count` of them.
std::vector<std::uint32_t> selected_partitions(const DenseUnitsParams& params, std::size_t count);

struct PartitionFill {
  std::uint64_t lower = 0;  // first signature of the partition
  std::uint64_t units = 0;  // units that fell into it
};

struct DenseUnitsResult {
  MaximalUnits units;  // units found in >= 2 dimensions
  std::vector<PartitionFill> partitions;
  PartitionScheme scheme = PartitionScheme::adaptive;
  std::uint64_t enumerated_units = 0;      // every unit, once per partition pass that kept it
  std::uint64_t distinct_multi_units = 0;  // units found in >= 2 dimensions (passed to the sink or kept)
  double false_match_probability = 0;      // for the chosen signature width (0 in exact mode)
  std::uint64_t table_bytes = 0;           // peak bytes of the largest partition's table
  std::uint32_t partition_splits = 0;      // GPU: partitions that overflowed and were split and redone
  std::uint64_t device_bytes = 0;          // GPU: device memory the stage allocated (peak)
  std::uint64_t device_subspaces = 0;      // GPU: subspaces accumulated on the device
  std::uint64_t resolved_members = 0;      // GPU: units resolved from duplicate groups (first + duplicates)
  std::uint64_t walk_nodes = 0;            // direct mode: prefixes and leaves whose subspace was computed
  std::uint64_t walk_items = 0;            // direct mode: work items the windows were cut into
  std::uint64_t walk_covered = 0;          // direct mode: subtrees passed over as adding no point
  // GPU, direct mode: bytes of its pair table (0: none, the walk read values).
  std::uint64_t device_pair_table_bytes = 0;
  // False when the walk could pass over units (direct_count_units off): then
  // distinct_multi_units counts the units emitted, not all units in two or more dimensions.
  bool multi_units_counted = true;
  // A resumed run: of the dense units and of distinct_multi_units, those of the work units read back
  // from the checkpoint rather than walked (rates count only the walked ones).
  std::uint64_t read_back_units = 0;
  std::uint64_t read_back_multi_units = 0;
  std::vector<std::string> notes;                             // what the run adapted to (said in the log)
  std::vector<std::pair<std::string, double>> phase_seconds;  // where the stage's time went
};

// Bytes one unit occupies in the host signature table (for planning partitions).
inline constexpr std::uint64_t kHostBytesPerUnit = 24;

// The fewest partitions whose tables fit `host_bytes` each (0: the default budget of 8 GiB).
std::size_t partitions_for_host_bytes(std::uint64_t units, std::uint64_t host_bytes);

// `params` with an explicit partition count raised to what host_bytes needs: a host table larger
// than the budget would get the process killed part-way. The CPU path runs with it.
DenseUnitsParams fit_partitions_to_host_bytes(DenseUnitsParams params, std::uint64_t units);

// The partitions the run will use: the count from the budget (or params.partitions) and the
// boundaries from the scheme.
PartitionPlan plan_partitions(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                              const DenseUnitsParams& params);

// Probability of at least one false signature match among `units` distinct units.
double false_match_probability(std::uint64_t units, std::uint32_t bits, KeyScheme scheme, std::uint32_t m);

// progress(done_units) is called from worker threads now and then; it may be empty.
using UnitProgress = std::function<void(std::uint64_t)>;

// Receives the units found in >= 2 dimensions one partition at a time. When a sink is given, the
// units are handed over and not kept in DenseUnitsResult::units (only counted), so a run never
// holds all of them at once; the batch is only valid during the call.
using UnitSink = std::function<void(const MaximalUnits& batch)>;

// Receives each unit found in >= 2 dimensions as soon as it is found, from many threads at once
// (the CPU backend): no batch is built, so nothing is copied or allocated per unit.
using ConcurrentUnitSink =
    std::function<void(std::span<const std::uint32_t> points, std::span<const std::uint32_t> dimensions)>;

// Receives (S, points of S) pairs from a backend that groups units into subspaces itself (the GPU
// backend does so on the device); a subspace may arrive more than once, its points to be joined.
using SubspaceSink = std::function<void(const std::vector<SubspaceCluster>& subspaces)>;

// Both backends refuse a signature width other than 64 or 128 (a ParameterError).
void check_signature_bits(std::uint32_t bits);

// With a concurrent sink, units go there as they are found (and not to `sink` or the result).
DenseUnitsResult run_dense_units_cpu(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                     const DenseUnitsParams& params, const UnitProgress& progress = {},
                                     const UnitSink& sink = {}, const ConcurrentUnitSink& concurrent_sink = {});

std::ostream& operator<<(std::ostream& out, const DenseUnitsResult& result);

}  // namespace subscale
