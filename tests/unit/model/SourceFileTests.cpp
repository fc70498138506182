//===--- SourceFileTests.cpp - Bytes, lines and columns -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/SourceFile.h"
#include "core/TorchVersion.h"

#include "tests/support/Annotations.h"
#include "tests/support/TestFiles.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

TEST(SourceFile, LineIndexWithLfCrlfAndLoneCr) {
  SourceFile F("t.py", "a\nbb\r\nccc\rd");
  EXPECT_EQ(4u, F.lineCount());
  EXPECT_EQ("a", F.lineText(0));
  EXPECT_EQ("bb", F.lineText(1));
  EXPECT_EQ("ccc", F.lineText(2));
  EXPECT_EQ("d", F.lineText(3));
  EXPECT_EQ(2u, F.lineOf(6));
  EXPECT_EQ("\n", F.lineEnding());
  EXPECT_EQ("\r\n", SourceFile("t", "x\r\ny\n").lineEnding());
  EXPECT_EQ("\n", SourceFile("t", "a\rb\r\n").lineEnding()); // the first ending is a lone CR
  EXPECT_EQ(1u, SourceFile("t", "").lineCount());
  EXPECT_EQ(2u, SourceFile("t", "x\n").lineCount());
}

TEST(SourceFile, BomIsDetected) {
  EXPECT_TRUE(SourceFile("t", "\xEF\xBB\xBFx").hasBOM());
  EXPECT_FALSE(SourceFile("t", "x").hasBOM());
}

TEST(SourceFile, ColumnsInBytesCodePointsAndUtf16) {
  // é is 2 bytes, 1 code point, 1 UTF-16 unit; 😀 is 4 bytes, 1 code point, 2 units.
  test::Annotations A("x = \"\xC3\xA9\xF0\x9F\x98\x80\"; ^y = 1\n");
  SourceFile F("t.py", A.code());
  EXPECT_EQ(1u, F.lineColumn(A.point()).Line);
  EXPECT_EQ(11u, F.lineColumn(A.point()).Column);
  EXPECT_EQ(15u, F.byteLineColumn(A.point()).Column);
  EXPECT_EQ(11u, F.utf16Column(A.point()));
  EXPECT_EQ(A.point(), F.offsetFromUtf16(0, 11));
  EXPECT_EQ(A.point(), F.offsetFromLineColumn(1, 11));
  // The middle of a surrogate pair stays before the character.
  EXPECT_EQ(F.text().find("\xF0"), F.offsetFromUtf16(0, 7));
  // Past the end of a line: the line's end.
  EXPECT_EQ(F.text().size() - 1, F.offsetFromUtf16(0, 999));
  EXPECT_EQ(F.text().size(), F.offsetFromUtf16(5, 0));
}

TEST(SourceFile, CheckContent) {
  size_t Off = 0;
  EXPECT_EQ(ContentProblem::None, checkContent("plain \xC3\xA9 \xF0\x9F\x98\x80", Off));
  EXPECT_EQ(ContentProblem::Binary, checkContent(llvm::StringRef("ab\0c", 4), Off));
  EXPECT_EQ(2u, Off);
  EXPECT_EQ(ContentProblem::InvalidUtf8, checkContent("ab\xFF", Off));
  EXPECT_EQ(2u, Off);
  EXPECT_EQ(ContentProblem::InvalidUtf8, checkContent("\xC0\xAF", Off)); // overlong '/'
  EXPECT_EQ(0u, Off);
  EXPECT_EQ(ContentProblem::InvalidUtf8, checkContent("x\xED\xA0\x80", Off)); // surrogate
  EXPECT_EQ(1u, Off);
  EXPECT_EQ(ContentProblem::InvalidUtf8, checkContent("xy\xE2\x82", Off)); // truncated
  EXPECT_EQ(2u, Off);
  EXPECT_EQ(ContentProblem::InvalidUtf8, checkContent("\xF4\x90\x80\x80", Off)); // > U+10FFFF
  auto Bad = SourceFile::fromBytes("t", "\xC3\xA9\xFF");
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_NE(std::string::npos, llvm::toString(Bad.takeError()).find("t:1:2: not valid UTF-8"));
}

TEST(SourceFile, ReadErrorsNameThePlace) {
  test::TempDir D;
  auto Missing = SourceFile::read(D.path("missing.py"));
  ASSERT_FALSE(static_cast<bool>(Missing));
  EXPECT_NE(std::string::npos, llvm::toString(Missing.takeError()).find("missing.py"));
  auto Dir = SourceFile::read(D.path());
  ASSERT_FALSE(static_cast<bool>(Dir));
  EXPECT_NE(std::string::npos, llvm::toString(Dir.takeError()).find("is a directory"));
  D.write("latin1.py", "x = 1\ny = 'caf\xE9'\n");
  auto Bad = SourceFile::read(D.path("latin1.py"));
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_NE(std::string::npos,
            llvm::toString(Bad.takeError()).find("latin1.py:2:9: not valid UTF-8 (byte 0xe9"));
  D.write("ok.py", "x = 1\n");
  auto Ok = SourceFile::read(D.path("ok.py"));
  ASSERT_TRUE(static_cast<bool>(Ok));
  EXPECT_TRUE(Ok->stamp().Valid);
  EXPECT_EQ(6u, Ok->stamp().Size);
}

TEST(TorchVersion, ParseAndOrder) {
  EXPECT_EQ((TorchVersion{2, 7}), *TorchVersion::parse("2.7"));
  EXPECT_EQ((TorchVersion{2, 10}), *TorchVersion::parse("2.10"));
  EXPECT_TRUE(TorchVersion({2, 9}) < TorchVersion({2, 10}));
  EXPECT_TRUE(TorchVersion({2, 6}) <= TorchVersion({2, 6}));
  for (const char *Bad : {"", "2", "2.", ".7", "2.7.1", "v2.7", "2.x", " 2.7", "2.7 "})
    EXPECT_FALSE(TorchVersion::parse(Bad).has_value()) << Bad;
  EXPECT_EQ("2.9", TorchVersion::defaultTarget().str());
}

} // namespace
} // namespace devport
