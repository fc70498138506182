//===--- MemoRegex.cpp - A regex that remembers its answers ---------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/MemoRegex.h"

#include "llvm/ADT/StringMap.h"

#include <atomic>
#include <cstring>

namespace devport {

namespace {

std::atomic<uint64_t> NextId{1};

/// A remembered answer: the groups as offsets into the text, -1 for a group
/// that took no part.
struct Answer {
  bool Matched = false;
  llvm::SmallVector<std::pair<int32_t, int32_t>, 4> Groups;
};

} // namespace

MemoRegex::MemoRegex(llvm::StringRef Pattern) : Re(Pattern), Id(NextId++) {}

bool MemoRegex::match(llvm::StringRef T, llvm::SmallVectorImpl<llvm::StringRef> *Groups) const {
  if (T.size() > MaxRemembered)
    return Re.match(T, Groups);
  // Keyed by the regex's id and the text; whether groups were asked for is
  // part of the key (an answer without them cannot give them).
  thread_local llvm::StringMap<Answer> Memo;
  char Key[sizeof(uint64_t) + 1 + MaxRemembered];
  std::memcpy(Key, &Id, sizeof Id);
  Key[sizeof Id] = Groups ? 'g' : 'n';
  std::memcpy(Key + sizeof Id + 1, T.data(), T.size());
  llvm::StringRef K(Key, sizeof Id + 1 + T.size());
  auto Found = Memo.find(K);
  if (Found == Memo.end()) {
    if (Memo.size() >= MaxAnswers)
      Memo.clear();
    Answer A;
    llvm::SmallVector<llvm::StringRef, 4> Got;
    A.Matched = Re.match(T, Groups ? &Got : nullptr);
    for (llvm::StringRef G : Got)
      A.Groups.push_back(
          G.data() ? std::pair<int32_t, int32_t>(static_cast<int32_t>(G.data() - T.data()),
                                                 static_cast<int32_t>(G.size()))
                   : std::pair<int32_t, int32_t>(-1, 0));
    Found = Memo.try_emplace(K, std::move(A)).first;
  }
  const Answer &A = Found->second;
  if (Groups) {
    Groups->clear();
    for (auto [Begin, Size] : A.Groups)
      Groups->push_back(Begin < 0 ? llvm::StringRef() : T.substr(Begin, Size));
  }
  return A.Matched;
}

} // namespace devport
