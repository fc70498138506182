//===--- Workspace.h - Which files to check -------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns the paths given on the command line into the list of files to check:
/// walks directories, skips VCS and tool directories (.git, .hg, .venv,
/// node_modules, __pycache__, ...), honours .gitignore files (nested ones,
/// negation, anchored and directory-only patterns, `**`) and --exclude globs.
/// Files named explicitly are always checked, whatever their extension,
/// unless an --exclude glob matches them.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_WORKSPACE_H
#define DEVPORT_CORE_WORKSPACE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace devport {

/// The answer for Dir found by walking up from it (Dir, then each parent up
/// to the root): Known holds the answers of the directories walked before,
/// Ask gives a directory's own (nullopt: its parent's holds). Every
/// directory walked gets the answer found, "" where none gave one: the
/// directories of a run share ancestors, each asked once (the nearest
/// `.devport.yaml`, the project that declares torch).
std::string answerUpward(llvm::StringRef Dir, llvm::StringMap<std::string> &Known,
                         llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Ask);

struct WorkspaceOptions {
  /// gitignore-style globs (e.g. "build/", "**/gen_*.py", "third_party");
  /// matched against paths relative to the current directory and against
  /// each path component's basename, like ruff's --exclude.
  std::vector<std::string> Excludes;
  /// Honour .gitignore files (and .git/info/exclude) found while walking.
  bool RespectGitignore = true;
  /// Extensions (with the dot) of the files picked up when walking a
  /// directory.
  std::vector<std::string> Extensions = {".py",  ".pyi", ".cpp", ".cc",  ".cxx", ".c++",
                                         ".cu",  ".cuh", ".h",   ".hh",  ".hpp", ".hxx",
                                         ".h++", ".inl", ".ipp", ".tpp"};
  /// Also list the temporary files of interrupted `fix` runs
  /// (WorkspaceFiles::TempFiles): in the directories walked and in those of
  /// the files named.
  bool FindTempFiles = false;
  /// Threads that look the named paths up (a pre-commit hook's or a
  /// benchmark's list of thousands of files); 0: one per core.
  unsigned Threads = 0;

  static WorkspaceOptions forTest() { return {}; }
};

/// A directory that could not be walked: its files are not checked.
struct WalkError {
  std::string Path;    ///< As the user would spell it.
  std::string Message; ///< "path: cannot read directory: permission denied".
};

/// What collectFiles found.
struct WorkspaceFiles {
  /// Files to check, in a stable (sorted) order, each real file once (two
  /// symlinks to one file, or a root reached twice, give one entry). Paths
  /// are as the user spelled them (a directory "src" yields "src/a.py").
  std::vector<std::string> Files;
  /// Directories that could not be read (permissions, a path longer than
  /// PATH_MAX): errors that did not stop the walk.
  std::vector<WalkError> Errors;
  /// Problems that did not stop the walk and lose no file, each "path:
  /// reason" (a .gitignore that cannot be read).
  std::vector<std::string> Warnings;
  /// WorkspaceOptions::FindTempFiles: names that isTempFileName() accepts,
  /// regular files, sorted.
  std::vector<std::string> TempFiles;
};

/// Collects the files under Paths. A path that does not exist is an error
/// ("path: no such file or directory"), and so is a broken symlink ("path:
/// broken symbolic link to TARGET"). Symlinked directories are not followed
/// while walking (to avoid cycles); symlinked files are. The walk keeps its
/// own stack, so any depth that the system allows is walked.
llvm::Expected<WorkspaceFiles> collectFiles(llvm::ArrayRef<std::string> Paths,
                                            const WorkspaceOptions &Opts);

/// The current directory, absolute, `.` and `..` removed, no trailing '/'
/// ("" if the system cannot tell).
std::string currentDirectory();

/// P made absolute against Cwd (an absolute directory, as
/// currentDirectory() gives), `.` and `..` removed as text, no trailing
/// '/'. No system call: a run asks for the current directory once.
std::string absolutePath(llvm::StringRef Cwd, llvm::StringRef P);

/// Is Name `.NAME.devport-XXXXXX` (X a letter or digit), the name of a
/// temporary file that rewriters/AtomicWrite creates beside NAME?
bool isTempFileName(llvm::StringRef Name);

/// Matches Path (with '/' separators) against one gitignore-style glob:
/// `*`, `?`, `[abc]`, `**/`, `/**`, a leading '/' anchors, a trailing '/'
/// needs IsDir. Exposed for tests and for per-file config globs.
bool matchGlob(llvm::StringRef Glob, llvm::StringRef Path, bool IsDir);

} // namespace devport

#endif
