//===--- Imports.cpp - Which imported names a file uses -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Imports.h"

namespace devport::python {

ImportUse collectImportUse(TSNode Root, llvm::StringRef Src, llvm::StringRef ModulePrefix,
                           bool Uses) {
  const Grammar &G = Grammar::get();
  ImportUse Out;
  preorder(Root, [&](TSNode N, TSTreeCursor *Cur) {
    TSSymbol S = ts_node_symbol(N);
    if (S == G.ImportFromStatement) {
      TSNode Module = ts_node_child_by_field_id(N, G.FModuleName);
      llvm::StringRef M = ts_node_is_null(Module) ? "" : textOf(Module, Src);
      if (ts_node_symbol(Module) == G.DottedName &&
          (M == ModulePrefix || M.startswith(ModulePrefix.str() + "."))) {
        std::vector<ImportedName> Items;
        forEachChild(N, [&](TSNode C) {
          if (sameNode(C, Module))
            return;
          TSSymbol CS = ts_node_symbol(C);
          if (CS == G.DottedName)
            Items.push_back({M.str(), textOf(C, Src).str(), rangeOf(C), rangeOf(N), 0});
          else if (CS == G.AliasedImport) {
            TSNode Alias = ts_node_child_by_field_id(C, G.FAlias);
            if (!ts_node_is_null(Alias))
              Items.push_back({M.str(), textOf(Alias, Src).str(), rangeOf(C), rangeOf(N), 0});
          }
        });
        for (ImportedName &I : Items) {
          I.ItemsInStatement = static_cast<unsigned>(Items.size());
          Out.Imports.push_back(std::move(I));
        }
      }
      return false;
    }
    if (S == G.ImportStatement || S == G.FutureImportStatement)
      return false;
    if (S == G.Identifier && Uses) {
      TSFieldId F = ts_tree_cursor_current_field_id(Cur);
      if (F != G.FAttribute && F != G.FName)
        ++Out.Uses[textOf(N, Src)];
    }
    return true;
  });
  return Out;
}

} // namespace devport::python
