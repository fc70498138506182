//===--- Doctest.h - The code of a docstring's doctests -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Extracts the `>>> ` and `... ` lines of a docstring as Python code, one
/// line of code per line, with the map back to the file, so that the engine
/// checks doctests with the same rules as code (core/LanguageBackend.h,
/// EmbeddedCode).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_DOCTEST_H
#define DEVPORT_MATCHERS_PYTHON_DOCTEST_H

#include "core/LanguageBackend.h"

#include "llvm/ADT/StringRef.h"

namespace devport::python {

/// The doctest code of the string literal at Range of Text ("doctest"). A
/// prompt line holding a backslash is skipped (the file and the string
/// disagree on escapes); no segments when there is no prompt line.
EmbeddedCode extractDoctest(llvm::StringRef Text, ByteRange Range);

} // namespace devport::python

#endif
