//===--- Render.h - Findings and rules as people and tools read them -----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns Diagnostics into what people and tools read: compiler-style text
/// with the source line, a caret and the fix as a one-line suggestion, and the
/// JSON documented in docs/cli.md (1-based lines, columns in code points).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_RENDER_H
#define DEVPORT_REPORT_RENDER_H

#include "core/BackendTable.h"
#include "core/Diagnostic.h"
#include "core/Reporter.h"
#include "core/Rule.h"
#include "core/SourceFile.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace devport {

/// S with what a terminal would act on written out: control characters
/// (but tabs, and newlines when KeepNewlines), DEL and bytes that are not
/// UTF-8 as `\xNN`, C1 controls (U+0080..U+009F, e.g. the CSI U+009B) as
/// `\u00NN`. Text output passes every path, source line and message through
/// it, so that a file name or a line holding `\x1b[...` cannot drive the
/// terminal; JSON escapes them itself.
std::string printable(llvm::StringRef S, bool KeepNewlines = false);

/// The columns printable() gives the character at the start of S (1 for
/// text that needs no escape); Len is set to its length in bytes.
unsigned printableWidth(llvm::StringRef S, unsigned &Len);

/// path:line:col: severity: message [rule-id]
///     N | source line
///       |     ^~~~~~
///       = fix (safe): replacement
///       = note: ...
void renderText(llvm::raw_ostream &OS, const SourceFile &F, const Diagnostic &D);

/// The one-line form of a fix: the finding's text with the fix's edits
/// inside it applied (plus the imports it adds), or the fix's title when that
/// spans lines or the fix edits elsewhere.
std::string fixSummary(const SourceFile &F, const Diagnostic &D, const Fix &X);

/// Calls Fn(file, diagnostic) for R's findings. After a fix their ranges are
/// in the fixed text, which is then indexed once for all of them.
template <typename Fn> void forEachFinding(const FileReport &R, Fn &&F) {
  std::optional<SourceFile> FixedFile;
  if (R.Fixed && R.Fixed->changed(*R.File) && !R.Findings.empty())
    FixedFile.emplace(R.File->path(), R.Fixed->Text);
  const SourceFile &Shown = FixedFile ? *FixedFile : *R.File;
  for (const Diagnostic &D : R.Findings)
    F(Shown, D);
}

/// A note as the command line words it (naming its flags and settings).
std::string noteText(const Note &N);

/// "keeps 12:5 [cuda-set-device]": a finding that a keep match accounts for,
/// as a note words it.
std::string keepText(const SourceFile &F, const KeptFinding &K);

/// Where a target release came from, as the summary words it:
/// `--target-torch`, `.devport.yaml`, `pyproject.toml: torch>=2.6`,
/// `default` (with the requirement when the project declares torch without a
/// lower bound). Paths are relative to the current directory when under it.
std::string targetSourceText(const TorchTarget &T);

/// The notes the summary adds for a target: a fix needs a newer release than
/// the project declares; a packaging file could not be read.
std::vector<std::string> targetNotes(const TargetUse &U);

/// A target in the JSON summary: "target_torch", "target_source" ({"kind",
/// "path", "requirement"}), "project_requirement" ({"path", "requirement",
/// "floor"} or null), "fixes_need" ({"torch", "rule"} or null), "notes".
llvm::json::Object targetToJSON(const TargetUse &U);

/// One element of `devport rules --format json`.
/// What the backend table makes of a rule's fix, match aside: its
/// applicability (a safe fix reaching a torch.get_device_module() function
/// that some backend module lacks is unsafe), why, and whether a function the
/// pattern binds decides it per match (`.$FN(...)`).
struct FixPortability {
  Applicability App = Applicability::Safe;
  std::vector<std::string> Why;
  bool ByBinding = false;
};
FixPortability portabilityOf(const RuleFix &X, const BackendTable *Backends);

/// A rule as JSON (`devport rules --format json`); with Backends, each fix's
/// applicability is what the backend table makes of it, and
/// `depends_on_match` says that the matched function decides.
llvm::json::Value ruleToJSON(const Rule &R, const BackendTable *Backends = nullptr);

/// The text `devport explain RULE` prints (markdown).
/// With Backends, a fix that reaches a function of torch.get_device_module()
/// that some backend module lacks is shown as unsafe, with the reason.
void renderExplain(llvm::raw_ostream &OS, const Rule &R, const BackendTable *Backends = nullptr);

} // namespace devport

#endif
