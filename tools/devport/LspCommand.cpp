//===--- LspCommand.cpp - `devport lsp` -----------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "lsp/Server.h"
#include "tools/devport/Cli.h"

#include "llvm/ADT/StringRef.h"

namespace devport {

namespace {

const char *const LspUsage = R"USAGE(devport lsp: the language server (LSP 3.17 over stdin/stdout)

usage: devport lsp [options]

Diagnostics while you type (Python: incremental re-parse; C++: the lexical engine on
the buffer, the semantic one on save when a compile_commands.json exists), one quick
fix per fixable finding (unsafe ones marked, never preferred), "ignore this rule on
this line", `source.fixAll.devport` (safe fixes only), and hover with the rule, the
replacement and the PyTorch release that has it. Settings: initializationOptions or
workspace/didChangeConfiguration (section "devport"): targetTorch, select, ignore,
deviceExpression, config, compileCommandsDir, cppEngine, docsUrl; and the nearest
.devport.yaml of each file.

options:
  --rules DIR        load the rule database from DIR instead of the built-in one
  --config FILE      settings for every file (default: the nearest .devport.yaml)
  -p DIR             C++: the directory of compile_commands.json
  --docs-url URL     base of the rule links (default: the rules/ of the docs that
                     SARIF links to: this source tree's, or the build's DEVPORT_DOCS_URL)
  --log=verbose      log every message on stderr
  --lit-test         `---`-delimited messages (tests/lsp/*.test), pretty output

Editors (docs/editors.md has more):
  VS Code   extension "Generic LSP Client (v2)" (zsol.vscode-glspc), settings.json:
              "glspc.server.command": "devport",
              "glspc.server.commandArguments": ["lsp"],
              "glspc.server.languageId": ["python", "cpp", "cuda-cpp"]
  Neovim    0.8+: vim.lsp.start({ name = "devport", cmd = { "devport", "lsp" },
                    root_dir = vim.fs.dirname(vim.fs.find({ ".git" }, { upward = true })[1]) })
            0.7 (Debian bookworm): vim.lsp.start_client{...} + vim.lsp.buf_attach_client,
            in a FileType python,cpp autocommand
  Helix     languages.toml:
              [language-server.devport]
              command = "devport"
              args = ["lsp"]
              [[language]]
              name = "python"
              language-servers = ["pylsp", "devport"]
  Emacs     (with-eval-after-load 'eglot (add-to-list 'eglot-server-programs
              '((python-mode python-ts-mode c++-mode) . ("devport" "lsp"))))
)USAGE";

} // namespace

int runLspCommand(llvm::ArrayRef<const char *> Args, CliIO &IO) {
  lsp::LanguageServerOptions O;
  O.Server.DocsURL = docsUri() + "rules/";
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    auto Value = [&](std::string &Out) {
      if (A.contains('=')) {
        Out = A.split('=').second.str();
        return true;
      }
      if (I + 1 >= Args.size())
        return false;
      Out = Args[++I];
      return true;
    };
    llvm::StringRef Name = A.split('=').first;
    bool Ok = true;
    if (Name == "--help" || Name == "-h") {
      IO.Out << LspUsage;
      return ExitClean;
    } else if (A == "--lit-test") {
      O.LitTest = true;
    } else if (A == "--log=verbose") {
      O.Verbose = true;
    } else if (Name == "--rules") {
      Ok = Value(O.Server.Project.RulesDir);
    } else if (Name == "--config") {
      Ok = Value(O.Server.Project.ConfigFile);
    } else if (Name == "-p") {
      Ok = Value(O.Server.Project.CompileCommandsDir);
    } else if (Name == "--docs-url") {
      Ok = Value(O.Server.DocsURL);
    } else {
      IO.Err << "devport: error: unknown option '" << A
             << "' for 'lsp'\n(run `devport lsp --help` for usage)\n";
      return ExitUsage;
    }
    if (!Ok) {
      IO.Err << "devport: error: option '" << Name << "' needs a value\n";
      return ExitUsage;
    }
  }
  IO.Out.flush();
  IO.Err.flush();
  return lsp::runLanguageServer(O);
}

} // namespace devport
