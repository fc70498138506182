//===--- PythonMatcher.cpp - The Python rule set, compiled ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/PythonMatcher.h"

#include "matchers/python/Doctest.h"
#include "matchers/python/Imports.h"
#include "matchers/python/NodeIndex.h"
#include "matchers/python/PythonBackend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <atomic>
#include <functional>

namespace devport::python {

/// Adds every whole-segment prefix of the qualified names in N to Out.
static void addQualifiedPrefixes(const PatternNode &N, llvm::StringSet<> &Out) {
  if (N.K == PatternNode::QualName) {
    llvm::StringRef Q = N.Text;
    for (size_t Dot = Q.find('.');; Dot = Q.find('.', Dot + 1)) {
      Out.insert(Q.take_front(Dot)); // the whole name at npos
      if (Dot == llvm::StringRef::npos)
        break;
    }
  }
  for (const PatternNode &C : N.Children)
    addQualifiedPrefixes(C, Out);
}

/// Whether N holds an interpolation: it matches f-strings (t-strings) only.
static bool holdsInterpolation(const PatternNode &N) {
  if (N.Symbol == Grammar::get().Interpolation)
    return true;
  return llvm::any_of(N.Children, holdsInterpolation);
}

/// Notes in R a pattern whose root may match a statement of plain strings
/// alone or a part of it: a string value it is, or that some such pattern
/// exists. An f-string pattern (`f"cuda:{$I}"`) matches no plain string.
static void noteStringRoot(const Pattern &P, RegionRules &R) {
  const Grammar &G = Grammar::get();
  if (P.Root.K == PatternNode::StringValue && P.RootSymbol == G.String) {
    R.StringValues.push_back(P.Root.Text);
    return;
  }
  if (P.RootSymbol == G.String && holdsInterpolation(P.Root))
    return;
  llvm::StringRef Type = ts_language_symbol_name(tree_sitter_python(), P.RootSymbol);
  if (P.Root.K == PatternNode::Metavar || P.Root.K == PatternNode::MetavarSeq ||
      Type == "expression_statement" || Type.contains("string") || Type.contains("escape") ||
      Type.contains("interpolation"))
    R.MatchesStrings = true;
}

/// Notes in R what a pattern's root says of tables (RegionRules::TablesSplit,
/// ContainerArity): a pattern that may match the statement holding one, or
/// the container itself.
static void noteTableRoot(const Pattern &P, const Rule &Rl, RegionRules &R) {
  auto Container = [](llvm::StringRef Type) {
    return Type == "list" || Type == "tuple" || Type == "set" || Type == "dictionary";
  };
  auto TypeOf = [](const PatternNode &N) {
    return llvm::StringRef(ts_language_symbol_name(tree_sitter_python(), N.Symbol));
  };
  if (P.Root.K == PatternNode::Metavar || P.Root.K == PatternNode::MetavarSeq) {
    R.TablesSplit = false;
    return;
  }
  llvm::StringRef Type = TypeOf(P.Root);
  if (Type == "assignment" || Type == "augmented_assignment") {
    if (P.Root.Children.empty()) {
      R.TablesSplit = false;
      return;
    }
    // `$V = torch.cuda`, `$V = $S` with `$S` a string: its value is no
    // container. A value that may be one (`$V = $X`) may match a table's.
    const PatternNode &Value = P.Root.Children.back();
    bool MayBeOne = false;
    if (Value.K == PatternNode::Metavar) {
      auto W = Rl.Where.find(Value.Text);
      MayBeOne = W == Rl.Where.end() || !quotedStringCharacters(W->second.Regex);
    } else {
      MayBeOne = Value.K == PatternNode::MetavarSeq ||
                 (Value.K == PatternNode::Node && Container(TypeOf(Value)));
    }
    R.TablesSplit &= !MayBeOne;
    return;
  }
  if (Type == "expression_statement" || Type == "expression_list" || Type == "block" ||
      Type == "module") {
    R.TablesSplit = false;
    return;
  }
  if (!Container(Type))
    return;
  bool Any = llvm::any_of(P.Root.Children,
                          [](const PatternNode &C) { return C.K == PatternNode::MetavarSeq; });
  size_t &Most = R.ContainerArity[Type];
  Most = std::max(Most, Any ? SIZE_MAX : P.Root.Children.size());
}

PythonMatcher::PythonMatcher()
    : Serial([] {
        static std::atomic<uint64_t> Next{1};
        return Next++;
      }()) {}

llvm::Expected<std::unique_ptr<PythonMatcher>> PythonMatcher::compile(const RuleSet &Rules) {
  std::unique_ptr<PythonMatcher> M(new PythonMatcher());
  M->Table.resize(ts_language_symbol_count(tree_sitter_python()));
  std::string Errors;
  auto Fail = [&](const RuleLoc &L, const std::string &Msg) {
    if (!Errors.empty())
      Errors += "\n";
    Errors += L.str() + ": " + Msg;
  };
  size_t Order = 0;
  llvm::StringMap<unsigned> NodeWordIds;                       // NodeWordTable's, by word
  std::vector<WordUse> WordUses;                               // by word
  llvm::StringMap<std::shared_ptr<const MemoRegex>> Regexes;   // by source
  for (const auto &R : Rules.rules()) {
    if (R->Language != "python")
      continue;
    std::vector<std::string> Bound;
    for (size_t I = 0; I < R->Patterns.size(); ++I) {
      const RulePattern &RP = R->Patterns[I];
      if (llvm::StringRef(RP.Text).startswith("@")) {
        // A role pattern: the whole of a file that has the role.
        if (RP.Text != "@cuda-file")
          Fail(RP.Loc, "a role pattern is `@cuda-file`");
        else if (R->Kind != RuleKind::Keep)
          Fail(RP.Loc, "`@cuda-file` is for keep rules: a file of the CUDA role is CUDA by design");
        else if (!llvm::is_contained(M->CudaFileRules, R.get()))
          M->CudaFileRules.push_back(R.get());
        continue;
      }
      auto P = compilePattern(RP.Text);
      if (!P) {
        Fail(RP.Loc, llvm::toString(P.takeError()));
        continue;
      }
      for (const std::string &V : P->Metavars)
        if (!llvm::is_contained(Bound, V))
          Bound.push_back(V);
      // A `where` regex on a metavariable of this pattern adds the literal it
      // requires (e.g. "cuda") to the words the prefilter looks for.
      std::vector<std::string> NodeWords;
      std::vector<std::vector<std::string>> NodeAnyOf;
      // The pattern's own literal text, which the node's text holds as
      // written: a keyword's or an attribute's name (`accelerator` of
      // `$F($$$A, accelerator=$S, $$$B)`), a string's value or f-string part;
      // not the segments of a qualified name, which an import may rename.
      std::function<void(const PatternNode &)> AddLeafWords = [&](const PatternNode &Node) {
        const Grammar &G = Grammar::get();
        bool Literal = (Node.K == PatternNode::Leaf && !Node.Text.empty() &&
                        (Node.Symbol == G.Identifier || Node.Symbol == G.StringContent)) ||
                       (Node.K == PatternNode::StringValue && !Node.Text.empty());
        if (Literal && Node.Text.size() >= 2 && !llvm::is_contained(NodeWords, Node.Text))
          NodeWords.push_back(Node.Text);
        for (const PatternNode &Child : Node.Children)
          AddLeafWords(Child);
      };
      AddLeafWords(P->Root);
      std::vector<std::pair<std::string, const std::string *>> RegexWords;
      for (const auto &W : R->Where)
        if (llvm::is_contained(P->Metavars, W.first)) {
          std::string Lit = requiredLiteral(W.second.Regex);
          if (Lit.size() < 3 && !W.second.Regex.empty())
            if (std::vector<std::string> Any = requiredAlternatives(W.second.Regex); !Any.empty())
              NodeAnyOf.push_back(std::move(Any));
          if (Lit.size() >= 3 && !llvm::is_contained(P->RequiredWords, Lit))
            P->RequiredWords.push_back(Lit);
          if (Lit.size() >= 3 && !llvm::is_contained(NodeWords, Lit))
            NodeWords.push_back(Lit);
          if (Lit.size() >= 3)
            RegexWords.push_back({Lit, &W.second.Regex});
        }
      // Without a literal the prefilter would have to accept every file.
      if (P->RequiredWords.empty()) {
        Fail(RP.Loc, "pattern `" + RP.Text +
                         "` has no literal for the prefilter (a name, an attribute, a string, "
                         "or a `where` regex with a literal of 3 or more characters)");
        continue;
      }
      addQualifiedPrefixes(P->Root, M->Regions.QualifiedPrefixes);
      noteStringRoot(*P, M->Regions);
      noteTableRoot(*P, *R, M->Regions);
      M->Regions.WholeStatements.insert(
          ts_language_symbol_name(tree_sitter_python(), P->RootSymbol));
      auto WordId = [&](const std::string &W) {
        auto [It, New] = NodeWordIds.try_emplace(W, static_cast<unsigned>(NodeWordIds.size()));
        if (New)
          M->NodeWordTable.push_back(W);
        return It->second;
      };
      auto C = std::make_unique<Compiled>(Compiled{R.get(), I, std::move(*P), Order++});
      for (const std::string &W : NodeWords)
        C->NodeWords.push_back(WordId(W));
      for (const std::vector<std::string> &Group : NodeAnyOf) {
        C->NodeAnyOf.emplace_back();
        for (const std::string &W : Group)
          C->NodeAnyOf.back().push_back(WordId(W));
      }
      for (const std::string &W : C->P.RequiredWords) {
        unsigned Id = M->Literals.add(W);
        C->WordIds.push_back(Id);
        // Where the word counts in the file (WordUse): what each use of it
        // by a pattern allows, together.
        while (WordUses.size() <= Id) {
          WordUses.emplace_back();
          WordUses.back().InCode = WordUse::Nowhere;
        }
        WordUse &SW = WordUses[Id];
        if (llvm::is_contained(C->P.NameWords, W))
          SW.InCode |= WordUse::Name;
        if (llvm::is_contained(C->P.ValueWords, W) && !llvm::is_contained(SW.Values, W))
          SW.Values.push_back(W);
        if (llvm::is_contained(C->P.StringPartWords, W))
          SW.Any = true;
        for (const auto &[Lit, Re] : RegexWords) {
          if (Lit != W)
            continue;
          std::optional<std::bitset<256>> Chars = quotedStringCharacters(*Re);
          if (!Chars) {
            // What the regex reads starts with the word (`^_cuda`): a node
            // starts with a token, a name here, not a string; it ends
            // with it (`patch$`): a name ends there. Else anything.
            llvm::StringRef R(*Re);
            auto NoQuantifier = [](llvm::StringRef After) {
              return After.empty() || !llvm::StringRef("?*+{").contains(After.front());
            };
            auto NameChar = [](char Ch) { return llvm::isAlnum(Ch) || Ch == '_'; };
            bool Starts = R.startswith("^" + W) && !llvm::isDigit(W.front()) &&
                          llvm::all_of(W, NameChar) && NoQuantifier(R.drop_front(W.size() + 1));
            bool Ends = R.endswith(W + "$") && llvm::all_of(W, NameChar);
            if (Starts)
              SW.InCode |= WordUse::NameStart;
            if (Ends)
              SW.InCode |= WordUse::NameEnd;
            if (!Starts && !Ends) {
              SW.Any = true;
              SW.InCode |= WordUse::Anywhere;
            }
            continue;
          }
          std::shared_ptr<const MemoRegex> &Compiled = Regexes[*Re];
          if (!Compiled)
            Compiled = std::make_shared<const MemoRegex>(*Re);
          if (llvm::none_of(SW.Regexes, [&](const auto &Q) { return Q.Re == Compiled; }))
            SW.Regexes.push_back({*Chars, Compiled});
        }
      }
      M->Needs.add(C->WordIds);
      // A name may be spelled as an identifier (after `from m import name`)
      // or as an attribute chain: a name pattern waits at both.
      std::vector<TSSymbol> Symbols{C->P.RootSymbol};
      if (C->P.Root.K == PatternNode::QualName) {
        const Grammar &G = Grammar::get();
        Symbols = {G.Identifier, G.Attribute};
      }
      for (TSSymbol Sym : Symbols) {
        Slot &S = M->Table[Sym];
        if (!C->P.AnchorName.empty())
          S.ByAnchor[C->P.AnchorName].push_back(C.get());
        else if (!C->P.ObjectAnchor.empty())
          S.ByObject[C->P.ObjectAnchor].push_back(C.get());
        else
          S.Any.push_back(C.get());
      }
      M->Patterns.push_back(std::move(C));
    }
    M->Constraints.add(*R, Bound, Fail);
    for (const auto &C : M->Patterns)
      if (C->R == R.get())
        C->Where = M->Constraints.of(*R);
  }
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Errors.c_str());
  M->Directive = M->Literals.add("devport:");
  WordUses.resize(M->Literals.size());
  WordUses[M->Directive].Any = true;
  for (unsigned I = 0; I < WordUses.size(); ++I)
    WordUses[I].Length = static_cast<uint32_t>(M->Literals.word(I).size());
  M->Regions.WordUses = std::move(WordUses);
  M->Regions.CleanedModules.push_back(CleanedImportModule.str());
  M->Literals.freeze();
  return std::move(M);
}

bool isCudaRoleModule(llvm::StringRef Path) {
  auto IsWord = [](llvm::StringRef W) {
    for (llvm::StringRef R : {"cuda", "cudnn", "nccl", "cublas", "cusparse", "cufft"})
      if (W.equals_insensitive(R))
        return true;
    return false;
  };
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  for (auto It = llvm::sys::path::begin(Parent), End = llvm::sys::path::end(Parent); It != End;
       ++It)
    if (It->equals_insensitive("cuda") || It->equals_insensitive("cudnn") ||
        It->equals_insensitive("nccl"))
      return true;
  llvm::SmallVector<llvm::StringRef, 8> Words;
  llvm::sys::path::stem(Path).split(Words, '_', -1, false);
  for (llvm::StringRef W : Words) {
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    W.split(Parts, '-', -1, false);
    if (llvm::any_of(Parts, IsWord))
      return true;
  }
  return false;
}

bool PythonMatcher::prefilterFile(llvm::StringRef Path, llvm::StringRef Text,
                                  std::optional<bool> &MentionsDevport) const {
  return Needs.met(Literals, Text, Directive, MentionsDevport) || !pathMatches(Path, Text).empty();
}

std::vector<Match> PythonMatcher::pathMatches(llvm::StringRef Path, llvm::StringRef Text) const {
  std::vector<Match> Out;
  if (CudaFileRules.empty() || Path.empty() ||
      (!isCudaRoleModule(Path) && !Opts.inCudaRoleGlobs(Path)))
    return Out;
  for (const Rule *R : CudaFileRules) {
    Match M;
    M.R = R;
    M.Range = {0, static_cast<uint32_t>(Text.size())};
    Out.push_back(std::move(M));
  }
  return Out;
}

bool PythonMatcher::mayMatch(llvm::StringRef Text) const {
  // The scan stops at the first pattern whose words are all there.
  return Needs.met(Literals, Text);
}

std::optional<RegionText> PythonMatcher::regionText(llvm::StringRef, llvm::StringRef Text) const {
  return regions(Text, /*MarksOnly=*/false);
}

std::optional<RegionText> PythonMatcher::regionMarks(llvm::StringRef Text) const {
  return regions(Text, /*MarksOnly=*/true);
}

std::optional<RegionText> PythonMatcher::regions(llvm::StringRef Text, bool MarksOnly) const {
  std::vector<LiteralSet::Occurrence> All;
  Literals.findAll(Text, All);
  std::vector<uint32_t> Count(Literals.size(), 0);
  for (const LiteralSet::Occurrence &O : All)
    ++Count[O.Word];
  std::vector<bool> Anchor(Literals.size(), false);
  Anchor[Directive] = true;
  for (const auto &C : Patterns) {
    if (!llvm::all_of(C->WordIds, [&](unsigned I) { return Count[I] > 0; }))
      continue; // cannot match here
    // Its rarest word here; one already chosen costs nothing more.
    if (llvm::any_of(C->WordIds, [&](unsigned I) { return Anchor[I]; }))
      continue;
    Anchor[*std::min_element(C->WordIds.begin(), C->WordIds.end(),
                             [&](unsigned A, unsigned B) { return Count[A] < Count[B]; })] =
        true;
  }
  std::vector<uint32_t> Offsets;
  std::vector<unsigned> Words;
  for (const LiteralSet::Occurrence &O : All)
    if (Anchor[O.Word]) {
      Offsets.push_back(O.Offset);
      Words.push_back(O.Word);
    }
  return maskRegions(Text, Offsets, Regions, MarksOnly, Words);
}

std::string PythonMatcher::objectAnchorOf(TSNode N, llvm::StringRef Src,
                                          const NameResolver &Resolver,
                                          llvm::ArrayRef<Scope> Scopes) const {
  const Grammar &G = Grammar::get();
  TSNode Named = N;
  if (ts_node_symbol(N) == G.Call)
    Named = ts_node_child_by_field_id(N, G.FFunction);
  if (ts_node_is_null(Named) || ts_node_symbol(Named) != G.Attribute)
    return "";
  TSNode Object = ts_node_child_by_field_id(Named, G.FObject);
  if (ts_node_is_null(Object))
    return "";
  // The object's own anchor: its attribute name, or the identifier resolved.
  return anchorOf(Object, Src, Resolver, Scopes);
}

std::string PythonMatcher::anchorOf(TSNode N, llvm::StringRef Src, const NameResolver &Resolver,
                                    llvm::ArrayRef<Scope> Scopes) const {
  const Grammar &G = Grammar::get();
  TSSymbol S = ts_node_symbol(N);
  TSNode Named = N;
  if (S == G.Call) {
    Named = ts_node_child_by_field_id(N, G.FFunction);
    if (ts_node_is_null(Named))
      return "";
  }
  TSSymbol NS = ts_node_symbol(Named);
  if (NS == G.Attribute) {
    TSNode A = ts_node_child_by_field_id(Named, G.FAttribute);
    return ts_node_is_null(A) ? "" : textOf(A, Src).str();
  }
  if (NS == G.Identifier) {
    llvm::StringRef Name = textOf(Named, Src);
    if (const Binding *B = Resolver.lookup(Name, Scopes)) {
      llvm::StringRef T = B->Target;
      size_t Dot = T.rfind('.');
      return (Dot == llvm::StringRef::npos ? T : T.substr(Dot + 1)).str();
    }
    return Name.str();
  }
  return "";
}

namespace {

/// What a match after one edit (see PythonMatcher::match) visits and
/// matches: the parse's changes() (the statements that hold the bytes
/// around and in what the edit put in, less the blocks of one changed in its
/// header, and where tree-sitter says the structure changed), every node in
/// them and above them, and the nodes that matched before; it visits the
/// docstrings that held doctests too. The other statements are as they
/// were, and so are their places in the tree.
struct AfterEdit {
  std::vector<uint32_t> Visits;    ///< Sorted: a node that holds one is visited.
  const std::vector<ChangedStatement> &Changed;
  std::vector<ByteRange> Comments; ///< The previous version's, outside Changed.
  const std::vector<std::pair<MatchedNode, Match>> *Previous = nullptr;

  explicit AfterEdit(const PythonParsedFile &Py) : Changed(Py.changes()) {
    const PriorMatches &Prior = *Py.prior();
    Previous = &Prior.Record.Matches;
    Visits = Prior.Record.Docstrings;
    for (const auto &[Node, M] : Prior.Record.Matches)
      Visits.push_back(Node.Range.Begin);
    llvm::sort(Visits);
    for (ByteRange C : Prior.Record.Comments)
      if (!changed(C))
        Comments.push_back(C);
  }

  /// Whether R holds a byte of a changed statement (an empty R, its place)
  /// and is not in one of its blocks.
  bool changed(ByteRange R) const {
    return llvm::any_of(Changed, [&](const ChangedStatement &C) { return C.touches(R); });
  }
  /// Whether a node of range R is to be visited.
  bool visits(ByteRange R) const {
    if (changed(R))
      return true;
    auto It = std::lower_bound(Visits.begin(), Visits.end(), R.Begin);
    return It != Visits.end() && *It < R.End;
  }
  /// The matches found at the node of range R and symbol S last time.
  llvm::ArrayRef<std::pair<MatchedNode, Match>> previous(ByteRange R, TSSymbol S) const {
    MatchedNode Key{R, S};
    auto Less = [](const std::pair<MatchedNode, Match> &A, const MatchedNode &B) {
      return A.first < B;
    };
    auto B = std::lower_bound(Previous->begin(), Previous->end(), Key, Less);
    auto E = B;
    while (E != Previous->end() && E->first == Key)
      ++E;
    return llvm::makeArrayRef(Previous->data() + (B - Previous->begin()), E - B);
  }
};

} // namespace

/// One traversal of one tree: what the matcher tracks while it walks (the
/// scopes, whether it is inside an error or an import statement) and what it
/// collects.
class PythonMatcher::Walk {
public:
  Walk(const PythonMatcher &M, llvm::StringRef Src, const NameResolver &Resolver,
       const MatchMarks *Marks)
      : M(M), Src(Src), Resolver(Resolver), Marks(Marks), G(Grammar::get()) {}

  /// Visits and matches only what E says (Marks are not used then).
  void afterEdit(const AfterEdit &E) { Edit = &E; }
  /// Records where matches and doctests were found into R.
  void record(MatchRecord &R) { Record = &R; }

  MatchResults run(TSNode Root) {
    if (Edit)
      for (ByteRange C : Edit->Comments)
        comment(C);
    else if (Marks)
      for (ByteRange C : Marks->Comments)
        comment(C);
    TSTreeCursor Cur = ts_tree_cursor_new(Root);
    enter(Root, 0);
    // Moves the cursor from where it is across to the first node worth a
    // visit; false (at the last sibling) if there is none.
    auto Worthy = [&] {
      while (!worthVisit(ts_tree_cursor_current_node(&Cur)))
        if (!ts_tree_cursor_goto_next_sibling(&Cur))
          return false;
      return true;
    };
    auto EnterCurrent = [&] {
      enter(ts_tree_cursor_current_node(&Cur), ts_tree_cursor_current_field_id(&Cur));
    };
    for (;;) {
      if (ts_tree_cursor_goto_first_child(&Cur)) {
        if (Worthy()) {
          EnterCurrent();
          continue;
        }
        ts_tree_cursor_goto_parent(&Cur);
      }
      bool Done = false;
      for (;;) {
        leave();
        if (ts_tree_cursor_goto_next_sibling(&Cur) && Worthy()) {
          EnterCurrent();
          break;
        }
        if (!ts_tree_cursor_goto_parent(&Cur)) {
          Done = true;
          break;
        }
      }
      if (Done)
        break;
    }
    ts_tree_cursor_delete(&Cur);
    if (Edit) { // the comments kept, then those of the changed statements
      auto ByStart = [](const auto &A, const auto &B) { return A.Begin < B.Begin; };
      llvm::sort(Out.Comments, ByStart);
      llvm::sort(Out.Directives, [&](const DirectiveComment &A, const DirectiveComment &B) {
        return ByStart(A.Range, B.Range);
      });
    }
    return std::move(Out);
  }

private:
  /// Whether N holds a mark (every node does without marks): a node that
  /// holds none has no match in it.
  bool worthVisit(TSNode N) const {
    if (Edit)
      return Edit->visits(rangeOf(N));
    if (!Marks)
      return true;
    uint32_t B = ts_node_start_byte(N);
    auto It = std::lower_bound(Marks->Offsets.begin(), Marks->Offsets.end(), B);
    return It != Marks->Offsets.end() && *It < ts_node_end_byte(N);
  }

  /// A node entered and not yet left, and what entering it changed.
  struct Entered {
    TSSymbol Sym;
    bool OpensScope, IsError, IsImport;
  };

  void enter(TSNode N, TSFieldId Field) {
    TSSymbol Parent = Path.empty() ? 0 : Path.back().Sym;
    TSSymbol S = ts_node_symbol(N);
    Entered E{S, false, S == G.Error,
              S == G.ImportStatement || S == G.ImportFromStatement ||
                  S == G.FutureImportStatement};
    bool IsClass = false;
    if (NameResolver::opensScope(N, IsClass)) {
      Scopes.push_back({N.id, IsClass});
      Context.reset();
      E.OpensScope = true;
    }
    ErrorDepth += E.IsError;
    ImportDepth += E.IsImport;
    Path.push_back(E);
    if (S == G.Comment) {
      // Else they are the marks' comments, or the previous version's.
      if (Edit ? Edit->changed(rangeOf(N)) : !Marks)
        comment(rangeOf(N));
      return;
    }
    // A docstring, or a string that a name keeps for the documentation
    // (diffusers' `EXAMPLE_DOC_STRING = """..."""`, handed to a decorator;
    // not an f-string, whose doubled braces and fields the example is not,
    // nor bytes).
    if (S == G.String && (Parent == G.ExpressionStatement ||
                          (Parent == G.Assignment && Field == G.FRight &&
                           textOf(N, Src)
                                   .take_until([](char C) { return C == '"' || C == '\''; })
                                   .find_first_of("fFbB") == llvm::StringRef::npos)))
      docstring(N);
    matchAt(N, S, Field, Parent);
  }

  void leave() {
    Entered E = Path.back();
    Path.pop_back();
    if (E.OpensScope) {
      Scopes.pop_back();
      Context.reset();
    }
    ErrorDepth -= E.IsError;
    ImportDepth -= E.IsImport;
  }

  // Ex) `# devport: ignore[cuda-set-device]`
  void comment(ByteRange R) {
    // tree-sitter's comment token takes the CR of a CRLF line end; the
    // region scan's comments (Regions.cpp, commentEnd) end before it, as
    // the comment does.
    while (R.End > R.Begin && Src[R.End - 1] == '\r')
      --R.End;
    Out.Comments.push_back(R);
    llvm::StringRef T = Src.slice(R.Begin, R.End);
    if (findWord(T, "devport:") != llvm::StringRef::npos)
      Out.Directives.push_back({R, T});
  }

  // Ex) """Run it: >>> x.cuda()""", EXAMPLE = """>>> x.cuda()"""
  void docstring(TSNode N) {
    if (!textOf(N, Src).contains(">>>"))
      return;
    EmbeddedCode Doc = extractDoctest(Src, rangeOf(N));
    if (Doc.Segments.empty())
      return;
    Out.Embedded.push_back(std::move(Doc));
    if (Record)
      Record->Docstrings.push_back(ts_node_start_byte(N));
  }

  /// The patterns that may match N (its symbol's slot, narrowed by the name
  /// it calls or names), in rule order.
  bool candidates(TSNode N, TSSymbol S) {
    Candidates.clear();
    if (S >= M.Table.size() || M.Table[S].empty())
      return false;
    const Slot &Sl = M.Table[S];
    if (!Sl.ByAnchor.empty()) {
      auto It = Sl.ByAnchor.find(M.anchorOf(N, Src, Resolver, Scopes));
      if (It != Sl.ByAnchor.end())
        Candidates.insert(Candidates.end(), It->second.begin(), It->second.end());
    }
    if (!Sl.ByObject.empty()) {
      auto It = Sl.ByObject.find(M.objectAnchorOf(N, Src, Resolver, Scopes));
      if (It != Sl.ByObject.end())
        Candidates.insert(Candidates.end(), It->second.begin(), It->second.end());
    }
    Candidates.insert(Candidates.end(), Sl.Any.begin(), Sl.Any.end());
    std::sort(Candidates.begin(), Candidates.end(),
              [](const Compiled *A, const Compiled *B) { return A->Order < B->Order; });
    return !Candidates.empty();
  }

  void matchAt(TSNode N, TSSymbol S, TSFieldId Field, TSSymbol Parent) {
    if (Edit && !Edit->changed(rangeOf(N))) {
      // Unchanged: what it matched last time, in the scopes it is in now.
      for (const auto &[Node, Previous] : Edit->previous(rangeOf(N), S)) {
        Out.Matches.push_back(Previous);
        Out.Matches.back().Context = context();
        if (Record)
          Record->Matches.push_back({Node, Previous});
      }
      return;
    }
    if (!candidates(N, S))
      return;
    PatternContext Ctx{Src, &Resolver, Scopes, Children};
    // A name pattern (`torch.cuda`) matches a whole reference, not the
    // `torch.cuda` inside `torch.cuda.x` or the callee of `torch.cuda.x()`,
    // nor the member name of an attribute (`autocast` in `torch.amp.autocast`
    // is no use of the `autocast` that `from torch.cuda.amp import autocast`
    // binds).
    bool Partial = Field == G.FObject || Field == G.FFunction || Field == G.FAttribute;
    // Nor does it match where a name is defined rather than used: imports,
    // `def name`, `class name`, `name=` arguments, `as name`, `name = ...`.
    bool Defines = ImportDepth > 0 || Field == G.FName || Field == G.FAlias ||
                   (Field == G.FLeft && Parent == G.Assignment);
    const Rule *LastRule = nullptr;
    llvm::StringRef NodeText = textOf(N, Src);
    // Each word searched for once a node: a generation per node, not a
    // clear of the table.
    if (WordAsked.size() < M.NodeWordTable.size()) {
      WordAsked.assign(M.NodeWordTable.size(), 0);
      WordFound.assign(M.NodeWordTable.size(), false);
      Generation = 0;
    }
    if (++Generation == 0) { // wrapped: no word is asked yet
      std::fill(WordAsked.begin(), WordAsked.end(), 0);
      Generation = 1;
    }
    auto Has = [&](unsigned W) {
      if (WordAsked[W] != Generation) {
        WordAsked[W] = Generation;
        // Not StringRef::find, which fills a table per call.
        WordFound[W] = findWord(NodeText, M.NodeWordTable[W]) != llvm::StringRef::npos;
      }
      return static_cast<bool>(WordFound[W]);
    };
    for (const Compiled *C : Candidates) {
      if (C->R == LastRule)
        continue; // one finding per rule and node: the first pattern that matches
      if ((Partial || Defines) && C->P.Root.K == PatternNode::QualName)
        continue;
      if (!llvm::all_of(C->NodeWords, Has) ||
          !llvm::all_of(C->NodeAnyOf, [&](const std::vector<unsigned> &Group) {
            return llvm::any_of(Group, Has);
          }))
        continue;
      // The rule's `where` entries, looked up once a rule, not by its id at
      // each binding (532,158 bindings over 1,200 of PyTorch's files); a
      // rule without accepts whatever is bound.
      auto Accept = [&](llvm::StringRef Name, llvm::StringRef Text) {
        return M.Constraints.accepts(*C->Where, Name, Text);
      };
      if (!matchPattern(C->P, N, Ctx, Bindings, C->Where ? BindFilter(Accept) : nullptr) ||
          (C->Where && !M.Constraints.hold(*C->Where, Bindings, Src)))
        continue;
      LastRule = C->R;
      Match Found;
      Found.R = C->R;
      Found.Range = rangeOf(N);
      Found.Bindings.assign(Bindings.begin(), Bindings.end());
      Found.InErrorRegion = ErrorDepth > 0 || ts_node_has_error(N);
      if (Record)
        Record->Matches.push_back({{rangeOf(N), S}, Found}); // no Context: not kept
      Found.Context = context();
      Out.Matches.push_back(std::move(Found));
    }
  }

  /// The scopes as a context shared by the matches made while they hold.
  std::shared_ptr<const PythonMatchContext> context() {
    if (!Context) {
      Context = std::make_shared<PythonMatchContext>();
      Context->Scopes = Scopes;
    }
    return Context;
  }

  const PythonMatcher &M;
  llvm::StringRef Src;
  const NameResolver &Resolver;
  const MatchMarks *Marks;
  const AfterEdit *Edit = nullptr;
  MatchRecord *Record = nullptr;
  const Grammar &G;
  MatchResults Out;
  std::vector<Entered> Path;
  std::vector<Scope> Scopes;
  std::shared_ptr<PythonMatchContext> Context;
  unsigned ErrorDepth = 0;
  unsigned ImportDepth = 0; ///< Inside an import statement: names there are not references.
  llvm::SmallVector<BoundVar, 4> Bindings;
  std::vector<const Compiled *> Candidates;
  ChildCache Children;
  /// By NodeWordTable index: the node (by Generation) for which a word was
  /// last searched, and whether its text had it.
  std::vector<uint32_t> WordAsked;
  std::vector<bool> WordFound;
  uint32_t Generation = 0;
};

MatchResults PythonMatcher::match(TSNode Root, llvm::StringRef Src, const NameResolver &Resolver,
                                  const MatchMarks *Marks) const {
  return Walk(*this, Src, Resolver, Marks).run(Root);
}

void PythonMatcher::setOptions(const BackendOptions &O) {
  Opts = O;
  Regions.DeviceWords.clear();
  // A custom device's code, ported already, is what the review reads where
  // the default's `accelerator.` would be (mentionsGuardedWord()).
  for (llvm::StringRef E : O.customDevice()) {
    std::string W = lastNameOfExpression(E);
    if (W.empty())
      W = E.trim().str(); // no name: the expression as written
    if (!W.empty() && !llvm::is_contained(Regions.DeviceWords, W))
      Regions.DeviceWords.push_back(std::move(W));
  }
}

MatchResults PythonMatcher::match(const ParsedFile &P) const {
  const auto &Py = static_cast<const PythonParsedFile &>(P);
  const NameResolver &Resolver = Py.resolver();
  // After one edit (the language server), the statements the edit touched
  // and the nodes that matched before are matched, not every node that
  // holds a mark. A node whose text and surroundings did not change matches
  // as it did: every node that matches holds a mark (Regions.h), so it was
  // visited and matched last time. The surroundings are the same where no
  // import changed (the resolver's fingerprint), neither version has a
  // syntax error outside what is matched again (an error node around
  // unchanged code changes it: PythonParsedFile::prepareIncrementalMatch)
  // and the tree kept its structure (where it did not, every node is
  // matched).
  std::optional<AfterEdit> Edit;
  if (Py.editOnly() && Py.prior()->Record.Matcher == Serial)
    Edit.emplace(Py);
  MatchRecord Rec;
  Walk W(*this, Py.text(), Resolver, Edit ? nullptr : Py.marks());
  if (Edit)
    W.afterEdit(*Edit);
  if (Py.recorded())
    W.record(Rec);
  MatchResults R = W.run(Py.root());
  // Only for the language server's check: no next version starts from
  // another.
  if (Py.recorded()) {
    if (Py.syntaxErrors() > 0)
      Rec.Errors = syntaxErrorRanges(Py.root());
    Rec.Imports = Resolver.fingerprint();
    Rec.Matcher = Serial;
    std::stable_sort(Rec.Matches.begin(), Rec.Matches.end(),
                     [](const auto &A, const auto &B) { return A.first < B.first; });
    llvm::sort(Rec.Docstrings);
    Rec.Comments = R.Comments;
    Py.setRecord(std::move(Rec));
  }
  return R;
}

} // namespace devport::python
