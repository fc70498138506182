//===--- Semantic.h - The C++ semantic backend (Clang LibTooling) ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The semantic half of the C++ engine: a file with a compile command (from
/// a compile_commands.json given with `-p DIR` or found upward from the
/// file) is parsed by Clang with that command, and each C++ rule's `matcher:`
/// (a clang-query expression, parsed with
/// clang::ast_matchers::dynamic::Parser) runs over the AST. Clang resolves
/// namespace aliases, using-declarations, typedefs and macros, so a match
/// knows its real declaration (`c10::DeviceType::CUDA` whatever the
/// spelling).
///
/// Only this file's .cpp includes Clang's AST, ASTMatchers and Tooling
/// headers (about 10 s of compile each): the rest of devport sees this
/// header only.
///
/// Headers: matches are kept in the main file only. A header of the project
/// is checked as its own main file, with a compile command inferred from
/// the nearest entry of the database (what clangd does), so each file's
/// findings are reported once, under its own path.
///
/// Thread-safety: SemanticMatchers and CompileCommands are immutable after
/// creation (CompileCommands caches lookups under a lock) and shared by every
/// thread; runSemantic() may run concurrently.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_CPP_SEMANTIC_H
#define DEVPORT_MATCHERS_CPP_SEMANTIC_H

#include "core/LanguageBackend.h"
#include "core/Rule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace devport::cpp {

/// The `matcher:` expressions of a set of rules, parsed by Clang's dynamic
/// matcher parser.
class SemanticMatchers {
public:
  /// Parses the matcher of each rule in Rules that has one (others are
  /// skipped). Fails with one "file:line:col: reason" line per expression
  /// Clang cannot parse (the position inside the expression mapped to the
  /// rule file where possible), or whose matcher cannot bind a node.
  static llvm::Expected<std::unique_ptr<SemanticMatchers>>
  compile(llvm::ArrayRef<const Rule *> Rules);
  ~SemanticMatchers();

  /// The rules that have a matcher.
  llvm::ArrayRef<const Rule *> rules() const;

  struct Impl;
  const Impl &impl() const { return *I; }

private:
  SemanticMatchers();
  std::unique_ptr<Impl> I;
};

/// One compile command: the working directory and the full command line
/// (argv[0] included), as compile_commands.json gives it.
struct CompileCommand {
  std::string Directory;
  std::vector<std::string> Arguments;
  /// The file Arguments compile, as the database names it (absolute, or
  /// relative to Directory); runSemantic puts its Path there. May be empty
  /// (a command written by hand): then an argument naming Path is replaced,
  /// or Path is appended.
  std::string Filename;
  /// Inferred from another entry (a header, or a file not in the database).
  bool Inferred = false;
};

/// Where compile commands come from.
class CompileCommands {
public:
  /// The database in Dir (`-p DIR`): Dir/compile_commands.json must exist
  /// and parse, else an error naming the file and the reason.
  static llvm::Expected<std::shared_ptr<const CompileCommands>> fromDirectory(llvm::StringRef Dir);
  /// A database found upward from each file's directory (the nearest
  /// compile_commands.json, also in a build/ subdirectory of each ancestor,
  /// as clangd does); lookups are cached per directory.
  static std::shared_ptr<const CompileCommands> discover();
  ~CompileCommands();

  /// The command for Path (absolute or relative to the current directory),
  /// or nullopt when no database covers it and none has an entry to infer
  /// one from.
  std::optional<CompileCommand> commandFor(llvm::StringRef Path) const;

  struct Impl;

private:
  CompileCommands();
  std::unique_ptr<Impl> I;
};

/// One match of a rule's matcher in the main file.
struct SemanticMatch {
  const Rule *R = nullptr;
  /// Byte offsets into the text given to runSemantic. A match inside a macro
  /// argument is placed where the argument is spelled; one inside a macro
  /// body, at the macro's use.
  ByteRange Range;
  /// Nodes bound with `.bind("NAME")`, as metavariable NAME.
  std::vector<BoundVar> Bindings;
  /// Part of the match comes from a macro expansion: report, never fix.
  bool InMacro = false;
  /// Its first or last token is written in a `#define` of this file: the
  /// match belongs to the macro's definition, which the lexical engine
  /// matches (Clang's AST has only the expansions).
  bool InDefinition = false;
};

struct SemanticResult {
  /// False when Clang reported an error: the caller falls back to the lexical
  /// backend, and Error says why ("path:line:col: message" of the first
  /// error).
  bool Compiled = false;
  std::string Error;
  /// Sorted by range, then rule id; one per rule and range.
  std::vector<SemanticMatch> Matches;
  /// The parts of the main file that the preprocessor skipped (the branches
  /// of `#if`s that this command does not compile), in order: the matchers
  /// never saw them.
  std::vector<ByteRange> Skipped;
};

/// Parses Text as the file Path with Command (Text replaces the file's
/// contents on disk, which need not exist) and runs every matcher of M.
SemanticResult runSemantic(const SemanticMatchers &M, const CompileCommand &Command,
                           llvm::StringRef Path, llvm::StringRef Text);

} // namespace devport::cpp

#endif
