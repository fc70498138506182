//===--- TorchVersion.h - PyTorch release numbers -------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A PyTorch release as MAJOR.MINOR, used by `since` in rules and by
/// --target-torch to pick the fix that the target release supports.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_TORCHVERSION_H
#define DEVPORT_CORE_TORCHVERSION_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace devport {

struct TorchVersion {
  unsigned Major = 0;
  unsigned Minor = 0;

  /// Parses "X.Y" (digits only, no leading '+' or spaces); nullopt otherwise.
  static std::optional<TorchVersion> parse(llvm::StringRef S);
  /// The release devport targets when nothing else is said: the newest one
  /// whose APIs ../shared/RULES.md confirms (2.9, the memory APIs).
  static TorchVersion defaultTarget() { return {2, 9}; }

  std::string str() const { return std::to_string(Major) + "." + std::to_string(Minor); }

  friend bool operator<(TorchVersion A, TorchVersion B) {
    return A.Major != B.Major ? A.Major < B.Major : A.Minor < B.Minor;
  }
  friend bool operator<=(TorchVersion A, TorchVersion B) { return !(B < A); }
  friend bool operator==(TorchVersion A, TorchVersion B) {
    return A.Major == B.Major && A.Minor == B.Minor;
  }
};

} // namespace devport

#endif
