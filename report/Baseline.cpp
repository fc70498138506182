//===--- Baseline.cpp - Findings known from an earlier run ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Baseline.h"

#include "core/SourceFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <utility>

namespace devport {

namespace {

/// xxHash64 of Line without its whitespace, as 16 hex digits.
std::string lineHash(llvm::StringRef Line) {
  std::string Compact;
  Compact.reserve(Line.size());
  for (char C : Line)
    if (!llvm::isSpace(C))
      Compact += C;
  return llvm::utohexstr(llvm::xxHash64(Compact), /*LowerCase=*/true, /*Width=*/16);
}

llvm::Error fail(llvm::StringRef Name, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), (Name + ": " + Why).str());
}

/// Whether Path is Root or inside it (both baselinePath()s).
bool isUnder(llvm::StringRef Path, llvm::StringRef Root) {
  if (Root == "." || Root.empty())
    return !Path.startswith("/") && !Path.startswith("../");
  if (!Path.startswith(Root))
    return false;
  return Path.size() == Root.size() || Root.endswith("/") || Path[Root.size()] == '/';
}

} // namespace

std::vector<std::string> fingerprints(const SourceFile &F, llvm::ArrayRef<Diagnostic> Findings) {
  std::vector<std::string> Out;
  Out.reserve(Findings.size());
  // Occurrences so far of each (rule, line hash).
  std::map<std::pair<llvm::StringRef, std::string>, unsigned> Seen;
  for (const Diagnostic &D : Findings) {
    std::string Hash = lineHash(F.lineText(F.lineOf(D.Range.Begin)));
    unsigned N = ++Seen[{D.RuleId, Hash}];
    Out.push_back(Hash + ":" + std::to_string(N));
  }
  return Out;
}

std::string baselinePath(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::native(P, llvm::sys::path::Style::posix);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true, llvm::sys::path::Style::posix);
  llvm::StringRef S = P;
  while (S.startswith("./"))
    S = S.drop_front(2);
  return S.empty() ? "." : S.str();
}

llvm::Expected<Baseline> Baseline::load(llvm::StringRef File) {
  auto Text = readRegularFile(File, MaxSourceFileBytes);
  if (!Text)
    return fail(File, "cannot read: " + takeReadFailure(Text.takeError(), File).Reason);
  return parse(*Text, File);
}

llvm::Expected<Baseline> Baseline::parse(llvm::StringRef Json, llvm::StringRef Name) {
  auto Doc = llvm::json::parse(Json);
  if (!Doc)
    return fail(Name, "not valid JSON: " + llvm::toString(Doc.takeError()));
  const llvm::json::Object *Top = Doc->getAsObject();
  const llvm::json::Array *Ds = Top ? Top->getArray("diagnostics") : nullptr;
  if (!Ds)
    return fail(Name, "not the JSON of `devport check --format json` (no \"diagnostics\" array)");
  Baseline B;
  for (size_t I = 0; I < Ds->size(); ++I) {
    std::string Where = "diagnostics[" + std::to_string(I) + "]";
    const llvm::json::Object *O = (*Ds)[I].getAsObject();
    if (!O)
      return fail(Name, Where + ": not an object");
    Entry E;
    for (auto [Key, Into] : {std::pair<const char *, std::string *>{"path", &E.Path},
                             {"rule", &E.Rule},
                             {"fingerprint", &E.Fingerprint}}) {
      auto V = O->getString(Key);
      if (!V) {
        std::string Why = Where + ": no \"" + Key + "\" string";
        if (llvm::StringRef(Key) == "fingerprint")
          Why += " (made by a devport without fingerprints? run `devport check --format json` "
                 "again)";
        return fail(Name, Why);
      }
      *Into = V->str();
    }
    E.Path = baselinePath(E.Path);
    E.Line = O->getInteger("line").getValueOr(0);
    B.ByPath[E.Path].push_back(std::move(E));
    ++B.Size;
  }
  return B;
}

std::vector<bool> Baseline::match(const SourceFile &F, llvm::ArrayRef<Diagnostic> Findings) {
  std::vector<bool> Known(Findings.size(), false);
  auto It = ByPath.find(baselinePath(F.path()));
  if (It == ByPath.end() || Findings.empty())
    return Known;
  std::vector<std::string> FPs = fingerprints(F, Findings);
  for (size_t I = 0; I < Findings.size(); ++I)
    for (Entry &E : It->second)
      if (!E.Matched && E.Rule == Findings[I].RuleId && E.Fingerprint == FPs[I]) {
        E.Matched = true;
        Known[I] = true;
        break;
      }
  return Known;
}

size_t Baseline::removeKnown(FileReport &R) {
  if (!R.File || R.Findings.empty())
    return 0;
  std::vector<bool> Known = match(*R.File, R.Findings);
  std::vector<Diagnostic> Left;
  for (size_t I = 0; I < R.Findings.size(); ++I)
    if (!Known[I])
      Left.push_back(std::move(R.Findings[I]));
  size_t Dropped = R.Findings.size() - Left.size();
  R.Findings = std::move(Left);
  return Dropped;
}

std::vector<const Baseline::Entry *> Baseline::unmatched(llvm::ArrayRef<std::string> Roots) const {
  std::vector<std::string> Under;
  for (const std::string &R : Roots)
    Under.push_back(baselinePath(R));
  std::vector<const Entry *> Out;
  for (const auto &[Path, Entries] : ByPath) {
    if (!Under.empty() &&
        llvm::none_of(Under, [&, &Path = Path](const std::string &R) { return isUnder(Path, R); }))
      continue;
    for (const Entry &E : Entries)
      if (!E.Matched)
        Out.push_back(&E);
  }
  return Out;
}

} // namespace devport
