//===--- DiffBase.cpp - Lines changed since a git revision ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tools/devport/DiffBase.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>

namespace devport {

bool ChangedLines::touches(const std::string &AbsPath, unsigned First, unsigned Last) const {
  if (Whole.count(AbsPath))
    return true;
  auto It = Lines.find(AbsPath);
  if (It == Lines.end())
    return false;
  for (const auto &[A, B] : It->second)
    if (A <= Last && First <= B)
      return true;
  return false;
}

/// A path as git prints it: C-style quoted when it holds unusual bytes.
static std::string unquote(llvm::StringRef P) {
  if (!P.startswith("\"") || !P.endswith("\"") || P.size() < 2)
    return P.str();
  P = P.drop_front().drop_back();
  std::string Out;
  for (size_t I = 0; I < P.size(); ++I) {
    if (P[I] != '\\' || I + 1 == P.size()) {
      Out += P[I];
      continue;
    }
    char C = P[++I];
    if (C >= '0' && C <= '7' && I + 2 < P.size()) { // Ex) \303\251
      Out += static_cast<char>(((C - '0') << 6) | ((P[I + 1] - '0') << 3) | (P[I + 2] - '0'));
      I += 2;
      continue;
    }
    switch (C) {
    case 'n': Out += '\n'; break;
    case 't': Out += '\t'; break;
    case 'a': Out += '\a'; break;
    case 'b': Out += '\b'; break;
    case 'f': Out += '\f'; break;
    case 'r': Out += '\r'; break;
    case 'v': Out += '\v'; break;
    default: Out += C; break; // \" and \\ .
    }
  }
  return Out;
}

void addUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Top, ChangedLines &Out) {
  std::vector<std::pair<unsigned, unsigned>> *Cur = nullptr;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (L.consume_front("+++ ")) {
      Cur = nullptr;
      std::string P = unquote(L.rtrim("\r\t"));
      if (!llvm::StringRef(P).startswith("b/"))
        continue; // /dev/null: the file was deleted
      llvm::SmallString<256> Abs(Top);
      llvm::sys::path::append(Abs, llvm::sys::path::Style::posix, llvm::StringRef(P).drop_front(2));
      Cur = &Out.Lines[std::string(Abs.str())];
      continue;
    }
    // Ex) @@ -12,3 +12,4 @@ def f():
    if (!Cur || !L.consume_front("@@ -"))
      continue;
    size_t Plus = L.find(" +");
    if (Plus == llvm::StringRef::npos)
      continue;
    llvm::StringRef New = L.drop_front(Plus + 2).take_until([](char C) { return C == ' '; });
    auto [StartS, CountS] = New.split(',');
    unsigned Start = 0, Count = 1;
    if (StartS.getAsInteger(10, Start) || (!CountS.empty() && CountS.getAsInteger(10, Count)))
      continue;
    if (Count > 0)
      Cur->push_back({Start, Start + Count - 1});
  }
  for (auto &[Path, Ranges] : Out.Lines)
    std::sort(Ranges.begin(), Ranges.end());
}

namespace {

/// git's standard output, or an error with what it said on standard error.
llvm::Expected<std::string> git(llvm::ArrayRef<llvm::StringRef> Args) {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return llvm::createStringError(Git.getError(), "--diff-base needs git on PATH");
  llvm::SmallString<128> OutFile, ErrFile;
  if (auto EC = llvm::sys::fs::createTemporaryFile("devport-git", "out", OutFile))
    return llvm::createStringError(EC, "cannot create a temporary file");
  if (auto EC = llvm::sys::fs::createTemporaryFile("devport-git", "err", ErrFile)) {
    llvm::sys::fs::remove(OutFile);
    return llvm::createStringError(EC, "cannot create a temporary file");
  }
  std::vector<llvm::StringRef> Argv{"git"};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  llvm::Optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), OutFile.str(),
                                                ErrFile.str()};
  std::string Why;
  int Code = llvm::sys::ExecuteAndWait(*Git, Argv, llvm::None, Redirects, 0, 0, &Why);
  auto Read = [](llvm::StringRef F) {
    auto B = llvm::MemoryBuffer::getFile(F);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  std::string Out = Read(OutFile), Err = Read(ErrFile);
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  if (Code != 0)
    return llvm::createStringError(std::errc::invalid_argument, "%s",
                                   (Why.empty() ? llvm::StringRef(Err).trim().str() : Why).c_str());
  return Out;
}

} // namespace

llvm::Expected<ChangedLines> changedSince(llvm::StringRef Ref) {
  auto Top = git({"rev-parse", "--show-toplevel"});
  if (!Top)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "--diff-base: not in a git repository (%s)",
                                   llvm::toString(Top.takeError()).c_str());
  std::string Root = llvm::StringRef(*Top).trim().str();
  std::string Commit = Ref.str() + "^{commit}";
  if (auto C = git({"-C", Root, "rev-parse", "--verify", "--quiet", "--end-of-options", Commit});
      !C) {
    llvm::consumeError(C.takeError());
    return llvm::createStringError(std::errc::invalid_argument,
                                   "--diff-base: unknown revision '%s'", Ref.str().c_str());
  }
  ChangedLines Out;
  auto Diff = git({"-C", Root, "-c", "core.quotePath=true", "diff", "--no-color", "--no-ext-diff",
                   "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "-U0", "-M", Commit,
                   "--"});
  if (!Diff)
    return llvm::createStringError(std::errc::invalid_argument, "--diff-base: git diff: %s",
                                   llvm::toString(Diff.takeError()).c_str());
  addUnifiedDiff(*Diff, Root, Out);
  auto Untracked = git({"-C", Root, "ls-files", "--others", "--exclude-standard", "-z"});
  if (!Untracked)
    return llvm::createStringError(std::errc::invalid_argument, "--diff-base: git ls-files: %s",
                                   llvm::toString(Untracked.takeError()).c_str());
  llvm::SmallVector<llvm::StringRef, 0> Names;
  llvm::StringRef(*Untracked).split(Names, '\0', -1, false);
  for (llvm::StringRef N : Names) {
    llvm::SmallString<256> Abs(Root);
    llvm::sys::path::append(Abs, llvm::sys::path::Style::posix, N);
    Out.Whole.insert(std::string(Abs.str()));
  }
  return Out;
}

} // namespace devport
