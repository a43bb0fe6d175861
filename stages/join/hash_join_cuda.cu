// The join on the device: radix partitioning of R and S (radix_partition_cuda.cu), a plan of work
// items on the host, then build and probe. A work item is one block: it builds its partition's
// chained table in shared memory (when the R side fits kFastTableTuples) or uses a table prebuilt
// in global memory, and probes its chunk of S. Probing runs twice: counting (so the output is
// sized exactly and checked against the budget before it is allocated), then writing each pair
// at its item's prefix-sum offset plus a block-wide scan of the per-thread counts.
#include <algorithm>
#include <chrono>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "common/error.hpp"
#include "gpu/device_stream.hpp"
#include "gpu/pinned_buffer.hpp"
#include "gpu/staged_upload.hpp"
#include "stages/join/chained_table.hpp"
#include "stages/join/join_cuda.hpp"
#include "stages/join/join_memory.hpp"
#include "stages/join/probe_plan.hpp"
#include "stages/join/radix_partition_cuda.cuh"

namespace subscale::join {

namespace {

constexpr int kProbeThreads = 256;
// R tuples a block's shared-memory table holds: 8 (key) + 4 (next) + 4 (head) bytes each,
// 32 KiB in all, which leaves room for six blocks on an H100 multiprocessor.
constexpr std::uint32_t kFastTableTuples = 2048;

struct ProbeInputs {
  const ProbeWorkItem* items;
  const std::uint64_t* r_keys;
  const std::uint32_t* r_rows;
  const std::uint64_t* s_keys;
  const std::uint32_t* s_rows;
  const std::uint32_t* heads;  // prebuilt tables
  const std::uint32_t* next;
  int total_bits;
  JoinHash hash;
};

__global__ void build_tables_kernel(const TableToBuild* __restrict__ tables, std::uint32_t table_count,
                                    const std::uint64_t* __restrict__ r_keys, std::uint32_t* heads, std::uint32_t* next,
                                    int total_bits, JoinHash hash) {
  for (std::uint32_t t = blockIdx.y; t < table_count; t += gridDim.y) {
    const TableToBuild table = tables[t];
    const std::uint32_t m = table.r_end - table.r_begin;
    for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
         i += std::uint64_t{gridDim.x} * blockDim.x) {
      const std::uint64_t h = join_hash(r_keys[table.r_begin + i], hash);
      next[table.next_base + i] = atomicExch(&heads[table.heads_base + bucket_of(h, total_bits, table.bucket_bits)],
                                             static_cast<std::uint32_t>(i));
    }
  }
}

// kWrite = false: counts[item] = pairs of the item. kWrite = true: writes the pairs of items
// first_item + blockIdx.x at item_offsets[item] - out_base.
template <bool kWrite>
__global__ void __launch_bounds__(kProbeThreads)
    probe_kernel(ProbeInputs in, std::uint64_t first_item, unsigned long long* __restrict__ counts,
                 const unsigned long long* __restrict__ item_offsets, unsigned long long out_base,
                 std::uint32_t* __restrict__ out_r, std::uint32_t* __restrict__ out_s) {
  __shared__ std::uint64_t fast_keys[kFastTableTuples];
  __shared__ std::uint32_t fast_next[kFastTableTuples];
  __shared__ std::uint32_t fast_heads[kFastTableTuples];
  using BlockScan = cub::BlockScan<unsigned long long, kProbeThreads>;
  using BlockReduce = cub::BlockReduce<unsigned long long, kProbeThreads>;
  __shared__ union {
    typename BlockScan::TempStorage scan;
    typename BlockReduce::TempStorage reduce;
  } temp;

  const std::uint64_t item_index = first_item + blockIdx.x;
  const ProbeWorkItem item = in.items[item_index];
  ChainedTableView table;
  table.total_bits = in.total_bits;
  table.bucket_bits = item.bucket_bits;
  if (item.prebuilt) {
    table.keys = in.r_keys + item.r_begin;
    table.heads = in.heads + item.heads_base;
    table.next = in.next + item.next_base;
  } else {
    const std::uint32_t m = item.r_end - item.r_begin;
    const std::uint32_t buckets = 1U << item.bucket_bits;
    for (std::uint32_t i = threadIdx.x; i < buckets; i += blockDim.x) fast_heads[i] = kEndOfChain;
    for (std::uint32_t i = threadIdx.x; i < m; i += blockDim.x) fast_keys[i] = in.r_keys[item.r_begin + i];
    __syncthreads();
    for (std::uint32_t i = threadIdx.x; i < m; i += blockDim.x) {
      const std::uint64_t h = join_hash(fast_keys[i], in.hash);
      fast_next[i] = atomicExch(&fast_heads[bucket_of(h, in.total_bits, item.bucket_bits)], i);
    }
    __syncthreads();
    table.keys = fast_keys;
    table.heads = fast_heads;
    table.next = fast_next;
  }

  if constexpr (!kWrite) {
    unsigned long long count = 0;
    for (std::uint64_t j = item.s_begin + threadIdx.x; j < item.s_end; j += blockDim.x) {
      const std::uint64_t key = in.s_keys[j];
      count += probe_chain(table, key, join_hash(key, in.hash), [](std::uint32_t) {});
    }
    count = BlockReduce(temp.reduce).Sum(count);
    if (threadIdx.x == 0) counts[item_index] = count;
  } else {
    unsigned long long running = item_offsets[item_index] - out_base;
    for (std::uint64_t round = item.s_begin; round < item.s_end; round += blockDim.x) {
      const std::uint64_t j = round + threadIdx.x;
      std::uint64_t key = 0, h = 0;
      std::uint32_t matches = 0, first = kEndOfChain;
      if (j < item.s_end) {
        key = in.s_keys[j];
        h = join_hash(key, in.hash);
        matches = probe_chain(table, key, h, [&](std::uint32_t i) {
          if (first == kEndOfChain) first = i;
        });
      }
      unsigned long long position = 0, round_total = 0;
      BlockScan(temp.scan).ExclusiveSum(static_cast<unsigned long long>(matches), position, round_total);
      position += running;
      if (matches == 1) {
        // The common case (a key of R matches once): no second walk of the chain.
        out_r[position] = in.r_rows[item.r_begin + first];
        out_s[position] = in.s_rows[j];
      } else if (matches > 1) {
        const std::uint32_t s_row = in.s_rows[j];
        probe_chain(table, key, h, [&](std::uint32_t i) {
          out_r[position] = in.r_rows[item.r_begin + i];
          out_s[position] = s_row;
          ++position;
        });
      }
      running += round_total;
      __syncthreads();  // temp.scan is reused by the next round
    }
  }
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

template <class T>
void copy_to_device(DeviceBuffer<T>& device, const std::vector<T>& host, cudaStream_t stream) {
  if (!host.empty())
    SUBSCALE_CUDA_CHECK(
        cudaMemcpyAsync(device.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

// Two timing events, destroyed with the object.
struct TimingEvents {
  TimingEvents() {
    SUBSCALE_CUDA_CHECK(cudaEventCreate(&begin));
    SUBSCALE_CUDA_CHECK(cudaEventCreate(&end));
  }
  TimingEvents(const TimingEvents&) = delete;
  TimingEvents& operator=(const TimingEvents&) = delete;
  ~TimingEvents() {
    cudaEventDestroy(begin);
    cudaEventDestroy(end);
  }
  cudaEvent_t begin{}, end{};
};

// Pairs go back to the host in chunks of this many through two pinned buffers: the copy engine
// fills one while the sink reads the other. 4 M pairs: 64 MiB of pinned memory for both sides of
// both buffers.
constexpr std::uint64_t kPairsPerChunk = std::uint64_t{4} << 20;

// Hands the device's pairs [0, size) to the sink through pinned chunks, the copy of chunk k + 1
// overlapping the sink's work on chunk k. The spans the sink sees point into pinned memory.
class PairDownloader {
 public:
  explicit PairDownloader(std::uint64_t largest_batch)
      : chunk_(std::min(largest_batch, kPairsPerChunk)),
        r_{gpu::PinnedBuffer<std::uint32_t>(chunk_), gpu::PinnedBuffer<std::uint32_t>(chunk_)},
        s_{gpu::PinnedBuffer<std::uint32_t>(chunk_), gpu::PinnedBuffer<std::uint32_t>(chunk_)} {
    for (cudaEvent_t& event : copied_) SUBSCALE_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  }
  PairDownloader(const PairDownloader&) = delete;
  PairDownloader& operator=(const PairDownloader&) = delete;
  ~PairDownloader() {
    cudaStreamSynchronize(stream_.get());  // the pinned chunks must outlive the copies into them
    for (cudaEvent_t event : copied_) cudaEventDestroy(event);
  }

  // `ready`: recorded after the kernel that wrote the pairs.
  void download(const std::uint32_t* r, const std::uint32_t* s, std::uint64_t size, cudaEvent_t ready,
                const PairSink& sink) {
    SUBSCALE_CUDA_CHECK(cudaStreamWaitEvent(stream_.get(), ready, 0));
    const std::uint64_t chunks = (size + chunk_ - 1) / chunk_;
    if (chunks > 0) queue(r, s, size, 0);
    for (std::uint64_t k = 0; k < chunks; ++k) {
      // The buffer of chunk k + 1 held chunk k - 1, which the sink has finished with.
      if (k + 1 < chunks) queue(r, s, size, k + 1);
      SUBSCALE_CUDA_CHECK(cudaEventSynchronize(copied_[k % 2]));
      const std::uint64_t count = std::min(chunk_, size - k * chunk_);
      if (sink.on_batch) sink.on_batch(r_[k % 2].span(count), s_[k % 2].span(count));
    }
  }

 private:
  void queue(const std::uint32_t* r, const std::uint32_t* s, std::uint64_t size, std::uint64_t k) {
    const std::uint64_t first = k * chunk_, count = std::min(chunk_, size - first);
    const std::size_t bytes = count * sizeof(std::uint32_t);
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(r_[k % 2].data(), r + first, bytes, cudaMemcpyDeviceToHost, stream_.get()));
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(s_[k % 2].data(), s + first, bytes, cudaMemcpyDeviceToHost, stream_.get()));
    SUBSCALE_CUDA_CHECK(cudaEventRecord(copied_[k % 2], stream_.get()));
  }

  std::uint64_t chunk_;
  gpu::PinnedBuffer<std::uint32_t> r_[2], s_[2];
  cudaEvent_t copied_[2]{};
  gpu::DeviceStream stream_;
};

}  // namespace

void hash_join_cuda(std::span<const std::uint64_t> r_keys, std::span<const std::uint64_t> s_keys,
                    const JoinSettings& settings, const PairSink& sink, JoinTimings& timings,
                    const gpu::ExecutionContext& context) {
  for (const auto size : {r_keys.size(), s_keys.size()})
    if (size > kMaxJoinRows)
      throw UsageError("a join relation has " + std::to_string(size) + " rows; at most " +
                       std::to_string(kMaxJoinRows) + " are supported: join smaller pieces");
  validate(settings.layout);
  // Memory planning comes first: nothing is allocated for a join that cannot fit.
  const JoinMemoryPlan memory = plan_join_memory(r_keys.size(), s_keys.size(), settings, subscale::Backend::cuda);
  require_fits(memory, r_keys.size(), s_keys.size(), settings.memory_budget_bytes, subscale::Backend::cuda);
  const auto n_r = static_cast<std::uint32_t>(r_keys.size());
  const auto n_s = static_cast<std::uint32_t>(s_keys.size());
  const std::uint32_t partitions = settings.layout.partitions();
  const int total_bits = settings.layout.total_bits();
  timings.partitions = partitions;
  if (n_r == 0 || n_s == 0) {
    if (sink.on_total) sink.on_total(0);
    return;
  }
  const bool ping_pong = settings.layout.passes() > 1;
  const cudaStream_t stream = context.stream;

  // The keys come from pageable memory through pinned staging chunks (gpu/staged_upload.hpp); R is
  // partitioned on the context's stream while S is still being copied. transfer_in_seconds is the
  // host's time in the allocations and uploads, R's partitioning included where it did not finish
  // before S's copy; so the phases add up to more than the call's wall time.
  auto start = Clock::now();
  DeviceBuffer<std::uint64_t> r_input(n_r), s_input(n_s);
  DeviceBuffer<std::uint64_t> r_keys_a(n_r), r_keys_b(ping_pong ? n_r : 0);
  DeviceBuffer<std::uint64_t> s_keys_a(n_s), s_keys_b(ping_pong ? n_s : 0);
  DeviceBuffer<std::uint32_t> r_rows_a(n_r), r_rows_b(ping_pong ? n_r : 0);
  DeviceBuffer<std::uint32_t> s_rows_a(n_s), s_rows_b(ping_pong ? n_s : 0);
  DeviceBuffer<std::uint32_t> r_offsets(std::size_t{partitions} + 1), s_offsets(std::size_t{partitions} + 1);
  PartitionScratch scratch = make_partition_scratch(settings.layout);
  gpu::StagedUploader uploader;
  timings.transfer_in_seconds = seconds_since(start);  // allocations, pinned staging included

  start = Clock::now();
  uploader.upload(r_input.data(), r_keys);
  SUBSCALE_CUDA_CHECK(cudaStreamWaitEvent(stream, uploader.record(), 0));
  // R's partitioning overlaps S's copy, so its own time comes from events around its kernels:
  // partition_seconds stays the time of partitioning both relations, as the join's rate needs.
  const TimingEvents r_partition;
  SUBSCALE_CUDA_CHECK(cudaEventRecord(r_partition.begin, stream));
  const DevicePartitioned r =
      partition_on_device(r_input.data(), n_r, settings.layout, settings.hash, r_keys_a.data(), r_rows_a.data(),
                          r_keys_b.data(), r_rows_b.data(), r_offsets.data(), scratch, stream);
  SUBSCALE_CUDA_CHECK(cudaEventRecord(r_partition.end, stream));
  uploader.upload(s_input.data(), s_keys);
  SUBSCALE_CUDA_CHECK(cudaStreamWaitEvent(stream, uploader.record(), 0));
  timings.transfer_in_seconds += seconds_since(start);

  SUBSCALE_CUDA_CHECK(cudaEventSynchronize(r_partition.end));
  float r_partition_ms = 0;
  SUBSCALE_CUDA_CHECK(cudaEventElapsedTime(&r_partition_ms, r_partition.begin, r_partition.end));
  start = Clock::now();
  const DevicePartitioned s =
      partition_on_device(s_input.data(), n_s, settings.layout, settings.hash, s_keys_a.data(), s_rows_a.data(),
                          s_keys_b.data(), s_rows_b.data(), s_offsets.data(), scratch, stream);
  std::vector<std::uint32_t> host_r_offsets(std::size_t{partitions} + 1), host_s_offsets(std::size_t{partitions} + 1);
  SUBSCALE_CUDA_CHECK(
      cudaMemcpyAsync(host_r_offsets.data(), r_offsets.data(), r_offsets.bytes(), cudaMemcpyDeviceToHost, stream));
  SUBSCALE_CUDA_CHECK(
      cudaMemcpyAsync(host_s_offsets.data(), s_offsets.data(), s_offsets.bytes(), cudaMemcpyDeviceToHost, stream));
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  timings.partition_seconds = seconds_since(start) + r_partition_ms / 1e3;

  start = Clock::now();
  const ProbePlan plan = make_probe_plan(host_r_offsets, host_s_offsets, settings.probe_chunk, kFastTableTuples);
  timings.work_items = plan.items.size();
  timings.prebuilt_tables = plan.tables.size();
  if (plan.items.empty()) {
    timings.probe_seconds = seconds_since(start);
    if (sink.on_total) sink.on_total(0);
    return;
  }
  DeviceBuffer<ProbeWorkItem> items(plan.items.size());
  DeviceBuffer<TableToBuild> tables(plan.tables.size());
  DeviceBuffer<std::uint32_t> heads(plan.heads_total), next(plan.next_total);
  DeviceBuffer<unsigned long long> counts(plan.items.size() + 1), item_offsets(plan.items.size() + 1);
  copy_to_device(items, plan.items, stream);
  copy_to_device(tables, plan.tables, stream);
  if (!plan.tables.empty()) {
    SUBSCALE_CUDA_CHECK(cudaMemsetAsync(heads.data(), 0xFF, heads.bytes(), stream));  // kEndOfChain
    std::uint32_t largest = 0;
    for (const auto& t : plan.tables) largest = std::max(largest, t.r_end - t.r_begin);
    const dim3 grid(std::min<std::uint32_t>((largest + 255) / 256, 1024),
                    std::min<std::uint32_t>(static_cast<std::uint32_t>(plan.tables.size()), 65535));
    build_tables_kernel<<<grid, 256, 0, stream>>>(tables.data(), static_cast<std::uint32_t>(plan.tables.size()), r.keys,
                                                  heads.data(), next.data(), total_bits, settings.hash);
    SUBSCALE_CUDA_CHECK_LAUNCH(build_tables_kernel);
  }
  const ProbeInputs inputs{items.data(), r.keys,      r.rows,     s.keys,       s.rows,
                           heads.data(), next.data(), total_bits, settings.hash};
  const auto item_count = static_cast<std::uint32_t>(plan.items.size());
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(counts.data() + item_count, 0, sizeof(unsigned long long), stream));
  probe_kernel<false><<<item_count, kProbeThreads, 0, stream>>>(inputs, 0, counts.data(), nullptr, 0, nullptr, nullptr);
  SUBSCALE_CUDA_CHECK_LAUNCH(probe_kernel);
  std::size_t scan_bytes = 0;
  SUBSCALE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts.data(), item_offsets.data(),
                                                    static_cast<int>(item_count + 1), stream));
  DeviceBuffer<unsigned char> scan_temp(std::max<std::size_t>(scan_bytes, 1));
  SUBSCALE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), scan_bytes, counts.data(), item_offsets.data(),
                                                    static_cast<int>(item_count + 1), stream));
  std::vector<unsigned long long> host_item_offsets(std::size_t{item_count} + 1);
  SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(host_item_offsets.data(), item_offsets.data(), item_offsets.bytes(),
                                      cudaMemcpyDeviceToHost, stream));
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::uint64_t total = host_item_offsets.back();
  timings.output_pairs = total;
  timings.probe_seconds = seconds_since(start);
  if (sink.on_total) sink.on_total(total);
  if (total == 0) return;

  const std::uint64_t capacity = output_batch_pairs(memory, settings.memory_budget_bytes, total);
  const std::vector<std::uint64_t> offsets64(host_item_offsets.begin(), host_item_offsets.end());
  const auto batches = split_into_batches(offsets64, capacity);
  DeviceBuffer<std::uint32_t> out_r(capacity), out_s(capacity);
  start = Clock::now();
  PairDownloader downloader(capacity);
  cudaEvent_t written{};
  SUBSCALE_CUDA_CHECK(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
  timings.transfer_out_seconds += seconds_since(start);
  try {
    for (const auto& [first, last] : batches) {
      start = Clock::now();
      const std::uint64_t base = offsets64[first];
      const std::uint64_t size = offsets64[last] - base;
      probe_kernel<true><<<static_cast<std::uint32_t>(last - first), kProbeThreads, 0, stream>>>(
          inputs, first, nullptr, item_offsets.data(), base, out_r.data(), out_s.data());
      SUBSCALE_CUDA_CHECK_LAUNCH(probe_kernel);
      SUBSCALE_CUDA_CHECK(cudaEventRecord(written, stream));
      SUBSCALE_CUDA_CHECK(cudaEventSynchronize(written));
      timings.probe_seconds += seconds_since(start);
      start = Clock::now();
      // The next batch's probe overwrites out_r and out_s, so each batch is downloaded before it.
      downloader.download(out_r.data(), out_s.data(), size, written, sink);
      timings.transfer_out_seconds += seconds_since(start);
      ++timings.output_batches;
    }
  } catch (...) {
    cudaEventDestroy(written);
    throw;
  }
  cudaEventDestroy(written);
}

}  // namespace subscale::join
