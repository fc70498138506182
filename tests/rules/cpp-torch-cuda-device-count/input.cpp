// devport-test: target-torch=2.7
#include <torch/cuda.h>

// c10/cuda/CUDAFunctions.h needs the CUDA toolkit's headers: its declaration.
namespace c10 { namespace cuda { signed char device_count() noexcept; } }

int main() {
  int n = torch::cuda::device_count();  // expect: cpp-torch-cuda-device-count:unsafe
  for (size_t i = 0; i < torch::cuda::device_count(); ++i) {}  // expect: cpp-torch-cuda-device-count
  auto m = c10::cuda::device_count();
  return n;
}
