//===--- DiffBaseTest.cpp - Lines changed since a git revision ------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tools/devport/DiffBase.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

TEST(DiffBase, NewSideLinesOfEachFile) {
  const char *Diff = "diff --git a/src/a.py b/src/a.py\n"
                     "index 1..2 100644\n"
                     "--- a/src/a.py\n"
                     "+++ b/src/a.py\n"
                     "@@ -3 +3 @@ import torch\n"
                     "-x\n"
                     "+y\n"
                     "@@ -10,0 +11,2 @@ def f():\n"
                     "+a\n"
                     "+b\n"
                     "@@ -20,3 +22,0 @@\n" // lines deleted: nothing new
                     "-c\n"
                     "diff --git a/gone.py b/gone.py\n"
                     "--- a/gone.py\n"
                     "+++ /dev/null\n"
                     "@@ -1 +0,0 @@\n"
                     "-z\n"
                     "diff --git \"a/caf\\303\\251 x.py\" \"b/caf\\303\\251 x.py\"\n"
                     "--- \"a/caf\\303\\251 x.py\"\n"
                     "+++ \"b/caf\\303\\251 x.py\"\n"
                     "@@ -0,0 +1 @@\n"
                     "+n\n";
  ChangedLines C;
  addUnifiedDiff(Diff, "/repo", C);
  EXPECT_TRUE(C.touches("/repo/src/a.py", 3, 3));
  EXPECT_FALSE(C.touches("/repo/src/a.py", 4, 10));
  EXPECT_TRUE(C.touches("/repo/src/a.py", 9, 11)); // overlaps 11-12
  EXPECT_TRUE(C.touches("/repo/src/a.py", 12, 12));
  EXPECT_FALSE(C.touches("/repo/src/a.py", 13, 30));
  EXPECT_FALSE(C.touches("/repo/gone.py", 1, 1));
  EXPECT_TRUE(C.touches("/repo/caf\xC3\xA9 x.py", 1, 1));
  EXPECT_FALSE(C.touches("/repo/other.py", 1, 100));
  C.Whole.insert("/repo/new.py");
  EXPECT_TRUE(C.touches("/repo/new.py", 7, 7));
}

} // namespace
} // namespace devport
