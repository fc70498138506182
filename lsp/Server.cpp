//===--- Server.cpp - devport's language server ---------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "lsp/Server.h"

#include "engine/Backends.h"
#include "report/Render.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>

namespace devport {
namespace lsp {

using llvm::json::Value;

/// Raw parameters, for handlers that read them themselves.
static bool fromJSON(const Value &E, Value &Out, llvm::json::Path) {
  Out = E;
  return true;
}

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

/// A parse and the text it refers to, kept together.
struct Server::ParseState {
  std::shared_ptr<const SourceFile> File;
  std::unique_ptr<ParsedFile> Parsed;
};

struct Server::Document {
  std::string URI;
  /// The path the engine sees: the file's, or for a URI that is not a file
  /// (an unsaved buffer) a made-up one with the language's extension.
  std::string Path;
  bool IsCpp = false;
  int64_t Version = 0;
  std::shared_ptr<const SourceFile> File; ///< The newest text.
  /// The newest parse (of File or of an earlier text): the base of the next
  /// incremental parse. Written by the worker only.
  std::shared_ptr<ParseState> Parse;
  /// The analysis the client has now: its text, version, engine, findings.
  std::shared_ptr<const SourceFile> AnalyzedFile;
  int64_t AnalyzedVersion = -1;
  std::shared_ptr<const Engine> AnalyzedBy;
  std::vector<Diagnostic> Findings;
  /// The fix-all edit of AnalyzedFile, once computed (an editor asks for
  /// code actions at every move of the cursor); None: nothing to fix.
  std::shared_ptr<const SourceFile> FixAllOf;
  llvm::Optional<Value> FixAll;
};

namespace {

/// The path the engine sees for a document with this URI and language.
std::string documentPath(llvm::StringRef URI, llvm::StringRef LanguageId) {
  llvm::Expected<std::string> P = pathFromURI(URI);
  std::string Path;
  if (P) {
    Path = std::move(*P);
  } else {
    llvm::consumeError(P.takeError());
    std::string Name;
    for (char C : URI)
      Name += llvm::isAlnum(C) ? C : '_';
    Path = "/untitled/" + Name;
  }
  // A file whose extension no backend claims is read in its language.
  for (const LanguageBackend *B : defaultBackends())
    if (B->handlesPath(Path))
      return Path;
  if (LanguageId == "cpp" || LanguageId == "c" || LanguageId == "cuda" || LanguageId == "cuda-cpp")
    return Path + ".cpp";
  return Path + ".py";
}

bool isCppPath(llvm::StringRef Path) {
  for (const LanguageBackend *B : defaultBackends())
    if (B->language() == "cpp" && B->handlesPath(Path))
      return true;
  return false;
}

int lspSeverity(Severity S) {
  switch (S) {
  case Severity::Error:
    return 1;
  case Severity::Warning:
    return 2;
  case Severity::Info:
    return 3;
  case Severity::Hint:
    return 4;
  }
  return 2;
}

std::string inlineCode(llvm::StringRef S) {
  std::string Fence = S.contains('`') ? "``" : "`";
  return Fence + (S.contains('`') ? " " : "") + S.str() + (S.contains('`') ? " " : "") + Fence;
}

} // namespace

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

Server::Server(Transport &T, llvm::raw_ostream &Log, ServerOptions O)
    : T(T), Log(Log), Opts(std::move(O)) {
  bindMethods();
  Worker = std::thread([this] { workerLoop(); });
  SemWorker = std::thread([this] { semanticLoop(); });
}

Server::~Server() {
  {
    std::lock_guard<std::mutex> Lock(QueueMutex);
    Stopping = true;
  }
  QueueCV.notify_all();
  {
    std::lock_guard<std::mutex> Lock(SemMutex);
    SemCV.notify_all();
  }
  Worker.join();
  SemWorker.join();
}

template <typename Param>
void Server::notification(llvm::StringRef Method, void (Server::*Handler)(const Param &)) {
  std::string Name = Method.str();
  Notifications[Method] = [this, Name, Handler](Value V) {
    Param P{};
    llvm::json::Path::Root Root(Name);
    if (!fromJSON(V, P, Root)) {
      logLine("devport lsp: bad parameters of " + Name + ": " + llvm::toString(Root.getError()));
      return;
    }
    (this->*Handler)(P);
  };
}

template <typename Param, typename Result>
void Server::request(llvm::StringRef Method,
                     void (Server::*Handler)(const Param &,
                                             std::function<void(llvm::Expected<Result>)>)) {
  std::string Name = Method.str();
  Calls[Method] = [this, Name, Handler](Value V, Reply R) {
    Param P{};
    llvm::json::Path::Root Root(Name);
    if (!fromJSON(V, P, Root)) {
      R(makeError(ErrorCode::InvalidParams,
                  "bad parameters of " + Name + ": " + llvm::toString(Root.getError())));
      return;
    }
    (this->*Handler)(P, std::move(R));
  };
}

void Server::bindMethods() {
  request("initialize", &Server::onInitialize);
  request("shutdown", &Server::onShutdown);
  request("textDocument/codeAction", &Server::onCodeAction);
  request("codeAction/resolve", &Server::onCodeActionResolve);
  request("textDocument/hover", &Server::onHover);
  notification("initialized", &Server::onInitialized);
  notification("$/setTrace", &Server::onSetTrace);
  notification("textDocument/didOpen", &Server::onDidOpen);
  notification("textDocument/didChange", &Server::onDidChange);
  notification("textDocument/didSave", &Server::onDidSave);
  notification("textDocument/didClose", &Server::onDidClose);
  notification("workspace/didChangeConfiguration", &Server::onDidChangeConfiguration);
  notification("workspace/didChangeWatchedFiles", &Server::onDidChangeWatchedFiles);
}

void Server::logLine(const llvm::Twine &Line) {
  static std::mutex M;
  std::lock_guard<std::mutex> Lock(M);
  Log << Line << "\n";
  Log.flush();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

bool Server::onNotify(llvm::StringRef Method, Value Params) {
  bool Go = handleNotify(Method, std::move(Params));
  if (Opts.Synchronous)
    sync();
  return Go;
}

bool Server::onCall(llvm::StringRef Method, Value Params, Value ID) {
  bool Go = handleCall(Method, std::move(Params), std::move(ID));
  if (Opts.Synchronous)
    sync();
  return Go;
}

bool Server::handleNotify(llvm::StringRef Method, Value Params) {
  if (Method == "exit")
    return false;
  if (Method == "$/cancelRequest") {
    const llvm::json::Object *O = Params.getAsObject();
    const Value *ID = O ? O->get("id") : nullptr;
    if (!ID) {
      logLine("devport lsp: $/cancelRequest without an id");
      return true;
    }
    std::function<void()> Cancel;
    {
      std::lock_guard<std::mutex> Lock(QueueMutex);
      for (auto It = Queue.begin(); It != Queue.end(); ++It)
        if (It->Cancel && It->ID == *ID) {
          Cancel = std::move(It->Cancel);
          Queue.erase(It);
          break;
        }
    }
    if (Cancel)
      Cancel();
    return true;
  }
  if (!Initialized) {
    logLine("devport lsp: " + Method + " before initialize; ignored");
    return true;
  }
  auto It = Notifications.find(Method);
  if (It == Notifications.end()) {
    if (!Method.startswith("$/"))
      logLine("devport lsp: unknown notification " + Method + "; ignored");
    return true;
  }
  It->second(std::move(Params));
  return true;
}

bool Server::handleCall(llvm::StringRef Method, Value Params, Value ID) {
  Reply R = [this, ID](llvm::Expected<Value> Result) { T.reply(ID, std::move(Result)); };
  if (!Initialized && Method != "initialize") {
    R(makeError(ErrorCode::ServerNotInitialized, "the server is not initialized"));
    return true;
  }
  if (Initialized && Method == "initialize") {
    R(makeError(ErrorCode::InvalidRequest, "the server is already initialized"));
    return true;
  }
  if (ShutdownRequested) {
    R(makeError(ErrorCode::InvalidRequest, "the server is shutting down"));
    return true;
  }
  auto It = Calls.find(Method);
  if (It == Calls.end()) {
    R(makeError(ErrorCode::MethodNotFound, "method not found: " + Method));
    return true;
  }
  if (Method == "initialize") {
    It->second(std::move(Params), std::move(R));
    return true;
  }
  if (Method == "shutdown")
    ShutdownRequested = true; // Later requests are refused at once.
  auto Handler = It->second;
  Task Tk;
  Tk.ID = ID;
  Tk.Run = [Handler, Params = std::move(Params), R]() mutable { Handler(std::move(Params), R); };
  Tk.Cancel = [R] { R(makeError(ErrorCode::RequestCancelled, "cancelled")); };
  enqueue(std::move(Tk));
  return true;
}

bool Server::onReply(Value ID, llvm::Expected<Value> Result) {
  if (!Result)
    logLine("devport lsp: the client refused request " + llvm::formatv("{0}", ID).str() + ": " +
            llvm::toString(Result.takeError()));
  return true;
}

void Server::enqueue(Task Tk) {
  {
    std::lock_guard<std::mutex> Lock(QueueMutex);
    Queue.push_back(std::move(Tk));
  }
  QueueCV.notify_one();
}

void Server::workerLoop() {
  while (true) {
    Task Tk;
    {
      std::unique_lock<std::mutex> Lock(QueueMutex);
      QueueCV.wait(Lock, [&] { return Stopping || !Queue.empty(); });
      if (Stopping)
        return;
      Tk = std::move(Queue.front());
      Queue.pop_front();
      Busy = true;
    }
    Tk.Run();
    {
      std::lock_guard<std::mutex> Lock(QueueMutex);
      Busy = false;
    }
    IdleCV.notify_all();
  }
}

void Server::sync() {
  while (true) {
    {
      std::unique_lock<std::mutex> Lock(QueueMutex);
      IdleCV.wait(Lock, [&] { return Queue.empty() && !Busy; });
    }
    std::unique_lock<std::mutex> Lock(SemMutex);
    if (SemQueue.empty() && !SemBusy)
      return;
    SemCV.wait(Lock, [&] { return SemQueue.empty() && !SemBusy; });
  }
}

//===----------------------------------------------------------------------===//
// Lifecycle
//===----------------------------------------------------------------------===//

void Server::onInitialize(const InitializeParams &P, Reply R) {
  if (llvm::is_contained(P.PositionEncodings, "utf-8"))
    Encoding = PositionEncoding::UTF8;
  Verbose = P.Trace && *P.Trace == "verbose";
  ResolveEdits = P.CodeActionResolveEdit;
  CodeDescriptions = P.DiagnosticCodeDescription;
  Settings = P.Settings;
  bool WatchFiles = P.WatchedFilesDynamicRegistration;
  if (!loadProjects()) {
    R(makeError(ErrorCode::RequestFailed, "devport: " + LastError));
    return;
  }
  Initialized = true;
  llvm::json::Object Caps{
      {"positionEncoding", Encoding == PositionEncoding::UTF8 ? "utf-8" : "utf-16"},
      {"textDocumentSync",
       llvm::json::Object{{"openClose", true},
                          {"change", 2}, // incremental
                          {"save", llvm::json::Object{{"includeText", false}}}}},
      {"codeActionProvider",
       llvm::json::Object{
           {"codeActionKinds", llvm::json::Array{"quickfix", "source.fixAll.devport"}},
           {"resolveProvider", ResolveEdits}}},
      {"hoverProvider", true},
  };
  R(llvm::json::Object{
      {"capabilities", std::move(Caps)},
      {"serverInfo", llvm::json::Object{{"name", "devport"}, {"version", DEVPORT_VERSION}}}});
  if (WatchFiles) {
    llvm::json::Array Watchers;
    // The project's tests too: a review reads the doubles that they put in
    // place of torch.cuda functions (matchers/python/ProjectModules.h).
    for (const char *Glob : {"**/.devport.yaml", "**/pyproject.toml", "**/setup.cfg", "**/setup.py",
                             "**/requirements*.txt", "**/compile_commands.json", "**/test*.py",
                             "**/*_test.py", "**/conftest.py"})
      Watchers.push_back(llvm::json::Object{{"globPattern", Glob}});
    T.call("client/registerCapability",
           llvm::json::Object{{"registrations",
                               llvm::json::Array{llvm::json::Object{
                                   {"id", "devport-watched-files"},
                                   {"method", "workspace/didChangeWatchedFiles"},
                                   {"registerOptions",
                                    llvm::json::Object{{"watchers", std::move(Watchers)}}}}}}},
           "devport-" + std::to_string(NextRequestID++));
  }
}

void Server::onInitialized(const Value &) {}

void Server::onShutdown(const Value &, Reply R) { R(nullptr); }

void Server::onSetTrace(const Value &P) {
  if (const llvm::json::Object *O = P.getAsObject())
    if (auto V = O->getString("value"))
      Verbose = *V == "verbose";
}

bool Server::loadProjects() {
  ProjectOptions PO = Opts.Project;
  if (Settings.TargetTorch) {
    std::optional<TorchVersion> V = TorchVersion::parse(*Settings.TargetTorch);
    if (!V) {
      LastError = "targetTorch: '" + *Settings.TargetTorch + "' is not a release like 2.6";
      showError(LastError);
      return Lexical != nullptr;
    }
    PO.Target = *V;
  }
  if (Settings.Select)
    PO.Select = *Settings.Select;
  if (Settings.Ignore)
    PO.Ignore.insert(PO.Ignore.end(), Settings.Ignore->begin(), Settings.Ignore->end());
  if (Settings.DeviceExpression)
    PO.DeviceExpression = *Settings.DeviceExpression;
  if (Settings.ConfigFile)
    PO.ConfigFile = *Settings.ConfigFile;
  if (Settings.CompileCommandsDir)
    PO.CompileCommandsDir = *Settings.CompileCommandsDir;
  bool WantSemantic = PO.CppSemantic && !(Settings.CppEngine && *Settings.CppEngine == "lexical");
  PO.UnsafeFixes = false; // fixAll applies safe fixes only.
  PO.CppSemantic = false;
  llvm::Expected<std::unique_ptr<Project>> Lex = Project::load(PO);
  if (!Lex) {
    LastError = llvm::toString(Lex.takeError());
    showError(LastError);
    return Lexical != nullptr;
  }
  std::shared_ptr<Project> NewLexical = std::move(*Lex), NewSemantic;
  if (WantSemantic) {
    ProjectOptions SO = NewLexical->options();
    SO.CppSemantic = true;
    NewSemantic = Project::withRules(NewLexical->rules(), SO);
  }
  std::string Docs = Settings.DocsURL ? *Settings.DocsURL : Opts.DocsURL;
  std::lock_guard<std::mutex> Lock(ProjectMutex);
  Lexical = std::move(NewLexical);
  Semantic = std::move(NewSemantic);
  DocsBase = std::move(Docs);
  LastError.clear();
  return true;
}

void Server::showError(const std::string &Message) {
  logLine("devport lsp: " + Message);
  T.notify("window/showMessage",
           llvm::json::Object{{"type", 1}, {"message", "devport: " + Message}});
}

std::shared_ptr<const Engine> Server::engineFor(Project &P, const std::string &Path) {
  llvm::Expected<std::shared_ptr<const Engine>> E = P.engineFor(Path);
  if (!E) {
    std::string Message = llvm::toString(E.takeError());
    std::lock_guard<std::mutex> Lock(ProjectMutex);
    if (Message != LastError) {
      LastError = Message;
      showError(Message);
    }
    return nullptr;
  }
  return *E;
}

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

void Server::onDidOpen(const DidOpenParams &P) {
  auto D = std::make_unique<Document>();
  D->URI = P.Doc.URI;
  D->Path = documentPath(P.Doc.URI, P.Doc.LanguageId);
  D->IsCpp = isCppPath(D->Path);
  D->Version = P.Doc.Version;
  D->File = std::make_shared<const SourceFile>(D->Path, P.Doc.Text);
  {
    std::lock_guard<std::mutex> Lock(DocMutex);
    Docs[P.Doc.URI] = std::move(D);
  }
  scheduleAnalysis(P.Doc.URI);
}

void Server::onDidChange(const DidChangeParams &P) {
  {
    std::lock_guard<std::mutex> Lock(DocMutex);
    auto It = Docs.find(P.Doc.URI);
    if (It == Docs.end()) {
      logLine("devport lsp: didChange for " + P.Doc.URI + ", which is not open; ignored");
      return;
    }
    Document &D = *It->second;
    std::shared_ptr<const SourceFile> Cur = D.File;
    for (const TextDocumentContentChangeEvent &C : P.Changes) {
      if (!C.R) {
        Cur = std::make_shared<const SourceFile>(D.Path, C.Text);
        continue;
      }
      bool Out1 = false, Out2 = false;
      uint32_t B = offsetOf(*Cur, C.R->Start, Encoding, &Out1);
      uint32_t E = offsetOf(*Cur, C.R->End, Encoding, &Out2);
      if (Out1 || Out2)
        logLine("devport lsp: didChange of " + P.Doc.URI +
                ": a range beyond the end of the document; clamped to its end");
      if (E < B) {
        logLine("devport lsp: didChange of " + P.Doc.URI + ": a range that ends before it starts");
        std::swap(B, E);
      }
      std::string Text = Cur->text().str();
      Text.replace(B, E - B, C.Text);
      Cur = std::make_shared<const SourceFile>(D.Path, std::move(Text));
    }
    D.File = std::move(Cur);
    if (P.Doc.Version)
      D.Version = *P.Doc.Version;
    else
      ++D.Version;
  }
  scheduleAnalysis(P.Doc.URI);
}

void Server::onDidSave(const DidSaveParams &P) {
  llvm::Expected<std::string> Path = pathFromURI(P.Doc.URI);
  std::string SavedPath;
  if (Path)
    SavedPath = *Path;
  else
    llvm::consumeError(Path.takeError());
  Task Tk;
  Tk.Run = [this, URI = P.Doc.URI, SavedPath] {
    // A configuration or packaging file edited in the editor: clients
    // without file watchers tell us this way.
    if (!SavedPath.empty())
      filesChanged({SavedPath});
    bool Cpp = false;
    {
      std::lock_guard<std::mutex> Lock(DocMutex);
      auto It = Docs.find(URI);
      Cpp = It != Docs.end() && It->second->IsCpp;
    }
    if (Cpp && Semantic)
      scheduleSemantic(URI);
  };
  enqueue(std::move(Tk));
}

void Server::onDidClose(const DidCloseParams &P) {
  std::lock_guard<std::mutex> Lock(DocMutex);
  auto It = Docs.find(P.Doc.URI);
  if (It == Docs.end()) {
    logLine("devport lsp: didClose for " + P.Doc.URI + ", which is not open; ignored");
    return;
  }
  Docs.erase(It);
  T.notify("textDocument/publishDiagnostics",
           llvm::json::Object{{"uri", P.Doc.URI}, {"diagnostics", llvm::json::Array{}}});
}

void Server::scheduleAnalysis(const std::string &URI) {
  {
    std::lock_guard<std::mutex> Lock(QueueMutex);
    bool &Queued = AnalysisQueued[URI];
    if (Queued)
      return;
    Queued = true;
    Task Tk;
    Tk.Run = [this, URI] {
      {
        std::lock_guard<std::mutex> Lock(QueueMutex);
        AnalysisQueued.erase(URI);
      }
      analyze(URI);
    };
    Queue.push_back(std::move(Tk));
  }
  QueueCV.notify_one();
}

void Server::analyze(const std::string &URI) {
  auto Start = std::chrono::steady_clock::now();
  std::shared_ptr<const SourceFile> File;
  std::shared_ptr<ParseState> Prev;
  int64_t Version;
  std::string Path;
  {
    std::lock_guard<std::mutex> Lock(DocMutex);
    auto It = Docs.find(URI);
    if (It == Docs.end())
      return;
    Document &D = *It->second;
    if (D.AnalyzedVersion == D.Version && D.AnalyzedFile == D.File)
      return; // Already done by an analysis that saw this version.
    File = D.File;
    Prev = D.Parse;
    Version = D.Version;
    Path = D.Path;
  }
  std::shared_ptr<Project> P;
  {
    std::lock_guard<std::mutex> Lock(ProjectMutex);
    P = Lexical;
  }
  std::shared_ptr<const Engine> E = P ? engineFor(*P, Path) : nullptr;
  auto State = std::make_shared<ParseState>();
  State->File = File;
  CheckResult R;
  if (E) {
    std::vector<Edit> Edits;
    const ParsedFile *PrevParsed = nullptr;
    if (Prev && Prev->Parsed) {
      PrevParsed = Prev->Parsed.get();
      if (Prev->File->text() != File->text())
        Edits.push_back(differingSpan(Prev->File->text(), File->text()));
    }
    R = E->checkIncremental(*File, PrevParsed, Edits, State->Parsed);
  }
  std::lock_guard<std::mutex> Lock(DocMutex);
  auto It = Docs.find(URI);
  if (It == Docs.end())
    return;
  Document &D = *It->second;
  D.Parse = std::move(State);
  if (D.Version != Version)
    return; // A newer version is queued; this result is stale.
  D.AnalyzedFile = File;
  D.AnalyzedVersion = Version;
  D.AnalyzedBy = E;
  D.Findings = std::move(R.Findings);
  publish(D);
  if (Verbose) {
    double Ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
                    .count();
    T.notify("$/logTrace",
             llvm::json::Object{{"message", llvm::formatv("analysed {0} version {1} in {2:f2} ms",
                                                          URI, Version, Ms)
                                                .str()}});
  }
}

void Server::reanalyzeAll() {
  std::vector<std::string> URIs;
  {
    std::lock_guard<std::mutex> Lock(DocMutex);
    for (auto &[URI, D] : Docs) {
      D->AnalyzedVersion = -1; // Not up to date with the new settings.
      URIs.push_back(URI);
    }
  }
  for (const std::string &URI : URIs)
    scheduleAnalysis(URI);
}

void Server::scheduleSemantic(const std::string &URI) {
  std::lock_guard<std::mutex> Lock(SemMutex);
  std::lock_guard<std::mutex> DocLock(DocMutex);
  auto It = Docs.find(URI);
  if (It == Docs.end())
    return;
  SemQueue[URI] = It->second->Version;
  SemCV.notify_all();
}

void Server::semanticLoop() {
  while (true) {
    std::string URI;
    int64_t Version;
    {
      std::unique_lock<std::mutex> Lock(SemMutex);
      SemCV.wait(Lock, [&] { return Stopping || !SemQueue.empty(); });
      if (Stopping)
        return;
      URI = SemQueue.begin()->first;
      Version = SemQueue.begin()->second;
      SemQueue.erase(SemQueue.begin());
      SemBusy = true;
    }
    std::shared_ptr<const SourceFile> File;
    std::string Path;
    {
      std::lock_guard<std::mutex> Lock(DocMutex);
      auto It = Docs.find(URI);
      if (It != Docs.end() && It->second->Version == Version) {
        File = It->second->File;
        Path = It->second->Path;
      }
    }
    std::shared_ptr<Project> P;
    {
      std::lock_guard<std::mutex> Lock(ProjectMutex);
      P = Semantic;
    }
    if (File && P) {
      if (std::shared_ptr<const Engine> E = engineFor(*P, Path)) {
        CheckResult R = E->checkAll(*File);
        std::lock_guard<std::mutex> Lock(DocMutex);
        auto It = Docs.find(URI);
        // Dropped when the document changed meanwhile: the lexical result
        // of the newer version stands.
        if (It != Docs.end() && It->second->Version == Version) {
          Document &D = *It->second;
          D.AnalyzedFile = File;
          D.AnalyzedVersion = Version;
          D.AnalyzedBy = E;
          D.Findings = std::move(R.Findings);
          publish(D);
        }
      }
    }
    {
      std::lock_guard<std::mutex> Lock(SemMutex);
      SemBusy = false;
    }
    SemCV.notify_all();
  }
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::string Server::docsLink(llvm::StringRef RuleId) const {
  std::lock_guard<std::mutex> Lock(ProjectMutex);
  if (DocsBase.empty())
    return "";
  return DocsBase + RuleId.str() + ".md";
}

LspDiagnostic Server::toLsp(const Document &D, const Diagnostic &Diag) const {
  LspDiagnostic L;
  L.R = rangeOf(*D.AnalyzedFile, Diag.Range, Encoding);
  L.Severity = lspSeverity(Diag.Sev);
  L.Code = Diag.RuleId;
  if (CodeDescriptions)
    L.CodeHref = docsLink(Diag.RuleId);
  L.Message = Diag.Message;
  for (const Note &N : Diag.Notes)
    L.Message += "\n" + noteText(N);
  if (D.AnalyzedBy)
    if (const Rule *R = D.AnalyzedBy->rules().find(Diag.RuleId))
      if (R->Category == "amp" || R->Category == "legacy-types")
        L.Tags.push_back(2); // Deprecated: torch.cuda.amp, legacy tensor types.
  return L;
}

void Server::publish(const Document &D) {
  // Written as it is built: the values of a file's hundreds of diagnostics,
  // built and then serialized, were a third of an update of such a file.
  std::string Params;
  llvm::raw_string_ostream OS(Params);
  OS.SetBufferSize(16384);
  llvm::json::OStream J(OS);
  J.object([&] { // keys sorted, as llvm::json writes an object's
    J.attributeArray("diagnostics", [&] {
      for (const Diagnostic &Diag : D.Findings)
        if (Diag.File.empty() || Diag.File == D.Path)
          writeJSON(J, toLsp(D, Diag));
    });
    J.attribute("uri", D.URI);
    J.attribute("version", D.AnalyzedVersion);
  });
  OS.flush();
  T.notifySerialized("textDocument/publishDiagnostics", std::move(Params));
}

//===----------------------------------------------------------------------===//
// Code actions
//===----------------------------------------------------------------------===//

llvm::Optional<TextEdit> Server::ignoreEdit(const Document &D, const Diagnostic &Diag) const {
  const SourceFile &F = *D.AnalyzedFile;
  if (!D.AnalyzedBy)
    return llvm::None;
  llvm::StringRef Marker = D.AnalyzedBy->backendFor(D.Path).commentMarker();
  unsigned First = F.lineOf(Diag.Range.Begin), Last = F.lineOf(Diag.Range.End);
  // The comment goes on the finding's last line that does not continue with
  // a backslash (a comment after one would end the logical line).
  for (unsigned L = Last + 1; L-- > First;) {
    llvm::StringRef LT = F.lineText(L);
    if (LT.rtrim().endswith("\\"))
      continue;
    uint32_t LineStart = F.lineStart(L);
    size_t At = LT.find("devport: ignore[");
    size_t Close = At == llvm::StringRef::npos ? At : LT.find(']', At);
    if (Close != llvm::StringRef::npos) {
      uint32_t Off = LineStart + static_cast<uint32_t>(Close);
      return TextEdit{rangeOf(F, {Off, Off}, Encoding), ", " + Diag.RuleId};
    }
    uint32_t Off = LineStart + static_cast<uint32_t>(LT.size());
    return TextEdit{rangeOf(F, {Off, Off}, Encoding),
                    "  " + Marker.str() + " devport: ignore[" + Diag.RuleId + "]"};
  }
  return llvm::None;
}

llvm::Optional<Value> Server::fixAllEdit(const std::string &URI) {
  std::shared_ptr<const SourceFile> File;
  std::shared_ptr<const Engine> E;
  int64_t Version;
  {
    std::lock_guard<std::mutex> Lock(DocMutex);
    auto It = Docs.find(URI);
    if (It == Docs.end() || !It->second->AnalyzedFile || !It->second->AnalyzedBy)
      return llvm::None;
    File = It->second->AnalyzedFile;
    if (It->second->FixAllOf == File)
      return It->second->FixAll;
    E = It->second->AnalyzedBy;
    Version = It->second->AnalyzedVersion;
  }
  FixOutcome Out = E->fix(*File);
  llvm::Optional<Value> Result;
  if (Out.Text != File->text()) {
    Edit X = differingSpan(File->text(), Out.Text);
    Result = workspaceEdit(URI, Version, {TextEdit{rangeOf(*File, X.Range, Encoding), X.Replacement}});
  }
  std::lock_guard<std::mutex> Lock(DocMutex);
  auto It = Docs.find(URI);
  if (It != Docs.end() && It->second->AnalyzedFile == File) {
    It->second->FixAllOf = File;
    It->second->FixAll = Result;
  }
  return Result;
}

void Server::onCodeAction(const CodeActionParams &P, Reply R) {
  std::unique_lock<std::mutex> Lock(DocMutex);
  auto It = Docs.find(P.Doc.URI);
  if (It == Docs.end()) {
    R(makeError(ErrorCode::InvalidParams, "codeAction: " + P.Doc.URI + " is not open"));
    return;
  }
  const Document &D = *It->second;
  llvm::json::Array Actions;
  if (!D.AnalyzedFile) {
    R(std::move(Actions));
    return;
  }
  const SourceFile &F = *D.AnalyzedFile;
  bool Out1 = false, Out2 = false;
  uint32_t Begin = offsetOf(F, P.R.Start, Encoding, &Out1);
  uint32_t End = offsetOf(F, P.R.End, Encoding, &Out2);
  if (Out1 || Out2)
    logLine("devport lsp: codeAction of " + P.Doc.URI + ": a range beyond the end of the document");
  auto Wants = [&](llvm::StringRef Kind) {
    if (P.Only.empty())
      return true;
    for (const std::string &O : P.Only)
      if (Kind == O || Kind.startswith(O + "."))
        return true;
    return false;
  };
  bool AnySafe = false;
  std::vector<std::pair<std::string, unsigned>> IgnoreOffered;
  for (const Diagnostic &Diag : D.Findings) {
    if (!Diag.File.empty() && Diag.File != D.Path)
      continue;
    const Fix *X = Diag.Fixes.empty() ? nullptr : &Diag.Fixes.front();
    if (X && X->App == Applicability::Safe)
      AnySafe = true;
    if (Diag.Range.End < Begin || Diag.Range.Begin > End || !Wants("quickfix"))
      continue;
    Value LD = toJSON(toLsp(D, Diag));
    if (X && X->App != Applicability::DisplayOnly) {
      std::vector<TextEdit> Edits;
      for (const Edit &E : X->Edits)
        Edits.push_back({rangeOf(F, E.Range, Encoding), E.Replacement});
      bool Safe = X->App == Applicability::Safe;
      Actions.push_back(llvm::json::Object{
          {"title", (Safe ? "" : "Unsafe fix: ") + X->Title + " [" + Diag.RuleId + "]"},
          {"kind", "quickfix"},
          {"diagnostics", llvm::json::Array{LD}},
          {"isPreferred", Safe},
          {"edit", workspaceEdit(D.URI, D.AnalyzedVersion, Edits)}});
    }
    unsigned Line = F.lineOf(Diag.Range.End);
    if (llvm::is_contained(IgnoreOffered, std::make_pair(Diag.RuleId, Line)))
      continue;
    if (llvm::Optional<TextEdit> Ign = ignoreEdit(D, Diag)) {
      IgnoreOffered.push_back({Diag.RuleId, Line});
      Actions.push_back(llvm::json::Object{
          {"title", "Ignore " + Diag.RuleId + " on this line"},
          {"kind", "quickfix"},
          {"diagnostics", llvm::json::Array{LD}},
          {"edit", workspaceEdit(D.URI, D.AnalyzedVersion, {*Ign})}});
    }
  }
  if (AnySafe && Wants("source.fixAll.devport")) {
    llvm::json::Object FixAll{{"title", "Fix all safe devport findings"},
                              {"kind", "source.fixAll.devport"}};
    if (ResolveEdits) {
      FixAll["data"] = llvm::json::Object{{"uri", D.URI}, {"version", D.AnalyzedVersion}};
      Actions.push_back(std::move(FixAll));
    } else {
      std::string URI = D.URI;
      // fixAllEdit takes the lock itself and runs the fixes outside it;
      // D is not used after this.
      Lock.unlock();
      llvm::Optional<Value> Edit = fixAllEdit(URI);
      if (Edit) {
        FixAll["edit"] = std::move(*Edit);
        Actions.push_back(std::move(FixAll));
      }
    }
  }
  R(std::move(Actions));
}

void Server::onCodeActionResolve(const Value &P, Reply R) {
  const llvm::json::Object *O = P.getAsObject();
  const llvm::json::Object *Data = O ? O->getObject("data") : nullptr;
  llvm::Optional<llvm::StringRef> URI = Data ? Data->getString("uri") : llvm::None;
  if (!URI) {
    R(makeError(ErrorCode::InvalidParams, "codeAction/resolve: not a devport fix-all action"));
    return;
  }
  llvm::json::Object Action = *O;
  {
    std::lock_guard<std::mutex> Lock(DocMutex);
    auto It = Docs.find(URI->str());
    if (It == Docs.end()) {
      R(makeError(ErrorCode::InvalidParams, "codeAction/resolve: " + *URI + " is not open"));
      return;
    }
    if (Data->getInteger("version") != It->second->AnalyzedVersion) {
      R(makeError(ErrorCode::ContentModified, "the document changed since the action was offered"));
      return;
    }
  }
  llvm::Optional<Value> Edit = fixAllEdit(URI->str());
  Action["edit"] = Edit ? std::move(*Edit) : workspaceEdit(*URI, llvm::None, {});
  R(Value(std::move(Action)));
}

//===----------------------------------------------------------------------===//
// Hover
//===----------------------------------------------------------------------===//

void Server::onHover(const TextDocumentPositionParams &P, Reply R) {
  std::lock_guard<std::mutex> Lock(DocMutex);
  auto It = Docs.find(P.Doc.URI);
  if (It == Docs.end()) {
    R(makeError(ErrorCode::InvalidParams, "hover: " + P.Doc.URI + " is not open"));
    return;
  }
  const Document &D = *It->second;
  if (!D.AnalyzedFile) {
    R(nullptr);
    return;
  }
  const SourceFile &F = *D.AnalyzedFile;
  bool Out = false;
  uint32_t At = offsetOf(F, P.Pos, Encoding, &Out);
  if (Out)
    logLine("devport lsp: hover of " + P.Doc.URI + ": a position beyond the end of the document");
  const Diagnostic *Best = nullptr;
  for (const Diagnostic &Diag : D.Findings)
    if ((Diag.File.empty() || Diag.File == D.Path) && Diag.Range.Begin <= At &&
        At <= Diag.Range.End && (!Best || Best->Range.contains(Diag.Range)))
      Best = &Diag;
  if (!Best || Out) {
    R(nullptr);
    return;
  }
  const Rule *Ru = D.AnalyzedBy ? D.AnalyzedBy->rules().find(Best->RuleId) : nullptr;
  std::string MD;
  llvm::raw_string_ostream OS(MD);
  OS << "**devport** " << inlineCode(Best->RuleId);
  if (Ru && !Ru->Category.empty())
    OS << " (" << Ru->Category << ")";
  OS << "\n\n" << Best->Message << "\n";
  if (Ru && !Ru->Description.empty())
    OS << "\n" << llvm::StringRef(Ru->Description).trim() << "\n";
  if (!Best->Fixes.empty()) {
    const Fix &X = Best->Fixes.front();
    OS << "\n**Fix** (" << applicabilityName(X.App) << "): " << X.Title;
    if (Ru && D.AnalyzedBy)
      if (const RuleFix *RF = Ru->fixFor(D.AnalyzedBy->options().Target))
        OS << ", in PyTorch " << RF->Since.str() << " and later";
    OS << "\n";
  } else {
    OS << "\nNo automatic fix.\n";
  }
  for (const Note &N : Best->Notes)
    OS << "\n- " << noteText(N);
  if (Ru && !Ru->Note.empty())
    OS << "\n\n" << llvm::StringRef(Ru->Note).trim() << "\n";
  std::string Link = docsLink(Best->RuleId);
  if (!Link.empty())
    OS << "\n\n[Rule documentation](" << Link << ")";
  OS.flush();
  R(llvm::json::Object{
      {"contents", llvm::json::Object{{"kind", "markdown"}, {"value", MD}}},
      {"range", rangeOf(F, Best->Range, Encoding)}});
}

//===----------------------------------------------------------------------===//
// Workspace
//===----------------------------------------------------------------------===//

void Server::onDidChangeConfiguration(const Value &P) {
  const llvm::json::Object *O = P.getAsObject();
  const Value *S = O ? O->get("settings") : nullptr;
  if (S && S->getAsObject() && S->getAsObject()->get("devport"))
    S = S->getAsObject()->get("devport");
  ClientSettings New;
  if (S) {
    llvm::json::Path::Root Root("settings");
    if (!fromJSON(*S, New, Root)) {
      showError("bad settings: " + llvm::toString(Root.getError()));
      return;
    }
  }
  Task Tk;
  Tk.Run = [this, New] {
    ClientSettings Old = Settings;
    Settings = New;
    if (!loadProjects()) {
      Settings = Old;
      return;
    }
    reanalyzeAll();
  };
  enqueue(std::move(Tk));
}

void Server::onDidChangeWatchedFiles(const DidChangeWatchedFilesParams &P) {
  std::vector<std::string> Paths;
  for (const FileEvent &E : P.Changes) {
    llvm::Expected<std::string> Path = pathFromURI(E.URI);
    if (!Path) {
      logLine("devport lsp: " + llvm::toString(Path.takeError()));
      continue;
    }
    Paths.push_back(std::move(*Path));
  }
  Task Tk;
  Tk.Run = [this, Paths] { filesChanged(Paths); };
  enqueue(std::move(Tk));
}

void Server::filesChanged(llvm::ArrayRef<std::string> Paths) {
  bool Changed = false;
  for (const std::string &Path : Paths) {
    // What the reviews read from other files (a project's tests), before the
    // projects: a packaging file matters to both.
    for (const LanguageBackend *B : defaultBackends())
      Changed = B->forgetFile(Path) || Changed;
    for (Project *Pr : {Lexical.get(), Semantic.get()}) {
      if (!Pr)
        continue;
      llvm::Expected<bool> C = Pr->fileChanged(Path);
      if (!C)
        showError(llvm::toString(C.takeError()));
      else
        Changed = Changed || *C;
    }
  }
  if (Changed)
    reanalyzeAll();
}

//===----------------------------------------------------------------------===//
// The process
//===----------------------------------------------------------------------===//

int runLanguageServer(const LanguageServerOptions &Opts) {
  std::unique_ptr<Transport> T =
      newJSONTransport(stdin, llvm::outs(), llvm::errs(),
                       Opts.LitTest ? Framing::Delimited : Framing::Standard, Opts.Verbose);
  int Code;
  {
    ServerOptions SO = Opts.Server;
    SO.Synchronous = SO.Synchronous || Opts.LitTest;
    Server S(*T, llvm::errs(), SO);
    llvm::Error E = T->loop(S);
    if (E) {
      llvm::errs() << "devport lsp: " << llvm::toString(std::move(E)) << "\n";
      return 1;
    }
    S.sync();
    Code = S.exitCode();
  }
  return Code;
}

} // namespace lsp
} // namespace devport
