//===--- Review.cpp - Fixes judged by the code around them ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Review.h"

#include "core/NameWords.h"
#include "matchers/python/NameResolver.h"
#include "matchers/python/NodeIndex.h"
#include "matchers/python/ProjectModules.h"
#include "rewriters/EditApplier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>

namespace devport::python {

namespace {

/// The slot of a string literal in a table of Size (a power of two) by its
/// address: a literal keeps its address, and one that takes another's slot
/// is looked up again.
template <size_t Size> size_t literalSlot(const char *Literal) {
  static_assert((Size & (Size - 1)) == 0, "a power of two");
  return static_cast<size_t>((reinterpret_cast<uintptr_t>(Literal) * 0x9E3779B97F4A7C15ull) >>
                             (64 - __builtin_ctzll(Size)));
}

/// The symbols of Python's grammar named Type, a string literal, as bits by
/// symbol (512: the grammar has 274).
const uint64_t *symbolsNamed(const char *Type) {
  using Bits = std::array<uint64_t, 8>;
  static const llvm::StringMap<Bits> ByName = [] {
    llvm::StringMap<Bits> M;
    const TSLanguage *L = tree_sitter_python();
    for (uint32_t Sym = 0, N = ts_language_symbol_count(L); Sym < N && Sym < 512; ++Sym)
      if (const char *Name = ts_language_symbol_name(L, static_cast<TSSymbol>(Sym)))
        M[Name][Sym >> 6] |= uint64_t(1) << (Sym & 63);
    return M;
  }();
  static const Bits None{};
  struct Slot { // zero-initialised: no constructor for a thread_local to run
    const char *Key;
    const uint64_t *Bits;
  };
  static thread_local Slot Slots[1024];
  Slot &S = Slots[literalSlot<1024>(Type)];
  if (S.Key != Type) {
    auto It = ByName.find(Type);
    S.Bits = It == ByName.end() ? None.data() : It->second.data();
    S.Key = Type;
  }
  return S.Bits;
}

/// Whether N is a node of the type named Type (`is(N, "call")`), as
/// ts_node_type() names it: a bit test, where ts_node_type() and strcmp()
/// at 1.85 million calls were 2.7% of a check's instructions over PyTorch.
bool is(TSNode N, const char *Type) {
  if (ts_node_is_null(N))
    return false;
  TSSymbol Sym = ts_node_symbol(N);
  if (Sym >= 512) // ERROR (65535), or a grammar larger than the table
    return !std::strcmp(ts_node_type(N), Type);
  return (symbolsNamed(Type)[Sym >> 6] >> (Sym & 63)) & 1;
}

bool contains(TSNode N, ByteRange R) {
  return !ts_node_is_null(N) && rangeOf(N).contains(R);
}

/// The child of N in the field named Name, a string literal: its id looked
/// up once per literal and thread, as symbolsNamed() does (tree-sitter
/// compares the name with each field's).
TSNode field(TSNode N, const char *Name) {
  struct Slot { // zero-initialised, as symbolsNamed()'s
    const char *Key;
    TSFieldId Id;
  };
  static thread_local Slot Slots[256];
  Slot &S = Slots[literalSlot<256>(Name)];
  if (S.Key != Name) {
    S.Id = ts_language_field_id_for_name(tree_sitter_python(), Name,
                                         static_cast<uint32_t>(std::strlen(Name)));
    S.Key = Name;
  }
  return ts_node_child_by_field_id(N, S.Id);
}

/// The last name of a dotted callee (`skipUnless` of `unittest.skipUnless`).
llvm::StringRef lastName(llvm::StringRef Dotted) {
  return Dotted.substr(Dotted.rfind('.') + 1); // npos + 1: the whole
}

unsigned lineOf(llvm::StringRef Text, uint32_t Offset);

/// The first line of N's text, shortened, for a note.
std::string snippet(TSNode N, llvm::StringRef Text) {
  llvm::StringRef S = textOf(N, Text);
  S = S.take_until([](char C) { return C == '\n' || C == '\r'; }).rtrim();
  if (S.size() > 60)
    return S.take_front(57).str() + "...";
  return S.str();
}

bool checksAvailability(llvm::StringRef Condition);
bool onlyWithAccelerator(TSNode P, ByteRange R, llvm::StringRef Text);
bool cudaMethodCall(TSNode N, llvm::StringRef Text);

/// The module that the `from` import N names, without its leading dots, and
/// how many dots lead it (`from ..ops import x`: "ops", 2; `from . import
/// x`: "", 1).
std::pair<llvm::StringRef, unsigned> importedModule(TSNode N, llvm::StringRef Text) {
  TSNode From = field(N, "module_name");
  if (is(From, "dotted_name"))
    return {textOf(From, Text), 0};
  llvm::StringRef Module;
  unsigned Level = 0;
  if (is(From, "relative_import"))
    forEachChild(From, [&](TSNode C) {
      if (is(C, "import_prefix"))
        Level = static_cast<unsigned>(textOf(C, Text).count('.'));
      else if (is(C, "dotted_name"))
        Module = textOf(C, Text);
    });
  return {Module, Level};
}

/// Whether P is `True if N else False` (or the other way round): N's value as
/// a flag, not a pick of a device.
bool booleanPick(TSNode P, TSNode N) {
  if (!is(P, "conditional_expression") || ts_node_named_child_count(P) != 3 ||
      !sameNode(ts_node_named_child(P, 1), N))
    return false;
  TSNode A = ts_node_named_child(P, 0), B = ts_node_named_child(P, 2);
  return (is(A, "true") && is(B, "false")) || (is(A, "false") && is(B, "true"));
}

/// The lower-cased `_`-separated parts of an identifier.
llvm::SmallVector<std::string, 4> nameParts(llvm::StringRef Name) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Name.split(Parts, '_', -1, false);
  llvm::SmallVector<std::string, 4> Out;
  for (llvm::StringRef P : Parts)
    Out.push_back(P.lower());
  return Out;
}

std::optional<llvm::StringRef> torchMember(llvm::StringRef Dotted);

/// Whether N is `torch.float8_...` (through any name of torch's).
bool isFloat8(TSNode N, llvm::StringRef Text) {
  if (!is(N, "attribute"))
    return false;
  std::optional<llvm::StringRef> M = torchMember(textOf(N, Text));
  return M && M->startswith("float8_");
}

/// Whether N says float64 or float8, which MPS lacks: `torch.float64`,
/// `torch.double`, `np.float64`, `torch.DoubleTensor`, `torch.float8_...`,
/// a call `.double()`, a string "float64" or "double" (a dtype by name:
/// mace's `default_dtype="float64"`). Each holds a word of
/// OtherGuardedWords (below): region parsing keeps its line.
bool namesFloat64(TSNode N, llvm::StringRef Text) {
  if (is(N, "attribute")) {
    llvm::StringRef T = textOf(N, Text);
    std::optional<llvm::StringRef> M = torchMember(T);
    return (M && (*M == "double" || *M == "DoubleTensor" || M->startswith("float8_"))) ||
           textOf(field(N, "attribute"), Text) == "float64";
  }
  if (is(N, "call")) {
    TSNode F = field(N, "function");
    return is(F, "attribute") && textOf(field(F, "attribute"), Text) == "double" &&
           ts_node_named_child_count(field(N, "arguments")) == 0;
  }
  std::string Value;
  return is(N, "string") && simpleStringValue(N, Text, Value) &&
         (Value == "float64" || Value == "double");
}

// The words that the review looks for in code, in lower case. Every one is
// letters and digits: mentionsGuardedWord() relies on it.

/// What cudaName() looks for in a name.
constexpr llvm::StringLiteral CudaNameWords[] = {"cuda",   "cudnn", "nccl",    "nvtx",
                                                 "cublas", "nvml",  "cutlass", "nvidia"};
/// What cudaNamedString() looks for in a string.
constexpr llvm::StringLiteral CudaStringWords[] = {"cuda",  "gpu",    "nccl",   "tensorrt",
                                                   "cudnn", "nvidia", "nvfuser"};
/// The `_`-separated parts of a name (or a string) that otherBackendName() looks for:
/// other backends, and the Mac's platform names (`MACOS`, `sys.platform == "darwin"`), whose
/// accelerator is MPS.
constexpr llvm::StringLiteral OtherBackendWords[] = {
    "mps", "xpu",    "npu",  "hpu", "mtia",        "xla",   "tpu",   "musa",
    "mlu", "neuron", "rocm", "hip", "privateuse1", "macos", "darwin"};
/// The values that cpuFallback() and cudaOnlyCode()'s float64, float8 and gloo
/// tests look for (`X = "cpu"`, `torch.float64`, `torch.float8_e4m3fn`,
/// `torch.double`, `"gloo"`),
/// `dataparallel`, which cudaName() finds in a name in any case, and the
/// words of groupWrapper()'s names (`DDP`, `FSDP`; `fully_shard` is looked
/// for whole).
constexpr llvm::StringLiteral OtherGuardedWords[] = {"cpu",  "float64",      "float8", "double",
                                                     "gloo", "dataparallel", "ddp",    "fsdp"};

/// A name that says it is about CUDA or a CUDA library, or `DataParallel`
/// (not `DistributedDataParallel`, `FullyShardedDataParallel` or fairscale's
/// `ShardedDataParallel`, which run on a process group: groupWrapper()):
/// `nn.DataParallel` scatters with `torch._C._scatter`, which only CUDA builds
/// register, and wraps nothing on a Mac (tianshou's `DataParallelNet` under
/// `if torch.cuda.is_available():`).
bool cudaName(llvm::StringRef Name) {
  std::string L = Name.lower();
  for (llvm::StringRef W : CudaNameWords)
    if (L.find(W) != std::string::npos)
      return true;
  llvm::StringRef R = L;
  return R.count("dataparallel") >
         R.count("distributeddataparallel") + R.count("shardeddataparallel");
}

/// The collectives that groupWrapper() finds, by their last name, called
/// through `dist.` or `torch.distributed.` (mentionsGuardedWord() keeps the
/// lines that name them).
constexpr llvm::StringLiteral Collectives[] = {
    "all_reduce", "all_gather",       "all_gather_into_tensor",
    "broadcast",  "reduce_scatter",   "reduce_scatter_tensor",
    "all_to_all", "all_to_all_single"};

/// What a call's callee says of a process group: Group, a collective
/// (`dist.all_reduce(t)`, fairseq's dummy all-reduce) or a wrapper that runs
/// them on the module's parameters (`DistributedDataParallel`, `DDP`,
/// fairscale's `ShardedDataParallel`, `fully_shard`); Moves, one that also
/// puts the module on the current accelerator itself
/// (`FullyShardedDataParallel`, `FSDP`: PyTorch 2.6's `_init_device_handle`).
/// Read by name, as the region scan keeps lines (mentionsGuardedWord()); an
/// alias is followed where its name says DDP or FSDP (ImportedNames), not
/// otherwise (`DistributedDataParallel as Wrapper`).
enum class GroupUse { None, Group, Moves };
GroupUse groupWrapper(llvm::StringRef Callee) {
  std::optional<llvm::StringRef> Member = torchMember(Callee);
  if ((Callee.startswith("dist.") || (Member && Member->startswith("distributed."))) &&
      llvm::is_contained(Collectives, lastName(Callee)))
    return GroupUse::Group;
  std::string L = lastName(Callee).lower();
  if (L == "fullyshardeddataparallel" || L == "fsdp")
    return GroupUse::Moves;
  if (L == "distributeddataparallel" || L == "ddp" || L == "shardeddataparallel" ||
      L == "fully_shard")
    return GroupUse::Group;
  return GroupUse::None;
}

/// A name that means CUDA to code devport does not see: `gpu` or `gpus` as a
/// word (composer's `DeviceGPU`, `move_to_gpu`, faiss's `gpu=`, Lightning
/// 1.x's `gpus=`), or `pin_memory`, which upstream keeps CUDA-only (RULES.md,
/// 5). mentionsGuardedWord() keeps the lines that hold one.
bool gpuOrPinning(llvm::StringRef Name) {
  static constexpr llvm::StringLiteral Gpu[] = {"gpu", "gpus"};
  return hasNameWord(Name, Gpu) || Name == "pin_memory";
}

/// A name that says it is about another accelerator (`mps`, `has_xpu`,
/// `is_torch_npu_available`).
bool otherBackendName(llvm::StringRef Name) {
  for (const std::string &P : nameParts(Name))
    for (llvm::StringRef W : OtherBackendWords)
      if (P == W)
        return true;
  return false;
}

/// A comment in Clause (an `else:` block), before its block's last statement
/// ends, that names another accelerator as a word: `# TODO: xpu support in face-alignment is not
/// released yet`, the author sending that backend to the fallback on purpose. Read from the text,
/// line by line: region parsing leaves a comment on a line of its own out of the tree (the text
/// keeps it). A line with a quote anywhere is passed over: its `#` may be in a string.
/// Whether a comment names another accelerator as a word.
bool commentNamesOtherBackend(llvm::StringRef Comment) {
  llvm::SmallVector<llvm::StringRef, 16> Words;
  Comment.split(Words, ' ', -1, false);
  return llvm::any_of(Words, [](llvm::StringRef W) {
    std::string L = W.trim(" \t#:;,.()[]{}'\"`!?/").lower();
    return llvm::is_contained(OtherBackendWords, llvm::StringRef(L));
  });
}

/// A comment that names another accelerator on the lines of the statement
/// S, or on the lines of comments right above it (no blank line between):
/// unsloth's Studio trainer, `# SNAC unvalidated on Intel XPU; keep the
/// pre-PR CPU fallback for non-CUDA hosts.` over `device = "cuda" if
/// torch.cuda.is_available() else "cpu"`, the author sending that backend to
/// the CPU on purpose. Read from the text as commentNamingOtherBackend()
/// reads, the comment from the first `#` outside a string.
std::optional<ByteRange> commentOnStatementNamingOtherBackend(TSNode S, llvm::StringRef Text) {
  auto Check = [&](size_t At, size_t Eol) -> std::optional<ByteRange> {
    llvm::StringRef Line = Text.slice(At, Eol);
    // The first `#` outside a one-line string; none past a triple quote.
    size_t Hash = llvm::StringRef::npos;
    char Quote = 0;
    for (size_t I = 0; I < Line.size() && Hash == llvm::StringRef::npos; ++I) {
      char C = Line[I];
      if (Quote) {
        if (C == '\\')
          ++I;
        else if (C == Quote)
          Quote = 0;
      } else if (C == '"' || C == '\'') {
        if (Line.substr(I, 3) == std::string(3, C))
          return std::nullopt;
        Quote = C;
      } else if (C == '#') {
        Hash = I;
      }
    }
    if (Hash == llvm::StringRef::npos)
      return std::nullopt;
    if (!commentNamesOtherBackend(Line.drop_front(Hash)))
      return std::nullopt;
    return ByteRange{static_cast<uint32_t>(At + Hash),
                     static_cast<uint32_t>(At + Line.rtrim("\r").size())};
  };
  size_t Begin = ts_node_start_byte(S), End = ts_node_end_byte(S);
  size_t First = Text.rfind('\n', Begin);
  First = First == llvm::StringRef::npos ? 0 : First + 1;
  for (size_t At = First; At < End;) {
    size_t Eol = std::min<size_t>(Text.find('\n', At), Text.size());
    if (auto C = Check(At, Eol))
      return C;
    At = Eol + 1;
  }
  // The comment lines right above.
  for (size_t LineEnd = First; LineEnd > 0;) {
    size_t Prev = Text.rfind('\n', LineEnd - 1);
    size_t At = Prev == llvm::StringRef::npos ? 0 : Prev + 1;
    llvm::StringRef Line = Text.slice(At, LineEnd - 1).trim(" \t\r");
    if (!Line.startswith("#"))
      break;
    if (auto C = Check(At, LineEnd - 1))
      return C;
    LineEnd = At;
  }
  return std::nullopt;
}

std::optional<ByteRange> commentNamingOtherBackend(TSNode Clause, llvm::StringRef Text) {
  // Up to the end of the block's last statement: a comment after it is in
  // the block of a whole file's tree but not of a region parse's.
  uint32_t End = ts_node_start_byte(Clause);
  TSNode Body = field(Clause, "body");
  for (uint32_t I = ts_node_is_null(Body) ? 0 : ts_node_named_child_count(Body); I-- > 0;)
    if (TSNode C = ts_node_named_child(Body, I); !is(C, "comment")) {
      End = ts_node_end_byte(C);
      break;
    }
  for (size_t At = ts_node_start_byte(Clause); At < End;) {
    size_t Eol = std::min<size_t>(Text.find('\n', At), End);
    llvm::StringRef Line = Text.slice(At, Eol);
    size_t Hash = Line.find('#');
    if (Hash != llvm::StringRef::npos &&
        Line.find_last_of("\"'") == llvm::StringRef::npos) // no string before it
      if (commentNamesOtherBackend(Line.drop_front(Hash)))
        return ByteRange{static_cast<uint32_t>(At + Hash),
                         static_cast<uint32_t>(At + Line.rtrim("\r").size())};
    At = Eol + 1;
  }
  return std::nullopt;
}

/// A string literal naming a CUDA device or NCCL: "cuda", "cuda:0",
/// f"cuda:{i}", "nccl".
bool cudaDeviceString(TSNode N, llvm::StringRef Text) {
  llvm::StringRef S = textOf(N, Text);
  S = S.ltrim("rRuUbBfF");
  S = S.ltrim("\"'");
  for (llvm::StringRef W : {"cuda", "nccl"})
    if (S.startswith(W)) {
      llvm::StringRef Rest = S.drop_front(W.size());
      return Rest.empty() || Rest.front() == ':' || Rest.front() == '"' || Rest.front() == '\'';
    }
  return false;
}

/// What flagGuard() and reassignedLater() look for after a statement, for a
/// whole scope at once, in document order: walking the scope again for each
/// finding made a file of n flag assignments cost n^2 (5,000 lines of
/// `x = torch.cuda.device_count()` took 50 s).
struct ScopeIndex {
  /// Which halves are built (each is a walk of the whole scope, and a review
  /// often needs one: a module's assignments, not its names).
  bool HasUses = false, HasAssignments = false;
  /// Identifiers that are names (not `.attr`, not a `name=` keyword), by text.
  llvm::StringMap<std::vector<TSNode>> Names;
  /// Attributes of a name (`self.use_cuda`, `args.n_gpu`), by text.
  llvm::StringMap<std::vector<TSNode>> Attributes;
  /// Assignments, by the text of their left side; nested function bodies
  /// left out.
  llvm::StringMap<std::vector<TSNode>> Assignments;
};

/// Diagnostics by where they begin, to find those that hold a range (or lie
/// in one) without reading them all: once per guard and per CUDA-looking
/// node, that was quadratic in a large file.
struct RangeIndex {
  const std::vector<Diagnostic> *Of = nullptr;
  size_t Size = 0;              ///< Of->size() when indexed; later ones are read one by one.
  std::vector<size_t> Order;    ///< Indices into *Of, by Range.Begin then index.
  std::vector<uint32_t> Begins; ///< Range.Begin, in that order.
  std::vector<uint32_t> MaxEnd; ///< The largest Range.End of Order[0..J].

  void build(const std::vector<Diagnostic> &V) {
    Of = &V;
    Size = V.size();
    Order.resize(Size);
    for (size_t I = 0; I < Size; ++I)
      Order[I] = I;
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return std::make_pair(V[A].Range.Begin, A) < std::make_pair(V[B].Range.Begin, B);
    });
    Begins.resize(Size);
    MaxEnd.resize(Size);
    uint32_t M = 0;
    for (size_t J = 0; J < Size; ++J) {
      Begins[J] = V[Order[J]].Range.Begin;
      M = std::max(M, V[Order[J]].Range.End);
      MaxEnd[J] = M;
    }
  }

  /// Calls Fn(I) for each diagnostic I whose range holds R (Holding) or lies
  /// in R (Inside), until Fn returns true.
  template <typename F> void forEach(ByteRange R, bool Holding, bool Inside, F &&Fn) const {
    const std::vector<Diagnostic> &V = *Of;
    if (Holding) {
      size_t P = std::upper_bound(Begins.begin(), Begins.end(), R.Begin) - Begins.begin();
      for (size_t J = P; J-- > 0;) {
        if (MaxEnd[J] < R.End)
          break; // nothing before reaches R's end
        if (V[Order[J]].Range.contains(R) && Fn(Order[J]))
          return;
      }
    }
    if (Inside) {
      size_t J = std::lower_bound(Begins.begin(), Begins.end(), R.Begin) - Begins.begin();
      for (; J < Size && Begins[J] <= R.End; ++J)
        if (R.contains(V[Order[J]].Range) && Fn(Order[J]))
          return;
    }
    for (size_t I = Size; I < V.size(); ++I) // added since the index was built
      if (((Holding && V[I].Range.contains(R)) || (Inside && R.contains(V[I].Range))) && Fn(I))
        return;
  }
};

class Ancestors;

/// What cudaOnlyCode() reads of a module's imports, anywhere in it.
struct ImportedNames {
  /// The names imported from torch.cuda or a CUDA-only library
  /// (cudaLibraryModule()).
  llvm::SmallVector<std::string, 4> FromCuda;
  /// The aliases of the process-group wrappers (groupWrapper()) whose name
  /// says DDP or FSDP, as the lines that the region scan keeps do
  /// (mentionsGuardedWord()): timm's `DistributedDataParallel as
  /// NativeDDP`, fairscale's `ShardedDataParallel as ShardedDDP`.
  llvm::SmallVector<std::pair<std::string, GroupUse>, 2> Wrappers;
  /// What each `from MODULE import NAME [as BOUND]` binds where MODULE is not
  /// torch's: BOUND -> (MODULE, its leading dots, NAME). Guarded code that
  /// calls one may call a compiled extension's kernel (extensionModuleOf()).
  struct From {
    std::string Module;
    unsigned Level;
    std::string Name;
    bool Caught; ///< In a `try` that catches the failed import (importErrorCaught()).
    /// extensionModuleOf() of it, asked once a review (it looks on disk).
    mutable std::optional<std::optional<std::string>> Extension;
  };
  llvm::StringMap<From> FromModules;
};

/// What reviewFixes() keeps about the tree it works on, while it runs: the
/// index that finds a node by position (a module of 100,000 statements, or a
/// class of 300 methods, would otherwise be read from its first child for
/// every finding; the parse's own, which the match after an edit shares) and
/// the indexes below.
struct TopLevel {
  const NodeIndex &Index; ///< Of the root (the parse's own: see PythonParsedFile::index()).
  explicit TopLevel(const NodeIndex &Index) : Index(Index) {}
  RangeIndex Findings, Kept;  ///< Of reviewFixes()'s findings and kept places.
  /// cudaOnlyCode(): the names the module imports (importedNames()).
  mutable std::optional<ImportedNames> Imported;
  /// unskippedTest(): whether the module skips its tests without an
  /// accelerator (moduleSkipped()).
  mutable std::optional<bool> ModuleSkipped;
  /// cudaOnlyCode(): moduleDefinitions().
  mutable std::unique_ptr<llvm::StringMap<TSNode>> Definitions;
  /// cudaOnlyCode(): boundUnderCudaCheck().
  mutable std::unique_ptr<llvm::StringMap<std::vector<ByteRange>>> BoundUnderCheck;
  /// unskippedTest(): whether the text says `def test` at all.
  mutable std::optional<bool> HasTests;
  /// needsCudaAnyway(), by test function.
  mutable llvm::DenseMap<const void *, bool> NeedsCuda;
  /// float64LibraryImports().
  mutable std::optional<llvm::SmallVector<unsigned, 3>> Float64Imports;
  /// Names whose value's fix usedOnlyWithAccelerator() made unsafe, with
  /// the function they are local to: code that uses one is portable only
  /// after that fix (cudaOnlyCode()).
  mutable std::vector<std::pair<std::string, ByteRange>> UnsafeValues;
  /// ownCudaMethod(): classesWithCuda().
  mutable std::unique_ptr<llvm::StringMap<unsigned>> ClassesWithCuda;
  /// By scope node (the root, a function or a class), built when first asked.
  mutable llvm::DenseMap<const void *, std::unique_ptr<ScopeIndex>> Scopes;
  /// lineOf(): the offsets of the text's '\n's, and that text, built when
  /// first asked (counting from the start for each note was quadratic in a
  /// large file).
  mutable std::vector<uint32_t> Newlines;
  mutable llvm::StringRef NewlinesOf;
  /// pathTo(): the path to the node that spans a range, by the range (the
  /// helpers walk up from the same findings: a path each was 2% of a check).
  mutable llvm::DenseMap<uint64_t, std::unique_ptr<Ancestors>> Paths;
  /// The file's imports (reviewFixes()'s; may be null): the review reads
  /// torch's names through them (torchMember()), as the fixes spell them
  /// (useAliases()).
  const NameResolver *Resolver = nullptr;
  /// importedTorchMember(), by the text asked: what it resolved to.
  mutable llvm::StringMap<std::optional<std::string>> TorchMembers;
  /// What the fixes put code on, where a project says so (reviewFixes()'s).
  llvm::ArrayRef<llvm::StringRef> CustomDevice;
  ~TopLevel();
};
thread_local const TopLevel *CurrentTopLevel = nullptr;

/// The review's TopLevel if it is Root's (null outside a review, or for
/// another tree).
const TopLevel *topLevelOf(TSNode Root) {
  const TopLevel *T = CurrentTopLevel;
  return T && sameNode(T->Index.root(), Root) ? T : nullptr;
}

/// The binding that the module's imports give Name, if any (null outside a
/// review, or without its imports).
const Binding *moduleBinding(llvm::StringRef Name) {
  const TopLevel *T = CurrentTopLevel;
  if (!T || !T->Resolver)
    return nullptr;
  const Scope Module{T->Index.root().id, false};
  return T->Resolver->lookup(Name, Module);
}

/// What the dotted name Dotted names in torch, after `torch.` (`cuda.empty_cache`
/// for `torch.cuda.empty_cache`, and for `th.cuda.empty_cache` after `import
/// torch as th`), or nullopt where it does not start with a name of torch's.
std::optional<llvm::StringRef> torchMember(llvm::StringRef Dotted) {
  llvm::StringRef Root = Dotted.take_until([](char C) { return C == '.'; });
  if (Root.size() == Dotted.size())
    return std::nullopt;
  const Binding *B = moduleBinding(Root);
  if (B ? B->Target != "torch" : Root != "torch")
    return std::nullopt;
  return Dotted.drop_front(Root.size() + 1);
}

/// torchMember() through any import of the module's, as the matcher resolves
/// a name: also `cuda.empty_cache` for `tc.empty_cache` after `import
/// torch.cuda as tc`, and for `empty_cache` after `from torch.cuda import
/// empty_cache`. An import in a function is not read.
std::optional<llvm::StringRef> importedTorchMember(llvm::StringRef Dotted) {
  const TopLevel *T = CurrentTopLevel;
  if (!T || !T->Resolver)
    return torchMember(Dotted);
  auto [It, New] = T->TorchMembers.try_emplace(Dotted);
  if (New) {
    llvm::StringRef Root = Dotted.take_until([](char C) { return C == '.'; });
    const Binding *B = moduleBinding(Root);
    std::string Target = (B ? llvm::StringRef(B->Target) : Root).str();
    Target += Dotted.drop_front(Root.size());
    if (llvm::StringRef(Target).startswith("torch.") && Target.size() > 6)
      It->second = Target.substr(6);
  }
  if (!It->second)
    return std::nullopt;
  return llvm::StringRef(*It->second);
}

/// Whether Code (a finding's text) starts with `torch.cuda.` and then Rest,
/// through any name of torch's.
bool startsWithCudaModule(llvm::StringRef Code, llvm::StringRef Rest = "") {
  std::optional<llvm::StringRef> M = torchMember(Code);
  return M && M->startswith("cuda.") && M->drop_front(5).startswith(Rest);
}

/// What the fixes put code on where a project says so (a custom
/// `--device-expression`, its type expression); empty outside a review.
llvm::ArrayRef<llvm::StringRef> customDevice() {
  const TopLevel *T = CurrentTopLevel;
  return T ? T->CustomDevice : llvm::ArrayRef<llvm::StringRef>();
}

/// Whether Code holds the current accelerator (`current_accelerator(`), or
/// the device or its type as a custom `--device-expression` spells it.
bool mentionsPortedDevice(llvm::StringRef Code) {
  return Code.contains("current_accelerator(") ||
         llvm::any_of(customDevice(), [&](llvm::StringRef E) { return Code.contains(E); });
}

/// The 1-based line of Offset ('\n' ends a line).
unsigned lineOf(llvm::StringRef Text, uint32_t Offset) {
  const TopLevel *T = CurrentTopLevel;
  if (!T)
    return static_cast<unsigned>(Text.take_front(Offset).count('\n')) + 1;
  if (T->NewlinesOf.data() != Text.data() || T->NewlinesOf.size() != Text.size()) {
    T->Newlines.clear();
    for (size_t At = Text.find('\n'); At != llvm::StringRef::npos; At = Text.find('\n', At + 1))
      T->Newlines.push_back(static_cast<uint32_t>(At));
    T->NewlinesOf = Text;
  }
  return static_cast<unsigned>(std::lower_bound(T->Newlines.begin(), T->Newlines.end(), Offset) -
                               T->Newlines.begin()) +
         1;
}

/// ts_node_descendant_for_byte_range(Root, B, E), from the review's index
/// when Root is the review's root.
TSNode descendantFor(TSNode Root, uint32_t B, uint32_t E) {
  const TopLevel *T = topLevelOf(Root);
  return T ? T->Index.descendantFor(B, E) : ts_node_descendant_for_byte_range(Root, B, E);
}

/// The nodes of V (in document order) that start at or after After.
llvm::ArrayRef<TSNode> startingFrom(const std::vector<TSNode> &V, uint32_t After) {
  auto It = std::lower_bound(V.begin(), V.end(), After,
                             [](TSNode N, uint32_t B) { return ts_node_start_byte(N) < B; });
  return llvm::makeArrayRef(V).drop_front(It - V.begin());
}

/// Parents along one path from the root: tree-sitter's ts_node_parent()
/// searches down from the root on every call, so walking up from a node of a
/// large module that way costs depth x siblings per step.
class Ancestors {
public:
  /// The path from Root down to the smallest node that spans R.
  Ancestors(TSNode Root, ByteRange R) : Ancestors(Root, descendantFor(Root, R.Begin, R.End)) {}
  /// The path from Root down to N.
  Ancestors(TSNode Root, TSNode N) {
    const TopLevel *T = topLevelOf(Root);
    pathFrom(Root, N, Path, T ? &T->Index : nullptr);
  }
  /// The node the path leads to.
  TSNode node() const { return Path.back(); }
  /// The parent of X, which must be on the path; null for the root.
  /// Walking up one parent at a time costs O(1) a step: the last answer's
  /// place is remembered (a scan from the end each time made a walk up a
  /// 2,000-deep `a() + a() + ...` quadratic, per finding).
  TSNode parent(TSNode X) const {
    if (Last < Path.size() && sameNode(Path[Last], X)) {
      if (Last == 0)
        return TSNode{};
      --Last;
      return Path[Last];
    }
    for (size_t I = Path.size(); I-- > 1;)
      if (sameNode(Path[I], X)) {
        Last = I - 1;
        return Path[I - 1];
      }
    return TSNode{};
  }

private:
  std::vector<TSNode> Path;
  mutable size_t Last = ~size_t(0); ///< Index of the last parent() returned.
};

TopLevel::~TopLevel() = default;

/// The path from Root down to the node that spans R: once per range in a
/// review, else built into Local.
const Ancestors &pathTo(TSNode Root, ByteRange R, std::optional<Ancestors> &Local) {
  if (const TopLevel *T = topLevelOf(Root)) {
    std::unique_ptr<Ancestors> &Slot = T->Paths[(uint64_t(R.Begin) << 32) | R.End];
    if (!Slot)
      Slot = std::make_unique<Ancestors>(Root, R);
    return *Slot;
  }
  return Local.emplace(Root, R);
}

/// A string that names a CUDA-only thing as data: a package, a provider, a
/// backend (`"onnxruntime-gpu"`, `"CUDAExecutionProvider"`, `"NCCL"`,
/// `"tensorrt"`), any case. Messages are not data (see inMessage).
bool cudaNamedString(TSNode N, llvm::StringRef Text) {
  std::string L = textOf(N, Text).lower();
  for (llvm::StringRef W : CudaStringWords)
    if (L.find(W) != std::string::npos)
      return true;
  return false;
}

/// Whether the string N is an f-string with code in it (`f"{torch.cuda.
/// max_memory_allocated()}"`): its `{...}` run where the string is built.
bool holdsCode(TSNode N) {
  uint32_t Count = ts_node_named_child_count(N);
  for (uint32_t I = 0; I < Count; ++I)
    if (is(ts_node_named_child(N, I), "interpolation"))
      return true;
  return false;
}

/// Is N (a string) a message: an argument of print, logging, warnings, an
/// exception, a skip, or an assert's message?
bool inMessage(TSNode Root, TSNode N, llvm::StringRef Text) {
  Ancestors A(Root, N);
  TSNode Up = A.parent(N);
  if (is(Up, "expression_statement") && ts_node_named_child_count(Up) == 1)
    return true; // a docstring or a bare string: prose
  for (TSNode P = A.parent(N); !ts_node_is_null(P); P = A.parent(P)) {
    if (is(P, "assert_statement") || is(P, "raise_statement"))
      return true;
    if (is(P, "call")) {
      llvm::StringRef F = textOf(field(P, "function"), Text);
      llvm::StringRef Last = F.rsplit('.').second.empty() ? F : F.rsplit('.').second;
      for (const char *M : {"print", "warn", "warning", "info", "debug", "error", "exception",
                            "critical", "log", "skipTest", "skip", "fail", "write", "format",
                            "echo", "secho", "skipIf", "skipUnless", "skipif", "xfail"})
        if (Last == M)
          return true;
      if (Last.endswith("Error") || Last.endswith("Exception") || Last.endswith("Warning"))
        return true;
    }
    if (is(P, "expression_statement") || is(P, "block") || is(P, "module"))
      return false;
  }
  return false;
}

/// The expression a CUDA-only token belongs to, for the note: the outermost
/// attribute chain or call it is part of.
TSNode expressionOf(TSNode Root, TSNode N) {
  Ancestors A(Root, N);
  for (;;) {
    TSNode P = A.parent(N);
    if (ts_node_is_null(P))
      return N;
    if (is(P, "attribute") || (is(P, "call") && sameNode(field(P, "function"), N))) {
      N = P;
      continue;
    }
    return N;
  }
}

/// The dotted chain of names that the bytes [B, E) of Text lie in
/// (`torch.backends.cuda.cufft_plan_cache.max_size` around `cuda`).
llvm::StringRef dottedChain(llvm::StringRef Text, uint32_t B, uint32_t E) {
  auto InChain = [](char C) { return llvm::isAlnum(C) || C == '_' || C == '.'; };
  while (B > 0 && InChain(Text[B - 1]))
    --B;
  while (E < Text.size() && InChain(Text[E]))
    ++E;
  return Text.slice(B, E);
}

/// Whether Chain reaches cuFFT's plan cache
/// (`torch.backends.cuda.cufft_plan_cache.max_size`), whose every attribute
/// asks `torch.cuda.current_device()`, which raises without CUDA (peft's).
bool cufftPlanCache(llvm::StringRef Chain) { return Chain.contains("cufft_plan_cache"); }

/// `torch.backends.cudnn.X` and `torch.backends.cuda.X`: settings and
/// queries that run on any build (cuDNN and CUDA matmul flags are plain
/// Python attributes), so they keep nothing CUDA-only in a widened block;
/// not cuFFT's plan cache (cufftPlanCache()).
bool backendsFlag(TSNode N, llvm::StringRef Text) {
  llvm::StringRef Chain = dottedChain(Text, ts_node_start_byte(N), ts_node_end_byte(N));
  std::optional<llvm::StringRef> Member = torchMember(Chain);
  return Member && Member->startswith("backends.") && !cufftPlanCache(Chain);
}

/// `is_nccl_available`, `is_cuda_available`: a query that answers on any
/// build (False where the thing is missing), not CUDA-only code.
bool availabilityQuery(llvm::StringRef Name) {
  return Name.startswith("is_") && Name.endswith("_available");
}

/// Keep rules whose code runs on every build (see backendsFlag), but in an
/// assertion (inAssertion()) and for cuFFT's plan cache (keptRunsAnywhere()).
const char *const HarmlessKeeps[] = {"keep-cudnn", "keep-backends-cuda"};

const Ancestors &pathTo(TSNode Root, ByteRange R, std::optional<Ancestors> &Local);

/// Whether R lies in an assertion: an `assert` statement, or a call of an
/// `assert...` method or function (`self.assertTrue(...)`, `assert_close`).
/// A flag of cuDNN's or CUDA matmul's that a test asserts is what a CUDA run
/// left there (torchtune's `assert not torch.backends.cudnn.allow_tf32` after
/// a precision helper that sets it on CUDA only): elsewhere it holds another
/// value, and the assertion fails.
bool inAssertion(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> Own;
  const Ancestors &Up = pathTo(Root, R, Own);
  for (TSNode P = Up.parent(Up.node()); !ts_node_is_null(P); P = Up.parent(P)) {
    if (is(P, "assert_statement"))
      return true;
    if (is(P, "call") && lastName(textOf(field(P, "function"), Text)).startswith("assert"))
      return true;
    if (is(P, "block") || is(P, "module"))
      return false;
  }
  return false;
}

/// Whether the kept place K is code that runs on every build, so that guarded
/// code may hold it (HarmlessKeeps, backendsFlag()): not in an assertion, and
/// not cuFFT's plan cache (cufftPlanCache()).
bool keptRunsAnywhere(const Diagnostic &K, TSNode Root, llvm::StringRef Text) {
  return llvm::is_contained(HarmlessKeeps, K.RuleId) &&
         !cufftPlanCache(dottedChain(Text, K.Range.Begin, K.Range.End)) &&
         !inAssertion(Root, K.Range, Text);
}

/// The last statement of Block: its last named child that is not a comment
/// (`return x  # no GPU` ends with the comment in the tree). Null if none.
TSNode lastStatement(TSNode Block) {
  for (uint32_t I = ts_node_named_child_count(Block); I-- > 0;) {
    TSNode C = ts_node_named_child(Block, I);
    if (!is(C, "comment"))
      return C;
  }
  return TSNode{};
}

/// Does the block end its enclosing block early (`return`, `raise`,
/// `continue`, `break`, `self.skipTest(...)`, `pytest.skip(...)`,
/// `sys.exit(...)`)?
bool exitsEarly(TSNode Block, llvm::StringRef Text) {
  TSNode Last = lastStatement(Block);
  if (ts_node_is_null(Last))
    return false;
  if (is(Last, "return_statement") || is(Last, "raise_statement") ||
      is(Last, "continue_statement") || is(Last, "break_statement"))
    return true;
  if (!is(Last, "expression_statement") || ts_node_named_child_count(Last) != 1)
    return false;
  TSNode Call = ts_node_named_child(Last, 0);
  if (!is(Call, "call"))
    return false;
  llvm::StringRef F = textOf(field(Call, "function"), Text);
  return F.endswith("skipTest") || F.endswith("skip") || F.endswith("exit") ||
         F.endswith("skip_test");
}

/// The target of a `X = "cpu"` assignment in Block: the CPU fallback that a
/// negated availability guard sets, protecting a CUDA default elsewhere.
std::optional<std::string> cpuFallback(TSNode Block, llvm::StringRef Text) {
  std::optional<std::string> Found;
  preorder(Block, [&](TSNode N, TSTreeCursor *) {
    if (Found)
      return false;
    if (is(N, "assignment")) {
      std::string V;
      TSNode Right = field(N, "right");
      // Or `torch.device("cpu")` (DeepSpeedExamples' ImageNet script, after
      // `device = torch.device("cuda")`).
      if (is(Right, "call") && textOf(field(Right, "function"), Text).endswith("device")) {
        TSNode Args = field(Right, "arguments");
        if (ts_node_named_child_count(Args) == 1)
          Right = ts_node_named_child(Args, 0);
      }
      if (is(Right, "string") && simpleStringValue(Right, Text, V) && V == "cpu")
        Found = textOf(field(N, "left"), Text).str();
      return false;
    }
    return !is(N, "function_definition") && !is(N, "class_definition");
  });
  return Found;
}

/// Whether the `with` statement W hands what it holds to a fake
/// (`with FakeTensorMode():`, `with fake_mode:`, torchtitan's graph_trainer
/// tests): a factory call there never touches the device it names.
bool fakeMode(TSNode W, llvm::StringRef Text) {
  return is(W, "with_statement") &&
         llvm::StringRef(textOf(ts_node_child(W, 1), Text).lower()).contains("fake");
}

/// Whether Class is a test class: named for tests (`TestPartitioner`,
/// `PipelineTest`, `PipelineTests`) or derived from one (`unittest.TestCase`,
/// `MultiProcessTestCase`).
bool testClass(TSNode Class, llvm::StringRef Text) {
  llvm::StringRef Name = textOf(field(Class, "name"), Text);
  TSNode Bases = field(Class, "superclasses");
  return Name.startswith("Test") || Name.endswith("Test") || Name.endswith("Tests") ||
         (!ts_node_is_null(Bases) && textOf(Bases, Text).contains("Test"));
}

/// Whether the function Def (Up's path holds it) runs as a test does: named
/// `test...`, or a set-up method of a test class (`setUp`, `setUpClass`,
/// `setup_method`, ...), which runs before each of its tests (torchrec's
/// planner tests store their device there).
bool runsAsTest(TSNode Def, const Ancestors &Up, llvm::StringRef Text) {
  llvm::StringRef Name = textOf(field(Def, "name"), Text);
  if (Name.startswith("test"))
    return true;
  if (!setUpName(Name))
    return false;
  TSNode Body = Up.parent(Def);
  if (is(Body, "decorated_definition"))
    Body = Up.parent(Body);
  TSNode Class = Up.parent(Body);
  return is(Body, "block") && is(Class, "class_definition") && testClass(Class, Text);
}

/// The callee of the call that Code starts with, after a decorator's `@`
/// (`unittest.skipIf` of `@unittest.skipIf(not TEST_CUDA, ...)`); all of it
/// where there is no call.
llvm::StringRef calleeText(llvm::StringRef Code) {
  return Code.ltrim("@ \t").take_until([](char C) { return C == '(' || C == '\n'; }).rtrim();
}

/// Whether Code starts with a call of a test double's factory: its callee
/// names `patch` (`mock.patch(...)`, `patch.object(...)`, `mock.patch.dict`),
/// a mock, a fake, a stub, a dummy or a pretence (unsloth's `with
/// _pretend_cuda():`, which makes torch.cuda answer on a CPU runner).
bool testDouble(llvm::StringRef Code) {
  llvm::StringRef Callee = calleeText(Code);
  static constexpr llvm::StringLiteral Words[] = {"patch", "mock",    "fake",    "stub",
                                                  "dummy", "pretend", "simulat", "emulat"};
  return llvm::any_of(Words, [&](llvm::StringRef W) { return Callee.contains_insensitive(W); });
}

/// Whether a decorator of a test (or of its class) may skip it where there is
/// no accelerator: it says one (saysAccelerator() in Review.h), or names a platform,
/// a requirement or support (`@supported_platform`, `@skipIf(not
/// PLATFORM_SUPPORTS_FP8, ...)`, `@requires_triton()`): a condition that
/// devport cannot read. `@skipIfTorchDynamo` and co. are not.
bool guardsTest(llvm::StringRef Decorator) {
  // What adds cases runs the test on the CPU too: PyG's `@withCUDA` (a CPU
  // case beside a CUDA one), `@pytest.mark.parametrize("device", [...])`,
  // hypothesis's `@given(device=st.sampled_from(["cpu", "cuda"]))` and
  // `@example(...)`, which give the test values whatever they name.
  std::string Name = lastName(calleeText(Decorator)).lower();
  if (llvm::StringRef(Name).startswith("with") || Name.find("param") != std::string::npos ||
      Name == "given" || Name == "example")
    return false;
  // A test double (`@mock.patch("torch.cuda.is_available", return_value=True)`,
  // `@mock.patch.object(..., return_value=torch.device("cuda", 1))`, Lightning's
  // tests) skips nothing: it is why the test runs without CUDA.
  if (testDouble(Decorator))
    return false;
  if (saysAccelerator(Decorator))
    return true;
  std::string L = Decorator.lower();
  for (const char *W : {"platform", "support", "require"})
    if (L.find(W) != std::string::npos)
      return true;
  return false;
}

/// What a guard guards: byte ranges of code that runs (or runs differently)
/// when its condition changes.
struct Guard {
  size_t Finding;                 ///< Index into the findings.
  std::vector<ByteRange> Regions; ///< The guarded code.
  TSNode Ladder{};                ///< The if statement of a per-backend ladder, if any.
  uint32_t LadderEnd = 0;         ///< ... where it ends, past Ladder (ifs that return).
  TSNode OtherBackend{};          ///< ... and the condition that names another backend,
  ByteRange OtherBackendComment{}; ///< or the fallback's comment that names one.
  std::string Flag{};             ///< A flag assigned from the check: its name.
  bool Exported = false;          ///< ... an upper-case module constant.
  std::string NamedForCuda{};     ///< A decorated definition named for CUDA.
  std::string CpuFallback{};      ///< A negated guard's `X = "cpu"`: X.
  TSNode Opaque{}; ///< What `X if check else "cpu"` picks, a name devport cannot follow.
};

/// The guarded code after If (an if_statement or elif_clause's if) when
/// Block ends early: the statements after the if statement.
void addFollowing(TSNode IfStatement, std::vector<ByteRange> &Regions) {
  for (TSNode S = ts_node_next_named_sibling(IfStatement); !ts_node_is_null(S);
       S = ts_node_next_named_sibling(S))
    Regions.push_back(rangeOf(S));
}

/// Whether the decorator D is a skip, by its callee's name
/// (`@skipIf(not TEST_CUDA, ...)`, `@skip_if_lt_x_gpu(2)`, `@onlyCUDA`,
/// `@requires_cuda`): beside a guard it only skips more.
bool skipDecorator(TSNode D, llvm::StringRef Text) {
  llvm::StringRef Callee = textOf(D, Text).take_until([](char Ch) { return Ch == '('; });
  return Callee.contains_insensitive("skip") || guardsTest(Callee);
}

/// Adds to Regions what runs of the definition C (a function, or one
/// decorated) where a guard lets its tests run: its body, and the
/// decorators that are no skip (what they give the test: a hypothesis
/// strategy, `@given(device=st.sampled_from([torch.device("cuda")]))`,
/// torchrec's; `@dtypes(torch.float64)`; a parametrization). Except must not
/// be one of them. With OwnSkips, nothing of a definition that a decorator
/// of its own may skip without an accelerator (`@skip_if_lt_x_gpu(2)`):
/// that one guards it too.
void addDefinition(TSNode C, TSNode Except, llvm::StringRef Text, std::vector<ByteRange> &Regions,
                   bool OwnSkips = false) {
  TSNode Def = is(C, "decorated_definition") ? field(C, "definition") : C;
  if (ts_node_is_null(Def))
    return;
  if (OwnSkips && is(C, "decorated_definition")) {
    // A skip (by its callee) that says an accelerator; not a decorator that
    // only names CUDA in what it gives the test (`@given(device=...)`).
    bool Skipped = false;
    forEachChild(C, [&](TSNode D) {
      Skipped |= is(D, "decorator") && skipDecorator(D, Text) && guardsTest(textOf(D, Text));
    });
    if (Skipped)
      return;
  }
  if (is(C, "decorated_definition"))
    forEachChild(C, [&](TSNode D) {
      if (is(D, "decorator") && !sameNode(D, Except) && !skipDecorator(D, Text))
        Regions.push_back(rangeOf(D));
    });
  Regions.push_back(rangeOf(field(Def, "body")));
}

/// The class around N on Up's path, or null.
TSNode classAround(const Ancestors &Up, TSNode N) {
  TSNode Class = Up.parent(N);
  while (!ts_node_is_null(Class) && !is(Class, "class_definition"))
    Class = Up.parent(Class);
  return Class;
}

/// The class whose set-up (runsAsTest(): `setUp`, ...) holds the statement
/// S in its body, with that set-up in SetUp; null when S is elsewhere.
TSNode setUpClassOf(TSNode S, const Ancestors &Up, llvm::StringRef Text, TSNode &SetUp) {
  TSNode Block = Up.parent(S);
  TSNode Def = Up.parent(Block);
  if (!is(Block, "block") || !is(Def, "function_definition") ||
      textOf(field(Def, "name"), Text).startswith("test") || !runsAsTest(Def, Up, Text))
    return TSNode{};
  SetUp = Def;
  return classAround(Up, Def);
}

/// Adds to Regions the methods of Class but Except, as addDefinition() with
/// their own skips: the tests that a guard of the class lets run.
void addClassMethods(TSNode Class, TSNode Except, llvm::StringRef Text,
                     std::vector<ByteRange> &Regions) {
  forEachChild(field(Class, "body"), [&](TSNode C) {
    TSNode Def = is(C, "decorated_definition") ? field(C, "definition") : C;
    if (is(Def, "function_definition") && !sameNode(Def, Except))
      addDefinition(C, TSNode{}, Text, Regions, /*OwnSkips=*/true);
  });
}

/// Where the statement S sits in the set-up of a test class, the class's
/// other methods: the set-up runs before each of its tests, so what guards
/// the rest of the set-up guards them too (`if not
/// torch.cuda.is_available(): self.skipTest(...)` in `setUp`, torchrec's
/// metric tests).
void addClassTests(TSNode S, const Ancestors &Up, llvm::StringRef Text,
                   std::vector<ByteRange> &Regions) {
  TSNode SetUp{};
  TSNode Class = setUpClassOf(S, Up, Text, SetUp);
  if (!ts_node_is_null(Class))
    addClassMethods(Class, SetUp, Text, Regions);
}

/// A condition (or anything) under N that names another backend: an
/// identifier such as `mps`, `has_xpu`, `is_torch_npu_available`, or a
/// string "mps".
std::optional<TSNode> namesOtherBackend(TSNode N, llvm::StringRef Text) {
  std::optional<TSNode> Found;
  preorder(N, [&](TSNode C, TSTreeCursor *) {
    if (Found)
      return false;
    if (is(C, "identifier") && otherBackendName(textOf(C, Text)))
      Found = C;
    else if (is(C, "string")) {
      llvm::StringRef S = textOf(C, Text).ltrim("rRuU").ltrim("\"'").rtrim("\"'");
      if (otherBackendName(S))
        Found = C;
      return false;
    }
    return true;
  });
  return Found;
}

/// The condition's node that names another backend in the `if` statement
/// right before If in its block (comments between do not count: region
/// parsing leaves a comment line out of the tree, and keeps the statement
/// before an anchored if, Regions.cpp), if it names one.
std::optional<TSNode> previousIfNamingOtherBackend(TSNode If, llvm::StringRef Text) {
  TSNode Prev = ts_node_prev_named_sibling(If);
  while (is(Prev, "comment"))
    Prev = ts_node_prev_named_sibling(Prev);
  if (!is(Prev, "if_statement"))
    return std::nullopt;
  return namesOtherBackend(field(Prev, "condition"), Text);
}

/// The conditions of the if statement If other than the one holding R,
/// looking into the blocks of its `elif` and `else` clauses for their own
/// conditions as well (`else: if torch.backends.mps...`, `else: "mps" if ...
/// else "cpu"`; text-generation-inference's `elif SYSTEM == "ipex": if
/// torch.xpu.is_available():`).
std::optional<TSNode> otherBackendBranch(TSNode If, ByteRange R, llvm::StringRef Text) {
  auto Check = [&](TSNode Cond) -> std::optional<TSNode> {
    if (ts_node_is_null(Cond) || contains(Cond, R))
      return std::nullopt;
    return namesOtherBackend(Cond, Text);
  };
  auto InBlock = [&](TSNode Body) {
    std::optional<TSNode> Found;
    if (ts_node_is_null(Body) || contains(Body, R))
      return Found;
    preorder(Body, [&](TSNode D, TSTreeCursor *) {
      if (Found)
        return false;
      if (is(D, "if_statement") || is(D, "elif_clause") || is(D, "while_statement")) {
        Found = Check(field(D, "condition"));
      } else if (is(D, "conditional_expression") && ts_node_named_child_count(D) == 3) {
        Found = Check(ts_node_named_child(D, 1));
      }
      return !is(D, "function_definition") && !is(D, "class_definition");
    });
    return Found;
  };
  if (auto F = Check(field(If, "condition")))
    return F;
  uint32_t N = ts_node_named_child_count(If);
  for (uint32_t I = 0; I < N; ++I) {
    TSNode C = ts_node_named_child(If, I);
    if (is(C, "elif_clause")) {
      if (auto F = Check(field(C, "condition")))
        return F;
      if (auto F = InBlock(field(C, "consequence")))
        return F;
    } else if (is(C, "else_clause")) {
      if (auto F = InBlock(field(C, "body")))
        return F;
    }
  }
  return std::nullopt;
}

/// An alternative to the check that Up leads to, one that names another
/// backend: the `torch.xpu.is_available()` of `if torch.cuda.is_available()
/// or torch.xpu.is_available():`, an allow-list of the backends the code
/// supports (or, negated and joined by `and`, a list of none of them:
/// `not torch.cuda.is_available() and not torch.xpu.is_available()`). Not
/// an exclusion (`torch.cuda.is_available() and not TEST_WITH_ROCM`) nor a
/// condition of the CUDA alternative (`x.device.type == "cuda" and
/// torch.cuda.current_device() != i or x.device.type == "mps"`).
std::optional<TSNode> allowListEntry(const Ancestors &Up, llvm::StringRef Text) {
  // Parentheses and `not`s off the top of N, counting the `not`s.
  auto Unwrap = [](TSNode N, bool &Negated) {
    for (;;) {
      if (is(N, "parenthesized_expression") && ts_node_named_child_count(N) == 1)
        N = ts_node_named_child(N, 0);
      else if (is(N, "not_operator") && !ts_node_is_null(field(N, "argument"))) {
        N = field(N, "argument");
        Negated = !Negated;
      } else {
        return N;
      }
    }
  };
  bool Negated = false; // the check, as the operator above it sees it
  for (TSNode N = Up.node(), P = Up.parent(N); !ts_node_is_null(P); N = P, P = Up.parent(P)) {
    if (is(P, "not_operator")) {
      Negated = !Negated;
      continue;
    }
    if (is(P, "parenthesized_expression") || is(P, "comparison_operator"))
      continue; // `(...)`, `torch.cuda.device_count() > 0`
    if (!is(P, "boolean_operator"))
      return std::nullopt;
    llvm::StringRef Op = textOf(field(P, "operator"), Text);
    if (Op != (Negated ? "and" : "or"))
      return std::nullopt; // a conjunction: the check is one of its conditions
    TSNode Other = field(P, sameNode(field(P, "left"), N) ? "right" : "left");
    bool OtherNegated = false;
    Other = Unwrap(Other, OtherNegated);
    if (OtherNegated == Negated)
      if (std::optional<TSNode> Found = namesOtherBackend(Other, Text))
        return Found;
  }
  return std::nullopt;
}

/// Whether the path from P down to Up's node passes an odd number of `not`s
/// (`not torch.cuda.is_available()`, `not (a and not b)`).
bool negatedBelow(const Ancestors &Up, TSNode P) {
  bool Negated = false;
  for (TSNode X = Up.parent(Up.node()); !ts_node_is_null(X) && !sameNode(X, P); X = Up.parent(X))
    if (is(X, "not_operator"))
      Negated = !Negated;
  return Negated;
}

/// Up's node with the operators of Through around it climbed: the outermost
/// of them (or the node) and what holds it.
struct Climbed {
  TSNode Outer, Holder;
};
Climbed climb(const Ancestors &Up, std::initializer_list<const char *> Through) {
  TSNode N = Up.node(), P = Up.parent(N);
  while (llvm::any_of(Through, [&](const char *T) { return is(P, T); })) {
    N = P;
    P = Up.parent(P);
  }
  return {N, P};
}

/// What the skip decorator Decorator (of the decorated definition
/// Decorated) guards, added to G: the definition's body and the other
/// decorators beside it but skips; G.NamedForCuda for a definition named for
/// CUDA. False where Decorated decorates nothing.
bool skipDecoratorGuards(TSNode Decorator, TSNode Decorated, llvm::StringRef Text, Guard &G) {
  TSNode Def = field(Decorated, "definition");
  if (ts_node_is_null(Def))
    return false;
  // Its parametrizations too: `@pytest.mark.parametrize("device", ["cpu",
  // "cuda"])` runs the test on what it lists (another skip, such as
  // `@skip_if_lt_x_gpu(2)`, only skips more).
  addDefinition(Decorated, Decorator, Text, G.Regions);
  // `test_roi_align_cuda`: a test that is about CUDA, beside its CPU twin;
  // `test_sum_on_gpu`, fairseq's `class TestTranslationGPU` (a word of a
  // camel-cased name, as gpuOrPinning() reads it).
  llvm::StringRef Name = textOf(field(Def, "name"), Text);
  static constexpr llvm::StringLiteral Gpu[] = {"gpu", "gpus"};
  if (cudaName(Name) || hasNameWord(Name, Gpu))
    G.NamedForCuda = Name.str();
  return true;
}

/// A per-backend ladder of ifs that exit (ignite's `if torch.cuda.is_available():
/// return torch.device("cuda")`, then `if torch.backends.mps.is_available():
/// return torch.device("mps")`, then `return torch.device("cpu")`): after If,
/// whose block ends with a `return`, the ifs that follow it while each block exits,
/// up to one whose conditions name another backend. That condition (or
/// string) and its if statement.
std::optional<std::pair<TSNode, TSNode>> returningLadder(TSNode If, ByteRange R,
                                                         llvm::StringRef Text) {
  // The CUDA arm returns what it picked (not `if not ...: sys.exit(...)`,
  // a requirement, which the caller rules out by the check's sense).
  TSNode Last = lastStatement(field(If, "consequence"));
  if (ts_node_is_null(Last) || !is(Last, "return_statement"))
    return std::nullopt;
  for (TSNode S = ts_node_next_named_sibling(If); !ts_node_is_null(S);
       S = ts_node_next_named_sibling(S)) {
    if (is(S, "comment"))
      continue;
    if (!is(S, "if_statement"))
      return std::nullopt;
    if (auto Other = otherBackendBranch(S, R, Text))
      return std::make_pair(*Other, S);
    if (!exitsEarly(field(S, "consequence"), Text))
      return std::nullopt;
  }
  return std::nullopt;
}

/// The methods of the test class whose number of processes the statement
/// S decides: the `return` of its `world_size` method (a property) or a
/// class-level `world_size = ...`, where R (in S) is a device count.
std::optional<std::vector<ByteRange>> worldSizeTests(TSNode S, ByteRange R, const Ancestors &Up,
                                                     llvm::StringRef Text) {
  if (!Text.slice(R.Begin, R.End).contains("device_count"))
    return std::nullopt;
  TSNode Class{}, Own{};
  if (is(S, "return_statement")) {
    TSNode Def = Up.parent(Up.parent(S));
    if (!is(Def, "function_definition") || textOf(field(Def, "name"), Text) != "world_size")
      return std::nullopt;
    Own = Def;
    Class = Up.parent(Def);
    if (is(Class, "decorated_definition"))
      Class = Up.parent(Class);
    Class = Up.parent(Class); // the block's class
  } else {
    TSNode Statement = Up.parent(S);
    if (textOf(field(S, "left"), Text) != "world_size" || !is(Statement, "expression_statement"))
      return std::nullopt;
    Class = Up.parent(Up.parent(Statement));
  }
  if (!is(Class, "class_definition") || !testClass(Class, Text))
    return std::nullopt;
  std::vector<ByteRange> Tests;
  addClassMethods(Class, Own, Text, Tests);
  return Tests;
}

/// The statement `self.assertTrue(COND, ...)` (unittest's; `assertTrue(...)`
/// too) whose call is P and whose COND holds R and asks for a device
/// (asksForDevices(): `torch.cuda.is_available()`): a test stops there
/// where COND is false, as at an `assert`. Not a value compared
/// (`self.assertTrue(torch.equal(x, torch.arange(4, device="cuda")))`,
/// torchrec's tests). Null otherwise.
TSNode assertTrueStatement(TSNode P, ByteRange R, const Ancestors &Up, llvm::StringRef Text) {
  if (!is(P, "call"))
    return TSNode{};
  TSNode Statement = Up.parent(P), Args = field(P, "arguments");
  if (!is(Statement, "expression_statement") || ts_node_named_child_count(Statement) != 1 ||
      !assertTrueCall(textOf(P, Text)) || ts_node_named_child_count(Args) == 0 ||
      !contains(ts_node_named_child(Args, 0), R) ||
      !asksForDevices(textOf(ts_node_named_child(Args, 0), Text)))
    return TSNode{};
  return Statement;
}

/// N, where it is the number of processes of the call whose arguments are
/// P as a positional argument: the third of `spawn` and `start_processes`
/// (torch.multiprocessing's `spawn(fn, args=(), nprocs=1, ...)`), not
/// inside a tuple or after a `*args`. Null otherwise.
TSNode positionalProcessCount(TSNode P, TSNode N, const Ancestors &Up, llvm::StringRef Text) {
  if (!is(P, "argument_list") || is(N, "keyword_argument") || is(N, "tuple") ||
      !ts_node_is_named(N))
    return TSNode{};
  TSNode Call = Up.parent(P);
  if (!is(Call, "call")) // (a class's bases; an error node)
    return TSNode{};
  llvm::StringRef Function = lastName(textOf(field(Call, "function"), Text));
  if (Function != "spawn" && Function != "start_processes")
    return TSNode{};
  unsigned Before = 0;
  bool Found = false, Splat = false;
  forEachChild(P, [&](TSNode A) {
    if (Found || !ts_node_is_named(A) || is(A, "comment"))
      return;
    if (sameNode(A, N))
      Found = true;
    else if (is(A, "list_splat") || is(A, "dictionary_splat"))
      Splat = true;
    else if (!is(A, "keyword_argument"))
      ++Before;
  });
  return Found && !Splat && Before == 2 ? N : TSNode{};
}

/// The guard, if the finding at R sits in a condition.
std::optional<Guard> guardAt(TSNode Root, ByteRange R, size_t Index, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode N = Up.node();
  for (TSNode P = Up.parent(N); !ts_node_is_null(P); N = P, P = Up.parent(P)) {
    Guard G{Index, {}};
    if ((is(P, "if_statement") || is(P, "elif_clause") || is(P, "while_statement")) &&
        contains(field(P, "condition"), R)) {
      TSNode If = is(P, "elif_clause") ? Up.parent(P) : P;
      TSNode Body = field(P, is(P, "while_statement") ? "body" : "consequence");
      // `if not torch.cuda.is_available(): return f()` then `else:
      // torch.cuda.cudart()...` (PyG's nvtx profiler): a negated check
      // guards the other clauses.
      if (is(If, "if_statement") && negatedBelow(Up, P)) {
        forEachChild(If, [&](TSNode C) {
          if ((is(C, "elif_clause") || is(C, "else_clause")) && !contains(C, R) &&
              ts_node_start_byte(C) > ts_node_start_byte(P))
            G.Regions.push_back(rangeOf(C));
        });
      }
      if (!ts_node_is_null(Body)) {
        G.Regions.push_back(rangeOf(Body));
        // The code after the if runs only where the check held when its
        // block ends early under a negated check, or when its `else` does
        // (`if torch.cuda.is_available(): ... else: self.skipTest(...)`).
        TSNode Else = field(If, "alternative");
        bool ElseExits = is(P, "if_statement") && is(Else, "else_clause") && !negatedBelow(Up, P) &&
                         exitsEarly(field(Else, "body"), Text);
        if (!is(P, "while_statement") && (exitsEarly(Body, Text) || ElseExits)) {
          addFollowing(If, G.Regions);
          addClassTests(If, Up, Text, G.Regions);
        }
        // `if not torch.cuda.is_available(): cfg.MODEL.DEVICE = "cpu"`.
        TSNode Cond = field(P, "condition");
        for (TSNode X = Up.parent(Up.node()); !ts_node_is_null(X) && !sameNode(X, P);
             X = Up.parent(X))
          if (is(X, "not_operator") && contains(Cond, rangeOf(X))) {
            if (auto Fallback = cpuFallback(Body, Text))
              G.CpuFallback = *Fallback;
            break;
          }
      }
      if (is(If, "if_statement")) {
        if (auto Other = otherBackendBranch(If, R, Text)) {
          G.Ladder = If;
          G.OtherBackend = *Other;
        } else if (auto Arm = is(P, "if_statement") && !negatedBelow(Up, P)
                                  ? returningLadder(If, R, Text)
                                  : std::nullopt) {
          // It ends at the condition that names the other backend (what
          // region parsing keeps of that if statement).
          G.Ladder = If;
          G.OtherBackend = Arm->first;
          TSNode Cond = field(Arm->second, "condition");
          G.LadderEnd = contains(Cond, rangeOf(Arm->first)) ? ts_node_end_byte(Cond)
                                                            : ts_node_end_byte(Arm->first);
        } else if (auto Before = previousIfNamingOtherBackend(If, Text)) {
          // Per-backend ifs one after the other (llama-cookbook's evaluation:
          // `if is_xpu_available() and ...: dist.all_reduce(...)` then `if
          // torch.cuda.device_count() > 1 ...: dist.all_reduce(...)`): ported,
          // both hold on XPU.
          G.Ladder = If;
          G.OtherBackend = *Before;
        } else {
          TSNode Else = field(If, "alternative");
          for (; !ts_node_is_null(Else) && !is(Else, "else_clause");)
            Else = ts_node_next_named_sibling(Else);
          if (!ts_node_is_null(Else) && !contains(Else, R))
            if (auto Comment = commentNamingOtherBackend(Else, Text)) {
              G.Ladder = If;
              G.OtherBackendComment = *Comment;
            }
        }
      }
      return G;
    }
    // A device count in what a loop reads (`for i in range(torch.cuda.
    // device_count()):`, a comprehension's `for`) decides whether its body
    // runs: on a Mac the ported count is 1 where the CUDA one was 0.
    if ((is(P, "for_statement") || is(P, "for_in_clause")) && contains(field(P, "right"), R)) {
      // A count, or a name that flagGuard() follows from one (`num_gpus =
      // torch.cuda.device_count()`, `for i in range(num_gpus):`).
      llvm::StringRef RT = Text.slice(R.Begin, R.End);
      if (!RT.contains("device_count") &&
          !llvm::all_of(RT, [](char C) { return llvm::isAlnum(C) || C == '_'; }))
        return std::nullopt;
      TSNode Body = is(P, "for_statement") ? field(P, "body") : field(Up.parent(P), "body");
      if (!ts_node_is_null(Body))
        G.Regions.push_back(rangeOf(Body));
      return G;
    }
    if (is(P, "conditional_expression") && ts_node_named_child_count(P) == 3 &&
        contains(ts_node_named_child(P, 1), R) && !booleanPick(P, ts_node_named_child(P, 1))) {
      // (Not `True if torch.cuda.is_available() else False`, the check's
      // value as a flag: flagGuard()'s.)
      // `"cpu" if not torch.cuda.device_count() else "cuda:0"` (torchrl's
      // scripts): a negated check picks the other value.
      G.Regions.push_back(rangeOf(ts_node_named_child(P, negatedBelow(Up, P) ? 2 : 0)));
      TSNode Else = ts_node_named_child(P, 2);
      // `args.cache_device if torch.cuda.is_available() else "cpu"` (either
      // way round): a value from elsewhere (an option whose default is
      // "cuda") or "cpu".
      auto Cpu = [&](TSNode X) {
        std::string V;
        return is(X, "string") && simpleStringValue(X, Text, V) && V == "cpu";
      };
      auto Opaque = [](TSNode X) {
        return is(X, "identifier") || is(X, "attribute") || is(X, "subscript");
      };
      TSNode Then = ts_node_named_child(P, 0);
      if (Cpu(Else) && Opaque(Then))
        G.Opaque = Then;
      else if (Cpu(Then) && Opaque(Else))
        G.Opaque = Else;
      if (auto Other = namesOtherBackend(Else, Text)) {
        G.Ladder = P;
        G.OtherBackend = *Other;
      } else {
        // A comment on its statement that names another backend.
        TSNode S = P;
        for (TSNode Q = Up.parent(S); !ts_node_is_null(Q) && !is(Q, "block") && !is(Q, "module");
             Q = Up.parent(Q))
          S = Q;
        if (auto Comment = commentOnStatementNamingOtherBackend(S, Text)) {
          G.Ladder = S;
          G.OtherBackendComment = *Comment;
        }
      }
      return G;
    }
    TSNode Asserted = is(P, "assert_statement") && ts_node_named_child_count(P) > 0 &&
                              contains(ts_node_named_child(P, 0), R)
                          ? P
                          : assertTrueStatement(P, R, Up, Text);
    // A value in a dict literal that the assertion compares is data, no
    // check (assertsAccelerator()).
    for (TSNode X = Up.node();
         !ts_node_is_null(X) && !ts_node_is_null(Asserted) && !sameNode(X, Asserted);
         X = Up.parent(X))
      if (is(X, "dictionary"))
        Asserted = TSNode{};
    if (!ts_node_is_null(Asserted)) {
      // `assert torch.cuda.is_available()`, `self.assertTrue(...)`: what runs
      // after it in its function (or module) runs only where it held.
      for (TSNode S = Asserted; !ts_node_is_null(S);) {
        addFollowing(S, G.Regions);
        TSNode Block = Up.parent(S);
        if (ts_node_is_null(Block) || !is(Block, "block"))
          break;
        TSNode Owner = Up.parent(Block);
        if (is(Owner, "function_definition") || is(Owner, "class_definition")) {
          addClassTests(S, Up, Text, G.Regions);
          break;
        }
        // The statement that holds the block (an `elif`/`else` clause: its if).
        while (!ts_node_is_null(Owner) && (is(Owner, "elif_clause") || is(Owner, "else_clause") ||
                                           is(Owner, "except_clause") ||
                                           is(Owner, "finally_clause")))
          Owner = Up.parent(Owner);
        S = Owner;
      }
      return G;
    }
    // `pytest.param(torch.device("cuda"), marks=pytest.mark.skipif(not
    // torch.cuda.is_available(), ...))`: the skip guards the param's values.
    if (is(P, "keyword_argument") && textOf(field(P, "name"), Text) == "marks") {
      TSNode Args = Up.parent(P);
      TSNode Call = Up.parent(Args);
      if (!is(Call, "call") || !textOf(field(Call, "function"), Text).endswith("param") ||
          !llvm::StringRef(textOf(field(P, "value"), Text).lower()).contains("skip"))
        return std::nullopt;
      forEachChild(Args, [&](TSNode C) {
        if (ts_node_is_named(C) && !sameNode(C, P) && !is(C, "comment"))
          G.Regions.push_back(rangeOf(C));
      });
      return G;
    }
    if (is(P, "decorator")) {
      // `@unittest.skipIf(not torch.cuda.is_available(), ...)`: guards the
      // definition it decorates.
      if (!llvm::StringRef(textOf(P, Text).lower()).contains("skip") ||
          !skipDecoratorGuards(P, Up.parent(P), Text, G))
        return std::nullopt;
      return G;
    }
    // `pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), ...)`
    // (or a list of marks) at module level: pytest skips every test of the
    // module with it, so the check guards the whole module.
    if (is(P, "assignment") && contains(field(P, "right"), R) &&
        textOf(field(P, "left"), Text) == "pytestmark" &&
        llvm::StringRef(textOf(field(P, "right"), Text).lower()).contains("skip")) {
      TSNode Statement = Up.parent(P);
      if (!is(Statement, "expression_statement") || !sameNode(Up.parent(Statement), Root))
        return std::nullopt;
      ByteRange Mark = rangeOf(Statement), Module = rangeOf(Root);
      if (Module.Begin < Mark.Begin)
        G.Regions.push_back({Module.Begin, Mark.Begin});
      if (Mark.End < Module.End)
        G.Regions.push_back({Mark.End, Module.End});
      return G;
    }
    // A device count as the number of processes a call starts
    // (`mp.spawn(run, nprocs=torch.cuda.device_count())`, directly or through
    // a name, flagGuard()): 0 started none where there is no CUDA, and the
    // script passed doing nothing; ported, a Mac or an XPU host starts them.
    // The rest of the call is guarded code, and with it the function it is
    // handed.
    // `mp.spawn(run, (n,), torch.cuda.device_count())`: the third positional
    // argument of spawn and start_processes is nprocs.
    TSNode Count = is(P, "keyword_argument") && contains(field(P, "value"), R) &&
                           llvm::is_contained(ProcessCountKeywords, textOf(field(P, "name"), Text))
                       ? P
                       : positionalProcessCount(P, N, Up, Text);
    if (!ts_node_is_null(Count)) {
      TSNode Args = Up.parent(Count), Call = Up.parent(Args);
      if (!is(Call, "call"))
        return std::nullopt;
      G.Regions.push_back(rangeOf(field(Call, "function")));
      forEachChild(Args, [&](TSNode A) {
        if (ts_node_is_named(A) && !sameNode(A, Count))
          G.Regions.push_back(rangeOf(A));
      });
      return G;
    }
    // A test class's `world_size` from a device count (torchtitan's and
    // apex's FSDP and distributed tests): the harness starts that many
    // processes, none for 0, when the test passes without running.
    if (is(P, "return_statement") || (is(P, "assignment") && contains(field(P, "right"), R))) {
      if (auto Tests = worldSizeTests(P, R, Up, Text))
        G.Regions = std::move(*Tests);
      else
        return std::nullopt;
      return G;
    }
    // A condition ends at a statement.
    if (is(P, "block") || is(P, "module") || is(P, "expression_statement") ||
        is(P, "function_definition") || is(P, "class_definition") || is(P, "lambda"))
      return std::nullopt;
  }
  return std::nullopt;
}

/// The index of Scope, from the review's cache (or built for this call
/// outside a review), with its uses (Names, Attributes) or its Assignments
/// built. Local is where an uncached one is kept.
const ScopeIndex &scopeIndex(TSNode Root, TSNode Scope, llvm::StringRef Text,
                             std::unique_ptr<ScopeIndex> &Local, bool Uses) {
  std::unique_ptr<ScopeIndex> *Slot = &Local;
  if (const TopLevel *T = topLevelOf(Root))
    Slot = &T->Scopes[Scope.id];
  if (!*Slot)
    *Slot = std::make_unique<ScopeIndex>();
  ScopeIndex *X = Slot->get();
  if (Uses ? X->HasUses : X->HasAssignments)
    return *X;
  (Uses ? X->HasUses : X->HasAssignments) = true;
  if (!Uses) {
    // Assignments outside nested functions, as reassignedLater() reads them.
    preorder(Scope, [&](TSNode U, TSTreeCursor *) {
      if (is(U, "assignment"))
        X->Assignments[textOf(field(U, "left"), Text)].push_back(U);
      return !is(U, "string") && !is(U, "comment") &&
             (sameNode(U, Scope) || !is(U, "function_definition"));
    });
    return *X;
  }
  preorder(Scope, [&](TSNode U, TSTreeCursor *C) {
    if (is(U, "identifier")) {
      // `x.use_cuda` and `f(use_cuda=...)` name something else; `x = ...`
      // is no condition, so no use that guards (and a file that assigns one
      // name n times would cost n^2).
      const char *Field = ts_tree_cursor_current_field_name(C);
      if (!(Field && (!std::strcmp(Field, "attribute") || !std::strcmp(Field, "name") ||
                      !std::strcmp(Field, "left"))))
        X->Names[textOf(U, Text)].push_back(U);
      return false;
    }
    // `NAME.ATTR` only (flagGuard's flags, `self.use_cuda`, `args.n_gpu`):
    // keying every attribute by its text would cost n^2 bytes on a chain
    // `a.b.b...` of n links.
    if (is(U, "attribute") && is(field(U, "object"), "identifier")) {
      const char *Field = ts_tree_cursor_current_field_name(C);
      if (!(Field && !std::strcmp(Field, "left")))
        X->Attributes[textOf(U, Text)].push_back(U);
    }
    return !is(U, "string") && !is(U, "comment");
  });
  return *X;
}

/// The name an assignment target binds where its uses can be followed: a
/// name, `self.NAME` (whose uses are its class's: Self), or an attribute of
/// another name (`args.n_gpu = torch.cuda.device_count()` in the scripts of
/// transformers' examples: its uses are its function's, as a name's);
/// nullopt for other targets (`x[0]`, `a.b.c`, tuples).
struct BoundName {
  llvm::StringRef Name; ///< `device`, `self.device` or `args.device`.
  bool Self;
};
std::optional<BoundName> boundName(TSNode Target, llvm::StringRef Text) {
  bool Attribute = is(Target, "attribute") && is(field(Target, "object"), "identifier");
  if (!is(Target, "identifier") && !Attribute)
    return std::nullopt;
  return BoundName{textOf(Target, Text),
                   Attribute && textOf(field(Target, "object"), Text) == "self"};
}

/// Where the uses of what the assignment A binds are looked for: its
/// function (the module outside one), or for `self.NAME` (Self) its class.
TSNode assignmentScope(const Ancestors &Up, TSNode A, bool Self, TSNode Root) {
  for (TSNode S = Up.parent(A); !ts_node_is_null(S); S = Up.parent(S))
    if (Self ? is(S, "class_definition") : is(S, "function_definition"))
      return S;
  return Root;
}

/// The uses of Name (`self.NAME` with Self) that X indexes, from offset
/// After on.
llvm::ArrayRef<TSNode> usesAfter(const ScopeIndex &X, llvm::StringRef Name, bool Self,
                                 uint32_t After) {
  const auto &Uses = Self || Name.contains('.') ? X.Attributes : X.Names;
  auto It = Uses.find(Name);
  return It == Uses.end() ? llvm::ArrayRef<TSNode>() : startingFrom(It->second, After);
}

/// The guard of a flag: the finding at R is (part of) a CUDA availability
/// check assigned to a name (`use_cuda = not args.no_cuda and
/// torch.cuda.is_available()`) or to `self.NAME`, and the flag's uses in
/// conditions guard code. Uses are looked for after the assignment in its
/// function (or module), or for `self.NAME` in its class.
std::optional<Guard> flagGuard(TSNode Root, ByteRange R, size_t Index, llvm::StringRef Text) {
  if (!asksForDevices(Text.slice(R.Begin, R.End)))
    return std::nullopt;
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  auto [N, P] = climb(
      Up, {"boolean_operator", "not_operator", "comparison_operator", "parenthesized_expression"});
  // `True if torch.cuda.is_available() else False` (F5-TTS' `use_gpu`): the
  // check's value.
  if (booleanPick(P, N)) {
    N = P;
    P = Up.parent(P);
  }
  // A count kept as a value: a conditional's (`torch.cuda.device_count() if
  // max_gpus is None else min(max_gpus, torch.cuda.device_count())`,
  // ColossalAI's inference example), `min`'s or `max`'s.
  // Not at module level, where a constant so computed is read elsewhere
  // (PyTorch's `WORLD_SIZE = min(4, max(2, torch.cuda.device_count()))`, 2
  // on a Mac either way), nor under a condition that asks for CUDA (`count
  // if torch.cuda.is_available() else 1`, fairscale's `if
  // torch.cuda.is_available(): world_size = min(world_size, count)`: the
  // count is read only there).
  bool InFunction = false, Guarded = false;
  bool Count = Text.slice(R.Begin, R.End).contains("device_count");
  for (TSNode A = Up.parent(Up.node()); Count && !ts_node_is_null(A) && !InFunction;
       A = Up.parent(A)) {
    InFunction = is(A, "function_definition");
    Guarded |= onlyWithAccelerator(A, R, Text);
  }
  if (Count && InFunction && !Guarded)
    for (bool More = true; More;) {
      More = false;
      if (is(P, "conditional_expression") && ts_node_named_child_count(P) == 3 &&
          !sameNode(ts_node_named_child(P, 1), N) &&
          !checksAvailability(textOf(ts_node_named_child(P, 1), Text))) {
        N = P;
        P = Up.parent(P);
        More = true;
      } else if (is(P, "argument_list") && is(Up.parent(P), "call")) {
        llvm::StringRef F = textOf(field(Up.parent(P), "function"), Text);
        if (F == "min" || F == "max" || F == "int") {
          N = Up.parent(P);
          P = Up.parent(N);
          More = true;
        }
      }
      while (is(P, "parenthesized_expression")) {
        N = P;
        P = Up.parent(P);
      }
    }
  // A skip marker kept in a name, `skip_if_no_cuda = pytest.mark.skipif(not
  // torch.cuda.is_available(), ...)` (fairscale's tests): its uses are the
  // tests it decorates, here or, at module level, in the modules that
  // import it.
  bool Marker = false;
  if (is(P, "argument_list") && sameNode(ts_node_named_child(P, 0), N)) {
    TSNode Call = Up.parent(P);
    if (is(Call, "call") &&
        llvm::StringRef(textOf(field(Call, "function"), Text).lower()).contains("skip")) {
      Marker = true;
      N = Call;
      P = Up.parent(Call);
    }
  }
  TSNode Left{};
  if (is(P, "expression_list")) {
    // `non_blocking, _ss = torch.cuda.is_available(), -1` (MONAI's sliding
    // window inference): the flag is the target in the check's place.
    TSNode A = Up.parent(P);
    if (!is(A, "assignment") || !sameNode(field(A, "right"), P))
      return std::nullopt;
    TSNode Targets = field(A, "left");
    uint32_t Count = ts_node_named_child_count(P);
    if (!is(Targets, "pattern_list") || ts_node_named_child_count(Targets) != Count)
      return std::nullopt;
    for (uint32_t I = 0; I < Count; ++I)
      if (sameNode(ts_node_named_child(P, I), N))
        Left = ts_node_named_child(Targets, I);
    if (ts_node_is_null(Left))
      return std::nullopt;
    N = P;
    P = A;
  } else if (!is(P, "assignment") || !sameNode(field(P, "right"), N)) {
    return std::nullopt;
  } else {
    Left = field(P, "left");
  }
  std::optional<BoundName> Bound = boundName(Left, Text);
  if (!Bound)
    return std::nullopt;
  llvm::StringRef Name = Bound->Name;
  bool Self = Bound->Self;
  if (Marker && Name == "pytestmark")
    return std::nullopt; // the module's own skip, not a name others use
  // `args.n_gpu = torch.cuda.device_count()` in a script's main(): the
  // functions it hands `args` to read it (transformers' example scripts,
  // `if args.n_gpu > 1: model = nn.DataParallel(model)` in train()), before
  // or after it in the module.
  bool OfOther = !Self && Name.contains('.');
  TSNode Scope = OfOther ? Root : assignmentScope(Up, P, Self, Root);
  Guard G{Index, {}};
  G.Flag = Name.str();
  G.Exported = Scope.id == Root.id && (Marker || Name.upper() == Name.str());
  std::unique_ptr<ScopeIndex> Local;
  const ScopeIndex &X = scopeIndex(Root, Scope, Text, Local, /*Uses=*/true);
  TSNode Own = OfOther ? assignmentScope(Up, P, false, Root) : TSNode{};
  for (TSNode U : usesAfter(X, Name, Self, OfOther ? 0 : ts_node_end_byte(P))) {
    // In its own function, as a name's: the uses after it (not the check
    // that decides whether to count, `if args.n_processes == "n_gpus":`).
    if (OfOther && contains(Own, rangeOf(U)) && ts_node_start_byte(U) < ts_node_end_byte(P))
      continue;
    // `@requires_gpu` with `requires_gpu = pytest.mark.skipif(...)`: a
    // skip decorator whatever its name.
    TSNode D = ts_node_parent(U);
    if (Marker && is(D, "decorator")) {
      Guard DG{Index, {}};
      if (skipDecoratorGuards(D, ts_node_parent(D), Text, DG))
        llvm::append_range(G.Regions, DG.Regions);
    } else if (auto UG = guardAt(Root, rangeOf(U), Index, Text)) {
      llvm::append_range(G.Regions, UG->Regions);
      // A flag that heads a per-backend ladder (xtuner's `if
      // is_cuda_available: device = "cuda"` `elif is_npu_available: ...`).
      if (!ts_node_is_null(UG->Ladder) && ts_node_is_null(G.Ladder)) {
        G.Ladder = UG->Ladder;
        G.LadderEnd = UG->LadderEnd;
        G.OtherBackend = UG->OtherBackend;
        G.OtherBackendComment = UG->OtherBackendComment;
      }
    }
  }
  return G;
}

/// A name for a flag that says what it now means: `use_cuda` ->
/// `use_accelerator`, `TEST_CUDA` -> `TEST_ACCELERATOR`.
std::string neutralName(llvm::StringRef Name) {
  bool AllUpper = Name.upper() == Name.str();
  std::string Out;
  for (size_t I = 0; I < Name.size();) {
    llvm::StringRef Rest = Name.drop_front(I);
    bool Matched = false;
    for (llvm::StringRef W : {"cuda", "gpu"})
      if (Rest.startswith_insensitive(W)) {
        bool Upper = Rest.front() >= 'A' && Rest.front() <= 'Z';
        Out += !Upper ? "accelerator" : AllUpper ? "ACCELERATOR" : "Accelerator";
        I += W.size();
        Matched = true;
        break;
      }
    if (!Matched)
      Out += Name[I++];
  }
  return Out;
}

/// What underCudaCheck() found: the string, and whether it is beside the
/// finding (in another operand of its `and`/`or`) rather than around it.
struct CudaCheck {
  TSNode String;
  bool Beside;
  bool Unsafe = false; ///< Only an unsafe fix ports the string.
};

/// The CUDA device string in a condition that the finding at R depends on
/// (`'cuda' if 'cuda' in device else 'cpu'`, `if x.device.type == "cuda":
/// y = x.to("cuda")`), or else in another operand of the `and`/`or` that
/// holds the finding (`device == "cuda" and not torch.cuda.is_available()`),
/// if no fix rewrites that string.
std::optional<CudaCheck> underCudaCheck(TSNode Root, ByteRange R, llvm::StringRef Text,
                                        const std::vector<Diagnostic> &Findings) {
  // A string that no fix ports; else one that only an unsafe fix does
  // (`device.type == th.device("cuda").type and not th.cuda.is_available()`,
  // stable-baselines3's get_device, whose `th.device("cuda")` fix is unsafe:
  // `fix` leaves it asking for CUDA as `device.type == "cuda"` does).
  bool UnsafeOnly = false;
  auto CheckIn = [&](TSNode Cond) -> std::optional<TSNode> {
    std::optional<TSNode> Found, PortedUnsafe;
    preorder(Cond, [&](TSNode N, TSTreeCursor *) {
      if (Found)
        return false;
      if (is(N, "string")) {
        if (!cudaDeviceString(N, Text) || R.contains(rangeOf(N)))
          return false;
        auto Fixed = llvm::find_if(Findings, [&](const Diagnostic &D) {
          return D.Range.contains(rangeOf(N)) && !D.Fixes.empty();
        });
        if (Fixed == Findings.end())
          Found = N;
        else if (!PortedUnsafe && !llvm::any_of(Fixed->Fixes, [](const Fix &X) {
                   return X.App == Applicability::Safe;
                 }))
          PortedUnsafe = N;
        return false;
      }
      return true;
    });
    UnsafeOnly = !Found && PortedUnsafe;
    return Found ? Found : PortedUnsafe;
  };
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode N = Up.node();
  // `match = re.match(r"cuda:(\d+)", key)` then `if match:` (speechbrain's
  // SaveableGenerator): a condition that is a name, assigned in a
  // statement before its if in the same block.
  auto AssignedBefore = [&](TSNode If, TSNode Name) -> TSNode {
    for (TSNode S = ts_node_prev_named_sibling(If); !ts_node_is_null(S);
         S = ts_node_prev_named_sibling(S)) {
      if (!is(S, "expression_statement") || ts_node_named_child_count(S) != 1)
        continue;
      TSNode A = ts_node_named_child(S, 0);
      if (is(A, "assignment") && textOf(field(A, "left"), Text) == textOf(Name, Text))
        return field(A, "right");
    }
    return TSNode{};
  };
  for (TSNode P = Up.parent(N); !ts_node_is_null(P); P = Up.parent(P)) {
    if ((is(P, "if_statement") || is(P, "elif_clause")) && contains(field(P, "consequence"), R)) {
      TSNode Cond = field(P, "condition");
      if (auto S = CheckIn(Cond))
        return CudaCheck{*S, false, UnsafeOnly};
      if (is(Cond, "identifier") && is(P, "if_statement"))
        if (TSNode Value = AssignedBefore(P, Cond); !ts_node_is_null(Value))
          if (auto S = CheckIn(Value))
            return CudaCheck{*S, false, UnsafeOnly};
    }
    if (is(P, "conditional_expression") && ts_node_named_child_count(P) == 3 &&
        contains(ts_node_named_child(P, 0), R))
      if (auto S = CheckIn(ts_node_named_child(P, 1)))
        return CudaCheck{*S, false, UnsafeOnly};
    if (is(P, "function_definition") || is(P, "class_definition") || is(P, "lambda"))
      break;
  }
  // An operand of the same `and`/`or` (`torch_device == "cuda" and not
  // torch.cuda.is_available()`: "CUDA was asked for and is missing").
  // (Through the check's own comparison: `"cuda" in example and np >
  // torch.cuda.device_count()`, pyro's example tests.)
  TSNode Operands{};
  for (TSNode P = Up.parent(N); is(P, "boolean_operator") || is(P, "not_operator") ||
                                is(P, "parenthesized_expression") || is(P, "comparison_operator");
       P = Up.parent(P))
    if (is(P, "boolean_operator"))
      Operands = P;
  if (!ts_node_is_null(Operands))
    if (auto S = CheckIn(Operands))
      return CudaCheck{*S, true, UnsafeOnly};
  return std::nullopt;
}

enum class Level { Safe, Unsafe };

bool hasFix(const Diagnostic &D, Level L) {
  return llvm::any_of(D.Fixes, [&](const Fix &X) {
    return X.App == Applicability::Safe || (L == Level::Unsafe && X.App == Applicability::Unsafe);
  });
}

/// Whether the identifier N is called (`helper(x)`), handed to a call as an
/// argument, or names a base or the metaclass of a class (`class T(Base,
/// metaclass=Meta)`). Path: the path to N's parent, as ancestorOf() reads it.
bool callsOrDerives(TSNode N, llvm::ArrayRef<TSNode> Path) {
  size_t Up = 1;
  TSNode P = ancestorOf(N, Path, Up);
  if (is(P, "call") && sameNode(field(P, "function"), N))
    return true;
  if (is(P, "keyword_argument")) {
    if (!sameNode(field(P, "value"), N))
      return false;
    P = ancestorOf(N, Path, ++Up);
  }
  // A base or a metaclass; or a function handed to a call, which runs it
  // (`mp.spawn(worker, nprocs=n)`, opacus's; `benchmark(rasterize, ...)`,
  // pytorch3d's; `Thread(target=worker)`).
  if (!is(P, "argument_list"))
    return false;
  TSNode Holder = ancestorOf(N, Path, Up + 1);
  return is(Holder, "class_definition") || is(Holder, "call");
}

/// For the `NAME` of `self.NAME(...)`, the class that the call is in
/// (whose method it calls); else null. Path: as for callsOrDerives().
TSNode selfCallClass(TSNode N, llvm::StringRef Text, llvm::ArrayRef<TSNode> Path) {
  TSNode A = ancestorOf(N, Path, 1);
  if (!is(A, "attribute") || !sameNode(field(A, "attribute"), N) ||
      textOf(field(A, "object"), Text) != "self")
    return TSNode{};
  TSNode Call = ancestorOf(N, Path, 2);
  if (!is(Call, "call") || !sameNode(field(Call, "function"), A))
    return TSNode{};
  // Up from the call, one step at a time: from the path while it reaches,
  // then by ts_node_parent() from the last node reached.
  size_t Up = 3;
  for (TSNode P = ancestorOf(N, Path, Up); !ts_node_is_null(P);
       P = ++Up <= Path.size() ? Path[Path.size() - Up] : ts_node_parent(P))
    if (is(P, "class_definition"))
      return P;
  return TSNode{};
}

/// The method Name that Class defines in its body (a decorated one with its
/// decorators), if any.
std::optional<TSNode> methodOf(TSNode Class, llvm::StringRef Name, llvm::StringRef Text) {
  std::optional<TSNode> Found;
  forEachChild(field(Class, "body"), [&](TSNode S) {
    TSNode Def = is(S, "decorated_definition") ? field(S, "definition") : S;
    if (!Found && is(Def, "function_definition") && textOf(field(Def, "name"), Text) == Name)
      Found = S;
  });
  return Found;
}

/// The functions and classes that the module defines at its top level, by
/// name (a decorated one with its decorators); the review's, built once, or
/// Own's.
const llvm::StringMap<TSNode> &moduleDefinitions(TSNode Root, llvm::StringRef Text,
                                                 std::unique_ptr<llvm::StringMap<TSNode>> &Own) {
  const TopLevel *T = topLevelOf(Root);
  std::unique_ptr<llvm::StringMap<TSNode>> &Slot = T ? T->Definitions : Own;
  if (Slot)
    return *Slot;
  Slot = std::make_unique<llvm::StringMap<TSNode>>();
  // Also in the blocks of module-level `if` and `try` statements (`try: from
  // apex.normalization import FusedLayerNorm as _F` then `class
  // FusedLayerNorm(_F):`, fairseq's), as Regions.cpp's
  // findModuleDefinitions(); the last of a name wins.
  std::function<void(TSNode)> Read = [&](TSNode Holder) {
    forEachChild(Holder, [&](TSNode S) {
      TSNode Def = is(S, "decorated_definition") ? field(S, "definition") : S;
      if (is(Def, "function_definition") || is(Def, "class_definition"))
        (*Slot)[textOf(field(Def, "name"), Text)] = S;
      else if (is(S, "if_statement") || is(S, "try_statement") || is(S, "elif_clause") ||
               is(S, "else_clause") || is(S, "except_clause") || is(S, "finally_clause") ||
               is(S, "except_group_clause") || is(S, "block"))
        Read(S);
    });
  };
  Read(Root);
  return *Slot;
}

/// Whether a function around the identifier N takes its name as a
/// parameter (a callee's `device`). (Not its assignments: region parsing
/// keeps a function's header, not every statement of its body.)
bool boundLocally(TSNode N, llvm::StringRef Text) {
  llvm::StringRef Name = textOf(N, Text);
  for (TSNode F = ts_node_parent(N); !ts_node_is_null(F); F = ts_node_parent(F)) {
    if (!is(F, "function_definition") && !is(F, "lambda"))
      continue;
    bool Found = false;
    forEachChild(field(F, "parameters"), [&](TSNode Param) {
      TSNode Id = Param;
      if (is(Param, "default_parameter") || is(Param, "typed_default_parameter"))
        Id = field(Param, "name");
      else if (is(Param, "typed_parameter") || is(Param, "list_splat_pattern") ||
               is(Param, "dictionary_splat_pattern"))
        Id = ts_node_named_child(Param, 0);
      Found |= is(Id, "identifier") && textOf(Id, Text) == Name;
    });
    if (Found)
      return true;
  }
  return false;
}

/// The module's names that only a module-level `if` on an accelerator check
/// with no `else` assigns (tensordict's compile tests: `if
/// torch.cuda.is_available(): cur_device = "cuda"` `elif is_npu_available():
/// cur_device = "npu"`): unbound on a Mac, so code that uses them ran only
/// with CUDA (or an NPU). A name that another module-level assignment or an
/// import binds is not one. The review's, built once, or Own's. Region
/// parsing keeps these assignments and the names' uses (Regions.cpp).
const llvm::StringMap<std::vector<ByteRange>> &
boundUnderCudaCheck(TSNode Root, llvm::StringRef Text,
                    std::unique_ptr<llvm::StringMap<std::vector<ByteRange>>> &Own) {
  const TopLevel *T = topLevelOf(Root);
  std::unique_ptr<llvm::StringMap<std::vector<ByteRange>>> &Slot = T ? T->BoundUnderCheck : Own;
  if (Slot)
    return *Slot;
  Slot = std::make_unique<llvm::StringMap<std::vector<ByteRange>>>();
  llvm::StringMap<std::vector<ByteRange>> Conditional;
  llvm::StringSet<> Elsewhere;
  // The name S assigns, if it is a plain assignment to a name.
  auto Assigned = [&](TSNode S) -> llvm::StringRef {
    if (!is(S, "expression_statement") || ts_node_named_child_count(S) != 1)
      return "";
    TSNode A = ts_node_named_child(S, 0);
    if (is(A, "assignment") && is(field(A, "left"), "identifier"))
      return textOf(field(A, "left"), Text);
    return "";
  };
  forEachChild(Root, [&](TSNode S) {
    if (is(S, "import_statement") || is(S, "import_from_statement")) {
      forEachChild(S, [&](TSNode Item) {
        TSNode Name = is(Item, "aliased_import") ? field(Item, "alias") : Item;
        if (is(Name, "identifier") || is(Name, "dotted_name"))
          Elsewhere.insert(textOf(Name, Text));
      });
      return;
    }
    if (!is(S, "if_statement")) {
      if (llvm::StringRef Name = Assigned(S); !Name.empty())
        Elsewhere.insert(Name);
      return;
    }
    bool Else = false;
    forEachChild(S, [&](TSNode C) { Else |= is(C, "else_clause"); });
    bool Checked = asksForDevices(textOf(field(S, "condition"), Text)) && !Else;
    auto Read = [&](TSNode B) {
      llvm::StringRef Name = Assigned(B);
      if (Name.empty())
        return;
      if (Checked)
        Conditional[Name].push_back(rangeOf(S));
      else
        Elsewhere.insert(Name);
    };
    forEachChild(field(S, "consequence"), Read);
    forEachChild(S, [&](TSNode C) {
      if (is(C, "elif_clause") || is(C, "else_clause"))
        forEachChild(field(C, is(C, "elif_clause") ? "consequence" : "body"), Read);
    });
  });
  for (auto &E : Conditional)
    if (!Elsewhere.count(E.getKey()))
      (*Slot)[E.getKey()] = std::move(E.getValue());
  return *Slot;
}

/// Whether the check at R is a device count that must be 2 or more
/// (`torch.cuda.device_count() > 1`, `< 2` in a skip's condition, `2 <=
/// ...`): a Mac, with its one MPS device, stays where it was.
bool needsTwoDevices(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  auto [N, P] = climb(Up, {"parenthesized_expression"});
  if (!is(P, "comparison_operator") || ts_node_named_child_count(P) != 2)
    return false;
  TSNode Left = ts_node_named_child(P, 0), Right = ts_node_named_child(P, 1);
  bool CountLeft = sameNode(Left, N);
  TSNode Other = CountLeft ? Right : Left;
  if (!is(Other, "integer"))
    return false;
  long long K = 0;
  if (textOf(Other, Text).getAsInteger(0, K))
    return false;
  llvm::StringRef Op;
  for (uint32_t I = 0, C = ts_node_child_count(P); I < C; ++I)
    if (TSNode X = ts_node_child(P, I); !ts_node_is_named(X))
      Op = textOf(X, Text);
  if (!CountLeft) // `2 <= n` is `n >= 2`
    Op = llvm::StringSwitch<llvm::StringRef>(Op)
             .Case("<", ">")
             .Case(">", "<")
             .Case("<=", ">=")
             .Case(">=", "<=")
             .Default(Op);
  // `n > 1`, `n >= 2`; a skip's `n < 2`, `n <= 1`.
  return ((Op == ">" || Op == "<=") && K >= 1) || ((Op == ">=" || Op == "<") && K >= 2);
}

/// Whether the `torch.load(...)` call Call says where its tensors go: a
/// `map_location=` keyword, or a second positional argument (the parameter's
/// place).
bool loadsWhere(TSNode Call, llvm::StringRef Text) {
  unsigned Positional = 0;
  bool Where = false;
  TSNode Args = field(Call, "arguments");
  if (ts_node_is_null(Args))
    return true; // nothing to judge by (a syntax error)
  forEachChild(Args, [&](TSNode A) {
    if (!ts_node_is_named(A) || is(A, "comment"))
      return;
    if (is(A, "keyword_argument"))
      Where |= textOf(field(A, "name"), Text) == "map_location";
    else if (is(A, "dictionary_splat") || is(A, "list_splat"))
      Where = true; // what it passes is not seen
    else
      ++Positional;
  });
  return Where || Positional >= 2;
}

/// Whether the decorated definition Def (or a plain one) carries one of
/// PyTorch's testing helpers that skip a test on a Mac whatever the check
/// says (`@skip_if_lt_x_gpu(n)`, `@requires_nccl()`, `@skip_if_no_gpu`: they
/// ask CUDA, HPU or XPU, or NCCL).
bool macSkipped(TSNode Def, llvm::StringRef Text) {
  if (!is(Def, "decorated_definition"))
    return false;
  for (uint32_t I = 0, C = ts_node_named_child_count(Def); I < C; ++I) {
    TSNode D = ts_node_named_child(Def, I);
    if (!is(D, "decorator"))
      continue;
    llvm::StringRef Callee = lastName(calleeText(textOf(D, Text)));
    if (Callee == "skip_if_lt_x_gpu" || Callee == "requires_nccl" || Callee == "skip_if_no_gpu")
      return true;
  }
  return false;
}

/// Whether the code at R only runs where macSkipped() tests run: in one, or
/// in a helper method of a class whose tests (`test...`) all are (PyTorch's
/// FSDP tests: `test_x` skipped so, `_test_x` the helper that it runs).
bool underMacSkip(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode Method{};
  for (TSNode A = Up.node(); !ts_node_is_null(A); A = Up.parent(A)) {
    if (macSkipped(A, Text))
      return true;
    if (is(A, "function_definition") && ts_node_is_null(Method))
      Method = A;
    if (!is(A, "class_definition") || ts_node_is_null(Method))
      continue;
    if (textOf(field(Method, "name"), Text).startswith("test"))
      continue;
    // A helper of this class: where its tests run.
    unsigned Tests = 0, Skipped = 0;
    TSNode Body = field(A, "body");
    if (ts_node_is_null(Body))
      continue; // a class left unfinished (a syntax error)
    forEachChild(Body, [&](TSNode S) {
      TSNode Def = is(S, "decorated_definition") ? field(S, "definition") : S;
      if (is(Def, "function_definition") && textOf(field(Def, "name"), Text).startswith("test")) {
        ++Tests;
        Skipped += macSkipped(S, Text);
      }
    });
    if (Tests > 0 && Skipped == Tests)
      return true;
  }
  return false;
}

/// Whether a Mac stays out of what the check at R guards, as the code around
/// the check says: it is a device count that must be 2 or more, or the
/// condition that holds it also asks for two devices or for NCCL
/// (`torch.distributed.is_nccl_available()`: false on a Mac, and no rule
/// ports it); or the check gates nothing a Mac ran (`assert`: what follows a
/// failed assert failed before). G's flag, a name assigned the check, gates
/// where it is read; so does a test class's `world_size`.
bool macStaysOut(TSNode Root, ByteRange R, llvm::StringRef Text, const Guard &G) {
  if (needsTwoDevices(Root, R, Text))
    return true;
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode Cond = Up.node();
  bool Gates = !G.Flag.empty();
  for (TSNode A = Up.parent(Cond); !ts_node_is_null(A); Cond = A, A = Up.parent(A)) {
    if (is(A, "if_statement") || is(A, "elif_clause") || is(A, "while_statement")) {
      Gates = Gates || sameNode(field(A, "condition"), Cond);
      break;
    }
    if (is(A, "conditional_expression")) {
      Gates =
          Gates || (ts_node_named_child_count(A) == 3 && sameNode(ts_node_named_child(A, 1), Cond));
      break;
    }
    if (is(A, "decorator")) {
      Gates = true;
      break;
    }
    if (is(A, "argument_list")) {
      TSNode Call = Up.parent(A);
      if (is(Call, "call") &&
          lastName(textOf(field(Call, "function"), Text)).contains_insensitive("skip")) {
        Gates = true;
        break;
      }
      continue; // `min(4, torch.cuda.device_count())`
    }
    if (is(A, "assert_statement"))
      return true;
    if (is(A, "assignment") && textOf(field(A, "left"), Text) == "world_size") {
      Gates = true; // a test class's, as below
      break;
    }
    if (is(A, "return_statement")) {
      // A test class's `world_size` (worldSizeTests()): the number of
      // processes that its tests start, none on a Mac before.
      for (TSNode F = Up.parent(A); !ts_node_is_null(F); F = Up.parent(F))
        if (is(F, "function_definition")) {
          Gates = Gates || textOf(field(F, "name"), Text) == "world_size";
          break;
        }
      break;
    }
    if (!is(A, "boolean_operator") && !is(A, "not_operator") &&
        !is(A, "parenthesized_expression") && !is(A, "comparison_operator") && !is(A, "call") &&
        !is(A, "attribute"))
      break;
  }
  if (!Gates)
    return true;
  bool Out = false;
  preorder(Cond, [&](TSNode N, TSTreeCursor *) {
    if (Out || !is(N, "call"))
      return !Out;
    llvm::StringRef Callee = lastName(textOf(field(N, "function"), Text));
    if (Callee == "is_nccl_available" ||
        (Callee == "device_count" && needsTwoDevices(Root, rangeOf(N), Text)))
      Out = true;
    return !Out;
  });
  return Out;
}

/// Whether the identifier N is the name after a `.` (`amp` of `torch.amp`),
/// not a name of the scope (`amp` bound by `from apex import amp`).
bool attributeName(TSNode N) {
  TSNode P = ts_node_parent(N);
  return is(P, "attribute") && sameNode(field(P, "attribute"), N);
}

/// Whether a `try` around N catches a failed import: `except ImportError`,
/// `ModuleNotFoundError`, `Exception`, `BaseException` (alone or in a tuple)
/// or a bare `except`.
bool importErrorCaught(TSNode N, llvm::StringRef Text) {
  for (TSNode C = N, P = ts_node_parent(N); !ts_node_is_null(P); C = P, P = ts_node_parent(P)) {
    if (is(P, "function_definition") || is(P, "class_definition"))
      return false;
    if (!is(P, "try_statement") || !sameNode(field(P, "body"), C))
      continue;
    bool Caught = false;
    forEachChild(P, [&](TSNode Clause) {
      if (!is(Clause, "except_clause"))
        return;
      TSNode What = ts_node_named_child(Clause, 0);
      if (is(What, "block") || ts_node_is_null(What)) {
        Caught = true; // a bare `except:`
        return;
      }
      preorder(What, [&](TSNode M, TSTreeCursor *) {
        llvm::StringRef T = is(M, "identifier") ? textOf(M, Text) : "";
        Caught |= T == "ImportError" || T == "ModuleNotFoundError" || T == "Exception" ||
                  T == "BaseException";
        return !Caught;
      });
    });
    if (Caught)
      return true;
  }
  return false;
}

/// Whether the identifier N is torch's flex attention (or its
/// `create_block_mask`) called or handed to a call: `flex_attention(q, k, v)`,
/// `torch.compile(flex_attention)`, `attention.flex_attention.flex_attention(...)`;
/// not a keyword or a flag of that name (`Config(flex_attention=True)`,
/// `cfg.flex_attention`).
bool flexAttention(TSNode N, llvm::StringRef Text) {
  llvm::StringRef T = textOf(N, Text);
  if (T != "flex_attention" && T != "create_block_mask")
    return false;
  TSNode P = ts_node_parent(N);
  if (is(P, "attribute") && sameNode(field(P, "attribute"), N)) {
    // `torch.nn.attention.flex_attention.flex_attention(...)`, or through the
    // module's alias (torchtitan's `from torch.nn.attention import
    // flex_attention as fa`, then `fa.flex_attention(...)`): a name, not
    // `self` or `cls`, whose method a class would define.
    TSNode Object = field(P, "object");
    llvm::StringRef O = textOf(Object, Text);
    if (!O.endswith("flex_attention") && !(is(Object, "identifier") && O != "self" && O != "cls"))
      return false;
    N = P;
    P = ts_node_parent(N);
  }
  return (is(P, "call") && sameNode(field(P, "function"), N)) || is(P, "argument_list");
}

/// The first place that names float64 in the function that holds guard
/// G's check, outside the code it guards (there cudaOnlyCode() finds it
/// itself): a tensor made float64 before the guard (mmdetection's
/// `torch.rand(20, 20, dtype=torch.float64)`, then `if
/// torch.cuda.is_available(): t = t.cuda()`), or a result checked to be
/// float64 after it. Nullopt at module level or where there is none.
std::optional<TSNode> float64InFunction(TSNode Root, const Guard &G,
                                        const std::vector<Diagnostic> &Findings,
                                        llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, Findings[G.Finding].Range, OwnUp);
  TSNode Function{};
  for (TSNode P = Up.node(); !ts_node_is_null(P) && ts_node_is_null(Function); P = Up.parent(P))
    if (is(P, "function_definition"))
      Function = P;
  if (ts_node_is_null(Function))
    return std::nullopt;
  std::optional<TSNode> Found;
  preorder(Function, [&](TSNode N, TSTreeCursor *) {
    if (Found)
      return false;
    if (llvm::any_of(G.Regions, [&](ByteRange X) { return X.contains(rangeOf(N)); }))
      return false;
    if ((is(N, "function_definition") || is(N, "class_definition") || is(N, "lambda")) &&
        !sameNode(N, Function))
      return false;
    if (namesFloat64(N, Text) && !isFloat8(N, Text)) {
      Found = N;
      return false;
    }
    return !is(N, "comment");
  });
  return Found;
}

/// Whether N is the current accelerator: `torch.accelerator.current_accelerator()`
/// (through any name of torch's), or the device, or its type, as a custom
/// `--device-expression` spells it.
bool currentAccelerator(TSNode N, llvm::StringRef Text) {
  if (is(N, "call") && textOf(N, Text).endswith("current_accelerator()")) {
    std::optional<llvm::StringRef> Member = importedTorchMember(textOf(field(N, "function"), Text));
    if (Member && *Member == "accelerator.current_accelerator")
      return true;
  }
  return llvm::is_contained(customDevice(), textOf(N, Text));
}

/// Whether N names the current accelerator where code puts tensors: an
/// argument of a call (`device=`, `.to(...)`, a device mesh's, the
/// project's own function's), a value assigned or returned, that is
/// (or ends in) currentAccelerator(), its `.type`, or
/// that with an index added (`... .type + ":0"`): code that was ported
/// already, by hand or by an earlier round or run of `devport fix`, whose
/// guard the review must judge as if a fix ported it. Path holds N's
/// ancestors (preorderWithPath()).
bool portedPlacement(TSNode N, llvm::ArrayRef<TSNode> Path, llvm::StringRef Text) {
  if (!currentAccelerator(N, Text))
    return false;
  // Up through `.type`, `torch.device(...)` and `+ ":0"`.
  size_t K = 1;
  TSNode Top = N, P = ancestorOf(N, Path, K);
  while (!ts_node_is_null(P)) {
    // A branch of `X if C else Y` is what the whole picks; its condition
    // is a check.
    bool Through = (is(P, "attribute") && sameNode(field(P, "object"), Top)) ||
                   is(P, "binary_operator") || is(P, "parenthesized_expression") ||
                   (is(P, "conditional_expression") && !sameNode(ts_node_named_child(P, 1), Top));
    if (is(P, "argument_list")) {
      TSNode Call = ancestorOf(N, Path, K + 1);
      std::optional<llvm::StringRef> Member =
          is(Call, "call") ? torchMember(textOf(field(Call, "function"), Text)) : std::nullopt;
      Through = Member && *Member == "device";
      if (Through) {
        Top = Call;
        K += 2;
        P = ancestorOf(N, Path, K);
        continue;
      }
    }
    if (!Through)
      break;
    Top = P;
    P = ancestorOf(N, Path, ++K);
  }
  // A keyword argument (`device=`, `map_location=`), an argument of a call
  // (`.to(...)`, a device mesh's, the project's own `run(...)`), a value
  // assigned or returned (`device = torch.accelerator.current_accelerator()`,
  // a ported `device = torch.device("cuda")`): a device placement, as the
  // finding it was. Not a comparison (a device check), nor an argument of
  // torch.accelerator's queries, the backend lookup or print, which place
  // nothing.
  if (ts_node_is_null(P) || is(P, "comparison_operator") || is(P, "boolean_operator") ||
      is(P, "not_operator") || is(P, "if_statement") || is(P, "conditional_expression"))
    return false;
  if (is(P, "argument_list")) {
    TSNode Call = ancestorOf(N, Path, K + 1);
    llvm::StringRef Callee = is(Call, "call") ? textOf(field(Call, "function"), Text) : "";
    std::optional<llvm::StringRef> Member = torchMember(Callee);
    return !Callee.empty() && !(Member && Member->startswith("accelerator.")) &&
           lastName(Callee) != "get_default_backend_for_device" && lastName(Callee) != "print";
  }
  // Or a value of a dict or an item of a list or tuple (PyTorch's OpInfo
  // samples, `inputs.append(((S,), {'device': 'cuda'}))`).
  return is(P, "keyword_argument") || is(P, "assignment") || is(P, "return_statement") ||
         is(P, "expression_list") || (is(P, "pair") && sameNode(field(P, "value"), Top)) ||
         is(P, "list") || is(P, "tuple");
}

/// The first CUDA-only code in the guard's regions, and in the module's
/// functions and classes and the class's methods that they call, that the
/// fixes allowed at level L leave: a kept match, a CUDA-named name, a CUDA
/// device string, float64, an import of Triton (directly or through a module
/// of the project), flex attention (flexAttention()). Empty when there is none. Where there is none
/// and OffCuda is given, it is set to what the regions then do that breaks a Mac (or another
/// accelerator), if they do, as a verb phrase: run a process group on the device's tensors (none
/// takes MPS tensors: `dist.get_default_backend_for_device("mps")` is gloo), or load a checkpoint
/// with no `map_location` (tensors saved on CUDA load back to CUDA), where the regions save none (a
/// test that loads what it saved loads it where it was).
std::string cudaOnlyCode(TSNode Root, llvm::StringRef Text, const Guard &G,
                         const std::vector<Diagnostic> &Findings,
                         const std::vector<Diagnostic> &Kept, Level L,
                         std::string *OffCuda = nullptr) {
  const TopLevel *T = topLevelOf(Root);
  bool Indexed = T && T->Findings.Of == &Findings && T->Kept.Of == &Kept &&
                 T->Findings.Size == Findings.size();
  auto Covered = [&](ByteRange R) {
    bool Yes = false;
    auto Test = [&](size_t I) {
      Yes = I != G.Finding && Findings[I].Range.contains(R) && hasFix(Findings[I], L);
      return Yes;
    };
    if (Indexed)
      T->Findings.forEach(R, /*Holding=*/true, /*Inside=*/false, Test);
    else
      for (size_t I = 0; I < Findings.size() && !Test(I); ++I)
        ;
    return Yes;
  };
  // The subtrees to read of a region: the node that spans it, or, when the
  // region spans statements of the module, only those (reading the module
  // from its start for each guard was quadratic in a large file).
  auto TopsOf = [&](ByteRange Region) {
    TSNode Top = descendantFor(Root, Region.Begin, Region.End);
    llvm::SmallVector<TSNode, 4> Tops{Top};
    if (Indexed && sameNode(Top, Root)) {
      Tops.clear();
      const ChildIndex &X = T->Index.top();
      size_t I = X.firstEndingAtOrAfter(Region.Begin + 1);
      for (; I < X.Children.size() && ts_node_start_byte(X.Children[I]) < Region.End; ++I)
        Tops.push_back(X.Children[I]);
    }
    return Tops;
  };
  // What the guarded code calls runs where it runs: the module's functions
  // and classes that it names (a call, a base, a metaclass: captum's
  // `class DataParallelTest(BaseTest, metaclass=DataParallelMeta)` under
  // `if torch.cuda.is_available():`), and what those name in turn; not the
  // definition that holds the check itself.
  std::unique_ptr<llvm::StringMap<TSNode>> OwnDefinitions;
  const llvm::StringMap<TSNode> &Definitions = moduleDefinitions(Root, Text, OwnDefinitions);
  ByteRange Check = Findings[G.Finding].Range;
  std::unique_ptr<llvm::StringMap<std::vector<ByteRange>>> OwnBound;
  const llvm::StringMap<std::vector<ByteRange>> &BoundUnderCheck =
      boundUnderCudaCheck(Root, Text, OwnBound);
  std::vector<ByteRange> Regions(G.Regions.begin(), G.Regions.end());
  llvm::SmallPtrSet<const void *, 8> Followed;
  // Names imported from torch.cuda (or apex, cudaLibraryModule()) in the
  // module: their uses are CUDA code
  // (a module's `from torch.cuda.amp import GradScaler` in a test's
  // `assertIsInstance(scaler, GradScaler)`, mmengine's; `assert
  // torch.cuda.is_available()`, then `from torch.cuda.amp import autocast`
  // and `with autocast():`, each a region).
  ImportedNames Imported;
  auto CollectImports = [&](TSNode From) {
    preorder(From, [&](TSNode N, TSTreeCursor *) {
      if (is(N, "import_from_statement") &&
          (textOf(field(N, "module_name"), Text).startswith("torch.cuda") ||
           cudaLibraryModule(textOf(field(N, "module_name"), Text)))) {
        forEachChild(N, [&](TSNode Item) {
          TSNode Name = is(Item, "aliased_import") ? field(Item, "alias") : Item;
          if ((is(Name, "identifier") || is(Name, "dotted_name")) &&
              !sameNode(Item, field(N, "module_name")))
            Imported.FromCuda.push_back(textOf(Name, Text).str());
        });
        return false;
      }
      // `from torch.nn.parallel import DistributedDataParallel as NativeDDP`.
      if (is(N, "import_from_statement")) {
        TSNode From = field(N, "module_name");
        llvm::StringRef Module;
        unsigned Level;
        std::tie(Module, Level) = importedModule(N, Text);
        bool Caught = false;
        if (Level > 0 || (Module != "torch" && !Module.startswith("torch.")))
          forEachChild(N, [&](TSNode Item) {
            if (!Caught && sameNode(Item, From))
              Caught = importErrorCaught(N, Text);
            if (sameNode(Item, From))
              return;
            TSNode Name = is(Item, "aliased_import") ? field(Item, "name") : Item;
            TSNode Bound = is(Item, "aliased_import") ? field(Item, "alias") : Item;
            if (is(Name, "dotted_name") && (is(Bound, "identifier") || is(Bound, "dotted_name")))
              Imported.FromModules.try_emplace(
                  textOf(Bound, Text),
                  ImportedNames::From{Module.str(), Level, textOf(Name, Text).str(), Caught, {}});
          });
        forEachChild(N, [&](TSNode Item) {
          if (!is(Item, "aliased_import"))
            return;
          llvm::StringRef Alias = textOf(field(Item, "alias"), Text);
          std::string L = Alias.lower();
          GroupUse U = groupWrapper(lastName(textOf(field(Item, "name"), Text)));
          if (U != GroupUse::None &&
              (L.find("ddp") != std::string::npos || L.find("fsdp") != std::string::npos))
            Imported.Wrappers.push_back({Alias.str(), U});
        });
        return false;
      }
      // `import apex`, `import apex.amp as amp`: the name bound.
      if (is(N, "import_statement")) {
        forEachChild(N, [&](TSNode Item) {
          TSNode Module = is(Item, "aliased_import") ? field(Item, "name") : Item;
          if (!is(Module, "dotted_name") || !cudaLibraryModule(textOf(Module, Text)))
            return;
          if (is(Item, "aliased_import"))
            Imported.FromCuda.push_back(textOf(field(Item, "alias"), Text).str());
          else
            Imported.FromCuda.push_back(textOf(Module, Text).split('.').first.str());
        });
        return false;
      }
      // Imports are statements: only what holds statements is read (every
      // expression of the module was a tenth of a check's review).
      static const llvm::StringSet<> Holders = {"module",
                                                "block",
                                                "if_statement",
                                                "elif_clause",
                                                "else_clause",
                                                "for_statement",
                                                "while_statement",
                                                "try_statement",
                                                "except_clause",
                                                "finally_clause",
                                                "with_statement",
                                                "function_definition",
                                                "class_definition",
                                                "decorated_definition",
                                                "match_statement",
                                                "case_clause",
                                                "except_group_clause",
                                                "ERROR"};
      return Holders.count(ts_node_type(N)) != 0;
    });
  };
  if (!T) {
    CollectImports(Root);
  } else {
    // Read once a review.
    if (!T->Imported) {
      CollectImports(Root);
      T->Imported = std::move(Imported);
    }
  }
  const ImportedNames &Imports = T ? *T->Imported : Imported;
  const llvm::SmallVector<std::string, 4> &FromCuda = Imports.FromCuda;
  auto WrapperUse = [&](llvm::StringRef Callee) {
    if (GroupUse U = groupWrapper(Callee); U != GroupUse::None)
      return U;
    for (const auto &[Alias, AliasUse] : Imports.Wrappers)
      if (Callee == Alias)
        return AliasUse;
    return GroupUse::None;
  };
  // The file, for the project's modules that guarded code imports.
  llvm::StringRef FromPath = Findings[G.Finding].File;
  // Whether the condition that holds the check asks for Triton or a compute
  // capability.
  std::optional<bool> KeepsMacOut;
  auto CheckKeepsMacOut = [&] {
    if (!KeepsMacOut) {
      // The condition that holds it: up through `and`, `or`, `not`,
      // parentheses and comparisons.
      TSNode S = descendantFor(Root, Check.Begin, Check.End);
      for (TSNode P = ts_node_parent(S);
           is(P, "boolean_operator") || is(P, "not_operator") ||
           is(P, "parenthesized_expression") || is(P, "comparison_operator");
           P = ts_node_parent(P))
        S = P;
      std::string Condition = textOf(S, Text).lower();
      KeepsMacOut = llvm::any_of(
          std::initializer_list<llvm::StringRef>{"triton", "capability", "is_sm"},
          [&](llvm::StringRef W) { return Condition.find(W.str()) != std::string::npos; });
    }
    return *KeepsMacOut;
  };
  std::optional<TSNode> Gloo; // a "gloo" in the regions
  std::optional<TSNode> Extension; // a call of a compiled extension's kernel in them
  std::string ExtensionReason;     // why, for the note
  std::optional<TSNode> Wrapper; // the first groupWrapper() call in them
  bool WrapperMoves = false;     // ... that puts the module on the device itself
  std::optional<TSNode> Load;    // the first `torch.load` with no map_location
  // The first place in them that already puts tensors on the current
  // accelerator (portedPlacement()): as good as a placement a fix ports.
  std::optional<TSNode> Ported;
  // The first backend looked up for the current accelerator
  // (`dist.get_default_backend_for_device(torch.accelerator.
  // current_accelerator())`): a group made on it, as a ported "nccl" is.
  std::optional<TSNode> PortedGroup;
  bool Saves = false;            // a `torch.save` too: what is loaded may be what it saved
  for (size_t RI = 0; RI < Regions.size(); ++RI) {
    ByteRange Region = Regions[RI];
    // The first kept place (in Kept's order) in the region or holding it.
    size_t First = Kept.size();
    auto Consider = [&](size_t I) {
      if (I < First && !keptRunsAnywhere(Kept[I], Root, Text))
        First = I;
      return false;
    };
    if (Indexed)
      T->Kept.forEach(Region, /*Holding=*/true, /*Inside=*/true, Consider);
    else
      for (size_t I = 0; I < Kept.size(); ++I)
        if (Region.contains(Kept[I].Range) || Kept[I].Range.contains(Region))
          Consider(I);
    if (First < Kept.size()) {
      const Diagnostic &K = Kept[First];
      TSNode KN = descendantFor(Root, K.Range.Begin, K.Range.End);
      return "`" + snippet(KN, Text) + "` (line " + std::to_string(lineOf(Text, K.Range.Begin)) +
             ", kept as CUDA-only by " + K.RuleId + ")";
    }
    const llvm::SmallVector<TSNode, 4> Tops = TopsOf(Region);
    std::optional<TSNode> Found;
    // Why Found fails on a Mac, where it is not a CUDA name (`: MPS has no
    // float64`), or "".
    llvm::StringRef MacReason;
    static constexpr llvm::StringLiteral NoTriton =
        ": it imports Triton, which has no build for macOS";
    static constexpr llvm::StringLiteral NoFlashAttn = ": flash-attn has no build for macOS";
    // The path to the node that Look is at (preorderWithPath()).
    llvm::SmallVector<TSNode, 32> Path;
    auto Look = [&](TSNode N, TSTreeCursor *) {
      if (Found)
        return false;
      ByteRange NR = rangeOf(N);
      if (NR.End <= Region.Begin || NR.Begin >= Region.End)
        return false;
      // `from torch.cuda.amp import autocast` imports on any build; the names
      // it binds are judged where they are used (and the import goes with
      // them once the fixes leave it unused).
      if (is(N, "import_from_statement") &&
          textOf(field(N, "module_name"), Text).startswith("torch.cuda"))
        return false;
      // Triton has no build for macOS (XPU builds ship Intel's): guarded
      // code that imports it, or a module of the project whose top level
      // imports it (ProjectModules.h; axolotl's kernel tests), fails on a
      // Mac once the check lets it run. Not an import of the module's own
      // top level, which runs whatever the checks say.
      if ((is(N, "import_statement") || is(N, "import_from_statement")) && Region.contains(NR) &&
          !is(ancestorOf(N, Path, 1), "module")) {
        llvm::StringRef Reason; // what an import of N lacks on a Mac, or ""
        // A module as imported: its dotted name and its leading dots.
        auto Imports = [&](const std::string &Module, unsigned Level) {
          llvm::StringRef M = Module;
          if (Level == 0 && (M == "triton" || M.startswith("triton."))) {
            Reason = NoTriton;
            return;
          }
          // flash-attn builds for CUDA and ROCm only.
          if (Level == 0 &&
              (M == "flash_attn" || M.startswith("flash_attn.") || M == "flash_attn_interface")) {
            Reason = NoFlashAttn;
            return;
          }
          if (FromPath.empty() || (Level == 0 && M.empty()))
            return;
          if (auto Path = projectModulePath(FromPath, M, Level))
            if (importsTritonAtTop(*Path))
              Reason = NoTriton;
        };
        auto Name = [&](TSNode M) {
          if (is(M, "aliased_import"))
            M = field(M, "name");
          return is(M, "dotted_name") ? textOf(M, Text) : llvm::StringRef();
        };
        if (is(N, "import_from_statement")) {
          TSNode From = field(N, "module_name");
          llvm::StringRef Module;
          unsigned Level;
          std::tie(Module, Level) = importedModule(N, Text);
          Imports(Module.str(), Level);
          // `from pkg import kernel`: a submodule too.
          forEachChild(N, [&](TSNode Item) {
            llvm::StringRef Sub = Name(Item);
            if (Reason.empty() && !Sub.empty() && !sameNode(Item, From) &&
                (Level > 0 || !Module.empty()))
              Imports(Module.empty() ? Sub.str() : (Module + "." + Sub).str(), Level);
          });
        } else {
          forEachChild(N, [&](TSNode Item) {
            if (Reason.empty())
              Imports(Name(Item).str(), 0);
          });
        }
        // Not where a failed import is caught (`try: import triton` `except
        // ImportError: return False`, axolotl's triton_available()), nor
        // where the check's own condition asks for Triton too (torchao's
        // `has_triton() and torch.cuda.is_available() and ...`) or for a
        // CUDA compute capability, which keeps a Mac out (torchao's DeepGEMM
        // tests, `not torch.cuda.is_available() or not is_sm_at_least_90()`).
        if (!Reason.empty() && !importErrorCaught(N, Text) && !CheckKeepsMacOut()) {
          Found = N;
          MacReason = Reason;
          return false;
        }
      }
      // Transformers' `attn_implementation="flash_attention_2"` (or `_3`)
      // loads flash-attn (OLMo's HF tests).
      if (is(N, "string") && Region.contains(NR) && textOf(N, Text).contains("flash_attention_")) {
        std::string Value;
        if (simpleStringValue(N, Text, Value) &&
            (Value == "flash_attention_2" || Value == "flash_attention_3") && !CheckKeepsMacOut()) {
          Found = N;
          MacReason = NoFlashAttn;
          return false;
        }
      }
      // Flex attention has no MPS support: guarded code that calls it (or
      // hands it to torch.compile) fails on a Mac once the check lets it
      // run (lerobot's lingbot test); XPU and the CPU run it.
      if (is(N, "identifier") && Region.contains(NR) && flexAttention(N, Text) &&
          !CheckKeepsMacOut()) {
        Found = N;
        MacReason = ": flex attention has no MPS support";
        return false;
      }
      bool Cuda = (is(N, "identifier") &&
                   ((cudaName(textOf(N, Text)) && !backendsFlag(N, Text) &&
                     !availabilityQuery(textOf(N, Text))) ||
                    (llvm::is_contained(FromCuda, textOf(N, Text)) && !attributeName(N)))) ||
                  (is(N, "string") && (cudaDeviceString(N, Text) ||
                                       (cudaNamedString(N, Text) && !inMessage(Root, N, Text))));
      // A call of a function or class named for the GPU (`DeviceGPU()`
      // beside composer's DeviceMPS, `move_to_gpu(x)`), defined elsewhere:
      // CUDA's, and pinning. A variable so named (`num_gpus`) is not.
      if (is(N, "call") && Region.contains(NR)) {
        TSNode F = field(N, "function");
        if (is(F, "attribute"))
          F = field(F, "attribute");
        if (is(F, "identifier") && gpuOrPinning(textOf(F, Text)) && !Covered(NR)) {
          Found = N;
          return false;
        }
        // A kernel of the project's compiled extension (mmcv's ops: `from
        // mmcv.ops import convex_iou` then `convex_iou(boxes, polygons)`
        // under a CUDA skip): built for the CPU and CUDA, it has none for
        // MPS or XPU tensors. Only where the guarded code also puts tensors
        // on the device (below, as for gloo): mmcv's NMS tests hand the op
        // CPU tensors.
        if (is(F, "identifier") && !FromPath.empty() && !Extension)
          if (auto It = Imports.FromModules.find(textOf(F, Text));
              It != Imports.FromModules.end() && !It->second.Caught && !CheckKeepsMacOut()) {
            const ImportedNames::From &I = It->second;
            if (!I.Extension)
              I.Extension = extensionModuleOf(FromPath, I.Module, I.Level, I.Name);
            if (const std::optional<std::string> &Ext = *I.Extension) {
              llvm::SmallVector<llvm::StringRef, 4> Parts;
              for (auto P = llvm::sys::path::rbegin(*Ext), E = llvm::sys::path::rend(*Ext);
                   P != E && Parts.size() < 3; ++P)
                Parts.push_back(*P);
              std::string Short;
              for (auto P = Parts.rbegin(); P != Parts.rend(); ++P)
                Short += (Short.empty() ? "" : "/") + P->str();
              ExtensionReason = ": `" + textOf(F, Text).str() + "` comes from " + Short +
                                ", which loads the project's compiled extension, whose kernels "
                                "MPS and XPU tensors may not have, and the fixes put them on "
                                "the device";
              Extension = N;
            }
          }
        llvm::StringRef Callee = textOf(field(N, "function"), Text);
        std::optional<llvm::StringRef> Member = torchMember(Callee);
        if (!Load && Member == llvm::StringRef("load") && !loadsWhere(N, Text))
          Load = N;
        Saves |= Member == llvm::StringRef("save");
        if (GroupUse U = is(F, "identifier") ? WrapperUse(Callee) : GroupUse::None;
            U != GroupUse::None && (!Wrapper || (U == GroupUse::Moves && !WrapperMoves)) &&
            !underMacSkip(Root, NR, Text)) {
          Wrapper = N;
          WrapperMoves = U == GroupUse::Moves;
        }
      }
      if (!Ported && Region.contains(NR) && portedPlacement(N, Path, Text))
        Ported = N;
      if (!PortedGroup && is(N, "call") && Region.contains(NR) &&
          lastName(textOf(field(N, "function"), Text)) == "get_default_backend_for_device" &&
          mentionsPortedDevice(textOf(field(N, "arguments"), Text)))
        PortedGroup = N;
      // MPS has no float64: code that only CUDA ran may use it. Nor float8
      // (sd-scripts' `--fp8` weights, `torch.float8_e4m3fn`).
      // `x.double()` (mmcv's ONNX tests) and numpy's float64 moved there too.
      bool Float8 = isFloat8(N, Text);
      bool Float64 = !Float8 && namesFloat64(N, Text);
      if ((Float64 || Float8) && Region.contains(NR)) {
        Found = N;
        MacReason = Float64 ? ": MPS has no float64" : ": MPS has no float8";
        return false;
      }
      // A gloo process group takes CPU and CUDA tensors only: guarded code
      // that also puts tensors on the device (below) may hand it the
      // device's (mmengine's DDP wrapper tests, `init_process_group(backend=
      // "gloo")` then `.cuda()`); on CPU tensors it runs anywhere.
      std::string Value;
      if (!Gloo && is(N, "string") && Region.contains(NR) && textOf(N, Text).contains("gloo") &&
          simpleStringValue(N, Text, Value) && Value == "gloo")
        Gloo = N;
      if (Cuda && Region.contains(NR) && !Covered(NR))
        Found = N;
      // A use of a name bound only under a CUDA check, outside the if
      // statements that bind it.
      if (auto B = is(N, "identifier") && !Found && Region.contains(NR)
                       ? BoundUnderCheck.find(textOf(N, Text))
                       : BoundUnderCheck.end();
          B != BoundUnderCheck.end()) {
        TSNode P = ancestorOf(N, Path, 1);
        bool Use = !(is(P, "attribute") && sameNode(field(P, "attribute"), N)) &&
                   !(is(P, "keyword_argument") && sameNode(field(P, "name"), N)) &&
                   llvm::none_of(B->second, [&](ByteRange If) { return If.contains(NR); }) &&
                   !boundLocally(N, Text);
        if (Use)
          Found = N;
      }
      // A use of a name whose value keeps CUDA unless an unsafe fix ports it
      // (usedOnlyWithAccelerator(): F5-TTS' `device = f"cuda:{rank}"`).
      if (L == Level::Safe && T && !T->UnsafeValues.empty() && is(N, "identifier") && !Found &&
          Region.contains(NR) && !attributeName(N))
        for (const auto &[Name, Scope] : T->UnsafeValues)
          if (Scope.contains(NR) && textOf(N, Text) == Name) {
            Found = N;
            break;
          }
      if (is(N, "identifier") && Region.contains(NR)) {
        std::optional<TSNode> Callee;
        if (callsOrDerives(N, Path)) {
          auto D = Definitions.find(textOf(N, Text));
          if (D != Definitions.end())
            Callee = D->second;
        } else if (TSNode Class = selfCallClass(N, Text, Path); !ts_node_is_null(Class)) {
          Callee = methodOf(Class, textOf(N, Text), Text);
        }
        if (Callee && !contains(*Callee, Check) && Followed.insert(Callee->id).second)
          Regions.push_back(rangeOf(*Callee));
      }
      return !is(N, "comment") && (!is(N, "string") || holdsCode(N));
    };
    for (TSNode From : Tops)
      if (!Found)
        preorderWithPath(From, Path, Look);
    if (Found)
      return "`" + snippet(expressionOf(Root, *Found), Text) + "` (line " +
             std::to_string(lineOf(Text, ts_node_start_byte(*Found))) + MacReason.str() + ")";
  }
  // A finding of the regions that the fixes at level L change.
  auto Fixed = [&](const Diagnostic &D) {
    return hasFix(D, L) && llvm::any_of(Regions, [&](ByteRange R) { return R.contains(D.Range); });
  };
  bool FixesPlace = llvm::any_of(
      Findings, [&](const Diagnostic &D) { return D.Category == "device-placement" && Fixed(D); });
  auto PlacesOnDevice = [&] { return FixesPlace || Ported; };
  if (Gloo && PlacesOnDevice())
    return "`" + snippet(*Gloo, Text) + "` (line " +
           std::to_string(lineOf(Text, ts_node_start_byte(*Gloo))) +
           ": gloo takes CPU and CUDA tensors only, and " +
           (FixesPlace ? "the fixes put them on the device)"
                       : "the code puts them on the current accelerator (line " +
                             std::to_string(lineOf(Text, ts_node_start_byte(*Ported))) + "))");
  if (Extension && PlacesOnDevice())
    return "`" + snippet(expressionOf(Root, *Extension), Text) + "` (line " +
           std::to_string(lineOf(Text, ts_node_start_byte(*Extension))) + ExtensionReason + ")";
  if (OffCuda) {
    // The first finding of a category that the fixes change, where a Mac may run it.
    auto First = [&](llvm::StringRef Category) -> const Diagnostic * {
      for (const Diagnostic &D : Findings)
        if (D.Category == Category && Fixed(D) && !underMacSkip(Root, D.Range, Text))
          return &D;
      return nullptr;
    };
    // What makes the group: a backend or a mesh that a fix ports (on a Mac:
    // gloo, and a mesh of MPS tensors), else a wrapper (the group is made
    // elsewhere, for any device).
    const Diagnostic *Made = First("distributed");
    bool Mesh = Made && Made->RuleId == "cuda-device-mesh";
    // Or a backend that says the accelerator already.
    bool Group = Made || (PortedGroup && !underMacSkip(Root, rangeOf(*PortedGroup), Text));
    // What puts tensors on the device, where the wrapper does not itself.
    const Diagnostic *Placed =
        (Group || Wrapper) && !WrapperMoves ? First("device-placement") : nullptr;
    // A wrapper given `device_ids` (`DDP(model, device_ids=[rank])`) runs on
    // a module that is on that device, however it got there (`.to(rank)`,
    // an index: pytorch/examples' DDP tutorial).
    bool Ids = false;
    if (Wrapper && !WrapperMoves && !Placed)
      if (TSNode Args = field(*Wrapper, "arguments"); !ts_node_is_null(Args))
        for (uint32_t I = 0, N = ts_node_named_child_count(Args); I < N && !Ids; ++I) {
          TSNode A = ts_node_named_child(Args, I);
          Ids = is(A, "keyword_argument") && is(field(A, "name"), "identifier") &&
                textOf(field(A, "name"), Text) == "device_ids";
        }
    // Or what already puts them on the accelerator (ported by hand, or by
    // an earlier round or run of fix).
    bool PlacedAlready = !Placed && (Group || Wrapper) && !WrapperMoves && Ported &&
                         !underMacSkip(Root, rangeOf(*Ported), Text);
    if ((Group || Wrapper) && (Placed || PlacedAlready || Mesh || WrapperMoves || Ids)) {
      std::string Where;
      if (Wrapper)
        Where = "`" + snippet(*Wrapper, Text) + "` (line " +
                std::to_string(lineOf(Text, ts_node_start_byte(*Wrapper))) + ")";
      else if (Made)
        Where = "`" + snippet(descendantFor(Root, Made->Range.Begin, Made->Range.End), Text) +
                "` (line " + std::to_string(lineOf(Text, Made->Range.Begin)) + ")";
      else
        Where = "`" + snippet(*PortedGroup, Text) + "` (line " +
                std::to_string(lineOf(Text, ts_node_start_byte(*PortedGroup))) + ")";
      if (WrapperMoves)
        Where += ", which puts the module on the accelerator";
      else if (Placed)
        Where += ", with tensors that the fixes put on the device (line " +
                 std::to_string(lineOf(Text, Placed->Range.Begin)) + ")";
      else if (PlacedAlready)
        Where += ", on the current accelerator (line " +
                 std::to_string(lineOf(Text, ts_node_start_byte(*Ported))) + ")";
      else if (Ids)
        Where += ", whose `device_ids` name the device the module is on";
      else
        Where += ", on a device mesh of the accelerator";
      *OffCuda = "runs a process group on the accelerator: " + Where +
                 "; on a Mac that group is gloo (`dist.get_default_backend_for_device`), which "
                 "takes CPU and CUDA tensors only";
    } else if (std::optional<TSNode> F64 =
                   (FixesPlace || Ported) &&
                           hasFix(Findings[G.Finding], Level::Safe) // not said already
                       ? float64InFunction(Root, G, Findings, Text)
                       : std::nullopt;
               F64 && !underMacSkip(Root, rangeOf(*F64), Text)) {
      *OffCuda = "moves tensors to the accelerator in a function that uses float64: `" +
                 snippet(*F64, Text) + "` (line " +
                 std::to_string(lineOf(Text, ts_node_start_byte(*F64))) +
                 "); MPS has no float64, and a float64 tensor that the CPU took raises there";
    } else if (Load && !Saves) {
      *OffCuda = "loads a checkpoint with no `map_location`: `" + snippet(*Load, Text) +
                 "` (line " + std::to_string(lineOf(Text, ts_node_start_byte(*Load))) +
                 "); tensors saved on CUDA load back to CUDA, which a Mac or an XPU host lacks";
    }
  }
  return "";
}

/// A call that itself needs the device, so that the original code failed on
/// a CPU-only build too: `x.to(...)`, `x.cuda(...)`, `torch.zeros(...,
/// device=...)`, `torch.load(..., map_location=...)`, a torch.nn module
/// built there (`nn.Linear(3, 2, device="cuda")` after `from torch import
/// nn`: its parameters); not `torch.device(...)`, which only names one, nor
/// `torch.amp.custom_fwd(device_type=...)`.
bool usesDevice(TSNode Call, llvm::StringRef Text) {
  if (!is(Call, "call"))
    return false;
  llvm::StringRef F = textOf(field(Call, "function"), Text);
  if (F.endswith("autocast") || F.endswith("GradScaler"))
    return false; // they disable themselves where CUDA is missing (selfDisablingAmp())
  if (F.endswith("custom_fwd") || F.endswith("custom_bwd"))
    return false; // they store the device type; a call asks autocast's state for it
  std::optional<llvm::StringRef> Member = torchMember(F);
  return (Member && *Member != "device") || F.startswith("nn.") || F.endswith(".to") ||
         F.endswith(".cuda");
}

/// A condition that tests for an accelerator, so that what it guards does
/// not run on a CPU-only build.
bool checksAvailability(llvm::StringRef Condition) {
  // Of an accelerator: `torch.distributed.is_available()` (thunder's
  // distributed test helper) holds on a CPU-only build.
  return !Condition.contains("not ") &&
         (Condition.count("is_available") > Condition.count("distributed.is_available") ||
          Condition.contains("device_count"));
}

/// Whether P runs the code at R only where there is an accelerator: the
/// consequence of an `if`/`elif`, or the value of a conditional expression,
/// under an availability check (`"cuda" if torch.cuda.is_available() else
/// "cpu"`).
bool onlyWithAccelerator(TSNode P, ByteRange R, llvm::StringRef Text) {
  if ((is(P, "if_statement") || is(P, "elif_clause")) && contains(field(P, "consequence"), R))
    return checksAvailability(textOf(field(P, "condition"), Text));
  if (is(P, "conditional_expression") && ts_node_named_child_count(P) == 3 &&
      contains(ts_node_named_child(P, 0), R))
    return checksAvailability(textOf(ts_node_named_child(P, 1), Text));
  return false;
}

/// Is the finding at R evaluated at import or definition time, where
/// `current_accelerator()` raises on a CPU-only build although the code it
/// replaces did not? Returns what the place is, or nullopt. Positions: a
/// parameter default, a `default=` argument, a decorator, and a statement at
/// module or class level outside `if __name__ == "__main__":`, unless a call
/// on the way needs the device itself (that failed before the fix too) or an
/// availability check guards it.
std::optional<std::string> eagerPlace(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode N = Up.node();
  bool InClass = false;
  bool Used = usesDevice(N, Text);
  for (TSNode P = Up.parent(N); !ts_node_is_null(P); N = P, P = Up.parent(P)) {
    if ((is(P, "default_parameter") || is(P, "typed_default_parameter")) &&
        contains(field(P, "value"), R))
      return std::string("a parameter default is evaluated when the function is defined");
    if (is(P, "keyword_argument") && textOf(field(P, "name"), Text) == "default" &&
        contains(field(P, "value"), R))
      return std::string("a `default=` argument is evaluated before the caller's or the "
                         "command line's choice applies");
    if (is(P, "decorator"))
      return std::string("a decorator's argument is evaluated when the function is defined");
    if (is(P, "function_definition") || is(P, "lambda"))
      return std::nullopt; // runs when called
    if (is(P, "if_statement")) {
      llvm::StringRef C = textOf(field(P, "condition"), Text);
      if (C.contains("__name__") && C.contains("__main__"))
        return std::nullopt; // the script's run, not its import
    }
    // Under an availability check the query only runs where there is an
    // accelerator.
    if (onlyWithAccelerator(P, R, Text))
      return std::nullopt;
    if (is(P, "class_definition"))
      InClass = true;
    if (is(P, "argument_list") && usesDevice(Up.parent(P), Text))
      Used = true;
  }
  if (Used)
    return std::nullopt;
  if (InClass)
    return std::string("code at class level runs when the class is defined");
  return std::string("code at module level runs at import");
}

/// Whether the finding at R is an operand of a comparison (through `.type`
/// or brackets) that nothing restricts to hosts with an accelerator:
/// fairscale's `if torch.device("cuda").type == self._default_device.type:`
/// in every optimizer step compared names on a CPU-only build too.
std::optional<std::string> comparedOnly(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode N = Up.node(), P = Up.parent(N);
  while (is(P, "parenthesized_expression") ||
         (is(P, "attribute") && sameNode(field(P, "object"), N))) {
    N = P;
    P = Up.parent(P);
  }
  if (!is(P, "comparison_operator"))
    return std::nullopt;
  for (TSNode A = P; !ts_node_is_null(A); A = Up.parent(A)) {
    if (onlyWithAccelerator(A, R, Text))
      return std::nullopt;
    // A test's: whether a CPU-only CI runs it is unskippedTest()'s to say.
    if (is(A, "function_definition") && runsAsTest(A, Up, Text))
      return std::nullopt;
  }
  return "`" + snippet(P, Text) + "` compares, where the code it replaces needed no device";
}

/// Where the device string at R is a key: of a subscript (`map_location[f"cuda:{i}"]
/// = str(device)`, avalanche's checkpoint maps) or of a dict entry
/// (`{"cuda:%d" % 0: ...}`, pytorch3d's implicitron trainer). A key names
/// where something was or is (the device a checkpoint was saved on, a
/// table's entry), not where to run. The text around it, or nullopt. Not a
/// `torch.device(...)` key, which tests hash and compare (unskippedTest()).
std::optional<std::string> deviceKey(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  if (is(Up.node(), "call"))
    return std::nullopt;
  auto [N, P] = climb(Up, {"parenthesized_expression"});
  if (is(P, "subscript") && sameNode(field(P, "subscript"), N))
    return "of `" + snippet(field(P, "value"), Text) + "[...]`";
  if (is(P, "pair") && sameNode(field(P, "key"), N))
    return std::string("of a dict entry");
  return std::nullopt;
}

/// Where the device at R is the value of a dict entry whose key names a CUDA
/// device (`{"cuda:0": "cuda:%d" % rank}`, a `map_location` table): the key
/// stays (deviceKey()), and on a CPU-only build, where the table was built
/// and matched nothing, current_accelerator() is None. The key's text.
std::optional<std::string> valueOfDeviceKey(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  auto [N, P] = climb(Up, {"parenthesized_expression"});
  if (!is(P, "pair") || !sameNode(field(P, "value"), N))
    return std::nullopt;
  TSNode Key = field(P, "key");
  llvm::StringRef K = textOf(Key, Text);
  if (is(Key, "call") || !K.contains("cuda"))
    return std::nullopt;
  // A test's: whether a CPU-only CI runs it is unskippedTest()'s to say.
  for (TSNode A = Up.parent(P); !ts_node_is_null(A); A = Up.parent(A))
    if (is(A, "function_definition") && runsAsTest(A, Up, Text))
      return std::nullopt;
  return K.str();
}

/// The local name that the device at R is assigned to in a function, where
/// every later use of it there compares it (itself or its `.type`), keys a
/// subscript or is formatted into a string: torchrec's `expected_device_type
/// = "cuda"` checked against shard types, `device = torch.device("cuda")`
/// read as `device.type == "cpu"`. That code never used the device and ran
/// on a CPU-only build. Tests are unskippedTest()'s.
bool deviceCallArgument(const Ancestors &Up, TSNode P, TSNode Child, llvm::StringRef Text);

std::optional<std::string> comparedThroughName(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  auto [N, P] = climb(Up, {"parenthesized_expression"});
  if (deviceCallArgument(Up, P, N, Text)) { // `torch.device(f"cuda:{i}")`
    N = Up.parent(P);
    P = Up.parent(N);
  }
  // A device: a string or a `torch.device(...)`, not what `.cuda()` moved.
  bool Device =
      is(N, "string") || (is(N, "call") && textOf(field(N, "function"), Text).endswith("device"));
  if (!Device || !is(P, "assignment") || !sameNode(field(P, "right"), N) ||
      !is(field(P, "left"), "identifier"))
    return std::nullopt;
  TSNode Scope{};
  for (TSNode A = Up.parent(P); !ts_node_is_null(A); A = Up.parent(A)) {
    if (onlyWithAccelerator(A, R, Text))
      return std::nullopt;
    if (is(A, "function_definition")) {
      if (runsAsTest(A, Up, Text))
        return std::nullopt;
      Scope = A;
      break;
    }
  }
  if (ts_node_is_null(Scope))
    return std::nullopt; // module level: eagerPlace()'s
  llvm::StringRef Name = textOf(field(P, "left"), Text);
  std::unique_ptr<ScopeIndex> Local;
  const ScopeIndex &X = scopeIndex(Root, Scope, Text, Local, /*Uses=*/true);
  llvm::ArrayRef<TSNode> Uses = usesAfter(X, Name, /*Self=*/false, ts_node_end_byte(P));
  if (Uses.empty())
    return std::nullopt;
  for (TSNode U : Uses) {
    TSNode C = U, Q = ts_node_parent(U);
    while (is(Q, "parenthesized_expression") ||
           (is(Q, "attribute") && sameNode(field(Q, "object"), C) &&
            textOf(field(Q, "attribute"), Text) == "type")) {
      C = Q;
      Q = ts_node_parent(Q);
    }
    bool Named = is(Q, "comparison_operator") || is(Q, "interpolation") ||
                 (is(Q, "subscript") && sameNode(field(Q, "subscript"), C));
    if (!Named)
      return std::nullopt;
  }
  return Name.str();
}

bool underAcceleratorPresent(const Ancestors &Up, TSNode P, ByteRange R, llvm::StringRef Text,
                             bool Strict = false);

/// Whether P, an ancestor of the value at R (Up's path), evaluates it only
/// where there is an accelerator: onlyWithAccelerator()'s reading of an
/// availability check, or a condition that implies one, read strictly
/// (underAcceleratorPresent(): `"cpu" if not torch.cuda.is_available() else
/// "cuda:0"`, `if use_gpu:`). A value made there is no value that a CPU-only
/// run made.
bool evaluatedWithAccelerator(const Ancestors &Up, TSNode P, ByteRange R, llvm::StringRef Text) {
  return onlyWithAccelerator(P, R, Text) ||
         underAcceleratorPresent(Up, P, R, Text, /*Strict=*/true);
}

/// Whether P is the argument list of a `torch.device(...)` call whose first
/// argument is Child (`torch.device('cuda:{}'.format(args.gpu))`,
/// DeepSpeedExamples'): the device that the string names, as the string is.
bool deviceCallArgument(const Ancestors &Up, TSNode P, TSNode Child, llvm::StringRef Text) {
  if (!is(P, "argument_list"))
    return false; // (before asking for a parent: ts_node_parent() walks from the root)
  TSNode Call = Up.parent(P);
  return is(Call, "call") && sameNode(ts_node_named_child(P, 0), Child) &&
         (torchMember(textOf(field(Call, "function"), Text)) == llvm::StringRef("device") ||
          textOf(field(Call, "function"), Text) == "device");
}

/// A name that a finding's value is assigned to, and a line that says why.
struct Reassigned {
  std::string Name;
  unsigned Line;
  ByteRange Scope = {}; ///< The function it is local to, where known.
};

/// The assignment whose value is the device value at R (Up's path to it),
/// directly or in a `torch.device(...)`; a null node where there is none, or
/// where the value is made only where there is an accelerator (a branch of a
/// condition that holds only then) or is a `.cuda()` call, which moved its
/// object where it ran and needed CUDA before the fix (AutoGPTQ's `qweight =
/// qweight.cuda()` then `qweight = qweight.T.contiguous()`): no value that a
/// CPU-only run made and left unused.
TSNode valueAssignment(const Ancestors &Up, ByteRange R, llvm::StringRef Text) {
  TSNode N = Up.node();
  if (cudaMethodCall(N, Text))
    return TSNode{};
  for (TSNode P = Up.parent(N), C = N; !ts_node_is_null(P); C = P, P = Up.parent(P)) {
    if (evaluatedWithAccelerator(Up, P, R, Text))
      return TSNode{};
    if (deviceCallArgument(Up, P, C, Text)) {
      C = P;
      P = Up.parent(P); // the call: its parent next
      continue;
    }
    if (is(P, "assignment"))
      return contains(field(P, "right"), R) ? P : TSNode{};
    if (is(P, "block") || is(P, "module") || is(P, "function_definition") || is(P, "lambda") ||
        is(P, "call"))
      break;
  }
  return TSNode{};
}

/// The local name that the device string at R is assigned to in a function,
/// where every later use of it there is under a condition that says an
/// accelerator (F5-TTS' evaluation workers: `device = f"cuda:{rank}"`, then
/// `if use_gpu: model = model.cuda(device)`, `use_gpu` from
/// torch.cuda.is_available()): a CPU-only run built the string and never
/// used it, and the line of the first use. Not a `.cuda()` call's, which
/// moved its object where it ran.
std::optional<Reassigned> usedOnlyWithAccelerator(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode Assign = valueAssignment(Up, R, Text);
  if (ts_node_is_null(Assign) || !is(field(Assign, "left"), "identifier"))
    return std::nullopt;
  // A value that asks CUDA itself (`torch.device("cuda",
  // torch.cuda.current_device())`, peft's): a CPU-only run never made it.
  if (textOf(field(Assign, "right"), Text).contains("torch.cuda."))
    return std::nullopt;
  TSNode Scope{};
  for (TSNode A = Up.parent(Assign); !ts_node_is_null(A) && ts_node_is_null(Scope);
       A = Up.parent(A)) {
    if (evaluatedWithAccelerator(Up, A, R, Text))
      return std::nullopt; // made only where there is one
    if (is(A, "function_definition"))
      Scope = A;
  }
  if (ts_node_is_null(Scope))
    return std::nullopt;
  llvm::StringRef Name = textOf(field(Assign, "left"), Text);
  std::unique_ptr<ScopeIndex> Local;
  const ScopeIndex &X = scopeIndex(Root, Scope, Text, Local, /*Uses=*/true);
  llvm::ArrayRef<TSNode> Uses = usesAfter(X, Name, /*Self=*/false, ts_node_end_byte(Assign));
  if (Uses.empty())
    return std::nullopt;
  for (TSNode U : Uses) {
    std::optional<Ancestors> UseUp;
    const Ancestors &UU = pathTo(Root, rangeOf(U), UseUp);
    bool Guarded = false;
    for (TSNode P = UU.parent(UU.node()); !Guarded && !ts_node_is_null(P) && !sameNode(P, Scope);
         P = UU.parent(P))
      Guarded = underAcceleratorPresent(UU, P, rangeOf(U), Text, /*Strict=*/true);
    if (!Guarded)
      return std::nullopt;
  }
  return Reassigned{Name.str(), lineOf(Text, ts_node_start_byte(Uses.front())), rangeOf(Scope)};
}

/// The name that the finding at R is assigned to, and the line where it is assigned
/// again, later in the same function (or module): `device = "cuda"` then
/// `if args.cpu: device = "cpu"`. The first value is a default that a
/// CPU-only run never used.
std::optional<Reassigned> reassignedLater(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode Assign = valueAssignment(Up, R, Text);
  if (ts_node_is_null(Assign))
    return std::nullopt;
  TSNode Left = field(Assign, "left");
  if (!is(Left, "identifier") && !is(Left, "attribute"))
    return std::nullopt;
  llvm::StringRef Name = textOf(Left, Text);
  TSNode Scope = Root;
  // The clauses of `if` statements around the assignment: an assignment in
  // another clause of one is an alternative, not a later value
  // (pytorch3d's `if torch.cuda.is_available() and ...: device = ...` `else:
  // device = torch.device("cpu")`).
  llvm::SmallVector<std::pair<TSNode, TSNode>, 4> Clauses; // (if, clause)
  for (TSNode A = Up.parent(Assign), C = Assign; !ts_node_is_null(A); C = A, A = Up.parent(A)) {
    if (evaluatedWithAccelerator(Up, A, R, Text))
      return std::nullopt;
    if (is(A, "if_statement"))
      Clauses.push_back({A, C});
    if (is(A, "function_definition")) {
      Scope = A;
      break;
    }
  }
  auto Alternative = [&](TSNode L) {
    ByteRange LR = rangeOf(L);
    return llvm::any_of(Clauses, [&](const std::pair<TSNode, TSNode> &IC) {
      return contains(IC.first, LR) && !contains(IC.second, LR) &&
             !contains(field(IC.first, "condition"), LR);
    });
  };
  uint32_t After = ts_node_end_byte(Assign);
  std::unique_ptr<ScopeIndex> Local;
  const ScopeIndex &X = scopeIndex(Root, Scope, Text, Local, /*Uses=*/false);
  auto It = X.Assignments.find(Name);
  if (It == X.Assignments.end())
    return std::nullopt;
  for (TSNode L : startingFrom(It->second, After))
    if (!Alternative(L))
      return Reassigned{Name.str(), lineOf(Text, ts_node_start_byte(L))};
  return std::nullopt;
}

/// What `.cuda()` at R is called on, where that is not a tensor or a module
/// and `.to()` is another call: the receiver (a name or `self.NAME`) was
/// last assigned, in the same function, an object of a class of this file
/// that defines its own `cuda()` (mmengine's data elements, pytorch3d's
/// structures: its `cuda()` may do anything, its `to()` something else or
/// nothing), or a bitsandbytes Int8Params, whose `cuda()` quantizes it in
/// place before 0.46 while `.to()` on a weight already on the device returns
/// a new, unquantized copy (text-generation-inference's
/// `self.weight.cuda(weight.device)`; Params4bit's `cuda()` calls its `to()`).
struct OwnCuda {
  std::string Receiver, Class;
  unsigned Line = 0; ///< Of the class's `def cuda`; 0 for bitsandbytes'.
};
/// The classes of Root's top level that define `cuda`, each with the line of
/// its first such `def` (the first class of a name that has one): the
/// review's, built once (asking per finding read every top-level statement
/// by index each time, quadratic in a large module), or built into Own.
const llvm::StringMap<unsigned> &classesWithCuda(TSNode Root, llvm::StringRef Text,
                                                 std::unique_ptr<llvm::StringMap<unsigned>> &Own) {
  std::unique_ptr<llvm::StringMap<unsigned>> *Slot = &Own;
  if (const TopLevel *T = topLevelOf(Root))
    Slot = &T->ClassesWithCuda;
  if (*Slot)
    return **Slot;
  *Slot = std::make_unique<llvm::StringMap<unsigned>>();
  llvm::StringMap<unsigned> &Classes = **Slot;
  auto Definition = [](TSNode N) {
    return is(N, "decorated_definition") ? field(N, "definition") : N;
  };
  forEachChild(Root, [&](TSNode Child) {
    TSNode C = Definition(Child);
    if (!is(C, "class_definition") || !is(field(C, "name"), "identifier"))
      return;
    llvm::StringRef Class = textOf(field(C, "name"), Text);
    TSNode Body = field(C, "body");
    if (Classes.count(Class) || ts_node_is_null(Body))
      return;
    unsigned Line = 0;
    forEachChild(Body, [&](TSNode Child) {
      TSNode Def = Definition(Child);
      if (Line == 0 && is(Def, "function_definition") && is(field(Def, "name"), "identifier") &&
          textOf(field(Def, "name"), Text) == "cuda")
        Line = lineOf(Text, ts_node_start_byte(Def));
    });
    if (Line != 0)
      Classes[Class] = Line;
  });
  return Classes;
}

std::optional<OwnCuda> ownCudaMethod(TSNode Root, ByteRange R, llvm::StringRef Text) {
  TSNode Call = descendantFor(Root, R.Begin, R.End);
  TSNode Fn = is(Call, "call") ? field(Call, "function") : TSNode{};
  TSNode Obj = is(Fn, "attribute") ? field(Fn, "object") : TSNode{};
  if (!is(Obj, "identifier") && !is(Obj, "attribute"))
    return std::nullopt;
  llvm::StringRef Name = textOf(Obj, Text);
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode Scope = Root;
  for (TSNode A = Up.parent(Up.node()); !ts_node_is_null(A); A = Up.parent(A))
    if (is(A, "function_definition")) {
      Scope = A;
      break;
    }
  std::unique_ptr<ScopeIndex> Local;
  const ScopeIndex &X = scopeIndex(Root, Scope, Text, Local, /*Uses=*/false);
  auto It = X.Assignments.find(Name);
  if (It == X.Assignments.end())
    return std::nullopt;
  TSNode Last{};
  for (TSNode A : It->second)
    if (ts_node_end_byte(A) <= R.Begin)
      Last = A;
  TSNode Right = ts_node_is_null(Last) ? TSNode{} : field(Last, "right");
  TSNode Callee = is(Right, "call") ? field(Right, "function") : TSNode{};
  if (!is(Callee, "identifier") && !is(Callee, "attribute"))
    return std::nullopt;
  llvm::StringRef Class = textOf(Callee, Text);
  if (Class.contains('.'))
    Class = Class.rsplit('.').second;
  if (Class == "Int8Params")
    return OwnCuda{Name.str(), Class.str(), 0};
  // A class of this module's top level that defines `cuda`.
  std::unique_ptr<llvm::StringMap<unsigned>> Own;
  const llvm::StringMap<unsigned> &Classes = classesWithCuda(Root, Text, Own);
  if (auto It = Classes.find(Class); It != Classes.end())
    return OwnCuda{Name.str(), Class.str(), It->second};
  return std::nullopt;
}

/// Whether N is a `.cuda(...)` call: it moves its object, which needed CUDA
/// before any fix.
bool cudaMethodCall(TSNode N, llvm::StringRef Text) {
  return is(N, "call") && is(field(N, "function"), "attribute") &&
         textOf(field(field(N, "function"), "attribute"), Text) == "cuda";
}

/// Where the finding at R is stored as a setting in a function body: an
/// attribute of an object other than self (`cfg.MODEL.DEVICE = "cuda"`) or a
/// subscript (`opts["device"] = "cuda"`, also as a dict entry of the value).
/// A setting is read later, perhaps after a CPU-only run replaced it; the
/// string never touched the device, current_accelerator() does. Not a
/// `.cuda()` call, which moved its object.
std::optional<std::string> storedSetting(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode N = Up.node();
  // A `.cuda()` call moved its object, which needed CUDA before the fix
  // (ColossalAI's `sequence_lengths[0] = torch.tensor(...).cuda()`): no
  // setting, whatever it is stored in.
  if (cudaMethodCall(N, Text))
    return std::nullopt;
  for (TSNode P = Up.parent(N); !ts_node_is_null(P); N = P, P = Up.parent(P)) {
    if (is(P, "pair") && contains(field(P, "value"), R))
      continue;
    if (deviceCallArgument(Up, P, N, Text)) {
      N = P;
      P = Up.parent(P); // the call: its parent next
      continue;
    }
    if (is(P, "conditional_expression") && ts_node_named_child_count(P) == 3) {
      TSNode Cond = ts_node_named_child(P, 1);
      if (contains(Cond, R) || checksAvailability(textOf(Cond, Text)) ||
          underAcceleratorPresent(Up, P, R, Text, /*Strict=*/true))
        return std::nullopt; // in the condition, or evaluated only with an accelerator
      continue;
    }
    if (is(P, "dictionary") || is(P, "parenthesized_expression") || is(P, "binary_operator"))
      continue;
    if (is(P, "assignment")) {
      if (!contains(field(P, "right"), R))
        return std::nullopt;
      TSNode Left = field(P, "left");
      llvm::StringRef L = textOf(Left, Text);
      bool OnSelf = L.startswith("self.") || L.startswith("cls.");
      // A dict literal assigned to a local is mostly spread into a call of the
      // same function (`torch.zeros(2, **kwargs)`), which needed CUDA before.
      if (is(Left, "subscript") || (is(Left, "attribute") && !OnSelf))
        return L.str();
      return std::nullopt;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// saysAccelerator() of N's text; false for a null node (a class without
/// bases).
bool saysAcceleratorAt(TSNode N, llvm::StringRef Text) {
  return !ts_node_is_null(N) && saysAccelerator(textOf(N, Text));
}

/// The test double that holds the finding at R, if one does: an argument of
/// a namespace or a mock (`types.SimpleNamespace(backend="gguf",
/// device="cuda")`, `MagicMock(device="cuda")`), or code in a class or
/// function named for a fake, a mock or a stub (unsloth's `class
/// _FakeSidecar`, `def _stub_spawn`; not a test so named, `FakeTensorTest`,
/// `test_real_after_fake`), but for the argument of a call that uses the
/// device (a factory, a move: `torch.randn(..., device="cuda")` in axolotl's
/// `MockMoE` made a tensor there). Such a string never touched the device: a
/// CPU-only CI ran it.
std::optional<std::string> heldByDouble(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  // A fake's, a mock's or a stub's name: one of its words, and no test's.
  auto DoubleName = [](llvm::StringRef Name) {
    bool Double = false, Test = false;
    for (const std::string &W : nameWords(Name)) {
      Double |=
          W == "fake" || W == "mock" || W == "stub" || W == "fakes" || W == "mocks" || W == "stubs";
      Test |= W == "test" || W == "tests";
    }
    return Double && !Test;
  };
  // `.cuda()` moved a real object, whatever holds it.
  if (cudaMethodCall(Up.node(), Text))
    return std::nullopt;
  bool Direct = true; // the finding is an argument of the first call above it
  for (TSNode N = Up.node(), P = Up.parent(N); !ts_node_is_null(P); N = P, P = Up.parent(P)) {
    // Picked only where there is an accelerator (`"cuda:0" if
    // torch.cuda.is_available() else "cpu"`): a CPU-only run took the other.
    if (is(P, "conditional_expression") && ts_node_named_child_count(P) == 3 &&
        !contains(ts_node_named_child(P, 1), R) &&
        checksAvailability(textOf(ts_node_named_child(P, 1), Text)))
      return std::nullopt;
    if (is(P, "argument_list")) {
      TSNode Call = Up.parent(P);
      llvm::StringRef Callee = textOf(field(Call, "function"), Text);
      llvm::StringRef Last = lastName(Callee);
      if (Last == "SimpleNamespace" || Last == "Namespace" || Last == "MagicMock" ||
          Last == "Mock" || Last == "NonCallableMock" || Last == "AsyncMock" ||
          Last == "create_autospec")
        return "`" + Callee.str() + "(...)`";
      // A factory or a move touched the device, whoever called it.
      if (Direct && usesDevice(Call, Text))
        return std::nullopt;
      Direct = false;
    }
    if (is(P, "function_definition") || is(P, "class_definition")) {
      llvm::StringRef Name = textOf(field(P, "name"), Text);
      if (DoubleName(Name))
        return "`" + Name.str() + "`";
    }
  }
  return std::nullopt;
}

/// Whether the assertion S says an accelerator in its names, which ask the
/// host (`assert torch.cuda.is_available()`, `self.assertTrue(TEST_CUDA)`,
/// `assert torch.cuda.device_count() >= 2`). Not in its strings, which are
/// data: a device compared (`assert x.device == torch.device("cuda:1")`,
/// unsloth's tests of fake metadata, which a CPU-only CI passes), a parameter
/// looked up (`assert "gpu_ordinal" in inspect.signature(f).parameters`), a
/// parsed command line (lm-evaluation-harness's `assert args.model_args ==
/// {"pretrained": "gpt2", "device": "cuda"}`), a message.
bool assertsAccelerator(TSNode S, llvm::StringRef Text) {
  bool Says = false;
  preorder(S, [&](TSNode N, TSTreeCursor *) {
    if (Says || is(N, "string"))
      return false;
    if (ts_node_child_count(N) == 0) {
      Says = saysAccelerator(textOf(N, Text));
      return false;
    }
    return true;
  });
  return Says;
}

/// Whether the name of a test, of a class around it or of a test base says
/// that it runs only with an accelerator, as a run may select tests by name:
/// CUDA, cuDNN, NCCL or Triton anywhere in it (`test_roi_align_cuda`,
/// `class TestCudaOps`), as saysAccelerator() reads them; a GPU where a name
/// says what the test needs, as its first word after `test`, its last or
/// after `multi` (`test_gpu_inference`, `test_matmul_on_gpu`,
/// `test_multi_gpu_reduce`, `GPUTestCase`). Not a GPU in the middle, which
/// says what the test is about (unsloth's `test_load_forwards_the_gpu_selection`,
/// which a CPU-only CI runs with fake devices), nor an accelerator (its
/// `test_both_stamps_wait_for_the_accelerator`, a double's).
bool testNameSaysAccelerator(llvm::StringRef Name) {
  llvm::SmallVector<std::string, 8> W = nameWords(Name);
  size_t First = 0;
  while (First < W.size() && (W[First] == "test" || W[First] == "tests"))
    ++First;
  for (size_t I = First; I < W.size(); ++I) {
    llvm::StringRef X = W[I];
    if (X == "cuda" || X == "cudnn" || X == "nccl" || X == "triton" || X == "multigpu" ||
        X == "isavailable" || X == "devicecount")
      return true;
    if ((X == "gpu" || X == "gpus") &&
        (I == First || I + 1 == W.size() || (I > First && W[I - 1] == "multi")))
      return true;
  }
  // Run together: `testcuda`, `cuda2`, `TestCUDAOps`' `cudaops` where the
  // case does not split it; `is_available` and `device_count` split.
  return llvm::any_of(W,
                      [](const std::string &X) {
                        llvm::StringRef R(X);
                        return R.contains("cuda") || R.contains("cudnn") || R.contains("nccl");
                      }) ||
         llvm::StringRef(Name).contains_insensitive("is_available") ||
         llvm::StringRef(Name).contains_insensitive("device_count");
}

/// Whether a class's bases (its `superclasses`) say an accelerator, as
/// testNameSaysAccelerator() reads a name: a test base (`GPUTestCase`,
/// `common_cuda.CudaTestCase`), not a mixin (unsloth's `_GpuCacheResetMixin`,
/// whose `tearDown` resets caches). Keywords (`metaclass=`) are not bases.
bool basesSayAccelerator(TSNode Bases, llvm::StringRef Text) {
  bool Says = false;
  if (!ts_node_is_null(Bases))
    forEachChild(Bases, [&](TSNode B) {
      if (Says || !(is(B, "identifier") || is(B, "attribute")))
        return;
      llvm::StringRef Name = lastName(textOf(B, Text));
      if (!Name.endswith("Mixin") && !Name.endswith("mixin"))
        Says = testNameSaysAccelerator(Name);
    });
  return Says;
}

/// The findings and kept places, which needsCudaAnyway() reads: region
/// parsing leaves them as the whole file has them, where a statement without
/// one may be left out of the parse.
struct Marked {
  const std::vector<Diagnostic> &Findings, &Kept;

  /// Calls Fn for each finding and kept place in R until it returns true.
  template <typename F> void forEachIn(ByteRange R, F &&Fn) const {
    const TopLevel *T = CurrentTopLevel;
    bool Done = false;
    for (const std::vector<Diagnostic> *V : {&Findings, &Kept}) {
      const RangeIndex *X = T ? (V == &Findings ? &T->Findings : &T->Kept) : nullptr;
      if (X && X->Of == V && X->Size == V->size())
        X->forEach(R, /*Holding=*/false, /*Inside=*/true,
                   [&](size_t I) { return Done = Fn((*V)[I]); });
      else
        for (size_t I = 0; I < V->size() && !Done; ++I)
          if (R.contains((*V)[I].Range))
            Done = Fn((*V)[I]);
      if (Done)
        return;
    }
  }
};

/// Whether the module skips its tests without an accelerator: a `pytestmark`
/// that says so; a module-level `if` on one that stops the module or replaces
/// its test base (`if not TEST_CUDA: TestCase = NoTest`, as PyTorch's
/// test_cuda.py does; `sys.exit`, `pytest.skip(..., allow_module_level=True)`,
/// `raise unittest.SkipTest` as its block's last statement); or an `if` on one
/// in `if __name__ == "__main__":` that runs the tests or exits (`if HAS_CUDA:
/// run_tests()`). Region parsing keeps these statements (Regions.cpp: the
/// conditions that say an accelerator, the last statement of their blocks, a
/// module's `pytestmark`).
bool moduleSkipped(TSNode Root, llvm::StringRef Text) {
  const TopLevel *T = topLevelOf(Root);
  if (T && T->ModuleSkipped)
    return *T->ModuleSkipped;
  auto LastSays = [&](TSNode Body, std::initializer_list<llvm::StringRef> Words) {
    TSNode L = lastStatement(Body);
    llvm::StringRef Last = ts_node_is_null(L) ? "" : textOf(L, Text);
    return exitsEarly(Body, Text) ||
           llvm::any_of(Words, [&](llvm::StringRef W) { return Last.contains(W); });
  };
  bool Skipped = false;
  for (uint32_t I = 0, N = ts_node_named_child_count(Root); I < N && !Skipped; ++I) {
    TSNode S = ts_node_named_child(Root, I);
    if (is(S, "expression_statement") && ts_node_named_child_count(S) == 1) {
      TSNode A = ts_node_named_child(S, 0);
      Skipped = is(A, "assignment") && textOf(field(A, "left"), Text) == "pytestmark" &&
                saysAcceleratorAt(field(A, "right"), Text);
    } else if (is(S, "if_statement")) {
      TSNode Cond = field(S, "condition");
      llvm::StringRef C = textOf(Cond, Text);
      if (saysAcceleratorAt(Cond, Text)) {
        Skipped = LastSays(field(S, "consequence"), {"skip", "Skip", "NoTest", "TestCase"});
      } else if (C.contains("__name__") && C.contains("__main__")) {
        TSNode Body = field(S, "consequence");
        for (uint32_t J = 0, M = ts_node_named_child_count(Body); J < M && !Skipped; ++J) {
          TSNode If = ts_node_named_child(Body, J);
          Skipped = is(If, "if_statement") && saysAcceleratorAt(field(If, "condition"), Text) &&
                    LastSays(field(If, "consequence"), {"run_tests", "main("});
        }
      }
    }
  }
  if (T)
    T->ModuleSkipped = Skipped;
  return Skipped;
}

/// Whether a construct runs what it holds only on some paths (a condition, a
/// loop, a `try`, a definition, a comprehension).
bool conditional(TSNode N) {
  for (const char *Type :
       {"if_statement", "elif_clause", "else_clause", "for_statement", "while_statement",
        "try_statement", "function_definition", "class_definition", "lambda",
        "conditional_expression", "boolean_operator", "list_comprehension",
        "dictionary_comprehension", "set_comprehension", "generator_expression"})
    if (is(N, Type))
      return true;
  return false;
}

/// Whether the test function Test needs CUDA on a path that always runs:
/// a finding in it that is a `.cuda()` call or in the arguments of a
/// call that uses the device (usesDevice(): `torch.ones(2, device="cuda")`),
/// with no condition, loop or `try` between it and the test. Such a test
/// failed on a CPU-only build before any fix.
bool needsCudaAnyway(TSNode Root, TSNode Test, llvm::StringRef Text, const Marked &M) {
  const TopLevel *T = topLevelOf(Root);
  if (T)
    if (auto It = T->NeedsCuda.find(Test.id); It != T->NeedsCuda.end())
      return It->second;
  bool Needs = false;
  M.forEachIn(rangeOf(field(Test, "body")), [&](const Diagnostic &F) {
    if (F.Range.empty())
      return false;
    std::optional<Ancestors> OwnUp;
    const Ancestors &Up = pathTo(Root, F.Range, OwnUp);
    TSNode N = Up.node();
    bool Used = is(N, "call") && textOf(field(N, "function"), Text).endswith(".cuda");
    for (TSNode P = Up.parent(N); !ts_node_is_null(P) && !sameNode(P, Test); P = Up.parent(P)) {
      if (conditional(P) || fakeMode(P, Text))
        return false;
      if ((is(P, "call") && textOf(field(P, "function"), Text).endswith(".cuda")) ||
          (is(P, "argument_list") && usesDevice(Up.parent(P), Text)))
        Used = true;
    }
    return Needs = Used;
  });
  if (T)
    T->NeedsCuda[Test.id] = Needs;
  return Needs;
}

/// Whether P, an ancestor of the finding at R (Up's path), runs it only under
/// a condition that says an accelerator: the block of an `if`/`elif`/`while`,
/// the `else` of such an `if`, a branch of a conditional expression whose
/// condition says one (not the condition itself, which may say CUDA for the
/// finding's own sake).
bool underAcceleratorCondition(const Ancestors &Up, TSNode P, ByteRange R, llvm::StringRef Text) {
  if (is(P, "if_statement") || is(P, "elif_clause") || is(P, "while_statement"))
    return !contains(field(P, "condition"), R) && saysAcceleratorAt(field(P, "condition"), Text);
  if (is(P, "else_clause"))
    return is(Up.parent(P), "if_statement") &&
           saysAcceleratorAt(field(Up.parent(P), "condition"), Text);
  if (is(P, "conditional_expression") && ts_node_named_child_count(P) == 3)
    return !contains(ts_node_named_child(P, 1), R) &&
           saysAcceleratorAt(ts_node_named_child(P, 1), Text);
  return false;
}

/// Whether the condition C holds only where there is an accelerator: it says
/// one (saysAccelerator()) and is not negated (`torch.backends.mps.
/// is_available()`, not `not torch.backends.mps.is_available()`, which holds
/// on a CPU-only build: tortoise-tts' `if not torch.backends.mps.
/// is_available(): with torch.autocast("cuda", ...)`); an `and` where one
/// operand does, an `or` where both do. With Denied, whether C holds only
/// where there is none (`not torch.cuda.is_available()`): its `else` has one.
bool impliesAccelerator(TSNode C, llvm::StringRef Text, bool Denied = false, bool Strict = false) {
  while (is(C, "parenthesized_expression"))
    C = ts_node_named_child(C, 0);
  if (ts_node_is_null(C))
    return false;
  if (is(C, "not_operator"))
    return impliesAccelerator(field(C, "argument"), Text, !Denied, Strict);
  if (is(C, "boolean_operator")) {
    bool And = textOf(field(C, "operator"), Text) == "and";
    bool L = impliesAccelerator(field(C, "left"), Text, Denied, Strict);
    bool R = impliesAccelerator(field(C, "right"), Text, Denied, Strict);
    // `not (a and b)` is `not a or not b`.
    return And != Denied ? L || R : L && R;
  }
  if (Denied)
    return false;
  // Strict: a flag (a name that says one: `use_gpu`, `args.cuda`) or a check
  // (`torch.cuda.is_available()`, `torch.cuda.device_count() > 1`); not any
  // code that names CUDA (torch._dynamo's `"cuda" if func is
  // torch.cuda.amp.autocast else "cpu"`).
  if (Strict && !is(C, "identifier") && !is(C, "attribute"))
    return checksAvailability(textOf(C, Text));
  return saysAcceleratorAt(C, Text);
}

/// Whether A and B, checks (names and calls, no strings), are the same code
/// but for white space and comments (yapf's `torch.cuda.` then
/// `is_available()` on the next line, mmpretrain's).
bool sameCode(llvm::StringRef A, llvm::StringRef B) {
  auto Skip = [](llvm::StringRef S, size_t &I) {
    for (; I < S.size(); ++I) {
      if (S[I] == '#')
        while (I + 1 < S.size() && S[I + 1] != '\n')
          ++I;
      else if (S[I] != ' ' && S[I] != '\t' && S[I] != '\n' && S[I] != '\r' && S[I] != '\\')
        break;
    }
  };
  size_t I = 0, J = 0;
  for (;;) {
    Skip(A, I);
    Skip(B, J);
    if (I == A.size() || J == B.size())
      return I == A.size() && J == B.size();
    if (A[I++] != B[J++])
      return false;
  }
}

/// underAcceleratorCondition() for code that needs an accelerator there: the
/// block of a condition that implies one, the `else` of one that denies one.
/// Strict: impliesAccelerator()'s.
bool underAcceleratorPresent(const Ancestors &Up, TSNode P, ByteRange R, llvm::StringRef Text,
                             bool Strict) {
  if (is(P, "if_statement") || is(P, "elif_clause") || is(P, "while_statement"))
    return contains(field(P, "consequence"), R) &&
           impliesAccelerator(field(P, "condition"), Text, false, Strict);
  if (is(P, "else_clause"))
    return is(Up.parent(P), "if_statement") &&
           impliesAccelerator(field(Up.parent(P), "condition"), Text, /*Denied=*/true, Strict);
  if (is(P, "conditional_expression") && ts_node_named_child_count(P) == 3)
    return contains(ts_node_named_child(P, 0), R)
               ? impliesAccelerator(ts_node_named_child(P, 1), Text, false, Strict)
               : contains(ts_node_named_child(P, 2), R) &&
                     impliesAccelerator(ts_node_named_child(P, 1), Text, /*Denied=*/true, Strict);
  return false;
}

/// The test that the finding at R is in, if a CPU-only CI runs it: a
/// function named `test...` (the finding maybe in a function nested in it)
/// that nothing skips without an accelerator. Not skipped: no decorator of
/// it or of a class around it, no name of either, no base class, no
/// condition or `with` around the finding, no early exit before it (`if not
/// torch.cuda.is_available(): pytest.skip(...)`, an `assert`) and no
/// module-level skip that says CUDA, a GPU or an accelerator
/// (saysAccelerator()); the finding not in a call that uses the device, and
/// no CUDA call that always runs in the test (needsCudaAnyway()): a test that
/// passed on a CPU-only build never used the device that it names. A `try`
/// is no guard: `except RuntimeError` does not catch the AttributeError of
/// `None.type`. Region parsing keeps what this reads: the headers and
/// decorators around the finding, the conditions that say an accelerator
/// with the last statement of their blocks, a module's `pytestmark`, the
/// findings.
std::optional<std::string> unskippedTest(TSNode Root, ByteRange R, llvm::StringRef Text,
                                         const Marked &M) {
  // Most files define no test: a search of the text, not a walk per finding
  // (for a test's set-up too: region parsing keeps the one a finding is in).
  auto DefinesTests = [&] {
    static constexpr llvm::StringLiteral Defs[] = {"def test", "def setUp", "def setup_",
                                                   "def asyncSetUp"};
    return llvm::any_of(
        Defs, [&](llvm::StringRef W) { return findWord(Text, W) != llvm::StringRef::npos; });
  };
  const TopLevel *T = topLevelOf(Root);
  if (T && !T->HasTests)
    T->HasTests = DefinesTests();
  if (T ? !*T->HasTests : !DefinesTests())
    return std::nullopt;
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode N = Up.node();
  TSNode Test{};
  bool Used = false; // by a call around the finding: it failed on a CPU-only build before
  for (TSNode P = Up.parent(N); !ts_node_is_null(P); N = P, P = Up.parent(P)) {
    if (is(P, "argument_list") && usesDevice(Up.parent(P), Text))
      Used = true;
    if (underAcceleratorCondition(Up, P, R, Text))
      return std::nullopt;
    if (is(P, "with_statement")) {
      // `with torch.cuda.device(0):`, not `with mock.patch("torch.cuda...", ...):`
      // (a double is why the test runs without CUDA).
      bool Needs = false;
      if (TSNode Items = ts_node_child(P, 1);
          contains(field(P, "body"), R) && !ts_node_is_null(Items))
        forEachChild(Items, [&](TSNode Item) {
          Needs |= ts_node_is_named(Item) && saysAcceleratorAt(Item, Text) &&
                   !testDouble(textOf(Item, Text));
        });
      if (Needs)
        return std::nullopt;
      if (contains(field(P, "body"), R) && fakeMode(P, Text))
        Used = false; // a fake never touched the device
    } else if (is(P, "block") && ts_node_is_null(Test)) {
      // An early exit before N in the test: `if not torch.cuda.is_available():
      // return`.
      // (Forward with a cursor: tree-sitter finds a previous sibling from
      // the parent's first child, a square per block.)
      TSTreeCursor C = ts_tree_cursor_new(P);
      auto Free = llvm::make_scope_exit([&] { ts_tree_cursor_delete(&C); });
      for (bool More = ts_tree_cursor_goto_first_child(&C); More;
           More = ts_tree_cursor_goto_next_sibling(&C)) {
        TSNode S = ts_tree_cursor_current_node(&C);
        if (ts_node_start_byte(S) >= ts_node_start_byte(N))
          break;
        if (is(S, "if_statement") && saysAcceleratorAt(field(S, "condition"), Text) &&
            exitsEarly(field(S, "consequence"), Text))
          return std::nullopt;
        if ((is(S, "assert_statement") ||
             (is(S, "expression_statement") && assertTrueCall(textOf(S, Text)))) &&
            assertsAccelerator(S, Text))
          return std::nullopt;
      }
    } else if (is(P, "function_definition") || is(P, "class_definition")) {
      llvm::StringRef Name = textOf(field(P, "name"), Text);
      if (testNameSaysAccelerator(Name))
        return std::nullopt;
      if (is(P, "class_definition") && basesSayAccelerator(field(P, "superclasses"), Text))
        return std::nullopt;
      TSNode D = Up.parent(P);
      if (is(D, "decorated_definition"))
        for (uint32_t I = 0, C = ts_node_named_child_count(D); I < C; ++I) {
          TSNode Dec = ts_node_named_child(D, I);
          if (is(Dec, "decorator") && guardsTest(textOf(Dec, Text)))
            return std::nullopt;
        }
      if (is(P, "function_definition") && runsAsTest(P, Up, Text))
        Test = P;
    }
  }
  if (Used || ts_node_is_null(Test) || moduleSkipped(Root, Text) ||
      needsCudaAnyway(Root, Test, Text, M))
    return std::nullopt;
  llvm::StringRef Name = textOf(field(Test, "name"), Text);
  if (Name.startswith("test"))
    return Name.str();
  // `PipelineTest.setUp`: the set-up of the class's tests.
  return (textOf(field(classAround(Up, Test), "name"), Text) + "." + Name).str();
}

/// Whether a definition's name says CUDA: `cuda`, `cudnn`, `nccl`, `cublas`,
/// `cusparse`, `cufft` or `nvidia` as a word (`_`-separated, or a run of
/// letters that a capital ends), or `CUDA`, `Cuda`, `NCCL`, `NVIDIA` or
/// `Nvidia` in it: `cuda`, `to_cuda`, `_find_cuda_home`, `test_cudnn_rnn`,
/// `CUDA_Accelerator`, `CudaInterface`, `ProcessGroupNCCLWrapperTest`,
/// unsloth's `_has_nvidia_gpu` ("True only on a real NVIDIA CUDA box"). Not `cudagraph`,
/// `is_cudagraph_safe`. (C++'s isCudaRoleName has `hip` and `CuDNN` too.)
bool namedForCuda(llvm::StringRef Name) {
  static constexpr llvm::StringLiteral Words[] = {"cuda",     "cudnn", "nccl",  "cublas",
                                                  "cusparse", "cufft", "nvidia"};
  return hasNameWord(Name, Words) || Name.contains("CUDA") || Name.contains("Cuda") ||
         Name.contains("NCCL") || Name.contains("NVIDIA") || Name.contains("Nvidia");
}

/// Whether a callee reads a keyword (or a dict key) so named as "use CUDA":
/// named for CUDA or a GPU, for a fused kernel, flash attention, apex, Triton or
/// xFormers, `pin_memory`, or Lightning's `accelerator`, which
/// takes a name from its own list (`"cuda"`, `"cpu"`, `"mps"`, `"gpu"`, ...;
/// `"xpu"` is rejected: lightly's fine-tuning tutorial,
/// `pl.Trainer(accelerator=device)` with `device = "cuda" if
/// torch.cuda.is_available() else "cpu"`).
bool readAsCuda(llvm::StringRef Name) {
  // A fused kernel, flash attention, apex, Triton or xFormers asked for
  // (ColossalAI's `enable_fused_normalization=torch.cuda.is_available()`:
  // apex's fused LayerNorm, which a Mac then asks for).
  static constexpr llvm::StringLiteral Kernels[] = {"fused", "flash", "apex", "triton", "xformers"};
  return namedForCuda(Name) || gpuOrPinning(Name) || Name == "accelerator" ||
         hasNameWord(Name, Kernels);
}

/// The keyword named for CUDA or a GPU that the check Up leads to is passed as
/// (`MergeOptions(cuda=torch.cuda.is_available())`, `use_cuda=not args.cpu
/// and torch.cuda.is_available()`, faiss's `gpu=True if torch.cuda.
/// is_available() else False`, Lightning 1.x's `gpus=`; `pin_memory=`, which
/// upstream keeps CUDA-only): the callee, often another library's, reads it
/// as "use CUDA".
std::optional<std::string> cudaKeyword(const Ancestors &Up, llvm::StringRef Text) {
  for (TSNode N = Up.node(), P = Up.parent(N); !ts_node_is_null(P); N = P, P = Up.parent(P)) {
    if (is(P, "keyword_argument")) {
      if (!sameNode(field(P, "value"), N))
        return std::nullopt;
      llvm::StringRef Name = textOf(field(P, "name"), Text);
      if (readAsCuda(Name))
        return Name.str() + "=";
      return std::nullopt;
    }
    // `{"num_gpus": 0.2 if torch.cuda.is_available() else None}`, spread
    // into a call (torchrl's `ray.remote(**options)`).
    if (is(P, "pair")) {
      std::string Key;
      if (!sameNode(field(P, "value"), N) || !is(field(P, "key"), "string") ||
          !simpleStringValue(field(P, "key"), Text, Key))
        return std::nullopt;
      if (readAsCuda(Key))
        return "\"" + Key + "\":";
      return std::nullopt;
    }
    // `@pytest.mark.parametrize("cuda_available", {False,
    // torch.cuda.is_available()})` (skorch, whose test patches
    // torch.cuda.is_available with it): the parameter is read as CUDA's.
    if (is(P, "argument_list")) {
      TSNode Call = Up.parent(P);
      std::string Param;
      if (is(Call, "call") && textOf(field(Call, "function"), Text).endswith("parametrize") &&
          ts_node_named_child_count(P) >= 2 && sameNode(ts_node_named_child(P, 1), N) &&
          is(ts_node_named_child(P, 0), "string") &&
          simpleStringValue(ts_node_named_child(P, 0), Text, Param) &&
          (namedForCuda(Param) || gpuOrPinning(Param)))
        return Param + "=";
      return std::nullopt;
    }
    if (!is(P, "not_operator") && !is(P, "boolean_operator") &&
        !is(P, "parenthesized_expression") && !is(P, "comparison_operator") &&
        !is(P, "conditional_expression") && !is(P, "set") && !is(P, "list") && !is(P, "tuple"))
      return std::nullopt;
  }
  return std::nullopt;
}

/// Whether the check Up is the condition of a skip that applies where CUDA
/// is there (in it, or in an operand of its `and`/`or`, not negated):
/// `@pytest.mark.skipif(torch.cuda.is_available(), reason="max recursion
/// depth error with cuda")` (tensordict's benchmarks), `skipUnless(not
/// torch.cuda.is_available(), ...)`, an `if` whose block ends by skipping.
/// Rewritten, the test is skipped on every accelerator, where it ran before.
bool skipsWithCuda(const Ancestors &Up, llvm::StringRef Text) {
  if (!textOf(Up.node(), Text).contains("is_available"))
    return false;
  auto [N, P] = climb(Up, {"not_operator", "parenthesized_expression", "boolean_operator"});
  // `if torch.cuda.is_available() and torch.cuda.device_count() < n: raise
  // unittest.SkipTest(...)` (MONAI's DistCall, which runs on the CPU with
  // gloo elsewhere).
  if (is(P, "if_statement") && sameNode(field(P, "condition"), N)) {
    TSNode Last = lastStatement(field(P, "consequence"));
    return !negatedBelow(Up, P) && !ts_node_is_null(Last) &&
           llvm::StringRef(textOf(Last, Text)).contains_insensitive("skip");
  }
  if (!is(P, "argument_list") || !sameNode(ts_node_named_child(P, 0), N))
    return false;
  TSNode Call = Up.parent(P);
  if (!is(Call, "call"))
    return false;
  std::string F = textOf(field(Call, "function"), Text).lower();
  bool Negated = negatedBelow(Up, P);
  return ((F.find("skipif") != std::string::npos || F.find("skip_if") != std::string::npos) &&
          !Negated) ||
         ((F.find("skipunless") != std::string::npos ||
           F.find("skip_unless") != std::string::npos) &&
          Negated);
}

/// Where a check's value reaches a keyword named for CUDA or a GPU through a
/// name: `num_gpu = torch.cuda.device_count()` and then `AsyncPredictor(cfg,
/// num_gpus=num_gpu)` (detectron2's demo, whose workers then run on
/// "cuda:N"), or a loop over such a name, `options = [True, False] if
/// torch.cuda.is_available() else [False]` and then `for is_cuda in options:
/// f(is_cuda=is_cuda)` (the QAT fusion of PyTorch and torchao, whose callee
/// calls `.cuda()`). Only availability and counts: what such a keyword asks.
/// Uses after the assignment in its function (or module), as
/// flagGuard() reads them; the loop's variable within the loop
/// (Regions.cpp keeps both).
struct KeywordThroughName {
  std::string Keyword, Through; ///< `num_gpu`, or `options` and the loop's `flag`.
  unsigned Line;
};
std::optional<KeywordThroughName> cudaKeywordThroughName(TSNode Root, const Ancestors &Up,
                                                         llvm::StringRef Text) {
  // Whether to use CUDA, or how many devices: a device's name or properties
  // in a name (`gpu_name`) is data for a report.
  if (!asksForDevices(textOf(Up.node(), Text)))
    return std::nullopt;
  auto [N, P] = climb(Up, {"not_operator", "boolean_operator", "parenthesized_expression",
                           "comparison_operator", "conditional_expression"});
  if (!is(P, "assignment") || !sameNode(field(P, "right"), N) ||
      !is(field(P, "left"), "identifier"))
    return std::nullopt;
  llvm::StringRef Name = textOf(field(P, "left"), Text);
  std::unique_ptr<ScopeIndex> Local;
  const ScopeIndex &X =
      scopeIndex(Root, assignmentScope(Up, P, /*Self=*/false, Root), Text, Local, /*Uses=*/true);
  auto UsesOf = [&](llvm::StringRef Of, uint32_t After) {
    return usesAfter(X, Of, /*Self=*/false, After);
  };
  // The keyword that U is the value of, if it is named so.
  auto KeywordOf = [&](TSNode U, TSNode K,
                       llvm::StringRef Var) -> std::optional<KeywordThroughName> {
    if (!is(K, "keyword_argument") || !sameNode(field(K, "value"), U))
      return std::nullopt;
    llvm::StringRef Keyword = textOf(field(K, "name"), Text);
    if (!readAsCuda(Keyword))
      return std::nullopt;
    std::string Through = "`" + Name.str() + "`";
    if (!Var.empty())
      Through += " and the loop's `" + Var.str() + "`";
    return KeywordThroughName{Keyword.str(), Through, lineOf(Text, ts_node_start_byte(K))};
  };
  for (TSNode U : UsesOf(Name, ts_node_end_byte(P))) {
    Ancestors UpU(Root, U);
    TSNode K = UpU.parent(U);
    if (auto Found = KeywordOf(U, K, ""))
      return Found;
    // `for VAR in NAME:`: VAR's uses in the loop.
    TSNode Var = field(K, "left");
    if (!is(K, "for_statement") || !sameNode(field(K, "right"), U) || !is(Var, "identifier"))
      continue;
    for (TSNode V : UsesOf(textOf(Var, Text), ts_node_end_byte(U))) {
      if (ts_node_start_byte(V) >= ts_node_end_byte(K))
        break;
      Ancestors UpV(Root, V);
      if (auto Found = KeywordOf(V, UpV.parent(V), textOf(Var, Text)))
        return Found;
    }
  }
  return std::nullopt;
}

/// The conditional expression whose condition is the availability check or
/// device count Up (through `not`, `and`/`or`, brackets and comparisons):
/// `X if torch.cuda.is_available() else Y`. Null if there is none.
TSNode pickedBy(const Ancestors &Up, llvm::StringRef Text) {
  if (!asksForDevices(textOf(Up.node(), Text)))
    return TSNode{};
  auto [N, P] = climb(
      Up, {"not_operator", "boolean_operator", "parenthesized_expression", "comparison_operator"});
  // `True if torch.cuda.is_available() else False` is the check's value as a
  // flag (flagGuard()'s), no device that it picks.
  if (!is(P, "conditional_expression") || ts_node_named_child_count(P) != 3 ||
      !sameNode(ts_node_named_child(P, 1), N) || booleanPick(P, N))
    return TSNode{};
  return P;
}

/// What a check picks, as a value (the conditional expression pickedBy()
/// finds, or the call or brackets around it: `torch.device(... if ... else
/// ...)`), and the node that holds that value; null nodes where there is no
/// pick.
std::pair<TSNode, TSNode> pickedValue(const Ancestors &Up, llvm::StringRef Text) {
  TSNode P = pickedBy(Up, Text);
  if (ts_node_is_null(P))
    return {TSNode{}, TSNode{}};
  TSNode V = P, A = Up.parent(P);
  while (is(A, "argument_list") || is(A, "call") || is(A, "parenthesized_expression")) {
    V = A;
    A = Up.parent(A);
  }
  return {V, A};
}

/// The assignment whose value is what a check picks (`device = "cuda" if
/// torch.cuda.is_available() else "cpu"`), or a null node.
TSNode pickAssignment(const Ancestors &Up, llvm::StringRef Text) {
  auto [V, A] = pickedValue(Up, Text);
  if (ts_node_is_null(V) || !is(A, "assignment") || !sameNode(field(A, "right"), V))
    return TSNode{};
  return A;
}

/// The uses, after it, of the name that the assignment A on Up's path binds:
/// in its function, or its class for `self.NAME`. Empty where it binds no
/// plain name or attribute of `self`. Local holds a scope index made for
/// the call.
llvm::ArrayRef<TSNode> usesOfAssigned(TSNode Root, const Ancestors &Up, TSNode A,
                                      llvm::StringRef Text, std::unique_ptr<ScopeIndex> &Local) {
  std::optional<BoundName> Bound = boundName(field(A, "left"), Text);
  if (!Bound)
    return {};
  const ScopeIndex &X =
      scopeIndex(Root, assignmentScope(Up, A, Bound->Self, Root), Text, Local, /*Uses=*/true);
  return usesAfter(X, Bound->Name, Bound->Self, ts_node_end_byte(A));
}

/// Where the CUDA-only handle of what the call at R returns is read: its
/// `.cuda_stream` or `.cuda_event` (the raw cudaStream_t / cudaEvent_t that
/// CuPy, Triton or an extension takes), on the call itself
/// (`torch.cuda.current_stream().cuda_stream`) or on the name it is assigned
/// to, later in its function (`s = torch.cuda.Stream()` ... `s.cuda_stream`).
/// The generic torch.Stream / torch.Event that the fixes return have no such
/// attribute: ported, that read raises AttributeError on CUDA too (seen on
/// PyTorch 2.11). "`NAME` (line N)", or nullopt.
std::optional<std::string> cudaHandleRead(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode Call = Up.node();
  if (!is(Call, "call"))
    return std::nullopt;
  auto HandleOf = [&](TSNode Attr, TSNode Object) -> std::optional<std::string> {
    if (!is(Attr, "attribute") || !sameNode(field(Attr, "object"), Object))
      return std::nullopt;
    llvm::StringRef Name = textOf(field(Attr, "attribute"), Text);
    if (Name != "cuda_stream" && Name != "cuda_event")
      return std::nullopt;
    return "`." + Name.str() + "` (line " + std::to_string(lineOf(Text, ts_node_start_byte(Attr))) +
           ")";
  };
  TSNode P = Up.parent(Call);
  if (auto Read = HandleOf(P, Call))
    return Read;
  if (!is(P, "assignment") || !sameNode(field(P, "right"), Call))
    return std::nullopt;
  std::unique_ptr<ScopeIndex> Local;
  for (TSNode U : usesOfAssigned(Root, Up, P, Text, Local))
    if (auto Read = HandleOf(ts_node_parent(U), U))
      return Read;
  return std::nullopt;
}

/// The NAME of the `<Module>NAME(...)` call that Code starts with
/// (`accelerator.`), or "".
llvm::StringRef calledFunction(llvm::StringRef Code, llvm::StringRef Module) {
  if (!Code.consume_front(Module))
    return "";
  llvm::StringRef Name = Code.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
  return Code.drop_front(Name.size()).ltrim().startswith("(") ? Name : "";
}

/// The NAME of the `torch.cuda.NAME(...)` call that a finding's code starts
/// with, its callee spelled in any way the module's imports allow
/// (importedTorchMember(): `th.cuda.NAME(...)`, `tc.NAME(...)`, `NAME(...)`), or "".
llvm::StringRef calledCudaFunction(llvm::StringRef Code) {
  llvm::StringRef Callee =
      Code.take_while([](char C) { return llvm::isAlnum(C) || C == '_' || C == '.'; });
  if (!Code.drop_front(Callee.size()).ltrim().startswith("("))
    return "";
  std::optional<llvm::StringRef> Member = importedTorchMember(Callee);
  if (!Member || !Member->startswith("cuda."))
    return "";
  llvm::StringRef Name = Member->drop_front(5);
  return Name.contains('.') ? "" : Name;
}

/// A finding in what guard G guards whose safe fix calls one of
/// torch.accelerator's memory functions (sam2's trainer: `if
/// torch.cuda.is_available(): torch.cuda.reset_peak_memory_stats()`), which
/// MPS does not implement (pytorch#167447: `empty_cache`, `memory_allocated`,
/// `reset_peak_memory_stats`, ... raise there), or a call of one already in
/// that code.
struct MemoryCall {
  std::string Function; ///< `torch.accelerator.NAME`.
  unsigned Line;
  bool Ported; ///< In the code already, not a fix's.
};
std::optional<MemoryCall> acceleratorMemoryGuarded(const Guard &G,
                                                   const std::vector<Diagnostic> &Findings,
                                                   llvm::StringRef Text) {
  static constexpr llvm::StringLiteral Memory[] = {
      "empty_cache",     "memory_allocated",    "max_memory_allocated",
      "memory_reserved", "max_memory_reserved", "reset_peak_memory_stats",
      "memory_stats",    "get_memory_info",     "reset_accumulated_memory_stats"};
  for (size_t I = 0; I < Findings.size(); ++I) {
    if (I == G.Finding || !hasFix(Findings[I], Level::Safe) ||
        !llvm::any_of(G.Regions, [&](ByteRange R) { return R.contains(Findings[I].Range); }))
      continue;
    // `torch.cuda.NAME(...)` whose safe fix goes to torch.accelerator (its
    // edits are tokens: `cuda` -> `accelerator`).
    llvm::StringRef Name =
        calledCudaFunction(Text.slice(Findings[I].Range.Begin, Findings[I].Range.End));
    if (Name.empty() || !llvm::is_contained(Memory, Name))
      continue;
    bool ToAccelerator = llvm::any_of(Findings[I].Fixes, [](const Fix &X) {
      return X.App == Applicability::Safe && llvm::any_of(X.Edits, [](const Edit &E) {
               return llvm::StringRef(E.Replacement).contains("accelerator");
             });
    });
    if (ToAccelerator)
      return MemoryCall{"torch.accelerator." + Name.str(), lineOf(Text, Findings[I].Range.Begin),
                        /*Ported=*/false};
  }
  // Or one that calls it already (ported by hand, or by an earlier round or
  // run of fix: that round's review saw the CUDA call, the next one sees
  // this), through any name of torch's (`th.accelerator.empty_cache()`).
  static constexpr llvm::StringLiteral Prefix = "accelerator.";
  for (ByteRange R : G.Regions) {
    llvm::StringRef In = Text.slice(R.Begin, R.End);
    for (size_t At = In.find(Prefix); At != llvm::StringRef::npos; At = In.find(Prefix, At + 1)) {
      // What names the module there: a run of name characters and dots
      // before it that resolves to torch.accelerator (`torch.`, `th.`, none
      // after `from torch import accelerator`).
      size_t B = At;
      while (B > 0 && (llvm::isAlnum(In[B - 1]) || In[B - 1] == '_' || In[B - 1] == '.'))
        --B;
      if (importedTorchMember(In.slice(B, At + Prefix.size() - 1)) !=
          llvm::StringRef("accelerator"))
        continue;
      if (llvm::StringRef Name = calledFunction(In.drop_front(At), Prefix);
          llvm::is_contained(Memory, Name))
        return MemoryCall{"torch.accelerator." + Name.str(), lineOf(Text, R.Begin + At),
                          /*Ported=*/true};
    }
  }
  return std::nullopt;
}

/// Where the device that a check picks in a function (`device =
/// torch.cuda.current_device() if torch.cuda.is_available() else "cpu"`) is
/// followed, later in that function, by a collective (`dist.all_reduce(...)`:
/// OpenRLHF's loss normalization reduces tensors made on it): where it picked
/// the CPU, a Mac ran gloo on CPU tensors; ported, MPS tensors reach gloo,
/// which takes CPU and CUDA tensors only. The collective's line, or nullopt.
/// Region parsing keeps the lines of the function after such a pick that
/// name a collective (Regions.cpp).
std::optional<unsigned> pickReachesCollective(const Ancestors &Up, llvm::StringRef Text) {
  TSNode A = pickAssignment(Up, Text);
  if (ts_node_is_null(A))
    return std::nullopt;
  // Its function, or the module for a pick at module level (cleanrl's
  // multi-GPU PPO under `if __name__ == "__main__":`).
  TSNode Function{}, Root{};
  bool InClass = false;
  for (TSNode F = Up.parent(A); !ts_node_is_null(F) && ts_node_is_null(Function);
       F = Up.parent(F)) {
    if (is(F, "function_definition"))
      Function = F;
    InClass |= is(F, "class_definition");
    if (is(F, "module"))
      Root = F;
  }
  TSNode Body = !ts_node_is_null(Function) ? field(Function, "body") : InClass ? TSNode{} : Root;
  if (ts_node_is_null(Body))
    return std::nullopt;
  uint32_t After = ts_node_end_byte(A);
  std::optional<unsigned> Line;
  preorder(Body, [&](TSNode N, TSTreeCursor *) {
    if (Line || ts_node_end_byte(N) <= After)
      return false;
    if (is(N, "function_definition") || is(N, "class_definition") || is(N, "lambda"))
      return false;
    if (is(N, "call") && ts_node_start_byte(N) >= After &&
        groupWrapper(textOf(field(N, "function"), Text)) == GroupUse::Group &&
        llvm::is_contained(Collectives, lastName(textOf(field(N, "function"), Text)))) {
      Line = lineOf(Text, ts_node_start_byte(N));
      return false;
    }
    return true;
  });
  return Line;
}

/// Where a check picks a parameter's default (CLIP's `def load(name, device
/// = "cuda" if torch.cuda.is_available() else "cpu")`): "`load`'s `device`".
std::optional<std::string> pickIsDefault(const Ancestors &Up, llvm::StringRef Text) {
  auto [V, A] = pickedValue(Up, Text);
  // The default given in the body: `if device is None: device = ...`
  // (YOLOX's torch.hub entry point, whose callers hand it CPU images), or
  // `device = device or (...)`, of a parameter of the function.
  if (is(A, "boolean_operator") && sameNode(field(A, "right"), V) &&
      textOf(field(A, "operator"), Text) == "or") {
    V = A;
    A = Up.parent(A);
  }
  if (is(A, "assignment") && sameNode(field(A, "right"), V) && is(field(A, "left"), "identifier")) {
    llvm::StringRef Name = textOf(field(A, "left"), Text);
    TSNode Function{};
    for (TSNode F = Up.parent(A); !ts_node_is_null(F) && ts_node_is_null(Function);
         F = Up.parent(F))
      if (is(F, "function_definition") || is(F, "class_definition"))
        Function = F;
    if (!is(Function, "function_definition"))
      return std::nullopt;
    bool Parameter = false;
    forEachChild(field(Function, "parameters"), [&](TSNode P) {
      TSNode N = is(P, "identifier") ? P : field(P, "name");
      Parameter |= is(N, "identifier") && textOf(N, Text) == Name;
    });
    if (!Parameter)
      return std::nullopt;
    // `or`: the parameter's value first; else an `if NAME is None:` whose
    // block holds the assignment.
    bool Defaults = is(V, "boolean_operator") && textOf(field(V, "left"), Text) == Name;
    for (TSNode P = Up.parent(A); !Defaults && !sameNode(P, Function); P = Up.parent(P))
      if (is(P, "if_statement") && contains(field(P, "consequence"), rangeOf(A))) {
        llvm::StringRef C = textOf(field(P, "condition"), Text);
        Defaults = C == (Name + " is None").str() || C == ("not " + Name).str();
        break;
      }
    if (!Defaults)
      return std::nullopt;
    return "`" + textOf(field(Function, "name"), Text).str() + "`'s `" + Name.str() + "`";
  }
  if (!(is(A, "default_parameter") || is(A, "typed_default_parameter")) ||
      !sameNode(field(A, "value"), V))
    return std::nullopt;
  std::string Param = "`" + textOf(field(A, "name"), Text).str() + "`";
  for (TSNode F = Up.parent(A); !ts_node_is_null(F); F = Up.parent(F))
    if (is(F, "function_definition"))
      return "`" + textOf(field(F, "name"), Text).str() + "`'s " + Param;
  return Param;
}

/// A name or word in the condition around the check that says mixed
/// precision (skorch's `if (mixed_precision != "no") and not
/// torch.cuda.is_available(): pytest.skip(...)`): `mixed_precision`, `amp`,
/// `fp16`, `half`, `autocast` as a word of an identifier.
std::optional<std::string> decidesMixedPrecision(const Ancestors &Up, llvm::StringRef Text) {
  if (!asksForDevices(textOf(Up.node(), Text)))
    return std::nullopt;
  ByteRange Own = rangeOf(Up.node());
  TSNode N = climb(Up, {"not_operator", "boolean_operator", "parenthesized_expression",
                        "comparison_operator"})
                 .Outer;
  if (sameNode(N, Up.node()))
    return std::nullopt; // the check alone
  std::optional<std::string> Found;
  preorder(N, [&](TSNode X, TSTreeCursor *) {
    if (Found || Own.contains(rangeOf(X)))
      return false;
    if (is(X, "identifier")) {
      llvm::StringRef Name = textOf(X, Text);
      for (const std::string &W : nameWords(Name))
        if (W == "amp" || W == "fp16" || W == "half" || W == "autocast" ||
            (W == "precision" && Name.contains_insensitive("mixed")))
          Found = Name.str();
      return false;
    }
    return true;
  });
  return Found;
}

/// Where the device that a check picks (`X = torch.device("cuda" if
/// torch.cuda.is_available() else "cpu")`, directly or as `torch.device(...)`)
/// decides a skip later in its function (class, for `self.X`): an `if` that
/// compares it, or its `.type`, with "cpu" and whose block ends by exiting or
/// skipping (Megatron-LM's Mamba kernel tests: `if self.device.type ==
/// "cpu": self.skipTest("Mamba Triton kernels require CUDA")`). The check is
/// what keeps other hosts out; ported, a Mac picks "mps" and runs on. Its
/// line, or nullopt.
std::optional<unsigned> pickDecidesSkip(TSNode Root, const Ancestors &Up, llvm::StringRef Text) {
  TSNode A = pickAssignment(Up, Text);
  if (ts_node_is_null(A))
    return std::nullopt;
  std::unique_ptr<ScopeIndex> Local;
  for (TSNode U : usesOfAssigned(Root, Up, A, Text, Local)) {
    TSNode C = U, Q = ts_node_parent(U);
    while (is(Q, "parenthesized_expression") ||
           (is(Q, "attribute") && sameNode(field(Q, "object"), C) &&
            textOf(field(Q, "attribute"), Text) == "type")) {
      C = Q;
      Q = ts_node_parent(Q);
    }
    if (!is(Q, "comparison_operator") ||
        !(textOf(Q, Text).contains("\"cpu\"") || textOf(Q, Text).contains("'cpu'")))
      continue;
    TSNode If = ts_node_parent(Q);
    while (is(If, "parenthesized_expression") || is(If, "boolean_operator"))
      If = ts_node_parent(If);
    if (is(If, "if_statement") && contains(field(If, "condition"), rangeOf(Q)) &&
        exitsEarly(field(If, "consequence"), Text))
      return lineOf(Text, ts_node_start_byte(If));
  }
  return std::nullopt;
}

/// The line of the first float64 (or float8) in N's code from offset From
/// on (namesFloat64()), not in comments nor prose. Region parsing keeps such
/// lines (mentionsGuardedWord()).
std::optional<unsigned> float64In(TSNode N, uint32_t From, llvm::StringRef Text) {
  std::optional<unsigned> Line;
  if (ts_node_is_null(N))
    return Line;
  preorder(N, [&](TSNode X, TSTreeCursor *) {
    if (Line || ts_node_end_byte(X) <= From || is(X, "comment"))
      return false;
    if (ts_node_start_byte(X) < From)
      return true;
    bool Found = namesFloat64(X, Text);
    if (!Found && is(X, "string"))
      return false;
    if (Found)
      Line = lineOf(Text, ts_node_start_byte(X));
    return !Found;
  });
  return Line;
}

/// Whether N's code from offset From on makes a tensor of data as it is: a
/// call `torch.tensor(x)`, `torch.from_numpy(x)` or `torch.as_tensor(x)`
/// (or through `th`, stable-baselines3's alias) without `dtype=`, which
/// keeps numpy's float64. Region parsing keeps such lines after a pick in a
/// file that says `gym` (Regions.cpp, keepAfterPick()).
bool dtypelessConversion(TSNode N, uint32_t From, llvm::StringRef Text) {
  bool Found = false;
  preorder(N, [&](TSNode X, TSTreeCursor *) {
    if (Found || ts_node_end_byte(X) <= From || is(X, "comment") || is(X, "string"))
      return false;
    if (ts_node_start_byte(X) >= From && is(X, "call")) {
      llvm::StringRef F = textOf(field(X, "function"), Text);
      std::optional<llvm::StringRef> Member = torchMember(F);
      if (Member && (*Member == "tensor" || *Member == "from_numpy" || *Member == "as_tensor")) {
        bool Typed = false;
        forEachChild(field(X, "arguments"), [&](TSNode A) {
          Typed |= is(A, "keyword_argument") && textOf(field(A, "name"), Text) == "dtype";
        });
        Found = !Typed;
      }
    }
    return !Found;
  });
  return Found;
}

/// Libraries that compute in float64 on the device they are handed:
/// torchdiffeq's adaptive solvers (odeint's default, dopri5) keep their time
/// steps in float64 on the state's device (torchdiffeq#257); Gymnasium's
/// (and gym's) vector environments return float64 rewards, and MuJoCo's
/// float64 observations, that cleanrl's `torch.tensor(reward).to(device)`
/// moves there. Converted: only where what they return is made a tensor as
/// it is after the pick (dtypelessConversion(): tianshou's networks take
/// observations as float32).
struct Float64Library {
  llvm::StringLiteral Module, Why;
  bool Converted;
};
constexpr Float64Library Float64Libraries[] = {
    {"torchdiffeq",
     ": it imports torchdiffeq, whose adaptive solvers keep their time steps in float64 on the "
     "state's device",
     false},
    {"gymnasium",
     ": it imports gymnasium, whose vector environments return float64 rewards (and MuJoCo's "
     "float64 observations), and a tensor is made of them as they are",
     true},
    {"gym",
     ": it imports gym, whose vector environments return float64 rewards (and MuJoCo's float64 "
     "observations), and a tensor is made of them as they are",
     true},
};

/// The line of the file's first import of each of Float64Libraries, 0 for
/// none: an import anywhere (torchdiffeq's examples import `odeint` in an
/// `if args.adjoint:`). Read once a review.
llvm::ArrayRef<unsigned> float64LibraryImports(TSNode Root, llvm::StringRef Text) {
  const TopLevel *T = topLevelOf(Root);
  if (T && T->Float64Imports)
    return *T->Float64Imports;
  static thread_local llvm::SmallVector<unsigned, 3> Own; // outside a review
  llvm::SmallVector<unsigned, 3> &Lines = T ? T->Float64Imports.emplace() : Own;
  Lines.assign(std::size(Float64Libraries), 0);
  if (llvm::any_of(Float64Libraries,
                   [&](const Float64Library &L) { return Text.contains(L.Module); }))
    preorder(Root, [&](TSNode N, TSTreeCursor *) {
      if (is(N, "import_statement") || is(N, "import_from_statement")) {
        llvm::StringRef M = textOf(N, Text);
        M = M.drop_front(M.startswith("from") ? 4 : 6).ltrim();
        for (size_t I = 0; I < Lines.size(); ++I) {
          llvm::StringRef Library = Float64Libraries[I].Module;
          if (!Lines[I] && M.startswith(Library) &&
              (M.size() == Library.size() || llvm::StringRef(" .,\t").contains(M[Library.size()])))
            Lines[I] = lineOf(Text, ts_node_start_byte(N));
        }
        return false;
      }
      return !is(N, "expression_statement") && !is(N, "comment") && !is(N, "string");
    });
  return Lines;
}

/// Where deviceReachesFloat64() found float64, and why there if not plain.
struct Float64Use {
  unsigned Line;
  llvm::StringRef Why; ///< ": it imports torchdiffeq, ...", or "".
};

/// Where the device that a check picks reaches float64 (or float8): after
/// the pick in its function or in the function's parameters, or in the rest
/// of the module for a pick at module level (float64In()); through a library
/// that the file imports (Float64Libraries); or, for a name or `self.NAME`,
/// in a statement of its function or class that uses it (`self.device =
/// torch.device("cuda" if torch.cuda.is_available() else "cpu")`, then
/// `.to(dtype=torch.float64, device=self.device)`, botorch's VBLL network).
/// Where it picked the CPU, a Mac now gets MPS, which has neither.
std::optional<Float64Use> deviceReachesFloat64(TSNode Root, const Ancestors &Up,
                                               llvm::StringRef Text) {
  auto [V, Holder] = pickedValue(Up, Text);
  if (ts_node_is_null(V))
    return std::nullopt;
  // float64 in the code that runs after the pick, where the device it
  // picked is in reach: the rest of its function (and the function's
  // parameters: mace's `default_dtype: str = "float64"`), or of the module
  // for a pick at module level (mace's tests, nequip's `--device` default
  // beside `torch.zeros(..., dtype=torch.float64)`): float64 checkpoints,
  // models and data, moved or loaded there, fail on MPS where they ran on
  // the CPU.
  TSNode S = V;
  while (!ts_node_is_null(S) && !is(S, "expression_statement") && !is(S, "return_statement") &&
         !is(S, "module") && !is(S, "block"))
    S = Up.parent(S);
  TSNode Scope{}; // where the picked device is in reach, after S
  if (!ts_node_is_null(S) && !is(S, "module") && !is(S, "block")) {
    bool InClass = false;
    for (TSNode P = Up.parent(S); !ts_node_is_null(P) && ts_node_is_null(Scope); P = Up.parent(P)) {
      if (is(P, "function_definition"))
        Scope = P;
      InClass |= is(P, "class_definition");
    }
    if (ts_node_is_null(Scope) && !InClass)
      Scope = Root;
    if (!ts_node_is_null(Scope)) {
      if (is(Scope, "function_definition"))
        if (auto Line = float64In(field(Scope, "parameters"), 0, Text))
          return Float64Use{*Line, ""};
      if (auto Line = float64In(Scope, ts_node_end_byte(S), Text))
        return Float64Use{*Line, ""};
    }
  }
  // A library that computes in float64 on it (Float64Libraries), the first
  // that the file imports.
  llvm::ArrayRef<unsigned> Imports = float64LibraryImports(Root, Text);
  std::optional<bool> ConvertsAsIs;
  auto Converts = [&] {
    if (!ConvertsAsIs)
      ConvertsAsIs =
          !ts_node_is_null(Scope) && dtypelessConversion(Scope, ts_node_end_byte(S), Text);
    return *ConvertsAsIs;
  };
  std::optional<Float64Use> Use;
  for (size_t I = 0; I < Imports.size(); ++I)
    if (Imports[I] && (!Use || Imports[I] < Use->Line) &&
        (!Float64Libraries[I].Converted || Converts()))
      Use = Float64Use{Imports[I], Float64Libraries[I].Why};
  if (Use)
    return Use;
  TSNode A = Holder;
  if (!is(A, "assignment") || !sameNode(field(A, "right"), V))
    return std::nullopt;
  std::unique_ptr<ScopeIndex> Local;
  for (TSNode U : usesOfAssigned(Root, Up, A, Text, Local)) {
    TSNode S = U;
    while (!ts_node_is_null(S) && !is(S, "expression_statement") && !is(S, "return_statement") &&
           !is(S, "block") && !is(S, "module"))
      S = ts_node_parent(S);
    if (ts_node_is_null(S) || is(S, "block") || is(S, "module"))
      continue;
    llvm::StringRef T = textOf(S, Text);
    if (T.contains("torch.float64") || T.contains("torch.double") || T.contains(".double()") ||
        T.contains("torch.float8_"))
      return Float64Use{lineOf(Text, ts_node_start_byte(S)), ""};
  }
  return std::nullopt;
}

/// Where the device type that a check picks, "cpu" where it fails, makes a
/// device mesh: the first argument or `device_type=` of `init_device_mesh` or
/// `DeviceMesh`, directly (axolotl's expert-parallel plugin,
/// `init_device_mesh("cuda" if torch.cuda.is_available() else "cpu", ...)`)
/// or through a name in its function or class. Where it picked "cpu", a Mac
/// made a CPU mesh on a gloo group; ported, it makes an "mps" mesh, which
/// DeviceMesh cannot set up in releases after 2.6 (`_setup_world_group_and_
/// device` asks the device module's `is_initialized()`, which `torch.mps`
/// lacks) and whose gloo group takes CPU and CUDA tensors only. The line of
/// the call.
std::optional<unsigned> pickMakesMesh(TSNode Root, const Ancestors &Up, llvm::StringRef Text) {
  TSNode P = pickedBy(Up, Text);
  if (ts_node_is_null(P))
    return std::nullopt;
  TSNode Fallback = ts_node_named_child(P, negatedBelow(Up, P) ? 0 : 2);
  std::string Value;
  if (!is(Fallback, "string") || !simpleStringValue(Fallback, Text, Value) || Value != "cpu")
    return std::nullopt;
  // The mesh call that V (with its parent's reader) is the device type of.
  auto MeshCall = [&](TSNode V, auto ParentOf) -> std::optional<unsigned> {
    TSNode A = ParentOf(V);
    while (is(A, "parenthesized_expression")) {
      V = A;
      A = ParentOf(A);
    }
    if (is(A, "keyword_argument")) {
      if (textOf(field(A, "name"), Text) != "device_type")
        return std::nullopt;
      A = ParentOf(A);
    } else if (!is(A, "argument_list") || !sameNode(ts_node_named_child(A, 0), V)) {
      return std::nullopt;
    }
    TSNode Call = ParentOf(A);
    if (!is(A, "argument_list") || !is(Call, "call"))
      return std::nullopt;
    llvm::StringRef Callee = lastName(textOf(field(Call, "function"), Text));
    if (Callee != "init_device_mesh" && Callee != "DeviceMesh")
      return std::nullopt;
    return lineOf(Text, ts_node_start_byte(Call));
  };
  auto UpParent = [&](TSNode N) { return Up.parent(N); };
  if (auto Line = MeshCall(P, UpParent))
    return Line;
  TSNode A = Up.parent(P);
  if (!is(A, "assignment") || !sameNode(field(A, "right"), P))
    return std::nullopt;
  std::unique_ptr<ScopeIndex> Local;
  auto TreeParent = [](TSNode N) { return ts_node_parent(N); };
  for (TSNode U : usesOfAssigned(Root, Up, A, Text, Local)) {
    // `self.device_type`: the attribute is the use.
    TSNode V = is(ts_node_parent(U), "attribute") ? ts_node_parent(U) : U;
    if (auto Line = MeshCall(V, TreeParent))
      return Line;
  }
  return std::nullopt;
}

/// Where the device that a check picks as `torch.device("cuda" if check else
/// "cpu")`, with no index, is later compared with a tensor's `.device` in its
/// function or class (deepchem's `self.assertEqual(Q.device, device)`): on
/// the CPU both have no index and compare equal, where a tensor on MPS or XPU
/// says `mps:0` against the picked `mps` (on CUDA the test failed before). The
/// line of the comparison.
std::optional<unsigned> deviceComparedWithTensors(TSNode Root, const Ancestors &Up,
                                                  llvm::StringRef Text) {
  TSNode P = pickedBy(Up, Text);
  if (ts_node_is_null(P))
    return std::nullopt;
  // The value where the check holds: a device type with no index.
  TSNode Picked = ts_node_named_child(P, negatedBelow(Up, P) ? 2 : 0);
  std::string Value;
  if (!is(Picked, "string") || !simpleStringValue(Picked, Text, Value) ||
      llvm::StringRef(Value).contains(':'))
    return std::nullopt;
  TSNode Args = Up.parent(P), Call = Up.parent(Args);
  if (!is(Args, "argument_list") || !is(Call, "call") ||
      torchMember(textOf(field(Call, "function"), Text)) != llvm::StringRef("device"))
    return std::nullopt;
  TSNode A = Up.parent(Call);
  if (!is(A, "assignment") || !sameNode(field(A, "right"), Call))
    return std::nullopt;
  std::optional<BoundName> Bound = boundName(field(A, "left"), Text);
  if (!Bound)
    return std::nullopt;
  llvm::StringRef Name = Bound->Name;
  bool Self = Bound->Self;
  // `Q.device`, where Q is a name that a statement before the comparison, in
  // its block, assigns from an expression that names the device (`Q =
  // change_basis(j, device=device)`): a tensor made there, not an object
  // that keeps a device of its own (MONAI's `workflow.device`).
  auto TensorDevice = [&](TSNode N) {
    if (!is(N, "attribute") || textOf(field(N, "attribute"), Text) != "device" ||
        !is(field(N, "object"), "identifier"))
      return false;
    llvm::StringRef Object = textOf(field(N, "object"), Text);
    TSNode S = N;
    while (!ts_node_is_null(ts_node_parent(S)) && !is(ts_node_parent(S), "block"))
      S = ts_node_parent(S);
    for (TSNode B = ts_node_prev_named_sibling(S); !ts_node_is_null(B);
         B = ts_node_prev_named_sibling(B)) {
      TSNode Assign = is(B, "expression_statement") ? ts_node_named_child(B, 0) : TSNode{};
      if (!is(Assign, "assignment") || textOf(field(Assign, "left"), Text) != Object)
        continue;
      bool Named = false;
      TSNode Right = field(Assign, "right");
      if (ts_node_is_null(Right))
        return false; // `Q: Tensor`, an annotation alone
      preorder(Right, [&](TSNode M, TSTreeCursor *) {
        Named |= (is(M, "identifier") || is(M, "attribute")) && textOf(M, Text) == Name;
        return !Named;
      });
      return Named;
    }
    return false;
  };
  std::unique_ptr<ScopeIndex> Local;
  const ScopeIndex &X =
      scopeIndex(Root, assignmentScope(Up, A, Self, Root), Text, Local, /*Uses=*/true);
  for (TSNode U : usesAfter(X, Name, Self, ts_node_end_byte(A))) {
    TSNode Q = ts_node_parent(U);
    if (is(Q, "comparison_operator") && ts_node_named_child_count(Q) == 2) {
      TSNode Other = sameNode(ts_node_named_child(Q, 0), U) ? ts_node_named_child(Q, 1)
                                                            : ts_node_named_child(Q, 0);
      if (TensorDevice(Other))
        return lineOf(Text, ts_node_start_byte(Q));
    }
    if (is(Q, "argument_list") && is(ts_node_parent(Q), "call")) {
      llvm::StringRef Callee = lastName(textOf(field(ts_node_parent(Q), "function"), Text));
      if (Callee != "assertEqual" && Callee != "assertEquals" && Callee != "assertNotEqual")
        continue;
      bool Other = false;
      forEachChild(Q, [&](TSNode Arg) { Other |= !sameNode(Arg, U) && TensorDevice(Arg); });
      if (Other)
        return lineOf(Text, ts_node_start_byte(Q));
    }
  }
  return std::nullopt;
}

/// Where a check picks `None` for torch.load's `map_location`, which puts
/// each tensor back where it was saved: `map_location = None if
/// torch.cuda.is_available() else torch.device("cpu")` (MONAI's HoVerNet
/// and TransCHeX), directly or through a name used as `map_location=` later
/// in its function. Ported, a Mac or XPU host loads a checkpoint saved on a
/// GPU to CUDA, where it loaded to the CPU. The line of the keyword.
std::optional<unsigned> savedDeviceLocation(TSNode Root, const Ancestors &Up,
                                            llvm::StringRef Text) {
  TSNode P = pickedBy(Up, Text);
  if (ts_node_is_null(P))
    return std::nullopt;
  // The value where the check holds.
  if (!is(ts_node_named_child(P, negatedBelow(Up, P) ? 2 : 0), "none"))
    return std::nullopt;
  auto MapLocation = [&](TSNode K, TSNode V) {
    return is(K, "keyword_argument") && sameNode(field(K, "value"), V) &&
           textOf(field(K, "name"), Text) == "map_location";
  };
  TSNode Holder = Up.parent(P);
  if (MapLocation(Holder, P))
    return lineOf(Text, ts_node_start_byte(Holder));
  if (!is(Holder, "assignment") || !sameNode(field(Holder, "right"), P) ||
      !is(field(Holder, "left"), "identifier"))
    return std::nullopt;
  std::unique_ptr<ScopeIndex> Local;
  const ScopeIndex &X = scopeIndex(Root, assignmentScope(Up, Holder, /*Self=*/false, Root), Text,
                                   Local, /*Uses=*/true);
  for (TSNode U : usesAfter(X, textOf(field(Holder, "left"), Text), /*Self=*/false,
                            ts_node_end_byte(Holder))) {
    TSNode K = ts_node_parent(U);
    if (MapLocation(K, U))
      return lineOf(Text, ts_node_start_byte(K));
  }
  return std::nullopt;
}

/// The module constant that the check at R, guarding G at module level,
/// decides, and its line: one that its block assigns or extends (MONAI's
/// tests/test_utils.py, `if torch.cuda.is_available():
/// TEST_DEVICES.append([torch.device("cuda")])`, imported by the project's
/// test modules, whose float64 cases then run on a Mac), or that its
/// conditional expression is assigned to (`DEVICE = torch.device("cuda" if
/// torch.cuda.is_available() else "cpu")`). Region parsing keeps such
/// statements (Regions.cpp, keepGuardedLines()).
std::optional<std::pair<std::string, unsigned>> exportedDecided(TSNode Root, const Guard &G,
                                                                ByteRange R, llvm::StringRef Text) {
  auto Decided = [&](TSNode S) -> std::optional<std::pair<std::string, unsigned>> {
    if (!is(S, "expression_statement") || ts_node_named_child_count(S) != 1)
      return std::nullopt;
    TSNode E = ts_node_named_child(S, 0);
    TSNode Name{};
    if (is(E, "assignment") || is(E, "augmented_assignment")) {
      Name = field(E, "left");
      if (is(Name, "subscript"))
        Name = field(Name, "value");
    } else if (is(E, "call") && is(field(E, "function"), "attribute")) {
      TSNode F = field(E, "function");
      static const llvm::StringSet<> Grow = {"append", "extend", "insert", "add", "update"};
      if (Grow.count(textOf(field(F, "attribute"), Text)))
        Name = field(F, "object");
    }
    if (ts_node_is_null(Name) || !is(Name, "identifier") || !exportedName(textOf(Name, Text)))
      return std::nullopt;
    return std::make_pair(textOf(Name, Text).str(), lineOf(Text, ts_node_start_byte(S)));
  };
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  // `NAME = ... if check else ...` at module level: the statement that holds it.
  for (TSNode N = Up.node(), P = Up.parent(N); !ts_node_is_null(P); N = P, P = Up.parent(P)) {
    if (is(P, "expression_statement")) {
      if (sameNode(Up.parent(P), Root) && is(N, "assignment") && contains(field(N, "right"), R))
        return Decided(P);
      break;
    }
    if (is(P, "block") || is(P, "module") || is(P, "lambda") || is(P, "function_definition"))
      break;
  }
  // A guard at module level: the statements of its blocks.
  for (ByteRange Region : G.Regions) {
    TSNode B = descendantFor(Root, Region.Begin, Region.End);
    // A block of one statement spans what its statement spans.
    for (TSNode P = ts_node_parent(B);
         !ts_node_is_null(P) && !is(B, "block") && rangeOf(P).Begin == rangeOf(B).Begin &&
         rangeOf(P).End == rangeOf(B).End;
         P = ts_node_parent(P))
      B = P;
    std::optional<std::pair<std::string, unsigned>> Found;
    auto Read = [&](TSNode S) {
      if (!Found && ts_node_start_byte(S) >= Region.Begin && ts_node_end_byte(S) <= Region.End)
        Found = Decided(S);
    };
    if (sameNode(B, Root)) {
      forEachChild(Root, Read);
    } else if (is(B, "block")) {
      TSNode Owner = ts_node_parent(B);
      if (is(Owner, "elif_clause") || is(Owner, "else_clause"))
        Owner = ts_node_parent(Owner);
      if (!sameNode(ts_node_parent(Owner), Root))
        continue;
      forEachChild(B, Read);
    }
    if (Found)
      return Found;
  }
  return std::nullopt;
}

/// Whether the string literal at R is in an f-string that is more than a
/// device: only `f"{...}"`, with `:N` or `:{i}` after it, is one. In
/// `f"{'cuda' if on_gpu else 'cpu'}_time_total"` (a profiler attribute's
/// name), `f"run_{...}"`, `f"{...}.json"` or `f"running on {...}"` the
/// `"cuda"` is a part of a name, a path or a message, where principle 3
/// (docs/safety.md) sees no device.
bool inLargerFString(TSNode Root, ByteRange R, llvm::StringRef Text) {
  llvm::StringRef S = Text.slice(R.Begin, R.End).ltrim("rRuUbB");
  if (S.empty() || (S.front() != '"' && S.front() != '\''))
    return false;
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  for (TSNode P = Up.parent(Up.node()); !ts_node_is_null(P); P = Up.parent(P)) {
    if (is(P, "string"))
      return false; // the literal's own, or a string inside a string
    if (!is(P, "interpolation"))
      continue;
    TSNode Str = Up.parent(P);
    uint32_t N = ts_node_is_null(Str) ? 0 : ts_node_child_count(Str);
    if (N < 2 || !is(Str, "string"))
      return false;
    uint32_t Begin = ts_node_end_byte(ts_node_child(Str, 0));
    uint32_t End = ts_node_start_byte(ts_node_child(Str, N - 1));
    if (ts_node_start_byte(P) != Begin)
      return true; // text before it
    llvm::StringRef After = Text.slice(ts_node_end_byte(P), End);
    if (After.empty())
      return false;
    if (!After.consume_front(":"))
      return true;
    if (!After.empty() && llvm::all_of(After, llvm::isDigit))
      return false;                               // `f"{...}:0"`
    TSNode Index = ts_node_next_named_sibling(P); // past the `:` (a string_content)
    while (!ts_node_is_null(Index) && is(Index, "string_content"))
      Index = ts_node_next_named_sibling(Index);
    return ts_node_is_null(Index) || !is(Index, "interpolation") ||
           ts_node_start_byte(Index) != ts_node_end_byte(P) + 1 ||
           ts_node_end_byte(Index) != End; // else `f"{...}:{i}"`
  }
  return false;
}

/// Moves the findings inside a function or class named for CUDA
/// (namedForCuda(); the innermost such definition around each) under a keep
/// entry of that definition: `def cuda(self, device=None)` of `nn.Module`,
/// DeepSpeed's `class CUDA_Accelerator`, `test_roi_align_cuda` beside its CPU
/// twin are about CUDA, and ported they would change what they mean (the C++
/// review keeps functions named for CUDA the same way).
void keepNamedForCuda(TSNode Root, llvm::StringRef Text, std::vector<Diagnostic> &Findings,
                      std::vector<Diagnostic> &Kept) {
  std::vector<Diagnostic> Rest;
  size_t FirstNew = Kept.size();
  for (Diagnostic &D : Findings) {
    TSNode Def{};
    std::optional<Ancestors> OwnUp;
    const Ancestors &Up = pathTo(Root, D.Range, OwnUp);
    for (TSNode P = Up.parent(Up.node()); !ts_node_is_null(P) && ts_node_is_null(Def);
         P = Up.parent(P))
      if ((is(P, "function_definition") || is(P, "class_definition")) &&
          namedForCuda(textOf(field(P, "name"), Text)))
        Def = P;
    if (ts_node_is_null(Def)) {
      Rest.push_back(std::move(D));
      continue;
    }
    // From `def` or `class` to the name: region parsing leaves out the
    // body's statements after the last it keeps, so its end is not the file's.
    ByteRange DR{ts_node_start_byte(Def), ts_node_end_byte(field(Def, "name"))};
    auto It = std::find_if(Kept.begin() + FirstNew, Kept.end(),
                           [&](const Diagnostic &K) { return K.Range == DR; });
    if (It == Kept.end()) {
      Diagnostic K;
      K.RuleId = D.RuleId;
      K.File = D.File;
      K.Range = DR;
      K.Sev = Severity::Info;
      K.Message = "`" + textOf(field(Def, "name"), Text).str() +
                  "` is named for CUDA: kept with the CUDA references in it";
      Kept.push_back(std::move(K));
      It = Kept.end() - 1;
    }
    It->Keeps.push_back({D.RuleId, D.Range});
  }
  Findings = std::move(Rest);
}

/// The parameter that the device argument of the `.cuda(...)` call at R
/// names, where its default is None (`def f(x, device=None): x.cuda(device)`):
/// `.cuda(None)` moves to the current CUDA device, where a fix's `.to(None)`
/// does not move at all, on CUDA too (`.to(torch.device(type, None))` does).
std::optional<std::string> deviceDefaultsToNone(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode Call = Up.node();
  if (!is(Call, "call") || !textOf(field(Call, "function"), Text).endswith(".cuda"))
    return std::nullopt;
  TSNode Args = field(Call, "arguments");
  if (ts_node_is_null(Args) || ts_node_named_child_count(Args) == 0)
    return std::nullopt;
  TSNode Arg = ts_node_named_child(Args, 0);
  if (is(Arg, "keyword_argument")) {
    if (textOf(field(Arg, "name"), Text) != "device")
      return std::nullopt;
    Arg = field(Arg, "value");
  }
  if (!is(Arg, "identifier"))
    return std::nullopt;
  llvm::StringRef Name = textOf(Arg, Text);
  for (TSNode P = Up.parent(Call); !ts_node_is_null(P); P = Up.parent(P)) {
    if (!is(P, "function_definition") && !is(P, "lambda"))
      continue;
    TSNode Params = field(P, "parameters");
    for (uint32_t I = 0, N = ts_node_named_child_count(Params); I < N; ++I) {
      TSNode Q = ts_node_named_child(Params, I);
      if ((is(Q, "default_parameter") || is(Q, "typed_default_parameter")) &&
          textOf(field(Q, "name"), Text) == Name && textOf(field(Q, "value"), Text) == "None")
        return Name.str();
    }
    return std::nullopt; // the innermost function that could bind it
  }
  return std::nullopt;
}

/// The autocast or GradScaler call whose device the finding at R is
/// (`torch.autocast("cuda")`, `torch.amp.GradScaler(device="cuda")`), where a
/// CPU-only build may run it: on such a build those disable themselves with a
/// warning for "cuda", where current_accelerator() raises (2.6) or is None
/// (2.7+). Not under a condition that says an accelerator, nor in a test
/// that a CPU-only build skips (unskippedTest()).
std::optional<std::string> selfDisablingAmp(TSNode Root, ByteRange R, llvm::StringRef Text,
                                            const Marked &M) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  TSNode N = Up.node();
  if (!is(N, "string"))
    return std::nullopt;
  TSNode P = Up.parent(N);
  if (is(P, "keyword_argument")) {
    llvm::StringRef K = textOf(field(P, "name"), Text);
    if (K != "device_type" && K != "device")
      return std::nullopt;
    N = P;
    P = Up.parent(P);
  } else if (!is(P, "argument_list") || !sameNode(ts_node_named_child(P, 0), N)) {
    return std::nullopt;
  }
  TSNode Call = Up.parent(P);
  if (!is(P, "argument_list") || !is(Call, "call"))
    return std::nullopt;
  llvm::StringRef F = textOf(field(Call, "function"), Text);
  if (!F.endswith("autocast") && !F.endswith("GradScaler"))
    return std::nullopt;
  bool InTest = false;
  for (TSNode A = Up.parent(Call); !ts_node_is_null(A); A = Up.parent(A)) {
    if (underAcceleratorPresent(Up, A, R, Text))
      return std::nullopt;
    if (is(A, "function_definition") && runsAsTest(A, Up, Text))
      InTest = true;
  }
  if (InTest && !unskippedTest(Root, R, Text, M))
    return std::nullopt;
  return F.str();
}

bool replacesWithCurrentAccelerator(const Fix &X) {
  return llvm::any_of(X.Edits, [](const Edit &E) {
    return E.Role == EditRole::Code &&
           llvm::StringRef(E.Replacement).contains("current_accelerator(");
  });
}

void makeUnsafe(Diagnostic &D, std::string Why) {
  for (Fix &X : D.Fixes)
    if (X.App == Applicability::Safe)
      X.App = Applicability::Unsafe;
  D.Notes.push_back(Note::plain(std::move(Why)));
}

/// A call of a `torch.cuda` function that a test double in the same test
/// replaces: `with patch("torch.cuda.is_available", return_value=True):
/// assert torch.cuda.is_available()`, a function decorated with
/// `@mock.patch("torch.cuda.device_count", ...)`, the statements after
/// `monkeypatch.setattr(torch.cuda, "is_available", ...)`. Ported alone, the
/// call no longer reaches the double (a CPU-only CI then sees the real
/// answer); ported with the double's own unsafe fix, it does. Unsafe.
void lowerMockedCalls(TSNode Root, llvm::StringRef Text, std::vector<Diagnostic> &Findings) {
  for (const Diagnostic &M : Findings) {
    if (!llvm::StringRef(M.RuleId).startswith("cuda-mock"))
      continue;
    std::optional<Ancestors> OwnUp;
    const Ancestors &Up = pathTo(Root, M.Range, OwnUp);
    // The call that sets the double up, and the names it replaces.
    TSNode Call = Up.node();
    while (!ts_node_is_null(Call) && !is(Call, "call"))
      Call = Up.parent(Call);
    if (ts_node_is_null(Call))
      continue;
    llvm::SmallVector<std::string, 2> Replaced;
    preorder(Call, [&](TSNode N, TSTreeCursor *) {
      std::string V;
      if (is(N, "string") && simpleStringValue(N, Text, V)) {
        // A target (`"torch.cuda.is_available"`, `"litgpt.utils.torch.cuda.
        // device_count"`, `"torch.cuda.memory.empty_cache"`): its last name;
        // or the name given to setattr (`"is_available"`).
        llvm::StringRef R(V);
        if (R.contains("torch.cuda."))
          Replaced.push_back(lastName(R).str());
        else if (!R.empty() && llvm::all_of(R, [](char C) { return llvm::isAlnum(C) || C == '_'; }))
          Replaced.push_back(R.str());
        return false;
      }
      return true;
    });
    if (Replaced.empty())
      continue;
    // Where the double is in place.
    std::optional<ByteRange> Scope;
    for (TSNode P = Up.parent(Call); !ts_node_is_null(P) && !Scope; P = Up.parent(P)) {
      if (is(P, "with_statement"))
        Scope = rangeOf(field(P, "body"));
      else if (is(P, "decorator")) {
        TSNode Def = field(Up.parent(P), "definition");
        if (!ts_node_is_null(Def))
          Scope = rangeOf(Def);
      } else if (is(P, "expression_statement")) {
        TSNode Block = Up.parent(P);
        Scope = ByteRange{ts_node_end_byte(P), ts_node_end_byte(Block)};
      } else if (is(P, "function_definition") || is(P, "class_definition") || is(P, "block") ||
                 is(P, "module")) {
        break;
      }
    }
    if (!Scope)
      continue;
    for (Diagnostic &D : Findings) {
      if (&D == &M || !Scope->contains(D.Range) || !hasFix(D, Level::Safe))
        continue;
      llvm::StringRef F = Text.slice(D.Range.Begin, D.Range.End);
      if (!F.consume_front("torch.cuda."))
        continue;
      for (const std::string &X : Replaced)
        if (F.startswith(X + "(") || F.startswith(X + " (")) {
          makeUnsafe(D, "unsafe: the test double of `torch.cuda." + X + "` (line " +
                            std::to_string(lineOf(Text, M.Range.Begin)) +
                            ") replaces what it calls; rewritten alone, it no longer reaches the "
                            "double (port the double with it)");
          break;
        }
    }
  }
}

/// A module that assigns `torch.cuda` (a stand-in for a test, the real one
/// put back after: unsloth's `real_cuda = torch.cuda`, `torch.cuda =
/// SimpleNamespace(...)`, `finally: torch.cuda = real_cuda`): the value that
/// cuda-module-value saves is what goes back, CUDA's module on every host.
/// Ported, a CPU-only run or a Mac puts `torch.cpu` or `torch.mps` in
/// `torch.cuda`'s place for the rest of the process. No fix.
void keepRestoredCudaModule(TSNode Root, llvm::StringRef Text, std::vector<Diagnostic> &Findings) {
  if (llvm::none_of(Findings, [](const Diagnostic &D) {
        return D.RuleId == "cuda-module-value" && !D.Fixes.empty();
      }))
    return;
  const Grammar &G = Grammar::get();
  std::optional<unsigned> Line; // of the first assignment to `torch.cuda`
  for (size_t At = Text.find("torch.cuda"); At != llvm::StringRef::npos && !Line;
       At = Text.find("torch.cuda", At + 1)) {
    if (!Text.drop_front(At + 10).ltrim(" \t").startswith("=") ||
        Text.drop_front(At + 10).ltrim(" \t").startswith("=="))
      continue;
    TSNode N = descendantFor(Root, static_cast<uint32_t>(At), static_cast<uint32_t>(At + 10));
    if (ts_node_is_null(N) || ts_node_symbol(N) != G.Attribute)
      continue;
    TSNode P = ts_node_parent(N);
    if (!ts_node_is_null(P) && ts_node_symbol(P) == G.Assignment &&
        sameNode(ts_node_child_by_field_id(P, G.FLeft), N))
      Line = lineOf(Text, static_cast<uint32_t>(At));
  }
  if (!Line)
    return;
  for (Diagnostic &D : Findings)
    if (D.RuleId == "cuda-module-value" && !D.Fixes.empty()) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain(
          "no fix: the module assigns `torch.cuda` (line " + std::to_string(*Line) +
          "), so the module saved here may be what it puts back; ported, a host without CUDA "
          "would put its own device module in torch.cuda's place"));
    }
}

/// A safe fix of a `torch.cuda.NAME(...)` call whose module a test of the
/// project imports and runs with NAME replaced (Megatron-LM's tests run its
/// modules on the CPU with `monkeypatch.setattr(torch.cuda, "current_device",
/// lambda: "cpu")`): ported, the code no longer reaches the double, and the
/// test sees the real device or none, on CUDA too (ProjectModules.h).
void lowerCallsThatTestsReplace(llvm::StringRef Text, std::vector<Diagnostic> &Findings) {
  for (Diagnostic &D : Findings) {
    if (!hasFix(D, Level::Safe) || D.File.empty())
      continue;
    llvm::StringRef Name = calledCudaFunction(Text.slice(D.Range.Begin, D.Range.End));
    if (Name.empty())
      continue;
    if (auto Double = testDoubleOf(D.File, Name))
      makeUnsafe(D, "unsafe: " + Double->Test + " (line " + std::to_string(Double->Line) +
                        ") replaces `torch.cuda." + Name.str() +
                        "` and imports this module: ported, its code no longer reaches the "
                        "double, and the test sees the real device or none, on CUDA too");
  }
}

} // namespace

bool saysAccelerator(llvm::StringRef S) {
  static constexpr llvm::StringLiteral Words[] = {"cuda", "cudnn",  "gpu",         "accelerator",
                                                  "nccl", "triton", "isavailable", "devicecount"};
  // One pass: at each letter that starts a word, the word's letters in
  // order, any case, with underscores between them skipped.
  for (size_t I = 0, N = S.size(); I < N; ++I) {
    char C = llvm::toLower(S[I]);
    if (C != 'c' && C != 'g' && C != 'a' && C != 'n' && C != 't' && C != 'i' && C != 'd')
      continue;
    for (llvm::StringRef W : Words) {
      if (W[0] != C)
        continue;
      size_t J = I, K = 0;
      while (K < W.size() && J < N) {
        if (S[J] == '_' && K > 0) {
          ++J;
          continue;
        }
        if (llvm::toLower(S[J]) != W[K])
          break;
        ++J;
        ++K;
      }
      if (K == W.size() &&
          !(W == "accelerator" && J < N && S[J] == '.' && !S.take_front(I).endswith("torch.")))
        return true;
    }
  }
  return false;
}

bool cudaLibraryModule(llvm::StringRef Dotted) {
  return Dotted == "apex" || Dotted.startswith("apex.");
}

bool mentionsGuardedWord(llvm::StringRef Code) {
  // By byte: the words that may occur within a longer run of letters and
  // digits, in any case, by their first letter (all are letters and digits,
  // so a match lies within one run); the backends' words, which are whole
  // runs (`_`-separated parts), by the first letter of a run; and what is
  // looked for anywhere as written: `x.pin_memory()` (gpuOrPinning(); `gpu`
  // is a word above), FSDP2's `fully_shard(...)` and collectives
  // (groupWrapper()), `.load` and `.save` of any name (`torch.load(...)`,
  // `th.save(...)`: cudaOnlyCode()'s OffCuda), code ported already
  // (`accelerator.` of any name: portedPlacement(), acceleratorMemoryGuarded()).
  // One pass, with no copy of a run: a lowered copy and a search per word
  // were 2% of a check.
  struct Table {
    std::array<llvm::SmallVector<llvm::StringRef, 4>, 256> Within, Runs, Spans;
    std::array<bool, 256> Any{};
  };
  static const Table T = [] {
    Table X;
    auto Add = [](llvm::SmallVector<llvm::StringRef, 4> &To, llvm::StringRef W) {
      if (!llvm::is_contained(To, W))
        To.push_back(W);
    };
    for (llvm::ArrayRef<llvm::StringLiteral> L :
         {llvm::makeArrayRef(CudaNameWords), llvm::makeArrayRef(CudaStringWords),
          llvm::makeArrayRef(OtherGuardedWords)})
      for (llvm::StringRef W : L) {
        assert(W.size() >= 3 && llvm::all_of(W, llvm::isAlnum) && W.lower() == W);
        Add(X.Within[static_cast<unsigned char>(W[0])], W);
        Add(X.Within[static_cast<unsigned char>(llvm::toUpper(W[0]))], W);
      }
    for (llvm::StringRef W : OtherBackendWords) {
      Add(X.Runs[static_cast<unsigned char>(W[0])], W);
      Add(X.Runs[static_cast<unsigned char>(llvm::toUpper(W[0]))], W);
    }
    for (llvm::StringRef W : {"pin_memory", "fully_shard", ".load", ".save", "flex_attention",
                              "create_block_mask", "flash_attention_", "accelerator."})
      Add(X.Spans[static_cast<unsigned char>(W[0])], W);
    for (llvm::StringRef W : Collectives)
      Add(X.Spans[static_cast<unsigned char>(W[0])], W);
    for (unsigned C = 0; C < 256; ++C)
      X.Any[C] = !X.Within[C].empty() || !X.Runs[C].empty() || !X.Spans[C].empty();
    return X;
  }();
  for (size_t I = 0, N = Code.size(); I < N; ++I) {
    unsigned char C = static_cast<unsigned char>(Code[I]);
    if (!T.Any[C])
      continue;
    llvm::StringRef From = Code.drop_front(I);
    for (llvm::StringRef W : T.Within[C]) // the second letter first: `c` starts many words
      if (From.size() >= W.size() && llvm::toLower(From[1]) == W[1] &&
          From.startswith_insensitive(W))
        return true;
    for (llvm::StringRef W : T.Spans[C])
      if (From.startswith(W))
        return true;
    if (!T.Runs[C].empty() && (I == 0 || !llvm::isAlnum(Code[I - 1]))) {
      llvm::StringRef Run = From.take_while(llvm::isAlnum);
      for (llvm::StringRef W : T.Runs[C])
        if (Run.equals_insensitive(W))
          return true;
    }
  }
  return false;
}

/// Whether Call is a skip, by its callee's last name: pytest's
/// `mark.skipif`, unittest's `skipIf` and `skipUnless`.
bool skipCall(TSNode Call, llvm::StringRef Text) {
  llvm::StringRef F = is(Call, "call") ? lastName(textOf(field(Call, "function"), Text)) : "";
  return F == "skipif" || F == "skipIf" || F == "skipUnless";
}

/// The condition of the skip call Call: its first argument; null where it
/// has none (`skipif()`, half typed).
TSNode skipCondition(TSNode Call) {
  TSNode Args = field(Call, "arguments");
  return ts_node_is_null(Args) ? TSNode{} : ts_node_named_child(Args, 0);
}

/// A public module-level function that decides the skip of tests elsewhere.
struct SkipHelper {
  std::string Name;
  bool Returned; ///< It returns the marker for its caller to apply.
};

/// The public module-level function that puts a skip built from the check at
/// R on the tests it is given (`def require_torch_multi_gpu(test_case): return
/// unittest.skipUnless(torch.cuda.device_count() > 1, ...)(test_case)`,
/// diffusers' and transformers' testing utilities) or returns it for the
/// tests it decorates (torchtune's `gpu_test(gpu_count=1)`: `count =
/// torch.cuda.device_count()`, then `return pytest.mark.skipif(count <
/// gpu_count, ...)`), or nullopt. The tests are wherever it is imported, as
/// for a skip marker kept in a name.
std::optional<SkipHelper> skipHelper(TSNode Root, ByteRange R, llvm::StringRef Text) {
  std::optional<Ancestors> OwnUp;
  const Ancestors &Up = pathTo(Root, R, OwnUp);
  bool InSkip = false, Returned = false;
  llvm::StringRef Local; // the local name that the check is assigned to
  for (TSNode P = Up.parent(Up.node()); !ts_node_is_null(P); P = Up.parent(P)) {
    if (is(P, "decorator") || is(P, "lambda") || is(P, "class_definition"))
      return std::nullopt;
    if (is(P, "argument_list") && !InSkip) {
      // The skip applied there, to the function's argument: `skipUnless(...)
      // (test_case)`; or returned for the caller to apply (torchtune's
      // `return pytest.mark.skipif(...)` in `gpu_test`).
      TSNode Call = Up.parent(P), Applied = Up.parent(Call);
      if (skipCall(Call, Text)) {
        if (is(Applied, "call") && sameNode(field(Applied, "function"), Call))
          InSkip = true;
        else if (is(Applied, "return_statement"))
          InSkip = Returned = true;
      }
    }
    if (is(P, "assignment") && Local.empty() && !InSkip && is(field(P, "left"), "identifier") &&
        is(Up.parent(P), "expression_statement"))
      Local = textOf(field(P, "left"), Text);
    if (is(P, "function_definition")) {
      TSNode Holder = Up.parent(P);
      if (is(Holder, "decorated_definition"))
        Holder = Up.parent(Holder);
      llvm::StringRef Name = textOf(field(P, "name"), Text);
      if (!is(Holder, "module") || Name.startswith("_"))
        return std::nullopt;
      // `count = torch.cuda.device_count()`, then `return
      // pytest.mark.skipif(count < n, ...)` in the function's body.
      if (!InSkip && !Local.empty())
        for (TSNode S = ts_node_named_child(field(P, "body"), 0); !ts_node_is_null(S);
             S = ts_node_next_named_sibling(S)) {
          TSNode Call = is(S, "return_statement") ? ts_node_named_child(S, 0) : TSNode{};
          TSNode Condition = skipCall(Call, Text) ? skipCondition(Call) : TSNode{};
          if (ts_node_is_null(Condition))
            continue;
          bool Names = false;
          preorder(Condition, [&](TSNode N, TSTreeCursor *) {
            Names |= is(N, "identifier") && textOf(N, Text) == Local &&
                     !is(ts_node_parent(N), "keyword_argument");
            return !Names;
          });
          if (Names)
            InSkip = Returned = true;
        }
      if (!InSkip)
        return std::nullopt;
      return SkipHelper{Name.str(), Returned};
    }
  }
  return std::nullopt;
}

void reviewFixes(const NodeIndex &Index, llvm::StringRef Text, std::vector<Diagnostic> &Findings,
                 std::vector<Diagnostic> &Kept, llvm::ArrayRef<llvm::StringRef> CustomDevice,
                 const NameResolver *Resolver) {
  TSNode Root = Index.root();
  TopLevel Top(Index);
  Top.Resolver = Resolver;
  Top.CustomDevice = CustomDevice;
  CurrentTopLevel = &Top;
  auto Reset = llvm::make_scope_exit([] { CurrentTopLevel = nullptr; });
  llvm::erase_if(Findings,
                 [&](const Diagnostic &D) { return inLargerFString(Root, D.Range, Text); });
  keepNamedForCuda(Root, Text, Findings, Kept);
  Top.Findings.build(Findings);
  Top.Kept.build(Kept);
  // `.cuda(device)` with `device=None`: `.to(None)` does not move.
  for (Diagnostic &D : Findings)
    if (hasFix(D, Level::Safe))
      if (auto Name = deviceDefaultsToNone(Root, D.Range, Text);
          Name && llvm::any_of(D.Fixes, [&](const Fix &X) {
            // `.to(device=device)`, not `.to(device=torch.device(type,
            // device))`, which moves for None too.
            std::optional<std::string> After = textWithin(Text, D.Range, X);
            return After && (llvm::StringRef(*After).contains(".to(device=" + *Name + ")") ||
                             llvm::StringRef(*After).contains(".to(device=" + *Name + ","));
          }))
        makeUnsafe(D, "unsafe: `" + *Name +
                          "` defaults to None, where `.cuda(None)` moves to "
                          "the current CUDA device and `.to(None)` does not move at all, on CUDA "
                          "too");
  lowerMockedCalls(Root, Text, Findings);
  keepRestoredCudaModule(Root, Text, Findings);
  lowerCallsThatTestsReplace(Text, Findings);
  for (Diagnostic &D : Findings)
    if (hasFix(D, Level::Safe) && asksForDevices(Text.slice(D.Range.Begin, D.Range.End)))
      if (auto Helper = skipHelper(Root, D.Range, Text))
        makeUnsafe(D, "unsafe: it decides the skip that `" + Helper->Name +
                          (Helper->Returned ? "` returns for the tests it marks"
                                            : "` puts on the tests it is given") +
                          ", wherever it is imported: ported, they run on every accelerator, "
                          "whatever they need");
  // A raw CUDA handle read from the stream or event that a fix makes generic.
  for (Diagnostic &D : Findings) {
    if (D.Fixes.empty() || (D.RuleId != "cuda-current-stream" && D.RuleId != "cuda-stream-class" &&
                            D.RuleId != "cuda-event-class"))
      continue;
    if (auto Read = cudaHandleRead(Root, D.Range, Text)) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain(
          "no fix: " + *Read +
          " is the raw CUDA handle that the CUDA class has; the generic torch.Stream or "
          "torch.Event that the fix returns has none, so the port raises AttributeError on CUDA "
          "too"));
    }
  }
  // A key stays what it names (before the guards, which count it as CUDA code).
  for (Diagnostic &D : Findings) {
    if (D.Fixes.empty())
      continue;
    if (auto Key = deviceKey(Root, D.Range, Text)) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: it is a key " + *Key +
                                    ", which names where something was or is (the "
                                    "device a checkpoint was saved on, a table's entry), "
                                    "not where to run; ported, it names another device"));
    } else if (auto Of = valueOfDeviceKey(Root, D.Range, Text); Of && hasFix(D, Level::Safe)) {
      makeUnsafe(D, "unsafe on a CPU-only build: it is what `" + *Of +
                        "` maps to, where the table was built and matched nothing, and there "
                        "torch.accelerator.current_accelerator() is None (2.7+) or raises (2.6)");
    }
  }
  // Evaluation context first: a guard counts the fixes it leaves safe.
  for (Diagnostic &D : Findings) {
    if (!llvm::any_of(D.Fixes, [](const Fix &X) {
          return X.App == Applicability::Safe && replacesWithCurrentAccelerator(X);
        }))
      continue;
    if (auto Amp = selfDisablingAmp(Root, D.Range, Text, Marked{Findings, Kept}))
      makeUnsafe(D, "unsafe on a CPU-only build: `" + *Amp +
                        "(\"cuda\")` disables itself there with a warning, while "
                        "torch.accelerator.current_accelerator() raises (2.6) or is None (2.7+)");
    else if (auto Place = eagerPlace(Root, D.Range, Text))
      makeUnsafe(D, "unsafe on a CPU-only build: " + *Place +
                        ", and there torch.accelerator.current_accelerator() raises (2.6) or "
                        "is None (2.7+) where the code it replaces ran");
    else if (auto Compared = comparedOnly(Root, D.Range, Text))
      makeUnsafe(D, "unsafe on a CPU-only build: " + *Compared +
                        ", and there torch.accelerator.current_accelerator() is None (2.7+) or "
                        "raises (2.6) where the comparison ran");
    else if (auto Name = comparedThroughName(Root, D.Range, Text))
      makeUnsafe(D, "unsafe on a CPU-only build: `" + *Name +
                        "` is only compared, keyed or formatted later in its function, where "
                        "the code it replaces needed no device, and there "
                        "torch.accelerator.current_accelerator() is None (2.7+) or raises (2.6)");
    else if (auto Setting = storedSetting(Root, D.Range, Text))
      makeUnsafe(D, "unsafe on a CPU-only build: it is stored as a setting (`" + *Setting +
                        "`) that is read later, perhaps after a CPU-only run replaced it, and "
                        "there torch.accelerator.current_accelerator() raises (2.6) or is None "
                        "(2.7+) where the string did not touch the device");
    else if (auto Again = reassignedLater(Root, D.Range, Text))
      makeUnsafe(D, "unsafe on a CPU-only build: `" + Again->Name + "` is set again at line " +
                        std::to_string(Again->Line) +
                        ", so this value may be a default that a CPU-only run never used, and "
                        "there torch.accelerator.current_accelerator() raises (2.6) or is None "
                        "(2.7+)");
    else if (auto Used = usedOnlyWithAccelerator(Root, D.Range, Text)) {
      // The guards of its uses: ported alone, they let other accelerators
      // use the CUDA string it keeps.
      if (const TopLevel *T = topLevelOf(Root))
        T->UnsafeValues.push_back({Used->Name, Used->Scope});
      makeUnsafe(D, "unsafe on a CPU-only build: `" + Used->Name +
                        "` is used only where a condition says an accelerator (line " +
                        std::to_string(Used->Line) +
                        " on), so a CPU-only run made it and never used it, and there "
                        "torch.accelerator.current_accelerator() raises (2.6) or is None (2.7+)");
    } else if (auto Fake = heldByDouble(Root, D.Range, Text))
      makeUnsafe(D, "unsafe on a CPU-only build: it is data of a test double (" + *Fake +
                        "), which never touched the device, and there "
                        "torch.accelerator.current_accelerator() raises (2.6) or is None (2.7+)");
    else if (auto Test = unskippedTest(Root, D.Range, Text, Marked{Findings, Kept}))
      makeUnsafe(D, "unsafe on a CPU-only build: nothing skips `" + *Test +
                        "` without an accelerator, so a CPU-only CI runs it (where it passed, "
                        "the device was never used), and there "
                        "torch.accelerator.current_accelerator() raises (2.6) or is None (2.7+)");
  }
  // A `torch.cuda.device(i)` object given to a call that the fix makes a
  // torch.accelerator one: torch.cuda's functions read its index, but
  // torch.accelerator's take an int, a str or a torch.device only
  // (`set_device_index` raises ValueError, on CUDA too; `synchronize` waits
  // for the current device instead). nanotron's ParallelContext:
  // `torch.cuda.set_device(torch.cuda.device(device_id))`. No fix, whatever
  // the object's own rule does with it.
  for (Diagnostic &D : Findings) {
    if (!hasFix(D, Level::Unsafe) || !llvm::any_of(D.Fixes, [](const Fix &X) {
          return llvm::any_of(X.Edits, [](const Edit &E) {
            return llvm::StringRef(E.Replacement).contains("accelerator");
          });
        }))
      continue;
    const Grammar &G = Grammar::get();
    TSNode Call = descendantFor(Root, D.Range.Begin, D.Range.End);
    if (ts_node_is_null(Call) || ts_node_symbol(Call) != G.Call)
      continue;
    TSNode Args = ts_node_child_by_field_id(Call, G.FArguments);
    if (ts_node_is_null(Args))
      continue;
    std::optional<TSNode> Object;
    for (uint32_t I = 0, N = ts_node_named_child_count(Args); !Object && I < N; ++I) {
      TSNode A = ts_node_named_child(Args, I);
      if (ts_node_symbol(A) == G.KeywordArgument)
        A = ts_node_child_by_field_id(A, G.FValue);
      if (ts_node_is_null(A) || ts_node_symbol(A) != G.Call)
        continue;
      ByteRange R = rangeOf(A);
      TSNode Callee = ts_node_child_by_field_id(A, G.FFunction);
      bool Found = !ts_node_is_null(Callee) &&
                   torchMember(textOf(Callee, Text)) == llvm::StringRef("cuda.device");
      Top.Findings.forEach(R, /*Holding=*/false, /*Inside=*/true, [&](size_t J) {
        Found |= Findings[J].RuleId == "cuda-device-context" && Findings[J].Range == R;
        return Found;
      });
      if (Found)
        Object = A;
    }
    if (!Object)
      continue;
    D.Fixes.clear();
    D.Notes.push_back(Note::plain("no fix: its device is a `torch.cuda.device` object (`" +
                                  textOf(*Object, Text).str() +
                                  "`), whose index torch.cuda reads but torch.accelerator does "
                                  "not: it takes an int, a str or a torch.device; pass the index"));
  }
  // `.cuda()` on an object whose class has its own (ownCudaMethod()).
  for (Diagnostic &D : Findings) {
    if (D.Fixes.empty() || !llvm::StringRef(D.RuleId).startswith("cuda-method"))
      continue;
    std::optional<OwnCuda> Own = ownCudaMethod(Root, D.Range, Text);
    if (!Own)
      continue;
    if (Own->Line == 0) {
      makeUnsafe(D, "unsafe: `" + Own->Receiver + "` is a bitsandbytes " + Own->Class +
                        ", whose cuda() quantizes it in place before bitsandbytes 0.46, while "
                        "to() on a weight already on the device returns a new, unquantized copy");
      continue;
    }
    D.Fixes.clear();
    D.Notes.push_back(Note::plain("no fix: `" + Own->Receiver + "` is a `" + Own->Class +
                                  "`, whose class defines its own cuda() (line " +
                                  std::to_string(Own->Line) + "); to() is another method"));
  }
  // A fix in the arguments of a torch.cuda call found by another rule is
  // only as good as that call's (`torch.cuda.max_memory_allocated(device=
  // "cuda:0")`: the device ported alone names another accelerator to a CUDA
  // function, and raises on a CPU-only build where the call returned 0).
  for (Diagnostic &D : Findings) {
    if (D.Fixes.empty())
      continue;
    const Diagnostic *Outer = nullptr;
    Top.Findings.forEach(D.Range, /*Holding=*/true, /*Inside=*/false, [&](size_t I) {
      const Diagnostic &O = Findings[I];
      if (&O != &D && O.Range != D.Range &&
          startsWithCudaModule(Text.slice(O.Range.Begin, O.Range.End)) &&
          (!Outer || Outer->Range.contains(O.Range)))
        Outer = &O;
      return false;
    });
    if (!Outer)
      continue;
    std::string Call = Text.slice(Outer->Range.Begin, Outer->Range.End)
                           .take_until([](char C) { return C == '('; })
                           .str();
    if (!hasFix(*Outer, Level::Unsafe)) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: it is an argument of `" + Call +
                                    "`, which stays CUDA; port the call and this together"));
    } else if (!hasFix(*Outer, Level::Safe) && hasFix(D, Level::Safe)) {
      makeUnsafe(D, "unsafe: it is an argument of `" + Call +
                        "`, whose own fix is unsafe; ported alone it names another device to a "
                        "CUDA function");
    }
  }
  // A value in a dict literal that a comparison compares is expected data,
  // not a device that code picks (lm-evaluation-harness's CLI test: `assert
  // args.model_args == {"pretrained": "gpt2", "device": "cuda"}` after
  // parsing `device=cuda`): ported, it no longer equals what the same input
  // gives, on any host but CUDA.
  for (Diagnostic &D : Findings) {
    if (D.Fixes.empty())
      continue;
    std::optional<Ancestors> OwnUp;
    const Ancestors &Up = pathTo(Root, D.Range, OwnUp);
    for (TSNode X = Up.node(), P = Up.parent(X); !ts_node_is_null(P); X = P, P = Up.parent(P)) {
      if (is(X, "dictionary") && is(P, "comparison_operator")) {
        D.Fixes.clear();
        D.Notes.push_back(Note::plain("no fix: it is a value of a dict that a comparison compares "
                                      "(expected data, not a device that code picks); ported "
                                      "alone it no longer equals what the code gives"));
        break;
      }
      if (is(P, "block") || is(P, "module") || is(P, "lambda"))
        break;
    }
  }
  // A check whose value turns on half precision or autocast, by the name it
  // is stored in or handed to (yolov5's val.py: `opt.half =
  // torch.cuda.is_available() and opt.device != "cpu"`, then float16
  // wherever its own device selection put the model, the CPU on an XPU
  // host; `fit(use_amp=torch.cuda.is_available())`).
  for (Diagnostic &D : Findings) {
    if (D.RuleId != "cuda-is-available" || !hasFix(D, Level::Safe))
      continue;
    std::optional<Ancestors> OwnUp;
    const Ancestors &Up = pathTo(Root, D.Range, OwnUp);
    auto [N, P] = climb(Up, {"boolean_operator", "not_operator", "parenthesized_expression",
                             "comparison_operator"});
    // `True if torch.cuda.is_available() else False` (GFPGAN's and
    // Real-ESRGAN's cog predictors: `half = ...`): the check's value.
    if (booleanPick(P, N)) {
      N = P;
      P = Up.parent(P);
      while (is(P, "parenthesized_expression")) {
        N = P;
        P = Up.parent(P);
      }
    }
    llvm::StringRef Name;
    if (is(P, "assignment") && sameNode(field(P, "right"), N))
      Name = lastName(textOf(field(P, "left"), Text));
    else if (is(P, "keyword_argument") && sameNode(field(P, "value"), N))
      Name = textOf(field(P, "name"), Text);
    static constexpr llvm::StringLiteral Precision[] = {"half", "fp16", "amp", "autocast"};
    if (!Name.empty() && hasNameWord(Name, Precision))
      makeUnsafe(D, "unsafe: its value turns on half precision or autocast (`" + Name.str() +
                        "`): ported, other accelerators, and the CPU where the code's own device "
                        "choice leaves the model, compute in float16 where they computed in "
                        "float32");
  }
  // The same through a name: a fix in the value of an assignment whose name
  // a call that another rule finds takes as an argument, where that call
  // stays CUDA or its fix is unsafe (lerobot's MolmoAct2 adapters: `devices
  // = [torch.cuda.current_device()] if torch.cuda.is_available() else []`,
  // then `torch.random.fork_rng(devices=devices)`, which forks CUDA's
  // generators of those devices while its own fix is unsafe).
  // The names that such a call or comparison takes, which alone are worth
  // following (a scope's uses are a walk of the whole scope).
  llvm::StringSet<> Taken;
  auto NoteName = [&](TSNode N) {
    if (is(N, "identifier") || is(N, "attribute"))
      Taken.insert(textOf(N, Text));
  };
  auto NoteTaken = [&](const Diagnostic &O) {
    TSNode N = descendantFor(Root, O.Range.Begin, O.Range.End);
    if (is(N, "call"))
      if (TSNode Args = field(N, "arguments"); !ts_node_is_null(Args))
        for (uint32_t I = 0, C = ts_node_named_child_count(Args); I < C; ++I) {
          TSNode A = ts_node_named_child(Args, I);
          NoteName(is(A, "keyword_argument") ? field(A, "value") : A);
        }
    // `self.device in ["cuda", "npu"]`: a comparison a few levels up.
    TSNode P = N;
    for (int K = 0; K < 4 && !ts_node_is_null(P) && !is(P, "comparison_operator"); ++K)
      P = ts_node_parent(P);
    if (is(P, "comparison_operator"))
      for (uint32_t I = 0, C = ts_node_named_child_count(P); I < C; ++I)
        NoteName(ts_node_named_child(P, I));
  };
  for (const Diagnostic &O : Findings)
    if (!hasFix(O, Level::Safe))
      NoteTaken(O);
  for (const Diagnostic &K : Kept)
    NoteTaken(K);
  for (Diagnostic &D : Findings) {
    if (Taken.empty())
      break;
    if (!hasFix(D, Level::Safe))
      continue;
    std::optional<Ancestors> OwnUp;
    const Ancestors &Up = pathTo(Root, D.Range, OwnUp);
    TSNode A{};
    for (TSNode P = Up.parent(Up.node()); !ts_node_is_null(P); P = Up.parent(P)) {
      if (is(P, "assignment")) {
        if (contains(field(P, "right"), D.Range))
          A = P;
        break;
      }
      if (is(P, "block") || is(P, "module") || is(P, "function_definition") || is(P, "lambda"))
        break;
    }
    if (ts_node_is_null(A) || !Taken.count(textOf(field(A, "left"), Text)))
      continue;
    std::unique_ptr<ScopeIndex> Local;
    const Diagnostic *Taker = nullptr;
    unsigned ComparedAt = 0; // the line of a comparison that takes the name
    for (TSNode U : usesOfAssigned(Root, Up, A, Text, Local)) {
      TSNode P = ts_node_parent(U);
      // A comparison with a device check that stays CUDA (verl's `self.device
      // = "cuda"`, then `if self.device in ["cuda", "npu"]:`): ported alone,
      // the name no longer passes it on other accelerators.
      if (is(P, "comparison_operator")) {
        Top.Findings.forEach(rangeOf(P), /*Holding=*/false, /*Inside=*/true, [&](size_t I) {
          const Diagnostic &O = Findings[I];
          if (&O != &D && !hasFix(O, Level::Safe))
            Taker = &O;
          return Taker != nullptr;
        });
        if (Taker) {
          ComparedAt = lineOf(Text, ts_node_start_byte(P));
          break;
        }
        continue;
      }
      if (is(P, "keyword_argument") && sameNode(field(P, "value"), U))
        P = ts_node_parent(P);
      if (!is(P, "argument_list"))
        continue;
      ByteRange Call = rangeOf(ts_node_parent(P));
      Top.Findings.forEach(Call, /*Holding=*/true, /*Inside=*/false, [&](size_t I) {
        const Diagnostic &O = Findings[I];
        if (O.Range == Call && &O != &D && !hasFix(O, Level::Safe))
          Taker = &O;
        return Taker != nullptr;
      });
      // A call that a keep rule keeps CUDA (`torch.cuda.get_device_capability(i)`).
      Top.Kept.forEach(Call, /*Holding=*/true, /*Inside=*/false, [&](size_t I) {
        if (!Taker && Kept[I].Range == Call)
          Taker = &Kept[I];
        return Taker != nullptr;
      });
      if (Taker)
        break;
    }
    if (!Taker)
      continue;
    std::string Name = "`" + textOf(field(A, "left"), Text).str() + "`";
    bool Stays = !hasFix(*Taker, Level::Unsafe);
    std::string Why;
    if (ComparedAt) {
      Why = Name + " is compared at line " + std::to_string(ComparedAt) +
            " with a device check that " +
            (Stays ? "stays CUDA; ported alone, other accelerators no longer pass it; port the "
                     "check and this together"
                   : "only an unsafe fix ports");
    } else {
      llvm::StringRef Call =
          Text.slice(Taker->Range.Begin, Taker->Range.End).take_until([](char C) {
            return C == '(';
          });
      Why = Name + " goes to `" + Call.str() + "` (line " +
            std::to_string(lineOf(Text, Taker->Range.Begin)) + "), " +
            (Stays ? "which stays CUDA; port the call and this together"
                   : "whose own fix is unsafe; ported alone it names another device to a CUDA "
                     "function");
    }
    if (Stays) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: " + Why));
    } else {
      makeUnsafe(D, "unsafe: " + Why);
    }
  }
  // A fix under a CUDA device check that stays, or beside one in the same
  // `and`/`or`, would port one side of it; a per-backend ladder's guard
  // beside one is the ladder's (`if "cuda" in dev and torch.cuda...: elif
  // "npu" in dev and torch.npu...:`).
  for (size_t I = 0; I < Findings.size(); ++I) {
    Diagnostic &D = Findings[I];
    if (D.Fixes.empty())
      continue;
    std::optional<CudaCheck> Check = underCudaCheck(Root, D.Range, Text, Findings);
    if (Check && Check->Beside)
      if (auto G = guardAt(Root, D.Range, I, Text); G && !ts_node_is_null(G->Ladder))
        Check.reset();
    if (Check) {
      TSNode Cond = expressionOf(Root, Check->String);
      Ancestors Up(Root, Cond);
      for (TSNode P = Up.parent(Cond); !ts_node_is_null(P); P = Up.parent(P)) {
        if (!is(P, "comparison_operator") && !is(P, "call") && !is(P, "argument_list"))
          break;
        Cond = P;
      }
      std::string Where = "`" + snippet(Cond, Text) + "`, line " +
                          std::to_string(lineOf(Text, ts_node_start_byte(Check->String)));
      if (Check->Unsafe) {
        // Ported with the check's own unsafe fix, the two agree.
        if (hasFix(D, Level::Safe))
          makeUnsafe(D, "unsafe: it depends on a CUDA device check that only an unsafe fix "
                        "ports (" +
                            Where + "); port the check and this together");
        continue;
      }
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: it depends on a CUDA device check that stays (" +
                                    Where + "); port the check and this together"));
    }
  }
  // A value passed as a keyword named for CUDA means CUDA to the callee. A
  // check in an allow-list (`torch.cuda.is_available() or torch.xpu.
  // is_available()`) names the backends the code supports: ported, it would
  // admit every accelerator, those the list leaves out too (as the C++
  // review, matchers/cpp/Review.h). A per-backend ladder's is the ladder's.
  // One walk up from each fixable finding serves both.
  for (size_t I = 0; I < Findings.size(); ++I) {
    Diagnostic &D = Findings[I];
    if (D.Fixes.empty())
      continue;
    std::optional<Ancestors> OwnUp;
    const Ancestors &Up = pathTo(Root, D.Range, OwnUp);
    if (auto Name = cudaKeyword(Up, Text)) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: it is passed as `" + *Name +
                                    "`, which the callee reads as CUDA; rewritten, it "
                                    "would ask for CUDA on other accelerators"));
      continue;
    }
    if (auto Use = cudaKeywordThroughName(Root, Up, Text)) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: its value reaches `" + Use->Keyword + "=` (line " +
                                    std::to_string(Use->Line) + ") through " + Use->Through +
                                    ", which the callee reads as CUDA; rewritten, it would "
                                    "ask for CUDA on other accelerators"));
      continue;
    }
    // (A list of backends, `skipIf(torch.cuda.is_available() or
    // torch.xpu.is_available(), ...)`, gets no fix below.)
    if (skipsWithCuda(Up, Text) && !allowListEntry(Up, Text)) {
      makeUnsafe(D, "unsafe: the skip applies where CUDA is there; rewritten, it would skip the "
                    "test on every accelerator (MPS, XPU), where it ran before");
      continue;
    }
    if (auto Line = pickReachesCollective(Up, Text)) {
      makeUnsafe(D, "unsafe: the device it picks is followed by a collective (line " +
                        std::to_string(*Line) +
                        "); where it picked the CPU, a gloo group took CPU tensors, and ported, "
                        "a Mac hands it MPS tensors, which gloo does not take");
      continue;
    }
    if (auto Param = pickIsDefault(Up, Text)) {
      makeUnsafe(D, "unsafe: it picks the default of " + *Param +
                        ": callers that rely on it get another device on a Mac or an XPU host, "
                        "where their own inputs stay where they were");
      continue;
    }
    if (auto Word = decidesMixedPrecision(Up, Text)) {
      makeUnsafe(D, "unsafe: its condition decides mixed precision (`" + *Word +
                        "`): fp16 autocast off CUDA is not CUDA's (accelerate refuses fp16 on "
                        "MPS before 1.11), and ported, other accelerators take that path");
      continue;
    }
    if (auto Line = pickDecidesSkip(Root, Up, Text)) {
      makeUnsafe(D, "unsafe: where it picked \"cpu\", the code skipped or exited (line " +
                        std::to_string(*Line) +
                        "); ported, other accelerators pass the check and run what only CUDA "
                        "ran");
      continue;
    }
    if (auto Use = deviceReachesFloat64(Root, Up, Text)) {
      makeUnsafe(D, "unsafe: the device it picks reaches float64 or float8 (line " +
                        std::to_string(Use->Line) + Use->Why.str() +
                        "); where it picked the CPU, a Mac now gets MPS, which has neither");
      continue;
    }
    if (auto Line = pickMakesMesh(Root, Up, Text)) {
      makeUnsafe(D, "unsafe: the device type it picks makes a device mesh (line " +
                        std::to_string(*Line) +
                        "); where it picked \"cpu\", a Mac now makes an \"mps\" mesh, which "
                        "DeviceMesh cannot set up in releases after 2.6 (it asks the device "
                        "module's is_initialized(), which torch.mps lacks) and whose gloo group "
                        "takes CPU and CUDA tensors only");
      continue;
    }
    if (auto Line = deviceComparedWithTensors(Root, Up, Text)) {
      makeUnsafe(D, "unsafe: the device it picks, with no index, is compared with a tensor's "
                    "`.device` (line " +
                        std::to_string(*Line) +
                        "); where it picked the CPU both had none, where a tensor on MPS or XPU "
                        "says `mps:0` against the picked `mps`");
      continue;
    }
    if (auto Line = savedDeviceLocation(Root, Up, Text)) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain(
          "no fix: where it holds it passes `map_location=None` (line " + std::to_string(*Line) +
          "), which loads each tensor back where it was saved: CUDA, for a checkpoint saved on "
          "a GPU; rewritten, other accelerators would load such a checkpoint to CUDA and fail "
          "where it loaded to the CPU"));
      continue;
    }
    std::optional<TSNode> Entry = allowListEntry(Up, Text);
    if (!Entry)
      continue;
    if (auto G = guardAt(Root, D.Range, I, Text); G && !ts_node_is_null(G->Ladder))
      continue;
    D.Fixes.clear();
    D.Notes.push_back(Note::plain(
        "no fix: it is one of a list of backends (`" + snippet(expressionOf(Root, *Entry), Text) +
        "`, line " + std::to_string(lineOf(Text, ts_node_start_byte(*Entry))) +
        "); rewritten, it would let every accelerator through, those the list leaves out too"));
  }
  // `not torch.cuda.is_available() or torch.cuda.get_device_capability() <
  // (9, 0)` (thunder's op database, at import): the other operand runs only
  // where the check let it, and a query there that stays CUDA and raises
  // without it (the capability, a device's properties or name) would run on
  // a Mac once the check is ported.
  for (size_t I = 0; I < Findings.size(); ++I) {
    Diagnostic &D = Findings[I];
    if (D.Fixes.empty()) // (an unsafe one too: the skip rule's, above)
      continue;
    if (!asksForDevices(Text.slice(D.Range.Begin, D.Range.End)))
      continue;
    std::optional<Ancestors> Own;
    const Ancestors &Up = pathTo(Root, D.Range, Own);
    auto [N, P] = climb(Up, {"not_operator", "parenthesized_expression", "comparison_operator"});
    if (!is(P, "boolean_operator"))
      continue;
    // The check as a later operand (`flag and torch.cuda.is_available() and
    // torch.cuda.get_device_capability()[0] >= 7`, diffusers' GGUF quantizer
    // at import): what it precedes in the chain, not what precedes it.
    bool Left = sameNode(field(P, "left"), N);
    if (!Left && !sameNode(field(P, "right"), N))
      continue;
    llvm::StringRef Op = textOf(field(P, "operator"), Text);
    if ((Op == "and") == negatedBelow(Up, P))
      continue; // the other operand runs where there is no accelerator
    // `a and b and c` is `(a and b) and c`: every right operand up the
    // chain of the same operator runs after the check (torchao's `if
    // torch.cuda.is_available() and dtype == torch.bfloat16 and
    // torch.cuda.get_device_capability() < (8, 0): self.skipTest(...)`).
    llvm::SmallVector<ByteRange, 2> Others;
    if (Left)
      Others.push_back(rangeOf(field(P, "right")));
    for (TSNode Q = P, A = Up.parent(P);
         is(A, "boolean_operator") && sameNode(field(A, "left"), Q) &&
         textOf(field(A, "operator"), Text) == Op;
         Q = A, A = Up.parent(A))
      Others.push_back(rangeOf(field(A, "right")));
    std::optional<ByteRange> Stays;
    for (ByteRange Other : Others) {
      if (Stays)
        break;
      // What raises without CUDA: the capability and property queries (not
      // `torch.version.hip`, `is_initialized()`, `is_bf16_supported()`).
      Top.Kept.forEach(Other, /*Holding=*/false, /*Inside=*/true, [&](size_t K) {
        if (Kept[K].RuleId == "keep-device-capability")
          Stays = Kept[K].Range;
        return Stays.has_value();
      });
      if (!Stays)
        Top.Findings.forEach(Other, /*Holding=*/false, /*Inside=*/true, [&](size_t J) {
          const Diagnostic &F = Findings[J];
          if (J != I && !hasFix(F, Level::Safe) &&
              startsWithCudaModule(Text.slice(F.Range.Begin, F.Range.End), "get_device_"))
            Stays = F.Range;
          return Stays.has_value();
        });
    }
    if (!Stays)
      continue;
    D.Fixes.clear();
    // Why an earlier step made the fix unsafe no longer applies: there is none.
    llvm::erase_if(D.Notes,
                   [](const Note &X) { return llvm::StringRef(X.Text).startswith("unsafe: "); });
    D.Notes.push_back(
        Note::plain("no fix: it decides whether `" +
                    snippet(descendantFor(Root, Stays->Begin, Stays->End), Text) + "` (line " +
                    std::to_string(lineOf(Text, Stays->Begin)) +
                    ") runs, which stays CUDA; rewritten, it would run it on other accelerators"));
  }
  // Guards, innermost first: a guard inside another's block is reviewed
  // before the outer one counts its fix.
  std::vector<Guard> Guards;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Findings[I].Fixes.empty()) {
      if (auto G = guardAt(Root, Findings[I].Range, I, Text))
        Guards.push_back(std::move(*G));
      else if (auto FG = flagGuard(Root, Findings[I].Range, I, Text))
        Guards.push_back(std::move(*FG));
    } else if (llvm::any_of(Findings[I].Notes,
                            [](const Note &N) { return N.K == Note::Kind::NoFixForTarget; })) {
      // A check that the target release cannot port heads a per-backend
      // ladder all the same (accelerate's examples, torch>=2.0): the ladder
      // is kept whole, as at a release that can.
      if (auto G = guardAt(Root, Findings[I].Range, I, Text); G && !ts_node_is_null(G->Ladder))
        Guards.push_back(std::move(*G));
    }
  std::sort(Guards.begin(), Guards.end(), [&](const Guard &A, const Guard &B) {
    return Findings[A.Finding].Range.Begin > Findings[B.Finding].Range.Begin;
  });
  std::vector<bool> Laddered(Findings.size(), false);
  // Keeps LR, a ladder that the finding D heads or is in, with every finding
  // in it: Other (a condition, or a comment where ByComment) says which
  // other backend it selects, at OtherAt.
  auto KeepLadder = [&](const Diagnostic &D, ByteRange LR, std::string Other, uint32_t OtherAt,
                        bool ByComment) {
    Diagnostic K;
    K.RuleId = D.RuleId;
    K.File = D.File;
    K.Range = LR;
    K.Sev = Severity::Info;
    if (Other.size() > 60)
      Other = Other.substr(0, 57) + "...";
    std::string Line = std::to_string(lineOf(Text, OtherAt));
    K.Message = ByComment ? "the comment `" + Other + "` (line " + Line +
                                ") sends another backend to the fallback on purpose: kept"
                          : "a per-backend ladder (`" + Other + "`, line " + Line +
                                ") already selects per backend: kept";
    for (size_t I = 0; I < Findings.size(); ++I)
      if (LR.contains(Findings[I].Range) && !Laddered[I]) {
        Laddered[I] = true;
        K.Keeps.push_back({Findings[I].RuleId, Findings[I].Range});
      }
    Kept.push_back(std::move(K));
  };
  for (const Guard &G : Guards) {
    Diagnostic &D = Findings[G.Finding];
    if (Laddered[G.Finding])
      continue;
    if (!ts_node_is_null(G.Ladder)) {
      // The ladder and every finding in it are kept as they are.
      ByteRange LR = rangeOf(G.Ladder);
      LR.End = std::max(LR.End, G.LadderEnd);
      if (ts_node_is_null(G.OtherBackend))
        KeepLadder(D, LR, Text.slice(G.OtherBackendComment.Begin, G.OtherBackendComment.End).str(),
                   G.OtherBackendComment.Begin, /*ByComment=*/true);
      else
        KeepLadder(D, LR, snippet(expressionOf(Root, G.OtherBackend), Text),
                   ts_node_start_byte(G.OtherBackend), /*ByComment=*/false);
      // A flag that heads it, assigned elsewhere (xtuner's module-level
      // `is_cuda_available = torch.cuda.is_available()`): kept with it.
      if (!LR.contains(D.Range) && !Laddered[G.Finding]) {
        Laddered[G.Finding] = true;
        Kept.back().Keeps.push_back({D.RuleId, D.Range});
      }
      continue;
    }
    if (!G.NamedForCuda.empty()) {
      D.Fixes.clear();
      D.Notes.push_back(Note::plain("no fix: it guards `" + G.NamedForCuda +
                                    "`, which is named for CUDA; rewriting the check would run "
                                    "it on other accelerators"));
      continue;
    }
    if (!G.CpuFallback.empty()) {
      makeUnsafe(D, "unsafe: it guards a CPU fallback (`" + G.CpuFallback +
                        " = \"cpu\"`) that protects a CUDA default set elsewhere; on MPS or XPU "
                        "the fallback no longer applies and that default stays, unless it is "
                        "ported too");
      continue;
    }
    std::string What = G.Flag.empty() ? "the code it guards" : "`" + G.Flag + "` guards code that";
    std::string OffCuda;
    std::string Left = cudaOnlyCode(Root, Text, G, Findings, Kept, Level::Safe, &OffCuda);
    if (Left.empty())
      if (auto Memory = acceleratorMemoryGuarded(G, Findings, Text)) {
        makeUnsafe(D, "unsafe: " + What + " calls `" + Memory->Function +
                          (Memory->Ported ? "` (line " : "` once ported (line ") +
                          std::to_string(Memory->Line) +
                          "), which MPS does not implement (pytorch#167447): ported, a Mac "
                          "passes the check and raises there");
        continue;
      }
    if (Left.empty() && !OffCuda.empty() && !macStaysOut(Root, D.Range, Text, G)) {
      makeUnsafe(D, "unsafe: " + What + " " + OffCuda);
      continue;
    }
    if (Left.empty() && G.Exported) {
      // TEST_CUDA and co. are imported by modules devport does not see here.
      makeUnsafe(D, "unsafe: `" + G.Flag + "` is a module constant that other modules may "
                    "import; their uses of it are not checked here");
      continue;
    }
    if (Left.empty())
      if (auto Constant = exportedDecided(Root, G, D.Range, Text)) {
        makeUnsafe(D, "unsafe: it decides `" + Constant->first + "` (line " +
                          std::to_string(Constant->second) +
                          "), a module constant that other modules may import; their uses of it "
                          "are not checked here");
        continue;
      }
    if (Left.empty() && !ts_node_is_null(G.Opaque)) {
      makeUnsafe(D, "unsafe: where it picked \"cpu\", other accelerators now get `" +
                        snippet(G.Opaque, Text) +
                        "`, a value devport does not follow; if it is CUDA's (an option that "
                        "defaults to \"cuda\"), the code fails there where it ran on the CPU");
      continue;
    }
    if (Left.empty()) {
      std::string Neutral = neutralName(G.Flag);
      if (!G.Flag.empty() && Neutral != G.Flag)
        D.Notes.push_back(Note::plain("`" + G.Flag +
                                      "` now means any accelerator; a neutral name such as `" +
                                      Neutral + "` would say so (devport does not rename)"));
      continue;
    }
    std::string LeftUnsafe = cudaOnlyCode(Root, Text, G, Findings, Kept, Level::Unsafe);
    if (LeftUnsafe.empty()) {
      makeUnsafe(D, "unsafe: " + What + " is portable only after the unsafe fixes (" + Left +
                        "); rewriting the check alone would run it on other accelerators");
      continue;
    }
    D.Fixes.clear();
    // Why an earlier step made the fix unsafe no longer applies: there is none.
    llvm::erase_if(D.Notes,
                   [](const Note &X) { return llvm::StringRef(X.Text).startswith("unsafe: "); });
    D.Notes.push_back(Note::plain("no fix: " + What + " is CUDA-only: " + LeftUnsafe +
                                  "; rewriting the check would run it on other accelerators"));
  }
  // The same check guarding two places of one function decides both: the
  // MetricLogger of torchvision's references (DINOv2, DETR, DeiT, MAE...)
  // adds "max mem: {memory:.0f}" to a format under one `if
  // torch.cuda.is_available():` and passes `memory=torch.cuda.
  // max_memory_allocated()` under the next, whose fix is unsafe: ported
  // alone, the first asks a Mac for a `{memory}` that the second no longer
  // gives (KeyError). A safe guard whose twin keeps CUDA is unsafe.
  {
    struct Twin {
      size_t Finding;
      uintptr_t Scope;
      /// A conditional expression's statement (empty for an `if`): two of
      /// them go together in one statement, or where one's value is
      /// assigned to a name that the other's statement reads (`kind = "gpu"
      /// if ... else "cpu"`, then `Trainer(kind, precision="amp" if ...)`);
      /// not `rank = f"cuda:{r}" if ...` beside `workers = n if ... else 0`,
      /// separate choices.
      ByteRange Statement;
      llvm::StringRef Assigned; ///< The name its statement assigns, if one.
      llvm::StringRef Check;
    };
    struct SkipMark {
      size_t Finding;
      TSNode Scope; ///< The decorated definition, or the `pytestmark` assignment.
      TSNode Call;  ///< The skip call.
      llvm::StringRef Check;
    };
    std::vector<SkipMark> Skips;
    auto GoTogether = [&](const Twin &A, const Twin &B) {
      if (A.Statement.empty() || B.Statement.empty() || A.Statement == B.Statement)
        return true;
      auto Reads = [&](const Twin &X, const Twin &Y) {
        return !X.Assigned.empty() && findWord(Text.slice(Y.Statement.Begin, Y.Statement.End),
                                               X.Assigned) != llvm::StringRef::npos;
      };
      return Reads(A, B) || Reads(B, A);
    };
    // Every finding in such a condition: one whose fix an earlier step took
    // (a CUDA device check beside it, fairscale's `backend == "nccl" and
    // torch.cuda.device_count() < world_size`) keeps CUDA as well.
    std::vector<Twin> Twins;
    for (size_t I = 0; I < Findings.size(); ++I) {
      if (Laddered[I])
        continue;
      ByteRange R = Findings[I].Range;
      llvm::StringRef Check = Text.slice(R.Begin, R.End);
      if (!asksForDevices(Check))
        continue;
      std::optional<Ancestors> Own;
      const Ancestors &Up = pathTo(Root, R, Own);
      // The condition of an `if` (or `elif`) in a function's body: a
      // decorator's guards its own test. Or of a conditional expression,
      // in a function or in one statement at module level: two values
      // picked by one check go together (composer's profiler demo,
      // `Trainer(device="gpu" if torch.cuda.is_available() else "cpu",
      // precision="amp_fp16" if torch.cuda.is_available() else "fp32")`).
      auto [N, C] = climb(Up, {"boolean_operator", "not_operator", "parenthesized_expression",
                               "comparison_operator"});
      bool Conditional = is(C, "conditional_expression") && ts_node_named_child_count(C) == 3 &&
                         sameNode(ts_node_named_child(C, 1), N);
      // The condition of a skip mark, where another mark applies to the same
      // test: the decorators of one definition, or the entries of one
      // `pytestmark` list (axolotl's `skipif(not torch.cuda.is_available())`
      // beside `skipif(torch.cuda.is_available() and torch.cuda.
      // get_device_properties(0).total_memory < 24e9)`, a memory gate that
      // stays CUDA: ported alone, the first lets other accelerators in and
      // the second no longer holds them back).
      if (TSNode Call = Up.parent(C);
          is(C, "argument_list") && sameNode(ts_node_named_child(C, 0), N) && is(Call, "call")) {
        if (!skipCall(Call, Text))
          continue;
        TSNode Scope{};
        TSNode P = Up.parent(Call);
        if (is(P, "decorator")) {
          Scope = Up.parent(P);
        } else if (is(P, "list") || is(P, "tuple")) {
          TSNode A = Up.parent(P);
          if (is(A, "assignment") && textOf(field(A, "left"), Text) == "pytestmark")
            Scope = A;
        }
        if (!ts_node_is_null(Scope))
          Skips.push_back({I, Scope, Call, Check});
        continue;
      }
      if (!Conditional &&
          (!(is(C, "if_statement") || is(C, "elif_clause")) || !sameNode(field(C, "condition"), N)))
        continue;
      TSNode Scope{}, Statement{};
      for (TSNode P = Up.parent(C); !ts_node_is_null(P); P = Up.parent(P)) {
        if (is(P, "decorator") || is(P, "class_definition"))
          break;
        if (is(P, "function_definition")) {
          Scope = P;
          break;
        }
        TSNode Holder = Up.parent(P);
        if (ts_node_is_null(Statement) && (is(Holder, "block") || is(Holder, "module")))
          Statement = P;
      }
      if (ts_node_is_null(Scope) && Conditional && !ts_node_is_null(Statement) &&
          is(Up.parent(Statement), "module"))
        Scope = Statement;
      if (ts_node_is_null(Scope) || (Conditional && ts_node_is_null(Statement)))
        continue; // (a conditional in a parameter's default: no statement)
      Twin T{I, reinterpret_cast<uintptr_t>(Scope.id), {}, {}, Check};
      if (Conditional) {
        T.Statement = rangeOf(Statement);
        TSNode Assignment = ts_node_named_child(Statement, 0);
        // A name, or an attribute of one (mmpretrain's TorchServe handler:
        // `self.map_location = 'cuda' if ... else 'cpu'`, read by the next
        // statement's `torch.device(self.map_location + ':' + ... if ...)`).
        if (is(Statement, "expression_statement") && is(Assignment, "assignment") &&
            boundName(field(Assignment, "left"), Text))
          T.Assigned = textOf(field(Assignment, "left"), Text);
      }
      Twins.push_back(T);
    }
    for (const Twin &A : Twins) {
      Diagnostic &D = Findings[A.Finding];
      if (!hasFix(D, Level::Safe))
        continue;
      for (const Twin &B : Twins)
        if (B.Finding != A.Finding && B.Scope == A.Scope && sameCode(B.Check, A.Check) &&
            GoTogether(A, B) && !hasFix(Findings[B.Finding], Level::Safe)) {
          makeUnsafe(D, "unsafe: the same check at line " +
                            std::to_string(lineOf(Text, Findings[B.Finding].Range.Begin)) +
                            " keeps CUDA; ported alone, this one would disagree with it on other "
                            "accelerators (what one guard prepares, the other may use)");
          break;
        }
    }
    // A skip whose check another skip of the same test keeps as CUDA (no
    // safe fix there, or none at all: a kept feature guard).
    for (const SkipMark &A : Skips) {
      Diagnostic &D = Findings[A.Finding];
      if (!hasFix(D, Level::Safe))
        continue;
      llvm::SmallVector<TSNode, 4> Others;
      auto Consider = [&](TSNode Call) {
        if (skipCall(Call, Text) && !sameNode(Call, A.Call) &&
            !ts_node_is_null(skipCondition(Call)))
          Others.push_back(Call);
      };
      if (is(A.Scope, "decorated_definition")) {
        forEachChild(A.Scope, [&](TSNode C) {
          if (is(C, "decorator"))
            Consider(ts_node_named_child(C, 0));
        });
      } else {
        forEachChild(field(A.Scope, "right"), [&](TSNode C) { Consider(C); });
      }
      std::optional<uint32_t> Kept;
      for (TSNode Call : Others) {
        ByteRange CR = rangeOf(skipCondition(Call));
        llvm::StringRef CT = Text.slice(CR.Begin, CR.End);
        for (size_t At = findWord(CT, A.Check); At != llvm::StringRef::npos && !Kept;
             At = findWord(CT, A.Check, At + 1)) {
          ByteRange Occurrence{CR.Begin + static_cast<uint32_t>(At),
                               CR.Begin + static_cast<uint32_t>(At + A.Check.size())};
          bool Ported = llvm::any_of(Findings, [&](const Diagnostic &F) {
            return F.Range == Occurrence && hasFix(F, Level::Safe);
          });
          if (!Ported)
            Kept = Occurrence.Begin;
        }
      }
      if (Kept)
        makeUnsafe(D, "unsafe: another skip of this test asks the same check and keeps CUDA "
                      "(line " +
                          std::to_string(lineOf(Text, *Kept)) +
                          "); ported alone, this skip would let other accelerators into a test "
                          "that the other no longer gates");
    }
  }
  // A ladder on checks that are no findings (LLaMA-Factory's
  // get_current_device: `if is_torch_xpu_available(): ... elif
  // is_torch_cuda_available(): device = "cuda:{}".format(...)`, transformers'
  // helpers): a finding in the arm whose condition names CUDA, in an if
  // statement another of whose conditions names another backend, is kept
  // with the statement, as a ladder on torch's own checks is.
  for (size_t I = 0; I < Findings.size(); ++I) {
    if (Laddered[I] || Findings[I].Fixes.empty())
      continue;
    std::optional<Ancestors> OwnUp;
    const Ancestors &Up = pathTo(Root, Findings[I].Range, OwnUp);
    TSNode Arm{}, If{};
    for (TSNode P = Up.parent(Up.node()); !ts_node_is_null(P); P = Up.parent(P)) {
      if (is(P, "function_definition") || is(P, "class_definition"))
        break;
      if ((is(P, "if_statement") || is(P, "elif_clause")) &&
          contains(field(P, "consequence"), Findings[I].Range)) {
        Arm = P;
        If = is(P, "if_statement") ? P : Up.parent(P);
        break;
      }
    }
    if (ts_node_is_null(Arm) || !is(If, "if_statement"))
      continue;
    llvm::StringRef Cond = textOf(field(Arm, "condition"), Text);
    if (!llvm::StringRef(Cond.lower()).contains("cuda"))
      continue;
    std::optional<TSNode> Other;
    auto Look = [&](TSNode C) {
      if (!Other && !sameNode(C, Arm))
        Other = namesOtherBackend(field(C, "condition"), Text);
    };
    Look(If);
    forEachChild(If, [&](TSNode C) {
      if (is(C, "elif_clause"))
        Look(C);
    });
    if (Other)
      KeepLadder(Findings[I], rangeOf(If), snippet(expressionOf(Root, *Other), Text),
                 ts_node_start_byte(*Other), /*ByComment=*/false);
  }
  if (llvm::is_contained(Laddered, true)) {
    std::vector<Diagnostic> Rest;
    for (size_t I = 0; I < Findings.size(); ++I)
      if (!Laddered[I])
        Rest.push_back(std::move(Findings[I]));
    Findings = std::move(Rest);
  }
}

} // namespace devport::python
