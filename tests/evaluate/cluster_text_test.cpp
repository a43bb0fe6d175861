#include "stages/evaluate/cluster_text.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "common/error.hpp"

namespace subscale::evaluate {
namespace {

std::vector<SubspaceCluster> parse(const std::string& text) {
  std::istringstream in(text);
  return parse_cluster_text(in, "clusters.txt");
}

TEST(ClusterText, ReadsWhatOperatorWrites) {
  const std::vector<SubspaceCluster> clusters{{{0, 3}, {12, 15, 40}}, {{7}, {1}}, {{}, {}}};
  std::ostringstream out;
  out << "# found clusters\n";
  for (const auto& c : clusters) out << c << "\r\n";
  out << "\n  {2,1}-[ 9 ,3 ]  \n";
  auto expected = clusters;
  expected.push_back({{1, 2}, {3, 9}});  // sorted on the way in
  EXPECT_EQ(parse(out.str()), expected);
}

TEST(ClusterText, BadLinesNameLineAndColumn) {
  const auto message = [](const std::string& text) {
    try {
      parse(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message("{0}-[1]\n{0, 1}[2]\n").find("line 2, column 7"), std::string::npos);
  EXPECT_NE(message("{0, a}-[1]\n").find("expected a dimension"), std::string::npos);
  EXPECT_NE(message("{0}-[1, 2\n").find("expected ',' or ']'"), std::string::npos);
  EXPECT_NE(message("{0}-[1, 1]\n").find("listed twice"), std::string::npos);
  EXPECT_NE(message("{0}-[1] extra\n").find("unexpected text"), std::string::npos);
  EXPECT_NE(message("{0}-[99999999999]\n").find("point id"), std::string::npos);
}

}  // namespace
}  // namespace subscale::evaluate
