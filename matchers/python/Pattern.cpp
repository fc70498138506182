//===--- Pattern.cpp - Code patterns with metavariables -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Pattern.h"
#include "core/Metavariable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace devport::python {

// Metavariables are not Python; they are renamed to identifiers before
// parsing and recognised by these prefixes afterwards.
static constexpr llvm::StringLiteral SeqPrefix = "__devport_seq_";
static constexpr llvm::StringLiteral VarPrefix = "__devport_var_";

/// Rewrites `$$$X` and `$X` to parseable identifiers. Any other `$` run
/// (`$$`, a lone `$`; rules with them are rejected when loaded) is kept.
static std::string encodeMetavars(llvm::StringRef Text) {
  std::string Out;
  size_t Done = 0;
  forEachMetavariable(Text, [&](const MetavarToken &T) {
    Out += Text.slice(Done, T.Begin);
    if (T.Kind == MetavarToken::Metavar) {
      Out += T.Sequence ? SeqPrefix : VarPrefix; // Ex) `$$$ARGS` -> __devport_seq_ARGS
      Out += T.Name;
    } else {
      Out += Text.slice(T.Begin, T.End); // Ex) `$$`, `$1`
    }
    Done = T.End;
  });
  Out += Text.drop_front(Done);
  return Out;
}

namespace {

class Compiler {
public:
  Compiler(llvm::StringRef Src, Pattern &P) : Src(Src), P(P), G(Grammar::get()) {}

  PatternNode compile(TSNode N, bool InArgs, bool AllowQual) {
    PatternNode Out;
    TSSymbol S = ts_node_symbol(N);
    Out.Symbol = S;
    llvm::StringRef T = textOf(N, Src);
    if (S == G.Identifier) {
      if (T.startswith(SeqPrefix) || T.startswith(VarPrefix)) {
        bool Seq = T.startswith(SeqPrefix);
        Out.K = Seq ? PatternNode::MetavarSeq : PatternNode::Metavar;
        Out.Text = T.drop_front(Seq ? SeqPrefix.size() : VarPrefix.size()).str();
        Out.Positional = InArgs;
        if (!llvm::is_contained(P.Metavars, Out.Text))
          P.Metavars.push_back(Out.Text);
        return Out;
      }
    }
    if (AllowQual && (S == G.Identifier || S == G.Attribute)) {
      std::string Q;
      if (pureChain(N, Q)) {
        Out.K = PatternNode::QualName;
        Out.Text = Q;
        llvm::SmallVector<llvm::StringRef, 4> Parts;
        llvm::StringRef(Q).split(Parts, '.');
        for (llvm::StringRef Part : Parts) {
          addWord(Part);
          P.NameWords.push_back(Part.str());
        }
        return Out;
      }
    }
    std::string Value;
    if (S == G.String && simpleStringValue(N, Src, Value)) {
      Out.K = PatternNode::StringValue;
      Out.Text = Value;
      if (!Value.empty()) {
        addWord(Value);
        P.ValueWords.push_back(Value);
      }
      return Out;
    }
    if (ts_node_child_count(N) == 0) {
      Out.K = PatternNode::Leaf;
      if (ts_node_is_named(N))
        Out.Text = T.str();
      if (S == G.Identifier) {
        addWord(T); // a keyword or attribute name: the file must contain it
        P.NameWords.push_back(T.str());
      }
      // Ex) the `cuda:` of f"cuda:{$I}": a string's literal text, as written.
      if (S == G.StringContent && !T.empty()) {
        addWord(T);
        if (!InInterpolated) // an f-string's part is only in f-strings
          P.StringPartWords.push_back(T.str());
      }
      return Out;
    }
    // A statement that is only a metavariable (`$$$BODY` in a block) stands
    // for statements, not for an expression statement.
    if (S == G.ExpressionStatement && ts_node_named_child_count(N) == 1) {
      TSNode Only = ts_node_named_child(N, 0);
      llvm::StringRef OT = textOf(Only, Src);
      if (ts_node_symbol(Only) == G.Identifier &&
          (OT.startswith(SeqPrefix) || OT.startswith(VarPrefix)))
        return compile(Only, false, AllowQual);
    }
    Out.K = PatternNode::Node;
    Out.NamedOnly = isList(S);
    bool ChildInArgs = S == G.ArgumentList;
    TSNode NameField = S == G.KeywordArgument ? ts_node_child_by_field_id(N, G.FName) : TSNode{};
    TSNode AttrField = S == G.Attribute ? ts_node_child_by_field_id(N, G.FAttribute) : TSNode{};
    bool WasInterpolated = InInterpolated;
    if (S == G.String) {
      InInterpolated = false;
      forEachChild(N, [&](TSNode C) { InInterpolated |= ts_node_symbol(C) == G.Interpolation; });
    }
    forEachChild(N, [&](TSNode C) {
      if (ts_node_is_extra(C))
        return;
      if (Out.NamedOnly && !ts_node_is_named(C))
        return;
      bool IsName = (S == G.KeywordArgument && sameNode(C, NameField)) ||
                    (S == G.Attribute && sameNode(C, AttrField)) || bindsName(N, C);
      Out.Children.push_back(compile(C, ChildInArgs, !IsName));
    });
    InInterpolated = WasInterpolated;
    return Out;
  }

private:
  /// Whether C, a child of N, is a name that N binds rather than one it
  /// reads: a parameter's (`device` of `def $F(device=$S)`, also where
  /// the file imports a `device`: `from torch import device`), or a
  /// definition's. It is compared as written, not resolved.
  bool bindsName(TSNode N, TSNode C) const {
    if (ts_node_symbol(C) != G.Identifier)
      return false;
    TSSymbol S = ts_node_symbol(N);
    if (S == G.Parameters || S == G.LambdaParameters)
      return true;
    if (S == G.FunctionDefinition || S == G.ClassDefinition)
      return sameNode(C, ts_node_child_by_field_id(N, G.FName));
    llvm::StringRef Type = ts_node_type(N);
    if (Type == "default_parameter" || Type == "typed_default_parameter")
      return sameNode(C, ts_node_child_by_field_id(N, G.FName));
    // `device: str` names its parameter by its first child, without a field.
    return Type == "typed_parameter" && sameNode(C, ts_node_child(N, 0));
  }

  bool isList(TSSymbol S) const {
    return S == G.ArgumentList || S == G.List || S == G.Tuple || S == G.Set ||
           S == G.Dictionary || S == G.Parameters || S == G.LambdaParameters ||
           S == G.Block || S == G.Module;
  }

  /// `a`, `a.b.c` made of plain identifiers (no metavariables) -> "a.b.c".
  bool pureChain(TSNode N, std::string &Out) {
    TSSymbol S = ts_node_symbol(N);
    if (S == G.Identifier) {
      llvm::StringRef T = textOf(N, Src);
      if (T.startswith(SeqPrefix) || T.startswith(VarPrefix))
        return false;
      Out = T.str();
      return true;
    }
    if (S != G.Attribute)
      return false;
    TSNode Obj = ts_node_child_by_field_id(N, G.FObject);
    TSNode Attr = ts_node_child_by_field_id(N, G.FAttribute);
    if (ts_node_is_null(Obj) || ts_node_is_null(Attr) || !pureChain(Obj, Out))
      return false;
    llvm::StringRef AT = textOf(Attr, Src);
    if (AT.startswith(SeqPrefix) || AT.startswith(VarPrefix))
      return false; // `torch.cuda.$X`: a metavariable, not a name
    Out += "." + AT.str();
    return true;
  }

  void addWord(llvm::StringRef W) {
    if (!llvm::is_contained(P.RequiredWords, W))
      P.RequiredWords.push_back(W.str());
  }

  llvm::StringRef Src;
  Pattern &P;
  const Grammar &G;
  bool InInterpolated = false; ///< Within a string that holds an interpolation.
};

} // namespace


llvm::Expected<Pattern> compilePattern(llvm::StringRef Text) {
  const Grammar &G = Grammar::get();
  if (Text.trim().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "pattern is empty");
  std::string Src = encodeMetavars(Text);
  Parser Parse;
  TreePtr Tree = Parse.parse(Src);
  if (!Tree)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "pattern could not be parsed");
  TSNode Root = ts_tree_root_node(Tree.get());
  if (ts_node_has_error(Root))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "pattern is not valid Python: `%s`", Text.str().c_str());
  if (ts_node_named_child_count(Root) != 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "pattern must be a single expression: `%s`",
                                   Text.str().c_str());
  TSNode Stmt = ts_node_named_child(Root, 0);
  TSNode Expr = Stmt;
  if (ts_node_symbol(Stmt) == G.ExpressionStatement && ts_node_named_child_count(Stmt) == 1)
    Expr = ts_node_named_child(Stmt, 0);
  Pattern P;
  Compiler C(Src, P);
  P.Root = C.compile(Expr, false, true);
  if (P.Root.K == PatternNode::Metavar || P.Root.K == PatternNode::MetavarSeq)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "pattern must not be a bare metavariable: `%s`",
                                   Text.str().c_str());
  P.RootSymbol = P.Root.Symbol;
  const PatternNode *Named = &P.Root;
  if (P.Root.K == PatternNode::Node && P.Root.Symbol == G.Call && !P.Root.Children.empty())
    Named = &P.Root.Children.front();
  if (Named->K == PatternNode::QualName) {
    llvm::StringRef Q = Named->Text;
    P.AnchorName = Q.rsplit('.').second.empty() ? Q.str() : Q.rsplit('.').second.str();
  } else if (Named->K == PatternNode::Node && Named->Symbol == G.Attribute &&
             !Named->Children.empty()) {
    // `$X.cuda(...)`, `$X.is_cuda`: the attribute's name, as anchorOf() gives
    // it for the code's attribute node.
    const PatternNode &Last = Named->Children.back();
    const PatternNode &Object = Named->Children.front();
    if (Last.K == PatternNode::Leaf && Last.Symbol == G.Identifier && !Last.Text.empty()) {
      P.AnchorName = Last.Text;
    } else if (Last.K == PatternNode::Metavar && Object.K == PatternNode::QualName) {
      // `torch.backends.cudnn.$X`: what it is an attribute of.
      llvm::StringRef Q = Object.Text;
      P.ObjectAnchor = Q.rsplit('.').second.empty() ? Q.str() : Q.rsplit('.').second.str();
    }
  }
  return P;
}

/// `f"`, `F'''` and `f'` open the same kind of string: same prefix letters
/// (case-insensitive), any quotes.
static bool sameStringKind(llvm::StringRef A, llvm::StringRef B) {
  auto Prefix = [](llvm::StringRef S) {
    std::string P;
    for (char C : S)
      if (C != '\'' && C != '"')
        P += static_cast<char>(tolower(static_cast<unsigned char>(C)));
    std::sort(P.begin(), P.end());
    return P;
  };
  return Prefix(A) == Prefix(B);
}

namespace {

class Matcher {
public:
  Matcher(const PatternContext &Ctx, llvm::SmallVectorImpl<BoundVar> &B, BindFilter Accept)
      : Ctx(Ctx), B(B), G(Grammar::get()), Accept(Accept) {}
  Matcher(const Matcher &) = delete;
  Matcher &operator=(const Matcher &) = delete;

  bool node(const PatternNode &P, TSNode N) {
    switch (P.K) {
    case PatternNode::Metavar:
      if (P.Positional) {
        TSSymbol S = ts_node_symbol(N);
        if (S == G.KeywordArgument || S == G.ListSplat || S == G.DictionarySplat)
          return false;
      }
      return bind(P.Text, rangeOf(N));
    case PatternNode::MetavarSeq:
      return bind(P.Text, rangeOf(N));
    case PatternNode::QualName: {
      TSSymbol S = ts_node_symbol(N);
      if (S != G.Identifier && S != G.Attribute)
        return false;
      // Cheap test on the last segment before resolving the whole chain.
      llvm::StringRef Last = llvm::StringRef(P.Text).rsplit('.').second;
      if (Last.empty())
        Last = P.Text;
      TSNode LastNode = S == G.Attribute ? ts_node_child_by_field_id(N, G.FAttribute) : N;
      if (S == G.Attribute && textOf(LastNode, Ctx.Src) != Last)
        return false;
      auto Q = Ctx.Resolver->qualifiedName(N, Ctx.Scopes);
      return Q && *Q == P.Text;
    }
    case PatternNode::StringValue: {
      std::string V;
      return simpleStringValue(N, Ctx.Src, V) && V == P.Text;
    }
    case PatternNode::Leaf:
      if (ts_node_symbol(N) != P.Symbol)
        return false;
      if (P.Symbol == G.StringEnd)
        return true; // the quotes were compared at the start
      if (P.Symbol == G.StringStart)
        return sameStringKind(P.Text, textOf(N, Ctx.Src));
      return P.Text.empty() || textOf(N, Ctx.Src) == P.Text;
    case PatternNode::Node: {
      if (ts_node_symbol(N) != P.Symbol)
        return false;
      llvm::SmallVector<TSNode, 8> Kids;
      kids(N, P.NamedOnly, Kids);
      // `async def` is a function_definition whose first child is `async`:
      // a `def` pattern matches it too.
      if (P.Symbol == G.FunctionDefinition && !Kids.empty() && !ts_node_is_named(Kids.front()) &&
          textOf(Kids.front(), Ctx.Src) == "async" &&
          (P.Children.empty() || P.Children.front().K != PatternNode::Leaf ||
           P.Children.front().Text != "async"))
        Kids.erase(Kids.begin());
      // An empty $$$X binds the position just inside the node (after `(`).
      LastEnd = ts_node_start_byte(N) + (P.NamedOnly && ts_node_child_count(N) > 0 ? 1 : 0);
      return seq(P.Children, Kids);
    }
    }
    return false;
  }

private:
  bool seq(llvm::ArrayRef<PatternNode> Ps, llvm::ArrayRef<TSNode> Cs) {
    if (Ps.empty())
      return Cs.empty();
    const PatternNode &First = Ps.front();
    if (First.K == PatternNode::MetavarSeq) {
      // Try every length, shortest first; restore bindings between tries.
      for (size_t Len = 0; Len <= Cs.size(); ++Len) {
        size_t Mark = B.size();
        ByteRange R;
        if (Len == 0) {
          uint32_t At = Cs.empty() ? gapOffset() : ts_node_start_byte(Cs.front());
          R = {At, At};
        } else {
          R = {ts_node_start_byte(Cs.front()), ts_node_end_byte(Cs[Len - 1])};
        }
        if (bind(First.Text, R) && seq(Ps.drop_front(), Cs.drop_front(Len)))
          return true;
        B.resize(Mark);
      }
      return false;
    }
    if (Cs.empty())
      return false;
    size_t Mark = B.size();
    if (node(First, Cs.front())) {
      LastEnd = ts_node_end_byte(Cs.front());
      if (seq(Ps.drop_front(), Cs.drop_front()))
        return true;
    }
    B.resize(Mark);
    return false;
  }

  uint32_t gapOffset() const { return LastEnd; }

  /// The children of N that a Node pattern compares (not comments, which
  /// are extras; not punctuation where it reads named children only), into
  /// Out: read once per traversal (ChildCache).
  void kids(TSNode N, bool NamedOnly, llvm::SmallVectorImpl<TSNode> &Out) {
    for (TSNode C : Ctx.Children.children(N))
      if (!ts_node_is_extra(C) && (!NamedOnly || ts_node_is_named(C)))
        Out.push_back(C);
  }

  bool bind(const std::string &Name, ByteRange R) {
    for (const BoundVar &V : B)
      if (V.Name == Name)
        return Ctx.Src.slice(V.Range.Begin, V.Range.End) == Ctx.Src.slice(R.Begin, R.End);
    if (Accept && !Accept(Name, Ctx.Src.slice(R.Begin, R.End)))
      return false;
    B.push_back({Name, R});
    return true;
  }

  const PatternContext &Ctx;
  llvm::SmallVectorImpl<BoundVar> &B;
  const Grammar &G;
  BindFilter Accept;
  uint32_t LastEnd = 0;
};

} // namespace

ChildCache::~ChildCache() {
  if (HasCursor)
    ts_tree_cursor_delete(&Cursor);
}

llvm::ArrayRef<TSNode> ChildCache::children(TSNode N) {
  auto [It, New] = Spans.try_emplace(N.id, static_cast<uint32_t>(Nodes.size()), 0);
  if (New) {
    if (!HasCursor && ts_node_child_count(N) > SmallNodeChildren) {
      Cursor = ts_tree_cursor_new(N);
      HasCursor = true;
    }
    forEachChild(
        N, [&](TSNode C) { Nodes.push_back(C); }, HasCursor ? &Cursor : nullptr);
    It->second.second = static_cast<uint32_t>(Nodes.size()) - It->second.first;
  }
  return llvm::makeArrayRef(Nodes).slice(It->second.first, It->second.second);
}

bool matchPattern(const Pattern &P, TSNode N, const PatternContext &Ctx,
                  llvm::SmallVectorImpl<BoundVar> &Bindings, BindFilter Accept) {
  Bindings.clear();
  Matcher M(Ctx, Bindings, Accept);
  return M.node(P.Root, N);
}

} // namespace devport::python
