//===--- Annotations.cpp - Marked-up source text for tests ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tests/support/Annotations.h"

#include <gtest/gtest.h>

namespace devport::test {

static void malformed(llvm::StringRef Text, const std::string &Why) {
  ADD_FAILURE() << "malformed annotations (" << Why << ") in:\n" << Text.str();
}

Annotations::Annotations(llvm::StringRef Text) {
  struct Open {
    std::string Name, Payload;
    uint32_t Begin;
  };
  std::vector<Open> Stack;
  std::string Name, Payload;
  bool Named = false;
  for (size_t I = 0; I < Text.size();) {
    auto Take = [&](std::string &N, std::string &P) {
      N = Named ? Name : "";
      P = Named ? Payload : "";
      Named = false;
      Name.clear();
      Payload.clear();
    };
    if (Text[I] == '$' && I + 1 < Text.size() &&
        (isalpha(static_cast<unsigned char>(Text[I + 1])) || Text[I + 1] == '_')) {
      size_t E = I + 1;
      while (E < Text.size() &&
             (isalnum(static_cast<unsigned char>(Text[E])) || Text[E] == '_'))
        ++E;
      Name = Text.slice(I + 1, E).str();
      Named = true;
      if (E < Text.size() && Text[E] == '(') {
        size_t Close = Text.find(')', E);
        if (Close == llvm::StringRef::npos) {
          malformed(Text, "unterminated payload");
          break;
        }
        Payload = Text.slice(E + 1, Close).str();
        E = Close + 1;
      }
      if (E >= Text.size() || (Text[E] != '^' && !Text.substr(E).startswith("[["))) {
        malformed(Text, "a name must be followed by ^ or [[");
        break;
      }
      I = E;
      continue;
    }
    if (Text[I] == '^') {
      std::string N, P;
      Take(N, P);
      Points[N].push_back({static_cast<uint32_t>(Code.size()), P});
      ++I;
      continue;
    }
    if (Text.substr(I).startswith("[[")) {
      std::string N, P;
      Take(N, P);
      Stack.push_back({N, P, static_cast<uint32_t>(Code.size())});
      I += 2;
      continue;
    }
    if (Text.substr(I).startswith("]]") && !Stack.empty()) {
      Open O = Stack.back();
      Stack.pop_back();
      Ranges[O.Name].push_back({{O.Begin, static_cast<uint32_t>(Code.size())}, O.Payload});
      I += 2;
      continue;
    }
    Code += Text[I++];
  }
  if (!Stack.empty())
    malformed(Text, "unclosed [[");
  if (Named)
    malformed(Text, "dangling name");
}

std::vector<uint32_t> Annotations::points(llvm::StringRef Name) const {
  std::vector<uint32_t> Out;
  auto It = Points.find(Name);
  if (It != Points.end())
    for (const Point &P : It->second)
      Out.push_back(P.Offset);
  return Out;
}

std::pair<uint32_t, llvm::StringRef> Annotations::pointWithPayload(llvm::StringRef Name) const {
  auto It = Points.find(Name);
  if (It == Points.end() || It->second.size() != 1) {
    ADD_FAILURE() << "expected exactly one point named '" << Name.str() << "'";
    return {0, ""};
  }
  return {It->second[0].Offset, It->second[0].Payload};
}

uint32_t Annotations::point(llvm::StringRef Name) const { return pointWithPayload(Name).first; }

std::vector<ByteRange> Annotations::ranges(llvm::StringRef Name) const {
  std::vector<ByteRange> Out;
  auto It = Ranges.find(Name);
  if (It != Ranges.end())
    for (const Range &R : It->second)
      Out.push_back(R.R);
  return Out;
}

std::pair<ByteRange, llvm::StringRef> Annotations::rangeWithPayload(llvm::StringRef Name) const {
  auto It = Ranges.find(Name);
  if (It == Ranges.end() || It->second.size() != 1) {
    ADD_FAILURE() << "expected exactly one range named '" << Name.str() << "'";
    return {{}, ""};
  }
  return {It->second[0].R, It->second[0].Payload};
}

ByteRange Annotations::range(llvm::StringRef Name) const { return rangeWithPayload(Name).first; }

} // namespace devport::test
