//===--- FixtureRunner.cpp - Golden tests for one rule --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// devport-fixture --rules DIR --rule ID FIXTURE_DIR
///
/// Runs rule ID alone over every FIXTURE_DIR/input*.{py,cpp,cc,cu,h} and checks:
///   - each finding sits on a line marked `# expect: ID` (C++: `// expect: ID`) and each marked line
///     has a finding (unmarked code is an implicit negative);
///   - the rendered findings equal expected*.diag.txt;
///   - the fixed text (every fix applied, unsafe ones too) equals
///     expected*.fixed.<ext of the input>, and fixing it again changes nothing.
/// input-<case>.py pairs with expected-<case>.{diag.txt,fixed.py}. A first
/// line `# devport-test: OPTION...` sets options: `target-torch=X.Y` the
/// target release, `rules=all` runs every rule (the findings of rule ID are
/// checked; the fixed text has every rule's fixes), for what depends on the
/// other rules' fixes, such as a guard and its block.
/// A marker may state the expected action, `# expect: ID:ACTION`, ACTION one
/// of `safe` (a safe fix), `unsafe` (the fix needs --unsafe-fixes) or
/// `report` (no fix); text after ` -- ` is a reason for the reader.
/// UPDATE_GOLDEN=1 rewrites the goldens instead of comparing.
///
//===----------------------------------------------------------------------===//

#include "core/Rule.h"
#include "core/SourceFile.h"
#include "engine/Engine.h"
#include "engine/Project.h"
#include "report/Render.h"
#include "rewriters/UnifiedDiff.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

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

/// 1-based line -> rule id -> expected action ("" when not stated), from
/// `# expect: a, b:unsafe -- reason` on that line.
std::map<unsigned, std::map<std::string, std::string>> expectations(const SourceFile &F) {
  std::map<unsigned, std::map<std::string, std::string>> Out;
  for (unsigned L = 0; L < F.lineCount(); ++L) {
    llvm::StringRef T = F.lineText(L);
    size_t At = T.find("# expect:");
    size_t Skip = 9;
    if (At == llvm::StringRef::npos) {
      At = T.find("// expect:");
      Skip = 10;
    }
    if (At == llvm::StringRef::npos)
      continue;
    llvm::StringRef Body = T.substr(At + Skip);
    Body = Body.substr(0, Body.find(" -- "));
    llvm::SmallVector<llvm::StringRef, 4> Ids;
    Body.split(Ids, ',', -1, false);
    for (llvm::StringRef Id : Ids) {
      auto [Name, Action] = Id.trim().split(':');
      if (!Name.trim().empty())
        Out[L + 1][Name.trim().str()] = Action.trim().str();
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

void runCase(const RuleSet &Rules, std::shared_ptr<const BackendTable> Backends,
             const std::string &RuleId, const std::string &Dir,
             const std::string &InputName, bool Update) {
  std::string Input = Dir + "/" + InputName;
  llvm::StringRef Stem = llvm::sys::path::stem(InputName); // input or input-<case>
  std::string Case = Stem.drop_front(5).str();             // "" or "-<case>"
  auto F = SourceFile::read(Input);
  if (!F) {
    fail(Input, llvm::toString(F.takeError()));
    return;
  }
  EngineOptions EO;
  EO.Backends = std::move(Backends);
  EO.UnsafeFixes = true;
  EO.Build.Semantic = false; // the semantic engine is compared separately
  bool AllRules = false;
  llvm::StringRef First = F->lineText(0);
  size_t At = First.find("devport-test:");
  if (At != llvm::StringRef::npos) {
    llvm::SmallVector<llvm::StringRef, 4> Opts;
    First.substr(At + 13).split(Opts, ' ', -1, false);
    for (llvm::StringRef Opt : Opts) {
      if (Opt.consume_front("target-torch=")) {
        auto V = TorchVersion::parse(Opt);
        if (!V) {
          fail(Input, "bad devport-test target-torch");
          return;
        }
        EO.Target = *V;
      } else if (Opt == "rules=all") {
        AllRules = true;
      } else {
        fail(Input, "unknown devport-test option '" + Opt.str() + "'");
        return;
      }
    }
  }
  auto Picked = AllRules ? Rules.filtered({}, {}) : Rules.filtered({RuleId}, {});
  if (!Picked) {
    fail(Input, llvm::toString(Picked.takeError()));
    return;
  }
  auto E = Engine::create(std::move(*Picked), EO);
  if (!E) {
    fail(Input, llvm::toString(E.takeError()));
    return;
  }
  SourceFile Shown(InputName, F->text().str());
  // A keep rule's fixture checks what it keeps.
  CheckResult All = (*E)->checkAll(Shown);
  bool IsKeep = Rules.find(RuleId)->Kind == RuleKind::Keep;
  std::vector<Diagnostic> Diags;
  for (Diagnostic &D : IsKeep ? All.Kept : All.Findings)
    if (D.RuleId == RuleId)
      Diags.push_back(std::move(D));

  // Markers.
  auto Expect = expectations(Shown);
  std::map<unsigned, unsigned> Seen;
  for (const Diagnostic &D : Diags) {
    unsigned Line = Shown.lineOf(D.Range.Begin) + 1;
    std::string Where = Input + ":" + std::to_string(Line);
    auto It = Expect[Line].find(D.RuleId);
    if (It == Expect[Line].end()) {
      fail(Where, "unexpected finding [" + D.RuleId + "]");
    } else if (!It->second.empty() && It->second != actionOf(D)) {
      if (It->second != "safe" && It->second != "unsafe" && It->second != "report")
        fail(Where, "unknown expected action '" + It->second + "' (safe, unsafe or report)");
      else
        fail(Where, "expected a " + It->second + " finding [" + D.RuleId + "], got " +
                        actionOf(D));
    }
    ++Seen[Line];
  }
  for (const auto &[Line, Ids] : Expect)
    if (Ids.count(RuleId) && !Seen.count(Line))
      fail(Input + ":" + std::to_string(Line), "expected a finding [" + RuleId + "], got none");

  std::string Rendered;
  llvm::raw_string_ostream OS(Rendered);
  for (const Diagnostic &D : Diags)
    renderText(OS, Shown, D);
  OS.flush();
  golden(Dir + "/expected" + Case + ".diag.txt", Rendered, Update);

  FixOutcome Fixed = (*E)->fix(Shown);
  if (!Fixed.Converged)
    fail(Input, "fixes did not converge");
  for (const DroppedFix &Dr : Fixed.Dropped)
    fail(Input, "dropped fix: " + std::to_string(Dr.At.Line) + ":" + std::to_string(Dr.At.Column) +
                    ": " + Dr.RuleId + ": " + Dr.Reason);
  golden(Dir + "/expected" + Case + ".fixed" + llvm::sys::path::extension(InputName).str(),
         Fixed.Text, Update);

  SourceFile Again(InputName, Fixed.Text);
  FixOutcome Twice = (*E)->fix(Again);
  if (Twice.Text != Fixed.Text)
    fail(Input, "a second fix changed the text again:\n" +
                    unifiedDiff("first", "second", Fixed.Text, Twice.Text));
}

} // namespace

int main(int Argc, char **Argv) {
  std::string RulesDir, RuleId, Dir;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--rules" && I + 1 < Argc)
      RulesDir = Argv[++I];
    else if (A == "--rule" && I + 1 < Argc)
      RuleId = Argv[++I];
    else
      Dir = A.str();
  }
  if (RulesDir.empty() || RuleId.empty() || Dir.empty()) {
    llvm::errs() << "usage: devport-fixture --rules DIR --rule ID FIXTURE_DIR\n";
    return 2;
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
    runCase(*Rules, *Backends, RuleId, Dir, In, Update);
  if (Failures) {
    llvm::errs() << Failures << " failure(s)\n";
    return 1;
  }
  llvm::outs() << Inputs.size() << " case(s) passed for " << RuleId << "\n";
  return 0;
}
