#include <ATen/ATen.h>

void check(const at::Tensor &x, const at::Tensor &y) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");  // expect: cpp-tensor-is-cuda-precondition:report
  TORCH_CHECK(  // expect: cpp-tensor-is-cuda-precondition
      y.contiguous().is_cuda(),
      "y must be CUDA");
  TORCH_INTERNAL_ASSERT(x.is_cuda());  // expect: cpp-tensor-is-cuda-precondition
  TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
  TORCH_CHECK(x.dim() == 2 && x.is_cuda(), "2-d CUDA");  // expect: cpp-tensor-is-cuda-precondition -- still requires CUDA
}

// The opposite: a check that a tensor is not on CUDA (keep-not-cuda-assertion).
void cpu_kernel(const at::Tensor &r) {
  TORCH_CHECK(!r.is_cuda(), "expected 'out' to be a CPU tensor");
}
