//===--- ReviewTest.cpp - C++ findings reviewed in the code around them ---===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/Review.h"

#include "matchers/cpp/CppBackend.h"
#include "tests/unit/matchers/cpp/CppRules.h"

#include <gtest/gtest.h>

#include <iterator>

#include <string>
#include <vector>

namespace devport {
namespace {

using cpp::backendNamed;

/// A finding of Rule at each occurrence of Needle in Text (with a fix, so
/// that a dropped one shows).
std::vector<Diagnostic> findingsAt(llvm::StringRef Text, llvm::StringRef Needle,
                                   llvm::StringRef Rule = "cpp-cuda-device-type",
                                   llvm::StringRef Category = "device-placement") {
  std::vector<Diagnostic> Out;
  for (size_t At = Text.find(Needle); At != llvm::StringRef::npos; At = Text.find(Needle, At + 1)) {
    Diagnostic D;
    D.RuleId = Rule.str();
    D.Category = Category.str();
    D.Range = {static_cast<uint32_t>(At), static_cast<uint32_t>(At + Needle.size())};
    D.Fixes.emplace_back();
    Out.push_back(std::move(D));
  }
  return Out;
}

struct Reviewed {
  std::vector<Diagnostic> Findings, Kept;
};

Reviewed review(llvm::StringRef Text, std::vector<Diagnostic> Findings) {
  cpp::LexedFile L(Text);
  Reviewed R;
  R.Findings = std::move(Findings);
  cpp::reviewFindings(L, R.Findings, R.Kept);
  return R;
}

/// A's findings, then B's.
std::vector<Diagnostic> joined(std::vector<Diagnostic> A, std::vector<Diagnostic> B) {
  std::move(B.begin(), B.end(), std::back_inserter(A));
  return A;
}

/// The findings of `t.is_cuda()` (cpp-tensor-is-cuda), then those of
/// `kCUDA` (cpp-cuda-device-type), in Text.
std::vector<Diagnostic> checksThenDevices(llvm::StringRef Text) {
  return joined(findingsAt(Text, "t.is_cuda()", "cpp-tensor-is-cuda", "device-check"),
                findingsAt(Text, "kCUDA"));
}

/// Per finding, "fix" or its last note (why it has none).
std::vector<std::string> fixesOrNotes(const std::vector<Diagnostic> &Findings) {
  std::vector<std::string> Out;
  for (const Diagnostic &D : Findings)
    Out.push_back(D.Fixes.empty() ? D.Notes.back().Text : "fix");
  return Out;
}

/// The keep entries' messages, in order.
std::vector<std::string> messages(const std::vector<Diagnostic> &Kept) {
  std::vector<std::string> Out;
  for (const Diagnostic &K : Kept)
    Out.push_back(K.Message);
  return Out;
}

std::string keptText(llvm::StringRef Text, const Diagnostic &K) {
  return Text.slice(K.Range.Begin, K.Range.End).str();
}

TEST(ReviewTest, BackendNames) {
  EXPECT_EQ(backendNamed("kCUDA"), "CUDA");
  EXPECT_EQ(backendNamed("CUDA"), "CUDA");
  EXPECT_EQ(backendNamed("AutocastCUDA"), "CUDA");
  EXPECT_EQ(backendNamed("SparseCsrCUDA"), "CUDA");
  EXPECT_EQ(backendNamed("is_cuda"), "CUDA");
  EXPECT_EQ(backendNamed("QuantizedXPU"), "XPU");
  EXPECT_EQ(backendNamed("is_privateuseone"), "PrivateUse1");
  EXPECT_EQ(backendNamed("kPrivateUse1"), "PrivateUse1");
  for (const char *N : {"kCUDAVersion", "Autocast", "Sparse", "is_cuda_", "cuda", "kcuda",
                        "AutogradOther", "SparseFoo", "k", ""})
    EXPECT_EQ(backendNamed(N), "") << N;
  EXPECT_TRUE(cpp::isOtherAccelerator("XPU"));
  EXPECT_TRUE(cpp::isOtherAccelerator("HIP"));
  for (const char *B : {"CUDA", "CPU", "Meta", ""})
    EXPECT_FALSE(cpp::isOtherAccelerator(B)) << B;
}

TEST(ReviewTest, LadderKeptWholeWithEveryFindingInIt) {
  const char *Text = "void f(T d) {\n"
                     "  if (d == kCUDA) {\n"
                     "    use(kCUDA);\n"
                     "  } else if (d == kXPU) {\n"
                     "    use(kXPU);\n"
                     "  } else {\n"
                     "    use(kCPU);\n"
                     "  }\n"
                     "  use(kCUDA);\n"
                     "}\n";
  Reviewed R = review(Text, findingsAt(Text, "kCUDA"));
  ASSERT_EQ(R.Kept.size(), 1u);
  EXPECT_EQ(R.Kept[0].Message,
            "a per-backend ladder (`kXPU`, line 4) already selects per backend: kept");
  EXPECT_EQ(keptText(Text, R.Kept[0]).substr(0, 16), "if (d == kCUDA) ");
  EXPECT_EQ(keptText(Text, R.Kept[0]).back(), '}');
  EXPECT_EQ(R.Kept[0].Keeps.size(), 2u);
  ASSERT_EQ(R.Findings.size(), 1u); // the one after the ladder
  EXPECT_EQ(R.Findings[0].Range.Begin, llvm::StringRef(Text).rfind("kCUDA"));
}

TEST(ReviewTest, NoLadderWithoutAnotherAcceleratorInAnotherCondition) {
  for (const char *Text : {"void f(T d) { if (d == kCUDA) { a(); } else if (d == kCPU) { b(); } }",
                           "void f(T d) { if (d == kCUDA || d == kXPU) { a(); } }",
                           "void f(T d) { if (d == kCUDA) { a(kXPU); } else { b(); } }"}) {
    Reviewed R = review(Text, findingsAt(Text, "kCUDA"));
    EXPECT_TRUE(R.Kept.empty()) << Text;
    EXPECT_EQ(R.Findings.size(), 1u) << Text;
  }
}

TEST(ReviewTest, SwitchArmFromItsLabelsToTheNext) {
  const char *Text = "int f(B b) {\n"
                     "  switch (b) {\n"
                     "    case Backend::CPU:\n"
                     "      return x(kCPU);\n"
                     "    case Backend::Meta:\n"
                     "    case Backend::CUDA:\n"
                     "      if (y) { return x(kCUDA); }\n"
                     "      return x(kCUDA);\n"
                     "    default:\n"
                     "      return x(kCUDA);\n"
                     "  }\n"
                     "}\n";
  Reviewed R = review(Text, findingsAt(Text, "kCUDA"));
  ASSERT_EQ(R.Kept.size(), 1u);
  EXPECT_EQ(R.Kept[0].Message,
            "the CUDA arm of a per-device `switch` (`case Backend::CUDA:`, line 6): kept");
  EXPECT_EQ(keptText(Text, R.Kept[0]),
            "case Backend::Meta:\n    case Backend::CUDA:\n      if (y) { return x(kCUDA); }\n"
            "      return x(kCUDA);");
  EXPECT_EQ(R.Kept[0].Keeps.size(), 2u);
  EXPECT_EQ(R.Findings.size(), 1u); // the default arm's
}

TEST(ReviewTest, ALabelThatIsTheFinding) {
  const char *Text = "const char *n(K k) { switch (k) { case DispatchKey::AutocastCUDA: case "
                     "DispatchKey::CUDA: return \"c\"; default: return \"\"; } }";
  Reviewed R = review(Text, findingsAt(Text, "DispatchKey::", "cpp-dispatch-key-cuda"));
  ASSERT_EQ(R.Kept.size(), 1u); // one arm, both labels in it
  EXPECT_EQ(R.Kept[0].Keeps.size(), 2u);
  EXPECT_TRUE(R.Findings.empty());
}

TEST(ReviewTest, ListsWithOtherBackendsEntries) {
  const char *Text = "constexpr S s = S({\n"
                     "  DispatchKey::AutocastCPU,\n"
                     "  DispatchKey::AutocastCUDA,\n"
                     "  DispatchKey::AutocastXPU,\n"
                     "});\n"
                     "static const M m = {{\"cpu\", kCPU}, {\"cuda\", kCUDA}, {\"mps\", kMPS}};\n"
                     "void f() { g({kCPU, kCUDA}); { h(kCUDA, kXPU); } }\n"
                     "class TORCH_API Context {\n"
                     "  Hooks &h(T t) { if (t == kCUDA) return cuda(); return xpu(kXPU); }\n"
                     "};\n";
  Reviewed R = review(
      Text, joined(findingsAt(Text, "DispatchKey::AutocastCUDA"), findingsAt(Text, "kCUDA")));
  ASSERT_EQ(R.Kept.size(), 2u);
  EXPECT_EQ(R.Kept[0].Message,
            "a list with other backends' entries too (`DispatchKey::AutocastXPU`, line 4): kept");
  EXPECT_EQ(keptText(Text, R.Kept[1]), "{{\"cpu\", kCPU}, {\"cuda\", kCUDA}, {\"mps\", kMPS}}");
  // `{kCPU, kCUDA}` names no other accelerator; a block, a class are not lists.
  EXPECT_EQ(R.Findings.size(), 3u);
}

TEST(ReviewTest, NamedForCuda) {
  const char *Text = "Tensor to_cuda(const Tensor &t) { return t.to(kCUDA); }\n"
                     "Tensor Mover::toCUDA(const Tensor &t) const { return t.to(kCUDA); }\n"
                     "TEST_F(ModuleTest, Conversion_MultiCUDA) { m.to(kCUDA); }\n"
                     "void g() { auto f = [](const Tensor &t) { return t.to(kCUDA); }; }\n"
                     "void syncCuda() { if (x) { for (;;) { y(kCUDA); } } }\n"
                     "void mycudaThing() { y(kCUDA); }\n";
  Reviewed R = review(Text, findingsAt(Text, "kCUDA"));
  EXPECT_EQ(messages(R.Kept),
            (std::vector<std::string>{
                "`to_cuda` is named for CUDA: kept with the CUDA references in it",
                "`Mover::toCUDA` is named for CUDA: kept with the CUDA references in it",
                "`TEST_F(ModuleTest, Conversion_MultiCUDA)` is named for CUDA: kept with "
                "the CUDA references in it",
                "`syncCuda` is named for CUDA: kept with the CUDA references in it"}));
  // The lambda in g(); `mycuda` is not the word as a file name would have it.
  ASSERT_EQ(R.Findings.size(), 2u);
}

TEST(ReviewTest, DispatchKeysInAGtestCaseAreTestData) {
  const char *Text = "TEST(OperatorRegistrationTest, Calls) {\n"
                     "  callOp(*op, dummyTensor(DispatchKey::CUDA));\n"
                     "  t.to(kCUDA);\n"
                     "}\n";
  Reviewed R = review(Text, joined(findingsAt(Text, "DispatchKey::CUDA", "cpp-dispatch-key-cuda"),
                                   findingsAt(Text, "kCUDA")));
  ASSERT_EQ(R.Kept.size(), 1u);
  EXPECT_EQ(R.Kept[0].Message,
            "`TEST(OperatorRegistrationTest, Calls)` tests the dispatcher: its dispatch keys are "
            "test data (the key a kernel is registered for, the key a tensor carries): kept");
  EXPECT_EQ(R.Kept[0].Keeps.size(), 1u);
  // A device in the test case is reported.
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(R.Findings[0].RuleId, "cpp-cuda-device-type");
}

TEST(ReviewTest, GatesOfCudaOnlyFeatures) {
  const char *Text = "void f(T t) {\n"
                     "  bool use_cudnn = (t.device().type() == kCUDA) && can(t);\n"
                     "  if (!t.is_cuda() || !cudnn_is_acceptable(t)) return;\n"
                     "  if (t.is_cuda() && !cudaAwareMpiCheck()) return;\n"
                     "  bool fast = (t.device().type() == kCUDA) && can(t);\n"
                     "  bool both = t.is_cuda() && u.device().is_cuda();\n"
                     "}\n";
  Reviewed R =
      review(Text, joined(findingsAt(Text, "kCUDA", "cpp-cuda-device-type-check", "device-check"),
                          findingsAt(Text, "t.is_cuda()", "cpp-tensor-is-cuda", "device-check")));
  EXPECT_EQ(
      messages(R.Kept),
      (std::vector<std::string>{"gates cuDNN or MIOpen (`use_cudnn`, line 2): kept",
                                "gates cuDNN or MIOpen (`cudnn_is_acceptable`, line 3): kept",
                                "gates a CUDA-only feature (`cudaAwareMpiCheck`, line 4): kept"}));
  // `fast` gates nothing of CUDA's; a device's is_cuda() is a device check, not a feature.
  ASSERT_EQ(R.Findings.size(), 2u);
}

TEST(ReviewTest, TheDefinitionOfACudaNameAndEntriesThatNameCuda) {
  const char *Text =
      "constexpr DeviceType kCUDA = DeviceType::CUDA;\n"
      "const std::map<DeviceType, int> m = {{DeviceType::CUDA, UCC_MEMORY_TYPE_CUDA}};\n"
      "constexpr DeviceType kGPU = DeviceType::CUDA;\n"
      "void f() { g(cuda::x, DeviceType::CUDA); }\n";
  Reviewed R = review(Text, findingsAt(Text, "DeviceType::CUDA"));
  EXPECT_EQ(messages(R.Kept), (std::vector<std::string>{
                                  "the definition of `kCUDA`: kept",
                                  "pairs the name `UCC_MEMORY_TYPE_CUDA` with its device: kept"}));
  // Another name's definition, and a call's identifiers, are not.
  EXPECT_EQ(R.Findings.size(), 2u);
}

TEST(ReviewTest, DispatchKeysInAGtestFileOutsideItsCases) {
  const char *Text = "struct Kernel final : OperatorKernel {\n"
                     "  Tensor operator()(Tensor) { return dummyTensor(DispatchKey::CUDA); }\n"
                     "};\n"
                     "TEST(OperatorRegistrationTest, Calls) { call(); }\n";
  Reviewed R = review(Text, findingsAt(Text, "DispatchKey::CUDA", "cpp-dispatch-key-cuda"));
  ASSERT_EQ(R.Kept.size(), 1u);
  EXPECT_EQ(keptText(Text, R.Kept[0]).substr(0, 13), "struct Kernel");
  // Without a test case in the file, a key is reported.
  const char *NoTests = "Tensor k() { return dummyTensor(DispatchKey::CUDA); }\n"
                        "// TEST(A, B) in a comment does not count\n";
  EXPECT_EQ(review(NoTests, findingsAt(NoTests, "DispatchKey::CUDA", "cpp-dispatch-key-cuda"))
                .Findings.size(),
            1u);
}

TEST(ReviewTest, AllowListDropsTheFix) {
  const char *Text =
      "bool ok(const Tensor &t) {\n"
      "  return t.is_cuda() || t.is_xpu();\n"
      "}\n"
      "void c(const Tensor &t) { TORCH_CHECK(t.is_cpu() || t.is_cuda(), \"no\"); }\n"
      "bool b(const Tensor &t, const Tensor &u) { return t.is_cuda() && u.is_cuda(); }\n";
  Reviewed R = review(Text, findingsAt(Text, "t.is_cuda()", "cpp-tensor-is-cuda", "device-check"));
  ASSERT_EQ(R.Findings.size(), 3u);
  EXPECT_TRUE(R.Findings[0].Fixes.empty());
  ASSERT_EQ(R.Findings[0].Notes.size(), 1u);
  EXPECT_EQ(R.Findings[0].Notes[0].Text,
            "no fix: it is one of a list of backends (`t.is_xpu()`, line 2); rewritten, it would "
            "let every accelerator through, those the list leaves out too");
  // CPU is not another accelerator; `&&` of CUDA checks alone is no list.
  EXPECT_EQ(R.Findings[1].Fixes.size(), 1u);
  EXPECT_EQ(R.Findings[2].Fixes.size(), 1u);
}

TEST(ReviewTest, WhatRegionLexingLeftOutAroundAFindingIsLexedAgain) {
  // The arm of MPS has no rule's word: region lexing leaves it out, and
  // the CUDA arm would run on to the switch's end.
  const char *Text = "int f(c10::DeviceType d) {\n"
                     "  int n = 0;\n"
                     "  switch (d) {\n"
                     "    case c10::kCUDA:\n"
                     "      n = 1;\n"
                     "      break;\n"
                     "    case c10::kMPS:\n"
                     "      n = another_value(n);\n"
                     "      break;\n"
                     "  }\n"
                     "  return n;\n"
                     "}\n"
                     "int g(int x) { if (x) return 1; else return 2; }\n";
  cpp::CppBackend B;
  const CompiledRules *Compiled = cpp::lexicalBackendRules(); // region lexing applies
  ASSERT_NE(Compiled, nullptr);
  auto Regions = Compiled->regionText("f.cpp", Text);
  ASSERT_TRUE(Regions.has_value());
  auto Partial = B.parseRegions("f.cpp", Text, *Regions);
  ASSERT_TRUE(static_cast<const cpp::CppParsedFile &>(*Partial).lexed().partial());
  bool MpsLexed = false;
  const cpp::LexedFile &PL = static_cast<const cpp::CppParsedFile &>(*Partial).lexed();
  for (size_t I = 0; I < PL.tokens().size(); ++I)
    MpsLexed |= PL.spelling(I) == "kMPS";
  ASSERT_FALSE(MpsLexed) << "the test needs the MPS arm left out";

  Reviewed Whole, Regioned;
  Whole.Findings = Regioned.Findings = findingsAt(Text, "c10::kCUDA");
  B.reviewFixes(*B.parseFile("f.cpp", Text), Whole.Findings, Whole.Kept, {});
  B.reviewFixes(*Partial, Regioned.Findings, Regioned.Kept, {});
  ASSERT_EQ(Whole.Kept.size(), 1u);
  EXPECT_EQ(Whole.Kept[0].Message,
            "the CUDA arm of a per-device `switch` (`case c10::kCUDA:`, line 4): kept");
  EXPECT_EQ(keptText(Text, Whole.Kept[0]), "case c10::kCUDA:\n      n = 1;\n      break;");
  ASSERT_EQ(Regioned.Kept.size(), 1u);
  EXPECT_EQ(Regioned.Kept[0].Message, Whole.Kept[0].Message);
  EXPECT_EQ(Regioned.Kept[0].Range, Whole.Kept[0].Range);
  EXPECT_TRUE(Regioned.Findings.empty());
  // Only f is lexed again: g holds no finding.
  cpp::LexedFile L(Text);
  EXPECT_EQ(
      cpp::reviewScopes(L, findingsAt(Text, "c10::kCUDA")),
      (std::vector<ByteRange>{{0, static_cast<uint32_t>(llvm::StringRef(Text).find("\nint g"))}}));
}

TEST(ReviewTest, ANamePairedWithItsDevice) {
  const char *Text =
      "const Case cases[] = {{\"cuda:0\", DeviceType::CUDA, 0}};\n"
      "void b(E &e) { e.value(\"CUDA\", DeviceType::CUDA); }\n"
      "static M m{{\"aten::cuda(Tensor self) -> Tensor\", rule(DeviceType::CUDA)}};\n"
      "void c(T d) { log(\"moving to cuda\", DeviceType::CUDA); }\n"
      "void d(T d) { TORCH_CHECK(d == DeviceType::CUDA, \"cuda\"); }\n"
      "void e() { auto s = \"cuda\"; use(DeviceType::CUDA); }\n";
  Reviewed R = review(Text, findingsAt(Text, "DeviceType::CUDA"));
  EXPECT_EQ(messages(R.Kept),
            (std::vector<std::string>{
                "pairs the name \"cuda:0\" with its device: kept",
                "pairs the name \"CUDA\" with its device: kept",
                "pairs the name \"aten::cuda(Tensor self) -> Tensor\" with its device: "
                "kept"}));
  EXPECT_EQ(keptText(Text, R.Kept[1]), "value(\"CUDA\", DeviceType::CUDA)");
  // A message, a check macro's message, a string in another statement: reported.
  EXPECT_EQ(R.Findings.size(), 3u);
}

TEST(ReviewTest, UnderACudaCheckThatStaysNoFix) {
  const char *Text = "void f(T t, bool cuda) {\n"
                     "  if (cuda) { t.to(kCUDA); }\n"
                     "  if (at::hasCUDA()) t.to(kCUDA);\n"
                     "  auto d = use_cuda ? kCUDA : kCPU;\n"
                     "  auto e = use_cuda ? kCPU : kCUDA;\n"
                     "  if (t.is_cuda()) { t.to(kCUDA); }\n"
                     "  if (fast) { t.to(kCUDA); }\n"
                     "}\n";
  Reviewed R = review(Text, checksThenDevices(Text));
  EXPECT_EQ(fixesOrNotes(R.Findings),
            (std::vector<std::string>{
                "fix", // t.is_cuda(): its own fix
                "no fix: it depends on a CUDA check that stays (`cuda`, line 2); port the "
                "check and this together",
                "no fix: it depends on a CUDA check that stays (`at::hasCUDA`, line 3); "
                "port the check and this together",
                "no fix: it depends on a CUDA check that stays (`use_cuda`, line 4); port "
                "the check and this together",
                "fix", // the false arm
                "fix", // under t.is_cuda(), which its fix rewrites
                "fix"}));
}

TEST(ReviewTest, TheFallbackThatTheFixWrites) {
  const char *Text =
      "void f(T t) { t.to(at::accelerator::getAccelerator().value_or(at::kCUDA)); }\n"
      "void g(T t) { t.to(at::getAccelerator(false).value_or(at::kCUDA)); }\n"
      "void h(O d) { use(d.value_or(at::kCUDA)); }\n"
      "#define ACC(t) ACC_TYPE(t, at::getAccelerator().value_or(at::kCUDA))\n";
  Reviewed R = review(Text, findingsAt(Text, "at::kCUDA"));
  ASSERT_EQ(R.Kept.size(), 3u); // a `#define` body's too
  EXPECT_EQ(R.Kept[0].Message,
            "the device type without an accelerator, in `getAccelerator().value_or(...)`: kept");
  EXPECT_EQ(keptText(Text, R.Kept[0]), "at::accelerator::getAccelerator().value_or(at::kCUDA)");
  ASSERT_EQ(R.Findings.size(), 1u); // another optional's fallback is a choice of CUDA
}

TEST(ReviewTest, AGuardOfCudaOnlyCodeKeepsNoFix) {
  const char *Text = "T f(T t, T u) {\n"
                     "  if (t.is_cuda()) {\n"
                     "#ifdef WITH_CUDA\n"
                     "    return g(t);\n"
                     "#endif\n"
                     "  }\n"
                     "  if (t.is_cuda()) return roi_forward_cuda(t);\n"
                     "  if (t.is_cuda()) { u = u.to(kCUDA); }\n"
                     "  if (t.is_cuda()) { return t.contiguous(); }\n"
                     "  return t;\n"
                     "}\n";
  Reviewed R = review(Text, checksThenDevices(Text));
  EXPECT_EQ(fixesOrNotes(R.Findings),
            (std::vector<std::string>{
                "no fix: the code it guards is CUDA-only: `WITH_CUDA` (line 3); rewriting "
                "the check would run it on other accelerators",
                "no fix: the code it guards is CUDA-only: `roi_forward_cuda` (line 7); "
                "rewriting the check would run it on other accelerators",
                "fix", // its block's kCUDA is fixed too
                "fix", "fix"}));
}

TEST(ReviewTest, AnExpectedValueInAnAssertionKeepsNoFix) {
  const char *Text = "TEST(DeviceTest, Parses) {\n"
                     "  device = Device(\"cuda:123\");\n"
                     "  ASSERT_EQ(device, Device(DeviceType::CUDA, 123));\n"
                     "  EXPECT_TRUE(t.to(DeviceType::CUDA).defined());\n"
                     "  auto u = t.to(DeviceType::CUDA);\n"
                     "}\n";
  Reviewed R = review(Text, findingsAt(Text, "DeviceType::CUDA"));
  ASSERT_EQ(R.Findings.size(), 3u);
  EXPECT_EQ(R.Findings[0].Notes.back().Text,
            "no fix: in a test's assertion (`ASSERT_EQ`); rewritten alone, it would check for "
            "another device where the code under test may still give CUDA");
  EXPECT_TRUE(R.Findings[1].Fixes.empty());
  EXPECT_EQ(R.Findings[2].Fixes.size(), 1u);
}

TEST(ReviewTest, FindingsAtTheEdgesOfTheText) {
  // A finding as the first token (the fuzzer's: nothing before it to look
  // back at), as the last, and in a text of it alone.
  for (const char *Text : {"kCUDA = x;", "x = kCUDA", "kCUDA", "= kCUDA", "case kCUDA:", "( kCUDA",
                           "kCUDA )", "} kCUDA {"}) {
    Reviewed R = review(Text, findingsAt(Text, "kCUDA"));
    EXPECT_EQ(R.Findings.size() + R.Kept.size(), 1u) << Text;
  }
}

TEST(ReviewTest, DeviceSpecialCaseRulesAreNotReviewed) {
  const char *Text = "void f(T d) { switch (d) { case XlaDeviceType::CUDA: g(); } }";
  Reviewed R = review(Text, findingsAt(Text, "XlaDeviceType::CUDA", "xla-device-type-special-case",
                                       "device-special-case"));
  EXPECT_TRUE(R.Kept.empty());
  EXPECT_EQ(R.Findings.size(), 1u);
}

} // namespace
} // namespace devport
