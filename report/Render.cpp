//===--- Render.cpp - Findings and rules as people and tools read them ---===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Render.h"

#include "rewriters/EditApplier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace devport {

/// How the character at the start of S is shown: Escape is empty when it
/// needs none; Len is its length in bytes.
static void classify(llvm::StringRef S, bool KeepNewlines, std::string &Escape, unsigned &Len) {
  static const char Hex[] = "0123456789abcdef";
  auto C = static_cast<unsigned char>(S[0]);
  Len = 1;
  Escape.clear();
  if (C < 0x80) {
    if ((C < 0x20 && C != '\t' && !(KeepNewlines && C == '\n')) || C == 0x7f)
      Escape = {'\\', 'x', Hex[C >> 4], Hex[C & 15]};
    return;
  }
  unsigned N = utf8SequenceLength(S);
  if (N == 0) {
    Escape = {'\\', 'x', Hex[C >> 4], Hex[C & 15]};
    return;
  }
  Len = N;
  auto C2 = static_cast<unsigned char>(S.size() > 1 ? S[1] : 0);
  if (C == 0xC2 && C2 >= 0x80 && C2 <= 0x9F)
    Escape = {'\\', 'u', '0', '0', Hex[C2 >> 4], Hex[C2 & 15]};
}

std::string printable(llvm::StringRef S, bool KeepNewlines) {
  std::string Out;
  Out.reserve(S.size());
  std::string Escape;
  for (size_t I = 0; I < S.size();) {
    auto C = static_cast<unsigned char>(S[I]);
    if (C >= 0x20 && C < 0x7f) { // the common case
      Out += static_cast<char>(C);
      ++I;
      continue;
    }
    unsigned Len;
    classify(S.drop_front(I), KeepNewlines, Escape, Len);
    if (Escape.empty())
      Out.append(S.data() + I, Len);
    else
      Out += Escape;
    I += Len;
  }
  return Out;
}

unsigned printableWidth(llvm::StringRef S, unsigned &Len) {
  std::string Escape;
  classify(S, false, Escape, Len);
  return Escape.empty() ? 1 : static_cast<unsigned>(Escape.size());
}

std::string fixSummary(const SourceFile &F, const Diagnostic &D, const Fix &X) {
  std::optional<std::string> Out = textWithin(F.text(), D.Range, X);
  if (!Out || Out->find('\n') != std::string::npos)
    return X.Title;
  for (const Edit &E : X.Edits)
    if (E.Role == EditRole::AddImport && !D.Range.contains(E.Range))
      *Out += " (adds `" + llvm::StringRef(E.Replacement).trim().str() + "`)";
  return *Out;
}

std::string noteText(const Note &N) {
  switch (N.K) {
  case Note::Kind::Plain:
    return N.Text;
  case Note::Kind::NoFixForTarget:
    return "no fix for PyTorch " + N.Target.str() +
           " (the target release; the summary says where it comes from); the replacement "
           "needs " + N.Needs.str() + " or later";
  case Note::Kind::EmbeddedReportOnly:
    return N.Text + " (`docstrings: fix` in .devport.yaml fixes doctests too)";
  }
  return N.Text;
}

/// Path relative to the current directory when it is under it.
static std::string shownPath(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd)) {
    if (!Cwd.endswith("/"))
      Cwd.push_back('/');
    if (Path.startswith(Cwd) && Path.size() > Cwd.size())
      return Path.drop_front(Cwd.size()).str();
  }
  return Path.str();
}

/// `pyproject.toml: torch>=2.6`, or "" when the project declares no torch.
static std::string declaredText(const TorchTarget &T) {
  if (!T.Declared || !T.Declared->Requirement)
    return "";
  return shownPath(T.Declared->File) + ": " + T.Declared->Requirement->Text;
}

std::string targetSourceText(const TorchTarget &T) {
  switch (T.Origin) {
  case TargetOrigin::CommandLine:
    return "--target-torch";
  case TargetOrigin::Config:
    return shownPath(T.ConfigFile);
  case TargetOrigin::Project:
    return declaredText(T);
  case TargetOrigin::Default:
    break;
  }
  std::string Declared = declaredText(T);
  if (Declared.empty())
    return "default";
  return "default; " + Declared + " sets no lower bound";
}

std::vector<std::string> targetNotes(const TargetUse &U) {
  std::vector<std::string> Notes;
  const TorchTarget &T = U.Target;
  if (U.FixesNeed && T.Declared && T.Declared->Requirement)
    Notes.push_back("the fixes need PyTorch " + U.FixesNeed->Release.str() + " (" +
                    U.FixesNeed->RuleId + "); " + shownPath(T.Declared->File) + " declares " +
                    T.Declared->Requirement->Text);
  if (T.Declared)
    for (const TorchDeclaration::Problem &P : T.Declared->Problems)
      Notes.push_back(shownPath(P.File) + ": " + P.Why + "; no torch requirement read from it");
  return Notes;
}

llvm::json::Object targetToJSON(const TargetUse &U) {
  const TorchTarget &T = U.Target;
  llvm::json::Object Source;
  static const char *const Kinds[] = {"command-line", "config", "project", "default"};
  Source["kind"] = Kinds[static_cast<int>(T.Origin)];
  if (T.Origin == TargetOrigin::Config)
    Source["path"] = shownPath(T.ConfigFile);
  else if ((T.Origin == TargetOrigin::Project || T.Origin == TargetOrigin::Default) &&
           T.Declared && T.Declared->Requirement) {
    Source["path"] = shownPath(T.Declared->File);
    Source["requirement"] = T.Declared->Requirement->Text;
  }
  llvm::json::Value Declared = nullptr;
  if (T.Declared && T.Declared->Requirement) {
    std::optional<TorchVersion> Floor = T.Declared->floor();
    Declared = llvm::json::Object{
        {"path", shownPath(T.Declared->File)},
        {"requirement", T.Declared->Requirement->Text},
        {"floor", Floor ? llvm::json::Value(Floor->str()) : llvm::json::Value(nullptr)}};
  }
  llvm::json::Value Need = nullptr;
  if (U.FixesNeed)
    Need = llvm::json::Object{{"torch", U.FixesNeed->Release.str()},
                              {"rule", U.FixesNeed->RuleId}};
  llvm::json::Array Notes;
  for (std::string &N : targetNotes(U))
    Notes.push_back(std::move(N));
  return llvm::json::Object{{"target_torch", T.Release.str()},
                            {"target_source", std::move(Source)},
                            {"project_requirement", std::move(Declared)},
                            {"fixes_need", std::move(Need)},
                            {"notes", std::move(Notes)}};
}

std::string keepText(const SourceFile &F, const KeptFinding &K) {
  LineColumn LC = F.lineColumn(K.Range.Begin);
  return "keeps " + std::to_string(LC.Line) + ":" + std::to_string(LC.Column) + " [" + K.RuleId +
         "]";
}

void renderText(llvm::raw_ostream &OS, const SourceFile &F, const Diagnostic &D) {
  LineColumn LC = F.lineColumn(D.Range.Begin);
  OS << printable(F.path()) << ":" << LC.Line << ":" << LC.Column << ": " << severityName(D.Sev)
     << ": " << printable(D.Message, /*KeepNewlines=*/true) << " [" << D.RuleId << "]\n";
  unsigned Line0 = LC.Line - 1;
  uint32_t LineStart = F.columnStart(Line0); // a BOM is not shown
  llvm::StringRef Src = F.lineText(Line0).drop_front(LineStart - F.lineStart(Line0));
  std::string Num = std::to_string(LC.Line);
  std::string Pad(Num.size(), ' ');
  OS << " " << Num << " | " << printable(Src) << "\n";
  // The caret line keeps the tabs of the source so that it lines up, and
  // gives an escaped character the width of its escape.
  std::string Marker;
  uint32_t Col = D.Range.Begin - std::min(D.Range.Begin, LineStart);
  uint32_t End = std::min<uint32_t>(D.Range.End, LineStart + static_cast<uint32_t>(Src.size()));
  for (uint32_t I = 0; I < Src.size() && LineStart + I < std::max(End, D.Range.Begin + 1);) {
    unsigned Len;
    unsigned W = printableWidth(Src.drop_front(I), Len);
    if (I < Col) {
      Marker.append(W, Src[I] == '\t' ? '\t' : ' ');
    } else {
      Marker += I == Col ? '^' : '~';
      Marker.append(W - 1, '~');
    }
    I += Len;
  }
  if (Col >= Src.size())
    Marker += '^'; // at the end of the line
  OS << " " << Pad << " | " << Marker << "\n";
  for (const Fix &X : D.Fixes)
    OS << " " << Pad << " = fix (" << applicabilityName(X.App)
       << "): " << printable(fixSummary(F, D, X), /*KeepNewlines=*/true) << "\n";
  for (const Note &N : D.Notes)
    OS << " " << Pad << " = note: " << printable(noteText(N), /*KeepNewlines=*/true) << "\n";
  for (const KeptFinding &K : D.Keeps)
    OS << " " << Pad << " = note: " << keepText(F, K) << "\n";
  if (!D.Engine.empty())
    OS << " " << Pad << " = note: found by the " << D.Engine << " engine\n";
}

FixPortability portabilityOf(const RuleFix &X, const BackendTable *Backends) {
  FixPortability Out;
  Out.App = X.App;
  if (!Backends)
    return Out;
  auto Unbound = [&](llvm::StringRef) -> std::optional<std::string> {
    Out.ByBinding = true;
    return std::nullopt;
  };
  Out.Why = Backends->portabilityNotes(X.Template, Unbound);
  if (!Out.Why.empty() && Out.App == Applicability::Safe)
    Out.App = Applicability::Unsafe;
  return Out;
}

llvm::json::Value ruleToJSON(const Rule &R, const BackendTable *Backends) {
  llvm::json::Array Patterns, Fixes;
  for (const RulePattern &P : R.Patterns)
    Patterns.push_back(P.Text);
  for (const RuleFix &X : R.Fixes) {
    FixPortability FP = portabilityOf(X, Backends);
    llvm::json::Object F{{"since", X.Since.str()},
                         {"template", X.Template},
                         {"applicability", applicabilityName(FP.App)}};
    if (FP.ByBinding)
      F["depends_on_match"] = true;
    Fixes.push_back(std::move(F));
  }
  return llvm::json::Object{{"id", R.Id},
                            {"language", R.Language},
                            {"category", R.Category},
                            {"severity", severityName(R.Sev)},
                            {"message", R.Message},
                            {"patterns", std::move(Patterns)},
                            {"fixes", std::move(Fixes)}};
}

void renderExplain(llvm::raw_ostream &OS, const Rule &R, const BackendTable *Backends) {
  OS << "# " << R.Id << "\n\n";
  OS << R.Message << "\n\n";
  OS << "Kind: " << (R.Kind == RuleKind::Keep ? "keep (code that must stay CUDA)" : "finding")
     << ". Language: " << R.Language << ". Category: " << R.Category
     << ". Severity: " << severityName(R.Sev) << ".\n\n";
  OS << "## What it does\n\n";
  if (!R.Description.empty())
    OS << llvm::StringRef(R.Description).trim() << "\n\n";
  OS << "It matches:\n\n";
  for (const RulePattern &P : R.Patterns)
    OS << "    " << P.Text << "\n";
  OS << "\n";
  if (!R.Where.empty()) {
    OS << "where\n\n";
    for (const auto &[Name, C] : R.Where) {
      OS << "- `$" << Name << "`";
      if (!C.Regex.empty())
        OS << " matches `" << C.Regex << "`";
      if (!C.NotRegex.empty())
        OS << (C.Regex.empty() ? "" : " and") << " does not match `" << C.NotRegex << "`";
      OS << "\n";
    }
    OS << "\n";
  }
  OS << "## Why is this bad?\n\n";
  if (R.Kind == RuleKind::Keep)
    OS << "It is not: this code is CUDA-specific by design. devport accounts for it (`devport "
          "check --show-kept` lists it) and reports no other finding inside it.\n\n";
  else
    OS << R.Message << ": the code does not run, or silently falls back to the CPU, on other "
          "accelerators (XPU, MPS, NPU, HPU, ...).\n\n";
  if (!R.Examples.empty()) {
    OS << "## Example\n\n";
    for (const RuleExample &Ex : R.Examples)
      OS << "```python\n" << llvm::StringRef(Ex.Before).rtrim() << "\n```\n\n";
    bool After = llvm::any_of(R.Examples, [](const RuleExample &E) { return !E.After.empty(); });
    if (After) {
      OS << "Use instead:\n\n";
      for (const RuleExample &Ex : R.Examples)
        if (!Ex.After.empty())
          OS << "```python\n" << llvm::StringRef(Ex.After).rtrim() << "\n```\n\n";
    }
  }
  OS << "## Fix safety\n\n";
  if (R.Fixes.empty()) {
    OS << "No fix: the finding is reported for a human to decide.\n\n";
  } else {
    for (const RuleFix &X : R.Fixes) {
      FixPortability FP = portabilityOf(X, Backends);
      const std::vector<std::string> &Why = FP.Why;
      bool ByBinding = FP.ByBinding;
      Applicability App = FP.App;
      OS << "- PyTorch " << X.Since.str() << " or later: `" << X.Template << "` ("
         << applicabilityName(App) << ")";
      if (!X.Note.empty())
        OS << ": " << X.Note;
      OS << "\n";
      for (const std::string &W : Why)
        OS << "  - " << W << "\n";
      if (ByBinding)
        OS << "  - the function the pattern binds decides: where a backend module lacks it "
              "(data/backends.yaml), the fix is unsafe off CUDA, with a note saying where\n";
    }
    OS << "\nThe first fix whose release is at most the target is used (`--target-torch`, "
          "else `target-torch` in `.devport.yaml`, else the floor of the project's torch "
          "requirement, else "
       << TorchVersion::defaultTarget().str()
       << "). A fix is safe only if the behaviour on a CUDA host stays the same and "
          "code that ran on another accelerator (XPU, MPS) or on a CPU-only build still runs; "
          "out-of-tree backends (NPU, HPU) are not judged. Anything else is unsafe and needs "
          "`--unsafe-fixes`. Where the code around a finding requires it, a safe fix becomes "
          "unsafe or is dropped, with a note: an edit that would remove a comment, a guard whose "
          "block keeps CUDA-only code, a device query that would run at import or definition "
          "time (see docs/safety.md).\n\n";
  }
  if (!R.Note.empty())
    OS << "## Notes\n\n" << llvm::StringRef(R.Note).trim() << "\n\n";
  bool UsesDevice = llvm::any_of(R.Fixes, [](const RuleFix &X) {
    return llvm::StringRef(X.Template).contains("$DEVICE");
  });
  OS << "## Options\n\n- `--target-torch` / `target-torch`: picks the fix.\n";
  if (UsesDevice)
    OS << "- `--device-expression` / `device-expression` (`$DEVICE`, default "
          "`torch.accelerator.current_accelerator()`) and `--device-type-expression` "
          "(`$DEVICE_TYPE`): the device the fix writes.\n";
  OS << "- `# devport: ignore[" << R.Id << "]` silences one finding; `ignore: [" << R.Id
     << "]` in `.devport.yaml` all of them.\n";
  if (!R.Url.empty())
    OS << "\n## References\n\n- " << R.Url << "\n";
}

} // namespace devport
