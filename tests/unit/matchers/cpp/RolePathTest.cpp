//===--- RolePathTest.cpp - Which C++ files are CUDA by design, by path ---===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/CppBackend.h"

#include "tests/support/TestFiles.h"
#include "tests/unit/matchers/cpp/CppRules.h"
#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

#include <string>

namespace devport {
namespace {

TEST(RolePathTest, CudaAsAWordOfTheFileName) {
  for (const char *P :
       {"cuda.cpp", "a/cuda_stream_test.cpp", "register_cuda_ops.cpp", "conv_cudnn.cpp", "x_hip.cc",
        "Nccl_utils.h", "a__cublas.cpp", "cusparse_.h", "impl_CUFFT_plan.cpp"})
    EXPECT_TRUE(cpp::isCudaRolePath(P)) << P;
  // A word only as part of a longer one is not that word.
  for (const char *P : {"cudart.cpp", "hipster.cpp", "mycuda.cpp", "nccl2_utils.h",
                        "cuda-stream.cpp", "chip_info.cpp", "src/accuda/file.cpp"})
    EXPECT_FALSE(cpp::isCudaRolePath(P)) << P;
}

TEST(RolePathTest, ExtensionsCapitalsAndDirectories) {
  for (const char *P :
       {"k.cu", "k.cuh", "CUDAHooks.cpp", "ProcessGroupNCCL.cpp", "CudaIPC.h", "CuDNNWrapper.cpp",
        "aten/src/ATen/cuda/Sleep.cpp", "hip/a.cpp", "x/cudnn/y/z.h", "native/miopen/Conv.cpp"})
    EXPECT_TRUE(cpp::isCudaRolePath(P)) << P;
  for (const char *P : {"k.cpp", "Cpu.cpp", "cudax/a.cpp", "Ncclx.cpp", "k.cu.txt"})
    EXPECT_FALSE(cpp::isCudaRolePath(P)) << P;
}

TEST(RolePathTest, TheHostHalfOfACudaFile) {
  test::TempDir D;
  const char *Code = "void f(at::Tensor t) { t.to(at::kCUDA); }\n";
  for (const char *P :
       {"c10d/comm.cpp", "c10d/comm.hpp", "c10d/other.cpp", "c10d/k.h", "c10d/sub/comm.cpp"})
    D.write(P, Code);
  D.write("c10d/comm.cu", "");
  D.write("c10d/k.cuh", "");
  D.mkdir("c10d/other.cu"); // a directory is no file
  for (const char *P : {"c10d/comm.cpp", "c10d/comm.hpp", "c10d/k.h"})
    EXPECT_TRUE(cpp::hasCudaTwin(D.path(P))) << P;
  for (const char *P : {"c10d/other.cpp", "c10d/sub/comm.cpp", "c10d/comm.cu", "c10d/k.cuh"})
    EXPECT_FALSE(cpp::hasCudaTwin(D.path(P))) << P;

  // Through the backend: the host half is kept whole, its neighbour reported.
  cpp::CppBackend B;
  const CompiledRules *Compiled = cpp::lexicalBackendRules();
  ASSERT_NE(Compiled, nullptr);
  auto RulesMatched = [&](const char *P) {
    auto Parsed = B.parseFile(D.path(P), Code);
    std::string Ids;
    for (const Match &M : Compiled->match(*Parsed).Matches)
      Ids += M.R->Id + " ";
    return Ids;
  };
  EXPECT_EQ("keep-cuda-role-file cpp-cuda-device-type ", RulesMatched("c10d/comm.cpp"));
  EXPECT_EQ("cpp-cuda-device-type ", RulesMatched("c10d/other.cpp"));
}

TEST(RolePathTest, AFileThatIncludesCudaHeadersUnconditionally) {
  cpp::CppBackend B;
  const CompiledRules *Compiled = cpp::lexicalBackendRules();
  ASSERT_NE(Compiled, nullptr);
  const std::string Code = "void f(at::Tensor t) { t.to(at::kCUDA); }\n";
  auto Role = [&](const std::string &Head) {
    std::string Text = Head + Code; // the parse keeps a reference to it
    auto Parsed = B.parseFile("src/a.cpp", Text);
    EXPECT_TRUE(
        cpp::includesCudaOnlyHeaders(static_cast<const cpp::CppParsedFile &>(*Parsed).lexed()) ==
        llvm::any_of(Compiled->match(*Parsed).Matches,
                     [](const Match &M) { return M.R->Id == "keep-cuda-role-file"; }))
        << Head;
    return cpp::includesCudaOnlyHeaders(static_cast<const cpp::CppParsedFile &>(*Parsed).lexed());
  };
  EXPECT_TRUE(Role("#include <c10/cuda/CUDAGuard.h>\n"));
  EXPECT_TRUE(Role("#pragma once\n#include \"ATen/cuda/CUDAContext.h\"\n"));
  EXPECT_TRUE(Role("#ifndef A_H\n#define A_H\n#include <ATen/cuda/CUDAContext.h>\n#endif\n"));
  EXPECT_TRUE(Role("#ifdef USE_CUDA\n#include <c10/cuda/CUDAGuard.h>\n#endif\n"
                   "#include <c10/cuda/CUDAStream.h>\n"));
  // Conditioned, or not CUDA-only: a generic file.
  EXPECT_FALSE(Role("#ifdef USE_CUDA\n#include <c10/cuda/CUDAGuard.h>\n#endif\n"));
  EXPECT_FALSE(Role("#ifndef A_H\n#define B_H\n#include <c10/cuda/CUDAGuard.h>\n#endif\n"));
  EXPECT_FALSE(Role("#include <ATen/detail/CUDAHooksInterface.h>\n"));
  EXPECT_FALSE(Role("// #include <c10/cuda/CUDAGuard.h>\n"));
}

} // namespace
} // namespace devport
