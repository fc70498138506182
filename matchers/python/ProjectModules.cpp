//===--- ProjectModules.cpp - What the project's own modules import -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/ProjectModules.h"
#include "matchers/python/Tokenizer.h"

#include "core/SourceFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <mutex>
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

bool importsTritonAtTop(const std::string &Path) {
  llvm::Expected<FileStamp> Stamp = statFile(Path);
  if (!Stamp) {
    llvm::consumeError(Stamp.takeError());
    return false;
  }
  static std::mutex Lock;
  static llvm::StringMap<std::pair<FileStamp, bool>> Known;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Known.find(Path);
    if (It != Known.end() && It->second.first == *Stamp)
      return It->second.second;
  }
  bool Imports = false;
  llvm::Expected<std::string> Text = readRegularFile(Path, MaxConfigFileBytes);
  if (!Text) {
    llvm::consumeError(Text.takeError());
  } else {
    // `import triton...` or `from triton...` at the start of a line, as
    // tokens (tokenize() reads strings whole: a docstring's `import triton`
    // at column 0 is prose).
    llvm::StringRef T = *Text;
    std::vector<Token> Toks = tokenize(T);
    auto Word = [&](const Token &X) { return T.slice(X.Begin, X.End); };
    for (size_t I = 0; I + 1 < Toks.size() && !Imports; ++I)
      Imports = (Toks[I].Begin == 0 || T[Toks[I].Begin - 1] == '\n') &&
                (Word(Toks[I]) == "import" || Word(Toks[I]) == "from") &&
                Word(Toks[I + 1]) == "triton";
  }
  std::lock_guard<std::mutex> G(Lock);
  Known[Path] = {*Stamp, Imports};
  return Imports;
}

} // namespace devport::python
