//===--- AnnotationsTest.cpp - The test helper's marker language ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tests/support/Annotations.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

namespace devport {
namespace {

using test::Annotations;

ByteRange R(uint32_t B, uint32_t E) { return {B, E}; }

TEST(AnnotationsTest, TextWithoutMarkersIsUnchanged) {
  Annotations A("x = torch.cuda.device_count()\n");
  EXPECT_EQ("x = torch.cuda.device_count()\n", A.code());
  EXPECT_TRUE(A.points().empty());
  EXPECT_TRUE(A.ranges().empty());
}

TEST(AnnotationsTest, Points) {
  Annotations A("^x = ^1^");
  EXPECT_EQ("x = 1", A.code());
  EXPECT_EQ((std::vector<uint32_t>{0, 4, 5}), A.points());
  Annotations One("a^b");
  EXPECT_EQ(1u, One.point());
  EXPECT_EQ(1u, One.pointWithPayload().first);
  EXPECT_EQ("", One.pointWithPayload().second);
}

TEST(AnnotationsTest, Ranges) {
  Annotations A("x = [[torch.cuda]].f([[]])");
  EXPECT_EQ("x = torch.cuda.f()", A.code());
  EXPECT_EQ((std::vector<ByteRange>{R(4, 14), R(17, 17)}), A.ranges());
  EXPECT_EQ("torch.cuda", A.text(A.ranges()[0]));
}

TEST(AnnotationsTest, NestedRangesInTheOrderOfTheirOpening) {
  Annotations A("[[a[[b]]c[[[[d]]]]]]");
  EXPECT_EQ("abcd", A.code());
  EXPECT_EQ((std::vector<ByteRange>{R(0, 4), R(1, 2), R(3, 4), R(3, 4)}), A.ranges());
}

TEST(AnnotationsTest, NamedPointsAndRanges) {
  Annotations A("$call[[$fn[[torch.cuda.synchronize]]()]]$end^\n$end^");
  EXPECT_EQ("torch.cuda.synchronize()\n", A.code());
  EXPECT_EQ(R(0, 24), A.range("call"));
  EXPECT_EQ(R(0, 22), A.range("fn"));
  EXPECT_EQ((std::vector<uint32_t>{24, 25}), A.points("end"));
  // Names and the unnamed marker are separate.
  EXPECT_TRUE(A.ranges().empty());
  EXPECT_TRUE(A.points().empty());
  EXPECT_TRUE(A.ranges("missing").empty());
}

TEST(AnnotationsTest, Payloads) {
  Annotations A("$p(cuda-set-device)^x $r(a b, c)[[y]] $p(second)^ $(anon)^ $(anon r)[[z]]");
  EXPECT_EQ("x y   z", A.code());
  auto Ps = A.pointsWithPayload("p");
  ASSERT_EQ(2u, Ps.size());
  EXPECT_EQ(0u, Ps[0].first);
  EXPECT_EQ("cuda-set-device", Ps[0].second);
  EXPECT_EQ("second", Ps[1].second);
  EXPECT_EQ(R(2, 3), A.rangeWithPayload("r").first);
  EXPECT_EQ("a b, c", A.rangeWithPayload("r").second);
  EXPECT_EQ("anon", A.pointWithPayload().second);
  EXPECT_EQ(5u, A.point());
  EXPECT_EQ("anon r", A.rangeWithPayload().second);
  EXPECT_EQ("z", A.text(A.range()));
}

TEST(AnnotationsTest, DollarThatIsNotAMarkerIsText) {
  // Pattern metavariables and other uses of '$' stay in the code.
  Annotations A("$DEVICE = $X(1) + $ + $(x) + $y^");
  EXPECT_EQ("$DEVICE = $X(1) + $ + $(x) + ", A.code());
  EXPECT_EQ(A.code().size(), A.point("y"));
  Annotations B("f\"${x}\" $name(unterminated^");
  EXPECT_EQ("f\"${x}\" $name(unterminated", B.code());
  EXPECT_EQ(B.code().size(), B.point());
}

TEST(AnnotationsTest, OffsetsAreBytes) {
  Annotations A("s = \"\xC3\xA9\xF0\x9F\x98\x80\"^ [[\xE2\x82\xAC]]");
  EXPECT_EQ(12u, A.point());
  EXPECT_EQ(R(13, 16), A.range());
}

TEST(AnnotationsTest, MalformedMarkupFailsTheTest) {
  EXPECT_NONFATAL_FAILURE(Annotations("x = [[y"), "unclosed [[ at offset 4");
  EXPECT_NONFATAL_FAILURE(Annotations("x = y]]"), "unmatched ]] at offset 5");
  EXPECT_NONFATAL_FAILURE(Annotations("[[a]] b]]"), "in the annotated text:\n[[a]] b]]");
  // An unclosed range is dropped; the rest stays usable.
  std::vector<ByteRange> Closed;
  EXPECT_NONFATAL_FAILURE(Closed = Annotations("$n[[a$n[[b]]").ranges("n"), "unclosed [[");
  EXPECT_EQ((std::vector<ByteRange>{R(1, 2)}), Closed);
}

TEST(AnnotationsTest, AskingForTheOneMarkerFailsWhenThereAreNoneOrSeveral) {
  Annotations None("x");
  Annotations Two("^x^ [[a]] [[b]]");
  uint32_t P = 99;
  EXPECT_NONFATAL_FAILURE(P = None.point(), "expected exactly one point named '', found 0");
  EXPECT_EQ(0u, P);
  EXPECT_NONFATAL_FAILURE(Two.point(), "found 2");
  EXPECT_NONFATAL_FAILURE(Two.pointWithPayload("x"), "point named 'x'");
  ByteRange Got = R(7, 7);
  EXPECT_NONFATAL_FAILURE(Got = Two.range(), "expected exactly one range named '', found 2");
  EXPECT_EQ(ByteRange(), Got);
  EXPECT_NONFATAL_FAILURE(None.rangeWithPayload("r"), "range named 'r', found 0");
}

} // namespace
} // namespace devport
