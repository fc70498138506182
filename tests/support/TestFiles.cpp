//===--- TestFiles.cpp - Temporary directories for tests ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tests/support/TestFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace devport::test {

TempDir::TempDir() {
  llvm::SmallString<128> P;
  std::error_code EC = llvm::sys::fs::createUniqueDirectory("devport-test", P);
  EXPECT_FALSE(EC) << EC.message();
  llvm::SmallString<128> Real;
  Root = llvm::sys::fs::real_path(P, Real) ? std::string(P.str()) : std::string(Real.str());
}

TempDir::~TempDir() { llvm::sys::fs::remove_directories(Root); }

void TempDir::mkdir(llvm::StringRef Rel) const {
  std::error_code EC = llvm::sys::fs::create_directories(path(Rel));
  EXPECT_FALSE(EC) << Rel.str() << ": " << EC.message();
}

void TempDir::write(llvm::StringRef Rel, llvm::StringRef Content) const {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Rel);
  if (!Parent.empty())
    mkdir(Parent);
  std::error_code EC;
  llvm::raw_fd_ostream OS(path(Rel), EC);
  EXPECT_FALSE(EC) << Rel.str() << ": " << EC.message();
  OS << Content;
}

std::string TempDir::read(llvm::StringRef Rel) const { return readFile(path(Rel)); }

void TempDir::symlink(llvm::StringRef Target, llvm::StringRef Rel) const {
  std::error_code EC = llvm::sys::fs::create_link(Target, path(Rel));
  EXPECT_FALSE(EC) << Rel.str() << ": " << EC.message();
}

std::string readFile(llvm::StringRef Path) {
  auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, false);
  EXPECT_TRUE(static_cast<bool>(B)) << Path.str() << ": cannot read";
  return B ? (*B)->getBuffer().str() : std::string();
}

} // namespace devport::test
