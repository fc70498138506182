//===--- EngineRoundTrip.h - parse, match, fix, re-parse one input ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The end-to-end invariants the Python and C++ engine fuzz targets assert
/// on one input, checked as the file Path with the embedded rule database and
/// `--unsafe-fixes`:
///   - fix() gives the same fixed text with region parsing (the default) and
///     with EngineOptions::WholeFiles, and so does check() its findings, keep
///     matches and suppressed findings where the whole file parses (a syntax
///     error that the regions leave out is not seen by check(), by design);
///   - the fixed text parses with no more syntax errors than the input;
///   - a second fix() of the fixed text applies nothing (when the first one
///     converged);
///   - the language server's check after one edit (Engine::checkIncremental
///     with the previous parse; the edit is taken from the input's first and
///     last bytes) finds what a check of the edited text from scratch finds.
/// Input that is not valid UTF-8 (or holds a NUL) must be refused by
/// SourceFile::fromBytes, and then nothing else is checked.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_FUZZ_ENGINEROUNDTRIP_H
#define DEVPORT_FUZZ_ENGINEROUNDTRIP_H

#include <cstddef>
#include <cstdint>

namespace devport::fuzz {

void engineRoundTrip(const char *Path, const uint8_t *Data, size_t Size);

} // namespace devport::fuzz

#endif
