// Reading HDF5 in a child process (io/hdf5_child_read.hpp): what the child sends arrives whole,
// its errors come back with their exit code, and a child that dies (a signal, or a sanitizer's
// exit) is a clear InputError naming the file, never a crash of this process. The dataset reader
// gives the same Dataset through the child as in this process.
#include "io/hdf5_child_read.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>

#include "io/hdf5_dataset_reader.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

// Sets SUBSCALE_HDF5_IN_PROCESS for one test.
class InProcessSetting {
 public:
  explicit InProcessSetting(const char* value) { setenv("SUBSCALE_HDF5_IN_PROCESS", value, 1); }
  ~InProcessSetting() { unsetenv("SUBSCALE_HDF5_IN_PROCESS"); }
};

TEST(Hdf5ChildRead, ValuesOfEveryKindArriveWhole) {
  std::vector<double> large(300'000);  // larger than the pipe's buffer and the reader's
  for (std::size_t i = 0; i < large.size(); ++i) large[i] = static_cast<double>(i) * 0.5;
  std::vector<double> got;
  std::string text;
  std::uint32_t small = 0;
  read_in_child(
      "file.h5",
      [&](ChildStreamWriter& out) {
        out.put<std::uint32_t>(7);
        out.put_string("columns a,b");
        out.put_vector(large);
      },
      [&](ChildStreamReader& in) {
        small = in.get<std::uint32_t>();
        text = in.get_string();
        got = in.get_vector<double>();
      });
  EXPECT_EQ(small, 7u);
  EXPECT_EQ(text, "columns a,b");
  EXPECT_EQ(got, large);
}

TEST(Hdf5ChildRead, ReadsInAnotherProcessUnlessTheUserOptsOut) {
  const auto pid_of_reader = [] {
    return read_hdf5_in_child<std::int64_t>(
        "file.h5", [] { return static_cast<std::int64_t>(::getpid()); },
        [](ChildStreamWriter& out, const std::int64_t& pid) { out.put(pid); },
        [](ChildStreamReader& in) { return in.get<std::int64_t>(); });
  };
  EXPECT_TRUE(hdf5_reads_in_child());
  EXPECT_NE(pid_of_reader(), static_cast<std::int64_t>(::getpid()));
  const InProcessSetting trusted("1");
  EXPECT_FALSE(hdf5_reads_in_child());
  EXPECT_EQ(pid_of_reader(), static_cast<std::int64_t>(::getpid()));
}

TEST(Hdf5ChildRead, ChildKilledByASignalIsAnInputErrorNamingTheFile) {
  const std::string message = input_error_message([] {
    read_in_child(
        "/data/damaged.h5",
        [](ChildStreamWriter& out) {
          out.put<std::uint64_t>(1);
          out.flush();
          std::signal(SIGSEGV, SIG_DFL);  // no sanitizer's report: just the signal, as in a release build
          std::raise(SIGSEGV);
        },
        [](ChildStreamReader& in) {
          in.get<std::uint64_t>();
          in.get<std::uint64_t>();
        });
  });
  EXPECT_THAT(message, AllOf(HasSubstr("/data/damaged.h5: the HDF5 library crashed reading the file"),
                             HasSubstr("signal 11"), HasSubstr("the file is damaged")));
}

TEST(Hdf5ChildRead, ChildEndedByASanitizerIsAnInputError) {
  // AddressSanitizer ends a process with status 1 after its report, without a signal.
  const std::string message = input_error_message([] {
    read_in_child(
        "x.h5", [](ChildStreamWriter&) { ::_exit(1); }, [](ChildStreamReader&) {});
  });
  EXPECT_THAT(message, AllOf(HasSubstr("x.h5: the HDF5 library crashed"), HasSubstr("status 1")));
}

TEST(Hdf5ChildRead, ChildKilledFromOutsideIsAResourceError) {
  // SIGKILL is what the kernel sends when memory runs out: not a damaged file.
  try {
    read_in_child(
        "x.h5", [](ChildStreamWriter&) { std::raise(SIGKILL); }, [](ChildStreamReader&) {});
    FAIL() << "nothing thrown";
  } catch (const ResourceError& error) {
    EXPECT_THAT(error.what(),
                AllOf(HasSubstr("x.h5: the process reading the HDF5 file was killed"), HasSubstr("memory runs out")));
  }
}

TEST(Hdf5ChildRead, ChildWhoseMemoryGrowsWithoutEndIsStoppedWithAResourceError) {
  // As libhdf5 does on some damaged files: it allocates and never sends anything. The child gives
  // up at 2 GiB, so a bound that is never enforced fails the test instead of hanging it.
  constexpr std::size_t kBlock = std::size_t{8} << 20;
  try {
    read_in_child(
        "x.h5",
        [](ChildStreamWriter&) {
          for (int i = 0; i < 256; ++i) {
            char* block = static_cast<char*>(std::malloc(kBlock));
            if (block) std::memset(block, 1, kBlock);
            ::usleep(5000);
          }
        },
        [](ChildStreamReader& in) { in.get<std::uint64_t>(); }, ChildLimits{std::uint64_t{64} << 20, 600});
    FAIL() << "nothing thrown";
  } catch (const ResourceError& error) {
    EXPECT_THAT(error.what(), AllOf(HasSubstr("x.h5: the process reading the HDF5 file took more than 64.0 MiB"),
                                    HasSubstr("was stopped")));
  }
}

TEST(Hdf5ChildRead, ChildThatComputesWithoutEndIsStoppedWithAResourceError) {
  // As libhdf5 can on a damaged file: it loops and never sends anything. The child gives up after
  // 30 s of wall time, so a bound that is never enforced fails the test instead of hanging it.
  try {
    read_in_child(
        "x.h5",
        [](ChildStreamWriter&) {
          const auto start = std::chrono::steady_clock::now();
          volatile std::uint64_t spin = 0;
          while (std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) spin = spin + 1;
        },
        [](ChildStreamReader& in) { in.get<std::uint64_t>(); }, ChildLimits{std::uint64_t{1} << 30, 0.3});
    FAIL() << "nothing thrown";
  } catch (const ResourceError& error) {
    EXPECT_THAT(error.what(), AllOf(HasSubstr("x.h5: the process reading the HDF5 file used more than 0.3 s of CPU"),
                                    HasSubstr("was stopped"), HasSubstr("SUBSCALE_HDF5_IN_PROCESS=1")));
  }
}

TEST(Hdf5ChildRead, TheChildGetsAMinuteAndASecondPerMebibyteOfTheFile) {
  const TempDir dir;
  EXPECT_DOUBLE_EQ(child_cpu_bound(dir.write("x.h5", std::string(std::size_t{3} << 20, 'x'))), 63.0);
  EXPECT_DOUBLE_EQ(child_cpu_bound(dir.file("missing.h5")), 60.0);  // no such file: the minute alone
}

TEST(Hdf5ChildRead, TheChildMayUseAtLeastOneGibibyte) { EXPECT_GE(child_memory_bound(), std::uint64_t{1} << 30); }

TEST(Hdf5ChildRead, ChildThatSendsTooLittleIsAnInputError) {
  const std::string message = input_error_message([] {
    read_in_child(
        "x.h5", [](ChildStreamWriter& out) { out.put<std::uint32_t>(1); },
        [](ChildStreamReader& in) { in.get<std::uint64_t>(); });
  });
  EXPECT_THAT(message, HasSubstr("stopped before it had sent the whole file"));
}

TEST(Hdf5ChildRead, ChildThatSendsTooMuchIsAnInputError) {
  const std::string message = input_error_message([] {
    read_in_child(
        "x.h5", [](ChildStreamWriter& out) { out.put<std::uint64_t>(1); },
        [](ChildStreamReader& in) { in.get<std::uint32_t>(); });
  });
  EXPECT_THAT(message, AllOf(HasSubstr("x.h5: "), HasSubstr("sent more than was asked for")));
}

TEST(Hdf5ChildRead, ErrorsOfTheChildKeepTheirExitCodeAndMessage) {
  try {
    read_in_child(
        "x.h5", [](ChildStreamWriter&) { throw ResourceError("x.h5: needs 1.0 TiB"); },
        [](ChildStreamReader& in) { in.get<std::uint64_t>(); });
    FAIL() << "nothing thrown";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::resource);
    EXPECT_STREQ(error.what(), "x.h5: needs 1.0 TiB");
  }
  const std::string message = input_error_message([] {
    read_in_child(
        "x.h5", [](ChildStreamWriter&) { throw InputError("x.h5: no dataset at '/data'"); }, [](ChildStreamReader&) {});
  });
  EXPECT_EQ(message, "x.h5: no dataset at '/data'");
}

TEST(Hdf5ChildRead, AnErrorOfTheReceiverStopsTheChild) {
  // The child would write forever; the receiver's error ends it and leaves no process behind.
  EXPECT_THROW(read_in_child(
                   "x.h5",
                   [](ChildStreamWriter& out) {
                     for (;;) out.put<std::uint64_t>(0);
                   },
                   [](ChildStreamReader& in) {
                     in.get<std::uint64_t>();
                     throw InputError("refused");
                   }),
               InputError);
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1) << "a child was left behind";
}

TEST(Hdf5ChildRead, DatasetThroughTheChildEqualsTheDatasetReadHere) {
  const TempDir dir;
  Dataset written;
  constexpr Eigen::Index kPoints = 70'000, kDimensions = 16;  // several blocks on both sides
  written.values.resize(kPoints, kDimensions);
  for (Eigen::Index i = 0; i < kPoints; ++i)
    for (Eigen::Index j = 0; j < kDimensions; ++j) written.values(i, j) = static_cast<double>(i * 31 + j) / 7.0;
  for (Eigen::Index i = 0; i < kPoints; ++i) {
    written.ids.push_back(static_cast<std::uint64_t>(1000 + i));
    written.labels.push_back(i % 5 - 1);
  }
  const std::string path = dir.file("data.h5");
  write_hdf5_dataset(written, path);
  const Dataset in_child = read_hdf5_dataset(path);
  Dataset in_process;
  {
    const InProcessSetting trusted("1");
    in_process = read_hdf5_dataset(path);
  }
  EXPECT_TRUE(in_child.values == written.values);
  EXPECT_TRUE(in_process.values == written.values);
  EXPECT_EQ(in_child.ids, written.ids);
  EXPECT_EQ(in_child.labels, written.labels);
  EXPECT_EQ(in_child.source, path);
}

TEST(Hdf5ChildRead, ReaderErrorsComeBackFromTheChildUnchanged) {
  const TempDir dir;
  const std::string missing = dir.file("missing.h5");
  const std::string in_child = input_error_message([&] { read_hdf5_dataset(missing); });
  std::string in_process;
  {
    const InProcessSetting trusted("1");
    in_process = input_error_message([&] { read_hdf5_dataset(missing); });
  }
  EXPECT_EQ(in_child, in_process);
  EXPECT_THAT(in_child, HasSubstr(missing));
}

}  // namespace
}  // namespace subscale::io
