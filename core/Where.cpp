//===--- Where.cpp - A rule set's `where` constraints, compiled -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Where.h"

#include "core/Metavariable.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <bitset>
#include <string>
#include <vector>

namespace devport {

std::string regexComplexityProblem(llvm::StringRef Re) {
  if (Re.size() > 1000)
    return "longer than 1000 bytes";
  // Sizes of the open groups; each ends with the size of its last atom so
  // that a quantifier can multiply it.
  struct Group {
    uint64_t Size = 0; ///< Of the atoms so far (alternatives add up).
    uint64_t Last = 0; ///< Of the last atom.
  };
  std::vector<Group> Stack(1);
  auto Add = [&](uint64_t N) {
    Stack.back().Size += N;
    Stack.back().Last = N;
  };
  auto Cap = [](uint64_t N) { return std::min<uint64_t>(N, uint64_t(1) << 40); };
  for (size_t I = 0; I < Re.size(); ++I) {
    char C = Re[I];
    if (C == '\\') {
      ++I;
      Add(1);
    } else if (C == '[') {
      I = bracketExpressionEnd(Re, I); // a bracket expression is one atom
      Add(1);
    } else if (C == '(') {
      Stack.emplace_back();
    } else if (C == ')') {
      if (Stack.size() > 1) {
        uint64_t N = Stack.back().Size;
        Stack.pop_back();
        Add(std::max<uint64_t>(N, 1));
      }
    } else if (C == '*' || C == '+' || C == '?') {
      Group &G = Stack.back();
      G.Size = Cap(G.Size + G.Last); // a copy at most
      G.Last *= 2;
    } else if (C == '{') {
      size_t E = Re.find('}', I);
      if (E == llvm::StringRef::npos) {
        Add(1);
        continue;
      }
      llvm::StringRef Body = Re.slice(I + 1, E);
      auto [Lo, Hi] = Body.split(',');
      uint64_t Count = 0, V;
      if (!Lo.trim().getAsInteger(10, V))
        Count = V;
      if (!Hi.trim().getAsInteger(10, V))
        Count = std::max(Count, V);
      Count = std::max<uint64_t>(Count, 1) + (Body.endswith(",") ? 1 : 0);
      Group &G = Stack.back();
      G.Size = Cap(G.Size - G.Last + Cap(G.Last * Count));
      G.Last = Cap(G.Last * Count);
      I = E;
    } else if (C == '|') {
      Stack.back().Last = 0;
    } else {
      Add(1);
    }
    if (Stack.back().Size > MaxRegexSize || Stack.back().Last > MaxRegexSize)
      return "its repetitions expand to more than " + std::to_string(MaxRegexSize) +
             " positions (nested counted repetition such as `(a{100}){100}`); simplify it";
  }
  return "";
}

namespace {

bool isRegexOperator(char C) { return llvm::StringRef(".[]()*+?{}|^$\\").contains(C); }

} // namespace

namespace {

/// The characters of the bracket expression at Re[I] (`[uU]`, `[0-9_.]`),
/// I moved past it: plain characters and ranges only (no negation, no
/// `[:class:]`; no backslash, which POSIX reads as itself there).
std::optional<std::string> bracketCharacters(llvm::StringRef Re, size_t &I) {
  size_t E = bracketExpressionEnd(Re, I);
  if (E >= Re.size())
    return std::nullopt;
  llvm::StringRef Body = Re.slice(I + 1, E);
  I = E + 1;
  if (Body.empty() || Body.front() == '^' || Body.contains('[') || Body.contains('\\'))
    return std::nullopt;
  std::string Chars;
  for (size_t K = 0; K < Body.size(); ++K) {
    if (K + 2 < Body.size() && Body[K + 1] == '-') {
      if (Body[K] > Body[K + 2])
        return std::nullopt;
      for (int C = Body[K]; C <= Body[K + 2]; ++C)
        Chars += static_cast<char>(C);
      K += 2;
      continue;
    }
    Chars += Body[K];
  }
  return Chars;
}

/// Reads a regex of a finite language (finiteLanguage()): each method
/// returns the strings of what it read, or nothing for what it cannot read.
class FiniteReader {
public:
  FiniteReader(llvm::StringRef Re, size_t Limit) : Re(Re), Limit(Limit) {}

  /// The whole of Re: one sequence (`^a|b$` is "starts with a or ends with
  /// b", not a set of words: alternatives only in a group).
  std::optional<std::vector<std::string>> whole() {
    auto Out = sequence();
    if (!Out || I != Re.size())
      return std::nullopt;
    llvm::sort(*Out);
    Out->erase(std::unique(Out->begin(), Out->end()), Out->end());
    return Out;
  }

private:
  using Strings = std::vector<std::string>;

  std::optional<Strings> alternatives() {
    Strings Out;
    for (;;) {
      std::optional<Strings> S = sequence();
      if (!S || Out.size() + S->size() > Limit)
        return std::nullopt;
      llvm::append_range(Out, *S);
      if (I >= Re.size() || Re[I] != '|')
        return Out;
      ++I;
    }
  }

  std::optional<Strings> sequence() {
    Strings Out{""};
    while (I < Re.size() && Re[I] != '|' && Re[I] != ')') {
      std::optional<Strings> A = atom();
      if (A)
        A = quantified(std::move(*A));
      if (!A || Out.size() * A->size() > Limit)
        return std::nullopt;
      Strings Next;
      for (const std::string &P : Out)
        for (const std::string &S : *A)
          Next.push_back(P + S);
      Out = std::move(Next);
    }
    return Out;
  }

  std::optional<Strings> atom() {
    char C = Re[I];
    if (C == '(') {
      ++I;
      std::optional<Strings> A = alternatives();
      if (!A || I >= Re.size() || Re[I] != ')')
        return std::nullopt;
      ++I;
      return A;
    }
    if (C == '[')
      return bracket();
    if (C == '\\') {
      if (I + 1 >= Re.size() || !isRegexOperator(Re[I + 1]))
        return std::nullopt; // `\d`, `\w`...: classes of their own
      I += 2;
      return Strings{std::string(1, Re[I - 1])};
    }
    if (isRegexOperator(C))
      return std::nullopt; // `.`, `*`, `+`, an anchor inside...
    ++I;
    return Strings{std::string(1, C)};
  }

  /// A's strings under the quantifier that follows, if any: `?`, or
  /// `{m}` / `{m,n}` up to 4 copies.
  std::optional<Strings> quantified(Strings A) {
    if (I >= Re.size())
      return A;
    unsigned Lo = 1, Hi = 1;
    if (Re[I] == '?') {
      Lo = 0;
      ++I;
    } else if (Re[I] == '{') {
      size_t E = Re.find('}', I);
      if (E == llvm::StringRef::npos)
        return std::nullopt;
      auto [L, H] = Re.slice(I + 1, E).split(',');
      bool Range = Re.slice(I + 1, E).contains(',');
      if (L.getAsInteger(10, Lo) || (Range ? H.getAsInteger(10, Hi) : (Hi = Lo, false)) ||
          Lo > Hi || Hi > 4)
        return std::nullopt;
      I = E + 1;
    } else if (Re[I] == '*' || Re[I] == '+') {
      return std::nullopt;
    } else {
      return A;
    }
    if (I < Re.size() && llvm::StringRef("?*+{").contains(Re[I]))
      return std::nullopt; // a quantifier of a quantifier
    Strings Out, Copies{""};
    for (unsigned K = 0; K <= Hi; ++K) {
      if (K >= Lo)
        llvm::append_range(Out, Copies);
      if (K == Hi)
        break;
      Strings Next;
      for (const std::string &P : Copies)
        for (const std::string &S : A)
          Next.push_back(P + S);
      if (Out.size() + Next.size() > Limit)
        return std::nullopt;
      Copies = std::move(Next);
    }
    return Out;
  }

  std::optional<Strings> bracket() {
    std::optional<std::string> Chars = bracketCharacters(Re, I);
    if (!Chars)
      return std::nullopt;
    Strings Out;
    for (char C : *Chars)
      Out.push_back(std::string(1, C));
    return Out;
  }

  llvm::StringRef Re;
  size_t Limit;
  size_t I = 0;
};

} // namespace

std::optional<std::vector<std::string>> finiteLanguage(llvm::StringRef Re, size_t Limit) {
  if (!Re.consume_front("^") || !Re.consume_back("$") || Re.endswith("\\"))
    return std::nullopt;
  return FiniteReader(Re, Limit).whole();
}

namespace {

/// Reads a regex into its top-level pieces for matchesOneQuotedString(): a
/// group without alternatives or a quantifier is read as its own pieces;
/// any other group is one piece of every character in it.
class PieceReader {
public:
  struct Piece {
    std::bitset<256> Chars; ///< What each character it matches may be.
    bool MayBeEmpty = false;
  };

  explicit PieceReader(llvm::StringRef Re) : Re(Re) {}

  /// The pieces of the whole of Re, or nothing.
  std::optional<std::vector<Piece>> whole() {
    std::vector<Piece> Out;
    if (!sequence(Out) || I != Re.size())
      return std::nullopt;
    return Out;
  }

private:
  /// Pieces up to the end, a `)` or a `|`.
  bool sequence(std::vector<Piece> &Out) {
    while (I < Re.size() && Re[I] != '|' && Re[I] != ')') {
      if (Re[I] == '(') {
        ++I;
        std::vector<Piece> Inner;
        bool Alternatives = false;
        for (;;) {
          if (!sequence(Inner))
            return false;
          if (I >= Re.size())
            return false;
          if (Re[I] == ')')
            break;
          Alternatives = true; // a `|`
          ++I;
        }
        ++I; // `)`
        if (!Alternatives && !quantifierFollows()) {
          llvm::append_range(Out, Inner);
          continue;
        }
        Piece G;
        // Every character of the group's text, whatever its alternatives.
        for (const Piece &P : Inner)
          G.Chars |= P.Chars;
        G.MayBeEmpty = true; // an alternative may be empty; nothing relies on it
        if (!quantified(G))
          return false;
        Out.push_back(G);
        continue;
      }
      Piece P;
      if (!atom(P) || !quantified(P))
        return false;
      Out.push_back(P);
    }
    return true;
  }

  bool quantifierFollows() const {
    return I < Re.size() && llvm::StringRef("?*+{").contains(Re[I]);
  }

  bool atom(Piece &P) {
    char C = Re[I];
    if (C == '[') {
      std::optional<std::string> Chars = bracketCharacters(Re, I);
      if (!Chars)
        return false;
      for (char Ch : *Chars)
        P.Chars.set(static_cast<unsigned char>(Ch));
      return true;
    }
    if (C == '\\') {
      if (I + 1 >= Re.size() || !isRegexOperator(Re[I + 1]))
        return false; // `\s`, `\w`: classes
      P.Chars.set(static_cast<unsigned char>(Re[I + 1]));
      I += 2;
      return true;
    }
    if (isRegexOperator(C))
      return false; // `.`, `^` or `$` inside, a quantifier with nothing before
    P.Chars.set(static_cast<unsigned char>(C));
    ++I;
    return true;
  }

  /// P under the quantifier that follows, if any.
  bool quantified(Piece &P) {
    if (I >= Re.size())
      return true;
    char C = Re[I];
    if (C == '?' || C == '*') {
      P.MayBeEmpty = true;
      ++I;
    } else if (C == '+') {
      ++I;
    } else if (C == '{') {
      size_t E = Re.find('}', I);
      unsigned Lo = 0;
      if (E == llvm::StringRef::npos || Re.slice(I + 1, E).split(',').first.getAsInteger(10, Lo))
        return false;
      P.MayBeEmpty |= Lo == 0;
      I = E + 1;
    } else {
      return true;
    }
    return !quantifierFollows(); // a quantifier of a quantifier: not read
  }

  llvm::StringRef Re;
  size_t I = 0;
};

} // namespace

std::optional<std::bitset<256>> quotedStringCharacters(llvm::StringRef Re) {
  if (!Re.consume_front("^") || !Re.consume_back("$") || Re.endswith("\\"))
    return std::nullopt;
  std::optional<std::vector<PieceReader::Piece>> Pieces = PieceReader(Re).whole();
  if (!Pieces)
    return std::nullopt;
  std::bitset<256> Letters, Quotes;
  for (int C = 'a'; C <= 'z'; ++C)
    Letters.set(C).set(C - 'a' + 'A');
  Quotes.set('"').set('\'');
  auto Within = [](const std::bitset<256> &A, const std::bitset<256> &B) {
    return (A & ~B).none();
  };
  // The prefix: letters. The opening quotes: one piece of quotes alone that
  // cannot be empty; the closing quotes likewise, last. Between them no
  // piece may match a quote.
  size_t K = 0, N = Pieces->size();
  while (K < N && Within((*Pieces)[K].Chars, Letters))
    ++K;
  auto Quoting = [&](const PieceReader::Piece &P) {
    return !P.MayBeEmpty && P.Chars.any() && Within(P.Chars, Quotes);
  };
  if (N < 2 || K >= N - 1 || !Quoting((*Pieces)[K]) || !Quoting(Pieces->back()))
    return std::nullopt;
  for (size_t J = K + 1; J + 1 < N; ++J)
    if (((*Pieces)[J].Chars & Quotes).any())
      return std::nullopt;
  std::bitset<256> All;
  for (const PieceReader::Piece &P : *Pieces)
    All |= P.Chars;
  return All;
}

std::optional<std::string> caselessLiteral(llvm::StringRef Re) {
  std::string Out;
  bool Class = false;
  for (size_t I = 0; I < Re.size();) {
    char C = Re[I];
    if (C == '[' && I + 3 < Re.size() && Re[I + 3] == ']' && llvm::isAlpha(Re[I + 1]) &&
        Re[I + 1] != Re[I + 2] && llvm::toLower(Re[I + 1]) == llvm::toLower(Re[I + 2])) {
      Out += llvm::toLower(Re[I + 1]);
      Class = true;
      I += 4;
    } else if (C == '\\' && I + 1 < Re.size() && isRegexOperator(Re[I + 1])) {
      Out += Re[I + 1];
      I += 2;
    } else if (!isRegexOperator(C) && !llvm::isAlpha(C)) {
      Out += C; // a letter alone would match its own case only
      ++I;
    } else {
      return std::nullopt;
    }
  }
  if (!Class)
    return std::nullopt;
  return Out;
}

std::optional<std::vector<std::string>> alternativeLiterals(llvm::StringRef Re) {
  std::vector<std::string> Out;
  size_t Depth = 0, From = 0;
  bool Split = false;
  for (size_t I = 0; I <= Re.size(); ++I) {
    char C = I < Re.size() ? Re[I] : '|';
    if (C == '\\') {
      ++I;
    } else if (C == '[') {
      I = bracketExpressionEnd(Re, I);
    } else if (C == '(') {
      ++Depth;
    } else if (C == ')') {
      Depth -= Depth > 0;
    } else if (C == '|' && Depth == 0) {
      std::string Lit = requiredLiteral(Re.slice(From, I));
      if (Lit.empty())
        return std::nullopt;
      Out.push_back(std::move(Lit));
      Split |= I < Re.size();
      From = I + 1;
    }
  }
  // The last alternative not read (an open group or bracket, a trailing
  // backslash: a regex the loader refuses): no filter.
  if (!Split || From != Re.size() + 1)
    return std::nullopt;
  return Out;
}

std::vector<std::string> requiredAlternatives(llvm::StringRef Re) {
  if (std::optional<std::vector<std::string>> Whole = alternativeLiterals(Re))
    return std::move(*Whole);
  // The top level's groups, by where they open and close; a bar there means
  // alternatives of the whole, of which one requires no literal.
  std::vector<std::pair<size_t, size_t>> Groups;
  size_t Depth = 0, Open = 0;
  for (size_t I = 0; I < Re.size(); ++I) {
    char C = Re[I];
    if (C == '\\') {
      ++I;
    } else if (C == '[') {
      I = bracketExpressionEnd(Re, I);
    } else if (C == '(') {
      if (Depth++ == 0)
        Open = I;
    } else if (C == ')') {
      if (Depth == 0)
        return {};
      if (--Depth == 0)
        Groups.push_back({Open, I});
    } else if (C == '|' && Depth == 0) {
      return {};
    }
  }
  if (Depth != 0)
    return {};
  for (const auto &[B, E] : Groups) {
    char Q = E + 1 < Re.size() ? Re[E + 1] : '\0';
    if (Q == '?' || Q == '*' || Q == '{')
      continue; // optional, or `{0,...}`: erring on the safe side
    if (std::optional<std::vector<std::string>> Lits = alternativeLiterals(Re.slice(B + 1, E)))
      return std::move(*Lits);
  }
  return {};
}

WhereConstraints::Test WhereConstraints::compile(const std::string &Re, bool WantGroups) {
  Test T;
  T.Re = std::make_unique<MemoRegex>(Re);
  T.Needed = requiredLiteral(Re);
  if (std::optional<std::vector<std::string>> Lits = alternativeLiterals(Re)) {
    T.AnyOf = std::move(*Lits);
    // No operator but the bars: each alternative is a plain word (none is
    // empty: it would require no literal), so one of them found is a match.
    T.AnyOfAnswers =
        !WantGroups && llvm::none_of(Re, [](char C) { return C != '|' && isRegexOperator(C); });
  }
  if (!WantGroups) {
    if (std::optional<std::vector<std::string>> Words = finiteLanguage(Re, 256)) {
      T.Exact.emplace();
      for (const std::string &W : *Words)
        T.Exact->insert(W);
    }
    T.Caseless = caselessLiteral(Re);
    T.Plain = !Re.empty() && llvm::none_of(Re, isRegexOperator); // then Needed == Re
  }
  return T;
}

bool WhereConstraints::Test::matches(llvm::StringRef T,
                                     llvm::SmallVectorImpl<llvm::StringRef> *Groups) const {
  if (Exact)
    return Exact->contains(T);
  if (Caseless)
    return T.find_insensitive(*Caseless) != llvm::StringRef::npos;
  if (!Needed.empty() && !T.contains(Needed))
    return false;
  if (Plain)
    return true;
  if (!AnyOf.empty()) {
    bool Found = llvm::any_of(AnyOf, [&](const std::string &L) { return T.contains(L); });
    if (!Found || AnyOfAnswers)
      return Found;
  }
  return Re->match(T, Groups);
}

void WhereConstraints::add(const Rule &R, llvm::ArrayRef<std::string> Bound,
                           llvm::function_ref<void(const RuleLoc &, const std::string &)> Fail) {
  for (const auto &W : R.Where) {
    if (!llvm::is_contained(Bound, W.first)) {
      Fail(W.second.Loc, "`where` names $" + W.first + ", which no pattern binds");
      continue;
    }
    Constraint C;
    C.Captures = W.second.Captures;
    if (!W.second.Regex.empty())
      C.Must = compile(W.second.Regex, !C.Captures.empty());
    if (!W.second.NotRegex.empty())
      C.MustNot = compile(W.second.NotRegex, false);
    ByRule[R.Id][W.first] = std::move(C);
  }
}

const llvm::StringMap<WhereConstraints::Constraint> *WhereConstraints::of(const Rule &R) const {
  auto It = ByRule.find(R.Id);
  return It == ByRule.end() ? nullptr : &It->second;
}

bool WhereConstraints::hold(const Rule &R, llvm::SmallVectorImpl<BoundVar> &B,
                            llvm::StringRef Src) const {
  const llvm::StringMap<Constraint> *OfRule = of(R);
  return !OfRule || hold(*OfRule, B, Src);
}

bool WhereConstraints::hold(const llvm::StringMap<Constraint> &OfRule,
                            llvm::SmallVectorImpl<BoundVar> &B, llvm::StringRef Src) const {
  size_t Bound = B.size();
  for (size_t I = 0; I < Bound; ++I) {
    auto CIt = OfRule.find(B[I].Name);
    if (CIt == OfRule.end())
      continue;
    const Constraint &K = CIt->second;
    llvm::StringRef T = Src.slice(B[I].Range.Begin, B[I].Range.End);
    llvm::SmallVector<llvm::StringRef, 4> Groups;
    // Groups only when captures bind them: without, LLVM's engine skips
    // its slowest part.
    if (K.Must && !K.Must->matches(T, K.Captures.empty() ? nullptr : &Groups))
      return false;
    if (K.MustNot && K.MustNot->matches(T, nullptr))
      return false;
    for (size_t G = 0; G < K.Captures.size() && G + 1 < Groups.size(); ++G) {
      llvm::StringRef Sub = Groups[G + 1];
      uint32_t Begin =
          Sub.data() ? static_cast<uint32_t>(Sub.data() - Src.data()) : B[I].Range.Begin;
      B.push_back({K.Captures[G], {Begin, Begin + static_cast<uint32_t>(Sub.size())}});
    }
  }
  return true;
}

bool WhereConstraints::accepts(const Rule &R, llvm::StringRef Name, llvm::StringRef Text) const {
  const llvm::StringMap<Constraint> *OfRule = of(R);
  return !OfRule || accepts(*OfRule, Name, Text);
}

bool WhereConstraints::accepts(const llvm::StringMap<Constraint> &OfRule, llvm::StringRef Name,
                               llvm::StringRef Text) const {
  auto CIt = OfRule.find(Name);
  if (CIt == OfRule.end())
    return true;
  const Constraint &K = CIt->second;
  return (!K.Must || K.Must->matches(Text, nullptr)) &&
         !(K.MustNot && K.MustNot->matches(Text, nullptr));
}

} // namespace devport
