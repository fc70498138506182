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
#include <cstring>

namespace devport::python {

Parser::Parser() : P(ts_parser_new()) {
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
