//===--- TorchVersion.cpp - PyTorch release numbers -----------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/TorchVersion.h"

#include "llvm/ADT/STLExtras.h"

namespace devport {

std::optional<TorchVersion> TorchVersion::parse(llvm::StringRef S) {
  auto [MajorS, MinorS] = S.split('.');
  if (MajorS.empty() || MinorS.empty() || MajorS.size() > 4 || MinorS.size() > 4)
    return std::nullopt;
  auto AllDigits = [](llvm::StringRef T) {
    return llvm::all_of(T, [](char C) { return C >= '0' && C <= '9'; });
  };
  if (!AllDigits(MajorS) || !AllDigits(MinorS))
    return std::nullopt;
  TorchVersion V;
  MajorS.getAsInteger(10, V.Major);
  MinorS.getAsInteger(10, V.Minor);
  return V;
}

} // namespace devport
