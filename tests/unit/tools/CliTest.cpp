//===--- CliTest.cpp - The CLI, in process ---------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tools/devport/Cli.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

struct RunResult {
  int Code = -1;
  std::string Out, Err;
};

RunResult run(std::vector<std::string> Args, std::string Stdin = "") {
  RunResult R;
  llvm::raw_string_ostream Out(R.Out), Err(R.Err);
  CliIO IO{Out, Err, [&]() -> llvm::Expected<std::string> { return Stdin; }};
  std::vector<const char *> Argv{"devport"};
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  R.Code = runMain(static_cast<int>(Argv.size()), Argv.data(), IO);
  Out.flush();
  Err.flush();
  return R;
}

const char *Dirty = "import torch\n\ntorch.cuda.set_device(rank)\nn = torch.cuda.device_count()\n";

TEST(Cli, ExitCodes) {
  test::TempDir D;
  D.write("clean.py", "import torch\n");
  D.write("dirty.py", Dirty);
  EXPECT_EQ(0, run({"check", D.path("clean.py")}).Code);
  EXPECT_EQ(1, run({"check", D.path("dirty.py")}).Code);
  EXPECT_EQ(2, run({"check", "--bogus", D.path()}).Code);
  EXPECT_EQ(2, run({"check", D.path("missing.py")}).Code);
  EXPECT_EQ(2, run({}).Code);
  EXPECT_EQ(2, run({"frobnicate"}).Code);
  EXPECT_EQ(2, run({"check", "--target-torch", "2"}).Code);
  EXPECT_EQ(2, run({"check", "--format"}).Code);
  EXPECT_EQ(2, run({"check", "-", D.path("clean.py")}).Code);
  EXPECT_EQ(0, run({"--help"}).Code);
}

TEST(Cli, TextOutputIsCompilerStyle) {
  test::TempDir D;
  D.write("dirty.py", Dirty);
  RunResult R = run({"check", D.path("dirty.py")});
  EXPECT_NE(std::string::npos,
            R.Out.find(D.path("dirty.py") + ":3:1: warning: `torch.cuda.set_device()` selects a "
                                            "CUDA device only [cuda-set-device]\n"
                                            " 3 | torch.cuda.set_device(rank)\n"
                                            "   | ^~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                                            "   = fix (safe): "
                                            "torch.accelerator.set_device_index(rank)\n"))
      << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("Found 2 findings in 1 file (2 fixable"));
}

TEST(Cli, JsonShape) {
  test::TempDir D;
  D.write("dirty.py", Dirty);
  RunResult R = run({"check", "--format", "json", D.path("dirty.py")});
  ASSERT_EQ(1, R.Code) << R.Err;
  auto V = llvm::json::parse(R.Out);
  ASSERT_TRUE(static_cast<bool>(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  ASSERT_TRUE(Root);
  const llvm::json::Array *Ds = Root->getArray("diagnostics");
  ASSERT_TRUE(Ds);
  ASSERT_EQ(2u, Ds->size());
  const llvm::json::Object *D0P = (*Ds)[0].getAsObject();
  ASSERT_TRUE(D0P);
  const llvm::json::Object &D0 = *D0P;
  // getString / getInteger give an Optional: a missing key must fail, not crash.
  EXPECT_EQ("cuda-set-device", D0.getString("rule").getValueOr(""));
  EXPECT_EQ(3, D0.getInteger("line").getValueOr(-1));
  EXPECT_EQ(1, D0.getInteger("column").getValueOr(-1));
  EXPECT_EQ(3, D0.getInteger("end_line").getValueOr(-1));
  EXPECT_EQ(28, D0.getInteger("end_column").getValueOr(-1));
  EXPECT_EQ("warning", D0.getString("severity").getValueOr(""));
  const llvm::json::Object *Fix = D0.getObject("fix");
  ASSERT_TRUE(Fix);
  EXPECT_EQ("safe", Fix->getString("applicability").getValueOr(""));
  const llvm::json::Array *Edits = Fix->getArray("edits");
  ASSERT_TRUE(Edits);
  ASSERT_EQ(1u, Edits->size());
  const llvm::json::Object *E0P = (*Edits)[0].getAsObject();
  ASSERT_TRUE(E0P);
  const llvm::json::Object &E0 = *E0P;
  EXPECT_EQ("accelerator.set_device_index", E0.getString("content").getValueOr(""));
  EXPECT_EQ(3, E0.getInteger("line").getValueOr(-1));
  EXPECT_EQ(7, E0.getInteger("column").getValueOr(-1));
  EXPECT_EQ(22, E0.getInteger("end_column").getValueOr(-1));
  const llvm::json::Object *S = Root->getObject("summary");
  ASSERT_TRUE(S);
  EXPECT_EQ(2, S->getInteger("findings").getValueOr(-1));
  EXPECT_EQ(1, S->getInteger("files").getValueOr(-1));
}

TEST(Cli, FixDiffWritesNothingAndFixIsIdempotent) {
  test::TempDir D;
  D.write("dirty.py", Dirty);
  RunResult Diff = run({"fix", "--diff", D.path("dirty.py")});
  EXPECT_EQ(1, Diff.Code);
  EXPECT_NE(std::string::npos, Diff.Out.find("+torch.accelerator.set_device_index(rank)"));
  EXPECT_EQ(Dirty, D.read("dirty.py"));

  RunResult Fix = run({"fix", D.path("dirty.py")});
  EXPECT_EQ(0, Fix.Code) << Fix.Out << Fix.Err;
  std::string Once = D.read("dirty.py");
  EXPECT_EQ("import torch\n\ntorch.accelerator.set_device_index(rank)\n"
            "n = torch.accelerator.device_count()\n",
            Once);
  RunResult Again = run({"fix", D.path("dirty.py")});
  EXPECT_EQ(0, Again.Code);
  EXPECT_EQ(Once, D.read("dirty.py"));
  EXPECT_EQ(0, run({"fix", "--diff", D.path("dirty.py")}).Code);
}

TEST(Cli, OutputDoesNotDependOnTheThreadCount) {
  // Every rule fixture input, twice over, with an unreadable (not UTF-8)
  // file in between: enough files for the threads to finish out of order.
  test::TempDir D;
  std::error_code EC;
  unsigned N = 0;
  for (llvm::sys::fs::recursive_directory_iterator
           It(DEVPORT_SOURCE_DIR "/tests/rules", EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.startswith("input") || !Name.endswith(".py"))
      continue;
    std::string Text = test::readFile(It->path());
    std::string Dir = llvm::sys::path::filename(llvm::sys::path::parent_path(It->path())).str();
    D.write("a/" + Dir + "/" + Name.str(), Text);
    D.write("b/" + Dir + "/" + Name.str(), Text);
    ++N;
  }
  ASSERT_GT(N, 50u);
  D.write("a/m/bad.py", "x = 'caf\xe9'\n");
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"check", "--format", "json", "--show-kept"},
        std::vector<std::string>{"check"},
        std::vector<std::string>{"fix", "--diff", "--unsafe-fixes"},
        std::vector<std::string>{"fix", "--diff", "--format", "json"}}) {
    std::vector<std::string> One = Args, Four = Args;
    One.insert(One.end(), {"--threads", "1", D.path()});
    Four.insert(Four.end(), {"--threads", "4", D.path()});
    RunResult A = run(One), B = run(Four);
    SCOPED_TRACE(llvm::join(Args, " "));
    EXPECT_EQ(1, A.Code);
    EXPECT_EQ(A.Code, B.Code);
    EXPECT_GT(A.Out.size(), 10000u);
    EXPECT_EQ(A.Out, B.Out);
    EXPECT_EQ(A.Err, B.Err);
  }
}

TEST(Cli, StdinFilter) {
  RunResult R = run({"fix", "-", "--stdin-filename", "x.py"}, Dirty);
  EXPECT_EQ(0, R.Code);
  EXPECT_EQ("import torch\n\ntorch.accelerator.set_device_index(rank)\n"
            "n = torch.accelerator.device_count()\n",
            R.Out);
  RunResult C = run({"check", "-", "--stdin-filename", "pkg/x.py"}, Dirty);
  EXPECT_EQ(1, C.Code);
  EXPECT_NE(std::string::npos, C.Out.find("pkg/x.py:3:1:"));
  RunResult Bad = run({"check", "-"}, std::string("x = '\xff'\n"));
  EXPECT_EQ(1, Bad.Code);
  EXPECT_NE(std::string::npos, Bad.Err.find("<stdin>:1:6: not valid UTF-8"));
}

TEST(Cli, SelectIgnoreAndTarget) {
  test::TempDir D;
  D.write("dirty.py", Dirty);
  RunResult Sel = run({"check", "--select", "cuda-device-count", "--format", "json", D.path()});
  ASSERT_THAT_EXPECTED_VALUE(SelJson, llvm::json::parse(Sel.Out));
  const llvm::json::Object *SelRoot = SelJson.getAsObject();
  ASSERT_TRUE(SelRoot);
  const llvm::json::Array *SelDs = SelRoot->getArray("diagnostics");
  ASSERT_TRUE(SelDs);
  EXPECT_EQ(1u, SelDs->size());
  RunResult Cat = run({"check", "--ignore", "device-runtime", D.path()});
  EXPECT_EQ(0, Cat.Code);
  RunResult Old = run({"fix", "--diff", "--target-torch", "2.6", D.path("dirty.py")});
  EXPECT_NE(std::string::npos, Old.Out.find("+torch.accelerator.set_device_idx(rank)"));
  RunResult Unknown = run({"check", "--select", "nope", D.path()});
  EXPECT_EQ(2, Unknown.Code);
  EXPECT_NE(std::string::npos, Unknown.Err.find("nope"));
}

/// The JSON summary of R, or a test failure.
llvm::Expected<llvm::json::Object> summaryOf(const RunResult &R) {
  auto V = llvm::json::parse(R.Out);
  if (!V)
    return V.takeError();
  const llvm::json::Object *Root = V->getAsObject();
  const llvm::json::Object *S = Root ? Root->getObject("summary") : nullptr;
  if (!S)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "no summary in %s",
                                   R.Out.c_str());
  return *S;
}

/// A string member of O at a '.'-separated Path ("" if missing or not a
/// string; "null" for null).
std::string at(const llvm::json::Object &O, llvm::StringRef Path) {
  const llvm::json::Object *Cur = &O;
  for (;;) {
    auto [Key, Rest] = Path.split('.');
    const llvm::json::Value *V = Cur->get(Key);
    if (!V)
      return "";
    if (Rest.empty()) {
      if (V->getAsNull())
        return "null";
      return V->getAsString().getValueOr("").str();
    }
    Cur = V->getAsObject();
    if (!Cur)
      return "";
    Path = Rest;
  }
}

TEST(Cli, TargetFromTheProjectInTheSummary) {
  test::TempDir D;
  D.mkdir(".git");
  D.write("pyproject.toml", "[project]\ndependencies = [\n  \"numpy\",\n  \"torch>=2.6\",\n]\n");
  D.write("src/dirty.py", Dirty);
  RunResult R = run({"check", D.path("src/dirty.py")});
  EXPECT_EQ(1, R.Code) << R.Err;
  // PyTorch 2.6 has set_device_idx, not set_device_index.
  EXPECT_NE(std::string::npos, R.Out.find("= fix (safe): torch.accelerator.set_device_idx(rank)"))
      << R.Out;
  EXPECT_NE(std::string::npos,
            R.Out.find("\nTarget PyTorch 2.6 (" + D.path("pyproject.toml") + ": torch>=2.6).\n"))
      << R.Out;
  EXPECT_EQ(std::string::npos, R.Out.find("\nnote:")) << R.Out; // no summary note

  RunResult J = run({"check", "--format", "json", D.path("src/dirty.py")});
  ASSERT_THAT_EXPECTED_VALUE(S, summaryOf(J));
  EXPECT_EQ("2.6", at(S, "target_torch"));
  EXPECT_EQ("project", at(S, "target_source.kind"));
  EXPECT_EQ(D.path("pyproject.toml"), at(S, "target_source.path"));
  EXPECT_EQ("torch>=2.6", at(S, "target_source.requirement"));
  EXPECT_EQ("2.6", at(S, "project_requirement.floor"));
  EXPECT_EQ("null", at(S, "fixes_need"));
  EXPECT_EQ(nullptr, S.get("targets")); // one target only

  // Standard input named as a file of the project gets its target.
  RunResult In = run({"check", "-", "--stdin-filename", D.path("src/other.py")}, Dirty);
  EXPECT_NE(std::string::npos, In.Out.find("set_device_idx(rank)")) << In.Out;
  EXPECT_NE(std::string::npos, In.Out.find("Target PyTorch 2.6 (")) << In.Out;
}

TEST(Cli, OneTargetForEveryProjectIsSaidOnce) {
  // `--target-torch` gives every project the same target: one line, not one per project,
  // even where the projects declare different requirements (the note says which).
  test::TempDir D;
  D.mkdir(".git");
  D.write("lib/requirements.txt", "torch>=2.4\n");
  D.write("lib/a.py", Dirty);
  D.write("tools/b.py", Dirty);
  RunResult R = run({"check", "--target-torch", "2.9", D.path("lib"), D.path("tools")});
  EXPECT_NE(std::string::npos, R.Out.find("\nTarget PyTorch 2.9 (--target-torch).\n")) << R.Out;
  EXPECT_EQ(std::string::npos, R.Out.find(" for 1 file")) << R.Out;
  RunResult J =
      run({"check", "--format", "json", "--target-torch", "2.9", D.path("lib"), D.path("tools")});
  // The JSON still lists each project's target (the summary's, then two).
  EXPECT_EQ(3u, llvm::StringRef(J.Out).count("\"target_torch\": \"2.9\"")) << J.Out;

  // Different targets are each counted.
  D.write("lib/requirements.txt", "torch>=2.6\n");
  RunResult Two = run({"check", D.path("lib"), D.path("tools")});
  EXPECT_NE(std::string::npos, Two.Out.find(" for 1 file; 2.9 (default) for 1 file.\n")) << Two.Out;
}

TEST(Cli, ExplicitTargetAboveTheProjectsFloorIsNoted) {
  test::TempDir D;
  D.mkdir(".git");
  D.write("requirements.txt", "torch>=2.4,<3  # CUDA 12\n");
  D.write("dirty.py", Dirty);
  std::string Declares = D.path("requirements.txt") + " declares torch>=2.4,<3";
  RunResult R = run({"check", "--target-torch", "2.9", D.path("dirty.py")});
  EXPECT_NE(std::string::npos,
            R.Out.find("Target PyTorch 2.9 (--target-torch).\n"
                       "note: the fixes need PyTorch 2.7 (cuda-set-device); " +
                       Declares + ".\n"))
      << R.Out;
  RunResult J = run({"check", "--format", "json", "--target-torch", "2.9", D.path("dirty.py")});
  ASSERT_THAT_EXPECTED_VALUE(S, summaryOf(J));
  EXPECT_EQ("2.9", at(S, "target_torch"));
  EXPECT_EQ("command-line", at(S, "target_source.kind"));
  EXPECT_EQ("2.7", at(S, "fixes_need.torch"));
  EXPECT_EQ("cuda-set-device", at(S, "fixes_need.rule"));
  EXPECT_EQ("2.4", at(S, "project_requirement.floor"));

  // The same from .devport.yaml, and after `fix` (the fixes were applied).
  D.write(".devport.yaml", "target-torch: \"2.8\"\n");
  RunResult Fix = run({"fix", D.path("dirty.py")});
  EXPECT_EQ(0, Fix.Code) << Fix.Out << Fix.Err;
  EXPECT_NE(std::string::npos, Fix.Out.find("Target PyTorch 2.8 (" + D.path(".devport.yaml") +
                                            ").\nnote: the fixes need PyTorch 2.7 "
                                            "(cuda-set-device); " + Declares + ".\n"))
      << Fix.Out;

  // A target the project's floor allows needs no note.
  D.write("dirty.py", Dirty);
  RunResult Low = run({"check", "--target-torch", "2.4", D.path("dirty.py")});
  EXPECT_NE(std::string::npos, Low.Out.find("Target PyTorch 2.4 (--target-torch).\n")) << Low.Out;
  EXPECT_EQ(std::string::npos, Low.Out.find("note: the fixes need")) << Low.Out;
  // Nor does a project that says nothing about torch.
  D.write("requirements.txt", "numpy\n");
  RunResult None = run({"check", "--target-torch", "2.9", D.path("dirty.py")});
  EXPECT_EQ(std::string::npos, None.Out.find("\nnote:")) << None.Out;
}

TEST(Cli, DefaultTargetSaysWhy) {
  test::TempDir D;
  D.mkdir(".git");
  D.write("a/dirty.py", Dirty);
  D.write("b/pyproject.toml", "[project]\ndependencies = ['torch<3']\n");
  D.write("b/dirty.py", Dirty);
  D.write("c/pyproject.toml", "[project]\ndependencies = ['torch>=2.6'\n");
  D.write("c/setup.py", "setup(install_requires=['torch>=2.5'])\n");
  D.write("c/dirty.py", Dirty);
  RunResult A = run({"check", D.path("a/dirty.py")});
  EXPECT_NE(std::string::npos, A.Out.find("\nTarget PyTorch 2.9 (default).\n")) << A.Out;
  RunResult B = run({"check", D.path("b/dirty.py")});
  EXPECT_NE(std::string::npos, B.Out.find("\nTarget PyTorch 2.9 (default; " +
                                          D.path("b/pyproject.toml") +
                                          ": torch<3 sets no lower bound).\n"))
      << B.Out;
  RunResult BJ = run({"check", "--format", "json", D.path("b/dirty.py")});
  ASSERT_THAT_EXPECTED_VALUE(BS, summaryOf(BJ));
  EXPECT_EQ("default", at(BS, "target_source.kind"));
  EXPECT_EQ("torch<3", at(BS, "target_source.requirement"));
  EXPECT_EQ("null", at(BS, "project_requirement.floor"));
  // A malformed file is skipped with a note; setup.py then decides.
  RunResult C = run({"check", D.path("c/dirty.py")});
  EXPECT_NE(std::string::npos,
            C.Out.find("\nTarget PyTorch 2.5 (" + D.path("c/setup.py") + ": torch>=2.5).\n"
                       "note: " + D.path("c/pyproject.toml") +
                       ": line 2: unterminated array; no torch requirement read from it.\n"))
      << C.Out;
}

TEST(Cli, SeveralTargetsInOneRun) {
  test::TempDir D;
  D.mkdir(".git");
  D.write("old/setup.cfg", "[options]\ninstall_requires =\n    torch>=2.6\n");
  D.write("old/x.py", Dirty);
  D.write("old/y.py", Dirty);
  D.write("plain/z.py", Dirty);
  RunResult R = run({"check", D.path()});
  EXPECT_NE(std::string::npos, R.Out.find("\nTarget PyTorch 2.6 (" + D.path("old/setup.cfg") +
                                          ": torch>=2.6) for 2 files; 2.9 (default) for 1 "
                                          "file.\n"))
      << R.Out;
  RunResult J = run({"check", "--format", "json", D.path()});
  ASSERT_THAT_EXPECTED_VALUE(S, summaryOf(J));
  EXPECT_EQ("2.6", at(S, "target_torch"));
  const llvm::json::Array *Targets = S.getArray("targets");
  ASSERT_TRUE(Targets);
  ASSERT_EQ(2u, Targets->size());
  const llvm::json::Object *T1 = (*Targets)[1].getAsObject();
  ASSERT_TRUE(T1);
  EXPECT_EQ("2.9", at(*T1, "target_torch"));
  EXPECT_EQ("default", at(*T1, "target_source.kind"));
  EXPECT_EQ(1, T1->getInteger("files").getValueOr(-1));

  // With --diff, standard output is the patch alone: the target goes to
  // standard error.
  RunResult Diff = run({"fix", "--diff", D.path("old/x.py")});
  EXPECT_EQ(std::string::npos, Diff.Out.find("Target")) << Diff.Out;
  EXPECT_NE(std::string::npos, Diff.Err.find("Target PyTorch 2.6 (")) << Diff.Err;
}

TEST(Cli, ManyTargetsAreCountedNotListed) {
  test::TempDir D;
  D.mkdir(".git");
  // Six projects, each with its own floor and a malformed pyproject.toml.
  for (int I = 0; I < 6; ++I) {
    std::string P = "p" + std::to_string(I) + "/";
    D.write(P + "pyproject.toml", "[project\n");
    D.write(P + "requirements.txt", "torch>=2." + std::to_string(I) + "\n");
    D.write(P + "a.py", Dirty);
  }
  RunResult R = run({"check", D.path()});
  EXPECT_NE(std::string::npos, R.Out.find("\nTarget PyTorch 2.0 (" + D.path("p0/requirements.txt") +
                                          ": torch>=2.0) for 1 file; 2.1 ("))
      << R.Out;
  EXPECT_NE(std::string::npos,
            R.Out.find("for 1 file; 3 other targets for 3 files (see --format json).\n"))
      << R.Out;
  EXPECT_NE(std::string::npos, R.Out.find("note: 1 more (see --format json).\n")) << R.Out;
  size_t Notes = 0;
  for (size_t At = R.Out.find("\nnote: "); At != std::string::npos;
       At = R.Out.find("\nnote: ", At + 1))
    ++Notes;
  EXPECT_EQ(6u, Notes); // five notes and the count of the others
  RunResult J = run({"check", "--format", "json", D.path()});
  ASSERT_THAT_EXPECTED_VALUE(S, summaryOf(J));
  const llvm::json::Array *Targets = S.getArray("targets");
  ASSERT_TRUE(Targets);
  EXPECT_EQ(6u, Targets->size());
}

TEST(Cli, BadRulesDirectoryIsExit2WithPlace) {
  test::TempDir D;
  D.write("rules/python/bad-rule.yaml", "id: bad-rule\nlanguage: python\ncategory: x\n"
                                        "severity: warning\nmessage: m\npattern: 'f('\n");
  D.write("a.py", "f()\n");
  RunResult R = run({"check", "--rules", D.path("rules"), D.path("a.py")});
  EXPECT_EQ(2, R.Code);
  EXPECT_NE(std::string::npos, R.Err.find("bad-rule.yaml:6:")) << R.Err;
}

TEST(Cli, RulesAndExplain) {
  RunResult L = run({"rules"});
  EXPECT_EQ(0, L.Code);
  for (const char *Id : {"cuda-current-device", "cuda-current-stream", "cuda-device-count",
                         "cuda-is-available", "cuda-set-device", "cuda-set-stream",
                         "cuda-synchronize"})
    EXPECT_NE(std::string::npos, L.Out.find(Id)) << Id;
  RunResult E = run({"explain", "cuda-synchronize"});
  EXPECT_EQ(0, E.Code);
  EXPECT_NE(std::string::npos, E.Out.find("# cuda-synchronize"));
  EXPECT_EQ(2, run({"explain", "nope"}).Code);
}

TEST(Cli, RulesShowApplicabilityAfterTheBackendTable) {
  // cuda-default-stream's YAML says safe; torch.xpu, mps and cpu lack default_stream.
  RunResult L = run({"rules", "--select", "cuda-default-stream,cuda-device-properties,"
                                          "cuda-synchronize"});
  ASSERT_EQ(0, L.Code);
  EXPECT_NE(std::string::npos, L.Out.find("cuda-default-stream")) << L.Out;
  auto LineOf = [&](llvm::StringRef Id) {
    llvm::StringRef Out = L.Out;
    size_t At = Out.find(Id);
    return Out.substr(At).take_until([](char C) { return C == '\n'; }).str();
  };
  EXPECT_NE(std::string::npos, LineOf("cuda-default-stream").find(" unsafe ")) << L.Out;
  EXPECT_NE(std::string::npos, LineOf("cuda-device-properties").find(" safe* ")) << L.Out;
  EXPECT_NE(std::string::npos, LineOf("cuda-synchronize").find(" safe ")) << L.Out;
  RunResult J = run({"rules", "--format", "json", "--select", "cuda-default-stream"});
  ASSERT_EQ(0, J.Code);
  EXPECT_NE(std::string::npos, J.Out.find("\"applicability\": \"unsafe\"")) << J.Out;
}

} // namespace
} // namespace devport
