//===--- Backends.h - The language backends devport has -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The explicit, sorted list of LanguageBackends (no self-registering
/// statics). A new language is one line in Backends.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_ENGINE_BACKENDS_H
#define DEVPORT_ENGINE_BACKENDS_H

#include "core/LanguageBackend.h"

#include "llvm/ADT/ArrayRef.h"

namespace devport {

/// Every backend, the default one (for paths no backend claims) first.
llvm::ArrayRef<const LanguageBackend *> defaultBackends();

} // namespace devport

#endif
