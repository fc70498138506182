//===--- NameWords.cpp - The words of an identifier -------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/NameWords.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

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

llvm::SmallVector<std::string, 8> nameWords(llvm::StringRef Name) {
  llvm::SmallVector<std::string, 8> Out;
  std::string W;
  auto Flush = [&] {
    if (!W.empty())
      Out.push_back(std::move(W));
    W.clear();
  };
  auto Upper = [](char C) { return C >= 'A' && C <= 'Z'; };
  auto Lower = [](char C) { return C >= 'a' && C <= 'z'; };
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (C == '_') {
      Flush();
      continue;
    }
    if (Upper(C) && I > 0 &&
        (Lower(Name[I - 1]) || llvm::isDigit(Name[I - 1]) ||
         (Upper(Name[I - 1]) && I + 1 < Name.size() && Lower(Name[I + 1]))))
      Flush();
    W += llvm::toLower(C);
  }
  Flush();
  return Out;
}

} // namespace devport
