//===--- RuleSet.cpp - Loading and validating the rule database -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Rule.h"
#include "core/YamlReader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <algorithm>

namespace devport {

std::string RuleLoc::str() const {
  if (Line == 0)
    return File;
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

const RuleFix *Rule::fixFor(TorchVersion Target) const {
  for (const RuleFix &F : Fixes)
    if (F.Since <= Target)
      return &F;
  return nullptr;
}

bool isReservedMetavariable(llvm::StringRef Name) {
  return Name == "DEVICE" || Name == "DEVICE_TYPE";
}

static bool isMetavarStart(char C) { return (C >= 'A' && C <= 'Z') || C == '_'; }
static bool isMetavarChar(char C) { return isMetavarStart(C) || (C >= '0' && C <= '9'); }

std::vector<std::string> metavariablesIn(llvm::StringRef Text) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '$')
      continue;
    size_t J = I + 1;
    if (Text.substr(I).startswith("$$$"))
      J = I + 3;
    else if (Text.substr(I).startswith("$$")) {
      ++I; // `$$` is a literal dollar
      continue;
    }
    if (J >= Text.size() || !isMetavarStart(Text[J]))
      continue;
    size_t E = J;
    while (E < Text.size() && isMetavarChar(Text[E]))
      ++E;
    std::string Name = Text.slice(J, E).str();
    if (!llvm::is_contained(Out, Name))
      Out.push_back(Name);
    I = E - 1;
  }
  return Out;
}

/// The offset of the first `$` in a pattern that does not start a valid
/// metavariable, or npos.
static size_t badMetavariable(llvm::StringRef Text) {
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '$')
      continue;
    size_t J = Text.substr(I).startswith("$$$") ? I + 3 : I + 1;
    if (J >= Text.size() || !isMetavarStart(Text[J]))
      return I;
    while (J < Text.size() && isMetavarChar(Text[J]))
      ++J;
    if (J < Text.size() && (llvm::isAlnum(Text[J])))
      return I; // e.g. $DEVx: lower-case letters are not part of a name
    I = J - 1;
  }
  return llvm::StringRef::npos;
}

static bool isKebab(llvm::StringRef S) {
  if (S.empty() || !(S.front() >= 'a' && S.front() <= 'z') || S.back() == '-')
    return false;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    bool Ok = (C >= 'a' && C <= 'z') || (C >= '0' && C <= '9') || C == '-';
    if (!Ok || (C == '-' && S[I + 1] == '-'))
      return false;
  }
  return true;
}

static const llvm::StringRef RuleKeys[] = {"id",      "kind",        "language", "category", "severity",
                                           "message", "description", "note",     "url",
                                           "pattern", "any",         "where",    "focus",
                                           "fix",     "examples"};
static const llvm::StringRef FixKeys[] = {"since", "template", "applicability", "title", "note"};
static const llvm::StringRef WhereKeys[] = {"regex", "not-regex", "captures"};
static const llvm::StringRef ExampleKeys[] = {"before", "after"};

llvm::ArrayRef<llvm::StringRef> RuleFileKeys::rule() { return RuleKeys; }
llvm::ArrayRef<llvm::StringRef> RuleFileKeys::fix() { return FixKeys; }
llvm::ArrayRef<llvm::StringRef> RuleFileKeys::where() { return WhereKeys; }
llvm::ArrayRef<llvm::StringRef> RuleFileKeys::example() { return ExampleKeys; }

namespace {

/// Parses one rule file with the YAML node API, collecting every problem with
/// its place.
class RuleParser {
public:
  RuleParser(llvm::StringRef FileName, llvm::StringRef Yaml)
      : Y(FileName, Yaml), FileName(FileName.str()) {}

  std::vector<Rule> parse() {
    std::vector<Rule> Out;
    llvm::yaml::MappingNode *Map = Y.topMapping("rule file");
    if (!Map)
      return Out;
    Rule R;
    parseRule(*Map, R);
    Y.expectSingleDocument("rule file; one rule per file");
    if (Y.errors().empty())
      Out.push_back(std::move(R));
    return Out;
  }

  const std::string &errors() const { return Y.errors(); }

private:
  void addError(const RuleLoc &L, const std::string &Msg) { Y.addError(L, Msg); }
  RuleLoc loc(llvm::yaml::Node *N) const { return Y.loc(N); }
  std::optional<std::string> scalar(llvm::yaml::Node *N, llvm::StringRef Key) {
    return Y.scalar(N, Key);
  }
  void forEachKey(llvm::yaml::MappingNode &M, llvm::ArrayRef<llvm::StringRef> Allowed,
                  llvm::StringRef What, const YamlReader::KeyFn &Fn) {
    Y.forEachKey(M, Allowed, What, Fn);
  }

  void parseRule(llvm::yaml::MappingNode &M, Rule &R) {
    bool HasId = false, HasLanguage = false, HasCategory = false, HasSeverity = false,
         HasMessage = false, HasPattern = false, HasAny = false;
    RuleLoc PatternLoc, FocusLoc;
    std::vector<std::pair<std::string, RuleLoc>> WhereNames;
    forEachKey(M, RuleKeys, "a rule", [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc KL) {
      RuleLoc VL = V ? loc(V) : KL;
      if (Key == "pattern") {
        HasPattern = true;
        PatternLoc = KL;
        if (auto S = scalar(V, Key))
          addPattern(R, *S, VL);
      } else if (Key == "any") {
        HasAny = true;
        PatternLoc = KL;
        auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(V);
        if (!Seq) {
          addError(VL, "'any' must be a list of patterns");
          return;
        }
        bool Empty = true;
        for (llvm::yaml::Node &Item : *Seq) {
          Empty = false;
          if (auto S = scalar(&Item, "any"))
            addPattern(R, *S, loc(&Item));
        }
        if (Empty)
          addError(VL, "'any' must list at least one pattern");
      } else if (Key == "focus") {
        if (auto S = scalar(V, Key)) {
          R.Focus = llvm::StringRef(*S).ltrim('$').str();
          FocusLoc = VL;
        }
      } else if (Key == "where") {
        auto *Map = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(V);
        if (!Map) {
          addError(VL, "'where' must map metavariable names to constraints");
          return;
        }
        parseWhere(*Map, R, WhereNames);
      } else if (Key == "fix") {
        auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(V);
        if (!Seq) {
          addError(VL, "'fix' must be a list of fixes");
          return;
        }
        for (llvm::yaml::Node &Item : *Seq)
          parseFix(&Item, R);
      } else if (Key == "examples") {
        auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(V);
        if (!Seq) {
          addError(VL, "'examples' must be a list");
          return;
        }
        for (llvm::yaml::Node &Item : *Seq)
          parseExample(&Item, R);
      } else {
        auto S = scalar(V, Key);
        if (!S)
          return;
        if (Key == "id") {
          HasId = true;
          R.Id = *S;
          R.Loc = VL;
          if (!isKebab(*S))
            addError(VL, "invalid rule id '" + *S +
                             "' (expected kebab-case: lower-case letters, digits and '-')");
          llvm::StringRef Stem = llvm::sys::path::stem(FileName);
          if (!FileName.empty() && Stem != *S)
            addError(VL, "rule id '" + *S + "' does not match the file name '" +
                             llvm::sys::path::filename(FileName).str() + "'");
        } else if (Key == "kind") {
          if (*S == "keep")
            R.Kind = RuleKind::Keep;
          else if (*S != "finding")
            addError(VL, "invalid kind '" + *S + "' (expected finding or keep)");
        } else if (Key == "language") {
          HasLanguage = true;
          R.Language = *S;
          if (*S != "python")
            addError(VL, "unsupported language '" + *S + "' (expected python)");
        } else if (Key == "category") {
          HasCategory = true;
          R.Category = *S;
          if (!isKebab(*S))
            addError(VL, "invalid category '" + *S + "' (expected kebab-case)");
        } else if (Key == "severity") {
          HasSeverity = true;
          if (auto Sev = parseSeverity(*S))
            R.Sev = *Sev;
          else
            addError(VL, "invalid severity '" + *S + "' (expected error, warning, info or hint)");
        } else if (Key == "message") {
          HasMessage = true;
          R.Message = llvm::StringRef(*S).trim().str();
          if (R.Message.empty())
            addError(VL, "'message' must not be empty");
          else if (R.Message.find('\n') != std::string::npos)
            addError(VL, "'message' must be one line (put details in 'description' or 'note')");
        } else if (Key == "description") {
          R.Description = *S;
        } else if (Key == "note") {
          R.Note = *S;
        } else if (Key == "url") {
          R.Url = *S;
        }
      }
    });
    RuleLoc Top = loc(&M);
    auto Require = [&](bool Has, const char *Key) {
      if (!Has)
        addError(Top, std::string("missing required key '") + Key + "'");
    };
    Require(HasId, "id");
    Require(HasLanguage, "language");
    Require(HasCategory, "category");
    Require(HasSeverity, "severity");
    Require(HasMessage, "message");
    if (R.Kind == RuleKind::Keep && !R.Fixes.empty())
      addError(Top, "a keep rule cannot have a fix");
    if (HasPattern && HasAny)
      addError(PatternLoc, "use either 'pattern' or 'any', not both");
    else if (!HasPattern && !HasAny)
      addError(Top, "missing 'pattern' (or 'any': a list of patterns)");

    // Cross-field checks.
    std::vector<std::string> Bound;
    for (const RulePattern &P : R.Patterns)
      for (const std::string &V : metavariablesIn(P.Text))
        if (!llvm::is_contained(Bound, V))
          Bound.push_back(V);
    for (const auto &[Name, C] : R.Where) {
      if (!C.Captures.empty() && llvm::Regex(C.Regex).getNumMatches() < C.Captures.size())
        addError(C.Loc, "'captures' names " + std::to_string(C.Captures.size()) +
                            " groups but the regex has " +
                            std::to_string(llvm::Regex(C.Regex).getNumMatches()));
      for (const std::string &Cap : C.Captures)
        if (!llvm::is_contained(Bound, Cap))
          Bound.push_back(Cap);
    }
    for (const auto &[Name, L] : WhereNames)
      if (!llvm::is_contained(Bound, Name))
        addError(L, "'where' names $" + Name + ", which no pattern binds");
    if (!R.Focus.empty())
      for (const RulePattern &P : R.Patterns)
        if (!llvm::is_contained(metavariablesIn(P.Text), R.Focus)) {
          addError(FocusLoc, "'focus' names $" + R.Focus + ", which pattern `" + P.Text +
                                 "` does not bind");
          break;
        }
    for (const RulePattern &P : R.Patterns)
      for (const std::string &V : metavariablesIn(P.Text))
        if (isReservedMetavariable(V))
          addError(P.Loc, "$" + V + " is reserved for the device expression; patterns cannot bind it");
    for (size_t I = 0; I < R.Fixes.size(); ++I) {
      const RuleFix &F = R.Fixes[I];
      for (const std::string &V : metavariablesIn(F.Template))
        if (!llvm::is_contained(Bound, V) && !isReservedMetavariable(V))
          addError(F.Loc, "template uses $" + V + ", which no pattern binds");
      for (size_t J = 0; J < I; ++J)
        if (R.Fixes[J].Since <= F.Since) {
          addError(F.Loc, "fix " + std::to_string(I + 1) + " is unreachable: fix " +
                              std::to_string(J + 1) + " (since " + R.Fixes[J].Since.str() +
                              ") is chosen for every release from " + F.Since.str() +
                              " on; list fixes newest first");
          break;
        }
    }
  }

  void addPattern(Rule &R, const std::string &Text, RuleLoc L) {
    if (llvm::StringRef(Text).trim().empty()) {
      addError(L, "pattern must not be empty");
      return;
    }
    size_t Bad = badMetavariable(Text);
    if (Bad != llvm::StringRef::npos) {
      RuleLoc At = L;
      At.Column += static_cast<unsigned>(Bad);
      addError(At, "invalid metavariable in pattern `" + Text +
                       "` ($NAME or $$$NAME, NAME in [A-Z_][A-Z0-9_]*)");
      return;
    }
    R.Patterns.push_back({Text, L});
  }

  void parseWhere(llvm::yaml::MappingNode &M, Rule &R,
                  std::vector<std::pair<std::string, RuleLoc>> &Names) {
    for (llvm::yaml::KeyValueNode &KV : M) {
      auto *K = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
      if (!K)
        continue;
      llvm::SmallString<32> Storage;
      std::string Name = K->getValue(Storage).str();
      llvm::StringRef N(Name);
      N.consume_front("$");
      if (N.empty() || !isMetavarStart(N.front()) || !llvm::all_of(N, isMetavarChar)) {
        addError(loc(K), "invalid metavariable name '" + Name + "' in 'where'");
        continue;
      }
      Names.push_back({N.str(), loc(K)});
      auto *C = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(KV.getValue());
      if (!C) {
        addError(loc(K), "constraints of $" + N.str() + " must be a mapping");
        continue;
      }
      MetavarConstraint MC;
      MC.Loc = loc(K);
      forEachKey(*C, WhereKeys, "a 'where' constraint",
                 [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc) {
                   if (Key == "captures") {
                     auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(V);
                     if (!Seq) {
                       addError(V ? loc(V) : MC.Loc, "'captures' must be a list of names");
                       return;
                     }
                     for (llvm::yaml::Node &Item : *Seq) {
                       auto Name = scalar(&Item, Key);
                       if (!Name)
                         continue;
                       llvm::StringRef CN = llvm::StringRef(*Name).ltrim('$');
                       if (CN.empty() || !isMetavarStart(CN.front()) ||
                           !llvm::all_of(CN, isMetavarChar))
                         addError(loc(&Item), "invalid capture name '" + *Name + "'");
                       else
                         MC.Captures.push_back(CN.str());
                     }
                     return;
                   }
                   auto S = scalar(V, Key);
                   if (!S)
                     return;
                   std::string Why;
                   if (!llvm::Regex(*S).isValid(Why)) {
                     addError(loc(V), "invalid regex '" + *S + "': " + Why);
                     return;
                   }
                   (Key == "regex" ? MC.Regex : MC.NotRegex) = *S;
                 });
      R.Where[N.str()] = MC;
    }
  }

  void parseFix(llvm::yaml::Node *N, Rule &R) {
    auto *M = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(N);
    if (!M) {
      addError(loc(N), "each fix must be a mapping with 'since' and 'template'");
      return;
    }
    RuleFix F;
    F.Loc = loc(N);
    bool HasSince = false, HasTemplate = false;
    forEachKey(*M, FixKeys, "a fix", [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc KL) {
      auto S = scalar(V, Key);
      if (!S)
        return;
      RuleLoc VL = V ? loc(V) : KL;
      if (Key == "since") {
        HasSince = true;
        if (auto Ver = TorchVersion::parse(*S))
          F.Since = *Ver;
        else
          addError(VL, "invalid 'since' '" + *S + "' (expected MAJOR.MINOR, e.g. \"2.7\")");
      } else if (Key == "template") {
        HasTemplate = true;
        F.Template = *S;
        if (llvm::StringRef(*S).trim().empty())
          addError(VL, "'template' must not be empty");
      } else if (Key == "applicability") {
        if (*S == "safe")
          F.App = Applicability::Safe;
        else if (*S == "unsafe")
          F.App = Applicability::Unsafe;
        else if (*S == "display-only")
          F.App = Applicability::DisplayOnly;
        else
          addError(VL, "invalid applicability '" + *S +
                           "' (expected safe, unsafe or display-only)");
      } else if (Key == "title") {
        F.Title = *S;
      } else if (Key == "note") {
        F.Note = *S;
      }
    });
    if (!HasSince)
      addError(F.Loc, "fix is missing 'since'");
    if (!HasTemplate)
      addError(F.Loc, "fix is missing 'template'");
    R.Fixes.push_back(std::move(F));
  }

  void parseExample(llvm::yaml::Node *N, Rule &R) {
    auto *M = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(N);
    if (!M) {
      addError(loc(N), "each example must be a mapping with 'before' (and 'after')");
      return;
    }
    RuleExample E;
    bool HasBefore = false;
    forEachKey(*M, ExampleKeys, "an example", [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc) {
      auto S = scalar(V, Key);
      if (!S)
        return;
      if (Key == "before") {
        HasBefore = true;
        E.Before = *S;
      } else {
        E.After = *S;
      }
    });
    if (!HasBefore)
      addError(loc(N), "example is missing 'before'");
    R.Examples.push_back(std::move(E));
  }

  YamlReader Y;
  std::string FileName;
};

} // namespace

llvm::Expected<RuleSet> RuleSet::loadBuffer(llvm::StringRef FileName, llvm::StringRef Yaml) {
  RuleParser P(FileName, Yaml);
  std::vector<Rule> Parsed = P.parse();
  if (!P.errors().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", P.errors().c_str());
  RuleSet S;
  for (Rule &R : Parsed) {
    R.Loc.File = FileName.str();
    S.Rules.push_back(std::make_shared<const Rule>(std::move(R)));
  }
  return S;
}

llvm::Error RuleSet::merge(RuleSet Other) {
  std::string Errors;
  for (auto &R : Other.Rules) {
    if (const Rule *Old = find(R->Id)) {
      if (!Errors.empty())
        Errors += "\n";
      Errors += R->Loc.str() + ": duplicate rule id '" + R->Id + "' (first defined at " +
                Old->Loc.str() + ")";
      continue;
    }
    auto At = std::lower_bound(Rules.begin(), Rules.end(), R->Id,
                               [](const std::shared_ptr<const Rule> &A, const std::string &Id) {
                                 return A->Id < Id;
                               });
    Rules.insert(At, R);
  }
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Errors.c_str());
  return llvm::Error::success();
}

llvm::Expected<RuleSet> RuleSet::loadFiles(llvm::ArrayRef<std::string> Files) {
  RuleSet All;
  std::string Errors;
  auto Add = [&](const std::string &E) {
    if (!Errors.empty())
      Errors += "\n";
    Errors += E;
  };
  for (const std::string &F : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(F, /*IsText=*/true, /*RequiresNullTerminator=*/false);
    if (!Buf) {
      Add(F + ": cannot read: " + Buf.getError().message());
      continue;
    }
    auto One = loadBuffer(F, (*Buf)->getBuffer());
    if (!One) {
      Add(llvm::toString(One.takeError()));
      continue;
    }
    if (auto Err = All.merge(std::move(*One)))
      Add(llvm::toString(std::move(Err)));
  }
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Errors.c_str());
  return All;
}

llvm::Expected<RuleSet> RuleSet::loadDirectory(llvm::StringRef Dir) {
  if (!llvm::sys::fs::is_directory(Dir))
    return llvm::createStringError(std::make_error_code(std::errc::no_such_file_or_directory),
                                   "%s: rule directory not found", Dir.str().c_str());
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.startswith(".") || Name.startswith("schema"))
      continue;
    if ((Name.endswith(".yaml") || Name.endswith(".yml")) &&
        !llvm::sys::fs::is_directory(It->path()))
      Files.push_back(It->path());
  }
  if (EC)
    return llvm::createStringError(EC, "%s: cannot read the rule directory: %s",
                                   Dir.str().c_str(), EC.message().c_str());
  if (Files.empty())
    return llvm::createStringError(std::make_error_code(std::errc::no_such_file_or_directory),
                                   "%s: no rule files (*.yaml) found", Dir.str().c_str());
  std::sort(Files.begin(), Files.end());
  return loadFiles(Files);
}

const Rule *RuleSet::find(llvm::StringRef Id) const {
  auto It = std::lower_bound(
      Rules.begin(), Rules.end(), Id,
      [](const std::shared_ptr<const Rule> &A, llvm::StringRef Id) { return A->Id < Id; });
  return It != Rules.end() && (*It)->Id == Id ? It->get() : nullptr;
}

llvm::Expected<RuleSet> RuleSet::filtered(llvm::ArrayRef<std::string> Select,
                                          llvm::ArrayRef<std::string> Ignore) const {
  std::string Unknown;
  for (llvm::ArrayRef<std::string> L : {Select, Ignore})
    for (const std::string &Name : L) {
      bool Known = llvm::any_of(Rules, [&](const std::shared_ptr<const Rule> &R) {
        return R->Id == Name || R->Category == Name;
      });
      if (!Known)
        Unknown += (Unknown.empty() ? "'" : ", '") + Name + "'";
    }
  if (!Unknown.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unknown rule or category %s (see `devport rules`)",
                                   Unknown.c_str());
  RuleSet Out;
  for (const auto &R : Rules) {
    auto Names = [&](llvm::ArrayRef<std::string> L) {
      return llvm::is_contained(L, R->Id) || llvm::is_contained(L, R->Category);
    };
    if ((Select.empty() || Names(Select)) && !Names(Ignore))
      Out.Rules.push_back(R);
  }
  return Out;
}

} // namespace devport
