//===--- CppMatcher.cpp - Token patterns over C++ (the lexical backend) ---===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/CppMatcher.h"

#include "core/Metavariable.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Basic/TokenKinds.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

namespace devport::cpp {

namespace {

/// What keeps a statement in region lexing (CppMatcher::gaps()) besides
/// the patterns' words: a `devport:` directive, and a `using` or
/// `namespace`, which hold for the statements after them.
constexpr llvm::StringLiteral KeepMarkers[] = {"devport:", "using", "namespace"};

/// Whether W is a C++ keyword or a preprocessor directive's name (Clang's
/// tables): words of nearly every file, which region lexing does not look
/// for.
bool isCppKeyword(llvm::StringRef W) {
  static const llvm::StringSet<> Words = [] {
    llvm::StringSet<> S;
    for (unsigned K = 0; K < clang::tok::NUM_TOKENS; ++K)
      if (const char *Spelling =
              clang::tok::getKeywordSpelling(static_cast<clang::tok::TokenKind>(K)))
        S.insert(Spelling);
#define PPKEYWORD(X) S.insert(#X);
#include "clang/Basic/TokenKinds.def"
    return S;
  }();
  return Words.contains(W);
}

/// Adds to To the requirement of pattern P's words (and Extra) and groups,
/// each word through AddWord, its index in the set To is read with. With
/// WithoutKeywords, the C++ keywords and the groups that hold one are left
/// out, unless nothing else would be left: `if`, `case`, `return` and
/// `defined` are words of nearly every file, and the words beside them the
/// rare ones.
template <typename AddWordFn>
void addRequirement(const CppPattern &P, llvm::ArrayRef<std::string> Extra, bool WithoutKeywords,
                    AddWordFn AddWord, WordRequirements &To) {
  auto Keyword = [&](const std::string &W) { return WithoutKeywords && isCppKeyword(W); };
  auto Words = llvm::concat<const std::string>(P.Words, Extra);
  bool Left = !llvm::all_of(Words, Keyword) ||
              llvm::any_of(P.AnyOf, [&](const std::vector<std::string> &G) {
                return llvm::none_of(G, Keyword);
              });
  auto Asked = [&](const std::string &W) { return !Left || !Keyword(W); };
  std::vector<unsigned> AllOf;
  for (const std::string &W : Words)
    if (Asked(W))
      AllOf.push_back(AddWord(W));
  std::vector<std::vector<unsigned>> AnyOf;
  for (const std::vector<std::string> &G : P.AnyOf) {
    if (!llvm::all_of(G, Asked))
      continue;
    AnyOf.emplace_back();
    for (const std::string &W : G)
      AnyOf.back().push_back(AddWord(W));
  }
  To.add(AllOf, AnyOf);
}

using Comps = llvm::SmallVector<llvm::StringRef, 4>;

bool isVarName(llvm::StringRef S) { return S.startswith("$") && !S.startswith("$$$"); }
bool isEllipsisName(llvm::StringRef S) { return S.startswith("$$$"); }

/// A qualified name in the text: tokens [First, Last], its components.
struct Unit {
  size_t First = 0, Last = 0;
  bool Global = false;
  bool Member = false; ///< After `.` or `->`.
  Comps C;
};

bool isIdent(const LexedFile &F, size_t I) {
  return I < F.tokens().size() && F.tokens()[I].Kind == TokKind::Identifier;
}
/// Whether token I is the punctuator whose Token::Punct is Code (a byte,
/// PunctColonColon or PunctArrow).
bool isPunct(const LexedFile &F, size_t I, uint8_t Code) {
  return I < F.tokens().size() && F.tokens()[I].Punct == Code;
}

/// The name unit that starts at I (an identifier, or `::` and an identifier).
std::optional<Unit> unitAt(const LexedFile &F, size_t I, size_t Hi) {
  Unit U;
  U.First = I;
  size_t J = I;
  if (isPunct(F, J, PunctColonColon)) {
    if (!isIdent(F, J + 1) || J + 1 >= Hi)
      return std::nullopt;
    U.Global = true;
    ++J;
  }
  if (!isIdent(F, J) || J >= Hi)
    return std::nullopt;
  U.C.push_back(F.spelling(J));
  while (J + 2 < Hi && isPunct(F, J + 1, PunctColonColon) && isIdent(F, J + 2)) {
    J += 2;
    U.C.push_back(F.spelling(J));
  }
  U.Last = J;
  U.Member = I > 0 && (isPunct(F, I - 1, '.') || isPunct(F, I - 1, PunctArrow));
  return U;
}

/// The unit that ends at token I (walking back), within [Lo, ...).
std::optional<Unit> unitEndingAt(const LexedFile &F, size_t I, size_t Lo, size_t Hi) {
  if (I < Lo || !isIdent(F, I))
    return std::nullopt;
  size_t J = I;
  while (J >= Lo + 2 && isPunct(F, J - 1, PunctColonColon) && isIdent(F, J - 2))
    J -= 2;
  if (J >= Lo + 1 && isPunct(F, J - 1, PunctColonColon))
    --J;
  return unitAt(F, J, Hi);
}

} // namespace

//===----------------------------------------------------------------------===//
// Compiling patterns
//===----------------------------------------------------------------------===//

namespace {

llvm::Expected<std::unique_ptr<CppPattern>> compilePattern(const Rule &R, llvm::StringRef Text) {
  auto Err = [&](const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Why.c_str());
  };
  auto P = std::make_unique<CppPattern>();
  P->R = &R;
  llvm::StringRef T = Text.trim();
  if (T.consume_front("@")) {
    if (!T.endswith("-file") || T.size() <= 5)
      return Err("a role pattern is `@<role>-file`, e.g. `@cuda-file`");
    P->Role = T.drop_back(5).str();
    return std::move(P);
  }
  LexedFile L(T);
  if (L.errors() || llvm::any_of(L.tokens(), [](const Token &K) { return K.Kind == TokKind::Unknown; }))
    return Err("pattern `" + Text.str() + "` does not lex as C++");
  if (!L.comments().empty())
    return Err("pattern `" + Text.str() + "` has a comment");
  const auto &Toks = L.tokens();
  P->Directive = !Toks.empty() && L.spelling(0) == "#";
  for (size_t I = 0; I < Toks.size();) {
    llvm::StringRef S = L.spelling(I);
    if (Toks[I].Kind == TokKind::Identifier && S.startswith("$") &&
        !isPunct(L, I + 1, PunctColonColon)) {
      if (!isVarName(S) && !isEllipsisName(S))
        return Err("bad metavariable '" + S.str() + "'");
      PatternElem E{isEllipsisName(S) ? PatternElem::Ellipsis : PatternElem::Var,
                    S.drop_front(isEllipsisName(S) ? 3 : 1).str(), {}, false, TokKind::Identifier};
      if (!isMetavarName(E.Text))
        return Err("bad metavariable '" + S.str() + "'");
      P->Elems.push_back(std::move(E));
      ++I;
      continue;
    }
    if (auto U = unitAt(L, I, Toks.size())) {
      PatternElem E{PatternElem::Name, "", {}, U->Global, TokKind::Identifier};
      for (size_t K = 0; K < U->C.size(); ++K) {
        llvm::StringRef C = U->C[K];
        if (C.startswith("$") && (K + 1 != U->C.size() || !isVarName(C) || K == 0))
          return Err("a metavariable in a qualified name must be its last component (`ns::$F`)");
        E.Comps.push_back(C.str());
      }
      P->Elems.push_back(std::move(E));
      I = U->Last + 1;
      continue;
    }
    P->Elems.push_back({PatternElem::Tok, S.str(), {}, false, Toks[I].Kind});
    ++I;
  }
  if (P->Elems.empty())
    return Err("empty pattern");
  // The anchor: the most specific element a match must contain.
  auto Score = [](const PatternElem &E) {
    if (E.K == PatternElem::Name) {
      size_t Lit = E.Comps.size() - (llvm::StringRef(E.Comps.back()).startswith("$") ? 1 : 0);
      return 10 + static_cast<int>(Lit);
    }
    if (E.K == PatternElem::Tok && (E.TK == TokKind::String || E.TK == TokKind::Char))
      return 5;
    if (E.K == PatternElem::Tok)
      return 1;
    return 0;
  };
  // Walking back from the anchor takes no `$$$`: the most specific element
  // before the first one, if there is one to anchor on
  // (`.kernel<$$$T>(c10::DispatchKey::$K)` anchors on `kernel`).
  size_t Before = P->Elems.size();
  for (size_t I = 0; I < P->Elems.size(); ++I)
    if (P->Elems[I].K == PatternElem::Ellipsis) {
      Before = I;
      break;
    }
  auto BestIn = [&](size_t End) {
    size_t B = 0;
    for (size_t I = 0; I < End; ++I)
      if (Score(P->Elems[I]) > Score(P->Elems[B]))
        B = I;
    return B;
  };
  size_t Best = BestIn(Before);
  if (Before == 0 || Score(P->Elems[Best]) == 0)
    Best = BestIn(P->Elems.size());
  if (Score(P->Elems[Best]) == 0)
    return Err("pattern `" + Text.str() + "` has nothing but metavariables");
  if (P->Directive) {
    // `#` NAME ...: anchored on the directive's name.
    if (P->Elems.size() < 2 || P->Elems[1].K != PatternElem::Name || P->Elems[1].Comps.size() != 1)
      return Err("a directive pattern starts with `#` and the directive's name");
    Best = 1;
    llvm::StringRef D = P->Elems[1].Comps[0];
    P->Branch = D == "if" || D == "ifdef" || D == "ifndef" || D == "elif";
  }
  P->Anchor = Best;
  // Elements before the anchor are matched walking back: only tokens, simple
  // names and single metavariables.
  for (size_t I = 0; I < Best; ++I) {
    const PatternElem &E = P->Elems[I];
    if (E.K == PatternElem::Ellipsis)
      return Err("`$$$` cannot come before the pattern's anchor (its most specific name)");
  }
  // Prefilter words: the last literal component of each name, the contents
  // of string literals.
  for (const PatternElem &E : P->Elems) {
    if (E.K == PatternElem::Name) {
      for (auto It = E.Comps.rbegin(); It != E.Comps.rend(); ++It)
        if (!llvm::StringRef(*It).startswith("$")) {
          if (!(P->Directive && &E == &P->Elems[1]))
            P->Words.push_back(*It);
          break;
        }
      // The first component may be left out (written where it is in scope,
      // or unresolved: MatchPass::matchName) or spelt another way (`at::`
      // for `c10::`); the others are in the file however it spells them.
      for (size_t K = 1; K + 1 < E.Comps.size(); ++K)
        P->LexicalWords.push_back(E.Comps[K]);
    } else if (E.K == PatternElem::Tok && E.TK == TokKind::String) {
      llvm::StringRef S(E.Text);
      S = S.drop_until([](char C) { return C == '"'; }).drop_front().drop_back();
      if (S.size() >= 3)
        P->Words.push_back(S.str());
      // The lexical engine compares a token's spelling whole: `"CUDA"`, not
      // the `CUDA` of `USE_CUDA`.
      P->LexicalWords.push_back(E.Text);
    }
  }
  return std::move(P);
}

} // namespace

llvm::Expected<std::unique_ptr<CppMatcher>> CppMatcher::compile(llvm::ArrayRef<const Rule *> Rules) {
  auto M = std::unique_ptr<CppMatcher>(new CppMatcher());
  std::vector<const CppPattern *> NeededPatterns;   // the non-role patterns
  std::vector<const CppPattern *> SpanningPatterns; // those of them that span statements
  std::string Errors;
  auto Fail = [&](const RuleLoc &L, const std::string &Why) {
    Errors += (Errors.empty() ? "" : "\n") + L.str() + ": " + Why;
  };
  for (const Rule *R : Rules) {
    std::vector<std::string> Bound;
    for (const RulePattern &RP : R->Patterns) {
      auto P = compilePattern(*R, RP.Text);
      if (!P) {
        Fail(RP.Loc, llvm::toString(P.takeError()));
        continue;
      }
      for (const PatternElem &E : (*P)->Elems) {
        if (E.K == PatternElem::Var || E.K == PatternElem::Ellipsis)
          Bound.push_back(E.Text);
        if (E.K == PatternElem::Name && llvm::StringRef(E.Comps.back()).startswith("$"))
          Bound.push_back(E.Comps.back().substr(1));
      }
      for (const auto &W : R->Where) {
        std::string Lit = requiredLiteral(W.second.Regex);
        bool Binds = llvm::any_of((*P)->Elems, [&](const PatternElem &E) {
          return (E.K == PatternElem::Var && E.Text == W.first) ||
                 (E.K == PatternElem::Name && E.Comps.back() == "$" + W.first);
        });
        if (!Binds)
          continue;
        if (Lit.size() >= 3) {
          (*P)->Words.push_back(Lit);
          continue;
        }
        std::optional<std::vector<std::string>> Alts = finiteLanguage(W.second.Regex, 256);
        if (Alts && llvm::all_of(*Alts, [](const std::string &A) { return A.size() >= 3; }))
          (*P)->AnyOf.push_back(std::move(*Alts));
      }
      // A directive pattern whose `where` names no literal waits for its
      // directive's name.
      if ((*P)->Directive && (*P)->Words.empty())
        (*P)->Words.push_back((*P)->Elems[1].Comps[0]);
      if ((*P)->Role.empty() && (*P)->Words.empty() && (*P)->AnyOf.empty()) {
        Fail(RP.Loc, "pattern `" + RP.Text +
                         "` has no literal for the prefilter (a name, a string of 3 or more "
                         "characters, or a `where` regex with such a literal)");
        continue;
      }
      CppPattern *Raw = P->get();
      if (!Raw->Role.empty()) {
        M->Roles.push_back(Raw);
      } else {
        // The prefilter asks for no keyword where the pattern has another
        // word or group (a file with those but no keyword is only read).
        auto AddLiteral = [&](llvm::StringRef W) { return M->Literals.add(W); };
        addRequirement(*Raw, {}, /*WithoutKeywords=*/true, AddLiteral, M->Needs);
        addRequirement(*Raw, Raw->LexicalWords, /*WithoutKeywords=*/true, AddLiteral,
                       M->LexicalNeeds);
        // A pattern that spells a brace or a `;` before its end matches
        // across statements (`TORCH_LIBRARY_IMPL(...) { $$$B }`), with words
        // outside some of them: where it may match, region lexing leaves
        // no statement out.
        bool Spans = false;
        for (size_t K = 0; K < Raw->Elems.size(); ++K) {
          const PatternElem &E = Raw->Elems[K];
          Spans |= E.K == PatternElem::Tok &&
                   (E.Text == "{" || E.Text == "}" || (E.Text == ";" && K + 1 < Raw->Elems.size()));
        }
        if (Spans)
          SpanningPatterns.push_back(Raw);
        NeededPatterns.push_back(Raw);
        const PatternElem &A = Raw->Elems[Raw->Anchor];
        if (A.K == PatternElem::Name) {
          // Dispatched by its last literal component.
          for (auto It = A.Comps.rbegin(); It != A.Comps.rend(); ++It)
            if (!llvm::StringRef(*It).startswith("$")) {
              M->ByName[*It].push_back(Raw);
              M->NameFilter.add(*It);
              break;
            }
        } else {
          M->ByTok[A.Text].push_back(Raw);
          M->TokFilter.add(A.Text);
        }
      }
      M->Patterns.push_back(std::move(*P));
    }
    M->Constraints.add(*R, Bound, Fail);
  }
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Errors.c_str());
  M->Directive = M->Literals.add("devport:");
  M->Literals.freeze();
  auto AddGapWord = [&](llvm::StringRef W, GapRole R) {
    unsigned I = M->GapWords.add(W);
    M->GapRoles.resize(M->GapWords.size(), 0);
    M->GapRoles[I] |= R;
    return I;
  };
  // A pattern's words and groups in GapWords.
  auto AddPattern = [&](const CppPattern &P, GapRole R, bool WithoutKeywords,
                        WordRequirements &To) {
    addRequirement(
        P, {}, WithoutKeywords, [&](llvm::StringRef W) { return AddGapWord(W, R); }, To);
  };
  for (const CppPattern *P : NeededPatterns)
    AddPattern(*P, CppMatcher::Needed, /*WithoutKeywords=*/true, M->GapNeeds);
  for (const CppPattern *P : SpanningPatterns)
    AddPattern(*P, CppMatcher::Spanning, /*WithoutKeywords=*/false, M->SpanningNeeds);
  for (llvm::StringRef W : KeepMarkers)
    AddGapWord(W, CppMatcher::Marker);
  M->GapWords.freeze();
  return std::move(M);
}

namespace {

/// The indices of Items (a skeleton's pairs or statement ends) by level:
/// level 0 holds those at the file's level, level K + 1 those inside pair K
/// (of Pairs pairs), each level's in the order of Items; Start[L] is where
/// level L's begin, Start[L + 1] where they end.
template <typename T>
std::vector<uint32_t> byLevel(const std::vector<T> &Items, size_t Pairs,
                              std::vector<uint32_t> &Start) {
  auto LevelOf = [](const T &X) -> size_t {
    return X.Parent == Skeleton::NoParent ? 0 : size_t(X.Parent) + 1;
  };
  Start.assign(Pairs + 2, 0);
  for (const T &X : Items)
    ++Start[LevelOf(X) + 1];
  for (size_t L = 1; L < Start.size(); ++L)
    Start[L] += Start[L - 1];
  std::vector<uint32_t> Next(Start.begin(), Start.end() - 1);
  std::vector<uint32_t> Out(Items.size());
  for (size_t I = 0; I < Items.size(); ++I)
    Out[Next[LevelOf(Items[I])]++] = static_cast<uint32_t>(I);
  return Out;
}

} // namespace

std::vector<ByteRange> CppMatcher::gaps(llvm::StringRef Text,
                                        std::vector<ByteRange> &GapComments) const {
  // Not worth a lexer's restart below this many bytes.
  const uint32_t MinGap = 24;
  std::vector<ByteRange> Out;
  // Where the patterns' words are, and where a statement holds a keep
  // marker.
  std::vector<LiteralSet::Occurrence> Words;
  std::vector<uint32_t> Markers;
  {
    std::vector<LiteralSet::Occurrence> All;
    GapWords.findAll(Text, All);
    std::vector<unsigned> SpanningWords;
    for (const LiteralSet::Occurrence &O : All) {
      uint8_t R = GapRoles[O.Word];
      if (R & Needed)
        Words.push_back(O);
      if (R & Marker)
        Markers.push_back(O.Offset);
      if ((R & Spanning) && !llvm::is_contained(SpanningWords, O.Word))
        SpanningWords.push_back(O.Word);
    }
    // A pattern that spans statements may match: no statement left out.
    if (SpanningNeeds.metBy(SpanningWords))
      return Out;
  }
  Skeleton S = scanSkeleton(Text);
  // What a statement left out must not hold: a directive line, a `devport:`
  // directive (its comment is not read for one), a `using` or `namespace`
  // (what it declares holds for the statements after it).
  std::vector<uint32_t> Unsure;
  Unsure.reserve(S.Directives.size() + Markers.size());
  auto DirectiveStarts = llvm::map_range(S.Directives, [](ByteRange D) { return D.Begin; });
  std::merge(DirectiveStarts.begin(), DirectiveStarts.end(), Markers.begin(), Markers.end(),
             std::back_inserter(Unsure));
  // Each level's statement ends and brace pairs, by level (level 0 is the
  // file, level K + 1 the inside of pair K), in text order.
  std::vector<uint32_t> EndsAt, PairsAt;
  std::vector<uint32_t> Ends = byLevel(S.Boundaries, S.Pairs.size(), EndsAt);
  std::vector<uint32_t> Pairs = byLevel(S.Pairs, S.Pairs.size(), PairsAt);
  // A statement may be left out where no pattern can match in it: every
  // match lies in one statement (the patterns that spell a brace or a `;`
  // are SpanningNeeds), and holds each of its pattern's Words (and a word of
  // each AnyOf group), of which GapNeeds asks those that are not keywords.
  std::vector<unsigned> Inside;
  auto Hot = [&](uint32_t Begin, uint32_t End) {
    auto U = llvm::lower_bound(Unsure, Begin);
    if (U != Unsure.end() && *U < End)
      return true;
    Inside.clear();
    auto It = llvm::partition_point(
        Words, [&](const LiteralSet::Occurrence &O) { return O.Offset < Begin; });
    for (; It != Words.end() && It->Offset < End; ++It)
      if (!llvm::is_contained(Inside, It->Word))
        Inside.push_back(It->Word);
    return GapNeeds.metBy(Inside);
  };
  // Whether the statement at At goes on the one before it: an `else` (an
  // if's arms are read as one by the review: Reviewer::ladder), after
  // blanks, comments and directive lines.
  auto Continues = [&](uint32_t At) {
    // The comment or directive line that starts at At, if one does.
    auto StartingAt = [&](const std::vector<ByteRange> &Rs) -> const ByteRange * {
      auto It = llvm::partition_point(Rs, [&](ByteRange R) { return R.Begin < At; });
      return It != Rs.end() && It->Begin == At ? &*It : nullptr;
    };
    while (At < Text.size()) {
      char Ch = Text[At];
      const ByteRange *Skip = nullptr;
      if (clang::isWhitespace(Ch))
        ++At;
      else if (Ch == '/' && (Skip = StartingAt(S.Comments)))
        At = Skip->End;
      else if ((Ch == '#' || Ch == '%') && (Skip = StartingAt(S.Directives)))
        At = Skip->End;
      else
        return Text.substr(At).startswith("else") &&
               (At + 4 == Text.size() || !clang::isAsciiIdentifierContinue(Text[At + 4]));
    }
    return false;
  };
  struct Level {
    uint32_t Id, Begin, End; ///< Its level and what is inside.
  };
  std::vector<Level> Todo{{0, 0, S.Read}};
  while (!Todo.empty()) {
    Level L = Todo.back();
    Todo.pop_back();
    uint32_t NextPair = PairsAt[L.Id];
    uint32_t Run = L.Begin; // where the statements not yet kept begin
    auto Keep = [&](uint32_t Begin, uint32_t End) {
      // The statements before it go out, if they are worth it; the brace
      // pairs in it (that the scan saw closed) are levels of their own.
      if (Begin - Run >= MinGap)
        Out.push_back({Run, Begin});
      for (; NextPair < PairsAt[L.Id + 1] && S.Pairs[Pairs[NextPair]].Open < End; ++NextPair) {
        const Skeleton::Pair &P = S.Pairs[Pairs[NextPair]];
        if (P.Open >= Begin && P.Close != Skeleton::Unclosed)
          Todo.push_back({Pairs[NextPair] + 1, P.Open + 1, P.Close});
      }
      Run = End;
    };
    uint32_t Begin = L.Begin;
    for (uint32_t B = EndsAt[L.Id]; B < EndsAt[L.Id + 1]; ++B) {
      uint32_t End = S.Boundaries[Ends[B]].At + 1;
      if (End < L.End && Continues(End))
        continue;
      if (Hot(Begin, End))
        Keep(Begin, End);
      Begin = End;
    }
    // What follows the last end: up to the `}` of a pair; the rest of the
    // file (or what the scan did not read) is kept.
    if (L.Id == 0 || Hot(Begin, L.End))
      Keep(Begin, L.End);
    else if (L.End - Run >= MinGap)
      Out.push_back({Run, L.End});
  }
  // The first token after a gap starts a line where a line ends in the
  // blanks before it (LexedFile); Clang's raw lexer takes no byte that is
  // not ASCII for a blank (a no-break space is a token), so none hides
  // between them.
  llvm::sort(Out, [](ByteRange A, ByteRange B) { return A.Begin < B.Begin; });
  auto C = S.Comments.begin();
  for (ByteRange G : Out) {
    while (C != S.Comments.end() && C->Begin < G.Begin)
      ++C;
    for (; C != S.Comments.end() && C->End <= G.End; ++C)
      GapComments.push_back(*C);
  }
  return Out;
}

bool CppMatcher::mayMatch(llvm::StringRef Text, bool Lexical,
                          std::optional<bool> *MentionsDevport) const {
  // The scan stops at the first pattern whose words are all there.
  const WordRequirements &R = Lexical ? LexicalNeeds : Needs;
  if (MentionsDevport ? R.met(Literals, Text, Directive, *MentionsDevport) : R.met(Literals, Text))
    return true;
  // Only role patterns (a keep-only selection): they need the path.
  return Roles.size() == Patterns.size() && !Roles.empty();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

using NameList = std::vector<std::string>;

struct Scope {
  enum Kind : uint8_t { File, Namespace, Class, Function, Block, Init } K = File;
  bool InFunction = false;
  NameList Ns;                        ///< The enclosing namespace path.
  std::vector<NameList> UsingNs;      ///< `using namespace X;`
  std::vector<NameList> UsingDecls;   ///< `using X::y;`
  std::vector<std::pair<std::string, NameList>> Aliases; ///< `namespace a = b::c;`
};

} // namespace

class MatchPass {
public:
  MatchPass(const CppMatcher &M, const LexedFile &F) : M(M), F(F), Toks(F.tokens()) {
    computeSegments();
    computePartners();
  }

  std::vector<Match> run(llvm::ArrayRef<std::string> Roles, const std::vector<const Rule *> *Only,
                         llvm::ArrayRef<uint32_t> ContextsAt,
                         std::vector<std::shared_ptr<CppContext>> *Contexts);

private:
  const CppMatcher &M;
  const LexedFile &F;
  const std::vector<Token> &Toks;
  std::vector<uint32_t> SegLo, SegHi;  ///< Per token: its segment (a directive line, or code).
  std::vector<uint32_t> Partner;       ///< Per bracket token: its partner (or itself).
  std::vector<Scope> Stack{Scope{}};
  std::vector<std::vector<Scope>> PPSaved;
  std::vector<Match> Out;

  // Matching state.
  const CppPattern *P = nullptr;
  llvm::SmallVector<BoundVar, 4> Bindings;
  bool Unresolved = false;
  size_t MatchEnd = 0;   ///< One past the last token.
  size_t MatchBegin = 0; ///< The first token, when elements precede the anchor.
  bool FindingsWanted = true; ///< False in a CUDA-role file without its keep entry.

  void computeSegments();
  void computePartners();
  void step(size_t I);
  void openBrace(size_t I);
  void directive(size_t I);
  void declaration(size_t I);
  void tryAt(size_t I, const Unit *U, const std::vector<const Rule *> *Only);
  bool tryPattern(const CppPattern &Pat, size_t I, const Unit *U);
  bool matchName(const PatternElem &E, const Unit &U);
  bool inScope(llvm::ArrayRef<std::string> Missing, llvm::ArrayRef<std::string> Full,
               const Comps &Source);
  bool fwd(size_t E, size_t T, size_t Hi);
  bool back(size_t E, size_t T, size_t Lo);
  size_t postfixFwd(size_t T, size_t Hi);
  size_t postfixBack(size_t T, size_t Lo);
  size_t item(size_t T) { return isOpen(T) ? Partner[T] + 1 : T + 1; }
  // T may be one past the last token (a pattern that wants more than the file has).
  bool isOpen(size_t T) const {
    if (T >= Toks.size())
      return false;
    uint8_t P = Toks[T].Punct;
    return (P == '(' || P == '[' || P == '{') && Partner[T] != T;
  }
  /// Whether a component of the qualified name from identifier I on may
  /// be a ByName key (M.NameFilter).
  bool mayNameAnchor(size_t I) const {
    size_t Hi = SegHi[I];
    for (size_t J = I;; J += 2) {
      if (M.NameFilter.mayContain(F.spelling(J)))
        return true;
      if (!(J + 2 < Hi && isPunct(F, J + 1, PunctColonColon) && isIdent(F, J + 2)))
        return false;
    }
  }
  bool isClose(size_t T) const {
    if (T >= Toks.size())
      return false;
    uint8_t P = Toks[T].Punct;
    return P == ')' || P == ']' || P == '}';
  }
  std::shared_ptr<CppContext> context(size_t First);
  void emit(size_t First);
};

void MatchPass::computeSegments() {
  size_t N = Toks.size();
  SegLo.assign(N, 0);
  SegHi.assign(N, static_cast<uint32_t>(N));
  size_t I = 0;
  while (I < N) {
    size_t J = I + 1;
    if (Toks[I].InDirective) {
      while (J < N && Toks[J].InDirective && !Toks[J].StartOfLine)
        ++J;
    } else {
      while (J < N && !Toks[J].InDirective)
        ++J;
    }
    for (size_t K = I; K < J; ++K) {
      SegLo[K] = static_cast<uint32_t>(I);
      SegHi[K] = static_cast<uint32_t>(J);
    }
    I = J;
  }
}

void MatchPass::computePartners() {
  Partner.resize(Toks.size());
  for (size_t I = 0; I < Toks.size(); ++I)
    Partner[I] = static_cast<uint32_t>(I);
  std::vector<size_t> Open;
  uint32_t Seg = ~0u;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (SegLo[I] != Seg && Toks[I].InDirective) {
      Open.clear(); // a directive line is its own world
      Seg = SegLo[I];
    }
    if (Toks[I].Kind != TokKind::Punct)
      continue;
    // A bracket's byte, without reading the text.
    uint8_t C = Toks[I].Punct;
    if (C == '(' || C == '[' || C == '{') {
      Open.push_back(I);
    } else if (C == ')' || C == ']' || C == '}') {
      uint8_t Want = C == ')' ? '(' : C == ']' ? '[' : '{';
      // Unwind to the matching opener (preprocessor branches may leave some open).
      for (size_t K = Open.size(); K-- > 0;)
        if (Toks[Open[K]].Punct == Want) {
          Partner[Open[K]] = static_cast<uint32_t>(I);
          Partner[I] = static_cast<uint32_t>(Open[K]);
          Open.resize(K);
          break;
        }
    }
    if (I + 1 < Toks.size() && Toks[I].InDirective && Toks[I + 1].StartOfLine)
      Open.clear();
  }
}

std::vector<Match> MatchPass::run(llvm::ArrayRef<std::string> Roles,
                                  const std::vector<const Rule *> *Only,
                                  llvm::ArrayRef<uint32_t> ContextsAt,
                                  std::vector<std::shared_ptr<CppContext>> *Contexts) {
  auto Allowed = [&](const Rule *R) { return !Only || llvm::is_contained(*Only, R); };
  bool RoleKept = false;
  for (const CppPattern *RP : M.Roles)
    if (llvm::is_contained(Roles, RP->Role) && Allowed(RP->R)) {
      Match X;
      X.R = RP->R;
      X.Range = {0, static_cast<uint32_t>(F.text().size())};
      X.Context = std::make_shared<CppContext>();
      Out.push_back(std::move(X));
      RoleKept = true;
    }
  // A file that is CUDA by design has no findings of generic rules; they are
  // matched only for the role's keep entry to list.
  FindingsWanted = Roles.empty() || RoleKept;
  // The contexts asked for, in token order: each is taken before its token
  // is stepped over, as if the match started there.
  std::vector<size_t> Order(ContextsAt.size());
  std::vector<size_t> At(ContextsAt.size());
  for (size_t K = 0; K < ContextsAt.size(); ++K) {
    Order[K] = K;
    At[K] = F.tokenAt(ContextsAt[K]);
  }
  llvm::sort(Order, [&](size_t A, size_t B) { return At[A] < At[B]; });
  if (Contexts)
    Contexts->assign(ContextsAt.size(), nullptr);
  size_t Next = 0;
  auto TakeContexts = [&](size_t I, size_t Tok) {
    for (; Next < Order.size() && At[Order[Next]] <= I; ++Next) {
      Unresolved = false;
      (*Contexts)[Order[Next]] = context(Tok);
    }
  };
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Contexts)
      TakeContexts(I, I);
    step(I);
    const Token &T = Toks[I];
    if (T.Kind == TokKind::Identifier || T.Punct == PunctColonColon) {
      bool Continues = I > 0 && isPunct(F, I - 1, PunctColonColon) && T.Kind == TokKind::Identifier;
      if (!Continues && T.Kind == TokKind::Identifier && !mayNameAnchor(I))
        continue; // its unit (there is one) has no anchor component
      if (!Continues)
        if (auto U = unitAt(F, I, SegHi[I])) {
          tryAt(I, &*U, Only);
          continue;
        }
    }
    if (T.Kind != TokKind::Identifier)
      tryAt(I, nullptr, Only);
  }
  // Past the last token: the context at its end.
  if (Contexts) {
    if (Toks.empty())
      for (auto &C : *Contexts)
        C = std::make_shared<CppContext>();
    else
      TakeContexts(Toks.size(), Toks.size() - 1);
  }
  std::stable_sort(Out.begin(), Out.end(), [](const Match &A, const Match &B) {
    return A.Range.Begin < B.Range.Begin;
  });
  return std::move(Out);
}

void MatchPass::tryAt(size_t I, const Unit *U, const std::vector<const Rule *> *Only) {
  // The name a using-declaration brings in is not a use of it.
  if (U && U->First > 0 && isIdent(F, U->First - 1) && F.spelling(U->First - 1) == "using")
    return;
  auto Try = [&](const CppPattern *Pat) {
    if (Only && !llvm::is_contained(*Only, Pat->R))
      return;
    if (!FindingsWanted && Pat->R->Kind == RuleKind::Finding)
      return;
    // Directive patterns only in directives; code patterns in code and in
    // `#define` bodies.
    bool InDir = Toks[I].InDirective;
    if (Pat->Directive != InDir) {
      if (Pat->Directive)
        return;
      size_t H = SegLo[I];
      if (!(H + 1 < Toks.size() && F.spelling(H + 1) == "define"))
        return;
    }
    if (tryPattern(*Pat, I, U))
      emit(I);
  };
  if (U) {
    llvm::SmallVector<const CppPattern *, 8> Seen;
    for (llvm::StringRef C : U->C) {
      if (!M.NameFilter.mayContain(C))
        continue;
      auto It = M.ByName.find(C);
      if (It == M.ByName.end())
        continue;
      for (const CppPattern *Pat : It->second)
        if (!llvm::is_contained(Seen, Pat)) {
          Seen.push_back(Pat);
          Try(Pat);
        }
    }
    return;
  }
  if (!M.TokFilter.mayContain(F.spelling(I)))
    return;
  auto It = M.ByTok.find(F.spelling(I));
  if (It != M.ByTok.end())
    for (const CppPattern *Pat : It->second)
      Try(Pat);
}

bool MatchPass::tryPattern(const CppPattern &Pat, size_t I, const Unit *U) {
  P = &Pat;
  Bindings.clear();
  Unresolved = false;
  const PatternElem &A = Pat.Elems[Pat.Anchor];
  size_t After;
  if (A.K == PatternElem::Name) {
    if (!U || !matchName(A, *U))
      return false;
    After = U->Last + 1;
  } else {
    if (Toks[I].Kind != A.TK || F.spelling(I) != A.Text)
      return false;
    After = I + 1;
  }
  size_t Lo = SegLo[I], Hi = SegHi[I];
  if (Pat.Anchor > 0 && !back(Pat.Anchor - 1, I, Lo))
    return false;
  if (!fwd(Pat.Anchor + 1, After, Hi))
    return false;
  return M.Constraints.hold(*Pat.R, Bindings, F.text());
}

bool MatchPass::matchName(const PatternElem &E, const Unit &U) {
  // Namespace aliases in scope (`namespace dt = c10;`).
  Comps S = U.C;
  if (!U.Global && S.size() > 1)
    for (auto Sc = Stack.rbegin(); Sc != Stack.rend(); ++Sc) {
      auto It = llvm::find_if(Sc->Aliases, [&](const auto &A) { return A.first == S.front(); });
      if (It != Sc->Aliases.end()) {
        Comps N(It->second.begin(), It->second.end());
        N.append(S.begin() + 1, S.end());
        S = N;
        break;
      }
    }
  const std::vector<std::string> &Pc = E.Comps;
  bool HasVar = llvm::StringRef(Pc.back()).startswith("$");
  size_t NLit = Pc.size() - (HasVar ? 1 : 0);
  // Single plain names (`is_cuda`, `TORCH_CHECK`) compare as text.
  if (Pc.size() == 1) {
    return S.size() == 1 && !U.Global && S[0] == Pc[0];
  }
  if (U.Member)
    return false;
  // X: the part of S that corresponds to the literal components.
  size_t XLen = S.size();
  if (HasVar) {
    size_t Pos = S.size();
    for (size_t K = S.size(); K-- > 0;)
      if (S[K] == Pc[NLit - 1]) {
        Pos = K;
        break;
      }
    if (Pos == S.size() || Pos + 1 == S.size())
      return false;
    XLen = Pos + 1;
  }
  if (XLen > NLit)
    return false;
  // c10's names are re-exported by at and torch (not their cuda namespaces).
  bool C10 = Pc[0] == "c10" && !(Pc.size() > 1 && Pc[1] == "cuda");
  auto Eq0 = [&](llvm::StringRef Src, llvm::StringRef Pat) {
    return Src == Pat || (C10 && Pat == "c10" && (Src == "at" || Src == "torch"));
  };
  size_t Skip = NLit - XLen; // pattern components the text leaves out
  for (size_t K = 0; K < XLen; ++K) {
    llvm::StringRef Pat = Pc[Skip + K];
    if (K == 0 && Skip == 0 ? !Eq0(S[K], Pat) : S[K] != Pat)
      return false;
  }
  if (Skip > 0) {
    if (U.Global)
      return false;
    llvm::ArrayRef<std::string> Missing(Pc.data(), Skip);
    if (!inScope(Missing, Pc, S)) {
      // Only the last missing component may be guessed, and not before a
      // namespace: `cuda::` is also libcu++'s, Thrust's and the JIT
      // fuser's (a lower-case first component is taken for one).
      if (Skip != 1 || (S.size() > 1 && !S[0].empty() && S[0][0] >= 'a' && S[0][0] <= 'z'))
        return false;
      Unresolved = true;
    }
  }
  if (HasVar) {
    const Token &B = Toks[U.First + (U.Global ? 1 : 0) + 2 * XLen];
    Bindings.push_back({Pc.back().substr(1), {B.Begin, Toks[U.Last].End}});
  }
  return true;
}

bool MatchPass::inScope(llvm::ArrayRef<std::string> Missing, llvm::ArrayRef<std::string> Full,
                        const Comps &Source) {
  bool C10 = Full[0] == "c10" && !(Full.size() > 1 && Full[1] == "cuda");
  auto SameNs = [&](const NameList &Src, llvm::ArrayRef<std::string> Pat, bool Prefix) {
    if (Prefix ? Src.size() < Pat.size() : Src.size() != Pat.size())
      return false;
    for (size_t K = 0; K < Pat.size(); ++K) {
      bool Eq = Src[K] == Pat[K] ||
                (K == 0 && C10 && Pat[K] == "c10" && (Src[K] == "at" || Src[K] == "torch"));
      if (!Eq)
        return false;
    }
    return true;
  };
  for (const Scope &Sc : Stack) {
    for (const NameList &U : Sc.UsingNs)
      if (SameNs(U, Missing, false))
        return true;
    if (Sc.K == Scope::Namespace && SameNs(Sc.Ns, Missing, true))
      return true;
    for (const NameList &D : Sc.UsingDecls) {
      // `using c10::kCUDA;` brings in Missing + the text's first component.
      if (D.size() != Missing.size() + 1 || D.back() != Source.front())
        continue;
      if (SameNs(NameList(D.begin(), D.end() - 1), Missing, false))
        return true;
    }
  }
  return false;
}

bool MatchPass::back(size_t E, size_t T, size_t Lo) {
  // T is one past the token to look at (the element before the anchor ends at T-1).
  size_t Cur = T; // exclusive
  for (size_t K = E + 1; K-- > 0;) {
    const PatternElem &El = P->Elems[K];
    if (Cur <= Lo)
      return false;
    size_t At = Cur - 1;
    switch (El.K) {
    case PatternElem::Tok: {
      llvm::StringRef S = F.spelling(At);
      bool Eq = S == El.Text || (El.Text == "." && S == "->");
      if (!Eq || Toks[At].Kind == TokKind::Unknown)
        return false;
      Cur = At;
      break;
    }
    case PatternElem::Name: {
      auto U = unitEndingAt(F, At, Lo, SegHi[At]);
      if (!U || !matchName(El, *U))
        return false;
      Cur = U->First;
      break;
    }
    case PatternElem::Var: {
      size_t First = postfixBack(At, Lo);
      if (First > At)
        return false;
      Bindings.push_back({El.Text, {Toks[First].Begin, Toks[At].End}});
      Cur = First;
      break;
    }
    case PatternElem::Ellipsis:
      return false;
    }
  }
  MatchBegin = Cur;
  return true;
}

size_t MatchPass::postfixBack(size_t T, size_t Lo) {
  // Returns the first token of the postfix expression ending at T, or T+1.
  size_t K = T;
  size_t First = T + 1;
  for (;;) {
    if (K < Lo || K == static_cast<size_t>(-1))
      break;
    llvm::StringRef S = F.spelling(K);
    if (isClose(K) && S != "}" && Partner[K] != K) {
      size_t Open = Partner[K];
      if (Open < Lo)
        break;
      First = Open;
      if (Open == 0)
        break;
      K = Open - 1;
      continue;
    }
    TokKind Kd = Toks[K].Kind;
    if (Kd == TokKind::Identifier || Kd == TokKind::Number || Kd == TokKind::String ||
        Kd == TokKind::Char) {
      First = K;
      if (K == 0 || K - 1 < Lo)
        break;
      llvm::StringRef Prev = F.spelling(K - 1);
      if (Toks[K - 1].Kind == TokKind::Punct && (Prev == "." || Prev == "->" || Prev == "::")) {
        if (K < 2 || K - 2 < Lo)
          break;
        K -= 2;
        continue;
      }
      break;
    }
    break;
  }
  return First;
}

size_t MatchPass::postfixFwd(size_t T, size_t Hi) {
  // Returns one past the postfix expression starting at T (T if none).
  size_t K = T;
  while (K < Hi && Toks[K].Kind == TokKind::Punct &&
         (F.spelling(K) == "!" || F.spelling(K) == "*" || F.spelling(K) == "&" ||
          F.spelling(K) == "-" || F.spelling(K) == "~"))
    ++K;
  if (K >= Hi)
    return T;
  TokKind Kd = Toks[K].Kind;
  if (isOpen(K) && F.spelling(K) == "(") {
    K = Partner[K] + 1;
  } else if (Kd == TokKind::Identifier || Kd == TokKind::Number || Kd == TokKind::String ||
             Kd == TokKind::Char || (Kd == TokKind::Punct && F.spelling(K) == "::")) {
    if (F.spelling(K) == "::")
      ++K;
    ++K;
  } else {
    return T;
  }
  while (K < Hi) {
    llvm::StringRef S = F.spelling(K);
    if (Toks[K].Kind == TokKind::Punct && (S == "." || S == "->" || S == "::") && K + 1 < Hi &&
        Toks[K + 1].Kind == TokKind::Identifier) {
      K += 2;
      continue;
    }
    if (isOpen(K) && (Toks[K].Punct == '(' || Toks[K].Punct == '[') && Partner[K] < Hi) {
      K = Partner[K] + 1;
      continue;
    }
    break;
  }
  return K > Hi ? Hi : K;
}

bool MatchPass::fwd(size_t E, size_t T, size_t Hi) {
  if (E == P->Elems.size()) {
    MatchEnd = T;
    return true;
  }
  const PatternElem &El = P->Elems[E];
  switch (El.K) {
  case PatternElem::Tok: {
    if (T >= Hi || Toks[T].Kind == TokKind::Unknown)
      return false;
    llvm::StringRef S = F.spelling(T);
    if (!(S == El.Text || (El.Text == "." && S == "->")))
      return false;
    return fwd(E + 1, T + 1, Hi);
  }
  case PatternElem::Name: {
    auto U = unitAt(F, T, Hi);
    if (!U)
      return false;
    size_t Mark = Bindings.size();
    if (!matchName(El, *U)) {
      Bindings.resize(Mark);
      return false;
    }
    if (fwd(E + 1, U->Last + 1, Hi))
      return true;
    Bindings.resize(Mark);
    return false;
  }
  case PatternElem::Var:
  case PatternElem::Ellipsis: {
    bool Many = El.K == PatternElem::Ellipsis;
    size_t Mark = Bindings.size();
    if (E + 1 == P->Elems.size()) {
      size_t End;
      if (Many) {
        End = T;
        while (End < Hi && !isClose(End) && F.spelling(End) != ";")
          End = item(End);
      } else {
        End = postfixFwd(T, Hi);
        if (End == T)
          return false;
      }
      uint32_t B = T < Toks.size() ? Toks[T].Begin : static_cast<uint32_t>(F.text().size());
      uint32_t En = End > T ? Toks[End - 1].End : B;
      Bindings.push_back({El.Text, {B, En}});
      MatchEnd = End;
      return true;
    }
    for (size_t End = Many ? T : item(T); End <= Hi;) {
      if (End > T) {
        // The last token taken may not end the argument list or statement.
        size_t LastTok = End - 1;
        if (isClose(LastTok) && Partner[LastTok] < T)
          break;
        if (!Many && (Toks[LastTok].Punct == ';' || Toks[LastTok].Punct == ','))
          break;
      }
      uint32_t B = T < Toks.size() ? Toks[T].Begin : static_cast<uint32_t>(F.text().size());
      uint32_t En = End > T ? Toks[End - 1].End : B;
      Bindings.push_back({El.Text, {B, En}});
      if (fwd(E + 1, End, Hi))
        return true;
      Bindings.resize(Mark);
      if (End >= Hi)
        break;
      End = item(End);
    }
    return false;
  }
  }
  return false;
}

std::shared_ptr<CppContext> MatchPass::context(size_t First) {
  auto C = std::make_shared<CppContext>();
  C->InFunction = Stack.back().InFunction;
  C->InTable = Stack.size() >= 2 && Stack.back().K == Scope::Init &&
               Stack[Stack.size() - 2].K == Scope::Init;
  C->InDirective = Toks[First].InDirective;
  C->Unresolved = Unresolved;
  // A default argument: `(..., T d = f(kCUDA)` where parameters are
  // declared (outside a function body): an `=` and then an unclosed `(`.
  if (!C->InFunction) {
    bool Assign = false;
    for (size_t K = First; K-- > SegLo[First];) {
      uint8_t P = Toks[K].Punct;
      if (P == ';' || P == '{' || P == '}')
        break;
      if ((P == ')' || P == ']') && Partner[K] != K) {
        K = Partner[K];
        continue;
      }
      if (P == '=')
        Assign = true;
      // An unclosed `(` before the `=` is a call in the default value.
      if (P == '(' && Assign) {
        C->InDefaultArgument = true;
        break;
      }
    }
  }
  // The statement around: constant-expression contexts.
  for (size_t K = First; K-- > SegLo[First];) {
    uint8_t P = Toks[K].Punct;
    if (P == ';' || P == '{' || P == '}')
      break;
    llvm::StringRef S = F.spelling(K);
    if (Toks[K].Kind == TokKind::Identifier &&
        (S == "constexpr" || S == "static_assert" || S == "case" || S == "template" ||
         S == "consteval" || S == "constinit"))
      C->InConstant = true;
  }
  return C;
}

void MatchPass::emit(size_t I) {
  size_t First = P->Anchor > 0 ? MatchBegin : I;
  Match X;
  X.R = P->R;
  uint32_t End = MatchEnd > First ? Toks[MatchEnd - 1].End : Toks[First].End;
  X.Range = {Toks[First].Begin, End};
  if (P->Branch) {
    // Conditionals are in order of their `#`.
    uint32_t H = SegLo[I];
    const auto &Cs = F.conditionals();
    auto It = llvm::partition_point(Cs, [&](const Conditional &C) { return C.Hash < H; });
    if (It != Cs.end() && It->Hash == H)
      X.Range = It->Branch;
  }
  // Two patterns of one rule may match the same text (`at::cuda::$F` and
  // `c10::cuda::$F`): one match.
  for (size_t K = Out.size(); K-- > 0 && Out[K].Range.Begin == X.Range.Begin;)
    if (Out[K].R == X.R && Out[K].Range == X.Range)
      return;
  X.Bindings.assign(Bindings.begin(), Bindings.end());
  X.Context = context(First);
  Out.push_back(std::move(X));
}

void MatchPass::step(size_t I) {
  const Token &T = Toks[I];
  if (T.InDirective) {
    if (T.Punct == '#' && T.StartOfLine)
      directive(I);
    return;
  }
  if (T.Kind == TokKind::Punct) {
    if (T.Punct == '{')
      openBrace(I);
    else if (T.Punct == '}' && Stack.size() > 1)
      Stack.pop_back();
    return;
  }
  if (T.Kind == TokKind::Identifier) {
    llvm::StringRef S = F.spelling(I);
    if (S == "using" || S == "namespace")
      declaration(I);
  }
}

void MatchPass::directive(size_t I) {
  if (I + 1 >= Toks.size() || !Toks[I + 1].InDirective || Toks[I + 1].StartOfLine)
    return;
  llvm::StringRef D = F.spelling(I + 1);
  if (D == "if" || D == "ifdef" || D == "ifndef") {
    PPSaved.push_back(Stack);
  } else if ((D == "elif" || D == "else") && !PPSaved.empty()) {
    Stack = PPSaved.back();
  } else if (D == "endif" && !PPSaved.empty()) {
    PPSaved.pop_back();
  }
}

void MatchPass::declaration(size_t I) {
  size_t Hi = SegHi[I];
  auto ReadName = [&](size_t J, NameList &Out) {
    if (isPunct(F, J, PunctColonColon))
      ++J;
    while (isIdent(F, J) && J < Hi) {
      Out.push_back(F.spelling(J).str());
      if (isPunct(F, J + 1, PunctColonColon) && isIdent(F, J + 2))
        J += 2;
      else
        return J + 1;
    }
    return J;
  };
  llvm::StringRef S = F.spelling(I);
  if (S == "using") {
    if (isIdent(F, I + 1) && F.spelling(I + 1) == "namespace") {
      NameList N;
      size_t J = ReadName(I + 2, N);
      if (!N.empty() && isPunct(F, J, ';'))
        Stack.back().UsingNs.push_back(std::move(N));
      return;
    }
    NameList N;
    size_t J = ReadName(I + 1, N);
    if (N.size() >= 2 && isPunct(F, J, ';'))
      Stack.back().UsingDecls.push_back(std::move(N));
    return;
  }
  // namespace a = b::c;
  if (isIdent(F, I + 1) && isPunct(F, I + 2, '=')) {
    NameList N;
    size_t J = ReadName(I + 3, N);
    if (!N.empty() && isPunct(F, J, ';'))
      Stack.back().Aliases.push_back({F.spelling(I + 1).str(), std::move(N)});
  }
}

void MatchPass::openBrace(size_t I) {
  Scope S;
  const Scope &Parent = Stack.back();
  S.Ns = Parent.Ns;
  // What opens it: scan back to the start of the declaration or statement.
  size_t K = I;
  bool SawParens = false, SawAssign = false, SawClass = false, SawNamespace = false;
  bool AssignFirst = false; // an `=` met before any `)`
  bool Extern = false;
  NameList NsNames;
  while (K-- > SegLo[I]) {
    if (Toks[K].InDirective)
      break;
    if (Toks[K].Kind == TokKind::Punct) {
      uint8_t P = Toks[K].Punct;
      if (P == ';' || P == '{' || P == '}')
        break;
      if (P == ')' && Partner[K] != K) {
        SawParens = true;
        K = Partner[K];
        continue;
      }
      if (P == '=' || P == '(' || P == ',')
        SawAssign = true;
      // `= {` whatever comes before (`std::array<T, size_t(N)> t = {`).
      if (P == '=' && !SawParens)
        AssignFirst = true;
      continue;
    }
    llvm::StringRef Sp = F.spelling(K);
    if (Toks[K].Kind == TokKind::String && K + 1 == I && K > 0 && F.spelling(K - 1) == "extern")
      Extern = true;
    if (Toks[K].Kind != TokKind::Identifier)
      continue;
    if (Sp == "namespace") {
      SawNamespace = true;
      for (size_t J = K + 1; J < I; ++J)
        if (Toks[J].Kind == TokKind::Identifier && F.spelling(J) != "inline")
          NsNames.push_back(F.spelling(J).str());
      break;
    }
    if (Sp == "class" || Sp == "struct" || Sp == "union" || Sp == "enum")
      SawClass = true;
  }
  if (SawNamespace || Extern) {
    S.K = Scope::Namespace;
    S.Ns.insert(S.Ns.end(), NsNames.begin(), NsNames.end());
    S.InFunction = false;
  } else if ((SawAssign && !SawParens) || AssignFirst) {
    S.K = Scope::Init;
    S.InFunction = Parent.InFunction;
  } else if (SawClass && !SawParens) {
    S.K = Scope::Class;
    S.InFunction = false;
  } else if (SawParens || (Parent.InFunction && Parent.K != Scope::Init)) {
    S.K = Parent.InFunction ? Scope::Block : Scope::Function;
    S.InFunction = true;
  } else {
    // `else {`, `try {`, `T x{...}` at namespace scope; `{{` in an
    // initializer is one too.
    S.K = Parent.K == Scope::Init ? Scope::Init : Scope::Block;
    S.InFunction = Parent.InFunction;
  }
  Stack.push_back(std::move(S));
}

std::vector<Match> CppMatcher::match(const LexedFile &F, llvm::ArrayRef<std::string> Roles,
                                     const std::vector<const Rule *> *Only,
                                     llvm::ArrayRef<uint32_t> ContextsAt,
                                     std::vector<std::shared_ptr<CppContext>> *Contexts) const {
  MatchPass Pass(*this, F);
  return Pass.run(Roles, Only, ContextsAt, Contexts);
}

} // namespace devport::cpp
