//===--- Progress.cpp - A progress bar for long runs on a terminal --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Progress.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <string>

namespace devport {

constexpr std::chrono::milliseconds ProgressBar::Delay, ProgressBar::Interval;

ProgressBar::ProgressBar(llvm::raw_ostream &Term, llvm::raw_ostream *Out, unsigned Columns,
                         Clock Now)
    : Term(Term), Out(Out), Width(std::min(Columns ? Columns - 1 : 79u, 100u)),
      Now(std::move(Now)) {}

void ProgressBar::start(size_t TotalFiles) {
  Total = TotalFiles;
  Done = Findings = 0;
  Start = Now();
  Shown = Hidden = false;
}

void ProgressBar::update(size_t FilesDone, size_t FindingsSoFar) {
  Done = FilesDone;
  Findings = FindingsSoFar;
  auto T = Now();
  if (T - Start < Delay)
    return;
  if (Shown && !Hidden && T - LastDraw < Interval)
    return;
  LastDraw = T;
  draw();
}

void ProgressBar::hide() {
  if (!Shown)
    return;
  Term << "\r\x1b[K"; // back to the start of the line, erase to its end
  Term.flush();
  Shown = false;
  Hidden = true;
}

void ProgressBar::draw() {
  // "devport: [=========>          ] 1234/3661 files, 567 findings"
  std::string Counts = " " + std::to_string(Done) + "/" + std::to_string(Total) + " files, " +
                       std::to_string(Findings) + (Findings == 1 ? " finding" : " findings");
  const std::string Head = "devport: [";
  size_t Fixed = Head.size() + 1 + Counts.size();
  size_t BarWidth = Width > Fixed + 10 ? std::min<size_t>(Width - Fixed, 40) : 10;
  size_t Filled = Total ? BarWidth * std::min(Done, Total) / Total : 0;
  std::string Bar(Filled, '=');
  if (Filled < BarWidth)
    Bar += '>' + std::string(BarWidth - Filled - 1, ' ');
  std::string Line = Head + Bar + "]" + Counts;
  if (Line.size() > Width)
    Line.resize(Width);
  if (Out)
    Out->flush(); // what was printed goes before the bar, never after it
  Term << "\r" << Line << "\x1b[K";
  Term.flush();
  Shown = true;
  Hidden = false;
}

void ProgressReporter::begin(size_t Files) {
  Bar.start(Files);
  Inner.begin(Files);
}

void ProgressStream::write_impl(const char *Ptr, size_t Size) {
  Bar.hide();
  Target.write(Ptr, Size);
}

void ProgressReporter::file(const FileReport &R) {
  Inner.file(R);
  ++Done;
  Findings += R.Findings.size();
  Bar.update(Done, Findings);
}

void ProgressReporter::finish(const Summary &S) {
  Bar.hide();
  Inner.finish(S);
}

} // namespace devport
