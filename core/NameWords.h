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
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace devport {

/// Whether one of Name's words is one of Words, in any case.
bool hasNameWord(llvm::StringRef Name, llvm::ArrayRef<llvm::StringLiteral> Words);

/// Name's words, lower-cased, split where hasNameWord() splits and also
/// after a digit and before the last capital of a run that a lower-case
/// letter follows (`GPUTestCase`: gpu, test, case), in order: for readers
/// that ask where a word stands (the first word of a test's name, its last).
llvm::SmallVector<std::string, 8> nameWords(llvm::StringRef Name);

} // namespace devport

#endif
