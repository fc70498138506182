//===--- Protocol.cpp - The LSP structures devport speaks -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "lsp/Protocol.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace devport {
namespace lsp {

using llvm::json::ObjectMapper;
using llvm::json::Path;
using llvm::json::Value;

//===----------------------------------------------------------------------===//
// URIs
//===----------------------------------------------------------------------===//

llvm::Expected<std::string> pathFromURI(llvm::StringRef URI) {
  llvm::StringRef Rest = URI;
  if (!Rest.consume_front_insensitive("file:"))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s': only file: URIs are supported", URI.str().c_str());
  if (Rest.consume_front("//")) {
    // An authority: empty or localhost.
    llvm::StringRef Authority = Rest.take_until([](char C) { return C == '/'; });
    if (!Authority.empty() && !Authority.equals_insensitive("localhost"))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'%s': a file URI on another host", URI.str().c_str());
    Rest = Rest.drop_front(Authority.size());
  }
  std::string Out;
  for (size_t I = 0; I < Rest.size(); ++I) {
    if (Rest[I] != '%') {
      Out += Rest[I];
      continue;
    }
    unsigned Hi, Lo;
    if (I + 2 >= Rest.size() ||
        (Hi = llvm::hexDigitValue(Rest[I + 1])) == ~0U ||
        (Lo = llvm::hexDigitValue(Rest[I + 2])) == ~0U)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'%s': a bad percent escape", URI.str().c_str());
    Out += static_cast<char>(Hi * 16 + Lo);
    I += 2;
  }
  if (Out.empty() || Out[0] != '/')
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s': not an absolute path", URI.str().c_str());
  return Out;
}

//===----------------------------------------------------------------------===//
// Positions
//===----------------------------------------------------------------------===//

bool fromJSON(const Value &V, Position &P, Path Pth) {
  ObjectMapper O(V, Pth);
  return O && O.map("line", P.Line) && O.map("character", P.Character);
}
Value toJSON(const Position &P) {
  return llvm::json::Object{{"line", P.Line}, {"character", P.Character}};
}
bool fromJSON(const Value &V, Range &R, Path Pth) {
  ObjectMapper O(V, Pth);
  return O && O.map("start", R.Start) && O.map("end", R.End);
}
Value toJSON(const Range &R) {
  return llvm::json::Object{{"start", R.Start}, {"end", R.End}};
}

Position positionOf(const SourceFile &F, uint32_t Offset, PositionEncoding E) {
  Offset = std::min<uint32_t>(Offset, static_cast<uint32_t>(F.text().size()));
  unsigned Line = F.lineOf(Offset);
  int Character = E == PositionEncoding::UTF16
                      ? static_cast<int>(F.utf16Column(Offset))
                      : static_cast<int>(Offset - F.lineStart(Line));
  return {static_cast<int>(Line), Character};
}

uint32_t offsetOf(const SourceFile &F, Position P, PositionEncoding E, bool *OutOfRange) {
  bool Out = P.Line < 0 || P.Character < 0 || static_cast<unsigned>(P.Line) >= F.lineCount();
  uint32_t Offset;
  if (P.Line < 0) {
    Offset = 0;
  } else if (static_cast<unsigned>(P.Line) >= F.lineCount()) {
    Offset = static_cast<uint32_t>(F.text().size());
  } else {
    unsigned Line = static_cast<unsigned>(P.Line);
    unsigned Char = static_cast<unsigned>(std::max(P.Character, 0));
    if (E == PositionEncoding::UTF16) {
      Offset = F.offsetFromUtf16(Line, Char);
    } else {
      llvm::StringRef LT = F.lineText(Line);
      uint32_t Col = std::min<uint32_t>(Char, static_cast<uint32_t>(LT.size()));
      // Not inside a UTF-8 sequence: back to the start of its character.
      while (Col > 0 && Col < LT.size() && (static_cast<unsigned char>(LT[Col]) & 0xC0) == 0x80)
        --Col;
      Offset = F.lineStart(Line) + Col;
    }
  }
  if (OutOfRange)
    *OutOfRange = Out;
  return Offset;
}

Range rangeOf(const SourceFile &F, ByteRange R, PositionEncoding E) {
  return {positionOf(F, R.Begin, E), positionOf(F, R.End, E)};
}

constexpr size_t CompareBlock = 64;

size_t commonPrefix(llvm::StringRef A, llvm::StringRef B) {
  size_t Max = std::min(A.size(), B.size()), N = 0;
  while (N + CompareBlock <= Max && std::memcmp(A.data() + N, B.data() + N, CompareBlock) == 0)
    N += CompareBlock;
  while (N < Max && A[N] == B[N])
    ++N;
  return N;
}

size_t commonSuffix(llvm::StringRef A, llvm::StringRef B, size_t Limit) {
  size_t Max = std::min({A.size(), B.size(), Limit}), N = 0;
  while (N + CompareBlock <= Max &&
         std::memcmp(A.end() - N - CompareBlock, B.end() - N - CompareBlock, CompareBlock) == 0)
    N += CompareBlock;
  while (N < Max && A[A.size() - 1 - N] == B[B.size() - 1 - N])
    ++N;
  return N;
}

Edit differingSpan(llvm::StringRef Old, llvm::StringRef New) {
  size_t Begin = commonPrefix(Old, New);
  size_t Suffix = commonSuffix(Old, New, std::min(Old.size(), New.size()) - Begin);
  auto Continuation = [](char C) { return (static_cast<unsigned char>(C) & 0xC0) == 0x80; };
  while (Begin > 0 && Begin < Old.size() &&
         (Continuation(Old[Begin]) || (Old[Begin] == '\n' && Old[Begin - 1] == '\r')))
    --Begin;
  size_t OldEnd = Old.size() - Suffix, NewEnd = New.size() - Suffix;
  while (OldEnd < Old.size() && (Continuation(Old[OldEnd]) ||
                                 (Old[OldEnd] == '\n' && OldEnd > 0 && Old[OldEnd - 1] == '\r'))) {
    ++OldEnd;
    ++NewEnd;
  }
  // The prefix may have been widened back past the suffix's start.
  if (OldEnd < Begin) {
    NewEnd += Begin - OldEnd;
    OldEnd = Begin;
  }
  return Edit::replacement({static_cast<uint32_t>(Begin), static_cast<uint32_t>(OldEnd)},
                           New.slice(Begin, NewEnd).str());
}

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

bool fromJSON(const Value &V, TextDocumentItem &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("uri", R.URI) && O.map("languageId", R.LanguageId) &&
         O.map("version", R.Version) && O.map("text", R.Text);
}
bool fromJSON(const Value &V, TextDocumentIdentifier &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("uri", R.URI);
}
bool fromJSON(const Value &V, VersionedTextDocumentIdentifier &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("uri", R.URI) && O.mapOptional("version", R.Version);
}
bool fromJSON(const Value &V, TextDocumentContentChangeEvent &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("text", R.Text) && O.mapOptional("range", R.R);
}
bool fromJSON(const Value &V, DidOpenParams &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("textDocument", R.Doc);
}
bool fromJSON(const Value &V, DidChangeParams &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("textDocument", R.Doc) && O.map("contentChanges", R.Changes);
}
bool fromJSON(const Value &V, DidSaveParams &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("textDocument", R.Doc) && O.mapOptional("text", R.Text);
}
bool fromJSON(const Value &V, DidCloseParams &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("textDocument", R.Doc);
}
bool fromJSON(const Value &V, FileEvent &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("uri", R.URI) && O.map("type", R.Type);
}
bool fromJSON(const Value &V, DidChangeWatchedFilesParams &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("changes", R.Changes);
}

bool fromJSON(const Value &V, ClientSettings &R, Path P) {
  if (V.kind() == Value::Null)
    return true;
  ObjectMapper O(V, P);
  return O && O.mapOptional("targetTorch", R.TargetTorch) && O.mapOptional("select", R.Select) &&
         O.mapOptional("ignore", R.Ignore) &&
         O.mapOptional("deviceExpression", R.DeviceExpression) &&
         O.mapOptional("config", R.ConfigFile) &&
         O.mapOptional("compileCommandsDir", R.CompileCommandsDir) &&
         O.mapOptional("cppEngine", R.CppEngine) && O.mapOptional("docsUrl", R.DocsURL);
}

bool fromJSON(const Value &V, InitializeParams &R, Path P) {
  const llvm::json::Object *Obj = V.getAsObject();
  if (!Obj) {
    P.report("expected an object");
    return false;
  }
  if (const llvm::json::Object *Caps = Obj->getObject("capabilities")) {
    if (const llvm::json::Object *General = Caps->getObject("general"))
      if (const llvm::json::Array *Enc = General->getArray("positionEncodings"))
        for (const Value &E : *Enc)
          if (auto S = E.getAsString())
            R.PositionEncodings.push_back(S->str());
    if (const llvm::json::Object *WS = Caps->getObject("workspace"))
      if (const llvm::json::Object *W = WS->getObject("didChangeWatchedFiles"))
        R.WatchedFilesDynamicRegistration = W->getBoolean("dynamicRegistration").getValueOr(false);
    if (const llvm::json::Object *TD = Caps->getObject("textDocument")) {
      if (const llvm::json::Object *CA = TD->getObject("codeAction")) {
        if (const llvm::json::Object *RS = CA->getObject("resolveSupport"))
          if (const llvm::json::Array *Props = RS->getArray("properties"))
            for (const Value &Prop : *Props)
              if (Prop.getAsString() && *Prop.getAsString() == "edit")
                R.CodeActionResolveEdit = true;
      }
      if (const llvm::json::Object *PD = TD->getObject("publishDiagnostics"))
        R.DiagnosticCodeDescription = PD->getBoolean("codeDescriptionSupport").getValueOr(true);
    }
  }
  if (auto T = Obj->getString("trace"))
    R.Trace = T->str();
  if (const Value *Init = Obj->get("initializationOptions"))
    return fromJSON(*Init, R.Settings, P.field("initializationOptions"));
  return true;
}

Value toJSON(const TextEdit &E) {
  return llvm::json::Object{{"range", E.R}, {"newText", E.NewText}};
}

Value toJSON(const LspDiagnostic &D) {
  // One definition of the diagnostic's fields: writeJSON's, read back (code
  // actions carry a few diagnostics; publishing writes hundreds directly).
  std::string S;
  {
    llvm::raw_string_ostream OS(S);
    llvm::json::OStream J(OS);
    writeJSON(J, D);
  }
  llvm::Expected<Value> V = llvm::json::parse(S);
  assert(V && "writeJSON() wrote something that is not JSON");
  if (!V) {
    llvm::consumeError(V.takeError());
    return nullptr;
  }
  return std::move(*V);
}

void writeJSON(llvm::json::OStream &J, const LspDiagnostic &D) {
  // Keys in the order llvm::json writes an object's: sorted.
  auto WritePosition = [&](const Position &P) {
    J.object([&] {
      J.attribute("character", P.Character);
      J.attribute("line", P.Line);
    });
  };
  J.object([&] {
    J.attribute("code", D.Code);
    if (!D.CodeHref.empty())
      J.attributeObject("codeDescription", [&] { J.attribute("href", D.CodeHref); });
    J.attribute("message", D.Message);
    J.attributeObject("range", [&] {
      J.attributeBegin("end");
      WritePosition(D.R.End);
      J.attributeEnd();
      J.attributeBegin("start");
      WritePosition(D.R.Start);
      J.attributeEnd();
    });
    J.attribute("severity", D.Severity);
    J.attribute("source", D.Source);
    if (!D.Tags.empty())
      J.attributeArray("tags", [&] {
        for (int T : D.Tags)
          J.value(T);
      });
  });
}

bool fromJSON(const Value &V, CodeActionParams &R, Path P) {
  ObjectMapper O(V, P);
  if (!O || !O.map("textDocument", R.Doc) || !O.map("range", R.R))
    return false;
  const llvm::json::Object *Ctx = V.getAsObject()->getObject("context");
  if (!Ctx)
    return true;
  ObjectMapper C(*V.getAsObject()->get("context"), P.field("context"));
  return C.mapOptional("only", R.Only);
}

bool fromJSON(const Value &V, TextDocumentPositionParams &R, Path P) {
  ObjectMapper O(V, P);
  return O && O.map("textDocument", R.Doc) && O.map("position", R.Pos);
}

Value workspaceEdit(llvm::StringRef URI, llvm::Optional<int64_t> Version,
                    const std::vector<TextEdit> &Edits) {
  llvm::json::Array Es;
  for (const TextEdit &E : Edits)
    Es.push_back(toJSON(E));
  if (!Version)
    return llvm::json::Object{{"changes", llvm::json::Object{{URI.str(), std::move(Es)}}}};
  return llvm::json::Object{
      {"documentChanges",
       llvm::json::Array{llvm::json::Object{
           {"textDocument", llvm::json::Object{{"uri", URI.str()}, {"version", *Version}}},
           {"edits", std::move(Es)}}}}};
}

} // namespace lsp
} // namespace devport
