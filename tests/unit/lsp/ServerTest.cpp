//===--- ServerTest.cpp - The LSP layer, in process -----------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tier two of the LSP tests (tests/lsp/*.test is tier one): URIs and
/// positions, the transport's framing and its handling of bad input, and a
/// Server driven by an in-process client (LSPClient: call, notify, sync,
/// diagnostics), as clangd's unittests/LSPClient.h.
///
//===----------------------------------------------------------------------===//

#include "lsp/Protocol.h"
#include "lsp/Server.h"
#include "lsp/Transport.h"
#include "report/Paths.h"

#include "tests/support/TestFiles.h"

#include "gtest/gtest.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <random>

namespace devport {
namespace lsp {
namespace {

using llvm::json::Value;

TEST(URI, DecodesWhatFileUriEncodes) {
  std::string Path = "/home/ana/my proj/100%/caf\xC3\xA9#1.py";
  std::string URI = fileUri(Path);
  EXPECT_EQ(URI, "file:///home/ana/my%20proj/100%25/caf%C3%A9%231.py");
  llvm::Expected<std::string> Back = pathFromURI(URI);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(*Back, Path);
}

TEST(URI, RefusesOtherSchemesHostsAndBadEscapes) {
  for (const char *Bad : {"untitled:Untitled-1", "file://server/share/a.py", "file:///a%2", "file:///a%zz"}) {
    llvm::Expected<std::string> P = pathFromURI(Bad);
    EXPECT_FALSE(bool(P)) << Bad;
    llvm::consumeError(P.takeError());
  }
  llvm::Expected<std::string> Local = pathFromURI("file://localhost/tmp/a.py");
  ASSERT_TRUE(bool(Local));
  EXPECT_EQ(*Local, "/tmp/a.py");
}

TEST(Positions, UTF16CountsSurrogatePairsAndUTF8CountsBytes) {
  // "😀" is 4 bytes and 2 UTF-16 units; "é" 2 bytes and 1 unit.
  SourceFile F("a.py", "a\r\n\xC3\xA9\xF0\x9F\x98\x80x = 1\n");
  uint32_t X = static_cast<uint32_t>(F.text().find('x'));
  Position P16 = positionOf(F, X, PositionEncoding::UTF16);
  EXPECT_EQ(P16.Line, 1);
  EXPECT_EQ(P16.Character, 3);
  Position P8 = positionOf(F, X, PositionEncoding::UTF8);
  EXPECT_EQ(P8.Character, 6);
  EXPECT_EQ(offsetOf(F, P16, PositionEncoding::UTF16), X);
  EXPECT_EQ(offsetOf(F, P8, PositionEncoding::UTF8), X);
  // Inside the surrogate pair, or inside a UTF-8 sequence: before the character.
  EXPECT_EQ(offsetOf(F, {1, 2}, PositionEncoding::UTF16), X - 4);
  EXPECT_EQ(offsetOf(F, {1, 4}, PositionEncoding::UTF8), X - 4);
  // Past the end of line 0: its end, before the CRLF.
  EXPECT_EQ(offsetOf(F, {0, 99}, PositionEncoding::UTF16), 1u);
  bool Out = false;
  EXPECT_EQ(offsetOf(F, {7, 0}, PositionEncoding::UTF16, &Out), F.text().size());
  EXPECT_TRUE(Out);
}

TEST(Positions, DifferingSpanIsTheEditBetweenTwoVersions) {
  std::mt19937 Rng(7);
  const char *Pieces[] = {"a", "b", "\n", "\r\n", "\xC3\xA9", "\xF0\x9F\x98\x80", " ", "torch"};
  auto RandomText = [&](size_t Count) {
    std::string T;
    for (size_t I = 0; I < Count; ++I)
      T += Pieces[Rng() % 8];
    return T;
  };
  auto Continuation = [](char C) { return (static_cast<unsigned char>(C) & 0xC0) == 0x80; };
  // Not inside a character or a CRLF: a position an editor can name.
  auto Nameable = [&](llvm::StringRef T, size_t At) {
    return At == 0 || At >= T.size() ||
           (!Continuation(T[At]) && !(T[At] == '\n' && T[At - 1] == '\r'));
  };
  for (int Case = 0; Case < 3000; ++Case) {
    // Texts from empty to a few hundred bytes (several 64-byte blocks), an
    // edit anywhere: at the start, the end, or a block's edge.
    std::string Old = RandomText(Rng() % 150);
    size_t B = Old.empty() ? 0 : Rng() % (Old.size() + 1);
    size_t E = std::min(Old.size(), B + Rng() % 8);
    std::string New = Old.substr(0, B) + RandomText(Rng() % 4) + Old.substr(E);
    // Two changes coalesced (didChanges that queued up): one byte more, apart.
    if (Case % 2 && !New.empty())
      New[Rng() % New.size()] ^= 1;
    // The common prefix and suffix, as byte-by-byte loops find them.
    size_t Max = std::min(Old.size(), New.size()), Pre = 0, Suf = 0;
    while (Pre < Max && Old[Pre] == New[Pre])
      ++Pre;
    while (Suf < Max - Pre && Old[Old.size() - 1 - Suf] == New[New.size() - 1 - Suf])
      ++Suf;
    ASSERT_EQ(Pre, commonPrefix(Old, New)) << Case;
    ASSERT_EQ(Suf, commonSuffix(Old, New, Max - Pre)) << Case;
    Edit Got = differingSpan(Old, New);
    ASSERT_EQ(New, Old.substr(0, Got.Range.Begin) + Got.Replacement + Old.substr(Got.Range.End));
    ASSERT_LE(Got.Range.Begin, Pre) << Case;
    ASSERT_LE(Old.size() - Got.Range.End, Suf) << Case;
    ASSERT_TRUE(Nameable(Old, Got.Range.Begin) && Nameable(Old, Got.Range.End)) << Case;
  }
  // Equal texts: an empty edit.
  std::string Same(1000, 'x');
  Edit E = differingSpan(Same, Same);
  EXPECT_EQ(E.Range.Begin, E.Range.End);
  EXPECT_TRUE(E.Replacement.empty());
}

TEST(Protocol, DiagnosticsAreWrittenAsTheirValuesSerialize) {
  std::vector<LspDiagnostic> Ds(4);
  Ds[0].Code = "cuda-synchronize";
  Ds[0].Message = "plain";
  Ds[1].Code = "cuda-amp";
  Ds[1].CodeHref = "file:///docs/rules/cuda-amp.md";
  Ds[1].Message =
      "quotes \" and \\, a tab\t, a newline\n, \x01 and \x1f, \r, caf\xC3\xA9, \xF0\x9F\x98\x80";
  Ds[1].Tags = {2};
  Ds[1].Severity = 3;
  Ds[2].R = {{12, 4}, {13, 0}};
  Ds[2].Tags = {1, 2};
  Ds[2].Source = "";
  Ds[3].R = {{0, 0}, {2147483, 65535}};
  for (const LspDiagnostic &D : Ds) {
    std::string Want, Got;
    {
      llvm::raw_string_ostream OS(Want);
      OS << toJSON(D);
    }
    {
      llvm::raw_string_ostream OS(Got);
      llvm::json::OStream J(OS);
      writeJSON(J, D);
    }
    EXPECT_EQ(Want, Got);
  }
}

/// A transport that records what the server sends.
class RecordingTransport final : public Transport {
public:
  void notify(llvm::StringRef Method, Value Params) override {
    std::lock_guard<std::mutex> Lock(M);
    Notifications.push_back({Method.str(), std::move(Params)});
  }
  void call(llvm::StringRef Method, Value, Value) override {
    std::lock_guard<std::mutex> Lock(M);
    Calls.push_back(Method.str());
  }
  void reply(Value ID, llvm::Expected<Value> Result) override {
    std::lock_guard<std::mutex> Lock(M);
    if (Result)
      Replies.push_back({std::move(ID), std::move(*Result), ""});
    else
      Replies.push_back({std::move(ID), nullptr, llvm::toString(Result.takeError())});
  }
  llvm::Error loop(MessageHandler &) override { return llvm::Error::success(); }

  struct ReplyRecord {
    Value ID;
    Value Result;
    std::string Error;
  };
  std::mutex M;
  std::vector<std::pair<std::string, Value>> Notifications;
  std::vector<std::string> Calls;
  std::vector<ReplyRecord> Replies;
};

/// An in-process client: the server's handlers called directly.
class LSPClient {
public:
  LSPClient() : Log(LogText), S(T, Log, ServerOptions{}) {}

  /// A request; the result (or the error text, as a string) once answered.
  Value call(llvm::StringRef Method, Value Params) {
    int64_t ID = NextID++;
    S.onCall(Method, std::move(Params), ID);
    S.sync();
    std::lock_guard<std::mutex> Lock(T.M);
    for (auto &R : T.Replies)
      if (R.ID == Value(ID))
        return R.Error.empty() ? R.Result : Value("error: " + R.Error);
    return Value("no reply");
  }
  void notify(llvm::StringRef Method, Value Params) {
    S.onNotify(Method, std::move(Params));
  }
  void sync() { S.sync(); }
  void didOpen(llvm::StringRef URI, llvm::StringRef Text, int64_t Version = 1) {
    notify("textDocument/didOpen",
           llvm::json::Object{{"textDocument", llvm::json::Object{{"uri", URI},
                                                                  {"languageId", "python"},
                                                                  {"version", Version},
                                                                  {"text", Text}}}});
  }
  /// The rule ids of the last diagnostics published for URI, and their version.
  std::vector<std::string> diagnostics(llvm::StringRef URI, int64_t *Version = nullptr) {
    sync();
    std::lock_guard<std::mutex> Lock(T.M);
    for (auto It = T.Notifications.rbegin(); It != T.Notifications.rend(); ++It) {
      const llvm::json::Object *P = It->second.getAsObject();
      if (It->first != "textDocument/publishDiagnostics" || P->getString("uri") != URI)
        continue;
      if (Version)
        *Version = P->getInteger("version").getValueOr(-1);
      std::vector<std::string> Ids;
      for (const Value &D : *P->getArray("diagnostics"))
        Ids.push_back(D.getAsObject()->getString("code")->str());
      return Ids;
    }
    return {"<none published>"};
  }
  size_t published() {
    sync();
    std::lock_guard<std::mutex> Lock(T.M);
    return llvm::count_if(T.Notifications, [](auto &N) {
      return N.first == "textDocument/publishDiagnostics";
    });
  }

  std::string LogText;
  llvm::raw_string_ostream Log;
  RecordingTransport T;
  Server S;
  int64_t NextID = 1;
};

Value initializeParams() {
  return llvm::json::Object{{"processId", nullptr}, {"rootUri", nullptr},
                            {"capabilities", llvm::json::Object{}}};
}

TEST(Server, PublishesTheNewestVersionAndCoalescesQueuedChanges) {
  LSPClient C;
  C.call("initialize", initializeParams());
  C.didOpen("file:///ws/a.py", "import torch\ntorch.cuda.synchronize()\n");
  int64_t Version = 0;
  EXPECT_EQ(C.diagnostics("file:///ws/a.py", &Version),
            std::vector<std::string>{"cuda-synchronize"});
  EXPECT_EQ(Version, 1);
  size_t Before = C.published();
  // Fifty changes sent without waiting: the analyses coalesce, and the last
  // diagnostics are those of the last version.
  for (int V = 2; V <= 51; ++V)
    C.notify("textDocument/didChange",
             llvm::json::Object{
                 {"textDocument", llvm::json::Object{{"uri", "file:///ws/a.py"}, {"version", V}}},
                 {"contentChanges",
                  llvm::json::Array{llvm::json::Object{
                      {"range", llvm::json::Object{{"start", llvm::json::Object{{"line", 2}, {"character", 0}}},
                                                   {"end", llvm::json::Object{{"line", 2}, {"character", 0}}}}},
                      {"text", V == 51 ? "torch.cuda.empty_cache()\n" : "\n"}}}}});
  EXPECT_EQ(C.diagnostics("file:///ws/a.py", &Version),
            (std::vector<std::string>{"cuda-synchronize", "cuda-empty-cache"}));
  EXPECT_EQ(Version, 51);
  EXPECT_LT(C.published() - Before, 50u);
}

TEST(Server, RefusesRequestsBeforeInitializeAndAfterShutdown) {
  LSPClient C;
  EXPECT_EQ(C.call("textDocument/hover", llvm::json::Object{}),
            Value("error: the server is not initialized (code -32002)"));
  C.call("initialize", initializeParams());
  EXPECT_EQ(C.call("shutdown", nullptr), Value(nullptr));
  EXPECT_EQ(C.S.exitCode(), 0);
  EXPECT_EQ(C.call("textDocument/hover", llvm::json::Object{}),
            Value("error: the server is shutting down (code -32600)"));
}

TEST(Server, AnUnknownDocumentOrBadParametersAreErrorsNotCrashes) {
  LSPClient C;
  C.call("initialize", initializeParams());
  Value R = C.call("textDocument/hover",
                   llvm::json::Object{{"textDocument", llvm::json::Object{{"uri", "file:///no.py"}}},
                                      {"position", llvm::json::Object{{"line", 0}, {"character", 0}}}});
  EXPECT_EQ(R, Value("error: hover: file:///no.py is not open (code -32602)"));
  R = C.call("textDocument/codeAction", llvm::json::Array{1, 2});
  ASSERT_TRUE(R.getAsString());
  EXPECT_TRUE(R.getAsString()->startswith("error: bad parameters of textDocument/codeAction"));
  C.notify("textDocument/didChange", llvm::json::Object{{"textDocument", 3}});
  C.sync();
  EXPECT_NE(C.LogText.find("bad parameters of textDocument/didChange"), std::string::npos);
}

TEST(Server, DidCloseClearsTheDiagnostics) {
  LSPClient C;
  C.call("initialize", initializeParams());
  C.didOpen("file:///ws/c.py", "import torch\ntorch.cuda.synchronize()\n");
  EXPECT_EQ(C.diagnostics("file:///ws/c.py").size(), 1u);
  C.notify("textDocument/didClose",
           llvm::json::Object{{"textDocument", llvm::json::Object{{"uri", "file:///ws/c.py"}}}});
  EXPECT_TRUE(C.diagnostics("file:///ws/c.py").empty());
}

TEST(Server, ReloadsTheConfigurationWhenTheEditorSaysItChanged) {
  test::TempDir Dir;
  Dir.write(".devport.yaml", "ignore: [cuda-synchronize]\n");
  std::string URI = fileUri(Dir.path("train.py"));
  LSPClient C;
  C.call("initialize", initializeParams());
  C.didOpen(URI, "import torch\ntorch.cuda.synchronize()\ntorch.cuda.empty_cache()\n");
  EXPECT_EQ(C.diagnostics(URI), std::vector<std::string>{"cuda-empty-cache"});
  Dir.write(".devport.yaml", "ignore: [cuda-empty-cache]\n");
  C.notify("workspace/didChangeWatchedFiles",
           llvm::json::Object{{"changes", llvm::json::Array{llvm::json::Object{
                                              {"uri", fileUri(Dir.path(".devport.yaml"))},
                                              {"type", 2}}}}});
  EXPECT_EQ(C.diagnostics(URI), std::vector<std::string>{"cuda-synchronize"});
  // A broken configuration: an error shown to the user, the server goes on.
  Dir.write(".devport.yaml", "ignore: [\n");
  C.notify("textDocument/didSave",
           llvm::json::Object{{"textDocument", llvm::json::Object{{"uri", fileUri(Dir.path(".devport.yaml"))}}}});
  C.sync();
  C.notify("textDocument/didChange",
           llvm::json::Object{{"textDocument", llvm::json::Object{{"uri", URI}, {"version", 2}}},
                              {"contentChanges", llvm::json::Array{llvm::json::Object{{"text", "x = 1\n"}}}}});
  C.sync();
  std::lock_guard<std::mutex> Lock(C.T.M);
  EXPECT_TRUE(llvm::any_of(C.T.Notifications, [](auto &N) {
    return N.first == "window/showMessage";
  }));
}

/// The applicability in the hover of the finding at Line:Column of URI.
std::string hoverFix(LSPClient &C, llvm::StringRef URI, int Line, int Column) {
  Value R = C.call(
      "textDocument/hover",
      llvm::json::Object{{"textDocument", llvm::json::Object{{"uri", URI}}},
                         {"position", llvm::json::Object{{"line", Line}, {"character", Column}}}});
  const llvm::json::Object *H = R.getAsObject();
  const llvm::json::Object *Contents = H ? H->getObject("contents") : nullptr;
  llvm::Optional<llvm::StringRef> Text;
  if (Contents)
    Text = Contents->getString("value");
  if (!Text)
    return "no hover";
  size_t At = Text->find("**Fix** (");
  if (At == llvm::StringRef::npos)
    return "no fix";
  return Text->substr(At + 9).take_until([](char Ch) { return Ch == ')'; }).str();
}

TEST(Server, ReadsTheProjectsTestsAgainWhenOneChanges) {
  // A test that puts a double in place of torch.cuda.synchronize makes the
  // module's fix unsafe (matchers/python/ProjectModules.h): the editor's
  // diagnostics follow the tests as they change, not as the server first
  // read them.
  test::TempDir Dir;
  Dir.write("pyproject.toml", "[project]\nname = \"pkg\"\n");
  Dir.write("pkg/__init__.py", "");
  Dir.write("pkg/engine.py", "import torch\n\n\ndef wait():\n    torch.cuda.synchronize()\n");
  Dir.write("tests/test_engine.py", "from pkg.engine import wait\n\n\ndef test_wait():\n"
                                    "    wait()\n");
  std::string URI = fileUri(Dir.path("pkg/engine.py"));
  std::string TestURI = fileUri(Dir.path("tests/test_engine.py"));
  LSPClient C;
  C.call("initialize", initializeParams());
  C.didOpen(URI, Dir.read("pkg/engine.py"));
  EXPECT_EQ(C.diagnostics(URI), std::vector<std::string>{"cuda-synchronize"});
  EXPECT_EQ(hoverFix(C, URI, 4, 10), "safe");
  // The test now replaces the function (saved from the editor).
  Dir.write("tests/test_engine.py",
            "from unittest import mock\n\nfrom pkg.engine import wait\n\n\ndef test_wait():\n"
            "    with mock.patch(\"torch.cuda.synchronize\"):\n        wait()\n");
  C.notify("textDocument/didSave",
           llvm::json::Object{{"textDocument", llvm::json::Object{{"uri", TestURI}}}});
  C.sync();
  EXPECT_EQ(hoverFix(C, URI, 4, 10), "unsafe");
  // The test deleted (a watched file's event): safe again.
  ASSERT_FALSE(llvm::sys::fs::remove(Dir.path("tests/test_engine.py")));
  C.notify("workspace/didChangeWatchedFiles",
           llvm::json::Object{
               {"changes", llvm::json::Array{llvm::json::Object{{"uri", TestURI}, {"type", 3}}}}});
  C.sync();
  EXPECT_EQ(hoverFix(C, URI, 4, 10), "safe");
  // Another file's save changes nothing that the tests said.
  C.notify("textDocument/didSave",
           llvm::json::Object{
               {"textDocument", llvm::json::Object{{"uri", fileUri(Dir.path("pkg/x.py"))}}}});
  C.sync();
  EXPECT_EQ(hoverFix(C, URI, 4, 10), "safe");
}

/// The transport's framing, on a temporary file as input.
std::string runTransport(llvm::StringRef Input, Framing F, std::string &Log) {
  std::FILE *In = std::tmpfile();
  std::fwrite(Input.data(), 1, Input.size(), In);
  std::rewind(In);
  std::string Out;
  llvm::raw_string_ostream OS(Out), LogOS(Log);
  auto T = newJSONTransport(In, OS, LogOS, F);
  struct Echo final : MessageHandler {
    Transport *T;
    bool onNotify(llvm::StringRef M, Value) override { return M != "exit"; }
    bool onCall(llvm::StringRef M, Value, Value ID) override {
      T->reply(std::move(ID), Value(M));
      return true;
    }
    bool onReply(Value, llvm::Expected<Value> R) override {
      llvm::consumeError(R.takeError());
      return true;
    }
  } H;
  H.T = T.get();
  llvm::Error E = T->loop(H);
  EXPECT_FALSE(bool(E));
  llvm::consumeError(std::move(E));
  std::fclose(In);
  OS.flush();
  LogOS.flush();
  return Out;
}

TEST(Transport, ContentLengthFramingSurvivesBadMessagesAndHeaders) {
  std::string A = R"({"jsonrpc":"2.0","id":1,"method":"a"})";
  std::string Bad = "{not json";
  std::string B = R"({"jsonrpc":"2.0","id":2,"method":"b"})";
  std::string Input = "Content-Length: " + std::to_string(A.size()) + "\r\n\r\n" + A +
                      "Content-Length: " + std::to_string(Bad.size()) + "\r\n\r\n" + Bad +
                      "X-Nothing: 1\r\n\r\n" + // no Content-Length: skipped
                      "Content-Length: " + std::to_string(B.size()) +
                      "\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + B;
  std::string Log;
  std::string Out = runTransport(Input, Framing::Standard, Log);
  EXPECT_NE(Out.find(R"("id":1,"jsonrpc":"2.0","result":"a")"), std::string::npos) << Out;
  EXPECT_NE(Out.find(R"("code":-32700)"), std::string::npos) << Out;
  EXPECT_NE(Out.find(R"("id":2,"jsonrpc":"2.0","result":"b")"), std::string::npos) << Out;
  EXPECT_NE(Log.find("without a Content-Length header"), std::string::npos) << Log;
}

TEST(Transport, InputThatEndsInsideAMessageIsLoggedNotHung) {
  std::string Log;
  std::string Out = runTransport("Content-Length: 100\r\n\r\n{\"jsonrpc\"", Framing::Standard, Log);
  EXPECT_TRUE(Out.empty()) << Out;
  EXPECT_NE(Log.find("input ended inside a message"), std::string::npos) << Log;
}

} // namespace
} // namespace lsp
} // namespace devport
