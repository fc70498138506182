//===--- BatchRun.cpp - Checking or fixing many files, streamed -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "engine/BatchRun.h"

#include "rewriters/AtomicWrite.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace devport {

namespace {

/// The source bytes being worked on; acquire() waits while a file would
/// take them over the limit, unless nothing else is in flight.
class ByteBudget {
public:
  explicit ByteBudget(uint64_t Limit) : Limit(Limit) {}
  void acquire(uint64_t N) {
    std::unique_lock<std::mutex> Lock(M);
    Freed.wait(Lock, [&] { return InUse == 0 || InUse + N <= Limit; });
    InUse += N;
  }
  void release(uint64_t N) {
    {
      std::lock_guard<std::mutex> Lock(M);
      InUse -= N;
    }
    Freed.notify_all();
  }

private:
  const uint64_t Limit;
  std::mutex M;
  std::condition_variable Freed;
  uint64_t InUse = 0;
};

/// Gives freed heap memory back to the system after a large file, with
/// Threads workers. Each thread allocates from its own glibc arena, which
/// keeps its peak: without this the run's footprint grows with the thread
/// count. What the arenas keep is about Threads times the peak of a file
/// under the limit, so the limit shrinks as threads are added: 128 KiB
/// (whose trees took some 4 MB) from 16 threads on, 1 MiB with two. A trim
/// reads every arena and gives pages back one range at a time: after every
/// file of 128 KiB it was some 7% of a two-thread run's CPU time.
void releaseFreeMemoryAfter(uint64_t Bytes, unsigned Threads) {
#if defined(__GLIBC__)
  uint64_t Large = std::max<uint64_t>(128u << 10, (2u << 20) / std::max(Threads, 1u));
  if (Bytes >= Large)
    malloc_trim(0);
#else
  (void)Bytes;
  (void)Threads;
#endif
}

/// The higher of two needs (the first on a tie).
void merge(std::optional<FixNeed> &Into, std::optional<FixNeed> N) {
  if (N && (!Into || Into->Release < N->Release))
    Into = std::move(N);
}

void process(const Engine &E, FileReport &R, BatchMode Mode, std::optional<TorchVersion> Floor) {
  if (Mode == BatchMode::Check) {
    CheckResult C = E.checkAll(*R.File);
    R.Findings = std::move(C.Findings);
    R.Kept = std::move(C.Kept);
    R.Suppressed = std::move(C.Suppressed);
    if (Floor)
      R.FixesNeed = fixesNeed(E, R.Findings, *Floor);
    return;
  }
  R.Fixed = E.fix(*R.File);
  R.Findings = std::move(R.Fixed->Remaining);
  R.Fixed->Remaining.clear();
  if (!Floor)
    return;
  // The fixes offered are those of the findings left, and fix() lists the
  // rules of those it applied.
  R.FixesNeed = fixesNeed(E, R.Findings, *Floor);
  merge(R.FixesNeed, rulesFixesNeed(E, R.Fixed->AppliedRules, *Floor));
}

/// Is the real path of Path (symlinks resolved) one of Roots or under one?
/// Sets Real to it.
bool insideRoots(const std::string &Path, llvm::ArrayRef<std::string> Roots, std::string &Real) {
  llvm::SmallString<256> Buf;
  if (llvm::sys::fs::real_path(Path, Buf))
    return true; // writing it will say why
  Real = std::string(Buf.str());
  llvm::StringRef R = Real;
  return llvm::any_of(Roots, [&](const std::string &Root) {
    return R == Root || (R.startswith(Root) && (Root == "/" || R[Root.size()] == '/'));
  });
}

/// Writes R's fixed text to Path. On failure R becomes the report of check
/// on the file as it is, with the error.
void writeFixed(const Engine &E, FileReport &R, const std::string &Path, const BatchOptions &Opts,
                std::optional<TorchVersion> Floor) {
  std::string Real;
  llvm::Error Err = llvm::Error::success();
  if (!Opts.WriteRoots.empty() && !insideRoots(Path, Opts.WriteRoots, Real))
    Err = llvm::createStringError(llvm::inconvertibleErrorCode(),
                                  "%s: a symbolic link to %s, outside the paths given; not "
                                  "written (name it on the command line to fix it)",
                                  Path.c_str(), Real.c_str());
  else {
    // The hash of what was read, taken only now: a check never needs it (it
    // was a tenth of the lexical C++ engine's time).
    FileStamp Stamp = R.File->stamp();
    if (Stamp.Valid && !Stamp.ContentHash)
      Stamp.ContentHash = hashContent(R.File->text());
    Err = writeFileAtomically(Path, R.Fixed->Text, Stamp);
  }
  if (!Err) {
    R.Written = true;
    return;
  }
  R.Error = llvm::toString(std::move(Err));
  R.NotWritten = true;
  // Nothing was applied: what is left is what check finds.
  R.Fixed.reset();
  R.FixesNeed.reset();
  process(E, R, BatchMode::Check, Floor);
}

std::unique_ptr<FileReport> processPath(const Engine &E, const std::string &Path,
                                        const BatchOptions &Opts, std::optional<TorchVersion> Floor,
                                        llvm::function_ref<void(uint64_t)> BeforeRead = nullptr) {
  auto R = std::make_unique<FileReport>();
  R->Path = Path;
  auto F = SourceFile::read(Path, BeforeRead);
  if (!F) {
    R->Error = llvm::toString(F.takeError());
    return R;
  }
  R->File.emplace(std::move(*F));
  process(E, *R, Opts.Mode, Floor);
  if (Opts.Mode == BatchMode::Check && Opts.KeepFinding)
    llvm::erase_if(R->Findings,
                   [&](const Diagnostic &D) { return !Opts.KeepFinding(*R->File, D); });
  if (Opts.Mode == BatchMode::Fix && Opts.Write && R->Fixed && R->Fixed->changed(*R->File))
    writeFixed(E, *R, Path, Opts, Floor);
  // A file with nothing to report: its text is freed here, by the thread that
  // read it. Freed by the reporting thread, each went back to the reader's
  // malloc arena under that arena's lock, beside the reader's own work: 6% of
  // the CPU of a lexical C++ run over PyTorch (most files have no finding).
  if (R->Findings.empty() && R->Kept.empty() && R->Suppressed.empty() && !R->Fixed)
    R->File->forgetText();
  return R;
}

} // namespace

FileReport processBuffer(const Engine &E, SourceFile F, BatchMode Mode,
                         std::optional<TorchVersion> Floor) {
  FileReport R;
  R.Path = F.path();
  R.File.emplace(std::move(F));
  process(E, R, Mode, Floor);
  return R;
}

std::optional<FixNeed> rulesFixesNeed(const Engine &E, llvm::ArrayRef<std::string> RuleIds,
                                        TorchVersion Floor) {
  std::optional<FixNeed> Need;
  for (const std::string &Id : RuleIds) {
    const Rule *R = E.rules().find(Id);
    const RuleFix *F = R ? R->fixFor(E.options().Target) : nullptr;
    if (F && Floor < F->Since)
      merge(Need, FixNeed{F->Since, Id});
  }
  return Need;
}

std::optional<FixNeed> fixesNeed(const Engine &E, llvm::ArrayRef<Diagnostic> Findings,
                                 TorchVersion Floor) {
  std::vector<std::string> Ids;
  for (const Diagnostic &D : Findings)
    if (!D.Fixes.empty())
      Ids.push_back(D.RuleId); // its fix is its rule's fix for E's target
  return rulesFixesNeed(E, Ids, Floor);
}

void addToSummary(Summary &S, const FileReport &R, const Engine &E, const BatchOptions &Opts,
                  const TorchTarget &Target) {
  TargetUse &U = S.use(Target);
  ++U.Files;
  merge(U.FixesNeed, R.FixesNeed);
  if (!R.Error.empty())
    ++S.Errors;
  if (R.NotWritten)
    ++S.NotWritten;
  if (!R.File)
    return;
  if (R.Fixed) {
    S.Applied += R.Fixed->Applied;
    if (R.Fixed->changed(*R.File)) {
      ++S.Changed;
      if (!Opts.Write)
        S.DiffNonEmpty = true;
    }
  }
  S.Kept += R.Kept.size();
  for (const Diagnostic &D : R.Findings) {
    ++S.Findings;
    if (D.Fixes.empty())
      continue;
    Applicability A = D.Fixes.front().App;
    if (E.allowed(A))
      ++S.Fixable;
    else if (A == Applicability::Unsafe)
      ++S.UnsafeFixable;
  }
}

llvm::Expected<Summary> runBatch(Project &P, llvm::ArrayRef<std::string> Paths,
                                 const BatchOptions &Opts, Reporter &Out) {
  // Each file's engine (excluded files have none) and target, as an index
  // into Targets (few distinct ones). Reserved: workers read the entries of
  // files submitted while later ones are appended.
  std::vector<std::string> Files;
  std::vector<std::shared_ptr<const Engine>> Engines;
  std::vector<TorchTarget> Targets;
  std::vector<unsigned> TargetOf;
  Files.reserve(Paths.size());
  Engines.reserve(Paths.size());
  TargetOf.reserve(Paths.size());
  // Looks up the engine of Paths[K]; false when it is excluded.
  auto LookUp = [&](size_t K) -> llvm::Expected<bool> {
    TorchTarget T;
    auto E = P.engineFor(Paths[K], /*HonourExcludes=*/true, &T);
    if (!E)
      return E.takeError();
    if (!*E)
      return false; // excluded by its configuration
    auto Known = llvm::find(Targets, T);
    TargetOf.push_back(static_cast<unsigned>(Known - Targets.begin()));
    if (Known == Targets.end())
      Targets.push_back(std::move(T));
    Files.push_back(Paths[K]);
    Engines.push_back(std::move(*E));
    return true;
  };
  auto Floor = [&](size_t I) { return Targets[TargetOf[I]].floorBelowTarget(); };
  Summary S;
  auto Begin = [&] {
    S.Files = Files.size();
    if (Files.empty())
      S.use(TorchTarget::choose(P.options().Target, std::nullopt, "", nullptr));
    S.Target = Targets.empty() ? S.Targets.front().Target.Release : Targets.front().Release;
    Out.begin(Opts.WalkErrors.size() + Files.size());
    for (const WalkError &W : Opts.WalkErrors) {
      FileReport R;
      R.Path = W.Path;
      R.Error = W.Message;
      ++S.Errors;
      Out.file(R);
    }
  };
  auto Report = [&](size_t I, std::unique_ptr<FileReport> R) {
    if (Opts.Filter)
      Opts.Filter(*R);
    addToSummary(S, *R, *Engines[I], Opts, Targets[TargetOf[I]]);
    Out.file(*R);
  };

  unsigned N = Opts.Threads == 0 ? llvm::hardware_concurrency().compute_thread_count()
                                 : Opts.Threads;
  if (N <= 1 || Paths.size() <= 1) {
    for (size_t K = 0; K < Paths.size(); ++K)
      if (auto Kept = LookUp(K); !Kept)
        return Kept.takeError();
    Begin();
    for (size_t I = 0; I < Files.size(); ++I)
      Report(I, processPath(*Engines[I], Files[I], Opts, Floor(I)));
    Out.finish(S);
    return S;
  }

  // Workers deposit finished files; this thread reports them in order. It
  // submits files ahead of the next one to report while fewer than Window
  // are ahead and the finished ones that wait hold at most MaxWaiting source
  // bytes: a slow file does not leave the other cores idle for long (16
  // files ahead were not enough: a fifth of `fix --diff` over PyTorch), and
  // what waits behind it stays bounded.
  const size_t Window = 64 * static_cast<size_t>(N);
  const uint64_t MiB = uint64_t(1) << 20;
  const bool ByMode = Opts.MaxBytesInFlight == 0;
  const uint64_t InFlight =
      ByMode ? (Opts.Mode == BatchMode::Fix ? 1 : 4) * MiB : Opts.MaxBytesInFlight;
  const uint64_t MaxWaiting = 16 * (ByMode ? MiB : Opts.MaxBytesInFlight);
  std::vector<std::unique_ptr<FileReport>> Done(Paths.size());
  std::vector<uint64_t> SizeOf(Paths.size(), 0);
  std::mutex M;
  std::condition_variable Ready;
  // This thread sleeps until the file to report next is done and, unless
  // all that was submitted is, WakeBatch more: a sleep and a wake-up per
  // file were most of a run's futex calls (19,951 -> 6,014 over PyTorch's
  // 4,491 C++ files, two threads).
  const size_t WakeBatch = 16;
  size_t Waiting = Done.size(); ///< The file this thread waits for (under M).
  size_t Finished = 0;          ///< Files done so far (under M).
  size_t WakeAt = 0;            ///< This thread wakes once Finished reaches it (under M).
  uint64_t WaitingBytes = 0;    ///< Of the finished files not reported yet (under M).
  ByteBudget Budget(InFlight);
  llvm::ThreadPool Pool(llvm::hardware_concurrency(N));
  size_t Submitted = 0;
  auto Submit = [&](size_t I) {
    // What the worker reads of the vectors that this thread appends to.
    const Engine *E = Engines[I].get();
    const std::string *Path = &Files[I];
    Pool.async([&, I, E, Path, F = Floor(I)] {
      // The size the opened file has: no stat of the path before it.
      uint64_t Size = 0;
      bool Acquired = false;
      std::unique_ptr<FileReport> R = processPath(*E, *Path, Opts, F, [&](uint64_t Bytes) {
        Size = Bytes;
        Budget.acquire(Size);
        Acquired = true;
      });
      if (Acquired)
        Budget.release(Size);
      releaseFreeMemoryAfter(Size, N);
      std::lock_guard<std::mutex> Lock(M);
      Done[I] = std::move(R);
      SizeOf[I] = Size;
      WaitingBytes += Size;
      ++Finished;
      // Only a wait that is over wakes this thread: a wake-up per file
      // was a tenth of a run over many small files.
      if (Waiting < Done.size() && Done[Waiting] && Finished >= WakeAt)
        Ready.notify_one();
    });
  };
  // The engines first, but unless files are written, the workers start on
  // the files whose engine is known (the lookups of PyTorch's 4,491 C++
  // files' 300 directories took this thread 9 ms while the other core had
  // nothing to do): up to Window files queued, and no more once MaxWaiting
  // bytes wait. A lookup's error ends the run before anything is reported
  // (or written).
  for (size_t K = 0; K < Paths.size(); ++K) {
    auto Kept = LookUp(K);
    if (!Kept) {
      Pool.wait();
      return Kept.takeError();
    }
    if (!*Kept || Opts.Write)
      continue;
    std::lock_guard<std::mutex> Lock(M);
    if (Submitted - Finished < Window && WaitingBytes <= MaxWaiting)
      Submit(Submitted++);
  }
  Begin();
  for (size_t Next = 0; Next < Files.size(); ++Next) {
    for (; Submitted < Files.size() && Submitted < Next + Window; ++Submitted) {
      if (Submitted > Next) {
        std::lock_guard<std::mutex> Lock(M);
        if (WaitingBytes > MaxWaiting)
          break;
      }
      Submit(Submitted);
    }
    std::unique_ptr<FileReport> R;
    {
      std::unique_lock<std::mutex> Lock(M);
      if (!Done[Next]) {
        // Every file submitted finishes: Finished reaches WakeAt.
        Waiting = Next;
        WakeAt = std::min(Finished + WakeBatch, Submitted);
        Ready.wait(Lock, [&] { return Done[Next] != nullptr && Finished >= WakeAt; });
        Waiting = Done.size();
      }
      R = std::move(Done[Next]);
      WaitingBytes -= SizeOf[Next];
    }
    Report(Next, std::move(R));
  }
  Pool.wait();
  Out.finish(S);
  return S;
}

} // namespace devport
