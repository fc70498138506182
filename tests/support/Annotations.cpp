//===--- Annotations.cpp - Marked-up source text for tests ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tests/support/Annotations.h"

#include <gtest/gtest.h>

#include <cctype>

namespace devport::test {

namespace {

bool isNameChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// A `$name`, `$name(payload)` or `$(payload)` prefix at the start of S that
/// is followed by `^` or `[[`.
struct MarkerPrefix {
  llvm::StringRef Name, Payload;
  size_t Length = 0; ///< Bytes up to the `^` or `[[`.
};

bool parseMarkerPrefix(llvm::StringRef S, MarkerPrefix &M) {
  if (!S.startswith("$"))
    return false;
  size_t I = 1;
  while (I < S.size() && isNameChar(S[I]))
    ++I;
  M.Name = S.slice(1, I);
  M.Payload = "";
  if (I < S.size() && S[I] == '(') {
    size_t Close = S.find(')', I);
    if (Close == llvm::StringRef::npos)
      return false;
    M.Payload = S.slice(I + 1, Close);
    I = Close + 1;
  } else if (M.Name.empty()) {
    return false; // a lone `$`
  }
  llvm::StringRef Rest = S.drop_front(I);
  if (!Rest.startswith("^") && !Rest.startswith("[["))
    return false;
  M.Length = I;
  return true;
}

} // namespace

void Annotations::fail(const std::string &Why) const {
  ADD_FAILURE() << "annotations: " << Why << "\nin the annotated text:\n" << Text;
}

Annotations::Annotations(llvm::StringRef Input) : Text(Input.str()) {
  struct Open {
    std::string Name, Payload;
    uint32_t Begin;
    size_t Index; ///< Of its entry in Ranges[Name].
    size_t TextOffset;
  };
  std::vector<Open> Stack;
  llvm::StringRef S = Input;
  while (!S.empty()) {
    size_t TextOffset = Input.size() - S.size();
    MarkerPrefix M;
    if (parseMarkerPrefix(S, M))
      S = S.drop_front(M.Length);
    auto Here = static_cast<uint32_t>(Code.size());
    if (S.consume_front("^")) {
      Points[M.Name].push_back({Here, M.Payload.str()});
      continue;
    }
    if (S.consume_front("[[")) {
      std::vector<Range> &Rs = Ranges[M.Name];
      Stack.push_back({M.Name.str(), M.Payload.str(), Here, Rs.size(), TextOffset});
      Rs.push_back({{Here, Here}, M.Payload.str()});
      continue;
    }
    if (S.consume_front("]]")) {
      if (Stack.empty()) {
        fail("unmatched ]] at offset " + std::to_string(TextOffset));
        continue;
      }
      const Open &O = Stack.back();
      Ranges[O.Name][O.Index].R.End = Here;
      Stack.pop_back();
      continue;
    }
    Code += S.front();
    S = S.drop_front();
  }
  for (const Open &O : Stack)
    fail("unclosed [[ at offset " + std::to_string(O.TextOffset));
  if (!Stack.empty()) {
    // Drop the half-open ranges so that no accessor returns them.
    for (auto It = Stack.rbegin(); It != Stack.rend(); ++It) {
      std::vector<Range> &Rs = Ranges[It->Name];
      Rs.erase(Rs.begin() + static_cast<std::ptrdiff_t>(It->Index));
    }
  }
}

std::vector<std::pair<uint32_t, llvm::StringRef>>
Annotations::pointsWithPayload(llvm::StringRef Name) const {
  std::vector<std::pair<uint32_t, llvm::StringRef>> Out;
  auto It = Points.find(Name);
  if (It != Points.end())
    for (const Point &P : It->second)
      Out.emplace_back(P.Offset, P.Payload);
  return Out;
}

std::vector<uint32_t> Annotations::points(llvm::StringRef Name) const {
  std::vector<uint32_t> Out;
  for (const auto &P : pointsWithPayload(Name))
    Out.push_back(P.first);
  return Out;
}

std::pair<uint32_t, llvm::StringRef> Annotations::pointWithPayload(llvm::StringRef Name) const {
  auto All = pointsWithPayload(Name);
  if (All.size() != 1) {
    fail("expected exactly one point named '" + Name.str() + "', found " +
         std::to_string(All.size()));
    return {0, ""};
  }
  return All.front();
}

uint32_t Annotations::point(llvm::StringRef Name) const { return pointWithPayload(Name).first; }

std::vector<std::pair<ByteRange, llvm::StringRef>>
Annotations::rangesWithPayload(llvm::StringRef Name) const {
  std::vector<std::pair<ByteRange, llvm::StringRef>> Out;
  auto It = Ranges.find(Name);
  if (It != Ranges.end())
    for (const Range &R : It->second)
      Out.emplace_back(R.R, R.Payload);
  return Out;
}

std::vector<ByteRange> Annotations::ranges(llvm::StringRef Name) const {
  std::vector<ByteRange> Out;
  for (const auto &R : rangesWithPayload(Name))
    Out.push_back(R.first);
  return Out;
}

std::pair<ByteRange, llvm::StringRef> Annotations::rangeWithPayload(llvm::StringRef Name) const {
  auto All = rangesWithPayload(Name);
  if (All.size() != 1) {
    fail("expected exactly one range named '" + Name.str() + "', found " +
         std::to_string(All.size()));
    return {ByteRange(), ""};
  }
  return All.front();
}

ByteRange Annotations::range(llvm::StringRef Name) const { return rangeWithPayload(Name).first; }

} // namespace devport::test
