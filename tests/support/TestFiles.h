//===--- TestFiles.h - Temporary directories for tests --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// TempDir: a fresh directory that a test fills with files and that is
/// removed, with everything in it, when the TempDir goes out of scope.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_SUPPORT_TESTFILES_H
#define DEVPORT_TESTS_SUPPORT_TESTFILES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace devport::test {

class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  /// The directory (absolute), or Rel inside it.
  const std::string &path() const { return Root; }
  std::string path(llvm::StringRef Rel) const { return Root + "/" + Rel.str(); }

  /// Writes Content to Rel, creating parent directories; fails the test on error.
  void write(llvm::StringRef Rel, llvm::StringRef Content) const;
  /// The content of Rel ("" and a test failure if it cannot be read).
  std::string read(llvm::StringRef Rel) const;
  void mkdir(llvm::StringRef Rel) const;
  /// Creates a symlink Rel -> Target.
  void symlink(llvm::StringRef Target, llvm::StringRef Rel) const;

private:
  std::string Root;
};

/// The content of Path ("" and a test failure if it cannot be read).
std::string readFile(llvm::StringRef Path);

} // namespace devport::test

#endif
