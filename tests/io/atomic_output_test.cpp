// A file written block by block appears whole or not at all: the blocks in order when the
// producer finishes, and neither the file nor its temporary when the producer fails part way.
#include "io/atomic_output.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/error.hpp"

namespace subscale::io {
namespace {

std::filesystem::path fresh_folder() {
  const auto folder = std::filesystem::temp_directory_path() / ("subscale-atomic-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

TEST(WriteTextFileInBlocks, WritesTheBlocksInOrder) {
  const auto folder = fresh_folder();
  write_text_file_in_blocks(folder / "out.txt", [](const BlockSink& sink) {
    for (int i = 0; i < 1000; ++i) sink(std::to_string(i) + "\n");
  });
  std::ostringstream expected, got;
  for (int i = 0; i < 1000; ++i) expected << i << "\n";
  got << std::ifstream(folder / "out.txt").rdbuf();
  EXPECT_EQ(got.str(), expected.str());
  std::filesystem::remove_all(folder);
}

TEST(WriteTextFileInBlocks, AFailedProducerLeavesNothing) {
  const auto folder = fresh_folder();
  EXPECT_THROW(write_text_file_in_blocks(folder / "out.txt",
                                         [](const BlockSink& sink) {
                                           sink("first block\n");
                                           throw std::runtime_error("formatting failed");
                                         }),
               std::runtime_error);
  EXPECT_TRUE(std::filesystem::is_empty(folder)) << "a half-written file or its temporary was left behind";
  // A folder that does not exist: a clear error, nothing written.
  EXPECT_THROW(write_text_file_in_blocks(folder / "missing" / "out.txt", [](const BlockSink& sink) { sink("x"); }),
               Error);
  std::filesystem::remove_all(folder);
}

TEST(AtomicOutput, APlantedLinkAtThePredictableTemporaryNameIsNotFollowed) {
  // Regression: the temporary was FINAL.tmp-<pid>, opened without O_EXCL or O_NOFOLLOW, so
  // a link planted there made the writer overwrite the file it pointed to, outside the folder.
  const auto folder = fresh_folder();
  const auto outside = folder.parent_path() / ("subscale-atomic-victim-" + std::to_string(::getpid()));
  std::ofstream(outside) << "the user's file\n";
  std::filesystem::create_directories(folder / "run");
  const auto final_path = folder / "run" / "summary.json";
  std::filesystem::create_symlink(outside, folder / "run" / ("summary.json.tmp-" + std::to_string(::getpid())));
  write_text_file(final_path, "{}\n");
  std::ostringstream victim, written;
  victim << std::ifstream(outside).rdbuf();
  written << std::ifstream(final_path).rdbuf();
  EXPECT_EQ(victim.str(), "the user's file\n");
  EXPECT_EQ(written.str(), "{}\n");
  EXPECT_FALSE(std::filesystem::is_symlink(final_path));
  std::filesystem::remove(outside);
  std::filesystem::remove_all(folder);
}

TEST(AtomicOutput, TheTemporaryIsCreatedExclusivelyBesideTheFinalFile) {
  const auto folder = fresh_folder();
  {
    AtomicOutput first(folder / "a.txt");
    AtomicOutput second(folder / "a.txt");
    EXPECT_NE(first.temporary_path(), second.temporary_path());
    for (const AtomicOutput* output : {&first, &second}) {
      EXPECT_EQ(output->temporary_path().parent_path(), folder);
      EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::symlink_status(output->temporary_path())));
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(folder)) << "an uncommitted temporary was left behind";
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace subscale::io
