//===--- BatchRunTest.cpp - Checking or fixing many files, streamed -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// runBatch over files in a temporary directory, with a Reporter that records
// what it is handed.
//
//===----------------------------------------------------------------------===//

#include "engine/BatchRun.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"
#include "tests/support/TestRules.h"

#include <gtest/gtest.h>

#include "llvm/Support/FileSystem.h"

#include <optional>
#include <sys/stat.h>

namespace devport {
namespace {

llvm::Expected<std::unique_ptr<Project>> projectWith(ProjectOptions O = ProjectOptions::forTest()) {
  auto Rules = test::loadRules({test::SynchronizeRule, test::IsAvailableRule});
  if (!Rules)
    return Rules.takeError();
  return Project::withRules(std::move(*Rules), std::move(O));
}

/// Records what a batch run hands it. Keeps copies, never the FileReport.
class RecordingReporter : public Reporter {
public:
  struct File {
    std::string Path;
    std::string Error;
    bool Read = false;
    size_t Findings = 0;
    bool Written = false;
    std::optional<std::string> FixedText;
  };

  void begin(size_t N) override {
    EXPECT_TRUE(Files.empty()) << "begin() after file()";
    Begun = N;
  }
  void file(const FileReport &R) override {
    EXPECT_FALSE(Finished.has_value()) << "file() after finish(): " << R.Path;
    File F;
    F.Path = R.Path;
    F.Error = R.Error;
    F.Read = R.File.has_value();
    F.Findings = R.Findings.size();
    F.Written = R.Written;
    if (R.Fixed)
      F.FixedText = R.Fixed->Text;
    Files.push_back(std::move(F));
  }
  void finish(const Summary &S) override {
    EXPECT_FALSE(Finished.has_value()) << "finish() called twice";
    Finished = S;
  }

  std::vector<std::string> paths() const {
    std::vector<std::string> Out;
    for (const File &F : Files)
      Out.push_back(F.Path);
    return Out;
  }

  std::vector<File> Files;
  std::optional<size_t> Begun;
  std::optional<Summary> Finished;
};

BatchOptions withThreads(unsigned N) {
  BatchOptions O = BatchOptions::forTest();
  O.Threads = N;
  return O;
}

TEST(BatchRun, FilesArriveInTheGivenOrderWhateverTheThreads) {
  test::TempDir D;
  // 64 files; the first ones are the largest, so that with threads the later
  // ones are done first. The paths are given in neither name nor size order.
  const unsigned N = 64;
  std::vector<std::string> Paths;
  size_t Findings = 0;
  for (unsigned I = 0; I < N; ++I) {
    unsigned K = (I * 37) % N;
    std::string Name = "f" + std::to_string(K) + ".py";
    std::string Text = "import torch\n";
    unsigned Calls = (N - I) * 30;
    for (unsigned C = 0; C < Calls; ++C)
      Text += "torch.cuda.synchronize()\n";
    D.write(Name, Text);
    Paths.push_back(D.path(Name));
    Findings += Calls;
  }
  std::vector<std::vector<RecordingReporter::File>> Runs;
  for (unsigned Threads : {1u, 4u}) {
    SCOPED_TRACE("threads: " + std::to_string(Threads));
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, withThreads(Threads), R));
    EXPECT_EQ(Paths, R.paths());
    ASSERT_TRUE(R.Finished.has_value());
    EXPECT_EQ(N, R.Finished->Files);
    EXPECT_EQ(Findings, R.Finished->Findings);
    EXPECT_EQ(Findings, R.Finished->Fixable);
    EXPECT_EQ(0u, R.Finished->Errors);
    EXPECT_EQ(R.Finished->Findings, S.Findings); // the Summary returned is the one passed
    Runs.push_back(R.Files);
  }
  ASSERT_EQ(2u, Runs.size());
  ASSERT_EQ(Runs[0].size(), Runs[1].size());
  for (size_t I = 0; I < Runs[0].size(); ++I)
    EXPECT_EQ(Runs[0][I].Findings, Runs[1][I].Findings) << Runs[0][I].Path;
}

TEST(BatchRun, ManyFilesWithLittleInFlightArriveInOrder) {
  // More files than this thread waits for at once (it sleeps until a batch
  // is done), with so small a byte budget that few are submitted ahead:
  // every file is reported, in order, and the run ends.
  test::TempDir D;
  const unsigned N = 300;
  std::vector<std::string> Paths;
  for (unsigned I = 0; I < N; ++I) {
    std::string Name = "m" + std::to_string((I * 7) % N) + ".py";
    D.write(Name, I % 3 ? "x = 1\n" : "import torch\ntorch.cuda.synchronize()\n");
    Paths.push_back(D.path(Name));
  }
  for (uint64_t InFlight : {uint64_t(1), uint64_t(0)}) {
    SCOPED_TRACE("in flight: " + std::to_string(InFlight));
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    RecordingReporter R;
    BatchOptions O = withThreads(3);
    O.MaxBytesInFlight = InFlight;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, O, R));
    EXPECT_EQ(Paths, R.paths());
    EXPECT_EQ(N, S.Files);
    EXPECT_EQ(N / 3, S.Findings);
  }
}

TEST(BatchRun, UnreadableFileIsAnErrorInItsReport) {
  test::TempDir D;
  D.write("a.py", "import torch\ntorch.cuda.synchronize()\n");
  D.write("bad.py", "import torch\nx = 'caf\xe9'\ntorch.cuda.synchronize()\n"); // Latin-1
  D.write("c.py", "import torch\nok = torch.cuda.is_available()\n");
  std::vector<std::string> Paths = {D.path("a.py"), D.path("bad.py"), D.path("c.py")};
  for (unsigned Threads : {1u, 4u}) {
    SCOPED_TRACE("threads: " + std::to_string(Threads));
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, withThreads(Threads), R));
    ASSERT_EQ(Paths, R.paths());
    EXPECT_TRUE(R.Files[0].Error.empty()) << R.Files[0].Error;
    EXPECT_EQ(1u, R.Files[0].Findings);
    EXPECT_FALSE(R.Files[1].Read);
    EXPECT_NE(std::string::npos, R.Files[1].Error.find("UTF-8")) << R.Files[1].Error;
    EXPECT_EQ(0u, R.Files[1].Findings);
    EXPECT_TRUE(R.Files[2].Error.empty()) << R.Files[2].Error;
    EXPECT_EQ(1u, R.Files[2].Findings);
    EXPECT_EQ(3u, S.Files);
    EXPECT_EQ(1u, S.Errors);
    EXPECT_EQ(2u, S.Findings);
    EXPECT_EQ(1u, S.Fixable);
  }
}

TEST(BatchRun, ConfigErrorStopsTheRunBeforeAnyFile) {
  test::TempDir D;
  D.write("a.py", "import torch\ntorch.cuda.synchronize()\n");
  D.write("sub/.devport.yaml", "target-torch: \"2.7\"\ncolour: blue\n");
  D.write("sub/b.py", "import torch\ntorch.cuda.synchronize()\n");
  for (unsigned Threads : {1u, 4u}) {
    SCOPED_TRACE("threads: " + std::to_string(Threads));
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    RecordingReporter R;
    auto S = runBatch(*P, {D.path("a.py"), D.path("sub/b.py")}, withThreads(Threads), R);
    ASSERT_FALSE(static_cast<bool>(S));
    std::string Err = llvm::toString(S.takeError());
    EXPECT_EQ(0u, Err.find(D.path("sub/.devport.yaml") + ":2:")) << Err;
    EXPECT_TRUE(R.Files.empty()); // not even a.py, which comes first
    EXPECT_FALSE(R.Finished.has_value());
  }
}

TEST(BatchRun, ConfigErrorStopsAFixBeforeAnyFileIsWritten) {
  // Every file's engine is looked up before any work starts: a bad
  // configuration met late in the list stops a writing fix, with threads or
  // without, before any of the 40 files before it is written.
  const std::string Dirty = "import torch\ntorch.cuda.synchronize()\n";
  test::TempDir D;
  std::vector<std::string> Paths;
  for (int I = 0; I < 40; ++I) {
    D.write("f" + std::to_string(I) + ".py", Dirty);
    Paths.push_back(D.path("f" + std::to_string(I) + ".py"));
  }
  D.write("sub/.devport.yaml", "colour: blue\n");
  D.write("sub/b.py", Dirty);
  Paths.push_back(D.path("sub/b.py"));
  for (unsigned Threads : {1u, 4u}) {
    SCOPED_TRACE("threads: " + std::to_string(Threads));
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    BatchOptions O = withThreads(Threads);
    O.Mode = BatchMode::Fix;
    O.Write = true;
    RecordingReporter R;
    auto S = runBatch(*P, Paths, O, R);
    ASSERT_FALSE(static_cast<bool>(S));
    llvm::consumeError(S.takeError());
    EXPECT_TRUE(R.Files.empty());
    for (int I = 0; I < 40; ++I)
      EXPECT_EQ(Dirty, D.read("f" + std::to_string(I) + ".py")) << I;
  }
}

TEST(BatchRun, ConfigErrorEndsACheckBeforeAnythingIsReported) {
  // A check's workers start on the files whose engine is known while later
  // ones are looked up: what they found is dropped when a lookup fails.
  test::TempDir D;
  std::vector<std::string> Paths;
  for (int I = 0; I < 300; ++I) {
    D.write("f" + std::to_string(I) + ".py", "import torch\ntorch.cuda.synchronize()\n");
    Paths.push_back(D.path("f" + std::to_string(I) + ".py"));
  }
  D.write("sub/.devport.yaml", "colour: blue\n");
  D.write("sub/b.py", "x = 1\n");
  Paths.push_back(D.path("sub/b.py"));
  for (unsigned Threads : {1u, 4u}) {
    SCOPED_TRACE("threads: " + std::to_string(Threads));
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    RecordingReporter R;
    auto S = runBatch(*P, Paths, withThreads(Threads), R);
    ASSERT_FALSE(static_cast<bool>(S));
    EXPECT_NE(std::string::npos, llvm::toString(S.takeError()).find("colour"));
    EXPECT_FALSE(R.Begun);
    EXPECT_TRUE(R.Files.empty());
  }
}

TEST(BatchRun, ExcludedFilesAmongManyAreSkippedWhateverTheThreads) {
  // Excluded files met while the workers have started on earlier ones.
  test::TempDir D;
  D.write("gen/.devport.yaml", "exclude: [\"x*.py\"]\n");
  std::vector<std::string> Paths, Want;
  for (int I = 0; I < 200; ++I) {
    std::string Name = (I % 3 == 0 ? "gen/x" : "gen/y") + std::to_string(I) + ".py";
    D.write(Name, "import torch\ntorch.cuda.synchronize()\n");
    Paths.push_back(D.path(Name));
    if (I % 3 != 0)
      Want.push_back(Paths.back());
  }
  for (unsigned Threads : {1u, 4u}) {
    SCOPED_TRACE("threads: " + std::to_string(Threads));
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, withThreads(Threads), R));
    EXPECT_EQ(Want, R.paths());
    EXPECT_EQ(std::optional<size_t>(Want.size()), R.Begun);
    EXPECT_EQ(Want.size(), S.Files);
    EXPECT_EQ(Want.size(), S.Findings);
  }
}

TEST(BatchRun, ExcludedFilesAreSkippedAndNotCounted) {
  test::TempDir D;
  D.write(".devport.yaml", "exclude: [\"gen/\"]\n");
  D.write("a.py", "import torch\ntorch.cuda.synchronize()\n");
  D.write("gen/b.py", "import torch\ntorch.cuda.synchronize()\n");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  RecordingReporter R;
  ASSERT_THAT_EXPECTED_VALUE(
      S, runBatch(*P, {D.path("gen/b.py"), D.path("a.py")}, BatchOptions::forTest(), R));
  EXPECT_EQ((std::vector<std::string>{D.path("a.py")}), R.paths());
  EXPECT_EQ(std::optional<size_t>(1), R.Begun); // begin() counts the files to come
  EXPECT_EQ(1u, S.Files);
  EXPECT_EQ(1u, S.Findings);
}

TEST(BatchRun, TheFilterRunsBeforeCountingAndReporting) {
  test::TempDir D;
  D.write("a.py", "import torch\ntorch.cuda.synchronize()\ntorch.cuda.synchronize()\n");
  D.write("b.py", "import torch\ntorch.cuda.synchronize()\n");
  for (unsigned Threads : {1u, 4u}) {
    SCOPED_TRACE("threads: " + std::to_string(Threads));
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    BatchOptions O = withThreads(Threads);
    std::vector<std::string> Seen;
    O.Filter = [&](FileReport &R) {
      Seen.push_back(R.Path);
      if (!R.Findings.empty())
        R.Findings.pop_back(); // drop the last finding of each file
    };
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, {D.path("a.py"), D.path("b.py")}, O, R));
    EXPECT_EQ((std::vector<std::string>{D.path("a.py"), D.path("b.py")}), Seen);
    ASSERT_EQ(2u, R.Files.size());
    EXPECT_EQ(1u, R.Files[0].Findings);
    EXPECT_EQ(0u, R.Files[1].Findings);
    EXPECT_EQ(1u, S.Findings);
    EXPECT_EQ(1u, S.Fixable);
  }
}

TEST(BatchRun, FixWithoutWriteWritesNothing) {
  const std::string Dirty = "import torch\ntorch.cuda.synchronize()\n";
  const std::string Fixed = "import torch\ntorch.accelerator.synchronize()\n";
  const std::string Clean = "import torch\nx = 1\n";
  test::TempDir D;
  D.write("dirty.py", Dirty);
  D.write("clean.py", Clean);
  std::vector<std::string> Paths = {D.path("clean.py"), D.path("dirty.py")};
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());

  BatchOptions O = BatchOptions::forTest();
  O.Mode = BatchMode::Fix;
  O.Write = false;
  {
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, O, R));
    EXPECT_EQ(Dirty, D.read("dirty.py"));
    EXPECT_EQ(Clean, D.read("clean.py"));
    EXPECT_TRUE(S.DiffNonEmpty);
    EXPECT_EQ(1u, S.Changed);
    EXPECT_EQ(1u, S.Applied);
    EXPECT_EQ(0u, S.Findings); // none left
    ASSERT_EQ(Paths, R.paths());
    EXPECT_FALSE(R.Files[1].Written);
    EXPECT_EQ(std::optional<std::string>(Fixed), R.Files[1].FixedText);
    EXPECT_EQ(std::optional<std::string>(Clean), R.Files[0].FixedText);
  }

  // For contrast: with Write the file is fixed in place and there is no
  // diff left to show.
  O.Write = true;
  {
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, O, R));
    EXPECT_EQ(Fixed, D.read("dirty.py"));
    EXPECT_EQ(Clean, D.read("clean.py"));
    EXPECT_FALSE(S.DiffNonEmpty);
    EXPECT_EQ(1u, S.Changed);
    ASSERT_EQ(Paths, R.paths());
    EXPECT_TRUE(R.Files[1].Written);
    EXPECT_FALSE(R.Files[0].Written);
  }
}

TEST(BatchRun, AFileThatCannotBeWrittenIsReportedAsItIsOnDisk) {
  // Never "applied" for a file left as it was: its findings are counted as
  // left, with the error.
  const std::string Dirty = "import torch\ntorch.cuda.synchronize()\n";
  test::TempDir D;
  D.write("ro.py", Dirty);
  D.write("rw.py", Dirty);
  ASSERT_EQ(0, ::chmod(D.path("ro.py").c_str(), 0444));
  std::vector<std::string> Paths = {D.path("ro.py"), D.path("rw.py")};
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  for (unsigned Threads : {1u, 4u}) {
    D.write("rw.py", Dirty);
    BatchOptions O = withThreads(Threads);
    O.Mode = BatchMode::Fix;
    O.Write = true;
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, O, R));
    EXPECT_EQ(Dirty, D.read("ro.py"));
    EXPECT_EQ("import torch\ntorch.accelerator.synchronize()\n", D.read("rw.py"));
    ASSERT_EQ(Paths, R.paths());
    EXPECT_EQ(D.path("ro.py") + ": read-only (mode 0444): no write permission; not written",
              R.Files[0].Error);
    EXPECT_FALSE(R.Files[0].Written);
    EXPECT_EQ(std::nullopt, R.Files[0].FixedText);
    EXPECT_EQ(1u, R.Files[0].Findings);
    EXPECT_TRUE(R.Files[1].Written);
    EXPECT_EQ(1u, S.Applied);
    EXPECT_EQ(1u, S.Changed);
    EXPECT_EQ(1u, S.NotWritten);
    EXPECT_EQ(1u, S.Errors);
    EXPECT_EQ(1u, S.Findings);
  }
}

TEST(BatchRun, ASymlinkToAFileOutsideTheWriteRootsIsNotWritten) {
  const std::string Dirty = "import torch\ntorch.cuda.synchronize()\n";
  test::TempDir D;
  D.write("outside/o.py", Dirty);
  D.symlink("../outside/o.py", "tree/link.py");
  std::vector<std::string> Paths = {D.path("tree/link.py")};
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  BatchOptions O = BatchOptions::forTest();
  O.Mode = BatchMode::Fix;
  O.Write = true;
  O.WriteRoots = {D.path("tree")};
  {
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, O, R));
    EXPECT_EQ(Dirty, D.read("outside/o.py"));
    EXPECT_EQ(D.path("tree/link.py") + ": a symbolic link to " + D.path("outside/o.py") +
                  ", outside the paths given; not written (name it on the command line to fix "
                  "it)",
              R.Files[0].Error);
    EXPECT_EQ(1u, S.NotWritten);
  }
  // A root may be the file itself, or a directory above it.
  for (const std::string &Root : {D.path("outside/o.py"), D.path()}) {
    D.write("outside/o.py", Dirty);
    O.WriteRoots = {D.path("tree"), Root};
    RecordingReporter R;
    ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, Paths, O, R));
    EXPECT_EQ("", R.Files[0].Error) << Root;
    EXPECT_EQ("import torch\ntorch.accelerator.synchronize()\n", D.read("outside/o.py"));
    EXPECT_TRUE(llvm::sys::fs::is_symlink_file(D.path("tree/link.py")));
  }
}

TEST(BatchRun, DirectoriesThatCouldNotBeWalkedAreErrorsReportedFirst) {
  test::TempDir D;
  D.write("a.py", "x = 1\n");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  BatchOptions O = BatchOptions::forTest();
  O.WalkErrors = {{"locked", "locked: cannot read directory: permission denied"}};
  RecordingReporter R;
  ASSERT_THAT_EXPECTED_VALUE(S, runBatch(*P, {D.path("a.py")}, O, R));
  EXPECT_EQ((std::vector<std::string>{"locked", D.path("a.py")}), R.paths());
  EXPECT_EQ("locked: cannot read directory: permission denied", R.Files[0].Error);
  EXPECT_FALSE(R.Files[0].Read);
  EXPECT_EQ(std::optional<size_t>(2), R.Begun);
  EXPECT_EQ(1u, S.Errors);
  EXPECT_EQ(1u, S.Files);
}

/// A rule whose fix depends on the release: set_device_index from 2.7,
/// set_device_idx from 2.5.
const char *const SetDeviceRule = R"yaml(id: cuda-set-device
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.set_device()` selects a CUDA device only"
pattern: torch.cuda.set_device($DEV)
fix:
  - since: "2.7"
    template: torch.accelerator.set_device_index($DEV)
  - since: "2.5"
    template: torch.accelerator.set_device_idx($DEV)
)yaml";

/// The summary of a run over Paths with the target given as Target.
llvm::Expected<Summary> summaryOf(llvm::ArrayRef<std::string> Paths,
                                  std::optional<TorchVersion> Target, BatchMode Mode) {
  auto Rules = test::loadRules({SetDeviceRule, test::SynchronizeRule});
  if (!Rules)
    return Rules.takeError();
  ProjectOptions O = ProjectOptions::forTest();
  O.Target = Target;
  auto P = Project::withRules(std::move(*Rules), std::move(O));
  BatchOptions B = BatchOptions::forTest();
  B.Mode = Mode;
  RecordingReporter R;
  return runBatch(*P, Paths, B, R);
}

TEST(BatchRun, SummaryHasEachTargetAndWhatTheFixesNeed) {
  test::TempDir D;
  D.mkdir(".git");
  D.write("old/pyproject.toml", "[project]\ndependencies = ['torch>=2.4']\n");
  D.write("old/a.py", "import torch\ntorch.cuda.set_device(0)\ntorch.cuda.synchronize()\n");
  D.write("old/b.py", "import torch\ntorch.cuda.synchronize()\n");
  D.write("new/requirements.txt", "torch>=2.6\n");
  D.write("new/c.py", "import torch\ntorch.cuda.set_device(1)\n");
  std::vector<std::string> Paths = {D.path("old/a.py"), D.path("old/b.py"), D.path("new/c.py")};

  for (BatchMode Mode : {BatchMode::Check, BatchMode::Fix}) {
    SCOPED_TRACE(Mode == BatchMode::Check ? "check" : "fix");
    // Each project's floor is its files' target; nothing is explicit, so
    // nothing needs a note.
    ASSERT_THAT_EXPECTED_VALUE(S, summaryOf(Paths, std::nullopt, Mode));
    ASSERT_EQ(2u, S.Targets.size());
    EXPECT_EQ((TorchVersion{2, 4}), S.Target);
    EXPECT_EQ(TargetOrigin::Project, S.Targets[0].Target.Origin);
    EXPECT_EQ((TorchVersion{2, 4}), S.Targets[0].Target.Release);
    EXPECT_EQ(2u, S.Targets[0].Files);
    EXPECT_FALSE(S.Targets[0].FixesNeed.has_value());
    EXPECT_EQ((TorchVersion{2, 6}), S.Targets[1].Target.Release);
    EXPECT_EQ(1u, S.Targets[1].Files);
    EXPECT_FALSE(S.Targets[1].FixesNeed.has_value());

    // An explicit 2.9: set_device_index needs 2.7, above both floors;
    // synchronize's fix (2.6) is above the old project's floor only.
    ASSERT_THAT_EXPECTED_VALUE(S29, summaryOf(Paths, TorchVersion{2, 9}, Mode));
    ASSERT_EQ(2u, S29.Targets.size());
    EXPECT_EQ(TargetOrigin::CommandLine, S29.Targets[0].Target.Origin);
    ASSERT_TRUE(S29.Targets[0].FixesNeed.has_value());
    EXPECT_EQ((TorchVersion{2, 7}), S29.Targets[0].FixesNeed->Release);
    EXPECT_EQ("cuda-set-device", S29.Targets[0].FixesNeed->RuleId);
    ASSERT_TRUE(S29.Targets[1].FixesNeed.has_value());
    EXPECT_EQ((TorchVersion{2, 7}), S29.Targets[1].FixesNeed->Release);

    // An explicit 2.6: set_device_idx (2.5) and synchronize (2.6) for the
    // old project; nothing above 2.6 for the new one.
    ASSERT_THAT_EXPECTED_VALUE(S26, summaryOf(Paths, TorchVersion{2, 6}, Mode));
    ASSERT_EQ(2u, S26.Targets.size());
    ASSERT_TRUE(S26.Targets[0].FixesNeed.has_value());
    EXPECT_EQ((TorchVersion{2, 6}), S26.Targets[0].FixesNeed->Release);
    EXPECT_EQ("cuda-synchronize", S26.Targets[0].FixesNeed->RuleId);
    EXPECT_FALSE(S26.Targets[1].FixesNeed.has_value());
  }

  // Only the files with a fix count: b.py alone needs 2.6 (synchronize).
  ASSERT_THAT_EXPECTED_VALUE(B, summaryOf({D.path("old/b.py")}, TorchVersion{2, 9},
                                          BatchMode::Fix));
  ASSERT_EQ(1u, B.Targets.size());
  ASSERT_TRUE(B.Targets[0].FixesNeed.has_value());
  EXPECT_EQ((TorchVersion{2, 6}), B.Targets[0].FixesNeed->Release);

  // No file: the front end's target or the default, once.
  ASSERT_THAT_EXPECTED_VALUE(None, summaryOf({}, std::nullopt, BatchMode::Check));
  ASSERT_EQ(1u, None.Targets.size());
  EXPECT_EQ(TargetOrigin::Default, None.Targets[0].Target.Origin);
  EXPECT_EQ(0u, None.Targets[0].Files);
}

} // namespace
} // namespace devport
