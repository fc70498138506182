//===--- Reporters.cpp - The text and JSON formats of a batch run ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Reporters.h"

#include "report/Baseline.h"
#include "report/Render.h"
#include "rewriters/UnifiedDiff.h"

#include "llvm/ADT/STLExtras.h"

#include <optional>

namespace devport {

void renderFixWarnings(llvm::raw_ostream &Err, const FileReport &R) {
  if (!R.File || !R.Fixed)
    return;
  for (const DroppedFix &D : R.Fixed->Dropped)
    Err << "devport: warning: " << printable(R.File->path()) << ":" << D.At.Line << ":"
        << D.At.Column << ": " << D.RuleId << ": " << printable(D.Reason) << "\n";
  if (!R.Fixed->Converged)
    Err << "devport: warning: " << printable(R.File->path())
        << ": fixes did not converge; run `devport fix` again\n";
}

TextReporter::TextReporter(llvm::raw_ostream &Out, llvm::raw_ostream &Err, ReportOptions Opts)
    : Out(Out), Err(Err), Opts(Opts) {
  if (Opts.Statistics)
    Stats.emplace(Opts.Rules);
}

void TextReporter::file(const FileReport &R) {
  if (!R.Error.empty())
    Err << "devport: error: " << printable(R.Error, /*KeepNewlines=*/true) << "\n";
  if (!R.File)
    return;
  renderFixWarnings(Err, R);
  if (R.Fixed && Opts.Diff && R.Fixed->changed(*R.File))
    Out << unifiedDiff(R.File->path(), R.File->path(), R.File->text(), R.Fixed->Text);
  if (Stats) {
    Stats->add(R); // the table replaces the findings
    return;
  }
  if (Opts.ShowKept)
    for (const Diagnostic &K : R.Kept)
      renderText(Out, *R.File, K);
  if (!Opts.Diff)
    forEachFinding(R, [&](const SourceFile &F, const Diagnostic &D) { renderText(Out, F, D); });
}

/// "Target PyTorch 2.6 (pyproject.toml: torch>=2.6)." and the notes about
/// the targets, each said once. A run over many projects names the first few
/// targets and counts the others (the JSON lists them all).
static void renderTargets(llvm::raw_ostream &OS, const Summary &S) {
  constexpr size_t MaxShown = 3, MaxNotes = 5;
  auto Plural = [](size_t N, const char *One, const char *Many) { return N == 1 ? One : Many; };
  OS << "Target PyTorch ";
  std::vector<std::string> Notes;
  // Targets that read the same (the same release from the same source, as
  // `--target-torch` gives every project) are said once with their files summed.
  std::vector<std::pair<std::string, size_t>> Shown;
  for (const TargetUse &U : S.Targets) {
    for (std::string &N : targetNotes(U))
      if (!llvm::is_contained(Notes, N))
        Notes.push_back(std::move(N));
    std::string Text = U.Target.Release.str() + " (" + targetSourceText(U.Target) + ")";
    auto Same = llvm::find_if(Shown, [&](const auto &T) { return T.first == Text; });
    if (Same == Shown.end())
      Shown.emplace_back(std::move(Text), U.Files);
    else
      Same->second += U.Files;
  }
  size_t OtherFiles = 0;
  for (size_t I = 0; I < Shown.size(); ++I) {
    if (I >= MaxShown) {
      OtherFiles += Shown[I].second;
      continue;
    }
    OS << (I ? "; " : "") << Shown[I].first;
    if (Shown.size() > 1)
      OS << " for " << Shown[I].second << Plural(Shown[I].second, " file", " files");
  }
  if (Shown.size() > MaxShown) {
    size_t Others = Shown.size() - MaxShown;
    OS << "; " << Others << Plural(Others, " other target", " other targets") << " for "
       << OtherFiles << Plural(OtherFiles, " file", " files") << " (see --format json)";
  }
  OS << ".\n";
  for (size_t I = 0; I < Notes.size() && I < MaxNotes; ++I)
    OS << "note: " << Notes[I] << ".\n";
  if (Notes.size() > MaxNotes)
    OS << "note: " << Notes.size() - MaxNotes << " more (see --format json).\n";
}

/// What could not be done, counted (each error was printed as it came):
/// never a summary that reads as success when a file was not written.
static void renderErrors(llvm::raw_ostream &OS, const Summary &S) {
  auto Plural = [](size_t N, const char *One, const char *Many) { return N == 1 ? One : Many; };
  if (S.NotWritten)
    OS << S.NotWritten << Plural(S.NotWritten, " file", " files")
       << " not written (see the errors above); " << Plural(S.NotWritten, "its", "their")
       << " findings are counted as left.\n";
  if (size_t Other = S.Errors - S.NotWritten)
    OS << Other << Plural(Other, " path", " paths")
       << " could not be checked (see the errors above).\n";
}

void TextReporter::finish(const Summary &S) {
  if (Stats) {
    // With --diff, standard output is the patch.
    Stats->renderText(Opts.Diff ? Err : Out);
    (Opts.Diff ? Err : Out) << "\n";
  }
  if (Opts.Diff) {
    // Standard output is the patch.
    renderErrors(Err, S);
    renderTargets(Err, S);
    return;
  }
  auto Plural = [](size_t N, const char *One, const char *Many) { return N == 1 ? One : Many; };
  if (Opts.Fix)
    Out << "Applied " << S.Applied << Plural(S.Applied, " fix", " fixes") << " in " << S.Changed
        << Plural(S.Changed, " file", " files") << "; ";
  if (S.Findings == 0) {
    Out << (Opts.Fix ? "no findings left" : "No findings") << " in " << S.Files
        << Plural(S.Files, " file", " files") << ".\n";
  } else {
    Out << (Opts.Fix ? "" : "Found ") << S.Findings << Plural(S.Findings, " finding", " findings")
        << (Opts.Fix ? " left" : "") << " in " << S.Files << Plural(S.Files, " file", " files");
    if (S.Fixable && !Opts.Fix)
      Out << " (" << S.Fixable << " fixable with `devport fix`)";
    if (S.UnsafeFixable)
      Out << " (" << S.UnsafeFixable << " more fixable with `--unsafe-fixes`)";
    Out << ".\n";
  }
  if (S.Kept && !Opts.Fix)
    Out << S.Kept << " CUDA-specific " << Plural(S.Kept, "place", "places") << " kept as CUDA"
        << (Opts.ShowKept ? "" : " (list them with --show-kept)") << ".\n";
  renderErrors(Out, S);
  renderTargets(Out, S);
}

JsonReporter::JsonReporter(llvm::raw_ostream &Out, llvm::raw_ostream &Err, ReportOptions Opts)
    : Out(Out), Err(Err), Opts(Opts) {
  if (Opts.Statistics)
    Stats.emplace(Opts.Rules);
}
JsonReporter::~JsonReporter() = default;

/// S as a JSON string literal that keeps every byte: a byte that is not
/// UTF-8 becomes a lone surrogate `\udcXX` (Python's surrogateescape:
/// `os.fsencode(json.load(f)[...]["path"])` gives back the name's bytes),
/// where llvm::json would put U+FFFD (and assert in a debug build).
static std::string jsonLiteral(llvm::StringRef S) {
  static const char Hex[] = "0123456789abcdef";
  std::string Out = "\"";
  for (size_t I = 0; I < S.size();) {
    auto C = static_cast<unsigned char>(S[I]);
    if (C < 0x80) {
      if (C == '"' || C == '\\') {
        Out += '\\';
        Out += static_cast<char>(C);
      } else if (C < 0x20 || C == 0x7f) {
        Out += "\\u00";
        Out += Hex[C >> 4];
        Out += Hex[C & 15];
      } else {
        Out += static_cast<char>(C);
      }
      ++I;
      continue;
    }
    if (unsigned N = utf8SequenceLength(S.drop_front(I))) {
      Out.append(S.data() + I, N);
      I += N;
      continue;
    }
    Out += "\\udc";
    Out += Hex[C >> 4];
    Out += Hex[C & 15];
    ++I;
  }
  return Out + "\"";
}

/// Writes D (of F) as one element of the "diagnostics" or "kept" array: the
/// object llvm::json would write (keys sorted), the path by jsonLiteral(),
/// with the fingerprint when there is one. Straight to the stream: an
/// llvm::json::Object built per finding, then its keys sorted, was 3% of a
/// check of PyTorch's Python files.
static void writeDiagnostic(llvm::json::OStream &J, const SourceFile &F, const Diagnostic &D,
                            const std::string *Fingerprint) {
  LineColumn B = F.lineColumn(D.Range.Begin), E = F.lineColumn(D.Range.End);
  J.object([&] {
    J.attribute("column", B.Column);
    J.attribute("end_column", E.Column);
    J.attribute("end_line", E.Line);
    if (!D.Engine.empty())
      J.attribute("engine", D.Engine); // C++: "semantic" | "lexical"
    if (Fingerprint)
      J.attribute("fingerprint", *Fingerprint);
    J.attributeBegin("fix");
    if (D.Fixes.empty()) {
      J.value(nullptr);
    } else {
      const Fix &X = D.Fixes.front();
      J.object([&] {
        J.attribute("applicability", applicabilityName(X.App));
        J.attributeArray("edits", [&] {
          for (const Edit &Ed : X.Edits) {
            LineColumn EB = F.lineColumn(Ed.Range.Begin), EE = F.lineColumn(Ed.Range.End);
            J.object([&] {
              J.attribute("column", EB.Column);
              J.attribute("content", Ed.Replacement);
              J.attribute("end_column", EE.Column);
              J.attribute("end_line", EE.Line);
              J.attribute("line", EB.Line);
            });
          }
        });
        J.attribute("title", X.Title);
      });
    }
    J.attributeEnd();
    J.attribute("line", B.Line);
    J.attribute("message", D.Message);
    J.attributeArray("notes", [&] {
      for (const Note &N : D.Notes)
        J.value(noteText(N));
      for (const KeptFinding &K : D.Keeps)
        J.value(keepText(F, K));
    });
    J.attributeBegin("path");
    J.rawValue(jsonLiteral(F.path()));
    J.attributeEnd();
    J.attribute("rule", D.RuleId);
    J.attribute("severity", severityName(D.Sev));
  });
}

/// Writes O as OStream::value would (keys sorted), but the value of RawKey
/// as the array of Raw's strings given by jsonLiteral() (the summary's
/// errors, which may name files that are not UTF-8).
static void writeObject(llvm::json::OStream &J, llvm::json::Object &O, llvm::StringRef RawKey,
                        llvm::ArrayRef<std::string> Raw) {
  std::vector<llvm::StringRef> Keys;
  for (auto &KV : O)
    Keys.push_back(KV.first);
  llvm::sort(Keys);
  J.objectBegin();
  for (llvm::StringRef K : Keys) {
    if (K != RawKey) {
      J.attribute(K, std::move(*O.get(K)));
      continue;
    }
    J.attributeArray(K, [&] {
      for (const std::string &S : Raw)
        J.rawValue(jsonLiteral(S));
    });
  }
  J.objectEnd();
}

// The document is written as llvm::json would print it whole (keys sorted,
// two-space indent), but the diagnostics go out file by file.
void JsonReporter::start() {
  if (J)
    return;
  J = std::make_unique<llvm::json::OStream>(Out, 2);
  J->objectBegin();
  J->attributeBegin("diagnostics");
  J->arrayBegin();
}

void JsonReporter::file(const FileReport &R) {
  start();
  if (!R.Error.empty())
    Errors.push_back(R.Error);
  if (!R.File)
    return;
  renderFixWarnings(Err, R);
  if (Stats)
    Stats->add(R);
  if (Opts.ShowKept) {
    // Written at the end, under "kept" (the file is gone by then): each as
    // its element there, two levels in (the lines of an object in the
    // array start 4 spaces further; no string holds a raw newline).
    for (const Diagnostic &K : R.Kept) {
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      llvm::json::OStream Alone(OS, 2);
      writeDiagnostic(Alone, *R.File, K, nullptr);
      OS.flush();
      std::string &Indented = Kept.emplace_back();
      Indented.reserve(Text.size() + Text.size() / 8);
      for (char C : Text) {
        Indented += C;
        if (C == '\n')
          Indented += "    ";
      }
    }
  }
  // Each finding's fingerprint (report/Baseline.h), for `--baseline`.
  std::vector<std::string> FPs;
  size_t I = 0;
  forEachFinding(R, [&](const SourceFile &F, const Diagnostic &D) {
    if (FPs.empty())
      FPs = fingerprints(F, R.Findings);
    writeDiagnostic(*J, F, D, &FPs[I++]);
  });
}

void JsonReporter::finish(const Summary &S) {
  start();
  J->arrayEnd();
  J->attributeEnd();
  if (Opts.ShowKept) {
    J->attributeBegin("kept");
    J->arrayBegin();
    for (const std::string &Text : Kept)
      J->rawValue(Text);
    J->arrayEnd();
    J->attributeEnd();
  }
  if (Stats)
    J->attribute("statistics", Stats->toJSON());
  llvm::json::Object Sum{{"files", static_cast<int64_t>(S.Files)},
                         {"findings", static_cast<int64_t>(S.Findings)},
                         {"fixable", static_cast<int64_t>(S.Fixable)},
                         {"unsafe_fixable", static_cast<int64_t>(S.UnsafeFixable)},
                         {"errors", llvm::json::Array()},
                         {"kept", static_cast<int64_t>(S.Kept)},
                         {"target_torch", S.Target.str()}};
  // The first file's target, as "target_torch" is; "targets" lists them all
  // when the files had several.
  if (!S.Targets.empty()) {
    llvm::json::Object First = targetToJSON(S.Targets.front());
    for (const char *Key : {"target_source", "project_requirement", "fixes_need", "notes"})
      Sum[Key] = std::move(*First.get(Key));
  }
  if (S.Targets.size() > 1) {
    llvm::json::Array All;
    for (const TargetUse &U : S.Targets) {
      llvm::json::Object T = targetToJSON(U);
      T["files"] = static_cast<int64_t>(U.Files);
      All.push_back(std::move(T));
    }
    Sum["targets"] = std::move(All);
  }
  if (Opts.Fix) {
    Sum["fixes_applied"] = static_cast<int64_t>(S.Applied);
    Sum["files_changed"] = static_cast<int64_t>(S.Changed);
    Sum["files_not_written"] = static_cast<int64_t>(S.NotWritten);
  }
  J->attributeBegin("summary");
  writeObject(*J, Sum, "errors", Errors); // may name files that are not UTF-8
  J->attributeEnd();
  J->objectEnd();
  J.reset();
  Out << "\n";
}

} // namespace devport
