//===--- Project.h - Rules and settings for every path --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Project is the one service that the CLI, the fixture runner and the LSP
/// server share to answer "which engine for this path": it loads the rule
/// database (the embedded one, or a directory), finds and caches the
/// `.devport.yaml` that governs each directory (or the `--config` override),
/// adds a configuration's extra rule files, applies select/ignore,
/// per-file-ignores and excludes, and builds one Engine per distinct setting,
/// shared by the files that have it. Settings given by the front end (the
/// command line, the editor) win over the configuration files'.
///
/// The target PyTorch release of a file is the front end's, else its
/// configuration's `target-torch`, else the floor of the torch requirement
/// that the file's project declares (core/ProjectRequirements.h, read once
/// per project), else the default; targetFor() says which and why.
///
/// When a configuration, rule or packaging file changes, fileChanged() makes
/// the project load what depends on it again on next use; engines already
/// handed out stay valid (they are shared pointers).
///
/// Thread-safety: every member may be called from any thread.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_ENGINE_PROJECT_H
#define DEVPORT_ENGINE_PROJECT_H

#include "core/BackendTable.h"
#include "core/Config.h"
#include "core/ProjectRequirements.h"
#include "core/Rule.h"
#include "core/TorchVersion.h"
#include "engine/Engine.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace devport {

struct ProjectOptions {
  /// Load the rule database from this directory instead of the one built
  /// into the binary.
  std::string RulesDir;
  /// One configuration file for every path; empty: the nearest
  /// `.devport.yaml` above each file.
  std::string ConfigFile;
  /// Settings that win over the configuration files' ones. Select replaces
  /// a configuration's select; Ignore adds to its ignore.
  std::vector<std::string> Select, Ignore;
  std::optional<TorchVersion> Target;
  bool UnsafeFixes = false;
  std::string DeviceExpression, DeviceTypeExpression;
  /// Which backend module has which function; load() fills in the built-in
  /// table (data/backends.yaml) when unset.
  std::shared_ptr<const BackendTable> Backends;
  /// C++: the directory of compile_commands.json (`-p DIR`); empty: found
  /// upward from each file.
  std::string CompileCommandsDir;
  /// C++: use the semantic engine where a compile command exists.
  bool CppSemantic = true;
  /// Parse every file whole (EngineOptions::WholeFiles).
  bool WholeFiles = false;

  static ProjectOptions forTest() { return {}; }
};

class Project {
public:
  /// Loads the rule database. Fails with "file:line:col: reason" lines for
  /// an invalid rule file, or "FILE: config file not found" when
  /// Opts.ConfigFile does not exist.
  static llvm::Expected<std::unique_ptr<Project>> load(ProjectOptions Opts);
  /// A project over an already loaded rule database (tests, fixtures).
  static std::unique_ptr<Project> withRules(RuleSet Rules, ProjectOptions Opts);
  ~Project();

  /// The rule database (without any configuration's extra rules).
  const RuleSet &rules() const { return BaseRules; }
  const ProjectOptions &options() const { return Opts; }

  /// A relative Path is taken from the directory that was current when the
  /// project was created (devport never changes it).
  ///
  /// The engine for Path under its configuration; null when the
  /// configuration excludes Path and HonourExcludes is set. Fails when the
  /// configuration, its rule files or its rule names are invalid (with the
  /// file, line and column).
  /// With Target, it also gets what targetFor(Path) gives (for a file that
  /// is not excluded), in the same lookup.
  llvm::Expected<std::shared_ptr<const Engine>>
  engineFor(llvm::StringRef Path, bool HonourExcludes = true, TorchTarget *Target = nullptr);

  /// The target release of Path's engine, and where it came from. Fails when
  /// Path's configuration cannot be loaded.
  llvm::Expected<TorchTarget> targetFor(llvm::StringRef Path);

  /// Tells the project that Path (a `.devport.yaml`, a rule file or
  /// directory that a configuration names, a file of the rule directory, or
  /// a packaging file: `pyproject.toml`, `setup.cfg`, `setup.py`,
  /// `requirements*.txt` or a file one of them includes) changed, appeared or
  /// went away. Returns whether the project depends on it; if so, what
  /// depends on it and the engines are built again on next use, and a
  /// changed rule directory is loaded again (an error if it is now invalid,
  /// in which case the previous rules stay).
  llvm::Expected<bool> fileChanged(llvm::StringRef Path);

private:
  Project(RuleSet Rules, ProjectOptions Opts);
  llvm::Expected<std::shared_ptr<const Engine>>
  engineForLocked(llvm::StringRef Path, bool HonourExcludes, TorchTarget *Target = nullptr);
  /// The base rules plus a configuration's extra rule files, checked against
  /// its rule names.
  llvm::Expected<const RuleSet *> rulesFor(const Config &Cfg);
  EngineOptions engineOptions(const Config &Cfg, const RuleSet &All,
                              const TorchTarget &Target) const;
  TorchTarget targetForLocked(llvm::StringRef Path, const Config &Cfg);
  bool dependsOn(llvm::StringRef Path) const;

  ProjectOptions Opts;
  RuleSet BaseRules;
  std::mutex M;
  std::unique_ptr<ConfigCache> Configs;
  std::unique_ptr<RequirementsCache> Requirements;
  /// The current directory at creation: relative paths are made absolute
  /// against it (absolutePath()), with no system call per file.
  std::string Cwd;
  std::map<std::string, RuleSet> RulesByConfig;          ///< Config path -> rules.
  std::map<std::string, std::vector<std::string>> RuleFilesByConfig;
  std::map<std::string, std::shared_ptr<const Engine>> Engines; ///< Setting key -> engine.
  /// What a directory's files share: their configuration and target (both
  /// found from the directory), and the engine of those that no per-file
  /// ignore names. A batch asks for every file's engine before any work
  /// starts: looking them up again for each file of a directory was some
  /// 10,000 instructions a file.
  struct DirSettings {
    std::shared_ptr<const Config> Cfg;
    TorchTarget Target;
    std::shared_ptr<const Engine> Plain;
  };
  llvm::StringMap<DirSettings> ByDir; ///< Absolute directory -> its settings.
};

/// The rule database built into the binary (rules/ at build time).
llvm::Expected<RuleSet> loadEmbeddedRules();
/// The backend table built into the binary (data/backends.yaml at build time).
llvm::Expected<std::shared_ptr<const BackendTable>> loadBackendTable();

} // namespace devport

#endif
