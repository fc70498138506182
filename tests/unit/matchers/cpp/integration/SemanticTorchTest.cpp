//===--- SemanticTorchTest.cpp - The semantic backend on real PyTorch -----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// Integration tests (CTest label `integration`): the semantic C++ backend
// against Debian's libtorch-dev 1.13 headers (DEVPORT_TORCH_HEADERS, unpacked
// by scripts/bootstrap.sh), with the flags a libtorch extension uses. Each
// test prints its TU's wall time. Two TUs only: one that includes ATen costs
// 8-17 s of CPU.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/Semantic.h"
#include "tests/unit/matchers/cpp/SemanticRules.h"

#include "tests/support/Annotations.h"
#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"
#include "tests/support/TestRules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

namespace devport::cpp {
namespace {

std::string ruleYaml(llvm::StringRef Id, llvm::StringRef Matcher) {
  return "id: " + Id.str() +
         "\nlanguage: cpp\ncategory: device-choice\nseverity: warning\nmessage: m\n"
         "pattern: c10::kCUDA\nmatcher: '" +
         Matcher.str() + "'\n";
}

/// The realistic rules: RULES.md 5.1's constructs, as `matcher:` expressions.
const std::vector<std::string> &torchRules() {
  static const std::vector<std::string> Rules = {
      ruleYaml("cuda-constant", R"(declRefExpr(to(varDecl(hasName("::c10::kCUDA")))))"),
      ruleYaml("cuda-enumerator",
               R"(declRefExpr(to(enumConstantDecl(hasName("::c10::DeviceType::CUDA")))))"),
      ruleYaml("tensor-is-cuda", R"(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("is_cuda"),)"
                                 R"( ofClass(hasName("::at::TensorBase"))))))"),
      ruleYaml("torch-cuda-device-count",
               R"(callExpr(callee(functionDecl(hasName("::torch::cuda::device_count")))))"),
  };
  return Rules;
}

/// A project whose database compiles main.cpp against the PyTorch headers.
struct TorchProject {
  TorchProject() {
    const std::string H = DEVPORT_TORCH_HEADERS;
    D.write("compile_commands.json",
            "[{\"directory\": \"" + D.path() +
                "\", \"arguments\": [\"/usr/bin/c++\", \"-std=c++17\", \"-isystem\", \"" + H +
                "\", \"-isystem\", \"" + H +
                "/torch/csrc/api/include\", \"-c\", \"main.cpp\", \"-o\", \"main.o\"], "
                "\"file\": \"main.cpp\"}]");
  }
  test::TempDir D;
};

/// Runs the torch rules over Code as main.cpp and checks the matches:
/// `$constant[[...]]`, `$enumerator`, `$is_cuda` and `$device_count` mark
/// the expected matches of each rule.
void expectMatches(llvm::StringRef Annotated, llvm::StringRef What) {
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules(torchRules()));
  TorchProject P;
  ASSERT_THAT_EXPECTED_VALUE(DB, CompileCommands::fromDirectory(P.D.path()));
  std::optional<CompileCommand> Cmd = DB->commandFor(P.D.path("main.cpp"));
  ASSERT_TRUE(Cmd.has_value());
  test::Annotations A(Annotated);

  auto Start = std::chrono::steady_clock::now();
  SemanticResult R = runSemantic(*C.M, *Cmd, P.D.path("main.cpp"), A.code());
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  std::cout << "[ timing   ] " << What.str() << ": runSemantic " << Seconds << " s wall, "
            << R.Matches.size() << " matches\n";
  ASSERT_TRUE(R.Compiled) << R.Error;

  std::vector<std::string> Expected, Got;
  for (auto [Mark, Id] : {std::pair<const char *, const char *>{"constant", "cuda-constant"},
                          {"enumerator", "cuda-enumerator"},
                          {"is_cuda", "tensor-is-cuda"},
                          {"device_count", "torch-cuda-device-count"}})
    for (ByteRange X : A.ranges(Mark))
      Expected.push_back(std::string(Id) + " [" + A.text(X).str() + "]@" + std::to_string(X.Begin));
  for (const SemanticMatch &M : R.Matches)
    Got.push_back(M.R->Id + " [" + A.text(M.Range).str() + "]@" + std::to_string(M.Range.Begin));
  std::sort(Expected.begin(), Expected.end());
  std::sort(Got.begin(), Got.end());
  EXPECT_EQ(Expected, Got);
}

TEST(SemanticTorchTest, DeviceHeader) {
  expectMatches(R"cpp(#include <c10/core/Device.h>
#include <c10/core/DeviceType.h>
c10::Device a() { return c10::Device($constant[[at::kCUDA]], 0); }
bool b(c10::Device d) { return d.type() == $enumerator[[c10::DeviceType::CUDA]]; }
bool c(c10::DeviceType t) { return t == $enumerator[[torch::DeviceType::CUDA]]; }
bool d(c10::DeviceType t) {
  switch (t) {
  case $constant[[c10::kCUDA]]: return true;
  default: return t == c10::kCPU;
  }
}
)cpp",
                "<c10/core/Device.h>");
}

TEST(SemanticTorchTest, ATenAndTorchCuda) {
  expectMatches(R"cpp(#include <ATen/ATen.h>
#include <torch/cuda.h>
at::Tensor toGpu(const at::Tensor &x) { return x.to($constant[[at::kCUDA]]); }
bool onGpu(const at::Tensor &t) { return $is_cuda[[t.is_cuda()]]; }
size_t gpus() { return $device_count[[torch::cuda::device_count()]]; }
bool same(const at::Tensor &t) {
  return t.device().type() == $enumerator[[c10::DeviceType::CUDA]] &&
         t.device() == at::Device($enumerator[[at::DeviceType::CUDA]], 1);
}
namespace at {
bool inAt(const Tensor &t) { return t.device().type() == $constant[[kCUDA]]; }
}
)cpp",
                "<ATen/ATen.h> + <torch/cuda.h>");
}

} // namespace
} // namespace devport::cpp
