//===--- RuleSet.cpp - Loading and validating the rule database -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Parses rule files (rules/<language>/<id>.yaml) with LLVM's YAML node API
/// and validates them: every problem of a file is reported with the place of
/// the YAML node at fault, "file:line:col: reason", one per line. The format
/// is documented in docs/writing-rules.md and published as rules/schema.json;
/// RuleFileKeys below is the list of keys both must agree with.
///
//===----------------------------------------------------------------------===//

#include "core/Rule.h"

#include "core/Metavariable.h"
#include "core/SourceFile.h"
#include "core/Where.h"
#include "core/YamlReader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <algorithm>
#include <cassert>
#include <optional>

namespace devport {

std::string RuleLoc::str() const {
  if (Line == 0)
    return File;
  std::string Pos = std::to_string(Line) + ":" + std::to_string(Column);
  return File.empty() ? Pos : File + ":" + Pos;
}

const RuleFix *Rule::fixFor(TorchVersion Target) const {
  for (const RuleFix &F : Fixes)
    if (F.Since <= Target)
      return &F;
  return nullptr;
}

bool isReservedMetavariable(llvm::StringRef Name) {
  return Name == "DEVICE" || Name == "DEVICE_TYPE";
}

//===----------------------------------------------------------------------===//
// Metavariables (lexed by core/Metavariable.h)
//===----------------------------------------------------------------------===//

/// The offset of the first `$` in a pattern that does not start a valid
/// metavariable, or npos. Patterns have no literal `$`, and a name runs into
/// no lower-case letter (`$DEVx` is a typo, not `$DEV` then `x`).
static size_t badPatternDollar(llvm::StringRef Text) {
  for (const MetavarToken &T : lexMetavariables(Text)) {
    if (T.Kind != MetavarToken::Metavar)
      return T.Begin;
    if (T.End < Text.size() && llvm::isAlnum(Text[T.End]))
      return T.Begin;
  }
  return llvm::StringRef::npos;
}

/// The offset of the first lone `$` in a template (`$$` is a literal `$`), or npos.
static size_t badTemplateDollar(llvm::StringRef Text) {
  for (const MetavarToken &T : lexMetavariables(Text))
    if (T.Kind == MetavarToken::Invalid)
      return T.Begin;
  return llvm::StringRef::npos;
}

//===----------------------------------------------------------------------===//
// The rule file format
//===----------------------------------------------------------------------===//

/// ^[a-z][a-z0-9]*(-[a-z0-9]+)*$
static bool isKebab(llvm::StringRef S) {
  if (S.empty() || !(S.front() >= 'a' && S.front() <= 'z') || S.back() == '-')
    return false;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    bool Ok = (C >= 'a' && C <= 'z') || (C >= '0' && C <= '9') || C == '-';
    if (!Ok || (C == '-' && S[I + 1] == '-'))
      return false;
  }
  return true;
}

static const llvm::StringRef RuleKeys[] = {
    "id",  "kind",    "language", "category", "severity", "message", "description", "note",
    "url", "pattern", "any",      "where",    "focus",    "fix",     "examples", "matcher"};
static const llvm::StringRef FixKeys[] = {"since", "template", "applicability", "title", "note"};
static const llvm::StringRef WhereKeys[] = {"regex", "not-regex", "captures"};
static const llvm::StringRef ExampleKeys[] = {"before", "after"};

llvm::ArrayRef<llvm::StringRef> RuleFileKeys::rule() { return RuleKeys; }
llvm::ArrayRef<llvm::StringRef> RuleFileKeys::fix() { return FixKeys; }
llvm::ArrayRef<llvm::StringRef> RuleFileKeys::where() { return WhereKeys; }
llvm::ArrayRef<llvm::StringRef> RuleFileKeys::example() { return ExampleKeys; }

namespace {

/// "a string", "a list", ... for "expected X (found Y)".
const char *kindName(const llvm::yaml::Node *N) {
  if (!N)
    return "nothing";
  switch (N->getType()) {
  case llvm::yaml::Node::NK_Scalar:
  case llvm::yaml::Node::NK_BlockScalar:
    return "a string";
  case llvm::yaml::Node::NK_Sequence:
    return "a list";
  case llvm::yaml::Node::NK_Mapping:
  case llvm::yaml::Node::NK_KeyValue:
    return "a mapping";
  case llvm::yaml::Node::NK_Alias:
    return "an alias";
  case llvm::yaml::Node::NK_Null:
    return "nothing";
  }
  return "something else";
}

bool isUpperAscii(char C) { return C >= 'A' && C <= 'Z'; }

/// YAML's line folding of a `>` block scalar, given its text with the line
/// breaks kept (indentation removed, chomping done): a single break between
/// two lines becomes a space, each empty line a break; lines that start with
/// a blank ("more indented") keep their breaks.
std::string foldBlockScalar(llvm::StringRef Text) {
  size_t BodyEnd = Text.find_last_not_of('\n') + 1; // 0 when all breaks
  llvm::StringRef Body = Text.take_front(BodyEnd), Trail = Text.drop_front(BodyEnd);
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  Body.split(Lines, '\n');
  std::string Out;
  bool PrevText = false, PrevMore = false; // the last non-empty line
  unsigned Empty = 0;                      // empty lines since it
  for (llvm::StringRef L : Lines) {
    if (L.empty()) {
      ++Empty;
      continue;
    }
    bool More = L.front() == ' ' || L.front() == '\t';
    if (PrevText)
      Out += !Empty && !More && !PrevMore ? std::string(" ")
                                          : std::string(Empty + (More || PrevMore), '\n');
    else
      Out += std::string(Empty, '\n');
    Out += L.str();
    PrevText = true;
    PrevMore = More;
    Empty = 0;
  }
  Out += std::string(Empty, '\n'); // only when there was no text at all
  return Out + Trail.str();
}

/// The first YAML syntax error of Yaml as "file:line:col: yaml syntax error:
/// reason" (or its nesting past MaxYamlDepth), or "" if it parses. The parser's own messages are
/// capitalized and end in '!'; they are rewritten to our style.
std::string yamlSyntaxError(llvm::StringRef FileName, llvm::StringRef Yaml) {
  struct Captured {
    std::string Text;
  } C;
  llvm::SourceMgr SM;
  SM.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        auto *Out = static_cast<Captured *>(Ctx);
        if (!Out->Text.empty())
          return;
        // Ex) "Unexpected token. Expected Key or Block End" ->
        //     "unexpected token; expected Key or Block End"
        std::string Msg = llvm::StringRef(D.getMessage()).rtrim("!. ").str();
        for (size_t I = 0; I + 1 < Msg.size(); ++I)
          if ((I == 0 || (I >= 2 && Msg[I - 2] == '.' && Msg[I - 1] == ' ')) &&
              isUpperAscii(Msg[I]) && !isUpperAscii(Msg[I + 1]))
            Msg[I] = llvm::toLower(Msg[I]);
        for (size_t At; (At = Msg.find(". ")) != std::string::npos;)
          Msg.replace(At, 2, "; ");
        RuleLoc L{D.getFilename().str(), static_cast<unsigned>(std::max(D.getLineNo(), 1)),
                  static_cast<unsigned>(std::max(D.getColumnNo(), 0) + 1)};
        Out->Text = L.str() + ": yaml syntax error: " + Msg;
      },
      &C);
  auto Buf = llvm::MemoryBuffer::getMemBuffer(Yaml, FileName, /*RequiresNullTerminator=*/false);
  llvm::yaml::Stream S(Buf->getMemBufferRef(), SM, /*ShowColors=*/false);
  // One walk checks the syntax and the depth (Stream::validate() would recurse).
  if (auto At = walkYaml(S, SM))
    return yamlDepthMessage(FileName, *At);
  if (S.failed() && C.Text.empty())
    C.Text = RuleLoc{FileName.str(), 1, 1}.str() + ": yaml syntax error";
  return C.Text;
}

/// Parses one rule file with the YAML node API and validates it, collecting
/// every problem with its place. One per file; not thread-safe. The text has
/// passed yamlSyntaxError() (loadBuffer), which checked its depth.
class RuleParser {
public:
  RuleParser(llvm::StringRef FileName, bool CheckStem, llvm::StringRef Yaml)
      : Y(FileName, Yaml, /*DepthChecked=*/true), FileName(FileName.str()), CheckStem(CheckStem),
        Source(Yaml) {}

  /// The rule, or nullopt with errors() saying why.
  std::optional<Rule> parse() {
    llvm::yaml::MappingNode *Map = Y.topMapping("rule file");
    if (!Map)
      return std::nullopt;
    Rule R;
    parseRule(*Map, R);
    Y.expectSingleDocument("rule file; one rule per file");
    if (!Y.errors().empty())
      return std::nullopt;
    return R;
  }

  const std::string &errors() const { return Y.errors(); }

private:
  void error(const RuleLoc &L, const std::string &Msg) { Y.addError(L, Msg); }

  /// The place of N, or Fallback where N has none (an empty value: the
  /// parser places it at the next token). A flow collection's place is its
  /// `[` or `{`, not its first entry.
  RuleLoc loc(llvm::yaml::Node *N, const RuleLoc &Fallback) const {
    if (!N || llvm::isa<llvm::yaml::NullNode>(N))
      return Fallback;
    if (llvm::isa<llvm::yaml::BlockScalarNode>(N))
      return contentPlace(N);
    RuleLoc L = Y.loc(N);
    if (!L.Line)
      return Fallback;
    char Open = llvm::isa<llvm::yaml::SequenceNode>(N)  ? '['
                : llvm::isa<llvm::yaml::MappingNode>(N) ? '{'
                                                        : 0;
    if (!Open)
      return L;
    // Ex) `any: []`: the node starts at `]`. A flow collection's bracket is
    // the first thing before it on its line, past blanks; the walk back
    // stays on that line, so inside the buffer.
    const char *P = N->getSourceRange().Start.getPointer();
    for (unsigned Back = 1; Back < L.Column; ++Back) {
      char C = P[-static_cast<std::ptrdiff_t>(Back)];
      if (C == Open) {
        L.Column -= Back;
        break;
      }
      if (C != ' ' && C != '\t')
        break;
    }
    return L;
  }

  /// The place of the character at P, which lies in N's source text.
  RuleLoc placeIn(llvm::yaml::Node *N, const char *P) const {
    RuleLoc L = Y.loc(N);
    const char *S = N->getSourceRange().Start.getPointer();
    if (!L.Line || !S || !P || P < S)
      return L;
    for (const char *C = S; C < P; ++C) {
      if (*C == '\n') {
        ++L.Line;
        L.Column = 1;
      } else {
        ++L.Column;
      }
    }
    return L;
  }

  /// The place, in the YAML source, of the character at offset Offset of
  /// N's value, for a `$` (counted: escapes and folding never make a `$`).
  RuleLoc dollarPlace(llvm::yaml::Node *N, llvm::StringRef Value, size_t Offset) const {
    size_t Nth = Value.take_front(Offset).count('$');
    llvm::SMRange R = N->getSourceRange();
    const char *B = R.Start.getPointer(), *E = R.End.getPointer();
    if (!B || !E || E < B)
      return Y.loc(N);
    llvm::StringRef Raw(B, E - B);
    for (size_t I = 0; I < Raw.size(); ++I)
      if (Raw[I] == '$' && Nth-- == 0)
        return placeIn(N, Raw.data() + I);
    return Y.loc(N);
  }

  /// Where a pattern's text starts: the node for plain and quoted scalars,
  /// the first non-blank character of the content for a block scalar (the
  /// parser places it at the start of the line after the `|` header).
  RuleLoc contentPlace(llvm::yaml::Node *N) const {
    if (!llvm::isa<llvm::yaml::BlockScalarNode>(N))
      return Y.loc(N);
    llvm::SMRange R = N->getSourceRange();
    const char *B = R.Start.getPointer(), *E = R.End.getPointer();
    if (!B || !E || E < B)
      return Y.loc(N);
    llvm::StringRef Raw(B, E - B);
    size_t At = Raw.find_first_not_of(" \t\r\n");
    return At == llvm::StringRef::npos ? Y.loc(N) : placeIn(N, Raw.data() + At);
  }

  /// True for a `>` (folded) block scalar, false for a `|` (literal) one:
  /// the indicator ends the line before the node, but for a comment and the
  /// chomping and indentation indicators.
  bool isFolded(llvm::yaml::BlockScalarNode *N) const {
    const char *P = N->getSourceRange().Start.getPointer();
    if (!P || P <= Source.begin() || P > Source.end())
      return false; // not in our buffer: cannot tell
    llvm::StringRef Before(Source.begin(), P - Source.begin());
    Before = Before.rtrim("\r\n");
    llvm::StringRef Header = Before.substr(Before.rfind('\n') + 1); // npos + 1 == 0
    for (size_t Hash = 0; (Hash = Header.find('#', Hash)) != llvm::StringRef::npos; ++Hash)
      if (Hash > 0 && (Header[Hash - 1] == ' ' || Header[Hash - 1] == '\t')) {
        Header = Header.take_front(Hash); // Ex) `note: >-  # why`
        break;
      }
    Header = Header.rtrim(" \t").rtrim("+-0123456789");
    return Header.endswith(">");
  }

  /// The value of a plain, quoted or block scalar; reports anything else as
  /// "expected a string for 'What' (found a list)".
  std::optional<std::string> str(llvm::yaml::Node *N, llvm::StringRef What,
                                 const RuleLoc &Fallback) {
    if (auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N)) {
      llvm::SmallString<64> Storage;
      return S->getValue(Storage).str();
    }
    if (auto *B = llvm::dyn_cast_or_null<llvm::yaml::BlockScalarNode>(N)) {
      // LLVM keeps the line breaks of `>` (folded) scalars as if they were
      // `|` (literal) ones; fold them here.
      if (isFolded(B))
        return foldBlockScalar(B->getValue());
      return B->getValue().str();
    }
    error(loc(N, Fallback), "expected a string for " + What.str() + " (found " + kindName(N) + ")");
    return std::nullopt;
  }

  llvm::yaml::SequenceNode *list(llvm::yaml::Node *N, llvm::StringRef What,
                                 const RuleLoc &Fallback) {
    if (auto *S = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(N))
      return S;
    error(loc(N, Fallback), "expected a list for " + What.str() + " (found " + kindName(N) + ")");
    return nullptr;
  }

  llvm::yaml::MappingNode *mapping(llvm::yaml::Node *N, llvm::StringRef What,
                                   const RuleLoc &Fallback) {
    if (auto *M = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(N))
      return M;
    error(loc(N, Fallback),
          "expected a mapping for " + What.str() + " (found " + kindName(N) + ")");
    return nullptr;
  }

  static std::string quoted(llvm::StringRef Key) { return "'" + YamlReader::excerpt(Key) + "'"; }

  /// The top-level keys seen, for the checks that follow them.
  struct SeenKeys {
    bool Id = false, Language = false, Category = false, Severity = false, Message = false;
    std::optional<RuleLoc> PatternKey, AnyKey, FocusLoc;
  };

  void parseRule(llvm::yaml::MappingNode &M, Rule &R) {
    SeenKeys Seen;
    Y.forEachKey(M, RuleKeys, "a rule",
                 [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc KL) {
                   parseRuleKey(Key, V, KL, R, Seen);
                 });

    RuleLoc Top = Y.loc(&M);
    auto Require = [&](bool Has, const char *Key) {
      if (!Has)
        error(Top, std::string("missing required key '") + Key + "'");
    };
    Require(Seen.Id, "id");
    Require(Seen.Language, "language");
    Require(Seen.Category, "category");
    Require(Seen.Severity, "severity");
    Require(Seen.Message, "message");
    if (Seen.PatternKey && Seen.AnyKey)
      error(Seen.PatternKey->Line > Seen.AnyKey->Line ? *Seen.PatternKey : *Seen.AnyKey,
            "use either 'pattern' or 'any', not both");
    else if (!Seen.PatternKey && !Seen.AnyKey)
      error(Top, "missing 'pattern' (or 'any': a list of patterns)");
    if (!R.Matcher.Text.empty() && R.Language != "cpp")
      error(R.Matcher.Loc, "'matcher' is for C++ rules (language: cpp)");
    if (R.Kind == RuleKind::Keep && !R.Fixes.empty())
      error(R.Fixes.front().Loc, "a keep rule cannot have a fix");
    checkMetavariables(R, Seen.FocusLoc);
  }

  /// One top-level key of a rule, handed to the parser of its group.
  void parseRuleKey(const std::string &Key, llvm::yaml::Node *V, const RuleLoc &KL, Rule &R,
                    SeenKeys &Seen) {
    // Present counts, even with a value of the wrong kind: one error, not two.
    Seen.Id |= Key == "id";
    Seen.Language |= Key == "language";
    Seen.Category |= Key == "category";
    Seen.Severity |= Key == "severity";
    Seen.Message |= Key == "message";
    if (Key == "pattern" || Key == "any")
      parsePatternKey(Key, V, KL, R, Seen);
    else if (Key == "matcher")
      parseMatcherKey(V, KL, R);
    else if (Key == "where" || Key == "focus")
      parseWhereKey(Key, V, KL, R, Seen);
    else if (Key == "fix" || Key == "examples")
      parseFixKey(Key, V, KL, R);
    else if (Key == "id" || Key == "kind" || Key == "language" || Key == "category" ||
             Key == "severity")
      parseIdentityKey(Key, V, KL, R);
    else
      parseDocsKey(Key, V, KL, R);
  }

  /// `pattern` (one) or `any` (a list): what the rule matches.
  void parsePatternKey(const std::string &Key, llvm::yaml::Node *V, const RuleLoc &KL, Rule &R,
                       SeenKeys &Seen) {
    if (Key == "pattern") {
      Seen.PatternKey = KL;
      if (auto S = str(V, quoted(Key), KL))
        addPattern(R, *S, V);
      else
        PatternRejected = true;
      return;
    }
    assert(Key == "any" && "a pattern key");
    Seen.AnyKey = KL;
    auto *Seq = list(V, quoted(Key), KL);
    if (!Seq) {
      PatternRejected = true;
      return;
    }
    RuleLoc VL = loc(V, KL);
    bool Empty = true;
    for (llvm::yaml::Node &Item : *Seq) {
      Empty = false;
      if (auto S = str(&Item, "an 'any' entry", VL))
        addPattern(R, *S, &Item);
      else
        PatternRejected = true;
    }
    if (Empty)
      error(VL, "'any' must list at least one pattern");
  }

  /// `matcher`: the semantic backend's clang-query expression (C++ rules);
  /// Clang's parser checks it when the C++ backend compiles the rules.
  void parseMatcherKey(llvm::yaml::Node *V, const RuleLoc &KL, Rule &R) {
    std::optional<std::string> S = str(V, "'matcher'", KL);
    if (!S)
      return;
    R.Matcher.Text = llvm::StringRef(*S).trim().str();
    R.Matcher.Loc = loc(V, KL);
    if (R.Matcher.Text.empty())
      error(R.Matcher.Loc, "'matcher' must not be empty");
  }

  /// `where` (constraints on metavariables) and `focus` (the metavariable
  /// whose binding is reported): what the patterns bind is checked later, in
  /// checkMetavariables.
  void parseWhereKey(const std::string &Key, llvm::yaml::Node *V, const RuleLoc &KL, Rule &R,
                     SeenKeys &Seen) {
    if (Key == "where") {
      if (auto *Map = mapping(V, quoted(Key), KL))
        parseWhere(*Map, R);
      return;
    }
    assert(Key == "focus" && "a where or focus key");
    std::optional<std::string> S = str(V, quoted(Key), KL);
    if (!S)
      return;
    RuleLoc VL = loc(V, KL);
    llvm::StringRef F(*S);
    F.consume_front("$");
    Seen.FocusLoc = VL;
    if (!isMetavarName(F))
      error(VL, "invalid metavariable '" + YamlReader::excerpt(*S) +
                    "' in 'focus' ($NAME, NAME in [A-Z_][A-Z0-9_]*)");
    else
      R.Focus = F.str();
  }

  /// `fix` and `examples`: lists of mappings, one parsed per entry.
  void parseFixKey(const std::string &Key, llvm::yaml::Node *V, const RuleLoc &KL, Rule &R) {
    auto *Seq = list(V, quoted(Key), KL);
    if (!Seq)
      return;
    RuleLoc VL = loc(V, KL);
    for (llvm::yaml::Node &Item : *Seq) {
      if (Key == "fix")
        parseFix(&Item, R, VL);
      else
        parseExample(&Item, R, VL);
    }
  }

  /// `id`, `kind`, `language`, `category` and `severity`: what the rule is
  /// and how it is selected.
  void parseIdentityKey(const std::string &Key, llvm::yaml::Node *V, const RuleLoc &KL, Rule &R) {
    std::optional<std::string> S = str(V, quoted(Key), KL);
    if (!S)
      return;
    RuleLoc VL = loc(V, KL);
    if (Key == "id") {
      R.Id = *S;
      R.Loc = VL;
      if (!isKebab(*S))
        error(VL, "invalid rule id '" + YamlReader::excerpt(*S) +
                      "' (expected kebab-case: lower-case letters and digits, joined by '-')");
      if (CheckStem && llvm::sys::path::stem(FileName) != *S)
        error(VL, "rule id '" + YamlReader::excerpt(*S) + "' does not match the file name '" +
                      llvm::sys::path::filename(FileName).str() + "'");
    } else if (Key == "kind") {
      if (*S == "keep")
        R.Kind = RuleKind::Keep;
      else if (*S == "finding")
        R.Kind = RuleKind::Finding;
      else
        error(VL, "invalid kind '" + YamlReader::excerpt(*S) + "' (expected finding or keep)");
    } else if (Key == "language") {
      R.Language = *S;
      if (*S != "python" && *S != "cpp")
        error(VL,
              "unsupported language '" + YamlReader::excerpt(*S) + "' (expected python or cpp)");
    } else if (Key == "category") {
      R.Category = *S;
      if (!isKebab(*S))
        error(VL, "invalid category '" + YamlReader::excerpt(*S) + "' (expected kebab-case)");
    } else {
      assert(Key == "severity" && "an identity key");
      if (auto Sev = parseSeverity(*S))
        R.Sev = *Sev;
      else
        error(VL, "invalid severity '" + YamlReader::excerpt(*S) +
                      "' (expected error, warning, info or hint)");
    }
  }

  /// `message`, `description`, `note` and `url`: what the rule says.
  void parseDocsKey(const std::string &Key, llvm::yaml::Node *V, const RuleLoc &KL, Rule &R) {
    std::optional<std::string> S = str(V, quoted(Key), KL);
    if (!S)
      return;
    if (Key == "message") {
      RuleLoc VL = loc(V, KL);
      R.Message = llvm::StringRef(*S).trim().str();
      if (R.Message.empty())
        error(VL, "'message' must not be empty");
      else if (R.Message.find('\n') != std::string::npos)
        error(VL, "'message' must be one line (put details in 'description' or 'note')");
    } else if (Key == "description") {
      R.Description = *S;
    } else if (Key == "note") {
      R.Note = *S;
    } else {
      assert(Key == "url" && "a docs key");
      R.Url = *S;
    }
  }

  /// The cross-field checks: what the patterns bind against what `where`,
  /// `focus` and the templates use, and the order of the fixes.
  void checkMetavariables(const Rule &R, const std::optional<RuleLoc> &FocusLoc) {
    checkFixOrder(R);
    // What a rejected (or missing) pattern would have bound is unknown: say
    // nothing rather than blame the templates for it.
    if (PatternRejected || R.Patterns.empty())
      return;
    std::vector<std::string> Bound; // by some pattern
    for (const RulePattern &P : R.Patterns)
      for (const std::string &V : metavariablesIn(P.Text)) {
        if (isReservedMetavariable(V))
          error(P.Loc, "$" + V + " is reserved for the device expression; patterns cannot bind it");
        if (!llvm::is_contained(Bound, V))
          Bound.push_back(V);
      }
    std::vector<std::string> Usable = Bound; // ... or by a `where` capture
    for (const WhereName &W : WhereNames)
      if (!llvm::is_contained(Bound, W.Name))
        error(W.Loc, "'where' names $" + W.Name + ", which no pattern binds");
    for (const auto &[Name, C] : R.Where)
      for (const std::string &Cap : C.Captures) {
        if (isReservedMetavariable(Cap))
          error(C.Loc,
                "$" + Cap + " is reserved for the device expression; captures cannot bind it");
        else if (!llvm::is_contained(Usable, Cap))
          Usable.push_back(Cap);
      }
    if (!R.Focus.empty() && FocusLoc)
      for (const RulePattern &P : R.Patterns)
        if (!llvm::is_contained(metavariablesIn(P.Text), R.Focus)) {
          error(*FocusLoc,
                "'focus' names $" + R.Focus + ", which pattern `" + P.Text + "` does not bind");
          break;
        }
    for (size_t I = 0; I < R.Fixes.size(); ++I)
      for (const std::string &V : metavariablesIn(R.Fixes[I].Template))
        if (!llvm::is_contained(Usable, V) && !isReservedMetavariable(V))
          error(Fixes[I].TemplateLoc, "template uses $" + V + ", which no pattern binds");
  }

  /// fixFor() takes the first fix whose since fits: a fix after one with an
  /// older or equal since is never taken.
  void checkFixOrder(const Rule &R) {
    for (size_t I = 0; I < R.Fixes.size(); ++I) {
      if (!Fixes[I].SinceValid)
        continue;
      for (size_t J = 0; J < I; ++J)
        if (Fixes[J].SinceValid && R.Fixes[J].Since <= R.Fixes[I].Since) {
          error(Fixes[I].SinceLoc, "fix " + std::to_string(I + 1) + " is unreachable: fix " +
                                       std::to_string(J + 1) + " (since " + R.Fixes[J].Since.str() +
                                       ") is chosen for every release from " +
                                       R.Fixes[I].Since.str() + " on; list fixes newest first");
          break;
        }
    }
  }

  void addPattern(Rule &R, const std::string &Text, llvm::yaml::Node *N) {
    RuleLoc L = contentPlace(N);
    if (llvm::StringRef(Text).trim().empty()) {
      error(L, "pattern must not be empty");
      PatternRejected = true;
      return;
    }
    size_t Bad = badPatternDollar(Text);
    if (Bad != llvm::StringRef::npos) {
      error(dollarPlace(N, Text, Bad), "invalid metavariable in pattern `" +
                                           llvm::StringRef(Text).trim().str() +
                                           "` ($NAME or $$$NAME, NAME in [A-Z_][A-Z0-9_]*)");
      PatternRejected = true;
      return;
    }
    R.Patterns.push_back({Text, L});
  }

  void parseWhere(llvm::yaml::MappingNode &M, Rule &R) {
    llvm::StringSet<> Seen;
    for (llvm::yaml::KeyValueNode &KV : M) {
      auto *K = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
      if (!K) {
        error(Y.loc(KV.getKey() ? KV.getKey() : &M), "keys must be plain strings");
        continue;
      }
      llvm::SmallString<32> Storage;
      std::string Written = K->getValue(Storage).str();
      RuleLoc KL = Y.loc(K);
      llvm::StringRef Name(Written);
      Name.consume_front("$");
      if (!isMetavarName(Name)) {
        error(KL, "invalid metavariable '" + Written +
                      "' in 'where' ($NAME, NAME in [A-Z_][A-Z0-9_]*)");
        continue;
      }
      if (!Seen.insert(Name).second) {
        error(KL, "duplicate key '" + Written + "'");
        continue;
      }
      WhereNames.push_back({Name.str(), KL});
      auto *C = mapping(KV.getValue(), "$" + Name.str() + " in 'where'", KL);
      if (!C)
        continue;
      MetavarConstraint MC;
      MC.Loc = KL;
      std::optional<RuleLoc> CapturesLoc;
      bool HasConstraint = false;
      Y.forEachKey(*C, WhereKeys, "a 'where' constraint",
                   [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc CKL) {
                     HasConstraint = true;
                     if (Key == "captures") {
                       CapturesLoc = CKL;
                       auto *Seq = list(V, "'captures'", CKL);
                       if (!Seq)
                         return;
                       for (llvm::yaml::Node &Item : *Seq) {
                         auto Cap = str(&Item, "a 'captures' entry", CKL);
                         if (!Cap)
                           continue;
                         llvm::StringRef CN(*Cap);
                         CN.consume_front("$");
                         if (!isMetavarName(CN))
                           error(Y.loc(&Item), "invalid capture name '" +
                                                   YamlReader::excerpt(*Cap) +
                                                   "' ($NAME, NAME in [A-Z_][A-Z0-9_]*)");
                         else
                           MC.Captures.push_back(CN.str());
                       }
                       return;
                     }
                     auto S = str(V, quoted(Key), CKL);
                     if (!S)
                       return;
                     std::string Why = regexComplexityProblem(*S);
                     if (!Why.empty() || !llvm::Regex(*S).isValid(Why)) {
                       error(loc(V, CKL),
                             "invalid regex '" + YamlReader::excerpt(*S) + "': " + Why);
                       return;
                     }
                     (Key == "regex" ? MC.Regex : MC.NotRegex) = *S;
                   });
      if (CapturesLoc && !MC.Captures.empty()) {
        unsigned Groups = MC.Regex.empty() ? 0 : llvm::Regex(MC.Regex).getNumMatches();
        if (Groups < MC.Captures.size())
          error(*CapturesLoc, "'captures' names " + std::to_string(MC.Captures.size()) +
                                  " groups but the regex has " + std::to_string(Groups));
      }
      if (!HasConstraint)
        error(KL, "no constraint on $" + Name.str() + " (expected regex, not-regex or captures)");
      R.Where[Name.str()] = std::move(MC);
    }
  }

  void parseFix(llvm::yaml::Node *N, Rule &R, const RuleLoc &ListLoc) {
    std::string Which = "fix " + std::to_string(R.Fixes.size() + 1);
    RuleFix F;
    FixInfo Info;
    F.Loc = loc(N, ListLoc);
    Info.SinceLoc = Info.TemplateLoc = F.Loc;
    auto *M = mapping(N, Which, ListLoc);
    if (!M) {
      R.Fixes.push_back(std::move(F));
      Fixes.push_back(Info);
      return;
    }
    bool HasSince = false, HasTemplate = false;
    Y.forEachKey(
        *M, FixKeys, "a fix", [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc KL) {
          HasSince |= Key == "since";
          HasTemplate |= Key == "template";
          auto S = str(V, quoted(Key), KL);
          if (!S)
            return;
          RuleLoc VL = loc(V, KL);
          if (Key == "since") {
            Info.SinceLoc = VL;
            if (auto Ver = TorchVersion::parse(*S)) {
              F.Since = *Ver;
              Info.SinceValid = true;
            } else {
              error(VL, "invalid 'since' '" + YamlReader::excerpt(*S) +
                            "' (expected MAJOR.MINOR, e.g. \"2.7\")");
            }
          } else if (Key == "template") {
            Info.TemplateLoc = VL;
            F.Template = *S;
            size_t Bad = badTemplateDollar(*S);
            if (llvm::StringRef(*S).trim().empty())
              error(VL, "'template' must not be empty");
            else if (Bad != llvm::StringRef::npos)
              error(dollarPlace(V, *S, Bad),
                    "invalid metavariable in template `" + llvm::StringRef(*S).trim().str() +
                        "` ($NAME or $$$NAME, NAME in [A-Z_][A-Z0-9_]*; $$ is a literal $)");
          } else if (Key == "applicability") {
            if (*S == "safe")
              F.App = Applicability::Safe;
            else if (*S == "unsafe")
              F.App = Applicability::Unsafe;
            else if (*S == "display-only")
              F.App = Applicability::DisplayOnly;
            else
              error(VL, "invalid applicability '" + YamlReader::excerpt(*S) +
                            "' (expected safe, unsafe or display-only)");
          } else if (Key == "title") {
            F.Title = *S;
          } else if (Key == "note") {
            F.Note = *S;
          }
        });
    if (!HasSince)
      error(F.Loc, "missing required key 'since' in " + Which);
    if (!HasTemplate)
      error(F.Loc, "missing required key 'template' in " + Which);
    R.Fixes.push_back(std::move(F));
    Fixes.push_back(Info);
  }

  void parseExample(llvm::yaml::Node *N, Rule &R, const RuleLoc &ListLoc) {
    std::string Which = "example " + std::to_string(R.Examples.size() + 1);
    auto *M = mapping(N, Which, ListLoc);
    if (!M)
      return;
    RuleExample E;
    bool HasBefore = false;
    Y.forEachKey(*M, ExampleKeys, "an example",
                 [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc KL) {
                   HasBefore |= Key == "before";
                   auto S = str(V, quoted(Key), KL);
                   if (!S)
                     return;
                   if (Key == "before") {
                     E.Before = *S;
                   } else {
                     E.After = *S;
                   }
                 });
    if (!HasBefore)
      error(loc(N, ListLoc), "missing required key 'before' in " + Which);
    R.Examples.push_back(std::move(E));
  }

  /// What the cross-field checks need to know of each fix.
  struct FixInfo {
    bool SinceValid = false;
    RuleLoc SinceLoc, TemplateLoc;
  };
  struct WhereName {
    std::string Name;
    RuleLoc Loc;
  };

  YamlReader Y;
  std::string FileName;
  bool CheckStem;
  bool PatternRejected = false; // some pattern was not added to the rule
  llvm::StringRef Source;       // the YAML text; YamlReader's nodes point into it
  std::vector<FixInfo> Fixes;   // parallel to Rule::Fixes
  std::vector<WhereName> WhereNames;
};

llvm::Error joinedError(const std::vector<std::string> &Problems) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                 llvm::join(Problems, "\n").c_str());
}

bool byId(const std::shared_ptr<const Rule> &A, const std::shared_ptr<const Rule> &B) {
  return A->Id < B->Id;
}

} // namespace

//===----------------------------------------------------------------------===//
// RuleSet
//===----------------------------------------------------------------------===//

llvm::Expected<RuleSet> RuleSet::loadBuffer(llvm::StringRef FileName, llvm::StringRef Yaml,
                                            bool Embedded) {
  llvm::StringRef Shown = FileName.empty() ? llvm::StringRef("<buffer>") : FileName;
  std::string Syntax = Embedded ? std::string() : yamlSyntaxError(Shown, Yaml);
  if (!Syntax.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Syntax.c_str());
  // Only comments and blanks: the parser would place this at the end.
  bool Empty = true;
  for (llvm::StringRef Rest = Yaml; Empty && !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Line = Line.trim();
    Empty = Line.empty() || Line.startswith("#") || Line == "---" || Line == "...";
    Rest = Next;
  }
  if (Empty)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: empty rule file",
                                   RuleLoc{Shown.str(), 1, 1}.str().c_str());
  RuleParser P(Shown, /*CheckStem=*/!FileName.empty(), Yaml);
  std::optional<Rule> R = P.parse();
  if (!R) {
    assert(!P.errors().empty() && "a rule that does not parse says why");
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", P.errors().c_str());
  }
  R->Embedded = Embedded;
  RuleSet S;
  S.Rules.push_back(std::make_shared<const Rule>(std::move(*R)));
  return S;
}

llvm::Error RuleSet::merge(RuleSet Other) {
  std::vector<std::string> Problems;
  for (const auto &R : Other.Rules)
    if (const Rule *Old = find(R->Id))
      Problems.push_back(R->Loc.str() + ": duplicate rule id '" + R->Id + "' (first defined at " +
                         Old->Loc.str() + ")");
  if (!Problems.empty())
    return joinedError(Problems);
  std::vector<std::shared_ptr<const Rule>> All;
  All.reserve(Rules.size() + Other.Rules.size());
  std::merge(Rules.begin(), Rules.end(), Other.Rules.begin(), Other.Rules.end(),
             std::back_inserter(All), byId);
  Rules = std::move(All);
  return llvm::Error::success();
}

llvm::Expected<RuleSet> RuleSet::loadFiles(llvm::ArrayRef<std::string> Files) {
  RuleSet All;
  std::vector<std::string> Problems;
  for (const std::string &F : Files) {
    auto Text = readRegularFile(F, MaxConfigFileBytes);
    if (!Text) {
      Problems.push_back(
          F + ": cannot read the rule file: " + takeReadFailure(Text.takeError(), F).Reason);
      continue;
    }
    auto One = loadBuffer(F, *Text);
    if (!One) {
      Problems.push_back(llvm::toString(One.takeError()));
      continue;
    }
    if (auto Err = All.merge(std::move(*One)))
      Problems.push_back(llvm::toString(std::move(Err)));
  }
  if (!Problems.empty())
    return joinedError(Problems);
  return All;
}

llvm::Expected<RuleSet> RuleSet::loadDirectory(llvm::StringRef Dir) {
  if (!llvm::sys::fs::is_directory(Dir))
    return llvm::createStringError(std::make_error_code(std::errc::no_such_file_or_directory),
                                   "%s: rule directory not found", Dir.str().c_str());
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    bool IsDir = llvm::sys::fs::is_directory(It->path());
    if (Name.startswith(".")) {
      if (IsDir)
        It.no_push(); // Ex) .git/, .cache/
      continue;
    }
    if (IsDir || !(Name.endswith(".yaml") || Name.endswith(".yml")))
      continue;
    if (Name.startswith("schema")) // Ex) schema.yaml: not a rule
      continue;
    Files.push_back(It->path());
  }
  if (EC)
    return llvm::createStringError(EC, "%s: cannot read the rule directory: %s", Dir.str().c_str(),
                                   EC.message().c_str());
  if (Files.empty())
    return llvm::createStringError(std::make_error_code(std::errc::no_such_file_or_directory),
                                   "%s: no rule files (*.yaml) in the rule directory",
                                   Dir.str().c_str());
  std::sort(Files.begin(), Files.end()); // the same "first defined at" on every system
  return loadFiles(Files);
}

const Rule *RuleSet::find(llvm::StringRef Id) const {
  auto It = std::lower_bound(
      Rules.begin(), Rules.end(), Id,
      [](const std::shared_ptr<const Rule> &A, llvm::StringRef Id) { return A->Id < Id; });
  return It != Rules.end() && (*It)->Id == Id ? It->get() : nullptr;
}

llvm::Expected<RuleSet> RuleSet::filtered(llvm::ArrayRef<std::string> Select,
                                          llvm::ArrayRef<std::string> Ignore) const {
  std::vector<std::string> Problems;
  llvm::StringSet<> Reported;
  for (llvm::ArrayRef<std::string> Names : {Select, Ignore})
    for (const std::string &Name : Names) {
      bool Known = llvm::any_of(Rules, [&](const std::shared_ptr<const Rule> &R) {
        return R->Id == Name || R->Category == Name;
      });
      if (!Known && Reported.insert(Name).second)
        Problems.push_back("unknown rule or category '" + Name + "'");
    }
  if (!Problems.empty())
    return joinedError(Problems);
  auto Names = [](llvm::ArrayRef<std::string> L, const Rule &R) {
    return llvm::is_contained(L, R.Id) || llvm::is_contained(L, R.Category);
  };
  RuleSet Out;
  for (const auto &R : Rules)
    if ((Select.empty() || Names(Select, *R)) && !Names(Ignore, *R))
      Out.Rules.push_back(R);
  return Out;
}

} // namespace devport
