//===--- Diagnostic.h - A finding -----------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A Diagnostic is one finding of one rule at one range of one file, with the
/// fixes it offers. Produced by the matchers, consumed by the engine's
/// rewriting step and by every output format.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_DIAGNOSTIC_H
#define DEVPORT_CORE_DIAGNOSTIC_H

#include "core/Fix.h"

#include <optional>
#include <string>
#include <vector>

namespace devport {

enum class Severity { Error, Warning, Info, Hint };

/// "error", "warning", "info", "hint".
const char *severityName(Severity S);
/// Parses one of the names above; nullopt for anything else.
std::optional<Severity> parseSeverity(const std::string &Name);

struct Diagnostic {
  std::string RuleId;
  std::string Message;
  ByteRange Range;
  Severity Sev = Severity::Warning;
  /// Extra lines shown under the finding (e.g. why a fix is unsafe).
  std::vector<std::string> Notes;
  /// Zero or one fix in practice; a vector so that alternatives can come later.
  std::vector<Fix> Fixes;
};

} // namespace devport

#endif
