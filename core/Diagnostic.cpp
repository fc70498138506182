//===--- Diagnostic.cpp - A finding ---------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Diagnostic.h"

namespace devport {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Info:
    return "info";
  case Severity::Hint:
    return "hint";
  }
  return "warning";
}

std::optional<Severity> parseSeverity(const std::string &Name) {
  for (Severity S : {Severity::Error, Severity::Warning, Severity::Info, Severity::Hint})
    if (Name == severityName(S))
      return S;
  return std::nullopt;
}

} // namespace devport
