//===--- EditApplier.cpp - Applying fixes to text -------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/EditApplier.h"

#include <algorithm>
#include <map>

namespace devport {

/// Edits sorted by range; false if any lies outside [0, Size] or two overlap.
static bool wellFormed(const Fix &X, size_t Size) {
  std::vector<const Edit *> Es;
  for (const Edit &E : X.Edits) {
    if (E.Range.Begin > E.Range.End || E.Range.End > Size)
      return false;
    Es.push_back(&E);
  }
  std::sort(Es.begin(), Es.end(), [](const Edit *A, const Edit *B) {
    return A->Range.Begin != B->Range.Begin ? A->Range.Begin < B->Range.Begin
                                            : A->Range.End < B->Range.End;
  });
  for (size_t I = 1; I < Es.size(); ++I)
    if (Es[I - 1]->Range.overlaps(Es[I]->Range) || Es[I - 1]->Range.End > Es[I]->Range.Begin)
      return false;
  return true;
}

ApplyResult applyFixes(llvm::StringRef Text, llvm::ArrayRef<const Fix *> Fixes) {
  ApplyResult R;
  // Outer fixes first: by span start, then by the longer span; ties by input order.
  std::vector<size_t> Order(Fixes.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::vector<ByteRange> Spans(Fixes.size());
  for (size_t I = 0; I < Fixes.size(); ++I)
    Spans[I] = Fixes[I]->span();
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Spans[A].Begin != Spans[B].Begin)
      return Spans[A].Begin < Spans[B].Begin;
    return Spans[A].End > Spans[B].End;
  });

  // Accepted edits, keyed by (begin, end) so that overlap checks are
  // logarithmic. Identical edits from several fixes are kept once.
  std::map<std::pair<uint32_t, uint32_t>, const Edit *> Taken;
  auto Conflicts = [&](const Edit &E, bool &Duplicate) {
    Duplicate = false;
    auto Key = std::make_pair(E.Range.Begin, E.Range.End);
    auto It = Taken.find(Key);
    if (It != Taken.end()) {
      if (It->second->Replacement == E.Replacement) {
        Duplicate = true;
        return false;
      }
      return true;
    }
    // Accepted edits are disjoint, so only the last one starting before E and
    // those starting inside E can overlap it.
    auto Next = Taken.lower_bound(Key);
    if (Next != Taken.begin()) {
      auto Prev = std::prev(Next);
      if (Prev->second->Range.overlaps(E.Range))
        return true;
    }
    for (auto N = Next; N != Taken.end() && N->first.first <= E.Range.End; ++N) {
      if (N->second->Range.overlaps(E.Range))
        return true;
    }
    return false;
  };

  std::vector<bool> Applied(Fixes.size(), false);
  for (size_t I : Order) {
    const Fix &X = *Fixes[I];
    if (X.Edits.empty() || !wellFormed(X, Text.size())) {
      continue;
    }
    bool Clash = false;
    std::vector<const Edit *> New;
    for (const Edit &E : X.Edits) {
      bool Dup = false;
      if (Conflicts(E, Dup)) {
        Clash = true;
        break;
      }
      if (!Dup)
        New.push_back(&E);
    }
    if (Clash)
      continue;
    for (const Edit *E : New)
      Taken[{E->Range.Begin, E->Range.End}] = E;
    Applied[I] = true;
  }
  for (size_t I = 0; I < Fixes.size(); ++I)
    (Applied[I] ? R.Applied : R.Skipped).push_back(I);

  // Apply in order. An insertion at the same offset as a replacement's start
  // goes first (the map orders (o, o) before (o, e)).
  R.Text.reserve(Text.size());
  uint32_t Pos = 0;
  for (const auto &Entry : Taken) {
    const Edit &E = *Entry.second;
    R.Text.append(Text.data() + Pos, E.Range.Begin - Pos);
    R.Text += E.Replacement;
    Pos = E.Range.End;
  }
  R.Text.append(Text.data() + Pos, Text.size() - Pos);
  return R;
}

} // namespace devport
