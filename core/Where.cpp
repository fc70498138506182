//===--- Where.cpp - A rule set's `where` constraints, compiled -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Where.h"

#include "llvm/ADT/STLExtras.h"

namespace devport {

void WhereConstraints::add(const Rule &R, llvm::ArrayRef<std::string> Bound,
                           llvm::function_ref<void(const RuleLoc &, const std::string &)> Fail) {
  for (const auto &W : R.Where) {
    if (!llvm::is_contained(Bound, W.first)) {
      Fail(W.second.Loc, "`where` names $" + W.first + ", which no pattern binds");
      continue;
    }
    Constraint C;
    if (!W.second.Regex.empty())
      C.Must = std::make_unique<llvm::Regex>(W.second.Regex);
    if (!W.second.NotRegex.empty())
      C.MustNot = std::make_unique<llvm::Regex>(W.second.NotRegex);
    C.Captures = W.second.Captures;
    ByRule[R.Id][W.first] = std::move(C);
  }
}

bool WhereConstraints::hold(const Rule &R, llvm::SmallVectorImpl<BoundVar> &B,
                            llvm::StringRef Src) const {
  auto It = ByRule.find(R.Id);
  if (It == ByRule.end())
    return true;
  size_t Bound = B.size();
  for (size_t I = 0; I < Bound; ++I) {
    auto CIt = It->second.find(B[I].Name);
    if (CIt == It->second.end())
      continue;
    const Constraint &K = CIt->second;
    llvm::StringRef T = Src.slice(B[I].Range.Begin, B[I].Range.End);
    llvm::SmallVector<llvm::StringRef, 4> Groups;
    if (K.Must && !K.Must->match(T, &Groups))
      return false;
    if (K.MustNot && K.MustNot->match(T))
      return false;
    for (size_t G = 0; G < K.Captures.size() && G + 1 < Groups.size(); ++G) {
      llvm::StringRef Sub = Groups[G + 1];
      uint32_t Begin =
          Sub.data() ? static_cast<uint32_t>(Sub.data() - Src.data()) : B[I].Range.Begin;
      B.push_back({K.Captures[G], {Begin, Begin + static_cast<uint32_t>(Sub.size())}});
    }
  }
  return true;
}

} // namespace devport
