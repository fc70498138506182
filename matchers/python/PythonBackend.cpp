//===--- PythonBackend.cpp - The Python language backend ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/PythonBackend.h"

#include "core/Metavariable.h"
#include "core/SourceFile.h"
#include "matchers/python/Imports.h"
#include "matchers/python/ProjectModules.h"
#include "matchers/python/PythonMatcher.h"
#include "matchers/python/Review.h"
#include "matchers/python/Tokenizer.h"
#include "rewriters/EditApplier.h"
#include "rewriters/Template.h"
#include "rewriters/TokenDiff.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <map>

namespace devport::python {

PythonParsedFile::PythonParsedFile(TreePtr Tree, llvm::StringRef Text)
    : Tree(std::move(Tree)), Text(Text) {}
PythonParsedFile::~PythonParsedFile() = default;

unsigned PythonParsedFile::syntaxErrors() const {
  if (!Errors)
    Errors = countSyntaxErrors(root());
  return *Errors;
}

const NameResolver &PythonParsedFile::resolver() const {
  if (!Resolver)
    Resolver = std::make_unique<NameResolver>(index(), Text);
  return *Resolver;
}

const NodeIndex &PythonParsedFile::index() const {
  if (!Index)
    Index = std::make_unique<NodeIndex>(root());
  return *Index;
}

const std::vector<ChangedStatement> &PythonParsedFile::changes() const {
  assert(Prior && "changes() of a parse made from no previous one");
  if (Changes)
    return *Changes;
  Changes.emplace();
  const NodeIndex &X = index();
  std::vector<TSNode> Path;
  // The statement that holds [B, E), or, between statements, [B, E) alone.
  auto Around = [&](uint32_t B, uint32_t E) {
    X.pathTo(X.descendantFor(B, E), Path);
    ChangedStatement C{{B, E}, {}};
    if (!holdsStatements(Path.back()))
      for (size_t I = Path.size(); I-- > 1;)
        if (holdsStatements(Path[I - 1])) {
          // The deepest statement that holds [B, E): none of its blocks does.
          C.R = rangeOf(Path[I]);
          preorder(Path[I], [&](TSNode N, TSTreeCursor *) {
            if (!holdsStatements(N))
              return true;
            C.Blocks.push_back(rangeOf(N));
            return false;
          });
          break;
        }
    Changes->push_back(std::move(C));
  };
  ByteRange In = Prior->Inserted;
  if (In.Begin > 0)
    Around(In.Begin - 1, In.Begin);
  if (In.End > In.Begin)
    Around(In.Begin, In.End);
  if (In.End < Text.size())
    Around(In.End, In.End + 1);
  // Where the structure changed, every node is matched again.
  for (ByteRange R : Prior->Restructured)
    Changes->push_back({R, {}});
  return *Changes;
}

bool PythonParsedFile::prepareIncrementalMatch(const CompiledRules &Rules) {
  Recorded = true;
  // Another matcher (the settings changed between the two versions) has
  // other rules, and the previous matches point into its rule set.
  EditOnly = Prior && Prior->Record.Matcher == static_cast<const PythonMatcher &>(Rules).serial() &&
             resolver().fingerprint() == Prior->Record.Imports;
  if (!EditOnly || (syntaxErrors() == 0 && Prior->Record.Errors.empty()))
    return EditOnly;
  auto Within = [&](ByteRange R) {
    return llvm::any_of(changes(), [&](const ChangedStatement &C) { return C.holds(R); });
  };
  // Only within: an error apart from the edit, even the same in both
  // versions, leaves the match of the statements around the edit (without
  // the regions' marks) free to differ from a fresh check's (with them): the
  // regions and the whole tree read a broken import differently
  // (fuzz/regressions/python-engine/lsp-edit-beside-broken-import-a090cc3c).
  EditOnly =
      llvm::all_of(syntaxErrorRanges(root()), Within) && llvm::all_of(Prior->Record.Errors, Within);
  return EditOnly;
}

bool PythonBackend::handlesPath(llvm::StringRef Path) const {
  return Path.endswith(".py") || Path.endswith(".pyi");
}

llvm::Expected<std::unique_ptr<CompiledRules>>
PythonBackend::compile(const RuleSet &Rules, const BackendOptions &Opts) const {
  auto M = PythonMatcher::compile(Rules);
  if (!M)
    return M.takeError();
  (*M)->setOptions(Opts);
  return std::unique_ptr<CompiledRules>(std::move(*M));
}

bool PythonBackend::compileCannotFail(const RuleSet &Rules, const BackendOptions &) const {
  return llvm::all_of(Rules.rules(), [&](const std::shared_ptr<const Rule> &R) {
    return R->Language != language() || R->Embedded;
  });
}

std::unique_ptr<ParsedFile> PythonBackend::parse(llvm::StringRef Text, const ParsedFile *Previous,
                                                 llvm::ArrayRef<Edit> Edits) const {
  thread_local Parser P;
  TreePtr Tree;
  TreePtr Edited; // the previous tree, edited: what the new one is compared with
  // A batch run's parse (in an arena) is never a language server's previous
  // version; if it were, it is parsed again from scratch.
  // Nor is a tree with a syntax error off the lines of the edits: tree-sitter's
  // re-parse reuses what its recovery made of the old text there, where a
  // parse of the new text from scratch may recover otherwise (`def g():`
  // typed into a name a few lines above an unclosed bracket: fuzz/
  // regressions/python-engine/lsp-def-typed-into-a-name-before-an-open-
  // bracket-9c654d02). The same for the new tree, below. An error on the
  // edited lines (a line being typed) keeps the re-parse.
  auto OffTheEdits = [&](TSNode Root, llvm::StringRef T, bool New) {
    if (!ts_node_has_error(Root))
      return false;
    std::vector<ByteRange> Lines;
    int64_t Shift = 0;
    for (const Edit &E : Edits) {
      uint32_t B = E.Range.Begin + static_cast<uint32_t>(New ? Shift : 0);
      uint32_t En = New ? B + static_cast<uint32_t>(E.Replacement.size()) : E.Range.End;
      Shift += static_cast<int64_t>(E.Replacement.size()) - (E.Range.End - E.Range.Begin);
      size_t LB = T.rfind('\n', B);
      size_t LE = T.find('\n', En);
      Lines.push_back({LB == llvm::StringRef::npos ? 0u : static_cast<uint32_t>(LB + 1),
                       LE == llvm::StringRef::npos ? static_cast<uint32_t>(T.size())
                                                   : static_cast<uint32_t>(LE + 1)});
    }
    return !llvm::all_of(syntaxErrorRanges(Root), [&](ByteRange R) {
      return llvm::any_of(Lines, [&](ByteRange L) { return L.contains(R); });
    });
  };
  if (Previous) {
    const auto &Prev = static_cast<const PythonParsedFile &>(*Previous);
    if (Prev.inArena() || OffTheEdits(ts_tree_root_node(Prev.tree()), Prev.text(), false))
      Previous = nullptr;
  }
  if (Previous) {
    const auto &Prev = static_cast<const PythonParsedFile &>(*Previous);
    llvm::StringRef Old = Prev.text();
    Edited.reset(ts_tree_copy(Prev.tree()));
    // Back to front, so that each edit's offsets are still those of Old.
    for (size_t I = Edits.size(); I-- > 0;) {
      const Edit &E = Edits[I];
      assert(E.Range.End <= Old.size() && "edit outside the previous text");
      uint32_t Floor = I > 0 ? Edits[I - 1].Range.End : 0;
      uint32_t Ceiling = I + 1 < Edits.size() ? Edits[I + 1].Range.Begin
                                              : static_cast<uint32_t>(Old.size());
      TSInputEdit In = editForReparse(Old, E.Range, E.Replacement, Floor, Ceiling);
      ts_tree_edit(Edited.get(), &In);
    }
    Tree = P.parse(Text, Edited.get());
    // An error in an import statement, even on an edited line: what it
    // binds decides matches all over the file, and the re-parse may keep an
    // alias (`import torch.cuda.nvtx :as nv`) that a parse from scratch
    // drops. A line that only starts with the word (`imported = 1`) errs
    // towards the parse from scratch.
    auto InImport = [&](TSNode Root) {
      if (!ts_node_has_error(Root))
        return false;
      return llvm::any_of(syntaxErrorRanges(Root), [&](ByteRange R) {
        size_t LB = Text.rfind('\n', R.Begin);
        llvm::StringRef Line =
            Text.drop_front(LB == llvm::StringRef::npos ? 0 : LB + 1).ltrim(" \t");
        return Line.startswith("import") || Line.startswith("from");
      });
    };
    if (Tree && (OffTheEdits(ts_tree_root_node(Tree.get()), Text, true) ||
                 InImport(ts_tree_root_node(Tree.get())))) {
      Tree = P.parse(Text);
      Edited.reset();
      Previous = nullptr;
    }
  } else {
    Tree = P.parse(Text);
  }
  if (!Tree)
    return nullptr;
  auto Parsed = std::make_unique<PythonParsedFile>(std::move(Tree), Text);
  if (Previous && Edits.size() == 1) {
    const auto &Prev = static_cast<const PythonParsedFile &>(*Previous);
    const MatchRecord *R = Prev.record();
    if (R) {
      const Edit &E = Edits.front();
      const uint32_t Begin = E.Range.Begin, End = E.Range.End;
      const uint32_t Put = static_cast<uint32_t>(E.Replacement.size());
      // What lies before the edit stays, what lies after it moves with it,
      // and what holds a byte of what it replaced changed (nullopt).
      auto After = [&](uint32_t At) { return At - End + Begin + Put; };
      auto AfterRange = [&](ByteRange X) { return ByteRange{After(X.Begin), After(X.End)}; };
      auto Moved = [&](ByteRange X) -> std::optional<ByteRange> {
        if (X.End <= Begin)
          return X;
        if (X.Begin >= End)
          return AfterRange(X);
        return std::nullopt;
      };
      PriorMatches P;
      P.Inserted = {Begin, Begin + Put};
      uint32_t Count = 0;
      TSRange *Changed = ts_tree_get_changed_ranges(Edited.get(), Parsed->tree(), &Count);
      for (uint32_t I = 0; I < Count; ++I)
        P.Restructured.push_back({Changed[I].start_byte, Changed[I].end_byte});
      free(Changed);
      P.Record.Imports = R->Imports;
      P.Record.Matcher = R->Matcher;
      // What held a byte of what the edit replaced, in the new text: what
      // came in, and what lay around it.
      auto Spanned = [&](ByteRange X) {
        return ByteRange{std::min(X.Begin, Begin),
                         std::max(Begin + Put, X.End > End ? After(X.End) : 0u)};
      };
      for (const auto &[Node, M] : R->Matches) {
        std::optional<ByteRange> At = Moved(Node.Range);
        if (!At) {
          // Its node is matched again, whatever became of it: an `if`
          // whose `else` the edit broke ends before the edit now, outside
          // what tree-sitter says changed.
          P.Restructured.push_back(Spanned(Node.Range));
          continue;
        }
        Match Kept = M;
        if (*At !=
            Node.Range) { // moved, and with it what it bound (even an empty $$$X at its start)
          Kept.Range = AfterRange(M.Range);
          for (BoundVar &V : Kept.Bindings)
            V.Range = AfterRange(V.Range);
        }
        P.Record.Matches.push_back({{*At, Node.Symbol}, std::move(Kept)});
      }
      for (uint32_t At : R->Docstrings) // a start: one at the edit's start moves
        if (At < Begin || At >= End)
          P.Record.Docstrings.push_back(At < Begin ? At : After(At));
      for (ByteRange C : R->Comments)
        if (std::optional<ByteRange> At = Moved(C))
          P.Record.Comments.push_back(*At);
      for (ByteRange X : R->Errors) // one in what was replaced covers what came in
        P.Record.Errors.push_back(Moved(X).value_or(Spanned(X)));
      Parsed->setPrior(std::move(P));
    }
  }
  return Parsed;
}

std::unique_ptr<ParsedFile> PythonBackend::parseRegions(llvm::StringRef, llvm::StringRef,
                                                        const RegionText &R) const {
  TreePtr Tree = parseInArena(R.Text, R.Ranges);
  if (!Tree)
    return nullptr;
  auto Parsed = std::make_unique<PythonParsedFile>(std::move(Tree), R.Text);
  Parsed->setMarks(R.Marks);
  return Parsed;
}

std::vector<std::string> templateRoots(llvm::StringRef T) {
  std::vector<std::string> Out;
  char Quote = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    char C = T[I];
    if (Quote) {
      if (C == '\\')
        ++I;
      else if (C == Quote)
        Quote = 0;
      continue;
    }
    if (C == '\'' || C == '"') {
      Quote = C;
      continue;
    }
    if (C == '$') {
      I = metavariableAt(T, I).End - 1; // Ex) `$DEV`: not a name of the template's
      continue;
    }
    if (!(llvm::isAlpha(C) || C == '_'))
      continue;
    size_t B = I;
    while (I + 1 < T.size() && (llvm::isAlnum(T[I + 1]) || T[I + 1] == '_'))
      ++I;
    bool AfterDot = B > 0 && T[B - 1] == '.';
    bool BeforeDot = I + 1 < T.size() && T[I + 1] == '.';
    if (!AfterDot && BeforeDot) {
      std::string Name = T.slice(B, I + 1).str();
      if (!llvm::is_contained(Out, Name))
        Out.push_back(Name);
    }
  }
  return Out;
}

std::string useAliases(llvm::StringRef T, const NameResolver &R, llvm::ArrayRef<Scope> Scopes) {
  std::string Out;
  char Quote = 0;
  for (size_t I = 0; I < T.size();) {
    char C = T[I];
    if (Quote) {
      Out += C;
      if (C == '\\' && I + 1 < T.size())
        Out += T[++I];
      else if (C == Quote)
        Quote = 0;
      ++I;
      continue;
    }
    if (C == '\'' || C == '"') {
      Quote = C;
      Out += C;
      ++I;
      continue;
    }
    if (C == '$') {
      // Ex) `$DEV`, `$$$ARGS`: copied as they are.
      size_t End = metavariableAt(T, I).End;
      Out += T.slice(I, End).str();
      I = End;
      continue;
    }
    bool Start = llvm::isAlpha(C) || C == '_';
    bool InName = I > 0 && (T[I - 1] == '.' || llvm::isAlnum(T[I - 1]) || T[I - 1] == '_');
    if (!Start || InName) {
      Out += C;
      ++I;
      continue;
    }
    // A dotted chain a.b.c starting here.
    size_t E = I;
    std::vector<size_t> Dots;
    while (E < T.size() && (llvm::isAlnum(T[E]) || T[E] == '_' ||
                            (T[E] == '.' && E + 1 < T.size() &&
                             (llvm::isAlpha(T[E + 1]) || T[E + 1] == '_')))) {
      if (T[E] == '.')
        Dots.push_back(E);
      ++E;
    }
    llvm::StringRef Chain = T.slice(I, E);
    std::string Replaced = Chain.str();
    // Longest module prefix first; the last segment is the attribute used.
    for (size_t K = Dots.size(); K-- > 0;) {
      llvm::StringRef Prefix = T.slice(I, Dots[K]);
      const Binding *Plain = R.lookup(Prefix, Scopes);
      if (!Prefix.contains('.') && Plain && Plain->Target == Prefix)
        break; // `import torch` is there: keep the full name
      std::string Alias = R.aliasFor(Prefix, Scopes);
      if (!Alias.empty() && Alias != Prefix) {
        Replaced = Alias + T.slice(Dots[K], E).str();
        break;
      }
    }
    Out += Replaced;
    I = E;
  }
  return Out;
}

namespace {

/// PythonParsedFile::importsTorchOnlyUnderACondition() of Root (composer's
/// collect_env.py: `try: from torch.cuda import is_available ...` and
/// `except ImportError:`).
bool torchImportedOnlyUnderACondition(TSNode Root, llvm::StringRef Text) {
  const Grammar &G = Grammar::get();
  auto Torch = [](llvm::StringRef Module) {
    return Module == "torch" || Module.startswith("torch.");
  };
  auto NamesTorch = [&](TSNode S) {
    TSSymbol K = ts_node_symbol(S);
    if (K == G.ImportFromStatement) {
      TSNode Module = ts_node_child_by_field_id(S, G.FModuleName);
      return !ts_node_is_null(Module) && Torch(textOf(Module, Text));
    }
    bool Yes = false;
    if (K == G.ImportStatement)
      forEachChild(S, [&](TSNode C) {
        TSNode Name =
            ts_node_symbol(C) == G.AliasedImport ? ts_node_child_by_field_id(C, G.FName) : C;
        Yes |= !ts_node_is_null(Name) && ts_node_symbol(Name) == G.DottedName &&
               Torch(textOf(Name, Text));
      });
    return Yes;
  };
  auto Simple = [&](TSNode N) {
    TSSymbol K = ts_node_symbol(N);
    return K == G.ExpressionStatement || K == G.Comment;
  };
  bool TopLevel = false, Nested = false;
  forEachChild(Root, [&](TSNode S) {
    if (TopLevel || !ts_node_is_named(S))
      return;
    if (NamesTorch(S)) {
      TopLevel = true;
      return;
    }
    if (Nested || Simple(S))
      return;
    preorder(S, [&](TSNode N, TSTreeCursor *) {
      if (Nested)
        return false;
      TSSymbol K = ts_node_symbol(N);
      if (K == G.ImportStatement || K == G.ImportFromStatement) {
        Nested = NamesTorch(N);
        return false;
      }
      return !Simple(N);
    });
  });
  return Nested && !TopLevel;
}

/// Edits that remove the `from torch.cuda... import name` items of Fixed that
/// were used in Original and are no longer used in Fixed: the fixes made
/// them unused. A statement left with no names goes whole, with its line.
std::vector<Edit> unusedImportRemovals(const PythonParsedFile &Original,
                                       const PythonParsedFile &FixedFile) {
  llvm::StringRef Fixed = FixedFile.text();
  // Most fixed files import nothing from the module: then the uses of
  // every name, in both texts, are not counted (two passes over every
  // identifier were 6% of `fix --diff` over PyTorch). Such an import spells
  // the module's name as it is (collectImportUse() compares its text).
  if (!Fixed.contains(CleanedImportModule) ||
      collectImportUse(FixedFile.root(), Fixed, CleanedImportModule, /*Uses=*/false)
          .Imports.empty())
    return {};
  ImportUse Before = collectImportUse(Original.root(), Original.text(), CleanedImportModule);
  ImportUse After = collectImportUse(FixedFile.root(), Fixed, CleanedImportModule);
  std::map<uint32_t, std::vector<const ImportedName *>> Dead; // by statement
  for (const ImportedName &I : After.Imports)
    if (Before.Uses.lookup(I.Name) > 0 && After.Uses.lookup(I.Name) == 0)
      Dead[I.Statement.Begin].push_back(&I);
  std::vector<Edit> Out;
  auto IsBlank = [](char C) { return C == ' ' || C == '\t'; };
  for (auto &[Begin, Items] : Dead) {
    const ImportedName &First = *Items.front();
    if (Items.size() == First.ItemsInStatement) {
      // The whole statement, and its line if nothing else is on it.
      uint32_t B = First.Statement.Begin, E = First.Statement.End;
      uint32_t LB = B;
      while (LB > 0 && IsBlank(Fixed[LB - 1]))
        --LB;
      uint32_t LE = E;
      while (LE < Fixed.size() && IsBlank(Fixed[LE]))
        ++LE;
      bool LineStart = LB == 0 || Fixed[LB - 1] == '\n' || Fixed[LB - 1] == '\r';
      if (LineStart && LE < Fixed.size() && (Fixed[LE] == '\n' || Fixed[LE] == '\r')) {
        LE += (Fixed[LE] == '\r' && LE + 1 < Fixed.size() && Fixed[LE + 1] == '\n') ? 2 : 1;
        Out.push_back(Edit::deletion({LB, LE}, EditRole::RemoveImport));
      } else if (LineStart && LE == Fixed.size()) {
        Out.push_back(Edit::deletion({LB, LE}, EditRole::RemoveImport));
      } else {
        // Shares its line (`import x; from torch.cuda import y`): leave it.
      }
      continue;
    }
    for (const ImportedName *I : Items) {
      // `a, ` (with the comma after it), or `, a` for the last item.
      uint32_t E = I->Item.End;
      while (E < Fixed.size() && (IsBlank(Fixed[E]) || Fixed[E] == '\n' || Fixed[E] == '\r'))
        ++E;
      if (E < Fixed.size() && Fixed[E] == ',') {
        ++E;
        while (E < Fixed.size() && IsBlank(Fixed[E]))
          ++E;
        uint32_t B = I->Item.Begin;
        // An item on a line of its own (parenthesized imports) takes its line.
        uint32_t LB = B;
        while (LB > 0 && IsBlank(Fixed[LB - 1]))
          --LB;
        if (LB > 0 && Fixed[LB - 1] == '\n' && E < Fixed.size() &&
            (Fixed[E] == '\n' || Fixed[E] == '\r')) {
          B = LB;
          E += (Fixed[E] == '\r' && E + 1 < Fixed.size() && Fixed[E + 1] == '\n') ? 2 : 1;
        }
        Out.push_back(Edit::deletion({B, E}, EditRole::RemoveImport));
        continue;
      }
      uint32_t B = I->Item.Begin;
      while (B > 0 && (IsBlank(Fixed[B - 1]) || Fixed[B - 1] == '\n'))
        --B;
      if (B > 0 && Fixed[B - 1] == ',')
        Out.push_back(Edit::deletion({B - 1, I->Item.End}, EditRole::RemoveImport));
    }
  }
  return Out;
}

} // namespace

bool PythonParsedFile::importsTorchOnlyUnderACondition() const {
  if (!TorchOptional)
    TorchOptional = torchImportedOnlyUnderACondition(root(), Text);
  return *TorchOptional;
}

BuiltFix PythonBackend::buildFix(const ParsedFile &P, const MatchResults &Found, const Match &M,
                                 const FixRequest &Req) const {
  const auto &Py = static_cast<const PythonParsedFile &>(P);
  const NameResolver &Resolver = Py.resolver();
  llvm::ArrayRef<Scope> Scopes;
  if (M.Context)
    Scopes = static_cast<const PythonMatchContext &>(*M.Context).Scopes;
  llvm::StringRef Text = P.text();
  const RuleFix &RF = *Req.Fix;
  BuiltFix Out;
  // The template with the device expressions in, written with the file's
  // own aliases; then the bound code goes in.
  std::string Device = useAliases(Req.DeviceExpression, Resolver, Scopes);
  std::string DeviceType = useAliases(Req.DeviceTypeExpression, Resolver, Scopes);
  // Regex captures are pieces of literal text (a quote, an index): they go in
  // first, so that a string the template builds from them (`$Q...torch...$Q`)
  // is a string to the alias and import logic too. Bound code goes in last.
  auto IsCapture = [&](llvm::StringRef Name) {
    for (const auto &[Var, C] : M.R->Where)
      if (llvm::is_contained(C.Captures, Name))
        return true;
    return false;
  };
  std::string Needs =
      useAliases(expandTemplate(RF.Template,
                                [&](llvm::StringRef Name) -> std::optional<std::string> {
                                  if (Name == "DEVICE")
                                    return Device;
                                  if (Name == "DEVICE_TYPE")
                                    return DeviceType;
                                  if (IsCapture(Name))
                                    return M.boundText(Text, Name);
                                  return "$" + Name.str(); // expanded below
                                }),
                 Resolver, Scopes);
  std::string Replacement =
      expandTemplate(Needs, [&](llvm::StringRef Name) { return M.boundText(Text, Name); });
  Fix X;
  X.App = RF.App;
  X.Title = RF.Title.empty() ? "replace with `" + Replacement + "`" : RF.Title;
  X.Edits = tokenEdits(Text, Req.Target, Replacement, tokenize);
  // A comment inside a replaced span would be lost: never silently.
  if (editsTouch(X.Edits, Found.Comments)) {
    if (X.App == Applicability::Safe)
      X.App = Applicability::Unsafe;
    Out.Notes.push_back(Note::plain("the fix would remove a comment: it is unsafe"));
  }
  // The names the replacement uses must be importable where it goes.
  for (const std::string &Root : templateRoots(Needs)) {
    // Only `torch` is imported on demand; other names (a project's
    // `self.device`, say) are the project's to provide.
    if (Root != "torch")
      continue;
    const Binding *B = Resolver.lookup(Root, Scopes);
    if (B && B->Target == Root)
      continue; // `import torch` (or `import torch.x`) is in scope
    if (B) {
      Out.Notes.push_back(Note::plain("no fix: `" + Root + "` is bound to `" + B->Target +
                                      "` here"));
      return Out;
    }
    uint32_t At = Resolver.importInsertionOffset();
    llvm::StringRef Eol = lineEndingOf(Text);
    std::string Line = "import " + Root + Eol.str();
    if (At > 0 && At == Text.size() && !Text.endswith("\n") && !Text.endswith("\r"))
      Line = Eol.str() + Line;
    X.Edits.insert(X.Edits.begin(), Edit::insertion(At, Line, EditRole::AddImport));
    if (Py.importsTorchOnlyUnderACondition()) {
      if (X.App == Applicability::Safe)
        X.App = Applicability::Unsafe;
      Out.Notes.push_back(Note::plain(
          "unsafe: it adds `import torch` at the top of a module that imports torch only where "
          "it can (in a try, an if or a function): without torch the module no longer imports"));
    }
  }
  if (!RF.Note.empty())
    Out.Notes.push_back(Note::plain(RF.Note));
  Out.Result = std::move(X);
  return Out;
}

void PythonBackend::reviewFixes(const ParsedFile &P, std::vector<Diagnostic> &Findings,
                                std::vector<Diagnostic> &Kept, const BackendOptions &Opts) const {
  const auto &Py = static_cast<const PythonParsedFile &>(P);
  python::reviewFixes(Py.index(), Py.text(), Findings, Kept, Opts.customDevice(), &Py.resolver());
}

bool PythonBackend::forgetFile(llvm::StringRef Path) const {
  return python::forgetProjectFile(Path);
}

std::vector<Edit> PythonBackend::unusedImportEdits(const ParsedFile &Before,
                                                   const ParsedFile &After) const {
  return unusedImportRemovals(static_cast<const PythonParsedFile &>(Before),
                              static_cast<const PythonParsedFile &>(After));
}

} // namespace devport::python
