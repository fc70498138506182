// devport-test: target-torch=2.7
#include <torch/torch.h>

int main() {
  int n = torch::cuda::device_count();  // expect: cpp-torch-cuda-device-count:unsafe
  for (size_t i = 0; i < torch::cuda::device_count(); ++i) {}  // expect: cpp-torch-cuda-device-count
  auto m = c10::cuda::device_count();
  return n;
}
