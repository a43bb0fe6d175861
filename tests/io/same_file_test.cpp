// Two paths are one file whatever their spelling (relative, "./", "..", links to the file or to its
// folder, hard links), and a path that does not exist yet is one file with another only when both
// name the same place.
#include "io/same_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace subscale::io {
namespace {

namespace fs = std::filesystem;

class SameFile : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("subscale-same-file-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder_);
    fs::create_directories(folder_ / "data");
    std::ofstream(folder_ / "data" / "t.h5") << "table";
    std::ofstream(folder_ / "data" / "other.h5") << "other";
  }
  void TearDown() override { fs::remove_all(folder_); }
  fs::path folder_;
};

TEST_F(SameFile, SpellingsOfOneExistingFileAreOneFile) {
  const fs::path table = folder_ / "data" / "t.h5";
  EXPECT_TRUE(same_file(table, table));
  EXPECT_TRUE(same_file(table, folder_ / "data" / "." / "t.h5"));
  EXPECT_TRUE(same_file(table, folder_ / "data" / ".." / "data" / "t.h5"));
  EXPECT_FALSE(same_file(table, folder_ / "data" / "other.h5"));
  const fs::path before = fs::current_path();
  fs::current_path(folder_ / "data");
  EXPECT_TRUE(same_file("t.h5", table));
  EXPECT_TRUE(same_file("./t.h5", table));
  fs::current_path(before);
}

TEST_F(SameFile, LinksToTheFileOrItsFolderAndHardLinksAreTheFile) {
  const fs::path table = folder_ / "data" / "t.h5";
  fs::create_symlink(table, folder_ / "link.h5");
  fs::create_directory_symlink(folder_ / "data", folder_ / "linked");
  fs::create_hard_link(table, folder_ / "hard.h5");
  EXPECT_TRUE(same_file(folder_ / "link.h5", table));
  EXPECT_TRUE(same_file(folder_ / "linked" / "t.h5", table));
  EXPECT_TRUE(same_file(folder_ / "hard.h5", table));
  EXPECT_FALSE(same_file(folder_ / "linked" / "other.h5", table));
}

TEST_F(SameFile, ANewPathIsNoExistingFileButMatchesItsOwnSpellings) {
  const fs::path table = folder_ / "data" / "t.h5";
  const fs::path fresh = folder_ / "data" / "new.json";
  EXPECT_FALSE(same_file(fresh, table));
  EXPECT_TRUE(same_file(fresh, folder_ / "data" / "." / "new.json"));
  fs::create_directory_symlink(folder_ / "data", folder_ / "linked");
  EXPECT_TRUE(same_file(fresh, folder_ / "linked" / "new.json"));
  EXPECT_TRUE(same_file(folder_ / "missing" / ".." / "data" / "new.json", fresh));
  EXPECT_FALSE(same_file(fresh, folder_ / "data" / "new.h5"));
  EXPECT_EQ(resolved_path(folder_ / "linked" / "new.json"), fs::canonical(folder_ / "data") / "new.json");
  EXPECT_EQ(resolved_path(folder_ / "data" / ""), fs::canonical(folder_ / "data"));
}

}  // namespace
}  // namespace subscale::io
