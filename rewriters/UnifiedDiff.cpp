//===--- UnifiedDiff.cpp - Unified diffs ----------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/UnifiedDiff.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdio>
#include <vector>

namespace devport {
namespace {

/// Splits T into lines that keep their terminators. Only '\n' ends a line, as
/// for `patch` and `git apply`: a CRLF line ends in "\r\n", and a lone '\r'
/// stays inside its line.
std::vector<llvm::StringRef> splitLines(llvm::StringRef T) {
  std::vector<llvm::StringRef> Out;
  size_t Start = 0;
  while (Start < T.size()) {
    size_t NL = T.find('\n', Start);
    size_t End = NL == llvm::StringRef::npos ? T.size() : NL + 1;
    Out.push_back(T.slice(Start, End));
    Start = End;
  }
  return Out;
}

/// Myers' O(ND) difference algorithm in linear space (the divide-and-conquer
/// "middle snake" variant, as in GNU diff's diffseq.h), on interned lines.
/// Fills Deleted/Added with the lines of A and B that are not kept. When an
/// edit path grows too long (very different texts) it settles for a good
/// split point instead of the best one, so time stays near O((N+M) * Limit);
/// the script is then valid but may not be minimal.
class LineDiffer {
public:
  LineDiffer(const std::vector<unsigned> &A, const std::vector<unsigned> &B,
             std::vector<bool> &Deleted, std::vector<bool> &Added)
      : A(A), B(B), Deleted(Deleted), Added(Added) {
    size_t Diags = A.size() + B.size() + 3;
    Fwd.assign(Diags, 0);
    Bwd.assign(Diags, 0);
    Shift = static_cast<int>(B.size()) + 1;
    // As GNU diff: about the square root of the number of diagonals, at
    // least 1024, so that ordinary inputs always get a minimal diff.
    TooExpensive = 1;
    for (size_t D = Diags; D != 0; D >>= 2)
      TooExpensive <<= 1;
    TooExpensive = std::max(TooExpensive, 1024);
  }

  void run() { compare(0, static_cast<int>(A.size()), 0, static_cast<int>(B.size())); }

private:
  struct Point {
    int X, Y;
  };

  int &fd(int D) { return Fwd[static_cast<size_t>(D + Shift)]; }
  int &bd(int D) { return Bwd[static_cast<size_t>(D + Shift)]; }

  /// Marks the difference of A[XOff, XLim) and B[YOff, YLim).
  void compare(int XOff, int XLim, int YOff, int YLim) {
    // The recursion splits D roughly in half each time: its depth is
    // O(log D). The loop handles the second half without recursing.
    for (;;) {
      while (XOff < XLim && YOff < YLim && A[XOff] == B[YOff])
        ++XOff, ++YOff;
      while (XOff < XLim && YOff < YLim && A[XLim - 1] == B[YLim - 1])
        --XLim, --YLim;
      if (XOff == XLim) {
        for (int Y = YOff; Y < YLim; ++Y)
          Added[Y] = true;
        return;
      }
      if (YOff == YLim) {
        for (int X = XOff; X < XLim; ++X)
          Deleted[X] = true;
        return;
      }
      Point Mid = split(XOff, XLim, YOff, YLim);
      bool Degenerate = (Mid.X == XOff && Mid.Y == YOff) || (Mid.X == XLim && Mid.Y == YLim) ||
                        Mid.X < XOff || Mid.X > XLim || Mid.Y < YOff || Mid.Y > YLim;
      assert(!Degenerate && "the middle snake must split the problem");
      if (Degenerate) {
        // Never expected; replacing the whole range is still a valid script.
        for (int X = XOff; X < XLim; ++X)
          Deleted[X] = true;
        for (int Y = YOff; Y < YLim; ++Y)
          Added[Y] = true;
        return;
      }
      compare(XOff, Mid.X, YOff, Mid.Y);
      XOff = Mid.X, YOff = Mid.Y;
    }
  }

  /// A point on an optimal (or, past TooExpensive, a good) edit path from
  /// (XOff, YOff) to (XLim, YLim). Both ranges are non-empty and their first
  /// and last lines differ.
  Point split(int XOff, int XLim, int YOff, int YLim) {
    const int DMin = XOff - YLim, DMax = XLim - YOff;
    const int FMid = XOff - YOff, BMid = XLim - YLim;
    int FMin = FMid, FMax = FMid, BMin = BMid, BMax = BMid;
    const bool Odd = (FMid - BMid) & 1;
    fd(FMid) = XOff;
    bd(BMid) = XLim;
    for (int C = 1;; ++C) {
      // One more edit forward.
      if (FMin > DMin)
        fd(--FMin - 1) = -1;
      else
        ++FMin;
      if (FMax < DMax)
        fd(++FMax + 1) = -1;
      else
        --FMax;
      for (int D = FMax; D >= FMin; D -= 2) {
        int Lo = fd(D - 1), Hi = fd(D + 1);
        int X = Lo >= Hi ? Lo + 1 : Hi;
        int Y = X - D;
        while (X < XLim && Y < YLim && A[X] == B[Y])
          ++X, ++Y;
        fd(D) = X;
        if (Odd && BMin <= D && D <= BMax && bd(D) <= X)
          return {X, Y};
      }
      // One more edit backward.
      if (BMin > DMin)
        bd(--BMin - 1) = INT_MAX;
      else
        ++BMin;
      if (BMax < DMax)
        bd(++BMax + 1) = INT_MAX;
      else
        --BMax;
      for (int D = BMax; D >= BMin; D -= 2) {
        int Lo = bd(D - 1), Hi = bd(D + 1);
        int X = Lo < Hi ? Lo : Hi - 1;
        int Y = X - D;
        while (X > XOff && Y > YOff && A[X - 1] == B[Y - 1])
          --X, --Y;
        bd(D) = X;
        if (!Odd && FMin <= D && D <= FMax && X <= fd(D))
          return {X, Y};
      }
      if (C < TooExpensive)
        continue;
      // Too expensive: take the furthest point reached in either direction.
      int FBestXY = -1, FBestX = XOff;
      for (int D = FMax; D >= FMin; D -= 2) {
        int X = std::min(fd(D), XLim), Y = X - D;
        if (Y > YLim)
          X = YLim + D, Y = YLim;
        if (X + Y > FBestXY)
          FBestXY = X + Y, FBestX = X;
      }
      int BBestXY = INT_MAX, BBestX = XLim;
      for (int D = BMax; D >= BMin; D -= 2) {
        int X = std::max(XOff, bd(D)), Y = X - D;
        if (Y < YOff)
          X = YOff + D, Y = YOff;
        if (X + Y < BBestXY)
          BBestXY = X + Y, BBestX = X;
      }
      if ((XLim + YLim) - BBestXY < FBestXY - (XOff + YOff))
        return {FBestX, FBestXY - FBestX};
      return {BBestX, BBestXY - BBestX};
    }
  }

  const std::vector<unsigned> &A, &B;
  std::vector<bool> &Deleted, &Added;
  std::vector<int> Fwd, Bwd; ///< Furthest x reached on each diagonal.
  int Shift = 0;             ///< Diagonal D lives at index D + Shift.
  int TooExpensive = 1024;
};

enum class Op { Keep, Del, Add };

/// The edit script turning lines A into lines B: a Keep per kept pair, and
/// within each change its deletions before its insertions.
std::vector<Op> diffLines(const std::vector<llvm::StringRef> &A,
                          const std::vector<llvm::StringRef> &B) {
  // The common prefix and suffix first: fixes change few lines.
  size_t Pre = 0;
  while (Pre < A.size() && Pre < B.size() && A[Pre] == B[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < A.size() - Pre && Suf < B.size() - Pre &&
         A[A.size() - 1 - Suf] == B[B.size() - 1 - Suf])
    ++Suf;
  size_t N = A.size() - Pre - Suf, M = B.size() - Pre - Suf;

  // Intern the middle lines, counting where each occurs.
  llvm::DenseMap<llvm::StringRef, unsigned> Ids;
  std::vector<unsigned> InA, InB; // per id: occurrences in A and in B
  auto Intern = [&](llvm::StringRef L, bool FromA) {
    auto [It, New] = Ids.try_emplace(L, static_cast<unsigned>(InA.size()));
    if (New) {
      InA.push_back(0);
      InB.push_back(0);
    }
    ++(FromA ? InA : InB)[It->second];
    return It->second;
  };
  std::vector<unsigned> IdA(N), IdB(M);
  for (size_t I = 0; I < N; ++I)
    IdA[I] = Intern(A[Pre + I], true);
  for (size_t J = 0; J < M; ++J)
    IdB[J] = Intern(B[Pre + J], false);

  // A line that occurs on one side only can never be kept: leave it out of
  // the search (this keeps very different texts cheap, and the result
  // minimal), and mark it changed directly.
  std::vector<bool> Deleted(N, false), Added(M, false);
  std::vector<unsigned> SubA, SubB;
  std::vector<size_t> MapA, MapB;
  for (size_t I = 0; I < N; ++I) {
    if (InB[IdA[I]] == 0) {
      Deleted[I] = true;
    } else {
      SubA.push_back(IdA[I]);
      MapA.push_back(I);
    }
  }
  for (size_t J = 0; J < M; ++J) {
    if (InA[IdB[J]] == 0) {
      Added[J] = true;
    } else {
      SubB.push_back(IdB[J]);
      MapB.push_back(J);
    }
  }
  std::vector<bool> SubDeleted(SubA.size(), false), SubAdded(SubB.size(), false);
  LineDiffer(SubA, SubB, SubDeleted, SubAdded).run();
  for (size_t I = 0; I < SubA.size(); ++I)
    if (SubDeleted[I])
      Deleted[MapA[I]] = true;
  for (size_t J = 0; J < SubB.size(); ++J)
    if (SubAdded[J])
      Added[MapB[J]] = true;

  std::vector<Op> Script(Pre, Op::Keep);
  Script.reserve(Pre + N + M + Suf);
  for (size_t I = 0, J = 0; I < N || J < M;) {
    if (I < N && Deleted[I]) {
      Script.push_back(Op::Del);
      ++I;
    } else if (J < M && Added[J]) {
      Script.push_back(Op::Add);
      ++J;
    } else {
      assert(I < N && J < M && IdA[I] == IdB[J] && "kept lines pair up");
      Script.push_back(Op::Keep);
      ++I, ++J;
    }
  }
  Script.insert(Script.end(), Suf, Op::Keep);
  return Script;
}

void emitLine(std::string &Out, char Tag, llvm::StringRef Line) {
  Out += Tag;
  Out.append(Line.data(), Line.size());
  if (!Line.endswith("\n"))
    Out += "\n\\ No newline at end of file\n";
}

/// A file name as git writes it in a `---`/`+++` line, which `patch -p0`
/// and `git apply` read back: in double quotes with C escapes when it holds
/// a control character, `"` or `\`; followed by a tab when it holds a space
/// (the tab ends the name where a timestamp could follow).
std::string diffName(llvm::StringRef Name) {
  bool Quote = llvm::any_of(Name, [](char C) {
    auto U = static_cast<unsigned char>(C);
    return U < 0x20 || U == 0x7f || C == '"' || C == '\\';
  });
  std::string Out;
  if (!Quote) {
    Out = Name.str();
  } else {
    Out = "\"";
    for (char C : Name) {
      auto U = static_cast<unsigned char>(C);
      switch (C) {
      case '"':
        Out += "\\\"";
        break;
      case '\\':
        Out += "\\\\";
        break;
      case '\t':
        Out += "\\t";
        break;
      case '\n':
        Out += "\\n";
        break;
      case '\r':
        Out += "\\r";
        break;
      default:
        if (U < 0x20 || U == 0x7f) {
          char Buf[8];
          std::snprintf(Buf, sizeof(Buf), "\\%03o", U);
          Out += Buf;
        } else {
          Out += C;
        }
      }
    }
    Out += '"';
  }
  if (Name.contains(' '))
    Out += '\t';
  return Out;
}

} // namespace

std::string unifiedDiff(llvm::StringRef OldName, llvm::StringRef NewName, llvm::StringRef Old,
                        llvm::StringRef New, unsigned Context) {
  if (Old == New)
    return "";
  std::vector<llvm::StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<Op> S = diffLines(A, B);
  // Line positions (0-based, in A and in B) before each script step.
  std::vector<size_t> PosA(S.size() + 1), PosB(S.size() + 1);
  for (size_t I = 0; I < S.size(); ++I) {
    PosA[I + 1] = PosA[I] + (S[I] != Op::Add);
    PosB[I + 1] = PosB[I] + (S[I] != Op::Del);
  }
  std::string Out = "--- " + diffName(OldName) + "\n+++ " + diffName(NewName) + "\n";
  size_t I = 0;
  while (I < S.size()) {
    if (S[I] == Op::Keep) {
      ++I;
      continue;
    }
    // A hunk: Context lines before this change, through every later change
    // at most 2*Context kept lines after the previous one (as GNU diff joins
    // them), to Context lines after the last.
    size_t Begin = I >= Context ? I - Context : 0;
    size_t End = I;
    for (;;) {
      while (End < S.size() && S[End] != Op::Keep)
        ++End;
      size_t Gap = End;
      while (Gap < S.size() && S[Gap] == Op::Keep && Gap - End < 2 * size_t(Context))
        ++Gap;
      if (Gap < S.size() && S[Gap] != Op::Keep) {
        End = Gap;
        continue;
      }
      End = std::min(S.size(), End + Context);
      break;
    }
    size_t LenA = PosA[End] - PosA[Begin], LenB = PosB[End] - PosB[Begin];
    // 1-based first line; an empty side names the line before it (GNU: `-4,0`).
    size_t StartA = LenA ? PosA[Begin] + 1 : PosA[Begin];
    size_t StartB = LenB ? PosB[Begin] + 1 : PosB[Begin];
    // As GNU diff: a one-line side shows only its start.
    auto Side = [](size_t Start, size_t Len) {
      return std::to_string(Start) + (Len == 1 ? "" : "," + std::to_string(Len));
    };
    Out += "@@ -" + Side(StartA, LenA) + " +" + Side(StartB, LenB) + " @@\n";
    for (size_t J = Begin; J < End; ++J) {
      if (S[J] == Op::Keep)
        emitLine(Out, ' ', A[PosA[J]]);
      else if (S[J] == Op::Del)
        emitLine(Out, '-', A[PosA[J]]);
      else
        emitLine(Out, '+', B[PosB[J]]);
    }
    I = End;
  }
  return Out;
}

} // namespace devport
