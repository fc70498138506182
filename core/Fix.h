//===--- Fix.h - Edits and fixes ------------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plain structs for source edits and fixes. An Edit replaces a byte range of
/// a SourceFile's text; a Fix groups the edits that must be applied together.
/// Conversion to LSP, SARIF or JSON lives at the edges (tools/, lsp/).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_FIX_H
#define DEVPORT_CORE_FIX_H

#include <cstdint>
#include <string>
#include <vector>

namespace devport {

/// A half-open byte range [Begin, End) into a file's text (UTF-8 bytes).
struct ByteRange {
  uint32_t Begin = 0;
  uint32_t End = 0;

  bool empty() const { return Begin == End; }
  uint32_t size() const { return End - Begin; }
  bool contains(ByteRange O) const { return Begin <= O.Begin && O.End <= End; }
  /// True if the two ranges share at least one byte, or if both are empty
  /// insertions at the same offset, or one is an insertion strictly inside
  /// the other.
  bool overlaps(ByteRange O) const {
    if (empty() && O.empty())
      return Begin == O.Begin;
    if (empty())
      return O.Begin < Begin && Begin < O.End;
    if (O.empty())
      return Begin < O.Begin && O.Begin < End;
    return Begin < O.End && O.Begin < End;
  }
  friend bool operator==(ByteRange A, ByteRange B) {
    return A.Begin == B.Begin && A.End == B.End;
  }
  friend bool operator!=(ByteRange A, ByteRange B) { return !(A == B); }
};

/// How safe a fix is to apply without a human looking at it.
enum class Applicability {
  Safe,        ///< Same behaviour on CUDA; applied by `devport fix`.
  Unsafe,      ///< May change behaviour; applied only with --unsafe-fixes.
  DisplayOnly, ///< Shown as a suggestion, never applied.
};

/// "safe", "unsafe", "display-only".
const char *applicabilityName(Applicability A);

/// What an edit does, for the front ends and for embedded code: an edit that
/// adds an import has no place in a doctest, and the one-line summary of a fix
/// names the import it adds.
enum class EditRole : uint8_t {
  Code,         ///< Rewrites the matched code.
  AddImport,    ///< Inserts an import statement the replacement needs.
  RemoveImport, ///< Removes an import that the fixes left unused.
};

/// One replacement of a byte range by new text.
struct Edit {
  ByteRange Range;
  std::string Replacement;
  EditRole Role = EditRole::Code;

  static Edit replacement(ByteRange R, std::string Text) {
    return {R, std::move(Text), EditRole::Code};
  }
  static Edit insertion(uint32_t Offset, std::string Text, EditRole Role = EditRole::Code) {
    return {{Offset, Offset}, std::move(Text), Role};
  }
  static Edit deletion(ByteRange R, EditRole Role = EditRole::Code) {
    return {R, std::string(), Role};
  }

  friend bool operator==(const Edit &A, const Edit &B) {
    return A.Range == B.Range && A.Replacement == B.Replacement;
  }
};

/// A set of edits applied all together or not at all. Edits are sorted by
/// range and never overlap each other.
struct Fix {
  std::string Title; ///< One line for a human, e.g. "use torch.accelerator.synchronize".
  std::vector<Edit> Edits;
  Applicability App = Applicability::Safe;

  /// The smallest range that covers every edit.
  ByteRange span() const;
};

} // namespace devport

#endif
