//===--- Transport.cpp - JSON-RPC messages over a byte stream -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "lsp/Transport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <string>

namespace devport {
namespace lsp {

char LSPError::ID;

void LSPError::log(llvm::raw_ostream &OS) const {
  OS << Message << " (code " << static_cast<int>(Code) << ")";
}

llvm::Error makeError(ErrorCode Code, const llvm::Twine &Message) {
  return llvm::make_error<LSPError>(Message.str(), Code);
}

MessageHandler::~MessageHandler() = default;
Transport::~Transport() = default;

void Transport::notifySerialized(llvm::StringRef Method, std::string Params) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Params);
  assert(V && "notifySerialized() with text that is not JSON");
  if (!V) {
    llvm::consumeError(V.takeError());
    return;
  }
  notify(Method, std::move(*V));
}

namespace {

llvm::json::Object encodeError(llvm::Error E) {
  std::string Message;
  ErrorCode Code = ErrorCode::InternalError;
  llvm::handleAllErrors(
      std::move(E),
      [&](const LSPError &L) {
        Message = L.Message;
        Code = L.Code;
      },
      [&](const llvm::ErrorInfoBase &B) { Message = B.message(); });
  return llvm::json::Object{{"message", std::move(Message)}, {"code", static_cast<int>(Code)}};
}

llvm::Error decodeError(const llvm::json::Object &O) {
  llvm::StringRef Message = O.getString("message").getValueOr("unspecified error");
  ErrorCode Code = static_cast<ErrorCode>(O.getInteger("code").getValueOr(
      static_cast<int>(ErrorCode::InternalError)));
  return makeError(Code, Message);
}

class JSONTransport final : public Transport {
public:
  JSONTransport(std::FILE *In, llvm::raw_ostream &Out, llvm::raw_ostream &Log, Framing F,
                bool Verbose)
      : In(In), Out(Out), Log(Log), Style(F), Verbose(Verbose) {}

  void notify(llvm::StringRef Method, llvm::json::Value Params) override {
    send(llvm::json::Object{{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
  }
  void notifySerialized(llvm::StringRef Method, std::string Params) override {
    if (Style == Framing::Delimited) // pretty-printed: through the values
      return Transport::notifySerialized(Method, std::move(Params));
    // The bytes send() writes for notify(Method, the parsed Params): the
    // keys in llvm::json's sorted order.
    std::string S;
    llvm::raw_string_ostream OS(S);
    OS.SetBufferSize(16384);
    OS << "{\"jsonrpc\":\"2.0\",\"method\":";
    llvm::json::OStream(OS).value(Method);
    OS << ",\"params\":" << Params << '}';
    OS.flush();
    write(S);
  }
  void call(llvm::StringRef Method, llvm::json::Value Params, llvm::json::Value ID) override {
    send(llvm::json::Object{{"jsonrpc", "2.0"},
                            {"id", std::move(ID)},
                            {"method", Method},
                            {"params", std::move(Params)}});
  }
  void reply(llvm::json::Value ID, llvm::Expected<llvm::json::Value> Result) override {
    if (Result)
      send(llvm::json::Object{{"jsonrpc", "2.0"}, {"id", std::move(ID)}, {"result", std::move(*Result)}});
    else
      send(llvm::json::Object{{"jsonrpc", "2.0"},
                              {"id", std::move(ID)},
                              {"error", encodeError(Result.takeError())}});
  }

  llvm::Error loop(MessageHandler &H) override {
    std::string Message;
    while (!std::feof(In)) {
      if (std::ferror(In))
        return llvm::errorCodeToError(std::error_code(errno, std::system_category()));
      bool Got = Style == Framing::Delimited ? readDelimited(Message) : readStandard(Message);
      if (!Got)
        continue;
      if (Verbose)
        logLine("<-- " + Message);
      llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(Message);
      if (!Doc) {
        std::string Why = llvm::toString(Doc.takeError());
        logLine("devport lsp: the message is not JSON: " + Why);
        reply(nullptr, makeError(ErrorCode::ParseError, "the message is not JSON: " + Why));
        continue;
      }
      if (!handle(std::move(*Doc), H))
        return llvm::Error::success();
    }
    return llvm::Error::success();
  }

private:
  void logLine(const llvm::Twine &Line) {
    std::lock_guard<std::mutex> Lock(LogMutex);
    Log << Line << "\n";
    Log.flush();
  }

  void send(llvm::json::Value Message) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    // Buffered: unbuffered, llvm::json's writer appended each character of
    // a string to S through a virtual call (most of the time publishing
    // diagnostics took).
    OS.SetBufferSize(16384);
    if (Style == Framing::Delimited)
      OS << llvm::formatv("{0:2}", Message);
    else
      OS << Message;
    OS.flush();
    write(S);
  }

  /// One serialized message out, framed.
  void write(const std::string &S) {
    std::lock_guard<std::mutex> Lock(OutMutex);
    if (Style == Framing::Delimited)
      Out << S << "\n---\n";
    else
      Out << "Content-Length: " << S.size() << "\r\n\r\n" << S;
    Out.flush();
    if (Verbose)
      logLine("--> " + S);
  }

  /// One message's handler call; false ends the loop.
  bool handle(llvm::json::Value Message, MessageHandler &H) {
    llvm::json::Object *O = Message.getAsObject();
    if (!O) {
      logLine("devport lsp: a message that is not a JSON object");
      reply(nullptr, makeError(ErrorCode::InvalidRequest, "a message must be a JSON object"));
      return true;
    }
    llvm::Optional<llvm::json::Value> ID;
    if (llvm::json::Value *I = O->get("id"))
      ID = std::move(*I);
    llvm::Optional<llvm::StringRef> Method = O->getString("method");
    if (!Method) {
      if (!ID) {
        logLine("devport lsp: a message with neither a method nor an id");
        return true;
      }
      if (llvm::json::Value *Err = O->get("error")) {
        const llvm::json::Object *EO = Err->getAsObject();
        return H.onReply(std::move(*ID), EO ? decodeError(*EO)
                                            : makeError(ErrorCode::InternalError, "bad error"));
      }
      llvm::json::Value Result = nullptr;
      if (llvm::json::Value *R = O->get("result"))
        Result = std::move(*R);
      return H.onReply(std::move(*ID), std::move(Result));
    }
    llvm::json::Value Params = nullptr;
    if (llvm::json::Value *P = O->get("params"))
      Params = std::move(*P);
    if (ID)
      return H.onCall(*Method, std::move(Params), std::move(*ID));
    return H.onNotify(*Method, std::move(Params));
  }

  /// Reads one line (without its "\n" / "\r\n"); false at end of input.
  bool readLine(std::string &Line) {
    Line.clear();
    char Buf[4096];
    while (std::fgets(Buf, sizeof(Buf), In)) {
      Line += Buf;
      if (!Line.empty() && Line.back() == '\n') {
        Line.pop_back();
        if (!Line.empty() && Line.back() == '\r')
          Line.pop_back();
        return true;
      }
    }
    return !Line.empty();
  }

  bool readStandard(std::string &Message) {
    // Headers, up to a blank line.
    unsigned long long Length = 0;
    bool HaveLength = false, Any = false;
    std::string Line;
    while (readLine(Line)) {
      Any = true;
      if (Line.empty())
        break;
      llvm::StringRef L(Line);
      if (L.consume_front_insensitive("content-length:")) {
        if (L.trim().getAsInteger(10, Length)) {
          logLine("devport lsp: bad Content-Length header: " + Line);
          HaveLength = false;
          continue;
        }
        HaveLength = true;
      } else if (!L.contains(':')) {
        logLine("devport lsp: ignoring a line that is not a header: " + Line);
      }
    }
    if (!Any)
      return false;
    if (!HaveLength) {
      logLine("devport lsp: a message without a Content-Length header; skipped");
      return false;
    }
    if (Length > (1ull << 30)) {
      logLine("devport lsp: a message of " + llvm::Twine(Length) + " bytes is too large; skipped");
      // Skip its bytes so that the next header is read where it starts.
      for (unsigned long long I = 0; I < Length && std::fgetc(In) != EOF; ++I)
        ;
      return false;
    }
    Message.resize(Length);
    size_t Read = 0;
    while (Read < Length) {
      size_t N = std::fread(&Message[Read], 1, Length - Read, In);
      if (N == 0)
        break;
      Read += N;
    }
    if (Read < Length) {
      logLine("devport lsp: input ended inside a message (" + llvm::Twine(Read) + " of " +
              llvm::Twine(Length) + " bytes)");
      return false;
    }
    return true;
  }

  bool readDelimited(std::string &Message) {
    Message.clear();
    std::string Line;
    bool Any = false;
    while (readLine(Line)) {
      llvm::StringRef L = llvm::StringRef(Line).rtrim();
      if (L == "---")
        break;
      if (L.startswith("#"))
        continue;
      Message += Line;
      Message += '\n';
      Any = Any || !L.empty();
    }
    return Any;
  }

  std::FILE *In;
  llvm::raw_ostream &Out, &Log;
  Framing Style;
  bool Verbose;
  std::mutex OutMutex, LogMutex;
};

} // namespace

std::unique_ptr<Transport> newJSONTransport(std::FILE *In, llvm::raw_ostream &Out,
                                            llvm::raw_ostream &Log, Framing F, bool Verbose) {
  return std::make_unique<JSONTransport>(In, Out, Log, F, Verbose);
}

} // namespace lsp
} // namespace devport
