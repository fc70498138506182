//===--- YamlLoadersFuzzer.cpp - Rule files, configs, the backend table -----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One input = one YAML document, read by every loader that reads YAML a
/// repository can bring along: as a `.devport.yaml` (Config::parse, then its
/// names checked against the embedded rules), as a rule file
/// (RuleSet::loadBuffer; a rule file that loads is compiled into an Engine
/// and run, check and fix, over a small Python and a small C++ file) and as
/// a backend table (BackendTable::parse). Errors are expected; crashes,
/// sanitizer reports and hangs are not.
///
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzCheck.h"

#include "core/BackendTable.h"
#include "core/Config.h"
#include "core/Rule.h"
#include "engine/Engine.h"
#include "engine/Project.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace {

const devport::RuleSet &embeddedRules() {
  static const devport::RuleSet R = [] {
    auto Rules = devport::loadEmbeddedRules();
    FUZZ_CHECK(static_cast<bool>(Rules), "the embedded rules load");
    return std::move(*Rules);
  }();
  return R;
}

constexpr const char *PythonSample =
    "import torch\n"
    "x = torch.zeros(3, device='cuda')\n"
    "if torch.cuda.is_available():\n"
    "    torch.cuda.synchronize()\n"
    "y = x.cuda(0).to('cuda:1')  # devport: ignore[cuda-method]\n";

constexpr const char *CppSample =
    "#include <torch/torch.h>\n"
    "auto t = torch::zeros({3}, torch::kCUDA);\n"
    "c10::Device d(c10::DeviceType::CUDA, 0);\n"
    "void f() { at::cuda::getCurrentCUDAStream().synchronize(); }\n";

void runRules(devport::RuleSet Rules) {
  devport::EngineOptions O;
  O.UnsafeFixes = true;
  O.Build.Semantic = false;
  auto E = devport::Engine::create(std::move(Rules), O);
  if (!E) {
    llvm::consumeError(E.takeError());
    return;
  }
  for (auto [Path, Text] : {std::pair{"sample.py", PythonSample}, {"sample.cpp", CppSample}}) {
    devport::SourceFile F(Path, Text);
    (void)(*E)->checkAll(F);
    (void)(*E)->fix(F);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Yaml(reinterpret_cast<const char *>(Data), Size);

  if (auto C = devport::Config::parse("/nonexistent/fuzz/.devport.yaml", Yaml)) {
    if (llvm::Error E = C->checkNames(embeddedRules()))
      llvm::consumeError(std::move(E));
    (void)C->excludes("/nonexistent/fuzz/a/b.py");
    (void)C->ignoredFor("/nonexistent/fuzz/a/b.py");
  } else {
    llvm::consumeError(C.takeError());
  }

  if (auto R = devport::RuleSet::loadBuffer("", Yaml))
    runRules(std::move(*R));
  else
    llvm::consumeError(R.takeError());

  if (auto B = devport::BackendTable::parse("backends.yaml", Yaml); !B)
    llvm::consumeError(B.takeError());
  return 0;
}
