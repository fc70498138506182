//===--- EditApplier.cpp - Applying fixes to text -------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/EditApplier.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <numeric>
#include <utility>

namespace devport {
namespace {

/// True if every edit of X lies inside [0, Size] and no two of them overlap
/// (ByteRange::overlaps, so two insertions at one offset overlap too).
bool wellFormed(const Fix &X, size_t Size) {
  std::vector<ByteRange> Rs;
  Rs.reserve(X.Edits.size());
  for (const Edit &E : X.Edits) {
    if (E.Range.Begin > E.Range.End || E.Range.End > Size)
      return false;
    Rs.push_back(E.Range);
  }
  std::sort(Rs.begin(), Rs.end(), [](ByteRange A, ByteRange B) {
    return A.Begin != B.Begin ? A.Begin < B.Begin : A.End < B.End;
  });
  for (size_t I = 1; I < Rs.size(); ++I)
    if (Rs[I - 1].overlaps(Rs[I]) || Rs[I - 1].End > Rs[I].Begin)
      return false;
  return true;
}

/// The edits accepted so far, disjoint in the sense of ByteRange::overlaps,
/// ordered by (Begin, End): an insertion sorts before a replacement that
/// starts at its offset, which is also the order they are applied in.
class AcceptedEdits {
public:
  using Key = std::pair<uint32_t, uint32_t>;

  enum class Verdict { Free, Duplicate, Conflict };

  /// Whether E can join: Free, Duplicate (the same range and text is already
  /// in; nothing to add) or Conflict. O(log n).
  Verdict check(const Edit &E) const {
    Key K{E.Range.Begin, E.Range.End};
    auto Same = Edits.find(K);
    if (Same != Edits.end())
      return Same->second->Replacement == E.Replacement ? Verdict::Duplicate : Verdict::Conflict;
    // The accepted edits are disjoint, so of those ordered before E only the
    // last can reach into it, and of those after it only the few starting
    // at or before E's end (an insertion at E's end, a range starting there,
    // or one starting inside E, which conflicts at once).
    auto Next = Edits.lower_bound(K);
    if (Next != Edits.begin() && std::prev(Next)->second->Range.overlaps(E.Range))
      return Verdict::Conflict;
    for (auto It = Next; It != Edits.end() && It->first.first <= E.Range.End; ++It)
      if (It->second->Range.overlaps(E.Range))
        return Verdict::Conflict;
    return Verdict::Free;
  }

  void add(const Edit &E) { Edits.emplace(Key{E.Range.Begin, E.Range.End}, &E); }

  /// Text with every accepted edit applied; other bytes are copied as they are.
  std::string apply(llvm::StringRef Text) const {
    std::string Out;
    Out.reserve(Text.size());
    uint32_t Pos = 0;
    for (const auto &Entry : Edits) {
      const Edit &E = *Entry.second;
      Out.append(Text.data() + Pos, E.Range.Begin - Pos);
      Out += E.Replacement;
      Pos = E.Range.End;
    }
    Out.append(Text.data() + Pos, Text.size() - Pos);
    return Out;
  }

private:
  std::map<Key, const Edit *> Edits;
};

} // namespace

ApplyResult applyFixes(llvm::StringRef Text, llvm::ArrayRef<const Fix *> Fixes) {
  // Outer fixes first: by span start, then the longer span; ties keep the
  // input order (so of two different insertions at one offset the first
  // fix wins).
  std::vector<ByteRange> Spans(Fixes.size());
  for (size_t I = 0; I < Fixes.size(); ++I)
    Spans[I] = Fixes[I]->span();
  std::vector<size_t> Order(Fixes.size());
  std::iota(Order.begin(), Order.end(), size_t(0));
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Spans[A].Begin != Spans[B].Begin)
      return Spans[A].Begin < Spans[B].Begin;
    return Spans[A].End > Spans[B].End;
  });

  AcceptedEdits Accepted;
  std::vector<bool> Applied(Fixes.size(), false);
  std::vector<const Edit *> New;
  for (size_t I : Order) {
    const Fix &X = *Fixes[I];
    if (X.Edits.empty() || !wellFormed(X, Text.size()))
      continue; // nothing to apply, or invalid
    New.clear();
    bool Clash = false;
    for (const Edit &E : X.Edits) {
      AcceptedEdits::Verdict V = Accepted.check(E);
      if (V == AcceptedEdits::Verdict::Conflict) {
        Clash = true;
        break;
      }
      if (V == AcceptedEdits::Verdict::Free)
        New.push_back(&E);
    }
    if (Clash)
      continue;
    for (const Edit *E : New)
      Accepted.add(*E);
    Applied[I] = true;
  }

  ApplyResult R;
  for (size_t I = 0; I < Fixes.size(); ++I)
    (Applied[I] ? R.Applied : R.Skipped).push_back(I);
  R.Text = Accepted.apply(Text);
  return R;
}

std::optional<std::string> textWithin(llvm::StringRef Text, ByteRange R, const Fix &X) {
  std::string Out;
  uint32_t Pos = R.Begin;
  for (const Edit &E : X.Edits) {
    if (R.contains(E.Range) && E.Range.Begin >= Pos) {
      Out += Text.slice(Pos, E.Range.Begin).str() + E.Replacement;
      Pos = E.Range.End;
    } else if (E.Role != EditRole::AddImport) {
      return std::nullopt;
    }
  }
  Out += Text.slice(Pos, R.End).str();
  return Out;
}

bool editsTouch(llvm::ArrayRef<Edit> Edits, llvm::ArrayRef<ByteRange> Ranges) {
  for (const Edit &E : Edits) {
    auto C = std::lower_bound(Ranges.begin(), Ranges.end(), E.Range.Begin,
                              [](const ByteRange &A, uint32_t Off) { return A.Begin < Off; });
    if (C != Ranges.end() && C->Begin < E.Range.End)
      return true;
  }
  return false;
}

} // namespace devport
