//===--- NameResolver.h - Imports and aliases to qualified names ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Resolves the names of a Python file to the qualified names they import:
/// after `import torch.cuda as tc`, `tc.device_count` is
/// `torch.cuda.device_count`; after `from torch.cuda import synchronize as s`
/// inside a function, `s` is `torch.cuda.synchronize` in that function only.
/// Handles `import a.b`, `import a.b as c`, `from a.b import c`,
/// `from a.b import c as d`, at module, class and function scope (an import
/// in a class body is visible in that body only, as in Python), and imports
/// by a call that a name is assigned, `torch = pytest.importorskip("torch")`
/// and `importlib.import_module("M")`. Relative and star imports bind nothing
/// resolvable; assignments and parameters that shadow an imported name are not
/// tracked.
///
/// Built once per tree by a pre-pass that visits statements only, never
/// expressions. The matcher resolves names during its single traversal, giving
/// the chain of enclosing scopes that it maintains.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_NAMERESOLVER_H
#define DEVPORT_MATCHERS_PYTHON_NAMERESOLVER_H

#include "matchers/python/NodeIndex.h"
#include "matchers/python/Syntax.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace devport::python {

/// What one imported name stands for.
struct Binding {
  std::string Target;  ///< Qualified name, e.g. "torch.cuda.synchronize".
  ByteRange Statement; ///< The import statement that made it.
};

/// A scope: the module, a function or lambda, or a class body.
struct Scope {
  const void *Id = nullptr; ///< The scope node's id (TSNode::id).
  bool IsClass = false;
};

class NameResolver {
public:
  /// Collects the imports of the tree rooted at Root (a module).
  NameResolver(TSNode Root, llvm::StringRef Src) : NameResolver(Root, nullptr, Src) {}
  /// The same, reading the children of wide nodes from Index (whose root is
  /// the module), which the parse's other readers share.
  NameResolver(const NodeIndex &Index, llvm::StringRef Src)
      : NameResolver(Index.root(), &Index, Src) {}

  /// The binding of Name visible from the innermost scope of Scopes (outermost
  /// first, the module at index 0); class scopes other than the innermost are
  /// skipped, as Python does. Null if no import binds Name.
  const Binding *lookup(llvm::StringRef Name, llvm::ArrayRef<Scope> Scopes) const;

  /// A name visible from Scopes that is bound to Target (`dist` after
  /// `import torch.distributed as dist`), or "" if there is none.
  std::string aliasFor(llvm::StringRef Target, llvm::ArrayRef<Scope> Scopes) const;

  /// The qualified name of an identifier or of an attribute chain of
  /// identifiers (`a.b.c`), with its root resolved through the imports; an
  /// unbound root stands for itself. nullopt for any other node.
  std::optional<std::string> qualifiedName(TSNode Expr, llvm::ArrayRef<Scope> Scopes) const;

  /// Whether N opens a scope (module, function, lambda, class).
  static bool opensScope(TSNode N, bool &IsClass);

  /// Offset where a new module-level `import` line goes: after a module
  /// docstring, leading comments and `from __future__` imports, at the start
  /// of a line.
  uint32_t importInsertionOffset() const { return InsertAt; }

  /// Number of bindings (for tests).
  size_t size() const;

  /// A hash of every binding made, in document order, with the kinds of the
  /// scopes it is nested in (module, class, function): two parses with the
  /// same fingerprint resolve every name of code outside their differences
  /// alike (the language server's incremental match relies on it).
  uint64_t fingerprint() const { return Fingerprint; }

private:
  NameResolver(TSNode Root, const NodeIndex *Index, llvm::StringRef Src);
  void collect(TSNode N, const void *ScopeId, const NodeIndex *Index);
  void addImport(TSNode Stmt, const void *ScopeId, uint64_t Path);
  void addFromImport(TSNode Stmt, const void *ScopeId, uint64_t Path);
  /// `NAME = pytest.importorskip("M")`, `NAME = importlib.import_module("M")`.
  void addImportCall(TSNode Stmt, const void *ScopeId, uint64_t Path);
  /// Binds Name to B in the scope ScopeId (whose kinds hash to Path).
  void bind(const void *ScopeId, uint64_t Path, llvm::StringRef Name, Binding B);

  llvm::StringRef Src;
  llvm::DenseMap<const void *, llvm::StringMap<Binding>> ByScope;
  uint32_t InsertAt = 0;
  uint64_t Fingerprint = 0;
};

} // namespace devport::python

#endif
