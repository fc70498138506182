// Tensor operations with ATen: moves to the GPU and is_cuda() preconditions.
#include <ATen/ATen.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define ON_GPU(t) ((t).device().type() == at::kCUDA)

namespace ext {

at::Tensor scale(const at::Tensor &X, double Factor) {
  CHECK_CUDA(X);
  return X * Factor;
}

at::Tensor toAccelerator(const at::Tensor &X) {
  if (!X.is_cuda())
    return X.to(at::kCUDA);
  return X;
}

at::Tensor addOnDevice(const at::Tensor &A, const at::Tensor &B) {
  TORCH_CHECK(A.device() == B.device(), "tensors on different devices");
  auto Opts = at::TensorOptions().device(at::Device(at::DeviceType::CUDA, 0));
  at::Tensor Out = at::empty(A.sizes(), Opts.dtype(A.dtype()));
  if (ON_GPU(A))
    Out.copy_(A + B);
  return Out;
}

} // namespace ext
