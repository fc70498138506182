//===--- Engine.cpp - The per-file pipeline -------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Engine.h"

#include "matchers/python/Imports.h"
#include "matchers/python/NameResolver.h"
#include "matchers/python/PythonMatcher.h"
#include "matchers/python/Syntax.h"
#include "rewriters/EditApplier.h"
#include "rewriters/Template.h"
#include "rewriters/TokenDiff.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>

namespace devport {

using python::BoundVar;
using python::RuleMatch;

Engine::Engine(RuleSet Rules, EngineOptions Opts) : Rules(std::move(Rules)), Opts(Opts) {}
Engine::~Engine() = default;

llvm::Expected<std::unique_ptr<Engine>> Engine::create(RuleSet Rules, EngineOptions Opts) {
  std::unique_ptr<Engine> E(new Engine(std::move(Rules), Opts));
  auto M = python::PythonMatcher::compile(E->Rules);
  if (!M)
    return M.takeError();
  E->Matcher = std::move(*M);
  return std::move(E);
}

bool hasSkipFileDirective(llvm::StringRef Text) {
  for (int I = 0; I < 10 && !Text.empty(); ++I) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    llvm::StringRef T = Line.trim();
    if (!T.consume_front("#"))
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

std::vector<Suppression> parseSuppressions(llvm::ArrayRef<python::DirectiveComment> Ds,
                                           const SourceFile &F) {
  std::vector<Suppression> Out;
  for (const auto &D : Ds) {
    llvm::StringRef T = D.Text;
    T.consume_front("#");
    T = T.ltrim();
    if (!T.consume_front("devport:"))
      continue;
    T = T.ltrim();
    if (!T.consume_front("ignore"))
      continue;
    Suppression S{F.lineOf(D.Range.Begin), {}, D.Range};
    if (T.consume_front("[")) {
      llvm::StringRef List = T.take_until([](char C) { return C == ']'; });
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      List.split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts)
        if (!P.trim().empty())
          S.Ids.push_back(P.trim().str());
    } else if (!T.empty() && !llvm::isSpace(T.front())) {
      continue; // e.g. "ignored": not our directive
    }
    Out.push_back(std::move(S));
  }
  return Out;
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

/// Roots of the dotted names a template uses (`torch` in
/// `torch.accelerator.synchronize($D)`), skipping metavariables, attribute
/// names and string contents.
std::vector<std::string> templateRoots(llvm::StringRef T) {
  std::vector<std::string> Out;
  char Quote = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    char C = T[I];
    if (Quote) {
      if (C == '\\')
        ++I;
      else if (C == Quote)
        Quote = 0;
      continue;
    }
    if (C == '\'' || C == '"') {
      Quote = C;
      continue;
    }
    if (C == '$') {
      while (I + 1 < T.size() && (llvm::isAlnum(T[I + 1]) || T[I + 1] == '_' || T[I + 1] == '$'))
        ++I;
      continue;
    }
    if (!(llvm::isAlpha(C) || C == '_'))
      continue;
    size_t B = I;
    while (I + 1 < T.size() && (llvm::isAlnum(T[I + 1]) || T[I + 1] == '_'))
      ++I;
    bool AfterDot = B > 0 && T[B - 1] == '.';
    bool BeforeDot = I + 1 < T.size() && T[I + 1] == '.';
    if (!AfterDot && BeforeDot) {
      std::string Name = T.slice(B, I + 1).str();
      if (!llvm::is_contained(Out, Name))
        Out.push_back(Name);
    }
  }
  return Out;
}

/// Rewrites the dotted names of a template to the aliases the file already
/// has: `torch.distributed.X` becomes `dist.X` after `import torch.distributed
/// as dist`, `torch.X` becomes `t.X` after `import torch as t` (when no plain
/// `torch` is bound). Metavariables and strings are left alone.
std::string useAliases(llvm::StringRef T, const python::NameResolver &R,
                       llvm::ArrayRef<python::Scope> Scopes) {
  std::string Out;
  char Quote = 0;
  for (size_t I = 0; I < T.size();) {
    char C = T[I];
    if (Quote) {
      Out += C;
      if (C == '\\' && I + 1 < T.size())
        Out += T[++I];
      else if (C == Quote)
        Quote = 0;
      ++I;
      continue;
    }
    if (C == '\'' || C == '"') {
      Quote = C;
      Out += C;
      ++I;
      continue;
    }
    bool Start = llvm::isAlpha(C) || C == '_';
    bool AfterDotOrDollar = I > 0 && (T[I - 1] == '.' || T[I - 1] == '$' ||
                                      llvm::isAlnum(T[I - 1]) || T[I - 1] == '_');
    if (!Start || AfterDotOrDollar) {
      Out += C;
      ++I;
      continue;
    }
    // A dotted chain a.b.c starting here.
    size_t E = I;
    std::vector<size_t> Dots;
    while (E < T.size() && (llvm::isAlnum(T[E]) || T[E] == '_' ||
                            (T[E] == '.' && E + 1 < T.size() &&
                             (llvm::isAlpha(T[E + 1]) || T[E + 1] == '_')))) {
      if (T[E] == '.')
        Dots.push_back(E);
      ++E;
    }
    llvm::StringRef Chain = T.slice(I, E);
    std::string Replaced = Chain.str();
    // Longest module prefix first; the last segment is the attribute used.
    for (size_t K = Dots.size(); K-- > 0;) {
      llvm::StringRef Prefix = T.slice(I, Dots[K]);
      const python::Binding *Plain = R.lookup(Prefix, Scopes);
      if (!Prefix.contains('.') && Plain && Plain->Target == Prefix)
        break; // `import torch` is there: keep the full name
      std::string Alias = R.aliasFor(Prefix, Scopes);
      if (!Alias.empty() && Alias != Prefix) {
        Replaced = Alias + T.slice(Dots[K], E).str();
        break;
      }
    }
    Out += Replaced;
    I = E;
  }
  return Out;
}

/// Edits that remove the `from torch.cuda... import name` items of Fixed that
/// were used in Original and are no longer used in Fixed: the fixes made
/// them unused. A statement left with no names goes whole, with its line.
std::vector<Edit> unusedImportRemovals(llvm::StringRef Original, llvm::StringRef Fixed,
                                       python::Parser &P) {
  python::TreePtr TB = P.parse(Original), TA = P.parse(Fixed);
  if (!TB || !TA)
    return {};
  python::ImportUse Before =
      python::collectImportUse(ts_tree_root_node(TB.get()), Original, "torch.cuda");
  python::ImportUse After =
      python::collectImportUse(ts_tree_root_node(TA.get()), Fixed, "torch.cuda");
  std::map<uint32_t, std::vector<const python::ImportedName *>> Dead; // by statement
  for (const python::ImportedName &I : After.Imports)
    if (Before.Uses.lookup(I.Name) > 0 && After.Uses.lookup(I.Name) == 0)
      Dead[I.Statement.Begin].push_back(&I);
  std::vector<Edit> Out;
  auto IsBlank = [](char C) { return C == ' ' || C == '\t'; };
  for (auto &[Begin, Items] : Dead) {
    const python::ImportedName &First = *Items.front();
    if (Items.size() == First.ItemsInStatement) {
      // The whole statement, and its line if nothing else is on it.
      uint32_t B = First.Statement.Begin, E = First.Statement.End;
      uint32_t LB = B;
      while (LB > 0 && IsBlank(Fixed[LB - 1]))
        --LB;
      uint32_t LE = E;
      while (LE < Fixed.size() && IsBlank(Fixed[LE]))
        ++LE;
      bool LineStart = LB == 0 || Fixed[LB - 1] == '\n' || Fixed[LB - 1] == '\r';
      if (LineStart && LE < Fixed.size() && (Fixed[LE] == '\n' || Fixed[LE] == '\r')) {
        LE += (Fixed[LE] == '\r' && LE + 1 < Fixed.size() && Fixed[LE + 1] == '\n') ? 2 : 1;
        Out.push_back(Edit::deletion({LB, LE}));
      } else if (LineStart && LE == Fixed.size()) {
        Out.push_back(Edit::deletion({LB, LE}));
      } else {
        // Shares its line (`import x; from torch.cuda import y`): leave it.
      }
      continue;
    }
    for (const python::ImportedName *I : Items) {
      // `a, ` (with the comma after it), or `, a` for the last item.
      uint32_t E = I->Item.End;
      while (E < Fixed.size() && (IsBlank(Fixed[E]) || Fixed[E] == '\n' || Fixed[E] == '\r'))
        ++E;
      if (E < Fixed.size() && Fixed[E] == ',') {
        ++E;
        while (E < Fixed.size() && IsBlank(Fixed[E]))
          ++E;
        uint32_t B = I->Item.Begin;
        // An item on a line of its own (parenthesized imports) takes its line.
        uint32_t LB = B;
        while (LB > 0 && IsBlank(Fixed[LB - 1]))
          --LB;
        if (LB > 0 && Fixed[LB - 1] == '\n' && E < Fixed.size() &&
            (Fixed[E] == '\n' || Fixed[E] == '\r')) {
          B = LB;
          E += (Fixed[E] == '\r' && E + 1 < Fixed.size() && Fixed[E + 1] == '\n') ? 2 : 1;
        }
        Out.push_back(Edit::deletion({B, E}));
        continue;
      }
      uint32_t B = I->Item.Begin;
      while (B > 0 && (IsBlank(Fixed[B - 1]) || Fixed[B - 1] == '\n'))
        --B;
      if (B > 0 && Fixed[B - 1] == ',')
        Out.push_back(Edit::deletion({B - 1, I->Item.End}));
    }
  }
  return Out;
}

std::string lineColumnOf(const SourceFile &F, uint32_t Offset) {
  LineColumn LC = F.lineColumn(Offset);
  return std::to_string(LC.Line) + ":" + std::to_string(LC.Column);
}

} // namespace

CheckResult Engine::checkText(const SourceFile &F, unsigned *ErrorCount) const {
  llvm::StringRef Text = F.text();
  CheckResult Result;
  if (ErrorCount)
    *ErrorCount = 0;
  if (hasSkipFileDirective(Text) || !Matcher->mayMatch(Text))
    return Result;
  thread_local python::Parser Parser;
  python::TreePtr Tree = Parser.parse(Text);
  if (!Tree)
    return Result;
  TSNode Root = ts_tree_root_node(Tree.get());
  if (ErrorCount)
    *ErrorCount = python::countSyntaxErrors(Root);
  python::NameResolver Resolver(Root, Text);
  python::FileMatches Found = Matcher->match(Root, Text, Resolver);
  std::vector<Suppression> Suppressions = parseSuppressions(Found.Directives, F);
  // An id that names no rule is a mistake to report, not to ignore silently.
  for (const Suppression &S : Suppressions)
    for (const std::string &Id : S.Ids) {
      bool Known = Opts.KnownRuleIds.empty()
                       ? Rules.find(Id) != nullptr
                       : std::binary_search(Opts.KnownRuleIds.begin(), Opts.KnownRuleIds.end(), Id);
      if (Known)
        continue;
      Diagnostic D;
      D.RuleId = "devport-directive";
      D.Message = "unknown rule '" + Id + "' in a `# devport: ignore[...]` comment";
      D.Range = S.Comment;
      D.Sev = Severity::Error;
      Result.Findings.push_back(std::move(D));
    }
  std::vector<Diagnostic> &Out = Result.Findings;
  for (RuleMatch &M : Found.Matches) {
    const Rule &R = *M.R;
    if (R.Kind == RuleKind::Keep) {
      Diagnostic K;
      K.RuleId = R.Id;
      K.Message = R.Message;
      K.Range = M.Range;
      K.Sev = Severity::Info;
      Result.Kept.push_back(std::move(K));
      continue;
    }
    Diagnostic D = diagnose(M, Text, F, Resolver, Found.Comments);
    if (suppressed(D, Suppressions, F))
      continue;
    Out.push_back(std::move(D));
  }
  for (ByteRange Doc : Found.Doctests)
    checkDoctest(F, Doc, Result);
  // Findings inside kept code are not findings: the keep rule accounts for them.
  if (!Result.Kept.empty()) {
    std::vector<Diagnostic> Left;
    for (Diagnostic &D : Out) {
      Diagnostic *By = nullptr;
      for (Diagnostic &K : Result.Kept)
        if (K.Range.contains(D.Range) && (!By || By->Range.contains(K.Range)))
          By = &K;
      if (!By) {
        Left.push_back(std::move(D));
        continue;
      }
      By->Notes.push_back("keeps " + lineColumnOf(F, D.Range.Begin) + " [" + D.RuleId + "]");
    }
    Out = std::move(Left);
  }
  auto ByPlace = [](const Diagnostic &A, const Diagnostic &B) {
    if (A.Range.Begin != B.Range.Begin)
      return A.Range.Begin < B.Range.Begin;
    return A.RuleId < B.RuleId;
  };
  std::stable_sort(Out.begin(), Out.end(), ByPlace);
  std::stable_sort(Result.Kept.begin(), Result.Kept.end(), ByPlace);
  return Result;
}

Diagnostic Engine::diagnose(const python::RuleMatch &M, llvm::StringRef Text,
                            const SourceFile &F, const python::NameResolver &Resolver,
                            llvm::ArrayRef<ByteRange> Comments) const {
  const Rule &R = *M.R;
  Diagnostic D;
  D.RuleId = R.Id;
  D.Message = R.Message;
  D.Range = M.Range;
  D.Sev = R.Sev;
  if (!R.Focus.empty())
    for (const BoundVar &B : M.Bindings)
      if (B.Name == R.Focus)
        D.Range = B.Range;
  const RuleFix *RF = R.fixFor(Opts.Target);
  if (!RF) {
    if (!R.Fixes.empty())
      D.Notes.push_back("no fix for PyTorch " + Opts.Target.str() + " (--target-torch); " +
                        "the replacement needs " + R.Fixes.back().Since.str() + " or later");
  } else if (M.InErrorRegion) {
    D.Notes.push_back("no fix: the code around it has a syntax error");
  } else {
    // The template with the device expressions in, written with the
    // file's own aliases; then the bound code goes in.
    std::string Device = useAliases(Opts.DeviceExpression, Resolver, M.Scopes);
    std::string DeviceType = useAliases(deviceTypeExpression(), Resolver, M.Scopes);
    std::string Needs = useAliases(
        expandTemplate(RF->Template,
                       [&](llvm::StringRef Name) -> std::optional<std::string> {
                         if (Name == "DEVICE")
                           return Device;
                         if (Name == "DEVICE_TYPE")
                           return DeviceType;
                         return "$" + Name.str(); // expanded below
                       }),
        Resolver, M.Scopes);
    std::string Replacement =
        expandTemplate(Needs, [&](llvm::StringRef Name) -> std::optional<std::string> {
          for (const BoundVar &B : M.Bindings)
            if (B.Name == Name)
              return Text.slice(B.Range.Begin, B.Range.End).str();
          return std::nullopt;
        });
    Fix X;
    X.App = RF->App;
    X.Title = RF->Title.empty() ? "replace with `" + Replacement + "`" : RF->Title;
    X.Edits = tokenEdits(Text, D.Range, Replacement);
    // A comment inside a replaced span would be lost: never silently.
    for (const Edit &Ed : X.Edits) {
      auto C = std::lower_bound(Comments.begin(), Comments.end(), Ed.Range.Begin,
                                [](const ByteRange &A, uint32_t Off) { return A.Begin < Off; });
      if (C != Comments.end() && C->Begin < Ed.Range.End) {
        if (X.App == Applicability::Safe)
          X.App = Applicability::Unsafe;
        D.Notes.push_back("the fix would remove a comment: it is unsafe");
        break;
      }
    }
    // The names the replacement uses must be importable where it goes.
    bool Usable = true;
    for (const std::string &Root : templateRoots(Needs)) {
      // Only `torch` is imported on demand; other names (a project's
      // `self.device`, say) are the project's to provide.
      if (Root != "torch")
        continue;
      const python::Binding *B = Resolver.lookup(Root, M.Scopes);
      if (B && B->Target == Root)
        continue; // `import torch` (or `import torch.x`) is in scope
      if (B) {
        D.Notes.push_back("no fix: `" + Root + "` is bound to `" + B->Target + "` here");
        Usable = false;
        break;
      }
      uint32_t At = Resolver.importInsertionOffset();
      std::string Line = "import " + Root + F.lineEnding().str();
      if (At > 0 && At == Text.size() && !Text.endswith("\n") && !Text.endswith("\r"))
        Line = F.lineEnding().str() + Line;
      X.Edits.insert(X.Edits.begin(), Edit::insertion(At, Line));
    }
    if (Usable) {
      if (!RF->Note.empty())
        D.Notes.push_back(RF->Note);
      D.Fixes.push_back(std::move(X));
    }
  }
  return D;
}

namespace {

/// The code of a docstring's doctest lines (`>>> ` and `... `), one line of
/// code per line, and where each line came from in the file.
struct DoctestSource {
  std::string Code;
  struct Line {
    uint32_t Virt, File, Len;
  };
  std::vector<Line> Lines;

  /// The file offset of a code offset; nullopt between lines.
  std::optional<uint32_t> toFile(uint32_t V) const {
    auto It = std::upper_bound(Lines.begin(), Lines.end(), V,
                               [](uint32_t X, const Line &L) { return X < L.Virt; });
    if (It == Lines.begin())
      return std::nullopt;
    --It;
    if (V > It->Virt + It->Len)
      return std::nullopt;
    return It->File + (V - It->Virt);
  }
  /// A code range in one line, as a file range.
  std::optional<ByteRange> toFile(ByteRange R) const {
    auto B = toFile(R.Begin), E = toFile(R.End);
    if (!B || !E || *E < *B || (*E - *B) != R.size())
      return std::nullopt; // spans prompts: not contiguous in the file
    return ByteRange{*B, *E};
  }
};

DoctestSource extractDoctest(llvm::StringRef Text, ByteRange Range) {
  DoctestSource Out;
  uint32_t Pos = Range.Begin;
  while (Pos < Range.End) {
    uint32_t Eol = Pos;
    while (Eol < Range.End && Text[Eol] != '\n' && Text[Eol] != '\r')
      ++Eol;
    llvm::StringRef Line = Text.slice(Pos, Eol);
    llvm::StringRef Trimmed = Line.ltrim(" \t");
    uint32_t Indent = static_cast<uint32_t>(Line.size() - Trimmed.size());
    bool Prompt = Trimmed.startswith(">>> ") || Trimmed.startswith("... ") ||
                  Trimmed == ">>>" || Trimmed == "...";
    // A backslash means an escape the file and the string disagree on: skip.
    if (Prompt && !Trimmed.contains('\\')) {
      uint32_t CodeAt = Pos + Indent + std::min<uint32_t>(4, static_cast<uint32_t>(Trimmed.size()));
      llvm::StringRef Code = Text.slice(CodeAt, Eol);
      // The docstring's closing quotes may end the last line.
      if (Eol == Range.End)
        Code = Code.rtrim("\"'");
      Out.Lines.push_back({static_cast<uint32_t>(Out.Code.size()), CodeAt,
                           static_cast<uint32_t>(Code.size())});
      Out.Code += Code.str() + "\n";
    }
    Pos = Eol;
    while (Pos < Range.End && (Text[Pos] == '\n' || Text[Pos] == '\r'))
      ++Pos;
  }
  return Out;
}

} // namespace

void Engine::checkDoctest(const SourceFile &F, ByteRange Range, CheckResult &Result) const {
  DoctestSource Doc = extractDoctest(F.text(), Range);
  if (Doc.Lines.empty() || !Matcher->mayMatch(Doc.Code))
    return;
  thread_local python::Parser Parser;
  python::TreePtr Tree = Parser.parse(Doc.Code);
  if (!Tree)
    return;
  TSNode Root = ts_tree_root_node(Tree.get());
  python::NameResolver Resolver(Root, Doc.Code);
  python::FileMatches Found = Matcher->match(Root, Doc.Code, Resolver);
  SourceFile Virtual(F.path(), Doc.Code);
  std::vector<ByteRange> Kept;
  for (const RuleMatch &M : Found.Matches)
    if (M.R->Kind == RuleKind::Keep)
      Kept.push_back(M.Range);
  for (const RuleMatch &M : Found.Matches) {
    if (M.R->Kind == RuleKind::Keep)
      continue;
    Diagnostic D = diagnose(M, Doc.Code, Virtual, Resolver, Found.Comments);
    if (llvm::any_of(Kept, [&](ByteRange K) { return K.contains(D.Range); }))
      continue;
    auto Where = Doc.toFile(D.Range);
    if (!Where) {
      // Spans continuation lines: shown from its start to the end of that line.
      auto B = Doc.toFile(D.Range.Begin);
      if (!B)
        continue;
      uint32_t E = *B;
      while (E < F.text().size() && F.text()[E] != '\n' && F.text()[E] != '\r')
        ++E;
      Where = ByteRange{*B, E};
    }
    D.Range = *Where;
    // Fixes: only on request and only edits within a line. A doctest runs
    // where `torch` is already a name, so no import is added to it.
    std::vector<Fix> Fixes;
    for (Fix &X : D.Fixes) {
      bool Ok = Opts.FixDocstrings;
      std::vector<Edit> Mapped;
      for (Edit &E : X.Edits) {
        if (E.Range.empty() && llvm::StringRef(E.Replacement).startswith("import "))
          continue;
        auto R = Doc.toFile(E.Range);
        if (!R) {
          Ok = false;
          break;
        }
        Mapped.push_back(Edit::replacement(*R, E.Replacement));
      }
      X.Edits = std::move(Mapped);
      if (Ok && !X.Edits.empty())
        Fixes.push_back(std::move(X));
    }
    if (Fixes.empty() && !D.Fixes.empty() && !Opts.FixDocstrings)
      D.Notes.push_back("in a doctest: reported only (`docstrings: fix` in .devport.yaml fixes "
                        "doctests too)");
    D.Fixes = std::move(Fixes);
    Result.Findings.push_back(std::move(D));
  }
}

std::string Engine::deviceTypeExpression() const {
  if (!Opts.DeviceTypeExpression.empty())
    return Opts.DeviceTypeExpression;
  return Opts.DeviceExpression + ".type";
}

std::vector<Diagnostic> Engine::check(const SourceFile &F) const {
  return checkText(F, nullptr).Findings;
}

CheckResult Engine::checkAll(const SourceFile &F) const { return checkText(F, nullptr); }

FixOutcome Engine::fix(const SourceFile &F) const {
  FixOutcome Out;
  Out.Text = F.text().str();
  unsigned Errors = 0;
  std::vector<Diagnostic> Diags = checkText(F, &Errors).Findings;
  thread_local python::Parser Parser;
  auto ErrorsIn = [&](llvm::StringRef T) {
    python::TreePtr Tree = Parser.parse(T);
    return Tree ? python::countSyntaxErrors(ts_tree_root_node(Tree.get())) : ~0u;
  };
  for (unsigned Round = 0;; ++Round) {
    std::vector<const Fix *> Fixes;
    std::vector<const Diagnostic *> Owners;
    for (const Diagnostic &D : Diags)
      for (const Fix &X : D.Fixes)
        if (allowed(X.App)) {
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
    ApplyResult R = applyFixes(Out.Text, Fixes);
    if (R.Applied.empty())
      break;
    if (ErrorsIn(R.Text) > Errors) {
      // Some fix breaks the syntax: keep only the fixes that do not, one by one.
      SourceFile Before("", Out.Text);
      std::vector<const Fix *> Good;
      for (size_t I : R.Applied) {
        std::vector<const Fix *> Trial = Good;
        Trial.push_back(Fixes[I]);
        ApplyResult T = applyFixes(Out.Text, Trial);
        if (ErrorsIn(T.Text) > Errors) {
          Out.Dropped.push_back(lineColumnOf(Before, Owners[I]->Range.Begin) + ": " +
                                Owners[I]->RuleId + ": the fix would add a syntax error");
          continue;
        }
        Good.push_back(Fixes[I]);
      }
      if (Good.empty())
        break;
      R = applyFixes(Out.Text, Good);
    }
    if (R.Text == Out.Text)
      break;
    Out.Text = std::move(R.Text);
    Out.Applied += static_cast<unsigned>(R.Applied.size());
    ++Out.Rounds;
    Diags = checkText(SourceFile(F.path(), Out.Text), &Errors).Findings;
  }
  // Imports that the fixes left unused go too.
  if (Out.Applied > 0) {
    Fix Cleanup;
    Cleanup.Edits = unusedImportRemovals(F.text(), Out.Text, Parser);
    if (!Cleanup.Edits.empty()) {
      ApplyResult R = applyFixes(Out.Text, {&Cleanup});
      if (!R.Applied.empty() && ErrorsIn(R.Text) <= Errors) {
        Out.Text = std::move(R.Text);
        Diags = checkText(SourceFile(F.path(), Out.Text), &Errors).Findings;
      }
    }
  }
  for (Diagnostic &D : Diags)
    Out.Remaining.push_back(std::move(D));
  return Out;
}

} // namespace devport
