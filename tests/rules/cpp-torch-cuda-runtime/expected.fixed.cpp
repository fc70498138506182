#include <c10/core/Device.h>
#include <torch/cuda.h>

int main() {
  c10::Device device(c10::kCPU);
  if (torch::cuda::is_available()) {  // expect: cpp-torch-cuda-runtime:report
    device = c10::Device(c10::kCUDA);
  }
  torch::cuda::synchronize();  // expect: cpp-torch-cuda-runtime
  torch::cuda::synchronize(0);  // expect: cpp-torch-cuda-runtime
  torch::cuda::manual_seed_all(42);  // expect: cpp-torch-cuda-runtime
  bool cudnn = torch::cuda::cudnn_is_available();
  return 0;
}
