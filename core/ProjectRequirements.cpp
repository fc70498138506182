//===--- ProjectRequirements.cpp - The PyTorch a project declares ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/ProjectRequirements.h"

#include "core/SourceFile.h"
#include "core/Workspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <map>

namespace devport {

namespace {

/// Arrays and inline tables nested deeper than this make a TOML file malformed.
constexpr unsigned MaxDepth = 64;

llvm::Error lineError(unsigned Line, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "line " + llvm::Twine(Line) + ": " + Why);
}

bool isNameChar(char C) { return llvm::isAlnum(C) || C == '-' || C == '_' || C == '.'; }

/// X.Y of a PEP 440 version's release segment (`2.1.0rc1`, `2.*`, `v2`,
/// `0!2.1`); nullopt without one, or with an epoch other than 0.
std::optional<TorchVersion> releaseOf(llvm::StringRef V) {
  V = V.trim();
  if (!V.consume_front("v"))
    V.consume_front("V");
  size_t Bang = V.find('!');
  if (Bang != llvm::StringRef::npos) {
    unsigned Epoch = 0;
    if (V.take_front(Bang).getAsInteger(10, Epoch) || Epoch != 0)
      return std::nullopt;
    V = V.drop_front(Bang + 1);
  }
  llvm::StringRef MajorS = V.take_while(llvm::isDigit);
  if (MajorS.empty())
    return std::nullopt;
  V = V.drop_front(MajorS.size());
  llvm::StringRef MinorS;
  if (V.consume_front("."))
    MinorS = V.take_while(llvm::isDigit);
  TorchVersion R;
  if (MajorS.getAsInteger(10, R.Major) || (!MinorS.empty() && MinorS.getAsInteger(10, R.Minor)))
    return std::nullopt; // too large
  return R;
}

/// The lower bound of one PEP 440 clause (`>=2.1`), if it has one.
std::optional<TorchVersion> clauseFloor(llvm::StringRef Clause) {
  Clause = Clause.trim();
  // Longest first: `===` before `==`, `<=` before `<`.
  static const llvm::StringRef Ops[] = {"===", "~=", "==", "!=", "<=", ">=", "<", ">"};
  for (llvm::StringRef Op : Ops) {
    if (!Clause.startswith(Op))
      continue;
    if (Op == "!=" || Op == "<=" || Op == "<")
      return std::nullopt;
    return releaseOf(Clause.drop_front(Op.size()));
  }
  return std::nullopt;
}

/// The higher of two optional floors.
std::optional<TorchVersion> higher(std::optional<TorchVersion> A, std::optional<TorchVersion> B) {
  if (!A)
    return B;
  if (!B)
    return A;
  return *A < *B ? B : A;
}

/// The index of the requirement with the highest floor (the first one if none
/// has a floor).
std::optional<size_t> strictestIndex(llvm::ArrayRef<TorchRequirement> All) {
  if (All.empty())
    return std::nullopt;
  size_t Best = 0;
  for (size_t I = 1; I < All.size(); ++I)
    if (All[I].Floor && (!All[Best].Floor || *All[Best].Floor < *All[I].Floor))
      Best = I;
  return Best;
}

/// Of alternatives (extras, Poetry's multiple constraints): the one with the
/// lowest floor, or one without a floor if there is such.
std::optional<TorchRequirement> loosest(llvm::ArrayRef<TorchRequirement> All) {
  if (All.empty())
    return std::nullopt;
  size_t Best = 0;
  for (size_t I = 1; I < All.size() && All[Best].Floor; ++I)
    if (!All[I].Floor || *All[I].Floor < *All[Best].Floor)
      Best = I;
  return All[Best];
}

/// Text without a `#` comment that starts the text or follows white space
/// (pip's rule; a `#` inside a URL fragment stays).
llvm::StringRef stripComment(llvm::StringRef Text) {
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '#' && (I == 0 || Text[I - 1] == ' ' || Text[I - 1] == '\t'))
      return Text.take_front(I);
  return Text;
}

/// Lines of Text without their line terminators ("\n" or "\r\n").
std::vector<llvm::StringRef> splitLines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Lines;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Lines.push_back(Line.rtrim('\r'));
    Text = Rest;
  }
  return Lines;
}

//===----------------------------------------------------------------------===//
// TOML: just enough for pyproject.toml
//===----------------------------------------------------------------------===//

/// A TOML value: a string, an array, an inline table (Keys[I] names
/// Items[I]), or any other scalar (numbers, booleans, dates: not kept).
struct TomlValue {
  enum Kind { String, Array, Table, Other } K = Other;
  std::string Str;
  std::vector<TomlValue> Items;
  std::vector<std::vector<std::string>> Keys;
  unsigned Line = 0;
};

/// A key/value of the document, with its full dotted path (table header plus
/// key); inline tables are flattened into one entry per value.
struct TomlEntry {
  std::vector<std::string> Path;
  TomlValue Value;
};

/// Reads TOML documents: comments, `[table]` and `[[array]]` headers, bare,
/// quoted and dotted keys, the four kinds of strings with their escapes,
/// arrays across lines, inline tables. Scalars other than strings are
/// checked only for their shape. Fails with "line N: why".
class TomlReader {
public:
  explicit TomlReader(llvm::StringRef Text) : T(Text) {}

  llvm::Expected<std::vector<TomlEntry>> read() {
    std::vector<TomlEntry> Out;
    std::vector<std::string> Table;
    for (;;) {
      skipBlank();
      if (atEnd())
        return Out;
      if (peek() == '[') {
        bool ArrayTable = peek(1) == '[';
        P += ArrayTable ? 2 : 1;
        skipSpaces();
        std::vector<std::string> Header;
        if (!key(Header))
          return error();
        skipSpaces();
        if (!consume(']') || (ArrayTable && !consume(']')))
          return failed("expected ']' after the table name");
        if (!endOfLine())
          return error();
        Table = std::move(Header);
        continue;
      }
      std::vector<std::string> Key;
      if (!key(Key))
        return error();
      skipSpaces();
      if (!consume('='))
        return failed("expected '=' after a key");
      skipSpaces();
      TomlValue V;
      if (!value(V, 0) || !endOfLine())
        return error();
      std::vector<std::string> Path = Table;
      Path.insert(Path.end(), Key.begin(), Key.end());
      emit(std::move(Path), std::move(V), Out);
    }
  }

private:
  bool atEnd() const { return P >= T.size(); }
  char peek(size_t Ahead = 0) const { return P + Ahead < T.size() ? T[P + Ahead] : '\0'; }
  bool consume(char C) {
    if (atEnd() || peek() != C)
      return false;
    ++P;
    return true;
  }
  void skipSpaces() {
    while (peek() == ' ' || peek() == '\t')
      ++P;
  }
  void skipComment() {
    if (peek() == '#')
      while (!atEnd() && peek() != '\n')
        ++P;
  }
  bool newline() {
    if (peek() == '\r' && peek(1) == '\n') {
      P += 2;
      ++Line;
      return true;
    }
    if (peek() == '\n') {
      ++P;
      ++Line;
      return true;
    }
    return false;
  }
  /// Spaces, comments and line breaks (between lines, inside arrays).
  void skipBlank() {
    for (;;) {
      skipSpaces();
      skipComment();
      if (!newline())
        return;
    }
  }
  bool endOfLine() {
    skipSpaces();
    skipComment();
    if (atEnd() || newline())
      return true;
    return fail("unexpected text after a value");
  }
  bool fail(const llvm::Twine &Why) { return failAt(Line, Why); }
  /// For what does not end: the line where it starts.
  bool failAt(unsigned AtLine, const llvm::Twine &Why) {
    if (Err.empty())
      Err = ("line " + llvm::Twine(AtLine) + ": " + Why).str();
    return false;
  }
  llvm::Error error() {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Err.empty() ? "malformed" : Err);
  }
  llvm::Error failed(const llvm::Twine &Why) {
    fail(Why);
    return error();
  }

  bool key(std::vector<std::string> &Out) {
    for (;;) {
      std::string Part;
      if (!simpleKey(Part))
        return false;
      Out.push_back(std::move(Part));
      size_t Save = P;
      skipSpaces();
      if (!consume('.')) {
        P = Save;
        return true;
      }
      skipSpaces();
    }
  }

  bool simpleKey(std::string &Out) {
    if (peek() == '"' || peek() == '\'') {
      if (peek(1) == peek() && peek(2) == peek())
        return fail("a key cannot be a multi-line string");
      return string(Out);
    }
    size_t Start = P;
    while (!atEnd() && (llvm::isAlnum(peek()) || peek() == '_' || peek() == '-'))
      ++P;
    if (P == Start)
      return fail("expected a key");
    Out = T.slice(Start, P).str();
    return true;
  }

  bool value(TomlValue &V, unsigned Depth) {
    if (Depth > MaxDepth)
      return fail("values nested too deeply");
    V.Line = Line;
    char C = peek();
    if (C == '"' || C == '\'') {
      V.K = TomlValue::String;
      return string(V.Str);
    }
    if (C == '[') {
      ++P;
      V.K = TomlValue::Array;
      for (;;) {
        skipBlank();
        if (atEnd())
          return failAt(V.Line, "unterminated array");
        if (consume(']'))
          return true;
        TomlValue Item;
        if (!value(Item, Depth + 1))
          return false;
        V.Items.push_back(std::move(Item));
        skipBlank();
        if (consume(','))
          continue;
        if (consume(']'))
          return true;
        if (atEnd())
          return failAt(V.Line, "unterminated array");
        return fail("expected ',' or ']' in an array");
      }
    }
    if (C == '{') {
      ++P;
      V.K = TomlValue::Table;
      skipBlank();
      if (consume('}'))
        return true;
      for (;;) {
        skipBlank();
        std::vector<std::string> Key;
        if (!key(Key))
          return false;
        skipSpaces();
        if (!consume('='))
          return fail("expected '=' in an inline table");
        skipSpaces();
        TomlValue Item;
        if (!value(Item, Depth + 1))
          return false;
        V.Keys.push_back(std::move(Key));
        V.Items.push_back(std::move(Item));
        skipBlank();
        if (consume(','))
          continue;
        if (consume('}'))
          return true;
        return fail("expected ',' or '}' in an inline table");
      }
    }
    return scalar();
  }

  /// A number, boolean, date or time: its shape only.
  bool scalar() {
    size_t Start = P;
    auto Stops = [&] {
      char C = peek();
      return atEnd() || C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == ',' || C == ']' ||
             C == '}' || C == '#';
    };
    while (!Stops())
      ++P;
    llvm::StringRef S = T.slice(Start, P);
    // A date and a time may be separated by one space: `1979-05-27 07:32:00`.
    if (S.size() == 10 && S[4] == '-' && S[7] == '-' && peek() == ' ' && llvm::isDigit(peek(1))) {
      ++P;
      while (!Stops())
        ++P;
    }
    if (S.empty())
      return fail("expected a value");
    char C = S.front();
    bool Numeric = llvm::isDigit(C) || C == '+' || C == '-';
    if (!Numeric && S != "true" && S != "false" && S != "inf" && S != "nan")
      return fail("expected a value, found '" + S + "' (strings need quotes)");
    return true;
  }

  bool string(std::string &Out) {
    unsigned Start = Line;
    char Q = peek();
    bool Basic = Q == '"';
    if (peek(1) == Q && peek(2) == Q) {
      P += 3;
      newline(); // a line break right after the opening quotes is dropped
      for (;;) {
        if (atEnd())
          return failAt(Start, "unterminated multi-line string");
        if (peek() == Q && peek(1) == Q && peek(2) == Q) {
          // Up to two quotes may end the content: `"""a""""`.
          size_t N = 3;
          while (N < 5 && peek(N) == Q)
            ++N;
          Out.append(N - 3, Q);
          P += N;
          return true;
        }
        if (Basic && peek() == '\\') {
          if (!escape(Out, /*MultiLine=*/true))
            return false;
          continue;
        }
        if (newline()) {
          Out += '\n';
          continue;
        }
        Out += peek();
        ++P;
      }
    }
    ++P;
    for (;;) {
      if (atEnd() || peek() == '\n' || peek() == '\r')
        return fail("unterminated string");
      if (consume(Q))
        return true;
      if (Basic && peek() == '\\') {
        if (!escape(Out, /*MultiLine=*/false))
          return false;
        continue;
      }
      Out += peek();
      ++P;
    }
  }

  /// At a backslash in a basic string.
  bool escape(std::string &Out, bool MultiLine) {
    ++P;
    char E = peek();
    switch (E) {
    case 'b': Out += '\b'; ++P; return true;
    case 't': Out += '\t'; ++P; return true;
    case 'n': Out += '\n'; ++P; return true;
    case 'f': Out += '\f'; ++P; return true;
    case 'r': Out += '\r'; ++P; return true;
    case '"': Out += '"'; ++P; return true;
    case '\\': Out += '\\'; ++P; return true;
    case 'u':
    case 'U': {
      size_t N = E == 'u' ? 4 : 8;
      llvm::StringRef Hex = T.substr(P + 1, N);
      uint32_t CP = 0;
      if (Hex.size() != N || !llvm::all_of(Hex, llvm::isHexDigit) || Hex.getAsInteger(16, CP) ||
          CP > 0x10FFFF || (CP >= 0xD800 && CP <= 0xDFFF))
        return fail("bad unicode escape");
      appendUtf8(Out, CP);
      P += 1 + N;
      return true;
    }
    default:
      break;
    }
    if (MultiLine) {
      // A backslash at the end of a line joins it with the next non-blank text.
      size_t Save = P;
      unsigned SaveLine = Line;
      skipSpaces();
      if (newline()) {
        for (;;) {
          skipSpaces();
          if (!newline())
            return true;
        }
      }
      P = Save;
      Line = SaveLine;
    }
    return fail("bad escape in a string");
  }

  static void appendUtf8(std::string &Out, uint32_t CP) {
    if (CP < 0x80) {
      Out += static_cast<char>(CP);
    } else if (CP < 0x800) {
      Out += static_cast<char>(0xC0 | (CP >> 6));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    } else if (CP < 0x10000) {
      Out += static_cast<char>(0xE0 | (CP >> 12));
      Out += static_cast<char>(0x80 | ((CP >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    } else {
      Out += static_cast<char>(0xF0 | (CP >> 18));
      Out += static_cast<char>(0x80 | ((CP >> 12) & 0x3F));
      Out += static_cast<char>(0x80 | ((CP >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    }
  }

  /// Adds V under Path, an inline table's values under their own paths.
  static void emit(std::vector<std::string> Path, TomlValue V, std::vector<TomlEntry> &Out) {
    if (V.K != TomlValue::Table) {
      Out.push_back({std::move(Path), std::move(V)});
      return;
    }
    for (size_t I = 0; I < V.Items.size(); ++I) {
      std::vector<std::string> Sub = Path;
      Sub.insert(Sub.end(), V.Keys[I].begin(), V.Keys[I].end());
      emit(std::move(Sub), std::move(V.Items[I]), Out);
    }
  }

  llvm::StringRef T;
  size_t P = 0;
  unsigned Line = 1;
  std::string Err;
};

bool pathIs(const std::vector<std::string> &Path, std::initializer_list<llvm::StringRef> Want) {
  return Path.size() == Want.size() && std::equal(Path.begin(), Path.end(), Want.begin());
}

/// The torch requirements of a TOML array of PEP 508 strings.
llvm::Error requirementsOf(const TomlEntry &E, llvm::StringRef What,
                           std::vector<TorchRequirement> &Out) {
  if (E.Value.K != TomlValue::Array ||
      !llvm::all_of(E.Value.Items, [](const TomlValue &I) { return I.K == TomlValue::String; }))
    return lineError(E.Value.Line, What + " is not an array of strings");
  for (const TomlValue &I : E.Value.Items)
    if (auto R = parseTorchRequirement(I.Str))
      Out.push_back(std::move(*R));
  return llvm::Error::success();
}

/// Poetry's `torch = "^2.1"`.
TorchRequirement poetryRequirement(llvm::StringRef Key, llvm::StringRef Constraint) {
  return {(Key + " = \"" + Constraint + "\"").str(), poetryFloor(Constraint)};
}

//===----------------------------------------------------------------------===//
// INI: just enough for setup.cfg
//===----------------------------------------------------------------------===//

struct IniValue {
  std::string Section, Key, Value;
};

/// configparser's reading: `[section]`, `key = value` or `key: value` (keys
/// lower-cased), continuation lines indented deeper than their key, comment
/// lines starting with `#` or `;`.
llvm::Expected<std::vector<IniValue>> readIni(llvm::StringRef Text) {
  std::vector<IniValue> Out;
  std::string Section;
  bool InSection = false;
  size_t KeyIndent = 0;
  bool HaveKey = false;
  unsigned LineNo = 0;
  for (llvm::StringRef Line : splitLines(Text)) {
    ++LineNo;
    llvm::StringRef Trimmed = Line.trim();
    if (Trimmed.empty()) {
      if (HaveKey)
        Out.back().Value += "\n";
      continue;
    }
    if (Trimmed.startswith("#") || Trimmed.startswith(";"))
      continue;
    size_t Indent = Line.size() - Line.ltrim(" \t").size();
    if (HaveKey && Indent > KeyIndent) {
      Out.back().Value += "\n" + Trimmed.str();
      continue;
    }
    if (Trimmed.startswith("[")) {
      if (!Trimmed.endswith("]"))
        return lineError(LineNo, "expected ']' after the section name");
      Section = Trimmed.drop_front().drop_back().str();
      InSection = true;
      HaveKey = false;
      continue;
    }
    size_t Sep = Trimmed.find_first_of("=:");
    if (Sep == llvm::StringRef::npos || Sep == 0)
      return lineError(LineNo, "expected 'key = value'");
    if (!InSection)
      return lineError(LineNo, "a value before any [section]");
    Out.push_back({Section, Trimmed.take_front(Sep).trim().lower(),
                   Trimmed.drop_front(Sep + 1).trim().str()});
    KeyIndent = Indent;
    HaveKey = true;
  }
  return Out;
}

/// setuptools' reading of a requirement list: one per line, or separated by
/// `;` when the value is one line; `#` comments dropped.
std::vector<TorchRequirement> requirementList(llvm::StringRef Value) {
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Value = Value.trim();
  Value.split(Items, Value.contains('\n') ? '\n' : ';', -1, false);
  std::vector<TorchRequirement> Out;
  for (llvm::StringRef I : Items)
    if (auto R = parseTorchRequirement(stripComment(I).trim()))
      Out.push_back(std::move(*R));
  return Out;
}

//===----------------------------------------------------------------------===//
// Python tokens: just enough for a literal install_requires list in setup.py
//===----------------------------------------------------------------------===//

struct PyToken {
  enum Kind { Name, String, Op, Number, End } K = End;
  std::string Text;     ///< Name, Op, Number: the text; String: its value.
  bool Literal = false; ///< String: a plain one (no f or b prefix).
  unsigned Line = 0;
};

/// Python tokens without comments, line breaks and indentation.
class PyLexer {
public:
  explicit PyLexer(llvm::StringRef Text) : T(Text) {}

  /// The next token; false at a string that does not end.
  bool next(PyToken &Out) {
    skip();
    Out = PyToken();
    Out.Line = Line;
    if (P >= T.size())
      return true;
    char C = T[P];
    if (llvm::isAlpha(C) || C == '_' || static_cast<unsigned char>(C) >= 0x80) {
      size_t Start = P;
      while (P < T.size() && (llvm::isAlnum(T[P]) || T[P] == '_' ||
                              static_cast<unsigned char>(T[P]) >= 0x80))
        ++P;
      llvm::StringRef Word = T.slice(Start, P);
      if (P < T.size() && (T[P] == '"' || T[P] == '\'') && Word.size() <= 2 &&
          llvm::all_of(Word.lower(), [](char L) { return L == 'r' || L == 'u' || L == 'b' ||
                                                          L == 'f'; }))
        return string(Word.lower(), Out);
      Out.K = PyToken::Name;
      Out.Text = Word.str();
      return true;
    }
    if (C == '"' || C == '\'')
      return string("", Out);
    if (llvm::isDigit(C)) {
      size_t Start = P;
      while (P < T.size() && (llvm::isAlnum(T[P]) || T[P] == '.' || T[P] == '_'))
        ++P;
      Out.K = PyToken::Number;
      Out.Text = T.slice(Start, P).str();
      return true;
    }
    Out.K = PyToken::Op;
    size_t N = (C == '=' && P + 1 < T.size() && T[P + 1] == '=') ? 2 : 1;
    Out.Text = T.substr(P, N).str();
    P += N;
    return true;
  }

  unsigned line() const { return Line; }

private:
  void skip() {
    while (P < T.size()) {
      char C = T[P];
      if (C == '\n') {
        ++Line;
        ++P;
      } else if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\\') {
        ++P;
      } else if (C == '#') {
        while (P < T.size() && T[P] != '\n')
          ++P;
      } else {
        return;
      }
    }
  }

  bool string(llvm::StringRef Prefix, PyToken &Out) {
    bool Raw = Prefix.contains('r');
    Out.K = PyToken::String;
    Out.Literal = !Prefix.contains('f') && !Prefix.contains('b');
    char Q = T[P];
    bool Triple = P + 2 < T.size() && T[P + 1] == Q && T[P + 2] == Q;
    P += Triple ? 3 : 1;
    for (;;) {
      if (P >= T.size())
        return false;
      char C = T[P];
      if (C == Q && (!Triple || (P + 2 < T.size() && T[P + 1] == Q && T[P + 2] == Q))) {
        P += Triple ? 3 : 1;
        return true;
      }
      if (C == '\n') {
        if (!Triple)
          return false;
        ++Line;
      }
      if (C == '\\' && P + 1 < T.size()) {
        char E = T[P + 1];
        P += 2;
        if (E == '\n')
          ++Line;
        if (Raw) {
          Out.Text += C;
          Out.Text += E;
          continue;
        }
        switch (E) {
        case '\n': break;
        case 'n': Out.Text += '\n'; break;
        case 't': Out.Text += '\t'; break;
        case 'r': Out.Text += '\r'; break;
        case '\\': case '\'': case '"': Out.Text += E; break;
        default: Out.Text += C; Out.Text += E; break;
        }
        continue;
      }
      Out.Text += C;
      ++P;
    }
  }

  llvm::StringRef T;
  size_t P = 0;
  unsigned Line = 1;
};

bool isOpenBracket(const PyToken &K) {
  return K.K == PyToken::Op && (K.Text == "[" || K.Text == "(" || K.Text == "{");
}
bool isCloseBracket(const PyToken &K) {
  return K.K == PyToken::Op && (K.Text == "]" || K.Text == ")" || K.Text == "}");
}

//===----------------------------------------------------------------------===//
// Files and directories
//===----------------------------------------------------------------------===//

/// Reads Path into Out; false with Why set if it cannot be read or is too large.
bool readText(llvm::StringRef Path, std::string &Out, std::string &Why) {
  auto Text = readRegularFile(Path, MaxConfigFileBytes);
  if (!Text) {
    Why = takeReadFailure(Text.takeError(), Path).Reason; // the caller puts the path in front
    return false;
  }
  Out = std::move(*Text);
  return true;
}

bool isRequirementsTxt(llvm::StringRef Name) {
  return Name.startswith("requirements") && Name.endswith(".txt");
}

/// The requirements*.txt files of Dir: requirements.txt first, then by name.
std::vector<std::string> requirementsFiles(llvm::StringRef Dir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC; I.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(I->path());
    if (isRequirementsTxt(Name) && llvm::sys::fs::is_regular_file(I->path()))
      Names.push_back(Name.str());
  }
  llvm::sort(Names, [](const std::string &A, const std::string &B) {
    bool APlain = A == "requirements.txt", BPlain = B == "requirements.txt";
    return APlain != BPlain ? APlain : A < B;
  });
  return Names;
}

enum class DirKind { Project, Stop, Continue };

/// Whether Dir is a project (holds a packaging file), the end of the search
/// (holds `.git`, or is the root) or neither.
DirKind classify(llvm::StringRef Dir) {
  // One read of the directory instead of a stat per name (and the read
  // for requirements*.txt): the names that are there are then checked.
  auto In = [&](llvm::StringRef Name) {
    llvm::SmallString<256> F(Dir);
    llvm::sys::path::append(F, Name);
    return F;
  };
  bool Project = false, Git = false;
  // readdir(3), not directory_iterator: the names alone, without a path
  // built for each entry (352 directories above PyTorch's C++ files, 6,877
  // entries: half of the time its lookups took).
  std::error_code EC;
  if (DIR *D = ::opendir(std::string(Dir).c_str())) {
    errno = 0;
    for (const dirent *Entry; (Entry = ::readdir(D)); errno = 0) {
      llvm::StringRef Name = Entry->d_name;
      bool Packaging = Name == "pyproject.toml" || Name == "setup.cfg" || Name == "setup.py" ||
                       isRequirementsTxt(Name);
      if (Packaging && !Project)
        Project =
            Entry->d_type == DT_REG || ((Entry->d_type == DT_LNK || Entry->d_type == DT_UNKNOWN) &&
                                        llvm::sys::fs::is_regular_file(In(Name)));
      else if (Name == ".git")
        Git = Entry->d_type == DT_DIR || Entry->d_type == DT_REG || llvm::sys::fs::exists(In(Name));
    }
    if (errno != 0)
      EC = std::error_code(errno, std::generic_category());
    ::closedir(D);
  } else {
    EC = std::error_code(errno, std::generic_category());
  }
  if (EC) {
    // A directory that cannot be read may still be searched (execute
    // permission only): each name is asked for.
    Project =
        Project || !requirementsFiles(Dir).empty() ||
        llvm::any_of(std::initializer_list<const char *>{"pyproject.toml", "setup.cfg", "setup.py"},
                     [&](const char *Name) { return llvm::sys::fs::is_regular_file(In(Name)); });
    Git = Git || llvm::sys::fs::exists(In(".git"));
  }
  if (Project)
    return DirKind::Project;
  if (Git || llvm::sys::path::parent_path(Dir).empty() || llvm::sys::path::parent_path(Dir) == Dir)
    return DirKind::Stop;
  return DirKind::Continue;
}

std::string absoluteDir(llvm::StringRef Dir) {
  llvm::SmallString<256> D(Dir);
  llvm::sys::fs::make_absolute(D);
  llvm::sys::path::remove_dots(D, /*remove_dot_dot=*/true);
  return std::string(D);
}

std::string pathIn(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> F(Dir);
  llvm::sys::path::append(F, Name);
  return std::string(F);
}

} // namespace

//===----------------------------------------------------------------------===//
// Requirements
//===----------------------------------------------------------------------===//

bool isTorchName(llvm::StringRef Name) {
  if (Name.empty() || !llvm::isAlnum(Name.front()) || !llvm::isAlnum(Name.back()) ||
      !llvm::all_of(Name, isNameChar))
    return false;
  std::string Norm;
  bool Sep = false;
  for (char C : Name) {
    if (C == '-' || C == '_' || C == '.') {
      Sep = true;
      continue;
    }
    if (Sep)
      Norm += '-';
    Sep = false;
    Norm += llvm::toLower(C);
  }
  return Norm == "torch";
}

std::optional<TorchRequirement> parseTorchRequirement(llvm::StringRef Requirement) {
  llvm::StringRef T = Requirement.trim();
  llvm::StringRef Name = T.take_while(isNameChar);
  if (!isTorchName(Name))
    return std::nullopt;
  llvm::StringRef Rest = T.drop_front(Name.size()).ltrim();
  if (Rest.consume_front("[")) { // extras: torch[cuda]
    size_t Close = Rest.find(']');
    if (Close == llvm::StringRef::npos)
      return std::nullopt;
    Rest = Rest.drop_front(Close + 1).ltrim();
  }
  if (!Rest.empty() && !llvm::StringRef("@;(<>=!~,").contains(Rest.front()))
    return std::nullopt; // not a requirement: a path such as `torch/x.whl`
  TorchRequirement R{T.str(), std::nullopt};
  if (Rest.startswith("@"))
    return R; // a URL: no version
  llvm::StringRef Spec = Rest.split(';').first.trim();
  if (Spec.consume_front("("))
    Spec = Spec.split(')').first;
  llvm::SmallVector<llvm::StringRef, 4> Clauses;
  Spec.split(Clauses, ',');
  for (llvm::StringRef C : Clauses)
    R.Floor = higher(R.Floor, clauseFloor(C));
  return R;
}

std::optional<TorchVersion> poetryFloor(llvm::StringRef Constraint) {
  if (Constraint.contains("||")) {
    // Alternatives: the lowest floor, none if one of them has none.
    llvm::SmallVector<llvm::StringRef, 4> Alternatives;
    Constraint.split(Alternatives, "||");
    std::optional<TorchVersion> Lowest;
    for (llvm::StringRef A : Alternatives) {
      std::optional<TorchVersion> F = poetryFloor(A);
      if (!F)
        return std::nullopt;
      if (!Lowest || *F < *Lowest)
        Lowest = F;
    }
    return Lowest;
  }
  llvm::SmallVector<llvm::StringRef, 4> Clauses;
  Constraint.split(Clauses, ',');
  std::optional<TorchVersion> Floor;
  for (llvm::StringRef C : Clauses) {
    C = C.trim();
    if (C.consume_front("^") || (C.startswith("~") && !C.startswith("~=") && C.consume_front("~")))
      Floor = higher(Floor, releaseOf(C));
    else if (!C.empty() && llvm::isDigit(C.front()))
      Floor = higher(Floor, releaseOf(C)); // `2.1` is `==2.1`; `2.1.*` likewise
    else
      Floor = higher(Floor, clauseFloor(C));
  }
  return Floor;
}

std::optional<TorchRequirement> strictest(llvm::ArrayRef<TorchRequirement> All) {
  if (auto I = strictestIndex(All))
    return All[*I];
  return std::nullopt;
}

llvm::Expected<std::optional<TorchRequirement>> readPyprojectToml(llvm::StringRef Text) {
  auto Entries = TomlReader(Text).read();
  if (!Entries)
    return Entries.takeError();
  std::vector<TorchRequirement> Base;
  std::map<std::string, std::vector<TorchRequirement>> Extras;
  std::vector<TorchRequirement> Poetry;
  std::string PoetryWithoutVersion;
  for (const TomlEntry &E : *Entries) {
    const std::vector<std::string> &Path = E.Path;
    if (pathIs(Path, {"project", "dependencies"})) {
      if (auto Err = requirementsOf(E, "[project] dependencies", Base))
        return std::move(Err);
    } else if (Path.size() == 3 && Path[0] == "project" && Path[1] == "optional-dependencies") {
      if (auto Err = requirementsOf(E, "[project.optional-dependencies] " + Path[2],
                                    Extras[Path[2]]))
        return std::move(Err);
    } else if (Path.size() >= 4 && Path[0] == "tool" && Path[1] == "poetry" &&
               Path[2] == "dependencies" && isTorchName(Path[3])) {
      // torch = "^2.1" | {version = "^2.1", ...} | [{version = ...}, ...]
      const TomlValue &V = E.Value;
      if (Path.size() == 4 && V.K == TomlValue::String) {
        Poetry.push_back(poetryRequirement(Path[3], V.Str));
      } else if (Path.size() == 5 && Path[4] == "version" && V.K == TomlValue::String) {
        Poetry.push_back(poetryRequirement(Path[3], V.Str));
      } else if (Path.size() == 4 && V.K == TomlValue::Array) {
        for (const TomlValue &Alt : V.Items)
          for (size_t I = 0; Alt.K == TomlValue::Table && I < Alt.Items.size(); ++I)
            if (Alt.Keys[I].size() == 1 && Alt.Keys[I][0] == "version" &&
                Alt.Items[I].K == TomlValue::String)
              Poetry.push_back(poetryRequirement(Path[3], Alt.Items[I].Str));
      } else {
        PoetryWithoutVersion = Path[3]; // git, path or url: no version
      }
    }
  }
  if (!Base.empty())
    return strictest(Base);
  std::vector<TorchRequirement> PerExtra;
  for (const auto &[Name, Reqs] : Extras)
    if (auto R = strictest(Reqs))
      PerExtra.push_back(std::move(*R));
  if (!PerExtra.empty())
    return loosest(PerExtra);
  if (Poetry.empty() && !PoetryWithoutVersion.empty())
    return TorchRequirement{PoetryWithoutVersion + " = {...}", std::nullopt};
  return loosest(Poetry);
}

llvm::Expected<std::optional<TorchRequirement>> readSetupCfg(llvm::StringRef Text) {
  auto Values = readIni(Text);
  if (!Values)
    return Values.takeError();
  std::vector<TorchRequirement> Base, PerExtra;
  for (const IniValue &V : *Values) {
    if (V.Section == "options" && V.Key == "install_requires") {
      std::vector<TorchRequirement> L = requirementList(V.Value);
      Base.insert(Base.end(), L.begin(), L.end());
    } else if (V.Section == "options.extras_require") {
      if (auto R = strictest(requirementList(V.Value)))
        PerExtra.push_back(std::move(*R));
    }
  }
  if (!Base.empty())
    return strictest(Base);
  return loosest(PerExtra);
}

llvm::Expected<std::optional<TorchRequirement>> readSetupPy(llvm::StringRef Text) {
  PyLexer L(Text);
  PyToken Cur, Next;
  auto Advance = [&](PyToken &Out) -> llvm::Error {
    if (!L.next(Out))
      return lineError(L.line(), "a string does not end");
    return llvm::Error::success();
  };
  // Every string literal that is a torch requirement by itself, wherever it
  // is (`_deps = ["torch>=2.6", ...]` and `extras["torch"] = deps_list(...)`,
  // diffusers' and transformers' setup.py): where no install_requires list
  // names torch, the loosest of them (as extras count in pyproject.toml).
  // Only those with a lower bound: a bare "torch" there is a key
  // (`deps_list("torch", "accelerate")`).
  std::vector<TorchRequirement> Anywhere;
  auto Note = [&](const PyToken &K) {
    if (K.K == PyToken::String && K.Literal)
      if (auto R = parseTorchRequirement(K.Text); R && R->Floor)
        Anywhere.push_back(std::move(*R));
  };
  for (;;) {
    if (auto Err = Advance(Cur))
      return std::move(Err);
    if (Cur.K == PyToken::End)
      return loosest(Anywhere);
    Note(Cur);
    bool IsKey = (Cur.K == PyToken::Name || (Cur.K == PyToken::String && Cur.Literal)) &&
                 Cur.Text == "install_requires";
    if (!IsKey)
      continue;
    if (auto Err = Advance(Next))
      return std::move(Err);
    if (Next.K != PyToken::Op || (Next.Text != "=" && Next.Text != ":"))
      continue;
    if (auto Err = Advance(Next))
      return std::move(Err);
    if (Next.K != PyToken::Op || (Next.Text != "[" && Next.Text != "("))
      continue; // not a literal list: ignored
    // The items: each a run of tokens up to a comma at this level; only
    // items made of plain string literals alone count.
    unsigned Start = Next.Line;
    std::vector<TorchRequirement> Found;
    std::string Item;
    bool Literal = true, Empty = true;
    unsigned Depth = 0;
    auto EndItem = [&] {
      if (!Empty && Literal)
        if (auto R = parseTorchRequirement(Item))
          Found.push_back(std::move(*R));
      Item.clear();
      Literal = true;
      Empty = true;
    };
    for (;;) {
      PyToken K;
      if (auto Err = Advance(K))
        return std::move(Err);
      if (K.K == PyToken::End)
        return lineError(Start, "the install_requires list does not end");
      if (Depth == 0 && isCloseBracket(K)) {
        EndItem();
        if (!Found.empty())
          return strictest(Found);
        break;
      }
      Note(K);
      if (Depth == 0 && K.K == PyToken::Op && K.Text == ",") {
        EndItem();
        continue;
      }
      if (isOpenBracket(K))
        ++Depth;
      else if (isCloseBracket(K))
        --Depth;
      Empty = false;
      if (K.K == PyToken::String && K.Literal)
        Item += K.Text;
      else
        Literal = false;
    }
  }
}

std::optional<TorchRequirement> readRequirementsTxt(llvm::StringRef Text,
                                                     std::vector<std::string> *Includes) {
  std::vector<TorchRequirement> Found;
  std::string Joined;
  for (llvm::StringRef Raw : splitLines(Text)) {
    // A backslash at the end continues the line.
    if (Raw.endswith("\\")) {
      Joined += Raw.drop_back().str();
      continue;
    }
    Joined += Raw.str();
    llvm::StringRef Line = stripComment(Joined).trim();
    if (Line.startswith("-")) {
      llvm::StringRef Opt = Line;
      llvm::StringRef File;
      if (Opt.consume_front("--requirement"))
        File = Opt.ltrim(" \t=");
      else if (Opt.consume_front("-r"))
        File = Opt.ltrim(" \t");
      if (!File.empty() && Includes)
        Includes->push_back(File.trim().str());
    } else if (!Line.empty()) {
      // Per-requirement options (`--hash=...`) follow white space.
      size_t Opt = Line.find(" --");
      if (Opt == llvm::StringRef::npos)
        Opt = Line.find("\t--");
      if (auto R = parseTorchRequirement(Line.take_front(Opt)))
        Found.push_back(std::move(*R));
    }
    Joined.clear();
  }
  return strictest(Found);
}

//===----------------------------------------------------------------------===//
// Projects
//===----------------------------------------------------------------------===//

bool isPackagingFileName(llvm::StringRef FileName) {
  return FileName == "pyproject.toml" || FileName == "setup.cfg" || FileName == "setup.py" ||
         isRequirementsTxt(FileName);
}

std::string findProjectDir(llvm::StringRef Dir) {
  std::string D = absoluteDir(Dir);
  for (llvm::StringRef P = D; !P.empty(); P = llvm::sys::path::parent_path(P)) {
    DirKind K = classify(P);
    if (K == DirKind::Project)
      return P.str();
    if (K == DirKind::Stop)
      break;
  }
  return "";
}

std::string projectDirAbove(llvm::StringRef ProjectDir) {
  llvm::SmallString<256> Git(ProjectDir);
  llvm::sys::path::append(Git, ".git");
  if (llvm::sys::fs::exists(Git) || !llvm::sys::path::has_parent_path(ProjectDir))
    return "";
  std::string Up = findProjectDir(llvm::sys::path::parent_path(ProjectDir));
  return Up == ProjectDir ? "" : Up;
}

std::optional<TorchRequirement> readPyTorchVersionTxt(llvm::StringRef Text) {
  llvm::StringRef Line = Text.split('\n').first.trim();
  // `2.6.0a0`, `2.7.0`, `2.10.0.dev20251101`: the release is the first two numbers.
  auto [Major, Rest] = Line.split('.');
  llvm::StringRef Minor = Rest.take_while([](char C) { return C >= '0' && C <= '9'; });
  if (Minor.empty() || (Rest.size() > Minor.size() && Rest[Minor.size()] != '.'))
    return std::nullopt;
  auto V = TorchVersion::parse((Major + "." + Minor).str());
  if (!V)
    return std::nullopt;
  return TorchRequirement{Line.str() + ", PyTorch's own source tree", V};
}

TorchDeclaration readTorchDeclaration(llvm::StringRef ProjectDir) {
  TorchDeclaration D;
  D.ProjectDir = ProjectDir.str();
  auto Read = [&](const std::string &Path, std::string &Text) {
    D.FilesRead.push_back(Path);
    std::string Why;
    if (readText(Path, Text, Why))
      return true;
    D.Problems.push_back({Path, Why});
    return false;
  };
  // PyTorch's own source tree (`version.txt` beside `torch/csrc`) runs on
  // the release it is: its packaging files do not require torch.
  std::string Version = pathIn(ProjectDir, "version.txt");
  if (llvm::sys::fs::is_regular_file(Version) &&
      llvm::sys::fs::is_directory(pathIn(ProjectDir, "torch/csrc"))) {
    std::string Text;
    if (Read(Version, Text)) {
      if (auto R = readPyTorchVersionTxt(Text)) {
        D.File = Version;
        D.Requirement = std::move(*R);
        return D;
      }
      D.Problems.push_back({Version, "no release of the form X.Y[.Z...] on its first line"});
    }
  }
  using Reader = llvm::Expected<std::optional<TorchRequirement>> (*)(llvm::StringRef);
  static const std::pair<const char *, Reader> Files[] = {
      {"pyproject.toml", readPyprojectToml},
      {"setup.cfg", readSetupCfg},
      {"setup.py", readSetupPy}};
  for (const auto &[Name, Fn] : Files) {
    std::string Path = pathIn(ProjectDir, Name), Text;
    if (!llvm::sys::fs::is_regular_file(Path) || !Read(Path, Text))
      continue;
    auto R = Fn(Text);
    if (!R) {
      D.Problems.push_back({Path, llvm::toString(R.takeError())});
      continue;
    }
    if (*R) {
      D.File = Path;
      D.Requirement = std::move(**R);
      return D;
    }
  }
  for (const std::string &Name : requirementsFiles(ProjectDir)) {
    std::string Path = pathIn(ProjectDir, Name), Text;
    if (!Read(Path, Text))
      continue;
    std::vector<std::string> Includes;
    std::vector<TorchRequirement> Found;
    std::vector<std::string> From;
    if (auto R = readRequirementsTxt(Text, &Includes)) {
      Found.push_back(std::move(*R));
      From.push_back(Path);
    }
    // `-r FILE` lines, one level deep, relative to the including file.
    for (const std::string &Inc : Includes) {
      llvm::SmallString<256> IncPath(Inc);
      llvm::sys::fs::make_absolute(ProjectDir, IncPath);
      llvm::sys::path::remove_dots(IncPath, /*remove_dot_dot=*/true);
      std::string IncText;
      if (!llvm::sys::fs::is_regular_file(IncPath)) {
        D.Problems.push_back({Path, "-r " + Inc + ": no such file"});
        continue;
      }
      if (!Read(std::string(IncPath), IncText))
        continue;
      if (auto R = readRequirementsTxt(IncText, nullptr)) {
        Found.push_back(std::move(*R));
        From.push_back(std::string(IncPath));
      }
    }
    if (auto I = strictestIndex(Found)) {
      D.File = From[*I];
      D.Requirement = Found[*I];
      return D;
    }
  }
  return D;
}

std::shared_ptr<const TorchDeclaration> RequirementsCache::forFile(llvm::StringRef FilePath) {
  std::lock_guard<std::mutex> Lock(M);
  llvm::SmallString<256> Start(absoluteDir(FilePath));
  llvm::sys::path::remove_filename(Start);
  std::string Project = answerUpward(Start, DirToProject, [](llvm::StringRef P) {
    switch (classify(P)) {
    case DirKind::Project:
      return std::optional<std::string>(P.str());
    case DirKind::Stop:
      return std::optional<std::string>("");
    case DirKind::Continue:
      break;
    }
    return std::optional<std::string>();
  });
  if (Project.empty())
    return nullptr;
  auto It = Read.find(Project);
  if (It != Read.end())
    return It->second;
  auto D = std::make_shared<TorchDeclaration>(readTorchDeclaration(Project));
  for (const std::string &F : D->FilesRead)
    FilesRead.insert(F);
  // A project whose files declare nothing about torch (an example's
  // requirements.txt of `datasets` and `numpy`, peft's) runs on the torch of
  // the project around it: the next one above that declares it decides, up
  // to a directory holding .git. What this one could not read is still said.
  for (std::string Dir = Project; D->File.empty();) {
    std::string Up = projectDirAbove(Dir);
    if (Up.empty())
      break;
    TorchDeclaration Outer = readTorchDeclaration(Up);
    for (const std::string &F : Outer.FilesRead) {
      FilesRead.insert(F);
      D->FilesRead.push_back(F);
    }
    llvm::append_range(D->Problems, Outer.Problems);
    if (!Outer.File.empty()) {
      D->ProjectDir = Outer.ProjectDir;
      D->File = Outer.File;
      D->Requirement = Outer.Requirement;
    }
    Dir = Up;
  }
  Read[Project] = D;
  return D;
}

bool RequirementsCache::hasRead(llvm::StringRef Path) {
  std::lock_guard<std::mutex> Lock(M);
  return FilesRead.count(Path) != 0;
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

TorchTarget TorchTarget::choose(std::optional<TorchVersion> FrontEnd,
                                std::optional<TorchVersion> Configured,
                                llvm::StringRef ConfigFile,
                                std::shared_ptr<const TorchDeclaration> Declared) {
  TorchTarget T;
  T.Declared = std::move(Declared);
  std::optional<TorchVersion> Floor = T.Declared ? T.Declared->floor() : std::nullopt;
  if (FrontEnd) {
    T.Release = *FrontEnd;
    T.Origin = TargetOrigin::CommandLine;
  } else if (Configured) {
    T.Release = *Configured;
    T.Origin = TargetOrigin::Config;
    T.ConfigFile = ConfigFile.str();
  } else if (Floor) {
    T.Release = *Floor;
    T.Origin = TargetOrigin::Project;
  }
  return T;
}

std::optional<TorchVersion> TorchTarget::floorBelowTarget() const {
  if (Origin != TargetOrigin::CommandLine && Origin != TargetOrigin::Config)
    return std::nullopt;
  std::optional<TorchVersion> Floor = Declared ? Declared->floor() : std::nullopt;
  if (!Floor || !(*Floor < Release))
    return std::nullopt;
  return Floor;
}

bool operator==(const TorchTarget &A, const TorchTarget &B) {
  if (!(A.Release == B.Release) || A.Origin != B.Origin || A.ConfigFile != B.ConfigFile)
    return false;
  if (A.Declared == B.Declared)
    return true;
  return A.Declared && B.Declared && *A.Declared == *B.Declared;
}

} // namespace devport
