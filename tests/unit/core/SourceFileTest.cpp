//===--- SourceFileTest.cpp - Bytes, lines and columns --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// SourceFile: the line index (LF, CRLF, lone CR), BOM detection, the three
/// column units (bytes, code points, UTF-16) and their inverses;
/// checkContent(); and the errors of SourceFile::read().
///
//===----------------------------------------------------------------------===//

#include "core/SourceFile.h"

#include "tests/support/Annotations.h"
#include "tests/support/TestFiles.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace devport {
namespace {

// Characters of each UTF-8 length, with their UTF-16 size:
// é U+00E9 (2 bytes, 1 unit), € U+20AC (3 bytes, 1 unit),
// 😀 U+1F600 (4 bytes, a surrogate pair: 2 units).
#define E_ACUTE "\xC3\xA9"
#define EURO "\xE2\x82\xAC"
#define GRIN "\xF0\x9F\x98\x80"

// ---------------------------------------------------------- line index ---

TEST(SourceFileTest, LineIndexWithLf) {
  test::Annotations A("^a\n^bb\n^\n^ccc");
  SourceFile F("t.py", A.code());
  ASSERT_EQ(4u, F.lineCount());
  for (unsigned L = 0; L < 4; ++L)
    EXPECT_EQ(A.points()[L], F.lineStart(L)) << L;
  EXPECT_EQ("a", F.lineText(0));
  EXPECT_EQ("bb", F.lineText(1));
  EXPECT_EQ("", F.lineText(2));
  EXPECT_EQ("ccc", F.lineText(3));
  EXPECT_EQ("", F.lineText(4)); // past the last line
  // A newline belongs to the line it ends.
  EXPECT_EQ(0u, F.lineOf(1));
  EXPECT_EQ(1u, F.lineOf(2));
  EXPECT_EQ(3u, F.lineOf(static_cast<uint32_t>(F.text().size())));
}

TEST(SourceFileTest, TheLineIndexIsBuiltOnceForEveryThreadAndCopy) {
  // The index of line starts is built when first asked: threads asking at
  // once, and copies and moves made before or after, all see it whole.
  std::string Text;
  for (int I = 0; I < 20000; ++I)
    Text += "line " + std::to_string(I) + (I % 3 ? "\n" : "\r\n");
  std::vector<uint32_t> Want{0};
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Want.push_back(static_cast<uint32_t>(I + 1));
  auto Check = [&](const SourceFile &F) {
    EXPECT_EQ(Want.size(), F.lineCount());
    for (unsigned L = 0; L < Want.size(); L += 997)
      EXPECT_EQ(Want[L], F.lineStart(L));
    EXPECT_EQ(12345u, F.lineOf(Want[12345] + 2));
    EXPECT_EQ("line 12345", F.lineText(12345));
  };
  SourceFile F("t.py", Text);
  SourceFile Before = F; // a copy before the index is built
  std::vector<std::thread> Threads;
  std::vector<unsigned> Lines(8);
  for (unsigned T = 0; T < Lines.size(); ++T)
    Threads.emplace_back([&, T] { Lines[T] = F.lineColumn(Want[19999] + 3).Line; });
  for (std::thread &T : Threads)
    T.join();
  for (unsigned L : Lines)
    EXPECT_EQ(20000u, L);
  Check(F);
  Check(Before);
  SourceFile Moved = std::move(Before);
  Check(Moved);
  SourceFile Empty("e.py", "");
  EXPECT_EQ(1u, Empty.lineCount());
  EXPECT_EQ("", Empty.lineText(0));
}

TEST(SourceFileTest, AFileWhoseTextIsForgottenReadsAsEmpty) {
  // A batch frees a clean file's text on the thread that read it: the file
  // then reads as empty, its index too, and a copy made before keeps both.
  SourceFile F("t.py", "a\nb\nc\n");
  EXPECT_EQ(4u, F.lineCount()); // the index is built
  SourceFile Copy = F;
  F.forgetText();
  EXPECT_EQ("", F.text());
  EXPECT_EQ(1u, F.lineCount());
  EXPECT_EQ("", F.lineText(0));
  EXPECT_EQ("t.py", F.path());
  EXPECT_EQ(4u, Copy.lineCount());
  EXPECT_EQ("b", Copy.lineText(1));
}

TEST(SourceFileTest, LineIndexWithCrlfAndLoneCr) {
  test::Annotations A("^a$crlf^\r\n^bb$cr^\r^c\r\r\n^d");
  SourceFile F("t.py", A.code());
  ASSERT_EQ(5u, F.lineCount());
  EXPECT_EQ("a", F.lineText(0));
  EXPECT_EQ("bb", F.lineText(1));
  EXPECT_EQ("c", F.lineText(2));
  EXPECT_EQ("", F.lineText(3)); // "\r\r\n": a lone CR, then a CRLF
  EXPECT_EQ("d", F.lineText(4));
  std::vector<uint32_t> Starts = A.points();
  EXPECT_EQ(Starts[0], F.lineStart(0));
  EXPECT_EQ(Starts[1], F.lineStart(1));
  EXPECT_EQ(Starts[2], F.lineStart(2));
  EXPECT_EQ(Starts[2] + 2, F.lineStart(3)); // after "c\r"
  EXPECT_EQ(Starts[3], F.lineStart(4));
  // Both bytes of a CRLF belong to the line they end.
  EXPECT_EQ(0u, F.lineOf(A.point("crlf")));
  EXPECT_EQ(0u, F.lineOf(A.point("crlf") + 1));
  EXPECT_EQ(1u, F.lineOf(A.point("crlf") + 2));
  EXPECT_EQ(1u, F.lineOf(A.point("cr")));
  EXPECT_EQ(2u, F.lineOf(A.point("cr") + 1));
}

TEST(SourceFileTest, LineCountAtTheEdges) {
  EXPECT_EQ(1u, SourceFile("t", "").lineCount());
  EXPECT_EQ("", SourceFile("t", "").lineText(0));
  EXPECT_EQ(1u, SourceFile("t", "x").lineCount());
  EXPECT_EQ(2u, SourceFile("t", "x\n").lineCount());
  EXPECT_EQ(2u, SourceFile("t", "x\r\n").lineCount());
  EXPECT_EQ(2u, SourceFile("t", "x\r").lineCount());
  EXPECT_EQ(3u, SourceFile("t", "\n\n").lineCount());
}

TEST(SourceFileTest, MentionsDevportAsASubstringSearchWould) {
  for (llvm::StringRef T : {"devport:", "# devport: ignore", "x = 1  # devport:skip-file\n",
                            "devport", "devport :", "dev port:", "vport:", "evport:", "",
                            "vvvvdevport:", "devportdevport:", "devpor:devport:", "deevport:"})
    EXPECT_EQ(T.contains("devport:"), mentionsDevport(T)) << T.str();
  // Random texts of the word's letters and others, and every prefix of
  // texts that hold the word once, at their end.
  uint32_t Seed = 12345;
  auto Next = [&] { return Seed = Seed * 1103515245 + 12345, (Seed >> 16) & 0x7fff; };
  const char Alphabet[] = "devport: xv\n";
  for (int N = 0; N < 2000; ++N) {
    std::string T;
    for (unsigned L = Next() % 40; L > 0; --L)
      T += Alphabet[Next() % (sizeof(Alphabet) - 1)];
    if (Next() % 4 == 0)
      T += "devport:";
    for (size_t Len = 0; Len <= T.size(); ++Len) {
      llvm::StringRef P(T.data(), Len);
      ASSERT_EQ(P.contains("devport:"), mentionsDevport(P)) << P.str();
    }
  }
}

TEST(SourceFileTest, FindByTwoBytesFindsEveryOccurrence) {
  // From each occurrence on, the next one, as a substring search finds them
  // (overlapping ones too), for each two places of the word, in texts that
  // span several blocks of sixteen and end anywhere in one.
  uint32_t Seed = 99;
  auto Next = [&] { return Seed = Seed * 1103515245 + 12345, (Seed >> 16) & 0x7fff; };
  for (llvm::StringRef Word : {"aba", "using", "ab", "devport:"})
    for (size_t A = 0; A < Word.size(); ++A)
      for (size_t B = A + 1; B < Word.size(); ++B)
        for (int N = 0; N < 200; ++N) {
          std::string T;
          for (unsigned L = Next() % 80; L > 0; --L)
            T += Next() % 8 == 0 ? Word.str() : std::string(1, "abusingdevport:"[Next() % 15]);
          std::vector<size_t> Want, Got;
          for (size_t At = T.find(Word.str()); At != std::string::npos;
               At = T.find(Word.str(), At + 1))
            Want.push_back(At);
          for (size_t At = findByTwoBytes(T, Word, A, B); At != llvm::StringRef::npos;
               At = findByTwoBytes(T, Word, A, B, At + 1))
            Got.push_back(At);
          ASSERT_EQ(Want, Got) << T << " " << Word.str() << " " << A << " " << B;
        }
}

TEST(SourceFileTest, LineEnding) {
  EXPECT_EQ("\n", SourceFile("t", "x\ny\r\n").lineEnding());
  EXPECT_EQ("\r\n", SourceFile("t", "x\r\ny\n").lineEnding());
  EXPECT_EQ("\n", SourceFile("t", "no newline").lineEnding());
  EXPECT_EQ("\n", SourceFile("t", "").lineEnding());
  EXPECT_EQ("\n", SourceFile("t", "a\rb\r\n").lineEnding()); // the first ending is a lone CR
}

TEST(SourceFileTest, ByteOrderMark) {
  EXPECT_TRUE(SourceFile("t", "\xEF\xBB\xBF").hasBOM());
  EXPECT_TRUE(SourceFile("t", "\xEF\xBB\xBFx = 1\n").hasBOM());
  EXPECT_FALSE(SourceFile("t", "x = 1\n").hasBOM());
  EXPECT_FALSE(SourceFile("t", "\xEF\xBB").hasBOM());
  EXPECT_FALSE(SourceFile("t", "x\xEF\xBB\xBF").hasBOM()); // only at the start
  EXPECT_FALSE(SourceFile("t", "").hasBOM());
  // The BOM is part of the text: offsets count its three bytes.
  SourceFile F("t", "\xEF\xBB\xBFx\ny");
  EXPECT_EQ(4u, F.lineStart(1) - 1);
  EXPECT_EQ("\xEF\xBB\xBFx", F.lineText(0));
}

TEST(SourceFileTest, ByteOrderMarkIsNoColumn) {
  // Editors do not show the BOM: the first character is at column 1 (LSP 0).
  SourceFile F("t", "\xEF\xBB\xBFx = 1\ny = 2\n");
  EXPECT_EQ(1u, F.lineColumn(3).Column);
  EXPECT_EQ(5u, F.lineColumn(7).Column);
  EXPECT_EQ(1u, F.byteLineColumn(3).Column);
  EXPECT_EQ(0u, F.utf16Column(3));
  EXPECT_EQ(4u, F.utf16Column(7));
  EXPECT_EQ(3u, F.offsetFromUtf16(0, 0));
  EXPECT_EQ(7u, F.offsetFromUtf16(0, 4));
  EXPECT_EQ(3u, F.offsetFromLineColumn(1, 1));
  EXPECT_EQ(1u, F.lineColumn(F.lineStart(1)).Column); // other lines as before
  EXPECT_EQ(F.lineStart(1), F.offsetFromUtf16(1, 0));
  // Offsets inside the BOM itself are column 1.
  EXPECT_EQ(1u, F.lineColumn(0).Column);
}

TEST(SourceFileTest, BeforeReadIsToldTheSizeOfWhatIsRead) {
  // A batch run holds back a file's read until its bytes fit the budget: it
  // learns the size from the opened file, and only for a file that is read.
  test::TempDir D;
  D.write("a.py", std::string(3000, 'x'));
  std::vector<uint64_t> Told;
  auto Tell = [&](uint64_t N) { Told.push_back(N); };
  auto F = SourceFile::read(D.path("a.py"), Tell);
  ASSERT_TRUE(bool(F));
  EXPECT_EQ(std::vector<uint64_t>{3000}, Told);
  Told.clear();
  std::string Fifo = D.path("f.py");
  ASSERT_EQ(0, ::mkfifo(Fifo.c_str(), 0600));
  EXPECT_FALSE(bool(SourceFile::read(Fifo, Tell)));
  EXPECT_FALSE(bool(SourceFile::read(D.path("none.py"), Tell)));
  EXPECT_FALSE(bool(readRegularFile(D.path("a.py"), 1024, nullptr, Tell)));
  EXPECT_EQ(std::vector<uint64_t>{}, Told);
  ::unlink(Fifo.c_str());
}

TEST(SourceFileTest, AFileIsReadToItsEndWhateverItsSizeWas) {
  // The size taken when the file was opened is a guess: a file that grows
  // or shrinks before the read is read to its end; one that does not, in
  // one read that stops short of the buffer (no second read to see the end).
  test::TempDir D;
  std::string P = D.path("a.py");
  for (size_t Then : {size_t(0), size_t(3000), size_t(70000)})
    for (long Change : {-1000L, 0L, 1L, 5000L, 200000L}) {
      if (Change < 0 && size_t(-Change) > Then)
        continue;
      D.write("a.py", std::string(Then, 'x'));
      std::string Want(Then + Change, 'y');
      auto R = readRegularFile(P, MaxSourceFileBytes, nullptr, [&](uint64_t Size) {
        EXPECT_EQ(Then, Size);
        D.write("a.py", Want); // rewritten in place: the opened file changes
      });
      ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
      EXPECT_EQ(Want.size(), R->size()) << Then << " " << Change;
      EXPECT_EQ(Want, *R) << Then << " " << Change;
    }
}

TEST(SourceFileTest, ReadRegularFileRefusesWhatIsNotOne) {
  test::TempDir D;
  std::string Fifo = D.path("f.yaml");
  ASSERT_EQ(0, ::mkfifo(Fifo.c_str(), 0600));
  auto R = readRegularFile(Fifo, MaxConfigFileBytes); // must not wait for a writer
  ASSERT_FALSE(R);
  EXPECT_EQ(Fifo + ": not a regular file (a FIFO)", llvm::toString(R.takeError()));
  ::unlink(Fifo.c_str());
  auto Z = readRegularFile("/dev/zero", MaxConfigFileBytes);
  ASSERT_FALSE(Z);
  EXPECT_EQ("/dev/zero: not a regular file (a character device)", llvm::toString(Z.takeError()));
  auto Dir = readRegularFile(D.path(""), MaxConfigFileBytes);
  ASSERT_FALSE(Dir);
  EXPECT_NE(std::string::npos, llvm::toString(Dir.takeError()).find("is a directory"));
  D.write("big.yaml", std::string(5000, 'x'));
  std::string Big = D.path("big.yaml");
  auto B = readRegularFile(Big, 4096);
  ASSERT_FALSE(B);
  EXPECT_EQ(Big + ": too large (5000 bytes; the limit is 4 KiB)", llvm::toString(B.takeError()));
  auto Ok = readRegularFile(Big, 5000);
  ASSERT_TRUE(bool(Ok));
  EXPECT_EQ(5000u, Ok->size());
  auto Missing = readRegularFile(D.path("none.yaml"), 10);
  ASSERT_FALSE(Missing);
  ReadFailure Why = takeReadFailure(Missing.takeError(), D.path("none.yaml"));
  EXPECT_EQ("No such file or directory", Why.Reason);
  EXPECT_EQ(D.path("none.yaml") + ": cannot stat: No such file or directory", Why.Message);
  EXPECT_EQ(std::errc::no_such_file_or_directory, Why.Code);
}

// ------------------------------------------------------------- columns ---

TEST(SourceFileTest, ColumnsInBytesCodePointsAndUtf16) {
  test::Annotations A("first line\r\n"
                      "s = \"$e^" E_ACUTE "$euro^" EURO "$grin^" GRIN "$after^\" + x^\n");
  SourceFile F("t.py", A.code());
  struct Want {
    const char *Name;
    unsigned ByteCol, CodePointCol, Utf16Col; // 1-, 1- and 0-based
  } Cases[] = {
      {"e", 6, 6, 5},
      {"euro", 8, 7, 6},
      {"grin", 11, 8, 7},
      {"after", 15, 9, 9},
  };
  for (const Want &W : Cases) {
    uint32_t Off = A.point(W.Name);
    EXPECT_EQ(2u, F.byteLineColumn(Off).Line) << W.Name;
    EXPECT_EQ(W.ByteCol, F.byteLineColumn(Off).Column) << W.Name;
    EXPECT_EQ(2u, F.lineColumn(Off).Line) << W.Name;
    EXPECT_EQ(W.CodePointCol, F.lineColumn(Off).Column) << W.Name;
    EXPECT_EQ(W.Utf16Col, F.utf16Column(Off)) << W.Name;
    // And back.
    EXPECT_EQ(Off, F.offsetFromUtf16(1, W.Utf16Col)) << W.Name;
    EXPECT_EQ(Off, F.offsetFromLineColumn(2, W.CodePointCol)) << W.Name;
  }
  EXPECT_EQ(14u, F.lineColumn(A.point()).Column);
  EXPECT_EQ(14u, F.utf16Column(A.point()));
  // The first position of a line.
  EXPECT_EQ((LineColumn{1, 1}).Column, F.lineColumn(0).Column);
  EXPECT_EQ(0u, F.utf16Column(F.lineStart(1)));
}

TEST(SourceFileTest, ColumnsRoundTripAtEveryCharacterBoundary) {
  SourceFile F("t.py", "a" E_ACUTE "b" EURO GRIN "c\r\n" GRIN GRIN "\n");
  llvm::StringRef T = F.text();
  for (uint32_t Off = 0; Off <= T.size(); ++Off) {
    if (Off < T.size() && (static_cast<unsigned char>(T[Off]) & 0xC0) == 0x80)
      continue; // inside a character
    unsigned Line = F.lineOf(Off);
    LineColumn LC = F.lineColumn(Off);
    EXPECT_EQ(Line + 1, LC.Line) << Off;
    if (Off < F.lineStart(Line) + F.lineText(Line).size() || Off == T.size()) {
      EXPECT_EQ(Off, F.offsetFromLineColumn(LC.Line, LC.Column)) << Off;
      EXPECT_EQ(Off, F.offsetFromUtf16(Line, F.utf16Column(Off))) << Off;
    }
  }
}

TEST(SourceFileTest, OffsetFromUtf16Clamps) {
  test::Annotations A("x = \"^" GRIN "\"$eol^\r\n$last^y");
  SourceFile F("t.py", A.code());
  // The middle of a surrogate pair stays before the character.
  EXPECT_EQ(A.point(), F.offsetFromUtf16(0, 5));
  EXPECT_EQ(A.point() + 4, F.offsetFromUtf16(0, 7));
  // Past the end of a line: the line's end, before its terminator.
  EXPECT_EQ(A.point("eol"), F.offsetFromUtf16(0, 8));
  EXPECT_EQ(A.point("eol"), F.offsetFromUtf16(0, 999));
  EXPECT_EQ(A.point("last") + 1, F.offsetFromUtf16(1, 999));
  // Past the last line: the end of the text.
  EXPECT_EQ(F.text().size(), F.offsetFromUtf16(2, 0));
  EXPECT_EQ(F.text().size(), F.offsetFromUtf16(100, 3));
}

TEST(SourceFileTest, OffsetFromLineColumnClamps) {
  SourceFile F("t.py", "ab" E_ACUTE "\ncd");
  EXPECT_EQ(0u, F.offsetFromLineColumn(1, 1));
  EXPECT_EQ(0u, F.offsetFromLineColumn(1, 0)); // column 0 reads as 1
  EXPECT_EQ(0u, F.offsetFromLineColumn(0, 5)); // line 0: the start
  EXPECT_EQ(2u, F.offsetFromLineColumn(1, 3));
  EXPECT_EQ(4u, F.offsetFromLineColumn(1, 4)); // after the 2-byte é
  EXPECT_EQ(4u, F.offsetFromLineColumn(1, 50));
  EXPECT_EQ(6u, F.offsetFromLineColumn(2, 2));
  EXPECT_EQ(7u, F.offsetFromLineColumn(2, 50));
  EXPECT_EQ(7u, F.offsetFromLineColumn(9, 1));
}

// -------------------------------------------------------- checkContent ---

struct ContentCase {
  const char *What;
  llvm::StringRef Bytes;
  ContentProblem Problem;
  size_t Offset;
};

TEST(CheckContentTest, Classifies) {
  const ContentCase Cases[] = {
      {"empty", "", ContentProblem::None, 0},
      {"ascii", "x = 1\n", ContentProblem::None, 0},
      {"every length", "a" E_ACUTE EURO GRIN, ContentProblem::None, 0},
      {"U+D7FF", "\xED\x9F\xBF", ContentProblem::None, 0},
      {"U+E000", "\xEE\x80\x80", ContentProblem::None, 0},
      {"U+FFFF", "\xEF\xBF\xBF", ContentProblem::None, 0},
      {"U+10FFFF", "\xF4\x8F\xBF\xBF", ContentProblem::None, 0},
      {"BOM", "\xEF\xBB\xBFx", ContentProblem::None, 0},
      {"NUL", llvm::StringRef("ab\0c", 4), ContentProblem::Binary, 2},
      {"NUL first", llvm::StringRef("\0", 1), ContentProblem::Binary, 0},
      {"0xFF", "ab\xFF", ContentProblem::InvalidUtf8, 2},
      {"0xFE", "\xFE", ContentProblem::InvalidUtf8, 0},
      {"lone continuation", "a\x80", ContentProblem::InvalidUtf8, 1},
      {"overlong '/' (2 bytes)", "\xC0\xAF", ContentProblem::InvalidUtf8, 0},
      {"overlong (0xC1)", "x\xC1\xBF", ContentProblem::InvalidUtf8, 1},
      {"overlong (3 bytes)", "\xE0\x80\xAF", ContentProblem::InvalidUtf8, 0},
      {"overlong (4 bytes)", "\xF0\x80\x80\xAF", ContentProblem::InvalidUtf8, 0},
      {"surrogate U+D800", "x\xED\xA0\x80", ContentProblem::InvalidUtf8, 1},
      {"surrogate U+DFFF", "xy\xED\xBF\xBF", ContentProblem::InvalidUtf8, 2},
      {"above U+10FFFF", "\xF4\x90\x80\x80", ContentProblem::InvalidUtf8, 0},
      {"lead 0xF5", "\xF5\x80\x80\x80", ContentProblem::InvalidUtf8, 0},
      {"truncated at the end", "xy\xE2\x82", ContentProblem::InvalidUtf8, 2},
      {"truncated 4-byte", GRIN "\xF0\x9F\x98", ContentProblem::InvalidUtf8, 4},
      {"truncated mid-text", "\xE2\x82x", ContentProblem::InvalidUtf8, 0},
      {"lead then lead", "\xC3\xC3\xA9", ContentProblem::InvalidUtf8, 0},
      // Past the 32 bytes read at a time, and a NUL after bytes that are not
      // UTF-8 (the file is binary whatever comes first).
      {"NUL at 40", llvm::StringRef("0123456789012345678901234567890123456789\0x", 42),
       ContentProblem::Binary, 40},
      {"NUL after 0xFF", llvm::StringRef("\xFF 2345678901234567890123456789012345678\0", 40),
       ContentProblem::Binary, 39},
      {"0xFF at 35", "01234567890123456789012345678901234\xFFxy", ContentProblem::InvalidUtf8, 35},
      {"NUL at 5 of 64",
       llvm::StringRef("01234\0"
                       "6789012345678901234567890123456789012345678901234567890123",
                       64),
       ContentProblem::Binary, 5},
      {"every byte ASCII at 64", "0123456789012345678901234567890123456789012345678901234567890123",
       ContentProblem::None, 0},
  };
  for (const ContentCase &C : Cases) {
    size_t Off = 12345;
    EXPECT_EQ(C.Problem, checkContent(C.Bytes, Off)) << C.What;
    if (C.Problem != ContentProblem::None)
      EXPECT_EQ(C.Offset, Off) << C.What;
  }
}

// ---------------------------------------------------------------- read ---

TEST(SourceFileReadTest, ReadsBytesUnchangedWithAStamp) {
  test::TempDir D;
  D.write("crlf.py", "\xEF\xBB\xBFx = 1\r\ny = '" E_ACUTE "'\r\n");
  auto F = SourceFile::read(D.path("crlf.py"));
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(D.read("crlf.py"), F->text());
  EXPECT_EQ(D.path("crlf.py"), F->path());
  EXPECT_TRUE(F->hasBOM());
  EXPECT_EQ("\r\n", F->lineEnding());
  EXPECT_TRUE(F->stamp().Valid);
  EXPECT_EQ(F->text().size(), F->stamp().Size);
  D.write("empty.py", "");
  auto E = SourceFile::read(D.path("empty.py"));
  ASSERT_TRUE(static_cast<bool>(E)) << llvm::toString(E.takeError());
  EXPECT_EQ(1u, E->lineCount());
}

TEST(SourceFileReadTest, MissingFile) {
  test::TempDir D;
  auto F = SourceFile::read(D.path("missing.py"));
  ASSERT_FALSE(static_cast<bool>(F));
  std::string Msg = llvm::toString(F.takeError());
  EXPECT_EQ(0u, Msg.find(D.path("missing.py") + ": ")) << Msg;
  EXPECT_NE(std::string::npos, Msg.find("such file or directory")) << Msg;
}

TEST(SourceFileReadTest, Directory) {
  test::TempDir D;
  D.mkdir("pkg.py");
  auto F = SourceFile::read(D.path("pkg.py"));
  ASSERT_FALSE(static_cast<bool>(F));
  EXPECT_EQ(D.path("pkg.py") + ": is a directory", llvm::toString(F.takeError()));
}

TEST(SourceFileReadTest, StampIsTheFilesWithoutAHash) {
  // A check never needs the content hash; the writer takes it of the text
  // (engine/BatchRun.cpp), so reading costs no hashing.
  test::TempDir D;
  D.write("a.py", "x = 1\n");
  auto F = SourceFile::read(D.path("a.py"));
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  EXPECT_TRUE(F->stamp().Valid);
  EXPECT_EQ(6u, F->stamp().Size);
  EXPECT_FALSE(F->stamp().ContentHash.has_value());
}

TEST(SourceFileReadTest, OnlyRegularFilesAreRead) {
  // A FIFO named like a source file would block the read forever; a device
  // like /dev/zero never ends. Neither is opened for reading.
  test::TempDir D;
  ASSERT_EQ(0, ::mkfifo(D.path("x.py").c_str(), 0644));
  auto Fifo = SourceFile::read(D.path("x.py"));
  ::unlink(D.path("x.py").c_str()); // TempDir removes no FIFO
  ASSERT_FALSE(static_cast<bool>(Fifo));
  EXPECT_EQ(D.path("x.py") + ": not a regular file (a FIFO); skipped",
            llvm::toString(Fifo.takeError()));
  auto Zero = SourceFile::read("/dev/zero");
  ASSERT_FALSE(static_cast<bool>(Zero));
  EXPECT_EQ("/dev/zero: not a regular file (a character device); skipped",
            llvm::toString(Zero.takeError()));
}

TEST(SourceFileReadTest, LargerThanTheLimitIsNotRead) {
  // A sparse file: 1 byte over 64 MiB costs no disk.
  test::TempDir D;
  D.write("big.py", "");
  ASSERT_EQ(0, ::truncate(D.path("big.py").c_str(), MaxSourceFileBytes + 1));
  auto Big = SourceFile::read(D.path("big.py"));
  ASSERT_FALSE(static_cast<bool>(Big));
  EXPECT_EQ(D.path("big.py") + ": too large (67108865 bytes; the limit is 64 MiB); skipped",
            llvm::toString(Big.takeError()));
  ASSERT_EQ(0, ::truncate(D.path("big.py").c_str(), 3u << 20));
  auto Ok = SourceFile::read(D.path("big.py")); // NUL bytes: read, then refused as binary
  ASSERT_FALSE(static_cast<bool>(Ok));
  EXPECT_EQ(D.path("big.py") + ": binary file (NUL byte at offset 0); skipped",
            llvm::toString(Ok.takeError()));
}

TEST(SourceFileReadTest, NotUtf8NamesLineAndColumn) {
  test::TempDir D;
  D.write("latin1.py", "x = 1\r\ny = 'caf\xE9'\n");
  auto F = SourceFile::read(D.path("latin1.py"));
  ASSERT_FALSE(static_cast<bool>(F));
  EXPECT_EQ(D.path("latin1.py") + ":2:9: not valid UTF-8 (byte 0xe9 at offset 15); skipped",
            llvm::toString(F.takeError()));
}

TEST(SourceFileReadTest, BinaryFile) {
  test::TempDir D;
  D.write("data.py", llvm::StringRef("PK\x03\x04\0\0", 6));
  auto F = SourceFile::read(D.path("data.py"));
  ASSERT_FALSE(static_cast<bool>(F));
  EXPECT_EQ(D.path("data.py") + ": binary file (NUL byte at offset 4); skipped",
            llvm::toString(F.takeError()));
}

TEST(SourceFileReadTest, FromBytesChecksLikeRead) {
  auto Ok = SourceFile::fromBytes("<stdin>", "x = 1\n");
  ASSERT_TRUE(static_cast<bool>(Ok)) << llvm::toString(Ok.takeError());
  EXPECT_FALSE(Ok->stamp().Valid);
  EXPECT_EQ("<stdin>", Ok->path());
  auto Bad = SourceFile::fromBytes("<stdin>", "\xC0\xAF");
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ("<stdin>:1:1: not valid UTF-8 (byte 0xc0 at offset 0); skipped",
            llvm::toString(Bad.takeError()));
  // The column counts code points, as in every other message: "é" is one.
  auto Late = SourceFile::fromBytes("t", "\xC3\xA9\xFF");
  ASSERT_FALSE(static_cast<bool>(Late));
  EXPECT_EQ("t:1:2: not valid UTF-8 (byte 0xff at offset 2); skipped",
            llvm::toString(Late.takeError()));
}

} // namespace
} // namespace devport
