#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

void run(const at::Tensor &x) {
  c10::cuda::CUDAGuard guard(x.device());  // expect: cpp-cuda-runtime-namespace:report
  auto stream = at::cuda::getCurrentCUDAStream();  // expect: cpp-cuda-runtime-namespace
  at::cuda::detail::getDefaultCUDAGenerator();  // expect: cpp-cuda-runtime-namespace
  auto d = torch::cuda::device_count();
}
