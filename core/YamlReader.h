//===--- YamlReader.h - YAML documents with places in their errors --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// YamlReader wraps LLVM's YAML node parser for devport's own files (rules,
/// .devport.yaml): it turns parse errors into "file:line:col: yaml error: ..."
/// instead of printing them, and gives the helpers that validation needs
/// (a node's place, scalar values, mappings with known keys). Every problem is
/// collected, so one run reports all of them. Not thread-safe; one per file.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_YAMLREADER_H
#define DEVPORT_CORE_YAMLREADER_H

#include "core/Rule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace devport {

/// The deepest nesting of collections (mappings and sequences, block or
/// flow) that devport's YAML files may have. LLVM's YAML parser recurses once
/// per level when it skips a collection; a config file that comes with a
/// repository must not be able to overflow the stack (a 300,000-deep flow
/// mapping did).
constexpr unsigned MaxYamlDepth = 64;

/// Reads every node of every document of S with an explicit stack (it never
/// recurses), as Stream::validate() does, and gives the 1-based line and
/// column of the first collection nested deeper than MaxDepth, or nullopt.
/// Syntax errors go to SM's handler as the parse meets them (S.failed()
/// says whether there was one); past a too deep collection nothing is read.
std::optional<std::pair<unsigned, unsigned>>
walkYaml(llvm::yaml::Stream &S, const llvm::SourceMgr &SM, unsigned MaxDepth = MaxYamlDepth);

/// walkYaml() over Yaml, its syntax errors left unsaid (the parse that
/// follows reports them).
std::optional<std::pair<unsigned, unsigned>> yamlTooDeep(llvm::StringRef Yaml,
                                                         unsigned MaxDepth = MaxYamlDepth);

/// "file:line:col: nesting deeper than 64 levels; ..." for yamlTooDeep's place.
std::string yamlDepthMessage(llvm::StringRef FileName, std::pair<unsigned, unsigned> At);

class YamlReader {
public:
  /// DepthChecked: the caller walked Yaml with walkYaml() already (as
  /// RuleSet::loadBuffer does, for its syntax check), so it is not walked
  /// again here.
  YamlReader(llvm::StringRef FileName, llvm::StringRef Yaml, bool DepthChecked = false);
  YamlReader(const YamlReader &) = delete;
  YamlReader &operator=(const YamlReader &) = delete;

  /// The top-level mapping of the single document, or null after reporting
  /// why not (What names the file's kind in messages: "rule file").
  /// With EmptyIsError false, a file with no document, or an empty one
  /// (only comments), gives null without an error.
  llvm::yaml::MappingNode *topMapping(llvm::StringRef What, bool EmptyIsError = true);

  /// What messages may quote of a file's text (a key, a value): at most 40
  /// characters, control characters as '?', "..." when cut. A file that is
  /// not YAML (say `rules: [/etc/shadow]`) must not be echoed into a log.
  static std::string excerpt(llvm::StringRef S);

  /// Reports a second document after the one topMapping() returned; call it
  /// once the first document's nodes are no longer needed.
  void expectSingleDocument(llvm::StringRef What);

  RuleLoc loc(llvm::yaml::Node *N) const;
  void addError(const RuleLoc &L, const std::string &Msg);
  /// Every problem so far, one "file:line:col: reason" per line.
  const std::string &errors() const { return Errors; }

  /// The value of a plain, quoted or block scalar; reports "'Key' must be a
  /// string" for anything else (and that aliases are not supported).
  std::optional<std::string> scalar(llvm::yaml::Node *N, llvm::StringRef Key);
  /// The scalars of a sequence (or of a single scalar, as a one-element list),
  /// each with its place.
  std::vector<std::pair<std::string, RuleLoc>> scalarList(llvm::yaml::Node *N,
                                                          llvm::StringRef Key);

  using KeyFn = std::function<void(const std::string &Key, llvm::yaml::Node *Value,
                                   RuleLoc KeyLoc)>;
  /// Calls Fn for each entry of M; unknown keys (listing Allowed) and
  /// duplicate keys are errors. What names the mapping in messages.
  void forEachKey(llvm::yaml::MappingNode &M, llvm::ArrayRef<llvm::StringRef> Allowed,
                  llvm::StringRef What, const KeyFn &Fn);

  const std::string &fileName() const { return FileName; }

private:
  std::string FileName;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  llvm::SourceMgr SM;
  std::unique_ptr<llvm::yaml::Stream> Stream;
  llvm::yaml::document_iterator Doc;
  std::string Errors;
  bool TooDeep = false; ///< Never parsed: yamlTooDeep() refused it.
};

} // namespace devport

#endif
