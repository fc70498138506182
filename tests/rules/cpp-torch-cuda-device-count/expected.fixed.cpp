// devport-test: target-torch=2.7
#include <torch/torch.h>
#include <ATen/DeviceAccelerator.h>

int main() {
  int n = at::accelerator::deviceCount();  // expect: cpp-torch-cuda-device-count:unsafe
  for (size_t i = 0; i < at::accelerator::deviceCount(); ++i) {}  // expect: cpp-torch-cuda-device-count
  auto m = c10::cuda::device_count();
  return n;
}
