//===--- NameWords.h - The words of an identifier ---------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// An identifier's words, as the backends read names that say CUDA: separated
// by `_`, and starting again at a capital after a lower-case letter
// (`cudaAwareMpiCheck`: cuda, Aware, Mpi, Check).
//
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_NAMEWORDS_H
#define DEVPORT_CORE_NAMEWORDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace devport {

/// Whether one of Name's words is one of Words, in any case.
bool hasNameWord(llvm::StringRef Name, llvm::ArrayRef<llvm::StringLiteral> Words);

} // namespace devport

#endif
