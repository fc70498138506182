//===--- Workspace.cpp - Which files to check -----------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The directory walk behind collectFiles(): gitignore-style patterns (parsed
/// and classified once per .gitignore, matched with a port of git's
/// wildmatch), the stack of ignore files that applies to each directory, and
/// the --exclude globs.
///
//===----------------------------------------------------------------------===//

#include "core/Workspace.h"

#include "core/SourceFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cctype>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace devport {
namespace {

// ------------------------------------------------------------ wildmatch ---

enum class Wild { Match, NoMatch, AbortAll, AbortToStarStar };

/// git's wildmatch() in WM_PATHNAME mode (git/wildmatch.c), on explicit-length
/// strings: `*`, `?` and `[...]` never match '/'; a `**` that fills a whole
/// path segment matches any number of directories; `\` escapes. The abort
/// results cut the backtracking short, which keeps `*a*b*c` linear enough.
class WildMatcher {
public:
  WildMatcher(llvm::StringRef Pattern, llvm::StringRef Text)
      : PBegin(Pattern.begin()), PEnd(Pattern.end()), TEnd(Text.end()) {}

  Wild run(const char *P, const char *T) const {
    for (; pc(P) != 0; ++T, ++P) {
      unsigned char PCh = pc(P);
      unsigned char TCh = tc(T);
      if (TCh == 0 && PCh != '*')
        return Wild::AbortAll;
      switch (PCh) {
      case '\\':
        // Ex) `\#`, `\*`: the next character literally.
        PCh = pc(++P);
        [[fallthrough]];
      default:
        if (TCh != PCh)
          return Wild::NoMatch;
        continue;
      case '?':
        if (TCh == '/')
          return Wild::NoMatch;
        continue;
      case '*': {
        const char *Star = P;
        bool MatchSlash = false;
        if (pc(++P) == '*') {
          while (pc(++P) == '*') {
          }
          // Ex) `**/x`, `a/**/x`, `a/**`: a whole segment of stars.
          if ((Star == PBegin || Star[-1] == '/') &&
              (pc(P) == 0 || pc(P) == '/' || (pc(P) == '\\' && pc(P + 1) == '/'))) {
            if (pc(P) == '/' && run(P + 1, T) == Wild::Match)
              return Wild::Match; // `**/` as zero directories
            MatchSlash = true;
          }
          // Ex) `a**b`: an ordinary `*`.
        }
        if (pc(P) == 0) {
          // A trailing `**` matches everything, a trailing `*` the rest of
          // this segment only.
          if (!MatchSlash && std::find(T, TEnd, '/') != TEnd)
            return Wild::NoMatch;
          return Wild::Match;
        }
        if (!MatchSlash && pc(P) == '/') {
          // Ex) `a/*/b`: one `*` then a slash spans exactly one segment.
          const char *Slash = std::find(T, TEnd, '/');
          if (Slash == TEnd)
            return Wild::NoMatch;
          T = Slash;
          break; // the loop's increment consumes the slash on both sides
        }
        while (TCh != 0) {
          if (!isSpecial(pc(P))) {
            // Skip ahead to the next occurrence of the literal after `*`.
            unsigned char Want = pc(P);
            while ((TCh = tc(T)) != 0 && (MatchSlash || TCh != '/')) {
              if (TCh == Want)
                break;
              ++T;
            }
            if (TCh != Want)
              return Wild::NoMatch;
          }
          Wild M = run(P, T);
          if (M != Wild::NoMatch) {
            if (!MatchSlash || M != Wild::AbortToStarStar)
              return M;
          } else if (!MatchSlash && TCh == '/') {
            return Wild::AbortToStarStar;
          }
          TCh = tc(++T);
        }
        return Wild::AbortAll;
      }
      case '[': {
        // Ex) `[abc]`, `[!0-9]`, `[^a]`, `[]x]`, `[[:digit:]]`.
        PCh = pc(++P);
        if (PCh == '^')
          PCh = '!';
        bool Negated = PCh == '!';
        if (Negated)
          PCh = pc(++P);
        unsigned char PrevCh = 0;
        bool Matched = false;
        do {
          if (PCh == 0)
            return Wild::AbortAll; // no closing ']': the pattern never matches
          if (PCh == '\\') {
            PCh = pc(++P);
            if (PCh == 0)
              return Wild::AbortAll;
            if (TCh == PCh)
              Matched = true;
          } else if (PCh == '-' && PrevCh && pc(P + 1) && pc(P + 1) != ']') {
            PCh = pc(++P);
            if (PCh == '\\') {
              PCh = pc(++P);
              if (PCh == 0)
                return Wild::AbortAll;
            }
            if (TCh <= PCh && TCh >= PrevCh)
              Matched = true;
            PCh = 0; // a range cannot start another range
          } else if (PCh == '[' && pc(P + 1) == ':') {
            const char *S = P += 2;
            while ((PCh = pc(P)) != 0 && PCh != ']')
              ++P;
            if (PCh == 0)
              return Wild::AbortAll;
            if (P - S < 1 || P[-1] != ':') {
              // Not `[:name:]`: an ordinary '['.
              P = S - 2;
              PCh = '[';
              if (TCh == PCh)
                Matched = true;
              continue;
            }
            std::optional<bool> In = inClass(llvm::StringRef(S, P - S - 1), TCh);
            if (!In)
              return Wild::AbortAll; // unknown class name
            Matched |= *In;
            PCh = 0;
          } else if (TCh == PCh) {
            Matched = true;
          }
        } while (PrevCh = PCh, (PCh = pc(++P)) != ']');
        if (Matched == Negated || TCh == '/')
          return Wild::NoMatch;
        continue;
      }
      }
    }
    return T < TEnd ? Wild::NoMatch : Wild::Match;
  }

private:
  unsigned char pc(const char *P) const { return P < PEnd ? static_cast<unsigned char>(*P) : 0; }
  unsigned char tc(const char *T) const { return T < TEnd ? static_cast<unsigned char>(*T) : 0; }
  static bool isSpecial(unsigned char C) { return C == '*' || C == '?' || C == '[' || C == '\\'; }

  static std::optional<bool> inClass(llvm::StringRef Name, unsigned char C) {
    if (Name == "alnum")
      return std::isalnum(C) != 0;
    if (Name == "alpha")
      return std::isalpha(C) != 0;
    if (Name == "blank")
      return C == ' ' || C == '\t';
    if (Name == "cntrl")
      return std::iscntrl(C) != 0;
    if (Name == "digit")
      return std::isdigit(C) != 0;
    if (Name == "graph")
      return std::isgraph(C) != 0;
    if (Name == "lower")
      return std::islower(C) != 0;
    if (Name == "print")
      return std::isprint(C) != 0;
    if (Name == "punct")
      return std::ispunct(C) != 0;
    if (Name == "space")
      return std::isspace(C) != 0;
    if (Name == "upper")
      return std::isupper(C) != 0;
    if (Name == "xdigit")
      return std::isxdigit(C) != 0;
    return std::nullopt;
  }

  const char *PBegin, *PEnd, *TEnd;
};

bool wildmatch(llvm::StringRef Pattern, llvm::StringRef Text) {
  WildMatcher M(Pattern, Text);
  return M.run(Pattern.begin(), Text.begin()) == Wild::Match;
}

// ------------------------------------------------------------- patterns ---

/// One gitignore line, parsed and classified once so that matching it against
/// a path is usually a string comparison.
struct Pattern {
  enum class Kind {
    Literal, ///< Ex) `build`, `docs/conf.py`: no wildcard, compared whole.
    Suffix,  ///< Ex) `*.pyc`: unanchored `*` + literal, a basename suffix.
    Glob,    ///< Everything else: wildmatch.
  };
  std::string Glob; ///< Without `!`, the anchoring '/' and the trailing '/'.
  /// Kind::Literal: the text; otherwise a literal every match ends with
  /// (Ex) ".pyc" for `*/**/*.pyc`), checked before anything else.
  std::string Literal;
  Kind K = Kind::Glob;
  bool Negate = false;
  bool DirOnly = false;
  /// Matched against the whole path relative to the pattern's base (it had
  /// a leading or inner '/'); otherwise against the basename only.
  bool Anchored = false;

  /// Rel: the path relative to the base; Name: its last component.
  bool matches(llvm::StringRef Rel, llvm::StringRef Name, bool IsDir) const {
    if (DirOnly && !IsDir)
      return false;
    llvm::StringRef Subject = Anchored ? Rel : Name;
    if (K == Kind::Literal)
      return Subject == Literal;
    if (!Subject.endswith(Literal))
      return false;
    return K == Kind::Suffix || wildmatch(Glob, Subject);
  }
};

bool hasWildcard(llvm::StringRef S) { return S.find_first_of("*?[\\") != llvm::StringRef::npos; }

/// Parses one line of a .gitignore; nullopt for blank lines and comments.
std::optional<Pattern> parsePattern(llvm::StringRef L) {
  if (L.endswith("\r"))
    L = L.drop_back();
  // Trailing spaces go unless escaped with a backslash (`a\ ` keeps one).
  size_t Keep = 0;
  for (size_t I = 0; I < L.size(); ++I) {
    if (L[I] == ' ')
      continue;
    if (L[I] == '\\' && I + 1 < L.size())
      ++I;
    Keep = I + 1;
  }
  L = L.take_front(Keep);
  if (L.empty() || L.front() == '#')
    return std::nullopt;
  Pattern P;
  if (L.consume_front("!"))
    P.Negate = true;
  if (L.endswith("/") && !L.endswith("\\/")) {
    P.DirOnly = true;
    L = L.drop_back();
  }
  if (L.consume_front("/"))
    P.Anchored = true;
  // Ex) `**/foo`: in all directories, the same as `foo` (gitignore(5)).
  while (L.startswith("**/") && !L.drop_front(3).contains('/')) {
    L = L.drop_front(3);
    P.Anchored = false;
  }
  if (L.contains('/'))
    P.Anchored = true;
  if (L.empty())
    return std::nullopt;
  P.Glob = L.str();
  if (!hasWildcard(L)) {
    P.K = Pattern::Kind::Literal;
    P.Literal = P.Glob;
    return P;
  }
  if (!P.Anchored && L.front() == '*' && !hasWildcard(L.drop_front())) {
    P.K = Pattern::Kind::Suffix;
    P.Literal = L.drop_front().str();
    return P;
  }
  // The literal tail after the last wildcard, bracket, escape or '/' (a
  // `**/` may match no directory, and so no '/').
  P.Literal = L.drop_front(L.find_last_of("*?[]\\/") + 1).str();
  return P;
}

/// The last component of a '/'-separated path.
llvm::StringRef baseName(llvm::StringRef Path) {
  size_t Slash = Path.rfind('/');
  return Slash == llvm::StringRef::npos ? Path : Path.drop_front(Slash + 1);
}

/// Last match wins: true if ignored, false if re-included, nullopt if no
/// pattern matches.
std::optional<bool> decide(llvm::ArrayRef<Pattern> Patterns, llvm::StringRef Rel,
                           llvm::StringRef Name, bool IsDir) {
  for (const Pattern &P : llvm::reverse(Patterns))
    if (P.matches(Rel, Name, IsDir))
      return !P.Negate;
  return std::nullopt;
}

/// The patterns of one .gitignore (or info/exclude) and the directory they
/// are relative to.
struct IgnoreFile {
  std::string Base; ///< Absolute, no trailing '/'; "" for the root directory.
  std::vector<Pattern> Patterns;
};

// --------------------------------------------------------------- walking ---

const char *const SkippedDirs[] = {
    ".git",         ".hg",   ".svn",           ".bzr",        ".venv",         "venv",
    ".tox",         ".nox",  ".mypy_cache",    ".ruff_cache", ".pytest_cache", "__pycache__",
    "node_modules", ".eggs", "__pypackages__", "buck-out",    "_build"};

bool isSkippedDir(llvm::StringRef Name) { return llvm::is_contained(SkippedDirs, Name); }

/// "Permission denied" -> "permission denied".
std::string describe(std::error_code EC) {
  std::string M = EC.message();
  if (!M.empty())
    M[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(M[0])));
  return M;
}

/// Dir/Name, without doubling the '/' of the root directory.
std::string childPath(llvm::StringRef Dir, llvm::StringRef Name) {
  std::string P = Dir.str();
  if (P.empty() || P.back() != '/')
    P += '/';
  P += Name;
  return P;
}

} // namespace

/// Whether remove_dots() could change P: it has an empty, `.` or `..`
/// component. A run asks this of every path, twice; the path iterators of
/// append() and remove_dots() took some 2,000 instructions a path.
static bool mayHaveDots(llvm::StringRef P) {
  for (size_t I = 0; I < P.size(); ++I) {
    if (I != 0 && P[I - 1] != '/')
      continue; // not the start of a component
    llvm::StringRef C = P.substr(I).take_until([](char Ch) { return Ch == '/'; });
    if ((C.empty() && I != 0) || C == "." || C == "..")
      return true;
  }
  return false;
}

std::string absolutePath(llvm::StringRef Cwd, llvm::StringRef P) {
  llvm::SmallString<256> A;
  // A leading `./` (a shell's `./*.py`, `find .`) is dropped here, where
  // remove_dots() for it took most of the time of a lookup of each file.
  while (P.startswith("./"))
    P = P.drop_front(2).ltrim('/');
  if (P.startswith("/") || Cwd.empty()) {
    A = P;
  } else {
    A = Cwd;
    if (!P.empty()) {
      if (!Cwd.endswith("/"))
        A += '/';
      A += P;
    }
  }
  if (mayHaveDots(A))
    llvm::sys::path::remove_dots(A, /*remove_dot_dot=*/true);
  while (A.size() > 1 && A.back() == '/')
    A.pop_back();
  return std::string(A.str());
}

std::string currentDirectory() {
  llvm::SmallString<256> A(".");
  llvm::sys::fs::make_absolute(A); // left "." (cleaned to "") if it fails
  return absolutePath("", A);
}

namespace {

/// A file found, as shown to the user and as the real file it is (the
/// identity used to drop duplicates).
struct Found {
  std::string Display;
  std::string Id;
  bool Link = false; ///< Reached through a symlink.
};

/// The real path of P (symlinks resolved), or Fallback when it has none.
std::string realPathOr(llvm::StringRef P, llvm::StringRef Fallback) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(P, Real))
    return Fallback.str();
  return std::string(Real.str());
}

/// The real path of the directory at Abs (absolute and without `.` or `..`:
/// absolutePath()'s; a spelling with `..` is for realpath(3), as `a/..`
/// after a link is not the directory that holds the link), the answers for
/// it and its ancestors kept in Known: a component that is not a symbolic
/// link adds its name to its parent's real path, one lstat each, where
/// realpath(3) read every component of every directory again (1,404
/// readlink and 300 getcwd calls for the directories of PyTorch's 4,491 C++
/// files).
std::string realDirectory(llvm::StringRef Abs, llvm::StringMap<std::string> &Known) {
  auto It = Known.find(Abs);
  if (It != Known.end())
    return It->second;
  std::string Real;
  llvm::StringRef Parent = llvm::sys::path::parent_path(Abs);
  llvm::StringRef Name = llvm::sys::path::filename(Abs);
  struct stat St;
  if (Parent.empty() || Parent == Abs || ::lstat(std::string(Abs).c_str(), &St) != 0 ||
      S_ISLNK(St.st_mode)) {
    Real = realPathOr(Abs, Abs);
  } else {
    Real = realDirectory(Parent, Known);
    if (Real.empty() || Real.back() != '/')
      Real += '/';
    Real += Name;
  }
  Known[Abs] = Real;
  return Real;
}

class Walker {
public:
  Walker(const WorkspaceOptions &O, std::vector<Found> &Files, WorkspaceFiles &Out,
         llvm::StringRef Cwd)
      : O(O), Files(Files), Warnings(Out.Warnings), Errors(Out.Errors), Temps(Out.TempFiles),
        Cwd(Cwd.str()) {
    for (const std::string &E : O.Excludes) {
      llvm::StringRef G = E;
      while (G.consume_front("./")) {
      }
      if (auto P = parsePattern(G))
        Excludes.push_back(std::move(*P));
    }
  }

  /// Whether any --exclude glob was given.
  bool hasExcludes() const { return !Excludes.empty(); }

  /// Is an explicitly named path, or one of its parent directories (up to the
  /// current directory), matched by an --exclude glob?
  bool excludedPath(llvm::StringRef Abs, bool IsDir) const {
    if (Excludes.empty())
      return false;
    llvm::StringRef Rel = relToCwd(Abs);
    for (size_t Slash = Rel.find('/'); Slash != llvm::StringRef::npos;
         Slash = Rel.find('/', Slash + 1)) {
      llvm::StringRef Dir = Rel.take_front(Slash);
      if (decide(Excludes, Dir, baseName(Dir), true).value_or(false))
        return true;
    }
    return !Rel.empty() && decide(Excludes, Rel, baseName(Rel), IsDir).value_or(false);
  }

  void walkRoot(llvm::StringRef Display, llvm::StringRef Abs) {
    Stack.clear();
    Floor = 0;
    RootDisplay = Display.str();
    RootAbsSize = Abs.size();
    RootReal = realPathOr(Abs, Abs);
    if (O.RespectGitignore)
      loadAncestors(Abs);
    llvm::SmallString<256> Buf(Abs);
    walk(Buf);
  }

private:
  /// Abs relative to the current directory; a path outside it stays
  /// absolute, less its leading '/'.
  llvm::StringRef relToCwd(llvm::StringRef Abs) const {
    if (Abs.size() > Cwd.size() && Abs.startswith(Cwd) && (Cwd == "/" || Abs[Cwd.size()] == '/'))
      return Abs.drop_front(Cwd == "/" ? 1 : Cwd.size() + 1);
    if (Abs == Cwd)
      return "";
    return Abs.drop_while([](char C) { return C == '/'; });
  }

  bool excludedEntry(llvm::StringRef Abs, llvm::StringRef Name, bool IsDir) const {
    if (Excludes.empty())
      return false;
    return decide(Excludes, relToCwd(Abs), Name, IsDir).value_or(false);
  }

  bool ignored(llvm::StringRef Abs, llvm::StringRef Name, bool IsDir) const {
    for (size_t I = Stack.size(); I-- > Floor;) {
      const IgnoreFile &F = *Stack[I];
      assert(Abs.startswith(F.Base) && Abs.size() > F.Base.size() + 1 &&
             Abs[F.Base.size()] == '/' && "ignore files apply to their own subtree only");
      if (auto D = decide(F.Patterns, Abs.drop_front(F.Base.size() + 1), Name, IsDir))
        return *D;
    }
    return false;
  }

  void push(llvm::StringRef File, llvm::StringRef Dir) {
    auto Bytes = readRegularFile(File, MaxConfigFileBytes);
    if (!Bytes) {
      ReadFailure Why = takeReadFailure(Bytes.takeError(), File);
      if (Why.Code != std::errc::no_such_file_or_directory)
        Warnings.push_back(Why.Message + "; its patterns are not used");
      return;
    }
    auto F = std::make_unique<IgnoreFile>();
    F->Base = Dir == "/" ? "" : Dir.str();
    llvm::StringRef Text = *Bytes;
    Text.consume_front("\xEF\xBB\xBF");
    while (!Text.empty()) {
      llvm::StringRef Line;
      std::tie(Line, Text) = Text.split('\n');
      if (auto P = parsePattern(Line))
        F->Patterns.push_back(std::move(*P));
    }
    if (!F->Patterns.empty())
      Stack.push_back(std::move(F));
  }

  /// Starts the rules of the repository whose work tree is Dir (it holds
  /// `.git`, a directory or, for submodules and worktrees, a file naming the
  /// git directory): outer repositories' ignore files stop applying.
  void enterRepository(llvm::StringRef Dir) {
    Floor = Stack.size();
    llvm::SmallString<256> GitDir(Dir);
    llvm::sys::path::append(GitDir, ".git");
    if (!llvm::sys::fs::is_directory(GitDir)) {
      // "gitdir: <path>", relative to Dir.
      auto Buf = llvm::MemoryBuffer::getFile(GitDir, false, false);
      if (!Buf)
        return;
      llvm::StringRef Target = (*Buf)->getBuffer().trim();
      if (!Target.consume_front("gitdir:"))
        return;
      Target = Target.trim();
      if (llvm::sys::path::is_absolute(Target)) {
        GitDir = Target;
      } else {
        GitDir = Dir;
        llvm::sys::path::append(GitDir, Target);
      }
      // A worktree's info/exclude lives in the common directory.
      llvm::SmallString<256> CommonFile(GitDir);
      llvm::sys::path::append(CommonFile, "commondir");
      if (auto C = llvm::MemoryBuffer::getFile(CommonFile, false, false)) {
        llvm::StringRef Common = (*C)->getBuffer().trim();
        if (llvm::sys::path::is_absolute(Common))
          GitDir = Common;
        else
          llvm::sys::path::append(GitDir, Common);
      }
    }
    llvm::sys::path::append(GitDir, "info", "exclude");
    push(GitDir, Dir);
  }

  /// Pushes the ignore files of Root's ancestors, from the repository's work
  /// tree root (the nearest ancestor holding `.git`) down to Root's parent.
  /// Outside a repository no ancestor counts; a Root that is itself a
  /// repository's root is handled by walk().
  void loadAncestors(llvm::StringRef Root) {
    if (llvm::sys::fs::exists(childPath(Root, ".git")))
      return;
    std::vector<llvm::StringRef> Chain;
    llvm::StringRef Repo;
    for (llvm::StringRef P = llvm::sys::path::parent_path(Root); !P.empty();
         P = llvm::sys::path::parent_path(P)) {
      Chain.push_back(P);
      if (llvm::sys::fs::exists(childPath(P, ".git"))) {
        Repo = P;
        break;
      }
      if (P == "/")
        break;
    }
    if (Repo.empty())
      return;
    enterRepository(Repo);
    for (llvm::StringRef Dir : llvm::reverse(Chain))
      push(childPath(Dir, ".gitignore"), Dir);
  }

  /// A directory being walked: its entries, the next one to look at, and
  /// what to restore when it is done.
  struct Frame {
    struct Entry {
      std::string Name;
      llvm::sys::fs::file_type Type;
    };
    std::vector<Entry> Entries;
    size_t Next = 0;
    size_t PathSize = 0; ///< Of the directory's absolute path.
    size_t Mark = 0;     ///< Ignore-file stack size before it.
    size_t OldFloor = 0;
  };

  /// Reads the directory Abs and pushes its frame (with its ignore files).
  void enter(llvm::StringRef Abs, std::vector<Frame> &Frames) {
    Frame F;
    std::error_code EC;
    llvm::sys::fs::directory_iterator It(Abs, EC, /*follow_symlinks=*/false), End;
    bool HasGit = false, HasGitignore = false;
    for (; !EC && It != End; It.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(It->path());
      if (Name == ".git")
        HasGit = true;
      else if (Name == ".gitignore")
        HasGitignore = true;
      F.Entries.push_back({Name.str(), It->type()});
    }
    if (EC) {
      // Its files are not checked: an error, not a warning.
      std::string D = display(Abs);
      Errors.push_back({D, D + ": cannot read directory: " + describe(EC)});
    }
    F.PathSize = Abs.size();
    F.Mark = Stack.size();
    F.OldFloor = Floor;
    if (O.RespectGitignore) {
      if (HasGit)
        enterRepository(Abs);
      if (HasGitignore)
        push(childPath(Abs, ".gitignore"), Abs);
    }
    Frames.push_back(std::move(F));
  }

  /// Walks the directory Abs (an absolute path, used as a buffer: restored on
  /// return), depth first in directory order, with a stack of its own: the
  /// depth is bounded by what the system allows, not by the call stack.
  void walk(llvm::SmallString<256> &Abs) {
    size_t Size = Abs.size();
    std::vector<Frame> Frames;
    enter(Abs, Frames);
    while (!Frames.empty()) {
      Frame &F = Frames.back();
      if (F.Next == F.Entries.size()) {
        Stack.resize(F.Mark);
        Floor = F.OldFloor;
        Frames.pop_back();
        continue;
      }
      const Frame::Entry E = std::move(F.Entries[F.Next++]);
      Abs.resize(F.PathSize);
      if (Abs.size() > 1)
        Abs.push_back('/');
      Abs.append(E.Name);
      visit(Abs, E.Name, E.Type, Frames);
    }
    Abs.resize(Size);
  }

  /// One entry of a directory being walked: a directory is entered (pushed
  /// on Frames), a file kept or not.
  void visit(llvm::StringRef Abs, llvm::StringRef Name, llvm::sys::fs::file_type Type,
             std::vector<Frame> &Frames) {
    if (Type == llvm::sys::fs::file_type::type_unknown) {
      // The file system gives no type in the directory entry: lstat.
      llvm::sys::fs::file_status St;
      if (!llvm::sys::fs::status(Abs, St, /*follow=*/false))
        Type = St.type();
    }
    if (Type == llvm::sys::fs::file_type::directory_file) {
      if (isSkippedDir(Name) || excludedEntry(Abs, Name, true) ||
          (O.RespectGitignore && ignored(Abs, Name, true)))
        return;
      enter(Abs, Frames);
      return;
    }
    bool Link = Type == llvm::sys::fs::file_type::symlink_file;
    if (Link) {
      // Links to files are followed; links to directories never (cycles),
      // broken links are dropped.
      llvm::sys::fs::file_status St;
      if (llvm::sys::fs::status(Abs, St, /*follow=*/true) ||
          St.type() != llvm::sys::fs::file_type::regular_file)
        return;
    } else if (Type != llvm::sys::fs::file_type::regular_file) {
      return; // sockets, fifos, devices
    }
    if (O.FindTempFiles && !Link && isTempFileName(Name))
      Temps.push_back(display(Abs));
    if (!llvm::any_of(O.Extensions, [&](const std::string &X) { return Name.endswith(X); }))
      return;
    if (excludedEntry(Abs, Name, false) || (O.RespectGitignore && ignored(Abs, Name, false)))
      return;
    // The real file: a link's target, or the file under the root's real path.
    std::string Id = Link ? realPathOr(Abs, Abs) : RootReal + Abs.drop_front(RootAbsSize).str();
    Files.push_back({display(Abs), std::move(Id), Link});
  }

  /// The path under the current root as the user spelled the root.
  std::string display(llvm::StringRef Abs) const {
    llvm::StringRef Tail = Abs.drop_front(RootAbsSize);
    std::string D = RootDisplay;
    if (!Tail.startswith("/") && !llvm::StringRef(D).endswith("/"))
      D += '/'; // the root is "/" spelled otherwise (Ex) "." in "/")
    D += Tail;
    return D;
  }

  const WorkspaceOptions &O;
  std::vector<Found> &Files;
  std::vector<std::string> &Warnings;
  std::vector<WalkError> &Errors;
  std::vector<std::string> &Temps;
  std::string Cwd;
  std::vector<Pattern> Excludes;
  std::vector<std::unique_ptr<IgnoreFile>> Stack;
  size_t Floor = 0;
  std::string RootDisplay;
  size_t RootAbsSize = 0;
  std::string RootReal; ///< The root's real path (symlinks resolved).
};

/// Adds to Out the temporary files in Dir (not walked: the directory of a
/// file named on the command line).
void findTempFiles(const std::string &Dir, std::vector<std::string> &Out) {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir.empty() ? "." : Dir, EC, false), End;
       !EC && It != End; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (isTempFileName(Name) && It->type() == llvm::sys::fs::file_type::regular_file)
      Out.push_back(Dir.empty() ? Name.str() : childPath(Dir, Name));
  }
}

} // namespace

bool matchGlob(llvm::StringRef Glob, llvm::StringRef Path, bool IsDir) {
  auto P = parsePattern(Glob);
  return P && P->matches(Path, baseName(Path), IsDir);
}

bool isTempFileName(llvm::StringRef Name) {
  // `.` NAME `.devport-` and six letters or digits.
  constexpr llvm::StringLiteral Infix = ".devport-";
  if (Name.size() < 1 + 1 + Infix.size() + 6 || Name.front() != '.')
    return false;
  llvm::StringRef Suffix = Name.take_back(6);
  return Name.drop_back(6).endswith(Infix) && llvm::all_of(Suffix, [](char C) {
           return std::isalnum(static_cast<unsigned char>(C)) != 0;
         });
}

std::string answerUpward(llvm::StringRef Dir, llvm::StringMap<std::string> &Known,
                         llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Ask) {
  std::vector<llvm::StringRef> Walked;
  std::string Found;
  for (llvm::StringRef P = Dir; !P.empty();) {
    auto It = Known.find(P);
    if (It != Known.end()) {
      Found = It->second;
      break;
    }
    Walked.push_back(P);
    if (std::optional<std::string> A = Ask(P)) {
      Found = std::move(*A);
      break;
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(P);
    if (Parent == P)
      break;
    P = Parent;
  }
  for (llvm::StringRef W : Walked)
    Known[W] = Found;
  return Found;
}

namespace {

/// A named path's type: that of its target for a symbolic link. Only the
/// type is kept: a whole file_status a path was 0.5 MB of fresh pages over
/// PyTorch's C++ files, faulted in while nothing else could start.
struct NamedStatus {
  std::error_code EC;
  llvm::sys::fs::file_type Type = llvm::sys::fs::file_type::status_error;
  bool IsLink = false;
};

NamedStatus statusOf(const std::string &P) {
  NamedStatus S;
  llvm::sys::fs::file_status St;
  S.EC = llvm::sys::fs::status(P, St, /*follow=*/false);
  S.IsLink = !S.EC && St.type() == llvm::sys::fs::file_type::symlink_file;
  if (S.IsLink)
    S.EC = llvm::sys::fs::status(P, St, /*follow=*/true);
  S.Type = St.type();
  return S;
}

/// statusOf() each path, in order; a long list on Threads threads (a stat
/// is a few microseconds of the kernel's, before any file can be checked).
std::vector<NamedStatus> statusesOf(llvm::ArrayRef<std::string> Paths, unsigned Threads) {
  std::vector<NamedStatus> Out(Paths.size());
  const size_t PerThread = 512;
  unsigned N = Threads == 0 ? llvm::hardware_concurrency().compute_thread_count() : Threads;
  N = static_cast<unsigned>(std::min<size_t>(N, Paths.size() / PerThread));
  if (N <= 1) {
    for (size_t K = 0; K < Paths.size(); ++K)
      Out[K] = statusOf(Paths[K]);
    return Out;
  }
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    const size_t Chunk = 64;
    for (size_t B; (B = Next.fetch_add(Chunk)) < Paths.size();)
      for (size_t K = B; K < std::min(B + Chunk, Paths.size()); ++K)
        Out[K] = statusOf(Paths[K]);
  };
  std::vector<std::thread> Helpers;
  for (unsigned T = 1; T < N; ++T)
    Helpers.emplace_back(Work);
  Work();
  for (std::thread &H : Helpers)
    H.join();
  return Out;
}

} // namespace

llvm::Expected<WorkspaceFiles> collectFiles(llvm::ArrayRef<std::string> Paths,
                                            const WorkspaceOptions &Opts) {
  WorkspaceFiles Out;
  std::vector<Found> Files;
  std::string Cwd = currentDirectory();
  Walker W(Opts, Files, Out, Cwd);
  std::vector<std::string> FileDirs; // of the files named, for FindTempFiles
  // Real paths of the named files' directories, by their spelling: a long
  // file list (a pre-commit hook's) costs one lstat per file, not a
  // realpath(3) of every path component.
  llvm::StringMap<std::string> RealDirs, RealByAbs;
  std::vector<NamedStatus> Statuses = statusesOf(Paths, Opts.Threads);
  Files.reserve(Paths.size());
  for (size_t K = 0; K < Paths.size(); ++K) {
    const std::string &P = Paths[K];
    auto &[EC, Type, IsLink] = Statuses[K];
    if (EC) {
      if (EC == std::errc::no_such_file_or_directory) {
        if (IsLink) {
          char To[4096];
          ssize_t N = ::readlink(P.c_str(), To, sizeof(To) - 1);
          To[N > 0 ? N : 0] = '\0';
          return llvm::createStringError(EC, "%s: broken symbolic link to %s", P.c_str(),
                                         static_cast<const char *>(To));
        }
        return llvm::createStringError(EC, "%s: no such file or directory", P.c_str());
      }
      return llvm::createStringError(EC, "%s: %s", P.c_str(), describe(EC).c_str());
    }
    if (Type != llvm::sys::fs::file_type::directory_file) {
      // Named explicitly: kept whatever its extension or .gitignore say. Its
      // absolute path only where it is read (an exclude, a link): cleaning
      // the `./` of every path took most of this loop over a long list.
      if (!W.hasExcludes() || !W.excludedPath(absolutePath(Cwd, P), false)) {
        std::string Id;
        if (IsLink) {
          Id = realPathOr(P, absolutePath(Cwd, P));
        } else {
          // Its directory as spelled (`a/..` resolved as the system does).
          llvm::StringRef Dir = llvm::sys::path::parent_path(P);
          if (Dir.empty())
            Dir = ".";
          auto It = RealDirs.find(Dir);
          if (It == RealDirs.end()) {
            // Cleaned to an absolute path, `..` would be read as text.
            bool DotDot = llvm::is_contained(
                llvm::make_range(llvm::sys::path::begin(Dir), llvm::sys::path::end(Dir)), "..");
            std::string Abs = absolutePath(Cwd, Dir);
            It = RealDirs
                     .insert({Dir, DotDot ? realPathOr(Dir, Abs) : realDirectory(Abs, RealByAbs)})
                     .first;
          }
          Id = childPath(It->second, llvm::sys::path::filename(P));
        }
        Files.push_back({P, std::move(Id), IsLink});
        if (Opts.FindTempFiles)
          FileDirs.push_back(llvm::sys::path::parent_path(P).str());
      }
      continue;
    }
    std::string Abs = absolutePath(Cwd, P);
    if (W.excludedPath(Abs, true))
      continue;
    llvm::StringRef Display = P;
    while (Display.size() > 1 && Display.endswith("/"))
      Display = Display.drop_back();
    W.walkRoot(Display, Abs);
  }
  llvm::sort(FileDirs);
  FileDirs.erase(std::unique(FileDirs.begin(), FileDirs.end()), FileDirs.end());
  for (const std::string &D : FileDirs)
    findTempFiles(D, Out.TempFiles);
  llvm::sort(Out.TempFiles);
  Out.TempFiles.erase(std::unique(Out.TempFiles.begin(), Out.TempFiles.end()),
                      Out.TempFiles.end());
  // A file reached twice (`src` and `./src/a.py`, a file and a symlink to
  // it, two symlinks to one file) is kept once: under a spelling without a
  // symlink if there is one, else the one that sorts first. Sorted by
  // spelling.
  // Named files usually come sorted (a shell's glob, `git ls-files`): a
  // sort of them was a fifth of the walk over PyTorch's 4,491 C++ files.
  auto ById = [](const Found &A, const Found &B) {
    return std::tie(A.Id, A.Link, A.Display) < std::tie(B.Id, B.Link, B.Display);
  };
  if (!std::is_sorted(Files.begin(), Files.end(), ById))
    llvm::sort(Files, ById);
  for (size_t I = 0; I < Files.size(); ++I)
    if (I == 0 || Files[I].Id != Files[I - 1].Id)
      Out.Files.push_back(std::move(Files[I].Display));
  if (!std::is_sorted(Out.Files.begin(), Out.Files.end()))
    llvm::sort(Out.Files);
  return Out;
}

} // namespace devport
