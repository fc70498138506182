//===--- TokenDiff.h - Edits that keep comments and layout ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns "replace Src[R] by Replacement" into the smallest edits at the level
/// of Python tokens: tokens that both texts share (an LCS) stay where they
/// are, with the whitespace, line breaks and comments around them, and only
/// runs of changed tokens are rewritten. So
///
///     torch.cuda.synchronize(  # wait
///         device=rank,
///     )
///
/// becomes `torch.accelerator.synchronize(  # wait\n    rank,\n)` instead of
/// losing the comment and the layout.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REWRITERS_TOKENDIFF_H
#define DEVPORT_REWRITERS_TOKENDIFF_H

#include "core/Fix.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace devport {

/// A token of Python source: an identifier, number, string literal (with its
/// prefix and quotes) or operator character. Whitespace, line continuations
/// and comments are trivia between tokens.
struct PyToken {
  uint32_t Begin, End;
};

/// Tokenizes Text (roughly, as far as diffs need); offsets are relative to it.
std::vector<PyToken> tokenizePython(llvm::StringRef Text);

/// Edits, sorted and non-overlapping, all inside R, that turn Src[R] into
/// Replacement while keeping the trivia around unchanged tokens. Applying
/// them yields Replacement exactly wherever no trivia was kept; kept trivia
/// sits between the same tokens as before.
std::vector<Edit> tokenEdits(llvm::StringRef Src, ByteRange R, llvm::StringRef Replacement);

} // namespace devport

#endif
