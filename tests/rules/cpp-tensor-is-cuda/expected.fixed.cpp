#include <ATen/core/Tensor.h>
#include <optional>
#include <vector>

at::Tensor f(const at::Tensor &input, const at::Tensor &weight) {
  if (at::isAccelerator(input.device().type())) {  // expect: cpp-tensor-is-cuda:unsafe
    return input;
  }
  bool both = at::isAccelerator(input.device().type()) && weight.options().device().is_cuda();  // expect: cpp-tensor-is-cuda -- the second is a Device: left alone
  auto p = &input;
  if (at::isAccelerator(p->device().type())) {}  // expect: cpp-tensor-is-cuda
  if (input.is_cpu()) {}
  c10::Device where = input.device();
  if (at::isAccelerator(where.device().type())) {}  // expect: cpp-tensor-is-cuda // expect-semantic: none -- a c10::Device: only Clang knows that it is not a tensor
  // Devices by the names and spellings PyTorch gives them (c10::Device has is_cuda() too).
  std::optional<c10::Device> device = input.device(), device_opt = weight.device();
  if (!device || !(*device).is_cuda()) {}
  if (device_opt && device_opt->is_cuda()) {}
  c10::Device dev1 = input.device(), dev2 = weight.device();
  if (dev1.is_cuda() && dev2.is_cuda() && dev1 != dev2) {}
  // A call in a table's entry is replaced by a call: the fix stands (a constant there has none).
  std::vector<std::vector<bool>> on = {{at::isAccelerator(input.device().type()), false}};  // expect: cpp-tensor-is-cuda:unsafe
  // input.is_cuda() in a comment
  const char *doc = "call input.is_cuda() first";
  return weight;
}

// In a macro of this file: found in the definition, not at each use.
#define CHECK_CUDA(x) TORCH_CHECK(at::isAccelerator(x.device().type()), #x " must be a CUDA tensor")  // expect: cpp-tensor-is-cuda
#define ON_GPU(x) (at::isAccelerator(x.device().type()))  // expect: cpp-tensor-is-cuda
void g(const at::Tensor &input) {
  CHECK_CUDA(input);
  if (ON_GPU(input)) {}
}

// A JIT node's kind is a Symbol: its is_cuda() asks for the `cuda::` namespace of ops.
#include <ATen/core/interned_strings.h>
#include <ATen/DeviceAccelerator.h>
bool cuda_op(c10::Symbol kind_, const c10::Symbol &other) { return kind_.is_cuda() || other.is_prim(); }
