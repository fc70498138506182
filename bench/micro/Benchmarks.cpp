//===--- Benchmarks.cpp - Micro-benchmarks of devport's hot paths ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// devport-micro-bench: Google Benchmark timings of the steps that issue 11's
/// targets depend on, each on the embedded rule database: the literal scan
/// and the prefilter per MiB, check (parse + match) per MiB of Python, loading
/// and compiling the rules, fix application, and the LSP server's update of a
/// 5,000-line file after a keystroke. Inputs come from bench/micro/Inputs.h
/// (generated, or DEVPORT_BENCH_PYTHON). Built with -DDEVPORT_BENCH=ON; CTest's
/// bench.micro-smoke runs every benchmark once. docs/benchmarks.md has the
/// table of what each one times.
///
//===----------------------------------------------------------------------===//

#include "bench/micro/Inputs.h"

#include "core/LiteralSet.h"
#include "core/SourceFile.h"
#include "engine/Backends.h"
#include "engine/Engine.h"
#include "engine/Project.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace devport;
using namespace devport::bench;

namespace {

template <typename T> T orExit(llvm::Expected<T> V) {
  if (!V) {
    llvm::errs() << "devport-micro-bench: " << llvm::toString(V.takeError()) << "\n";
    std::exit(2);
  }
  return std::move(*V);
}

const RuleSet &embeddedRules() {
  static const RuleSet Rules = orExit(loadEmbeddedRules());
  return Rules;
}

/// What `devport fix --unsafe-fixes` gives an engine (C++: lexical, no build).
EngineOptions engineOptions() {
  EngineOptions Opts;
  Opts.UnsafeFixes = true;
  Opts.Backends = orExit(loadBackendTable());
  Opts.Build.Semantic = false;
  return Opts;
}

const Engine &engine() {
  static const std::unique_ptr<Engine> E = orExit(Engine::create(embeddedRules(), engineOptions()));
  return *E;
}

const LanguageBackend &backend(llvm::StringRef Language) {
  for (const LanguageBackend *B : defaultBackends())
    if (B->language() == Language)
      return *B;
  llvm::errs() << "devport-micro-bench: no backend for " << Language << "\n";
  std::exit(2);
}

/// The names in Language's rule patterns (3 characters or more, not
/// metavariables): the kind of words the prefilters look for.
std::vector<std::string> patternWords(llvm::StringRef Language) {
  std::vector<std::string> Words;
  for (const auto &R : embeddedRules().rules()) {
    if (R->Language != Language)
      continue;
    for (const RulePattern &P : R->Patterns) {
      llvm::StringRef T = P.Text;
      for (size_t At = 0; At < T.size();) {
        if (!llvm::isAlpha(T[At]) && T[At] != '_') {
          ++At;
          continue;
        }
        size_t End = At;
        while (End < T.size() && (llvm::isAlnum(T[End]) || T[End] == '_'))
          ++End;
        std::string Word = T.slice(At, End).str();
        if (Word.size() >= 3 && (At == 0 || T[At - 1] != '$') && !llvm::is_contained(Words, Word))
          Words.push_back(Word);
        At = End;
      }
    }
  }
  return Words;
}

/// "64 KiB", "1.0 MiB": the size of a generated input, in a benchmark's name.
std::string sizeName(size_t Bytes) {
  if (Bytes < (1 << 20))
    return llvm::formatv("{0} KiB", (Bytes + 512) >> 10).str();
  return llvm::formatv("{0:f1} MiB", static_cast<double>(Bytes) / (1 << 20)).str();
}

void setBytes(benchmark::State &State, size_t Bytes) {
  State.SetBytesProcessed(static_cast<int64_t>(State.iterations()) * static_cast<int64_t>(Bytes));
}

// --- the benchmarks; Text outlives every run (the inputs below are static).

void literalScan(benchmark::State &State, const std::string *Text) {
  LiteralSet Words;
  for (const std::string &W : patternWords("python"))
    Words.add(W);
  Words.freeze();
  unsigned Found = 0;
  for (auto _ : State) {
    std::vector<bool> F = Words.scan(*Text);
    Found = static_cast<unsigned>(llvm::count(F, true));
    benchmark::DoNotOptimize(F);
  }
  setBytes(State, Text->size());
  State.counters["words"] = Words.size();
  State.counters["found"] = Found;
}

void prefilter(benchmark::State &State, llvm::StringRef Language, const std::string *Text) {
  BackendOptions Build;
  Build.Semantic = false;
  std::unique_ptr<CompiledRules> C = orExit(backend(Language).compile(embeddedRules(), Build));
  for (auto _ : State)
    benchmark::DoNotOptimize(C->mayMatch(*Text));
  setBytes(State, Text->size());
}

void checkFile(benchmark::State &State, const std::string *Text) {
  SourceFile F("bench.py", *Text);
  size_t Findings = 0;
  for (auto _ : State) {
    std::vector<Diagnostic> D = engine().check(F);
    Findings = D.size();
  }
  setBytes(State, Text->size());
  State.counters["findings"] = static_cast<double>(Findings);
}

void loadRules(benchmark::State &State) {
  size_t N = 0;
  for (auto _ : State)
    N = orExit(loadEmbeddedRules()).size();
  State.counters["rules"] = static_cast<double>(N);
}

void compileRules(benchmark::State &State, llvm::StringRef Language) {
  const LanguageBackend &B = backend(Language);
  BackendOptions Build;
  Build.Semantic = false;
  for (auto _ : State)
    benchmark::DoNotOptimize(orExit(B.compile(embeddedRules(), Build)));
  State.counters["rules"] = static_cast<double>(llvm::count_if(
      embeddedRules().rules(), [&](const auto &R) { return R->Language == Language; }));
}

void createEngine(benchmark::State &State) {
  EngineOptions Opts = engineOptions();
  for (auto _ : State)
    benchmark::DoNotOptimize(orExit(Engine::create(embeddedRules(), Opts)));
}

void fixFile(benchmark::State &State, const std::string *Text) {
  SourceFile F("bench.py", *Text);
  FixOutcome O;
  for (auto _ : State)
    O = engine().fix(F);
  setBytes(State, Text->size());
  State.counters["applied"] = O.Applied;
  State.counters["rounds"] = O.Rounds;
}

/// As lsp/Server.cpp analyses a document: checkIncremental with the previous
/// version's parse and the edit between the two texts. The document
/// alternates between Text and Text with `_` inserted in its middle line, so
/// every iteration is one keystroke (or its undo). FromScratch: no previous
/// parse, for comparison.
void lspUpdate(benchmark::State &State, const std::string *Text, bool FromScratch) {
  size_t At = middleEditOffset(*Text);
  std::string Texts[2] = {*Text, *Text};
  Texts[1].insert(At, "_");
  const uint32_t Off = static_cast<uint32_t>(At);
  const Edit To[2] = {Edit::deletion({Off, Off + 1}), Edit::insertion(Off, "_")};
  std::unique_ptr<SourceFile> Files[2];
  std::unique_ptr<ParsedFile> Parsed[2];
  Files[0] = std::make_unique<SourceFile>("bench.py", Texts[0]);
  engine().checkIncremental(*Files[0], nullptr, {}, Parsed[0]);
  unsigned Cur = 0;
  size_t Findings = 0;
  for (auto _ : State) {
    unsigned Next = 1 - Cur;
    Parsed[Next].reset(); // it refers to the text that Files[Next] is about to drop
    Files[Next] = std::make_unique<SourceFile>("bench.py", Texts[Next]);
    CheckResult R = FromScratch ? engine().checkIncremental(*Files[Next], nullptr, {}, Parsed[Next])
                                : engine().checkIncremental(*Files[Next], Parsed[Cur].get(),
                                                            To[Next], Parsed[Next]);
    Findings = R.Findings.size();
    Cur = Next;
  }
  State.counters["lines"] = static_cast<double>(llvm::count(*Text, '\n'));
  State.counters["findings"] = static_cast<double>(Findings);
}

/// The inputs: static, so that the registered benchmarks may point at them.
struct Inputs {
  std::string Label;      ///< "generated" or the file's name.
  std::string ScanText;   ///< Literal scan and Python prefilter.
  std::string CheckSmall; ///< check, a module-sized file.
  std::string CheckLarge; ///< check, per MiB.
  std::string FixText;    ///< fix: a finding in every method.
  std::string LspText;    ///< The 5,000-line document.
  std::string CppText;    ///< C++ prefilter.
};

void registerAll(const Inputs &In) {
  using benchmark::RegisterBenchmark;
  auto Named = [&](const char *Name, const std::string &Text) {
    return std::string(Name) + "/" + (In.Label == "generated" ? sizeName(Text.size()) : In.Label);
  };
  RegisterBenchmark(Named("BM_LiteralScan", In.ScanText).c_str(), literalScan, &In.ScanText)
      ->Unit(benchmark::kMicrosecond);
  RegisterBenchmark(Named("BM_Prefilter/python", In.ScanText).c_str(), prefilter, "python",
                    &In.ScanText)
      ->Unit(benchmark::kMicrosecond);
  RegisterBenchmark(("BM_Prefilter/cpp/" + sizeName(In.CppText.size())).c_str(), prefilter, "cpp",
                    &In.CppText)
      ->Unit(benchmark::kMicrosecond);
  RegisterBenchmark(Named("BM_CheckPython", In.CheckSmall).c_str(), checkFile, &In.CheckSmall)
      ->Unit(benchmark::kMillisecond);
  if (In.Label == "generated")
    RegisterBenchmark(Named("BM_CheckPython", In.CheckLarge).c_str(), checkFile, &In.CheckLarge)
        ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("BM_LoadRules", loadRules)->Unit(benchmark::kMillisecond);
  RegisterBenchmark("BM_CompileRules/python", compileRules, "python")
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("BM_CompileRules/cpp", compileRules, "cpp")->Unit(benchmark::kMillisecond);
  RegisterBenchmark("BM_CreateEngine", createEngine)->Unit(benchmark::kMillisecond);
  RegisterBenchmark(Named("BM_Fix", In.FixText).c_str(), fixFile, &In.FixText)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark(Named("BM_LspUpdate/incremental", In.LspText).c_str(), lspUpdate, &In.LspText,
                    false)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark(Named("BM_LspUpdate/from-scratch", In.LspText).c_str(), lspUpdate,
                    &In.LspText, true)
      ->Unit(benchmark::kMillisecond);
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  static Inputs In;
  if (std::optional<std::string> File = pythonFromEnvironment()) {
    In.Label = llvm::sys::path::filename(std::getenv("DEVPORT_BENCH_PYTHON")).str();
    In.ScanText = In.CheckSmall = In.FixText = In.LspText = *File;
  } else {
    In.Label = "generated";
    In.ScanText = generatePython(1 << 20, 10);
    In.CheckSmall = generatePython(64 << 10, 10);
    In.CheckLarge = generatePython(1 << 20, 10);
    In.FixText = generatePython(64 << 10, 1);
    In.LspText = generatePythonLines(5000, 10);
  }
  In.CppText = generateCpp(1 << 20, 10);
  registerAll(In);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
