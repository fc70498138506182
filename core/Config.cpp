//===--- Config.cpp - .devport.yaml ---------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Config.h"

#include "core/SourceFile.h"
#include "core/Workspace.h"
#include "core/YamlReader.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace devport {

static const llvm::StringRef ConfigKeys[] = {"target-torch",
                                             "select",
                                             "ignore",
                                             "exclude",
                                             "per-file-ignores",
                                             "device-expression",
                                             "device-type-expression",
                                             "rules",
                                             "docstrings",
                                             "cuda-role-files",
                                             "cuda-comments"};

static std::string absoluteDir(llvm::StringRef Path) {
  llvm::SmallString<256> A(Path);
  llvm::sys::fs::make_absolute(A);
  llvm::sys::path::remove_dots(A, true);
  llvm::sys::path::remove_filename(A);
  if (A.size() > 1 && A.back() == '/')
    A.pop_back();
  return std::string(A.str());
}

llvm::Expected<Config> Config::parse(llvm::StringRef Path, llvm::StringRef Yaml) {
  YamlReader Y(Path, Yaml);
  Config C;
  C.Path = Path.str();
  C.Dir = absoluteDir(Path);
  auto Values = [&](llvm::yaml::Node *V, const std::string &Key) {
    std::vector<ConfigValue> Out;
    for (auto &[Text, L] : Y.scalarList(V, Key))
      Out.push_back({Text, L});
    return Out;
  };
  auto Expression = [&](llvm::yaml::Node *V, const std::string &Key, std::string &Out) {
    auto S = Y.scalar(V, Key);
    if (!S)
      return;
    if (llvm::StringRef(*S).trim().empty() || S->find('\n') != std::string::npos)
      Y.addError(Y.loc(V), "'" + Key + "' must be a one-line Python expression");
    else
      Out = llvm::StringRef(*S).trim().str();
  };
  if (llvm::yaml::MappingNode *Top = Y.topMapping("config file", /*EmptyIsError=*/false)) {
    Y.forEachKey(*Top, ConfigKeys, "a .devport.yaml", [&](const std::string &Key,
                                                         llvm::yaml::Node *V, RuleLoc) {
      if (Key == "target-torch") {
        if (auto S = Y.scalar(V, Key)) {
          C.Target = TorchVersion::parse(*S);
          if (!C.Target)
            Y.addError(Y.loc(V), "invalid target-torch '" + YamlReader::excerpt(*S) +
                                     "' (expected MAJOR.MINOR, e.g. \"2.7\")");
        }
      } else if (Key == "select") {
        C.Select = Values(V, Key);
      } else if (Key == "ignore") {
        C.Ignore = Values(V, Key);
      } else if (Key == "exclude") {
        C.Exclude = Values(V, Key);
      } else if (Key == "cuda-role-files") {
        C.CudaRoleFiles = Values(V, Key);
      } else if (Key == "cuda-comments") {
        for (ConfigValue &M : Values(V, Key)) {
          if (llvm::StringRef(M.Text).trim().empty())
            Y.addError(M.Loc, "an empty 'cuda-comments' entry would match every comment");
          else
            C.CudaComments.push_back(std::move(M));
        }
      } else if (Key == "device-expression") {
        Expression(V, Key, C.DeviceExpression);
      } else if (Key == "device-type-expression") {
        Expression(V, Key, C.DeviceTypeExpression);
      } else if (Key == "docstrings") {
        if (auto S = Y.scalar(V, Key)) {
          if (*S == "fix")
            C.FixDocstrings = true;
          else if (*S != "report")
            Y.addError(Y.loc(V), "invalid docstrings '" + YamlReader::excerpt(*S) +
                                     "' (expected report or fix)");
        }
      } else if (Key == "rules") {
        for (auto &[Text, L] : Y.scalarList(V, Key)) {
          llvm::SmallString<256> P(Text);
          if (!llvm::sys::path::is_absolute(P))
            llvm::sys::fs::make_absolute(C.Dir, P);
          if (!llvm::sys::fs::exists(P))
            Y.addError(L, "rule file or directory '" + YamlReader::excerpt(Text) + "' not found");
          else
            C.RuleFiles.push_back(std::string(P.str()));
        }
      } else if (Key == "per-file-ignores") {
        auto *M = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(V);
        if (!M) {
          Y.addError(Y.loc(V), "'per-file-ignores' must map globs to lists of rules");
          return;
        }
        for (llvm::yaml::KeyValueNode &KV : *M) {
          auto Glob = Y.scalar(KV.getKey(), "per-file-ignores");
          if (!Glob)
            continue;
          FileIgnore FI{{*Glob, Y.loc(KV.getKey())}, Values(KV.getValue(), *Glob)};
          C.PerFileIgnores.push_back(std::move(FI));
        }
      }
    });
    Y.expectSingleDocument("config file");
  }
  if (!Y.errors().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Y.errors().c_str());
  return C;
}

llvm::Expected<Config> Config::load(llvm::StringRef Path) {
  auto Text = readRegularFile(Path, MaxConfigFileBytes);
  if (!Text)
    return Text.takeError();
  return parse(Path, *Text);
}

llvm::Error Config::checkNames(const RuleSet &Rules) const {
  std::string Errors;
  auto Check = [&](const ConfigValue &V) {
    bool Known = llvm::any_of(Rules.rules(), [&](const std::shared_ptr<const Rule> &R) {
      return R->Id == V.Text || R->Category == V.Text;
    });
    if (!Known)
      Errors += (Errors.empty() ? "" : "\n") + V.Loc.str() + ": unknown rule or category '" +
                V.Text + "'";
  };
  for (const ConfigValue &V : Select)
    Check(V);
  for (const ConfigValue &V : Ignore)
    Check(V);
  for (const FileIgnore &FI : PerFileIgnores)
    for (const ConfigValue &V : FI.Rules)
      Check(V);
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Errors.c_str());
  return llvm::Error::success();
}

/// FilePath relative to Dir ('/'-separated), or "" if it is not inside it.
static std::string relativeTo(llvm::StringRef Dir, llvm::StringRef FilePath) {
  llvm::SmallString<256> A(FilePath);
  llvm::sys::fs::make_absolute(A);
  llvm::sys::path::remove_dots(A, true);
  llvm::StringRef P = A;
  if (Dir.empty() || !P.startswith(Dir) || P.size() <= Dir.size() || P[Dir.size()] != '/')
    return "";
  return P.drop_front(Dir.size() + 1).str();
}

/// A gitignore-style glob against a relative path: the path itself or, for
/// an unanchored glob, any of its components.
static bool globMatches(llvm::StringRef Glob, llvm::StringRef Rel) {
  if (matchGlob(Glob, Rel, false))
    return true;
  llvm::StringRef Prefix = Rel;
  while (true) {
    Prefix = llvm::sys::path::parent_path(Prefix, llvm::sys::path::Style::posix);
    if (Prefix.empty())
      return false;
    if (matchGlob(Glob, Prefix, true))
      return true;
  }
}

std::vector<std::string> Config::ignoredFor(llvm::StringRef FilePath) const {
  std::vector<std::string> Out;
  if (PerFileIgnores.empty())
    return Out;
  std::string Rel = relativeTo(Dir, FilePath);
  if (Rel.empty())
    return Out;
  for (const FileIgnore &FI : PerFileIgnores)
    if (globMatches(FI.Glob.Text, Rel))
      for (const ConfigValue &V : FI.Rules)
        Out.push_back(V.Text);
  return Out;
}

bool Config::excludes(llvm::StringRef FilePath) const {
  if (Exclude.empty())
    return false;
  std::string Rel = relativeTo(Dir, FilePath);
  if (Rel.empty())
    return false;
  return llvm::any_of(Exclude, [&](const ConfigValue &G) { return globMatches(G.Text, Rel); });
}

namespace {

/// Dir's own `.devport.yaml`, for answerUpward().
std::optional<std::string> configFileIn(llvm::StringRef Dir) {
  std::string Candidate = (Dir + "/.devport.yaml").str();
  if (llvm::sys::fs::is_regular_file(Candidate))
    return Candidate;
  return std::nullopt;
}

std::string normalDir(llvm::StringRef Dir) {
  llvm::SmallString<256> D(Dir);
  llvm::sys::fs::make_absolute(D);
  llvm::sys::path::remove_dots(D, true);
  return std::string(D);
}

} // namespace

std::string findConfigFile(llvm::StringRef Dir) {
  llvm::StringMap<std::string> Known;
  return answerUpward(normalDir(Dir), Known, configFileIn);
}

std::string ConfigCache::configFileOfLocked(llvm::StringRef Dir) {
  std::string Found = answerUpward(normalDir(Dir), DirToFile, configFileIn);
  DirToFile[Dir] = Found; // as spelled, for forFile's lookup
  return Found;
}

llvm::Expected<std::shared_ptr<const Config>> ConfigCache::forFile(llvm::StringRef FilePath) {
  std::lock_guard<std::mutex> Lock(M);
  std::string File = Override;
  if (File.empty()) {
    llvm::SmallString<256> Dir(FilePath);
    llvm::sys::fs::make_absolute(Dir);
    llvm::sys::path::remove_filename(Dir);
    auto It = DirToFile.find(Dir);
    File = It != DirToFile.end() ? It->second : configFileOfLocked(Dir);
  }
  auto It = Loaded.find(File);
  if (It != Loaded.end())
    return It->second;
  std::shared_ptr<const Config> C;
  if (File.empty()) {
    C = std::make_shared<const Config>();
  } else {
    auto L = Config::load(File);
    if (!L)
      return L.takeError();
    C = std::make_shared<const Config>(std::move(*L));
  }
  Loaded[File] = C;
  return C;
}

} // namespace devport
