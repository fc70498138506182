//===--- PythonMatcher.h - The Python rule set, compiled ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PythonMatcher compiles every Python rule of a RuleSet once into a dispatch
/// table keyed by node symbol and anchor name (the last segment of the called
/// or named qualified name), so that ONE traversal of a file's tree evaluates
/// all rules: each node looks up only the patterns that could match it. It
/// also offers the prefilter: a file that lacks the words some pattern needs
/// is never parsed. Immutable after compile(); match() is thread-safe.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_PYTHONMATCHER_H
#define DEVPORT_MATCHERS_PYTHON_PYTHONMATCHER_H

#include "core/LanguageBackend.h"
#include "core/LiteralSet.h"
#include "core/Rule.h"
#include "core/Where.h"
#include "matchers/python/NameResolver.h"
#include "matchers/python/Pattern.h"
#include "matchers/python/Regions.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <vector>

namespace devport::python {

/// The scopes around a match (module first), for name lookups when its fix
/// is built.
struct PythonMatchContext final : devport::MatchContext {
  std::vector<Scope> Scopes;
};

class PythonMatcher final : public CompiledRules {
public:
  /// Compiles the python rules of Rules (which must outlive the matcher).
  /// Fails with "file:line:col: reason" for each pattern that is not valid
  /// Python or does not satisfy its rule (e.g. a `where` on a metavariable
  /// that the pattern does not bind, or no literal for the prefilter), one
  /// per line.
  static llvm::Expected<std::unique_ptr<PythonMatcher>> compile(const RuleSet &Rules);

  /// A number that no other PythonMatcher of the process has: what a
  /// MatchRecord says it was made by.
  uint64_t serial() const { return Serial; }

  /// True if Text may hold a match: it contains every required word of at
  /// least one pattern. False means no rule can match: skip the parse.
  bool mayMatch(llvm::StringRef Text) const override;

  /// The statements of Text that some rule may need (matchers/python/Regions.h),
  /// the rest blanked. The anchors are chosen per file: of each pattern that
  /// can match (every required word is there), the word with the fewest
  /// occurrences.
  std::optional<RegionText> regionText(llvm::StringRef Path, llvm::StringRef Text) const override;
  std::optional<RegionText> regionMarks(llvm::StringRef Text) const override;

  /// The whole file, for each keep rule `@cuda-file`, where Path is a module
  /// that is CUDA by design (isCudaRoleModule(), or a `cuda-role-files`
  /// glob of the options given by setOptions()).
  std::vector<Match> pathMatches(llvm::StringRef Path, llvm::StringRef Text) const override;
  /// A module of the CUDA role is listed as kept (`--show-kept`) whatever
  /// its text holds, as a C++ file of the role is.
  bool prefilterFile(llvm::StringRef Path, llvm::StringRef Text,
                     std::optional<bool> &MentionsDevport) const override;
  void setOptions(const BackendOptions &O);

  /// Runs every rule over a PythonParsedFile in one traversal; also collects
  /// the comments, the `devport:` directives and the doctests.
  MatchResults match(const ParsedFile &P) const override;

  /// The same over the tree rooted at Root. With Marks (RegionText::Marks),
  /// a subtree that holds none of its offsets is not visited, and the
  /// comments are its comments.
  MatchResults match(TSNode Root, llvm::StringRef Src, const NameResolver &Resolver,
                     const MatchMarks *Marks = nullptr) const;

private:
  PythonMatcher();
  const uint64_t Serial;
  class Walk;
  struct Compiled {
    const Rule *R;
    size_t PatternIndex;
    Pattern P;
    size_t Order; ///< Position in rule order, for stable output.
    /// Literals that a node's text must hold for the pattern to match it,
    /// which is cheaper to see than a structural match (`$X == $S` with
    /// `$S` a "cuda" string, tried at every comparison): the pattern's own
    /// keyword and attribute names and strings, and what `where` regexes
    /// require of what its metavariables bind; as indexes in NodeWordTable.
    std::vector<unsigned> NodeWords = {};
    /// Groups of them of which the text must hold one: a `where` regex's
    /// required alternatives (requiredAlternatives(): `(CUDA|GPU)`) where it
    /// requires no single literal.
    std::vector<std::vector<unsigned>> NodeAnyOf = {};
    std::vector<unsigned> WordIds = {}; ///< P.RequiredWords in Literals.
    /// The rule's `where` entries (WhereConstraints::of()); null: none.
    const llvm::StringMap<WhereConstraints::Constraint> *Where = nullptr;
  };
  struct Slot {
    llvm::StringMap<std::vector<const Compiled *>> ByAnchor;
    llvm::StringMap<std::vector<const Compiled *>> ByObject; ///< Pattern::ObjectAnchor.
    std::vector<const Compiled *> Any;
    bool empty() const { return ByAnchor.empty() && ByObject.empty() && Any.empty(); }
  };

  /// The last segment of what N (an attribute, or a call of one) takes an
  /// attribute of, resolved through imports: `cudnn` for
  /// `torch.backends.cudnn.benchmark`; "" for anything else.
  std::string objectAnchorOf(TSNode N, llvm::StringRef Src, const NameResolver &Resolver,
                             llvm::ArrayRef<Scope> Scopes) const;
  std::string anchorOf(TSNode N, llvm::StringRef Src, const NameResolver &Resolver,
                       llvm::ArrayRef<Scope> Scopes) const;

  std::vector<std::unique_ptr<Compiled>> Patterns;
  /// The words of every pattern's NodeWords and NodeAnyOf, once each.
  std::vector<std::string> NodeWordTable;
  LiteralSet Literals; ///< Every pattern's RequiredWords, and Directive.
  WordRequirements Needs; ///< Each pattern's WordIds, for mayMatch().
  /// `devport:`, a word of Literals: a doctest with a directive is checked
  /// even where no rule can match, so its string is always kept.
  unsigned Directive = 0;
  /// regionText() and regionMarks().
  std::optional<RegionText> regions(llvm::StringRef Text, bool MarksOnly) const;
  RegionRules Regions; ///< What regionText() needs beside the words.
  std::vector<Slot> Table; ///< Indexed by TSSymbol.
  WhereConstraints Constraints;
  std::vector<const Rule *> CudaFileRules; ///< Keep rules whose pattern is `@cuda-file`.
  BackendOptions Opts;                     ///< Its `cuda-role-files` globs.
};

/// Whether the Python module at Path is CUDA by design: a directory in its
/// path is `cuda`, `cudnn` or `nccl` (`torch/cuda/`, `torch/backends/cudnn/`),
/// or its name has `cuda`, `cudnn`, `nccl`, `cublas`, `cusparse` or `cufft`
/// as a word separated by `_` or `-` (`cuda.py`, `cuda_accelerator.py`,
/// `test_c10d_nccl.py`), any case; not `cudagraphs.py`, nor `use_cuda` as a
/// name inside.
bool isCudaRoleModule(llvm::StringRef Path);

} // namespace devport::python

#endif
