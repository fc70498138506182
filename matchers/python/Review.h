//===--- Review.h - Fixes judged by the code around them ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A rule's fix is written for the matched code alone; whether it is safe on
/// every host (docs/safety.md) can depend on the code around it. After every
/// finding of a file is diagnosed, reviewFixes() looks at each finding in its
/// context and lowers its applicability, with a note, where the context makes
/// the fix unsafe:
///
///  - Guards. A fix in the condition of an `if`/`elif`/`while`, of a
///    conditional expression, or in a `skip...` decorator widens what the
///    condition admits on other accelerators. It stays safe only if the code
///    it guards has no CUDA-only code left after the other findings' safe
///    fixes; it becomes unsafe if the unsafe fixes clear it, and loses its fix
///    otherwise. A guard of a per-backend ladder (`elif torch.backends.mps...`)
///    is already portable: the ladder and everything in it is kept.
///  - Evaluation context. A fix that puts `current_accelerator()` where it
///    runs at import or definition time (parameter defaults, `default=`
///    arguments, decorators, module and class level) is unsafe: on a CPU-only
///    build it raises there, where the string it replaces did not.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_REVIEW_H
#define DEVPORT_MATCHERS_PYTHON_REVIEW_H

#include "core/Diagnostic.h"
#include "matchers/python/NodeIndex.h"
#include "matchers/python/Syntax.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <vector>

namespace devport::python {

class NameResolver;

/// Reviews Findings (the file's own, in any order) of the tree that Index
/// indexes, over Text. Kept holds the keep rules' matches; a per-backend
/// ladder adds one. CustomDevice: what the fixes put code on where a project
/// says so (BackendOptions::customDevice()), which code ported already says;
/// Resolver: the file's imports, through which the review reads torch's names.
void reviewFixes(const NodeIndex &Index, llvm::StringRef Text, std::vector<Diagnostic> &Findings,
                 std::vector<Diagnostic> &Kept, llvm::ArrayRef<llvm::StringRef> CustomDevice = {},
                 const NameResolver *Resolver = nullptr);

/// Whether Code (a statement's text) may hold something that the review
/// looks for in the code a guard guards: a name or string about CUDA or
/// another backend, `"cpu"`, `float64`, `double`. Region parsing keeps such
/// statements of guarded code and may leave the others out (Regions.h).
/// Errs towards true: it reads words, not the syntax.
bool mentionsGuardedWord(llvm::StringRef Code);

/// Whether the module Dotted (`apex.normalization`) is of a library whose
/// code is CUDA-only: NVIDIA's apex, whose fused modules import its CUDA
/// extensions (`fused_layer_norm_cuda`) when built, which needs CUDA. The
/// names imported from it are CUDA code where guarded code uses them; region
/// parsing keeps the lines of guarded code that name them.
bool cudaLibraryModule(llvm::StringRef Dotted);

/// Whether Code (a condition, a decorator, a name) says that what it guards
/// or names needs CUDA or an accelerator: it names CUDA, a GPU, an
/// accelerator, NCCL, cuDNN or Triton, or asks for availability or a device
/// count (`not TEST_CUDA`, `torch.cuda.is_available()`, `HAS_GPU`,
/// `@deviceCountAtLeast(2)`), whatever the case and underscores. Not an
/// object named `accelerator` whose attribute it reads (HF accelerate's
/// `accelerator.is_main_process`, which holds in a CPU-only run too), but
/// `torch.accelerator`'s. The review takes a test under such a condition, or
/// after an early exit on one, for one that a CPU-only build skips; region
/// parsing keeps such conditions.
bool saysAccelerator(llvm::StringRef Code);

/// Whether the text of a check asks whether there is a device, or how many
/// (`torch.cuda.is_available()`, `torch.cuda.device_count() > 1`): what a
/// flag, a keyword or a guard's twin carries, and the condition of a
/// module-level `if` whose names region parsing follows.
inline bool asksForDevices(llvm::StringRef Check) {
  return Check.contains("is_available") || Check.contains("device_count");
}

/// Whether a method so named sets up a test class's tests, running before
/// each (`setUp`, `setUpClass`, `asyncSetUp`, `setup_method`,
/// `setup_class`): read as a test (Review.cpp, runsAsTest()).
inline bool setUpName(llvm::StringRef Name) {
  return Name == "setUp" || Name == "setUpClass" || Name == "asyncSetUp" ||
         Name == "setup_method" || Name == "setup_class";
}

/// Whether Statement (a statement's text) calls unittest's `assertTrue`
/// (`self.assertTrue(...)`, `assertTrue(...)`): a check in its first
/// argument guards what follows, as an `assert` does (Review.cpp, guardAt()).
inline bool assertTrueCall(llvm::StringRef Statement) {
  Statement = Statement.ltrim(" \t");
  Statement.consume_front("self.");
  return Statement.startswith("assertTrue(");
}

/// The keywords of a call that are the number of processes it starts:
/// `nprocs` (torch.multiprocessing's spawn and start_processes),
/// `nproc_per_node` (torch.distributed.run's launch configuration),
/// `num_processes` (accelerate's notebook_launcher), `world_size` (the
/// spawning helpers of test suites). A device count given as one guards the
/// rest of the call (Review.cpp, guardAt()).
constexpr llvm::StringLiteral ProcessCountKeywords[] = {"nprocs", "nproc_per_node", "num_processes",
                                                        "world_size"};

/// A module constant: a name in capitals, not `_`-private (`TEST_DEVICES`,
/// `DEVICE`), which other modules may import.
inline bool exportedName(llvm::StringRef Name) {
  return !Name.empty() && Name.front() != '_' && Name.upper() == Name.str() &&
         llvm::any_of(Name, [](char C) { return llvm::isAlpha(C); });
}

} // namespace devport::python

#endif
