//===--- PrefilterTest.cpp - The prefilter skips, and changes nothing -----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Engine's prefilter (CompiledRules::mayMatch, docs/architecture.md step
/// 2) with the shipped rules: a file with no device word is skipped, a file
/// with one is not; every shipped pattern has a literal and a pattern without
/// one is refused with its place; and turning the prefilter off
/// (EngineOptions::Prefilter) changes no finding, keep match or fixed text,
/// over the rule fixtures and a seeded generated corpus of recombined fixture
/// lines, decoys, functions, classes and doctests.
///
//===----------------------------------------------------------------------===//

#include "engine/Engine.h"
#include "matchers/python/PythonBackend.h"
#include "rewriters/EditApplier.h"
#include "tests/support/TestFiles.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace devport {
namespace {

RuleSet shippedRules() {
  auto Rules = RuleSet::loadDirectory(DEVPORT_SOURCE_DIR "/rules");
  if (!Rules) {
    ADD_FAILURE() << llvm::toString(Rules.takeError());
    return RuleSet();
  }
  return std::move(*Rules);
}

std::unique_ptr<Engine> engine(RuleSet Rules, EngineOptions O) {
  auto E = Engine::create(std::move(Rules), O);
  if (!E) {
    ADD_FAILURE() << llvm::toString(E.takeError());
    return nullptr;
  }
  return std::move(*E);
}

/// The shipped rules compiled by the backend of Path, as the Engine does.
std::unique_ptr<CompiledRules> compiledFor(const Engine &E, llvm::StringRef Path) {
  auto C = E.backendFor(Path).compile(E.rules());
  if (!C) {
    ADD_FAILURE() << llvm::toString(C.takeError());
    return nullptr;
  }
  return std::move(*C);
}

bool hasDeviceWord(llvm::StringRef T) {
  return T.contains("cuda") || T.contains("CUDA") || T.contains("nccl");
}

/// Several hundred lines of numpy and plain Python, no device word.
std::string numpyModule() {
  std::string Out = "\"\"\"Feature extraction for tabular data (numpy only).\"\"\"\n"
                    "import collections\nimport logging\nimport os\n\nimport numpy as np\n\n"
                    "logger = logging.getLogger(__name__)\nDEFAULT_SCALE = 1.5\n\n";
  // One function per block; @N stands for its number.
  llvm::StringRef Function = "\n\ndef feature_@N(data, scale=DEFAULT_SCALE, *, eps=1e-9):\n"
                             "    \"\"\"Scale and normalise block @N.\"\"\"\n"
                             "    arr = np.asarray(data, dtype=np.float64)\n"
                             "    if arr.size == 0:\n"
                             "        return arr\n"
                             "    arr = (arr - arr.mean()) / (arr.std() + eps)  # z-score\n"
                             "    out = np.clip(arr * scale, -@N, @N + 1)\n"
                             "    stats = {\"min\": float(out.min()), \"max\": float(out.max())}\n"
                             "    logger.debug(\"feature_@N: %s\", stats)\n"
                             "    return out\n";
  for (int K = 0; K < 30; ++K) {
    llvm::SmallVector<llvm::StringRef, 8> Parts;
    Function.split(Parts, "@N");
    Out += llvm::join(Parts, std::to_string(K));
  }
  Out += "\n\nclass Table:\n"
         "    def __init__(self, rows):\n"
         "        self.rows = list(rows)\n"
         "        self.counts = collections.Counter(r[0] for r in self.rows)\n\n"
         "    def path(self, root):\n"
         "        return os.path.join(root, f\"table-{len(self.rows)}.csv\")\n\n"
         "    def __len__(self):\n"
         "        return len(self.rows)\n\n\n"
         "if __name__ == \"__main__\":\n"
         "    t = Table([(1, 2), (3, 4)])\n"
         "    print(feature_0(np.arange(10)), len(t))\n";
  return Out;
}

TEST(Prefilter, SkipsAFileWithoutDeviceWords) {
  auto E = engine(shippedRules(), EngineOptions::forTest());
  ASSERT_TRUE(E);
  auto C = compiledFor(*E, "features.py");
  ASSERT_TRUE(C);
  std::string Numpy = numpyModule();
  ASSERT_GT(std::count(Numpy.begin(), Numpy.end(), '\n'), 300);
  ASSERT_FALSE(hasDeviceWord(Numpy));
  EXPECT_FALSE(C->mayMatch(Numpy));
  // The Engine skips it: fix() parses nothing.
  FixOutcome O = E->fix(SourceFile("features.py", Numpy));
  EXPECT_EQ(0u, O.Parses);
  EXPECT_EQ(Numpy, O.Text);

  // One device word in the same file and it is parsed, and found.
  struct Case {
    const char *Line, *Rule;
  } Cases[] = {{"import torch\ntorch.cuda.synchronize()\n", "cuda-synchronize"},
               {"dev = f\"cuda:{i}\"\n", "cuda-device-format"}};
  for (const Case &K : Cases) {
    std::string Text = Numpy + K.Line;
    EXPECT_TRUE(C->mayMatch(Text)) << K.Line;
    EXPECT_TRUE(C->mayMatch(K.Line)) << K.Line;
    std::vector<Diagnostic> Ds = E->check(SourceFile("features.py", Text));
    ASSERT_EQ(1u, Ds.size()) << K.Line;
    EXPECT_EQ(K.Rule, Ds[0].RuleId);
    EXPECT_GT(E->fix(SourceFile("features.py", Text)).Parses, 0u);
  }
}

TEST(Prefilter, EveryShippedRuleExamplePassesThePrefilter) {
  auto E = engine(shippedRules(), EngineOptions::forTest());
  ASSERT_TRUE(E);
  // Compiling succeeds: the backend refuses a pattern without a literal,
  // so every shipped pattern has one.
  auto C = compiledFor(*E, "t.py");
  ASSERT_TRUE(C);
  auto Cpp = compiledFor(*E, "t.cpp");
  ASSERT_TRUE(Cpp);
  size_t Patterns = 0, Examples = 0;
  for (const auto &R : E->rules().rules()) {
    Patterns += R->Patterns.size();
    for (const RuleExample &X : R->Examples) {
      ++Examples;
      EXPECT_TRUE((R->Language == "cpp" ? Cpp : C)->mayMatch(X.Before)) << R->Id << ": " << X.Before;
    }
  }
  EXPECT_GT(Patterns, 100u);
  EXPECT_GT(Examples, 20u);
}

/// The error of Engine::create for one made-up rule file; "" if it compiles.
std::string createError(llvm::StringRef File, llvm::StringRef Yaml) {
  auto Rules = RuleSet::loadBuffer(File, Yaml);
  if (!Rules)
    return "load: " + llvm::toString(Rules.takeError());
  auto E = Engine::create(std::move(*Rules), EngineOptions::forTest());
  if (E)
    return "";
  return llvm::toString(E.takeError());
}

TEST(Prefilter, PatternWithoutLiteralIsRefusedWithItsPlace) {
  std::string Err = createError("no-literal.yaml", "id: no-literal\n"
                                                   "language: python\n"
                                                   "category: test\n"
                                                   "severity: warning\n"
                                                   "message: m\n"
                                                   "pattern: $X($$$A)\n");
  EXPECT_TRUE(llvm::StringRef(Err).startswith("no-literal.yaml:6:")) << Err;
  EXPECT_TRUE(llvm::StringRef(Err).contains("no literal for the prefilter")) << Err;
  EXPECT_TRUE(llvm::StringRef(Err).contains("$X($$$A)")) << Err;

  // One pattern of several: the one without a literal is named.
  Err = createError("some-literal.yaml", "id: some-literal\n"
                                         "language: python\n"
                                         "category: test\n"
                                         "severity: warning\n"
                                         "message: m\n"
                                         "any:\n"
                                         "  - torch.cuda.foo($X)\n"
                                         "  - $F($X)\n");
  EXPECT_TRUE(llvm::StringRef(Err).startswith("some-literal.yaml:8:")) << Err;
  EXPECT_EQ(std::string::npos, Err.find("some-literal.yaml:7:")) << Err;

  // A `where` regex gives a pattern its literal, if it is long enough.
  auto WithRegex = [](llvm::StringRef Regex) {
    return createError("by-regex.yaml", "id: by-regex\n"
                                        "language: python\n"
                                        "category: test\n"
                                        "severity: warning\n"
                                        "message: m\n"
                                        "pattern: $F($$$A)\n"
                                        "where:\n"
                                        "  F:\n"
                                        "    regex: '" +
                                            Regex.str() + "'\n");
  };
  EXPECT_EQ("", WithRegex("^cuda_[a-z]+$"));
  EXPECT_TRUE(llvm::StringRef(WithRegex("^(cuda|xpu)$")).startswith("by-regex.yaml:6:"));
  EXPECT_TRUE(llvm::StringRef(WithRegex("^ab$")).contains("no literal for the prefilter"));
}

//===----------------------------------------------------------------------===//
// Equivalence: the prefilter changes nothing.
//===----------------------------------------------------------------------===//

std::string show(ByteRange R) {
  return "[" + std::to_string(R.Begin) + "," + std::to_string(R.End) + ")";
}

/// Everything of a finding that a front end can see, as text.
void describe(std::string &Out, const Diagnostic &D) {
  Out += D.RuleId + " " + show(D.Range) + " " + severityName(D.Sev) + " " + D.File + ": " +
         D.Message + "\n";
  for (const Note &N : D.Notes)
    Out += "  note " + std::to_string(int(N.K)) + " " + N.Target.str() + " " + N.Needs.str() +
           ": " + N.Text + "\n";
  for (const Fix &X : D.Fixes) {
    Out += std::string("  fix ") + applicabilityName(X.App) + ": " + X.Title + "\n";
    for (const Edit &Ed : X.Edits)
      Out += "    edit " + show(Ed.Range) + " role " + std::to_string(int(Ed.Role)) + ": " +
             Ed.Replacement + "\n";
  }
  for (const KeptFinding &K : D.Keeps)
    Out += "  keeps " + K.RuleId + " " + show(K.Range) + "\n";
}

std::string describe(const CheckResult &C) {
  std::string Out;
  for (const Diagnostic &D : C.Findings)
    describe(Out, D);
  Out += "-- kept\n";
  for (const Diagnostic &D : C.Kept)
    describe(Out, D);
  return Out;
}

/// All of fix()'s outcome but Parses, which the prefilter is there to lower.
std::string describe(const FixOutcome &O) {
  std::string Out = "applied " + std::to_string(O.Applied) + " rounds " + std::to_string(O.Rounds) +
                    (O.Converged ? " converged\n" : " open\n");
  for (const DroppedFix &D : O.Dropped)
    Out += "dropped " + D.RuleId + " " + std::to_string(D.At.Line) + ":" +
           std::to_string(D.At.Column) + " " + D.Reason + "\n";
  for (const Diagnostic &D : O.Remaining)
    describe(Out, D);
  return Out + "-- text\n" + O.Text;
}

/// A seeded generator of Python files from the fixture inputs: their
/// single-line statements and top-level paragraphs, decoy lines without
/// device words, arranged in functions, classes, `if` blocks and doctests.
class CorpusGenerator {
public:
  CorpusGenerator(uint32_t Seed, const std::vector<std::pair<std::string, std::string>> &Inputs)
      : Rng(Seed) {
    for (const auto &[Path, Text] : Inputs)
      collect(Text);
  }

  size_t statements() const { return Statements.size(); }
  size_t paragraphs() const { return Paragraphs.size(); }

  /// Lines of numpy and plain Python: no device word, no torch.
  static const std::vector<std::string> &plainDecoys() {
    static const std::vector<std::string> Lines = {
        "import numpy as np",
        "import os, collections",
        "x = np.arange(10)",
        "y = np.linalg.norm(x) / max(len(x), 1)",
        "values = [v * 2 for v in range(32)]",
        "total = sum(values)  # a comment",
        "mapping = {\"a\": 1, \"b\": 2}",
        "name = os.path.join(root, \"data.csv\")",
        "print(f\"total={total} at {name}\")",
        "arr = np.zeros((3, 4), dtype=np.float32)",
        "mean = arr.mean(axis=0)",
        "result = sorted(mapping.items(), key=lambda kv: kv[1])",
        "logger.info(\"loaded %d rows\", len(rows))",
        "assert total >= 0, \"negative total\"",
        "text = \", \".join(str(v) for v in values[:5])",
        "matrix = np.eye(4) @ np.ones((4, 4))",
        "counts = collections.Counter(words)",
        "doc = '''several\nlines'''",
        "pairs = [(i, j) for i in range(3)\n         for j in range(i)]",
        "call(a,\n     b,  # why\n     c)",
        "flag = x is None or (y > 0 and not z)",
        "del tmp",
        "pass",
    };
    return Lines;
  }

  /// torch lines without a device word: near misses for the prefilter.
  static const std::vector<std::string> &torchDecoys() {
    static const std::vector<std::string> Lines = {
        "import torch",
        "model = torch.nn.Linear(16, 4)",
        "out = model(torch.randn(8, 16))",
        "torch.manual_seed(0)",
        "loss = torch.nn.functional.mse_loss(out, target)",
        "t = torch.zeros(3, device=dev)",
        "x = x.to(dev)",
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)",
        "state = torch.load(path, map_location=\"cpu\")",
        "cpu = torch.device(\"cpu\")",
        "dev = \"cpu\" if args.no_accel else torch.accelerator.current_accelerator()",
        "torch.accelerator.synchronize()",
        "n = torch.accelerator.device_count()",
        "backend = \"gloo\"",
    };
    return Lines;
  }

  /// A file mixing fixture code and decoys (one in four mostly decoys).
  std::string mixedFile() {
    std::string Out;
    Sparse = chance(25);
    if (chance(70))
      Out += "import torch\n";
    if (chance(5))
      Out += "# devport: skip-file\n";
    int Blocks = 3 + below(25);
    for (int B = 0; B < Blocks; ++B) {
      unsigned Roll = below(100);
      if (Roll < 30)
        Out += statement() + "\n";
      else if (Roll < 50)
        Out += decoy() + "\n";
      else if (Roll < 60)
        Out += paragraph() + "\n";
      else if (Roll < 75)
        Out += function(B);
      else if (Roll < 82)
        Out +=
            "\n\nclass C" + std::to_string(B) + ":\n    attr = 1\n" + indent(function(B), "    ");
      else if (Roll < 88)
        Out += "if flag:\n" + indent(line(), "    ") + "\nelse:\n" + indent(line(), "    ") + "\n";
      else if (Roll < 94)
        Out += doctestFunction(B);
      else
        Out += "\n\ndef wrapped" + std::to_string(B) + "():\n" + indent(paragraph(), "    ") + "\n";
    }
    return Out;
  }

  /// A file of decoys only; with torch lines if Torch.
  std::string decoyFile(bool Torch) {
    std::string Out;
    int Blocks = 3 + below(30);
    for (int B = 0; B < Blocks; ++B) {
      const auto &Pool = Torch && chance(50) ? torchDecoys() : plainDecoys();
      if (chance(20))
        Out += "\n\ndef g" + std::to_string(B) + "(a, b=None):\n" + indent(pick(Pool), "    ") +
               "\n    return a\n";
      else
        Out += pick(Pool) + "\n";
    }
    return Out;
  }

private:
  size_t below(size_t N) { return std::uniform_int_distribution<size_t>(0, N - 1)(Rng); }
  bool chance(unsigned Percent) { return below(100) < Percent; }
  const std::string &pick(const std::vector<std::string> &V) { return V[below(V.size())]; }

  std::string statement() { return Sparse && chance(90) ? decoy() : pick(Statements); }
  std::string paragraph() { return Sparse && chance(90) ? decoy() : pick(Paragraphs); }
  std::string decoy() { return pick(chance(50) ? torchDecoys() : plainDecoys()); }
  std::string line() { return chance(60) ? statement() : decoy(); }

  static std::string indent(llvm::StringRef Code, llvm::StringRef By) {
    std::string Out;
    llvm::SmallVector<llvm::StringRef, 16> Lines;
    Code.split(Lines, '\n');
    for (size_t I = 0; I < Lines.size(); ++I) {
      if (I > 0)
        Out += "\n";
      if (!Lines[I].trim().empty())
        Out += By.str() + Lines[I].str();
    }
    return Out;
  }

  std::string function(int K) {
    std::string Out = "\n\ndef f" + std::to_string(K) + "(x, device=None):\n";
    int Body = 1 + below(5);
    for (int I = 0; I < Body; ++I) {
      if (chance(15))
        Out += "    for i in range(3):\n" + indent(line(), "        ") + "\n";
      else
        Out += indent(line(), "    ") + "\n";
    }
    return Out + "    return x\n";
  }

  /// A function whose docstring has a doctest of two lines: a fixture
  /// line or a decoy, then a decoy.
  std::string doctestFunction(int K) {
    auto Fits = [](const std::string &Code) {
      return Code.find_first_of("\n\\") == std::string::npos &&
             Code.find("\"\"\"") == std::string::npos;
    };
    std::string First = line(), Second = decoy();
    if (!Fits(First))
      First = "x = 1";
    if (!Fits(Second))
      Second = "y = x";
    return "\n\ndef documented" + std::to_string(K) + "():\n    \"\"\"Does a thing.\n\n" +
           "    >>> " + First + "\n    >>> " + Second + "\n    \"\"\"\n    return None\n";
  }

  /// Splits a fixture into single-line statements and top-level paragraphs.
  void collect(llvm::StringRef Text) {
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    Text.split(Lines, '\n');
    int Depth = 0;
    bool InTriple = false;
    std::string Para;
    auto Flush = [&] {
      // Ex) a lone `# Negatives.` comment: no code to wrap in a function.
      llvm::StringRef P = llvm::StringRef(Para).rtrim();
      if (!P.empty() && !P.startswith("#"))
        Paragraphs.push_back(P.str());
      Para.clear();
    };
    llvm::StringRef Prev;
    for (llvm::StringRef L : Lines) {
      bool Starts = !InTriple && Depth == 0 && !L.empty() && !llvm::isSpace(L[0]) &&
                    !Prev.rtrim().endswith("\\") && !Prev.ltrim().startswith("@");
      for (const char *K : {")", "]", "}", "else", "elif", "except", "finally"})
        Starts &= !L.startswith(K);
      if (Starts)
        Flush();
      Para += L.str() + "\n";
      if (!L.trim().empty())
        Prev = L;
      bool Triple = L.contains("\"\"\"") || L.contains("'''");
      llvm::StringRef Code = L.split('#').first;
      for (char C : Code)
        Depth += (C == '(' || C == '[' || C == '{') - (C == ')' || C == ']' || C == '}');
      Depth = std::max(Depth, 0);
      if (Triple && (llvm::StringRef(L).count("\"\"\"") + llvm::StringRef(L).count("'''")) % 2)
        InTriple = !InTriple;
      // A complete one-line statement, wherever it stood.
      // Ex) `x = torch.cuda.device_count()  # expect: ...`, but not
      // `device='cuda',  # expect: ...` (the middle of a call).
      llvm::StringRef S = L.trim(), Stmt = Code.trim();
      int Balance = 0;
      for (char C : Stmt)
        Balance += (C == '(' || C == '[' || C == '{') - (C == ')' || C == ']' || C == '}');
      bool Complete = !Stmt.empty() && Balance == 0 && !Triple && !Stmt.endswith(":") &&
                      !Stmt.endswith("\\") && !Stmt.endswith(",");
      for (const char *K :
           {">>>", "...", "@", "\"", "'", "return", "yield", "break", "continue", "else", "elif",
            "except", "finally", "raise", "global", "nonlocal", ")", "]", "}"})
        Complete &= !S.startswith(K);
      if (Complete)
        Statements.push_back(S.str());
    }
    Flush();
  }

  std::mt19937 Rng;
  std::vector<std::string> Statements, Paragraphs;
  bool Sparse = false; ///< The current file takes few fixture lines.
};

/// Engines with and without the prefilter, for one set of options.
struct EnginePair {
  std::unique_ptr<Engine> On, Off;
  std::unique_ptr<CompiledRules> Compiled;

  EnginePair(const RuleSet &Rules, EngineOptions O) {
    O.UnsafeFixes = true;
    O.Prefilter = true;
    On = engine(Rules, O);
    O.Prefilter = false;
    Off = engine(Rules, O);
    if (On)
      Compiled = compiledFor(*On, "x.py");
  }
};

struct Tally {
  unsigned Files = 0, Skipped = 0, SkipFile = 0, SkippedWithSkipFile = 0, WithFindings = 0;
  unsigned Changed = 0, SyntaxErrors = 0;
  unsigned Failures = 0;
};

/// Runs Path through both engines of P and compares what they give.
void compare(const EnginePair &P, const std::string &Path, const std::string &Text, Tally &T) {
  SourceFile F(Path, Text);
  bool Skipped = !P.Compiled->mayMatch(Text);
  ++T.Files;
  T.Skipped += Skipped;
  T.SkipFile += hasSkipFileDirective(Text);
  T.SkippedWithSkipFile += Skipped && hasSkipFileDirective(Text);
  CheckResult COn = P.On->checkAll(F), COff = P.Off->checkAll(F);
  FixOutcome FOn = P.On->fix(F), FOff = P.Off->fix(F);
  T.WithFindings += !COff.Findings.empty();
  T.Changed += FOff.changed(F);
  if (auto Parsed = P.Off->backendFor(Path).parse(Text))
    T.SyntaxErrors += Parsed->syntaxErrors() > 0;
  std::string A = describe(COn), B = describe(COff), X = describe(FOn), Y = describe(FOff);
  bool Same = A == B && X == Y;
  // A skipped file is not parsed at all: the prefilter is in effect (and
  // without it, the file is parsed unless it says `devport: skip-file`). A
  // file that passes it is parsed as often either way.
  bool Parses = Skipped ? FOn.Parses == 0 && (FOff.Parses > 0 || hasSkipFileDirective(Text))
                        : FOn.Parses == FOff.Parses;
  if ((Same && Parses) || ++T.Failures > 3)
    return;
  EXPECT_EQ(B, A) << Path << ": checkAll differs with the prefilter\n--- file:\n" << Text;
  EXPECT_EQ(Y, X) << Path << ": fix differs with the prefilter\n--- file:\n" << Text;
  EXPECT_TRUE(Parses) << Path << ": parses " << FOn.Parses << " (prefilter) vs " << FOff.Parses
                      << ", mayMatch " << !Skipped;
}

void print(const char *What, const Tally &T) {
  std::printf("[ Prefilter ] %-27s %3u files: %3u skipped by the prefilter (mayMatch false), "
              "%3u pass it; %u say `devport: skip-file` (skipped either way; %u of them among "
              "the %u); %u with findings, %u changed by fix, %u with syntax errors\n",
              What, T.Files, T.Skipped, T.Files - T.Skipped, T.SkipFile, T.SkippedWithSkipFile,
              T.Skipped, T.WithFindings, T.Changed, T.SyntaxErrors);
}

TEST(Prefilter, ChangesNothingOnFixturesAndAGeneratedCorpus) {
  RuleSet Rules = shippedRules();
  ASSERT_GT(Rules.size(), 0u);
  EngineOptions Older = EngineOptions::forTest();
  Older.Target = TorchVersion{2, 5};
  Older.FixDocstrings = true;
  EnginePair Default(Rules, EngineOptions::forTest()), Other(Rules, Older);
  ASSERT_TRUE(Default.On && Default.Off && Default.Compiled);
  ASSERT_TRUE(Other.On && Other.Off && Other.Compiled);

  auto Inputs = test::pythonFixtureInputs();
  ASSERT_GT(Inputs.size(), 60u);
  Tally Fixtures;
  for (const auto &[Path, Text] : Inputs) {
    compare(Default, Path, Text, Fixtures);
    compare(Other, Path, Text, Fixtures);
  }
  print("fixture inputs (x2 options)", Fixtures);
  EXPECT_EQ(0u, Fixtures.Failures);
  EXPECT_EQ(0u, Fixtures.Skipped); // every fixture has something to find
  EXPECT_GT(Fixtures.WithFindings, Fixtures.Files / 2);

  constexpr int Mixed = 300, Decoys = 100;
  CorpusGenerator G(0xdeadbeef, Inputs);
  ASSERT_GT(G.statements(), 300u);
  ASSERT_GT(G.paragraphs(), 100u);
  Tally Generated, Plain, Torch;
  for (int I = 0; I < Mixed; ++I) {
    std::string Path = "gen/mixed" + std::to_string(I) + ".py";
    compare(I % 2 ? Other : Default, Path, G.mixedFile(), Generated);
  }
  for (int I = 0; I < Decoys; ++I) {
    bool WithTorch = I % 2;
    std::string Text = G.decoyFile(WithTorch);
    ASSERT_FALSE(hasDeviceWord(Text)) << Text;
    std::string Path = "gen/decoy" + std::to_string(I) + ".py";
    compare(I % 4 < 2 ? Default : Other, Path, Text, WithTorch ? Torch : Plain);
  }
  print("generated, mixed", Generated);
  print("generated, numpy decoys", Plain);
  print("generated, torch decoys", Torch);
  EXPECT_EQ(0u, Generated.Failures + Plain.Failures + Torch.Failures);
  // The corpus exercises both sides: most mixed files are parsed and have
  // findings; files without device words are skipped.
  EXPECT_GT(Generated.WithFindings, Mixed / 2);
  EXPECT_GT(Generated.Changed, Mixed / 3);
  EXPECT_EQ(Plain.Files, Plain.Skipped);
  EXPECT_GT(Torch.Skipped + Generated.Skipped, 0u);
}

TEST(Prefilter, CppGuardMacrosAndRoleFiles) {
  RuleSet Rules = shippedRules();
  EnginePair P(Rules, EngineOptions::forTest());
  ASSERT_TRUE(P.On && P.Off);
  auto Cpp = compiledFor(*P.On, "t.cpp");
  ASSERT_TRUE(Cpp);
  auto Same = [&](const std::string &Path, const std::string &Text) {
    SourceFile F(Path, Text);
    EXPECT_EQ(describe(P.Off->checkAll(F)), describe(P.On->checkAll(F))) << Path;
  };
  // A `#if` is not enough: the build-guard rule's `where` lists its macros,
  // one of which must occur.
  std::string Other = "#ifdef HAVE_FOO\nint x;\n#endif\n";
  std::string Rocm = "#ifdef USE_ROCM\nint x;\n#endif\n";
  EXPECT_FALSE(Cpp->mayMatch(Other));
  EXPECT_TRUE(Cpp->mayMatch(Rocm));
  CheckResult R = P.On->checkAll(SourceFile("src/guard.cpp", Rocm));
  ASSERT_EQ(1u, R.Kept.size());
  EXPECT_EQ("keep-cuda-build-guard", R.Kept[0].RuleId);
  Same("src/guard.cpp", Rocm);
  Same("src/guard.cpp", Other);
  // The prefilter asks for the macro, not for the `#if` keywords beside it
  // (common words of C++): such a file is read, and nothing is found.
  std::string Named = "int USE_ROCM_TOO = 1;\nconst char *s = \"USE_ROCM\";\n";
  EXPECT_TRUE(Cpp->mayMatch(Named));
  EXPECT_TRUE(P.On->checkAll(SourceFile("src/named.cpp", Named)).Kept.empty());
  Same("src/named.cpp", Named);
  // A file of the CUDA role is kept whatever its text holds (--show-kept
  // lists it), and only a file of that role.
  std::string Plain = "int helper();\n";
  EXPECT_FALSE(Cpp->mayMatch(Plain));
  EXPECT_TRUE(Cpp->mayMatchFile("src/cuda/helper.h", Plain));
  EXPECT_TRUE(Cpp->mayMatchFile("src/helper.cu", Plain));
  EXPECT_FALSE(Cpp->mayMatchFile("src/helper.h", Plain));
  R = P.On->checkAll(SourceFile("src/cuda/helper.h", Plain));
  ASSERT_EQ(1u, R.Kept.size());
  EXPECT_EQ("keep-cuda-role-file", R.Kept[0].RuleId);
  Same("src/cuda/helper.h", Plain);
  Same("src/helper.h", Plain);
}

/// The prefilter's scan tells whether a file with nothing to match mentions
/// `devport:` (then read for its directives) and, where it stopped at a
/// possible match, says nothing: each language's answer is that of a search,
/// and checks with and without the prefilter agree.
TEST(Prefilter, ScanTellsWhetherAFileWithNothingToMatchHasADirective) {
  RuleSet Rules = shippedRules();
  EnginePair P(Rules, EngineOptions::forTest());
  ASSERT_TRUE(P.On && P.Off);
  struct Case {
    const char *Path, *Text;
    bool MayMatch;
    int Directives; ///< devport-directive findings
  };
  const Case Cases[] = {
      {"a.py", "x = 1  # devport: ignore[no-such-rule]\n", false, 1},
      {"a.py", "x = 1\n", false, 0},
      {"a.py", "# devport: skip-file\nx = 1  # devport: ignore[no-such-rule]\n", false, 0},
      {"a.py", "import torch\ntorch.cuda.synchronize()\ny = 2  # devport: ignore[nope]\n", true, 1},
      {"a.py", "# devport: skip-file\nimport torch\ntorch.cuda.synchronize()\n", true, 0},
      {"a.cpp", "int x;  // devport: ignore[no-such-rule]\n", false, 1},
      {"a.cpp", "int x;\n", false, 0},
      {"a.cpp", "// devport: skip-file\nint x;  // devport: ignore[no-such-rule]\n", false, 0},
      {"a.cpp", "bool b = t.is_cuda();  // devport: ignore[nope]\n", true, 1},
      {"a.cpp", "// devport: skip-file\nbool b = t.is_cuda();\n", true, 0},
  };
  for (const Case &C : Cases) {
    auto Rules = compiledFor(*P.On, C.Path);
    ASSERT_TRUE(Rules) << C.Path;
    std::optional<bool> Devport;
    EXPECT_EQ(C.MayMatch, Rules->prefilterFile(C.Path, C.Text, Devport)) << C.Text;
    EXPECT_EQ(C.MayMatch, Rules->mayMatchFile(C.Path, C.Text)) << C.Text;
    if (C.MayMatch)
      EXPECT_FALSE(Devport.has_value()) << C.Text;
    else
      EXPECT_EQ(std::optional<bool>(mentionsDevport(C.Text)), Devport) << C.Text;
    SourceFile F(C.Path, C.Text);
    CheckResult On = P.On->checkAll(F);
    EXPECT_EQ(describe(P.Off->checkAll(F)), describe(On)) << C.Text;
    EXPECT_EQ(C.Directives,
              llvm::count_if(On.Findings,
                             [](const Diagnostic &D) { return D.RuleId == "devport-directive"; }))
        << C.Text;
  }
}

/// Engines of the shipped rules with unsafe fixes: one parsing regions (the
/// default), one whole files.
std::pair<std::unique_ptr<Engine>, std::unique_ptr<Engine>> regionAndWholeEngines() {
  RuleSet Rules = shippedRules();
  EngineOptions O = EngineOptions::forTest();
  O.UnsafeFixes = true;
  std::unique_ptr<Engine> Regions = engine(Rules, O);
  O.WholeFiles = true;
  return {std::move(Regions), engine(Rules, O)};
}

/// The arms of an `if` are left out of C++ region lexing together or not at
/// all: the review reads them as one ladder, and lexes again only what is
/// left out inside the braces around a finding, not at a file's or a
/// namespace's level, where a ladder is not C++ but is still read (the
/// fuzz find cpp-lexical/file-level-ladder-63380adf).
TEST(Regions, CppIfArmsAreLeftOutTogether) {
  RuleSet Rules = shippedRules();
  EngineOptions O = EngineOptions::forTest();
  O.UnsafeFixes = true;
  O.Build.Semantic = false;
  std::unique_ptr<Engine> Regions = engine(Rules, O);
  O.WholeFiles = true;
  std::unique_ptr<Engine> Whole = engine(Rules, O);
  ASSERT_TRUE(Regions && Whole);
  const std::string Arms[] = {
      "  if (src == at::kCUDA) {\n    device_type = at::kCUDA;\n  }"
      " else if (src == at::kXPU) {\n    device_type = at::kXPU;\n  }"
      " else if (src == at::kMPS) {\n    device_type = other_device_type_of(src);\n  }\n",
      "  if (src == at::kMPS) {\n    device_type = other_device_type_of(src);\n  }\n"
      "  // the next arm\n#ifdef HAVE_OTHER\n  else if (src == at::kCUDA) {\n"
      "    device_type = at::kCUDA;\n  }\n#endif\n",
      "  if (src == at::kCUDA) device_type = at::kCUDA;\n"
      "  else /* other */ if (src == at::kMPS) device_type = other_device_type_of(src);\n",
  };
  unsigned Ladders = 0;
  for (const std::string &A : Arms)
    for (auto [Open, Close] :
         {std::pair{"", ""}, {"namespace n {\n", "}\n"}, {"void f() {\n", "}\n"}}) {
      std::string Text = "#include <c10/core/DeviceType.h>\nint before = 0;\n";
      Text = Text + Open + A + Close + "int after = 1;\n";
      SourceFile F("t.cpp", Text);
      CheckResult R = Regions->checkAll(F), W = Whole->checkAll(F);
      EXPECT_EQ(describe(W), describe(R)) << Text;
      EXPECT_EQ(describe(Whole->fix(F)), describe(Regions->fix(F))) << Text;
      for (const Diagnostic &K : W.Kept)
        Ladders += llvm::StringRef(K.Message).startswith("a per-backend ladder");
    }
  EXPECT_EQ(9u, Ladders);
}

/// Fix applies the fixes that check reports next to a syntax error. A
/// header with no `:` at its end or anywhere at the top level (`def f(:)`)
/// makes the file parse whole: tree-sitter's recovery from it takes in the
/// statement after it, which then has no finding and no fix, both ways.
/// (Before, the regions left the line out and found 4 where --whole-files
/// found 3; the fuzz find region-fix-after-syntax-error-c7da886d had `2
/// Negatives.` there, a line that ends with `.`: such a file is parsed whole
/// too.)
TEST(Regions, FixAppliesWhatCheckReportsNextToASyntaxError) {
  std::unique_ptr<Engine> Regions, Whole;
  std::tie(Regions, Whole) = regionAndWholeEngines();
  ASSERT_TRUE(Regions && Whole);
  SourceFile F("t.py", "import torch\n"
                       "\n"
                       "with torch.cuda.stream(side):\n"
                       "    pass\n"
                       "ctx = torch.cuda.stream(stream=None)\n"
                       "\n"
                       "\n"
                       "def f(:)\n"
                       "with torch.cuda.device(0):\n"
                       "    pass\n"
                       "s = torch.cuda.Stream()\n");
  CheckResult C = Regions->checkAll(F);
  std::vector<const Fix *> Reported;
  for (const Diagnostic &D : C.Findings)
    if (!D.Fixes.empty())
      Reported.push_back(&D.Fixes.front());
  ASSERT_EQ(3u, Reported.size());
  ApplyResult All = applyFixes(F.text(), Reported);
  ASSERT_EQ(3u, All.Applied.size());
  FixOutcome X = Regions->fix(F);
  EXPECT_EQ(All.Text, X.Text);
  EXPECT_TRUE(X.Dropped.empty());
  EXPECT_NE(llvm::StringRef::npos, llvm::StringRef(X.Text).find("with torch.cuda.device(0):"));

  FixOutcome Y = Whole->fix(F);
  EXPECT_EQ(X.Text, Y.Text);
  EXPECT_EQ(3u, Y.Applied);
}

/// A fix that adds an import changes what the regions of the fixed text
/// take in: here they take in a line of prose, a syntax error that the
/// original's regions left out. Such a fix adds no error to the whole text,
/// and is applied as with --whole-files (found by
/// ChangeNothingOnFixturesAndAGeneratedCorpus once a fixture moved its
/// generated files; both fixes were dropped for "adding a syntax error").
TEST(Regions, FixWhoseImportBringsAnErrorIntoTheRegions) {
  std::unique_ptr<Engine> Regions, Whole;
  std::tie(Regions, Whole) = regionAndWholeEngines();
  ASSERT_TRUE(Regions && Whole);
  SourceFile F(
      "t.py",
      "s = \"x.cuda()\"\n"
      "factory call never touches the device, so the test passed on a CPU-only build, where\n"
      "def wrapped5():\n"
      "    import torch\n"
      "x = torch.cuda.memory_allocated(device=0)  # cuda-memory-allocated\n"
      "def f7(x, device=None):\n"
      "    for i in range(3):\n"
      "        num_gpu = torch.cuda.device_count()\n"
      "    state = torch.load(path, map_location=\"cpu\")\n"
      "message = \"running on cuda\"\n");
  FixOutcome X = Regions->fix(F), Y = Whole->fix(F);
  EXPECT_EQ(Y.Text, X.Text);
  EXPECT_TRUE(X.Dropped.empty());
  EXPECT_EQ(2u, X.Applied);
  EXPECT_TRUE(llvm::StringRef(X.Text).startswith("import torch\n"));
}

/// The `if` before an `if` that a pattern matches whole (`if
/// torch.cuda.device_count() > 1 and ...`) is kept: it names another backend,
/// and the two are a ladder that stays (found by
/// ChangeNothingOnFixturesAndAGeneratedCorpus once a fixture moved its
/// generated files: the `xpu` line held no anchor there after a fix round).
TEST(Regions, KeepTheIfBeforeAnIfThatAPatternMatchesWhole) {
  std::unique_ptr<Engine> Regions, Whole;
  std::tie(Regions, Whole) = regionAndWholeEngines();
  ASSERT_TRUE(Regions && Whole);
  SourceFile F("t.py",
               "import torch\n"
               "\n"
               "\n"
               "def evaluation(eval_loss, enable_fsdp):\n"
               "    if is_xpu_available() and (torch.xpu.device_count() > 1 and enable_fsdp):\n"
               "        dist.all_reduce(eval_loss, op=dist.ReduceOp.SUM)\n"
               "    # Comments between do not part them.\n"
               "    if torch.cuda.device_count() > 1 and enable_fsdp:\n"
               "        dist.all_reduce(eval_loss, op=dist.ReduceOp.SUM)\n"
               "    return eval_loss\n");
  CheckResult A = Regions->checkAll(F), B = Whole->checkAll(F);
  EXPECT_EQ(describe(B), describe(A));
  EXPECT_TRUE(A.Findings.empty()); // kept: a ladder
}

/// Region parsing (EngineOptions::WholeFiles off, the default) and the marks
/// it gives the matcher change nothing: checkAll, fix and checkIncremental
/// (what the language server calls: a whole parse, matched where the marks
/// are) against whole files.
TEST(Regions, ChangeNothingOnFixturesAndAGeneratedCorpus) {
  std::unique_ptr<Engine> Regions, Whole;
  std::tie(Regions, Whole) = regionAndWholeEngines();
  ASSERT_TRUE(Regions && Whole);
  unsigned Files = 0, Failures = 0, WithFindings = 0;
  auto Compare = [&](const std::string &Path, const std::string &Text) {
    SourceFile F(Path, Text);
    ++Files;
    std::unique_ptr<ParsedFile> P1, P2;
    CheckResult A = Regions->checkAll(F), B = Whole->checkAll(F);
    CheckResult C = Regions->checkIncremental(F, nullptr, {}, P1);
    CheckResult D = Whole->checkIncremental(F, nullptr, {}, P2);
    FixOutcome X = Regions->fix(F), Y = Whole->fix(F);
    WithFindings += !B.Findings.empty();
    if ((describe(A) == describe(B) && describe(C) == describe(D) &&
         describe(X) == describe(Y)) ||
        ++Failures > 3)
      return;
    EXPECT_EQ(describe(B), describe(A)) << Path << ": checkAll differs\n--- file:\n" << Text;
    EXPECT_EQ(describe(D), describe(C)) << Path << ": checkIncremental differs\n--- file:\n" << Text;
    EXPECT_EQ(describe(Y), describe(X)) << Path << ": fix differs\n--- file:\n" << Text;
  };
  // Each of Cases as case/NAME<index>.py.
  auto CompareAll = [&](llvm::StringRef Name, const auto &Cases) {
    for (size_t I = 0; I < std::size(Cases); ++I)
      Compare(("case/" + Name + std::to_string(I) + ".py").str(), Cases[I]);
  };
  auto Inputs = test::pythonFixtureInputs();
  for (const auto &[Path, Text] : Inputs)
    Compare(Path, Text);
  CorpusGenerator G(0x5eed2026, Inputs);
  for (int I = 0; I < 300; ++I)
    Compare("gen/mixed" + std::to_string(I) + ".py", G.mixedFile());
  // A module name with a syntax error: the regions read no import there,
  // and neither may the name resolver (found by the edits below).
  Compare("case/broken-import.py",
          "from  torch.=testing._internal.common_device_type import onlyCUDA\n"
          "class TestFoo:\n    @onlyCUDA\n");
  // Lines that start no statement (found when a new fixture moved the
  // generated files): one that ends with `:` with no compound keyword
  // before it (`range(3):`), one that starts with a keyword such as `and`
  // (prose). tree-sitter's recovery reads them with the lines around, into
  // an error node that holds the finding, and the regions left them out:
  // such a file is parsed whole.
  Compare("case/header-without-keyword.py", "if flag:\n"
                                            "    kwargs[\"device\"] = \"cuda\"\n"
                                            "    def f4(x, device=None):\n"
                                            "           range(3):\n"
                                            "                             they\n"
                                            "    pairs  [(i, j)\n"
                                            "                range(i)]\n"
                                            "    \"\"\"Does\n"
                                            "    \"\"\"\n");
  Compare("case/line-starting-with-and.py",
          "if flag:\n"
          "    kwargs[\"device\"] = \"cuda\"  # stored as a setting\n"
          "    def f4(x, device=None):\n"
          "        for i in range(3):\n"
          "            and the script passed doing nothing; ported, a Mac or an XPU host starts "
          "them, and what they\n"
          "    pairs = [(i, j) for i in range(3)\n"
          "             for j in range(i)]\n"
          "    \"\"\"Does a thing.\n"
          "    \"\"\"\n");
  // A character that tree-sitter-python takes for a blank and the region
  // scan for part of a name (U+FEFF, U+2060, U+200B): the import binds
  // max_memory_allocated, whose use has no anchor of its own (a fuzz find,
  // python-engine/region-invisible-space-in-import-4e798f43).
  for (const char *Space : {"\xEF\xBB\xBF", "\xE2\x81\xA0", "\xE2\x80\x8B"})
    Compare("case/invisible-space.py", std::string("import torch\nfrom torch.cuda ") + Space +
                                           "import max_memory_allocated\n\n\n" +
                                           std::string(200, '#') +
                                           "\nx = max_memory_allocated()\n");
  // What the review reads in guarded code, on lines without an anchor that
  // region parsing keeps for it (Review.h, mentionsGuardedWord): each case's
  // note, or its kept ladder, comes from such a line. (An anchored `if` is
  // kept whole while keep-cuda-feature-guard matches `if` statements whole:
  // the third and the sixth case pass even when no line counts as guarded;
  // the other five fail then.)
  const char *Guarded[] = {
      // float64, which MPS lacks, after an early exit: no fix.
      "import torch\n\n\ndef f(x):\n    if not torch.cuda.is_available():\n        a = 1\n"
      "        return x\n    b = 2\n    y = x.to(torch.float64)\n    c = 3\n    return y\n",
      // A CPU fallback in a loop's guard: unsafe.
      "import torch\n\n\ndef main(args):\n    while not torch.cuda.is_available():\n"
      "        print('no')\n        args.where = \"cpu\"\n        log()\n    return args\n",
      // Another backend in the else branch: a ladder, kept.
      "import torch\n\n\ndef pick():\n    if torch.cuda.is_available():\n        d = 1\n"
      "    else:\n        n = 2\n        if torch.backends.mps.is_available():\n"
      "            d = 2\n        m = 3\n    return d\n",
      // A CUDA-named string in what a skip decorator guards: no fix.
      "import unittest\nimport torch\n\n\nclass T(unittest.TestCase):\n"
      "    @unittest.skipIf(not torch.cuda.is_available(), 'needs a GPU')\n"
      "    def test_x(self):\n        a = 1\n        h = load_plugin('tensorrt')\n"
      "        b = 2\n",
      // A CUDA-named call after an early exit: no fix.
      "import torch\n\n\ndef f():\n    if not torch.cuda.is_available():\n        x = 1\n"
      "        return\n    y = 2\n    z = nvtx_range_push('a')\n    w = 3\n",
      // The early exit is the block's last statement: what follows is guarded.
      "import unittest\nimport torch\n\n\nclass T(unittest.TestCase):\n    def test_y(self):\n"
      "        if not torch.cuda.is_available():\n            msg = 'x'\n"
      "            self.skipTest(msg)\n        a = 1\n        s = torch.cuda.Stream()\n"
      "        b = 2\n",
      // What an anchored `assert` guards, to the end of its function: a
      // CUDA-named string there, no fix (region parsing left it out, and
      // offered a safe fix, up to 2026-11-27).
      "import torch\n\n\ndef f():\n    a = 1\n    assert torch.cuda.is_available()\n"
      "    b = 2\n    h = load_plugin('tensorrt')\n    return h\n\n\ndef g():\n    return 1\n",
  };
  CompareAll("guarded", Guarded);
  // Prose (a statement of plain strings alone) is no region of its own: the
  // findings and fixes around it, a doctest in it, a rule's string value as
  // a statement, and an f-string are as in the whole file.
  const char *Prose[] = {
      "import torch\n\n\ndef f(x):\n    \"\"\"Moves x to cuda: x.cuda().\"\"\"\n"
      "    return x.cuda()\n\n\ndef g():\n    'torch.cuda.synchronize() is slow'\n",
      "import torch\n\n\ndef f(x):\n    \"\"\"Example:\n\n    >>> x.cuda()\n    \"\"\"\n"
      "    return x\n",
      "import torch.distributed as dist\n'cpu:gloo,cuda:nccl'\n\"cuda:nccl,cpu:gloo\"\n"
      "dist.init_process_group('nccl')\n",
      "'''Runs on cuda and nccl.'''\nimport torch\nx = torch.zeros(2)\n",
      "import torch\n\n\nclass T:\n    def test(self):\n        'needs cuda'\n\n"
      "    def other(self):\n        f'{torch.cuda.device_count()} devices'\n"
      "        return torch.device('cuda')\n",
  };
  CompareAll("prose", Prose);
  // A rule's word in a string counts only where some pattern can find it
  // there (WordUse): messages, tables of CUDA names, byte and raw
  // strings are no regions; values, device strings, mock targets, f-strings
  // and strings after one in their line are.
  const char *Strings[] = {
      "import torch\n\n\ndef f(x):\n    if x is None:\n"
      "        raise RuntimeError('cuda is not available')\n    return x.to('cuda')\n",
      "MAP = {\n    'cudaMalloc': ('hipMalloc', 1),\n    \"cudaFree\": ('hipFree', 2),\n}\n"
      "import torch\nd = torch.device('cuda', 0)\ne = torch.device(b'cuda')\n",
      "import torch\nx = torch.zeros(2, device=r'cuda')\ny = x.to(u\"cuda:1\")\n"
      "z = x.to('''cuda''')\nw = x.to(\"cuda:%d\" % 0)\nv = 'cuda:{}'.format(1)\n",
      "import torch\nfrom unittest import mock\n\n\n"
      "@mock.patch('torch.cuda.is_available', return_value=False)\n"
      "def test(m):\n    with mock.patch(\"torch.cuda.device_count\"):\n        pass\n"
      "    s = 'torch.cuda.device_count is patched'\n",
      "import torch\nd = {'k': 1}\nx = 1\ny = f'{d[\"k\"]}' + 'cuda'\n"
      "z = f'{torch.cuda.device_count()}' 'cuda'\nt = torch.zeros(1).to(f'cuda:{x}')\n",
      "import torch.distributed as dist\nmsg = 'nccl is slow'\n"
      "dist.init_process_group(backend='nccl')\nb = 'cpu:gloo,cuda:nccl'\n"
      "dist.init_process_group(b)\ntorch._C._cuda_getDevice()\nn = '_cuda_x'\n",
      // Words inside longer names count where a pattern's regex reads names.
      "import torch\nimport argparse\n\n\ndef main(args):\n    use_cuda = args.cuda\n"
      "    cuda_graph = None\n    if use_cuda:\n        model = model.cuda()\n"
      "    TEST_CUDA = torch.cuda.is_available()\n    if TEST_CUDA and x.is_cuda:\n"
      "        pass\n    cuda = torch.cuda\n    cuda.synchronize()\n"
      "    getattr(torch.cuda, 'synchronize')()\n    devices = get_devices()\n"
      "    return devices\n",
      // An import after a `;`: its alias is a name of torch.cuda.
      "import torch\nx = 1; from torch.cuda import synchronize as sync\n\n\ndef f():\n"
      "    a = 1\n    sync()\n    return a\n",
  };
  CompareAll("strings", Strings);
  // Tables (module-level lists and dicts of many elements) parsed in the
  // elements that hold a mark: findings in them, suppressions, aliases and
  // what the review reads are as in the whole file.
  auto OpInfo = [](int I) -> std::string {
    switch (I % 9) {
    case 1:
      return "DecorateInfo(unittest.skip('x'), 'TestCommon', device_type='cuda')";
    case 3:
      return "OpInfo('a',\n        sample_inputs_func=lambda op, device: op(device='cuda'),\n"
             "        supports_out=False)";
    case 5:
      return "OpInfo('b',  # devport: ignore[cuda-method]\n        ref=lambda x: x.cuda(),\n"
             "        skips=(tc.synchronize(),))";
    case 7:
      return "OpInfo('c',  # a comment\n        dtypes=floating_types(),\n"
             "        error_inputs_func=lambda: 'cudaErrorInvalidValue')";
    default:
      return "OpInfo('op" + std::to_string(I) +
             "',\n        dtypes=all_types(),\n"
             "        sample_inputs_func=partial(sample_inputs, n=" +
             std::to_string(I) + "))";
    }
  };
  auto Pair = [](int I) -> std::string {
    switch (I % 7) {
    case 2:
      return "'dev" + std::to_string(I) + "': 'cuda'";
    case 4:
      return "'cudaMalloc" + std::to_string(I) + "': ('hipMalloc', CONV_MEM, API_RUNTIME)";
    case 6:
      return "'s" + std::to_string(I) + "': torch.cuda.Stream()";
    default:
      return "'k" + std::to_string(I) + "': ('hipFree', CONV_MEM, API_RUNTIME, " +
             std::to_string(I) + ")";
    }
  };
  std::string Tables[] = {
      "import torch\nimport torch.cuda as tc\nimport unittest\n\n" +
          test::pythonTable("op_db: List[OpInfo] = [", 60, OpInfo, "]") +
          "\n\ndef f():\n    return 1\n",
      "import torch\n\n" + test::pythonTable("CUDA_MAP = {", 70, Pair, "}") +
          "x = torch.zeros(2).cuda()\n",
      "import torch\nx = 1\n" + test::pythonTable("PAIRS = (", 50, OpInfo, ")") + "y = 2\n",
  };
  CompareAll("table", Tables);
  std::printf("[ Regions ] %u files, %u with findings, %u differ\n", Files, WithFindings, Failures);
  EXPECT_EQ(0u, Failures);
  EXPECT_GT(WithFindings, Files / 2);
}

/// Rules whose patterns may match a table's statement or its container:
/// region parsing then parses tables whole (RegionRules::TablesSplit,
/// ContainerArity), and finds what the whole file gives.
TEST(Regions, TablesAreWholeWhereAPatternMayMatchThem) {
  std::string Table =
      "import torch\nx = 1\n" +
      test::pythonTable(
          "T = [", 200,
          [](int I) {
            return I % 50 == 7 ? std::string("('cuda', 1)") : "('hip', " + std::to_string(I) + ")";
          },
          "]") +
      "y = 2\n";
  auto Rule = [](llvm::StringRef Pattern, llvm::StringRef Where) {
    return "id: r\nlanguage: python\ncategory: test\nseverity: warning\nmessage: m\n"
           "pattern: '" +
           Pattern.str() + "'\nwhere:\n" + Where.str();
  };
  std::string Pairs = "import torch\nx = 1\nT = {\n    'dev': 'cuda',\n    'k': '";
  for (int I = 0; I < 600; ++I)
    Pairs += "zzz ";
  Pairs += "',\n}\ny = 2\n";
  const std::pair<std::string, std::string> Cases[] = {
      // The value of an assignment: what it binds holds `hip` in elements
      // that hold no mark.
      {Rule("$V = $X", "  X:\n    regex: cuda\n    not-regex: hip\n"), Table},
      // A dict of as many pairs as the table: its second pair holds `zzz`,
      // and no mark.
      {Rule("{$K: $S, $K2: $V2}", "  S:\n    regex: cuda\n  V2:\n    not-regex: zzz\n"), Pairs},
  };
  for (const auto &[Yaml, Text] : Cases) {
    auto Loaded = RuleSet::loadBuffer("r.yaml", Yaml);
    ASSERT_TRUE(static_cast<bool>(Loaded)) << llvm::toString(Loaded.takeError());
    RuleSet Set = std::move(*Loaded);
    EngineOptions O = EngineOptions::forTest();
    auto Regions = Engine::create(Set, O);
    O.WholeFiles = true;
    auto Whole = Engine::create(Set, O);
    ASSERT_TRUE(Regions && Whole);
    SourceFile F("t.py", Text);
    CheckResult A = (*Regions)->checkAll(F), B = (*Whole)->checkAll(F);
    EXPECT_TRUE(B.Findings.empty()) << Yaml;
    EXPECT_EQ(describe(B), describe(A)) << Yaml;
  }
}

/// Random edits, one at a time: insertions of code that rules match, imports,
/// brackets, indentation and comments at ASCII offsets, and deletions of a
/// few bytes or of a line.
class EditGenerator {
public:
  explicit EditGenerator(uint32_t Seed) : Rng(Seed) {}

  Edit next(llvm::StringRef Text) {
    static const char *Snippets[] = {" ",
                                     "x",
                                     "\n",
                                     "(",
                                     ")",
                                     ":",
                                     ",",
                                     "    ",
                                     "#",
                                     "# ",
                                     ".cuda()",
                                     "'cuda'",
                                     "\"cuda:0\"",
                                     " and ",
                                     "not ",
                                     "\"\"\"",
                                     "=",
                                     "==",
                                     "torch.cuda.synchronize()\n",
                                     "import torch.cuda as tc\n",
                                     "from torch.cuda import current_device\n",
                                     "tc.current_device()\n",
                                     "dev = 'cuda'\n",
                                     "x.to(dev)\n",
                                     "use_cuda = torch.cuda.is_available()\n",
                                     "if torch.cuda.is_available():\n    x = 1\n",
                                     "def g():\n    return torch.cuda.device_count()\n",
                                     "class K:\n    pass\n",
                                     "torch.device(\"cuda\")",
                                     "    >>> x.cuda()\n",
                                     "with torch.cuda.device(0):\n    pass\n",
                                     "dist.init_process_group(\"nccl\")\n",
                                     "torch.cuda.amp.autocast()",
                                     "self.use_cuda = True\n"};
    uint32_t At = ascii(Text, pick(static_cast<uint32_t>(Text.size()) + 1));
    switch (pick(4)) {
    case 0:
    case 1:
      return Edit::insertion(At, Snippets[pick(std::size(Snippets))]);
    case 2: { // a few bytes
      uint32_t End = ascii(Text, std::min<uint32_t>(At + 1 + pick(24), Text.size()));
      return Edit::deletion({At, std::max(At, End)});
    }
    default: { // the line At is on
      size_t B = Text.rfind('\n', At == 0 ? 0 : At - 1);
      B = B == llvm::StringRef::npos || At == 0 ? 0 : B + 1;
      size_t E = Text.find('\n', At);
      E = E == llvm::StringRef::npos ? Text.size() : E + 1;
      return Edit::deletion({static_cast<uint32_t>(B), static_cast<uint32_t>(E)});
    }
    }
  }

private:
  uint32_t pick(size_t N) { return static_cast<uint32_t>(Rng() % N); }
  /// At, or the next offset whose byte (and the one before) is ASCII: no
  /// edit splits a character.
  static uint32_t ascii(llvm::StringRef T, uint32_t At) {
    while (At < T.size() && ((static_cast<unsigned char>(T[At]) & 0x80) ||
                             (At > 0 && (static_cast<unsigned char>(T[At - 1]) & 0x80))))
      ++At;
    return At;
  }
  std::mt19937 Rng;
};

/// T with E applied.
std::string edited(llvm::StringRef T, const Edit &E) {
  std::string Out = T.str();
  Out.replace(E.Range.Begin, E.Range.End - E.Range.Begin, E.Replacement);
  return Out;
}

/// What the language server's check finds in Next after the one edit E from
/// the text of Previous (parsed incrementally: the new parse is Parsed), and
/// what a check of Next from scratch finds, described.
struct ChecksAfterEdit {
  std::string Incremental, Scratch;
  std::unique_ptr<ParsedFile> Parsed;
};
ChecksAfterEdit checkAfterEdit(const Engine &E, const SourceFile &Next, const ParsedFile *Previous,
                               const Edit &Ed) {
  ChecksAfterEdit R;
  std::unique_ptr<ParsedFile> Fresh;
  R.Incremental = describe(E.checkIncremental(Next, Previous, {Ed}, R.Parsed));
  R.Scratch = describe(E.checkIncremental(Next, nullptr, {}, Fresh));
  return R;
}

/// The language server's check after an edit (an incremental parse, and a
/// match of the nodes that matched before and of the statements the edit
/// touched) finds what a check of the new text from scratch finds, edit
/// after edit. Most random edits leave a syntax error or a layout that the
/// regions do not mark (an unterminated string), which a fresh match
/// follows; a tenth of the steps at least are matched after the edit only.
TEST(Regions, IncrementalCheckAfterEachEditEqualsACheckFromScratch) {
  std::unique_ptr<Engine> Regions = regionAndWholeEngines().first;
  ASSERT_TRUE(Regions);
  auto Inputs = test::pythonFixtureInputs();
  EditGenerator Edits(0xed175eed);
  unsigned Steps = 0, AfterEdits = 0, WithErrors = 0, Failures = 0;
  // KeepBroken: the next edit starts from a text with a syntax error too (as
  // typing goes), not mostly from one without.
  auto Chain = [&](const std::string &Path, std::string Text, int Count, bool KeepBroken = false) {
    auto File = std::make_unique<SourceFile>(Path, Text);
    std::unique_ptr<ParsedFile> Parsed;
    Regions->checkIncremental(*File, nullptr, {}, Parsed);
    for (int I = 0; I < Count && Failures < 3; ++I) {
      Edit E = Edits.next(File->text());
      auto NextFile = std::make_unique<SourceFile>(Path, edited(File->text(), E));
      ChecksAfterEdit C = checkAfterEdit(*Regions, *NextFile, Parsed.get(), E);
      std::unique_ptr<ParsedFile> &P = C.Parsed;
      ++Steps;
      if (const auto *Py = dynamic_cast<const python::PythonParsedFile *>(P.get())) {
        AfterEdits += Py->editOnly();
        WithErrors += Py->editOnly() && Py->syntaxErrors() > 0;
      }
      if (C.Incremental != C.Scratch) {
        ++Failures;
        EXPECT_EQ(C.Scratch, C.Incremental)
            << Path << ", edit " << I << ": [" << E.Range.Begin << ", " << E.Range.End << ") -> '"
            << E.Replacement << "'\n--- before:\n"
            << File->text().str() << "\n--- after:\n"
            << NextFile->text().str();
      }
      // Most edits that break the syntax are undone, so that most steps
      // start from a text without an error.
      if (!KeepBroken && P && P->syntaxErrors() > 0 && I % 4 != 0)
        continue;
      Parsed = std::move(P); // before the text it refers to goes
      File = std::move(NextFile);
    }
  };
  // Edits whose effect reaches code they do not touch: an import that binds
  // a name used elsewhere (added, removed, in a class), a doctest next to an
  // edit, a statement whose end is typed on.
  struct Case {
    const char *Text;
    const char *At;  ///< The edit is made before the first occurrence of this in Text.
    unsigned Delete; ///< Bytes deleted there,
    const char *Put; ///< and what goes in.
  } Cases[] = {
      {"def f():\n    return tc.current_device()\n", "def", 0, "import torch.cuda as tc\n"},
      {"x = 1\n\n\ndef f():\n    return tc.current_device()\n", "x = 1", 5,
       "import torch.cuda as tc"},
      {"import torch.cuda as tc\n\n\ndef f():\n    return tc.current_device()\n", "import", 24, ""},
      {"import torch.cuda as tc\n\ndef f():\n    return tc.current_device()\n", "as tc", 5,
       "as tk"},
      {"class K:\n    x = tc.current_device()\n", "    x", 0, "    import torch.cuda as tc\n"},
      {"def f():\n    \"\"\"Use it.\n\n    >>> x.cuda()\n    \"\"\"\n\n\ny = 1\n", "y = 1", 0,
       "z = 2\n"},
      {"import torch\ny = torch.cuda\n", "\n", 0, ".synchronize()"},
      {"import torch\nx = torch.cuda.synchronize\n", "\nx", 0, "\nx()"},
      {"import torch\ntorch.cuda = None\n", "= None", 1, "=="},
      // The end of a statement deleted: the bytes before the edit hold it.
      {"HAS_CUDA = torch.cuda.is_available() or x\nz = 1\n", " or x\n", 5, ""},
      // A compound statement's header: its blocks as they were, or not (a
      // class that becomes a function lets the functions in it see its
      // imports).
      {"class K:\n    x = 1\n\n    def f(self):\n        return torch.cuda.current_device()\n",
       ":\n    x", 0, "(Base)"},
      {"class K:\n    import torch.cuda as tc\n\n    def f(self):\n        return "
       "tc.current_device()\n",
       "class K:", 8, "def K():"},
      {"def f(x):\n    return x.cuda()\n", "(x):", 4, "(x, d=torch.cuda.current_device()):"},
      // A line at column 0 in a function: tree-sitter takes the statements
      // after it out of the function without an error (Python would call
      // them an unexpected indent), and the import no longer binds there.
      {"def f(x):\n    from torch.cuda.amp import autocast\n    x = 1  # c uda-amp\n"
       "    with autocast():\n        pass\n",
       "uda-amp", 0, "\n"},
      {"def f(x):\n    from torch.cuda.amp import autocast\n    x = 1  # c\nuda-amp\n"
       "    with autocast():\n        pass\n",
       "\nuda-amp", 1, ""},
      // A suppression typed, and one taken away.
      {"x = torch.cuda.current_device()\n", "\n", 0, "  # devport: ignore[cuda-current-device]"},
      {"x = torch.cuda.current_device()  # devport: ignore[cuda-current-device]\n", "  #", 40, ""},
      // An `else` broken by what is typed into it: the `if` that held it
      // ends before the edit now, and its keep match is made again.
      {"if torch.cuda.is_available():\n  torch.backends.cudnn.benchmark = True\n"
       "    graph = torch.cuda.CUDAGraph()\nelse:\n    graph = None\n",
       "e:\n    graph = None", 0, "dev = 'cuda'\n"},
      // An import broken on the edited line: what it bound, a parse from
      // scratch decides.
      {"from torch.cuda import nvtx\nimport torch.cuda.nvtx as nv\n\nnv.mark(\"x\")\n", "as nv", 0,
       ":"},
  };
  for (const Case &C : Cases) {
    // Something to match, so that the prefilter never skips the file.
    std::string Prefix = "import torch\n\ntorch.cuda.synchronize()\n\n";
    std::string Text = Prefix + C.Text;
    size_t Found = Text.find(C.At, Prefix.size());
    ASSERT_NE(std::string::npos, Found) << C.At;
    uint32_t At = static_cast<uint32_t>(Found);
    ASSERT_LE(At + C.Delete, Text.size()) << C.Text;
    SourceFile File("case.py", Text);
    std::unique_ptr<ParsedFile> Parsed;
    Regions->checkIncremental(File, nullptr, {}, Parsed);
    Edit E{{At, At + C.Delete}, C.Put, EditRole::Code};
    SourceFile Next("case.py", edited(Text, E));
    ChecksAfterEdit R = checkAfterEdit(*Regions, Next, Parsed.get(), E);
    EXPECT_EQ(R.Scratch, R.Incremental) << "--- before:\n"
                                        << Text << "--- after:\n"
                                        << Next.text().str();
  }
  // Two seeds: with one, each fixture added moved the edits onto another
  // text, and twice onto a divergence that had been there all along (each
  // seed is some 3 s of this test).
  const std::pair<uint32_t, uint32_t> Seeds[] = {{0x1dea2026, 0xed175eed},
                                                 {0x5eed0001, 0x5eed0001}};
  for (const auto &[CorpusSeed, EditSeed] : Seeds) {
    CorpusGenerator G(CorpusSeed, Inputs);
    Edits = EditGenerator(EditSeed);
    for (size_t I = 0; I < Inputs.size(); I += 2)
      Chain(Inputs[I].first, Inputs[I].second, 20);
    for (int I = 0; I < 40; ++I)
      Chain("gen/edited" + std::to_string(I) + ".py", G.mixedFile(), 30);
    for (int I = 0; I < 20; ++I)
      Chain("gen/broken" + std::to_string(I) + ".py", G.mixedFile(), 30, /*KeepBroken=*/true);
  }
  // Typing, a keystroke at a time, and deleting it again: most versions in
  // between have a syntax error in the line being typed, and are matched
  // after the edit only.
  for (size_t I = 0; I < Inputs.size(); I += 7) {
    const std::string &Text = Inputs[I].second;
    size_t Line = Text.find("\n    ");
    if (Line == std::string::npos || Failures >= 3)
      continue;
    std::string Typed = "    n = torch.cuda.device_count(x, [1, \"a\"]) if d else {}\n";
    auto File = std::make_unique<SourceFile>(Inputs[I].first, Text);
    std::unique_ptr<ParsedFile> Parsed;
    Regions->checkIncremental(*File, nullptr, {}, Parsed);
    uint32_t At = static_cast<uint32_t>(Line + 1);
    for (size_t K = 0; K < 2 * Typed.size() && Failures < 3; ++K) {
      bool Typing = K < Typed.size();
      uint32_t Pos = At + static_cast<uint32_t>(Typing ? K : 2 * Typed.size() - K - 1);
      Edit E = Typing ? Edit{{Pos, Pos}, std::string(1, Typed[K]), EditRole::Code}
                      : Edit{{Pos, Pos + 1}, "", EditRole::Code};
      auto NextFile = std::make_unique<SourceFile>(File->path(), edited(File->text(), E));
      ChecksAfterEdit C = checkAfterEdit(*Regions, *NextFile, Parsed.get(), E);
      ++Steps;
      if (const auto *Py = dynamic_cast<const python::PythonParsedFile *>(C.Parsed.get())) {
        AfterEdits += Py->editOnly();
        WithErrors += Py->editOnly() && Py->syntaxErrors() > 0;
      }
      if (C.Incremental != C.Scratch) {
        ++Failures;
        EXPECT_EQ(C.Scratch, C.Incremental)
            << File->path() << ", keystroke " << K << "\n--- after:\n"
            << NextFile->text().str();
      }
      Parsed = std::move(C.Parsed);
      File = std::move(NextFile);
    }
  }
  std::printf("[ Regions ] %u edits, %u matched after the edit only (%u with a syntax error), "
              "%u differ\n",
              Steps, AfterEdits, WithErrors, Failures);
  EXPECT_EQ(0u, Failures);
  EXPECT_GT(AfterEdits, Steps / 10);
  EXPECT_GT(WithErrors, Steps / 20);
}

/// The settings change between two versions (the language server rebuilds
/// its engine, then an edit comes): the previous matches were made with
/// other rules, and are not reused.
TEST(Regions, IncrementalCheckWithAnotherEngineMatchesAfresh) {
  EngineOptions O = EngineOptions::forTest();
  std::unique_ptr<Engine> All = engine(shippedRules(), O);
  auto Fewer = shippedRules().filtered({}, {"cuda-synchronize"});
  ASSERT_TRUE(static_cast<bool>(Fewer)) << llvm::toString(Fewer.takeError());
  std::unique_ptr<Engine> Some = engine(std::move(*Fewer), O);
  ASSERT_TRUE(All && Some);
  std::string Text = "import torch\n\ntorch.cuda.synchronize()\nx = torch.cuda.current_device()\n";
  SourceFile Before("t.py", Text);
  std::unique_ptr<ParsedFile> Parsed;
  All->checkIncremental(Before, nullptr, {}, Parsed);
  Edit E = Edit::insertion(static_cast<uint32_t>(Text.size()), "y = 1\n");
  SourceFile After("t.py", edited(Text, E));
  ChecksAfterEdit R = checkAfterEdit(*Some, After, Parsed.get(), E);
  EXPECT_EQ(R.Scratch, R.Incremental);
  EXPECT_EQ(llvm::StringRef::npos, llvm::StringRef(R.Incremental).find("cuda-synchronize"));
  EXPECT_NE(llvm::StringRef::npos, llvm::StringRef(R.Incremental).find("cuda-current-device"));
}

} // namespace
} // namespace devport
