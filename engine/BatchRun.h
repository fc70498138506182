//===--- BatchRun.h - Checking or fixing many files, streamed -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A batch run checks or fixes a list of files on a thread pool and hands
/// each file's FileReport to a Reporter in path order, as soon as that file
/// and every earlier one are done; then frees it. At most a bounded window of
/// files is in flight, so memory follows the files being worked on, not the
/// size of the codebase. A Summary is accumulated on the way. Used by the CLI
/// (`check`, `fix`); the LSP server checks single buffers with Engine
/// directly.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_ENGINE_BATCHRUN_H
#define DEVPORT_ENGINE_BATCHRUN_H

#include "core/Outcome.h"
#include "core/Reporter.h"
#include "core/Workspace.h"
#include "engine/Engine.h"
#include "engine/Project.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace devport {

enum class BatchMode { Check, Fix };

struct BatchOptions {
  BatchMode Mode = BatchMode::Check;
  /// fix: write fixed files in place (atomically); otherwise nothing is
  /// written and a changed file counts as a non-empty diff. A file that
  /// cannot be written (rewriters/AtomicWrite.h says when) is an error, and
  /// its report is that of check on the file as it is.
  bool Write = false;
  /// Write: the real paths (symlinks resolved) of the paths given; a file
  /// whose real path is outside all of them (a symlink inside the tree to a
  /// file elsewhere) is not written, with an error saying so. Empty: no
  /// limit.
  std::vector<std::string> WriteRoots;
  /// Directories that could not be walked (collectFiles()): reported first,
  /// each as a FileReport with its Error, and counted in Summary::Errors.
  std::vector<WalkError> WalkErrors;
  /// Worker threads; 0: one per core; 1: none (everything on the caller's
  /// thread). The output is the same whatever the number.
  unsigned Threads = 0;
  /// Source bytes worked on at once, whatever the thread count: a file that
  /// would go over waits for others to finish (one larger than this runs
  /// alone), so this bounds the run's memory. 0: by mode, 1 MiB for fix and
  /// 4 MiB for check (measured on a 1.2 MB file: fix takes some 30 times its
  /// size in texts, trees and findings, a check of its regions 15 times, a
  /// check parsed whole 27 times). Finished files that wait for an earlier
  /// one to be reported (their texts and findings) hold at most 16 times as
  /// many source bytes (16 MiB when 0).
  uint64_t MaxBytesInFlight = 0;
  /// check: keeps only the findings for which this returns true (those on
  /// lines changed since a git revision: `check --diff-base`); the others
  /// are neither reported nor counted. Called on the worker threads. Unset:
  /// every finding.
  std::function<bool(const SourceFile &, const Diagnostic &)> KeepFinding;
  /// Called on each file's report, in path order on the reporting thread,
  /// before it is counted and reported: may drop findings (`--baseline`).
  std::function<void(FileReport &)> Filter;

  static BatchOptions forTest() {
    BatchOptions O;
    O.Threads = 1;
    return O;
  }
};

/// Checks or fixes Paths (files, in the order to report them). Every path's
/// engine is resolved before any file is read, so that a configuration
/// error (returned as the error) stops the run before anything is reported;
/// files that their configuration excludes are skipped. Calls Out.file()
/// for each file in order and Out.finish() at the end, and returns the
/// Summary it passed (with each file's target, Project::targetFor()).
llvm::Expected<Summary> runBatch(Project &P, llvm::ArrayRef<std::string> Paths,
                                 const BatchOptions &Opts, Reporter &Out);

/// Checks or fixes one file already in memory (standard input, an editor
/// buffer); nothing is written. With Floor set (Target.floorBelowTarget()),
/// FileReport::FixesNeed says what the fixes need above it.
FileReport processBuffer(const Engine &E, SourceFile F, BatchMode Mode,
                         std::optional<TorchVersion> Floor = std::nullopt);

/// Adds R, checked or fixed with E under Target, to S.
void addToSummary(Summary &S, const FileReport &R, const Engine &E, const BatchOptions &Opts,
                  const TorchTarget &Target);

/// The newest release above Floor that the fixes of Findings (found by E)
/// need, with the first rule whose fix needs it; nullopt if none needs more
/// than Floor.
std::optional<FixNeed> fixesNeed(const Engine &E, llvm::ArrayRef<Diagnostic> Findings,
                                 TorchVersion Floor);
/// The same for the fixes of rules RuleIds (FixOutcome::AppliedRules).
std::optional<FixNeed> rulesFixesNeed(const Engine &E, llvm::ArrayRef<std::string> RuleIds,
                                      TorchVersion Floor);

} // namespace devport

#endif
