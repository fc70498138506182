//===--- ReplayMain.cpp - Run a fuzz target over files, without libFuzzer ---===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The main() of the replay build of a fuzz target (any build, no libFuzzer
/// needed): each argument is a file or a directory of files, each file one
/// input passed to LLVMFuzzerTestOneInput. A violated invariant aborts, so
/// the CTests over fuzz/regressions/ and the seed corpora fail on it.
///
//===----------------------------------------------------------------------===//

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

int main(int Argc, char **Argv) {
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    if (!llvm::sys::fs::is_directory(Argv[I])) {
      Files.push_back(Argv[I]);
      continue;
    }
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Argv[I], EC), End; It != End && !EC;
         It.increment(EC))
      if (llvm::sys::fs::is_regular_file(It->path()) &&
          !llvm::sys::path::filename(It->path()).startswith("."))
        Files.push_back(It->path());
  }
  std::sort(Files.begin(), Files.end());
  for (const std::string &F : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(F, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buf) {
      std::fprintf(stderr, "%s: %s\n", F.c_str(), Buf.getError().message().c_str());
      return 1;
    }
    std::fprintf(stderr, "replay %s\n", F.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
                           (*Buf)->getBufferSize());
  }
  std::fprintf(stderr, "replayed %zu inputs\n", Files.size());
  return 0;
}
