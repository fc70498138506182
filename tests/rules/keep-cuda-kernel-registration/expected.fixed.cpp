// devport-test: rules=all
#include <torch/library.h>

TORCH_LIBRARY_IMPL(myops, CUDA, m) {  // expect: keep-cuda-kernel-registration
  m.impl("add", [](const at::Tensor &x) { return x.to(at::kCUDA); });
}
TORCH_LIBRARY_IMPL(myops, AutocastCUDA, m) {  // expect: keep-cuda-kernel-registration
  m.impl("add", add_autocast);
}
TORCH_LIBRARY_IMPL(myops, CPU, m) {
  m.impl("add", add_cpu);
}
REGISTER_CUDA_DISPATCH(add_stub, &add_kernel_cuda);  // expect: keep-cuda-kernel-registration
