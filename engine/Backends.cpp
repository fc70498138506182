//===--- Backends.cpp - The language backends devport has -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "engine/Backends.h"

#include "matchers/cpp/CppBackend.h"
#include "matchers/python/PythonBackend.h"

namespace devport {

llvm::ArrayRef<const LanguageBackend *> defaultBackends() {
  static const python::PythonBackend Python;
  static const cpp::CppBackend Cpp;
  static const LanguageBackend *const All[] = {
      &Python, // the default: standard input without a file name is Python
      &Cpp,
  };
  return All;
}

} // namespace devport
