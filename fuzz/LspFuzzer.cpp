//===--- LspFuzzer.cpp - The LSP transport, protocol and server -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One input = the bytes an editor sends on the server's standard input: an
/// input that starts with "Content-" is read with the Standard framing
/// (Content-Length headers), any other with the Delimited one of
/// tests/lsp/*.test (`---` between messages). The messages go through the
/// JSON transport to a synchronous Server (the embedded rules), whose output
/// is dropped. Each message that parses as JSON is also read, whole and by its
/// `params`, as every LSP struct of lsp/Protocol.h. Errors are expected (and
/// answered); crashes, sanitizer reports and hangs are not.
///
//===----------------------------------------------------------------------===//

#include "lsp/Protocol.h"
#include "lsp/Server.h"
#include "lsp/Transport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <memory>
#include <string>

namespace {

using namespace devport::lsp;

template <typename T> void readAs(const llvm::json::Value &V) {
  T Out;
  llvm::json::Path::Root Root;
  (void)fromJSON(V, Out, Root);
}

void readAsEveryStruct(const llvm::json::Value &V) {
  readAs<Position>(V);
  readAs<Range>(V);
  readAs<TextDocumentItem>(V);
  readAs<TextDocumentIdentifier>(V);
  readAs<VersionedTextDocumentIdentifier>(V);
  readAs<TextDocumentContentChangeEvent>(V);
  readAs<DidOpenParams>(V);
  readAs<DidChangeParams>(V);
  readAs<DidSaveParams>(V);
  readAs<DidCloseParams>(V);
  readAs<FileEvent>(V);
  readAs<DidChangeWatchedFilesParams>(V);
  readAs<ClientSettings>(V);
  readAs<InitializeParams>(V);
  readAs<CodeActionParams>(V);
  readAs<TextDocumentPositionParams>(V);
}

/// Protocol parsing of each `---`-separated chunk that is JSON.
void protocol(llvm::StringRef Input) {
  llvm::SmallVector<llvm::StringRef, 8> Chunks;
  Input.split(Chunks, "\n---");
  for (llvm::StringRef C : Chunks) {
    auto V = llvm::json::parse(C);
    if (!V) {
      llvm::consumeError(V.takeError());
      continue;
    }
    readAsEveryStruct(*V);
    if (const llvm::json::Object *O = V->getAsObject())
      if (const llvm::json::Value *P = O->get("params"))
        readAsEveryStruct(*P);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  protocol(Input);
  if (Size == 0)
    return 0; // fmemopen refuses an empty buffer
  // fmemopen reads a copy: the server never sees libFuzzer's buffer.
  std::string Copy = Input.str();
  std::FILE *In = fmemopen(Copy.data(), Copy.size(), "r");
  if (!In)
    return 0;
  llvm::raw_null_ostream Out, Log;
  Framing F = Input.startswith("Content-") ? Framing::Standard : Framing::Delimited;
  {
    std::unique_ptr<Transport> T = newJSONTransport(In, Out, Log, F);
    ServerOptions SO;
    SO.Synchronous = true;
    Server S(*T, Log, SO);
    if (llvm::Error E = T->loop(S))
      llvm::consumeError(std::move(E));
    S.sync();
  }
  std::fclose(In);
  return 0;
}
