//===--- FindWordTest.cpp - findWord() against a plain search -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// findWord() tests sixteen starts at a time for a word's first and last
/// bytes: it must find what std::string_view::find finds, at every start
/// offset, for words of every length, at block edges and at the text's end,
/// with bytes of every value (a signed char compares as the byte it is).
///
//===----------------------------------------------------------------------===//

#include "matchers/python/Syntax.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

namespace devport::python {
namespace {

size_t reference(std::string_view Text, std::string_view Word, size_t From) {
  if (From >= Text.size())
    return llvm::StringRef::npos;
  size_t At = Text.find(Word, From);
  return At == std::string_view::npos ? llvm::StringRef::npos : At;
}

TEST(FindWord, FindsWhatAPlainSearchFinds) {
  std::mt19937 Rand(7);
  // Few letters: words occur often, and near misses (first and last byte
  // right, a middle one wrong) more often still.
  const std::string Alphabet = "imp\xE9\x80 ort\n";
  for (int Round = 0; Round < 3000; ++Round) {
    std::string Text;
    for (int L = Rand() % 90; L > 0; --L)
      Text += Alphabet[Rand() % Alphabet.size()];
    std::string Word;
    for (int L = 1 + Rand() % 7; L > 0; --L)
      Word += Alphabet[Rand() % Alphabet.size()];
    if (Rand() % 3 == 0 && !Text.empty()) // the word itself, somewhere, the end too
      Text.insert(Rand() % (Text.size() + 1), Word);
    for (size_t From = 0; From <= Text.size() + 1; ++From)
      ASSERT_EQ(reference(Text, Word, From), findWord(Text, Word, From))
          << "text '" << Text << "' word '" << Word << "' from " << From;
  }
}

TEST(FindWord, AtEveryPlaceOfALongText) {
  for (size_t Len : {2u, 6u, 17u}) {
    std::string Word(Len, 'x');
    Word.front() = 'i';
    Word.back() = 't';
    for (size_t At = 0; At < 70; ++At) {
      std::string Text(80, '.');
      Text.replace(At, Len, Word);
      Text.resize(std::max(Text.size(), At + Len));
      EXPECT_EQ(At, findWord(Text, Word)) << Len << " at " << At;
      EXPECT_EQ(llvm::StringRef::npos, findWord(Text, Word, At + 1));
      // The text cut to end at the word's last byte.
      EXPECT_EQ(At, findWord(llvm::StringRef(Text).take_front(At + Len), Word));
      EXPECT_EQ(llvm::StringRef::npos,
                findWord(llvm::StringRef(Text).take_front(At + Len - 1), Word));
    }
  }
}

} // namespace
} // namespace devport::python
