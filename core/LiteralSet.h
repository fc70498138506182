//===--- LiteralSet.h - Which of many words occur in a text, in one pass --===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The prefilter of every backend asks which of its patterns' literal words
/// occur in a file. One StringRef::find per word reads the file once per
/// word (over PyTorch's C++ tree, 30-odd words made that a sixth of a lexical
/// run); a LiteralSet reads it once. A position whose first two bytes start
/// no word is passed over by one table load, sixteen at a time without a
/// branch; otherwise those two bytes index
/// the words of two or three bytes, and the first four bytes, hashed, those
/// of four bytes or more, and only those are compared (by two bytes alone,
/// pairs as common as `to` or `de` sent a word list to memcmp: the Python
/// rules' words start with pairs found at 13% of the positions of PyTorch's
/// Python files). findAll() gives every occurrence, for region parsing
/// (matchers/python/Regions.h).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_LITERALSET_H
#define DEVPORT_CORE_LITERALSET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace devport {

class LiteralSet {
public:
  /// Adds Word (not empty) unless it is there; returns its index. Only
  /// before freeze().
  unsigned add(llvm::StringRef Word);
  /// Indexes the words; call once, after the last add() and before scan().
  void freeze();
  unsigned size() const { return static_cast<unsigned>(Words.size()); }
  llvm::StringRef word(unsigned I) const { return Words[I]; }

  /// Found[I] tells whether word I occurs in Text. Read-only: may run on
  /// many threads. With OnFound, OnFound(I) is called once for each word I
  /// found, and the scan stops when it returns true: Found is then partial.
  std::vector<bool> scan(llvm::StringRef Text,
                         llvm::function_ref<bool(unsigned)> OnFound = nullptr) const;

  /// Where a word occurs.
  struct Occurrence {
    uint32_t Offset;
    unsigned Word;
  };
  /// Every occurrence of every word in Text (which must be under 4 GiB), by
  /// offset, appended to Out. Read-only, as scan().
  void findAll(llvm::StringRef Text, std::vector<Occurrence> &Out) const;

private:
  static constexpr size_t KeyWords = 65536 / 64;
  /// Words indexed by a 16-bit key: the words with each key, and which keys
  /// have any.
  struct Index {
    std::vector<std::pair<uint16_t, unsigned>> ByKey; ///< Sorted by freeze().
    std::vector<uint32_t> Start; ///< Where each key's run starts in ByKey: 65,537 entries.
    std::vector<uint64_t> Bits;  ///< Bit K: ByKey has key K.
    void freeze();
  };

  std::vector<std::string> Words;
  Index Short; ///< Words of two or three bytes, by their first two.
  Index Long;  ///< Words of four bytes or more, by their first four, hashed (longKey()).
  /// Byte K is 1 when a word of two bytes or more starts with the two bytes
  /// K, read as one 16-bit load (pairAt() in LiteralSet.cpp).
  std::vector<uint8_t> FirstTwo;
  std::vector<unsigned> OneByte; ///< Words of one byte.
};

/// Requirements on the words of a LiteralSet, each all of some words and one
/// of each of some groups (a prefilter's patterns): met() tells whether a
/// text meets one, counting as the scan finds words (re-reading every
/// requirement for each word found was a tenth of a run over small files).
class WordRequirements {
public:
  static constexpr unsigned NoWord = ~0u;
  /// Adds a requirement: every word of AllOf, and one word of each group of
  /// AnyOf (none empty). Returns its index.
  unsigned add(llvm::ArrayRef<unsigned> AllOf, llvm::ArrayRef<std::vector<unsigned>> AnyOf = {});
  /// Whether Text meets some requirement; the scan stops at the first met.
  bool met(const LiteralSet &S, llvm::StringRef Text) const;
  /// The same, and whether S's word Also (in no requirement; NoWord: none)
  /// occurs in Text, which the scan tells where it read all of Text: where
  /// no requirement is met (HasAlso is left unset where one is).
  bool met(const LiteralSet &S, llvm::StringRef Text, unsigned Also,
           std::optional<bool> &HasAlso) const;
  /// Whether a text that holds exactly these words (distinct ids, any
  /// order) meets some requirement.
  bool metBy(llvm::ArrayRef<unsigned> Words) const;

private:
  struct Use {
    unsigned Requirement;
    int Group; ///< Index into the groups, or -1 for an AllOf word.
  };
  /// Counts word W as found; true when that meets a requirement.
  bool found(unsigned W, llvm::MutableArrayRef<unsigned> Left,
             llvm::MutableArrayRef<uint8_t> GroupMet) const;
  std::vector<unsigned> Need;         ///< Per requirement: its words and groups.
  std::vector<std::vector<Use>> Uses; ///< Per word: where it counts.
  unsigned Groups = 0;
  bool AlwaysMet = false; ///< A requirement with no word at all.
};

} // namespace devport

#endif
