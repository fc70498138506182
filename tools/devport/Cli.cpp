//===--- Cli.cpp - The devport command line -------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tools/devport/Cli.h"

#include "core/Config.h"
#include "core/Engine.h"
#include "core/Rule.h"
#include "core/SourceFile.h"
#include "core/Workspace.h"
#include "rewriters/AtomicWrite.h"
#include "rewriters/UnifiedDiff.h"
#include "tools/devport/EmbeddedRules.h"
#include "tools/devport/Output.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <optional>

#ifndef DEVPORT_VERSION
#define DEVPORT_VERSION "0.0.0"
#endif

namespace devport {
namespace {

const char *const Usage = R"(devport: make PyTorch code device-agnostic

usage: devport check [options] [PATH...]      report hardcoded device references
       devport fix   [options] [PATH...]      rewrite them (safe fixes by default)
       devport rules [--format text|json]     list the rules
       devport explain RULE                   describe one rule
       devport --version | --help

PATH is a file or directory (default: the current directory); `-` reads standard
input (name it with --stdin-filename; `fix -` writes the fixed text to stdout).

options:
  --format text|json        output format (default: text)
  --select ID,...           only these rules or categories (repeatable)
  --ignore ID,...           not these rules or categories (repeatable)
  --target-torch X.Y        PyTorch release the fixes must run on (default: 2.9)
  --device-expression EXPR  the device that fixes use (default:
                            torch.accelerator.current_accelerator())
  --device-type-expression EXPR
                            its type string (default: EXPR.type)
  --exclude GLOB            skip matching files and directories (repeatable)
  --no-gitignore            do not honour .gitignore files
  --stdin-filename NAME     path shown for `-` (default: <stdin>)
  --rules DIR               load the rule database from DIR instead of the built-in one
  --config FILE             settings for every file (default: the nearest .devport.yaml
                            above each file)
  --threads N               worker threads (default: all cores; 1: none)
  --show-kept               also list code that keep rules account for (must stay CUDA)
fix only:
  --diff                    print a unified diff and write nothing
  --unsafe-fixes            also apply fixes marked unsafe

exit status: 0 nothing found / nothing left to fix; 1 findings (or findings left,
a non-empty --diff, a file that could not be checked); 2 usage, configuration or
rule-file error.
)";

enum class Command { Check, Fix, Rules, Explain };
enum class Format { Text, Json };

struct Options {
  Command Cmd = Command::Check;
  Format Fmt = Format::Text;
  std::vector<std::string> Paths;
  std::vector<std::string> Select, Ignore, Excludes;
  std::optional<TorchVersion> Target;
  std::string StdinFilename = "<stdin>";
  std::string RulesDir;
  std::string ConfigFile;
  std::string DeviceExpression, DeviceTypeExpression;
  unsigned Threads = 0;
  bool Diff = false;
  bool UnsafeFixes = false;
  bool RespectGitignore = true;
  bool ShowKept = false;
};

void splitList(llvm::StringRef V, std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  V.split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
}

/// Parses argv[1..]; returns nullopt and sets Err on a usage problem.
std::optional<Options> parseArgs(llvm::ArrayRef<const char *> Args, std::string &Err,
                                 bool &WantHelp, bool &WantVersion) {
  Options O;
  WantHelp = WantVersion = false;
  if (Args.empty()) {
    Err = "no command given";
    return std::nullopt;
  }
  llvm::StringRef Cmd = Args.front();
  if (Cmd == "--help" || Cmd == "-h" || Cmd == "help") {
    WantHelp = true;
    return O;
  }
  if (Cmd == "--version") {
    WantVersion = true;
    return O;
  }
  if (Cmd == "check")
    O.Cmd = Command::Check;
  else if (Cmd == "fix")
    O.Cmd = Command::Fix;
  else if (Cmd == "rules")
    O.Cmd = Command::Rules;
  else if (Cmd == "explain")
    O.Cmd = Command::Explain;
  else {
    Err = "unknown command '" + Cmd.str() + "'";
    return std::nullopt;
  }
  bool OnlyPaths = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (OnlyPaths || A == "-" || !A.startswith("-")) {
      O.Paths.push_back(A.str());
      continue;
    }
    if (A == "--") {
      OnlyPaths = true;
      continue;
    }
    std::pair<llvm::StringRef, llvm::StringRef> NV = A.split('=');
    llvm::StringRef Name = NV.first, Inline = NV.second;
    bool HasInline = A.contains('=');
    auto Value = [&](std::string &Out) -> bool {
      if (HasInline) {
        Out = Inline.str();
        return true;
      }
      if (I + 1 >= Args.size()) {
        Err = "option '" + Name.str() + "' needs a value";
        return false;
      }
      Out = Args[++I];
      return true;
    };
    auto Flag = [&](bool &Out) -> bool {
      if (HasInline) {
        Err = "option '" + Name.str() + "' takes no value";
        return false;
      }
      Out = true;
      return true;
    };
    std::string V;
    if (Name == "--help" || Name == "-h") {
      WantHelp = true;
      return O;
    } else if (Name == "--format") {
      if (!Value(V))
        return std::nullopt;
      if (V == "text")
        O.Fmt = Format::Text;
      else if (V == "json")
        O.Fmt = Format::Json;
      else {
        Err = "unknown format '" + V + "' (expected text or json)";
        return std::nullopt;
      }
    } else if (Name == "--select" || Name == "--ignore" || Name == "--exclude") {
      if (!Value(V))
        return std::nullopt;
      if (Name == "--exclude")
        O.Excludes.push_back(V);
      else
        splitList(V, Name == "--select" ? O.Select : O.Ignore);
    } else if (Name == "--target-torch") {
      if (!Value(V))
        return std::nullopt;
      O.Target = TorchVersion::parse(V);
      if (!O.Target) {
        Err = "invalid --target-torch '" + V + "' (expected MAJOR.MINOR, e.g. 2.7)";
        return std::nullopt;
      }
    } else if (Name == "--stdin-filename") {
      if (!Value(O.StdinFilename))
        return std::nullopt;
    } else if (Name == "--device-expression" || Name == "--device-type-expression") {
      if (!Value(V))
        return std::nullopt;
      if (llvm::StringRef(V).trim().empty() || V.find('\n') != std::string::npos) {
        Err = "option '" + Name.str() + "' needs a one-line Python expression";
        return std::nullopt;
      }
      (Name == "--device-expression" ? O.DeviceExpression : O.DeviceTypeExpression) = V;
    } else if (Name == "--rules") {
      if (!Value(O.RulesDir))
        return std::nullopt;
    } else if (Name == "--config") {
      if (!Value(O.ConfigFile))
        return std::nullopt;
    } else if (Name == "--threads") {
      if (!Value(V))
        return std::nullopt;
      if (llvm::StringRef(V).getAsInteger(10, O.Threads) || O.Threads > 1024) {
        Err = "invalid --threads '" + V + "' (expected a number from 0 to 1024)";
        return std::nullopt;
      }
    } else if (Name == "--no-gitignore") {
      bool B;
      if (!Flag(B))
        return std::nullopt;
      O.RespectGitignore = false;
    } else if (Name == "--show-kept") {
      if (!Flag(O.ShowKept))
        return std::nullopt;
    } else if (Name == "--diff" && O.Cmd == Command::Fix) {
      if (!Flag(O.Diff))
        return std::nullopt;
    } else if (Name == "--unsafe-fixes" && O.Cmd == Command::Fix) {
      if (!Flag(O.UnsafeFixes))
        return std::nullopt;
    } else {
      Err = "unknown option '" + Name.str() + "' for '" + Cmd.str() + "'";
      return std::nullopt;
    }
  }
  if (O.Cmd == Command::Explain && O.Paths.size() != 1) {
    Err = "explain takes exactly one rule id";
    return std::nullopt;
  }
  if (O.Cmd == Command::Rules && !O.Paths.empty()) {
    Err = "rules takes no paths";
    return std::nullopt;
  }
  if (llvm::is_contained(O.Paths, "-") && O.Paths.size() != 1) {
    Err = "`-` (standard input) cannot be combined with other paths";
    return std::nullopt;
  }
  return O;
}

llvm::Expected<RuleSet> loadRules(const Options &O) {
  if (!O.RulesDir.empty())
    return RuleSet::loadDirectory(O.RulesDir);
  RuleSet All;
  for (const EmbeddedRuleFile *E = EmbeddedRuleFiles; E->Path; ++E) {
    auto One = RuleSet::loadBuffer(E->Path, E->Text);
    if (!One)
      return One.takeError();
    if (auto Err = All.merge(std::move(*One)))
      return std::move(Err);
  }
  return All;
}

/// What happened to one file.
struct FileResult {
  std::optional<SourceFile> File;
  std::string Error; ///< Could not be read or written.
  std::vector<Diagnostic> Diags;
  std::vector<Diagnostic> Kept;
  std::optional<FixOutcome> Fixed;
  const Engine *Eng = nullptr; ///< The engine of the file's configuration.
  bool Written = false;
};

class Runner {
public:
  Runner(const Options &O, CliIO &IO) : O(O), IO(IO) {}

  int run() {
    if (O.Cmd == Command::Rules || O.Cmd == Command::Explain)
      return listOrExplain();
    auto Base = loadRules(O);
    if (!Base) {
      IO.Err << "devport: error: " << llvm::toString(Base.takeError()) << "\n";
      return ExitUsage;
    }
    BaseRules = std::move(*Base);
    if (!O.ConfigFile.empty() && !llvm::sys::fs::is_regular_file(O.ConfigFile)) {
      IO.Err << "devport: error: " << O.ConfigFile << ": config file not found\n";
      return ExitUsage;
    }
    Configs = std::make_unique<ConfigCache>(O.ConfigFile);
    if (O.Paths.size() == 1 && O.Paths.front() == "-")
      return runStdin();
    WorkspaceOptions WO;
    WO.Excludes = O.Excludes;
    WO.RespectGitignore = O.RespectGitignore;
    std::vector<std::string> Roots = O.Paths;
    if (Roots.empty())
      Roots.push_back(".");
    auto Files = collectFiles(Roots, WO);
    if (!Files) {
      IO.Err << "devport: error: " << llvm::toString(Files.takeError()) << "\n";
      return ExitUsage;
    }
    for (const std::string &W : Files->Warnings)
      IO.Err << "devport: warning: " << W << "\n";
    // Each file's configuration and engine, before any work starts.
    std::vector<std::string> Paths;
    std::vector<const Engine *> Engines;
    for (const std::string &P : Files->Files) {
      auto E = engineFor(P);
      if (!E) {
        IO.Err << "devport: error: " << llvm::toString(E.takeError()) << "\n";
        return ExitUsage;
      }
      if (!*E)
        continue; // excluded by its .devport.yaml
      Paths.push_back(P);
      Engines.push_back(*E);
    }
    Results.resize(Paths.size());
    auto Work = [&](size_t I) {
      Results[I].Eng = Engines[I];
      processFile(Paths[I], Results[I]);
    };
    unsigned N = O.Threads == 0 ? llvm::hardware_concurrency().compute_thread_count() : O.Threads;
    if (N <= 1 || Results.size() <= 1) {
      for (size_t I = 0; I < Results.size(); ++I)
        Work(I);
    } else {
      llvm::ThreadPool Pool(llvm::hardware_concurrency(N));
      for (size_t I = 0; I < Results.size(); ++I)
        Pool.async(Work, I);
      Pool.wait();
    }
    return report(Paths.size());
  }

private:
  /// The engine for Path under its configuration: null if the configuration
  /// excludes the file. Engines are shared by the files with the same
  /// configuration and per-file ignores.
  llvm::Expected<const Engine *> engineFor(llvm::StringRef Path, bool HonourExcludes = true) {
    auto C = Configs->forFile(Path);
    if (!C)
      return C.takeError();
    const Config &Cfg = **C;
    if (HonourExcludes && Cfg.excludes(Path))
      return nullptr;
    std::vector<std::string> FileIgnores = Cfg.ignoredFor(Path);
    std::string Key = Cfg.Path + "\n" + llvm::join(FileIgnores, ",");
    auto It = EngineCache.find(Key);
    if (It != EngineCache.end())
      return It->second.get();
    // The rule database of this configuration: the base plus its extra rules.
    auto RIt = RulesByConfig.find(Cfg.Path);
    if (RIt == RulesByConfig.end()) {
      RuleSet Rules;
      if (auto Err = Rules.merge(BaseRules))
        return std::move(Err);
      if (!Cfg.RuleFiles.empty()) {
        std::vector<std::string> Files;
        for (const std::string &F : Cfg.RuleFiles) {
          if (!llvm::sys::fs::is_directory(F)) {
            Files.push_back(F);
            continue;
          }
          auto Dir = RuleSet::loadDirectory(F);
          if (!Dir)
            return Dir.takeError();
          if (auto Err = Rules.merge(std::move(*Dir)))
            return std::move(Err);
        }
        auto Extra = RuleSet::loadFiles(Files);
        if (!Extra)
          return Extra.takeError();
        if (auto Err = Rules.merge(std::move(*Extra)))
          return std::move(Err);
      }
      if (auto Err = Cfg.checkNames(Rules))
        return std::move(Err);
      RIt = RulesByConfig.insert({Cfg.Path, std::move(Rules)}).first;
    }
    // Command-line settings win over the file's.
    std::vector<std::string> Select = O.Select, Ignore = O.Ignore;
    if (Select.empty())
      for (const ConfigValue &V : Cfg.Select)
        Select.push_back(V.Text);
    for (const ConfigValue &V : Cfg.Ignore)
      Ignore.push_back(V.Text);
    Ignore.insert(Ignore.end(), FileIgnores.begin(), FileIgnores.end());
    auto Picked = RIt->second.filtered(Select, Ignore);
    if (!Picked)
      return Picked.takeError();
    EngineOptions EO;
    for (const auto &R : RIt->second.rules())
      EO.KnownRuleIds.push_back(R->Id); // sorted: a RuleSet is
    if (O.Target)
      EO.Target = *O.Target;
    else if (Cfg.Target)
      EO.Target = *Cfg.Target;
    EO.UnsafeFixes = O.UnsafeFixes;
    EO.FixDocstrings = Cfg.FixDocstrings;
    if (!O.DeviceExpression.empty())
      EO.DeviceExpression = O.DeviceExpression;
    else if (!Cfg.DeviceExpression.empty())
      EO.DeviceExpression = Cfg.DeviceExpression;
    EO.DeviceTypeExpression =
        !O.DeviceTypeExpression.empty() ? O.DeviceTypeExpression : Cfg.DeviceTypeExpression;
    if (!O.DeviceExpression.empty() && O.DeviceTypeExpression.empty())
      EO.DeviceTypeExpression.clear(); // derived from the command line's expression
    auto E = Engine::create(std::move(*Picked), EO);
    if (!E)
      return E.takeError();
    const Engine *Ptr = E->get();
    EngineCache[Key] = std::move(*E);
    return Ptr;
  }

  void processFile(const std::string &Path, FileResult &R) {
    auto F = SourceFile::read(Path);
    if (!F) {
      R.Error = llvm::toString(F.takeError());
      return;
    }
    R.File.emplace(std::move(*F));
    process(R);
    if (O.Cmd == Command::Fix && !O.Diff && R.Fixed && R.Fixed->changed(*R.File)) {
      if (auto Err = writeFileAtomically(Path, R.Fixed->Text, R.File->stamp()))
        R.Error = llvm::toString(std::move(Err));
      else
        R.Written = true;
    }
  }

  void process(FileResult &R) {
    if (O.Cmd == Command::Check) {
      CheckResult C = R.Eng->checkAll(*R.File);
      R.Diags = std::move(C.Findings);
      R.Kept = std::move(C.Kept);
    } else {
      R.Fixed = R.Eng->fix(*R.File);
      R.Diags = R.Fixed->Remaining;
    }
  }

  int runStdin() {
    // The configuration is the one that a file of that name would have.
    auto E = engineFor(O.StdinFilename, /*HonourExcludes=*/false);
    if (!E) {
      IO.Err << "devport: error: " << llvm::toString(E.takeError()) << "\n";
      return ExitUsage;
    }
    auto Bytes = IO.ReadStdin();
    Results.resize(1);
    FileResult &R = Results.front();
    R.Eng = *E;
    if (!Bytes) {
      R.Error = O.StdinFilename + ": cannot read standard input: " +
                llvm::toString(Bytes.takeError());
    } else {
      auto F = SourceFile::fromBytes(O.StdinFilename, std::move(*Bytes));
      if (!F)
        R.Error = llvm::toString(F.takeError());
      else {
        R.File.emplace(std::move(*F));
        process(R);
      }
    }
    if (O.Cmd == Command::Fix && !O.Diff && R.File && R.Fixed) {
      // Filter mode: the fixed text goes to stdout, the report to stderr.
      IO.Out << R.Fixed->Text;
      for (const Diagnostic &D : R.Diags)
        renderText(IO.Err, *R.File, D);
      return R.Diags.empty() ? ExitClean : ExitFindings;
    }
    return report(1);
  }

  int report(size_t FileCount) {
    TorchVersion TargetShown = O.Target.value_or(TorchVersion::defaultTarget());
    if (!O.Target)
      for (const FileResult &R : Results)
        if (R.Eng) {
          TargetShown = R.Eng->options().Target;
          break;
        }
    size_t Findings = 0, Fixable = 0, UnsafeFixable = 0, Errors = 0, Applied = 0, Changed = 0,
           KeptCount = 0;
    bool DiffNonEmpty = false;
    llvm::json::Array JDiags, JErrors, JKept;
    for (FileResult &R : Results) {
      if (!R.Error.empty()) {
        ++Errors;
        if (O.Fmt == Format::Json)
          JErrors.push_back(R.Error);
        else
          IO.Err << "devport: error: " << R.Error << "\n";
      }
      if (!R.File)
        continue;
      if (R.Fixed) {
        Applied += R.Fixed->Applied;
        if (R.Fixed->changed(*R.File))
          ++Changed;
        for (const std::string &Dr : R.Fixed->Dropped)
          IO.Err << "devport: warning: " << R.File->path() << ":" << Dr << "\n";
        if (!R.Fixed->Converged)
          IO.Err << "devport: warning: " << R.File->path()
                 << ": fixes did not converge; run `devport fix` again\n";
        if (O.Diff && R.Fixed->changed(*R.File)) {
          DiffNonEmpty = true;
          std::string D = unifiedDiff(R.File->path(), R.File->path(), R.File->text(),
                                      R.Fixed->Text);
          if (O.Fmt == Format::Text)
            IO.Out << D;
        }
      }
      KeptCount += R.Kept.size();
      if (O.ShowKept)
        for (const Diagnostic &K : R.Kept) {
          if (O.Fmt == Format::Json)
            JKept.push_back(diagnosticToJSON(*R.File, K));
          else
            renderText(IO.Out, *R.File, K);
        }
      // With --diff, the remaining findings are what would remain after applying it.
      // Their positions are in the fixed text: index it once per file.
      std::optional<SourceFile> FixedFile;
      if (R.Fixed && R.Fixed->changed(*R.File) && !R.Diags.empty())
        FixedFile.emplace(R.File->path(), R.Fixed->Text);
      const SourceFile &Shown = FixedFile ? *FixedFile : *R.File;
      for (const Diagnostic &D : R.Diags) {
        ++Findings;
        if (!D.Fixes.empty()) {
          if (R.Eng->allowed(D.Fixes.front().App))
            ++Fixable;
          else if (D.Fixes.front().App == Applicability::Unsafe)
            ++UnsafeFixable;
        }
        if (O.Fmt == Format::Json)
          JDiags.push_back(diagnosticToJSON(Shown, D));
        else if (!O.Diff)
          renderText(IO.Out, Shown, D);
      }
    }
    if (O.Fmt == Format::Json) {
      llvm::json::Object Summary{{"files", static_cast<int64_t>(FileCount)},
                                 {"findings", static_cast<int64_t>(Findings)},
                                 {"fixable", static_cast<int64_t>(Fixable)},
                                 {"unsafe_fixable", static_cast<int64_t>(UnsafeFixable)},
                                 {"errors", std::move(JErrors)},
                                 {"kept", static_cast<int64_t>(KeptCount)},
                                 {"target_torch", TargetShown.str()}};
      if (O.Cmd == Command::Fix) {
        Summary["fixes_applied"] = static_cast<int64_t>(Applied);
        Summary["files_changed"] = static_cast<int64_t>(Changed);
      }
      llvm::json::Object Doc{{"diagnostics", std::move(JDiags)}, {"summary", std::move(Summary)}};
      if (O.ShowKept)
        Doc["kept"] = std::move(JKept);
      IO.Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
    } else if (!O.Diff) {
      if (O.Cmd == Command::Fix)
        IO.Out << "Applied " << Applied << (Applied == 1 ? " fix" : " fixes") << " in "
               << Changed << (Changed == 1 ? " file" : " files") << "; ";
      if (Findings == 0) {
        IO.Out << (O.Cmd == Command::Fix ? "no findings left" : "No findings") << " in "
               << FileCount << (FileCount == 1 ? " file" : " files") << ".\n";
      } else {
        IO.Out << (O.Cmd == Command::Fix ? "" : "Found ") << Findings
               << (Findings == 1 ? " finding" : " findings")
               << (O.Cmd == Command::Fix ? " left" : "") << " in " << FileCount
               << (FileCount == 1 ? " file" : " files");
        if (Fixable && O.Cmd == Command::Check)
          IO.Out << " (" << Fixable << " fixable with `devport fix`)";
        if (UnsafeFixable)
          IO.Out << " (" << UnsafeFixable << " more fixable with `--unsafe-fixes`)";
        IO.Out << ".\n";
      }
      if (KeptCount && O.Cmd == Command::Check)
        IO.Out << KeptCount << " CUDA-specific " << (KeptCount == 1 ? "place" : "places")
               << " kept as CUDA" << (O.ShowKept ? "" : " (list them with --show-kept)")
               << ".\n";
    }
    if (Findings > 0 || Errors > 0 || DiffNonEmpty)
      return ExitFindings;
    return ExitClean;
  }

  int listOrExplain() {
    auto Rules = loadRules(O);
    if (!Rules) {
      IO.Err << "devport: error: " << llvm::toString(Rules.takeError()) << "\n";
      return ExitUsage;
    }
    if (O.Cmd == Command::Explain) {
      const Rule *R = Rules->find(O.Paths.front());
      if (!R) {
        IO.Err << "devport: error: unknown rule '" << O.Paths.front()
               << "' (see `devport rules`)\n";
        return ExitUsage;
      }
      renderExplain(IO.Out, *R);
      return ExitClean;
    }
    auto Picked = Rules->filtered(O.Select, O.Ignore);
    if (!Picked) {
      IO.Err << "devport: error: " << llvm::toString(Picked.takeError()) << "\n";
      return ExitUsage;
    }
    if (O.Fmt == Format::Json) {
      llvm::json::Array A;
      for (const auto &R : Picked->rules())
        A.push_back(ruleToJSON(*R));
      IO.Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(A))) << "\n";
      return ExitClean;
    }
    size_t W = 0;
    for (const auto &R : Picked->rules())
      W = std::max(W, R->Id.size());
    for (const auto &R : Picked->rules()) {
      const RuleFix *F = R->fixFor(O.Target.value_or(TorchVersion::defaultTarget()));
      IO.Out << llvm::left_justify(R->Id, W) << "  " << llvm::left_justify(R->Category, 16)
             << "  " << (F ? applicabilityName(F->App) : "no-fix") << "  " << R->Message
             << "\n";
    }
    return ExitClean;
  }

  const Options &O;
  CliIO &IO;
  RuleSet BaseRules;
  std::unique_ptr<ConfigCache> Configs;
  std::map<std::string, std::unique_ptr<Engine>> EngineCache;
  std::map<std::string, RuleSet> RulesByConfig;
  std::vector<FileResult> Results;
};

} // namespace

int runMain(int Argc, const char *const *Argv, CliIO &IO) {
  std::string Err;
  bool WantHelp = false, WantVersion = false;
  llvm::ArrayRef<const char *> Args(Argv + 1, Argv + std::max(Argc, 1));
  auto O = parseArgs(Args, Err, WantHelp, WantVersion);
  if (!O) {
    IO.Err << "devport: error: " << Err << "\n(run `devport --help` for usage)\n";
    return ExitUsage;
  }
  if (WantHelp) {
    IO.Out << Usage;
    return ExitClean;
  }
  if (WantVersion) {
    IO.Out << "devport " << DEVPORT_VERSION << "\n";
    return ExitClean;
  }
  Runner R(*O, IO);
  int Code = R.run();
  IO.Out.flush();
  IO.Err.flush();
  return Code;
}

int runMain(int Argc, const char *const *Argv) {
  CliIO IO{llvm::outs(), llvm::errs(), []() -> llvm::Expected<std::string> {
             auto Buf = llvm::MemoryBuffer::getSTDIN();
             if (!Buf)
               return llvm::errorCodeToError(Buf.getError());
             return (*Buf)->getBuffer().str();
           }};
  return runMain(Argc, Argv, IO);
}

} // namespace devport
