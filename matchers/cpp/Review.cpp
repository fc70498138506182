//===--- Review.cpp - C++ findings reviewed in the code around them -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/Review.h"

#include "matchers/cpp/CppBackend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace devport::cpp {

namespace {

constexpr uint32_t None = UINT32_MAX;

/// A backend's DeviceType enumerator and its Tensor predicate (`is_<...>`),
/// which is also its namespace (`torch::xpu::`).
struct BackendName {
  llvm::StringLiteral Enumerator, Predicate;
};
constexpr BackendName Backends[] = {
    {"CUDA", "cuda"},   {"HIP", "hip"}, {"XPU", "xpu"},   {"MPS", "mps"},
    {"MTIA", "mtia"},   {"XLA", "xla"}, {"HPU", "hpu"},   {"IPU", "ipu"},
    {"MAIA", "maia"},   {"VE", "ve"},   {"Lazy", "lazy"}, {"Vulkan", "vulkan"},
    {"Metal", "metal"}, {"CPU", "cpu"}, {"Meta", "meta"}, {"PrivateUse1", "privateuseone"}};

/// The functionalities that have a DispatchKey per backend
/// (`AutocastCUDA`, `SparseCsrXPU`), longest first.
constexpr llvm::StringLiteral KeyPrefixes[] = {"SparseCsr", "Sparse",   "Quantized",
                                               "Autograd",  "Autocast", "NestedTensor"};

/// What encloses a finding and keeps it: a span of the text and why.
struct KeepSpan {
  ByteRange Range;
  std::string Message;
};

bool oneOf(llvm::StringRef S, std::initializer_list<llvm::StringRef> Words) {
  return llvm::is_contained(Words, S);
}

/// GoogleTest's macros that define a test case: `TEST(Suite, Name) { ... }`.
constexpr llvm::StringLiteral TestMacros[] = {"TEST", "TEST_F", "TEST_P", "TYPED_TEST",
                                              "TYPED_TEST_P"};
bool isTestMacro(llvm::StringRef Name) { return llvm::is_contained(TestMacros, Name); }

/// Keywords that a parenthesized group follows where it is no call's
/// arguments (`if (`, `sizeof (`, `if constexpr (`).
bool isStatementKeyword(llvm::StringRef Name) {
  return oneOf(Name, {"if", "for", "while", "switch", "catch", "return", "sizeof", "constexpr"});
}

class Reviewer {
public:
  explicit Reviewer(const LexedFile &L) : L(L), T(L.tokens()) { pair(); }

  std::optional<KeepSpan> namedForCuda(size_t Tk) const;
  /// A dispatch key (a finding that spells `DispatchKey`) in a gtest case.
  std::optional<KeepSpan> dispatcherTestData(size_t Tk, ByteRange Finding) const;
  std::optional<KeepSpan> cudaArm(size_t Tk) const;
  std::optional<KeepSpan> ladder(size_t Tk);
  std::optional<KeepSpan> list(size_t Tk) const;
  /// A string that names CUDA beside Tk in its entry or argument list
  /// (`{"cuda:0", DeviceType::CUDA, 0}`, `.value("CUDA", DeviceType::CUDA)`).
  std::optional<KeepSpan> nameEntry(size_t Tk) const;
  /// Tk is the argument of `getAccelerator().value_or(...)`: the device
  /// type without an accelerator (what cpp-cuda-device-type's fix writes).
  std::optional<KeepSpan> acceleratorFallback(size_t Tk) const;
  /// The CUDA name in a condition that Tk's code depends on (the `if`
  /// whose block it is in, the `?:` whose true arm it is in), where no
  /// fixable finding (Fixable) in that condition would rewrite it; None if
  /// there is no such condition.
  size_t cudaGuard(size_t Tk, llvm::ArrayRef<ByteRange> Fixable) const;
  /// Tk in the condition of an `if` whose block holds CUDA-only code (a
  /// name that says CUDA, `ROIAlign_forward_cuda`, `#if defined(WITH_CUDA)`)
  /// that no fixable finding (Fixable) rewrites: that name; None if not.
  size_t guardsCudaOnly(size_t Tk, llvm::ArrayRef<ByteRange> Fixable) const;
  /// The GoogleTest assertion (`ASSERT_EQ`, `EXPECT_TRUE`, ...) whose
  /// arguments Tk is in; None if none.
  size_t assertion(size_t Tk) const;
  /// Another accelerator's name in the condition or statement around Tk,
  /// where that is a list joined by `||` or `&&`; None if not.
  size_t listMate(size_t Tk, ByteRange Finding) const;
  /// A condition or statement around Tk joined by `||` or `&&` that names
  /// cuDNN, MIOpen or another CUDA-only feature (`use_cudnn = ... &&
  /// _use_cudnn_ctc_loss(...)`, `is_cuda() && !cudaAwareMpiCheck()`), outside
  /// the findings (Found).
  std::optional<KeepSpan> cudaGate(size_t Tk, llvm::ArrayRef<ByteRange> Found) const;
  /// Tk initializes a name of CUDA's (`constexpr DeviceType kCUDA =
  /// DeviceType::CUDA;`): the constant's own definition.
  std::optional<KeepSpan> definition(size_t Tk) const;
  /// What reviewing the finding at Tk reads: its outermost enclosing braces
  /// that are not a namespace's, with the statement they open; empty when
  /// none (its own statement is all).
  ByteRange scope(size_t Tk) const;
  /// The qualified name ending at token I, as written (`DispatchKey::AutocastXPU`,
  /// `t.is_xpu()`).
  std::string shown(size_t I) const;
  unsigned line(size_t I) const;

private:
  struct Head {
    size_t Name, Begin, Open, Close; ///< `Name(...)`: its tokens; Begin: its qualifier's start.
  };
  struct Chain {
    size_t If = None, End = None;
    std::vector<std::pair<size_t, size_t>> Conds; ///< Each condition's parentheses.
    size_t Other = None; ///< A ladder's: another accelerator's name in a condition.
  };

  const LexedFile &L;
  const std::vector<Token> &T;
  std::vector<uint32_t> Partner; ///< Per bracket of code: its partner (itself if unpaired).
  std::vector<uint32_t> Enc;     ///< Per token of code: the innermost open bracket around it.
  std::vector<Chain> Ladders;    ///< The file's per-backend ladders, once computed.
  bool LaddersDone = false;
  mutable std::optional<bool> GtestFile; ///< Whether a line starts a gtest case, once looked.

  void pair();
  bool isId(size_t I, llvm::StringRef S) const {
    return I < T.size() && T[I].Kind == TokKind::Identifier && !T[I].InDirective &&
           L.spelling(I) == S;
  }
  bool isOpen(size_t I) const {
    uint8_t P = T[I].Punct;
    return (P == '(' || P == '[' || P == '{') && Partner[I] != I;
  }
  size_t prev(size_t I) const {
    if (I == None || I > T.size())
      return None;
    while (I-- > 0)
      if (!T[I].InDirective)
        return I;
    return None;
  }
  size_t next(size_t I) const {
    if (I == None)
      return None;
    while (++I < T.size())
      if (!T[I].InDirective)
        return I;
    return None;
  }
  /// The backend that token I names (backendNamed(), or a namespace such
  /// as `xpu` in `torch::xpu::`).
  llvm::StringRef backendAt(size_t I) const;
  std::optional<Head> callHead(size_t Brace) const;
  size_t stmtEnd(size_t S) const;
  /// The first token of the statement that I is in (after a `;`, `{` or `}`).
  size_t statementStart(size_t I) const;
  bool opensNamespace(size_t Brace) const;
  bool parseChain(size_t I, Chain &C) const;
  bool isInitBrace(size_t B) const;
  size_t otherIn(size_t Lo, size_t Hi, ByteRange Skip = {0, 0}) const;
  /// What joinedWith() found: the token, and the group [Lo, Hi) it is in.
  struct Joined {
    size_t At, Lo, Hi;
  };
  /// The innermost parenthesized group around Tk joined by `||` or `&&`, or
  /// else its statement if joined so, where Find(Lo, Hi) finds a token.
  Joined joinedWith(size_t Tk, llvm::function_ref<size_t(size_t, size_t)> Find) const;
};

void Reviewer::pair() {
  size_t N = T.size();
  Partner.resize(N);
  Enc.assign(N, None);
  std::vector<uint32_t> Open;
  for (size_t I = 0; I < N; ++I) {
    Partner[I] = static_cast<uint32_t>(I);
    if (T[I].InDirective)
      continue;
    Enc[I] = Open.empty() ? None : Open.back();
    uint8_t P = T[I].Punct;
    if (P == '(' || P == '[' || P == '{') {
      Open.push_back(static_cast<uint32_t>(I));
    } else if (P == ')' || P == ']' || P == '}') {
      uint8_t Want = P == ')' ? '(' : P == ']' ? '[' : '{';
      // Unwind to the opener (`#if` branches may leave some open).
      for (size_t K = Open.size(); K-- > 0;)
        if (T[Open[K]].Punct == Want) {
          Partner[Open[K]] = static_cast<uint32_t>(I);
          Partner[I] = Open[K];
          Enc[I] = Enc[Open[K]];
          Open.resize(K);
          break;
        }
    }
  }
}

llvm::StringRef Reviewer::backendAt(size_t I) const {
  if (I >= T.size() || T[I].Kind != TokKind::Identifier)
    return {};
  llvm::StringRef S = L.spelling(I);
  llvm::StringRef B = backendNamed(S);
  if (!B.empty())
    return B;
  if (I + 1 < T.size() && T[I + 1].Punct == PunctColonColon)
    for (const BackendName &N : Backends)
      if (S == N.Predicate)
        return N.Enumerator;
  return {};
}

std::string Reviewer::shown(size_t I) const {
  // With its qualifiers, and a predicate with its receiver (`t.is_xpu()`).
  bool Predicate = L.spelling(I).startswith("is_");
  size_t B = I;
  while (B >= 2 && T[B - 2].Kind == TokKind::Identifier &&
         (T[B - 1].Punct == PunctColonColon ||
          (Predicate && (T[B - 1].Punct == '.' || T[B - 1].Punct == PunctArrow))))
    B -= 2;
  std::string S = L.text().slice(T[B].Begin, T[I].End).str();
  if (Predicate && I + 2 < T.size() && T[I + 1].Punct == '(' && T[I + 2].Punct == ')')
    S += "()"; // a predicate: `is_xpu()`
  return S;
}

unsigned Reviewer::line(size_t I) const {
  return 1 + static_cast<unsigned>(L.text().take_front(T[I].Begin).count('\n'));
}

size_t Reviewer::statementStart(size_t I) const {
  size_t K = I;
  for (size_t P = prev(I); P != None; P = prev(P)) {
    uint8_t Q = T[P].Punct;
    if (Q == ';' || Q == '{' || Q == '}')
      break;
    if ((Q == ')' || Q == ']') && Partner[P] != P)
      P = Partner[P];
    K = P;
  }
  return K;
}

bool Reviewer::opensNamespace(size_t Brace) const {
  for (size_t K = statementStart(Brace); K < Brace; ++K)
    if (isId(K, "namespace") ||
        (isId(K, "extern") && K + 1 < Brace && T[K + 1].Kind == TokKind::String))
      return true;
  return false;
}

ByteRange Reviewer::scope(size_t Tk) const {
  size_t Outer = None;
  for (size_t B = Enc[Tk]; B != None; B = Enc[B])
    if (T[B].Punct == '{' && Partner[B] != B && !opensNamespace(B))
      Outer = B;
  if (Outer == None)
    return {0, 0};
  return {T[statementStart(Outer)].Begin, T[Partner[Outer]].End};
}

std::optional<Reviewer::Head> Reviewer::callHead(size_t Brace) const {
  size_t Q = prev(Brace);
  while (Q != None && T[Q].Kind == TokKind::Identifier &&
         oneOf(L.spelling(Q), {"const", "noexcept", "override", "final", "mutable"}))
    Q = prev(Q);
  if (Q == None || T[Q].Punct != ')' || Partner[Q] == Q)
    return std::nullopt;
  size_t Open = Partner[Q];
  size_t C = prev(Open);
  if (C == None || T[C].Kind != TokKind::Identifier)
    return std::nullopt;
  Head H{C, C, Open, Q};
  while (H.Begin >= 2 && T[H.Begin - 1].Punct == PunctColonColon &&
         T[H.Begin - 2].Kind == TokKind::Identifier)
    H.Begin -= 2;
  return H;
}

std::optional<KeepSpan> Reviewer::namedForCuda(size_t Tk) const {
  for (size_t B = Enc[Tk]; B != None; B = Enc[B]) {
    if (T[B].Punct != '{' || Partner[B] == B)
      continue;
    auto H = callHead(B);
    if (!H)
      continue; // a lambda's, a class's, a block's
    llvm::StringRef Name = L.spelling(H->Name);
    if (isStatementKeyword(Name))
      continue;
    bool Test = isTestMacro(Name);
    bool Cuda = false;
    if (Test) {
      for (size_t K = H->Open + 1; K < H->Close; ++K)
        Cuda |= T[K].Kind == TokKind::Identifier && isCudaRoleName(L.spelling(K));
    } else {
      Cuda = isCudaRoleName(Name);
    }
    if (!Cuda)
      continue;
    size_t Last = Test ? H->Close : H->Name;
    std::string What = L.text().slice(T[H->Begin].Begin, T[Last].End).str();
    return KeepSpan{{T[H->Begin].Begin, T[Partner[B]].End},
                    "`" + What + "` is named for CUDA: kept with the CUDA references in it"};
  }
  return std::nullopt;
}

std::optional<KeepSpan> Reviewer::dispatcherTestData(size_t Tk, ByteRange Finding) const {
  bool Key = false;
  for (size_t K = Tk; K < T.size() && T[K].Begin < Finding.End && !Key; ++K)
    Key = T[K].Kind == TokKind::Identifier && L.spelling(K) == "DispatchKey";
  if (!Key)
    return std::nullopt;
  for (size_t B = Enc[Tk]; B != None; B = Enc[B]) {
    if (T[B].Punct != '{' || Partner[B] == B)
      continue;
    auto H = callHead(B);
    if (!H || !isTestMacro(L.spelling(H->Name)))
      continue;
    std::string What = L.text().slice(T[H->Begin].Begin, T[H->Close].End).str();
    return KeepSpan{{T[H->Begin].Begin, T[Partner[B]].End},
                    "`" + What +
                        "` tests the dispatcher: its dispatch keys are test data (the key a "
                        "kernel is registered for, the key a tensor carries): kept"};
  }
  // Outside a test case, in a file of them: a kernel or helper of the tests
  // (`struct KernelWithOutput : OperatorKernel`). A test case starts a line
  // (read from the text: region lexing may leave a whole case out).
  if (!GtestFile) {
    GtestFile = false;
    for (llvm::StringRef Macro : TestMacros) {
      std::string M = (Macro + "(").str();
      for (size_t At = L.text().find(M); At != llvm::StringRef::npos && !*GtestFile;
           At = L.text().find(M, At + 1))
        GtestFile = At == 0 || L.text()[At - 1] == '\n';
    }
  }
  if (!*GtestFile)
    return std::nullopt;
  ByteRange S = scope(Tk);
  if (S.End <= S.Begin)
    S = Finding;
  return KeepSpan{S, "a gtest file's dispatch keys are test data of the dispatcher (the key a "
                     "kernel is registered for, the key a tensor carries): kept"};
}

std::optional<KeepSpan> Reviewer::cudaArm(size_t Tk) const {
  size_t A = Tk; // Tk's ancestor just inside B
  for (size_t B = Enc[Tk]; B != None; A = B, B = Enc[B]) {
    if (T[B].Punct != '{' || Partner[B] == B)
      continue;
    auto H = callHead(B);
    if (!H || L.spelling(H->Name) != "switch")
      continue;
    // The switch's arms at this level: a group of labels, then statements
    // up to the next label or the `}`.
    struct Arm {
      size_t Begin, LabelsEnd, End; ///< First label, the last label's `:`, one past the arm.
    };
    std::vector<Arm> Arms;
    bool InLabel = false;
    for (size_t K = B + 1; K < Partner[B];) {
      if (T[K].InDirective) {
        ++K;
        continue;
      }
      if (isId(K, "case") || isId(K, "default")) {
        if (Arms.empty() || Arms.back().LabelsEnd == None || next(Arms.back().LabelsEnd) != K) {
          if (!Arms.empty())
            Arms.back().End = K;
          Arms.push_back({K, None, Partner[B]});
        }
        InLabel = true;
      } else if (InLabel && T[K].Punct == ':') {
        InLabel = false;
        Arms.back().LabelsEnd = K;
      }
      K = isOpen(K) ? Partner[K] + 1 : K + 1;
    }
    auto In = llvm::find_if(Arms, [&](const Arm &X) { return X.Begin <= A && A < X.End; });
    if (In == Arms.end() || In->LabelsEnd == None)
      continue;
    size_t Cuda = None;
    for (size_t K = In->Begin; K < In->LabelsEnd && Cuda == None; ++K)
      if (backendAt(K) == "CUDA")
        Cuda = K;
    if (Cuda == None)
      continue;
    size_t Group = In->Begin;
    size_t Last = prev(In->End);
    size_t LabelStart = Cuda;
    while (LabelStart > Group && !isId(LabelStart, "case"))
      --LabelStart;
    size_t Colon = Cuda;
    while (Colon + 1 < T.size() && T[Colon].Punct != ':')
      ++Colon;
    std::string Label = L.text().slice(T[LabelStart].Begin, T[Colon].End).str();
    return KeepSpan{{T[Group].Begin, T[Last].End},
                    "the CUDA arm of a per-device `switch` (`" + Label + "`, line " +
                        std::to_string(line(LabelStart)) + "): kept"};
  }
  return std::nullopt;
}

size_t Reviewer::stmtEnd(size_t S) const {
  if (S == None)
    return None;
  if (T[S].Punct == '{')
    return Partner[S] != S ? Partner[S] : None;
  if (isId(S, "if")) {
    Chain C;
    return parseChain(S, C) ? C.End : None;
  }
  if (isId(S, "for") || isId(S, "while") || isId(S, "switch")) {
    size_t O = next(S);
    if (O == None || T[O].Punct != '(' || Partner[O] == O)
      return None;
    return stmtEnd(next(Partner[O]));
  }
  for (size_t K = S; K < T.size();) {
    if (T[K].InDirective) {
      ++K;
      continue;
    }
    uint8_t P = T[K].Punct;
    if (P == ';')
      return K;
    if (P == ')' || P == ']' || P == '}')
      return None;
    K = isOpen(K) ? Partner[K] + 1 : K + 1;
  }
  return None;
}

bool Reviewer::parseChain(size_t I, Chain &C) const {
  C.If = I;
  for (size_t J = I;;) {
    size_t O = next(J);
    if (isId(O, "constexpr"))
      O = next(O);
    if (O == None || T[O].Punct != '(' || Partner[O] == O)
      return false;
    C.Conds.push_back({O, Partner[O]});
    size_t E = stmtEnd(next(Partner[O]));
    if (E == None)
      return false;
    size_t Else = next(E);
    if (Else != None && isId(Else, "else")) {
      size_t N = next(Else);
      if (N != None && isId(N, "if")) {
        J = N;
        continue;
      }
      E = stmtEnd(N);
      if (E == None)
        return false;
    }
    C.End = E;
    return true;
  }
}

std::optional<KeepSpan> Reviewer::ladder(size_t Tk) {
  if (!LaddersDone) {
    LaddersDone = true;
    for (size_t I = 0; I < T.size(); ++I) {
      if (!isId(I, "if") || isId(prev(I), "else"))
        continue;
      Chain C;
      if (!parseChain(I, C) || C.Conds.size() < 2)
        continue;
      // CUDA in one condition, another accelerator in another.
      size_t CudaIn = None, Other = None, OtherIn = None;
      for (size_t N = 0; N < C.Conds.size(); ++N)
        for (size_t K = C.Conds[N].first + 1; K < C.Conds[N].second; ++K) {
          llvm::StringRef B = backendAt(K);
          if (B == "CUDA" && CudaIn == None)
            CudaIn = N;
          else if (isOtherAccelerator(B) && Other == None)
            Other = K, OtherIn = N;
        }
      if (CudaIn != None && Other != None && CudaIn != OtherIn) {
        C.Other = Other;
        C.Conds.clear(); // read no more
        Ladders.push_back(std::move(C));
      }
    }
  }
  // The outermost ladder around Tk.
  for (const Chain &C : Ladders)
    if (C.If <= Tk && Tk <= C.End)
      return KeepSpan{{T[C.If].Begin, T[C.End].End},
                      "a per-backend ladder (`" + shown(C.Other) + "`, line " +
                          std::to_string(line(C.Other)) + ") already selects per backend: kept"};
  return std::nullopt;
}

bool Reviewer::isInitBrace(size_t B) const {
  size_t P = prev(B);
  if (P == None)
    return false;
  uint8_t C = T[P].Punct;
  if (C == '=' || C == '(' || C == ',')
    return true;
  if (C == '{')
    return isInitBrace(P);
  if (isId(P, "return"))
    return true;
  // `T name{...}`: a name after a type, not a class's, an enum's or a
  // namespace's (`class TORCH_API Context {`, `: public B {`), nor a
  // function's `const {`.
  if (T[P].Kind != TokKind::Identifier ||
      oneOf(L.spelling(P),
            {"else", "do", "try", "const", "override", "final", "noexcept", "mutable"}))
    return false;
  size_t Q = prev(P);
  if (Q == None || !(T[Q].Kind == TokKind::Identifier || T[Q].Punct == '>' || T[Q].Punct == '*' ||
                     T[Q].Punct == '&'))
    return false;
  for (size_t K = statementStart(B); K < B; ++K)
    if (T[K].Kind == TokKind::Identifier &&
        oneOf(L.spelling(K), {"struct", "class", "union", "enum", "namespace", "public", "private",
                              "protected", "virtual", "extern"}))
      return false;
  return true;
}

size_t Reviewer::otherIn(size_t Lo, size_t Hi, ByteRange Skip) const {
  for (size_t K = Lo; K < Hi; ++K)
    if (!T[K].InDirective && !Skip.contains({T[K].Begin, T[K].End}) &&
        isOtherAccelerator(backendAt(K)))
      return K;
  return None;
}

std::optional<KeepSpan> Reviewer::list(size_t Tk) const {
  size_t Outer = None;
  for (size_t B = Enc[Tk]; B != None; B = Enc[B]) {
    if (T[B].Punct != '{')
      continue;
    if (Partner[B] == B || !isInitBrace(B))
      break;
    Outer = B;
  }
  if (Outer == None)
    return std::nullopt;
  size_t Other = otherIn(Outer + 1, Partner[Outer]);
  if (Other == None)
    return std::nullopt;
  return KeepSpan{{T[Outer].Begin, T[Partner[Outer]].End},
                  "a list with other backends' entries too (`" + shown(Other) + "`, line " +
                      std::to_string(line(Other)) + "): kept"};
}

std::optional<KeepSpan> Reviewer::nameEntry(size_t Tk) const {
  // The elements of the group at Open, not nested ones: a string whose name
  // part (up to a blank or `(`: `"aten::cuda(Tensor self) -> Tensor"`) says
  // CUDA. A message says more than a name.
  // In a braced entry an identifier of CUDA's that is no device names it too
  // (`{c10::kCUDA, UCC_MEMORY_TYPE_CUDA}`).
  auto NameIn = [&](size_t Open) {
    for (size_t K = Open + 1; K < Partner[Open];) {
      if (!T[K].InDirective && T[K].Kind == TokKind::String) {
        llvm::StringRef S = L.spelling(K);
        S = S.drop_front(S.find('"') + 1);
        S = S.take_until([](char C) { return C == ' ' || C == '(' || C == '"'; });
        if (S.contains_insensitive("cuda"))
          return K;
      }
      if (!T[K].InDirective && T[K].Kind == TokKind::Identifier && T[Open].Punct == '{' &&
          isCudaRoleName(L.spelling(K)) && backendNamed(L.spelling(K)).empty() &&
          !(K + 1 < T.size() && T[K + 1].Punct == PunctColonColon))
        return K;
      K = !T[K].InDirective && isOpen(K) ? Partner[K] + 1 : K + 1;
    }
    return static_cast<size_t>(None);
  };
  // A call's arguments, but not a condition's or a check macro's.
  auto IsCall = [&](size_t Open) {
    size_t C = prev(Open);
    if (C == None || T[C].Kind != TokKind::Identifier)
      return false;
    llvm::StringRef Name = L.spelling(C);
    if (isStatementKeyword(Name))
      return false;
    return llvm::any_of(Name, [](char Ch) { return Ch >= 'a' && Ch <= 'z'; }) || Name.size() < 2;
  };
  size_t G = Enc[Tk];
  if (G == None || Partner[G] == G)
    return std::nullopt;
  bool Entry = T[G].Punct == '{' && isInitBrace(G);
  if (!Entry && !(T[G].Punct == '(' && IsCall(G)))
    return std::nullopt;
  size_t Group = G, Name = NameIn(G);
  if (Name == None && !Entry) {
    size_t Up = Enc[G];
    if (Up != None && T[Up].Punct == '{' && Partner[Up] != Up && isInitBrace(Up)) {
      Group = Up;
      Name = NameIn(Up);
    }
  }
  if (Name == None)
    return std::nullopt;
  size_t Begin = Group;
  if (T[Group].Punct == '(')
    Begin = prev(Group);
  llvm::StringRef S = L.spelling(Name);
  std::string Shown = T[Name].Kind != TokKind::String ? "`" + S.str() + "`"
                      : S.size() > 40                 ? S.take_front(36).str() + "...\""
                                                      : S.str();
  return KeepSpan{{T[Begin].Begin, T[Partner[Group]].End},
                  "pairs the name " + Shown + " with its device: kept"};
}

std::optional<KeepSpan> Reviewer::acceleratorFallback(size_t Tk) const {
  // By the tokens as they come, so that a `#define` body's count too:
  // `getAccelerator ( ... ) . value_or ( Tk`.
  auto Is = [&](size_t I, uint8_t P) { return I < T.size() && T[I].Punct == P; };
  if (Tk < 5 || !Is(Tk - 1, '(') || L.spelling(Tk - 2) != "value_or" || !Is(Tk - 3, '.') ||
      !Is(Tk - 4, ')'))
    return std::nullopt;
  size_t Open = Tk - 4;
  while (Open > 0 && !Is(Open, '('))
    --Open;
  if (Open == 0 || L.spelling(Open - 1) != "getAccelerator")
    return std::nullopt;
  size_t Begin = Open - 1;
  while (Begin >= 2 && T[Begin - 1].Punct == PunctColonColon &&
         T[Begin - 2].Kind == TokKind::Identifier)
    Begin -= 2;
  size_t Close = Tk + 1;
  while (Close < T.size() && !Is(Close, ')') && !Is(Close, ';'))
    ++Close;
  if (!Is(Close, ')'))
    return std::nullopt;
  return KeepSpan{{T[Begin].Begin, T[Close].End},
                  "the device type without an accelerator, in `getAccelerator().value_or(...)`: "
                  "kept"};
}

size_t Reviewer::cudaGuard(size_t Tk, llvm::ArrayRef<ByteRange> Fixable) const {
  // The CUDA name in [Lo, Hi), if no fixable finding there rewrites it.
  auto CudaIn = [&](size_t Lo, size_t Hi) -> size_t {
    if (Lo >= Hi)
      return None;
    ByteRange Cond{T[Lo].Begin, T[Hi - 1].End};
    if (llvm::any_of(Fixable, [&](ByteRange F) { return Cond.contains(F); }))
      return None;
    for (size_t K = Lo; K < Hi; ++K)
      if (!T[K].InDirective && (backendAt(K) == "CUDA" || (T[K].Kind == TokKind::Identifier &&
                                                           isCudaRoleName(L.spelling(K)))))
        return K;
    return None;
  };
  // The block of an `if`, or the statement of a brace-less one.
  for (size_t B = Enc[Tk]; B != None; B = Enc[B]) {
    if (T[B].Punct != '{')
      continue;
    auto H = callHead(B);
    if (H && L.spelling(H->Name) == "if")
      if (size_t C = CudaIn(H->Open + 1, H->Close); C != None)
        return C;
    if (!H || !oneOf(L.spelling(H->Name), {"if", "for", "while", "switch"}))
      break; // a function's body, a lambda's: what guards it is elsewhere
  }
  size_t S = statementStart(Tk);
  if (isId(S, "if")) {
    size_t O = next(S);
    if (isId(O, "constexpr"))
      O = next(O);
    if (O != None && T[O].Punct == '(' && Partner[O] != O && Partner[O] < Tk)
      if (size_t C = CudaIn(O + 1, Partner[O]); C != None)
        return C;
  }
  // The true arm of `Cond ? A : B`: back from Tk at its level to a `?`
  // with no `:` between, then back to where the condition starts.
  // Out of the calls Tk is an argument of (`c ? f(t, kCUDA) : g(t)`).
  size_t From = Tk;
  for (size_t B = Enc[From]; B != None && T[B].Punct == '(' && Partner[B] != B; B = Enc[From]) {
    size_t C = prev(B);
    if (C == None || T[C].Kind != TokKind::Identifier || isStatementKeyword(L.spelling(C)))
      break;
    From = C;
  }
  auto Stop = [&](size_t K) {
    uint8_t P = T[K].Punct;
    return P == ';' || P == '{' || P == '}' || P == ',' || P == '=' || isId(K, "return") ||
           ((P == '(' || P == '[') && Partner[K] > From);
  };
  size_t Q = None;
  for (size_t K = prev(From); K != None; K = prev(K)) {
    uint8_t P = T[K].Punct;
    if ((P == ')' || P == ']') && Partner[K] != K) {
      K = Partner[K];
      continue;
    }
    if (P == ':' || Stop(K))
      break;
    if (P == '?') {
      Q = K;
      break;
    }
  }
  if (Q == None)
    return None;
  size_t Lo = Q;
  for (size_t K = prev(Q); K != None; K = prev(K)) {
    uint8_t P = T[K].Punct;
    if ((P == ')' || P == ']') && Partner[K] != K) {
      K = Partner[K];
      Lo = K;
      continue;
    }
    if (P == ':' || P == '?' || Stop(K))
      break;
    Lo = K;
  }
  return CudaIn(Lo, Q);
}

Reviewer::Joined Reviewer::joinedWith(size_t Tk,
                                      llvm::function_ref<size_t(size_t, size_t)> Find) const {
  // Whether [Lo, Hi) joins terms with `||` or `&&` at its own level.
  auto IsJoined = [&](size_t Lo, size_t Hi) {
    for (size_t K = Lo; K < Hi;) {
      if (T[K].InDirective) {
        ++K;
        continue;
      }
      llvm::StringRef S = L.spelling(K);
      if (T[K].Kind == TokKind::Punct && (S == "||" || S == "&&"))
        return true;
      K = isOpen(K) ? Partner[K] + 1 : K + 1;
    }
    return false;
  };
  size_t A = Tk;
  for (size_t B = Enc[Tk]; B != None; A = B, B = Enc[B]) {
    uint8_t P = T[B].Punct;
    if (P == '[')
      continue;
    if (P == '(') {
      if (Partner[B] != B && IsJoined(B + 1, Partner[B]))
        if (size_t O = Find(B + 1, Partner[B]); O != None)
          return {O, B, Partner[B] + 1};
      continue;
    }
    // A statement in a block: from after the `;`, `{` or `}` before A to its `;`.
    size_t Lo = statementStart(A);
    size_t Hi = A;
    while (Hi < Partner[B] && T[Hi].Punct != ';')
      Hi = !T[Hi].InDirective && isOpen(Hi) ? Partner[Hi] + 1 : Hi + 1;
    if (IsJoined(Lo, Hi))
      if (size_t O = Find(Lo, Hi); O != None)
        return {O, Lo, Hi};
    break;
  }
  return {None, None, None};
}

size_t Reviewer::guardsCudaOnly(size_t Tk, llvm::ArrayRef<ByteRange> Fixable) const {
  for (size_t B = Enc[Tk]; B != None; B = Enc[B]) {
    if (T[B].Punct == '{')
      return None;
    if (T[B].Punct != '(' || Partner[B] == B)
      continue;
    size_t C = prev(B);
    if (isId(C, "constexpr"))
      C = prev(C);
    if (!isId(C, "if"))
      continue;
    size_t Body = next(Partner[B]);
    size_t End = stmtEnd(Body);
    if (End == None)
      return None;
    // Every token of the block, its directive lines' too.
    for (size_t K = Body; K <= End; ++K) {
      if (T[K].Kind != TokKind::Identifier || !isCudaRoleName(L.spelling(K)))
        continue;
      ByteRange R{T[K].Begin, T[K].End};
      if (llvm::none_of(Fixable, [&](ByteRange F) { return F.contains(R); }))
        return K;
    }
    return None;
  }
  return None;
}

size_t Reviewer::assertion(size_t Tk) const {
  for (size_t B = Enc[Tk]; B != None; B = Enc[B]) {
    if (T[B].Punct == '{')
      return None;
    if (T[B].Punct != '(')
      continue;
    size_t C = prev(B);
    if (C != None && T[C].Kind == TokKind::Identifier &&
        (L.spelling(C).startswith("ASSERT_") || L.spelling(C).startswith("EXPECT_")))
      return C;
  }
  return None;
}

size_t Reviewer::listMate(size_t Tk, ByteRange Finding) const {
  return joinedWith(Tk, [&](size_t Lo, size_t Hi) { return otherIn(Lo, Hi, Finding); }).At;
}

std::optional<KeepSpan> Reviewer::cudaGate(size_t Tk, llvm::ArrayRef<ByteRange> Found) const {
  // A name that says CUDA or its libraries (`use_cudnn`, `cudaAwareMpiCheck`,
  // `is_miopen_acceptable`), not a device check (`is_cuda`, `kCUDA`: those
  // are findings or devices) nor part of a finding.
  auto Library = [&](size_t K) {
    llvm::StringRef S = L.spelling(K);
    return S.contains_insensitive("cudnn") || S.contains_insensitive("miopen");
  };
  auto Gate = [&](size_t K) {
    if (T[K].InDirective || T[K].Kind != TokKind::Identifier)
      return false;
    if (Library(K))
      return true;
    llvm::StringRef S = L.spelling(K);
    ByteRange R{T[K].Begin, T[K].End};
    return isCudaRoleName(S) && backendNamed(S).empty() &&
           llvm::none_of(Found, [&](ByteRange F) { return F.contains(R); });
  };
  // cuDNN's or MIOpen's name first: it says what the gate is for.
  Joined J = joinedWith(Tk, [&](size_t Lo, size_t Hi) -> size_t {
    size_t First = None;
    for (size_t K = Lo; K < Hi; ++K)
      if (Gate(K)) {
        if (Library(K))
          return K;
        if (First == None)
          First = K;
      }
    return First;
  });
  if (J.At == None)
    return std::nullopt;
  size_t Last = J.Hi - 1;
  std::string What = Library(J.At) ? "gates cuDNN or MIOpen" : "gates a CUDA-only feature";
  return KeepSpan{{T[J.Lo].Begin, T[Last].End},
                  What + " (`" + shown(J.At) + "`, line " + std::to_string(line(J.At)) + "): kept"};
}

std::optional<KeepSpan> Reviewer::definition(size_t Tk) const {
  size_t Eq = prev(Tk), Name = prev(Eq);
  if (Eq == None || T[Eq].Punct != '=' || Name == None || T[Name].Kind != TokKind::Identifier ||
      backendNamed(L.spelling(Name)) != "CUDA")
    return std::nullopt;
  size_t End = Tk;
  while (End + 1 < T.size() && T[End + 1].Punct != ';' && T[End + 1].Punct != ',' &&
         !T[End + 1].InDirective)
    ++End;
  return KeepSpan{{T[Name].Begin, T[End].End},
                  "the definition of `" + L.spelling(Name).str() + "`: kept"};
}

} // namespace

llvm::StringRef backendNamed(llvm::StringRef Name) {
  if (Name.consume_front("is_")) {
    for (const BackendName &B : Backends)
      if (Name == B.Predicate)
        return B.Enumerator;
    return {};
  }
  if (Name.size() > 1 && Name[0] == 'k' && Name[1] >= 'A' && Name[1] <= 'Z')
    Name = Name.drop_front();
  for (llvm::StringRef P : KeyPrefixes)
    if (Name.size() > P.size() && Name.startswith(P)) {
      Name = Name.drop_front(P.size());
      break;
    }
  for (const BackendName &B : Backends)
    if (Name == B.Enumerator)
      return B.Enumerator;
  return {};
}

bool isOtherAccelerator(llvm::StringRef B) {
  return !B.empty() && B != "CUDA" && B != "CPU" && B != "Meta";
}

namespace {

std::vector<ByteRange> scopesOf(const Reviewer &R, const LexedFile &L,
                                llvm::ArrayRef<Diagnostic> Findings) {
  std::vector<ByteRange> Out;
  for (const Diagnostic &D : Findings) {
    size_t Tk = L.tokenAt(D.Range.Begin);
    if (Tk >= L.tokens().size() || L.tokens()[Tk].InDirective)
      continue;
    ByteRange S = R.scope(Tk);
    if (S.End > S.Begin && (Out.empty() || !Out.back().contains(S)))
      Out.push_back(S);
  }
  return Out;
}

void review(const LexedFile &L, Reviewer &R, std::vector<Diagnostic> &Findings,
            std::vector<Diagnostic> &Kept);

} // namespace

std::vector<ByteRange> reviewScopes(const LexedFile &L, llvm::ArrayRef<Diagnostic> Findings) {
  return scopesOf(Reviewer(L), L, Findings);
}

void reviewFindings(const LexedFile &L, std::vector<Diagnostic> &Findings,
                    std::vector<Diagnostic> &Kept) {
  if (Findings.empty())
    return;
  Reviewer R(L);
  // The review reads the code around a finding (the other arms of a
  // ladder, a list's entries), which region lexing may have left out: the
  // statements left out in what encloses a finding are lexed again.
  std::vector<ByteRange> Gaps;
  if (L.partial()) {
    std::vector<ByteRange> Scopes = scopesOf(R, L, Findings);
    for (ByteRange G : L.gaps())
      if (llvm::none_of(Scopes, [&](ByteRange S) { return S.Begin < G.End && G.Begin < S.End; }))
        Gaps.push_back(G);
  }
  if (Gaps.size() == L.gaps().size()) {
    review(L, R, Findings, Kept);
    return;
  }
  // The review reads no comments: those in the gaps left are not passed.
  LexedFile Scoped(L.text(), Gaps, {});
  Reviewer RS(Scoped);
  review(Scoped, RS, Findings, Kept);
}

namespace {

void review(const LexedFile &L, Reviewer &R, std::vector<Diagnostic> &Findings,
            std::vector<Diagnostic> &Kept) {
  const std::vector<Token> &T = L.tokens();
  std::vector<Diagnostic> Keeps;
  std::vector<bool> Moved(Findings.size(), false);
  std::vector<ByteRange> Found;
  for (const Diagnostic &D : Findings)
    Found.push_back(D.Range);
  for (size_t I = 0; I < Findings.size(); ++I) {
    Diagnostic &D = Findings[I];
    if (D.Category == "device-special-case")
      continue; // PyTorch/XLA's rules report every arm and entry on purpose
    size_t Tk = L.tokenAt(D.Range.Begin);
    if (Tk >= T.size())
      continue;
    std::optional<KeepSpan> K = R.acceleratorFallback(Tk);
    if (!K && T[Tk].InDirective)
      continue;
    if (!K)
      K = R.definition(Tk);
    if (!K)
      K = R.namedForCuda(Tk);
    if (!K)
      K = R.dispatcherTestData(Tk, D.Range);
    if (!K)
      K = R.cudaArm(Tk);
    if (!K)
      K = R.ladder(Tk);
    if (!K)
      K = R.list(Tk);
    if (!K)
      K = R.nameEntry(Tk);
    if (!K)
      K = R.cudaGate(Tk, Found);
    if (K) {
      Moved[I] = true;
      auto It = llvm::find_if(Keeps, [&](const Diagnostic &E) { return E.Range == K->Range; });
      if (It == Keeps.end()) {
        Diagnostic E;
        E.RuleId = D.RuleId;
        E.File = D.File;
        E.Range = K->Range;
        E.Sev = Severity::Info;
        E.Engine = D.Engine;
        E.Message = std::move(K->Message);
        Keeps.push_back(std::move(E));
        It = Keeps.end() - 1;
      }
      It->Keeps.push_back({D.RuleId, D.Range});
      continue;
    }
    if (D.Fixes.empty())
      continue;
    size_t Mate = R.listMate(Tk, D.Range);
    if (Mate == None)
      continue;
    D.Fixes.clear();
    D.Notes.push_back(Note::plain("no fix: it is one of a list of backends (`" + R.shown(Mate) +
                                  "`, line " + std::to_string(R.line(Mate)) +
                                  "); rewritten, it would let every accelerator through, those "
                                  "the list leaves out too"));
  }
  // A fix under a CUDA check that stays would be half a port: with the
  // check unchanged, the code it guards never runs elsewhere, or runs
  // inconsistently.
  std::vector<ByteRange> Fixable;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Moved[I] && !Findings[I].Fixes.empty())
      Fixable.push_back(Findings[I].Range);
  for (size_t I = 0; I < Findings.size(); ++I) {
    Diagnostic &D = Findings[I];
    if (Moved[I] || D.Fixes.empty() || D.Category == "device-special-case")
      continue;
    size_t Tk = L.tokenAt(D.Range.Begin);
    if (Tk >= T.size() || T[Tk].InDirective)
      continue;
    size_t G = R.cudaGuard(Tk, Fixable);
    if (G != None) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: it depends on a CUDA check that stays (`" +
                                    R.shown(G) + "`, line " + std::to_string(R.line(G)) +
                                    "); port the check and this together"));
      continue;
    }
    size_t Check = R.assertion(Tk);
    if (Check != None) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: in a test's assertion (`" + L.spelling(Check).str() +
                                    "`); rewritten alone, it would check for another device "
                                    "where the code under test may still give CUDA"));
      continue;
    }
    size_t Only = R.guardsCudaOnly(Tk, Fixable);
    if (Only != None) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: the code it guards is CUDA-only: `" + R.shown(Only) +
                                    "` (line " + std::to_string(R.line(Only)) +
                                    "); rewriting the check would run it on other accelerators"));
    }
  }
  if (Keeps.empty())
    return;
  std::vector<Diagnostic> Rest;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Moved[I])
      Rest.push_back(std::move(Findings[I]));
  Findings = std::move(Rest);
  for (Diagnostic &K : Keeps)
    Kept.push_back(std::move(K));
}

} // namespace

} // namespace devport::cpp
