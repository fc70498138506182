//===--- Template.h - Fix templates ---------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Expands a rule's fix template such as `torch.accelerator.set_device_index($DEV)`
/// by substituting each metavariable with the source text it bound to.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REWRITERS_TEMPLATE_H
#define DEVPORT_REWRITERS_TEMPLATE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>

namespace devport {

/// Returns the text bound to a metavariable name (without '$'), or nullopt if
/// the match did not bind it.
using MetavarLookup = std::function<std::optional<std::string>(llvm::StringRef Name)>;

/// Substitutes `$NAME` and `$$$NAME` (NAME = [A-Z_][A-Z0-9_]*) in Template.
/// An unbound metavariable expands to "" and, if it stood in an argument
/// list, the comma next to it is dropped too, so that
/// `f($A, $B)` with only A bound gives `f(a)` and with neither gives `f()`;
/// an unbound keyword argument goes whole, so `f($A, key=$K)` gives `f(a)`.
/// `$$` not starting a `$$$NAME` is a literal '$' (`$$5` gives `$5`, `$$X`
/// gives `$X`). Everything else is copied verbatim. The `$` runs are read by
/// core/Metavariable.h, as the rule validator reads them.
std::string expandTemplate(llvm::StringRef Template, const MetavarLookup &Lookup);

} // namespace devport

#endif
