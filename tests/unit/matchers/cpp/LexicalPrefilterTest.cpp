//===--- LexicalPrefilterTest.cpp - The lexical engine's stronger prefilter ===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// Without the semantic engine, a C++ file is lexed only when it holds, for
// some pattern, its words and the words only the lexical engine needs (a
// qualified name's inner components, a string literal whole). It must never
// turn away a file in which the lexical engine matches: checked over the
// rule fixtures' C++ inputs and over spellings that bring names in scope.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/CppLexer.h"
#include "matchers/cpp/CppMatcher.h"
#include "tests/unit/matchers/cpp/CppRules.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace devport::cpp {
namespace {

/// Whether the lexical engine matches anything in Text (no role).
bool matches(const CppMatcher &M, llvm::StringRef Text) {
  LexedFile F(Text);
  return !M.match(F, {}).empty();
}

TEST(LexicalPrefilter, NeverTurnsAwayAFileWithAMatch) {
  const CompiledCppRules &C = cppRules();
  ASSERT_TRUE(C.M);
  std::vector<std::string> Texts = {
      // Names brought in by a using-directive, a using-declaration, a
      // namespace alias, an enclosing namespace, or left unresolved.
      "using namespace torch::cuda;\nbool f() { return is_available(); }\n",
      "using torch::cuda::synchronize;\nvoid f() { synchronize(); }\n",
      "namespace tc = torch::cuda;\nvoid f() { tc::manual_seed(1); }\n",
      "namespace torch { namespace cuda {\nvoid f() { synchronize(); }\n} }\n",
      "void f() { cuda::synchronize(); }\n",
      "namespace ac = at::cuda;\nvoid f() { ac::getCurrentCUDAStream(); }\n",
      "using namespace at::cuda;\nvoid f() { getCurrentCUDAStream(); }\n",
      "using namespace c10;\nauto d = DeviceType::CUDA;\nbool b = x.is_cuda();\n",
      "auto d = at::DeviceType::CUDA;\nauto e = torch::kCUDA;\n",
      "if (name == \"CUDA\" || \"TPU\" != name) {}\n",
      "auto t = x.to(at::Device(\"cuda\"));\n",
      "#if defined(USE_CUDA)\nint a;\n#endif\n",
  };
  size_t Inputs = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator I(DEVPORT_SOURCE_DIR "/tests/rules", EC), E;
       I != E && !EC; I.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(I->path());
    llvm::StringRef Ext = llvm::sys::path::extension(Name);
    if (!Name.startswith("input") ||
        !(Ext == ".cpp" || Ext == ".h" || Ext == ".cc" || Ext == ".cu"))
      continue;
    auto B = llvm::MemoryBuffer::getFile(I->path());
    ASSERT_TRUE(bool(B)) << I->path();
    Texts.push_back((*B)->getBuffer().str());
    ++Inputs;
  }
  EXPECT_GT(Inputs, 10u);
  size_t Matched = 0;
  for (const std::string &T : Texts) {
    if (!matches(*C.M, T))
      continue;
    ++Matched;
    EXPECT_TRUE(C.M->mayMatch(T, /*Lexical=*/true)) << T;
    EXPECT_TRUE(C.M->mayMatch(T, /*Lexical=*/false)) << T;
  }
  EXPECT_GT(Matched, Inputs / 2);
}

TEST(LexicalPrefilter, NeedsWhatOnlyTheLexicalEngineNeeds) {
  const CompiledCppRules &C = cppRules();
  ASSERT_TRUE(C.M);
  // `CUDA` and `GPU` only inside other names and comments: no string
  // `"CUDA"` for the comparison patterns, no `DeviceType` for
  // `c10::DeviceType::CUDA`. The semantic engine's prefilter lets it pass.
  // (Not `USE_CUDA_FOO`: it holds a build-guard macro, which the prefilter
  // asks for without the `#if` around it.)
  for (const char *T : {"int n = HAS_CUDA_FOO; // CUDA\n", "int GPU_count = kGPUs;\n"}) {
    EXPECT_FALSE(matches(*C.M, T)) << T;
    EXPECT_FALSE(C.M->mayMatch(T, /*Lexical=*/true)) << T;
    EXPECT_TRUE(C.M->mayMatch(T, /*Lexical=*/false)) << T;
  }
}

} // namespace
} // namespace devport::cpp
