//===--- MemoRegex.h - A regex that remembers its answers -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// llvm::Regex with a per-thread memo of its recent answers. A rule set asks
/// its regexes about the same few texts over and over (`"cuda"`,
/// `"cuda:0"`, `"torch.cuda.is_available"`: 247 distinct questions of 1,531
/// over a third of PyTorch's Python tree), and LLVM's engine takes tens of
/// thousands of instructions per call for a pattern with groups or a long
/// alternation.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_MEMOREGEX_H
#define DEVPORT_CORE_MEMOREGEX_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <cstdint>
#include <string>

namespace devport {

class MemoRegex {
public:
  explicit MemoRegex(llvm::StringRef Pattern);

  /// As llvm::Regex::match(): whether T matches and, with Groups, the
  /// groups (a group that took no part is an empty StringRef with no data),
  /// each pointing into T.
  bool match(llvm::StringRef T, llvm::SmallVectorImpl<llvm::StringRef> *Groups = nullptr) const;

  bool isValid(std::string &Error) const { return Re.isValid(Error); }

  /// Texts up to this long are remembered; longer ones are always run.
  static constexpr size_t MaxRemembered = 128;
  /// A thread remembers up to this many answers of all regexes together,
  /// then forgets them all.
  static constexpr size_t MaxAnswers = 4096;

private:
  llvm::Regex Re;
  /// Unique over the process's life (never an address, which a later regex
  /// may reuse): the memo's key names the regex by it.
  uint64_t Id;
};

} // namespace devport

#endif
