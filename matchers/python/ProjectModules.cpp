//===--- ProjectModules.cpp - What the project's own modules import -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/ProjectModules.h"

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

/// The triple quote (`"""` or `'''`) that is still open after Line, given
/// the one open before it ("" for none): quotes in comments and in one-line
/// strings do not count.
llvm::StringRef tripleQuoteOpenAfter(llvm::StringRef Line, llvm::StringRef Open) {
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (C == '\\') {
      ++I; // an escaped character, in a string or a continuation
      continue;
    }
    if (!Open.empty()) {
      if (Line.substr(I).startswith(Open)) {
        I += 2;
        Open = "";
      }
      continue;
    }
    if (C == '#')
      break;
    if (C != '"' && C != '\'')
      continue;
    llvm::StringRef Triple = C == '"' ? "\"\"\"" : "'''";
    if (Line.substr(I).startswith(Triple)) {
      Open = Triple;
      I += 2;
      continue;
    }
    // A one-line string: up to its closing quote.
    for (++I; I < Line.size() && Line[I] != C; ++I)
      if (Line[I] == '\\')
        ++I;
  }
  return Open;
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
    auto Starts = [&](llvm::StringRef Line, llvm::StringRef Keyword) {
      if (!Line.consume_front(Keyword) || !Line.consume_front(" "))
        return false;
      Line = Line.ltrim(" \t");
      return Line.consume_front("triton") &&
             (Line.empty() || !(llvm::isAlnum(Line[0]) || Line[0] == '_'));
    };
    // The triple-quoted string that the previous lines opened (a
    // docstring's `import triton` at column 0 is prose), or "".
    llvm::StringRef Open;
    for (llvm::StringRef Rest = *Text; !Rest.empty() && !Imports;) {
      auto [Line, After] = Rest.split('\n');
      Rest = After;
      if (Open.empty())
        Imports = Starts(Line, "import") || Starts(Line, "from");
      Open = tripleQuoteOpenAfter(Line, Open);
    }
  }
  std::lock_guard<std::mutex> G(Lock);
  Known[Path] = {*Stamp, Imports};
  return Imports;
}

} // namespace devport::python
