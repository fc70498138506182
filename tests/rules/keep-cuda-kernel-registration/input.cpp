// devport-test: rules=all
#include <ATen/native/DispatchStub.h>
#include <torch/library.h>

at::Tensor add_autocast(const at::Tensor &x);
at::Tensor add_cpu(const at::Tensor &x);

TORCH_LIBRARY_IMPL(myops, CUDA, m) {  // expect: keep-cuda-kernel-registration
  m.impl("add", [](const at::Tensor &x) { return x.to(at::kCUDA); });
}
TORCH_LIBRARY_IMPL(myops, AutocastCUDA, m) {  // expect: keep-cuda-kernel-registration
  m.impl("add", add_autocast);
}
TORCH_LIBRARY_IMPL(myops, CPU, m) {
  m.impl("add", add_cpu);
}

namespace at::native {
using add_fn = void (*)(const at::Tensor &);
DECLARE_DISPATCH(add_fn, add_stub);
DEFINE_DISPATCH(add_stub);
void add_kernel_cuda(const at::Tensor &x);
REGISTER_CUDA_DISPATCH(add_stub, &add_kernel_cuda);  // expect: keep-cuda-kernel-registration
} // namespace at::native
