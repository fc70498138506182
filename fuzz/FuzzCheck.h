//===--- FuzzCheck.h - Invariants that crash a fuzz target ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// FUZZ_CHECK(Cond, What): when Cond is false, print what was violated and
/// abort, so that libFuzzer (and the replay driver) report the input as a
/// crash. A violated invariant is a bug, like a sanitizer report.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_FUZZ_FUZZCHECK_H
#define DEVPORT_FUZZ_FUZZCHECK_H

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(Cond, What)                                                                 \
  do {                                                                                         \
    if (!(Cond)) {                                                                             \
      std::fprintf(stderr, "%s:%d: fuzz invariant violated: %s (%s)\n", __FILE__, __LINE__,    \
                   What, #Cond);                                                               \
      std::abort();                                                                            \
    }                                                                                          \
  } while (0)

#endif
