//===--- Imports.h - Which imported names a file uses ---------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the `from M import a, b as c` statements of a file and counts how
/// often each imported name is used, so that the engine can remove an import
/// that its fixes left unused (`from torch.cuda import synchronize` after
/// every `synchronize()` became `torch.accelerator.synchronize()`).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_IMPORTS_H
#define DEVPORT_MATCHERS_PYTHON_IMPORTS_H

#include "matchers/python/Syntax.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace devport::python {

/// One imported name of a `from ... import ...` statement.
struct ImportedName {
  std::string Module; ///< "torch.cuda"
  std::string Name;   ///< The name it binds ("c" for `b as c`).
  ByteRange Item;     ///< `b as c` within the statement.
  ByteRange Statement;
  unsigned ItemsInStatement = 0;
};

struct ImportUse {
  std::vector<ImportedName> Imports;
  /// Identifier uses outside import statements, attribute names and
  /// keyword-argument names, by name.
  llvm::StringMap<unsigned> Uses;
};

/// The module whose `from ... import` items the fixes' clean-up removes once
/// unused (PythonBackend's unusedImportEdits): its submodules too.
inline constexpr llvm::StringLiteral CleanedImportModule = "torch.cuda";

/// The `from` imports of modules whose name starts with ModulePrefix, and,
/// with Uses, the uses of every name in the file.
ImportUse collectImportUse(TSNode Root, llvm::StringRef Src, llvm::StringRef ModulePrefix,
                           bool Uses = true);

} // namespace devport::python

#endif
