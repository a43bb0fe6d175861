#include "distributed/distributed_core.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <variant>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "distributed/mpi_session.hpp"
#include "distributed/subspace_exchange.hpp"
#include "distributed/subspace_pairs.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/dense_units_backend.hpp"
#include "stages/subspaces/signature_subspaces.hpp"

namespace subscale::distributed {
namespace {

using Clock = std::chrono::steady_clock;

// resize and memcpy rather than insert: GCC 12 warns falsely about inserting into an empty vector.
template <class T>
void put(Bytes& out, const T& value) {
  const std::size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

Bytes encode_units(const std::vector<std::uint32_t>& units) {
  Bytes out;
  for (const std::uint32_t u : units) put(out, u);
  return out;
}

std::vector<std::uint32_t> decode_units(const Bytes& bytes) {
  std::vector<std::uint32_t> units(bytes.size() / sizeof(std::uint32_t));
  if (!units.empty()) std::memcpy(units.data(), bytes.data(), units.size() * sizeof(std::uint32_t));
  return units;
}

// Runs `work`; when it fails, agree() hands the failure to every process.
template <class Work>
void together(const Communicator& comm, Work&& work) {
  std::exception_ptr failure;
  try {
    work();
  } catch (...) {
    failure = std::current_exception();
  }
  comm.agree(failure);
}

// The split of a new run: direct mode's slices, or the signature space's partitions (at least one
// per work unit wanted; more when the memory budget asks for them).
WorkSplit new_split(const CoreStepInputs& in, const Density1dResult& density, std::uint32_t units) {
  const std::uint64_t total = in.plan.total_units();
  if (in.params.units.mode == TableMode::direct) return direct_split(total, units);
  const SignatureKeys keys = make_signature_keys(in.plan.points(), in.params.units.keys, in.params.units.seed);
  DenseUnitsParams params = in.params.units;
  if (params.partitions == 0) params.partitions = plan_partitions(in.plan, density, keys, params).count();
  params.partitions = std::max<std::size_t>(params.partitions, units);
  return partition_split(total, plan_partitions(in.plan, density, keys, params), params.mode);
}

struct Agreement {
  CheckpointManifest manifest;
  std::vector<std::uint32_t> finished;  // units read back from the checkpoint
};

// On the root: the manifest (new, or the checkpoint's after checking it fits this run) and the
// finished units; broadcast to every process.
Agreement agree_on_split(const Communicator& comm, const CoreStepInputs& in, const Density1dResult& density,
                         const std::optional<CheckpointOptions>& checkpoint) {
  Agreement agreement;
  std::string text;
  together(comm, [&] {
    if (!comm.is_root()) return;
    if (!checkpoint) {
      agreement.manifest.split = new_split(in, density, static_cast<std::uint32_t>(comm.size()));
      text = manifest_text(agreement.manifest);
      return;
    }
    CheckpointIdentity identity = checkpoint->identity;
    std::visit([&](const auto* values) { identity.emplace_back("input data", input_data_identity(*values)); },
               in.values);
    const CheckpointFolder folder(checkpoint->folder);
    if (checkpoint->resume) {
      agreement.manifest = folder.read_manifest();
      const std::vector<std::string> differences = identity_differences(agreement.manifest.identity, identity);
      if (!differences.empty()) {
        std::string list;
        for (const auto& d : differences) list += "\n  " + d;
        throw UsageError("--resume " + folder.path().string() + ": the checkpoint was made for another run:" + list +
                         "\nresume with the config and input it was made with, or start afresh with another "
                         "checkpoint.dir");
      }
      if (agreement.manifest.split.total_units != in.plan.total_units())
        throw UsageError("--resume " + folder.path().string() + ": the checkpoint's plan has " +
                         std::to_string(agreement.manifest.split.total_units) + " dense units, this run's " +
                         std::to_string(in.plan.total_units()));
      agreement.finished = folder.finished_units(agreement.manifest.split.units);
    } else {
      if (folder.holds_checkpoint())
        throw UsageError("checkpoint.dir " + folder.path().string() +
                         " already holds a checkpoint; continue it with --resume " + folder.path().string() +
                         ", or delete it (or choose another folder) to start afresh");
      const std::uint32_t units =
          checkpoint->units > 0 ? checkpoint->units : kUnitsPerProcess * static_cast<std::uint32_t>(comm.size());
      agreement.manifest = {identity, new_split(in, density, units)};
      folder.create(agreement.manifest);
    }
    text = manifest_text(agreement.manifest);
  });
  const Bytes shared = comm.broadcast(Bytes(text.begin(), text.end()));
  agreement.manifest = parse_manifest(std::string(shared.begin(), shared.end()), "the root's manifest");
  agreement.finished = decode_units(comm.broadcast(encode_units(agreement.finished)));
  return agreement;
}

// This process's share of the walk: `units`, each recorded in the checkpoint as it finishes when
// there is one, all ORed into `mine`.
class ShareRunner {
 public:
  ShareRunner(const CoreStepInputs& in, const CoreResult& result, const WorkSplit& split,
              const std::optional<CheckpointFolder>& folder, std::uint64_t fingerprint,
              dense_units::direct::DirectSubspaceMap& mine, ClusterCoreReport& report)
      : in_(in),
        result_(result),
        split_(split),
        folder_(folder),
        fingerprint_(fingerprint),
        mine_(mine),
        report_(report) {}

  // Without a checkpoint, one call walks the whole share (one device set-up); with one, a call a
  // unit, each recorded as it finishes.
  void run(const std::vector<std::uint32_t>& units, const UnitProgress& progress, DenseUnitsResult& totals) {
    if (units.empty()) return;
    if (!folder_) {
      add(walk(units, mine_, progress), totals);
      return;
    }
    for (const std::uint32_t unit : units) {
      dense_units::direct::DirectSubspaceMap found(mine_.key_words(), mine_.point_words());
      const DenseUnitsResult done = walk({unit}, found, progress);
      const auto start = Clock::now();
      folder_->record_unit(unit, fingerprint_, found, {done.walk_nodes, done.distinct_multi_units});
      report_.checkpoint_seconds += seconds_since(start);
      mine_.merge(found);
      add(done, totals);
    }
  }

 private:
  DenseUnitsResult walk(const std::vector<std::uint32_t>& units, dense_units::direct::DirectSubspaceMap& into,
                        const UnitProgress& progress) {
    if (split_.mode == TableMode::direct) {
      std::vector<UnitRange> ranges;
      for (const std::uint32_t unit : units) {
        const auto more = split_.ranges(unit);
        ranges.insert(ranges.end(), more.begin(), more.end());
      }
      std::sort(ranges.begin(), ranges.end(), [](const UnitRange& a, const UnitRange& b) { return a.begin < b.begin; });
      // The device's ordered lists are for one whole run; a share of the work stays a map, which
      // the processes combine.
      dense_units::direct::DirectWalkOutput output{std::move(into), std::nullopt, false};
      DenseUnitsResult done = walk_direct_units(*in_.direct_space, in_.plan, in_.params.units, result_.backend_used,
                                                output, progress, ranges, in_.gpu);
      into = std::move(output.map);
      return done;
    }
    DenseUnitsParams params = in_.params.units;
    params.given_partitions = split_.partitions;
    params.only_partitions = units;
    SubspaceAccumulator accumulator(in_.plan.points());
    double accumulate_seconds = 0;
    DenseUnitsResult done = accumulate_dense_units(in_.plan, result_.density, params, result_.backend_used, progress,
                                                   accumulator, accumulate_seconds, in_.gpu);
    const std::vector<SubspaceCluster> subspaces = accumulator.finish();
    add_subspaces(subspaces, into);
    return done;
  }

  static void add(const DenseUnitsResult& done, DenseUnitsResult& totals) {
    totals.walk_nodes += done.walk_nodes;
    totals.walk_items += done.walk_items;
    totals.distinct_multi_units += done.distinct_multi_units;
    totals.walk_covered += done.walk_covered;
    totals.multi_units_counted = totals.multi_units_counted && done.multi_units_counted;
    totals.partition_splits += done.partition_splits;
    totals.device_bytes = std::max(totals.device_bytes, done.device_bytes);
    totals.device_subspaces += done.device_subspaces;
    totals.table_bytes = std::max(totals.table_bytes, done.table_bytes);
    totals.false_match_probability = done.false_match_probability;
    totals.scheme = done.scheme;
    totals.partitions.insert(totals.partitions.end(), done.partitions.begin(), done.partitions.end());
    for (const auto& note : done.notes)
      if (std::find(totals.notes.begin(), totals.notes.end(), note) == totals.notes.end()) totals.notes.push_back(note);
    totals.phase_seconds.insert(totals.phase_seconds.end(), done.phase_seconds.begin(), done.phase_seconds.end());
  }

  const CoreStepInputs& in_;
  const CoreResult& result_;
  const WorkSplit& split_;
  const std::optional<CheckpointFolder>& folder_;
  std::uint64_t fingerprint_;
  dense_units::direct::DirectSubspaceMap& mine_;
  ClusterCoreReport& report_;
};

// A failure in the middle of the walk: the other processes are busy with theirs and would wait for
// this one at the next collective, so the job is ended here.
[[noreturn]] void end_job_on_failure(const Communicator& comm) {
  if (!comm.distributed()) throw;
  std::string message = "unknown error";
  int code = static_cast<int>(ExitCode::other);
  try {
    throw;
  } catch (const Error& error) {
    message = error.what();
    code = static_cast<int>(error.code());
  } catch (const std::bad_alloc&) {
    message = "out of host memory";
    code = static_cast<int>(ExitCode::resource);
  } catch (const std::exception& error) {
    message = error.what();
  }
  std::fprintf(stderr, "subscale: error: process %d of %d: %s\nsubscale: ending the whole job (exit code %d)\n",
               comm.rank(), comm.size(), message.c_str(), code);
  std::fflush(stderr);
  MpiSession::abort_job(code);
  throw;
}

// Partition fills of every process, on the root, in signature order.
std::vector<PartitionFill> gather_fills(const Communicator& comm, const std::vector<PartitionFill>& mine) {
  Bytes bytes;
  for (const PartitionFill& fill : mine) {
    put(bytes, fill.lower);
    put(bytes, fill.units);
  }
  std::vector<PartitionFill> all;
  for (const Bytes& part : comm.gather(bytes)) {
    for (std::size_t at = 0; at + 16 <= part.size(); at += 16) {
      PartitionFill fill;
      std::memcpy(&fill.lower, part.data() + at, 8);
      std::memcpy(&fill.units, part.data() + at + 8, 8);
      all.push_back(fill);
    }
  }
  std::sort(all.begin(), all.end(), [](const PartitionFill& a, const PartitionFill& b) { return a.lower < b.lower; });
  return all;
}

// Every process's time for its share of the walk, on the root (a collective): how evenly the work
// was dealt, which bounds the run's parallel efficiency.
std::string share_times_line(const Communicator& comm, double seconds) {
  Bytes mine;
  put(mine, seconds);
  std::vector<double> times;
  for (const Bytes& part : comm.gather(std::move(mine))) {
    double time = 0;
    if (part.size() == sizeof time) std::memcpy(&time, part.data(), sizeof time);
    times.push_back(time);
  }
  if (times.empty()) return {};
  std::ostringstream line;
  line.setf(std::ios::fixed);
  line.precision(2);
  line << "cluster     shares walked in";
  for (std::size_t r = 0; r < times.size(); ++r) line << (r ? ", " : " ") << times[r] << " s";
  double sum = 0, slowest = 0;
  for (const double time : times) {
    sum += time;
    slowest = std::max(slowest, time);
  }
  const double mean = sum / static_cast<double>(times.size());
  line.precision(1);
  line << " (process by process; the slowest " << (mean > 0 ? 100.0 * (slowest / mean - 1.0) : 0.0)
       << "% over the mean)";
  return line.str();
}

// The log's account of the combining; `owned` has handed its list over (`count` subspaces).
std::string exchange_line(double seconds, const OwnedSubspaces& owned, std::size_t count,
                          const GatheredSubspaces& gathered) {
  const auto gb = [](std::uint64_t bytes) { return static_cast<double>(bytes) / 1e9; };
  char line[320];
  std::snprintf(line, sizeof line,
                "cluster     subspaces combined in %.3f s: encoding %.3f s, all-to-all %.3f s (%.2f GB out, %.2f GB "
                "in), combining %.3f s (%zu owned); gather %.3f s (%.2f GB), lists %.3f s",
                seconds, owned.encode_seconds, owned.transfer_seconds, gb(owned.bytes_sent), gb(owned.bytes_received),
                owned.combine_seconds, count, gathered.transfer_seconds, gb(gathered.bytes), gathered.list_seconds);
  return line;
}

}  // namespace

template <class T>
std::string data_fingerprint(const ColumnMatrix<T>& values) {
  const T* data = values.data();
  const std::size_t count = static_cast<std::size_t>(values.size());
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<std::uint64_t> chunks((count + kChunk - 1) / kChunk);
  tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t c) {
    std::uint64_t h = 0x510e527fade682d1ULL + c;
    for (std::size_t i = c * kChunk; i < std::min(count, (c + 1) * kChunk); ++i) {
      // A float's bits, widened: float64 data hash as they always did.
      std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t> held;
      std::memcpy(&held, data + i, sizeof held);
      const std::uint64_t bits = held;
      h = hash::fmix64(h ^ bits) + i;
    }
    chunks[c] = h;
  });
  std::uint64_t h = hash::fmix64(static_cast<std::uint64_t>(values.rows()) * 0x9e3779b97f4a7c15ULL ^
                                 static_cast<std::uint64_t>(values.cols()));
  for (const std::uint64_t chunk : chunks) h = hash::fmix64(h ^ chunk);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}
template std::string data_fingerprint(const Matrix32&);
template std::string data_fingerprint(const Matrix&);

template <class T>
std::string input_data_identity(const ColumnMatrix<T>& values) {
  return std::to_string(values.rows()) + " points x " + std::to_string(values.cols()) + " dimensions, content hash " +
         data_fingerprint(values);
}

template std::string input_data_identity(const Matrix32&);
template std::string input_data_identity(const Matrix&);

CoreExecutor distributed_core_executor(const Communicator& comm, const std::optional<CheckpointOptions>& checkpoint,
                                       ClusterCoreReport& report) {
  return [&comm, &checkpoint, &report](const CoreStepInputs& in, CoreResult& result) {
    auto start = Clock::now();
    const Agreement agreement = agree_on_split(comm, in, result.density, checkpoint);
    const WorkSplit& split = agreement.manifest.split;
    report.units = split.units;
    report.resumed = static_cast<std::uint32_t>(agreement.finished.size());
    std::vector<std::uint32_t> pending;
    for (std::uint32_t u = 0; u < split.units; ++u)
      if (!std::binary_search(agreement.finished.begin(), agreement.finished.end(), u)) pending.push_back(u);
    const std::vector<std::uint32_t> share = deal(pending, comm.rank(), comm.size());

    std::optional<CheckpointFolder> folder;
    if (checkpoint) folder.emplace(checkpoint->folder);
    const std::uint64_t fingerprint = CheckpointFolder::fingerprint(agreement.manifest);
    const std::uint32_t key_words = (in.plan.dimensions() + 63) / 64, point_words = (in.plan.points() + 63) / 64;
    dense_units::direct::DirectSubspaceMap mine(key_words, point_words);
    UnitCounts resumed;
    together(comm, [&] {
      const auto begin = Clock::now();
      for (const std::uint32_t unit : deal(agreement.finished, comm.rank(), comm.size())) {
        const UnitCounts counts = folder->load_unit(unit, fingerprint, mine);
        resumed.walk_nodes += counts.walk_nodes;
        resumed.multi_units += counts.multi_units;
      }
      report.checkpoint_seconds += seconds_since(begin);
    });

    // The progress shown is this process's share, scaled to the whole plan.
    std::uint64_t share_units = 0;
    for (const std::uint32_t unit : share) share_units += split.units_in(unit);
    const double scale =
        share_units > 0 ? static_cast<double>(in.plan.total_units()) / static_cast<double>(share_units) : 0;
    const UnitProgress progress = in.on_units ? UnitProgress([&, scale](std::uint64_t done) {
      in.on_units(static_cast<std::uint64_t>(static_cast<double>(done) * scale));
    })
                                              : UnitProgress();
    DenseUnitsResult& totals = result.dense_units;
    totals.scheme = split.partitions.scheme;
    const auto share_start = Clock::now();
    try {
      ShareRunner(in, result, split, folder, fingerprint, mine, report).run(share, progress, totals);
    } catch (...) {
      end_job_on_failure(comm);
    }
    const std::string shares = share_times_line(comm, seconds_since(share_start));
    if (comm.distributed() && comm.is_root()) report.log_lines.push_back(shares);
    totals.walk_nodes = comm.sum(totals.walk_nodes + resumed.walk_nodes);
    totals.distinct_multi_units = comm.sum(totals.distinct_multi_units + resumed.multi_units);
    totals.walk_items = comm.sum(totals.walk_items);
    totals.walk_covered = comm.sum(totals.walk_covered);
    totals.multi_units_counted = comm.sum(totals.multi_units_counted ? 0u : 1u) == 0;
    totals.device_subspaces = comm.sum(totals.device_subspaces);
    totals.partition_splits = static_cast<std::uint32_t>(comm.sum(totals.partition_splits));
    totals.enumerated_units = in.plan.total_units();
    for (const std::uint32_t unit : agreement.finished) totals.read_back_units += split.units_in(unit);
    totals.read_back_multi_units = comm.sum(resumed.multi_units);
    if (split.mode != TableMode::direct) totals.partitions = gather_fills(comm, totals.partitions);
    result.timings.dense_units_seconds = comm.max(seconds_since(start));

    start = Clock::now();
    in.notify("subspaces");
    if (comm.distributed()) {
      OwnedSubspaces owned = exchange_by_owner(comm, mine);
      report.owned = std::move(owned.subspaces);
      GatheredSubspaces gathered = gather_subspaces(comm, report.owned);
      result.subspaces = std::move(gathered.subspaces);
      report.log_lines.push_back(exchange_line(seconds_since(start), owned, report.owned.size(), gathered));
    } else {
      result.subspaces = mine.to_subspaces();
    }
    result.timings.subspaces_seconds = seconds_since(start);

    // Where this process's walk went (the root's, as a sample of every process's).
    std::ostringstream phases;
    for (const auto& [phase, seconds] : totals.phase_seconds)
      if (seconds >= 0.01) phases << (phases.tellp() > 0 ? ", " : "") << phase << " " << seconds << " s";
    if (phases.tellp() > 0)
      report.log_lines.push_back("cluster     process " + std::to_string(comm.rank()) + "'s walk: " + phases.str());
    std::ostringstream line;
    line << "cluster     " << split.units << " work unit(s) over " << comm.size() << " process(es)";
    if (checkpoint)
      line << "; checkpoint " << checkpoint->folder.string() << ": " << report.resumed << " unit(s) read back, "
           << pending.size() << " walked";
    report.log_lines.push_back(line.str());
  };
}

}  // namespace subscale::distributed
