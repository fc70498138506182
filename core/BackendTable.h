//===--- BackendTable.h - Which backend module has which function ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `torch.get_device_module()` returns the current accelerator's module
/// (torch.cuda, torch.xpu, torch.mps, torch.mtia) or torch.cpu on a build
/// without one, so a fix that reaches `torch.get_device_module().NAME` is
/// only as portable as NAME. BackendTable is that knowledge as data:
/// data/backends.yaml, generated from PyTorch's source by
/// tools/gen_backend_table.py, lists for each public name the modules that
/// define it. The engine downgrades a safe fix that reaches a name some
/// module lacks to unsafe, with a note naming the modules.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_BACKENDTABLE_H
#define DEVPORT_CORE_BACKENDTABLE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace devport {

struct BackendTable {
  std::string Release;              ///< The PyTorch release it describes, e.g. "2.6".
  std::vector<std::string> Modules; ///< e.g. cuda, xpu, mps, mtia, cpu.
  /// Public name -> the modules that define it, in Modules' order.
  std::map<std::string, std::vector<std::string>> Names;

  /// Parses data/backends.yaml (`release`, `modules`, `names`); errors are
  /// "file:line:col: reason" lines.
  static llvm::Expected<BackendTable> parse(llvm::StringRef FileName, llvm::StringRef Yaml);

  /// The modules other than cuda that lack Name; empty when every module has
  /// it or the table does not know the name (a name nobody lists is not
  /// guessed at).
  std::vector<std::string> lacking(llvm::StringRef Name) const;

  /// Why a fix that reaches `torch.get_device_module().Name` is unsafe off
  /// CUDA ("unsafe off CUDA: torch.cpu has no `empty_cache` (PyTorch 2.6),
  /// and torch.get_device_module() returns it on a CPU-only build"), or ""
  /// when every module has Name.
  std::string portabilityNote(llvm::StringRef Name) const;

  /// The portabilityNote of every name Template reaches through
  /// `torch.get_device_module()` (deviceModuleNames, with Bound), skipping
  /// the names every module has: a fix with any is unsafe off CUDA.
  std::vector<std::string>
  portabilityNotes(llvm::StringRef Template,
                   llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Bound) const;
};

/// The names a fix template reaches through `torch.get_device_module(...)`:
/// `memory_stats` in `torch.get_device_module().memory_stats($DEV)`; a
/// metavariable name (`.$FN(...)`) is looked up with Bound, and left out
/// when Bound does not know it.
std::vector<std::string>
deviceModuleNames(llvm::StringRef Template,
                  llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Bound);

} // namespace devport

#endif
