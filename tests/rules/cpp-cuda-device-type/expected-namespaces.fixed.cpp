// devport-test: target-torch=2.6
// Unqualified names resolve through using-directives, using-declarations,
// enclosing namespaces and namespace aliases (input-unresolved.cpp: where
// nothing resolves them).
#include <ATen/core/Tensor.h>
#include <ATen/DeviceAccelerator.h>

namespace at {
namespace native {
Tensor to_device(const Tensor &t) { return t.to(at::getAccelerator().value_or(at::kCUDA)); }  // expect: cpp-cuda-device-type:unsafe
} // namespace native
} // namespace at

namespace mine {
void a(at::Tensor t) {
  using namespace torch;
  t.to(at::getAccelerator().value_or(at::kCUDA));  // expect: cpp-cuda-device-type:unsafe
}
void b(at::Tensor t) {
  using c10::kCUDA;
  t.to(at::getAccelerator().value_or(at::kCUDA));  // expect: cpp-cuda-device-type:unsafe
}
namespace dt = c10;
void c(at::Tensor t) { t.to(at::getAccelerator().value_or(at::kCUDA)); }  // expect: cpp-cuda-device-type:unsafe
// A type alias: the lexical engine reads names, not types.
using DT = c10::DeviceType;
void e(at::Tensor t) { t.to(DT::CUDA); }  // expect-semantic: cpp-cuda-device-type:unsafe -- only Clang knows that DT is c10::DeviceType
} // namespace mine

#ifdef USE_CUDA
// Kept by keep-cuda-build-guard when that rule runs; this fixture runs one rule.
#endif
