#pragma once
// What every fuzz target shares: the input as text or as a file, and the rule that a parser may
// refuse its input only with the project's own errors (subscale::Error, which carries an exit
// code). Any other exception escapes the target, and libFuzzer reports it as a crash, since the
// command line would end with an unhelpful message and exit 1.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "common/error.hpp"

namespace subscale::fuzz {

inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Runs `parse`; the project's errors are an accepted answer to bad input.
template <class Parse>
void parse_or_refuse(Parse&& parse) {
  try {
    parse();
  } catch (const subscale::Error&) {
  }
}

// The HDF5 readers take a path, so the input is written to one file per process (in /dev/shm
// when there is one: no disk traffic) that is rewritten for every input.
class InputFile {
 public:
  explicit InputFile(const std::string& extension) {
    const std::filesystem::path folder = std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp";
    path_ = (folder / ("subscale-fuzz-" + std::to_string(::getpid()) + extension)).string();
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path_;
  }

 private:
  std::string path_;
};

// A fuzzed file may claim a dataset of any size; the readers refuse what does not fit in memory.
// 1 GiB here keeps that refusal below libFuzzer's own 2 GiB allocation limit, so a claimed size
// the readers would accept never reaches the allocator.
inline void limit_memory_for_fuzzing() { setenv("SUBSCALE_AVAILABLE_MEMORY", "1073741824", 1); }

// The HDF5 targets read in this process (SUBSCALE_HDF5_IN_PROCESS=1 unless the environment sets
// it): libFuzzer sees coverage and crashes only there, and a child process per input would cost a
// fork each. So a crash inside libhdf5 still ends a fuzzing run; scripts/fuzz then replays that
// input with SUBSCALE_HDF5_IN_PROCESS=0, the product's way (the library in a child process), and
// fails unless the product answers it with a clean error.
inline void read_hdf5_in_this_process() { setenv("SUBSCALE_HDF5_IN_PROCESS", "1", 0); }

}  // namespace subscale::fuzz
