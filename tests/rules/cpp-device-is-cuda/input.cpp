// devport-test: rules=all
#include <ATen/core/Tensor.h>
#include <optional>

at::Tensor f(const at::Tensor &input, const at::Tensor &weight) {
  if (input.device().is_cuda()) {  // expect: cpp-device-is-cuda:unsafe
    return input;
  }
  bool both = input.is_cuda() && weight.options().device().is_cuda();  // expect: cpp-tensor-is-cuda:unsafe, cpp-device-is-cuda:unsafe
  std::optional<c10::Device> device = input.device(), device_opt = weight.device();
  if (!device || !(*device).is_cuda()) {}  // expect: cpp-device-is-cuda:unsafe
  if (device_opt && device_opt->is_cuda()) {}  // expect: cpp-device-is-cuda:unsafe
  c10::Device dev1 = input.device(), dev2 = weight.device();
  if (dev1.is_cuda() && dev1 != dev2) {}  // expect: cpp-device-is-cuda:unsafe
  c10::Device where = input.device();
  if (where.is_cuda()) {}  // expect-semantic: cpp-device-is-cuda:unsafe -- a c10::Device by a name that says nothing: only Clang knows
  // Preconditions are another rule's, and comments and strings are no code.
  TORCH_CHECK(input.device().is_cuda(), "input must be on CUDA");  // expect: cpp-tensor-is-cuda-precondition
  // input.device().is_cuda() in a comment
  const char *doc = "call input.device().is_cuda() first";
  // A tensor's own is_cuda() and a device's type are other rules'.
  if (input.is_cpu() || input.device().is_cpu()) {}
  return weight;
}

// A JIT node's kind is a Symbol: its is_cuda() asks for the `cuda::` namespace of ops.
#include <ATen/core/interned_strings.h>
bool cuda_op(c10::Symbol kind_) { return kind_.is_cuda(); }
