//===--- CppLexer.cpp - C++ tokens from Clang's raw lexer -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/CppLexer.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Token.h"

#include <algorithm>
#include <string>

namespace devport::cpp {

namespace {

clang::LangOptions cppLangOptions() {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
  LO.LineComment = 1;
  LO.Bool = 1;
  LO.Digraphs = 1;
  LO.DollarIdents = 1; // `$X` in patterns is one identifier
  LO.CUDA = 1;         // `<<<` / `>>>` kernel launches in .cu files
  return LO;
}

bool isOpener(llvm::StringRef S) { return S == "(" || S == "[" || S == "{"; }
bool isCloser(llvm::StringRef S) { return S == ")" || S == "]" || S == "}"; }
char openerOf(char Closer) { return Closer == ')' ? '(' : Closer == ']' ? '[' : '{'; }

} // namespace

LexedFile::LexedFile(llvm::StringRef Text) : Text(Text) {
  // The raw lexer needs a NUL after the buffer: a copy, in a buffer that
  // each thread keeps for its next file (fresh pages cost a fault each).
  thread_local std::string Buf;
  if (Buf.capacity() > (size_t(16) << 20) && Text.size() < (size_t(1) << 20))
    std::string().swap(Buf); // a big file's buffer does not stay
  Buf.assign(Text.data(), Text.size());
  Toks.reserve(Text.size() / 5);
  static const clang::LangOptions LO = cppLangOptions();
  clang::SourceLocation Base = clang::SourceLocation::getFromRawEncoding(1);
  clang::Lexer L(Base, LO, Buf.data(), Buf.data(), Buf.data() + Buf.size());
  L.SetCommentRetentionState(true);
  clang::Token T;
  bool InDirective = false;
  std::vector<char> Brackets;  // open brackets outside directives
  std::vector<size_t> IfStack; // Conds index of the open #if's latest branch
  auto Offset = [&](clang::SourceLocation Loc) {
    return static_cast<uint32_t>(Loc.getRawEncoding() - Base.getRawEncoding());
  };
  auto CloseBranch = [&](uint32_t At) {
    if (!IfStack.empty())
      Conds[IfStack.back()].Branch.End = At;
  };
  size_t DirectiveStart = 0; // token index of the current directive's `#`
  for (;;) {
    L.LexFromRawLexer(T);
    if (T.is(clang::tok::eof))
      break;
    uint32_t B = Offset(T.getLocation()), E = B + T.getLength();
    if (T.isAtStartOfLine())
      InDirective = false;
    if (T.is(clang::tok::comment)) {
      Comments.push_back({B, E});
      llvm::StringRef C = Text.slice(B, E);
      if (C.startswith("/*") && (C.size() < 4 || !C.endswith("*/")))
        ++Errors; // unterminated block comment
      continue;
    }
    TokKind K;
    switch (T.getKind()) {
    case clang::tok::raw_identifier:
      K = TokKind::Identifier;
      break;
    case clang::tok::numeric_constant:
      K = TokKind::Number;
      break;
    case clang::tok::char_constant:
    case clang::tok::wide_char_constant:
    case clang::tok::utf8_char_constant:
    case clang::tok::utf16_char_constant:
    case clang::tok::utf32_char_constant:
      K = TokKind::Char;
      break;
    case clang::tok::string_literal:
    case clang::tok::wide_string_literal:
    case clang::tok::utf8_string_literal:
    case clang::tok::utf16_string_literal:
    case clang::tok::utf32_string_literal:
    case clang::tok::header_name:
      K = TokKind::String;
      break;
    case clang::tok::unknown:
      K = TokKind::Unknown;
      break;
    default:
      K = TokKind::Punct;
      break;
    }
    if (T.isAtStartOfLine() && T.is(clang::tok::hash)) {
      InDirective = true;
      DirectiveStart = Toks.size();
    }
    Toks.push_back({K, T.isAtStartOfLine(), InDirective, B, E});
    llvm::StringRef S = Text.slice(B, E);
    if (K == TokKind::Unknown) {
      // A lone `\` or `@` is not an error of ours to count; a broken literal is.
      if (S.startswith("\"") || S.startswith("'") || S.startswith("R\""))
        ++Errors;
      continue;
    }
    if (InDirective && Toks.size() == DirectiveStart + 2 && K == TokKind::Identifier) {
      // The directive's name: the conditional structure and includes.
      if (S == "if" || S == "ifdef" || S == "ifndef") {
        IfStack.push_back(Conds.size());
        Conds.push_back({static_cast<uint32_t>(DirectiveStart),
                         {Toks[DirectiveStart].Begin, static_cast<uint32_t>(Text.size())}});
      } else if (S == "elif" || S == "else") {
        CloseBranch(Toks[DirectiveStart].Begin);
        if (!IfStack.empty()) {
          IfStack.back() = Conds.size();
          Conds.push_back({static_cast<uint32_t>(DirectiveStart),
                           {Toks[DirectiveStart].Begin, static_cast<uint32_t>(Text.size())}});
        }
      } else if (S == "endif") {
        CloseBranch(Toks[DirectiveStart].Begin);
        if (!IfStack.empty())
          IfStack.pop_back();
      } else if (S == "include" || S == "import") {
        uint32_t LineEnd = static_cast<uint32_t>(Text.find('\n', B));
        if (LineEnd > Text.size())
          LineEnd = static_cast<uint32_t>(Text.size());
        Includes.push_back({Toks[DirectiveStart].Begin, LineEnd});
      }
    }
    if (InDirective || K != TokKind::Punct)
      continue;
    if (isOpener(S)) {
      Brackets.push_back(S.front());
    } else if (isCloser(S)) {
      if (!Brackets.empty() && Brackets.back() == openerOf(S.front()))
        Brackets.pop_back();
      else
        ++Errors;
    }
  }
  // Unclosed brackets left in Brackets are not counted: `#if` branches that
  // each open a brace are common and legal.
}

size_t LexedFile::tokenAt(uint32_t Offset) const {
  return static_cast<size_t>(
      std::partition_point(Toks.begin(), Toks.end(),
                           [&](const Token &T) { return T.End <= Offset; }) -
      Toks.begin());
}

} // namespace devport::cpp
