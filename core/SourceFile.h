//===--- SourceFile.h - A file's bytes and its line index -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// SourceFile owns the bytes of one file and indexes its lines, so that byte
/// offsets (what the matchers and edits use) can be turned into the positions
/// people and tools see: 1-based lines, byte, code-point (text/JSON output) or
/// UTF-16 (LSP) columns. Immutable after construction; safe to share between
/// threads.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_SOURCEFILE_H
#define DEVPORT_CORE_SOURCEFILE_H

#include "core/Fix.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace devport {

/// What was on disk when a file was read; used to refuse writing a file that
/// changed since (see rewriters/AtomicWrite.h).
struct FileStamp {
  bool Valid = false; ///< False for stdin and in-memory buffers.
  uint64_t Size = 0;
  int64_t MTimeNs = 0;
  uint64_t Inode = 0;
  uint64_t Device = 0;
  uint32_t Mode = 0; ///< Permission bits when read.
  /// hashContent() of the bytes read, set by whoever writes the file back
  /// (engine/BatchRun.cpp, before writeFileAtomically): a writer that changes
  /// the file within one tick of the clock leaves size and mtime alone, but
  /// not this.
  std::optional<uint64_t> ContentHash;

  friend bool operator==(const FileStamp &A, const FileStamp &B) {
    return A.Valid == B.Valid && A.Size == B.Size && A.MTimeNs == B.MTimeNs &&
           A.Inode == B.Inode && A.Device == B.Device;
  }
};

/// Reads the stamp of Path (no content hash); an error if it cannot be
/// stat'ed.
llvm::Expected<FileStamp> statFile(llvm::StringRef Path);

/// The hash that FileStamp::ContentHash holds (64-bit xxHash).
uint64_t hashContent(llvm::StringRef Bytes);

/// The largest file SourceFile::read() reads: 64 MiB. A larger one (or a
/// device, a FIFO) is reported and skipped, never read.
constexpr uint64_t MaxSourceFileBytes = uint64_t(64) << 20;

/// Reads all of Path if it is a regular file of at most Limit bytes; a FIFO
/// or a device is refused without being waited on or read, a file that grows
/// past Limit while read is refused too. Errors name the path and the reason
/// ("is a directory", "not a regular file (a FIFO)", "too large (N bytes; the
/// limit is 4 MiB)"). Stamp, if given, gets the file's stamp (without the
/// content hash, which only a writer needs: hashContent() of the bytes).
/// For every file that comes with a checked tree (sources, configuration,
/// rule files, ignore files, packaging files). BeforeRead, if given, is told
/// the size the open file has before any byte is read (a batch run bounds
/// the bytes in memory with it, without a stat of its own).
llvm::Expected<std::string>
readRegularFile(llvm::StringRef Path, uint64_t Limit, FileStamp *Stamp = nullptr,
                llvm::function_ref<void(uint64_t)> BeforeRead = nullptr);

/// A readRegularFile() error of Path, taken apart.
struct ReadFailure {
  std::string Message; ///< "PATH: cannot stat: No such file or directory"
  std::string Reason;  ///< "No such file or directory": no path, no "cannot stat: "
                       ///< or "cannot read: " (for "PATH: cannot read the rule file: REASON")
  std::error_code Code;
};
ReadFailure takeReadFailure(llvm::Error E, llvm::StringRef Path);

/// The largest configuration, rule or packaging file devport reads: 4 MiB.
constexpr uint64_t MaxConfigFileBytes = uint64_t(4) << 20;

/// The length (1 to 4) of the well-formed UTF-8 sequence that S starts with
/// (overlongs and surrogates are not), or 0.
unsigned utf8SequenceLength(llvm::StringRef S);

/// Why a file's content cannot be checked.
enum class ContentProblem { None, Binary, InvalidUtf8 };

/// Classifies Bytes: Binary if it holds a NUL byte, InvalidUtf8 if it is not
/// well-formed UTF-8 (overlongs and surrogates included). On a problem,
/// ErrorOffset is the offset of the first offending byte.
ContentProblem checkContent(llvm::StringRef Bytes, size_t &ErrorOffset);

/// A 1-based line and column, as shown to users.
/// "\r\n" if Text's first line ending is CRLF, else "\n" (a lone CR is not CRLF).
llvm::StringRef lineEndingOf(llvm::StringRef Text);

/// The offset of the first occurrence of Word in Text at or after From, or
/// npos: the places where Word[A] and Word[B] (A < B) both are, sixteen at
/// a time (a general substring search over every file was some 4% of a C++
/// run; a memchr for one of the word's bytes stopped too often: over
/// PyTorch's C++ files, 'v' and ':' of `devport:` take 3.3 ms where a
/// memchr of its 'v' took 6.0).
size_t findByTwoBytes(llvm::StringRef Text, llvm::StringRef Word, size_t A, size_t B,
                      size_t From = 0);

/// Whether Text holds `devport:` anywhere (where a directive comment may be,
/// which is checked even when no rule can match): by its 'v' and ':'.
inline bool mentionsDevport(llvm::StringRef Text) {
  return findByTwoBytes(Text, "devport:", 2, 7) != llvm::StringRef::npos;
}

struct LineColumn {
  unsigned Line = 1;
  unsigned Column = 1;
};

class SourceFile {
public:
  /// An in-memory file; Text is taken as is (callers check it with
  /// checkContent first when it comes from outside).
  SourceFile(std::string Path, std::string Text, FileStamp Stamp = {});

  /// Reads Path. Fails with a message naming the path and the reason when it
  /// cannot be read, is not a regular file (a directory, a FIFO, a device:
  /// never opened for reading, so never waited on), is larger than
  /// MaxSourceFileBytes, is binary, or is not valid UTF-8 (with the line and
  /// column of the first bad byte). The stamp is the opened file's (no content
  /// hash: see FileStamp::ContentHash).
  static llvm::Expected<SourceFile> read(llvm::StringRef Path,
                                         llvm::function_ref<void(uint64_t)> BeforeRead = nullptr);

  /// Checks Bytes as read() does and wraps them; for stdin and LSP buffers.
  static llvm::Expected<SourceFile> fromBytes(std::string Path, std::string Bytes,
                                              FileStamp Stamp = {});

  const std::string &path() const { return Path; }
  /// Frees the text and its line index: the file then reads as empty (one
  /// empty line). For a batch's file that has nothing to report, on the
  /// thread that read it (engine/BatchRun.cpp).
  void forgetText() {
    std::string().swap(Text);
    Lines = std::make_shared<LineIndex>();
  }
  llvm::StringRef text() const { return Text; }
  const FileStamp &stamp() const { return Stamp; }

  /// True if the text starts with a UTF-8 byte order mark.
  bool hasBOM() const { return llvm::StringRef(Text).startswith("\xEF\xBB\xBF"); }
  /// "\r\n" if the first line ending is CRLF, else "\n".
  llvm::StringRef lineEnding() const;

  /// Number of lines; a final line without a newline counts, an empty file
  /// has one (empty) line.
  unsigned lineCount() const { return static_cast<unsigned>(lineStarts().size()); }
  /// 0-based line holding Offset (Offset may equal text().size()).
  unsigned lineOf(uint32_t Offset) const;
  /// Byte offset where the 0-based Line starts.
  uint32_t lineStart(unsigned Line) const { return lineStarts()[Line]; }
  /// The text of the 0-based Line without its line terminator.
  llvm::StringRef lineText(unsigned Line) const;

  /// Columns count from the first byte of a line's text; on the first line
  /// that is after a byte order mark, which editors do not show (a finding at
  /// the start of the file is at column 1, the LSP's 0).
  /// 1-based line and 1-based byte column.
  LineColumn byteLineColumn(uint32_t Offset) const;
  /// 1-based line and 1-based column in Unicode code points (text and JSON
  /// output).
  LineColumn lineColumn(uint32_t Offset) const;
  /// 0-based column of Offset in UTF-16 code units (LSP).
  unsigned utf16Column(uint32_t Offset) const;
  /// Offset of a 0-based line and a 0-based UTF-16 column, clamped to the
  /// line's end (LSP positions past the end of a line mean its end).
  uint32_t offsetFromUtf16(unsigned Line, unsigned Utf16Column) const;
  /// Offset of a 1-based line and 1-based code-point column, clamped to the
  /// line's end.
  uint32_t offsetFromLineColumn(unsigned Line, unsigned Column) const;

  /// Offset of column 1 of the 0-based Line: its start, or on the first
  /// line the byte after a byte order mark.
  uint32_t columnStart(unsigned Line) const;

private:
  /// Where each line starts: found when first asked (most files of a run
  /// have nothing to report; finding them for every file read was some 6%
  /// of a run's time over PyTorch's C++ tree). Copies share it; safe to ask
  /// from several threads.
  struct LineIndex {
    std::once_flag Once;
    std::vector<uint32_t> Starts;
  };
  const std::vector<uint32_t> &lineStarts() const;

  std::string Path;
  std::string Text;
  FileStamp Stamp;
  std::shared_ptr<LineIndex> Lines;
};

} // namespace devport

#endif
