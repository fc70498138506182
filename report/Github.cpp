//===--- Github.cpp - GitHub Actions annotations of a batch run -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Github.h"

#include "report/Render.h"
#include "report/Reporters.h"

namespace devport {

static std::string escape(llvm::StringRef S, bool Property) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '%':
      Out += "%25";
      continue;
    case '\r':
      Out += "%0D";
      continue;
    case '\n':
      Out += "%0A";
      continue;
    case ':':
      if (Property) {
        Out += "%3A";
        continue;
      }
      break;
    case ',':
      if (Property) {
        Out += "%2C";
        continue;
      }
      break;
    default:
      break;
    }
    Out += C;
  }
  return Out;
}

std::string escapeGithubData(llvm::StringRef S) { return escape(S, false); }
std::string escapeGithubProperty(llvm::StringRef S) { return escape(S, true); }

/// The command for a severity: error, warning, else notice.
static const char *commandOf(Severity S) {
  return S == Severity::Error || S == Severity::Warning ? severityName(S) : "notice";
}

void GithubReporter::file(const FileReport &R) {
  if (!R.Error.empty())
    Out << "::error title=devport::" << escapeGithubData(R.Error) << "\n";
  if (!R.File)
    return;
  renderFixWarnings(Err, R);
  auto Rel = Root.relative(R.File->path());
  if (!Rel) {
    Out << "::error title=devport::" << escapeGithubData(llvm::toString(Rel.takeError()))
        << "\n";
    return;
  }
  std::string File = escapeGithubProperty(*Rel);
  forEachFinding(R, [&](const SourceFile &F, const Diagnostic &D) {
    LineColumn B = F.lineColumn(D.Range.Begin), E = F.lineColumn(D.Range.End);
    Out << "::" << commandOf(D.Sev) << " file=" << File << ",line=" << B.Line;
    if (B.Line == E.Line)
      Out << ",col=" << B.Column << ",endLine=" << E.Line << ",endColumn=" << E.Column;
    else
      Out << ",endLine=" << E.Line;
    Out << ",title=" << escapeGithubProperty("devport (" + D.RuleId + ")") << "::";
    std::string Message = D.Message;
    for (const Fix &X : D.Fixes)
      Message += "\nfix (" + std::string(applicabilityName(X.App)) + "): " + fixSummary(F, D, X);
    for (const Note &N : D.Notes)
      Message += "\nnote: " + noteText(N);
    Out << escapeGithubData(Message) << "\n";
  });
}

void GithubReporter::finish(const Summary &) {}

} // namespace devport
