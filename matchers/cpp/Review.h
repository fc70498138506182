//===--- Review.h - C++ findings reviewed in the code around them ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lexical engine matches a name, one at a time; whether a finding is a
/// device choice to port depends on the code around it, which this review
/// reads from the tokens (docs/safety.md, "C++"):
///
/// - the fallback of `at::getAccelerator().value_or(at::kCUDA)` (what the
///   `kCUDA` fix writes: the device type on a build without an
///   accelerator, as before), kept;
/// - in a function or test named for CUDA as a file of the CUDA role is
///   (isCudaRoleName(): `tensor_from_cuda_array_interface`, `lazyInitCUDA`,
///   `TEST(ModuleTest, Conversion_MultiCUDA)`), CUDA is what the code is
///   about: kept;
/// - a dispatch key in a gtest case or a file of them: test data of the
///   dispatcher (the key a kernel is registered for, the key a dummy tensor
///   carries), kept;
/// - in a condition joined by `&&`/`||` that names cuDNN or MIOpen: a gate of
///   CUDA's or ROCm's own library, kept;
/// - in the arm of a `switch` whose `case` names CUDA (`case Backend::CUDA:`,
///   `case DispatchKey::AutocastCUDA:`): one arm of a per-device switch, kept;
/// - in an `if`/`else if` chain whose conditions name CUDA and another
///   accelerator (`== kCUDA` ... `== kXPU`): a per-backend ladder, kept
///   whole;
/// - in a braced list or table that also names another accelerator's entry
///   (`DispatchKeySet({AutocastCPU, AutocastCUDA, AutocastXPU})`): kept;
/// - beside a string naming CUDA in its entry or call (`{"cuda:0",
///   DeviceType::CUDA, 0}`, `.value("CUDA", DeviceType::CUDA)`): a name
///   paired with its device, kept;
/// - in a condition that also names another accelerator (`is_cuda() ||
///   is_xpu()`): an allow-list; reported, without a fix;
/// - under a CUDA check that stays (`if (at::hasCUDA()) {`, `cuda ? kCUDA :
///   kCPU`): reported, without a fix;
/// - in the condition of an `if` whose block is CUDA-only (`if (x.is_cuda())
///   { return roi_align_forward_cuda(x); }`): reported, without a fix.
///
/// Findings of rules whose category is `device-special-case` (PyTorch/XLA's
/// device enum) are not reviewed: those rules report every arm on purpose.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_CPP_REVIEW_H
#define DEVPORT_MATCHERS_CPP_REVIEW_H

#include "core/Diagnostic.h"
#include "matchers/cpp/CppLexer.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace devport::cpp {

/// Reviews Findings, all in L's text: may move some into Kept under a keep
/// entry of the review's, and may drop a fix with a note. Where L was lexed
/// but for some statements, those in reviewScopes() are lexed again.
void reviewFindings(const LexedFile &L, std::vector<Diagnostic> &Findings,
                    std::vector<Diagnostic> &Kept);

/// What reviewing Findings reads of L's text: for each, the outermost braces
/// around it that are not a namespace's (a function, a class, an
/// initializer at namespace scope) with the statement that opens them. A
/// file lexed but for some statements needs those in these ranges lexed
/// for reviewFindings() to see what it would see in the whole file.
std::vector<ByteRange> reviewScopes(const LexedFile &L, llvm::ArrayRef<Diagnostic> Findings);

/// The backend that a C++ name stands for, as its DeviceType or DispatchKey
/// enumerator spells it: "CUDA" for `kCUDA`, `CUDA`, `AutocastCUDA`,
/// `SparseCsrCUDA` and `is_cuda`; "XPU" for `kXPU`, `QuantizedXPU` and
/// `is_xpu`; "PrivateUse1" for `is_privateuseone`; empty for other names.
llvm::StringRef backendNamed(llvm::StringRef Name);

/// Whether B (a backendNamed() result) is an accelerator other than CUDA.
bool isOtherAccelerator(llvm::StringRef B);

} // namespace devport::cpp

#endif
