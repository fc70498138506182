//===--- Inputs.cpp - Deterministic inputs for the micro-benchmarks --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "bench/micro/Inputs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace devport::bench {

namespace {

const char *const PythonHeader = R"(import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.linear = nn.Linear(width, width)
        self.bias = nn.Parameter(torch.zeros(width))

)";

// {0}: the method's number; {1}: the line that names CUDA, or not.
const char *const PythonMethod = R"(    def forward_{0}(self, x, scale={0}):
        """Scales x by {0} and applies the activation."""
        y = self.linear(x) * scale
        if y.dim() > 2:
            y = y.flatten(1)
        # keep the dtype of the input
        z = F.relu(y).to(x.dtype)
        {1}
        return z + self.bias

)";
const unsigned PythonMethodLines = 10;

const char *const PythonFindings[] = {
    "z = z.cuda()",
    "torch.cuda.synchronize()",
    "z = z.to(\"cuda\")",
    "dev = torch.device(\"cuda:0\")",
    "n = torch.cuda.device_count()",
    "if torch.cuda.is_available(): z = z * 2",
};

const char *const CppHeader = R"(#include <ATen/ATen.h>
#include <c10/core/Device.h>

namespace at::native {

)";

const char *const CppFunction = R"(Tensor scale_{0}(const Tensor& self, double factor) {
  // keep the dtype of the input
  auto result = self.mul(factor + {0});
  if (result.dim() > 2) {
    result = result.flatten(1);
  }
  {1}
  return result.relu();
}

)";

const char *const CppFindings[] = {
    "TORCH_CHECK(self.is_cuda(), \"expected a CUDA tensor\");",
    "result = result.to(c10::Device(c10::kCUDA, 0));",
    "auto stream = at::cuda::getCurrentCUDAStream();",
    "if (self.device().type() == c10::DeviceType::CUDA) { result = result.contiguous(); }",
    "int n = torch::cuda::device_count();",
    "auto d = c10::Device(\"cuda:0\");",
};

/// Template with {0} replaced by N, then {1} by Line (C++ bodies have
/// braces of their own, so no formatv).
std::string fill(llvm::StringRef Template, unsigned N, llvm::StringRef Line) {
  std::string Out = Template.str();
  auto ReplaceAll = [&Out](llvm::StringRef Hole, const std::string &By) {
    for (size_t At = Out.find(Hole.data()); At != std::string::npos;
         At = Out.find(Hole.data(), At + By.size()))
      Out.replace(At, Hole.size(), By);
  };
  ReplaceAll("{0}", std::to_string(N));
  ReplaceAll("{1}", Line.str());
  return Out;
}

/// The line of block N: a finding (in turn) on every FindingEvery-th block.
template <size_t K>
std::string lineOf(unsigned N, unsigned FindingEvery, const char *const (&Findings)[K],
                   llvm::StringRef Plain) {
  if (FindingEvery && N % FindingEvery == 0)
    return Findings[(N / FindingEvery) % K];
  return Plain.str();
}

std::string pythonMethod(unsigned N, unsigned FindingEvery) {
  return fill(PythonMethod, N,
              lineOf(N, FindingEvery, PythonFindings,
                     "z = z * math.sqrt(" + std::to_string(N % 7 + 1) + ")"));
}

} // namespace

std::string generatePython(size_t MinBytes, unsigned FindingEvery) {
  std::string Out = PythonHeader;
  for (unsigned N = 0; Out.size() < MinBytes; ++N)
    Out += pythonMethod(N, FindingEvery);
  return Out;
}

std::string generatePythonLines(unsigned Lines, unsigned FindingEvery) {
  std::string Out = PythonHeader;
  unsigned Have = static_cast<unsigned>(llvm::count(Out, '\n'));
  for (unsigned N = 0; Have + PythonMethodLines <= Lines; ++N, Have += PythonMethodLines)
    Out += pythonMethod(N, FindingEvery);
  for (; Have < Lines; ++Have)
    Out += "# padding\n";
  return Out;
}

std::string generateCpp(size_t MinBytes, unsigned FindingEvery) {
  std::string Out = CppHeader;
  for (unsigned N = 0; Out.size() < MinBytes; ++N)
    Out += fill(CppFunction, N,
                lineOf(N, FindingEvery, CppFindings, "result = result.contiguous();"));
  return Out + "} // namespace at::native\n";
}

std::optional<std::string> pythonFromEnvironment() {
  const char *Path = std::getenv("DEVPORT_BENCH_PYTHON");
  if (!Path || !*Path)
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    llvm::errs() << "devport-micro-bench: cannot read DEVPORT_BENCH_PYTHON=" << Path << ": "
                 << Buffer.getError().message() << "\n";
    std::exit(2);
  }
  return (*Buffer)->getBuffer().str();
}

size_t middleEditOffset(llvm::StringRef Text) {
  size_t Middle = Text.size() / 2;
  size_t LineStart = Text.rfind('\n', Middle);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  for (size_t At = LineStart; At < Text.size();) {
    size_t End = Text.find('\n', At);
    if (End == llvm::StringRef::npos)
      End = Text.size();
    size_t Eq = Text.slice(At, End).find(" = ");
    if (Eq != llvm::StringRef::npos)
      return At + Eq;
    At = End + 1;
  }
  size_t End = Text.find('\n', LineStart);
  return End == llvm::StringRef::npos ? Text.size() : End;
}

} // namespace devport::bench
