//===--- ProjectModules.h - What the project's own modules import ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The review of a guard (Review.cpp, cudaOnlyCode()) reads one module, but
/// guarded code often imports the project's own: axolotl's kernel tests skip
/// without CUDA and then `from axolotl.kernels.gemma4_fused_rope import ...`,
/// a module whose first lines `import triton`, which has no build for macOS.
/// This finds such a module on disk, beside the importing file or above it,
/// and reads its top level without parsing it.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_PROJECTMODULES_H
#define DEVPORT_MATCHERS_PYTHON_PROJECTMODULES_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace devport::python {

/// Where the module Module (dotted, "" for the package itself), imported with
/// Level leading dots from the file at FromPath, is a file of the project:
/// for a relative import, in FromPath's package; otherwise in FromPath's
/// directory or one of its ancestors (or their `src/`), eight levels at
/// most, as `a/b.py` or `a/b/__init__.py`. Nothing for a module that is not
/// there (another distribution's, `torch`, `numpy`).
std::optional<std::string> projectModulePath(llvm::StringRef FromPath, llvm::StringRef Module,
                                             unsigned Level);

/// Whether the file at Path imports Triton at its top level: a line that
/// starts, in its first column, with `import triton` or `from triton` (a
/// module's own statements; not one in a `try` or a function, nor one in a
/// triple-quoted string such as the docstring's example). Read once a
/// process for each path, size and modification time; the first 4 MiB.
bool importsTritonAtTop(const std::string &Path);

/// Where the name Name, imported from Module (Level leading dots) in the file
/// at FromPath, comes from a module of the project whose top level loads a
/// compiled extension of the project: an import of a module named `_C`,
/// `..._ext` or `..._cuda` (`from detectron2 import _C`, `import
/// deform_conv_cuda`; not torch's own), or a call of `load_ext` (mmcv's
/// `ext_loader.load_ext('_ext', [...])`), `load_library`, `load_inline` or
/// `cpp_extension.load`, in its first column. Module itself, or the module
/// of the package that a package's `__init__.py` takes Name from (`from
/// .focal_loss import softmax_focal_loss` in mmcv/ops). Such kernels are the
/// CPU's and CUDA's (mmcv has one MPS op among some hundred): MPS and XPU
/// tensors find none. The module's path, or nothing (not the project's, or
/// no extension: `torch` and its submodules never).
std::optional<std::string> extensionModuleOf(llvm::StringRef FromPath, llvm::StringRef Module,
                                             unsigned Level, llvm::StringRef Name);

/// A test of the project that replaces a `torch.cuda` function
/// (`monkeypatch.setattr(torch.cuda, "current_device", ...)`,
/// `mock.patch("torch.cuda.synchronize")`, `patch.object(torch.cuda, ...)`,
/// `torch.cuda.is_available = ...`) and imports a module that calls it.
struct CudaDouble {
  std::string Test; ///< The test file, from the project's directory.
  unsigned Line = 0;
};

/// Whether a test of the project of the module at ModulePath imports that
/// module (`from pkg.engine import f`, `import pkg.engine`, `from pkg import
/// engine`) and replaces `torch.cuda.<Name>`: Megatron-LM's tests run its
/// modules on the CPU with `torch.cuda.current_device` answering "cpu", which
/// a call ported to torch.accelerator no longer reaches. The project is the
/// outermost directory above the module with a packaging file
/// (ProjectRequirements.h; not past one that holds `.git`: Megatron-LM's
/// megatron/core has its own; none where no directory above the module has
/// one: a script on its own is read alone); its tests are the files
/// named `test*.py`, `*_test.py` or `conftest.py` under it, not in a hidden
/// directory, `node_modules`, `__pycache__`, `site-packages` or a `venv`.
/// Read once a process for each project (the first call reads every test
/// that mentions `torch.cuda`), 100,000 directory entries at most, until
/// forgetProjectFile() says that one of its tests changed.
std::optional<CudaDouble> testDoubleOf(llvm::StringRef ModulePath, llvm::StringRef Name);

/// Tells testDoubleOf() that the file at Path changed, appeared or went
/// away (the language server, on a save or a watched file's event): a test
/// (by its name, as testDoubleOf() finds them) makes the tests of each
/// project that holds it read again on next use; a packaging file, every
/// project's, and which directory is a module's project. Returns whether
/// anything read before was dropped.
bool forgetProjectFile(llvm::StringRef Path);

} // namespace devport::python

#endif
