//===--- Cli.cpp - The devport command line -------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tools/devport/Cli.h"

#include "core/Rule.h"
#include "core/SourceFile.h"
#include "core/Workspace.h"
#include "engine/BatchRun.h"
#include "engine/Project.h"
#include "report/Baseline.h"
#include "report/Github.h"
#include "report/HtmlReport.h"
#include "report/Paths.h"
#include "report/Progress.h"
#include "report/Render.h"
#include "report/Reporters.h"
#include "report/Sarif.h"
#include "rewriters/AtomicWrite.h"
#include "tools/devport/DiffBase.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <csignal>
#include <optional>
#include <thread>

#ifndef DEVPORT_VERSION
#define DEVPORT_VERSION "0.0.0"
#endif
#ifndef DEVPORT_SOURCE_DIR
#define DEVPORT_SOURCE_DIR ""
#endif
#ifndef DEVPORT_DOCS_URL
#define DEVPORT_DOCS_URL ""
#endif

namespace devport {
namespace {

const char *const Usage = R"(devport: make PyTorch code device-agnostic

usage: devport check [options] [PATH...]      report hardcoded device references
       devport fix   [options] [PATH...]      rewrite them (safe fixes by default)
       devport report [options] [PATH...] [-o FILE]
                                              write an HTML migration report
       devport rules [--format text|json]     list the rules
       devport explain RULE                   describe one rule
       devport lsp [options]                  run the language server on stdio
                                              (`devport lsp --help`: editor set-up)
       devport --version | --help

PATH is a file or directory (default: the current directory); `-` reads standard
input (name it with --stdin-filename; `fix -` writes the fixed text to stdout).

options:
  --format FORMAT           text, json, sarif (SARIF 2.1.0) or github (GitHub Actions
                            annotations) (default: text)
  --statistics              count findings per rule (text: instead of listing them)
  --root DIR                sarif, github: paths are relative to DIR (default: the
                            git repository's top level, else the current directory)
  --select ID,...           only these rules or categories (repeatable)
  --ignore ID,...           not these rules or categories (repeatable)
  --target-torch X.Y        PyTorch release the fixes must run on (default: the
                            `target-torch` of .devport.yaml, else the lower bound of
                            the project's torch requirement, else 2.9)
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
  -p DIR                    C++: the directory of compile_commands.json (default: found
                            upward from each file); files with a compile command are
                            checked by the semantic (Clang) engine
  --cpp-engine auto|lexical C++: `lexical` never compiles (default: auto)
  --whole-files             Python: parse every file whole, not only the statements
                            that rules can need (same results, slower; for debugging)
  --show-kept               also list code that keep rules account for (must stay CUDA)
  --baseline FILE           check: report only findings that FILE (the output of an
                            earlier `check --format json`) does not have; report: show
                            the trend since then
  -q, --quiet               no progress bar and no notes on standard error
report only:
  -o FILE                   the HTML file to write (default: devport-report.html;
                            `-`: standard output)
  --docs-url URL            link rules to URL<rule-id>.md instead of the rule pages
                            embedded in the report
check only:
  --diff-base REF           report only findings on lines changed since git REF
                            (and in untracked files)
fix only:
  --diff                    print a unified diff and write nothing
  --unsafe-fixes            also apply fixes marked unsafe

exit status: 0 nothing found / nothing left to fix / report written; 1 findings (or
findings left, a non-empty --diff, a file that could not be checked); 2 usage,
configuration, rule-file or baseline error, or a report that cannot be written.
)";

enum class Command { Check, Fix, Report, Rules, Explain };
enum class Format { Text, Json, Sarif, Github };

struct Options {
  Command Cmd = Command::Check;
  Format Fmt = Format::Text;
  std::vector<std::string> Paths;
  std::vector<std::string> Select, Ignore, Excludes;
  std::optional<TorchVersion> Target;
  std::string StdinFilename = "<stdin>";
  std::string RulesDir;
  std::string ConfigFile;
  std::string CompileCommandsDir;
  bool CppSemantic = true;
  bool WholeFiles = false;
  std::string DeviceExpression, DeviceTypeExpression;
  unsigned Threads = 0;
  bool Diff = false;
  bool UnsafeFixes = false;
  bool RespectGitignore = true;
  bool ShowKept = false;
  bool Statistics = false;
  std::string Root;     ///< --root; empty: the repository's top level.
  std::string DiffBase; ///< --diff-base; empty: every line.
  bool Quiet = false;
  std::string BaselineFile;
  std::string OutFile = "devport-report.html"; ///< report only
  std::string DocsUrl;                         ///< report only
};

void splitList(llvm::StringRef V, std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  V.split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
}

/// Reads the command word into O; false and Err set for an unknown one.
bool parseCommand(llvm::StringRef Cmd, Options &O, std::string &Err) {
  if (Cmd == "check")
    O.Cmd = Command::Check;
  else if (Cmd == "fix")
    O.Cmd = Command::Fix;
  else if (Cmd == "report")
    O.Cmd = Command::Report;
  else if (Cmd == "rules")
    O.Cmd = Command::Rules;
  else if (Cmd == "explain")
    O.Cmd = Command::Explain;
  else {
    Err = "unknown command '" + Cmd.str() + "'";
    return false;
  }
  return true;
}

/// One `--name[=value]` option and the arguments after it.
class OptionReader {
public:
  OptionReader(llvm::ArrayRef<const char *> Args, size_t &I, std::string &Err)
      : Args(Args), I(I), Err(Err) {
    llvm::StringRef A = Args[I];
    std::tie(Name, Inline) = A.split('=');
    HasInline = A.contains('=');
  }

  llvm::StringRef name() const { return Name; }

  /// The option's value (inline or the next argument).
  bool value(std::string &Out) {
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
  }

  /// A flag: no value allowed.
  bool flag(bool &Out) {
    if (HasInline) {
      Err = "option '" + Name.str() + "' takes no value";
      return false;
    }
    Out = true;
    return true;
  }

private:
  llvm::ArrayRef<const char *> Args;
  size_t &I;
  std::string &Err;
  llvm::StringRef Name, Inline;
  bool HasInline = false;
};

/// An option that takes a value; false with Err set on a bad value.
bool parseValueOption(OptionReader &R, Options &O, std::string &Err) {
  llvm::StringRef Name = R.name();
  std::string V;
  if (!R.value(V))
    return false;
  if (Name == "--format") {
    if (V == "text")
      O.Fmt = Format::Text;
    else if (V == "json")
      O.Fmt = Format::Json;
    else if (V == "sarif")
      O.Fmt = Format::Sarif;
    else if (V == "github")
      O.Fmt = Format::Github;
    else {
      Err = "unknown format '" + V + "' (expected text, json, sarif or github)";
      return false;
    }
  } else if (Name == "--select" || Name == "--ignore") {
    std::vector<std::string> &L = Name == "--select" ? O.Select : O.Ignore;
    size_t Before = L.size();
    splitList(V, L);
    if (L.size() == Before) {
      // An empty list would silently mean "all rules" for --select.
      Err = "option '" + Name.str() + "' needs at least one rule id or category";
      return false;
    }
  } else if (Name == "--exclude") {
    O.Excludes.push_back(V);
  } else if (Name == "--target-torch") {
    O.Target = TorchVersion::parse(V);
    if (!O.Target) {
      Err = "invalid --target-torch '" + V + "' (expected MAJOR.MINOR, e.g. 2.7)";
      return false;
    }
  } else if (Name == "--stdin-filename") {
    O.StdinFilename = V;
  } else if (Name == "--device-expression" || Name == "--device-type-expression") {
    if (llvm::StringRef(V).trim().empty() || V.find('\n') != std::string::npos) {
      Err = "option '" + Name.str() + "' needs a one-line Python expression";
      return false;
    }
    (Name == "--device-expression" ? O.DeviceExpression : O.DeviceTypeExpression) = V;
  } else if (Name == "--root") {
    O.Root = V;
  } else if (Name == "--diff-base") {
    if (V.empty()) {
      Err = "option '--diff-base' needs a git revision";
      return false;
    }
    O.DiffBase = V;
  } else if (Name == "--rules") {
    O.RulesDir = V;
  } else if (Name == "--config") {
    O.ConfigFile = V;
  } else if (Name == "-p") {
    O.CompileCommandsDir = V;
  } else if (Name == "--cpp-engine") {
    if (V != "auto" && V != "lexical") {
      Err = "unknown --cpp-engine '" + V + "' (expected auto or lexical)";
      return false;
    }
    O.CppSemantic = V == "auto";
  } else if (Name == "--baseline") {
    O.BaselineFile = V;
  } else if (Name == "-o") {
    O.OutFile = V;
  } else if (Name == "--docs-url") {
    O.DocsUrl = V;
  } else if (Name == "--threads") {
    if (llvm::StringRef(V).getAsInteger(10, O.Threads) || O.Threads > 1024) {
      Err = "invalid --threads '" + V + "' (expected a number from 0 to 1024)";
      return false;
    }
  }
  return true;
}

bool takesValue(llvm::StringRef Name) {
  static const llvm::StringRef WithValue[] = {
      "--format",          "--select",          "--ignore",
      "--exclude",         "--target-torch",    "--stdin-filename",
      "--device-expression", "--device-type-expression", "--rules",
      "--config",          "--threads",         "-p",
      "--cpp-engine",      "--root",            "--diff-base",
      "--baseline",        "-o",                "--docs-url"};
  return llvm::is_contained(WithValue, Name);
}

/// Checks what only the whole command line can tell.
bool checkCombination(const Options &O, std::string &Err) {
  if (O.Cmd == Command::Explain && O.Paths.size() != 1) {
    Err = "explain takes exactly one rule id";
    return false;
  }
  if (O.Cmd == Command::Rules && !O.Paths.empty()) {
    Err = "rules takes no paths";
    return false;
  }
  if (!O.DiffBase.empty() && O.Cmd != Command::Check) {
    Err = "--diff-base is for check only";
    return false;
  }
  if (!O.DiffBase.empty() && llvm::is_contained(O.Paths, "-")) {
    Err = "--diff-base cannot check standard input";
    return false;
  }
  if (!O.Root.empty() && O.Fmt != Format::Sarif && O.Fmt != Format::Github) {
    Err = "--root is for --format sarif and github";
    return false;
  }
  if (O.Cmd == Command::Report && llvm::is_contained(O.Paths, "-")) {
    Err = "report checks files, not standard input";
    return false;
  }
  if (!O.BaselineFile.empty() && O.Cmd != Command::Check && O.Cmd != Command::Report) {
    Err = "--baseline is for check and report";
    return false;
  }
  if (llvm::is_contained(O.Paths, "-") && O.Paths.size() != 1) {
    Err = "`-` (standard input) cannot be combined with other paths";
    return false;
  }
  return true;
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
  if (!parseCommand(Cmd, O, Err))
    return std::nullopt;
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
    OptionReader R(Args, I, Err);
    llvm::StringRef Name = R.name();
    bool Ok = true, Ignored = false;
    if (Name == "--help" || Name == "-h") {
      WantHelp = true;
      return O;
    } else if ((Name == "-o" || Name == "--docs-url") && O.Cmd != Command::Report) {
      Err = "unknown option '" + Name.str() + "' for '" + Cmd.str() + "'";
      Ok = false;
    } else if (Name == "--format" && O.Cmd == Command::Report) {
      Err = "report writes HTML; --format is for check, fix and rules";
      Ok = false;
    } else if (takesValue(Name)) {
      Ok = parseValueOption(R, O, Err);
    } else if (Name == "--no-gitignore") {
      Ok = R.flag(Ignored);
      O.RespectGitignore = false;
    } else if (Name == "--show-kept") {
      Ok = R.flag(O.ShowKept);
    } else if (Name == "--whole-files") {
      Ok = R.flag(O.WholeFiles);
    } else if (Name == "--statistics") {
      Ok = R.flag(O.Statistics);
    } else if (Name == "--quiet" || Name == "-q") {
      Ok = R.flag(O.Quiet);
    } else if (Name == "--diff" && O.Cmd == Command::Fix) {
      Ok = R.flag(O.Diff);
    } else if (Name == "--unsafe-fixes" && O.Cmd == Command::Fix) {
      Ok = R.flag(O.UnsafeFixes);
    } else {
      Err = "unknown option '" + Name.str() + "' for '" + Cmd.str() + "'";
      Ok = false;
    }
    if (!Ok)
      return std::nullopt;
  }
  if (!checkCombination(O, Err))
    return std::nullopt;
  return O;
}

ProjectOptions projectOptions(const Options &O) {
  ProjectOptions P;
  P.RulesDir = O.RulesDir;
  P.ConfigFile = O.ConfigFile;
  P.Select = O.Select;
  P.Ignore = O.Ignore;
  P.Target = O.Target;
  P.UnsafeFixes = O.UnsafeFixes;
  P.DeviceExpression = O.DeviceExpression;
  P.DeviceTypeExpression = O.DeviceTypeExpression;
  P.CompileCommandsDir = O.CompileCommandsDir;
  P.CppSemantic = O.CppSemantic;
  P.WholeFiles = O.WholeFiles;
  return P;
}

class Runner {
public:
  Runner(const Options &O, CliIO &IO) : O(O), IO(IO) {}

  int run() {
    if (O.Cmd == Command::Rules || O.Cmd == Command::Explain)
      return listOrExplain();
    bool Stdin = O.Paths.size() == 1 && O.Paths.front() == "-";
    WorkspaceOptions WO;
    WO.Excludes = O.Excludes;
    WO.RespectGitignore = O.RespectGitignore;
    WO.FindTempFiles = writes();
    WO.Threads = O.Threads;
    std::vector<std::string> Roots = O.Paths;
    if (Roots.empty())
      Roots.push_back(".");
    // The files are collected while the rules load (two independent reads
    // of the disk: 2.6 ms of rules beside 7 ms of lstat over PyTorch's
    // 4,491 C++ files); a rule or configuration error still comes first.
    std::optional<llvm::Expected<WorkspaceFiles>> Collected;
    std::thread Collector;
    if (!Stdin)
      Collector = std::thread([&] { Collected.emplace(collectFiles(Roots, WO)); });
    auto Abandon = [&] { // what was collected, when the run stops before the files
      if (!Collector.joinable())
        return;
      Collector.join();
      if (!*Collected)
        llvm::consumeError(Collected->takeError());
    };
    auto P = Project::load(projectOptions(O));
    if (!P) {
      Abandon();
      return usageError(P.takeError());
    }
    Proj = std::move(*P);
    if (!O.BaselineFile.empty()) {
      auto B = Baseline::load(O.BaselineFile);
      if (!B) {
        Abandon();
        return usageError(B.takeError());
      }
      Base.emplace(std::move(*B));
    }
    if (Stdin)
      return runStdin();
    warmUp(Roots.front());
    Collector.join();
    llvm::Expected<WorkspaceFiles> &Files = *Collected;
    if (!Files)
      return usageError(Files.takeError());
    for (const std::string &W : Files->Warnings)
      IO.Err << "devport: warning: " << printable(W, /*KeepNewlines=*/true) << "\n";
    WalkErrors = std::move(Files->Errors);
    removeTempFiles(Files->TempFiles);
    if (writes())
      WriteRoots = realRoots(Roots);
    if (auto E = checkRoot(Files->Files))
      return usageError(std::move(E));
    if (!O.Quiet && IO.ErrIsTerminal)
      Progress = std::make_unique<WithProgress>(IO);
    if (O.Cmd == Command::Report)
      return runReport(Roots, Files->Files);
    BatchOptions B = batchOptions();
    std::optional<ChangedLines> Changed;
    if (!O.DiffBase.empty()) {
      auto C = changedSince(O.DiffBase);
      if (!C)
        return usageError(C.takeError());
      Changed = std::move(*C);
      B.KeepFinding = [&Changed](const SourceFile &F, const Diagnostic &D) {
        llvm::SmallString<256> Real;
        if (llvm::sys::fs::real_path(F.path(), Real))
          return true; // cannot tell: reported
        return Changed->touches(std::string(Real.str()), F.lineOf(D.Range.Begin) + 1,
                                F.lineOf(D.Range.End) + 1);
      };
    }
    std::unique_ptr<Reporter> Rep = reporter();
    size_t Known = 0;
    if (Base)
      B.Filter = [&](FileReport &R) { Known += Base->removeKnown(R); };
    auto S = runWithProgress(Files->Files, B, *Rep);
    if (!S)
      return usageError(S.takeError());
    noteBaseline(Known);
    return exitCode(*S);
  }

private:
  /// A progress bar on standard error (a terminal, no --quiet), and the
  /// streams that Reporters write to the terminal through, which erase it.
  struct WithProgress {
    explicit WithProgress(CliIO &IO)
        : Bar(IO.Err, &IO.Out, IO.ErrColumns), Out(IO.Out, Bar), Err(IO.Err, Bar) {}
    ProgressBar Bar;
    ProgressStream Out, Err;
  };
  llvm::raw_ostream &out() { return Progress && IO.OutIsTerminal ? Progress->Out : IO.Out; }
  llvm::raw_ostream &err() { return Progress ? Progress->Err : IO.Err; }

  /// While the files are collected (a stat of each path named, on the other
  /// cores), the engine of the first path named, when it is a file, is
  /// looked up and its language's rules compiled: the batch's first workers
  /// waited for both (over PyTorch's Python files, 2.5 ms of lookup and 5 ms
  /// of compiling after the 11 ms of collecting). A lookup's error is left
  /// for the batch, which reports it in its place.
  void warmUp(const std::string &Path) {
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(Path, St) || St.type() == llvm::sys::fs::file_type::directory_file)
      return;
    auto E = Proj->engineFor(Path);
    if (!E) {
      llvm::consumeError(E.takeError());
      return;
    }
    if (*E)
      (*E)->prepare(Path);
  }

  /// runBatch, with the progress bar if there is one.
  llvm::Expected<Summary> runWithProgress(llvm::ArrayRef<std::string> Files,
                                          const BatchOptions &B, Reporter &Rep) {
    if (!Progress)
      return runBatch(*Proj, Files, B, Rep);
    ProgressReporter WithBar(Rep, Progress->Bar);
    return runBatch(*Proj, Files, B, WithBar);
  }

  void noteBaseline(size_t Known) {
    if (Base && !O.Quiet)
      IO.Err << "devport: " << Known << (Known == 1 ? " finding" : " findings")
             << " known from the baseline " << O.BaselineFile << " not reported\n";
  }

  int runReport(llvm::ArrayRef<std::string> Roots, llvm::ArrayRef<std::string> Files) {
    // A report that could not be written is found out before the run.
    llvm::StringRef Dir = llvm::sys::path::parent_path(O.OutFile);
    if (O.OutFile != "-" && !Dir.empty() && !llvm::sys::fs::is_directory(Dir)) {
      IO.Err << "devport: error: " << O.OutFile << ": cannot write the report: no directory "
             << Dir << "\n";
      return ExitUsage;
    }
    auto Backends = loadBackendTable();
    if (!Backends)
      return usageError(Backends.takeError());
    const RuleSet &Rules = Proj->rules();
    MigrationReport M(Roots, [&Rules](llvm::StringRef Id) {
      const Rule *R = Rules.find(Id);
      return R ? R->Category : std::string("other");
    });
    HtmlOptions H;
    H.DocsUrl = O.DocsUrl;
    H.BaselineName = O.BaselineFile;
    H.Generator = std::string("devport ") + DEVPORT_VERSION;
    HtmlReporter Rep(O.OutFile, out(), err(), std::move(M), H, &Rules, Backends->get(),
                     Base ? &*Base : nullptr);
    auto S = runWithProgress(Files, batchOptions(), Rep);
    if (!S)
      return usageError(S.takeError());
    if (llvm::Error E = Rep.takeError())
      return usageError(std::move(E));
    if (!O.Quiet && O.OutFile != "-")
      IO.Err << "devport: wrote " << O.OutFile << " ("
             << (Rep.bytes() + 1023) / 1024 << " KiB): " << S->Findings << " findings in "
             << S->Files << " files\n";
    return S->Errors ? ExitFindings : ExitClean;
  }

  int usageError(llvm::Error E) {
    IO.Err << "devport: error: " << printable(llvm::toString(std::move(E)), /*KeepNewlines=*/true)
           << "\n";
    return ExitUsage;
  }

  /// Does the run write the files it fixes?
  bool writes() const { return O.Cmd == Command::Fix && !O.Diff; }

  BatchOptions batchOptions() const {
    BatchOptions B;
    B.Mode = O.Cmd == Command::Fix ? BatchMode::Fix : BatchMode::Check;
    B.Write = writes();
    B.Threads = O.Threads;
    B.WriteRoots = WriteRoots;
    B.WalkErrors = WalkErrors;
    return B;
  }

  /// The real paths of the paths given: fix writes no file outside them.
  static std::vector<std::string> realRoots(llvm::ArrayRef<std::string> Roots) {
    std::vector<std::string> Real;
    for (const std::string &R : Roots) {
      llvm::SmallString<256> Buf;
      if (!llvm::sys::fs::real_path(R, Buf))
        Real.push_back(std::string(Buf.str()));
    }
    return Real;
  }

  /// Removes the temporary files that an interrupted `fix` left (those that
  /// no running devport holds), saying so.
  void removeTempFiles(llvm::ArrayRef<std::string> Temps) {
    for (const std::string &T : Temps) {
      auto Removed = removeStaleTempFile(T);
      if (!Removed)
        IO.Err << "devport: warning: "
               << printable(llvm::toString(Removed.takeError()), /*KeepNewlines=*/true) << "\n";
      else if (*Removed && !O.Quiet)
        IO.Err << "devport: removed " << printable(T)
               << ", a temporary file left by an interrupted `devport fix`\n";
    }
  }

  /// SARIF and GitHub paths are relative to the root: every file must be
  /// under it (an error before anything is reported, not a wrong path).
  llvm::Error checkRoot(llvm::ArrayRef<std::string> Files) {
    if (O.Fmt != Format::Sarif && O.Fmt != Format::Github)
      return llvm::Error::success();
    std::string Dir = O.Root;
    if (Dir.empty())
      Dir = findRepositoryRoot(".");
    auto R = RootPaths::create(Dir.empty() ? "." : Dir);
    if (!R)
      return R.takeError();
    Root = std::move(*R);
    for (const std::string &F : Files)
      if (auto Rel = Root->relative(F); !Rel)
        return Rel.takeError();
    return llvm::Error::success();
  }

  std::unique_ptr<Reporter> reporter() { return reporter(out(), err()); }

  /// The reporter of the chosen format; text and JSON write to TextOut and
  /// TextErr (`fix -` sends its report to standard error: both are IO.Err).
  std::unique_ptr<Reporter> reporter(llvm::raw_ostream &TextOut, llvm::raw_ostream &TextErr) {
    ReportOptions R;
    R.Fix = O.Cmd == Command::Fix;
    R.Diff = O.Diff;
    R.ShowKept = O.ShowKept;
    R.Statistics = O.Statistics;
    R.Rules = &Proj->rules();
    if (O.Fmt == Format::Sarif) {
      SarifOptions S;
      S.ToolVersion = DEVPORT_VERSION;
      S.DocsUri = docsUri();
      S.InformationUri = S.DocsUri + "cli.md";
      S.Rules = &Proj->rules();
      S.Root = &*Root;
      S.ShowKept = O.ShowKept;
      return std::make_unique<SarifReporter>(IO.Out, IO.Err, std::move(S));
    }
    if (O.Fmt == Format::Github)
      return std::make_unique<GithubReporter>(IO.Out, IO.Err, *Root);
    if (O.Fmt == Format::Json)
      return std::make_unique<JsonReporter>(TextOut, TextErr, R);
    return std::make_unique<TextReporter>(TextOut, TextErr, R);
  }

  static int exitCode(const Summary &S) {
    return S.Findings > 0 || S.Errors > 0 || S.DiffNonEmpty ? ExitFindings : ExitClean;
  }

  int runStdin() {
    // The configuration is the one that a file of that name would have.
    auto E = Proj->engineFor(O.StdinFilename, /*HonourExcludes=*/false);
    if (!E)
      return usageError(E.takeError());
    const Engine &Eng = **E;
    auto Target = Proj->targetFor(O.StdinFilename);
    if (!Target)
      return usageError(Target.takeError());
    // `fix -` is a filter (editors, formatter pipelines): standard output
    // carries code only, the fixed text or else the input unchanged, and the
    // report goes to standard error in the format asked for.
    bool Filter = O.Cmd == Command::Fix && !O.Diff;
    if (Filter && O.Fmt != Format::Text && O.Fmt != Format::Json) {
      IO.Err << "devport: error: `fix -` writes code to standard output; its report is text "
                "or json (on standard error), not "
             << (O.Fmt == Format::Sarif ? "sarif" : "github") << "\n";
      return ExitUsage;
    }
    BatchMode Mode = O.Cmd == Command::Fix ? BatchMode::Fix : BatchMode::Check;
    FileReport R;
    R.Path = O.StdinFilename;
    std::optional<std::string> Input;
    auto Bytes = IO.ReadStdin();
    if (!Bytes) {
      R.Error =
          O.StdinFilename + ": cannot read standard input: " + llvm::toString(Bytes.takeError());
    } else {
      if (Filter)
        Input = *Bytes; // given back unchanged if it cannot be checked
      if (auto F = SourceFile::fromBytes(O.StdinFilename, std::move(*Bytes)))
        R = processBuffer(Eng, std::move(*F), Mode, Target->floorBelowTarget());
      else
        R.Error = llvm::toString(F.takeError());
    }
    size_t Known = Base ? Base->removeKnown(R) : 0;
    if (Filter) {
      if (R.File)
        IO.Out << (R.Fixed ? llvm::StringRef(R.Fixed->Text) : R.File->text());
      else if (Input)
        IO.Out << *Input;
      IO.Out.flush();
      if (!R.File) {
        // Not a finding: the input could not be checked at all.
        IO.Err << "devport: error: " << printable(R.Error, /*KeepNewlines=*/true) << "\n";
        return ExitUsage;
      }
    }
    if (!Filter)
      if (auto E = checkRoot({O.StdinFilename}))
        return usageError(std::move(E));
    BatchOptions B = batchOptions();
    Summary S;
    S.Files = 1;
    S.Target = Eng.options().Target;
    addToSummary(S, R, Eng, B, *Target);
    std::unique_ptr<Reporter> Rep = Filter ? reporter(IO.Err, IO.Err) : reporter();
    Rep->file(R);
    Rep->finish(S);
    noteBaseline(Known);
    return exitCode(S);
  }

  int listOrExplain() {
    auto Rules = O.RulesDir.empty() ? loadEmbeddedRules() : RuleSet::loadDirectory(O.RulesDir);
    if (!Rules)
      return usageError(Rules.takeError());
    auto Backends = loadBackendTable();
    if (!Backends)
      return usageError(Backends.takeError());
    if (O.Cmd == Command::Explain) {
      const Rule *R = Rules->find(O.Paths.front());
      if (!R) {
        IO.Err << "devport: error: unknown rule '" << O.Paths.front()
               << "' (see `devport rules`)\n";
        return ExitUsage;
      }
      renderExplain(IO.Out, *R, Backends->get());
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
        A.push_back(ruleToJSON(*R, Backends->get()));
      IO.Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(A))) << "\n";
      return ExitClean;
    }
    size_t W = 0;
    for (const auto &R : Picked->rules())
      W = std::max(W, R->Id.size());
    for (const auto &R : Picked->rules()) {
      const RuleFix *F = R->fixFor(O.Target.value_or(TorchVersion::defaultTarget()));
      std::string App = "no-fix";
      if (F) {
        FixPortability FP = portabilityOf(*F, Backends->get());
        App = applicabilityName(FP.App);
        if (FP.ByBinding)
          App += "*"; // the matched function decides
      }
      IO.Out << llvm::left_justify(R->Id, W) << "  " << llvm::left_justify(R->Category, 16)
             << "  " << llvm::left_justify(App, 7) << "  " << R->Message << "\n";
    }
    return ExitClean;
  }

  const Options &O;
  CliIO &IO;
  std::unique_ptr<Project> Proj;
  std::optional<RootPaths> Root; ///< sarif, github: set by checkRoot().
  std::optional<Baseline> Base;
  std::unique_ptr<WithProgress> Progress;
  std::vector<WalkError> WalkErrors;   ///< Directories that could not be walked.
  std::vector<std::string> WriteRoots; ///< fix: realRoots() of the paths given.
};

} // namespace

std::string docsUri() {
  llvm::StringRef Url = DEVPORT_DOCS_URL;
  if (!Url.empty())
    return Url.endswith("/") ? Url.str() : Url.str() + "/";
  llvm::SmallString<256> Docs(DEVPORT_SOURCE_DIR);
  llvm::sys::path::append(Docs, "docs");
  return fileUri(Docs, /*Dir=*/true);
}

int runMain(int Argc, const char *const *Argv, CliIO &IO) {
  std::string Err;
  bool WantHelp = false, WantVersion = false;
  llvm::ArrayRef<const char *> Args(Argv + 1, Argv + std::max(Argc, 1));
  if (!Args.empty() && llvm::StringRef(Args.front()) == "lsp")
    return runLspCommand(Args.drop_front(), IO);
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
  // A write over the file size limit (`ulimit -f`) then fails with EFBIG,
  // which is reported, instead of killing the process with SIGXFSZ.
  ::signal(SIGXFSZ, SIG_IGN);
  CliIO IO{llvm::outs(), llvm::errs(), []() -> llvm::Expected<std::string> {
             auto Buf = llvm::MemoryBuffer::getSTDIN();
             if (!Buf)
               return llvm::errorCodeToError(Buf.getError());
             return (*Buf)->getBuffer().str();
           }};
  IO.OutIsTerminal = llvm::sys::Process::StandardOutIsDisplayed();
  IO.ErrIsTerminal = llvm::sys::Process::StandardErrIsDisplayed();
  IO.ErrColumns = llvm::sys::Process::StandardErrColumns();
  return runMain(Argc, Argv, IO);
}

} // namespace devport
