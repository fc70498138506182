//===--- Protocol.h - The LSP structures devport speaks -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plain structs for the parts of LSP 3.17 that devport uses, with free
/// fromJSON/toJSON (llvm::json), as clangd's Protocol.h. Nothing here knows
/// the engine; lsp/Server.cpp converts between these and the engine's
/// Diagnostic and Fix.
///
/// Positions are LSP's: 0-based line and character, the character counted
/// in the negotiated encoding (UTF-16 code units unless the client offers
/// UTF-8). PositionEncoding converts them to byte offsets of a SourceFile.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_LSP_PROTOCOL_H
#define DEVPORT_LSP_PROTOCOL_H

#include "core/Fix.h"
#include "core/SourceFile.h"

#include "llvm/ADT/Optional.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace devport {
namespace lsp {

/// The path of a `file:` URI (percent-decoded); fails for other schemes,
/// other hosts or bad escapes. The other way is report/Paths.h's fileUri.
llvm::Expected<std::string> pathFromURI(llvm::StringRef URI);

enum class PositionEncoding { UTF16, UTF8 };

struct Position {
  int Line = 0;
  int Character = 0;
  friend bool operator==(const Position &A, const Position &B) {
    return A.Line == B.Line && A.Character == B.Character;
  }
};
bool fromJSON(const llvm::json::Value &, Position &, llvm::json::Path);
llvm::json::Value toJSON(const Position &);

struct Range {
  Position Start, End;
};
bool fromJSON(const llvm::json::Value &, Range &, llvm::json::Path);
llvm::json::Value toJSON(const Range &);

/// Offsets of F <-> positions in encoding E. A position past the end of its
/// line means the line's end, a line past the last means the end of the
/// file (OutOfRange is set then, for a warning).
Position positionOf(const SourceFile &F, uint32_t Offset, PositionEncoding E);
uint32_t offsetOf(const SourceFile &F, Position P, PositionEncoding E, bool *OutOfRange = nullptr);
Range rangeOf(const SourceFile &F, ByteRange R, PositionEncoding E);

/// The one edit that turns Old into New: what lies between their common
/// prefix and common suffix, widened to whole characters and whole CRLFs so
/// that its ends are positions an editor can name.
Edit differingSpan(llvm::StringRef Old, llvm::StringRef New);
/// The length of A's and B's common prefix; of their common suffix, at most
/// Limit bytes. By 64-byte blocks first (byte by byte, comparing two versions
/// of a large file showed in the server's profile).
size_t commonPrefix(llvm::StringRef A, llvm::StringRef B);
size_t commonSuffix(llvm::StringRef A, llvm::StringRef B, size_t Limit);

struct TextDocumentItem {
  std::string URI, LanguageId, Text;
  int64_t Version = 0;
};
bool fromJSON(const llvm::json::Value &, TextDocumentItem &, llvm::json::Path);

struct TextDocumentIdentifier {
  std::string URI;
};
bool fromJSON(const llvm::json::Value &, TextDocumentIdentifier &, llvm::json::Path);

struct VersionedTextDocumentIdentifier {
  std::string URI;
  llvm::Optional<int64_t> Version;
};
bool fromJSON(const llvm::json::Value &, VersionedTextDocumentIdentifier &, llvm::json::Path);

struct TextDocumentContentChangeEvent {
  llvm::Optional<Range> R; ///< None: Text is the whole document.
  std::string Text;
};
bool fromJSON(const llvm::json::Value &, TextDocumentContentChangeEvent &, llvm::json::Path);

struct DidOpenParams {
  TextDocumentItem Doc;
};
bool fromJSON(const llvm::json::Value &, DidOpenParams &, llvm::json::Path);

struct DidChangeParams {
  VersionedTextDocumentIdentifier Doc;
  std::vector<TextDocumentContentChangeEvent> Changes;
};
bool fromJSON(const llvm::json::Value &, DidChangeParams &, llvm::json::Path);

struct DidSaveParams {
  TextDocumentIdentifier Doc;
  llvm::Optional<std::string> Text;
};
bool fromJSON(const llvm::json::Value &, DidSaveParams &, llvm::json::Path);

struct DidCloseParams {
  TextDocumentIdentifier Doc;
};
bool fromJSON(const llvm::json::Value &, DidCloseParams &, llvm::json::Path);

enum class FileChangeType { Created = 1, Changed = 2, Deleted = 3 };
struct FileEvent {
  std::string URI;
  int Type = 2;
};
bool fromJSON(const llvm::json::Value &, FileEvent &, llvm::json::Path);
struct DidChangeWatchedFilesParams {
  std::vector<FileEvent> Changes;
};
bool fromJSON(const llvm::json::Value &, DidChangeWatchedFilesParams &, llvm::json::Path);

/// The settings an editor may send (initializationOptions, or the `devport`
/// section of workspace/didChangeConfiguration). Unset members keep the
/// `.devport.yaml` values.
struct ClientSettings {
  llvm::Optional<std::string> TargetTorch;
  llvm::Optional<std::vector<std::string>> Select, Ignore;
  llvm::Optional<std::string> DeviceExpression;
  llvm::Optional<std::string> ConfigFile;
  llvm::Optional<std::string> CompileCommandsDir;
  llvm::Optional<std::string> CppEngine; ///< "auto" or "lexical".
  llvm::Optional<std::string> DocsURL;   ///< Base of the rule docs' links.
};
bool fromJSON(const llvm::json::Value &, ClientSettings &, llvm::json::Path);

struct InitializeParams {
  std::vector<std::string> PositionEncodings; ///< capabilities.general.positionEncodings
  ClientSettings Settings;                   ///< initializationOptions
  bool WatchedFilesDynamicRegistration = false;
  bool CodeActionResolveEdit = false;
  bool DiagnosticCodeDescription = true;
  llvm::Optional<std::string> Trace;
};
bool fromJSON(const llvm::json::Value &, InitializeParams &, llvm::json::Path);

struct TextEdit {
  Range R;
  std::string NewText;
};
llvm::json::Value toJSON(const TextEdit &);

enum class DiagnosticSeverity { Error = 1, Warning = 2, Information = 3, Hint = 4 };

/// A diagnostic as published.
struct LspDiagnostic {
  Range R;
  int Severity = 2;
  std::string Code;          ///< The rule id.
  std::string CodeHref;      ///< codeDescription.href; empty: none.
  std::string Source = "devport";
  std::string Message;
  std::vector<int> Tags;     ///< 1 unnecessary, 2 deprecated.
};
/// Writes D as JSON, its keys in the order llvm::json writes an object's
/// (sorted), so that the bytes are those of its value serialized: a file
/// with hundreds of findings publishes them all after each edit, without
/// building their values. toJSON() reads it back.
void writeJSON(llvm::json::OStream &J, const LspDiagnostic &D);
llvm::json::Value toJSON(const LspDiagnostic &);

/// The context's diagnostics are not read: the server has its own.
struct CodeActionParams {
  TextDocumentIdentifier Doc;
  Range R;
  std::vector<std::string> Only;
};
bool fromJSON(const llvm::json::Value &, CodeActionParams &, llvm::json::Path);

struct TextDocumentPositionParams {
  TextDocumentIdentifier Doc;
  Position Pos;
};
bool fromJSON(const llvm::json::Value &, TextDocumentPositionParams &, llvm::json::Path);

/// The JSON of a WorkspaceEdit changing one document; with a version, as
/// documentChanges (so the client refuses it for another version).
llvm::json::Value workspaceEdit(llvm::StringRef URI, llvm::Optional<int64_t> Version,
                                const std::vector<TextEdit> &Edits);

} // namespace lsp
} // namespace devport

#endif
