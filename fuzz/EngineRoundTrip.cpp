//===--- EngineRoundTrip.cpp - parse, match, fix, re-parse one input --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "fuzz/EngineRoundTrip.h"
#include "fuzz/FuzzCheck.h"

#include "engine/Engine.h"
#include "engine/Project.h"

#include "llvm/Support/Error.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>

namespace devport::fuzz {
namespace {

std::unique_ptr<Engine> makeEngine(bool WholeFiles) {
  auto Rules = loadEmbeddedRules();
  FUZZ_CHECK(static_cast<bool>(Rules), "the embedded rules load");
  auto Backends = loadBackendTable();
  FUZZ_CHECK(static_cast<bool>(Backends), "the embedded backend table loads");
  EngineOptions O;
  O.UnsafeFixes = true;
  O.Backends = *Backends;
  O.WholeFiles = WholeFiles;
  O.Build.Semantic = false; // the C++ lexical engine; no compile commands looked up
  auto E = Engine::create(std::move(*Rules), O);
  FUZZ_CHECK(static_cast<bool>(E), "the embedded rules compile");
  return std::move(*E);
}

const Engine &regionEngine() {
  static const std::unique_ptr<Engine> E = makeEngine(false);
  return *E;
}

const Engine &wholeFileEngine() {
  static const std::unique_ptr<Engine> E = makeEngine(true);
  return *E;
}

bool sameFix(const Fix &A, const Fix &B) {
  return A.Title == B.Title && A.Edits == B.Edits && A.App == B.App;
}

bool sameDiagnostic(const Diagnostic &A, const Diagnostic &B) {
  if (A.RuleId != B.RuleId || A.Message != B.Message || A.File != B.File ||
      A.Range != B.Range || A.Sev != B.Sev || A.Notes != B.Notes ||
      A.Fixes.size() != B.Fixes.size() || A.Keeps.size() != B.Keeps.size())
    return false;
  for (size_t I = 0; I < A.Fixes.size(); ++I)
    if (!sameFix(A.Fixes[I], B.Fixes[I]))
      return false;
  for (size_t I = 0; I < A.Keeps.size(); ++I)
    if (A.Keeps[I].RuleId != B.Keeps[I].RuleId || A.Keeps[I].Range != B.Keeps[I].Range)
      return false;
  return true;
}

bool sameDiagnostics(const std::vector<Diagnostic> &A, const std::vector<Diagnostic> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (!sameDiagnostic(A[I], B[I]))
      return false;
  return true;
}

bool sameCheck(const CheckResult &A, const CheckResult &B) {
  return sameDiagnostics(A.Findings, B.Findings) && sameDiagnostics(A.Kept, B.Kept) &&
         sameDiagnostics(A.Suppressed, B.Suppressed);
}

/// One edit of Text, chosen by the input's first and last bytes: code that
/// rules match, an import, brackets, a comment or a suppression inserted, or
/// a byte or a line deleted.
Edit editOf(llvm::StringRef Text, const uint8_t *Data, size_t Size) {
  static const char *Snippets[] = {" ",
                                   "x",
                                   "\n",
                                   "(",
                                   ")",
                                   ":",
                                   "    ",
                                   "# ",
                                   ".cuda()",
                                   "'cuda'",
                                   "import torch.cuda as tc\n",
                                   "tc.current_device()",
                                   "torch.cuda.synchronize()\n",
                                   "  # devport: ignore[cuda-synchronize]",
                                   "class K:\n",
                                   "def g():\n",
                                   "if torch.cuda.is_available():\n    pass\n"};
  uint32_t At = static_cast<uint32_t>((Data[0] * 131u + Data[Size - 1]) % (Text.size() + 1));
  switch (Data[Size - 1] % 4) {
  case 0:
    return Edit::deletion({At, std::min<uint32_t>(At + 1, Text.size())});
  case 1: {
    size_t End = Text.find('\n', At);
    return Edit::deletion({At, End == llvm::StringRef::npos ? static_cast<uint32_t>(Text.size())
                                                            : static_cast<uint32_t>(End)});
  }
  default:
    return Edit::insertion(At, Snippets[Data[0] % std::size(Snippets)]);
  }
}

} // namespace

void engineRoundTrip(const char *Path, const uint8_t *Data, size_t Size) {
  auto F = SourceFile::fromBytes(Path, std::string(reinterpret_cast<const char *>(Data), Size));
  if (!F) {
    llvm::consumeError(F.takeError());
    return;
  }
  const Engine &Regions = regionEngine();
  const Engine &Whole = wholeFileEngine();
  const LanguageBackend &Backend = Regions.backendFor(Path);
  std::unique_ptr<ParsedFile> Before; // the input parsed whole, when needed
  auto Parsed = [&]() -> const ParsedFile & {
    if (!Before) {
      Before = Backend.parseFile(Path, F->text());
      FUZZ_CHECK(Before != nullptr, "the parser does not give up");
    }
    return *Before;
  };

  // check and fix: the same as whole files where the whole file parses. A
  // syntax error that the regions leave out is not seen, by design
  // (docs/architecture.md, "Region parsing"): tree-sitter's recovery from
  // it can change a finding next to it in the whole parse (a line `-` before
  // `a = x.cuda(0)`, fuzz/regressions/python-engine/region-check-after-
  // syntax-error-022fd2c5; `def f(:)` before a finding takes it in), where
  // the regions parse the code as written and fix applies what check
  // reports. (A line that ends where no statement can, as `2 Negatives.` in
  // region-fix-after-syntax-error-c7da886d, makes the regions parse whole:
  // tree-sitter reads on into the next line there.) C++ must agree whatever
  // its lexer says: the statements its region lexing leaves out hold no
  // error the lexer can see (CppMatcher::gaps).
  auto Excused = [&] { return Backend.language() == "python" && Parsed().syntaxErrors() > 0; };
  CheckResult A = Regions.checkAll(*F);
  CheckResult B = Whole.checkAll(*F);
  FUZZ_CHECK(sameDiagnostics(A.Findings, B.Findings) || Excused(),
             "region parsing changes no finding");
  FUZZ_CHECK(sameDiagnostics(A.Kept, B.Kept) || Excused(), "region parsing changes no keep match");
  FUZZ_CHECK(sameDiagnostics(A.Suppressed, B.Suppressed) || Excused(),
             "region parsing changes no suppressed finding");

  FixOutcome X = Regions.fix(*F);
  FixOutcome Y = Whole.fix(*F);
  FUZZ_CHECK(X.Text == Y.Text || Excused(), "region parsing changes no fixed text");
  // A fix adds no syntax error to the whole parse, in either mode; but next
  // to an error that its regions leave out, the region fix is checked (by
  // Engine::fix) against the parse of its regions only, as above.
  for (const FixOutcome *O : {&X, &Y}) {
    if (!O->changed(*F))
      continue;
    std::unique_ptr<ParsedFile> After = Backend.parseFile(Path, O->Text);
    FUZZ_CHECK(After != nullptr, "the parser does not give up");
    FUZZ_CHECK(After->syntaxErrors() <= Parsed().syntaxErrors() || (O == &X && Excused()),
               "the fixed text has no new syntax error");
  }
  if (X.changed(*F) && X.Converged) {
    SourceFile Fixed(Path, X.Text);
    FixOutcome Again = Regions.fix(Fixed);
    FUZZ_CHECK(Again.Applied == 0 && Again.Text == X.Text, "a second fix pass changes nothing");
  }

  // The language server: a check after one edit, from the previous parse.
  if (Size == 0)
    return;
  Edit E = editOf(F->text(), Data, Size);
  std::string Next = F->text().str();
  Next.replace(E.Range.Begin, E.Range.End - E.Range.Begin, E.Replacement);
  auto G = SourceFile::fromBytes(Path, std::move(Next));
  if (!G) { // a multi-byte character cut
    llvm::consumeError(G.takeError());
    return;
  }
  std::unique_ptr<ParsedFile> P0, P1, Fresh;
  Regions.checkIncremental(*F, nullptr, {}, P0);
  CheckResult Incremental = Regions.checkIncremental(*G, P0.get(), {E}, P1);
  CheckResult Scratch = Regions.checkIncremental(*G, nullptr, {}, Fresh);
  FUZZ_CHECK(sameCheck(Incremental, Scratch), "a check after an edit equals one from scratch");
}

} // namespace devport::fuzz
