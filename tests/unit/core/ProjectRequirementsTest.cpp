//===--- ProjectRequirementsTest.cpp - The PyTorch a project declares -----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// The requirement parser, the four file readers (with the traps: other
// distributions, markers, extras, comments, strings that look like code,
// malformed files), the upward search, the precedence between files, and the
// precedence of the target's origins.
//
//===----------------------------------------------------------------------===//

#include "core/ProjectRequirements.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"

#include <gtest/gtest.h>

#include <random>

namespace devport {
namespace {

/// "-" for no torch requirement, "none" for one without a floor, else the
/// floor.
std::string floorOf(const std::optional<TorchRequirement> &R) {
  if (!R)
    return "-";
  return R->Floor ? R->Floor->str() : "none";
}

/// The same for a reader's result; "error: ..." when it failed.
std::string floorOf(llvm::Expected<std::optional<TorchRequirement>> R) {
  if (!R)
    return "error: " + llvm::toString(R.takeError());
  return floorOf(*R);
}

TEST(ProjectRequirements, EveryOperatorGivesItsFloor) {
  struct Case {
    const char *Requirement, *Floor;
  } Cases[] = {
      {"torch>=2.1", "2.1"},
      {"torch >= 2.1.0", "2.1"},
      {"torch>=2", "2.0"},
      {"torch>=2.10", "2.10"},
      {"torch==2.3.1", "2.3"},
      {"torch==2.3.*", "2.3"},
      {"torch==2.*", "2.0"},
      {"torch~=2.2.0", "2.2"},
      {"torch~=2.2", "2.2"},
      {"torch>2.4", "2.4"},
      {"torch>2.4.1", "2.4"},
      {"torch===2.5.0", "2.5"},
      {"torch>=2.1.0rc1", "2.1"},
      {"torch==2.4.1+cu118", "2.4"},
      {"torch>=0!2.1", "2.1"},
      {"torch>=v2.1", "2.1"},
      // Clauses: the highest lower bound.
      {"torch>=2.1,<3", "2.1"},
      {"torch>=1.13, >=2.2, !=2.3.0", "2.2"},
      {"torch<3,>=2.4", "2.4"},
      {"torch (>=2.1, <3)", "2.1"},
      // No lower bound.
      {"torch", "none"},
      {"torch<3", "none"},
      {"torch<=2.5", "none"},
      {"torch!=2.1.0", "none"},
      {"torch>=1!2.1", "none"},            // another epoch: no X.Y
      {"torch>=99999999999.1", "none"},    // too large: no wrap-around
      {"torch @ https://download.pytorch.org/whl/torch-2.1.0-cp311.whl", "none"},
      // Names: case and extras.
      {"Torch>=2.1", "2.1"},
      {"TORCH>=2.1", "2.1"},
      {"torch[cuda]>=2.1", "2.1"},
      {"torch [cuda, opt-einsum] >= 2.2", "2.2"},
      // Markers are not a version.
      {"torch ; python_version<\"3.9\"", "none"},
      {"torch>=2.1; python_version >= '3.9'", "2.1"},
      {"torch>=2.3;sys_platform=='linux'", "2.3"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(C.Floor, floorOf(parseTorchRequirement(C.Requirement))) << C.Requirement;
}

TEST(ProjectRequirements, OnlyTheTorchDistributionCounts) {
  for (const char *Other :
       {"torchvision>=0.15", "torchaudio>=2.1", "torch-xla>=2.1", "torch_xla>=2.1",
        "torch.utils>=2.1", "pytorch>=2.1", "xtorch>=2.1", "torch-", "-torch", "", "  ",
        "# torch>=2.1", "torch 2.1", "torch/x.whl", "./torch", "torch[cuda>=2.1"})
    EXPECT_EQ("-", floorOf(parseTorchRequirement(Other))) << "'" << Other << "'";
  EXPECT_TRUE(isTorchName("torch"));
  EXPECT_TRUE(isTorchName("Torch"));
  EXPECT_FALSE(isTorchName("torch-xla"));
  EXPECT_FALSE(isTorchName("torch_xla"));
  EXPECT_FALSE(isTorchName("torch."));
  // The text is kept as written (trimmed) for the summary.
  auto R = parseTorchRequirement("  torch[cuda] >= 2.1 ; python_version >= '3.9'  ");
  ASSERT_TRUE(R.has_value());
  EXPECT_EQ("torch[cuda] >= 2.1 ; python_version >= '3.9'", R->Text);
}

TEST(ProjectRequirements, PoetryConstraints) {
  struct Case {
    const char *Constraint, *Floor;
  } Cases[] = {{"^2.1", "2.1"},        {"~2.1", "2.1"},       {"~=2.1", "2.1"},
               {">=2.1,<3", "2.1"},    {"2.1", "2.1"},        {"2.1.*", "2.1"},
               {"*", "none"},          {"<3", "none"},        {"^1.13 || ^2.0", "1.13"},
               {"^2.0 || *", "none"},  {"^2.2.1", "2.2"}};
  for (const Case &C : Cases) {
    std::optional<TorchVersion> F = poetryFloor(C.Constraint);
    EXPECT_EQ(C.Floor, F ? F->str() : "none") << C.Constraint;
  }
}

TEST(ProjectRequirements, StrictestOfRequirementsThatAllHold) {
  std::vector<TorchRequirement> All = {{"torch", std::nullopt},
                                       {"torch>=2.2", TorchVersion{2, 2}},
                                       {"torch>=2.4", TorchVersion{2, 4}},
                                       {"torch>=2.3", TorchVersion{2, 3}}};
  auto S = strictest(All);
  ASSERT_TRUE(S.has_value());
  EXPECT_EQ("torch>=2.4", S->Text);
  EXPECT_EQ("torch", strictest({{"torch", std::nullopt}, {"torch<3", std::nullopt}})->Text);
  EXPECT_FALSE(strictest({}).has_value());
}

//===----------------------------------------------------------------------===//
// pyproject.toml
//===----------------------------------------------------------------------===//

TEST(ProjectRequirements, PyprojectDependencies) {
  auto R = readPyprojectToml(R"toml(# a project
[build-system]
requires = ["setuptools", "torch>=2.8"]   # build time only

[project]
name = "demo"
version = "1.0"
readme = {file = "README.md", content-type = "text/markdown"}
classifiers = []
dependencies = [
  "numpy>=1.24",   # comment after an item
  # a comment line inside the array
  'torch >= 2.6',  # literal string
  "torchvision>=0.21",
]
requires-python = ">=3.9"

[tool.other]
dependencies = ["torch>=2.9"]
)toml");
  ASSERT_THAT_EXPECTED_VALUE(Got, std::move(R));
  ASSERT_TRUE(Got.has_value());
  EXPECT_EQ("torch >= 2.6", Got->Text);
  EXPECT_EQ("2.6", Got->Floor->str());
}

TEST(ProjectRequirements, PyprojectExtrasAreAlternatives) {
  // No torch in dependencies: the extras decide, and any of them may be the
  // one installed, so the lowest floor.
  EXPECT_EQ("2.2", floorOf(readPyprojectToml(R"toml([project]
dependencies = ["numpy"]
[project.optional-dependencies]
gpu = ["torch>=2.4", "triton"]
cpu = ["torch>=2.2"]
docs = ["sphinx"]
)toml")));
  // dependencies win over the extras.
  EXPECT_EQ("2.1", floorOf(readPyprojectToml(R"toml([project]
dependencies = ["torch>=2.1"]
[project.optional-dependencies]
gpu = ["torch>=2.5"]
)toml")));
  // An inline table of extras; an extra without a floor leaves none.
  EXPECT_EQ("2.3", floorOf(readPyprojectToml(
                       "[project]\noptional-dependencies = {gpu = [\"torch>=2.3\"]}\n")));
  EXPECT_EQ("none", floorOf(readPyprojectToml(
                        "[project.optional-dependencies]\na = ['torch>=2.3']\nb = ['torch']\n")));
  // Dotted keys reach the same tables.
  EXPECT_EQ("2.5", floorOf(readPyprojectToml("project.dependencies = [\"torch>=2.5\"]\n")));
  EXPECT_EQ("2.5",
            floorOf(readPyprojectToml("[project]\noptional-dependencies.gpu = ['torch>=2.5']\n")));
}

TEST(ProjectRequirements, PyprojectPoetry) {
  auto R = readPyprojectToml(R"toml([tool.poetry]
name = "demo"
[tool.poetry.dependencies]
python = "^3.10"
torch = "^2.1"
)toml");
  ASSERT_THAT_EXPECTED_VALUE(Got, std::move(R));
  ASSERT_TRUE(Got.has_value());
  EXPECT_EQ("torch = \"^2.1\"", Got->Text);
  EXPECT_EQ("2.1", Got->Floor->str());
  EXPECT_EQ("2.2", floorOf(readPyprojectToml(
                       "[tool.poetry.dependencies]\ntorch = {version = \">=2.2\", source = "
                       "\"pytorch\"}\n")));
  EXPECT_EQ("2.0", floorOf(readPyprojectToml(
                       "[tool.poetry.dependencies]\ntorch = [\n  {version = \"^2.3\", platform = "
                       "\"darwin\"},\n  {version = \"^2.0\", platform = \"linux\"},\n]\n")));
  EXPECT_EQ("none", floorOf(readPyprojectToml(
                        "[tool.poetry.dependencies]\ntorch = {git = \"https://x/torch.git\"}\n")));
  // [project] comes first.
  EXPECT_EQ("2.4", floorOf(readPyprojectToml("[project]\ndependencies = ['torch>=2.4']\n"
                                             "[tool.poetry.dependencies]\ntorch = '^2.1'\n")));
  // A dev group is not a runtime dependency.
  EXPECT_EQ("-", floorOf(readPyprojectToml(
                     "[tool.poetry.group.dev.dependencies]\ntorch = \"^2.1\"\n")));
}

TEST(ProjectRequirements, PyprojectWithoutTorch) {
  EXPECT_EQ("-", floorOf(readPyprojectToml("[project]\nname = 'x'\ndependencies = ['numpy']\n")));
  EXPECT_EQ("-", floorOf(readPyprojectToml("")));
  EXPECT_EQ("-", floorOf(readPyprojectToml("[project]\ndynamic = ['dependencies']\n")));
}

TEST(ProjectRequirements, PyprojectStringsAreNotCode) {
  // Text inside strings is not a table, a comment or an item.
  EXPECT_EQ("2.1", floorOf(readPyprojectToml(R"toml([project]
description = """
[project]
dependencies = ["torch>=9.9"]
"""
dependencies = ["x#y", "torch>=2.1", '''torchvision>=9.8''' , "a \"quoted\" [name]"]
notes = 'literal \n no escape'
)toml")));
  // Escapes are decoded: \u003e is '>'.
  EXPECT_EQ("2.3", floorOf(readPyprojectToml(
                       "[project]\ndependencies = [\"torch\\u003e=2.3\"]\n")));
  // A line ending backslash in a multi-line basic string joins the lines.
  EXPECT_EQ("2.7", floorOf(readPyprojectToml(
                       "[project]\ndependencies = [\"\"\"torch>=\\\n    2.7\"\"\"]\n")));
  // Other scalars, dates included, are read and skipped.
  EXPECT_EQ("2.2", floorOf(readPyprojectToml(
                       "a = 1979-05-27 07:32:00Z\nb = true\nc = -3.5e2\nd = [1, [2, 3], {x = 4}]\n"
                       "[project]\ndependencies = [\"torch>=2.2\"]\n")));
  // CRLF line endings.
  EXPECT_EQ("2.4",
            floorOf(readPyprojectToml("[project]\r\ndependencies = [\r\n  \"torch>=2.4\",\r\n]\r\n")));
}

TEST(ProjectRequirements, MalformedPyprojectIsAnErrorWithItsLine) {
  struct Case {
    const char *Toml, *Error;
  } Cases[] = {
      {"[project]\ndependencies = [\"torch>=2.1\",\n", "line 2: unterminated array"},
      {"[project]\ndependencies = [\"torch>=2.1]\n", "line 2: unterminated string"},
      {"[project\ndependencies = []\n", "line 1: expected ']' after the table name"},
      {"[project]\ndependencies = [torch>=2.1]\n", "line 2: expected a value, found 'torch>=2.1' (strings need quotes)"},
      {"[project]\ndependencies = \"torch>=2.1\"\n",
       "line 2: [project] dependencies is not an array of strings"},
      {"[project]\ndependencies = [\"torch\", 3]\n",
       "line 2: [project] dependencies is not an array of strings"},
      {"[project]\ndependencies = [] extra\n", "line 2: unexpected text after a value"},
      {"[project]\n= 3\n", "line 2: expected a key"},
      {"[project]\nname \"x\"\n", "line 2: expected '=' after a key"},
      {"a = \"\\q\"\n", "line 1: bad escape in a string"},
      {"a = \"\\uD800\"\n", "line 1: bad unicode escape"},
      {"a = \"\"\"never closed\n", "line 1: unterminated multi-line string"},
  };
  for (const Case &C : Cases) {
    std::string Got = floorOf(readPyprojectToml(C.Toml));
    EXPECT_EQ(std::string("error: ") + C.Error, Got) << C.Toml;
  }
  // Deep nesting is an error, not a stack overflow.
  std::string Deep = "a = " + std::string(100000, '[') + "\n";
  EXPECT_EQ("error: line 1: values nested too deeply", floorOf(readPyprojectToml(Deep)));
}

//===----------------------------------------------------------------------===//
// setup.cfg, setup.py, requirements*.txt
//===----------------------------------------------------------------------===//

TEST(ProjectRequirements, SetupCfg) {
  EXPECT_EQ("2.3", floorOf(readSetupCfg(R"ini([metadata]
name = demo
install_requires = torch>=2.8

# a comment
; another
[options]
packages = find:
Install_Requires =
    numpy
    # a commented requirement
    torch>=2.3  # comment
    torchvision>=0.18

[options.extras_require]
gpu = torch>=2.5
)ini")));
  // One line: `;`-separated, as setuptools reads it.
  EXPECT_EQ("2.2", floorOf(readSetupCfg("[options]\ninstall_requires = numpy; torch>=2.2\n")));
  // Extras: alternatives.
  EXPECT_EQ("2.1", floorOf(readSetupCfg("[options.extras_require]\ngpu =\n  torch>=2.4\n"
                                        "cpu: torch>=2.1\n")));
  EXPECT_EQ("-", floorOf(readSetupCfg("[options]\ninstall_requires =\n  numpy\n")));
  EXPECT_EQ("error: line 1: expected ']' after the section name",
            floorOf(readSetupCfg("[options\ninstall_requires = torch>=2.1\n")));
  EXPECT_EQ("error: line 2: expected 'key = value'",
            floorOf(readSetupCfg("[options]\nnot a key value line\n")));
  EXPECT_EQ("error: line 1: a value before any [section]",
            floorOf(readSetupCfg("install_requires = torch>=2.1\n")));
}

TEST(ProjectRequirements, SetupPyLiteralListOnly) {
  EXPECT_EQ("2.2", floorOf(readSetupPy(R"py(
"""Docs: install_requires=["torch>=9.0"] is not code."""
# install_requires=["torch>=9.1"]
from setuptools import setup

setup(
    name="demo",
    install_requires=[
        "numpy",  # a comment, "torch>=9.2"
        'torch>=2.2',
        r"torchvision>=0.17",
    ],
    extras_require={"gpu": ["torch>=2.6"]},
)
)py")));
  // The dict-key form, a tuple, implicit concatenation.
  EXPECT_EQ("2.1", floorOf(readSetupPy("kw = {'install_requires': ['torch>=2.1']}\n")));
  EXPECT_EQ("2.3", floorOf(readSetupPy("setup(install_requires=('torch' '>=2.3',))\n")));
  // What is not a literal is not read as the list: a name, a concatenation,
  // an f-string. But where no install_requires list names torch, a string
  // literal that is a torch requirement by itself anywhere in the file is
  // one (the loosest of them, as extras count): `REQS = [...]`, and the
  // Hugging Face shape, a `_deps` table and `extras["torch"] =
  // deps_list("torch", ...)`, where the bare "torch" is a key.
  EXPECT_EQ("2.1", floorOf(readSetupPy("REQS = ['torch>=2.1']\nsetup(install_requires=REQS)\n")));
  EXPECT_EQ("2.6", floorOf(readSetupPy(R"py(
_deps = ["accelerate>=0.31.0", "torch>=2.6", "torchvision"]
deps = {b: a for a, b in (re.findall(r"^(([^!=<>~]+)(?:[!=<>~].*)?$)", x)[0] for x in _deps)}
extras = {}
extras["torch"] = deps_list("torch", "accelerate")
setup(name="diffusers", install_requires=[deps["numpy"], "Pillow"], extras_require=extras)
)py")));
  EXPECT_EQ("2.4", floorOf(readSetupPy("A = ['torch>=2.6']\nB = ['torch>=2.4,<3']\n")));
  EXPECT_EQ("-", floorOf(readSetupPy("setup(install_requires=['torch>=' + V])\n")));
  EXPECT_EQ("-", floorOf(readSetupPy("setup(install_requires=[f'torch>={V}'])\n")));
  EXPECT_EQ("2.4", floorOf(readSetupPy(
                       "setup(install_requires=[*base, 'torch>=2.4', dep('x'), b'torch>=9'])\n")));
  // `==` is a comparison, not a keyword argument (the literal counts as
  // any other).
  EXPECT_EQ("2.1", floorOf(readSetupPy("if install_requires == ['torch>=2.1']: pass\n")));
  EXPECT_EQ("-", floorOf(readSetupPy("if install_requires == ['torch']: pass\n")));
  EXPECT_EQ("error: line 1: the install_requires list does not end",
            floorOf(readSetupPy("setup(install_requires=['torch>=2.1',\n")));
  EXPECT_EQ("error: line 2: a string does not end",
            floorOf(readSetupPy("x = 1\nsetup(install_requires=['torch>=2.1)\n")));
}

TEST(ProjectRequirements, RequirementsTxt) {
  std::vector<std::string> Includes;
  auto R = readRequirementsTxt(R"txt(# pinned for CI
numpy==1.26.4
-e .
--index-url https://download.pytorch.org/whl/cu121
torchvision>=0.15
https://example.com/torch-9.9.0-cp311-linux_x86_64.whl
torch==2.4.1 \
    --hash=sha256:0123456789abcdef
torch>=2.2 ; python_version >= "3.9"  # and a comment
-r base.txt
--requirement=dev.txt
-c constraints.txt
)txt",
                               &Includes);
  ASSERT_TRUE(R.has_value());
  EXPECT_EQ("torch==2.4.1", R->Text);
  EXPECT_EQ("2.4", R->Floor->str());
  EXPECT_EQ((std::vector<std::string>{"base.txt", "dev.txt"}), Includes);
  EXPECT_EQ("-", floorOf(readRequirementsTxt("torchvision\n# torch>=2.1\n", nullptr)));
  EXPECT_EQ("none", floorOf(readRequirementsTxt("torch\r\n", nullptr)));
}

/// Every prefix and some random damage of a valid file: the readers end and
/// do not crash (the sanitizer build checks memory errors too).
TEST(ProjectRequirements, ReadersSurviveDamagedInput) {
  const std::string Toml = "[project]\ndependencies = [\n  \"torch>=2.1\", # c\n  'x',\n]\n"
                           "a = {b = [1, {c = \"\"\"d\\\n e\"\"\"}]}\n[[t]]\nx = '''q'''\n";
  const std::string Cfg = "[options]\ninstall_requires =\n  torch>=2.1\n[options.extras_require]\n"
                          "a = torch\n";
  const std::string Py = "setup(install_requires=['torch>=2.1', r'\\'', \"\"\"x\n\"\"\", f(x)])\n";
  const std::string Txt = "torch>=2.1 \\\n --hash=x\n-r a.txt\n";
  std::mt19937 Rng(7);
  for (const std::string *Doc : {&Toml, &Cfg, &Py, &Txt}) {
    std::vector<std::string> Inputs;
    for (size_t N = 0; N <= Doc->size(); ++N)
      Inputs.push_back(Doc->substr(0, N));
    for (int I = 0; I < 300; ++I) {
      std::string D = *Doc;
      for (int K = 0; K < 3; ++K)
        D[Rng() % D.size()] = "[]{}\"'\\#=,\n\r\0x"[Rng() % 15];
      Inputs.push_back(D);
    }
    for (const std::string &In : Inputs) {
      llvm::consumeError(readPyprojectToml(In).takeError());
      llvm::consumeError(readSetupCfg(In).takeError());
      llvm::consumeError(readSetupPy(In).takeError());
      std::vector<std::string> Includes;
      (void)readRequirementsTxt(In, &Includes);
    }
  }
  // The full documents do declare torch >= 2.1.
  EXPECT_EQ("2.1", floorOf(readPyprojectToml(Toml)));
  EXPECT_EQ("2.1", floorOf(readSetupCfg(Cfg)));
  EXPECT_EQ("2.1", floorOf(readSetupPy(Py)));
  EXPECT_EQ("2.1", floorOf(readRequirementsTxt(Txt, nullptr)));
}

//===----------------------------------------------------------------------===//
// Projects on disk
//===----------------------------------------------------------------------===//

/// The declaration's file (relative to D) and requirement, or "-".
std::string declared(const test::TempDir &D, const TorchDeclaration &Decl) {
  if (!Decl.Requirement)
    return "-";
  llvm::StringRef File = Decl.File;
  File.consume_front(D.path() + "/");
  return File.str() + ": " + Decl.Requirement->Text;
}

TEST(ProjectRequirements, NearestProjectUpToTheRepository) {
  test::TempDir D;
  D.write("outer/pyproject.toml", "[project]\ndependencies = ['torch>=2.5']\n");
  D.mkdir("outer/repo/.git");
  D.write("outer/repo/src/pkg/a.py", "");
  D.write("outer/repo/lib/setup.py", "setup(install_requires=['torch>=2.2'])\n");
  D.write("outer/repo/lib/x/y/b.py", "");
  D.write("outer/repo/tools/requirements-dev.txt", "torch>=2.3\n");
  D.write("outer/repo/tools/c.py", "");
  // The search stops at the directory holding .git (a file in a worktree).
  EXPECT_EQ("", findProjectDir(D.path("outer/repo/src/pkg")));
  EXPECT_EQ(D.path("outer/repo/lib"), findProjectDir(D.path("outer/repo/lib/x/y")));
  EXPECT_EQ(D.path("outer/repo/tools"), findProjectDir(D.path("outer/repo/tools")));
  EXPECT_EQ(D.path("outer"), findProjectDir(D.path("outer")));
  D.write("outer/wt/.git", "gitdir: ../repo/.git/worktrees/wt\n");
  D.write("outer/wt/src/a.py", "");
  EXPECT_EQ("", findProjectDir(D.path("outer/wt/src")));
  D.mkdir("outer/plain/src");
  EXPECT_EQ(D.path("outer"), findProjectDir(D.path("outer/plain/src")));

  // A packaging name is a project's when it is a regular file, through a
  // symbolic link too; a directory or a broken link of that name is not.
  D.mkdir("outer/named/setup.py");
  D.mkdir("outer/named/requirements.txt");
  D.symlink("missing.toml", "outer/named/pyproject.toml");
  D.mkdir("outer/named/src");
  EXPECT_EQ(D.path("outer"), findProjectDir(D.path("outer/named/src")));
  D.write("outer/named/real.cfg", "[options]\ninstall_requires = torch>=2.4\n");
  D.symlink("real.cfg", "outer/named/setup.cfg");
  EXPECT_EQ(D.path("outer/named"), findProjectDir(D.path("outer/named/src")));
  // A link named .git stops the search where it leads somewhere.
  D.mkdir("outer/linked/src");
  D.symlink("../repo/.git", "outer/linked/.git");
  EXPECT_EQ("", findProjectDir(D.path("outer/linked/src")));
  D.symlink("nowhere", "outer/plain/.git");
  EXPECT_EQ(D.path("outer"), findProjectDir(D.path("outer/plain/src")));

  RequirementsCache Cache;
  EXPECT_EQ(nullptr, Cache.forFile(D.path("outer/repo/src/pkg/a.py")));
  auto Lib = Cache.forFile(D.path("outer/repo/lib/x/y/b.py"));
  ASSERT_NE(nullptr, Lib);
  EXPECT_EQ("outer/repo/lib/setup.py: torch>=2.2", declared(D, *Lib));
  EXPECT_EQ(Lib, Cache.forFile(D.path("outer/repo/lib/x/other.py"))); // read once
  EXPECT_TRUE(Cache.hasRead(D.path("outer/repo/lib/setup.py")));
  EXPECT_FALSE(Cache.hasRead(D.path("outer/pyproject.toml")));
  auto Tools = Cache.forFile(D.path("outer/repo/tools/c.py"));
  ASSERT_NE(nullptr, Tools);
  EXPECT_EQ("outer/repo/tools/requirements-dev.txt: torch>=2.3", declared(D, *Tools));
}

TEST(ProjectRequirements, AProjectThatDeclaresNoTorchRunsOnTheTorchOfTheOneAroundIt) {
  // peft: setup.py requires torch>=1.13; examples/boft_controlnet/requirements.txt names
  // datasets and numpy. The example runs on the package's torch, not on the default's.
  test::TempDir D;
  D.mkdir("repo/.git");
  D.write("repo/setup.py", "setup(install_requires=['torch>=1.13.0'])\n");
  D.write("repo/examples/ex1/requirements.txt", "datasets\nnumpy\n");
  D.write("repo/examples/ex1/run.py", "");
  D.write("repo/examples/ex2/pyproject.toml", "[project]\ndependencies = ['numpy']\n");
  D.write("repo/examples/ex2/sub/requirements-dev.txt", "pytest\n");
  D.write("repo/examples/ex2/sub/run.py", "");
  D.write("repo/examples/ex3/requirements.txt", "torch>=2.4\n");
  D.write("repo/examples/ex3/run.py", "");
  // Not past a directory that holds .git: a nested repository is a project of its own.
  D.write("repo/vendor/lib/.git", "gitdir: elsewhere\n");
  D.write("repo/vendor/lib/requirements.txt", "numpy\n");
  D.write("repo/vendor/lib/run.py", "");

  RequirementsCache Cache;
  auto Ex1 = Cache.forFile(D.path("repo/examples/ex1/run.py"));
  ASSERT_NE(nullptr, Ex1);
  EXPECT_EQ("repo/setup.py: torch>=1.13.0", declared(D, *Ex1));
  EXPECT_TRUE(Cache.hasRead(D.path("repo/examples/ex1/requirements.txt")));
  EXPECT_TRUE(Cache.hasRead(D.path("repo/setup.py")));
  auto Ex2 = Cache.forFile(D.path("repo/examples/ex2/sub/run.py"));
  ASSERT_NE(nullptr, Ex2);
  EXPECT_EQ("repo/setup.py: torch>=1.13.0", declared(D, *Ex2)); // through two projects
  auto Ex3 = Cache.forFile(D.path("repo/examples/ex3/run.py"));
  ASSERT_NE(nullptr, Ex3);
  EXPECT_EQ("repo/examples/ex3/requirements.txt: torch>=2.4", declared(D, *Ex3));
  auto Vendor = Cache.forFile(D.path("repo/vendor/lib/run.py"));
  ASSERT_NE(nullptr, Vendor);
  EXPECT_EQ("-", declared(D, *Vendor));
}

TEST(ProjectRequirements, TheFirstSourceThatDeclaresTorchWins) {
  test::TempDir D;
  // A [project] without torch: requirements.txt decides.
  D.write("a/pyproject.toml", "[project]\nname = 'a'\ndependencies = ['numpy']\n");
  D.write("a/requirements.txt", "torch>=2.4\n");
  EXPECT_EQ("a/requirements.txt: torch>=2.4", declared(D, readTorchDeclaration(D.path("a"))));
  // pyproject.toml first, then setup.cfg, then setup.py.
  D.write("b/pyproject.toml", "[project]\ndependencies = ['torch>=2.6']\n");
  D.write("b/setup.cfg", "[options]\ninstall_requires = torch>=2.1\n");
  D.write("b/setup.py", "setup(install_requires=['torch>=2.2'])\n");
  D.write("b/requirements.txt", "torch>=2.3\n");
  EXPECT_EQ("b/pyproject.toml: torch>=2.6", declared(D, readTorchDeclaration(D.path("b"))));
  D.write("c/setup.cfg", "[options]\ninstall_requires = torch>=2.1\n");
  D.write("c/setup.py", "setup(install_requires=['torch>=2.2'])\n");
  EXPECT_EQ("c/setup.cfg: torch>=2.1", declared(D, readTorchDeclaration(D.path("c"))));
  // A declaration without a floor still decides (the default then applies).
  D.write("d/pyproject.toml", "[project]\ndependencies = ['torch<3']\n");
  D.write("d/requirements.txt", "torch>=2.3\n");
  TorchDeclaration Dd = readTorchDeclaration(D.path("d"));
  EXPECT_EQ("d/pyproject.toml: torch<3", declared(D, Dd));
  EXPECT_FALSE(Dd.floor().has_value());
  // requirements.txt before the other requirements*.txt, which go by name.
  D.write("e/requirements-gpu.txt", "torch>=2.5\n");
  D.write("e/requirements-cpu.txt", "torch>=2.2\n");
  D.write("e/requirements.txt", "numpy\n");
  EXPECT_EQ("e/requirements-cpu.txt: torch>=2.2", declared(D, readTorchDeclaration(D.path("e"))));
  D.write("e/requirements.txt", "torch>=2.6\n");
  EXPECT_EQ("e/requirements.txt: torch>=2.6", declared(D, readTorchDeclaration(D.path("e"))));
}

TEST(ProjectRequirements, PyTorchsOwnSourceTreeTargetsItsRelease) {
  for (const char *V : {"2.6.0a0", "2.6.0a0\n", "  2.7.1\nmore\n", "2.6", "2.10.0.dev20251101"}) {
    auto R = readPyTorchVersionTxt(V);
    ASSERT_TRUE(R.has_value()) << V;
    EXPECT_NE(R->Text.find(", PyTorch's own source tree"), std::string::npos);
  }
  EXPECT_EQ((TorchVersion{2, 6}), *readPyTorchVersionTxt("2.6.0a0")->Floor);
  EXPECT_EQ((TorchVersion{2, 10}), *readPyTorchVersionTxt("2.10.0.dev20251101")->Floor);
  for (const char *V : {"", "two", "2", "2.x", "2.6a0", "v2.6.0", "\n2.6.0"})
    EXPECT_FALSE(readPyTorchVersionTxt(V).has_value()) << V;

  test::TempDir D;
  // PyTorch's setup.py and pyproject.toml do not require torch; its version.txt is the release.
  D.write("pytorch/version.txt", "2.6.0a0\n");
  D.write("pytorch/setup.py", "setup(install_requires=['numpy'])\n");
  D.write("pytorch/requirements.txt", "torch>=2.1\n");
  D.mkdir("pytorch/torch/csrc");
  EXPECT_EQ("pytorch/version.txt: 2.6.0a0, PyTorch's own source tree",
            declared(D, readTorchDeclaration(D.path("pytorch"))));
  // A version.txt elsewhere is another project's.
  D.write("other/version.txt", "2.6.0\n");
  D.write("other/requirements.txt", "torch>=2.1\n");
  EXPECT_EQ("other/requirements.txt: torch>=2.1",
            declared(D, readTorchDeclaration(D.path("other"))));
  // One that says no release is a problem named with its file; the packaging files decide.
  D.write("pytorch/version.txt", "main\n");
  TorchDeclaration Bad = readTorchDeclaration(D.path("pytorch"));
  EXPECT_EQ("pytorch/requirements.txt: torch>=2.1", declared(D, Bad));
  ASSERT_EQ(1u, Bad.Problems.size());
  EXPECT_EQ(D.path("pytorch/version.txt"), Bad.Problems[0].File);
}

TEST(ProjectRequirements, RequirementsIncludesOneLevel) {
  test::TempDir D;
  D.write("p/requirements.txt", "numpy\n-r reqs/base.txt\n-r missing.txt\n");
  D.write("p/reqs/base.txt", "torch>=2.3\n-r deeper.txt\n");
  D.write("p/reqs/deeper.txt", "torch>=2.7\n");
  TorchDeclaration Decl = readTorchDeclaration(D.path("p"));
  EXPECT_EQ("p/reqs/base.txt: torch>=2.3", declared(D, Decl)); // deeper.txt not followed
  ASSERT_EQ(1u, Decl.Problems.size());
  EXPECT_EQ(D.path("p/requirements.txt"), Decl.Problems[0].File);
  EXPECT_EQ("-r missing.txt: no such file", Decl.Problems[0].Why);
  EXPECT_TRUE(llvm::is_contained(Decl.FilesRead, D.path("p/reqs/base.txt")));
  // The include's requirement and the file's own: the highest floor.
  D.write("p/requirements.txt", "torch>=2.5\n-r reqs/base.txt\n");
  EXPECT_EQ("p/requirements.txt: torch>=2.5", declared(D, readTorchDeclaration(D.path("p"))));
}

TEST(ProjectRequirements, AMalformedFileIsSkippedWithANote) {
  test::TempDir D;
  D.write("p/pyproject.toml", "[project]\ndependencies = [\"torch>=2.6\"\n");
  D.write("p/setup.cfg", "[options\n");
  D.write("p/requirements.txt", "torch>=2.2\n");
  TorchDeclaration Decl = readTorchDeclaration(D.path("p"));
  EXPECT_EQ("p/requirements.txt: torch>=2.2", declared(D, Decl));
  ASSERT_EQ(2u, Decl.Problems.size());
  EXPECT_EQ(D.path("p/pyproject.toml"), Decl.Problems[0].File);
  EXPECT_EQ("line 2: unterminated array", Decl.Problems[0].Why);
  EXPECT_EQ(D.path("p/setup.cfg"), Decl.Problems[1].File);
  EXPECT_EQ("line 1: expected ']' after the section name", Decl.Problems[1].Why);
}

TEST(ProjectRequirements, PackagingFileNames) {
  for (const char *Yes : {"pyproject.toml", "setup.cfg", "setup.py", "requirements.txt",
                          "requirements-dev.txt", "requirements_cuda.txt"})
    EXPECT_TRUE(isPackagingFileName(Yes)) << Yes;
  for (const char *No : {"Pipfile", "setup.pyc", "requirements.in", "dev-requirements.txt",
                         "pyproject.toml.bak", ".devport.yaml"})
    EXPECT_FALSE(isPackagingFileName(No)) << No;
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

TEST(ProjectRequirements, TargetPrecedence) {
  auto Decl = std::make_shared<TorchDeclaration>();
  Decl->File = "/p/pyproject.toml";
  Decl->Requirement = TorchRequirement{"torch>=2.4", TorchVersion{2, 4}};
  std::shared_ptr<const TorchDeclaration> Declared = Decl;
  TorchVersion V27{2, 7}, V28{2, 8};

  TorchTarget T = TorchTarget::choose(V27, V28, "/p/.devport.yaml", Declared);
  EXPECT_EQ(TargetOrigin::CommandLine, T.Origin);
  EXPECT_EQ("2.7", T.Release.str());
  EXPECT_EQ(Declared, T.Declared); // kept for the note
  EXPECT_EQ("2.4", T.floorBelowTarget()->str());

  T = TorchTarget::choose(std::nullopt, V28, "/p/.devport.yaml", Declared);
  EXPECT_EQ(TargetOrigin::Config, T.Origin);
  EXPECT_EQ("2.8", T.Release.str());
  EXPECT_EQ("/p/.devport.yaml", T.ConfigFile);
  EXPECT_EQ("2.4", T.floorBelowTarget()->str());

  T = TorchTarget::choose(std::nullopt, std::nullopt, "", Declared);
  EXPECT_EQ(TargetOrigin::Project, T.Origin);
  EXPECT_EQ("2.4", T.Release.str());
  EXPECT_FALSE(T.floorBelowTarget().has_value()); // not explicit

  T = TorchTarget::choose(std::nullopt, std::nullopt, "", nullptr);
  EXPECT_EQ(TargetOrigin::Default, T.Origin);
  EXPECT_EQ(TorchVersion::defaultTarget().str(), T.Release.str());

  // A declaration without a floor: the default.
  auto NoFloor = std::make_shared<TorchDeclaration>(*Decl);
  NoFloor->Requirement = TorchRequirement{"torch<3", std::nullopt};
  T = TorchTarget::choose(std::nullopt, std::nullopt, "", NoFloor);
  EXPECT_EQ(TargetOrigin::Default, T.Origin);
  EXPECT_FALSE(TorchTarget::choose(V27, std::nullopt, "", NoFloor).floorBelowTarget().has_value());

  // An explicit target at or below the floor needs no note.
  EXPECT_FALSE(TorchTarget::choose(TorchVersion{2, 4}, std::nullopt, "", Declared)
                   .floorBelowTarget()
                   .has_value());
  EXPECT_FALSE(TorchTarget::choose(TorchVersion{2, 2}, std::nullopt, "", Declared)
                   .floorBelowTarget()
                   .has_value());

  // Equality: by value, the declaration too.
  auto Copy = std::make_shared<const TorchDeclaration>(*Decl);
  EXPECT_TRUE(TorchTarget::choose(V27, std::nullopt, "", Declared) ==
              TorchTarget::choose(V27, std::nullopt, "", Copy));
  EXPECT_FALSE(TorchTarget::choose(V27, std::nullopt, "", Declared) ==
               TorchTarget::choose(V27, std::nullopt, "", NoFloor));
  EXPECT_FALSE(TorchTarget::choose(V27, std::nullopt, "", Declared) ==
               TorchTarget::choose(std::nullopt, V27, "/c", Declared));

  // Two sub-projects that declare no torch are the same default target (one
  // summary line for a monorepo, not one per setup.py).
  TorchDeclaration A, B;
  A.ProjectDir = "/repo/projects/a";
  B.ProjectDir = "/repo/projects/b";
  auto SA = std::make_shared<const TorchDeclaration>(A);
  auto SB = std::make_shared<const TorchDeclaration>(B);
  EXPECT_TRUE(TorchTarget::choose(std::nullopt, std::nullopt, "", SA) ==
              TorchTarget::choose(std::nullopt, std::nullopt, "", SB));
}

} // namespace
} // namespace devport
