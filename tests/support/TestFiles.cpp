//===--- TestFiles.cpp - Temporary directories for tests ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tests/support/TestFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

namespace devport::test {

TempDir::TempDir() {
  llvm::SmallString<128> P;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("devport-test", P)) {
    ADD_FAILURE() << "cannot create a temporary directory: " << EC.message();
    return;
  }
  // /tmp may be a symlink (macOS); tests compare paths with what the code
  // under test computes from real paths.
  llvm::SmallString<128> Real;
  Root = llvm::sys::fs::real_path(P, Real) ? std::string(P.str()) : std::string(Real.str());
}

TempDir::~TempDir() {
  if (Root.empty())
    return;
  if (std::error_code EC = llvm::sys::fs::remove_directories(Root, /*IgnoreErrors=*/false))
    ADD_FAILURE() << Root << ": cannot remove the temporary directory: " << EC.message();
}

std::string TempDir::path(llvm::StringRef Rel) const {
  if (Rel.empty())
    return Root;
  return Root + "/" + Rel.str();
}

void TempDir::mkdir(llvm::StringRef Rel) const {
  if (std::error_code EC = llvm::sys::fs::create_directories(path(Rel)))
    ADD_FAILURE() << Rel.str() << ": cannot create directory: " << EC.message();
}

void TempDir::write(llvm::StringRef Rel, llvm::StringRef Content) const {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Rel, llvm::sys::path::Style::posix);
  if (!Parent.empty())
    mkdir(Parent);
  std::error_code EC;
  llvm::raw_fd_ostream OS(path(Rel), EC, llvm::sys::fs::OF_None);
  if (EC) {
    ADD_FAILURE() << Rel.str() << ": cannot write: " << EC.message();
    return;
  }
  OS << Content;
  OS.close();
  if (OS.has_error()) {
    ADD_FAILURE() << Rel.str() << ": cannot write: " << OS.error().message();
    OS.clear_error();
  }
}

std::string TempDir::read(llvm::StringRef Rel) const { return readFile(path(Rel)); }

void TempDir::symlink(llvm::StringRef Target, llvm::StringRef Rel) const {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Rel, llvm::sys::path::Style::posix);
  if (!Parent.empty())
    mkdir(Parent);
  if (std::error_code EC = llvm::sys::fs::create_link(Target, path(Rel)))
    ADD_FAILURE() << Rel.str() << ": cannot create symlink: " << EC.message();
}

std::string readFile(llvm::StringRef Path) {
  auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false);
  if (!B) {
    ADD_FAILURE() << Path.str() << ": cannot read: " << B.getError().message();
    return std::string();
  }
  return (*B)->getBuffer().str();
}

std::string pythonTable(llvm::StringRef Head, int N, llvm::function_ref<std::string(int)> Element,
                        llvm::StringRef Close) {
  std::string Out = Head.str() + "\n";
  for (int I = 0; I < N; ++I)
    Out += "    " + Element(I) + ",\n";
  return Out + Close.str() + "\n";
}

std::vector<std::pair<std::string, std::string>> pythonFixtureInputs() {
  std::vector<std::string> Paths;
  std::error_code EC;
  std::string Root = DEVPORT_SOURCE_DIR "/tests/rules";
  for (llvm::sys::fs::directory_iterator D(Root, EC), End; D != End && !EC; D.increment(EC)) {
    std::error_code EC2;
    for (llvm::sys::fs::directory_iterator F(D->path(), EC2); F != End && !EC2; F.increment(EC2)) {
      llvm::StringRef Name = llvm::sys::path::filename(F->path());
      if (Name.startswith("input") && Name.endswith(".py"))
        Paths.push_back(F->path());
    }
  }
  if (EC)
    ADD_FAILURE() << Root << ": " << EC.message();
  std::sort(Paths.begin(), Paths.end());
  std::vector<std::pair<std::string, std::string>> Out;
  for (const std::string &P : Paths)
    Out.push_back({P, readFile(P)});
  return Out;
}

std::optional<std::string> runAsNobody(const std::function<std::string()> &Fn) {
  if (::geteuid() != 0)
    return std::nullopt;
  int Pipe[2];
  if (::pipe(Pipe) != 0)
    return std::string("cannot create a pipe");
  pid_t Child = ::fork();
  if (Child < 0)
    return std::string("cannot fork");
  if (Child == 0) {
    ::close(Pipe[0]);
    std::string Out;
    if (::setgroups(0, nullptr) != 0 || ::setresgid(NobodyId, NobodyId, NobodyId) != 0 ||
        ::setresuid(NobodyId, NobodyId, NobodyId) != 0)
      Out = "cannot switch to uid " + std::to_string(NobodyId);
    else
      Out = Fn();
    size_t Done = 0;
    while (Done < Out.size()) {
      ssize_t N = ::write(Pipe[1], Out.data() + Done, Out.size() - Done);
      if (N <= 0)
        break;
      Done += static_cast<size_t>(N);
    }
    ::_exit(0);
  }
  ::close(Pipe[1]);
  std::string Out;
  char Buf[4096];
  for (ssize_t N; (N = ::read(Pipe[0], Buf, sizeof(Buf))) > 0;)
    Out.append(Buf, static_cast<size_t>(N));
  ::close(Pipe[0]);
  int Status = 0;
  ::waitpid(Child, &Status, 0);
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return "the child process as uid " + std::to_string(NobodyId) + " died (status " +
           std::to_string(Status) + "): " + Out;
  return Out;
}

} // namespace devport::test
