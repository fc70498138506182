//===--- CppLexer.cpp - C++ tokens from Clang's raw lexer -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/CppLexer.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Token.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <string>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

uint8_t openerOf(uint8_t Closer) { return Closer == ')' ? '(' : Closer == ']' ? '[' : '{'; }

} // namespace

LexedFile::LexedFile(llvm::StringRef Text) : LexedFile(Text, {}, {}) {}

LexedFile::LexedFile(llvm::StringRef Text, llvm::ArrayRef<ByteRange> Gaps,
                     llvm::ArrayRef<ByteRange> GapComments)
    : Text(Text), Gaps(Gaps.begin(), Gaps.end()) {
  // The raw lexer needs a NUL after the buffer: a copy, in a buffer that
  // each thread keeps for its next file (fresh pages cost a fault each).
  thread_local std::string Buf;
  if (Buf.capacity() > (size_t(16) << 20) && Text.size() < (size_t(1) << 20))
    std::string().swap(Buf); // a big file's buffer does not stay
  Buf.assign(Text.data(), Text.size());
  size_t Skipped = 0;
  for (ByteRange G : Gaps)
    Skipped += G.size();
  Toks.reserve((Text.size() - Skipped) / 5);
  static const clang::LangOptions LO = cppLangOptions();
  clang::SourceLocation Base = clang::SourceLocation::getFromRawEncoding(1);
  std::optional<clang::Lexer> L;
  auto StartAt = [&](uint32_t Offset) {
    L.emplace(Base, LO, Buf.data(), Buf.data() + Offset, Buf.data() + Buf.size());
    L->SetCommentRetentionState(true);
  };
  StartAt(0);
  size_t NextGap = 0;
  const ByteRange *GapComment = GapComments.begin();
  // A gap starts after the token that ends where it begins (or at the
  // text's start): the lexer goes on from its end.
  bool Jump = !Gaps.empty() && Gaps.front().Begin == 0;
  // The first token after a gap: a new lexer takes it for the start of a
  // line; it is one if a line ends in the blanks before it (the whole
  // text's lexer says so of it after the gap's last token, which ends
  // where those blanks start).
  bool Resumed = false;
  clang::Token T;
  bool InDirective = false;
  std::vector<uint8_t> Brackets; // open brackets outside directives
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
    if (Jump) {
      Jump = false;
      for (; GapComment != GapComments.end() && GapComment->Begin < Gaps[NextGap].End; ++GapComment)
        Comments.push_back(*GapComment);
      StartAt(Gaps[NextGap++].End);
      Resumed = true;
    }
    L->LexFromRawLexer(T);
    if (T.is(clang::tok::eof))
      break;
    uint32_t B = Offset(T.getLocation()), E = B + T.getLength();
    bool StartOfLine = T.isAtStartOfLine();
    if (Resumed) {
      Resumed = false;
      StartOfLine = false;
      for (uint32_t K = B; K > 0 && clang::isWhitespace(Text[K - 1]); --K)
        StartOfLine |= clang::isVerticalWhitespace(Text[K - 1]);
    }
    if (StartOfLine)
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
    if (StartOfLine && T.is(clang::tok::hash)) {
      InDirective = true;
      DirectiveStart = Toks.size();
    }
    uint8_t Punct = 0;
    if (K == TokKind::Punct)
      Punct = E - B == 1                     ? static_cast<uint8_t>(Text[B])
              : T.is(clang::tok::coloncolon) ? PunctColonColon
              : T.is(clang::tok::arrow)      ? PunctArrow
                                             : PunctOther;
    Toks.push_back({K, StartOfLine, InDirective, Punct, B, E});
    Jump = NextGap < Gaps.size() && Gaps[NextGap].Begin == E;
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
    if (Punct == '(' || Punct == '[' || Punct == '{') {
      Brackets.push_back(Punct);
    } else if (Punct == ')' || Punct == ']' || Punct == '}') {
      if (!Brackets.empty() && Brackets.back() == openerOf(Punct))
        Brackets.pop_back();
      else
        ++Errors;
    }
  }
  // Unclosed brackets left in Brackets are not counted: `#if` branches that
  // each open a brace are common and legal.
}

namespace {

/// The bytes that may change what the text is where code is read (a `#` or
/// `%:` starts a directive only after nothing but blanks on its line:
/// checked there); the others change nothing.
constexpr char Special[] = {'/', '"', '\'', '{', '}', '(', ')', '[', ']', ';', '\\', '#', '%'};

struct PlainBytes {
  bool Is[256];
  constexpr PlainBytes() : Is() {
    for (int C = 0; C < 256; ++C)
      Is[C] = true;
    for (char C : Special)
      Is[static_cast<unsigned char>(C)] = false;
  }
  bool operator[](unsigned char C) const { return Is[C]; }
};
constexpr PlainBytes Plain{};

/// scanSkeleton()'s reader: from one byte that changes what the text is to
/// the next (found sixty-four bytes at a time), a switch on it.
class SkeletonScan {
public:
  explicit SkeletonScan(llvm::StringRef Text) : T(Text), N(Text.size()) {}

  Skeleton run() {
    Out.Read = static_cast<uint32_t>(N);
    size_t I = 0;
    while ((I = nextSpecial(I)) < N) {
      char C = T[I];
      switch (C) {
      case '#':
      case '%': // `%:` is `#`
        if ((C == '#' || (I + 1 < N && T[I + 1] == ':')) && atLineStart(I)) {
          if (!directive(I))
            return stop(I);
          continue;
        }
        break;
      case '/':
        if (I + 1 < N && (T[I + 1] == '/' || T[I + 1] == '*')) {
          size_t End;
          if (!comment(I, End))
            return stop(I);
          Out.Comments.push_back({static_cast<uint32_t>(I), static_cast<uint32_t>(End)});
          I = End;
          continue;
        }
        break;
      case '"':
      case '\'': {
        // A raw string (`R"x(...)x"`, any prefix), a digit separator or a
        // prefixed character literal (`u'x'`): not modelled.
        char Before = I > 0 ? T[I - 1] : ' ';
        if (Before == 'R' || (C == '\'' && (llvm::isAlnum(Before) || Before == '_')))
          return stop(I);
        size_t End;
        if (!literal(I, End, /*InDirective=*/false))
          return stop(I);
        I = End;
        continue;
      }
      case ';':
        // A statement's end, where a brace (or nothing) is open.
        if (Open.empty() || T[Open.back()] == '{')
          Out.Boundaries.push_back({static_cast<uint32_t>(I), statementParent()});
        break;
      case '{':
        // Its pair's place in {-order now; its `}` fills in Close.
        Out.Pairs.push_back({static_cast<uint32_t>(I), Skeleton::Unclosed,
                             Braces.empty() ? Skeleton::NoParent : Braces.back()});
        Braces.push_back(static_cast<uint32_t>(Out.Pairs.size() - 1));
        [[fallthrough]];
      case '(':
      case '[':
        Open.push_back(static_cast<uint32_t>(I));
        break;
      case '}':
      case ')':
      case ']': {
        char Want = C == '}' ? '{' : C == ')' ? '(' : '[';
        if (Open.empty() || T[Open.back()] != Want)
          return stop(I);
        Open.pop_back();
        if (C == '}') {
          Out.Pairs[Braces.back()].Close = static_cast<uint32_t>(I);
          Braces.pop_back();
          if (Open.empty() || T[Open.back()] == '{')
            Out.Boundaries.push_back({static_cast<uint32_t>(I), statementParent()});
        }
        break;
      }
      case '\\': // a line splice or a stray backslash in code
        return stop(I);
      default:
        break;
      }
      ++I;
    }
    return stop(N);
  }

private:
  llvm::StringRef T;
  size_t N;
  Skeleton Out;
  std::vector<uint32_t> Open;   ///< Open brackets of code, innermost last.
  std::vector<uint32_t> Braces; ///< The `{` among them: their pairs' indices in Out.Pairs.
  /// Mask's bit K says whether T[MaskBase + K] is special (none read yet).
  size_t MaskBase = SIZE_MAX;
  uint64_t Mask = 0;

  /// The pair whose statement a `;` or `}` ends, where the top of Open is a
  /// `{` (or Open is empty).
  uint32_t statementParent() const { return Open.empty() ? Skeleton::NoParent : Braces.back(); }

  /// Whether only blanks precede I on its line (a `#` there starts a
  /// directive; not after a comment, as for the lexer), or on the first line
  /// a byte order mark, which the lexer skips.
  bool atLineStart(size_t I) const {
    while (I > 0 && clang::isHorizontalWhitespace(T[I - 1]))
      --I;
    return I == 0 || clang::isVerticalWhitespace(T[I - 1]) ||
           (I == 3 && T.startswith("\xEF\xBB\xBF"));
  }

  /// The first special byte (Plain) at or after I, or N: sixty-four bytes
  /// at a time where SSE2 is there.
  size_t nextSpecial(size_t I) {
#if defined(__SSE2__)
    for (;;) {
      if (I >= MaskBase && I - MaskBase < 64) {
        uint64_t M = Mask >> (I - MaskBase);
        if (M)
          return I + llvm::countTrailingZeros(M);
        I = MaskBase + 64;
      }
      if (I + 64 > N)
        break;
      MaskBase = I;
      Mask = specialMask(T.data() + I);
    }
#endif
    while (I < N && Plain[static_cast<unsigned char>(T[I])])
      ++I;
    return I;
  }

#if defined(__SSE2__)
  static uint64_t specialMask(const char *P) {
    uint64_t M = 0;
    for (int K = 0; K < 4; ++K) {
      __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P + 16 * K));
      __m128i R = _mm_setzero_si128();
      for (char C : Special)
        R = _mm_or_si128(R, _mm_cmpeq_epi8(V, _mm_set1_epi8(C)));
      M |= static_cast<uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(R))) << (16 * K);
    }
    return M;
  }
#endif

  /// The scan read up to At (the text's end, or what it does not model).
  Skeleton stop(size_t At) {
    Out.Read = static_cast<uint32_t>(At);
    return std::move(Out);
  }

  /// A comment from At (`//` or `/*`); End is one past it (a line comment
  /// ends before its line end). False where it does not end as modelled.
  bool comment(size_t At, size_t &End) {
    if (T[At + 1] == '*') {
      size_t Close = T.find("*/", At + 2);
      if (Close == llvm::StringRef::npos)
        return false;
      End = Close + 2;
      return true;
    }
    size_t E = At + 2;
    while (E < N && !clang::isVerticalWhitespace(T[E]))
      ++E;
    // A backslash (blanks after it allowed) before the line end continues
    // the comment on the next line.
    size_t K = E;
    while (K > At + 2 && clang::isHorizontalWhitespace(T[K - 1]))
      --K;
    if (K > At + 2 && T[K - 1] == '\\')
      return false;
    End = E;
    return true;
  }

  /// A string or character literal from its quote at At; End is one past
  /// it. In a directive line a literal that the line ends first ends there.
  bool literal(size_t At, size_t &End, bool InDirective) {
    char Q = T[At];
    size_t J = At + 1;
    while (J < N) {
      char C = T[J];
      if (C == '\\') {
        if (J + 1 >= N || clang::isVerticalWhitespace(T[J + 1]) || T[J + 1] == ' ' ||
            T[J + 1] == '\t')
          return false; // a splice (blanks before the line end allowed)
        J += 2;
        continue;
      }
      if (C == Q) {
        End = J + 1;
        return !(Q == '\'' && J == At + 1); // `''` is not a character
      }
      if (clang::isVerticalWhitespace(C)) {
        if (!InDirective)
          return false;
        End = J;
        return true;
      }
      ++J;
    }
    return false;
  }

  /// The directive line whose `#` is at I: I moves to its line end. False
  /// where it does not end as modelled.
  bool directive(size_t &I) {
    size_t J = I + 1;
    while (J < N) {
      char C = T[J];
      if (clang::isVerticalWhitespace(C))
        break;
      if (C == '\\') {
        // A splice continues the directive on the next line.
        size_t K = J + 1;
        while (K < N && (T[K] == ' ' || T[K] == '\t'))
          ++K;
        if (K < N && clang::isVerticalWhitespace(T[K])) {
          J = K + (T[K] == '\r' && K + 1 < N && T[K + 1] == '\n' ? 2 : 1);
          continue;
        }
        ++J;
        continue;
      }
      if (C == '/' && J + 1 < N && (T[J + 1] == '/' || T[J + 1] == '*')) {
        bool LineComment = T[J + 1] == '/'; // ends the directive
        size_t End;
        if (!comment(J, End))
          return false;
        J = End;
        if (LineComment)
          break;
        continue;
      }
      if (C == '"' || C == '\'') {
        size_t End;
        if (T[J - 1] == 'R' || !literal(J, End, /*InDirective=*/true))
          return false;
        J = End;
        continue;
      }
      ++J;
    }
    Out.Directives.push_back({static_cast<uint32_t>(I), static_cast<uint32_t>(J)});
    I = J;
    return true;
  }
};

} // namespace

Skeleton scanSkeleton(llvm::StringRef Text) { return SkeletonScan(Text).run(); }

size_t LexedFile::tokenAt(uint32_t Offset) const {
  return static_cast<size_t>(
      std::partition_point(Toks.begin(), Toks.end(),
                           [&](const Token &T) { return T.End <= Offset; }) -
      Toks.begin());
}

} // namespace devport::cpp
