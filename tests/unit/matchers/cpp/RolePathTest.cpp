//===--- RolePathTest.cpp - Which C++ files are CUDA by design, by path ---===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/CppBackend.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace devport
