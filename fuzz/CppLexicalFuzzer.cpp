//===--- CppLexicalFuzzer.cpp - The C++ lexical engine end to end -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One input = one CUDA-free C++ file (`fuzz.cpp`, not a CUDA-role path, so
/// that every rule applies) checked by the lexical engine (no compile
/// commands): lex, match, fix, re-lex with the embedded rules
/// (fuzz/EngineRoundTrip.h says what is asserted; "syntax errors" are the
/// lexer's errors).
///
//===----------------------------------------------------------------------===//

#include "fuzz/EngineRoundTrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  devport::fuzz::engineRoundTrip("fuzz.cpp", Data, Size);
  return 0;
}
