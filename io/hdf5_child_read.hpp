#pragma once
// libhdf5 1.10 crashes or overflows its heap on some damaged files (found by fuzzing; the library
// cannot be fixed here). So the readers of outside HDF5 files run the library in a child process:
// the child opens, validates and reads the file and sends what it read through a pipe; this
// process never calls HDF5 for that file. A child that dies (a signal, or a sanitizer that ends
// it) becomes an InputError that names the file; the project's own errors in the child (a missing
// dataset, a wrong shape) come back with their exit code and message.
//
// The child is a fork() of this process, made when no other thread of the process calls HDF5 (the
// library is serial; the project calls it from one thread at a time) and the child uses neither
// TBB nor the GPU: it only runs the reader and _exit()s, so threads of the parent that the child
// does not have are never waited for. The readers run between parallel stages, when no other
// thread holds a lock the child needs (the allocator's included: its workers are idle).
// SUBSCALE_HDF5_IN_PROCESS=1 reads in this process instead, for users who trust their files (no
// fork, no pipe).
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace subscale::io {

// False when the environment variable SUBSCALE_HDF5_IN_PROCESS is 1 (or yes/true/on).
bool hdf5_reads_in_child();

// The child's end of the pipe: buffered, so that many small values cost few system calls.
class ChildStreamWriter {
 public:
  explicit ChildStreamWriter(int fd) : fd_(fd) {}
  ChildStreamWriter(const ChildStreamWriter&) = delete;
  ChildStreamWriter& operator=(const ChildStreamWriter&) = delete;

  void write(const void* data, std::size_t bytes);
  void flush();

  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    write(&value, sizeof value);
  }
  template <class T>
  void put_vector(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(values.size());
    write(values.data(), values.size() * sizeof(T));
  }
  void put_string(const std::string& text);

 private:
  int fd_;
  std::vector<char> buffer_;
};

// The parent's end. Every read either gets all the bytes it asks for or throws (the child ended
// early: it failed or crashed, and read_in_child() says which). While it waits for the child it
// calls `watch` about every 100 ms, which may throw to stop the wait (read_in_child's memory bound).
class ChildStreamReader {
 public:
  explicit ChildStreamReader(int fd, std::function<void()> watch = {}) : fd_(fd), watch_(std::move(watch)) {}
  ChildStreamReader(const ChildStreamReader&) = delete;
  ChildStreamReader& operator=(const ChildStreamReader&) = delete;

  void read(void* data, std::size_t bytes);

  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    read(&value, sizeof value);
    return value;
  }
  // A vector whose length the child sent; the length is checked against the memory available
  // before anything is allocated (a child whose memory the library corrupted may send anything).
  template <class T>
  std::vector<T> get_vector() {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> values(checked_length(get<std::uint64_t>(), sizeof(T)));
    read(values.data(), values.size() * sizeof(T));
    return values;
  }
  std::string get_string();
  // True when the child sent nothing more than the reader took; waits for the child to close its
  // end of the pipe.
  bool at_end();

 private:
  std::size_t checked_length(std::uint64_t count, std::size_t element_bytes);
  std::size_t read_some(char* data, std::size_t bytes);
  int fd_;
  std::function<void()> watch_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
};

// Runs `produce` in a child process and `consume` here, on the two ends of a pipe. Returns when
// `consume` has taken everything and the child has ended normally. Throws:
//   - the Error `produce` threw (same exit code and message), or `consume`'s own errors;
//   - InputError "PATH: the HDF5 library crashed reading the file ..." when the child died or
//     stopped before it sent everything; ResourceError when it was killed with SIGKILL (from
//     outside: the kernel's out-of-memory killer, a job's limit);
//   - ResourceError when the child's memory grows beyond what was available when it started, or
//     its CPU time beyond child_cpu_bound() (libhdf5 can allocate or loop without end on a
//     damaged file); the child is stopped first;
//   - ResourceError when no child process can be started (it names SUBSCALE_HDF5_IN_PROCESS).
void read_in_child(const std::string& path, const std::function<void(ChildStreamWriter&)>& produce,
                   const std::function<void(ChildStreamReader&)>& consume);

// The bound read_in_child() puts on the child's growth: the memory available when it starts, but
// never less than 1 GiB, which the library and a sanitizer's own bookkeeping may need on any file.
std::uint64_t child_memory_bound();

// The CPU time read_in_child() gives the child: 60 s, and 1 s more per MiB of the file (reading
// takes a small part of that; libhdf5 can loop without end on a damaged file).
double child_cpu_bound(const std::string& path);

struct ChildLimits {
  std::uint64_t memory_bytes = 0;  // growth of its resident memory since it started
  double cpu_seconds = 0;          // CPU time, user and system
};

// read_in_child() with the limits given: the child is stopped once it goes beyond either.
void read_in_child(const std::string& path, const std::function<void(ChildStreamWriter&)>& produce,
                   const std::function<void(ChildStreamReader&)>& consume, const ChildLimits& limits);

// The common case: a reader whose result is sent whole. `read` runs in the child (or here, when
// hdf5_reads_in_child() is false); `send` and `receive` carry its result across.
template <class Result>
Result read_hdf5_in_child(const std::string& path, const std::function<Result()>& read,
                          const std::function<void(ChildStreamWriter&, const Result&)>& send,
                          const std::function<Result(ChildStreamReader&)>& receive) {
  if (!hdf5_reads_in_child()) return read();
  Result result{};
  read_in_child(
      path, [&](ChildStreamWriter& out) { send(out, read()); }, [&](ChildStreamReader& in) { result = receive(in); });
  return result;
}

}  // namespace subscale::io
