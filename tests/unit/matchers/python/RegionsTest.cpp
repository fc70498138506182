//===--- RegionsTest.cpp - The statements that rules can need -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Regions.h"
#include "matchers/python/Review.h"

#include "core/Where.h"
#include "tests/support/TestFiles.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace devport::python {
namespace {

/// The offsets of every occurrence of the words in Text.
std::vector<uint32_t> anchorsOf(llvm::StringRef Text, llvm::ArrayRef<llvm::StringRef> Words) {
  std::vector<uint32_t> Out;
  for (llvm::StringRef W : Words)
    for (size_t At = Text.find(W); At != llvm::StringRef::npos; At = Text.find(W, At + 1))
      Out.push_back(static_cast<uint32_t>(At));
  llvm::sort(Out);
  return Out;
}

RegionRules torchRules() {
  RegionRules R;
  for (const char *Q : {"torch", "torch.cuda", "torch.cuda.device_count", "torch.cuda.is_available"})
    R.QualifiedPrefixes.insert(Q);
  return R;
}

/// One letter per line of Text: what region parsing did with it. `k` kept
/// as it is, `b` blanked (or blank), `0` blanked but for a `0` filler.
std::string shape(llvm::StringRef Text, llvm::ArrayRef<llvm::StringRef> Words,
                  const RegionRules &Rules = torchRules()) {
  std::optional<RegionText> R = maskRegions(Text, anchorsOf(Text, Words), Rules);
  if (!R)
    return "whole";
  EXPECT_EQ(R->Text.size(), Text.size());
  llvm::SmallVector<llvm::StringRef, 32> Orig, Masked;
  Text.split(Orig, '\n');
  llvm::StringRef(R->Text).split(Masked, '\n');
  EXPECT_EQ(Orig.size(), Masked.size());
  std::string Out;
  for (size_t I = 0; I < Orig.size() && I < Masked.size(); ++I) {
    llvm::StringRef M = Masked[I];
    if (M == Orig[I] && !M.trim().empty())
      Out += 'k';
    else if (M.trim() == "0")
      Out += '0';
    else if (M.trim().empty())
      Out += 'b';
    else
      Out += '?'; // partly kept: a comment after blanked code
  }
  // Outside the ranges (what the parser reads) only blanks and comments.
  auto Unparsed = [](llvm::StringRef Gap) {
    llvm::SmallVector<llvm::StringRef, 8> Lines;
    Gap.split(Lines, '\n');
    for (llvm::StringRef L : Lines)
      if (!L.split('#').first.trim().empty())
        return false;
    return true;
  };
  uint32_t At = 0;
  for (const ByteRange &X : R->Ranges) {
    EXPECT_LE(At, X.Begin);
    EXPECT_TRUE(Unparsed(llvm::StringRef(R->Text).slice(At, X.Begin)));
    At = X.End;
  }
  EXPECT_TRUE(Unparsed(llvm::StringRef(R->Text).drop_front(At)));
  return Out;
}

TEST(Regions, KeepsAnchoredStatementsImportsAndTheHeadersAroundThem) {
  const char *Text = "import os\n"                          // k import
                     "import torch\n"                       // k import
                     "\n"                                   // b
                     "def helper():\n"                      // k the first statement: imports go before it
                     "    return 1\n"                       // 0
                     "\n"                                   // b
                     "class A:\n"                           // k encloses a finding
                     "    def f(self):\n"                   // k
                     "        x = 1\n"                      // b
                     "        y = torch.cuda.device_count()\n" // k
                     "        z = [\n"                      // b a statement over lines
                     "            1,\n"                     // b
                     "        ]\n"                          // b
                     "    def g(self):\n"                   // b nothing needed inside
                     "        return 2\n";                  // b
  EXPECT_EQ("kkbk0bkkbkbbbbbb", shape(Text, {"cuda"}));
}

TEST(Regions, AGuardKeepsWhatTheReviewReadsOfItsStatementAndWhatFollowsAnEarlyExit) {
  const char *Text = "def f():\n"                              // k
                     "    a = 1\n"                             // k the statement before an if
                     "    if not torch.cuda.is_available():\n" // k
                     "        print('no')\n"                   // b
                     "        device = 'cpu'\n"                // k a CPU fallback
                     "        return\n"                        // k the block's last statement
                     "    b = 2\n"                             // b
                     "    m.to(torch.float64)\n"               // k guarded: what MPS lacks
                     "    c = 3\n"                             // b
                     "def g():\n"                              // k
                     "    if torch.cuda.is_available():\n"     // k
                     "        x = 1\n"                         // b
                     "        y = 2\n"                         // k the block's last statement
                     "    else:\n"                             // k
                     "        z = has_xpu\n"                   // k another backend
                     "        x = 2\n"                         // k the block's last statement
                     "    y = 3\n";                            // b no early exit before it
  EXPECT_EQ("kkkbkkbkbkkbkkkkbb", shape(Text, {"cuda"}));
}

TEST(Regions, GuardedCodeKeepsWhatTheReviewLooksFor) {
  // A skip decorator guards its definition; a parameter's default, the
  // function. In them, the lines with a word the review reads stay, and
  // the last statement of the block.
  const char *Text = "@skipIf(not torch.cuda.is_available(), 'x')\n" // k
                     "def test_a(self):\n"                           // k
                     "    inputs = self.input(output)\n"             // b `input`: not `npu`
                     "    h = nvtx_range('a')\n"                     // k
                     "    r = plugin('TensorRT')\n"                  // k
                     "    for i in range(3):\n"                      // k encloses one
                     "        x = i.double()\n"                      // k
                     "        y = i\n"                               // b
                     "    shipping = 1\n"                 // b `hip` is a part, not a piece
                     "    n = use_privateuse1_backend\n"  // k
                     "    return n\n"                     // k the last statement
                     "def f(device='cuda'):\n"            // k
                     "    a = 1\n"                        // b
                     "    if device.startswith('mps'):\n" // k
                     "        b = 2\n"                    // 0 an emptied block
                     "    return a\n";                    // k the last statement
  EXPECT_EQ("kkbkkkkbbkkkbk0kb", shape(Text, {"cuda"}));
}

TEST(Regions, GuardedWordsAreReadAsTheReviewReadsNamesAndStrings) {
  // Substrings of a name or string, any case (cudaName, cudaNamedString,
  // `"cpu"`, float64); a backend only as a whole `_`-separated part.
  for (const char *Yes : {"x = CUDA_HOME",
                          "h = cuDNN.handle()",
                          "load('TensorRT')",
                          "n_gpus",
                          "x.to(torch.float64)",
                          "x.DOUBLE()",
                          "d = 'cpu'",
                          "cpu_count()",
                          "if has_xpu:",
                          "is_torch_npu_available()",
                          "'mps'",
                          "use_privateuse1",
                          "ROCM_HOME = 1",
                          "MPS_AVAILABLE",
                          "dist.all_reduce(t)",
                          "torch.save(m, p)",
                          "b.pin_memory()",
                          "th.load(p)",
                          "th.save(m, p)",
                          "th.accelerator.empty_cache()",
                          "accelerator.max_memory_allocated()"})
    EXPECT_TRUE(mentionsGuardedWord(Yes)) << Yes;
  for (const char *No : {"y = self.input(output)", "shipping = 1", "xpu2 = 1", "MPSDevice()",
                         "torch.zeros(3)", "cu da", "c_uda", "Torch.Load(f)", "xmps", ""})
    EXPECT_FALSE(mentionsGuardedWord(No)) << No;
}

TEST(Regions, ACustomDeviceKeepsTheGuardedLinesThatSayIt) {
  // `--device-expression 'get_device()'`: code ported already says it, and
  // the review reads it in what a guard guards (portedPlacement()).
  const char *Text = "import torch\n"                           // k
                     "def f(model):\n"                          // k
                     "    if torch.cuda.is_available():\n"      // k
                     "        model = model.to(get_device())\n" // k with the device's word
                     "        y = model.size\n"                 // b
                     "        return y\n"                       // k the last statement
                     "    return model\n";                      // b
  RegionRules Custom = torchRules();
  Custom.DeviceWords = {lastNameOfExpression("mylib.get_device()")};
  EXPECT_EQ("kkkkbkbb", shape(Text, {"cuda"}, Custom));
  EXPECT_EQ("kkkbbkbb", shape(Text, {"cuda"}));
}

TEST(Regions, TheLastNameOfADeviceExpression) {
  EXPECT_EQ("get_device", lastNameOfExpression("get_device()"));
  EXPECT_EQ("get_device", lastNameOfExpression(" mylib.get_device() "));
  EXPECT_EQ("device", lastNameOfExpression("self.device"));
  EXPECT_EQ("devices", lastNameOfExpression("devices[0]"));
  EXPECT_EQ("device", lastNameOfExpression("torch.device(args.device)"));
  EXPECT_EQ("type", lastNameOfExpression("get_device().type"));
  EXPECT_EQ("", lastNameOfExpression("get_device(("));
  EXPECT_EQ("", lastNameOfExpression("\"cuda\""));
}

TEST(Regions, AnotherHeaderKeepsItsClausesButNotItsBlock) {
  const char *Text = "def f():\n"
                     "    try:\n"
                     "        n = torch.cuda.device_count()\n"
                     "        m = 1\n"
                     "    except RuntimeError:\n"
                     "        n = 0\n"
                     "    finally:\n"
                     "        pass\n"
                     "    with torch.cuda.device(1):\n"
                     "        z = 1\n";
  // `n = 0` stays: a later assignment of what a finding was assigned to.
  EXPECT_EQ("kkkbkkk0k0b", shape(Text, {"cuda"}));
}

TEST(Regions, ANameImportedForAPatternIsAnAnchorEverywhere) {
  const char *Text = "import torch.cuda as tc\n"
                     "from torch import nn\n"
                     "x = 1\n"
                     "def f():\n"
                     "    n = tc.device_count()\n"
                     "    m = nn.Linear(1, 1)\n";
  // `tc` stands for torch.cuda, a prefix of a pattern's name; `nn` does not.
  EXPECT_EQ("kkkkkbb", shape(Text, {"device_count"}));
  // Without an anchor in the file, the alias still counts.
  EXPECT_EQ("kkkkkbb", shape(Text, {}));
}

TEST(Regions, ImportedNamesAreFoundInAFileOfMegabytesToo) {
  // Over 1 MiB, the names are looked for in one pass (LiteralSet) instead
  // of one pass each: the same whole-word uses, and nothing else, are marked.
  std::string Text = "import torch.cuda as tc\nimport torch.cuda as cu\n";
  std::string Block = "def f():\n"
                      "    a = tc.device_count()\n"
                      "    b = xtc.device_count() + tc_x + cux\n"
                      "    c = cu.is_available() if tc else cu\n"
                      "    d = 1\n";
  while (Text.size() < (size_t(3) << 19))
    Text += Block;
  std::optional<RegionText> R = maskRegions(Text, {}, torchRules(), /*MarksOnly=*/true);
  ASSERT_TRUE(R);
  std::vector<uint32_t> Want;
  auto Ident = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (llvm::StringRef W : {"tc", "cu"})
    for (size_t At = Text.find(W.str()); At != std::string::npos; At = Text.find(W.str(), At + 1))
      if ((At == 0 || !Ident(Text[At - 1])) &&
          (At + W.size() >= Text.size() || !Ident(Text[At + W.size()])))
        Want.push_back(static_cast<uint32_t>(At));
  llvm::sort(Want);
  EXPECT_GT(Want.size(), 40000u);
  EXPECT_EQ(Want, R->Marks.Offsets);
  // A block is masked as in a small file.
  std::string Header = "import torch.cuda as tc\nimport torch.cuda as cu\n";
  std::string Small = Header + Block + Block;
  std::optional<RegionText> MB = maskRegions(Text, {}, torchRules());
  std::optional<RegionText> MS = maskRegions(Small, {}, torchRules());
  ASSERT_TRUE(MB && MS);
  size_t Second = Header.size() + Block.size();
  llvm::StringRef Want2 = llvm::StringRef(MS->Text).substr(Second, Block.size());
  EXPECT_EQ(Want2.str(), llvm::StringRef(MB->Text).substr(Second, Block.size()).str());
  EXPECT_TRUE(Want2.contains("tc.device_count()") && !Want2.contains("xtc"));
}

TEST(Regions, NamesImportedFromTorchCudaAreAnchorsForTheImportCleanUp) {
  const char *Text = "from torch.cuda import device_of\n"
                     "x = 1\n"
                     "with device_of(t):\n"
                     "    y = 2\n";
  RegionRules Rules = torchRules();
  EXPECT_EQ("kkbbb", shape(Text, {"cuda"}, Rules));
  // The fix rounds drop such an import once no use is left: every use counts.
  Rules.CleanedModules.push_back("torch.cuda");
  EXPECT_EQ("kkk0b", shape(Text, {"cuda"}, Rules));
}

/// An import whose module name holds what no import does, as typing leaves
/// it (`from torch.cuda: import is_available`): tree-sitter reads an import
/// there (the `:` is an error), the scan would read none, so the file is
/// parsed and matched whole (the language server matched the scan's marks
/// and missed `is_available()`).
TEST(Regions, AnImportTheScanCannotReadTakesTheWholeFile) {
  std::string Rest = "def f():\n    return 1\n\n\ndef g():\n    return 2\n\n\n"
                     "print(is_available())\n";
  EXPECT_EQ("whole", shape("from torch.cuda: import is_available\n" + Rest, {"cuda"}));
  EXPECT_EQ("kk0bbbbbbkb", shape("from torch.cuda import is_available\n" + Rest, {"cuda"}));
  // `raise ... from e` in a line with `import` in it (a comment) is no import.
  EXPECT_EQ(
      "kkbbbbbbbbbb",
      shape("import torch.cuda\nraise ImportError('no cuda') from e  # import\n" + Rest, {"cuda"}));
}

TEST(Regions, AnAssignedNameIsFollowedInItsFunction) {
  const char *Text = "def f():\n"
                     "    accel = torch.cuda.is_available()\n"
                     "    other = 1\n"
                     "    if accel:\n"
                     "        x = 1\n"
                     "def g():\n"
                     "    accel = False\n";
  // `other = 1`: the statement before an if that the review reads
  // (previousIfNamingOtherBackend()).
  EXPECT_EQ("kkkkkbbb", shape(Text, {"cuda"}));
  // `self.NAME`: in its class.
  const char *InClass = "class A:\n"
                        "    def setUp(self):\n"
                        "        self.has_gpu = torch.cuda.is_available()\n"
                        "    def test(self):\n"
                        "        if self.has_gpu:\n"
                        "            y = 2\n"
                        "class B:\n"
                        "    has_gpu = 1\n";
  EXPECT_EQ("kkkkkkbbb", shape(InClass, {"cuda"}));
  // Several names, each in its own function (only the uses in range count,
  // as whole words: not `x_accel`, `accels`, or `dev` in `device`), and
  // one at module level, which counts to the end.
  const char *Several = "def f():\n"
                        "    accel = torch.cuda.is_available()\n"
                        "    dev = 'cuda'\n"
                        "    y = x_accel + accels + device\n"
                        "    w = dev\n"
                        "def g():\n"
                        "    if accel or dev or units:\n"
                        "        pass\n"
                        "units = torch.cuda.device_count()\n"
                        "def h():\n"
                        "    return units\n";
  EXPECT_EQ("kkkbkbbbkkkb", shape(Several, {"cuda"}));
  // A name that a module-level `if` on a check binds: its uses before the
  // `if` too (the review reads every use outside the statements that bind it).
  const char *Bound = "x = 1\n"
                      "opt = make(model.parameters())\n"
                      "y = 2\n"
                      "w = 3\n"
                      "if torch.cuda.is_available():\n"
                      "    model = net.cuda()\n"
                      "z = model\n";
  EXPECT_EQ("kkbkkkkb", shape(Bound, {"cuda"}));
}

/// `for VAR in NAME:` over a name an anchored statement assigns: VAR's uses
/// in the loop (its `else` too) are kept, as the review follows them
/// (cudaKeywordThroughName()); not after the loop, nor for a loop over
/// anything else.
TEST(Regions, ALoopOverAnAssignedNameIsFollowed) {
  const char *Text = "def f(m):\n"
                     "    options = [1, 0] if torch.cuda.is_available() else [0]\n"
                     "    for flag in options:\n"
                     "        a = 1\n"
                     "        m = g(\n"
                     "            gpu=flag,\n"
                     "        )\n"
                     "    else:\n"
                     "        h(flag)\n"
                     "    z = flag\n"
                     "    for flag in range(3):\n"
                     "        k(flag)\n";
  EXPECT_EQ("kkkbkkkkkbbbb", shape(Text, {"cuda"}));
}

/// What the review reads of a test (Review.cpp, unskippedTest()): the
/// conditions and asserts that say an accelerator, with the last statement of
/// their blocks, in a test, at module level or in a module-level `if`, and a
/// module's `pytestmark`, anchored or not.
TEST(Regions, ConditionsThatSayAnAcceleratorAreKeptForTheReview) {
  const char *Text = "import pytest\n"
                     "x = 0\n"
                     "pytestmark = pytest.mark.skipif(not HAS_GPU, reason='x')\n"
                     "def test_a():\n"
                     "    if not HAS_GPU:\n"
                     "        print('no')\n"
                     "        pytest.skip('x')\n"
                     "    assert has_cuda\n"
                     "    y = 1\n"
                     "    d = torch.device('cuda')\n"
                     "    if other:\n"
                     "        z = 2\n"
                     "def helper():\n"
                     "    if not HAS_GPU:\n"
                     "        return\n"
                     "if __name__ == '__main__':\n"
                     "    if HAS_CUDA and big:\n"
                     "        setup()\n"
                     "        run_tests()\n";
  // Not in a function that is no test: the review reads no test there.
  EXPECT_EQ("kkkkkbkkbkbbbbbkkbkb", shape(Text, {"cuda"}));
}

/// The names that anchored statements assign are searched for one by one
/// up to MaxNamesSearched, and by a pass over the identifiers of their
/// ranges beyond: both find the same uses.
TEST(Regions, ManyAssignedNamesAreFollowedAsAFewAre) {
  for (int Names : {3, 12}) {
    std::string Text = "def f():\n";
    std::string Want = "k";
    for (int I = 0; I < Names; ++I) {
      Text += "    n" + std::to_string(I) + " = torch.cuda.is_available()\n";
      Want += 'k';
    }
    for (int I = 0; I < Names; ++I) {
      std::string N = "n" + std::to_string(I);
      Text += "    a = " + N + "\n";               // a use
      Text += "    b = x_" + N + "\n";             // not the whole word
      Text += "    c = " + N + "z + " + N + "_\n"; // nor these
      Want += "kbb";
    }
    Text += "def g():\n    d = n0\n"; // outside f
    Want += "bbb";
    EXPECT_EQ(Want, shape(Text, {"cuda"})) << Names << " names";
  }
}

TEST(Regions, DefinitionNamesCommentsAndStringsAreNotAnchorsButStay) {
  const char *Text = "class T:\n"
                     "    def test_cuda(self):  # cuda\n"
                     "        x = 1\n"
                     "    # about cuda\n"
                     "    def g(self, device='cuda'):\n"
                     "        y = 2\n"
                     "    z = 3  # cuda\n";
  // A def whose parameters hold one is kept whole (a default is evaluated
  // once); a comment stays where it is, the code before it blanked.
  EXPECT_EQ("k?bkkk?b", shape(Text, {"cuda"}));
}

/// The marks' offsets are the anchors in code; the comments come with them
/// as ranges (every comment, kept or not), not as offsets that would draw
/// the matcher's walk into the code around them.
TEST(Regions, MarksHoldAnchorsInCodeAndEveryComment) {
  std::string Text = "import torch\n"
                     "def f():  # on cuda\n"
                     "    x = 1  # devport: ignore[x]\n"
                     "    s = '# cuda'\n"
                     "    return x.cuda()\n";
  for (bool MarksOnly : {true, false}) {
    std::optional<RegionText> R =
        maskRegions(Text, anchorsOf(Text, {"cuda", "devport:"}), torchRules(), MarksOnly);
    ASSERT_TRUE(R);
    // `cuda` in the string and in the call; not those in the comments.
    std::vector<uint32_t> Want = {static_cast<uint32_t>(Text.find("cuda'")),
                                  static_cast<uint32_t>(Text.find("cuda()"))};
    EXPECT_EQ(Want, R->Marks.Offsets);
    size_t C1 = Text.find("# on"), C2 = Text.find("# devport");
    std::vector<ByteRange> Comments = {
        {static_cast<uint32_t>(C1), static_cast<uint32_t>(Text.find('\n', C1))},
        {static_cast<uint32_t>(C2), static_cast<uint32_t>(Text.find('\n', C2))}};
    ASSERT_EQ(2u, R->Marks.Comments.size());
    for (size_t I = 0; I < 2; ++I) {
      EXPECT_EQ(Comments[I].Begin, R->Marks.Comments[I].Begin);
      EXPECT_EQ(Comments[I].End, R->Marks.Comments[I].End);
    }
  }
}

TEST(Regions, WordsOnlyInCommentsLeaveNothingToMatch) {
  const char *Text = "import torch\n"
                     "# runs on cuda too\n"
                     "x = torch.zeros(2)\n";
  std::optional<RegionText> R = maskRegions(Text, anchorsOf(Text, {"cuda"}), torchRules());
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->NothingToMatch);
  // A directive is checked even then (an unknown rule id in it is a finding).
  std::string WithDirective = std::string(Text) + "y = 1  # devport: ignore[nope]\n";
  R = maskRegions(WithDirective, anchorsOf(WithDirective, {"cuda", "devport:"}), torchRules());
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->NothingToMatch);
  // A string is code.
  const char *InString = "import torch\nx = 1\ny = 2\nd = 'cuda'\n";
  R = maskRegions(InString, anchorsOf(InString, {"cuda"}), torchRules());
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->NothingToMatch);
}

TEST(Regions, ProseIsNoHitButDoctestsFStringsStringValuesAndCodeAre) {
  const char *Text = "import torch\n"
                     "def f():\n"
                     "    \"\"\"Runs on cuda.\n"
                     "    Then on cuda again.\"\"\"\n"
                     "    x = 1\n"
                     "    'cuda ' \\\n"
                     "        r'too'  # cuda\n"
                     "def g():\n"
                     "    '''>>> x.cuda()'''\n"
                     "    f'{torch.cuda.current_device()}'\n"
                     "    'cuda:{}'.format(i)\n"
                     "    'a'; y = 'cuda'\n";
  // The docstring and the concatenated strings of f() are prose: f() keeps
  // only its header (the module's first statement), with a `0` for a block;
  // g()'s doctest, f-string, method call and `;` are code.
  EXPECT_EQ("kk0bbb?kkkkkb", shape(Text, {"cuda"}));
  std::optional<RegionText> R = maskRegions(Text, anchorsOf(Text, {"cuda"}), torchRules());
  ASSERT_TRUE(R);
  llvm::StringRef T(Text);
  for (uint32_t A : R->Marks.Offsets)
    EXPECT_GT(A, T.find("def g")) << "a mark in prose at " << A;
  // A file whose words are all in prose has nothing to match.
  const char *OnlyProse = "import torch\n"
                          "'''Works with cuda.'''\n"
                          "x = torch.zeros(2)\n"
                          "y = x\n";
  R = maskRegions(OnlyProse, anchorsOf(OnlyProse, {"cuda"}), torchRules());
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->NothingToMatch);
  // A rule's string value in it (a pattern `"cpu:gloo,cuda:nccl"` matches
  // such a statement), or a rule whose pattern may match any string: kept.
  RegionRules Values = torchRules();
  Values.StringValues.push_back("cpu:gloo,cuda:nccl");
  const char *Value = "import torch\n"
                      "x = 1\n"
                      "'cpu:gloo,cuda:nccl'\n"
                      "y = 2\n";
  EXPECT_EQ("kkbbb", shape(Value, {"cuda"}));
  EXPECT_EQ("kkkbb", shape(Value, {"cuda"}, Values));
  RegionRules Strings = torchRules();
  Strings.MatchesStrings = true;
  R = maskRegions(OnlyProse, anchorsOf(OnlyProse, {"cuda"}), Strings);
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->NothingToMatch);
}

/// Rules whose word 0, `cuda`, is a name, the value of a string pattern
/// and required by a regex of one quoted string; whose word 1, `_cuda`, a
/// regex of another shape requires; whose word 2, `device`, is a name; and
/// whose word 3, `nccl:`, is only the value of a string pattern.
RegionRules stringRules() {
  RegionRules R = torchRules();
  R.WordUses.resize(4);
  R.WordUses[0].Length = 4;
  R.WordUses[0].InCode = WordUse::Code::Name;
  R.WordUses[0].Values = {"cuda"};
  const char *Re = "^[uU]?([\"'])cuda(:[0-9]*)?[\"']$";
  R.WordUses[0].Regexes.push_back(
      {*quotedStringCharacters(Re), std::make_shared<const MemoRegex>(Re)});
  R.WordUses[1].Length = 5;
  R.WordUses[1].InCode = WordUse::Code::Anywhere;
  R.WordUses[1].Any = true;
  R.WordUses[2].Length = 6;
  R.WordUses[2].InCode = WordUse::Code::Name;
  R.WordUses[3].Length = 5;
  R.WordUses[3].InCode = WordUse::Code::Nowhere;
  R.WordUses[3].Values = {"nccl:x"};
  R.WordUses.resize(6);
  R.WordUses[4].Length = 4; // `_cux`, which a regex `^_cux` requires
  R.WordUses[4].InCode = WordUse::Code::NameStart;
  R.WordUses[5].Length = 5; // `patch`, which a regex `patch$` requires
  R.WordUses[5].InCode = WordUse::Code::NameEnd;
  return R;
}

/// One letter per line, as shape() (`k` kept, `b` blanked), with each
/// anchor's word: `cuda` (0), `_cuda` (1), `device` (2), `nccl:` (3),
/// `_cux` (4) or `patch` (5).
std::string stringShape(llvm::StringRef Text) {
  std::vector<std::pair<uint32_t, unsigned>> Found;
  llvm::StringRef Words[] = {"cuda", "_cuda", "device", "nccl:", "_cux", "patch"};
  for (unsigned W = 0; W < 6; ++W)
    for (size_t At = Text.find(Words[W]); At != llvm::StringRef::npos;
         At = Text.find(Words[W], At + 1))
      Found.push_back({static_cast<uint32_t>(At), W});
  llvm::sort(Found);
  std::vector<uint32_t> Anchors;
  std::vector<unsigned> Ids;
  for (auto [At, W] : Found) {
    Anchors.push_back(At);
    Ids.push_back(W);
  }
  std::optional<RegionText> R = maskRegions(Text, Anchors, stringRules(), false, Ids);
  if (!R)
    return "whole";
  if (R->NothingToMatch)
    return "nothing";
  llvm::SmallVector<llvm::StringRef, 32> Orig, Masked;
  Text.split(Orig, '\n');
  llvm::StringRef(R->Text).split(Masked, '\n');
  std::string Out;
  for (size_t I = 0; I < Orig.size() && I < Masked.size(); ++I)
    Out += Masked[I] == Orig[I] && !Orig[I].trim().empty() ? 'k' : 'b';
  return Out;
}

TEST(Regions, AWordInCodeCountsAsAWholeNameOrAsItsPatternsSay) {
  // In code: a word of names as a whole name only (not in `usecuda`,
  // `devices`); a word that some regex finds anywhere, anywhere; a word of
  // string values, not at all. In an f-string, whatever the word.
  EXPECT_EQ("kkbkbkbkkbkb", stringShape("import torch\n"
                                        "x = 1\n"
                                        "usecuda = cuda2 = 1\n"
                                        "a = x.cuda()\n"
                                        "devices = 2\n"
                                        "b = torch._cuda_x()\n"
                                        "d = {nccl: 1}\n"
                                        "e = f'{usecuda}'\n"
                                        "g = device\n"
                                        "h = 3\n"
                                        "i = 'nccl:x'\n"));
  // A word that a regex starts with, at the start of a name; one that it
  // ends with, at the end of one; neither in a string.
  EXPECT_EQ("kkkbkbkbb", stringShape("import torch\n"
                                     "x = 1\n"
                                     "a = _cux_y\n"
                                     "b = my_cux\n"
                                     "c = mock.patch(x)\n"
                                     "d = patched\n"
                                     "e = dispatch\n"
                                     "f = '_cux patch'\n"));
}

TEST(Regions, AWordInAStringCountsWhereAPatternCanFindItThere) {
  // Strings that no pattern can match: messages, names, other shapes.
  EXPECT_EQ("nothing", stringShape("import torch\n"
                                   "x = 1\n"
                                   "raise RuntimeError('cuda is not available')\n"
                                   "CUDA_MAP = {'cudaMalloc': 1, \"cudaFree\": 2}\n"
                                   "y = b'cuda'\n"
                                   "z = r'cuda:x'\n"
                                   "w = 'device' + \"devices\"\n"));
  // In code, in a string of a pattern's value or that the regex matches
  // (prefixes, quotes, `:0`), an f-string, a string after an f-string in
  // its line (a nested quote may end what the scan reads as a string), a
  // doctest, and a word that some regex finds in any string.
  EXPECT_EQ("kkkkkkkkkkkkbkb", stringShape("import torch\n"
                                           "x = 1\n"
                                           "a = x.cuda()\n"
                                           "b = 'cuda'\n"
                                           "c = u\"cuda\"\n"
                                           "d = r'cuda'\n"
                                           "e = 'cuda:0'\n"
                                           "f = '''cuda'''\n"
                                           "g = f'{x}cuda'\n"
                                           "h = f'{d[\"k\"]}' + 'a cuda'\n"
                                           "i = 'see >>> x.cuda()'\n"
                                           "j = 'torch._cuda_getDevice'\n"
                                           "k = 2\n"
                                           "l = device\n"));
  // Without the words of the anchors (or the rules' WordUses), every
  // occurrence outside comments counts, as before.
  const char *Text = "import torch\nx = 1\ny = 'no cuda here'\nz = 2\n";
  std::vector<uint32_t> Anchors = {static_cast<uint32_t>(llvm::StringRef(Text).find("cuda"))};
  std::optional<RegionText> R = maskRegions(Text, Anchors, stringRules());
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->NothingToMatch);
  std::vector<unsigned> Ids = {0};
  R = maskRegions(Text, Anchors, torchRules(), false, Ids);
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->NothingToMatch);
  R = maskRegions(Text, Anchors, stringRules(), false, Ids);
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->NothingToMatch);
  // The editor's marks leave it out as well.
  R = maskRegions(Text, Anchors, stringRules(), true, Ids);
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->Marks.Offsets.empty());
}

using test::pythonTable;

TEST(Regions, ATableIsParsedInItsElementsThatHoldAMark) {
  auto Plain = [](int I) {
    return "OpInfo('op" + std::to_string(I) + "',\n        dtypes=(1, 2, 3),\n        x=None)";
  };
  auto Mixed = [&](int I) {
    return I % 10 == 3 ? "DecorateInfo(skip, 'Test', device_type='cuda')" : Plain(I);
  };
  std::string Text =
      "import torch\nx = 1\n" + pythonTable("op_db: List[OpInfo] = [", 100, Mixed, "]") + "y = 2\n";
  std::optional<RegionText> R = maskRegions(Text, anchorsOf(Text, {"cuda"}), torchRules());
  ASSERT_TRUE(R);
  llvm::StringRef M(R->Text);
  // Every element with the word is as in the file; each other one is a `0`
  // at its end: the list has its 100 elements.
  EXPECT_EQ(10u, M.count("device_type='cuda'"));
  EXPECT_EQ(0u, M.count("OpInfo("));
  EXPECT_EQ(90u, M.count(" 0,\n"));
  EXPECT_TRUE(M.contains("op_db: List[OpInfo] = ["));
  ASSERT_EQ(M.size(), Text.size());
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n' || M[I] != ' ')
      ASSERT_TRUE(M[I] == Text[I] || M[I] == '0') << "at " << I;
  // The parser reads the lines that hold something: not the first two of
  // each element left out (but for the 64 ranges' smallest gaps).
  size_t Read = 0;
  for (const ByteRange &X : R->Ranges)
    Read += llvm::StringRef(Text).slice(X.Begin, X.End).count('\n');
  EXPECT_LT(Read, 200u);
  EXPECT_GT(R->Ranges.size(), 30u);

  // A dict: its pairs become `0:0`; `**more` and a walrus stay.
  auto Pairs = [](int I) {
    if (I == 7)
      return std::string("**more");
    if (I == 8)
      return std::string("'w': (w := 2)");
    return I % 10 == 3 ? "'k" + std::to_string(I) + "': 'cuda'"
                       : "'k" + std::to_string(I) + "': ('hip', 1, 2, 3, 4, 5, 6, 7)";
  };
  std::string Dict = "import torch\nx = 1\n" + pythonTable("MAP = {", 100, Pairs, "}") + "y = 2\n";
  R = maskRegions(Dict, anchorsOf(Dict, {"cuda"}), torchRules());
  ASSERT_TRUE(R);
  M = R->Text;
  EXPECT_EQ(10u, M.count(": 'cuda'"));
  EXPECT_EQ(88u, M.count("0:0"));
  EXPECT_TRUE(M.contains("**more"));
  EXPECT_TRUE(M.contains("(w := 2)"));

  // Parsed whole: too small; not at module level; a lambda whose parameters'
  // commas are the table's; more after the brackets; the rules forbid it; a
  // pattern matches such containers with as many elements or with `$$$`.
  auto Whole = [&](const std::string &T, const RegionRules &Rules = torchRules()) {
    std::optional<RegionText> W = maskRegions(T, anchorsOf(T, {"cuda"}), Rules);
    return W && llvm::StringRef(W->Text).count("OpInfo(") == llvm::StringRef(T).count("OpInfo(");
  };
  EXPECT_FALSE(Whole(Text));
  EXPECT_FALSE(
      Whole("import torch\nx = 1\n" + pythonTable("op_db = [", 100, Mixed, "]") + "y = 2\n"));
  EXPECT_TRUE(
      Whole("import torch\nx = 1\n" + pythonTable("op_db = [", 10, Mixed, "]") + "y = 2\n"));
  EXPECT_TRUE(Whole("def f():\n    x = 1\n" + pythonTable("    op_db = [", 100, Mixed, "    ]")));
  EXPECT_TRUE(Whole("import torch\nx = 1\n" +
                    pythonTable("op_db = [lambda a, b: a,", 100, Mixed, "]") + "y = 2\n"));
  EXPECT_TRUE(Whole("import torch\nx = 1\n" + pythonTable("op_db = [", 100, Mixed, "] + more") +
                    "y = 2\n"));
  RegionRules No = torchRules();
  No.TablesSplit = false;
  EXPECT_TRUE(
      Whole("import torch\nx = 1\n" + pythonTable("op_db = [", 100, Mixed, "]") + "y = 2\n", No));
  RegionRules Lists = torchRules();
  Lists.ContainerArity["list"] = 100;
  std::string Plain100 =
      "import torch\nx = 1\n" + pythonTable("op_db = [", 100, Mixed, "]") + "y = 2\n";
  EXPECT_TRUE(Whole(Plain100, Lists));
  Lists.ContainerArity["list"] = 99;
  EXPECT_FALSE(Whole(Plain100, Lists));
}

TEST(Regions, AnImportWithinALineBindsItsNames) {
  // After a `;`, and where tree-sitter ends a statement that Python does not
  // (a number before `from`: an error, then an import): the alias's use is
  // kept as an import's alias is (fuzz/regressions/python-engine/
  // lsp-import-after-number-and-space-5c7d8d50).
  EXPECT_EQ("kbbkb", shape("x = 1; from torch.cuda import device_count as dc\n"
                           "y = 2\n"
                           "z = 3\n"
                           "n = dc()\n",
                           {"cuda"}));
  EXPECT_EQ("kkbkb", shape("x = 1\n"
                           "1 from torch.cuda import device_count as dc\n"
                           "z = 3\n"
                           "n = dc()\n",
                           {"cuda"}));
  // `from` of another statement binds nothing.
  EXPECT_EQ("kkbbb", shape("x = 1\n"
                           "raise E from torch.cuda\n"
                           "z = 3\n"
                           "n = dc()\n",
                           {"cuda"}));
  // A line of more `import`s than are read, which is no Python: the whole
  // file (each would be read to the line's end).
  std::string Many = "x = 1\ny = [";
  for (int I = 0; I < 65; ++I)
    Many += "a import b, ";
  Many += "]\nz = torch.cuda.x\nw = 2\n";
  EXPECT_EQ("whole", shape(Many, {"cuda"}));
  Many = "x = 1\ny = [";
  for (int I = 0; I < 64; ++I)
    Many += "a import b, ";
  Many += "]\nz = torch.cuda.x\nw = 2\n";
  EXPECT_EQ("kbkbb", shape(Many, {"cuda"}));
}

TEST(Regions, AmbiguousLayoutsAreParsedWhole) {
  EXPECT_EQ("whole", shape("x = 'cuda\ny = 1\n", {"cuda"}));           // unterminated string
  EXPECT_EQ("whole", shape("x = (1,\ny = 'cuda'\n", {"cuda"}));        // unclosed bracket
  EXPECT_EQ("whole", shape("x = 1\ry = 'cuda'\nz = 2\n", {"cuda"}));   // a lone CR
  EXPECT_EQ("whole", shape("if a:\n        x = 1\n    y = 'cuda'\nz = 1\n", {"cuda"})); // dedent
  EXPECT_EQ("whole", shape("if a:\ny = 'cuda'\nz = 1\n", {"cuda"}));   // no block
  EXPECT_EQ("whole", shape("y = 'cuda'\nz = torch.cuda.x\n", {"cuda"})); // nothing to leave out
  // A number that runs into a name: tree-sitter reads an import after the
  // `1` (fuzz/regressions/python-engine/region-import-after-number-95676482).
  EXPECT_EQ("whole",
            shape("1from torch.cuda import nvtx\nx = 1\nnvtx.range_push('a')\n", {"range_push"}));
  EXPECT_EQ("whole", shape("y = 1if a else 2\nx = 1\nz = 'cuda'\n", {"cuda"}));
  // A line that ends where no statement can (after `.`, an operator, a
  // keyword such as `and`): Python stops there with an error, tree-sitter
  // reads on into the next line without one (`torch.cues.` then
  // `torch.distributed.is_nccl_available()` is one call to it: fuzz/
  // regressions/python-engine/region-check-dangling-dot-28ebd214).
  for (const char *End : {"torch.cues.", "x = a +", "x = a and", "x = 1 if a else", "x =", "@",
                          "del", "from m import", "y = a[1] *"})
    EXPECT_EQ("whole", shape(std::string("x = 1\n") + End + "\nz = 'cuda'\nw = 2\n", {"cuda"}))
        << End;
  // A character that no token has (a line of prose outside its docstring:
  // tree-sitter's recovery took in the next statement, whose fix the whole
  // file's parse dropped for the syntax error around it).
  for (const char *Prose :
       {"the model moved by `.to(rank)`, the", "costs $5", "why? because", "run !pip"})
    EXPECT_EQ("whole", shape(std::string("x = 1\n") + Prose + "\nz = 'cuda'\nw = 2\n", {"cuda"}))
        << Prose;
  EXPECT_EQ("kbkbb", shape("x = 1 != 2\ny = 1\nz = 'cuda'\nw = 2\n", {"cuda"})); // `!=` is one
  // Lines that do end there: a name, a literal, a closing bracket, `,`,
  // `;`, `...`, a star import, a keyword that ends a statement.
  EXPECT_EQ("kbbbbbkbbkb", shape("x = a.b\ny = 1.\nz = f(a)\nt = 1,\nu = 2;\nv = ...\n"
                                 "from m import *\nreturn\nyield\nw = 'cuda'\n",
                                 {"cuda"}));
  // Numbers are numbers: hex, octal, binary, underscores, exponents, complex.
  EXPECT_EQ("kbkb", shape("y = 0x1F + 0o17 + 0b1 + 1_000 + 1.5e-3 + 2j + .5E2\nx = 1\n"
                          "z = 'cuda'\n",
                          {"cuda"}));
}

TEST(Regions, TripleQuotedStringsEndAtTheirUnescapedQuotes) {
  // An escaped quote, a lone quote of the other kind and an escaped
  // backslash before the closing quotes; a string over lines that ends in
  // the first column.
  const char *Text = R"(def f():
    """a \""" b ' c \\"""
    y = '''x
    \''' z''' + '''
'''
    x = torch.cuda.x
)";
  // The docstring is not the module's first statement (the def is).
  EXPECT_EQ("kbbbbkb", shape(Text, {"cuda"}));
}

TEST(Regions, CrlfAndTabsKeepTheirLayout) {
  const char *Text = "import torch\r\n"
                     "def f():\r\n"
                     "\tx = 1\r\n"
                     "\ty = 'cuda'\r\n";
  std::optional<RegionText> R = maskRegions(Text, anchorsOf(Text, {"cuda"}), torchRules());
  ASSERT_TRUE(R);
  EXPECT_EQ("import torch\r\ndef f():\r\n\t     \r\n\ty = 'cuda'\r\n", R->Text);
}

} // namespace
} // namespace devport::python
