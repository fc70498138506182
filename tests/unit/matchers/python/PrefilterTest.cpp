//===--- PrefilterTest.cpp - Literals the prefilter needs -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Pattern.h"

#include "tests/support/Expected.h"

#include <gtest/gtest.h>

namespace devport::python {
namespace {

TEST(Prefilter, RequiredLiteralOfARegex) {
  EXPECT_EQ("cuda", requiredLiteral(R"(^[uU]?(["'])cuda["']$)"));
  EXPECT_EQ("cuda:", requiredLiteral(R"(^[uU]?(["'])cuda:([0-9]+)["']$)"));
  EXPECT_EQ("", requiredLiteral("^(cuda|xpu)$"));
  EXPECT_EQ("", requiredLiteral("^[0-9]+$"));
  EXPECT_EQ("", requiredLiteral("^$|^memory_format[[:space:]]*="));
  EXPECT_EQ("abc", requiredLiteral("abcd?"));
  EXPECT_EQ("nccl", requiredLiteral("x*nccl"));
  // A one-character class is a literal character: the longest literal runs through it.
  EXPECT_EQ("torch.cuda.", requiredLiteral(R"(^["']torch[.]cuda[.][A-Z][a-z]*Tensor["']$)"));
  EXPECT_EQ("torch", requiredLiteral("torch[.]?cud"));
}

TEST(Prefilter, PatternWords) {
  auto P = compilePattern("$F($$$A, device=$S, $$$B)");
  ASSERT_TRUE(test::hasValue(P));
  EXPECT_EQ(std::vector<std::string>{"device"}, P->RequiredWords);
  auto Q = compilePattern("torch.cuda.set_device($D)");
  ASSERT_TRUE(test::hasValue(Q));
  EXPECT_EQ((std::vector<std::string>{"torch", "cuda", "set_device"}), Q->RequiredWords);
}

TEST(Prefilter, AnchorNames) {
  // The name a pattern is dispatched by: only nodes that call or name it try it.
  for (auto [Text, Anchor] : std::vector<std::pair<const char *, const char *>>{
           {"torch.cuda.set_device($D)", "set_device"},
           {"torch.cuda.is_available", "is_available"},
           {"$X.cuda($I, $$$KW)", "cuda"},
           {"$X.is_cuda", "is_cuda"},
           {"$M.patch($S, $$$A)", "patch"},
           {"$F($$$A, device=$S, $$$B)", ""}, // any callee
           {"$X == $S", ""},
       }) {
    auto P = compilePattern(Text);
    ASSERT_TRUE(test::hasValue(P)) << Text;
    EXPECT_EQ(Anchor, P->AnchorName) << Text;
  }
  // An attribute taken by a metavariable: dispatched by what it is an
  // attribute of.
  for (auto [Text, Object] : std::vector<std::pair<const char *, const char *>>{
           {"torch.backends.cudnn.$X", "cudnn"},
           {"torch.cuda.nvtx.$F($$$A)", "nvtx"},
           {"torch.cuda.$T", "cuda"},
           {"$X.cuda()", ""},
       }) {
    auto P = compilePattern(Text);
    ASSERT_TRUE(test::hasValue(P)) << Text;
    EXPECT_EQ(Object, P->ObjectAnchor) << Text;
  }
}

} // namespace
} // namespace devport::python
