//===--- RenderTest.cpp - Text output that cannot drive a terminal --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// printable() and renderText(): control characters, C1 controls and bytes
/// that are not UTF-8 are written as escapes, and the caret line still
/// points at the finding; a BOM is not shown.
///
//===----------------------------------------------------------------------===//

#include "report/Render.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

/// renderText() of a finding of rule `r` with message `m` at R in F.
std::string rendered(const SourceFile &F, ByteRange R) {
  Diagnostic D;
  D.RuleId = "r";
  D.Message = "m";
  D.Range = R;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  renderText(OS, F, D);
  return OS.str();
}

TEST(Printable, EscapesWhatATerminalActsOn) {
  EXPECT_EQ("plain text \xc3\xa9 \xe2\x82\xac\tx",
            printable("plain text \xc3\xa9 \xe2\x82\xac\tx"));
  EXPECT_EQ("a\\x1b[31mb", printable("a\x1b[31mb"));
  EXPECT_EQ("a\\x0ab", printable("a\nb"));
  EXPECT_EQ("a\nb", printable("a\nb", /*KeepNewlines=*/true));
  EXPECT_EQ("\\x0d\\x07\\x7f", printable("\r\a\x7f"));
  EXPECT_EQ("\\u009b2J", printable("\xc2\x9b"
                                   "2J"));        // C1 CSI
  EXPECT_EQ("n\\xe9.py", printable("n\xe9.py"));  // Latin-1, not UTF-8
  EXPECT_EQ("\\xe2\\x82", printable("\xe2\x82")); // cut sequence
}

TEST(Printable, CaretLineKeepsItsPlace) {
  SourceFile F("e\x1b.py", "x = '\x1b'; torch.cuda.synchronize()\n");
  EXPECT_EQ("e\\x1b.py:1:10: warning: m [r]\n"
            " 1 | x = '\\x1b'; torch.cuda.synchronize()\n"
            "   |             ^~~~~~~~~~~~~~~~~~~~~~~~\n",
            rendered(F, {9, 33}));
}

TEST(Printable, ByteOrderMarkIsNotShown) {
  SourceFile F("b.py", "\xEF\xBB\xBFtorch.cuda.synchronize()\n");
  EXPECT_EQ("b.py:1:1: warning: m [r]\n"
            " 1 | torch.cuda.synchronize()\n"
            "   | ^~~~~~~~~~~~~~~~~~~~~~~~\n",
            rendered(F, {3, 27}));
}

} // namespace
} // namespace devport
