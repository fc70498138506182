// devport-test: rules=all
// Registrations that name the CUDA dispatch key as an argument.
#include <ATen/core/op_registration/op_registration.h>
#include <torch/library.h>

at::Tensor legacy_cuda(const at::Tensor &x);
at::Tensor legacy_cpu(const at::Tensor &x);
struct Kernel final : c10::OperatorKernel {
  at::Tensor operator()(const at::Tensor &x) { return x; }
};

static auto legacy = c10::RegisterOperators()
    .op("myops::legacy(Tensor x) -> Tensor",
        c10::RegisterOperators::options()
            .kernel<decltype(legacy_cuda), &legacy_cuda>(c10::DispatchKey::CUDA)  // expect: keep-cuda-kernel-registration
            .kernel<decltype(legacy_cpu), &legacy_cpu>(c10::DispatchKey::CPU))
    .op("myops::functor(Tensor x) -> Tensor",
        c10::RegisterOperators::options().kernel<Kernel>(c10::DispatchKey::AutogradCUDA))  // expect: keep-cuda-kernel-registration
    .op("myops::lambda(Tensor x) -> Tensor",
        c10::RegisterOperators::options().kernel(c10::DispatchKey::CUDA, [](const at::Tensor &x) {  // expect: keep-cuda-kernel-registration
          return x.to(c10::kCUDA);
        }));

TORCH_LIBRARY(myops2, m) {
  m.def("f(Tensor x) -> Tensor", torch::dispatch(c10::DispatchKey::CUDA, &legacy_cuda));  // expect: keep-cuda-kernel-registration
  m.impl("g", c10::DispatchKey::CUDA, &legacy_cuda);  // expect: keep-cuda-kernel-registration
  m.impl("g", c10::DispatchKey::CPU, &legacy_cpu);
  m.impl("h", c10::kCUDA, &legacy_cuda);  // expect: keep-cuda-kernel-registration
  m.def("k(Tensor x) -> Tensor", torch::dispatch(c10::DeviceType::CUDA, &legacy_cuda));  // expect: keep-cuda-kernel-registration
}

// Not a registration: the key as a value.
bool cuda_key(c10::DispatchKey k) { return k == c10::DispatchKey::CPU; }
c10::DispatchKey pick() { return c10::DispatchKey::CUDA; }
