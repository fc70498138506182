//===--- TokenDiffTest.cpp - Token edits over Python tokens ---------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Tokenizer.h"
#include "rewriters/EditApplier.h"
#include "rewriters/TokenDiff.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

Fix fixOf(std::vector<Edit> Es) {
  Fix F;
  F.Edits = std::move(Es);
  return F;
}

std::string applyAll(llvm::StringRef Text, const std::vector<Fix> &Fs) {
  std::vector<const Fix *> Ptrs;
  for (const Fix &F : Fs)
    Ptrs.push_back(&F);
  return applyFixes(Text, Ptrs).Text;
}

TEST(TokenDiff, KeepsCommentsAndLayoutAroundUnchangedTokens) {
  std::string Src = "torch.cuda.synchronize(  # wait\n    device=rank,\n)";
  std::vector<Edit> Es =
      tokenEdits(Src, {0, uint32_t(Src.size())}, "torch.accelerator.synchronize(rank)", python::tokenize);
  Fix F = fixOf(Es);
  EXPECT_EQ("torch.accelerator.synchronize(  # wait\n    rank,\n)", applyAll(Src, {F}));
}

TEST(TokenDiff, RenameIsOneEdit) {
  std::string Src = "x = torch.cuda.set_device(rank)";
  std::vector<Edit> Es =
      tokenEdits(Src, {4, uint32_t(Src.size())}, "torch.accelerator.set_device_index(rank)", python::tokenize);
  ASSERT_EQ(1u, Es.size());
  EXPECT_EQ("accelerator.set_device_index", Es[0].Replacement);
  EXPECT_EQ(Src.substr(Es[0].Range.Begin, Es[0].Range.size()), "cuda.set_device");
}

TEST(TokenDiff, DeletionsInsertionsAndStrings) {
  auto Run = [](std::string Src, std::string Rep) {
    std::vector<Edit> Es = tokenEdits(Src, {0, uint32_t(Src.size())}, Rep, python::tokenize);
    return applyAll(Src, {fixOf(Es)});
  };
  EXPECT_EQ("f(b)", Run("f(a, b)", "f(b)"));
  EXPECT_EQ("f(a, b)", Run("f(a)", "f(a, b)"));
  EXPECT_EQ("g('x y')", Run("f('x y')", "g('x y')"));
  EXPECT_EQ("not x", Run("x", "not x"));
  EXPECT_EQ("h(1.5)", Run("f(1.5)", "h(1.5)"));
  EXPECT_EQ("a if c else b", Run("a or b", "a if c else b"));
  EXPECT_EQ("f(\"\"\"a\nb\"\"\")", Run("g(\"\"\"a\nb\"\"\")", "f(\"\"\"a\nb\"\"\")"));
}

} // namespace
} // namespace devport
