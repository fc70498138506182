//===--- LiteralSet.cpp - Which of many words occur in a text, in one pass ===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/LiteralSet.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace devport {

namespace {

/// The first two bytes at P, as a key.
uint16_t twoBytes(const char *P) {
  return static_cast<uint16_t>((static_cast<unsigned char>(P[0]) << 8) |
                               static_cast<unsigned char>(P[1]));
}

/// The first four bytes at P, hashed to a key (Fibonacci hashing: the high
/// bits of the product).
uint16_t longKey(const char *P) {
  uint32_t X;
  std::memcpy(&X, P, 4);
  return static_cast<uint16_t>((X * 2654435761u) >> 16);
}

/// The two bytes at P in the machine's order (one load): the key of the
/// FirstTwo filter, whose keys are never read back as bytes.
uint16_t pairAt(const char *P) {
  uint16_t K;
  std::memcpy(&K, P, 2);
  return K;
}

bool test(const uint64_t *Bits, uint16_t K) { return (Bits[K >> 6] >> (K & 63)) & 1; }
void set(uint64_t *Bits, uint16_t K) { Bits[K >> 6] |= uint64_t(1) << (K & 63); }
void clear(uint64_t *Bits, uint16_t K) { Bits[K >> 6] &= ~(uint64_t(1) << (K & 63)); }

/// Calls Visit(At) for each position At before Last whose two bytes (by
/// pairAt()) are set in Pairs, in order, until it returns true; Data must
/// hold Last + 1 bytes. Sixteen positions are tested at a time without a
/// branch, the hits visited from a mask: a bit test and a branch per
/// position were most of a scan's time. Pairs has a byte per key (64 KiB,
/// of which text touches the lines of its common pairs): a load a position,
/// where a bit table took five instructions.
template <typename VisitFn>
void forEachCandidate(const uint8_t *Pairs, const char *Data, size_t Last, VisitFn Visit) {
  size_t At = 0;
  for (; At + 16 <= Last; At += 16) {
    uint32_t Mask = 0;
    for (uint32_t I = 0; I < 16; ++I)
      Mask |= static_cast<uint32_t>(Pairs[pairAt(Data + At + I)]) << I;
    for (; Mask; Mask &= Mask - 1)
      if (Visit(At + llvm::countTrailingZeros(Mask)))
        return;
  }
  for (; At < Last; ++At)
    if (Pairs[pairAt(Data + At)] && Visit(At))
      return;
}

} // namespace

unsigned LiteralSet::add(llvm::StringRef Word) {
  assert(!Word.empty() && "an empty word occurs everywhere");
  assert(FirstTwo.empty() && "add() after freeze()");
  for (unsigned I = 0; I < Words.size(); ++I)
    if (Words[I] == Word)
      return I;
  unsigned I = static_cast<unsigned>(Words.size());
  Words.push_back(Word.str());
  if (Word.size() == 1)
    OneByte.push_back(I);
  else if (Word.size() < 4)
    Short.ByKey.push_back({twoBytes(Word.data()), I});
  else
    Long.ByKey.push_back({longKey(Word.data()), I});
  return I;
}

void LiteralSet::Index::freeze() {
  std::sort(ByKey.begin(), ByKey.end());
  Start.assign(65537, 0);
  for (const auto &[Key, I] : ByKey)
    ++Start[Key + 1];
  for (size_t K = 1; K < Start.size(); ++K)
    Start[K] += Start[K - 1];
  Bits.assign(KeyWords, 0);
  for (const auto &[Key, I] : ByKey)
    set(Bits.data(), Key);
}

void LiteralSet::freeze() {
  Short.freeze();
  Long.freeze();
  FirstTwo.assign(65536, 0);
  for (const std::string &W : Words)
    if (W.size() >= 2)
      FirstTwo[pairAt(W.data())] = 1;
}

std::vector<bool> LiteralSet::scan(llvm::StringRef Text,
                                   llvm::function_ref<bool(unsigned)> OnFound) const {
  assert(!FirstTwo.empty() && "scan() before freeze()");
  std::vector<bool> Found(Words.size(), false);
  unsigned Left = static_cast<unsigned>(Words.size());
  for (unsigned I : OneByte)
    if (Text.contains(Words[I][0])) {
      Found[I] = true;
      --Left;
      if (OnFound && OnFound(I))
        return Found;
    }
  if (Left == 0 || Text.size() < 2)
    return Found;
  const char *Data = Text.data();
  size_t N = Text.size();
  // The keys that may still start a word not found yet: 8 KiB each, in L1,
  // where Start (256 KiB) is not; a key whose words are all found leaves its
  // index's bits (not FirstTwo: two bytes may start words of both indexes).
  uint64_t LiveShort[KeyWords], LiveLong[KeyWords];
  std::memcpy(LiveShort, Short.Bits.data(), sizeof(LiveShort));
  std::memcpy(LiveLong, Long.Bits.data(), sizeof(LiveLong));
  // Compares the words of key K of X at At; true when the scan is over.
  auto Try = [&](const Index &X, uint64_t *LiveX, uint16_t K, size_t At) {
    if (!test(LiveX, K))
      return false;
    bool KeyDone = true;
    for (uint32_t J = X.Start[K], E = X.Start[K + 1]; J < E; ++J) {
      unsigned I = X.ByKey[J].second;
      if (Found[I])
        continue;
      const std::string &W = Words[I];
      if (W.size() <= N - At && std::memcmp(Data + At, W.data(), W.size()) == 0) {
        Found[I] = true;
        if ((OnFound && OnFound(I)) || --Left == 0)
          return true;
      } else {
        KeyDone = false;
      }
    }
    if (KeyDone)
      clear(LiveX, K);
    return false;
  };
  forEachCandidate(FirstTwo.data(), Data, N - 1, [&](size_t At) {
    return Try(Short, LiveShort, twoBytes(Data + At), At) ||
           (At + 3 < N && Try(Long, LiveLong, longKey(Data + At), At));
  });
  return Found;
}

unsigned WordRequirements::add(llvm::ArrayRef<unsigned> AllOf,
                               llvm::ArrayRef<std::vector<unsigned>> AnyOf) {
  unsigned R = static_cast<unsigned>(Need.size());
  auto UseOf = [&](unsigned W, int Group) {
    if (Uses.size() <= W)
      Uses.resize(W + 1);
    Uses[W].push_back({R, Group});
  };
  std::vector<unsigned> All(AllOf.begin(), AllOf.end());
  std::sort(All.begin(), All.end());
  All.erase(std::unique(All.begin(), All.end()), All.end());
  for (unsigned W : All)
    UseOf(W, -1);
  for (const std::vector<unsigned> &G : AnyOf) {
    assert(!G.empty() && "an empty group is never met");
    std::vector<unsigned> Ws(G.begin(), G.end());
    std::sort(Ws.begin(), Ws.end());
    Ws.erase(std::unique(Ws.begin(), Ws.end()), Ws.end());
    for (unsigned W : Ws)
      UseOf(W, static_cast<int>(Groups));
    ++Groups;
  }
  Need.push_back(static_cast<unsigned>(All.size() + AnyOf.size()));
  AlwaysMet |= Need.back() == 0;
  return R;
}

bool WordRequirements::found(unsigned W, llvm::MutableArrayRef<unsigned> Left,
                             llvm::MutableArrayRef<uint8_t> GroupMet) const {
  if (W >= Uses.size())
    return false;
  for (const Use &U : Uses[W]) {
    if (U.Group >= 0) {
      if (GroupMet[U.Group])
        continue;
      GroupMet[U.Group] = true;
    }
    if (--Left[U.Requirement] == 0)
      return true;
  }
  return false;
}

bool WordRequirements::metBy(llvm::ArrayRef<unsigned> Words) const {
  if (AlwaysMet || Need.empty())
    return AlwaysMet;
  // On the stack: region lexing asks this of each statement that holds a
  // word (159,096 heap copies over PyTorch's C++ files).
  llvm::SmallVector<unsigned, 128> Left(Need.begin(), Need.end());
  llvm::SmallVector<uint8_t, 128> GroupMet(Groups, 0);
  return llvm::any_of(Words, [&](unsigned W) { return found(W, Left, GroupMet); });
}

bool WordRequirements::met(const LiteralSet &S, llvm::StringRef Text) const {
  std::optional<bool> Unasked;
  return met(S, Text, NoWord, Unasked);
}

bool WordRequirements::met(const LiteralSet &S, llvm::StringRef Text, unsigned Also,
                           std::optional<bool> &HasAlso) const {
  assert((Also >= Uses.size() || Uses[Also].empty()) && "Also is in no requirement");
  if (AlwaysMet || Need.empty()) {
    if (!AlwaysMet && Also != NoWord)
      HasAlso = S.scan(Text)[Also];
    return AlwaysMet;
  }
  llvm::SmallVector<unsigned, 128> Left(Need.begin(), Need.end());
  llvm::SmallVector<uint8_t, 128> GroupMet(Groups, 0);
  bool Met = false, Seen = false;
  S.scan(Text, [&](unsigned W) {
    Seen |= W == Also;
    return Met = found(W, Left, GroupMet);
  });
  if (!Met && Also != NoWord)
    HasAlso = Seen;
  return Met;
}

void LiteralSet::findAll(llvm::StringRef Text, std::vector<Occurrence> &Out) const {
  assert(!FirstTwo.empty() && "findAll() before freeze()");
  const char *Data = Text.data();
  size_t N = Text.size();
  auto Try = [&](const Index &X, uint16_t K, size_t At) {
    if (!test(X.Bits.data(), K))
      return;
    for (uint32_t J = X.Start[K], E = X.Start[K + 1]; J < E; ++J) {
      unsigned I = X.ByKey[J].second;
      const std::string &W = Words[I];
      if (W.size() <= N - At && std::memcmp(Data + At, W.data(), W.size()) == 0)
        Out.push_back({static_cast<uint32_t>(At), I});
    }
  };
  auto TryBoth = [&](size_t At) {
    Try(Short, twoBytes(Data + At), At);
    if (At + 3 < N)
      Try(Long, longKey(Data + At), At);
  };
  if (OneByte.empty()) {
    if (N >= 2)
      forEachCandidate(FirstTwo.data(), Data, N - 1, [&](size_t At) {
        TryBoth(At);
        return false;
      });
    return;
  }
  for (size_t At = 0; At < N; ++At) {
    for (unsigned I : OneByte)
      if (Data[At] == Words[I][0])
        Out.push_back({static_cast<uint32_t>(At), I});
    if (At + 1 < N && FirstTwo[pairAt(Data + At)])
      TryBoth(At);
  }
}

} // namespace devport
