//===--- YamlReader.cpp - YAML documents with places in their errors ------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/YamlReader.h"

#include "core/SourceFile.h"

#include "llvm/ADT/SmallString.h"

#include <algorithm>
#include <vector>

namespace devport {

std::optional<std::pair<unsigned, unsigned>> yamlTooDeep(llvm::StringRef Yaml, unsigned MaxDepth) {
  llvm::SourceMgr SM;
  SM.setDiagHandler([](const llvm::SMDiagnostic &, void *) {}, nullptr);
  auto Buf = llvm::MemoryBuffer::getMemBuffer(Yaml, "", /*RequiresNullTerminator=*/false);
  llvm::yaml::Stream S(Buf->getMemBufferRef(), SM);
  return walkYaml(S, SM, MaxDepth);
}

std::optional<std::pair<unsigned, unsigned>>
walkYaml(llvm::yaml::Stream &S, const llvm::SourceMgr &SM, unsigned MaxDepth) {
  // Each collection is read to its end before its parent moves on, so that
  // LLVM's skip() (which recurses) finds nothing left to skip.
  struct Frame {
    llvm::yaml::MappingNode *Map = nullptr;
    llvm::yaml::MappingNode::iterator MI;
    llvm::yaml::SequenceNode *Seq = nullptr;
    llvm::yaml::SequenceNode::iterator SI;
    int Stage = 0; ///< Map: 0 key next, 1 value next, 2 entry done. Seq: 0/1.
  };
  std::vector<Frame> Stack;
  std::optional<std::pair<unsigned, unsigned>> Deep;
  auto Visit = [&](llvm::yaml::Node *N) {
    if (!N || !(llvm::isa<llvm::yaml::MappingNode>(N) || llvm::isa<llvm::yaml::SequenceNode>(N)))
      return false;
    if (Stack.size() >= MaxDepth) {
      auto LC = SM.getLineAndColumn(N->getSourceRange().Start);
      Deep = {LC.first, LC.second};
      return false;
    }
    Frame F;
    if (auto *M = llvm::dyn_cast<llvm::yaml::MappingNode>(N)) {
      F.Map = M;
      F.MI = M->begin();
    } else {
      F.Seq = llvm::cast<llvm::yaml::SequenceNode>(N);
      F.SI = F.Seq->begin();
    }
    Stack.push_back(F);
    return true;
  };
  for (llvm::yaml::document_iterator D = S.begin(), E = S.end(); D != E && !Deep; ++D) {
    Visit(D->getRoot());
    while (!Stack.empty() && !Deep) {
      Frame &F = Stack.back();
      if (F.Map) {
        if (F.MI == F.Map->end()) {
          Stack.pop_back();
          continue;
        }
        llvm::yaml::KeyValueNode &KV = *F.MI;
        if (F.Stage == 0) {
          F.Stage = 1;
          if (Visit(KV.getKey()))
            continue;
        } else if (F.Stage == 1) {
          F.Stage = 2;
          if (Visit(KV.getValue()))
            continue;
        } else {
          F.Stage = 0;
          ++F.MI;
        }
        continue;
      }
      if (F.SI == F.Seq->end()) {
        Stack.pop_back();
        continue;
      }
      if (F.Stage == 0) {
        F.Stage = 1;
        if (Visit(&*F.SI))
          continue;
      } else {
        F.Stage = 0;
        ++F.SI;
      }
    }
    if (Deep)
      break; // leave the rest unread: no skip() on a half-read collection
  }
  return Deep;
}

std::string yamlDepthMessage(llvm::StringRef FileName, std::pair<unsigned, unsigned> At) {
  return RuleLoc{FileName.str(), At.first, At.second}.str() + ": nested deeper than " +
         std::to_string(MaxYamlDepth) + " levels (the limit for devport's YAML files); not read";
}

YamlReader::YamlReader(llvm::StringRef FileName, llvm::StringRef Yaml, bool DepthChecked)
    : FileName(FileName.str()) {
  Buffer = llvm::MemoryBuffer::getMemBuffer(Yaml, FileName, /*RequiresNullTerminator=*/false);
  SM.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        auto *Self = static_cast<YamlReader *>(Ctx);
        Self->addError(RuleLoc{Self->FileName, static_cast<unsigned>(D.getLineNo()),
                               static_cast<unsigned>(D.getColumnNo() + 1)},
                       "yaml error: " + D.getMessage().str());
      },
      this);
  Stream = std::make_unique<llvm::yaml::Stream>(Buffer->getMemBufferRef(), SM);
  if (DepthChecked)
    return;
  if (auto At = yamlTooDeep(Yaml)) {
    TooDeep = true;
    Errors = yamlDepthMessage(FileName, *At);
  }
}

std::string YamlReader::excerpt(llvm::StringRef S) {
  constexpr size_t Max = 40;
  std::string Out;
  size_t I = 0;
  for (size_t Chars = 0; I < S.size() && Chars < Max; ++Chars) {
    auto C = static_cast<unsigned char>(S[I]);
    size_t Len = std::max(1u, utf8SequenceLength(S.drop_front(I)));
    if (C < 0x20 || C == 0x7f)
      Out += '?';
    else
      Out.append(S.data() + I, Len);
    I += Len;
  }
  if (I < S.size())
    Out += "...";
  return Out;
}

llvm::yaml::MappingNode *YamlReader::topMapping(llvm::StringRef What, bool EmptyIsError) {
  if (TooDeep)
    return nullptr;
  Doc = Stream->begin();
  auto &DI = Doc;
  if (DI == Stream->end() || !DI->getRoot()) {
    if (EmptyIsError && Errors.empty())
      addError({FileName, 1, 1}, "empty " + What.str());
    return nullptr;
  }
  llvm::yaml::Node *Root = DI->getRoot();
  if (!Errors.empty())
    return nullptr;
  if (llvm::isa<llvm::yaml::NullNode>(Root)) {
    if (EmptyIsError)
      addError(loc(Root), "empty " + What.str());
    return nullptr;
  }
  auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(Root);
  if (!Map) {
    addError(loc(Root), "expected a mapping at the top level of the " + What.str());
    return nullptr;
  }
  return Map;
}

void YamlReader::expectSingleDocument(llvm::StringRef What) {
  if (TooDeep || Doc == llvm::yaml::document_iterator() || Doc == Stream->end())
    return;
  if (++Doc != Stream->end() && Doc->getRoot() && !llvm::isa<llvm::yaml::NullNode>(Doc->getRoot()))
    addError(loc(Doc->getRoot()), "more than one YAML document in the " + What.str());
}

RuleLoc YamlReader::loc(llvm::yaml::Node *N) const {
  if (!N)
    return {FileName, 0, 0};
  llvm::SMLoc L = N->getSourceRange().Start;
  if (auto *A = llvm::dyn_cast<llvm::yaml::AliasNode>(N))
    L = llvm::SMLoc::getFromPointer(A->getName().data() - 1); // its range is not set: the '*'
  if (!L.isValid())
    return {FileName, 0, 0};
  auto [Line, Col] = SM.getLineAndColumn(L);
  return {FileName, Line, Col};
}

void YamlReader::addError(const RuleLoc &L, const std::string &Msg) {
  if (!Errors.empty())
    Errors += "\n";
  Errors += L.str() + ": " + Msg;
}

std::optional<std::string> YamlReader::scalar(llvm::yaml::Node *N, llvm::StringRef Key) {
  if (auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N)) {
    llvm::SmallString<64> Storage;
    return S->getValue(Storage).str();
  }
  if (auto *B = llvm::dyn_cast_or_null<llvm::yaml::BlockScalarNode>(N))
    return B->getValue().str();
  if (auto *A = llvm::dyn_cast_or_null<llvm::yaml::AliasNode>(N)) {
    addError(loc(N), "'" + excerpt(Key) + "': YAML aliases (*" + excerpt(A->getName()) +
                         ") are not supported in devport's files; write the value out");
    return std::nullopt;
  }
  addError(loc(N), "'" + excerpt(Key) + "' must be a string");
  return std::nullopt;
}

std::vector<std::pair<std::string, RuleLoc>> YamlReader::scalarList(llvm::yaml::Node *N,
                                                                    llvm::StringRef Key) {
  std::vector<std::pair<std::string, RuleLoc>> Out;
  if (auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(N)) {
    for (llvm::yaml::Node &Item : *Seq)
      if (auto S = scalar(&Item, Key))
        Out.push_back({*S, loc(&Item)});
    return Out;
  }
  if (llvm::isa_and_nonnull<llvm::yaml::ScalarNode>(N) ||
      llvm::isa_and_nonnull<llvm::yaml::AliasNode>(N)) {
    if (auto S = scalar(N, Key))
      Out.push_back({*S, loc(N)});
    return Out;
  }
  addError(loc(N), "'" + excerpt(Key) + "' must be a list of strings");
  return Out;
}

void YamlReader::forEachKey(llvm::yaml::MappingNode &M, llvm::ArrayRef<llvm::StringRef> Allowed,
                            llvm::StringRef What, const KeyFn &Fn) {
  llvm::StringSet<> Seen;
  for (llvm::yaml::KeyValueNode &KV : M) {
    auto *K = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
    if (!K) {
      addError(loc(KV.getKey() ? KV.getKey() : &M), "keys must be plain strings");
      continue;
    }
    llvm::SmallString<32> Storage;
    std::string Key = K->getValue(Storage).str();
    if (!llvm::is_contained(Allowed, Key)) {
      std::string List;
      for (llvm::StringRef A : Allowed)
        List += (List.empty() ? "" : ", ") + A.str();
      addError(loc(K), "unknown key '" + excerpt(Key) + "' in " + What.str() +
                           " (expected one of: " + List + ")");
      continue;
    }
    if (!Seen.insert(Key).second) {
      addError(loc(K), "duplicate key '" + excerpt(Key) + "'");
      continue;
    }
    Fn(Key, KV.getValue(), loc(K));
  }
}

} // namespace devport
