//===--- Transport.h - JSON-RPC messages over a byte stream ---------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The JSON-RPC 2.0 layer of the language server, as clangd's Transport:
/// the loop reads one message at a time and hands it to a MessageHandler
/// (notification, call or reply); notify(), call() and reply() write
/// messages and may be called from any thread.
///
/// Two framings: Standard is the LSP base protocol (`Content-Length: N`
/// headers, a blank line, N bytes of JSON). Delimited is for scripted test
/// sessions: messages separated by lines that hold only `---`, lines that
/// start with `#` are comments, and the output is pretty-printed and
/// separated by the same `---` lines, so that a session and its transcript
/// are readable files (tests/lsp/*.test).
///
/// Bad input never stops the loop: a message that is not JSON gets a
/// ParseError response (id null) and a log line; a bad header is logged and
/// skipped. The loop ends at end of input or when the handler says so.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_LSP_TRANSPORT_H
#define DEVPORT_LSP_TRANSPORT_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <memory>
#include <mutex>

namespace devport {
namespace lsp {

/// JSON-RPC and LSP error codes.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  RequestCancelled = -32800,
  ContentModified = -32801,
};

/// An error to send as a response: llvm::make_error<LSPError>(...).
class LSPError : public llvm::ErrorInfo<LSPError> {
public:
  static char ID;
  LSPError(std::string Message, ErrorCode Code) : Message(std::move(Message)), Code(Code) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

  std::string Message;
  ErrorCode Code;
};

llvm::Error makeError(ErrorCode Code, const llvm::Twine &Message);

class MessageHandler {
public:
  virtual ~MessageHandler();
  /// Each returns false to end the loop (after `exit`).
  virtual bool onNotify(llvm::StringRef Method, llvm::json::Value Params) = 0;
  virtual bool onCall(llvm::StringRef Method, llvm::json::Value Params,
                      llvm::json::Value ID) = 0;
  virtual bool onReply(llvm::json::Value ID, llvm::Expected<llvm::json::Value> Result) = 0;
};

class Transport {
public:
  virtual ~Transport();
  virtual void notify(llvm::StringRef Method, llvm::json::Value Params) = 0;
  /// The same with Params already serialized (one JSON value, as
  /// llvm::json writes it): a large notification is written without
  /// building its values. By default, parsed and given to notify().
  virtual void notifySerialized(llvm::StringRef Method, std::string Params);
  virtual void call(llvm::StringRef Method, llvm::json::Value Params, llvm::json::Value ID) = 0;
  virtual void reply(llvm::json::Value ID, llvm::Expected<llvm::json::Value> Result) = 0;
  /// Reads messages until end of input or until the handler returns false.
  /// Fails only when the input cannot be read.
  virtual llvm::Error loop(MessageHandler &H) = 0;
};

enum class Framing { Standard, Delimited };

/// A transport reading In and writing Out; Log gets one line per problem
/// with the input (and every message when Verbose).
std::unique_ptr<Transport> newJSONTransport(std::FILE *In, llvm::raw_ostream &Out,
                                            llvm::raw_ostream &Log, Framing F,
                                            bool Verbose = false);

} // namespace lsp
} // namespace devport

#endif
