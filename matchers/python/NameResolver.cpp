//===--- NameResolver.cpp - Imports and aliases to qualified names --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/NameResolver.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace devport::python {

/// The text of a dotted_name with any whitespace or comments between its
/// parts dropped (`torch . cuda` -> `torch.cuda`). One with a syntax error
/// in it (`torch.=testing`) keeps its text, which names no module: Python
/// imports nothing there, and neither do the regions (Regions.cpp), which
/// read the import's tokens.
static std::string dottedText(TSNode N, llvm::StringRef Src) {
  const Grammar &G = Grammar::get();
  if (ts_node_symbol(N) != G.DottedName || ts_node_has_error(N))
    return textOf(N, Src).str();
  std::string Out;
  forEachChild(N, [&](TSNode C) {
    if (ts_node_symbol(C) != G.Identifier)
      return;
    if (!Out.empty())
      Out += '.';
    Out += textOf(C, Src).str();
  });
  return Out;
}

bool NameResolver::opensScope(TSNode N, bool &IsClass) {
  const Grammar &G = Grammar::get();
  TSSymbol S = ts_node_symbol(N);
  IsClass = S == G.ClassDefinition;
  return S == G.Module || S == G.FunctionDefinition || S == G.Lambda || IsClass;
}

/// Fn(C) for each child C of N, from Index where it has N's children.
template <typename F> static void eachChild(const NodeIndex *Index, TSNode N, F &&Fn) {
  if (const ChildIndex *C = Index ? Index->childrenOf(N) : nullptr) {
    for (TSNode X : C->Children)
      Fn(X);
    return;
  }
  forEachChild(N, Fn);
}

NameResolver::NameResolver(TSNode Root, const NodeIndex *Index, llvm::StringRef Src) : Src(Src) {
  const Grammar &G = Grammar::get();
  // Where a new import goes: after the docstring, comments and __future__
  // imports at the very top of the module.
  uint32_t After = 0;
  bool SawDocstring = false;
  TSTreeCursor Cur = ts_tree_cursor_new(Root);
  for (bool More = ts_tree_cursor_goto_first_child(&Cur); More;
       More = ts_tree_cursor_goto_next_sibling(&Cur)) {
    TSNode C = ts_tree_cursor_current_node(&Cur);
    TSSymbol S = ts_node_symbol(C);
    // The module docstring, after a shebang or licence comments too; only
    // comments and __future__ imports come before it.
    if (S == G.Comment || S == G.FutureImportStatement ||
        (S == G.ExpressionStatement && !SawDocstring && ts_node_named_child_count(C) == 1 &&
         ts_node_symbol(ts_node_named_child(C, 0)) == G.String)) {
      After = ts_node_end_byte(C);
      SawDocstring |= S == G.ExpressionStatement;
      continue;
    }
    break;
  }
  ts_tree_cursor_delete(&Cur);
  // Move to the start of the next line.
  if (After > 0) {
    size_t NL = Src.find_first_of("\r\n", After);
    if (NL == llvm::StringRef::npos) {
      After = static_cast<uint32_t>(Src.size());
    } else {
      After = static_cast<uint32_t>(NL + 1);
      if (Src[NL] == '\r' && NL + 1 < Src.size() && Src[NL + 1] == '\n')
        After = static_cast<uint32_t>(NL + 2);
    }
  }
  // Never in front of a UTF-8 byte order mark.
  if (After < 3 && Src.startswith("\xEF\xBB\xBF"))
    After = 3;
  InsertAt = After;
  collect(Root, Root.id, Index);
}

void NameResolver::collect(TSNode Root, const void *RootScope, const NodeIndex *Index) {
  // Every import statement spells `import`: a statement whose text has none
  // holds no import, and is not read (reading every statement of a large
  // file was a fifth of the language server's work per edit).
  std::vector<uint32_t> ImportWords;
  for (size_t At = findWord(Src, "import"); At != llvm::StringRef::npos;
       At = findWord(Src, "import", At + 1))
    ImportWords.push_back(static_cast<uint32_t>(At));
  // `torch = pytest.importorskip("torch")`, `importlib.import_module(...)`:
  // imports by a call (addImportCall()).
  bool Calls = false;
  for (llvm::StringRef W : {"importorskip", "import_module"})
    for (size_t At = findWord(Src, W); At != llvm::StringRef::npos; At = findWord(Src, W, At + 1)) {
      ImportWords.push_back(static_cast<uint32_t>(At));
      Calls = true;
    }
  if (ImportWords.empty())
    return;
  if (Calls)
    std::sort(ImportWords.begin(), ImportWords.end());
  auto MayHoldImport = [&](TSNode N) {
    auto It = std::lower_bound(ImportWords.begin(), ImportWords.end(), ts_node_start_byte(N));
    return It != ImportWords.end() && *It < ts_node_end_byte(N);
  };
  // Iterative over the statement structure: nesting can be arbitrarily deep.
  const Grammar &G = Grammar::get();
  // A node, the scope it is in, and the hash of that scope's kinds from the
  // module down.
  struct Item {
    TSNode N;
    const void *ScopeId;
    uint64_t Path;
  };
  std::vector<Item> Work{{Root, RootScope, llvm::hash_value(llvm::StringRef("module"))}};
  while (!Work.empty()) {
    Item It = Work.back();
    Work.pop_back();
    TSNode N = It.N;
    const void *ScopeId = It.ScopeId;
    uint64_t Path = It.Path;
    std::vector<Item> Children;
    eachChild(Index, N, [&](TSNode C) {
      if (!ts_node_is_named(C) || !MayHoldImport(C))
        return;
      TSSymbol S = ts_node_symbol(C);
      if (S == G.ImportStatement) {
        addImport(C, ScopeId, Path);
      } else if (S == G.ImportFromStatement) {
        addFromImport(C, ScopeId, Path);
      } else if (S == G.ExpressionStatement) {
        addImportCall(C, ScopeId, Path);
      } else if (S == G.FunctionDefinition || S == G.ClassDefinition) {
        Children.push_back({C, C.id, llvm::hash_combine(Path, S)}); // a new scope
      } else if (S == G.Block || S == G.DecoratedDefinition || S == G.IfStatement ||
                 S == G.TryStatement || S == G.WithStatement || S == G.ForStatement ||
                 S == G.WhileStatement || S == G.ElseClause || S == G.ElifClause ||
                 S == G.ExceptClause || S == G.FinallyClause || S == G.MatchStatement ||
                 S == G.CaseClause || S == G.Error) {
        Children.push_back({C, ScopeId, Path}); // statements nested in the same scope
      }
    });
    // Keep document order: a later import of the same name is seen later.
    Work.insert(Work.end(), Children.rbegin(), Children.rend());
  }
}

/// Binds Name in Map; a second import of the same name to another target
/// (`try: from torch.amp import X` / `except: from torch.cuda.amp import X`,
/// or version-gated branches) makes the name ambiguous: it resolves to
/// nothing, so no rule rewrites either spelling.
static void bindName(llvm::StringMap<Binding> &Map, llvm::StringRef Name, Binding B) {
  auto It = Map.find(Name);
  if (It == Map.end()) {
    Map[Name] = std::move(B);
    return;
  }
  if (It->second.Target != B.Target)
    It->second.Target = "<ambiguous>";
}

void NameResolver::bind(const void *ScopeId, uint64_t Path, llvm::StringRef Name, Binding B) {
  Fingerprint = llvm::hash_combine(Fingerprint, Path, Name, B.Target);
  bindName(ByScope[ScopeId], Name, std::move(B));
}

void NameResolver::addImport(TSNode Stmt, const void *ScopeId, uint64_t Path) {
  const Grammar &G = Grammar::get();
  forEachChild(Stmt, [&](TSNode C) {
    TSSymbol S = ts_node_symbol(C);
    if (S == G.DottedName) {
      // import a.b.c  binds a -> a
      std::string Full = dottedText(C, Src);
      std::string Root = Full.substr(0, Full.find('.'));
      bind(ScopeId, Path, Root, Binding{Root, rangeOf(Stmt)});
    } else if (S == G.AliasedImport) {
      // import a.b as c  binds c -> a.b
      TSNode Name = ts_node_child_by_field_id(C, G.FName);
      TSNode Alias = ts_node_child_by_field_id(C, G.FAlias);
      if (ts_node_is_null(Name) || ts_node_is_null(Alias))
        return;
      bind(ScopeId, Path, textOf(Alias, Src), Binding{dottedText(Name, Src), rangeOf(Stmt)});
    }
  });
}

void NameResolver::addFromImport(TSNode Stmt, const void *ScopeId, uint64_t Path) {
  const Grammar &G = Grammar::get();
  TSNode Module = ts_node_child_by_field_id(Stmt, G.FModuleName);
  if (ts_node_is_null(Module) || ts_node_symbol(Module) != G.DottedName)
    return; // relative import: nothing we can resolve
  std::string From = dottedText(Module, Src);
  forEachChild(Stmt, [&](TSNode C) {
    if (sameNode(C, Module))
      return;
    TSSymbol S = ts_node_symbol(C);
    if (S == G.DottedName) {
      std::string Name = dottedText(C, Src);
      bind(ScopeId, Path, Name, Binding{From + "." + Name, rangeOf(Stmt)});
    } else if (S == G.AliasedImport) {
      TSNode Name = ts_node_child_by_field_id(C, G.FName);
      TSNode Alias = ts_node_child_by_field_id(C, G.FAlias);
      if (ts_node_is_null(Name) || ts_node_is_null(Alias))
        return;
      bind(ScopeId, Path, textOf(Alias, Src),
           Binding{From + "." + dottedText(Name, Src), rangeOf(Stmt)});
    }
  });
}

void NameResolver::addImportCall(TSNode Stmt, const void *ScopeId, uint64_t Path) {
  // NAME = pytest.importorskip("M") (or importlib.import_module("M")), the
  // whole statement: NAME stands for M as after `import M as NAME`.
  const Grammar &G = Grammar::get();
  if (ts_node_named_child_count(Stmt) != 1)
    return;
  TSNode A = ts_node_named_child(Stmt, 0);
  if (ts_node_symbol(A) != G.Assignment)
    return;
  TSNode Left = ts_node_child_by_field_id(A, G.FLeft);
  TSNode Call = ts_node_child_by_field_name(A, "right", 5);
  if (ts_node_is_null(Left) || ts_node_symbol(Left) != G.Identifier || ts_node_is_null(Call) ||
      ts_node_symbol(Call) != G.Call)
    return;
  llvm::StringRef Callee = textOf(ts_node_child_by_field_id(Call, G.FFunction), Src);
  llvm::StringRef Last = Callee.rsplit('.').second.empty() ? Callee : Callee.rsplit('.').second;
  if (Last != "importorskip" && Last != "import_module")
    return;
  TSNode Args = ts_node_child_by_field_id(Call, G.FArguments);
  if (ts_node_is_null(Args) || ts_node_named_child_count(Args) == 0)
    return;
  TSNode First = ts_node_named_child(Args, 0);
  if (ts_node_symbol(First) != G.String)
    return;
  llvm::StringRef Module = textOf(First, Src);
  if (Module.size() < 2 || !(Module.front() == '"' || Module.front() == '\'') ||
      Module.back() != Module.front())
    return;
  Module = Module.drop_front().drop_back();
  if (Module.empty() ||
      !llvm::all_of(Module, [](char C) { return llvm::isAlnum(C) || C == '_' || C == '.'; }))
    return;
  bind(ScopeId, Path, textOf(Left, Src), Binding{Module.str(), rangeOf(Stmt)});
}

const Binding *NameResolver::lookup(llvm::StringRef Name, llvm::ArrayRef<Scope> Scopes) const {
  for (size_t I = Scopes.size(); I-- > 0;) {
    const Scope &S = Scopes[I];
    // Python skips enclosing class bodies when resolving names in nested scopes.
    if (S.IsClass && I + 1 != Scopes.size())
      continue;
    auto It = ByScope.find(S.Id);
    if (It == ByScope.end())
      continue;
    auto B = It->second.find(Name);
    if (B != It->second.end())
      return &B->second;
  }
  return nullptr;
}

std::string NameResolver::aliasFor(llvm::StringRef Target, llvm::ArrayRef<Scope> Scopes) const {
  std::string Best;
  for (size_t I = Scopes.size(); I-- > 0;) {
    auto It = ByScope.find(Scopes[I].Id);
    if (It == ByScope.end())
      continue;
    for (const auto &Entry : It->second) {
      if (Entry.second.Target != Target)
        continue;
      // Not shadowed by an inner binding of the same name.
      if (lookup(Entry.first(), Scopes) != &Entry.second)
        continue;
      if (Best.empty() || Entry.first() < Best)
        Best = Entry.first().str(); // deterministic among several
    }
    if (!Best.empty())
      return Best;
  }
  return Best;
}

std::optional<std::string> NameResolver::qualifiedName(TSNode Expr,
                                                       llvm::ArrayRef<Scope> Scopes) const {
  // Iterative: attribute chains can be arbitrarily long (`a.b.c....`).
  const Grammar &G = Grammar::get();
  llvm::SmallVector<llvm::StringRef, 8> Attrs;
  TSNode N = Expr;
  while (ts_node_symbol(N) == G.Attribute) {
    TSNode Obj = ts_node_child_by_field_id(N, G.FObject);
    TSNode Attr = ts_node_child_by_field_id(N, G.FAttribute);
    if (ts_node_is_null(Obj) || ts_node_is_null(Attr))
      return std::nullopt;
    Attrs.push_back(textOf(Attr, Src));
    N = Obj;
  }
  if (ts_node_symbol(N) != G.Identifier)
    return std::nullopt;
  llvm::StringRef Name = textOf(N, Src);
  std::string Out;
  if (const Binding *B = lookup(Name, Scopes))
    Out = B->Target;
  else
    Out = Name.str();
  for (size_t I = Attrs.size(); I-- > 0;)
    Out += "." + Attrs[I].str();
  return Out;
}

size_t NameResolver::size() const {
  size_t N = 0;
  for (const auto &Entry : ByScope)
    N += Entry.second.size();
  return N;
}

} // namespace devport::python
