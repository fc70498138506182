//===--- RegionLexingTest.cpp - C++ statements left out change nothing ----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// Region lexing (CppMatcher::gaps, LexedFile's Gaps) leaves out the
// statements of a C++ file in which no pattern can match. A file lexed so
// must have every other token of the whole file's lexing, with the same
// flags, the same comments, directives and errors, and the same matches:
// checked over the rule fixtures' C++ inputs, each also wrapped in
// namespaces, classes and functions with unrelated code around, and over
// texts that the skeleton scan must not misread (raw strings, digit
// separators, splices, directives in functions, `using` in a class).
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/CppLexer.h"
#include "matchers/cpp/CppMatcher.h"
#include "tests/unit/matchers/cpp/CppRules.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace devport::cpp {
namespace {

/// The rule fixtures' C++ inputs.
std::vector<std::string> fixtureInputs() {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator D(DEVPORT_SOURCE_DIR "/tests/rules", EC), End;
       D != End && !EC; D.increment(EC))
    for (const char *Name : {"input.cpp", "input.cu", "input.h"}) {
      llvm::SmallString<256> P(D->path());
      llvm::sys::path::append(P, Name);
      if (auto B = llvm::MemoryBuffer::getFile(P))
        Out.push_back((*B)->getBuffer().str());
    }
  return Out;
}

/// Code without any device word, to put around the fixtures.
const char *const Fillers[] = {
    "int add(int a, int b) {\n  int s = a + b; // sums\n  return s;\n}\n",
    "struct Point {\n  int x = 0, y = 0;\n  int norm() const { return x * x + y * y; }\n} "
    "origin;\n",
    "static const char *names[] = {\"a\", \"b;{\", \"c}\"};\n",
    "template <typename T>\nT twice(T v) {\n  auto f = [&](T w) { return w + w; };\n  for (int i = "
    "0; i < 2; ++i) {\n    v = f(v);\n  }\n  return v;\n}\n",
    "/* a block comment with { braces } and ; semicolons */\nvoid g();\n",
    "class Holder {\npublic:\n  using value_type = int;\n  value_type get() const { return v_; "
    "}\nprivate:\n  int v_ = 0;\n};\n",
    "void h(int n) {\n  switch (n) {\n  case 1:\n    break;\n  default:\n    ++n;\n  }\n  if (n) { "
    "n = 'x'; }\n}\n",
};

/// A fixture wrapped in the ways real files hold such code.
std::vector<std::string> variants(const std::string &Fixture, unsigned Seed) {
  std::mt19937 Rng(Seed);
  auto Filler = [&] { return std::string(Fillers[Rng() % std::size(Fillers)]); };
  std::vector<std::string> Out{Fixture};
  Out.push_back(Filler() + Fixture + Filler());
  Out.push_back("namespace outer {\n" + Filler() + "namespace inner {\n" + Fixture +
                "\n}  // namespace inner\n" + Filler() + "}  // namespace outer\n");
  std::string Crlf;
  for (char C : Filler() + Fixture + Filler()) {
    if (C == '\n')
      Crlf += '\r';
    Crlf += C;
  }
  Out.push_back(Crlf);
  return Out;
}

/// Texts the skeleton scan must stop at, or read as the lexer does.
const char *const Tricky[] = {
    // A raw string with what looks like a brace and a quote.
    "void f() { auto s = R\"x(} \" {)x\"; int a = 1; int b = 2; int c = 3; }\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    // Digit separators and a prefixed character.
    "int big() { int n = 1'000'000; char c = u8'x'; return n + c + 1 + 2 + 3; }\n"
    "bool k(at::Tensor t) { return t.is_cuda(); }\n",
    // A line comment that a splice continues.
    "void f() { int a = 0; // comment \\\n  } still comment\n  a = 1; a = 2; a = 3; }\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    // A directive inside a function, and one continued by a splice.
    "void f() {\n  int a = 0;\n#ifdef USE_CUDA\n  a = 1;\n#endif\n  a += 2; a += 3; a += 4;\n}\n"
    "#define LONG(x) \\\n  do { x; } while (0)\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    // `using` in a class body after an access label: it holds after it.
    "namespace at { void unrelated(); }\n"
    "struct S : Base {\npublic:\n  using namespace_alias = int;\n  void a() { int x = 1; int y = "
    "2; int z = 3; }\n"
    "  void b(Tensor t) { t.to(kCUDA); }\n};\n"
    "using namespace at;\nvoid c(Tensor t) { int q = 0; q++; q++; q++; q++; q++; }\n"
    "void d(Tensor t) { t.to(kCUDA); }\n",
    // A using-declaration without a device word: what it brings in resolves
    // a name later.
    "using c10::DeviceType;\nvoid c() { int q = 0; q++; q++; q++; q++; q++; q++; }\n"
    "bool d(c10::Device v) { return v.type() == DeviceType::CUDA; }\n",
    // A comment before a closing brace, on the same line and the line before.
    "void f() {\n  int a = 1; int b = 2; int c = 3; int d = 4; /* end */ }\n"
    "void g() {\n  int a = 1; int b = 2; int c = 3; int d = 4;\n  // end\n}\n"
    "void h(at::Tensor t) { t.to(at::kCUDA); }\n",
    // `%:` is `#`; an unterminated quote in #error; a stray backslash.
    "%:define X 1\nvoid f() { int a = 1; int b = 2; int c = 3; int d = 4; }\n"
    "#error don't do this\nvoid g(at::Tensor t) { t.to(at::kCUDA); }\n"
    "void h() { int a = 1; int b = 2; int c = 3; int d = 4; int e = 5; }\n",
    "void f() { int a = 1; int b = 2; int c = 3; int d = 4; \\\n }\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    // Brackets that do not pair, in a function far from the finding.
    "void f() { int a = (1; int b = 2; int c = 3; int d = 4; }\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    // Not ASCII before a closing brace (a no-break space), and in a comment.
    "void f() {\n  int a = 1; int b = 2; int c = 3; // caf\xc3\xa9\n\xc2\xa0}\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    // A no-break space after a statement end, before the next line's token.
    "void f(at::Tensor t) {\n  int a = 1; int b = 2; int c = 3; int d = 4; int e = 5;\n"
    "\xc2\xa0 t.to(at::kCUDA);\n}\n",
    // A byte order mark before statements left out, and before a directive
    // (the lexer skips it: the `#` starts the line).
    "\xef\xbb\xbfint add(int a, int b) { return a + b + 1 + 2 + 3 + 4 + 5; }\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    "\xef\xbb\xbf#include <ATen/core/Tensor.h>\nif (input.is_cpu()) {}\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    // A devport directive in a statement without a device word.
    "void f() {\n  int a = 1; int b = 2; int c = 3;  // devport: ignore[no-such-rule]\n}\n"
    "void g(at::Tensor t) { t.to(at::kCUDA); }\n",
    // Unterminated comment and string at the end.
    "void g(at::Tensor t) { t.to(at::kCUDA); }\nvoid f() { int a = 1; int b = 2; /* open\n",
    "void g(at::Tensor t) { t.to(at::kCUDA); }\nvoid f() { const char *s = \"open\n; }\n",
};

std::string describe(const Token &T) {
  return std::to_string(static_cast<int>(T.Kind)) + (T.StartOfLine ? "^" : "") +
         (T.InDirective ? "#" : "") + "p" + std::to_string(T.Punct) + "@" +
         std::to_string(T.Begin) + "-" + std::to_string(T.End);
}

TEST(RegionLexing, EachPunctuatorCarriesItsSpellingInAByte) {
  LexedFile L("a::b->c({[x]}); y == z; %: <% -");
  std::vector<std::pair<std::string, unsigned>> Got;
  for (size_t I = 0; I < L.tokens().size(); ++I)
    Got.push_back({L.spelling(I).str(), L.tokens()[I].Punct});
  std::vector<std::pair<std::string, unsigned>> Want{{"a", 0},           {"::", PunctColonColon},
                                                     {"b", 0},           {"->", PunctArrow},
                                                     {"c", 0},           {"(", '('},
                                                     {"{", '{'},         {"[", '['},
                                                     {"x", 0},           {"]", ']'},
                                                     {"}", '}'},         {")", ')'},
                                                     {";", ';'},         {"y", 0},
                                                     {"==", PunctOther}, {"z", 0},
                                                     {";", ';'},         {"%:", PunctOther},
                                                     {"<%", PunctOther}, {"-", '-'}};
  EXPECT_EQ(Want, Got);
}

std::string describe(const Match &M) {
  std::string S = M.R->Id + "@" + std::to_string(M.Range.Begin) + "-" + std::to_string(M.Range.End);
  for (const BoundVar &B : M.Bindings)
    S += " " + B.Name + "=" + std::to_string(B.Range.Begin) + "-" + std::to_string(B.Range.End);
  if (const auto *C = static_cast<const CppContext *>(M.Context.get()))
    S += std::string(" ctx") + (C->InFunction ? "F" : "") + (C->InConstant ? "K" : "") +
         (C->InTable ? "T" : "") + (C->InDirective ? "D" : "") + (C->Unresolved ? "U" : "");
  return S;
}

/// Checks Text lexed with its gaps against Text lexed whole; the bytes left
/// out are added to Skipped.
void expectSameAsWhole(const CppMatcher &M, const std::string &Text, size_t &Skipped) {
  SCOPED_TRACE(Text.substr(0, 400));
  std::vector<ByteRange> GapComments;
  std::vector<ByteRange> Gaps = M.gaps(Text, GapComments);
  LexedFile Whole(Text), Part(Text, Gaps, GapComments);
  std::vector<std::string> Want, Got;
  for (const Token &T : Whole.tokens()) {
    bool Out =
        llvm::any_of(Gaps, [&](ByteRange G) { return G.Begin <= T.Begin && T.End <= G.End; });
    if (!Out)
      Want.push_back(describe(T));
  }
  for (const Token &T : Part.tokens())
    Got.push_back(describe(T));
  EXPECT_EQ(Want, Got);
  auto Ranges = [](const std::vector<ByteRange> &Rs) {
    std::vector<std::pair<uint32_t, uint32_t>> Out;
    for (ByteRange R : Rs)
      Out.push_back({R.Begin, R.End});
    return Out;
  };
  EXPECT_EQ(Ranges(Whole.comments()), Ranges(Part.comments()));
  EXPECT_EQ(Ranges(Whole.includes()), Ranges(Part.includes()));
  EXPECT_EQ(Whole.errors(), Part.errors());
  ASSERT_EQ(Whole.conditionals().size(), Part.conditionals().size());
  for (size_t K = 0; K < Whole.conditionals().size(); ++K) {
    EXPECT_EQ(Whole.conditionals()[K].Branch.Begin, Part.conditionals()[K].Branch.Begin);
    EXPECT_EQ(Whole.conditionals()[K].Branch.End, Part.conditionals()[K].Branch.End);
  }
  std::vector<std::string> WantM, GotM;
  for (const Match &X : M.match(Whole, {}))
    WantM.push_back(describe(X));
  for (const Match &X : M.match(Part, {}))
    GotM.push_back(describe(X));
  EXPECT_EQ(WantM, GotM);
  for (ByteRange G : Gaps)
    Skipped += G.size();
}

TEST(RegionLexing, LeavesOutOnlyWhatChangesNothing) {
  const CompiledCppRules &C = cppRules();
  ASSERT_TRUE(C.M);
  std::vector<std::string> Inputs = fixtureInputs();
  ASSERT_GE(Inputs.size(), 15u);
  size_t Skipped = 0, Total = 0;
  unsigned Seed = 1;
  for (const std::string &F : Inputs)
    for (const std::string &Text : variants(F, Seed++)) {
      Total += Text.size();
      expectSameAsWhole(*C.M, Text, Skipped);
    }
  // Not a test that passes by leaving nothing out.
  EXPECT_GT(Skipped, Total / 10) << Skipped << " of " << Total << " bytes left out";
}

TEST(RegionLexing, TextsTheScanMustNotMisread) {
  const CompiledCppRules &C = cppRules();
  ASSERT_TRUE(C.M);
  size_t Skipped = 0;
  for (const char *Text : Tricky) {
    expectSameAsWhole(*C.M, Text, Skipped);
    std::string Crlf;
    for (const char *P = Text; *P; ++P) {
      if (*P == '\n')
        Crlf += '\r';
      Crlf += *P;
    }
    expectSameAsWhole(*C.M, Crlf, Skipped);
  }
  EXPECT_GT(Skipped, 0u);
}

TEST(RegionLexing, TheSkeletonStopsWhereItWouldMisread) {
  for (llvm::StringRef Text : {"int a = 1'000;", "auto s = R\"(x)\";", "int a; \\\n int b;",
                               "const char *s = \"open\n;", "/* open", "int a = (1];"}) {
    Skeleton S = scanSkeleton(Text);
    EXPECT_LT(S.Read, Text.size()) << Text.str();
  }
  Skeleton S = scanSkeleton("void f() { g(\"}\", '{'); } // }\n#define X {\nint y; ");
  ASSERT_EQ(1u, S.Pairs.size());
  EXPECT_EQ(9u, S.Pairs[0].Open);
  EXPECT_EQ(24u, S.Pairs[0].Close);
  ASSERT_EQ(1u, S.Directives.size());
  EXPECT_EQ(31u, S.Directives[0].Begin);
  EXPECT_EQ(42u, S.Directives[0].End); // the line, without its newline
  ASSERT_EQ(1u, S.Comments.size());
  EXPECT_EQ(26u, S.Comments[0].Begin);
  EXPECT_EQ(30u, S.Comments[0].End);
}

TEST(RegionLexing, TheSkeletonNamesEachStatementsLevelByItsPair) {
  //                          0         1         2         3         4
  //                          0123456789012345678901234567890123456789012345
  llvm::StringRef Text = "int a; void f() { if (x) { y(); } z; } struct S { {";
  Skeleton S = scanSkeleton(Text);
  EXPECT_EQ(Text.size(), S.Read);
  struct P {
    uint32_t Open, Close, Parent;
  };
  std::vector<P> Want{{16, 37, Skeleton::NoParent},
                      {25, 32, 0},
                      {48, Skeleton::Unclosed, Skeleton::NoParent},
                      {50, Skeleton::Unclosed, 2}};
  ASSERT_EQ(Want.size(), S.Pairs.size());
  for (size_t I = 0; I < Want.size(); ++I) {
    EXPECT_EQ(Want[I].Open, S.Pairs[I].Open) << I;
    EXPECT_EQ(Want[I].Close, S.Pairs[I].Close) << I;
    EXPECT_EQ(Want[I].Parent, S.Pairs[I].Parent) << I;
  }
  // `;` of `int a`, `y();`, the `}` of the if, `z;`, the `}` of f.
  std::vector<std::pair<uint32_t, uint32_t>> Ends{
      {5, Skeleton::NoParent}, {30, 1}, {32, 0}, {35, 0}, {37, Skeleton::NoParent}};
  ASSERT_EQ(Ends.size(), S.Boundaries.size());
  for (size_t I = 0; I < Ends.size(); ++I) {
    EXPECT_EQ(Ends[I].first, S.Boundaries[I].At) << I;
    EXPECT_EQ(Ends[I].second, S.Boundaries[I].Parent) << I;
  }
}

} // namespace
} // namespace devport::cpp
