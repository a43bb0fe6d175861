// Every damaged file on which libhdf5 1.10 itself crashed under the fuzzer (fuzz/libhdf5_crashes/,
// named <fuzz target>-<what the library did>.h5), read by the product's reader for that target. The
// library runs in a child process (io/hdf5_child_read.hpp), so each must end in an InputError
// (exit 3) that names the file, whether the child crashed, a sanitizer ended it, the library
// happened to report an error in this build, or the reader refused what the library returned;
// never a crash of this process, and never a table. The heap-overflow files fill the 'columns'
// attribute from libhdf5's own heap, so what comes back depends on memory layout: the reader's
// checks must refuse every such text (an empty one included), not only the likely ones. On one
// file the library allocates without end: the child is stopped at its memory bound (1 GiB here,
// the least it is given), a ResourceError (exit 4) that names the file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "common/error.hpp"
#include "io/hdf5_dataset_reader.hpp"
#include "pipeline/steps/join_table_reader.hpp"
#include "stages/filter/table_hdf5.hpp"
#include "tests/source_root.hpp"

namespace subscale {
namespace {

// Each fuzz target's reader, called as the target calls it.
const std::map<std::string, std::function<void(const std::string&)>>& readers() {
  static const std::map<std::string, std::function<void(const std::string&)>> by_target = {
      {"hdf5_dataset", [](const std::string& path) { io::read_hdf5_dataset(path); }},
      {"filter_table",
       [](const std::string& path) {
         const filter::TableSource source{.path = path, .group = "/table"};
         filter::column_names(source);
         filter::read_column_table(source);
       }},
      {"join_table",
       [](const std::string& path) {
         pipeline::read_join_table({.path = path,
                                    .key_dataset = "/ids",
                                    .data_dataset = "/data",
                                    .path_setting = "join.path",
                                    .key_setting = "join.ids",
                                    .data_setting = "join.dataset",
                                    .for_clustering = true,
                                    .column_prefix = "t."});
       }},
  };
  return by_target;
}

// Sets SUBSCALE_AVAILABLE_MEMORY for one test.
class AvailableMemory {
 public:
  explicit AvailableMemory(const char* value) { setenv("SUBSCALE_AVAILABLE_MEMORY", value, 1); }
  AvailableMemory(const AvailableMemory&) = delete;
  AvailableMemory& operator=(const AvailableMemory&) = delete;
  ~AvailableMemory() { unsetenv("SUBSCALE_AVAILABLE_MEMORY"); }
};

TEST(Libhdf5Crashes, EachEndsInACleanErrorNamingTheFile) {
  const AvailableMemory least_bound("1G");
  std::size_t files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(subscale::testing::source_root() / "fuzz" / "libhdf5_crashes")) {
    const std::string path = entry.path().string();
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(path);
    const auto reader = readers().find(name.substr(0, name.find('-')));
    ASSERT_NE(reader, readers().end()) << "no reader for the fuzz target named in " << name;
    try {
      reader->second(path);
      ADD_FAILURE() << "the damaged file was read without an error";
    } catch (const Error& error) {
      const bool stopped_for_memory = std::string(error.what()).find("took more than 1.0 GiB") != std::string::npos;
      EXPECT_EQ(error.code(), stopped_for_memory ? ExitCode::resource : ExitCode::input) << error.what();
      EXPECT_EQ(stopped_for_memory, name.find("allocation_without_end") != std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
    }
    ++files;
  }
  EXPECT_GE(files, 3u);
}

}  // namespace
}  // namespace subscale
