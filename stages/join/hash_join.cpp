#include "stages/join/hash_join.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <vector>

#include "common/error.hpp"
#include "gpu/device_budget.hpp"
#include "gpu/device_info.hpp"
#include "stages/join/hash_join_cpu.hpp"
#include "stages/join/join_cuda.hpp"
#include "stages/join/join_memory.hpp"
#include "stages/join/radix_partition.hpp"

namespace subscale::join {

namespace {

void require_cuda() {
  if (!gpu::cuda_backend_built())
    throw ResourceError(
        "join.backend=cuda, but this build has no CUDA backend (nvcc was not found at configure time): use "
        "join.backend=cpu or rebuild with the CUDA toolkit");
  const auto device = gpu::query_device();
  if (!device.available)
    throw ResourceError("join.backend=cuda, but no CUDA device is available (" + device.reason +
                        "): use join.backend=cpu");
}

}  // namespace

JoinSettings resolve_settings(const JoinOptions& options, std::uint64_t r_rows, const gpu::ExecutionContext& context) {
  validate(options);
  if (options.backend == Backend::cuda) require_cuda();
  JoinSettings settings;
  settings.layout = choose_radix_layout(r_rows, options);
  settings.hash = options.hash;
  settings.probe_chunk = options.probe_chunk;
  if (options.backend == Backend::cuda)
    settings.memory_budget_bytes =
        gpu::device_budget(options.memory_budget_bytes != 0 ? options.memory_budget_bytes : context.device_bytes,
                           gpu::query_device().free_bytes);
  else
    settings.memory_budget_bytes =
        options.memory_budget_bytes != 0 ? options.memory_budget_bytes : default_host_memory_budget();
  return settings;
}

void hash_join_batches(std::span<const std::uint64_t> r_keys, std::span<const std::uint64_t> s_keys,
                       const JoinOptions& options, const PairSink& sink, JoinTimings* timings,
                       const gpu::ExecutionContext& context) {
  const JoinSettings settings = resolve_settings(options, r_keys.size(), context);
  JoinTimings local;
  JoinTimings& t = timings ? *timings : local;
  t = JoinTimings{};
  if (options.backend == Backend::cuda)
    hash_join_cuda(r_keys, s_keys, settings, sink, t, context);
  else
    hash_join_cpu(r_keys, s_keys, settings, sink, t);
}

JoinPairs hash_join(std::span<const std::uint64_t> r_keys, std::span<const std::uint64_t> s_keys,
                    const JoinOptions& options, JoinTimings* timings, const gpu::ExecutionContext& context) {
  JoinPairs pairs;
  PairSink sink;
  sink.on_total = [&](std::uint64_t total) {
    // The gathered result lives in host memory whatever the backend; sorting needs as much again.
    const std::uint64_t bytes = total * kBytesPerOutputPair * (options.sort_output ? 2 : 1);
    const std::uint64_t host_budget = default_host_memory_budget();
    if (bytes > host_budget)
      throw ResourceError("the join produces " + std::to_string(total) + " pairs (" + format_bytes(bytes) +
                          " in host memory), more than the " + format_bytes(host_budget) +
                          " available: consume the pairs in batches (hash_join_batches), or make the join more "
                          "selective");
    pairs.r_rows.reserve(total);
    pairs.s_rows.reserve(total);
  };
  sink.on_batch = [&](std::span<const std::uint32_t> r_rows, std::span<const std::uint32_t> s_rows) {
    pairs.r_rows.insert(pairs.r_rows.end(), r_rows.begin(), r_rows.end());
    pairs.s_rows.insert(pairs.s_rows.end(), s_rows.begin(), s_rows.end());
  };
  hash_join_batches(r_keys, s_keys, options, sink, timings, context);
  if (options.sort_output) sort_pairs(pairs);
  return pairs;
}

void sort_pairs(JoinPairs& pairs) {
  const std::size_t n = pairs.size();
  std::vector<std::uint64_t> packed(n);
  tbb::parallel_for(std::size_t{0}, n,
                    [&](std::size_t i) { packed[i] = (std::uint64_t{pairs.s_rows[i]} << 32) | pairs.r_rows[i]; });
  tbb::parallel_sort(packed.begin(), packed.end());
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) {
    pairs.s_rows[i] = static_cast<std::uint32_t>(packed[i] >> 32);
    pairs.r_rows[i] = static_cast<std::uint32_t>(packed[i]);
  });
}

}  // namespace subscale::join
