//===--- TorchVersionTest.cpp - PyTorch release numbers -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/TorchVersion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace devport {
namespace {

TEST(TorchVersionTest, ParsesMajorDotMinor) {
  struct Case {
    const char *Text;
    unsigned Major, Minor;
  } Cases[] = {{"2.7", 2, 7}, {"2.10", 2, 10}, {"1.13", 1, 13}, {"0.4", 0, 4}, {"10.0", 10, 0}};
  for (const Case &C : Cases) {
    std::optional<TorchVersion> V = TorchVersion::parse(C.Text);
    ASSERT_TRUE(V.has_value()) << C.Text;
    EXPECT_EQ(C.Major, V->Major) << C.Text;
    EXPECT_EQ(C.Minor, V->Minor) << C.Text;
    EXPECT_EQ(C.Text, V->str());
  }
}

TEST(TorchVersionTest, RejectsEverythingElse) {
  for (const char *Bad :
       {"", ".", "2", "2.", ".7", "2.7.1", "2..7", "v2.7", "2.x", "x.7", " 2.7", "2.7 ", "2. 7",
        "+2.7", "-2.7", "2.-7", "2.+7", "2.7a", "2.7+cu121", "2,7", "２.7",
        // More digits than a release will ever have; no silent wrap-around.
        "4294967296.0", "2.4294967297"})
    EXPECT_FALSE(TorchVersion::parse(Bad).has_value()) << "'" << Bad << "'";
}

TEST(TorchVersionTest, OrdersNumerically) {
  EXPECT_TRUE(TorchVersion({2, 9}) < TorchVersion({2, 10}));
  EXPECT_FALSE(TorchVersion({2, 10}) < TorchVersion({2, 9}));
  EXPECT_TRUE(TorchVersion({1, 13}) < TorchVersion({2, 0}));
  EXPECT_FALSE(TorchVersion({2, 6}) < TorchVersion({2, 6}));
  EXPECT_TRUE(TorchVersion({2, 6}) <= TorchVersion({2, 6}));
  EXPECT_TRUE(TorchVersion({2, 6}) <= TorchVersion({2, 7}));
  EXPECT_FALSE(TorchVersion({3, 0}) <= TorchVersion({2, 99}));
  EXPECT_TRUE(TorchVersion({2, 6}) == TorchVersion({2, 6}));
  EXPECT_FALSE(TorchVersion({2, 6}) == TorchVersion({6, 2}));

  std::vector<TorchVersion> Vs = {{2, 10}, {1, 13}, {2, 9}, {2, 1}, {0, 4}};
  std::sort(Vs.begin(), Vs.end());
  std::vector<std::string> Names;
  for (TorchVersion V : Vs)
    Names.push_back(V.str());
  EXPECT_EQ((std::vector<std::string>{"0.4", "1.13", "2.1", "2.9", "2.10"}), Names);
}

TEST(TorchVersionTest, DefaultTargetIsTwoNine) {
  EXPECT_EQ("2.9", TorchVersion::defaultTarget().str());
  EXPECT_TRUE(TorchVersion::parse("2.9") == TorchVersion::defaultTarget());
}

} // namespace
} // namespace devport
