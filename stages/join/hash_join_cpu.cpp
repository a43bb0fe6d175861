#include "stages/join/hash_join_cpu.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <vector>

#include "common/phase_timer.hpp"
#include "stages/join/chained_table.hpp"
#include "stages/join/join_memory.hpp"
#include "stages/join/probe_plan.hpp"
#include "stages/join/radix_partition.hpp"

namespace subscale::join {

namespace {

using Clock = std::chrono::steady_clock;

struct CpuTables {
  std::vector<std::uint32_t> heads;
  std::vector<std::uint32_t> next;
};

ChainedTableView view_of(const ProbeWorkItem& item, const PartitionedKeys& r, const CpuTables& tables, int total_bits) {
  ChainedTableView view;
  view.keys = r.keys.data() + item.r_begin;
  view.heads = tables.heads.data() + item.heads_base;
  view.next = tables.next.data() + item.next_base;
  view.total_bits = total_bits;
  view.bucket_bits = item.bucket_bits;
  return view;
}

}  // namespace

void hash_join_cpu(std::span<const std::uint64_t> r_keys, std::span<const std::uint64_t> s_keys,
                   const JoinSettings& settings, const PairSink& sink, JoinTimings& timings) {
  const JoinMemoryPlan memory = plan_join_memory(r_keys.size(), s_keys.size(), settings, Backend::cpu);
  require_fits(memory, r_keys.size(), s_keys.size(), settings.memory_budget_bytes, Backend::cpu);
  const int total_bits = settings.layout.total_bits();
  timings.partitions = settings.layout.partitions();

  auto start = Clock::now();
  const PartitionedKeys r = radix_partition_cpu(r_keys, settings.layout, settings.hash);
  const PartitionedKeys s = radix_partition_cpu(s_keys, settings.layout, settings.hash);
  timings.partition_seconds = seconds_since(start);

  start = Clock::now();
  // Every partition gets its table built once (fast_table_capacity 0): a CPU has no separate
  // fast memory to rebuild small tables in, and its caches keep a 1024-tuple table close anyway.
  const ProbePlan plan = make_probe_plan(r.offsets, s.offsets, settings.probe_chunk, 0);
  timings.work_items = plan.items.size();
  CpuTables tables{std::vector<std::uint32_t>(plan.heads_total, kEndOfChain),
                   std::vector<std::uint32_t>(plan.next_total)};
  tbb::parallel_for(std::size_t{0}, plan.tables.size(), [&](std::size_t t) {
    const TableToBuild& table = plan.tables[t];
    std::uint32_t* heads = tables.heads.data() + table.heads_base;
    std::uint32_t* next = tables.next.data() + table.next_base;
    for (std::uint32_t i = 0; i < table.r_end - table.r_begin; ++i) {
      const std::uint64_t hash = join_hash(r.keys[table.r_begin + i], settings.hash);
      std::uint32_t& head = heads[bucket_of(hash, total_bits, table.bucket_bits)];
      next[i] = head;
      head = i;
    }
  });

  std::vector<std::uint64_t> item_offsets(plan.items.size() + 1, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, plan.items.size()), [&](const auto& range) {
    for (std::size_t k = range.begin(); k < range.end(); ++k) {
      const ProbeWorkItem& item = plan.items[k];
      const ChainedTableView view = view_of(item, r, tables, total_bits);
      std::uint64_t count = 0;
      for (std::uint32_t j = item.s_begin; j < item.s_end; ++j)
        count += probe_chain(view, s.keys[j], join_hash(s.keys[j], settings.hash), [](std::uint32_t) {});
      item_offsets[k + 1] = count;
    }
  });
  for (std::size_t k = 0; k < plan.items.size(); ++k) item_offsets[k + 1] += item_offsets[k];
  const std::uint64_t total = item_offsets.back();
  timings.output_pairs = total;
  timings.probe_seconds = seconds_since(start);
  if (sink.on_total) sink.on_total(total);
  if (total == 0) return;

  const std::uint64_t capacity = output_batch_pairs(memory, settings.memory_budget_bytes, total);
  const auto batches = split_into_batches(item_offsets, capacity);
  std::vector<std::uint32_t> out_r(capacity), out_s(capacity);
  for (const auto& [first, last] : batches) {
    start = Clock::now();
    const std::uint64_t base = item_offsets[first];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(first, last), [&](const auto& range) {
      for (std::size_t k = range.begin(); k < range.end(); ++k) {
        const ProbeWorkItem& item = plan.items[k];
        const ChainedTableView view = view_of(item, r, tables, total_bits);
        std::uint64_t position = item_offsets[k] - base;
        for (std::uint32_t j = item.s_begin; j < item.s_end; ++j) {
          const std::uint32_t s_row = s.rows[j];
          probe_chain(view, s.keys[j], join_hash(s.keys[j], settings.hash), [&](std::uint32_t i) {
            out_r[position] = r.rows[item.r_begin + i];
            out_s[position] = s_row;
            ++position;
          });
        }
      }
    });
    timings.probe_seconds += seconds_since(start);
    start = Clock::now();
    const std::size_t size = item_offsets[last] - base;
    if (sink.on_batch) sink.on_batch({out_r.data(), size}, {out_s.data(), size});
    timings.transfer_out_seconds += seconds_since(start);
    ++timings.output_batches;
  }
}

}  // namespace subscale::join
