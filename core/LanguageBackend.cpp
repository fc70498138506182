//===--- LanguageBackend.cpp - The per-language part of the pipeline ------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/LanguageBackend.h"
#include "core/Reporter.h"
#include "core/Workspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>

namespace devport {

ParsedFile::~ParsedFile() = default;
MatchContext::~MatchContext() = default;
CompiledRules::~CompiledRules() = default;

void ParsedFile::setMarks(MatchMarks) {}
bool ParsedFile::prepareIncrementalMatch(const CompiledRules &) { return false; }

std::optional<RegionText> CompiledRules::regionMarks(llvm::StringRef) const { return std::nullopt; }

std::vector<Match> CompiledRules::pathMatches(llvm::StringRef, llvm::StringRef) const { return {}; }

std::vector<llvm::StringRef> BackendOptions::customDevice() const {
  std::vector<llvm::StringRef> Out;
  std::string DefaultType = DefaultDeviceExpression.str() + ".type";
  for (llvm::StringRef E :
       {llvm::StringRef(DeviceExpression), llvm::StringRef(DeviceTypeExpression)})
    if (!E.empty() && E != DefaultDeviceExpression && E != DefaultType &&
        !llvm::is_contained(Out, E))
      Out.push_back(E);
  return Out;
}

bool BackendOptions::inCudaRoleGlobs(llvm::StringRef Path) const {
  if (CudaRoleGlobs.empty())
    return false;
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::StringRef Rel = Abs;
  if (!GlobBase.empty() && Rel.startswith(GlobBase))
    Rel = Rel.drop_front(GlobBase.size()).ltrim('/');
  return llvm::any_of(CudaRoleGlobs,
                      [&](const std::string &G) { return matchGlob(G, Rel, false); });
}

std::optional<RegionText> CompiledRules::regionText(llvm::StringRef, llvm::StringRef) const {
  return std::nullopt;
}
LanguageBackend::~LanguageBackend() = default;
bool LanguageBackend::compileCannotFail(const RuleSet &, const BackendOptions &) const {
  return false;
}
void LanguageBackend::reviewFixes(const ParsedFile &, std::vector<Diagnostic> &,
                                  std::vector<Diagnostic> &, const BackendOptions &) const {}
bool LanguageBackend::forgetFile(llvm::StringRef) const { return false; }
Reporter::~Reporter() = default;

std::optional<uint32_t> EmbeddedCode::toFile(uint32_t CodeOffset) const {
  auto It = std::upper_bound(Segments.begin(), Segments.end(), CodeOffset,
                             [](uint32_t X, const Segment &S) { return X < S.Code; });
  if (It == Segments.begin())
    return std::nullopt;
  --It;
  if (CodeOffset > It->Code + It->Len)
    return std::nullopt;
  return It->File + (CodeOffset - It->Code);
}

std::optional<ByteRange> EmbeddedCode::toFile(ByteRange R) const {
  auto B = toFile(R.Begin), E = toFile(R.End);
  if (!B || !E || *E < *B || (*E - *B) != R.size())
    return std::nullopt; // spans segments: not contiguous in the file
  return ByteRange{*B, *E};
}

std::unique_ptr<ParsedFile> LanguageBackend::parseFile(llvm::StringRef, llvm::StringRef Text,
                                                       const ParsedFile *Previous,
                                                       llvm::ArrayRef<Edit> Edits) const {
  return parse(Text, Previous, Edits);
}

std::unique_ptr<ParsedFile> LanguageBackend::parseRegions(llvm::StringRef Path,
                                                          llvm::StringRef Text,
                                                          const RegionText &R) const {
  return parseFile(Path, R.Text.empty() ? Text : llvm::StringRef(R.Text));
}

} // namespace devport
