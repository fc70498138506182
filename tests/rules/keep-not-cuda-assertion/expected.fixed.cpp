// devport-test: rules=all
#include <ATen/ATen.h>
#include <ATen/DeviceAccelerator.h>

at::Tensor add_out_sparse_cpu(const at::Tensor &t, const at::Tensor &src, at::Tensor &r) {
  AT_ASSERT(!t.is_cuda());  // expect: keep-not-cuda-assertion
  TORCH_CHECK(!r.is_cuda(), "add: expected 'out' to be CPU tensor, but got CUDA tensor");  // expect: keep-not-cuda-assertion
  TORCH_CHECK(!src.contiguous().is_cuda());  // expect: keep-not-cuda-assertion
  TORCH_INTERNAL_ASSERT(!src.is_cuda(), "a CPU kernel");  // expect: keep-not-cuda-assertion
  // Not only a negation: reported (cpp-tensor-is-cuda), not kept.
  TORCH_CHECK(!at::isAccelerator(t.device().type()) || t.get_device() == src.get_device(), "same device");
  return r;
}
