//===--- ProgressTest.cpp - The progress bar, on a fake clock -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Progress.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

using std::chrono::milliseconds;

struct FakeClock {
  std::chrono::steady_clock::time_point T{};
  ProgressBar::Clock clock() {
    return [this] { return T; };
  }
  void advance(int Ms) { T += milliseconds(Ms); }
};

/// A terminal's standard error (unbuffered) on a fake clock.
class ProgressBarTest : public ::testing::Test {
protected:
  ProgressBar bar(unsigned Columns = 80) { return ProgressBar(Term, nullptr, Columns, C.clock()); }
  std::string S;
  llvm::raw_string_ostream Term{S};
  FakeClock C;
};

TEST_F(ProgressBarTest, SilentDuringTheFirstSecond) {
  ProgressBar B = bar();
  B.start(100);
  for (int I = 1; I <= 90; ++I) {
    C.advance(10);
    B.update(I, I * 2);
  }
  EXPECT_EQ("", Term.str());
  EXPECT_FALSE(B.shown());
}

TEST_F(ProgressBarTest, DrawsInPlaceAfterASecondAndNotTooOften) {
  ProgressBar B = bar();
  B.start(200);
  C.advance(1000);
  B.update(50, 7);
  EXPECT_TRUE(B.shown());
  // A 40-column bar, a quarter done.
  EXPECT_EQ("\rdevport: [" + std::string(10, '=') + ">" + std::string(29, ' ') +
                "] 50/200 files, 7 findings\x1b[K",
            Term.str());
  S.clear();
  C.advance(10);
  B.update(51, 7); // within the interval: not redrawn
  EXPECT_EQ("", Term.str());
  C.advance(100);
  B.update(200, 1);
  EXPECT_EQ("\rdevport: [========================================] 200/200 files, 1 finding\x1b[K",
            Term.str());
  EXPECT_EQ(std::string::npos, Term.str().find('\n'));
  S.clear();
  B.hide();
  EXPECT_EQ("\r\x1b[K", Term.str());
  EXPECT_FALSE(B.shown());
  S.clear();
  B.hide(); // erased already: nothing more
  EXPECT_EQ("", Term.str());
}

TEST_F(ProgressBarTest, FitsANarrowTerminal) {
  ProgressBar B = bar(30);
  B.start(12345);
  C.advance(2000);
  B.update(1000, 123456);
  std::string Line = Term.str();
  ASSERT_TRUE(llvm::StringRef(Line).startswith("\r"));
  ASSERT_TRUE(llvm::StringRef(Line).endswith("\x1b[K"));
  EXPECT_LE(Line.size() - 4, 29u) << Line;
}

/// Writes "F <path>" to Out for each file with findings, "END" at the end.
class PrintingReporter : public Reporter {
public:
  explicit PrintingReporter(llvm::raw_ostream &Out) : Out(Out) {}
  void begin(size_t N) override { Begun = N; }
  void file(const FileReport &R) override {
    if (!R.Findings.empty())
      Out << "F " << R.Path << "\n";
  }
  void finish(const Summary &) override { Out << "END\n"; }
  size_t Begun = 0;

private:
  llvm::raw_ostream &Out;
};

/// A buffered stream (as standard output is) that appends to Screen when
/// flushed.
class BufferedScreen : public llvm::raw_ostream {
public:
  explicit BufferedScreen(std::string &Screen) : Screen(Screen) { SetBufferSize(4096); }
  ~BufferedScreen() override { flush(); }

private:
  void write_impl(const char *P, size_t N) override { Screen.append(P, N); }
  uint64_t current_pos() const override { return Screen.size(); }
  std::string &Screen;
};

FileReport fileWith(std::string Path, size_t Findings) {
  FileReport R;
  R.Path = std::move(Path);
  R.Findings.resize(Findings);
  return R;
}

// Standard output (buffered) and standard error going to one terminal: every
// line of findings starts on a line of its own, after the bar was erased, and
// the bar comes after what was printed before it.
TEST(ProgressReporter, FindingsNeverShareALineWithTheBar) {
  std::string Screen;
  llvm::raw_string_ostream Err(Screen); // unbuffered, as standard error is
  BufferedScreen Out(Screen);
  FakeClock C;
  ProgressBar B(Err, &Out, 80, C.clock());
  ProgressStream BarOut(Out, B), BarErr(Err, B);
  PrintingReporter Inner(BarOut);
  ProgressReporter P(Inner, B);
  P.begin(5);
  EXPECT_EQ(5u, Inner.Begun);
  P.file(fileWith("a.py", 1)); // printed (buffered) before the bar shows
  C.advance(1500);
  P.file(fileWith("b.py", 0)); // draws: a.py's line first
  EXPECT_TRUE(B.shown());
  EXPECT_EQ("F a.py\n\rdevport: [", Screen.substr(0, 18)) << Screen;
  C.advance(200);
  P.file(fileWith("c.py", 2)); // erases, prints, draws again
  C.advance(10);
  P.file(fileWith("d.py", 0));                    // within the interval: no redraw
  BarErr << "devport: error: e.py: unreadable\n"; // an error, as a Reporter prints it
  C.advance(10);
  P.file(fileWith("e.py", 0));
  P.finish(Summary{});
  Out.flush();
  EXPECT_NE(std::string::npos, Screen.find("\r\x1b[KF c.py\n\rdevport: [")) << Screen;
  EXPECT_NE(std::string::npos, Screen.find("3/5 files, 3 findings\x1b[K\r\x1b[Kdevport: error: "
                                           "e.py: unreadable\n\rdevport: ["))
      << Screen;
  EXPECT_EQ(std::string::npos, Screen.find("4/5 files")) << Screen;
  // Ends with the bar erased, then the summary.
  EXPECT_TRUE(llvm::StringRef(Screen).endswith("5/5 files, 3 findings\x1b[K\r\x1b[KEND\n"))
      << Screen;
}

TEST(ProgressReporter, ShortRunsPrintNothingOfTheirOwn) {
  std::string Screen;
  llvm::raw_string_ostream Err(Screen);
  BufferedScreen Out(Screen);
  FakeClock C;
  ProgressBar B(Err, &Out, 80, C.clock());
  ProgressStream BarOut(Out, B);
  PrintingReporter Inner(BarOut);
  ProgressReporter P(Inner, B);
  P.begin(2);
  P.file(fileWith("a.py", 1));
  C.advance(300);
  P.file(fileWith("b.py", 0));
  P.finish(Summary{});
  Out.flush();
  EXPECT_EQ("F a.py\nEND\n", Screen);
}

} // namespace
} // namespace devport
