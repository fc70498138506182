//===--- Tokenizer.h - Python tokens for token-level edits ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A rough Python tokenizer, enough for rewriters/TokenDiff.h to align the
/// tokens of a match with those of its replacement: identifiers, numbers,
/// string literals with their prefix and quotes, and single operator
/// characters. Whitespace, line continuations and comments are trivia.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_TOKENIZER_H
#define DEVPORT_MATCHERS_PYTHON_TOKENIZER_H

#include "rewriters/TokenDiff.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace devport::python {

/// Tokenizes Text; offsets are relative to it. Never fails: an unterminated
/// string ends at its line's end.
std::vector<Token> tokenize(llvm::StringRef Text);

} // namespace devport::python

#endif
