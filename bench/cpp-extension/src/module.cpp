// The extension's C++ frontend part: torch:: modules on the GPU.
#include <torch/torch.h>

namespace ext {

struct Net : torch::nn::Module {
  Net() : Fc(register_module("fc", torch::nn::Linear(8, 4))) {}
  torch::Tensor forward(torch::Tensor X) { return Fc->forward(X); }
  torch::nn::Linear Fc;
};

torch::Device defaultDevice() {
  if (torch::cuda::is_available() && torch::cuda::device_count() > 0)
    return torch::Device(torch::kCUDA, 0);
  return torch::Device(torch::kCPU);
}

torch::Tensor run(torch::Tensor X) {
  Net N;
  N.to(defaultDevice());
  return N.forward(X.to(torch::kCUDA)).is_cuda() ? X : X.cpu();
}

} // namespace ext
