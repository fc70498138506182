//===--- Sarif.cpp - The SARIF 2.1.0 format of a batch run -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Sarif.h"

#include "report/Reporters.h"
#include "report/Render.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace devport {
namespace {

const char *const SrcRoot = "%SRCROOT%";

/// SARIF's level for a severity: error, warning, else note.
const char *levelOf(Severity S) {
  return S == Severity::Error || S == Severity::Warning ? severityName(S) : "note";
}

llvm::json::Object text(std::string T) { return llvm::json::Object{{"text", std::move(T)}}; }

/// 1-based line and column in UTF-16 code units of Offset.
std::pair<int64_t, int64_t> position(const SourceFile &F, uint32_t Offset) {
  return {F.lineOf(Offset) + 1, F.utf16Column(Offset) + 1};
}

llvm::json::Object region(const SourceFile &F, ByteRange R) {
  auto [L, C] = position(F, R.Begin);
  auto [EL, EC] = position(F, R.End);
  return llvm::json::Object{
      {"startLine", L}, {"startColumn", C}, {"endLine", EL}, {"endColumn", EC}};
}

llvm::json::Object artifact(const std::string &Uri) {
  return llvm::json::Object{{"uri", Uri}, {"uriBaseId", SrcRoot}};
}

llvm::json::Array locations(const std::string &Uri, const SourceFile &F, ByteRange R) {
  return llvm::json::Array{llvm::json::Object{
      {"physicalLocation",
       llvm::json::Object{{"artifactLocation", artifact(Uri)}, {"region", region(F, R)}}}}};
}

llvm::json::Object fixToSarif(const std::string &Uri, const SourceFile &F, const Diagnostic &D,
                              const Fix &X) {
  llvm::json::Array Replacements;
  for (const Edit &E : X.Edits)
    Replacements.push_back(llvm::json::Object{{"deletedRegion", region(F, E.Range)},
                                              {"insertedContent", text(E.Replacement)}});
  return llvm::json::Object{
      {"description", text("fix (" + std::string(applicabilityName(X.App)) +
                           "): " + fixSummary(F, D, X))},
      {"artifactChanges",
       llvm::json::Array{llvm::json::Object{{"artifactLocation", artifact(Uri)},
                                            {"replacements", std::move(Replacements)}}}},
      {"properties", llvm::json::Object{{"applicability", applicabilityName(X.App)}}}};
}

/// The sort key of a result: line, column, rule.
struct Keyed {
  uint32_t Offset;
  std::string Rule;
  llvm::json::Object Result;
};

} // namespace

void SarifReporter::listRules() {
  if (RulesListed)
    return;
  RulesListed = true;
  if (Opts.Rules)
    for (const auto &R : Opts.Rules->rules())
      RuleIds.push_back(R->Id);
}

size_t SarifReporter::ruleIndex(const std::string &Id) {
  listRules();
  auto It = llvm::find(RuleIds, Id);
  if (It != RuleIds.end())
    return static_cast<size_t>(It - RuleIds.begin());
  RuleIds.push_back(Id);
  return RuleIds.size() - 1;
}

void SarifReporter::file(const FileReport &R) {
  if (!R.Error.empty())
    Notifications.push_back(
        llvm::json::Object{{"level", "error"}, {"message", text(R.Error)}});
  if (!R.File)
    return;
  renderFixWarnings(Err, R);
  auto Rel = Opts.Root->relative(R.File->path());
  if (!Rel) {
    // The CLI checks every path first; this is a last resort, not a wrong path.
    Notifications.push_back(llvm::json::Object{
        {"level", "error"}, {"message", text(llvm::toString(Rel.takeError()))}});
    return;
  }
  std::string Uri = percentEncodePath(*Rel);
  std::vector<Keyed> Found;
  auto Base = [&](const std::string &Rule, Severity Sev, std::string Message,
                  const SourceFile &F, ByteRange Range) {
    return llvm::json::Object{{"ruleId", Rule},
                              {"ruleIndex", static_cast<int64_t>(ruleIndex(Rule))},
                              {"level", levelOf(Sev)},
                              {"message", text(std::move(Message))},
                              {"locations", locations(Uri, F, Range)}};
  };
  forEachFinding(R, [&](const SourceFile &F, const Diagnostic &D) {
    llvm::json::Object O = Base(D.RuleId, D.Sev, D.Message, F, D.Range);
    llvm::json::Array Fixes, Notes;
    for (const Fix &X : D.Fixes)
      Fixes.push_back(fixToSarif(Uri, F, D, X));
    if (!Fixes.empty())
      O["fixes"] = std::move(Fixes);
    for (const Note &N : D.Notes)
      Notes.push_back(noteText(N));
    llvm::json::Object Props{{"notes", std::move(Notes)}};
    if (!D.Engine.empty())
      Props["engine"] = D.Engine;
    O["properties"] = std::move(Props);
    Found.push_back({D.Range.Begin, D.RuleId, std::move(O)});
  });
  // Findings that keep rules account for: present, suppressed.
  for (const Diagnostic &K : R.Kept) {
    std::string Why = "CUDA by design: " + K.Message + " (keep rule " + K.RuleId + ")";
    for (const KeptFinding &KF : K.Keeps) {
      const Rule *Of = Opts.Rules ? Opts.Rules->find(KF.RuleId) : nullptr;
      llvm::json::Object O = Base(KF.RuleId, Of ? Of->Sev : Severity::Warning,
                                  Of ? Of->Message : KF.RuleId, *R.File, KF.Range);
      O["suppressions"] = llvm::json::Array{llvm::json::Object{
          {"kind", "external"}, {"status", "accepted"}, {"justification", Why}}};
      Found.push_back({KF.Range.Begin, KF.RuleId, std::move(O)});
    }
    if (Opts.ShowKept) {
      llvm::json::Object O = Base(K.RuleId, Severity::Info, K.Message, *R.File, K.Range);
      O["kind"] = "informational";
      O["level"] = "none";
      Found.push_back({K.Range.Begin, K.RuleId, std::move(O)});
    }
  }
  // Findings silenced by a `devport: ignore` comment in the file: present,
  // suppressed in source.
  for (const Diagnostic &D : R.Suppressed) {
    llvm::json::Object O = Base(D.RuleId, D.Sev, D.Message, *R.File, D.Range);
    O["suppressions"] = llvm::json::Array{llvm::json::Object{
        {"kind", "inSource"},
        {"status", "accepted"},
        {"justification", "a `devport: ignore` comment on the finding's line"}}};
    Found.push_back({D.Range.Begin, D.RuleId, std::move(O)});
  }
  std::stable_sort(Found.begin(), Found.end(), [](const Keyed &A, const Keyed &B) {
    return std::tie(A.Offset, A.Rule) < std::tie(B.Offset, B.Rule);
  });
  for (Keyed &K : Found)
    Results.push_back(std::move(K.Result));
}

void SarifReporter::finish(const Summary &) {
  listRules(); // even when nothing was found
  llvm::json::Array Rules;
  for (const std::string &Id : RuleIds) {
    llvm::json::Object D{{"id", Id}};
    const Rule *R = Opts.Rules ? Opts.Rules->find(Id) : nullptr;
    if (R) {
      std::string Markdown;
      llvm::raw_string_ostream MS(Markdown);
      renderExplain(MS, *R);
      MS.flush();
      std::string Full = R->Description.empty() ? R->Message : R->Description;
      D["shortDescription"] = text(R->Message);
      D["fullDescription"] = text(Full);
      D["help"] = llvm::json::Object{{"text", Full}, {"markdown", std::move(Markdown)}};
      D["helpUri"] = Opts.DocsUri + "rules/" + percentEncodePath(Id) + ".md";
      D["defaultConfiguration"] = llvm::json::Object{{"level", levelOf(R->Sev)}};
      D["properties"] = llvm::json::Object{
          {"category", R->Category},
          {"kind", R->Kind == RuleKind::Keep ? "keep" : "finding"},
          {"tags", llvm::json::Array{R->Category, R->Language}}};
    } else if (Id == "devport-directive") {
      D["shortDescription"] = text("a `devport: ignore[...]` comment names an unknown rule");
      D["helpUri"] = Opts.DocsUri + "cli.md#suppressing-findings";
      D["defaultConfiguration"] = llvm::json::Object{{"level", "error"}};
    }
    Rules.push_back(std::move(D));
  }
  llvm::json::Object Driver{{"name", "devport"},
                            {"version", Opts.ToolVersion},
                            {"semanticVersion", Opts.ToolVersion},
                            {"rules", std::move(Rules)}};
  if (!Opts.InformationUri.empty())
    Driver["informationUri"] = Opts.InformationUri;
  llvm::json::Object Invocation{{"executionSuccessful", true}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  llvm::json::Object Run{
      {"tool", llvm::json::Object{{"driver", std::move(Driver)}}},
      {"originalUriBaseIds",
       llvm::json::Object{
           {SrcRoot, llvm::json::Object{{"uri", fileUri(Opts.Root->root(), /*Dir=*/true)}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"invocations", llvm::json::Array{std::move(Invocation)}},
      {"results", std::move(Results)}};
  llvm::json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                         {"version", "2.1.0"},
                         {"runs", llvm::json::Array{std::move(Run)}}};
  Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
}

} // namespace devport
