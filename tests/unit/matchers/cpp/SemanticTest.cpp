//===--- SemanticTest.cpp - The semantic C++ backend on a stand-in header -===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// Fast tests: a few lines of c10 written to a temporary directory stand in
// for the PyTorch headers (tests/unit/matchers/cpp/integration/ runs the
// real ones), with a compile_commands.json next to them.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/Semantic.h"
#include "tests/unit/matchers/cpp/SemanticRules.h"

#include "tests/support/Annotations.h"
#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"
#include "tests/support/TestRules.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace devport::cpp {
namespace {

const char *const StubHeader = R"cpp(#pragma once
#include <cstdint>
namespace c10 {
enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kCPU = DeviceType::CPU;
struct Device { Device(DeviceType, int = -1); };
}
namespace at { using namespace c10; }
namespace torch { using namespace c10; }
inline bool headerUsesCuda(c10::DeviceType T) { return T == c10::kCUDA; }
)cpp";

/// A rule file for rule Id with Matcher as its `matcher:`.
std::string ruleYaml(llvm::StringRef Id, llvm::StringRef Matcher) {
  return "id: " + Id.str() +
         "\nlanguage: cpp\ncategory: device-choice\nseverity: warning\nmessage: m\n"
         "pattern: c10::kCUDA\nmatcher: " +
         Matcher.str() + "\n";
}

const std::string ConstantRule =
    ruleYaml("cuda-constant", R"(declRefExpr(to(varDecl(hasName("::c10::kCUDA")))))");
const std::string EnumeratorRule = ruleYaml(
    "cuda-enumerator", R"(declRefExpr(to(enumConstantDecl(hasName("::c10::DeviceType::CUDA")))))");
const std::string DeviceRule =
    ruleYaml("cuda-device", R"(cxxConstructExpr(hasDeclaration(cxxConstructorDecl()"
                            R"(ofClass(hasName("::c10::Device")))), hasArgument(0, )"
                            R"(ignoringImplicit(declRefExpr().bind("TYPE")))))");

/// The error text of compiling the rule file Yaml (named after its id).
std::string compileError(const std::string &Yaml) {
  auto C = compileSemanticRules({Yaml});
  if (C)
    return "";
  return llvm::toString(C.takeError());
}

/// A temporary project: the stand-in header and a database that compiles
/// each of Files (relative) with -std=c++17 -I. in the project directory.
class Project {
public:
  explicit Project(std::vector<std::string> Files = {"main.cpp"}) {
    D.write("torch_stub.h", StubHeader);
    writeDatabase("", Files);
  }

  /// Writes Dir/compile_commands.json (Dir relative, "" for the root) for
  /// Files, relative to the project root, compiled from the root.
  void writeDatabase(llvm::StringRef Dir, const std::vector<std::string> &Files) const {
    std::string Json = "[";
    for (const std::string &F : Files) {
      if (Json.size() > 1)
        Json += ",";
      Json += "\n  {\"directory\": \"" + D.path() +
              "\", \"arguments\": [\"/usr/bin/c++\", \"-std=c++17\", \"-I.\", \"-c\", \"" + F +
              "\", \"-o\", \"" + F + ".o\"], \"file\": \"" + F + "\"}";
    }
    Json += "\n]\n";
    D.write(Dir.empty() ? "compile_commands.json" : Dir.str() + "/compile_commands.json", Json);
  }

  test::TempDir D;
};

/// One match, readable: `rule [text]`, then ` macro` and ` NAME=[text]` for
/// each binding.
std::string show(const SemanticMatch &M, llvm::StringRef Text) {
  std::string S = M.R->Id + " [" + Text.slice(M.Range.Begin, M.Range.End).str() + "]";
  if (M.InMacro)
    S += " macro";
  for (const BoundVar &B : M.Bindings)
    S += " " + B.Name + "=[" + Text.slice(B.Range.Begin, B.Range.End).str() + "]";
  return S;
}

std::vector<std::string> showAll(const SemanticResult &R, llvm::StringRef Text) {
  std::vector<std::string> Out;
  for (const SemanticMatch &M : R.Matches)
    Out.push_back(show(M, Text));
  return Out;
}

/// The command for Path in P's database.
CompileCommand commandIn(const Project &P, llvm::StringRef Rel) {
  auto DB = CompileCommands::fromDirectory(P.D.path());
  EXPECT_TRUE(test::hasValue(DB));
  if (!DB)
    return {};
  std::optional<CompileCommand> C = (*DB)->commandFor(P.D.path(Rel));
  EXPECT_TRUE(C.has_value()) << Rel.str();
  return C ? *C : CompileCommand{};
}

TEST(SemanticTest, EverySpellingOfTheDeviceType) {
  Project P;
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule, EnumeratorRule, DeviceRule}));
  test::Annotations A(R"cpp(#include "torch_stub.h"
#define DEV c10::kCUDA
#define CHECK(c) do { if (!(c)) return 1; } while (0)
#define IS_GPU(d) (d == c10::DeviceType::CUDA)
namespace dt = c10;
using DT = c10::DeviceType;
typedef c10::DeviceType DT2;
int f(c10::DeviceType x) {
  auto a = $c[[at::kCUDA]];
  auto b = $c[[torch::kCUDA]];
  auto c = $e[[c10::DeviceType::CUDA]];
  auto d = $c[[dt::kCUDA]];
  auto e = $e[[DT::CUDA]];
  auto g = $e[[DT2::CUDA]];
  auto h = $m[[DEV]];
  CHECK(x == $c[[c10::kCUDA]]);
  bool i = $me[[IS_GPU(x)]];
  auto t = $dev[[c10::Device($ty[[c10::kCUDA]], 1)]];
  auto cpu = c10::kCPU;
  (void)a; (void)b; (void)c; (void)d; (void)e; (void)g; (void)h; (void)i; (void)t; (void)cpu;
  return 0;
}
namespace user {
using namespace at;
auto u = $c[[kCUDA]];
auto v = $e[[DeviceType::CUDA]];
}
)cpp");
  std::string Path = P.D.path("main.cpp");
  SemanticResult R = runSemantic(*C.M, commandIn(P, "main.cpp"), Path, A.code());
  ASSERT_TRUE(R.Compiled) << R.Error;

  std::vector<std::string> Expected;
  for (ByteRange X : A.ranges("c"))
    Expected.push_back("cuda-constant [" + A.text(X).str() + "]");
  for (ByteRange X : A.ranges("e"))
    Expected.push_back("cuda-enumerator [" + A.text(X).str() + "]");
  Expected.push_back("cuda-constant [DEV] macro");
  Expected.push_back("cuda-enumerator [IS_GPU(x)] macro");
  Expected.push_back("cuda-device [c10::Device(c10::kCUDA, 1)] TYPE=[c10::kCUDA]");
  Expected.push_back("cuda-constant [c10::kCUDA]"); // the Device's argument, $ty

  std::vector<std::string> Got = showAll(R, A.code());
  std::vector<std::string> SortedGot = Got;
  std::sort(SortedGot.begin(), SortedGot.end());
  std::sort(Expected.begin(), Expected.end());
  EXPECT_EQ(Expected, SortedGot);

  // Ranges: exactly the marked ones, sorted by range then rule id.
  std::vector<std::pair<ByteRange, std::string>> Marked;
  for (auto [Name, Id] : {std::pair<const char *, const char *>{"c", "cuda-constant"},
                          {"e", "cuda-enumerator"},
                          {"m", "cuda-constant"},
                          {"me", "cuda-enumerator"},
                          {"dev", "cuda-device"},
                          {"ty", "cuda-constant"}})
    for (ByteRange X : A.ranges(Name))
      Marked.push_back({X, Id});
  std::sort(Marked.begin(), Marked.end(), [](const auto &L, const auto &R) {
    return std::tie(L.first.Begin, L.first.End, L.second) <
           std::tie(R.first.Begin, R.first.End, R.second);
  });
  ASSERT_EQ(Marked.size(), R.Matches.size());
  for (size_t I = 0; I < Marked.size(); ++I) {
    EXPECT_EQ(Marked[I].first.Begin, R.Matches[I].Range.Begin) << Got[I];
    EXPECT_EQ(Marked[I].first.End, R.Matches[I].Range.End) << Got[I];
    EXPECT_EQ(Marked[I].second, R.Matches[I].R->Id) << Got[I];
  }
  for (const SemanticMatch &M : R.Matches)
    if (M.R->Id == "cuda-device") {
      ASSERT_EQ(1u, M.Bindings.size());
      EXPECT_EQ("TYPE", M.Bindings[0].Name);
      EXPECT_EQ(A.range("ty").Begin, M.Bindings[0].Range.Begin);
      EXPECT_EQ(A.range("ty").End, M.Bindings[0].Range.End);
    }
  // DEV and IS_GPU are defined in this file: those matches belong to their
  // `#define`s (CHECK's argument is written at its use).
  for (const SemanticMatch &M : R.Matches)
    EXPECT_EQ(M.InMacro, M.InDefinition) << show(M, A.code());
}

TEST(SemanticTest, MacrosOfAHeaderAreNotDefinitionsOfTheFile) {
  Project P;
  P.D.write("macros.h", "#define DEV c10::kCUDA\n#define IS_GPU(x) (x == c10::kCUDA)\n");
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule}));
  std::string Text = "#include \"torch_stub.h\"\n#include \"macros.h\"\n"
                     "auto d = DEV;\nbool g(c10::DeviceType t) { return IS_GPU(t); }\n";
  SemanticResult R = runSemantic(*C.M, commandIn(P, "main.cpp"), P.D.path("main.cpp"), Text);
  ASSERT_TRUE(R.Compiled) << R.Error;
  ASSERT_EQ(2u, R.Matches.size());
  for (const SemanticMatch &M : R.Matches) {
    EXPECT_TRUE(M.InMacro) << show(M, Text);
    EXPECT_FALSE(M.InDefinition) << show(M, Text);
  }
}

TEST(SemanticTest, TemplateInstantiationsMatchOnce) {
  Project P;
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule}));
  test::Annotations A(R"cpp(#include "torch_stub.h"
template <typename T> bool onGpu(T t) { return t == $c[[c10::kCUDA]]; }
bool a = onGpu(c10::kCPU) && onGpu<c10::DeviceType>(c10::kCPU);
)cpp");
  SemanticResult R = runSemantic(*C.M, commandIn(P, "main.cpp"), P.D.path("main.cpp"), A.code());
  ASSERT_TRUE(R.Compiled) << R.Error;
  EXPECT_EQ(std::vector<std::string>{"cuda-constant [c10::kCUDA]"}, showAll(R, A.code()));
}

TEST(SemanticTest, SkippedBranchesAreReported) {
  Project P;
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule}));
  test::Annotations A(R"cpp(#include "torch_stub.h"
int f() {
#ifdef _WIN32
  auto a = $off[[c10::kCUDA]];
#else
  auto a = $on[[c10::kCUDA]];
#endif
#if 0
  auto b = $off[[c10::kCUDA]];
#endif
  return a == c10::kCPU;
}
)cpp");
  SemanticResult R = runSemantic(*C.M, commandIn(P, "main.cpp"), P.D.path("main.cpp"), A.code());
  ASSERT_TRUE(R.Compiled) << R.Error;
  EXPECT_EQ(std::vector<std::string>{"cuda-constant [c10::kCUDA]"}, showAll(R, A.code()));
  ASSERT_EQ(2u, R.Skipped.size());
  for (size_t I = 0; I < 2; ++I)
    EXPECT_TRUE(R.Skipped[I].contains(A.ranges("off")[I])) << I;
  for (ByteRange S : R.Skipped)
    EXPECT_FALSE(S.contains(A.range("on")));
}

TEST(SemanticTest, TheTextReplacesTheFileOnDisk) {
  Project P;
  P.D.write("main.cpp", "#include \"torch_stub.h\"\nauto x = c10::kCPU;\n");
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule}));
  std::string Text = "#include \"torch_stub.h\"\nauto x = c10::kCUDA;\n";
  SemanticResult R = runSemantic(*C.M, commandIn(P, "main.cpp"), P.D.path("main.cpp"), Text);
  ASSERT_TRUE(R.Compiled) << R.Error;
  EXPECT_EQ(std::vector<std::string>{"cuda-constant [c10::kCUDA]"}, showAll(R, Text));
}

TEST(SemanticTest, HeaderMatchesAreNotReportedInTheMainFile) {
  Project P;
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule, EnumeratorRule}));
  // The header has one kCUDA and one DeviceType::CUDA of its own.
  std::string Text = "#include \"torch_stub.h\"\nint main() { return 0; }\n";
  SemanticResult R = runSemantic(*C.M, commandIn(P, "main.cpp"), P.D.path("main.cpp"), Text);
  ASSERT_TRUE(R.Compiled) << R.Error;
  EXPECT_TRUE(R.Matches.empty()) << showAll(R, Text).front();
}

TEST(SemanticTest, AHeaderIsCheckedAsItsOwnMainFile) {
  Project P;
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule, EnumeratorRule}));
  CompileCommand Cmd = commandIn(P, "torch_stub.h");
  EXPECT_TRUE(Cmd.Inferred);
  EXPECT_FALSE(commandIn(P, "main.cpp").Inferred);
  SemanticResult R = runSemantic(*C.M, Cmd, P.D.path("torch_stub.h"), StubHeader);
  ASSERT_TRUE(R.Compiled) << R.Error;
  EXPECT_EQ((std::vector<std::string>{"cuda-enumerator [DeviceType::CUDA]",
                                      "cuda-constant [c10::kCUDA]"}),
            showAll(R, StubHeader));
}

TEST(SemanticTest, AFileThatDoesNotCompile) {
  Project P;
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule}));
  std::string Path = P.D.path("main.cpp");
  std::string Text = "#include \"torch_stub.h\"\nauto x = c10::kCUDA;\nint f() { return nope; }\n";
  SemanticResult R = runSemantic(*C.M, commandIn(P, "main.cpp"), Path, Text);
  EXPECT_FALSE(R.Compiled);
  EXPECT_EQ(Path + ":3:18: use of undeclared identifier 'nope'", R.Error);
  EXPECT_TRUE(R.Matches.empty());

  // An error in a header is placed in the header.
  P.D.write("broken.h", "int g() { return nope; }\n");
  R = runSemantic(*C.M, commandIn(P, "main.cpp"), Path, "#include \"broken.h\"\n");
  EXPECT_FALSE(R.Compiled);
  EXPECT_EQ(P.D.path("broken.h") + ":1:18: use of undeclared identifier 'nope'", R.Error);

  // A driver error has no place in the file.
  CompileCommand Bad = commandIn(P, "main.cpp");
  Bad.Arguments.insert(Bad.Arguments.begin() + 1, "--no-such-flag");
  R = runSemantic(*C.M, Bad, Path, Text);
  EXPECT_FALSE(R.Compiled);
  EXPECT_EQ(Path + ": unsupported option '--no-such-flag'", R.Error);
}

TEST(SemanticTest, CudaFilesFailGracefully) {
  Project P({"kernel.cu"});
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule}));
  std::string Text = "#include \"torch_stub.h\"\n__global__ void k() {}\nauto x = c10::kCUDA;\n";
  SemanticResult R = runSemantic(*C.M, commandIn(P, "kernel.cu"), P.D.path("kernel.cu"), Text);
  // Without a CUDA installation Clang refuses; with one it parses the host side.
  if (R.Compiled)
    EXPECT_EQ(std::vector<std::string>{"cuda-constant [c10::kCUDA]"}, showAll(R, Text));
  else
    EXPECT_FALSE(R.Error.empty());
  std::cout << "[ info     ] a .cu file: " << (R.Compiled ? "compiled" : R.Error) << "\n";
}

TEST(SemanticTest, WarningsAndWerrorDoNotFailTheParse) {
  Project P;
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule}));
  CompileCommand Cmd = commandIn(P, "main.cpp");
  Cmd.Arguments.insert(Cmd.Arguments.begin() + 1, {"-Wall", "-Werror", "-MD", "-MF", "main.d"});
  std::string Text = "#include \"torch_stub.h\"\nint f() { int unused; return c10::kCUDA == "
                     "c10::kCPU; }\n";
  SemanticResult R = runSemantic(*C.M, Cmd, P.D.path("main.cpp"), Text);
  EXPECT_TRUE(R.Compiled) << R.Error;
  EXPECT_EQ(1u, R.Matches.size());
  EXPECT_FALSE(llvm::sys::fs::exists(P.D.path("main.d"))); // no output of any kind
  EXPECT_FALSE(llvm::sys::fs::exists(P.D.path("main.cpp.o")));
}

TEST(SemanticTest, BadMatcherExpressionsNameTheirPlace) {
  // ruleYaml puts `matcher:` on line 7, its value at column 10.
  std::string Yaml = ruleYaml("bad-rule", R"(declRefExpr(to(varDecl(hasNam("x")))))");
  EXPECT_EQ("bad-rule.yaml:7:33: invalid matcher: Matcher not found: hasNam", compileError(Yaml));

  // In a `|` block: the line and column inside the block.
  std::string Block =
      "id: bad-block\nlanguage: cpp\ncategory: c\nseverity: warning\nmessage: m\n"
      "pattern: c10::kCUDA\nmatcher: |\n  declRefExpr(\n    to(varDecl(hasNam(\"x\"))))\n";
  EXPECT_EQ("bad-block.yaml:9:16: invalid matcher: Matcher not found: hasNam", compileError(Block));

  std::string Trailing = ruleYaml("trailing", R"(declRefExpr() x)");
  EXPECT_EQ("trailing.yaml:7:24: invalid matcher: Expected end of code.", compileError(Trailing));

  // Not a node matcher: nothing to report a place for.
  std::string NotBindable = ruleYaml("not-bindable", R"(hasName("x"))");
  EXPECT_EQ("not-bindable.yaml:7:10: invalid matcher: a NamedDecl matcher cannot be the "
            "top-level matcher of a rule (it cannot bind its node)",
            compileError(NotBindable));

  // A type has no place in the file.
  std::string Type = ruleYaml("a-type", R"(qualType(asString("int")))");
  EXPECT_EQ("a-type.yaml:7:10: invalid matcher: a QualType has no source range; match its "
            "location instead (typeLoc(loc(...)), nestedNameSpecifierLoc(...))",
            compileError(Type));
  std::string Located = ruleYaml("a-type-loc", R"(typeLoc(loc(asString("int"))))");
  EXPECT_EQ("", compileError(Located));

  // Two bad rules: one line each.
  auto Both = compileSemanticRules({Yaml, Trailing});
  ASSERT_FALSE(Both);
  std::string Msg = llvm::toString(Both.takeError());
  EXPECT_EQ(1, std::count(Msg.begin(), Msg.end(), '\n')) << Msg;
}

TEST(SemanticTest, RulesWithoutAMatcherAreSkipped) {
  std::string NoMatcher = "id: lexical-only\nlanguage: cpp\ncategory: c\nseverity: warning\n"
                          "message: m\npattern: c10::kCUDA\n";
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({NoMatcher, ConstantRule}));
  ASSERT_EQ(1u, C.M->rules().size());
  EXPECT_EQ("cuda-constant", C.M->rules()[0]->Id);
}

TEST(SemanticTest, DiscoverFindsTheNearestDatabase) {
  test::TempDir D;
  D.write("torch_stub.h", StubHeader);
  // proj/compile_commands.json lists proj/src/a.cpp.
  D.write("proj/compile_commands.json",
          "[{\"directory\": \"" + D.path("proj") +
              "\", \"command\": \"c++ -std=c++17 -DFROM_PROJ -c src/a.cpp\", \"file\": "
              "\"src/a.cpp\"}]");
  // other/build/compile_commands.json lists other/b.cpp.
  D.write("other/build/compile_commands.json",
          "[{\"directory\": \"" + D.path("other/build") +
              "\", \"command\": \"c++ -DFROM_OTHER -c ../b.cpp\", \"file\": \"../b.cpp\"}]");
  auto DB = CompileCommands::discover();

  std::optional<CompileCommand> A = DB->commandFor(D.path("proj/src/a.cpp"));
  ASSERT_TRUE(A.has_value());
  EXPECT_FALSE(A->Inferred);
  EXPECT_EQ(D.path("proj"), A->Directory);
  EXPECT_NE(A->Arguments.end(), std::find(A->Arguments.begin(), A->Arguments.end(), "-DFROM_PROJ"));

  std::optional<CompileCommand> Unlisted = DB->commandFor(D.path("proj/src/deep/new.cpp"));
  ASSERT_TRUE(Unlisted.has_value());
  EXPECT_TRUE(Unlisted->Inferred);

  std::optional<CompileCommand> B = DB->commandFor(D.path("other/b.cpp"));
  ASSERT_TRUE(B.has_value());
  EXPECT_FALSE(B->Inferred);
  EXPECT_NE(B->Arguments.end(),
            std::find(B->Arguments.begin(), B->Arguments.end(), "-DFROM_OTHER"));

  // Relative to the current directory.
  llvm::SmallString<256> Cwd;
  ASSERT_FALSE(llvm::sys::fs::current_path(Cwd));
  ASSERT_FALSE(llvm::sys::fs::set_current_path(D.path("proj")));
  std::optional<CompileCommand> Rel = DB->commandFor("src/a.cpp");
  auto Fixed = CompileCommands::fromDirectory(".");
  ASSERT_FALSE(llvm::sys::fs::set_current_path(Cwd));
  ASSERT_TRUE(Rel.has_value());
  EXPECT_FALSE(Rel->Inferred);
  ASSERT_TRUE(test::hasValue(Fixed));
  std::optional<CompileCommand> FromFixed = (*Fixed)->commandFor(D.path("proj/src/a.cpp"));
  ASSERT_TRUE(FromFixed.has_value());
  EXPECT_FALSE(FromFixed->Inferred);
}

TEST(SemanticTest, RelativePathsAndCommandsWork) {
  Project P;
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule}));
  std::string Text = "#include \"torch_stub.h\"\nauto x = c10::kCUDA;\n";
  llvm::SmallString<256> Cwd;
  ASSERT_FALSE(llvm::sys::fs::current_path(Cwd));
  ASSERT_FALSE(llvm::sys::fs::set_current_path(P.D.path()));
  auto DB = CompileCommands::discover();
  std::optional<CompileCommand> Cmd = DB->commandFor("main.cpp");
  ASSERT_FALSE(llvm::sys::fs::set_current_path(Cwd));
  ASSERT_TRUE(Cmd.has_value());
  // runSemantic resolves a relative Path against the process's directory.
  ASSERT_FALSE(llvm::sys::fs::set_current_path(P.D.path()));
  SemanticResult R = runSemantic(*C.M, *Cmd, "main.cpp", Text);
  ASSERT_FALSE(llvm::sys::fs::set_current_path(Cwd));
  EXPECT_TRUE(R.Compiled) << R.Error;
  EXPECT_EQ(1u, R.Matches.size());
}

TEST(SemanticTest, FromDirectoryErrorsNameTheFile) {
  test::TempDir D;
  auto Missing = CompileCommands::fromDirectory(D.path());
  ASSERT_FALSE(Missing);
  EXPECT_EQ(D.path("compile_commands.json") + ": no such file",
            llvm::toString(Missing.takeError()));

  D.write("compile_commands.json", "[{\"directory\": ");
  auto Broken = CompileCommands::fromDirectory(D.path());
  ASSERT_FALSE(Broken);
  std::string Msg = llvm::toString(Broken.takeError());
  EXPECT_EQ(0u, Msg.find(D.path("compile_commands.json") + ": ")) << Msg;
}

TEST(SemanticTest, ConcurrentRunsGiveTheSerialResults) {
  Project P({"t0.cpp", "t1.cpp", "t2.cpp", "t3.cpp"});
  ASSERT_THAT_EXPECTED_VALUE(C, compileSemanticRules({ConstantRule, EnumeratorRule, DeviceRule}));
  std::vector<std::string> Texts, Paths;
  std::vector<CompileCommand> Cmds;
  for (int I = 0; I < 4; ++I) {
    std::string T = "#include \"torch_stub.h\"\n";
    for (int J = 0; J <= I; ++J)
      T += "auto a" + std::to_string(J) + " = c10::kCUDA;\n";
    if (I % 2)
      T += "auto d = c10::Device(at::DeviceType::CUDA);\n";
    Texts.push_back(T);
    Paths.push_back(P.D.path("t" + std::to_string(I) + ".cpp"));
    Cmds.push_back(commandIn(P, "t" + std::to_string(I) + ".cpp"));
  }
  std::vector<std::vector<std::string>> Serial(4), Parallel(4);
  for (int I = 0; I < 4; ++I) {
    SemanticResult R = runSemantic(*C.M, Cmds[I], Paths[I], Texts[I]);
    ASSERT_TRUE(R.Compiled) << R.Error;
    Serial[I] = showAll(R, Texts[I]);
    ASSERT_EQ(static_cast<size_t>(I + 1 + (I % 2) * 2), Serial[I].size());
  }
  std::vector<std::thread> Threads;
  for (int I = 0; I < 4; ++I)
    Threads.emplace_back([&, I] {
      SemanticResult R = runSemantic(*C.M, Cmds[I], Paths[I], Texts[I]);
      Parallel[I] = showAll(R, Texts[I]);
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Serial, Parallel);
}

} // namespace
} // namespace devport::cpp
