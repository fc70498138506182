//===--- TokenDiff.h - Edits that keep comments and layout ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns "replace Src[R] by Replacement" into the smallest edits at the level
/// of the language's tokens (the backend passes its tokenizer; Python's is
/// matchers/python/Tokenizer.h): tokens that both texts share (an LCS) stay where they
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

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace devport {

/// A token: an identifier, number, string literal or operator; offsets are
/// relative to the tokenized text. Whitespace, line continuations and
/// comments are trivia between tokens.
struct Token {
  uint32_t Begin, End;
};

/// Splits a text into tokens (as far as diffs need).
using Tokenizer = llvm::function_ref<std::vector<Token>(llvm::StringRef)>;

/// Edits, sorted and non-overlapping, all inside R, that turn Src[R] into
/// Replacement while keeping the trivia around unchanged tokens. Applying
/// them yields Replacement exactly wherever no trivia was kept; kept trivia
/// sits between the same tokens as before. Edits separated only by tokens
/// (no whitespace, comment start or line continuation between) are merged.
std::vector<Edit> tokenEdits(llvm::StringRef Src, ByteRange R, llvm::StringRef Replacement,
                             Tokenizer Tokenize);

} // namespace devport

#endif
