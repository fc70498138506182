//===--- ProjectModules.cpp - What the project's own modules import -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/ProjectModules.h"
#include "matchers/python/Syntax.h"
#include "matchers/python/Tokenizer.h"

#include "core/ProjectRequirements.h"
#include "core/SourceFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace devport::python {

namespace {

/// `a.b` as `a/b`.
llvm::SmallString<64> modulePath(llvm::StringRef Module) {
  llvm::SmallString<64> P;
  for (llvm::StringRef Part : llvm::split(Module, '.'))
    llvm::sys::path::append(P, Part);
  return P;
}

/// `Dir/a/b.py`, or `Dir/a/b/__init__.py`, where one is a file.
std::optional<std::string> moduleIn(llvm::StringRef Dir, llvm::StringRef Module) {
  llvm::SmallString<128> P(Dir);
  if (!Module.empty())
    llvm::sys::path::append(P, modulePath(Module));
  llvm::SmallString<128> File(P);
  File += ".py";
  if (!Module.empty() && llvm::sys::fs::is_regular_file(File))
    return std::string(File);
  llvm::sys::path::append(P, "__init__.py");
  if (llvm::sys::fs::is_regular_file(P))
    return std::string(P);
  return std::nullopt;
}

} // namespace

std::optional<std::string> projectModulePath(llvm::StringRef FromPath, llvm::StringRef Module,
                                             unsigned Level) {
  llvm::SmallString<128> Dir(FromPath);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_filename(Dir);
  if (Level > 0) {
    // `from .a import b` in pkg/m.py: pkg/a; each dot past the first, one
    // package up.
    for (unsigned I = 1; I < Level; ++I) {
      if (!llvm::sys::path::has_parent_path(Dir))
        return std::nullopt;
      llvm::sys::path::remove_filename(Dir);
    }
    return moduleIn(Dir, Module);
  }
  if (Module.empty())
    return std::nullopt;
  for (unsigned Up = 0; Up < 8 && !Dir.empty(); ++Up) {
    if (auto P = moduleIn(Dir, Module))
      return P;
    llvm::SmallString<128> Src(Dir);
    llvm::sys::path::append(Src, "src");
    if (auto P = moduleIn(Src, Module))
      return P;
    // The parent is a prefix of Dir: shorten it in place (assigning Dir a
    // view of its own bytes is what SmallVector refuses).
    size_t Parent = llvm::sys::path::parent_path(Dir).size();
    if (Parent == 0 || Parent == Dir.size())
      break;
    Dir.resize(Parent);
  }
  return std::nullopt;
}

namespace {

/// What a module's own statements, those that start in its first column,
/// do that a review asks about (not those in a `try`, a function or a
/// triple-quoted string: tokenize() reads strings whole).
struct TopFacts {
  bool ImportsTriton = false;
  bool LoadsExtension = false;
  /// What each `from MODULE import NAME [as BOUND]` binds: BOUND -> (the
  /// leading dots and MODULE, NAME).
  llvm::StringMap<std::pair<std::string, std::string>> From;
};

/// A compiled extension's module name: `_C` (`from detectron2 import _C`,
/// `import groundingdino._C`) or `_ext` (`from . import _ext`), or, a
/// module's (not Imported, a name that a `from` imports, maybe a
/// function's: OLMo's `gc_cuda`, axolotl's `from . import load_ext`), one
/// ending in `_ext` or named for CUDA (`from ._ext import ...`, `import
/// fused_act_ext`, `import deform_conv_cuda`).
bool extensionName(llvm::StringRef Name, bool Imported = false) {
  return Name == "_C" || Name == "_ext" ||
         (!Imported && (Name.endswith("_ext") || Name.endswith("_cuda")));
}

TopFacts readTop(llvm::StringRef T) {
  TopFacts F;
  std::vector<Token> Toks = tokenize(T);
  auto Word = [&](size_t I) {
    return I < Toks.size() ? T.slice(Toks[I].Begin, Toks[I].End) : llvm::StringRef();
  };
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (!(Toks[I].Begin == 0 || T[Toks[I].Begin - 1] == '\n'))
      continue;
    // The statement: to the first newline outside brackets.
    size_t E = I;
    for (int Depth = 0; E < Toks.size(); ++E) {
      llvm::StringRef W = Word(E);
      if (W == "(" || W == "[" || W == "{")
        ++Depth;
      else if ((W == ")" || W == "]" || W == "}") && Depth > 0)
        --Depth;
      if (E > I && Depth == 0 && T.slice(Toks[E - 1].End, Toks[E].Begin).contains('\n'))
        break;
    }
    llvm::StringRef First = Word(I);
    if (First == "import" || First == "from") {
      // The module: its leading dots and dotted name.
      size_t J = I + 1;
      std::string Module; // of a `from`
      for (; First == "from" && J < E && Word(J) != "import"; ++J)
        Module += Word(J).str();
      llvm::StringRef M = llvm::StringRef(Module).ltrim('.');
      bool Torch = M == "torch" || M.startswith("torch.");
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      if (First == "import") {
        // `import a.b as c, d`: every module named.
        for (size_t K = I + 1; K < E; ++K)
          if (Word(K) != "." && Word(K) != "," && Word(K) != "as")
            Parts.push_back(Word(K));
        Torch = Word(I + 1) == "torch";
      } else {
        M.split(Parts, '.');
      }
      F.ImportsTriton |= !Parts.empty() && Parts.front() == "triton" &&
                         (First == "import" || (!Module.empty() && Module.front() != '.'));
      if (!Torch) {
        for (llvm::StringRef P : Parts)
          F.LoadsExtension |= extensionName(P);
        if (First == "from")
          for (size_t K = J + 1; K < E; ++K) {
            llvm::StringRef W = Word(K);
            if (W == "(" || W == ")" || W == "," || W == "*")
              continue;
            F.LoadsExtension |= extensionName(W, /*Imported=*/true);
            llvm::StringRef Bound = W;
            if (Word(K + 1) == "as" && K + 2 < E) {
              Bound = Word(K + 2);
              K += 2;
            }
            F.From[Bound] = {Module, W.str()};
          }
      }
    } else if (First != "def" && First != "class" && First != "async" && First != "@") {
      // `ext_module = ext_loader.load_ext('_ext', [...])` (mmcv),
      // `torch.ops.load_library(...)`, `cpp_extension.load(...)`; not a
      // definition so named (axolotl's lazy `def load_ext():`).
      for (size_t K = I; K + 1 < E && !F.LoadsExtension; ++K) {
        llvm::StringRef W = Word(K);
        F.LoadsExtension =
            Word(K + 1) == "(" &&
            (W == "load_ext" || W == "load_library" || W == "load_inline" ||
             (W == "load" && K >= 2 && Word(K - 1) == "." && Word(K - 2) == "cpp_extension"));
      }
    }
    I = E - 1;
  }
  return F;
}

/// readTop() of the file at Path, once a process for each path, size and
/// modification time (the first 4 MiB); null where it cannot be read.
std::shared_ptr<const TopFacts> topFacts(const std::string &Path) {
  llvm::Expected<FileStamp> Stamp = statFile(Path);
  if (!Stamp) {
    llvm::consumeError(Stamp.takeError());
    return nullptr;
  }
  static std::mutex Lock;
  static llvm::StringMap<std::pair<FileStamp, std::shared_ptr<const TopFacts>>> Known;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Known.find(Path);
    if (It != Known.end() && It->second.first == *Stamp)
      return It->second.second;
  }
  std::shared_ptr<const TopFacts> F;
  llvm::Expected<std::string> Text = readRegularFile(Path, MaxConfigFileBytes);
  if (!Text)
    llvm::consumeError(Text.takeError());
  else
    F = std::make_shared<const TopFacts>(readTop(*Text));
  std::lock_guard<std::mutex> G(Lock);
  Known[Path] = {*Stamp, F};
  return F;
}

} // namespace

bool importsTritonAtTop(const std::string &Path) {
  std::shared_ptr<const TopFacts> F = topFacts(Path);
  return F && F->ImportsTriton;
}

std::optional<std::string> extensionModuleOf(llvm::StringRef FromPath, llvm::StringRef Module,
                                             unsigned Level, llvm::StringRef Name) {
  if (Level == 0 && (Module == "torch" || Module.startswith("torch.")))
    return std::nullopt;
  std::optional<std::string> P = projectModulePath(FromPath, Module, Level);
  if (!P)
    return std::nullopt;
  std::shared_ptr<const TopFacts> F = topFacts(*P);
  if (!F)
    return std::nullopt;
  if (F->LoadsExtension)
    return P;
  // A package that re-exports it: `from .focal_loss import
  // softmax_focal_loss` in mmcv/ops/__init__.py.
  if (Name.empty() || llvm::sys::path::filename(*P) != "__init__.py")
    return std::nullopt;
  auto It = F->From.find(Name);
  if (It == F->From.end())
    return std::nullopt;
  llvm::StringRef From = It->second.first;
  unsigned Dots = static_cast<unsigned>(From.size() - From.ltrim('.').size());
  if (Dots == 0)
    return std::nullopt; // another package's: read where it is imported
  std::optional<std::string> Q = projectModulePath(*P, From.ltrim('.'), Dots);
  if (!Q)
    return std::nullopt;
  std::shared_ptr<const TopFacts> G = topFacts(*Q);
  return G && G->LoadsExtension ? Q : std::nullopt;
}

namespace {

/// The absolute path of P, its dots removed: how projectModulePath() spells it.
std::string canonicalPath(llvm::StringRef P) {
  llvm::SmallString<256> Out(P);
  llvm::sys::fs::make_absolute(Out);
  llvm::sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  return std::string(Out);
}

/// The `torch.cuda` functions that a project's tests replace, by the module
/// of the project that each test imports.
struct DoubleIndex {
  llvm::StringMap<llvm::StringMap<CudaDouble>> ByModule;
};

bool testFileName(llvm::StringRef Name) {
  return (Name.startswith("test") && Name.endswith(".py")) || Name.endswith("_test.py") ||
         Name == "conftest.py";
}

bool skippedDirectory(llvm::StringRef Name) {
  return Name.startswith(".") || Name == "node_modules" || Name == "__pycache__" ||
         Name == "site-packages" || Name == "venv";
}

/// Whether T may replace a `torch.cuda` function, as readTest() reads one:
/// a `torch.cuda` that is the first argument of `setattr(`, `object(` or
/// `patch(` (`setattr(torch.cuda, ...`, `patch.object(torch.cuda, ...`), or
/// a string's start there (`patch("torch.cuda.X")`), with blanks and line
/// breaks between (black's `monkeypatch.setattr(\n    torch.cuda, ...`), or
/// followed by `.NAME =` (an assignment). A search of the text, so that a
/// test that merely calls torch.cuda (PyTorch's: `f(torch.cuda.x())`) is
/// not tokenized.
bool mayReplaceTorchCuda(llvm::StringRef T) {
  constexpr llvm::StringLiteral Blanks = " \t\r\n";
  for (size_t At = findWord(T, "torch.cuda"); At != llvm::StringRef::npos;
       At = findWord(T, "torch.cuda", At + 10)) {
    llvm::StringRef Before = T.take_front(At).rtrim(Blanks);
    if (!Before.empty() && (Before.back() == '"' || Before.back() == '\''))
      Before = Before.drop_back().rtrim(Blanks);
    if (Before.consume_back("(")) {
      Before = Before.rtrim(Blanks);
      size_t Name = Before.size();
      while (Name > 0 && (llvm::isAlnum(Before[Name - 1]) || Before[Name - 1] == '_'))
        --Name;
      llvm::StringRef Callee = Before.drop_front(Name);
      if (Callee == "setattr" || Callee == "object" || Callee == "patch")
        return true;
      continue;
    }
    llvm::StringRef After = T.drop_front(At + 10);
    if (!After.consume_front("."))
      continue;
    After = After.drop_while([](char C) { return llvm::isAlnum(C) || C == '_'; }).ltrim(" \t");
    if (After.startswith("=") && !After.startswith("=="))
      return true;
  }
  return false;
}

/// The doubles of `torch.cuda` functions in the test at Path, whose text is
/// T, and the modules of the project that it imports, into X.
void readTest(const std::string &Path, llvm::StringRef ProjectDir, llvm::StringRef T,
              DoubleIndex &X) {
  std::vector<Token> Toks = tokenize(T);
  auto Word = [&](size_t I) {
    return I < Toks.size() ? T.slice(Toks[I].Begin, Toks[I].End) : llvm::StringRef();
  };
  auto LineStart = [&](size_t I) {
    size_t B = Toks[I].Begin;
    size_t NL = T.rfind('\n', B);
    llvm::StringRef Before = T.slice(NL == llvm::StringRef::npos ? 0 : NL + 1, B);
    return Before.find_first_not_of(" \t") == llvm::StringRef::npos;
  };
  auto LineOf = [&](size_t I) {
    return static_cast<unsigned>(T.take_front(Toks[I].Begin).count('\n') + 1);
  };
  // A string token's value: its quotes (and prefix) off.
  auto Unquoted = [](llvm::StringRef S) {
    S = S.ltrim("rRbBuU");
    if (S.size() >= 2 && (S.front() == '"' || S.front() == '\''))
      return S.drop_front().drop_back();
    return llvm::StringRef();
  };
  auto IsIdentifier = [](llvm::StringRef S) {
    return !S.empty() && (llvm::isAlpha(S.front()) || S.front() == '_') &&
           llvm::all_of(S, [](char C) { return llvm::isAlnum(C) || C == '_'; });
  };
  // `torch . cuda` at I.
  auto TorchCuda = [&](size_t I) {
    return Word(I) == "torch" && Word(I + 1) == "." && Word(I + 2) == "cuda";
  };
  std::vector<std::pair<std::string, unsigned>> Doubles; // name, line
  // What an import names: a module (dotted, with its leading dots) and the
  // names that a `from` imports of it, which may be its submodules.
  struct Imported {
    std::string Module;
    unsigned Level = 0;
    std::vector<std::string> Names;
  };
  std::vector<Imported> Modules;
  for (size_t I = 0; I < Toks.size(); ++I) {
    llvm::StringRef W = Word(I);
    // setattr(torch.cuda, "NAME", ...), patch.object(torch.cuda, "NAME", ...)
    if ((W == "setattr" ||
         (W == "object" && I > 1 && Word(I - 1) == "." && Word(I - 2) == "patch")) &&
        Word(I + 1) == "(" && TorchCuda(I + 2) && Word(I + 5) == ",") {
      llvm::StringRef Name = Unquoted(Word(I + 6));
      if (IsIdentifier(Name))
        Doubles.push_back({Name.str(), LineOf(I)});
      continue;
    }
    // patch("torch.cuda.NAME", ...)
    if (W == "patch" && Word(I + 1) == "(" && I + 2 < Toks.size()) {
      llvm::StringRef V = Unquoted(Word(I + 2));
      if (V.consume_front("torch.cuda.")) {
        llvm::StringRef Name = V.take_until([](char C) { return C == '.'; });
        if (IsIdentifier(Name))
          Doubles.push_back({Name.str(), LineOf(I)});
      }
      continue;
    }
    // torch.cuda.NAME = ... (a statement of its own)
    if (TorchCuda(I) && LineStart(I) && Word(I + 3) == "." && IsIdentifier(Word(I + 4)) &&
        Word(I + 5) == "=" && Word(I + 6) != "=") {
      Doubles.push_back({Word(I + 4).str(), LineOf(I)});
      continue;
    }
    if ((W != "import" && W != "from") || !LineStart(I))
      continue;
    // A dotted name from J: its text and the index after it.
    auto Dotted = [&](size_t J, std::string &Out) {
      Out.clear();
      while (IsIdentifier(Word(J))) {
        Out += Word(J).str();
        if (Word(J + 1) != "." || !IsIdentifier(Word(J + 2)))
          return J + 1;
        Out += ".";
        J += 2;
      }
      return J;
    };
    std::string M;
    if (W == "import") {
      size_t J = I + 1;
      while (true) {
        J = Dotted(J, M);
        if (M.empty())
          break;
        Modules.push_back({M, 0, {}});
        if (Word(J) == "as")
          J += 2;
        if (Word(J) != ",")
          break;
        ++J;
      }
      continue;
    }
    size_t J = I + 1;
    unsigned Level = 0;
    for (; Word(J) == "."; ++J)
      ++Level;
    J = Dotted(J, M);
    if (Word(J) != "import" || (M.empty() && Level == 0))
      continue;
    Modules.push_back({M, Level, {}});
    // `from pkg import engine`: a submodule too.
    ++J;
    bool Paren = Word(J) == "(";
    if (Paren)
      ++J;
    for (; IsIdentifier(Word(J));) {
      Modules.back().Names.push_back(Word(J).str());
      if (Word(J + 1) == "as")
        J += 2;
      if (Word(J + 1) != ",")
        break;
      J += 2;
      if (!Paren && J < Toks.size() && LineStart(J))
        break;
    }
  }
  if (Doubles.empty())
    return;
  llvm::StringRef Rel = llvm::StringRef(Path);
  if (Rel.consume_front(ProjectDir))
    Rel = Rel.ltrim("/");
  auto Add = [&](const std::string &P) {
    llvm::StringMap<CudaDouble> &Of = X.ByModule[P];
    for (const auto &[Name, Line] : Doubles)
      Of.try_emplace(Name, CudaDouble{Rel.str(), Line});
  };
  for (const Imported &I : Modules) {
    // `from . import engine` names the package itself: only its submodules.
    std::optional<std::string> P = I.Module.empty() && I.Level > 0
                                       ? moduleIn(llvm::sys::path::parent_path(Path), "")
                                       : projectModulePath(Path, I.Module, I.Level);
    if (!P)
      continue;
    if (!I.Module.empty())
      Add(*P);
    // A package's names may be its submodules, found beside its __init__.py
    // (a module's names are not).
    if (llvm::sys::path::filename(*P) != "__init__.py")
      continue;
    llvm::StringRef Package = llvm::sys::path::parent_path(*P);
    for (const std::string &Name : I.Names)
      if (std::optional<std::string> Sub = moduleIn(Package, Name))
        Add(*Sub);
  }
}

std::shared_ptr<const DoubleIndex> readDoubles(const std::string &ProjectDir) {
  // The tests, in order: the first that replaces a function is the one
  // named, whatever order the directories list them in.
  std::vector<std::string> Tests;
  std::error_code EC;
  size_t Entries = 0;
  for (llvm::sys::fs::recursive_directory_iterator It(ProjectDir, EC, /*follow_symlinks=*/false),
       End;
       It != End && !EC && Entries < 100000; It.increment(EC), ++Entries) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (It->type() == llvm::sys::fs::file_type::directory_file) {
      if (skippedDirectory(Name))
        It.no_push();
      continue;
    }
    if (testFileName(Name))
      Tests.push_back(canonicalPath(It->path()));
  }
  std::sort(Tests.begin(), Tests.end());
  // Read on a few threads (a project's tests are megabytes: PyTorch's 1,021
  // are 29 MB), each file's doubles into its own index, merged in order.
  std::vector<DoubleIndex> Of(Tests.size());
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t I = Next++; I < Tests.size(); I = Next++) {
      llvm::Expected<std::string> Text = readRegularFile(Tests[I], MaxConfigFileBytes);
      if (!Text) {
        llvm::consumeError(Text.takeError());
        continue;
      }
      if (mayReplaceTorchCuda(*Text))
        readTest(Tests[I], ProjectDir, *Text, Of[I]);
    }
  };
  unsigned Threads = std::min<unsigned>(std::max(1u, std::thread::hardware_concurrency()), 4);
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads && T < Tests.size(); ++T)
    Pool.emplace_back(Work);
  Work();
  for (std::thread &T : Pool)
    T.join();
  auto X = std::make_shared<DoubleIndex>();
  for (DoubleIndex &F : Of)
    for (auto &M : F.ByModule)
      for (auto &D : M.second)
        X->ByModule[M.first()].try_emplace(D.first(), D.second);
  return X;
}

/// The directory whose tests testDoubleOf() reads for a module in Dir.
std::string testedProjectDir(llvm::StringRef Dir) {
  // The outermost project: Megatron-LM's megatron/core has packaging files
  // of its own, and the tests are the repository's.
  std::string Project = findProjectDir(Dir);
  if (!Project.empty())
    for (std::string Up = projectDirAbove(Project); !Up.empty(); Up = projectDirAbove(Project))
      Project = std::move(Up);
  return Project; // "" where no project holds the module: no tests are read
}

/// What testDoubleOf() read, for the process (and until forgetProjectFile()).
struct DoubleCache {
  std::mutex Lock;
  llvm::StringMap<std::string> ProjectOf; // a module's directory -> its project's
  llvm::StringMap<std::shared_ptr<const DoubleIndex>> Known;
};

DoubleCache &doubleCache() {
  static DoubleCache C;
  return C;
}

} // namespace

std::optional<CudaDouble> testDoubleOf(llvm::StringRef ModulePath, llvm::StringRef Name) {
  std::string Module = canonicalPath(ModulePath);
  llvm::StringRef Dir = llvm::sys::path::parent_path(Module);
  DoubleCache &C = doubleCache();
  std::shared_ptr<const DoubleIndex> X;
  {
    std::lock_guard<std::mutex> G(C.Lock);
    auto P = C.ProjectOf.find(Dir);
    if (P == C.ProjectOf.end())
      P = C.ProjectOf.try_emplace(Dir, testedProjectDir(Dir)).first;
    const std::string &Project = P->second;
    if (Project.empty())
      return std::nullopt;
    auto It = C.Known.find(Project);
    if (It == C.Known.end())
      It = C.Known.try_emplace(Project, readDoubles(Project)).first;
    X = It->second;
  }
  auto M = X->ByModule.find(Module);
  if (M == X->ByModule.end())
    return std::nullopt;
  auto D = M->second.find(Name);
  if (D == M->second.end())
    return std::nullopt;
  return D->second;
}

bool forgetProjectFile(llvm::StringRef Path) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  bool Packaging = isPackagingFileName(Name);
  if (!Packaging && !testFileName(Name))
    return false;
  std::string File = canonicalPath(Path);
  DoubleCache &C = doubleCache();
  std::lock_guard<std::mutex> G(C.Lock);
  if (Packaging) {
    // Which directory is a module's project may have changed.
    bool Had = !C.ProjectOf.empty();
    C.ProjectOf.clear();
    C.Known.clear();
    return Had;
  }
  bool Dropped = false;
  for (auto It = C.Known.begin(); It != C.Known.end();) {
    auto Here = It++;
    if (llvm::StringRef(File).startswith((Here->first() + "/").str())) {
      C.Known.erase(Here);
      Dropped = true;
    }
  }
  return Dropped;
}

} // namespace devport::python
