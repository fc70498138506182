//===--- Inputs.h - Deterministic inputs for the micro-benchmarks ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The texts that bench/micro/Benchmarks.cpp times devport on: generated
/// PyTorch-like Python and C++ (the same bytes on every run and machine), or
/// the file that DEVPORT_BENCH_PYTHON names. Nothing else is read from disk.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_BENCH_MICRO_INPUTS_H
#define DEVPORT_BENCH_MICRO_INPUTS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace devport::bench {

/// Python: an import block, then methods of about ten lines each (a
/// docstring, a comment, a branch, calls); every FindingEvery-th method has
/// one line that names CUDA (`.cuda()`, `torch.cuda.synchronize()`,
/// `.to("cuda")`, ...; one of six, in turn), the others the same line
/// without it. Methods are added until the text has at least MinBytes.
std::string generatePython(size_t MinBytes, unsigned FindingEvery);

/// The same, with exactly Lines lines (padded with comment lines).
std::string generatePythonLines(unsigned Lines, unsigned FindingEvery);

/// C++: functions over at::Tensor in the style of ATen's sources; every
/// FindingEvery-th one names CUDA (kCUDA, `is_cuda()`, `at::cuda::`, ...).
std::string generateCpp(size_t MinBytes, unsigned FindingEvery);

/// The contents of the file that the environment variable DEVPORT_BENCH_PYTHON
/// names, if it is set; exits with a message when it cannot be read.
std::optional<std::string> pythonFromEnvironment();

/// Where a keystroke goes in Text: the offset of ` = ` in the first line
/// from the middle on that has one, so that inserting `_` there renames an
/// assignment's target and the text stays valid (the middle line's end if
/// no line has one).
size_t middleEditOffset(llvm::StringRef Text);

} // namespace devport::bench

#endif
