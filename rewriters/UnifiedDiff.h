//===--- UnifiedDiff.h - Unified diffs ------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Renders the difference between two texts as a unified diff (`diff -u`,
/// `git apply` and `patch -p0` accept it).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REWRITERS_UNIFIEDDIFF_H
#define DEVPORT_REWRITERS_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace devport {

/// "--- OldName\n+++ NewName\n@@ -a,b +c,d @@\n..." with Context lines around
/// each change; "" when the texts are equal. Names are written as git writes
/// them, so that `patch -p0` and `git apply -p0` find the files: a name with
/// a control character, `"` or `\` in double quotes with C escapes
/// (`"a\tb.py"`), and one with a space followed by a tab. Lines keep their own endings (a
/// CRLF line stays CRLF); a last line without a newline is followed by
/// "\ No newline at end of file".
std::string unifiedDiff(llvm::StringRef OldName, llvm::StringRef NewName,
                        llvm::StringRef Old, llvm::StringRef New, unsigned Context = 3);

} // namespace devport

#endif
