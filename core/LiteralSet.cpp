//===--- LiteralSet.cpp - Which of many words occur in a text, in one pass ===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/LiteralSet.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace devport {

static uint16_t keyAt(const char *P) {
  return static_cast<uint16_t>((static_cast<unsigned char>(P[0]) << 8) |
                               static_cast<unsigned char>(P[1]));
}

unsigned LiteralSet::add(llvm::StringRef Word) {
  assert(!Word.empty() && "an empty word occurs everywhere");
  assert(Start.empty() && "add() after freeze()");
  for (unsigned I = 0; I < Words.size(); ++I)
    if (Words[I] == Word)
      return I;
  unsigned I = static_cast<unsigned>(Words.size());
  Words.push_back(Word.str());
  if (Word.size() == 1)
    OneByte.push_back(I);
  else
    ByPrefix.push_back({keyAt(Word.data()), I});
  return I;
}

void LiteralSet::freeze() {
  std::sort(ByPrefix.begin(), ByPrefix.end());
  Start.assign(65537, 0);
  for (const auto &[Key, I] : ByPrefix)
    ++Start[Key + 1];
  for (size_t K = 1; K < Start.size(); ++K)
    Start[K] += Start[K - 1];
  KeyBits.assign(KeyWords, 0);
  for (const auto &[Key, I] : ByPrefix)
    KeyBits[Key >> 6] |= uint64_t(1) << (Key & 63);
}

std::vector<bool> LiteralSet::scan(llvm::StringRef Text,
                                   llvm::function_ref<bool(unsigned)> OnFound) const {
  std::vector<bool> Found(Words.size(), false);
  unsigned Left = static_cast<unsigned>(Words.size());
  for (unsigned I : OneByte)
    if (Text.contains(Words[I][0])) {
      Found[I] = true;
      --Left;
      if (OnFound && OnFound(I))
        return Found;
    }
  if (Left == 0 || ByPrefix.empty() || Text.size() < 2)
    return Found;
  assert(!Start.empty() && "scan() before freeze()");
  const char *Data = Text.data();
  size_t N = Text.size();
  // The keys that may still start a word not found yet: 8 KiB, in L1, where
  // Start (256 KiB) is not; a key whose words are all found leaves it.
  uint64_t Live[KeyWords];
  std::memcpy(Live, KeyBits.data(), sizeof(Live));
  for (size_t At = 0; At + 1 < N; ++At) {
    uint16_t K = keyAt(Data + At);
    if (!((Live[K >> 6] >> (K & 63)) & 1))
      continue;
    bool KeyDone = true;
    for (uint32_t J = Start[K], E = Start[K + 1]; J < E; ++J) {
      unsigned I = ByPrefix[J].second;
      if (Found[I])
        continue;
      const std::string &W = Words[I];
      if (W.size() <= N - At && std::memcmp(Data + At, W.data(), W.size()) == 0) {
        Found[I] = true;
        if ((OnFound && OnFound(I)) || --Left == 0)
          return Found;
      } else {
        KeyDone = false;
      }
    }
    if (KeyDone)
      Live[K >> 6] &= ~(uint64_t(1) << (K & 63));
  }
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

bool WordRequirements::met(const LiteralSet &S, llvm::StringRef Text) const {
  if (AlwaysMet || Need.empty())
    return AlwaysMet;
  std::vector<unsigned> Left = Need;
  std::vector<bool> GroupMet(Groups, false);
  bool Met = false;
  S.scan(Text, [&](unsigned W) {
    if (W >= Uses.size())
      return false;
    for (const Use &U : Uses[W]) {
      if (U.Group >= 0) {
        if (GroupMet[U.Group])
          continue;
        GroupMet[U.Group] = true;
      }
      if (--Left[U.Requirement] == 0)
        return Met = true;
    }
    return false;
  });
  return Met;
}

void LiteralSet::findAll(llvm::StringRef Text, std::vector<Occurrence> &Out) const {
  assert(!Start.empty() && "findAll() before freeze()");
  const char *Data = Text.data();
  size_t N = Text.size();
  for (size_t At = 0; At < N; ++At) {
    for (unsigned I : OneByte)
      if (Data[At] == Words[I][0])
        Out.push_back({static_cast<uint32_t>(At), I});
    if (At + 1 >= N)
      break;
    uint16_t K = keyAt(Data + At);
    if (!((KeyBits[K >> 6] >> (K & 63)) & 1))
      continue;
    for (uint32_t J = Start[K], E = Start[K + 1]; J < E; ++J) {
      unsigned I = ByPrefix[J].second;
      const std::string &W = Words[I];
      if (W.size() <= N - At && std::memcmp(Data + At, W.data(), W.size()) == 0)
        Out.push_back({static_cast<uint32_t>(At), I});
    }
  }
}

} // namespace devport
