//===--- Syntax.cpp - tree-sitter-python, wrapped -------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Syntax.h"

#include <string>
#include <vector>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "llvm/Support/MathExtras.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace devport::python {

size_t findWord(llvm::StringRef Text, llvm::StringRef Word, size_t From) {
  if (From >= Text.size())
    return llvm::StringRef::npos;
  const char *D = Text.data();
  const size_t N = Word.size();
#ifdef __SSE2__
  if (N >= 2 && Text.size() - From >= N + 15) {
    const __m128i First = _mm_set1_epi8(Word.front());
    const __m128i Last = _mm_set1_epi8(Word.back());
    // Blocks of 16 starts whose last byte, At + 15 + N - 1, is in Text.
    auto HitsAt = [&](size_t At) {
      __m128i A = _mm_loadu_si128(reinterpret_cast<const __m128i *>(D + At));
      __m128i B = _mm_loadu_si128(reinterpret_cast<const __m128i *>(D + At + N - 1));
      return static_cast<unsigned>(
          _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(A, First), _mm_cmpeq_epi8(B, Last))));
    };
    size_t At = From;
    for (; At + 15 + N <= Text.size(); At += 16) {
      unsigned Mask = HitsAt(At);
      // Two blocks a step where both lie in Text: one branch for 32 starts.
      if (!Mask && At + 31 + N <= Text.size()) {
        unsigned Next = HitsAt(At + 16);
        if (!Next) {
          At += 16;
          continue;
        }
        At += 16;
        Mask = Next;
      }
      for (; Mask; Mask &= Mask - 1) {
        size_t K = At + llvm::countTrailingZeros(Mask);
        if (std::memcmp(D + K + 1, Word.data() + 1, N - 2) == 0)
          return K;
      }
    }
    From = At;
    if (From >= Text.size())
      return llvm::StringRef::npos;
  }
#endif
  const void *Found = memmem(D + From, Text.size() - From, Word.data(), N);
  return Found ? static_cast<const char *>(Found) - D : llvm::StringRef::npos;
}

namespace {
void *checked(void *P, size_t N) {
  if (!P && N > 0) {
    std::fprintf(stderr, "tree-sitter failed to allocate %zu bytes", N);
    std::abort();
  }
  return P;
}
} // namespace

/// A bump allocator for one tree (parseInArena()). Each block has a 16-byte
/// header with its size (for realloc); free is a no-op. Its memory comes in
/// chunks of 256 KiB, each next one twice the last up to 8 MiB (so that
/// owns() looks at few), kept in a pool for the next arena; a request larger
/// than the next chunk gets a chunk of its own.
class TreeArena {
public:
  /// Budget: at most so many bytes from the arena, the rest from the C
  /// library.
  explicit TreeArena(size_t Budget) : Budget(Budget) {}
  TreeArena(const TreeArena &) = delete;
  TreeArena &operator=(const TreeArena &) = delete;
  ~TreeArena() {
    for (const Chunk &C : Chunks)
      release(C);
  }

  void *allocate(size_t N) {
    size_t Need = Header + roundUp(N);
    if (Overflowed || Used + Need > Budget) {
      // Past its budget (tree-sitter's error recovery can drop hundreds of
      // times the text): the C library's, freed by ts_tree_delete().
      Overflowed = true;
      return checked(std::malloc(N), N);
    }
    Used += Need;
    if (static_cast<size_t>(Limit - Cur) < Need)
      grow(Need);
    char *Block = Cur + Header;
    setSize(Block, N);
    Cur += Need;
    Last = Block;
    return Block;
  }

  void *reallocate(void *P, size_t N) {
    if (!P)
      return allocate(N);
    char *Block = static_cast<char *>(P);
    size_t Old = sizeOf(Block);
    if (Block == Last && static_cast<size_t>(Limit - Block) >= roundUp(N) &&
        Used - roundUp(Old) + roundUp(N) <= Budget) {
      // The last block grows (or shrinks) where it is.
      Used = Used - roundUp(Old) + roundUp(N);
      setSize(Block, N);
      Cur = Block + roundUp(N);
      return Block;
    }
    if (N <= Old)
      return Block;
    void *Moved = allocate(N);
    std::memcpy(Moved, Block, Old);
    return Moved;
  }

  bool owns(const void *P) const {
    auto *C = static_cast<const char *>(P);
    for (size_t I = Chunks.size(); I-- > 0;) // the newest first
      if (C >= Chunks[I].Begin && C < Chunks[I].Begin + Chunks[I].Size)
        return true;
    return false;
  }

  /// Whether some of the tree's memory is the C library's.
  bool overflowed() const { return Overflowed; }

private:
  static constexpr size_t Header = 16;
  /// Chunk sizes: 256 KiB << class, for classes 0 to MaxClass.
  static constexpr unsigned MaxClass = 5;
  static constexpr size_t classSize(unsigned Class) { return (size_t(256) << 10) << Class; }

  struct Chunk {
    char *Begin;
    size_t Size;
    int Class; ///< Its size class, or -1 for a chunk of its own (not pooled).
  };

  static size_t roundUp(size_t N) { return (N + 15) & ~size_t(15); }
  static void setSize(char *Block, size_t N) { std::memcpy(Block - Header, &N, sizeof N); }
  static size_t sizeOf(const char *Block) {
    size_t N;
    std::memcpy(&N, Block - Header, sizeof N);
    return N;
  }

  void grow(size_t Need) {
    unsigned Class = std::min<size_t>(Chunks.size(), MaxClass);
    Chunk C{nullptr, classSize(Class), static_cast<int>(Class)};
    if (Need > C.Size)
      C = {nullptr, Need, -1}; // its own
    else
      C.Begin = takePooled(Class);
    if (!C.Begin)
      C.Begin = static_cast<char *>(checked(std::malloc(C.Size), C.Size));
    Chunks.push_back(C);
    Cur = C.Begin;
    Limit = C.Begin + C.Size;
    Last = nullptr;
  }

  // The pool: chunks of finished trees, for the next parse on any thread, up
  // to PooledBytes. Never destroyed: an arena may outlive static destruction
  // (a tree held by a thread_local), and the chunks stay reachable for leak
  // checkers.
  static constexpr size_t PooledBytes = size_t(32) << 20;
  struct Pool {
    std::mutex Lock;
    std::vector<char *> Chunks[MaxClass + 1];
    size_t Bytes = 0;
  };
  static Pool &pool() {
    static Pool *P = new Pool;
    return *P;
  }

  static char *takePooled(unsigned Class) {
    Pool &P = pool();
    std::lock_guard<std::mutex> G(P.Lock);
    if (P.Chunks[Class].empty())
      return nullptr;
    char *C = P.Chunks[Class].back();
    P.Chunks[Class].pop_back();
    P.Bytes -= classSize(Class);
    return C;
  }
  static void release(const Chunk &C) {
    if (C.Class >= 0) {
      Pool &P = pool();
      std::lock_guard<std::mutex> G(P.Lock);
      if (P.Bytes + C.Size <= PooledBytes) {
        P.Chunks[C.Class].push_back(C.Begin);
        P.Bytes += C.Size;
        return;
      }
    }
    std::free(C.Begin);
  }

  std::vector<Chunk> Chunks;
  size_t Budget, Used = 0;
  bool Overflowed = false;
  char *Cur = nullptr, *Limit = nullptr;
  char *Last = nullptr; ///< The last block allocated: it can grow in place.
};

namespace {

/// The arena that tree-sitter allocates from on this thread, if any.
thread_local TreeArena *ActiveArena = nullptr;
void *arenaMalloc(size_t N) {
  return ActiveArena ? ActiveArena->allocate(N) : checked(std::malloc(N), N);
}
void *arenaCalloc(size_t Count, size_t N) {
  if (!ActiveArena)
    return checked(std::calloc(Count, N), Count * N);
  void *P = ActiveArena->allocate(Count * N);
  std::memset(P, 0, Count * N);
  return P;
}
void *arenaRealloc(void *P, size_t N) {
  if (ActiveArena && (!P || ActiveArena->owns(P)))
    return ActiveArena->reallocate(P, N);
  return checked(std::realloc(P, N), N);
}
void arenaFree(void *P) {
  if (ActiveArena && ActiveArena->owns(P))
    return;
  std::free(P);
}

/// tree-sitter's allocator, for good: the C library's where no arena is
/// active on the thread.
void installAllocator() {
  static std::once_flag Once;
  std::call_once(Once, [] { ts_set_allocator(arenaMalloc, arenaCalloc, arenaRealloc, arenaFree); });
}

/// An arena's default budget: so much, and so much per byte parsed (over
/// PyTorch's Python files a parse used 34 per byte at the median, 70 at the
/// 99th percentile, 129 at most).
constexpr size_t ArenaBase = size_t(1) << 20, ArenaPerByte = 64;
/// Larger texts are parsed in the C library's memory.
constexpr size_t ArenaMaxParsed = size_t(1) << 20;

/// Makes A tree-sitter's allocator on this thread while it lives.
class ArenaScope {
public:
  explicit ArenaScope(TreeArena &A) : Saved(ActiveArena) { ActiveArena = &A; }
  ~ArenaScope() { ActiveArena = Saved; }
  ArenaScope(const ArenaScope &) = delete;
  ArenaScope &operator=(const ArenaScope &) = delete;

private:
  TreeArena *Saved;
};

} // namespace

void TreeDeleter::operator()(TSTree *T) const {
  if (!Arena) {
    ts_tree_delete(T);
    return;
  }
  if (Arena->overflowed()) {
    // The nodes past the budget are freed one by one, the arena's are not.
    ArenaScope Scope(*Arena);
    ts_tree_delete(T);
  }
  delete Arena;
}

TSNode ancestorOf(TSNode N, llvm::ArrayRef<TSNode> Path, size_t K) {
  if (K <= Path.size())
    return Path[Path.size() - K];
  TSNode P = Path.empty() ? N : Path.front();
  for (size_t I = Path.size(); I < K && !ts_node_is_null(P); ++I)
    P = ts_node_parent(P);
  return P;
}

TreePtr parseInArena(llvm::StringRef Text, llvm::ArrayRef<ByteRange> Ranges,
                     std::optional<size_t> Budget) {
  installAllocator();
  size_t Parsed = Text.size();
  if (!Ranges.empty()) {
    Parsed = 0;
    for (const ByteRange &R : Ranges)
      Parsed += R.End - R.Begin;
  }
  if (Parsed > ArenaMaxParsed) {
    // What the parse drops would be many times a large text, held to the end.
    Parser P;
    return Ranges.empty() ? P.parse(Text) : P.parseRanges(Text, Ranges);
  }
  auto Arena = std::make_unique<TreeArena>(Budget.value_or(ArenaBase + ArenaPerByte * Parsed));
  TSTree *Tree = nullptr;
  {
    ArenaScope Scope(*Arena);
    Parser P; // deleted within the scope: its frees are the arena's no-ops
    TreePtr T = Ranges.empty() ? P.parse(Text) : P.parseRanges(Text, Ranges);
    Tree = T.release();
  }
  if (!Tree)
    return nullptr;
  return TreePtr(Tree, TreeDeleter{Arena.release()});
}

Parser::Parser() : P((installAllocator(), ts_parser_new())) {
  bool Ok = ts_parser_set_language(P, tree_sitter_python());
  assert(Ok && "tree-sitter-python ABI not supported by the tree-sitter runtime");
  (void)Ok;
}

Parser::~Parser() { ts_parser_delete(P); }

/// Whether T has a CR that is not part of a CRLF.
static bool hasLoneCR(llvm::StringRef T) {
  for (size_t I = T.find('\r'); I != llvm::StringRef::npos; I = T.find('\r', I + 1))
    if (I + 1 == T.size() || T[I + 1] != '\n')
      return true;
  return false;
}

TreePtr Parser::parse(llvm::StringRef Text, const TSTree *Old) {
  std::string Copy;
  if (hasLoneCR(Text)) {
    // Python ends a line at a lone CR (old Mac files); tree-sitter-python
    // takes it for whitespace. Parse a copy where it is a LF: the same
    // length, so every node has the offsets it has in Text.
    Copy = Text.str();
    for (size_t I = 0; I < Copy.size(); ++I)
      if (Copy[I] == '\r' && (I + 1 == Copy.size() || Copy[I + 1] != '\n'))
        Copy[I] = '\n';
    Text = Copy;
  }
  return TreePtr(ts_parser_parse_string_encoding(P, Old, Text.data(),
                                                 static_cast<uint32_t>(Text.size()),
                                                 TSInputEncodingUTF8));
}

TreePtr Parser::parseRanges(llvm::StringRef Text, llvm::ArrayRef<ByteRange> Ranges) {
  std::vector<TSRange> In;
  In.reserve(Ranges.size());
  // Points: rows end at '\n', columns count bytes (as tree-sitter's).
  uint32_t Row = 0, LineStart = 0, At = 0;
  auto PointAt = [&](uint32_t Offset) {
    // From line end to line end (a byte at a time was 2% of a check).
    while (const void *NL = At < Offset ? memchr(Text.data() + At, '\n', Offset - At) : nullptr) {
      At = static_cast<uint32_t>(static_cast<const char *>(NL) - Text.data()) + 1;
      ++Row;
      LineStart = At;
    }
    At = std::max(At, Offset);
    return TSPoint{Row, Offset - LineStart};
  };
  for (const ByteRange &R : Ranges) {
    TSPoint B = PointAt(R.Begin);
    TSPoint E = PointAt(R.End);
    In.push_back({B, E, R.Begin, R.End});
  }
  bool Ok = ts_parser_set_included_ranges(P, In.data(), static_cast<uint32_t>(In.size()));
  TreePtr Tree = Ok ? parse(Text) : nullptr;
  ts_parser_set_included_ranges(P, nullptr, 0);
  return Tree;
}

static TSSymbol sym(const TSLanguage *L, const char *Name, bool Named = true) {
  TSSymbol S = ts_language_symbol_for_name(L, Name, static_cast<uint32_t>(strlen(Name)), Named);
  assert(S != 0 && "grammar symbol not found");
  return S;
}

static TSFieldId field(const TSLanguage *L, const char *Name) {
  TSFieldId F = ts_language_field_id_for_name(L, Name, static_cast<uint32_t>(strlen(Name)));
  assert(F != 0 && "grammar field not found");
  return F;
}

const Grammar &Grammar::get() {
  static const Grammar G = [] {
    const TSLanguage *L = tree_sitter_python();
    Grammar G;
    G.Module = sym(L, "module");
    G.Call = sym(L, "call");
    G.Attribute = sym(L, "attribute");
    G.Identifier = sym(L, "identifier");
    G.ArgumentList = sym(L, "argument_list");
    G.KeywordArgument = sym(L, "keyword_argument");
    G.String = sym(L, "string");
    G.StringStart = sym(L, "string_start");
    G.StringContent = sym(L, "string_content");
    G.StringEnd = sym(L, "string_end");
    G.Interpolation = sym(L, "interpolation");
    G.Comment = sym(L, "comment");
    G.FunctionDefinition = sym(L, "function_definition");
    G.ClassDefinition = sym(L, "class_definition");
    G.Lambda = sym(L, "lambda");
    G.ImportStatement = sym(L, "import_statement");
    G.ImportFromStatement = sym(L, "import_from_statement");
    G.FutureImportStatement = sym(L, "future_import_statement");
    G.AliasedImport = sym(L, "aliased_import");
    G.DottedName = sym(L, "dotted_name");
    G.WildcardImport = sym(L, "wildcard_import");
    G.RelativeImport = sym(L, "relative_import");
    G.Error = sym(L, "ERROR");
    G.ExpressionStatement = sym(L, "expression_statement");
    G.ListSplat = sym(L, "list_splat");
    G.DictionarySplat = sym(L, "dictionary_splat");
    G.Block = sym(L, "block");
    G.DecoratedDefinition = sym(L, "decorated_definition");
    G.Parameters = sym(L, "parameters");
    G.LambdaParameters = sym(L, "lambda_parameters");
    G.IfStatement = sym(L, "if_statement");
    G.TryStatement = sym(L, "try_statement");
    G.WithStatement = sym(L, "with_statement");
    G.ForStatement = sym(L, "for_statement");
    G.WhileStatement = sym(L, "while_statement");
    G.ElseClause = sym(L, "else_clause");
    G.ElifClause = sym(L, "elif_clause");
    G.ExceptClause = sym(L, "except_clause");
    G.FinallyClause = sym(L, "finally_clause");
    G.MatchStatement = sym(L, "match_statement");
    G.CaseClause = sym(L, "case_clause");
    G.List = sym(L, "list");
    G.Tuple = sym(L, "tuple");
    G.Set = sym(L, "set");
    G.Dictionary = sym(L, "dictionary");
    G.Subscript = sym(L, "subscript");
    G.ConcatenatedString = sym(L, "concatenated_string");
    G.Decorator = sym(L, "decorator");
    G.ParenthesizedExpression = sym(L, "parenthesized_expression");
    G.Assignment = sym(L, "assignment");
    G.AugmentedAssignment = sym(L, "augmented_assignment");
    G.FFunction = field(L, "function");
    G.FArguments = field(L, "arguments");
    G.FObject = field(L, "object");
    G.FAttribute = field(L, "attribute");
    G.FName = field(L, "name");
    G.FValue = field(L, "value");
    G.FAlias = field(L, "alias");
    G.FModuleName = field(L, "module_name");
    G.FBody = field(L, "body");
    G.FLeft = field(L, "left");
    G.FRight = field(L, "right");
    return G;
  }();
  return G;
}

unsigned countSyntaxErrors(TSNode N) {
  unsigned Count = 0;
  preorder(N, [&](TSNode Cur, TSTreeCursor *) {
    if (ts_node_is_error(Cur) || ts_node_is_missing(Cur))
      ++Count;
    return ts_node_has_error(Cur);
  });
  return Count;
}

bool holdsStatements(TSNode N) {
  const Grammar &G = Grammar::get();
  TSSymbol S = ts_node_symbol(N);
  return S == G.Module || S == G.Block;
}

std::vector<ByteRange> syntaxErrorRanges(TSNode N) {
  std::vector<ByteRange> Out;
  preorder(N, [&](TSNode Cur, TSTreeCursor *) {
    if (ts_node_is_error(Cur) || ts_node_is_missing(Cur)) {
      Out.push_back(rangeOf(Cur));
      return false;
    }
    return ts_node_has_error(Cur);
  });
  return Out;
}

namespace {

/// tree-sitter's point (row, byte column; rows end at '\n') of Offset.
TSPoint pointAt(llvm::StringRef Text, uint32_t Offset) {
  llvm::StringRef Before = Text.take_front(Offset);
  size_t Nl = Before.rfind('\n');
  uint32_t Row = static_cast<uint32_t>(Before.count('\n'));
  uint32_t Col = static_cast<uint32_t>(Nl == llvm::StringRef::npos ? Offset : Offset - Nl - 1);
  return {Row, Col};
}

/// The point after Text, which starts at Start.
TSPoint pointAfter(TSPoint Start, llvm::StringRef Text) {
  size_t Nl = Text.rfind('\n');
  if (Nl == llvm::StringRef::npos)
    return {Start.row, Start.column + static_cast<uint32_t>(Text.size())};
  return {Start.row + static_cast<uint32_t>(Text.count('\n')),
          static_cast<uint32_t>(Text.size() - Nl - 1)};
}

bool isLineBlank(char C) { return C == ' ' || C == '\t' || C == '\f' || C == '\r'; }

} // namespace

TSInputEdit editForReparse(llvm::StringRef Old, ByteRange Range, llvm::StringRef Replacement,
                           uint32_t Floor, uint32_t Ceiling) {
  assert(Floor <= Range.Begin && Range.Begin <= Range.End && Range.End <= Ceiling &&
         Ceiling <= Old.size());
  uint32_t Begin = Range.Begin;
  while (Begin > Floor && (isLineBlank(Old[Begin - 1]) || Old[Begin - 1] == '\n'))
    --Begin;
  if (Begin > Floor)
    --Begin; // into the token
  // Back to its line's first token, into it (lexing that starts in the
  // indentation compares the empty tokens there, as below, and re-parses
  // what follows): the tokens before the change on its line are lexed
  // again. After an error, tree-sitter (0.25) reuses tokens that it lexed
  // where the old text went on past the change (`f(a, b"ing=True)  # c` with
  // the line end deleted: the string then runs on to the end of the text, a
  // fresh parse reads it so, and the re-parse kept a call of `ing=True`;
  // fuzz/regressions/python-engine/lsp-string-left-open-by-deleting-b910e0e2).
  // On a long line, no more than MaxBack bytes back: after an edit in a
  // 60 KB table on one line, tree-sitter lexed 20,001 tokens again, and
  // 30,003 with the whole line before the edit (ReparseTest).
  const uint32_t MaxBack = 4096;
  uint32_t First = Begin;
  while (First > Floor && Old[First - 1] != '\n' && Begin - First < MaxBack)
    --First;
  while (First < Begin && isLineBlank(Old[First]))
    ++First;
  if (First < Begin)
    Begin = First + 1;
  uint32_t End = Range.End;
  while (End < Ceiling && isLineBlank(Old[End]))
    ++End;
  if (End < Ceiling && Old[End] == '\n')
    ++End;
  else if (End != Old.size())
    End = Range.End; // more on the line, or the next edit
  TSInputEdit In;
  In.start_byte = Begin;
  In.old_end_byte = End;
  In.new_end_byte = static_cast<uint32_t>((Range.Begin - Begin) + Replacement.size() +
                                          (End - Range.End) + Begin);
  In.start_point = pointAt(Old, Begin);
  In.old_end_point = pointAfter(In.start_point, Old.slice(Begin, End)); // one scan of Old, not two
  In.new_end_point = pointAfter(pointAfter(pointAfter(In.start_point, Old.slice(Begin, Range.Begin)),
                                           Replacement),
                                Old.slice(Range.End, End));
  return In;
}

bool simpleStringValue(TSNode N, llvm::StringRef Src, std::string &Out) {
  const Grammar &G = Grammar::get();
  if (ts_node_symbol(N) != G.String)
    return false;
  bool Ok = true;
  std::string Value;
  forEachChild(N, [&](TSNode C) {
    TSSymbol S = ts_node_symbol(C);
    if (S == G.StringStart) {
      llvm::StringRef Prefix = textOf(C, Src).take_while([](char Ch) { return Ch != '\'' && Ch != '"'; });
      if (Prefix.find_first_of("fFbB") != llvm::StringRef::npos)
        Ok = false;
    } else if (S == G.StringContent) {
      llvm::StringRef T = textOf(C, Src);
      if (T.contains('\\'))
        Ok = false;
      Value += T.str();
    } else if (S != G.StringEnd) {
      Ok = false; // interpolation or escape_sequence
    }
  });
  if (Ok)
    Out = std::move(Value);
  return Ok;
}

} // namespace devport::python
