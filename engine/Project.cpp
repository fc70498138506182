//===--- Project.cpp - Rules and settings for every path ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "engine/Project.h"

#include "core/Workspace.h"
#include "engine/EmbeddedRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace devport {

llvm::Expected<RuleSet> loadEmbeddedRules() {
  RuleSet All;
  for (const EmbeddedRuleFile *E = EmbeddedRuleFiles; E->Path; ++E) {
    auto One = RuleSet::loadBuffer(E->Path, E->Text, /*Embedded=*/true);
    if (!One)
      return One.takeError();
    if (auto Err = All.merge(std::move(*One)))
      return std::move(Err);
  }
  return All;
}

llvm::Expected<std::shared_ptr<const BackendTable>> loadBackendTable() {
  auto T = BackendTable::parse("data/backends.yaml", EmbeddedBackendTable);
  if (!T)
    return T.takeError();
  return std::make_shared<const BackendTable>(std::move(*T));
}

Project::Project(RuleSet Rules, ProjectOptions Opts)
    : Opts(std::move(Opts)), BaseRules(std::move(Rules)),
      Configs(std::make_unique<ConfigCache>(this->Opts.ConfigFile)),
      Requirements(std::make_unique<RequirementsCache>()), Cwd(currentDirectory()) {}
Project::~Project() = default;

llvm::Expected<std::unique_ptr<Project>> Project::load(ProjectOptions Opts) {
  auto Rules = Opts.RulesDir.empty() ? loadEmbeddedRules() : RuleSet::loadDirectory(Opts.RulesDir);
  if (!Rules)
    return Rules.takeError();
  if (!Opts.ConfigFile.empty()) {
    llvm::sys::fs::file_status St;
    std::string Why;
    if (llvm::sys::fs::status(Opts.ConfigFile, St))
      Why = "config file not found";
    else if (St.type() == llvm::sys::fs::file_type::directory_file)
      Why = "is a directory; --config takes a file (a .devport.yaml)";
    else if (St.type() != llvm::sys::fs::file_type::regular_file)
      Why = "not a regular file; --config takes a file (a .devport.yaml)";
    if (!Why.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                     Opts.ConfigFile.c_str(), Why.c_str());
  }
  if (!Opts.Backends) {
    auto T = loadBackendTable();
    if (!T)
      return T.takeError();
    Opts.Backends = std::move(*T);
  }
  return withRules(std::move(*Rules), std::move(Opts));
}

std::unique_ptr<Project> Project::withRules(RuleSet Rules, ProjectOptions Opts) {
  return std::unique_ptr<Project>(new Project(std::move(Rules), std::move(Opts)));
}

llvm::Expected<std::shared_ptr<const Engine>>
Project::engineFor(llvm::StringRef Path, bool HonourExcludes, TorchTarget *Target) {
  std::lock_guard<std::mutex> Lock(M);
  return engineForLocked(Path, HonourExcludes, Target);
}

llvm::Expected<TorchTarget> Project::targetFor(llvm::StringRef P) {
  std::lock_guard<std::mutex> Lock(M);
  std::string Path = absolutePath(Cwd, P);
  auto C = Configs->forFile(Path);
  if (!C)
    return C.takeError();
  return targetForLocked(Path, **C);
}

TorchTarget Project::targetForLocked(llvm::StringRef Path, const Config &Cfg) {
  return TorchTarget::choose(Opts.Target, Cfg.Target, Cfg.Path, Requirements->forFile(Path));
}

llvm::Expected<const RuleSet *> Project::rulesFor(const Config &Cfg) {
  auto It = RulesByConfig.find(Cfg.Path);
  if (It != RulesByConfig.end())
    return &It->second;
  RuleSet Rules;
  if (auto Err = Rules.merge(BaseRules))
    return std::move(Err);
  if (!Cfg.RuleFiles.empty()) {
    // The same file or directory named twice (`rules: [r, ./r]`, or a file
    // inside a directory also named) is read once, not reported as a
    // duplicate of itself.
    struct Entry {
      const std::string *Path;
      std::string Real; ///< Resolved; a directory's ends in '/'.
      bool IsDir;
    };
    std::vector<Entry> Entries;
    for (const std::string &F : Cfg.RuleFiles) {
      llvm::SmallString<256> R;
      bool IsDir = llvm::sys::fs::is_directory(F);
      std::string Real = llvm::sys::fs::real_path(F, R) ? F : std::string(R.str());
      Entries.push_back({&F, IsDir ? Real + "/" : Real, IsDir});
    }
    std::vector<std::string> Files;
    llvm::StringSet<> Seen;
    for (const Entry &E : Entries) {
      if (!Seen.insert(E.Real).second)
        continue;
      bool Inside = llvm::any_of(Entries, [&](const Entry &D) {
        return D.IsDir && D.Real != E.Real && llvm::StringRef(E.Real).startswith(D.Real);
      });
      if (Inside)
        continue; // read with the directory above it
      if (!E.IsDir) {
        Files.push_back(*E.Path);
        continue;
      }
      const std::string &F = *E.Path;
      auto Dir = RuleSet::loadDirectory(F);
      if (!Dir)
        return Dir.takeError();
      if (auto Err = Rules.merge(std::move(*Dir)))
        return std::move(Err);
    }
    auto Extra = RuleSet::loadFiles(Files);
    if (!Extra)
      return Extra.takeError();
    if (auto Err = Rules.merge(std::move(*Extra)))
      return std::move(Err);
  }
  if (auto Err = Cfg.checkNames(Rules))
    return std::move(Err);
  RuleFilesByConfig[Cfg.Path] = Cfg.RuleFiles;
  return &RulesByConfig.insert({Cfg.Path, std::move(Rules)}).first->second;
}

EngineOptions Project::engineOptions(const Config &Cfg, const RuleSet &All,
                                     const TorchTarget &Target) const {
  EngineOptions EO;
  EO.Backends = Opts.Backends;
  for (const auto &R : All.rules())
    EO.KnownRuleIds.push_back(R->Id); // sorted: a RuleSet is
  EO.Target = Target.Release;
  EO.UnsafeFixes = Opts.UnsafeFixes;
  EO.FixDocstrings = Cfg.FixDocstrings;
  EO.Build.CompileCommandsDir = Opts.CompileCommandsDir;
  EO.Build.Semantic = Opts.CppSemantic;
  EO.WholeFiles = Opts.WholeFiles;
  EO.Build.GlobBase = Cfg.Dir;
  for (const ConfigValue &V : Cfg.CudaRoleFiles)
    EO.Build.CudaRoleGlobs.push_back(V.Text);
  for (const ConfigValue &V : Cfg.CudaComments)
    EO.CudaComments.push_back(V.Text);
  if (!Opts.DeviceExpression.empty())
    EO.DeviceExpression = Opts.DeviceExpression;
  else if (!Cfg.DeviceExpression.empty())
    EO.DeviceExpression = Cfg.DeviceExpression;
  EO.DeviceTypeExpression =
      !Opts.DeviceTypeExpression.empty() ? Opts.DeviceTypeExpression : Cfg.DeviceTypeExpression;
  if (!Opts.DeviceExpression.empty() && Opts.DeviceTypeExpression.empty())
    EO.DeviceTypeExpression.clear(); // derived from the front end's expression
  return EO;
}

llvm::Expected<std::shared_ptr<const Engine>>
Project::engineForLocked(llvm::StringRef P, bool HonourExcludes, TorchTarget *TargetOut) {
  // Absolute once: each lookup below would ask the system for the current
  // directory again (two stat calls each), for every file of a run.
  std::string Path = absolutePath(Cwd, P);
  llvm::StringRef DirPath = llvm::sys::path::parent_path(Path);
  auto Known = ByDir.find(DirPath);
  if (Known == ByDir.end()) {
    auto C = Configs->forFile(Path);
    if (!C)
      return C.takeError();
    TorchTarget T = targetForLocked(Path, **C);
    Known = ByDir.insert({DirPath, DirSettings{*C, T, nullptr}}).first;
  }
  DirSettings &Dir = Known->second;
  const Config &Cfg = *Dir.Cfg;
  if (HonourExcludes && Cfg.excludes(Path))
    return nullptr;
  std::vector<std::string> FileIgnores = Cfg.ignoredFor(Path);
  const TorchTarget &Target = Dir.Target;
  if (TargetOut)
    *TargetOut = Target;
  if (FileIgnores.empty() && Dir.Plain)
    return Dir.Plain;
  std::string Key =
      Cfg.Path + "\n" + llvm::join(FileIgnores, ",") + "\n" + Target.Release.str();
  auto It = Engines.find(Key);
  if (It != Engines.end()) {
    if (FileIgnores.empty())
      Dir.Plain = It->second;
    return It->second;
  }
  auto All = rulesFor(Cfg);
  if (!All)
    return All.takeError();
  // The front end's select replaces the file's; ignores add up.
  std::vector<std::string> Select = Opts.Select, Ignore = Opts.Ignore;
  if (Select.empty())
    for (const ConfigValue &V : Cfg.Select)
      Select.push_back(V.Text);
  for (const ConfigValue &V : Cfg.Ignore)
    Ignore.push_back(V.Text);
  Ignore.insert(Ignore.end(), FileIgnores.begin(), FileIgnores.end());
  auto Picked = (*All)->filtered(Select, Ignore);
  if (!Picked)
    return Picked.takeError();
  auto E = Engine::create(std::move(*Picked), engineOptions(Cfg, **All, Target));
  if (!E)
    return E.takeError();
  std::shared_ptr<const Engine> Shared = std::move(*E);
  Engines[Key] = Shared;
  if (FileIgnores.empty())
    Dir.Plain = Shared;
  return Shared;
}

bool Project::dependsOn(llvm::StringRef Path) const {
  if (Path.empty())
    return false;
  if (llvm::sys::path::filename(Path) == ".devport.yaml" || Path == Opts.ConfigFile)
    return true;
  auto Under = [&](llvm::StringRef Dir) {
    if (Dir.empty())
      return false;
    if (Path == Dir)
      return true;
    std::string Prefix = Dir.str();
    if (!llvm::StringRef(Prefix).endswith("/"))
      Prefix += "/";
    return Path.startswith(Prefix);
  };
  if (Under(Opts.RulesDir))
    return true;
  for (const auto &[Cfg, Files] : RuleFilesByConfig)
    for (const std::string &F : Files)
      if (Under(F))
        return true;
  return false;
}

llvm::Expected<bool> Project::fileChanged(llvm::StringRef Path) {
  std::lock_guard<std::mutex> Lock(M);
  bool Packaging = isPackagingFileName(llvm::sys::path::filename(Path)) ||
                   Requirements->hasRead(Path);
  if (Packaging) {
    // The projects' torch requirements, and the engines built for their
    // floors, are read again on next use.
    Requirements = std::make_unique<RequirementsCache>();
    Engines.clear();
    ByDir.clear();
  }
  if (!dependsOn(Path))
    return Packaging;
  llvm::StringRef RulesDir = llvm::StringRef(Opts.RulesDir).rtrim('/');
  if (!RulesDir.empty() && (Path == RulesDir || Path.startswith((RulesDir + "/").str()))) {
    auto Rules = RuleSet::loadDirectory(Opts.RulesDir);
    if (!Rules)
      return Rules.takeError();
    BaseRules = std::move(*Rules);
  }
  Configs = std::make_unique<ConfigCache>(Opts.ConfigFile);
  RulesByConfig.clear();
  RuleFilesByConfig.clear();
  Engines.clear();
  ByDir.clear();
  return true;
}

} // namespace devport
