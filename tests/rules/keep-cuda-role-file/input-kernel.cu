// A .cu file: every generic finding here is kept.  // expect: keep-cuda-role-file
#include <ATen/ATen.h>
void launch(const at::Tensor &x) {
  TORCH_CHECK(x.is_cuda(), "x must be CUDA");
  auto opts = x.options().device(at::kCUDA);
}
