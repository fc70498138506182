//===--- AtomicWrite.h - Writing a file without losing it -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Replaces a file's content atomically: the new bytes go to a temporary file
/// in the same directory, which gets the old file's owner, permission bits
/// and extended attributes, is fsync'ed, and takes the original's place in
/// one rename. Refuses (and leaves the file alone) when the file changed
/// since it was read, is read-only, cannot keep its owner, or has other hard
/// links. docs/cli.md ("Writing files") says what is guaranteed and which
/// races remain.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REWRITERS_ATOMICWRITE_H
#define DEVPORT_REWRITERS_ATOMICWRITE_H

#include "core/SourceFile.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace devport {

/// Writes Content to Path. A symlink is resolved and its target is replaced,
/// so the link stays a link. Every failure is "Path: why; not written" and
/// leaves the file and its directory as they were (no temporary file):
///
/// - Expected.Valid and the file is no longer the one read: another stamp
///   (size, mtime, inode) or, with Expected.ContentHash, other bytes. The
///   stamp is compared when the write starts; the bytes after the new file
///   has taken the old one's place (renameat2's RENAME_EXCHANGE, which puts
///   the old file back when it changed), or just before the rename where the
///   file system cannot exchange;
/// - the file is read-only (no write bit in its mode, whoever runs devport,
///   root included), or the user may not write it;
/// - its owner or group cannot be kept (a file of another user that a
///   non-root user may write), or an extended attribute (user.*, an ACL);
/// - it has more than one hard link (a replacement would split them);
/// - another program holds an exclusive flock() on it.
///
/// The permission bits are the file's own when written. While the
/// temporary file has a name (`.NAME.devport-XXXXXX`, from a moment before
/// the rename to a moment after it) this process holds a shared flock() on
/// it, so that removeStaleTempFile() can tell one left by a killed process.
///
/// BeforeReplace, for tests: called once the temporary file is written and
/// synced, just before it takes the file's place (where another writer is
/// most in the way).
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content,
                                const FileStamp &Expected,
                                llvm::function_ref<void()> BeforeReplace = {});

/// Creates or replaces the output file Path (a report) with Content, through
/// a temporary file in the same directory renamed over it, so that a reader
/// never sees half a file. An existing file keeps its permission bits; a new
/// one gets 0666 less the umask. No stamp check: the file is ours.
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Content);

/// Removes Path, a temporary file of writeFileAtomically() (isTempFileName()
/// of core/Workspace.h), if no process uses it: one left by a devport killed
/// while writing. False (and nothing removed) when a running devport holds
/// it, when it is not a regular file, or when the file system has no
/// flock(); an error when it cannot be removed.
llvm::Expected<bool> removeStaleTempFile(llvm::StringRef Path);

} // namespace devport

#endif
