//===--- Progress.h - A progress bar for long runs on a terminal ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A one-line progress bar (files done of the total, findings so far) that a
/// long batch run draws on a terminal's standard error, redrawn in place with
/// `\r` and erased at the end. It appears only once the run has taken a
/// second, so small runs never show (or pay for) it. The CLI uses it only when
/// standard error is a terminal and `--quiet` is not given.
///
/// The run's Reporter writes through ProgressStreams, which erase the bar
/// before anything they pass on; the bar flushes standard output before it is
/// drawn again. So findings on standard output and the bar on standard error
/// never share a line, and a file without output costs no redraw.
/// ProgressReporter wraps the run's Reporter to count files and findings.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_PROGRESS_H
#define DEVPORT_REPORT_PROGRESS_H

#include "core/Reporter.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <functional>

namespace devport {

class ProgressBar {
public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  /// Nothing is drawn before Delay has passed since start(), nor more often
  /// than every Interval.
  static constexpr std::chrono::milliseconds Delay{1000}, Interval{100};

  /// Draws on Term, a line at most Columns - 1 wide (0: 80 columns); flushes
  /// Out (standard output, may be null) before drawing.
  ProgressBar(llvm::raw_ostream &Term, llvm::raw_ostream *Out, unsigned Columns,
              Clock Now = std::chrono::steady_clock::now);

  void start(size_t TotalFiles);
  /// Records the counts; draws them if the delay and the interval allow it,
  /// or whenever the bar is hidden by hide() and the delay has passed.
  void update(size_t FilesDone, size_t Findings);
  /// Erases the bar if it is on the screen (update() draws it again).
  void hide();
  /// Whether the bar is on the screen now.
  bool shown() const { return Shown; }

private:
  void draw();

  llvm::raw_ostream &Term;
  llvm::raw_ostream *Out;
  unsigned Width;
  Clock Now;
  std::chrono::steady_clock::time_point Start, LastDraw;
  size_t Total = 0, Done = 0, Findings = 0;
  bool Shown = false;
  bool Hidden = false; ///< hide() erased it: redraw at the next update().
};

/// Passes everything on to Target, erasing Bar first: the stream a Reporter
/// writes to while a bar may be on the same terminal. Unbuffered itself (the
/// bytes go to Target at once, in order).
class ProgressStream final : public llvm::raw_ostream {
public:
  ProgressStream(llvm::raw_ostream &Target, ProgressBar &Bar)
      : llvm::raw_ostream(/*unbuffered=*/true), Target(Target), Bar(Bar) {}

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Target.tell(); }

  llvm::raw_ostream &Target;
  ProgressBar &Bar;
};

/// Forwards to Inner, keeping Bar up to date with the files done and the
/// findings so far; erases it before the summary.
class ProgressReporter final : public Reporter {
public:
  ProgressReporter(Reporter &Inner, ProgressBar &Bar) : Inner(Inner), Bar(Bar) {}
  void begin(size_t Files) override;
  void file(const FileReport &R) override;
  void finish(const Summary &S) override;

private:
  Reporter &Inner;
  ProgressBar &Bar;
  size_t Done = 0, Findings = 0;
};

} // namespace devport

#endif
