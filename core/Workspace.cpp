//===--- Workspace.cpp - Which files to check -----------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Workspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace devport {

// ---------------------------------------------------------------- globs ---

/// Matches Str against a gitignore glob fragment Pat (no leading '/' or
/// trailing '/' markers left).
static bool globMatch(llvm::StringRef Pat, llvm::StringRef Str) {
  while (!Pat.empty()) {
    if (Pat.startswith("**")) {
      llvm::StringRef Rest = Pat.drop_front(2);
      if (Rest.empty())
        return true; // `**` at the end matches everything below
      if (Rest.front() == '/') {
        // `**/`: zero or more whole directories.
        Rest = Rest.drop_front();
        for (size_t I = 0; I <= Str.size(); ++I)
          if ((I == 0 || Str[I - 1] == '/') && globMatch(Rest, Str.drop_front(I)))
            return true;
        return false;
      }
      Pat = Pat.drop_front(); // `**x` is `*x`
      continue;
    }
    char C = Pat.front();
    if (C == '*') {
      Pat = Pat.drop_front();
      for (size_t I = 0; I <= Str.size(); ++I) {
        if (globMatch(Pat, Str.drop_front(I)))
          return true;
        if (I < Str.size() && Str[I] == '/')
          return false;
      }
      return false;
    }
    if (Str.empty())
      return false;
    if (C == '?') {
      if (Str.front() == '/')
        return false;
      Pat = Pat.drop_front();
      Str = Str.drop_front();
      continue;
    }
    if (C == '[') {
      size_t Close = Pat.find(']', Pat.size() > 2 && (Pat[1] == '!' || Pat[1] == '^') ? 3 : 2);
      if (Close != llvm::StringRef::npos) {
        llvm::StringRef Set = Pat.slice(1, Close);
        bool Negate = !Set.empty() && (Set.front() == '!' || Set.front() == '^');
        if (Negate)
          Set = Set.drop_front();
        char S = Str.front();
        bool In = false;
        for (size_t I = 0; I < Set.size(); ++I) {
          if (I + 2 < Set.size() && Set[I + 1] == '-') {
            In |= Set[I] <= S && S <= Set[I + 2];
            I += 2;
          } else {
            In |= Set[I] == S;
          }
        }
        if (In == Negate || S == '/')
          return false;
        Pat = Pat.drop_front(Close + 1);
        Str = Str.drop_front();
        continue;
      }
    }
    if (C == '\\' && Pat.size() > 1) {
      Pat = Pat.drop_front();
      C = Pat.front();
    }
    if (Str.front() != C)
      return false;
    Pat = Pat.drop_front();
    Str = Str.drop_front();
  }
  return Str.empty();
}

namespace {

/// One gitignore line, parsed.
struct IgnorePattern {
  std::string Glob;
  bool Negate = false;
  bool DirOnly = false;
  bool Anchored = false; ///< Matched against the whole relative path.
};

std::optional<IgnorePattern> parseIgnoreLine(llvm::StringRef L) {
  if (L.endswith("\r"))
    L = L.drop_back();
  // Trailing spaces are dropped unless escaped.
  while (L.endswith(" ") && !L.endswith("\\ "))
    L = L.drop_back();
  if (L.empty() || L.startswith("#"))
    return std::nullopt;
  IgnorePattern P;
  if (L.startswith("!")) {
    P.Negate = true;
    L = L.drop_front();
  } else if (L.startswith("\\!") || L.startswith("\\#")) {
    L = L.drop_front();
  }
  if (L.endswith("/")) {
    P.DirOnly = true;
    L = L.drop_back();
  }
  if (L.startswith("/")) {
    P.Anchored = true;
    L = L.drop_front();
  }
  if (L.contains('/'))
    P.Anchored = true;
  if (L.empty())
    return std::nullopt;
  P.Glob = L.str();
  return P;
}

bool matches(const IgnorePattern &P, llvm::StringRef RelPath, bool IsDir) {
  if (P.DirOnly && !IsDir)
    return false;
  if (P.Anchored)
    return globMatch(P.Glob, RelPath);
  return globMatch(P.Glob, llvm::sys::path::filename(RelPath, llvm::sys::path::Style::posix));
}

/// The patterns of one .gitignore (or .git/info/exclude) and the directory
/// they are relative to.
struct IgnoreFile {
  std::string Base; ///< Absolute directory, no trailing '/'.
  std::vector<IgnorePattern> Patterns;
};

std::unique_ptr<IgnoreFile> loadIgnoreFile(llvm::StringRef Path, llvm::StringRef Base) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true, false);
  if (!Buf)
    return nullptr;
  auto F = std::make_unique<IgnoreFile>();
  F->Base = Base.str();
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (auto P = parseIgnoreLine(L))
      F->Patterns.push_back(std::move(*P));
  if (F->Patterns.empty())
    return nullptr;
  return F;
}

/// Ignored by the stack of ignore files (shallowest first)? The last matching
/// pattern decides, deeper files after shallower ones.
bool ignored(llvm::ArrayRef<const IgnoreFile *> Stack, llvm::StringRef AbsPath, bool IsDir) {
  bool Result = false;
  for (const IgnoreFile *F : Stack) {
    if (!AbsPath.startswith(F->Base) || AbsPath.size() <= F->Base.size() ||
        AbsPath[F->Base.size()] != '/')
      continue;
    llvm::StringRef Rel = AbsPath.drop_front(F->Base.size() + 1);
    for (const IgnorePattern &P : F->Patterns)
      if (matches(P, Rel, IsDir))
        Result = !P.Negate;
  }
  return Result;
}

const char *const SkippedDirs[] = {
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", ".mypy_cache", ".ruff_cache",
    ".pytest_cache", "__pycache__", "node_modules", ".eggs", "__pypackages__", "buck-out",
    "_build"};

std::string absolute(llvm::StringRef P) {
  llvm::SmallString<256> A(P);
  llvm::sys::fs::make_absolute(A);
  llvm::sys::path::remove_dots(A, /*remove_dot_dot=*/true);
  if (A.size() > 1 && A.back() == '/')
    A.pop_back();
  return std::string(A.str());
}

class Walker {
public:
  Walker(const WorkspaceOptions &O, WorkspaceFiles &Out) : O(O), Out(Out) {
    Cwd = absolute(".");
  }

  bool excluded(llvm::StringRef AbsPath, bool IsDir) const {
    if (O.Excludes.empty())
      return false;
    llvm::StringRef Rel = AbsPath;
    if (Rel.startswith(Cwd) && Rel.size() > Cwd.size() && Rel[Cwd.size()] == '/')
      Rel = Rel.drop_front(Cwd.size() + 1);
    for (const std::string &G : O.Excludes) {
      auto P = parseIgnoreLine(G);
      if (!P || (P->DirOnly && !IsDir))
        continue;
      if (P->Anchored) {
        if (globMatch(P->Glob, Rel))
          return true;
        continue;
      }
      // Unanchored: any component of the path.
      llvm::SmallVector<llvm::StringRef, 16> Parts;
      Rel.split(Parts, '/', -1, false);
      for (size_t I = 0; I < Parts.size(); ++I)
        if (globMatch(P->Glob, Parts[I]) && (!P->DirOnly || I + 1 < Parts.size() || IsDir))
          return true;
    }
    return false;
  }

  /// Loads the ignore files of every ancestor of AbsDir up to the repository
  /// root (the nearest ancestor holding .git), AbsDir's own excluded.
  void loadAncestors(const std::string &AbsDir) {
    std::vector<std::string> Chain;
    llvm::StringRef D = AbsDir;
    std::string Repo;
    for (llvm::StringRef P = llvm::sys::path::parent_path(D); !P.empty();
         P = llvm::sys::path::parent_path(P)) {
      Chain.push_back(P.str());
      if (llvm::sys::fs::exists(P + "/.git")) {
        Repo = P.str();
        break;
      }
      if (P == "/")
        break;
    }
    if (llvm::sys::fs::exists(AbsDir + "/.git"))
      Repo = AbsDir, Chain.clear();
    if (Repo.empty())
      Chain.clear(); // outside a repository only the walked tree's own files count
    std::reverse(Chain.begin(), Chain.end());
    if (!Repo.empty())
      push(loadIgnoreFile(Repo + "/.git/info/exclude", Repo == "/" ? "" : Repo));
    for (const std::string &Dir : Chain)
      push(loadIgnoreFile(Dir + "/.gitignore", Dir == "/" ? "" : Dir));
  }

  void walk(const std::string &Display, const std::string &Abs) {
    size_t Mark = Stack.size();
    if (O.RespectGitignore)
      push(loadIgnoreFile(Abs + "/.gitignore", Abs));
    std::error_code EC;
    std::vector<std::pair<std::string, llvm::sys::fs::file_type>> Entries;
    for (llvm::sys::fs::directory_iterator It(Abs, EC, /*follow_symlinks=*/false), End;
         It != End && !EC; It.increment(EC))
      Entries.push_back({llvm::sys::path::filename(It->path()).str(), It->type()});
    if (EC)
      Out.Warnings.push_back(Display + ": cannot read directory: " + EC.message());
    std::sort(Entries.begin(), Entries.end());
    for (auto &Entry : Entries) {
      const std::string &Name = Entry.first;
      llvm::sys::fs::file_type Type = Entry.second;
      std::string ChildAbs = Abs == "/" ? "/" + Name : Abs + "/" + Name;
      std::string ChildDisplay = Display == "/" ? "/" + Name : Display + "/" + Name;
      bool IsDir = Type == llvm::sys::fs::file_type::directory_file;
      if (Type == llvm::sys::fs::file_type::symlink_file) {
        // Follow links to files, never to directories (cycles).
        llvm::sys::fs::file_status St;
        if (llvm::sys::fs::status(ChildAbs, St, /*follow=*/true) ||
            St.type() != llvm::sys::fs::file_type::regular_file)
          continue;
      } else if (!IsDir && Type != llvm::sys::fs::file_type::regular_file &&
                 Type != llvm::sys::fs::file_type::type_unknown) {
        continue;
      }
      if (IsDir && llvm::is_contained(SkippedDirs, Name))
        continue;
      if (excluded(ChildAbs, IsDir))
        continue;
      if (O.RespectGitignore && ignored(Stack, ChildAbs, IsDir))
        continue;
      if (IsDir) {
        walk(ChildDisplay, ChildAbs);
        continue;
      }
      if (llvm::any_of(O.Extensions, [&](const std::string &E) {
            return llvm::StringRef(Name).endswith(E);
          }))
        Out.Files.push_back(ChildDisplay);
    }
    while (Stack.size() > Mark) {
      Stack.pop_back();
      Owned.pop_back();
    }
  }

  void resetStack() {
    Stack.clear();
    Owned.clear();
  }

private:
  void push(std::unique_ptr<IgnoreFile> F) {
    if (!F)
      return;
    Stack.push_back(F.get());
    Owned.push_back(std::move(F));
  }

  const WorkspaceOptions &O;
  WorkspaceFiles &Out;
  std::string Cwd;
  std::vector<const IgnoreFile *> Stack;
  std::vector<std::unique_ptr<IgnoreFile>> Owned;
};

} // namespace

bool matchGlob(llvm::StringRef Glob, llvm::StringRef Path, bool IsDir) {
  auto P = parseIgnoreLine(Glob);
  if (!P)
    return false;
  return matches(*P, Path, IsDir);
}

llvm::Expected<WorkspaceFiles> collectFiles(llvm::ArrayRef<std::string> Paths,
                                            const WorkspaceOptions &Opts) {
  WorkspaceFiles Out;
  Walker W(Opts, Out);
  for (const std::string &P : Paths) {
    llvm::sys::fs::file_status St;
    if (std::error_code EC = llvm::sys::fs::status(P, St, /*follow=*/true)) {
      if (EC == std::errc::no_such_file_or_directory)
        return llvm::createStringError(EC, "%s: no such file or directory", P.c_str());
      return llvm::createStringError(EC, "%s: %s", P.c_str(), EC.message().c_str());
    }
    std::string Abs = absolute(P);
    bool IsDir = St.type() == llvm::sys::fs::file_type::directory_file;
    if (!IsDir) {
      if (!W.excluded(Abs, false))
        Out.Files.push_back(P);
      continue;
    }
    std::string Display = P;
    while (Display.size() > 1 && Display.back() == '/')
      Display.pop_back();
    W.resetStack();
    if (Opts.RespectGitignore)
      W.loadAncestors(Abs);
    W.walk(Display, Abs);
  }
  std::sort(Out.Files.begin(), Out.Files.end());
  Out.Files.erase(std::unique(Out.Files.begin(), Out.Files.end()), Out.Files.end());
  return Out;
}

} // namespace devport
