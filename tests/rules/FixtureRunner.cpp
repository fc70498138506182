//===--- FixtureRunner.cpp - Golden tests for one rule --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// devport-fixture --rules DIR --rule ID [--semantic TORCH_INCLUDE] FIXTURE_DIR
///
/// Runs rule ID alone over every FIXTURE_DIR/input*.{py,cpp,cc,cu,h} and checks:
///   - each finding sits on a line marked `# expect: ID` (C++: `// expect: ID`)
///     and each marked line has a finding (unmarked code is an implicit negative);
///   - the rendered findings equal expected*.diag.txt;
///   - the fixed text (every fix applied, unsafe ones too) equals
///     expected*.fixed.<ext of the input>, and fixing it again changes nothing.
/// input-<case>.py pairs with expected-<case>.{diag.txt,fixed.py}. A first
/// line `# devport-test: OPTION...` (then maybe a marker) sets options: `target-torch=X.Y` the
/// target release, `rules=all` runs every rule (the findings of rule ID are
/// checked; the fixed text has every rule's fixes), for what depends on the
/// other rules' fixes, such as a guard and its block; `device-expression=EXPR`
/// (no spaces) what `$DEVICE` expands to (`--device-expression`).
/// A marker may state the expected action, `# expect: ID:ACTION`, ACTION one
/// of `safe` (a safe fix), `unsafe` (the fix needs --unsafe-fixes) or
/// `report` (no fix); text after ` -- ` is a reason for the reader.
/// UPDATE_GOLDEN=1 rewrites the goldens instead of comparing.
///
/// With --semantic TORCH_INCLUDE (the PyTorch headers' include directory:
/// usr/include of Debian's libtorch-dev, with gflags and glog), it checks the
/// semantic C++ engine instead: each C++ input is compiled against those
/// headers (a compile_commands.json in a temporary directory) and its
/// findings and keep matches must equal the lexical engine's (rule, range,
/// fix edits and applicability). Where the engines differ on purpose, a
/// line says so with `// expect-semantic: ID:ACTION, ... -- reason` (or
/// `// expect-semantic: none -- reason`): on that line the semantic findings
/// are checked against it instead of the `// expect:` markers, and they must
/// differ from the lexical ones. An input that cannot compile opts out with
/// `lexical-only because <reason>` at the end of its `devport-test:` line; any
/// other input that does not compile fails, and so does one where the
/// semantic engine matched nothing (it could not tell a run from none). No
/// headers: exit 77 (skipped).
///
//===----------------------------------------------------------------------===//

#include "core/Rule.h"
#include "core/SourceFile.h"
#include "engine/Backends.h"
#include "engine/Engine.h"
#include "engine/Project.h"
#include "matchers/cpp/CppBackend.h"
#include "report/Render.h"
#include "rewriters/UnifiedDiff.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

using namespace devport;

namespace {

int Failures = 0;

void fail(const std::string &Where, const std::string &What) {
  ++Failures;
  llvm::errs() << Where << ": FAIL: " << What << "\n";
}

std::optional<std::string> readAll(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path, false, false);
  if (!B)
    return std::nullopt;
  return (*B)->getBuffer().str();
}

void writeAll(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC) {
    fail(Path, "cannot write: " + EC.message());
    return;
  }
  OS << Text;
}

/// Compares Actual with the golden file, or rewrites it with UPDATE_GOLDEN=1.
void golden(const std::string &Path, llvm::StringRef Actual, bool Update) {
  if (Update) {
    auto Old = readAll(Path);
    if (!Old || *Old != Actual) {
      writeAll(Path, Actual);
      llvm::errs() << "updated " << Path << "\n";
    }
    return;
  }
  auto Expected = readAll(Path);
  if (!Expected) {
    fail(Path, "missing golden (run with UPDATE_GOLDEN=1 to create it)");
    return;
  }
  if (*Expected != Actual)
    fail(Path, "differs from the actual output (UPDATE_GOLDEN=1 rewrites it):\n" +
                   unifiedDiff(Path, "actual", *Expected, Actual));
}

/// 1-based line -> rule id -> expected action ("" when not stated).
using Expectations = std::map<unsigned, std::map<std::string, std::string>>;

/// The markers of one kind in F, from `# Marker: a, b:unsafe -- reason`
/// (`// Marker:` in C++) on a line; a marker ends at ` -- ` or at the next
/// comment marker. `none` states a line with no finding (the line is present
/// with no ids). Reasons: the lines whose marker gives one.
Expectations expectations(const SourceFile &F, llvm::StringRef Marker,
                          std::set<unsigned> *Reasons = nullptr) {
  Expectations Out;
  std::string Hash = "# " + Marker.str() + ":", Slash = "// " + Marker.str() + ":";
  for (unsigned L = 0; L < F.lineCount(); ++L) {
    llvm::StringRef T = F.lineText(L);
    size_t At = T.find(Hash);
    size_t Skip = Hash.size();
    if (At == llvm::StringRef::npos) {
      At = T.find(Slash);
      Skip = Slash.size();
    }
    if (At == llvm::StringRef::npos)
      continue;
    llvm::StringRef Body = T.substr(At + Skip);
    size_t Dashes = Body.find(" -- ");
    if (Reasons && Dashes != llvm::StringRef::npos &&
        !Body.substr(Dashes + 4).trim().empty())
      Reasons->insert(L + 1);
    Body = Body.substr(0, Dashes);
    Body = Body.substr(0, std::min(Body.find("//"), Body.find('#')));
    llvm::SmallVector<llvm::StringRef, 4> Ids;
    Body.split(Ids, ',', -1, false);
    auto &Line = Out[L + 1];
    for (llvm::StringRef Id : Ids) {
      auto [Name, Action] = Id.trim().split(':');
      if (!Name.trim().empty() && Name.trim() != "none")
        Line[Name.trim().str()] = Action.trim().str();
    }
  }
  return Out;
}

/// The action a finding gets: "safe", "unsafe" or "report".
std::string actionOf(const Diagnostic &D) {
  for (const Fix &X : D.Fixes)
    if (X.App == Applicability::Safe)
      return "safe";
  for (const Fix &X : D.Fixes)
    if (X.App == Applicability::Unsafe)
      return "unsafe";
  return "report";
}

/// Fails for each of Diags (findings of RuleId) on a line without its
/// marker in Expect or with another action, and for each marker of RuleId
/// without a finding. Engine names the engine in messages ("" for none).
void checkMarkers(const std::string &Input, const SourceFile &Shown,
                  const std::vector<Diagnostic> &Diags, const Expectations &Expect,
                  const std::string &RuleId, const std::string &Engine) {
  std::string By = Engine.empty() ? "" : " (" + Engine + " engine)";
  std::set<unsigned> Seen;
  for (const Diagnostic &D : Diags) {
    unsigned Line = Shown.lineOf(D.Range.Begin) + 1;
    std::string Where = Input + ":" + std::to_string(Line);
    auto L = Expect.find(Line);
    auto It = L == Expect.end() ? std::map<std::string, std::string>::const_iterator()
                                : L->second.find(D.RuleId);
    if (L == Expect.end() || It == L->second.end()) {
      fail(Where, "unexpected finding [" + D.RuleId + "]" + By);
    } else if (!It->second.empty() && It->second != actionOf(D)) {
      if (It->second != "safe" && It->second != "unsafe" && It->second != "report")
        fail(Where, "unknown expected action '" + It->second + "' (safe, unsafe or report)");
      else
        fail(Where, "expected a " + It->second + " finding [" + D.RuleId + "], got " +
                        actionOf(D) + By);
    }
    Seen.insert(Line);
  }
  for (const auto &[Line, Ids] : Expect)
    if (Ids.count(RuleId) && !Seen.count(Line))
      fail(Input + ":" + std::to_string(Line),
           "expected a finding [" + RuleId + "], got none" + By);
}

/// The first line's `devport-test:` options.
struct CaseOptions {
  std::optional<TorchVersion> Target;
  /// Run every rule, not only the fixture's.
  bool AllRules = false;
  /// `--device-expression`; empty: the default.
  std::string DeviceExpression;
  /// `lexical-only because <reason>`: the reason; empty when absent.
  std::string LexicalOnly;
};

std::optional<CaseOptions> caseOptions(const std::string &Input, const SourceFile &F) {
  CaseOptions Out;
  llvm::StringRef First = F.lineText(0);
  size_t At = First.find("devport-test:");
  if (At == llvm::StringRef::npos)
    return Out;
  llvm::StringRef Rest = First.substr(At + 13);
  // A marker may follow the options (a finding that starts on line 1).
  Rest = Rest.substr(0, Rest.find("# expect:"));
  size_t Only = Rest.find("lexical-only");
  if (Only != llvm::StringRef::npos) {
    llvm::StringRef Why = Rest.substr(Only + 12).trim();
    if (!Why.consume_front("because ") || Why.trim().empty()) {
      fail(Input, "`lexical-only` needs a reason: `lexical-only because <reason>`");
      return std::nullopt;
    }
    Out.LexicalOnly = Why.trim().str();
    Rest = Rest.substr(0, Only);
  }
  llvm::SmallVector<llvm::StringRef, 4> Opts;
  Rest.split(Opts, ' ', -1, false);
  for (llvm::StringRef Opt : Opts) {
    if (Opt.consume_front("target-torch=")) {
      auto V = TorchVersion::parse(Opt);
      if (!V) {
        fail(Input, "bad devport-test target-torch");
        return std::nullopt;
      }
      Out.Target = *V;
    } else if (Opt == "rules=all") {
      Out.AllRules = true;
    } else if (Opt.consume_front("device-expression=") && !Opt.empty()) {
      Out.DeviceExpression = Opt.str();
    } else {
      fail(Input, "unknown devport-test option '" + Opt.str() + "'");
      return std::nullopt;
    }
  }
  return Out;
}

/// The rules a case runs: RuleId alone, or every rule.
std::optional<RuleSet> caseRules(const std::string &Input, const RuleSet &Rules,
                                 const std::string &RuleId, const CaseOptions &O) {
  auto Picked = O.AllRules ? Rules.filtered({}, {}) : Rules.filtered({RuleId}, {});
  if (!Picked) {
    fail(Input, llvm::toString(Picked.takeError()));
    return std::nullopt;
  }
  return std::move(*Picked);
}

/// An input file and its options; nullopt (after a failure) when either
/// cannot be read.
struct CaseInput {
  SourceFile File;
  CaseOptions Opts;
};

std::optional<CaseInput> readCase(const std::string &Input) {
  auto F = SourceFile::read(Input);
  if (!F) {
    fail(Input, llvm::toString(F.takeError()));
    return std::nullopt;
  }
  auto O = caseOptions(Input, *F);
  if (!O)
    return std::nullopt;
  return CaseInput{std::move(*F), std::move(*O)};
}

/// The engine options of a case: every fix applied, the case's target.
EngineOptions caseEngineOptions(const CaseOptions &O,
                                std::shared_ptr<const BackendTable> Backends) {
  EngineOptions EO;
  EO.Backends = std::move(Backends);
  EO.UnsafeFixes = true;
  if (O.Target)
    EO.Target = *O.Target;
  if (!O.DeviceExpression.empty())
    EO.DeviceExpression = O.DeviceExpression;
  return EO;
}

/// What a case checks of a check: rule ID's findings, or its keep matches
/// for a keep rule.
std::vector<Diagnostic> ofRule(CheckResult All, const Rule &R) {
  std::vector<Diagnostic> Out;
  for (Diagnostic &D : R.Kind == RuleKind::Keep ? All.Kept : All.Findings)
    if (D.RuleId == R.Id)
      Out.push_back(std::move(D));
  return Out;
}

/// The engine of a case: the rules it picks, with EO; null (the failure
/// reported) where they cannot be had.
std::unique_ptr<Engine> caseEngine(const std::string &Input, const RuleSet &Rules,
                                   const std::string &RuleId, const CaseOptions &O,
                                   const EngineOptions &EO) {
  auto Picked = caseRules(Input, Rules, RuleId, O);
  if (!Picked)
    return nullptr;
  auto E = Engine::create(std::move(*Picked), EO);
  if (!E) {
    fail(Input, llvm::toString(E.takeError()));
    return nullptr;
  }
  return std::move(*E);
}

/// Without --unsafe-fixes, `fix` leaves what `check` reports as unsafe or
/// without a fix as it is: each such finding (every rule of the case) is
/// found again, with its text, in the fixed text (or kept there). Its
/// review read the code before any fix; later rounds of the same run, and
/// later runs, read the code that the safe fixes ported, and must not take
/// that for portable code (a guard of `torch.cuda.reset_peak_memory_stats()`
/// once that call says torch.accelerator).
void checkSafeFixesKeepTheRest(const std::string &Input, const SourceFile &Shown,
                               const RuleSet &Rules, const std::string &RuleId,
                               const CaseOptions &O, EngineOptions EO) {
  EO.UnsafeFixes = false;
  std::unique_ptr<Engine> E = caseEngine(Input, Rules, RuleId, O, EO);
  if (!E)
    return;
  auto KeyOf = [](const SourceFile &F, const std::string &Rule, ByteRange R) {
    return Rule + " `" + F.text().slice(R.Begin, R.End).str() + "`";
  };
  auto Safe = [](const Diagnostic &D) {
    return llvm::any_of(D.Fixes, [](const Fix &X) { return X.App == Applicability::Safe; });
  };
  std::vector<Diagnostic> Before = E->checkAll(Shown).Findings;
  std::map<std::string, unsigned> Refused;
  for (const Diagnostic &D : Before)
    // Not one that holds a finding the safe fixes change (`torch.ones(2,
    // device=torch.device("cuda")).is_cuda`): its text changes with it.
    if (!Safe(D) && llvm::none_of(Before, [&](const Diagnostic &In) {
          return Safe(In) && D.Range.contains(In.Range) && !(In.Range == D.Range);
        }))
      ++Refused[KeyOf(Shown, D.RuleId, D.Range)];
  if (Refused.empty())
    return;
  // A first run, then a second on what the first wrote.
  FixOutcome Fixed = E->fix(Shown);
  for (int Run = 1; Run <= 2; ++Run) {
    if (Run == 2)
      Fixed = E->fix(SourceFile(Shown.path(), Fixed.Text));
    SourceFile After(Shown.path(), Fixed.Text);
    CheckResult Again = E->checkAll(After);
    std::map<std::string, unsigned> Found;
    for (const Diagnostic &D : Again.Findings)
      ++Found[KeyOf(After, D.RuleId, D.Range)];
    for (const Diagnostic &K : Again.Kept)
      for (const KeptFinding &F : K.Keeps)
        ++Found[KeyOf(After, F.RuleId, F.Range)];
    for (const auto &[Key, Count] : Refused)
      if (Found[Key] < Count)
        fail(Input, std::string(Run == 1 ? "`fix`" : "a second `fix`") + " changed " +
                        std::to_string(Count - Found[Key]) + " of " + std::to_string(Count) + " " +
                        Key + " that check reports as unsafe or without a fix:\n" +
                        unifiedDiff("input", "fixed", Shown.text(), Fixed.Text));
  }
}

void runCase(const RuleSet &Rules, std::shared_ptr<const BackendTable> Backends,
             const std::string &RuleId, const std::string &Dir,
             const std::string &InputName, bool Update) {
  std::string Input = Dir + "/" + InputName;
  llvm::StringRef Stem = llvm::sys::path::stem(InputName); // input or input-<case>
  std::string Case = Stem.drop_front(5).str();             // "" or "-<case>"
  auto C = readCase(Input);
  if (!C)
    return;
  const SourceFile *F = &C->File;
  const CaseOptions *O = &C->Opts;
  EngineOptions EO = caseEngineOptions(*O, std::move(Backends));
  EO.Build.Semantic = false; // the semantic engine is compared separately (--semantic)
  std::unique_ptr<Engine> E = caseEngine(Input, Rules, RuleId, *O, EO);
  if (!E)
    return;
  SourceFile Shown(InputName, F->text().str());
  // The case's own name is its path from its directory, where the modules
  // it imports are (input-triton-project.py's kernelpkg/).
  llvm::SmallString<256> Before;
  llvm::sys::fs::current_path(Before);
  if (std::error_code EC = llvm::sys::fs::set_current_path(Dir)) {
    fail(Input, "cannot enter " + Dir + ": " + EC.message());
    return;
  }
  auto Back = llvm::make_scope_exit([&] { (void)llvm::sys::fs::set_current_path(Before); });
  std::vector<Diagnostic> Diags = ofRule(E->checkAll(Shown), *Rules.find(RuleId));
  checkMarkers(Input, Shown, Diags, expectations(Shown, "expect"), RuleId, "");

  std::string Rendered;
  llvm::raw_string_ostream OS(Rendered);
  for (const Diagnostic &D : Diags)
    renderText(OS, Shown, D);
  OS.flush();
  golden(Dir + "/expected" + Case + ".diag.txt", Rendered, Update);

  FixOutcome Fixed = E->fix(Shown);
  if (!Fixed.Converged)
    fail(Input, "fixes did not converge");
  for (const DroppedFix &Dr : Fixed.Dropped)
    fail(Input, "dropped fix: " + std::to_string(Dr.At.Line) + ":" + std::to_string(Dr.At.Column) +
                    ": " + Dr.RuleId + ": " + Dr.Reason);
  golden(Dir + "/expected" + Case + ".fixed" + llvm::sys::path::extension(InputName).str(),
         Fixed.Text, Update);

  SourceFile Again(InputName, Fixed.Text);
  FixOutcome Twice = E->fix(Again);
  if (Twice.Text != Fixed.Text)
    fail(Input, "a second fix changed the text again:\n" +
                    unifiedDiff("first", "second", Fixed.Text, Twice.Text));
  checkSafeFixesKeepTheRest(Input, Shown, Rules, RuleId, *O, EO);
}

//===----------------------------------------------------------------------===//
// The semantic half (--semantic)
//===----------------------------------------------------------------------===//

/// The C++ backend, recording what its matching says about each file: the
/// file-level notes (a semantic run that fell back to the lexical engine
/// says so there, even in a file without findings) and how many matches the
/// semantic engine made. The runner is single-threaded.
class RecordingBackend final : public LanguageBackend {
public:
  struct Record {
    std::vector<Note> Notes;
    unsigned SemanticMatches = 0;
  };

  explicit RecordingBackend(const LanguageBackend &Inner) : Inner(Inner) {}

  llvm::StringRef language() const override { return Inner.language(); }
  bool handlesPath(llvm::StringRef Path) const override { return Inner.handlesPath(Path); }
  llvm::StringRef commentMarker() const override { return Inner.commentMarker(); }
  llvm::Expected<std::unique_ptr<CompiledRules>>
  compile(const RuleSet &Rules, const BackendOptions &Opts) const override {
    auto C = Inner.compile(Rules, Opts);
    if (!C)
      return C.takeError();
    return std::make_unique<Recording>(std::move(*C), Seen);
  }
  std::unique_ptr<ParsedFile> parse(llvm::StringRef Text, const ParsedFile *Previous,
                                    llvm::ArrayRef<Edit> Edits) const override {
    return Inner.parse(Text, Previous, Edits);
  }
  std::unique_ptr<ParsedFile> parseFile(llvm::StringRef Path, llvm::StringRef Text,
                                        const ParsedFile *Previous,
                                        llvm::ArrayRef<Edit> Edits) const override {
    return Inner.parseFile(Path, Text, Previous, Edits);
  }
  BuiltFix buildFix(const ParsedFile &P, const MatchResults &Found, const Match &M,
                    const FixRequest &Req) const override {
    return Inner.buildFix(P, Found, M, Req);
  }
  void reviewFixes(const ParsedFile &P, std::vector<Diagnostic> &Findings,
                   std::vector<Diagnostic> &Kept, const BackendOptions &Opts) const override {
    Inner.reviewFixes(P, Findings, Kept, Opts);
  }
  std::vector<Edit> unusedImportEdits(const ParsedFile &Before,
                                      const ParsedFile &After) const override {
    return Inner.unusedImportEdits(Before, After);
  }

  /// What the matching since the last take() recorded.
  Record take() const { return std::exchange(Seen, Record()); }

private:
  class Recording final : public CompiledRules {
  public:
    Recording(std::unique_ptr<CompiledRules> Inner, Record &Seen)
        : Inner(std::move(Inner)), Seen(Seen) {}
    bool mayMatch(llvm::StringRef Text) const override { return Inner->mayMatch(Text); }
    MatchResults match(const ParsedFile &P) const override {
      MatchResults R = Inner->match(P);
      Seen.Notes.insert(Seen.Notes.end(), R.Notes.begin(), R.Notes.end());
      for (const Match &M : R.Matches)
        Seen.SemanticMatches += M.Engine == "semantic";
      return R;
    }

  private:
    std::unique_ptr<CompiledRules> Inner;
    Record &Seen;
  };

  const LanguageBackend &Inner;
  mutable Record Seen;
};

/// A temporary directory, removed with its files at the end of the scope.
struct TempDir {
  std::string Path;
  TempDir() {
    llvm::SmallString<128> P;
    if (!llvm::sys::fs::createUniqueDirectory("devport-fixture", P))
      Path = P.str().str();
  }
  ~TempDir() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
};

/// A compile_commands.json in Dir that compiles File (absolute) as a
/// libtorch extension does, against the headers in Include.
bool writeDatabase(const std::string &Dir, const std::string &File, const std::string &Include) {
  llvm::json::Array Args{"clang++", "-std=c++17", "-isystem", Include, "-isystem",
                         Include + "/torch/csrc/api/include", "-c", File};
  llvm::json::Array DB{llvm::json::Object{
      {"directory", Dir}, {"arguments", std::move(Args)}, {"file", File}}};
  std::error_code EC;
  llvm::raw_fd_ostream OS(Dir + "/compile_commands.json", EC);
  if (EC)
    return false;
  OS << llvm::json::Value(std::move(DB));
  return true;
}

/// One line per finding or keep match, for comparing the engines: place,
/// rule, action, each fix's edits; a keep match's kept findings.
std::string describe(const SourceFile &F, const Diagnostic &D) {
  auto Place = [&](ByteRange R) {
    LineColumn B = F.byteLineColumn(R.Begin), E = F.byteLineColumn(R.End);
    return std::to_string(B.Line) + ":" + std::to_string(B.Column) + "-" +
           std::to_string(E.Line) + ":" + std::to_string(E.Column);
  };
  std::string S = Place(D.Range) + " [" + D.RuleId + "] " + actionOf(D);
  for (const Fix &X : D.Fixes) {
    S += X.App == Applicability::Safe     ? " fix(safe):"
         : X.App == Applicability::Unsafe ? " fix(unsafe):"
                                          : " fix(display-only):";
    for (const Edit &Ed : X.Edits)
      S += " " + Place(Ed.Range) + " -> `" + Ed.Replacement + "`";
  }
  for (const KeptFinding &K : D.Keeps)
    S += " keeps [" + K.RuleId + "] " + Place(K.Range);
  return S;
}

/// Lines describing All (findings, then keep matches), but for the
/// findings on the lines in Skip.
std::vector<std::string> describeAll(const SourceFile &F, const CheckResult &All,
                                     const Expectations &Skip) {
  std::vector<std::string> Out;
  for (const auto *List : {&All.Findings, &All.Kept})
    for (const Diagnostic &D : *List) {
      if (Skip.count(F.lineOf(D.Range.Begin) + 1))
        continue;
      Diagnostic Shown = D;
      Shown.Keeps.erase(std::remove_if(Shown.Keeps.begin(), Shown.Keeps.end(),
                                       [&](const KeptFinding &K) {
                                         return Skip.count(F.lineOf(K.Range.Begin) + 1);
                                       }),
                        Shown.Keeps.end());
      Out.push_back((List == &All.Kept ? "kept " : "") + describe(F, Shown));
    }
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// The descriptions of All's findings, keep matches and kept findings on
/// Line.
std::vector<std::string> describeLine(const SourceFile &F, const CheckResult &All,
                                      unsigned Line) {
  auto On = [&](ByteRange R) { return F.lineOf(R.Begin) + 1 == Line; };
  std::vector<std::string> Out;
  for (const auto *List : {&All.Findings, &All.Kept})
    for (const Diagnostic &D : *List) {
      if (On(D.Range))
        Out.push_back(describe(F, D));
      for (const KeptFinding &K : D.Keeps)
        if (On(K.Range))
          Out.push_back("kept [" + K.RuleId + "] by [" + D.RuleId + "]");
    }
  std::sort(Out.begin(), Out.end());
  return Out;
}

void runSemanticCase(const RuleSet &Rules, std::shared_ptr<const BackendTable> Backends,
                     const std::string &RuleId, const std::string &Dir,
                     const std::string &InputName, const std::string &Include) {
  std::string Input = Dir + "/" + InputName;
  auto C = readCase(Input);
  if (!C)
    return;
  const SourceFile *F = &C->File;
  const CaseOptions *O = &C->Opts;
  const LanguageBackend *Cpp = nullptr;
  for (const LanguageBackend *B : defaultBackends())
    if (B->language() == "cpp")
      Cpp = B;
  if (!Cpp->handlesPath(Input))
    return; // Python
  if (!O->LexicalOnly.empty()) {
    llvm::outs() << Input << ": lexical only, because " << O->LexicalOnly << "\n";
    return;
  }
  if (cpp::isCudaRolePath(Input)) {
    llvm::outs() << Input << ": a CUDA-role file: the semantic engine does not run on it\n";
    return;
  }
  auto Picked = caseRules(Input, Rules, RuleId, *O);
  if (!Picked)
    return;
  if (llvm::none_of(Picked->rules(), [](const auto &R) {
        return R->Language == "cpp" && R->Kind == RuleKind::Finding && !R->Matcher.Text.empty();
      })) {
    llvm::outs() << Input
                 << ": no rule with a `matcher:`: the semantic engine has nothing to run\n";
    return;
  }
  llvm::SmallString<256> Abs(Input);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  TempDir Tmp;
  if (Tmp.Path.empty() || !writeDatabase(Tmp.Path, Abs.str().str(), Include)) {
    fail(Input, "cannot write a compile_commands.json in a temporary directory");
    return;
  }

  // Both engines over the same text: the lexical one, and the semantic one
  // through the recording backend.
  EngineOptions EO = caseEngineOptions(*O, std::move(Backends));
  SourceFile Shown(Abs.str().str(), F->text().str());
  EO.Build.Semantic = false;
  auto Lexical = Engine::create(*Picked, EO);
  EO.Build.Semantic = true;
  EO.Build.CompileCommandsDir = Tmp.Path;
  RecordingBackend Recorder(*Cpp);
  std::vector<const LanguageBackend *> With;
  for (const LanguageBackend *B : defaultBackends())
    With.push_back(B == Cpp ? &Recorder : B);
  auto Semantic = Engine::create(std::move(*Picked), EO, With);
  if (!Lexical || !Semantic) {
    fail(Input, llvm::toString(Lexical ? Semantic.takeError() : Lexical.takeError()));
    return;
  }
  CheckResult Lex = (*Lexical)->checkAll(Shown);
  auto Start = std::chrono::steady_clock::now();
  CheckResult Sem = (*Semantic)->checkAll(Shown);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  RecordingBackend::Record Seen = Recorder.take();

  for (const Note &N : Seen.Notes)
    fail(Input, "the semantic engine did not run: " + N.Text +
                    " (an input that cannot compile says `lexical-only because <reason>`)");
  if (Seen.Notes.empty() && Seen.SemanticMatches == 0)
    fail(Input, "the semantic engine matched nothing: a semantic case needs a match of a rule "
                "with a `matcher:`, or it cannot tell a run from none");

  // Markers: the semantic ones replace the lexical ones on their lines.
  std::set<unsigned> Reasons;
  Expectations Differ = expectations(Shown, "expect-semantic", &Reasons);
  Expectations Expect = expectations(Shown, "expect");
  for (const auto &[Line, Ids] : Differ) {
    Expect[Line] = Ids;
    std::string Where = Input + ":" + std::to_string(Line);
    if (!Reasons.count(Line))
      fail(Where, "`expect-semantic:` needs a reason after ` -- `");
    if (describeLine(Shown, Lex, Line) == describeLine(Shown, Sem, Line))
      fail(Where, "`expect-semantic:` says the engines differ here, but they agree: remove it");
  }
  checkMarkers(Input, Shown, ofRule(Sem, *Rules.find(RuleId)), Expect, RuleId, "semantic");

  // Everywhere else the two engines agree.
  std::vector<std::string> L = describeAll(Shown, Lex, Differ),
                           S = describeAll(Shown, Sem, Differ);
  std::vector<std::string> OnlyLex, OnlySem;
  std::set_difference(L.begin(), L.end(), S.begin(), S.end(), std::back_inserter(OnlyLex));
  std::set_difference(S.begin(), S.end(), L.begin(), L.end(), std::back_inserter(OnlySem));
  for (const std::string &X : OnlyLex)
    fail(Input, "only the lexical engine: " + X);
  for (const std::string &X : OnlySem)
    fail(Input, "only the semantic engine: " + X);
  llvm::outs() << Input << ": semantic run in " << llvm::format("%.1f", Seconds) << " s, "
               << Seen.SemanticMatches << " semantic match(es)\n";
}

} // namespace

int main(int Argc, char **Argv) {
  std::string RulesDir, RuleId, Dir, Include;
  bool Semantic = false;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--rules" && I + 1 < Argc)
      RulesDir = Argv[++I];
    else if (A == "--rule" && I + 1 < Argc)
      RuleId = Argv[++I];
    else if (A == "--semantic" && I + 1 < Argc)
      Semantic = true, Include = Argv[++I];
    else
      Dir = A.str();
  }
  if (RulesDir.empty() || RuleId.empty() || Dir.empty()) {
    llvm::errs() << "usage: devport-fixture --rules DIR --rule ID [--semantic TORCH_INCLUDE] "
                    "FIXTURE_DIR\n";
    return 2;
  }
  // runCase() checks each case from its directory: the paths it keeps must
  // not depend on where the runner started.
  llvm::SmallString<256> AbsoluteDir(Dir);
  llvm::sys::fs::make_absolute(AbsoluteDir);
  Dir = std::string(AbsoluteDir);
  if (Semantic && !llvm::sys::fs::exists(Include + "/c10/core/DeviceType.h")) {
    llvm::outs() << "skipped: no PyTorch headers in " << Include
                 << " (scripts/bootstrap.sh unpacks them): the semantic half of the fixtures "
                    "does not run\n";
    return 77;
  }
  auto Rules = RuleSet::loadDirectory(RulesDir);
  auto Backends = loadBackendTable();
  if (!Backends) {
    llvm::errs() << llvm::toString(Backends.takeError()) << "\n";
    return 2;
  }
  if (!Rules) {
    llvm::errs() << llvm::toString(Rules.takeError()) << "\n";
    return 2;
  }
  if (!Rules->find(RuleId)) {
    llvm::errs() << Dir << ": no rule '" << RuleId << "' in " << RulesDir << "\n";
    return 1;
  }
  const char *U = std::getenv("UPDATE_GOLDEN");
  bool Update = U && *U && std::string(U) != "0";
  std::vector<std::string> Inputs;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    llvm::StringRef Ext = llvm::sys::path::extension(Name);
    if (Name.startswith("input") &&
        (Ext == ".py" || Ext == ".cpp" || Ext == ".cu" || Ext == ".h" || Ext == ".cc"))
      Inputs.push_back(Name.str());
  }
  std::sort(Inputs.begin(), Inputs.end());
  if (Inputs.empty()) {
    llvm::errs() << Dir << ": no input*.py or input*.cpp\n";
    return 1;
  }
  for (const std::string &In : Inputs)
    if (Semantic)
      runSemanticCase(*Rules, *Backends, RuleId, Dir, In, Include);
    else
      runCase(*Rules, *Backends, RuleId, Dir, In, Update);
  if (Failures) {
    llvm::errs() << Failures << " failure(s)\n";
    return 1;
  }
  llvm::outs() << Inputs.size() << " case(s) passed for " << RuleId
               << (Semantic ? " (semantic engine)" : "") << "\n";
  return 0;
}
