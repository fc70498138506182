//===--- ProjectRequirements.h - The PyTorch a project declares -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The oldest PyTorch release a Python project says it supports, read from
/// its packaging files, so that fixes target what the project runs on rather
/// than devport's default; and the target release of a file with where it
/// came from (TorchTarget).
///
/// A file's project is the nearest directory at or above the file's one that
/// holds `pyproject.toml`, `setup.cfg`, `setup.py` or `requirements*.txt`;
/// the search stops after a directory that holds `.git`, and at the root.
/// Its sources, in this order; the first that declares `torch` decides:
///
///  0. PyTorch's own source tree (a `version.txt` beside `torch/csrc`): the
///     release in `version.txt` (`2.6.0a0` gives 2.6);
///  1. `pyproject.toml`: `[project] dependencies`, else
///     `[project.optional-dependencies]`, else Poetry's
///     `[tool.poetry.dependencies] torch = "^2.1"` (or `{version = ...}`);
///  2. `setup.cfg`: `[options] install_requires`, else
///     `[options.extras_require]`;
///  3. `setup.py`: the first `install_requires=[...]` (or
///     `"install_requires": [...]`) list; only its string-literal items count;
///  4. `requirements.txt`, then the other `requirements*.txt` by name: each
///     line, and the files its `-r FILE` lines name (one level).
///
/// A requirement is PEP 508 for the distribution `torch` exactly (the name
/// compared case-insensitively with `-`, `_` and `.` alike; not torchvision or
/// torch-xla). Its floor is the highest lower bound among its clauses:
/// `>=X.Y[.Z]`, `>X.Y[.Z]`, `~=X.Y[.Z]`, `==X.Y[.Z|.*]` and `===` give X.Y;
/// `<`, `<=`, `!=`, a URL or no version give none. The requirements of one
/// list all hold, so theirs is the highest floor; extras are alternatives, so
/// theirs is the lowest (none if one of them has none).
///
/// The readers are written for just this (TOML tables, arrays and strings;
/// INI sections with continuation lines; Python string literals): a file they
/// cannot read declares nothing, and a note says which file and why. They
/// never throw, and every loop advances over the input.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_PROJECTREQUIREMENTS_H
#define DEVPORT_CORE_PROJECTREQUIREMENTS_H

#include "core/TorchVersion.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace devport {

/// One requirement on torch, and its floor.
struct TorchRequirement {
  /// As written, without a trailing comment; Poetry's as `torch = "^2.1"`.
  std::string Text;
  /// The highest lower bound of its clauses; nullopt when it has none.
  std::optional<TorchVersion> Floor;

  friend bool operator==(const TorchRequirement &A, const TorchRequirement &B) {
    return A.Text == B.Text && A.Floor == B.Floor;
  }
};

/// The requirement of one PEP 508 string if it names the distribution torch
/// (`torch>=2.1`, `torch[cuda] >= 2.1, < 3 ; python_version >= "3.9"`);
/// nullopt for another distribution or a string that names none.
std::optional<TorchRequirement> parseTorchRequirement(llvm::StringRef Requirement);

/// The floor of a Poetry version constraint: `^2.1`, `~2.1`, `>=2.1,<3`,
/// `2.1` (exactly), `2.1.*` give 2.1; `*` and `<3` none.
std::optional<TorchVersion> poetryFloor(llvm::StringRef Constraint);

/// Whether Name is a distribution name that normalises to `torch`.
bool isTorchName(llvm::StringRef Name);

/// What one packaging file says about torch: nothing (nullopt) or the
/// requirement that decides its floor. An error (with `line N: why`) when the
/// file cannot be read as its kind.
llvm::Expected<std::optional<TorchRequirement>> readPyprojectToml(llvm::StringRef Text);
llvm::Expected<std::optional<TorchRequirement>> readSetupCfg(llvm::StringRef Text);
llvm::Expected<std::optional<TorchRequirement>> readSetupPy(llvm::StringRef Text);
/// A requirements file; the files that its `-r FILE` lines name are added to
/// Includes (as written) when it is not null.
std::optional<TorchRequirement> readRequirementsTxt(llvm::StringRef Text,
                                                     std::vector<std::string> *Includes);

/// PyTorch's own `version.txt` (`2.6.0a0`): the release it is, as a
/// requirement whose floor is X.Y; nullopt if its first line is no release.
std::optional<TorchRequirement> readPyTorchVersionTxt(llvm::StringRef Text);

/// Of requirements that must all hold: the one with the highest floor (the
/// first one when none has a floor); nullopt for none.
std::optional<TorchRequirement> strictest(llvm::ArrayRef<TorchRequirement> All);

/// What a project declares about torch.
struct TorchDeclaration {
  std::string ProjectDir; ///< Absolute; the directory the search found.
  std::string File;       ///< The file that declares torch, absolute; "" none.
  /// Set when File is: the requirement that decides, and its floor.
  std::optional<TorchRequirement> Requirement;
  /// A file that could not be read, and why (`line 3: unterminated string`).
  struct Problem {
    std::string File; ///< Absolute.
    std::string Why;
    friend bool operator==(const Problem &A, const Problem &B) {
      return A.File == B.File && A.Why == B.Why;
    }
  };
  std::vector<Problem> Problems;
  /// Every file read (includes of requirements files too), absolute.
  std::vector<std::string> FilesRead;

  std::optional<TorchVersion> floor() const {
    return Requirement ? Requirement->Floor : std::nullopt;
  }
  /// The same declaration as far as a target and its summary go: the
  /// directory the search stopped at does not matter when no file there
  /// declares torch (sub-projects of a monorepo without their own).
  friend bool operator==(const TorchDeclaration &A, const TorchDeclaration &B) {
    return A.File == B.File && A.Requirement == B.Requirement && A.Problems == B.Problems;
  }
};

/// Whether a file with this name is one that the search looks for
/// (`pyproject.toml`, `setup.cfg`, `setup.py`, `requirements*.txt`).
bool isPackagingFileName(llvm::StringRef FileName);

/// The nearest directory at or above Dir holding a packaging file, absolute;
/// "" if there is none up to a directory holding `.git` or the root.
std::string findProjectDir(llvm::StringRef Dir);

/// The next project above ProjectDir (a directory findProjectDir() gave):
/// findProjectDir() of its parent, absolute; "" where ProjectDir holds `.git`
/// (a repository, or a worktree's file) or there is none above.
std::string projectDirAbove(llvm::StringRef ProjectDir);

/// Reads the packaging files of ProjectDir in the order of precedence.
TorchDeclaration readTorchDeclaration(llvm::StringRef ProjectDir);

/// Finds and reads the project of each file once per directory. Thread-safe.
class RequirementsCache {
public:
  /// The declaration of FilePath's project; null when no project was found.
  std::shared_ptr<const TorchDeclaration> forFile(llvm::StringRef FilePath);
  /// Whether Path (absolute) is a file that some declaration was read from.
  bool hasRead(llvm::StringRef Path);

private:
  std::mutex M;
  llvm::StringMap<std::string> DirToProject; ///< directory -> project dir ("" none)
  llvm::StringMap<std::shared_ptr<const TorchDeclaration>> Read; ///< project dir -> declaration
  llvm::StringSet<> FilesRead;
};

/// Where the target release came from, in order of precedence.
enum class TargetOrigin {
  CommandLine, ///< --target-torch (or the editor's setting).
  Config,      ///< `target-torch` in `.devport.yaml`.
  Project,     ///< The floor of the project's torch requirement.
  Default,     ///< TorchVersion::defaultTarget().
};

/// The release the fixes of a file target, and why.
struct TorchTarget {
  TorchVersion Release = TorchVersion::defaultTarget();
  TargetOrigin Origin = TargetOrigin::Default;
  std::string ConfigFile; ///< Config: the `.devport.yaml` that says so.
  /// What the file's project declares, whatever the origin; null when no
  /// project was found.
  std::shared_ptr<const TorchDeclaration> Declared;

  /// The target by precedence: the front end's, the configuration's, the
  /// project's floor, the default.
  static TorchTarget choose(std::optional<TorchVersion> FrontEnd,
                            std::optional<TorchVersion> Configured, llvm::StringRef ConfigFile,
                            std::shared_ptr<const TorchDeclaration> Declared);

  /// The project's floor when the target was given explicitly (front end or
  /// configuration) and is above it: fixes may then need more than the
  /// project declares.
  std::optional<TorchVersion> floorBelowTarget() const;

  friend bool operator==(const TorchTarget &A, const TorchTarget &B);
};

} // namespace devport

#endif
