//===--- CudaRoleTest.cpp - Python modules that are CUDA by design --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/PythonMatcher.h"

#include <gtest/gtest.h>

namespace devport::python {
namespace {

TEST(CudaRoleModule, DirectoriesAndNamesThatSayCuda) {
  for (const char *P :
       {"torch/cuda/__init__.py", "torch/cuda/amp/common.py", "torch/backends/cudnn/rnn.py",
        "torch/_inductor/codegen/cuda/gemm.py", "src/lightning/fabric/accelerators/cuda.py",
        "accelerator/cuda_accelerator.py", "test/test_cuda.py",
        "test/distributed/test_c10d_nccl.py", "common_CUDA.py", "run-cuda.py",
        "ops/fused_cublas_gemm.pyi", "Cuda.py"})
    EXPECT_TRUE(isCudaRoleModule(P)) << P;
}

TEST(CudaRoleModule, NotAWordOfTheName) {
  for (const char *P :
       {"torch/_inductor/cudagraph_trees.py", "torch/_dynamo/backends/cudagraphs.py",
        "use_cudart.py", "models/encuda.py", "test/test_torch.py", "accelerators/mps.py",
        "cuda_dir.d/plain.py/x.py", ""})
    EXPECT_FALSE(isCudaRoleModule(P)) << P;
}

} // namespace
} // namespace devport::python
