#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) {  // expect: cpp-torch-cuda-runtime:report
    device = torch::Device(torch::kCUDA);
  }
  torch::cuda::synchronize();  // expect: cpp-torch-cuda-runtime
  torch::cuda::synchronize(0);  // expect: cpp-torch-cuda-runtime
  torch::cuda::manual_seed_all(42);  // expect: cpp-torch-cuda-runtime
  bool cudnn = torch::cuda::cudnn_is_available();
  return 0;
}
