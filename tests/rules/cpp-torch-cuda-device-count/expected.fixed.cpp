// devport-test: target-torch=2.7
#include <torch/cuda.h>
#include <ATen/DeviceAccelerator.h>

// c10/cuda/CUDAFunctions.h needs the CUDA toolkit's headers: its declaration.
namespace c10 { namespace cuda { signed char device_count() noexcept; } }

int main() {
  int n = at::accelerator::deviceCount();  // expect: cpp-torch-cuda-device-count:unsafe
  for (size_t i = 0; i < at::accelerator::deviceCount(); ++i) {}  // expect: cpp-torch-cuda-device-count
  auto m = c10::cuda::device_count();
  return n;
}
