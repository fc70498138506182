// devport-test: target-torch=2.6 lexical-only because kCUDA is deliberately unresolved: it does not compile
// An unqualified name that nothing brings in scope is reported without a fix.
#include <ATen/core/Tensor.h>

namespace mine {
void d(at::Tensor t) { t.to(kCUDA); }  // expect: cpp-cuda-device-type:report -- nothing brings c10 in scope here
} // namespace mine
