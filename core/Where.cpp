//===--- Where.cpp - A rule set's `where` constraints, compiled -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Where.h"

#include "core/Metavariable.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <string>
#include <vector>

namespace devport {

std::string regexComplexityProblem(llvm::StringRef Re) {
  if (Re.size() > 1000)
    return "longer than 1000 bytes";
  // Sizes of the open groups; each ends with the size of its last atom so
  // that a quantifier can multiply it.
  struct Group {
    uint64_t Size = 0; ///< Of the atoms so far (alternatives add up).
    uint64_t Last = 0; ///< Of the last atom.
  };
  std::vector<Group> Stack(1);
  auto Add = [&](uint64_t N) {
    Stack.back().Size += N;
    Stack.back().Last = N;
  };
  auto Cap = [](uint64_t N) { return std::min<uint64_t>(N, uint64_t(1) << 40); };
  for (size_t I = 0; I < Re.size(); ++I) {
    char C = Re[I];
    if (C == '\\') {
      ++I;
      Add(1);
    } else if (C == '[') {
      I = bracketExpressionEnd(Re, I); // a bracket expression is one atom
      Add(1);
    } else if (C == '(') {
      Stack.emplace_back();
    } else if (C == ')') {
      if (Stack.size() > 1) {
        uint64_t N = Stack.back().Size;
        Stack.pop_back();
        Add(std::max<uint64_t>(N, 1));
      }
    } else if (C == '*' || C == '+' || C == '?') {
      Group &G = Stack.back();
      G.Size = Cap(G.Size + G.Last); // a copy at most
      G.Last *= 2;
    } else if (C == '{') {
      size_t E = Re.find('}', I);
      if (E == llvm::StringRef::npos) {
        Add(1);
        continue;
      }
      llvm::StringRef Body = Re.slice(I + 1, E);
      auto [Lo, Hi] = Body.split(',');
      uint64_t Count = 0, V;
      if (!Lo.trim().getAsInteger(10, V))
        Count = V;
      if (!Hi.trim().getAsInteger(10, V))
        Count = std::max(Count, V);
      Count = std::max<uint64_t>(Count, 1) + (Body.endswith(",") ? 1 : 0);
      Group &G = Stack.back();
      G.Size = Cap(G.Size - G.Last + Cap(G.Last * Count));
      G.Last = Cap(G.Last * Count);
      I = E;
    } else if (C == '|') {
      Stack.back().Last = 0;
    } else {
      Add(1);
    }
    if (Stack.back().Size > MaxRegexSize || Stack.back().Last > MaxRegexSize)
      return "its repetitions expand to more than " + std::to_string(MaxRegexSize) +
             " positions (nested counted repetition such as `(a{100}){100}`); simplify it";
  }
  return "";
}

namespace {

bool isRegexOperator(char C) { return llvm::StringRef(".[]()*+?{}|^$\\").contains(C); }

} // namespace

std::optional<std::vector<std::string>> exactWords(llvm::StringRef Re) {
  if (!Re.consume_front("^") || !Re.consume_back("$") || Re.endswith("\\"))
    return std::nullopt;
  // `^a|b$` is "starts with a or ends with b": alternatives only in a group.
  bool Group = Re.startswith("(") && Re.endswith(")");
  if (Group)
    Re = Re.drop_front().drop_back();
  std::vector<std::string> Words;
  llvm::SmallVector<llvm::StringRef, 16> Alts;
  if (Group)
    Re.split(Alts, '|');
  else
    Alts.push_back(Re);
  for (llvm::StringRef A : Alts) {
    if (llvm::any_of(A, isRegexOperator))
      return std::nullopt;
    Words.push_back(A.str());
  }
  return Words;
}

WhereConstraints::Test WhereConstraints::compile(const std::string &Re, bool WantGroups) {
  Test T;
  T.Re = std::make_unique<llvm::Regex>(Re);
  T.Needed = requiredLiteral(Re);
  if (!WantGroups) {
    if (std::optional<std::vector<std::string>> Words = exactWords(Re)) {
      T.Exact.emplace();
      for (const std::string &W : *Words)
        T.Exact->insert(W);
    }
    T.Plain = !Re.empty() && llvm::none_of(Re, isRegexOperator); // then Needed == Re
  }
  return T;
}

bool WhereConstraints::Test::matches(llvm::StringRef T,
                                     llvm::SmallVectorImpl<llvm::StringRef> *Groups) const {
  if (Exact)
    return Exact->contains(T);
  if (!Needed.empty() && !T.contains(Needed))
    return false;
  if (Plain)
    return true;
  return Re->match(T, Groups);
}

void WhereConstraints::add(const Rule &R, llvm::ArrayRef<std::string> Bound,
                           llvm::function_ref<void(const RuleLoc &, const std::string &)> Fail) {
  for (const auto &W : R.Where) {
    if (!llvm::is_contained(Bound, W.first)) {
      Fail(W.second.Loc, "`where` names $" + W.first + ", which no pattern binds");
      continue;
    }
    Constraint C;
    C.Captures = W.second.Captures;
    if (!W.second.Regex.empty())
      C.Must = compile(W.second.Regex, !C.Captures.empty());
    if (!W.second.NotRegex.empty())
      C.MustNot = compile(W.second.NotRegex, false);
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
    // Groups only when captures bind them: without, LLVM's engine skips
    // its slowest part.
    if (K.Must && !K.Must->matches(T, K.Captures.empty() ? nullptr : &Groups))
      return false;
    if (K.MustNot && K.MustNot->matches(T, nullptr))
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
