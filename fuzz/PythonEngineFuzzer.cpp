//===--- PythonEngineFuzzer.cpp - The Python engine end to end --------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One input = one Python file (`fuzz.py`): parse, match, fix, re-parse with
/// the embedded rules (fuzz/EngineRoundTrip.h says what is asserted).
///
//===----------------------------------------------------------------------===//

#include "fuzz/EngineRoundTrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  devport::fuzz::engineRoundTrip("fuzz.py", Data, Size);
  return 0;
}
