//===--- Server.h - devport's language server -----------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The language server: a table from LSP method to handler (bindMethods),
/// the open documents, and the work that answers them, as clangd's
/// ClangdLSPServer. It talks to the engine through Project and Engine only;
/// JSON stays in lsp/.
///
/// Threads. The transport's loop (the reader) parses each message and, for
/// didOpen/didChange/didClose, updates the document's text at once. Every
/// other piece of work is queued, in order of arrival, for one worker
/// thread: the analysis of a changed document (one queued analysis per
/// document at a time: changes that arrive while it waits coalesce into
/// it, and a result for a version that is no longer the newest is not
/// published) and the requests (code actions, hover), which are therefore
/// answered in order and always see the analysis of the version they came
/// after. A C++ file with a compile database is checked by the semantic
/// engine on save, on a thread of its own, so that it never delays the next
/// keystroke; its result is dropped when the document changed meanwhile.
///
/// Python documents keep their tree-sitter tree and are re-parsed
/// incrementally (Engine::checkIncremental); C++ buffers are re-lexed.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_LSP_SERVER_H
#define DEVPORT_LSP_SERVER_H

#include "engine/Project.h"
#include "lsp/Protocol.h"
#include "lsp/Transport.h"

#include "llvm/ADT/StringMap.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace devport {
namespace lsp {

struct ServerOptions {
  /// The command line's settings (rule directory, --config); the editor's
  /// settings are applied on top.
  ProjectOptions Project;
  /// Base of the links to the rule docs (`<base><rule-id>.md`); empty: no
  /// links. `devport lsp` gives the docs that SARIF links to.
  std::string DocsURL;
  /// Finishes each message's work (analysis included) before the next one
  /// is read, so that the output's order is fixed (scripted tests).
  bool Synchronous = false;
};

class Server final : public MessageHandler {
public:
  Server(Transport &T, llvm::raw_ostream &Log, ServerOptions Opts);
  ~Server() override;

  bool onNotify(llvm::StringRef Method, llvm::json::Value Params) override;
  bool onCall(llvm::StringRef Method, llvm::json::Value Params, llvm::json::Value ID) override;
  bool onReply(llvm::json::Value ID, llvm::Expected<llvm::json::Value> Result) override;

  /// The process's exit status once the loop ended: 0 after `shutdown`
  /// then `exit`, 1 otherwise.
  int exitCode() const { return ShutdownRequested ? 0 : 1; }

  /// Blocks until every queued piece of work (semantic checks included) is
  /// done; for tests.
  void sync();

private:
  using Reply = std::function<void(llvm::Expected<llvm::json::Value>)>;
  struct Document;
  struct ParseState;
  struct Task {
    llvm::json::Value ID = nullptr; ///< Requests only.
    std::function<void()> Run;
    std::function<void()> Cancel; ///< Replies RequestCancelled; requests only.
  };

  bool handleNotify(llvm::StringRef Method, llvm::json::Value Params);
  bool handleCall(llvm::StringRef Method, llvm::json::Value Params, llvm::json::Value ID);
  void bindMethods();
  template <typename Param>
  void notification(llvm::StringRef Method, void (Server::*Handler)(const Param &));
  template <typename Param, typename Result>
  void request(llvm::StringRef Method,
               void (Server::*Handler)(const Param &, std::function<void(llvm::Expected<Result>)>));

  // Lifecycle.
  void onInitialize(const InitializeParams &P, std::function<void(llvm::Expected<llvm::json::Value>)> R);
  void onInitialized(const llvm::json::Value &);
  void onShutdown(const llvm::json::Value &, std::function<void(llvm::Expected<llvm::json::Value>)> R);
  void onSetTrace(const llvm::json::Value &);
  // Documents.
  void onDidOpen(const DidOpenParams &P);
  void onDidChange(const DidChangeParams &P);
  void onDidSave(const DidSaveParams &P);
  void onDidClose(const DidCloseParams &P);
  // Workspace.
  void onDidChangeConfiguration(const llvm::json::Value &P);
  void onDidChangeWatchedFiles(const DidChangeWatchedFilesParams &P);
  // Features.
  void onCodeAction(const CodeActionParams &P,
                    std::function<void(llvm::Expected<llvm::json::Value>)> R);
  void onCodeActionResolve(const llvm::json::Value &P,
                           std::function<void(llvm::Expected<llvm::json::Value>)> R);
  void onHover(const TextDocumentPositionParams &P,
               std::function<void(llvm::Expected<llvm::json::Value>)> R);

  /// Queues T for the worker.
  void enqueue(Task T);
  void workerLoop();
  /// Queues the analysis of URI unless one is already queued.
  void scheduleAnalysis(const std::string &URI);
  /// Checks URI's newest text and publishes its diagnostics (worker).
  void analyze(const std::string &URI);
  /// Analyses every open document again (settings or rules changed).
  void reanalyzeAll();
  /// Tells the projects that these files changed (worker); re-analyses
  /// everything when a project depends on one.
  void filesChanged(llvm::ArrayRef<std::string> Paths);
  /// The C++ semantic check of URI's saved version (semantic thread).
  void scheduleSemantic(const std::string &URI);
  void semanticLoop();

  /// Builds the projects from the command line's and the editor's settings;
  /// false (and a message to the user) when they are invalid.
  bool loadProjects();
  /// The engine for Path (null when excluded or on a configuration error,
  /// which is shown to the user once).
  std::shared_ptr<const Engine> engineFor(Project &P, const std::string &Path);
  void showError(const std::string &Message);
  void publish(const Document &D);
  LspDiagnostic toLsp(const Document &D, const Diagnostic &Diag) const;
  std::string docsLink(llvm::StringRef RuleId) const;
  /// The `devport: ignore[...]` edit for a finding, if its lines can hold one.
  llvm::Optional<TextEdit> ignoreEdit(const Document &D, const Diagnostic &Diag) const;
  /// The fix-all action's edit (safe fixes), or None when there is nothing to fix.
  llvm::Optional<llvm::json::Value> fixAllEdit(const std::string &URI);
  void logLine(const llvm::Twine &Line);

  Transport &T;
  llvm::raw_ostream &Log;
  ServerOptions Opts;
  llvm::StringMap<std::function<void(llvm::json::Value)>> Notifications;
  llvm::StringMap<std::function<void(llvm::json::Value, Reply)>> Calls;

  // Set by initialize (reader thread, before any other work).
  bool Initialized = false;
  bool ShutdownRequested = false;
  PositionEncoding Encoding = PositionEncoding::UTF16;
  std::atomic<bool> Verbose{false};
  bool ResolveEdits = false;
  bool CodeDescriptions = true;
  ClientSettings Settings;
  std::string DocsBase;

  // Documents: guarded by DocMutex.
  std::mutex DocMutex;
  std::map<std::string, std::unique_ptr<Document>> Docs;

  // Projects: replaced on settings changes (worker thread); guarded by ProjectMutex.
  mutable std::mutex ProjectMutex;
  std::shared_ptr<Project> Lexical;  ///< Keystrokes: C++ lexical only.
  std::shared_ptr<Project> Semantic; ///< Saves of C++ files: semantic where it can.
  std::string LastError;

  // The worker's queue.
  std::mutex QueueMutex;
  std::condition_variable QueueCV, IdleCV;
  std::deque<Task> Queue;
  std::map<std::string, bool> AnalysisQueued; ///< URI -> an analysis is queued.
  bool Busy = false;
  std::atomic<bool> Stopping{false};
  std::thread Worker;

  // The semantic thread: the newest saved version per URI.
  std::mutex SemMutex;
  std::condition_variable SemCV;
  std::map<std::string, int64_t> SemQueue;
  bool SemBusy = false;
  std::thread SemWorker;

  int64_t NextRequestID = 0;
};

struct LanguageServerOptions {
  ServerOptions Server;
  bool LitTest = false; ///< Delimited framing (tests/lsp/*.test).
  bool Verbose = false; ///< Log every message on stderr.
};

/// Serves on stdin/stdout until `exit` or end of input; the exit status.
int runLanguageServer(const LanguageServerOptions &Opts);

} // namespace lsp
} // namespace devport

#endif
