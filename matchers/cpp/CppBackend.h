//===--- CppBackend.h - The C++ language backend --------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Everything about C++ that the generic Engine needs, behind
/// LanguageBackend. Two engines share the rule database:
///   - lexical (always available, the default for pre-commit and editors):
///     Clang's raw lexer and token patterns (CppMatcher.h);
///   - semantic (when a compile command exists for the file): Clang
///     LibTooling and each rule's `matcher:` (Semantic.h). A file that does
///     not compile falls back to the lexical engine with a note; rules
///     without a matcher, and keep rules, always run lexically, and so does
///     every rule in the `#if` branches that the compile skipped and in the
///     file's `#define` bodies (not at the macros' uses).
/// Every finding says which engine found it (Match::Engine).
///
/// File roles: a file that is CUDA by design (`*.cu`, `*.cuh`, a `cuda/` or
/// `hip/` directory, `*_cuda.cpp`, `*CUDA*.cpp`, plus `cuda-role-files`
/// globs of .devport.yaml) gets the role "cuda": the `@cuda-file` keep rule
/// covers it whole, so generic rules' findings there are kept, not reported.
///
/// Fixes: templates are expanded with the bound text; a fix that calls
/// `at::getAccelerator` / `at::isAccelerator` / `at::accelerator::` adds
/// `#include <ATen/DeviceAccelerator.h>` when the file lacks it. A fix is
/// refused where the lexical context makes it wrong: an unresolved name, a
/// constant expression, namespace or class scope (static initialization), a
/// macro.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_CPP_CPPBACKEND_H
#define DEVPORT_MATCHERS_CPP_CPPBACKEND_H

#include "core/LanguageBackend.h"
#include "matchers/cpp/CppLexer.h"

#include <string>
#include <vector>

namespace devport::cpp {

class CppParsedFile final : public ParsedFile {
public:
  CppParsedFile(std::string Path, llvm::StringRef Text) : Path(std::move(Path)), Lex(Text) {}
  /// Text lexed but for Gaps (LexedFile's).
  CppParsedFile(std::string Path, llvm::StringRef Text, llvm::ArrayRef<ByteRange> Gaps,
                llvm::ArrayRef<ByteRange> GapComments)
      : Path(std::move(Path)), Lex(Text, Gaps, GapComments) {}
  llvm::StringRef text() const override { return Lex.text(); }
  unsigned syntaxErrors() const override { return Lex.errors(); }
  const std::string &path() const { return Path; }
  const LexedFile &lexed() const { return Lex; }

private:
  std::string Path;
  LexedFile Lex;
};

/// Whether a name (a file's stem, a function's) says CUDA: `cuda`, `cudnn`,
/// `hip`, `nccl`, `cublas`, `cusparse` or `cufft` as a word, `_`-separated or
/// camel-cased (`cudaAwareMpiCheck`), in any case, or `CUDA`, `Cuda`, `NCCL`,
/// `Cudnn` or `CuDNN` in it.
bool isCudaRoleName(llvm::StringRef Name);

/// Whether a `.cu` or `.cuh` file of Path's stem sits beside it (Path is not
/// one): Path is then the host half of that CUDA code, CUDA by design.
bool hasCudaTwin(llvm::StringRef Path);

/// Whether L includes a header of `c10/cuda/` or `ATen/cuda/` outside any
/// `#if` (an include guard aside): it does not build without CUDA.
bool includesCudaOnlyHeaders(const LexedFile &L);

/// Whether Path is CUDA by design by its name alone (extension, directory,
/// file name).
bool isCudaRolePath(llvm::StringRef Path);

class CppBackend final : public LanguageBackend {
public:
  llvm::StringRef language() const override { return "cpp"; }
  bool handlesPath(llvm::StringRef Path) const override;
  llvm::StringRef commentMarker() const override { return "//"; }

  llvm::Expected<std::unique_ptr<CompiledRules>>
  compile(const RuleSet &Rules, const BackendOptions &Opts = {}) const override;
  std::unique_ptr<ParsedFile> parse(llvm::StringRef Text, const ParsedFile *Previous = nullptr,
                                    llvm::ArrayRef<Edit> Edits = {}) const override;
  std::unique_ptr<ParsedFile> parseFile(llvm::StringRef Path, llvm::StringRef Text,
                                        const ParsedFile *Previous = nullptr,
                                        llvm::ArrayRef<Edit> Edits = {}) const override;
  /// The file lexed but for the statements between its Ranges
  /// (CppMatcher::gaps), whose comments are its Marks' comments.
  std::unique_ptr<ParsedFile> parseRegions(llvm::StringRef Path, llvm::StringRef Text,
                                           const RegionText &R) const override;
  BuiltFix buildFix(const ParsedFile &P, const MatchResults &Found, const Match &M,
                    const FixRequest &Req) const override;
  /// The findings in the code around them (Review.h).
  void reviewFixes(const ParsedFile &P, std::vector<Diagnostic> &Findings,
                   std::vector<Diagnostic> &Kept, const BackendOptions &Opts) const override;
  std::vector<Edit> unusedImportEdits(const ParsedFile &, const ParsedFile &) const override {
    return {};
  }
};

} // namespace devport::cpp

#endif
