#include "distributed/communicator.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "common/error.hpp"
#include "common/page_population.hpp"

#ifdef SUBSCALE_WITH_MPI
#include <mpi.h>
#endif

namespace subscale::distributed {
namespace {

// An error every process holds after agree().
struct AgreedError : Error {
  AgreedError(ExitCode code, const std::string& message) : Error(code, message) {}
};

// The exit code and message of a failure, as the command line would report them.
std::pair<ExitCode, std::string> describe(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& error) {
    return {error.code(), error.what()};
  } catch (const std::bad_alloc&) {
    return {ExitCode::resource, "out of host memory"};
  } catch (const std::exception& error) {
    return {ExitCode::other, error.what()};
  }
  return {ExitCode::other, "unknown error"};
}

Bytes encode_failure(std::exception_ptr failure, int rank, int size) {
  auto [code, message] = describe(failure);
  if (size > 1) message = "process " + std::to_string(rank) + " of " + std::to_string(size) + ": " + message;
  Bytes bytes(sizeof(int) + message.size());
  const int value = static_cast<int>(code);
  std::memcpy(bytes.data(), &value, sizeof value);
  std::memcpy(bytes.data() + sizeof value, message.data(), message.size());
  return bytes;
}

[[noreturn]] void throw_decoded(const Bytes& bytes) {
  int code = 1;
  std::memcpy(&code, bytes.data(), sizeof code);
  throw AgreedError(static_cast<ExitCode>(code),
                    std::string(reinterpret_cast<const char*>(bytes.data()) + sizeof code, bytes.size() - sizeof code));
}

#ifdef SUBSCALE_WITH_MPI
// MPI counts are ints: large buffers travel in pieces of at most 1 GiB.
constexpr std::uint64_t kPiece = std::uint64_t{1} << 30;

bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

void post_sends(const Bytes& bytes, int to, std::vector<MPI_Request>& requests) {
  for (std::uint64_t at = 0, piece = 0; at < bytes.size(); at += kPiece, ++piece) {
    requests.emplace_back();
    MPI_Isend(bytes.data() + at, static_cast<int>(std::min<std::uint64_t>(kPiece, bytes.size() - at)), MPI_BYTE, to,
              static_cast<int>(piece), MPI_COMM_WORLD, &requests.back());
  }
}

void post_receives(Bytes& bytes, int from, std::vector<MPI_Request>& requests) {
  for (std::uint64_t at = 0, piece = 0; at < bytes.size(); at += kPiece, ++piece) {
    requests.emplace_back();
    MPI_Irecv(bytes.data() + at, static_cast<int>(std::min<std::uint64_t>(kPiece, bytes.size() - at)), MPI_BYTE, from,
              static_cast<int>(piece), MPI_COMM_WORLD, &requests.back());
  }
}

void wait_all(std::vector<MPI_Request>& requests) {
  if (!requests.empty()) MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
}
#endif

}  // namespace

bool error_was_agreed(const std::exception& error) noexcept { return dynamic_cast<const AgreedError*>(&error); }

Communicator Communicator::world() {
  Communicator world;
#ifdef SUBSCALE_WITH_MPI
  if (!mpi_running()) return world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world.rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &world.local_rank_);
  MPI_Comm_size(node, &world.local_size_);
  MPI_Comm_free(&node);
#endif
  return world;
}

void Communicator::barrier() const {
#ifdef SUBSCALE_WITH_MPI
  if (size_ > 1) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

Bytes Communicator::broadcast(Bytes bytes, [[maybe_unused]] int root) const {
#ifdef SUBSCALE_WITH_MPI
  if (size_ == 1) return bytes;
  std::uint64_t size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
  bytes.resize(size);
  for (std::uint64_t at = 0; at < size; at += kPiece)
    MPI_Bcast(bytes.data() + at, static_cast<int>(std::min<std::uint64_t>(kPiece, size - at)), MPI_BYTE, root,
              MPI_COMM_WORLD);
#endif
  return bytes;
}

std::vector<Bytes> Communicator::all_to_all(std::vector<Bytes> to_each) const {
  if (to_each.size() != static_cast<std::size_t>(size_))
    throw Error(ExitCode::other, "all_to_all: " + std::to_string(to_each.size()) + " buffers for " +
                                     std::to_string(size_) + " processes");
  std::vector<Bytes> received(size_);
  received[rank_] = std::move(to_each[rank_]);
#ifdef SUBSCALE_WITH_MPI
  if (size_ == 1) return received;
  std::vector<std::uint64_t> send_sizes(size_), receive_sizes(size_);
  for (int r = 0; r < size_; ++r) send_sizes[r] = to_each[r].size();
  MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, receive_sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  std::vector<MPI_Request> requests;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    resize_populated(received[r], receive_sizes[r]);
    post_receives(received[r], r, requests);
  }
  for (int r = 0; r < size_; ++r)
    if (r != rank_) post_sends(to_each[r], r, requests);
  wait_all(requests);
#endif
  return received;
}

std::vector<Bytes> Communicator::gather(Bytes mine, [[maybe_unused]] int root) const {
  std::vector<Bytes> all;
#ifdef SUBSCALE_WITH_MPI
  if (size_ > 1) {
    std::uint64_t size = mine.size();
    std::vector<std::uint64_t> sizes(size_);
    MPI_Gather(&size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
    std::vector<MPI_Request> requests;
    if (rank_ == root) {
      all.resize(size_);
      for (int r = 0; r < size_; ++r) {
        if (r == root) continue;
        resize_populated(all[r], sizes[r]);
        post_receives(all[r], r, requests);
      }
      all[root] = std::move(mine);
    } else {
      post_sends(mine, root, requests);
    }
    wait_all(requests);
    return all;
  }
#endif
  all.push_back(std::move(mine));
  return all;
}

std::vector<Bytes> Communicator::all_gather(const Bytes& mine) const {
  std::vector<Bytes> all = gather(mine, 0);
  Bytes packed;
  if (rank_ == 0) {
    for (const Bytes& part : all) {
      const std::uint64_t size = part.size();
      packed.insert(packed.end(), reinterpret_cast<const std::uint8_t*>(&size),
                    reinterpret_cast<const std::uint8_t*>(&size) + sizeof size);
      packed.insert(packed.end(), part.begin(), part.end());
    }
  }
  packed = broadcast(std::move(packed), 0);
  all.assign(size_, {});
  std::size_t at = 0;
  for (int r = 0; r < size_; ++r) {
    std::uint64_t size = 0;
    std::memcpy(&size, packed.data() + at, sizeof size);
    at += sizeof size;
    all[r].assign(packed.begin() + static_cast<std::ptrdiff_t>(at),
                  packed.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
  }
  return all;
}

std::uint64_t Communicator::sum(std::uint64_t value) const {
#ifdef SUBSCALE_WITH_MPI
  if (size_ > 1) {
    std::uint64_t total = 0;
    MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return total;
  }
#endif
  return value;
}

double Communicator::max(double value) const {
#ifdef SUBSCALE_WITH_MPI
  if (size_ > 1) {
    double largest = 0;
    MPI_Allreduce(&value, &largest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return largest;
  }
#endif
  return value;
}

void Communicator::agree(std::exception_ptr failure) const {
  if (size_ == 1) {
    if (failure) std::rethrow_exception(failure);
    return;
  }
#ifdef SUBSCALE_WITH_MPI
  int mine = failure ? rank_ : size_, first = size_;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size_) return;
  throw_decoded(broadcast(first == rank_ ? encode_failure(failure, rank_, size_) : Bytes{}, first));
#else
  (void)encode_failure;
  (void)throw_decoded;
#endif
}

}  // namespace subscale::distributed
