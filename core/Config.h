//===--- Config.h - .devport.yaml -----------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A project's settings: `.devport.yaml`, found upward from each checked file
/// (the nearest one wins; `--config FILE` names one for every file). Keys:
///
///     target-torch: "2.7"                 # release the fixes must run on
///     select: [device-runtime]            # rules or categories (default: all)
///     ignore: [cuda-device-check]
///     exclude: ["third_party/", "**/gen_*.py"]   # gitignore-style, relative to this file
///     per-file-ignores:
///       "test/**": [cuda-method-device]
///     device-expression: self.device      # $DEVICE in fixes
///     device-type-expression: self.device_type
///     rules: [tools/devport-rules/]       # extra rule files or directories
///     docstrings: report                  # or fix: also fix `>>>` doctest lines
///     cuda-role-files: ["src/gpu/**"]     # C++ files that are CUDA by design (keep only)
///     cuda-comments: ["ignore-cuda"]      # comments that keep their lines' findings
///
/// Unknown keys, wrong types and bad values are errors with file:line:col.
/// Rule names are checked against the rule database by checkNames().
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_CONFIG_H
#define DEVPORT_CORE_CONFIG_H

#include "core/Rule.h"
#include "core/TorchVersion.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace devport {

/// A string from the config file with where it was written.
struct ConfigValue {
  std::string Text;
  RuleLoc Loc;
};

struct FileIgnore {
  ConfigValue Glob;                ///< Relative to the config's directory.
  std::vector<ConfigValue> Rules;  ///< Rule ids or categories.
};

struct Config {
  std::string Path; ///< The .devport.yaml; empty for the defaults.
  std::string Dir;  ///< Its directory, absolute; empty for the defaults.
  std::optional<TorchVersion> Target;
  std::vector<ConfigValue> Select, Ignore, Exclude;
  std::vector<FileIgnore> PerFileIgnores;
  std::string DeviceExpression, DeviceTypeExpression;
  std::vector<std::string> RuleFiles; ///< Absolute paths of extra rule files or directories.
  bool FixDocstrings = false;         ///< `docstrings: fix`
  /// `cuda-role-files`: globs (relative to Dir) of C++ files that are CUDA
  /// by design, besides the built-in ones (*.cu, cuda/ directories, ...).
  std::vector<ConfigValue> CudaRoleFiles;
  /// `cuda-comments`: text that, in a comment on a finding's line, marks the
  /// line as CUDA by design (DeepSpeed's `#ignore-cuda`): the finding is kept.
  std::vector<ConfigValue> CudaComments;

  /// Parses Yaml as the config file Path (whose directory anchors relative
  /// paths and globs).
  static llvm::Expected<Config> parse(llvm::StringRef Path, llvm::StringRef Yaml);
  /// Reads and parses Path.
  static llvm::Expected<Config> load(llvm::StringRef Path);

  /// Every rule name in select, ignore and per-file-ignores must be a rule id
  /// or category of Rules: "file:line:col: unknown rule or category 'x'".
  llvm::Error checkNames(const RuleSet &Rules) const;

  /// The rules and categories per-file-ignores turn off for FilePath.
  std::vector<std::string> ignoredFor(llvm::StringRef FilePath) const;
  /// Whether an exclude glob matches FilePath.
  bool excludes(llvm::StringRef FilePath) const;
};

/// The nearest `.devport.yaml` in Dir or its ancestors, or "".
std::string findConfigFile(llvm::StringRef Dir);

/// Finds and loads the config of each file once per directory. Thread-safe.
class ConfigCache {
public:
  /// With Override set, every file gets that config.
  explicit ConfigCache(std::string Override = "") : Override(std::move(Override)) {}
  /// The config for FilePath (the defaults when none is found).
  llvm::Expected<std::shared_ptr<const Config>> forFile(llvm::StringRef FilePath);

private:
  /// findConfigFile(Dir), where every directory on the way up keeps its
  /// answer (answerUpward()). Under M.
  std::string configFileOfLocked(llvm::StringRef Dir);

  std::string Override;
  std::mutex M;
  llvm::StringMap<std::string> DirToFile;                    ///< directory -> config path ("" none)
  llvm::StringMap<std::shared_ptr<const Config>> Loaded;     ///< config path -> config
};

} // namespace devport

#endif
