//===--- AtomicWrite.h - Writing a file without losing it -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Replaces a file's content atomically: the new bytes go to a temporary file
/// in the same directory, which is fsync'ed, given the old file's permission
/// bits and renamed over the original. Refuses (and leaves the file alone)
/// when the file changed since it was read.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REWRITERS_ATOMICWRITE_H
#define DEVPORT_REWRITERS_ATOMICWRITE_H

#include "core/SourceFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace devport {

/// Writes Content to Path. If Expected.Valid, the file's current stamp
/// (size, mtime, inode) must equal it, else the error says "Path: changed on
/// disk since it was read; not written". The mode is taken from Expected (or
/// from the current file when Expected is not valid). A symlink is resolved
/// and its target is replaced, so the link stays a link. On any failure the
/// temporary file is removed and the original is untouched.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content,
                                const FileStamp &Expected);

/// Creates or replaces the output file Path (a report) with Content, through
/// a temporary file in the same directory renamed over it, so that a reader
/// never sees half a file. An existing file keeps its permission bits; a new
/// one gets 0666 less the umask. No stamp check: the file is ours.
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Content);

} // namespace devport

#endif
