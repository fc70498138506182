//===--- NameWords.cpp - The words of an identifier -------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/NameWords.h"

#include "llvm/ADT/STLExtras.h"

namespace devport {

bool hasNameWord(llvm::StringRef Name, llvm::ArrayRef<llvm::StringLiteral> Words) {
  size_t B = 0;
  for (size_t I = 0; I <= Name.size(); ++I) {
    bool Upper = I < Name.size() && Name[I] >= 'A' && Name[I] <= 'Z';
    bool AfterLower = I > 0 && Name[I - 1] >= 'a' && Name[I - 1] <= 'z';
    if (I < Name.size() && Name[I] != '_' && !(Upper && AfterLower))
      continue;
    llvm::StringRef W = Name.slice(B, I);
    if (llvm::any_of(Words, [&](llvm::StringRef X) { return W.equals_insensitive(X); }))
      return true;
    B = I < Name.size() && Name[I] == '_' ? I + 1 : I;
  }
  return false;
}

} // namespace devport
