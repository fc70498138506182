//===--- Annotations.h - Marked-up source text for tests ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Source text with position markers, in the style of
/// llvm/Testing/Annotations (which Debian does not ship), so that unit tests
/// state positions in the text rather than as numbers:
///
///   test::Annotations A("x = $dev[[torch.cuda]].current_device()^\n");
///   check(A.code());  // "x = torch.cuda.current_device()\n"
///   A.range("dev");   // bytes [4, 14)
///   A.point();        // byte 31
///
/// The marker language:
///   `^`                   a point
///   `[[` ... `]]`         a range (ranges may nest)
///   `$name^` `$name[[`    a named point or range (name: letters, digits, '_')
///   `$name(payload)^`     a named point or range carrying a payload string
///   `$(payload)^`         an unnamed one with a payload
/// A `$` that does not start one of these forms is ordinary text, so pattern
/// metavariables such as `$DEVICE` can appear in the code.
///
/// Offsets are byte offsets into code(). Malformed markup (an unclosed `[[`,
/// an unmatched `]]`) and asking for "the" point or range when there are none
/// or several fail the running test (ADD_FAILURE) with a message that shows
/// the text; the accessors then return empty values.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_SUPPORT_ANNOTATIONS_H
#define DEVPORT_TESTS_SUPPORT_ANNOTATIONS_H

#include "core/Fix.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace devport::test {

class Annotations {
public:
  /// Parses Text; see the file comment for the markers.
  explicit Annotations(llvm::StringRef Text);

  /// The text with the markers removed.
  const std::string &code() const { return Code; }

  /// The only point named Name ("" is the unnamed one); fails the test and
  /// returns 0 if there are none or several.
  uint32_t point(llvm::StringRef Name = "") const;
  /// The only point named Name and its payload ("" if it has none).
  std::pair<uint32_t, llvm::StringRef> pointWithPayload(llvm::StringRef Name = "") const;
  /// All points named Name, in text order.
  std::vector<uint32_t> points(llvm::StringRef Name = "") const;
  /// All points named Name with their payloads, in text order.
  std::vector<std::pair<uint32_t, llvm::StringRef>>
  pointsWithPayload(llvm::StringRef Name = "") const;

  /// The only range named Name; fails the test and returns an empty range if
  /// there are none or several.
  ByteRange range(llvm::StringRef Name = "") const;
  std::pair<ByteRange, llvm::StringRef> rangeWithPayload(llvm::StringRef Name = "") const;
  /// All ranges named Name, in the order of their `[[`.
  std::vector<ByteRange> ranges(llvm::StringRef Name = "") const;
  std::vector<std::pair<ByteRange, llvm::StringRef>>
  rangesWithPayload(llvm::StringRef Name = "") const;

  /// The text of R in code().
  llvm::StringRef text(ByteRange R) const { return llvm::StringRef(Code).slice(R.Begin, R.End); }

private:
  struct Point {
    uint32_t Offset;
    std::string Payload;
  };
  struct Range {
    ByteRange R;
    std::string Payload;
  };
  /// Fails the test with Why and the annotated text.
  void fail(const std::string &Why) const;

  std::string Text; ///< As given, for failure messages.
  std::string Code;
  llvm::StringMap<std::vector<Point>> Points;
  llvm::StringMap<std::vector<Range>> Ranges;
};

} // namespace devport::test

#endif
