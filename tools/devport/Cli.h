//===--- Cli.h - The devport command line ---------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// runMain is the whole `devport` command: main.cpp only forwards to it, and
/// the CLI tests call it in-process with their own streams.
///
/// Exit codes (a contract, see docs/cli.md): 0 nothing found (check) or
/// nothing left to fix (fix); 1 findings, findings left after fixing, a
/// non-empty `fix --diff`, or a file that could not be checked; 2 a usage,
/// configuration or rule-file error.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TOOLS_DEVPORT_CLI_H
#define DEVPORT_TOOLS_DEVPORT_CLI_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace devport {

/// Where the CLI reads and writes; tests substitute their own.
struct CliIO {
  llvm::raw_ostream &Out;
  llvm::raw_ostream &Err;
  /// Reads all of standard input.
  std::function<llvm::Expected<std::string>()> ReadStdin;
  /// Standard error is a terminal (a progress bar may be drawn on Err), and
  /// how wide (0: unknown); standard output is one too (it shares the screen).
  bool ErrIsTerminal = false;
  bool OutIsTerminal = false;
  unsigned ErrColumns = 0;
};

enum ExitCode : int { ExitClean = 0, ExitFindings = 1, ExitUsage = 2 };

int runMain(int Argc, const char *const *Argv, CliIO &IO);
/// With the process's stdin, stdout and stderr.
int runMain(int Argc, const char *const *Argv);

/// The URI of devport's docs/ (ends in `/`): the build's DEVPORT_DOCS_URL,
/// else this source tree's docs/ as a file URI. SARIF's help links and the
/// language server's rule links point under it.
std::string docsUri();

/// `devport lsp [options]` (tools/devport/LspCommand.cpp): the arguments
/// after `lsp`.
int runLspCommand(llvm::ArrayRef<const char *> Args, CliIO &IO);

} // namespace devport

#endif
