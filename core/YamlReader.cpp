//===--- YamlReader.cpp - YAML documents with places in their errors ------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/YamlReader.h"

#include "llvm/ADT/SmallString.h"

namespace devport {

YamlReader::YamlReader(llvm::StringRef FileName, llvm::StringRef Yaml)
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
}

llvm::yaml::MappingNode *YamlReader::topMapping(llvm::StringRef What) {
  Doc = Stream->begin();
  auto &DI = Doc;
  if (DI == Stream->end() || !DI->getRoot()) {
    addError({FileName, 1, 1}, "empty " + What.str());
    return nullptr;
  }
  llvm::yaml::Node *Root = DI->getRoot();
  if (!Errors.empty())
    return nullptr;
  if (llvm::isa<llvm::yaml::NullNode>(Root)) {
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
  if (Doc == llvm::yaml::document_iterator() || Doc == Stream->end())
    return;
  if (++Doc != Stream->end() && Doc->getRoot() && !llvm::isa<llvm::yaml::NullNode>(Doc->getRoot()))
    addError(loc(Doc->getRoot()), "more than one YAML document in the " + What.str());
}

RuleLoc YamlReader::loc(llvm::yaml::Node *N) const {
  if (!N)
    return {FileName, 0, 0};
  llvm::SMLoc L = N->getSourceRange().Start;
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
  addError(loc(N), "'" + Key.str() + "' must be a string");
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
  if (llvm::isa_and_nonnull<llvm::yaml::ScalarNode>(N)) {
    if (auto S = scalar(N, Key))
      Out.push_back({*S, loc(N)});
    return Out;
  }
  addError(loc(N), "'" + Key.str() + "' must be a list of strings");
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
      addError(loc(K), "unknown key '" + Key + "' in " + What.str() + " (expected one of: " +
                           List + ")");
      continue;
    }
    if (!Seen.insert(Key).second) {
      addError(loc(K), "duplicate key '" + Key + "'");
      continue;
    }
    Fn(Key, KV.getValue(), loc(K));
  }
}

} // namespace devport
