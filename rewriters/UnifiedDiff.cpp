//===--- UnifiedDiff.cpp - Unified diffs ----------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/UnifiedDiff.h"

#include <algorithm>
#include <vector>

namespace devport {
namespace {

/// Splits into lines that keep their terminators ("\n", "\r\n", "\r").
std::vector<llvm::StringRef> splitLines(llvm::StringRef T) {
  std::vector<llvm::StringRef> Out;
  size_t Start = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    if (T[I] == '\n' || (T[I] == '\r' && (I + 1 >= T.size() || T[I + 1] != '\n'))) {
      Out.push_back(T.slice(Start, I + 1));
      Start = I + 1;
    }
  }
  if (Start < T.size())
    Out.push_back(T.substr(Start));
  return Out;
}

enum class Op { Keep, Del, Add };

/// Myers' O(ND) diff of A and B; returns the edit script.
std::vector<Op> diffLines(const std::vector<llvm::StringRef> &A,
                          const std::vector<llvm::StringRef> &B) {
  // Trim the common prefix and suffix first: fixes change few lines.
  size_t Pre = 0;
  while (Pre < A.size() && Pre < B.size() && A[Pre] == B[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < A.size() - Pre && Suf < B.size() - Pre &&
         A[A.size() - 1 - Suf] == B[B.size() - 1 - Suf])
    ++Suf;
  const int N = static_cast<int>(A.size() - Pre - Suf);
  const int M = static_cast<int>(B.size() - Pre - Suf);
  auto a = [&](int I) { return A[Pre + I]; };
  auto b = [&](int J) { return B[Pre + J]; };

  const int Max = N + M;
  const int Off = Max + 1;
  std::vector<int> V(2 * Max + 3, 0);
  // Trace[D] keeps V[-D-1 .. D+1] as it was before step D: O(D^2) memory.
  std::vector<std::vector<int>> Trace;
  int D = 0;
  for (; D <= Max; ++D) {
    Trace.emplace_back(V.begin() + (Off - D - 1), V.begin() + (Off + D + 2));
    bool Done = false;
    for (int K = -D; K <= D; K += 2) {
      int X;
      if (K == -D || (K != D && V[Off + K - 1] < V[Off + K + 1]))
        X = V[Off + K + 1];
      else
        X = V[Off + K - 1] + 1;
      int Y = X - K;
      while (X < N && Y < M && a(X) == b(Y))
        ++X, ++Y;
      V[Off + K] = X;
      if (X >= N && Y >= M) {
        Done = true;
        break;
      }
    }
    if (Done)
      break;
  }
  // Walk back through the trace.
  std::vector<Op> Rev;
  int X = N, Y = M;
  for (int Dd = D; Dd > 0; --Dd) {
    const std::vector<int> &T = Trace[Dd];
    auto PV = [&](int K) { return T[K + Dd + 1]; }; // V[K] before step Dd
    int K = X - Y;
    int PrevK;
    if (K == -Dd || (K != Dd && PV(K - 1) < PV(K + 1)))
      PrevK = K + 1;
    else
      PrevK = K - 1;
    int PrevX = PV(PrevK);
    int PrevY = PrevX - PrevK;
    while (X > PrevX && Y > PrevY) {
      Rev.push_back(Op::Keep);
      --X, --Y;
    }
    Rev.push_back(X == PrevX ? Op::Add : Op::Del);
    X = PrevX, Y = PrevY;
  }
  while (X > 0 && Y > 0) {
    Rev.push_back(Op::Keep);
    --X, --Y;
  }
  std::vector<Op> Script(Pre, Op::Keep);
  Script.insert(Script.end(), Rev.rbegin(), Rev.rend());
  Script.insert(Script.end(), Suf, Op::Keep);
  return Script;
}

void emitLine(std::string &Out, char Tag, llvm::StringRef Line) {
  Out += Tag;
  Out += Line.str();
  if (!Line.endswith("\n") && !Line.endswith("\r"))
    Out += "\n\\ No newline at end of file\n";
}

} // namespace

std::string unifiedDiff(llvm::StringRef OldName, llvm::StringRef NewName, llvm::StringRef Old,
                        llvm::StringRef New, unsigned Context) {
  if (Old == New)
    return "";
  std::vector<llvm::StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<Op> S = diffLines(A, B);
  // Positions (in A and B) before each script step.
  std::vector<size_t> PosA(S.size() + 1), PosB(S.size() + 1);
  for (size_t I = 0; I < S.size(); ++I) {
    PosA[I + 1] = PosA[I] + (S[I] != Op::Add);
    PosB[I + 1] = PosB[I] + (S[I] != Op::Del);
  }
  std::string Out = "--- " + OldName.str() + "\n+++ " + NewName.str() + "\n";
  size_t I = 0;
  while (I < S.size()) {
    if (S[I] == Op::Keep) {
      ++I;
      continue;
    }
    // A hunk: from Context lines before this change to Context lines after
    // the last change that lies within 2*Context lines of the previous one.
    size_t Begin = I >= Context ? I - Context : 0;
    while (Begin < I && S[Begin] != Op::Keep)
      ++Begin;
    size_t End = I;
    for (;;) {
      while (End < S.size() && S[End] != Op::Keep)
        ++End;
      size_t Gap = End;
      while (Gap < S.size() && S[Gap] == Op::Keep && Gap - End < 2 * Context)
        ++Gap;
      if (Gap < S.size() && S[Gap] != Op::Keep) {
        End = Gap;
        continue;
      }
      End = std::min(S.size(), End + Context);
      break;
    }
    size_t LenA = PosA[End] - PosA[Begin], LenB = PosB[End] - PosB[Begin];
    size_t StartA = LenA ? PosA[Begin] + 1 : PosA[Begin];
    size_t StartB = LenB ? PosB[Begin] + 1 : PosB[Begin];
    // GNU style: a one-line side shows only its start.
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
