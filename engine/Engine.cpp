//===--- Engine.cpp - The per-file pipeline -------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "engine/Engine.h"

#include "engine/Backends.h"
#include "rewriters/EditApplier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <iterator>

namespace devport {

Engine::Engine(RuleSet Rules, EngineOptions Opts) : Rules(std::move(Rules)), Opts(Opts) {}
Engine::~Engine() = default;

llvm::Expected<std::unique_ptr<Engine>> Engine::create(RuleSet Rules, EngineOptions Opts) {
  return create(std::move(Rules), std::move(Opts), defaultBackends());
}

llvm::Expected<std::unique_ptr<Engine>>
Engine::create(RuleSet Rules, EngineOptions Opts,
               llvm::ArrayRef<const LanguageBackend *> Backends) {
  assert(!Backends.empty() && "an engine needs a backend");
  std::unique_ptr<Engine> E(new Engine(std::move(Rules), std::move(Opts)));
  E->Opts.Build.DeviceExpression = E->Opts.DeviceExpression;
  E->Opts.Build.DeviceTypeExpression = E->deviceTypeExpression();
  std::string Errors;
  for (const LanguageBackend *B : Backends) {
    auto L = std::make_unique<Language>();
    L->Backend = B;
    if (!B->compileCannotFail(E->Rules, E->Opts.Build)) {
      auto C = B->compile(E->Rules, E->Opts.Build);
      if (!C) {
        Errors += (Errors.empty() ? "" : "\n") + llvm::toString(C.takeError());
        continue;
      }
      std::call_once(L->Compiled, [&] {
        L->Rules = std::move(*C);
        L->Ready = true;
      });
    }
    E->Languages.push_back(std::move(L));
  }
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Errors.c_str());
  return std::move(E);
}

const Engine::Language &Engine::languageFor(llvm::StringRef Path) const {
  for (const auto &L : Languages)
    if (L->Backend->handlesPath(Path))
      return *L;
  return *Languages.front();
}

const CompiledRules &Engine::rulesOf(const Language &L) const {
  std::call_once(L.Compiled, [&] {
    auto C = L.Backend->compile(Rules, Opts.Build);
    if (!C) // compileCannotFail() said otherwise: a bug, not bad input
      llvm::report_fatal_error(llvm::Twine("rules of ") + L.Backend->language() +
                               " failed to compile: " + llvm::toString(C.takeError()));
    L.Rules = std::move(*C);
    L.Ready = true;
  });
  return *L.Rules;
}

std::vector<llvm::StringRef> Engine::compiledLanguages() const {
  std::vector<llvm::StringRef> Out;
  for (const auto &L : Languages)
    if (L->Ready)
      Out.push_back(L->Backend->language());
  return Out;
}

bool hasSkipFileDirective(llvm::StringRef Text, llvm::StringRef Marker) {
  for (int I = 0; I < 10 && !Text.empty(); ++I) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    llvm::StringRef T = Line.trim();
    if (!T.consume_front(Marker))
      continue;
    T = T.ltrim();
    if (T.consume_front("devport:") && T.ltrim().startswith("skip-file"))
      return true;
  }
  return false;
}

namespace {

/// A parsed `# devport: ignore[...]` comment.
struct Suppression {
  unsigned Line;                 ///< 0-based line of the comment.
  std::vector<std::string> Ids;  ///< Empty: every rule.
  ByteRange Comment;
};

/// The suppression in a directive comment (file offsets in Range), if any.
/// The text after `<marker> devport:` in a comment, which may follow another
/// directive in the same comment (`# type: ignore  # devport: ignore`).
std::optional<llvm::StringRef> directiveBody(llvm::StringRef Comment, llvm::StringRef Marker) {
  for (size_t At = Comment.find(Marker); At != llvm::StringRef::npos;
       At = Comment.find(Marker, At + Marker.size())) {
    llvm::StringRef T = Comment.drop_front(At + Marker.size()).ltrim();
    if (T.consume_front("devport:"))
      return T;
  }
  return std::nullopt;
}

std::optional<Suppression> parseSuppression(llvm::StringRef Comment, ByteRange Range,
                                            llvm::StringRef Marker, const SourceFile &F) {
  std::optional<llvm::StringRef> Body = directiveBody(Comment, Marker);
  if (!Body)
    return std::nullopt;
  llvm::StringRef T = *Body;
  T = T.ltrim();
  if (!T.consume_front("ignore"))
    return std::nullopt;
  Suppression S{F.lineOf(Range.Begin), {}, Range};
  if (T.consume_front("[")) {
    llvm::StringRef List = T.take_until([](char C) { return C == ']'; });
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    List.split(Parts, ',', -1, false);
    for (llvm::StringRef P : Parts)
      if (!P.trim().empty())
        S.Ids.push_back(P.trim().str());
  } else if (!T.empty() && !llvm::isSpace(T.front())) {
    return std::nullopt; // e.g. "ignored": not our directive
  }
  return S;
}

/// Moves the findings of Out on a line whose comment holds one of Markers
/// (`cuda-comments`: DeepSpeed's `#ignore-cuda`) under a keep entry of that
/// comment, one entry per comment, spanning the findings it keeps.
void keepMarkedLines(const SourceFile &F, llvm::ArrayRef<ByteRange> Comments,
                     llvm::ArrayRef<std::string> Markers, std::vector<Diagnostic> &Out,
                     std::vector<Diagnostic> &Kept) {
  struct Marked {
    unsigned Line;
    const std::string *Marker;
    size_t Entry;
  };
  std::vector<Marked> Ms;
  for (ByteRange C : Comments) {
    llvm::StringRef T = F.text().slice(C.Begin, C.End);
    for (const std::string &M : Markers)
      if (T.contains(M)) {
        Ms.push_back({F.lineOf(C.Begin), &M, SIZE_MAX});
        break;
      }
  }
  if (Ms.empty())
    return;
  std::vector<Diagnostic> Left;
  for (Diagnostic &D : Out) {
    unsigned First = F.lineOf(D.Range.Begin), Last = F.lineOf(D.Range.End);
    auto It = llvm::find_if(Ms, [&](const Marked &M) { return M.Line >= First && M.Line <= Last; });
    if (It == Ms.end()) {
      Left.push_back(std::move(D));
      continue;
    }
    if (It->Entry == SIZE_MAX) {
      Diagnostic K;
      K.RuleId = D.RuleId;
      K.File = D.File;
      K.Range = D.Range;
      K.Sev = Severity::Info;
      K.Message = "`" + *It->Marker +
                  "` marks this line as CUDA by design (`cuda-comments` in .devport.yaml): kept";
      It->Entry = Kept.size();
      Kept.push_back(std::move(K));
    }
    Diagnostic &K = Kept[It->Entry];
    K.Range = {std::min(K.Range.Begin, D.Range.Begin), std::max(K.Range.End, D.Range.End)};
    K.Keeps.push_back({D.RuleId, D.Range});
  }
  Out = std::move(Left);
}

bool suppressed(const Diagnostic &D, llvm::ArrayRef<Suppression> Ss, const SourceFile &F) {
  if (Ss.empty())
    return false;
  unsigned First = F.lineOf(D.Range.Begin), Last = F.lineOf(D.Range.End);
  for (const Suppression &S : Ss)
    if (S.Line >= First && S.Line <= Last &&
        (S.Ids.empty() || llvm::is_contained(S.Ids, D.RuleId)))
      return true;
  return false;
}

} // namespace

/// Embedded code (a doctest) of a file, parsed and matched.
struct Engine::Embedded {
  const EmbeddedCode *Code;
  std::unique_ptr<ParsedFile> Parsed;
  MatchResults Found;
};

bool Engine::skips(const Language &L, llvm::StringRef Path, llvm::StringRef Text) const {
  llvm::StringRef Marker = L.Backend->commentMarker();
  if (!Opts.Prefilter)
    return hasSkipFileDirective(Text, Marker);
  // The prefilter's scan also tells, where it reads the whole text (no rule
  // can match), whether `devport:` is in it: a second search of every such
  // file, and a look for a skip-file comment, were 2.7% of a lexical C++
  // run's instructions.
  std::optional<bool> Devport;
  bool MayMatch = rulesOf(L).prefilterFile(Path, Text, Devport);
  if (Devport.value_or(true) && hasSkipFileDirective(Text, Marker))
    return true;
  if (MayMatch)
    return false;
  // A `devport:` comment is checked even where no rule can match: an
  // unknown rule id in it is a finding.
  return Devport ? !*Devport : !mentionsDevport(Text);
}

CheckResult Engine::checkParsed(const SourceFile &F, const Language &L,
                                const ParsedFile &P) const {
  CheckResult Result;
  llvm::StringRef Marker = L.Backend->commentMarker();
  MatchResults Found = rulesOf(L).match(P);
  std::vector<Match> ByPath = rulesOf(L).pathMatches(F.path(), F.text());
  Found.Matches.insert(Found.Matches.begin(), std::make_move_iterator(ByPath.begin()),
                       std::make_move_iterator(ByPath.end()));
  // Embedded code is matched first: its `devport: ignore` comments count
  // like the file's own.
  std::vector<Embedded> Docs;
  for (const EmbeddedCode &Code : Found.Embedded) {
    if (Opts.Prefilter && !rulesOf(L).mayMatch(Code.Code) && !mentionsDevport(Code.Code))
      continue;
    std::unique_ptr<ParsedFile> EP = L.Backend->parse(Code.Code);
    if (!EP)
      continue;
    MatchResults EF = rulesOf(L).match(*EP);
    Docs.push_back({&Code, std::move(EP), std::move(EF)});
  }
  std::vector<Suppression> Suppressions;
  for (const DirectiveComment &D : Found.Directives)
    if (auto S = parseSuppression(D.Text, D.Range, Marker, F))
      Suppressions.push_back(std::move(*S));
  for (const Embedded &E : Docs)
    for (const DirectiveComment &D : E.Found.Directives)
      if (auto Where = E.Code->toFile(D.Range))
        if (auto S = parseSuppression(D.Text, *Where, Marker, F))
          Suppressions.push_back(std::move(*S));
  // An id that names no rule is a mistake to report, not to ignore silently
  // (even in kept code).
  std::vector<Diagnostic> BadDirectives;
  for (const Suppression &S : Suppressions)
    for (const std::string &Id : S.Ids) {
      bool Known = Opts.KnownRuleIds.empty()
                       ? Rules.find(Id) != nullptr
                       : std::binary_search(Opts.KnownRuleIds.begin(), Opts.KnownRuleIds.end(), Id);
      if (Known)
        continue;
      Diagnostic D;
      D.RuleId = "devport-directive";
      D.Message = "unknown rule '" + Id + "' in a `" + Marker.str() +
                  " devport: ignore[...]` comment";
      D.File = F.path();
      D.Range = S.Comment;
      D.Sev = Severity::Error;
      BadDirectives.push_back(std::move(D));
    }
  // Findings inside kept code are not findings: the keep rule accounts for them.
  auto DropKept = [&](std::vector<Diagnostic> &Ds) {
    if (Result.Kept.empty())
      return;
    std::vector<Diagnostic> Left;
    for (Diagnostic &D : Ds) {
      Diagnostic *By = nullptr;
      for (Diagnostic &K : Result.Kept)
        if (K.Range.contains(D.Range) && (!By || By->Range.contains(K.Range)))
          By = &K;
      if (!By) {
        Left.push_back(std::move(D));
        continue;
      }
      By->Keeps.push_back({D.RuleId, D.Range});
    }
    Ds = std::move(Left);
  };
  std::vector<Diagnostic> &Out = Result.Findings;
  for (const Match &M : Found.Matches) {
    const Rule &R = *M.R;
    if (R.Kind == RuleKind::Keep) {
      Diagnostic K;
      K.RuleId = R.Id;
      K.Message = R.Message;
      K.File = F.path();
      K.Range = M.Range;
      K.Engine = M.Engine.str();
      K.Sev = Severity::Info;
      Result.Kept.push_back(std::move(K));
      continue;
    }
    Diagnostic D = diagnose(L, P, Found, M, F.path());
    if (suppressed(D, Suppressions, F)) {
      Result.Suppressed.push_back(std::move(D));
      continue;
    }
    for (const Note &N : Found.Notes)
      D.Notes.push_back(N);
    Out.push_back(std::move(D));
  }
  if (!Opts.CudaComments.empty())
    keepMarkedLines(F, Found.Comments, Opts.CudaComments, Out, Result.Kept);
  DropKept(Out);
  // The code around each finding may make its fix unsafe (a guard whose
  // block stays CUDA-only, a device query evaluated at import).
  L.Backend->reviewFixes(P, Out, Result.Kept, Opts.Build);
  std::vector<Diagnostic> InEmbedded;
  for (const Embedded &E : Docs)
    diagnoseEmbedded(F, L, E, InEmbedded);
  auto Silenced = std::stable_partition(InEmbedded.begin(), InEmbedded.end(), [&](const Diagnostic &D) {
    return !suppressed(D, Suppressions, F);
  });
  std::move(Silenced, InEmbedded.end(), std::back_inserter(Result.Suppressed));
  InEmbedded.erase(Silenced, InEmbedded.end());
  DropKept(InEmbedded);
  std::move(InEmbedded.begin(), InEmbedded.end(), std::back_inserter(Out));
  std::move(BadDirectives.begin(), BadDirectives.end(), std::back_inserter(Out));
  auto ByPlace = [](const Diagnostic &A, const Diagnostic &B) {
    if (A.Range.Begin != B.Range.Begin)
      return A.Range.Begin < B.Range.Begin;
    return A.RuleId < B.RuleId;
  };
  std::stable_sort(Out.begin(), Out.end(), ByPlace);
  std::stable_sort(Result.Kept.begin(), Result.Kept.end(), ByPlace);
  std::stable_sort(Result.Suppressed.begin(), Result.Suppressed.end(), ByPlace);
  return Result;
}

Diagnostic Engine::diagnose(const Language &L, const ParsedFile &P, const MatchResults &Found,
                            const Match &M, const std::string &Path,
                            llvm::StringRef Around) const {
  const Rule &R = *M.R;
  Diagnostic D;
  D.RuleId = R.Id;
  D.Category = R.Category;
  D.Message = R.Message;
  D.File = Path;
  D.Range = M.Range;
  D.Sev = R.Sev;
  D.Engine = M.Engine.str();
  if (!R.Focus.empty())
    for (const BoundVar &B : M.Bindings)
      if (B.Name == R.Focus)
        D.Range = B.Range;
  const RuleFix *RF = R.fixFor(Opts.Target);
  if (!RF) {
    if (!R.Fixes.empty()) {
      Note N;
      N.K = Note::Kind::NoFixForTarget;
      N.Target = Opts.Target;
      N.Needs = R.Fixes.back().Since;
      N.Text = "no fix for PyTorch " + N.Target.str() + "; the replacement needs " +
               N.Needs.str() + " or later";
      D.Notes.push_back(std::move(N));
    }
    return D;
  }
  if (M.InErrorRegion) {
    D.Notes.push_back(
        Note::plain("no fix: the " + Around.str() + " around it has a syntax error"));
    return D;
  }
  FixRequest Req;
  Req.Fix = RF;
  Req.DeviceExpression = Opts.DeviceExpression;
  Req.DeviceTypeExpression = deviceTypeExpression();
  Req.Target = D.Range;
  BuiltFix B = L.Backend->buildFix(P, Found, M, Req);
  for (Note &N : B.Notes)
    D.Notes.push_back(std::move(N));
  if (B.Result) {
    checkBackends(*RF, M, P.text(), *B.Result, D);
    D.Fixes.push_back(std::move(*B.Result));
  }
  return D;
}

void Engine::checkBackends(const RuleFix &RF, const Match &M, llvm::StringRef Text, Fix &X,
                           Diagnostic &D) const {
  if (!Opts.Backends)
    return;
  auto Bound = [&](llvm::StringRef Name) { return M.boundText(Text, Name); };
  for (std::string &Why : Opts.Backends->portabilityNotes(RF.Template, Bound)) {
    if (X.App == Applicability::Safe)
      X.App = Applicability::Unsafe;
    D.Notes.push_back(Note::plain(std::move(Why)));
  }
}

void Engine::diagnoseEmbedded(const SourceFile &F, const Language &L, const Embedded &E,
                              std::vector<Diagnostic> &Out) const {
  const EmbeddedCode &Code = *E.Code;
  std::vector<ByteRange> Kept;
  for (const Match &M : E.Found.Matches)
    if (M.R->Kind == RuleKind::Keep)
      Kept.push_back(M.Range);
  for (const Match &M : E.Found.Matches) {
    if (M.R->Kind == RuleKind::Keep)
      continue;
    Diagnostic D = diagnose(L, *E.Parsed, E.Found, M, F.path(), Code.What);
    if (llvm::any_of(Kept, [&](ByteRange K) { return K.contains(D.Range); }))
      continue;
    auto Where = Code.toFile(D.Range);
    if (!Where) {
      // Spans continuation lines: shown from its start to the end of that line.
      auto B = Code.toFile(D.Range.Begin);
      if (!B)
        continue;
      uint32_t End = *B;
      while (End < F.text().size() && F.text()[End] != '\n' && F.text()[End] != '\r')
        ++End;
      Where = ByteRange{*B, End};
    }
    D.Range = *Where;
    // Fixes: only on request and only edits within a line. Embedded code
    // runs where `torch` is already a name: the import edits go.
    std::vector<Fix> Fixes;
    for (Fix &X : D.Fixes) {
      bool Ok = Opts.FixDocstrings;
      std::vector<Edit> Mapped;
      for (Edit &Ed : X.Edits) {
        if (Ed.Role == EditRole::AddImport)
          continue;
        auto R = Code.toFile(Ed.Range);
        if (!R) {
          Ok = false;
          break;
        }
        Mapped.push_back({*R, Ed.Replacement, Ed.Role});
      }
      X.Edits = std::move(Mapped);
      if (Ok && !X.Edits.empty())
        Fixes.push_back(std::move(X));
    }
    if (Fixes.empty() && !D.Fixes.empty() && !Opts.FixDocstrings) {
      Note N;
      N.K = Note::Kind::EmbeddedReportOnly;
      N.Text = "in a " + Code.What + ": reported only";
      D.Notes.push_back(std::move(N));
    }
    D.Fixes = std::move(Fixes);
    Out.push_back(std::move(D));
  }
}

std::string Engine::deviceTypeExpression() const {
  if (!Opts.DeviceTypeExpression.empty())
    return Opts.DeviceTypeExpression;
  return Opts.DeviceExpression + ".type";
}

std::vector<Diagnostic> Engine::check(const SourceFile &F) const {
  return checkAll(F).Findings;
}

std::unique_ptr<ParsedFile> Engine::parseRegions(const Language &L, llvm::StringRef Path,
                                                 llvm::StringRef Text, RegionText &Regions,
                                                 bool MayBeNone) const {
  Regions = {};
  if (!Opts.WholeFiles)
    if (std::optional<RegionText> R = rulesOf(L).regionText(Path, Text)) {
      if (R->NothingToMatch && MayBeNone && rulesOf(L).pathMatches(Path, Text).empty())
        return nullptr; // as a file that the prefilter skips
      Regions = std::move(*R);
      std::unique_ptr<ParsedFile> P = L.Backend->parseRegions(Path, Text, Regions);
      if (P && P->syntaxErrors() == 0)
        return P;
      // The whole file, matched only where the regions' marks are, as the
      // language server's incremental check does: a walk of every node of
      // a big file was a quarter of its check.
      MatchMarks Marks = std::move(Regions.Marks);
      P.reset(); // before the whole tree is built: not both at once
      Regions = {};
      std::unique_ptr<ParsedFile> W = L.Backend->parseFile(Path, Text);
      if (W)
        W->setMarks(std::move(Marks));
      return W;
    }
  return L.Backend->parseFile(Path, Text);
}

CheckResult Engine::checkAll(const SourceFile &F) const {
  const Language &L = languageFor(F.path());
  if (skips(L, F.path(), F.text()))
    return {};
  RegionText Regions;
  std::unique_ptr<ParsedFile> P = parseRegions(L, F.path(), F.text(), Regions, true);
  if (!P)
    return {};
  return checkParsed(F, L, *P);
}

CheckResult Engine::checkIncremental(const SourceFile &F, const ParsedFile *Previous,
                                     llvm::ArrayRef<Edit> Edits,
                                     std::unique_ptr<ParsedFile> &Parsed) const {
  const Language &L = languageFor(F.path());
  bool Skip = skips(L, F.path(), F.text());
  if (Skip && !Previous) {
    Parsed.reset();
    return {};
  }
  Parsed = L.Backend->parseFile(F.path(), F.text(), Previous, Edits);
  if (Skip || !Parsed)
    return {};
  // The whole text is parsed (incrementally), but only what the edit
  // touched and what matched before, or else what holds a mark of its
  // regions, needs matching.
  if (!Opts.WholeFiles && !Parsed->prepareIncrementalMatch(rulesOf(L)))
    if (std::optional<RegionText> R = rulesOf(L).regionMarks(F.text())) {
      if (R->NothingToMatch && rulesOf(L).pathMatches(F.path(), F.text()).empty())
        return {};
      Parsed->setMarks(std::move(R->Marks));
    }
  return checkParsed(F, L, *Parsed);
}

namespace {

/// One version of the text under fix(): the text and its parse, kept
/// together so that the parse's text stays where it is.
struct Version {
  SourceFile File;
  RegionText Regions; ///< What Parsed refers to, if not File's text.
  std::unique_ptr<ParsedFile> Parsed;
};

} // namespace

FixOutcome Engine::fix(const SourceFile &F) const {
  FixOutcome Out;
  const Language &L = languageFor(F.path());
  const LanguageBackend &B = *L.Backend;
  if (skips(L, F.path(), F.text())) {
    Out.Text = F.text().str();
    return Out;
  }
  // The original's parse stays: the import clean-up compares with it.
  RegionText OriginalRegions;
  std::unique_ptr<ParsedFile> Original = parseRegions(L, F.path(), F.text(), OriginalRegions, true);
  ++Out.Parses;
  if (!Original) {
    Out.Text = F.text().str();
    return Out;
  }
  unsigned Errors = Original->syntaxErrors();
  std::vector<Diagnostic> Diags = checkParsed(F, L, *Original).Findings;
  std::unique_ptr<Version> Cur; // null while the text is the original
  auto CurFile = [&]() -> const SourceFile & { return Cur ? Cur->File : F; };
  // The findings of a new version: none if nothing can match any more.
  auto CheckVersion = [&](const Version &V) {
    if (!V.Parsed || skips(L, V.File.path(), V.File.text()))
      return std::vector<Diagnostic>();
    return checkParsed(V.File, L, *V.Parsed).Findings;
  };
  auto NewVersion = [&](std::string Text) {
    auto V = std::make_unique<Version>(Version{SourceFile(F.path(), std::move(Text)), {}, nullptr});
    V->Parsed = parseRegions(L, F.path(), V->File.text(), V->Regions, false);
    ++Out.Parses;
    return V;
  };
  auto ErrorsOf = [](const Version &V) { return V.Parsed ? V.Parsed->syntaxErrors() : ~0u; };
  // Whether NewText, whose parse has NewErrors, has a syntax error that the
  // current text has not. The parse of regions may hold more errors without
  // the edit adding one: the new text's regions take in a line with an error
  // that the current's left out (after a fix that adds an import: the test
  // Regions.FixWhoseImportBringsAnErrorIntoTheRegions). There the whole
  // texts decide, as with --whole-files (the current one parsed whole once
  // a version, however many fixes a round tries).
  std::optional<unsigned> WholeErrors; // of the current text, parsed whole
  auto WholeErrorsOf = [&](llvm::StringRef T) {
    std::unique_ptr<ParsedFile> W = B.parseFile(F.path(), T);
    ++Out.Parses;
    return W ? W->syntaxErrors() : ~0u;
  };
  auto AddsError = [&](llvm::StringRef NewText, unsigned NewErrors) {
    if (NewErrors <= Errors)
      return false;
    if (Opts.WholeFiles || NewErrors == ~0u)
      return true;
    if (!WholeErrors)
      WholeErrors = WholeErrorsOf(CurFile().text());
    unsigned After = WholeErrorsOf(NewText);
    return *WholeErrors == ~0u || After == ~0u || After > *WholeErrors;
  };
  // Fixes dropped for adding a syntax error, by what they replace and with
  // what: a later round finds them again and must neither retry nor report
  // them twice.
  llvm::StringSet<> Broken;
  auto KeyOf = [&](const Diagnostic &D, const Fix &X) {
    llvm::StringRef T = CurFile().text();
    std::string K = D.RuleId + '\0' + T.slice(D.Range.Begin, D.Range.End).str();
    for (const Edit &E : X.Edits)
      K += '\0' + T.slice(E.Range.Begin, E.Range.End).str() + '\1' + E.Replacement;
    return K;
  };
  // Rounds of fixes, then the clean-up of the imports they left unused; a
  // clean-up can uncover a fix (tree-sitter's recovery from a syntax error
  // reads the code after a removed import anew), so rounds follow it until
  // neither changes anything, and a second `fix` has nothing to do.
  unsigned Round = 0;
  auto FixRounds = [&] {
    for (;; ++Round) {
      std::vector<const Fix *> Fixes;
      std::vector<const Diagnostic *> Owners;
      for (const Diagnostic &D : Diags)
        for (const Fix &X : D.Fixes)
          if (allowed(X.App)) {
            if (!Broken.empty() && Broken.count(KeyOf(D, X)))
              break;
            Fixes.push_back(&X);
            Owners.push_back(&D);
            break;
          }
      if (Fixes.empty())
        break;
      if (Round == Opts.MaxFixRounds) {
        Out.Converged = false;
        break;
      }
      llvm::StringRef Text = CurFile().text();
      ApplyResult R = applyFixes(Text, Fixes);
      if (R.Applied.empty() || R.Text == Text)
        break;
      size_t Applied = R.Applied.size();
      std::vector<std::string> AppliedRules;
      for (size_t I : R.Applied)
        AppliedRules.push_back(Owners[I]->RuleId);
      std::unique_ptr<Version> Next = NewVersion(std::move(R.Text));
      if (AddsError(Next->File.text(), ErrorsOf(*Next))) {
        // Some fix breaks the syntax: keep only the fixes that do not, one by one.
        std::vector<const Fix *> Good;
        std::vector<std::string> GoodRules;
        for (size_t I : R.Applied) {
          std::vector<const Fix *> Trial = Good;
          Trial.push_back(Fixes[I]);
          ApplyResult T = applyFixes(Text, Trial);
          RegionText TrialRegions;
          std::unique_ptr<ParsedFile> TP = parseRegions(L, F.path(), T.Text, TrialRegions, false);
          ++Out.Parses;
          if (!TP || AddsError(T.Text, TP->syntaxErrors())) {
            Broken.insert(KeyOf(*Owners[I], *Fixes[I]));
            Out.Dropped.push_back({Owners[I]->RuleId, CurFile().lineColumn(Owners[I]->Range.Begin),
                                   "the fix would add a syntax error"});
            continue;
          }
          Good.push_back(Fixes[I]);
          GoodRules.push_back(Owners[I]->RuleId);
        }
        if (Good.empty())
          break;
        ApplyResult G = applyFixes(Text, Good);
        if (G.Text == Text)
          break;
        Applied = G.Applied.size();
        AppliedRules.clear();
        for (size_t I : G.Applied)
          AppliedRules.push_back(GoodRules[I]);
        Next = NewVersion(std::move(G.Text));
      }
      Out.Applied += static_cast<unsigned>(Applied);
      llvm::append_range(Out.AppliedRules, AppliedRules);
      ++Out.Rounds;
      Cur = std::move(Next);
      Errors = ErrorsOf(*Cur);
      WholeErrors.reset();
      Diags = CheckVersion(*Cur);
    }
  };
  // Whether the clean-up changed the text.
  auto CleanUpImports = [&] {
    // Imports that the fixes left unused go too; the result is re-parsed
    // incrementally from the last version's tree.
    if (Out.Applied == 0 || !Cur || !Cur->Parsed)
      return false;
    Fix Cleanup;
    Cleanup.Edits = B.unusedImportEdits(*Original, *Cur->Parsed);
    if (Cleanup.Edits.empty())
      return false;
    ApplyResult R = applyFixes(CurFile().text(), {&Cleanup});
    if (R.Applied.empty() || R.Text == CurFile().text())
      return false;
    auto V =
        std::make_unique<Version>(Version{SourceFile(F.path(), std::move(R.Text)), {}, nullptr});
    // Incremental from the last version's tree, unless that was of its
    // regions only (the edits are not those between the masked texts).
    if (Cur->Regions.Text.empty() && Cur->Regions.Ranges.empty())
      V->Parsed = B.parseFile(F.path(), V->File.text(), Cur->Parsed.get(), Cleanup.Edits);
    else
      V->Parsed = parseRegions(L, F.path(), V->File.text(), V->Regions, false);
    if (AddsError(V->File.text(), ErrorsOf(*V)))
      return false;
    Cur = std::move(V);
    Errors = ErrorsOf(*Cur);
    WholeErrors.reset();
    Diags = CheckVersion(*Cur);
    return true;
  };
  do
    FixRounds();
  while (CleanUpImports() && Out.Converged);
  Out.Text = CurFile().text().str();
  Out.Remaining = std::move(Diags);
  return Out;
}

} // namespace devport
