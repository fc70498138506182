//===--- Annotations.h - Marked-up source text for tests ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Source text with markers, in the style of llvm/Testing/Annotations (which
/// Debian does not ship): `^` marks a point, `[[` and `]]` a range; either may
/// be named (`$name^`, `$name[[...]]`) and carry a payload
/// (`$name(payload)^`). Offsets are byte offsets into code(). Malformed
/// markup fails the test that built it.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_SUPPORT_ANNOTATIONS_H
#define DEVPORT_TESTS_SUPPORT_ANNOTATIONS_H

#include "core/Fix.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace devport::test {

class Annotations {
public:
  explicit Annotations(llvm::StringRef Text);

  /// The text with the markers removed.
  const std::string &code() const { return Code; }

  /// The only point named Name; fails the test if there are none or several.
  uint32_t point(llvm::StringRef Name = "") const;
  std::pair<uint32_t, llvm::StringRef> pointWithPayload(llvm::StringRef Name = "") const;
  std::vector<uint32_t> points(llvm::StringRef Name = "") const;

  /// The only range named Name.
  ByteRange range(llvm::StringRef Name = "") const;
  std::pair<ByteRange, llvm::StringRef> rangeWithPayload(llvm::StringRef Name = "") const;
  std::vector<ByteRange> ranges(llvm::StringRef Name = "") const;

private:
  struct Point {
    uint32_t Offset;
    std::string Payload;
  };
  struct Range {
    ByteRange R;
    std::string Payload;
  };
  std::string Code;
  llvm::StringMap<std::vector<Point>> Points;
  llvm::StringMap<std::vector<Range>> Ranges;
};

} // namespace devport::test

#endif
