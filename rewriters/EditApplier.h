//===--- EditApplier.h - Applying fixes to text ---------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Chooses a set of non-overlapping fixes and applies them to a text. When two
/// fixes overlap, the outer one (whose span contains the other) wins; between
/// partially overlapping fixes the earlier one wins. Identical edits shared by
/// several fixes (e.g. the same `import torch` insertion) are applied once.
/// The engine calls this in a bounded loop until nothing changes, so the
/// fixes of inner matches are applied in a later round.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REWRITERS_EDITAPPLIER_H
#define DEVPORT_REWRITERS_EDITAPPLIER_H

#include "core/Fix.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace devport {

struct ApplyResult {
  std::string Text;                 ///< The text with the applied fixes.
  std::vector<size_t> Applied;      ///< Indices into the input, ascending.
  std::vector<size_t> Skipped;      ///< Overlapping (or invalid) fixes, ascending.
};

/// Applies a non-overlapping subset of Fixes to Text. A fix whose edits lie
/// outside Text or overlap each other is skipped. Bytes outside the applied
/// edits are copied unchanged.
ApplyResult applyFixes(llvm::StringRef Text, llvm::ArrayRef<const Fix *> Fixes);

/// The text of R in Text as X leaves it: X's edits inside R applied, in
/// order; AddImport edits elsewhere left out. Nullopt if another edit lies
/// outside R or overlaps the one before it (a fix that is not about R alone).
std::optional<std::string> textWithin(llvm::StringRef Text, ByteRange R, const Fix &X);

/// True if some edit replaces text where one of Ranges (sorted by Begin,
/// e.g. the file's comments) starts: applying it would remove that range's
/// start.
bool editsTouch(llvm::ArrayRef<Edit> Edits, llvm::ArrayRef<ByteRange> Ranges);

} // namespace devport

#endif
