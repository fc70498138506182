//===--- CorpusTest.cpp - Matcher tests in tree-sitter corpus format ------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs tests/matchers/python/*.txt. Each case is
///
///     ====
///     title
///     ====
///     pattern
///     ----
///     code
///     ----
///     line:col-line:col NAME=bound text ...   (one line per match, or none)
///
/// with 1-based lines and code-point columns, matches in document order and
/// bindings sorted by name.
///
//===----------------------------------------------------------------------===//

#include "core/Rule.h"
#include "core/SourceFile.h"
#include "matchers/python/PythonMatcher.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace devport::python {
namespace {

struct CorpusCase {
  std::string File, Title, Pattern, Code, Expected;
};

bool isRule(llvm::StringRef Line, char C) {
  return Line.size() >= 3 && Line.find_first_not_of(C) == llvm::StringRef::npos;
}

std::vector<CorpusCase> loadCorpus() {
  std::vector<CorpusCase> Out;
  std::string Dir = DEVPORT_SOURCE_DIR "/tests/matchers/python";
  std::error_code EC;
  std::vector<std::string> Files;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).endswith(".txt"))
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  for (const std::string &F : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(F);
    if (!Buf)
      continue;
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    size_t I = 0;
    while (I < Lines.size()) {
      if (!isRule(Lines[I], '=')) {
        ++I;
        continue;
      }
      CorpusCase C;
      C.File = llvm::sys::path::filename(F).str();
      C.Title = Lines[I + 1].str();
      I += 3; // ===, title, ===
      int Part = 0;
      std::string *Dest[] = {&C.Pattern, &C.Code, &C.Expected};
      for (; I < Lines.size() && !isRule(Lines[I], '='); ++I) {
        if (isRule(Lines[I], '-') && Part < 2) {
          ++Part;
          continue;
        }
        *Dest[Part] += Lines[I].str() + "\n";
      }
      C.Pattern = llvm::StringRef(C.Pattern).trim().str();
      C.Expected = llvm::StringRef(C.Expected).trim().str();
      std::string Code = C.Code;
      while (llvm::StringRef(Code).endswith("\n\n"))
        Code.pop_back();
      C.Code = Code;
      Out.push_back(std::move(C));
    }
  }
  return Out;
}

std::string yamlQuote(llvm::StringRef S) {
  std::string Out = "'";
  for (char C : S) {
    Out += C;
    if (C == '\'')
      Out += '\'';
  }
  return Out + "'";
}

TEST(MatcherCorpus, AllCases) {
  std::vector<CorpusCase> Cases = loadCorpus();
  ASSERT_GT(Cases.size(), 10u) << "corpus files not found";
  for (const CorpusCase &C : Cases) {
    SCOPED_TRACE(C.File + ": " + C.Title);
    std::string Yaml = "id: corpus-case\nlanguage: python\ncategory: test\nseverity: warning\n"
                       "message: m\npattern: " +
                       yamlQuote(C.Pattern) + "\n";
    auto Rules = RuleSet::loadBuffer("corpus-case.yaml", Yaml);
    ASSERT_TRUE(static_cast<bool>(Rules)) << llvm::toString(Rules.takeError());
    auto M = PythonMatcher::compile(*Rules);
    ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
    SourceFile F("case.py", C.Code);
    Parser P;
    TreePtr Tree = P.parse(F.text());
    TSNode Root = ts_tree_root_node(Tree.get());
    NameResolver R(Root, F.text());
    MatchResults Found = (*M)->match(Root, F.text(), R);
    std::string Actual;
    for (const Match &Mt : Found.Matches) {
      LineColumn B = F.lineColumn(Mt.Range.Begin), E = F.lineColumn(Mt.Range.End);
      std::string Line = std::to_string(B.Line) + ":" + std::to_string(B.Column) + "-" +
                         std::to_string(E.Line) + ":" + std::to_string(E.Column);
      std::vector<BoundVar> Bs = Mt.Bindings;
      std::sort(Bs.begin(), Bs.end(),
                [](const BoundVar &A, const BoundVar &B) { return A.Name < B.Name; });
      for (const BoundVar &V : Bs)
        Line += " " + V.Name + "=" + F.text().slice(V.Range.Begin, V.Range.End).str();
      if (!Actual.empty())
        Actual += "\n";
      Actual += Line;
    }
    EXPECT_EQ(C.Expected, Actual);
    if (!C.Code.empty() && C.Expected.empty())
      EXPECT_TRUE(Found.Matches.empty());
  }
}

} // namespace
} // namespace devport::python
