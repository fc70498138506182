//===--- SourceFile.cpp - A file's bytes and its line index ---------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/SourceFile.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace devport {

const char *applicabilityName(Applicability A) {
  switch (A) {
  case Applicability::Safe:
    return "safe";
  case Applicability::Unsafe:
    return "unsafe";
  case Applicability::DisplayOnly:
    return "display-only";
  }
  return "safe";
}

ByteRange Fix::span() const {
  if (Edits.empty())
    return {};
  ByteRange R = Edits.front().Range;
  for (const Edit &E : Edits) {
    R.Begin = std::min(R.Begin, E.Range.Begin);
    R.End = std::max(R.End, E.Range.End);
  }
  return R;
}

/// The stamp of a stat result (no content hash).
static FileStamp stampOf(const struct stat &St) {
  FileStamp S;
  S.Valid = true;
  S.Size = static_cast<uint64_t>(St.st_size);
  S.MTimeNs = static_cast<int64_t>(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
  S.Inode = St.st_ino;
  S.Device = St.st_dev;
  S.Mode = St.st_mode & 07777;
  return S;
}

llvm::Expected<FileStamp> statFile(llvm::StringRef Path) {
  struct stat St;
  std::string P = Path.str();
  if (::stat(P.c_str(), &St) != 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "%s: cannot stat: %s", P.c_str(), strerror(errno));
  return stampOf(St);
}

uint64_t hashContent(llvm::StringRef Bytes) { return llvm::xxHash64(Bytes); }

/// Length of the UTF-8 sequence starting at P (1..4), or 0 if it is malformed.
static unsigned utf8SequenceLength(const unsigned char *P, const unsigned char *End) {
  unsigned char C = P[0];
  if (C < 0x80)
    return 1;
  unsigned Len;
  uint32_t Min;
  uint32_t CP;
  if ((C & 0xE0) == 0xC0) {
    Len = 2, Min = 0x80, CP = C & 0x1F;
  } else if ((C & 0xF0) == 0xE0) {
    Len = 3, Min = 0x800, CP = C & 0x0F;
  } else if ((C & 0xF8) == 0xF0) {
    Len = 4, Min = 0x10000, CP = C & 0x07;
  } else {
    return 0;
  }
  if (End - P < static_cast<std::ptrdiff_t>(Len))
    return 0;
  for (unsigned I = 1; I < Len; ++I) {
    if ((P[I] & 0xC0) != 0x80)
      return 0;
    CP = (CP << 6) | (P[I] & 0x3F);
  }
  if (CP < Min || CP > 0x10FFFF || (CP >= 0xD800 && CP <= 0xDFFF))
    return 0;
  return Len;
}

unsigned utf8SequenceLength(llvm::StringRef S) {
  if (S.empty())
    return 0;
  const auto *P = reinterpret_cast<const unsigned char *>(S.data());
  return utf8SequenceLength(P, P + S.size());
}

/// Whether the 32 bytes at P are ASCII and none is NUL.
static bool plainAscii32(const unsigned char *P) {
  constexpr uint64_t Ones = 0x0101010101010101ULL, High = 0x8080808080808080ULL;
  uint64_t Any = 0;
  for (int K = 0; K < 4; ++K) {
    uint64_t W;
    std::memcpy(&W, P + 8 * K, 8);
    Any |= W | ((W - Ones) & ~W); // a high bit set, or a zero byte
  }
  return (Any & High) == 0;
}

ContentProblem checkContent(llvm::StringRef Bytes, size_t &ErrorOffset) {
  const auto *Begin = reinterpret_cast<const unsigned char *>(Bytes.data());
  const auto *End = Begin + Bytes.size();
  // One pass: a NUL anywhere makes the file binary, even after bytes that
  // are not UTF-8 (then the rest is searched for one).
  auto Binary = [&](const unsigned char *From) {
    const void *Nul = std::memchr(From, 0, static_cast<size_t>(End - From));
    if (!Nul)
      return false;
    ErrorOffset = static_cast<size_t>(static_cast<const unsigned char *>(Nul) - Begin);
    return true;
  };
  for (const unsigned char *P = Begin; P < End;) {
    // Thirty-two ASCII bytes at a time: most source text is ASCII.
    if (End - P >= 32 && plainAscii32(P)) {
      P += 32;
      continue;
    }
    if (*P == 0) {
      ErrorOffset = static_cast<size_t>(P - Begin);
      return ContentProblem::Binary;
    }
    if (*P < 0x80) {
      ++P;
      continue;
    }
    unsigned Len = utf8SequenceLength(P, End);
    if (Len == 0) {
      if (Binary(P))
        return ContentProblem::Binary;
      ErrorOffset = static_cast<size_t>(P - Begin);
      return ContentProblem::InvalidUtf8;
    }
    P += Len;
  }
  return ContentProblem::None;
}

SourceFile::SourceFile(std::string Path, std::string Text, FileStamp Stamp)
    : Path(std::move(Path)), Text(std::move(Text)), Stamp(Stamp),
      Lines(std::make_shared<LineIndex>()) {}

const std::vector<uint32_t> &SourceFile::lineStarts() const {
  std::call_once(Lines->Once, [&] {
    std::vector<uint32_t> &Starts = Lines->Starts;
    Starts.push_back(0);
    const char *B = Text.data();
    size_t N = Text.size();
    if (!std::memchr(B, '\r', N)) {
      // No CR (most files): memchr finds the line ends.
      for (const char *P = B; (P = static_cast<const char *>(std::memchr(P, '\n', B + N - P)));) {
        ++P;
        Starts.push_back(static_cast<uint32_t>(P - B));
      }
      return;
    }
    for (size_t I = 0; I < N; ++I) {
      char C = Text[I];
      if (C == '\n') {
        Starts.push_back(static_cast<uint32_t>(I + 1));
      } else if (C == '\r') {
        // A lone CR ends a line too (Python accepts it); CRLF is one ending.
        if (I + 1 < N && Text[I + 1] == '\n')
          continue;
        Starts.push_back(static_cast<uint32_t>(I + 1));
      }
    }
  });
  return Lines->Starts;
}

llvm::Expected<SourceFile> SourceFile::fromBytes(std::string Path, std::string Bytes,
                                                 FileStamp Stamp) {
  if (Bytes.size() >= UINT32_MAX)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: file is too large (4 GiB or more)", Path.c_str());
  size_t Bad = 0;
  switch (checkContent(Bytes, Bad)) {
  case ContentProblem::None:
    return SourceFile(std::move(Path), std::move(Bytes), Stamp);
  case ContentProblem::Binary: {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: binary file (NUL byte at offset %zu); skipped",
                                   Path.c_str(), Bad);
  }
  case ContentProblem::InvalidUtf8: {
    // Report the place as line:column of the bad byte.
    SourceFile Prefix(Path, Bytes.substr(0, Bad));
    LineColumn LC = Prefix.lineColumn(static_cast<uint32_t>(Bad)); // the prefix is valid UTF-8
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s:%u:%u: not valid UTF-8 (byte 0x%02x at offset %zu); "
                                   "skipped",
                                   Path.c_str(), LC.Line, LC.Column,
                                   static_cast<unsigned char>(Bytes[Bad]), Bad);
  }
  }
  llvm_unreachable("covered switch");
}

/// What a file that is not a regular one is, for messages.
static const char *fileKind(mode_t Mode) {
  if (S_ISFIFO(Mode))
    return "a FIFO";
  if (S_ISCHR(Mode))
    return "a character device";
  if (S_ISBLK(Mode))
    return "a block device";
  if (S_ISSOCK(Mode))
    return "a socket";
  return "not a regular file";
}

llvm::Expected<std::string> readRegularFile(llvm::StringRef Path, uint64_t Limit, FileStamp *Stamp,
                                            llvm::function_ref<void(uint64_t)> BeforeRead) {
  std::string P = Path.str();
  auto Fail = [&](int E, const std::string &Why) -> llvm::Error {
    return llvm::createStringError(std::error_code(E, std::generic_category()), "%s: %s",
                                   P.c_str(), Why.c_str());
  };
  // O_NONBLOCK: opening a FIFO does not wait for a writer; it is refused
  // below, as are devices (`/dev/zero` never ends).
  int FD = ::open(P.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0) {
    int E = errno;
    return Fail(E, std::string(E == ENOENT ? "cannot stat: " : "cannot read: ") + strerror(E));
  }
  struct Closer {
    int FD;
    ~Closer() { ::close(FD); }
  } Close{FD};
  struct stat St;
  if (::fstat(FD, &St) != 0)
    return Fail(errno, std::string("cannot stat: ") + strerror(errno));
  if (S_ISDIR(St.st_mode))
    return Fail(EISDIR, "is a directory");
  if (!S_ISREG(St.st_mode))
    return Fail(EINVAL, std::string("not a regular file (") + fileKind(St.st_mode) + ")");
  auto TooLarge = [&](uint64_t Size) {
    std::string L = Limit >= (uint64_t(1) << 20) ? std::to_string(Limit >> 20) + " MiB"
                                                 : std::to_string(Limit >> 10) + " KiB";
    return Fail(EFBIG, "too large (" + std::to_string(Size) + " bytes; the limit is " + L + ")");
  };
  uint64_t Size = static_cast<uint64_t>(St.st_size);
  if (Size > Limit)
    return TooLarge(Size);
  if (BeforeRead)
    BeforeRead(Size);
  // Read to the end, whatever the size said: the file may have grown.
  std::string Bytes;
  Bytes.resize(static_cast<size_t>(Size) + 1);
  size_t Got = 0;
  for (;;) {
    if (Got == Bytes.size()) {
      if (Got > Limit)
        return TooLarge(Got);
      Bytes.resize(static_cast<size_t>(std::min<uint64_t>(Bytes.size() * 2, Limit + 1)));
    }
    ssize_t N = ::read(FD, &Bytes[Got], Bytes.size() - Got);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return Fail(errno, std::string("cannot read: ") + strerror(errno));
    }
    if (N == 0)
      break;
    Got += static_cast<size_t>(N);
    // A read that stops short at the size the file had is at its end: no
    // second read to see it (one system call in five per file).
    if (Got == Size)
      break;
  }
  Bytes.resize(Got);
  if (Stamp)
    *Stamp = stampOf(St); // no content hash: a writer takes it of the text it read
  return Bytes;
}

ReadFailure takeReadFailure(llvm::Error E, llvm::StringRef Path) {
  ReadFailure Out;
  llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &Info) {
    Out.Message = Info.message();
    Out.Code = Info.convertToErrorCode();
  });
  llvm::StringRef R(Out.Message);
  if (R.startswith(Path) && R.drop_front(Path.size()).startswith(": "))
    R = R.drop_front(Path.size() + 2);
  if (!R.consume_front("cannot stat: "))
    R.consume_front("cannot read: ");
  Out.Reason = R.str();
  return Out;
}

llvm::Expected<SourceFile> SourceFile::read(llvm::StringRef Path,
                                            llvm::function_ref<void(uint64_t)> BeforeRead) {
  FileStamp Stamp;
  auto Bytes = readRegularFile(Path, MaxSourceFileBytes, &Stamp, BeforeRead);
  if (!Bytes) {
    // A file that is not a regular one, or too large, is skipped, not fatal.
    ReadFailure Why = takeReadFailure(Bytes.takeError(), Path);
    if (Why.Code == std::errc::invalid_argument || Why.Code == std::errc::file_too_large)
      Why.Message += "; skipped";
    return llvm::createStringError(Why.Code, "%s", Why.Message.c_str());
  }
  return fromBytes(Path.str(), std::move(*Bytes), Stamp);
}

size_t findByTwoBytes(llvm::StringRef Text, llvm::StringRef Word, size_t A, size_t B, size_t From) {
  assert(A < B && B < Word.size() && "two of the word's bytes, in order");
  const size_t N = Text.size(), W = Word.size();
  if (N < W || From > N - W)
    return llvm::StringRef::npos;
  const char *D = Text.data();
  const size_t Last = N - W; // the last place Word may start
  size_t I = From;
#if defined(__SSE2__)
  // The bytes read for the starts I..I+15 end before D + Last + B + 16 <= D + N.
  const __m128i WantA = _mm_set1_epi8(Word[A]), WantB = _mm_set1_epi8(Word[B]);
  for (; I + 15 <= Last; I += 16) {
    __m128i X = _mm_loadu_si128(reinterpret_cast<const __m128i *>(D + I + A));
    __m128i Y = _mm_loadu_si128(reinterpret_cast<const __m128i *>(D + I + B));
    unsigned M = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(X, WantA), _mm_cmpeq_epi8(Y, WantB))));
    for (; M; M &= M - 1) {
      size_t K = I + static_cast<size_t>(llvm::countTrailingZeros(M));
      if (std::memcmp(D + K, Word.data(), W) == 0)
        return K;
    }
  }
#endif
  for (; I <= Last; ++I)
    if (D[I + A] == Word[A] && D[I + B] == Word[B] && std::memcmp(D + I, Word.data(), W) == 0)
      return I;
  return llvm::StringRef::npos;
}

llvm::StringRef lineEndingOf(llvm::StringRef Text) {
  size_t End = Text.find_first_of("\r\n");
  if (End != llvm::StringRef::npos && Text[End] == '\r' && End + 1 < Text.size() &&
      Text[End + 1] == '\n')
    return "\r\n";
  return "\n";
}

llvm::StringRef SourceFile::lineEnding() const { return lineEndingOf(Text); }

unsigned SourceFile::lineOf(uint32_t Offset) const {
  const std::vector<uint32_t> &Starts = lineStarts();
  auto It = std::upper_bound(Starts.begin(), Starts.end(), Offset);
  return static_cast<unsigned>(It - Starts.begin()) - 1;
}

llvm::StringRef SourceFile::lineText(unsigned Line) const {
  const std::vector<uint32_t> &Starts = lineStarts();
  if (Line >= Starts.size())
    return {};
  uint32_t B = Starts[Line];
  uint32_t E = Line + 1 < Starts.size() ? Starts[Line + 1] : static_cast<uint32_t>(Text.size());
  llvm::StringRef S(Text.data() + B, E - B);
  if (S.endswith("\r\n"))
    return S.drop_back(2);
  if (S.endswith("\n") || S.endswith("\r"))
    return S.drop_back(1);
  return S;
}

uint32_t SourceFile::columnStart(unsigned Line) const {
  // A byte order mark is not text: columns of the first line start after it.
  return lineStarts()[Line] + (Line == 0 && hasBOM() ? 3 : 0);
}

LineColumn SourceFile::byteLineColumn(uint32_t Offset) const {
  Offset = std::min<uint32_t>(Offset, static_cast<uint32_t>(Text.size()));
  unsigned L = lineOf(Offset);
  return {L + 1, Offset - std::min(Offset, columnStart(L)) + 1};
}

/// Counts code points (or UTF-16 units) in [B, E) of well-formed UTF-8.
static unsigned countUnits(const char *B, const char *E, bool Utf16) {
  unsigned N = 0;
  for (const char *P = B; P < E; ++P) {
    unsigned char C = static_cast<unsigned char>(*P);
    if ((C & 0xC0) == 0x80)
      continue; // continuation byte
    N += (Utf16 && C >= 0xF0) ? 2 : 1;
  }
  return N;
}

LineColumn SourceFile::lineColumn(uint32_t Offset) const {
  Offset = std::min<uint32_t>(Offset, static_cast<uint32_t>(Text.size()));
  unsigned L = lineOf(Offset);
  const char *B = Text.data() + std::min(Offset, columnStart(L));
  return {L + 1, countUnits(B, Text.data() + Offset, false) + 1};
}

unsigned SourceFile::utf16Column(uint32_t Offset) const {
  Offset = std::min<uint32_t>(Offset, static_cast<uint32_t>(Text.size()));
  unsigned L = lineOf(Offset);
  return countUnits(Text.data() + std::min(Offset, columnStart(L)), Text.data() + Offset, true);
}

/// Walks Line from its start, counting units, and stops at Want units or at
/// the line's end.
static uint32_t advanceUnits(const SourceFile &F, unsigned Line, unsigned Want,
                             bool Utf16) {
  if (Line >= F.lineCount())
    return static_cast<uint32_t>(F.text().size());
  uint32_t Start = F.columnStart(Line);
  llvm::StringRef LT = F.lineText(Line).drop_front(Start - F.lineStart(Line));
  unsigned Units = 0;
  size_t I = 0;
  while (I < LT.size() && Units < Want) {
    unsigned char C = static_cast<unsigned char>(LT[I]);
    unsigned Len = C < 0x80 ? 1 : C >= 0xF0 ? 4 : C >= 0xE0 ? 3 : 2;
    unsigned U = (Utf16 && Len == 4) ? 2 : 1;
    if (Units + U > Want)
      break; // inside a surrogate pair: stay before the character
    Units += U;
    I += Len;
  }
  return Start + static_cast<uint32_t>(std::min(I, LT.size()));
}

uint32_t SourceFile::offsetFromUtf16(unsigned Line, unsigned Utf16Column) const {
  return advanceUnits(*this, Line, Utf16Column, true);
}

uint32_t SourceFile::offsetFromLineColumn(unsigned Line, unsigned Column) const {
  if (Line == 0)
    return 0;
  return advanceUnits(*this, Line - 1, Column == 0 ? 0 : Column - 1, false);
}

} // namespace devport
