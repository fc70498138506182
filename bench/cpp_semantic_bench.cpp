//===--- cpp_semantic_bench.cpp - Time the semantic C++ backend per TU ----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// devport-cpp-semantic-bench DIR FILE...: runs runSemantic() with a few
/// realistic rules over each FILE, with its command from
/// DIR/compile_commands.json, and prints the wall time, the matches and
/// whether Clang parsed it; then runs all files again on every hardware
/// thread and prints the total. Built with -DDEVPORT_BENCH=ON; run by
/// bench/cpp_semantic.sh.
///
//===----------------------------------------------------------------------===//

#include "matchers/cpp/Semantic.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace devport;

namespace {

const char *const RuleFiles[][2] = {
    {"cuda-constant", R"(declRefExpr(to(varDecl(hasName("::c10::kCUDA")))))"},
    {"cuda-enumerator", R"(declRefExpr(to(enumConstantDecl(hasName("::c10::DeviceType::CUDA")))))"},
    {"tensor-is-cuda",
     R"(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("is_cuda"), )"
     R"(anyOf(ofClass(hasName("::at::TensorBase")), ofClass(hasName("::c10::Device")))))))"},
    {"torch-cuda-call", R"(callExpr(callee(functionDecl(matchesName("^::torch::cuda::")))))"},
    {"at-cuda-call", R"(callExpr(callee(functionDecl(matchesName("^::(at|c10)::cuda::")))))"},
};

double since(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    llvm::errs() << "usage: devport-cpp-semantic-bench DIR FILE...\n";
    return 2;
  }
  RuleSet Rules;
  for (const auto &RF : RuleFiles) {
    std::string Yaml = std::string("id: ") + RF[0] +
                       "\nlanguage: cpp\ncategory: device-choice\nseverity: warning\nmessage: m\n"
                       "pattern: c10::kCUDA\nmatcher: '" +
                       RF[1] + "'\n";
    auto One = RuleSet::loadBuffer(std::string(RF[0]) + ".yaml", Yaml);
    if (!One || Rules.merge(std::move(*One))) {
      llvm::errs() << "bad bench rule " << RF[0] << "\n";
      return 1;
    }
  }
  std::vector<const Rule *> Ptrs;
  for (const auto &R : Rules.rules())
    Ptrs.push_back(R.get());
  auto M = cpp::SemanticMatchers::compile(Ptrs);
  if (!M) {
    llvm::errs() << llvm::toString(M.takeError()) << "\n";
    return 1;
  }
  auto DB = cpp::CompileCommands::fromDirectory(argv[1]);
  if (!DB) {
    llvm::errs() << llvm::toString(DB.takeError()) << "\n";
    return 1;
  }

  struct Input {
    std::string Path, Text;
    cpp::CompileCommand Cmd;
  };
  std::vector<Input> Inputs;
  for (int I = 2; I < argc; ++I) {
    auto Buf = llvm::MemoryBuffer::getFile(argv[I]);
    std::optional<cpp::CompileCommand> Cmd = (*DB)->commandFor(argv[I]);
    if (!Buf || !Cmd) {
      llvm::errs() << argv[I] << ": cannot read it or no compile command\n";
      return 1;
    }
    Inputs.push_back({argv[I], (*Buf)->getBuffer().str(), *Cmd});
  }

  double Serial = 0;
  for (const Input &In : Inputs) {
    auto Start = std::chrono::steady_clock::now();
    cpp::SemanticResult R = cpp::runSemantic(**M, In.Cmd, In.Path, In.Text);
    double S = since(Start);
    Serial += S;
    llvm::outs() << llvm::format("%-40s %6.2f s  %2zu matches  ", In.Path.c_str(), S,
                                 R.Matches.size())
                 << (R.Compiled ? "parsed" : "not parsed: " + R.Error) << "\n";
    for (const cpp::SemanticMatch &Mt : R.Matches)
      llvm::outs() << "    " << Mt.R->Id << " `"
                   << llvm::StringRef(In.Text).slice(Mt.Range.Begin, Mt.Range.End) << "`"
                   << (Mt.InMacro ? " (in a macro)" : "") << "\n";
  }
  llvm::outs() << llvm::format("serial total %.2f s\n", Serial);

  unsigned Threads = std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  std::atomic<size_t> Next{0};
  auto Start = std::chrono::steady_clock::now();
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back([&] {
      for (size_t I; (I = Next++) < Inputs.size();)
        cpp::runSemantic(**M, Inputs[I].Cmd, Inputs[I].Path, Inputs[I].Text);
    });
  for (std::thread &T : Pool)
    T.join();
  llvm::outs() << llvm::format("parallel total %.2f s on %u threads\n", since(Start), Threads);
  return 0;
}
