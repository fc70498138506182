//===--- NameWordsTest.cpp - The words of an identifier ---------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/NameWords.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

constexpr llvm::StringLiteral Cuda[] = {"cuda", "nccl"};

TEST(NameWords, UnderscoresAndCapitalsAfterLowerCaseSeparate) {
  for (const char *N : {"cuda", "to_cuda", "_find_cuda_home", "cudaAwareMpiCheck", "useCuda",
                        "CUDA_Accelerator", "ProcessGroup_NCCL", "a__cuda__b"})
    EXPECT_TRUE(hasNameWord(N, Cuda)) << N;
  for (const char *N : {"cudagraph", "is_cudagraph_safe", "encuda", "CUDAGraph", "", "_"})
    EXPECT_FALSE(hasNameWord(N, Cuda)) << N;
}

} // namespace
} // namespace devport
