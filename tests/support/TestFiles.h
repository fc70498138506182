//===--- TestFiles.h - Temporary directories for tests --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// TempDir: a fresh directory that a test fills with files and that is
/// removed, with everything in it, when the TempDir goes out of scope. Used by
/// the Workspace, SourceFile, AtomicWrite, Project, BatchRun and CLI tests.
/// And the files that tests read from the source tree.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_SUPPORT_TESTFILES_H
#define DEVPORT_TESTS_SUPPORT_TESTFILES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace devport::test {

/// A uniquely named directory under the system temporary directory, created by
/// the constructor and removed with its whole tree by the destructor
/// (symlinks inside are removed, never followed). Every helper reports a
/// failure to the running test (ADD_FAILURE) instead of returning an error.
/// Not thread-safe; one per test.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  /// The directory: absolute, with symlinks resolved (so paths built from it
  /// compare equal to what the code under test computes).
  const std::string &path() const { return Root; }
  /// Rel ('/'-separated, relative) inside the directory; path() for "".
  std::string path(llvm::StringRef Rel) const;

  /// Writes Content (bytes, no newline translation) to Rel, creating parent
  /// directories.
  void write(llvm::StringRef Rel, llvm::StringRef Content) const;
  /// The content of Rel ("" and a test failure if it cannot be read).
  std::string read(llvm::StringRef Rel) const;
  /// Creates the directory Rel and its parents.
  void mkdir(llvm::StringRef Rel) const;
  /// Creates a symlink Rel -> Target (Target is stored as given: absolute, or
  /// relative to Rel's directory), creating Rel's parent directories.
  void symlink(llvm::StringRef Target, llvm::StringRef Rel) const;

private:
  std::string Root;
};

/// The content of Path ("" and a test failure if it cannot be read).
std::string readFile(llvm::StringRef Path);

/// The Python inputs of the rule fixtures (tests/rules/*/input*.py): real
/// code of every shape the rules know, as (path, text), sorted by path.
std::vector<std::pair<std::string, std::string>> pythonFixtureInputs();

/// A Python table as region parsing knows it (Regions.h): Head (`T = [`),
/// then Element(I) for I below N, each on its own line, indented and
/// followed by a comma, then Close (`]`), each line ending with a newline.
std::string pythonTable(llvm::StringRef Head, int N, llvm::function_ref<std::string(int)> Element,
                        llvm::StringRef Close);

/// The user and group that runAsNobody() switches to.
constexpr unsigned NobodyId = 65534;

/// Runs Fn in a child process as uid and gid NobodyId (no supplementary
/// groups), for what only a user who is not root can see (permissions,
/// ownership), and returns what Fn returned: "" when it found nothing
/// wrong, else what. Only root can switch users: nullopt when this process
/// is not root (the test can then run as it is). Files Fn needs must be
/// reachable by that user (TempDir is 0700: chmod it).
std::optional<std::string> runAsNobody(const std::function<std::string()> &Fn);

} // namespace devport::test

#endif
