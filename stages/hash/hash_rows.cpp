#include "stages/hash/hash_rows.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <string>
#include <type_traits>

#include "gpu/device_info.hpp"
#include "stages/hash/hash_rows_cuda.hpp"

namespace subscale::hash {

void check_hash_arguments(const HashSpec& spec, const RowTableView& table, std::size_t out_size) {
  if (table.row_words < 1)
    throw UsageError("hash: a row must have at least one 32-bit word, got row_words = " +
                     std::to_string(table.row_words));
  if (spec.rounds < 1) throw UsageError("hash: rounds must be >= 1, got " + std::to_string(spec.rounds));
  if (table.rows > 0 && table.words == nullptr) throw UsageError("hash: the table has rows but no data");
  if (out_size != table.rows)
    throw UsageError("hash: the output holds " + std::to_string(out_size) + " hashes but the table has " +
                     std::to_string(table.rows) + " rows");
}

namespace {

// Rows hashed with a compile-time function F and width K (K = 0: the width known only at run
// time). Fixing K lets the compiler unroll the word loop and keep the row in registers.
template <HashFunction F, int K, class H>
void hash_block(const RowTableView& table, std::span<H> out, int rounds, std::size_t begin, std::size_t end) {
  const int k = K > 0 ? K : table.row_words;
  for (std::size_t r = begin; r < end; ++r) out[r] = hash_words<F, H>(table.row(r), k, rounds);
}

template <HashFunction F, class H>
void hash_range(const RowTableView& table, std::span<H> out, int rounds, std::size_t begin, std::size_t end) {
  switch (table.row_words) {
    case 1:
      return hash_block<F, 1>(table, out, rounds, begin, end);
    case 2:
      return hash_block<F, 2>(table, out, rounds, begin, end);
    case 4:
      return hash_block<F, 4>(table, out, rounds, begin, end);
    case 8:
      return hash_block<F, 8>(table, out, rounds, begin, end);
    case 16:
      return hash_block<F, 16>(table, out, rounds, begin, end);
    default:
      return hash_block<F, 0>(table, out, rounds, begin, end);
  }
}

}  // namespace

template <class H>
void hash_rows_cpu(const HashSpec& spec, const RowTableView& table, std::span<H> out) {
  check_hash_arguments(spec, table, out.size());
  // Blocks of a few thousand rows: large enough that scheduling costs nothing next to hashing.
  constexpr std::size_t kGrain = 4096;
  with_hash_function(spec.function, [&](auto id) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, table.rows, kGrain), [&](const auto& range) {
      hash_range<decltype(id)::value, H>(table, out, spec.rounds, range.begin(), range.end());
    });
  });
}

template <class H>
void hash_rows(const HashSpec& spec, const RowTableView& table, std::span<H> out, Backend backend,
               const gpu::ExecutionContext& context) {
  if (backend == Backend::cpu) return hash_rows_cpu(spec, table, out);
  if (!gpu::cuda_backend_built())
    throw ResourceError(
        "hash: backend 'cuda' was asked for, but this build has no CUDA backend; use the cpu backend "
        "(hash.backend=cpu)");
  const auto device = gpu::query_device();
  if (!device.available)
    throw ResourceError("hash: backend 'cuda' was asked for, but no CUDA device is usable (" + device.reason +
                        "); use the cpu backend (hash.backend=cpu)");
  check_hash_arguments(spec, table, out.size());
  hash_rows_cuda(spec, table, out, context);
}

template void hash_rows_cpu<std::uint32_t>(const HashSpec&, const RowTableView&, std::span<std::uint32_t>);
template void hash_rows_cpu<std::uint64_t>(const HashSpec&, const RowTableView&, std::span<std::uint64_t>);
template void hash_rows<std::uint32_t>(const HashSpec&, const RowTableView&, std::span<std::uint32_t>, Backend,
                                       const gpu::ExecutionContext&);
template void hash_rows<std::uint64_t>(const HashSpec&, const RowTableView&, std::span<std::uint64_t>, Backend,
                                       const gpu::ExecutionContext&);

}  // namespace subscale::hash
