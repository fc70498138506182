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
#include "core/TorchVersion.h"

#include <optional>
#include <string>
#include <vector>

namespace devport {

enum class Severity { Error, Warning, Info, Hint };

/// "error", "warning", "info", "hint".
const char *severityName(Severity S);
/// Parses one of the names above; nullopt for anything else.
std::optional<Severity> parseSeverity(const std::string &Name);

/// A line shown under a finding. Most notes are plain text; the ones whose
/// wording depends on the front end (a command-line flag for the CLI, a
/// setting for the LSP) carry a kind and their data, and each front end
/// phrases them (report/Render.h does it for the CLI). Text then holds a
/// neutral wording for front ends that have none of their own.
struct Note {
  enum class Kind : uint8_t {
    Plain,            ///< Text is the whole note.
    NoFixForTarget,   ///< The fix needs a newer PyTorch than the target (Target, Needs).
    EmbeddedReportOnly, ///< In embedded code (a doctest): reported, fixed only on request.
  };
  Kind K = Kind::Plain;
  std::string Text;
  TorchVersion Target, Needs; ///< NoFixForTarget only.

  static Note plain(std::string Text) { return {Kind::Plain, std::move(Text), {}, {}}; }
  friend bool operator==(const Note &A, const Note &B) {
    return A.K == B.K && A.Text == B.Text && A.Target == B.Target && A.Needs == B.Needs;
  }
};

/// A finding that a keep rule accounts for: listed under the keep match.
struct KeptFinding {
  std::string RuleId;
  ByteRange Range;
};

struct Diagnostic {
  std::string RuleId;
  /// The rule's category (`device-check`, ...), for a backend's review.
  std::string Category;
  std::string Message;
  /// The file the range is in. Usually the checked file; a C++ translation
  /// unit reports findings in its headers under the header's path.
  std::string File;
  ByteRange Range;
  Severity Sev = Severity::Warning;
  /// Extra lines shown under the finding (e.g. why a fix is unsafe).
  std::vector<Note> Notes;
  /// Zero or one fix in practice; a vector so that alternatives can come later.
  std::vector<Fix> Fixes;
  /// Keep matches only: the findings inside the kept code, in order.
  std::vector<KeptFinding> Keeps;
  /// Which engine found it when the language has several (C++: "semantic" or
  /// "lexical"); empty otherwise.
  std::string Engine;
};

} // namespace devport

#endif
