//===--- Regions.cpp - The statements of a file that rules can need -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Regions.h"

#include "core/LiteralSet.h"
#include "core/SourceFile.h"
#include "matchers/python/Review.h"
#include "matchers/python/Syntax.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>
#include <vector>

namespace devport::python {
namespace {

/// What a logical line starts with, where it matters to the layout.
enum class Key : uint8_t {
  Other,
  If,
  Elif,
  Else,
  Try,
  Except,
  Finally,
  For,
  While,
  With,
  Def,
  Class,
  Decorator,
  Import,
  From,
  Assert,
  Exit, ///< `return`, `raise`, `continue`, `break`
};

Key keyOf(llvm::StringRef W) {
  return llvm::StringSwitch<Key>(W)
      .Case("if", Key::If)
      .Case("elif", Key::Elif)
      .Case("else", Key::Else)
      .Case("try", Key::Try)
      .Case("except", Key::Except)
      .Case("finally", Key::Finally)
      .Case("for", Key::For)
      .Case("while", Key::While)
      .Case("with", Key::With)
      .Case("def", Key::Def)
      .Case("class", Key::Class)
      .Case("import", Key::Import)
      .Case("from", Key::From)
      .Case("assert", Key::Assert)
      .Cases("return", "raise", "continue", "break", Key::Exit)
      .Default(Key::Other);
}

/// A clause that continues the compound statement before it.
bool isClause(Key K) {
  return K == Key::Elif || K == Key::Else || K == Key::Except || K == Key::Finally;
}

/// One logical line: a simple statement (or several, `a; b`), or the header
/// of a compound statement, with its continuation lines.
struct Line {
  uint32_t Begin;  ///< Its first token.
  uint32_t End;    ///< The newline that ends it, or the end of the text.
  uint32_t Indent; ///< In columns, a tab counting 8 as tree-sitter-python counts it.
  Key K = Key::Other;
  bool Header = false;     ///< Ends with `:`: an indented block follows.
  bool StringFirst = false; ///< Starts with a string (a docstring).
  /// `def` and `class`: the name defined (no rule matches it).
  uint32_t NameBegin = 0, NameEnd = 0;
};

/// Per byte: bit 0, it may start an identifier (a letter, `_`, a byte of a
/// non-ASCII character); bit 1, it may continue one (a digit too); bit 2, an
/// operator that no statement ends with (`.`, `+`, `=`: see scanLines()).
constexpr std::array<uint8_t, 256> CharClass = [] {
  std::array<uint8_t, 256> T{};
  for (unsigned C = 0; C < 256; ++C) {
    bool Alpha = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_' || C >= 0x80;
    T[C] = static_cast<uint8_t>((Alpha ? 1 : 0) | (Alpha || (C >= '0' && C <= '9') ? 2 : 0));
  }
  for (const char *P = ".+-*/%@&|^~<>=!"; *P; ++P)
    T[static_cast<unsigned char>(*P)] |= 4;
  return T;
}();
bool identStart(unsigned char C) { return CharClass[C] & 1; }
bool identChar(unsigned char C) { return CharClass[C] & 2; }
bool danglingOperator(unsigned char C) { return CharClass[C] & 4; }

/// Whether W holds a character that tree-sitter-python takes for a blank
/// (its `extras`: U+FEFF, U+2060, U+200B) and this scan for part of a name
/// (`from torch.cuda<U+FEFF>import x` is an import to tree-sitter; CPython
/// refuses such a character).
bool hasInvisibleSpace(llvm::StringRef W) {
  return W.contains("\xEF\xBB\xBF") || W.contains("\xE2\x81\xA0") || W.contains("\xE2\x80\x8B");
}

bool stringPrefix(llvm::StringRef W) {
  if (W.size() > 2)
    return false;
  for (char C : W)
    if (!llvm::is_contained(llvm::StringRef("rRbBuUfFtT"), C))
      return false;
  return true;
}

/// Steps over the string literal whose opening quote is at I. False if it is
/// not terminated (a single-quoted one at its line's end).
bool skipString(llvm::StringRef T, size_t &I) {
  size_t N = T.size();
  char Q = T[I];
  bool Triple = I + 2 < N && T[I + 1] == Q && T[I + 2] == Q;
  I += Triple ? 3 : 1;
  while (I < N) {
    if (Triple) {
      // Only a quote or a backslash matters: docstrings are long.
      const char *D = T.data();
      const void *AtQ = std::memchr(D + I, Q, N - I);
      size_t J = AtQ ? static_cast<const char *>(AtQ) - D : N;
      const void *AtB = std::memchr(D + I, '\\', J - I);
      I = AtB ? static_cast<const char *>(AtB) - D : J;
      if (I >= N)
        break;
    }
    char C = T[I];
    if (C == '\\') {
      I += (I + 2 < N && T[I + 1] == '\r' && T[I + 2] == '\n') ? 3 : 2;
      continue;
    }
    if (C == Q) {
      if (!Triple) {
        ++I;
        return true;
      }
      if (I + 2 < N && T[I + 1] == Q && T[I + 2] == Q) {
        I += 3;
        return true;
      }
      ++I;
      continue;
    }
    if (!Triple && (C == '\n' || C == '\r'))
      return false;
    ++I;
  }
  return false;
}

/// A keyword that no statement ends with: after it Python reports an error
/// at the line's end, where tree-sitter reads on into the next line.
bool continuesLine(llvm::StringRef W) {
  return llvm::StringSwitch<bool>(W)
      .Cases("and", "or", "not", "in", "is", "if", "else", "elif", "lambda", true)
      .Cases("await", "import", "from", "as", "del", "assert", "global", "nonlocal", true)
      .Cases("with", "for", "while", "def", "class", "async", "except", true)
      .Default(false);
}

/// Where a comment starting at I ends: its line's end.
size_t commentEnd(llvm::StringRef T, size_t I) {
  size_t E = T.find_first_of("\r\n", I);
  return E == llvm::StringRef::npos ? T.size() : E;
}

/// Whether Statement passes a keyword that is a number of processes
/// (ProcessCountKeywords: `nprocs=`, blanks allowed before the `=`, not
/// `==`) or calls `spawn` or `start_processes`, whose third positional
/// argument is one (Review.cpp, positionalProcessCount()). Errs towards
/// true: it reads words, not the syntax.
bool passesProcessCount(llvm::StringRef Statement) {
  for (llvm::StringRef F : {llvm::StringRef("spawn"), llvm::StringRef("start_processes")})
    for (size_t At = Statement.find(F); At != llvm::StringRef::npos; At = Statement.find(F, At + 1))
      if ((At == 0 || !identChar(Statement[At - 1])) &&
          Statement.drop_front(At + F.size()).ltrim(" \t").startswith("("))
        return true;
  for (llvm::StringRef K : ProcessCountKeywords)
    for (size_t At = Statement.find(K); At != llvm::StringRef::npos;
         At = Statement.find(K, At + 1)) {
      if (At > 0 && identChar(Statement[At - 1]))
        continue;
      llvm::StringRef After = Statement.drop_front(At + K.size()).ltrim(" \t");
      if (After.startswith("=") && !After.startswith("=="))
        return true;
    }
  return false;
}

/// Whether S (digits, letters, `_` and `.`, as scanLines() reads a number)
/// is one number: `0x1F`, `0o17`, `0b1`, `1_000`, `1.5e`, `2j`, `3L`; not a
/// number followed by a name.
bool plainNumber(llvm::StringRef S) {
  if (S.size() > 2 && S[0] == '0' && llvm::StringRef("xXoObB").contains(S[1])) {
    llvm::StringRef Digits = S.drop_front(2);
    if (Digits.endswith("l") || Digits.endswith("L"))
      Digits = Digits.drop_back();
    return llvm::all_of(Digits, [](char C) { return llvm::isHexDigit(C) || C == '_'; });
  }
  llvm::StringRef Body = S;
  if (Body.endswith("j") || Body.endswith("J") || Body.endswith("l") || Body.endswith("L"))
    Body = Body.drop_back();
  return llvm::all_of(Body, [](char C) {
    return llvm::isDigit(C) || C == '_' || C == '.' || C == 'e' || C == 'E';
  });
}

/// A string literal that holds an anchor (scanLines()).
struct AnchoredString {
  ByteRange Range;
  /// An f-string (or t-string), or after one in its logical line, where a
  /// nested quote (`f"{d["k"]}"`, Python 3.12) may end what the scan reads
  /// as the literal while the code goes on: what it holds may be code, and
  /// every anchor in it counts.
  bool Code;
};

/// The logical lines and comments of T; false if its layout is ambiguous.
/// With Strings, also the string literals that hold one of Anchors (sorted).
bool scanLines(llvm::StringRef T, std::vector<Line> &Lines, std::vector<ByteRange> &Comments,
               llvm::ArrayRef<uint32_t> Anchors = {},
               std::vector<AnchoredString> *Strings = nullptr) {
  size_t I = T.startswith("\xEF\xBB\xBF") ? 3 : 0, N = T.size();
  size_t NextAnchor = 0;
  bool Interpolated = false; // an f-string so far in the logical line
  auto NoteString = [&](size_t B, size_t E, bool F) {
    Interpolated |= F;
    if (!Strings)
      return;
    while (NextAnchor < Anchors.size() && Anchors[NextAnchor] < B)
      ++NextAnchor;
    if (NextAnchor < Anchors.size() && Anchors[NextAnchor] < E)
      Strings->push_back({{static_cast<uint32_t>(B), static_cast<uint32_t>(E)}, Interpolated});
  };
  while (I < N) {
    // The start of a physical line outside any logical line: indentation.
    uint32_t Col = 0;
    for (; I < N; ++I) {
      char C = T[I];
      if (C == ' ')
        ++Col;
      else if (C == '\t')
        Col += 8;
      else if (C == '\f')
        Col = 0;
      else
        break;
    }
    if (I >= N)
      break;
    char C = T[I];
    if (C == '\n') {
      ++I;
      continue;
    }
    if (C == '\r') {
      if (I + 1 < N && T[I + 1] == '\n') {
        I += 2;
        continue;
      }
      return false; // a lone CR: not a line end for tree-sitter, one for Python
    }
    if (C == '#') {
      size_t E = commentEnd(T, I);
      Comments.push_back({static_cast<uint32_t>(I), static_cast<uint32_t>(E)});
      I = E;
      continue;
    }
    if (C == '\\')
      return false; // an empty line continued
    Line L;
    L.Begin = static_cast<uint32_t>(I);
    L.Indent = Col;
    Interpolated = false;
    int Depth = 0;
    bool First = true, LastColon = false, AnyColon = false, ExpectName = false;
    // The last token is an operator that no statement ends with (`.`, `+`),
    // or the last word (a keyword such as `and` may be one): Python stops at
    // the line's end with an error, tree-sitter reads on.
    bool Dangling = false;
    llvm::StringRef LastWord, FirstWord;
    auto EndsDangling = [&] { return Dangling || (!LastWord.empty() && continuesLine(LastWord)); };
    for (;;) {
      if (I >= N) {
        if (Depth != 0 || EndsDangling())
          return false;
        L.End = static_cast<uint32_t>(N);
        break;
      }
      unsigned char Ch = T[I];
      if (Ch == ' ' || Ch == '\t' || Ch == '\f') {
        ++I;
        continue;
      }
      if (Ch == '\n' || Ch == '\r') {
        size_t Len = Ch == '\r' ? 2 : 1;
        if (Ch == '\r' && !(I + 1 < N && T[I + 1] == '\n'))
          return false;
        if (Depth == 0) {
          if (EndsDangling())
            return false;
          L.End = static_cast<uint32_t>(I);
          I += Len;
          break;
        }
        I += Len;
        continue;
      }
      if (Ch == '#') {
        size_t E = commentEnd(T, I);
        Comments.push_back({static_cast<uint32_t>(I), static_cast<uint32_t>(E)});
        I = E;
        continue;
      }
      if (Ch == '\\') {
        if (I + 1 < N && T[I + 1] == '\n')
          I += 2;
        else if (I + 2 < N && T[I + 1] == '\r' && T[I + 2] == '\n')
          I += 3;
        else
          return false;
        continue;
      }
      LastColon = false;
      Dangling = false;
      LastWord = {};
      if (identStart(Ch)) {
        size_t B = I;
        unsigned char Bytes = 0; // its bytes or'ed: whether one is not ASCII
        while (I < N && identChar(T[I]))
          Bytes |= static_cast<unsigned char>(T[I++]);
        llvm::StringRef W = T.slice(B, I);
        if ((Bytes & 0x80) && hasInvisibleSpace(W))
          return false;
        LastWord = W;
        if (I < N && (T[I] == '"' || T[I] == '\'') && stringPrefix(W)) {
          LastWord = {};
          if (!skipString(T, I))
            return false;
          NoteString(B, I, W.find_first_of("fFtT") != llvm::StringRef::npos);
          L.StringFirst |= First;
        } else if (ExpectName) {
          if (W == "def" || W == "class")
            continue; // `async def`
          L.NameBegin = static_cast<uint32_t>(B);
          L.NameEnd = static_cast<uint32_t>(I);
          ExpectName = false;
        } else if (First) {
          // A keyword that no statement starts with (a line of prose, `and
          // the script passed`): tree-sitter may read it as the end of the
          // statement before.
          if (W == "and" || W == "or" || W == "in" || W == "is" || W == "as")
            return false;
          FirstWord = W;
          L.K = keyOf(W);
          if (W == "async") {
            size_t J = I;
            while (J < N && (T[J] == ' ' || T[J] == '\t'))
              ++J;
            size_t WB = J;
            while (J < N && identChar(T[J]))
              ++J;
            L.K = keyOf(T.slice(WB, J));
          }
          ExpectName = L.K == Key::Def || L.K == Key::Class;
        }
      } else if (Ch == '"' || Ch == '\'') {
        size_t B = I;
        if (!skipString(T, I))
          return false;
        NoteString(B, I, false);
        L.StringFirst |= First;
      } else if (llvm::isDigit(Ch) || (Ch == '.' && I + 1 < N && llvm::isDigit(T[I + 1]))) {
        size_t B = I;
        while (I < N && (identChar(T[I]) || T[I] == '.'))
          ++I;
        // A number that runs into a name (`1if x else y`, `1from m import
        // n`): Python's tokenizer and tree-sitter split it where this scan
        // cannot tell, and tree-sitter may find an import there.
        if (!plainNumber(T.slice(B, I)))
          return false;
      } else {
        // A character that no Python token has outside a string or comment
        // (a line of prose: "the model moved there by `.to(rank)`"): tree-
        // sitter's recovery from it may take in the statements around it.
        if (Ch == '`' || Ch == '$' || Ch == '?' || (Ch == '!' && !(I + 1 < N && T[I + 1] == '=')))
          return false;
        if (Ch == '(' || Ch == '[' || Ch == '{') {
          ++Depth;
        } else if (Ch == ')' || Ch == ']' || Ch == '}') {
          if (--Depth < 0)
            return false;
        } else if (Ch == ':') {
          LastColon = Depth == 0 && !(I + 1 < N && T[I + 1] == '=');
          AnyColon |= LastColon;
        } else if (Ch == '.' && I + 2 < N && T[I + 1] == '.' && T[I + 2] == '.') {
          I += 2; // `...`
        } else if (Ch == '*' && L.K == Key::From) {
          // `from m import *`
        } else if (danglingOperator(Ch)) {
          Dangling = true;
        }
        if (Ch == '@' && First)
          L.K = Key::Decorator;
        ++I;
      }
      First = false;
    }
    L.Header = LastColon;
    bool Compound = !(L.K == Key::Other || L.K == Key::Decorator || L.K == Key::Import ||
                      L.K == Key::From || L.K == Key::Assert || L.K == Key::Exit);
    // A line that ends with `:` but starts no compound statement (`If
    // flag:`, `x = lambda:`) is a syntax error, from which tree-sitter may
    // recover across the lines after it (as `flag: <annotation>`); so is one
    // that starts a compound statement with no `:` (`if flag` and a comment).
    if (L.Header && !Compound && FirstWord != "match" && FirstWord != "case")
      return false;
    if (Compound && !AnyColon)
      return false;
    Lines.push_back(L);
  }
  return true;
}

/// Sorts Rs and merges the ranges that overlap or touch.
void mergeRanges(std::vector<ByteRange> &Rs) {
  llvm::sort(Rs, [](ByteRange A, ByteRange B) { return A.Begin < B.Begin; });
  size_t W = 0;
  for (const ByteRange &R : Rs)
    if (W > 0 && R.Begin <= Rs[W - 1].End)
      Rs[W - 1].End = std::max(Rs[W - 1].End, R.End);
    else
      Rs[W++] = R;
  Rs.resize(W);
}

/// How the logical lines nest, by index into the lines.
struct Structure {
  std::vector<int32_t> Parent;     ///< The header whose block holds the line, or -1.
  std::vector<int32_t> Prev;       ///< The previous line of the same block, or -1.
  std::vector<int32_t> Start;      ///< Where its statement starts (first decorator, `if`, `try`).
  std::vector<int32_t> NextClause; ///< Its statement's next clause (or decorated line), or -1.
  std::vector<int32_t> BlockEnd;   ///< A header's last line of its block; else itself.

  /// The last line of the statement that starts at S.
  int32_t statementEnd(int32_t S) const {
    while (NextClause[S] >= 0)
      S = NextClause[S];
    return BlockEnd[S];
  }
};

/// False if the indentation is not what tree-sitter-python parses without
/// an error (an indent without a header, a header without a block, a dedent
/// to no enclosing level, a clause with nothing before it).
bool buildStructure(const std::vector<Line> &Ls, Structure &S) {
  int32_t N = static_cast<int32_t>(Ls.size());
  S.Parent.assign(N, -1);
  S.Prev.assign(N, -1);
  S.Start.resize(N);
  S.NextClause.assign(N, -1);
  S.BlockEnd.resize(N);
  std::vector<int32_t> Stack; // lines of increasing indentation
  for (int32_t J = 0; J < N; ++J) {
    S.Start[J] = J;
    S.BlockEnd[J] = J;
    uint32_t D = Ls[J].Indent;
    bool Popped = false;
    while (!Stack.empty() && Ls[Stack.back()].Indent > D) {
      if (Ls[Stack.back()].Header)
        S.BlockEnd[Stack.back()] = J - 1;
      Stack.pop_back();
      Popped = true;
    }
    if (!Stack.empty() && Ls[Stack.back()].Indent == D) {
      int32_t P = Stack.back();
      if (Ls[P].Header)
        S.BlockEnd[P] = J - 1;
      Stack.pop_back();
      S.Prev[J] = P;
      S.Parent[J] = S.Parent[P];
    } else if (!Stack.empty()) {
      int32_t Top = Stack.back();
      if (Popped || !Ls[Top].Header || Top != J - 1)
        return false;
      S.Parent[J] = Top;
    } else if (D != 0) {
      return false;
    }
    if (J > 0 && Ls[J - 1].Header && S.Parent[J] != J - 1)
      return false;
    int32_t P = S.Prev[J];
    if (isClause(Ls[J].K)) {
      if (P < 0)
        return false;
      S.Start[J] = S.Start[P];
      S.NextClause[P] = J;
    } else if (P >= 0 && Ls[P].K == Key::Decorator) {
      S.Start[J] = S.Start[P];
      S.NextClause[P] = J;
    }
    Stack.push_back(J);
  }
  if (N > 0 && Ls[N - 1].Header)
    return false;
  for (int32_t L : Stack)
    if (Ls[L].Header)
      S.BlockEnd[L] = N - 1;
  return true;
}

/// The tokens of T[B, E) that name things: identifiers, strings, `=` (alone,
/// not `==` or `+=`), `,`, `:`, `.`, and `?` for anything else (brackets
/// included), with their bracket depth. Comments are skipped. T's layout is
/// known to be sound.
struct Tok {
  char Kind;            ///< 'i' identifier, '"' string, '=', ',', ':', '.', or '?'.
  llvm::StringRef Text; ///< An identifier's.
  int Depth;
  uint32_t Begin, End; ///< Where it is in T.
};
llvm::SmallVector<Tok, 16> tokensOf(llvm::StringRef T, uint32_t B, uint32_t E) {
  llvm::SmallVector<Tok, 16> Out;
  int Depth = 0;
  for (size_t I = B; I < E;) {
    unsigned char C = T[I];
    if (C == '#') {
      I = commentEnd(T, I);
      continue;
    }
    if (llvm::isSpace(C) || C == '\\') {
      ++I;
      continue;
    }
    if (identStart(C)) {
      size_t S = I;
      while (I < E && identChar(T[I]))
        ++I;
      if (I < E && (T[I] == '"' || T[I] == '\'') && stringPrefix(T.slice(S, I))) {
        skipString(T, I);
        Out.push_back({'"', {}, Depth, uint32_t(S), uint32_t(I)});
        continue;
      }
      Out.push_back({'i', T.slice(S, I), Depth, uint32_t(S), uint32_t(I)});
      continue;
    }
    if (C == '"' || C == '\'') {
      size_t S = I;
      skipString(T, I);
      Out.push_back({'"', {}, Depth, uint32_t(S), uint32_t(I)});
      continue;
    }
    char Kind = '?';
    if (C == ',' || C == ':' || C == '.')
      Kind = static_cast<char>(C);
    // `=` alone: not `==`, `<=`, `+=`, `:=`, ...
    if (C == '=' && !(I + 1 < E && T[I + 1] == '=') &&
        !(I > B && llvm::StringRef("=!<>:+-*/%&|^@").contains(T[I - 1])))
      Kind = '=';
    if (C == ')' || C == ']' || C == '}')
      --Depth;
    Out.push_back({Kind, {}, Depth, uint32_t(I), uint32_t(I + 1)});
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    ++I;
  }
  return Out;
}

/// The names that a `from MODULE import ...` statement binds where MODULE is
/// not torch's (`from mmcv.ops import convex_iou`, `from .ops import X as Y`):
/// what guarded code calls of them may be a compiled extension's kernel
/// (Review.cpp, cudaOnlyCode(); ProjectModules.h, extensionModuleOf()).
void fromImportNames(llvm::StringRef T, const Line &L, llvm::StringSet<> &Names) {
  auto Toks = tokensOf(T, L.Begin, L.End);
  size_t I = 1;
  if (Toks.empty() || Toks[0].Text != "from")
    return;
  if (I < Toks.size() && Toks[I].Kind == 'i' && Toks[I].Text == "torch" &&
      (I + 1 >= Toks.size() || Toks[I + 1].Kind == '.' || Toks[I + 1].Text == "import"))
    return;
  while (I < Toks.size() && !(Toks[I].Kind == 'i' && Toks[I].Text == "import"))
    ++I;
  for (++I; I < Toks.size(); ++I) {
    if (Toks[I].Kind != 'i')
      continue;
    if (I + 2 < Toks.size() && Toks[I + 1].Text == "as") {
      Names.insert(Toks[I + 2].Text);
      I += 2;
    } else {
      Names.insert(Toks[I].Text);
    }
  }
}

/// The names an import statement binds to a prefix of a pattern's qualified
/// name other than themselves: `tc` in `import torch.cuda as tc`, `cuda` in
/// `from torch import cuda`; not `torch` in `import torch.cuda`. Relative
/// imports bind nothing that resolves (NameResolver). False where the
/// module's name holds what no import does (`from torch.cuda: import
/// is_available`, half typed), or where two names run together (`import
/// torch.cuda from torch.cuda import memory_allocated`, two imports on one
/// line): tree-sitter may still read an import there. With CudaLibs, also
/// the names that the import binds from a CUDA-only library (`apex`, NVIDIA's
/// extension: Review.h, cudaLibraryModule()).
bool importedNames(llvm::StringRef T, const Line &L, const RegionRules &Rules,
                   llvm::StringSet<> &Names, llvm::StringSet<> *CudaLibs = nullptr) {
  auto All = tokensOf(T, L.Begin, L.End);
  llvm::SmallVector<Tok, 16> Toks; // `from m import (a, b)`: the brackets do not matter
  for (const Tok &X : All)
    if (X.Kind != '?' && X.Kind != '"')
      Toks.push_back(X);
  std::string From;
  size_t I = 1; // after `import` or `from`
  if (L.K == Key::From) {
    for (; I < Toks.size() && !(Toks[I].Kind == 'i' && Toks[I].Text == "import"); ++I) {
      if (Toks[I].Kind == 'i' && Toks[I - 1].Kind == 'i' && !From.empty())
        return false; // `from torch cuda import x`
      if (Toks[I].Kind == 'i')
        From += Toks[I].Text.str();
      else if (Toks[I].Kind == '.')
        From += '.';
      else
        return false;
    }
    if (From.empty() || From.front() == '.')
      return true;
    ++I;
  }
  bool Cleaned = llvm::any_of(Rules.CleanedModules, [&](const std::string &M) {
    return From == M || llvm::StringRef(From).startswith(M + ".");
  });
  // Items: a dotted name, maybe `as NAME`, up to a comma.
  while (I < Toks.size()) {
    std::string Dotted;
    for (;
         I < Toks.size() && (Toks[I].Kind == '.' || (Toks[I].Kind == 'i' && Toks[I].Text != "as"));
         ++I) {
      // Two names in a row (`import torch.cuda from torch.cuda import
      // memory_allocated`, two statements run together): tree-sitter may
      // read a second import there, which this reading would not.
      if (Toks[I].Kind == 'i' && I > 0 && Toks[I - 1].Kind == 'i' && !Dotted.empty())
        return false;
      Dotted += Toks[I].Kind == '.' ? llvm::StringRef(".") : Toks[I].Text;
    }
    llvm::StringRef Name = llvm::StringRef(Dotted).split('.').first;
    std::string Target = L.K == Key::From ? From + "." + Dotted : Dotted;
    bool Aliased = I + 1 < Toks.size() && Toks[I].Kind == 'i' && Toks[I].Text == "as" &&
                   Toks[I + 1].Kind == 'i';
    if (CudaLibs && !Name.empty() && cudaLibraryModule(Target))
      CudaLibs->insert(Aliased ? Toks[I + 1].Text : Name);
    if (Aliased) {
      Name = Toks[I + 1].Text;
      I += 2;
    } else if (L.K == Key::Import) {
      Name = ""; // `import a.b` binds `a` to itself
    }
    if (!Name.empty() && !Dotted.empty() && Name != Target &&
        (Cleaned || Rules.QualifiedPrefixes.count(Target)))
      Names.insert(Name);
    while (I < Toks.size() && Toks[I].Kind != ',')
      ++I;
    ++I;
  }
  return true;
}

/// A name that a statement assigns, and whether as `self.NAME`, or as an
/// attribute of another name (`args.n_gpu`).
struct Assigned {
  llvm::StringRef Name;
  bool OfSelf;
  bool OfOther = false;
};

/// The names a statement assigns: the last name of each target that is a
/// name or an attribute (`use_cuda`, `self.device` -> `device`).
void assignedNames(llvm::StringRef T, const Line &L, std::vector<Assigned> &Out) {
  auto Toks = tokensOf(T, L.Begin, L.End);
  size_t TargetStart = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Toks[I].Kind != '=' || Toks[I].Depth != 0)
      continue;
    // Toks[TargetStart, I) is a target, maybe annotated (`x: int = ...`).
    size_t End = I;
    bool Tuple = false;
    for (size_t J = TargetStart; J < I; ++J) {
      if (Toks[J].Kind == ':' && Toks[J].Depth == 0) {
        End = J;
        break;
      }
      Tuple |= Toks[J].Kind == ',' && Toks[J].Depth == 0;
    }
    // Each target of a tuple, `non_blocking, _ss = torch.cuda.is_available(),
    // -1` (Review.cpp, flagGuard()), that is a name or `self.NAME`.
    for (size_t B = TargetStart; B < End;) {
      size_t E = B;
      while (E < End && !(Tuple && Toks[E].Kind == ',' && Toks[E].Depth == 0))
        ++E;
      if (E > B && Toks[E - 1].Kind == 'i' && (!Tuple || E - B == 1 || E - B == 3)) {
        bool Attribute = E - B == 3 && Toks[B].Kind == 'i' && Toks[B + 1].Kind == '.';
        Out.push_back({Toks[E - 1].Text, Attribute && Toks[B].Text == "self",
                       Attribute && Toks[B].Text != "self"});
      }
      B = E + 1;
    }
    TargetStart = I + 1;
  }
}

/// VAR of a loop header `for VAR in NAME:` whose NAME is one of Names.
std::optional<llvm::StringRef> loopOverName(llvm::StringRef T, const Line &L,
                                            const llvm::StringMap<std::vector<ByteRange>> &Names) {
  auto Toks = tokensOf(T, L.Begin, L.End);
  if (Toks.size() != 5 || Toks[0].Text != "for" || Toks[1].Kind != 'i' || Toks[2].Text != "in" ||
      Toks[3].Kind != 'i' || Toks[4].Kind != ':' || !Names.count(Toks[3].Text))
    return std::nullopt;
  return Toks[1].Text;
}

/// Whether the statement T[B, E) ends a block early as Review.cpp's
/// exitsEarly() sees it: a `return`, `raise`, `continue` or `break`, or a
/// call of something named `...skipTest`, `...skip`, `...exit`,
/// `...skip_test`. Of a one-line compound statement (`if c: return`), what
/// follows its colon.
bool endsBlock(llvm::StringRef T, uint32_t B, uint32_t E, bool OneLiner) {
  auto Toks = tokensOf(T, B, E);
  size_t I = 0;
  if (OneLiner) {
    while (I < Toks.size() && !(Toks[I].Kind == ':' && Toks[I].Depth == 0))
      ++I;
    ++I;
  }
  if (I >= Toks.size() || Toks[I].Kind != 'i')
    return false;
  if (keyOf(Toks[I].Text) == Key::Exit)
    return true;
  llvm::StringRef Callee;
  for (; I < Toks.size() && (Toks[I].Kind == 'i' || Toks[I].Kind == '.'); ++I)
    if (Toks[I].Kind == 'i')
      Callee = Toks[I].Text;
  return llvm::StringRef(Callee).endswith("skipTest") || Callee.endswith("skip") ||
         Callee.endswith("exit") || Callee.endswith("skip_test");
}

class Masker {
public:
  /// At most this many ranges for the parser to read.
  static constexpr size_t MaxRanges = 64;
  /// Up to this many names assigned by anchored statements are searched for
  /// one by one (markAssignedUses()).
  static constexpr size_t MaxNamesSearched = 8;
  /// At most this many `from` and `import` in a line that is no import are
  /// read (importsWithin()); with more the file is parsed whole.
  static constexpr unsigned MaxImportsWithin = 64;

  Masker(llvm::StringRef T, std::vector<Line> Ls, std::vector<ByteRange> Cs, Structure S)
      : T(T), Ls(std::move(Ls)), Comments(std::move(Cs)), S(std::move(S)),
        Keep(this->Ls.size(), false), Hit(this->Ls.size(), false), Skeleton(this->Ls.size(), false),
        Unguarded(this->Ls.size(), false) {}

  /// With Words (the word of each anchor), Strings are the string literals
  /// that hold anchors (scanLines()): an anchor counts only where
  /// Rules.WordUses says that its word does.
  std::optional<RegionText> run(llvm::ArrayRef<uint32_t> Anchors, const RegionRules &Rules,
                                bool MarksOnly, llvm::ArrayRef<unsigned> Words,
                                llvm::ArrayRef<AnchoredString> Strings) {
    int32_t N = static_cast<int32_t>(Ls.size());
    DeviceWords = &Rules.DeviceWords;
    size_t Str = 0;
    for (size_t K = 0; K < Anchors.size(); ++K) {
      uint32_t A = Anchors[K];
      if (!Words.empty() && Words[K] < Rules.WordUses.size() &&
          !counts(A, Rules.WordUses[Words[K]], Strings, Str))
        continue; // no pattern can find its word there
      if (markHit(A))
        Marks.push_back(A);
    }
    // Names that imports bind to what a pattern names.
    llvm::StringSet<> Aliases;
    for (int32_t I = 0; I < N; ++I)
      if ((Ls[I].K == Key::Import || Ls[I].K == Key::From) &&
          !importedNames(T, Ls[I], Rules, Aliases, &CudaLibNames))
        return std::nullopt; // the whole file, and no marks
      else if (Ls[I].K == Key::From)
        fromImportNames(T, Ls[I], FromImported);
    // Other lines with the word `import` (one search of the text, not one
    // per line: that was 1% of a check).
    int32_t Last = -1;
    for (size_t At = findWord(T, "import"); At != llvm::StringRef::npos;
         At = findWord(T, "import", At + 1)) {
      int32_t L = lineAt(static_cast<uint32_t>(At));
      if (L > Last && Ls[L].K != Key::Import && Ls[L].K != Key::From &&
          !importsWithin(Ls[L], Rules, Aliases))
        return std::nullopt; // the whole file, and no marks
      Last = std::max(Last, L);
    }
    // `NAME = pytest.importorskip("M")` (or importlib's import_module): an
    // import by a call (NameResolver.h), kept as imports are; NAME an alias
    // of M where M is what a pattern names.
    std::vector<int32_t> ImportCalls;
    for (llvm::StringRef W : {"importorskip", "import_module"})
      for (size_t At = findWord(T, W); At != llvm::StringRef::npos; At = findWord(T, W, At + 1)) {
        int32_t L = lineAt(static_cast<uint32_t>(At));
        if (L < 0 || Ls[L].K != Key::Other)
          continue; // in a comment, or an import's own line
        ImportCalls.push_back(L);
        auto Toks = tokensOf(T, Ls[L].Begin, Ls[L].End);
        if (Toks.size() < 4 || Toks[0].Kind != 'i' || Toks[1].Kind != '=')
          continue;
        for (size_t I = 2; I + 2 < Toks.size(); ++I)
          if (Toks[I].Kind == 'i' && Toks[I].Text == W && Toks[I + 2].Kind == '"') {
            llvm::StringRef M = T.slice(Toks[I + 2].Begin, Toks[I + 2].End);
            if (M.size() >= 2)
              M = M.drop_front().drop_back();
            if (Toks[0].Text != M && Rules.QualifiedPrefixes.count(M))
              Aliases.insert(Toks[0].Text);
            break;
          }
      }
    markUses(Aliases);
    // Names that anchored statements assign: their later uses in the same
    // function (class, for `self.NAME`).
    std::vector<std::pair<int32_t, Assigned>> Names;
    for (int32_t I = 0; I < N; ++I)
      if (Hit[I] && Ls[I].K == Key::Other) {
        std::vector<Assigned> A;
        assignedNames(T, Ls[I], A);
        bool Skip = T.slice(Ls[I].Begin, Ls[I].End).contains_insensitive("skip");
        for (const Assigned &X : A) {
          Names.push_back({I, X});
          if (Skip && !X.OfSelf)
            MarkerNames.insert(X.Name);
        }
      }
    // Names that a module-level `if` on an availability check or a device
    // count assigns in its blocks (Review.cpp, boundUnderCudaCheck()): their
    // uses, and every module-level assignment of them (at module level or in
    // a module-level if's blocks), whose absence the review reads.
    llvm::StringSet<> Bound;
    auto ClauseChild = [&](int32_t J) {
      int32_t P = S.Parent[J];
      return P >= 0 && S.Parent[P] < 0 &&
             (Ls[P].K == Key::If || Ls[P].K == Key::Elif || Ls[P].K == Key::Else);
    };
    for (int32_t I = 0; I < N; ++I) {
      if (S.Parent[I] >= 0 || Ls[I].K != Key::If ||
          !asksForDevices(T.slice(Ls[I].Begin, Ls[I].End)))
        continue;
      for (int32_t C = I; C >= 0; C = S.NextClause[C])
        for (int32_t J = C + 1; J <= S.BlockEnd[C]; ++J) {
          if (S.Parent[J] != C || Ls[J].K != Key::Other)
            continue;
          std::vector<Assigned> A;
          assignedNames(T, Ls[J], A);
          for (const Assigned &X : A)
            if (!X.OfSelf) {
              Bound.insert(X.Name);
              Names.push_back({J, X});
            }
        }
    }
    if (!Bound.empty())
      for (int32_t J = 0; J < N; ++J) {
        if (Ls[J].K != Key::Other || !(S.Parent[J] < 0 || ClauseChild(J)))
          continue;
        std::vector<Assigned> A;
        assignedNames(T, Ls[J], A);
        if (llvm::any_of(A, [&](const Assigned &X) { return Bound.count(X.Name) != 0; }))
          Keep[J] = true;
      }
    // Where each name counts, merged; then one pass over the identifiers
    // (a name assigned at module level counts to the end of the file: one
    // search per assignment would read a large file once per finding).
    llvm::StringMap<std::vector<ByteRange>> Wanted;
    // A name bound under a module-level check: its uses anywhere, before the
    // `if` too (the review reads every use outside the statements that bind it).
    for (const auto &E : Bound)
      Wanted[E.getKey()].push_back({0, Ls[N - 1].End});
    for (const auto &[I, X] : Names) {
      // `args.n_gpu`: its uses in the whole module, where the functions that
      // are handed `args` read it (Review.cpp, flagGuard()).
      if (X.OfOther) {
        Wanted[X.Name].push_back({0, Ls[N - 1].End});
        continue;
      }
      int32_t P = S.Parent[I];
      while (P >= 0 && Ls[P].K != (X.OfSelf ? Key::Class : Key::Def))
        P = S.Parent[P];
      Wanted[X.Name].push_back({Ls[I].End, Ls[P >= 0 ? S.BlockEnd[P] : N - 1].End});
    }
    for (auto &E : Wanted)
      mergeRanges(E.second);
    if (!Wanted.empty()) {
      markAssignedUses(Wanted);
      // `for VAR in NAME:` over such a name: VAR's uses in the loop (the
      // review follows such a loop once: cudaKeywordThroughName()).
      llvm::StringMap<std::vector<ByteRange>> LoopVars;
      for (int32_t I = 0; I < N; ++I)
        if (Hit[I] && Ls[I].K == Key::For)
          if (std::optional<llvm::StringRef> V = loopOverName(T, Ls[I], Wanted))
            LoopVars[*V].push_back({Ls[I].End, Ls[S.statementEnd(I)].End});
      for (auto &E : LoopVars)
        mergeRanges(E.second);
      if (!LoopVars.empty())
        markAssignedUses(LoopVars);
    }

    dropProse(Rules);
    // Nothing can match: the rules' words are only in comments (or prose).
    NothingToMatch = llvm::none_of(Hit, [](bool H) { return H; }) && !mentionsDevport(T);
    // `.cuda()` may be an object's own method (Review.cpp, ownCudaMethod():
    // a module-level class that defines `cuda`, bitsandbytes' Int8Params);
    // the review reads every assignment of the receiver before it in its
    // function: the whole file, where the module assigns one such object.
    if (!NothingToMatch && definesOwnCuda())
      return std::nullopt;
    if (MarksOnly)
      return marked();
    findModuleDefinitions();
    for (int32_t I = 0; I < N; ++I) {
      if (!Hit[I])
        continue;
      int32_t Start = S.Start[I], End = S.statementEnd(Start);
      switch (keptWhole(Ls[I], Ls[Start], Rules)) {
      case Whole::No:
        Keep[I] = true; // and what an `assert` guards, below
        keepAfterPick(Start);
        break;
      case Whole::Statement:
        keepLines(Start, End);
        keepBeforeIf(Start);
        break;
      case Whole::Guarded:
        keepGuarded(Start + 1, End);
        keepLastStatements(Start);
        Keep[I] = true;
        keepBeforeIf(Start);
        break;
      }
      // float64 in the function of a guard, an `if` or a conditional
      // expression, whether kept whole or read (Review.cpp,
      // float64InFunction()).
      keepFloat64OfFunction(Start);
      // A module's `pytestmark` skip guards the whole module (Review.cpp,
      // guardAt()).
      if (S.Parent[Start] < 0 && Ls[Start].K == Key::Other) {
        llvm::StringRef Statement = T.slice(Ls[Start].Begin, Ls[Start].End);
        if (Statement.startswith("pytestmark") && Statement.contains_insensitive("skip"))
          keepGuarded(0, N - 1);
      }
      // What a guard guards beyond its block (Review.cpp, guardAt): in a
      // test class's set-up, the class's tests too.
      if (Ls[Start].K == Key::If && exitsEarly(Start)) {
        keepGuarded(End + 1, S.Parent[Start] >= 0 ? S.BlockEnd[S.Parent[Start]] : N - 1);
        keepClassOfSetUp(S.Parent[Start]);
      }
      if (Ls[I].K == Key::Assert ||
          (Ls[Start].K == Key::Other && assertTrueCall(T.slice(Ls[Start].Begin, Ls[Start].End)))) {
        int32_t P = S.Parent[I];
        while (P >= 0 && Ls[P].K != Key::Def && Ls[P].K != Key::Class)
          P = S.Parent[P];
        keepGuarded(I + 1, P >= 0 ? S.BlockEnd[P] : N - 1);
        keepClassOfSetUp(P);
      }
      // A test class's `world_size` from a device count (Review.cpp,
      // worldSizeTests()): the class's tests.
      if ((Ls[I].K == Key::Other || Ls[I].K == Key::Exit) &&
          T.slice(Ls[I].Begin, Ls[I].End).contains("device_count")) {
        int32_t P = S.Parent[Start];
        llvm::StringRef L = T.slice(Ls[Start].Begin, Ls[Start].End);
        if (P >= 0 && Ls[P].K == Key::Def &&
            T.slice(Ls[P].NameBegin, Ls[P].NameEnd) == "world_size")
          P = S.Parent[P];
        else if (!(P >= 0 && Ls[P].K == Key::Class && L.startswith("world_size")))
          P = -1;
        if (P >= 0 && Ls[P].K == Key::Class)
          keepGuarded(P + 1, S.BlockEnd[P]);
      }
      // A call that starts processes, whose number may be a device count or
      // a name assigned one (Review.cpp, guardAt(): `mp.spawn(run,
      // nprocs=torch.cuda.device_count())`): the call, and the module's
      // definitions it names.
      // A compound statement's own lines only: its header, and the line
      // that holds the anchor (a search of the whole of a decorated class
      // for each of its anchors was 1.2% of a check).
      if (End > Start ? passesProcessCount(T.slice(Ls[Start].Begin, Ls[Start].End)) ||
                            (I != Start && passesProcessCount(T.slice(Ls[I].Begin, Ls[I].End)))
                      : passesProcessCount(T.slice(Ls[Start].Begin, Ls[End].End)))
        keepGuarded(Start, End);
    }
    // What the review reads of a test (Review.cpp, unskippedTest()): in a
    // function named `test...` (or a set-up), at module level and in a module-level `if`
    // (`if __name__ == "__main__":`), a condition or assert that says an
    // accelerator (`if not TEST_CUDA:`), with the last statement of each
    // block of its statement (an early exit, a module's skip, `run_tests()`);
    // a module's `pytestmark`. Nothing where no function is named `test...`.
    // A test class's set-up (`setUp`, ...) runs before each of its tests: read as one.
    auto TestDef = [&](const Line &L) {
      llvm::StringRef Name = T.slice(L.NameBegin, L.NameEnd);
      return L.K == Key::Def && (Name.startswith("test") || setUpName(Name));
    };
    auto ReadForTests = [&](int32_t I) {
      int32_t P = S.Parent[I];
      if (P < 0 ||
          (S.Parent[P] < 0 && (Ls[P].K == Key::If || Ls[P].K == Key::Elif || Ls[P].K == Key::Else)))
        return true;
      for (; P >= 0; P = S.Parent[P])
        if (TestDef(Ls[P]))
          return true;
      return false;
    };
    bool Tests = llvm::any_of(Ls, TestDef);
    for (int32_t I = 0; I < N && Tests; ++I) {
      const Line &L = Ls[I];
      bool AssertTrue =
          L.K == Key::Other && S.Start[I] == I && assertTrueCall(T.slice(L.Begin, L.End));
      if (L.K == Key::If || L.K == Key::Elif || L.K == Key::While || L.K == Key::Assert ||
          AssertTrue) {
        if (!ReadForTests(I) || !saysAccelerator(T.slice(L.Begin, L.End)))
          continue;
        if (L.K == Key::Assert || AssertTrue)
          Keep[I] = true;
        else
          keepLastStatements(S.Start[I]);
      } else if (L.K == Key::Other && S.Parent[I] < 0 &&
                 T.slice(L.Begin, L.End).startswith("pytestmark")) {
        Keep[I] = true;
      }
    }
    // Imports (name resolution), and the module's first statements up to the
    // first that is neither a docstring nor an import (where a new import goes).
    for (int32_t I = 0; I < N; ++I)
      if (Ls[I].K == Key::Import || Ls[I].K == Key::From)
        Keep[I] = true;
    for (int32_t L : ImportCalls)
      Keep[L] = true;
    for (int32_t I = 0; I < N; ++I) {
      if (S.Parent[I] >= 0 || S.Start[I] != I)
        continue;
      Keep[I] = true;
      Head = Ls[I].End;
      if (!Ls[I].StringFirst && Ls[I].K != Key::Import && Ls[I].K != Key::From)
        break;
    }
    // The statements around what is kept, with all their clauses.
    for (int32_t I = 0; I < N; ++I) {
      if (!Keep[I])
        continue;
      for (int32_t L = I; L >= 0; L = S.Parent[L]) {
        int32_t Start = S.Start[L];
        if (Skeleton[Start])
          break;
        Skeleton[Start] = true;
        for (int32_t C = Start; C >= 0; C = S.NextClause[C])
          Keep[C] = true;
        keepConditionAssignments(Start);
      }
    }
    if (Rules.TablesSplit) {
      std::vector<uint32_t> Sorted; // the marks, once a table is in sight
      for (int32_t I = 0; I < N; ++I) {
        if (!Keep[I] || !Hit[I] || Ls[I].End - Ls[I].Begin < MinTableBytes)
          continue;
        if (Sorted.empty()) {
          Sorted = Marks;
          llvm::sort(Sorted);
        }
        if (std::optional<Table> Tb = tableAt(I, Rules, Sorted))
          Tables.push_back(std::move(*Tb));
      }
    }
    return mask();
  }

private:
  /// What an anchor in a line keeps of the statement around it.
  enum class Whole {
    No,        ///< The line alone.
    Statement, ///< All of it: a pattern matches such statements whole.
    /// What the review reads of the code it guards (keepGuarded()), the
    /// statement's clauses and the last statement of each of their blocks.
    Guarded,
  };

  /// What an anchor in line L (of the statement starting at Start) keeps.
  Whole keptWhole(const Line &L, const Line &Start, const RegionRules &Rules) const {
    static const std::pair<Key, const char *> Types[] = {
        {Key::If, "if_statement"},       {Key::While, "while_statement"},
        {Key::For, "for_statement"},     {Key::With, "with_statement"},
        {Key::Try, "try_statement"},     {Key::Def, "function_definition"},
        {Key::Class, "class_definition"}, {Key::Decorator, "decorated_definition"}};
    for (const auto &[K, Type] : Types)
      if (Start.K == K && Rules.WholeStatements.count(Type))
        return Whole::Statement;
    switch (L.K) {
    case Key::If:
    case Key::Elif:
    case Key::While:
      return Whole::Guarded; // a guard
    case Key::For:           // a device count in what it reads bounds it (Review.cpp, guardAt())
      return T.slice(L.Begin, L.End).contains("device_count") ? Whole::Guarded : Whole::No;
    case Key::Else:
      return Start.K == Key::If ? Whole::Guarded : Whole::No;
    case Key::Decorator: {
      llvm::StringRef D = T.slice(L.Begin, L.End);
      if (D.contains_insensitive("skip"))
        return Whole::Guarded;
      // `@requires_gpu`, a skip marker kept in a name (Review.cpp, flagGuard()).
      llvm::StringRef Name = D.drop_front().ltrim(" \t");
      Name = Name.take_while([](char C) { return identChar(C); });
      return MarkerNames.count(Name) ? Whole::Guarded : Whole::No;
    }
    case Key::Def:
      return Whole::Guarded; // in its parameters: a default is evaluated once
    default:
      return Whole::No;
    }
  }

  /// Whether the module assigns a name an object whose `cuda()` is its own
  /// (Review.cpp, ownCudaMethod()): `NAME = Class(...)` for a class of its top
  /// level that defines `cuda`, or bitsandbytes' Int8Params.
  bool definesOwnCuda() const {
    llvm::SmallVector<llvm::StringRef, 4> Classes{"Int8Params"};
    for (size_t I = 0; I < Ls.size(); ++I) {
      int32_t P = S.Parent[I];
      if (Ls[I].K == Key::Def && T.slice(Ls[I].NameBegin, Ls[I].NameEnd) == "cuda" && P >= 0 &&
          Ls[P].K == Key::Class && S.Parent[P] < 0)
        Classes.push_back(T.slice(Ls[P].NameBegin, Ls[P].NameEnd));
    }
    for (llvm::StringRef C : Classes)
      for (size_t At = findWord(T, C); At != llvm::StringRef::npos; At = findWord(T, C, At + 1)) {
        size_t E = At + C.size();
        if ((At > 0 && identChar(T[At - 1])) || (E < T.size() && identChar(T[E])))
          continue; // part of another name
        while (E < T.size() && (T[E] == ' ' || T[E] == '\t'))
          ++E;
        if (E >= T.size() || T[E] != '(')
          continue;
        // Back over a dotted prefix (`bnb.nn.`), brackets and blanks to an
        // `=` (not `==`, `!=`, `<=`, `>=`).
        size_t B = At;
        while (B > 0 && (identChar(T[B - 1]) || llvm::StringRef(". \t(").contains(T[B - 1])))
          --B;
        if (B > 1 && T[B - 1] == '=' && !llvm::StringRef("=!<>").contains(T[B - 2]))
          return true;
      }
    return false;
  }

  /// Prose: a statement of plain strings alone (a docstring; no f-string)
  /// holds no match, as no pattern matches such a string but the rules'
  /// string values, and its words are not code. Its lines are not hits and
  /// its offsets not marks, unless it holds a string value or a doctest
  /// (`>>>`: the matcher reads it as code where it visits the docstring).
  void dropProse(const RegionRules &Rules) {
    if (Rules.MatchesStrings)
      return;
    std::vector<ByteRange> Dropped;
    for (size_t I = 0; I < Ls.size(); ++I) {
      const Line &L = Ls[I];
      if (!Hit[I] || !L.StringFirst || L.K != Key::Other)
        continue;
      llvm::StringRef Code = T.slice(L.Begin, L.End);
      if (Code.contains(">>>") ||
          llvm::any_of(Rules.StringValues,
                       [&](const std::string &V) { return Code.contains(V); }) ||
          !onlyPlainStrings(L))
        continue;
      Hit[I] = false;
      Dropped.push_back({L.Begin, L.End});
    }
    if (Dropped.empty())
      return;
    llvm::erase_if(Marks, [&](uint32_t A) {
      auto It = std::upper_bound(Dropped.begin(), Dropped.end(), A,
                                 [](uint32_t X, const ByteRange &R) { return X < R.Begin; });
      return It != Dropped.begin() && A < std::prev(It)->End;
    });
  }

  /// The names that imports within line L bind, as importedNames(): after
  /// a `;` (`x = 1; from torch import cuda`), or where tree-sitter ends a
  /// statement that Python would not (`1 from torch.cuda import nvtx`, `a b
  /// import tc`: an error, after which tree-sitter reads an import), from
  /// every `from` and `import` of the line on. False past MaxImportsWithin
  /// of them (each is read to the line's end: a line of thousands, which is
  /// no Python, would take the square of its length).
  bool importsWithin(const Line &L, const RegionRules &Rules, llvm::StringSet<> &Names) {
    unsigned Seen = 0;
    for (const Tok &X : tokensOf(T, L.Begin, L.End)) {
      if (X.Kind != 'i' || (X.Text != "from" && X.Text != "import"))
        continue;
      if (++Seen > MaxImportsWithin)
        return false;
      Line At = L;
      At.Begin = X.Begin;
      At.K = X.Text == "from" ? Key::From : Key::Import;
      (void)importedNames(T, At, Rules, Names, &CudaLibNames); // `raise E from e`: no import
    }
    return true;
  }

  /// Whether the anchor at A, of a word used as W says, may be part of a
  /// match: in the string literal that holds it (Strings, from Str on,
  /// sorted), or in code.
  bool counts(uint32_t A, const WordUse &W, llvm::ArrayRef<AnchoredString> Strings, size_t &Str) {
    while (Str < Strings.size() && Strings[Str].Range.End <= A)
      ++Str;
    if (Str < Strings.size() && Strings[Str].Range.Begin <= A) {
      const AnchoredString &S = Strings[Str];
      if (S.Code || A + W.Length > S.Range.End)
        return true;
      // Once a string and word, not once an occurrence: a string of many
      // words would be read as many times.
      llvm::StringRef Token = T.slice(S.Range.Begin, S.Range.End);
      if (StringOf != Str) {
        StringOf = Str;
        Doctest = findWord(Token, ">>>") != llvm::StringRef::npos;
        Answers.clear();
      }
      if (Doctest)
        return true;
      for (const auto &[Use, Counts] : Answers)
        if (Use == &W)
          return Counts;
      Answers.push_back({&W, W.countsIn(Token)});
      return Answers.back().second;
    }
    if (W.InCode & WordUse::Anywhere)
      return true;
    bool Starts = A == 0 || !identChar(T[A - 1]);
    bool Ends = A + W.Length >= T.size() || !identChar(T[A + W.Length]);
    return ((W.InCode & WordUse::NameStart) && Starts) || ((W.InCode & WordUse::NameEnd) && Ends) ||
           ((W.InCode & WordUse::Name) && Starts && Ends);
  }

  /// Whether line L is string literals alone (maybe concatenated, across
  /// continuation lines, with comments), none an f-string (or t-string).
  bool onlyPlainStrings(const Line &L) const {
    size_t I = L.Begin;
    bool Any = false;
    while (I < L.End) {
      char C = T[I];
      if (C == ' ' || C == '\t' || C == '\f' || C == '\n' || C == '\r' || C == '\\') {
        ++I; // the layout is sound: a backslash here continues the line
        continue;
      }
      if (C == '#') {
        I = commentEnd(T, I);
        continue;
      }
      size_t B = I;
      while (I < L.End && identChar(T[I]))
        ++I;
      llvm::StringRef Prefix = T.slice(B, I);
      if (I >= L.End || (T[I] != '"' && T[I] != '\'') || !stringPrefix(Prefix) ||
          Prefix.find_first_of("fFtT") != llvm::StringRef::npos || !skipString(T, I))
        return false;
      Any = true;
    }
    return Any;
  }

  /// The statement before the `if` at Start: one that names another backend
  /// makes the two a ladder (Review.cpp, previousIfNamingOtherBackend()), and
  /// the tree must have the same statement before it as the whole file's,
  /// also where a pattern matches the `if` whole (the generated corpus of
  /// regions.equivalence, after a fix round).
  void keepBeforeIf(int32_t Start) {
    if (Ls[Start].K == Key::If && S.Prev[Start] >= 0)
      Keep[S.Start[S.Prev[Start]]] = true;
  }

  /// After a statement that picks a device with a "cpu" alternative (`device
  /// = ... if torch.cuda.is_available() else "cpu"`) in a function or at
  /// module level, the lines of the rest of the function (module) that the
  /// review of guarded code reads, collectives and float64 among them
  /// (Review.cpp, pickReachesCollective(), deviceReachesFloat64()).
  void keepAfterPick(int32_t Start) {
    llvm::StringRef Line = T.slice(Ls[Start].Begin, Ls[Start].End);
    if (Ls[Start].K != Key::Other || findWord(Line, "else") == llvm::StringRef::npos ||
        !(Line.contains("\"cpu\"") || Line.contains("'cpu'")))
      return;
    int32_t P = S.Parent[Start];
    while (P >= 0 && Ls[P].K != Key::Def && Ls[P].K != Key::Class)
      P = S.Parent[P];
    if (P >= 0 && Ls[P].K != Key::Def)
      return;
    // At module level, the rest of the module (Review.cpp,
    // deviceReachesFloat64(): float64 where the device is in reach).
    int32_t End = P < 0 ? static_cast<int32_t>(Ls.size()) - 1 : S.BlockEnd[P];
    if (S.statementEnd(Start) < End)
      keepGuardedLines(S.statementEnd(Start) + 1, End);
    // In a file that imports gym, the tensors made of its data as they are
    // (Review.cpp, dtypelessConversion(): float64 rewards).
    if (!SaysGym)
      SaysGym = T.contains("gym");
    if (*SaysGym)
      for (int32_t I = S.statementEnd(Start) + 1; I <= End; ++I) {
        llvm::StringRef L = T.slice(Ls[I].Begin, Ls[I].End);
        if (L.contains("tensor(") || L.contains("from_numpy("))
          Keep[I] = true;
      }
  }

  /// In the function that holds the statement at Start (its header too),
  /// the lines that may name float64 (Review.cpp, float64InFunction(): a
  /// tensor made float64 before a guard and moved to the device in it).
  void keepFloat64OfFunction(int32_t Start) {
    int32_t P = S.Parent[Start];
    while (P >= 0 && Ls[P].K != Key::Def && Ls[P].K != Key::Class)
      P = S.Parent[P];
    if (P < 0 || Ls[P].K != Key::Def)
      return;
    if (Float64Read.empty())
      Float64Read.assign(Ls.size(), false);
    if (Float64Read[P])
      return; // once a function
    Float64Read[P] = true;
    for (int32_t I = P; I <= S.BlockEnd[P]; ++I) {
      llvm::StringRef L = T.slice(Ls[I].Begin, Ls[I].End);
      if (!Keep[I] && (L.contains("float64") || L.contains("double") || L.contains("Double") ||
                       L.contains("float8_")))
        Keep[I] = true;
    }
  }

  /// Keeps the lines From..To of guarded code that the review may read
  /// (Review.h, mentionsGuardedWord): the others can hold no match (they
  /// have no anchor) and nothing the review looks for.
  void keepGuarded(int32_t From, int32_t To) {
    keepGuardedLines(From, To);
    // The module's functions and classes that guarded code names, and what
    // they name in turn (Review.cpp, cudaOnlyCode()).
    while (!DefQueue.empty()) {
      auto [A, B] = DefQueue.back();
      DefQueue.pop_back();
      keepGuardedLines(A, B);
    }
  }

  /// The functions and classes defined at module level, by name: the first
  /// line of each (its first decorator) and the last of its block. Also
  /// those in the blocks of module-level `if` and `try` statements (`try:
  /// from apex... import X` then `class Y(X):`, fairseq's), as
  /// Review.cpp's moduleDefinitions(); the last of a name wins.
  void findModuleDefinitions() {
    int32_t N = static_cast<int32_t>(Ls.size());
    DefsRead.assign(Ls.size(), false);
    auto AtModuleLevel = [&](int32_t I) {
      int32_t P = S.Parent[I];
      while (P >= 0 && (Ls[P].K == Key::If || Ls[P].K == Key::Elif || Ls[P].K == Key::Else ||
                        Ls[P].K == Key::Try || Ls[P].K == Key::Except || Ls[P].K == Key::Finally))
        P = S.Parent[P];
      return P < 0;
    };
    for (int32_t I = 0; I < N; ++I)
      if ((Ls[I].K == Key::Def || Ls[I].K == Key::Class) && Ls[I].Header && AtModuleLevel(I))
        ModuleDefs[T.slice(Ls[I].NameBegin, Ls[I].NameEnd)] = {S.Start[I], S.BlockEnd[I]};
  }

  /// Whether line I names a module-level definition; queues each one named
  /// for the first time.
  bool namesModuleDefinition(int32_t I) {
    bool Named = false;
    llvm::StringRef L = T.slice(Ls[I].Begin, Ls[I].End);
    for (size_t At = 0; At < L.size();) {
      if (!identStart(L[At])) {
        ++At;
        continue;
      }
      size_t B = At;
      while (At < L.size() && identChar(L[At]))
        ++At;
      if (B > 0 && llvm::isDigit(L[B - 1]))
        continue;
      // A definition's own name (`def helper(`, `class C(Base):`) names
      // what is read already.
      if ((Ls[I].K == Key::Def || Ls[I].K == Key::Class) && Ls[I].Begin + B == Ls[I].NameBegin)
        continue;
      // Called (`helper(x)`, `self.helper(x)`), handed to a call (`mp.spawn(worker,
      // ...)`, `Thread(target=worker)`: an argument, as far as the bytes around it
      // tell), or a class's base or metaclass.
      auto Blank = [](char C) {
        return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\\';
      };
      size_t Next = At;
      while (Next < L.size() && Blank(L[Next]))
        ++Next;
      bool Called = Next < L.size() && L[Next] == '(';
      size_t Prev = B;
      while (Prev > 0 && Blank(L[Prev - 1]))
        --Prev;
      char Before = Prev > 0 ? L[Prev - 1] : 0;
      bool Argument = Next < L.size() && (L[Next] == ',' || L[Next] == ')') &&
                      (Before == '(' || Before == ',' ||
                       (Before == '=' && Prev > 1 && !llvm::is_contained("=!<>", L[Prev - 2])));
      if (!Called && !Argument && Ls[I].K != Key::Class)
        continue;
      llvm::StringRef Name = L.slice(B, At);
      std::optional<std::pair<int32_t, int32_t>> Def;
      if (Called && L.take_front(B).endswith("self.")) {
        Def = methodOf(I, Name);
      } else if (auto D = ModuleDefs.find(Name); D != ModuleDefs.end()) {
        Def = D->second;
      }
      if (!Def)
        continue;
      Named = true;
      if (QueuedDefs.insert(Def->first).second)
        DefQueue.push_back(*Def);
    }
    return Named;
  }

  /// `if NAME:` at line I: the statements before it in its block that assign
  /// NAME (Review.cpp, underCudaCheck(): `match = re.match(r"cuda:(\d+)",
  /// key)` then `if match:`).
  void keepConditionAssignments(int32_t I) {
    if (Ls[I].K != Key::If)
      return;
    auto Toks = tokensOf(T, Ls[I].Begin, Ls[I].End);
    if (Toks.size() != 3 || Toks[1].Kind != 'i' || Toks[2].Kind != ':')
      return;
    std::vector<Assigned> A;
    for (int32_t J = S.Prev[I]; J >= 0; J = S.Prev[J]) {
      if (Ls[J].K != Key::Other)
        continue;
      A.clear();
      assignedNames(T, Ls[J], A);
      if (llvm::any_of(A, [&](const Assigned &X) { return !X.OfSelf && X.Name == Toks[1].Text; }))
        Keep[J] = true;
    }
  }

  /// The method Name of the class around line I (its first line and the
  /// last of its block), if it defines one.
  std::optional<std::pair<int32_t, int32_t>> methodOf(int32_t I, llvm::StringRef Name) {
    int32_t C = S.Parent[I];
    while (C >= 0 && Ls[C].K != Key::Class)
      C = S.Parent[C];
    if (C < 0)
      return std::nullopt;
    auto [It, New] = Methods.try_emplace(C);
    if (New)
      for (int32_t J = C + 1; J <= S.BlockEnd[C]; ++J)
        if (S.Parent[J] == C && Ls[J].K == Key::Def && Ls[J].Header)
          It->second[T.slice(Ls[J].NameBegin, Ls[J].NameEnd)] = {S.Start[J], S.BlockEnd[J]};
    auto M = It->second.find(Name);
    if (M == It->second.end())
      return std::nullopt;
    return M->second;
  }

  /// Whether line I, at module level or in a block of a module-level
  /// statement, starts with a module constant's name (Review.cpp,
  /// exportedDecided(): `TEST_DEVICES.append(...)`, `DEVICE = ...`).
  bool startsWithConstant(int32_t I) const {
    int32_t P = S.Parent[I];
    if (P >= 0 && S.Parent[P] >= 0)
      return false;
    return exportedName(
        T.slice(Ls[I].Begin, Ls[I].End).take_while([](char C) { return identChar(C); }));
  }

  void keepGuardedLines(int32_t From, int32_t To) {
    for (int32_t I = From; I <= To; ++I) {
      if (!DefsRead[I]) {
        DefsRead[I] = true;
        if (namesModuleDefinition(I) || startsWithConstant(I))
          Keep[I] = true; // a name that the review follows or reads
      }
      if (Keep[I] || Unguarded[I])
        continue;
      // A test method (with its decorators, the skeleton's): whether all the
      // tests of a class skip on a Mac (Review.cpp, underMacSkip()).
      if (Ls[I].K == Key::Def && Ls[I].Header && S.Parent[I] >= 0 &&
          Ls[S.Parent[I]].K == Key::Class &&
          T.slice(Ls[I].NameBegin, Ls[I].NameEnd).startswith("test")) {
        Keep[I] = true;
        continue;
      }
      // A line is read once: the code after each early exit at module level
      // runs to the end of the file.
      if (mentionsGuardedWord(T.slice(Ls[I].Begin, Ls[I].End)) || namesCudaLib(I) ||
          callsFromImported(I) || saysDeviceWord(I))
        Keep[I] = true;
      else
        Unguarded[I] = true;
    }
  }

  /// Whether line I says one of DeviceWords (a custom device expression's).
  bool saysDeviceWord(int32_t I) const {
    if (!DeviceWords || DeviceWords->empty())
      return false;
    llvm::StringRef L = T.slice(Ls[I].Begin, Ls[I].End);
    return llvm::any_of(*DeviceWords, [&](const std::string &W) { return L.contains(W); });
  }

  /// Whether line I calls one of FromImported (`convex_iou(boxes, polygons)`).
  bool callsFromImported(int32_t I) const {
    if (FromImported.empty())
      return false;
    auto Toks = tokensOf(T, Ls[I].Begin, Ls[I].End);
    for (size_t K = 0; K + 1 < Toks.size(); ++K)
      if (Toks[K].Kind == 'i' && T[Toks[K + 1].Begin] == '(' &&
          (K == 0 || Toks[K - 1].Kind != '.') && FromImported.count(Toks[K].Text))
        return true;
    return false;
  }

  /// Whether line I names one of CudaLibNames.
  bool namesCudaLib(int32_t I) const {
    if (CudaLibNames.empty())
      return false;
    for (const Tok &X : tokensOf(T, Ls[I].Begin, Ls[I].End))
      if (X.Kind == 'i' && CudaLibNames.count(X.Text))
        return true;
    return false;
  }

  /// Keeps the clauses of the statement at Start and the last statement of
  /// each clause's block: whether a block ends early (a `return`, a
  /// `skipTest`) decides what a guard guards (Review.cpp, exitsEarly).
  void keepLastStatements(int32_t Start) {
    for (int32_t C = Start; C >= 0; C = S.NextClause[C]) {
      Keep[C] = true;
      if (!Ls[C].Header)
        continue;
      int32_t L = S.BlockEnd[C];
      while (S.Parent[L] != C)
        L = S.Parent[L];
      Keep[L] = true; // a clause of the last statement keeps them all (the skeleton)
    }
  }

  /// Whether the block of a clause of the `if` statement at Start (its
  /// `if`, an `elif`, its `else`) may end early: what follows the statement
  /// is guarded too.
  bool exitsEarly(int32_t Start) const {
    for (int32_t C = Start; C >= 0; C = S.NextClause[C]) {
      const Line &H = Ls[C];
      if (H.K != Key::If && H.K != Key::Elif && H.K != Key::Else)
        continue;
      if (!H.Header) {
        if (endsBlock(T, H.Begin, H.End, true))
          return true;
        continue;
      }
      // The block's last statement: the child of H that holds its last line.
      int32_t L = S.BlockEnd[C];
      while (S.Parent[L] != C)
        L = S.Parent[L];
      if (!Ls[L].Header && S.Start[L] == L && S.NextClause[L] < 0 &&
          endsBlock(T, Ls[L].Begin, Ls[L].End, false))
        return true;
    }
    return false;
  }

  /// Where Def (a line, or -1) is the set-up of a class (`setUp`, ...:
  /// Review.cpp, runsAsTest()), keeps what the review reads of the class's
  /// code: a guard that ends the set-up early guards its tests.
  void keepClassOfSetUp(int32_t Def) {
    if (Def < 0 || Ls[Def].K != Key::Def || !setUpName(T.slice(Ls[Def].NameBegin, Ls[Def].NameEnd)))
      return;
    int32_t C = S.Parent[Def];
    if (C >= 0 && Ls[C].K == Key::Class)
      keepGuarded(C + 1, S.BlockEnd[C]);
  }

  /// The line holding offset A, or -1 (between lines, or in a comment).
  int32_t lineAt(uint32_t A) const {
    auto It = std::upper_bound(Ls.begin(), Ls.end(), A,
                               [](uint32_t X, const Line &L) { return X < L.Begin; });
    if (It == Ls.begin())
      return -1;
    --It;
    if (A >= It->End || (A >= It->NameBegin && A < It->NameEnd))
      return -1;
    auto C = std::upper_bound(Comments.begin(), Comments.end(), A,
                              [](uint32_t X, const ByteRange &R) { return X < R.Begin; });
    if (C != Comments.begin() && A < std::prev(C)->End)
      return -1;
    return static_cast<int32_t>(It - Ls.begin());
  }

  /// Marks the lines where a name of Wanted occurs as a whole word within
  /// one of its ranges (sorted, disjoint). A few names are searched for in
  /// their ranges; for more, only the union of the ranges is read, and a word
  /// is looked up only if a name has its first byte and length.
  void markAssignedUses(const llvm::StringMap<std::vector<ByteRange>> &Wanted) {
    if (Wanted.size() <= MaxNamesSearched) {
      // Each name searched for in its own ranges (memmem), a whole word:
      // what the pass over every identifier below finds.
      for (const auto &E : Wanted) {
        llvm::StringRef Name = E.getKey();
        for (const ByteRange &R : E.second) {
          llvm::StringRef In = T.take_front(R.End);
          for (size_t At = findWord(In, Name, R.Begin); At != llvm::StringRef::npos;
               At = findWord(In, Name, At + 1)) {
            size_t After = At + Name.size();
            if ((At == 0 || !identChar(T[At - 1])) && (After >= T.size() || !identChar(T[After])))
              markHit(static_cast<uint32_t>(At));
          }
        }
      }
      return;
    }
    std::vector<ByteRange> Union;
    uint64_t First[4] = {0, 0, 0, 0};
    size_t MinLen = SIZE_MAX, MaxLen = 0;
    for (const auto &E : Wanted) {
      llvm::append_range(Union, E.second);
      unsigned char C = E.getKey()[0];
      First[C >> 6] |= uint64_t(1) << (C & 63);
      MinLen = std::min(MinLen, E.getKey().size());
      MaxLen = std::max(MaxLen, E.getKey().size());
    }
    mergeRanges(Union);
    for (const ByteRange &U : Union) {
      // U starts at a line's end: no word runs across it.
      for (size_t At = U.Begin; At < U.End;) {
        unsigned char C = T[At];
        if (!identStart(C)) {
          ++At;
          continue;
        }
        size_t B = At;
        while (At < T.size() && identChar(T[At]))
          ++At;
        size_t Len = At - B;
        if (Len < MinLen || Len > MaxLen || !((First[C >> 6] >> (C & 63)) & 1) ||
            (B > 0 && llvm::isDigit(T[B - 1])))
          continue;
        auto It = Wanted.find(T.slice(B, At));
        if (It == Wanted.end())
          continue;
        const std::vector<ByteRange> &Rs = It->second;
        auto R = std::upper_bound(Rs.begin(), Rs.end(), B,
                                  [](size_t X, const ByteRange &R) { return X < R.Begin; });
        if (R != Rs.begin() && B < std::prev(R)->End)
          markHit(static_cast<uint32_t>(B));
      }
    }
  }

  /// Marks the line holding offset A; false if there is none.
  bool markHit(uint32_t A) {
    int32_t L = lineAt(A);
    if (L >= 0)
      Hit[L] = true;
    return L >= 0;
  }

  /// Marks the lines where a name of Names occurs as a whole word in code,
  /// and adds the offsets to Marks.
  void markUses(const llvm::StringSet<> &Names) {
    auto Use = [&](llvm::StringRef Name, size_t At) {
      size_t After = At + Name.size();
      if ((At > 0 && identChar(T[At - 1])) || (After < T.size() && identChar(T[After])))
        return;
      if (markHit(static_cast<uint32_t>(At)))
        Marks.push_back(static_cast<uint32_t>(At));
    };
    if (T.size() < (1u << 20) || Names.size() < 2) {
      // A search per name (memmem; no 256 KiB table to build).
      for (const auto &N : Names)
        for (size_t At = findWord(T, N.getKey()); At != llvm::StringRef::npos;
             At = findWord(T, N.getKey(), At + 1))
          Use(N.getKey(), At);
      return;
    }
    // One pass for all the names: a pass per name was quadratic in a large
    // file, whose imports bring more names.
    LiteralSet Set;
    for (const auto &N : Names)
      Set.add(N.getKey());
    Set.freeze();
    std::vector<LiteralSet::Occurrence> Found;
    Set.findAll(T, Found);
    for (const LiteralSet::Occurrence &O : Found)
      Use(Set.word(O.Word), O.Offset);
  }

  /// Keeps a statement whole (a pattern matches it whole): what it guards
  /// is kept, and so are the module's definitions that it names.
  void keepLines(int32_t From, int32_t To) {
    for (int32_t I = From; I <= To; ++I)
      Keep[I] = true;
    keepGuarded(From, To);
  }

  /// Where the physical line holding offset At starts, and where it ends
  /// (after its newline).
  ByteRange physicalLine(uint32_t At) const {
    size_t B = T.rfind('\n', At);
    size_t E = T.find('\n', At);
    return {B == llvm::StringRef::npos ? 0 : static_cast<uint32_t>(B + 1),
            E == llvm::StringRef::npos ? static_cast<uint32_t>(T.size())
                                       : static_cast<uint32_t>(E + 1)};
  }

  /// A table: a module-level statement `NAME[: T] = [...]` (or `(...)`,
  /// `{...}`) whose brackets end it, of many elements, most of which no
  /// rule can need (`op_db`, a list of 567 KB in PyTorch's tests, for a few
  /// hundred `device_type="cuda"` in it). Only its elements that hold a mark
  /// are parsed; each of the others becomes a `0` (a `0:0` in a dict) at its
  /// end, beside its comma, so that the container has the same elements, in
  /// the same order, as in the file, and the lines before it are blank.
  struct Table {
    int32_t Line;
    bool Dict;
    std::vector<ByteRange> Dropped; ///< The elements left out, their tokens only.
  };

  /// At least this many bytes make a statement worth the reading of its
  /// elements.
  static constexpr uint32_t MinTableBytes = 2048;

  /// The table of line I, if it is one that may be parsed in part, with
  /// the elements that hold none of SortedMarks to be left out.
  std::optional<Table> tableAt(int32_t I, const RegionRules &Rules,
                               llvm::ArrayRef<uint32_t> SortedMarks) const {
    const Line &L = Ls[I];
    if (!Rules.TablesSplit || L.End - L.Begin < MinTableBytes || L.K != Key::Other || L.Header ||
        L.StringFirst || S.Parent[I] >= 0 || S.Start[I] != I)
      return std::nullopt;
    // The target: a dotted name, maybe annotated (a forward reference is a
    // name: no string there), then `=`, the opening bracket and, as the
    // statement's last token, its closing one.
    auto Toks = tokensOf(T, L.Begin, L.End);
    size_t K = 0;
    if (Toks.empty() || Toks[0].Kind != 'i')
      return std::nullopt;
    while (K + 2 < Toks.size() && Toks[K + 1].Kind == '.' && Toks[K + 2].Kind == 'i')
      K += 2;
    ++K;
    if (K < Toks.size() && Toks[K].Kind == ':')
      for (++K; K < Toks.size() && !(Toks[K].Kind == '=' && Toks[K].Depth == 0); ++K)
        if (Toks[K].Kind == '"')
          return std::nullopt;
    if (K + 2 >= Toks.size() || Toks[K].Kind != '=' || Toks[K].Depth != 0)
      return std::nullopt;
    char Open = T[Toks[++K].Begin];
    if (Toks[K].Depth != 0 || (Open != '[' && Open != '(' && Open != '{') ||
        Toks.back().Depth != 0 || !llvm::StringRef(")]}").contains(T[Toks.back().Begin]))
      return std::nullopt;
    // The elements: what lies between the commas of depth 1. Each one's
    // first token, the end of its last, whether it has a `:` of its own (a
    // dict's pair) and whether it must stay.
    struct Element {
      uint32_t First = 0, End = 0;
      bool Colon = false, Stays = false;
    };
    std::vector<Element> Els(1);
    for (size_t J = K + 1; J + 1 < Toks.size(); ++J) {
      const Tok &X = Toks[J];
      if (X.Depth == 0)
        return std::nullopt; // the brackets close before the statement ends
      Element &E = Els.back();
      if (X.Depth == 1 && X.Kind == ',') {
        Els.emplace_back();
        continue;
      }
      if (X.Depth == 1 && X.Kind == 'i' && X.Text == "lambda")
        return std::nullopt; // its parameters' commas are of depth 1
      bool FirstToken = E.First == E.End;
      if (X.Kind == ':' && Toks[J + 1].Begin == X.End && T[X.End] == '=')
        E.Stays = true; // `:=` binds a name in the module
      else
        E.Colon |= X.Depth == 1 && X.Kind == ':';
      E.Stays |= FirstToken && T[X.Begin] == '*'; // `*x`, `**d`
      if (FirstToken)
        E.First = X.Begin;
      E.End = X.End;
    }
    if (Els.back().First == Els.back().End)
      Els.pop_back(); // after a trailing comma
    bool Dict = Open == '{' && llvm::any_of(Els, [](const Element &E) { return E.Colon; });
    llvm::StringRef Type = Open == '['   ? "list"
                           : Open == '(' ? "tuple"
                           : Dict        ? "dictionary"
                                         : "set";
    auto Arity = Rules.ContainerArity.find(Type);
    if (Els.size() < 2 || (Arity != Rules.ContainerArity.end() && Els.size() <= Arity->second))
      return std::nullopt; // a pattern may match the container itself
    Table Out{I, Dict, {}};
    uint64_t Left = 0;
    for (const Element &E : Els) {
      if (E.First == E.End || E.Stays || (Dict && !E.Colon))
        continue;
      auto M = std::lower_bound(SortedMarks.begin(), SortedMarks.end(), E.First);
      if (M != SortedMarks.end() && *M < E.End)
        continue;
      // Room for the placeholder at the element's end, on the line of the
      // comma after it.
      if (Dict && (E.End - E.First < 3 ||
                   T.slice(E.End - 3, E.End).find_first_of("\r\n#") != llvm::StringRef::npos))
        continue;
      Out.Dropped.push_back({E.First, E.End});
      Left += E.End - E.First;
    }
    if (Left * 4 < L.End - L.Begin)
      return std::nullopt; // not worth the ranges
    return Out;
  }

  /// A RegionText with no text: NothingToMatch, and the marks (the anchors
  /// in code and the names they bring, sorted; the comments).
  RegionText marked() const {
    RegionText R;
    R.NothingToMatch = NothingToMatch;
    std::vector<uint32_t> &Offsets = R.Marks.Offsets;
    Offsets = Marks;
    llvm::sort(Offsets);
    Offsets.erase(std::unique(Offsets.begin(), Offsets.end()), Offsets.end());
    R.Marks.Comments = Comments;
    return R;
  }

  std::optional<RegionText> mask() const {
    size_t N = Ls.size();
    // A kept header whose block keeps nothing gets a `0` statement: the
    // first byte of the block's first line.
    std::vector<uint32_t> KeptBefore(N + 1, 0);
    for (size_t I = 0; I < N; ++I)
      KeptBefore[I + 1] = KeptBefore[I] + Keep[I];
    if (KeptBefore[N] == N && !NothingToMatch && Tables.empty())
      return std::nullopt; // nothing to leave out
    RegionText R = marked();
    std::string &Out = R.Text;
    Out = T.str();
    std::vector<uint32_t> Fillers;
    std::vector<ByteRange> &Ranges = R.Ranges;
    size_t C = 0, Tb = 0;
    // The code of [B, E) between its comments (which stay) becomes blanks,
    // its line ends kept; C is the first comment that may be there.
    auto Blank = [&](uint32_t B, uint32_t E0) {
      while (C < Comments.size() && Comments[C].End <= B)
        ++C;
      while (B < E0) {
        uint32_t E = E0;
        if (C < Comments.size() && Comments[C].Begin < E)
          E = std::max(B, Comments[C].Begin);
        for (char *P = &Out[B], *End = &Out[0] + E; P != End; ++P)
          *P = (*P == '\n' || *P == '\r') ? *P : ' ';
        if (E == E0)
          break;
        B = Comments[C++].End; // after the comment
      }
    };
    for (size_t I = 0; I < N; ++I) {
      const Line &L = Ls[I];
      if (Keep[I] && Tb < Tables.size() && Tables[Tb].Line == static_cast<int32_t>(I)) {
        // The elements left out become blanks and placeholders; the parser
        // reads the lines that still hold something.
        const Table &X = Tables[Tb++];
        for (const ByteRange &D : X.Dropped) {
          Blank(D.Begin, D.End);
          if (X.Dict)
            Out.replace(D.End - 3, 3, "0:0");
          else
            Out[D.End - 1] = '0';
        }
        ByteRange Run{0, 0};
        for (uint32_t B = physicalLine(L.Begin).Begin, End = physicalLine(L.End).End; B < End;) {
          size_t E = llvm::StringRef(Out).find('\n', B);
          E = E == llvm::StringRef::npos ? End : std::min<size_t>(E + 1, End);
          bool Empty = llvm::StringRef(Out).slice(B, E).find_first_not_of(" \t\f\r\n") ==
                       llvm::StringRef::npos;
          if (!Empty && Run.End == B)
            Run.End = static_cast<uint32_t>(E);
          else if (!Empty) {
            if (Run.End > Run.Begin)
              Ranges.push_back(Run);
            Run = {B, static_cast<uint32_t>(E)};
          }
          B = static_cast<uint32_t>(E);
        }
        if (Run.End > Run.Begin)
          Ranges.push_back(Run);
        continue;
      }
      if (Keep[I]) {
        if (L.Header && KeptBefore[S.BlockEnd[I] + 1] == KeptBefore[I + 1])
          Fillers.push_back(Ls[I + 1].Begin);
        Ranges.push_back({physicalLine(L.Begin).Begin, physicalLine(L.End).End});
        continue;
      }
      Blank(L.Begin, L.End);
    }
    for (uint32_t F : Fillers) {
      Out[F] = '0';
      Ranges.push_back(physicalLine(F));
    }
    // Comments outside kept lines where they count: among the module's first
    // statements (a new import goes after them), and directives (an unknown
    // rule id is reported). From their line's start: blanked code before one
    // indents it as in the file. Others are not parsed: one after the last
    // kept line of a block would join that block and stretch its range.
    for (const ByteRange &Cm : Comments)
      if (Cm.Begin < Head || T.slice(Cm.Begin, Cm.End).contains("devport:"))
        Ranges.push_back(physicalLine(Cm.Begin));
    mergeRanges(Ranges);
    // tree-sitter looks an offset up in its ranges one by one at every token:
    // only the largest gaps are worth leaving out (the others are read as
    // the blanks they are).
    if (Ranges.size() > MaxRanges) {
      std::vector<uint32_t> Gaps;
      for (size_t I = 1; I < Ranges.size(); ++I)
        Gaps.push_back(Ranges[I].Begin - Ranges[I - 1].End);
      std::nth_element(Gaps.begin(), Gaps.begin() + (MaxRanges - 1), Gaps.end(),
                       std::greater<uint32_t>());
      uint32_t MinGap = Gaps[MaxRanges - 1];
      size_t Left = MaxRanges - 1; // gaps of exactly MinGap that may still go
      for (uint32_t G : llvm::makeArrayRef(Gaps).take_front(MaxRanges - 1))
        Left -= G > MinGap;
      size_t W = 0;
      for (size_t I = 0; I < Ranges.size(); ++I) {
        uint32_t G = W > 0 ? Ranges[I].Begin - Ranges[W - 1].End : 0;
        bool Keep = W == 0 || G > MinGap || (G == MinGap && Left > 0 && Left--);
        if (Keep)
          Ranges[W++] = Ranges[I];
        else
          Ranges[W - 1].End = Ranges[I].End;
      }
      Ranges.resize(W);
    }
    return R;
  }

  llvm::StringRef T;
  std::vector<Line> Ls;
  std::vector<ByteRange> Comments;
  Structure S;
  const std::vector<std::string> *DeviceWords = nullptr; ///< run()'s Rules'.
  std::vector<bool> Keep, Hit, Skeleton;
  /// keepFloat64OfFunction(): the functions (by their line) read.
  std::vector<bool> Float64Read;
  std::vector<bool> Unguarded; ///< Read by keepGuarded(): nothing the review looks for.
  std::vector<Table> Tables;   ///< Kept statements parsed in part, by line.
  /// findModuleDefinitions(): by name, the first and last line of each.
  llvm::StringMap<std::pair<int32_t, int32_t>> ModuleDefs;
  /// methodOf(): by class line, each method's first and last line.
  llvm::DenseMap<int32_t, llvm::StringMap<std::pair<int32_t, int32_t>>> Methods;
  std::vector<bool> DefsRead;                        ///< Lines read for their names.
  llvm::DenseSet<int32_t> QueuedDefs;                ///< By first line.
  std::vector<std::pair<int32_t, int32_t>> DefQueue; ///< Definitions to keep guarded.
  /// Names that anchored statements saying `skip` assign: skip markers
  /// (`requires_gpu = pytest.mark.skipif(...)`), whose decorators guard.
  llvm::StringSet<> MarkerNames;
  /// Names that imports bind from a CUDA-only library (`from apex.normalization
  /// import FusedLayerNorm`): CUDA code where guarded code names them.
  llvm::StringSet<> CudaLibNames;
  /// The names that `from` imports bind from modules not torch's
  /// (fromImportNames()).
  llvm::StringSet<> FromImported;
  /// keepAfterPick(): whether the text says `gym`, once asked.
  std::optional<bool> SaysGym;
  /// counts(): whether the string Strings[StringOf] holds a doctest, and
  /// whether each word found in it counts there.
  size_t StringOf = SIZE_MAX;
  bool Doctest = false;
  llvm::SmallVector<std::pair<const WordUse *, bool>, 4> Answers;
  uint32_t Head = 0; ///< Where the module's first statements that are kept end.
  bool NothingToMatch = false;
  /// Offsets a match must hold one of: anchors and uses of imported names.
  std::vector<uint32_t> Marks;
};

} // namespace

std::string lastNameOfExpression(llvm::StringRef Expression) {
  llvm::StringRef E = Expression.trim();
  // Without its trailing calls and subscripts (`get_device()`, `devs[0]`).
  while (!E.empty() && (E.back() == ')' || E.back() == ']')) {
    char Close = E.back(), Open = Close == ')' ? '(' : '[';
    int Depth = 0;
    size_t I = E.size();
    while (I > 0) {
      char C = E[--I];
      Depth += C == Close ? 1 : C == Open ? -1 : 0;
      if (Depth == 0)
        break;
    }
    if (Depth != 0)
      return "";
    E = E.take_front(I).rtrim();
  }
  size_t B = E.size();
  while (B > 0 && identChar(static_cast<unsigned char>(E[B - 1])))
    --B;
  return E.drop_front(B).str();
}

bool WordUse::countsIn(llvm::StringRef Token) const {
  if (Any)
    return true;
  size_t Quote = Token.find_first_of("\"'");
  llvm::StringRef Prefix = Token.take_front(Quote);
  if (Prefix.find_first_of("fFtT") != llvm::StringRef::npos)
    return true;
  // A value as a pattern compares it (simpleStringValue): no `b` prefix, no
  // backslash, the text between the quotes.
  if (!Values.empty() && Prefix.find_first_of("bB") == llvm::StringRef::npos &&
      !Token.contains('\\')) {
    llvm::StringRef Body = Token.drop_front(Quote);
    size_t Q = Body.size() >= 6 && Body[1] == Body[0] && Body[2] == Body[0] ? 3 : 1;
    if (Body.size() >= 2 * Q && llvm::is_contained(Values, Body.drop_front(Q).drop_back(Q)))
      return true;
  }
  return llvm::any_of(Regexes, [&](const QuotedRegex &Q) {
    return llvm::all_of(Token,
                        [&](char C) { return Q.Chars.test(static_cast<unsigned char>(C)); }) &&
           Q.Re->match(Token);
  });
}

std::optional<RegionText> maskRegions(llvm::StringRef Text, llvm::ArrayRef<uint32_t> Anchors,
                                      const RegionRules &Rules, bool MarksOnly,
                                      llvm::ArrayRef<unsigned> Words) {
  std::vector<Line> Lines;
  std::vector<ByteRange> Comments;
  std::vector<AnchoredString> Strings;
  if (Rules.WordUses.empty())
    Words = {};
  assert((Words.empty() || Words.size() == Anchors.size()) && "a word for every anchor");
  if (!scanLines(Text, Lines, Comments, Anchors, Words.empty() ? nullptr : &Strings))
    return std::nullopt;
  Structure S;
  if (!buildStructure(Lines, S))
    return std::nullopt;
  return Masker(Text, std::move(Lines), std::move(Comments), std::move(S))
      .run(Anchors, Rules, MarksOnly, Words, Strings);
}

} // namespace devport::python
